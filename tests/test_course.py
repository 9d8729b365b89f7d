"""The course edition (`make course`, book/make_course.py): an nbgrader course that grades.

The building of every chapter's assignment is checked for all chapters; the
full round trip (nbgrader generate_assignment, then nbgrader autograde of three
submissions) runs on COURSE_CHAPTERS, two chapters by default, every chapter
with SVMLIB_COURSE_ALL=1:

* (a) the instructor's source notebook, submitted as a student's work, gets
  full marks on every autograded test cell;
* (b) the untouched release gets zero on every one of them;
* (c) a release whose answer cells only print a success message, and that
  replaces every checker (and the grader's assert) by one that says
  "Correct", gets zero too.
"""

import json
import os
import pathlib
import shutil
import sys

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book"))

import make_course  # noqa: E402
import tag_exercises  # noqa: E402

ALL = os.environ.get("SVMLIB_COURSE_ALL") == "1"
COURSE_CHAPTERS = ([p.stem for p in make_course.chapters()] if ALL
                   else ["01_hyperplanes", "06_soft_margin"])

FAKE = '''\
print("\\u2705 Correct: well done!")
import types as _types

import svmlib.exercises as _exercises

def _always_right(*args, **kwargs):
    return _exercises.Feedback(True, "faked")

for _module in list(vars(_exercises).values()):
    if isinstance(_module, _types.ModuleType):
        for _name in dir(_module):
            if _name.startswith("check_"):
                setattr(_module, _name, _always_right)
_exercises._core.assert_correct = lambda verdict: None
'''


def _cells(notebook, kind):
    return [c for c in notebook.cells
            if c.metadata.get("nbgrader", {}).get("grade_id", "").endswith(f"-{kind}")]


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    out = tmp_path_factory.mktemp("course-sources")
    make_course.write_source(make_course.chapters(), out)
    return out


def test_every_code_exercise_is_autograded_and_every_solution_graded(sources):
    for path in make_course.chapters():
        book = nbformat.read(path, as_version=4)
        course = nbformat.read(sources / "source" / path.stem / path.name, as_version=4)
        labels = [e.label for e in tag_exercises.EXERCISES.get(path.stem, [])]
        answers = [c.metadata["nbgrader"]["grade_id"][:-len("-answer")]
                   for c in _cells(course, "answer")]
        tests = _cells(course, "test")
        assert sorted(answers) == sorted(labels), path.stem
        assert len(tests) == len(labels)
        for cell in tests:
            meta = cell.metadata["nbgrader"]
            assert meta["locked"] and meta["grade"] and meta["points"] >= 1
            assert "### BEGIN HIDDEN TESTS" in cell.source
            assert "assert_correct" in cell.source.split("### BEGIN HIDDEN TESTS")[1]
        for cell in _cells(course, "answer"):
            first = cell.source.splitlines()[0]
            assert first.startswith("# Your answer to the exercise"), first
            assert "### BEGIN SOLUTION" in cell.source
        # every {solution} block and every gated solution with prose has its
        # manually graded cell, with a rubric inside the solution region
        written = _cells(course, "written")
        for cell in written:
            region = cell.source.split("### BEGIN SOLUTION")[1]
            assert "**Rubric**" in region and "### END SOLUTION" in region
            assert cell.cell_type == "markdown" and cell.metadata["nbgrader"]["points"] >= 2
        n_blocks = sum(cell.source.count("{solution}") for cell in book.cells
                       if cell.cell_type == "markdown")
        assert len(written) >= n_blocks
        # no solution text outside the graded cells
        for cell in course.cells:
            if "nbgrader" not in cell.metadata or cell.metadata["nbgrader"]["grade_id"] == \
                    "assignment-header":
                assert "{solution" not in cell.source


def test_sources_are_reproducible(sources, tmp_path):
    make_course.write_source(make_course.chapters(), tmp_path)
    for path in make_course.chapters():
        name = pathlib.Path("source") / path.stem / path.name
        assert (tmp_path / name).read_bytes() == (sources / name).read_bytes(), path.stem
        ids = [c["id"] for c in json.loads((tmp_path / name).read_text())["cells"]]
        assert len(set(ids)) == len(ids)
        assert all(i.startswith(path.stem[:2] + "-") for i in ids)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A course of COURSE_CHAPTERS, released, with three students' submissions autograded."""
    out = tmp_path_factory.mktemp("course")
    paths = [make_course.BOOK / f"{name}.ipynb" for name in COURSE_CHAPTERS]
    names = make_course.write_source(paths, out)
    make_course.release(out, names)
    for name in names:
        notebook = f"{name}.ipynb"
        release = out / "release" / name / notebook
        for student in ("solved", "untouched", "faked"):
            (out / "submitted" / student / name).mkdir(parents=True)
        shutil.copy(out / "source" / name / notebook, out / "submitted" / "solved" / name)
        shutil.copy(release, out / "submitted" / "untouched" / name)
        faked = nbformat.read(release, as_version=4)
        for cell in _cells(faked, "answer"):
            cell.source = cell.source + "\n" + FAKE
        nbformat.write(faked, out / "submitted" / "faked" / name / notebook)
        make_course.nbgrader(out, "autograde", name, "--force")
    return out, names


def _scores(course, name, student):
    from nbgrader.api import Gradebook

    db = f"sqlite:///{course / 'gradebook.db'}"
    with Gradebook(db) as gb:
        submission = gb.find_submission_notebook(name, name, student)
        return {g.name: (g.auto_score, g.max_score, g.cell_type, g.auto_score is None)
                for g in submission.grades}


def _autograded(scores):
    return {k: v for k, v in scores.items() if k.endswith("-test")}


