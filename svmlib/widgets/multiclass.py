"""Interactive figures of the multiclass chapter.

Book: chapter ``ch-multiclass``.

* :func:`multiclass_explorer` (a widget exercise): three decision rules
  (one-vs-rest read by argmax or by signs, one-vs-one votes), two kernels and
  a grid of C on three-class data; the plane is painted by the rule, with
  its ambiguous areas marked, and the readout gives the ambiguous fraction
  of the plane and the test accuracy.
* :func:`more_classes_explorer`: the same rules on ``K`` classes placed
  around a ring (:func:`svmlib.datasets.ring_of_blobs`), for growing ``K``: how many
  problems each reduction trains, how lopsided one-vs-rest's problems get,
  and what that does to the regions.

Every classifier is trained once, when the figure is built, and every
region image is computed then too; moving a control only swaps images.
"""

import numpy as np

from .._validation import check_int, check_X_y
from ..datasets import ring_of_blobs
from ..multiclass import OneVsOneClassifier, OneVsRestClassifier
from ..plotting._core import _MULTI_MARKERS, PALETTE
from ..plotting.multiclass import (RULE_NAMES, RULES, ambiguity_fractions, plane_grid,
                                   region_image, region_legend_handles, rule_outcome)
from ..svc import SVC
from ._core import Choice, InteractiveFigure, Slider

__all__ = ["evaluate_rules", "gives_up", "multiclass_explorer", "more_classes_explorer"]

#: SMO tolerance of the classifiers behind the figures: tight enough that the
#: percentages the readouts print are the same on every machine (at the
#: default 1e-3 the last digit can follow the CPU's rounding).
SOLVER_TOL = 1e-6


def _pct(fraction, digits=1):
    return f"{round(100.0 * fraction, digits) + 0.0:.{digits}f} %"


def evaluate_rules(ovr, ovo, points, X_test, y_test):
    """Candidates on a grid and test scores of the three rules.

    Parameters
    ----------
    ovr : fitted OneVsRestClassifier
    ovo : fitted OneVsOneClassifier, or svmlib.SVC (one-vs-one built in)
        Anything with ``votes(X)``.
    points : ndarray of shape (n_points, 2)
        Grid over the plane (:func:`svmlib.plotting.multiclass.plane_grid`).
    X_test : ndarray of shape (n_test, 2)
    y_test : ndarray of shape (n_test,)

    Returns
    -------
    dict
        ``{rule: {"candidates": bool array (n_points, K), "none", "several",
        "ambiguous": fractions of the grid, "accuracy": fraction of test
        points the rule classifies correctly, "undecided": fraction of test
        points where the rule is ambiguous}}``.  For ``"ovr-sign"`` an
        ambiguous test point counts as an error (the rule does not decide);
        ``"ovo"`` breaks its ties as LIBSVM does (first class listed).
        The same candidates as :func:`svmlib.plotting.multiclass.rule_candidates`,
        computed with one evaluation of each model.
    """
    index = np.searchsorted(ovr.classes_, y_test)
    n_points = points.shape[0]
    both = np.vstack([points, X_test])              # one pass over grid and test points
    scores = np.asarray(ovr.decision_function(both), dtype=float)
    votes = np.asarray(ovo.votes(both))
    is_top = {"ovr-argmax": scores == scores.max(axis=1, keepdims=True),
              "ovr-sign": scores > 0,
              "ovo": votes == votes.max(axis=1, keepdims=True)}
    predicted = {"ovr-argmax": np.argmax(scores[n_points:], axis=1),
                 "ovo": np.argmax(votes[n_points:], axis=1)}   # ties: first class listed
    results = {}
    for rule in RULES:
        candidates = is_top[rule][:n_points]
        outcome = rule_outcome(is_top[rule][n_points:])
        guess = predicted.get(rule, outcome)            # the sign rule does not break ties
        results[rule] = {"candidates": candidates, **ambiguity_fractions(candidates),
                         "accuracy": float(np.mean(guess == index)),
                         "undecided": float(np.mean(outcome < 0))}
    return results


