"""The primal trust-region Newton method for the L2-regularized squared losses (LIBLINEAR's solvers 2 and 11).

The primal of the L2-SVM, the bias the weight of a constant feature ``s``
(regularized, as in LIBLINEAR; Lin, Weng & Keerthi, 2008)::

    f(w) = 1/2 ||w||^2 + sum_i C_i max(0, 1 - y_i <w, x_i>)^2

is convex and once differentiable, with a gradient and a generalized Hessian
that involve only the samples ``I = {i : y_i <w, x_i> < 1}`` inside the margin::

    grad f(w) = w + 2 X_I^T (C_I * y_I * (z_I - 1)),        z_i = y_i <w, x_i>,
    H(w) v    = v + 2 X_I^T (C_I * (X_I v)).

The squared epsilon-insensitive loss of :class:`svmlib.LinearSVR`,
``C_i max(0, |<w, x_i> - y_i| - epsilon)^2``, has the same form with ``I``
the samples outside the tube (and ``C_i (r_i -+ epsilon)`` in the gradient).

``H`` is never formed: each Newton step ``s`` approximately solves ``H s =
-grad f`` by conjugate gradients, which need only products ``H v`` (two passes
over the rows of ``I``), stopped when the residual is a tenth of the
gradient or when ``s`` leaves the *trust region* ``||s|| <= Delta`` (then
``s`` is cut at the boundary).  The step is accepted when the actual
decrease of ``f`` is a fair part of the decrease the quadratic model
predicted, and ``Delta`` grows or shrinks with that ratio, with the
constants of LIBLINEAR's TRON (``eta = 1e-4, 0.25, 0.75``; ``sigma = 0.25,
0.5, 4``).  Stop when ``||grad f(w)|| <= tol * ||grad f(0)||``.  The number of
iterations is the number of accepted steps, which is what LIBLINEAR reports.

Every product with ``X`` goes through :mod:`svmlib._linear_rows`, so the same
source runs on dense and CSR data.
"""

import numpy as np

from ._linear_rows import njit, row_axpy, row_dot

SVC, SVR = 0, 1
ETA0, ETA1, ETA2 = 1e-4, 0.25, 0.75
SIGMA1, SIGMA2, SIGMA3 = 0.25, 0.5, 4.0

__all__ = ["tron", "SVC", "SVR"]


@njit(cache=True)
def _Xv(data, indices, indptr, width, s, v, out):
    """``out = X_hat v`` (``v[-1]`` is the weight of the constant feature ``s``)."""
    p = v.shape[0] - 1
    for i in range(out.shape[0]):
        out[i] = row_dot(data, indices, indptr, width, i, v[:p]) + s * v[p]


@njit(cache=True)
def _XTv_sub(data, indices, indptr, width, s, rows, size, u, out):
    """``out = X_hat[rows[:size]]^T u[:size]``."""
    p = out.shape[0] - 1
    out[:] = 0.0
    head = out[:p]
    for k in range(size):
        row_axpy(u[k], data, indices, indptr, width, rows[k], head)
        out[p] += s * u[k]


@njit(cache=True)
def _fun(data, indices, indptr, width, s, kind, y, C, epsilon, w, z):
    """``f(w)``; leaves ``z = X_hat w`` for :func:`_grad`."""
    _Xv(data, indices, indptr, width, s, w, z)
    f = 0.5 * (w @ w)
    for i in range(z.shape[0]):
        if kind == SVC:
            d = 1.0 - y[i] * z[i]
            if d > 0.0:
                f += C[i] * d * d
        else:
            d = z[i] - y[i]
            if d < -epsilon:
                f += C[i] * (d + epsilon) * (d + epsilon)
            elif d > epsilon:
                f += C[i] * (d - epsilon) * (d - epsilon)
    return f


@njit(cache=True)
def _grad(data, indices, indptr, width, s, kind, y, C, epsilon, w, z, rows, u, g):
    """``g = grad f(w)`` from ``z = X_hat w``; returns ``|I|`` (its rows in ``rows``)."""
    size = 0
    for i in range(z.shape[0]):
        if kind == SVC:
            if y[i] * z[i] < 1.0:
                u[size] = C[i] * (z[i] - y[i])        # C_i y_i (y_i z_i - 1), y_i^2 = 1
                rows[size] = i
                size += 1
        else:
            d = z[i] - y[i]
            if d < -epsilon or d > epsilon:
                u[size] = C[i] * (d + epsilon if d < -epsilon else d - epsilon)
                rows[size] = i
                size += 1
    _XTv_sub(data, indices, indptr, width, s, rows, size, u, g)
    for k in range(g.shape[0]):
        g[k] = w[k] + 2.0 * g[k]
    return size


