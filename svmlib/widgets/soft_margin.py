"""Interactive figures of the chapter "The soft-margin SVM" (chapter 06).

* :func:`c_explorer` -- move C over a logarithmic grid and watch the margin,
  the slacks, the KKT case of every point and the training and validation
  accuracy; as a widget exercise, find the C with the best validation
  accuracy.  The fits are computed once per C by
  :func:`svmlib.paths.soft_margin_path`.
* :func:`drag_explorer` -- drag one training point towards the other class
  and watch the refitted SVM: the point's multiplier rides the KKT staircase
  from 0 through the free case to C, the hyperplane turns while the point
  pushes its margin plane, and its slack (its hinge loss) grows once it
  slips into the band.  The fits are computed once per position by
  :func:`svmlib.paths.drag_path`.

The chapter's running data set is :func:`svmlib.datasets.elongated_blobs`.
"""

import numpy as np

from .._validation import check_array, check_X_y
from ..datasets import elongated_blobs  # noqa: F401 (the old name)
from ..paths import drag_path, soft_margin_path  # noqa: F401 (computed there; shown here)
from ._core import InteractiveFigure, Slider

__all__ = ["DEFAULT_C_GRID", "c_explorer", "drag_explorer"]

#: The default grid of C: 13 values from 10^-2 to 10^2, three per decade.
DEFAULT_C_GRID = tuple(float(f"{v:.3g}") for v in np.logspace(-2, 2, 13))


def _percent(value):
    return f"{100 * value:.1f}%"


def _plane_view(points, n=120):
    """Limits around ``points`` (8 % padding), an ``n x n`` grid over them and their diagonal.

    Returns ``lo, hi, gx, grid, span``: ``gx`` gives the grid's shape,
    ``grid`` its points as rows, ``span`` the length of the diagonal.
    """
    pad = 0.08 * np.ptp(points, axis=0)
    lo, hi = points.min(axis=0) - pad, points.max(axis=0) + pad
    gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], n), np.linspace(lo[1], hi[1], n))
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    return lo, hi, gx, grid, float(np.hypot(*(hi - lo)))


def _two_panels(fig, X, y, lo, hi, shape):
    """The data panel (fixed limits, empty decision regions) and a second panel beside it."""
    from ..plotting._core import REGION_CMAP, plot_data

    left, right = fig.subplots(1, 2, width_ratios=[1.45, 1])
    plot_data(X, y, ax=left, legend=False, s=0, aspect="equal")
    left.set_xlim(lo[0], hi[0])
    left.set_ylim(lo[1], hi[1])
    left.set_autoscale_on(False)
    regions = left.imshow(np.zeros(shape), origin="lower", cmap=REGION_CMAP, vmin=-3,
                          vmax=3, extent=(lo[0], hi[0], lo[1], hi[1]), aspect="auto",
                          zorder=0, interpolation="bilinear")
    return left, right, regions


def _level_line(w, b, level, span):
    """Two far-apart points of ``{x : <w, x> + b = level}``, as (xs, ys) for ``set_data``.

    They lie ``2 span`` either side of the foot of the normal, so an axes
    whose limits span at most ``span`` clips the segment to a full line.
    """
    p0 = (level - b) * w / (w @ w)
    d = np.array([-w[1], w[0]]) / np.linalg.norm(w)
    return [p0[0] - 2 * span * d[0], p0[0] + 2 * span * d[0]], \
           [p0[1] - 2 * span * d[1], p0[1] + 2 * span * d[1]]


