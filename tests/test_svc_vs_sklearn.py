"""svmlib.SVC against LIBSVM (sklearn.svm.SVC): same problem, same answers.

For every data set and kernel: the dual objective agrees to 1e-4 (relative),
at least 99 % of predictions are equal, and the support vectors are the same
up to ties (a point in one set only must sit on the margin, where its
multiplier may be 0 or tiny).  Both solvers stop at the same tolerance.
"""

import numpy as np
import pytest
from sklearn import datasets as skdata
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as LibsvmSVC

from svmlib import SVC, datasets, kernels

TOL = 1e-4


def _binary_sets():
    cancer = skdata.load_breast_cancer()
    X_cancer = StandardScaler().fit_transform(cancer.data)
    return {
        "moons": datasets.moons(200, random_state=0),
        "circles": datasets.circles(200, random_state=0),
        "xor": datasets.xor(200, random_state=0),
        "overlapping": datasets.overlapping_blobs(150, random_state=0),
        "cancer": (X_cancer, cancer.target),
    }


BINARY = _binary_sets()
KERNELS = [
    {"kernel": "linear"},
    {"kernel": "rbf", "gamma": "scale"},
    {"kernel": "rbf", "gamma": 2.0, "C": 10.0},
    {"kernel": "poly", "degree": 3, "coef0": 1.0, "gamma": "scale"},
    {"kernel": "poly", "degree": 2, "coef0": 0.0, "gamma": 0.5, "C": 0.1},
]


def _gram(model, A, B):
    kernel = model.kernel
    if kernel == "linear":
        return kernels.linear(A, B)
    if kernel == "rbf":
        return kernels.rbf(A, B, gamma=model._gamma)
    return kernels.polynomial(A, B, degree=model.degree, coef0=model.coef0, gamma=model._gamma)


def _dual_objective(dual_coef, K_sv):
    """D = sum alpha - 1/2 c^T K c with c = alpha * y (binary case)."""
    c = dual_coef[0]
    return np.abs(c).sum() - 0.5 * c @ K_sv @ c


def _compare(name, params):
    X, y = BINARY[name]
    params = {"C": 1.0, **params}
    ours = SVC(tol=TOL, **params).fit(X, y)
    ref = LibsvmSVC(tol=TOL, **params).fit(X, y)
    return X, y, ours, ref


@pytest.mark.parametrize("params", KERNELS, ids=lambda p: "-".join(str(v) for v in p.values()))
@pytest.mark.parametrize("name", list(BINARY))
def test_binary_problems_agree(name, params):
    X, y, ours, ref = _compare(name, params)
    # Same dual objective.
    D_ours = _dual_objective(ours.dual_coef_, _gram(ours, ours.support_vectors_, ours.support_vectors_))
    D_ref = _dual_objective(ref.dual_coef_, _gram(ours, ref.support_vectors_, ref.support_vectors_))
    assert D_ours == pytest.approx(D_ref, rel=1e-4)
    # Same predictions (>= 99 %) and close decision values.
    assert (ours.predict(X) == ref.predict(X)).mean() >= 0.99
    # Same support vectors up to ties: the differing points lie on the margin.
    differing = np.setxor1d(ours.support_, ref.support_)
    y_pm = np.where(y == ours.classes_[1], 1.0, -1.0)
    if differing.size:
        margins = y_pm[differing] * ref.decision_function(X[differing])
        np.testing.assert_allclose(margins, 1.0, atol=0.01)
    assert len(differing) <= max(2, 0.05 * len(ref.support_))
    # Same sign convention and bias.
    assert ours.intercept_[0] == pytest.approx(ref.intercept_[0], abs=0.02 * max(1, abs(ref.intercept_[0])))


def test_multiclass_layout_matches_libsvm():
    iris = skdata.load_iris()
    X = StandardScaler().fit_transform(iris.data)
    y = iris.target
    ours = SVC(tol=TOL).fit(X, y)
    ref = LibsvmSVC(tol=TOL).fit(X, y)
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    assert ours.dual_coef_.shape[0] == ref.dual_coef_.shape[0] == 2
    assert ours.intercept_.shape == ref.intercept_.shape == (3,)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=0.01)
    assert abs(len(ours.support_) - len(ref.support_)) <= 2
    np.testing.assert_array_equal(ours.n_support_.sum(), len(ours.support_))
    # Support vectors grouped by class, in increasing index within a class.
    sv_classes = y[ours.support_]
    assert np.all(np.diff(sv_classes) >= 0)
    common = np.intersect1d(ours.support_, ref.support_)
    ours_coef = ours.dual_coef_[:, np.searchsorted(ours.support_, common)]
    ref_coef = ref.dual_coef_[:, np.searchsorted(ref.support_, common)]
    np.testing.assert_allclose(ours_coef, ref_coef, atol=0.02)
    # Pairwise decision values, votes and predictions.
    ours.set_params(decision_function_shape="ovo")
    ref.set_params(decision_function_shape="ovo")
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=0.01)
    assert (ours.predict(X) == ref.predict(X)).mean() >= 0.99


def test_multiclass_ovr_shape_matches_libsvm():
    X, y = datasets.three_blobs(150, random_state=0)
    ours = SVC(kernel="linear", tol=TOL).fit(X, y)
    ref = LibsvmSVC(kernel="linear", tol=TOL).fit(X, y)
    assert ours.decision_function(X).shape == (150, 3)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=0.01)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=0.01)
    np.testing.assert_array_equal(np.argmax(ours.votes(X), axis=1), np.searchsorted(
        ours.classes_, ours.predict(X)))


def test_digits_four_classes_predictions():
    digits = skdata.load_digits(n_class=4)
    X = digits.data / 16.0
    ours = SVC(tol=TOL).fit(X, digits.target)
    ref = LibsvmSVC(tol=TOL).fit(X, digits.target)
    assert (ours.predict(X) == ref.predict(X)).mean() >= 0.99
    np.testing.assert_array_equal(ours.n_support_, ref.n_support_)
