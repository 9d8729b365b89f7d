"""Checkers for the exercises of the hyperplanes chapter (``ch-hyperplanes``).

Each checker compares the reader's answer with the formula of the book and,
when they differ, looks for the typical slips (a missing bias, a division by
``||w||`` instead of ``<w, w>``, a flipped sign, a lost sign, a column vector
where a flat one is expected) and names the one it finds.  Like every
checker in svmlib, they return a :class:`~svmlib.exercises.Feedback` and
never raise.

* :func:`check_projection`: a function ``project(X, w, b)``,
  Book: (eq-projection).
* :func:`check_signed_distances`: the signed distances of data points,
  Book: (eq-signed-distance).
* :func:`check_misclassified`: which points a hyperplane gets wrong,
  Book: (eq-separating).
* :func:`check_line`: a line through two points as an oriented ``(w, b)``,
  Book: (eq-slope-intercept).
* :func:`check_bisector`: the hyperplane equally far from two points, as an
  oriented ``(w, b)``, Book: (eq-signed-distance).
"""

import numpy as np

from ._core import AnswerError, Feedback, as_array, call_answer, checker, close, exercise_data

__all__ = [
    "check_projection",
    "check_signed_distances",
    "check_misclassified",
    "check_line",
    "check_bisector",
]


def _hyperplane(w, b):
    """The exercise's own (w, b), validated (a wrong call is the author's bug)."""
    w = np.asarray(w, dtype=float).ravel()
    if w.size == 0 or not np.any(w):
        raise ValueError(f"w must be a nonzero vector; got w={w.tolist()!r}.")
    return w, float(b)


# ------------------------------------------------------------- projection

# Test cases for check_projection: (X, w, b).  Varied dimensions, a ||w||
# far from 1 (so dividing by ||w|| and by <w, w> differ), points on both
# sides, a point already on H, and a single point.
_PROJECTION_CASES = (
    (np.array([[5.0, 3.0], [1.0, 1.0], [0.0, 3.0], [-2.0, 4.0]]), np.array([3.0, 4.0]), -12.0),
    (np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [-1.0, 4.0, 0.5]]), np.array([2.0, -1.0, 2.0]), -6.0),
    (np.array([[4.0], [-1.0]]), np.array([2.0]), -3.0),
    (np.array([[2.0, -1.0]]), np.array([0.5, 0.25]), 1.5),
)


def _projection_slips(X, w, b):
    """Typical wrong projections, each with its hint."""
    h = X @ w + b
    norm = np.linalg.norm(w)
    return (
        (X, "your function returns the points unchanged. Each point must move "
            "along w by the step (<w, x> + b) / <w, w>."),
        (X - (h / norm)[:, None] * w,
         "you divided the score by ||w||; divide by <w, w> = ||w||^2. One factor "
         "||w|| turns w into a unit vector, the other turns h(x) into a length."),
        (X - h[:, None] * w,
         "you forgot to divide by <w, w>: the step along w is h(x) / <w, w>, "
         "not h(x). (Your answer is right only when ||w|| = 1.)"),
        (X + (h / (w @ w))[:, None] * w,
         "the sign of the step is flipped: your points move away from H. "
         "Subtract the step: pi(x) = x - h(x) / <w, w> * w."),
        (X - ((X @ w) / (w @ w))[:, None] * w,
         "your projection ignores the bias b: it lands on the parallel "
         "hyperplane <w, x> = 0 through the origin. Use h(x) = <w, x> + b."),
        (X - ((X @ w - b) / (w @ w))[:, None] * w,
         "the bias enters with the wrong sign: the score is h(x) = <w, x> + b."),
        (np.repeat(-b * w[None, :] / (w @ w), X.shape[0], axis=0),
         "every point is sent to the same point -b w / <w, w> (the projection of "
         "the origin). Start from x itself: pi(x) = x - h(x) / <w, w> * w."),
    )


# The givens of the chapter's exercises, made here as the chapter makes them:
# a checker called without them (as the course edition's hidden tests call
# it) checks the answer against these, which the reader cannot change.
def _chapter_points():
    from .. import datasets

    X, y = datasets.separable_blobs(n=14, margin=1.0, random_state=0)
    X = np.asarray(X, dtype=float)
    return X - X.mean(axis=0), np.asarray(y, dtype=float)