def c_explorer(X, y, X_val, y_val, C_values=DEFAULT_C_GRID, value=1.0, goal=True,
               title="The soft margin as C changes", figsize=(8.0, 3.6), dpi=80):
    """Move C and watch the soft-margin SVM; optionally, explain the training-accuracy peak.

    Left: the training points coloured by KKT case (grey ``alpha_i = 0``,
    green ``0 < alpha_i < C``, magenta ``alpha_i = C``; circles ``y = -1``,
    squares ``y = +1``), the decision regions, the boundary, the margins and
    the slack segments.  Right: the KKT staircase of ``alpha_i / C`` against
    ``y_i h(x_i)``.  The readout gives the margin width, the sum of slacks,
    the support vectors and the training and validation accuracy.  All fits
    are computed once, when the figure is built, and every frame only moves
    artists created once.

    Parameters
    ----------
    X, y : array-like of shape (n_samples, 2) and (n_samples,)
        Training data, labels in {-1, +1}.
    X_val, y_val : array-like
        Validation data.
    C_values : sequence of float, default=DEFAULT_C_GRID
        The grid of C (13 values from 0.01 to 100).
    value : float, default=1.0
        Initial C (on the grid).
    goal : bool, default=True
        Widget exercise, predict first and then check: the C of the highest
        *training* accuracy.  It is not the largest C, although the total
        slack never grows with C (Book: ``sec-soft-choosing-c``): the SVM
        minimizes the hinge loss, which only bounds the number of errors.
    title : str
    figsize : (float, float), default=(8.0, 3.6)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
    """
    from matplotlib.collections import LineCollection

    from ..plotting._core import CLASS_MARKERS
    from ..plotting.soft_margin import KKT_CASE_COLORS

    X, y = check_X_y(X, y)
    y = y.astype(float)
    X_val = check_array(X_val, "X_val")
    C_values = [float(c) for c in C_values]
    path = soft_margin_path(X, y, C_values, X_val, y_val)
    fits = dict(zip(C_values, path))
    n_train = len(y)
    train_correct = {p["C"]: int(round(p["train_accuracy"] * n_train)) for p in path}
    best_correct = max(train_correct.values())
    best_C = [c for c in C_values if train_correct[c] == best_correct]
    lo, hi, gx, grid, span = _plane_view(X)
    colours = np.array(KKT_CASE_COLORS)
    m_lo, m_hi = -2.0, 4.0

    def line(w, b, level):
        return _level_line(w, b, level, span)

    def setup(fig):
        left, right, regions = _two_panels(fig, X, y, lo, hi, gx.shape)
        boundary = left.plot([], [], color="black", linewidth=1.8, zorder=3)[0]
        margins = [left.plot([], [], color="black", linewidth=1.1, linestyle=(0, (5, 4)),
                             zorder=3)[0] for _ in range(2)]
        slack = LineCollection([], color="#6b6b6b", linewidth=1.0, zorder=2.5)
        left.add_collection(slack, autolim=False)
        points = {label: left.scatter(X[y == label, 0], X[y == label, 1], s=30,
                                      marker=CLASS_MARKERS[label], edgecolors="black",
                                      linewidths=0.6, zorder=4) for label in (-1, 1)}
        right.plot([m_lo, 1, 1, m_hi], [1, 1, 0, 0], color="#8a8a8a", linewidth=6,
                   alpha=0.35, solid_capstyle="butt", zorder=1)
        right.axvline(1.0, color="black", linewidth=0.8, linestyle=(0, (5, 4)), zorder=1)
        stairs = {label: right.scatter(np.zeros(np.sum(y == label)), np.zeros(np.sum(y == label)),
                                       s=26, marker=CLASS_MARKERS[label], edgecolors="black",
                                       linewidths=0.6, zorder=4) for label in (-1, 1)}
        right.set_xlim(m_lo, m_hi)
        right.set_ylim(-0.08, 1.12)
        right.set_xlabel("$y_i\\,h(\\mathbf{x}_i)$")
        right.set_ylabel("$\\alpha_i / C$")
        right.set_title("KKT: $\\alpha_i / C$ against $y_i h(\\mathbf{x}_i)$", fontsize=10)
        title = left.set_title("", fontsize=10)
        return dict(regions=regions, boundary=boundary, margins=margins, slack=slack,
                    points=points, stairs=stairs, title=title)

    def update(state, C):
        fit = fits[C]
        w, b = fit["w"], fit["b"]
        state["regions"].set_data((grid @ w + b).reshape(gx.shape))
        state["boundary"].set_data(*line(w, b, 0.0))
        for artist, level in zip(state["margins"], (-1.0, 1.0)):
            artist.set_data(*line(w, b, level))
        has_slack = fit["slack"] > 1e-9
        targets = X + (fit["slack"] * y)[:, None] * w[None, :] / (w @ w)
        state["slack"].set_segments(np.stack([X[has_slack], targets[has_slack]], axis=1))
        margin = y * fit["h"]
        shown = np.clip(margin, m_lo + 0.05, m_hi - 0.05)
        for label in (-1, 1):
            mask = y == label
            state["points"][label].set_facecolors(colours[fit["cases"][mask]])
            stairs = state["stairs"][label]
            stairs.set_offsets(np.column_stack([shown[mask], fit["alpha"][mask] / C]))
            stairs.set_facecolors(colours[fit["cases"][mask]])
        state["title"].set_text(f"C = {C:g}")
        return (f"C = {C:g}: margin width 2/‖w‖ = {fit['margin_width']:.2f}, "
                f"total slack Σξ<sub>i</sub> = {fit['slack_sum']:.1f}.<br>"
                f"Support vectors: {fit['n_support']} of {len(y)} "
                f"({fit['n_free']} on the margin, {fit['n_bound']} with α<sub>i</sub> = C). "
                f"Accuracy: training {_percent(fit['train_accuracy'])}, "
                f"validation {_percent(fit['val_accuracy'])}.")

    def is_best(C):
        return train_correct[C] == best_correct

    best_text = " and ".join(f"{c:g}" for c in best_C)
    last = fits[C_values[-1]]
    peak = fits[best_C[-1]]
    return InteractiveFigure(
        setup, update, {"C": Slider(C_values, "C", value=value, fmt="{:g}")},
        goal=is_best if goal else None,
        goal_text=("predict first, then check: at which C is the <i>training</i> accuracy "
                   "highest? A larger C never raises the total slack; does the number of "
                   "training errors follow it?" if goal else None),
        success_message=(
            f"C = {best_text}: training accuracy {_percent(best_correct / n_train)}, the highest "
            f"on the grid. From there to C = {C_values[-1]:g} the total slack still falls "
            f"({peak['slack_sum']:.1f} to {last['slack_sum']:.1f}) while training errors rise "
            f"to {n_train - train_correct[C_values[-1]]}: the SVM minimizes the hinge loss, "
            f"which only bounds the number of errors from above."),
        figsize=figsize, dpi=dpi, title=title)


