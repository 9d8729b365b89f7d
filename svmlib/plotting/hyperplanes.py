"""Figures of the hyperplanes chapter (``ch-hyperplanes``).

The geometry of one hyperplane ``h(x) = <w, x> + b = 0``: a point on the
line (``p = 1``), a plane in space (``p = 3``), the level sets of ``h``, the
orthogonal projection with its right angle, the dot-product view of the
signed distance, and several separating lines at once.  Every function takes
``ax=None`` and returns ``ax``, in the book's visual language (hyperplane
solid black, normal as a black arrow, class colours of :data:`CLASS_COLORS`).
"""

import numpy as np

from .._validation import check_array
from ._core import (
    CLASS_COLORS,
    PALETTE,
    REGION_CMAP,
    _check_w_b,
    _get_ax,
    _legend,
    plot_data,
    plot_hyperplane,
    plot_normal,
)

__all__ = [
    "SIDE_COLORS",
    "plot_hyperplane_1d",
    "plot_hyperplane_3d",
    "plot_score_levels",
    "plot_projection",
    "plot_dot_product_view",
    "plot_separators",
    "draw_right_angle",
]

#: Light tints of the two sides of a hyperplane: h < 0 (blue), h > 0 (orange).
SIDE_COLORS = {-1: REGION_CMAP(0.22), 1: REGION_CMAP(0.78)}
_POINT = dict(color="black", s=30, zorder=6)
_PROJ = dict(color="#555555", linewidth=1.2, linestyle=(0, (4, 3)), zorder=4)
_ACCENT = PALETTE[2]   # green: constructions (projections, components)


def _arrow(ax, start, end, color="black", lw=1.5, style="-|>", gid=None):
    ax.annotate("", xy=end, xytext=start, gid=gid,
                arrowprops=dict(arrowstyle=style, color=color, linewidth=lw,
                                mutation_scale=13, shrinkA=0, shrinkB=0), zorder=6)


def draw_right_angle(ax, corner, u, v, size=0.25, **kwargs):
    """Draw the small square that marks a right angle.

    Parameters
    ----------
    ax : Axes
    corner : array-like of shape (2,)
        The vertex of the right angle.
    u, v : array-like of shape (2,)
        The directions of its two legs (normalized here).
    size : float, default=0.25
        Side of the square in data units.
    **kwargs
        Line properties.

    Returns
    -------
    list of Line2D
    """
    corner = np.asarray(corner, dtype=float)
    u = np.asarray(u, dtype=float)
    v = np.asarray(v, dtype=float)
    u, v = size * u / np.linalg.norm(u), size * v / np.linalg.norm(v)
    pts = np.array([corner + u, corner + u + v, corner + v])
    props = dict(color="#555555", linewidth=0.9, zorder=4)
    props.update(kwargs)
    return ax.plot(pts[:, 0], pts[:, 1], **props)


# ------------------------------------------------------------ p = 1 and 3

def plot_hyperplane_1d(w, b, ax=None, xlim=(-1.0, 4.0)):
    """A hyperplane on the real line: the point ``x = -b / w``.

    Book: (eq-hyperplane) with ``p = 1``.  The two half-lines are tinted by
    the sign of ``h``, and ``w`` is drawn as an arrow from the point.

    Parameters
    ----------
    w : float
        The (nonzero) normal "vector", a number.
    b : float
    ax : Axes, optional
    xlim : (float, float), default=(-1, 4)

    Returns
    -------
    ax : Axes
    """
    w = float(np.ravel(w)[0])
    if w == 0 or not np.isfinite(w):
        raise ValueError(f"w must be a nonzero finite number; got w={w!r}.")
    b = float(b)
    ax = _get_ax(ax)
    x0 = -b / w
    lo, hi = xlim
    neg = (lo, x0) if w > 0 else (x0, hi)
    pos = (x0, hi) if w > 0 else (lo, x0)
    ax.axvspan(*neg, ymin=0.35, ymax=0.65, color=SIDE_COLORS[-1], lw=0, zorder=0)
    ax.axvspan(*pos, ymin=0.35, ymax=0.65, color=SIDE_COLORS[1], lw=0, zorder=0)
    ax.plot([x0], [0], marker="o", color="black", markersize=7, zorder=5, gid="hyperplane")
    _arrow(ax, (x0, 0), (x0 + 0.9 * np.sign(w), 0), gid="normal")
    ax.text(x0 + 0.45 * np.sign(w), 0.1, "$w$", ha="center", va="bottom")
    ax.text(x0, -0.2, f"$x = -b/w = {x0:g}$", ha="center", va="top", fontsize=9)
    ax.text((pos[0] + pos[1]) / 2, 0.23, "$h > 0$", ha="center", fontsize=9)
    ax.text((neg[0] + neg[1]) / 2, 0.23, "$h < 0$", ha="center", fontsize=9)
    ax.set_xlim(lo, hi)
    ax.set_ylim(-0.5, 0.5)
    ax.set_yticks([])
    ax.spines["left"].set_visible(False)
    ax.spines["bottom"].set_position(("data", 0.0))   # the real line itself
    ax.set_xlabel("$x_1$", loc="right")
    return ax


