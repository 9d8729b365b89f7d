"""Interactive figures of the chapter "Beyond classification" (chapter 12).

* :func:`tube_explorer` -- support vector regression on 1-D data over a grid
  of ``C`` and ``epsilon``: the fitted function, its tube, the points
  coloured by their case (inside, on the edge, outside), and the number of
  support vectors against ``epsilon``.  As a widget exercise: find the
  sparsest fit whose validation error is within 5 % of the best on the grid.
* :func:`one_class_explorer` -- the one-class SVM on 2-D data over a grid of
  ``nu`` and ``gamma``: the frontier, the outliers, the support vectors and
  the nu-property (fraction of outliers <= nu <= fraction of support
  vectors) in the readout.

The fits are computed once, when the figure is built, with svmlib's
:class:`~svmlib.SVR` and :class:`~svmlib.OneClassSVM` (:func:`svr_grid_fits`,
:func:`one_class_grid_fits`).  A value counts as zero when it is within
``ZERO`` of it, far above the solvers' tolerance, so that the counts do not
depend on the last bits of a solution.
"""

import numpy as np

from .._validation import check_array
from ._core import InteractiveFigure, Slider

__all__ = ["tube_explorer", "svr_grid_fits", "one_class_explorer", "one_class_grid_fits",
           "DEFAULT_SVR_CS", "DEFAULT_EPSILONS", "DEFAULT_NUS", "DEFAULT_GAMMAS", "ZERO"]

#: The grids of :func:`tube_explorer`.
DEFAULT_SVR_CS = (0.1, 1.0, 10.0, 100.0)
DEFAULT_EPSILONS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5)
#: The grids of :func:`one_class_explorer`.
DEFAULT_NUS = (0.02, 0.05, 0.1, 0.2, 0.4)
DEFAULT_GAMMAS = (0.1, 0.3, 1.0, 3.0)
#: Residuals and decision values within this distance of a threshold count as on it.
ZERO = 1e-4


def _as_column(x, name):
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    if x.ndim != 2 or x.shape[1] != 1:
        raise ValueError(f"{name} must hold one input per point, shape (n,) or (n, 1); got "
                         f"shape {x.shape}.")
    return check_array(x, name)


def svr_grid_fits(x, y, x_val, y_val, Cs=DEFAULT_SVR_CS, epsilons=DEFAULT_EPSILONS, gamma=0.5,
                  tol=1e-6, grid=300):
    """Fit an RBF SVR for every ``(C, epsilon)`` of a grid, on 1-D data.

    Returns
    -------
    dict
        ``{(C, epsilon): summary}`` with ``curve`` (predictions on ``grid``
        points), ``beta`` (``alpha_i - alpha_i^*`` for every training point),
        ``n_support``, ``n_edge`` (free support vectors, on the tube's edge),
        ``n_outside`` (residual beyond ``epsilon`` by more than
        :data:`ZERO`), ``val_rmse``; and the key ``"t"`` with the grid.
    """
    from .. import SVR

    X, X_val = _as_column(x, "x"), _as_column(x_val, "x_val")
    y, y_val = np.asarray(y, float).ravel(), np.asarray(y_val, float).ravel()
    if len(y) != len(X) or len(y_val) != len(X_val):
        raise ValueError(f"x and y (and x_val and y_val) must have the same length; got "
                         f"{len(X)} and {len(y)} ({len(X_val)} and {len(y_val)}).")
    t = np.linspace(X.min(), X.max(), grid)[:, None]
    fits = {"t": t[:, 0]}
    for C in Cs:
        for eps in epsilons:
            model = SVR(kernel="rbf", C=C, epsilon=eps, gamma=gamma, tol=tol).fit(X, y)
            beta = np.zeros(len(y))
            beta[model.support_] = model.dual_coef_[0]
            residual = np.abs(y - model.predict(X))
            free = (np.abs(beta) > 1e-8 * C) & (np.abs(beta) < (1 - 1e-8) * C)
            fits[(C, eps)] = {
                "curve": model.predict(t),
                "beta": beta,
                "n_support": int(len(model.support_)),
                "n_edge": int(free.sum()),
                "n_outside": int(np.sum(residual > eps + ZERO)),
                "val_rmse": float(np.sqrt(np.mean((model.predict(X_val) - y_val) ** 2))),
            }
    return fits


