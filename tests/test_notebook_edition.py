"""The learner's edition (book/make_notebooks.py): the chapters in any Jupyter.

Unit tests check each transformation on small inputs against a hand-made
index of numbers.  The tests over the edition build it from the book build in
``_build`` (its Sphinx environment and the notebooks myst-nb executed; they
skip, saying so, when there is no build) and check every chapter: no raw role,
directive fence or ``(label)=`` line, every figure's caption with the book's
number, the numbers the HTML book shows, no solution text outside
``<details>``, the set-up cells; and that ``jupyter nbconvert --to html`` of
one edition notebook succeeds and shows no raw role.  The browser test (marker
``browser``) opens chapter 06 of the edition in stock JupyterLab, with
jupyterlab-myst disabled, in headless Chromium: no raw MyST in what the reader
sees, every solution closed and none of its text in plain view, no block quote
of zero height, the book's numbers as links whose targets exist, and a click on
"Fig. 6.3" brings its caption on screen (screenshots under
``_build/screenshots/notebook-edition``).
"""

import html as html_lib
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
    text = _converter().markdown("Then\n\n$$\nx = 1\n$$ (eq-a)\n\nand\n\n$$\ny = 2\n$$")
    assert '<a id="eq-a"' in text
    assert "$$\nx = 1\n\\tag{1.4}\n$$" in text
    assert "$$\ny = 2\n$$" in text and "(eq-a)" not in text
    one_line = _converter().markdown("$$ x = 1 $$ (eq-a)")
    assert one_line.endswith("$$ x = 1 \\tag{1.4} $$")


def test_a_label_line_becomes_an_anchor():
    text = _converter().markdown("(ch-one)=\n# The first chapter")
    assert not RAW_LABEL.search(text)
    assert text.startswith('<a id="ch-one" name="ch-one"></a>') and "# The first chapter" in text


def test_a_theorem_is_a_numbered_block_quote_with_its_math_unprefixed():
    text = _converter().markdown(
        "```{prf:theorem} A title with $x$\n:label: thm-a\n\nIt holds:\n\n$$\nx^2 \\ge 0\n$$ "
        "(eq-a)\n\nas {prf:ref}`def-a` says.\n```")
    assert '<a id="thm-a"' in text
    assert "<blockquote>\n\n**Theorem 1.2 (A title with $x$).**" in text
    assert "\\tag{1.4}" in text and "\n> " not in text
    assert "[Definition 1.1](#def-a)" in text and text.rstrip().endswith("</blockquote>")


def test_proof_margin_and_admonitions():
    c = _converter()
    proof = c.markdown("```{prf:proof}\nObvious.\n```")
    assert proof.startswith("<blockquote>\n\n*Proof.*") and "∎" in proof
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
    assert "pip install -e ." in setup.source and "Chapter 1" in setup.source
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


def test_the_check_cell_says_how_to_install_svmlib_when_it_is_missing():
    check = mn.header_cells("01_one", "One", "1")[1].source
    blocked = "import sys\nsys.modules['svmlib'] = None\n" + check
    result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True)
    assert result.returncode != 0
    assert "ModuleNotFoundError" in result.stderr and "pip install -e ." in result.stderr
    ok = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert ok.returncode == 0 and "is ready" in ok.stdout


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
        assert "pip install -e ." in notebook.cells[0].source, stem
        assert notebook.cells[1].cell_type == "code" and "import svmlib" in notebook.cells[1].source


@needs_build
def test_glued_values_are_the_builds(edition):
    for stem in ("07_smo", "10_in_practice", "12_beyond_classification"):
        glue = mn.read_glue(EXECUTED / f"{stem}.ipynb")
        assert glue, stem
        text = "\n".join(_markdown(edition[stem]))
        for key in glue:
            assert key not in text, (stem, key)


@needs_build
def test_nbconvert_html_of_one_edition_notebook(edition, tmp_path):
    path = tmp_path / "01_hyperplanes.ipynb"
    nbformat.write(edition["01_hyperplanes"], path)
    result = subprocess.run(
        [str(pathlib.Path(sys.executable).parent / "jupyter"), "nbconvert", "--to", "html",
         "--output-dir", str(tmp_path), str(path)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    page = (tmp_path / "01_hyperplanes.html").read_text(encoding="utf-8")
    assert not RAW_ROLE.search(page) and not RAW_LABEL.search(page)
    assert "{prf:" not in page and "{exercise}" not in page
    assert "<details>" in page and "<blockquote>" in page
    lines, _answers = _solution_lines(EXECUTED / "01_hyperplanes.ipynb")
    visible = DETAILS.sub("", page)
    shown = [line for line in lines if html_lib.escape(line, quote=False) in visible]
    assert not shown, shown[:3]


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


# --- in stock JupyterLab (no jupyterlab-myst), in headless Chromium ---------------

def _chromium():
    return next((shutil.which(name) for name in ("chromium", "chromium-browser")
                 if shutil.which(name)), None)


class StockLab:
    """JupyterLab from the venv with jupyterlab-myst disabled, on a folder of notebooks."""

    def __init__(self, root):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="svmlib-edition-lab-"))
        config = self.tmp / "config"
        (config / "labconfig").mkdir(parents=True)
        # what `jupyter labextension disable jupyterlab-myst` writes
        (config / "labconfig" / "page_config.json").write_text(
            json.dumps({"disabledExtensions": {"jupyterlab-myst": True}}), encoding="utf-8")
        # every cell in the DOM, not only those on screen; no news popup
        for plugin, values in (("notebook-extension/tracker", {"windowingMode": "none"}),
                               ("apputils-extension/notification",
                                {"fetchNews": "false", "checkForUpdates": False})):
            path = self.tmp / "settings" / "@jupyterlab" / f"{plugin}.jupyterlab-settings"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values), encoding="utf-8")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, JUPYTER_CONFIG_DIR=str(config),
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
                    raise RuntimeError("JupyterLab did not start")
                time.sleep(0.5)

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)      # the server and its kernel
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


