"""Coordinate descent for the L1-regularized squared hinge (LIBLINEAR's solver 5).

The problem (Yuan, Chang, Hsieh & Lin, 2010; Fan et al., 2008, appendix),
with the bias the weight of a constant feature ``s`` and penalized like the
other weights, as in LIBLINEAR::

    minimize over w   F(w) = ||w||_1 + sum_i C_i max(0, b_i(w))^2,   b_i(w) = 1 - y_i <w, x_i>.

``F`` is convex but not differentiable where a weight is 0, which is why the
solution is sparse.  The method updates one weight ``w_j`` at a time.  Along
coordinate ``j`` the loss part ``L`` has the derivative and (generalized)
second derivative::

    L'_j  = -2 sum_{i: b_i > 0} C_i y_i x_ij b_i,
    L''_j =  2 sum_{i: b_i > 0} C_i x_ij^2,

and the step ``d`` minimizes the quadratic model ``|w_j + d| + L'_j d +
L''_j d^2 / 2``, soft thresholding at the kink 0::

    d = -(L'_j + 1) / L''_j   if L'_j + 1 <= L''_j w_j,
    d = -(L'_j - 1) / L''_j   if L'_j - 1 >= L''_j w_j,
    d = -w_j                  otherwise (the weight goes to 0).

The model is only an upper bound where some ``b_i`` change sign, so ``d`` is
halved until the sufficient-decrease condition holds (an Armijo line search,
``sigma = 0.01``), first tried on the cheap upper bound ``sum_i C_i x_ij^2
d^2 + L'_j d + |w_j + d| - |w_j| - sigma * delta`` that needs no pass over
the column.  The optimality conditions are ``|L'_j| <= 1`` where ``w_j = 0``
and ``L'_j = -sign(w_j)`` elsewhere; the *violation* of weight ``j`` is how
far they fail.  A pass visits the active weights in a random order; a weight
at 0 whose violation is well inside the interval (``|L'_j| < 1 - M / n``,
``M`` the largest violation of the previous pass) leaves the active set.
Stop when the sum of the violations over a pass is at most ``tol`` times
that of the first pass, after a last pass over every weight.

The loop reads the columns of ``X`` (the rows of ``X^T``, dense or CSC,
through :mod:`svmlib._linear_rows`), with ``y_i`` folded into the values.
"""

import numpy as np

from ._linear_rows import column_at, njit, row_span, shuffle

SIGMA = 0.01            # sufficient decrease of the line search
MAX_LINE_SEARCH = 20    # halvings of the step before giving up on a coordinate

__all__ = ["l1_cd"]


@njit(cache=True)
def _newton_direction(G, H, w_j):
    """The minimizer ``d`` of ``|w_j + d| + G d + H d^2 / 2`` (soft thresholding)."""
    if G + 1.0 < H * w_j:
        return -(G + 1.0) / H
    if G - 1.0 > H * w_j:
        return -(G - 1.0) / H
    return -w_j


@njit(cache=True)
def _violation(G, w_j, gmax_old, n):
    """``(violation, shrink)`` of the optimality conditions of weight ``j``."""
    Gp, Gn = G + 1.0, G - 1.0
    if w_j == 0.0:
        if Gp < 0.0:
            return -Gp, False
        if Gn > 0.0:
            return Gn, False
        if Gp > gmax_old / n and Gn < -gmax_old / n:
            return 0.0, True
        return 0.0, False
    if w_j > 0.0:
        return abs(Gp), False
    return abs(Gn), False


@njit(cache=True)
def _column_loss(data, indices, indptr, width, j, b, C, step):
    """``b += step * (y x)_j`` and ``(loss before, loss after)`` on the rows the column touches."""
    start, end = row_span(indptr, width, j)
    before, after = 0.0, 0.0
    for q in range(start, end):
        i = column_at(indices, width, start, q)
        if b[i] > 0.0:
            before += C[i] * b[i] * b[i]
        b[i] += step * data[q]
        if b[i] > 0.0:
            after += C[i] * b[i] * b[i]
    return before, after


@njit(cache=True)
def l1_cd(data, indices, indptr, width, n, C, w, tol, max_iter, seed):
    """Coordinate descent on ``w`` (in place, starting at 0); returns the number of passes.

    ``data, indices, indptr, width`` are the columns of ``X`` (one per weight,
    the bias column included) with ``y_i`` folded in, ``n`` the number of
    samples and ``C`` their penalties ``C_i``.
    """
    p = indptr.shape[0] - 1
    b = np.ones(n)                    # b_i = 1 - y_i <w, x_i> at w = 0
    xj_sq = np.zeros(p)               # sum_i C_i x_ij^2, for the cheap test
    for j in range(p):
        start, end = row_span(indptr, width, j)
        for q in range(start, end):
            i = column_at(indices, width, start, q)
            xj_sq[j] += C[i] * data[q] * data[q]
    index = np.arange(p)
    active = p
    gmax_old = np.inf
    gnorm1_init = -1.0
    rng_state = seed
    it = 0
    while it < max_iter:
        rng_state = shuffle(index, active, rng_state)
        gmax, gnorm1 = 0.0, 0.0
        k_pos = 0
        while k_pos < active:
            j = index[k_pos]
            start, end = row_span(indptr, width, j)
            G_loss, H = 0.0, 0.0
            for q in range(start, end):
                i = column_at(indices, width, start, q)
                if b[i] > 0.0:
                    t = C[i] * data[q]
                    G_loss -= t * b[i]
                    H += t * data[q]
            G_loss *= 2.0
            H = max(2.0 * H, 1e-12)
            violation, shrink = _violation(G_loss, w[j], gmax_old, n)
            if shrink:
                active -= 1
                index[k_pos], index[active] = index[active], index[k_pos]
                continue
            k_pos += 1
            gmax = max(gmax, violation)
            gnorm1 += violation
            d = _newton_direction(G_loss, H, w[j])
            if abs(d) < 1e-12:
                continue
            # Armijo line search on F along d, halving d.
            delta = abs(w[j] + d) - abs(w[j]) + G_loss * d
            d_old = 0.0
            loss_old = 0.0
            searches = 0
            while searches < MAX_LINE_SEARCH:
                cond = abs(w[j] + d) - abs(w[j]) - SIGMA * delta
                if xj_sq[j] * d * d + G_loss * d + cond <= 0.0:
                    _column_loss(data, indices, indptr, width, j, b, C, d_old - d)
                    break
                before, loss_new = _column_loss(data, indices, indptr, width, j, b, C, d_old - d)
                if searches == 0:
                    loss_old = before
                if cond + loss_new - loss_old <= 0.0:
                    break
                d_old = d
                d *= 0.5
                delta *= 0.5
                searches += 1
            w[j] += d
            if searches >= MAX_LINE_SEARCH:   # b drifted: recompute it from w
                b[:] = 1.0
                for jj in range(p):
                    if w[jj] != 0.0:
                        s0, s1 = row_span(indptr, width, jj)
                        for q in range(s0, s1):
                            b[column_at(indices, width, s0, q)] -= w[jj] * data[q]
        if it == 0:
            gnorm1_init = gnorm1
        it += 1
        if gnorm1 <= tol * gnorm1_init:
            if active == p:
                break
            active = p                  # a last pass over every weight
            gmax_old = np.inf
            continue
        gmax_old = gmax
    return it
