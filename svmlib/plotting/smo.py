"""Figures of the SMO chapter (sequential minimal optimization).

Book: chapter ``ch-smo``.

* :func:`pair_step` computes one SMO pair update in the open (the line
  ``y_i alpha_i + y_j alpha_j = const``, the unclipped step, the feasible
  interval, the clipped step) and :func:`plot_pair_update` draws it on the
  constraint box;
* :func:`smo_states` replays a solver trace (multipliers, bias, violation
  and objective after every update) and :func:`plot_smo_state` draws one
  state in the plane;
* :func:`violation_history` and :func:`plot_violation_history` compare the
  working-set rules;
* :func:`plot_cache_runs` draws what the kernel-row cache saved in runs
  with different cache sizes;
* :func:`shrinkable_mask` is LIBSVM's shrinking test, and
  :func:`settled_history` / :func:`plot_settled_history` follow how many
  multipliers it would set aside during a run;
* :func:`time_solvers`, :func:`fit_growth` and :func:`plot_timings` measure
  and draw the cost of the solvers as ``n`` grows.
"""

import time

import numpy as np

from .._validation import check_array
from ..objectives import kernel_matrix_Q, max_kkt_violation
from ..dual import compute_intercept
from ._core import _get_ax, _legend, _tidy

__all__ = [
    "pair_step",
    "pair_step_at",
    "plot_pair_update",
    "smo_states",
    "plot_smo_state",
    "violation_history",
    "plot_violation_history",
    "plot_cache_runs",
    "shrinkable_mask",
    "settled_history",
    "plot_settled_history",
    "time_solvers",
    "fit_growth",
    "plot_timings",
    "PAIR_COLORS",
    "SOLVER_STYLES",
]

#: Colours of the two multipliers of the working pair: ``i`` and ``j``.
PAIR_COLORS = {"i": "#d62728", "j": "#2ca02c"}
#: Colour and marker of each solver in timing figures.
SOLVER_STYLES = {
    "SLSQP (general QP)": dict(color="#7f7f7f", marker="o"),
    "svmlib SMO": dict(color="#1f77b4", marker="s"),
    "svmlib SMO, interpreted": dict(color="#9467bd", marker="D"),
    "LIBSVM (scikit-learn)": dict(color="#e8710a", marker="^"),
}
_TAU = 1e-12


# --------------------------------------------------------------- one pair

