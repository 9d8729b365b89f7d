"""Tests for svmlib.kernels (agreement with scikit-learn, PSD) and the identities of svmlib.feature_maps."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.spatial.distance import cdist
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel
from sklearn.svm import SVC as SklearnSVC

from svmlib import kernels
from svmlib.feature_maps import all_products_feature_map, polynomial_feature_map, quadratic_feature_map
from svmlib.kernels import (
    get_kernel,
    gram_matrix,
    is_psd,
    is_conditionally_psd,
    zero_sum_eigenvalues,
    linear,
    polynomial,
    rbf,
    resolve_gamma,
    squared_distances,
)

TOL = 1e-10
small = st.floats(-5, 5, allow_nan=False, allow_infinity=False)


@st.composite
def two_matrices(draw, max_features=4, max_rows=7):
    p = draw(st.integers(1, max_features))
    X = draw(arrays(np.float64, (draw(st.integers(1, max_rows)), p), elements=small))
    Z = draw(arrays(np.float64, (draw(st.integers(1, max_rows)), p), elements=small))
    return X, Z


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(30, 3)), rng.normal(size=(11, 3))


# ------------------------------------------------ agreement with sklearn
def test_linear_matches_sklearn(data):
    X, Z = data
    np.testing.assert_allclose(linear(X, Z), linear_kernel(X, Z), rtol=TOL, atol=TOL)


@pytest.mark.parametrize("degree, coef0, gamma", [(1, 0.0, 1.0), (2, 1.0, 1.0), (3, 0.5, 0.2),
                                                  (4, 2.0, 0.7)])
def test_polynomial_matches_sklearn(data, degree, coef0, gamma):
    X, Z = data
    np.testing.assert_allclose(
        polynomial(X, Z, degree=degree, coef0=coef0, gamma=gamma),
        polynomial_kernel(X, Z, degree=degree, gamma=gamma, coef0=coef0), rtol=1e-10, atol=TOL)


def test_polynomial_defaults_are_the_books_kernel(data):
    X, Z = data
    np.testing.assert_allclose(polynomial(X, Z), (X @ Z.T + 1.0) ** 3)


@pytest.mark.parametrize("gamma", [0.01, 0.5, 3.0])
def test_rbf_matches_sklearn(data, gamma):
    X, Z = data
    np.testing.assert_allclose(rbf(X, Z, gamma=gamma), rbf_kernel(X, Z, gamma=gamma),
                               rtol=1e-10, atol=TOL)


def test_rbf_gamma_is_one_over_two_sigma_squared(data):
    X, Z = data
    sigma = 3.2
    expected = np.exp(-cdist(X, Z, "sqeuclidean") / (2 * sigma ** 2))
    np.testing.assert_allclose(rbf(X, Z, gamma=1 / (2 * sigma ** 2)), expected, rtol=1e-10)


@settings(max_examples=50, deadline=None)
@given(two_matrices(), st.floats(0.01, 2.0))
def test_kernels_match_sklearn_on_arbitrary_data(XZ, gamma):
    X, Z = XZ
    np.testing.assert_allclose(linear(X, Z), linear_kernel(X, Z), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(rbf(X, Z, gamma=gamma), rbf_kernel(X, Z, gamma=gamma),
                               rtol=1e-7, atol=1e-9)
    expected = polynomial_kernel(X, Z, degree=2, gamma=gamma, coef0=1.0)
    np.testing.assert_allclose(polynomial(X, Z, degree=2, gamma=gamma), expected,
                               rtol=1e-9, atol=1e-9)
    assert linear(X, Z).shape == (X.shape[0], Z.shape[0])


def test_z_defaults_to_x(data):
    X, _ = data
    np.testing.assert_array_equal(linear(X), linear(X, X))
    np.testing.assert_array_equal(rbf(X, gamma=0.3), rbf(X, X, gamma=0.3))
    np.testing.assert_array_equal(polynomial(X, degree=2), polynomial(X, X, degree=2))


# ----------------------------------------------------- squared distances
def test_squared_distances_match_scipy_and_are_clipped(data):
    X, Z = data
    np.testing.assert_allclose(squared_distances(X, Z), cdist(X, Z, "sqeuclidean"),
                               rtol=1e-10, atol=1e-10)
    # identical large points: ||x||^2 + ||z||^2 - 2<x, z> rounds below zero
    big = np.random.default_rng(9).normal(scale=1e4, size=(200, 3))
    copy = big.copy()
    raw = (big ** 2).sum(1) + (copy ** 2).sum(1) - 2 * np.einsum("ij,ij->i", big, copy)
    assert raw.min() < 0                       # the test exercises the clipping
    D2 = squared_distances(big, copy)
    assert np.all(D2 >= 0)
    assert np.all(rbf(big, copy, gamma=1.0) <= 1.0)
    np.testing.assert_array_equal(np.diag(squared_distances(big)), 0.0)


def test_rbf_values_lie_in_zero_one_with_ones_on_the_diagonal(data):
    X, _ = data
    K = rbf(X, gamma=0.5)
    np.testing.assert_array_equal(np.diag(K), 1.0)
    assert np.all((K > 0) & (K <= 1))
    np.testing.assert_array_equal(K, K.T)


# ------------------------------------------------ feature-map identities
@settings(max_examples=50, deadline=None)
@given(arrays(np.float64, (5, 2), elements=small), arrays(np.float64, (4, 2), elements=small))
def test_quadratic_feature_map_identity(X, Z):
    lhs = quadratic_feature_map(X) @ quadratic_feature_map(Z).T
    np.testing.assert_allclose(lhs, (X @ Z.T) ** 2, rtol=1e-9, atol=1e-8)


def test_quadratic_feature_map_values():
    np.testing.assert_allclose(quadratic_feature_map([[1.0, 2.0], [-3.0, 0.5]]),
                               [[1.0, 4.0, 2.0 * np.sqrt(2.0)], [9.0, 0.25, -1.5 * np.sqrt(2.0)]])
    with pytest.raises(ValueError, match="points in the plane"):
        quadratic_feature_map(np.ones((2, 3)))


def test_circles_become_planes_under_the_quadratic_map():
    angles = np.linspace(0, 2 * np.pi, 13)
    for radius in (0.5, 2.0):
        X = radius * np.column_stack([np.cos(angles), np.sin(angles)])
        phi = quadratic_feature_map(X)
        # x1^2 + x2^2 = r^2 is the plane <(1, 1, 0), phi> = r^2
        np.testing.assert_allclose(phi @ [1.0, 1.0, 0.0], radius ** 2)


@settings(max_examples=50, deadline=None)
@given(two_matrices(max_features=5))
def test_all_products_feature_map_identity(XZ):
    X, Z = XZ
    m = X.shape[1]
    phi_X, phi_Z = all_products_feature_map(X), all_products_feature_map(Z)
    assert phi_X.shape == (X.shape[0], m * m)
    np.testing.assert_allclose(phi_X @ phi_Z.T, (X @ Z.T) ** 2, rtol=1e-9, atol=1e-8)


def test_all_products_feature_map_ordering():
    np.testing.assert_allclose(all_products_feature_map([[2.0, 3.0]]), [[4.0, 6.0, 6.0, 9.0]])


@settings(max_examples=50, deadline=None)
@given(two_matrices(max_features=4), st.floats(0, 5))
def test_polynomial_feature_map_identity(XZ, c):
    X, Z = XZ
    m = X.shape[1]
    phi_X, phi_Z = polynomial_feature_map(X, c), polynomial_feature_map(Z, c)
    assert phi_X.shape == (X.shape[0], m * m + m + 1)
    np.testing.assert_allclose(phi_X @ phi_Z.T, polynomial(X, Z, degree=2, coef0=c),
                               rtol=1e-9, atol=1e-8)


def test_polynomial_feature_map_has_13_coordinates_for_three_features():
    phi = polynomial_feature_map([[1.0, 2.0, 3.0]], c=2.0)
    assert phi.shape == (1, 13)
    np.testing.assert_allclose(phi[0, 9:12], 2.0 * np.array([1.0, 2.0, 3.0]))  # sqrt(2c)=2
    assert phi[0, 12] == 2.0
    with pytest.raises(ValueError, match="c must be a finite number >= 0"):
        polynomial_feature_map([[1.0, 2.0]], c=-1.0)


# ----------------------------------------------------------------- PSD
@pytest.mark.parametrize("name, params", [("linear", {}), ("poly", {"degree": 3, "coef0": 1.0}),
                                          ("poly", {"degree": 2, "coef0": 0.0}),
                                          ("rbf", {"gamma": 0.5}), ("rbf", {"gamma": "scale"})])
def test_gram_matrices_of_valid_kernels_are_psd(name, params):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 4))
    K = gram_matrix(name, X, **params)
    assert K.shape == (60, 60)
    np.testing.assert_allclose(K, K.T, atol=1e-12)
    assert is_psd(K)


def test_non_psd_kernels_are_caught():
    X = np.random.default_rng(6).normal(size=(20, 2))
    # the Euclidean distance is symmetric but not a kernel: zero trace, nonzero matrix
    distance = gram_matrix(lambda A, B: np.sqrt(squared_distances(A, B)), X)
    assert np.linalg.eigvalsh(distance)[0] < -1e-3
    assert not is_psd(distance)
    # the sigmoid "kernel" tanh(<x, z> - 1) fails as well for these points
    sigmoid = gram_matrix(lambda A, B: np.tanh(A @ B.T - 1.0), X)
    assert not is_psd(sigmoid)
    # an asymmetric matrix is never a Gram matrix of a kernel
    assert not is_psd(np.array([[1.0, 0.5], [0.0, 1.0]]))
    assert not is_psd(np.diag([1.0, -1e-8]))
    assert is_psd(np.diag([1.0, 0.0]))
    assert is_psd(np.diag([1.0, -1e-12]))                  # rounding-size: tolerated
    assert not is_psd(np.diag([1.0, -1e-8]), tol=1e-10)
    assert is_psd(np.diag([1.0, -1e-8]), tol=1e-6)


def test_conditionally_psd_is_what_the_svm_dual_needs():
    X = np.random.default_rng(6).normal(size=(20, 2))
    y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1.0, -1.0)
    shifted = X @ X.T - 1.0                                 # <x, z> - 1
    minus_distance = -np.sqrt(squared_distances(X, X))      # -||x - z||
    sigmoid = np.tanh(X @ X.T - 1.0)
    for K in (shifted, minus_distance):
        assert not is_psd(K) and is_conditionally_psd(K)
    assert not is_conditionally_psd(sigmoid)
    assert not is_conditionally_psd(np.sqrt(squared_distances(X, X)))
    assert is_conditionally_psd(X @ X.T)                    # PSD implies CPD
    # The form on {c : sum c = 0} against an independent basis (scipy's null space),
    # and against the SVM's own subspace {d : y^T d = 0} of Q = diag(y) K diag(y).
    from scipy.linalg import null_space
    for K in (shifted, minus_distance, sigmoid):
        B = null_space(np.ones((1, 20)))
        np.testing.assert_allclose(zero_sum_eigenvalues(K), np.linalg.eigvalsh(B.T @ K @ B),
                                   atol=1e-9)
        Q = np.outer(y, y) * K
        By = null_space(y[None, :])
        np.testing.assert_allclose(zero_sum_eigenvalues(K), np.linalg.eigvalsh(By.T @ Q @ By),
                                   atol=1e-9)
    # A constant added to every entry changes nothing on that subspace.
    np.testing.assert_allclose(zero_sum_eigenvalues(minus_distance + 7.0),
                               zero_sum_eigenvalues(minus_distance), atol=1e-9)
    with pytest.raises(ValueError, match="square"):
        zero_sum_eigenvalues(np.ones((2, 3)))
    assert not is_conditionally_psd(np.array([[1.0, 0.5], [0.0, 1.0]]))

def test_is_psd_rejects_non_square():
    with pytest.raises(ValueError, match="square"):
        is_psd(np.ones((2, 3)))


# ----------------------------------------------- get_kernel, gram, gamma
def test_get_kernel_by_name(data):
    X, Z = data
    np.testing.assert_allclose(get_kernel("rbf", gamma=0.3)(X, Z), rbf(X, Z, gamma=0.3))
    np.testing.assert_allclose(get_kernel("poly", degree=2, coef0=0.0)(X, Z),
                               (X @ Z.T) ** 2)
    np.testing.assert_allclose(get_kernel("polynomial", degree=2)(X), polynomial(X, X, degree=2))
    # unused parameters are ignored, as in SVC
    np.testing.assert_allclose(get_kernel("linear", gamma=2.0, degree=5, coef0=1.0)(X, Z),
                               X @ Z.T)


def test_get_kernel_with_callable():
    def scaled(A, B, factor=1.0):
        return factor * (A @ B.T)

    X = np.eye(3)
    assert get_kernel(scaled) is scaled
    np.testing.assert_allclose(get_kernel(scaled, factor=2.0)(X), 2.0 * np.eye(3))


@pytest.mark.parametrize("kernel, params, match", [
    ("sigmoidal", {}, "kernel must be one of"),
    (3, {}, "kernel must be one of"),
    ("rbf", {"gamma": "scale"}, "resolve_gamma"),
    ("rbf", {"gamma": -1.0}, "gamma must be a finite number > 0"),
    ("poly", {"degree": 0}, "degree must be an integer >= 1"),
    ("poly", {"degree": 2.5}, "degree must be an integer"),
    ("poly", {"coef0": np.nan}, "coef0 must be a finite number"),
    ("rbf", {"sigma": 1.0}, "unknown parameter"),
])
def test_get_kernel_errors(kernel, params, match):
    with pytest.raises(ValueError, match=match):
        get_kernel(kernel, **params)


def test_feature_mismatch_is_reported():
    with pytest.raises(ValueError, match="same number of features"):
        rbf(np.ones((2, 3)), np.ones((2, 2)))


def test_resolve_gamma_matches_sklearn():
    rng = np.random.default_rng(7)
    X = rng.normal(scale=3.0, size=(40, 5))
    y = np.where(X[:, 0] > 0, 1, -1)
    for gamma in ("scale", "auto"):
        reference = SklearnSVC(gamma=gamma).fit(X, y)._gamma
        assert resolve_gamma(gamma, X) == pytest.approx(reference, rel=1e-12)
    assert resolve_gamma("scale", X) == pytest.approx(1 / (5 * X.var()))
    assert resolve_gamma("auto", X) == pytest.approx(0.2)
    assert resolve_gamma(0.25, X) == 0.25
    assert resolve_gamma("scale", np.ones((4, 2))) == 1.0   # zero variance
    with pytest.raises(ValueError, match="'scale', 'auto'"):
        resolve_gamma("median", X)
    with pytest.raises(ValueError, match="gamma must be"):
        resolve_gamma(0.0, X)


def test_gram_matrix_resolves_scale_gamma():
    X = np.random.default_rng(8).normal(size=(15, 2))
    np.testing.assert_allclose(gram_matrix("rbf", X, gamma="scale"),
                               rbf(X, X, gamma=resolve_gamma("scale", X)))


def test_gram_matrix_checks_the_kernel_output():
    with pytest.raises(ValueError, match="shape"):
        gram_matrix(lambda A, B: np.ones((2, 2)), np.ones((3, 2)))


def test_kernels_table_lists_the_public_names():
    assert set(kernels.KERNELS) == {"linear", "poly", "polynomial", "rbf", "sigmoid"}
    for name in kernels.__all__:
        assert hasattr(kernels, name)
