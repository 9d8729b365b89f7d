"""Figures of the chapter "SVMs at scale" (chapter 11).

Book: chapter ``ch-at-scale``.

* :func:`plot_cd_state` -- one state of dual coordinate descent in the plane
  (the current hyperplane and margins, points with ``alpha_i > 0`` ringed);
* :func:`plot_cd_convergence` -- primal and dual objectives pass by pass;
* :func:`plot_kernel_error` -- error of an approximate Gram matrix against the
  number of features, on log-log axes with the ``1/sqrt(D)`` reference;
* :func:`plot_accuracy_time` -- test accuracy against training time, one
  line per method through growing ``n``: the figure to choose a method from.

The computations live in :mod:`svmlib.linear` and :mod:`svmlib.approximation`;
these functions only draw.
"""

import numpy as np

from ._core import _get_ax, _legend, _tidy, plot_data, plot_hyperplane, ring_support_vectors

__all__ = ["METHOD_STYLES", "plot_cd_state", "plot_cd_convergence", "plot_kernel_error",
           "plot_accuracy_time"]

#: Colour and marker of each method in the chapter's comparisons.
METHOD_STYLES = {
    "exact RBF (SMO)": dict(color="#7f7f7f", marker="o"),
    "linear (LinearSVC)": dict(color="#1f77b4", marker="s"),
    "random Fourier features": dict(color="#e8710a", marker="^"),
    "Nyström": dict(color="#2ca02c", marker="D"),
}


def _style(name, k):
    return METHOD_STYLES.get(name, dict(color=f"C{k}", marker="o"))


def plot_cd_state(X, y, state, ax=None, title=None):
    """Draw one state of dual coordinate descent (from :func:`svmlib.linear.dual_cd_trace`).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    state : dict
        With ``w`` (2,), ``b`` and ``alpha`` (n_samples,).
    ax : Axes, optional
    title : str, optional

    Returns
    -------
    ax : Axes
    """
    ax = _tidy(_get_ax(ax))
    X = np.asarray(X, dtype=float)
    plot_data(X, y, ax=ax, legend=False, aspect="equal")
    pad = 0.08 * np.ptp(X, axis=0)
    ax.set_xlim(X[:, 0].min() - pad[0], X[:, 0].max() + pad[0])
    ax.set_ylim(X[:, 1].min() - pad[1], X[:, 1].max() + pad[1])
    if np.any(state["w"]):
        plot_hyperplane(state["w"], state["b"], ax=ax, margins=True)
    active = np.asarray(state["alpha"]) > 0
    if active.any():
        ring_support_vectors(X[active], ax=ax, label=None)
    if title is not None:
        ax.set_title(title, fontsize=10)
    return ax


def plot_cd_convergence(states, ax=None):
    """Primal and dual objectives after each pass, and their gap (log scale).

    Parameters
    ----------
    states : list of dict
        From :func:`svmlib.linear.dual_cd_trace`.
    ax : Axes, optional

    Returns
    -------
    ax : Axes
    """
    ax = _tidy(_get_ax(ax))
    k = np.array([s["pass"] for s in states])
    gap = np.array([s["gap"] for s in states])
    ax.semilogy(k, np.maximum(gap, 1e-16), color="black", marker="o", markersize=4,
                label="duality gap $P(\\mathbf{w}) - D(\\boldsymbol{\\alpha})$")
    spread = np.array([s["pg_spread"] for s in states])
    ax.semilogy(k[1:], spread[1:], color="#e8710a", marker="s", markersize=4,
                linestyle=(0, (4, 3)), label="$\\max PG - \\min PG$ over the pass")
    ax.set_xlabel("pass over the data")
    ax.set_ylabel("value (log scale)")
    _legend(ax)
    return ax


def plot_kernel_error(D_values, errors, ax=None, reference=True):
    """Kernel approximation error against the number of features, log-log.

    Parameters
    ----------
    D_values : array-like of shape (k,)
    errors : dict
        ``{method name: array of shape (k,)}`` of errors.
    ax : Axes, optional
    reference : bool, default=True
        Draw a ``c / sqrt(D)`` line through the first method's first point.

    Returns
    -------
    ax : Axes
    """
    ax = _tidy(_get_ax(ax))
    D = np.asarray(D_values, dtype=float)
    for k, (name, err) in enumerate(errors.items()):
        style = _style(name, k)
        ax.plot(D, err, color=style["color"], marker=style["marker"], markersize=5, label=name)
    if reference and errors:
        first = np.asarray(next(iter(errors.values())), dtype=float)
        ax.plot(D, first[0] * np.sqrt(D[0] / D), color="black", linewidth=1.0,
                linestyle=(0, (4, 3)), label="slope $-1/2$: $c/\\sqrt{D}$")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("number of features $D$ (landmarks $m$ for Nyström)")
    ax.set_ylabel("mean $|\\langle z(x), z(x')\\rangle - k(x, x')|$")
    _legend(ax)
    return ax


def plot_accuracy_time(rows, ax=None, annotate=True):
    """Test accuracy against training time, one line per method through growing ``n``.

    Parameters
    ----------
    rows : list of dict
        Each with ``method``, ``n``, ``seconds`` and ``accuracy``.
    ax : Axes, optional
    annotate : bool, default=True
        Write ``n`` next to the largest point of each method.

    Returns
    -------
    ax : Axes
    """
    ax = _tidy(_get_ax(ax))
    names = list(dict.fromkeys(r["method"] for r in rows))
    for k, name in enumerate(names):
        mine = sorted((r for r in rows if r["method"] == name), key=lambda r: r["n"])
        t = [r["seconds"] for r in mine]
        acc = [100 * r["accuracy"] for r in mine]
        style = _style(name, k)
        ax.plot(t, acc, color=style["color"], marker=style["marker"], markersize=5,
                label=name)
        if annotate:
            last = mine[-1]
            ax.annotate(f"n = {last['n']:,}", (last["seconds"], 100 * last["accuracy"]),
                        textcoords="offset points", xytext=(4, 5 if k % 2 else -11),
                        fontsize=8, color=style["color"])
    ax.set_xscale("log")
    ax.set_xlabel("training time (s, log scale)")
    ax.set_ylabel("test accuracy (%)")
    _legend(ax)
    return ax
