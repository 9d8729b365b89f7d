"""Figures of the multiclass chapter: decision rules, their ambiguous regions, sub-problems.

Book: chapter ``ch-multiclass``.

A multiclass rule built from binary classifiers puts forward, at each point
``x``, a set of *candidate* classes:

* ``"ovr-argmax"`` (one-vs-rest, largest score): the class with the largest
  ``f_k(x)``.  Book: (eq-mc-ovr-argmax);
* ``"ovr-sign"`` (one-vs-rest, read by signs): every class whose classifier
  claims the point, ``f_k(x) > 0``.  Book: (eq-mc-ovr-sign);
* ``"ovo"`` (one-vs-one): every class with the largest number of pairwise
  votes.  Book: (eq-mc-ovo-votes).

The rule is unambiguous where there is exactly one candidate.  With none
("no class claims the point") or several ("several classes claim it", or a
vote tie) it is ambiguous.  :func:`rule_candidates` computes the candidates,
:func:`region_image` paints them (one light colour per class; white where
nobody claims the point; stripes in the colours of the competing classes
where several do), and :func:`plot_multiclass_regions` draws the figure.
:func:`plot_subproblem` shows one binary problem of either reduction, and
:func:`problem_sizes` / :func:`plot_multiclass_cost` count what training
costs.
"""

from itertools import combinations

import numpy as np
from matplotlib.colors import to_rgb
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from .._validation import check_array
from ._core import _MULTI_MARKERS, PALETTE, _get_ax, _legend, _tidy

__all__ = [
    "RULES",
    "RULE_NAMES",
    "rule_candidates",
    "rule_outcome",
    "ambiguity_fractions",
    "region_image",
    "plane_grid",
    "region_legend_handles",
    "plot_multiclass_regions",
    "plot_subproblem",
    "problem_sizes",
    "plot_multiclass_cost",
]

#: The three decision rules, by the names the functions of this module take.
RULES = ("ovr-argmax", "ovr-sign", "ovo")
#: How the book names them.
RULE_NAMES = {"ovr-argmax": "one-vs-rest, argmax",
              "ovr-sign": "one-vs-rest, signs",
              "ovo": "one-vs-one, votes"}

#: Outcome codes of :func:`rule_outcome` (class indices are 0, 1, ...).
NO_CLASS = -1
SEVERAL = -2

_WHITE = np.ones(3)


def _check_rule(rule):
    if rule not in RULES:
        raise ValueError(f"rule must be one of {', '.join(map(repr, RULES))}; got rule={rule!r}. "
                         f"Use 'ovr-argmax' or 'ovr-sign' with a OneVsRestClassifier and 'ovo' "
                         f"with a OneVsOneClassifier or svmlib.SVC.")


def light_color(k, weight=0.38):
    """The light tint of class ``k``'s colour used for its region, an RGB triple."""
    return 1.0 - weight + weight * np.array(to_rgb(PALETTE[k % len(PALETTE)]))


def _stripe_color(k):
    return 0.35 + 0.65 * np.array(to_rgb(PALETTE[k % len(PALETTE)]))


def rule_candidates(model, X, rule):
    """The classes a decision rule puts forward at each point.

    Parameters
    ----------
    model : fitted estimator
        For ``"ovr-argmax"`` and ``"ovr-sign"`` a one-vs-rest model whose
        ``decision_function`` returns one column per class (e.g.
        :class:`svmlib.multiclass.OneVsRestClassifier`); for ``"ovo"`` a model
        with ``votes(X)`` (:class:`svmlib.multiclass.OneVsOneClassifier` or
        :class:`svmlib.SVC` with three or more classes).
    X : array-like of shape (n_samples, n_features)
    rule : {"ovr-argmax", "ovr-sign", "ovo"}
        Book: (eq-mc-ovr-argmax), (eq-mc-ovr-sign), (eq-mc-ovo-votes).

    Returns
    -------
    ndarray of shape (n_samples, n_classes), bool
        Entry ``[i, k]`` is True when class ``k`` (the ``k``-th of
        ``model.classes_``) is a candidate at ``X[i]``.
    """
    _check_rule(rule)
    X = check_array(X, "X")
    if rule == "ovo":
        if not hasattr(model, "votes"):
            raise TypeError(f"rule='ovo' needs a model with votes(X), such as "
                            f"OneVsOneClassifier or svmlib.SVC; got {type(model).__name__}.")
        votes = np.asarray(model.votes(X))
        return votes == votes.max(axis=1, keepdims=True)
    scores = np.asarray(model.decision_function(X), dtype=float)
    if scores.ndim != 2:
        raise ValueError(f"rule={rule!r} needs one decision value per class (shape "
                         f"(n_samples, n_classes)); got shape {scores.shape}. Use a "
                         f"OneVsRestClassifier.")
    if rule == "ovr-sign":
        return scores > 0
    return scores == scores.max(axis=1, keepdims=True)


