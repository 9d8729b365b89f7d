"""Tests of svmlib.SVC: the estimator, its attributes, its errors, scikit-learn integration."""

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn.svm import SVC as SKSVC
from svmlib import SVC, NotSeparableError, datasets, kernels
from svmlib.dual import SolverResult
from svmlib.objectives import kkt_violations


@pytest.fixture(scope="module")
def moons():
    return datasets.moons(120, noise=0.25, random_state=0)


def test_hand_solved_hard_margin_example():
    tiny = datasets.tiny_hard_margin()
    model = SVC(kernel="linear", C=np.inf, tol=1e-8).fit(tiny["X"], tiny["y"])
    np.testing.assert_allclose(model.coef_[0], tiny["w"], atol=1e-8)
    np.testing.assert_allclose(model.intercept_, [tiny["b"]], atol=1e-8)
    np.testing.assert_array_equal(model.support_, tiny["support"])
    np.testing.assert_allclose(model.alpha_, tiny["alpha"], atol=1e-8)
    # dual_coef_ holds alpha_i y_i for the support vectors.
    np.testing.assert_allclose(model.dual_coef_, [[-0.25, 0.25]], atol=1e-8)
    np.testing.assert_array_equal(model.predict(tiny["X"]), tiny["y"])
    np.testing.assert_allclose(model.decision_function(tiny["X"]), [-1.0, 1.0, 1.5], atol=1e-8)


def test_fitted_attributes(moons):
    X, y = moons
    model = SVC(C=1.0).fit(X, y)
    n_sv = model.support_.shape[0]
    assert model.support_vectors_.shape == (n_sv, 2)
    assert model.dual_coef_.shape == (1, n_sv)
    assert model.intercept_.shape == (1,)
    assert model.n_support_.sum() == n_sv
    np.testing.assert_array_equal(model.classes_, [-1, 1])
    np.testing.assert_array_equal(model.support_vectors_, X[model.support_])
    assert isinstance(model.solver_result_, SolverResult)
    assert model.n_iter_.shape == (1,) and model.n_iter_[0] == model.solver_result_.n_iter
    assert model.fit_status_ == 0
    # alpha_ is zero off the support, and |dual_coef_| = alpha on it.
    np.testing.assert_allclose(np.abs(model.dual_coef_[0]), model.alpha_[model.support_])
    assert np.all(model.alpha_[np.setdiff1d(np.arange(len(y)), model.support_)] == 0)
    assert np.all((model.alpha_ >= 0) & (model.alpha_ <= 1.0))
    assert model.score(X, y) > 0.9
    # KKT at the solution, checked from the outside.
    K = kernels.rbf(X, X, gamma=model._gamma)
    y_pm = np.where(y == 1, 1.0, -1.0)
    assert kkt_violations(model.alpha_, model.intercept_[0], K, y_pm, 1.0).max() <= 1e-3


def test_decision_sign_and_arbitrary_labels(moons):
    X, y = moons
    names = np.where(y == 1, "yes", "no")
    model = SVC().fit(X, names)
    np.testing.assert_array_equal(model.classes_, ["no", "yes"])
    values = model.decision_function(X)
    np.testing.assert_array_equal(model.predict(X), np.where(values > 0, "yes", "no"))
    np.testing.assert_array_equal(model.predict(X), np.where(SVC().fit(X, y).predict(X) == 1,
                                                             "yes", "no"))


def test_coef_only_for_linear_kernel(moons):
    X, y = moons
    rbf_model = SVC(kernel="rbf").fit(X, y)
    assert not hasattr(rbf_model, "coef_")
    with pytest.raises(AttributeError, match="linear kernel"):
        rbf_model.coef_
    linear = SVC(kernel="linear").fit(X, y)
    np.testing.assert_allclose(X @ linear.coef_[0] + linear.intercept_[0],
                               linear.decision_function(X), atol=1e-10)


