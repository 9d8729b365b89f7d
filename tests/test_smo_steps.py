"""SMO's step functions: the interpreted and the compiled solver take identical steps.

``solve_dual_smo(..., compiled=False)`` runs the functions of
``svmlib._smo_steps`` as plain Python, ``compiled=True`` the same source
compiled by Numba.  On every problem below both must choose the same working
set ``(i, j)`` at every iteration and reach the same iterates (the arithmetic
is the same; only the gradient rebuilt after shrinking may differ by
rounding), and each step function is checked on its own against its
definition.
"""

import numpy as np
import pytest

from svmlib import _smo_steps as steps
from svmlib import datasets, kernels
from svmlib.smo import _named_kernel, solve_dual_smo


def problem(name):
    """(K or kernel, y, options) for a few kinds of problem."""
    rng = np.random.default_rng(7)
    if name == "rbf_moons":
        X, y = datasets.moons(90, noise=0.3, random_state=1)
        return kernels.rbf(X, X, gamma=2.0), y.astype(float), {"C": 3.0}
    if name == "linear_overlap_large_C":
        X, y = datasets.overlapping_blobs(70, random_state=4)
        return X @ X.T, y, {"C": 100.0}
    if name == "poly_unscaled":
        X = rng.normal(size=(60, 3)) * 3 + 5
        y = np.where(X[:, 0] + rng.normal(size=60) > 5, 1.0, -1.0)
        return kernels.polynomial(X, X, degree=3, gamma=0.01, coef0=1.0), y, {"C": 1.0}
    if name == "hard_margin":
        X, y = datasets.separable_blobs(100, margin=0.3, random_state=3)
        return X @ X.T, y.astype(float), {"C": np.inf}
    if name == "per_sample_C":
        X, y = datasets.moons(80, noise=0.3, random_state=2)
        C = np.where(y > 0, 2.0, 0.5) * rng.uniform(0.5, 1.5, size=80)
        return kernels.rbf(X, X, gamma=1.0), y.astype(float), {"C": C}
    if name == "first_order":
        X, y = datasets.moons(80, noise=0.3, random_state=5)
        return kernels.rbf(X, X, gamma=1.0), y.astype(float), {"C": 10.0,
                                                               "selection": "first_order"}
    if name == "svr_dual":
        X = rng.normal(size=(40, 2))
        z = np.sin(X[:, 0])
        K = kernels.rbf(X, X, gamma=0.5)
        return (np.block([[K, K], [K, K]]), np.r_[np.ones(40), -np.ones(40)],
                {"C": 2.0, "p": np.r_[0.1 - z, 0.1 + z]})
    if name == "nu_svc":
        X, y = datasets.moons(80, noise=0.3, random_state=6)
        y = y.astype(float)
        start = np.zeros(80)
        for label in (1.0, -1.0):
            start[np.flatnonzero(y == label)[:12]] = 1.0
        return kernels.rbf(X, X, gamma=1.0), y, {"C": 1.0, "p": np.zeros(80), "alpha0": start,
                                                 "nu_solver": True}
    raise KeyError(name)


PROBLEMS = ["rbf_moons", "linear_overlap_large_C", "poly_unscaled", "hard_margin",
            "per_sample_C", "first_order", "svr_dual", "nu_svc"]