def rule_outcome(candidates):
    """What the rule decides: a class index, or a code for an ambiguous point.

    Parameters
    ----------
    candidates : array-like of shape (n_samples, n_classes), bool
        As returned by :func:`rule_candidates`.

    Returns
    -------
    ndarray of shape (n_samples,), int
        The index of the single candidate; ``-1`` where there is none (no
        class claims the point); ``-2`` where there are several (several
        claims, or a vote tie).
    """
    candidates = np.asarray(candidates, dtype=bool)
    count = candidates.sum(axis=1)
    outcome = np.argmax(candidates, axis=1)
    outcome[count == 0] = NO_CLASS
    outcome[count > 1] = SEVERAL
    return outcome


def ambiguity_fractions(candidates):
    """Fractions of points with no candidate, several candidates, and either.

    Parameters
    ----------
    candidates : array-like of shape (n_samples, n_classes), bool

    Returns
    -------
    dict
        ``{"none": float, "several": float, "ambiguous": float}``, fractions
        of the rows (of a grid over the plane: fractions of its area).
    """
    count = np.asarray(candidates, dtype=bool).sum(axis=1)
    none = float(np.mean(count == 0))
    several = float(np.mean(count > 1))
    return {"none": none, "several": several, "ambiguous": none + several}


def region_image(candidates, shape, stripe=4):
    """Paint the outcome of a rule on a grid as an RGB image.

    One candidate: the light colour of its class.  No candidate: white.
    Several: diagonal stripes, ``stripe`` grid cells wide, cycling through
    the (stronger) colours of the competing classes.

    Parameters
    ----------
    candidates : array-like of shape (rows * cols, n_classes), bool
        Candidates at the grid points, row by row (as :func:`plane_grid`
        orders them).
    shape : (int, int)
        ``(rows, cols)`` of the grid.
    stripe : int, default=4
        Width of a stripe in grid cells.

    Returns
    -------
    ndarray of shape (rows, cols, 3), float in [0, 1]
    """
    candidates = np.asarray(candidates, dtype=bool)
    rows, cols = shape
    if candidates.shape[0] != rows * cols:
        raise ValueError(f"candidates must have rows * cols = {rows * cols} rows for a grid of "
                         f"shape {shape}; got {candidates.shape[0]}.")
    n_classes = candidates.shape[1]
    light = np.array([light_color(k) for k in range(n_classes)])
    strong = np.array([_stripe_color(k) for k in range(n_classes)])
    count = candidates.sum(axis=1)
    image = np.tile(_WHITE, (rows * cols, 1))
    single = count == 1
    image[single] = light[np.argmax(candidates[single], axis=1)]
    several = count > 1
    if np.any(several):
        i, j = np.divmod(np.arange(rows * cols), cols)
        band = ((i + j) // max(int(stripe), 1))[several] % count[several]
        ranks = np.cumsum(candidates[several], axis=1) - 1   # rank of each candidate
        pick = np.argmax(candidates[several] & (ranks == band[:, None]), axis=1)
        image[several] = strong[pick]
    return image.reshape(rows, cols, 3)


def plane_grid(X, grid=200, padding=0.12, xlim=None, ylim=None):
    """A regular grid over the region of the plane around 2-D data.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    grid : int, default=200
        Points per axis.
    padding : float, default=0.12
        Margin around the data, as a fraction of their range (ignored for
        an axis whose limits are given).
    xlim, ylim : (float, float), optional
        Explicit limits.

    Returns
    -------
    points : ndarray of shape (grid * grid, 2)
        Row by row, from the bottom left.
    extent : (float, float, float, float)
        ``(xmin, xmax, ymin, ymax)`` for ``imshow(..., origin="lower")``.
    """
    X = check_array(X, "X")
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = padding * np.maximum(hi - lo, 1e-9)
    xlim = (lo[0] - pad[0], hi[0] + pad[0]) if xlim is None else tuple(xlim)
    ylim = (lo[1] - pad[1], hi[1] + pad[1]) if ylim is None else tuple(ylim)
    xs = np.linspace(xlim[0], xlim[1], int(grid))
    ys = np.linspace(ylim[0], ylim[1], int(grid))
    xx, yy = np.meshgrid(xs, ys)
    return np.column_stack([xx.ravel(), yy.ravel()]), (xlim[0], xlim[1], ylim[0], ylim[1])


def _scatter_classes(ax, X, y, classes, s=30, legend=True):
    for k, label in enumerate(classes):
        mask = y == label
        ax.scatter(X[mask, 0], X[mask, 1], s=s, color=PALETTE[k % len(PALETTE)],
                   marker=_MULTI_MARKERS[k % len(_MULTI_MARKERS)], edgecolors="white",
                   linewidths=0.6, zorder=4, label=f"class {label}" if legend else None)


def region_legend_handles(classes, kinds=("none", "several")):
    """Legend handles for class markers and for the kinds of ambiguous areas.

    Parameters
    ----------
    classes : sequence
        Class labels, in order (marker and colour of class ``k`` as in the
        figures); empty for none.
    kinds : sequence of {"none", "several", "tie"}, default=("none", "several")
        Which ambiguous areas to explain.

    Returns
    -------
    list of artists
        For ``fig.legend(handles=...)`` or ``ax.legend(handles=...)``.
    """
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], linestyle="none", marker=_MULTI_MARKERS[k % len(_MULTI_MARKERS)],
                      markersize=6, markerfacecolor=PALETTE[k % len(PALETTE)],
                      markeredgecolor="white", label=f"class {label}")
               for k, label in enumerate(classes)]
    texts = {"none": "no class claims it", "several": "several classes claim it",
             "tie": "vote tie"}
    for kind in kinds:
        if kind not in texts:
            raise ValueError(f"kinds must be among 'none', 'several', 'tie'; got {kind!r}.")
        if kind == "none":
            handles.append(Patch(facecolor="white", edgecolor="#888888", linewidth=0.6,
                                 label=texts[kind]))
        else:
            handles.append(Patch(facecolor="#cccccc", edgecolor="#666666", hatch="////",
                                 linewidth=0.6, label=texts[kind]))
    return handles


