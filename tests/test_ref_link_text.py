"""tools/ref_link_text.py: explicit link texts for bare {ref} roles."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import ref_link_text as tool  # noqa: E402


def test_title_math_becomes_plain_text():
    assert tool.title_text("Choosing $C$ and $\\gamma$ by cross-validation") == \
        "Choosing C and γ by cross-validation"
    assert tool.title_text("The map of $(\\mathbf{x} \\cdot \\mathbf{z} + 1)^2$") == "The map of (x · z + 1)²"
    with pytest.raises(ValueError, match="no plain-text form"):
        tool.title_text("$\\frobnicate$")


def test_targets_are_read_from_the_book():
    targets = tool.collect_targets()
    assert targets["ch-kernels"] == ("chapter", "chapter 8, Kernels")
    assert targets["app-notation"] == ("section", "Notation")
    assert targets["ex-kernels-sum"][0] == "exercise"


def test_link_texts_capitalized_at_a_sentence_start_and_idempotent():
    targets = {"ch-a": ("chapter", "chapter 1, Alpha"), "sec-b": ("section", "Beta")}
    text = ("See {ref}`ch-a`. {ref}`ch-a` starts a sentence;\n"
            "a line break ({ref}`sec-b`) does not, nor does {ref}`text <ch-a>`.")
    missing = set()
    once = tool.add_link_texts(text, targets, missing)
    assert once == ("See {ref}`chapter 1, Alpha <ch-a>`. {ref}`Chapter 1, Alpha <ch-a>` starts a "
                    "sentence;\na line break ({ref}`Beta <sec-b>`) does not, nor does {ref}`text <ch-a>`.")
    assert tool.add_link_texts(once, targets, missing) == once
    assert not missing
    tool.add_link_texts("{ref}`nowhere`", targets, missing)
    assert missing == {"nowhere"}


def test_notebook_round_trip_and_check_mode(tmp_path):
    notebook = {"cells": [{"cell_type": "markdown", "id": "a", "metadata": {},
                           "source": ["As in {ref}`ch-kernels`.\n", "Done."]},
                          {"cell_type": "code", "id": "b", "metadata": {}, "outputs": [],
                           "execution_count": None, "source": ["x = '{ref}`ch-kernels`'"]}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "chapter.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    assert tool.main(["--check", str(path)]) == 1
    assert tool.main([str(path)]) == 0
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    assert "".join(cells[0]["source"]) == "As in {ref}`chapter 8, Kernels <ch-kernels>`.\nDone."
    assert cells[1]["source"] == ["x = '{ref}`ch-kernels`'"]        # code is left alone
    assert tool.main(["--check", str(path)]) == 0


def test_rejects_what_is_not_a_notebook(tmp_path):
    with pytest.raises(SystemExit):
        tool.main([str(tmp_path / "missing.md")])


def test_every_notebook_of_the_book_has_link_texts():
    # a bare {ref} reads as a raw label in JupyterLab: run the tool after editing
    notebooks = sorted(str(p) for p in tool.BOOK.glob("*.ipynb"))
    assert len(notebooks) >= 13
    assert tool.main(["--check", *notebooks]) == 0, (
        "some chapter has a bare {ref} role: run python tools/ref_link_text.py book/*.ipynb")
