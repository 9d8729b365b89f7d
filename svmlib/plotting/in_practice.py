"""Figures of chapter 10, SVMs in practice.

* :func:`plot_validation_heatmap` draws a table of scores (e.g. from
  :func:`svmlib.model_selection.grid_table`) as an annotated heat map;
* :func:`plot_variance_shares` shows how much each feature contributes to
  squared distances, before and after standardization;
* :func:`plot_kernel_agreement` compares two sets of kernel values;
* :func:`plot_multiplier_agreement` compares the multipliers of two solvers;
* :func:`plot_platt_fit` draws Platt's sigmoid over the decision values;
* :func:`plot_reliability` draws a reliability diagram.

Binary labels 0/1 take the book's class colours: 0 as the blue class (−1),
1 as the orange class (+1).

Book: chapter ``ch-in-practice``.
"""

import numpy as np
from matplotlib.colors import LinearSegmentedColormap

from .._validation import check_array
from ._core import CLASS_COLORS, CLASS_MARKERS, _get_ax, _tidy

__all__ = [
    "plot_validation_heatmap",
    "plot_variance_shares",
    "plot_kernel_agreement",
    "plot_multiplier_agreement",
    "plot_platt_fit",
    "plot_reliability",
    "HEATMAP_CMAP",
]

#: Sequential colour map of the heat maps: pale where the score is low, dark
#: teal where it is high (readable in greyscale; numbers are written in the cells).
HEATMAP_CMAP = LinearSegmentedColormap.from_list(
    "svmlib_heat", ["#f7fbff", "#c6e2dd", "#67b3a6", "#227c74", "#08403d"], N=256)

#: Colours of the curves of a reliability diagram, in the order given.
CURVE_COLORS = ["#08403d", "#d62728", "#7f7f7f", "#9467bd"]


def _binary_style(label):
    """Colour and marker of a 0/1 (or −1/+1) label."""
    key = 1 if float(label) > 0 else -1
    return CLASS_COLORS[key], CLASS_MARKERS[key]


# ------------------------------------------------------------------ grids

def _tick_label(value):
    """``10^k`` in mathtext for exact powers of ten, else ``{:g}``."""
    if value > 0:
        k = np.log10(value)
        if abs(k - round(k)) < 1e-9:
            k = int(round(k))
            return "$1$" if k == 0 else ("$10$" if k == 1 else f"$10^{{{k}}}$")
    return f"{value:g}"