def plot_multiclass_regions(model, X, y=None, rule="ovr-argmax", ax=None, grid=200,
                            padding=0.12, edges=True, legend=True, stripe=4, xlim=None,
                            ylim=None, legend_loc="best"):
    """Regions of a multiclass rule, with its ambiguous areas marked.

    Each class's region is tinted with its colour; where no class claims a
    point the plane stays white; where several classes claim it (one-vs-rest
    read by signs) or tie in votes (one-vs-one), diagonal stripes alternate
    the colours of the competitors.  Book: (eq-mc-ovr-sign),
    (eq-mc-ovr-argmax), (eq-mc-ovo-votes).

    Parameters
    ----------
    model : fitted estimator
        See :func:`rule_candidates`.
    X : array-like of shape (n_samples, 2)
        The data; the grid covers them.
    y : array-like of shape (n_samples,), optional
        Labels; when given the points are drawn on top.
    rule : {"ovr-argmax", "ovr-sign", "ovo"}, default="ovr-argmax"
    ax : Axes, optional
    grid : int, default=200
        Grid points per axis.
    padding : float, default=0.12
    edges : bool, default=True
        Draw the edges of the regions (thin black lines).
    legend : bool, default=True
        Legend entries for the classes and for the ambiguous areas present
        (for a legend shared by several panels use
        :func:`region_legend_handles`).
    stripe : int, default=4
        Stripe width in grid cells.
    xlim, ylim : (float, float), optional
        Limits of the grid (default: the data with ``padding``).
    legend_loc : str, default="best"

    Returns
    -------
    ax : Axes
        The image has ``gid="regions"``, the edges ``gid="levels"``.
    """
    _check_rule(rule)
    X = check_array(X, "X")
    ax = _tidy(_get_ax(ax))
    points, extent = plane_grid(X, grid, padding, xlim, ylim)
    candidates = rule_candidates(model, points, rule)
    shape = (int(grid), int(grid))
    ax.imshow(region_image(candidates, shape, stripe), origin="lower", extent=extent,
              aspect="auto", interpolation="nearest", zorder=0, gid="regions")
    if edges:
        outcome = rule_outcome(candidates).reshape(shape)
        xs = np.linspace(extent[0], extent[1], shape[1])
        ys = np.linspace(extent[2], extent[3], shape[0])
        for code in np.unique(outcome):
            mask = (outcome == code).astype(float)
            if 0 < mask.sum() < mask.size:
                lines = ax.contour(xs, ys, mask, levels=[0.5], colors="black",
                                   linewidths=0.8, zorder=3)
                lines.set_gid("levels")
    ax.set_xlim(extent[0], extent[1])
    ax.set_ylim(extent[2], extent[3])
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    classes = np.asarray(getattr(model, "classes_", np.arange(candidates.shape[1])))
    if y is not None:
        _scatter_classes(ax, X, np.asarray(y), classes, legend=legend)
    if legend:
        handles, _ = ax.get_legend_handles_labels()
        fractions = ambiguity_fractions(candidates)
        kinds = [kind for kind, present in (("none", fractions["none"] > 0),
                                            ("tie" if rule == "ovo" else "several",
                                             fractions["several"] > 0)) if present]
        handles += region_legend_handles([], kinds)
        if handles:
            ax.legend(handles=handles, loc=legend_loc, handletextpad=0.4, borderaxespad=0.4,
                      labelspacing=0.3, frameon=True, framealpha=0.85, edgecolor="none",
                      fontsize=9).set_zorder(10)
    return ax


