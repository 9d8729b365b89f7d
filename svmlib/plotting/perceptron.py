"""Figures of the perceptron chapter, and the margin experiment behind one of them.

Book: chapter ``ch-perceptron``.  The figures follow the book's visual
language (:mod:`svmlib.plotting`): the current hyperplane solid black,
an earlier one dashed grey, the point that triggers an update ringed in red.

The margin experiment behind the Novikoff figure is not here: gamma_0* of
(eq-perceptron-best-margin) is :func:`svmlib.perceptron.best_homogeneous_margin`,
the experiment :func:`svmlib.perceptron.novikoff_experiment`, and its data come
from :func:`svmlib.datasets.perceptron_sphere_data` and
:func:`svmlib.datasets.perceptron_disc_data`.
"""


import numpy as np

from .._validation import check_array
from ..datasets import perceptron_disc_data, perceptron_sphere_data  # noqa: F401 (moved)
from ..perceptron import best_homogeneous_margin, novikoff_experiment  # noqa: F401 (moved)
from ._core import CLASS_COLORS, PALETTE, _get_ax, _legend, plot_data, plot_hyperplane

__all__ = [
    "plot_perceptron_state",
    "plot_perceptron_runs",
    "plot_mistake_trace",
    "plot_perceptron_losses",
    "plot_homogeneous_margin",
    "plot_novikoff",
]

#: Colour of the ring around the point that triggers an update.
UPDATE_COLOR = "#d62728"
_PREVIOUS = dict(color="#8c8c8c", linewidth=1.3, linestyle=(0, (4, 3)), zorder=2.8)


def _limits(X, pad=0.25):
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    return (lo[0] - pad * span[0], hi[0] + pad * span[0]), (lo[1] - pad * span[1],
                                                            hi[1] + pad * span[1])


def _labels_pm1(y):
    y = np.asarray(y, dtype=float).ravel()
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"y must hold labels in {{-1, +1}}; got values "
                         f"{np.unique(y)[:5].tolist()}. Map the two classes to -1 and +1.")
    return y


def plot_perceptron_state(X, y, w, b, ax=None, highlight=None, previous=None,
                          mark_mistakes=True, normal=True, legend=True, pad=0.25,
                          xlim=None, ylim=None, legend_loc="best"):
    """One moment of a perceptron run: data, hyperplane, mistakes, the updating point.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    w : array-like of shape (2,)
        The current weight vector; when it is zero there is no line to draw
        (every point has h = b) and a note says so.
    b : float
        The current bias.
    ax : Axes, optional
    highlight : int, optional
        Index of a point to ring in red (the one that triggers the update).
    previous : (w, b), optional
        An earlier hyperplane, drawn dashed grey (before the update).
    mark_mistakes : bool, default=True
        Cross the points with ``y_i h(x_i) <= 0`` (mistakes, boundary included).
    normal : bool, default=True
        Draw the normal vector ``w`` as an arrow from the hyperplane.
    legend : bool, default=True
    pad : float, default=0.25
        Margin around the data, as a fraction of its range.
    xlim, ylim : (float, float), optional
        Axes limits; by default the data's range widened by ``pad``.
    legend_loc : str, default="best"
        Where the legend goes (a matplotlib ``loc``; ``"outside"`` puts it
        to the right of the axes).

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    y = _labels_pm1(y)
    w = np.asarray(w, dtype=float).ravel()
    b = float(b)
    ax = _get_ax(ax)
    plot_data(X, y, ax=ax, legend=legend, aspect="auto")
    default_x, default_y = _limits(X, pad)
    xlim = default_x if xlim is None else tuple(xlim)
    ylim = default_y if ylim is None else tuple(ylim)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal", adjustable="box")
    if previous is not None and np.any(np.asarray(previous[0], dtype=float)):
        plot_hyperplane(previous[0], previous[1], ax=ax, label="before" if legend else None,
                        **_PREVIOUS)
    if np.any(w):
        plot_hyperplane(w, b, ax=ax, label="$h(\\mathbf{x}) = 0$" if legend else None)
        if normal:
            _normal_arrow(ax, w, b, xlim, ylim)
    else:
        ax.text(0.5, 0.95, f"w = 0: no line yet (h = {b + 0.0:g} everywhere)",
                transform=ax.transAxes, ha="center", va="top", fontsize=9)
    if mark_mistakes:
        wrong = y * (X @ w + b) <= 0
        if np.any(wrong):
            ax.scatter(X[wrong, 0], X[wrong, 1], marker="x", s=30, color="black",
                       linewidths=1.2, zorder=6, label="mistake" if legend else None)
    if highlight is not None:
        ax.scatter(X[highlight, 0], X[highlight, 1], s=190, facecolors="none",
                   edgecolors=UPDATE_COLOR, linewidths=2.0, zorder=7,
                   label="update point" if legend else None)
    if legend:
        _place_legend(ax, legend_loc)
    return ax


def _place_legend(ax, loc):
    if loc == "outside":
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                  handletextpad=0.3, labelspacing=0.35)
    else:
        ax.legend(loc=loc, handletextpad=0.3, borderaxespad=0.3, labelspacing=0.3)


def _normal_arrow(ax, w, b, xlim, ylim):
    """The normal w as an arrow from the point of H nearest the view's centre."""
    centre = np.array([np.mean(xlim), np.mean(ylim)])
    anchor = centre - (centre @ w + b) / (w @ w) * w  # Book: (eq-projection)
    length = 0.18 * np.hypot(xlim[1] - xlim[0], ylim[1] - ylim[0])
    tip = anchor + length * w / np.linalg.norm(w)
    ax.annotate("", xy=tip, xytext=anchor, arrowprops=dict(
        arrowstyle="-|>", color="black", linewidth=1.4, mutation_scale=13,
        shrinkA=0, shrinkB=0), zorder=6)
    ax.text(*(tip + 0.05 * length * w / np.linalg.norm(w)), "$\\mathbf{w}$",
            ha="left", va="bottom", fontsize=10, zorder=6)


