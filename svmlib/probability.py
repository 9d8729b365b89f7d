"""Probabilities from SVM decision values, as LIBSVM computes them.

``SVC(probability=True)`` (and ``NuSVC``) turn decision values into
probabilities in three steps, those of LIBSVM's ``svm_binary_svc_probability``,
``sigmoid_train`` and ``multiclass_probability``:

1. **Decision values that were not fitted on the point itself.**  For each
   binary problem, the samples are shuffled and split into 5 folds; each
   fold's decision values come from an SVM trained on the other four
   (``cross_validated_decision_values``, used by :class:`svmlib.SVC`).
2. **Platt's sigmoid** ``P(y = +1 | f) = 1 / (1 + exp(A f + B))`` is fitted to
   those values by :func:`platt_fit`: it minimizes the cross-entropy with
   Platt's regularized targets ``t_+ = (N_+ + 1) / (N_+ + 2)`` and ``t_- = 1 /
   (N_- + 2)`` (Platt 1999, section 2.2) by Newton's method with a
   backtracking line search, the improvements of Lin, Lin & Weng (2007): the
   loss evaluated in a form that never overflows, and the Hessian made
   positive definite by adding ``1e-12 I``.
3. **Pairwise coupling** (three or more classes): the pairwise estimates
   ``r_ij ~ P(y = i | y in {i, j}, x)`` give class probabilities ``p`` by
   method 2 of Wu, Lin & Weng (2004), :func:`pairwise_coupling`::

       minimize  1/2 sum_i sum_{j != i} (r_ji p_i - r_ij p_j)^2
       s.t.      sum_i p_i = 1,

   i.e. ``min 1/2 p^T Q p`` with ``Q_tt = sum_{j != t} r_jt^2`` and ``Q_tj =
   -r_jt r_tj``; its solution is non-negative, and LIBSVM finds it by a
   fixed-point (coordinate) iteration that keeps ``sum p = 1``.

The probabilities come from a second model (the sigmoid, fitted on
cross-validated values), so the class of highest probability need not be
the class :meth:`svmlib.SVC.predict` returns (the same caveat as
scikit-learn's).
"""

import numpy as np

__all__ = ["platt_fit", "platt_predict", "pairwise_coupling", "MIN_PROBABILITY"]

#: LIBSVM clips every pairwise probability into ``[MIN_PROBABILITY, 1 -
#: MIN_PROBABILITY]`` before the coupling (``svm_predict_probability``).
MIN_PROBABILITY = 1e-7


def _platt_loss(f, t, A, B):
    """``sum_i -t_i log p_i - (1 - t_i) log(1 - p_i)`` with ``p_i = 1 / (1 +
    exp(A f_i + B))``, written so that ``exp`` never overflows (Lin, Lin &
    Weng 2007): ``t z + log(1 + exp(-z))`` for ``z = A f + B >= 0`` and
    ``(t - 1) z + log(1 + exp(z))`` otherwise."""
    z = A * f + B
    positive = z >= 0
    return float(np.sum(np.where(positive, t * z, (t - 1.0) * z)
                        + np.log1p(np.exp(-np.abs(z)))))


