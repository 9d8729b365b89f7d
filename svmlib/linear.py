"""Linear SVMs at scale: dual coordinate descent, as LIBLINEAR solves them.

For a linear kernel the dual of the soft-margin SVM needs no kernel matrix.
With the bias folded into the weights by a constant feature ``s``
(``x_hat = (x, s)``, ``w_hat = (w, b / s)``; Book: (eq-scale-augmented)) the
problem has no equality constraint, and its dual is (Book: (eq-scale-dual))::

    minimize over alpha   f(alpha) = 1/2 alpha^T Qbar alpha - 1^T alpha
    subject to            0 <= alpha_i <= U,

with ``Qbar = Q + D``, ``Q_ij = y_i y_j <x_hat_i, x_hat_j>`` and

* hinge loss (L1-SVM): ``D = 0``, ``U = C``;
* squared hinge loss (L2-SVM): ``D = I / (2C)``, ``U = inf``.

Dual coordinate descent :cite:`hsieh2008` keeps ``w = sum_i alpha_i y_i x_hat_i``
up to date, so the partial derivative ``G_i = y_i <w, x_hat_i> - 1 + D_ii alpha_i``
costs one inner product, and minimizes ``f`` exactly in one coordinate at a
time (Book: (eq-scale-cd-step))::

    alpha_i <- min(max(alpha_i - G_i / Qbar_ii, 0), U),
    w       <- w + (alpha_i_new - alpha_i_old) y_i x_hat_i.

A pass visits the active coordinates in a random order.  The stopping rule
uses the projected gradient ``PG_i`` (``G_i`` with the components that point
out of the box set to 0, Book: (eq-scale-projected-gradient)): stop when
``max PG - min PG <= tol`` over a pass.  *Shrinking* removes a coordinate from
the active set when it sits at a bound and its gradient pushes it further
out by more than the extreme projected gradients of the previous pass, and
the whole set is checked again before stopping, as LIBLINEAR does
:cite:`fan2008`.

:class:`LinearSVC` wraps the solver as a scikit-learn classifier, with
LIBLINEAR's parameters and one-vs-rest for more than two classes; the inner
loops are compiled with Numba when it is installed (and run as plain Python
otherwise).

**Regression.**  :class:`LinearSVR` solves the linear epsilon-insensitive
regression the same way (Ho & Lin, 2012; LIBLINEAR's solvers 12 and 13).  With
``w = sum_i beta_i x_hat_i`` its dual is::

    minimize over beta   1/2 beta^T (Q + D) beta + epsilon ||beta||_1 - y^T beta
    subject to           -U_i <= beta_i <= U_i,

``Q_ij = <x_hat_i, x_hat_j>``, with ``D = 0``, ``U_i = C_i`` for the
epsilon-insensitive loss and ``D = diag(1 / (2 C_i))``, ``U_i = inf`` for its
square.  One coordinate's problem is a one-dimensional piecewise quadratic
(the ``|beta_i|`` term has a kink at 0), minimized exactly by a Newton step on
the side of 0 where the minimum lies, then clipped to the box
(``_svr_coordinate``).  The stopping rule is LIBLINEAR's: the sum of the
violations of the optimality conditions over a pass has fallen below ``tol``
times its value in the first pass.
"""

import warnings

import numpy as np
import scipy.sparse
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning, DataConversionWarning
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.extmath import safe_sparse_dot
from sklearn.utils.validation import check_is_fitted

from ._validation import (check_array, check_estimator_X_y_regression, check_int,
                          check_nonnegative, check_option, check_positive)

from ._linear_rows import columns_of, njit, row_axpy, row_dot, row_sqnorm, rows_of, shuffle

__all__ = ["LinearSVC", "LinearSVR", "solve_linear_dual_cd", "solve_linear_svr_dual_cd",
           "solve_linear_primal_newton", "solve_linear_l1_cd", "solve_crammer_singer",
           "linear_svm_l1_primal", "crammer_singer_primal", "crammer_singer_dual",
           "dual_cd_trace", "linear_svm_primal", "linear_svm_dual", "linear_svr_primal",
           "linear_svr_dual"]

LOSSES = ("hinge", "squared_hinge")
SVR_LOSSES = ("epsilon_insensitive", "squared_epsilon_insensitive")


# ------------------------------------------------------------ the classification loop

@njit(cache=True)
def _projected_gradient(G, a, upper, shrinking, pg_max_old, pg_min_old):
    """One coordinate's projected gradient, and whether shrinking drops it.

    Returns ``(PG, shrink)``: a multiplier at a bound whose gradient points
    out of the box beyond last sweep's extremes leaves the active set.
    """
    if a == 0.0:
        if shrinking and G > pg_max_old:
            return 0.0, True
        return (G if G < 0.0 else 0.0), False
    if a == upper:
        if shrinking and G < pg_min_old:
            return 0.0, True
        return (G if G > 0.0 else 0.0), False
    return G, False


@njit(cache=True)
def _coordinate_step(old, G, qd, upper):
    """The new multiplier: a Newton step on one coordinate, clipped to ``[0, upper]``."""
    if qd > 0.0:
        return min(max(old - G / qd, 0.0), upper)
    return upper  # a zero point with the hinge loss: f is linear in alpha_i


@njit(cache=True)
def _after_sweep(pg_max, pg_min, tol, active, n):
    """``(stop, active, pg_max_old, pg_min_old)`` for the next sweep."""
    if pg_max - pg_min <= tol:
        if active == n:
            return True, active, np.inf, -np.inf
        return False, n, np.inf, -np.inf  # check every coordinate once more before stopping
    return (False, active, pg_max if pg_max > 0.0 else np.inf,
            pg_min if pg_min < 0.0 else -np.inf)


@njit(cache=True)
def _dcd(data, indices, indptr, width, y, alpha, w, bias_w, s, diag, upper, tol, max_iter, seed,
         shrinking):
    """Dual coordinate descent; ``w`` (and ``bias_w``) updated in place.

    ``data, indices, indptr, width`` are the rows of ``X``, dense or CSR
    (``svmlib._linear_rows``).  ``diag`` and ``upper`` are per sample:
    ``D_ii`` and ``U_i`` (from ``C_i``).  Returns the number of passes.
    """
    n = indptr.shape[0] - 1
    QD = np.empty(n)
    for i in range(n):
        QD[i] = diag[i] + s * s + row_sqnorm(data, indptr, width, i)
    index = np.arange(n)
    active = n
    pg_max_old, pg_min_old = np.inf, -np.inf
    rng_state = seed
    it = 0
    while it < max_iter:
        rng_state = shuffle(index, active, rng_state)
        pg_max, pg_min = -np.inf, np.inf
        k_pos = 0
        while k_pos < active:
            i = index[k_pos]
            dot = bias_w[0] * s + row_dot(data, indices, indptr, width, i, w)
            G = y[i] * dot - 1.0 + diag[i] * alpha[i]
            PG, shrink = _projected_gradient(G, alpha[i], upper[i], shrinking, pg_max_old,
                                             pg_min_old)
            if shrink:
                active -= 1
                index[k_pos], index[active] = index[active], index[k_pos]
                continue
            pg_max = max(pg_max, PG)
            pg_min = min(pg_min, PG)
            if abs(PG) > 1e-12:
                old = alpha[i]
                alpha[i] = _coordinate_step(old, G, QD[i], upper[i])
                step = (alpha[i] - old) * y[i]
                row_axpy(step, data, indices, indptr, width, i, w)
                bias_w[0] += step * s
            k_pos += 1
        it += 1
        stop, active, pg_max_old, pg_min_old = _after_sweep(pg_max, pg_min, tol, active, n)
        if stop:
            break
    return it


# ------------------------------------------------------------ the regression loops

