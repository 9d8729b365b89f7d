"""The steps of SMO, one function each, as chapter 07 names them.

Every function here is plain Python over NumPy arrays and scalars, written
with explicit loops over the active set (the way LIBSVM's ``Solver`` reads).
The same source runs in two ways:

* **compiled**: each function is compiled by Numba (``@njit(cache=True)``;
  the machine code is cached on disk, so only the first call on a machine
  pays for compilation), and :func:`smo_loop` runs the whole iteration in
  machine code;
* **interpreted**: :data:`INTERPRETED` holds the very same functions (the
  same code objects) wired to call each other as plain Python, so that a
  reader can step through them in a debugger or read them next to the book.
  Both ways take identical steps (``tests/test_smo_steps.py`` checks it).

Without Numba installed everything runs as plain Python.

**No reference counting in the iteration.**  The functions an iteration
runs through (from :func:`smo_loop` down to the row cache) are compiled with
``_nrt=False``: Numba's runtime then keeps no reference counts for the
arrays they touch.  Every one of those arrays belongs to the caller,
:func:`svmlib.smo.solve_dual_smo`, for the whole solve, and these functions
allocate nothing, so the counts protect nothing here; but each count is an
atomic increment or decrement per array per call, and on some processors
they took more than half of an iteration's time when the active set is
small (linear kernel, C = 100: 115 ms against 68 ms for the same 58,117
iterations; ``benchmarks/solvers.md``).  The few functions that allocate
scratch arrays (at shrinking and when the gradient is rebuilt) say
``_nrt=True``: a compiled callee otherwise inherits its caller's setting.
No function without reference counting returns an array to one with it.
``_nrt`` is a private option of Numba's (Numba is pinned in
``requirements.txt``); ``tests/test_smo_steps.py`` and the allocation
balance of the runtime are what to check again when upgrading it.

The state of the solver lives in arrays in *working order* (the active set
is the prefix ``0:A``; shrinking permutes the order):

``order``     working position -> original index (int64)
``y``         labels +1 / -1
``QD``        ``Q[t, t] = K[t, t]``
``alpha``     the multipliers
``grad``      ``Q alpha + p`` (exact on the active set)
``grad_bar``  ``sum_{s : alpha_s = C_s} C_s Q[:, s]`` (exact everywhere)
``p``         the linear term (``-1`` for classification)
``C``         the upper bound of every position
``status``    LOWER (0), UPPER (1) or FREE (2)

A *row source* (:mod:`svmlib._smo_rows`) gives the rows of ``Q``: the Gram
matrix ``K`` when it is in memory (rows are gathered from it), or, for the
built-in kernels, rows computed from the points and kept in a compiled
least-recently-used cache, so that the whole loop runs compiled without an
``n x n`` matrix.  For a kernel given as a Python function the rows come
from a Python cache (:class:`svmlib.smo.KernelRowCache`) and the loop runs
as plain Python around the compiled steps.  The three functions that touch
the row source are :func:`kernel_row`, :func:`reconstruct_gradient` and
:func:`permute_rows`.
"""

import types

import numpy as np

from ._smo_rows import (GRAM, LINEAR, RBF, POLY, SIGMOID, ROW_STEPS, STRIDE, SLOTS, USED,  # noqa: F401
                        HITS, MISSES, COMPUTED, REBUILT, UNCACHED, cached_row, csr_rows, gram_rows,
                        grow_rows, kernel_block, kernel_rows, kernel_value, permute,
                        permute_points)
from . import _smo_rows

try:  # compiled when Numba is available
    from numba import njit
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - plain Python, same steps, slower
    HAVE_NUMBA = False

    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

#: Guard on the curvature of the pair problem (Fan, Chen & Lin, 2005).
TAU = 1e-12
LOWER, UPPER, FREE = 0, 1, 2