def platt_fit(decision, labels, max_iter=100, min_step=1e-10, sigma=1e-12, eps=1e-5):
    """Fit Platt's sigmoid ``P(+1 | f) = 1 / (1 + exp(A f + B))`` (LIBSVM's ``sigmoid_train``).

    Newton's method on ``(A, B)`` from ``A = 0``, ``B = log((N_- + 1) / (N_+ +
    1))``, with the Hessian plus ``sigma I`` and a backtracking line search
    (halving the step until the loss decreases by ``1e-4 * step * g^T d``);
    it stops when both components of the gradient are below ``eps`` in
    absolute value, after ``max_iter`` Newton steps, or when the step falls
    below ``min_step``.

    Parameters
    ----------
    decision : array-like of shape (n,)
        Decision values ``f_i`` (from cross-validation).
    labels : array-like of shape (n,)
        ``> 0`` for the positive class, anything else for the negative one.
    max_iter, min_step, sigma, eps : LIBSVM's constants.

    Returns
    -------
    (float, float, dict)
        ``A``, ``B`` and ``{"n_iter", "gradient", "converged"}``.
    """
    f = np.asarray(decision, dtype=np.float64)
    positive = np.asarray(labels) > 0
    if f.ndim != 1 or positive.shape != f.shape:
        raise ValueError(
            f"decision and labels must be 1-D arrays of the same length; got shapes "
            f"{f.shape} and {positive.shape}. Pass one decision value and one label per sample.")
    if not np.isfinite(f).all():
        raise ValueError("decision must be finite; got NaN or infinite values. Check the "
                         "model that produced them.")
    prior1 = float(positive.sum())
    prior0 = float(f.shape[0] - prior1)
    t = np.where(positive, (prior1 + 1.0) / (prior1 + 2.0), 1.0 / (prior0 + 2.0))
    A, B = 0.0, float(np.log((prior0 + 1.0) / (prior1 + 1.0)))
    fval = _platt_loss(f, t, A, B)
    g1 = g2 = np.inf
    converged = False
    iteration = 0
    for iteration in range(max_iter):  # noqa: B007 (n_iter, read after the loop)
        z = A * f + B
        # p = P(-1 side) = 1 / (1 + exp(z)) and q = 1 - p, without overflow.
        e = np.exp(-np.abs(z))
        p = np.where(z >= 0, e / (1.0 + e), 1.0 / (1.0 + e))
        q = np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
        d2 = p * q
        h11 = sigma + float(np.sum(f * f * d2))
        h22 = sigma + float(np.sum(d2))
        h21 = float(np.sum(f * d2))
        d1 = t - p
        g1 = float(np.sum(f * d1))
        g2 = float(np.sum(d1))
        if abs(g1) < eps and abs(g2) < eps:
            converged = True
            break
        det = h11 * h22 - h21 * h21
        dA = -(h22 * g1 - h21 * g2) / det
        dB = -(-h21 * g1 + h11 * g2) / det
        gd = g1 * dA + g2 * dB
        step = 1.0
        while step >= min_step:
            new_A, new_B = A + step * dA, B + step * dB
            new_f = _platt_loss(f, t, new_A, new_B)
            if new_f < fval + 1e-4 * step * gd:
                A, B, fval = new_A, new_B, new_f
                break
            step /= 2.0
        if step < min_step:
            break  # LIBSVM: "Line search fails in two-class probability estimates"
    else:
        iteration = max_iter
    return A, B, {"n_iter": iteration, "gradient": (g1, g2), "converged": converged}


def platt_predict(decision, A, B):
    """``1 / (1 + exp(A f + B))``, computed without cancellation (LIBSVM's ``sigmoid_predict``)."""
    z = A * np.asarray(decision, dtype=np.float64) + B
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, e / (1.0 + e), 1.0 / (1.0 + e))


def pairwise_coupling(r, max_iter=None, eps=None):
    """Class probabilities from pairwise ones: method 2 of Wu, Lin & Weng (2004).

    LIBSVM's ``multiclass_probability``, for many samples at once: each
    sample's iteration stops on its own, when ``max_t |(Q p)_t - p^T Q p|``
    is below ``eps`` (LIBSVM's ``0.005 / k``), or after ``max_iter`` sweeps
    (``max(100, k)``).

    Parameters
    ----------
    r : array-like of shape (n_samples, k, k)
        ``r[s, i, j]`` estimates ``P(y = i | y in {i, j}, x_s)``, with
        ``r[s, j, i] = 1 - r[s, i, j]`` (the diagonal is not used).

    Returns
    -------
    ndarray of shape (n_samples, k)
        Non-negative rows summing to 1.
    """
    r = np.asarray(r, dtype=np.float64)
    if r.ndim != 3 or r.shape[1] != r.shape[2]:
        raise ValueError(
            f"r must have shape (n_samples, k, k), the pairwise probabilities of each "
            f"sample; got shape {r.shape}.")
    n, k = r.shape[0], r.shape[1]
    max_iter = max(100, k) if max_iter is None else int(max_iter)
    eps = 0.005 / k if eps is None else float(eps)
    off = ~np.eye(k, dtype=bool)
    rt = np.swapaxes(r, 1, 2)                      # rt[s, t, j] = r[s, j, t]
    Q = np.where(off, -rt * r, 0.0)                # Q[t, j] = -r_jt r_tj
    diag = np.sum(np.where(off, rt * rt, 0.0), axis=2)   # Q[t, t] = sum_j r_jt^2
    idx = np.arange(k)
    Q[:, idx, idx] = diag
    p = np.full((n, k), 1.0 / k)
    for _ in range(max_iter):
        Qp = np.einsum("stj,sj->st", Q, p)
        pQp = np.einsum("st,st->s", p, Qp)
        active = np.max(np.abs(Qp - pQp[:, None]), axis=1) >= eps
        if not active.any():
            break
        for t in range(k):
            diff = np.where(active, (-Qp[:, t] + pQp) / Q[:, t, t], 0.0)
            p[:, t] += diff
            pQp = (pQp + diff * (diff * Q[:, t, t] + 2.0 * Qp[:, t])) / (1.0 + diff) ** 2
            Qp = (Qp + diff[:, None] * Q[:, t, :]) / (1.0 + diff)[:, None]
            p /= (1.0 + diff)[:, None]
    return p
