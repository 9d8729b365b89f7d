"""Interactive figures of the chapter "SVMs at scale" (chapter 11).

* :func:`cd_explorer` -- dual coordinate descent pass by pass on a 2-D
  problem: the hyperplane, the points whose multiplier is positive, and the
  primal and dual objectives closing in on each other.
* :func:`feature_count_explorer` -- the number of random Fourier features
  (or Nyström landmarks) against the approximate decision boundary, the
  kernel error and the validation accuracy; as a widget exercise, find the
  fewest features that come within one point of the exact RBF SVM.

The fits are computed once, when the figure is built, with
:func:`svmlib.linear.dual_cd_trace`, :class:`svmlib.RandomFourierFeatures`,
:class:`svmlib.Nystroem` and :class:`svmlib.LinearSVC`.
"""

import numpy as np

from .._validation import check_X_y
from ._core import Choice, InteractiveFigure, Slider, Stepper

__all__ = ["cd_explorer", "feature_count_explorer", "feature_count_fits",
           "DEFAULT_FEATURE_COUNTS"]

#: The grid of feature counts of :func:`feature_count_explorer`.
DEFAULT_FEATURE_COUNTS = (2, 5, 10, 20, 40, 80, 160)


def _line(w, b, level, span):
    p0 = (level - b) * w / (w @ w)
    d = np.array([-w[1], w[0]]) / np.linalg.norm(w)
    return [p0[0] - 2 * span * d[0], p0[0] + 2 * span * d[0]], \
           [p0[1] - 2 * span * d[1], p0[1] + 2 * span * d[1]]


def cd_explorer(X, y, C=1.0, n_passes=10, random_state=0, title="Dual coordinate descent, "
                "pass by pass", figsize=(8.0, 3.5), dpi=80):
    """Step through the passes of dual coordinate descent (hinge loss and squared hinge).

    Left: the data, the hyperplane and margins after the chosen pass, and
    the points with ``alpha_i > 0`` ringed.  Right: the primal and dual
    objectives against the pass, the current pass marked.

    Parameters
    ----------
    X, y : array-like of shape (n_samples, 2) and (n_samples,)
        Labels in {-1, +1}.
    C : float, default=1.0
    n_passes : int, default=10
    random_state : int, default=0
    title : str
    figsize : (float, float), default=(8.0, 3.5)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
    """
    from ..linear import dual_cd_trace
    from ..plotting._core import CLASS_MARKERS

    X, y = check_X_y(X, y)
    y = y.astype(float)
    losses = {"hinge": "hinge", "squared hinge": "squared_hinge"}
    traces = {loss: dual_cd_trace(X, y, C=C, loss=loss, n_passes=n_passes,
                                  random_state=random_state) for loss in losses.values()}
    pad = 0.1 * np.ptp(X, axis=0)
    lo, hi = X.min(axis=0) - pad, X.max(axis=0) + pad
    span = float(np.hypot(*(hi - lo)))

    def setup(fig):
        left, right = fig.subplots(1, 2, width_ratios=[1.2, 1])
        for label in (-1, 1):
            mask = y == label
            left.scatter(X[mask, 0], X[mask, 1], s=30, marker=CLASS_MARKERS[label],
                         color="#1f77b4" if label < 0 else "#e8710a", edgecolors="white",
                         linewidths=0.6, zorder=4)
        left.set_xlim(lo[0], hi[0])
        left.set_ylim(lo[1], hi[1])
        left.set_aspect("equal", adjustable="box")
        left.set_xlabel("$x_1$")
        left.set_ylabel("$x_2$")
        boundary = left.plot([], [], color="black", linewidth=1.8, zorder=3)[0]
        margins = [left.plot([], [], color="black", linewidth=1.1, linestyle=(0, (5, 4)),
                             zorder=3)[0] for _ in range(2)]
        rings = left.scatter([], [], s=130, facecolors="none", edgecolors="black",
                             linewidths=1.4, zorder=5)
        values = [s[key] for t in traces.values() for s in t for key in ("primal", "dual")]
        top = float(np.percentile(values, 90)) * 1.15
        primal = right.plot([], [], color="black", marker="o", markersize=4,
                            label="primal $P(\\mathbf{w})$")[0]
        dual = right.plot([], [], color="#e8710a", marker="s", markersize=4,
                          label="dual $D(\\boldsymbol{\\alpha})$")[0]
        marker = right.axvline(0, color="#7f7f7f", linewidth=1.0, linestyle=":")
        right.set_xlim(-0.3, n_passes + 0.3)
        right.set_ylim(min(0.0, min(values)), top)
        right.set_xlabel("pass")
        right.set_ylabel("objective")
        right.legend(loc="upper right", frameon=False, fontsize=8)
        title_artist = left.set_title("", fontsize=10)
        return dict(boundary=boundary, margins=margins, rings=rings, primal=primal, dual=dual,
                    marker=marker, title=title_artist)

    def update(state, loss, k):
        trace = traces[loss]
        s = trace[k]
        w, b = s["w"], s["b"]
        if np.any(w):
            state["boundary"].set_data(*_line(w, b, 0.0, span))
            for artist, level in zip(state["margins"], (-1.0, 1.0)):
                artist.set_data(*_line(w, b, level, span))
        else:
            state["boundary"].set_data([], [])
            for artist in state["margins"]:
                artist.set_data([], [])
        active = s["alpha"] > 0
        state["rings"].set_offsets(X[active] if active.any() else np.empty((0, 2)))
        passes = [t["pass"] for t in trace[:k + 1]]
        state["primal"].set_data(passes, [t["primal"] for t in trace[:k + 1]])
        state["dual"].set_data(passes, [t["dual"] for t in trace[:k + 1]])
        state["marker"].set_xdata([k, k])
        state["title"].set_text(f"after pass {k}")
        spread = "–" if k == 0 else f"{s['pg_spread']:.3f}"
        return (f"Pass {k} ({loss} loss, C = {C:g}): primal P = {s['primal']:.3f}, dual "
                f"D = {s['dual']:.3f}, gap = {s['gap']:.3f}.<br>"
                f"Points with α<sub>i</sub> &gt; 0: {int(active.sum())} of {len(y)}; "
                f"spread of the projected gradient over the pass: {spread}.")

    return InteractiveFigure(
        setup, update,
        {"loss": Choice(losses, "loss"),
         "k": Stepper(n_passes + 1, "pass")},
        figsize=figsize, dpi=dpi, title=title)


