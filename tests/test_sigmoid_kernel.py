"""``kernel="sigmoid"``: ``tanh(gamma <x, z> + coef0)``, as LIBSVM computes it.

The sigmoid function is not always a kernel (its Gram matrices are often
indefinite), so the SVM dual may be non-convex.  Where SMO's path leads
both libraries to the same stationary point the decision values agree to
the reach of the tolerance; where it does not (the moons at scikit-learn's
defaults) each library's point still satisfies the KKT conditions, with a
different dual objective: two stationary points of a non-convex problem.
"""

import numpy as np
import pytest
from sklearn import svm as sk
from sklearn.datasets import load_iris, make_moons
from sklearn.preprocessing import StandardScaler

from svmlib import SVC, SVR, NuSVC, OneClassSVM, kernels
from svmlib._smo_rows import SIGMOID, kernel_rows
from svmlib._smo_steps import COMPILED, INTERPRETED
from svmlib.objectives import max_kkt_violation
from svmlib.smo import solve_dual_smo


def _iris():
    X, y = load_iris(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def _moons():
    return make_moons(300, noise=0.2, random_state=0)


def test_sigmoid_function_values():
    X = np.array([[1.0, 2.0], [-0.5, 0.0], [3.0, -1.0]])
    K = kernels.sigmoid(X, gamma=0.3, coef0=-0.2)
    expected = np.tanh(0.3 * (X @ X.T) - 0.2)
    np.testing.assert_allclose(K, expected, rtol=0, atol=1e-15)
    # get_kernel passes gamma and coef0 only; the Gram matrix is indefinite here.
    np.testing.assert_array_equal(kernels.get_kernel("sigmoid", gamma=0.3, coef0=-0.2,
                                                     degree=5)(X, X), K)
    assert not kernels.is_psd(kernels.sigmoid(_iris()[0], gamma=0.25))


def test_sigmoid_rows_in_compiled_code_are_the_kernels():
    """The compiled row source computes tanh(gamma <x, z> + coef0) (1e-15), in
    compiled and interpreted code alike (identical values)."""
    X = np.random.RandomState(0).normal(size=(40, 3))
    source = kernel_rows(SIGMOID, X, gamma=0.4, coef0=0.3)
    K = kernels.sigmoid(X, gamma=0.4, coef0=0.3)
    diag = COMPILED.kernel_diagonal(source, np.empty(40))
    np.testing.assert_allclose(diag, np.diag(K), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(INTERPRETED.kernel_diagonal(source, np.empty(40)), diag)
    y = np.where(np.arange(40) % 2 == 0, 1.0, -1.0)
    rows = solve_dual_smo(kernels.get_kernel("sigmoid", gamma=0.4, coef0=0.3), y, X=X,
                          precompute_kernel=False, tol=1e-10)
    gram = solve_dual_smo(K, y, tol=1e-10)
    assert rows.n_iter == gram.n_iter
    np.testing.assert_allclose(rows.alpha, gram.alpha, rtol=0, atol=1e-12)


CONFIGS = [
    ("iris", {}),
    ("iris", {"gamma": 0.1, "coef0": -1.0}),
    ("moons", {"gamma": 0.1, "coef0": -1.0}),
    ("iris", {"gamma": 0.05, "coef0": 0.5, "C": 10.0}),
    ("moons", {"gamma": 0.05, "coef0": 0.5, "C": 10.0}),
]


@pytest.mark.parametrize("data, params", CONFIGS, ids=lambda v: str(v))
def test_svc_sigmoid_matches_libsvm(data, params):
    """Same support vectors, same predictions, decision values within 1e-4 at
    tol=1e-8 (measured: 3e-8 to 5e-6)."""
    X, y = _iris() if data == "iris" else _moons()
    ours = SVC(kernel="sigmoid", tol=1e-8, **params).fit(X, y)
    theirs = sk.SVC(kernel="sigmoid", tol=1e-8, **params).fit(X, y)
    np.testing.assert_array_equal(np.sort(ours.support_), np.sort(theirs.support_))
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                               rtol=0, atol=1e-4)
    # Built-in rows beyond n = 1,024 (no Gram matrix): the same solution.
    if data == "iris":
        X_big = np.vstack([X] * 8) + np.random.RandomState(0).normal(scale=0.1, size=(1200, 4))
        y_big = np.concatenate([y] * 8)
        ours = SVC(kernel="sigmoid", tol=1e-6, **params).fit(X_big, y_big)
        theirs = sk.SVC(kernel="sigmoid", tol=1e-6, **params).fit(X_big, y_big)
        assert np.mean(ours.predict(X_big) == theirs.predict(X_big)) >= 0.99
        np.testing.assert_allclose(ours.decision_function(X_big),
                                   theirs.decision_function(X_big), rtol=0, atol=1e-3)


def test_not_a_kernel_two_stationary_points():
    """The moons at the defaults (gamma='scale', coef0=0): the Gram matrix has
    eigenvalues down to -16 even on the zero-sum vectors that sum(alpha * y) = 0
    lets the multipliers move along (it is not conditionally PSD), so the dual
    is not concave, and the two libraries stop at different points, each
    satisfying the KKT conditions."""
    X, y = _moons()
    ours = SVC(kernel="sigmoid", tol=1e-8).fit(X, y)
    theirs = sk.SVC(kernel="sigmoid", tol=1e-8).fit(X, y)
    K = kernels.sigmoid(X, gamma=ours._gamma, coef0=0.0)
    assert np.linalg.eigvalsh(K)[0] < -1.0
    assert kernels.zero_sum_eigenvalues(K)[0] < -1.0      # a negative eigenvalue alone would not do
    y_pm = np.where(y == 1, 1.0, -1.0)
    Q = y_pm[:, None] * y_pm[None, :] * K

    def kkt_and_dual(support, dual_coef):
        alpha = np.zeros(len(y))
        alpha[support] = np.abs(dual_coef[0])
        return (max_kkt_violation(alpha, Q @ alpha - 1.0, y_pm, 1.0),
                alpha.sum() - 0.5 * alpha @ Q @ alpha)

    kkt_ours, dual_ours = kkt_and_dual(ours.support_, ours.dual_coef_)
    kkt_theirs, dual_theirs = kkt_and_dual(theirs.support_, theirs.dual_coef_)
    # Both stationary (LIBSVM's from its float32 rows: 1e-5 here).
    assert kkt_ours <= 1e-7 and kkt_theirs <= 1e-4
    assert abs(dual_ours - dual_theirs) > 1e-3


@pytest.mark.parametrize("ours, theirs, target", [
    (NuSVC(kernel="sigmoid", gamma=0.1, coef0=-1.0, tol=1e-8),
     sk.NuSVC(kernel="sigmoid", gamma=0.1, coef0=-1.0, tol=1e-8), "class"),
    (SVR(kernel="sigmoid", gamma=0.1, coef0=-1.0, tol=1e-8),
     sk.SVR(kernel="sigmoid", gamma=0.1, coef0=-1.0, tol=1e-8), "value"),
    # coef0 = 1 keeps k(x, x) > 0, so that rho > 0 (measured: 23.46).
    (OneClassSVM(kernel="sigmoid", gamma=0.2, coef0=1.0, tol=1e-8, nu=0.3),
     sk.OneClassSVM(kernel="sigmoid", gamma=0.2, coef0=1.0, tol=1e-8, nu=0.3), None),
])
def test_other_estimators_take_the_sigmoid(ours, theirs, target):
    """Same support vectors, values within 1e-4 at tol=1e-8."""
    X, y = _iris()
    args = () if target is None else ((y,) if target == "class" else (X[:, 0],))
    X_fit = X if target != "value" else X[:, 1:]
    ours.fit(X_fit, *args)
    theirs.fit(X_fit, *args)
    np.testing.assert_array_equal(np.sort(ours.support_), np.sort(theirs.support_))
    out = "decision_function" if target != "value" else "predict"
    np.testing.assert_allclose(getattr(ours, out)(X_fit), getattr(theirs, out)(X_fit),
                               rtol=0, atol=1e-4)
