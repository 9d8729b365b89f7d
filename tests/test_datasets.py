"""Tests for svmlib.datasets: shapes, determinism, the promised geometry, worked examples."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog, minimize
from sklearn.svm import SVC as SklearnSVC

from svmlib import datasets
from svmlib.hyperplane import Hyperplane
from svmlib.feature_maps import quadratic_feature_map
from svmlib.perceptron import Perceptron

BINARY = [datasets.separable_blobs, datasets.overlapping_blobs, datasets.moons,
          datasets.circles, datasets.xor]
ALL = BINARY + [datasets.three_blobs]


def hard_margin_svm(X, y):
    """sklearn's SVC with a huge C: the hard-margin solution on separable data."""
    return SklearnSVC(kernel="linear", C=1e8, tol=1e-8).fit(X, y)


def linearly_separable(X, y):
    """Whether some (w, b) has y_i (<w, x_i> + b) >= 1 for all i (a linear program)."""
    A_ub = -y[:, None] * np.column_stack([X, np.ones(len(y))])
    result = linprog(np.zeros(X.shape[1] + 1), A_ub=A_ub, b_ub=-np.ones(len(y)),
                     bounds=[(None, None)] * (X.shape[1] + 1), method="highs")
    assert result.status in (0, 2), result.message       # 0: feasible, 2: infeasible
    return result.status == 0


# --------------------------------------------------------------- generators
@pytest.mark.parametrize("make", ALL)
def test_shapes_types_and_labels(make):
    X, y = make()
    assert X.ndim == 2 and X.shape[1] == 2 and X.dtype == np.float64
    assert y.shape == (X.shape[0],) and y.dtype.kind == "i"
    assert np.all(np.isfinite(X))
    expected = {0, 1, 2} if make is datasets.three_blobs else {-1, 1}
    assert set(np.unique(y).tolist()) == expected


@pytest.mark.parametrize("make", ALL)
@pytest.mark.parametrize("n", [7, 30, 101])
def test_requested_size_and_balanced_classes(make, n):
    X, y = make(n=n, random_state=1)
    assert X.shape == (n, 2)
    counts = np.unique(y, return_counts=True)[1]
    assert counts.max() - counts.min() <= 1


@pytest.mark.parametrize("make", ALL)
def test_seeded_and_deterministic(make):
    X1, y1 = make(random_state=3)
    X2, y2 = make(random_state=3)
    X3, _ = make(random_state=4)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    assert not np.allclose(X1, X3)
    X_default, _ = make()
    np.testing.assert_array_equal(X_default, make(random_state=0)[0])


@pytest.mark.parametrize("make", BINARY)
def test_rows_are_shuffled(make):
    _, y = make(n=100)
    assert 10 < np.count_nonzero(np.diff(y)) < 99      # the classes are interleaved


def test_generator_random_state_accepted():
    X, _ = datasets.moons(n=10, random_state=np.random.default_rng(5))
    np.testing.assert_array_equal(X, datasets.moons(n=10, random_state=np.random.default_rng(5))[0])


@pytest.mark.parametrize("call, match", [
    (lambda: datasets.separable_blobs(n=1), "n must be an integer >= 2"),
    (lambda: datasets.moons(n=10.0), "n must be an integer"),
    (lambda: datasets.xor(n=3), "n must be an integer >= 4"),
    (lambda: datasets.separable_blobs(margin=0.0), "margin must be a number > 0"),
    (lambda: datasets.overlapping_blobs(overlap=-1.0), "overlap must be a number > 0"),
    (lambda: datasets.moons(noise=-0.1), "noise must be a finite number >= 0"),
    (lambda: datasets.circles(factor=1.5), "factor must be in \\(0, 1\\)"),
    (lambda: datasets.circles(factor=0), "factor must be a number > 0"),
    (lambda: datasets.xor(random_state="zero"), "random_state must be None"),
    (lambda: datasets.three_blobs(random_state=-1), "random_state must be None"),
])
def test_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --------------------------------------------------- promised geometry
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([0.1, 0.5, 1.0, 2.0, 4.0]), st.integers(2, 120))
def test_separable_blobs_leave_an_empty_strip_of_width_margin(seed, margin, n):
    X, y = datasets.separable_blobs(n=n, margin=margin, random_state=seed)
    along = np.array([1.0, 1.0]) / np.sqrt(2.0)
    t = X @ along
    assert t[y == 1].min() - t[y == -1].max() >= margin - 1e-12


