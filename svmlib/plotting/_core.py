"""The book's visual language: one function per kind of figure.

Every figure in the book draws the same things the same way:

* class −1 in blue circles, class +1 in orange squares (:data:`CLASS_COLORS`,
  :data:`CLASS_MARKERS`); more classes take the colours of :data:`PALETTE`;
* the hyperplane h(x) = 0 as a solid black line, the margin planes
  h(x) = ±1 as dashed lines;
* support vectors ringed with a black circle;
* slack ξᵢ as a thin grey segment from a point to its margin plane;
* decision regions as a soft blue–white–orange map of h(x), with contour
  lines at h = −1, 0, +1.

Every function takes ``ax=None`` (then it makes a new figure with
:func:`figure`), draws, and returns ``ax``; none calls ``plt.show()``.
A model is anything with a ``decision_function`` (a fitted estimator) or a
plain callable ``f(X) -> h`` on arrays of shape (n_samples, 2).

The book's style (font sizes, no top and right spines, ...) is applied by
:func:`figure` to the figures it makes, and is available as a context manager,
:func:`style`; importing this module changes no global setting.
"""

import contextlib

import numpy as np
from matplotlib.colors import LinearSegmentedColormap

from .._validation import check_array

__all__ = [
    "CLASS_COLORS",
    "CLASS_MARKERS",
    "PALETTE",
    "REGION_CMAP",
    "BOOK_RC",
    "SIZES",
    "style",
    "figure",
    "plot_data",
    "plot_hyperplane",
    "plot_normal",
    "plot_decision_regions",
    "plot_svm",
    "ring_support_vectors",
    "plot_slack",
    "plot_multipliers",
    "decision_values",
]

#: Colours of the two classes, keyed by label.
CLASS_COLORS = {-1: "#1f77b4", 1: "#e8710a"}
#: Markers of the two classes, keyed by label (shape as well as colour, for
#: readers who do not tell blue from orange).
CLASS_MARKERS = {-1: "o", 1: "s"}
#: Colours for K classes, in order of the sorted class labels.  The first two
#: are the binary colours.
PALETTE = ["#1f77b4", "#e8710a", "#2ca02c", "#9467bd", "#d62728",
           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
_MULTI_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "h"]

#: The book's figure sizes in inches (width, height) for one panel.
SIZES = {"small": (4.0, 3.0), "medium": (6.0, 4.0), "large": (8.0, 5.0)}
_MAX_WIDTH = 10.0

#: Matplotlib settings of the book's figures (applied by :func:`style`).
BOOK_RC = {
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "figure.facecolor": "white",
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": False,
    "axes.titlelocation": "center",
    "lines.linewidth": 1.6,
    "image.interpolation": "bilinear",
}

_HYPERPLANE = dict(color="black", linewidth=1.8, linestyle="-", zorder=3)
_MARGIN = dict(color="black", linewidth=1.1, linestyle=(0, (5, 4)), zorder=3)
_SLACK = dict(color="#6b6b6b", linewidth=1.0, zorder=2.5)
_RING = dict(facecolors="none", edgecolors="black", linewidths=1.4, zorder=5)

#: Soft diverging colour map of h(x): light blue (h < 0), white (h = 0),
#: light orange (h > 0).
REGION_CMAP = LinearSegmentedColormap.from_list(
    "svmlib_regions", ["#9cc3e4", "#dbe9f5", "#ffffff", "#fde3cc", "#f7b987"], N=256)


def _region_cmap():
    return REGION_CMAP


@contextlib.contextmanager
def style():
    """Context manager: draw with the book's style, then restore the settings.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> with style():
    ...     fig, ax = plt.subplots()
    """
    import matplotlib as mpl
    with mpl.rc_context(BOOK_RC):
        yield


def _tidy(ax):
    """Apply the parts of the style that live on the axes themselves."""
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.tick_params(labelsize=BOOK_RC["xtick.labelsize"])
    return ax


