"""One way to read a row of dense or CSR data, for every LIBLINEAR solver in svmlib.

The solvers in :mod:`svmlib.linear`, :mod:`svmlib._linear_l1`,
:mod:`svmlib._linear_newton` and :mod:`svmlib._linear_cs` walk a matrix one
row at a time (the dual methods a sample, the L1 method a feature: a row of
``X^T``).  Each loop is written once, against four arrays that describe the
matrix whatever its storage:

``data, indices, indptr, width``
    Row ``i`` is ``data[indptr[i]:end]`` with ``end = indptr[i] + width`` for
    dense storage (``width > 0``: the rows of a C-ordered array, laid end to
    end, ``indices`` unused and empty) and ``end = indptr[i + 1]`` for CSR
    storage (``width == 0``; ``indices[q]`` is the column of ``data[q]``).

:func:`row_span` and :func:`column_at` are the accessor; :func:`row_dot`,
:func:`row_axpy` and :func:`row_sqnorm` are the three operations the solvers
need, built on it.  :func:`rows_of` views a dense array or CSR matrix this way
without copying the values; :func:`columns_of` gives the rows of ``X^T`` (a
copy: a Fortran-ordered array or a CSC matrix), optionally with a constant
column appended.  The branch on ``width`` is the same for a whole row, so the
compiled loop runs each row in the straight loop of its storage.
"""

import numpy as np
import scipy.sparse

try:  # compiled when Numba is available
    from numba import njit
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - plain Python, same arithmetic, slower
    HAVE_NUMBA = False

    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

__all__ = ["row_span", "column_at", "row_dot", "row_axpy", "row_sqnorm", "rows_of",
           "columns_of", "shuffle", "plain", "HAVE_NUMBA"]

_EMPTY = np.zeros(0, dtype=np.int64)


@njit(cache=True)
def row_span(indptr, width, i):
    """``(start, end)``: the positions of row ``i``'s entries in ``data``."""
    start = indptr[i]
    if width > 0:
        return start, start + width
    return start, indptr[i + 1]


@njit(cache=True)
def column_at(indices, width, start, q):
    """The column of the entry at position ``q`` of a row that starts at ``start``."""
    if width > 0:
        return q - start
    return indices[q]


@njit(cache=True)
def row_dot(data, indices, indptr, width, i, v):
    """``<x_i, v>``."""
    start, end = row_span(indptr, width, i)
    total = 0.0
    if width > 0:          # the same loop as below, with column = position in the row
        for k in range(width):
            total += data[start + k] * v[k]
    else:
        for q in range(start, end):
            total += data[q] * v[indices[q]]
    return total


@njit(cache=True)
def row_axpy(a, data, indices, indptr, width, i, v):
    """``v += a * x_i`` in place."""
    start, end = row_span(indptr, width, i)
    if width > 0:
        for k in range(width):
            v[k] += a * data[start + k]
    else:
        for q in range(start, end):
            v[indices[q]] += a * data[q]


@njit(cache=True)
def row_sqnorm(data, indptr, width, i):
    """``||x_i||^2``."""
    start, end = row_span(indptr, width, i)
    total = 0.0
    for q in range(start, end):
        total += data[q] * data[q]
    return total


@njit(cache=True)
def shuffle(index, active, rng_state):
    """Fisher-Yates on ``index[:active]``; returns the generator's new state.

    A small linear congruential generator, so that the order is the same with
    and without Numba.
    """
    for s in range(active - 1, 0, -1):
        rng_state = (rng_state * 6364136223846793005 + 1442695040888963407) & (2**63 - 1)
        t = (rng_state >> 17) % (s + 1)
        index[s], index[t] = index[t], index[s]
    return rng_state


def rows_of(X):
    """``(data, indices, indptr, width)`` for the rows of a dense array or CSR matrix.

    Dense input is used in place when it is C-contiguous float64 (else copied
    once); CSR input is used in place with its indices sorted.
    """
    if scipy.sparse.issparse(X):
        X = scipy.sparse.csr_matrix(X, dtype=np.float64)
        X.sort_indices()
        return (X.data, X.indices.astype(np.int64), X.indptr.astype(np.int64), 0)
    X = np.ascontiguousarray(X, dtype=np.float64)
    n, p = X.shape
    return (X.reshape(-1), _EMPTY, np.arange(n + 1, dtype=np.int64) * p, p)


def columns_of(X, constant=0.0, scale_rows=None):
    """The rows of ``X^T`` (a copy), as :func:`rows_of` describes them.

    Parameters
    ----------
    X : ndarray of shape (n, p) or sparse matrix
    constant : float, default=0.0
        When nonzero, a last column with this value in every row is appended
        (the bias feature); its row in ``X^T`` is then row ``p``.
    scale_rows : ndarray of shape (n,) or None
        Multiply row ``i`` of ``X`` by ``scale_rows[i]`` in the copy (e.g. by
        the labels, so that the solver reads ``y_i x_ij``).
    """
    n = X.shape[0]
    if scipy.sparse.issparse(X):
        X = scipy.sparse.csr_matrix(X, dtype=np.float64)
        if scale_rows is not None:
            X = scipy.sparse.diags(scale_rows) @ X
        if constant != 0.0:
            last = np.full(n, float(constant)) if scale_rows is None else constant * scale_rows
            X = scipy.sparse.hstack([X, scipy.sparse.csr_matrix(last.reshape(-1, 1))])
        T = scipy.sparse.csc_matrix(X, dtype=np.float64)  # CSC of X is CSR of X^T
        T.sort_indices()
        return (T.data.copy(), T.indices.astype(np.int64), T.indptr.astype(np.int64), 0)
    X = np.asarray(X, dtype=np.float64)
    p = X.shape[1] + (1 if constant != 0.0 else 0)
    T = np.empty((p, n))
    T[:X.shape[1]] = X.T
    if constant != 0.0:
        T[-1] = constant
    if scale_rows is not None:
        T *= scale_rows
    return (T.reshape(-1), _EMPTY, np.arange(p + 1, dtype=np.int64) * n, n)


def plain(function):
    """The interpreted (plain Python) version of a compiled function: the same source."""
    return getattr(function, "py_func", function)
