"""Figures of the chapter "The hard-margin SVM and its dual".

Three kinds of figure belong to this chapter only:

* the dual solution in two panels, the data with the hyperplane beside the
  bar chart of the multipliers (:func:`plot_dual_solution`), used in the
  chapter's static figures and in its interactive ones;
* the dual classifier as a vote of the support vectors
  (:func:`plot_dual_votes`, :func:`plot_vote_contributions`);
* the landscape of a dual objective in two variables, with the feasible
  quadrant shaded (:func:`plot_dual_landscape`), for the three-point example
  solved by hand;
* the convex-hull view: the closest points of the two class hulls and the
  hyperplane that bisects them (:func:`plot_convex_hulls`,
  :func:`plot_hull_view`).

The hull figures need the closest points of the two hulls, the solution of a
small QP (Book: (eq-hull-qp)); :func:`svmlib.geometry.closest_hull_points`
computes it.
"""

import numpy as np

from .._validation import check_array
from ..geometry import _labels_pm, closest_hull_points  # noqa: F401 (computed there)
from ._core import (CLASS_COLORS, _get_ax, _tidy, plot_data, plot_hyperplane,
                    plot_multipliers, ring_support_vectors)

__all__ = [
    "annotate_points",
    "plot_dual_solution",
    "plot_dual_landscape",
    "plot_dual_votes",
    "plot_vote_contributions",
    "plot_convex_hulls",
    "plot_hull_view",
]