_CHAPTER_W, _CHAPTER_B = (1.0, 3.0), -2.0                  # ex-hyperplanes-signed-distances
_CHAPTER_LINE = ((-1.0, 0.0), (3.0, 2.0), (0.0, 3.0))      # ex-hyperplanes-line: p, q, s
_CHAPTER_PAIR = ((1.0, 3.0), (5.0, 1.0))                   # ex-hyperplanes-bisector: a, c


@checker
def check_projection(project):
    """Check a function ``project(X, w, b)`` that projects rows onto ``H``.

    Book: (eq-projection).  The function is called on several hyperplanes
    in one, two and three dimensions (with ``||w|| != 1``), each with a
    matrix ``X`` of shape (n_samples, n_features), and must return an array
    of the same shape whose rows are the projections
    ``pi(x) = x - (<w, x> + b) / <w, w> * w``.

    Parameters
    ----------
    project : callable
        ``project(X, w, b)`` with ``X`` an ndarray of shape
        (n_samples, n_features), ``w`` an ndarray of shape (n_features,) and
        ``b`` a float.

    Returns
    -------
    Feedback
        Correct, or a hint naming the slip (missing bias, wrong denominator,
        flipped sign, wrong shape, ...).
    """
    if not callable(project):
        raise AnswerError("pass your function itself, check_projection(project), not its "
                          "result: the checker calls it on several hyperplanes.")
    for X, w, b in _PROJECTION_CASES:
        n, p = X.shape
        where = f"for w = {w.tolist()}, b = {b:g} and X of shape {X.shape}"
        result = call_answer(project, X.copy(), w.copy(), b, name="your project(X, w, b)")
        got = as_array(result, f"the result {where}")
        if got.shape != (n, p):
            hint = (f"{where} your function returned shape {got.shape}; expected ({n}, {p}), "
                    f"one projected point per row of X.")
            if got.shape == (n,):
                hint += (" It looks like you returned one number per point (the step or "
                         "the score?); return the projected points x - step * w.")
            elif got.shape == (p,) or got.shape == (1, p):
                hint += " Apply the formula to every row, not only to one point."
            raise AnswerError(hint)
        expected = X - ((X @ w + b) / (w @ w))[:, None] * w
        if close(got, expected, rtol=1e-6, atol=1e-9):
            continue
        for wrong, hint in _projection_slips(X, w, b):
            if close(got, wrong, rtol=1e-6, atol=1e-9):
                return Feedback.hint(f"{where}: {hint}")
        residual = np.max(np.abs(got @ w + b))
        if residual > 1e-6 * max(1.0, np.linalg.norm(w)):
            return Feedback.hint(
                f"{where} your points do not lie on H: max |h(pi(x))| = {residual:.3g}. "
                f"Choose the step t in x - t w so that h(x - t w) = 0.")
        return Feedback.hint(
            f"{where} your points lie on H but are not the closest ones: x - pi(x) must be "
            f"parallel to w (move along the normal, not along another direction).")
    return Feedback.right(
        "pi(x) = x - (<w, x> + b) / <w, w> * w, in 1, 2 and 3 dimensions; every projected "
        "point lies on H and x - pi(x) is parallel to w.")


# ------------------------------------------------------- signed distances