@njit(cache=True)
def _svr_coordinate(G, beta, H, epsilon, upper, gmax_old):
    """One coordinate of the SVR dual (Ho & Lin 2012, Algorithm 4).

    ``G`` is the derivative of the smooth part, ``<w, x_hat_i> - y_i +
    D_ii beta_i``, and ``H = Q_ii + D_ii`` its curvature; the derivative of
    the whole objective is ``G + epsilon`` for ``beta_i > 0`` and
    ``G - epsilon`` for ``beta_i < 0``.  Returns ``(violation, new_beta,
    shrink)``: how far ``beta_i`` is from optimal in its own coordinate (0 at
    the optimum), the minimizer of the coordinate's problem, and whether
    shrinking sets the coordinate aside (at 0 or at a bound, and pushed
    there by more than last pass's largest violation ``gmax_old``).
    """
    Gp = G + epsilon
    Gn = G - epsilon
    violation = 0.0
    if beta == 0.0:
        if Gp < 0.0:
            violation = -Gp
        elif Gn > 0.0:
            violation = Gn
        elif Gp > gmax_old and Gn < -gmax_old:
            return 0.0, beta, True
    elif beta >= upper:
        if Gp > 0.0:
            violation = Gp
        elif Gp < -gmax_old:
            return 0.0, beta, True
    elif beta <= -upper:
        if Gn < 0.0:
            violation = -Gn
        elif Gn > gmax_old:
            return 0.0, beta, True
    elif beta > 0.0:
        violation = abs(Gp)
    else:
        violation = abs(Gn)
    # The Newton step on the side of 0 where the coordinate's minimum lies.
    if Gp < H * beta:
        d = -Gp / H
    elif Gn > H * beta:
        d = -Gn / H
    else:
        d = -beta
    if abs(d) < 1e-12:
        return violation, beta, False
    return violation, min(max(beta + d, -upper), upper), False


@njit(cache=True)
def _svr_after_sweep(gnorm1, gnorm1_init, gmax, tol, active, n):
    """``(stop, active, gmax_old)`` for the next sweep (LIBLINEAR's rule)."""
    if gnorm1 <= tol * gnorm1_init:
        if active == n:
            return True, active, np.inf
        return False, n, np.inf  # check every coordinate once more before stopping
    return False, active, gmax


@njit(cache=True)
def _svr(data, indices, indptr, width, y, beta, w, bias_w, s, lam, upper, epsilon, tol, max_iter,
         seed):
    """Dual coordinate descent for linear SVR; ``w`` (and ``bias_w``) in place.

    The rows of ``X`` as in :func:`_dcd`; ``lam`` and ``upper`` are per sample
    (``D_ii`` and ``U_i``).  Returns the number of passes.
    """
    n = indptr.shape[0] - 1
    QD = np.empty(n)
    for i in range(n):
        QD[i] = s * s + row_sqnorm(data, indptr, width, i)
    index = np.arange(n)
    active = n
    gmax_old = np.inf
    gnorm1_init = -1.0
    rng_state = seed
    it = 0
    while it < max_iter:
        rng_state = shuffle(index, active, rng_state)
        gmax, gnorm1 = 0.0, 0.0
        k_pos = 0
        while k_pos < active:
            i = index[k_pos]
            dot = bias_w[0] * s + row_dot(data, indices, indptr, width, i, w)
            G = dot - y[i] + lam[i] * beta[i]
            violation, new, shrink = _svr_coordinate(G, beta[i], QD[i] + lam[i], epsilon,
                                                     upper[i], gmax_old)
            if shrink:
                active -= 1
                index[k_pos], index[active] = index[active], index[k_pos]
                continue
            gmax = max(gmax, violation)
            gnorm1 += violation
            step = new - beta[i]
            if step != 0.0:
                beta[i] = new
                row_axpy(step, data, indices, indptr, width, i, w)
                bias_w[0] += step * s
            k_pos += 1
        if it == 0:
            gnorm1_init = gnorm1
        it += 1
        stop, active, gmax_old = _svr_after_sweep(gnorm1, gnorm1_init, gmax, tol, active, n)
        if stop:
            break
    return it


# ------------------------------------------------------------ the solver

def solve_linear_dual_cd(X, y, C=1.0, loss="squared_hinge", fit_intercept=True,
                         intercept_scaling=1.0, tol=1e-4, max_iter=1000, random_state=0,
                         shrinking=True, sample_weight=None):
    """Solve the binary linear SVM by dual coordinate descent.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or scipy.sparse CSR matrix
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    C : float, default=1.0
    loss : {"squared_hinge", "hinge"}, default="squared_hinge"
    fit_intercept : bool, default=True
        Append the constant feature ``intercept_scaling`` (Book: (eq-scale-augmented)).
    intercept_scaling : float, default=1.0
    tol : float, default=1e-4
        Stop when ``max PG - min PG <= tol`` over a pass.
    max_iter : int, default=1000
        Maximal number of passes.
    random_state : int, default=0
        Seed of the visiting order.
    shrinking : bool, default=True
    sample_weight : ndarray of shape (n_samples,) or None
        Sample ``i`` gets the penalty ``C_i = C * sample_weight[i]`` (class
        weights are folded into it by :class:`LinearSVC`); samples with
        ``C_i = 0`` are left out (their ``alpha_i`` is 0).

    Returns
    -------
    dict
        ``w`` (n_features,), ``b``, ``alpha`` (n_samples,), ``n_iter`` (passes)
        and ``converged``.
    """
    y = np.ascontiguousarray(y, dtype=np.float64)
    n_all = y.shape[0]
    C_i = np.full(n_all, float(C)) if sample_weight is None else float(C) * np.asarray(
        sample_weight, dtype=np.float64)
    kept = np.flatnonzero(C_i > 0)
    if kept.shape[0] < n_all:                  # C_i = 0: the sample does not count
        X, y, C_i = X[kept], y[kept], C_i[kept]
    n = kept.shape[0]
    if loss == "hinge":
        diag, upper = np.zeros(n), C_i
    else:
        diag, upper = 0.5 / C_i, np.full(n, np.inf)
    s = float(intercept_scaling) if fit_intercept else 0.0
    seed = int(np.random.default_rng(random_state).integers(1, 2**62))
    alpha = np.zeros(n)
    bias_w = np.zeros(1)
    w = np.zeros(X.shape[1])
    n_iter = _dcd(*rows_of(X), y, alpha, w, bias_w, s, diag, upper, float(tol), int(max_iter),
                  seed, bool(shrinking))
    alpha_all = np.zeros(n_all)
    alpha_all[kept] = alpha
    return {"w": w, "b": float(bias_w[0] * s), "alpha": alpha_all, "n_iter": int(n_iter),
            "converged": int(n_iter) < int(max_iter)}


def solve_linear_svr_dual_cd(X, y, C=1.0, epsilon=0.0, loss="epsilon_insensitive",
                             fit_intercept=True, intercept_scaling=1.0, tol=1e-4, max_iter=1000,
                             random_state=0, sample_weight=None):
    """Solve linear epsilon-insensitive regression by dual coordinate descent (Ho & Lin 2012).

    LIBLINEAR's solvers 13 (``loss="epsilon_insensitive"``) and 12
    (``"squared_epsilon_insensitive"``), with shrinking.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or scipy.sparse CSR matrix
    y : ndarray of shape (n_samples,)
        The targets.
    C : float, default=1.0
    epsilon : float, default=0.0
        Half-width of the tube in which errors cost nothing.
    loss : {"epsilon_insensitive", "squared_epsilon_insensitive"}
    fit_intercept : bool, default=True
        Append the constant feature ``intercept_scaling`` (its weight, the bias,
        is regularized, as in LIBLINEAR).
    intercept_scaling : float, default=1.0
    tol : float, default=1e-4
        Stop when the sum of the violations over a pass is at most ``tol``
        times that of the first pass.
    max_iter : int, default=1000
        Maximal number of passes.
    random_state : int, default=0
        Seed of the visiting order.
    sample_weight : ndarray of shape (n_samples,) or None
        Sample ``i`` gets the penalty ``C * sample_weight[i]``; samples of
        weight 0 are left out (their ``beta_i`` is 0).

    Returns
    -------
    dict
        ``w`` (n_features,), ``b``, ``beta`` (n_samples,), ``n_iter`` (passes)
        and ``converged``.
    """
    y = np.ascontiguousarray(y, dtype=np.float64)
    n = y.shape[0]
    C_i = np.full(n, float(C)) if sample_weight is None else float(C) * np.asarray(
        sample_weight, dtype=np.float64)
    kept = np.flatnonzero(C_i > 0)
    if kept.shape[0] < n:                      # weight 0: the sample does not count
        X, y, C_i = X[kept], y[kept], C_i[kept]
    if loss == "epsilon_insensitive":
        lam, upper = np.zeros(kept.shape[0]), C_i
    else:
        lam, upper = 0.5 / C_i, np.full(kept.shape[0], np.inf)
    s = float(intercept_scaling) if fit_intercept else 0.0
    seed = int(np.random.default_rng(random_state).integers(1, 2**62))
    beta = np.zeros(kept.shape[0])
    bias_w = np.zeros(1)
    w = np.zeros(X.shape[1])
    n_iter = _svr(*rows_of(X), y, beta, w, bias_w, s, lam, upper, float(epsilon), float(tol),
                  int(max_iter), seed)
    beta_all = np.zeros(n)
    beta_all[kept] = beta
    return {"w": w, "b": float(bias_w[0] * s), "beta": beta_all, "n_iter": int(n_iter),
            "converged": int(n_iter) < int(max_iter)}


