"""The dual quadratic program of the SVM, and what every solver of it shares.

Every solver in svmlib solves the same problem, stated once here (as LIBSVM
states its generic QP once above its ``Solver`` class)::

    minimize over alpha   f(alpha) = 1/2 alpha^T Q alpha - 1^T alpha
    subject to            y^T alpha = 0,
                          0 <= alpha_i <= C   (i = 1..n),

with ``Q[i, j] = y_i y_j K[i, j]``.  ``C = np.inf`` is the hard margin (only
``alpha_i >= 0``).  Its gradient is ``grad = Q alpha - 1``.  The book states
the same problem as the maximization of ``D(alpha) = -f(alpha)``
(Book: (eq-dual-hard), (eq-soft-dual), (eq-smo-dual)).

The solvers (:func:`svmlib.qp.solve_dual_slsqp`, :func:`svmlib.smo.solve_dual_smo`,
and :func:`svmlib.primal.solve_primal_pegasos` for the primal) share what is here:
the result record :class:`SolverResult`, the checks of their inputs, the bias
rule :func:`compute_intercept`, and the feasibility tests of the problems with
``C = inf``: :func:`check_separable` (the hard margin) and
:func:`check_tube_feasible` (ε-SVR's hard tube), which raise
:class:`svmlib.NotSeparableError` when there is no solution.
"""

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse
from scipy import optimize

from ._validation import check_array, check_positive

__all__ = [
    "SolverResult",
    "compute_intercept",
    "check_separable",
    "check_tube_feasible",
    "check_dual_inputs",
    "check_upper_bounds",
    "NotSeparableError",
    "LP_CHECK_MAX_N",
]


#: The kernel-space feasibility LP has n + 1 unknowns and a dense n x (n + 1)
#: matrix, so its cost grows faster than the fit's; above this many points it
#: is skipped and SMO's divergence guard detects a hard margin without
#: solution instead.
LP_CHECK_MAX_N = 1000


class NotSeparableError(ValueError):
    """Raised when a problem with ``C = inf`` has no solution.

    For classification, the hard margin: the classes are not separable.  For
    ε-SVR, the hard tube: no function stays within ``epsilon`` of every
    target.  In both cases the dual objective grows without bound.
    """


NOT_SEPARABLE_MESSAGE = (
    "the data are not linearly separable{where}, so the hard-margin problem "
    "(C=inf) has no solution: its dual objective grows without bound. Use a "
    "finite C (soft margin), e.g. C=1.0{kernel_hint}."
)

NO_TUBE_MESSAGE = (
    "no function{where} stays within epsilon={epsilon:g} of every target, so the hard-tube "
    "problem (SVR with C=inf) has no solution: its dual objective grows without bound. Use a "
    "finite C, e.g. C=1.0 (a large C such as C=1e6 still fits closely), or a larger "
    "epsilon{kernel_hint}."
)