def tube_explorer(x, y, x_val, y_val, Cs=DEFAULT_SVR_CS, epsilons=DEFAULT_EPSILONS, gamma=0.5,
                  C=1.0, epsilon=0.1, tol=1e-6, goal=True, slack=0.05,
                  title="Support vector regression: the tube against C and ε",
                  figsize=(8.0, 3.5), dpi=80):
    """Move ``C`` and ``epsilon``; watch the tube, its support vectors and the validation error.

    Left: the training points coloured by case (grey inside the tube, green
    on its edge, magenta outside), the fitted function and the tube
    ``f +- epsilon``.  Right: the number of support vectors against
    ``epsilon``, one line per ``C``, the current setting circled.  As a
    widget exercise (``goal=True``): find the setting with the fewest
    support vectors among those whose validation RMSE is at most
    ``1 + slack`` times the best on the grid.

    Parameters
    ----------
    x, y : training inputs (shape (n,) or (n, 1)) and targets
    x_val, y_val : validation inputs and targets
    Cs, epsilons : sequences of float
        The grids (at most 200 settings in all).
    gamma : float, default=0.5
        RBF parameter.
    C, epsilon : float
        The initial setting (on the grids).
    tol : float, default=1e-6
    goal : bool, default=True
    slack : float, default=0.05
    title, figsize, dpi

    Returns
    -------
    InteractiveFigure
        With the attribute ``fits``, the output of :func:`svr_grid_fits`.
    """
    from ..plotting.soft_margin import KKT_CASE_COLORS
    from ..plotting.beyond_classification import tube_cases

    Cs, epsilons = [float(c) for c in Cs], [float(e) for e in epsilons]
    fits = svr_grid_fits(x, y, x_val, y_val, Cs, epsilons, gamma=gamma, tol=tol)
    xs = _as_column(x, "x")[:, 0]
    y = np.asarray(y, float).ravel()
    t = fits["t"]
    best = min(fits[(c, e)]["val_rmse"] for c in Cs for e in epsilons)
    target = (1 + slack) * best
    good = [(c, e) for c in Cs for e in epsilons if fits[(c, e)]["val_rmse"] <= target]
    fewest = min(fits[k]["n_support"] for k in good)
    lo = min(y.min(), min(f["curve"].min() for k, f in fits.items() if k != "t")) - 0.6
    hi = max(y.max(), max(f["curve"].max() for k, f in fits.items() if k != "t")) + 0.6
    colors = ["#1f77b4", "#e8710a", "#2ca02c", "#9467bd", "#8c564b", "#17becf"]

    def setup(fig):
        left, right = fig.subplots(1, 2, width_ratios=[1.5, 1])
        pad = 0.03 * (t.max() - t.min())
        left.set_xlim(t.min() - pad, t.max() + pad)
        left.set_ylim(lo, hi)
        left.set_xlabel("$x$")
        left.set_ylabel("$y$")
        curve = left.plot([], [], color="black", linewidth=1.8, zorder=3)[0]
        edges = [left.plot([], [], color="black", linewidth=1.1, linestyle=(0, (5, 4)),
                           zorder=3)[0] for _ in range(2)]
        points = left.scatter(xs, y, s=24, zorder=4, edgecolors="black", linewidths=0.4)
        for k, c in enumerate(Cs):
            right.plot(epsilons, [fits[(c, e)]["n_support"] for e in epsilons],
                       color=colors[k % len(colors)], marker="o", markersize=3.5,
                       label=f"C = {c:g}")
        right.set_xlabel("$\\varepsilon$")
        right.set_ylabel("support vectors")
        right.set_ylim(0, len(y) + 1)
        right.legend(loc="upper right", fontsize=7, frameon=False)
        dot = right.plot([], [], marker="o", markersize=11, markerfacecolor="none",
                         markeredgecolor="black", linestyle="none")[0]
        return dict(left=left, curve=curve, edges=edges, points=points, dot=dot, band=None,
                    title=left.set_title("", fontsize=10))

    def update(state, C, epsilon):
        fit = fits[(C, epsilon)]
        values = fit["curve"]
        state["curve"].set_data(t, values)
        for artist, sign in zip(state["edges"], (-1, 1)):
            artist.set_data(t, values + sign * epsilon)
        if state["band"] is not None:
            state["band"].remove()
        state["band"] = state["left"].fill_between(t, values - epsilon, values + epsilon,
                                                   color="black", alpha=0.08, linewidth=0,
                                                   zorder=1)
        cases = tube_cases(fit["beta"], C)
        state["points"].set_facecolors([KKT_CASE_COLORS[k] for k in cases])
        state["dot"].set_data([epsilon], [fit["n_support"]])
        state["title"].set_text(f"C = {C:g}, ε = {epsilon:g}")
        return (f"C = {C:g}, ε = {epsilon:g}: {fit['n_support']} support vectors of {len(y)} "
                f"({fit['n_edge']} on the tube's edge, {fit['n_outside']} outside it); "
                f"validation RMSE {fit['val_rmse']:.3f}.")

    def reached(C, epsilon):
        fit = fits[(C, epsilon)]
        return fit["val_rmse"] <= target and fit["n_support"] == fewest

    figure = InteractiveFigure(
        setup, update,
        {"C": Slider(Cs, "C", value=C), "epsilon": Slider(epsilons, "ε", value=epsilon)},
        goal=reached if goal else None,
        goal_text=(f"find the setting with the fewest support vectors among those whose "
                   f"validation RMSE is within {100 * slack:g} % of the best on the grid."
                   if goal else None),
        success_message=("No setting on the grid is sparser with a validation RMSE "
                         f"within {100 * slack:g} % of the best."),
        figsize=figsize, dpi=dpi, title=title, blit=False)
    figure.fits = fits          # the grid of fits, for a table of the same numbers
    return figure


