"""Interactive figures of chapter 03, maximum-margin hyperplanes.

Three ready-made figures, each a function of the data that returns an
:class:`~svmlib.widgets.InteractiveFigure`:

* :func:`margin_explorer`: turn and shift a separating line and watch the
  margin of its closest point; as a widget exercise, reach the maximum
  margin by hand;
* :func:`support_vector_explorer`: move one training point towards the
  other class and watch the maximum-margin line stay put until the point
  reaches the band, then hand its support vectors over;
* :func:`logistic_margin`: L2-regularized logistic regression for a range
  of ``C``: its boundary, its band ``|h| <= 1`` and its margin.

Everything a frame needs is computed when the figure is built (one fit per
setting, not per redraw), so frames render fast.

Book: chapter ``ch-maximum-margin``.
"""

import warnings

import numpy as np

from .._validation import check_array, check_X_y
from ..plotting._core import CLASS_COLORS, plot_data
from ..plotting.maximum_margin import _band_polygon, _sigmoid
from ._core import InteractiveFigure, Slider

__all__ = ["margin_explorer", "support_vector_explorer", "logistic_margin"]

_LINE = dict(color="black", linewidth=1.8, zorder=3)
_DASHED = dict(color="black", linewidth=1.1, linestyle=(0, (5, 4)), zorder=3)
_BAND = dict(facecolor="#b0b0b0", alpha=0.18, edgecolor="none", zorder=1)
_RINGS = dict(s=130, facecolors="none", edgecolors="black", linewidths=1.4, zorder=5)


def _labels(X, y):
    X, y = check_X_y(X, y)
    y = np.asarray(y, dtype=float)
    if X.shape[1] != 2:
        raise ValueError(f"X must have 2 columns to be drawn in the plane; got shape {X.shape}.")
    if not np.all(np.isin(y, (-1.0, 1.0))) or not (np.any(y > 0) and np.any(y < 0)):
        raise ValueError(f"y must contain both labels -1 and +1 and nothing else; got "
                         f"{np.unique(y)[:5].tolist()}. Map the classes to -1/+1 first.")
    return X, y


def _segment(w, b, level, ax):
    """End points of the part of {x : <w, x> + b = level} inside the axes' view."""
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    w = np.asarray(w, dtype=float)
    points = []
    if abs(w[1]) > 1e-12:
        for x in (x0, x1):
            t = (level - b - w[0] * x) / w[1]
            if y0 - 1e-9 <= t <= y1 + 1e-9:
                points.append((x, t))
    if abs(w[0]) > 1e-12:
        for yy in (y0, y1):
            t = (level - b - w[1] * yy) / w[0]
            if x0 - 1e-9 <= t <= x1 + 1e-9:
                points.append((t, yy))
    if len(points) < 2:
        return [np.nan, np.nan], [np.nan, np.nan]
    points = np.array(points)
    far = np.argmax(((points[:, None, :] - points[None, :, :]) ** 2).sum(-1).ravel())
    i, j = divmod(int(far), points.shape[0])
    return [points[i, 0], points[j, 0]], [points[i, 1], points[j, 1]]


def _set_band(patch, w, b, level, ax):
    polygon = _band_polygon(np.asarray(w, dtype=float), float(b), level, ax)
    if polygon.shape[0] >= 3:
        patch.set_xy(polygon)
        patch.set_visible(True)
    else:
        patch.set_visible(False)


def _fixed_view(ax, X, pad=0.12):
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = hi - lo
    lo, hi = lo - pad * span, hi + pad * span
    centre, half = (lo + hi) / 2, (hi - lo) / 2
    ax.set_xlim(centre[0] - half[0], centre[0] + half[0])
    ax.set_ylim(centre[1] - half[1], centre[1] + half[1])
    ax.set_aspect("equal", adjustable="box")
    ax.set_autoscale_on(False)


def _hard_margin(X, y):
    """The maximum margin and (w, b), from svmlib's hard-margin SVC."""
    from ..svc import SVC

    model = SVC(kernel="linear", C=np.inf, tol=1e-6).fit(X, y)
    w, b = model.coef_.ravel(), float(model.intercept_[0])
    return float(np.min(y * (X @ w + b)) / np.linalg.norm(w)), w, b


# --------------------------------------------------------------- explorer