def plot_subproblem(estimator, X, y, positive, negative=None, ax=None, grid=150,
                    margins=True, legend=True, padding=0.12, legend_loc="best"):
    """One binary problem of a multiclass reduction, with its classifier.

    One-vs-rest (``negative=None``): class ``positive`` (+1, in its colour)
    against all the others (−1, in grey).  One-vs-one: ``positive`` (+1)
    against ``negative`` (−1), each in its colour; the points of the other
    classes, which this classifier never sees, are drawn hollow and faint.
    The plane is tinted by the sign of the classifier's decision value, with
    the line ``f = 0`` solid and ``f = ±1`` dashed.

    Parameters
    ----------
    estimator : fitted binary estimator
        With ``decision_function``; > 0 means ``positive``.
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        The multiclass labels.
    positive : label
        The class playing +1.
    negative : label, optional
        The class playing −1 (one-vs-one); ``None`` for "the rest".
    ax : Axes, optional
    grid : int, default=150
    margins : bool, default=True
        Draw the dashed lines ``f = ±1``.
    legend : bool, default=True
    padding : float, default=0.12
    legend_loc : str, default="best"
        A Matplotlib legend location, or ``"below"`` for a legend under the
        axes (it then hides no point).

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},) to match X; got {y.shape}.")
    classes = list(np.unique(y))
    if positive not in classes or (negative is not None and negative not in classes):
        raise ValueError(f"positive and negative must be labels present in y "
                         f"({classes}); got positive={positive!r}, negative={negative!r}.")
    ax = _tidy(_get_ax(ax))
    points, extent = plane_grid(X, grid, padding)
    values = np.asarray(estimator.decision_function(points), dtype=float).reshape(grid, grid)
    k_pos = classes.index(positive)
    neg_tint = np.array(to_rgb("#d9d9d9")) * 0.45 + 0.55 if negative is None \
        else light_color(classes.index(negative))
    image = np.where((values > 0)[..., None], light_color(k_pos)[None, None, :],
                     neg_tint[None, None, :])
    ax.imshow(image, origin="lower", extent=extent, aspect="auto", interpolation="nearest",
              zorder=0, gid="regions")
    xs = np.linspace(extent[0], extent[1], grid)
    ys = np.linspace(extent[2], extent[3], grid)
    levels = [-1.0, 0.0, 1.0] if margins else [0.0]
    levels = [v for v in levels if values.min() < v < values.max()]
    if levels:
        styles = ["-" if v == 0 else (0, (5, 4)) for v in levels]
        widths = [1.8 if v == 0 else 1.1 for v in levels]
        lines = ax.contour(xs, ys, values, levels=levels, colors="black", linestyles=styles,
                           linewidths=widths, zorder=3)
        lines.set_gid("levels")
    for k, label in enumerate(classes):
        mask = y == label
        marker = _MULTI_MARKERS[k % len(_MULTI_MARKERS)]
        if label == positive or label == negative:
            ax.scatter(X[mask, 0], X[mask, 1], s=28, color=PALETTE[k % len(PALETTE)],
                       marker=marker, edgecolors="white", linewidths=0.6, zorder=4,
                       label=f"class {label} ({'+1' if label == positive else chr(8722) + '1'})"
                       if legend else None)
        elif negative is None:
            ax.scatter(X[mask, 0], X[mask, 1], s=24, color="#7f7f7f", marker=marker,
                       edgecolors="white", linewidths=0.5, zorder=4,
                       label=f"class {label} (rest, {chr(8722)}1)" if legend else None)
        else:
            ax.scatter(X[mask, 0], X[mask, 1], s=22, facecolors="none",
                       edgecolors="#b0b0b0", marker=marker, linewidths=0.8, zorder=4,
                       label=f"class {label} (not used)" if legend else None)
    ax.set_xlim(extent[0], extent[1])
    ax.set_ylim(extent[2], extent[3])
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    if legend and legend_loc == "below":
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False, fontsize=9,
                  handletextpad=0.3, labelspacing=0.25)
    elif legend:
        legend_artist = ax.legend(loc=legend_loc, handletextpad=0.3, borderaxespad=0.4,
                                  labelspacing=0.3, frameon=True, framealpha=0.85,
                                  edgecolor="none", fontsize=9)
        legend_artist.set_zorder(10)
    return ax


def problem_sizes(class_counts, strategy):
    """Sizes of the binary problems that one-vs-rest or one-vs-one trains.

    Parameters
    ----------
    class_counts : array-like of shape (n_classes,)
        Number of training points of each class.
    strategy : {"ovr", "ovo"}

    Returns
    -------
    ndarray of shape (n_problems, 2), int
        ``(n_plus, n_minus)`` of each problem: for one-vs-rest, class ``k``
        against the rest (``K`` rows); for one-vs-one, class ``i`` against
        class ``j`` for the pairs ``i < j`` in order (``K (K - 1) / 2`` rows).
        Book: (eq-mc-cost).
    """
    counts = np.asarray(class_counts)
    if counts.ndim != 1 or counts.shape[0] < 2 or np.any(counts < 0) \
            or not np.all(np.equal(np.mod(counts, 1), 0)):
        raise ValueError(f"class_counts must be a 1-D list of at least two non-negative "
                         f"integers; got {class_counts!r}.")
    counts = counts.astype(np.int64)
    if strategy == "ovr":
        return np.column_stack([counts, counts.sum() - counts])
    if strategy == "ovo":
        return np.array([[counts[i], counts[j]]
                         for i, j in combinations(range(counts.shape[0]), 2)], dtype=np.int64)
    raise ValueError(f"strategy must be 'ovr' or 'ovo'; got strategy={strategy!r}.")


def plot_multiclass_cost(ks=range(3, 21), n=1000, quantity="problems", exponent=2.0, ax=None):
    """How the work of one-vs-rest and one-vs-one grows with the number of classes.

    ``n`` training points split evenly over ``K`` classes (the sizes are
    treated as real numbers, ``n / K`` per class).

    Parameters
    ----------
    ks : iterable of int, default=range(3, 21)
        Numbers of classes (for ``K = 2`` one-vs-rest needs only one of its
        two problems, which are mirror images).
    n : float, default=1000
        Total number of training points.
    quantity : {"problems", "cost"}, default="problems"
        ``"problems"``: the number of binary problems, ``K`` and
        ``K (K - 1) / 2``.  ``"cost"``: the summed cost ``Σ_p n_p^a`` of
        training, with a binary problem of ``n_p`` points costing ``n_p^a``
        (``a = exponent``), relative to one binary problem on all ``n``
        points.  Book: (eq-mc-cost).
    exponent : float, default=2.0
        The ``a`` above (2: proportional to the entries of the kernel matrix).
    ax : Axes, optional

    Returns
    -------
    ax : Axes
    """
    ks = np.array(list(ks), dtype=float)
    if ks.size == 0 or np.any(ks < 2):
        raise ValueError(f"ks must hold numbers of classes >= 2; got {list(ks)!r}.")
    if quantity not in ("problems", "cost"):
        raise ValueError(f"quantity must be 'problems' or 'cost'; got quantity={quantity!r}.")
    ax = _tidy(_get_ax(ax))
    if quantity == "problems":
        ovr, ovo = ks, ks * (ks - 1) / 2
        ax.set_ylabel("binary problems to train")
    else:
        ovr = ks                                          # K problems of n points each
        ovo = ks * (ks - 1) / 2 * (2.0 / ks) ** exponent  # K(K-1)/2 problems of 2n/K points
        ax.set_ylabel("relative training cost")
    ax.plot(ks, ovr, marker="o", markersize=3.5, color=PALETTE[0], label="one-vs-rest")
    ax.plot(ks, ovo, marker="s", markersize=3.5, color=PALETTE[1], label="one-vs-one")
    ax.set_xlabel("number of classes $K$")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(ks.min() - 0.5, ks.max() + 0.5)
    ax.set_ylim(0, None)
    _legend(ax)
    return ax
