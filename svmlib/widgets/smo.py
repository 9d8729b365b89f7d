"""Interactive figures of the SMO chapter.

Book: chapter ``ch-smo``.

* :func:`smo_stepper` steps through the pair updates of
  :func:`svmlib.solvers.solve_dual_smo` on a small linear problem, for the
  first- and the second-order working-set rule: the pair chosen, the
  multipliers as bars, the hyperplane moving, and the violation and
  objective in the readout;
* :func:`pair_update_exercise` is a widget exercise: slide the pair along
  its constraint line and find the best feasible point (the clipped
  update) for three pair subproblems.

Every run is computed once when the figure is built; moving a control only
moves artists.
"""

import numpy as np

from .._validation import check_array, check_positive
from ..plotting._core import CLASS_COLORS, CLASS_MARKERS
from ..plotting.smo import PAIR_COLORS, _pair_line, _pair_quadratic, pair_step, smo_states
from ..smo import solve_dual_smo
from ._core import Choice, InteractiveFigure, Slider, Stepper

__all__ = ["smo_stepper", "pair_update_exercise", "default_pair_cases"]

_RULES = {"second order (LIBSVM)": "second_order", "first order (max violating pair)":
          "first_order"}


def _fmt(t, digits=3):
    """A rounded number with a typographic minus sign."""
    return f"{round(float(t), digits) + 0.0:g}".replace("-", "\u2212")


def _line_points(w, b):
    p = -b * w / (w @ w)
    return tuple(p), tuple(p + np.array([-w[1], w[0]]))


def _set_axline(line, w, b, level=0.0):
    """Move an axline to {x : <w, x> + b = level}; hide it when w = 0."""
    if np.any(w):
        p, q = _line_points(w, b - level)
        line.set_xy1(p)
        line.set_xy2(q)
        line.stale = True        # set_xy1/set_xy2 do not mark the artist as changed
        line.set_visible(True)
    else:
        line.set_visible(False)


