"""Tests of chapter 08 (kernels): the theory it states, its figures, widgets and checkers."""

import itertools
from math import comb, factorial

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402

from svmlib import SVC, datasets, feature_maps, kernels  # noqa: E402
from svmlib.exercises import kernels as ex  # noqa: E402
from svmlib.plotting import kernels as kplot  # noqa: E402
from svmlib.dual import check_separable  # noqa: E402
from svmlib.solvers import NotSeparableError  # noqa: E402
from svmlib.widgets import kernels as kwidgets  # noqa: E402

finite = st.floats(-3, 3, allow_nan=False, allow_infinity=False)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def circles():
    return datasets.circles(n=120, random_state=0)


# ------------------------------------------------------------------ theory

def test_syllabus_identities_on_small_integers():
    x, z = np.array([[1.0, 2.0]]), np.array([[3.0, 1.0]])
    q = feature_maps.quadratic_feature_map
    # (eq-kern-square-identity)
    assert (q(x) @ q(z).T).item() == pytest.approx(25.0)
    a = feature_maps.all_products_feature_map
    assert a(x).shape == (1, 4)                                           # R^2 -> R^4
    np.testing.assert_allclose(a(x)[0], [1, 2, 2, 4])
    assert (a(x) @ a(z).T).item() == pytest.approx(25.0)
    x3, z3 = np.array([[1.0, 2.0, 3.0]]), np.array([[-1.0, 0.0, 2.0]])
    p = feature_maps.polynomial_feature_map
    assert p(x3).shape == (1, 13)                       # 13 coordinates for m = 3
    assert (p(x3, c=1.0) @ p(z3, c=1.0).T).item() == pytest.approx(36.0)   # 6^2


@settings(max_examples=40, deadline=None)
@given(arrays(float, (5, 3), elements=finite), st.floats(0, 4))
def test_polynomial_feature_map_reproduces_the_kernel(X, c):
    Phi = feature_maps.polynomial_feature_map(X, c=c)
    np.testing.assert_allclose(Phi @ Phi.T, kernels.polynomial(X, degree=2, coef0=c),
                               rtol=1e-9, atol=1e-8)


@pytest.mark.parametrize("seed", range(3))
def test_circle_anywhere_is_a_hyperplane_in_four_coordinates(seed):
    """(eq-kern-circle-anywhere): w = (-2a, -2c, 1, 1), b = a^2 + c^2 - r^2."""
    rng = np.random.default_rng(seed)
    a, c, r = rng.normal(size=2).tolist() + [rng.uniform(0.5, 2)]
    X = rng.normal(size=(50, 2)) * 2
    w, b = np.array([-2 * a, -2 * c, 1.0, 1.0]), a * a + c * c - r * r
    inside = (X[:, 0] - a) ** 2 + (X[:, 1] - c) ** 2 - r * r
    np.testing.assert_allclose(feature_maps.conic_feature_map(X, cross_term=False) @ w + b, inside,
                               atol=1e-10)
    Z = feature_maps.paraboloid_feature_map(X)                     # the 3-D version
    np.testing.assert_allclose(Z @ np.array([-2 * a, -2 * c, 1.0]) + b, inside, atol=1e-10)


def test_turned_ellipse_needs_the_cross_term():
    """(eq-kern-conic): the chapter's turned ellipse, 4 vs 5 coordinates."""
    rng = np.random.default_rng(4)
    P = rng.uniform(-3, 3, size=(300, 2))
    angle = np.deg2rad(30)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    Q = (P - np.array([0.5, -0.4])) @ turn
    r = (Q[:, 0] / 2.2) ** 2 + Q[:, 1] ** 2
    keep = (r < 0.75) | (r > 1.3)
    X, y = P[keep], np.where(r[keep] < 1, 1, -1)
    with pytest.raises(NotSeparableError):
        feature_maps.fit_lifted_plane(feature_maps.conic_feature_map(X, cross_term=False), y)
    w, b = feature_maps.fit_lifted_plane(feature_maps.conic_feature_map(X), y)
    assert np.all(y * (feature_maps.conic_feature_map(X) @ w + b) >= 1 - 1e-4)


