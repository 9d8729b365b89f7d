"""The learner's edition (book/make_notebooks.py): the chapters in any Jupyter.

Unit tests check each transformation on small inputs against a hand-made
index of numbers.  The tests over the edition build it from the book build in
``_build`` (its Sphinx environment and the notebooks myst-nb executed; they
skip, saying so, when there is no build) and check every chapter: no raw role,
directive fence or ``(label)=`` line, every figure's caption with the book's
number, the numbers the HTML book shows, no solution text outside
``<details>``, the set-up cells, the HTML book's download links; and that
``jupyter nbconvert --to html`` of every edition notebook reads as in
JupyterLab (``_reading_checks``).  The browser test (marker ``browser``) starts
one JupyterLab server on the edition and opens every chapter in headless
Chromium twice, in stock JupyterLab (jupyterlab-myst disabled) and with
jupyterlab-myst: no raw role, directive fence, label, TeX or glue key in what
the reader sees, every caption, the book's numbers as links whose targets
exist with a link to the HTML book beside each, every solution closed and none
of its text or code in plain view, no block quote flat or drawn over its
neighbours; and in chapter 06 a click on "Fig. 6.3" brings its caption on
screen (screenshots under ``_build/screenshots/notebook-edition``).
"""

import html as html_lib
import importlib.metadata
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import types
import urllib.request

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book"))

import make_exercises as mx  # noqa: E402
import make_notebooks as mn  # noqa: E402

BUILD = ROOT / "_build"
PICKLE = BUILD / ".doctrees" / "environment.pickle"
EXECUTED = BUILD / "jupyter_execute" / "book"

RAW_ROLE = re.compile(r"\{(?:ref|eq|numref|cite(?::[a-z]+)?|glue(?::[a-z]+)?|prf:ref|"
                      r"class|func)\}`")
RAW_FENCE = re.compile(r"^\s*(?:`{3,}|:{3,})\{", re.M)
RAW_LABEL = re.compile(r"^\([A-Za-z0-9_.:-]+\)=\s*$", re.M)
DETAILS = re.compile(r"<details>.*?</details>", re.S)


# --- a small book ---------------------------------------------------------------

def _index():
    T = mn.Target
    targets = {
        "ch-one": T("book/01_one", "The first chapter"),
        "ch-two": T("book/02_two", "The second chapter", top=True),
        "fig-a": T("book/01_one", "Fig. 1.1"),
        "fig-b": T("book/02_two", "Fig. 2.3"),
        "eq-a": T("book/01_one", "(1.4)"),
        "eq-b": T("book/02_two", "(2.9)"),
        "thm-a": T("book/01_one", "Theorem 1.2"),
        "def-a": T("book/01_one", "Definition 1.1"),
        "ex-a": T("book/01_one", "Exercise 1.3"),
        "ex-code": T("book/01_one", "Exercise 1.4"),
    }
    R = mn.Reference
    references = {
        "platt1999": R("platt1999", "Platt (1999)", "Platt, 1999",
                       "John Platt\\. Probabilistic outputs\\. 1999\\."),
        "vapnik1995": R("vapnik1995", "Vapnik (1995)", "Vapnik, 1995",
                        "Vladimir Vapnik\\. The Nature of Statistical Learning Theory\\. 1995\\."),
    }
    return mn.BookIndex(targets, references, {"book/01_one": "1", "book/02_two": "2"})


NAMES = {"book/01_one": "01_one.ipynb", "book/02_two": "02_two.ipynb"}
GLUE = {"n_sv": {"data": {"text/plain": "12"}},
        "ratio": {"data": {"text/plain": "3.14159"}},
        "name": {"data": {"text/plain": "'moons'"}}}


def _converter():
    return mn.ChapterConverter(_index(), "book/01_one", GLUE, NAMES)


