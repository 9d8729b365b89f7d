"""Interactive figures of chapter 10, SVMs in practice.

* :func:`c_gamma_explorer`: step through a grid search over ``C`` and
  ``gamma``; read the validation accuracy, the training accuracy and the
  number of support vectors, and see the decision function on a plane
  through the data.  As a widget exercise: find a cell whose validation
  accuracy beats a target, or the cell the one-standard-error rule chooses;
* :func:`threshold_explorer`: move the probability threshold above which a
  point is assigned to class 1 and watch precision and recall trade off.

Each figure fits or evaluates a model at most once per setting (memoized),
so the live view stays fast and the static book renders every frame once.

Book: chapter ``ch-in-practice``.
"""

import re

import numpy as np

from .._validation import check_array
from ..plotting._core import CLASS_COLORS, CLASS_MARKERS
from ..model_selection import grid_table
from ._core import InteractiveFigure, Slider

__all__ = ["c_gamma_explorer", "threshold_explorer", "plane_through_data"]

# f < -1, -1 < f < 0, 0 < f < 1, f > 1: four flat shades of the book's region map
# (flat shades keep the precomputed frames small)
_SHADES = ["#9cc3e4", "#dbe9f5", "#fde3cc", "#f7b987"]
_BIG = 1e6


def plane_through_data(X):
    """The plane through the mean of the standardized data along its two main directions.

    The data are standardized (zero mean, unit variance per feature) and the
    plane is spanned by the first two principal directions ``v1, v2`` of the
    standardized data (signs fixed so that the largest entry of each is
    positive).  A point ``(u, v)`` of the plane is the feature vector
    ``mean + std * (u v1 + v v2)``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The raw training data (``n_features >= 2``).

    Returns
    -------
    coords : ndarray of shape (n_samples, 2)
        The coordinates ``(u, v)`` of the orthogonal projection of each
        standardized point onto the plane.
    to_features : callable
        ``to_features(coords)`` maps an array of shape (m, 2) of plane
        coordinates to feature vectors, an ndarray of shape (m, n_features).
    """
    X = check_array(X, "X")
    if X.shape[1] < 2:
        raise ValueError(f"X must have at least 2 features to span a plane; got shape {X.shape}.")
    mean = X.mean(axis=0)
    std = X.std(axis=0)
    std = np.where(std > 0, std, 1.0)
    Z = (X - mean) / std
    _, _, Vt = np.linalg.svd(Z, full_matrices=False)
    V = Vt[:2].T.copy()
    for k in range(2):
        if V[np.argmax(np.abs(V[:, k])), k] < 0:
            V[:, k] = -V[:, k]

    def to_features(coords):
        coords = np.asarray(coords, dtype=float)
        return mean + std * (coords @ V.T)

    return Z @ V, to_features


def _n_support(model):
    """Number of support vectors of an SVC or of a pipeline ending in one."""
    final = model.steps[-1][1] if hasattr(model, "steps") else model
    return int(np.sum(final.n_support_))


def _n_splits(cv_results, key):
    """Number of CV folds behind a ``mean_test_*`` column."""
    suffix = key[len("mean_test"):] if key.startswith("mean_test") else "_score"
    pattern = re.compile(rf"split(\d+)_test{re.escape(suffix)}$")
    return sum(1 for k in cv_results if pattern.match(k))


# ------------------------------------------------------------------ C and gamma

