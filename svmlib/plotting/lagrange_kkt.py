"""Figures for chapter 04, Lagrange multipliers and KKT conditions.

One visual language for constrained optimization, used by the chapter's
static figures and by its interactive figures (``svmlib.widgets.lagrange_kkt``):

* the objective ``f`` as soft grey filled contours with thin contour lines
  (lighter = larger ``f``);
* a constraint ``g = 0`` as a purple curve, its gradient ``∇g`` as a purple
  arrow; a feasible region ``{h <= 0}`` as a light purple shade;
* the gradient ``∇f`` as a green arrow;
* stationary points as black dots, the optimum as a gold star.

Every function takes ``ax=None`` (a new figure from :func:`svmlib.plotting.figure`)
and returns ``ax``; none calls ``plt.show()``.
"""

import numpy as np
from matplotlib.colors import LinearSegmentedColormap

from ._core import figure

__all__ = [
    "GRADIENT_COLORS",
    "plot_active_cone",
    "CONTOUR_CMAP",
    "plot_constrained_contours",
    "plot_gradient_arrows",
    "plot_stationary_points",
    "plot_along_constraint",
    "plot_lagrangian_saddle",
    "plot_dual_function",
]

#: Colours of the two gradients: ``"f"`` for the objective, ``"g"`` for the
#: constraint (the constraint curve and feasible region use the same purple).
GRADIENT_COLORS = {"f": "#2ca02c", "g": "#9467bd"}
#: Light grey map for the contours of the objective: darker = smaller f.
CONTOUR_CMAP = LinearSegmentedColormap.from_list(
    "svmlib_contours", ["#c8c8c8", "#e6e6e6", "#fcfcfc"], N=256)
_STAR = dict(marker="*", s=260, color="#f2b600", edgecolors="black", linewidths=0.9, zorder=7)
_DOT = dict(marker="o", s=38, color="black", zorder=6)


def _get_ax(ax):
    if ax is None:
        _, ax = figure()
    return ax


def _mesh(xlim, ylim, grid):
    xs = np.linspace(float(xlim[0]), float(xlim[1]), int(grid))
    ys = np.linspace(float(ylim[0]), float(ylim[1]), int(grid))
    return np.meshgrid(xs, ys)


def plot_constrained_contours(f, g=None, ax=None, xlim=(-2.0, 2.0), ylim=(-2.0, 2.0),
                              levels=14, grid=160, region=False, constraint_label=None,
                              contour_labels=False, equal=True):
    """Contours of an objective ``f`` with a constraint curve ``g(x, y) = 0``.

    Parameters
    ----------
    f : callable
        ``f(x, y)`` evaluated elementwise on arrays (meshgrids) of equal shape.
    g : callable or None, default=None
        ``g(x, y)`` elementwise; its zero level set is drawn as the
        constraint curve.  ``None`` draws no constraint.
    ax : matplotlib Axes, optional
    xlim, ylim : (float, float)
        The window, also the plotting grid's extent.
    levels : int or sequence of float, default=14
        Contour levels of ``f`` (as for :func:`matplotlib.pyplot.contour`).
    grid : int, default=160
        Grid points per axis.
    region : bool, default=False
        Treat the constraint as an inequality ``g(x, y) <= 0`` and shade
        the feasible region.
    constraint_label : str or None
        Legend text for the constraint curve.
    contour_labels : bool, default=False
        Write the value of ``f`` on the contour lines.
    equal : bool, default=True
        Use equal scales on both axes (so that right angles look right).

    Returns
    -------
    ax : matplotlib Axes
    """
    ax = _get_ax(ax)
    X, Y = _mesh(xlim, ylim, grid)
    Z = np.asarray(f(X, Y), dtype=float)
    filled = ax.contourf(X, Y, Z, levels=levels, cmap=CONTOUR_CMAP, zorder=0)
    lines = ax.contour(X, Y, Z, levels=filled.levels, colors="#8c8c8c",
                       linewidths=0.6, linestyles="solid", zorder=1)
    if contour_labels:
        ax.clabel(lines, inline=True, fontsize=7, fmt="%.2g")
    if g is not None:
        G = np.asarray(g(X, Y), dtype=float)
        if region:
            ax.contourf(X, Y, G, levels=[G.min() - 1.0, 0.0], colors=[GRADIENT_COLORS["g"]],
                        alpha=0.16, zorder=1.5)
        ax.contour(X, Y, G, levels=[0.0], colors=[GRADIENT_COLORS["g"]], linewidths=2.2,
                   zorder=2)
        if constraint_label:
            ax.plot([], [], color=GRADIENT_COLORS["g"], linewidth=2.2, label=constraint_label)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    if equal:
        ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("$x$")
    ax.set_ylabel("$y$")
    return ax


