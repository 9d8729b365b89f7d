"""Where SMO's kernel rows come from: the Gram matrix, or a kernel and a row cache.

SMO needs two rows of ``Q`` per iteration (``Q[s, t] = y_s y_t k(x_s, x_t)``).
A *row source* (:class:`RowSource`, a named tuple of arrays that Numba
compiles like any other argument) gives them in one of two ways:

* ``kind == GRAM``: the Gram matrix ``K`` is in memory; a row is gathered
  from it (into a small cache, so that a row used again is read in place);
* ``kind`` one of ``LINEAR``, ``RBF``, ``POLY``, ``SIGMOID``: the kernel values are
  computed from the points and their squared norms, and kept in a
  least-recently-used cache of rows bounded in megabytes, as LIBSVM's
  ``Cache`` does.  No ``n x n`` matrix is ever built.  The points are stored
  in the solver's working order in one of two ways:

  - dense (:func:`kernel_rows`): ``XT[f, t]``, by feature;
  - sparse (:func:`csr_rows`): compressed sparse rows ``indptr``,
    ``indices`` (sorted within each row), ``data``, with ``dense_row``, a
    vector of ``n_features`` zeros into which one point is scattered while
    its row is computed (:func:`sparse_block`).  ``XT`` is then empty, of
    shape (0, n).

  Both sum each inner product over the features in increasing order, so
  the same points stored either way give the same kernel values to the last
  bit (up to the squared norms of the RBF kernel, summed in another order).

The cache, LIBSVM-style, in flat arrays:

``pool``      one block of memory; slot ``s`` holds a row at ``pool[s * stride:]``
``slot_of``   original index -> slot (``-1``: not cached)
``owner``     slot -> original index
``length``    slot -> how many leading working positions of the row are computed
``prev/next`` a doubly linked list of the slots in use, most recent first
              (position ``n`` is the list's head and tail sentinel)
``cstate``    stride, number of slots, slots in use, hits, misses, values computed
              into the cache, capacity (in values), values computed beyond the
              stride (not cached), values computed to rebuild the gradient

A cached row holds ``Q[i, t]`` at working positions ``t < length`` and is
read in place (a view of ``pool``).  Rows
are only ever needed on the active set (the prefix ``0:A`` of the working
order), so when shrinking makes the active set smaller the rows are cut to
it and re-packed with a shorter stride (:func:`cache_relayout`), and more of
them fit; when the gradient is rebuilt (the active set is all ``n``
again) they are re-packed with stride ``n``.  A request longer than the
stride (the full row that updates ``grad_bar``) is served from the cache for
its first ``stride`` values and computed for the rest.

Every function is plain Python compiled by Numba (``@njit(cache=True)``);
:mod:`svmlib._smo_steps` runs them compiled or, with ``compiled=False``, as
plain Python (the same code objects).  Those an iteration calls are compiled
without reference counting (``_nrt=False``), those that allocate with it
(``_nrt=True``): see :mod:`svmlib._smo_steps`.
"""

import math
from collections import namedtuple

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover - plain Python, same steps, slower
    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

# Row source kinds.
GRAM, LINEAR, RBF, POLY, SIGMOID = 0, 1, 2, 3, 4
# Indices into cstate.
STRIDE, SLOTS, USED, HITS, MISSES, COMPUTED, CAPACITY, UNCACHED, REBUILT = range(9)

RowSource = namedtuple(
    "RowSource",
    ["kind", "K", "XT", "sqnorm", "params", "indptr", "indices", "data", "dense_row", "pool",
     "slot_of", "owner", "length", "prev", "next", "cstate"])
RowSource.__doc__ = "Where the rows of Q come from (see the module docstring)."


#: A Gram matrix's row cache holds at most this many values (8 MB): a row
#: missing from it costs one gather from the matrix, not kernel evaluations.
GRAM_CACHE_VALUES = 2**20


