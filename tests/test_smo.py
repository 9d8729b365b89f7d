"""Tests of SMO (svmlib.smo) against the theory and against the SLSQP route."""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning

from svmlib import NotSeparableError, datasets, kernels
from svmlib.objectives import duality_gap, kkt_violations, primal_objective
from svmlib.qp import solve_dual_slsqp
from svmlib.smo import TAU, KernelRowCache, analytic_pair_update, solve_dual_smo


def assert_kkt(result, K, y, C, tol):
    """The KKT conditions of the dual, checked independently of the solver."""
    alpha = result.alpha
    assert abs(alpha @ y) < 1e-10 * max(1.0, alpha.sum())
    assert alpha.min() >= 0.0 and alpha.max() <= C
    # Per-point residuals are bounded by the stopping tolerance (b is an average).
    assert kkt_violations(alpha, result.b, K, y, C, atol=0.0).max() <= tol
    assert result.kkt_violation <= tol


@pytest.fixture(scope="module")
def moons():
    X, y = datasets.moons(80, noise=0.25, random_state=3)
    return X, y.astype(float), kernels.rbf(X, X, gamma=1.0)


def test_tiny_hand_solved_example():
    tiny = datasets.tiny_hard_margin()
    X, y = tiny["X"], tiny["y"]
    result = solve_dual_smo(X @ X.T, y, C=np.inf, tol=1e-10)
    np.testing.assert_allclose(result.alpha, tiny["alpha"], atol=1e-10)
    assert result.b == pytest.approx(tiny["b"])
    assert result.objective == pytest.approx(tiny["objective"])
    assert result.converged and result.n_iter >= 1


@pytest.mark.parametrize("C", [0.05, 1.0, 5.0])
def test_smo_matches_slsqp(moons, C):
    X, y, K = moons
    smo = solve_dual_smo(K, y, C=C, tol=1e-6)
    slsqp = solve_dual_slsqp(K, y, C=C)
    assert_kkt(smo, K, y, C, tol=1e-6)
    assert smo.objective == pytest.approx(slsqp.objective, rel=1e-6)
    np.testing.assert_allclose(smo.alpha, slsqp.alpha, atol=1e-3 * C)
    assert smo.b == pytest.approx(slsqp.b, abs=1e-3)


def test_zero_duality_gap_linear_kernel():
    X, y = datasets.overlapping_blobs(80, random_state=2)
    K = X @ X.T
    result = solve_dual_smo(K, y, C=1.0, tol=1e-8)
    w = (result.alpha * y) @ X
    primal = primal_objective(w, result.b, X, y, 1.0)
    assert primal == pytest.approx(result.objective, rel=1e-6)
    assert duality_gap(result.alpha, result.b, K, y, 1.0) == pytest.approx(0.0, abs=1e-6 * primal)


@pytest.mark.parametrize("options", [
    {"selection": "first_order"},
    {"shrinking": False},
    {"cache_size": 0.01},                    # a few rows only: rows are recomputed
    {"precompute_kernel": False},
    {"precompute_kernel": False, "cache_size": 0.01},
])
def test_variants_reach_the_same_solution(moons, options):
    X, y, K = moons
    C = 2.0
    reference = solve_dual_smo(K, y, C=C, tol=1e-8)
    gamma_kernel = kernels.get_kernel("rbf", gamma=1.0)
    result = solve_dual_smo(gamma_kernel, y, C=C, tol=1e-8, X=X, **options)
    assert_kkt(result, K, y, C, tol=1e-8)
    assert result.objective == pytest.approx(reference.objective, rel=1e-9)
    np.testing.assert_allclose(result.alpha, reference.alpha, atol=1e-5)


def test_first_order_selection_needs_more_iterations(moons):
    X, y, K = moons
    second = solve_dual_smo(K, y, C=10.0, tol=1e-4)
    first = solve_dual_smo(K, y, C=10.0, tol=1e-4, selection="first_order")
    assert first.n_iter > second.n_iter


def test_shrinking_with_many_iterations_is_exact():
    # Enough iterations for several shrinking rounds and gradient reconstructions.
    X, y = datasets.overlapping_blobs(300, overlap=1.5, random_state=0)
    K = X @ X.T
    shrunk = solve_dual_smo(K, y, C=50.0, tol=1e-6)
    assert shrunk.info["shrink_events"] >= 1
    plain = solve_dual_smo(K, y, C=50.0, tol=1e-6, shrinking=False)
    assert_kkt(shrunk, K, y, 50.0, tol=1e-6)
    assert shrunk.objective == pytest.approx(plain.objective, rel=1e-8)


