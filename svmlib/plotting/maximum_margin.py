"""Figures of chapter 03, maximum-margin hyperplanes.

Built on the book's core figures (:mod:`svmlib.plotting`): the same
colours per class, hyperplanes solid, margin planes dashed, closest points
ringed.  One function per kind of figure; each takes ``ax=None`` and returns
the axes.  The one computation the landscape figures need, the best margin
a hyperplane with a given direction can reach, is
:func:`svmlib.geometry.margin_by_angle`.

Book: chapter ``ch-maximum-margin``.
"""

import numpy as np

from .._validation import check_array, check_X_y
from ..geometry import margin_by_angle  # noqa: F401 (computed there; drawn here)
from ._core import (
    CLASS_COLORS,
    PALETTE,
    _get_ax,
    _legend,
    _tidy,
    plot_data,
    plot_hyperplane,
    plot_normal,
    ring_support_vectors,
)

__all__ = [
    "plot_separators_margins",
    "plot_margin_geometry",
    "plot_pointwise_margins",
    "plot_margin_by_angle",
    "plot_optimizer_runs",
    "plot_logistic_band",
    "plot_margin_discs",
    "plot_sigmoid_profile",
]

_SEPARATOR_COLOURS = ["#2ca02c", "#9467bd", "#d62728", "#8c564b", "#e377c2", "#17becf",
                      "#7f7f7f", "#bcbd22"]
_BAND = dict(color="#b0b0b0", alpha=0.18, zorder=1, linewidth=0)


def _w_b(w, b):
    w = check_array(np.ravel(w), "w", ndim=1)
    if w.shape[0] != 2 or not np.any(w):
        raise ValueError(f"w must be a nonzero vector with 2 entries to be drawn in the plane; "
                         f"got w={w.tolist()}.")
    return w, float(np.ravel(b)[0]) if np.ndim(b) else float(b)


def _labels(X, y):
    X, y = check_X_y(X, y)
    y = np.asarray(y, dtype=float)
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"y must contain only the labels -1 and +1; got "
                         f"{np.unique(y)[:5].tolist()}. Map the classes to -1/+1 first.")
    return X, y


def _closest(w, b, X, y, rtol=1e-6):
    """Indices of the points with the smallest y_i h(x_i) (ties within rtol)."""
    scores = y * (X @ w + b)
    low = scores.min()
    return np.flatnonzero(scores <= low + rtol * max(1.0, abs(low)))


def _band_polygon(w, b, level, ax, grow=0.0):
    """Corners of {x : |h(x)| <= level} clipped to the current view (a polygon).

    ``grow`` enlarges the view by that fraction of its size on every side first,
    so that the polygon still covers the view if the limits widen a little.
    """
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    dx, dy = grow * (x1 - x0), grow * (y1 - y0)
    x0, x1, y0, y1 = x0 - dx, x1 + dx, y0 - dy, y1 + dy
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    polygon = corners
    for sign in (1.0, -1.0):  # keep sign * h(x) <= level: clip by one half-plane at a time
        values = sign * (polygon @ w + b) - level
        kept = []
        for i in range(len(polygon)):
            p, q = polygon[i], polygon[(i + 1) % len(polygon)]
            vp, vq = values[i], values[(i + 1) % len(polygon)]
            if vp <= 0:
                kept.append(p)
            if vp * vq < 0:
                kept.append(p + vp / (vp - vq) * (q - p))
        polygon = np.array(kept) if kept else np.empty((0, 2))
        if polygon.shape[0] == 0:
            break
    return polygon


def _shade_band(w, b, ax, level=1.0, **kwargs):
    from matplotlib.patches import Polygon

    polygon = _band_polygon(w, b, level, ax, grow=1.0)
    if polygon.shape[0] >= 3:  # add_artist: clipped to the axes, limits left alone
        ax.add_artist(Polygon(polygon, closed=True, gid="band", **{**_BAND, **kwargs}))


