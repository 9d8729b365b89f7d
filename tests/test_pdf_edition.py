"""Smoke test of the PDF edition (``make pdf``): it exists and has every chapter.

Skips with a message when the PDF has not been built (it needs TeX, which
``make pdf`` installs from Debian's packages).
"""

import json
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
LATEX = ROOT / "_build" / "latex"
PDF = LATEX / "book.pdf"
CHAPTERS = sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))


def _title(notebook):
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    raise AssertionError(f"{notebook.name} has no '# ' title")


@pytest.fixture(scope="module")
def built():
    if not PDF.exists():
        pytest.skip("the PDF edition is not built: run `make pdf`")
    return PDF


def _plain(tex):
    """Words of a LaTeX string, for comparing titles."""
    tex = re.sub(r"\\[a-zA-Z]+\*?", " ", tex)
    return re.findall(r"[A-Za-z]{3,}", tex)


def test_pdf_exists_and_has_every_chapter(built):
    assert built.read_bytes()[:5] == b"%PDF-"
    log = (LATEX / "book.log").read_text(encoding="utf-8", errors="replace")
    pages = int(re.search(r"Output written on book\.pdf \((\d+) pages", log).group(1))
    assert pages > 20 * len(CHAPTERS) // 2, f"only {pages} pages"
    toc = (LATEX / "book.toc").read_text(encoding="utf-8", errors="replace")
    chapters = [line for line in toc.splitlines() if "{chapter}" in line]
    toc_words = [_plain(line) for line in chapters]
    for notebook in CHAPTERS:
        words = re.findall(r"[A-Za-z]{3,}", _title(notebook))
        assert any(" ".join(words[:3]) in " ".join(w) for w in toc_words), (
            f"{notebook.stem}: chapter {_title(notebook)!r} is not in the PDF's contents")


def test_interactive_figures_are_frames_with_a_pointer(built):
    tex = (LATEX / "book.tex").read_text(encoding="utf-8", errors="replace")
    n = tex.count("Interactive figure:")
    assert n >= 2 * len(CHAPTERS), f"{n} interactive figures in the PDF"
    assert tex.count("svmlib_frames/") >= n
    assert "in the HTML edition of this chapter" in tex