def gram_rows(K):
    """A row source on a Gram matrix in memory (C-contiguous float64, n x n).

    Its rows of ``Q`` are gathered from ``K`` into a small cache in working
    order, so that a row used again (the usual case) is read in place.
    """
    n = K.shape[0]
    return _source(GRAM, K, np.empty((0, 0)), np.empty(0), np.zeros(3),
                   min(max(GRAM_CACHE_VALUES, 2 * n), n * n))


_NO_INDEX = np.empty(0, dtype=np.int64)


def _source(kind, K, X, sqnorm, params, capacity, csr=None):
    n = max(K.shape[0], X.shape[1])
    capacity = max(capacity, 1)
    if csr is None:       # dense points (or a Gram matrix): no compressed rows
        indptr, indices, data, dense_row = _NO_INDEX, _NO_INDEX, np.empty(0), np.empty(0)
    else:
        indptr, indices, data, dense_row = csr
    cstate = np.zeros(9, dtype=np.int64)
    cstate[STRIDE] = n
    cstate[SLOTS] = min(n, max(2, capacity // max(n, 1)))
    cstate[CAPACITY] = capacity
    links = np.full(n + 1, n, dtype=np.int64)       # an empty list: head = tail = n
    return RowSource(int(kind), K, X, sqnorm, params, indptr, indices, data, dense_row,
                     np.empty(capacity),
                     np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64),
                     np.zeros(n, dtype=np.int64), links, links.copy(), cstate)


def kernel_rows(kind, X, gamma=1.0, coef0=0.0, degree=1, cache_size=200.0):
    """A row source that computes rows of a named kernel into a cache of ``cache_size`` MB.

    ``X`` (n x d) is copied; the source keeps it in the solver's working
    order.  The cache holds at most ``cache_size`` megabytes of rows (and at
    least two full rows, at most the whole matrix).
    """
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    capacity = int(min(max(int(cache_size * 2**20 // 8), 2 * n), n * n))
    return _source(kind, np.empty((0, 0)), np.ascontiguousarray(X.T), np.einsum("ij,ij->i", X, X),
                   np.array([float(gamma), float(coef0), float(degree)]), capacity)


def csr_rows(kind, X, gamma=1.0, coef0=0.0, degree=1, cache_size=200.0):
    """A row source like :func:`kernel_rows` on points given as a sparse matrix.

    ``X`` (n x d, any scipy.sparse format) is copied into compressed sparse
    rows with sorted column indices and no duplicates (int64 indices,
    float64 values), which the source keeps in the solver's working order.
    A kernel value ``k(x_i, x_t)`` then costs the nonzeros of ``x_t``
    (:func:`sparse_block`), not ``d``.
    """
    import scipy.sparse
    X = scipy.sparse.csr_matrix(X, dtype=np.float64, copy=True)
    X.sum_duplicates()                     # also sorts the indices of every row
    n, d = X.shape
    indptr = X.indptr.astype(np.int64)
    indices = X.indices.astype(np.int64)
    data = X.data.copy()
    sqnorm = sparse_squared_norms(indptr, data, np.empty(n))
    capacity = int(min(max(int(cache_size * 2**20 // 8), 2 * n), n * n))
    return _source(kind, np.empty((0, 0)), np.empty((0, n)), sqnorm,
                   np.array([float(gamma), float(coef0), float(degree)]), capacity,
                   csr=(indptr, indices, data, np.zeros(d)))


# ------------------------------------------------------------ kernel values

@njit(cache=True, _nrt=False)
def sparse_squared_norms(indptr, data, out):
    """``out[t] = ||x_t||^2`` of sparse rows, summed in feature order (as
    :func:`sparse_dot` sums ``<x_t, x_t>``)."""
    for t in range(out.shape[0]):
        total = 0.0
        for k in range(indptr[t], indptr[t + 1]):
            total += data[k] * data[k]
        out[t] = total
    return out


@njit(cache=True, _nrt=False)
def dot(XT, a, b):
    """``<x_a, x_b>`` from the points stored by feature (``XT[f, t]``), summed
    over the features in order (the order :func:`kernel_block` sums in)."""
    total = 0.0
    for f in range(XT.shape[0]):
        total += XT[f, a] * XT[f, b]
    return total


#: Positions per tile of :func:`kernel_block`: its partial sums (2 KB) stay in
#: the fastest cache while every feature is added to them.
KERNEL_TILE = 256


@njit(cache=True, _nrt=False)
def kernel_block(rows, i, start, stop, dest, offset):
    """``dest[offset + t - start] = k(x_i, x_t)`` for working positions ``start <= t < stop``.

    The inner products are accumulated one feature at a time over a tile of
    ``KERNEL_TILE`` positions (a loop the compiler turns into vector
    instructions; each ``t`` still sums its features in order, exactly as
    :func:`dot`), then turned into kernel values, tile by tile, so that the
    partial sums are read back from the fastest cache rather than from memory.
    Points stored as sparse rows go to :func:`sparse_block`.
    """
    if rows.indptr.shape[0] > 0:
        sparse_block(rows, i, start, stop, dest, offset)
        return
    XT = rows.XT
    sq = rows.sqnorm
    kind = rows.kind
    params = rows.params
    sq_i = sq[i]
    for tile in range(start, stop, KERNEL_TILE):
        tile_stop = min(tile + KERNEL_TILE, stop)
        width = tile_stop - tile
        part = dest[offset + tile - start:offset + tile_stop - start]
        for k in range(width):
            part[k] = 0.0
        for f in range(XT.shape[0]):
            x_if = XT[f, i]
            column = XT[f, tile:tile_stop]
            for k in range(width):
                part[k] += x_if * column[k]
        for k in range(width):
            t = tile + k
            part[k] = kernel_from_dot(kind, part[k], sq_i, sq[t], i == t, params)


@njit(cache=True, _nrt=False)
def sparse_dot(rows, a, b):
    """``<x_a, x_b>`` of two points stored as sparse rows: a merge of their
    sorted column indices, the products of the common ones summed in
    increasing feature order (the sum :func:`dot` makes, without its zeros)."""
    indptr, indices, data = rows.indptr, rows.indices, rows.data
    p, p_end = indptr[a], indptr[a + 1]
    q, q_end = indptr[b], indptr[b + 1]
    total = 0.0
    while p < p_end and q < q_end:
        f_a, f_b = indices[p], indices[q]
        if f_a == f_b:
            total += data[p] * data[q]
            p += 1
            q += 1
        elif f_a < f_b:
            p += 1
        else:
            q += 1
    return total


@njit(cache=True, _nrt=False)
def sparse_block(rows, i, start, stop, dest, offset):
    """:func:`kernel_block` for points stored as sparse rows.

    ``x_i`` is scattered into ``dense_row``; then each ``<x_i, x_t>`` sums
    over the nonzeros of ``x_t`` only, in increasing feature order (the
    values of :func:`sparse_dot`: a product with a zero of ``x_i`` adds
    nothing), and ``dense_row`` is cleared again.  One value costs the
    nonzeros of ``x_t``, where LIBSVM's merge of two sparse rows costs those
    of both.
    """
    indptr, indices, data = rows.indptr, rows.indices, rows.data
    dense = rows.dense_row
    sq = rows.sqnorm
    kind = rows.kind
    params = rows.params
    sq_i = sq[i]
    for k in range(indptr[i], indptr[i + 1]):
        dense[indices[k]] = data[k]
    for t in range(start, stop):
        total = 0.0
        for k in range(indptr[t], indptr[t + 1]):
            total += data[k] * dense[indices[k]]
        dest[offset + t - start] = kernel_from_dot(kind, total, sq_i, sq[t], i == t, params)
    for k in range(indptr[i], indptr[i + 1]):
        dense[indices[k]] = 0.0


@njit(cache=True, inline="always")
def kernel_from_dot(kind, product, sq_a, sq_b, same, params):
    """The kernel value from ``<x_a, x_b>`` and the squared norms, as
    :mod:`svmlib.kernels` defines it (``same``: the same point)."""
    if kind == LINEAR:
        return product
    if kind == RBF:
        if same:
            return 1.0
        d2 = sq_a + sq_b - 2.0 * product
        if d2 < 0.0:
            d2 = 0.0
        return math.exp(-params[0] * d2)
    if kind == SIGMOID:
        return math.tanh(params[0] * product + params[1])
    return (params[0] * product + params[1]) ** params[2]


@njit(cache=True, _nrt=False)
def kernel_value(rows, a, b):
    """``k(x_a, x_b)`` for the points at working positions ``a`` and ``b``
    (the same arithmetic as :func:`kernel_block`)."""
    if rows.indptr.shape[0] > 0:
        product = sparse_dot(rows, a, b)
    else:
        product = dot(rows.XT, a, b)
    return kernel_from_dot(rows.kind, product, rows.sqnorm[a], rows.sqnorm[b], a == b,
                           rows.params)


@njit(cache=True, _nrt=False)
def q_values(rows, y, order, i, start, stop, dest, offset):
    """``dest[offset + t - start] = Q[i, t] = y_i y_t k(x_i, x_t)`` for working
    positions ``start <= t < stop``: gathered from the Gram matrix, or computed."""
    y_i = y[i]
    if rows.kind == GRAM:
        K = rows.K
        row = order[i]
        for t in range(start, stop):
            dest[offset + t - start] = (y_i * y[t]) * K[row, order[t]]
        return
    kernel_block(rows, i, start, stop, dest, offset)
    for t in range(start, stop):
        dest[offset + t - start] = (y_i * y[t]) * dest[offset + t - start]


@njit(cache=True, _nrt=True)
def kernel_diagonal(rows, out):
    """``out[t] = k(x_t, x_t)`` for every working position."""
    for t in range(out.shape[0]):
        out[t] = kernel_value(rows, t, t)
    return out


# ----------------------------------------------------- the least-recently-used list

@njit(cache=True, inline="always")
def lru_unlink(rows, s):
    """Take slot ``s`` out of the recency list."""
    rows.next[rows.prev[s]] = rows.next[s]
    rows.prev[rows.next[s]] = rows.prev[s]


@njit(cache=True, inline="always")
def lru_push_front(rows, s):
    """Put slot ``s`` at the front of the recency list (most recently used)."""
    head = rows.next.shape[0] - 1
    first = rows.next[head]
    rows.next[s] = first
    rows.prev[s] = head
    rows.prev[first] = s
    rows.next[head] = s


@njit(cache=True, _nrt=False)
def take_slot(rows):
    """A slot for a new row: a free one, else the least recently used one (evicted)."""
    cstate = rows.cstate
    if cstate[USED] < cstate[SLOTS]:
        s = cstate[USED]
        cstate[USED] += 1
        return s
    head = rows.next.shape[0] - 1
    s = rows.prev[head]
    lru_unlink(rows, s)
    rows.slot_of[rows.owner[s]] = -1
    rows.length[s] = 0
    return s


# ------------------------------------------------------------------ one row

@njit(cache=True, _nrt=False)
def fetch_row(rows, y, order, i, length, out):
    """Make row ``i`` of ``Q`` at working positions ``0:length`` available.

    Returns where it is: its offset in ``pool`` when the cache holds it
    (valid until the next request evicts it; the two most recent rows
    always stay), or ``-1`` for a request longer than the stride, whose row
    is then in ``out`` (the cached part copied, the rest computed).
    """
    cstate = rows.cstate
    stride = cstate[STRIDE]
    key = order[i]
    kept = min(length, stride)
    s = rows.slot_of[key]
    if s >= 0:
        lru_unlink(rows, s)
        have = rows.length[s]
        if have >= kept:
            cstate[HITS] += 1
        else:                                # extend the row to the longer prefix
            cstate[MISSES] += 1
            q_values(rows, y, order, i, have, kept, rows.pool, s * stride + have)
            cstate[COMPUTED] += kept - have
            rows.length[s] = kept
    else:
        cstate[MISSES] += 1
        s = take_slot(rows)
        q_values(rows, y, order, i, 0, kept, rows.pool, s * stride)
        cstate[COMPUTED] += kept
        rows.slot_of[key] = s
        rows.owner[s] = key
        rows.length[s] = kept
    lru_push_front(rows, s)
    base = s * stride
    if length <= kept:
        return base
    for t in range(kept):                     # beyond the stride: computed, not cached
        out[t] = rows.pool[base + t]
    q_values(rows, y, order, i, kept, length, out, kept)
    cstate[UNCACHED] += length - kept
    return -1


@njit(cache=True, inline="always")
def cached_row(rows, y, order, i, length, out):
    """Row ``i`` of ``Q`` at working positions ``0:length``, through the cache
    (:func:`fetch_row`): a view of the cache's memory, or ``out``.

    Inlined into its callers: the view is made where it is used, rather than
    handed back through compiled calls (each with reference counting).
    """
    base = fetch_row(rows, y, order, i, length, out)
    if base < 0:
        return out
    return rows.pool[base:base + length]


# ---------------------------------------------- shrinking: re-order and re-pack

@njit(cache=True, _nrt=True)
def permute(values, new_to_old):
    """Re-order ``values`` in place: position ``new_to_old[k]`` moves to ``k``."""
    old = values.copy()
    for k in range(new_to_old.shape[0]):
        values[k] = old[new_to_old[k]]


@njit(cache=True, _nrt=False)
def first_reaching(running_max, value):
    """The first ``k`` with ``running_max[k] >= value`` (``running_max`` is
    non-decreasing; its length if there is none): a binary search."""
    low, high = 0, running_max.shape[0]
    while low < high:
        middle = (low + high) // 2
        if running_max[middle] < value:
            low = middle + 1
        else:
            high = middle
    return low


@njit(cache=True, _nrt=True)
def cache_relayout(rows, new_stride, new_to_old, permute):
    """Re-pack the cached rows with stride ``new_stride`` (after the working order changed).

    With ``permute``, position ``k`` of the new order is position
    ``new_to_old[k]`` of the old one: a row keeps the longest prefix whose
    values it holds (a row computed on ``0:L`` is valid up to the first new
    position that comes from an old position ``>= L``), cut to the stride.
    The most recently used rows that fit in the new number of slots stay,
    in their order of recency.  The rows are moved inside ``pool`` without a
    second copy of it: towards the front first, then (when the stride grows)
    outwards from the back.
    """
    cstate = rows.cstate
    old_stride = cstate[STRIDE]
    used = cstate[USED]
    n = rows.slot_of.shape[0]
    pool = rows.pool
    new_slots = min(n, max(2, cstate[CAPACITY] // max(new_stride, 1)))
    running_max = np.empty(n, dtype=np.int64)
    if permute:
        top = -1
        for k in range(n):
            top = max(top, new_to_old[k])
            running_max[k] = top
    # Survivors, most recent first, and their new lengths.
    head = n
    mru = np.empty(used, dtype=np.int64)
    new_length = np.zeros(max(used, 1), dtype=np.int64)
    rank = np.full(max(used, 1), -1, dtype=np.int64)
    count = 0
    s = rows.next[head]
    while s != head:
        have = rows.length[s]
        if permute:
            have = min(have, first_reaching(running_max, have))
        have = min(have, new_stride)
        if count < new_slots and have > 0:
            mru[count] = s
            new_length[s] = have
            rank[s] = 0
            count += 1
        else:
            rows.slot_of[rows.owner[s]] = -1
        s = rows.next[s]
    # Ranks in the order of the slots (so that every move goes towards the front).
    r = 0
    for s in range(used):
        if rank[s] >= 0:
            rank[s] = r
            r += 1
    step = min(old_stride, new_stride)
    buf = np.empty(old_stride)
    for s in range(used):
        if rank[s] < 0:
            continue
        src = s * old_stride
        dst = rank[s] * step
        L = new_length[s]
        if permute:
            for k in range(L):
                buf[k] = pool[src + new_to_old[k]]
            for k in range(L):
                pool[dst + k] = buf[k]
        elif dst != src:
            for k in range(L):
                pool[dst + k] = pool[src + k]
    owners = np.empty(max(count, 1), dtype=np.int64)
    lengths = np.empty(max(count, 1), dtype=np.int64)
    for s in range(used):
        if rank[s] >= 0:
            owners[rank[s]] = rows.owner[s]
            lengths[rank[s]] = new_length[s]
    if new_stride > step:                   # the stride grows: spread out from the back
        for q in range(count - 1, -1, -1):
            src = q * step
            dst = q * new_stride
            for k in range(lengths[q] - 1, -1, -1):
                pool[dst + k] = pool[src + k]
    # The new slot table and recency list.
    rows.next[head] = head
    rows.prev[head] = head
    for q in range(count):
        rows.owner[q] = owners[q]
        rows.length[q] = lengths[q]
        rows.slot_of[owners[q]] = q
    for c in range(count - 1, -1, -1):      # push the least recent first
        lru_push_front(rows, rank[mru[c]])
    cstate[STRIDE] = new_stride
    cstate[SLOTS] = new_slots
    cstate[USED] = count


@njit(cache=True, _nrt=True)
def permute_sparse_rows(rows, new_to_old):
    """Re-order the sparse rows in place: row ``new_to_old[k]`` moves to ``k``
    (the arrays keep their length: only the rows' places change)."""
    indptr, indices, data = rows.indptr, rows.indices, rows.data
    old_indptr, old_indices, old_data = indptr.copy(), indices.copy(), data.copy()
    position = 0
    for k in range(new_to_old.shape[0]):
        s = new_to_old[k]
        indptr[k] = position
        for q in range(old_indptr[s], old_indptr[s + 1]):
            indices[position] = old_indices[q]
            data[position] = old_data[q]
            position += 1
    indptr[new_to_old.shape[0]] = position


@njit(cache=True, _nrt=True)
def permute_points(rows, new_to_old, kept):
    """After shrinking: the points and their norms (of a kernel) follow the
    new working order, and the cached rows are re-ordered and cut to the
    ``kept`` active positions."""
    if rows.kind != GRAM:
        if rows.indptr.shape[0] > 0:
            permute_sparse_rows(rows, new_to_old)
        for f in range(rows.XT.shape[0]):
            permute(rows.XT[f], new_to_old)
        permute(rows.sqnorm, new_to_old)
    cache_relayout(rows, kept, new_to_old, True)


@njit(cache=True, _nrt=True)
def grow_rows(rows):
    """Before the active set becomes all ``n`` positions again: stride ``n``."""
    n = rows.slot_of.shape[0]
    if rows.cstate[STRIDE] < n:
        cache_relayout(rows, n, np.empty(0, dtype=np.int64), False)


#: The functions of this module, in the order above (svmlib._smo_steps runs
#: them compiled or interpreted with its own steps).
ROW_STEPS = ("sparse_squared_norms", "dot", "sparse_dot", "sparse_block", "kernel_block",
             "kernel_from_dot", "kernel_value", "q_values",
             "kernel_diagonal", "lru_unlink", "lru_push_front", "take_slot", "fetch_row",
             "cached_row",
             "permute", "first_reaching", "cache_relayout", "permute_sparse_rows",
             "permute_points", "grow_rows")
