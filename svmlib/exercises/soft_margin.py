"""Checkers for the exercises of the chapter "The soft-margin SVM" (chapter 06).

* :func:`check_slacks` -- the slacks ``xi_i = max(0, 1 - y_i h(x_i))`` of the
  chapter's solution, which the checker makes itself (Book: (eq-soft-slack-optimal));
* :func:`check_kkt_cases` -- a function that sorts multipliers into the three
  KKT cases (Book: (eq-soft-kkt-cases)), tested on hidden cases that include
  the rounding noise of a real solver;
* :func:`check_soft_margin_objective` -- a function computing the hinge form
  of the primal objective (Book: (eq-soft-hinge-form)), tested on hidden data.

Each recomputes the expected answer, and for a wrong answer looks for the
usual slip (a missing ``max``, label, bias, ``1/2`` or ``C``; a mean for a
sum; the distance for the slack; no tolerance around the bounds; ...).
Wrapped in :func:`~svmlib.exercises.checker`, they never raise.
"""

import functools

import numpy as np

from ._core import AnswerError, Feedback, as_array, call_answer, checker, close

__all__ = ["check_slacks", "check_kkt_cases", "check_soft_margin_objective"]


@functools.lru_cache(maxsize=1)
def _chapter_solution():
    """The data and solution of the exercise, made here as the chapter makes them.

    The training set of the chapter and its linear soft-margin SVM for C = 1:
    the checker compares the reader's slacks with these, never with data the
    reader passes in.
    """
    from .. import SVC, datasets

    X, y = datasets.elongated_blobs(n=50, label_noise=0.05, random_state=0)
    model = SVC(kernel="linear", C=1.0, tol=1e-8).fit(X, y)
    return (model.coef_[0].astype(float), float(model.intercept_[0]), X.astype(float),
            y.astype(float))


def _same(given, ref):
    try:
        return close(np.asarray(given, dtype=float).reshape(np.shape(ref)), ref)
    except (TypeError, ValueError):
        return False


@checker
def check_slacks(xi, w=None, b=None, X=None, y=None):
    """Check the slacks ``xi_i = max(0, 1 - y_i (<w, x_i> + b))`` of every point.

    Book: (eq-soft-slack-optimal).  The expected slacks are those of the
    chapter's solution (its training set and linear SVM for ``C = 1``), made
    by the checker itself.

    Parameters
    ----------
    xi : array-like of shape (n_samples,)
        The reader's answer.
    w, b, X, y : optional
        The chapter's ``w``, ``b``, ``X``, ``y``, as the book's cell passes them.
        They must be the chapter's own: the checker says so when they are not
        (a reader who changed them would otherwise be checked against their
        own data).

    Returns
    -------
    Feedback
    """
    w_ref, b_ref, X_ref, y_ref = _chapter_solution()
    for given, ref, name in ((w, w_ref, "w"), (b, b_ref, "b"), (X, X_ref, "X"), (y, y_ref, "y")):
        if given is not None and not _same(given, ref):
            raise AnswerError(f"the {name} passed to the checker is not the chapter's {name}. "
                              f"The exercise asks for the slacks of the chapter's solution: "
                              f"re-run the cells that define X, y, w and b, and do not change "
                              f"them.")
    w, b, X, y = w_ref, b_ref, X_ref, y_ref
    n = X.shape[0]
    xi = as_array(xi, "xi", shape=(n,))
    h = X @ w + b
    expected = np.maximum(0.0, 1.0 - y * h)
    if close(xi, expected):
        k = int(np.sum(expected > 1e-9))   # zero up to rounding
        return Feedback(True, f"{k} of the {n} points have positive slack; the largest is "
                              f"{expected.max():.3f}.")
    norm = np.linalg.norm(w)
    slips = [
        (1.0 - y * h, "some of your slacks are negative. A slack is never negative "
                      "(xi_i >= 0): points beyond their margin plane get 0, so take "
                      "np.maximum(0, 1 - y * h)."),
        (expected / norm, "you divided by ||w||. That is the distance xi_i / ||w|| the "
                          "point must move; the slack itself is 1 - y_i h(x_i), measured "
                          "in units of the score."),
        (np.maximum(0.0, 1.0 - h), "the labels are missing: the constraint is "
                                   "y_i h(x_i) >= 1 - xi_i, so use 1 - y * h."),
        (np.maximum(0.0, 1.0 - y * (X @ w)), "the bias b is missing from h(x_i) = <w, x_i> + b."),
        (np.maximum(0.0, -y * h), "this is the perceptron's loss max(0, -y h): the slack "
                                  "measures how far a point falls short of the margin "
                                  "y h = 1, not of the boundary y h = 0."),
        (np.maximum(0.0, 1.0 + y * h), "a sign is flipped: use 1 - y_i h(x_i), not "
                                       "1 + y_i h(x_i)."),
    ]
    for candidate, hint in slips:
        if close(xi, candidate):
            return Feedback(False, hint)
    wrong = np.flatnonzero(~np.isclose(xi, expected, rtol=1e-6, atol=1e-8))
    i = int(wrong[0])
    return Feedback(False, f"{wrong.size} of the {n} slacks differ, e.g. point {i}: you have "
                           f"{xi[i]:.4g}, expected {expected[i]:.4g}. Go back to the constraint "
                           f"y_i h(x_i) >= 1 - xi_i with xi_i >= 0: at the optimum each slack "
                           f"is the smallest value that satisfies both, for the score h(x_i) "
                           f"of the chapter's w and b.")


