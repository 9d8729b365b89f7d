"""Random Fourier features and Nyström, tested against theory and scikit-learn.

* RFF: ``E[z(x)^T z(x')] = exp(-gamma ||x - x'||^2)``, and the error of the
  approximate Gram matrix falls like ``1/sqrt(D)`` (a sum of D independent
  terms), checked by the slope of log error against log D.
* Nyström: exact when every point is a landmark; ``Z Z^T = K_nm K_mm^+ K_mn``.
"""

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline

from svmlib import LinearSVC, Nystroem, RandomFourierFeatures, kernels


def data(n=60, p=3, seed=0):
    return np.random.default_rng(seed).normal(size=(n, p))


def rff_error(X, gamma, D, seed):
    Z = RandomFourierFeatures(gamma=gamma, n_components=D, random_state=seed).fit_transform(X)
    return np.abs(Z @ Z.T - kernels.rbf(X, X, gamma=gamma)).mean()


def test_rff_error_falls_like_one_over_sqrt_D():
    X = data()
    Ds = np.array([50, 200, 800, 3200])
    errors = np.array([np.mean([rff_error(X, 0.5, D, seed) for seed in range(8)]) for D in Ds])
    slope = np.polyfit(np.log(Ds), np.log(errors), 1)[0]
    assert -0.6 < slope < -0.4
    assert np.all(np.diff(errors) < 0)
    # sqrt(D) * error is roughly constant
    scaled = errors * np.sqrt(Ds)
    assert scaled.max() / scaled.min() < 1.3


def test_rff_is_unbiased():
    X = data(n=10)
    K = kernels.rbf(X, X, gamma=1.0)
    mean = np.mean([(lambda Z: Z @ Z.T)(RandomFourierFeatures(1.0, 500, seed).fit_transform(X))
                    for seed in range(200)], axis=0)
    # 100,000 cosine terms per entry, each of variance <= 2: 5 standard errors below 0.03
    assert np.abs(mean - K).max() < 0.03


def test_rff_distribution_of_frequencies():
    rff = RandomFourierFeatures(gamma=2.0, n_components=20000, random_state=0).fit(data(p=2))
    assert rff.random_weights_.shape == (2, 20000)
    assert np.var(rff.random_weights_) == pytest.approx(4.0, rel=0.03)  # 2 gamma
    assert 0 <= rff.random_offset_.min() and rff.random_offset_.max() <= 2 * np.pi


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
def test_nystroem_exact_with_all_landmarks(kernel):
    X = data(n=40)
    ny = Nystroem(kernel=kernel, gamma=0.5, n_components=40, random_state=0).fit(X)
    Z = ny.transform(X)
    K = kernels.get_kernel(kernel, gamma=0.5)(X, X)
    np.testing.assert_allclose(Z @ Z.T, K, atol=1e-8 * np.abs(K).max())


def test_nystroem_is_the_projection_formula_and_improves_with_m():
    X = data(n=200)
    K = kernels.rbf(X, X, gamma=0.5)
    errors = []
    for m in (10, 40, 160):
        ny = Nystroem(gamma=0.5, n_components=m, random_state=1).fit(X)
        idx = ny.component_indices_
        Z = ny.transform(X)
        formula = K[:, idx] @ np.linalg.pinv(K[np.ix_(idx, idx)], rcond=1e-12) @ K[idx]
        np.testing.assert_allclose(Z @ Z.T, formula, atol=1e-6)
        # exact on the landmarks' own rows and columns
        np.testing.assert_allclose((Z @ Z.T)[np.ix_(idx, idx)], K[np.ix_(idx, idx)], atol=1e-8)
        errors.append(np.abs(Z @ Z.T - K).mean())
    assert errors[0] > errors[1] > errors[2]


def test_nystroem_more_components_than_samples_warns():
    with pytest.warns(UserWarning, match="every sample becomes a landmark"):
        ny = Nystroem(n_components=50).fit(data(n=10))
    assert ny.components_.shape == (10, 3)


def test_pipelines_approach_the_kernel_svm():
    from svmlib import datasets
    X, y = datasets.moons(n=400, noise=0.2, random_state=0)
    X_test, y_test = datasets.moons(n=1000, noise=0.2, random_state=1)
    linear = LinearSVC(C=1.0).fit(X, y).score(X_test, y_test)
    for transformer in (RandomFourierFeatures(gamma=2.0, n_components=300, random_state=0),
                        Nystroem(gamma=2.0, n_components=100, random_state=0)):
        model = make_pipeline(transformer, LinearSVC(C=1.0)).fit(X, y)
        assert model.score(X_test, y_test) > linear + 0.05
        assert model.score(X_test, y_test) > 0.93


@pytest.mark.parametrize("make, match", [
    (lambda: RandomFourierFeatures(gamma=0), r"gamma must be a number > 0; got gamma=0"),
    (lambda: RandomFourierFeatures(n_components=0), r"n_components must be an integer >= 1"),
    (lambda: RandomFourierFeatures(random_state=-1), r"random_state must be None or an integer"),
    (lambda: Nystroem(kernel="sigmoid"), r"kernel must be 'rbf', 'linear', 'poly'"),
    (lambda: Nystroem(gamma=-1.0), r"gamma must be a number > 0"),
    (lambda: Nystroem(n_components=2.5), r"n_components must be an integer"),
])
def test_bad_parameters_are_named(make, match):
    with pytest.raises(ValueError, match=match):
        make().fit(data())


def test_bad_data():
    with pytest.raises(ValueError, match="2-D array"):
        RandomFourierFeatures().fit(np.ones(5))
    rff = RandomFourierFeatures().fit(data())
    with pytest.raises(ValueError, match="expecting 3 features"):
        rff.transform(data(p=2))
    with pytest.raises(ValueError, match="NaN"):
        Nystroem().fit(np.array([[np.nan, 1.0], [0.0, 1.0]]))


def test_nystroem_is_a_projection_not_the_frobenius_best():
    # the module docstring: K - Z Z^T is PSD, exact on the landmarks' columns,
    # and the Frobenius-best approximation from those columns is smaller
    X = np.random.default_rng(0).normal(size=(120, 2))
    K = kernels.rbf(X, X, gamma=1.0)
    ny = Nystroem(gamma=1.0, n_components=15, random_state=0).fit(X)
    Z = ny.transform(X)
    residual = K - Z @ Z.T
    assert np.linalg.eigvalsh(residual).min() > -1e-8
    landmarks = ny.component_indices_
    assert np.allclose(residual[:, landmarks], 0.0, atol=1e-8)
    C = K[:, landmarks]
    C_pinv = np.linalg.pinv(C)
    best = C @ (C_pinv @ K @ C_pinv.T) @ C.T
    assert np.linalg.norm(K - best) < np.linalg.norm(residual) - 1e-3
