"""Interactive figures of the chapter "The hard-margin SVM and its dual".

:func:`moving_point_figure` lets the reader drag one training point over a
grid (two sliders) and watch the hard-margin solution respond: the
hyperplane, the set of support vectors, and the bar chart of the multipliers
``alpha_i`` beside it.  With ``goal="become"`` or ``goal="stop"`` it is a
widget exercise: make the chosen point become (or stop being) a support vector
while the classes stay separable.

The small data set the chapter moves points in is :func:`svmlib.datasets.ten_points`.
"""

import numpy as np

from ..datasets import ten_points as playground_data  # noqa: F401 (the old name)
from ..plotting._core import (_HYPERPLANE, _MARGIN, _RING, CLASS_COLORS, CLASS_MARKERS,
                              _tidy)
from ..dual import NotSeparableError, check_separable
from ..qp import solve_dual_slsqp
from ._core import InteractiveFigure, Slider

__all__ = ["moving_point_figure"]

_GOALS = {
    "become": ("make point {i} a support vector (α<sub>{i}</sub> &gt; 0) while the two classes "
               "stay separable.",
               "Point {i} is now a support vector: it sits on a margin plane and carries "
               "a positive multiplier."),
    "stop": ("make point {i} stop being a support vector (α<sub>{i}</sub> = 0) while the two "
             "classes stay separable.",
             "Point {i} is no longer a support vector: it has left the margin plane and "
             "its multiplier is 0; other points now hold the margin."),
}


def _solve(X, y, rel):
    """Hard-margin solution of (X, y), or None if the classes are not separable."""
    try:
        check_separable(y, X=X)
    except NotSeparableError:
        return None
    result = solve_dual_slsqp(X @ X.T, y, C=np.inf, tol=1e-12, check_feasible=False)
    alpha = result.alpha
    w = (alpha * y) @ X
    sv = alpha > rel * max(1.0, float(alpha.max()))
    b = float(np.mean(y[sv] - X[sv] @ w))
    return {"alpha": alpha, "w": w, "b": b, "support": np.flatnonzero(sv)}


_HIGHLIGHT = "#c2185b"


def _hull_corners(P):
    """Corners of the convex hull of the rows of P, in order (a segment if degenerate)."""
    from scipy.spatial import ConvexHull, QhullError
    try:
        return P[ConvexHull(P).vertices]
    except (QhullError, ValueError):
        order = np.argsort(P[:, 0] + 1e-6 * P[:, 1])
        return P[order[[0, -1]]]


