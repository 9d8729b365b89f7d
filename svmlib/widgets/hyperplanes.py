"""Interactive figures of the hyperplanes chapter (``ch-hyperplanes``).

* :func:`separator_explorer`: a line set by the angle of its unit normal and
  its offset, over a labelled data set; shows the normal, each point's
  signed distance and the misclassified points.  The widget exercise: find
  a separating hyperplane (Book: (eq-separating)).
* :func:`scale_explorer`: scale ``(w, b)`` by a factor: the line and the
  signed distances stay, the scores and the levels ``h = +-1`` move (the
  canonical scale of chapter 03 is one choice of the factor).

Both return a ready :class:`~svmlib.widgets.InteractiveFigure`.
"""

import numpy as np
from matplotlib.artist import Artist
from matplotlib.patches import FancyArrowPatch, Polygon
from matplotlib.text import Text
from matplotlib.transforms import Bbox, IdentityTransform

from .._validation import check_array, check_X_y
from ..hyperplane import Hyperplane
from ..plotting._core import plot_data
from ..plotting.hyperplanes import SIDE_COLORS
from ._core import InteractiveFigure, Slider

__all__ = ["separator_explorer", "scale_explorer", "halfplane_polygon"]

_WRONG = "#d62728"
_ACCENT = "#2ca02c"


def halfplane_polygon(w, b, xlim, ylim):
    """The part of the box ``xlim x ylim`` where ``<w, x> + b >= 0``.

    Clips the rectangle by the half-plane (one step of Sutherland-Hodgman).

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
    xlim, ylim : (float, float)

    Returns
    -------
    ndarray of shape (k, 2)
        The corners of the clipped polygon in order (``k = 0`` when the
        half-plane misses the box).
    """
    w = np.asarray(w, dtype=float)
    corners = np.array([[xlim[0], ylim[0]], [xlim[1], ylim[0]],
                        [xlim[1], ylim[1]], [xlim[0], ylim[1]]])
    h = corners @ w + b
    out = []
    for i in range(4):
        j = (i + 1) % 4
        if h[i] >= 0:
            out.append(corners[i])
        if (h[i] >= 0) != (h[j] >= 0):
            t = h[i] / (h[i] - h[j])
            out.append(corners[i] + t * (corners[j] - corners[i]))
    return np.array(out).reshape(-1, 2)


def _segment_in_box(w, b, xlim, ylim):
    """End points of the line ``<w, x> + b = 0`` inside the box (or None)."""
    pts = []
    for x in xlim:
        if w[1] != 0:
            y = -(w[0] * x + b) / w[1]
            if ylim[0] - 1e-12 <= y <= ylim[1] + 1e-12:
                pts.append((x, y))
    for y in ylim:
        if w[0] != 0:
            x = -(w[1] * y + b) / w[0]
            if xlim[0] - 1e-12 <= x <= xlim[1] + 1e-12:
                pts.append((x, y))
    if len(pts) < 2:
        return None
    pts = np.array(pts)
    d = pts[:, None, :] - pts[None, :, :]
    i, j = np.unravel_index(np.argmax((d ** 2).sum(-1)), (len(pts), len(pts)))
    return pts[[i, j]]


def _fmt(v, digits=2):
    """A number for a readout: rounded, no negative zero, a real minus sign."""
    text = f"{round(float(v), digits) + 0.0:.{digits}f}"
    return text.replace("-", "\u2212")


def _vec(v, digits=2):
    return "(" + ", ".join(_fmt(x, digits) for x in v) + ")"


#: Area (points squared) of the cross over a misclassified point.
_CROSS_SIZE = 260