# Indices into the integer state vector ``istate`` of smo_loop.
ACTIVE, COUNTER, UNSHRUNK, ITERATION, SHRINK_EVENTS, LAST_I, LAST_J = range(7)
# Indices into the float state vector ``fstate``.
VIOLATION, F_VALUE = range(2)
# What smo_loop returns.
RAN_OUT, CONVERGED, MARGIN_PROOF = 0, 1, 2


# ------------------------------------------------------------ index sets

@njit(cache=True, inline="always")
def in_up(status, y_t):
    """Whether ``alpha_t`` may move in the direction ``y_t`` (``t`` in I_up)."""
    if y_t > 0:
        return status != UPPER
    return status != LOWER


@njit(cache=True, inline="always")
def in_low(status, y_t):
    """Whether ``alpha_t`` may move in the direction ``-y_t`` (``t`` in I_low)."""
    if y_t > 0:
        return status != LOWER
    return status != UPPER


@njit(cache=True, inline="always")
def set_status(t, alpha, C, status):
    """Refresh ``status[t]`` from ``alpha[t]``; returns (old status, new status)."""
    old = status[t]
    if alpha[t] >= C[t]:
        new = UPPER
    elif alpha[t] <= 0.0:
        new = LOWER
    else:
        new = FREE
    status[t] = new
    return old, new


# ---------------------------------------------------- select the working set

@njit(cache=True, _nrt=False)
def select_i(A, y, grad, status, label):
    """The first index of the working set and the stopping quantities.

    Over the active positions of class ``label`` (``0``: both classes):
    ``i = argmax_{t in I_up} score_t`` with ``score_t = -y_t grad_t``, its
    score ``m`` (the most violating "up" variable), and ``M``, the smallest
    score over ``I_low``.  The KKT conditions hold when ``m - M <= 0``.
    Returns ``(i, m, M)``; ``i = -1`` and ``m = -inf`` if I_up is empty.
    A tie goes to the last position with the largest score (``>=``, as
    LIBSVM's ``-G[t] >= Gmax``), so the path is LIBSVM's on exact ties.
    """
    i = -1
    m = -np.inf
    M = np.inf
    for t in range(A):
        y_t = y[t]
        if label != 0 and y_t != label:
            continue
        score = -y_t * grad[t]
        if in_up(status[t], y_t) and score >= m:
            m = score
            i = t
        if in_low(status[t], y_t) and score < M:
            M = score
    return i, m, M


@njit(cache=True, _nrt=False)
def select_j(A, i, m, y, grad, status, QD, Q_i, label, second_order, best_j, best_gain):
    """The second index: the largest decrease of the dual with ``i``.

    Among the ``t`` in I_low (of class ``label``; ``0``: both) with
    ``score_t < m``, the pair ``(i, t)`` decreases the dual by
    ``(m - score_t)^2 / a_it`` with ``a_it = K_ii + K_tt - 2 K_it``
    (replaced by ``TAU`` when not positive): WSS 2 of Fan, Chen & Lin.
    ``second_order=False`` takes the smallest score instead (the maximal
    violating pair).  ``best_j`` / ``best_gain`` carry the best candidate
    so far (Solver_NU looks at both classes); returns the new pair.  With
    the second-order rule a tie goes to the last position (``>=``, as
    LIBSVM's ``obj_diff <= obj_diff_min``); the first-order rule, which
    LIBSVM does not have, keeps the first.
    """
    y_i = y[i]
    QD_i = QD[i]
    for t in range(A):
        y_t = y[t]
        if label != 0 and y_t != label:
            continue
        if not in_low(status[t], y_t):
            continue
        score = -y_t * grad[t]
        if second_order:
            b = m - score
            if b > 0.0:
                a = (y_t * Q_i[t]) * (-2.0 * y_i) + QD[t] + QD_i
                if a < TAU:
                    a = TAU
                gain = b * b / a
                if gain >= best_gain:
                    best_gain = gain
                    best_j = t
        else:
            gain = -score
            if gain > best_gain:
                best_gain = gain
                best_j = t
    return best_j, best_gain


