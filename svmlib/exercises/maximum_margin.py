"""Checkers for the exercises of chapter 03, maximum-margin hyperplanes.

The two code exercises ask the reader to write a small function; the checker
calls it on a handful of hidden cases (a separating hyperplane with
``||w|| != 1``, the same hyperplane scaled, a hyperplane that misclassifies a
point, a case in three dimensions) and compares with :class:`svmlib.Hyperplane`.
When an answer is wrong, the checker recognises the usual slips (the
functional margin instead of the geometric one, ``|h|`` instead of ``y h``, the
unit normal instead of the canonical scaling, ...) and names them.

Book: chapter ``ch-maximum-margin``, equations (eq-geometric-margin) and
(eq-canonical).
"""

import numpy as np

from ..hyperplane import Hyperplane
from ._core import (AnswerError, Feedback, _describe, as_array, call_answer, checker, close,
                    exercise_data)

__all__ = ["check_geometric_margin", "check_two_point_svm",
           "check_which_moves_matter", "margin_cases", "support_vector_moves",
           "MOVE_QUESTIONS"]


def margin_cases():
    """The hidden test cases of the two code exercises.

    Returns
    -------
    list of dict
        Each dict has ``"name"`` (str), ``"w"`` (ndarray of shape (p,)),
        ``"b"`` (float), ``"X"`` (ndarray of shape (n, p)), ``"y"``
        (ndarray of shape (n,), values in {-1, +1}) and ``"separates"``
        (bool).
    """
    X2 = np.array([[2.0, 3.0], [3.0, 3.5], [1.0, 4.0], [-1.0, 0.5], [0.0, -1.0], [1.5, 0.0]])
    y2 = np.array([1, 1, 1, -1, -1, -1])
    X3 = np.array([[1.0, 2.0, 0.5], [2.0, 1.0, 1.5], [0.0, 0.0, 0.0], [-1.0, 0.5, -0.5],
                   [0.5, -1.0, -1.0]])
    y3 = np.array([1, 1, -1, -1, -1])
    cases = [
        dict(name="a separating line with ||w|| = sqrt(5)", w=np.array([1.0, 2.0]), b=-4.0,
             X=X2, y=y2),
        dict(name="the same line with (w, b) scaled by 3", w=np.array([3.0, 6.0]), b=-12.0,
             X=X2, y=y2),
        dict(name="a line that misclassifies a point", w=np.array([2.0, 1.0]), b=-2.5,
             X=X2, y=y2),
        dict(name="a plane in three dimensions", w=np.array([1.0, 1.0, 2.0]), b=-1.5,
             X=X3, y=y3),
    ]
    for case in cases:
        case["separates"] = Hyperplane(case["w"], case["b"]).separates(case["X"], case["y"])
    return cases


def _copies(case):
    """Fresh copies, so that an answer that modifies its inputs cannot spoil a case."""
    return case["w"].copy(), float(case["b"]), case["X"].copy(), case["y"].copy()


# ----------------------------------------------------------- geometric margin

def _margin_slips(w, b, X, y):
    """Values that typical wrong answers return, with a hint for each."""
    h = X @ w + b
    norm = np.linalg.norm(w)
    return [
        (np.min(y * h), "you returned the functional margin min_i y_i h(x_i); divide by "
                        "||w|| to turn scores into distances (eq-geometric-margin)."),
        (np.min(y * h) / norm**2, "you divided by ||w||^2; the distance of a point from the "
                                  "hyperplane is y_i h(x_i) / ||w||, with the norm itself."),
        (np.min(np.abs(h)) / norm, "you used |h(x_i)| instead of y_i h(x_i): that is a "
                                   "distance without a side, so a misclassified point "
                                   "counts as correct. Multiply by the label y_i."),
        (np.max(y * h) / norm, "you took the largest value; the margin is set by the "
                               "closest point, so take the minimum over i."),
        (np.mean(y * h) / norm, "you averaged over the points; the margin is the minimum "
                                "over i of y_i h(x_i) / ||w||."),
        (-np.min(y * h) / norm, "the sign is reversed: a correctly classified point has "
                                "y_i h(x_i) > 0, so the margin of a separating hyperplane "
                                "is positive."),
        (np.min(y * (X @ w)) / norm, "the bias b is missing: h(x) = <w, x> + b."),
        (np.min(y * h) / np.linalg.norm(np.append(w, b)),
         "you divided by ||(w, b)||, the length of the augmented vector (w, b) of the "
         "perceptron chapter. The distance from H divides by ||w|| alone: b moves the "
         "hyperplane without tilting it, so it does not belong in the norm."),
    ]