def annotate_points(X, ax=None, names=None, offset=(6, 5), fontsize=10, **kwargs):
    """Write a name next to each 2-D point (``x_1``, ``x_2``, ... by default).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    ax : Axes, optional
    names : list of str, optional
        One name per point; default ``$\\mathbf{x}_1$``, ``$\\mathbf{x}_2$``, ...
        (numbered from 1, as in the text).
    offset : (float, float), default=(6, 5)
        Offset of the text from the point, in points.
    fontsize : float, default=10
    **kwargs
        Passed on to :meth:`~matplotlib.axes.Axes.annotate`.

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    ax = _get_ax(ax)
    if names is None:
        names = [f"$\\mathbf{{x}}_{{{i + 1}}}$" for i in range(X.shape[0])]
    if len(names) != X.shape[0]:
        raise ValueError(f"names must have one entry per point ({X.shape[0]}); got "
                         f"{len(names)}.")
    for point, name in zip(X, names):
        ax.annotate(name, point[:2], xytext=offset, textcoords="offset points",
                    fontsize=fontsize, zorder=6, **kwargs)
    return ax


def _w_b_from_alpha(X, y, alpha, threshold):
    w = (alpha * y) @ X
    sv = alpha > threshold
    b = float(np.mean(y[sv] - X[sv] @ w)) if sv.any() else 0.0
    return w, b, sv


def plot_dual_solution(X, y, alpha, b=None, axes=None, threshold=1e-6, highlight=None,
                       alpha_max=None, hulls=False, legend=True):
    """The dual solution in two panels: the data and hyperplane, and the multipliers.

    The left panel shows the points, the hyperplane ``h(x) = 0`` with ``w =
    sum_i alpha_i y_i x_i`` (Book: (eq-stationarity-w)), the margin planes and
    the ringed support vectors (``alpha_i > threshold``).  The right panel is
    the bar chart of the ``alpha_i``, coloured by class.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    alpha : array-like of shape (n_samples,) or None
        The dual solution; ``None`` draws the data alone and an empty bar
        chart (e.g. when the data are not separable).
    b : float, optional
        The bias; default the average of ``y_s - <w, x_s>`` over the support
        vectors (Book: (eq-bias-average)).
    axes : pair of Axes, optional
        Where to draw; default a new figure with two panels.
    threshold : float, default=1e-6
        Multipliers above it mark support vectors.
    highlight : int, optional
        Index of a point to mark (a thick ring in the left panel, a hatched
        bar in the right one).
    alpha_max : float, optional
        Fixed upper limit of the bar chart; taller bars are clipped at it and
        labelled with their value.
    hulls : bool, default=False
        Also shade the convex hull of each class (:func:`plot_convex_hulls`).
    legend : bool, default=True

    Returns
    -------
    axes : ndarray of 2 Axes
    """
    X = check_array(X, "X")
    y = _labels_pm(y, X.shape[0])
    if axes is None:
        from ._core import figure
        _, axes = figure(ncols=2, size=(4.6, 3.6), width_ratios=[1.35, 1])
    ax_data, ax_bars = axes
    if hulls:
        plot_convex_hulls(X, y, ax=ax_data)
    plot_data(X, y, ax=ax_data, legend=legend)
    if alpha is not None:
        alpha = check_array(alpha, "alpha", ndim=1)
        w, b_avg, sv = _w_b_from_alpha(X, y, alpha, threshold)
        b = b_avg if b is None else float(b)
        plot_hyperplane(w, b, ax=ax_data, margins=True)
        ring_support_vectors(X[sv], ax=ax_data, label="support vectors" if legend else None)
        shown = alpha if alpha_max is None else np.minimum(alpha, alpha_max)
        plot_multipliers(shown, ax=ax_bars, y=y, threshold=threshold)
        n_sv = int(sv.sum())
        ax_bars.set_title(f"{n_sv} support vector{'s' if n_sv != 1 else ''} "
                          f"($\\alpha_i > 0$)")
        if alpha_max is not None:
            ax_bars.set_ylim(0, alpha_max * 1.08)
            for i in np.flatnonzero(alpha > alpha_max):
                ax_bars.annotate(f"{alpha[i]:.1f}", (i, alpha_max), xytext=(0, 2),
                                 textcoords="offset points", ha="center", va="bottom",
                                 fontsize=8)
    else:
        plot_multipliers(np.zeros(X.shape[0]), ax=ax_bars, y=y, threshold=np.inf)
        ax_bars.set_title("no solution: not separable")
        if alpha_max is not None:
            ax_bars.set_ylim(0, alpha_max * 1.08)
    if highlight is not None:
        point = X[highlight]
        ax_data.scatter([point[0]], [point[1]], s=260, facecolors="none",
                        edgecolors="#c2185b", linewidths=2.2, zorder=6, gid="highlight")
        bars = [p for p in ax_bars.patches if p.get_gid() == "multipliers"] or ax_bars.patches
        if highlight < len(bars):
            bars[highlight].set_hatch("////")
            bars[highlight].set_edgecolor("#c2185b")
            bars[highlight].set_linewidth(1.6)
        ticks = ax_bars.get_xticklabels()
        if highlight < len(ticks):
            ticks[highlight].set_color("#c2185b")
            ticks[highlight].set_fontweight("bold")
    _tidy(ax_data)
    return np.asarray(axes)


def plot_dual_votes(X, y, alpha, b, x_query, ax=None, threshold=1e-6):
    """The dual classifier at one point as a vote of the support vectors.

    Draws a segment from the query point ``x`` to each support vector
    ``x_i``, as wide as ``alpha_i`` is large and coloured by ``y_i``, with
    the hyperplane and its margins.  Book: (eq-dual-classifier).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    alpha : array-like of shape (n_samples,)
    b : float
    x_query : array-like of shape (2,)
    ax : Axes, optional
    threshold : float, default=1e-6

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    y = _labels_pm(y, X.shape[0])
    alpha = check_array(alpha, "alpha", ndim=1)
    x_query = check_array(np.reshape(x_query, (1, -1)), "x_query")[0]
    ax = _get_ax(ax)
    sv = np.flatnonzero(alpha > threshold)
    w = (alpha * y) @ X
    widths = 1.0 + 5.0 * alpha[sv] / alpha[sv].max()
    for i, width in zip(sv, widths):
        ax.plot([x_query[0], X[i, 0]], [x_query[1], X[i, 1]], color=CLASS_COLORS[int(y[i])],
                linewidth=width, alpha=0.75, zorder=2, solid_capstyle="round", gid="votes")
    plot_data(X, y, ax=ax)
    plot_hyperplane(w, b, ax=ax, margins=True)
    ring_support_vectors(X[sv], ax=ax)
    h = float(w @ x_query + b)
    ax.scatter([x_query[0]], [x_query[1]], marker="*", s=260, color="#2e7d32",
               edgecolors="black", linewidths=0.8, zorder=7, label="query $\\mathbf{x}$",
               gid="query")
    ax.annotate(f"$h(\\mathbf{{x}}) = {h:+.2f}$", x_query, xytext=(10, -18),
                textcoords="offset points", fontsize=11, zorder=8,
                bbox=dict(boxstyle="round,pad=0.15", facecolor="white", edgecolor="none",
                          alpha=0.85))
    ax.legend(loc="best", fontsize=8, handletextpad=0.3, borderaxespad=0.3, labelspacing=0.3)
    return ax