def pair_step(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj, K_ij, C):
    """One SMO pair update, with every intermediate quantity.

    The pair moves along ``alpha_i + y_i t``, ``alpha_j - y_j t``, which keeps
    ``y_i alpha_i + y_j alpha_j`` fixed (Book: (eq-smo-pair)).  Along that line
    the dual objective changes by ``-(s_i - s_j) t + eta t^2 / 2`` with the
    scores ``s = -y grad`` and the curvature ``eta = K_ii + K_jj - 2 K_ij``; its
    minimizer is ``t* = (s_i - s_j) / eta`` (Book: (eq-smo-update)), clipped to
    the interval of ``t`` that keeps both multipliers in ``[0, C]``
    (Book: (eq-smo-clip)).

    Parameters
    ----------
    alpha_i, alpha_j : float
        Current multipliers, in ``[0, C]``.
    y_i, y_j : float
        Labels, -1 or +1.
    grad_i, grad_j : float
        Gradient entries ``(Q alpha - 1)_i`` and ``(Q alpha - 1)_j``.
    K_ii, K_jj, K_ij : float
        Kernel values.
    C : float
        Box bound (``np.inf`` for the hard margin).

    Returns
    -------
    dict
        ``score_i``, ``score_j``, ``eta`` (guarded by ``1e-12``), ``t_star``,
        ``t_low``, ``t_high`` (the feasible interval of ``t``), ``t``
        (clipped), ``clipped`` (bool), ``alpha_i_new``, ``alpha_j_new``,
        ``alpha_i_star``, ``alpha_j_star`` (unclipped), ``decrease`` (the
        objective change at the clipped step, ``<= 0``) and the inputs.
    """
    alpha_i, alpha_j = float(alpha_i), float(alpha_j)
    y_i, y_j = float(y_i), float(y_j)
    score_i, score_j = -y_i * float(grad_i), -y_j * float(grad_j)
    eta = max(float(K_ii) + float(K_jj) - 2.0 * float(K_ij), _TAU)
    t_star = (score_i - score_j) / eta
    # alpha_i + y_i t in [0, C] and alpha_j - y_j t in [0, C]
    low_i, high_i = (-alpha_i, C - alpha_i) if y_i > 0 else (alpha_i - C, alpha_i)
    low_j, high_j = (alpha_j - C, alpha_j) if y_j > 0 else (-alpha_j, C - alpha_j)
    t_low, t_high = max(low_i, low_j), min(high_i, high_j)
    t = min(max(t_star, t_low), t_high)
    return {
        "alpha_i": alpha_i, "alpha_j": alpha_j, "y_i": y_i, "y_j": y_j,
        "grad_i": float(grad_i), "grad_j": float(grad_j),
        "K_ii": float(K_ii), "K_jj": float(K_jj), "K_ij": float(K_ij), "C": float(C),
        "score_i": score_i, "score_j": score_j, "eta": eta, "t_star": t_star,
        "t_low": t_low, "t_high": t_high, "t": t, "clipped": bool(t != t_star),
        "alpha_i_new": alpha_i + y_i * t, "alpha_j_new": alpha_j - y_j * t,
        "alpha_i_star": alpha_i + y_i * t_star, "alpha_j_star": alpha_j - y_j * t_star,
        "decrease": -(score_i - score_j) * t + 0.5 * eta * t * t,
    }


def pair_step_at(K, y, alpha, i, j, C):
    """:func:`pair_step` for the pair ``(i, j)`` of a full problem.

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        Gram matrix.
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    alpha : array-like of shape (n_samples,)
        Current multipliers.
    i, j : int
        The working pair.
    C : float

    Returns
    -------
    dict
        As :func:`pair_step`.
    """
    K = np.asarray(K, dtype=float)
    y = np.asarray(y, dtype=float)
    alpha = np.asarray(alpha, dtype=float)
    grad = kernel_matrix_Q(K, y) @ alpha - 1.0
    return pair_step(alpha[i], alpha[j], y[i], y[j], grad[i], grad[j], K[i, i], K[j, j],
                     K[i, j], C)


def _pair_quadratic(step, A_i, A_j):
    """Objective change f(alpha_i, alpha_j) - f(old) over a grid of the pair."""
    d_i, d_j = A_i - step["alpha_i"], A_j - step["alpha_j"]
    q_ij = step["y_i"] * step["y_j"] * step["K_ij"]
    return (step["grad_i"] * d_i + step["grad_j"] * d_j
            + 0.5 * (step["K_ii"] * d_i ** 2 + 2 * q_ij * d_i * d_j + step["K_jj"] * d_j ** 2))


def _pair_line(step, t):
    """Points (alpha_i, alpha_j) on the constraint line at steps t."""
    t = np.asarray(t, dtype=float)
    return step["alpha_i"] + step["y_i"] * t, step["alpha_j"] - step["y_j"] * t