def test_predict_before_fit():
    with pytest.raises(NotFittedError):
        SVC().predict(np.zeros((2, 2)))


def test_precomputed_and_callable_kernels_match_rbf(moons):
    X, y = moons
    gamma = 0.7
    reference = SVC(gamma=gamma, tol=1e-6).fit(X, y)
    K = kernels.rbf(X, X, gamma=gamma)
    pre = SVC(kernel="precomputed", tol=1e-6).fit(K, y)
    X_test = X[:10] + 0.1
    np.testing.assert_allclose(pre.decision_function(kernels.rbf(X_test, X, gamma=gamma)),
                               reference.decision_function(X_test), atol=1e-8)
    np.testing.assert_array_equal(pre.support_, reference.support_)

    def my_rbf(A, B):
        return kernels.rbf(A, B, gamma=gamma)

    custom = SVC(kernel=my_rbf, tol=1e-6).fit(X, y)
    np.testing.assert_allclose(custom.decision_function(X_test),
                               reference.decision_function(X_test), atol=1e-8)


def _letter_kernel(A, B):
    """Count-of-letters kernel on strings, filling one triangle and mirroring it.

    Written the way scikit-learn's test_custom_kernel_not_array_input writes
    it: right for a square block ``kernel(S, S)``, wrong (or failing) for a
    block against a subset of the rows; it works because scikit-learn calls
    a kernel function with every training point, and so does svmlib.
    """
    K = np.zeros((len(A), len(B)))
    for i in range(len(A)):
        for j in range(i, len(B)):
            K[i, j] = sum(A[i].count(c) * B[j].count(c) for c in "ABC")
            if j < len(A) and i < len(B):
                K[j, i] = K[i, j]
    return K


def test_a_kernel_function_on_strings_as_libsvm():
    """Non-numeric X (a list of strings) and a kernel on it: LIBSVM's decision values.

    The letter-count kernel is the linear kernel on the counts, so the fit on
    the strings must also agree with the linear fit on the count vectors.
    """
    rng = np.random.default_rng(3)
    # Words with distinct letter counts (repeated points would make the dual's
    # solution, and the support set, not unique).
    words = list({"A" * a + "B" * b + "C" * c: None for a, b, c in
                  rng.integers(0, 6, size=(60, 3)) if a + b + c})[:40]
    counts = np.array([[w.count(c) for c in "ABC"] for w in words], dtype=float)
    y = np.where(counts[:, 0] - counts[:, 1] + rng.normal(size=len(words)) > 0, 1, 0)
    ours = SVC(kernel=_letter_kernel, tol=1e-8).fit(words, y)
    assert ours.support_.size < len(words)     # a block against the SVs alone would differ
    libsvm = SKSVC(kernel=_letter_kernel, tol=1e-8).fit(words, y)
    decision = ours.decision_function(words)
    np.testing.assert_allclose(decision, libsvm.decision_function(words), rtol=0, atol=1e-6)
    # Same support vectors up to ties: lattice points can share the margin,
    # where the dual's solution is not unique; a point in one set only is on it.
    differing = np.setxor1d(ours.support_, libsvm.support_)
    np.testing.assert_allclose(np.abs(decision[differing]), 1.0, atol=1e-6)
    linear = SVC(kernel="linear", tol=1e-8).fit(counts, y)
    np.testing.assert_allclose(ours.decision_function(words), linear.decision_function(counts),
                               rtol=0, atol=1e-6)
    np.testing.assert_array_equal(ours.predict(words[:5]), libsvm.predict(words[:5]))


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"])
def test_slsqp_route_agrees_with_smo(kernel):
    X, y = datasets.moons(60, noise=0.3, random_state=1)
    smo = SVC(kernel=kernel, tol=1e-6).fit(X, y)
    slsqp = SVC(kernel=kernel, solver="slsqp").fit(X, y)
    assert slsqp.solver_result_.objective == pytest.approx(smo.solver_result_.objective, rel=1e-5)
    assert (smo.predict(X) == slsqp.predict(X)).mean() >= 0.98


