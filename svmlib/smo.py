"""Sequential minimal optimization (SMO) for the SVM dual, as in LIBSVM.

The problem (Book: (eq-smo-dual); ``C = inf`` is the hard margin)::

    minimize over alpha   f(alpha) = 1/2 alpha^T Q alpha - 1^T alpha
    subject to            y^T alpha = 0,   0 <= alpha_t <= C,

with ``Q[s, t] = y_s y_t K[s, t]`` and gradient ``grad = Q alpha - 1``
(Book: (eq-smo-gradient)).

**The working-set rule, in words.**  Because of ``y^T alpha = 0`` no single
multiplier can move alone; SMO moves two at a time (Book: (eq-smo-pair)).
``alpha_t`` may move in the direction ``y_t`` if ``t`` is in
``I_up = {t : alpha_t < C, y_t = +1  or  alpha_t > 0, y_t = -1}`` and in the
direction ``-y_t`` if ``t`` is in ``I_low`` (the same with the signs of
``y_t`` swapped; Book: (eq-smo-index-sets)).  With ``score_t = -y_t grad_t``
(Book: (eq-smo-score)):

1. ``i`` is the index in ``I_up`` with the largest score ``m(alpha)``
   (the most violating "up" variable);
2. among the ``t`` in ``I_low`` with ``score_t < m(alpha)`` (the pairs that
   violate optimality together with ``i``), ``j`` is the one whose pair
   update decreases ``f`` the most, ``(m - score_t)^2 / a_it`` with the
   curvature ``a_it = K_ii + K_tt - 2 K_it`` (a second-order step, replaced
   by the guard ``TAU`` when it is not positive; Book: (eq-smo-wss2));
3. the pair ``(alpha_i, alpha_j)`` is minimized exactly along the
   constraint line and clipped to the box (:func:`analytic_pair_update`);
4. ``grad`` changes by ``Q[:, i] d_i + Q[:, j] d_j`` (Book: (eq-smo-grad-update)).

It stops when the maximal KKT violation ``m(alpha) - M(alpha)``, with
``M(alpha) = min_{t in I_low} score_t``, is at most ``tol``
(Book: (eq-smo-stopping)).  This is WSS 2 of Fan, Chen and Lin (2005)
:cite:`fan2005`, the rule of LIBSVM :cite:`chang2011`;
``selection="first_order"`` takes instead the maximal violating pair
(``j`` = argmin of the score over ``I_low``, :cite:`keerthi2001`;
Book: (eq-smo-wss1)).

**Kernel rows.**  Only rows ``Q[i]`` and ``Q[j]`` are needed per iteration.
They are computed on demand and kept in an LRU cache bounded by
``cache_size`` megabytes, so the ``n x n`` matrix is never built for large
``n`` (20,000 points would need 3.2 GB).  For the built-in kernels
(:func:`svmlib.kernels.get_kernel` with "linear", "rbf", "poly", "sigmoid") the rows
are computed and cached in compiled code (``svmlib/_smo_rows.py``); a kernel
given as a Python function gets them from :class:`KernelRowCache`.  When the
whole Gram matrix fits in the cache it is computed up front in blocks
(``precompute_kernel="auto"``): one matrix product is much faster than
``n`` separate rows computed in Python; for a built-in kernel only up to
``n = 1024``, beyond which its rows computed on demand in compiled code are
faster than building and storing the matrix.

**Shrinking.**  Every ``min(n, 1000)`` iterations, multipliers at a bound
whose score says they would only move further into the bound are set aside
(LIBSVM's rule); the working arrays are permuted so that the active set is a
prefix and every vector operation runs on that prefix only.  For the
variables set aside the gradient is not updated; it is rebuilt from
``grad_bar[t] = C sum_{s : alpha_s = C} Q[t, s]`` (maintained throughout)
plus the contribution of the free multipliers before the final check
(:cite:`joachims1999`, :cite:`chang2011`).

**Where the steps live.**  Each step above is a function of its own in
``svmlib/_smo_steps.py`` (``select_working_set``, ``update_pair``,
``update_gradient``, ``shrink``, ``reconstruct_gradient`` and the loop
``smo_loop`` that calls them), written as plain Python loops and compiled by
Numba; ``solve_dual_smo(..., compiled=False)`` runs the same functions as
plain Python and takes identical steps.  This module validates the input,
builds the state and the row source, and turns the result into a
:class:`~svmlib.dual.SolverResult`.
"""

import time
import warnings
from collections import OrderedDict

import numpy as np
import scipy.sparse
from sklearn.exceptions import ConvergenceWarning

from ._validation import check_array, check_option, check_positive, check_sparse
from . import _smo_rows as _rows
from . import _smo_steps as _steps
from .kernels import BoundKernel
from . import kernels as _kernels
from ._smo_steps import FREE, TAU
from .objectives import max_kkt_violation
from .dual import (LP_CHECK_MAX_N, NotSeparableError, SolverResult,
                   check_dual_inputs, check_separable, compute_intercept)

__all__ = ["solve_dual_smo", "analytic_pair_update", "KernelRowCache", "TAU"]

# TAU (from svmlib._smo_steps): guard on the curvature ``a_ij`` of the pair
# problem; a non-positive value (a non-PSD kernel, or two identical points) is
# replaced by ``TAU`` so that the step stays finite, as in Fan, Chen & Lin (2005).

