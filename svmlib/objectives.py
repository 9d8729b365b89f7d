"""Objectives and optimality measures of the support vector machine.

The soft-margin primal problem (the hard margin is ``C = inf``) is::

    minimize over w, b    1/2 ||w||^2 + C sum_i max(0, 1 - y_i (<w, x_i> + b))

and its dual, written as a minimization as LIBSVM does, is::

    minimize over alpha   1/2 alpha^T Q alpha - 1^T alpha
    subject to            y^T alpha = 0,   0 <= alpha_i <= C,

with ``Q = (y y^T) * K`` (element-wise product) and ``K[i, j] = k(x_i, x_j)``.
The book states the dual as a maximization of ``D(alpha) = 1^T alpha - 1/2
alpha^T Q alpha``; :func:`dual_objective` returns that value, so that at the
solution ``primal_objective == dual_objective`` (zero duality gap).

The functions here measure a candidate solution; they do not solve anything.
"""

import numpy as np

from ._validation import check_array

__all__ = [
    "kernel_matrix_Q",
    "dual_objective",
    "primal_objective",
    "primal_objective_kernel",
    "hinge_loss",
    "duality_gap",
    "decision_values",
    "kkt_violations",
    "max_kkt_violation",
    "kkt_cases",
]


def kernel_matrix_Q(K, y):
    """The matrix ``Q = (y y^T) * K`` of the dual problem.

    Book: (eq-dual-matrix).

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        Gram matrix ``K[i, j] = k(x_i, x_j)``.
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.

    Returns
    -------
    Q : ndarray of shape (n_samples, n_samples)
        ``Q[i, j] = y_i y_j K[i, j]``.
    """
    K = np.asarray(K, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    return (y[:, None] * y[None, :]) * K


def dual_objective(alpha, Q):
    """The dual objective ``D(alpha) = sum_i alpha_i - 1/2 alpha^T Q alpha``.

    This is the function the book maximizes; solvers minimize ``-D``.

    Book: (eq-dual-hard), (eq-soft-dual).

    Parameters
    ----------
    alpha : array-like of shape (n_samples,)
        The multipliers.
    Q : array-like of shape (n_samples, n_samples)
        The matrix of :func:`kernel_matrix_Q`.

    Returns
    -------
    float
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    Q = np.asarray(Q, dtype=np.float64)
    return float(alpha.sum() - 0.5 * alpha @ (Q @ alpha))


def hinge_loss(y, scores):
    """The hinge loss ``max(0, 1 - y_i f(x_i))`` of every sample.

    It is the slack ``xi_i`` of sample ``i`` at the decision values ``f``.

    Book: (eq-soft-hinge).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    scores : array-like of shape (n_samples,)
        Decision values ``f(x_i) = <w, x_i> + b``.

    Returns
    -------
    ndarray of shape (n_samples,)
        Non-negative losses (not averaged, not summed).
    """
    y = np.asarray(y, dtype=np.float64)
    scores = np.asarray(scores, dtype=np.float64)
    return np.maximum(0.0, 1.0 - y * scores)


def _penalty(C, slack):
    """``C * sum(slack)`` with the hard-margin convention for ``C = inf``."""
    if np.isinf(C):
        # Hard margin: feasible points cost nothing, a violation costs inf.
        return 0.0 if np.all(slack <= 1e-9) else np.inf
    return float(C * slack.sum())


def primal_objective(w, b, X, y, C):
    """The primal objective ``1/2 ||w||^2 + C sum_i max(0, 1 - y_i (<w, x_i> + b))``.

    For ``C = inf`` (hard margin) the value is ``1/2 ||w||^2`` when every
    constraint ``y_i (<w, x_i> + b) >= 1`` holds (to 1e-9) and ``inf`` otherwise.

    Book: (eq-soft-primal); (eq-hmd-primal) for ``C = inf``.

    Parameters
    ----------
    w : array-like of shape (n_features,)
    b : float
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    C : float
        The penalty, ``> 0`` or ``np.inf``.

    Returns
    -------
    float
    """
    w = np.asarray(w, dtype=np.float64).ravel()
    X = np.asarray(X, dtype=np.float64)
    slack = hinge_loss(y, X @ w + b)
    return 0.5 * float(w @ w) + _penalty(C, slack)


def decision_values(alpha, b, K, y):
    """The decision values ``f(x_i) = sum_j alpha_j y_j K[i, j] + b``.

    Book: (eq-dual-classifier).

    Parameters
    ----------
    alpha : array-like of shape (n_samples,)
    b : float
    K : array-like of shape (n_eval, n_samples)
        Kernel values between the points to evaluate and the training points
        (the Gram matrix to evaluate on the training set itself).
    y : array-like of shape (n_samples,)

    Returns
    -------
    ndarray of shape (n_eval,)
    """
    K = np.asarray(K, dtype=np.float64)
    coef = np.asarray(alpha, dtype=np.float64) * np.asarray(y, dtype=np.float64)
    return K @ coef + b


def primal_objective_kernel(alpha, b, K, y, C):
    """The primal objective of ``w = sum_i alpha_i y_i phi(x_i)`` and ``b``.

    Uses ``||w||^2 = alpha^T Q alpha``, so it works for any kernel without
    building ``phi``.

    Parameters
    ----------
    alpha : array-like of shape (n_samples,)
    b : float
    K : array-like of shape (n_samples, n_samples)
    y : array-like of shape (n_samples,)
    C : float

    Returns
    -------
    float
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    K = np.asarray(K, dtype=np.float64)
    coef = alpha * y
    Kcoef = K @ coef
    slack = hinge_loss(y, Kcoef + b)
    return 0.5 * float(coef @ Kcoef) + _penalty(C, slack)


def duality_gap(alpha, b, K, y, C):
    """Primal minus dual objective, ``P(w(alpha), b) - D(alpha) >= 0``.

    Zero exactly at the solution (strong duality); a small positive number
    for an approximate solution.

    Book: (eq-duality-gap).

    Parameters
    ----------
    alpha : array-like of shape (n_samples,)
    b : float
    K : array-like of shape (n_samples, n_samples)
        Gram matrix (``X @ X.T`` for the linear kernel).
    y : array-like of shape (n_samples,)
    C : float

    Returns
    -------
    float
    """
    Q = kernel_matrix_Q(K, y)
    return primal_objective_kernel(alpha, b, K, y, C) - dual_objective(alpha, Q)


def kkt_violations(alpha, b, K, y, C, atol=1e-8):
    """Per-point residuals of the KKT conditions of the soft-margin SVM.

    With margins ``m_i = y_i f(x_i)`` the conditions are, case by case
    (Book: (eq-soft-kkt-cases)):

    * ``alpha_i = 0``      requires ``m_i >= 1``: residual ``max(0, 1 - m_i)``;
    * ``0 < alpha_i < C``  requires ``m_i = 1``:  residual ``|m_i - 1|``;
    * ``alpha_i = C``      requires ``m_i <= 1``: residual ``max(0, m_i - 1)``.

    Parameters
    ----------
    alpha : array-like of shape (n_samples,)
    b : float
    K : array-like of shape (n_samples, n_samples)
    y : array-like of shape (n_samples,)
    C : float
        ``np.inf`` for the hard margin (no point is at the upper bound).
    atol : float, default=1e-8
        Multipliers within ``atol`` of 0 (or of ``C``) count as at the bound.

    Returns
    -------
    ndarray of shape (n_samples,)
        Non-negative residuals; all zero at an exact solution.
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    margins = y * decision_values(alpha, b, K, y)
    at_lower = alpha <= atol
    at_upper = (alpha >= C - atol) & ~at_lower
    free = ~(at_lower | at_upper)
    residual = np.zeros_like(alpha)
    residual[at_lower] = np.maximum(0.0, 1.0 - margins[at_lower])
    residual[free] = np.abs(margins[free] - 1.0)
    residual[at_upper] = np.maximum(0.0, margins[at_upper] - 1.0)
    return residual


def max_kkt_violation(alpha, grad, y, C):
    """The maximal violation ``m(alpha) - M(alpha)`` of the dual KKT conditions.

    With ``grad = Q alpha - 1`` (the gradient of the dual minimized by
    LIBSVM), ``m(alpha) = max_{t in I_up} -y_t grad_t`` and
    ``M(alpha) = min_{t in I_low} -y_t grad_t``, where ``I_up`` holds the
    indices whose ``alpha_t`` may move in the direction ``y_t`` and ``I_low``
    those that may move in the direction ``-y_t``.  ``alpha`` is optimal if
    and only if ``m(alpha) <= M(alpha)``; SMO stops once the difference is at
    most ``tol``.  It does not depend on ``b``.

    Book: (eq-smo-stopping).

    Parameters
    ----------
    alpha : array-like of shape (n_samples,)
    grad : array-like of shape (n_samples,)
        ``Q @ alpha - 1``.
    y : array-like of shape (n_samples,)
    C : float

    Returns
    -------
    float
        ``max(0, m - M)``; 0 if one of the two sets is empty.
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    grad = np.asarray(grad, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    pos = y > 0
    below_upper = alpha < C
    above_lower = alpha > 0
    in_up = (pos & below_upper) | (~pos & above_lower)
    in_low = (pos & above_lower) | (~pos & below_upper)
    if not in_up.any() or not in_low.any():
        return 0.0
    score = -y * grad
    return max(0.0, float(score[in_up].max() - score[in_low].min()))


def kkt_cases(alpha, C, rtol=1e-6):
    """The KKT case of every training point: 0, 1 or 2.

    Book: (eq-soft-kkt-cases).

    A solver returns multipliers that sit on a bound only up to rounding, so
    ``alpha_i`` counts as 0 when it is at most ``tol`` and as ``C`` when it
    is at least ``C - tol``, with ``tol = rtol * C`` (``rtol * max(1,
    max alpha)`` for the hard margin ``C = inf``, where no point is at the
    upper bound).

    Parameters
    ----------
    alpha : array-like of shape (n_samples,)
        The dual multipliers, ``0 <= alpha_i <= C``.
    C : float
        The box bound, ``> 0`` or ``np.inf``.
    rtol : float, default=1e-6
        Relative tolerance of "at a bound".

    Returns
    -------
    cases : ndarray of shape (n_samples,), int
        0 where ``alpha_i = 0``, 1 where ``0 < alpha_i < C``, 2 where
        ``alpha_i = C``.
    """
    alpha = check_array(alpha, "alpha", ndim=1)
    C = float(C)
    if not C > 0:
        raise ValueError(f"C must be > 0 (or np.inf); got C={C!r}.")
    scale = C if np.isfinite(C) else max(1.0, float(alpha.max(initial=0.0)))
    tol = rtol * scale
    cases = np.ones(alpha.shape[0], dtype=int)
    cases[alpha <= tol] = 0
    if np.isfinite(C):
        cases[(alpha >= C - tol) & (alpha > tol)] = 2
    return cases
