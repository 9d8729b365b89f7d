"""Interactive figures of chapter 08, kernels.

Three ready-made figures, each a function of the data that returns an
:class:`~svmlib.widgets.InteractiveFigure`:

* :func:`kernel_playground`: a kernel (linear, polynomial of a chosen degree,
  RBF), the RBF width and ``C`` on log grids, on a choice of data sets; decision
  regions, margins ``h = ±1`` and support vectors, with the number of support
  vectors and the training and test accuracy in the readout;
* :func:`lift_viewer`: circles lifted into three dimensions by a feature map,
  with the maximum-margin plane there and its trace in the plane, seen from
  a choice of viewing angles;
* :func:`support_vector_challenge`: a widget exercise; find a width and a
  ``C`` for which an RBF SVM separates the training data with at most a
  given number of support vectors.

Every fit is done once, when the figure is built (one :class:`svmlib.SVC`
per setting, its score evaluated once on a grid), so a frame only moves
artists.

Book: chapter ``ch-kernels``.
"""

import numpy as np

from .._validation import check_X_y
from ..feature_maps import fit_lifted_plane, paraboloid_feature_map, quadratic_feature_map
from ..plotting._core import CLASS_COLORS, CLASS_MARKERS, REGION_CMAP
from ..plotting.kernels import plot_lift_3d
from ..solvers import NotSeparableError
from ._core import Choice, InteractiveFigure, Slider

__all__ = ["kernel_playground", "lift_viewer", "support_vector_challenge",
           "kernel_svm_on_grid"]

_LIGHT = {-1: "#dbe9f5", 1: "#fde3cc"}
_RINGS = dict(s=110, facecolors="none", edgecolors="black", linewidths=1.3, zorder=5)


def _labels(X, y, name="data"):
    X, y = check_X_y(X, y)
    y = np.asarray(y, dtype=float)
    if X.shape[1] != 2:
        raise ValueError(f"{name}: X must have 2 columns to be drawn in the plane; got shape "
                         f"{X.shape}.")
    if not np.all(np.isin(y, (-1.0, 1.0))) or not (np.any(y > 0) and np.any(y < 0)):
        raise ValueError(f"{name}: y must contain both labels -1 and +1 and nothing else; got "
                         f"{np.unique(y)[:5].tolist()}. Map the classes to -1/+1 first.")
    return X, y


def _view(X, pad=0.12):
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    return lo - pad * span, hi + pad * span


def kernel_svm_on_grid(X, y, kernel, C, grid=90, X_test=None, y_test=None, **params):
    """Fit one :class:`svmlib.SVC` and evaluate its score on a grid.

    Parameters
    ----------
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    kernel : {"linear", "poly", "rbf"}
    C : float
    grid : int, default=90
        Grid points per axis, over the data's box with a 12% margin.
    X_test, y_test : ndarray, optional
        Held-out data for the test accuracy.
    **params
        ``gamma``, ``degree``, ``coef0`` for :class:`svmlib.SVC`.

    Returns
    -------
    dict
        ``h`` (ndarray of shape (grid, grid)), ``extent`` (x0, x1, y0, y1),
        ``support_vectors`` (ndarray of shape (n_SV, 2)), ``n_support``,
        ``train_errors``, ``train_accuracy``, ``test_accuracy`` (or None).
    """
    from ..svc import SVC

    model = SVC(kernel=kernel, C=C, **params).fit(X, y)
    lo, hi = _view(X)
    xs, ys = np.linspace(lo[0], hi[0], grid), np.linspace(lo[1], hi[1], grid)
    xx, yy = np.meshgrid(xs, ys)
    parts = [np.column_stack([xx.ravel(), yy.ravel()]), X]
    if X_test is not None:
        parts.append(X_test)
    values = model.decision_function(np.vstack(parts))  # one kernel evaluation for all
    h = values[:grid * grid].reshape(xx.shape)
    predicted = np.where(values[grid * grid:] > 0, 1.0, -1.0)  # classes_ = (-1, +1)
    train_errors = int(np.sum(predicted[:X.shape[0]] != y))
    test = None if X_test is None else float(np.mean(predicted[X.shape[0]:] == y_test))
    return dict(h=h, xs=xs, ys=ys, extent=(lo[0], hi[0], lo[1], hi[1]),
                support_vectors=model.support_vectors_.copy(),
                n_support=int(model.support_.shape[0]), train_errors=train_errors,
                train_accuracy=1.0 - train_errors / X.shape[0], test_accuracy=test)


