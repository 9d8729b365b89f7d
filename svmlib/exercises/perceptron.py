"""Checkers for the code exercises of the perceptron chapter.

Book: chapter ``ch-perceptron``.  The chapter's exercises ask for judgement:

* ``check_still_a_mistake(w, b, x, y, learning_rate)``: numbers for which a
  point is still a mistake after the update it triggered (one update is not
  always enough);
* ``check_order_matters(X, y, order_a, order_b)``: separable data and two
  visiting orders after which the perceptron, from ``w = 0``, stops at two
  different hyperplanes.

Each checker recomputes the reader's claim (one update, or two whole runs of
the perceptron) and, when it does not hold, says what happened instead.
"""

import warnings

import numpy as np

from ._core import AnswerError, Feedback, as_array, checker, close

__all__ = ["check_still_a_mistake", "check_order_matters"]


# ------------------------------------------------------------------ helpers
def _fmt(v):
    v = np.atleast_1d(np.asarray(v, dtype=float))
    return "(" + ", ".join(f"{t + 0.0:g}" for t in v) + ")"


def _as_scalar(value, name):
    arr = as_array(value, name)
    if arr.size != 1:
        raise AnswerError(f"{name} should be one number; got an array of shape "
                          f"{arr.shape}.")
    return float(arr.ravel()[0])


# ---------------------------------------------------------------- checkers
def _label(value, name):
    label = _as_scalar(value, name)
    if label not in (-1.0, 1.0):
        raise AnswerError(f"{name} must be -1 or +1 (a label); got {label:g}.")
    return label


@checker
def check_still_a_mistake(w, b, x, y, learning_rate):
    """Check numbers for which a point is still a mistake after its own update.

    Book: (eq-perceptron-update), exercise ``ex-perceptron-one-update``.
    The update made with a mistake ``(x, y)`` raises ``y h(x)`` by exactly
    ``alpha (||x||^2 + 1)``, so the point stays a mistake when
    ``y h(x) <= -alpha (||x||^2 + 1)`` before the update.

    Parameters
    ----------
    w : array-like of shape (n_features,)
    b : float
    x : array-like of shape (n_features,)
    y : {-1, +1}
    learning_rate : float
        ``alpha > 0``.

    Returns
    -------
    Feedback
    """
    w = np.ravel(as_array(w, "w"))
    x = np.ravel(as_array(x, "x"))
    if w.size == 0 or w.shape != x.shape:
        raise AnswerError(f"w and x must be vectors of the same length (one entry per "
                          f"feature); got {w.size} and {x.size} entries.")
    b = _as_scalar(b, "b")
    y = _label(y, "y")
    rate = _as_scalar(learning_rate, "learning_rate")
    if not rate > 0:
        raise AnswerError(f"learning_rate must be positive (the perceptron's α > 0); got "
                          f"{rate:g}.")
    before = y * (float(w @ x) + b)
    if before > 0:
        return Feedback(False, f"this point is classified correctly, y·h(x) = {before:g} > 0, "
                               f"so the perceptron makes no update at all. Start from a "
                               f"mistake, y·h(x) <= 0.")
    w_new, b_new = w + rate * y * x, b + rate * y
    after = y * (float(w_new @ x) + b_new)
    gain = rate * (float(x @ x) + 1.0)
    if after > 0:
        return Feedback(False, f"a mistake (y·h(x) = {before:g}), but the update raises y·h(x) "
                               f"by α(‖x‖² + 1) = {gain:g}, to {after:g} > 0: one update fixes "
                               f"it. You need y·h(x) <= −α(‖x‖² + 1) before the update: a more "
                               f"confident mistake (a longer w, or a larger |b|), or a smaller "
                               f"α.")
    return Feedback(True, f"before the update y·h(x) = {before:g}; the update raises it by "
                          f"α(‖x‖² + 1) = {gain:g}, to {after:g} <= 0: still a mistake. A "
                          f"single update moves h(x) by a fixed amount, however wrong the "
                          f"point was, so a confident mistake is fixed only over several "
                          f"visits, in later epochs.")