def assert_identical_steps(a, b):
    assert a.n_iter == b.n_iter
    assert [(s["i"], s["j"]) for s in a.trace] == [(s["i"], s["j"]) for s in b.trace]
    for s, t in zip(a.trace, b.trace):
        np.testing.assert_allclose(s["alpha"], t["alpha"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.alpha, b.alpha, rtol=0, atol=1e-12)
    assert a.b == pytest.approx(b.b, abs=1e-12)
    assert a.info["shrink_events"] == b.info["shrink_events"]


@pytest.mark.parametrize("name", PROBLEMS)
@pytest.mark.parametrize("shrinking", [True, False])
def test_interpreted_and_compiled_take_identical_steps(name, shrinking):
    K, y, options = problem(name)
    runs = [solve_dual_smo(K, y, tol=1e-6, shrinking=shrinking, record_trace=True,
                           compiled=compiled, **options) for compiled in (False, True)]
    assert not runs[0].info["compiled"]
    assert runs[1].info["compiled"] == steps.HAVE_NUMBA
    assert runs[0].converged and runs[1].converged
    assert runs[0].n_iter > 20
    assert_identical_steps(*runs)


@pytest.mark.parametrize("compiled", [False, True])
def test_rows_from_a_cache_take_the_steps_of_the_gram_matrix(compiled):
    """A kernel function with a small row cache (rows on demand, shrinking moves
    them) against the Gram matrix in memory: the same working sets until the
    gradient of the shrunk variables is first rebuilt (from blocks of kernel
    values and a matrix product instead of the Gram matrix: another summation
    order, so near-ties may then break differently), the same optimum."""
    X, y = datasets.moons(120, noise=0.3, random_state=8)
    y = y.astype(float)
    gram = solve_dual_smo(kernels.rbf(X, X, gamma=1.0), y, C=50.0, tol=1e-6,
                          record_trace=True, compiled=compiled)
    cached = solve_dual_smo(lambda A, B: kernels.rbf(A, B, gamma=1.0), y, X=X, C=50.0,
                            tol=1e-6, precompute_kernel=False, cache_size=0.05,
                            record_trace=True, compiled=compiled)
    assert cached.info["cache_misses"] > 0 and gram.info["shrink_events"] > 0
    first = 120  # shrinking starts after min(n, 1000) = 120 iterations
    assert ([(s["i"], s["j"]) for s in gram.trace[:first]]
            == [(s["i"], s["j"]) for s in cached.trace[:first]])
    assert cached.objective == pytest.approx(gram.objective, rel=1e-9)
    np.testing.assert_allclose(gram.alpha, cached.alpha, atol=1e-4)


def test_the_interpreted_steps_are_plain_python_on_the_same_code():
    for name in steps.STEPS:
        plain = getattr(steps.INTERPRETED, name)
        compiled = getattr(steps.COMPILED, name)
        assert not hasattr(plain, "py_func")           # a plain function
        assert plain.__code__ is getattr(compiled, "py_func", compiled).__code__
        # The plain functions call plain functions.
        assert plain.__globals__["select_i"] is steps.INTERPRETED.select_i


@pytest.mark.parametrize("ns", ["INTERPRETED", "COMPILED"])
def test_each_step_against_its_definition(ns):
    f = getattr(steps, ns)
    rng = np.random.default_rng(0)
    n = 9
    y = np.array([1, 1, -1, 1, -1, -1, 1, -1, 1], dtype=float)
    grad = rng.normal(size=n)
    C = np.full(n, 1.0)
    alpha = np.array([0, 1, 0.5, 0.2, 1, 0, 0, 0.3, 1.0])
    status = np.zeros(n, dtype=np.int8)
    for t in range(n):
        f.set_status(t, alpha, C, status)
    assert status.tolist() == [0, 1, 2, 2, 1, 0, 0, 2, 1]
    score = -y * grad
    up = np.array([f.in_up(status[t], y[t]) for t in range(n)])
    low = np.array([f.in_low(status[t], y[t]) for t in range(n)])
    assert up.tolist() == [(y[t] > 0 and alpha[t] < 1) or (y[t] < 0 and alpha[t] > 0)
                           for t in range(n)]
    assert low.tolist() == [(y[t] > 0 and alpha[t] > 0) or (y[t] < 0 and alpha[t] < 1)
                            for t in range(n)]
    i, m, M = f.select_i(n, y, grad, status, 0.0)
    assert m == score[up].max() and M == score[low].min() and score[i] == m and up[i]
    X = rng.normal(size=(n, 2))
    K = kernels.rbf(X, X, gamma=1.0)
    order = np.arange(n, dtype=np.int64)
    Q_i = f.kernel_row(steps.gram_rows(K), y, order, i, n, np.empty(n))
    np.testing.assert_allclose(Q_i, y[i] * y * K[i])
    j, gain = f.select_j(n, i, m, y, grad, status, np.diag(K).copy(), Q_i, 0.0, True, -1,
                         -np.inf)
    a = np.maximum(K[i, i] + np.diag(K) - 2 * K[i], steps.TAU)
    gains = np.where(low & (score < m), (m - score) ** 2 / a, -np.inf)
    assert j == int(np.argmax(gains)) and gain == pytest.approx(gains.max())
    # The gradient update and the pair update keep grad = Q alpha + p.
    p = -np.ones(n)
    grad = y * (K @ (y * alpha)) + p
    Q_j = f.kernel_row(steps.gram_rows(K), y, order, j, n, np.empty(n))
    new_i, new_j = f.update_pair(alpha[i], alpha[j], y[i], y[j], grad[i], grad[j], K[i, i],
                                 K[j, j], Q_i[j], C[i], C[j])
    assert 0 <= new_i <= 1 and 0 <= new_j <= 1
    assert y[i] * new_i + y[j] * new_j == pytest.approx(y[i] * alpha[i] + y[j] * alpha[j])
    d_i, d_j = new_i - alpha[i], new_j - alpha[j]
    f.update_gradient(n, grad, Q_i, d_i, Q_j, d_j)
    alpha[i], alpha[j] = new_i, new_j
    np.testing.assert_allclose(grad, y * (K @ (y * alpha)) + p, atol=1e-12)
    # Shrinking puts exactly the bounded variables that cannot move at the back.
    for t in range(n):
        f.set_status(t, alpha, C, status)
    _, m, M = f.select_i(n, y, grad, status, 0.0)
    new_to_old = np.empty(n, dtype=np.int64)
    kept = f.shrink(n, n, y, grad, status, m, M, m, M, new_to_old)
    score = -y * grad
    up = np.array([f.in_up(status[t], y[t]) for t in range(n)])
    expected = [(status[t] != steps.FREE) and ((up[t] and score[t] < M) or
                                               (not up[t] and score[t] > m))
                for t in range(n)]
    assert sorted(new_to_old[kept:].tolist()) == [t for t in range(n) if expected[t]]
    assert sorted(new_to_old.tolist()) == list(range(n))
    # The gradient rebuilt from grad_bar for the variables set aside.
    grad_bar = np.array([sum(C[s] * y[t] * y[s] * K[t, s] for s in range(n)
                             if status[s] == steps.UPPER) for t in range(n)])
    rebuilt = grad.copy()
    rebuilt[3:] = 99.0
    f.reconstruct_gradient(steps.gram_rows(K), 3, n, order, y, alpha, rebuilt, grad_bar, p, status)
    # Only the free variables in the active prefix contribute besides grad_bar:
    # the exact gradient when every free variable is in the prefix.
    if np.all(status[3:] != steps.FREE):
        np.testing.assert_allclose(rebuilt, grad, atol=1e-12)


# ------------------------------------------- built-in kernels: the compiled row cache

def exact_gram(source):
    """The Gram matrix from the row source's own kernel values (the same rounding)."""
    n = source.XT.shape[1]
    return np.array([[steps.COMPILED.kernel_value(source, i, t) for t in range(n)]
                     for i in range(n)])


CACHE_CASES = {
    "rbf": (dict(kernel="rbf", gamma=1.0), {"C": 50.0}),
    "linear": (dict(kernel="linear"), {"C": 20.0}),
    "poly": (dict(kernel="poly", gamma=0.5, coef0=1.0, degree=3), {"C": 5.0}),
    "nu_svc": (dict(kernel="rbf", gamma=1.0), {"C": 1.0, "nu_solver": True}),
}


def cache_problem(name):
    X, y = datasets.moons(150, noise=0.3, random_state=8)
    y = y.astype(float)
    params, options = CACHE_CASES[name]
    options = dict(options)
    if options.get("nu_solver"):
        start = np.zeros(150)
        for label in (1.0, -1.0):
            start[np.flatnonzero(y == label)[:20]] = 1.0
        options.update(p=np.zeros(150), alpha0=start)
    kernel = kernels.get_kernel(params.pop("kernel"), **params)
    return X, y, kernel, options


@pytest.mark.parametrize("name", sorted(CACHE_CASES))
def test_compiled_row_cache_takes_the_steps_of_the_gram_matrix(name):
    """Rows of a built-in kernel computed into the compiled cache (small enough
    that rows are evicted, re-packed at every shrinking and grown back when the
    gradient is rebuilt) against the Gram matrix of the same kernel values:
    identical working sets and iterates, compiled and interpreted alike."""
    X, y, kernel, options = cache_problem(name)
    source = source_for(kernel, X)
    K = exact_gram(source)
    gram = solve_dual_smo(K, y, tol=1e-6, record_trace=True, **options)
    assert gram.converged
    assert gram.info["shrink_events"] >= (0 if options.get("nu_solver") else 2)
    for compiled in (True, False):
        cached = solve_dual_smo(kernel, y, X=X, tol=1e-6, precompute_kernel=False,
                                cache_size=10 * 150 * 8 / 2**20, record_trace=True,
                                compiled=compiled, **options)
        assert not cached.info["kernel_precomputed"]
        distinct = {t for step in cached.trace for t in (step["i"], step["j"])}
        assert cached.info["cache_misses"] > len(distinct)   # rows evicted and recomputed
        assert cached.info["compiled"] == (compiled and steps.HAVE_NUMBA)
        assert_identical_steps(gram, cached)


def source_for(kernel, X):
    """The compiled row source of a built-in kernel on the points X."""
    kind, gamma, coef0, degree = _named_kernel(kernel)
    return steps.kernel_rows(kind, X, gamma, coef0, degree)


def test_kernel_rows_values_match_svmlib_kernels():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 4))
    for name, params in [("linear", {}), ("rbf", {"gamma": 0.7}),
                         ("poly", {"gamma": 0.3, "coef0": 2.0, "degree": 4})]:
        kernel = kernels.get_kernel(name, **params)
        K = exact_gram(source_for(kernel, X))
        np.testing.assert_allclose(K, kernel(X, X), rtol=1e-12, atol=1e-12)
        diag = steps.COMPILED.kernel_diagonal(source_for(kernel, X),
                                              np.empty(30))
        np.testing.assert_allclose(diag, np.diagonal(kernel(X, X)), rtol=1e-12)


