"""Interactive figures of chapter 04, Lagrange multipliers and KKT conditions.

* :func:`constraint_explorer` -- walk along a constraint curve ``g = 0`` over
  the contours of ``f`` and watch ``∇f``, ``∇g``, the angle between them and
  the rate of change of ``f`` along the curve; they line up exactly at the
  stationary points (Book: (eq-parallel-gradients)).
* :func:`price_explorer` -- Example A with the level ``c`` of its constraint
  on a slider: the best point, the optimal value ``f*(c)`` and its slope
  ``-lambda*``; the multiplier as the price of the constraint
  (Book: (eq-multiplier-sensitivity)); a widget exercise: find the level
  at which the constraint costs nothing.
* :func:`example_b_exercise` -- the chapter's second worked example as a
  widget exercise (find the constrained maximum of ``x^2 y`` on the circle
  ``x^2 + y^2 = 3``).
* :func:`kkt_disk_explorer` -- move the target ``a`` of ``min ||x - a||^2``
  subject to ``||x||^2 <= 1`` and watch the constraint switch between active
  and inactive, with the multiplier and complementary slackness
  (Book: (eq-kkt-slackness)).
"""

import html

import numpy as np
from matplotlib.patches import Circle, FancyArrowPatch

from ..plotting._core import style
from ..plotting.lagrange_kkt import (GRADIENT_COLORS, plot_constrained_contours,
                                     plot_stationary_points)
from ._core import InteractiveFigure, Slider

__all__ = [
    "gradient_angle",
    "constraint_explorer",
    "price_explorer",
    "example_b_exercise",
    "kkt_disk_explorer",
    "EXAMPLE_B_ANGLES",
]

_PARALLEL_DEG = 0.05  # gradients count as parallel within this many degrees
_ARROW = dict(arrowstyle="-|>", mutation_scale=14, linewidth=2.0, shrinkA=0, shrinkB=0,
              zorder=8)


def _num(v, digits=3):
    """A number rounded for a readout, with the minus sign of typography and no -0."""
    text = f"{round(float(v), digits) + 0.0:.{digits}f}"
    return text.replace("-", "\u2212")


def _pt(p, digits=3):
    return "(" + ", ".join(_num(v, digits) for v in p) + ")"


def gradient_angle(u, v):
    """Angle between two vectors in degrees, in [0, 180]; ``nan`` if one is zero.

    Parameters
    ----------
    u, v : array-like of shape (2,)

    Returns
    -------
    float
        0 when they point the same way, 180 when opposite.
    """
    u = np.asarray(u, dtype=float)
    v = np.asarray(v, dtype=float)
    nu, nv = np.linalg.norm(u), np.linalg.norm(v)
    if nu < 1e-12 or nv < 1e-12:
        return float("nan")
    c = np.clip(float(u @ v) / (nu * nv), -1.0, 1.0)
    return float(np.degrees(np.arccos(c)))


def _freeze_layout(fig):
    """Lay the figure out once, then keep that layout (every frame draws faster)."""
    fig.canvas.draw()
    fig.set_layout_engine("none")


def _arrow(ax, color):
    arrow = FancyArrowPatch((0, 0), (0, 0), color=color, **_ARROW)
    ax.add_patch(arrow)
    return arrow


def _set_arrow(arrow, label, p, v, length):
    """Point ``arrow`` from ``p`` along ``v`` (unit length ``length``); hide it if v = 0."""
    norm = float(np.hypot(*v))
    if norm < 1e-12:
        arrow.set_visible(False)
        label.set_visible(False)
        return
    d = np.asarray(v, dtype=float) / norm * length
    arrow.set_positions(tuple(p), tuple(p + d))
    arrow.set_visible(True)
    label.set_position(tuple(p + 1.25 * d))
    label.set_visible(True)


