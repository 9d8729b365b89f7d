"""Figures of the kernels chapter, and the small computations behind them.

Book: chapter ``ch-kernels``.  The figures follow the book's visual language
(:mod:`svmlib.plotting`): class −1 blue circles, class +1 orange
squares, the separating (hyper)plane in black, support vectors ringed.

Lifting the plane into three dimensions
    The chapter's two extra explicit maps live in :mod:`svmlib.kernels`
    (:func:`svmlib.feature_maps.paraboloid_feature_map`,
    :func:`svmlib.feature_maps.conic_feature_map`);
    :func:`svmlib.feature_maps.fit_lifted_plane` finds the maximum-margin plane in a
    feature space, and :func:`plot_lift_3d` draws lifted points with that plane, cut to the
    box around the data.
Kernels and their Gram matrices
    :func:`plot_eigenvalues` (the spectrum of one Gram matrix, negative
    eigenvalues in red), :func:`plot_spectrum_decay` (several spectra on a log
    scale: finite rank against full rank), :func:`plot_rbf_profiles` (the RBF
    kernel against distance for a few widths σ).
The cost of the explicit map
    :func:`plot_kernel_cost`.
Kernel machines
    :func:`plot_kernel_expansion_1d` (a kernel SVM's score in one dimension as
    a sum of one bump per support vector) and :func:`plot_cv_heatmap`
    (cross-validated accuracy over a grid of two parameters).
"""

import numpy as np

from .._validation import check_array
from ._core import CLASS_COLORS, CLASS_MARKERS, _get_ax, _legend, _tidy

__all__ = [
    "plane_box_polygon",
    "plot_lift_3d",
    "plot_eigenvalues",
    "plot_spectrum_decay",
    "plot_rbf_profiles",
    "plot_kernel_cost",
    "plot_kernel_expansion_1d",
    "plot_scores_1d",
    "plot_cv_heatmap",
]

#: Colour of eigenvalues below zero (a kernel that is not valid).
NEGATIVE_COLOR = "#d62728"
_PLANE = dict(facecolor="#7f7f7f", edgecolor="black", linewidth=0.8, alpha=0.28)


def _labels_pm1(y, n):
    y = np.asarray(y, dtype=float).ravel()
    if y.shape[0] != n or not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"y must hold one label in {{-1, +1}} per point; got shape {y.shape} "
                         f"with values {np.unique(y)[:5].tolist()}. Map the two classes to "
                         f"-1 and +1.")
    return y


# ------------------------------------------------------------ feature maps

def plane_box_polygon(w, b, lower, upper):
    """The polygon where the plane ``<w, z> + b = 0`` cuts an axis-aligned box.

    Parameters
    ----------
    w : array-like of shape (3,)
    b : float
    lower, upper : array-like of shape (3,)
        Opposite corners of the box.

    Returns
    -------
    ndarray of shape (k, 3)
        The corners of the cut, in order around it (``k`` between 3 and 6),
        or an empty (0, 3) array if the plane misses the box.
    """
    w = check_array(w, "w", ndim=1)
    lower = check_array(lower, "lower", ndim=1)
    upper = check_array(upper, "upper", ndim=1)
    if w.shape != (3,) or lower.shape != (3,) or upper.shape != (3,):
        raise ValueError(f"w, lower and upper must have 3 entries; got shapes {w.shape}, "
                         f"{lower.shape} and {upper.shape}.")
    corners = np.array([[(lower, upper)[(k >> i) & 1][i] for i in range(3)]
                        for k in range(8)])
    values = corners @ w + float(b)
    points = [corner for corner, value in zip(corners, values) if value == 0]
    for a in range(8):
        for i in range(3):
            c = a | (1 << i)
            if c == a:
                continue  # each edge once: from the corner with bit i clear
            va, vc = values[a], values[c]
            if (va < 0 < vc) or (vc < 0 < va):
                t = va / (va - vc)
                points.append(corners[a] + t * (corners[c] - corners[a]))
    if len(points) < 3:
        return np.empty((0, 3))
    points = np.unique(np.round(np.array(points), 12), axis=0)
    if points.shape[0] < 3:
        return np.empty((0, 3))
    centre = points.mean(axis=0)
    normal = w / np.linalg.norm(w)
    e1 = points[0] - centre
    e1 = e1 - (e1 @ normal) * normal
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(normal, e1)
    angles = np.arctan2((points - centre) @ e2, (points - centre) @ e1)
    return points[np.argsort(angles)]