def test_the_release_has_no_solution_and_no_hidden_test(graded):
    course, names = graded
    for name in names:
        release = nbformat.read(course / "release" / name / f"{name}.ipynb", as_version=4)
        text = "\n".join(c.source for c in release.cells)
        assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text
        assert "instructor's solution" not in text and "**Rubric**" not in text
        assert "YOUR ANSWER HERE" in text or not _cells(release, "written")


def test_solved_submission_gets_full_marks(graded):
    course, names = graded
    for name in names:
        tests = _autograded(_scores(course, name, "solved"))
        assert tests
        for grade_id, (score, max_score, _, _) in tests.items():
            assert score == max_score, f"{name} {grade_id}: {score} of {max_score}"


def test_untouched_release_gets_zero(graded):
    course, names = graded
    for name in names:
        for grade_id, (score, _, _, _) in _autograded(_scores(course, name, "untouched")).items():
            assert score == 0, f"{name} {grade_id}: {score}"


def test_printed_success_and_faked_checkers_get_zero(graded):
    course, names = graded
    for name in names:
        for grade_id, (score, _, _, _) in _autograded(_scores(course, name, "faked")).items():
            assert score == 0, f"{name} {grade_id}: {score}"


def test_written_answers_wait_for_the_instructor(graded):
    course, names = graded
    for name in names:
        scores = _scores(course, name, "untouched")
        written = {k: v for k, v in scores.items() if k.endswith("-written")}
        assert all(v[1] >= 2 for v in written.values())


# --- the course as any Jupyter reads it (written from the book build) -----------------

BUILD = ROOT / "_build"
_HAVE_BUILD = (BUILD / ".doctrees" / "environment.pickle").is_file() and \
    (BUILD / "jupyter_execute" / "book").is_dir()


def test_without_a_book_build_make_course_says_what_to_run(tmp_path):
    with pytest.raises(SystemExit) as stop:
        make_course.main(["--build", str(tmp_path / "nothing"), "--out", str(tmp_path / "c"),
                          "--no-release"])
    message = str(stop.value.code)
    assert "run `make book` first" in message and "--myst" in message


@pytest.mark.browser            # reads the book build, like the other tests of the built book
@pytest.mark.skipif(not _HAVE_BUILD, reason="no book build in _build (run `make book`)")
def test_the_course_from_the_book_build_reads_in_any_jupyter_and_grades(tmp_path, sources):
    import re

    raw = re.compile(r"\{(?:ref|eq|numref|cite(?::[a-z]+)?|glue(?::[a-z]+)?|prf:ref|class|"
                     r"func)\}`|^\s*(?:`{3,}|:{3,})\{|^\([A-Za-z0-9_.:-]+\)=\s*$", re.M)
    out = tmp_path / "course"
    assert make_course.main(["--build", str(BUILD), "--out", str(out), "--no-release"]) == 0
    for path in make_course.chapters():
        name = pathlib.Path("source") / path.stem / path.name
        readable = nbformat.read(out / name, as_version=4)
        myst = nbformat.read(sources / name, as_version=4)
        graded = [c.metadata["nbgrader"] for c in readable.cells if "nbgrader" in c.metadata]
        assert graded == [c.metadata["nbgrader"] for c in myst.cells if "nbgrader" in c.metadata]
        for cell in readable.cells:
            if cell.cell_type == "markdown":
                assert not raw.search(cell.source), (path.stem, raw.search(cell.source))
        assert "any Jupyter" in readable.cells[0].source
        assert "import svmlib" in readable.cells[1].source
        # a chapter that glues with myst-nb: its check cell checks that it imports too
        glues = any("from myst_nb import" in c.source for c in readable.cells
                    if c.cell_type == "code")
        assert ("'myst_nb'" in readable.cells[1].source) == glues, path.stem
        # each figure of the chapter outside its solutions, with its caption under it
        book = nbformat.read(path, as_version=4)
        figures = {c.metadata["mystnb"]["figure"]["name"] for c in book.cells
                   if c.cell_type == "code" and c.metadata.get("mystnb", {}).get("figure")
                   and "exercise-solution" not in c.metadata.get("tags", [])}
        captions = {m.group(1) for k, c in enumerate(readable.cells) if c.cell_type == "markdown"
                    and readable.cells[k - 1].cell_type == "code"
                    for m in [re.match(r'<a id="([^"]+)"[^\n]*\n\n\*\*Fig\. \d+\.\d+\.\*\*',
                                       c.source)] if m}
        assert captions == figures, (path.stem, figures ^ captions)
    # the same bytes from the same build
    again = tmp_path / "again"
    make_course.main(["--build", str(BUILD), "--out", str(again), "--no-release"])
    for path in make_course.chapters():
        name = pathlib.Path("source") / path.stem / path.name
        assert (again / name).read_bytes() == (out / name).read_bytes(), path.stem
    # one assignment released and graded: the source gets full marks, the release zero
    chapter = "06_soft_margin"
    make_course.release(out, [chapter])
    release = nbformat.read(out / "release" / chapter / f"{chapter}.ipynb", as_version=4)
    text = "\n".join(c.source for c in release.cells)
    assert "BEGIN SOLUTION" not in text and "instructor's solution" not in text
    for student, notebook in (("solved", out / "source" / chapter / f"{chapter}.ipynb"),
                              ("untouched", out / "release" / chapter / f"{chapter}.ipynb")):
        (out / "submitted" / student / chapter).mkdir(parents=True)
        shutil.copy(notebook, out / "submitted" / student / chapter)
    make_course.nbgrader(out, "autograde", chapter, "--force")
    solved = _autograded(_scores(out, chapter, "solved"))
    untouched = _autograded(_scores(out, chapter, "untouched"))
    assert solved and all(score == top for score, top, _, _ in solved.values()), solved
    assert all(score == 0 for score, _, _, _ in untouched.values()), untouched