def constraint_explorer(example, curve, ts, xlim=(-2.0, 2.0), ylim=(-2.0, 2.0),
                        label="position t on the constraint", fmt="{:g}", value=None,
                        goal_points=None, goal_text=None, success_message=None,
                        title=None, levels=14, arrow_length=0.6, figsize=(5.4, 4.2),
                        show_points=False):
    """Walk along a constraint curve and watch the two gradients line up.

    The figure shows the contours of ``f``, the curve ``g = 0``, the current
    point ``x(t)`` and the directions of ``∇f`` (green) and ``∇g`` (purple)
    there.  The readout gives ``f(x(t))``, the angle between the gradients,
    and the rate of change of ``f`` along the curve, ``<∇f, τ>`` with ``τ``
    the unit tangent (``∇g`` turned by +90 degrees).  At a stationary point
    the rate is 0 and the angle is 0 or 180 degrees; the readout then gives
    the multiplier ``λ`` of ``∇f = -λ ∇g`` (Book: (eq-parallel-gradients)).

    Parameters
    ----------
    example : dict
        With callables ``f``, ``g``, ``grad_f``, ``grad_g`` of ``(x, y)``, as
        returned by :func:`svmlib.datasets.lagrange_example_a` and
        :func:`~svmlib.datasets.lagrange_example_b`.
    curve : callable
        ``curve(t) -> (x, y)``: a parametrization of ``g = 0``.
    ts : sequence of float
        The slider's grid of parameters (keep it to about 60 values).
    xlim, ylim : (float, float)
        The window.
    label : str
        The slider's label.
    fmt : str or callable
        How the slider shows ``t``.
    value : float, optional
        Initial ``t`` (one of ``ts``); default the first.
    goal_points : array-like of shape (k, 2), optional
        Points that reach the goal (a widget exercise): the readout shows
        ``success_message`` when ``x(t)`` is within 1e-6 of one of them.
    goal_text, success_message : str, optional
        The stated goal and the success text.
    title : str, optional
    levels : int or sequence of float, default=14
        Contour levels of ``f``.
    arrow_length : float, default=0.6
        Length of the (normalized) ``∇f`` arrow in data units; the ``∇g``
        arrow is 0.6 times as long, so that parallel arrows stay visible.
    figsize : (float, float), default=(5.4, 4.2)
    show_points : bool, default=False
        Mark the known stationary points ``example["points"]`` (off by
        default: the reader is meant to find them).

    Returns
    -------
    InteractiveFigure
    """
    f, g = example["f"], example["g"]
    grad_f, grad_g = example["grad_f"], example["grad_g"]
    ts = [float(t) for t in ts]
    cache = {}
    for t in ts:                                   # precompute every setting once
        p = np.asarray(curve(t), dtype=float).reshape(2)
        gf = np.asarray(grad_f(p[0], p[1]), dtype=float).reshape(2)
        gg = np.asarray(grad_g(p[0], p[1]), dtype=float).reshape(2)
        cache[t] = (p, float(f(p[0], p[1])), gf, gg)

    def setup(fig):
        with style():
            ax = fig.add_subplot()
            plot_constrained_contours(f, g, ax=ax, xlim=xlim, ylim=ylim, levels=levels,
                                      contour_labels=True, grid=140)
            if show_points and "points" in example:
                plot_stationary_points(example["points"], ax=ax)
            (dot,) = ax.plot([], [], "o", color="black", markersize=8, zorder=9)
            arrows = {k: _arrow(ax, GRADIENT_COLORS[k]) for k in ("f", "g")}
            texts = {k: ax.text(0, 0, rf"$\nabla {k}$", color=GRADIENT_COLORS[k], fontsize=12,
                                ha="center", va="center", zorder=9) for k in ("f", "g")}
        _freeze_layout(fig)
        return dict(ax=ax, dot=dot, arrows=arrows, texts=texts)

    def on_goal(t):
        if goal_points is None:
            return False
        p = cache[float(t)][0]
        return bool(np.any(np.all(np.abs(np.asarray(goal_points) - p) < 1e-6, axis=1)))

    def update(state, t):
        p, fval, gf, gg = cache[float(t)]
        state["dot"].set_data([p[0]], [p[1]])
        for key, vec, scale in (("f", gf, 1.0), ("g", gg, 0.6)):
            _set_arrow(state["arrows"][key], state["texts"][key], p, vec, scale * arrow_length)
        tangent = np.array([-gg[1], gg[0]]) / np.hypot(*gg)
        rate = float(gf @ tangent)
        angle = gradient_angle(gf, gg)
        lines = [f"point {_pt(p)}, f = {_num(fval)}"]
        if np.isnan(angle):
            lines.append("∇f = 0 here: f is stationary along the curve, λ = 0.")
        else:
            lines.append(f"angle between ∇f and ∇g: {angle:.1f}°; rate of change of f "
                         f"along the curve: {_num(rate)}")
            if min(angle, 180.0 - angle) < _PARALLEL_DEG:
                lam = -float(gf @ gg) / float(gg @ gg)
                lines.append(f"<b>The gradients are parallel</b>: a stationary point, "
                             f"∇f = −λ∇g with λ = {_num(lam, 2)}.")
            else:
                way = "increasing" if rate > 0 else "decreasing"
                lines.append(f"Not parallel: f grows by moving along the curve in the "
                             f"direction of {way} t.")
        return "<br>".join(lines)

    ctrl = Slider(ts, label, value=value, fmt=fmt)
    kwargs = {}
    if goal_points is not None:
        kwargs = dict(goal=on_goal, goal_text=goal_text,
                      success_message=success_message or "Goal reached.")
    return InteractiveFigure(setup, update, {"t": ctrl}, figsize=figsize, title=title, **kwargs)


