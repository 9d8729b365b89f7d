"""Interactive figures of the perceptron chapter.

Book: chapter ``ch-perceptron``.

* :func:`perceptron_stepper` steps through the updates of a run, one at a
  time (which point, what update, where the line goes), for a few learning
  rates and visiting orders;
* :func:`novikoff_explorer` is Novikoff's theorem interactively: for a gap and
  a visiting order, the two numbers of the proof along the run against
  their bounds, and the number of updates against ``(L / gamma_0*)^2``.

Every run is computed once, with :class:`svmlib.Perceptron`, when the figure
is built; moving a control only moves artists.
"""

import numpy as np

from .._validation import check_array
from ..perceptron import Perceptron, novikoff_trace
from ..plotting._core import CLASS_COLORS, CLASS_MARKERS
from ._core import Choice, InteractiveFigure, Slider, Stepper

__all__ = ["perceptron_stepper", "novikoff_explorer", "default_orders"]

_UPDATE_COLOR = "#d62728"
_GREY = "#8c8c8c"


def default_orders(n, seeds=(0,)):
    """Named visiting orders of ``n`` points: as given, reversed, and shuffled.

    Parameters
    ----------
    n : int
        Number of points.
    seeds : sequence of int, default=(0,)
        One shuffled order per seed (``numpy.random.default_rng(seed)``).

    Returns
    -------
    dict
        ``{name: ndarray of shape (n,)}`` of permutations of ``0..n-1``.
    """
    orders = {"as given": np.arange(n), "reversed": np.arange(n)[::-1]}
    for seed in seeds:
        orders[f"shuffled (seed {seed})"] = np.random.default_rng(seed).permutation(n)
    return orders


def _fmt_vec(v, digits=2):
    return "(" + ", ".join(f"{round(float(t), digits) + 0.0:g}" for t in v) + ")"


def _fmt(t, digits=2):
    return f"{round(float(t), digits) + 0.0:g}"


def _run(X, y, order, learning_rate, w_init, b_init, max_epochs=200):
    """One perceptron run visiting the points in ``order`` every epoch."""
    model = Perceptron(learning_rate=learning_rate, shuffle=False, w_init=w_init,
                       b_init=b_init, max_epochs=max_epochs).fit(X[order], y[order])
    steps = []
    for k, (w, b) in enumerate(model.history_):
        info = {"w": np.array(w, dtype=float), "b": float(b)}
        if k > 0:
            u = model.updates_[k - 1]
            info.update(index=int(order[u["index"]]), score=u["score"], epoch=u["epoch"])
        steps.append(info)
    return {"steps": steps, "n_updates": model.n_updates_, "n_epochs": model.n_epochs_,
            "converged": model.converged_}


def _limits(X, pad=0.25):
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    return (lo[0] - pad * span[0], hi[0] + pad * span[0]), (lo[1] - pad * span[1],
                                                            hi[1] + pad * span[1])


def _base_axes(fig, X, y, numbers=True):
    """Data, point numbers and the moving artists shared by both figures."""
    ax = fig.add_subplot()
    for label in (-1, 1):
        mask = y == label
        ax.scatter(X[mask, 0], X[mask, 1], s=40, color=CLASS_COLORS[label],
                   marker=CLASS_MARKERS[label], edgecolors="white", linewidths=0.6,
                   zorder=4, label=f"$y = {'+' if label > 0 else chr(8722)}1$")
    xlim, ylim = _limits(X)
    if numbers:
        offset = 0.035 * (xlim[1] - xlim[0])
        for i, (a, c) in enumerate(X):
            ax.text(a + offset, c + offset, f"{i + 1}", fontsize=8, color="#333333",
                    zorder=4)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    return ax, xlim, ylim


def _line_through(w, b):
    """Two points of {x : <w, x> + b = 0} (w nonzero, 2-D)."""
    p = -b * w / (w @ w)
    return tuple(p), tuple(p + np.array([-w[1], w[0]]))


def _set_line(line, w, b):
    if np.any(w):
        p, q = _line_through(w, b)
        line.set_xy1(p)
        line.set_xy2(q)
        line.stale = True          # set_xy1/set_xy2 do not mark the line as changed
        line.set_visible(True)
    else:
        line.set_visible(False)


def _visit_text(order, shown=8):
    """The visiting order as 1-based point numbers, e.g. ``"3, 1, 2, ..."``."""
    numbers = [str(int(i) + 1) for i in np.asarray(order).ravel()]
    if len(numbers) > shown:
        numbers = numbers[:shown] + ["\u2026"]
    return ", ".join(numbers)