def _svm_axes(fig):
    """One Axes with the moving parts of a kernel-SVM picture."""
    ax = fig.add_subplot()
    image = ax.imshow(np.zeros((2, 2)), origin="lower", cmap=REGION_CMAP, vmin=-3, vmax=3,
                      extent=(0, 1, 0, 1), aspect="auto", interpolation="bilinear", zorder=0)
    points = {label: ax.scatter([], [], s=30, color=CLASS_COLORS[label],
                                marker=CLASS_MARKERS[label], edgecolors="white",
                                linewidths=0.6, zorder=4) for label in (-1, 1)}
    rings = ax.scatter([], [], **_RINGS)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_autoscale_on(False)
    return dict(ax=ax, image=image, points=points, rings=rings, contours=None, data=None)


def _draw_fit(state, X, y, fit):
    """Move the artists of :func:`_svm_axes` to show one fit."""
    ax = state["ax"]
    if state["data"] is not X:  # a new data set: new points and limits
        for label, artist in state["points"].items():
            artist.set_offsets(X[y == label])
        x0, x1, y0, y1 = fit["extent"]
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        state["image"].set_extent(fit["extent"])
        state["data"] = X
    h = fit["h"]
    vmax = float(np.clip(np.percentile(np.abs(h), 98), 1.0, 3.0))
    state["image"].set_data(h)
    state["image"].set_clim(-vmax, vmax)
    state["rings"].set_offsets(fit["support_vectors"])
    if state["contours"] is not None:
        state["contours"].remove()
        state["contours"] = None
    levels = [v for v in (-1.0, 0.0, 1.0) if h.min() < v < h.max()]
    if levels:
        styles = {-1.0: (0, (5, 4)), 0.0: "-", 1.0: (0, (5, 4))}
        widths = {-1.0: 1.0, 0.0: 1.7, 1.0: 1.0}
        state["contours"] = ax.contour(fit["xs"], fit["ys"], h, levels=levels, colors="black",
                                       linestyles=[styles[v] for v in levels],
                                       linewidths=[widths[v] for v in levels], zorder=3)


# ------------------------------------------------------------- playground