def price_explorer(example, levels=None, figsize=(7.6, 3.6)):
    """Example A with a moving constraint: the multiplier as the price of the level.

    The constraint of Example A, ``x - y = 1``, becomes ``x - y = c`` with
    the level ``c`` on a slider.  Left: the contours of ``f = 1 - x^2 - y^2``,
    the line ``x - y = c``, its best point ``x*(c) = (c/2, -c/2)`` (the point
    of the line closest to the origin) and the gradients there.  Right: the
    optimal value ``f*(c) = 1 - c^2/2`` with the current level marked and the
    tangent of slope ``-lambda*(c)``, where ``lambda*(c) = c`` is the
    multiplier of ``L = f + lambda (g - c)`` with ``g = x - y``.  The readout
    gives the best point, ``f*``, ``lambda*`` and the rate ``df*/dc``
    (Book: (eq-multiplier-sensitivity)).  The goal asks for a prediction:
    the level at which raising it by ``δ`` gains about ``δ``
    (``df*/dc = +1``, so ``lambda* = -1``, at ``c = -1``).

    Parameters
    ----------
    example : dict
        :func:`svmlib.datasets.lagrange_example_a` (its ``f``, ``grad_f``).
    levels : sequence of float, optional
        The levels ``c``; default -1.5 to 2.5 in steps of 0.25 (17 values).
    figsize : (float, float), default=(7.6, 3.6)

    Returns
    -------
    InteractiveFigure
    """
    f, grad_f = example["f"], example["grad_f"]
    if levels is None:
        levels = np.round(np.arange(-1.5, 2.5001, 0.25), 2)
    levels = [float(c) for c in levels]
    if not levels or not all(np.isfinite(levels)):
        raise ValueError(f"levels must be a non-empty list of finite numbers; got {levels}.")
    normal = np.array([1.0, -1.0])                  # grad of g(x, y) = x - y, everywhere
    cache = {}
    for c in levels:
        best = c * normal / 2.0                      # the point of x - y = c closest to 0
        gf = np.asarray(grad_f(*best), dtype=float).reshape(2)
        lam = -float(gf @ normal) / float(normal @ normal)   # grad f = -lambda grad g
        cache[c] = (best, float(f(*best)), gf, lam)
    c_grid = np.linspace(min(levels) - 0.25, max(levels) + 0.25, 200)
    xlim, ylim = (-2.0, 2.0), (-2.0, 2.0)

    def setup(fig):
        with style():
            left, right = fig.subplots(1, 2, width_ratios=[1.1, 1])
            gx, gy = np.meshgrid(np.linspace(*xlim, 140), np.linspace(*ylim, 140))
            cs = left.contour(gx, gy, f(gx, gy), levels=[-5.0, -3.0, -2.0, -1.0, 0.0, 0.5, 0.8],
                              colors="#9e9e9e", linewidths=0.8, zorder=1)
            left.clabel(cs, fontsize=7, fmt="%.1f")
            left.plot([0], [0], "+", color="#555555", markersize=9, zorder=2)
            (line,) = left.plot([], [], color="#6a1b9a", linewidth=2.0, zorder=3)
            (dot,) = left.plot([], [], "o", color="black", markersize=7, zorder=9)
            arrows = {k: _arrow(left, GRADIENT_COLORS[k]) for k in ("f", "g")}
            texts = {k: left.text(0, 0, rf"$\nabla {k}$", color=GRADIENT_COLORS[k], fontsize=11,
                                  ha="center", va="center", zorder=9) for k in ("f", "g")}
            left.set_xlim(*xlim)
            left.set_ylim(*ylim)
            left.set_aspect("equal")
            left.set_xlabel("$x$")
            left.set_ylabel("$y$")
            right.plot(c_grid, 1.0 - c_grid ** 2 / 2.0, color="black", linewidth=1.6, zorder=2)
            (tangent,) = right.plot([], [], color="#c62828", linewidth=1.4,
                                    linestyle=(0, (4, 3)), zorder=3)
            (mark,) = right.plot([], [], "o", color="#c62828", markersize=7, zorder=4)
            right.set_xlabel("level $c$ of the constraint $x - y = c$")
            right.set_ylabel("optimal value $f^*(c)$")
            right.set_title("slope of $f^*$ = $-\\lambda^*$", fontsize=10)
            right.set_ylim(-3.0, 1.4)
        _freeze_layout(fig)
        return dict(line=line, dot=dot, arrows=arrows, texts=texts, tangent=tangent, mark=mark)

    def update(state, c):
        best, fval, gf, lam = cache[float(c)]
        # the line x - y = c: through best, along (1, 1)
        state["line"].set_data([best[0] - 3.0, best[0] + 3.0], [best[1] - 3.0, best[1] + 3.0])
        state["dot"].set_data([best[0]], [best[1]])
        for key, vec, scale in (("f", gf, 1.0), ("g", normal, 0.6)):
            _set_arrow(state["arrows"][key], state["texts"][key], best, vec, scale * 0.6)
        state["mark"].set_data([c], [fval])
        run = np.array([c - 0.6, c + 0.6])
        state["tangent"].set_data(run, fval - lam * (run - c))
        if abs(lam) < 1e-12:
            verdict = ("λ* = 0: the line passes through the unconstrained maximum, so the "
                       "constraint does not bind and relaxing it gains nothing.")
        else:
            way = "raises" if -lam > 0 else "lowers"
            verdict = (f"Moving the level up by a small δ {way} the best value by about "
                       f"{abs(lam):.2f} δ.")
        return (f"level c = {c + 0.0:.2f}: best point {_pt(best, 2)}, f* = {_num(fval)}, "
                f"multiplier λ* = {_num(lam, 2)}, df*/dc = −λ* = {_num(-lam, 2)}.<br>{verdict}")

    def gains_one(c):
        # the level where raising c by a small δ raises f* by about δ: df*/dc = -λ* = +1
        return abs(cache[float(c)][3] + 1.0) < 1e-12

    has_goal = any(gains_one(c) for c in levels)
    return InteractiveFigure(
        setup, update,
        {"c": Slider(levels, "level c", value=1.0 if 1.0 in levels else levels[0], fmt="{:+.2f}")},
        goal=gains_one if has_goal else None,
        goal_text=("predict before you move: from f*(c) = 1 − c²/2, at which level c does raising "
                   "the level by a small δ <i>gain</i> about δ in the best value? Then move there and "
                   "read the sign of λ*." if has_goal else None),
        success_message=("At c = −1 the multiplier is λ* = −1: a negative price, because moving "
                         "the line up brings its best point closer to the origin, where f is "
                         "largest. An equality constraint's multiplier may have either sign; only "
                         "an inequality's is forced to be ≥ 0."),
        figsize=figsize, title="Example A: the price of the constraint")


