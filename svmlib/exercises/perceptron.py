"""Checkers for the code exercises of the perceptron chapter.

Book: chapter ``ch-perceptron``.  The chapter's exercises ask for judgement:

* ``check_still_a_mistake(w, b, x, y, learning_rate)``: numbers for which a
  point is still a mistake after the update it triggered (one update is not
  always enough);
* ``check_order_matters(X, y, order_a, order_b)``: separable data and two
  visiting orders after which the perceptron, from ``w = 0``, stops at two
  different hyperplanes.

Two more checkers test the lines that *are* the perceptron (kept for readers
who want to write them):

* ``perceptron_step(w, b, x, y, learning_rate)`` applies one update rule,
  (eq-perceptron-update), to one point, and only when that point is a
  mistake, ``y * h(x) <= 0``;
* ``perceptron_epoch(w, b, X, y, learning_rate)`` makes one pass over the
  rows of ``X`` in order and returns ``(w, b, n_updates)``.

Each checker runs the reader's function on a handful of small cases and
compares it with the right answer and with the typical wrong ones (a wrong
sign, a forgotten learning rate or bias, ``<`` instead of ``<=``, deciding
all mistakes up front with the starting ``w``), so that a wrong answer gets
a hint naming the mistake.
"""

import warnings

import numpy as np

from ._core import AnswerError, Feedback, as_array, call_answer, checker, close

__all__ = ["check_still_a_mistake", "check_order_matters", "check_perceptron_step",
           "check_perceptron_epoch"]


# ---------------------------------------------------------------- references
def _step(w, b, x, y, rate, variant="right"):
    """One perceptron step, right or with a typical mistake built in."""
    score = float(x @ w + b)
    if variant == "strict":
        mistake = y * score < 0
    elif variant == "hinge":
        mistake = y * score < 1
    elif variant == "predict":
        mistake = (1.0 if score > 0 else -1.0) != y
    elif variant == "always":
        mistake = True
    elif variant == "never":
        mistake = False
    else:
        mistake = y * score <= 0
    if not mistake:
        return w.copy(), float(b)
    sign = -1.0 if variant == "sign" else 1.0
    step = 1.0 if variant == "no_rate" else rate
    w_new = w + sign * step * y * x
    b_new = float(b) if variant == "no_bias" else float(b + sign * step * y)
    return w_new, b_new


def _epoch(w, b, X, y, rate, variant="right"):
    """One pass over the rows of X, right or with a typical mistake built in."""
    w, b = w.copy(), float(b)
    n_updates = 0
    order = range(len(y) - 1, -1, -1) if variant == "reversed" else range(len(y))
    if variant == "batch":
        flagged = y * (X @ w + b) <= 0
        for i in np.flatnonzero(flagged):
            w, b = w + rate * y[i] * X[i], b + rate * y[i]
        return w, b, int(flagged.sum())
    if variant == "converge":
        # the whole algorithm instead of one epoch: repeat passes until one
        # makes no update (capped, for data that never separate)
        total = 0
        for _ in range(1000):
            w, b, k = _epoch(w, b, X, y, rate)
            total += k
            if k == 0:
                break
        return w, b, total
    step_variant = (variant if variant in {"sign", "no_rate", "no_bias", "strict", "hinge"}
                    else "right")
    for i in order:
        w_new, b_new = _step(w, b, X[i], y[i], rate, step_variant)
        if not (np.array_equal(w_new, w) and b_new == b):
            n_updates += 1
            w, b = w_new, b_new
            if variant == "first_only":
                break
    return w, b, n_updates


# ----------------------------------------------------------------- test cases
_X_EXAMPLE = np.array([[1.0, 2.0], [4.0, 1.0], [2.0, 2.0]])
_Y_EXAMPLE = np.array([-1.0, 1.0, 1.0])