_CASE_WORDS = {
    0: "α = 0: beyond its margin plane, the point has no say in the solution",
    1: "0 &lt; α &lt; C: a free support vector on its margin plane, pushing the plane along",
    2: "α = C: it pushes as hard as the box allows, and its margin plane no longer follows it (ξ &gt; 0)",
}


def drag_explorer(X, y, index, offsets=None, C=1.0, goal=True,
                  title="Drag one training point across the band", figsize=(8.0, 3.7), dpi=80):
    """Drag one training point towards the other class; watch the refitted SVM.

    The point ``x_k`` (``k = index``) moves in a straight line along the
    normal of the hyperplane fitted to the unmoved data, towards the other
    class (see :func:`svmlib.paths.drag_path`); the linear soft-margin SVM
    is solved again at every position.  Left: the data coloured by KKT case
    (as in :func:`c_explorer`), the decision regions, the refitted boundary
    and margins, the hyperplane of the unmoved data (thin, dotted), the
    track of the point and its slack segment.  Right: the KKT staircase of
    ``alpha_k / C`` against ``y_k h(x_k)``, with every position of the path
    as a faint dot and the current one large.  The readout gives the
    point's score, slack (its hinge loss) and multiplier, and the
    hyperplane's direction and margin width.

    Parameters
    ----------
    X, y : array-like of shape (n_samples, 2) and (n_samples,)
        Training data, labels in {-1, +1}.
    index : int
        Row of the point that moves.
    offsets : sequence of float, optional
        Distances moved, in the units of ``X``; default 0 to 2.8 in steps of
        0.1 (29 positions).
    C : float, default=1.0
    goal : bool, default=True
        Widget exercise: find the first position at which the point's
        multiplier reaches ``C``.
    title : str
    figsize : (float, float), default=(8.0, 3.7)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
    """
    from matplotlib.collections import LineCollection

    from ..plotting._core import CLASS_MARKERS
    from ..plotting.soft_margin import KKT_CASE_COLORS

    X, y = check_X_y(X, y)
    if X.shape[1] != 2:
        raise ValueError(f"X must have 2 columns to be drawn in the plane; got shape {X.shape}.")
    y = y.astype(float)
    if offsets is None:
        offsets = [round(0.1 * i, 1) for i in range(29)]
    offsets = [float(t) for t in offsets]
    path = drag_path(X, y, index, offsets, C=C)
    k = int(index)
    C = float(C)
    fits = dict(zip(offsets, path))
    reached = [p["offset"] for p in path if p["case"] == 2]
    first_bound = reached[0] if reached else None
    free = [p for p in path if p["case"] == 1]
    start = path[0]
    positions = np.array([p["x"] for p in path])
    allX = np.vstack([X, positions])
    lo, hi, gx, grid, span = _plane_view(allX)
    colours = np.array(KKT_CASE_COLORS)
    others = np.arange(len(y)) != k
    s_lo, s_hi = -2.0, 3.0

    def line(w, b, level):
        return _level_line(w, b, level, span)

    def setup(fig):
        left, right, regions = _two_panels(fig, X, y, lo, hi, gx.shape)
        left.plot(*line(start["w"], start["b"], 0.0), color="#555555", linewidth=1.0,
                  linestyle=(0, (1, 2)), zorder=2.6)
        left.plot(positions[:, 0], positions[:, 1], color="#333333", linewidth=1.0,
                  alpha=0.6, zorder=2.7)
        boundary = left.plot([], [], color="black", linewidth=1.8, zorder=3)[0]
        margins = [left.plot([], [], color="black", linewidth=1.1, linestyle=(0, (5, 4)),
                             zorder=3)[0] for _ in range(2)]
        slack = LineCollection([], color="#6b6b6b", linewidth=1.0, zorder=2.5)
        left.add_collection(slack, autolim=False)
        points = {label: left.scatter(X[(y == label) & others, 0], X[(y == label) & others, 1],
                                      s=30, marker=CLASS_MARKERS[label], edgecolors="black",
                                      linewidths=0.6, zorder=4) for label in (-1, 1)}
        moved = left.scatter([X[k, 0]], [X[k, 1]], s=110, marker=CLASS_MARKERS[int(y[k])],
                             edgecolors="black", linewidths=2.0, zorder=5)
        right.plot([s_lo, 1, 1, s_hi], [1, 1, 0, 0], color="#8a8a8a", linewidth=6,
                   alpha=0.35, solid_capstyle="butt", zorder=1)
        right.axvline(1.0, color="black", linewidth=0.8, linestyle=(0, (5, 4)), zorder=1)
        trail = np.array([[np.clip(p["score"], s_lo + 0.05, s_hi - 0.05), p["alpha_k"] / C]
                          for p in path])
        right.scatter(trail[:, 0], trail[:, 1], s=12, color="#9e9e9e", zorder=2)
        current = right.scatter([0.0], [0.0], s=90, marker=CLASS_MARKERS[int(y[k])],
                                edgecolors="black", linewidths=1.5, zorder=4)
        right.set_xlim(s_hi, s_lo)   # the point moves to the right on both panels' story
        right.set_ylim(-0.08, 1.12)
        right.set_xlabel("$y_k\\,h(\\mathbf{x}_k)$ (decreasing)")
        right.set_ylabel("$\\alpha_k / C$")
        right.set_title("the dragged point on the KKT staircase", fontsize=10)
        title_text = left.set_title("", fontsize=10)
        return dict(regions=regions, boundary=boundary, margins=margins, slack=slack,
                    points=points, moved=moved, current=current, title=title_text)

    def update(state, offset):
        fit = fits[offset]
        w, b = fit["w"], fit["b"]
        Xt = X.copy()
        Xt[k] = fit["x"]
        state["regions"].set_data((grid @ w + b).reshape(gx.shape))
        state["boundary"].set_data(*line(w, b, 0.0))
        for artist, level in zip(state["margins"], (-1.0, 1.0)):
            artist.set_data(*line(w, b, level))
        slack_all = np.maximum(0.0, 1.0 - y * (Xt @ w + b))
        has_slack = slack_all > 1e-9
        targets = Xt + (slack_all * y)[:, None] * w[None, :] / (w @ w)
        state["slack"].set_segments(np.stack([Xt[has_slack], targets[has_slack]], axis=1))
        for label in (-1, 1):
            mask = (y == label) & others
            state["points"][label].set_facecolors(colours[fit["cases"][mask]])
        state["moved"].set_offsets([fit["x"]])
        state["moved"].set_facecolors(colours[[fit["case"]]])
        state["current"].set_offsets([[np.clip(fit["score"], s_lo + 0.05, s_hi - 0.05),
                                       fit["alpha_k"] / C]])
        state["current"].set_facecolors(colours[[fit["case"]]])
        state["title"].set_text(f"point {k} moved by {offset:.1f}")
        side = " It is misclassified." if fit["score"] < 0 else ""
        return (f"Point {k} moved by {offset:.1f}: y·h(x) = {fit['score'] + 0.0:.2f}, "
                f"slack ξ = hinge loss = {fit['slack'] + 0.0:.2f}, "
                f"α = {fit['alpha_k'] + 0.0:.2f}.<br>"
                f"{_CASE_WORDS[fit['case']]}.{side}<br>"
                f"Refitted hyperplane: normal at {fit['angle']:.0f}° (unmoved data: "
                f"{start['angle']:.0f}°), margin width 2/‖w‖ = {fit['margin_width']:.2f}, "
                f"{len(fit['support'])} support vectors.")

    def is_first_bound(offset):
        return offset == first_bound

    if free:
        turned = (f" While it was free, from {free[0]['offset']:.1f} to "
                  f"{free[-1]['offset']:.1f}, it dragged its margin plane along and turned the "
                  f"boundary from {start['angle']:.0f}° to {free[-1]['angle']:.0f}°.")
    else:
        turned = ""
    success = (f"At {first_bound:.1f} the multiplier reaches C = {C:g}: the point can push no "
               f"harder, so the margin plane stops following it and it enters the band "
               f"(ξ &gt; 0).{turned}" if first_bound is not None else "")
    goal_on = goal and first_bound is not None
    return InteractiveFigure(
        setup, update,
        {"offset": Slider(offsets, "distance moved", value=offsets[0], fmt="{:.1f}")},
        goal=is_first_bound if goal_on else None,
        goal_text=("find the first position at which the point's multiplier α reaches C. "
                   "Before it does, watch the boundary and the margin width." if goal_on
                   else None),
        success_message=success, figsize=figsize, dpi=dpi, title=title)