def _penalties(y, C, sample_weight):
    """``(kept, C_i)``: the samples with ``C_i = C * sample_weight[i] > 0`` and their ``C_i``."""
    n = y.shape[0]
    C_i = np.full(n, float(C)) if sample_weight is None else float(C) * np.asarray(
        sample_weight, dtype=np.float64)
    kept = np.flatnonzero(C_i > 0)
    return kept, C_i[kept]


def _primal_tol(tol, y):
    """LIBLINEAR's tolerance of its primal solvers: ``tol * max(min(#pos, #neg), 1) / n``."""
    pos = int(np.count_nonzero(y > 0))
    return float(tol) * max(min(pos, y.shape[0] - pos), 1) / y.shape[0]


def _squared_hinge_multipliers(w, b, X, y, C_i):
    """``alpha_i = 2 C_i max(0, 1 - y_i (<w, x_i> + b))``: the dual point of a primal solution."""
    margins = y * (np.asarray(X @ w).ravel() + b)
    return 2.0 * C_i * np.maximum(0.0, 1.0 - margins)


def solve_linear_primal_newton(X, y, C=1.0, fit_intercept=True, intercept_scaling=1.0, tol=1e-4,
                               max_iter=1000, sample_weight=None, epsilon=None):
    """Solve the L2-regularized squared hinge (or squared epsilon-insensitive) primal by Newton's method.

    LIBLINEAR's solver 2 (classification, labels ``y`` in {-1, +1}) or,
    with ``epsilon`` given, its solver 11 (regression on targets ``y``): the
    trust-region Newton method of Lin, Weng & Keerthi (2008), the bias the
    weight of a constant feature ``intercept_scaling``.  The tolerance is
    LIBLINEAR's: the gradient's norm must fall to ``tol'`` times its norm at
    ``w = 0``, with ``tol' = tol * max(min(#pos, #neg), 1) / n`` for
    classification and ``tol`` itself for regression.

    Returns
    -------
    dict
        ``w``, ``b``, ``alpha`` (classification: ``2 C_i max(0, 1 - y_i f(x_i))``,
        the optimal dual multipliers, at the solution), ``n_iter`` (accepted
        Newton steps) and ``converged``.
    """
    from ._linear_newton import SVC as KIND_SVC, SVR as KIND_SVR, tron

    y = np.ascontiguousarray(y, dtype=np.float64)
    n_all = y.shape[0]
    kept, C_i = _penalties(y, C, sample_weight)
    if kept.shape[0] < n_all:
        X, y = X[kept], y[kept]
    s = float(intercept_scaling) if fit_intercept else 0.0
    w_hat = np.zeros(X.shape[1] + 1)
    if epsilon is None:
        kind, eps_tube, stop = KIND_SVC, 0.0, _primal_tol(tol, y)
    else:
        kind, eps_tube, stop = KIND_SVR, float(epsilon), float(tol)
    n_iter = tron(*rows_of(X), s, kind, y, C_i, eps_tube, w_hat, stop, int(max_iter))
    w, b = w_hat[:-1].copy(), float(w_hat[-1] * s)
    result = {"w": w, "b": b, "n_iter": int(n_iter), "converged": int(n_iter) < int(max_iter)}
    if epsilon is None:
        alpha = np.zeros(n_all)
        alpha[kept] = _squared_hinge_multipliers(w, b, X, y, C_i)
        result["alpha"] = alpha
    return result


def solve_linear_l1_cd(X, y, C=1.0, fit_intercept=True, intercept_scaling=1.0, tol=1e-4,
                       max_iter=1000, random_state=0, sample_weight=None):
    """Solve the L1-regularized squared hinge by coordinate descent (LIBLINEAR's solver 5).

    Minimizes ``||w_hat||_1 + sum_i C_i max(0, 1 - y_i (<w, x_i> + b))^2`` with
    ``w_hat = (w, b / s)`` (the bias penalized, as in LIBLINEAR), labels ``y`` in
    {-1, +1}; see ``svmlib._linear_l1``.  The tolerance is LIBLINEAR's
    ``tol * max(min(#pos, #neg), 1) / n`` on the ratio of the summed violations
    to those of the first pass.

    Returns
    -------
    dict
        ``w`` (sparse in the sense of many exact zeros), ``b``, ``alpha``
        (``2 C_i max(0, 1 - y_i f(x_i))``), ``n_iter`` (passes over the
        features) and ``converged``.
    """
    from ._linear_l1 import l1_cd

    y = np.ascontiguousarray(y, dtype=np.float64)
    n_all = y.shape[0]
    kept, C_i = _penalties(y, C, sample_weight)
    if kept.shape[0] < n_all:
        X, y = X[kept], y[kept]
    s = float(intercept_scaling) if fit_intercept else 0.0
    columns = columns_of(X, constant=s, scale_rows=y)
    w_hat = np.zeros(X.shape[1] + (1 if s != 0.0 else 0))
    seed = int(np.random.default_rng(random_state).integers(1, 2**62))
    n_iter = l1_cd(*columns, y.shape[0], C_i, w_hat, _primal_tol(tol, y), int(max_iter), seed)
    p = X.shape[1]
    w = w_hat[:p].copy()
    b = float(w_hat[p] * s) if s != 0.0 else 0.0
    alpha = np.zeros(n_all)
    alpha[kept] = _squared_hinge_multipliers(w, b, X, y, C_i)
    return {"w": w, "b": b, "alpha": alpha, "n_iter": int(n_iter),
            "converged": int(n_iter) < int(max_iter)}


def solve_crammer_singer(X, y, n_classes, C=1.0, fit_intercept=True, intercept_scaling=1.0,
                         tol=1e-4, max_iter=1000, random_state=0, sample_weight=None):
    """Solve the Crammer–Singer multiclass SVM by the sequential dual method (LIBLINEAR's solver 4).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or CSR matrix
    y : ndarray of shape (n_samples,)
        Class indices ``0 .. n_classes - 1``.
    n_classes : int
    C : float, default=1.0
    sample_weight : ndarray of shape (n_samples,) or None
        Sample ``i`` gets ``C_i = C * sample_weight[i]`` (class weights folded
        in by :class:`LinearSVC`); samples with ``C_i = 0`` are left out.

    Returns
    -------
    dict
        ``W`` (n_classes, n_features), ``b`` (n_classes,), ``alpha``
        (n_samples, n_classes; LIBLINEAR's multipliers, ``sum_m alpha_i^m = 0``),
        ``n_iter`` (passes) and ``converged``.  See ``svmlib._linear_cs``.
    """
    from ._linear_cs import crammer_singer

    y_int = np.asarray(y, dtype=np.int64)
    n_all = y_int.shape[0]
    kept, C_i = _penalties(y_int, C, sample_weight)
    if kept.shape[0] < n_all:
        X, y_int = X[kept], y_int[kept]
    s = float(intercept_scaling) if fit_intercept else 0.0
    K = int(n_classes)
    W_hat = np.zeros((X.shape[1] + 1, K))
    alpha = np.zeros((kept.shape[0], K))
    seed = int(np.random.default_rng(random_state).integers(1, 2**62))
    n_iter = crammer_singer(*rows_of(X), s, np.ascontiguousarray(y_int), C_i, K, W_hat, alpha,
                            float(tol), int(max_iter), seed)
    alpha_all = np.zeros((n_all, K))
    alpha_all[kept] = alpha
    return {"W": W_hat[:-1].T.copy(), "b": W_hat[-1] * s, "alpha": alpha_all,
            "n_iter": int(n_iter), "converged": int(n_iter) < int(max_iter)}