class _PointLabels(Artist):
    """A short label beside each of a set of points, placed where it overlaps
    no other label and no other point.

    Placement happens when the figure is drawn: only then are the font size
    (the phone layout enlarges small text) and the Axes' final scale known.
    Each label tries the four corners around its point (upper right first),
    then its four sides, and takes the first place that is free, or else the
    one with the least overlap.
    Each point occupies a square of its marker's size (``scatter``'s ``s``,
    in points squared, set per point by :meth:`set_labels`, so that a mark
    drawn over a point can be kept clear too); ``obstacles`` are further
    marks to keep clear, as ``(x, y, s)`` in data coordinates.
    """

    #: Places as (horizontal sign, vertical sign), in the order they are tried:
    #: the four corners, then right, left, above and below the point.
    CORNERS = ((1, 1), (-1, 1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1))
    #: An overlap with another label, or with what lies outside the Axes,
    #: costs this many times one with a mark: two numbers printed over each
    #: other cannot be read at all.
    LABEL_WEIGHT = 4.0

    def __init__(self, points, fontsize=7, zorder=8, marker_size=36, obstacles=()):
        super().__init__()
        self.points = np.asarray(points, dtype=float)
        self.texts = [Text(0, 0, "", fontsize=fontsize, transform=IdentityTransform())
                      for _ in self.points]
        self.set_zorder(zorder)
        self.sizes = np.full(len(self.points), float(marker_size))
        self.obstacles = [tuple(map(float, o)) for o in obstacles]

    def set_labels(self, strings, colors, sizes=None):
        for text, string, color in zip(self.texts, strings, colors):
            text.set_text(string)
            text.set_color(color)
        if sizes is not None:
            self.sizes = np.asarray(sizes, dtype=float)
        self.stale = True

    def get_children(self):
        return list(self.texts)

    def set_figure(self, figure):
        super().set_figure(figure)
        for text in self.texts:
            text.set_figure(figure)

    @staticmethod
    def _put(text, x, y, sx, sy, gap):
        """Put ``text`` on side (sx, sy) of the point (x, y) (pixels), ``gap`` away."""
        text.set_horizontalalignment({1: "left", 0: "center", -1: "right"}[sx])
        text.set_verticalalignment({1: "bottom", 0: "center", -1: "top"}[sy])
        # beside the point (sy = 0) the label must clear the whole mark, not a corner of it
        text.set_position((x + sx * (gap if sy else 1.6 * gap), y + sy * gap))

    @staticmethod
    def _overlap(box, others):
        area = 0.0
        for other in others:
            w = min(box.x1, other.x1) - max(box.x0, other.x0)
            h = min(box.y1, other.y1) - max(box.y0, other.y0)
            if w > 0 and h > 0:
                area += w * h
        return area

    def draw(self, renderer):
        if not self.get_visible():
            return
        to_pixels = self.axes.transData.transform
        centres = to_pixels(self.points)
        # each mark's half width in pixels (s is its area in points squared)
        radii = 0.5 * np.sqrt(self.sizes) * renderer.points_to_pixels(1.0)
        markers = [Bbox.from_extents(x - r, y - r, x + r, y + r)
                   for (x, y), r in zip(centres, radii)]
        for ox, oy, size in self.obstacles:
            (x, y), = to_pixels([(ox, oy)])
            r = 0.5 * np.sqrt(size) * renderer.points_to_pixels(1.0)
            markers.append(Bbox.from_extents(x - r, y - r, x + r, y + r))
        frame = self.axes.bbox   # a label outside the Axes may be cut off or hit a tick
        placed = []
        for k, (text, (x, y)) in enumerate(zip(self.texts, centres)):
            if not text.get_text():
                continue
            gap = radii[k]   # from the centre: clear of a round mark, and of a cross's arms
            marks = markers[:k] + markers[k + 1:]
            best = None
            for sx, sy in self.CORNERS:
                self._put(text, x, y, sx, sy, gap)
                box = text.get_window_extent(renderer)
                outside = box.width * box.height - self._overlap(box, [frame])
                cost = (self.LABEL_WEIGHT * (self._overlap(box, placed) + outside)
                        + self._overlap(box, marks))
                if best is None or cost < best[0]:
                    best = (cost, sx, sy, box)
                if cost == 0:
                    break
            _, sx, sy, box = best
            self._put(text, x, y, sx, sy, gap)
            placed.append(box)
            text.draw(renderer)
        self.stale = False


# ------------------------------------------------------- the separator game