def one_class_grid_fits(X, nus=DEFAULT_NUS, gammas=DEFAULT_GAMMAS, tol=1e-6, grid=100,
                        padding=0.8):
    """Fit an RBF one-class SVM for every ``(nu, gamma)`` of a grid, on 2-D data.

    Returns
    -------
    dict
        ``{(nu, gamma): summary}`` with ``h`` (decision values on a
        ``grid x grid`` mesh), ``support``, ``outliers`` (training points
        with decision value below ``-ZERO * rho``, the offset setting the
        scale), ``n_support`` and
        ``n_outliers``; and the key ``"mesh"`` with ``(xx, yy)``.
    """
    from .. import OneClassSVM

    X = check_array(X, "X")
    if X.shape[1] != 2:
        raise ValueError(f"X must have 2 features to be drawn; got {X.shape[1]}.")
    lo, hi = X.min(axis=0) - padding, X.max(axis=0) + padding
    xx, yy = np.meshgrid(np.linspace(lo[0], hi[0], grid), np.linspace(lo[1], hi[1], grid))
    mesh = np.column_stack([xx.ravel(), yy.ravel()])
    fits = {"mesh": (xx, yy)}
    for nu in nus:
        for gamma in gammas:
            model = OneClassSVM(kernel="rbf", nu=nu, gamma=gamma, tol=tol).fit(X)
            f = model.decision_function(X)
            rho = abs(float(model.intercept_[0]))      # f = sum_i alpha_i k(x_i, .) - rho
            outliers = f < -ZERO * max(rho, 1e-12)
            fits[(nu, gamma)] = {"h": model.decision_function(mesh).reshape(xx.shape),
                                 "support": np.asarray(model.support_),
                                 "outliers": outliers,
                                 "n_support": int(len(model.support_)),
                                 "n_outliers": int(outliers.sum())}
    return fits