@pytest.mark.parametrize("name", ["linear", "rbf", "poly"])
def test_kernel_block_over_several_tiles_equals_kernel_value_exactly(name):
    """kernel_block sums each inner product feature by feature, tile by tile
    (KERNEL_TILE positions at a time): over a range that starts and ends inside
    a tile, its values are those of kernel_value to the last bit."""
    from svmlib._smo_rows import KERNEL_TILE
    params = {"linear": {}, "rbf": {"gamma": 0.4},
              "poly": {"gamma": 0.3, "coef0": 1.0, "degree": 3}}[name]
    rng = np.random.default_rng(5)
    n = 2 * KERNEL_TILE + 190
    source = source_for(kernels.get_kernel(name, **params), rng.normal(size=(n, 7)))
    start, stop, i = 37, n - 11, 400
    expected = np.array([steps.COMPILED.kernel_value(source, i, t) for t in range(start, stop)])
    for ns in (steps.COMPILED, steps.INTERPRETED):
        dest = np.full(stop - start + 5, np.nan)
        ns.kernel_block(source, i, start, stop, dest, 3)
        np.testing.assert_array_equal(dest[3:3 + stop - start], expected)
        assert np.isnan(dest[:3]).all() and np.isnan(dest[3 + stop - start:]).all()


@pytest.mark.parametrize("ns", ["INTERPRETED", "COMPILED"])
def test_row_cache_is_lru_bounded_and_follows_the_working_order(ns):
    """The cache keeps the most recently used rows within its budget, and after
    a permutation (shrinking) and a growth (gradient rebuilt) every row it still
    holds has the kernel values of the current working order."""
    f = getattr(steps, ns)
    rng = np.random.default_rng(5)
    n = 12
    X = rng.normal(size=(n, 3))
    y = np.where(rng.normal(size=n) > 0, 1.0, -1.0)
    source = steps.kernel_rows(steps.RBF, X, gamma=0.5, cache_size=3 * n * 8 / 2**20)
    order = np.arange(n, dtype=np.int64)
    out = np.empty(n)
    K = kernels.rbf(X, X, gamma=0.5)
    for i in (0, 1, 2, 0, 3):              # 1 is the least recently used when 3 arrives
        row = f.kernel_row(source, y, order, i, n, out)
        np.testing.assert_allclose(row, y[i] * y * K[i], rtol=1e-12)
    cached = sorted(source.owner[:source.cstate[steps.USED]].tolist())
    assert cached == [0, 2, 3] and source.slot_of[1] == -1
    assert source.cstate[steps.HITS] == 1 and source.cstate[steps.MISSES] == 4
    assert source.pool.size <= 3 * n
    # Shrinking: a new working order, 7 active positions; rows are cut to 7 and
    # more of them fit (3 * 12 // 7 = 5 slots).
    new_to_old = rng.permutation(n).astype(np.int64)
    order = order[new_to_old]
    y_work = y[new_to_old]
    f.permute_rows(source, new_to_old, 7)
    assert source.cstate[steps.STRIDE] == 7 and source.cstate[steps.SLOTS] == 5
    for k in range(n):
        row = f.kernel_row(source, y_work, order, k, 7, out)
        assert row.shape == (7,)
        np.testing.assert_allclose(row, y_work[k] * y_work[:7] * K[order[k], order[:7]],
                                   rtol=1e-12)
        # a full row: the first 7 values from the cache, the rest computed
        row = f.kernel_row(source, y_work, order, k, n, out)
        assert row is out
        np.testing.assert_allclose(row, y_work[k] * y_work * K[order[k], order], rtol=1e-12)
    assert source.cstate[steps.USED] == 5
    f.grow_rows(source)
    assert source.cstate[steps.STRIDE] == n and source.cstate[steps.USED] == 3
    for k in range(n):
        row = f.kernel_row(source, y_work, order, k, n, out)
        np.testing.assert_allclose(row, y_work[k] * y_work * K[order[k], order], rtol=1e-12)


