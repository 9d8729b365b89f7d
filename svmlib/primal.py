"""The primal route: Pegasos, stochastic sub-gradient descent on the hinge form.

The soft-margin SVM is the unconstrained problem (Book: (eq-soft-hinge-form))::

    minimize over w, b   1/2 ||w||^2 + C sum_i max(0, 1 - y_i (<w, x_i> + b)).

Dividing by ``n C`` and writing ``lam = 1 / (n C)`` gives the same minimizer
as the "loss + regularizer" form of Pegasos :cite:`shalevshwartz2011`
(Book: (eq-soft-regularized))::

    minimize   lam/2 ||w||^2 + (1/n) sum_i max(0, 1 - y_i (<w, x_i> + b)).

Pegasos takes at step ``t`` a mini-batch ``A_t``, the step size
``eta_t = 1 / (lam t)``, and the sub-gradient step (Book: (eq-soft-pegasos-step))::

    w <- (1 - eta_t lam) w + (eta_t / |A_t|) sum_{i in A_t, y_i f(x_i) < 1} y_i x_i,

optionally followed by the projection onto the ball ``||w|| <= 1/sqrt(lam)``,
which contains the solution.

**The bias.**  The original Pegasos has no bias.  Here ``b`` is not
regularized (as in the SVM): it takes the sub-gradient step of the loss,
``b <- b + (eta_t / |A_t|) sum y_i`` over the same violators.  Early steps
are large (``eta_1 = n C``), so ``b`` jumps around at first; averaging the
iterates of the second half of the run (``average=True``) removes most of
this noise.  The alternative ``bias="augmented"`` appends a constant feature
1 to every ``x`` and lets its weight act as ``b``; that regularizes ``b``
(a slightly different problem) but is more stable.
"""

import time

import numpy as np

from ._validation import check_array, check_int, check_option, check_positive
from .objectives import primal_objective
from .dual import SolverResult

__all__ = ["solve_primal_pegasos"]


def solve_primal_pegasos(X, y, C=None, lam=None, n_iter=10_000, batch_size=1,
                         random_state=None, bias="unregularized", average=True,
                         project=True, record_every=None):
    """Solve the linear soft-margin SVM in the primal with Pegasos.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    C : float, default=None
        The SVM's penalty; sets ``lam = 1 / (n_samples * C)``.  Give ``C``
        or ``lam``, not both.
    lam : float, default=None
        The regularization strength of the Pegasos form.
    n_iter : int, default=10_000
        Number of stochastic steps.
    batch_size : int, default=1
        Samples per step (drawn with replacement).
    random_state : int or None, default=None
        Seed of the sampling.
    bias : {"unregularized", "augmented", "none"}, default="unregularized"
        How ``b`` is learned (see the module docstring); ``"none"`` fixes
        ``b = 0``.
    average : bool, default=True
        Return the average of the iterates of the second half of the run.
    project : bool, default=True
        Project ``w`` onto the ball of radius ``1 / sqrt(lam)`` after each step.
    record_every : int or None, default=None
        If set, record ``(t, primal objective)`` every ``record_every`` steps
        in the result's ``trace`` (with ``C = 1 / (n lam)``).

    Returns
    -------
    SolverResult
        With ``w`` of shape (n_features,), ``b``, ``alpha=None``, the primal
        objective ``1/2 ||w||^2 + C sum hinge`` as ``objective``, and
        ``kkt_violation = nan`` (not defined for the primal iterate).
    """
    start = time.perf_counter()
    X = check_array(X, "X")
    y = check_array(y, "y", ndim=1)
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"X and y must have the same number of samples; got {X.shape[0]} "
            f"and {y.shape[0]}. Check that they come from the same data set.")
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must contain only the labels -1 and +1; got other values. "
                         "Map the two classes to -1/+1 first.")
    n = X.shape[0]
    if (C is None) == (lam is None):
        raise ValueError(
            f"give exactly one of C and lam; got C={C!r} and lam={lam!r}. "
            f"For the SVM with penalty C pass C=1.0 (then lam = 1/(n C)).")
    if lam is None:
        C = check_positive(C, "C", hint="Pegasos needs a finite C > 0, e.g. C=1.0.")
        lam = 1.0 / (n * C)
    else:
        lam = check_positive(lam, "lam", hint="Use a small positive lam such as lam=0.01.")
        C = 1.0 / (n * lam)
    n_iter = check_int(n_iter, "n_iter", minimum=1)
    batch_size = check_int(batch_size, "batch_size", minimum=1)
    check_option(bias, "bias", ("unregularized", "augmented", "none"))
    if bias == "augmented":
        X_work = np.hstack([X, np.ones((n, 1))])
    else:
        X_work = X
    rng = np.random.default_rng(random_state)
    w = np.zeros(X_work.shape[1])
    b = 0.0
    w_sum = np.zeros_like(w)
    b_sum = 0.0
    n_avg = 0
    first_avg = n_iter // 2 + 1
    radius = 1.0 / np.sqrt(lam)
    trace = [] if record_every else None

    def current(w_, b_):
        if bias == "augmented":
            return w_[:-1], float(w_[-1])
        return w_, b_

    for t in range(1, n_iter + 1):
        batch = rng.integers(n, size=batch_size)
        X_batch, y_batch = X_work[batch], y[batch]
        violators = y_batch * (X_batch @ w + b) < 1.0
        eta = 1.0 / (lam * t)
        w *= 1.0 - eta * lam
        if violators.any():
            step = eta / batch_size
            w += step * (y_batch[violators] @ X_batch[violators])
            if bias == "unregularized":
                b += step * float(y_batch[violators].sum())
        if project:
            norm = np.linalg.norm(w)
            if norm > radius:
                w *= radius / norm
        if average and t >= first_avg:
            w_sum += w
            b_sum += b
            n_avg += 1
        if trace is not None and t % record_every == 0:
            w_t, b_t = (w_sum / n_avg, b_sum / n_avg) if (average and n_avg) else (w, b)
            trace.append((t, primal_objective(*current(w_t, b_t), X, y, C)))
    if average and n_avg:
        w, b = w_sum / n_avg, b_sum / n_avg
    w_final, b_final = current(w, b)
    w_final = np.array(w_final, dtype=np.float64)
    return SolverResult(
        alpha=None, b=float(b_final), n_iter=n_iter,
        objective=primal_objective(w_final, b_final, X, y, C), kkt_violation=float("nan"),
        time=time.perf_counter() - start, converged=True, solver="pegasos", w=w_final,
        trace=tuple(trace) if trace is not None else None, info={"lam": lam, "C": C})