def linear_svr_primal(w, b, X, y, C=1.0, epsilon=0.0, loss="epsilon_insensitive",
                      intercept_scaling=1.0, fit_intercept=True, sample_weight=None):
    """The primal objective of linear SVR as LIBLINEAR minimizes it.

    ``1/2 (||w||^2 + (b/s)^2) + sum_i C_i loss(|y_i - <w, x_i> - b| - epsilon)``
    with ``loss(t) = max(0, t)`` or ``max(0, t)^2`` and ``C_i = C *
    sample_weight[i]``; the bias term is present only with ``fit_intercept``.
    """
    w = np.asarray(w, dtype=float)
    residual = np.asarray(y, dtype=float) - (np.asarray(X @ w).ravel() + b)
    excess = np.maximum(0.0, np.abs(residual) - epsilon)
    cost = excess if loss == "epsilon_insensitive" else excess ** 2
    C_i = C if sample_weight is None else C * np.asarray(sample_weight, dtype=float)
    reg = w @ w + ((b / intercept_scaling) ** 2 if fit_intercept else 0.0)
    return float(0.5 * reg + np.sum(C_i * cost))


def linear_svr_dual(beta, X, y, C=1.0, epsilon=0.0, loss="epsilon_insensitive",
                    intercept_scaling=1.0, fit_intercept=True, sample_weight=None):
    """The dual objective ``y^T beta - epsilon ||beta||_1 - 1/2 ||w(beta)||^2 - 1/2 beta^T D beta``.

    ``w(beta) = sum_i beta_i x_hat_i``; ``D = 0`` for the epsilon-insensitive
    loss, ``diag(1 / (2 C_i))`` for its square.  Every feasible ``beta`` gives
    a lower bound on ``linear_svr_primal``; at the solution the two are
    equal (zero duality gap).
    """
    beta = np.asarray(beta, dtype=float)
    w = np.asarray(X.T @ beta).ravel()
    s = intercept_scaling if fit_intercept else 0.0
    w_bias = s * beta.sum()
    value = float(np.asarray(y, dtype=float) @ beta - epsilon * np.abs(beta).sum()
                  - 0.5 * (w @ w + w_bias ** 2))
    if loss == "squared_epsilon_insensitive":
        C_i = C if sample_weight is None else C * np.asarray(sample_weight, dtype=float)
        used = beta != 0
        value -= float(np.sum(0.25 * beta[used] ** 2 / np.broadcast_to(C_i, beta.shape)[used]))
    return value


def linear_svm_primal(w, b, X, y, C=1.0, loss="squared_hinge", intercept_scaling=1.0,
                      fit_intercept=True, sample_weight=None):
    """The primal objective LIBLINEAR minimizes (Book: (eq-scale-primal)).

    ``1/2 (||w||^2 + (b/s)^2) + C sum_i loss(y_i (<w, x_i> + b))`` with the
    hinge ``max(0, 1 - m)`` or the squared hinge ``max(0, 1 - m)^2``; the bias
    term is present only with ``fit_intercept`` (it is regularized, as the
    weight of the constant feature ``s``).  ``sample_weight`` multiplies each
    sample's loss (``C_i = C * sample_weight[i]``).
    """
    w = np.asarray(w, dtype=float)
    margins = np.asarray(y, dtype=float) * (np.asarray(X @ w).ravel() + b)
    slack = np.maximum(0.0, 1.0 - margins)
    cost = slack if loss == "hinge" else slack ** 2
    penalty = cost.sum() if sample_weight is None else np.asarray(sample_weight, float) @ cost
    reg = w @ w + ((b / intercept_scaling) ** 2 if fit_intercept else 0.0)
    return float(0.5 * reg + C * penalty)


def linear_svm_dual(alpha, X, y, C=1.0, loss="squared_hinge", intercept_scaling=1.0,
                    fit_intercept=True):
    """The dual objective ``1^T alpha - 1/2 ||w(alpha)||^2 - 1/2 alpha^T D alpha`` (Book: (eq-scale-dual)).

    At the solution it equals :func:`linear_svm_primal` (zero duality gap).
    """
    alpha = np.asarray(alpha, dtype=float)
    ay = alpha * np.asarray(y, dtype=float)
    w = np.asarray(X.T @ ay).ravel()
    s = intercept_scaling if fit_intercept else 0.0
    w_bias = s * ay.sum()
    diag = 0.0 if loss == "hinge" else 0.5 / C
    return float(alpha.sum() - 0.5 * (w @ w + w_bias ** 2) - 0.5 * diag * (alpha @ alpha))


def linear_svm_l1_primal(w, b, X, y, C=1.0, intercept_scaling=1.0, fit_intercept=True,
                         sample_weight=None):
    """The objective of the L1-regularized squared hinge, as LIBLINEAR's solver 5 minimizes it.

    ``||w||_1 + |b / s| + sum_i C_i max(0, 1 - y_i (<w, x_i> + b))^2``, the
    bias term present only with ``fit_intercept``.
    """
    w = np.asarray(w, dtype=float)
    margins = np.asarray(y, dtype=float) * (np.asarray(X @ w).ravel() + b)
    cost = np.maximum(0.0, 1.0 - margins) ** 2
    penalty = cost.sum() if sample_weight is None else np.asarray(sample_weight, float) @ cost
    reg = np.abs(w).sum() + (abs(b / intercept_scaling) if fit_intercept else 0.0)
    return float(reg + C * penalty)


def crammer_singer_primal(W, b, X, y, C=1.0, intercept_scaling=1.0, fit_intercept=True,
                          sample_weight=None):
    """The Crammer–Singer primal ``1/2 sum_m ||w_hat_m||^2 + sum_i C_i max_m (1 - [m = y_i] + f_m(x_i) - f_{y_i}(x_i))``.

    ``W`` has one row per class, ``f_m(x) = <w_m, x> + b_m``, ``y`` holds class
    indices, ``w_hat_m = (w_m, b_m / s)``.
    """
    W = np.asarray(W, dtype=float)
    b = np.asarray(b, dtype=float)
    y = np.asarray(y, dtype=np.int64)
    scores = np.asarray(X @ W.T) + b
    rows = np.arange(y.shape[0])
    margins = 1.0 + scores - scores[rows, y][:, None]
    margins[rows, y] = 0.0
    loss = margins.max(axis=1)
    C_i = C if sample_weight is None else C * np.asarray(sample_weight, dtype=float)
    reg = np.sum(W * W) + (np.sum((b / intercept_scaling) ** 2) if fit_intercept else 0.0)
    return float(0.5 * reg + np.sum(C_i * loss))


def crammer_singer_dual(alpha, X, y, intercept_scaling=1.0, fit_intercept=True):
    """The Crammer–Singer dual in LIBLINEAR's variables: ``-1/2 sum_m ||w_m(alpha)||^2 - sum_i sum_{m != y_i} alpha_i^m``.

    ``alpha`` has shape (n_samples, n_classes), ``w_m(alpha) = sum_i alpha_i^m
    x_hat_i``.  Every feasible ``alpha`` (``sum_m alpha_i^m = 0``, ``alpha_i^m
    <= C_i [m = y_i]``) gives a lower bound on :func:`crammer_singer_primal`;
    at the solution the two are equal.
    """
    alpha = np.asarray(alpha, dtype=float)
    y = np.asarray(y, dtype=np.int64)
    W = np.asarray(X.T @ alpha)
    s = intercept_scaling if fit_intercept else 0.0
    bias = s * alpha.sum(axis=0)
    rows = np.arange(y.shape[0])
    off = alpha.sum() - alpha[rows, y].sum()
    return float(-0.5 * (np.sum(W * W) + np.sum(bias * bias)) - off)


