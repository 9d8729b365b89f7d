"""The generalized dual of solve_dual_smo (linear term ``p``, start ``alpha0``, Solver_NU).

SVR, nu-SVC and the one-class SVM reduce to these problems inside LIBSVM; each
is checked against scikit-learn's LIBSVM on the same problem, and against
the theory (the KKT conditions of the generalized problem, the equality
constraints kept at their start values, a zero duality gap for SVR).
"""

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVR, NuSVC, OneClassSVM

from svmlib import NotSeparableError, kernels
from svmlib.objectives import max_kkt_violation
from svmlib.smo import HARD_MARGIN_LIMIT, solve_dual_smo


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(70, 3))
    z = np.sin(X[:, 0]) + 0.1 * rng.normal(size=70)
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=70) > 0, 1.0, -1.0)
    return X, z, y, kernels.rbf(X, X, gamma=0.5)


def svr_dual(K, z, epsilon):
    """LIBSVM's 2n-variable epsilon-SVR dual: Q = [[K, -K], [-K, K]] via y = (+1, -1)."""
    n = K.shape[0]
    return (np.block([[K, K], [K, K]]), np.r_[np.ones(n), -np.ones(n)],
            np.r_[epsilon - z, epsilon + z])


def libsvm_coef(model, n):
    full = np.zeros(n)
    full[model.support_] = model.dual_coef_[0]
    return full


def nu_svc_start(y, nu):
    """LIBSVM's feasible start for nu-SVC: nu n / 2 in each class, greedily."""
    alpha = np.zeros(y.shape[0])
    left = {1.0: nu * y.shape[0] / 2, -1.0: nu * y.shape[0] / 2}
    for t, label in enumerate(y):
        alpha[t] = min(1.0, left[label])
        left[label] -= alpha[t]
    return alpha


@pytest.mark.parametrize("shrinking", [True, False])
@pytest.mark.parametrize("C, epsilon", [(2.0, 0.1), (0.3, 0.05)])
def test_svr_dual_matches_libsvm_and_theory(data, shrinking, C, epsilon):
    X, z, _, K = data
    n = K.shape[0]
    KK, yy, p = svr_dual(K, z, epsilon)
    result = solve_dual_smo(KK, yy, C=C, tol=1e-8, p=p, shrinking=shrinking)
    beta = result.alpha[:n] - result.alpha[n:]
    model = SVR(kernel="precomputed", C=C, epsilon=epsilon, tol=1e-8).fit(K, z)
    np.testing.assert_allclose(beta, libsvm_coef(model, n), atol=1e-4 * C)
    assert result.b == pytest.approx(model.intercept_[0], abs=1e-5)
    # KKT of min 1/2 a^T Q a + p^T a, with grad = Q a + p computed here.
    grad = yy * (KK @ (yy * result.alpha)) + p
    assert max_kkt_violation(result.alpha, grad, yy, C) <= 1e-8
    assert abs(yy @ result.alpha) < 1e-10
    # Zero duality gap: the SVR primal at (beta, b) equals the dual objective.
    f = K @ beta + result.b
    primal = 0.5 * beta @ K @ beta + C * np.maximum(np.abs(z - f) - epsilon, 0.0).sum()
    assert primal == pytest.approx(result.objective, rel=1e-6)
    assert result.objective == pytest.approx(-0.5 * result.alpha @ (grad + p), rel=1e-12)


def test_svr_dual_with_a_kernel_function_and_a_small_cache(data):
    X, z, _, K = data
    n = K.shape[0]
    _, yy, p = svr_dual(K, z, 0.1)
    result = solve_dual_smo(lambda A, B: kernels.rbf(A, B, gamma=0.5), yy, C=2.0, tol=1e-8,
                            p=p, X=np.vstack([X, X]), precompute_kernel=False, cache_size=0.05)
    model = SVR(kernel="precomputed", C=2.0, epsilon=0.1, tol=1e-8).fit(K, z)
    np.testing.assert_allclose(result.alpha[:n] - result.alpha[n:], libsvm_coef(model, n),
                               atol=1e-4)
    assert result.b == pytest.approx(model.intercept_[0], abs=1e-5)


def test_hard_tube_dual_matches_libsvm(data):
    """C = inf with p: the hard tube's dual, bounded since the RBF kernel interpolates.

    ``half_range`` only arms the test for an unbounded dual: the solution is
    LIBSVM's, and the dual objective stays far below the limit.
    """
    X, z, _, K = data
    n = K.shape[0]
    KK, yy, p = svr_dual(K, z, 0.1)
    half_range = (z.max() - z.min()) / 2 - 0.1
    result = solve_dual_smo(KK, yy, C=np.inf, tol=1e-8, p=p, half_range=half_range)
    beta = result.alpha[:n] - result.alpha[n:]
    model = SVR(kernel="precomputed", C=np.inf, epsilon=0.1, tol=1e-8).fit(K, z)
    np.testing.assert_allclose(beta, libsvm_coef(model, n), rtol=0,
                               atol=1e-4 * np.abs(beta).max())
    assert result.b == pytest.approx(model.intercept_[0], abs=1e-5)
    assert np.abs(z - (K @ beta + result.b)).max() <= 0.1 + 1e-7     # every target in the tube
    assert result.objective < HARD_MARGIN_LIMIT * half_range**2 / 2    # (R = 1 for the RBF)


