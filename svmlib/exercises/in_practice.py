"""Checkers for the exercises of chapter 10, SVMs in practice.

* :func:`check_pipeline`: a pipeline that standardizes the features and then
  fits svmlib's SVC with ``C = 10`` and ``gamma = 0.01``;
* :func:`check_best_cell`: a function that finds the best cell of a
  validation grid, breaking ties as ``GridSearchCV`` does;
* :func:`check_platt_fit`: a function that fits Platt's sigmoid to decision
  values (Book: (eq-prac-platt-loss)).

The checkers run the reader's answer on hidden cases and compare with a
reference; when the answer is wrong they recognise the usual slips (no
scaler, the scaler after the SVC, C and gamma swapped, rows and columns
swapped, the last of several ties, plain 0/1 targets, a flipped sign) and
name them.

Book: chapter ``ch-in-practice``.
"""

import numpy as np
from scipy.special import expit

from ._core import AnswerError, Feedback, _describe, as_array, call_answer, checker, close

__all__ = [
    "check_pipeline",
    "check_best_cell",
    "check_platt_fit",
    "platt_reference",
    "best_cell_cases",
    "platt_cases",
    "PIPELINE_C",
    "PIPELINE_GAMMA",
]

#: The hyperparameters the pipeline exercise asks for.
PIPELINE_C = 10.0
PIPELINE_GAMMA = 0.01


# ------------------------------------------------------------------ pipeline

def _pipeline_data():
    """Hidden data for the pipeline exercise: three features on very different scales."""
    rng = np.random.default_rng(2007)
    n = 80
    y = np.where(np.arange(n) % 2 == 0, 1, 0)
    X = rng.normal(size=(n, 3)) + 0.9 * (2 * y[:, None] - 1) * np.array([1.0, 0.6, 0.3])
    return X * np.array([1.0, 250.0, 0.004]) + np.array([0.0, 1000.0, 0.0]), y


def _is_class(obj):
    return isinstance(obj, type)