def separator_explorer(X, y, angles=tuple(range(0, 360, 30)), offsets=(-1.0, -0.5, 0.0, 0.5, 1.0),
                       angle=120, offset=0.5, figsize=(5.6, 4.0), dpi=80, annotate=True):
    """A line ``<n, x> = t`` over labelled data, ``n = (cos θ, sin θ)``.

    The hyperplane has ``w = n`` (a unit vector) and ``b = -t`` (the letter
    chapter 03 uses for an offset), so its score
    is the signed distance itself.  The figure tints the positive side
    orange and the negative side blue, draws ``n`` as an arrow, writes each
    point's signed distance next to it, and crosses out the misclassified
    points (``y_i h(x_i) <= 0``).  The readout gives ``w``, ``b``, the number
    of mistakes and ``min_i y_i r(x_i)``; the goal is met by every
    separating setting.  Book: (eq-signed-distance), (eq-separating).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    angles : sequence of float, default=0, 30, ..., 330
        Grid of the angle θ of the normal, in degrees.  A full turn is
        needed: θ and θ + 180° give the same line with the sides swapped.
    offsets : sequence of float, default=(-1, -0.5, 0, 0.5, 1)
        Grid of the offset ``c`` (the signed distance of the line from the
        origin along ``n``).
    angle, offset : float
        Initial values (on the grids).
    figsize : (float, float), default=(5.6, 4.2)
    dpi : int, default=80
    annotate : bool, default=True
        Write the signed distance next to every point.

    Returns
    -------
    InteractiveFigure
        Controls ``angle`` and ``offset``; ``goal`` is "no point is
        misclassified".
    """
    X, y = check_X_y(X, y)
    if X.shape[1] != 2:
        raise ValueError(f"X must have 2 columns to be drawn; got shape {X.shape}.")
    y = np.asarray(y, dtype=float)
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"y must contain only -1 and +1; got {np.unique(y).tolist()!r}. Map "
                         f"your classes to -1/+1 first.")
    n = X.shape[0]
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = 0.15 * (hi - lo) + 0.3
    xlim, ylim = (lo[0] - pad[0], hi[0] + pad[0]), (lo[1] - pad[1], hi[1] + pad[1])
    angles, offsets = list(angles), list(offsets)

    # Everything a frame shows, computed once per setting.
    table = {}
    for th in angles:
        for c in offsets:
            t = np.deg2rad(th)
            H = Hyperplane([np.cos(t), np.sin(t)], -c)
            r = H.signed_distance(X)
            table[(th, c)] = (H, r, y * r <= 0)

    def setup(fig):
        ax = fig.add_subplot()
        negative = ax.add_patch(Polygon(np.zeros((3, 2)), closed=True, color=SIDE_COLORS[-1],
                                        lw=0, zorder=0))
        positive = ax.add_patch(Polygon(np.zeros((3, 2)), closed=True, color=SIDE_COLORS[1],
                                        lw=0, zorder=0))
        plot_data(X, y, ax=ax, legend=True, aspect="equal")
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        (line,) = ax.plot([], [], color="black", linewidth=1.8, zorder=3)
        arrow = ax.add_patch(FancyArrowPatch((0, 0), (1, 0), arrowstyle="-|>", color="black",
                                             linewidth=1.5, mutation_scale=13, zorder=6))
        # drawn under the data markers (zorder 4), larger than them: the red arms show
        # that a point is misclassified, and its own marker still shows its class
        wrong = ax.scatter([], [], marker="x", s=_CROSS_SIZE, color=_WRONG, linewidths=2.4, zorder=3.5,
                           label="misclassified")
        labels = (ax.add_artist(_PointLabels(X, fontsize=7, zorder=8, marker_size=36,
                                             obstacles=[(0.0, 0.0, 40)]))
                  if annotate else None)
        origin = ax.scatter([0], [0], marker="+", color="#555555", s=40, zorder=2)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, handletextpad=0.2,
                  borderaxespad=0.0)
        return dict(ax=ax, negative=negative, positive=positive, line=line, arrow=arrow,
                    wrong=wrong, labels=labels, origin=origin)

    def update(state, angle, offset):
        H, r, mistakes = table[(angle, offset)]
        w, b = H.w, H.b
        for key, sign in (("positive", 1), ("negative", -1)):
            corners = halfplane_polygon(sign * w, sign * b, xlim, ylim)
            state[key].set_xy(corners if len(corners) >= 3 else np.zeros((3, 2)))
        seg = _segment_in_box(w, b, xlim, ylim)
        if seg is None:
            state["line"].set_data([], [])
            start = np.array([np.mean(xlim), np.mean(ylim)])
        else:
            state["line"].set_data(seg[:, 0], seg[:, 1])
            start = seg.mean(axis=0)
        state["arrow"].set_positions(tuple(start), tuple(start + 1.0 * w))
        state["wrong"].set_offsets(X[mistakes] if mistakes.any() else np.empty((0, 2)))
        if state["labels"] is not None:
            state["labels"].set_labels([_fmt(value) for value in r],
                                       [_WRONG if bad else "#333333" for bad in mistakes],
                                       sizes=np.where(mistakes, _CROSS_SIZE, 36))
        k = int(mistakes.sum())
        margin = float(np.min(y * r))
        return (f"θ = {angle:g}°, t = {_fmt(offset, 1)}: w = {_vec(w)}, b = {_fmt(b)}"
                f"<br>misclassified: <b>{k}</b> of {n} &nbsp;·&nbsp; "
                f"smallest yᵢ r(xᵢ) = {_fmt(margin)}")

    def goal(angle, offset):
        return not table[(angle, offset)][2].any()

    return InteractiveFigure(
        setup, update,
        controls={"angle": Slider(angles, label="angle θ of the normal", value=angle,
                                  fmt="{:g}°"),
                  "offset": Slider(offsets, label="offset t", value=offset, fmt="{:+g}")},
        goal=goal,
        goal_text="move the line until no point is misclassified: every orange square on "
                  "the orange side, every blue circle on the blue side.",
        success_message="This hyperplane separates the data: yᵢ h(xᵢ) &gt; 0 for every point.",
        figsize=figsize, dpi=dpi, title="Find a separating hyperplane")