def _notebook(*cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = list(cells)
    for i, cell in enumerate(nb.cells):
        cell.id = f"c{i}"
    return nb


def _code(source, tags=(), **metadata):
    cell = nbformat.v4.new_code_cell(source)
    if tags:
        cell.metadata["tags"] = list(tags)
    cell.metadata.update(metadata)
    return cell


# --- references, citations, glue ---------------------------------------------------

def test_numref_eq_prf_ref_in_the_same_notebook_link_to_anchors():
    c = _converter()
    text = c.markdown("See {numref}`fig-a`, {eq}`eq-a` and {prf:ref}`thm-a`.")
    assert text == "See [Fig. 1.1](#fig-a), [(1.4)](#eq-a) and [Theorem 1.2](#thm-a)."


def test_references_to_another_chapter_link_to_the_sibling_notebook():
    c = _converter()
    text = c.markdown("As {numref}`fig-b` and {eq}`eq-b` in the {ref}`next chapter <ch-two>`.")
    assert text == ("As [Fig. 2.3](02_two.ipynb#fig-b) and [(2.9)](02_two.ipynb#eq-b) in the "
                    "[next chapter](02_two.ipynb).")


def test_explicit_titles_and_a_role_that_wraps_a_line():
    c = _converter()
    assert c.markdown("{numref}`Figure %s <fig-a>`") == "[Figure 1.1](#fig-a)"
    assert c.markdown("{prf:ref}`the theorem <thm-a>`") == "[the theorem](#thm-a)"
    text = c.markdown("the {ref}`second\nchapter <ch-two>` says")
    assert text == "the [second\nchapter](02_two.ipynb) says"


def test_citations_textual_parenthetical_and_the_reference_list():
    c = _converter()
    assert c.markdown("{cite:t}`platt1999`") == "[Platt (1999)](#ref-platt1999)"
    assert c.markdown("{cite}`vapnik1995,platt1999`") == (
        "([Vapnik, 1995](#ref-vapnik1995); [Platt, 1999](#ref-platt1999))")
    assert c.markdown("{cite:p}`platt1999`") == "([Platt, 1999](#ref-platt1999))"
    nb = _notebook(nbformat.v4.new_markdown_cell("# One\n\nAs {cite:t}`platt1999` showed."))
    edition = mn.learner_edition(nb, _index(), "book/01_one", {}, NAMES)
    last = edition.cells[-1].source
    assert last.startswith("## References")
    assert '<a id="ref-platt1999"' in last and "John Platt" in last
    assert "Vapnik" not in last               # only what this chapter cites


def test_glue_is_the_recorded_value_formatted_as_myst_nb_does():
    c = _converter()
    assert c.markdown("{glue:text}`n_sv` points") == "12 points"
    assert c.markdown("ratio {glue:text}`ratio:.2f`") == "ratio 3.14"
    assert c.markdown("{glue:text}`name`") == "moons"
    assert c.markdown("{glue}`n_sv`") == "12"


def test_code_spans_keep_their_text_and_api_roles_become_code():
    c = _converter()
    assert c.markdown("write `{eq}` like this") == "write `{eq}` like this"
    assert c.markdown("{class}`svmlib.SVC`") == "`svmlib.SVC`"


@pytest.mark.parametrize("text, message", [
    ("{numref}`fig-missing`", "no label 'fig-missing'"),
    ("{cite}`nobody2000`", "no bibliography entry"),
    ("{glue:text}`absent`", "glued no value 'absent'"),
    ("{unknownrole}`x`", "no rendering for the role"),
    ("```{mystery}\nx\n```", "no rendering for the directive"),
    ("```{prf:theorem} No label\nx\n```", "without :label:"),
])
def test_what_cannot_be_rendered_faithfully_stops_the_build(text, message):
    with pytest.raises(mn.EditionError, match=re.escape(message)):
        _converter().markdown(text)


# --- math, labels and directives ------------------------------------------------------

def test_a_labelled_equation_gets_its_number_and_an_anchor():
    text = _converter().markdown(
        "Then\n\n$$\nx = 1 % a comment\n\\\\ z = 3\n$$ (eq-a)\n\nand\n\n$$\ny = 2\n$$")
    assert '<a id="eq-a"' in text
    # one line, starred: jupyterlab-myst numbers no equation* of its own
    assert "\n\\begin{equation*} x = 1 \\\\ z = 3 \\tag{1.4} \\end{equation*}\n" in text
    assert "\\begin{equation*} y = 2 \\end{equation*}" in text
    assert "(eq-a)" not in text and "$$" not in text and "comment" not in text
    one_line = _converter().markdown("$$ x = 1 $$ (eq-a)")
    assert one_line.endswith("\\begin{equation*} x = 1 \\tag{1.4} \\end{equation*}")


def test_myst_comments_are_not_shown():
    # the book never renders a "%" line; stock Markdown would show it as text
    text = _converter().markdown(
        "Before.\n% answers: a note for the editions\n````{admonition} Answers\n:class: dropdown"
        "\n\n42\n````\n  % an indented comment\nAfter.")
    assert "%" not in text and "a note for the editions" not in text
    assert text.startswith("Before.") and text.endswith("After.")
    assert "<summary><b>Answers</b></summary>" in text
    code = _converter().markdown("```python\n% not a comment in code\n```")
    assert "% not a comment in code" in code


def test_a_label_line_becomes_an_anchor():
    text = _converter().markdown("(ch-one)=\n# The first chapter")
    assert not RAW_LABEL.search(text)
    assert text.startswith('<a id="ch-one" name="ch-one"></a>') and "# The first chapter" in text


def test_a_theorem_is_a_numbered_block_quote_with_its_math_unprefixed():
    text = _converter().markdown(
        "```{prf:theorem} A title with $x$\n:label: thm-a\n\nIt holds:\n\n$$\nx^2 \\ge 0\n$$ "
        "(eq-a)\n\nas {prf:ref}`def-a` says.\n```")
    assert '<a id="thm-a"' in text
    lines = text.split("\n")
    start = lines.index("> **Theorem 1.2 (A title with $x$).**")
    assert all(line.startswith(">") for line in lines[start:])      # a Markdown quote
    assert "> \\begin{equation*} x^2 \\ge 0 \\tag{1.4} \\end{equation*}" in lines
    assert "> as [Definition 1.1](#def-a) says." in lines and "\n>\n>\n" not in text


def test_proof_margin_and_admonitions():
    c = _converter()
    proof = c.markdown("```{prf:proof}\nObvious.\n```")
    assert proof.startswith("> *Proof.*\n>\n> Obvious.") and proof.endswith("> ∎")
    margin = c.markdown("```{margin} Other notation\nSome write $\\theta$.\n```")
    assert "**Margin note: Other notation.**" in margin and "Some write" in margin
    warning = c.markdown(":::{admonition} Common mistakes\n:class: warning\nDo not.\n:::")
    assert "**Common mistakes**" in warning and ":class:" not in warning
    dropdown = c.markdown("````{admonition} Answers\n:class: dropdown\n\n42\n````")
    assert dropdown.startswith("<details>") and "<summary><b>Answers</b></summary>" in dropdown


def test_nested_directives_and_plain_code_blocks():
    text = _converter().markdown(
        "````{exercise} Try\n:label: ex-a\n\n```python\nprint('{eq}`x`')\n```\n\n"
        "```{margin}\nAside\n```\n````")
    assert "**Exercise 1.3 (Try).**" in text
    assert "print('{eq}`x`')" in text          # code is copied as it is
    assert "**Margin note.**" in text and not RAW_FENCE.search(text)


def test_a_solution_is_collapsed():
    text = _converter().markdown(
        "```{exercise} Try\n:label: ex-a\nDo it.\n```\n\n```{solution} ex-a\n:class: dropdown\n"
        "It is {glue:text}`n_sv`.\n```")
    outside = DETAILS.sub("", text)
    assert "It is 12" in text and "It is" not in outside
    assert "<summary><b>Solution to Exercise 1.3 (Try)</b></summary>" in text
    # a title with math stays out of the <summary>, where jupyterlab-myst typesets none
    text = _converter().markdown(
        "```{exercise} The map of $x^2$\n:label: ex-a\nDo it.\n```\n\n```{solution} ex-a\n"
        "It is.\n```")
    assert "<summary><b>Solution to Exercise 1.3</b></summary>" in text
    assert "**Exercise 1.3 (The map of $x^2$).**" in text


def test_a_gated_solution_across_cells_is_collapsed_cell_by_cell():
    nb = _notebook(
        nbformat.v4.new_markdown_cell(
            "```{exercise} Code it\n:label: ex-code\nWrite f.\n```\n\n"
            "```{solution-start} ex-code\n:class: dropdown\n```\n\nFirst the idea."),
        _code("answer = 41 + 1\nex.check(answer)", tags=["exercise-answer"],
              exercise={"label": "ex-code", "stub": "answer = ...\nex.check(answer)\n"}),
        _code("print(answer * 2)", tags=["exercise-solution"], exercise={"label": "ex-code"}),
        nbformat.v4.new_markdown_cell("Then the check.\n\n```{solution-end}\n```\n\nAfter."),
    )
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="ok 42\n")]
    edition = mn.learner_edition(nb, _index(), "book/01_one", {}, NAMES)
    cells = edition.cells[2:]                    # after the two set-up cells
    kinds = [(cell.cell_type, cell.source.split("\n", 1)[0]) for cell in cells]
    assert kinds[0][0] == "markdown" and "First the idea" in cells[0].source
    # the stub to try, then the solution's code behind a click, never as a cell
    assert cells[1].cell_type == "code" and cells[1].source == "answer = ...\nex.check(answer)"
    assert cells[1].metadata["tags"] == ["exercise-stub"]
    for cell in cells:
        if cell.cell_type == "code":
            assert "41 + 1" not in cell.source and "answer * 2" not in cell.source
        else:
            assert not DETAILS.sub("", cell.source).count("41 + 1")
            assert "First the idea" not in DETAILS.sub("", cell.source)
            assert "Then the check" not in DETAILS.sub("", cell.source)
    joined = "\n".join(cell.source for cell in cells)
    assert "answer = 41 + 1" in joined and "ok 42" in joined and "print(answer * 2)" in joined
    assert "Solution to Exercise 1.4 (Code it), continued" in joined
    assert DETAILS.sub("", cells[-1].source).strip() == "After."