def _fit_in_order(X, y, order, name):
    from ..perceptron import Perceptron

    model = Perceptron(learning_rate=1.0, shuffle=False, max_epochs=1000,
                       record_history=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X[order], y[order])
    if not model.converged_:
        raise AnswerError(f"with {name} the perceptron has not stopped after 1000 epochs: "
                          f"your data are probably not linearly separable (on separable "
                          f"data it stops for every order, by Novikoff's theorem). Move "
                          f"the points so that a line separates the two classes.")
    return model.coef_[0], float(model.intercept_[0]), model.n_updates_


def _order(order, n, name):
    arr = np.ravel(as_array(order, name, dtype=float))
    if arr.size != n or not np.array_equal(np.sort(arr), np.arange(n)):
        raise AnswerError(f"{name} must list every row index 0, ..., {n - 1} exactly once (a "
                          f"permutation of range({n})); got {arr.astype(int).tolist() if np.all(arr == np.round(arr)) else arr.tolist()}.")
    return arr.astype(int)


@checker
def check_order_matters(X, y, order_a, order_b):
    """Check data on which two visiting orders give two different perceptrons.

    Book: section "Properties of the perceptron", exercise
    ``ex-perceptron-order``.  The perceptron starts at ``w = 0``, ``b = 0``
    with learning rate 1 and visits the points in ``order_a`` (then in
    ``order_b``) in every epoch, until an epoch makes no update
    (``svmlib.Perceptron(shuffle=False)`` on the reordered data).  The
    answer is right when both runs stop and their hyperplanes differ (as
    oriented hyperplanes, not merely by a positive factor).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}, both present.
    order_a, order_b : array-like of shape (n_samples,)
        Permutations of ``range(n_samples)``.

    Returns
    -------
    Feedback
    """
    X = as_array(X, "X")
    if X.ndim == 1:
        X = X[:, None]
    if X.ndim != 2 or X.shape[0] < 2:
        raise AnswerError(f"X must be a table of points, one row each, at least two rows; got "
                          f"shape {X.shape}.")
    y = np.ravel(as_array(y, "y"))
    if y.shape[0] != X.shape[0]:
        raise AnswerError(f"y must have one label per row of X: X has {X.shape[0]} rows and y "
                          f"{y.shape[0]} entries.")
    if not np.all(np.isin(y, (-1.0, 1.0))) or np.unique(y).size != 2:
        raise AnswerError(f"y must contain the labels -1 and +1, both of them; got "
                          f"{np.unique(y).tolist()}.")
    n = X.shape[0]
    a = _order(order_a, n, "order_a")
    b = _order(order_b, n, "order_b")
    wa, ba, ka = _fit_in_order(X, y, a, "order_a")
    wb, bb, kb = _fit_in_order(X, y, b, "order_b")
    va, vb = np.append(wa, ba), np.append(wb, bb)
    same = close(va / np.linalg.norm(va), vb / np.linalg.norm(vb))
    runs = (f"(order_a: w = {_fmt(wa)}, b = {ba + 0.0:g} after {ka} update(s); order_b: "
            f"w = {_fmt(wb)}, b = {bb + 0.0:g} after {kb} update(s))")
    if same:
        more = (" The numbers of updates differ, but not the result." if ka != kb else "")
        return Feedback(False, f"both orders stop at the same hyperplane.{more} From w = 0 the "
                               f"first point visited is always a mistake (h = 0), so the first "
                               f"update is w = y·x, b = y for that point. Choose data where that "
                               f"first update already separates everything when one point comes "
                               f"first, but not when another does. {runs}")
    return Feedback(True, f"same data, same start, two different separators {runs}. Both "
                          f"separate the data, as Novikoff's theorem guarantees for every "
                          f"order; which one you get is decided by the path.")