def test_trace_and_callback():
    X, y = datasets.separable_blobs(20, random_state=0)
    steps = []
    result = solve_dual_smo(X @ X.T, y, C=1.0, record_trace=True, callback=steps.append)
    assert len(result.trace) == result.n_iter == len(steps)
    first = result.trace[0]
    assert set(first) == {"iteration", "i", "j", "alpha", "violation"}
    assert y[first["i"]] * y[first["j"]] in (-1, 1) and first["i"] != first["j"]
    # Snapshots are copies, and each keeps sum alpha_i y_i = 0.
    assert not np.shares_memory(result.trace[0]["alpha"], result.trace[-1]["alpha"])
    for step in result.trace:
        assert abs(step["alpha"] @ y) < 1e-12
    np.testing.assert_array_equal(result.trace[-1]["alpha"], result.alpha)
    # The violation decreases to below tol overall.
    assert result.trace[0]["violation"] > result.kkt_violation


def test_callback_can_stop_the_solver():
    X, y = datasets.overlapping_blobs(50, random_state=0)
    result = solve_dual_smo(X @ X.T, y, C=1.0, callback=lambda step: step["iteration"] == 3)
    assert result.n_iter == 3 and not result.converged
    assert result.info["stopped_by_callback"]


def test_max_iter_warns():
    X, y = datasets.overlapping_blobs(50, random_state=0)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        result = solve_dual_smo(X @ X.T, y, C=1.0, max_iter=2)
    assert result.n_iter == 2 and not result.converged


def test_hard_margin_not_separable_raises():
    X, y = datasets.overlapping_blobs(60, overlap=2.0, random_state=0)
    with pytest.raises(NotSeparableError, match="finite C"):
        solve_dual_smo(X @ X.T, y, C=np.inf)


def test_hard_margin_divergence_is_detected_without_the_lp():
    # Two identical points with opposite labels: no separating function exists.
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    with pytest.raises(NotSeparableError, match="vanishing margin"):
        solve_dual_smo(X @ X.T, y, C=np.inf, check_feasible=False)


def test_large_problem_never_builds_the_full_matrix():
    # With a tiny cache and precompute off, only rows are computed.
    X, y = datasets.moons(400, random_state=1)
    kernel = kernels.get_kernel("rbf", gamma=2.0)
    result = solve_dual_smo(kernel, y, C=1.0, X=X, cache_size=0.5, precompute_kernel=False)
    assert not result.info["kernel_precomputed"]
    assert result.converged
    K = kernels.rbf(X, X, gamma=2.0)
    assert_kkt(result, K, y.astype(float), 1.0, tol=1e-3)


def test_gram_matrix_is_precomputed_only_when_it_fits_the_cache():
    X, y = datasets.moons(400, random_state=1)          # Gram matrix: 1.22 MB
    kernel = kernels.get_kernel("rbf", gamma=2.0)
    # Rows computed by the compiled cache round differently from the Gram
    # matrix (last bit), so the two runs may take different steps: compare the
    # optima with a tolerance tight enough to make the objectives agree.
    small = solve_dual_smo(kernel, y, C=1.0, X=X, cache_size=1.0, tol=1e-8)
    large = solve_dual_smo(kernel, y, C=1.0, X=X, cache_size=2.0, tol=1e-8)
    assert not small.info["kernel_precomputed"] and large.info["kernel_precomputed"]
    assert small.objective == pytest.approx(large.objective, rel=1e-10)


def test_auto_builds_the_matrix_of_a_built_in_kernel_only_up_to_its_limit():
    # Beyond AUTO_GRAM_MAX_VALUES entries a built-in kernel's rows come from the
    # compiled cache (faster than the matrix product); a kernel given as a
    # Python function still gets the whole matrix while it fits the cache.
    from svmlib.smo import AUTO_GRAM_MAX_VALUES
    n_limit = int(np.sqrt(AUTO_GRAM_MAX_VALUES))
    X, y = datasets.moons(n_limit + 1, noise=0.3, random_state=2)
    builtin = kernels.get_kernel("rbf", gamma=2.0)

    def python_rbf(A, B):
        return kernels.rbf(A, B, gamma=2.0)

    on_demand = solve_dual_smo(builtin, y, C=1.0, X=X, tol=1e-8)
    gram = solve_dual_smo(python_rbf, y, C=1.0, X=X, tol=1e-8)
    forced = solve_dual_smo(builtin, y, C=1.0, X=X, tol=1e-8, precompute_kernel=True)
    assert not on_demand.info["kernel_precomputed"]
    assert gram.info["kernel_precomputed"] and forced.info["kernel_precomputed"]
    assert on_demand.objective == pytest.approx(gram.objective, rel=1e-10)
    K = kernels.rbf(X, X, gamma=2.0)
    assert_kkt(on_demand, K, y.astype(float), 1.0, tol=1e-8)
    X_at, y_at = X[:n_limit], y[:n_limit]             # exactly at the limit: the matrix
    assert solve_dual_smo(builtin, y_at, C=1.0, X=X_at).info["kernel_precomputed"]