def plot_validation_heatmap(table, rows, cols, ax=None, row_label="$C$", col_label="$\\gamma$",
                            fmt="{:.3f}", vmin=None, vmax=None, best="max", current=None,
                            title=None, colorbar=False, cmap=None):
    """An annotated heat map of a score over a grid of two hyperparameters.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_cols)
        The score in each cell (e.g. from :func:`svmlib.model_selection.grid_table`).
    rows, cols : array-like of shape (n_rows,) and (n_cols,)
        Parameter values of the rows (drawn bottom to top) and columns.
    ax : Axes, optional
    row_label, col_label : str
        Axis labels.
    fmt : str, default="{:.3f}"
        Format of the numbers written in the cells (``None`` for none).
    vmin, vmax : float, optional
        Colour range; default the range of the table.
    best : {"max", "min", None}, default="max"
        Outline the best cell (the first one in row-major order on ties,
        as ``GridSearchCV`` picks it).
    current : (int, int), optional
        Indices ``(i, j)`` of a cell to mark with a dashed outline.
    title : str, optional
    colorbar : bool, default=False
    cmap : Colormap, optional
        Default :data:`HEATMAP_CMAP`.

    Returns
    -------
    ax : Axes
        The image has ``gid="heatmap"``, the best-cell outline ``gid="best"``.
    """
    from matplotlib.patches import Rectangle

    table = _check_table(table)
    rows = np.asarray(rows, dtype=float).ravel()
    cols = np.asarray(cols, dtype=float).ravel()
    if table.shape != (rows.size, cols.size):
        raise ValueError(f"table must have one row per value of rows and one column per value "
                         f"of cols, shape ({rows.size}, {cols.size}); got {table.shape}. "
                         f"Transpose it if rows and columns are swapped.")
    ax = _tidy(_get_ax(ax))
    cmap = HEATMAP_CMAP if cmap is None else cmap
    finite = table[np.isfinite(table)]
    lo = float(finite.min()) if vmin is None and finite.size else vmin
    hi = float(finite.max()) if vmax is None and finite.size else vmax
    if lo is not None and hi is not None and hi <= lo:
        hi = lo + 1e-9
    image = ax.imshow(table, origin="lower", cmap=cmap, vmin=lo, vmax=hi, aspect="auto",
                      interpolation="nearest", gid="heatmap")
    if fmt is not None:
        middle = 0.5 * (lo + hi) if lo is not None else 0.0
        for i in range(rows.size):
            for j in range(cols.size):
                if np.isfinite(table[i, j]):
                    ax.text(j, i, fmt.format(table[i, j]), ha="center", va="center", fontsize=8,
                            color="white" if table[i, j] > middle else "#1a1a1a")
    ax.set_xticks(range(cols.size), [_tick_label(v) for v in cols])
    ax.set_yticks(range(rows.size), [_tick_label(v) for v in rows])
    ax.set_xlabel(col_label)
    ax.set_ylabel(row_label)
    ax.tick_params(length=0)
    for side in ("left", "bottom"):
        ax.spines[side].set_visible(False)
    if best is not None and finite.size:
        check = np.where(np.isfinite(table), table, -np.inf if best == "max" else np.inf)
        flat = np.argmax(check) if best == "max" else np.argmin(check)
        i, j = np.unravel_index(flat, table.shape)
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="#d62728",
                               linewidth=2.2, zorder=5, gid="best"))
    if current is not None:
        i, j = current
        ax.add_patch(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False, edgecolor="black",
                               linewidth=1.6, linestyle=(0, (3, 2)), zorder=6, gid="current"))
    if title:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, shrink=0.85)
    return ax


def _check_table(table):
    """A 2-D float array; NaN allowed (cells the grid does not have)."""
    try:
        table = np.asarray(table, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"table must be a 2-D array of numbers; got "
                        f"{type(table).__name__}. Use "
                        f"svmlib.model_selection.grid_table(search.cv_results_).") from None
    if table.ndim != 2 or table.size == 0:
        raise ValueError(f"table must be a non-empty 2-D array (rows × columns); got shape "
                         f"{table.shape}.")
    return table


# ------------------------------------------------------------------ scaling

def plot_variance_shares(X, ax=None, names=None, annotate=2):
    """Each feature's share of the mean squared distance, raw and standardized.

    For two points drawn independently from the data, the expected squared
    distance is ``2 * sum_j var_j``, so feature ``j`` contributes the share
    ``var_j / sum_k var_k`` (Book: (eq-prac-expected-distance)).  The bars
    show these shares for the raw features, sorted, on a log scale; after
    standardization every share is ``1/p`` (dashed line).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The raw data.
    ax : Axes, optional
    names : sequence of str, optional
        Feature names, to label the largest shares.
    annotate : int, default=2
        How many of the largest shares to label with their name and value.

    Returns
    -------
    ax : Axes
        The bars have ``gid="shares"``.
    """
    X = check_array(X, "X")
    ax = _tidy(_get_ax(ax))
    var = X.var(axis=0)
    shares = var / var.sum()
    order = np.argsort(shares, kind="stable")[::-1]
    p = X.shape[1]
    positions = np.arange(1, p + 1)
    ax.bar(positions, shares[order], color="#9cc3e4", edgecolor="#1f77b4", linewidth=0.6,
           gid="shares")
    ax.axhline(1.0 / p, color="black", linestyle=(0, (5, 4)), linewidth=1.1)
    ax.text(p + 0.6, 1.0 / p * 1.6, f"standardized: $1/p = 1/{p}$", ha="right", va="bottom",
            fontsize=8)
    ax.set_yscale("log")
    ax.set_xlim(0.3, p + 0.7)
    ax.set_xlabel("raw feature, by decreasing variance")
    ax.set_ylabel("share of the mean squared distance")
    top = float(shares.max())
    ax.set_ylim(top=4.0 * top)
    if names is not None:
        for rank in range(min(annotate, p)):
            j = order[rank]
            ax.annotate(f"{names[j]} ({100 * shares[j]:.0f}%)", (rank + 1, shares[j]),
                        xytext=(0.3 * p, top * 10.0 ** (-2.5 - 1.3 * rank)),
                        textcoords="data", fontsize=9, va="center",
                        arrowprops=dict(arrowstyle="-", color="#555555", linewidth=0.6,
                                        shrinkA=1, shrinkB=1))
    return ax