@pytest.mark.parametrize("n_points", [3, 5, 8])
def test_general_position_theorem_every_labelling(n_points):
    """(thm-kern-general-position): solve [X 1](w, b) = y for every labelling."""
    rng = np.random.default_rng(n_points)
    X = rng.normal(size=(n_points, n_points - 1))
    A = np.column_stack([X, np.ones(n_points)])
    for labels in itertools.product([-1.0, 1.0], repeat=n_points):
        y = np.array(labels)
        theta = np.linalg.solve(A, y)
        np.testing.assert_allclose(X @ theta[:-1] + theta[-1], y, atol=1e-8)


def test_cover_count_for_six_points():
    """(eq-kern-cover) on the chapter's experiment."""
    N = 6
    rng = np.random.default_rng(0)
    for d in range(1, N):
        X = rng.normal(size=(N, d))
        count = 0
        for labels in itertools.product([-1.0, 1.0], repeat=N):
            y = np.array(labels)
            if abs(y.sum()) == N:
                count += 1
                continue
            try:
                check_separable(y, X=X)
                count += 1
            except NotSeparableError:
                pass
        assert count == 2 * sum(comb(N - 1, k) for k in range(d + 1))


def test_valid_and_invalid_kernels_on_the_chapter_points():
    rng = np.random.default_rng(2)
    P = rng.uniform(-2, 2, size=(25, 2))
    valid = [kernels.linear(P), kernels.polynomial(P, degree=2), kernels.rbf(P, gamma=0.5),
             kernels.rbf(P, gamma=0.5) + kernels.polynomial(P, degree=2, coef0=0.0)]
    invalid = [np.sqrt(kernels.squared_distances(P)), np.tanh(kernels.linear(P) - 1),
               kernels.linear(P) - 1]
    assert all(kernels.is_psd(K) for K in valid)
    assert not any(kernels.is_psd(K) for K in invalid)
    # the distance matrix has trace 0, so its eigenvalues sum to 0
    assert np.linalg.eigvalsh(invalid[0]).sum() == pytest.approx(0.0, abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(arrays(float, (6, 2), elements=finite), arrays(float, (6, 2), elements=finite))
def test_sum_and_product_of_kernels_are_psd(A, B):
    """Exercise ex-kernels-sum: K1 + K2 and K1 * K2 (entrywise) stay PSD."""
    K1 = kernels.rbf(A, gamma=0.7)
    K2 = kernels.polynomial(A, degree=2)
    for K in (K1 + K2, K1 * K2):
        lam = np.linalg.eigvalsh(K)
        assert lam[0] >= -1e-9 * max(1.0, abs(lam).max())


def test_rbf_gram_has_full_rank_and_polynomials_do_not():
    rng = np.random.default_rng(0)
    P = rng.uniform(-2, 2, size=(30, 2))
    assert np.linalg.matrix_rank(kernels.linear(P)) == 2
    assert np.linalg.matrix_rank(kernels.polynomial(P, degree=2)) == comb(2 + 2, 2)   # 6
    assert np.linalg.matrix_rank(kernels.polynomial(P, degree=3)) == comb(2 + 3, 3)   # 10
    assert np.linalg.matrix_rank(kernels.rbf(P, gamma=0.5)) == 30


def test_rbf_taylor_series_converges_to_the_kernel():
    """(eq-kern-rbf-taylor)."""
    x, z, gamma = np.array([1.0, 0.5]), np.array([0.5, 1.0]), 0.5
    exact = np.exp(-gamma * np.sum((x - z) ** 2))
    prefactor = np.exp(-gamma * (x @ x + z @ z))
    errors = [abs(prefactor * sum((2 * gamma * (x @ z)) ** d / factorial(d) for d in range(t))
                  - exact) for t in (1, 3, 6, 12)]
    assert errors == sorted(errors, reverse=True)
    assert errors[-1] < 1e-8


def test_kernel_decision_and_bias_by_hand_match_svc():
    """(eq-kern-bias), (eq-kern-decision) from dual_coef_ and support_vectors_."""
    X, y = datasets.moons(n=100, noise=0.2, random_state=0)
    gamma, C = 2.0, 1.0
    svm = SVC(kernel="rbf", gamma=gamma, C=C, tol=1e-6).fit(X, y)
    coef = svm.dual_coef_[0]
    alpha = np.abs(coef)
    assert np.all(alpha > 0) and np.all(alpha <= C + 1e-12)
    assert coef.sum() == pytest.approx(0.0, abs=1e-9)
    free = alpha < C - 1e-8
    K_sv = kernels.rbf(svm.support_vectors_, gamma=gamma)
    b = np.mean(np.sign(coef[free]) - K_sv[free] @ coef)
    assert b == pytest.approx(svm.intercept_[0], abs=1e-9)
    X_new = datasets.moons(n=50, noise=0.2, random_state=1)[0]
    np.testing.assert_allclose(kernels.rbf(X_new, svm.support_vectors_, gamma=gamma) @ coef + b,
                               svm.decision_function(X_new), atol=1e-9)


def test_sigma_scales_with_the_data():
    """The chapter's claim: sigma is in the units of x (10x data, 10x sigma, same model)."""
    X, y = datasets.moons(n=60, noise=0.3, random_state=0)
    small = SVC(kernel="rbf", gamma=1 / (2 * 0.32 ** 2), C=1.0, tol=1e-6).fit(X, y)
    large = SVC(kernel="rbf", gamma=1 / (2 * 3.2 ** 2), C=1.0, tol=1e-6).fit(10 * X, y)
    np.testing.assert_array_equal(small.support_, large.support_)
    np.testing.assert_allclose(small.decision_function(X), large.decision_function(10 * X),
                               atol=1e-6)


# --------------------------------------------------------------- plotting

def test_fit_lifted_plane_separates_the_lifted_circles(circles):
    X, y = circles
    Z = feature_maps.quadratic_feature_map(X)
    w, b = feature_maps.fit_lifted_plane(Z, y)
    assert w.shape == (3,)
    assert np.min(y * (Z @ w + b)) == pytest.approx(1.0, abs=1e-4)
    with pytest.raises(ValueError, match="-1, \\+1"):
        feature_maps.fit_lifted_plane(Z, np.where(y > 0, 1, 0))


@settings(max_examples=40, deadline=None)
@given(arrays(float, 3, elements=st.floats(-2, 2).filter(lambda v: abs(v) > 0.05)),
       st.floats(-1, 1))
def test_plane_box_polygon_lies_on_the_plane_and_in_the_box(w, b):
    lower, upper = np.array([-1.0, -1.0, -1.0]), np.array([1.0, 2.0, 1.5])
    poly = kplot.plane_box_polygon(w, b, lower, upper)
    if poly.shape[0]:
        assert 3 <= poly.shape[0] <= 6
        np.testing.assert_allclose(poly @ w + b, 0.0, atol=1e-9)
        assert np.all(poly >= lower - 1e-9) and np.all(poly <= upper + 1e-9)
    else:  # the plane misses the box: all corners on one side
        corners = np.array(list(itertools.product(*zip(lower, upper))))
        values = corners @ w + b
        assert np.all(values > 0) or np.all(values < 0)


def test_plane_box_polygon_of_a_middle_cut_is_a_square():
    poly = kplot.plane_box_polygon([0, 0, 1.0], -0.5, [0, 0, 0], [1, 1, 1])
    assert poly.shape == (4, 3)
    np.testing.assert_allclose(poly[:, 2], 0.5)


def test_feature_maps_reject_wrong_shapes():
    with pytest.raises(ValueError, match="2 columns|\\(n, 2\\)"):
        feature_maps.paraboloid_feature_map(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="\\(n, 2\\)"):
        feature_maps.conic_feature_map(np.zeros((3, 1)))


def test_plot_lift_3d_draws_points_and_plane(circles):
    X, y = circles
    Z = feature_maps.quadratic_feature_map(X)
    w, b = feature_maps.fit_lifted_plane(Z, y)
    ax = kplot.plot_lift_3d(Z, y, w, b)
    assert ax.name == "3d"
    assert any(c.get_gid() == "plane" for c in ax.collections)
    fig, flat = plt.subplots()
    with pytest.raises(ValueError, match="3-D Axes"):
        kplot.plot_lift_3d(Z, y, ax=flat)
    with pytest.raises(ValueError, match="3 columns"):
        kplot.plot_lift_3d(X, y)


def test_plot_eigenvalues_marks_negative_ones_red():
    ax = kplot.plot_eigenvalues([3.0, 1.0, 0.0, -1e-14, -2.0], title="t")
    red_rgb = matplotlib.colors.to_rgb(kplot.NEGATIVE_COLOR)
    points = [c for c in ax.collections if len(c.get_facecolor())]      # the scatters
    red = [c for c in points if np.allclose(c.get_facecolor()[0][:3], red_rgb)]
    assert len(red) == 1 and len(red[0].get_offsets()) == 1      # only -2 (not -1e-14)
    assert ax.get_yscale() == "symlog"
    lo, hi = ax.get_ylim()
    assert lo < -2 and hi > 3


def test_other_plots_return_axes():
    rng = np.random.default_rng(0)
    P = rng.normal(size=(10, 2))
    ax = kplot.plot_spectrum_decay({"lin": np.linalg.eigvalsh(kernels.linear(P)),
                                    "rbf": np.linalg.eigvalsh(kernels.rbf(P))})
    assert len(ax.get_lines()) == 2 and ax.get_yscale() == "log"
    assert len(kplot.plot_rbf_profiles((0.5, 1.0)).get_lines()) == 4
    ax = kplot.plot_kernel_cost([4, 8], [1e-3, 4e-3], [1e-4, 1e-4])
    assert len(ax.get_lines()) == 2
    with pytest.raises(ValueError, match="same length"):
        kplot.plot_kernel_cost([4, 8], [1e-3], [1e-4, 1e-4])
    with pytest.raises(ValueError, match="positive"):
        kplot.plot_rbf_profiles((0.0,))
    with pytest.raises(ValueError, match="non-empty"):
        kplot.plot_spectrum_decay({})


def test_plot_kernel_expansion_terms_add_up_to_the_score():
    rng = np.random.default_rng(0)
    x = np.sort(rng.uniform(-3, 3, size=20))[:, None]
    y = np.where(np.abs(x[:, 0]) < 1.2, 1, -1)
    svm = SVC(kernel="rbf", gamma=0.5, C=10.0).fit(x, y)
    ax = kplot.plot_kernel_expansion_1d(svm, x, y, grid=200)
    lines = ax.get_lines()
    terms = [line for line in lines if line.get_linewidth() < 1.5 and len(line.get_xdata()) == 200]
    total = [line for line in lines if line.get_label() == "$h(x)$"][0]
    assert len(terms) == len(svm.support_)
    summed = sum(np.asarray(line.get_ydata()) for line in terms) + svm.intercept_[0]
    np.testing.assert_allclose(summed, total.get_ydata(), atol=1e-9)
    with pytest.raises(ValueError, match="one column"):
        kplot.plot_kernel_expansion_1d(svm, np.zeros((3, 2)), [1, -1, 1])


def test_plot_scores_1d_draws_each_models_score():
    rng = np.random.default_rng(0)
    x = np.sort(rng.uniform(-3, 3, size=20))[:, None]
    y = np.where(np.abs(x[:, 0]) < 1.2, 1, -1)
    models = [SVC(kernel="rbf", gamma=0.5, C=C).fit(x, y) for C in (0.1, 10.0)]
    ax = kplot.plot_scores_1d(models, x, y, labels=["small C", "large C"], grid=100)
    curves = [line for line in ax.get_lines() if line.get_label() in ("small C", "large C")]
    assert len(curves) == 2
    for model, curve in zip(models, curves):
        np.testing.assert_allclose(curve.get_ydata(),
                                   model.decision_function(curve.get_xdata()[:, None]))
    with pytest.raises(ValueError, match="one entry per model"):
        kplot.plot_scores_1d(models, x, y, labels=["only one"])
    with pytest.raises(ValueError, match="one column"):
        kplot.plot_scores_1d(models, np.zeros((3, 2)), [1, -1, 1])


def test_rkhs_norm_of_the_svm_function_is_the_dual_identity():
    # ||f||_H^2 = coef^T K coef equals sum(alpha) - C sum(xi) at the optimum
    # (zero duality gap), and grows with C (Book: eq-kern-rkhs-norm).
    rng = np.random.default_rng(0)
    x = np.sort(rng.uniform(-3, 3, size=20))[:, None]
    y = np.where(np.abs(x[:, 0]) < 1.2, 1, -1)
    norms = []
    for C in (0.1, 0.3, 1.0, 10.0):
        svm = SVC(kernel="rbf", gamma=0.5, C=C, tol=1e-6).fit(x, y)
        coef = svm.dual_coef_[0]
        norm2 = coef @ kernels.rbf(svm.support_vectors_, gamma=0.5) @ coef
        xi = np.maximum(0.0, 1.0 - y * svm.decision_function(x))
        assert abs(norm2 - (np.abs(coef).sum() - C * xi.sum())) <= 1e-4 * max(1.0, norm2)
        norms.append(norm2)
    assert all(a < b for a, b in zip(norms, norms[1:]))

def test_plot_cv_heatmap_boxes_the_best_cell():
    scores = np.array([[0.5, 0.6], [0.9, 0.7], [0.8, 0.4]])
    ax = kplot.plot_cv_heatmap(scores, [1, 2, 3], [0.1, 1])
    box = ax.patches[-1]
    assert box.get_xy() == (-0.5, 0.5)          # column 0, row 1
    assert len(ax.texts) == 6
    with pytest.raises(ValueError, match="shape"):
        kplot.plot_cv_heatmap(scores, [1, 2], [0.1, 1])


# ---------------------------------------------------------------- widgets

@pytest.fixture(scope="module")
def small_sets():
    return {"moons": datasets.moons(n=30, noise=0.2, random_state=0),
            "XOR": datasets.xor(n=30, noise=0.3, random_state=0)}


def test_playground_settings_and_readouts(small_sets):
    tests = {"moons": datasets.moons(n=40, noise=0.2, random_state=1)}
    fig = kwidgets.kernel_playground(small_sets, tests, degrees=(2, 3), gammas=(1.0, 10.0),
                                     Cs=(1.0, 10.0), grid=30)
    assert fig.n_settings == 2 * 4 * 2 * 2                 # data × kernel menu × gamma × C
    _, text = fig.frame(dataset="moons", kernel="poly2", C=1.0)
    assert "degree d = 2" in text and "test accuracy" in text
    _, text = fig.frame(dataset="XOR", kernel="rbf", gamma=10.0, C=1.0)
    assert "&gamma; = 10" in text and "&sigma; = 0.224" in text and "test accuracy" not in text
    # the degree and the width are separate: gamma does nothing for the other kernels
    for kernel in ("linear", "poly3"):
        assert fig.frame(dataset="XOR", kernel=kernel, gamma=1.0)[1] == \
            fig.frame(dataset="XOR", kernel=kernel, gamma=10.0)[1]
    assert not fig.controls["gamma"].is_enabled(dict(dataset="XOR", kernel="poly2", C=1.0))
    assert fig.controls["gamma"].is_enabled(dict(dataset="XOR", kernel="rbf", C=1.0))
    # C has its own slider: it changes the fit
    model = SVC(kernel="rbf", gamma=10.0, C=10.0).fit(*small_sets["XOR"])
    _, text = fig.frame(dataset="XOR", kernel="rbf", gamma=10.0, C=10.0)
    assert f"<b>{len(model.support_)}</b> support vectors" in text
    assert fig.text().startswith("Kernel playground")
    assert "0x" not in fig.text()


def test_playground_rejects_bad_input(small_sets):
    with pytest.raises(ValueError, match="at least one value"):
        kwidgets.kernel_playground(small_sets, degrees=(2, 3), gammas=())
    with pytest.raises(ValueError, match="kernel must be one of"):
        kwidgets.kernel_playground(small_sets, kernel="poly5", grid=10)
    with pytest.raises(ValueError, match="non-empty dict"):
        kwidgets.kernel_playground({})
    X, y = small_sets["moons"]
    with pytest.raises(ValueError, match="-1 and \\+1"):
        kwidgets.kernel_playground({"bad": (X, np.where(y > 0, 2, 1))})


def test_fit_grid_reports_counts_and_errors(small_sets):
    X, y = small_sets["moons"]
    fit = kwidgets.kernel_svm_on_grid(X, y.astype(float), "rbf", 100.0, grid=20, gamma=50.0)
    model = SVC(kernel="rbf", C=100.0, gamma=50.0).fit(X, y)
    assert fit["h"].shape == (20, 20)
    assert fit["n_support"] == len(model.support_)
    assert fit["train_errors"] == int(np.sum(model.predict(X) != y))
    assert fit["test_accuracy"] is None


def test_lift_viewer_scenarios(circles):
    X, y = circles
    fig = kwidgets.lift_viewer(X, y, azimuths=(0, 90), elevations=(15,), azimuth=0,
                               elevation=15)
    assert fig.n_settings == 3 * 2
    texts = [fig.frame(scenario=i)[1] for i in range(3)]
    assert "a plane separates" in texts[0]
    assert "no plane separates" in texts[1]
    assert "a plane separates" in texts[2]
    png_a, _ = fig.frame(scenario=0, azimuth=0)
    png_b, _ = fig.frame(scenario=0, azimuth=90)
    assert png_a != png_b                      # the view really turns


def test_support_vector_challenge_goal(small_sets):
    X, y = datasets.moons(n=80, noise=0.15, random_state=2)
    fig = kwidgets.support_vector_challenge(X, y, max_support=8)
    assert fig.n_settings == 25
    assert fig.solutions == [(0.5, 100.0), (0.5, 1000.0)]
    _, text = fig.frame(gamma=0.5, C=100.0)
    assert "svmlib-success" in text
    _, text = fig.frame(gamma=50.0, C=100.0)
    assert "svmlib-success" not in text and "support vectors" in text
    # the chapter's puzzle: 7 x 7 log grid, at most 7 support vectors, few solutions,
    # all where a wide kernel (small gamma) meets a large C
    puzzle = kwidgets.support_vector_challenge(
        X, y, max_support=7, gammas=(0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0),
        Cs=(0.01, 0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0), grid=20)
    assert puzzle.n_settings == 49 and 1 <= len(puzzle.solutions) <= 4
    assert all(g <= 0.3 and C >= 1000.0 for g, C in puzzle.solutions)
    assert "Goal" not in fig.text()              # plain text: title and readout only


# ---------------------------------------------------------------- checkers

R2 = np.sqrt(2.0)


def _right_map(x):
    return np.array([x[0] ** 2, x[1] ** 2, R2 * x[0] * x[1], R2 * x[0], R2 * x[1], 1.0])


@pytest.mark.parametrize("func, words", [
    (_right_map, "Correct"),
    (lambda x: _right_map(x)[[5, 3, 0, 1, 2, 4]] * np.array([1, -1, 1, 1, -1, 1]), "Correct"),
    (lambda x: _right_map(x)[:3], "(x·z)²"),
    (lambda x: _right_map(x)[:5], "constant 1"),
    (lambda x: np.array([x[0] ** 2, x[1] ** 2, x[0] * x[1], x[0], x[1], 1.0]), "√2"),
    (lambda x: np.array([x[0], x[1], 1.0]), "six different monomials"),
    (lambda x: "phi", "without quotes"),
    (lambda x: 1 / 0, "ZeroDivisionError"),
    (None, "function itself"),
])
def test_check_feature_map_m2(func, words):
    feedback = ex.check_feature_map_m2(func)
    assert words in str(feedback)
    assert bool(feedback) == (words == "Correct")


def _gram(X, sigma):
    D = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    return np.exp(-D / (2 * sigma ** 2))


@pytest.mark.parametrize("func, words", [
    (_gram, "Correct"),
    (lambda X, s: kernels.rbf(X, gamma=1 / (2 * s * s)), "Correct"),
    (lambda X, s: _gram(X, s / R2), "σ² instead of 2σ²"),
    (lambda X, s: np.exp(-np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1)) / (2 * s * s)),
     "squared"),
    (lambda X, s: 1 / _gram(X, s), "minus sign"),
    (lambda X, s: np.exp(-2 * s * s * ((X[:, None] - X[None]) ** 2).sum(-1)), "denominator"),
    (lambda X, s: _gram(X, s)[:, :2], "shape"),
    (lambda X, s: _gram(X, s).tolist(), "Correct"),
    (lambda X, s: None, "None"),
    ("K", "function itself"),
])
def test_check_rbf_gram(func, words):
    feedback = ex.check_rbf_gram(func)
    assert words in str(feedback)
    assert bool(feedback) == (words == "Correct")