def plot_vote_contributions(X, y, alpha, b, x_query, ax=None, threshold=1e-6):
    """Bar chart of the terms of h(x) = sum_i alpha_i y_i <x_i, x> + b at one point.

    One bar per support vector (coloured by class), one for ``b`` and one
    for their sum ``h(x)``.  Book: (eq-dual-classifier).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    alpha : array-like of shape (n_samples,)
    b : float
    x_query : array-like of shape (n_features,)
    ax : Axes, optional
    threshold : float, default=1e-6

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    y = _labels_pm(y, X.shape[0])
    alpha = check_array(alpha, "alpha", ndim=1)
    x_query = np.asarray(x_query, dtype=float).ravel()
    ax = _get_ax(ax)
    sv = np.flatnonzero(alpha > threshold)
    terms = alpha[sv] * y[sv] * (X[sv] @ x_query)
    values = np.concatenate([terms, [float(b), terms.sum() + float(b)]])
    names = [f"$i={i}$" for i in sv] + ["$b$", "$h(\\mathbf{x})$"]
    colours = [CLASS_COLORS[int(y[i])] for i in sv] + ["#9e9e9e", "#2e7d32"]
    positions = np.arange(values.shape[0])
    ax.bar(positions, values, color=colours, width=0.7, gid="contributions", zorder=2)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.axvline(len(sv) + 0.5, color="#9e9e9e", linewidth=0.8, linestyle=":")
    ax.set_xticks(positions)
    ax.set_xticklabels(names, fontsize=9)
    ax.set_ylabel("contribution to $h(\\mathbf{x})$")
    for x_pos, v in zip(positions, values):
        ax.annotate(f"{v:+.2f}", (x_pos, v), xytext=(0, 3 if v >= 0 else -3),
                    textcoords="offset points", ha="center", va="bottom" if v >= 0 else "top",
                    fontsize=8)
    lo, hi = min(0.0, values.min()), max(0.0, values.max())
    pad = 0.15 * (hi - lo + 1e-12)
    ax.set_ylim(lo - pad, hi + pad)
    _tidy(ax)
    return ax


def plot_convex_hulls(X, y, ax=None, alpha=0.14):
    """Shade the convex hull of each class (a segment or a point if it is degenerate).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    ax : Axes, optional
    alpha : float, default=0.14
        Opacity of the fill (the outline is drawn opaque).

    Returns
    -------
    ax : Axes
        The polygons carry ``gid="hull"``.
    """
    from scipy.spatial import ConvexHull, QhullError

    X = check_array(X, "X")
    y = _labels_pm(y, X.shape[0])
    ax = _get_ax(ax)
    for label in (-1, 1):
        P = X[y == label]
        colour = CLASS_COLORS[label]
        try:
            corners = P[ConvexHull(P).vertices]
        except (QhullError, ValueError):   # fewer than 3 points, or all on a line
            order = np.argsort(P[:, 0] + 1e-6 * P[:, 1])
            corners = P[order[[0, -1]]]
        ax.fill(corners[:, 0], corners[:, 1], facecolor=colour, alpha=alpha,
                edgecolor="none", zorder=1, gid="hull")
        closed = np.vstack([corners, corners[:1]])
        ax.plot(closed[:, 0], closed[:, 1], color=colour, linewidth=1.0, zorder=1.5,
                gid="hull")
    return ax


def plot_hull_view(X, y, ax=None, hull=None):
    """The convex-hull view of the hard-margin SVM.

    Shades both class hulls, joins their closest points ``c_minus`` and
    ``c_plus`` by a segment, marks its midpoint, and draws the hyperplane
    that bisects the segment perpendicularly, with ``w = 2 (c_plus -
    c_minus) / delta^2`` and its margin planes through ``c_plus`` and
    ``c_minus``.  Book: (eq-hull-w).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}; the classes must be separable.
    ax : Axes, optional
    hull : dict, optional
        The result of :func:`svmlib.geometry.closest_hull_points` (computed if not given).

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    y = _labels_pm(y, X.shape[0])
    if hull is None:
        hull = closest_hull_points(X, y)
    if hull["distance"] <= 1e-9:
        raise ValueError("the convex hulls of the two classes intersect, so the data are not "
                         "linearly separable and there is no maximum-margin hyperplane. Use a "
                         "soft margin (finite C).")
    ax = _get_ax(ax)
    c_plus, c_minus = hull["c_plus"], hull["c_minus"]
    d = c_plus - c_minus
    w = 2.0 * d / (d @ d)
    b = -float(w @ (c_plus + c_minus)) / 2.0
    plot_convex_hulls(X, y, ax=ax)
    plot_data(X, y, ax=ax)
    plot_hyperplane(w, b, ax=ax, margins=True)
    ax.plot([c_minus[0], c_plus[0]], [c_minus[1], c_plus[1]], color="#2e7d32",
            linewidth=2.2, zorder=5, gid="closest-segment")
    ax.scatter([c_minus[0], c_plus[0]], [c_minus[1], c_plus[1]], s=70, marker="D",
               color="#2e7d32", edgecolors="black", linewidths=0.7, zorder=6,
               label="closest points", gid="closest-points")
    mid = (c_plus + c_minus) / 2
    ax.scatter([mid[0]], [mid[1]], s=50, marker="x", color="black", zorder=6,
               label="midpoint", gid="midpoint")
    for point, name in ((c_plus, "$\\mathbf{c}_+$"), (c_minus, "$\\mathbf{c}_-$")):
        ax.annotate(name, point, xytext=(9, -15), textcoords="offset points", fontsize=11,
                    color="#1b5e20", zorder=7,
                    bbox=dict(boxstyle="round,pad=0.1", facecolor="white", edgecolor="none",
                              alpha=0.8))
    sv = hull["u"] > 0
    ring_support_vectors(X[sv], ax=ax)
    return ax