@checker
def check_pipeline(pipe):
    """Check a pipeline ``StandardScaler`` → svmlib ``SVC(C=10, gamma=0.01)``.

    Parameters
    ----------
    pipe : object
        The reader's answer, expected to be an (unfitted or fitted)
        :class:`sklearn.pipeline.Pipeline`.

    Returns
    -------
    Feedback
    """
    from sklearn.base import clone
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC as SklearnSVC

    from ..svc import SVC

    if pipe is None or pipe is Ellipsis:
        raise AnswerError("the pipeline is missing (None or `...`); build it with "
                          "Pipeline([(name, step), ...]).")
    if isinstance(pipe, (list, tuple)):
        return Feedback(False, "a list of steps is not yet a pipeline: wrap it, "
                               "Pipeline([(\"scale\", StandardScaler()), (\"svc\", SVC(...))]).")
    if isinstance(pipe, (SVC, SklearnSVC)):
        return Feedback(False, "this is the SVC alone; the exercise asks for a pipeline whose "
                               "first step standardizes the features (StandardScaler()).")
    if isinstance(pipe, StandardScaler):
        return Feedback(False, "this is the scaler alone; put it in a Pipeline followed by "
                               "svmlib's SVC.")
    if not isinstance(pipe, Pipeline):
        return Feedback(False, f"expected a sklearn.pipeline.Pipeline; got {_describe(pipe)}.")
    steps = [step for _, step in pipe.steps]
    if any(_is_class(step) for step in steps):
        return Feedback(False, "one step is a class, not an object: write StandardScaler() and "
                               "SVC(...), with parentheses.")
    svc_positions = [k for k, step in enumerate(steps) if isinstance(step, (SVC, SklearnSVC))]
    if not svc_positions:
        return Feedback(False, "the pipeline has no SVC step; end it with svmlib's "
                               "SVC(C=10, gamma=0.01).")
    last = steps[-1]
    if isinstance(last, SklearnSVC) or isinstance(steps[svc_positions[-1]], SklearnSVC):
        return Feedback(False, "this is scikit-learn's SVC; the exercise asks for svmlib's "
                               "(from svmlib import SVC). They solve the same problem, which "
                               "is the point of a later section.")
    if not isinstance(last, SVC):
        return Feedback(False, "the SVC must be the last step: a pipeline transforms the data "
                               "step by step and the final step is the model. Put the scaler "
                               "first.")
    scalers = [k for k, step in enumerate(steps[:-1]) if isinstance(step, StandardScaler)]
    if not scalers:
        others = [type(step).__name__ for step in steps[:-1]]
        if others:
            return Feedback(False, f"the features are transformed by {', '.join(others)}, but "
                                   f"the exercise asks for standardization: StandardScaler() "
                                   f"(zero mean, unit variance per feature).")
        return Feedback(False, "the pipeline has no scaler: add (\"scale\", StandardScaler()) "
                               "before the SVC, so that every feature counts in the RBF kernel.")
    scaler = steps[scalers[0]]
    if not (scaler.get_params().get("with_mean", True) and scaler.get_params().get("with_std",
                                                                                   True)):
        return Feedback(False, "keep StandardScaler's defaults: with_mean=True and "
                               "with_std=True (standardize, eq-prac-standardize).")
    params = last.get_params()
    if params["kernel"] != "rbf":
        return Feedback(False, f"the SVC uses kernel={params['kernel']!r}; the exercise asks "
                               f"for the RBF kernel (the default, kernel=\"rbf\").")
    C, gamma = params["C"], params["gamma"]
    if isinstance(gamma, str):
        return Feedback(False, f"gamma is still {gamma!r}; set gamma={PIPELINE_GAMMA:g} "
                               f"explicitly.")
    if close(C, PIPELINE_GAMMA) and close(gamma, PIPELINE_C):
        return Feedback(False, f"C and gamma are swapped: the exercise asks for "
                               f"C={PIPELINE_C:g} and gamma={PIPELINE_GAMMA:g}.")
    if not close(C, PIPELINE_C):
        return Feedback(False, f"C is {C!r}; the exercise asks for C={PIPELINE_C:g}.")
    if not close(gamma, PIPELINE_GAMMA):
        return Feedback(False, f"gamma is {gamma!r}; the exercise asks for "
                               f"gamma={PIPELINE_GAMMA:g}.")
    X, y = _pipeline_data()
    try:
        theirs = clone(pipe).fit(X, y).decision_function(X)
    except Exception as exc:  # the reader's pipeline: any failure becomes a hint
        raise AnswerError(f"the pipeline could not be fitted ({type(exc).__name__}: {exc}); "
                          f"check each step.") from None
    reference = Pipeline([("scale", StandardScaler()),
                          ("svc", SVC(C=PIPELINE_C, gamma=PIPELINE_GAMMA))])
    ours = reference.fit(X, y).decision_function(X)
    if not close(theirs, ours, rtol=1e-5, atol=1e-5):
        return Feedback(False, "the pipeline fits, but its decision values differ from the "
                               "reference StandardScaler() → SVC(C=10, gamma=0.01); is there an "
                               "extra step between them?")
    return Feedback(True, "standardize, then fit the RBF SVC. Every step is refitted on the "
                          "training folds only when this pipeline is cross-validated.")


# ------------------------------------------------------------------ best cell