def c_gamma_explorer(estimator, X, y, cv_results, C_param="svc__C", gamma_param="svc__gamma",
                     score_key="mean_test_score", target=0.97, rule="target",
                     C=None, gamma=None, grid=90, figsize=(7.6, 3.5), dpi=80):
    """Step through a grid search over ``C`` and ``gamma``.

    The sliders run over the values of the search.  For each setting the
    readout gives the validation accuracy of the search (mean over the
    folds), and the training accuracy and number of support vectors of the
    model refitted with these ``C`` and ``gamma`` on all of ``X``.  Left:
    that model's decision function ``f`` on the plane through the data
    (:func:`plane_through_data`), shaded at ``f < −1``, ``−1 < f < 0``,
    ``0 < f < 1``, ``f > 1``, with the training points projected onto the
    plane (they lie off the plane, so the picture is a section of the model,
    not a fit in two dimensions).  Right: training against validation
    accuracy, with the target as a dashed line.  Book: (eq-prac-decision),
    (eq-prac-cv).

    Parameters
    ----------
    estimator : estimator
        The unfitted model the search was run on (e.g. a pipeline
        ``Pipeline([("scale", StandardScaler()), ("svc", SVC())])``); it is
        cloned and refitted, once per setting, when that setting is first shown.
    X : array-like of shape (n_samples, n_features)
        The training data of the search.
    y : array-like of shape (n_samples,)
        Two class labels; ``np.unique(y)[1]`` is drawn in orange.
    cv_results : dict
        ``search.cv_results_`` of a ``GridSearchCV`` over ``C_param`` ×
        ``gamma_param``.
    C_param, gamma_param : str
        Parameter names as the search used them.
    score_key : str, default="mean_test_score"
        The validation column (``"mean_test_<name>"`` for a named scorer).
    target : float or None, default=0.97
        With ``rule="target"``, the widget exercise: find a cell whose
        validation accuracy is above ``target`` (strictly).  ``None`` for no
        exercise.
    rule : {"target", "one-se"}, default="target"
        The exercise.  ``"one-se"`` is the one-standard-error rule (Book:
        (eq-prac-one-se)): among the cells whose validation accuracy is at
        least ``best - se``, with ``best`` the best cell's accuracy and
        ``se = sqrt(best (1 - best) / n)`` its standard error over the ``n``
        points that cross-validation validates once each, find the one with
        the smallest ``C`` (the strongest regularization), on equal ``C`` the
        smallest ``gamma`` (the widest kernel).  The right panel draws the
        line ``best - se``; ``target`` is then ignored.
    C, gamma : float, optional
        Initial setting; default the middle ``C`` and the largest ``gamma``.
    grid : int, default=90
        Points per axis of the plane.
    figsize : (float, float), default=(7.6, 3.5)
    dpi : int, default=80

    Returns
    -------
    InteractiveFigure
    """
    from sklearn.base import clone

    X = check_array(X, "X")
    y = np.asarray(y).ravel()
    classes = np.unique(y)
    if y.shape[0] != X.shape[0] or classes.size != 2:
        raise ValueError(f"y must hold two class labels, one per row of X ({X.shape[0]}); got "
                         f"shape {y.shape} with {classes.size} distinct labels.")
    Cs, gammas, scores = grid_table(cv_results, score_key, C_param, gamma_param)
    if np.isnan(scores).any():
        raise ValueError("cv_results must cover the full grid of C × gamma; some cells are "
                         "missing. Run GridSearchCV with a full param_grid.")
    n_folds = _n_splits(cv_results, score_key)
    if rule not in ("target", "one-se"):
        raise ValueError(f"rule must be 'target' or 'one-se'; got {rule!r}.")
    if rule == "one-se":
        best = float(scores.max())
        se = float(np.sqrt(best * (1.0 - best) / X.shape[0]))
        line = best - se
        band = np.argwhere(scores >= line)  # (i, j) with Cs[i], gammas[j]; Cs, gammas sorted
        answer = tuple(min(band.tolist()))  # smallest C, then smallest gamma
    else:
        line = target
    digits = 4 if rule == "one-se" else 3  # the rule's threshold needs the fourth digit
    coords, to_features = plane_through_data(X)
    lo, hi = coords.min(axis=0), coords.max(axis=0)
    pad = 0.06 * (hi - lo)
    us = np.linspace(lo[0] - pad[0], hi[0] + pad[0], grid)
    vs = np.linspace(lo[1] - pad[1], hi[1] + pad[1], grid)
    uu, vv = np.meshgrid(us, vs)
    plane = to_features(np.column_stack([uu.ravel(), vv.ravel()]))
    cache = {}

    def fitted(C_value, gamma_value):
        key = (float(C_value), float(gamma_value))
        if key not in cache:
            model = clone(estimator).set_params(**{C_param: C_value, gamma_param: gamma_value})
            model.fit(X, y)
            h = np.asarray(model.decision_function(plane), dtype=float).reshape(uu.shape)
            cache[key] = dict(h=h, train=float(model.score(X, y)), n_sv=_n_support(model))
        return cache[key]

    def cell(C_value, gamma_value):
        i = int(np.argmin(np.abs(np.log(Cs) - np.log(C_value))))
        j = int(np.argmin(np.abs(np.log(gammas) - np.log(gamma_value))))
        return float(scores[i, j])

    def setup(fig):
        left, right = fig.subplots(1, 2, gridspec_kw=dict(width_ratios=[2.3, 1]))
        for ax in (left, right):
            ax.spines["top"].set_visible(False)
            ax.spines["right"].set_visible(False)
        for lab, key in zip(classes, (-1, 1)):
            mask = y == lab
            left.scatter(coords[mask, 0], coords[mask, 1], s=9, color=CLASS_COLORS[key],
                         marker=CLASS_MARKERS[key], edgecolors="white", linewidths=0.3,
                         alpha=0.85, zorder=4)
        left.set_xlim(us[0], us[-1])
        left.set_ylim(vs[0], vs[-1])
        left.set_autoscale_on(False)
        left.set_xlabel("first principal direction")
        left.set_ylabel("second principal direction")
        bars = right.bar([0, 1], [0, 0], color=["#c6e2dd", "#227c74"], width=0.6, zorder=2)
        texts = [right.text(k, 0, "", ha="center", va="bottom", fontsize=9) for k in range(2)]
        right.set_xticks([0, 1], ["training", f"validation\n({n_folds}-fold CV)"])
        right.set_ylim(0.5, 1.06)
        right.set_ylabel("accuracy")
        right.set_xlim(-0.6, 1.6)
        if line is not None:
            right.axhline(line, color="#d62728", linestyle=(0, (5, 4)), linewidth=1.2, zorder=3)
            right.set_title(f"dashed: the target {target:g}" if rule == "target" else
                            f"dashed: best − 1 SE = {line:.4f}", fontsize=9, color="#d62728")
        return dict(left=left, right=right, bars=bars, texts=texts, drawn=[])

    def update(state, C, gamma):
        fit = fitted(C, gamma)
        left = state["left"]
        for artist in state["drawn"]:
            artist.remove()
        h = np.clip(fit["h"], -_BIG, _BIG)
        drawn = [left.contourf(uu, vv, h, levels=[-_BIG - 1, -1, 0, 1, _BIG + 1],
                               colors=_SHADES, zorder=0)]
        for level, style, width in ((-1.0, (0, (5, 4)), 1.0), (0.0, "-", 1.6),
                                    (1.0, (0, (5, 4)), 1.0)):
            if h.min() < level < h.max():
                drawn.append(left.contour(uu, vv, h, levels=[level], colors="black",
                                          linestyles=[style], linewidths=width, zorder=3))
        state["drawn"] = drawn
        validation = cell(C, gamma)
        for bar, text, value in zip(state["bars"], state["texts"], (fit["train"], validation)):
            bar.set_height(value)
            text.set_position((text.get_position()[0], value + 0.005))
            text.set_text(f"{value:.{digits}f}")
        return (f"C = {C:g}, γ = {gamma:g} · validation accuracy ({n_folds}-fold CV) "
                f"<b>{validation:.{digits}f}</b> · "
                f"training accuracy {fit['train']:.{digits}f} · "
                f"support vectors {fit['n_sv']} of {X.shape[0]}")

    goal = goal_text = None
    success = ("This cell beats the target. Notice where it lies: large C with small γ, or "
               "smaller C with larger γ, along a diagonal ridge.")
    if rule == "one-se":
        def goal(C, gamma):
            i = int(np.argmin(np.abs(np.log(Cs) - np.log(C))))
            j = int(np.argmin(np.abs(np.log(gammas) - np.log(gamma))))
            return (i, j) == answer

        goal_text = (f"apply the one-standard-error rule. The best validation accuracy is "
                     f"{best:.4f}, with a standard error of about {se:.4f} on {X.shape[0]} "
                     f"validated points, so every cell scoring at least {line:.4f} is as good as "
                     f"the data can tell. Among those, find the one with the smallest C "
                     f"(on equal C, the smallest γ).")
        success = ("This is the one-standard-error choice: the most strongly regularized model "
                   "that the validation data cannot tell apart from the best cell.")
    elif target is not None:
        def goal(C, gamma):
            return cell(C, gamma) > target

        goal_text = (f"find C and γ whose validation accuracy is above {target:g}. "
                     f"Watch the training accuracy and the number of support vectors on the way.")
    C0 = Cs[len(Cs) // 2] if C is None else C
    gamma0 = gammas[-1] if gamma is None else gamma
    return InteractiveFigure(
        setup, update,
        controls={"C": Slider(Cs.tolist(), "C", value=float(C0), fmt="{:g}"),
                  "gamma": Slider(gammas.tolist(), "γ", value=float(gamma0), fmt="{:g}")},
        goal=goal, goal_text=goal_text,
        success_message=success,
        figsize=figsize, dpi=dpi, title="Grid search over C and γ")


# ------------------------------------------------------------------ threshold

def threshold_explorer(y_true, proba, thresholds=None, platt=None, class_names=("class 0",
                       "class 1"), min_recall=None, min_precision=None, figsize=(7.6, 3.3),
                       dpi=80, random_state=0):
    """Move a probability threshold; watch precision and recall trade off.

    A point is assigned to class 1 when its probability ``P(y = 1 | x)`` is
    at least the threshold τ (``tau`` in the book).  Left: every point at its probability
    (class 1 on the upper row, class 0 on the lower, with jitter), the
    threshold, and the mistakes ringed.  Right: the precision–recall curve
    over all thresholds and the current point.  The readout counts the
    flagged points, the misses and the false alarms.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels in {0, 1}.
    proba : array-like of shape (n_samples,)
        Predicted ``P(y = 1)``.
    thresholds : sequence of float, optional
        The slider's values; default 0.05, 0.10, ..., 0.95.
    platt : (float, float), optional
        Platt's ``(A, B)``; the readout then gives the equivalent threshold
        on the decision value, ``f ≥ (ln((1 − t)/t) − B)/A`` (Book:
        (eq-prac-platt-model), assuming ``A < 0``).
    class_names : (str, str)
        Names of classes 0 and 1 for the readout and the axis.
    min_recall, min_precision : float, optional
        A widget exercise: reach at least this recall and precision.
    figsize : (float, float), default=(7.6, 3.3)
    dpi : int, default=80
    random_state : int, default=0
        Seed of the vertical jitter.

    Returns
    -------
    InteractiveFigure
    """
    y = np.asarray(y_true).ravel()
    p = check_array(np.ravel(proba), "proba", ndim=1)
    if y.shape != p.shape or not np.all(np.isin(y, (0, 1))):
        raise ValueError(f"y_true must hold one label in {{0, 1}} per probability ({p.size}); "
                         f"got shape {y.shape} with values {np.unique(y)[:5].tolist()}.")
    if np.any((p < 0) | (p > 1)):
        raise ValueError("proba must hold probabilities in [0, 1]; got values outside. Pass "
                         "P(y = 1), e.g. predict_proba(X)[:, 1].")
    if thresholds is None:
        thresholds = np.round(np.arange(0.05, 0.951, 0.05), 2)
    thresholds = [float(t) for t in thresholds]
    n_pos = int(y.sum())
    rng = np.random.default_rng(random_state)
    rows = y + 0.28 * rng.uniform(-1, 1, y.size)
    fine = np.linspace(0.0, 1.0, 401)
    curve = []
    for t in fine:
        flagged = p >= t
        if flagged.any():
            curve.append((np.sum(flagged & (y == 1)) / n_pos, np.mean(y[flagged] == 1)))
    curve = np.array(curve)

    def counts(t):
        flagged = p >= t
        tp = int(np.sum(flagged & (y == 1)))
        fp = int(np.sum(flagged & (y == 0)))
        fn = n_pos - tp
        precision = tp / (tp + fp) if tp + fp else float("nan")
        return flagged, tp, fp, fn, precision, tp / n_pos

    def setup(fig):
        left, right = fig.subplots(1, 2, gridspec_kw=dict(width_ratios=[1.5, 1]))
        for ax in (left, right):
            ax.spines["top"].set_visible(False)
            ax.spines["right"].set_visible(False)
        shade = left.axvspan(0.5, 1.02, color="#fde3cc", zorder=0)
        for lab, key in ((0, -1), (1, 1)):
            mask = y == lab
            left.scatter(p[mask], rows[mask], s=14, color=CLASS_COLORS[key],
                         marker=CLASS_MARKERS[key], edgecolors="white", linewidths=0.3,
                         alpha=0.85, zorder=3)
        rings = left.scatter([], [], s=60, facecolors="none", edgecolors="black",
                             linewidths=1.1, zorder=4)
        line = left.axvline(0.5, color="black", linewidth=1.6, zorder=5)
        left.set_xlim(-0.02, 1.02)
        left.set_ylim(-0.5, 1.5)
        left.set_yticks([0, 1], [class_names[0], class_names[1]])
        left.set_xlabel(f"$P$({class_names[1]})")
        right.plot(curve[:, 0], curve[:, 1], color="#227c74", linewidth=1.6, zorder=2)
        (point,) = right.plot([], [], "o", color="#d62728", markersize=8, zorder=3)
        right.set_xlim(max(0.0, curve[:, 0].min() - 0.05), 1.02)
        right.set_ylim(max(0.0, curve[:, 1].min() - 0.05), 1.03)
        right.set_xlabel("recall")
        right.set_ylabel("precision")
        return dict(shade=shade, rings=rings, line=line, point=point)

    def update(state, threshold):
        flagged, tp, fp, fn, precision, recall = counts(threshold)
        state["line"].set_xdata([threshold, threshold])
        state["shade"].set_x(threshold)
        state["shade"].set_width(1.02 - threshold)
        wrong = flagged != (y == 1)
        state["rings"].set_offsets(np.column_stack([p[wrong], rows[wrong]]) if wrong.any()
                                   else np.empty((0, 2)))
        if np.isfinite(precision):
            state["point"].set_data([recall], [precision])
        else:
            state["point"].set_data([], [])
        shown = "—" if not np.isfinite(precision) else f"{precision:.3f}"
        equivalent = ""
        if platt is not None:
            A, B = platt
            f_star = (np.log((1 - threshold) / threshold) - B) / A
            equivalent = f" (the same as f(x) ≥ {f_star + 0.0:.2f})"
        return (f"threshold τ = {threshold:.2f}{equivalent} · flagged as {class_names[1]}: "
                f"{tp + fp} · precision <b>{shown}</b> · recall <b>{recall:.3f}</b> · "
                f"missed {class_names[1]}: {fn} · false alarms: {fp}")

    goal = goal_text = None
    if min_recall is not None or min_precision is not None:
        need_r = 0.0 if min_recall is None else float(min_recall)
        need_p = 0.0 if min_precision is None else float(min_precision)

        def goal(threshold):
            _, _, _, _, precision, recall = counts(threshold)
            return recall >= need_r and np.isfinite(precision) and precision >= need_p

        parts = []
        if min_recall is not None:
            parts.append(f"recall at least {need_r:g}")
        if min_precision is not None:
            parts.append(f"precision at least {need_p:g}")
        goal_text = "find a threshold with " + " and ".join(parts) + "."
    start = 0.5 if any(abs(t - 0.5) < 1e-9 for t in thresholds) else thresholds[0]
    return InteractiveFigure(
        setup, update,
        controls={"threshold": Slider(thresholds, "threshold τ", value=start, fmt="{:.2f}")},
        goal=goal, goal_text=goal_text,
        success_message="Both requirements hold at this threshold.",
        figsize=figsize, dpi=dpi, title="Where to draw the line: a threshold on P(y = 1)")