def test_a_gated_solution_that_never_closes_stops_the_build():
    nb = _notebook(nbformat.v4.new_markdown_cell(
        "```{exercise} Code it\n:label: ex-code\nWrite f.\n```\n\n"
        "```{solution-start} ex-code\n```\nOpen."))
    with pytest.raises(mn.EditionError, match="never closed"):
        mn.learner_edition(nb, _index(), "book/01_one", {}, NAMES)


def test_figure_captions_hidden_inputs_and_setup_cells():
    figure = _code("plot()", tags=["hide-input"],
                   mystnb={"figure": {"name": "fig-a", "caption": "Two classes, see {eq}`eq-a`."}})
    hidden_output = _code("print(1)", tags=["hide-output"])
    nb = _notebook(nbformat.v4.new_markdown_cell("# One"), figure, hidden_output)
    edition = mn.learner_edition(nb, _index(), "book/01_one", {}, NAMES)
    setup, check = edition.cells[0], edition.cells[1]
    assert 'pip install -e ".[book,playground]"' in setup.source and "Chapter 1" in setup.source
    assert "import svmlib" in check.source
    code = edition.cells[3]
    assert code.metadata["jupyter"] == {"source_hidden": True} and "mystnb" not in code.metadata
    caption = edition.cells[4]
    assert caption.cell_type == "markdown"
    assert "**Fig. 1.1.** Two classes, see [(1.4)](#eq-a)." in caption.source
    assert edition.cells[5].metadata["jupyter"] == {"outputs_hidden": True}
    nbformat.validate(edition)
    # reproducible: the same input gives the same cell ids
    again = mn.learner_edition(nb, _index(), "book/01_one", {}, NAMES)
    assert [c.id for c in again.cells] == [c.id for c in edition.cells]


def test_the_first_cell_says_where_to_get_svmlibs_wheel():
    intro = mn.header_cells("06_soft_margin", "Soft", "6", "book/06_soft_margin", "../html/",
                            "1.2.3")[0].source
    wheel = "svmlib-1.2.3-py3-none-any.whl"
    assert f"[`{wheel}`](../html/downloads/{wheel})" in intro
    assert "[the book's landing page](../html/index.html)" in intro
    assert f'pip install "./{wheel}[book,playground]"' in intro
    assert 'pip install -e ".[book,playground]"' in intro
    assert "[in the HTML book](../html/book/06_soft_margin.html)" in intro
    assert mn.wheel_name(mn.svmlib_version()) == \
        f"svmlib-{importlib.metadata.version('svmlib')}-py3-none-any.whl"


def test_the_check_cell_says_how_to_install_svmlib_when_it_is_missing():
    check = mn.header_cells("01_one", "One", "1", version="1.2.3")[1].source
    for name in ("svmlib", "ipywidgets"):
        blocked = f"import sys\nsys.modules[{name!r}] = None\n" + check
        result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True)
        assert result.returncode != 0
        assert "ModuleNotFoundError" in result.stderr, result.stderr
        message = result.stderr.strip().splitlines()[-1]
        assert f"cannot import {name}." in message
        assert 'pip install \\"./svmlib-1.2.3-py3-none-any.whl[book,playground]\\"' in check
        assert '%pip install "./svmlib-1.2.3-py3-none-any.whl[book,playground]"' in message
        assert 'pip install -e ".[book,playground]"' in message
    ok = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert ok.returncode == 0 and "is ready" in ok.stdout
    # another version than the edition's: it runs, and says that outputs may differ
    assert "built with svmlib 1.2.3" in ok.stdout
    same = check.replace("'1.2.3'", repr(importlib.metadata.version("svmlib")))
    ok = subprocess.run([sys.executable, "-c", same], capture_output=True, text=True)
    assert ok.returncode == 0 and "may differ" not in ok.stdout


def test_a_notebook_that_glues_asks_for_myst_nb_too():
    """Chapters that record numbers with myst-nb's glue import it; svmlib's extras do not
    install it, so the set-up cells name it and the check cell checks it."""
    glued = _notebook(nbformat.v4.new_markdown_cell("# One"),
                      _code("import numpy as np\nfrom myst_nb import glue\nglue('n', 3)"))
    plain = _notebook(nbformat.v4.new_markdown_cell("# One"),
                      _code("# myst_nb is not imported here\nx = 1"))
    assert mn.uses_myst_nb(glued) and not mn.uses_myst_nb(plain)
    intro, check = mn.header_cells("01_one", "One", "1", version="1.2.3", glue=True)
    assert 'pip install "./svmlib-1.2.3-py3-none-any.whl[book,playground]" myst-nb' in \
        intro.source
    assert 'pip install -e ".[book,playground]" myst-nb' in intro.source
    blocked = "import sys\nsys.modules['myst_nb'] = None\n" + check.source
    result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True)
    message = result.stderr.strip().splitlines()[-1]
    assert result.returncode != 0 and "cannot import myst_nb." in message
    assert '[book,playground]" myst-nb` in a cell' in message
    edition = mn.learner_edition(glued, _index(), "book/01_one", {}, NAMES, version="1.2.3")
    assert "'myst_nb'" in edition.cells[1].source
    edition = mn.learner_edition(plain, _index(), "book/01_one", {}, NAMES, version="1.2.3")
    assert "myst_nb" not in edition.cells[1].source and "myst-nb" not in edition.cells[0].source