@dataclass(frozen=True)
class SolverResult:
    """What a solver returns: the solution and a record of the run.

    Attributes
    ----------
    alpha : ndarray of shape (n_samples,) or None
        The dual multipliers (``None`` for a primal solver).
    b : float
        The bias (intercept) of ``f(x) = sum_i alpha_i y_i k(x_i, x) + b``.
    n_iter : int
        Iterations (SMO: pair updates; SLSQP: its iterations; Pegasos:
        stochastic steps).
    objective : float
        For dual solvers the dual objective ``D(alpha) = 1^T alpha - 1/2
        alpha^T Q alpha`` that the book maximizes (LIBSVM prints ``-D`` as
        ``obj``); for the primal solver the primal objective.
    kkt_violation : float
        The maximal violation ``m(alpha) - M(alpha)`` of the dual optimality
        conditions (see :func:`svmlib.objectives.max_kkt_violation`); ``nan``
        for the primal solver.
    time : float
        Wall-clock seconds spent in the solver.
    converged : bool
        Whether the stopping rule was met (not the iteration limit).
    solver : str
        ``"slsqp"``, ``"smo"`` or ``"pegasos"``.
    w : ndarray of shape (n_features,) or None
        The weight vector, for the primal solver (and for dual solvers
        when the caller asks for it).
    trace : tuple or None
        Optional per-iteration record (see each solver).
    info : dict
        Solver-specific extras (cache statistics, shrinking, messages).
    """

    alpha: np.ndarray | None
    b: float
    n_iter: int
    objective: float
    kkt_violation: float
    time: float
    converged: bool = True
    solver: str = ""
    w: np.ndarray | None = None
    trace: tuple | None = None
    info: dict = field(default_factory=dict)

    @property
    def support(self):
        """Indices ``i`` with ``alpha_i > 0``, ndarray of shape (n_SV,)."""
        if self.alpha is None:
            raise AttributeError("a primal solution has no multipliers")
        return np.flatnonzero(self.alpha > 0)

    def __repr__(self):
        kind = "alpha" if self.alpha is not None else "w"
        size = (self.alpha if self.alpha is not None else self.w).shape[0]
        return (f"SolverResult(solver={self.solver!r}, {kind}: {size} values, "
                f"b={self.b:.6g}, n_iter={self.n_iter}, "
                f"objective={self.objective:.6g}, "
                f"kkt_violation={self.kkt_violation:.3g}, "
                f"converged={self.converged})")


def check_dual_inputs(K, y, C):
    """Validate ``(K, y, C)`` for a dual solver.

    Returns
    -------
    K : ndarray of shape (n_samples, n_samples) or None
    y : ndarray of shape (n_samples,) with values -1.0 / +1.0
    C : float (possibly inf)
    """
    y = check_array(y, "y", ndim=1)
    if not np.all(np.isin(y, (-1.0, 1.0))):
        bad = np.unique(y[~np.isin(y, (-1.0, 1.0))])[:5]
        raise ValueError(
            f"y must contain only the labels -1 and +1; got other values "
            f"{bad.tolist()!r}. Map the two classes to -1/+1 first (or use "
            f"svmlib.SVC, which accepts any two labels)."
        )
    if np.unique(y).shape[0] < 2:
        raise ValueError(
            f"y must contain both labels -1 and +1; got only {y[0]:+.0f}. A "
            f"classifier needs examples of both classes."
        )
    if np.ndim(C) == 0:
        C = check_positive(C, "C", allow_inf=True,
                           hint="Use a positive C such as C=1.0 (np.inf for a hard margin).")
    else:
        C = check_upper_bounds(C, y.shape[0])
    if K is not None:
        K = check_array(K, "K")
        if K.shape != (y.shape[0], y.shape[0]):
            raise ValueError(
                f"K must be the square Gram matrix of the {y.shape[0]} training "
                f"points; got shape {K.shape}. Compute K = kernel(X, X)."
            )
    return K, y, C


def check_upper_bounds(C, n_samples):
    """Validate per-sample upper bounds ``C_t`` (an array of shape (n_samples,)).

    Every entry must be a number ``> 0`` (``np.inf`` allowed: a hard-margin
    constraint for that sample).  Returns a float64 copy.
    """
    try:
        bounds = np.array(C, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"C must be a number > 0 or an array of such numbers; got an object "
                         f"of type {type(C).__name__}. Pass C=1.0 or a float array.") from None
    if bounds.shape != (n_samples,):
        raise ValueError(
            f"C as an array must hold one upper bound per sample, shape ({n_samples},); got "
            f"shape {bounds.shape}. Pass a scalar C or an array of length {n_samples}.")
    bad = np.isnan(bounds) | (bounds <= 0)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"C must hold numbers > 0 (np.inf allowed); got C[{k}]={float(bounds[k])!r} "
            f"({int(bad.sum())} such entries). Drop samples whose bound would be 0 (zero "
            f"weight) before calling the solver.")
    return bounds