def test_empty_hard_tube_unbounded_dual_stops_with_a_proof(data):
    """An empty tube: the dual grows without bound, and half_range stops SMO.

    A point given twice with targets 1 apart, and epsilon 0.1: no function
    fits.  Without the test SMO would climb until max_iter; with it SMO stops
    as soon as the dual objective exceeds HARD_MARGIN_LIMIT half_range^2 /
    (2 R^2), which weak duality turns into a proof.  (SVR checks such tubes
    with a linear program first, up to LP_CHECK_MAX_N samples; beyond, this
    is what stops it.)
    """
    X, z, _, _ = data
    X2, z2 = np.vstack([X, X[:1]]), np.r_[z, z[0] + 1.0]
    KK, yy, p = svr_dual(kernels.rbf(X2, X2, gamma=0.5), z2, 0.1)
    half_range = (z2.max() - z2.min()) / 2 - 0.1
    with pytest.warns(ConvergenceWarning):
        climbing = solve_dual_smo(KK, yy, C=np.inf, p=p, max_iter=1000)
    assert climbing.objective > HARD_MARGIN_LIMIT * half_range**2 / 2
    with pytest.raises(NotSeparableError, match=r"dual objective reached D = .* every solution "
                       r"has \|\|w\|\| >= sqrt\(2 D\)"):
        solve_dual_smo(KK, yy, C=np.inf, p=p, half_range=half_range)


@pytest.mark.parametrize("shrinking", [True, False])
@pytest.mark.parametrize("nu", [0.25, 0.6])
def test_nu_solver_matches_libsvm_nu_svc(data, shrinking, nu):
    _, _, y, K = data
    start = nu_svc_start(y, nu)
    result = solve_dual_smo(K, y, C=1.0, tol=1e-8, p=np.zeros_like(y), alpha0=start,
                            nu_solver=True, shrinking=shrinking)
    # Both equality constraints keep their start values.
    for label in (1.0, -1.0):
        assert result.alpha[y == label].sum() == pytest.approx(start[y == label].sum(),
                                                              abs=1e-10)
    # KKT of each class's subproblem (Solver_NU's stopping rule).
    grad = y * (K @ (y * result.alpha))
    for label in (1.0, -1.0):
        mask = y == label
        assert max_kkt_violation(result.alpha[mask], grad[mask], y[mask], 1.0) <= 1e-8
    r = result.info["r"]
    assert r > 0
    model = NuSVC(kernel="precomputed", nu=nu, tol=1e-8).fit(K, y)
    ours = K @ (result.alpha * y / r) + result.b / r
    np.testing.assert_allclose(ours, model.decision_function(K), atol=1e-5)
    coef = np.zeros_like(y)
    coef[model.support_] = model.dual_coef_[0]
    np.testing.assert_allclose(np.abs(result.alpha / r), np.abs(coef), atol=1e-4)


@pytest.mark.parametrize("nu", [0.1, 0.35])
def test_one_class_dual_matches_libsvm(data, nu):
    _, _, _, K = data
    n = K.shape[0]
    start = np.zeros(n)
    whole = int(nu * n)
    start[:whole] = 1.0
    start[whole] = nu * n - whole
    ones = np.ones(n)
    result = solve_dual_smo(K, ones, C=1.0, tol=1e-8, p=np.zeros(n), alpha0=start)
    model = OneClassSVM(kernel="precomputed", nu=nu, tol=1e-8).fit(K)
    np.testing.assert_allclose(result.alpha, libsvm_coef(model, n), atol=1e-5)
    assert result.b == pytest.approx(model.intercept_[0], abs=1e-6)
    assert result.alpha.sum() == pytest.approx(nu * n, abs=1e-10)
    assert max_kkt_violation(result.alpha, K @ result.alpha, ones, 1.0) <= 1e-8


def test_default_p_is_bit_identical_to_minus_one(data):
    _, _, y, K = data
    plain = solve_dual_smo(K, y, C=1.0, tol=1e-6)
    explicit = solve_dual_smo(K, y, C=1.0, tol=1e-6, p=-np.ones_like(y))
    assert np.array_equal(plain.alpha, explicit.alpha)
    assert plain.b == explicit.b and plain.objective == explicit.objective


@pytest.mark.parametrize("precompute", [True, False])
def test_a_feasible_start_reaches_the_same_optimum(data, precompute):
    X, _, y, K = data
    start = np.zeros_like(y)
    start[np.flatnonzero(y > 0)[:4]] = [0.5, 1.0, 0.2, 0.3]
    start[np.flatnonzero(y < 0)[:3]] = [1.0, 0.5, 0.5]
    cold = solve_dual_smo(K, y, C=1.0, tol=1e-9)
    warm = solve_dual_smo(lambda A, B: kernels.rbf(A, B, gamma=0.5), y, X=X, C=1.0, tol=1e-9,
                          alpha0=start, precompute_kernel=precompute)
    assert warm.objective == pytest.approx(cold.objective, rel=1e-9)
    np.testing.assert_allclose(warm.alpha, cold.alpha, atol=1e-5)
    assert warm.b == pytest.approx(cold.b, abs=1e-6)


def test_bad_generalized_inputs_are_named(data):
    _, _, y, K = data
    n = y.shape[0]
    with pytest.raises(ValueError, match=r"p must hold one linear coefficient"):
        solve_dual_smo(K, y, p=np.zeros(n - 1))
    with pytest.raises(ValueError, match=r"p must not contain NaN"):
        solve_dual_smo(K, y, p=np.full(n, np.nan))
    with pytest.raises(ValueError, match=r"alpha0\[0\]=2.0 with C\[0\]=1.0"):
        solve_dual_smo(K, y, C=1.0, alpha0=np.r_[2.0, np.zeros(n - 1)])
    with pytest.raises(ValueError, match=r"alpha0 must hold one starting value"):
        solve_dual_smo(K, y, alpha0=np.zeros(3))
    with pytest.raises(ValueError, match=r"nu_solver must be True or False"):
        solve_dual_smo(K, y, nu_solver="yes")
    with pytest.raises(ValueError, match=r"both labels"):
        solve_dual_smo(K, np.ones(n))   # one label only with the classification dual