@checker
def check_signed_distances(answer, X=None, w=None, b=None, *, other_data=False):
    """Check the signed distances ``r(x_i) = (<w, x_i> + b) / ||w||``.

    Book: (eq-signed-distance).

    Parameters
    ----------
    answer : array-like of shape (n_samples,)
        The reader's signed distances, one per row of ``X``.
    X : array-like of shape (n_samples, n_features)
        The points of the exercise.
    w : array-like of shape (n_features,)
        The normal vector of the exercise's hyperplane.
    b : float
        Its bias.
    other_data : bool, default=False
        Check on the data passed here instead of the exercise's (see
        :func:`~svmlib.exercises.exercise_data`); without it, data passed must be
        the exercise's own.

    Returns
    -------
    Feedback
    """
    X, w, b = exercise_data({"X": X, "w": w, "b": b},
                            {"X": _chapter_points()[0], "w": _CHAPTER_W, "b": _CHAPTER_B},
                            other_data)

    X = np.asarray(X, dtype=float)
    w, b = _hyperplane(w, b)
    n = X.shape[0]
    r = as_array(answer, "r", shape=(n,))
    h = X @ w + b
    norm = np.linalg.norm(w)
    expected = h / norm
    if close(r, expected):
        return Feedback.right(
            f"r = (<w, x> + b) / ||w|| for all {n} points: positive on the side w points "
            f"to, and |r| is the distance from H.")
    slips = (
        (h, "these are the scores h(x) = <w, x> + b; divide them by ||w|| "
            f"(here ||w|| = {norm:.4g}) to turn them into distances."),
        (h / norm**2, "you divided by <w, w> = ||w||^2; the signed distance divides the "
                      "score by ||w|| once."),
        (np.abs(expected), "the distances are right but the signs are lost: keep the sign "
                           "of h(x), it says on which side of H the point lies."),
        (-expected, "the signs are flipped: r(x) is positive on the side w points to, "
                    "where h(x) = <w, x> + b > 0."),
        ((X @ w) / norm, "the bias is missing: you computed only the component of x along w, "
                         "<w, x> / ||w||; add b / ||w|| (the dot-product view)."),
        ((X @ w - b) / norm, "the bias enters with the wrong sign: h(x) = <w, x> + b."),
    )
    for wrong, hint in slips:
        if close(r, wrong):
            return Feedback.hint(hint)
    error = float(np.max(np.abs(r - expected)))
    for digits in range(6, 0, -1):             # the most decimals that agree
        if error <= 10.0 ** -digits:
            return Feedback.hint(
                f"your values agree with (<w, x> + b) / ||w|| to {digits} decimal"
                f"{'s' if digits > 1 else ''} (largest difference {error:.2g}), so they look "
                f"rounded or truncated. The checker compares at full precision: return the "
                f"computed values and round only when you print them.")
    ok = np.isclose(r, expected, rtol=1e-6, atol=1e-8)
    first = int(np.flatnonzero(~ok)[0])
    return Feedback.hint(
        f"{int(np.sum(~ok))} of {n} values are off, the first at index {first}: you gave "
        f"{float(r[first]):.4g}, but its signed distance is {float(expected[first]):.4g}. "
        f"Work out that point's distance by hand from (eq-signed-distance), step by step, "
        f"and compare each step with your code.")


# ------------------------------------------------------------ misclassified

@checker
def check_misclassified(answer, X=None, y=None, w=None, b=None, *, other_data=False):
    """Check which points the hyperplane ``(w, b)`` misclassifies.

    A point is misclassified when ``y_i h(x_i) <= 0`` (on the wrong side,
    or on ``H`` itself): the negation of Book: (eq-separating).

    Parameters
    ----------
    answer : array-like
        Either a boolean mask of shape (n_samples,) (True = misclassified)
        or the indices of the misclassified points (any order).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    w : array-like of shape (n_features,)
    b : float
    other_data : bool, default=False
        Check on the data passed here instead of the exercise's (see
        :func:`~svmlib.exercises.exercise_data`); without it, data passed must be
        the exercise's own.

    Returns
    -------
    Feedback
    """
    X_ex, y_ex = _chapter_points()
    X, y, w, b = exercise_data({"X": X, "y": y, "w": w, "b": b},
                               {"X": X_ex, "y": y_ex, "w": _CHAPTER_W, "b": _CHAPTER_B},
                               other_data)

    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    w, b = _hyperplane(w, b)
    n = X.shape[0]
    expected = y * (X @ w + b) <= 0
    mask, idx = _as_mask(answer, n)
    if np.array_equal(mask, expected):
        k = int(expected.sum())
        if k == 0:
            return Feedback.right("no point is misclassified: this hyperplane separates the data.")
        return Feedback.right(
            f"{k} of {n} points are misclassified (y_i h(x_i) <= 0): indices "
            f"{np.flatnonzero(expected).tolist()}.")
    if np.array_equal(mask, ~expected):
        return Feedback.hint("you selected the correctly classified points; a point is "
                             "misclassified when y_i h(x_i) <= 0.")
    if np.array_equal(mask, (X @ w + b) <= 0):
        return Feedback.hint("you selected the points with h(x) <= 0, ignoring the labels; "
                             "compare the sign of h(x_i) with y_i: misclassified means "
                             "y_i h(x_i) <= 0.")
    if np.array_equal(mask, (X @ w + b) > 0):
        return Feedback.hint("you selected the points with h(x) > 0, ignoring the labels; "
                             "misclassified means y_i h(x_i) <= 0.")
    if idx is not None and idx.size and idx.min() >= 1:
        shifted = np.zeros(n, dtype=bool)
        shifted[idx.astype(int) - 1] = True
        if np.array_equal(shifted, expected):
            return Feedback.hint("your indices are one too large: Python counts from 0, so "
                                 "the first point has index 0. np.flatnonzero(mask) gives "
                                 "0-based indices.")
    missing = int(np.sum(expected & ~mask))
    extra = int(np.sum(mask & ~expected))
    parts = []
    if missing:
        parts.append(f"{missing} misclassified point{'s are' if missing > 1 else ' is'} "
                     f"missing from your answer")
    if extra:
        parts.append(f"{extra} of the points you gave {'are' if extra > 1 else 'is'} "
                     f"correctly classified")
    return Feedback.hint("; ".join(parts) + ". A point is misclassified when y_i h(x_i) <= 0 "
                         "(the sign of h disagrees with the label).")