def test_references_also_link_the_html_book():
    c = mn.ChapterConverter(_index(), "book/01_one", GLUE, NAMES, "../html/")
    html = '"the same place in the HTML book"'
    assert c.markdown("{numref}`fig-b`") == (
        f"[Fig. 2.3](02_two.ipynb#fig-b)<sup>[↗](../html/book/02_two.html#fig-b {html})</sup>")
    assert c.markdown("{ref}`ch-two`") == (
        f"[The second chapter](02_two.ipynb)<sup>[↗](../html/book/02_two.html {html})</sup>")
    # the HTML page's own id: Sphinx writes equation-<label> for an equation
    index = _index()
    index.targets["eq-a"] = mn.Target("book/01_one", "(1.4)", anchor="equation-eq-a")
    c = mn.ChapterConverter(index, "book/01_one", GLUE, NAMES, "https://svm.example/")
    assert c.markdown("{eq}`eq-a`") == (
        f"[(1.4)](#eq-a)<sup>[↗](https://svm.example/book/01_one.html#equation-eq-a {html})"
        "</sup>")
    # a page with no notebook in the edition: the HTML book only
    index.targets["notation"] = mn.Target("book/notation", "Notation", top=True)
    assert c.markdown("{ref}`notation`") == "[Notation](https://svm.example/book/notation.html)"


def test_the_html_root_is_the_published_book_or_a_relative_path():
    index = _index()
    assert index.html_root("../html/") == "../html/"
    index.html_baseurl = "https://svm.example/book-site"
    assert index.html_root("../html/") == "https://svm.example/book-site/"


def test_download_menu_entry_follows_the_exercise_edition():
    buttons = [{"label": "download-notebook-button"}, {"label": "download-exercises-button"},
               {"label": "download-pdf-button"}]
    context = {"header_buttons": [{"label": "download-buttons", "buttons": buttons}],
               "pathto": lambda name, flag: f"../{name}"}
    mn._add_download_entry(None, "book/06_soft_margin", "page.html", context, None)
    labels = [b["label"] for b in buttons]
    assert labels.index("download-learner-button") == 2
    assert buttons[2]["url"] == "../_notebooks/06_soft_margin.ipynb"
    other = {"header_buttons": [{"label": "download-buttons", "buttons": []}],
             "pathto": lambda name, flag: name}
    mn._add_download_entry(None, "book/notation", "page.html", other, None)
    assert other["header_buttons"][0]["buttons"] == []


# --- the edition of the book build ---------------------------------------------------

_HAVE_BUILD = pytest.mark.skipif(not (PICKLE.is_file() and EXECUTED.is_dir()),
                                 reason="no book build in _build (run `make book`)")


def needs_build(test):
    """A test of the edition that the book build writes: it runs with the browser
    tests (marker ``browser``), which `make test` runs after `make book`."""
    return pytest.mark.browser(_HAVE_BUILD(test))


@pytest.fixture(scope="module")
def index():
    return mn.BookIndex.from_pickle(PICKLE)


@pytest.fixture(scope="module")
def edition(index, tmp_path_factory):
    out = tmp_path_factory.mktemp("notebooks")
    written = mn.build(index, EXECUTED, out)
    return {path.stem: nbformat.read(path, as_version=4) for path in written}


def _markdown(notebook):
    return [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]


@needs_build
def test_every_chapter_and_the_playground_are_in_the_edition(edition):
    expected = {p.stem for p in EXECUTED.glob("[0-9][0-9]_*.ipynb")} | {"playground"}
    assert set(edition) == expected and len(expected) >= 13


@needs_build
def test_no_raw_role_fence_or_label_in_any_chapter(edition):
    for stem, notebook in edition.items():
        for text in _markdown(notebook):
            assert not RAW_ROLE.search(text), (stem, RAW_ROLE.search(text))
            assert not RAW_FENCE.search(text), (stem, text[:200])
            assert not RAW_LABEL.search(text), (stem, text[:200])


@needs_build
def test_every_caption_is_under_its_figure_with_the_books_number(edition, index):
    for stem, notebook in edition.items():
        source = nbformat.read(EXECUTED / f"{stem}.ipynb", as_version=4)
        labels = [cell.metadata["mystnb"]["figure"]["name"] for cell in source.cells
                  if cell.metadata.get("mystnb", {}).get("figure")]
        cells = notebook.cells
        for label in labels:
            number = index.targets[label].text
            where = [i for i, cell in enumerate(cells) if cell.cell_type == "markdown"
                     and f"**{number}.**" in cell.source and f'id="{label}"' in cell.source]
            assert len(where) == 1, (stem, label)
            assert cells[where[0] - 1].cell_type == "code", (stem, label)


@needs_build
def test_numbers_are_those_the_html_book_shows(index):
    """Every internal reference of three HTML chapters has our text for its label."""
    checked = 0
    for stem in ("02_perceptron", "06_soft_margin", "09_multiclass"):
        page = (BUILD / "html" / "book" / f"{stem}.html").read_text(encoding="utf-8")
        for href, inner in re.findall(
                r'<a class="reference internal" href="#([^"]+)"[^>]*>(.*?)</a>', page, re.S):
            text = html_lib.unescape(re.sub(r"<[^>]+>", "", inner)).strip()
            label = href[len("equation-"):] if href.startswith("equation-") else href
            # a numbered reference ("Exercise 6.7", "(6.9)"); a link with its own text
            # ("Exercise “Its title”", written by tools/ref_link_text.py) shows no number
            if not re.match(r"^((Fig\.|Theorem|Definition|Algorithm|Proposition|Corollary|"
                            r"Exercise)\s+\d|\()", text) or label not in index.targets:
                continue
            ours = index.targets[label].text
            # a solution's title links its exercise: "Exercise 2.1 (Its title)"
            assert text == ours or text.startswith(ours + " ("), (stem, label, text)
            checked += 1
    assert checked > 100


@needs_build
def test_a_reference_to_a_chapter_opens_its_notebook(edition, index):
    assert index.targets["ch-smo"].top and not index.targets["fig-soft-kkt"].top
    text = "\n".join(_markdown(edition["06_soft_margin"]))
    assert "](07_smo.ipynb)" in text and "](07_smo.ipynb#ch-smo)" not in text


@needs_build
def test_citations_read_as_the_html_book_with_round_brackets(index):
    page = (BUILD / "html" / "book" / "02_perceptron.html").read_text(encoding="utf-8")
    assert "Freund and Schapire [" in page       # the HTML book's textual citation
    assert index.references["freund1999"].textual == "Freund and Schapire (1999)"
    assert index.references["rosenblatt1958"].parenthetical == "Rosenblatt, 1958"
    entry = index.references["rosenblatt1958"].entry
    assert "Frank Rosenblatt" in entry and "The perceptron: a probabilistic model" in entry


