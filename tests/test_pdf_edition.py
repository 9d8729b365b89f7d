"""Smoke test of the PDF edition (``make pdf``): it exists, has every chapter
numbered as in the HTML edition, and built cleanly (every cross-reference and
citation resolved, no character missing from the fonts).

Skips with a message when the PDF has not been built (it needs TeX, which
``make pdf`` installs from Debian's packages); ``make pdf`` runs it at the end.
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
    # (make pdf runs latexmk -xelatex: XeLaTeX writes book.xdv, xdvipdfmx the PDF)
    pages = int(re.search(r"Output written on book\.(?:pdf|xdv) \((\d+) pages", log).group(1))
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
    # each pointer names the page of the chapter the figure is in
    pointers = [p.replace("\\_", "_") for p in re.findall(
        r"in the HTML edition of this chapter\s*\((book/[\w\\.-]+)\.html\)", tex)]  # LaTeX writes _ as \_
    assert len(pointers) == tex.count("in the HTML edition of this chapter")
    pages = {notebook.stem for notebook in CHAPTERS} | {"playground"}
    assert {p.split("/")[1] for p in pointers} <= pages, sorted(set(pointers))
    assert len(set(pointers)) >= len(CHAPTERS), sorted(set(pointers))


def test_chapters_are_numbered_as_in_the_html(built):
    toc = (LATEX / "book.toc").read_text(encoding="utf-8", errors="replace")
    numbered = re.findall(r"\\contentsline \{chapter\}\{\\numberline \{(\w+)\}", toc)
    # the chapters 1, 2, ... (the introduction's sections are not numbered),
    # then the appendices A, B, ...
    digits = [n for n in numbered if n.isdigit()]
    assert digits == [str(k) for k in range(1, len(CHAPTERS) + 1)], numbered
    letters = [n for n in numbered if not n.isdigit()]
    assert letters and letters[0] == "A", numbered
    first = re.search(r"\\numberline \{1\}([^}]*)\}", toc).group(1)
    assert " ".join(re.findall(r"[A-Za-z]{3,}", _title(CHAPTERS[0]))[:2]) in first


def test_pdf_built_cleanly(built):
    """The last LaTeX run: no undefined reference or citation, no missing glyph."""
    log = (LATEX / "book.log").read_text(encoding="utf-8", errors="replace")
    log = re.sub(r"(?m)^(.{79})\n", r"\1", log)  # TeX breaks its log's lines at 79 characters
    undefined = re.findall(r"(?:Hyper reference|Reference|Citation) `([^']+)' on page \d+ undefined",
                           log)
    assert not undefined, f"{len(undefined)} unresolved references, e.g. {undefined[:5]}"
    missing = sorted(set(re.findall(r"Missing character: There is no (.) \((U\+[0-9A-F]+)\)", log)))
    assert not missing, f"characters the PDF's fonts do not have: {missing}"