@pytest.mark.parametrize("X, y, match", [
    ([[0.0, np.nan], [1.0, 1.0]], [0, 1], "NaN"),
    ([[0.0, np.inf], [1.0, 1.0]], [0, 1], "infinite"),
    ([0.0, 1.0, 2.0], [0, 1, 0], "2-D"),
    ([[0.0], [1.0], [2.0]], [0, 1], "same number of samples"),
    ([[0.0], [1.0], [2.0]], [1, 1, 1], "two classes"),
    ([[0.0], [1.0], [2.0]], [0.1, 0.5, 0.7], "continuous"),
])
def test_bad_data(X, y, match):
    with pytest.raises(ValueError, match=match):
        SVC().fit(X, y)


@pytest.mark.parametrize("params, match", [
    ({"C": 0.0}, "C must be"),
    ({"C": -1.0}, "C must be"),
    ({"kernel": "sigmoidal"}, "kernel must be one of"),
    ({"gamma": -1.0}, "gamma"),
    ({"gamma": "wide"}, "gamma"),
    ({"solver": "cvxopt"}, "solver must be"),
    ({"degree": 0, "kernel": "poly"}, "degree"),
    ({"tol": 0.0}, "tol"),
])
def test_bad_parameters(moons, params, match):
    X, y = moons
    with pytest.raises(ValueError, match=match):
        SVC(**params).fit(X, y)


def test_non_psd_precomputed_kernel():
    K = np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]])   # eigenvalue -1
    with pytest.raises(ValueError, match="positive semidefinite.*sum.c. = 0.*K \\+ c"):
        SVC(kernel="precomputed").fit(K, [0, 1, 1])
    with pytest.raises(ValueError, match="square Gram matrix"):
        SVC(kernel="precomputed").fit(np.ones((3, 2)), [0, 1, 1])


