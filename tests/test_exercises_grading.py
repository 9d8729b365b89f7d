"""What a grader reads from a checker (issue 26): verdicts that cannot be faked,
reference data the reader cannot change, hints that do not give the answer away."""

import sys
import pathlib

import numpy as np
import pytest

from svmlib.exercises import AnswerError, Feedback, assert_correct, checker
from svmlib.exercises import hard_margin_dual, hyperplanes, maximum_margin, soft_margin

ROOT = pathlib.Path(__file__).resolve().parents[1]


@checker
def _check_positive(x):
    if x is None:
        raise AnswerError("x is None")
    return Feedback(x > 0, "x is positive" if x > 0 else "x must be positive")


def test_a_checkers_verdict_is_issued_and_a_hand_made_one_is_not():
    right = _check_positive(2)
    assert right.issued and right.correct
    assert _check_positive(None).issued          # an AnswerError's hint, too
    faked = Feedback(True, "faked")
    assert bool(faked) and not faked.issued
    assert faked == Feedback(True, "faked")      # equality does not make it issued


def test_assert_correct_accepts_only_a_checkers_positive_verdict():
    assert_correct(_check_positive(1))
    with pytest.raises(AssertionError, match="x must be positive"):
        assert_correct(_check_positive(-1))
    for fake in (Feedback(True, "faked"), True, "✅ Correct", None):
        with pytest.raises(AssertionError, match="not a checker's verdict"):
            assert_correct(fake)


def test_a_verdict_keeps_its_display():
    verdict = _check_positive(3)
    assert verdict.text == "✅ Correct: x is positive"
    assert "svmlib-feedback-correct" in verdict._repr_html_()


def test_check_slacks_compares_with_the_chapters_solution():
    w, b, X, y = soft_margin._chapter_solution()
    xi = np.maximum(0.0, 1.0 - y * (X @ w + b))
    assert soft_margin.check_slacks(xi)
    assert soft_margin.check_slacks(xi, w, b, X, y)
    # the false positive of the review: the reader's own (w, b) = (0, 0) made every slack 1
    verdict = soft_margin.check_slacks(np.ones(len(y)), np.zeros(2), 0.0, X, y)
    assert not verdict and "not the chapter's w" in verdict.message
    assert not soft_margin.check_slacks(np.ones(len(y)))


def test_check_slacks_generic_hint_does_not_give_the_formula():
    w, b, X, y = soft_margin._chapter_solution()
    xi = np.maximum(0.0, 1.0 - y * (X @ w + b))
    verdict = soft_margin.check_slacks(xi + 0.3)
    assert not verdict
    assert "np.maximum" not in verdict.message and "1 - y * h" not in verdict.message


def test_hard_margin_checkers_make_the_chapters_data():
    X, y, alpha = hard_margin_dual._chapter_data()
    assert hard_margin_dual.check_dual_matrix(np.outer(y, y) * (X @ X.T))
    tau = hard_margin_dual.support_threshold(alpha)
    support = np.flatnonzero(alpha > tau)
    assert hard_margin_dual.check_support_vectors(support)
    w = (alpha * y) @ X
    b = float(np.mean(y[support] - X[support] @ w))
    assert hard_margin_dual.check_w_and_b(w, b)
    generic = hard_margin_dual.check_w_and_b(w + 0.37 * np.array([1.0, -2.0]), b)
    assert not generic and "@ X" not in generic.message


def test_chapter_one_and_three_checkers_default_to_the_exercises_givens():
    # ex-hyperplanes-bisector: a = (1, 3), c = (5, 1)
    a, c = np.array([1.0, 3.0]), np.array([5.0, 1.0])
    w = a - c
    assert hyperplanes.check_bisector((w, -w @ (a + c) / 2))
    assert not hyperplanes.check_bisector((np.array([1.0, 0.0]), 0.0))
    # ex-hyperplanes-signed-distances: the chapter's fourteen points, w = (1, 3), b = -2
    X, y = hyperplanes._chapter_points()
    w_ex, b_ex = np.array([1.0, 3.0]), -2.0
    r = (X @ w_ex + b_ex) / np.linalg.norm(w_ex)
    assert hyperplanes.check_signed_distances(r)
    assert hyperplanes.check_misclassified(np.flatnonzero(y * r <= 0))
    d = a - c
    assert maximum_margin.check_two_point_svm((2 * d / (d @ d), -(2 * d / (d @ d)) @ (a + c) / 2))