def plot_dual_landscape(D, ax=None, extent=(-0.3, 1.9, -1.4, 0.9), points=None, levels=12,
                        labels=("$\\alpha_2$", "$\\alpha_3$"), resolution=240, highlight=None):
    """Contour lines of a dual objective of two multipliers, over the feasible quadrant.

    Draws the level sets of ``D(a, b)`` on a rectangle that may reach beyond
    the quadrant ``a >= 0, b >= 0`` (the feasible set once the equality
    constraint has been used to eliminate a third multiplier), shades the
    quadrant, and marks named points such as the unconstrained stationary
    point and the constrained maximum (Book: (eq-hmd-tiny-dual)).

    Parameters
    ----------
    D : callable
        ``D(a, b)``, evaluated on two arrays of the same shape (NumPy
        broadcasting), returning an array of values.
    ax : matplotlib Axes, optional
    extent : (a_min, a_max, b_min, b_max), default=(-0.3, 1.9, -1.4, 0.9)
        The rectangle drawn.
    points : dict of str -> (a, b), optional
        Points to mark, with the text of their legend entry; the first is
        drawn as a cross, the second as a star, the others as circles.
    levels : int or sequence of float, default=12
        Passed on to :func:`matplotlib.axes.Axes.contour`.
    labels : (str, str)
        Axis labels.
    resolution : int, default=240
        Grid points per axis.
    highlight : float, optional
        One level drawn thicker (e.g. the value at the constrained maximum).

    Returns
    -------
    matplotlib Axes
    """
    if not callable(D):
        raise TypeError(f"D must be a function D(a, b) of two arrays; got "
                        f"{type(D).__name__}. Write it with NumPy operations, e.g. "
                        f"lambda a, b: 2*a + 2*b - 4*a**2.")
    extent = np.asarray(extent, dtype=float).ravel()
    if extent.shape != (4,) or not (extent[0] < extent[1] and extent[2] < extent[3]):
        raise ValueError(f"extent must be (a_min, a_max, b_min, b_max) with a_min < a_max and "
                         f"b_min < b_max; got {extent.tolist()}.")
    if int(resolution) < 10:
        raise ValueError(f"resolution must be at least 10 grid points per axis; got "
                         f"{resolution}.")
    ax = _get_ax(ax)
    a = np.linspace(extent[0], extent[1], int(resolution))
    b = np.linspace(extent[2], extent[3], int(resolution))
    A, B = np.meshgrid(a, b)
    values = np.asarray(D(A, B), dtype=float)
    if values.shape != A.shape:
        raise ValueError(f"D(a, b) must return one value per grid point, shape {A.shape}; got "
                         f"shape {values.shape}. Use NumPy operations that broadcast.")
    contours = ax.contour(A, B, values, levels=levels, colors="#777777", linewidths=0.8,
                          linestyles="solid")
    ax.clabel(contours, fontsize=7, fmt="%.2g")
    if highlight is not None:
        ax.contour(A, B, values, levels=[float(highlight)], colors="#2e7d32", linewidths=2.0,
                   linestyles="solid")
    ax.fill_between([max(0.0, extent[0]), extent[1]], max(0.0, extent[2]), extent[3],
                    color="#4c72b0", alpha=0.10, linewidth=0, label="feasible: both $\\geq 0$")
    ax.axhline(0.0, color="black", linewidth=0.9)
    ax.axvline(0.0, color="black", linewidth=0.9)
    styles = [dict(marker="X", s=90, color="#c2185b"), dict(marker="*", s=200, color="#2e7d32"),
              dict(marker="o", s=50, color="#e69f00")]
    for k, (name, (pa, pb)) in enumerate((points or {}).items()):
        style = styles[min(k, len(styles) - 1)]
        ax.scatter([pa], [pb], zorder=5, edgecolors="white", linewidths=0.8, label=name,
                   **style)
    ax.set_xlim(extent[0], extent[1])
    ax.set_ylim(extent[2], extent[3])
    ax.set_xlabel(labels[0])
    ax.set_ylabel(labels[1])
    ax.set_aspect("equal")
    ax.legend(loc="lower left", fontsize=8, framealpha=0.9)
    return _tidy(ax)