def plot_separators_margins(X, y, hyperplanes, ax=None, labels=None, colors=None,
                            closest=True, band=False, legend="below"):
    """Several separating lines, each with a segment to its closest point.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    hyperplanes : sequence of (w, b) pairs or objects with ``w`` and ``b``
        The lines to draw (``w`` of shape (2,)).
    ax : Axes, optional
    labels : sequence of str, optional
        Legend text per line; by default its geometric margin, ``γ = 0.12``.
    colors : sequence of colours, optional
    closest : bool, default=True
        Draw, for each line, the shortest segment from each of its closest
        points (ties included) to the line; its length is the margin.
    band : bool, default=False
        Shade, for each separating line, the empty band of half-width γ
        around it.
    legend : {"below", "inside", None}, default="below"
        Where to put the legend of the lines: under the axes, inside them,
        or nowhere.

    Returns
    -------
    ax : Axes
    """
    X, y = _labels(X, y)
    ax = _get_ax(ax)
    plot_data(X, y, ax=ax, legend=False, aspect="equal")
    ax.autoscale_view()
    colors = list(colors) if colors is not None else _SEPARATOR_COLOURS
    for k, hp in enumerate(hyperplanes):
        w, b = _w_b(*((hp.w, hp.b) if hasattr(hp, "w") else hp))
        colour = colors[k % len(colors)]
        gamma = float(np.min(y * (X @ w + b)) / np.linalg.norm(w))
        text = labels[k] if labels is not None else f"$\\gamma = {gamma:.2f}$"
        plot_hyperplane(w, b, ax=ax, color=colour, linewidth=1.4, label=None)
        ax.plot([], [], color=colour, linewidth=1.4, label=text)
        if band and gamma > 0:
            _shade_band(w, b, ax, level=gamma * np.linalg.norm(w))
            for level in (-1.0, 1.0):
                plot_hyperplane(w, b - level * gamma * np.linalg.norm(w), ax=ax, color=colour,
                                linewidth=1.0, linestyle=(0, (5, 4)))
        if closest:
            for i in _closest(w, b, X, y, rtol=1e-4):
                foot = X[i] - (X[i] @ w + b) / (w @ w) * w
                ax.plot([X[i, 0], foot[0]], [X[i, 1], foot[1]], color=colour, linewidth=2.2,
                        solid_capstyle="round", zorder=3.5, gid="closest")
                ax.scatter(*X[i], s=110, facecolors="none", edgecolors=colour,
                           linewidths=1.4, zorder=5, gid="closest")
    if legend == "below":
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize=8,
                  ncols=min(3, len(hyperplanes)), handlelength=1.4, borderaxespad=0.0)
    elif legend == "inside":
        ax.legend(loc="upper left", fontsize=8, handlelength=1.4, borderaxespad=0.2)
    return ax


def plot_margin_geometry(w, b, X, y, ax=None, annotate=True):
    """The canonical picture: H, the margin planes H+ and H-, the band and its widths.

    Draws the data, the hyperplane ``h(x) = 0`` (solid), the margin planes
    ``h(x) = ±1`` (dashed) with the band between them shaded, rings the
    points on the margin planes, the normal ``w``, and arrows marking the
    margin ``1/||w||`` and the band width ``2/||w||``.  Meant for a canonical
    ``(w, b)`` (``min_i y_i h(x_i) = 1``).  Book: (eq-margin-planes),
    (eq-margin-width).

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    ax : Axes, optional
    annotate : bool, default=True
        Write the names of the planes and the two widths.

    Returns
    -------
    ax : Axes
    """
    w, b = _w_b(w, b)
    X, y = _labels(X, y)
    ax = _get_ax(ax)
    plot_data(X, y, ax=ax, aspect="equal")
    ax.autoscale_view()
    _shade_band(w, b, ax)
    plot_hyperplane(w, b, ax=ax, margins=True)
    on_planes = np.flatnonzero(np.abs(y * (X @ w + b) - 1.0) <= 1e-3)
    if on_planes.size:
        ring_support_vectors(X[on_planes], ax=ax, label="on the margin planes")
    norm = np.linalg.norm(w)
    unit = w / norm
    along = np.array([-unit[1], unit[0]])
    centre = X.mean(axis=0)
    base = centre - (centre @ w + b) / (w @ w) * w            # a point of H near the data
    spread = np.ptp(X @ along)
    if annotate:
        label_box = dict(boxstyle="round,pad=0.15", facecolor="white", edgecolor="none",
                         alpha=0.9)
        start = base + 0.30 * spread * along
        ax.annotate("", xy=start + unit / norm, xytext=start,
                    arrowprops=dict(arrowstyle="<|-|>", color="#333333", linewidth=1.1,
                                    shrinkA=0, shrinkB=0, mutation_scale=9), zorder=6)
        ax.text(*(start + 0.5 * unit / norm + 0.03 * spread * along), "$1/\\|\\mathbf{w}\\|$",
                ha="right", va="center", fontsize=9, zorder=6, bbox=label_box)
        start2 = base - 0.22 * spread * along
        ax.annotate("", xy=start2 + unit / norm, xytext=start2 - unit / norm,
                    arrowprops=dict(arrowstyle="<|-|>", color="#333333", linewidth=1.1,
                                    shrinkA=0, shrinkB=0, mutation_scale=9), zorder=6)
        ax.text(*(start2 - 0.5 * unit / norm - 0.03 * spread * along), "$2/\\|\\mathbf{w}\\|$",
                ha="left", va="center", fontsize=9, zorder=6, bbox=label_box)
        for level, text in ((0.0, "$H$"), (1.0, "$H_+$"), (-1.0, "$H_-$")):
            spot = base - 0.52 * spread * along + level * unit / norm
            ax.text(*spot, text, fontsize=10, ha="center", va="center", zorder=6,
                    bbox=dict(boxstyle="round,pad=0.15", facecolor="white", edgecolor="none",
                              alpha=0.9))
    plot_normal(w, b, ax=ax, anchor=base - 0.1 * spread * along)
    _legend(ax)
    return ax