# (w, b, x, y, learning_rate): a mistake, a correct point, a correct point
# inside the band 0 < y h(x) < 1 (no update: only the hinge rule of the SVM
# would move), a point on the hyperplane (must update), another mistake, a
# correct point in 3-D.
_STEP_CASES = [
    (np.array([1.0, -1.0]), -2.0, np.array([2.0, 2.0]), 1.0, 0.25),
    (np.array([1.0, -1.0]), -2.0, np.array([1.0, 2.0]), -1.0, 0.25),
    (np.array([1.0, -1.0]), -2.0, np.array([3.5, 1.0]), 1.0, 0.25),
    (np.array([0.0, 0.0]), 0.0, np.array([1.0, 3.0]), -1.0, 0.5),
    (np.array([2.0, 1.0]), 0.5, np.array([-1.0, 0.5]), 1.0, 2.0),
    (np.array([0.5, -1.0, 2.0]), 1.0, np.array([1.0, 1.0, 1.0]), 1.0, 0.1),
]

_X_EPOCH = np.array([[2.0, 1.0], [-1.0, -1.5], [0.5, 2.0], [-2.0, 0.5], [1.0, -1.0]])
_Y_EPOCH = np.array([1.0, -1.0, 1.0, -1.0, -1.0])

# Data on which one epoch from w = (0, 0), b = 0 is not enough: after the
# pass some point is still a mistake, so an answer that runs the perceptron
# to convergence returns something else than one epoch does.
_X_SLOW = np.array([[1.0, 0.2], [0.2, 1.0], [-0.4, -1.0], [1.0, 1.0], [-1.0, -0.4],
                    [-0.3, 0.9]])
_Y_SLOW = np.array([1.0, 1.0, -1.0, 1.0, -1.0, -1.0])

# (w, b, X, y, learning_rate)
_EPOCH_CASES = [
    (np.array([1.0, -1.0]), -2.0, _X_EXAMPLE, _Y_EXAMPLE, 0.25),
    (np.array([0.0, 0.0]), 0.0, _X_EPOCH, _Y_EPOCH, 1.0),
    (np.array([-1.0, 0.5]), 0.5, _X_EPOCH, _Y_EPOCH, 0.5),
    (np.array([1.0, 1.0]), 0.0, _X_EPOCH[::-1].copy(), _Y_EPOCH[::-1].copy(), 0.25),
    (np.array([0.0, 0.0]), 0.0, _X_SLOW, _Y_SLOW, 1.0),
]

_HINTS = {
    "sign": "the update has the wrong sign: a mistake on (x, y) should move w "
            "towards y·x, so w ← w + α·y·x and b ← b + α·y (plus, not minus).",
    "no_rate": "the learning rate is missing: the step is α·y·x (and α·y for b), "
               "not y·x.",
    "no_bias": "w is right but b did not change: the bias is updated too, "
               "b ← b + α·y.",
    "strict": "a point lying on the hyperplane (h(x) = 0) counts as a mistake: "
              "test y·h(x) <= 0, not < 0.  (From w = 0, b = 0 every point has "
              "h = 0, so with < the perceptron would never move.)",
    "hinge": "your function updated a point that is already on the right side, with "
             "0 < y·h(x) < 1.  That is the hinge-loss rule of the soft-margin SVM "
             "(update while y·h(x) < 1); the perceptron updates only on mistakes, "
             "y·h(x) <= 0.",
    "predict": "a point lying on the hyperplane (h(x) = 0) is a mistake for either "
               "label.  Comparing a predicted label with y misses one of the two "
               "cases, because a prediction has to break the tie h = 0 one way; "
               "test y·h(x) <= 0 instead.",
    "converge": "your function ran the perceptron until no point was a mistake.  One "
                "epoch is a single pass over the rows, with an update at every "
                "mistake met on the way; after it some points may still be "
                "mistakes.  The loop 'repeat until an epoch makes no update' belongs "
                "to the caller (alg-perceptron).",
    "always": "your function changed w and b for a point that is already on "
              "the right side (y·h(x) > 0); update only on a mistake, "
              "y·h(x) <= 0, and otherwise return w and b unchanged.",
    "never": "your function left w and b unchanged on a mistake; when "
             "y·h(x) <= 0 it must apply w ← w + α·y·x, b ← b + α·y.",
    "batch": "you decided which points are mistakes before the loop, with the "
             "starting w and b.  The perceptron looks at one point at a time "
             "and computes h(x_i) with the current w and b, after the updates "
             "already made in this epoch.",
    "reversed": "visit the points in the order of the rows of X, i = 0, 1, ..., "
                "n - 1.",
    "first_only": "one epoch visits every point once; it does not stop at the "
                  "first mistake.  Keep looping over the remaining rows.",
}


