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
