"""Checkers for the exercises of the chapter "The hard-margin SVM and its dual".

Each checker takes the reader's answer, makes the exercise's data itself
(the chapter's training set and its dual solution; data passed along must be
those, unless ``other_data=True``), recomputes the expected answer from the
formulas of the chapter, and
returns a :class:`~svmlib.exercises.Feedback`: correct, or a hint aimed at the
usual slip (a forgotten label, a sign, numerical noise taken for a support
vector, a 1-based index, ...).  Wrapped in :func:`~svmlib.exercises.checker`,
they never raise.
"""

import functools

import numpy as np

from ._core import AnswerError, Feedback, as_array, checker, close, exercise_data

__all__ = [
    "support_threshold",
    "check_dual_matrix",
    "check_support_vectors",
    "check_w_and_b",
]


def support_threshold(alpha, rel=1e-6):
    """The cut-off above which a multiplier counts as positive.

    A general-purpose solver returns values like ``1e-15`` where the exact
    solution has ``alpha_i = 0``; the chapter counts ``alpha_i`` as positive
    when it exceeds ``rel * max(1, max_i alpha_i)``.

    Parameters
    ----------
    alpha : array-like of shape (n_samples,)
    rel : float, default=1e-6

    Returns
    -------
    float
    """
    alpha = np.asarray(alpha, dtype=float)
    return rel * max(1.0, float(np.max(alpha)))


@functools.lru_cache(maxsize=1)
def _chapter_data():
    """The chapter's training set and its dual multipliers, made here as the chapter makes them.

    The same data and the same SLSQP call as the chapter's ``solve_hard_margin_dual``
    (so the same multipliers, solver noise included, on the same machine).
    """
    from scipy.optimize import minimize

    from .. import datasets

    X, y_int = datasets.separable_blobs(n=40, margin=1.0, random_state=0)
    X = np.asarray(X, dtype=float)
    y = y_int.astype(float)
    n = len(y)
    H = np.outer(y, y) * (X @ X.T)
    result = minimize(
        fun=lambda a: 0.5 * a @ H @ a - a.sum(),
        jac=lambda a: H @ a - 1.0,
        x0=np.zeros(n),
        method="SLSQP",
        bounds=[(0.0, None)] * n,
        constraints=[{"type": "eq", "fun": lambda a: a @ y, "jac": lambda a: y}],
        options={"ftol": 1e-12, "maxiter": 1000},
    )
    return X, y, np.asarray(result.x, dtype=float)


def _data(X, y, alpha=None, other_data=False):
    """The exercise's data: the chapter's own, made here.

    Called as the chapter and the course edition call them (the answer alone),
    the checkers make the chapter's training set and dual solution themselves,
    so a reader cannot change what their answer is compared with.  ``X``, ``y``
    or ``alpha`` passed along must be the chapter's; with ``other_data=True``
    the answer is checked on them instead (the checkers also work on other
    data sets).
    """
    X_ref, y_ref, alpha_ref = _chapter_data()
    X, y, alpha = exercise_data({"X": X, "y": y, "alpha": alpha},
                                {"X": X_ref, "y": y_ref, "alpha": alpha_ref}, other_data)
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float).ravel()
    alpha = np.asarray(alpha, dtype=float).ravel()
    if X.shape[0] != alpha.shape[0]:
        raise AnswerError(f"X has {X.shape[0]} rows but alpha has {alpha.shape[0]} entries; "
                          f"pass the alpha that goes with X (or neither, for the chapter's).")
    return X, y, alpha


@checker
def check_dual_matrix(H, X=None, y=None, *, other_data=False):
    """Check the matrix ``H[i, j] = y_i y_j <x_i, x_j>`` of the dual.

    Book: (eq-dual-matrix).

    Parameters
    ----------
    H : array-like of shape (n_samples, n_samples)
        The reader's answer.
    X, y : array-like, optional
        The data (default: the chapter's, made by the checker).
    other_data : bool, default=False
        Check on the data passed here instead of the exercise's (see
        :func:`~svmlib.exercises.exercise_data`); without it, data passed must be
        the exercise's own.

    Returns
    -------
    Feedback
    """
    X_ref, y_ref, _ = _chapter_data()
    X, y = exercise_data({"X": X, "y": y}, {"X": X_ref, "y": y_ref}, other_data)
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float).ravel()
    n = X.shape[0]
    H = np.asarray(H) if isinstance(H, np.ndarray) else H
    if np.shape(H) == (X.shape[1], X.shape[1]) and X.shape[1] != n:
        raise AnswerError(
            f"H has shape {np.shape(H)}, one row per feature; the dual has one unknown per "
            f"training point, so H is n x n = ({n}, {n}). Use X @ X.T, not X.T @ X.")
    H = as_array(H, "H", shape=(n, n))
    K = X @ X.T
    expected = np.outer(y, y) * K
    if close(H, expected):
        return Feedback.right(
            f"H = (y y^T) * (X X^T) is the {n} x {n} matrix of the dual; it is symmetric and "
            f"positive semidefinite, with rank at most {min(n, X.shape[1])}.")
    if close(H, K):
        return Feedback.hint("this is the Gram matrix X X^T: the labels are missing. "
                             "Multiply entry (i, j) by y_i y_j.")
    if close(H, -expected):
        return Feedback.hint("every entry has the wrong sign: H[i, j] = +y_i y_j <x_i, x_j>.")
    if close(H, np.outer(y, y) @ K) or close(H, K @ np.outer(y, y)):
        return Feedback.hint("you multiplied the matrices y y^T and X X^T (the @ product); "
                             "H needs the entry-by-entry product, * in NumPy.")
    if close(H, np.outer(y, y)):
        return Feedback.hint("this is y y^T alone: multiply it entry by entry with X X^T.")
    if close(H, 0.5 * expected):
        return Feedback.hint("off by a factor 2 (H is half of what it should be): the 1/2 "
                             "belongs in the objective 1/2 a^T H a - 1^T a, not inside H.")
    if close(H, 2.0 * expected):
        return Feedback.hint("off by a factor 2 (H is twice what it should be): "
                             "H[i, j] = y_i y_j <x_i, x_j>, with no factor 2; the "
                             "derivative of 1/2 a^T H a is H a, which is where a 2 cancels.")
    return Feedback.hint("not the matrix of the dual. Work out one entry by hand, say "
                         "H[0, 1], from (eq-dual-matrix) and compare it with yours; then "
                         "look for the NumPy operations that build every entry at once.")