def plot_pointwise_margins(X, y, b, angles, ax=None, highlight=None):
    """Each point's margin ``y_i (<u, x_i> + b)`` as the unit normal ``u`` turns.

    Every point contributes one smooth curve (grey); the margin of the
    hyperplane is their lower envelope (black), which has a kink wherever
    the closest point changes.  Book: (eq-maxmin).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    b : float
        The offset, fixed while the normal turns.
    angles : array-like of shape (n_angles,)
        Angles of the unit normal in degrees.
    ax : Axes, optional
    highlight : float, optional
        An angle to mark with a vertical dotted line (e.g. the optimum).

    Returns
    -------
    ax : Axes
    """
    X, y = _labels(X, y)
    ax = _get_ax(ax)
    angles = np.asarray(angles, dtype=float).ravel()
    theta = np.deg2rad(angles)
    U = np.column_stack([np.cos(theta), np.sin(theta)])
    G = y[:, None] * (X @ U.T + float(b))                      # (n_samples, n_angles)
    for i in range(G.shape[0]):
        ax.plot(angles, G[i], color=CLASS_COLORS[int(y[i])], linewidth=0.7, alpha=0.45,
                zorder=2)
    envelope = G.min(axis=0)
    ax.plot(angles, envelope, color="black", linewidth=2.0, zorder=3,
            label="margin = lowest curve")
    if highlight is not None:
        ax.axvline(highlight, color="black", linestyle=":", linewidth=1.0)
    low, high = envelope.min(), envelope.max()
    ax.set_ylim(low - 0.15 * (high - low + 1e-9), high + 1.2 * (high - low + 1e-9))
    ax.set_xlim(angles[0], angles[-1])
    ax.set_xlabel("angle of the normal (degrees)")
    ax.set_ylabel("$y_i(\\langle \\mathbf{u}, \\mathbf{x}_i\\rangle + b)$")
    _legend(ax)
    _tidy(ax)
    return ax