def plot_pair_update(step, ax=None, names=("i", "j"), contours=True, legend=True,
                     extent=None):
    """Draw one pair update on the constraint box ``[0, C]^2``.

    Shows the box, the level sets of the dual objective as a function of the
    pair (the other multipliers fixed), the line ``y_i alpha_i + y_j alpha_j =
    const`` (solid inside the box, dotted outside), the current point, the
    unclipped minimizer on the line and the clipped update.
    Book: (eq-smo-pair), (eq-smo-update), (eq-smo-clip).

    Parameters
    ----------
    step : dict
        From :func:`pair_step` (or :func:`pair_step_at`).
    ax : Axes, optional
    names : (str, str), default=("i", "j")
        How the two indices are written in the axis labels.
    contours : bool, default=True
        Draw the level sets of the objective.
    legend : bool, default=True
    extent : (float, float), optional
        Range of both axes; default a margin around the box and the points.

    Returns
    -------
    ax : Axes
    """
    ax = _tidy(_get_ax(ax))
    C = step["C"]
    top = C if np.isfinite(C) else 1.2 * max(step["alpha_i_star"], step["alpha_j_star"],
                                            step["alpha_i"], step["alpha_j"], 1.0)
    if extent is None:
        values = [0.0, top, step["alpha_i_star"], step["alpha_j_star"]]
        lo, hi = min(values), max(values)
        pad = 0.12 * (hi - lo)
        extent = (lo - pad, hi + pad)
    lo, hi = extent
    if contours:
        grid = np.linspace(lo, hi, 160)
        A_i, A_j = np.meshgrid(grid, grid)
        Z = _pair_quadratic(step, A_i, A_j)
        levels = np.quantile(Z, [0.03, 0.1, 0.2, 0.33, 0.5, 0.7])
        ax.contour(A_i, A_j, Z, levels=levels, colors="#9e9e9e", linewidths=0.7,
                   linestyles="solid", zorder=1)
    if np.isfinite(C):
        ax.fill([0, C, C, 0], [0, 0, C, C], color="#e8f0f8", zorder=0, lw=0)
        ax.plot([0, C, C, 0, 0], [0, 0, C, C, 0], color="black", linewidth=1.0, zorder=2,
                label=f"box $[0, C]^2$, $C = {C:g}$")
    else:
        ax.fill([0, hi, hi, 0], [0, 0, hi, hi], color="#e8f0f8", zorder=0, lw=0)
        ax.axhline(0, color="black", linewidth=1.0, zorder=2)
        ax.axvline(0, color="black", linewidth=1.0, zorder=2)
    # the constraint line: feasible segment solid, the rest dotted
    span = 4.0 * (hi - lo)
    far = np.array([-span, span])
    ax.plot(*_pair_line(step, far), color="black", linewidth=1.0, linestyle=":", zorder=2)
    ax.plot(*_pair_line(step, [step["t_low"], step["t_high"]]), color="black", linewidth=2.2,
            zorder=3, label="feasible segment of the line")
    a_i, a_j = step["alpha_i"], step["alpha_j"]
    ax.scatter([a_i], [a_j], s=55, color="white", edgecolors="black", linewidths=1.4,
               zorder=5, label="before")
    ax.scatter([step["alpha_i_star"]], [step["alpha_j_star"]], s=70, marker="X",
               color="#9e9e9e", edgecolors="black", linewidths=0.6, zorder=5,
               label="unclipped minimizer")
    ax.scatter([step["alpha_i_new"]], [step["alpha_j_new"]], s=150, marker="*",
               color=PAIR_COLORS["i"], edgecolors="black", linewidths=0.6, zorder=6,
               label="clipped update")
    if abs(step["t_star"]) > 1e-12:
        ax.annotate("", xy=(step["alpha_i_new"], step["alpha_j_new"]), xytext=(a_i, a_j),
                    arrowprops=dict(arrowstyle="-|>", color=PAIR_COLORS["i"], linewidth=1.4,
                                    shrinkA=4, shrinkB=6, mutation_scale=12), zorder=4)
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel(f"$\\alpha_{{{names[0]}}}$")
    ax.set_ylabel(f"$\\alpha_{{{names[1]}}}$")
    if legend:
        _legend(ax)
    return ax


# --------------------------------------------------------- a whole run