def _as_mask(answer, n):
    """A boolean mask of length n, and the indices if they were given as indices.

    Accepts a boolean mask (array, list or tuple), or indices as a list, tuple,
    set, array, or the tuple that ``np.where(mask)`` / ``np.nonzero(mask)``
    return for a 1-D mask.
    """
    if isinstance(answer, np.ndarray) and answer.dtype == bool:
        mask = answer
        if mask.shape != (n,):
            raise AnswerError(f"the boolean mask has shape {mask.shape}; expected ({n},), one "
                              f"entry per point.")
        return mask, None
    if (isinstance(answer, tuple) and len(answer) == 1
            and isinstance(answer[0], np.ndarray) and answer[0].ndim == 1):
        answer = answer[0]          # np.where(mask) on a 1-D mask: a 1-tuple of indices
    if isinstance(answer, (set, frozenset)):
        answer = sorted(answer)     # a set of indices: the order never mattered
    if isinstance(answer, (list, tuple)) and len(answer) == n and n > 0 and all(
            isinstance(v, (bool, np.bool_)) for v in answer):
        return np.asarray(answer, dtype=bool), None
    idx = as_array(answer, "the indices", dtype=float)
    if idx.ndim != 1:
        raise AnswerError(f"give a flat list of indices (or a boolean mask of shape ({n},)); "
                          f"got an array of shape {idx.shape}. Try np.flatnonzero(mask).")
    if idx.size and (np.any(idx != np.round(idx)) or idx.min() < 0 or idx.max() >= n):
        raise AnswerError(f"indices must be whole numbers from 0 to {n - 1} (Python counts "
                          f"from 0); got {idx.tolist()[:10]}.")
    if idx.size != np.unique(idx).size:
        if idx.size == n and np.all(np.isin(idx, (0, 1))):
            raise AnswerError(f"this looks like a mask of 0s and 1s ({n} entries, one per "
                              f"point); a mask must be boolean (True = misclassified), e.g. "
                              f"mask.astype(bool), or give the indices, np.flatnonzero(mask).")
        raise AnswerError("some indices appear twice; list each misclassified point once "
                          "(np.flatnonzero(mask) does).")
    mask = np.zeros(n, dtype=bool)
    mask[idx.astype(int)] = True
    return mask, idx


# --------------------------------------------------------------------- line

def _as_w_b(answer, p):
    """Split an answer ``(w, b)`` into an array of shape (p,) and a float."""
    if answer is None:
        raise AnswerError("the answer is None; give the pair (w, b), e.g. (np.array([1.0, 2.0]), -3.0).")
    if hasattr(answer, "w") and hasattr(answer, "b") and not isinstance(answer, (tuple, list)):
        w_raw, b_raw = answer.w, answer.b      # a Hyperplane is fine too
    else:
        try:
            w_raw, b_raw = answer
        except (TypeError, ValueError):
            raise AnswerError("give the answer as a pair (w, b): the normal vector w (two numbers) "
                              "and the bias b (one number), e.g. (np.array([1.0, 2.0]), -3.0).") from None
    if np.size(w_raw) == 1 and np.size(b_raw) == p and p > 1:
        raise AnswerError(f"the first entry is one number and the second has {p}: did you swap w "
                          f"and b? The pair is (w, b), the normal vector first.")
    w = as_array(w_raw, "w", shape=(p,))
    b = as_array(b_raw, "b")
    if b.size != 1:
        raise AnswerError(f"b must be one number; got an array of shape {b.shape}. Did you swap "
                          f"w and b? The pair is (w, b).")
    if not np.any(w):
        raise AnswerError("w = 0 describes no line: the normal vector must be nonzero.")
    return w, float(b.ravel()[0])