def _fmt(v):
    v = np.atleast_1d(np.asarray(v, dtype=float))
    return "(" + ", ".join(f"{t + 0.0:g}" for t in v) + ")"


def _as_scalar(value, name):
    arr = as_array(value, name)
    if arr.size != 1:
        raise AnswerError(f"{name} should be one number; got an array of shape "
                          f"{arr.shape}.")
    return float(arr.ravel()[0])


def _unpack(result, n_items, names):
    if not isinstance(result, (tuple, list)) or len(result) != n_items:
        got = (f"a {type(result).__name__} of length {len(result)}"
               if isinstance(result, (tuple, list)) else
               ("None" if result is None else f"an object of type {type(result).__name__}"))
        raise AnswerError(f"your function should return {n_items} values, "
                          f"({', '.join(names)}); it returned {got}.")
    return result


def _which_variant(got, candidates, reference_fn, args):
    """The first typical mistake whose output matches the reader's answer."""
    for variant in candidates:
        expected = reference_fn(*args, variant=variant)
        if all(close(g, e) for g, e in zip(got, expected)):
            return variant
    return None


def _strict_or_predict(perceptron_step):
    """Tell the test ``y·h < 0`` from ``predicted label != y`` (both skip a tie).

    With ``h(x) = 0`` and ``y = -1`` both leave ``w`` unchanged; with ``y = +1``
    the strict test still does nothing, while a prediction that breaks the tie
    towards -1 sees a mistake and updates.
    """
    w, b, x, rate = np.array([1.0, -1.0]), 0.0, np.array([1.0, 1.0]), 1.0
    try:
        result = call_answer(perceptron_step, w.copy(), b, x.copy(), 1.0, rate,
                             name="perceptron_step")
        w_got = np.ravel(as_array(result[0], "w_new"))
    except (AnswerError, TypeError, IndexError):
        return "strict"
    return "strict" if close(w_got, w) else "predict"


# ---------------------------------------------------------------- checkers
@checker
def check_perceptron_step(perceptron_step):
    """Check a function applying one perceptron update to one point.

    Book: (eq-perceptron-update), exercise ``ex-perceptron-step``.

    Parameters
    ----------
    perceptron_step : callable
        ``perceptron_step(w, b, x, y, learning_rate) -> (w_new, b_new)`` with
        ``w``, ``x`` ndarrays of shape (n_features,), ``b`` a float, ``y`` in
        {-1, +1} and ``learning_rate > 0``.  It returns ``w + alpha*y*x`` and
        ``b + alpha*y`` when ``y * (<w, x> + b) <= 0`` and ``(w, b)``
        unchanged otherwise.

    Returns
    -------
    Feedback
    """
    for k, (w, b, x, y, rate) in enumerate(_STEP_CASES, start=1):
        result = call_answer(perceptron_step, w.copy(), b, x.copy(), y, rate,
                             name="perceptron_step")
        w_got, b_got = _unpack(result, 2, ("w_new", "b_new"))
        w_got = np.ravel(as_array(w_got, "w_new"))
        if w_got.shape != w.shape:
            raise AnswerError(f"w_new has {w_got.size} entries; expected {w.size}, "
                              f"one per feature, like w.")
        b_got = _as_scalar(b_got, "b_new")
        w_exp, b_exp = _step(w, b, x, y, rate)
        if close(w_got, w_exp) and close(b_got, b_exp):
            continue
        variant = _which_variant(
            (w_got, b_got), ["no_bias", "sign", "no_rate", "hinge", "strict", "always",
                             "never"],
            _step, (w, b, x, y, rate))
        if variant == "strict":
            variant = _strict_or_predict(perceptron_step)
        where = (f"(case {k}: w = {_fmt(w)}, b = {b + 0.0:g}, x = {_fmt(x)}, "
                 f"y = {y:+g}, α = {rate:g}; expected w_new = {_fmt(w_exp)}, "
                 f"b_new = {b_exp + 0.0:g}; got w_new = {_fmt(w_got)}, b_new = {b_got + 0.0:g})")
        if variant is not None:
            return Feedback(False, f"{_HINTS[variant]} {where}")
        if close(w_got, w_exp):
            return Feedback(False, f"w_new is right but b_new is not; the bias "
                                   f"changes by α·y. {where}")
        return Feedback(False, f"compute h = <w, x> + b; if y·h <= 0 return "
                               f"(w + α·y·x, b + α·y), else (w, b). {where}")
    return Feedback(True, "your step updates exactly on mistakes (y·h(x) <= 0, the "
                          "boundary included), by α·y·x for w and α·y for b.")