# The givens of the chapter's exercises, made here as the chapter makes them:
# a checker called without them (as the course edition's hidden tests call
# it) checks the answer against these, which the reader cannot change.
_CHAPTER_TWO_POINTS = ((1.0, 3.0), (5.0, 1.0))     # ex-maxmargin-two-points-code


def _chapter_blobs():
    from .. import datasets

    X, y = datasets.separable_blobs(n=40, margin=1.0, random_state=0)
    return np.asarray(X, dtype=float), np.asarray(y)


@checker
def check_geometric_margin(geometric_margin):
    """Check a function ``geometric_margin(w, b, X, y)``.

    The function must return the geometric margin
    ``min_i y_i (<w, x_i> + b) / ||w||`` as one number, for any dimension,
    for separating and for non-separating hyperplanes.
    Book: (eq-geometric-margin).

    Parameters
    ----------
    geometric_margin : callable
        ``geometric_margin(w, b, X, y)`` with ``w`` of shape (p,), ``b`` a
        float, ``X`` of shape (n, p) and ``y`` of shape (n,) in {-1, +1}.

    Returns
    -------
    Feedback
    """
    if not callable(geometric_margin):
        raise AnswerError(f"pass the function itself, geometric_margin (without calling it); "
                          f"got {_describe(geometric_margin)}.")
    for case in margin_cases():
        w, b, X, y = _copies(case)
        got = call_answer(geometric_margin, w, b, X, y, name="geometric_margin")
        if np.ndim(got) > 0 and np.size(got) == X.shape[0]:
            raise AnswerError("geometric_margin returned one value per point; the margin of "
                              "the hyperplane is the smallest of them: take the minimum "
                              "over i.")
        got = as_array(got, "the value of geometric_margin", shape=None)
        if got.size != 1:
            raise AnswerError(f"geometric_margin should return one number; it returned an "
                              f"array of shape {got.shape}.")
        got = float(got.ravel()[0])
        want = Hyperplane(w, b).geometric_margin(X, y)
        if close(got, want, rtol=1e-6, atol=1e-9):
            continue
        for value, hint in _margin_slips(w, b, X, y):
            if not close(value, want, rtol=1e-6, atol=1e-9) and close(got, value, rtol=1e-6,
                                                                       atol=1e-9):
                return Feedback(False, f"on {case['name']}: {hint}")
        return Feedback(False, f"on {case['name']} (w = {w.tolist()}, b = {b:g}) your function "
                               f"returned {got:.4g}; the geometric margin is {want:.4g}. "
                               f"Recall what the margin of a data set measures: a distance, "
                               f"signed by the label, and which point sets it.")
    return Feedback(True, "your function gives the geometric margin on every test case, "
                          "including a rescaled (w, b) (same value: the margin is scale "
                          "invariant) and a hyperplane that misclassifies a point (a "
                          "negative margin).")


# --------------------------------------------------------------- canonical form

def _pair_w_b(answer, p):
    """``(w, b)`` from a pair or a Hyperplane, as an array of shape (p,) and a float."""
    if answer is None:
        raise AnswerError("the answer is None; give the pair (w, b), e.g. (np.array([1.0, 2.0]), -3.0).")
    if isinstance(answer, Hyperplane):
        w_raw, b_raw = answer.w, answer.b
    else:
        try:
            w_raw, b_raw = answer
        except (TypeError, ValueError):
            raise AnswerError(f"give the answer as a pair (w, b); got {_describe(answer)}.") from None
    w = as_array(w_raw, "w", shape=(p,))
    b = as_array(b_raw, "b")
    if b.size != 1:
        raise AnswerError(f"b must be one number; got shape {b.shape}. The pair is (w, b), w first.")
    if not np.any(w):
        raise AnswerError("w = 0 is no hyperplane: the normal vector must be nonzero.")
    return w, float(b.ravel()[0])