@pytest.mark.parametrize("margin", [0.25, 1.0, 3.0])
@pytest.mark.parametrize("seed", range(4))
def test_separable_blobs_max_margin_is_at_least_half_the_gap(margin, seed):
    X, y = datasets.separable_blobs(n=60, margin=margin, random_state=seed)
    assert linearly_separable(X, y)
    svm = hard_margin_svm(X, y)
    H = Hyperplane(svm.coef_[0], svm.intercept_[0])
    assert H.separates(X, y)
    assert H.geometric_margin(X, y) >= margin / 2 - 1e-6
    assert Perceptron(random_state=seed).fit(X, y).converged_


def test_overlapping_blobs_are_not_linearly_separable():
    X, y = datasets.overlapping_blobs()
    assert not linearly_separable(X, y)
    X, y = datasets.overlapping_blobs(overlap=0.2)              # small spread: separable
    assert linearly_separable(X, y)


def test_circles_radii_and_the_quadratic_lift():
    X, y = datasets.circles(noise=0.0, factor=0.45)
    radius = np.linalg.norm(X, axis=1)
    np.testing.assert_allclose(radius[y == -1], 1.0)
    np.testing.assert_allclose(radius[y == 1], 0.45)
    X, y = datasets.circles()
    assert not linearly_separable(X, y)                      # no line in the plane ...
    assert linearly_separable(quadratic_feature_map(X), y)   # ... but a plane in R^3


def test_xor_labels_follow_the_quadrants_and_no_line_separates():
    X, y = datasets.xor(noise=0.0, n=8)
    np.testing.assert_array_equal(y, np.sign(X[:, 0] * X[:, 1]))
    X, y = datasets.xor()
    assert np.mean(y == np.sign(X[:, 0] * X[:, 1])) > 0.95
    assert not linearly_separable(X, y)


def test_moons_noise_free_shape():
    X, y = datasets.moons(noise=0.0)
    np.testing.assert_allclose(np.linalg.norm(X[y == -1], axis=1), 1.0)
    np.testing.assert_allclose(np.linalg.norm(X[y == 1] - [1.0, 0.5], axis=1), 1.0)
    assert np.all(X[y == -1, 1] >= 0) and np.all(X[y == 1, 1] <= 0.5)


def test_three_blobs_are_mostly_separable():
    X, y = datasets.three_blobs()
    centers = np.array([X[y == k].mean(axis=0) for k in range(3)])
    nearest = np.argmin(((X[:, None, :] - centers[None]) ** 2).sum(axis=2), axis=1)
    assert np.mean(nearest == y) > 0.9


# --------------------------------------------------------- worked examples
def test_perceptron_example_is_consistent():
    ex = datasets.perceptron_example()
    X, y, w0, b0, alpha = ex["X"], ex["y"], ex["w0"], ex["b0"], ex["learning_rate"]
    np.testing.assert_array_equal(X @ w0 + b0, ex["h0"])
    np.testing.assert_array_equal(np.flatnonzero(y * ex["h0"] <= 0), [ex["update_index"]])
    i = ex["update_index"]
    np.testing.assert_array_equal(w0 + alpha * y[i] * X[i], ex["w1"])
    assert b0 + alpha * y[i] == ex["b1"]
    np.testing.assert_array_equal(X @ ex["w1"] + ex["b1"], ex["h1"])
    assert np.all(y * ex["h1"] > 0) and ex["n_updates"] == 1


def test_perceptron_example_returns_fresh_arrays():
    ex = datasets.perceptron_example()
    ex["X"][0, 0] = 99.0
    assert datasets.perceptron_example()["X"][0, 0] == 1.0


def numerical_gradient(func, point, eps=1e-6):
    x, y = point
    return np.array([(func(x + eps, y) - func(x - eps, y)) / (2 * eps),
                     (func(x, y + eps) - func(x, y - eps)) / (2 * eps)])