def plot_perceptron_runs(X, y, models, ax=None, legend=True, pad=0.2):
    """The separators that several perceptron runs end with, on one picture.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
    models : sequence of fitted :class:`svmlib.Perceptron` or (w, b) pairs
        One line per run, in the colours of ``PALETTE`` (from the third
        colour on, so that they differ from the class colours).
    ax : Axes, optional
    legend : bool, default=True
    pad : float, default=0.2

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    ax = _get_ax(ax)
    plot_data(X, y, ax=ax, legend=legend, aspect="auto")
    xlim, ylim = _limits(X, pad)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal", adjustable="box")
    colours = PALETTE[2:]
    for k, model in enumerate(models):
        if hasattr(model, "coef_"):
            w, b = model.coef_[0], model.intercept_[0]
        else:
            w, b = model
        plot_hyperplane(w, b, ax=ax, color=colours[k % len(colours)], linewidth=1.4,
                        alpha=0.9)
    return ax


def plot_mistake_trace(model, X, y, ax=None, best=True):
    """Misclassified training points after each update of a perceptron run.

    Parameters
    ----------
    model : fitted :class:`svmlib.Perceptron`
        Its ``history_`` holds ``(w, b)`` at the start and after each update.
    X : array-like of shape (n_samples, n_features)
        The training data the model was fitted on.
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    ax : Axes, optional
    best : bool, default=True
        Mark the fewest mistakes reached along the way (what a "pocket"
        would keep).

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    y = _labels_pm1(y)
    W = np.array([w for w, _ in model.history_])
    B = np.array([b for _, b in model.history_])
    errors = (y[None, :] * (W @ X.T + B[:, None]) <= 0).sum(axis=1)
    ax = _get_ax(ax)
    steps = np.arange(errors.size)
    ax.plot(steps, errors, color="#555555", linewidth=0.9, label="mistakes on the training set")
    if best:
        k = int(np.argmin(errors))
        ax.scatter([k], [errors[k]], s=60, color=UPDATE_COLOR, zorder=5,
                   label=f"fewest: {errors[k]} (after update {k})")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("number of updates")
    ax.set_ylabel("misclassified points")
    ax.set_ylim(bottom=-0.5)
    _legend(ax)
    return ax


def plot_perceptron_losses(ax=None, u_range=(-2.0, 2.5)):
    """The zero-one, perceptron and hinge losses as functions of u = y h(x).

    ``u`` is the margin value of a point, its score signed by its label, with
    the letter of the soft-margin chapter, whose ``plot_loss_functions`` draws
    the same axis.

    Book: (eq-perceptron-hinge).

    Parameters
    ----------
    ax : Axes, optional
    u_range : (float, float), default=(-2, 2.5)

    Returns
    -------
    ax : Axes
    """
    ax = _get_ax(ax)
    u = np.linspace(*u_range, 801)
    ax.plot(u, (u <= 0).astype(float), color="#555555", linewidth=1.6,
            drawstyle="steps-post", label="zero-one: $\\mathbb{1}[u \\leq 0]$")
    ax.plot(u, np.maximum(0.0, -u), color=CLASS_COLORS[-1], linewidth=2.0,
            label="perceptron: $\\max\\{0, -u\\}$")
    ax.plot(u, np.maximum(0.0, 1.0 - u), color=CLASS_COLORS[1], linewidth=2.0,
            linestyle=(0, (5, 3)), label="hinge: $\\max\\{0, 1 - u\\}$")
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set_xlabel("$u = y\\,h(\\mathbf{x})$")
    ax.set_ylabel("loss")
    ax.set_xlim(*u_range)
    ax.set_ylim(-0.1, 1.0 - u_range[0] + 0.1)
    _legend(ax)
    return ax