def smo_states(K, y, C, result):
    """Replay an SMO run: the state before the first and after every update.

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        Gram matrix the solver used.
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    C : float
    result : SolverResult
        From :func:`svmlib.solvers.solve_dual_smo` with ``record_trace=True``.

    Returns
    -------
    list of dict
        ``len(result.trace) + 1`` states with ``alpha`` (n_samples,), ``b``,
        ``violation`` (``m - M`` at that state, Book: (eq-smo-stopping)),
        ``objective`` (the dual objective ``D``), ``pair`` (the ``(i, j)`` of
        the update that led there, ``None`` for the start) and ``next_pair``
        (the pair of the following update, ``None`` at the end).
    """
    if result.trace is None:
        raise ValueError("result.trace is None: run solve_dual_smo with record_trace=True "
                         "to replay the run.")
    K = np.asarray(K, dtype=float)
    y = np.asarray(y, dtype=float)
    Q = kernel_matrix_Q(K, y)
    alphas = [np.zeros(y.shape[0])] + [np.asarray(s["alpha"], dtype=float)
                                       for s in result.trace]
    pairs = [None] + [(int(s["i"]), int(s["j"])) for s in result.trace]
    states = []
    for k, alpha in enumerate(alphas):
        grad = Q @ alpha - 1.0
        states.append({
            "alpha": alpha,
            "b": compute_intercept(alpha, grad, y, C),
            "violation": max_kkt_violation(alpha, grad, y, C),
            "objective": float(alpha.sum() - 0.5 * alpha @ (Q @ alpha)),
            "pair": pairs[k],
            "next_pair": pairs[k + 1] if k + 1 < len(pairs) else None,
        })
    return states


def plot_smo_state(X, y, alpha, b, ax=None, pair=None, threshold=1e-8, numbers=False,
                   legend=True):
    """A linear-kernel SVM state in the plane: line, margins, SVs and the pair.

    Draws the data, the hyperplane of ``w = sum_i alpha_i y_i x_i`` and ``b``
    (solid) with its margin lines (dashed), rings the points with
    ``alpha_i > threshold`` and marks the working pair (``i`` red, ``j``
    green).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
    alpha : array-like of shape (n_samples,)
    b : float
    ax : Axes, optional
    pair : (int, int), optional
        The working pair to highlight.
    threshold : float, default=1e-8
    numbers : bool, default=False
        Write each point's index next to it.
    legend : bool, default=True

    Returns
    -------
    ax : Axes
    """
    from ._core import plot_data, plot_hyperplane, ring_support_vectors

    X = check_array(X, "X")
    y = np.asarray(y, dtype=float).ravel()
    alpha = np.asarray(alpha, dtype=float)
    ax = _get_ax(ax)
    plot_data(X, y, ax=ax, legend=legend)
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = 0.15 * (hi - lo)
    ax.set_xlim(lo[0] - pad[0], hi[0] + pad[0])
    ax.set_ylim(lo[1] - pad[1], hi[1] + pad[1])
    w = (alpha * y) @ X
    if np.any(w):
        plot_hyperplane(w, b, ax=ax, margins=True)
    sv = alpha > threshold
    if sv.any():
        ring_support_vectors(X[sv], ax=ax, label="$\\alpha_i > 0$" if legend else None)
    if pair is not None:
        for key, index in zip(("i", "j"), pair):
            ax.scatter(*X[index], s=260, facecolors="none", edgecolors=PAIR_COLORS[key],
                       linewidths=2.2, zorder=6, label=f"${key}$" if legend else None)
    if numbers:
        offset = 0.02 * (hi - lo).max()
        for k, (a, c) in enumerate(X):
            ax.text(a + offset, c + offset, str(k), fontsize=7, color="#333333", zorder=4)
    if legend:
        _legend(ax)
    return ax


def violation_history(K_or_kernel, y, C, selection, tol=1e-3, X=None, **kwargs):
    """The violation ``m - M`` before every update of an SMO run.

    Parameters
    ----------
    K_or_kernel : ndarray of shape (n_samples, n_samples) or callable
        As for :func:`svmlib.solvers.solve_dual_smo`.
    y : array-like of shape (n_samples,)
    C : float
    selection : {"first_order", "second_order"}
    tol : float, default=1e-3
    X : array-like of shape (n_samples, n_features), optional
    **kwargs
        Passed on to the solver (e.g. ``shrinking``).

    Returns
    -------
    violations : ndarray of shape (n_iter + 1,)
        Before each update, then the final value.
    result : SolverResult
    """
    from ..smo import solve_dual_smo

    values = []
    result = solve_dual_smo(K_or_kernel, y, C=C, tol=tol, X=X, selection=selection,
                            callback=lambda step: values.append(step["violation"]),
                            **kwargs)
    values.append(result.kkt_violation)
    return np.asarray(values), result


