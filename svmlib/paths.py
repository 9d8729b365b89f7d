"""Solution paths: the linear soft-margin SVM refitted along one parameter.

Two experiments of the chapter on the soft margin (Book: chapter
``ch-soft-margin``) refit the same small problem many times and compare the
fits:

* :func:`soft_margin_path` -- one fit per value of ``C``: margin width,
  total slack, support vectors by KKT case, training and validation accuracy;
* :func:`drag_path` -- one fit per position of a single training point that
  is moved in a straight line towards, into and across the margin band: its
  score, slack and multiplier at each position, and the hyperplane it leaves
  behind.

Both return plain lists of dicts, one per fit, so that a reader can tabulate
or plot any field.  The figures that show them live in
:mod:`svmlib.widgets.soft_margin` and :mod:`svmlib.plotting.soft_margin`.
"""

import numpy as np

from ._validation import check_X_y
from .objectives import hinge_loss, kkt_cases, primal_objective

__all__ = ["soft_margin_path", "drag_path"]


def _linear_fit(X, y, C, tol):
    from .svc import SVC

    model = SVC(kernel="linear", C=float(C), tol=tol).fit(X, y)
    return (model.coef_[0].copy(), float(model.intercept_[0]),
            np.asarray(model.alpha_, dtype=float))


def _labels_pm(y):
    if not np.all(np.isin(y, (-1.0, 1.0))) or np.unique(y).shape[0] < 2:
        raise ValueError(f"y must hold both labels -1 and +1 and nothing else; got the values "
                         f"{np.unique(y)[:5].tolist()}. Map the two classes to -1/+1 first.")
    return y.astype(float)


def soft_margin_path(X, y, C_values, X_val=None, y_val=None, tol=1e-5):
    """Fit the linear soft-margin SVM for each C and summarize each fit.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    C_values : sequence of float
        The values of C, each ``> 0``.
    X_val, y_val : array-like, optional
        Validation data; then each summary has ``val_accuracy``.
    tol : float, default=1e-5
        Tolerance of the SMO solver.

    Returns
    -------
    list of dict
        One dict per C with ``C``, ``w`` (n_features,), ``b``, ``alpha`` (n,),
        ``h`` (decision values), ``slack`` (xi_i), ``cases`` (see
        :func:`svmlib.objectives.kkt_cases`), ``margin_width``
        (``2/||w||``), ``slack_sum``, ``n_free``, ``n_bound``, ``n_support``,
        ``objective`` (the primal value), ``train_accuracy``, ``val_correct``
        and ``val_accuracy`` (``None`` without validation data).
    """
    X, y = check_X_y(X, y)
    y = _labels_pm(y)
    if X_val is not None:
        X_val, y_val = check_X_y(X_val, y_val)
    C_values = [float(C) for C in C_values]
    bad = [C for C in C_values if not (np.isfinite(C) and C > 0)]
    if bad or not C_values:
        raise ValueError(f"C_values must be a non-empty list of finite numbers > 0; got "
                         f"{bad or 'an empty list'}. Use a grid such as np.logspace(-2, 2, 13).")
    path = []
    for C in C_values:
        w, b, alpha = _linear_fit(X, y, C, tol)
        h = X @ w + b
        slack = hinge_loss(y, h)
        cases = kkt_cases(alpha, C)
        val_correct = None if X_val is None else int(np.sum(np.sign(X_val @ w + b) == y_val))
        path.append({
            "C": C, "w": w, "b": b, "alpha": alpha, "h": h, "slack": slack,
            "cases": cases, "margin_width": 2.0 / float(np.linalg.norm(w)),
            "slack_sum": float(slack.sum()), "n_free": int(np.sum(cases == 1)),
            "n_bound": int(np.sum(cases == 2)), "n_support": int(np.sum(cases > 0)),
            "objective": primal_objective(w, b, X, y, C),
            "train_accuracy": float(np.mean(np.sign(h) == y)),
            "val_correct": val_correct,
            "val_accuracy": None if X_val is None else val_correct / len(y_val),
        })
    return path