# ------------------------------------------------------ the margin experiment
def plot_homogeneous_margin(X, y, ax=None, w=None, legend=True):
    """The two quantities of Novikoff's bound on a picture: L and gamma*.

    Draws the data, the circle of radius ``L = max ||x_i||``, the best line
    through the origin with its band of half-width ``gamma*``, and rings the
    points that touch the band.  A second line ``w`` (e.g. a perceptron's)
    is drawn dashed grey with its own margin in the legend.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}, separable through the origin.
    ax : Axes, optional
    w : array-like of shape (2,), optional
        Another normal through the origin to compare with.
    legend : bool, default=True

    Returns
    -------
    ax : Axes
    """
    from matplotlib.patches import Circle

    X = check_array(X, "X")
    y = _labels_pm1(y)
    u, gamma = best_homogeneous_margin(X, y)
    L = float(np.max(np.linalg.norm(X, axis=1)))
    ax = _get_ax(ax)
    plot_data(X, y, ax=ax, legend=legend, aspect="auto", s=22)
    ax.add_patch(Circle((0, 0), L, fill=False, linestyle=":", color="#555555", linewidth=1.0))
    lim = 1.12 * L
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal", adjustable="box")
    # band |<u, x>| <= gamma as a polygon
    t = np.array([-2 * lim, 2 * lim])
    along = np.array([-u[1], u[0]])
    band = np.array([gamma * u + t[0] * along, gamma * u + t[1] * along,
                     -gamma * u + t[1] * along, -gamma * u + t[0] * along])
    ax.fill(band[:, 0], band[:, 1], color="#d9d9d9", alpha=0.6, zorder=1,
            label=f"best band, $\\gamma_0^* = {gamma:.3f}$" if legend else None)
    plot_hyperplane(u, 0.0, ax=ax)
    touching = np.abs(y * (X @ u) - gamma) < 1e-6
    ax.scatter(X[touching, 0], X[touching, 1], s=110, facecolors="none",
               edgecolors="black", linewidths=1.3, zorder=5)
    if w is not None:
        w = np.asarray(w, dtype=float).ravel()
        margin = float(np.min(y * (X @ w)) / np.linalg.norm(w))
        plot_hyperplane(w, 0.0, ax=ax, label=(f"perceptron, $\\gamma(\\mathbf{{w}}) = "
                                              f"{margin:.3f}$") if legend else None,
                        **_PREVIOUS)
    ax.annotate("", xy=(L * np.cos(2.4), L * np.sin(2.4)), xytext=(0, 0),
                arrowprops=dict(arrowstyle="-|>", color="#555555", linewidth=1.0,
                                shrinkA=0, shrinkB=0))
    ax.text(0.55 * L * np.cos(2.4), 0.55 * L * np.sin(2.4) + 0.04 * L, "$L$",
            color="#333333", ha="center", va="bottom")
    if legend:
        _place_legend(ax, "outside")
    return ax


def plot_novikoff(rows, ax=None):
    """Updates made by the perceptron against Novikoff's bound (L / gamma*)^2.

    Parameters
    ----------
    rows : list of dict
        The output of :func:`svmlib.perceptron.novikoff_experiment`.
    ax : Axes, optional

    Returns
    -------
    ax : Axes
    """
    ax = _get_ax(ax)
    bounds = np.array([r["bound"] for r in rows])
    for r in rows:
        jitter = np.exp(np.linspace(-0.06, 0.06, r["updates"].size))
        ax.scatter(r["bound"] * jitter, r["updates"], s=12, color=CLASS_COLORS[-1],
                   alpha=0.5, zorder=3)
    ax.plot(bounds, [r["updates"].max() for r in rows], marker="o", color=CLASS_COLORS[1],
            linewidth=1.4, zorder=4, label="most updates over the orders")
    ax.scatter([], [], s=12, color=CLASS_COLORS[-1], alpha=0.5,
               label="one run (one random order)")
    line = np.array([bounds.min() / 1.5, bounds.max() * 1.5])
    ax.plot(line, line, color="black", linewidth=1.4, label="bound $(L/\\gamma_0^*)^2$")
    ax.fill_between(line, line, line.max() * 10, color="#eeeeee", zorder=0)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(*line)
    lo = min(min(r["updates"].min() for r in rows), bounds.min()) / 2
    ax.set_ylim(max(lo, 0.5), line.max() * 1.2)
    ax.set_xlabel("Novikoff's bound $(L/\\gamma_0^*)^2$")
    ax.set_ylabel("updates until convergence")
    _legend(ax)
    return ax