def feature_count_fits(X, y, X_val, y_val, gamma=1.0, C=1.0, D_values=DEFAULT_FEATURE_COUNTS,
                       random_state=0, grid=90):
    """Fit the approximate RBF SVMs of :func:`feature_count_explorer`.

    Returns
    -------
    dict
        ``{(method, D): summary}`` with ``val_accuracy``, ``kernel_error``
        and ``h`` (decision values on a ``grid x grid`` mesh), plus the key
        ``"exact"`` with the exact RBF SVM's ``val_accuracy`` and ``h``, and
        ``"mesh"`` with ``(xx, yy)``.
    """
    from sklearn.pipeline import make_pipeline
    from threadpoolctl import threadpool_limits

    from ..approximation import Nystroem, RandomFourierFeatures, kernel_approximation_error
    from ..kernels import rbf
    from ..linear import LinearSVC
    from ..svc import SVC

    X, y = check_X_y(X, y)
    with threadpool_limits(1):  # many small matrices: threads cost more than they give
        return _feature_count_fits(X, y, X_val, y_val, gamma, C, D_values, random_state, grid,
                                   make_pipeline, Nystroem, RandomFourierFeatures,
                                   kernel_approximation_error, rbf, LinearSVC, SVC)


def _feature_count_fits(X, y, X_val, y_val, gamma, C, D_values, random_state, grid,
                        make_pipeline, Nystroem, RandomFourierFeatures,
                        kernel_approximation_error, rbf, LinearSVC, SVC):
    pad = 0.1 * np.ptp(X, axis=0)
    lo, hi = X.min(axis=0) - pad, X.max(axis=0) + pad
    xx, yy = np.meshgrid(np.linspace(lo[0], hi[0], grid), np.linspace(lo[1], hi[1], grid))
    mesh = np.column_stack([xx.ravel(), yy.ravel()])
    K = rbf(X, X, gamma=gamma)
    exact = SVC(C=C, kernel="rbf", gamma=gamma).fit(X, y)
    fits = {"exact": {"val_accuracy": exact.score(X_val, y_val),
                      "h": exact.decision_function(mesh).reshape(xx.shape)},
            "mesh": (xx, yy)}
    makers = {"random Fourier features": lambda D: RandomFourierFeatures(
                  gamma=gamma, n_components=D, random_state=random_state),
              "Nyström": lambda D: Nystroem(gamma=gamma, n_components=D,
                                            random_state=random_state)}
    for method, make in makers.items():
        for D in D_values:
            model = make_pipeline(make(D), LinearSVC(C=C, max_iter=5000)).fit(X, y)
            fits[(method, D)] = {
                "val_accuracy": model.score(X_val, y_val),
                "kernel_error": kernel_approximation_error(X, make(D), K=K),
                "h": model.decision_function(mesh).reshape(xx.shape)}
    return fits


