"""Interactive figures of the chapter "The soft-margin SVM" (chapter 06).

* :func:`c_explorer` -- move C over a logarithmic grid and watch the margin,
  the slacks, the KKT case of every point and the training and validation
  accuracy; as a widget exercise, find the C with the best validation
  accuracy.  The fits are computed once per C by :func:`soft_margin_path`.
* :func:`hinge_explorer` -- move one point across a fixed hyperplane and
  read off its slack, its distance to the margin, its hinge and 0-1 losses
  and what its multiplier must be at a solution.

The chapter's running data set is :func:`svmlib.datasets.elongated_blobs`.
"""

import numpy as np

from .._validation import check_array, check_int, check_X_y
from ..datasets import elongated_blobs  # noqa: F401 (the old name)
from ._core import Choice, InteractiveFigure, Slider

__all__ = ["DEFAULT_C_GRID", "soft_margin_path", "c_explorer", "hinge_explorer"]

#: The default grid of C: 13 values from 10^-2 to 10^2, three per decade.
DEFAULT_C_GRID = tuple(float(f"{v:.3g}") for v in np.logspace(-2, 2, 13))


def soft_margin_path(X, y, C_values, X_val=None, y_val=None, tol=1e-5):
    """Fit the linear soft-margin SVM for each C and summarize each fit.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    C_values : sequence of float
        The values of C, each ``> 0``.
    X_val, y_val : array-like, optional
        Validation data; then each summary has ``val_accuracy``.
    tol : float, default=1e-5
        Tolerance of the SMO solver.

    Returns
    -------
    list of dict
        One dict per C with ``C``, ``w`` (2,), ``b``, ``alpha`` (n,), ``h``
        (decision values), ``slack`` (xi_i), ``cases`` (see
        :func:`svmlib.plotting.soft_margin.kkt_cases`), ``margin_width``
        (``2/||w||``), ``slack_sum``, ``n_free``, ``n_bound``, ``n_support``,
        ``objective`` (the primal value), ``train_accuracy``, ``val_correct``
        and ``val_accuracy`` (``None`` without validation data).
    """
    from ..objectives import hinge_loss, primal_objective
    from ..plotting.soft_margin import kkt_cases
    from ..svc import SVC

    X, y = check_X_y(X, y)
    y = y.astype(float)
    if X_val is not None:
        X_val, y_val = check_X_y(X_val, y_val)
    path = []
    for C in C_values:
        model = SVC(kernel="linear", C=float(C), tol=tol).fit(X, y)
        w = model.coef_[0].copy()
        b = float(model.intercept_[0])
        alpha = np.asarray(model.alpha_, dtype=float)
        h = X @ w + b
        slack = hinge_loss(y, h)
        cases = kkt_cases(alpha, C)
        val_correct = None if X_val is None else int(np.sum(np.sign(X_val @ w + b) == y_val))
        path.append({
            "C": float(C), "w": w, "b": b, "alpha": alpha, "h": h, "slack": slack,
            "cases": cases, "margin_width": 2.0 / float(np.linalg.norm(w)),
            "slack_sum": float(slack.sum()), "n_free": int(np.sum(cases == 1)),
            "n_bound": int(np.sum(cases == 2)), "n_support": int(np.sum(cases > 0)),
            "objective": primal_objective(w, b, X, y, C),
            "train_accuracy": float(np.mean(np.sign(h) == y)),
            "val_correct": val_correct,
            "val_accuracy": None if X_val is None else val_correct / len(y_val),
        })
    return path


def _percent(value):
    return f"{100 * value:.1f}%"