def _is_psd(K, tol=1e-10):
    K = np.asarray(K, dtype=float)
    scale = max(1.0, np.abs(K).max())
    if not np.allclose(K, K.T, rtol=0, atol=tol * scale):
        return False
    lam = np.linalg.eigvalsh(K)
    return bool(lam[0] >= -tol * max(scale, np.abs(lam).max()))


@pytest.mark.parametrize("func, words", [
    (_is_psd, "Correct"),
    (lambda K: bool(np.linalg.eigvalsh(K).min() >= 0), "rounding"),
    (lambda K: bool(np.linalg.eigvals(K).real.min() >= -1e-9), "symmetric"),
    (lambda K: bool(np.linalg.eigvalsh(K).min() >= -1e-2), "symmetric"),
    (lambda K: np.linalg.eigvalsh(K), "True or False"),
    (lambda K: True, "distances"),
    (lambda K: False, "rank 2"),
    (lambda K: K.missing, "AttributeError"),
])
def test_check_is_psd(func, words):
    feedback = ex.check_is_psd(func)
    assert words in str(feedback)
    assert bool(feedback) == (words == "Correct")


def _decision(X_new, X_sv, alpha, y_sv, b, kernel):
    return kernel(X_new, X_sv) @ (alpha * y_sv) + b