def plot_lift_3d(Z, y, w=None, b=None, ax=None, labels=("$z_1$", "$z_2$", "$z_3$"),
                 elev=20.0, azim=-60.0, legend=True, s=14, pad=0.05, zoom=1.0):
    """Lifted points in three dimensions, with a separating plane.

    Parameters
    ----------
    Z : array-like of shape (n_samples, 3)
        The points after a feature map into R^3, e.g.
        :func:`svmlib.feature_maps.quadratic_feature_map` (Book: (eq-quadratic-map)).
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    w : array-like of shape (3,), optional
        Normal of the plane ``<w, z> + b = 0`` to draw (see
        :func:`svmlib.feature_maps.fit_lifted_plane`); none drawn if omitted.
    b : float, optional
    ax : 3-D Axes, optional
        An Axes made with ``projection="3d"``; a new one by default.
    labels : tuple of 3 str
        Axis labels.
    elev, azim : float
        Viewing angles in degrees (:meth:`~mpl_toolkits.mplot3d.axes3d.Axes3D.view_init`).
    legend : bool, default=True
    s : float, default=14
        Marker area.
    pad : float, default=0.05
        Margin of the box around the data, as a fraction of its size; the
        plane is cut to this box.
    zoom : float, default=1.0
        Size of the box within the Axes (matplotlib leaves a wide border
        around 3-D plots; 1.2 fills it better).

    Returns
    -------
    ax : 3-D Axes
        The plane is a ``Poly3DCollection`` with ``gid="plane"``.
    """
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    Z = check_array(Z, "Z")
    if Z.shape[1] != 3:
        raise ValueError(f"Z must have 3 columns (points in R^3); got shape {Z.shape}. "
                         f"Lift the data with a map into R^3 first.")
    y = _labels_pm1(y, Z.shape[0])
    if ax is None:
        from ._core import figure
        fig, _ = figure(size=(5.0, 4.2))
        fig.clf()
        ax = fig.add_subplot(projection="3d")
    if getattr(ax, "name", "") != "3d":
        raise ValueError("ax must be a 3-D Axes, made with fig.add_subplot(projection='3d').")
    for label in (-1, 1):
        mask = y == label
        sign = "\u2212" if label < 0 else "+"
        ax.scatter(*Z[mask].T, s=s, color=CLASS_COLORS[label], marker=CLASS_MARKERS[label],
                   edgecolors="white", linewidths=0.3, depthshade=False,
                   label=f"$y = {sign}1$")
    lo, hi = Z.min(axis=0), Z.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    lo, hi = lo - pad * span, hi + pad * span
    if w is not None:
        polygon = plane_box_polygon(w, 0.0 if b is None else b, lo, hi)
        if polygon.shape[0] >= 3:
            ax.add_collection3d(Poly3DCollection([polygon], gid="plane", **_PLANE))
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_zlim(lo[2], hi[2])
    ax.set_xlabel(labels[0], labelpad=-4)
    ax.set_ylabel(labels[1], labelpad=-4)
    ax.set_zlabel(labels[2], labelpad=-4)
    from matplotlib.ticker import MaxNLocator
    for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
        axis.set_major_locator(MaxNLocator(4))
    ax.tick_params(labelsize=7, pad=-2)
    ax.view_init(elev=elev, azim=azim)
    ax.set_box_aspect(None, zoom=float(zoom))
    if legend:
        ax.legend(loc="upper left", fontsize=8, frameon=False, handletextpad=0.2)
    return ax


# -------------------------------------------------------- Gram matrices

