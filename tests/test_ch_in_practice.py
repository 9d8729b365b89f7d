"""Tests of chapter 10 (SVMs in practice): theory, figures, interactive figures, checkers."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from scipy.special import expit  # noqa: E402
from sklearn.datasets import load_breast_cancer  # noqa: E402
from sklearn.model_selection import GridSearchCV, StratifiedKFold  # noqa: E402
from sklearn.pipeline import Pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVC as SklearnSVC  # noqa: E402

from svmlib.widgets._core import MAX_HTML_BYTES  # noqa: E402
from svmlib import SVC, model_selection  # noqa: E402
from svmlib.exercises import in_practice as ex  # noqa: E402
from svmlib.kernels import rbf  # noqa: E402
from svmlib.plotting import in_practice as pplot  # noqa: E402
from svmlib.widgets import in_practice as pwidgets  # noqa: E402


@pytest.fixture(scope="module")
def cancer():
    data = load_breast_cancer()
    return data.data, (data.target == 0).astype(int), list(data.feature_names)


@pytest.fixture(scope="module")
def small(cancer):
    """120 tumours (stratified by taking every few rows) for fast fits."""
    X, y, _ = cancer
    return X[::4][:120], y[::4][:120]


@pytest.fixture(scope="module")
def small_search(small):
    X, y = small
    pipe = Pipeline([("scale", StandardScaler()), ("svc", SVC())])
    search = GridSearchCV(pipe, {"svc__C": [0.1, 10.0, 1000.0], "svc__gamma": [1e-3, 1e-2, 1.0]},
                          cv=StratifiedKFold(3, shuffle=True, random_state=0),
                          return_train_score=True)
    return pipe, search.fit(X, y)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _dual_objectives(model, X, gamma):
    """D(alpha) of each one-vs-one problem from dual_coef_ (eq-prac-dual-from-coef)."""
    sv = X[model.support_]
    start = np.concatenate([[0], np.cumsum(model.n_support_)])
    k = len(model.classes_)
    out = []
    for i in range(k):
        for j in range(i + 1, k):
            a, b = slice(start[i], start[i + 1]), slice(start[j], start[j + 1])
            c = np.concatenate([model.dual_coef_[j - 1, a], model.dual_coef_[i, b]])
            S = np.concatenate([sv[a], sv[b]])
            out.append(np.abs(c).sum() - 0.5 * c @ rbf(S, S, gamma=gamma) @ c)
    return np.array(out)


# ------------------------------------------------------------------ theory

def test_expected_squared_distance_is_twice_the_total_variance(cancer):
    """(eq-prac-expected-distance) for the empirical distribution: the mean over all n^2 pairs."""
    X = cancer[0][:200]
    sq = np.sum(X**2, axis=1)
    mean_d2 = np.mean(sq[:, None] + sq[None, :] - 2 * X @ X.T)
    assert mean_d2 == pytest.approx(2 * X.var(axis=0).sum(), rel=1e-9)


def test_standardized_features_share_the_distance_equally(cancer):
    X = StandardScaler().fit_transform(cancer[0])
    var = X.var(axis=0)
    np.testing.assert_allclose(var / var.sum(), np.full(X.shape[1], 1 / X.shape[1]), atol=1e-12)


def test_two_area_features_dominate_the_raw_distance(cancer):
    X, _, names = cancer
    share = X.var(axis=0) / X.var(axis=0).sum()
    areas = [names.index("worst area"), names.index("mean area")]
    assert share[areas].sum() > 0.98
    assert set(np.argsort(share)[-2:]) == set(areas)


def test_svmlib_and_libsvm_solve_the_same_dual(cancer):
    X, y, _ = cancer
    Z = StandardScaler().fit_transform(X[:300])
    ours = SVC(C=100.0, gamma=1e-3).fit(Z, y[:300])
    theirs = SklearnSVC(C=100.0, gamma=1e-3).fit(Z, y[:300])
    D_ours, D_theirs = _dual_objectives(ours, Z, 1e-3), _dual_objectives(theirs, Z, 1e-3)
    assert abs(D_ours[0] - D_theirs[0]) <= 1e-4 * abs(D_theirs[0])
    np.testing.assert_array_equal(np.sort(ours.support_), np.sort(theirs.support_))
    Z_new = StandardScaler().fit(X[:300]).transform(X[300:])
    np.testing.assert_array_equal(ours.predict(Z_new), theirs.predict(Z_new))
    # the dual objective from dual_coef_ equals svmlib's solver record
    assert D_ours[0] == pytest.approx(ours.solver_result_.objective, rel=1e-9)


def test_rbf_svm_tends_to_the_linear_svm_as_gamma_shrinks(small):
    """Keerthi-Lin: C = C_tilde / (2 gamma), gamma -> 0 gives the linear SVM with C_tilde."""
    X, y = small
    Z = StandardScaler().fit_transform(X)
    linear = SVC(kernel="linear", C=0.2).fit(Z, y).decision_function(Z)
    gaps = [np.max(np.abs(SVC(C=0.2 / (2 * g), gamma=g).fit(Z, y).decision_function(Z) - linear))
            for g in (1e-3, 1e-5)]
    assert gaps[1] < gaps[0] / 10
    assert gaps[1] < 0.05


def test_nu_property_bounds_the_fractions(cancer):
    """(thm-prac-nu-property): fraction at the upper bound <= nu <= fraction of SVs."""
    from sklearn.svm import NuSVC
    X, y, _ = cancer
    Z = StandardScaler().fit_transform(X)
    for nu in (0.2, 0.5):
        model = NuSVC(nu=nu, gamma=0.01, tol=1e-6).fit(Z, y)
        alpha = np.abs(model.dual_coef_[0])
        at_bound = np.sum(alpha >= alpha.max() * (1 - 1e-6)) / len(y)
        assert at_bound <= nu + 1e-9
        assert model.support_.size / len(y) >= nu - 1e-9


def _platt_loss(A, B, f, t):
    z = A * f + B
    return np.sum(np.logaddexp(0.0, z) - (1 - t) * z)


def _targets(y):
    n_pos = np.sum(y == 1)
    return np.where(y == 1, (n_pos + 1) / (n_pos + 2), 1 / (len(y) - n_pos + 2))


def test_platt_reference_is_the_minimizer():
    """Gradient (eq-prac-platt-grad) vanishes; Hessian (eq-prac-platt-hess) is positive definite;
    finite differences agree with the closed-form gradient."""
    for case in ex.platt_cases():
        f, y, A, B = case["f"], case["y"], case["A"], case["B"]
        t = _targets(y)
        p = expit(-(A * f + B))
        np.testing.assert_allclose([f @ (t - p), np.sum(t - p)], [0, 0], atol=1e-8)
        assert np.sum(p) == pytest.approx(np.sum(t), abs=1e-8)     # exercise, part 2
        d = p * (1 - p)
        H = np.array([[d @ f**2, d @ f], [d @ f, d.sum()]])
        assert np.all(np.linalg.eigvalsh(H) > 0)
        for dA, dB in [(0.05, 0.0), (0.0, 0.05), (-0.03, 0.04)]:
            assert _platt_loss(A + dA, B + dB, f, t) > _platt_loss(A, B, f, t)
        # the gradient formula at another point, against central differences
        A1, B1, h = A + 0.3, B - 0.2, 1e-6
        p1 = expit(-(A1 * f + B1))
        numeric = [(_platt_loss(A1 + h, B1, f, t) - _platt_loss(A1 - h, B1, f, t)) / (2 * h),
                   (_platt_loss(A1, B1 + h, f, t) - _platt_loss(A1, B1 - h, f, t)) / (2 * h)]
        np.testing.assert_allclose(numeric, [f @ (t - p1), np.sum(t - p1)], rtol=1e-5, atol=1e-5)


def test_platt_reference_matches_scikit_learn():
    calibration = pytest.importorskip("sklearn.calibration")
    sigmoid = getattr(calibration, "_sigmoid_calibration", None)
    if sigmoid is None:
        pytest.skip("scikit-learn's private _sigmoid_calibration is not available")
    for case in ex.platt_cases():
        a, b = sigmoid(case["f"], case["y"])
        assert (case["A"], case["B"]) == pytest.approx((a, b), rel=1e-4, abs=1e-5)


def test_plain_targets_have_no_minimizer_on_separated_values():
    """(ex-practice-platt-derivation, part 3): with 0/1 targets A runs off to -infinity."""
    case = ex.platt_cases()[2]
    short = ex.platt_reference(case["f"], case["y"], targets="plain", max_iter=10)
    longer = ex.platt_reference(case["f"], case["y"], targets="plain", max_iter=40)
    assert longer[0] < short[0] < case["A"] < 0
    assert abs(longer[0]) > 5 * abs(case["A"])


def _eights():
    from sklearn.datasets import load_digits
    digits = load_digits()
    keep = np.arange(len(digits.target)) < 600          # a quick subset
    return digits.data[keep] / 16, (digits.target[keep] == 8).astype(int)


def test_balanced_class_weights_put_the_same_total_price_on_each_class():
    # (eq-prac-class-weights): C_k = C n / (2 n_k), so n_+ C_+ = n_- C_- = n C / 2,
    # and the dual box becomes 0 <= alpha_i <= C_{y_i}
    X, y = _eights()
    C = 1.0
    model = SVC(C=C, gamma=0.1, class_weight="balanced").fit(X, y)
    n, n_pos = len(y), y.sum()
    price = np.where(y == 1, C * n / (2 * n_pos), C * n / (2 * (n - n_pos)))
    assert n_pos * price[y == 1][0] == pytest.approx(n * C / 2)
    assert (n - n_pos) * price[y == 0][0] == pytest.approx(n * C / 2)
    assert np.all(model.alpha_ <= price + 1e-9)
    assert np.all(model.alpha_ >= 0)
    assert np.any(model.alpha_[y == 0] > C * n / (2 * (n - n_pos)) - 1e-9)  # some other digit at its box
    signs = np.where(y == 1, 1.0, -1.0)
    assert abs(np.sum(model.alpha_ * signs)) < 1e-8                       # sum alpha_i y_i = 0
    # the same solution as LIBSVM with the same weights
    theirs = SklearnSVC(C=C, gamma=0.1, class_weight="balanced").fit(X, y)
    assert np.array_equal(np.sort(model.support_), np.sort(theirs.support_))
    assert np.max(np.abs(model.decision_function(X) - theirs.decision_function(X))) < 1e-2


def test_balanced_weights_raise_the_recall_of_the_rare_class():
    # the chapter's point on the eights: weights trade false alarms for fewer misses
    X, y = _eights()
    plain = SVC(C=1.0, gamma=0.03).fit(X, y).predict(X)
    weighted = SVC(C=1.0, gamma=0.03, class_weight="balanced").fit(X, y).predict(X)
    recall = [np.mean(p[y == 1] == 1) for p in (plain, weighted)]
    assert recall[1] > recall[0]


# ------------------------------------------------------------------ plotting

def test_grid_table_arranges_any_order_and_marks_missing_cells():
    results = {"param_svc__C": [10.0, 1.0, 10.0], "param_svc__gamma": [0.1, 0.1, 0.01],
               "mean_test_score": [0.9, 0.8, 0.7]}
    rows, cols, table = model_selection.grid_table(results)
    np.testing.assert_array_equal(rows, [1.0, 10.0])
    np.testing.assert_array_equal(cols, [0.01, 0.1])
    assert np.isnan(table[0, 0])
    np.testing.assert_array_equal(table[1], [0.7, 0.9])
    assert table[0, 1] == 0.8
    with pytest.raises(KeyError, match="scorer name"):
        model_selection.grid_table(results, key="mean_test_accuracy")
    with pytest.raises(TypeError, match="cv_results_"):
        model_selection.grid_table([1, 2])


def test_grid_table_from_a_real_search(small_search):
    _, search = small_search
    rows, cols, table = model_selection.grid_table(search.cv_results_, "mean_test_score")
    assert table.shape == (3, 3)
    i, j = np.unravel_index(np.argmax(table), table.shape)
    assert (rows[i], cols[j]) == (search.best_params_["svc__C"], search.best_params_["svc__gamma"])


def test_validation_heatmap_marks_the_best_cell():
    table = np.array([[0.6, 0.7], [0.95, 0.8], [0.95, 0.5]])
    ax = pplot.plot_validation_heatmap(table, [0.1, 1, 10], [1e-3, 1e-2], current=(2, 1))
    assert [im.get_gid() for im in ax.images] == ["heatmap"]
    best = [p for p in ax.patches if p.get_gid() == "best"]
    assert len(best) == 1 and best[0].get_xy() == (-0.5, 0.5)   # first of the tied maxima
    assert any(p.get_gid() == "current" for p in ax.patches)
    assert [t.get_text() for t in ax.texts][:2] == ["0.600", "0.700"]
    with pytest.raises(ValueError, match="Transpose"):
        pplot.plot_validation_heatmap(table.T, [0.1, 1, 10], [1e-3, 1e-2])


def test_variance_shares_bars_sum_to_one(cancer):
    X, _, names = cancer
    ax = pplot.plot_variance_shares(X, names=names)
    heights = np.array([bar.get_height() for bar in ax.patches if bar.get_gid() == "shares"])
    assert heights.sum() == pytest.approx(1.0)
    assert np.all(np.diff(heights) <= 0)
    assert ax.get_yscale() == "log"


def test_kernel_and_multiplier_agreement_check_shapes():
    ax = pplot.plot_kernel_agreement([0.1, 0.5], [0.2, 0.4], title="t")
    assert ax.get_title() == "t"
    with pytest.raises(ValueError, match="same pairs"):
        pplot.plot_kernel_agreement([0.1, 0.5], [0.2])
    ax = pplot.plot_multiplier_agreement([0, 0.5, 1.0, 1.0], [0, 0.5, 1.0, 1.0], C=1.0)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0].endswith("(1)") and labels[1].endswith("(1)") and labels[2].endswith("(2)")
    with pytest.raises(ValueError, match="one value per training point"):
        pplot.plot_multiplier_agreement([0, 1], [0], C=1.0)


def test_platt_fit_draws_the_model():
    f = np.linspace(-3, 3, 40)
    y = (f + np.sin(7 * f) > 0).astype(int)
    ax = pplot.plot_platt_fit(f, y, -2.0, 0.5)
    (curve,) = [line for line in ax.lines if line.get_gid() == "sigmoid"]
    xs, ys = curve.get_data()
    np.testing.assert_allclose(ys, 1 / (1 + np.exp(-2.0 * xs + 0.5)), rtol=1e-12)
    with pytest.raises(ValueError, match="0, 1"):
        pplot.plot_platt_fit(f, 2 * y - 1, -2.0, 0.5)


def test_reliability_points_and_diagram():
    p = np.repeat([0.1, 0.5, 0.9], 10)
    y = np.concatenate([np.r_[1, np.zeros(9)], np.r_[np.ones(5), np.zeros(5)],
                        np.r_[np.ones(9), 0]]).astype(int)
    xs, ys = pplot._reliability_points(y, p, 3, "quantile")
    np.testing.assert_allclose(xs, [0.1, 0.5, 0.9])
    np.testing.assert_allclose(ys, [0.1, 0.5, 0.9])
    xs, ys = pplot._reliability_points(y, p, 5, "uniform")
    assert len(xs) == 3      # empty bins are skipped
    fig, (ax, counts) = plt.subplots(1, 2)
    pplot.plot_reliability(y, {"a": p, "b": 1 - p}, ax=ax, counts_ax=counts)
    assert len(ax.get_legend().get_texts()) == 3
    assert sum(bar.get_height() for bar in counts.patches) == len(y)
    with pytest.raises(ValueError, match="strategy"):
        pplot.plot_reliability(y, {"a": p}, strategy="median")
    with pytest.raises(TypeError, match="dict"):
        pplot.plot_reliability(y, p)


# ------------------------------------------------------------------ widgets

def test_plane_through_data_round_trip(small):
    X, _ = small
    coords, to_features = pwidgets.plane_through_data(X)
    assert coords.shape == (X.shape[0], 2)
    np.testing.assert_allclose(to_features(np.zeros((1, 2)))[0], X.mean(axis=0))
    # the plane's points are mean + std * (u v1 + v v2) with orthonormal v1, v2
    std = np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
    lifted = (to_features(coords) - X.mean(axis=0)) / std
    np.testing.assert_allclose(np.linalg.norm(lifted, axis=1), np.linalg.norm(coords, axis=1))
    np.testing.assert_allclose(coords.mean(axis=0), 0, atol=1e-9)
    assert coords[:, 0].var() >= coords[:, 1].var()      # first principal direction first
    with pytest.raises(ValueError, match="at least 2 features"):
        pwidgets.plane_through_data(X[:, :1])


class CountingSVC(SVC):
    fits = 0

    def fit(self, X, y):
        CountingSVC.fits += 1
        return super().fit(X, y)


def test_c_gamma_explorer_readout_goal_and_memoized_fits(small, small_search):
    X, y = small
    pipe, search = small_search
    rows, cols, table = model_selection.grid_table(search.cv_results_)
    target = float(np.sort(table.ravel())[-3])         # two cells strictly above it, at least
    counted = Pipeline([("scale", StandardScaler()), ("svc", CountingSVC())])
    CountingSVC.fits = 0
    fig = pwidgets.c_gamma_explorer(counted, X, y, search.cv_results_, target=target, grid=30)
    assert fig.n_settings == 9
    assert CountingSVC.fits == 1                        # only the initial setting so far
    i, j = np.unravel_index(np.argmax(table), table.shape)
    _, readout = fig.frame(C=rows[i], gamma=cols[j])
    assert f"<b>{table[i, j]:.3f}</b>" in readout and "svmlib-success" in readout
    _, readout_again = fig.frame(C=rows[i], gamma=cols[j])
    assert readout_again == readout and CountingSVC.fits == 2
    assert fig.goal(C=rows[0], gamma=cols[-1]) == (table[0, -1] > target)
    assert sum(fig.goal(**s) for s in fig.settings()) == int(np.sum(table > target))
    assert "3-fold CV" in fig.text() and f"of {X.shape[0]}" in fig.text()


def test_c_gamma_explorer_one_standard_error_rule(small, small_search):
    X, y = small
    pipe, search = small_search
    rows, cols, table = model_selection.grid_table(search.cv_results_)
    fig = pwidgets.c_gamma_explorer(pipe, X, y, search.cv_results_, rule="one-se", grid=20)
    best = table.max()
    line = best - np.sqrt(best * (1 - best) / X.shape[0])
    # the rule by brute force: smallest C among the cells above the line, then smallest gamma
    chosen = min((C, g) for i, C in enumerate(rows) for j, g in enumerate(cols)
                 if table[i, j] >= line)
    met = [(s["C"], s["gamma"]) for s in fig.settings() if fig.goal(**s)]
    assert met == [chosen]
    assert f"{line:.4f}" in fig.goal_text and f"{best:.4f}" in fig.goal_text
    i, j = np.unravel_index(np.argmax(table), table.shape)
    assert f"<b>{table[i, j]:.4f}</b>" in fig.frame(C=rows[i], gamma=cols[j])[1]
    with pytest.raises(ValueError, match="rule must be"):
        pwidgets.c_gamma_explorer(pipe, X, y, search.cv_results_, rule="best")


def test_c_gamma_explorer_rejects_bad_input(small, small_search):
    X, y = small
    pipe, search = small_search
    with pytest.raises(ValueError, match="two class labels"):
        pwidgets.c_gamma_explorer(pipe, X, np.arange(len(y)) % 3, search.cv_results_)
    partial = {k: (v[:-1] if hasattr(v, "__len__") else v) for k, v in
               search.cv_results_.items()}
    with pytest.raises(ValueError, match="full grid"):
        pwidgets.c_gamma_explorer(pipe, X, y, partial)


def test_c_gamma_explorer_static_html(small, small_search, monkeypatch):
    X, y = small
    pipe, search = small_search
    fig = pwidgets.c_gamma_explorer(pipe, X, y, search.cv_results_, grid=20, figsize=(5, 2.4),
                                    dpi=50)
    monkeypatch.setenv("SVMLIB_STATIC_WIDGETS", "1")
    bundle = fig._repr_mimebundle_()
    assert 'class="svmlib-widget"' in bundle["text/html"]
    assert len(bundle["text/html"].encode()) <= MAX_HTML_BYTES   # the frames move to files in the book (svmlib_reading)


def test_threshold_explorer_counts():
    rng = np.random.default_rng(3)
    y = (rng.uniform(size=60) < 0.4).astype(int)
    p = np.clip(0.35 * y + 0.3 + 0.3 * rng.normal(size=60), 0, 1)
    fig = pwidgets.threshold_explorer(y, p, thresholds=[0.3, 0.5, 0.7], platt=(-2.0, 0.1),
                                      class_names=("no", "yes"), min_recall=0.5,
                                      min_precision=0.5)
    _, readout = fig.frame(threshold=0.5)
    flagged = p >= 0.5
    tp, fp = np.sum(flagged & (y == 1)), np.sum(flagged & (y == 0))
    assert f"precision <b>{tp / (tp + fp):.3f}</b>" in readout
    assert f"recall <b>{tp / y.sum():.3f}</b>" in readout
    assert f"false alarms: {fp}" in readout and f"missed yes: {y.sum() - tp}" in readout
    f_star = (np.log(1.0) - 0.1) / -2.0
    assert f"f(x) ≥ {f_star:.2f}" in readout
    ok = (tp / y.sum() >= 0.5) and (tp / (tp + fp) >= 0.5)
    assert fig.goal(threshold=0.5) == ok
    with pytest.raises(ValueError, match="probabilities"):
        pwidgets.threshold_explorer(y, p + 1.5)
    with pytest.raises(ValueError, match="0, 1"):
        pwidgets.threshold_explorer(2 * y - 1, p)


def test_threshold_explorer_without_flagged_points():
    fig = pwidgets.threshold_explorer([0, 1, 1], [0.1, 0.2, 0.3], thresholds=[0.5])
    assert "precision —" in fig.text() and "recall 0.000" in fig.text()


# ------------------------------------------------------------------ checkers

def _bfgs_platt(f, y):
    from scipy.optimize import minimize
    t = _targets(y)

    def fun(params):
        z = params[0] * f + params[1]
        p = expit(-z)
        return np.sum(np.logaddexp(0, z) - (1 - t) * z), np.array([f @ (t - p), np.sum(t - p)])

    return minimize(fun, [0.0, 0.0], jac=True, method="BFGS", options={"gtol": 1e-9}).x


@pytest.mark.parametrize("answer, hint", [
    (lambda f, y: -_bfgs_platt(f, y), "wrong sign"),
    (lambda f, y: _bfgs_platt(f, y)[::-1], "(B, A)"),
    (lambda f, y: ex.platt_reference(f, y, targets="plain"), "targets"),
    (lambda f, y: expit(f), "not the probabilities"),
    (lambda f, y: (ex.platt_reference(f, y)[0] * 1.01, ex.platt_reference(f, y)[1]),
     "not converged"),
    (lambda f, y: (1.0, 2.0), "Check the loss"),
    (lambda f, y: {}[0], "KeyError"),
    (None, "function"),
])
def test_check_platt_fit_hints(answer, hint):
    feedback = ex.check_platt_fit(answer)
    assert not feedback
    assert hint in feedback.message


def test_check_platt_fit_accepts_newton_and_bfgs():
    assert ex.check_platt_fit(lambda f, y: ex.platt_reference(f, y))
    assert ex.check_platt_fit(_bfgs_platt)
    assert ex.check_platt_fit(lambda f, y: list(_bfgs_platt(f, y)))