def figure(ncols=1, nrows=1, size="medium", **kwargs):
    """A new pyplot figure in the book's style and size.

    Parameters
    ----------
    ncols, nrows : int, default=1
        Grid of panels.
    size : {"small", "medium", "large"} or (width, height), default="medium"
        Size of one panel in inches; a row of panels is scaled down to fit
        the page width (10 inches at most).
    **kwargs
        Passed on to :func:`matplotlib.pyplot.subplots` (e.g. ``sharey``).

    Returns
    -------
    fig : matplotlib.figure.Figure
    axes : Axes or ndarray of Axes
        One Axes when ``ncols == nrows == 1``, else an array as
        :func:`~matplotlib.pyplot.subplots` returns it.
    """
    import matplotlib.pyplot as plt

    if isinstance(size, str):
        if size not in SIZES:
            raise ValueError(f"size must be one of {', '.join(map(repr, SIZES))} or a "
                             f"(width, height) pair; got size={size!r}.")
        width, height = SIZES[size]
    else:
        try:
            width, height = (float(v) for v in size)
        except (TypeError, ValueError):
            raise ValueError(f"size must be a name or a (width, height) pair in inches; "
                             f"got size={size!r}.") from None
    total_w, total_h = width * ncols, height * nrows
    if total_w > _MAX_WIDTH:
        shrink = _MAX_WIDTH / total_w
        total_w, total_h = _MAX_WIDTH, total_h * shrink
    kwargs.setdefault("layout", "constrained")
    with style():
        fig, axes = plt.subplots(nrows, ncols, figsize=(total_w, total_h), **kwargs)
    for ax in np.atleast_1d(axes).ravel():
        _tidy(ax)
    return fig, axes


def _get_ax(ax):
    if ax is None:
        _, ax = figure()
    return ax


# --------------------------------------------------------------------- data

def _class_styles(labels):
    """Colour, marker and legend text for each class label."""
    labels = list(labels)
    as_numbers = []
    for lab in labels:
        try:
            as_numbers.append(float(lab))
        except (TypeError, ValueError):
            as_numbers = None
            break
    if as_numbers is not None and len(labels) <= 2 and set(as_numbers) <= {-1.0, 1.0}:
        styles = {}
        for lab, num in zip(labels, as_numbers):
            key = int(num)
            sign = "\u2212" if key < 0 else "+"
            styles[lab] = (CLASS_COLORS[key], CLASS_MARKERS[key], f"$y = {sign}1$")
        return styles
    if len(labels) == 2:  # any two labels: first is "negative", second "positive"
        return {labels[0]: (CLASS_COLORS[-1], CLASS_MARKERS[-1], f"class {labels[0]}"),
                labels[1]: (CLASS_COLORS[1], CLASS_MARKERS[1], f"class {labels[1]}")}
    return {lab: (PALETTE[i % len(PALETTE)], _MULTI_MARKERS[i % len(_MULTI_MARKERS)],
                  f"class {lab}") for i, lab in enumerate(labels)}