class _Panels:
    """The artists of the two panels; :meth:`show` moves them (no re-plotting)."""

    def __init__(self, fig, X, y, index, lo, hi, alpha_max, hulls):
        from matplotlib.patches import Polygon

        self.y, self.index, self.alpha_max = y, index, alpha_max
        n = X.shape[0]
        ax, bars_ax = fig.subplots(1, 2, width_ratios=[1.3, 1])
        self.ax, self.bars_ax = ax, bars_ax
        ax.set_xlim(lo[0], hi[0])
        ax.set_ylim(lo[1], hi[1])
        ax.set_aspect("equal", adjustable="box")
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$")
        self.hulls = {}
        if hulls:
            for label in (-1, 1):
                patch = Polygon(np.zeros((3, 2)), closed=True, facecolor=CLASS_COLORS[label],
                                alpha=0.14, edgecolor=CLASS_COLORS[label], linewidth=1.0,
                                zorder=1)
                ax.add_patch(patch)
                self.hulls[label] = patch
        self.points = {}
        for label in (-1, 1):
            self.points[label] = ax.scatter(
                *X[y == label].T, s=46, color=CLASS_COLORS[label], marker=CLASS_MARKERS[label],
                edgecolors="white", linewidths=0.6, zorder=4)
        self.lines = [ax.plot([], [], **_HYPERPLANE)[0]]
        self.lines += [ax.plot([], [], **_MARGIN)[0] for _ in range(2)]
        self.rings = ax.scatter(np.zeros(0), np.zeros(0), s=170, **_RING)
        self.mark = ax.scatter([X[index, 0]], [X[index, 1]], s=320, facecolors="none",
                               edgecolors=_HIGHLIGHT, linewidths=2.2, zorder=6)
        self.names = [ax.annotate(str(i), X[i], xytext=(5, 4), textcoords="offset points",
                                  fontsize=8, color="#555555", zorder=6) for i in range(n)]
        self.names[index].set_color(_HIGHLIGHT)
        self.names[index].set_fontweight("bold")
        self.banner = ax.text(0.5, 0.97, "not separable", transform=ax.transAxes,
                              ha="center", va="top", fontsize=10, color="#b00020",
                              fontweight="bold", zorder=8, visible=False)
        _tidy(ax)

        colours = [CLASS_COLORS[1] if v > 0 else CLASS_COLORS[-1] for v in y]
        self.bars = bars_ax.bar(np.arange(n), np.zeros(n), color=colours, width=0.8,
                                edgecolor="none", linewidth=0.8, zorder=2)
        self.bars[index].set_hatch("////")
        bars_ax.axhline(0, color="black", linewidth=0.8)
        bars_ax.set_ylim(0, alpha_max * 1.1)
        bars_ax.set_xticks(np.arange(n))
        bars_ax.get_xticklabels()[index].set_color(_HIGHLIGHT)
        bars_ax.get_xticklabels()[index].set_fontweight("bold")
        bars_ax.set_xlabel("point $i$")
        bars_ax.set_ylabel("$\\alpha_i$")
        self.clipped = [bars_ax.text(i, alpha_max, "", ha="center", va="bottom", fontsize=8)
                        for i in range(n)]
        self.title = bars_ax.set_title(" ")
        _tidy(bars_ax)

    def _set_line(self, line, w, b, level):
        p0 = (level - b) * w / (w @ w)
        direction = np.array([-w[1], w[0]]) / np.linalg.norm(w)
        ends = np.array([p0 - 100 * direction, p0 + 100 * direction])
        line.set_data(ends[:, 0], ends[:, 1])

    def show(self, X, sol):
        y, index = self.y, self.index
        for label, points in self.points.items():
            points.set_offsets(X[y == label])
        for label, patch in self.hulls.items():
            patch.set_xy(_hull_corners(X[y == label]))
        self.mark.set_offsets(X[index:index + 1])
        for name, point in zip(self.names, X):
            name.xy = tuple(point)
        self.banner.set_visible(sol is None)
        alpha = np.zeros(X.shape[0]) if sol is None else sol["alpha"]
        support = [] if sol is None else list(sol["support"])
        for line, level in zip(self.lines, (0.0, -1.0, 1.0)):
            if sol is None:
                line.set_data([], [])
            else:
                self._set_line(line, sol["w"], sol["b"], level)
        self.rings.set_offsets(X[support] if support else np.zeros((0, 2)))
        for i, bar in enumerate(self.bars):
            bar.set_height(min(alpha[i], self.alpha_max))
            edge = _HIGHLIGHT if i == index else ("black" if i in support else "none")
            bar.set_edgecolor(edge)
            bar.set_linewidth(1.6 if i == index else 0.8)
            self.clipped[i].set_text(f"{alpha[i]:.0f}" if alpha[i] > self.alpha_max else "")
        if sol is None:
            self.title.set_text("no solution: not separable")
        else:
            k = len(support)
            self.title.set_text(f"{k} support vector{'s' if k != 1 else ''} ($\\alpha_i > 0$)")