@checker
def check_support_vectors(indices, alpha=None, rel=1e-6, *, other_data=False):
    """Check the indices of the support vectors read off from ``alpha``.

    The support vectors are the points with ``alpha_i > tau``, where
    ``tau = rel * max(1, max alpha)`` separates the solver's numerical noise
    from genuinely positive multipliers (Book: (eq-complementary-slackness)).
    Any order of the indices is accepted.

    Parameters
    ----------
    indices : array-like of int
        The reader's answer: the 0-based indices ``i`` with ``alpha_i > 0``.
    alpha : array-like of shape (n_samples,), optional
        The chapter's multipliers as its solver returned them (default: the
        checker's own solution of the same dual).
    rel : float, default=1e-6
        Relative threshold of :func:`support_threshold`.
    other_data : bool, default=False
        Check on the data passed here instead of the exercise's (see
        :func:`~svmlib.exercises.exercise_data`); without it, data passed must be
        the exercise's own.

    Returns
    -------
    Feedback
    """
    alpha, = exercise_data({"alpha": alpha}, {"alpha": _chapter_data()[2]}, other_data)
    alpha = np.asarray(alpha, dtype=float).ravel()
    n = alpha.shape[0]
    tau = support_threshold(alpha, rel)
    expected = np.flatnonzero(alpha > tau)
    if isinstance(indices, (set, frozenset)):
        indices = sorted(indices)                   # a set of indices is a fine answer
    raw = np.asarray(indices) if isinstance(indices, (list, tuple, np.ndarray)) else indices
    if isinstance(raw, np.ndarray) and raw.dtype == bool:
        if raw.shape == (n,):
            raise AnswerError("this is a boolean mask with one entry per point; the exercise "
                              "asks for the indices: np.flatnonzero(mask) turns one into the other.")
    if isinstance(raw, np.ndarray) and raw.ndim == 2 and raw.shape[0] == expected.shape[0]:
        raise AnswerError(f"you returned an array of shape {raw.shape}, which looks like the "
                          f"support vectors themselves (rows of X); return their indices.")
    got = as_array(indices, "indices", dtype=float)
    if got.ndim == 0:
        got = got.reshape(1)
    if got.ndim != 1:
        raise AnswerError(f"indices should be a flat list or 1-D array of integers; got "
                          f"shape {got.shape}.")
    if got.size and not np.all(got == np.round(got)):
        if close(np.sort(got), np.sort(alpha[expected])):
            return Feedback.hint("these are the multipliers of the support vectors, not their "
                                 "indices: return i, not alpha[i].")
        return Feedback.hint("indices must be whole numbers (0, 1, 2, ...); got fractional "
                             "values. Did you return alpha values?")
    got = np.unique(got.astype(int))
    if got.shape[0] != np.asarray(indices).size:
        return Feedback.hint("some index appears twice; each support vector once, please.")
    if np.array_equal(got, expected):
        return Feedback.right(
            f"{expected.shape[0]} support vectors out of {n} points: {expected.tolist()}. "
            f"Every other multiplier is zero up to the solver's noise.")
    if np.array_equal(got, expected + 1):
        return Feedback.hint("your indices are shifted by one: Python counts from 0.")
    if got.size and (got.min() < 0 or got.max() >= n):
        return Feedback.hint(f"indices must lie between 0 and {n - 1}; got "
                             f"{got.min()} ... {got.max()}.")
    extra = np.setdiff1d(got, expected)
    missing = np.setdiff1d(expected, got)
    if extra.size and not missing.size:
        if float(alpha[extra].max()) <= tau:
            return Feedback.hint(
                f"you also kept points whose multipliers are only solver noise (all below the "
                f"threshold {tau:.0e}). A general solver rarely returns exact zeros: compare "
                f"alpha with a small threshold such as 1e-6 * alpha.max(), not with 0.")
    if missing.size and not extra.size:
        smallest = float(alpha[missing].min())
        return Feedback.hint(
            f"you missed {missing.size} support vector(s); the smallest multiplier you dropped "
            f"is alpha = {smallest:.3g}, far above the noise. Your threshold is too large: "
            f"use something like 1e-6 * alpha.max().")
    return Feedback.hint(
        f"{extra.size} of your indices are not support vectors and {missing.size} support "
        f"vector(s) are missing. Look at np.sort(alpha)[::-1]: a few clearly positive values, "
        f"then a jump down to numbers near 1e-12 or below.")


