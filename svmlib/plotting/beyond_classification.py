"""Figures of the chapter "Beyond classification" (chapter 12).

Support vector regression fits a function with a tube of half-width
``epsilon`` around it; the dual coefficient ``beta_i = alpha_i - alpha_i^*``
of a training point tells where the point sits (Book: (eq-beyond-svr-cases)):

* ``beta_i = 0``: inside the tube, ``|y_i - f(x_i)| <= epsilon``;
* ``0 < |beta_i| < C``: exactly on the edge of the tube (a *free* support
  vector, which fixes ``b``);
* ``|beta_i| = C``: on or outside the edge (a *bound* support vector).

:func:`tube_cases` sorts the points, :func:`plot_tube` draws a regression
function with its tube and the points coloured by case, and
:func:`plot_dual_coefficients` shows the coefficients of two kernel
expansions side by side (sparsity).  The other figures are the losses of
regression (:func:`plot_regression_losses`), the one-class SVM's hyperplane
between the data and the origin (:func:`plot_origin_separation`), a 2-D
novelty frontier (:func:`plot_novelty_frontier`) and the scores of novelty
detection (:func:`plot_score_histograms`, :func:`plot_digit_gallery`).
"""

import numpy as np

from .._validation import check_array
from ._core import _get_ax, _tidy
from .soft_margin import KKT_CASE_COLORS

__all__ = [
    "TUBE_CASE_NAMES",
    "tube_cases",
    "plot_regression_losses",
    "plot_tube",
    "plot_dual_coefficients",
    "plot_origin_separation",
    "plot_novelty_frontier",
    "plot_score_histograms",
    "plot_digit_gallery",
]

#: Legend names of the three cases of :func:`tube_cases`.
TUBE_CASE_NAMES = ("inside the tube ($\\beta_i = 0$)",
                   "on its edge ($0 < |\\beta_i| < C$)",
                   "on or outside ($|\\beta_i| = C$)")

_CURVE = dict(color="black", linewidth=1.8, zorder=3)
_EDGE = dict(color="black", linewidth=1.1, linestyle=(0, (5, 4)), zorder=3)


def _as_1d(x, name):
    x = np.asarray(x, dtype=float)
    if x.ndim == 2 and x.shape[1] == 1:
        x = x[:, 0]
    if x.ndim != 1:
        raise ValueError(f"{name} must be one input per point, shape (n,) or (n, 1); got shape "
                         f"{x.shape}.")
    return x


def tube_cases(beta, C, rtol=1e-6):
    """The case of every training point of an SVR: 0, 1 or 2.

    Book: (eq-beyond-svr-cases).

    Parameters
    ----------
    beta : array-like of shape (n_samples,)
        ``alpha_i - alpha_i^*`` for *every* training point (zero for the
        points that are not support vectors), with ``|beta_i| <= C``.
    C : float
        The box bound, ``> 0``.
    rtol : float, default=1e-6
        A coefficient counts as 0 below ``rtol * C`` and as ``C`` above
        ``(1 - rtol) * C`` (solvers put multipliers on a bound only up to
        rounding).

    Returns
    -------
    cases : ndarray of shape (n_samples,), int
    """
    beta = np.abs(_as_1d(beta, "beta"))
    if not (np.isfinite(C) and C > 0):
        raise ValueError(f"C must be a finite number > 0; got C={C!r}.")
    cases = np.ones(beta.shape, dtype=int)
    cases[beta <= rtol * C] = 0
    cases[beta >= (1 - rtol) * C] = 2
    return cases