def test_the_exercise_edition_leaves_out_marked_answers():
    sys.path.insert(0, str(ROOT / "book"))
    from make_exercises import _Filter

    text = "\n".join(["Predict first.", "", "% answers: for checking",
                      "````{admonition} Answers, for checking", ":class: dropdown", "",
                      "The answer is 42.", "````", "", "After."])
    kept = _Filter("test").markdown(text)
    assert "42" not in kept and "Predict first." in kept and "After." in kept


def test_the_exercise_edition_is_reproducible(tmp_path):
    sys.path.insert(0, str(ROOT / "book"))
    import make_exercises

    chapter = ROOT / "book" / "06_soft_margin.ipynb"
    first = make_exercises.build([chapter], tmp_path / "a")[0].read_bytes()
    second = make_exercises.build([chapter], tmp_path / "b")[0].read_bytes()
    assert first == second


CHAPTERS = sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_solution_shows_in_plain_view_in_jupyterlab(path):
    """JupyterLab renders each cell alone: a gated solution's prose must sit in its
    {solution-start} cell (shown as a closed dropdown), and a collapsed solution
    code cell shows its first line, which must name the exercise, not answer it."""
    import re

    import nbformat

    sys.path.insert(0, str(ROOT / "book"))
    from make_exercises import _Filter

    notebook = nbformat.read(path, as_version=4)
    reader = _Filter(path.stem)
    for k, cell in enumerate(notebook.cells):
        tags = cell.metadata.get("tags", [])
        if cell.cell_type == "code" and {"exercise-answer", "exercise-solution"} & set(tags):
            first = cell.source.split("\n", 1)[0]
            assert first.startswith("# Solution of the exercise"), (path.name, k, first)
        if cell.cell_type == "markdown":
            if reader.gated is not None:
                before_end = re.split(r"^`{3,}\{solution-end\}", cell.source, flags=re.M)[0]
                assert not before_end.strip(), (
                    f"{path.name}, cell {k}: solution text before {{solution-end}} in a cell of "
                    f"its own shows in plain view in JupyterLab; move it into the "
                    f"{{solution-start}} cell")
            reader.markdown(cell.source)


# --- the givens a chapter's cell passes to its checker: the exercise's, never the reader's ----

def _bisector(a, c):
    w = np.asarray(a, dtype=float) - np.asarray(c, dtype=float)
    return w, float(-w @ (np.asarray(a, dtype=float) + np.asarray(c, dtype=float)) / 2)


def test_a_bisector_of_points_the_reader_changed_is_not_correct():
    # the chapter's cell: a_pos, c_neg = (1, 3), (5, 1); check_bisector((w, b), a_pos, c_neg)
    a, c = np.array([1.0, 3.0]), np.array([5.0, 1.0])
    assert hyperplanes.check_bisector(_bisector(a, c), a, c)
    assert hyperplanes.check_bisector(_bisector(a, c))
    # the starter's (w, b) = ((1, 0), 0) is the bisector of (1, 0) and (-1, 0): moving the
    # givens to fit it must not earn a "Correct"
    moved_a, moved_c = np.array([1.0, 0.0]), np.array([-1.0, 0.0])
    verdict = hyperplanes.check_bisector((np.array([1.0, 0.0]), 0.0), moved_a, moved_c)
    assert verdict.issued and not verdict
    assert "the a passed to the checker is not the exercise's a" in verdict.message
    # on purpose, on other data
    assert hyperplanes.check_bisector((np.array([1.0, 0.0]), 0.0), moved_a, moved_c,
                                      other_data=True)