def test_non_psd_message_advice_for_conditionally_psd_kernels():
    # The message's way out: a conditionally positive definite Gram matrix
    # plus a large enough constant is accepted and gives the solution that
    # LIBSVM (which checks nothing) finds on the matrix itself.
    rng = np.random.default_rng(2)
    X = rng.uniform(-2, 2, size=(25, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    D = -np.sqrt(kernels.squared_distances(X, X))          # -||x - z||
    assert not kernels.is_psd(D) and kernels.is_conditionally_psd(D)
    with pytest.raises(ValueError, match="conditionally"):
        SVC(kernel="precomputed").fit(D, y)
    ours = SVC(kernel="precomputed", tol=1e-6).fit(D + 10.0, y)
    libsvm = SKSVC(kernel="precomputed", tol=1e-6).fit(D, y)
    assert ours.support_.tolist() == libsvm.support_.tolist()
    np.testing.assert_allclose(ours.dual_coef_, libsvm.dual_coef_, atol=1e-5)
    np.testing.assert_allclose(ours.decision_function(D + 10.0),
                               libsvm.decision_function(D), atol=1e-5)

def test_hard_margin_on_non_separable_data_fails_fast():
    X, y = datasets.overlapping_blobs(200, overlap=2.0, random_state=0)
    with pytest.raises(NotSeparableError, match="not linearly separable.*finite C"):
        SVC(kernel="linear", C=np.inf).fit(X, y)
    # With the RBF kernel the only obstruction is identical points with different labels.
    X_dup = np.vstack([X[:20], X[:1]])
    y_dup = np.concatenate([y[:20], [-y[0]]])
    with pytest.raises(NotSeparableError, match="feature space"):
        SVC(kernel="rbf", C=np.inf).fit(X_dup, y_dup)


def test_hard_margin_with_vanishing_margin_fails_fast():
    # Separable in exact arithmetic, but two points of different classes 1e-6 apart.
    X, y = datasets.separable_blobs(40, random_state=0)
    X = np.vstack([X, X[:1] + 1e-6])
    y = np.concatenate([y, [-y[0]]])
    with pytest.raises(NotSeparableError, match="vanishing margin"):
        SVC(kernel="rbf", C=np.inf).fit(X, y)


def test_wrong_number_of_features_at_predict(moons):
    X, y = moons
    model = SVC().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features, but SVC is expecting 2"):
        model.predict(np.ones((2, 3)))


def test_sparse_input_gives_the_dense_model():
    """Sparse input is accepted as in scikit-learn (tests/test_sparse_svm.py has the rest)."""
    scipy_sparse = pytest.importorskip("scipy.sparse")
    X = np.eye(3)
    sparse = SVC().fit(scipy_sparse.csr_matrix(X), [0, 1, 1])
    np.testing.assert_array_equal(sparse.dual_coef_.toarray(),
                                  SVC().fit(X, [0, 1, 1]).dual_coef_)


def test_silent_on_success(moons, capsys):
    X, y = moons
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SVC().fit(X, y).predict(X)
        SVC(kernel="linear", C=np.inf).fit(*datasets.separable_blobs(30))
    assert capsys.readouterr() == ("", "")


def test_sklearn_integration(moons):
    X, y = moons
    model = SVC(C=3.0, gamma=0.5)
    copy = clone(model)
    assert copy.get_params() == model.get_params() and copy is not model
    assert SVC().set_params(C=5.0).C == 5.0
    pipeline = make_pipeline(StandardScaler(), SVC())
    assert pipeline.fit(X, y).score(X, y) > 0.85
    scores = cross_val_score(SVC(), X, y, cv=3)
    assert scores.shape == (3,) and scores.min() > 0.7
    search = GridSearchCV(SVC(), {"C": [0.1, 10.0], "gamma": [0.1, 1.0]}, cv=3).fit(X, y)
    assert search.best_params_["C"] in (0.1, 10.0)
    restored = pickle.loads(pickle.dumps(search.best_estimator_))
    np.testing.assert_array_equal(restored.predict(X), search.best_estimator_.predict(X))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 1000))
def test_invariance_to_sample_order_and_label_names(seed):
    rng = np.random.default_rng(seed)
    X, y = datasets.moons(40, noise=0.3, random_state=seed)
    X_test = rng.uniform(-1.5, 2.5, size=(30, 2))
    reference = SVC(C=1.0, gamma=1.0, tol=1e-7).fit(X, y)
    order = rng.permutation(len(y))
    permuted = SVC(C=1.0, gamma=1.0, tol=1e-7).fit(X[order], y[order])
    np.testing.assert_allclose(permuted.decision_function(X_test),
                               reference.decision_function(X_test), atol=1e-4)
    # Renaming the classes (keeping their order) changes nothing but the names.
    renamed = SVC(C=1.0, gamma=1.0, tol=1e-7).fit(X, np.where(y == 1, 10, 3))
    np.testing.assert_array_equal(renamed.predict(X_test),
                                  np.where(reference.predict(X_test) == 1, 10, 3))


def test_exact_zero_decision_goes_to_second_class_like_libsvm():
    # Two mirror-image points: the boundary is x1 = 0 exactly, so the origin has
    # decision value 0. LIBSVM's vote gives it to classes_[1]; predict and votes agree.
    X = np.array([[-1.0, 0.0], [1.0, 0.0]])
    y = np.array(["left", "right"])
    model = SVC(kernel="linear", C=1.0).fit(X, y)
    origin = np.array([[0.0, 0.0], [0.0, 3.0]])
    assert np.all(model.decision_function(origin) == 0.0)
    reference = SKSVC(kernel="linear", C=1.0).fit(X, y)
    assert list(model.predict(origin)) == list(reference.predict(origin)) == ["right", "right"]
    assert model.votes(origin).tolist() == [[0, 1], [0, 1]]
