"""Figures of the chapter "The soft-margin SVM" (chapter 06).

The soft margin sorts the training points into three kinds, by their
multiplier ``alpha_i`` (Book: (eq-soft-kkt-cases)):

* ``alpha_i = 0``: on the correct side of the margin, ``y_i h(x_i) >= 1``;
* ``0 < alpha_i < C``: exactly on a margin plane, ``y_i h(x_i) = 1`` (the
  *free* support vectors, which fix ``b``);
* ``alpha_i = C``: inside the margin or misclassified, ``y_i h(x_i) <= 1``
  (the *bound* support vectors, with slack ``xi_i = 1 - y_i h(x_i)``).

:func:`svmlib.objectives.kkt_cases` computes the case of every point; :func:`plot_kkt_cases`
colours the points by case in the plane, and :func:`plot_kkt_staircase` shows
the same cases as the staircase of ``alpha_i / C`` against ``y_i h(x_i)``.
The other figures are the losses of the hinge form (:func:`plot_loss_functions`),
the effect of C (:func:`plot_c_path`) and the convergence of primal solvers
(:func:`plot_objective_gap`).
"""

import numpy as np

from .._validation import check_array
from ..objectives import kkt_cases  # noqa: F401 (computed there; used here)
from ._core import (CLASS_MARKERS, _get_ax, _legend, _tidy, plot_data,
                    plot_hyperplane, plot_slack)

__all__ = [
    "KKT_CASE_COLORS",
    "KKT_CASE_NAMES",
    "plot_kkt_cases",
    "plot_kkt_staircase",
    "LOSS_FUNCTIONS",
    "plot_loss_functions",
    "plot_c_path",
    "plot_objective_gap",
]

#: Colour of each KKT case 0 (alpha = 0), 1 (0 < alpha < C), 2 (alpha = C).
KKT_CASE_COLORS = ("#b0b0b0", "#2e9e44", "#c2185b")
#: Short names of the three cases, for legends and tables.
KKT_CASE_NAMES = ("$\\alpha_i = 0$ (outside the margin)",
                  "$0 < \\alpha_i < C$ (on the margin)",
                  "$\\alpha_i = C$ (inside or wrong side)")


def plot_kkt_cases(X, y, w, b, alpha, C, ax=None, slack=True, legend=True, s=42, rtol=1e-6):
    """Training points coloured by their KKT case, with the hyperplane and margins.

    The marker's shape gives the class (circle ``y = -1``, square ``y = +1``),
    its colour the case (:data:`KKT_CASE_COLORS`): grey ``alpha_i = 0``,
    green ``0 < alpha_i < C``, magenta ``alpha_i = C``.  With ``slack=True``
    each point with ``xi_i > 0`` gets its slack segment, of length
    ``xi_i / ||w||`` (Book: (eq-soft-slack-distance)).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    w : array-like of shape (2,)
    b : float
    alpha : array-like of shape (n_samples,)
    C : float
    ax : Axes, optional
    slack : bool, default=True
        Draw the slack segments.
    legend : bool, default=True
    s : float, default=42
        Marker area.
    rtol : float, default=1e-6
        Passed on to :func:`svmlib.objectives.kkt_cases`.

    Returns
    -------
    ax : Axes
        The points of case ``k`` are one collection with ``gid="kkt-case-k"``.
    """
    X = check_array(X, "X")
    y = np.asarray(y, dtype=float).ravel()
    alpha = check_array(alpha, "alpha", ndim=1)
    if y.shape[0] != X.shape[0] or alpha.shape[0] != X.shape[0]:
        raise ValueError(f"X, y and alpha must describe the same points; got {X.shape[0]} "
                         f"rows of X, {y.shape[0]} labels and {alpha.shape[0]} multipliers.")
    ax = _tidy(_get_ax(ax))
    cases = kkt_cases(alpha, C, rtol=rtol)
    # the data first (invisible) so that the limits and the aspect follow the points
    plot_data(X, y, ax=ax, legend=False, s=0)
    plot_hyperplane(w, b, ax=ax, margins=True)
    if slack:
        plot_slack((np.ravel(w), float(b)), X, y, ax=ax)
    for case in range(3):
        for label in (-1, 1):
            mask = (cases == case) & (y == label)
            ax.scatter(X[mask, 0], X[mask, 1], s=s, marker=CLASS_MARKERS[label],
                       color=KKT_CASE_COLORS[case], edgecolors="black", linewidths=0.6,
                       zorder=4, gid=f"kkt-case-{case}")
    if legend:
        for case in range(3):
            ax.scatter([], [], s=s, marker="o", color=KKT_CASE_COLORS[case],
                       edgecolors="black", linewidths=0.6,
                       label=f"{KKT_CASE_NAMES[case]}: {int(np.sum(cases == case))}")
        for label in (-1, 1):
            sign = "\u2212" if label < 0 else "+"
            ax.scatter([], [], s=s, marker=CLASS_MARKERS[label], facecolors="none",
                       edgecolors="black", linewidths=0.8, label=f"$y = {sign}1$")
        _legend(ax)
    return ax