@pytest.mark.browser
@needs_build
def test_an_edition_chapter_in_stock_jupyterlab(edition, index, tmp_path):
    if _chromium() is None:
        pytest.skip("Chromium is not installed: `apt-get install chromium` (Debian)")
    sync_api = pytest.importorskip("playwright.sync_api")
    stem = "06_soft_margin"
    for name, notebook in edition.items():
        nbformat.write(notebook, tmp_path / f"{name}.ipynb")
    lines, _answers = _solution_lines(EXECUTED / f"{stem}.ipynb")
    lab = StockLab(tmp_path)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=_chromium(), args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-dev-shm-usage"])
            page = browser.new_page(viewport={"width": 1920, "height": 1000})
            page.set_default_timeout(240_000)
            page.goto(f"{lab.url}/lab/tree/{stem}.ipynb?reset", wait_until="load")
            page.wait_for_selector(".jp-NotebookPanel .jp-MarkdownCell")
            myst = page.evaluate("() => window.jupyterapp.hasPlugin"
                                 "('jupyterlab-myst:plugin') || false")
            assert not myst, "jupyterlab-myst is active: not a stock JupyterLab"
            page.wait_for_function(
                "() => [...document.querySelectorAll('.jp-MarkdownCell')]"
                ".every(c => c.classList.contains('jp-mod-rendered'))", polling=500)
            page.wait_for_function("() => document.querySelectorAll('mjx-container').length"
                                   " > 100", polling=500)
            found = page.evaluate(r"""() => {
                const cells = [...document.querySelectorAll('.jp-MarkdownCell .jp-RenderedMarkdown')];
                const visible = cells.map(c => { const copy = c.cloneNode(true);
                    copy.querySelectorAll('details, pre, code, mjx-container')
                        .forEach(e => e.remove());
                    return copy.textContent; });
                const quotes = [...document.querySelectorAll('.jp-MarkdownCell blockquote')];
                return {visible, open: document.querySelectorAll('details[open]').length,
                        details: document.querySelectorAll('details').length,
                        flat: quotes.filter(q => q.getBoundingClientRect().height < 10).length,
                        quotes: quotes.length,
                        // JupyterLab's sanitizer keeps an id as data-jupyter-id, which
                        // its handler of #fragment links scrolls to
                        anchors: [...document.querySelectorAll(
                            '.jp-MarkdownCell a[id], .jp-MarkdownCell a[data-jupyter-id]')]
                            .map(a => a.id || a.dataset.jupyterId),
                        links: [...document.querySelectorAll('.jp-MarkdownCell a[href]')]
                            .map(a => a.textContent)};
            }""")
            # to look at: a theorem, and the exercises with their collapsed solutions
            shots = BUILD / "screenshots" / "notebook-edition"
            shots.mkdir(parents=True, exist_ok=True)
            for name, selector in (("theorem", '[data-jupyter-id="thm-soft-dual"]'),
                                   ("exercises", '[data-jupyter-id="ex-soft-code-slacks"]')):
                page.evaluate("s => document.querySelector(s).scrollIntoView()", selector)
                page.wait_for_timeout(300)
                page.screenshot(path=str(shots / f"{stem}-{name}.png"))
            # a reference is a working link: clicking "Fig. 6.3" brings its caption on screen
            number = index.targets["fig-soft-kkt"].text
            page.evaluate("() => document.querySelector('.jp-Cell').scrollIntoView()")
            link = page.locator(".jp-MarkdownCell a[href='#fig-soft-kkt']").first
            link.scroll_into_view_if_needed()
            link.click()
            page.wait_for_timeout(1000)
            shown = page.evaluate("""() => { const a = document.querySelector(
                    '[data-jupyter-id="fig-soft-kkt"], [id="fig-soft-kkt"]');
                const r = a.parentElement.getBoundingClientRect();
                return r.top >= 0 && r.top < window.innerHeight; }""")
            browser.close()
    finally:
        lab.stop()
    assert shown, f"clicking {number} did not bring its caption on screen"
    text = "\n".join(found["visible"])
    assert not RAW_ROLE.search(text), RAW_ROLE.search(text)
    assert not re.search(r"(?:`{3,}|:{3,})\{", text) and not RAW_LABEL.search(text)
    assert not re.search(r"^:(?:label|class):", text, re.M)
    assert found["details"] >= 6 and found["open"] == 0
    assert found["quotes"] >= 10 and found["flat"] == 0      # no zero-height aside
    assert [line for line in lines if line in text] == []    # no solution in plain view
    for label in ("fig-soft-kkt", "eq-soft-hinge-form", "thm-soft-slack-optimal"):
        number = index.targets[label].text
        assert number in found["links"], (label, number)      # a reference, as a link
        assert label in found["anchors"], label               # and its target
    print("anchors kept by JupyterLab:", len(found["anchors"]))
    captions = re.findall(r"Fig\. 6\.\d\.", text)
    assert len(set(captions)) == 6
    assert "Theorem 6.1" in text and "Exercise 6.3" in text