@njit(cache=True)
def _Hv(data, indices, indptr, width, s, C, rows, size, v, u, out):
    """``out = H v = v + 2 X_I^T (C_I * (X_I v))``."""
    p = v.shape[0] - 1
    for k in range(size):
        i = rows[k]
        u[k] = C[i] * (row_dot(data, indices, indptr, width, i, v[:p]) + s * v[p])
    _XTv_sub(data, indices, indptr, width, s, rows, size, u, out)
    for k in range(out.shape[0]):
        out[k] = v[k] + 2.0 * out[k]


@njit(cache=True)
def _trust_region_cg(data, indices, indptr, width, s, C, rows, size, u, delta, g, step, r):
    """Conjugate gradients on ``H step = -g`` inside ``||step|| <= delta``; ``r`` the residual."""
    m = g.shape[0]
    d = np.empty(m)
    Hd = np.empty(m)
    step[:] = 0.0
    for k in range(m):
        r[k] = -g[k]
        d[k] = r[k]
    cg_tol = 0.1 * np.sqrt(g @ g)
    rTr = r @ r
    while np.sqrt(r @ r) > cg_tol:
        _Hv(data, indices, indptr, width, s, C, rows, size, d, u, Hd)
        alpha = rTr / (d @ Hd)
        step += alpha * d
        if np.sqrt(step @ step) > delta:       # cut the step at the trust region's boundary
            step -= alpha * d
            std, sts, dtd = step @ d, step @ step, d @ d
            rad = np.sqrt(std * std + dtd * (delta * delta - sts))
            if std >= 0.0:
                alpha = (delta * delta - sts) / (std + rad)
            else:
                alpha = (rad - std) / dtd
            step += alpha * d
            r -= alpha * Hd
            break
        r -= alpha * Hd
        rnew = r @ r
        d *= rnew / rTr
        d += r
        rTr = rnew


@njit(cache=True)
def tron(data, indices, indptr, width, s, kind, y, C, epsilon, w, tol, max_iter):
    """Minimize ``f`` from ``w = 0`` (``w`` in place, the bias weight last); returns the iterations.

    ``data, indices, indptr, width`` are the rows of ``X``; ``kind`` is
    :data:`SVC` (labels ``y`` in {-1, +1}) or :data:`SVR` (targets ``y``, tube
    half-width ``epsilon``).
    """
    n = indptr.shape[0] - 1
    m = w.shape[0]
    z = np.empty(n)
    u = np.empty(n)
    rows = np.empty(n, dtype=np.int64)
    g = np.empty(m)
    step = np.empty(m)
    r = np.empty(m)
    w_new = np.empty(m)
    w[:] = 0.0
    f = _fun(data, indices, indptr, width, s, kind, y, C, epsilon, w, z)
    size = _grad(data, indices, indptr, width, s, kind, y, C, epsilon, w, z, rows, u, g)
    delta = np.sqrt(g @ g)
    gnorm0 = delta
    if gnorm0 <= tol * gnorm0:
        return 0
    it = 1
    while it <= max_iter:
        _trust_region_cg(data, indices, indptr, width, s, C, rows, size, u, delta, g, step, r)
        w_new[:] = w + step
        gs = g @ step
        predicted = -0.5 * (gs - step @ r)
        f_new = _fun(data, indices, indptr, width, s, kind, y, C, epsilon, w_new, z)
        actual = f - f_new
        snorm = np.sqrt(step @ step)
        if it == 1:
            delta = min(delta, snorm)
        # The step's length that the one-dimensional quadratic through f, f' and f_new suggests.
        if f_new - f - gs <= 0.0:
            alpha = SIGMA3
        else:
            alpha = max(SIGMA1, -0.5 * (gs / (f_new - f - gs)))
        if actual < ETA0 * predicted:
            delta = min(max(alpha, SIGMA1) * snorm, SIGMA2 * delta)
        elif actual < ETA1 * predicted:
            delta = max(SIGMA1 * delta, min(alpha * snorm, SIGMA2 * delta))
        elif actual < ETA2 * predicted:
            delta = max(SIGMA1 * delta, min(alpha * snorm, SIGMA3 * delta))
        else:
            delta = max(delta, min(alpha * snorm, SIGMA3 * delta))
        if actual > ETA0 * predicted:          # accept the step
            it += 1
            w[:] = w_new
            f = f_new
            size = _grad(data, indices, indptr, width, s, kind, y, C, epsilon, w, z, rows, u, g)
            if np.sqrt(g @ g) <= tol * gnorm0:
                break
        if f < -1.0e32:
            break
        if abs(actual) <= 0.0 and predicted <= 0.0:
            break
        if abs(actual) <= 1.0e-12 * abs(f) and abs(predicted) <= 1.0e-12 * abs(f):
            break
    return it - 1