def feature_count_explorer(X, y, X_val, y_val, gamma=1.0, C=1.0,
                           D_values=DEFAULT_FEATURE_COUNTS, random_state=0, goal=True,
                           title="How many features does the kernel need?",
                           figsize=(8.0, 3.6), dpi=80):
    """Move the number of features; watch the approximate RBF SVM approach the exact one.

    Left: the decision regions of ``LinearSVC`` on random Fourier features
    (or Nyström features) with the exact RBF SVM's boundary dashed in grey.
    Right: the mean kernel error against the number of features for both
    methods, the current one marked.  As a widget exercise: for the chosen
    method, find the *smallest* number of features whose validation accuracy
    is within one percentage point of the exact RBF SVM's.

    Parameters
    ----------
    X, y : training data, shape (n_samples, 2) and (n_samples,)
    X_val, y_val : validation data
    gamma, C : float
    D_values : sequence of int
    random_state : int, default=0
    goal : bool, default=True
    title : str
    figsize, dpi

    Returns
    -------
    InteractiveFigure
    """
    import matplotlib.lines as mlines
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from ..plotting._core import CLASS_MARKERS, REGION_CMAP
    from ..plotting.at_scale import METHOD_STYLES

    X, y = check_X_y(X, y)
    D_values = [int(d) for d in D_values]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fits = feature_count_fits(X, y, X_val, y_val, gamma=gamma, C=C, D_values=D_values,
                                  random_state=random_state)
    xx, yy = fits["mesh"]
    exact_acc = fits["exact"]["val_accuracy"]
    methods = ["random Fourier features", "Nyström"]
    target = exact_acc - 0.01
    smallest = {m: next((D for D in D_values if fits[(m, D)]["val_accuracy"] >= target - 1e-12),
                        None) for m in methods}
    extent = (xx.min(), xx.max(), yy.min(), yy.max())
    classes = np.unique(y)

    def setup(fig):
        left, right = fig.subplots(1, 2, width_ratios=[1.15, 1])
        regions = left.imshow(np.zeros_like(xx), origin="lower", cmap=REGION_CMAP, vmin=-2,
                              vmax=2, extent=extent, aspect="auto", zorder=0,
                              interpolation="bilinear")
        left.contour(xx, yy, fits["exact"]["h"], levels=[0.0], colors="#555555",
                     linewidths=1.2, linestyles="dashed", zorder=2)
        for label, colour in zip(classes, ("#1f77b4", "#e8710a")):
            mask = y == label
            marker = CLASS_MARKERS[-1 if label == classes[0] else 1]
            left.scatter(X[mask, 0], X[mask, 1], s=14, marker=marker, color=colour,
                         edgecolors="white", linewidths=0.4, zorder=4)
        state = {"regions": regions, "left": left, "boundary": None}
        left.set_xlim(extent[0], extent[1])
        left.set_ylim(extent[2], extent[3])
        left.set_xlabel("$x_1$")
        left.set_ylabel("$x_2$")
        left.legend(handles=[mlines.Line2D([], [], color="#555555", linestyle="dashed",
                                           label="exact RBF SVM")],
                    loc="lower left", fontsize=8, frameon=True, framealpha=0.8)
        for method in methods:
            style = METHOD_STYLES[method]
            right.plot(D_values, [fits[(method, D)]["kernel_error"] for D in D_values],
                       color=style["color"], marker=style["marker"], markersize=4,
                       label=method)
        right.set_xscale("log")
        right.set_yscale("log")
        right.set_xlabel("number of features $D$")
        right.set_ylabel("mean kernel error")
        right.legend(loc="upper right", fontsize=8, frameon=False)
        state["dot"] = right.plot([], [], marker="o", markersize=11, markerfacecolor="none",
                                  markeredgecolor="black", linestyle="none")[0]
        state["title"] = left.set_title("", fontsize=10)
        return state

    def update(state, method, D):
        fit = fits[(method, D)]
        state["regions"].set_data(fit["h"])
        if state["boundary"] is not None:
            state["boundary"].remove()
        state["boundary"] = state["left"].contour(xx, yy, fit["h"], levels=[0.0],
                                                  colors="black", linewidths=1.6, zorder=3)
        state["dot"].set_data([D], [fit["kernel_error"]])
        state["title"].set_text(f"{method}, D = {D}")
        return (f"{method}, D = {D}: mean kernel error {fit['kernel_error']:.3f}; "
                f"validation accuracy {100 * fit['val_accuracy']:.1f}% "
                f"(exact RBF SVM: {100 * exact_acc:.1f}%).")

    def reached(method, D):
        return smallest[method] is not None and D == smallest[method]

    return InteractiveFigure(
        setup, update,
        {"method": Choice(methods, "features"),
         "D": Slider(D_values, "number of features D", value=D_values[0])},
        goal=reached if goal else None,
        goal_text=("for the chosen kind of features, find the smallest D whose validation "
                   "accuracy is within one percentage point of the exact RBF SVM's."
                   if goal else None),
        success_message=("This is the smallest D on the grid that comes within one point of "
                         "the exact kernel SVM."),
        figsize=figsize, dpi=dpi, title=title, blit=False)
