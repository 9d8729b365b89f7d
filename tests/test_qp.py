"""Tests of the general-solver route (svmlib.qp, SLSQP) and the pieces every solver shares (svmlib.dual)."""

import numpy as np
import pytest

from svmlib import NotSeparableError, datasets
from svmlib.dual import check_separable, check_tube_feasible, compute_intercept
from svmlib.kernels import rbf
from svmlib.objectives import duality_gap, kkt_violations, primal_objective
from svmlib.qp import solve_dual_slsqp


def test_slsqp_reproduces_the_hand_solved_example():
    tiny = datasets.tiny_hard_margin()
    X, y = tiny["X"], tiny["y"]
    result = solve_dual_slsqp(X @ X.T, y)
    np.testing.assert_allclose(result.alpha, tiny["alpha"], atol=1e-6)
    assert result.b == pytest.approx(tiny["b"], abs=1e-5)
    w = (result.alpha * y) @ X
    np.testing.assert_allclose(w, tiny["w"], atol=1e-5)
    assert result.objective == pytest.approx(tiny["objective"], abs=1e-8)
    assert result.solver == "slsqp" and result.converged
    np.testing.assert_array_equal(result.support, tiny["support"])


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0, np.inf])
def test_slsqp_solution_satisfies_kkt(C):
    X, y = datasets.separable_blobs(40, random_state=1) if np.isinf(C) else \
        datasets.overlapping_blobs(40, random_state=1)
    K = X @ X.T
    result = solve_dual_slsqp(K, y, C=C)
    alpha = result.alpha
    assert abs(alpha @ y) < 1e-6                              # sum alpha_i y_i = 0
    assert alpha.min() >= 0 and alpha.max() <= C
    scale = max(1.0, alpha.max())
    assert kkt_violations(alpha, result.b, K, y, C, atol=1e-6 * scale).max() < 1e-3
    assert result.kkt_violation < 1e-3
    w = (alpha * y) @ X
    if np.isinf(C):
        assert (y * (X @ w + result.b)).min() > 1 - 1e-4         # primal feasible
        primal = 0.5 * w @ w
    else:
        primal = primal_objective(w, result.b, X, y, C)
    assert primal == pytest.approx(result.objective, rel=1e-4)   # zero duality gap


def test_slsqp_with_rbf_kernel_zero_gap():
    X, y = datasets.moons(60, random_state=0)
    K = rbf(X, X, gamma=1.0)
    result = solve_dual_slsqp(K, y, C=1.0)
    assert duality_gap(result.alpha, result.b, K, y, 1.0) == pytest.approx(0.0, abs=1e-3 * result.objective)


def test_hard_margin_on_overlapping_data_raises_quickly():
    X, y = datasets.overlapping_blobs(60, overlap=2.0, random_state=0)
    with pytest.raises(NotSeparableError, match="finite C"):
        solve_dual_slsqp(X @ X.T, y, C=np.inf)
    with pytest.raises(ValueError, match="not linearly separable"):
        check_separable(y, X=X)


def test_check_separable_accepts_separable_data():
    X, y = datasets.separable_blobs(30)
    check_separable(y, X=X)
    check_separable(y, K=X @ X.T)


def test_check_tube_feasible_decides_the_hard_tube():
    """Targets within 0.3 of the line z = x: a tube of half-width 0.31 holds it, 0.1 none.

    The returned ``||w||^2`` is that of a function in the tube, at least the
    least value the targets' range asks for (``||w|| >= half_range / max |x|``,
    with ``max |x| = 1``).
    """
    rng = np.random.default_rng(0)
    x = np.linspace(-1.0, 1.0, 30)[:, None]
    z = x[:, 0] + rng.uniform(-0.3, 0.3, size=30)
    with pytest.raises(NotSeparableError, match=r"no function stays within epsilon=0\.1"):
        check_tube_feasible(z, 0.1, X=x)
    found = check_tube_feasible(z, 0.31, X=x)
    half_range = (z.max() - z.min()) / 2 - 0.31
    assert found >= half_range**2 - 1e-9
    # The same question on the Gram matrix (w = sum_j beta_j x_j) and on sparse X.
    assert np.isfinite(check_tube_feasible(z, 0.31, K=x @ x.T))
    scipy_sparse = pytest.importorskip("scipy.sparse")
    assert np.isfinite(check_tube_feasible(z, 0.31, X=scipy_sparse.csr_matrix(x)))
    with pytest.raises(NotSeparableError, match="feature space"):
        check_tube_feasible(z, 0.1, K=x @ x.T, where=" in the feature space")


def test_intercept_midpoint_when_no_free_multiplier():
    # Two points at the bounds: alpha = (0, C) style; b from the interval midpoint.
    y = np.array([1.0, -1.0])
    alpha = np.array([0.0, 0.0])
    grad = np.array([-1.0, -1.0])
    # y*grad = [-1, 1]; lower & y>0 -> upper side (ub = -1); lower & y<0 -> lb = 1.
    assert compute_intercept(alpha, grad, y, 1.0) == pytest.approx(0.0)
    alpha_free = np.array([0.5, 0.5])
    grad_free = np.array([-0.2, -0.6])
    # rho = mean(y*grad) over free = mean(-0.2, 0.6) = 0.2 -> b = -0.2
    assert compute_intercept(alpha_free, grad_free, y, 1.0) == pytest.approx(-0.2)


@pytest.mark.parametrize("kwargs, match", [
    ({"C": -1.0}, "C must be"),
    ({"C": 0.0}, "C must be"),
    ({"y": np.array([1.0, 2.0, -1.0])}, "only the labels -1 and \\+1"),
    ({"y": np.array([1.0, 1.0, 1.0])}, "both labels"),
    ({"K": np.eye(2)}, "square Gram matrix"),
    ({"K": np.full((3, 3), np.nan)}, "NaN"),
])
def test_slsqp_input_errors(kwargs, match):
    args = {"K": np.eye(3), "y": np.array([1.0, -1.0, 1.0]), "C": 1.0}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        solve_dual_slsqp(**args)