def dual_cd_trace(X, y, C=1.0, loss="hinge", n_passes=10, intercept_scaling=1.0,
                  random_state=0):
    """Dual coordinate descent in plain NumPy, recording the state after every pass.

    The loop the chapter derives (Book: (eq-scale-cd-step)), without shrinking,
    on dense data with the constant feature ``intercept_scaling`` appended;
    meant for small problems that one wants to watch.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    C : float, default=1.0
    loss : {"hinge", "squared_hinge"}, default="hinge"
    n_passes : int, default=10
    intercept_scaling : float, default=1.0
    random_state : int, default=0
        Seed of the random visiting order (a new permutation every pass).

    Returns
    -------
    list of dict
        ``n_passes + 1`` states (pass 0 is the start ``alpha = 0``), each with
        ``pass``, ``alpha``, ``w``, ``b``, ``primal``, ``dual``, ``gap`` and
        ``pg_spread`` (``max PG - min PG`` over the pass, ``nan`` for pass 0).
    """
    X = check_array(X, "X")
    y = check_array(y, "y", ndim=1)
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must contain only the labels -1 and +1; got other values. "
                         "Map the two classes to -1/+1 first.")
    C = check_positive(C, "C", hint="Use a positive, finite C such as C=1.0.")
    check_option(loss, "loss", LOSSES)
    n_passes = check_int(n_passes, "n_passes", minimum=1)
    s = check_positive(intercept_scaling, "intercept_scaling")
    X_hat = np.hstack([X, np.full((X.shape[0], 1), s)])      # the constant feature
    diag, upper = (0.0, C) if loss == "hinge" else (0.5 / C, np.inf)
    Q_diag = np.einsum("ij,ij->i", X_hat, X_hat) + diag       # Qbar_ii
    alpha = np.zeros(X.shape[0])
    w_hat = np.zeros(X_hat.shape[1])
    rng = np.random.default_rng(random_state)

    def state(k, spread):
        w, b = w_hat[:-1].copy(), float(w_hat[-1] * s)
        primal = linear_svm_primal(w, b, X, y, C, loss, s)
        dual = linear_svm_dual(alpha, X, y, C, loss, s)
        return {"pass": k, "alpha": alpha.copy(), "w": w, "b": b, "primal": primal,
                "dual": dual, "gap": primal - dual, "pg_spread": spread}

    states = [state(0, float("nan"))]
    for k in range(1, n_passes + 1):
        pg = []
        for i in rng.permutation(X.shape[0]):
            G = y[i] * (w_hat @ X_hat[i]) - 1.0 + diag * alpha[i]
            pg.append(min(G, 0.0) if alpha[i] == 0 else (max(G, 0.0) if alpha[i] == upper
                                                           else G))
            new = min(max(alpha[i] - G / Q_diag[i], 0.0), upper)
            w_hat += (new - alpha[i]) * y[i] * X_hat[i]
            alpha[i] = new
        states.append(state(k, float(max(pg) - min(pg))))
    return states


# ------------------------------------------------------------ the estimator

class _LinearInput:
    """The input checks the linear estimators share: dense or sparse ``X``, real and finite."""

    def _check_X(self, X, reset):
        if scipy.sparse.issparse(X):
            X = scipy.sparse.csr_matrix(X)
            if X.dtype.kind not in "biuf":
                raise ValueError(f"X must hold real numbers; got a sparse matrix of dtype "
                                 f"{X.dtype}. Convert it with X.astype(float).")
            X = X.astype(np.float64)
            if not np.all(np.isfinite(X.data)):
                raise ValueError("X must not contain NaN or infinity; got such values in the "
                                 "sparse matrix. Remove or impute them first.")
            if X.ndim != 2 or X.shape[1] == 0:
                raise ValueError(f"X must have at least one feature; got shape {X.shape}.")
        else:
            X = _as_dense(X)
        if reset:
            self.n_features_in_ = X.shape[1]
        elif X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input (as in fit). Pass data with the "
                f"same columns as in fit.")
        return X