# ------------------------------------------------------------ update the pair

@njit(cache=True, _nrt=False)
def update_pair(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, Q_ii, Q_jj, Q_ij, C_i, C_j):
    """Minimize the dual exactly over ``(alpha_i, alpha_j)``, clipped to the box.

    Along the line that keeps ``y_i alpha_i + y_j alpha_j`` fixed the dual
    is a parabola with curvature ``K_ii + K_jj - 2 K_ij``; its minimizer is
    clipped to ``[0, C_i] x [0, C_j]``.  Returns the new pair.
    """
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


# -------------------------------------------------------- update the gradient

@njit(cache=True, _nrt=False)
def update_gradient(A, grad, Q_i, d_i, Q_j, d_j):
    """``grad += Q[:, i] d_i + Q[:, j] d_j`` on the active set, in one pass:
    first the ``i`` term, then the ``j`` term of each entry (the same rounding
    in every way of running; a zero step adds nothing)."""
    if d_i != 0.0 and d_j != 0.0:
        for t in range(A):
            g = grad[t] + Q_i[t] * d_i
            grad[t] = g + Q_j[t] * d_j
    elif d_i != 0.0:
        for t in range(A):
            grad[t] += Q_i[t] * d_i
    elif d_j != 0.0:
        for t in range(A):
            grad[t] += Q_j[t] * d_j


@njit(cache=True, _nrt=False)
def update_grad_bar(n, grad_bar, Q_t, delta):
    """``grad_bar += delta Q[:, t]`` when ``alpha_t`` reaches (``delta = C_t``)
    or leaves (``delta = -C_t``) its upper bound."""
    for s in range(n):
        grad_bar[s] += delta * Q_t[s]


# --------------------------------------------------------------------- shrink

@njit(cache=True, inline="always")
def be_shrunk(t, y, grad, status, m_pos, M_pos, m_neg, M_neg):
    """Whether the bounded ``alpha_t`` would only move further into its bound.

    Below ``m`` (if it can only go up) or above ``M`` (if it can only go
    down) no pair with it violates the KKT conditions by the current
    extremes; each class uses its own ``m``, ``M`` (the same for both
    classes in the ordinary solver).
    """
    if status[t] == FREE:
        return False
    y_t = y[t]
    score = -y_t * grad[t]
    m = m_pos if y_t > 0 else m_neg
    M = M_pos if y_t > 0 else M_neg
    if in_up(status[t], y_t):        # can only move up: shrink if far below M
        return score < M
    return score > m                 # can only move down: shrink if above m


@njit(cache=True, _nrt=False)
def shrink(A, n, y, grad, status, m_pos, M_pos, m_neg, M_neg, new_to_old):
    """LIBSVM's shrinking: the variables that cannot move go behind the active set.

    Fills ``new_to_old`` (the kept positions in order, then the shrunk ones,
    then the inactive ones) and returns the new active size.
    """
    k = 0
    for t in range(A):
        if not be_shrunk(t, y, grad, status, m_pos, M_pos, m_neg, M_neg):
            new_to_old[k] = t
            k += 1
    kept = k
    for t in range(A):
        if be_shrunk(t, y, grad, status, m_pos, M_pos, m_neg, M_neg):
            new_to_old[k] = t
            k += 1
    for t in range(A, n):
        new_to_old[t] = t
    return kept


@njit(cache=True, _nrt=True)
def permute_arrays(new_to_old, order, y, QD, alpha, grad, grad_bar, p, C, status):
    """Apply a new working order: position ``new_to_old[k]`` moves to ``k``."""
    for values in (y, QD, alpha, grad, grad_bar, p, C):
        permute(values, new_to_old)
    permute(order, new_to_old)
    permute(status, new_to_old)


# ------------------------------------------------------------ the row source