def _solution_lines(path):
    """Lines of a chapter's markdown that only its solutions contain."""
    chapter = nbformat.read(path, as_version=4)
    without = mx.exercise_edition(chapter, path.stem)
    kept = {line.strip() for cell in without.cells if cell.cell_type == "markdown"
            for line in cell.source.splitlines()}
    lines = set()
    for cell in chapter.cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            line = line.strip()
            if (len(line) > 40 and line not in kept and "{" not in line and "$$" not in line
                    and not line.startswith(("```", ":")) and "`" not in line):
                lines.add(line)
    answers = [cell.source for cell in chapter.cells if cell.cell_type == "code"
               and {"exercise-answer", "exercise-solution"} & set(cell.metadata.get("tags", []))]
    return lines, answers


@needs_build
def test_no_solution_text_outside_details(edition):
    found = 0
    for stem, notebook in edition.items():
        path = ROOT / "book" / f"{stem}.ipynb"
        if stem == "playground":
            continue
        lines, answers = _solution_lines(EXECUTED / f"{stem}.ipynb")
        assert path.is_file()
        for cell in notebook.cells:
            if cell.cell_type == "markdown":
                visible = DETAILS.sub("", cell.source)
                for line in lines:
                    assert line not in visible, (stem, line)
                found += sum(line in cell.source for line in lines)
            else:
                for answer in answers:
                    assert answer not in cell.source, (stem, answer[:80])
        text = "\n".join(_markdown(notebook))
        for answer in answers:
            first = answer.strip().splitlines()[0]
            assert first in text, (stem, first)     # the solution's code, behind a click
    assert found > 100                                  # the solutions are there


@needs_build
def test_setup_cells_open_every_notebook(edition):
    for stem, notebook in edition.items():
        first = notebook.cells[0].source
        wheel = mn.wheel_name(mn.svmlib_version())
        # the wheel beside the HTML book's landing page
        link = re.search(rf"\[`{re.escape(wheel)}`\]\(([^)]*){mn.WHEEL_DIR}/{re.escape(wheel)}\)",
                         first)
        assert link, (stem, first[:500])
        assert f"[the book's landing page]({link.group(1)}index.html)" in first, stem
        assert 'pip install -e ".[book,playground]"' in first, stem
        assert notebook.cells[1].cell_type == "code" and "import svmlib" in notebook.cells[1].source


@needs_build
def test_glued_values_are_the_builds(edition):
    for stem in ("07_smo", "10_in_practice", "12_beyond_classification"):
        glue = mn.read_glue(EXECUTED / f"{stem}.ipynb")
        assert glue, stem
        text = "\n".join(_markdown(edition[stem]))
        for key in glue:
            assert key not in text, (stem, key)


def _nbconvert(notebooks, out):
    """``jupyter nbconvert --to html`` of every notebook in one run; their pages."""
    result = subprocess.run(
        [str(pathlib.Path(sys.executable).parent / "jupyter"), "nbconvert", "--to", "html",
         "--log-level=ERROR", "--output-dir", str(out), *map(str, notebooks)],
        capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-2000:]
    return {path.stem: (out / f"{path.stem}.html").read_text(encoding="utf-8")
            for path in notebooks}


def _page_as_read(page):
    """What a reader of an nbconvert page sees, in the form the browser test reads
    (no layout: nbconvert draws no block quote of its own, so none can be flat)."""
    body = page[page.index("<body"):]
    body = re.sub(r"<(script|style)\b.*?</\1>", "", body, flags=re.S)
    shown = DETAILS.sub(lambda m: re.search(r"<summary>.*?</summary>", m.group(0), re.S)
                        .group(0), body)                      # a closed <details>: its summary

    def text(html):
        return html_lib.unescape(re.sub(r"<[^>]+>", "", html))
    # a markdown cell's rendering; code cells' inputs and outputs are the rest
    cells = re.findall(r'<div class="[^"]*jp-MarkdownCell.*?(?=<div class="[^"]*jp-Cell |\Z)',
                       shown, re.S)
    prose = "\n".join(text(re.sub(r"<(pre|code|summary)\b.*?</\1>", "", cell, flags=re.S))
                      for cell in cells)
    links = []
    for sup, href, inner in re.findall(r'(<sup>)?<a\b[^>]*?href="([^"]*)"[^>]*>(.*?)</a>', shown,
                                       re.S):
        label = text(inner).strip()
        if label != "¶":                                     # nbconvert's heading anchors
            links.append({"text": label, "href": html_lib.unescape(href), "sup": bool(sup)})
    return {"prose": prose, "all": text(shown), "tex": "", "quotes": [],
            "anchors": re.findall(r'\bid="([^"]+)"', body), "links": links,
            "open": len(re.findall(r"<details\s+open", body)), "details": body.count("<details")}


@needs_build
def test_nbconvert_html_of_every_edition_notebook(edition, index, tmp_path):
    """Every chapter of the learner's edition as `jupyter nbconvert --to html` shows it:
    the same checks as in JupyterLab (math is TeX in the page until MathJax runs)."""
    folder = tmp_path / "edition"
    folder.mkdir()
    paths = []
    for name, notebook in edition.items():
        nbformat.write(notebook, folder / f"{name}.ipynb")
        paths.append(folder / f"{name}.ipynb")
    pages = _nbconvert(paths, tmp_path / "html")
    for stem, page in pages.items():
        seen = _page_as_read(page)
        problems, references = _reading_checks(stem, seen, index, edition[stem])
        assert not problems, f"{stem} in nbconvert's HTML:\n" + "\n".join(problems[:15])
        if stem != "playground":
            assert references > 0 and "<blockquote>" in page and seen["details"] > 0, stem