def smo_stepper(X, y, C=1.0, tol=1e-3, rules=None, max_steps=40, figsize=(7.8, 3.5),
                dpi=82):
    """Step through SMO's pair updates on a small two-dimensional problem.

    The linear-kernel dual is solved by :func:`svmlib.solvers.solve_dual_smo`
    (without shrinking, so that every update is on the whole problem) with
    each working-set rule; the figure replays the recorded trace.  Left: the
    data, the hyperplane of the current multipliers with its margins, the
    points with ``alpha_i > 0`` ringed and the pair just updated (``i`` red,
    ``j`` green).  Right: the multipliers as bars, the pair highlighted, the
    bound ``C`` dashed.  Book: (alg-smo), (eq-smo-stopping).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    C : float, default=1.0
    tol : float, default=1e-3
        The solver's stopping tolerance.
    rules : dict, optional
        ``{label: selection}``; default both rules.
    max_steps : int, default=40
        At most this many updates are shown per run.
    figsize : (float, float), default=(7.8, 3.5)
    dpi : int, default=82

    Returns
    -------
    InteractiveFigure
        Controls ``rule`` (Choice) and ``step`` (Stepper).  The replayed
        states are in ``fig.states`` (``{label: list of dict}``, see
        :func:`svmlib.plotting.smo.smo_states`) and the solver results in
        ``fig.results``.
    """
    X = check_array(X, "X")
    y = np.asarray(y, dtype=float).ravel()
    C = check_positive(C, "C", allow_inf=True)
    rules = dict(_RULES if rules is None else rules)
    K = X @ X.T
    results, states = {}, {}
    for label, selection in rules.items():
        result = solve_dual_smo(K, y, C=C, tol=tol, selection=selection, shrinking=False,
                                record_trace=True, max_iter=max_steps)
        results[label] = result
        states[label] = smo_states(K, y, C, result)
    n_steps = max(len(s) for s in states.values())
    n = y.shape[0]
    top = max(float(np.max(s["alpha"])) for run in states.values() for s in run)
    top = C if np.isfinite(C) else top

    def setup(fig):
        left, right = fig.subplots(1, 2, gridspec_kw=dict(width_ratios=[1.0, 1.15]))
        for label in (-1, 1):
            mask = y == label
            left.scatter(X[mask, 0], X[mask, 1], s=30, color=CLASS_COLORS[label],
                         marker=CLASS_MARKERS[label], edgecolors="white", linewidths=0.5,
                         zorder=4)
        lo, hi = X.min(axis=0), X.max(axis=0)
        pad = 0.12 * (hi - lo)
        left.set_xlim(lo[0] - pad[0], hi[0] + pad[0])
        left.set_ylim(lo[1] - pad[1], hi[1] + pad[1])
        left.set_aspect("equal", adjustable="box")
        left.set_xlabel("$x_1$")
        left.set_ylabel("$x_2$")
        offset = 0.018 * float((hi - lo).max())
        for k, (a, c) in enumerate(X):
            left.text(a + offset, c + offset, str(k), fontsize=7, color="#444444", zorder=4)
        hyper = left.axline((0, 0), (1, 1), color="black", linewidth=1.6, zorder=3)
        margins = [left.axline((0, 0), (1, 1), color="black", linewidth=0.9,
                               linestyle=(0, (5, 4)), zorder=3) for _ in range(2)]
        rings = left.scatter([], [], s=110, facecolors="none", edgecolors="black",
                             linewidths=1.1, zorder=5)
        pair_i = left.scatter([], [], s=240, facecolors="none", edgecolors=PAIR_COLORS["i"],
                              linewidths=2.2, zorder=6)
        pair_j = left.scatter([], [], s=240, facecolors="none", edgecolors=PAIR_COLORS["j"],
                              linewidths=2.2, zorder=6)
        title = left.set_title("", fontsize=9)
        colours = [CLASS_COLORS[1] if v > 0 else CLASS_COLORS[-1] for v in y]
        bars = right.bar(np.arange(n), np.zeros(n), color=colours, width=0.75,
                         edgecolor="none", linewidth=2.0, zorder=2)
        if np.isfinite(C):
            right.axhline(C, color="black", linestyle=(0, (5, 4)), linewidth=1.0)
            right.text(n - 0.5, C, f"C = {C:g}", ha="right", va="bottom", fontsize=8)
        right.axhline(0, color="black", linewidth=0.8)
        right.set_xlim(-0.7, n - 0.3)
        right.set_ylim(0, 1.12 * top)
        right.set_xticks(np.arange(n))
        right.tick_params(axis="x", labelsize=6)
        right.set_xlabel("sample $t$")
        right.set_ylabel("$\\alpha_t$")
        for ax in (left, right):
            ax.spines["top"].set_visible(False)
            ax.spines["right"].set_visible(False)
        rtitle = right.set_title("", fontsize=9)
        return dict(hyper=hyper, margins=margins, rings=rings, pair_i=pair_i, pair_j=pair_j,
                    title=title, bars=bars, rtitle=rtitle)

    def update(state, rule, step):
        run = states[rule]
        last = len(run) - 1
        k = min(step, last)
        s = run[k]
        alpha, b = s["alpha"], s["b"]
        w = (alpha * y) @ X
        _set_axline(state["hyper"], w, b)
        for line, level in zip(state["margins"], (-1.0, 1.0)):
            _set_axline(line, w, b, level)
        sv = alpha > 1e-8
        state["rings"].set_offsets(X[sv] if sv.any() else np.empty((0, 2)))
        for bar, a in zip(state["bars"], alpha):
            bar.set_height(a)
            bar.set_edgecolor("none")
        if s["pair"] is not None:
            i, j = s["pair"]
            state["pair_i"].set_offsets(X[i:i + 1])
            state["pair_j"].set_offsets(X[j:j + 1])
            state["bars"][i].set_edgecolor(PAIR_COLORS["i"])
            state["bars"][j].set_edgecolor(PAIR_COLORS["j"])
        else:
            state["pair_i"].set_offsets(np.empty((0, 2)))
            state["pair_j"].set_offsets(np.empty((0, 2)))
        state["title"].set_text("start: all $\\alpha_t = 0$" if k == 0 else
                                f"after update {k} of {last}")
        state["rtitle"].set_text(f"{int(sv.sum())} multipliers > 0, "
                                 f"{int((alpha >= C).sum())} at C")
        head = (f"(This run stops after {last} updates.) " if step > last else "")
        if k == 0:
            i, j = s["next_pair"]
            text = (f"<b>Start</b>: &alpha; = 0, violation m &minus; M = "
                    f"{_fmt(s['violation'])}, D(&alpha;) = 0. "
                    f"The first update will use the pair (i, j) = ({i}, {j}).")
        else:
            i, j = s["pair"]
            prev = run[k - 1]
            text = (f"<b>Update {k}</b>: pair (i, j) = ({i}, {j}); "
                    f"&alpha;<sub>{i}</sub>: {_fmt(prev['alpha'][i])} &rarr; "
                    f"{_fmt(alpha[i])}, &alpha;<sub>{j}</sub>: {_fmt(prev['alpha'][j])} "
                    f"&rarr; {_fmt(alpha[j])}. Violation m &minus; M: "
                    f"{_fmt(prev['violation'])} &rarr; {_fmt(s['violation'])}; "
                    f"D(&alpha;) = {_fmt(s['objective'], 4)}.")
            if k == last:
                text += (f" <b>Converged</b>: m &minus; M &le; tol = {tol:g}."
                         if s["violation"] <= tol else " (Iteration limit of the figure.)")
        return head + text

    controls = {"rule": Choice(list(rules), label="working-set rule"),
                "step": Stepper(min(n_steps, max_steps + 1), label="update",
                                last=lambda rule: min(len(states[rule]), max_steps + 1) - 1)}
    fig = InteractiveFigure(setup, update, controls, figsize=figsize, dpi=dpi,
                            title="SMO, one pair update at a time")
    fig.states = states
    fig.results = results
    return fig