def plot_gradient_arrows(point, grad_f=None, grad_g=None, ax=None, length=0.7,
                         labels=True, normalize=True, g_scale=0.6, g_label=r"$\nabla g$"):
    """Draw ``∇f`` (green) and ``∇g`` (purple) as arrows starting at ``point``.

    Parameters
    ----------
    point : array-like of shape (2,)
        Where the arrows start.
    grad_f, grad_g : array-like of shape (2,) or None
        The gradient vectors at ``point``; ``None`` skips that arrow.
    ax : matplotlib Axes, optional
    length : float, default=0.7
        Arrow length in data units when ``normalize`` is true.
    labels : bool, default=True
        Write "∇f" and "∇g" next to the arrow heads.
    normalize : bool, default=True
        Draw unit directions scaled to ``length`` (gradients vary wildly in
        size; what matters here is their direction).  A zero gradient is
        drawn as nothing.
    g_scale : float, default=0.6
        The ``∇g`` arrow is this many times as long as the ``∇f`` arrow, so
        that two parallel gradients pointing the same way stay visible.
    g_label : str, default="$\\nabla g$"
        Label of the constraint's gradient (e.g. ``"$\\nabla c$"`` for an
        inequality constraint ``c <= 0``).

    Returns
    -------
    ax : matplotlib Axes
    """
    ax = _get_ax(ax)
    p = np.asarray(point, dtype=float).reshape(2)
    for vec, key, text, scale in ((grad_f, "f", r"$\nabla f$", 1.0),
                                  (grad_g, "g", g_label, g_scale)):
        if vec is None:
            continue
        v = np.asarray(vec, dtype=float).reshape(2)
        norm = float(np.hypot(*v))
        if norm < 1e-12:
            continue
        d = v / norm * length * scale if normalize else v
        ax.annotate("", xy=p + d, xytext=p, zorder=8,
                    arrowprops=dict(arrowstyle="-|>", color=GRADIENT_COLORS[key],
                                    linewidth=2.0, mutation_scale=14, shrinkA=0, shrinkB=0))
        if labels:
            ax.text(*(p + 1.22 * d), text, color=GRADIENT_COLORS[key], fontsize=11,
                    ha="center", va="center", zorder=8)
    return ax


def plot_stationary_points(points, values=None, ax=None, best=None, fmt="f = {:.3g}",
                           offset=(8, 6)):
    """Mark stationary points (black dots) and the optimum (gold stars).

    Parameters
    ----------
    points : array-like of shape (n_points, 2)
    values : array-like of shape (n_points,) or None
        Values of the objective, written next to each point with ``fmt``.
    ax : matplotlib Axes, optional
    best : array-like of int or None
        Indices of the optimal points, drawn as stars.
    fmt : str, default="f = {:.3g}"
    offset : (float, float), default=(8, 6)
        Offset of the annotations in points.

    Returns
    -------
    ax : matplotlib Axes
    """
    ax = _get_ax(ax)
    P = np.asarray(points, dtype=float).reshape(-1, 2)
    best = set() if best is None else {int(i) for i in np.atleast_1d(best)}
    for i, p in enumerate(P):
        style = _STAR if i in best else _DOT
        ax.scatter([p[0]], [p[1]], **style)
        if values is not None:
            v = float(np.asarray(values, dtype=float).reshape(-1)[i]) + 0.0
            ax.annotate(fmt.format(v), p, xytext=offset, textcoords="offset points",
                        fontsize=9, zorder=9,
                        bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85))
    return ax