def c_explorer(X, y, X_val, y_val, C_values=DEFAULT_C_GRID, value=1.0, goal=True,
               title="The soft margin as C changes", figsize=(8.0, 3.6), dpi=80):
    """Move C and watch the soft-margin SVM; optionally, find the best C.

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
        Widget exercise: reach the best validation accuracy on the grid.
    title : str
    figsize : (float, float), default=(8.0, 3.6)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
    """
    from matplotlib.collections import LineCollection

    from ..plotting._core import CLASS_MARKERS, REGION_CMAP, plot_data
    from ..plotting.soft_margin import KKT_CASE_COLORS

    X, y = check_X_y(X, y)
    y = y.astype(float)
    X_val = check_array(X_val, "X_val")
    C_values = [float(c) for c in C_values]
    path = soft_margin_path(X, y, C_values, X_val, y_val)
    fits = dict(zip(C_values, path))
    best_correct = max(p["val_correct"] for p in path)
    best_C = [p["C"] for p in path if p["val_correct"] == best_correct]
    pad = 0.08 * np.ptp(X, axis=0)
    lo, hi = X.min(axis=0) - pad, X.max(axis=0) + pad
    gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], 120), np.linspace(lo[1], hi[1], 120))
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    span = float(np.hypot(*(hi - lo)))
    colours = np.array(KKT_CASE_COLORS)
    m_lo, m_hi = -2.0, 4.0

    def line(w, b, level):
        # two far-apart points of {x : <w, x> + b = level}; the fixed limits clip it
        p0 = (level - b) * w / (w @ w)
        d = np.array([-w[1], w[0]]) / np.linalg.norm(w)
        return [p0[0] - 2 * span * d[0], p0[0] + 2 * span * d[0]], \
               [p0[1] - 2 * span * d[1], p0[1] + 2 * span * d[1]]

    def setup(fig):
        left, right = fig.subplots(1, 2, width_ratios=[1.45, 1])
        plot_data(X, y, ax=left, legend=False, s=0, aspect="equal")
        left.set_xlim(lo[0], hi[0])
        left.set_ylim(lo[1], hi[1])
        left.set_autoscale_on(False)
        regions = left.imshow(np.zeros_like(gx), origin="lower", cmap=REGION_CMAP, vmin=-3,
                              vmax=3, extent=(lo[0], hi[0], lo[1], hi[1]), aspect="auto",
                              zorder=0, interpolation="bilinear")
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
        return fits[C]["val_correct"] == best_correct

    best_text = " and ".join(f"{c:g}" for c in best_C)
    return InteractiveFigure(
        setup, update, {"C": Slider(C_values, "C", value=value, fmt="{:g}")},
        goal=is_best if goal else None,
        goal_text=("find the C with the highest validation accuracy on this grid." if goal
                   else None),
        success_message=(f"C = {best_text} gives the best validation accuracy on the grid, "
                         f"{_percent(best_correct / len(y_val))}."),
        figsize=figsize, dpi=dpi, title=title)


def _case_text(s):
    """What a score s = y h(x) means, and what the multiplier must be."""
    if s > 1:
        return "outside the margin, on the correct side: ξ = 0 and, at a solution, α = 0."
    if s == 1:
        return "exactly on its margin plane: ξ = 0 and, at a solution, 0 ≤ α ≤ C."
    if s > 0:
        return ("inside the margin but on the correct side: 0 &lt; ξ &lt; 1 and, at a "
                "solution, α = C.")
    if s == 0:
        return "on the hyperplane itself: ξ = 1 and, at a solution, α = C."
    return "on the wrong side (misclassified): ξ &gt; 1 and, at a solution, α = C."


