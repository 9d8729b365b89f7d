"""ν-SVR (:class:`svmlib.NuSVR`) against LIBSVM and against the theory.

LIBSVM's ``solve_nu_svr``: the ε-SVR problem in ``2 n`` variables with
``p = (-z, z)``, the sums of ``alpha`` and ``alpha*`` each fixed at ``C nu n
/ 2`` and solved by ``Solver_NU``.  Compared with ``sklearn.svm.NuSVR`` at
tol=1e-8: the dual objective (1e-6 relative), the support vectors (the
same set), the bias and the predictions (1e-4).  The theory: the
constraints, the KKT conditions (free multipliers on the edges of a tube of
half-width ``epsilon_``) and the ν-property (fraction of errors <= nu <=
fraction of support vectors).
"""

import warnings

import numpy as np
import pytest
from sklearn import svm as sk
from sklearn.datasets import load_diabetes
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmlib import NuSVR, kernels

from test_svr import EXPECTED_FAILED_CHECKS


def _diabetes():
    X, y = load_diabetes(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    return X, (y - y.mean()) / y.std()


CONFIGS = [
    {},
    {"nu": 0.2, "C": 10.0},
    {"nu": 0.8, "kernel": "linear"},
    {"nu": 0.5, "kernel": "poly", "degree": 2, "coef0": 1.0},
    {"nu": 0.3, "kernel": "sigmoid", "gamma": 0.01, "coef0": -0.5},
]


def _dual(coef, K, z):
    """LIBSVM's ν-SVR dual objective at a = (max(c, 0), max(-c, 0)): 1/2 c^T K c - z^T c."""
    return 0.5 * coef @ K @ coef - z @ coef


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: "-".join(map(str, p.values())) or "default")
def test_matches_libsvm(params):
    X, y = _diabetes()
    ours = NuSVR(tol=1e-8, **params).fit(X, y)
    theirs = sk.NuSVR(tol=1e-8, **params).fit(X, y)
    assert ours.fit_status_ == 0
    np.testing.assert_array_equal(np.sort(ours.support_), np.sort(theirs.support_))
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=0, atol=1e-4)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=0, atol=1e-4)
    K = ours._kernel_function(None)(X, X)
    coef_ours = np.zeros(len(y))
    coef_ours[ours.support_] = ours.dual_coef_[0]
    coef_theirs = np.zeros(len(y))
    coef_theirs[theirs.support_] = theirs.dual_coef_[0]
    assert _dual(coef_ours, K, y) == pytest.approx(_dual(coef_theirs, K, y), rel=1e-6)


@pytest.mark.parametrize("nu", [0.1, 0.3, 0.5, 0.8])
def test_nu_property_and_the_constraints(nu):
    X, y = _diabetes()
    C = 2.0
    model = NuSVR(nu=nu, C=C, tol=1e-8).fit(X, y)
    alpha, alpha_star = model.alpha_
    n = len(y)
    # The two equality constraints of the scaled dual, and the box.
    assert alpha.sum() == pytest.approx(C * nu * n / 2, rel=1e-10)
    assert alpha_star.sum() == pytest.approx(C * nu * n / 2, rel=1e-10)
    assert np.all((model.alpha_ >= 0) & (model.alpha_ <= C))
    assert not np.any((alpha > 0) & (alpha_star > 0))  # never both sides of the tube
    residual = y - model.predict(X)
    eps = model.epsilon_
    assert eps > 0
    # KKT: a free multiplier sits on the edge of the tube (to 1e-6) ...
    free_up = (alpha > 1e-12) & (alpha < C - 1e-12)
    free_down = (alpha_star > 1e-12) & (alpha_star < C - 1e-12)
    np.testing.assert_allclose(residual[free_up], eps, rtol=0, atol=1e-6)
    np.testing.assert_allclose(residual[free_down], -eps, rtol=0, atol=1e-6)
    # ... points strictly inside the tube have both multipliers 0, points
    # strictly outside one at C.
    inside = np.abs(residual) < eps - 1e-6
    assert np.all(model.dual_coef_[0][np.isin(model.support_, np.flatnonzero(inside))] == 0)
    outside = np.abs(residual) > eps + 1e-6
    assert np.allclose(np.abs(alpha - alpha_star)[outside], C, rtol=0, atol=1e-12)
    # The nu-property: errors (outside the tube) <= nu <= support vectors.
    assert outside.mean() <= nu <= len(model.support_) / n


def test_epsilon_shrinks_as_nu_grows():
    """More support vectors allowed (larger nu), a narrower tube."""
    X, y = _diabetes()
    widths = [NuSVR(nu=nu, tol=1e-6).fit(X, y).epsilon_ for nu in (0.1, 0.4, 0.8)]
    assert widths[0] > widths[1] > widths[2] > 0


def test_sample_weight_matches_libsvm():
    X, y = _diabetes()
    w = np.random.RandomState(0).uniform(0.2, 3.0, size=len(y))
    w[:10] = 0.0
    ours = NuSVR(nu=0.4, tol=1e-8).fit(X, y, sample_weight=w)
    theirs = sk.NuSVR(nu=0.4, tol=1e-8).fit(X, y, sample_weight=w)
    # scikit-learn's support_ indexes the samples of positive weight (here all
    # but the first 10); compare the support vectors themselves.
    np.testing.assert_array_equal(np.sort(ours.support_), np.sort(theirs.support_) + 10)
    np.testing.assert_array_equal(ours.support_vectors_[np.argsort(ours.support_)],
                                  theirs.support_vectors_[np.argsort(theirs.support_)])
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=0, atol=1e-4)
    assert ours.alpha_[:, :10].max() == 0
    assert ours.alpha_[0].sum() == pytest.approx(0.4 * w.sum() / 2, rel=1e-10)


def test_precomputed_kernel_is_the_rbf_fit():
    X, y = _diabetes()
    gamma = 0.05
    K = kernels.rbf(X, X, gamma=gamma)
    a = NuSVR(kernel="precomputed", tol=1e-8).fit(K, y)
    b = NuSVR(gamma=gamma, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(a.predict(K), b.predict(X), rtol=0, atol=1e-6)
    linear = NuSVR(kernel="linear", tol=1e-8).fit(X, y)
    np.testing.assert_allclose(X @ linear.coef_[0] + linear.intercept_[0], linear.predict(X),
                               rtol=0, atol=1e-10)


@pytest.mark.parametrize("params, message", [
    ({"nu": 0.0}, r"nu must be a number in \(0, 1\]; got nu=0.0"),
    ({"nu": 1.5}, r"nu must be a number in \(0, 1\]; got nu=1.5"),
    ({"C": -1.0}, r"C must be"),
    ({"C": np.inf}, r"C must be a finite number > 0 for NuSVR; got C=inf\. .*would be infinite"),
    ({"kernel": "sigmoidal"}, r"kernel must be one of"),
    ({"max_iter": 0}, r"max_iter must be -1"),
])
def test_bad_parameters_are_explained(params, message):
    X, y = _diabetes()
    with pytest.raises(ValueError, match=message):
        NuSVR(**params).fit(X, y)


def test_no_warning_on_a_well_posed_problem():
    X, y = _diabetes()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        NuSVR().fit(X, y)


@parametrize_with_checks([NuSVR(), NuSVR(kernel="linear")],
                         expected_failed_checks=lambda estimator: EXPECTED_FAILED_CHECKS)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