def plot_hyperplane_3d(w, b, ax=None, lim=(0.0, 3.0), points=None):
    """A plane in space with its normal vector.

    Book: (eq-hyperplane) with ``p = 3``.  The plane is drawn as a
    translucent surface over the box ``lim`` cubed, the normal as an arrow from
    the point of the plane nearest the centre of the box.

    Parameters
    ----------
    w : array-like of shape (3,)
    b : float
    ax : Axes3D, optional
        A 3-D axes (``fig.add_subplot(projection="3d")``); made if ``None``.
    lim : (float, float), default=(0, 3)
        The range of every coordinate.
    points : array-like of shape (n, 3), optional
        Points to draw, coloured by the sign of ``h``.

    Returns
    -------
    ax : Axes3D
    """
    w = check_array(w, "w", ndim=1)
    if w.shape != (3,) or not np.any(w):
        raise ValueError(f"w must be a nonzero vector with 3 entries; got {w.tolist()!r}.")
    b = float(b)
    if ax is None:
        import matplotlib.pyplot as plt
        ax = plt.figure(figsize=(4.5, 4)).add_subplot(projection="3d")
    if getattr(ax, "name", "") != "3d":
        raise ValueError("ax must be a 3-D axes; make one with fig.add_subplot(projection='3d').")
    lo, hi = lim
    k = int(np.argmax(np.abs(w)))             # solve h = 0 for the coordinate with largest |w_k|
    i, j = [m for m in range(3) if m != k]
    u, v = np.meshgrid(np.linspace(lo, hi, 12), np.linspace(lo, hi, 12))
    coords = [None, None, None]
    coords[i], coords[j] = u, v
    coords[k] = -(w[i] * u + w[j] * v + b) / w[k]
    outside = (coords[k] < lo) | (coords[k] > hi)
    coords[k] = np.where(outside, np.nan, coords[k])
    ax.plot_surface(*coords, color="#9a9a9a", alpha=0.35, linewidth=0, shade=False,
                    rstride=1, cstride=1, gid="hyperplane")
    ax.plot_wireframe(*coords, color="#4a4a4a", linewidth=0.3, rstride=3, cstride=3)
    centre = np.full(3, (lo + hi) / 2)
    anchor = centre - (centre @ w + b) / (w @ w) * w     # Book: (eq-projection)
    n = w / np.linalg.norm(w)
    ax.quiver(*anchor, *(1.2 * n), color="black", linewidth=1.6, arrow_length_ratio=0.2)
    ax.text(*(anchor + 1.45 * n), "$\\mathbf{w}$", ha="center")
    if points is not None:
        P = check_array(points, "points")
        side = np.where(P @ w + b > 0, 1, -1)
        for s in (-1, 1):
            m = side == s
            ax.scatter(P[m, 0], P[m, 1], P[m, 2], color=CLASS_COLORS[s], s=18, depthshade=False)
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_zlim(lo, hi)
    ax.set_xlabel("$x_1$", labelpad=-8)
    ax.set_ylabel("$x_2$", labelpad=-8)
    ax.set_zlabel("$x_3$", labelpad=-8)
    ticks = np.arange(np.ceil(lo), np.floor(hi) + 1)
    ax.set_xticks(ticks)
    ax.set_yticks(ticks)
    ax.set_zticks(ticks)
    ax.tick_params(labelsize=7, pad=-2)
    ax.view_init(elev=20, azim=-60)
    ax.set_box_aspect(None, zoom=0.85)
    return ax