def hinge_explorer(scores=None, w=(1.2, 1.6), b=-0.4, title="One point, its slack and its losses",
                   figsize=(8.0, 3.4), dpi=80):
    """Move one point across a fixed hyperplane; read its slack and its losses.

    The point travels along the normal of the hyperplane ``<w, x> + b = 0``
    so that its score ``s = y h(x)`` takes the values on the slider.  Left:
    the hyperplane, the margin planes, the point and its slack segment
    (length ``xi / ||w||``).  Right: the 0-1, hinge and logistic losses with
    the current score marked.

    Parameters
    ----------
    scores : sequence of float, optional
        The grid of ``s``; default -2 to 3 in steps of 0.5, with the
        quarters between 0 and 1 added (13 values).
    w : array-like of shape (2,), default=(1.2, 1.6)
        Normal vector (``||w|| = 2``: margin 0.5).
    b : float, default=-0.4
    title : str
    figsize : (float, float), default=(8.0, 3.4)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
    """
    from ..plotting._core import CLASS_COLORS, CLASS_MARKERS, plot_hyperplane
    from ..plotting.soft_margin import LOSS_FUNCTIONS, plot_loss_functions

    losses = ("zero_one", "hinge", "logistic")
    if scores is None:
        scores = (-2.0, -1.5, -1.0, -0.5, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0)
    scores = [float(s) for s in scores]
    w = check_array(w, "w", ndim=1)
    if w.shape != (2,) or not np.any(w):
        raise ValueError(f"w must be a nonzero vector of shape (2,); got {w.tolist()}.")
    b = float(b)
    norm = float(np.linalg.norm(w))
    anchor = -b * w / norm**2           # the point of the hyperplane closest to 0
    along = np.array([-w[1], w[0]]) / norm
    reach = (max(abs(s) for s in scores) + 0.3) / norm
    lo = anchor - 1.25 * reach
    hi = anchor + 1.25 * reach

    def position(s, label):
        # h(anchor) = 0, so x = anchor + label * s * w / ||w||^2 has y h(x) = s
        return anchor + 0.3 * reach * along + label * s * w / norm**2

    def setup(fig):
        left, right = fig.subplots(1, 2, width_ratios=[1, 1.2])
        left.set_xlim(lo.min(), hi.max())
        left.set_ylim(lo.min(), hi.max())
        left.set_aspect("equal", adjustable="box")
        # the band |h| < 1, the hyperplane and the margins never move
        grid = np.linspace(lo.min(), hi.max(), 200)
        xx, yy = np.meshgrid(grid, grid)
        band = np.abs(xx * w[0] + yy * w[1] + b) < 1
        left.contourf(xx, yy, band.astype(float), levels=[0.5, 1.5], colors=["#eeeeee"],
                      zorder=0)
        plot_hyperplane(w, b, ax=left, margins=True)
        for level, text in ((1.0, "$h = +1$"), (-1.0, "$h = -1$")):
            spot = anchor + level * w / norm**2 - 0.95 * reach * along
            angle = np.degrees(np.arctan2(along[1], along[0]))
            angle = (angle + 90.0) % 180.0 - 90.0   # keep the text upright
            left.annotate(text, spot, fontsize=8, ha="center", va="center", color="#444444",
                          rotation=angle,
                          bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none"))
        left.set_xlabel("$x_1$")
        left.set_ylabel("$x_2$")
        # the track of the point (the same line for both labels)
        start, end = position(min(scores), 1), position(max(scores), 1)
        left.plot([start[0], end[0]], [start[1], end[1]], color="#bbbbbb", linewidth=1.0,
                  zorder=1)
        segment = left.plot([], [], color="#6b6b6b", linewidth=2.0, zorder=4.5)[0]
        point = left.scatter([0.0], [0.0], s=70, zorder=5, edgecolors="black", linewidths=0.8)
        label_text = left.text(0, 0, "", fontsize=9, zorder=6)
        plot_loss_functions(ax=right, losses=losses, legend=True)
        right.get_legend().set_zorder(2)   # below the moving mark: drawn once
        right.set_title("losses of the score", fontsize=10)
        mark = right.axvline(0.0, color="#555555", linewidth=1.0, linestyle=(0, (2, 2)),
                             zorder=4)
        dots = [right.plot([], [], "o", color=LOSS_FUNCTIONS[name][2]["color"], markersize=6,
                           zorder=5)[0] for name in losses]
        return {"left": left, "right": right, "segment": segment, "point": point,
                "text": label_text, "mark": mark, "dots": dots}

    def update(state, s, label):
        x = position(s, label)
        xi = max(0.0, 1.0 - s)
        target = x + label * xi * w / norm**2   # the nearest point of its margin plane
        state["segment"].set_data([x[0], target[0]], [x[1], target[1]])
        point = state["point"]
        point.set_offsets([x])
        point.set_facecolor(CLASS_COLORS[label])
        point.set_paths([_marker_path(CLASS_MARKERS[label])])
        text = state["text"]
        text.set_position(x + 0.12 * reach * along)
        text.set_text(f"$\\xi = {xi:.2f}$" if xi > 0 else "$\\xi = 0$")
        state["mark"].set_xdata([s, s])
        for dot, name in zip(state["dots"], losses):
            dot.set_data([s], [LOSS_FUNCTIONS[name][0](np.array([s]))[0]])
        zero_one = 1 if s <= 0 else 0
        sign = "+1" if label > 0 else "−1"
        return (f"y = {sign}, score y·h(x) = {s:.2f}: {_case_text(s)}<br>"
                f"Slack ξ = max(0, 1 − y·h(x)) = {xi:.2f}; distance to its margin plane "
                f"ξ/‖w‖ = {xi / norm:.3f}. Hinge loss {xi:.2f}, 0–1 loss {zero_one}.")

    controls = {
        "s": Slider(scores, "score y·h(x)", value=1.5 if 1.5 in scores else scores[-1],
                    fmt="{:+.2f}"),
        "label": Choice({"y = +1": 1, "y = −1": -1}, "class of the point"),
    }
    return InteractiveFigure(setup, update, controls, figsize=figsize, dpi=dpi, title=title)


def _marker_path(marker):
    """The path of a matplotlib marker, scaled as a scatter plot scales it."""
    from matplotlib.markers import MarkerStyle

    style = MarkerStyle(marker)
    return style.get_path().transformed(style.get_transform())