def test_no_n_by_n_matrix_for_a_large_problem():
    """n = 3,000 with a 4 MB cache: the rows live in the budget, not in a Gram matrix."""
    X, y = datasets.overlapping_blobs(3000, random_state=1)
    result = solve_dual_smo(kernels.get_kernel("rbf", gamma=0.5), y, X=X, C=1.0,
                            cache_size=4.0)
    assert result.converged and not result.info["kernel_precomputed"]
    reference = solve_dual_smo(kernels.rbf(X, X, gamma=0.5), y, C=1.0)
    assert result.objective == pytest.approx(reference.objective, rel=1e-6)


@pytest.mark.skipif(not steps.HAVE_NUMBA, reason="Numba's runtime counts the allocations")
def test_compiled_solves_free_every_allocation_and_repeat_exactly():
    """The iteration runs without reference counting (_nrt=False) beside
    functions that allocate scratch arrays (_nrt=True): over repeated solves
    along every compiled path (evictions, re-packing, the gradient rebuilt,
    Solver_NU), Numba's runtime frees exactly the memory it allocated, and
    each solve repeats bit for bit.  (It cannot see a count left on an array
    that Python owns: the rule that no function without counting returns an
    array to one with it is kept by reading the decorators.)"""
    from numba.core.runtime import _nrt_python, rtsys
    X, y = datasets.moons(600, noise=0.3, random_state=4)
    y = np.where(y > 0, 1.0, -1.0)
    rbf = kernels.get_kernel("rbf", gamma=2.0)
    start = np.zeros(600)
    for label in (1.0, -1.0):
        start[np.flatnonzero(y == label)[:60]] = 1.0

    def solves():
        return [solve_dual_smo(rbf, y, C=10.0, X=X, cache_size=0.3).alpha,   # evictions, re-packing
                solve_dual_smo(rbf, y, C=10.0, X=X, precompute_kernel=False).alpha,
                solve_dual_smo(rbf(X, X), y, C=10.0).alpha,                  # the Gram matrix
                solve_dual_smo(rbf, y, C=1.0, X=X, p=np.zeros(600), alpha0=start,
                               nu_solver=True, cache_size=0.3).alpha]

    first = solves()
    _nrt_python.memsys_enable_stats()
    before = rtsys.get_allocation_stats()
    again = solves()
    after = rtsys.get_allocation_stats()
    assert after.alloc - before.alloc > 0
    assert after.alloc - before.alloc == after.free - before.free
    assert after.mi_alloc - before.mi_alloc == after.mi_free - before.mi_free
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
