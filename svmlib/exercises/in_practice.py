"""Checkers for the exercises of chapter 10, SVMs in practice.

* :func:`check_platt_fit`: a function that fits Platt's sigmoid to decision
  values (Book: (eq-prac-platt-loss)).

The checkers run the reader's answer on hidden cases and compare with a
reference; when the answer is wrong they recognise the usual slips (plain
0/1 targets, a flipped sign) and name them.  (The chapter's other exercises,
on nested cross-validation and on class weights against a threshold, ask for
judgement rather than code to check.)

Book: chapter ``ch-in-practice``.
"""

import numpy as np
from scipy.special import expit

from ._core import AnswerError, Feedback, _describe, as_array, call_answer, checker, close

__all__ = [
    "check_platt_fit",
    "platt_reference",
    "platt_cases",
]


# ------------------------------------------------------------------ Platt

def platt_reference(f, y, targets="platt", max_iter=100, tol=1e-10):
    """Fit Platt's sigmoid ``P(y=1 | f) = 1 / (1 + exp(A f + B))`` by Newton's method.

    Minimizes the cross-entropy (Book: (eq-prac-platt-loss)) with Platt's
    regularized targets (Book: (eq-prac-platt-targets)), using the gradient
    and Hessian of (eq-prac-platt-grad), (eq-prac-platt-hess) and a
    backtracking line search, as Lin, Lin and Weng (2007) recommend.

    Parameters
    ----------
    f : array-like of shape (n_samples,)
        Decision values.
    y : array-like of shape (n_samples,)
        Labels in {0, 1}.
    targets : {"platt", "plain"}, default="platt"
        Platt's targets, or the labels themselves (0 and 1; the minimum may
        not exist when the decision values separate the classes, and the
        iteration then stops at ``max_iter``).
    max_iter : int, default=100
    tol : float, default=1e-10
        Stop when the largest entry of the gradient is below ``tol``.

    Returns
    -------
    A, B : float
    """
    f = np.asarray(f, dtype=float).ravel()
    y = np.asarray(y).ravel()
    n_pos = int(np.sum(y == 1))
    n_neg = y.size - n_pos
    if targets == "platt":
        t = np.where(y == 1, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
    else:
        t = (y == 1).astype(float)

    def loss(A, B):
        z = A * f + B
        return float(np.sum(np.logaddexp(0.0, z) - (1.0 - t) * z))

    A, B = 0.0, float(np.log((n_neg + 1.0) / (n_pos + 1.0)))
    current = loss(A, B)
    for _ in range(max_iter):
        p = expit(-(A * f + B))
        g = np.array([f @ (t - p), np.sum(t - p)])
        if np.max(np.abs(g)) < tol:
            break
        d = p * (1.0 - p)
        H = np.array([[d @ (f * f), d @ f], [d @ f, d.sum()]]) + 1e-12 * np.eye(2)
        step = np.linalg.solve(H, g)
        s = 1.0
        while s > 1e-10:
            trial = loss(A - s * step[0], B - s * step[1])
            if trial <= current - 1e-4 * s * (g @ step):
                break
            s /= 2.0
        A, B, current = A - s * step[0], B - s * step[1], loss(A - s * step[0], B - s * step[1])
    return float(A), float(B)


def platt_cases():
    """The hidden cases of the Platt exercise.

    Returns
    -------
    list of dict
        Each has ``"name"``, ``"f"`` (ndarray of shape (n,)), ``"y"`` (labels
        in {0, 1}) and the reference ``"A"``, ``"B"``: overlapping classes,
        an imbalanced case, and decision values that separate the classes
        (where plain 0/1 targets have no finite solution).
    """
    rng = np.random.default_rng(1999)
    y1 = (np.arange(200) % 2).astype(int)
    f1 = np.where(y1 == 1, 1.0, -1.0) * 1.1 + rng.normal(scale=1.0, size=200)
    y2 = (rng.uniform(size=150) < 0.2).astype(int)
    f2 = np.where(y2 == 1, 0.8, -1.4) + rng.normal(scale=0.9, size=150)
    y3 = (np.arange(60) % 3 == 0).astype(int)
    f3 = np.where(y3 == 1, 1.0, -1.0) * (0.6 + rng.uniform(size=60) * 2.0)
    cases = [dict(name="overlapping classes", f=f1, y=y1),
             dict(name="an imbalanced case (20% class 1)", f=f2, y=y2),
             dict(name="decision values that separate the classes", f=f3, y=y3)]
    for case in cases:
        case["A"], case["B"] = platt_reference(case["f"], case["y"])
    return cases


@checker
def check_platt_fit(fit_platt):
    """Check a function ``fit_platt(f, y) -> (A, B)`` against Newton's method.

    Parameters
    ----------
    fit_platt : callable
        Takes decision values ``f`` (shape (n,)) and labels ``y`` in {0, 1}
        and returns Platt's ``(A, B)`` (Book: (eq-prac-platt-model)).

    Returns
    -------
    Feedback
    """
    if not callable(fit_platt):
        raise AnswerError(f"fit_platt should be a function fit_platt(f, y) -> (A, B); got "
                          f"{_describe(fit_platt)}.")
    for case in platt_cases():
        result = call_answer(fit_platt, case["f"].copy(), case["y"].copy(), name="fit_platt")
        arr = as_array(result, "the result of fit_platt")
        if arr.shape != (2,):
            return Feedback(False, f"fit_platt should return the pair (A, B); it returned "
                                   f"{_describe(result)} with {arr.size} value(s). (Return the "
                                   f"parameters, not the probabilities.)")
        A, B = float(arr[0]), float(arr[1])
        want = (case["A"], case["B"])
        if close((A, B), want, rtol=1e-4, atol=1e-4):
            continue
        if close((-A, -B), want, rtol=1e-4, atol=1e-4):
            return Feedback(False, "A and B have the wrong sign: the book's model is "
                                   "P(y=1|f) = 1/(1 + exp(A f + B)), with A < 0 when large f "
                                   "means class 1.")
        if close((B, A), want, rtol=1e-4, atol=1e-4):
            return Feedback(False, "you returned (B, A); return (A, B), the slope first.")
        plain = platt_reference(case["f"], case["y"], targets="plain", max_iter=60)
        if close((A, B), plain, rtol=1e-3, atol=1e-3) or (abs(A) > 3 * abs(want[0]) + 1):
            return Feedback(False, f"on {case['name']} your A = {A:.3g} matches a fit to the "
                                   f"plain labels 0/1. Use Platt's targets, (N+ + 1)/(N+ + 2) "
                                   f"for class 1 and 1/(N- + 2) for class 0 "
                                   f"(eq-prac-platt-targets).")
        if close((A, B), want, rtol=2e-2, atol=2e-2):
            return Feedback(False, f"close on {case['name']} (A = {A:.4f} vs {want[0]:.4f}) but "
                                   f"not converged: tighten the optimizer's tolerance or check "
                                   f"the gradient (eq-prac-platt-grad).")
        return Feedback(False, f"on {case['name']} you got A = {A:.4g}, B = {B:.4g}; the "
                               f"minimizer of (eq-prac-platt-loss) is A = {want[0]:.4g}, "
                               f"B = {want[1]:.4g}. Check the loss and its gradient.")
    return Feedback(True, "your (A, B) minimize the cross-entropy with Platt's targets on every "
                          "hidden case, including separated decision values.")
