"""svmlib.LinearSVC against LIBLINEAR (scikit-learn) and against theory.

Reference: ``sklearn.svm.LinearSVC(dual=True)`` on the same problems.  Both
solve the primal (Book: (eq-scale-primal)) through its dual by coordinate
descent; they visit the coordinates in different random orders, so they meet
at the same optimum only up to the tolerance.  Tolerances: primal objective
within 1e-4 relative, at least 99 % equal predictions.
"""

import numpy as np
import pytest
import scipy.sparse
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC as SklearnLinearSVC

from svmlib import LinearSVC
from svmlib.linear import linear_svm_dual, linear_svm_primal, solve_linear_dual_cd


def problem(n=600, p=20, seed=0, classes=2):
    X, y = make_classification(n_samples=n, n_features=p, n_informative=8, n_redundant=4,
                               n_classes=classes, n_clusters_per_class=1, flip_y=0.05,
                               class_sep=1.0, random_state=seed)
    return StandardScaler().fit_transform(X), y


@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
@pytest.mark.parametrize("C", [0.01, 1.0, 10.0])
@pytest.mark.parametrize("seed", [0, 1])
def test_binary_matches_liblinear(loss, C, seed):
    X, y = problem(seed=seed)
    ours = LinearSVC(C=C, loss=loss, tol=1e-6, max_iter=20000).fit(X, y)
    ref = SklearnLinearSVC(C=C, loss=loss, dual=True, tol=1e-6, max_iter=20000,
                           random_state=0).fit(X, y)
    y_pm = np.where(y == ours.classes_[1], 1.0, -1.0)
    p_ours = linear_svm_primal(ours.coef_[0], ours.intercept_[0], X, y_pm, C, loss)
    p_ref = linear_svm_primal(ref.coef_[0], ref.intercept_[0], X, y_pm, C, loss)
    assert abs(p_ours - p_ref) <= 1e-4 * abs(p_ref)
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.99
    assert ours.objective(X, y)[0] == pytest.approx(p_ours)


@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_multiclass_one_vs_rest_matches_liblinear(loss):
    X, y = problem(n=900, classes=3, seed=2)
    ours = LinearSVC(C=0.5, loss=loss, tol=1e-6, max_iter=20000).fit(X, y)
    # LIBLINEAR seeded: with random_state=None its order comes from NumPy's global
    # generator, and some orders (seeds 0 and 3 with the hinge) reach max_iter=20000
    # on the third problem before tol=1e-6, at an objective 3e-4 above the optimum
    # (162.154 against 162.1006, which svmlib and the other seeds reach): the test
    # failed in one full `make unit` run for that reason.
    ref = SklearnLinearSVC(C=0.5, loss=loss, dual=True, tol=1e-6, max_iter=20000,
                           random_state=1).fit(X, y)
    assert ref.n_iter_ < 20000
    assert ours.coef_.shape == ref.coef_.shape == (3, X.shape[1])
    assert ours.intercept_.shape == (3,)
    for k in range(3):
        y_pm = np.where(y == k, 1.0, -1.0)
        p_ours = linear_svm_primal(ours.coef_[k], ours.intercept_[k], X, y_pm, 0.5, loss)
        p_ref = linear_svm_primal(ref.coef_[k], ref.intercept_[k], X, y_pm, 0.5, loss)
        assert abs(p_ours - p_ref) <= 1e-4 * abs(p_ref)
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.99


def test_intercept_scaling_and_no_intercept_match_liblinear():
    X, y = problem(seed=3)
    X = X + 3.0  # an offset that the bias must absorb
    for kwargs in (dict(intercept_scaling=10.0), dict(fit_intercept=False)):
        ours = LinearSVC(C=1.0, tol=1e-6, max_iter=20000, **kwargs).fit(X, y)
        ref = SklearnLinearSVC(C=1.0, dual=True, tol=1e-6, max_iter=20000, **kwargs).fit(X, y)
        y_pm = np.where(y == 1, 1.0, -1.0)
        s = kwargs.get("intercept_scaling", 1.0)
        fit_b = kwargs.get("fit_intercept", True)
        p_ours = linear_svm_primal(ours.coef_[0], np.ravel(ours.intercept_)[0], X, y_pm, 1.0,
                                   "squared_hinge", s, fit_b)
        p_ref = linear_svm_primal(ref.coef_[0], np.ravel(ref.intercept_)[0], X, y_pm, 1.0,
                                  "squared_hinge", s, fit_b)
        assert abs(p_ours - p_ref) <= 1e-4 * abs(p_ref)
        if not fit_b:    # a float, as scikit-learn's
            assert isinstance(ours.intercept_, float) and ours.intercept_ == ref.intercept_ == 0.0