@njit(cache=True, inline="always")
def kernel_row(rows, y, order, i, length, out):
    """Row ``i`` of ``Q`` at working positions ``0:length``:
    ``Q[i, t] = y_i y_t K[i, t]``, gathered from the Gram matrix or computed
    from the kernel, through the row cache
    (:func:`svmlib._smo_rows.cached_row`).  Returns the row (in place in the
    cache, or in ``out`` when it is longer than the cached rows)."""
    return cached_row(rows, y, order, i, length, out)


@njit(cache=True, _nrt=True)
def permute_rows(rows, new_to_old, kept):
    """After shrinking: the cached rows (and a kernel's points) follow the
    new working order."""
    permute_points(rows, new_to_old, kept)


@njit(cache=True, _nrt=True)
def reconstruct_gradient(rows, A, n, order, y, alpha, grad, grad_bar, p, status):
    """Rebuild ``grad`` of the inactive positions after shrinking.

    ``grad_t = grad_bar_t + p_t + sum over free s of Q[t, s] alpha_s``: the
    bounded multipliers at ``C`` are in ``grad_bar``, those at 0 add nothing.
    The kernel values come from the Gram matrix or are computed (the cached
    rows hold only the active positions); the row cache then gets back its
    full stride.
    """
    free = np.empty(A, dtype=np.int64)
    n_free = 0
    for s in range(A):
        if status[s] == FREE:
            free[n_free] = s
            n_free += 1
    if rows.kind == GRAM:
        K = rows.K
        for t in range(A, n):
            value = grad_bar[t] + p[t]
            row = order[t]                   # along a row of K: contiguous reads
            for k in range(n_free):
                s = free[k]
                value += y[t] * K[row, order[s]] * (alpha[s] * y[s])
            grad[t] = value
    else:
        # The same sums in the same order, a free s at a time: the kernel
        # values k(x_s, x_t) of the inactive t as one block.
        for t in range(A, n):
            grad[t] = grad_bar[t] + p[t]
        values = np.empty(n - A)
        for k in range(n_free):
            s = free[k]
            kernel_block(rows, s, A, n, values, 0)
            coef = alpha[s] * y[s]
            for t in range(A, n):
                grad[t] += y[t] * values[t - A] * coef
        rows.cstate[REBUILT] += n_free * (n - A)
    grow_rows(rows)


# --------------------------------------------------------------- the loop

@njit(cache=True, _nrt=False)
def class_extremes(A, y, grad, status, nu):
    """``(m_pos, M_pos, m_neg, M_neg, gap)``: the extremes used by shrinking.

    The ordinary solver has one ``m`` and ``M`` (the same for both
    classes); Solver_NU takes them per class and the larger of the two gaps.
    """
    if nu:
        _, m_pos, M_pos = select_i(A, y, grad, status, 1.0)
        _, m_neg, M_neg = select_i(A, y, grad, status, -1.0)
        return m_pos, M_pos, m_neg, M_neg, max(m_pos - M_pos, m_neg - M_neg)
    _, m, M = select_i(A, y, grad, status, 0.0)
    return m, M, m, M, m - M


