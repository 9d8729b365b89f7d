"""The sequential dual method for the Crammer–Singer multiclass SVM (LIBLINEAR's solver 4).

Crammer and Singer's joint problem for ``K`` classes, with weights ``w_m``
for each class (the bias the weight of a constant feature ``s``, penalized)::

    minimize  1/2 sum_m ||w_m||^2 + sum_i C_i xi_i
    s.t.      <w_{y_i}, x_i> - <w_m, x_i> >= 1 - delta_{m, y_i} - xi_i   for all i, m.

Its dual in LIBLINEAR's variables (Keerthi et al., 2008; Fan et al., 2008,
appendix) has ``K`` multipliers per sample, coupled only through ``w_m =
sum_i alpha_i^m x_i``::

    minimize  1/2 sum_m ||w_m||^2 + sum_i sum_{m != y_i} alpha_i^m
    s.t.      sum_m alpha_i^m = 0,   alpha_i^m <= C_i [m = y_i]   for every i.

The sequential dual method solves it one sample at a time: with the others
fixed, sample ``i``'s ``K`` multipliers solve a small problem whose
quadratic part is ``A_i = ||x_i||^2`` times the identity,

    minimize over a   A_i/2 ||a||^2 + B^T a,   sum_m a_m = 0,  a_m <= C_i [m = y_i],

``B_m = G_m - A_i alpha_i^m`` with ``G_m = <w_m, x_i> + [m != y_i]`` the
gradient.  Its solution is ``a_m = min(C_i [m = y_i], (beta - B_m) / A_i)``
for the one ``beta`` that makes the ``a_m`` sum to zero, found by sorting
``B`` (with ``A_i C_i`` added to ``B_{y_i}``) in decreasing order and adding
terms while they stay above the running mean (:func:`_sub_problem`).

A sample is optimal when ``max_m G_m - min_{m: alpha_i^m < bound} G_m`` is
0; a pass visits the samples in a random order, and the method stops when
that spread is below ``tol`` for every sample.  As in LIBLINEAR, a class
whose multiplier sits at its bound with a gradient below the smallest free
one is set aside for that sample, a sample with one class left is set aside,
and the whole problem is looked at again (with a tolerance that halves down
to ``tol``) before stopping.

The loop reads the rows of ``X`` through :mod:`svmlib._linear_rows`, dense
or CSR alike.
"""

import numpy as np

from ._linear_rows import column_at, njit, row_span, row_sqnorm, shuffle

__all__ = ["crammer_singer"]


@njit(cache=True)
def _sub_problem(B, A, yi, C_yi, active, D, alpha_new):
    """One sample's multipliers, ``alpha_new[:active]``, from ``B[:active]`` (``D`` is scratch)."""
    for m in range(active):
        D[m] = B[m]
    if yi < active:
        D[yi] += A * C_yi
    # Insertion sort of D[:active] in decreasing order (K is small).
    for m in range(1, active):
        value = D[m]
        k = m - 1
        while k >= 0 and D[k] < value:
            D[k + 1] = D[k]
            k -= 1
        D[k + 1] = value
    beta = D[0] - A * C_yi
    r = 1
    while r < active and beta < r * D[r]:
        beta += D[r]
        r += 1
    beta /= r
    for m in range(active):
        bound = C_yi if m == yi else 0.0
        alpha_new[m] = min(bound, (beta - B[m]) / A)


@njit(cache=True)
def _at_bound(alpha_im, m, yi, C_i, G_m, min_G):
    """Whether class ``m`` of a sample leaves its active set: at its bound, gradient below ``min_G``."""
    bound = C_i if m == yi else 0.0
    return alpha_im == bound and G_m < min_G