def plot_violation_history(histories, ax=None, tol=None):
    """Violation ``m - M`` against the iteration, one curve per run (log scale).

    Parameters
    ----------
    histories : dict
        ``{label: ndarray of shape (n_iter + 1,)}`` from
        :func:`violation_history`.
    ax : Axes, optional
    tol : float, optional
        Draw the stopping threshold as a dashed line.

    Returns
    -------
    ax : Axes
    """
    ax = _tidy(_get_ax(ax))
    colours = ["#1f77b4", "#e8710a", "#2ca02c", "#9467bd"]
    for k, (label, values) in enumerate(histories.items()):
        values = np.asarray(values, dtype=float)
        ax.plot(np.arange(values.shape[0]), np.maximum(values, 1e-12),
                color=colours[k % len(colours)], linewidth=1.0,
                label=f"{label}: {values.shape[0] - 1} updates")
    if tol is not None:
        ax.axhline(tol, color="black", linestyle=(0, (5, 4)), linewidth=1.0,
                   label=f"tol = {tol:g}")
    ax.set_yscale("log")
    ax.set_xlabel("iteration (pair updates)")
    ax.set_ylabel("violation $m(\\alpha) - M(\\alpha)$")
    _legend(ax)
    return ax


# ------------------------------------------------------------- caching

def plot_cache_runs(runs, n, ax=None):
    """Kernel values computed by SMO runs that differ only in the cache size.

    Parameters
    ----------
    runs : dict
        ``{cache_size_mb: SMOResult}`` from runs of
        :func:`svmlib.smo.solve_dual_smo` with ``precompute_kernel=False``
        on the same problem of ``n`` points.
    n : int
        The number of training points (a kernel row has ``n`` entries).
    ax : Axes, optional

    Returns
    -------
    ax : Axes
        One bar per run: the kernel values computed, split into the rows the
        cache answered (hits, drawn as the values they saved) and the rows
        computed (misses). The dashed line is the full matrix, ``n**2``.
    """
    ax = _tidy(_get_ax(ax))
    sizes = list(runs)
    labels = [f"{mb:g} MB\n({min(n, int(mb * 2**20 / 8 / n))} rows)" for mb in sizes]
    computed = np.array([runs[mb].info["kernel_values_computed"] for mb in sizes]) / 1e6
    saved = np.array([runs[mb].info["cache_hits"] for mb in sizes]) * n / 1e6
    positions = np.arange(len(sizes))
    ax.bar(positions, computed, color="#1f77b4", label="computed (misses)")
    ax.bar(positions, saved, bottom=computed, color="#c6dbef",
           label="served by the cache (hits)")
    for x, value in zip(positions, computed):
        ax.text(x, value / 2, f"{value:.2f} M", ha="center", va="center",
                color="white", fontsize=8)
    ax.axhline(n * n / 1e6, color="black", linestyle=(0, (5, 4)), linewidth=1.0,
               label=f"full matrix ({n * n / 1e6:g} M)")
    ax.set_xticks(positions, labels)
    ax.set_ylim(0, 1.35 * n * n / 1e6)              # room for the legend
    ax.set_xlabel("cache size")
    ax.set_ylabel("kernel values (millions)")
    _legend(ax)
    return ax


# ----------------------------------------------------------- shrinking