# hidden test cases of check_kkt_cases: (alpha, C, note)
def _kkt_test_cases():
    clean = (np.array([0.0, 0.5, 1.0, 0.0, 1.0, 0.3, 0.999]), 1.0, "clean")
    C = 10.0
    noisy = (np.array([1e-12, 4.0, C - 1e-9, 3e-13, C * (1 - 1e-12), 7.0, 0.01, C - 0.01]),
             C, "noisy")
    big = (np.array([0.0, 1e-7, 500.0, 1000.0 - 1e-7, 1000.0, 2.0]), 1000.0, "scaled")
    hard = (np.array([0.0, 2.5, 0.0, 7.1, 1e-13]), np.inf, "hard")
    return [clean, noisy, big, hard]


def _reference_cases(alpha, C):
    from ..plotting.soft_margin import kkt_cases

    return kkt_cases(alpha, C)


def _exact_cases(alpha, C):
    cases = np.ones(alpha.shape[0], dtype=int)
    cases[alpha == 0] = 0
    cases[alpha == C] = 2
    return cases


@checker
def check_kkt_cases(kkt_cases):
    """Check a function ``kkt_cases(alpha, C)`` that returns the KKT case of each point.

    The function must return an integer array: 0 where ``alpha_i = 0``, 1 where
    ``0 < alpha_i < C`` and 2 where ``alpha_i = C``, treating values within a
    small tolerance of a bound as on the bound (solvers leave rounding noise
    such as ``1e-12``), and handling ``C = np.inf`` (the hard margin: no point
    is at the upper bound).

    Book: (eq-soft-kkt-cases).

    Parameters
    ----------
    kkt_cases : callable
        The reader's function ``kkt_cases(alpha, C) -> ndarray of shape (n,)``.

    Returns
    -------
    Feedback
    """
    if not callable(kkt_cases):
        raise AnswerError("pass your function itself, kkt_cases, not its result "
                          "(write check_kkt_cases(kkt_cases)).")
    for alpha, C, kind in _kkt_test_cases():
        got = call_answer(kkt_cases, alpha.copy(), C, name="kkt_cases")
        n = alpha.shape[0]
        got = as_array(got, "the result of kkt_cases", shape=(n,))
        expected = _reference_cases(alpha, C)
        if np.any(expected == 2) and close(got, (expected > 0).astype(float)):
            return Feedback(False, "you return 0/1 (is it a support vector?) but the exercise "
                                   "asks for three cases: 0 for alpha_i = 0, 1 for "
                                   "0 < alpha_i < C, 2 for alpha_i = C.")
        if not np.all(np.isin(got, (0.0, 1.0, 2.0))):
            bad = np.unique(got[~np.isin(got, (0.0, 1.0, 2.0))])[:3]
            return Feedback(False, f"kkt_cases returned values {bad.tolist()}; use only 0 "
                                   f"(alpha_i = 0), 1 (0 < alpha_i < C) and 2 (alpha_i = C).")
        if close(got, expected):
            continue
        if close(got, 2 - expected) and np.isfinite(C):
            return Feedback(False, "cases 0 and 2 are swapped: 0 is alpha_i = 0 (outside the "
                                   "margin) and 2 is alpha_i = C (inside it or misclassified).")
        if kind == "hard":
            return Feedback(False, "with C = np.inf (the hard margin) no multiplier is at the "
                                   "upper bound, so every positive alpha_i is case 1; check "
                                   "how your code compares alpha with C when C is infinite.")
        if kind == "noisy" and close(got, _exact_cases(alpha, C)):
            return Feedback(False, "you compare alpha with 0 and C exactly, but a solver "
                                   "returns values such as 1e-12 or C - 1e-9 where the exact "
                                   "solution sits on a bound. Use a tolerance, e.g. "
                                   "tol = 1e-6 * C: alpha <= tol is 0, alpha >= C - tol is C.")
        wrong = np.flatnonzero(got != expected)
        i = int(wrong[0])
        detail = (f"alpha = {alpha[i]:.6g} with C = {C:g} should be case {expected[i]}, "
                  f"your function says {got[i]:g}")
        if expected[i] == 1 and kind != "hard":
            return Feedback(False, f"{detail}. Your tolerance is too large: this multiplier "
                                   f"is genuinely between the bounds. Use a relative "
                                   f"tolerance such as 1e-6 * C.")
        if expected[i] != 1 and got[i] == 1 and kind in ("noisy", "scaled"):
            return Feedback(False, f"{detail}. Your tolerance is too small for this C: a "
                                   f"solver's rounding noise grows with the size of the "
                                   f"multipliers, so use a relative tolerance such as "
                                   f"1e-6 * C.")
        return Feedback(False, f"{detail}.")
    return Feedback(True, "your function sorts the multipliers into the three KKT cases, "
                          "with a tolerance for rounding noise and the hard margin handled.")