def plot_kernel_agreement(k_full, k_subset, ax=None, title=None,
                          xlabel="$k$ on a subset of the features",
                          ylabel="$k$ on all features"):
    """Scatter two sets of kernel values against each other, with the diagonal.

    Parameters
    ----------
    k_full, k_subset : array-like of shape (n_pairs,)
        Kernel values of the same pairs of points, computed two ways.
    ax : Axes, optional
    title : str, optional
    xlabel, ylabel : str

    Returns
    -------
    ax : Axes
    """
    k_full = check_array(np.ravel(k_full), "k_full", ndim=1)
    k_subset = check_array(np.ravel(k_subset), "k_subset", ndim=1)
    if k_full.shape != k_subset.shape:
        raise ValueError(f"k_full and k_subset must hold the same pairs; got shapes "
                         f"{k_full.shape} and {k_subset.shape}.")
    ax = _tidy(_get_ax(ax))
    ax.plot([0, 1], [0, 1], color="black", linewidth=1.0, linestyle=(0, (5, 4)), zorder=1)
    ax.scatter(k_subset, k_full, s=10, color="#1f77b4", alpha=0.55, edgecolors="none", zorder=2)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    return ax


# ------------------------------------------------------------------ solvers

def plot_multiplier_agreement(alpha_a, alpha_b, C, ax=None, labels=("svmlib", "scikit-learn")):
    """Scatter the multipliers of two solvers of the same problem, with the diagonal.

    Parameters
    ----------
    alpha_a, alpha_b : array-like of shape (n_samples,)
        The multipliers ``alpha_i`` of every training point from each solver
        (0 for points that are not support vectors).
    C : float
        The box bound, marked on both axes.
    ax : Axes, optional
    labels : (str, str)
        Names of the two solvers.

    Returns
    -------
    ax : Axes
    """
    alpha_a = check_array(np.ravel(alpha_a), "alpha_a", ndim=1)
    alpha_b = check_array(np.ravel(alpha_b), "alpha_b", ndim=1)
    if alpha_a.shape != alpha_b.shape:
        raise ValueError(f"alpha_a and alpha_b must have one value per training point; got "
                         f"shapes {alpha_a.shape} and {alpha_b.shape}.")
    ax = _tidy(_get_ax(ax))
    top = 1.06 * float(C)
    ax.plot([0, C], [0, C], color="black", linewidth=1.0, linestyle=(0, (5, 4)), zorder=1)
    zero = (alpha_a == 0) & (alpha_b == 0)
    bound = (alpha_a >= C * (1 - 1e-9)) & (alpha_b >= C * (1 - 1e-9))
    free = ~zero & ~bound
    for mask, colour, text in ((zero, "#bbbbbb", "$\\alpha_i = 0$"),
                               (free, "#227c74", "$0 < \\alpha_i < C$"),
                               (bound, "#d62728", "$\\alpha_i = C$")):
        ax.scatter(alpha_a[mask], alpha_b[mask], s=22, color=colour, edgecolors="white",
                   linewidths=0.4, zorder=2, label=f"{text} ({int(mask.sum())})")
    ax.set_xlim(-0.04 * C, top)
    ax.set_ylim(-0.04 * C, top)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel(f"$\\alpha_i$ from {labels[0]}")
    ax.set_ylabel(f"$\\alpha_i$ from {labels[1]}")
    ax.legend(loc="upper left")
    return ax