def plot_kkt_staircase(y, h, alpha, C, ax=None, xlim=(-2.0, 4.0), legend=False, s=36,
                       rtol=1e-6):
    """The KKT conditions as a staircase: ``alpha_i / C`` against ``y_i h(x_i)``.

    At a solution every point lies on the grey staircase: ``alpha_i = C`` to
    the left of ``y_i h(x_i) = 1``, ``alpha_i = 0`` to its right, and
    anything in between exactly at 1.  Points beyond ``xlim`` are drawn at
    the edge (with an arrow-head marker) so that none is lost.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    h : array-like of shape (n_samples,)
        Decision values ``h(x_i) = <w, x_i> + b``.
    alpha : array-like of shape (n_samples,)
    C : float
        Finite box bound.
    ax : Axes, optional
    xlim : (float, float), default=(-2, 4)
    legend : bool, default=False
    s : float, default=36
    rtol : float, default=1e-6

    Returns
    -------
    ax : Axes
        The staircase has ``gid="staircase"``, the points ``gid="kkt-case-k"``.
    """
    y = np.asarray(y, dtype=float).ravel()
    h = check_array(h, "h", ndim=1)
    alpha = check_array(alpha, "alpha", ndim=1)
    if not np.isfinite(C):
        raise ValueError("C must be finite to draw alpha_i / C; got C=inf. For the hard "
                         "margin plot the multipliers with plot_multipliers.")
    ax = _tidy(_get_ax(ax))
    margin = y * h
    cases = kkt_cases(alpha, C, rtol=rtol)
    lo, hi = xlim
    ax.plot([lo, 1, 1, hi], [1, 1, 0, 0], color="#8a8a8a", linewidth=6, alpha=0.35,
            solid_capstyle="butt", zorder=1, gid="staircase")
    ax.axvline(1.0, color="black", linewidth=0.8, linestyle=(0, (5, 4)), zorder=1)
    shown = np.clip(margin, lo + 0.05 * (hi - lo) / 6, hi - 0.05 * (hi - lo) / 6)
    clipped = shown != margin
    for case in range(3):
        for label in (-1, 1):
            mask = (cases == case) & (y == label)
            ax.scatter(shown[mask & ~clipped], alpha[mask & ~clipped] / C, s=s,
                       marker=CLASS_MARKERS[label], color=KKT_CASE_COLORS[case],
                       edgecolors="black", linewidths=0.6, zorder=4, gid=f"kkt-case-{case}",
                       label=(KKT_CASE_NAMES[case] if legend and label == 1 else None))
            mask_out = mask & clipped
            if mask_out.any():
                ax.scatter(shown[mask_out], alpha[mask_out] / C, s=s,
                           marker=np.where(margin[mask_out] < lo, "<", ">")[0],
                           color=KKT_CASE_COLORS[case], edgecolors="black", linewidths=0.6,
                           zorder=4, gid=f"kkt-case-{case}")
    ax.set_xlim(lo, hi)
    ax.set_ylim(-0.08, 1.12)
    ax.set_xlabel("$y_i\\,h(\\mathbf{x}_i)$")
    ax.set_ylabel("$\\alpha_i / C$")
    if legend:
        _legend(ax)
    return ax