# ---------------------------------------------------------------- p = 2

def plot_score_levels(w, b, ax=None, levels=None, xlim=(-1.0, 6.0), ylim=(-1.0, 5.0),
                      points=None):
    """The level sets ``h(x) = k`` of the score: parallel lines ``1/||w||`` apart per unit of ``k``.

    Book: (eq-score-along-normal).  The half-planes are tinted by the sign of
    ``h``, the levels drawn thin and labelled, ``h = 0`` solid black, and
    ``w`` drawn from the point of ``H`` closest to the origin.

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
    ax : Axes, optional
    levels : sequence of float, optional
        Values of ``h`` to draw besides 0; by default five values on each
        side, spaced by ``||w||`` (one unit of distance).  Empty for none
        (then the figure shows only the two tinted sides).
    xlim, ylim : (float, float)
    points : array-like of shape (m, 2), optional
        Points of ``H`` to mark, e.g. two points ``x, x'`` with the
        difference ``x - x'`` drawn as an arrow along ``H``.

    Returns
    -------
    ax : Axes
    """
    w, b = _check_w_b(w, b)
    ax = _get_ax(ax)
    norm = np.linalg.norm(w)
    if levels is None:
        levels = [k * norm for k in range(-5, 6) if k != 0]
    xs = np.linspace(*xlim, 300)
    ys = np.linspace(*ylim, 300)
    xx, yy = np.meshgrid(xs, ys)
    hh = w[0] * xx + w[1] * yy + b
    ax.contourf(xx, yy, hh, levels=[hh.min() - 1, 0, hh.max() + 1],
                colors=[SIDE_COLORS[-1], SIDE_COLORS[1]], zorder=0)
    if len(levels):
        cs = ax.contour(xx, yy, hh, levels=sorted(levels), colors="#777777", linewidths=0.7,
                        zorder=1)
        ax.clabel(cs, fmt=lambda v: f"{v:g}", fontsize=8, inline_spacing=2)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    plot_hyperplane(w, b, ax=ax)
    anchor = -b * w / (w @ w)
    plot_normal(w, b, ax=ax, anchor=anchor, length=min(norm, 1.6))
    if points is not None:
        P = check_array(points, "points")
        ax.scatter(P[:, 0], P[:, 1], **_POINT)
        names = ["$\\mathbf{x}$", "$\\mathbf{x}'$"] + [""] * max(0, len(P) - 2)
        for pt, name in zip(P, names):
            ax.annotate(name, pt, xytext=(-12, -12), textcoords="offset points",
                        fontsize=10, zorder=7)
        if len(P) >= 2:
            _arrow(ax, P[1], P[0], color=_ACCENT, lw=1.6)
            mid = (P[0] + P[1]) / 2
            ax.annotate("$\\mathbf{x} - \\mathbf{x}'$", mid, xytext=(8, 6),
                        textcoords="offset points", color=_ACCENT, fontsize=10)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_aspect("equal")
    return ax


