"""The general-solver route: the SVM dual handed to SciPy's SLSQP.

:func:`solve_dual_slsqp` hands the dual problem (stated in :mod:`svmlib.dual`)
to a general-purpose solver (SciPy's SLSQP, :cite:`kraft1988`).  It builds
the dense ``n x n`` matrix and costs about ``O(n^3)`` per iteration: fine for
a few hundred points, hopeless for tens of thousands (see :mod:`svmlib.smo`).
"""

import time
import warnings

import numpy as np
from scipy import optimize

from .dual import SolverResult, check_dual_inputs, check_separable, compute_intercept
from .objectives import dual_objective, kernel_matrix_Q, max_kkt_violation

__all__ = ["solve_dual_slsqp"]


def solve_dual_slsqp(K, y, C=np.inf, tol=1e-10, max_iter=1000, sv_threshold=1e-8,
                     check_feasible=True):
    """Solve the SVM dual with a general-purpose QP solver (SciPy's SLSQP).

    The problem is (Book: (eq-soft-dual); ``C = inf`` gives (eq-dual-hard))::

        minimize  1/2 alpha^T Q alpha - 1^T alpha
        s.t.      y^T alpha = 0,  0 <= alpha_i <= C,    Q = (y y^T) * K,

    passed to SLSQP with the box as ``bounds``, ``y^T alpha = 0`` as an
    equality constraint, and the exact gradient ``Q alpha - 1``.
    Afterwards multipliers below ``sv_threshold * max(1, max(alpha))`` are
    set to 0 (and those that close to ``C`` to ``C``): a general solver
    returns tiny non-zero values where the exact solution has zeros.  The
    bias follows :func:`~svmlib.dual.compute_intercept`.

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        Gram matrix.
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    C : float or array-like of shape (n_samples,), default=np.inf
        Box bound; ``np.inf`` for the hard margin; an array gives each
        multiplier its own bound (as :func:`svmlib.smo.solve_dual_smo`).
    tol : float, default=1e-10
        SLSQP's ``ftol`` (precision goal on the objective).
    max_iter : int, default=1000
        SLSQP's iteration limit.
    sv_threshold : float, default=1e-8
        Relative threshold below which a multiplier counts as 0.
    check_feasible : bool, default=True
        For ``C = inf``, first check with a linear program that the data
        are separable in the kernel's feature space (else no solution
        exists and SLSQP would return nonsense).

    Returns
    -------
    SolverResult
        ``alpha``, ``b`` and the record (``objective`` is ``D(alpha)``).

    Raises
    ------
    NotSeparableError
        If ``C = inf`` and the data are not separable.
    """
    start = time.perf_counter()
    K, y, C = check_dual_inputs(K, y, C)
    n = y.shape[0]
    if np.all(np.isinf(C)) and check_feasible:
        check_separable(y, K=K, where=" in the kernel's feature space")
    Q = kernel_matrix_Q(K, y)
    ones = np.ones(n)

    def fun(alpha):
        Qa = Q @ alpha
        return 0.5 * alpha @ Qa - alpha.sum(), Qa - ones

    upper = np.broadcast_to(C, (n,))
    bounds = [(0.0, None if np.isinf(c) else float(c)) for c in upper]
    constraint = {"type": "eq", "fun": lambda a: y @ a, "jac": lambda a: y}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = optimize.minimize(fun, np.zeros(n), jac=True, method="SLSQP",
                                bounds=bounds, constraints=[constraint],
                                options={"ftol": tol, "maxiter": max_iter})
    alpha = np.clip(res.x, 0.0, C)
    cut = sv_threshold * max(1.0, float(alpha.max()))
    alpha[alpha < cut] = 0.0
    near_upper = np.isfinite(upper) & (alpha > upper - cut)
    alpha[near_upper] = upper[near_upper]
    grad = Q @ alpha - 1.0
    b = compute_intercept(alpha, grad, y, C)
    return SolverResult(
        alpha=alpha, b=b, n_iter=int(res.nit),
        objective=dual_objective(alpha, Q),
        kkt_violation=max_kkt_violation(alpha, grad, y, C),
        time=time.perf_counter() - start, converged=bool(res.success),
        solver="slsqp", info={"message": str(res.message)},
    )