def _scatter_classes(ax, X, y, n_classes, s=22):
    artists = []
    for k in range(n_classes):
        mask = y == k
        artists.append(ax.scatter(X[mask, 0], X[mask, 1], s=s, color=PALETTE[k % len(PALETTE)],
                                  marker=_MULTI_MARKERS[k % len(_MULTI_MARKERS)],
                                  edgecolors="white", linewidths=0.5, zorder=4))
    return artists


def _axes(fig):
    ax = fig.add_subplot()
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    return ax


def _ambiguity_text(rule, result):
    if rule == "ovr-argmax":
        return "ambiguous: 0 % of the plane (the largest score always decides)"
    if rule == "ovr-sign":
        return (f"ambiguous: <b>{_pct(result['ambiguous'], 2)}</b> of the plane "
                f"(no claim {_pct(result['none'], 2)}, several claims "
                f"{_pct(result['several'], 2)})")
    return f"ambiguous: <b>{_pct(result['ambiguous'], 2)}</b> of the plane (vote ties)"


def multiclass_explorer(X, y, X_test, y_test, kernels=("linear", "rbf"),
                        Cs=(0.01, 0.1, 1.0, 10.0, 100.0), grid=100, max_ambiguous=0.001,
                        min_accuracy=0.985, figsize=(7.0, 4.6), dpi=80):
    """Widget exercise: decision rule, kernel and C; regions and ambiguous areas.

    For every kernel and C, a :class:`~svmlib.multiclass.OneVsRestClassifier`
    and a :class:`~svmlib.multiclass.OneVsOneClassifier` of
    :class:`~svmlib.SVC` are trained once.  The figure paints the plane by the
    chosen rule (:func:`svmlib.plotting.multiclass.region_image`: white where
    no class claims a point, stripes where several do or votes tie); the
    readout gives the ambiguous fraction of the plane (on the grid) and the
    accuracy on the test set.  Book: (eq-mc-ovr-sign), (eq-mc-ovr-argmax),
    (eq-mc-ovo-votes).

    The goal: without the argmax rule, find a setting whose ambiguous area is
    below ``max_ambiguous`` with test accuracy at least ``min_accuracy``.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
        Training points of three or more classes.
    y : array-like of shape (n_samples,)
    X_test : array-like of shape (n_test, 2)
    y_test : array-like of shape (n_test,)
    kernels : sequence of str, default=("linear", "rbf")
    Cs : sequence of float, default=(0.01, 0.1, 1, 10, 100)
    grid : int, default=100
        Grid points per axis for the regions and the ambiguous fraction.
    max_ambiguous : float, default=0.001
        Goal: ambiguous fraction of the plane strictly below this.
    min_accuracy : float, default=0.985
        Goal: test accuracy at least this.
    figsize : (float, float), default=(7.0, 4.6)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
        Controls ``rule`` (Choice), ``kernel`` (Choice) and ``C`` (Slider).
        Its attribute ``results`` maps ``(rule, kernel, C)`` to a dict with
        ``none``, ``several``, ``ambiguous``, ``accuracy``, ``undecided``.
    """
    X, y = check_X_y(X, y)
    X_test, y_test = check_X_y(X_test, y_test)
    classes = np.unique(y)
    if classes.shape[0] < 3 or X.shape[1] != 2:
        raise ValueError(f"X must be 2-D data (2 columns) of at least three classes; got "
                         f"{X.shape[1]} columns and {classes.shape[0]} classes.")
    Cs = [float(C) for C in Cs]
    lo, hi = X.min(axis=0) - 1.0, X.max(axis=0) + 1.0
    points, extent = plane_grid(X, grid, xlim=(lo[0], hi[0]), ylim=(lo[1], hi[1]))
    images, results = {}, {}
    for kernel in kernels:
        for C in Cs:
            # A tight tolerance: the shares of the plane and the accuracies the
            # readout prints then do not move with the CPU's rounding.
            binary = SVC(kernel=kernel, C=C, tol=SOLVER_TOL)
            ovr = OneVsRestClassifier(binary).fit(X, y)
            ovo = OneVsOneClassifier(binary).fit(X, y)
            for rule, result in evaluate_rules(ovr, ovo, points, X_test, y_test).items():
                images[(rule, kernel, C)] = region_image(result.pop("candidates"),
                                                         (grid, grid))
                results[(rule, kernel, C)] = result
    y_index = np.searchsorted(classes, y)

    def setup(fig):
        ax = _axes(fig)
        image = ax.imshow(images[("ovr-sign", kernels[0], Cs[len(Cs) // 2])], origin="lower",
                          extent=extent, aspect="auto", interpolation="nearest", zorder=0)
        _scatter_classes(ax, X, y_index, classes.shape[0])
        ax.set_xlim(extent[0], extent[1])
        ax.set_ylim(extent[2], extent[3])
        ax.set_aspect("equal", adjustable="box")
        fig.legend(handles=region_legend_handles(list(classes), ("none", "several")),
                   loc="outside right upper", frameon=False, fontsize=9)
        title = ax.set_title("")
        return {"image": image, "title": title}

    def update(state, rule, kernel, C):
        state["image"].set_data(images[(rule, kernel, C)])
        state["title"].set_text(f"{RULE_NAMES[rule]}, {kernel} kernel, C = {C:g}")
        result = results[(rule, kernel, C)]
        undecided = (f" ({_pct(result['undecided'])} of the test points undecided)"
                     if rule == "ovr-sign" else
                     f" ({_pct(result['undecided'])} of the test points tied)"
                     if rule == "ovo" else "")
        return (f"{_ambiguity_text(rule, result)}<br>test accuracy: "
                f"<b>{_pct(result['accuracy'])}</b>{undecided}")

    def goal(rule, kernel, C):
        result = results[(rule, kernel, C)]
        return (rule != "ovr-argmax" and result["ambiguous"] < max_ambiguous
                and result["accuracy"] >= min_accuracy)

    figure = InteractiveFigure(
        setup, update,
        controls={"rule": Choice({RULE_NAMES[r]: r for r in ("ovr-sign", "ovr-argmax", "ovo")},
                                 label="rule"),
                  "kernel": Choice(list(kernels), label="kernel"),
                  "C": Slider(Cs, label="C", value=Cs[len(Cs) // 2], fmt="{:g}")},
        goal=goal,
        goal_text=(f"without the argmax rule (so: one-vs-rest read by signs, or one-vs-one "
                   f"votes), find a kernel and a C for which less than "
                   f"{_pct(max_ambiguous, 1)} of the plane is ambiguous and the test "
                   f"accuracy is at least {_pct(min_accuracy, 1)}."),
        success_message="Goal reached: almost no ambiguity, and accurate.",
        figsize=figsize, dpi=dpi, title="Multiclass rules: regions and ambiguous areas")
    figure.results = results
    return figure


def gives_up(binary, atol=1e-3):
    """Whether a fitted binary SVC is the constant classifier ``w = 0``, ``b = -1``.

    ``||w||^2 = beta^T K beta`` over the support vectors (``beta = dual_coef_``),
    computed with the model's own kernel, so it holds in feature space too.
    ``atol`` absorbs the solver's tolerance.  Book: (thm-mc-give-up).
    """
    beta = np.asarray(binary.dual_coef_)[0]
    K = binary._kernel_to_support(binary.support_vectors_)
    w_norm = float(np.sqrt(max(beta @ K @ beta, 0.0)))
    return w_norm < atol and abs(float(binary.intercept_[0]) + 1.0) < atol


def more_classes_explorer(Ks=(3, 4, 6, 8, 10), n_per_class=30, n_test_per_class=100, C=1.0,
                          kernels=("linear", "rbf"), grid=100, figsize=(7.0, 4.6), dpi=80):
    """More and more classes around a ring: one-vs-rest against one-vs-one.

    For each ``K`` in ``Ks``, :func:`svmlib.datasets.ring_of_blobs` gives ``n_per_class``
    training points per class (and a test set from another seed); both
    reductions of :class:`~svmlib.SVC` are trained for each kernel.  The
    readout counts the binary problems and their sizes (one-vs-rest's are
    lopsided, 1 : (K − 1)), the ambiguous fraction of the plane, the test
    accuracy, and how many one-vs-rest classifiers *give up* in the sense of
    the book's theorem: come out as the constant classifier ``w = 0``,
    ``b = -1`` (up to the solver's tolerance).  Book: (eq-mc-cost),
    (thm-mc-give-up).

    Parameters
    ----------
    Ks : sequence of int, default=(3, 4, 6, 8, 10)
    n_per_class : int, default=30
    n_test_per_class : int, default=100
    C : float, default=1.0
    kernels : sequence of str, default=("linear", "rbf")
    grid : int, default=100
    figsize : (float, float), default=(7.0, 4.6)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
        Controls ``K`` (Slider), ``rule`` (Choice) and ``kernel`` (Choice).
        Its attribute ``results`` maps ``(K, rule, kernel)`` to a dict with
        ``ambiguous``, ``accuracy``, ``gave_up`` (the number of one-vs-rest
        classifiers with ``w = 0`` and ``b = -1``, see :func:`gives_up`).
    """
    Ks = [check_int(K, "K", minimum=3) for K in Ks]
    data, images, results, extents = {}, {}, {}, {}
    for K in Ks:
        X, y = ring_of_blobs(K, n_per_class, random_state=0)
        X_test, y_test = ring_of_blobs(K, n_test_per_class, random_state=1)
        reach = np.abs(X).max() + 0.5
        points, extent = plane_grid(X, grid, xlim=(-reach, reach), ylim=(-reach, reach))
        data[K], extents[K] = (X, y), extent
        for kernel in kernels:
            ovr = OneVsRestClassifier(SVC(kernel=kernel, C=C, tol=SOLVER_TOL)).fit(X, y)
            ovo = SVC(kernel=kernel, C=C, tol=SOLVER_TOL).fit(X, y)   # one-vs-one, built in
            gave_up = int(sum(gives_up(f) for f in ovr.estimators_))
            for rule, result in evaluate_rules(ovr, ovo, points, X_test, y_test).items():
                images[(K, rule, kernel)] = region_image(result.pop("candidates"),
                                                         (grid, grid))
                results[(K, rule, kernel)] = {**result, "gave_up": gave_up}
    k_max = max(Ks)

    def setup(fig):
        ax = _axes(fig)
        K0 = Ks[0]
        image = ax.imshow(images[(K0, "ovr-sign", kernels[0])], origin="lower",
                          extent=extents[K0], aspect="auto", interpolation="nearest", zorder=0)
        scatters = _scatter_classes(ax, np.zeros((0, 2)), np.zeros(0), k_max, s=16)
        ax.set_aspect("equal", adjustable="box")
        fig.legend(handles=region_legend_handles([], ("none", "several", "tie")),
                   loc="outside right upper", frameon=False, fontsize=9)
        title = ax.set_title("")
        return {"ax": ax, "image": image, "scatters": scatters, "title": title, "K": None}

    def update(state, K, rule, kernel):
        ax = state["ax"]
        if state["K"] != K:
            X, y = data[K]
            for k, artist in enumerate(state["scatters"]):
                artist.set_offsets(X[y == k] if k < K else np.zeros((0, 2)))
            state["image"].set_extent(extents[K])
            ax.set_xlim(extents[K][0], extents[K][1])
            ax.set_ylim(extents[K][2], extents[K][3])
            state["K"] = K
        state["image"].set_data(images[(K, rule, kernel)])
        state["title"].set_text(f"K = {K}: {RULE_NAMES[rule]}, {kernel} kernel")
        result = results[(K, rule, kernel)]
        n = K * n_per_class
        counts = (f"one-vs-rest: {K} problems of {n} points ({n_per_class} against "
                  f"{n - n_per_class}, 1 : {K - 1}); one-vs-one: {K * (K - 1) // 2} problems "
                  f"of {2 * n_per_class} points")
        lines = [counts, f"{_ambiguity_text(rule, result)}; test accuracy "
                         f"<b>{_pct(result['accuracy'])}</b>"]
        if rule != "ovo":
            lines.append(f"one-vs-rest classifiers that give up their class: "
                         f"<b>{result['gave_up']} of {K}</b>")
        return "<br>".join(lines)

    figure = InteractiveFigure(
        setup, update,
        controls={"K": Slider(Ks, label="classes K", value=Ks[0]),
                  "rule": Choice({RULE_NAMES[r]: r for r in ("ovr-sign", "ovr-argmax", "ovo")},
                                 label="rule"),
                  "kernel": Choice(list(kernels), label="kernel")},
        figsize=figsize, dpi=dpi, title="More classes: one-vs-rest against one-vs-one")
    figure.results = results
    return figure