# ------------------------------------------------------ projection explorer

def _equation(w, b):
    """``3 x₁ + 4 x₂ − 12 = 0`` for w = (3, 4), b = -12."""
    terms = [(w[0], "x₁"), (w[1], "x₂"), (b, "")]
    text = ""
    for value, name in terms:
        if value == 0:
            continue
        number = f"{abs(value):g}"
        if name and number == "1":
            number = ""
        body = f"{number} {name}".strip()
        if not text:
            text = ("−" if value < 0 else "") + body
        else:
            text += (" − " if value < 0 else " + ") + body
    return text + " = 0"


# ------------------------------------------------------ the freedom of scale

def _clip(polygon, w, b):
    """The part of a convex polygon where ``<w, x> + b >= 0`` (Sutherland-Hodgman)."""
    polygon = np.asarray(polygon, dtype=float).reshape(-1, 2)
    if len(polygon) == 0:
        return polygon
    h = polygon @ w + b
    out = []
    for i in range(len(polygon)):
        j = (i + 1) % len(polygon)
        if h[i] >= 0:
            out.append(polygon[i])
        if (h[i] >= 0) != (h[j] >= 0):
            t = h[i] / (h[i] - h[j])
            out.append(polygon[i] + t * (polygon[j] - polygon[i]))
    return np.array(out).reshape(-1, 2)