def plot_along_constraint(phi, ts, ax=None, marks=None, xlabel="$t$",
                          ylabel="$f(\\mathbf{x}(t))$", degrees=False):
    """The objective along a parametrized constraint, ``t -> f(x(t))``.

    Parameters
    ----------
    phi : callable
        ``phi(t)`` = the objective at the curve point with parameter ``t``
        (vectorized over an array of ``t``).
    ts : array-like of shape (n_t,)
        Parameter values to plot.
    ax : matplotlib Axes, optional
    marks : array-like of shape (n_marks,) or None
        Parameters of stationary points, marked with dots.
    xlabel, ylabel : str
    degrees : bool, default=False
        Label the ``t`` axis in degrees (ticks every 90).

    Returns
    -------
    ax : matplotlib Axes
    """
    ax = _get_ax(ax)
    ts = np.asarray(ts, dtype=float)
    ax.plot(ts, phi(ts), color="black", linewidth=1.6)
    ax.axhline(0.0, color="#9a9a9a", linewidth=0.7, zorder=0)
    if marks is not None:
        m = np.asarray(marks, dtype=float)
        ax.scatter(m, phi(m), **_DOT)
    if degrees:
        ax.set_xticks(np.arange(ts.min() - ts.min() % 90, ts.max() + 1, 90))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return ax


def plot_lagrangian_saddle(L, xlim, mulim, saddle=None, ax=None, argmin=None,
                           levels=18, grid=160):
    """Contours of a Lagrangian ``L(x, mu)`` of one primal variable and one multiplier.

    Parameters
    ----------
    L : callable
        ``L(x, mu)`` elementwise on meshgrids.
    xlim, mulim : (float, float)
        Ranges of ``x`` (horizontal) and ``mu`` (vertical, ``mu >= 0``).
    saddle : array-like of shape (2,) or None
        The saddle point ``(x*, mu*)``, drawn as a gold star.
    ax : matplotlib Axes, optional
    argmin : callable or None
        ``mu -> argmin_x L(x, mu)``; drawn as a dashed green curve (where the
        inner minimization of the dual function lands).
    levels : int, default=18
    grid : int, default=160

    Returns
    -------
    ax : matplotlib Axes
    """
    ax = _get_ax(ax)
    X, M = _mesh(xlim, mulim, grid)
    Z = np.asarray(L(X, M), dtype=float)
    filled = ax.contourf(X, M, Z, levels=levels, cmap=CONTOUR_CMAP, zorder=0)
    lines = ax.contour(X, M, Z, levels=filled.levels, colors="#8c8c8c", linewidths=0.6,
                       linestyles="solid")
    ax.clabel(lines, inline=True, fontsize=7, fmt="%.2g")
    if argmin is not None:
        mus = np.linspace(float(mulim[0]), float(mulim[1]), 200)
        xs = np.asarray(argmin(mus), dtype=float)
        keep = (xs >= xlim[0]) & (xs <= xlim[1])
        ax.plot(xs[keep], mus[keep], color=GRADIENT_COLORS["f"], linestyle="--", linewidth=1.8,
                label=r"$\arg\min_x \mathcal{L}(x, \mu)$")
    if saddle is not None:
        s = np.asarray(saddle, dtype=float).reshape(2)
        ax.scatter([s[0]], [s[1]], label="saddle point", **_STAR)
    ax.set_xlim(*xlim)
    ax.set_ylim(*mulim)
    ax.set_xlabel("$x$")
    ax.set_ylabel(r"$\mu$")
    return ax


def plot_dual_function(q, mus, p_star=None, ax=None, mu_star=None, label=None,
                       color="black"):
    """The dual function ``q(mu)`` with the primal optimum ``p*`` as a dashed line.

    Parameters
    ----------
    q : callable
        ``q(mu)`` vectorized over an array of multipliers.
    mus : array-like of shape (n_mu,)
        Multipliers to plot (``mu >= 0``).
    p_star : float or None
        The primal optimal value; the gap ``p* - q(mu)`` is shaded.
    ax : matplotlib Axes, optional
    mu_star : float or None
        The dual optimum, marked with a gold star.
    label : str or None
        Legend text for the curve.
    color : str, default="black"

    Returns
    -------
    ax : matplotlib Axes
    """
    ax = _get_ax(ax)
    mus = np.asarray(mus, dtype=float)
    qs = np.asarray(q(mus), dtype=float)
    ax.plot(mus, qs, color=color, linewidth=1.8, label=label or r"$q(\mu)$")
    if p_star is not None:
        ax.axhline(float(p_star), color=GRADIENT_COLORS["f"], linestyle="--", linewidth=1.4,
                   label=f"$p^* = {float(p_star):.3g}$")
        ax.fill_between(mus, qs, float(p_star), where=qs <= float(p_star), color="#cfcfcf",
                        alpha=0.5, linewidth=0, label=r"gap $p^* - q(\mu)$")
    if mu_star is not None:
        ax.scatter([float(mu_star)], [float(q(np.array([float(mu_star)]))[0])], **_STAR)
    ax.set_xlabel(r"$\mu$")
    ax.set_ylabel(r"$q(\mu)$")
    return ax