@checker
def check_line(answer, p=None, q=None, positive_point=None, *, other_data=False):
    """Check an oriented hyperplane ``(w, b)`` for the line through ``p`` and ``q``.

    Book: (eq-slope-intercept).  Any positive multiple ``(lam w, lam b)``
    is accepted: it is the same line with the same positive side.

    Parameters
    ----------
    answer : tuple (w, b) or Hyperplane
        The reader's normal vector, array-like of shape (2,), and bias.
    p, q : array-like of shape (2,)
        Two different points the line must pass through.
    positive_point : array-like of shape (2,)
        A point off the line that must lie on the positive side
        (``h > 0``).
    other_data : bool, default=False
        Check on the data passed here instead of the exercise's (see
        :func:`~svmlib.exercises.exercise_data`); without it, data passed must be
        the exercise's own.

    Returns
    -------
    Feedback
    """
    p, q, positive_point = exercise_data(
        {"p": p, "q": q, "positive_point": positive_point},
        dict(zip(("p", "q", "positive_point"), _CHAPTER_LINE)), other_data)

    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    s = np.asarray(positive_point, dtype=float)
    w, b = _as_w_b(answer, 2)
    scale = np.linalg.norm(w) * (1.0 + max(np.linalg.norm(p), np.linalg.norm(q)))

    def h(x):
        return float(w @ x + b)

    on_p, on_q = abs(h(p)) <= 1e-9 * scale, abs(h(q)) <= 1e-9 * scale
    if on_p and on_q:
        if h(s) > 0:
            return Feedback.right(
                f"w = {_vec(w)}, b = {b:.4g} is the line through {_vec(p)} and {_vec(q)}, and "
                f"{_vec(s)} is on the positive side (h = {h(s):.4g} > 0).")
        return Feedback.hint(
            f"right line, wrong orientation: {_vec(s)} is on the negative side (h = {h(s):.4g}). "
            f"Multiply w and b by -1; the line stays, the sides swap.")
    # Typical slips with the slope-intercept conversion x2 = m x1 + c.
    if p[0] != q[0]:
        m = (q[1] - p[1]) / (q[0] - p[0])
        c = p[1] - m * p[0]
        for w_ref, b_ref in (((m, -1.0), c), ((-m, 1.0), -c)):
            lam = _multiple(w, np.asarray(w_ref))
            if lam is not None and abs(lam) > 0:
                if close(b, -lam * b_ref):
                    return Feedback.hint(
                        "w has the right direction but b has the wrong sign: from x2 = m x1 + c "
                        "you get m x1 - x2 + c = 0, so w = (m, -1) and b = +c.")
        if _multiple(w, np.array([1.0, m])) is not None:
            return Feedback.hint(
                "w = (1, m) points along the line, not across it; the normal of x2 = m x1 + c "
                "is w = (m, -1).")
        if _multiple(w, np.array([-1.0, m])) is not None or _multiple(w, np.array([m, 1.0])) is not None:
            return Feedback.hint(
                "w is not orthogonal to the line: check the signs of its entries; the normal "
                "of x2 = m x1 + c is (m, -1) (or a multiple of it).")
    missed = [name for name, ok in (("p", on_p), ("q", on_q)) if not ok]
    return Feedback.hint(
        f"the line <w, x> + b = 0 does not pass through {' and '.join(missed)}: h(p) = {h(p):.4g}, "
        f"h(q) = {h(q):.4g}; both must be 0. Find the slope m and intercept c first.")