def perceptron_stepper(X, y, w_init, b_init=0.0, learning_rates=(0.25, 1.0), orders=None,
                       figsize=(6.4, 3.8), dpi=96):
    """Step through the perceptron's updates, for a few learning rates and orders.

    Each frame shows the hyperplane after ``k`` updates (solid), the one
    before the last update (dashed grey), the point that triggered it (red
    ring) and the points still misclassified (crosses).  The readout spells
    out the update: which point, its score, the new ``w`` and ``b``.
    Book: (eq-perceptron-update), (alg-perceptron).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}; the data should be separable (else runs stop
        at 200 epochs and the stepper shows only their beginning).
    w_init : array-like of shape (2,)
        The starting weight vector (the same for every run).
    b_init : float, default=0.0
    learning_rates : sequence of float, default=(0.25, 1.0)
    orders : dict, optional
        ``{name: permutation}``; default :func:`default_orders`.
    figsize : (float, float), default=(6.4, 3.8)
    dpi : int, default=96

    Returns
    -------
    InteractiveFigure
        Controls ``order`` (Choice), ``learning_rate`` (Choice) and ``step``
        (Stepper over 0..max updates; for each run it stops at that run's
        number of updates).
    """
    X = check_array(X, "X")
    y = np.asarray(y, dtype=float).ravel()
    w_init = np.asarray(w_init, dtype=float).ravel()
    orders = default_orders(len(y)) if orders is None else dict(orders)
    runs = {(name, rate): _run(X, y, np.asarray(order), rate, w_init, float(b_init))
            for name, order in orders.items() for rate in learning_rates}
    n_steps = min(max(r["n_updates"] for r in runs.values()) + 1, 30)

    def setup(fig):
        ax, xlim, ylim = _base_axes(fig, X, y)
        before = ax.axline((0, 0), (1, 1), color=_GREY, linewidth=1.3,
                           linestyle=(0, (4, 3)), zorder=2.8, label="before the update")
        current = ax.axline((0, 0), (1, 1), color="black", linewidth=1.8, zorder=3,
                            label="$h(\\mathbf{x}) = 0$")
        mistakes = ax.scatter([], [], marker="x", s=30, color="black", linewidths=1.2,
                              zorder=6, label="mistake")
        ring = ax.scatter([], [], s=190, facecolors="none", edgecolors=_UPDATE_COLOR,
                          linewidths=2.0, zorder=7, label="update point")
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
                  frameon=False, borderaxespad=0.0, handletextpad=0.3, labelspacing=0.35)
        title = ax.set_title("", fontsize=9)
        return dict(before=before, current=current, mistakes=mistakes, ring=ring,
                    title=title)

    def update(state, order, learning_rate, step):
        run = runs[(order, learning_rate)]
        k = min(step, run["n_updates"])
        info = run["steps"][k]
        w, b = info["w"], info["b"]
        _set_line(state["current"], w, b)
        wrong = y * (X @ w + b) <= 0
        state["mistakes"].set_offsets(X[wrong] if wrong.any() else np.empty((0, 2)))
        if k == 0:
            state["before"].set_visible(False)
            state["ring"].set_offsets(np.empty((0, 2)))
            # the order and the rate act only from the first update on; the
            # start frame shows them, so changing either redraws the figure
            state["title"].set_text(f"start: w = {_fmt_vec(w)}, b = {_fmt(b)}, "
                                    f"\u03b1 = {learning_rate:g}\n"
                                    f"points visited in the order {_visit_text(orders[order])}")
            text = (f"<b>Start.</b> w = {_fmt_vec(w)}, b = {_fmt(b)}: {int(wrong.sum())} "
                    f"point(s) misclassified (crossed). Which point will the first update "
                    f"use? Press Next.")
        else:
            prev = run["steps"][k - 1]
            _set_line(state["before"], prev["w"], prev["b"])
            i = info["index"]
            state["ring"].set_offsets(X[i:i + 1])
            state["title"].set_text(f"after update {k} of {run['n_updates']}: "
                                    f"w = {_fmt_vec(w)}, b = {_fmt(b)}")
            sign = "+" if y[i] > 0 else "\u2212"
            text = (f"<b>Update {k} of {run['n_updates']}</b> (epoch {info['epoch']}): "
                    f"point {i + 1}, x = {_fmt_vec(X[i])}, y = {sign}1, had "
                    f"h(x) = {_fmt(info['score'])}, so y·h(x) &le; 0. "
                    f"w &larr; w {sign} {learning_rate:g}·x = {_fmt_vec(w)}, "
                    f"b &larr; b {sign} {learning_rate:g} = {_fmt(b)}. "
                    f"Now {int(wrong.sum())} mistake(s).")
        if k == run["n_updates"] and run["converged"]:
            text += (f" <b>Done:</b> the next epoch makes no mistake; the perceptron stops "
                     f"after {run['n_updates']} update(s).")
        if step > k:
            text = f"(This run has only {run['n_updates']} update(s).) " + text
        return text

    controls = {
        "order": Choice(list(orders), label="visiting order"),
        "learning_rate": Choice(list(learning_rates), label="learning rate α"),
        # each run stops at its own number of updates ("6 / 6", not "7 / 7")
        "step": Stepper(n_steps, label="update", last=lambda order, learning_rate: min(
            runs[(order, learning_rate)]["n_updates"], n_steps - 1)),
    }
    return InteractiveFigure(setup, update, controls, figsize=figsize, dpi=dpi,
                             title="The perceptron, one update at a time")