def plot_eigenvalues(eigenvalues, ax=None, title=None, tol=1e-10, linthresh=1e-2):
    """The eigenvalues of one Gram matrix, largest first, negative ones in red.

    A valid (Mercer) kernel gives no negative eigenvalue
    (Book: (eq-kern-psd)).  The y-axis is symmetric-logarithmic, so large
    and small eigenvalues of both signs are visible together.

    Parameters
    ----------
    eigenvalues : array-like of shape (n,)
        E.g. ``np.linalg.eigvalsh(K)``.
    ax : Axes, optional
    title : str, optional
    tol : float, default=1e-10
        Eigenvalues above ``-tol * max|λ|`` count as non-negative (rounding).
    linthresh : float, default=1e-2
        Range around 0 drawn linearly.

    Returns
    -------
    ax : Axes
    """
    lam = np.sort(check_array(eigenvalues, "eigenvalues", ndim=1))[::-1]
    ax = _tidy(_get_ax(ax))
    scale = max(1.0, float(np.max(np.abs(lam))))
    negative = lam < -tol * scale
    index = np.arange(1, lam.shape[0] + 1)
    for mask, colour in ((~negative, "#4d4d4d"), (negative, NEGATIVE_COLOR)):
        if mask.any():
            ax.vlines(index[mask], 0, lam[mask], color=colour, linewidth=1.4)
            ax.scatter(index[mask], lam[mask], s=16, color=colour, zorder=3)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_yscale("symlog", linthresh=linthresh)
    top = 3.0 * max(float(lam.max()), 0.0) + linthresh
    bottom = 3.0 * min(float(lam.min()), 0.0) - linthresh
    ax.set_ylim(bottom, top)
    ax.set_xlim(0.3, lam.shape[0] + 0.7)
    ax.set_xlabel("eigenvalue number")
    ax.set_ylabel("eigenvalue $\\lambda$")
    if title:
        ax.set_title(title)
    return ax


def plot_spectrum_decay(spectra, ax=None, floor=1e-17):
    """Several Gram spectra on a log scale: where the eigenvalues fall to zero.

    A kernel whose feature space has dimension ``d`` gives Gram matrices of
    rank at most ``d``: the eigenvalues after the ``d``-th are zero up to
    rounding (about 1e-15 of the largest).  The RBF kernel's never reach
    that floor for distinct points (Book: (eq-kern-rbf-taylor)).

    Parameters
    ----------
    spectra : dict
        ``{label: eigenvalues}``, each an array-like of shape (n,).
    ax : Axes, optional
    floor : float, default=1e-17
        Eigenvalues are divided by the largest and clipped below at ``floor``
        (zeros and rounding noise of either sign land there).

    Returns
    -------
    ax : Axes
    """
    if not isinstance(spectra, dict) or not spectra:
        raise ValueError("spectra must be a non-empty dict {label: eigenvalues}.")
    ax = _tidy(_get_ax(ax))
    markers = ["o", "s", "^", "D", "v", "P"]
    for k, (label, lam) in enumerate(spectra.items()):
        lam = np.sort(check_array(lam, f"spectra[{label!r}]", ndim=1))[::-1]
        relative = np.clip(lam / lam[0], floor, None)
        ax.plot(np.arange(1, lam.shape[0] + 1), relative, marker=markers[k % len(markers)],
                markersize=3.5, linewidth=1.2, label=label)
    ax.set_yscale("log")
    ax.set_ylim(floor / 3, 3)
    ax.axhspan(floor / 3, 1e-13, color="#d9d9d9", alpha=0.5, zorder=0, linewidth=0)
    ax.text(0.99, 2e-15, "zero, up to rounding", transform=ax.get_yaxis_transform(),
            ha="right", va="center", fontsize=8, color="#555555")
    ax.set_xlabel("eigenvalue number $k$")
    ax.set_ylabel("$\\lambda_k / \\lambda_1$")
    _legend(ax)
    return ax