@checker
def check_bisector(answer, a=None, c=None, *, other_data=False):
    """Check the oriented hyperplane of the points equally far from ``a`` and ``c``.

    The answer must be ``w = lam (a - c)`` with ``lam > 0`` and
    ``b = -<w, (a + c) / 2>``: perpendicular to the segment from ``c`` to
    ``a``, through its midpoint, with ``a`` on the positive side.  Then
    ``r(a) = -r(c) = ||a - c|| / 2``, Book: (eq-signed-distance).  Any
    positive multiple is accepted.

    Parameters
    ----------
    answer : tuple (w, b) or Hyperplane
        The reader's normal vector, array-like of shape (p,), and bias.
    a, c : array-like of shape (p,)
        Two different points; ``a`` must end up on the positive side.
    other_data : bool, default=False
        Check on the data passed here instead of the exercise's (see
        :func:`~svmlib.exercises.exercise_data`); without it, data passed must be
        the exercise's own.

    Returns
    -------
    Feedback
    """
    a, c = exercise_data({"a": a, "c": c}, dict(zip("ac", _CHAPTER_PAIR)), other_data)

    a = np.asarray(a, dtype=float).ravel()
    c = np.asarray(c, dtype=float).ravel()
    if a.shape != c.shape or np.allclose(a, c):
        raise ValueError("a and c must be two different points of the same dimension.")
    w, b = _as_w_b(answer, a.size)
    d, m = a - c, (a + c) / 2.0
    norm = np.linalg.norm(w)
    scale = norm * (1.0 + np.linalg.norm(m))

    def r(x):
        return float(w @ x + b) / norm

    lam = _multiple(w, d)
    if lam is None:
        # the question is max-min: keep the closer of the two points as far away as possible
        separates = r(a) > 0 > r(c)
        where = ("" if separates else
                 f"First, this H does not separate the two points: r(a) = {r(a):.4g} and "
                 f"r(c) = {r(c):.4g}, but a must have r > 0 and c must have r < 0. ")
        if abs(float(w @ d)) <= 1e-9 * norm * np.linalg.norm(d):
            return Feedback.hint(
                where + "Your w is orthogonal to the segment from c to a, so H runs along the "
                "segment instead of across it and cannot keep the closer point far away. For a "
                "separating H the two distances add up to <w, a - c> / ||w||: which direction "
                "of w makes that sum largest?")
        return Feedback.hint(
            where + f"With w = {_vec(w)}, the distances of a and c from H add up to "
            f"<w, a - c> / ||w|| = {float(w @ d) / norm:.4g}, less than ||a - c|| = "
            f"{np.linalg.norm(d):.4g}; so the closer point is less than ||a - c|| / 2 away, "
            f"wherever you shift H. Which direction of w makes the sum largest? (The two "
            f"distances must also stay equal, or the closer one loses.)")
    through_m = abs(float(w @ m + b)) <= 1e-9 * scale
    if through_m and lam > 0:
        return Feedback.right(
            f"w along a - c, through the midpoint {_vec(m)}: r(a) = {r(a):.4g} and r(c) = "
            f"{r(c):.4g}, both points ||a - c|| / 2 = {np.linalg.norm(d) / 2:.4g} from H, on "
            f"opposite sides. No hyperplane keeps both points farther away: the "
            f"maximum-margin chapter starts from exactly this picture.")
    if through_m:
        return Feedback.hint(
            f"right hyperplane, wrong orientation: a is on the negative side (r(a) = {r(a):.4g}). "
            f"Multiply w and b by -1, or take w along a - c rather than c - a.")
    for point, name in ((a, "a"), (c, "c")):
        if abs(float(w @ point + b)) <= 1e-9 * scale:
            return Feedback.hint(
                f"your H passes through {name} itself, so {name} is at distance 0. It must pass "
                f"through the midpoint m = (a + c) / 2 = {_vec(m)}: b = -<w, m>.")
    if close(b, float(w @ m)):
        return Feedback.hint(
            "b has the wrong sign: H passes through the midpoint m when <w, m> + b = 0, "
            "that is b = -<w, m>.")
    if close(b, -float(w @ (a + c))):
        return Feedback.hint(
            "b = -<w, a + c> forgets the halving: the midpoint is m = (a + c) / 2, and "
            "b = -<w, m>.")
    return Feedback.hint(
        f"w has the right direction, but H misses the midpoint m = {_vec(m)} (h(m) = "
        f"{float(w @ m + b):.4g}, not 0), so a is {abs(r(a)):.4g} and c {abs(r(c)):.4g} away. "
        f"Choose b so that h(m) = 0.")


def _multiple(a, ref):
    """lam with a = lam * ref (up to rounding), or None."""
    k = int(np.argmax(np.abs(ref)))
    lam = a[k] / ref[k]
    return lam if close(a, lam * ref) else None


def _vec(v):
    return "(" + ", ".join(f"{float(x) + 0.0:.4g}" for x in v) + ")"