def test_sparse_input_gives_the_dense_solution():
    X, y = problem(n=400, p=30, seed=4)
    X[np.abs(X) < 0.8] = 0.0
    dense = LinearSVC(C=1.0, tol=1e-8, max_iter=50000).fit(X, y)
    sparse = LinearSVC(C=1.0, tol=1e-8, max_iter=50000).fit(scipy.sparse.csr_matrix(X), y)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(sparse.intercept_, dense.intercept_, rtol=1e-9, atol=1e-12)
    assert np.array_equal(sparse.predict(scipy.sparse.csr_matrix(X)), dense.predict(X))


@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_theory_kkt_and_zero_duality_gap(loss):
    """At the solution: box constraints, w = sum alpha_i y_i x_hat_i, and primal = dual."""
    X, y = problem(n=300, seed=5)
    y_pm = np.where(y == 1, 1.0, -1.0)
    C = 1.0
    res = solve_linear_dual_cd(X, y_pm, C=C, loss=loss, tol=1e-10, max_iter=100000)
    alpha = res["alpha"]
    assert res["converged"]
    assert alpha.min() >= 0.0
    if loss == "hinge":
        assert alpha.max() <= C
    np.testing.assert_allclose(res["w"], X.T @ (alpha * y_pm), atol=1e-10)
    assert res["b"] == pytest.approx(np.sum(alpha * y_pm), abs=1e-10)
    primal = linear_svm_primal(res["w"], res["b"], X, y_pm, C, loss)
    dual = linear_svm_dual(alpha, X, y_pm, C, loss)
    assert dual <= primal + 1e-9
    assert primal - dual <= 1e-7 * primal
    # complementary slackness of the hinge: alpha_i = 0 outside the margin, = C inside
    margins = y_pm * (X @ res["w"] + res["b"])
    if loss == "hinge":
        assert np.all(alpha[margins > 1 + 1e-6] < 1e-8)
        assert np.all(alpha[margins < 1 - 1e-6] > C - 1e-8)
    else:  # squared hinge: alpha_i = 2 C xi_i
        np.testing.assert_allclose(alpha, 2 * C * np.maximum(0, 1 - margins), atol=1e-6)


def test_shrinking_does_not_change_the_solution():
    X, y = problem(n=500, seed=6)
    y_pm = np.where(y == 1, 1.0, -1.0)
    a = solve_linear_dual_cd(X, y_pm, C=1.0, tol=1e-9, max_iter=100000, shrinking=True)
    b = solve_linear_dual_cd(X, y_pm, C=1.0, tol=1e-9, max_iter=100000, shrinking=False)
    np.testing.assert_allclose(a["w"], b["w"], atol=1e-6)


def test_repeatable_and_string_labels():
    X, y = problem(seed=7)
    labels = np.array(["no", "yes"])[y]
    a = LinearSVC(C=0.1, random_state=3).fit(X, labels)
    b = LinearSVC(C=0.1, random_state=3).fit(X, labels)
    assert np.array_equal(a.coef_, b.coef_)
    assert set(a.predict(X)) <= {"no", "yes"}
    assert a.score(X, labels) > 0.8


def test_not_converged_warns_with_advice():
    X, y = problem(n=400, seed=8)
    with pytest.warns(ConvergenceWarning, match="Increase max_iter"):
        LinearSVC(C=100.0, max_iter=2).fit(X * 100, y)


@pytest.mark.parametrize("params, match", [
    (dict(C=-1.0), r"C must be a number > 0; got C=-1.0"),
    (dict(C=np.inf), r"C must be a number > 0; got C=inf"),
    (dict(loss="log"), r"loss must be one of 'hinge', 'squared_hinge'; got loss='log'"),
    (dict(tol=0), r"tol must be a number > 0"),
    (dict(max_iter=0), r"max_iter must be an integer >= 1; got max_iter=0"),
    (dict(intercept_scaling=0.0), r"intercept_scaling must be a number > 0"),
    (dict(fit_intercept="yes"), r"fit_intercept must be True or False"),
    (dict(random_state=-2), r"random_state must be an integer >= 0"),
])
def test_bad_parameters_are_named(params, match):
    X, y = problem(n=50)
    with pytest.raises(ValueError, match=match):
        LinearSVC(**params).fit(X, y)


def test_bad_data_errors():
    X, y = problem(n=50)
    with pytest.raises(ValueError, match="at least two classes"):
        LinearSVC().fit(X, np.zeros(50))
    with pytest.raises(ValueError, match="same number of samples"):
        LinearSVC().fit(X, y[:-1])
    with pytest.raises(ValueError, match="2-D array"):
        LinearSVC().fit(X[:, 0], y)
    bad = X.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        LinearSVC().fit(bad, y)
    model = LinearSVC().fit(X, y)
    with pytest.raises(ValueError, match="expecting 20 features"):
        model.predict(X[:, :3])
    with pytest.raises(ValueError, match="Unknown label type"):
        LinearSVC().fit(X, np.linspace(0, 1, 50))