@njit(cache=True, _nrt=False)
def select_working_set(rows, A, order, y, grad, status, QD, tol, nu, second_order,
                       row_i, row_k):
    """Select the working set ``(i, j)`` on the active set, or report optimality.

    Returns ``(i, j, violation, Q_i)``; ``i = -1`` when the stopping rule
    holds (``m - M <= tol``; Solver_NU: the larger class gap).  ``Q_i`` is
    the row of ``i`` on the active set (``row_i`` and ``row_k`` are scratch
    space).
    """
    if not nu:
        i, m, M = select_i(A, y, grad, status, 0.0)
        violation = m - M
        if not violation > tol:
            return -1, -1, violation, row_i
        Q_i = kernel_row(rows, y, order, i, A, row_i)
        j, _ = select_j(A, i, m, y, grad, status, QD, Q_i, 0.0, second_order, -1, -np.inf)
        return i, j, violation, Q_i
    # Solver_NU: i within each class; j over both, i taken from j's class.
    i_pos, m_pos, M_pos = select_i(A, y, grad, status, 1.0)
    i_neg, m_neg, M_neg = select_i(A, y, grad, status, -1.0)
    violation = max(m_pos - M_pos, m_neg - M_neg)
    if not violation > tol:
        return -1, -1, violation, row_i
    if not second_order:  # the maximal violating pair of the class with the larger gap
        if m_pos - M_pos >= m_neg - M_neg:
            i, m, label = i_pos, m_pos, 1.0
        else:
            i, m, label = i_neg, m_neg, -1.0
        Q_i = kernel_row(rows, y, order, i, A, row_i)
        j, _ = select_j(A, i, m, y, grad, status, QD, Q_i, label, False, -1, -np.inf)
        return i, j, violation, Q_i
    j, gain = -1, -np.inf
    if i_pos >= 0:
        Q_pos = kernel_row(rows, y, order, i_pos, A, row_i)
        j, gain = select_j(A, i_pos, m_pos, y, grad, status, QD, Q_pos, 1.0, True, j, gain)
    j_pos = j
    if i_neg >= 0:
        Q_neg = kernel_row(rows, y, order, i_neg, A, row_k)
        j, gain = select_j(A, i_neg, m_neg, y, grad, status, QD, Q_neg, -1.0, True, j, gain)
    if j != j_pos:           # j is in the negative class: i and its row from there
        return i_neg, j, violation, kernel_row(rows, y, order, i_neg, A, row_k)
    if i_pos < 0:
        return i_pos, j, violation, row_i
    # (asked again: the row of i is then the most recent one in the cache)
    return i_pos, j, violation, kernel_row(rows, y, order, i_pos, A, row_i)


@njit(cache=True, _nrt=False)
def smo_loop(rows, istate, fstate, order, y, QD, alpha, grad, grad_bar, p, C, status,
             row_i, row_j, row_t, new_to_old, tol, nu, second_order, shrinking, steps,
             margin_check, objective_limit):
    """Run at most ``steps`` SMO iterations from the state in the arrays.

    The loop of LIBSVM's ``Solver::Solve``: every ``min(n, 1000)`` iterations
    shrink; select the working set (stop when optimal, after rebuilding the
    gradient of the shrunk variables and checking all of them); update the
    pair, the gradient and ``grad_bar``.  ``istate`` / ``fstate`` carry the
    counters between calls (a caller runs one step at a time to watch).
    Returns RAN_OUT, CONVERGED or MARGIN_PROOF (the hard-margin dual
    exceeded ``objective_limit``).
    """
    n = y.shape[0]
    for _ in range(steps):
        A = istate[ACTIVE]
        # ---- shrink, every min(n, 1000) iterations
        istate[COUNTER] -= 1
        if istate[COUNTER] == 0:
            istate[COUNTER] = min(n, 1000)
            if shrinking:
                m_pos, M_pos, m_neg, M_neg, gap = class_extremes(A, y, grad, status, nu)
                if istate[UNSHRUNK] == 0 and gap <= 10 * tol:
                    istate[UNSHRUNK] = 1
                    reconstruct_gradient(rows, A, n, order, y, alpha, grad, grad_bar, p, status)
                    A = n
                    m_pos, M_pos, m_neg, M_neg, gap = class_extremes(A, y, grad, status, nu)
                kept = shrink(A, n, y, grad, status, m_pos, M_pos, m_neg, M_neg, new_to_old)
                if kept != A:
                    permute_arrays(new_to_old, order, y, QD, alpha, grad, grad_bar, p, C,
                                   status)
                    permute_rows(rows, new_to_old, kept)
                    istate[SHRINK_EVENTS] += 1
                    A = kept
                istate[ACTIVE] = A
        # ---- select the working set; stop when optimal on all variables
        i, j, violation, Q_i = select_working_set(rows, A, order, y, grad, status, QD, tol,
                                                  nu, second_order, row_i, row_t)
        if i < 0:
            if A == n:
                fstate[VIOLATION] = violation
                return CONVERGED
            reconstruct_gradient(rows, A, n, order, y, alpha, grad, grad_bar, p, status)
            A = n
            istate[ACTIVE] = n
            i, j, violation, Q_i = select_working_set(rows, A, order, y, grad, status, QD,
                                                      tol, nu, second_order, row_i, row_t)
            if i < 0:
                fstate[VIOLATION] = violation
                return CONVERGED
            istate[COUNTER] = 1  # shrink again at the next iteration
        fstate[VIOLATION] = violation
        Q_j = kernel_row(rows, y, order, j, A, row_j)
        # ---- update the pair
        old_i, old_j = alpha[i], alpha[j]
        grad_i, grad_j, Q_ij = grad[i], grad[j], Q_i[j]
        new_i, new_j = update_pair(old_i, old_j, y[i], y[j], grad_i, grad_j, QD[i], QD[j],
                                   Q_ij, C[i], C[j])
        alpha[i] = new_i
        alpha[j] = new_j
        d_i = new_i - old_i
        d_j = new_j - old_j
        # ---- update the gradient (and grad_bar when a bound C is reached or left)
        update_gradient(A, grad, Q_i, d_i, Q_j, d_j)
        for t in (i, j):
            old, new = set_status(t, alpha, C, status)
            if shrinking and (old == UPPER) != (new == UPPER):
                Q_t = kernel_row(rows, y, order, t, n, row_t)
                update_grad_bar(n, grad_bar, Q_t, C[t] if new == UPPER else -C[t])
        istate[ITERATION] += 1
        istate[LAST_I] = order[i]
        istate[LAST_J] = order[j]
        if margin_check:
            fstate[F_VALUE] += (d_i * grad_i + d_j * grad_j + 0.5 * (QD[i] * d_i * d_i
                                + QD[j] * d_j * d_j) + Q_ij * d_i * d_j)
            if -fstate[F_VALUE] > objective_limit:
                return MARGIN_PROOF
    return RAN_OUT