def default_pair_cases():
    """Three pair subproblems with ``C = 1``: clipped by ``alpha_i``, interior, clipped at 0.

    Returns
    -------
    dict
        ``{label: dict of pair_step's inputs}``.  Their clipped optima lie on
        the grid ``alpha_j in {-0.4, -0.3, ..., 1.4}`` of
        :func:`pair_update_exercise`.
    """
    K = dict(K_ii=1.0, K_jj=1.5, K_ij=0.25)          # eta = 2
    return {
        "pair A (y\u1d62 = +1, y\u2c7c = \u22121)": dict(alpha_i=0.5, alpha_j=0.2, y_i=1.0, y_j=-1.0,
                                                 grad_i=-2.0, grad_j=0.0, C=1.0, **K),
        "pair B (y\u1d62 = y\u2c7c = +1)": dict(alpha_i=0.9, alpha_j=0.1, y_i=1.0, y_j=1.0,
                                        grad_i=0.4, grad_j=-0.4, C=1.0, **K),
        "pair C (y\u1d62 = y\u2c7c = \u22121)": dict(alpha_i=0.3, alpha_j=0.4, y_i=-1.0, y_j=-1.0,
                                             grad_i=-0.6, grad_j=0.8, C=1.0, **K),
    }


def pair_update_exercise(cases=None, grid=None, figsize=(8.0, 3.4), dpi=78):
    """Widget exercise: slide a pair along its line to the best feasible point.

    For each pair subproblem the slider sets the new ``alpha_j``; ``alpha_i``
    follows from ``y_i alpha_i + y_j alpha_j = const`` (Book: (eq-smo-pair)).
    Left: the box ``[0, C]^2`` with the level sets of the objective and the
    constraint line.  Right: the objective change along the line, with the
    feasible interval shaded.  The goal is met at the clipped update
    (Book: (eq-smo-clip)).

    Parameters
    ----------
    cases : dict, optional
        ``{label: dict of pair_step's inputs}``; default
        :func:`default_pair_cases`.  Each clipped optimum must be on the grid.
    grid : sequence of float, optional
        The slider's values of the new ``alpha_j``; default
        ``-0.4, -0.3, ..., 1.4``.
    figsize : (float, float), default=(8.0, 3.4)
    dpi : int, default=78

    Returns
    -------
    InteractiveFigure
        Controls ``pair`` (Choice) and ``alpha_j`` (Slider); ``fig.steps``
        holds :func:`svmlib.plotting.smo.pair_step` of every case.
    """
    cases = dict(default_pair_cases() if cases is None else cases)
    grid = [round(v, 10) for v in (np.arange(-4, 15) / 10.0 if grid is None else grid)]
    steps = {label: pair_step(**case) for label, case in cases.items()}
    for label, s in steps.items():
        if not np.any(np.isclose(grid, s["alpha_j_new"], atol=1e-9)):
            raise ValueError(f"the clipped optimum alpha_j = {s['alpha_j_new']:g} of case "
                             f"{label!r} is not on the slider grid; add it to grid.")
    lo, hi = min(grid) - 0.1, max(grid) + 0.1

    def t_of(s, a_j):
        return s["y_j"] * (s["alpha_j"] - a_j)

    def setup(fig):
        box_ax, line_ax = fig.subplots(1, 2, gridspec_kw=dict(width_ratios=[1.0, 1.25]))
        mesh = np.linspace(lo, hi, 120)
        A_i, A_j = np.meshgrid(mesh, mesh)
        artists = {}
        for label, s in steps.items():
            Z = _pair_quadratic(s, A_i, A_j)
            levels = np.quantile(Z, [0.03, 0.1, 0.2, 0.33, 0.5, 0.7])
            cont = box_ax.contour(A_i, A_j, Z, levels=levels, colors="#a8a8a8",
                                  linewidths=0.6, linestyles="solid", zorder=1)
            (line,) = box_ax.plot(*_pair_line(s, [-10, 10]), color="black", linewidth=1.0,
                                  linestyle=":", zorder=2)
            (segment,) = box_ax.plot(*_pair_line(s, [s["t_low"], s["t_high"]]), color="black",
                                     linewidth=2.2, zorder=3)
            start = box_ax.scatter([s["alpha_i"]], [s["alpha_j"]], s=45, color="white",
                                   edgecolors="black", linewidths=1.3, zorder=5)
            a_grid = np.linspace(lo, hi, 200)
            t_grid = t_of(s, a_grid)
            change = -(s["score_i"] - s["score_j"]) * t_grid + 0.5 * s["eta"] * t_grid ** 2
            (curve,) = line_ax.plot(a_grid, change, color="#555555", linewidth=1.4, zorder=2)
            a_feasible = sorted([s["alpha_j"] - s["y_j"] * s["t_low"],
                                 s["alpha_j"] - s["y_j"] * s["t_high"]])
            shade = line_ax.axvspan(*a_feasible, color="#e8f0f8", zorder=0)
            artists[label] = [cont, line, segment, start, curve, shade]
        box_ax.plot([0, 1, 1, 0, 0], [0, 0, 1, 1, 0], color="black", linewidth=1.0, zorder=2)
        box_ax.fill([0, 1, 1, 0], [0, 0, 1, 1], color="#e8f0f8", zorder=0, lw=0)
        point = box_ax.scatter([], [], s=140, marker="*", color=PAIR_COLORS["i"],
                               edgecolors="black", linewidths=0.6, zorder=6)
        box_ax.set_xlim(lo, hi)
        box_ax.set_ylim(lo, hi)
        box_ax.set_aspect("equal", adjustable="box")
        box_ax.set_xlabel("$\\alpha_i$")
        box_ax.set_ylabel("$\\alpha_j$")
        box_ax.set_title("the box $[0, C]^2$, $C = 1$", fontsize=9)
        marker = line_ax.scatter([], [], s=140, marker="*", color=PAIR_COLORS["i"],
                                 edgecolors="black", linewidths=0.6, zorder=6)
        line_ax.axhline(0, color="black", linewidth=0.7)
        line_ax.set_xlim(lo, hi)
        all_changes = []
        for s in steps.values():
            t_grid = t_of(s, np.array([lo, hi]))
            all_changes += list(-(s["score_i"] - s["score_j"]) * t_grid
                                + 0.5 * s["eta"] * t_grid ** 2)
            all_changes.append(-(s["score_i"] - s["score_j"]) ** 2 / (2 * s["eta"]))
        span = max(all_changes) - min(all_changes)
        line_ax.set_ylim(min(all_changes) - 0.08 * span, min(max(all_changes), 1.5) + 0.05)
        line_ax.set_xlabel("new $\\alpha_j$ (on the line)")
        line_ax.set_ylabel("change of $f$")
        line_ax.set_title("objective along the line; feasible part shaded", fontsize=9)
        for ax in (box_ax, line_ax):
            ax.spines["top"].set_visible(False)
            ax.spines["right"].set_visible(False)
        return dict(artists=artists, point=point, marker=marker)

    def update(state, pair, alpha_j):
        s = steps[pair]
        for label, group in state["artists"].items():
            for artist in group:
                artist.set_visible(label == pair)
        t = t_of(s, alpha_j)
        a_i = s["alpha_i"] + s["y_i"] * t
        change = -(s["score_i"] - s["score_j"]) * t + 0.5 * s["eta"] * t * t
        state["point"].set_offsets([[a_i, alpha_j]])
        state["marker"].set_offsets([[alpha_j, change]])
        problems = []
        for name, value in (("&alpha;<sub>i</sub>", a_i), ("&alpha;<sub>j</sub>", alpha_j)):
            if value < -1e-9:
                problems.append(f"{name} &lt; 0")
            elif value > s["C"] + 1e-9:
                problems.append(f"{name} &gt; C")
        where = ("<b>feasible</b>" if not problems else
                 "<b>outside the box</b> (" + ", ".join(problems) + ")")
        return (f"{pair}: y<sub>i</sub>&alpha;<sub>i</sub> + y<sub>j</sub>&alpha;<sub>j</sub> "
                f"stays {_fmt(s['y_i'] * s['alpha_i'] + s['y_j'] * s['alpha_j'])}. "
                f"Now &alpha;<sub>i</sub> = {_fmt(a_i)}, &alpha;<sub>j</sub> = "
                f"{_fmt(alpha_j)}: {where}; f changes by {_fmt(change)}.")

    def goal(pair, alpha_j):
        return bool(np.isclose(alpha_j, steps[pair]["alpha_j_new"], atol=1e-9))

    start = min(grid, key=lambda v: abs(v - next(iter(cases.values()))["alpha_j"]))
    fig = InteractiveFigure(
        setup, update,
        {"pair": Choice(list(cases), label="pair"),
         "alpha_j": Slider(grid, label="new α\u2c7c", value=start, fmt="{:.1f}")},
        goal=goal,
        goal_text=("for each pair, slide &alpha;<sub>j</sub> to the point of the line that "
                   "lowers the objective f the most <i>while staying in the box</i>."),
        success_message="This is the clipped update: the best feasible point of the line.",
        figsize=figsize, dpi=dpi, title="Clip the pair update")
    fig.steps = steps
    return fig