def shrinkable_mask(alpha, grad, y, C):
    """LIBSVM's shrinking test: the multipliers that would be set aside now.

    A multiplier at a bound that can move only in one direction is set
    aside when its score ``s_t = -y_t grad_t`` says it cannot take part in a
    violating pair: a variable that can only be ``j`` (``t`` in ``I_low``
    alone) with ``s_t > m(alpha)``, or one that can only be ``i`` (in
    ``I_up`` alone) with ``s_t < M(alpha)``.

    Parameters
    ----------
    alpha : array-like of shape (n_samples,)
    grad : array-like of shape (n_samples,)
        ``Q alpha - 1``.
    y : array-like of shape (n_samples,)
    C : float

    Returns
    -------
    ndarray of bool, shape (n_samples,)
    """
    alpha = np.asarray(alpha, dtype=float)
    grad = np.asarray(grad, dtype=float)
    y = np.asarray(y, dtype=float)
    score = -y * grad
    pos = y > 0
    at_lower, at_upper = alpha <= 0, alpha >= C
    in_up = (pos & ~at_upper) | (~pos & ~at_lower)
    in_low = (pos & ~at_lower) | (~pos & ~at_upper)
    m = score[in_up].max() if in_up.any() else -np.inf
    M = score[in_low].min() if in_low.any() else np.inf
    only_low = in_low & ~in_up
    only_up = in_up & ~in_low
    return (only_low & (score > m)) | (only_up & (score < M))


def settled_history(K, y, C, every=25, **kwargs):
    """Fraction of multipliers LIBSVM's shrinking test would set aside, during a run.

    Runs :func:`svmlib.solvers.solve_dual_smo` (second order) and applies
    :func:`shrinkable_mask` every ``every`` updates.

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
        Gram matrix.
    y : array-like of shape (n_samples,)
    C : float
    every : int, default=25
    **kwargs
        Passed on to the solver.

    Returns
    -------
    iterations : ndarray of shape (n_points,)
    fractions : ndarray of shape (n_points,)
    result : SolverResult
    """
    from ..smo import solve_dual_smo

    K = np.asarray(K, dtype=float)
    y = np.asarray(y, dtype=float)
    Q = kernel_matrix_Q(K, y)
    iterations, fractions = [0], [0.0]

    def record(step):
        if step["iteration"] % every == 0:
            alpha = step["alpha"]
            iterations.append(step["iteration"])
            fractions.append(float(shrinkable_mask(alpha, Q @ alpha - 1.0, y, C).mean()))

    result = solve_dual_smo(K, y, C=C, callback=record, **kwargs)
    alpha = result.alpha
    iterations.append(result.n_iter)
    fractions.append(float(shrinkable_mask(alpha, Q @ alpha - 1.0, y, C).mean()))
    return np.asarray(iterations), np.asarray(fractions), result


def plot_settled_history(runs, ax=None):
    """Fraction of multipliers that shrinking would set aside, against the iteration.

    Parameters
    ----------
    runs : dict
        ``{label: (iterations, fractions)}`` from :func:`settled_history`.
    ax : Axes, optional

    Returns
    -------
    ax : Axes
    """
    ax = _tidy(_get_ax(ax))
    colours = ["#1f77b4", "#e8710a", "#2ca02c", "#9467bd"]
    for k, (label, (its, fractions)) in enumerate(runs.items()):
        ax.plot(its, 100 * np.asarray(fractions), color=colours[k % len(colours)],
                linewidth=1.4, label=label)
    ax.set_ylim(0, 100)
    ax.set_xlabel("iteration (pair updates)")
    ax.set_ylabel("multipliers set aside (%)")
    _legend(ax)
    return ax


# -------------------------------------------------------------- timing