def kernel_playground(data, test_data=None, degrees=(2, 3), gammas=(0.5, 2.0, 8.0, 32.0),
                      Cs=(0.1, 1.0, 10.0, 100.0), grid=80, dataset=None, kernel="rbf",
                      gamma=None, C=None, figsize=(5.0, 3.9), dpi=80):
    """Kernel, degree or width, and C on a choice of data sets: regions, margins, support vectors.

    The polynomial kernel is the book's ``(<x, z> + 1)^d`` and the RBF kernel
    ``exp(-gamma ||x - z||^2)`` with ``gamma = 1 / (2 sigma^2)``
    (Book: (eq-kernel-poly), (eq-kernel-rbf)).  The kernel menu lists the
    linear kernel, one polynomial kernel per degree and the RBF kernel; the
    ``gamma`` slider (labelled with the width ``sigma`` as well) is active
    only for the RBF kernel, and ``C`` has a slider of its own.  Use
    geometric grids for ``gammas`` and ``Cs`` (log sliders): the default
    ``gammas`` halve ``sigma`` at each step (1, 1/2, 1/4, 1/8) and the
    default ``Cs`` step by a factor of ten.

    Parameters
    ----------
    data : dict
        ``{name: (X, y)}`` with X of shape (n_samples, 2), y in {-1, +1}.
    test_data : dict, optional
        ``{name: (X_test, y_test)}`` with the same names, for the test accuracy.
    degrees : sequence of int, default=(2, 3)
        The degrees of the polynomial kernels in the menu.
    gammas : sequence of float, default=(0.5, 2, 8, 32)
    Cs : sequence of float, default=(0.1, 1, 10, 100)
    grid : int, default=80
        Grid points per axis for the regions.
    dataset, kernel, gamma, C : optional
        The initial setting (default: the first data set, ``"rbf"``, the
        second ``gamma``, the first ``C``).  ``kernel`` is ``"linear"``,
        ``"rbf"`` or ``"poly<d>"`` (e.g. ``"poly2"``).
    figsize : (float, float), default=(5.0, 3.9)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
        Settings: ``len(data) * (len(degrees) + 2) * len(gammas) * len(Cs)``
        (192 by default with three data sets), of which
        ``len(data) * (len(degrees) + 1 + len(gammas)) * len(Cs)`` are distinct
        (one SVM fit each).
    """
    if not isinstance(data, dict) or not data:
        raise ValueError("data must be a non-empty dict {name: (X, y)}.")
    if len(degrees) == 0 or len(gammas) == 0 or len(Cs) == 0:
        raise ValueError(f"degrees, gammas and Cs need at least one value each; got "
                         f"{len(degrees)}, {len(gammas)} and {len(Cs)}.")
    sets = {name: _labels(*pair, name=name) for name, pair in data.items()}
    tests = {}
    for name in sets:
        if test_data is not None and name in test_data:
            tests[name] = _labels(*test_data[name], name=f"test_data[{name!r}]")
    degrees = [int(p) for p in degrees]
    gammas = [float(g) for g in gammas]
    Cs = [float(c) for c in Cs]
    menu = {"linear": "linear"}
    menu.update({f"polynomial, d = {d}": f"poly{d}" for d in degrees})
    menu["RBF"] = "rbf"
    if kernel not in menu.values():
        raise ValueError(f"kernel must be one of {list(menu.values())}; got {kernel!r}.")

    fits = {}
    for name, (X, y) in sets.items():
        X_test, y_test = tests.get(name, (None, None))

        def fit(kernel, c, **params):
            return kernel_svm_on_grid(X, y, kernel, c, grid, X_test, y_test, **params)

        for c in Cs:
            fits[name, "linear", None, c] = fit("linear", c)
            for d in degrees:
                fits[name, f"poly{d}", None, c] = fit("poly", c, degree=d, gamma=1.0, coef0=1.0)
            for g in gammas:
                fits[name, "rbf", g, c] = fit("rbf", c, gamma=g)

    def setup(fig):
        return _svm_axes(fig)

    def update(state, dataset, kernel, gamma, C):
        X, y = sets[dataset]
        fit = fits[dataset, kernel, gamma if kernel == "rbf" else None, C]
        _draw_fit(state, X, y, fit)
        if kernel == "linear":
            what = "linear kernel"
        elif kernel.startswith("poly"):
            what = f"polynomial kernel, degree d = {kernel[4:]}"
        else:
            what = f"RBF kernel, &gamma; = {gamma:g} (&sigma; = {np.sqrt(0.5 / gamma):.3g})"
        n = X.shape[0]
        line = (f"{what}, C = {C:g}<br><b>{fit['n_support']}</b> support vectors of {n}; "
                f"training accuracy {fit['train_accuracy']:.0%}")
        if fit["test_accuracy"] is not None:
            line += f"; test accuracy {fit['test_accuracy']:.0%}"
        return line

    controls = {
        "dataset": Choice(list(sets), "data", value=dataset),
        "kernel": Choice(menu, "kernel", value=kernel),
        "gamma": Slider(gammas, "\u03b3 (width \u03c3)", value=gammas[min(1, len(gammas) - 1)]
                        if gamma is None else gamma,
                        fmt=lambda g: f"\u03b3 = {g:g} (\u03c3 = {np.sqrt(0.5 / g):.3g})",
                        enabled=lambda dataset, kernel, C: kernel == "rbf",
                        disabled_note="off: only the RBF kernel has a width"),
        "C": Slider(Cs, "C", value=Cs[0] if C is None else C),
    }
    return InteractiveFigure(setup, update, controls, figsize=figsize, dpi=dpi,
                             title="Kernel playground: regions, margins and support vectors")


# ------------------------------------------------------------- the 3-D lift