# ------------------------------------------------------------------ Platt

def _sigmoid_ab(A, B, f):
    """Platt's sigmoid ``1 / (1 + exp(A f + B))``, computed without overflow."""
    from scipy.special import expit
    return expit(-(A * np.asarray(f, dtype=float) + B))


def plot_platt_fit(f, y, A, B, ax=None, bins=8, jitter=0.035, random_state=0,
                   labels=("class 0", "class 1")):
    """Platt's sigmoid over the decision values it was fitted to.

    Each point ``(f_i, y_i)`` is drawn at height 0 or 1 (with a little
    vertical jitter); the curve is ``P(y = 1 | f) = 1 / (1 + exp(A f + B))``
    (Book: (eq-prac-platt-model)); the black dots are the fraction of class 1
    in bins of ``f`` with equal counts, at the bins' mean ``f``.

    Parameters
    ----------
    f : array-like of shape (n_samples,)
        Decision values (cross-validated ones, as Platt scaling needs).
    y : array-like of shape (n_samples,)
        Labels in {0, 1}.
    A, B : float
        The fitted sigmoid.
    ax : Axes, optional
    bins : int, default=8
        Number of equal-count bins for the empirical frequencies.
    jitter : float, default=0.035
        Vertical jitter of the points.
    random_state : int, default=0
        Seed of the jitter.
    labels : (str, str)
        Legend text of classes 0 and 1.

    Returns
    -------
    ax : Axes
        The curve has ``gid="sigmoid"``.
    """
    f = check_array(np.ravel(f), "f", ndim=1)
    y = np.asarray(y).ravel()
    if y.shape != f.shape or not np.all(np.isin(y, (0, 1))):
        raise ValueError(f"y must hold one label in {{0, 1}} per decision value ({f.size}); got "
                         f"shape {y.shape} with values {np.unique(y)[:5].tolist()}.")
    ax = _tidy(_get_ax(ax))
    rng = np.random.default_rng(random_state)
    for lab, text in zip((0, 1), labels):
        colour, marker = _binary_style(2 * lab - 1)
        mask = y == lab
        ax.scatter(f[mask], lab + jitter * rng.uniform(-1, 1, mask.sum()) * (1 - 2 * lab)
                   + jitter * (1 - 2 * lab), s=14, color=colour, marker=marker, alpha=0.6,
                   edgecolors="none", zorder=2, label=text)
    span = np.linspace(f.min() - 0.5, f.max() + 0.5, 300)
    ax.plot(span, _sigmoid_ab(A, B, span), color="black", linewidth=1.8, zorder=3,
            gid="sigmoid", label=f"$1/(1+e^{{Af+B}})$, $A = {A:.2f}$, $B = {B:.2f}$")
    order = np.argsort(f, kind="stable")
    groups = np.array_split(order, bins)
    centres = [f[g].mean() for g in groups if g.size]
    freqs = [y[g].mean() for g in groups if g.size]
    ax.plot(centres, freqs, "o", color="black", markerfacecolor="white", markersize=6,
            zorder=4, label="fraction of class 1 per bin")
    ax.axvline(0.0, color="#888888", linewidth=0.8, zorder=0)
    ax.set_ylim(-0.12, 1.12)
    ax.set_xlabel("decision value $f(\\mathbf{x})$")
    ax.set_ylabel("$P(y = 1 \\mid f)$")
    ax.legend(loc="center right")
    return ax