#: The slider grid of :func:`example_b_exercise`: every 6 degrees.  No stop
#: sits at the maxima (t = 35.26 and 144.74 degrees) or the minima, so the
#: grid does not give the answer away: the reader brackets the maximum
#: between two stops where the rate of change of f changes sign.
EXAMPLE_B_ANGLES = np.arange(0.0, 360.0, 6.0)


def example_b_exercise(example):
    """Example B as a widget exercise: find the maximum of ``x^2 y`` on ``x^2 + y^2 = 3``.

    Parameters
    ----------
    example : dict
        :func:`svmlib.datasets.lagrange_example_b`.

    Returns
    -------
    InteractiveFigure
        One slider, the angle ``t`` of the point ``sqrt(3) (cos t, sin t)``
        (:data:`EXAMPLE_B_ANGLES`, 60 values); the goal is met at the stops
        where ``f`` is largest (36 and 144 degrees, next to the maxima
        ``(±sqrt 2, 1)`` at 35.26 and 144.74 degrees, which the success
        message then names).
    """
    r = np.sqrt(3.0)

    def curve(t):
        return r * np.cos(np.radians(t)), r * np.sin(np.radians(t))

    values = np.array([example["f"](*curve(t)) for t in EXAMPLE_B_ANGLES])
    best = np.array([curve(t) for t in EXAMPLE_B_ANGLES[values >= values.max() - 1e-9]])
    return constraint_explorer(
        example, curve,
        EXAMPLE_B_ANGLES, xlim=(-2.7, 2.7), ylim=(-2.2, 2.2),
        levels=[-13, -6, -4, -3, -2, -1, -0.5, 0, 0.5, 1, 2, 3, 4, 6, 13],
        label="angle t on the circle", fmt="{:.0f}°", value=0.0, goal_points=best,
        goal_text="move the point along the circle x² + y² = 3 to where x²y is largest.",
        success_message=(f"The best stop of the slider: f = {values.max():.3f}. The rate of "
                         f"change of f flips sign between this stop and a neighbour, so the "
                         f"exact maximum lies in between: f = 2 at (±√2, 1), t ≈ 35.3° or "
                         f"144.7°, where ∇f = −λ∇g with λ = −1. The algebra below finds it "
                         f"exactly."),
        title="Example B: maximize x²y on the circle x² + y² = 3", arrow_length=0.9)