def margin_explorer(X, y, angles=tuple(range(0, 180, 5)),
                    offsets=(-0.3, -0.15, 0.0, 0.15, 0.3),
                    center=None, exercise=True, tolerance=0.03, angle=0, offset=None,
                    figsize=(5.0, 4.1), dpi=80):
    """Turn and shift a line and watch the margin of its closest point.

    The line has unit normal ``u = (cos θ, sin θ)`` and passes at signed
    distance ``t`` from a centre point ``c`` along ``u``:
    ``h(x) = <u, x - c> - t``.  The readout gives the geometric margin
    ``min_i y_i h(x_i)`` (``||u|| = 1``, so scores are distances) and whether
    the line separates the data.  The figure rings the closest point (and
    up to two more within 1% of it), draws their distances to the line, and
    (when the line separates) shades the empty band of half-width ``γ``
    around it.  Book: (eq-geometric-margin).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    angles : sequence of float, default=0, 5, ..., 175
        Angles θ of the normal, in degrees.
    offsets : sequence of float, default=(-0.3, -0.15, 0, 0.15, 0.3)
        Offsets ``t`` of the line from ``center`` (steps of 0.15: together with
        the angle a search in two dimensions).
    center : array-like of shape (2,), optional
        The point the offsets are measured from; default the mean of ``X``.
    exercise : bool, default=True
        Make it a widget exercise: the goal is met when the margin is within
        ``tolerance`` of the maximum margin (computed with svmlib's
        hard-margin SVC).  The goal does not state that maximum: the learner
        searches for it and the success message says when it is reached.
    tolerance : float, default=0.03
        Relative tolerance of the goal.
    angle, offset : float, optional
        The initial setting (default: the first angle, the middle offset).
    figsize : (float, float), default=(5.0, 4.1)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
    """
    X, y = _labels(X, y)
    c = X.mean(axis=0) if center is None else check_array(center, "center", ndim=1)
    angles = [float(a) for a in angles]
    offsets = [float(t) for t in offsets]
    if offset is None:
        offset = offsets[len(offsets) // 2]

    def line(theta, t):
        u = np.array([np.cos(np.deg2rad(theta)), np.sin(np.deg2rad(theta))])
        return u, -float(u @ c) - t

    def margin(theta, t):
        u, b = line(theta, t)
        return float(np.min(y * (X @ u + b)))

    best = _hard_margin(X, y)[0] if exercise else None

    def setup(fig):
        ax = fig.add_subplot()
        plot_data(X, y, ax=ax, legend=False, aspect="equal")
        _fixed_view(ax, X)
        from matplotlib.patches import Polygon
        band = ax.add_patch(Polygon(np.zeros((3, 2)), closed=True, **_BAND))
        (boundary,) = ax.plot([], [], **_LINE)
        edges = [ax.plot([], [], **_DASHED)[0] for _ in range(2)]
        segments = [ax.plot([], [], color="#d62728", linewidth=2.2, zorder=4.5,
                            solid_capstyle="round")[0] for _ in range(3)]
        rings = ax.scatter([], [], **_RINGS)
        arrow = ax.annotate("", xy=(0, 0), xytext=(0, 0), zorder=6,
                            arrowprops=dict(arrowstyle="-|>", color="black", linewidth=1.4,
                                            mutation_scale=13, shrinkA=0, shrinkB=0))
        ax.plot(*c, marker="+", color="#555555", markersize=9, zorder=2)
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$")
        return dict(ax=ax, band=band, boundary=boundary, edges=edges, segments=segments,
                    rings=rings, arrow=arrow)

    def update(state, angle, offset):
        ax = state["ax"]
        u, b = line(angle, offset)
        scores = y * (X @ u + b)
        gamma = float(scores.min())
        state["boundary"].set_data(*_segment(u, b, 0.0, ax))
        if gamma > 0:
            for edge, level in zip(state["edges"], (-gamma, gamma)):
                edge.set_data(*_segment(u, b, level, ax))
            _set_band(state["band"], u, b, gamma, ax)
        else:
            for edge in state["edges"]:
                edge.set_data([], [])
            state["band"].set_visible(False)
        # the closest point, and any point within 1% of it (near-ties show the balance)
        order = np.argsort(scores, kind="stable")
        ties = [i for i in order[:3] if scores[i] <= gamma + 0.01 * max(abs(gamma), 0.1)]
        for k, segment in enumerate(state["segments"]):
            if k < len(ties):
                i = ties[k]
                foot = X[i] - (X[i] @ u + b) * u
                segment.set_data([X[i, 0], foot[0]], [X[i, 1], foot[1]])
            else:
                segment.set_data([], [])
        state["rings"].set_offsets(X[ties])
        anchor = c + (offset) * u
        state["arrow"].xy = tuple(anchor + 0.9 * u)
        state["arrow"].set_position(tuple(anchor))
        wrong = int(np.sum(scores <= 0))
        if gamma > 0:
            verdict = "separates: <b>yes</b>"
        else:
            verdict = (f"separates: <b>no</b> ({wrong} point{'s' if wrong != 1 else ''} on the "
                       f"wrong side or on the line)")
        return (f"θ = {angle:.0f}°, offset t = {offset + 0.0:.2f} · margin of the closest point "
                f"γ = <b>{gamma + 0.0:.3f}</b> · {verdict}")

    goal = goal_text = None
    if exercise:
        def goal(angle, offset):
            return margin(angle, offset) >= (1.0 - tolerance) * best

        goal_text = (f"turn and shift the line until no other line keeps its closest point "
                     f"farther away (within {100 * tolerance:.0f}%). The readout shows your "
                     f"margin, not the largest one: decide from the picture when the competing "
                     f"closest points balance, and the success message will confirm it.")
    return InteractiveFigure(
        setup, update,
        controls={"angle": Slider(angles, "angle θ of w", value=float(angle), fmt="{:.0f}°"),
                  "offset": Slider(offsets, "offset t", value=float(offset), fmt="{:+.2f}")},
        goal=goal, goal_text=goal_text,
        success_message="This is the maximum-margin line (up to the grid): no turn or shift "
                        "moves it farther from the closest points.",
        figsize=figsize, dpi=dpi, title="Turn and shift a separator")


# ------------------------------------------------------- support vector explorer

def support_vector_explorer(X, y, index, offsets=None, exercise=True, figsize=(5.0, 4.3),
                            dpi=80, title="Move one point, watch the support vectors"):
    """Move one point towards the other class; watch the maximum-margin line.

    The point ``x_k`` (``k = index``) moves in a straight line along the
    normal of the maximum-margin hyperplane of the unmoved data, towards the
    other class, and the hard-margin SVM is solved again at every position
    (:func:`svmlib.paths.drag_path` with ``C = inf``).  The figure shows the
    refitted line, its margin planes and empty band, the support vectors
    (ringed), the line of the unmoved data (thin, dotted) and the track of
    the point.  The readout lists the support vectors and says which joined
    or left since the start, and gives the margin and the direction of the
    line.  While the point stays outside the band nothing changes: the
    solution depends on the support vectors alone.  Book:
    (eq-primal-hard), (def-maximum-margin).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}, linearly separable.
    index : int
        Row of the point that moves.
    offsets : sequence of float, optional
        Distances moved, in the units of ``X``; default 0 to 1.7 in steps of
        0.1.  Every position must leave the data separable.
    exercise : bool, default=True
        Widget exercise: find the first position at which none of the
        starting support vectors is a support vector any more.
    figsize : (float, float), default=(5.0, 4.3)
    dpi : int, default=80
    title : str

    Returns
    -------
    InteractiveFigure
    """
    from ..paths import drag_path

    X, y = _labels(X, y)
    if offsets is None:
        offsets = [round(0.1 * i, 1) for i in range(18)]
    offsets = [float(t) for t in offsets]
    path = drag_path(X, y, index, offsets, C=np.inf, tol=1e-8)
    k = int(index)
    fits = dict(zip(offsets, path))
    start = path[0]
    first = set(start["support"].tolist())
    positions = np.array([p["x"] for p in path])
    view = np.vstack([X, positions])
    others = np.arange(len(y)) != k
    replaced = [p["offset"] for p in path if not first & set(p["support"].tolist())]
    target = replaced[0] if replaced else None

    def setup(fig):
        ax = fig.add_subplot()
        plot_data(X[others], y[others], ax=ax, legend=False, aspect="equal")
        _fixed_view(ax, view)
        from matplotlib.patches import Polygon
        band = ax.add_patch(Polygon(np.zeros((3, 2)), closed=True, **_BAND))
        ax.plot(*np.array(_segment(start["w"], start["b"], 0.0, ax)), color="#555555",
                linewidth=1.0, linestyle=(0, (1, 2)), zorder=2)
        ax.plot(positions[:, 0], positions[:, 1], color="#333333", linewidth=1.0, alpha=0.6,
                zorder=2)
        (boundary,) = ax.plot([], [], **_LINE)
        edges = [ax.plot([], [], **_DASHED)[0] for _ in range(2)]
        rings = ax.scatter([], [], **_RINGS)
        from ..plotting._core import CLASS_MARKERS
        moved = ax.scatter([X[k, 0]], [X[k, 1]], s=70, marker=CLASS_MARKERS[int(y[k])],
                           color=CLASS_COLORS[int(y[k])], edgecolors="black", linewidths=1.8,
                           zorder=6)
        # row numbers of every point that is a support vector somewhere on the path
        involved = sorted(set().union(*(p["support"].tolist() for p in path)) - {k})
        for i in involved:
            ax.annotate(str(i), X[i], xytext=(6, 5), textcoords="offset points", fontsize=8,
                        color="#333333", zorder=7,
                        bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.8))
        label = ax.annotate(str(k), X[k], xytext=(7, 5), textcoords="offset points",
                            fontsize=9, fontweight="bold", zorder=7)
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$")
        return dict(ax=ax, band=band, boundary=boundary, edges=edges, rings=rings, moved=moved,
                    label=label)

    def update(state, offset):
        ax = state["ax"]
        fit = fits[offset]
        w, b = fit["w"], fit["b"]
        Xt = X.copy()
        Xt[k] = fit["x"]
        state["boundary"].set_data(*_segment(w, b, 0.0, ax))
        for edge, level in zip(state["edges"], (-1.0, 1.0)):
            edge.set_data(*_segment(w, b, level, ax))
        _set_band(state["band"], w, b, 1.0, ax)
        support = fit["support"].tolist()
        state["rings"].set_offsets(Xt[support])
        state["moved"].set_offsets([fit["x"]])
        state["label"].xy = tuple(fit["x"])
        joined = [i for i in support if i not in first]
        left = sorted(first - set(support))
        if not joined and not left:
            change = "the same as at the start: the line has not moved"
        else:
            parts = []
            if joined:
                parts.append("joined: " + ", ".join(map(str, joined)))
            if left:
                parts.append("left: " + ", ".join(map(str, left)))
            change = "; ".join(parts)
        role = "a support vector" if k in support else "not a support vector"
        return (f"Point {k} moved by {offset:.1f} ({role}). Support vectors: rows "
                f"{', '.join(map(str, support))} ({change}).<br>"
                f"Margin γ = 1/‖w‖ = {fit['margin_width'] / 2:.3f}, normal at "
                f"{fit['angle']:.1f}° (start: γ = {start['margin_width'] / 2:.3f}, "
                f"{start['angle']:.1f}°).")

    goal = goal_text = success = None
    if exercise and target is not None:
        def goal(offset):
            return offset == target

        names = ", ".join(map(str, sorted(first)))
        goal_text = (f"move point {k} until none of the starting support vectors (rows {names}) "
                     f"is a support vector any more. Before that, notice where the line first "
                     f"moves.")
        success = (f"From {target:.1f} on, the three points that held the line at the start have "
                   f"all handed over: the maximum-margin line depends on its support vectors "
                   f"alone, whichever points they are.")
    return InteractiveFigure(
        setup, update,
        controls={"offset": Slider(offsets, f"distance point {k} moved", value=offsets[0],
                                   fmt="{:.1f}")},
        goal=goal, goal_text=goal_text,
        success_message=success if success else "Goal reached.",
        figsize=figsize, dpi=dpi, title=title)