def plot_active_cone(A, e, a, x_star, ax=None, xlim=(-0.5, 2.5), ylim=(-0.5, 2.5), length=0.8):
    """A polygon ``A x <= e``, the point ``a`` and the cone of the active gradients at ``x*``.

    For ``min ||x - a||^2`` subject to the linear constraints ``A x <= e``, the
    KKT conditions say that ``-grad f(x*) = 2 (a - x*)`` lies in the cone
    spanned by the gradients (the rows of ``A``) of the constraints active at
    ``x*``.  The figure shades the feasible region, draws every constraint
    line, shades that cone at ``x*`` (a wedge when two constraints are active,
    a ray when one is), and draws ``-grad f`` (green) and each active gradient
    (purple), all scaled to ``length``.  Book: (eq-kkt-stationarity).

    Parameters
    ----------
    A : array-like of shape (m, 2)
    e : array-like of shape (m,)
    a : array-like of shape (2,)
    x_star : array-like of shape (2,)
        The minimizer; a constraint is active where ``|A x* - e| < 1e-9``.
    ax : matplotlib Axes, optional
    xlim, ylim : (float, float)
    length : float, default=0.8

    Returns
    -------
    ax : matplotlib Axes
    """
    from matplotlib.patches import Polygon

    ax = _get_ax(ax)
    A, e = np.asarray(A, dtype=float), np.asarray(e, dtype=float)
    a, x_star = np.asarray(a, dtype=float), np.asarray(x_star, dtype=float)
    xx, yy = _mesh(xlim, ylim, 300)
    inside = np.all(np.tensordot(A, np.stack([xx, yy]), axes=1) <= e[:, None, None], axis=0)
    ax.contourf(xx, yy, inside.astype(float), levels=[0.5, 1.5], colors=["#e8e1f0"])
    ts = np.linspace(min(xlim[0], ylim[0]) - 5, max(xlim[1], ylim[1]) + 5, 2)
    for row, level in zip(A, e):
        d = np.array([-row[1], row[0]])
        base = row * level / (row @ row)
        line = base[None, :] + ts[:, None] * d[None, :]
        ax.plot(line[:, 0], line[:, 1], color=GRADIENT_COLORS["g"], linewidth=1.0)
    active = np.flatnonzero(np.abs(A @ x_star - e) < 1e-9)
    units = [A[i] / np.linalg.norm(A[i]) for i in active]
    if len(units) >= 2:
        wedge = [x_star, x_star + 2 * length * units[0], x_star + 2 * length * units[1]]
        ax.add_patch(Polygon(wedge, closed=True, facecolor="#b7e4b0", edgecolor="none",
                             alpha=0.8, zorder=1, label="cone of the active gradients"))
    for u in units:
        ax.annotate("", xy=tuple(x_star + length * u), xytext=tuple(x_star),
                    arrowprops=dict(arrowstyle="-|>", color=GRADIENT_COLORS["g"], linewidth=1.5))
    descent = a - x_star
    if np.linalg.norm(descent) > 0:
        tip = x_star + length * descent / np.linalg.norm(descent)
        ax.annotate("", xy=tuple(tip), xytext=tuple(x_star),
                    arrowprops=dict(arrowstyle="-|>", color=GRADIENT_COLORS["f"], linewidth=2.0))
    ax.scatter(*a, marker="x", s=60, color="black", zorder=6, label=r"$\mathbf{a}$")
    ax.scatter(*x_star, **_STAR, label=r"$\mathbf{x}^*$")
    ax.plot([], [], color=GRADIENT_COLORS["f"], linewidth=2.0, label=r"$-\nabla f(\mathbf{x}^*)$")
    ax.plot([], [], color=GRADIENT_COLORS["g"], linewidth=1.5, label=r"active $\nabla c_i$")
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    return ax