def time_solvers(sizes, make_problem, solvers, repeat=3, max_seconds=None,
                 clock=time.process_time):
    """Time several solvers on the same problems as ``n`` grows.

    Parameters
    ----------
    sizes : dict
        ``{solver name: sequence of n}``: which sizes each solver runs.
    make_problem : callable
        ``make_problem(n) -> problem`` (anything the solvers accept).
    solvers : dict
        ``{solver name: callable(problem)}``; each call solves the problem and
        returns the dual objective it reached, as a number, as a
        :class:`~svmlib.dual.SolverResult` (then its ``n_iter`` is kept
        too), or as a function of no arguments that computes it (called after
        the clock stops, so that checking the answer is not timed).
    repeat : int, default=3
        Runs per (solver, n); the fastest counts (the least disturbed by
        other work on the machine).
    max_seconds : float, optional
        Skip the remaining repeats once one run took longer than this.
    clock : callable, default=time.process_time
        The clock, in seconds.  The default counts the CPU time of this
        process, which other programs on a busy machine disturb far less
        than wall-clock time (:func:`time.perf_counter`); it is the right
        measure for single-threaded solvers (limit BLAS to one thread, e.g.
        with ``threadpoolctl.threadpool_limits(1)``).

    Returns
    -------
    list of dict
        One row per (solver, n): ``solver``, ``n``, ``seconds``, ``objective``
        and ``n_iter`` (``None`` unless the solver returned a result record).
    """
    rows = []
    problems = {}
    for name, solve in solvers.items():
        for n in sizes[name]:
            if n not in problems:
                problems[n] = make_problem(n)
            best, objective = np.inf, np.nan
            for _ in range(repeat):
                start = clock()
                objective = solve(problems[n])
                elapsed = clock() - start
                best = min(best, elapsed)
                if max_seconds is not None and elapsed > max_seconds:
                    break
            if callable(objective):
                objective = objective()
            n_iter = None
            if hasattr(objective, "objective"):
                n_iter = int(objective.n_iter)
                objective = objective.objective
            rows.append({"solver": name, "n": int(n), "seconds": best,
                         "objective": float(objective), "n_iter": n_iter})
    return rows


def fit_growth(n, seconds):
    """The exponent ``p`` of ``seconds ~ c n^p``, by least squares on log-log axes.

    Parameters
    ----------
    n : array-like of shape (k,)
    seconds : array-like of shape (k,)

    Returns
    -------
    p : float
    c : float
    """
    n = np.asarray(n, dtype=float)
    seconds = np.asarray(seconds, dtype=float)
    if n.shape != seconds.shape or n.shape[0] < 2:
        raise ValueError(f"n and seconds must be two arrays of the same length >= 2; got "
                         f"shapes {n.shape} and {seconds.shape}.")
    p, log_c = np.polyfit(np.log(n), np.log(seconds), 1)
    return float(p), float(np.exp(log_c))


def plot_timings(rows, ax=None, fit_from=None):
    """Solver time against ``n`` on log-log axes, with the fitted growth.

    Parameters
    ----------
    rows : list of dict
        From :func:`time_solvers`.
    ax : Axes, optional
    fit_from : dict, optional
        ``{solver name: smallest n used in the fit}``; by default every
        size is used.

    Returns
    -------
    ax : Axes
    exponents : dict
        ``{solver name: fitted exponent}``.
    """
    ax = _tidy(_get_ax(ax))
    exponents = {}
    names = list(dict.fromkeys(r["solver"] for r in rows))
    for k, name in enumerate(names):
        mine = [r for r in rows if r["solver"] == name]
        n = np.array([r["n"] for r in mine], dtype=float)
        t = np.array([r["seconds"] for r in mine], dtype=float)
        style = SOLVER_STYLES.get(name, dict(color=f"C{k}", marker="o"))
        use = n >= (fit_from or {}).get(name, 0)
        p, c = fit_growth(n[use], t[use])
        exponents[name] = p
        ax.plot(n, t, linestyle="none", markersize=6, color=style["color"],
                marker=style["marker"], label=f"{name}: time $\\propto n^{{{p:.1f}}}$")
        grid = np.array([n[use].min(), n[use].max()])
        ax.plot(grid, c * grid ** p, color=style["color"], linewidth=1.2,
                linestyle=(0, (4, 3)))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("number of training points $n$")
    ax.set_ylabel("time to solve the dual (s)")
    _legend(ax)
    return ax, exponents