def plot_projection(w, b, x, ax=None, other=None, circle=True, xlim=(-1.0, 6.0),
                    ylim=(-1.0, 5.0), annotate=True):
    """A point, its projection onto ``H`` and (optionally) the Pythagoras triangle.

    Book: (eq-projection) and (eq-pythagoras).  Draws ``x``, ``pi(x)``, the
    dashed perpendicular with its right-angle mark, the circle of radius
    ``|r(x)|`` around ``x`` (which touches ``H`` only at ``pi(x)``), and,
    when ``other`` is given, a second point ``x'`` of ``H`` with the three
    sides of the right triangle labelled by their lengths.

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
    x : array-like of shape (2,)
    ax : Axes, optional
    other : array-like of shape (2,), optional
        A point of ``H`` (projected onto ``H`` first, to be safe).
    circle : bool, default=True
    xlim, ylim : (float, float)
    annotate : bool, default=True
        Label the points and the lengths.

    Returns
    -------
    ax : Axes
    """
    w, b = _check_w_b(w, b)
    x = check_array(x, "x", ndim=1)
    ax = _get_ax(ax)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal")
    h = float(w @ x + b)
    px = x - h / (w @ w) * w                                  # Book: (eq-projection)
    r = h / np.linalg.norm(w)
    plot_hyperplane(w, b, ax=ax)
    along = np.array([-w[1], w[0]])
    if circle and abs(r) > 1e-12:
        from matplotlib.patches import Circle
        ax.add_patch(Circle(x, abs(r), fill=False, edgecolor=_ACCENT, linewidth=0.9,
                            linestyle=(0, (2, 2)), zorder=2))
    ax.plot(*np.column_stack([x, px]), **_PROJ)
    if abs(r) > 1e-12:
        draw_right_angle(ax, px, x - px, along, size=0.22)
    ax.scatter(*x, **_POINT)
    ax.scatter(*px, color=_ACCENT, s=34, zorder=6, edgecolors="black", linewidths=0.6)
    if annotate:
        ax.annotate("$\\mathbf{x}$", x, xytext=(6, 4), textcoords="offset points")
        ax.annotate("$\\pi(\\mathbf{x})$", px, xytext=(8, -12), textcoords="offset points",
                    color="black")
        mid = (x + px) / 2
        ax.annotate(f"$|r| = {abs(r):.3g}$", mid, xytext=(6, 2), textcoords="offset points",
                    fontsize=9)
    if other is not None:
        xo = check_array(other, "other", ndim=1)
        xo = xo - (w @ xo + b) / (w @ w) * w
        ax.plot(*np.column_stack([x, xo]), color="#555555", linewidth=1.0, zorder=4)
        ax.plot(*np.column_stack([px, xo]), color=_ACCENT, linewidth=2.2, zorder=4)
        ax.scatter(*xo, **_POINT)
        if annotate:
            ax.annotate("$\\mathbf{x}'$", xo, xytext=(-16, -14), textcoords="offset points")
            d1 = np.linalg.norm(x - xo)
            d2 = np.linalg.norm(px - xo)
            ax.annotate(f"${d1:.3g}$", (x + xo) / 2, xytext=(-4, 8), textcoords="offset points",
                        fontsize=9)
            ax.annotate(f"${d2:.3g}$", (px + xo) / 2, xytext=(-14, -14),
                        textcoords="offset points", fontsize=9, color=_ACCENT)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    return ax