@pytest.mark.parametrize("func, words", [
    (_decision, "Correct"),
    (lambda *a: list(_decision(*a)), "Correct"),
    (lambda *a: _decision(*a) - a[4], "bias is missing"),
    (lambda *a: _decision(*a) - 2 * a[4], "wrong sign"),
    (lambda Xn, Xs, al, ys, b, k: k(Xn, Xs) @ al + b, "its label"),
    (lambda *a: np.sign(_decision(*a)), "not their signs"),
    (lambda *a: -_decision(*a), "opposite sign"),
    (lambda Xn, Xs, al, ys, b, k: Xn @ Xs.T @ (al * ys) + b, "kernel you were given"),
    (lambda Xn, Xs, al, ys, b, k: k(Xs, Xn) @ (al * ys) + b, "shape ("),
    (lambda *a: _decision(*a)[:, None], "np.ravel"),
    (lambda *a: None, "None"),
    (3.0, "function itself"),
])
def test_check_kernel_decision(func, words):
    feedback = ex.check_kernel_decision(func)
    assert words in str(feedback)
    assert bool(feedback) == (words == "Correct")


def test_checkers_feedback_is_deterministic_text():
    a, b = str(ex.check_is_psd(_is_psd)), str(ex.check_is_psd(_is_psd))
    assert a == b and "0x" not in a