def plot_regression_losses(epsilon=0.5, ax=None, span=2.0):
    """Losses of a residual ``r = y - f(x)``: squared, absolute and epsilon-insensitive.

    Parameters
    ----------
    epsilon : float, default=0.5
        Half-width of the insensitive zone, ``>= 0``.
    ax : Axes, optional
    span : float, default=2.0
        The residual axis runs from ``-span`` to ``span``.

    Returns
    -------
    ax : Axes
    """
    if not epsilon >= 0:
        raise ValueError(f"epsilon must be >= 0; got epsilon={epsilon!r}.")
    ax = _get_ax(ax)
    r = np.linspace(-span, span, 801)
    ax.plot(r, 0.5 * r ** 2, color="#9467bd", linewidth=1.6,
            label="squared $\\frac{1}{2}r^2$ (ridge)")
    ax.plot(r, np.abs(r), color="#7f7f7f", linewidth=1.4, linestyle=(0, (2, 2)),
            label="absolute $|r|$")
    ax.plot(r, np.maximum(0.0, np.abs(r) - epsilon), color="#e8710a", linewidth=2.2,
            label=f"$\\varepsilon$-insensitive, $\\varepsilon = {epsilon:g}$")
    ax.axvspan(-epsilon, epsilon, color="#2e9e44", alpha=0.12, zorder=0)
    ax.annotate("no loss", xy=(0, 0.4 * span), ha="center", fontsize=9, color="#1b5e20")
    ax.set_xlim(-span, span)
    ax.set_ylim(-0.05 * span, 1.5 * span)
    ax.set_xlabel("residual $r = y - f(\\mathbf{x})$")
    ax.set_ylabel("loss")
    ax.legend(loc="upper center", fontsize=9, frameon=False, ncol=2)
    _tidy(ax)
    return ax


def plot_tube(f, x, y, epsilon, ax=None, beta=None, C=None, grid=400, color="black",
              label=None, legend=True, edges=True, x_range=None):
    """A 1-D regression function with its epsilon-tube and the training points.

    Parameters
    ----------
    f : callable
        ``f(X) -> values`` for ``X`` of shape (m, 1), e.g. a fitted model's
        ``predict``.
    x, y : array-like of shape (n_samples,)
        Inputs and targets.
    epsilon : float
        Half-width of the tube (0: no tube drawn).
    ax : Axes, optional
    beta, C : optional
        The dual coefficient of every training point and the box bound;
        when given, points are coloured by :func:`tube_cases`.
    grid : int, default=400
    color : str, default="black"
    label : str, optional
        Legend text of the curve.
    legend : bool, default=True
    edges : bool, default=True
        Draw the tube's edges ``f +- epsilon``.
    x_range : (float, float), optional
        Interval on which to draw ``f``; default the data's range.

    Returns
    -------
    ax : Axes
    """
    x, y = _as_1d(x, "x"), _as_1d(y, "y")
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same length; got {x.size} and {y.size}.")
    ax = _get_ax(ax)
    lo, hi = (x.min(), x.max()) if x_range is None else x_range
    t = np.linspace(lo, hi, grid)
    values = np.asarray(f(t[:, None]), dtype=float).ravel()
    ax.plot(t, values, label=label, **{**_CURVE, "color": color})
    if edges and epsilon > 0:
        ax.fill_between(t, values - epsilon, values + epsilon, color=color, alpha=0.08,
                        linewidth=0, zorder=1)
        for sign in (-1, 1):
            ax.plot(t, values + sign * epsilon, **{**_EDGE, "color": color})
    if beta is None:
        ax.scatter(x, y, s=26, color="#1f77b4", edgecolors="white", linewidths=0.5, zorder=4)
    else:
        cases = tube_cases(beta, C)
        for case, name in enumerate(TUBE_CASE_NAMES):
            mask = cases == case
            ax.scatter(x[mask], y[mask], s=30 if case else 22, color=KKT_CASE_COLORS[case],
                       edgecolors="black" if case else "white", linewidths=0.6, zorder=4,
                       label=f"{name}: {int(mask.sum())}")
    ax.set_xlabel("$x$")
    ax.set_ylabel("$y$")
    if legend and (label or beta is not None):
        ax.legend(loc="best", fontsize=8, frameon=True, framealpha=0.85)
    _tidy(ax)
    return ax