def test_kernel_row_cache_is_lru_and_bounded():
    computed = []

    def compute(index, start, stop):
        computed.append(index)
        return np.full(stop - start, float(index))

    cache = KernelRowCache(compute, cache_size=3 * 10 * 8 / 2**20)   # room for 3 rows of 10
    for index in (0, 1, 2, 0, 3):          # 1 is the least recently used when 3 arrives
        cache.get(index, 10)
    assert list(cache.rows) == [2, 0, 3]
    assert cache.used <= cache.budget
    cache.get(1, 10)
    assert computed == [0, 1, 2, 3, 1]
    assert cache.hits == 1 and cache.misses == 5


def test_input_errors():
    K = np.eye(4)
    y = np.array([1.0, -1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match="X must be given"):
        solve_dual_smo(kernels.linear, y)
    with pytest.raises(ValueError, match="selection"):
        solve_dual_smo(K, y, selection="third_order")
    with pytest.raises(ValueError, match="C must be"):
        solve_dual_smo(K, y, C=-2.0)
    with pytest.raises(ValueError, match="same number of samples"):
        solve_dual_smo(kernels.linear, y, X=np.ones((3, 2)))


def _dual(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, Q_ii, Q_jj, Q_ij, d_i, d_j):
    """Change of the dual objective f when (alpha_i, alpha_j) moves by (d_i, d_j)."""
    return (grad_i * d_i + grad_j * d_j
            + 0.5 * (Q_ii * d_i**2 + Q_jj * d_j**2 + 2 * Q_ij * d_i * d_j))


@settings(max_examples=200, deadline=None)
@given(
    alpha=st.tuples(st.floats(0, 1), st.floats(0, 1)),
    labels=st.tuples(st.sampled_from([-1.0, 1.0]), st.sampled_from([-1.0, 1.0])),
    grad=st.tuples(st.floats(-3, 3), st.floats(-3, 3)),
    points=st.tuples(st.floats(-2, 2), st.floats(-2, 2), st.floats(-2, 2), st.floats(-2, 2)),
    C=st.sampled_from([1.0, np.inf]),
)
def test_pair_update_properties(alpha, labels, grad, points, C):
    """The analytic update stays in the box, keeps y_i a_i + y_j a_j, and never increases f."""
    (a_i, a_j), (y_i, y_j) = alpha, labels
    x_i, x_j = np.array(points[:2]), np.array(points[2:])
    K_ii, K_jj, K_ij = x_i @ x_i, x_j @ x_j, x_i @ x_j
    Q_ii, Q_jj, Q_ij = K_ii, K_jj, y_i * y_j * K_ij
    new_i, new_j = analytic_pair_update(a_i, a_j, y_i, y_j, grad[0], grad[1], Q_ii, Q_jj, Q_ij, C)
    assert 0.0 <= new_i <= C and 0.0 <= new_j <= C
    # Exact up to rounding at the size of the new values: with eta = 0 and C = inf
    # (an unbounded pair, e.g. two equal points with opposite labels) the step
    # is of order 1/TAU, and float64 keeps about 16 digits of it.
    scale = max(1.0, abs(new_i), abs(new_j))
    assert y_i * new_i + y_j * new_j == pytest.approx(y_i * a_i + y_j * a_j, abs=1e-9 * scale)
    change = _dual(a_i, a_j, y_i, y_j, grad[0], grad[1], Q_ii, Q_jj, Q_ij, new_i - a_i, new_j - a_j)
    if K_ii + K_jj - 2 * K_ij > 1e-6:      # a strictly convex pair problem
        assert change <= 1e-9


def test_tau_guards_a_flat_direction():
    # Identical points, same label: curvature 0, the step uses TAU and is clipped to the box.
    new_i, new_j = analytic_pair_update(0.2, 0.3, 1.0, 1.0, -1.0, -0.5, 1.0, 1.0, 1.0, 1.0)
    assert TAU == 1e-12
    assert (new_i, new_j) == pytest.approx((0.0, 0.5)) or (new_i, new_j) == pytest.approx((0.5, 0.0))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), C=st.sampled_from([0.1, 1.0, 10.0]))
def test_smo_random_problems_satisfy_kkt(seed, C):
    rng = np.random.default_rng(seed)
    n = 30
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0)
    if abs(y.sum()) == n:
        y[0] = -y[0]
    K = kernels.rbf(X, X, gamma=0.5)
    result = solve_dual_smo(K, y, C=C, tol=1e-6)
    assert_kkt(result, K, y, C, tol=1e-6)
    # Permuting the samples permutes the solution.
    order = rng.permutation(n)
    permuted = solve_dual_smo(K[np.ix_(order, order)], y[order], C=C, tol=1e-6)
    assert permuted.objective == pytest.approx(result.objective, rel=1e-6)