@pytest.mark.parametrize("call, name", [
    (lambda X, y: hyperplanes.check_signed_distances(X @ [1.0, 0.0], X, [1.0, 0.0], 0.0), "w"),
    (lambda X, y: hyperplanes.check_signed_distances(np.zeros(len(y)), np.zeros_like(X),
                                                     [1.0, 3.0], 0.0), "X"),
    (lambda X, y: hyperplanes.check_misclassified([], X, np.sign(X @ [1.0, 3.0] - 2.0),
                                                  [1.0, 3.0], -2.0), "y"),
    (lambda X, y: hyperplanes.check_line(((1.0, 0.0), 0.0), (0.0, 0.0), (0.0, 1.0),
                                         (1.0, 0.0)), "p"),
    (lambda X, y: maximum_margin.check_two_point_svm(((1.0, 0.0), 0.0), (1.0, 0.0),
                                                     (-1.0, 0.0)), "x_plus"),
])
def test_chapter_one_and_three_checkers_refuse_givens_that_are_not_the_exercises(call, name):
    """Each call's answer is right for the data it passes, which are not the exercise's."""
    X, y = hyperplanes._chapter_points()
    verdict = call(X, y)
    assert verdict.issued and not verdict
    assert f"the {name} passed to the checker is not the exercise's {name}" in verdict.message


def test_the_chapters_own_givens_are_accepted_as_its_cells_pass_them():
    X, y = hyperplanes._chapter_points()
    w, b = np.array([1.0, 3.0]), -2.0
    r = (X @ w + b) / np.linalg.norm(w)
    assert hyperplanes.check_signed_distances(r, X, w, b)
    assert hyperplanes.check_misclassified(np.flatnonzero(y * r <= 0), X, y.astype(int), w, b)
    p, q, s = np.array([-1.0, 0.0]), np.array([3.0, 2.0]), np.array([0.0, 3.0])
    assert hyperplanes.check_line(((-0.5, 1.0), -0.5), p, q, s)
    x_plus, x_minus = np.array([1.0, 3.0]), np.array([5.0, 1.0])
    d = x_plus - x_minus
    w_two = 2 * d / (d @ d)
    assert maximum_margin.check_two_point_svm((w_two, -w_two @ (x_plus + x_minus) / 2),
                                              x_plus, x_minus)


def test_hard_margin_checkers_refuse_data_that_are_not_the_chapters():
    X, y, alpha = hard_margin_dual._chapter_data()
    # a matrix that is right for data of the reader's own, zeros
    zeros = np.zeros_like(X)
    verdict = hard_margin_dual.check_dual_matrix(np.zeros((len(y), len(y))), zeros, y)
    assert not verdict and "not the exercise's X" in verdict.message
    assert hard_margin_dual.check_dual_matrix(np.zeros((len(y), len(y))), zeros, y,
                                              other_data=True)
    verdict = hard_margin_dual.check_support_vectors([0], np.eye(len(y))[0])
    assert not verdict and "not the exercise's alpha" in verdict.message
    verdict = hard_margin_dual.check_w_and_b(np.zeros(2), 0.0, X, y, np.zeros(len(y)))
    assert not verdict and "not the exercise's alpha" in verdict.message
    # the chapter's own data, passed along, are fine
    assert hard_margin_dual.check_dual_matrix(np.outer(y, y) * (X @ X.T), X, y)


def test_generic_hints_guide_without_giving_the_formula():
    from svmlib.exercises import kernels

    # a six-coordinate map that is wrong in no recognised way
    verdict = kernels.check_feature_map_m2(
        lambda x: np.array([x[0], x[1], x[0] * x[1], 3.0 * x[0], x[1] ** 2, 2.0]))
    assert verdict.issued and not verdict
    assert "√2" not in verdict.message and "Expand the square" in verdict.message
    # the recognised slip (no √2) is named
    verdict = kernels.check_feature_map_m2(
        lambda x: np.array([x[0] ** 2, x[1] ** 2, x[0] * x[1], x[0], x[1], 1.0]))
    assert not verdict and "√2" in verdict.message
    X, _ = hyperplanes._chapter_points()
    w, b = np.array([1.0, 3.0]), -2.0
    r = (X @ w + b) / np.linalg.norm(w)
    verdict = hyperplanes.check_signed_distances(r + np.linspace(0.1, 0.9, len(r)))
    assert not verdict and "index 0" in verdict.message
    assert "||w||" not in verdict.message and "<w, x>" not in verdict.message