def plot_dual_coefficients(x, coefficients, ax=None, threshold=1e-8):
    """Stem plot of the coefficients of kernel expansions, one row per method.

    Parameters
    ----------
    x : array-like of shape (n_samples,)
        The training inputs (the horizontal position of each coefficient).
    coefficients : dict
        ``{name: coefficient vector of shape (n_samples,)}``, e.g. kernel
        ridge regression's ``alpha`` and SVR's ``alpha - alpha^*``.
    ax : Axes, optional
    threshold : float, default=1e-8
        Coefficients with ``|c| <= threshold * max|c|`` count as zero.

    Returns
    -------
    ax : Axes
    """
    x = _as_1d(x, "x")
    ax = _get_ax(ax)
    colors = ["#9467bd", "#e8710a", "#2ca02c"]
    n = len(coefficients)
    width = 0.8 * np.min(np.diff(np.sort(x))) if x.size > 1 else 0.1
    for k, (name, c) in enumerate(coefficients.items()):
        c = _as_1d(c, f"coefficients[{name!r}]")
        if c.shape != x.shape:
            raise ValueError(f"coefficients[{name!r}] has {c.size} values for {x.size} points.")
        nonzero = np.abs(c) > threshold * max(np.abs(c).max(), 1e-300)
        offset = (k - (n - 1) / 2) * width / max(n, 1)
        ax.vlines(x[nonzero] + offset, 0, c[nonzero], color=colors[k % 3], linewidth=1.5,
                  label=f"{name}: {int(nonzero.sum())} of {x.size} nonzero")
        ax.scatter(x[nonzero] + offset, c[nonzero], s=12, color=colors[k % 3], zorder=3)
    ax.axhline(0, color="#555555", linewidth=0.8)
    ax.set_xlabel("$x_i$")
    ax.set_ylabel("coefficient of $k(x_i, \\cdot)$")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize=8, frameon=False)
    _tidy(ax)
    return ax