def compute_intercept(alpha, grad, y, C, atol=0.0):
    """The bias ``b`` at a dual solution, as LIBSVM computes it.

    At the solution every free multiplier (``0 < alpha_i < C``) sits on the
    margin, ``y_i f(x_i) = 1``, which gives ``b = -y_i grad_i``.  LIBSVM
    averages this over all free multipliers (more stable than one point);
    if there is none it takes the midpoint of the interval of feasible
    ``b`` allowed by the multipliers at the bounds.

    Book: (eq-bias-average), (eq-soft-bias).

    Parameters
    ----------
    alpha : ndarray of shape (n_samples,)
    grad : ndarray of shape (n_samples,)
        ``Q @ alpha - 1``.
    y : ndarray of shape (n_samples,)
    C : float
    atol : float, default=0.0
        Multipliers within ``atol`` of a bound count as at that bound.

    Returns
    -------
    float
        ``b`` (LIBSVM stores ``rho = -b``).
    """
    y_grad = y * grad
    at_upper = alpha >= C - atol
    at_lower = alpha <= atol
    free = ~(at_upper | at_lower)
    if free.any():
        rho = float(y_grad[free].mean())
    else:
        # For points at a bound, KKT only bounds rho from one side.
        upper_side = (at_upper & (y < 0)) | (at_lower & (y > 0))
        lower_side = (at_upper & (y > 0)) | (at_lower & (y < 0))
        ub = float(y_grad[upper_side].min()) if upper_side.any() else np.inf
        lb = float(y_grad[lower_side].max()) if lower_side.any() else -np.inf
        rho = (ub + lb) / 2 if np.isfinite(ub) and np.isfinite(lb) else (
            ub if np.isfinite(ub) else lb)
    return -rho


def _find_function(A, rows, signs, bounds):
    """A function ``f = A c + b`` with ``signs[k] * f[rows[k]] <= bounds[k]`` for every ``k``.

    The linear feasibility problem behind both hard problems (``C = inf``):
    the unknowns are ``c`` (``w`` when ``A`` is ``X``, or ``beta`` with ``w =
    sum_j beta_j phi(x_j)`` when ``A`` is ``K``) and ``b``; SciPy's HiGHS
    linear-programming solver decides it.  Restricting ``w`` to the span of
    the ``phi(x_j)`` loses nothing: the part of ``w`` orthogonal to it does
    not change ``f`` at the training points.

    Returns
    -------
    ndarray of shape (n_columns,) or None or str
        ``c`` of a feasible function; ``None`` if the problem is infeasible;
        ``"unknown"`` if the solver did not finish.
    """
    ones = np.ones((rows.shape[0], 1))
    if scipy.sparse.issparse(A):      # (HiGHS takes sparse constraints: no dense copy of X)
        A = scipy.sparse.csr_matrix(A, dtype=np.float64)
        A_ub = scipy.sparse.diags(signs) @ scipy.sparse.hstack([A[rows], ones], format="csr")
    else:
        A = np.asarray(A, dtype=np.float64)
        A_ub = signs[:, None] * np.hstack([A[rows], ones])
    m = A.shape[1]
    res = optimize.linprog(np.zeros(m + 1), A_ub=A_ub, b_ub=bounds,
                           bounds=[(None, None)] * (m + 1), method="highs")
    if res.status == 2:
        return None
    if res.status != 0 or res.x is None:
        return "unknown"
    return res.x[:m]


def _squared_norm(coef, X=None, K=None):
    """``||w||^2`` of ``w = coef`` (``X`` given) or ``w = sum_j coef_j phi(x_j)`` (``K`` given)."""
    if X is not None:
        return float(coef @ coef)
    return float(max(coef @ (np.asarray(K, dtype=np.float64) @ coef), 0.0))