@checker
def check_perceptron_epoch(perceptron_epoch):
    """Check a function making one pass of the perceptron over the data.

    Book: (alg-perceptron), exercise ``ex-perceptron-epoch``.

    Parameters
    ----------
    perceptron_epoch : callable
        ``perceptron_epoch(w, b, X, y, learning_rate) -> (w, b, n_updates)``
        with ``X`` of shape (n_samples, n_features), ``y`` of shape
        (n_samples,) in {-1, +1}; it visits the rows in order and updates on
        every mistake, using the current ``w`` and ``b`` for each point.

    Returns
    -------
    Feedback
    """
    for k, (w, b, X, y, rate) in enumerate(_EPOCH_CASES, start=1):
        result = call_answer(perceptron_epoch, w.copy(), b, X.copy(), y.copy(), rate,
                             name="perceptron_epoch")
        w_got, b_got, n_got = _unpack(result, 3, ("w", "b", "n_updates"))
        w_got = np.ravel(as_array(w_got, "w"))
        if w_got.shape != w.shape:
            raise AnswerError(f"the returned w has {w_got.size} entries; expected "
                              f"{w.size}, one per feature.")
        b_got = _as_scalar(b_got, "b")
        n_got = _as_scalar(n_got, "n_updates")
        w_exp, b_exp, n_exp = _epoch(w, b, X, y, rate)
        where = (f"(case {k}: start w = {_fmt(w)}, b = {b + 0.0:g}, α = {rate:g}, "
                 f"{len(y)} points; expected w = {_fmt(w_exp)}, b = {b_exp + 0.0:g}, "
                 f"{n_exp} update(s); got w = {_fmt(w_got)}, b = {b_got + 0.0:g}, "
                 f"{n_got + 0.0:g} update(s))")
        if close(w_got, w_exp) and close(b_got, b_exp):
            if n_got != n_exp:
                return Feedback(False, f"w and b are right but n_updates is not: "
                                       f"count one for every point that triggered an "
                                       f"update. {where}")
            continue
        variant = _which_variant(
            (w_got, b_got), ["batch", "first_only", "converge", "reversed", "no_bias",
                             "sign", "no_rate", "strict", "hinge"],
            lambda *a, variant: _epoch(*a, variant=variant)[:2], (w, b, X, y, rate))
        if variant is not None:
            return Feedback(False, f"{_HINTS[variant]} {where}")
        return Feedback(False, f"for i = 0, ..., n - 1: if y_i·(<w, x_i> + b) <= 0, "
                               f"update w and b with point i and count the update. {where}")
    return Feedback(True, "one epoch visits the points in order and tests each one "
                          "against the current hyperplane, as the perceptron does.")


# ------------------------------------------------- exercises of judgement
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