def plot_origin_separation(X, w, rho, ax=None, outliers=None, lim=None):
    """The one-class SVM with the linear kernel: a hyperplane between data and origin.

    Draws the points, the origin, the hyperplane ``<w, x> = rho`` (solid),
    the half-plane on the origin's side shaded, and the points on that side
    (``outliers``) marked.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    w : array-like of shape (2,)
    rho : float
    ax : Axes, optional
    outliers : array-like of bool, optional
        Default: ``<w, x_i> < rho``.
    lim : (float, float), optional
        Common limits of both axes; default from the data and the origin.

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    w = np.asarray(w, dtype=float).ravel()
    if w.shape != (2,) or not np.any(w):
        raise ValueError(f"w must be a nonzero vector of 2 numbers; got {w!r}.")
    ax = _get_ax(ax)
    if outliers is None:
        outliers = X @ w < rho
    outliers = np.asarray(outliers, dtype=bool)
    if lim is None:
        top = max(X.max(), 0.0) * 1.15 + 0.2
        bottom = min(X.min(), 0.0) - 0.25 * top
        lim = (bottom, top)
    t = np.linspace(lim[0] - 1, lim[1] + 1, 2)
    normal = w / (w @ w)
    direction = np.array([-w[1], w[0]])
    line = rho * normal[None, :] + (t[:, None] - t.mean()) * 4 * direction / np.linalg.norm(w)
    ax.plot(line[:, 0], line[:, 1], color="black", linewidth=1.8, zorder=3,
            label="$\\langle \\mathbf{w}, \\mathbf{x}\\rangle = \\rho$")
    xx, yy = np.meshgrid(np.linspace(*lim, 200), np.linspace(*lim, 200))
    side = (np.column_stack([xx.ravel(), yy.ravel()]) @ w < rho).reshape(xx.shape)
    ax.contourf(xx, yy, side.astype(float), levels=[0.5, 1.5], colors=["#c2185b"], alpha=0.08,
                zorder=0)
    ax.scatter(*X[~outliers].T, s=26, color="#1f77b4", edgecolors="white", linewidths=0.5,
               zorder=4, label="inside ($\\langle \\mathbf{w}, \\mathbf{x}\\rangle \\geq \\rho$)")
    ax.scatter(*X[outliers].T, s=34, color="#c2185b", marker="D", edgecolors="black",
               linewidths=0.6, zorder=4, label="outliers ($\\xi_i > 0$)")
    ax.scatter([0], [0], s=90, marker="*", color="black", zorder=5, label="origin")
    ax.annotate("", xy=rho * normal, xytext=(0, 0),
                arrowprops=dict(arrowstyle="<->", color="#555555", linewidth=1.0))
    ax.text(*(0.5 * rho * normal + 0.06 * (lim[1] - lim[0]) * direction / np.linalg.norm(w)),
            "$\\rho / \\|\\mathbf{w}\\|$", fontsize=10, color="#333333", ha="center")
    ax.set_xlim(*lim)
    ax.set_ylim(*lim)
    ax.set_aspect("equal")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8,
              frameon=False)
    _tidy(ax)
    return ax


def plot_novelty_frontier(score, X, ax=None, X_new=None, support=None, grid=200, padding=0.6,
                          fill=True):
    """A 2-D novelty detector: its frontier ``score = 0`` and the region it calls normal.

    Parameters
    ----------
    score : callable
        ``score(X) -> values``, positive for "normal" (e.g. a fitted
        ``OneClassSVM``'s ``decision_function``).
    X : array-like of shape (n_samples, 2)
        Training points; those with negative score are drawn as outliers.
    ax : Axes, optional
    X_new : array-like of shape (m, 2), optional
        New points to draw as crosses.
    support : array-like of int, optional
        Indices of the support vectors, to ring.
    grid : int, default=200
    padding : float, default=0.6
    fill : bool, default=True

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    ax = _get_ax(ax)
    pts = X if X_new is None else np.vstack([X, check_array(X_new, "X_new")])
    lo, hi = pts.min(axis=0) - padding, pts.max(axis=0) + padding
    xx, yy = np.meshgrid(np.linspace(lo[0], hi[0], grid), np.linspace(lo[1], hi[1], grid))
    values = np.asarray(score(np.column_stack([xx.ravel(), yy.ravel()])), float)
    values = values.reshape(xx.shape)
    if fill:
        ax.contourf(xx, yy, values, levels=[0, max(values.max(), 1e-12)], colors=["#1f77b4"],
                    alpha=0.12, zorder=0)
    ax.contour(xx, yy, values, levels=[0.0], colors="black", linewidths=1.6, zorder=3)
    inside = np.asarray(score(X), float) >= 0
    ax.scatter(*X[inside].T, s=18, color="#1f77b4", edgecolors="white", linewidths=0.4,
               zorder=4)
    ax.scatter(*X[~inside].T, s=26, color="#c2185b", marker="D", edgecolors="black",
               linewidths=0.5, zorder=4)
    if support is not None:
        sv = X[np.asarray(support, dtype=int)]
        ax.scatter(*sv.T, s=80, facecolors="none", edgecolors="black", linewidths=1.0,
                   zorder=5)
    if X_new is not None:
        ax.scatter(*np.asarray(X_new, float).T, s=40, marker="x", color="#d62728",
                   linewidths=1.6, zorder=5)
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    _tidy(ax)
    return ax


def plot_score_histograms(scores, ax=None, bins=30):
    """Histograms of novelty scores for several groups, with the threshold 0 marked.

    Parameters
    ----------
    scores : dict
        ``{group name: 1-D array of decision values}``.
    ax : Axes, optional
    bins : int, default=30

    Returns
    -------
    ax : Axes
    """
    ax = _get_ax(ax)
    arrays = {name: _as_1d(s, f"scores[{name!r}]") for name, s in scores.items()}
    allv = np.concatenate(list(arrays.values()))
    edges = np.linspace(allv.min(), allv.max(), bins + 1)
    colors = ["#1f77b4", "#c2185b", "#e8710a", "#2ca02c"]
    for k, (name, s) in enumerate(arrays.items()):
        ax.hist(s, bins=edges, density=True, alpha=0.55, color=colors[k % 4],
                label=f"{name} ({s.size})")
    ax.axvline(0, color="black", linewidth=1.4, linestyle=(0, (5, 4)))
    ax.set_xlabel("decision value $f(\\mathbf{x})$ (negative: novelty)")
    ax.set_ylabel("density")
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    _tidy(ax)
    return ax


def plot_digit_gallery(images, titles, axes):
    """Draw 8x8 digit images on a row of axes, with titles.

    Parameters
    ----------
    images : array-like of shape (m, 64) or (m, 8, 8)
    titles : sequence of str, length m
    axes : sequence of Axes, length m

    Returns
    -------
    axes
    """
    images = np.asarray(images, dtype=float).reshape(-1, 8, 8)
    axes = list(np.ravel(axes))
    if not len(images) == len(titles) == len(axes):
        raise ValueError(f"need as many images, titles and axes; got {len(images)}, "
                         f"{len(titles)} and {len(axes)}.")
    for image, title, ax in zip(images, titles, axes):
        ax.imshow(image, cmap="gray_r", interpolation="nearest", vmin=0, vmax=16,
                  aspect="equal")
        ax.set_title(title, fontsize=9)
        ax.set_xticks([])
        ax.set_yticks([])
    return axes