def plot_dot_product_view(w, b, x, ax=None, xlim=(-1.0, 6.0), ylim=(-1.0, 5.0)):
    """The signed distance as a coordinate on the axis of ``w``.

    Book: (eq-dot-product-view).  Draws the axis through the origin in the
    direction ``n = w / ||w||``, the point where ``H`` crosses it (at
    coordinate ``-b / ||w||``), the foot ``x_w n`` of ``x`` on it, and the
    stretch between them, of length ``r(x) = x_w + b / ||w||``.

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
    x : array-like of shape (2,)
    ax : Axes, optional
    xlim, ylim : (float, float)

    Returns
    -------
    ax : Axes
    """
    w, b = _check_w_b(w, b)
    x = check_array(x, "x", ndim=1)
    ax = _get_ax(ax)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal")
    norm = np.linalg.norm(w)
    n = w / norm
    x_w = float(x @ n)
    t0 = -b / norm
    plot_hyperplane(w, b, ax=ax)
    ax.axline((0, 0), tuple(n), color="#888888", linewidth=0.9, linestyle=(0, (1, 2)), zorder=1)
    # coordinates along the axis
    for t in range(int(np.floor(min(0, t0, x_w))) - 1, int(np.ceil(max(0, t0, x_w))) + 2):
        tick = t * n
        perp = 0.08 * np.array([-n[1], n[0]])
        ax.plot(*np.column_stack([tick - perp, tick + perp]), color="#888888", lw=0.8, zorder=1)
    foot = x_w * n
    cross = t0 * n
    ax.plot(*np.column_stack([x, foot]), **_PROJ)
    draw_right_angle(ax, foot, x - foot, -n, size=0.2)
    ax.scatter([0], [0], color="black", s=14, zorder=6)
    ax.annotate("$\\mathbf{0}$", (0, 0), xytext=(-12, -10), textcoords="offset points")
    ax.scatter(*x, **_POINT)
    ax.annotate("$\\mathbf{x}$", x, xytext=(6, 4), textcoords="offset points")
    ax.scatter(*foot, color=_ACCENT, s=30, zorder=6, edgecolors="black", linewidths=0.6)
    ax.scatter(*cross, color="white", s=30, zorder=6, edgecolors="black", linewidths=1.0)
    _arrow(ax, (0, 0), tuple(n), gid="normal")
    ax.annotate("$\\mathbf{n}$", 0.5 * n, xytext=(6, -8), textcoords="offset points")
    # Two brackets beside the axis: x_w from 0 to the foot, r from H's crossing to the foot.
    left = np.array([-n[1], n[0]])
    angle = float(np.degrees(np.arctan2(n[1], n[0])))
    if angle > 90:
        angle -= 180
    elif angle < -90:
        angle += 180
    # The x_w label sits nearer the origin, away from where H crosses its bracket.
    crossed = min(0.0, x_w) < t0 < max(0.0, x_w)
    at_xw, ha_xw = (0.04, "left" if x_w > 0 else "right") if crossed else (0.5, "center")
    for start, offset, colour, where, ha, text in (
            (np.zeros(2), 0.3, _ACCENT, at_xw, ha_xw,
             f"$x_w = \\langle \\mathbf{{x}}, \\mathbf{{n}}\\rangle = {x_w:.3g}$"),
            (cross, 1.0, "black", 0.5, "center", f"$r(\\mathbf{{x}}) = {x_w + b / norm:.3g}$")):
        _arrow(ax, tuple(start + offset * left), tuple(foot + offset * left), color=colour,
               lw=1.2, style="<|-|>")
        ax.text(*(start + where * (foot - start) + (offset + 0.12) * left), text, color=colour,
                fontsize=9, rotation=angle, rotation_mode="anchor", ha=ha, va="bottom")
    ax.annotate(f"$-b/\\Vert\\mathbf{{w}}\\Vert = {t0:.3g}$", tuple(cross), xytext=(12, 2),
                textcoords="offset points", fontsize=9)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    return ax


def plot_separators(X, y, hyperplanes, ax=None, labels=None, margins=False):
    """Data with several candidate hyperplanes drawn at once.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    hyperplanes : sequence of (w, b) pairs or objects with ``w`` and ``b``
    ax : Axes, optional
    labels : sequence of str, optional
        Legend text per hyperplane.
    margins : bool, default=False
        Draw, for each hyperplane, the two parallel lines through the
        closest points on either side (thin, same colour).

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    ax = _get_ax(ax)
    plot_data(X, y, ax=ax, legend=False, aspect="equal")
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = 0.12 * (hi - lo)
    ax.set_xlim(lo[0] - pad[0], hi[0] + pad[0])
    ax.set_ylim(lo[1] - pad[1], hi[1] + pad[1])
    colours = [PALETTE[i] for i in (2, 3, 4, 5, 6, 8)]
    for k, hp in enumerate(hyperplanes):
        w, b = (hp.w, hp.b) if hasattr(hp, "w") else hp
        w, b = _check_w_b(w, b)
        colour = colours[k % len(colours)]
        label = labels[k] if labels is not None else None
        plot_hyperplane(w, b, ax=ax, color=colour, linewidth=1.6, label=label)
        if margins:
            r = (X @ w + b) / np.linalg.norm(w)
            for side in (-1, 1):
                m = np.sign(r) == side
                if np.any(m):
                    d = np.min(np.abs(r[m]))
                    plot_hyperplane(w, b - side * d * np.linalg.norm(w), ax=ax, color=colour,
                                    linewidth=0.7, linestyle=(0, (4, 3)))
    if labels is not None:
        _legend(ax)
    return ax