def drag_path(X, y, index, offsets, C=1.0, tol=1e-10):
    """Move one training point step by step and refit the linear SVM each time.

    The point ``x_k`` (``k = index``) moves along the unit normal of the
    hyperplane fitted to the unmoved data, towards the other class: at
    offset ``t`` it sits at ``x_k - t * y_k * w0 / ||w0||``, so a positive
    ``t`` lowers its score ``y_k h(x_k)`` and a negative one raises it.  At
    every position the soft-margin SVM is solved again from scratch, and the
    point's score, slack and multiplier are read off the new solution.

    The path shows the KKT cases of (Book: (eq-soft-kkt-cases)) as the
    consequence of a move: beyond its margin plane the point has
    ``alpha_k = 0`` and nothing changes; once it reaches the plane it pushes
    it along (``0 < alpha_k < C``), turning the hyperplane; when ``alpha_k``
    reaches ``C`` it can push no harder and slips into the band
    (``xi_k > 0``).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    index : int
        Row of the point that moves.
    offsets : sequence of float
        The distances moved, in the units of ``X``, in the order of the path
        (``0`` is the point's own position).
    C : float, default=1.0
        The box bound, ``> 0``; ``np.inf`` for the hard margin, which raises
        :class:`svmlib.NotSeparableError` at a position where the
        moved data are not linearly separable.
    tol : float, default=1e-10
        Tolerance of the SMO solver (tight, so that the point's multiplier is
        exact to many digits).

    Returns
    -------
    list of dict
        One dict per offset with ``offset``, ``x`` (the point's position),
        ``w``, ``b``, ``alpha`` (all multipliers), ``alpha_k``, ``score``
        (``y_k h(x_k)``), ``slack`` (``xi_k``, its hinge loss), ``case``
        (0, 1 or 2 as in :func:`svmlib.objectives.kkt_cases`), ``cases``
        (every point's), ``margin_width`` (``2/||w||``), ``angle`` (of ``w``,
        in degrees) and ``support`` (the rows with ``alpha_i > 0``).
    """
    X, y = check_X_y(X, y)
    y = _labels_pm(y)
    n = X.shape[0]
    try:
        k = int(index)
    except (TypeError, ValueError):
        raise TypeError(f"index must be an integer row of X; got {index!r}.") from None
    if k != index or not 0 <= k < n:
        raise ValueError(f"index must be a row of X, an integer from 0 to {n - 1}; got {index!r}.")
    C = float(C)
    if not C > 0:
        raise ValueError(f"C must be > 0, or np.inf for the hard margin; got C={C!r}.")
    offsets = np.asarray(offsets, dtype=float).ravel()
    if offsets.size == 0 or not np.all(np.isfinite(offsets)):
        raise ValueError(f"offsets must be a non-empty list of finite distances; got "
                         f"{offsets.tolist()}.")
    w0, _, _ = _linear_fit(X, y, C, tol)
    direction = -y[k] * w0 / np.linalg.norm(w0)
    path = []
    for t in offsets:
        Xt = X.copy()
        Xt[k] = X[k] + t * direction
        w, b, alpha = _linear_fit(Xt, y, C, tol)
        score = float(y[k] * (Xt[k] @ w + b))
        cases = kkt_cases(alpha, C)
        path.append({
            "offset": float(t), "x": Xt[k].copy(), "w": w, "b": b, "alpha": alpha,
            "alpha_k": float(alpha[k]), "score": score, "slack": max(0.0, 1.0 - score),
            "case": int(cases[k]), "cases": cases,
            "margin_width": 2.0 / float(np.linalg.norm(w)),
            "angle": float(np.degrees(np.arctan2(w[1], w[0]))) if w.shape[0] == 2 else None,
            "support": np.flatnonzero(cases > 0),
        })
    return path