def scale_explorer(w, b, points, scales=(-1.0, -0.5, -0.2, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4,
                                         0.5, 0.75, 1.0, 1.5, 2.0), scale=1.0,
                   levels=(-3, -2, -1, 1, 2, 3), figsize=(5.6, 4.4), dpi=80):
    """The freedom of scale: ``(λ w, λ b)`` for a slider of ``λ``.

    Every scaled pair describes the same line ``H``; what changes is the
    score.  The figure shows ``H`` (solid, it never moves), the level sets
    ``h = ±1`` (dashed, with the band between them shaded) and fainter
    levels ``h = k``, the vector ``λ w`` drawn to scale from the point of
    ``H`` closest to the origin, the two sides tinted (orange where
    ``h > 0``), and each of ``points`` labelled with its score ``h``.  The
    readout gives ``λ w``, ``λ b``, ``‖λ w‖``, the distance ``1/‖λ w‖`` of
    the levels ``h = ±1`` from ``H``, and the scores and signed distances of
    the points: the scores scale with ``λ``, the signed distances do not
    (they change sign when ``λ < 0``; the readout does not say so, since the
    chapter asks the learner to predict it).
    Book: (eq-score-along-normal), (eq-signed-distance).

    The goal (a preview of the canonical hyperplane of the maximum-margin
    chapter): keep the orientation (``λ > 0``) and scale so that the point
    of ``points`` closest to ``H`` lies on a level ``h = ±1``.

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
    points : array-like of shape (n_points, 2)
        Points to label with their scores (a few; none on ``H``).
    scales : sequence of float, default=(-1, -0.5, -0.2, 0.05, 0.1, ..., 1.5, 2)
        The grid of ``λ`` (nonzero; one frame each).
    scale : float, default=1.0
        The initial ``λ`` (on the grid).
    levels : sequence of int, default=(-3, -2, -1, 1, 2, 3)
        The level sets ``h = k`` drawn besides ``H``.
    figsize : (float, float), default=(5.6, 4.4)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
        Control ``scale``; ``goal`` is "the closest point has ``|h| = 1``
        and ``λ > 0``".
    """
    H = Hyperplane(w, b)
    w, b = H.w, H.b
    if H.n_features != 2:
        raise ValueError(f"w must have 2 entries (a line in the plane); got {w.tolist()!r}.")
    P = check_array(points, "points", ndim=2)
    if P.shape[1] != 2:
        raise ValueError(f"points must have 2 columns; got shape {P.shape}.")
    scales = check_array(list(scales), "scales", ndim=1).tolist()
    if any(s == 0 for s in scales):
        raise ValueError(f"scales must be nonzero (λ = 0 gives w = 0, which is no hyperplane); "
                         f"got {scales!r}. Drop the 0.")
    h0 = H.decision_function(P)
    if np.any(np.isclose(h0, 0.0)):
        raise ValueError("a point of `points` lies on H, where every scale gives h = 0; "
                         "choose points off the line.")
    r0 = H.signed_distance(P)
    nearest = int(np.argmin(np.abs(h0)))
    foot = H.point()                                    # pi(0), the anchor of the arrow
    tips = np.array([foot + s * w for s in scales])
    allx = np.vstack([P, tips, foot[None, :], [[0.0, 0.0]]])
    lo, hi = allx.min(axis=0) - 0.8, allx.max(axis=0) + 0.8
    xlim, ylim = (lo[0], hi[0]), (lo[1], hi[1])
    box = np.array([[xlim[0], ylim[0]], [xlim[1], ylim[0]], [xlim[1], ylim[1]],
                    [xlim[0], ylim[1]]])
    levels = [int(k) for k in levels if k != 0]

    def setup(fig):
        ax = fig.add_subplot()
        positive = ax.add_patch(Polygon(np.zeros((3, 2)), closed=True, color=SIDE_COLORS[1],
                                        lw=0, zorder=0))
        negative = ax.add_patch(Polygon(np.zeros((3, 2)), closed=True, color=SIDE_COLORS[-1],
                                        lw=0, zorder=0))
        band = ax.add_patch(Polygon(np.zeros((3, 2)), closed=True, color="#bbbbbb", alpha=0.45,
                                    lw=0, zorder=1))
        seg = _segment_in_box(w, b, xlim, ylim)
        ax.plot(seg[:, 0], seg[:, 1], color="black", linewidth=2.0, zorder=4, label="H: h = 0")
        lines, tags = {}, {}
        for k in levels:
            style = dict(color="#333333", linewidth=1.2, linestyle=(0, (5, 3)), zorder=3) \
                if abs(k) == 1 else dict(color="#777777", linewidth=0.7,
                                         linestyle=(0, (1, 2)), zorder=3)
            (lines[k],) = ax.plot([], [], **style)
            tags[k] = ax.text(0, 0, f"h = {k:+d}".replace("-", "\u2212"), fontsize=7.5,
                              ha="center", va="center", zorder=6,
                              bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none",
                                        alpha=0.85))
        arrow = ax.add_patch(FancyArrowPatch((0, 0), (1, 0), arrowstyle="-|>", color=_ACCENT,
                                             linewidth=1.8, mutation_scale=13, zorder=7))
        arrow_label = ax.text(0, 0, "$\\lambda\\mathbf{w}$", color=_ACCENT, fontsize=10,
                              zorder=8, ha="left", va="bottom")
        ax.scatter(P[:, 0], P[:, 1], color="black", s=30, zorder=8)
        scores = [ax.text(px + 0.16, py - 0.16, "", fontsize=8, zorder=9, ha="left", va="top",
                          bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none",
                                    alpha=0.85))
                  for px, py in P]
        ax.scatter([0], [0], marker="+", color="#555555", s=40, zorder=2)
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        ax.set_aspect("equal")
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$")
        title = ax.set_title("", fontsize=9)
        return dict(positive=positive, negative=negative, band=band, lines=lines, tags=tags,
                    arrow=arrow, arrow_label=arrow_label, scores=scores, title=title)

    def update(state, scale):
        lw, lb = scale * w, scale * b
        for key, sign in (("positive", 1), ("negative", -1)):
            corners = halfplane_polygon(sign * lw, sign * lb, xlim, ylim)
            state[key].set_xy(corners if len(corners) >= 3 else np.zeros((3, 2)))
        band = _clip(_clip(box, lw, lb + 1.0), -lw, -lb + 1.0)   # -1 <= h <= 1
        state["band"].set_xy(band if len(band) >= 3 else np.zeros((3, 2)))
        for k in levels:
            seg = _segment_in_box(lw, lb - k, xlim, ylim)
            if seg is None:
                state["lines"][k].set_data([], [])
                state["tags"][k].set_visible(False)
                continue
            state["lines"][k].set_data(seg[:, 0], seg[:, 1])
            # positive levels are labelled at their left end, negative ones at their
            # right end, so that the labels of h = +1 and h = -1 never collide
            key = seg[:, 0] + 1e-3 * seg[:, 1]
            end = seg[np.argmin(key)] if k > 0 else seg[np.argmax(key)]
            inward = np.array([np.mean(xlim), np.mean(ylim)]) - end
            spot = end + 0.55 * inward / np.linalg.norm(inward)
            spot = spot - (spot @ lw + lb - k) / (lw @ lw) * lw   # back onto its line
            state["tags"][k].set_position(tuple(spot))
            spacing = 1.0 / np.linalg.norm(lw)
            state["tags"][k].set_visible(abs(k) == 1 or spacing > 0.45)
        state["arrow"].set_positions(tuple(foot), tuple(foot + lw))
        state["arrow_label"].set_position(tuple(foot + lw + np.array([0.08, 0.0])))
        hs = scale * h0
        for text, value in zip(state["scores"], hs):
            text.set_text(f"h = {_fmt(value)}")
        norm = abs(scale) * H.norm
        state["title"].set_text(f"λ = {_fmt(scale, 2)}: ‖λw‖ = {_fmt(norm)}, "
                                f"levels 1/‖λw‖ = {_fmt(1 / norm)} apart")
        rs = np.sign(scale) * r0
        pts = ", ".join(_vec(p, 0) for p in P)
        text = (f"λ = {_fmt(scale, 2)}: λw = {_vec(lw)}, λb = {_fmt(lb)}, ‖λw‖ = {_fmt(norm)}; "
                f"the levels h = ±1 lie <b>{_fmt(1 / norm)}</b> from H"
                f"<br>at {pts}: h = {', '.join(_fmt(v) for v in hs)}; "
                f"signed distance r = {', '.join(_fmt(v) for v in rs)}")
        return text

    def goal(scale):
        return scale > 0 and bool(np.isclose(abs(scale * h0[nearest]), 1.0))

    target = _vec(P[nearest], 0)
    return InteractiveFigure(
        setup, update,
        controls={"scale": Slider(scales, label="scale λ", value=scale, fmt="{:g}")},
        goal=goal,
        goal_text=(f"first compute, from the readout at λ = 1, the scale λ &gt; 0 at which the "
                   f"point closest to H, {target}, lies exactly on a level h = ±1; then move the "
                   f"slider once, to your λ, to check it."),
        success_message=(f"Scaled so that min |h(x)| = 1: the point {target} sits on a "
                         f"level h = ±1 and every other point has |h| &gt; 1. This is the "
                         f"scaling the maximum-margin chapter fixes."),
        figsize=figsize, dpi=dpi, blit=False,
        title=f"One line, many scales: h(x) = λ·({_equation(w, b)[:-4]})")