def plot_data(X, y, ax=None, s=36, legend=True, labels=None, aspect="auto-equal", **kwargs):
    """Scatter 2-D points coloured by class.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
        The points.
    y : array-like of shape (n_samples,)
        Their labels: −1/+1 (blue circles, orange squares), any two labels,
        or K classes (colours of :data:`PALETTE`).  ``None`` draws every point
        in grey.
    ax : Axes, optional
    s : float, default=36
        Marker area in points².
    legend : bool, default=True
        Whether to add a legend entry per class.
    labels : dict, optional
        Legend text per class label, overriding the default ``"y = −1"``.
    aspect : {"auto-equal", "equal", "auto"}, default="auto-equal"
        ``"equal"`` keeps angles and distances true (a normal vector looks
        normal); ``"auto-equal"`` does so unless the two features have very
        different ranges (ratio above 4).
    **kwargs
        Passed on to :meth:`~matplotlib.axes.Axes.scatter` (e.g. ``alpha``).

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    if X.shape[1] != 2:
        raise ValueError(f"X must have 2 columns to be drawn in the plane; got shape "
                         f"{X.shape}. Select two features, e.g. X[:, :2].")
    ax = _tidy(_get_ax(ax))
    kwargs.setdefault("edgecolors", "white")
    kwargs.setdefault("linewidths", 0.6)
    kwargs.setdefault("zorder", 4)
    if y is None:
        ax.scatter(X[:, 0], X[:, 1], s=s, color="#555555", **kwargs)
    else:
        y = np.asarray(y)
        if y.shape != (X.shape[0],):
            raise ValueError(f"y must have shape ({X.shape[0]},) to match X; got shape "
                             f"{y.shape}. Use y.ravel() for a column vector.")
        classes = np.unique(y)
        for lab, (colour, marker, text) in _class_styles(classes).items():
            mask = y == lab
            if labels is not None and lab in labels:
                text = labels[lab]
            ax.scatter(X[mask, 0], X[mask, 1], s=s, color=colour, marker=marker,
                       label=text if legend else None, **kwargs)
    if not ax.get_xlabel():
        ax.set_xlabel("$x_1$")
    if not ax.get_ylabel():
        ax.set_ylabel("$x_2$")
    _set_aspect(ax, X, aspect)
    if legend and y is not None:
        _legend(ax)
    return ax


def _set_aspect(ax, X, aspect):
    if aspect == "auto":
        return
    if aspect == "auto-equal":
        span = np.ptp(X, axis=0) + 1e-12
        if max(span) / min(span) > 4:
            return
    ax.set_aspect("equal", adjustable="box")


def _legend(ax):
    handles, texts = ax.get_legend_handles_labels()
    if handles:
        legend = ax.legend(loc="best", handletextpad=0.3, borderaxespad=0.4, labelspacing=0.3,
                           frameon=True, framealpha=0.85, edgecolor="none",
                           fontsize=BOOK_RC["legend.fontsize"])
        legend.set_zorder(10)


# --------------------------------------------------------------- hyperplanes

def _check_w_b(w, b):
    w = check_array(w, "w", ndim=1) if np.ndim(w) == 1 else check_array(
        np.ravel(w), "w", ndim=1)
    if w.shape[0] != 2:
        raise ValueError(f"w must have 2 entries to draw the hyperplane in the plane; got "
                         f"shape {w.shape}.")
    if not np.any(w):
        raise ValueError("w must not be the zero vector: h(x) = b is constant and has no "
                         "hyperplane. Use a nonzero w.")
    b = float(np.ravel(b)[0]) if np.ndim(b) else float(b)
    if not np.isfinite(b):
        raise ValueError(f"b must be a finite number; got b={b!r}.")
    return w, b


def _line_points(w, b, level):
    """Two points on {x : <w, x> + b = level}: the one closest to the origin, one step along."""
    p0 = (level - b) * w / np.dot(w, w)
    direction = np.array([-w[1], w[0]]) / np.linalg.norm(w)
    return p0, p0 + direction


def plot_hyperplane(w, b, ax=None, margins=False, label=None, **kwargs):
    """Draw the line h(x) = <w, x> + b = 0 (and optionally h = ±1).

    The lines are infinite (:meth:`~matplotlib.axes.Axes.axline`), so they
    are always clipped to the axes limits, whatever the limits become, and
    they do not change the limits.  Draw the data first.

    Parameters
    ----------
    w : array-like of shape (2,)
        Normal vector (not necessarily of unit length).
    b : float
        Bias.
    ax : Axes, optional
    margins : bool, default=False
        Also draw the margin planes h(x) = −1 and h(x) = +1, dashed.
        Book: (eq-margin-planes).
    label : str, optional
        Legend text of the hyperplane (the margins get ``"h(x) = ±1"``).
    **kwargs
        Line properties for the hyperplane (e.g. ``color``, ``linewidth``).
        The artists carry ``gid="hyperplane"`` and ``gid="margin"``.

    Returns
    -------
    ax : Axes
    """
    w, b = _check_w_b(w, b)
    ax = _get_ax(ax)
    props = {**_HYPERPLANE, **kwargs}
    p, q = _line_points(w, b, 0.0)
    ax.axline(p, q, label=label, gid="hyperplane", **props)
    if margins:
        margin_props = dict(_MARGIN)
        if "color" in kwargs:
            margin_props["color"] = kwargs["color"]
        for level in (-1.0, 1.0):
            p, q = _line_points(w, b, level)
            ax.axline(p, q, gid="margin",
                      label=("$h(\\mathbf{x}) = \\pm 1$" if (label and level > 0) else None),
                      **margin_props)
    if label is not None:
        _legend(ax)
    return ax


def plot_normal(w, b, ax=None, anchor=None, length=None, label="$\\mathbf{w}$", color="black"):
    """Draw the normal vector w as an arrow starting on the hyperplane.

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
    ax : Axes, optional
    anchor : array-like of shape (2,), optional
        Where the arrow starts.  By default the point of the hyperplane
        closest to the centre of the current view, so that it is visible.
    length : float, optional
        Arrow length in data units.  By default ``‖w‖`` if that fits in the
        view, else a fifth of the view's diagonal (the direction is what
        matters).
    label : str, default="$\\mathbf{w}$"
        Text at the tip (``None`` for none).
    color : color, default="black"

    Returns
    -------
    ax : Axes
    """
    w, b = _check_w_b(w, b)
    ax = _get_ax(ax)
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    if anchor is None:
        centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
        anchor = centre - (centre @ w + b) / (w @ w) * w  # Book: (eq-projection)
    anchor = np.asarray(anchor, dtype=float)
    diagonal = np.hypot(x1 - x0, y1 - y0)
    norm = np.linalg.norm(w)
    if length is None:
        length = norm if 0.08 * diagonal <= norm <= 0.35 * diagonal else 0.2 * diagonal
    tip = anchor + length * w / norm
    ax.annotate("", xy=tip, xytext=anchor, gid="normal",
                arrowprops=dict(arrowstyle="-|>", color=color, linewidth=1.5,
                                mutation_scale=14, shrinkA=0, shrinkB=0), zorder=6)
    if label:
        offset = 0.04 * diagonal * w / norm
        ax.text(*(tip + offset), label, color=color, ha="center", va="center", zorder=6,
                gid="normal")
    ax.set_aspect("equal", adjustable="box")
    return ax


# ---------------------------------------------------------- decision regions

def decision_values(f, X):
    """Evaluate a model on points: ``f.decision_function(X)`` or ``f(X)``.

    Parameters
    ----------
    f : estimator with ``decision_function``, or callable
        A fitted model, or a function mapping (n_samples, 2) to (n_samples,).
    X : ndarray of shape (n_samples, 2)

    Returns
    -------
    ndarray of shape (n_samples,) or (n_samples, n_outputs)
    """
    if hasattr(f, "decision_function"):
        h = f.decision_function(X)
    elif callable(f):
        h = f(X)
    else:
        raise TypeError(f"f must be a fitted estimator with decision_function or a "
                        f"callable f(X) -> h; got an object of type {type(f).__name__}.")
    h = np.asarray(h, dtype=float)
    if h.shape[0] != X.shape[0]:
        raise ValueError(f"the model returned {h.shape[0]} values for {X.shape[0]} points; "
                         f"f(X) must return one value per row of X.")
    return h


def _grid(X, ax, grid, padding):
    X = check_array(X, "X")
    lo, hi = X[:, :2].min(axis=0), X[:, :2].max(axis=0)
    pad = padding * np.maximum(hi - lo, 1e-9)
    lo, hi = lo - pad, hi + pad
    if ax.has_data() or ax.get_autoscale_on() is False:
        (a, b_), (c, d) = ax.get_xlim(), ax.get_ylim()
        lo = np.minimum(lo, [a, c])
        hi = np.maximum(hi, [b_, d])
    xs = np.linspace(lo[0], hi[0], grid)
    ys = np.linspace(lo[1], hi[1], grid)
    xx, yy = np.meshgrid(xs, ys)
    return xx, yy, np.column_stack([xx.ravel(), yy.ravel()])


def plot_decision_regions(f, X, y=None, ax=None, levels=(-1, 0, 1), grid=200, fill=True,
                          lines=True, padding=0.1, vmax=None, alpha=1.0, colorbar=False):
    """Shade the plane by h(x) and draw contour lines at the given levels.

    Parameters
    ----------
    f : estimator with ``decision_function``, or callable ``f(X) -> h``
        A binary model: h(x) < 0 is shaded blue, h(x) > 0 orange, with white
        at the boundary.  For K > 2 classes (``classes_`` with more than two
        entries, or ``f`` returning a 2-D array) the regions take the class
        colours of :data:`PALETTE` instead.
    X : array-like of shape (n_samples, 2)
        The data; the grid covers them with a margin of ``padding``.
    y : array-like of shape (n_samples,), optional
        When given, the points are drawn on top (:func:`plot_data`).
    ax : Axes, optional
    levels : sequence of float, default=(-1, 0, 1)
        Contour lines: 0 solid (the decision boundary), others dashed
        (the margins).  Empty for no lines.
    grid : int, default=200
        Grid points per axis.
    fill : bool, default=True
        Whether to shade the regions.
    lines : bool, default=True
        Whether to draw the contour lines.
    padding : float, default=0.1
        Margin around the data, as a fraction of its range.
    vmax : float, optional
        :math:`|h|` at which the colours saturate; by default 3 (so that one value
        of h has one colour across the book's figures), or less when :math:`|h|`
        stays smaller on the grid (its 98th percentile, at least 1).
    alpha : float, default=1.0
    colorbar : bool, default=False
        Add a colour bar labelled h(x).

    Returns
    -------
    ax : Axes
        The shading has ``gid="regions"``, the lines ``gid="levels"``.
    """
    ax = _get_ax(ax)
    grid = int(grid)
    xx, yy, points = _grid(X, ax, grid, padding)
    extent = (xx[0, 0], xx[0, -1], yy[0, 0], yy[-1, 0])
    aspect = ax.get_aspect()  # imshow would reset it
    ax.set_autoscale_on(False)  # the limits are set below, once
    classes = getattr(f, "classes_", None)
    multiclass = classes is not None and len(classes) > 2
    h = None if multiclass else decision_values(f, points)
    if multiclass or h.ndim == 2:
        _plot_class_regions(f, points, h, xx.shape, extent, ax, fill, alpha)
    else:
        h = h.reshape(xx.shape)
        if fill:
            if vmax is None:  # the same h, the same colour, up to |h| = 3
                vmax = float(np.clip(np.percentile(np.abs(h), 98), 1.0, 3.0))
            image = ax.imshow(h, origin="lower", extent=extent, cmap=_region_cmap(),
                              vmin=-vmax, vmax=vmax, aspect="auto", alpha=alpha, zorder=0,
                              interpolation="bilinear", gid="regions")
            if colorbar:
                ax.figure.colorbar(image, ax=ax, label="$h(\\mathbf{x})$", shrink=0.85)
        levels = sorted(float(v) for v in levels)
        if lines and levels and h.min() < max(levels) and h.max() > min(levels):
            styles = ["-" if v == 0 else (0, (5, 4)) for v in levels]
            widths = [_HYPERPLANE["linewidth"] if v == 0 else _MARGIN["linewidth"]
                      for v in levels]
            contours = ax.contour(xx, yy, h, levels=levels, colors="black",
                                  linestyles=styles, linewidths=widths, zorder=3)
            contours.set_gid("levels")
    ax.set_aspect(aspect, adjustable="box")
    if ax.get_xlim() != (extent[0], extent[1]):  # (setting equal limits would still
        ax.set_xlim(extent[0], extent[1])        # mark the axis as changed, which
    if ax.get_ylim() != (extent[2], extent[3]):  # costs interactive figures a redraw)
        ax.set_ylim(extent[2], extent[3])
    if y is not None:
        plot_data(X, y, ax=ax)
    return ax


def _plot_class_regions(f, points, h, shape, extent, ax, fill, alpha):
    from matplotlib.colors import ListedColormap, to_rgb

    if h is None:
        pred = np.asarray(f.predict(points))
        classes = np.asarray(f.classes_)
        index = np.searchsorted(classes, pred)
    else:
        index = np.argmax(h, axis=1)
        classes = np.arange(h.shape[1])
    k = len(classes)
    light = [tuple(0.62 * np.ones(3) + 0.38 * np.array(to_rgb(PALETTE[i % len(PALETTE)])))
             for i in range(k)]
    index = index.reshape(shape)
    if fill:
        ax.imshow(index, origin="lower", extent=extent, cmap=ListedColormap(light),
                  vmin=-0.5, vmax=k - 0.5, aspect="auto", interpolation="nearest",
                  alpha=alpha, zorder=0, gid="regions")
    xx = np.linspace(extent[0], extent[1], shape[1])
    yy = np.linspace(extent[2], extent[3], shape[0])
    for i in range(k):  # boundaries: the edges of each class's region
        mask = (index == i).astype(float)
        if 0 < mask.sum() < mask.size:
            cs = ax.contour(xx, yy, mask, levels=[0.5], colors="black", linewidths=1.2,
                            zorder=3)
            cs.set_gid("levels")


def ring_support_vectors(X_sv, ax=None, s=130, label="support vectors", **kwargs):
    """Ring support vectors with black circles.

    Parameters
    ----------
    X_sv : array-like of shape (n_support, 2), or a fitted model
        The support vectors, or a model with ``support_vectors_``.
    ax : Axes, optional
    s : float, default=130
        Ring area in points² (larger than the data markers).
    label : str, default="support vectors"
        Legend text (``None`` for none).

    Returns
    -------
    ax : Axes
        The rings are one collection with ``gid="support-vectors"``.
    """
    if hasattr(X_sv, "support_vectors_"):
        X_sv = X_sv.support_vectors_
    X_sv = check_array(X_sv, "X_sv", allow_empty=True)
    ax = _get_ax(ax)
    props = {**_RING, **kwargs}
    ax.scatter(X_sv[:, 0], X_sv[:, 1], s=s, label=label, gid="support-vectors", **props)
    if label:
        _legend(ax)
    return ax


def _linear_parameters(model):
    """(w, b) of a linear model given as an estimator, a Hyperplane or a pair."""
    if isinstance(model, (tuple, list)) and len(model) == 2:
        return _check_w_b(*model)
    if hasattr(model, "coef_") and hasattr(model, "intercept_"):
        try:
            return _check_w_b(np.ravel(model.coef_), np.ravel(model.intercept_)[0])
        except AttributeError:
            pass
    if hasattr(model, "w") and hasattr(model, "b"):
        return _check_w_b(model.w, model.b)
    raise ValueError(
        "model must be linear to draw slack segments: a fitted estimator with coef_ and "
        "intercept_ (e.g. SVC(kernel='linear')), a Hyperplane, or a pair (w, b); got an "
        f"object of type {type(model).__name__}.")


def plot_slack(model, X, y, ax=None, annotate=False, tol=1e-9):
    """Draw each point's slack ξᵢ = max(0, 1 − yᵢ h(xᵢ)) as a grey segment.

    The segment runs from xᵢ to the nearest point of its own margin plane
    yᵢ h(x) = 1, so its length is ξᵢ / ‖w‖.  Book: (eq-soft-slack-distance).

    Parameters
    ----------
    model : linear estimator, Hyperplane, or (w, b)
        A fitted model with ``coef_`` and ``intercept_``, an object with
        ``w`` and ``b``, or the pair itself.
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {−1, +1}.
    ax : Axes, optional
    annotate : bool, default=False
        Write ξᵢ (two decimals) next to each segment.
    tol : float, default=1e-9
        Slack below this is treated as zero (no segment).

    Returns
    -------
    ax : Axes
        The segments are one collection with ``gid="slack"``.
    """
    from matplotlib.collections import LineCollection

    w, b = _linear_parameters(model)
    X = check_array(X, "X")
    y = np.asarray(y, dtype=float).ravel()
    if y.shape[0] != X.shape[0] or not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must hold one label in {-1, +1} per row of X; got "
                         f"shape {y.shape} with values {np.unique(y)[:5].tolist()}.")
    ax = _get_ax(ax)
    xi = np.maximum(0.0, 1.0 - y * (X @ w + b))
    has_slack = xi > tol
    targets = X + (xi * y)[:, None] * w[None, :] / (w @ w)
    segments = np.stack([X[has_slack], targets[has_slack]], axis=1)
    ax.add_collection(LineCollection(segments, gid="slack", label="slack $\\xi_i$", **_SLACK),
                      autolim=False)
    if annotate:
        for p, q, v in zip(segments[:, 0], segments[:, 1], xi[has_slack]):
            mid = (p + q) / 2
            ax.annotate(f"{v:.2f}", mid, xytext=(4, 2), textcoords="offset points",
                        fontsize=8, color=_SLACK["color"], gid="slack")
    return ax


def plot_svm(model, X, y, ax=None, regions=True, support_vectors=True, grid=200, legend=True):
    """The standard SVM figure: regions, boundary, margins and ringed support vectors.

    Parameters
    ----------
    model : fitted estimator or callable
        Anything :func:`plot_decision_regions` accepts.  Support vectors are
        taken from ``support_vectors_`` (or ``X[support_]``) when present.
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
    ax : Axes, optional
    regions : bool, default=True
        Shade the regions; the lines h = −1, 0, +1 are drawn either way.
    support_vectors : bool, default=True
        Ring the support vectors.
    grid : int, default=200
    legend : bool, default=True

    Returns
    -------
    ax : Axes
    """
    ax = _get_ax(ax)
    plot_decision_regions(model, X, ax=ax, fill=regions, grid=grid)
    plot_data(X, y, ax=ax, legend=legend)
    if support_vectors:
        sv = getattr(model, "support_vectors_", None)
        if sv is None and getattr(model, "support_", None) is not None:
            sv = check_array(X, "X")[np.asarray(model.support_)]
        if sv is not None:
            ring_support_vectors(sv, ax=ax, label="support vectors" if legend else None)
    return ax


def plot_multipliers(alpha, ax=None, C=None, y=None, threshold=1e-6, labels=True):
    """Bar chart of the Lagrange multipliers αᵢ, one bar per sample.

    Parameters
    ----------
    alpha : array-like of shape (n_samples,)
        The dual variables.
    ax : Axes, optional
    C : float, optional
        The box bound; when finite, a dashed line marks αᵢ = C.
    y : array-like of shape (n_samples,), optional
        Labels in {−1, +1}, to colour the bars by class.
    threshold : float, default=1e-6
        αᵢ above this count as support vectors (bars with a black edge);
        the count is written in the title.
    labels : bool, default=True
        Label the axes and write the count of support vectors as the title.

    Returns
    -------
    ax : Axes
        The bars have ``gid="multipliers"``.
    """
    alpha = check_array(alpha, "alpha", ndim=1)
    ax = _get_ax(ax)
    index = np.arange(alpha.shape[0])
    if y is not None:
        y = np.asarray(y).ravel()
        colours = [CLASS_COLORS[1] if v > 0 else CLASS_COLORS[-1] for v in y]
    else:
        colours = ["#7f7f7f"] * alpha.shape[0]
    sv = alpha > threshold
    ax.bar(index, alpha, color=colours, edgecolor=np.where(sv, "black", "none").tolist(),
           linewidth=0.8, width=0.8, gid="multipliers", zorder=2)
    if C is not None and np.isfinite(C):
        ax.axhline(C, color="black", linestyle=(0, (5, 4)), linewidth=1.0, gid="C")
        ax.annotate(f"$C = {C:g}$", (1.0, C), xycoords=("axes fraction", "data"),
                    xytext=(-2, 3), textcoords="offset points", ha="right", va="bottom",
                    fontsize=9)
    ax.axhline(0, color="black", linewidth=0.8)
    if labels:
        ax.set_xlabel("sample $i$")
        ax.set_ylabel("$\\alpha_i$")
        n = int(sv.sum())
        ax.set_title(f"{n} support vector{'s' if n != 1 else ''} ($\\alpha_i > 0$)")
    if alpha.shape[0] <= 30:
        ax.set_xticks(index)
    _tidy(ax)
    return ax