#: Hard margin (C = inf): a margin below ``1 / sqrt(HARD_MARGIN_LIMIT)`` = 1e-4
#: times the radius ``R = max_t sqrt(K[t, t])`` of the data in feature space
#: counts as "not separable".  SMO stops once its dual objective exceeds
#: ``HARD_MARGIN_LIMIT / (2 R^2)`` (which proves such a margin), and the
#: separability test of :class:`svmlib.SVC` uses the same constant
#: (:func:`svmlib.dual.check_separable`).
HARD_MARGIN_LIMIT = 1e8

#: With ``verbose=True``, seconds between two progress lines (the clock is
#: read every 1,000 iterations, so a line appears at most that often).
VERBOSE_INTERVAL = 1.0

#: ``max_iter=-1`` (or None) runs SMO until its stopping rule holds, with no
#: limit on the iterations, as scikit-learn's LIBSVM does (its ``Solver``
#: checks ``max_iter != -1 && iter >= max_iter``).  Without ``verbose`` the
#: compiled loop then runs this many iterations per call (its state carries
#: over, so the steps are those of a single call), and Python gets control
#: between calls: a Ctrl-C stops a long solve within seconds.
NO_LIMIT_CHUNK = 10_000_000
#: ``precompute_kernel="auto"`` with a built-in kernel builds the Gram matrix
#: only up to this many entries (8 MB, n <= 1024): beyond it, rows computed on
#: demand by the compiled cache are faster than one n x n matrix product plus
#: its memory (measured at n = 2,000: RBF 0.80x LIBSVM's time against 0.92x;
#: linear kernel with C = 100, 1.37x against 1.70x).
AUTO_GRAM_MAX_VALUES = 2**20
# Temporary blocks of kernel values hold at most 2**22 values (32 MB), or 2**20
# (8 MB) when n > 4096, where memory matters more than the speed of big blocks.
_BLOCK_ELEMENTS = 2**22
_BLOCK_ELEMENTS_LARGE_N = 2**20
_LARGE_N = 4096


def analytic_pair_update(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, Q_ii, Q_jj, Q_ij, C,
                         C_j=None):
    """Minimize the dual exactly over ``(alpha_i, alpha_j)``, the others fixed.

    Moving along the line that keeps ``y_i alpha_i + y_j alpha_j`` fixed, the
    dual is a parabola with curvature ``a = Q_ii + Q_jj - 2 y_i y_j Q_ij``
    (``K_ii + K_jj - 2 K_ij``); its minimizer is clipped to the box
    ``[0, C_i] x [0, C_j]`` (Book: (eq-smo-update), (eq-smo-clip)).

    Parameters
    ----------
    alpha_i, alpha_j : float
        Current values.
    y_i, y_j : float
        Labels (+1 or -1).
    grad_i, grad_j : float
        Gradient components ``(Q alpha - 1)_i`` and ``_j``.
    Q_ii, Q_jj, Q_ij : float
        Entries of ``Q``.
    C : float
        Upper bound of ``alpha_i`` (may be ``inf``); also of ``alpha_j``
        unless ``C_j`` is given.
    C_j : float, default=None
        Upper bound of ``alpha_j`` when it differs from that of ``alpha_i``
        (per-sample weights: ``C_t = C * class_weight[y_t] * sample_weight_t``).

    Returns
    -------
    (float, float)
        The new ``alpha_i`` and ``alpha_j``.
    """
    return _steps.INTERPRETED.update_pair(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, Q_ii,
                                          Q_jj, Q_ij, C, C if C_j is None else C_j)