class LinearSVC(ClassifierMixin, _LinearInput, BaseEstimator):
    """Linear support vector classifier with LIBLINEAR's solvers.

    Solves the problems of ``sklearn.svm.LinearSVC``, the bias the weight of
    a constant feature ``intercept_scaling`` (penalized, as in LIBLINEAR):

    * ``penalty="l2"`` (Book: (eq-scale-primal)): by dual coordinate descent
      (Hsieh et al., 2008; ``dual=True``, either loss), or for the squared
      hinge by the primal trust-region Newton method (Lin, Weng & Keerthi,
      2008; ``dual=False``);
    * ``penalty="l1"``, squared hinge: ``||w_hat||_1 + C sum_i loss`` by
      coordinate descent (Yuan et al., 2010), whose weights have exact zeros;
    * ``multi_class="crammer_singer"``: the joint multiclass SVM of Crammer
      and Singer by the sequential dual method (Keerthi et al., 2008); then
      ``loss``, ``penalty`` and ``dual`` are ignored, as in scikit-learn.

    Otherwise more than two classes are handled one-vs-rest, one binary
    problem per class, as LIBLINEAR does.

    Parameters
    ----------
    C : float, default=1.0
        Penalty of the loss, ``> 0`` and finite.
    loss : {"squared_hinge", "hinge"}, default="squared_hinge"
        The squared hinge (L2-SVM) or the hinge (L1-SVM, the SVM of the
        soft-margin chapter).
    tol : float, default=1e-4
        Stopping tolerance, in each solver's own measure (LIBLINEAR's): the
        spread of the projected gradient (dual coordinate descent), the
        gradient's norm relative to its start (Newton) or the summed
        violations relative to the first pass (L1); the primal solvers scale
        it by ``max(min(#pos, #neg), 1) / n`` as LIBLINEAR does.
    max_iter : int, default=1000
        Maximal number of iterations: passes over the data (coordinate
        descent, Crammer–Singer) or Newton steps.  (scikit-learn's LIBLINEAR
        runs Crammer–Singer up to 100,000 passes whatever ``max_iter`` says;
        svmlib keeps to ``max_iter`` and warns when it is reached.)
    fit_intercept : bool, default=True
        Learn a bias (as the weight of a constant feature).
    intercept_scaling : float, default=1.0
        The value ``s`` of the constant feature; a larger ``s`` regularizes
        the bias less.
    random_state : int or None, default=None
        Seed of the order in which coordinates are visited (``None`` is
        seed 0, so that fits are repeatable).
    shrinking : bool, default=True
        Set aside coordinates that sit at a bound (LIBLINEAR's shrinking, in
        dual coordinate descent).
    penalty : {"l2", "l1"}, default="l2"
        The regularizer: ``1/2 ||w_hat||^2`` or ``||w_hat||_1`` (sparse
        weights; squared hinge only, ``dual=False``).
    dual : "auto", True or False, default="auto"
        Solve the dual or the primal, with scikit-learn's rules: the hinge
        loss has only a dual solver and ``penalty="l1"`` only a primal one
        (the other choice raises scikit-learn's ValueError); ``"auto"`` picks
        the dual when ``n_samples < n_features`` and the combination has one,
        else the primal when it has one.
    multi_class : {"ovr", "crammer_singer"}, default="ovr"
        One-vs-rest binary problems, or the joint Crammer–Singer problem.
    class_weight : dict, "balanced" or None, default=None
        Multiplies ``C`` for the samples of each class, as LIBLINEAR does: in
        a binary problem each sample gets its class's weight; in the
        one-vs-rest problem of class ``k`` the samples of ``k`` get
        ``class_weight[k]`` and all the others ``C`` unweighted; in
        Crammer–Singer each sample its class's weight.
        ``"balanced"`` is ``n_samples / (n_classes * count(class))``, the samples
        counted with their ``sample_weight`` (as in scikit-learn).
    verbose : int, default=0
        ``> 0`` prints one line per problem after the fit.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_weight_ : ndarray of shape (n_classes,)
        The weight of each class (all 1 without ``class_weight``).
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        A ``scipy.sparse`` CSR matrix after :meth:`sparsify`.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        (The float 0.0 without ``fit_intercept``, as in scikit-learn.)
    dual_coef_ : ndarray of shape (1, n_samples) or (n_classes, n_samples)
        The multipliers ``alpha_i`` of each binary problem (for the primal
        solvers, ``2 C_i max(0, 1 - y_i f(x_i))``, the dual point of the
        primal solution); for Crammer–Singer, row ``m`` holds LIBLINEAR's
        ``alpha_i^m``.
    solver_ : str
        The method used: ``"dual_cd"``, ``"primal_newton"``, ``"l1_cd"`` or
        ``"crammer_singer"``.
    n_iter_ : int
        Largest number of iterations over the problems, as LIBLINEAR counts
        them (see ``max_iter``).
    n_features_in_ : int
    """

    def __init__(self, C=1.0, loss="squared_hinge", tol=1e-4, max_iter=1000, fit_intercept=True,
                 intercept_scaling=1.0, random_state=None, shrinking=True, *, penalty="l2",
                 dual="auto", multi_class="ovr", class_weight=None, verbose=0):
        self.penalty = penalty
        self.dual = dual
        self.multi_class = multi_class
        self.class_weight = class_weight
        self.verbose = verbose
        self.C = C
        self.loss = loss
        self.tol = tol
        self.max_iter = max_iter
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.random_state = random_state
        self.shrinking = shrinking

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _check_params(self):
        check_positive(self.C, "C", hint="Use a positive, finite C such as C=1.0 (a hard "
                                         "margin needs svmlib.SVC with C=np.inf).")
        check_option(self.loss, "loss", LOSSES)
        check_positive(self.tol, "tol", hint="Use a small positive tolerance such as tol=1e-4.")
        check_int(self.max_iter, "max_iter", minimum=1,
                  hint="Use max_iter=1000 (passes over the data).")
        if not isinstance(self.fit_intercept, (bool, np.bool_)):
            raise ValueError(f"fit_intercept must be True or False; got "
                             f"fit_intercept={self.fit_intercept!r}.")
        check_positive(self.intercept_scaling, "intercept_scaling",
                       hint="Use intercept_scaling=1.0 (larger values regularize b less).")
        if self.random_state is not None:
            check_int(self.random_state, "random_state", minimum=0,
                      hint="Use an integer seed such as random_state=0, or None.")
        check_option(self.penalty, "penalty", ("l2", "l1"))
        check_option(self.multi_class, "multi_class", ("ovr", "crammer_singer"))
        _check_dual(self.dual)
        _check_verbose(self.verbose)
        if self.multi_class == "crammer_singer":
            return                      # loss, penalty and dual are ignored (scikit-learn)
        if self.penalty == "l1" and self.loss == "hinge":
            raise ValueError(
                f"Unsupported set of arguments: The combination of penalty='l1' and "
                f"loss='hinge' is not supported, Parameters: penalty='l1', loss='hinge', "
                f"dual={self.dual!r}. Use loss='squared_hinge' with penalty='l1'.")
        if self.penalty == "l1" and _is_bool(self.dual, True):
            raise ValueError(
                "Unsupported set of arguments: The combination of penalty='l1' and "
                "loss='squared_hinge' are not supported when dual=True, Parameters: "
                "penalty='l1', loss='squared_hinge', dual=True. Use dual=False (or 'auto').")
        if self.loss == "hinge" and _is_bool(self.dual, False):
            raise ValueError(
                "Unsupported set of arguments: The combination of penalty='l2' and "
                "loss='hinge' are not supported when dual=False, Parameters: penalty='l2', "
                "loss='hinge', dual=False. Use dual=True (or 'auto'), or "
                "loss='squared_hinge'.")

    def _solver(self, X):
        """The method that scikit-learn's rules choose for these options and this ``X``."""
        if self.multi_class == "crammer_singer":
            return "crammer_singer"
        if self.penalty == "l1":
            return "l1_cd"
        if self.loss == "hinge":
            return "dual_cd"
        if isinstance(self.dual, str):          # "auto": the dual when n < p
            return "dual_cd" if X.shape[0] < X.shape[1] else "primal_newton"
        return "dual_cd" if self.dual else "primal_newton"

    def fit(self, X, y, sample_weight=None):
        """Fit one binary problem (two classes), one per class (one-vs-rest), or the joint problem.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or sparse matrix
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Multiplies ``C`` (and the class weight) of each sample, ``>= 0``; a
            weight of 0 leaves the sample out.

        Returns
        -------
        self : LinearSVC
        """
        self._check_params()
        if y is None:
            raise ValueError("LinearSVC requires y to be passed, but the target y is None. "
                             "Call fit(X, y) with the class labels.")
        X = self._check_X(X, reset=True)
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            warnings.warn("A column-vector y was passed when a 1d array was expected. Please "
                          "change the shape of y to (n_samples,), for example using ravel().",
                          DataConversionWarning, stacklevel=2)
            y = y.ravel()
        if y.ndim != 1:
            raise ValueError(f"y must be a 1-D array of labels; got shape {y.shape}. Use "
                             f"y.ravel() if it is a column vector.")
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"X and y must have the same number of samples; got X with "
                             f"{X.shape[0]} rows and y with {y.shape[0]} labels.")
        target = type_of_target(y)
        if target in ("continuous", "continuous-multioutput"):
            raise ValueError(f"Unknown label type: {target}. y holds real numbers, but "
                             f"LinearSVC needs class labels; bin the values or use a regressor.")
        classes, y_index = np.unique(y, return_inverse=True)
        if classes.shape[0] < 2:
            raise ValueError(
                f"y must contain at least two classes; got only one class "
                f"({classes.tolist()!r}). A classifier needs examples of both classes: check "
                f"how the data were split or filtered.")
        self.classes_ = classes
        weights = _check_sample_weight(sample_weight, X.shape[0])
        self.class_weight_ = _class_weights(self.class_weight, classes, y, weights)
        self.solver_ = self._solver(X)
        seed = 0 if self.random_state is None else self.random_state
        common = dict(C=float(self.C), fit_intercept=bool(self.fit_intercept),
                      intercept_scaling=float(self.intercept_scaling), tol=float(self.tol),
                      max_iter=int(self.max_iter))
        if self.solver_ == "crammer_singer":
            self._fit_crammer_singer(X, y_index, weights, seed, common)
        else:
            self._fit_one_vs_rest(X, y_index, weights, seed, common)
        if not self.fit_intercept:
            self.intercept_ = 0.0
        if self.n_iter_ >= self.max_iter:
            unit = "Newton steps" if self.solver_ == "primal_newton" else "passes"
            warnings.warn(
                # scikit-learn's sentence first: code that filters this warning by
                # its message (as scikit-learn's own tests do) finds it
                f"Liblinear failed to converge, increase the number of iterations. "
                f"LinearSVC did not converge in max_iter={self.max_iter} {unit} (tol="
                f"{self.tol:g}). Increase max_iter, scale the features (e.g. with "
                f"sklearn.preprocessing.StandardScaler), or use a smaller C.",
                ConvergenceWarning, stacklevel=2)
        return self

    def _fit_one_vs_rest(self, X, y_index, weights, seed, common):
        classes = self.classes_
        targets = [1] if classes.shape[0] == 2 else range(classes.shape[0])
        coefs, intercepts, duals, iters = [], [], [], []
        for k in targets:
            y_pm = np.where(y_index == k, 1.0, -1.0)
            # LIBLINEAR's weights: a binary problem weights both classes, the
            # one-vs-rest problem of class k only the samples of k.
            if classes.shape[0] == 2:
                C_scale = self.class_weight_[y_index]
            else:
                C_scale = np.where(y_index == k, self.class_weight_[k], 1.0)
            if weights is not None:
                C_scale = C_scale * weights
            scale = None if weights is None and np.all(C_scale == 1.0) else C_scale
            if self.solver_ == "dual_cd":
                result = solve_linear_dual_cd(X, y_pm, loss=self.loss, random_state=seed,
                                              shrinking=bool(self.shrinking),
                                              sample_weight=scale, **common)
            elif self.solver_ == "primal_newton":
                result = solve_linear_primal_newton(X, y_pm, sample_weight=scale, **common)
            else:
                result = solve_linear_l1_cd(X, y_pm, random_state=seed, sample_weight=scale,
                                            **common)
            if self.verbose:
                print(f"LinearSVC ({self.solver_}): problem {classes[k]!r} against the rest: "
                      f"{result['n_iter']} iterations, "
                      f"{int(np.count_nonzero(result['alpha']))} support vectors, "
                      f"{int(np.count_nonzero(result['w']))} nonzero weights")
            coefs.append(result["w"])
            intercepts.append(result["b"])
            duals.append(result["alpha"])
            iters.append(result["n_iter"])
        self.coef_ = np.array(coefs)
        self.intercept_ = np.array(intercepts)
        self.dual_coef_ = np.array(duals)
        self.n_iter_ = int(max(iters))

    def _fit_crammer_singer(self, X, y_index, weights, seed, common):
        C_scale = self.class_weight_[y_index]
        if weights is not None:
            C_scale = C_scale * weights
        scale = None if weights is None and np.all(C_scale == 1.0) else C_scale
        result = solve_crammer_singer(X, y_index, self.classes_.shape[0], random_state=seed,
                                      sample_weight=scale, **common)
        W, b = result["W"], result["b"]
        if self.verbose:
            print(f"LinearSVC (crammer_singer): {result['n_iter']} passes, "
                  f"{int(np.count_nonzero(np.any(result['alpha'] != 0, axis=1)))} support "
                  f"vectors")
        if self.classes_.shape[0] == 2:         # one weight vector, as scikit-learn keeps it
            W, b = (W[1] - W[0])[None, :], np.array([b[1] - b[0]])
        self.coef_ = W
        self.intercept_ = b
        self.dual_coef_ = result["alpha"].T.copy()
        self.n_iter_ = result["n_iter"]

    def decision_function(self, X):
        """``<w, x> + b`` of each binary problem (or of each class, for Crammer–Singer).

        Returns
        -------
        ndarray of shape (n_samples,) for two classes (> 0 means ``classes_[1]``)
        or (n_samples, n_classes).
        """
        check_is_fitted(self, "coef_")
        X = self._check_X(X, reset=False)
        scores = safe_sparse_dot(X, self.coef_.T, dense_output=True)
        scores = np.asarray(scores) + self.intercept_
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict(self, X):
        """Predicted class labels, ndarray of shape (n_samples,)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def sparsify(self):
        """Store ``coef_`` as a ``scipy.sparse`` CSR matrix (worth it when most weights are 0, e.g. with ``penalty="l1"``).

        Predictions do not change.  Returns ``self``.
        """
        check_is_fitted(self, "coef_")
        self.coef_ = scipy.sparse.csr_matrix(self.coef_)
        return self

    def densify(self):
        """Store ``coef_`` as a dense ndarray again (the default after fit).  Returns ``self``."""
        check_is_fitted(self, "coef_")
        if scipy.sparse.issparse(self.coef_):
            self.coef_ = self.coef_.toarray()
        return self

    def objective(self, X, y):
        """The objective of each problem at the fitted weights (the one its solver minimized).

        ``linear_svm_primal`` (penalty "l2"), ``linear_svm_l1_primal``
        (penalty "l1") per binary problem, or ``crammer_singer_primal``.

        Returns
        -------
        ndarray of shape (1,) or (n_classes,)
        """
        check_is_fitted(self, "coef_")
        X = self._check_X(X, reset=False)
        y = np.asarray(y)
        coef = self.coef_.toarray() if scipy.sparse.issparse(self.coef_) else self.coef_
        intercept = np.broadcast_to(np.asarray(self.intercept_, dtype=float), (coef.shape[0],))
        args = dict(intercept_scaling=float(self.intercept_scaling),
                    fit_intercept=bool(self.fit_intercept))
        if self.solver_ == "crammer_singer":
            if self.classes_.shape[0] == 2:
                raise ValueError("objective() of a binary Crammer-Singer fit is not defined: "
                                 "coef_ keeps only the difference of the two classes' weights. "
                                 "Use crammer_singer_primal on solve_crammer_singer's result.")
            y_index = np.searchsorted(self.classes_, y)
            return np.array([crammer_singer_primal(coef, intercept, X, y_index,
                                                   C=float(self.C), **args)])
        targets = [1] if self.classes_.shape[0] == 2 else range(self.classes_.shape[0])
        values = []
        for r, k in enumerate(targets):
            y_pm = np.where(y == self.classes_[k], 1.0, -1.0)
            if self.solver_ == "l1_cd":
                values.append(linear_svm_l1_primal(coef[r], intercept[r], X, y_pm,
                                                   C=float(self.C), **args))
            else:
                values.append(linear_svm_primal(coef[r], intercept[r], X, y_pm, C=float(self.C),
                                                loss=self.loss, **args))
        return np.array(values)


class LinearSVR(RegressorMixin, _LinearInput, BaseEstimator):
    """Linear support vector regression by dual coordinate descent (LIBLINEAR's method).

    Solves the problem of ``sklearn.svm.LinearSVR``: the primal
    ``linear_svr_primal``, the bias the weight of a constant feature
    ``intercept_scaling`` (regularized, as in LIBLINEAR), through its dual
    (Ho & Lin, 2012; LIBLINEAR's solvers 13 and 12).

    Parameters
    ----------
    epsilon : float, default=0.0
        Half-width of the tube ``|y - f(x)| <= epsilon`` in which errors cost
        nothing (``>= 0``; it depends on the scale of ``y``).
    tol : float, default=1e-4
        Stop when the sum of the violations of the optimality conditions over
        a pass is at most ``tol`` times that of the first pass.
    C : float, default=1.0
        Penalty of the loss, ``> 0`` and finite.
    loss : {"epsilon_insensitive", "squared_epsilon_insensitive"}, default="epsilon_insensitive"
        The epsilon-insensitive loss ``max(0, |r| - epsilon)`` (the SVR of
        LIBSVM) or its square.
    fit_intercept : bool, default=True
        Learn a bias (as the weight of a constant feature).
    intercept_scaling : float, default=1.0
        The value ``s`` of the constant feature; a larger ``s`` regularizes
        the bias less.
    dual : "auto", True or False, default="auto"
        scikit-learn's rules: the epsilon-insensitive loss has only a dual
        solver (``dual=False`` raises ValueError); the squared loss has both,
        and ``"auto"`` picks the dual when ``n_samples < n_features``.  The
        squared loss's primal (``dual=False``) is solved by LIBLINEAR's
        trust-region Newton method (its solver 11), whose ``n_iter_`` counts
        Newton steps.
    verbose : int, default=0
        ``> 0`` prints one line after the fit: passes, primal and dual
        objectives, number of support vectors.
    random_state : int, RandomState instance or None, default=None
        Seed of the order in which coordinates are visited (``None`` is seed
        0, so that fits are repeatable).
    max_iter : int, default=1000
        Maximal number of passes over the data (``>= 1``).

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : ndarray of shape (1,), or the float 0.0 without ``fit_intercept``
        (as in scikit-learn).
    n_iter_ : int
        Passes over the data (dual) or Newton steps (primal).
    solver_ : str
        ``"dual_cd"`` or ``"primal_newton"``.
    n_features_in_ : int
    """

    def __init__(self, *, epsilon=0.0, tol=1e-4, C=1.0, loss="epsilon_insensitive",
                 fit_intercept=True, intercept_scaling=1.0, dual="auto", verbose=0,
                 random_state=None, max_iter=1000):
        self.epsilon = epsilon
        self.tol = tol
        self.C = C
        self.loss = loss
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.dual = dual
        self.verbose = verbose
        self.random_state = random_state
        self.max_iter = max_iter

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _check_params(self):
        check_nonnegative(self.epsilon, "epsilon",
                          hint="Use epsilon=0.0 (the default) or a positive tube half-width.")
        check_positive(self.tol, "tol", hint="Use a small positive tolerance such as tol=1e-4.")
        check_positive(self.C, "C", hint="Use a positive, finite C such as C=1.0.")
        check_option(self.loss, "loss", SVR_LOSSES)
        if not isinstance(self.fit_intercept, (bool, np.bool_)):
            raise ValueError(f"fit_intercept must be True or False; got "
                             f"fit_intercept={self.fit_intercept!r}.")
        check_positive(self.intercept_scaling, "intercept_scaling",
                       hint="Use intercept_scaling=1.0 (larger values regularize b less).")
        _check_dual(self.dual)
        if _is_bool(self.dual, False):
            if self.loss == "epsilon_insensitive":
                raise ValueError(
                    "Unsupported set of arguments: The combination of penalty='l2' and "
                    "loss='epsilon_insensitive' are not supported when dual=False, "
                    "Parameters: penalty='l2', loss='epsilon_insensitive', dual=False. "
                    "Use dual=True (or 'auto'), or loss='squared_epsilon_insensitive'.")
        _check_verbose(self.verbose)
        check_int(self.max_iter, "max_iter", minimum=1,
                  hint="Use max_iter=1000 (passes over the data).")
        return _seed_from(self.random_state)

    def fit(self, X, y, sample_weight=None):
        """Fit the linear SVR.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or sparse matrix
        y : array-like of shape (n_samples,)
            The targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample ``i`` gets the penalty ``C * sample_weight[i]`` (``>= 0``; a
            weight of 0 leaves the sample out).

        Returns
        -------
        self : LinearSVR
        """
        seed = self._check_params()
        X, y = check_estimator_X_y_regression(
            X, y, type(self).__name__, check_X=lambda X: self._check_X(X, reset=True))
        weights = _check_sample_weight(sample_weight, X.shape[0])
        common = dict(C=float(self.C), epsilon=float(self.epsilon),
                      fit_intercept=bool(self.fit_intercept),
                      intercept_scaling=float(self.intercept_scaling), tol=float(self.tol),
                      max_iter=int(self.max_iter), sample_weight=weights)
        primal = self.loss == "squared_epsilon_insensitive" and (
            _is_bool(self.dual, False) or (isinstance(self.dual, str)
                                           and X.shape[0] >= X.shape[1]))
        primal_solver = primal
        self.solver_ = "primal_newton" if primal else "dual_cd"
        if primal:
            result = solve_linear_primal_newton(X, y, **common)
        else:
            result = solve_linear_svr_dual_cd(X, y, loss=self.loss, random_state=seed, **common)
        self.coef_ = result["w"]
        self.intercept_ = np.array([result["b"]]) if self.fit_intercept else 0.0
        self.n_iter_ = result["n_iter"]
        if self.verbose:
            args = dict(C=float(self.C), epsilon=float(self.epsilon), loss=self.loss,
                        intercept_scaling=float(self.intercept_scaling),
                        fit_intercept=bool(self.fit_intercept), sample_weight=weights)
            primal = linear_svr_primal(result["w"], result["b"], X, y, **args)
            if "beta" in result:
                beta = result["beta"]
            else:   # the dual point of the primal solution: -2 C_i (r_i -+ epsilon) outside the tube
                r = np.asarray(X @ result["w"]).ravel() + result["b"] - y
                excess = np.sign(r) * np.maximum(0.0, np.abs(r) - float(self.epsilon))
                beta = -2.0 * float(self.C) * (1.0 if weights is None else weights) * excess
            dual = linear_svr_dual(beta, X, y, **args)
            unit = "Newton steps" if primal_solver else "passes"
            print(f"LinearSVR ({self.solver_}): {self.n_iter_} {unit}, primal objective "
                  f"{primal:.6g}, dual objective {dual:.6g}, {int(np.count_nonzero(beta))} "
                  f"support vectors")
        if not result["converged"]:
            warnings.warn(
                f"Liblinear failed to converge, increase the number of iterations. "
                f"LinearSVR did not converge in max_iter={self.max_iter} passes (tol="
                f"{self.tol:g}). Increase max_iter, scale the features (e.g. with "
                f"sklearn.preprocessing.StandardScaler), or use a smaller C.",
                ConvergenceWarning, stacklevel=2)
        return self

    def predict(self, X):
        """``<w, x> + b`` for every row of ``X``, ndarray of shape (n_samples,)."""
        check_is_fitted(self, "coef_")
        X = self._check_X(X, reset=False)
        return np.asarray(X @ self.coef_).ravel() + np.ravel(self.intercept_)[0]


def _check_dual(dual):
    if not (isinstance(dual, str) and dual == "auto") and not isinstance(dual, (bool, np.bool_)):
        raise ValueError(f"dual must be 'auto', True or False; got dual={dual!r}. Leave "
                         f"dual='auto' to let the loss and the data's shape decide.")


def _is_bool(value, truth):
    """Whether ``value`` is the bool ``truth`` (Python's or NumPy's), not a string such as "auto"."""
    return isinstance(value, (bool, np.bool_)) and bool(value) is truth


def _check_verbose(verbose):
    if isinstance(verbose, bool) or not isinstance(verbose, (int, np.integer)) or verbose < 0:
        raise ValueError(f"verbose must be a non-negative int; got verbose={verbose!r}. Use "
                         f"verbose=0 (silent) or verbose=1.")


def _class_weights(class_weight, classes, y, sample_weight=None):
    """One weight per class: None -> ones, "balanced", or a dict {label: weight}.

    "balanced" counts each sample with its ``sample_weight``, as scikit-learn does.
    """
    if class_weight is None:
        return np.ones(classes.shape[0])
    if isinstance(class_weight, str):
        check_option(class_weight, "class_weight", ("balanced",))
    elif not isinstance(class_weight, dict):
        raise ValueError(f"class_weight must be None, 'balanced' or a dict {{label: weight}}; "
                         f"got class_weight={class_weight!r}.")
    else:
        for label, value in class_weight.items():
            check_nonnegative(value, f"class_weight[{label!r}]",
                              hint="Use a finite weight >= 0 for every class.")
    from sklearn.utils.class_weight import compute_class_weight

    return compute_class_weight(class_weight, classes=classes, y=y,
                                sample_weight=sample_weight).astype(np.float64)


def _seed_from(random_state):
    """The visiting order's seed: None -> 0, an int >= 0 as is, a RandomState draws one."""
    if random_state is None:
        return 0
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(np.iinfo(np.int32).max))
    return check_int(random_state, "random_state", minimum=0,
                     hint="Use an integer seed such as random_state=0, None, or a "
                          "numpy.random.RandomState.")


def _check_sample_weight(sample_weight, n_samples):
    """``None``, or the weights as a float64 array of length ``n_samples``, finite and ``>= 0``."""
    if sample_weight is None:
        return None
    if isinstance(sample_weight, (int, float, np.number)) and not isinstance(sample_weight, bool):
        weights = np.full(n_samples, float(sample_weight))
    else:
        weights = check_array(sample_weight, "sample_weight", ndim=1)
    if weights.shape[0] != n_samples:
        raise ValueError(f"sample_weight.shape == ({weights.shape[0]},), expected "
                         f"({n_samples},): one weight per sample. Pass one weight per row of X.")
    if not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise ValueError("sample_weight must be finite and non-negative; got "
                         f"{int(np.sum(weights < 0))} negative value(s). Use weights >= 0 "
                         f"(0 leaves a sample out).")
    if not np.any(weights > 0):
        raise ValueError("sample_weight must have at least one positive weight; got only "
                         "zeros, which leave every sample out. Give some samples a weight > 0.")
    return weights


def _as_dense(X):
    """Validate dense input (real, 2-D, finite) with messages that say what to do."""
    if not isinstance(X, np.ndarray):
        try:
            X = np.asarray(X)
        except (TypeError, ValueError):
            pass  # check_array below explains what is wrong
    if np.iscomplexobj(X):
        raise ValueError("Complex data not supported: X must be real; got complex numbers. "
                         "Pass X.real if the imaginary parts are zero.")
    if isinstance(X, np.ndarray) and X.dtype == object:
        try:
            X = X.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"X must contain only numbers; got an object array that cannot "
                            f"be converted ({exc}). Encode the features as numbers first.") \
                from None
    shape = np.shape(X)
    if len(shape) == 1:
        raise ValueError(
            f"X must be a 2-D array; got a 1-D array of shape {shape}. Reshape your data with "
            f"X.reshape(-1, 1) if it has a single feature or X.reshape(1, -1) if it is a "
            f"single sample.")
    if len(shape) == 2 and shape[1] == 0:
        raise ValueError(f"X has 0 feature(s) (shape={shape}) while a minimum of 1 is "
                         f"required. Pass data with at least one column.")
    return check_array(X, "X")