@checker
def check_two_point_svm(answer, x_plus=None, x_minus=None, *, other_data=False):
    """Check the canonical maximum-margin hyperplane of two points.

    With one point per class the maximum-margin hyperplane is the
    perpendicular bisector of the segment, and its canonical form
    (eq-canonical), ``y_i h(x_i) = 1`` at both points, is
    ``w = 2 (x_plus - x_minus) / ||x_plus - x_minus||^2`` and
    ``b = -<w, (x_plus + x_minus) / 2>``, with margin
    ``1 / ||w|| = ||x_plus - x_minus|| / 2``.  Unlike the checkers of a
    hyperplane, this one does not accept other positive multiples: the
    canonical scaling is the point.

    Parameters
    ----------
    answer : tuple (w, b) or Hyperplane
        The reader's canonical hyperplane.
    x_plus, x_minus : array-like of shape (p,)
        The point of class +1 and the point of class -1.
    other_data : bool, default=False
        Check on the data passed here instead of the exercise's (see
        :func:`~svmlib.exercises.exercise_data`); without it, data passed must be
        the exercise's own.

    Returns
    -------
    Feedback
    """
    x_plus, x_minus = exercise_data({"x_plus": x_plus, "x_minus": x_minus},
                                    dict(zip(("x_plus", "x_minus"), _CHAPTER_TWO_POINTS)),
                                    other_data)

    xp = np.asarray(x_plus, dtype=float).ravel()
    xm = np.asarray(x_minus, dtype=float).ravel()
    if xp.shape != xm.shape or np.allclose(xp, xm):
        raise ValueError("x_plus and x_minus must be two different points of the same dimension.")
    w, b = _pair_w_b(answer, xp.size)
    d, mid = xp - xm, (xp + xm) / 2.0
    w_star = 2.0 * d / (d @ d)
    b_star = -float(w_star @ mid)
    hp, hm = float(w @ xp + b), float(w @ xm + b)
    if close(w, w_star) and close(b, b_star):
        return Feedback.right(
            f"h(x+) = {hp:.4g} and h(x-) = {hm:.4g}: both points sit on the margin planes, and the "
            f"margin 1/||w|| = {1 / np.linalg.norm(w):.4g} is half their distance, "
            f"||x+ - x-|| / 2. Both are support vectors.")
    k = int(np.argmax(np.abs(d)))
    lam = w[k] / d[k]
    if not close(w, lam * d):
        return Feedback.hint(
            "this is not the widest street. With one point per class, which hyperplane keeps "
            "both points equally far away, and as far as possible? (The hyperplanes chapter "
            "asks the same question.) Its normal w follows from the answer.")
    if lam < 0:
        return Feedback.hint(
            f"w points from x+ to x-, so h(x+) = {hp:.4g} < 0: the orientation is flipped. "
            f"Take w along x+ - x-.")
    if not close(hp + hm, 0.0, atol=1e-8 * max(1.0, abs(hp) + abs(hm))):
        return Feedback.hint(
            f"the direction is right, but h(x+) = {hp:.4g} and h(x-) = {hm:.4g} are not "
            f"opposite, so H misses the midpoint. Add the two conditions h(x+) = 1 and "
            f"h(x-) = -1: <w, x+ + x-> + 2b = 0 fixes b.")
    if close(lam, 1.0):
        return Feedback.hint(
            f"this is the right hyperplane, but w = x+ - x- is not its canonical scale: "
            f"h(x+) = {hp:.4g}, not 1. Subtract h(x-) = -1 from h(x+) = 1: "
            f"<w, x+ - x-> = 2 fixes the length of w.")
    if close(np.linalg.norm(w), 1.0):
        return Feedback.hint(
            f"you normalized w to length 1, which makes h the signed distance (h(x+) = "
            f"{hp:.4g}); the canonical form asks for h(x+) = 1 and h(x-) = -1 instead.")
    return Feedback.hint(
        f"right hyperplane, wrong scale: h(x+) = {hp:.4g} and h(x-) = {hm:.4g}, but the "
        f"canonical form has y h(x) = 1 at the closest points. Rescale (w, b) so that "
        f"h(x+) = 1.")



#: The five changes to the data of exercise "Which changes move the line?".
MOVE_QUESTIONS = {
    "a": "delete every point that is not a support vector",
    "b": "move point 10 by 2.0 towards the other class, along the normal w/||w||",
    "c": "move support vector 23 by 0.3 away from the line, along the normal",
    "d": "move support vector 22 by 1.0 along its own margin plane (parallel to the line)",
    "e": "add a second copy of every point",
}

_MOVE_REASONS = {
    "a": "the solution is determined by the support vectors alone: the other points only add "
         "constraints that are inactive at the solution, and dropping an inactive constraint "
         "of a convex problem keeps its solution",
    "b": "point 10 is (y_10 h(x_10) - 1)/||w|| = {gap:.2f} from its margin plane, less than "
         "2.0: it enters the band, becomes a support vector and pushes the line",
    "c": "a support vector holds the line; when it moves away, the band can widen, so the "
         "solution changes (the margin grows)",
    "d": "22 and 25 are the two ends of an edge of the blue hull, and 23 faces that edge: moving "
         "22 along the edge's own line keeps the closest pair of the two hulls, as long as the "
         "foot of 23 stays on the edge, so the line stays; only the multipliers change",
    "e": "every constraint is there twice, which changes no feasible set and no objective",
}