def lift_viewer(X, y, shift=(0.8, 0.5), azimuths=tuple(range(-30, 330, 60)),
                elevations=(15, 45), scenario=0, azimuth=-30, elevation=15,
                figsize=(7.4, 3.4), dpi=80):
    """Circles lifted into R^3, with the maximum-margin plane, from several angles.

    Three scenarios, chosen in a drop-down:

    0. the circles ``(X, y)`` lifted by ``phi = (x1^2, x2^2, sqrt(2) x1 x2)``
       (Book: (eq-quadratic-map)): a plane separates them;
    1. the same circles moved by ``shift``, same map: no plane separates them
       (the map has no linear terms), the soft-margin plane (C = 1) is shown;
    2. the moved circles lifted onto the paraboloid ``(x1, x2, x1^2 + x2^2)``
       (Book: (eq-kern-circle-anywhere)): a plane separates them again.

    The left panel shows the data in the plane with the trace of the plane,
    ``{x : <w, phi(x)> + b = 0}``; the right panel the lifted points.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
        Concentric circles (e.g. :func:`svmlib.datasets.circles`).
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    shift : (float, float), default=(0.8, 0.5)
    azimuths, elevations : sequence of float
        Viewing angles in degrees.
    scenario, azimuth, elevation : optional
        The initial setting.
    figsize : (float, float), default=(7.4, 3.4)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
    """
    X, y = _labels(X, y)
    shifted = X + np.asarray(shift, dtype=float)
    quad_labels = ("$x_1^2$", "$x_2^2$", "$\\sqrt{2}\\,x_1x_2$")
    para_labels = ("$x_1$", "$x_2$", "$x_1^2 + x_2^2$")
    cases = [
        ("centred circles, \u03c6 = (x\u2081\u00b2, x\u2082\u00b2, \u221a2 x\u2081x\u2082)",
         X, quadratic_feature_map, quad_labels),
        ("moved circles, same \u03c6", shifted, quadratic_feature_map, quad_labels),
        ("moved circles, \u03c6 = (x\u2081, x\u2082, x\u2081\u00b2 + x\u2082\u00b2)",
         shifted, paraboloid_feature_map, para_labels),
    ]
    prepared = []
    for text, points, feature_map, axis_labels in cases:
        Z = feature_map(points)
        try:
            w, b = fit_lifted_plane(Z, y)
            separable = True
        except NotSeparableError:
            w, b = fit_lifted_plane(Z, y, C=1.0, tol=1e-4)
            separable = False
        errors = int(np.sum(np.sign(Z @ w + b) != y))
        lo, hi = _view(points)
        xs, ys = np.linspace(lo[0], hi[0], 120), np.linspace(lo[1], hi[1], 120)
        xx, yy = np.meshgrid(xs, ys)
        h = (feature_map(np.column_stack([xx.ravel(), yy.ravel()])) @ w + b).reshape(xx.shape)
        prepared.append(dict(text=text, X=points, Z=Z, w=w, b=b, labels=axis_labels,
                             separable=separable, errors=errors, xs=xs, ys=ys, h=h,
                             extent=(lo[0], hi[0], lo[1], hi[1])))

    def setup(fig):
        grid = fig.add_gridspec(1, 2, width_ratios=(1.0, 1.35))
        ax2 = fig.add_subplot(grid[0, 0])
        ax3 = fig.add_subplot(grid[0, 1], projection="3d")
        return dict(ax2=ax2, ax3=ax3, current=None)

    def update(state, scenario, azimuth, elevation):
        case = prepared[scenario]
        ax2, ax3 = state["ax2"], state["ax3"]
        if state["current"] != scenario:
            ax2.cla()
            ax2.contourf(case["xs"], case["ys"], case["h"], levels=[-np.inf, 0.0, np.inf],
                         colors=[_LIGHT[-1], _LIGHT[1]], zorder=0)
            ax2.contour(case["xs"], case["ys"], case["h"], levels=[0.0], colors="black",
                        linewidths=1.7, zorder=3)
            for label in (-1, 1):
                mask = y == label
                ax2.scatter(*case["X"][mask].T, s=18, color=CLASS_COLORS[label],
                            marker=CLASS_MARKERS[label], edgecolors="white", linewidths=0.4,
                            zorder=4)
            ax2.set_xlim(case["extent"][:2])
            ax2.set_ylim(case["extent"][2:])
            ax2.set_aspect("equal", adjustable="box")
            ax2.set_xlabel("$x_1$")
            ax2.set_ylabel("$x_2$")
            ax2.set_title("in the plane", fontsize=10)
            ax3.cla()
            plot_lift_3d(case["Z"], y, case["w"], case["b"], ax=ax3, labels=case["labels"],
                         legend=False, s=10, zoom=1.15)
            ax3.set_title("lifted to $\\mathbb{R}^3$", fontsize=10)
            state["current"] = scenario
        ax3.view_init(elev=elevation, azim=azimuth)
        n = y.shape[0]
        if case["separable"]:
            verdict = ("<b>a plane separates the lifted points</b>; its trace in the plane is "
                       "the black curve")
        else:
            verdict = (f"<b>no plane separates the lifted points</b>: the soft-margin plane "
                       f"with C = 1 (the one of smallest hinge objective, not of fewest errors) "
                       f"misclassifies {case['errors']} of {n}")
        return f"{case['text']}: {verdict}."

    controls = {
        "scenario": Choice({case[0]: i for i, case in enumerate(cases)}, "data and map",
                           value=scenario),
        "azimuth": Slider([float(a) for a in azimuths], "azimuth", value=float(azimuth),
                          fmt="{:.0f}\u00b0"),
        "elevation": Slider([float(e) for e in elevations], "elevation",
                            value=float(elevation), fmt="{:.0f}\u00b0"),
    }
    return InteractiveFigure(setup, update, controls, figsize=figsize, dpi=dpi, blit=False,
                             title="Lifting circles into three dimensions")