def plot_rbf_profiles(sigmas=(0.5, 1.0, 2.0), ax=None, max_distance=4.0):
    """The RBF kernel ``exp(-r^2 / (2 sigma^2))`` against the distance ``r``.

    Book: (eq-kernel-rbf).

    Parameters
    ----------
    sigmas : sequence of float
        Widths σ > 0 (``gamma = 1 / (2 sigma^2)``).
    ax : Axes, optional
    max_distance : float, default=4.0

    Returns
    -------
    ax : Axes
    """
    sigmas = [float(s) for s in sigmas]
    if not sigmas or min(sigmas) <= 0:
        raise ValueError(f"sigmas must be positive widths; got {sigmas!r}.")
    ax = _tidy(_get_ax(ax))
    r = np.linspace(0.0, float(max_distance), 300)
    for s in sigmas:
        ax.plot(r, np.exp(-r ** 2 / (2 * s ** 2)),
                label=f"$\\sigma = {s:g}$ ($\\gamma = {1 / (2 * s * s):.3g}$)")
        ax.plot([s], [np.exp(-0.5)], marker="o", color=ax.lines[-1].get_color(), markersize=4)
    ax.set_xlabel("distance $\\Vert x - z\\Vert$")
    ax.set_ylabel("$k(x, z)$")
    ax.set_ylim(0, 1.05)
    _legend(ax)
    return ax


def plot_kernel_cost(dims, seconds_map, seconds_kernel, ax=None):
    """Time of the explicit feature map against the kernel, as the dimension grows.

    Book: (eq-all-products-map).

    Parameters
    ----------
    dims : array-like of shape (k,)
        Input dimensions m.
    seconds_map, seconds_kernel : array-like of shape (k,)
        Measured times of the two routes to the same Gram matrix.
    ax : Axes, optional

    Returns
    -------
    ax : Axes
    """
    dims = check_array(dims, "dims", ndim=1)
    t_map = check_array(seconds_map, "seconds_map", ndim=1)
    t_kernel = check_array(seconds_kernel, "seconds_kernel", ndim=1)
    if not (dims.shape == t_map.shape == t_kernel.shape):
        raise ValueError(f"dims, seconds_map and seconds_kernel must have the same length; "
                         f"got {dims.shape[0]}, {t_map.shape[0]} and {t_kernel.shape[0]}.")
    ax = _tidy(_get_ax(ax))
    ax.loglog(dims, t_map * 1e3, marker="s", color="#d62728",
              label="explicit map: $\\varphi(\\mathbf{x})$ with $p^2$ coordinates, then inner products")
    ax.loglog(dims, t_kernel * 1e3, marker="o", color="#2ca02c",
              label="kernel: $(\\mathbf{x} \\cdot \\mathbf{z})^2$ from $p$ coordinates")
    ax.set_xlabel("input dimension $p$")
    ax.set_ylabel("time for the Gram matrix (ms)")
    ax.set_xticks(dims)
    ax.set_xticklabels([f"{d:g}" for d in dims])
    ax.minorticks_off()
    _legend(ax)
    return ax


# ------------------------------------------------------- kernel machines