class KernelRowCache:
    """Least-recently-used cache of rows of ``Q``, bounded in megabytes.

    A row belongs to a training point (its original index) and is stored in
    the solver's working order; it may be computed only for a prefix of
    that order (the active set) and is extended when a longer piece is
    needed.

    Parameters
    ----------
    compute : callable
        ``compute(original_index, start, stop)`` returns the row's values at
        working positions ``start:stop``, ndarray of shape (stop - start,).
    cache_size : float
        Budget in megabytes (at least two rows are always kept).
    """

    def __init__(self, compute, cache_size):
        self.compute = compute
        self.budget = int(cache_size * 2**20 // 8)  # in float64 values
        self.rows = OrderedDict()                    # original index -> [array, length]
        self.used = 0
        self.hits = 0
        self.misses = 0
        self.computed = 0  # kernel values computed

    def get(self, index, length):
        """Row ``index`` at working positions ``0:length``, ndarray of shape (length,)."""
        entry = self.rows.get(index)
        if entry is not None and entry[1] >= length:
            self.rows.move_to_end(index)
            self.hits += 1
            return entry[0][:length]
        self.misses += 1
        if entry is None:
            row = self.compute(index, 0, length)
        else:
            old, old_length = entry
            row = np.empty(length)
            row[:old_length] = old[:old_length]
            row[old_length:] = self.compute(index, old_length, length)
            del self.rows[index]
            self.used -= old.shape[0]
        self.computed += length - (0 if entry is None else entry[1])
        while self.rows and self.used + length > self.budget and len(self.rows) >= 2:
            _, (evicted, _) = self.rows.popitem(last=False)
            self.used -= evicted.shape[0]
        self.rows[index] = [row, length]
        self.used += length
        return row

    def permute(self, new_to_old, keep_length):
        """Re-order every row after the working order changed.

        ``new_to_old[k]`` is the old position of the point now at position
        ``k``.  A row stays if its first ``keep_length`` positions in the new
        order were computed; it keeps the longest valid prefix.
        """
        # A row of length L stays valid up to the first new position whose old
        # position is >= L: the first k with max(new_to_old[:k + 1]) >= L.
        running_max = np.maximum.accumulate(new_to_old)
        for index in list(self.rows):
            row, length = self.rows[index]
            new_length = min(length, int(np.searchsorted(running_max, length)))
            if new_length < keep_length:
                del self.rows[index]
                self.used -= row.shape[0]
                continue
            self.rows[index] = [row[new_to_old[:new_length]], new_length]
            self.used += new_length - row.shape[0]


def _vanishing_margin_message(dual_value, radius_sq, iteration):
    """NotSeparableError's message when SMO's dual objective proves a tiny margin."""
    margin_bound = 1.0 / np.sqrt(2.0 * dual_value)
    radius = np.sqrt(radius_sq)
    return (
        f"the hard-margin problem (C=inf) has no solution within svmlib's tolerance: after "
        f"{iteration} iterations SMO's dual objective reached D = {dual_value:.3g}, which proves "
        f"that the largest margin is at most 1/sqrt(2 D) = {margin_bound:.3g}, below "
        f"{1 / np.sqrt(HARD_MARGIN_LIMIT):g} times the radius of the data "
        f"(max ||phi(x)|| = {radius:.3g}). The data are not separable, or only by a vanishing "
        f"margin (points of different classes nearly coincide). Use a finite C (soft margin), "
        f"e.g. C=1.0, or a more flexible kernel.")


def _steep_solution_message(dual_value, half_range, radius_sq, iteration):
    """NotSeparableError's message when SMO's dual objective proves ``||w*||`` beyond
    ``sqrt(HARD_MARGIN_LIMIT) half_range / R`` (the test of ``half_range``)."""
    radius = np.sqrt(radius_sq)
    return (
        f"after {iteration} iterations SMO's dual objective reached D = {dual_value:.3g}, which "
        f"proves that every solution has ||w|| >= sqrt(2 D) = {np.sqrt(2.0 * dual_value):.3g}: "
        f"more than {np.sqrt(HARD_MARGIN_LIMIT):g} times the least value half_range / R = "
        f"{half_range:.3g} / {radius:.3g} that the range of the targets asks for (R = max "
        f"||phi(x)||), if a solution exists at all")


def _named_kernel(kernel):
    """``(kind, gamma, coef0, degree)`` for a built-in kernel whose rows the
    compiled cache can compute (what :func:`svmlib.kernels.get_kernel` returns
    for "linear", "rbf", "poly", "sigmoid"), else ``None`` (a Python function)."""
    if kernel is _kernels.linear:
        return _rows.LINEAR, 1.0, 0.0, 1
    if not isinstance(kernel, BoundKernel):
        return None
    params = kernel.params
    if kernel.func is _kernels.linear and not params:
        return _rows.LINEAR, 1.0, 0.0, 1
    if kernel.func is _kernels.rbf and set(params) <= {"gamma"}:
        return _rows.RBF, float(params.get("gamma", 1.0)), 0.0, 1
    if kernel.func is _kernels.sigmoid and set(params) <= {"gamma", "coef0"}:
        return (_rows.SIGMOID, float(params.get("gamma", 1.0)), float(params.get("coef0", 0.0)),
                1)
    if kernel.func is _kernels.polynomial and set(params) <= {"gamma", "coef0", "degree"}:
        return (_rows.POLY, float(params.get("gamma", 1.0)), float(params.get("coef0", 1.0)),
                int(params.get("degree", 3)))
    return None


def _blocks(n_rows, n_cols, n=0):
    """Row slices that keep a temporary (rows x n_cols) block small (see _BLOCK_ELEMENTS)."""
    elements = _BLOCK_ELEMENTS_LARGE_N if n > _LARGE_N else _BLOCK_ELEMENTS
    step = max(1, elements // max(1, n_cols))
    return [slice(s, min(s + step, n_rows)) for s in range(0, n_rows, step)]


def _check_inputs(K, y, C, generalized):
    """check_dual_inputs; the generalized dual (``p`` given) also accepts one label.

    The one-class SVM solves its dual with every ``y_t = +1``.
    """
    if generalized:
        y_checked = check_array(y, "y", ndim=1)
        if y_checked.size >= 1 and np.all(y_checked == y_checked[0]) and \
                y_checked[0] in (-1.0, 1.0):
            # K and C are checked against n only: validate them with a two-label copy.
            two = y_checked.copy()
            two[-1] = -two[-1] if two.size > 1 else two[-1]
            if two.size > 1:
                K, _, C = check_dual_inputs(K, two, C)
                return K, y_checked, C
    return check_dual_inputs(K, y, C)


def _check_linear_term(p, n):
    """Validate the linear term ``p`` of the generalized dual (None: all -1)."""
    if p is None:
        return -np.ones(n)
    p = check_array(p, "p", ndim=1)
    if p.shape[0] != n:
        raise ValueError(
            f"p must hold one linear coefficient per variable, shape ({n},); got shape "
            f"{p.shape}. Pass p=None for the classification dual (p = -1).")
    return p


def _check_start(alpha0, C, n):
    """Validate a feasible start ``0 <= alpha0_t <= C_t`` (None: alpha = 0)."""
    if alpha0 is None:
        return None
    alpha0 = check_array(alpha0, "alpha0", ndim=1)
    if alpha0.shape[0] != n:
        raise ValueError(
            f"alpha0 must hold one starting value per variable, shape ({n},); got shape "
            f"{alpha0.shape}. Pass alpha0=None to start at alpha = 0.")
    bad = ~np.isfinite(alpha0) | (alpha0 < 0) | (alpha0 > C)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        bound = float(C[k]) if isinstance(C, np.ndarray) else float(C)
        raise ValueError(
            f"alpha0 must be feasible, 0 <= alpha0[t] <= C[t]; got alpha0[{k}]="
            f"{float(alpha0[k])!r} with C[{k}]={bound!r} ({int(bad.sum())} such entries). "
            f"Clip the start into the box (np.clip(alpha0, 0, C)).")
    return alpha0


def _nu_rho(alpha, grad, y, C):
    """LIBSVM's ``Solver_NU::calculate_rho``: ``((r1 - r2) / 2, (r1 + r2) / 2)``.

    For each class (``r1``: ``y = +1``, ``r2``: ``y = -1``) ``r`` is the mean of
    ``grad`` over the free entries; without free entries it is the midpoint
    of the bounds ``max grad`` over the entries at ``C_t`` and ``min grad``
    over those at 0 (the finite one if the other side is empty).
    """
    values = []
    for mask in (y > 0, y < 0):
        g, a = grad[mask], alpha[mask]
        bound = C[mask] if isinstance(C, np.ndarray) else C
        at_upper, at_lower = a >= bound, a <= 0
        free = ~(at_upper | at_lower)
        if free.any():
            values.append(float(g[free].mean()))
            continue
        lb = float(g[at_upper].max()) if at_upper.any() else -np.inf
        ub = float(g[at_lower].min()) if at_lower.any() else np.inf
        if np.isfinite(lb) and np.isfinite(ub):
            values.append((lb + ub) / 2)
        else:
            values.append(lb if np.isfinite(lb) else ub)
    r1, r2 = values
    return (r1 - r2) / 2, (r1 + r2) / 2


def solve_dual_smo(K_or_kernel, y, C=1.0, tol=1e-3, *, X=None, max_iter=-1, cache_size=200,
                   shrinking=True, selection="second_order", precompute_kernel="auto",
                   callback=None, record_trace=False, check_feasible=True, verbose=False,
                   p=None, alpha0=None, nu_solver=False, half_range=None, compiled=True):
    """Solve the SVM dual by sequential minimal optimization (LIBSVM's algorithm).

    See the module docstring for the problem, the working-set rule (WSS 2 of
    Fan, Chen & Lin, 2005), caching and shrinking.

    Parameters
    ----------
    K_or_kernel : ndarray of shape (n_samples, n_samples) or callable
        The Gram matrix, or a kernel ``k(A, B)`` returning an ndarray of shape
        (n_A, n_B) (then ``X`` is required and rows are computed on demand).
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    C : float or array-like of shape (n_samples,), default=1.0
        Upper bound of the box, ``> 0``; ``np.inf`` for the hard margin.  An
        array gives every multiplier its own bound ``0 <= alpha_t <= C_t``
        (LIBSVM's per-sample ``C``: ``C_t = C * class_weight[y_t] *
        sample_weight_t``); a scalar is the same bound for all.
    tol : float, default=1e-3
        Stop when ``m(alpha) - M(alpha) <= tol`` (LIBSVM's ``eps``).
    X : array-like or sparse matrix of shape (n_samples, n_features), default=None
        Training points, when ``K_or_kernel`` is a kernel function.  A
        scipy.sparse matrix is passed to a kernel function as a CSR matrix.
        For a built-in kernel it is made dense if it has at most
        ``svmlib.kernels.SMALL_SPARSE_ENTRIES`` entries (the solver then
        takes the steps of the dense input exactly); a larger one stays
        sparse, and the kernel's rows are computed from its compressed rows
        (each value costs the nonzeros of one point, not the number of
        features).
    max_iter : int, default=-1
        Iteration limit; ``-1`` (or None) means no limit, as
        ``sklearn.svm.SVC(max_iter=-1)``: the solver runs until the stopping
        rule holds (``result.info["iteration_limit"]`` is then None).  On a
        badly conditioned problem (unscaled features with a polynomial
        kernel) that can take hundreds of millions of iterations;
        ``verbose=True`` shows the progress about once a second.
        A compiled iteration costs a few microseconds on a shrunk active
        set and grows with the active set's size (tens of microseconds at
        n = 2,000 unshrunk); interpreted (``compiled=False``) it costs about
        a hundred times as much.  Reaching an explicit limit gives a
        ConvergenceWarning (whose message says whether the KKT violation
        there is already below ``tol``: the limit is tested before the
        stopping rule, as in LIBSVM); badly scaled features are the usual
        cause of slow convergence.
    cache_size : float, default=200
        Kernel cache in megabytes.
    shrinking : bool, default=True
        Use LIBSVM's shrinking heuristic.
    selection : {"second_order", "first_order"}, default="second_order"
        Working-set rule: WSS 2 of Fan, Chen & Lin, or the maximal
        violating pair.
    precompute_kernel : {"auto", True, False}, default="auto"
        With a kernel function: compute the whole Gram matrix up front
        (``"auto"``: when it takes at most ``cache_size``; for the built-in
        kernels also at most 2**20 entries, n <= 1024, beyond which their
        rows computed on demand in compiled code are faster).
    callback : callable, default=None
        Called after every pair update with a dict ``{"iteration", "i",
        "j", "alpha", "violation"}`` (original indices, a copy of alpha of
        shape (n_samples,), the violation ``m - M`` before the update).
        Returning ``True`` stops the solver.
    record_trace : bool, default=False
        Store those dicts in ``result.trace`` (for small problems: one copy
        of ``alpha`` per iteration).
    check_feasible : bool, default=True
        For ``C = inf`` and a Gram matrix with at most 1,000 rows, first
        check with a linear program that the data are separable.  In any
        case the solver stops with :class:`~svmlib.NotSeparableError` once
        its dual objective ``D`` proves that the largest margin is below
        ``1 / sqrt(HARD_MARGIN_LIMIT)`` times the data's radius
        ``R = max_t sqrt(K[t, t])`` (every feasible ``alpha`` has
        ``D(alpha) <= ||w*||^2 / 2 = 1 / (2 gamma*^2)``, so
        ``D > HARD_MARGIN_LIMIT / (2 R^2)`` is a proof, not a guess).
    verbose : bool or int, default=False
        Print the progress (iterations, KKT violation ``m - M``, active-set
        size, elapsed time) about once a second, and a summary at the end.
    p : array-like of shape (n_samples,), default=None
        The linear term of the generalized dual (LIBSVM's ``Solver``)::

            minimize  1/2 alpha^T Q alpha + p^T alpha
            s.t.      y^T alpha = y^T alpha0,   0 <= alpha_t <= C_t.

        ``None`` means ``p = -1`` (the classification dual above, computed
        exactly as before).  ``grad = Q alpha + p`` throughout: in the start
        gradient, the gradient rebuilt after shrinking, the bias and the
        objective.  epsilon-SVR passes ``2 n`` variables with
        ``p = (eps - z, eps + z)`` and ``y = (+1, -1)`` (``z`` the targets);
        the one-class SVM and nu-SVC pass ``p = 0``.  With ``p`` given, the
        hard-margin checks (the linear program and the vanishing-margin
        proof) are skipped: they concern the classification dual only.
    alpha0 : array-like of shape (n_samples,), default=None
        A feasible starting point, ``0 <= alpha0_t <= C_t``; ``None`` is
        ``alpha = 0``.  The equality constraint keeps ``y^T alpha`` at
        ``y^T alpha0``, which is how nu-SVC, nu-SVR and the one-class SVM
        impose their ``sum alpha = const`` constraints.  The start gradient is
        ``Q alpha0 + p`` (one row of ``Q`` per nonzero entry) and ``grad_bar``
        sums the rows of the entries at their bound, as LIBSVM does.
    nu_solver : bool, default=False
        LIBSVM's ``Solver_NU`` (nu-SVC and nu-SVR): the problem has one
        equality constraint per class, ``sum_{y_t = +1} alpha_t`` and
        ``sum_{y_t = -1} alpha_t`` both fixed (by ``alpha0``).  The working
        pair is then chosen within one class (``i`` maximizes the score in
        ``I_up`` of its class, ``j`` the second-order gain among the ``I_low``
        entries of the same class); the solver stops when the larger of the
        two classes' gaps ``m_c - M_c`` is at most ``tol``; shrinking uses
        each class's own ``m_c`` and ``M_c``.  The bias follows LIBSVM's
        ``Solver_NU::calculate_rho``: per class ``r_1`` (``y = +1``) and
        ``r_2`` (``y = -1``) are the mean gradient over the free entries (or
        the midpoint of the bounds given by the bounded ones); then
        ``b = -(r_1 - r_2) / 2`` and ``result.info["r"] = (r_1 + r_2) / 2``
        (nu-SVC divides alpha and ``rho = -b`` by ``r``).
    half_range : float, default=None
        With ``C = inf``: half of the least range that any solution ``f``
        must cover at the training points, which sets when SMO gives up.
        ``f`` varies by at most ``2 R ||w||`` over the data (``R = max_t
        sqrt(K[t, t])``), so every solution has ``||w*|| >= half_range / R``;
        SMO stops with :class:`~svmlib.NotSeparableError` once its dual
        objective ``D = -(1/2 alpha^T Q alpha + p^T alpha)`` proves
        ``||w*|| > sqrt(HARD_MARGIN_LIMIT) half_range / R`` (1e4 times that
        least value), that is ``D > HARD_MARGIN_LIMIT half_range^2 / (2
        R^2)``: weak duality gives ``D(alpha) <= 1/2 ||w*||^2`` at every
        feasible ``alpha``, for any ``p``, and where no solution exists the
        dual is unbounded and ``D`` passes any limit.  ``None``: 1 for the
        classification dual (``p=None``: ``y_t f(x_t) >= 1`` makes ``f`` go
        from -1 to +1 at least; the hard-margin test described under
        ``check_feasible``); with ``p`` given, no such test.  ε-SVR with a
        hard tube passes ``(max z - min z) / 2 - epsilon`` (see
        :class:`svmlib.SVR`).
    compiled : bool, default=True
        Run the steps of ``svmlib/_smo_steps.py`` compiled by Numba (when it
        is installed; the machine code is cached on disk after the first
        call) or, with ``False``, as plain Python: the same functions, the
        same steps, for reading and stepping through (slow beyond a few
        hundred points).  ``result.info["compiled"]`` says which ran.

    Returns
    -------
    SolverResult
        ``alpha`` (n_samples,), ``b`` (LIBSVM's rule, :func:`svmlib.dual.compute_intercept`)
        and the record: ``n_iter``, ``objective`` (the dual objective ``D``),
        ``kkt_violation`` (``m - M`` at the end), ``time``, ``converged``;
        ``info`` holds cache and shrinking statistics (and ``"r"`` with
        ``nu_solver=True``).
    """
    start_time = time.perf_counter()
    check_option(selection, "selection", ("second_order", "first_order"))
    check_option(precompute_kernel, "precompute_kernel", ("auto", True, False))
    check_option(compiled, "compiled", (True, False))
    cache_size = check_positive(cache_size, "cache_size", hint="Use cache_size=200 (megabytes).")
    if callable(K_or_kernel) and not isinstance(K_or_kernel, np.ndarray):
        kernel = K_or_kernel
        if X is None:
            raise ValueError(
                "X must be given when K_or_kernel is a kernel function; got X=None. Pass "
                "X=the training points, or pass the Gram matrix instead of the kernel.")
        if scipy.sparse.issparse(X):
            X = check_sparse(X, "X")
        elif not (isinstance(X, np.ndarray) and X.dtype == object and X.ndim == 1):
            X = check_array(X, "X")    # (else rows of any objects, for a kernel function)
        _, y, C = _check_inputs(None, y, C, p is not None)
        if X.shape[0] != y.shape[0]:
            raise ValueError(
                f"X and y must have the same number of samples; got {X.shape[0]} and "
                f"{y.shape[0]}. Check that they come from the same data set.")
        K = None
    else:
        K, y, C = _check_inputs(K_or_kernel, y, C, p is not None)
        kernel = None
    named = _named_kernel(kernel) if kernel is not None else None
    if named is not None and scipy.sparse.issparse(X) and \
            X.shape[0] * X.shape[1] <= _kernels.SMALL_SPARSE_ENTRIES:
        # Small enough to be dense (svmlib.kernels.SMALL_SPARSE_ENTRIES): the
        # solver then does exactly what it does for the same points given dense.
        X = X.toarray()
    n = y.shape[0]
    if not isinstance(nu_solver, (bool, np.bool_)):
        raise ValueError(f"nu_solver must be True or False; got nu_solver={nu_solver!r}. Pass "
                         f"nu_solver=True for LIBSVM's Solver_NU (nu-SVC, nu-SVR).")
    p_given = p is not None
    p_vector = _check_linear_term(p, n)
    alpha_start = _check_start(alpha0, C, n)
    if half_range is not None:
        half_range = check_positive(
            half_range, "half_range",
            hint="Pass the least half-range of f at the training points (> 0), or None.")
    no_limit = max_iter is None or max_iter < 0
    limit = None if no_limit else int(max_iter)
    per_sample = isinstance(C, np.ndarray)
    hard = bool(np.any(np.isinf(C)))

    gram_mb = n * n * 8 / 2**20
    precomputed_here = False
    if kernel is not None:
        # "auto": the whole matrix when it fits the cache, except for a built-in
        # kernel beyond AUTO_GRAM_MAX_VALUES, whose rows the compiled cache
        # computes faster than the matrix is built (benchmarks/solvers.md).
        fits = gram_mb <= cache_size and (named is None or n * n <= AUTO_GRAM_MAX_VALUES)
        if precompute_kernel is True or (precompute_kernel == "auto" and fits):
            K = np.empty((n, n))
            for rows in _blocks(n, n):
                K[rows] = kernel(X[rows], X)
            precomputed_here = True
    if K is not None:
        named = None
        K = np.ascontiguousarray(K)
        diag = np.diagonal(K).copy()
    elif named is not None:
        # A built-in kernel: rows computed and cached in compiled code.
        make_rows = _rows.csr_rows if scipy.sparse.issparse(X) else _rows.kernel_rows
        source = make_rows(named[0], X, *named[1:], cache_size=cache_size)
        diag = _steps.COMPILED.kernel_diagonal(source, np.empty(n))
    else:
        diag = np.empty(n)
        step = 256 if n > _LARGE_N else _LARGE_N    # K[t, t] from diagonal blocks
        for start in range(0, n, step):
            rows = slice(start, min(start + step, n))
            diag[rows] = np.diagonal(kernel(X[rows], X[rows]))
    if hard and not p_given and check_feasible and K is not None and n <= LP_CHECK_MAX_N:
        check_separable(y, K=K, where=" in the kernel's feature space")

    # ----- the state, in working order (active set = prefix 0:active_size)
    order = np.arange(n, dtype=np.int64)   # working position -> original index
    y_work = y.copy()
    QD = diag.copy()                        # Q[t, t] = K[t, t]
    alpha = np.zeros(n)
    grad = p_vector.copy()                  # Q alpha + p at alpha = 0
    grad_bar = np.zeros(n)                  # sum of C_s Q[:, s] over alpha_s = C_s
    p_work = p_vector.copy()
    C_work = C.copy() if per_sample else np.full(n, C)
    status = np.zeros(n, dtype=np.int8)     # LOWER

    # ----- the row source and the step functions (compiled or interpreted)
    cache = None
    if K is not None or named is not None:
        # The Gram matrix, or a built-in kernel's rows through the compiled cache.
        if K is not None:
            source = _rows.gram_rows(K)
        steps = _steps.COMPILED if compiled else _steps.INTERPRETED
    else:
        # A kernel given as a Python function whose Gram matrix does not fit:
        # rows on demand from an LRU cache served by Python; the other steps
        # stay compiled (unless asked not to).
        source = _CachedRows(kernel, X, y, y_work, cache_size)
        cache = source.cache
        steps = _steps.interpreted_namespace(
            plain=(("smo_loop", "select_working_set") if compiled
                   else _steps.STEPS + _steps.ROW_STEPS),
            kernel_row=_cached_kernel_row, permute_rows=_cached_permute_rows,
            reconstruct_gradient=_cached_reconstruct_gradient)
    row_i, row_j, row_t = np.empty(n), np.empty(n), np.empty(n)
    new_to_old = np.empty(n, dtype=np.int64)

    if alpha_start is not None:
        # Start at alpha0: grad = Q alpha0 + p, grad_bar from the entries at C_t.
        alpha[:] = alpha_start
        for t in np.flatnonzero(alpha_start > 0):
            row = steps.kernel_row(source, y_work, order, int(t), n, row_t)
            grad += alpha_start[t] * row
            if alpha_start[t] >= C_work[t]:
                grad_bar += C_work[t] * row
        for t in range(n):
            steps.set_status(t, alpha, C_work, status)

    # C = inf: f = -D is tracked exactly per pair update (O(1)).  D never exceeds
    # the primal optimum 1/2 ||w*||^2, so D > HARD_MARGIN_LIMIT half_range^2 / (2 R^2)
    # proves ||w*|| > 1e4 half_range / R (for the hard margin, half_range = 1: a
    # margin below R / sqrt(HARD_MARGIN_LIMIT)).
    radius_sq = max(float(diag.max()), 1e-300)
    spread = half_range if half_range is not None else (None if p_given else 1.0)
    margin_check = hard and spread is not None
    dual_limit = HARD_MARGIN_LIMIT * spread**2 / (2.0 * radius_sq) if margin_check else np.inf
    istate = np.zeros(7, dtype=np.int64)
    istate[_steps.ACTIVE] = n
    istate[_steps.COUNTER] = min(n, 1000)
    fstate = np.array([np.inf, 0.0 if alpha_start is None
                       else 0.5 * float(alpha @ (grad + p_work))])
    trace = [] if record_trace else None
    watch = trace is not None or callback is not None
    converged = stopped_by_callback = False
    next_report = start_time + VERBOSE_INTERVAL
    iteration = 0
    while limit is None or iteration < limit:
        # One step at a time when someone watches, else in chunks of 1,000
        # (verbose: the clock is read between chunks) or at once.
        left = NO_LIMIT_CHUNK if limit is None else limit - iteration
        chunk = 1 if watch else (min(left, 1000) if verbose else left)
        outcome = steps.smo_loop(source, istate, fstate, order, y_work, QD, alpha, grad,
                                 grad_bar, p_work, C_work, status, row_i, row_j, row_t,
                                 new_to_old, float(tol), bool(nu_solver),
                                 selection == "second_order", bool(shrinking), int(chunk),
                                 margin_check, float(dual_limit))
        iteration = int(istate[_steps.ITERATION])
        if outcome == _steps.MARGIN_PROOF:
            dual_value = -fstate[_steps.F_VALUE]
            if half_range is None:
                raise NotSeparableError(_vanishing_margin_message(dual_value, radius_sq,
                                                                  iteration))
            raise NotSeparableError(_steep_solution_message(dual_value, half_range, radius_sq,
                                                            iteration))
        if outcome == _steps.CONVERGED:
            converged = True
            break
        if verbose:
            now = time.perf_counter()
            if now >= next_report:
                next_report = now + VERBOSE_INTERVAL
                print(f"SMO: iteration {iteration:>9d}   KKT violation "
                      f"{fstate[_steps.VIOLATION]:.3e} (tol {tol:g})   active "
                      f"{istate[_steps.ACTIVE]}/{n}   {now - start_time:6.1f} s", flush=True)
        if watch:
            alpha_original = np.empty(n)
            alpha_original[order] = alpha
            step = {"iteration": iteration, "i": int(istate[_steps.LAST_I]),
                    "j": int(istate[_steps.LAST_J]), "alpha": alpha_original,
                    "violation": float(fstate[_steps.VIOLATION])}
            if trace is not None:
                trace.append(step)
            if callback is not None and callback(step):
                stopped_by_callback = True
                break

    active_size = int(istate[_steps.ACTIVE])
    if active_size < n:
        steps.reconstruct_gradient(source, active_size, n, order, y_work, alpha, grad,
                                   grad_bar, p_work, status)
    alpha_out = np.empty(n)
    alpha_out[order] = alpha
    grad_out = np.empty(n)
    grad_out[order] = grad
    extra = {}
    if nu_solver:
        rho, r = _nu_rho(alpha_out, grad_out, y, C)
        b = -rho
        extra["r"] = r
    else:
        b = compute_intercept(alpha_out, grad_out, y, C)
    if p_given:
        objective = -0.5 * float(alpha_out @ (grad_out + p_vector))
    else:
        objective = -0.5 * float(alpha_out @ (grad_out - 1.0))
    if nu_solver:
        # Solver_NU's violation: the larger of the two classes' gaps m_c - M_c.
        kkt = max(max_kkt_violation(alpha_out[mask], grad_out[mask], y[mask],
                                    C[mask] if per_sample else C)
                  for mask in (y > 0, y < 0) if mask.any())
    else:
        kkt = max_kkt_violation(alpha_out, grad_out, y, C)
    if not converged and not stopped_by_callback:
        # Only an explicit max_iter stops the solver here (as LIBSVM's
        # solve_timed_out: the limit is tested before the stopping rule, so a
        # solve can reach it with its KKT violation already below tol).
        if kkt <= tol:
            warnings.warn(
                f"SMO stopped at max_iter={limit} iterations before its stopping test ran; "
                f"the KKT violation there is {kkt:.3g} <= tol={tol}, so the solution meets the "
                f"tolerance, but the solver did not confirm it (LIBSVM reports this as "
                f"fit_status_=1 too). Pass max_iter=-1 (no limit) to let it confirm.",
                ConvergenceWarning, stacklevel=2)
        else:
            warnings.warn(
                f"SMO stopped after max_iter={limit} iterations with KKT violation "
                f"{kkt:.3g} > tol={tol}: the result is not optimal. Pass max_iter=-1 (no "
                f"limit), scale the features (e.g. sklearn.preprocessing.StandardScaler), or "
                f"use a smaller C.", ConvergenceWarning, stacklevel=2)
    if verbose:
        state = ("converged" if converged else
                 "stopped by the callback" if stopped_by_callback else "stopped at max_iter")
        print(f"SMO: {state} after {iteration} iterations, KKT violation {kkt:.3e}, "
              f"{int(np.sum(alpha_out > 0))} support vectors, dual objective "
              f"{objective:.6g}, {time.perf_counter() - start_time:.2f} s", flush=True)
    if cache is not None:
        cache_info = {"cache_hits": cache.hits, "cache_misses": cache.misses,
                      "kernel_values_computed": cache.computed}
    elif named is not None:
        cstate = source.cstate
        cache_info = {"cache_hits": int(cstate[_rows.HITS]),
                      "cache_misses": int(cstate[_rows.MISSES]),
                      "kernel_values_computed": int(cstate[_rows.COMPUTED] + cstate[_rows.UNCACHED]
                                                    + cstate[_rows.REBUILT]),
                      "kernel_values_cached": int(cstate[_rows.COMPUTED]),
                      "kernel_values_uncached": int(cstate[_rows.UNCACHED]),
                      "kernel_values_rebuilding_gradient": int(cstate[_rows.REBUILT])}
    else:
        cache_info = {"cache_hits": 0, "cache_misses": 0,
                      "kernel_values_computed": n * n if precomputed_here else 0}
    return SolverResult(
        alpha=alpha_out, b=b, n_iter=iteration, objective=objective, kkt_violation=kkt,
        time=time.perf_counter() - start_time, converged=converged, solver="smo",
        trace=tuple(trace) if trace is not None else None,
        info={**cache_info, "shrink_events": int(istate[_steps.SHRINK_EVENTS]),
              "kernel_precomputed": K is not None, "stopped_by_callback": stopped_by_callback,
              "iteration_limit": None if no_limit else limit,
              "compiled": bool(compiled and _steps.HAVE_NUMBA), **extra})


# ------------------------------------------------ rows on demand, from a cache

class _CachedRows:
    """The row source when the Gram matrix does not fit: rows of ``Q`` from
    a :class:`KernelRowCache`, computed by the kernel function."""

    def __init__(self, kernel, X, y, y_work, cache_size):
        self.kernel, self.X, self.y, self.y_work = kernel, X, y, y_work
        self.X_work = X.copy()          # the points in working order
        self.cache = KernelRowCache(self.compute, cache_size)

    def compute(self, index, start, stop):
        values = np.asarray(self.kernel(self.X[index:index + 1], self.X_work[start:stop]),
                            dtype=np.float64)[0]
        return (self.y[index] * self.y_work[start:stop]) * values


def _cached_kernel_row(rows, y, order, i, length, out):
    """kernel_row for a cache: row ``i`` of ``Q`` at working positions ``0:length``."""
    out[:length] = rows.cache.get(int(order[i]), length)
    return out


def _cached_permute_rows(rows, new_to_old, kept):
    """permute_rows for a cache: re-order the points and the cached rows."""
    rows.X_work = rows.X_work[new_to_old]
    rows.cache.permute(new_to_old, kept)


def _cached_reconstruct_gradient(rows, A, n, order, y, alpha, grad, grad_bar, p, status):
    """reconstruct_gradient for a kernel function: blocks of kernel values
    between the inactive and the free points (no row of the cache needed)."""
    if A == n:
        return
    inactive = np.arange(A, n)
    free = np.flatnonzero(status[:A] == FREE)
    grad[inactive] = grad_bar[inactive] + p[inactive]
    if free.size == 0:
        return
    coef = alpha[free] * y[free]
    for block in _blocks(inactive.size, free.size, n):
        part = inactive[block]
        K_block = np.asarray(rows.kernel(rows.X_work[part], rows.X_work[free]),
                             dtype=np.float64)
        grad[part] += y[part] * (K_block @ coef)