# ------------------------------------------------------------- logistic regression

def logistic_margin(X, y, Cs=(1e-3, 1e-2, 1e-1, 1.0, 10.0, 1e2, 1e3, 1e4), value=None,
                    figsize=(7.6, 3.5), dpi=72):
    """L2-regularized logistic regression over a grid of ``C``, with its band.

    For each ``C`` the left panel shows the boundary ``h(x) = 0`` of
    ``sklearn.linear_model.LogisticRegression(C=C)``, the band
    ``|h(x)| <= 1`` (width ``2/||w||``), the points inside the band (ringed)
    and, for reference, the maximum-margin boundary (grey, dash-dotted); the
    right panel shows the fitted probabilities ``σ(h(x))`` against the signed
    distance, steeper for larger ``||w||``.  The readout compares the margin
    of the logistic boundary with the maximum margin.  Book: (eq-logistic-l2).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    Cs : sequence of float
        Inverse regularization strengths (larger ``C``, weaker penalty).
    value : float, optional
        The initial ``C`` (default the first).
    figsize : (float, float), default=(7.6, 3.5)
    dpi : int, default=72

    Returns
    -------
    InteractiveFigure
    """
    from sklearn.linear_model import LogisticRegression

    X, y = _labels(X, y)
    Cs = [float(C) for C in Cs]
    fits = {}
    for C in Cs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = LogisticRegression(C=C, tol=1e-10, max_iter=10_000).fit(X, y)
        fits[C] = (model.coef_.ravel().copy(), float(model.intercept_[0]))
    best, w_svm, b_svm = _hard_margin(X, y)

    span = 1.05 * max(float(np.max(np.abs(X @ w + b))) / float(np.linalg.norm(w))
                      for w, b in fits.values())
    grid = np.linspace(-span, span, 300)

    def setup(fig):
        ax, right = fig.subplots(1, 2, gridspec_kw=dict(width_ratios=[1.1, 1]))
        plot_data(X, y, ax=ax, legend=False, aspect="equal")
        _fixed_view(ax, X)
        from matplotlib.patches import Polygon
        band = ax.add_patch(Polygon(np.zeros((3, 2)), closed=True, **_BAND))
        ax.plot(*_segment(w_svm, b_svm, 0.0, ax), color="#8a8a8a", linewidth=1.2,
                linestyle="-.", zorder=2.5, label="SVM")
        (boundary,) = ax.plot([], [], label="logistic", **_LINE)
        edges = [ax.plot([], [], **_DASHED)[0] for _ in range(2)]
        rings = ax.scatter([], [], s=90, facecolors="none", edgecolors="#555555",
                           linewidths=1.0, zorder=5, label="in the band")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=3, fontsize=7,
                  borderaxespad=0.0, handlelength=1.5, columnspacing=0.8)
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$")
        (curve,) = right.plot([], [], color="black", linewidth=1.6, zorder=3)
        dots = {lab: right.scatter([], [], s=18, color=CLASS_COLORS[lab],
                                   marker="o" if lab < 0 else "s", edgecolors="white",
                                   linewidths=0.5, zorder=4) for lab in (-1, 1)}
        verticals = [right.axvline(0.0, color="black", linestyle=":", linewidth=1.0)
                     for _ in range(2)]
        right.axvline(0.0, color="#888888", linewidth=0.8)
        right.set_xlim(-span, span)
        right.set_ylim(-0.04, 1.04)
        right.set_xlabel("signed distance $h(\\mathbf{x})/\\|\\mathbf{w}\\|$")
        right.set_ylabel("$\\sigma(h(\\mathbf{x}))$")
        right.spines["top"].set_visible(False)
        right.spines["right"].set_visible(False)
        return dict(ax=ax, band=band, boundary=boundary, edges=edges, rings=rings,
                    curve=curve, dots=dots, verticals=verticals)

    def update(state, C):
        ax = state["ax"]
        w, b = fits[C]
        state["boundary"].set_data(*_segment(w, b, 0.0, ax))
        for edge, level in zip(state["edges"], (-1.0, 1.0)):
            edge.set_data(*_segment(w, b, level, ax))
        _set_band(state["band"], w, b, 1.0, ax)
        inside = np.abs(X @ w + b) < 1.0
        state["rings"].set_offsets(X[inside] if inside.any() else np.empty((0, 2)))
        norm = float(np.linalg.norm(w))
        r = (X @ w + b) / norm
        state["curve"].set_data(grid, _sigmoid(norm * grid))
        for lab, dots in state["dots"].items():
            dots.set_offsets(np.column_stack([r[y == lab], _sigmoid(norm * r[y == lab])]))
        for line, level in zip(state["verticals"], (-1.0, 1.0)):
            x = level / norm if abs(level / norm) <= span else np.nan
            line.set_xdata([x, x])
        gamma = float(np.min(y * (X @ w + b)) / norm)
        return (f"C = {C:g}: ‖w‖ = {norm:.3f} · band width 2/‖w‖ = {2 / norm:.2f} · "
                f"points inside the band: {int(inside.sum())} · margin of the closest point "
                f"γ = <b>{gamma + 0.0:.3f}</b> (maximum margin {best:.3f})")

    return InteractiveFigure(
        setup, update,
        controls={"C": Slider(Cs, "C (weaker penalty →)", value=Cs[0] if value is None else value,
                              fmt="{:g}")},
        figsize=figsize, dpi=dpi, title="Logistic regression: regularization and the margin")