def plot_margin_by_angle(X, y, ax=None, n_angles=721):
    """The best margin reachable with each direction of the normal, over a full turn.

    Uses :func:`svmlib.geometry.margin_by_angle`; marks the global maximum (a star) and any
    other local maxima (open circles), where a hill-climbing method can stop.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    ax : Axes, optional
    n_angles : int, default=721
        Angles from -180 to 180 degrees.

    Returns
    -------
    ax : Axes
    """
    ax = _get_ax(ax)
    angles = np.linspace(-180.0, 180.0, int(n_angles))
    margins, _ = margin_by_angle(X, y, angles)
    ax.plot(angles, margins, color="black", linewidth=1.6, zorder=3)
    ax.axhline(0.0, color="#888888", linewidth=0.8, zorder=1)
    turn = margins[:-1]                       # one full turn, without the repeated end
    best = int(np.argmax(turn))
    ax.scatter([angles[best]], [margins[best]], marker="*", s=160, color=PALETTE[2],
               zorder=5, label=f"global maximum, {angles[best]:.0f}°")
    rising = turn >= np.roll(turn, 1)         # neighbours on the circle of directions
    falling = turn >= np.roll(turn, -1)
    gap = np.minimum(np.abs(np.arange(turn.size) - best),
                     turn.size - np.abs(np.arange(turn.size) - best))
    peaks = np.flatnonzero(rising & falling & (gap > 3))
    if peaks.size:
        ax.scatter(angles[peaks], margins[peaks], s=60, facecolors="none",
                   edgecolors=PALETTE[4], linewidths=1.5, zorder=5, label="other local maxima")
    ax.set_xlim(-180, 180)
    ax.set_xticks(np.arange(-180, 181, 90))
    ax.set_xlabel("angle of the normal (degrees)")
    ax.set_ylabel("best margin $\\max_b \\gamma$")
    _legend(ax)
    _tidy(ax)
    return ax


def plot_optimizer_runs(results, best, ax=None, floor=-1.0):
    """Where each run of each optimizer ended, as a fraction of the best margin.

    Parameters
    ----------
    results : dict of str to array-like of shape (n_runs,)
        Final margins per method (one strip per method).
    best : float
        The maximum margin (from the QP), drawn as a dashed line at 1.
    ax : Axes, optional
    floor : float, default=-1.0
        Ratios below this are drawn at the floor with a downward triangle,
        and counted in a note under the strip.

    Returns
    -------
    ax : Axes
    """
    ax = _get_ax(ax)
    rng = np.random.default_rng(0)          # fixed jitter: the figure is deterministic
    names = list(results)
    for k, name in enumerate(names):
        ratio = np.asarray(results[name], dtype=float) / float(best)
        jitter = rng.uniform(-0.18, 0.18, size=ratio.shape[0])
        good = ratio >= 0.99
        low = ratio < floor
        mid = ~good & ~low
        colour = PALETTE[k % len(PALETTE)]
        ax.scatter(k + jitter[good], ratio[good], s=30, color=colour, edgecolors="black",
                   linewidths=0.6, zorder=4)
        ax.scatter(k + jitter[mid], ratio[mid], s=30, color=colour, alpha=0.55, zorder=4)
        if low.any():
            ax.scatter(k + jitter[low], np.full(low.sum(), floor - 0.08), marker="v", s=30,
                       color=colour, alpha=0.55, zorder=4)
            ax.annotate(f"{int(low.sum())} below {floor:g}", (k, floor - 0.08),
                        xytext=(0, -13), textcoords="offset points", ha="center", fontsize=8)
        ax.annotate(f"{int(good.sum())}/{ratio.shape[0]} at the optimum", (k, 1.0),
                    xytext=(0, 9), textcoords="offset points", ha="center", fontsize=8)
    ax.axhline(1.0, color="black", linestyle=(0, (5, 4)), linewidth=1.0, zorder=2)
    ax.axhline(0.0, color="#888888", linewidth=0.8, zorder=1)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_xlim(-0.6, len(names) - 0.4)
    ax.set_ylim(floor - 0.3, 1.25)
    ax.set_ylabel("margin reached / maximum margin")
    _tidy(ax)
    return ax


def plot_logistic_band(w, b, X, y, ax=None, reference=None, title=None):
    """A logistic-regression boundary with its band ``|h(x)| <= 1``.

    The band is where the predicted probability σ(h(x)) lies between
    σ(-1) ≈ 0.27 and σ(1) ≈ 0.73; its width is ``2/||w||`` as for the SVM.
    Points inside the band are ringed.  Book: (eq-logistic-l2).

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    ax : Axes, optional
    reference : (w, b) pair, optional
        Another boundary (the SVM's) drawn as a thin grey line.
    title : str, optional

    Returns
    -------
    ax : Axes
    """
    w, b = _w_b(w, b)
    X, y = _labels(X, y)
    ax = _get_ax(ax)
    plot_data(X, y, ax=ax, aspect="equal", legend=False)
    ax.autoscale_view()
    _shade_band(w, b, ax)
    if reference is not None:
        rw, rb = _w_b(*reference)
        plot_hyperplane(rw, rb, ax=ax, color="#8a8a8a", linewidth=1.2, linestyle="-.")
        ax.plot([], [], color="#8a8a8a", linewidth=1.2, linestyle="-.", label="SVM boundary")
    plot_hyperplane(w, b, ax=ax, margins=True)
    ax.plot([], [], color="black", linewidth=1.8, label="logistic boundary")
    inside = np.abs(X @ w + b) < 1.0
    if inside.any():
        ring_support_vectors(X[inside], ax=ax, s=90, label="inside the band",
                             edgecolors="#555555", linewidths=1.0)
    if title:
        ax.set_title(title)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize=8, ncols=2,
              borderaxespad=0.0)
    return ax