@checker
def check_w_and_b(w, b, X=None, y=None, alpha=None, rel=1e-6, *, other_data=False):
    """Check ``w = sum_i alpha_i y_i x_i`` and ``b`` averaged over the support vectors.

    Book: (eq-stationarity-w), (eq-bias-average).

    Parameters
    ----------
    w : array-like of shape (n_features,)
        The reader's weight vector.
    b : float
        The reader's bias.
    X, y, alpha : array-like, optional
        The data and their dual solution (default: the chapter's, made by the
        checker).
    rel : float, default=1e-6
        Relative support-vector threshold (see :func:`support_threshold`).
    other_data : bool, default=False
        Check on the data passed here instead of the exercise's (see
        :func:`~svmlib.exercises.exercise_data`); without it, data passed must be
        the exercise's own.

    Returns
    -------
    Feedback
    """
    X, y, alpha = _data(X, y, alpha, other_data)
    n, p = X.shape
    sv = alpha > support_threshold(alpha, rel)
    w_true = (alpha * y) @ X
    b_true = float(np.mean(y[sv] - X[sv] @ w_true))

    w_arr = np.asarray(w) if isinstance(w, (list, tuple, np.ndarray)) else w
    if isinstance(w_arr, np.ndarray) and w_arr.shape == (n,) and n != p:
        if close(w_arr, alpha * y):
            raise AnswerError("w has one entry per training point: that is the vector of "
                              "alpha_i y_i. Combine the points with it: w = (alpha * y) @ X.")
        raise AnswerError(f"w has shape ({n},), one entry per training point; w lives in "
                          f"feature space, shape ({p},).")
    w = as_array(w, "w", shape=(p,))
    if not close(w, w_true, rtol=1e-6, atol=1e-8):
        if close(w, alpha @ X):
            return Feedback.hint("the labels are missing: w = sum_i alpha_i y_i x_i, so "
                                 "weight each point by alpha_i * y_i.")
        if close(w, -w_true):
            return Feedback.hint("w has the wrong sign; the positive class must get "
                                 "h(x) > 0. Check the sign of y in alpha * y.")
        if close(w, 2 * w_true) or close(w, 0.5 * w_true):
            return Feedback.hint("w is off by a factor of 2: w = sum_i alpha_i y_i x_i, "
                                 "with no 1/2 and no 2.")
        return Feedback.hint("not the w of (eq-stationarity-w). Write out the sum for two "
                             "points by hand and compare it with what your expression "
                             "computes.")

    if isinstance(b, (list, tuple, np.ndarray)) and np.size(b) == 1:
        b = np.ravel(np.asarray(b, dtype=float))[0]
    b_arr = as_array(b, "b", shape=())
    b_val = float(b_arr)
    if close(b_val, b_true, rtol=1e-6, atol=1e-6):
        return Feedback.right(
            f"w = ({', '.join(f'{v:.4f}' for v in w_true)}) and b = {b_true:.4f}, "
            f"the average of y_s - <w, x_s> over the {int(sv.sum())} support vectors.")
    if close(b_val, -b_true, rtol=1e-6, atol=1e-6):
        return Feedback.hint("b has the wrong sign: from y_s (<w, x_s> + b) = 1 you get "
                             "b = y_s - <w, x_s>, not <w, x_s> - y_s.")
    if close(b_val, float(np.mean(y - X @ w_true)), rtol=1e-6, atol=1e-6):
        return Feedback.hint("you averaged y_i - <w, x_i> over all points; only support "
                             "vectors satisfy y_i h(x_i) = 1, so average over them alone.")
    if close(b_val, float(np.mean(1.0 - X[sv] @ w_true)), rtol=1e-6, atol=1e-6):
        return Feedback.hint("b = y_s - <w, x_s> uses the label y_s of each support vector; "
                             "you used 1 for all of them.")
    per_sv = y[sv] - X[sv] @ w_true
    if np.any(np.abs(per_sv - b_val) < 1e-6):
        return Feedback.right("b from a single support vector is right up to the solver's "
                              "accuracy here; averaging over all of them is the safer habit.")
    return Feedback.hint("w is right but b is not. Which points satisfy y_i h(x_i) = 1 "
                         "exactly at the optimum, and what does that equation give for b? "
                         "See (eq-bias-average).")