def _objective_cases():
    rng = np.random.default_rng(6)
    cases = []
    for n, p, C in [(12, 2, 1.0), (30, 3, 0.25), (20, 2, 40.0)]:
        X = rng.normal(size=(n, p))
        y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        y[:2] = (-1.0, 1.0)
        w = rng.normal(size=p)
        b = float(rng.normal())
        cases.append((w, b, X, y, C))
    # a separating hyperplane with every margin >= 1: the objective is 1/2 ||w||^2
    X = np.array([[2.0, 0.0], [3.0, 1.0], [-2.0, 0.5], [-3.0, -1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    cases.append((np.array([1.0, 0.0]), 0.0, X, y, 5.0))
    return cases


@checker
def check_soft_margin_objective(objective):
    """Check a function ``objective(w, b, X, y, C)`` for the hinge form of the primal.

    ``P(w, b) = 1/2 ||w||^2 + C sum_i max(0, 1 - y_i (<w, x_i> + b))``.
    The function is run on hidden data (different sizes, dimensions and C).

    Book: (eq-soft-hinge-form).

    Parameters
    ----------
    objective : callable
        The reader's function, returning one number.

    Returns
    -------
    Feedback
    """
    if not callable(objective):
        raise AnswerError("pass your function itself, not its value (write "
                          "check_soft_margin_objective(soft_margin_objective)).")
    for w, b, X, y, C in _objective_cases():
        got = call_answer(objective, w.copy(), b, X.copy(), y.copy(), C,
                          name="your objective function")
        got_array = as_array(got, "the objective")
        if got_array.size != 1:
            return Feedback(False, f"your function returns {got_array.size} numbers (shape "
                                   f"{got_array.shape}); it must return one number: sum the "
                                   f"hinge losses over the points.")
        got = float(got_array.ravel()[0])
        n = X.shape[0]
        h = X @ w + b
        hinge = np.maximum(0.0, 1.0 - y * h)
        square = float(w @ w)
        expected = 0.5 * square + C * hinge.sum()
        if close(got, expected):
            continue
        slips = [
            (0.5 * square + C * hinge.mean(), "you averaged the hinge losses; the C form sums "
                                              "them: C * np.sum(hinge)."),
            (square + C * hinge.sum(), "the factor 1/2 in front of ||w||^2 is missing."),
            (0.5 * np.sqrt(square) + C * hinge.sum(), "use the squared norm ||w||^2 = w @ w, "
                                                       "not ||w||."),
            (0.5 * square + hinge.sum(), "C is missing: it multiplies the sum of the hinge "
                                         "losses."),
            (hinge.mean() + 0.5 * square / (n * C), "this is the loss + regularizer form "
                                                      "(1/n) sum hinge + (lambda/2) ||w||^2 "
                                                      "with lambda = 1/(nC): the same "
                                                      "minimizer, but divided by nC. The "
                                                      "exercise asks for the C form."),
            (0.5 * square + C * np.sum(1.0 - y * h), "the max(0, .) is missing: points beyond "
                                                     "their margin plane must cost nothing, "
                                                     "not earn a reward."),
            (0.5 * square + C * np.maximum(0.0, 1.0 - y * (X @ w)).sum(),
             "the bias b is missing from h(x) = <w, x> + b."),
            (0.5 * square + C * np.maximum(0.0, 1.0 - h).sum(), "the labels y_i are missing "
                                                                 "in 1 - y_i h(x_i)."),
        ]
        for candidate, hint in slips:
            if close(got, candidate):
                return Feedback(False, hint)
        return Feedback(False, f"on a hidden data set with n = {n}, p = {X.shape[1]} and "
                               f"C = {C:g} your function gives {got:.6g}, expected "
                               f"{expected:.6g}. Check each term of (eq-soft-hinge-form) "
                               f"separately on a tiny example you can work out by hand: the "
                               f"regularizer, and the hinge loss of each point.")
    return Feedback(True, "your function computes 1/2 ||w||^2 + C sum_i max(0, 1 - y_i h(x_i)) "
                          "on every hidden data set.")