def kkt_disk_explorer(radii=(0.3, 0.6, 1.0, 1.3, 1.6, 2.0),
                      angles=(0, 45, 90, 135, 180, 225, 270, 315), figsize=(5.0, 4.2)):
    """Minimize ``||x - a||^2`` subject to ``c(x) = ||x||^2 - 1 <= 0``: move ``a``.

    The solution is ``x* = a`` with ``mu* = 0`` when ``||a|| <= 1`` (the
    constraint is inactive) and ``x* = a / ||a||`` with ``mu* = ||a|| - 1``
    otherwise (active); in both cases ``mu* c(x*) = 0``.  The figure shows
    the unit disk, contour circles of ``f`` around ``a``, the solution and,
    when the constraint is active, ``∇f`` and ``∇c`` pointing in opposite
    directions (``∇f = -mu ∇c``).

    Parameters
    ----------
    radii : sequence of float
        Grid of ``||a||``.
    angles : sequence of float
        Grid of the direction of ``a`` in degrees.
    figsize : (float, float)

    Returns
    -------
    InteractiveFigure
        Two sliders (``radius``, ``angle``).
    """
    contour_radii = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5)

    def solve(radius, angle):
        a = radius * np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
        mu = max(0.0, radius - 1.0)
        x = a / (1.0 + mu)
        return a, x, mu

    def setup(fig):
        with style():
            ax = fig.add_subplot()
            ax.add_patch(Circle((0, 0), 1.0, facecolor=GRADIENT_COLORS["g"], alpha=0.16,
                                edgecolor=GRADIENT_COLORS["g"], linewidth=2.2, zorder=1))
            ax.text(0.0, -0.55, r"feasible: $\|x\|^2 \leq 1$", ha="center",
                    color=GRADIENT_COLORS["g"], fontsize=10)
            rings = [ax.add_patch(Circle((0, 0), r, fill=False, edgecolor="#8c8c8c",
                                         linewidth=0.8, zorder=2)) for r in contour_radii]
            (target,) = ax.plot([], [], "x", color="black", markersize=9, mew=2, zorder=9)
            (sol,) = ax.plot([], [], "*", color="#f2b600", markeredgecolor="black",
                             markersize=16, zorder=10)
            tlabel = ax.text(0, 0, "$a$", fontsize=12, zorder=10)
            arrows = {k: _arrow(ax, GRADIENT_COLORS[k]) for k in ("f", "g")}
            texts = {"f": ax.text(0, 0, r"$\nabla f$", color=GRADIENT_COLORS["f"], fontsize=12,
                                  ha="center", va="center", zorder=9),
                     "g": ax.text(0, 0, r"$\nabla c$", color=GRADIENT_COLORS["g"], fontsize=12,
                                  ha="center", va="center", zorder=9)}
            ax.set_xlim(-2.4, 2.4)
            ax.set_ylim(-2.3, 2.3)
            ax.set_aspect("equal", adjustable="box")
            ax.set_xlabel("$x_1$")
            ax.set_ylabel("$x_2$")
        _freeze_layout(fig)
        return dict(rings=rings, target=target, sol=sol, tlabel=tlabel, arrows=arrows,
                    texts=texts)

    def update(state, radius, angle):
        a, x, mu = solve(radius, angle)
        for ring in state["rings"]:
            ring.set_center(tuple(a))
        state["target"].set_data([a[0]], [a[1]])
        state["tlabel"].set_position((a[0] + 0.1, a[1] + 0.1))
        state["sol"].set_data([x[0]], [x[1]])
        gf, gh = 2.0 * (x - a), 2.0 * x
        active = radius >= 1.0 - 1e-12
        _set_arrow(state["arrows"]["f"], state["texts"]["f"], x, gf, 0.8)
        if active:
            _set_arrow(state["arrows"]["g"], state["texts"]["g"], x, gh, 0.5)
        else:
            state["arrows"]["g"].set_visible(False)
            state["texts"]["g"].set_visible(False)
        h = float(x @ x - 1.0)
        fval = float((x - a) @ (x - a))
        head = (f"a = {_pt(a, 2)}, ‖a‖ = {_num(radius, 2)}: solution x* = {_pt(x)}, "
                f"f(x*) = {_num(fval)}")
        kkt = f"c(x*) = {_num(h)}, μ* = {_num(mu)}, μ*·c(x*) = {_num(mu * h)}"
        if radius > 1.0 + 1e-12:
            verdict = ("<b>Active</b>: x* is on the circle, ∇f = −μ*∇c with μ* = ‖a‖ − 1 > 0 "
                       "(the gradients point in opposite directions).")
        elif radius < 1.0 - 1e-12:
            verdict = ("<b>Inactive</b>: a is feasible, so x* = a, ∇f(x*) = 0 and μ* = 0; the "
                       "constraint plays no role.")
        else:
            verdict = ("<b>Active but μ* = 0</b>: a lies on the circle, the constraint holds "
                       "with equality yet costs nothing.")
        return f"{html.escape(head)}<br>{html.escape(kkt)}<br>{verdict}"

    controls = {
        "radius": Slider([float(r) for r in radii], "‖a‖", value=float(radii[-1]),
                         fmt="{:.1f}"),
        "angle": Slider([float(t) for t in angles], "direction of a", value=float(angles[1]),
                        fmt="{:.0f}°"),
    }
    return InteractiveFigure(setup, update, controls, figsize=figsize,
                             title="KKT: closest point of the unit disk to a")