def check_separable(y, K=None, X=None, where=""):
    """Raise :class:`NotSeparableError` if no hyperplane separates the data.

    Solves the linear feasibility problem ``y_i (<w, x_i> + b) >= 1`` (when
    ``X`` is given: ``n_features + 1`` unknowns) or, in the kernel's feature
    space, ``y_i ((K beta)_i + b) >= 1`` with ``w = sum_j beta_j phi(x_j)``
    (``n + 1`` unknowns), with SciPy's HiGHS linear-programming solver.
    The hard-margin problem has a solution exactly when this is feasible.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    K : ndarray of shape (n_samples, n_samples), default=None
    X : ndarray of shape (n_samples, n_features), default=None
        Give one of ``K`` and ``X``.
    where : str, default=""
        Appended to the message, e.g. " in the RBF kernel's feature space".

    Returns
    -------
    float
        ``||w||^2`` of the separating hyperplane that the linear program
        found (``beta^T K beta`` in feature space).  It satisfies
        ``y_i h(x_i) >= 1``, so it bounds the hard-margin optimum from above:
        ``||w*||^2 <= ||w||^2``, i.e. the maximum margin ``1/||w*||`` is at
        least ``1/||w||``.  :class:`svmlib.SVC` compares it with
        ``HARD_MARGIN_LIMIT`` (the tolerance SMO uses) to decide in advance
        that the hard-margin problem is solvable.
    """
    n = y.shape[0]
    # -y_i (A_i . c + b) <= -1
    coef = _find_function(X if X is not None else K, np.arange(n), -np.asarray(y, float),
                          -np.ones(n))
    if coef is None:
        hint = "" if X is not None else " or a more flexible kernel"
        raise NotSeparableError(NOT_SEPARABLE_MESSAGE.format(where=where, kernel_hint=hint))
    if isinstance(coef, str):
        return np.inf          # the LP did not finish: no bound
    return _squared_norm(coef, X=X, K=K)


def check_tube_feasible(z, epsilon, K=None, X=None, where=""):
    """Raise :class:`NotSeparableError` if no function lies within ``epsilon`` of every target.

    The regression counterpart of :func:`check_separable`.  ε-SVR with ``C =
    inf`` (a *hard tube*) asks for ``f(x) = <w, phi(x)> + b`` with
    ``|z_i - f(x_i)| <= epsilon`` for every ``i`` and the smallest ``||w||``.
    Whether any such ``f`` exists is a linear feasibility problem in ``(w,
    b)`` (``X`` given) or ``(beta, b)`` with ``w = sum_j beta_j phi(x_j)``
    (``K`` given): ``f_i - z_i <= epsilon`` and ``z_i - f_i <= epsilon``.
    If it is infeasible, the regression dual (the 2 n-variable problem of
    :mod:`svmlib.svr`, with box ``[0, inf)``) is unbounded, as the
    classification dual is on data that are not separable, and no solver
    can stop at an optimum: so this is checked first.

    Parameters
    ----------
    z : ndarray of shape (n_samples,)
        Targets.
    epsilon : float
        Half-width of the tube, ``>= 0``.
    K : ndarray of shape (n_samples, n_samples), default=None
    X : ndarray or sparse matrix of shape (n_samples, n_features), default=None
        Give one of ``K`` and ``X``.
    where : str, default=""
        Inserted into the message, e.g. " in the kernel's feature space".

    Returns
    -------
    float
        ``||w||^2`` of the function in the tube that the linear program
        found: an upper bound on the hard-tube optimum ``||w*||^2``.
    """
    z = np.asarray(z, dtype=np.float64)
    n = z.shape[0]
    rows = np.concatenate([np.arange(n), np.arange(n)])
    signs = np.concatenate([np.ones(n), -np.ones(n)])      # f_i <= z_i + eps, -f_i <= eps - z_i
    coef = _find_function(X if X is not None else K, rows, signs,
                          np.concatenate([z + epsilon, epsilon - z]))
    if coef is None:
        hint = "" if X is not None else ", or a more flexible kernel"
        raise NotSeparableError(NO_TUBE_MESSAGE.format(where=where, epsilon=epsilon,
                                                       kernel_hint=hint))
    if isinstance(coef, str):
        return np.inf
    return _squared_norm(coef, X=X, K=K)