@pytest.mark.parametrize("make", [datasets.lagrange_example_a, datasets.lagrange_example_b])
def test_lagrange_examples_are_stationary_points(make):
    ex = make()
    assert ex["convention"] == "L = f + lambda * g" and ex["sense"] == "maximize"
    assert len(ex["points"]) == len(ex["multipliers"]) == len(ex["values"]) == len(ex["kinds"])
    for (x, y), lam, value in zip(ex["points"], ex["multipliers"], ex["values"]):
        assert ex["g"](x, y) == pytest.approx(0.0, abs=1e-12)
        assert ex["f"](x, y) == pytest.approx(value, abs=1e-12)
        np.testing.assert_allclose(ex["grad_f"](x, y) + lam * ex["grad_g"](x, y), 0.0,
                                   atol=1e-12)
        assert ex["lagrangian"](x, y, lam) == pytest.approx(value)
    rng = np.random.default_rng(0)
    for point in rng.normal(size=(5, 2)):
        for name in ("f", "g"):
            np.testing.assert_allclose(ex["grad_" + name](*point),
                                       numerical_gradient(ex[name], point), atol=1e-6)


def test_lagrange_functions_work_on_meshgrids():
    ex = datasets.lagrange_example_b()
    xx, yy = np.meshgrid(np.linspace(-2, 2, 5), np.linspace(-2, 2, 4))
    assert ex["f"](xx, yy).shape == (4, 5)
    assert ex["grad_f"](xx, yy).shape == (4, 5, 2)
    assert ex["grad_g"](1.0, 2.0).shape == (2,)
    assert datasets.lagrange_example_a()["grad_g"](xx, yy).shape == (4, 5, 2)


def test_lagrange_example_a_is_the_constrained_maximum():
    ex = datasets.lagrange_example_a()
    t = np.linspace(-3, 3, 6001)                     # the line x - y = 1: (t, t - 1)
    values = ex["f"](t, t - 1)
    assert t[np.argmax(values)] == pytest.approx(0.5, abs=1e-3)
    assert values.max() == pytest.approx(0.5, abs=1e-6)
    result = minimize(lambda p: -ex["f"](*p), x0=[2.0, 0.0], method="SLSQP",
                      constraints=[{"type": "eq", "fun": lambda p: ex["g"](*p)}])
    np.testing.assert_allclose(result.x, ex["points"][0], atol=1e-6)


def test_lagrange_example_b_finds_all_six_points_and_their_kinds():
    ex = datasets.lagrange_example_b()
    theta = np.linspace(0, 2 * np.pi, 200_001)[:-1]  # the circle x^2 + y^2 = 3
    r = np.sqrt(3.0)
    f = ex["f"](r * np.cos(theta), r * np.sin(theta))
    previous, following = np.roll(f, 1), np.roll(f, -1)
    local_max = (f > previous) & (f > following)
    local_min = (f < previous) & (f < following)
    found = {"max": r * np.column_stack([np.cos(theta[local_max]), np.sin(theta[local_max])]),
             "min": r * np.column_stack([np.cos(theta[local_min]), np.sin(theta[local_min])])}
    assert len(found["max"]) + len(found["min"]) == 6
    for point, kind in zip(ex["points"], ex["kinds"]):
        key = "max" if kind.endswith("maximum") else "min"
        assert np.min(np.linalg.norm(found[key] - point, axis=1)) < 1e-3
    assert f.max() == pytest.approx(2.0) and f.min() == pytest.approx(-2.0)


def test_tiny_hard_margin_satisfies_kkt_and_matches_sklearn():
    ex = datasets.tiny_hard_margin()
    X, y, w, b, alpha = ex["X"], ex["y"], ex["w"], ex["b"], ex["alpha"]
    np.testing.assert_allclose(w, (alpha * y) @ X)                 # stationarity
    assert alpha @ y == 0                                          # sum alpha_i y_i = 0
    margins = y * (X @ w + b)
    assert np.all(margins >= 1 - 1e-12)                            # primal feasibility
    assert np.all(alpha >= 0)
    np.testing.assert_allclose(alpha * (margins - 1), 0.0)        # complementary slackness
    np.testing.assert_array_equal(np.flatnonzero(alpha > 0), ex["support"])
    assert ex["margin"] == pytest.approx(1 / np.linalg.norm(w))
    assert ex["width"] == pytest.approx(2 / np.linalg.norm(w))
    dual = alpha.sum() - 0.5 * (alpha * y) @ (X @ X.T) @ (alpha * y)
    assert dual == pytest.approx(ex["objective"]) == pytest.approx(0.5 * w @ w)
    svm = hard_margin_svm(X, y)
    np.testing.assert_allclose(svm.coef_[0], w, atol=1e-6)
    np.testing.assert_allclose(svm.intercept_[0], b, atol=1e-6)
    np.testing.assert_array_equal(svm.support_, ex["support"])