@needs_build
def test_nbconvert_html_of_the_exercise_edition(index, tmp_path):
    """The exercise edition, as `make exercises` writes it from the build, read the same
    way: no raw MyST, the book's numbers, every caption, no solution, a stub per exercise."""
    out = tmp_path / "exercises"
    assert mx.main(["--build", str(BUILD), "--out", str(out)]) == 0
    paths = sorted(out.glob("*.ipynb"))
    assert [p.name for p in paths] == [p.name for p in sorted((ROOT / "book")
                                                               .glob("[0-9][0-9]_*.ipynb"))]
    pages = _nbconvert(paths, tmp_path / "html")
    problems = []
    for stem, page in pages.items():
        seen = _page_as_read(page)
        edition = nbformat.read(out / f"{stem}.ipynb", as_version=4)
        found, references = _reading_checks(stem, seen, index, edition)
        problems += [f"{stem}: {problem}" for problem in found]
        if not references:
            problems.append(f"{stem}: no reference read as a link")
        if "Solution to " in seen["all"]:
            problems.append(f"{stem}: a solution's summary shows (no solution is kept)")
        assert edition.metadata["svmlib_edition"]["kind"] == "exercises"
        assert "Exercise edition" in edition.cells[0].source and "pip install" in \
            edition.cells[0].source
        assert edition.cells[1].metadata["tags"] == ["edition-check"]
        assert ("'myst_nb'" in edition.cells[1].source) == mn.uses_myst_nb(edition), stem
        stubs = [c for c in edition.cells if {"exercise-stub", "exercise-starter"}
                 & set(c.metadata.get("tags", []))]
        assert stubs, stem
    assert not problems, "the exercise edition in nbconvert's HTML:\n" + "\n".join(problems[:15])


@needs_build
def test_each_pages_download_menu_links_the_learners_edition():
    """A student who downloads a chapter from the HTML book gets the learner's
    edition: the link in each page's download menu is that file, in the build."""
    html = BUILD / "html"
    pages = sorted((html / "book").glob("[0-9][0-9]_*.html")) + [html / "book" / "playground.html"]
    assert len(pages) >= 13
    for page in pages:
        text = page.read_text(encoding="utf-8")
        hrefs = [re.search(r'href="([^"]+)"', link).group(1)
                 for link in re.findall(r"<a\b.*?</a>", text, re.S)
                 if ".ipynb (any Jupyter)" in link]
        assert len(hrefs) == 1, (page.name, hrefs)
        target = (page.parent / html_lib.unescape(hrefs[0])).resolve()
        assert target == (html / mn.HTML_DIR / f"{page.stem}.ipynb").resolve(), target
        notebook = nbformat.read(target, as_version=4)
        assert notebook.metadata["svmlib_edition"]["kind"] == "learner"
        first = notebook.cells[0].source
        assert "pip install" in first and mn.wheel_name(mn.svmlib_version()) in first
        # this copy's links to the HTML book go from where it lies
        assert f"[in the HTML book](../book/{page.stem}.html)" in first, first[:400]
        wheel = mn.wheel_name(mn.svmlib_version())
        assert f"[`{wheel}`](../{mn.WHEEL_DIR}/{wheel})" in first
        assert notebook.cells[1].metadata["tags"] == ["edition-check"]