def support_vector_moves(X, y):
    """The data after each change of exercise "Which changes move the line?".

    ``X, y`` are the chapter's running example (``separable_blobs(n=40,
    margin=1.0, random_state=0)``), whose support vectors are rows 22, 23 and
    25.  Each change is applied to a copy.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)

    Returns
    -------
    dict
        ``{key: (X_new, y_new)}`` for the keys of :data:`MOVE_QUESTIONS`.
    """
    from ..svc import SVC

    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or X.shape != (40, 2) or y.shape != (40,):
        raise ValueError(f"pass the chapter's running example, 40 points in the plane; got X of "
                         f"shape {X.shape} and y of shape {y.shape}.")
    model = SVC(kernel="linear", C=np.inf, tol=1e-8).fit(X, y)
    support = sorted(int(i) for i in model.support_)
    if support != [22, 23, 25]:
        raise ValueError(f"the support vectors of this data are rows {support}, not 22, 23 and "
                         f"25: pass datasets.separable_blobs(n=40, margin=1.0, random_state=0).")
    w = model.coef_[0]
    u = w / np.linalg.norm(w)
    along = np.array([-u[1], u[0]])
    moves = {}
    keep = np.isin(np.arange(len(y)), support)
    moves["a"] = (X[keep], y[keep])
    X_b = X.copy()
    X_b[10] -= y[10] * 2.0 * u
    moves["b"] = (X_b, y)
    X_c = X.copy()
    X_c[23] += y[23] * 0.3 * u
    moves["c"] = (X_c, y)
    X_d = X.copy()
    X_d[22] += 1.0 * along
    moves["d"] = (X_d, y)
    moves["e"] = (np.vstack([X, X]), np.concatenate([y, y]))
    return moves


@checker
def check_which_moves_matter(answers, X=None, y=None):
    """Check predictions of which changes to the data move the maximum-margin line.

    For each change of :data:`MOVE_QUESTIONS`, the reader predicts ``True``
    (the maximum-margin hyperplane changes) or ``False`` (it stays).  The
    checker refits svmlib's hard-margin SVC on the changed data and compares
    ``(w, b)`` with the original to ``1e-5``.

    Parameters
    ----------
    answers : dict
        ``{"a": bool, ..., "e": bool}``.
    X, y : array-like
        The chapter's running example.

    Returns
    -------
    Feedback
    """
    if X is None and y is None:
        X, y = _chapter_blobs()

    from ..svc import SVC

    keys = sorted(MOVE_QUESTIONS)
    if not isinstance(answers, dict):
        raise AnswerError(f"answers should be a dict such as {{'a': False, 'b': True, ...}} "
                          f"with one True/False per change; got {_describe(answers)}.")
    missing = [k for k in keys if k not in answers]
    extra = [k for k in answers if k not in keys]
    if missing or extra:
        raise AnswerError(f"answers needs exactly the keys {', '.join(keys)}; "
                          + (f"missing {', '.join(missing)}" if missing else "")
                          + ("; " if missing and extra else "")
                          + (f"unknown {', '.join(map(str, extra))}" if extra else "") + ".")
    bad = [k for k in keys if not isinstance(answers[k], (bool, np.bool_))]
    if bad:
        raise AnswerError(f"each answer must be True (the line changes) or False (it stays); "
                          f"got {', '.join(f'{k}: {_describe(answers[k])}' for k in bad)}.")

    def solve(Xs, ys):
        model = SVC(kernel="linear", C=np.inf, tol=1e-8).fit(Xs, ys)
        return np.r_[model.coef_[0], model.intercept_[0]]

    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    base = solve(X, y)
    gap = (y[10] * (X[10] @ base[:2] + base[2]) - 1.0) / np.linalg.norm(base[:2])
    truth = {k: not np.allclose(solve(*data), base, atol=1e-5)
             for k, data in support_vector_moves(X, y).items()}
    wrong = [k for k in keys if bool(answers[k]) != truth[k]]
    if not wrong:
        return Feedback.right(
            "all five. " + " ".join(f"({k}) {'changes' if truth[k] else 'stays'}: "
                                    f"{_MOVE_REASONS[k].format(gap=gap)}." for k in keys))
    first = wrong[0]
    return Feedback.hint(
        f"{len(wrong)} of 5 predictions are off ({', '.join(wrong)}). Start with ({first}), "
        f"{MOVE_QUESTIONS[first]}: ask whether the change touches a constraint that is active "
        f"at the solution, or makes an inactive one active. Then refit svmlib's SVC on the "
        f"changed data (ex.support_vector_moves gives it) and compare.")
