"""The exercise edition (book/make_exercises.py) and its marks (book/tag_exercises.py).

Fast tests check the builder on small hand-made notebooks (every kind of
solution markup, every error it must report) and on every chapter without a
kernel.  The ``slow`` test executes each chapter's exercise edition with
nbclient, in one kernel per chapter: every stub and starter cell, run
untouched, must give only the checker's "Not yet" feedback and no error; then
the chapter's stored answers, run in the same kernel after the whole edition,
must give the verdicts they give in the chapter (each at least one
"Correct").  ``make test`` runs it (``make unit`` does not deselect ``slow``).
"""

import pathlib
import re
import sys

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book"))

import make_exercises as mx  # noqa: E402
import tag_exercises as tx  # noqa: E402

CHAPTERS = sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))
CORRECT, NOT_YET = "\u2705 Correct", "\u274c Not yet"


# --- small hand-made notebooks ----------------------------------------------

def _md(text):
    return nbformat.v4.new_markdown_cell(text)


def _code(text, tags=(), exercise=None):
    cell = nbformat.v4.new_code_cell(text)
    if tags:
        cell.metadata["tags"] = list(tags)
    if exercise is not None:
        cell.metadata["exercise"] = exercise
    return cell


def _notebook(*cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = list(cells)
    return nb


def _sources(nb):
    return [(c.cell_type, c.source) for c in nb.cells[1:]]   # [0] is the edition's note


def test_inline_solution_blocks_are_removed_and_the_rest_kept():
    nb = _notebook(
        _md("# Title\n\n```{exercise} A\n:label: ex-a\n\nProve it.\n```\n\n"
            "```{solution} ex-a\n:class: dropdown\n\nThe proof.\n```\n\nAfter."),
        _md("````{solution} ex-b\nWith a fence inside:\n```python\nx = 1\n```\n````\nTail."),
    )
    out = mx.exercise_edition(nb, "00_test")
    texts = [s for _, s in _sources(out)]
    assert texts[0] == "# Title\n\n```{exercise} A\n:label: ex-a\n\nProve it.\n```\n\nAfter."
    assert texts[1] == "Tail."
    assert "Exercise edition" in out.cells[0].source


def test_gated_solution_spanning_cells_is_removed_and_answer_replaced_by_stub():
    nb = _notebook(
        _md("````{exercise} B\n:label: ex-b\n\nWrite f.\n````\n\n"
            "````{solution-start} ex-b\n:class: dropdown\n````\n\nExplanation."),
        _code("def f():\n    return 42\n\ncheck(f)", tags=["exercise-answer"],
              exercise={"label": "ex-b", "stub": "def f():\n    ...\n\ncheck(f)\n"}),
        _code("print(f())"),                      # more solution code: removed
        _md("Still the solution.\n\n````{solution-end}\n````\n\nNext section."),
        _code("x = 1"),
    )
    out = mx.exercise_edition(nb, "00_test")
    assert _sources(out) == [
        ("markdown", "````{exercise} B\n:label: ex-b\n\nWrite f.\n````"),
        ("code", "def f():\n    ...\n\ncheck(f)"),
        ("markdown", "Next section."),
        ("code", "x = 1"),
    ]
    assert out.cells[2].metadata["tags"] == ["exercise-stub"]
    assert out.cells[2].metadata["exercise"] == {"label": "ex-b"}
    answers = mx.exercise_edition(nb, "00_test", answers=True)
    assert answers.cells[2].source == "def f():\n    return 42\n\ncheck(f)"


def test_a_chapter_starter_cell_is_kept_and_its_answer_removed():
    nb = _notebook(
        _md("```{exercise-start} C\n:label: ex-c\n```\nDo it."),
        _code("y = 0  # replace\ncheck(y)", tags=["exercise-starter"], exercise={"label": "ex-c"}),
        _md("```{exercise-end}\n```\n\n```{solution-start} ex-c\n```"),
        _code("y = 3\ncheck(y)", tags=["exercise-answer"], exercise={"label": "ex-c"}),
        _md("```{solution-end}\n```"),
    )
    out = mx.exercise_edition(nb, "00_test")
    assert [s for _, s in _sources(out)] == [
        "```{exercise-start} C\n:label: ex-c\n```\nDo it.", "y = 0  # replace\ncheck(y)",
        "```{exercise-end}\n```"]
    answers = mx.exercise_edition(nb, "00_test", answers=True)
    assert answers.cells[2].source == "y = 3\ncheck(y)"


def test_outputs_are_cleared():
    cell = _code("1 + 1")
    cell.outputs = [nbformat.v4.new_output("execute_result", data={"text/plain": "2"})]
    cell.execution_count = 3
    out = mx.exercise_edition(_notebook(cell), "00_test")
    assert out.cells[1].outputs == [] and out.cells[1].execution_count is None


@pytest.mark.parametrize("cells, message", [
    ([_md("```{solution-start} ex-x\n```"), _code("a = 1")], "never closed"),
    ([_md("```{solution} ex-x\nno closing fence")], "never closed"),
    ([_md("```{solution-end}\n```")], "no open"),
    ([_code("a = 1", tags=["exercise-answer"], exercise={"label": "ex-x", "stub": "a = ...\n"})],
     "not inside"),
    ([_md("```{solution-start} ex-x\n```"),
      _code("a = 1", tags=["exercise-answer"], exercise={"label": "ex-x"}),
      _md("```{solution-end}\n```")], "no stub"),
    ([_code("a = 1", tags=["exercise-answer"])], "no metadata"),
])
def test_markup_the_builder_cannot_follow_is_reported(cells, message):
    with pytest.raises(mx.EditionError, match=message):
        mx.exercise_edition(_notebook(*cells), "00_test")


# --- the tagging script ------------------------------------------------------

def _chapter_for_tagging():
    return _notebook(
        _md("```{exercise} E\n:label: ex-e\n```"),
        _code("def g(x):\n    return 2 * x\n\ncheck(g)"),
        _code("print('unrelated')"),
    )


def test_tagging_is_idempotent_and_keyed_by_a_unique_line(monkeypatch):
    monkeypatch.setitem(tx.EXERCISES, "00_test", [
        tx.CodeExercise("ex-e", answer="return 2 * x", stub="def g(x):\n    ...\n\ncheck(g)\n")])
    nb = tx.tag_notebook(_chapter_for_tagging(), "00_test")
    once = nbformat.writes(nb)
    twice = nbformat.writes(tx.tag_notebook(nbformat.reads(once, as_version=4), "00_test"))
    assert once == twice
    cell = nb.cells[1]
    assert cell.metadata["tags"] == ["exercise-answer"]
    assert cell.metadata["exercise"]["label"] == "ex-e"
    assert cell.metadata["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    assert nb.cells[2].metadata == {}


@pytest.mark.parametrize("exercise, message", [
    (tx.CodeExercise("ex-e", answer="no such line", stub="x\n"), "exactly one code cell"),
    (tx.CodeExercise("ex-e", answer="check(g)", stub="x\n"), "exactly one code cell"),
    (tx.CodeExercise("ex-missing", answer="return 2 * x", stub="x\n"), "no exercise directive"),
    (tx.CodeExercise("ex-e", answer="return 2 * x"), "either a stub or"),
])
def test_a_key_that_does_not_identify_one_cell_stops_the_script(monkeypatch, exercise, message):
    nb = _chapter_for_tagging()
    nb.cells.append(_code("check(g)"))          # makes "check(g)" ambiguous
    monkeypatch.setitem(tx.EXERCISES, "00_test", [exercise])
    with pytest.raises(tx.TaggingError, match=message):
        tx.tag_notebook(nb, "00_test")


def test_the_committed_chapters_carry_up_to_date_marks():
    assert tx.main(["--check"]) == 0, "run: .venv/bin/python book/tag_exercises.py"


# --- every chapter, without a kernel ----------------------------------------

@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_edition_has_no_solution_and_one_stub_per_code_exercise(path):
    chapter = nbformat.read(path, as_version=4)
    out = mx.exercise_edition(chapter, path.stem)
    nbformat.validate(out)
    labels = [ex.label for ex in tx.EXERCISES[path.stem]]
    assert labels, f"{path.stem} has no code exercise in book/tag_exercises.py"
    text = "\n".join(c.source for c in out.cells)
    assert not re.search(r"\{solution(-start|-end)?\}", text)
    for cell in chapter.cells:
        if "exercise-answer" in cell.metadata.get("tags", []):
            assert cell.source not in text, f"the answer to {cell.metadata['exercise']['label']} leaked"
    exercise_cells = [c.metadata["exercise"]["label"] for c in out.cells
                      if {"exercise-stub", "exercise-starter"} & set(c.metadata.get("tags", []))]
    assert sorted(exercise_cells) == sorted(labels)
    # every exercise the chapter states is still there
    assert (tx.exercise_labels(out) == tx.exercise_labels(chapter))


def test_make_exercises_writes_one_notebook_per_chapter(tmp_path):
    assert mx.main(["--myst", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.ipynb")) == [p.name for p in CHAPTERS]


def test_without_a_book_build_make_exercises_says_what_to_run(tmp_path):
    with pytest.raises(SystemExit) as stop:
        mx.main(["--build", str(tmp_path / "nothing"), "--out", str(tmp_path / "out")])
    message = str(stop.value.code)
    assert "run `make book` first" in message and "--myst" in message
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.ipynb"))


# --- the edition as any Jupyter reads it (make_notebooks' converter) -------------

def _small_index():
    import make_notebooks as mn

    T = mn.Target
    targets = {"ex-b": T("book/00_test", "Exercise 1.2"),
               "fig-f": T("book/00_test", "Fig. 1.1"),
               "eq-e": T("book/00_test", "(1.3)"),
               "ch-other": T("book/01_other", "The other chapter", top=True)}
    references = {"platt1999": mn.Reference("platt1999", "Platt (1999)", "Platt, 1999",
                                            "John Platt\\. Probabilistic outputs\\. 1999\\.")}
    return mn.BookIndex(targets, references, {"book/00_test": "1"})


def _chapter_with_myst():
    figure = _code("plot()")
    figure.metadata["mystnb"] = {"figure": {"name": "fig-f", "caption": "Two classes, "
                                            "{eq}`eq-e`."}}
    return _notebook(
        _md("# The test chapter\n\n(sec-x)=\n## A section\n\nAs {cite:t}`platt1999` shows, "
            "{glue:text}`n_sv` points; see {ref}`ch-other`."),
        figure,
        _md("````{exercise} B\n:label: ex-b\n\nWrite f, using {eq}`eq-e`.\n````\n\n"
            "````{solution-start} ex-b\n:class: dropdown\n````\n\nThe answer is 42."),
        _code("def f():\n    return 42\n\ncheck(f)", tags=["exercise-answer"],
              exercise={"label": "ex-b", "stub": "def f():\n    ...\n\ncheck(f)\n"}),
        _md("````{solution-end}\n````\n\nNext."),
    )


def test_the_readable_edition_resolves_the_myst_and_keeps_no_solution():
    import make_notebooks as mn

    glue = {"n_sv": {"data": {"text/plain": "12"}}}
    names = {"book/00_test": "00_test.ipynb"}
    edition = mx.exercise_edition(_chapter_with_myst(), "00_test")
    out = mx.readable_edition(edition, "00_test", _small_index(), glue, names, "../html/",
                              version="1.2.3")
    nbformat.validate(out)
    assert out.metadata["svmlib_edition"] == {"kind": "exercises",
                                              "source": "book/00_test.ipynb"}
    header, check = out.cells[0], out.cells[1]
    assert "Exercise edition" in header.source and "Chapter 1, *The test chapter*" in header.source
    assert "svmlib-1.2.3-py3-none-any.whl" in header.source and "import svmlib" in check.source
    assert "[in the HTML book](../html/book/00_test.html)" in header.source
    markdown = "\n".join(c.source for c in out.cells if c.cell_type == "markdown")
    for raw in ("{eq}", "{cite", "{glue", "{ref}", "(sec-x)=", "```{", "````{", ":label:"):
        assert raw not in markdown, raw
    assert "Platt (1999)" in markdown and "12 points" in markdown
    assert "**Exercise 1.2 (B).**" in markdown and "[(1.3)](#eq-e)" in markdown
    # another chapter, with no notebook in this edition: the HTML book only
    assert "[The other chapter](../html/book/01_other.html)" in markdown
    assert "42" not in markdown and "Solution to" not in markdown
    code = [c for c in out.cells if c.cell_type == "code"]
    assert [c.source for c in code[1:]] == ["plot()", "def f():\n    ...\n\ncheck(f)"]
    assert "mystnb" not in code[1].metadata
    caption = out.cells[out.cells.index(code[1]) + 1]
    assert caption.cell_type == "markdown" and caption.source.endswith(
        "**Fig. 1.1.** Two classes, [(1.3)](#eq-e)<sup>[↗](../html/book/00_test.html#eq-e "
        "\"the same place in the HTML book\")</sup>.")
    assert out.cells[-1].source.startswith("## References of this chapter")
    assert 'id="ref-platt1999"' in out.cells[-1].source
    # reproducible: the same chapter gives the same cells and ids
    again = mx.readable_edition(edition, "00_test", _small_index(), glue, names, "../html/",
                                version="1.2.3")
    assert nbformat.writes(again) == nbformat.writes(out)
    assert mn.header_cells("00_test", "T", "1", version="1.2.3")[0].source != header.source


def test_the_readable_edition_stops_on_what_the_build_does_not_know():
    edition = mx.exercise_edition(_chapter_with_myst(), "00_test")
    with pytest.raises(mx.EditionError, match="glued no value 'n_sv'"):
        mx.readable_edition(edition, "00_test", _small_index(), {}, {}, None, version="1.2.3")


# --- every chapter, executed --------------------------------------------------

def _verdicts(outputs):
    found = []
    for out in outputs:
        if out.output_type == "stream":
            text = out.text
        elif out.output_type in ("display_data", "execute_result"):
            text = out.data.get("text/plain", "")
        else:
            continue
        found += re.findall(f"({CORRECT}|{NOT_YET})", text)
    return ["correct" if v == CORRECT else "not yet" for v in found]


def _errors(outputs):
    return [f"{o.ename}: {o.evalue}" for o in outputs if o.output_type == "error"]


@pytest.mark.slow
@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_stubs_say_not_yet_and_stored_answers_pass(path):
    from nbclient import NotebookClient

    chapter = nbformat.read(path, as_version=4)
    edition = mx.exercise_edition(chapter, path.stem)
    answers = {c.metadata["exercise"]["label"]: c for c in chapter.cells
               if "exercise-answer" in c.metadata.get("tags", [])}
    n_edition = len(edition.cells)
    # the stored answers, run after the whole edition in the same kernel
    for label, cell in answers.items():
        edition.cells.append(_code(cell.source, exercise={"label": label}))
    client = NotebookClient(edition, timeout=120, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(ROOT / "book")}})
    client.execute()

    problems = []
    for index, cell in enumerate(edition.cells[:n_edition]):
        if cell.cell_type != "code":
            continue
        errors = _errors(cell.outputs)
        if errors:
            problems.append(f"cell {index} raised {errors[0]}:\n{cell.source[:200]}")
        if {"exercise-stub", "exercise-starter"} & set(cell.metadata.get("tags", [])):
            verdicts = _verdicts(cell.outputs)
            label = cell.metadata["exercise"]["label"]
            if not verdicts or set(verdicts) != {"not yet"}:
                problems.append(f"the stub of {label}, untouched, gave {verdicts or 'no verdict'} "
                                f"instead of only 'Not yet'")
    for cell in edition.cells[n_edition:]:
        label = cell.metadata["exercise"]["label"]
        errors = _errors(cell.outputs)
        got = _verdicts(cell.outputs)
        stored = _verdicts(answers[label].outputs)
        if errors:
            problems.append(f"the stored answer of {label} raised {errors[0]}")
        elif "correct" not in stored or got != stored:
            problems.append(f"the stored answer of {label} gave {got}; in the chapter {stored}")
    assert not problems, f"{path.stem}:\n" + "\n".join(problems)


# --- the HTML book links each chapter's edition ------------------------------

@pytest.mark.browser           # reads the built book, like the other browser tests
@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_the_book_offers_the_exercise_edition_for_download(path):
    html_dir = ROOT / "_build" / "html"
    if not (html_dir / "index.html").exists():
        pytest.fail("the book is not built: run `make book` first")
    page = html_dir / "book" / f"{path.stem}.html"
    text = page.read_text(encoding="utf-8")
    links = re.findall(r'<a href="([^"]*_exercises/[^"]+)"[^>]*\s+class="[^"]*'
                       r'btn-download-exercises-button', text)
    assert links == [f"../_exercises/{path.name}"], (
        f"{page.name}: the download menu links the exercise edition as {links}")
    target = (page.parent / links[0]).resolve()
    assert target.is_file(), f"{links[0]} is missing from the built book"
    edition = nbformat.read(target, as_version=4)
    assert "Exercise edition" in edition.cells[0].source
    assert not re.search(r"\{solution(-start)?\}", "\n".join(c.source for c in edition.cells))