@needs_build
def test_every_link_to_the_html_book_reaches_its_place():
    """In the HTML book's copy of the edition, each reference's "↗" link (and
    every other link into the book) names a page of the build and an id in it."""
    html = BUILD / "html"
    ids, checked = {}, 0
    for path in sorted((html / mn.HTML_DIR).glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        text = "\n".join(_markdown(notebook))
        for href in re.findall(r"\]\((\.\./[^)\s]+)", text):
            page, _, fragment = href.partition("#")
            target = (path.parent / page).resolve()
            if target.suffix == ".whl":
                continue                     # the wheel: another helper's build step
            assert target.is_file(), (path.name, href)
            if fragment:
                if target not in ids:
                    ids[target] = set(re.findall(r'\bid="([^"]+)"',
                                                 target.read_text(encoding="utf-8")))
                assert fragment in ids[target], (path.name, href)
            checked += 1
    assert checked > 500


@needs_build
def test_the_sphinx_hook_writes_the_edition_beside_the_html(index, tmp_path):
    """build-finished: the edition from the environment in memory into html/_notebooks."""
    import pickle
    with open(PICKLE, "rb") as handle:
        env = pickle.load(handle)
    (tmp_path / "html").mkdir()
    (tmp_path / "jupyter_execute").symlink_to(BUILD / "jupyter_execute")
    app = types.SimpleNamespace(env=env, outdir=str(tmp_path / "html"),
                                builder=types.SimpleNamespace(format="html"))
    mn._write_edition(app, None)
    written = sorted(p.name for p in (tmp_path / "html" / mn.HTML_DIR).glob("*.ipynb"))
    assert "06_soft_margin.ipynb" in written and "playground.ipynb" in written
    # and the exercise edition, written the same way, beside it for its download entry
    mx._write_editions(app, None)
    exercises = tmp_path / "html" / mx.EXERCISE_DIR / "06_soft_margin.ipynb"
    edition = nbformat.read(exercises, as_version=4)
    assert edition.metadata["svmlib_edition"]["kind"] == "exercises"
    assert "[in the HTML book](../book/06_soft_margin.html)" in edition.cells[0].source
    text = "\n".join(_markdown(edition))
    assert not RAW_ROLE.search(text) and not RAW_FENCE.search(text), text[:300]


# --- in JupyterLab, with and without jupyterlab-myst, in headless Chromium -----------

def _chromium():
    return next((shutil.which(name) for name in ("chromium", "chromium-browser")
                 if shutil.which(name)), None)


class EditionLab:
    """One JupyterLab server from the venv on a folder of edition notebooks.

    Whether jupyterlab-myst runs is the page config's ``disabledExtensions``
    (what ``jupyter labextension disable jupyterlab-myst`` writes into
    ``labconfig/page_config.json``), in this server's own config dir: the
    server reads it again for each page it serves, so one server shows the
    edition as stock JupyterLab and, after ``use_myst(True)``, with the
    extension."""

    def __init__(self, root):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="svmlib-edition-lab-"))
        self.config = self.tmp / "config"
        (self.config / "labconfig").mkdir(parents=True)
        self.use_myst(False)
        # every cell in the DOM, not only those on screen; no news popup
        for plugin, values in (("notebook-extension/tracker", {"windowingMode": "none"}),
                               ("docmanager-extension/plugin", {"autosave": False}),
                               ("apputils-extension/notification",
                                {"fetchNews": "false", "checkForUpdates": False})):
            path = self.tmp / "settings" / "@jupyterlab" / f"{plugin}.jupyterlab-settings"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values), encoding="utf-8")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, JUPYTER_CONFIG_DIR=str(self.config),
                   JUPYTER_CONFIG_PATH=str(self.config),
                   JUPYTER_RUNTIME_DIR=str(self.tmp / "runtime"),
                   JUPYTERLAB_SETTINGS_DIR=str(self.tmp / "settings"),
                   JUPYTERLAB_WORKSPACES_DIR=str(self.tmp / "workspaces"))
        command = [str(pathlib.Path(sys.executable).parent / "jupyter"), "lab", "--no-browser",
                   "--ip=127.0.0.1", f"--port={self.port}", "--port-retries=0",
                   "--IdentityProvider.token=", "--ServerApp.password=",
                   f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-root")
        self.log = open(self.tmp / "server.log", "w")
        self.process = subprocess.Popen(command, env=env, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/api/status", timeout=2):
                    return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("JupyterLab did not start") from None
                time.sleep(0.5)

    def use_myst(self, on):
        disabled = {} if on else {"jupyterlab-myst": True}
        (self.config / "labconfig" / "page_config.json").write_text(
            json.dumps({"disabledExtensions": disabled}), encoding="utf-8")

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)      # the server and its kernels
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


CHAPTERS = sorted(p.stem for p in (ROOT / "book").glob("[0-9][0-9]_*.ipynb")) + ["playground"]
MODES = ("stock", "myst")


@pytest.fixture(scope="module")
def lab_folder(edition, tmp_path_factory):
    folder = tmp_path_factory.mktemp("edition-lab")
    for name, notebook in edition.items():
        nbformat.write(notebook, folder / f"{name}.ipynb")
    return folder


@pytest.fixture(scope="module")
def edition_lab(lab_folder):
    if _chromium() is None:
        pytest.skip("Chromium is not installed: `apt-get install chromium` (Debian)")
    pytest.importorskip("playwright.sync_api")
    server = EditionLab(lab_folder)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def lab_browser(edition_lab):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=_chromium(), args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-dev-shm-usage", "--disable-component-update", "--no-first-run"])
        try:
            yield instance
        finally:
            instance.close()


# What a reader sees of the open notebook: the text of every rendered node
# (Element.checkVisibility: not inside a closed <details>, a collapsed cell or
# anything else not drawn), without typeset math; `prose` leaves out code
# too.  Every <blockquote> and <aside> with the two blocks beside it, to test
# that none is drawn over another; the links, and the ids links can go to
# (JupyterLab's sanitizer keeps an id as data-jupyter-id).
_READ_NOTEBOOK = r"""() => {
    const panel = window.jupyterapp.shell.currentWidget.node;
    const text = (root, skip) => {
        const parts = [];
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const el = n.parentElement;
            if (!el || el.closest(skip) || !el.checkVisibility()) continue;
            parts.push(n.textContent);
        }
        return parts.join('');
    };
    const math = 'mjx-container, .katex, .MathJax, script, style, .jp-InputPrompt, '
                 + '.jp-OutputPrompt';
    // the rendering of each markdown cell (jupyterlab-myst draws its own, not
    // .jp-RenderedMarkdown), not its hidden editor
    const markdown = [...panel.querySelectorAll('.jp-MarkdownCell .jp-Cell-inputArea')];
    const editor = ', .jp-InputArea-editor, .cm-editor';
    const boxes = el => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; };
    const quotes = [...panel.querySelectorAll(
            '.jp-MarkdownCell blockquote, .jp-MarkdownCell aside')]
        .filter(q => q.checkVisibility() && !q.parentElement.closest('blockquote, aside'))
        .map(q => ({box: boxes(q), text: q.textContent.trim().slice(0, 60),
                    before: q.previousElementSibling && q.previousElementSibling
                        .checkVisibility() ? boxes(q.previousElementSibling) : null,
                    after: q.nextElementSibling && q.nextElementSibling.checkVisibility()
                        ? boxes(q.nextElementSibling) : null}));
    return {
        prose: markdown.map(m => text(m, math + editor + ', pre, code, summary')).join('\n'),
        all: text(panel.querySelector('.jp-Notebook'), math),
        // TeX that no one typeset (math is taken out of the text above)
        tex: markdown.map(m => text(m, 'mjx-container, .katex, .MathJax, script, style, pre, '
                                       + 'code' + editor)).join('\n'),
        quotes,
        details: panel.querySelectorAll('.jp-MarkdownCell details').length,
        open: panel.querySelectorAll('.jp-MarkdownCell details[open]').length,
        anchors: [...panel.querySelectorAll('.jp-MarkdownCell [id], '
                                            + '.jp-MarkdownCell [data-jupyter-id]')]
            .map(a => a.dataset.jupyterId || a.id),
        links: [...panel.querySelectorAll('.jp-MarkdownCell a[href]')]
            // not the ¶ that JupyterLab and jupyterlab-myst add to each heading
            .filter(a => a.checkVisibility() && !a.classList.contains('jp-InternalAnchorLink')
                         && a.textContent.trim() !== '¶')
            .map(a => ({text: a.textContent.trim(), href: a.getAttribute('href'),
                        sup: !!a.closest('sup')})),
        myst: window.jupyterapp.listPlugins().some(id => id.startsWith('jupyterlab-myst')),
    };
}"""

# the notebook has stopped changing: its height, the typeset formulas, the text
_LAYOUT = """() => { const w = window.jupyterapp.shell.currentWidget;
    const nb = w && w.node.querySelector('.jp-Notebook');
    return nb ? [nb.scrollHeight, nb.querySelectorAll('mjx-container, .katex').length,
                 nb.querySelectorAll('.jp-MarkdownCell.jp-mod-rendered').length,
                 [...nb.querySelectorAll('.jp-MarkdownCell .jp-Cell-inputArea')]
                     .reduce((n, a) => n + a.textContent.length, 0)] : null; }"""

# every markdown cell shows its rendering (the edition has no empty one):
# jupyterlab-myst marks a cell rendered before it has drawn it
_RENDERED = """() => [...document.querySelectorAll('.jp-MarkdownCell')].every(c =>
    c.classList.contains('jp-mod-rendered') && [...c.querySelectorAll('.jp-Cell-inputArea > *')]
        .some(e => !e.matches('.jp-InputPrompt, .jp-InputArea-editor')
                   && e.textContent.trim().length > 0))"""


def _reading_checks(stem, seen, index, edition_notebook):
    """What must hold of one chapter as a reader sees it (JupyterLab or nbconvert)."""
    problems = []
    prose, everything = seen["prose"], seen["all"]
    for pattern, what in ((RAW_ROLE, "a role"), (RAW_LABEL, "a (label)= line"),
                          (re.compile(r"(?:`{3,}|:{3,})\{[A-Za-z:-]+\}"), "a directive fence"),
                          (re.compile(r"^:(?:label|class|name|nonumber):", re.M), "an option")):
        match = pattern.search(prose)
        if match:
            problems.append(f"{what} left as text: {prose[max(0, match.start() - 40):][:100]!r}")
    raw_tex = re.search(r"\\(?:begin|end|frac|mathbf|tag|sum|langle|alpha|xi)\b|\$\$",
                        seen["tex"])
    if raw_tex:
        problems.append(f"TeX left as text: {seen['tex'][max(0, raw_tex.start() - 40):][:100]!r}")
    if stem != "playground":
        for key in mn.read_glue(EXECUTED / f"{stem}.ipynb"):
            if re.search(rf"\b{re.escape(key)}\b", prose):
                problems.append(f"the glue key {key} shows")
        lines, answers = _solution_lines(EXECUTED / f"{stem}.ipynb")
        # what the exercise gives the learner to start from (a stub's signature)
        given = "\n".join(cell.source for cell in edition_notebook.cells
                          if cell.cell_type == "code")
        flat = " ".join(everything.split())
        for line in lines:
            if not re.search(r"[$*_\[\]<>\\]", line) and " ".join(line.split()) in flat:
                problems.append(f"solution text in plain view: {line[:80]!r}")
        for answer in answers:
            first = answer.strip().splitlines()[0].strip()
            if (len(first) > 20 and not first.startswith("#") and first not in given
                    and first in everything):
                problems.append(f"a solution's code in plain view: {first[:80]!r}")
    source = nbformat.read(EXECUTED / f"{stem}.ipynb", as_version=4)
    for cell in source.cells:
        figure = cell.metadata.get("mystnb", {}).get("figure")
        if figure:
            number = index.targets[figure["name"]].text
            if f"{number}." not in prose:
                problems.append(f"no caption {number}")
            if figure["name"] not in seen["anchors"]:
                problems.append(f"no anchor for {number}")
    # the book's numbering: every numbered reference reads as the book has it
    numbered = re.compile(r"^(Fig\.|Theorem|Definition|Algorithm|Proposition|Corollary|Lemma|"
                          r"Exercise)\s+\d|^\(\d")
    references = 0
    for link in seen["links"]:
        href = link["href"]
        label = href.split("#", 1)[1] if "#" in href else ""
        if link["sup"] or not label or label.startswith("ref-") or ".html" in href:
            continue
        target = index.targets.get(label)
        if target is None:
            problems.append(f"a link to an unknown label {href}")
            continue
        if numbered.match(link["text"]) and link["text"] != target.text:
            problems.append(f"{link['text']!r} links {label}, which the book numbers "
                            f"{target.text!r}")
        if href.startswith("#") and label not in seen["anchors"]:
            problems.append(f"the link {link['text']!r} goes to no anchor #{label}")
        references += 1
    to_html = [link for link in seen["links"] if link["sup"] and ".html" in link["href"]]
    if len(to_html) < references:
        problems.append(f"{references} references but {len(to_html)} links to the HTML book")
    chapter = index.chapters.get(f"book/{stem}", "")
    for cell in edition_notebook.cells:
        for number in re.findall(r"\*\*((?:Theorem|Definition|Exercise) [\d.]+)", cell.source):
            if number not in prose:
                problems.append(f"{number} is not shown")
            if chapter and not number.split()[1].startswith(chapter + "."):
                problems.append(f"{number} is not numbered in chapter {chapter}")
    # nothing drawn over anything: no flat block quote, none overlapping its neighbours
    for quote in seen["quotes"]:
        top, bottom = quote["box"]
        if bottom - top < 10:
            problems.append(f"a block quote of height {bottom - top:.0f}: {quote['text']!r}")
        for side in ("before", "after"):
            other = quote[side]
            if other and min(bottom, other[1]) - max(top, other[0]) > 1:
                problems.append(f"the block quote {quote['text']!r} overlaps the block "
                                f"{side} it")
    if seen["open"]:
        problems.append(f"{seen['open']} solutions shown open")
    return problems, references


@pytest.mark.browser
@needs_build
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("stem", CHAPTERS)
def test_every_chapter_reads_in_jupyterlab(edition_lab, lab_browser, edition, index, stem,
                                           mode):
    """Every chapter of the edition, in stock JupyterLab and with jupyterlab-myst."""
    from test_browser import WAIT_MS, settle, wait_until
    edition_lab.use_myst(mode == "myst")
    context = lab_browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(4 * WAIT_MS)
    try:
        page.goto(f"{edition_lab.url}/lab/tree/{stem}.ipynb?reset", wait_until="load")
        page.wait_for_selector(".jp-NotebookPanel .jp-MarkdownCell")
        assert wait_until(page, _RENDERED, timeout=4 * WAIT_MS), \
            f"{stem}: not every markdown cell rendered"
        settle(page, _LAYOUT, frames=30, timeout=4 * WAIT_MS)
        seen = page.evaluate(_READ_NOTEBOOK)
        if mode == "stock" and stem == "06_soft_margin":
            _click_a_reference(page, index)
        shots = BUILD / "screenshots" / "notebook-edition"
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"{stem}-{mode}.png"))
    finally:
        try:
            page.evaluate("async () => await window.jupyterapp.serviceManager.sessions"
                          ".shutdownAll()")
        finally:
            context.close()
    assert seen["myst"] == (mode == "myst"), f"jupyterlab-myst should be {mode}"
    problems, references = _reading_checks(stem, seen, index, edition[stem])
    assert not problems, f"{stem} in JupyterLab ({mode}):\n" + "\n".join(problems[:15])
    if stem != "playground":
        assert references > 0 and seen["details"] > 0
        assert seen["quotes"], f"{stem}: no theorem, exercise or note as a block quote"
    if any("**Margin note" in cell.source for cell in edition[stem].cells):
        # the margin notes are among the block quotes checked for overlaps
        assert any(q["text"].startswith("Margin note") for q in seen["quotes"]), stem


def _click_a_reference(page, index):
    """A reference is a working link: clicking "Fig. 6.3" brings its caption on screen."""
    from test_browser import settle
    number = index.targets["fig-soft-kkt"].text
    link = page.locator(".jp-MarkdownCell a[href='#fig-soft-kkt']").first
    link.scroll_into_view_if_needed()
    link.click()
    settle(page, "() => document.querySelector('.jp-WindowedPanel-outer, .jp-Notebook')"
                 ".scrollTop", frames=10)
    shown = page.evaluate("""() => { const a = document.querySelector(
            '[data-jupyter-id="fig-soft-kkt"], [id="fig-soft-kkt"]');
        const r = a.parentElement.getBoundingClientRect();
        return r.top >= 0 && r.top < window.innerHeight; }""")
    assert shown, f"clicking {number} did not bring its caption on screen"
