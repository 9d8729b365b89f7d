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
``cache_size`` megabytes (:class:`KernelRowCache`), so the ``n x n`` matrix
is never built for large ``n`` (20,000 points would need 3.2 GB).  When the
whole Gram matrix fits in the cache it is computed up front in blocks
(``precompute_kernel="auto"``): one matrix product is much faster than
``n`` separate rows.

**Shrinking.**  Every ``min(n, 1000)`` iterations, multipliers at a bound
whose score says they would only move further into the bound are set aside
(LIBSVM's rule); the working arrays are permuted so that the active set is a
prefix and every vector operation runs on that prefix only.  For the
variables set aside the gradient is not updated; it is rebuilt from
``grad_bar[t] = C sum_{s : alpha_s = C} Q[t, s]`` (maintained throughout)
plus the contribution of the free multipliers before the final check
(:cite:`joachims1999`, :cite:`chang2011`).
"""

import time
import warnings
from collections import OrderedDict

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ._validation import check_array, check_option, check_positive
from .objectives import max_kkt_violation
from .qp import (LP_CHECK_MAX_N, NotSeparableError, SolverResult,
                 check_dual_inputs, check_separable, compute_intercept)

__all__ = ["solve_dual_smo", "analytic_pair_update", "KernelRowCache", "TAU"]

#: Guard on the curvature ``a_ij`` of the pair problem: a non-positive value
#: (a non-PSD kernel, or two identical points) is replaced by ``TAU`` so that
#: the step stays finite.  Fan, Chen & Lin (2005) use the same constant.
TAU = 1e-12

#: Hard margin (C = inf): a margin below ``1 / sqrt(HARD_MARGIN_LIMIT)`` = 1e-4
#: times the radius ``R = max_t sqrt(K[t, t])`` of the data in feature space
#: counts as "not separable".  SMO stops once its dual objective exceeds
#: ``HARD_MARGIN_LIMIT / (2 R^2)`` (which proves such a margin), and the
#: separability test of :class:`svmlib.SVC` uses the same constant
#: (:func:`svmlib.qp.check_separable`).
HARD_MARGIN_LIMIT = 1e8

#: With ``verbose=True``, seconds between two progress lines (the clock is
#: read every 1,000 iterations, so a line appears at most that often).
VERBOSE_INTERVAL = 1.0

LOWER, UPPER, FREE = 0, 1, 2
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
    C_i = C
    if C_j is None:
        C_j = C_i
    if y_i != y_j:
        # alpha_i - alpha_j stays fixed; the segment leaves the box through
        # alpha_i = C_i or alpha_j = C_j, whichever is met first.
        quad_coef = max(Q_ii + Q_jj + 2.0 * Q_ij, TAU)
        delta = (-grad_i - grad_j) / quad_coef
        diff = alpha_i - alpha_j
        alpha_i += delta
        alpha_j += delta
        if diff > 0:
            if alpha_j < 0:
                alpha_j, alpha_i = 0.0, diff
        elif alpha_i < 0:
            alpha_i, alpha_j = 0.0, -diff
        # C_i - C_j is 0 for equal bounds (inf - inf would be nan).
        if diff > (0.0 if C_i == C_j else C_i - C_j):
            if alpha_i > C_i:
                alpha_i, alpha_j = C_i, C_i - diff
        elif alpha_j > C_j:
            alpha_j, alpha_i = C_j, C_j + diff
    else:
        # alpha_i + alpha_j stays fixed.
        quad_coef = max(Q_ii + Q_jj - 2.0 * Q_ij, TAU)
        delta = (grad_i - grad_j) / quad_coef
        total = alpha_i + alpha_j
        alpha_i -= delta
        alpha_j += delta
        if total > C_i:
            if alpha_i > C_i:
                alpha_i, alpha_j = C_i, total - C_i
        elif alpha_j < 0:
            alpha_j, alpha_i = 0.0, total
        if total > C_j:
            if alpha_j > C_j:
                alpha_j, alpha_i = C_j, total - C_j
        elif alpha_i < 0:
            alpha_i, alpha_j = 0.0, total
    return alpha_i, alpha_j


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
                   p=None, alpha0=None, nu_solver=False):
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
    X : array-like of shape (n_samples, n_features), default=None
        Training points, when ``K_or_kernel`` is a kernel function.
    max_iter : int, default=-1
        Iteration limit; ``-1`` (or None) means no limit: the solver runs
        until the stopping rule holds (as ``sklearn.svm.SVC(max_iter=-1)``).
        A NumPy iteration costs some 50-100 microseconds at n = 2,000-3,000
        (its cost grows with n), so a problem that needs a million iterations
        takes a minute or more; ``verbose=True`` shows the progress.  Reaching an explicit limit gives a
        ConvergenceWarning; badly scaled features are the usual cause of
        slow convergence.
    cache_size : float, default=200
        Kernel cache in megabytes.
    shrinking : bool, default=True
        Use LIBSVM's shrinking heuristic.
    selection : {"second_order", "first_order"}, default="second_order"
        Working-set rule: WSS 2 of Fan, Chen & Lin, or the maximal
        violating pair.
    precompute_kernel : {"auto", True, False}, default="auto"
        With a kernel function: compute the whole Gram matrix up front
        (``"auto"``: when it takes at most ``cache_size``).
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
        case the solver stops with :class:`~svmlib.qp.NotSeparableError` once
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

    Returns
    -------
    SolverResult
        ``alpha`` (n_samples,), ``b`` (LIBSVM's rule, :func:`svmlib.qp.compute_intercept`)
        and the record: ``n_iter``, ``objective`` (the dual objective ``D``),
        ``kkt_violation`` (``m - M`` at the end), ``time``, ``converged``;
        ``info`` holds cache and shrinking statistics (and ``"r"`` with
        ``nu_solver=True``).
    """
    start_time = time.perf_counter()
    check_option(selection, "selection", ("second_order", "first_order"))
    check_option(precompute_kernel, "precompute_kernel", ("auto", True, False))
    cache_size = check_positive(cache_size, "cache_size", hint="Use cache_size=200 (megabytes).")
    if callable(K_or_kernel) and not isinstance(K_or_kernel, np.ndarray):
        kernel = K_or_kernel
        if X is None:
            raise ValueError(
                "X must be given when K_or_kernel is a kernel function; got X=None. Pass "
                "X=the training points, or pass the Gram matrix instead of the kernel.")
        X = check_array(X, "X")
        _, y, C = _check_inputs(None, y, C, p is not None)
        if X.shape[0] != y.shape[0]:
            raise ValueError(
                f"X and y must have the same number of samples; got {X.shape[0]} and "
                f"{y.shape[0]}. Check that they come from the same data set.")
        K = None
    else:
        K, y, C = _check_inputs(K_or_kernel, y, C, p is not None)
        kernel = None
    n = y.shape[0]
    if not isinstance(nu_solver, (bool, np.bool_)):
        raise ValueError(f"nu_solver must be True or False; got nu_solver={nu_solver!r}. Pass "
                         f"nu_solver=True for LIBSVM's Solver_NU (nu-SVC, nu-SVR).")
    p_given = p is not None
    p_vector = _check_linear_term(p, n)
    alpha_start = _check_start(alpha0, C, n)
    no_limit = max_iter is None or max_iter < 0
    limit = np.inf if no_limit else int(max_iter)
    # Per-sample bounds: C_work (in working order) holds C_t; with a scalar C
    # every bound is the scalar itself (and the arithmetic is unchanged).
    per_sample = isinstance(C, np.ndarray)
    C_work = C.copy() if per_sample else None
    hard = bool(np.any(np.isinf(C)))

    gram_mb = n * n * 8 / 2**20
    if kernel is not None:
        fits = gram_mb <= cache_size
        if precompute_kernel is True or (precompute_kernel == "auto" and fits):
            K = np.empty((n, n))
            for rows in _blocks(n, n):
                K[rows] = kernel(X[rows], X)
    if K is not None:
        diag = np.diagonal(K).copy()
    else:
        diag = np.empty(n)
        step = 256 if n > _LARGE_N else _LARGE_N    # K[t, t] from diagonal blocks
        for start in range(0, n, step):
            rows = slice(start, min(start + step, n))
            diag[rows] = np.diagonal(kernel(X[rows], X[rows]))
    if hard and not p_given and check_feasible and K is not None and n <= LP_CHECK_MAX_N:
        check_separable(y, K=K, where=" in the kernel's feature space")

    # ----- working arrays, in working order (active set = prefix 0:active_size)
    order = np.arange(n)            # working position -> original index
    y_work = y.copy()
    X_work = None if kernel is None or K is not None else X.copy()
    QD = diag.copy()                # Q[t, t] = K[t, t]
    alpha = np.zeros(n)
    grad = -np.ones(n)              # Q alpha - 1 at alpha = 0
    grad_bar = np.zeros(n)          # C * sum over alpha_s = C of Q[:, s]
    alpha_status = np.zeros(n, dtype=np.int8)   # LOWER
    positive = y_work > 0
    # Masks of I_up / I_low as offsets (0 inside, -inf / +inf outside) and 0/1.
    up_offset = np.where(positive, 0.0, -np.inf)
    low_offset = np.where(positive, np.inf, 0.0)
    low_indicator = (~positive).astype(np.float64)
    neg_y = -y_work
    p_work = p_vector.copy()        # the linear term, in working order

    if K is not None:
        def compute_row(index, start, stop):
            cols = order[start:stop]
            return (y[index] * y[cols]) * K[index, cols]
    else:
        def compute_row(index, start, stop):
            values = np.asarray(kernel(X[index:index + 1], X_work[start:stop]),
                                dtype=np.float64)[0]
            return (y[index] * y_work[start:stop]) * values

    # A Gram matrix computed here counts against the cache; what is left holds
    # rows of Q (at least two rows are always kept).
    row_budget = cache_size
    if kernel is not None and K is not None:
        row_budget = max(cache_size - gram_mb, 0.0)
    cache = KernelRowCache(compute_row, row_budget)

    if p_given:
        grad[:] = p_work
    if alpha_start is not None:
        # Start at alpha0: grad = Q alpha0 + p, grad_bar from the entries at C_t.
        alpha[:] = alpha_start
        for t in np.flatnonzero(alpha_start > 0):
            row = cache.get(int(t), n)
            grad += alpha_start[t] * row
            bound = C_work[t] if per_sample else C
            if alpha_start[t] >= bound:
                grad_bar += bound * row

    def set_status(t):
        """Refresh alpha_status and the index-set masks of position t.

        Returns the old and the new status.
        """
        a_t = alpha.item(t)
        old_status = alpha_status.item(t)
        status = UPPER if a_t >= (C_work.item(t) if per_sample else C) else (
            LOWER if a_t <= 0 else FREE)
        if status == old_status:
            return old_status, status
        alpha_status[t] = status
        can_increase = status != UPPER
        can_decrease = status != LOWER
        if positive.item(t):
            in_up, in_low = can_increase, can_decrease
        else:
            in_up, in_low = can_decrease, can_increase
        up_offset[t] = 0.0 if in_up else -np.inf
        low_offset[t] = 0.0 if in_low else np.inf
        low_indicator[t] = 1.0 if in_low else 0.0
        return old_status, status

    def reconstruct_gradient(active_size):
        """Rebuild grad of the inactive positions: grad_bar + p + free part."""
        if active_size == n:
            return
        inactive = np.arange(active_size, n)
        free = np.flatnonzero(alpha_status[:active_size] == FREE)
        grad[inactive] = grad_bar[inactive] + p_work[inactive]
        if free.size == 0:
            return
        coef = alpha[free] * y_work[free]
        for rows in _blocks(inactive.size, free.size, n):
            part = inactive[rows]
            if K is not None:
                K_block = K[np.ix_(order[part], order[free])]
            else:
                K_block = np.asarray(kernel(X_work[part], X_work[free]), dtype=np.float64)
            grad[part] += y_work[part] * (K_block @ coef)

    def permute(new_to_old):
        """Apply a new working order (positions new_to_old[k] move to k)."""
        nonlocal X_work
        for array in (order, y_work, QD, alpha, grad, grad_bar, alpha_status, positive,
                      up_offset, low_offset, low_indicator, neg_y, p_work):
            array[:] = array[new_to_old]
        if per_sample:
            C_work[:] = C_work[new_to_old]
        if X_work is not None:
            X_work = X_work[new_to_old]

    def do_shrinking(active_size, gmax, m_low):
        """LIBSVM's shrinking: set aside bounded variables that cannot move.

        ``gmax`` and ``m_low`` are numbers, or (nu_solver) arrays holding each
        position's class's ``m_c`` and ``M_c``.
        """
        A = active_size
        score = neg_y[:A] * grad[:A]
        bounded = alpha_status[:A] != FREE
        pos = positive[:A]
        at_upper = alpha_status[:A] == UPPER
        only_low = bounded & (at_upper == pos)      # upper & y>0, or lower & y<0
        only_up = bounded & ~(at_upper == pos)
        shrink = (only_low & (score > gmax)) | (only_up & (score < m_low))
        n_shrink = int(shrink.sum())
        if n_shrink == 0:
            return A
        keep = np.flatnonzero(~shrink)
        new_to_old = np.concatenate([keep, np.flatnonzero(shrink), np.arange(A, n)])
        permute(new_to_old)
        cache.permute(new_to_old, keep.size)
        return keep.size

    if alpha_start is not None:
        for t in range(n):
            set_status(t)

    active_size = n
    unshrunk = False
    counter = min(n, 1000)
    shrink_events = 0
    trace = [] if record_trace else None
    converged = stopped_by_callback = False
    iteration = 0
    violation = np.inf
    # Hard margin: f = -D is tracked exactly per pair update (O(1)); once
    # D > HARD_MARGIN_LIMIT / (2 R^2) the margin is proved below R / sqrt(LIMIT).
    margin_check = hard and not p_given
    f_value = 0.0 if alpha_start is None else 0.5 * float(alpha @ (grad + p_work))
    radius_sq = max(float(diag.max()), 1e-300)
    objective_limit = HARD_MARGIN_LIMIT / (2.0 * radius_sq) if margin_check else np.inf
    report_every = VERBOSE_INTERVAL       # seconds between progress lines (verbose)
    next_report = start_time + report_every
    score_buffer, up_buffer, low_buffer = np.empty(n), np.empty(n), np.empty(n)
    work_b, work_a = np.empty(n), np.empty(n)

    def scores(A):
        """score_t = -y_t grad_t on the active set, and its I_up / I_low versions.

        Returns (score, up_scores, low_scores); outside I_up (I_low) the
        entries of up_scores (low_scores) are -inf (+inf).
        """
        score = np.multiply(neg_y[:A], grad[:A], out=score_buffer[:A])
        up_scores = np.add(score, up_offset[:A], out=up_buffer[:A])
        low_scores = np.add(score, low_offset[:A], out=low_buffer[:A])
        return score, up_scores, low_scores

    def class_extremes(A):
        """Solver_NU: each position's class's m_c and M_c, and the larger gap.

        Returns (m_vec, M_vec, gap) with ``m_vec[t] = m_c``, ``M_vec[t] = M_c``
        for the class ``c`` of position ``t`` (``-inf`` / ``+inf`` for an
        empty set) and ``gap = max_c (m_c - M_c)``.
        """
        _, up_scores, low_scores = scores(A)
        pos = positive[:A]
        m_pos = np.max(up_scores[pos], initial=-np.inf)
        m_neg = np.max(up_scores[~pos], initial=-np.inf)
        M_pos = np.min(low_scores[pos], initial=np.inf)
        M_neg = np.min(low_scores[~pos], initial=np.inf)
        gap = max(m_pos - M_pos, m_neg - M_neg)
        return (np.where(pos, m_pos, m_neg), np.where(pos, M_pos, M_neg), gap)

    def select_nu_pair(A):
        """Solver_NU's working set on the active prefix, or None when optimal.

        Per class ``c``: ``i_c`` = argmax of the score over ``I_up`` within
        ``c``; ``j`` maximizes ``(m_c - score_t)^2 / a_{i_c t}`` over the
        ``I_low`` entries of either class (first order: ``j`` = argmin of the
        score over ``I_low`` within the class of the larger gap), and ``i`` is
        ``i_c`` of ``j``'s class.  Returns (i, j, Q_i, violation).
        """
        score, up_scores, low_scores = scores(A)
        pos = positive[:A]
        best = {}
        violation = -np.inf
        for label, mask in ((1.0, pos), (-1.0, ~pos)):
            up_c = np.where(mask, up_scores, -np.inf)
            i_c = int(up_c.argmax())
            m_c = up_c.item(i_c)
            low_c = np.where(mask, low_scores, np.inf)
            gap = m_c - low_c.min()
            violation = max(violation, gap)
            best[label] = (i_c, m_c, low_c, gap)
        if not violation > tol:
            return None
        if selection == "first_order":
            label = 1.0 if best[1.0][3] >= best[-1.0][3] else -1.0
            i, _, low_c, _ = best[label]
            j = int(low_c.argmin())
            return i, j, cache.get(order.item(i), A), violation
        gain = np.zeros(A)
        rows = {}
        for label, mask in ((1.0, pos), (-1.0, ~pos)):
            i_c, m_c, _, _ = best[label]
            if not np.isfinite(m_c):
                continue                      # no entry of this class in I_up
            rows[label] = Q_c = cache.get(order.item(i_c), A)
            b_vec = np.maximum(m_c - score, 0.0) * low_indicator[:A]
            a_vec = np.maximum(QD[:A] + QD.item(i_c) - 2.0 * label * y_work[:A] * Q_c, TAU)
            gain = np.where(mask, b_vec * b_vec / a_vec, gain)
        j = int(gain.argmax())
        label = 1.0 if positive.item(j) else -1.0
        return best[label][0], j, rows[label], violation

    while iteration < limit:
        A = active_size
        # ---- shrinking, every min(n, 1000) iterations
        counter -= 1
        if counter == 0:
            counter = min(n, 1000)
            if shrinking and nu_solver:
                gmax, m_low, gap = class_extremes(A)
                if not unshrunk and gap <= 10 * tol:
                    unshrunk = True
                    reconstruct_gradient(A)
                    active_size = A = n
                    gmax, m_low, gap = class_extremes(A)
                new_size = do_shrinking(A, gmax, m_low)
                if new_size != A:
                    shrink_events += 1
                    active_size = A = new_size
            elif shrinking:
                score, up_scores, low_scores = scores(A)
                gmax, m_low = up_scores.max(), low_scores.min()
                if not unshrunk and gmax - m_low <= 10 * tol:
                    unshrunk = True
                    reconstruct_gradient(A)
                    active_size = A = n
                    score, up_scores, low_scores = scores(A)
                    gmax, m_low = up_scores.max(), low_scores.min()
                new_size = do_shrinking(A, gmax, m_low)
                if new_size != A:
                    shrink_events += 1
                    active_size = A = new_size
        if nu_solver:
            # ---- Solver_NU: the pair within one class; stop on the larger gap
            selected = select_nu_pair(A)
            if selected is None:
                if A == n:
                    converged = True
                    break
                reconstruct_gradient(A)
                active_size = A = n
                selected = select_nu_pair(A)
                if selected is None:
                    converged = True
                    break
                counter = 1
            i, j, Q_i, violation = selected
            y_i = y_work.item(i)
        else:
            # ---- working-set selection: i = argmax over I_up, and the stopping rule
            score, up_scores, low_scores = scores(A)
            i = up_scores.argmax()
            gmax = up_scores.item(i)                          # m(alpha)
            violation = gmax - low_scores.min()               # m(alpha) - M(alpha)
            if violation <= tol:
                if A == n:
                    converged = True
                    break
                # Optimal on the active set: rebuild the whole gradient and check all.
                reconstruct_gradient(A)
                active_size = A = n
                score, up_scores, low_scores = scores(A)
                i = up_scores.argmax()
                gmax = up_scores.item(i)
                violation = gmax - low_scores.min()
                if violation <= tol:
                    converged = True
                    break
                counter = 1  # shrink again at the next iteration
            Q_i = cache.get(order.item(i), A)
            y_i = y_work.item(i)
            # ---- working-set selection: j
            if selection == "first_order":
                j = low_scores.argmin()
            else:
                # Decrease of f for the pair (i, t): (m - score_t)^2 / a_it, t in I_low.
                b_vec = np.subtract(gmax, score, out=work_b[:A])       # m - score_t
                np.maximum(b_vec, 0.0, out=b_vec)
                b_vec *= low_indicator[:A]
                a_vec = np.multiply(y_work[:A], Q_i, out=work_a[:A])   # y_t Q_it = y_i K_it
                a_vec *= -2.0 * y_i
                a_vec += QD[:A]
                a_vec += QD.item(i)                                    # K_ii + K_tt - 2 K_it
                np.maximum(a_vec, TAU, out=a_vec)
                b_vec *= b_vec
                b_vec /= a_vec
                j = b_vec.argmax()
        Q_j = cache.get(order.item(j), A)
        # ---- the pair update
        old_i, old_j = alpha.item(i), alpha.item(j)
        grad_i, grad_j, Q_ij = grad.item(i), grad.item(j), Q_i.item(j)
        if per_sample:
            new_i, new_j = analytic_pair_update(old_i, old_j, y_i, y_work.item(j), grad_i,
                                                grad_j, QD.item(i), QD.item(j), Q_ij,
                                                C_work.item(i), C_work.item(j))
        else:
            new_i, new_j = analytic_pair_update(old_i, old_j, y_i, y_work.item(j), grad_i,
                                                grad_j, QD.item(i), QD.item(j), Q_ij, C)
        alpha[i], alpha[j] = new_i, new_j
        d_i, d_j = new_i - old_i, new_j - old_j
        # ---- the gradient update on the active set
        if d_i != 0.0:
            grad[:A] += np.multiply(Q_i, d_i, out=work_b[:A])
        if d_j != 0.0:
            grad[:A] += np.multiply(Q_j, d_j, out=work_b[:A])
        # ---- alpha_status, and grad_bar when a multiplier reaches or leaves C
        for t in (i, j):
            old_status, status = set_status(t)
            is_upper = status == UPPER
            if shrinking and (old_status == UPPER) != is_upper:
                row = cache.get(order.item(t), n)
                bound = C_work.item(t) if per_sample else C
                grad_bar += (bound if is_upper else -bound) * row
        iteration += 1
        if margin_check:
            f_value += (d_i * grad_i + d_j * grad_j + 0.5 * (QD.item(i) * d_i * d_i
                        + QD.item(j) * d_j * d_j) + Q_ij * d_i * d_j)
            if -f_value > objective_limit:
                raise NotSeparableError(_vanishing_margin_message(-f_value, radius_sq,
                                                                  iteration))
        if verbose and iteration % 1000 == 0:
            now = time.perf_counter()
            if now >= next_report:
                next_report = now + report_every
                print(f"SMO: iteration {iteration:>9d}   KKT violation {violation:.3e} "
                      f"(tol {tol:g})   active {active_size}/{n}   "
                      f"{now - start_time:6.1f} s", flush=True)
        if trace is not None or callback is not None:
            alpha_original = np.empty(n)
            alpha_original[order] = alpha
            step = {"iteration": iteration, "i": order.item(i), "j": order.item(j),
                    "alpha": alpha_original, "violation": float(violation)}
            if trace is not None:
                trace.append(step)
            if callback is not None and callback(step):
                stopped_by_callback = True
                break

    if active_size < n:
        reconstruct_gradient(active_size)
    if not converged and not stopped_by_callback:
        warnings.warn(
            f"SMO stopped after max_iter={limit} iterations with KKT violation "
            f"{violation:.3g} > tol={tol}. Increase max_iter, scale the features, or "
            f"use a smaller C.", ConvergenceWarning, stacklevel=2)
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
    if verbose:
        state = ("converged" if converged else
                 "stopped by the callback" if stopped_by_callback else "stopped at max_iter")
        print(f"SMO: {state} after {iteration} iterations, KKT violation "
              f"{max_kkt_violation(alpha_out, grad_out, y, C):.3e}, "
              f"{int(np.sum(alpha_out > 0))} support vectors, dual objective "
              f"{objective:.6g}, {time.perf_counter() - start_time:.2f} s", flush=True)
    return SolverResult(
        alpha=alpha_out, b=b, n_iter=iteration, objective=objective,
        kkt_violation=max_kkt_violation(alpha_out, grad_out, y, C),
        time=time.perf_counter() - start_time, converged=converged, solver="smo",
        trace=tuple(trace) if trace is not None else None,
        info={"cache_hits": cache.hits, "cache_misses": cache.misses,
              "kernel_values_computed": cache.computed, "shrink_events": shrink_events,
              "kernel_precomputed": K is not None, "stopped_by_callback": stopped_by_callback,
              "iteration_limit": None if no_limit else limit, **extra})