def plot_reliability(y, probabilities, ax=None, n_bins=6, strategy="quantile", counts_ax=None,
                     markers=None, hist_bins=10):
    """Reliability diagram: predicted probability against observed frequency.

    The points are grouped into ``n_bins`` bins by predicted probability;
    for each non-empty bin the diagram marks the mean predicted probability
    (x) and the fraction of class 1 (y).  A calibrated model lies on the
    diagonal.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        True labels in {0, 1}.
    probabilities : dict
        ``{name: array of shape (n_samples,)}``, predicted ``P(y = 1)`` of
        each method to compare.
    ax : Axes, optional
    n_bins : int, default=6
    strategy : {"quantile", "uniform"}, default="quantile"
        ``"quantile"``: bins with (nearly) equal numbers of points, sorted by
        each method's probability (so every bin is equally reliable);
        ``"uniform"``: equal-width bins on [0, 1].
    counts_ax : Axes, optional
        When given, a histogram of the first method's probabilities
        (``hist_bins`` equal-width bins) is drawn there.
    markers : sequence of str, optional
        One marker per method (default circle, square, triangle, diamond).
    hist_bins : int, default=10

    Returns
    -------
    ax : Axes
    """
    y = np.asarray(y).ravel()
    if not np.all(np.isin(y, (0, 1))):
        raise ValueError(f"y must hold labels in {{0, 1}}; got {np.unique(y)[:5].tolist()}.")
    if not isinstance(probabilities, dict) or not probabilities:
        raise TypeError("probabilities must be a non-empty dict {name: array of P(y = 1)}.")
    if strategy not in ("quantile", "uniform"):
        raise ValueError(f"strategy must be 'quantile' or 'uniform'; got {strategy!r}.")
    ax = _tidy(_get_ax(ax))
    markers = markers or ["o", "s", "^", "D"]
    ax.plot([0, 1], [0, 1], color="black", linewidth=1.0, linestyle=(0, (5, 4)),
            label="perfect calibration", zorder=1)
    for k, (name, p) in enumerate(probabilities.items()):
        p = check_array(np.ravel(p), f"probabilities[{name!r}]", ndim=1)
        if p.shape != y.shape:
            raise ValueError(f"probabilities[{name!r}] must have one value per label "
                             f"({y.size}); got shape {p.shape}.")
        xs, ys = _reliability_points(y, p, n_bins, strategy)
        colour = CURVE_COLORS[k % len(CURVE_COLORS)]
        hollow = k > 0
        ax.plot(xs, ys, marker=markers[k % len(markers)], color=colour, linewidth=1.4,
                markersize=7 if not hollow else 9, markerfacecolor="white" if hollow else colour,
                zorder=3 + (len(probabilities) - k), label=name)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("mean predicted probability in the bin")
    ax.set_ylabel("observed fraction of class 1")
    ax.legend(loc="upper left")
    if counts_ax is not None:
        first = np.ravel(next(iter(probabilities.values())))
        edges = np.linspace(0.0, 1.0, hist_bins + 1)
        _tidy(counts_ax)
        counts, _, _ = counts_ax.hist(first, bins=edges, color="#c6e2dd", edgecolor="#227c74")
        for b, c in enumerate(counts):
            counts_ax.text(0.5 * (edges[b] + edges[b + 1]), c, f"{int(c)}", ha="center",
                           va="bottom", fontsize=8)
        counts_ax.set_xlim(-0.02, 1.02)
        counts_ax.set_xlabel("predicted probability")
        counts_ax.set_ylabel("points")
        counts_ax.set_ylim(0, 1.18 * max(counts.max(), 1))
    return ax


def _reliability_points(y, p, n_bins, strategy):
    """Mean prediction and observed frequency of class 1 in each non-empty bin."""
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, n_bins + 1)
        which = np.clip(np.digitize(p, edges[1:-1]), 0, n_bins - 1)
        groups = [np.flatnonzero(which == b) for b in range(n_bins)]
    else:
        groups = np.array_split(np.argsort(p, kind="stable"), n_bins)
    groups = [g for g in groups if g.size]
    return [float(p[g].mean()) for g in groups], [float(y[g].mean()) for g in groups]