# --------------------------------------------------------- widget exercise

def support_vector_challenge(X, y, max_support=10, gammas=(0.1, 0.5, 2.0, 10.0, 50.0),
                             Cs=(0.1, 1.0, 10.0, 100.0, 1000.0), grid=90, gamma=None, C=None,
                             figsize=(5.0, 3.9), dpi=80):
    """Widget exercise: separate the data with an RBF SVM and few support vectors.

    The goal is met when the SVM classifies every training point correctly
    and has at most ``max_support`` support vectors.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    max_support : int, default=10
    gammas, Cs : sequence of float
        The grids of ``gamma`` (``= 1 / (2 sigma^2)``) and ``C``.
    grid : int, default=90
    gamma, C : float, optional
        The initial setting (default: the first values).
    figsize : (float, float), default=(5.0, 3.9)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
        With ``goal``; its attribute ``solutions`` lists the settings
        ``(gamma, C)`` that meet it.
    """
    X, y = _labels(X, y)
    max_support = int(max_support)
    gammas = [float(g) for g in gammas]
    Cs = [float(c) for c in Cs]
    fits = {(g, c): kernel_svm_on_grid(X, y, "rbf", c, grid, gamma=g)
            for g in gammas for c in Cs}

    def goal(gamma, C):
        fit = fits[gamma, C]
        return fit["train_errors"] == 0 and fit["n_support"] <= max_support

    def setup(fig):
        return _svm_axes(fig)

    def update(state, gamma, C):
        fit = fits[gamma, C]
        _draw_fit(state, X, y, fit)
        errors = fit["train_errors"]
        mistakes = ("every training point on its side" if errors == 0 else
                    f"{errors} training point{'s' if errors != 1 else ''} misclassified")
        return (f"&gamma; = {gamma:g} (&sigma; = {np.sqrt(0.5 / gamma):.3g}), C = {C:g}: "
                f"<b>{fit['n_support']}</b> support vectors; {mistakes}")

    controls = {
        "gamma": Slider(gammas, "\u03b3 (width \u03c3)", value=gamma,
                        fmt=lambda g: f"\u03b3 = {g:g} (\u03c3 = {np.sqrt(0.5 / g):.3g})"),
        "C": Slider(Cs, "C", value=C),
    }
    figure = InteractiveFigure(
        setup, update, controls, goal=goal,
        goal_text=(f"find &gamma; and C for which the RBF SVM classifies every training point "
                   f"correctly with at most {max_support} support vectors."),
        success_message=(f"Separated with at most {max_support} support vectors: a smooth "
                         f"boundary that rests on a few points."),
        figsize=figsize, dpi=dpi, title="Challenge: separate with few support vectors")
    figure.solutions = [key for key in fits if goal(*key)]
    return figure