def one_class_explorer(X, nus=DEFAULT_NUS, gammas=DEFAULT_GAMMAS, nu=0.1, gamma=1.0, tol=1e-6,
                       title="The one-class SVM: ν and γ", figsize=(5.6, 4.2), dpi=80):
    """Move ``nu`` and ``gamma``; watch the frontier, the outliers and the nu-property.

    The region the one-class SVM calls normal (``f(x) >= 0``) is shaded,
    its frontier ``f(x) = 0`` drawn; outliers (``f(x_i) < 0``) are magenta
    diamonds and support vectors are ringed.  The readout checks the
    nu-property: fraction of outliers <= nu <= fraction of support vectors.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    nus, gammas : sequences of float
    nu, gamma : float
        The initial setting (on the grids).
    tol : float, default=1e-6
    title, figsize, dpi

    Returns
    -------
    InteractiveFigure
    """
    X = check_array(X, "X")
    nus, gammas = [float(v) for v in nus], [float(g) for g in gammas]
    fits = one_class_grid_fits(X, nus, gammas, tol=tol)
    xx, yy = fits["mesh"]
    n = len(X)

    def setup(fig):
        ax = fig.subplots()
        ax.set_xlim(xx.min(), xx.max())
        ax.set_ylim(yy.min(), yy.max())
        ax.set_aspect("equal", adjustable="box")
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$")
        inside = ax.scatter([], [], s=16, color="#1f77b4", edgecolors="white",
                            linewidths=0.4, zorder=4)
        out = ax.scatter([], [], s=26, color="#c2185b", marker="D", edgecolors="black",
                         linewidths=0.5, zorder=4)
        rings = ax.scatter([], [], s=70, facecolors="none", edgecolors="black",
                           linewidths=0.9, zorder=5)
        return dict(ax=ax, inside=inside, out=out, rings=rings, drawn=[],
                    title=ax.set_title("", fontsize=10))

    def update(state, nu, gamma):
        fit = fits[(nu, gamma)]
        for artist in state["drawn"]:
            artist.remove()
        ax = state["ax"]
        h = fit["h"]
        state["drawn"] = [
            ax.contourf(xx, yy, h, levels=[0, max(h.max(), 1e-12)], colors=["#1f77b4"],
                        alpha=0.13, zorder=0),
            ax.contour(xx, yy, h, levels=[0.0], colors="black", linewidths=1.5, zorder=3)]
        state["inside"].set_offsets(X[~fit["outliers"]])
        state["out"].set_offsets(X[fit["outliers"]] if fit["outliers"].any()
                                 else np.empty((0, 2)))
        state["rings"].set_offsets(X[fit["support"]])
        state["title"].set_text(f"ν = {nu:g}, γ = {gamma:g}")
        frac_out, frac_sv = fit["n_outliers"] / n, fit["n_support"] / n
        holds = frac_out <= nu + 1e-12 and nu <= frac_sv + 1e-12
        return (f"ν = {nu:g}, γ = {gamma:g}: {fit['n_outliers']} of {n} training points "
                f"outside the frontier ({100 * frac_out:.1f} %), {fit['n_support']} support "
                f"vectors ({100 * frac_sv:.1f} %).<br>ν-property, fraction of outliers ≤ ν ≤ "
                f"fraction of support vectors: {'holds' if holds else 'fails'}.")

    return InteractiveFigure(
        setup, update,
        {"nu": Slider(nus, "ν", value=nu), "gamma": Slider(gammas, "γ", value=gamma)},
        figsize=figsize, dpi=dpi, title=title, blit=False)