@njit(cache=True)
def crammer_singer(data, indices, indptr, width, s, y, C, K, W, alpha, tol, max_iter, seed):
    """Sequential dual method; ``W`` (``(p + 1) x K``, the bias row last) and ``alpha`` (``n x K``) in place.

    ``y`` holds class indices ``0..K-1``, ``C`` the penalty of each sample.
    Returns the number of passes.
    """
    n = indptr.shape[0] - 1
    p = W.shape[0] - 1
    QD = np.empty(n)
    for i in range(n):
        QD[i] = s * s + row_sqnorm(data, indptr, width, i)
    G = np.empty(K)
    B = np.empty(K)
    D = np.empty(K)
    alpha_new = np.empty(K)
    d_class = np.empty(K, dtype=np.int64)
    d_value = np.empty(K)
    classes = np.empty((n, K), dtype=np.int64)   # each sample's classes, active ones first
    for i in range(n):
        for m in range(K):
            classes[i, m] = m
    n_active_classes = np.full(n, K)
    y_pos = np.empty(n, dtype=np.int64)            # where y_i sits in classes[i]
    for i in range(n):
        y_pos[i] = y[i]
    index = np.arange(n)
    active = n
    eps_shrink = max(10.0 * tol, 1.0)
    start_from_all = True
    rng_state = seed
    it = 0
    while it < max_iter:
        stopping = -np.inf
        rng_state = shuffle(index, active, rng_state)
        k_pos = 0
        while k_pos < active:
            i = index[k_pos]
            A = QD[i]
            if A <= 0.0:
                k_pos += 1
                continue
            na = n_active_classes[i]
            yi = y_pos[i]
            for m in range(na):
                G[m] = 1.0
            if yi < na:
                G[yi] = 0.0
            start, end = row_span(indptr, width, i)
            for q in range(start, end):
                col = column_at(indices, width, start, q)
                for m in range(na):
                    G[m] += W[col, classes[i, m]] * data[q]
            for m in range(na):
                G[m] += W[p, classes[i, m]] * s
            min_G, max_G = np.inf, -np.inf
            for m in range(na):
                if alpha[i, classes[i, m]] < 0.0 and G[m] < min_G:
                    min_G = G[m]
                if G[m] > max_G:
                    max_G = G[m]
            if yi < na and alpha[i, y[i]] < C[i] and G[yi] < min_G:
                min_G = G[yi]
            # Shrinking: move the classes at their bound below min_G to the end.
            m = 0
            while m < na:
                if _at_bound(alpha[i, classes[i, m]], m, yi, C[i], G[m], min_G):
                    na -= 1
                    while na > m:
                        if not _at_bound(alpha[i, classes[i, na]], na, yi, C[i], G[na], min_G):
                            classes[i, m], classes[i, na] = classes[i, na], classes[i, m]
                            G[m], G[na] = G[na], G[m]
                            if yi == na:
                                yi = m
                            elif yi == m:
                                yi = na
                            break
                        na -= 1
                m += 1
            n_active_classes[i] = na
            y_pos[i] = yi
            if na <= 1:
                active -= 1
                index[k_pos], index[active] = index[active], index[k_pos]
                continue
            k_pos += 1
            if max_G - min_G <= 1e-12:
                continue
            stopping = max(stopping, max_G - min_G)
            for m in range(na):
                B[m] = G[m] - A * alpha[i, classes[i, m]]
            _sub_problem(B, A, yi, C[i], na, D, alpha_new)
            changed = 0
            for m in range(na):
                c = classes[i, m]
                step = alpha_new[m] - alpha[i, c]
                alpha[i, c] = alpha_new[m]
                if abs(step) >= 1e-12:
                    d_class[changed] = c
                    d_value[changed] = step
                    changed += 1
            for q in range(start, end):
                col = column_at(indices, width, start, q)
                for k in range(changed):
                    W[col, d_class[k]] += d_value[k] * data[q]
            for k in range(changed):
                W[p, d_class[k]] += d_value[k] * s
        it += 1
        if stopping < eps_shrink:
            if stopping < tol and start_from_all:
                break
            active = n                      # look at every sample and class again
            for i in range(n):
                n_active_classes[i] = K
            eps_shrink = max(eps_shrink / 2.0, tol)
            start_from_all = True
        else:
            start_from_all = False
    return it