def plot_margin_discs(w, b, X, y, ax=None, radius=None, padding=0.12):
    """Discs of radius γ around every point: how far each point may move safely.

    With ``γ`` the geometric margin of ``(w, b)``, no disc crosses the line:
    every training point can be moved anywhere inside its disc without
    changing its predicted label.

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    ax : Axes, optional
    radius : float, optional
        The disc radius; by default the geometric margin.
    padding : float, default=0.12
        Margin around the data, as a fraction of its range; the view is fixed
        from the data alone, so figures of the same data line up.

    Returns
    -------
    ax : Axes
    """
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle

    w, b = _w_b(w, b)
    X, y = _labels(X, y)
    ax = _get_ax(ax)
    gamma = float(np.min(y * (X @ w + b)) / np.linalg.norm(w)) if radius is None else radius
    for label in (-1, 1):
        discs = [Circle(p, max(gamma, 0.0)) for p in X[y == label]]
        ax.add_collection(PatchCollection(discs, facecolor=CLASS_COLORS[label], alpha=0.16,
                                          edgecolor=CLASS_COLORS[label], linewidth=0.6,
                                          zorder=1, gid="discs"))
    plot_data(X, y, ax=ax, aspect="equal", legend=False)
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = padding * (hi - lo)
    ax.set_xlim(lo[0] - pad[0], hi[0] + pad[0])
    ax.set_ylim(lo[1] - pad[1], hi[1] + pad[1])
    ax.set_aspect("equal", adjustable="box")
    plot_hyperplane(w, b, ax=ax)
    return ax


def _sigmoid(t):
    return 0.5 * (1.0 + np.tanh(0.5 * t))


def plot_sigmoid_profile(w, b, X, y, ax=None, span=None):
    """The logistic curve σ(h(x)) against the signed distance from the hyperplane.

    The horizontal axis is the signed distance ``r = h(x)/||w||``, which does
    not change when ``(w, b)`` is rescaled; the curve ``σ(||w|| r)`` does: it
    steepens as ``||w||`` grows.  Each point sits on the curve at its own
    distance.  Dotted verticals mark ``r = ±1/||w||`` (the margin planes).

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    ax : Axes, optional
    span : float, optional
        Half-width of the horizontal axis; by default the largest :math:`|r|`.

    Returns
    -------
    ax : Axes
    """
    w, b = _w_b(w, b)
    X, y = _labels(X, y)
    ax = _get_ax(ax)
    norm = np.linalg.norm(w)
    r = (X @ w + b) / norm
    span = float(np.max(np.abs(r))) * 1.05 if span is None else float(span)
    grid = np.linspace(-span, span, 400)
    ax.plot(grid, _sigmoid(norm * grid), color="black", linewidth=1.6, zorder=3)
    for label in (-1, 1):
        mask = y == label
        ax.scatter(r[mask], _sigmoid(norm * r[mask]), s=22, color=CLASS_COLORS[label],
                   marker="o" if label < 0 else "s", edgecolors="white", linewidths=0.5,
                   zorder=4)
    for level in (-1.0, 1.0):
        if abs(level / norm) <= span:
            ax.axvline(level / norm, color="black", linestyle=":", linewidth=1.0)
    ax.axvline(0.0, color="#888888", linewidth=0.8)
    ax.set_xlim(-span, span)
    ax.set_ylim(-0.04, 1.04)
    ax.set_xlabel("signed distance $h(\\mathbf{x})/\\|\\mathbf{w}\\|$")
    ax.set_ylabel("$\\sigma(h(\\mathbf{x}))$")
    _tidy(ax)
    return ax