def _zero_one(s):
    return (s <= 0).astype(float)


def _hinge(s):
    return np.maximum(0.0, 1.0 - s)


def _logistic(s):
    return np.logaddexp(0.0, -s) / np.log(2.0)


def _perceptron(s):
    return np.maximum(0.0, -s)


def _squared_hinge(s):
    return np.maximum(0.0, 1.0 - s) ** 2


#: The losses of a margin value ``u = y h(x)``: name -> (function, legend text, line style).
LOSS_FUNCTIONS = {
    "zero_one": (_zero_one, "0\u20131 loss $[u \\leq 0]$", dict(color="black", linewidth=2.2)),
    "hinge": (_hinge, "hinge $\\max(0, 1 - u)$", dict(color="#c2185b", linewidth=2.2)),
    "logistic": (_logistic, "logistic $\\log_2(1 + e^{-u})$",
                 dict(color="#1f77b4", linewidth=1.4, linestyle=(0, (5, 3)))),
    "perceptron": (_perceptron, "perceptron $\\max(0, -u)$",
                   dict(color="#7f7f7f", linewidth=1.4, linestyle=(0, (1, 2)))),
    "squared_hinge": (_squared_hinge, "squared hinge $\\max(0, 1 - u)^2$",
                      dict(color="#2e9e44", linewidth=1.4, linestyle=(0, (6, 2, 1, 2)))),
}


def plot_loss_functions(ax=None, losses=("zero_one", "hinge", "logistic", "perceptron"),
                        u_range=(-2.0, 3.0), ylim=(-0.1, 3.2), mark=None, legend=True):
    """Losses of the margin value ``u = y h(x)``: 0-1, hinge and their relatives.

    Book: (eq-soft-hinge).

    Parameters
    ----------
    ax : Axes, optional
    losses : sequence of str, default=("zero_one", "hinge", "logistic", "perceptron")
        Keys of :data:`LOSS_FUNCTIONS`.
    u_range : (float, float), default=(-2, 3)
    ylim : (float, float), default=(-0.1, 3.2)
    mark : float, optional
        A margin value to mark: a vertical line and a dot on each curve.
    legend : bool, default=True

    Returns
    -------
    ax : Axes
        Each curve has ``gid="loss-<name>"``; the mark ``gid="mark"``.
    """
    unknown = [name for name in losses if name not in LOSS_FUNCTIONS]
    if unknown:
        raise ValueError(f"unknown loss(es) {unknown}; choose from "
                         f"{', '.join(LOSS_FUNCTIONS)}.")
    ax = _tidy(_get_ax(ax))
    u = np.linspace(*u_range, 1001)
    for name in losses:
        function, text, props = LOSS_FUNCTIONS[name]
        values = function(u)
        if name == "zero_one":  # draw the jump as a jump, not as a steep slope
            values = values.copy()
            values[np.argmax(u > 0)] = np.nan
        ax.plot(u, values, label=text, gid=f"loss-{name}", zorder=3, **props)
    ax.axvline(0.0, color="#cccccc", linewidth=0.8, zorder=0)
    ax.axvline(1.0, color="#cccccc", linewidth=0.8, zorder=0)
    ax.axhline(0.0, color="#cccccc", linewidth=0.8, zorder=0)
    if mark is not None:
        ax.axvline(mark, color="#555555", linewidth=1.0, linestyle=(0, (2, 2)), gid="mark")
        for name in losses:
            function, _, props = LOSS_FUNCTIONS[name]
            ax.plot([mark], [function(np.array([float(mark)]))[0]], "o", color=props["color"],
                    markersize=6, zorder=5, gid="mark")
    ax.set_xlim(*u_range)
    ax.set_ylim(*ylim)
    ax.set_xlabel("margin value $u = y\\,h(\\mathbf{x})$")
    ax.set_ylabel("loss")
    if legend:
        _legend(ax)
    return ax