#: The step functions, in the order of the book.
STEPS = ("in_up", "in_low", "set_status", "select_i", "select_j", "update_pair",
         "update_gradient", "update_grad_bar", "be_shrunk", "shrink", "permute_arrays",
         "kernel_row", "permute_rows", "reconstruct_gradient", "class_extremes",
         "select_working_set", "smo_loop")


def _plain(function):
    """The Python function behind a (possibly compiled) function."""
    return getattr(function, "py_func", function)


def interpreted_namespace(plain=STEPS + ROW_STEPS, **replacements):
    """Step functions that call each other as plain Python where asked.

    Each name in ``plain`` becomes a new function object on the same code
    object as the compiled one, with globals in which the names in
    ``plain`` are these plain versions and the other steps stay compiled.
    The functions of the row source (:mod:`svmlib._smo_rows`) are part of
    the same namespace.  ``replacements`` substitutes Python versions of some
    steps (the row source of :mod:`svmlib.smo` for a kernel given as a Python
    function: kernel rows from a Python cache).
    """
    namespace = dict(vars(_smo_rows))
    namespace.update(globals())
    compiled = {name: namespace[name] for name in STEPS + ROW_STEPS}
    functions = types.SimpleNamespace(**compiled)
    for name in plain:
        source = _plain(compiled[name])
        function = types.FunctionType(source.__code__, namespace, source.__name__,
                                      source.__defaults__, source.__closure__)
        function.__doc__ = source.__doc__
        namespace[name] = function
        setattr(functions, name, function)
    for name, function in replacements.items():
        namespace[name] = function
        setattr(functions, name, function)
    return functions


#: The interpreted steps (plain Python, the same code).
INTERPRETED = interpreted_namespace()
#: The compiled steps (Numba), or the plain functions without Numba.
COMPILED = types.SimpleNamespace(**{name: globals()[name] for name in STEPS},
                                 **{name: getattr(_smo_rows, name) for name in ROW_STEPS})