# ------------------------------------------------------ Novikoff, interactively

def novikoff_explorer(gaps=(0.2, 0.1, 0.05, 0.025), seeds=(0, 1, 2, 3), n=100, n_features=5,
                      random_state=0, figsize=(7.2, 3.4), dpi=80):
    """Novikoff's proof along real runs: choose the gap and the visiting order.

    For each gap, draws :func:`svmlib.datasets.perceptron_sphere_data`
    (``L = 1``, points within ``2 gap`` of a hyperplane through the origin)
    and runs the perceptron without bias from ``w = 0`` once per seed
    (:func:`svmlib.perceptron.novikoff_trace`).  Left, on log-log axes: the
    component ``<w_k, u*>`` and the length ``||w_k||`` (divided by the
    learning rate, which they are proportional to) against the number of
    updates ``k``, with the proof's bounds ``k gamma_0*`` (Step 1, below)
    and ``sqrt(k) L`` (Step 2, above); the bounds meet at
    ``k = (L / gamma_0*)^2``.  Right: the cosine of the angle between
    ``w_k`` and ``u*`` with its lower bound ``sqrt(k) gamma_0* / L``
    (Step 3), which reaches 1 at the same ``k``.  The goal: the run that
    uses the largest share of its bound.  Book: (thm-novikoff), (eq-novikoff).

    Parameters
    ----------
    gaps : sequence of float, default=(0.2, 0.1, 0.05, 0.025)
        The gaps of the data (one data set each).
    seeds : sequence of int, default=(0, 1, 2, 3)
        Seeds of the visiting orders (one run per gap and seed).
    n, n_features, random_state : int
        Passed to :func:`~svmlib.datasets.perceptron_sphere_data`.
    figsize : (float, float), default=(7.2, 3.4)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
        Controls ``gap`` (Slider) and ``order`` (Choice, "order 1", ...);
        ``fig.traces`` holds every run's trace, keyed by (gap, order name).
    """
    from ..datasets import perceptron_sphere_data

    gaps = [float(g) for g in check_array(list(gaps), "gaps", ndim=1)]
    if any(g <= 0 or g >= 0.5 for g in gaps):
        raise ValueError(f"every gap must lie in (0, 0.5) (points at distance up to 2 gap from "
                         f"the hyperplane on the unit sphere); got {gaps!r}.")
    seeds = [int(s) for s in seeds]
    if not seeds:
        raise ValueError("seeds must name at least one visiting order; got an empty sequence.")
    names = [f"order {j + 1}" for j in range(len(seeds))]
    traces = {}
    for gap in gaps:
        X, y = perceptron_sphere_data(n=n, gap=gap, n_features=n_features,
                                      random_state=random_state)
        for name, seed in zip(names, seeds):
            traces[(gap, name)] = novikoff_trace(X, y, random_state=seed)
    share = {key: t["n_updates"] / t["bound"] for key, t in traces.items()}
    best = max(share.values())
    k_max = 1.6 * max(t["bound"] for t in traces.values())
    gamma_min = min(t["gamma"] for t in traces.values())
    L_max = max(t["L"] for t in traces.values())
    ks = np.geomspace(1.0, k_max, 200)

    def setup(fig):
        left, right = fig.subplots(1, 2)
        left.set_xscale("log")
        left.set_yscale("log")
        left.set_xlim(1, k_max)
        left.set_ylim(0.5 * gamma_min, 1.3 * np.sqrt(k_max) * L_max)
        left.set_xlabel("updates k")
        left.set_title("Steps 1 and 2", fontsize=9)
        (step1,) = left.plot([], [], color="#1f77b4", linewidth=1.0, linestyle=(0, (4, 3)),
                             label="k γ₀* (Step 1)")
        (along,) = left.plot([], [], color="#1f77b4", linewidth=1.8, label="⟨w, u*⟩ / α")
        (step2,) = left.plot([], [], color="#ff7f0e", linewidth=1.0, linestyle=(0, (4, 3)),
                             label="√k L (Step 2)")
        (norm,) = left.plot([], [], color="#ff7f0e", linewidth=1.8, label="‖w‖ / α")
        bound_l = left.axvline(1, color="#555555", linewidth=0.9, linestyle=(0, (1, 2)))
        stop_l = left.axvline(1, color=_UPDATE_COLOR, linewidth=1.0)
        left.legend(loc="upper left", fontsize=7, frameon=False, handlelength=1.6,
                    labelspacing=0.25)
        right.set_xscale("log")
        right.set_xlim(1, k_max)
        right.set_ylim(0, 1.08)
        right.set_xlabel("updates k")
        right.set_title("Step 3: the cosine of ∠(w, u*)", fontsize=9)
        right.axhline(1.0, color="black", linewidth=0.8)
        (cos_bound,) = right.plot([], [], color="#555555", linewidth=1.0,
                                  linestyle=(0, (4, 3)), label="√k γ₀*/L (Step 3)")
        (cosine,) = right.plot([], [], color="black", linewidth=1.8, label="cos ∠(w, u*)")
        bound_r = right.axvline(1, color="#555555", linewidth=0.9, linestyle=(0, (1, 2)),
                                label="bound (L/γ₀*)²")
        stop_r = right.axvline(1, color=_UPDATE_COLOR, linewidth=1.0, label="the run stops")
        right.legend(loc="lower right", fontsize=7, frameon=False, handlelength=1.6,
                     labelspacing=0.25)
        for ax in (left, right):
            ax.spines["top"].set_visible(False)
            ax.spines["right"].set_visible(False)
        return dict(step1=step1, along=along, step2=step2, norm=norm, bound_l=bound_l,
                    stop_l=stop_l, cos_bound=cos_bound, cosine=cosine, bound_r=bound_r,
                    stop_r=stop_r)

    def update(state, gap, order):
        t = traces[(gap, order)]
        k = t["k"][1:]                              # log axes: from the first update on
        state["step1"].set_data(ks, ks * t["gamma"])
        state["step2"].set_data(ks, np.sqrt(ks) * t["L"])
        state["along"].set_data(k, t["along"][1:])
        state["norm"].set_data(k, t["norm"][1:])
        state["cosine"].set_data(k, t["cosine"][1:])
        kb = ks[ks <= t["bound"]]
        state["cos_bound"].set_data(kb, np.sqrt(kb) * t["gamma"] / t["L"])
        for key in ("bound_l", "bound_r"):
            state[key].set_xdata([t["bound"], t["bound"]])
        for key in ("stop_l", "stop_r"):
            state[key].set_xdata([t["n_updates"], t["n_updates"]])
        m = t["n_updates"]
        return (f"gap g = {gap:g}: L = {_fmt(t['L'])}, γ₀* = {t['gamma']:.3f}, bound "
                f"(L/γ₀*)² = {t['bound']:.0f} &nbsp;·&nbsp; {order}: <b>{m} updates</b>, "
                f"{100 * m / t['bound']:.0f} % of the bound"
                f"<br>at the end cos ∠(w, u*) = {t['cosine'][-1]:.2f} "
                f"≥ √k γ₀*/L = {np.sqrt(m) * t['gamma'] / t['L']:.2f}")

    def goal(gap, order):
        return share[(gap, order)] >= best

    fig = InteractiveFigure(
        setup, update,
        {"gap": Slider(gaps, label="gap g", fmt="{:g}"),
         "order": Choice(names, label="visiting order")},
        goal=goal,
        goal_text=("find the gap and the visiting order whose run uses the largest share of "
                   "Novikoff's bound (L/γ₀*)²."),
        success_message=("Found it: no other run of this grid comes as close to its bound. "
                         "The runs get longer as the gap narrows, but the bound grows faster."),
        figsize=figsize, dpi=dpi, blit=False, title="Novikoff's theorem, run by run")
    fig.traces = traces
    return fig