def plot_kernel_expansion_1d(model, X, y, ax=None, kernel=None, grid=500, pad=0.15,
                             n_terms=None):
    """A kernel SVM's score on the line, as a sum of one bump per support vector.

    Draws each term ``alpha_i y_i k(x_i, x)`` (thin, in the colour of
    ``y_i``), the score ``h(x) = sum_i alpha_i y_i k(x_i, x) + b`` (thick),
    the levels ``h = 0`` and ``h = ±1``, and the training points on the axis,
    support vectors ringed.  Book: (eq-kern-decision).

    Parameters
    ----------
    model : fitted svmlib.SVC (or any model with ``support_vectors_``,
        ``dual_coef_``, ``intercept_`` and ``decision_function``)
        Trained on one feature.
    X : array-like of shape (n_samples, 1)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    ax : Axes, optional
    kernel : callable, optional
        ``k(X, Z)`` the model was trained with; by default rebuilt from the
        model's ``kernel``, ``gamma`` (which must then be a number),
        ``degree`` and ``coef0`` with :func:`svmlib.kernels.get_kernel`.
    grid : int, default=500
    pad : float, default=0.15
        Margin around the data, as a fraction of its range.
    n_terms : int, optional
        Draw only the terms of the ``n_terms`` largest ``|alpha_i|``.

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    if X.shape[1] != 1:
        raise ValueError(f"X must have one column (points on a line); got shape {X.shape}.")
    y = _labels_pm1(y, X.shape[0])
    ax = _tidy(_get_ax(ax))
    lo, hi = X.min(), X.max()
    span = max(hi - lo, 1e-9)
    t = np.linspace(lo - pad * span, hi + pad * span, int(grid))[:, None]
    coef = np.asarray(model.dual_coef_)[0]
    sv = np.asarray(model.support_vectors_)
    if kernel is None:
        kernel = _model_kernel(model)
    K = np.asarray(kernel(t, sv))
    order = np.argsort(-np.abs(coef))
    if n_terms is not None:
        order = order[:int(n_terms)]
    for j in order:
        colour = CLASS_COLORS[1] if coef[j] > 0 else CLASS_COLORS[-1]
        ax.plot(t[:, 0], coef[j] * K[:, j], color=colour, linewidth=0.9, alpha=0.8)
    h = np.asarray(model.decision_function(t))
    ax.plot(t[:, 0], h, color="black", linewidth=2.0, label="$h(x)$", zorder=4)
    ax.axhline(0, color="black", linewidth=0.8)
    for level in (-1, 1):
        ax.axhline(level, color="black", linewidth=0.9, linestyle=(0, (5, 4)))
    band = ax.get_xaxis_transform()  # x in data units, y from 0 to 1 of the axes
    ax.fill_between(t[:, 0], 0, 1, where=h > 0, color="#fde3cc", alpha=0.6, zorder=0,
                    linewidth=0, transform=band)
    ax.fill_between(t[:, 0], 0, 1, where=h <= 0, color="#dbe9f5", alpha=0.6, zorder=0,
                    linewidth=0, transform=band)
    ax.set_ylim(min(h.min(), (coef[:, None] * K.T).min(), -1.2) - 0.3,
                max(h.max(), (coef[:, None] * K.T).max(), 1.2) + 0.3)
    base = ax.get_ylim()[0] + 0.06 * np.ptp(ax.get_ylim())
    for label in (-1, 1):
        mask = y == label
        ax.scatter(X[mask, 0], np.full(mask.sum(), base), color=CLASS_COLORS[label],
                   marker=CLASS_MARKERS[label], s=34, zorder=5, edgecolors="white",
                   linewidths=0.6)
    ax.scatter(sv[:, 0], np.full(sv.shape[0], base), s=120, facecolors="none",
               edgecolors="black", linewidths=1.3, zorder=6, label="support vectors")
    ax.set_xlim(t[0, 0], t[-1, 0])
    ax.set_xlabel("$x$")
    ax.set_ylabel("score")
    _legend(ax)
    return ax


def plot_scores_1d(models, X, y, labels=None, ax=None, grid=500, pad=0.15):
    """The scores ``h(x)`` of several one-feature models on one line.

    One curve per model, in shades of grey from light (first) to black
    (last), with the levels ``h = 0`` and ``h = ±1`` and the training points
    on the axis.  Used to show how the RKHS norm of a kernel SVM's function
    grows with ``C`` (Book: ``eq-kern-rkhs-norm``).

    Parameters
    ----------
    models : sequence of fitted models with ``decision_function``
        Trained on one feature.
    X : array-like of shape (n_samples, 1)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    labels : sequence of str, optional
        Legend entry per model.
    ax : Axes, optional
    grid : int, default=500
    pad : float, default=0.15
        Margin around the data, as a fraction of its range.

    Returns
    -------
    ax : Axes
    """
    X = check_array(X, "X")
    if X.shape[1] != 1:
        raise ValueError(f"X must have one column (points on a line); got shape {X.shape}.")
    y = _labels_pm1(y, X.shape[0])
    models = list(models)
    if labels is None:
        labels = [None] * len(models)
    if len(labels) != len(models):
        raise ValueError(f"labels must have one entry per model; got {len(labels)} labels "
                         f"for {len(models)} models.")
    ax = _tidy(_get_ax(ax))
    lo, hi = X.min(), X.max()
    span = max(hi - lo, 1e-9)
    t = np.linspace(lo - pad * span, hi + pad * span, int(grid))[:, None]
    shades = np.linspace(0.72, 0.0, len(models)) if len(models) > 1 else [0.0]
    low, high = -1.2, 1.2
    for model, label, shade in zip(models, labels, shades):
        h = np.asarray(model.decision_function(t))
        low, high = min(low, h.min()), max(high, h.max())
        ax.plot(t[:, 0], h, color=str(float(shade)), linewidth=1.8, label=label, zorder=4)
    ax.axhline(0, color="black", linewidth=0.8)
    for level in (-1, 1):
        ax.axhline(level, color="black", linewidth=0.9, linestyle=(0, (5, 4)))
    ax.set_ylim(low - 0.3, high + 0.3)
    base = ax.get_ylim()[0] + 0.06 * np.ptp(ax.get_ylim())
    for label in (-1, 1):
        mask = y == label
        ax.scatter(X[mask, 0], np.full(mask.sum(), base), color=CLASS_COLORS[label],
                   marker=CLASS_MARKERS[label], s=34, zorder=5, edgecolors="white",
                   linewidths=0.6)
    ax.set_xlim(t[0, 0], t[-1, 0])
    ax.set_xlabel("$x$")
    ax.set_ylabel("score $h(x)$")
    _legend(ax)
    return ax

def _model_kernel(model):
    """The kernel function of a fitted SVC whose parameters are plain numbers."""
    from ..kernels import get_kernel

    name = getattr(model, "kernel", None)
    if callable(name):
        return get_kernel(name)
    gamma = getattr(model, "gamma", 1.0)
    if name not in ("linear", "poly", "rbf") or isinstance(gamma, str):
        raise ValueError(
            f"cannot rebuild the kernel of this model (kernel={name!r}, gamma={gamma!r}); "
            f"pass kernel=svmlib.kernels.get_kernel(...) with the numbers it was trained with.")
    return get_kernel(name, gamma=gamma, degree=model.degree, coef0=float(model.coef0))


def plot_cv_heatmap(scores, row_values, col_values, ax=None, row_label="$\\sigma$",
                    col_label="$C$", fmt="{:.3f}", cmap="Greens"):
    """A grid of cross-validated scores, the best cell boxed.

    Parameters
    ----------
    scores : array-like of shape (n_rows, n_cols)
        Mean validation score of each pair of parameter values.
    row_values, col_values : sequence
        The parameter values of the rows and of the columns.
    ax : Axes, optional
    row_label, col_label : str
    fmt : str, default="{:.3f}"
        Format of the numbers written in the cells.
    cmap : str, default="Greens"

    Returns
    -------
    ax : Axes
    """
    S = check_array(scores, "scores")
    if S.shape != (len(row_values), len(col_values)):
        raise ValueError(f"scores must have shape (len(row_values), len(col_values)) = "
                         f"({len(row_values)}, {len(col_values)}); got {S.shape}.")
    ax = _get_ax(ax)
    lo, hi = float(S.min()), float(S.max())
    spread = hi - lo + 1e-9
    ax.imshow(S, cmap=cmap, vmin=lo - 0.2 * spread, vmax=hi + 0.35 * spread, aspect="auto",
              origin="lower")
    for i in range(S.shape[0]):
        for j in range(S.shape[1]):
            dark = S[i, j] > lo + 0.7 * spread
            ax.text(j, i, fmt.format(S[i, j]), ha="center", va="center", fontsize=8,
                    color="white" if dark else "black")
    i, j = np.unravel_index(np.argmax(S), S.shape)
    from matplotlib.patches import Rectangle
    ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="black",
                           linewidth=2.0))
    ax.set_xticks(range(S.shape[1]))
    ax.set_xticklabels([f"{v:g}" for v in col_values])
    ax.set_yticks(range(S.shape[0]))
    ax.set_yticklabels([f"{v:g}" for v in row_values])
    ax.set_xlabel(col_label)
    ax.set_ylabel(row_label)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return ax