def moving_point_figure(X, y, index, xs, ys, goal=None, hulls=False, alpha_max=2.5,
                        rel=1e-6, title=None, figsize=(8.0, 3.5), dpi=80):
    """Move one point with two sliders and watch the multipliers and support vectors.

    Every grid position of the point is solved once, when the figure is
    built (a linear-programming test of separability, then the dual with
    :func:`svmlib.solvers.solve_dual_slsqp`), so moving the sliders only
    redraws.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    index : int
        The point that moves.
    xs, ys : sequence of float
        The grid of its first and second coordinate; its current position
        ``X[index]`` must be on the grid.  Keep ``len(xs) * len(ys) <= 60``.
    goal : {None, "become", "stop"}, default=None
        Widget exercise: make the point become, or stop being, a support
        vector (the classes must stay separable).
    hulls : bool, default=False
        Shade the convex hull of each class.
    alpha_max : float, default=2.5
        Fixed height of the bar chart; taller bars are clipped and labelled.
    rel : float, default=1e-6
        A multiplier counts as positive above ``rel * max(1, max alpha)``.
    title : str, optional
    figsize : (float, float), default=(8.0, 3.5)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
    """
    X = np.array(X, dtype=float)
    y = np.asarray(y, dtype=float).ravel()
    if X.ndim != 2 or X.shape[1] != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must have shape (n, 2) and y shape (n,); got X {X.shape} and "
                         f"y {y.shape}.")
    n = X.shape[0]
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < n:
        raise ValueError(f"index must be an integer from 0 to {n - 1}; got index={index!r}.")
    if goal not in (None, "become", "stop"):
        raise ValueError(f"goal must be None, 'become' or 'stop'; got goal={goal!r}.")
    xs = [round(float(v), 10) for v in xs]
    ys = [round(float(v), 10) for v in ys]
    start = tuple(X[index])
    if not any(np.isclose(start[0], xs)) or not any(np.isclose(start[1], ys)):
        raise ValueError(f"the point's position {start} must be on the grid (xs and ys); "
                         f"add its coordinates to the grids.")
    x0 = xs[int(np.argmin(np.abs(np.array(xs) - start[0])))]
    y0 = ys[int(np.argmin(np.abs(np.array(ys) - start[1])))]

    solutions = {}
    for px in xs:
        for py in ys:
            X_moved = X.copy()
            X_moved[index] = (px, py)
            solutions[(px, py)] = (X_moved, _solve(X_moved, y, rel))

    pad = 0.6
    every = np.vstack([X, [[min(xs), min(ys)], [max(xs), max(ys)]]])
    lo, hi = every.min(axis=0) - pad, every.max(axis=0) + pad
    alpha_max = float(alpha_max)

    def setup(fig):
        return _Panels(fig, X, y, index, lo, hi, alpha_max, hulls)

    def update(panels, x, y_coord):
        X_moved, sol = solutions[(x, y_coord)]
        panels.show(X_moved, sol)
        where = f"Point {index} at ({x:g}, {y_coord:g})"
        if sol is None:
            return (f"{where}: the classes are <b>not separable</b>, so the hard-margin "
                    f"problem has no solution (the dual is unbounded).")
        a = float(sol["alpha"][index])
        status = (f"a <b>support vector</b>, α<sub>{index}</sub> = {a:.2f}"
                  if index in sol["support"] else
                  f"<b>not</b> a support vector, α<sub>{index}</sub> = 0")
        margin = 1.0 / np.linalg.norm(sol["w"])
        listed = ", ".join(str(i) for i in sol["support"])
        return (f"{where}: {status}.<br>Support vectors: {listed}; "
                f"margin 1/‖w‖ = {margin:.2f}.")

    def is_support(x, y_coord):
        sol = solutions[(x, y_coord)][1]
        return sol is not None and index in sol["support"]

    def is_separable(x, y_coord):
        return solutions[(x, y_coord)][1] is not None

    goal_function = goal_text = None
    success = "Goal reached. Well done!"
    if goal is not None:
        text, success = (s.format(i=index) for s in _GOALS[goal])
        goal_text = text[0].upper() + text[1:]
        if goal == "become":
            goal_function = is_support
        else:
            def goal_function(x, y_coord):
                return is_separable(x, y_coord) and not is_support(x, y_coord)

    controls = {
        "x": Slider(xs, f"point {index}: x₁", value=x0, fmt="{:g}"),
        "y_coord": Slider(ys, f"point {index}: x₂", value=y0, fmt="{:g}"),
    }
    return InteractiveFigure(setup, update, controls, goal=goal_function, goal_text=goal_text,
                             success_message=success, figsize=figsize, dpi=dpi,
                             title=title or f"Move point {index}: multipliers and support vectors")