def plot_c_path(path, axes=None, best=True):
    """What C does: accuracy, margin width and support vectors against C.

    Parameters
    ----------
    path : list of dict
        One dict per C, as returned by
        :func:`svmlib.widgets.soft_margin.soft_margin_path` (keys ``C``,
        ``train_accuracy``, ``val_accuracy`` (optional), ``margin_width``,
        ``n_free``, ``n_bound``).
    axes : sequence of three Axes, optional
        By default a new row of three panels.
    best : bool, default=True
        Mark the C of the best validation accuracy (the first, if tied).

    Returns
    -------
    axes : ndarray of three Axes
    """
    from ._core import figure

    if axes is None:
        _, axes = figure(ncols=3, size=(3.4, 2.9))
    axes = np.asarray(axes).ravel()
    if axes.shape[0] != 3:
        raise ValueError(f"axes must hold three Axes; got {axes.shape[0]}.")
    C = np.array([p["C"] for p in path], dtype=float)
    train = np.array([p["train_accuracy"] for p in path]) * 100
    ax_acc, ax_width, ax_sv = (_tidy(a) for a in axes)
    ax_acc.plot(C, train, "o-", color="#555555", markersize=4, label="training", gid="train")
    if all(p.get("val_accuracy") is not None for p in path):
        val = np.array([p["val_accuracy"] for p in path]) * 100
        ax_acc.plot(C, val, "s-", color="#c2185b", markersize=4, label="validation",
                    gid="validation")
        if best:
            k = int(np.argmax(val))
            ax_acc.plot([C[k]], [val[k]], "o", markersize=13, markerfacecolor="none",
                        markeredgecolor="black", gid="best")
    ax_acc.set_ylabel("accuracy (%)")
    _legend(ax_acc)
    ax_width.plot(C, [p["margin_width"] for p in path], "o-", color="black", markersize=4,
                  gid="margin-width")
    ax_width.set_ylim(bottom=0)
    ax_width.set_ylabel("margin width $2/\\|\\mathbf{w}\\|$")
    n_free = np.array([p["n_free"] for p in path])
    n_bound = np.array([p["n_bound"] for p in path])
    ax_sv.plot(C, n_free + n_bound, "o-", color="black", markersize=4, label="all",
               gid="n-support")
    ax_sv.plot(C, n_bound, "^-", color=KKT_CASE_COLORS[2], markersize=4,
               label="$\\alpha_i = C$", gid="n-bound")
    ax_sv.plot(C, n_free, "s-", color=KKT_CASE_COLORS[1], markersize=4,
               label="$0 < \\alpha_i < C$", gid="n-free")
    ax_sv.set_ylabel("support vectors")
    ax_sv.set_ylim(bottom=0)
    _legend(ax_sv)
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xlabel("$C$")
    return axes


def plot_objective_gap(traces, optimum, ax=None, styles=None):
    """Convergence of primal solvers: ``P(w_t, b_t) - P*`` against the step ``t``.

    Parameters
    ----------
    traces : dict
        ``{name: (steps, objectives)}``, each a sequence of equal length.
    optimum : float
        The optimal value ``P*`` (e.g. the dual objective at the dual
        solution, by strong duality).
    ax : Axes, optional
    styles : dict, optional
        ``{name: line properties}``.

    Returns
    -------
    ax : Axes
        Each curve has ``gid="trace"``.
    """
    ax = _tidy(_get_ax(ax))
    colours = ["#c2185b", "#1f77b4", "#555555", "#2e9e44"]
    for k, (name, (steps, values)) in enumerate(traces.items()):
        steps = np.asarray(steps, dtype=float)
        gap = np.asarray(values, dtype=float) - float(optimum)
        gap = np.maximum(gap, 1e-12)   # rounding can make the last gaps <= 0
        props = {"color": colours[k % len(colours)], "linewidth": 1.6}
        if styles and name in styles:
            props.update(styles[name])
        ax.plot(steps, gap, label=name, gid="trace", **props)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("step $t$")
    ax.set_ylabel("$P(\\mathbf{w}_t, b_t) - P^\\star$")
    _legend(ax)
    return ax