def best_cell_cases():
    """The hidden cases of the best-cell exercise.

    Returns
    -------
    list of dict
        Each has ``"scores"`` (ndarray of shape (n_C, n_gamma)), ``"Cs"``,
        ``"gammas"`` and the expected ``"answer"`` ``(C, gamma)``.  The grids
        are not square (so rows and columns cannot be confused unnoticed),
        and one case has a tie, which ``GridSearchCV`` breaks in favour of
        the first cell in row-major order (smaller ``C`` first).
    """
    Cs3 = np.array([0.1, 1.0, 10.0])
    Cs4 = np.array([1.0, 10.0, 100.0, 1000.0])
    g4 = np.array([1e-3, 1e-2, 1e-1, 1.0])
    g3 = np.array([0.01, 0.1, 1.0])
    cases = [
        dict(scores=np.array([[0.61, 0.70, 0.84, 0.63],
                              [0.72, 0.86, 0.93, 0.63],
                              [0.85, 0.95, 0.91, 0.62]]), Cs=Cs3, gammas=g4),
        dict(scores=np.array([[0.80, 0.88, 0.90],
                              [0.87, 0.91, 0.96],
                              [0.93, 0.94, 0.89],
                              [0.96, 0.92, 0.85]]), Cs=Cs4, gammas=g3),
        dict(scores=np.array([[0.55, 0.97, 0.71],
                              [0.60, 0.62, 0.65],
                              [0.52, 0.58, 0.60]]), Cs=Cs3, gammas=g3),
    ]
    for case in cases:
        i, j = np.unravel_index(np.argmax(case["scores"]), case["scores"].shape)
        case["answer"] = (float(case["Cs"][i]), float(case["gammas"][j]))
    return cases


def _pair(answer, name="your function's result"):
    arr = as_array(answer, name)
    if arr.shape != (2,):
        raise AnswerError(f"{name} should be a pair (C, gamma); got {_describe(answer)} "
                          f"with {arr.size} value(s).")
    return float(arr[0]), float(arr[1])


@checker
def check_best_cell(best_cell):
    """Check a function ``best_cell(scores, Cs, gammas) -> (C, gamma)``.

    ``scores[i, j]`` is the validation accuracy at ``C = Cs[i]``,
    ``gamma = gammas[j]``; the answer is the best cell, the first one in
    row-major order on ties (as ``GridSearchCV`` chooses).

    Parameters
    ----------
    best_cell : callable

    Returns
    -------
    Feedback
    """
    if not callable(best_cell):
        raise AnswerError(f"best_cell should be a function best_cell(scores, Cs, gammas); got "
                          f"{_describe(best_cell)}.")
    for k, case in enumerate(best_cell_cases()):
        scores, Cs, gammas = case["scores"], case["Cs"], case["gammas"]
        got = _pair(call_answer(best_cell, scores.copy(), Cs.copy(), gammas.copy(),
                                name="best_cell"))
        want = case["answer"]
        if close(got, want):
            continue
        if close(got, want[::-1]):
            return Feedback(False, "you returned (gamma, C); return (C, gamma): rows of scores "
                                   "belong to the values of C, columns to gamma.")
        i, j = np.unravel_index(np.argmax(scores), scores.shape)
        if close(got, (i, j)):
            return Feedback(False, f"you returned the indices ({i}, {j}) of the cell; return "
                                   f"the parameter values, (Cs[i], gammas[j]).")
        lo = np.unravel_index(np.argmin(scores), scores.shape)
        if close(got, (Cs[lo[0]], gammas[lo[1]])):
            return Feedback(False, "this is the cell with the lowest accuracy; take the "
                                   "largest (np.argmax).")
        flat = scores.ravel()
        last = flat.size - 1 - np.argmax(flat[::-1])
        li, lj = np.unravel_index(last, scores.shape)
        if last != np.argmax(flat) and close(got, (Cs[li], gammas[lj])):
            return Feedback(False, "two cells share the best score and you returned the last; "
                                   "GridSearchCV keeps the first in row-major order (smaller C "
                                   "first): np.argmax does that.")
        ti, tj = np.unravel_index(np.argmax(scores.T), scores.T.shape)
        if tj < Cs.size and ti < gammas.size and close(got, (Cs[tj], gammas[ti])):
            return Feedback(False, "rows and columns seem mixed up: scores has one row per C "
                                   "and one column per gamma.")
        return Feedback(False, f"on a hidden {scores.shape[0]}×{scores.shape[1]} grid you "
                               f"returned C={got[0]:g}, gamma={got[1]:g}, which is not the best "
                               f"cell. Use np.argmax on scores and np.unravel_index to get "
                               f"(i, j).")
    return Feedback(True, "np.unravel_index(np.argmax(scores), scores.shape) gives the row "
                          "(C) and column (gamma) of the first best cell, as GridSearchCV picks it.")


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
