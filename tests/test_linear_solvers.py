"""LIBLINEAR's other solvers in svmlib (issue 28): primal Newton, L1 coordinate descent, Crammer–Singer.

Each is compared with scikit-learn's LinearSVC/LinearSVR (LIBLINEAR) on the
same problem: the same predictions, objectives within the tolerance, the same
zero pattern for the L1 penalty, the same iteration counts where the method is
deterministic (Newton); and with the theory: optimality conditions (gradient,
subgradient, KKT) and zero duality gaps.  Dense and CSR input run the same
loop; the compiled loops make the same steps as their plain-Python source.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.svm import LinearSVC as LIBLINEAR
from sklearn.svm import LinearSVR as LIBLINEAR_SVR

from svmlib import LinearSVC, LinearSVR
from svmlib import _linear_cs, _linear_l1, _linear_newton
from svmlib._linear_rows import HAVE_NUMBA, columns_of, plain, rows_of
from svmlib.linear import (crammer_singer_dual, crammer_singer_primal, linear_svm_dual,
                           linear_svm_l1_primal, linear_svm_primal, solve_crammer_singer)

TIGHT = dict(tol=1e-10, max_iter=100_000)


def binary_problem(n=300, p=12, seed=0, useless=6):
    """Labels from a few features; ``useless`` columns carry nothing (L1 should drop them)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    w = rng.normal(size=p)
    w[p - useless:] = 0.0
    y = np.where(X @ w + 0.7 * rng.normal(size=n) + 0.3 > 0, 1, 0)
    return X, y


def three_class_problem(n=240, seed=1):
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 2.0], [-1.8, -1.0], [1.8, -1.0]])
    y = np.arange(n) % 3
    X = centres[y] + 1.1 * rng.normal(size=(n, 2))
    return np.column_stack([X, 0.3 * rng.normal(size=(n, 2))]), y


def sparse_version(X, seed=0):
    """The same matrix with about half of its entries set to 0, and as CSR."""
    rng = np.random.default_rng(seed)
    X = np.where(rng.random(X.shape) < 0.5, 0.0, X)
    return X, sp.csr_matrix(X)


def liblinear(**options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return LIBLINEAR(random_state=0, **options)


# ------------------------------------------------------------ primal Newton (solver 2)

@pytest.mark.parametrize("C", [0.05, 1.0, 20.0])
@pytest.mark.parametrize("sparse", [False, True])
def test_newton_matches_liblinear_step_for_step(C, sparse):
    X, y = binary_problem(seed=2)
    if sparse:
        X = sparse_version(X)[1]
    ours = LinearSVC(C=C, dual=False, tol=1e-6).fit(X, y)
    ref = liblinear(C=C, dual=False, tol=1e-6).fit(X, y)
    assert ours.solver_ == "primal_newton"
    assert ours.n_iter_ == ref.n_iter_            # the method is deterministic
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=0, atol=1e-9)
    assert np.array_equal(ours.predict(X), ref.predict(X))


def test_newton_gradient_vanishes_and_duality_gap_closes():
    X, y = binary_problem(seed=3)
    y_pm = np.where(y == 1, 1.0, -1.0)
    model = LinearSVC(C=0.5, dual=False, **TIGHT).fit(X, y)
    w, b = model.coef_[0], model.intercept_[0]
    # grad f = w_hat - 2 C sum_i y_i x_hat_i max(0, 1 - y_i f(x_i)) = w_hat - sum_i alpha_i y_i x_hat_i
    alpha = model.dual_coef_[0]
    X_hat = np.column_stack([X, np.ones(len(y))])
    grad = np.r_[w, b] - X_hat.T @ (alpha * y_pm)
    assert np.linalg.norm(grad) <= 1e-7 * np.linalg.norm(X_hat.T @ y_pm)
    primal = linear_svm_primal(w, b, X, y_pm, 0.5, "squared_hinge")
    dual = linear_svm_dual(alpha, X, y_pm, 0.5, "squared_hinge")
    assert dual <= primal + 1e-12 and primal - dual <= 1e-8 * primal
    dcd = LinearSVC(C=0.5, dual=True, **TIGHT).fit(X, y)
    np.testing.assert_allclose(model.coef_, dcd.coef_, rtol=0, atol=1e-6)


def test_newton_with_weights_and_one_vs_rest_matches_liblinear():
    X, y = three_class_problem()
    sw = np.random.default_rng(4).integers(0, 3, size=len(y)).astype(float)
    cw = {0: 2.0, 1: 0.5, 2: 1.0}
    ours = LinearSVC(C=0.3, dual=False, class_weight=cw, tol=1e-8).fit(X, y, sample_weight=sw)
    ref = liblinear(C=0.3, dual=False, class_weight=cw, tol=1e-8).fit(X, y, sample_weight=sw)
    assert ours.n_iter_ == ref.n_iter_
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-8)
    assert np.array_equal(ours.predict(X), ref.predict(X))


def test_linear_svr_primal_newton_matches_liblinear():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(200, 6))
    y = X @ rng.normal(size=6) + 0.3 * rng.normal(size=200)
    for data in (X, sp.csr_matrix(sparse_version(X)[0])):
        ours = LinearSVR(loss="squared_epsilon_insensitive", epsilon=0.2, dual=False,
                         tol=1e-6).fit(data, y)
        ref = LIBLINEAR_SVR(loss="squared_epsilon_insensitive", epsilon=0.2, dual=False,
                            tol=1e-6).fit(data, y)
        assert ours.solver_ == "primal_newton" and ours.n_iter_ == ref.n_iter_
        np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-9)
        np.testing.assert_allclose(ours.predict(data), ref.predict(data), rtol=0, atol=1e-8)


# ------------------------------------------------------------ L1 coordinate descent (solver 5)

@pytest.mark.parametrize("C", [0.005, 0.02, 2.0])
def test_l1_same_zero_pattern_and_objective_as_liblinear(C):
    X, y = binary_problem(n=400, p=20, seed=6, useless=12)
    y_pm = np.where(y == 1, 1.0, -1.0)
    ours = LinearSVC(penalty="l1", dual=False, C=C, tol=1e-8, max_iter=100_000).fit(X, y)
    ref = liblinear(penalty="l1", dual=False, C=C, tol=1e-8, max_iter=100_000).fit(X, y)
    assert ours.solver_ == "l1_cd"
    assert np.array_equal(ours.coef_ == 0, ref.coef_ == 0)
    if C <= 0.02:                                  # a strong enough penalty: sparse weights
        assert np.count_nonzero(ours.coef_) <= X.shape[1] - 6
    p_ours = ours.objective(X, y)[0]
    p_ref = linear_svm_l1_primal(ref.coef_[0], ref.intercept_[0], X, y_pm, C)
    assert abs(p_ours - p_ref) <= 1e-7 * p_ref
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-5)
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.995


def test_l1_subgradient_optimality():
    X, y = binary_problem(n=300, p=15, seed=7, useless=8)
    y_pm = np.where(y == 1, 1.0, -1.0)
    C = 0.01
    model = LinearSVC(penalty="l1", dual=False, C=C, tol=1e-10, max_iter=100_000).fit(X, y)
    w_hat = np.r_[model.coef_[0], model.intercept_[0]]
    X_hat = np.column_stack([X, np.ones(len(y))])
    slack = np.maximum(0.0, 1.0 - y_pm * (X_hat @ w_hat))
    grad = -2.0 * C * X_hat.T @ (y_pm * slack)           # gradient of the loss part
    zero = w_hat == 0
    # 0 in grad + d||w||_1: |grad_j| <= 1 at zeros, grad_j = -sign(w_j) elsewhere.
    assert np.all(np.abs(grad[zero]) <= 1 + 1e-6)
    np.testing.assert_allclose(grad[~zero], -np.sign(w_hat[~zero]), rtol=0, atol=1e-6)
    assert zero.sum() >= 5


def test_l1_dense_and_sparse_input_give_the_same_fit():
    X, y = binary_problem(n=200, p=10, seed=8)
    X_dense, X_csr = sparse_version(X, seed=1)
    a = LinearSVC(penalty="l1", dual=False, C=0.3).fit(X_dense, y)
    b = LinearSVC(penalty="l1", dual=False, C=0.3).fit(X_csr, y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=0, atol=1e-12)
    assert a.n_iter_ == b.n_iter_


def test_l1_multiclass_and_weights_match_liblinear():
    X, y = three_class_problem(seed=2)
    sw = np.random.default_rng(9).integers(1, 3, size=len(y)).astype(float)
    kw = dict(penalty="l1", dual=False, C=0.2, class_weight="balanced", tol=1e-8,
              max_iter=100_000)
    ours = LinearSVC(**kw).fit(X, y, sample_weight=sw)
    ref = liblinear(**kw).fit(X, y, sample_weight=sw)
    assert np.array_equal(ours.coef_ == 0, ref.coef_ == 0)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-5)
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.99


# ------------------------------------------------------------ Crammer–Singer (solver 4)

@pytest.mark.parametrize("sparse", [False, True])
def test_crammer_singer_matches_liblinear(sparse):
    X, y = three_class_problem(seed=3)
    data = sparse_version(X)[1] if sparse else X
    dense = data.toarray() if sparse else X
    ours = LinearSVC(multi_class="crammer_singer", C=0.5, tol=1e-8, max_iter=100_000).fit(data, y)
    ref = liblinear(multi_class="crammer_singer", C=0.5, tol=1e-8, max_iter=100_000).fit(data, y)
    assert ours.solver_ == "crammer_singer" and ours.coef_.shape == ref.coef_.shape == (3, 4)
    p_ours = ours.objective(dense, y)[0]
    p_ref = crammer_singer_primal(ref.coef_, ref.intercept_, dense, y, 0.5)
    assert abs(p_ours - p_ref) <= 1e-6 * p_ref
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-4)
    # Rows whose entries are all 0 (about 1 in 16 of the sparse version) score the
    # intercepts alone, which differ by ~1e-5 between the two: compare the other rows.
    top2 = np.sort(ref.decision_function(data), axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-3
    assert clear.mean() > 0.75
    assert np.array_equal(ours.predict(data)[clear], ref.predict(data)[clear])


def test_crammer_singer_duality_and_feasibility():
    X, y = three_class_problem(seed=4)
    C = 0.7
    result = solve_crammer_singer(X, y, 3, C=C, tol=1e-10, max_iter=100_000)
    alpha = result["alpha"]
    np.testing.assert_allclose(alpha.sum(axis=1), 0.0, atol=1e-12)      # sum_m alpha_i^m = 0
    bound = np.zeros_like(alpha)
    bound[np.arange(len(y)), y] = C
    assert np.all(alpha <= bound + 1e-12)
    # w_m = sum_i alpha_i^m x_hat_i, and a zero duality gap.
    np.testing.assert_allclose(result["W"], (X.T @ alpha).T, rtol=0, atol=1e-8)
    primal = crammer_singer_primal(result["W"], result["b"], X, y, C)
    dual = crammer_singer_dual(alpha, X, y)
    assert dual <= primal + 1e-10 and primal - dual <= 1e-7 * primal
    # Any feasible point gives a lower bound: shrink the solution towards 0.
    assert crammer_singer_dual(0.5 * alpha, X, y) <= primal


def test_crammer_singer_binary_and_ignored_options_follow_scikit_learn():
    X, y = binary_problem(n=150, p=4, seed=10, useless=0)
    kw = dict(multi_class="crammer_singer", C=1.0, tol=1e-8, max_iter=100_000,
              penalty="l1", loss="hinge", dual=True)        # ignored, as in scikit-learn
    ours = LinearSVC(**kw).fit(X, y)
    ref = liblinear(**kw).fit(X, y)
    assert ours.coef_.shape == ref.coef_.shape == (1, 4)
    assert ours.decision_function(X).shape == (150,)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-4)
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.99


# ------------------------------------------------------------ options, sparsify, compiled = interpreted

@pytest.mark.parametrize("shape, options, expected", [
    ((50, 3), {}, "primal_newton"), ((3, 50), {}, "dual_cd"),
    ((50, 3), dict(loss="hinge"), "dual_cd"), ((3, 50), dict(penalty="l1"), "l1_cd"),
    ((50, 3), dict(dual=True), "dual_cd"), ((3, 50), dict(dual=False), "primal_newton"),
    ((50, 3), dict(multi_class="crammer_singer", dual=False), "crammer_singer"),
])
def test_dual_auto_chooses_as_scikit_learn(shape, options, expected):
    rng = np.random.default_rng(0)
    X = rng.normal(size=shape)
    y = np.arange(shape[0]) % 2
    assert LinearSVC(**options).fit(X, y).solver_ == expected


def test_bad_multi_class_is_named():
    X, y = binary_problem(n=30, p=3)
    with pytest.raises(ValueError, match="multi_class must be one of 'ovr', 'crammer_singer'; "
                                         "got multi_class='ovo'"):
        LinearSVC(multi_class="ovo").fit(X, y)


def test_sparsify_and_densify():
    X, y = binary_problem(n=200, p=30, seed=11, useless=25)
    model = LinearSVC(penalty="l1", dual=False, C=0.05)
    with pytest.raises(NotFittedError):
        model.sparsify()
    model.fit(X, y)
    dense_scores = model.decision_function(X)
    objective = model.objective(X, y)
    assert model.sparsify() is model and sp.issparse(model.coef_)
    assert model.coef_.nnz == np.count_nonzero(model.coef_.toarray()) < 30
    np.testing.assert_allclose(model.decision_function(X), dense_scores, rtol=0, atol=1e-12)
    np.testing.assert_allclose(model.objective(X, y), objective, rtol=1e-14)
    assert np.array_equal(model.predict(sp.csr_matrix(X)), model.predict(X))
    assert model.densify() is model and isinstance(model.coef_, np.ndarray)
    np.testing.assert_allclose(model.decision_function(X), dense_scores, rtol=0, atol=1e-12)



@pytest.mark.skipif(not HAVE_NUMBA, reason="without Numba the loops are the interpreted source")
@pytest.mark.parametrize("solver", ["newton", "l1", "crammer_singer"])
def test_compiled_loops_make_the_steps_of_their_source(solver):
    X, y = three_class_problem(n=60, seed=5)
    y_pm = np.where(y == 0, 1.0, -1.0)
    C = np.full(len(y), 0.5)
    results = []
    for run in (lambda f: f, plain):
        if solver == "newton":
            w = np.zeros(X.shape[1] + 1)
            it = run(_linear_newton.tron)(*rows_of(X), 1.0, _linear_newton.SVC, y_pm, C, 0.0, w,
                                          1e-6, 100)
            results.append((it, w))
        elif solver == "l1":
            w = np.zeros(X.shape[1] + 1)
            it = run(_linear_l1.l1_cd)(*columns_of(X, 1.0, y_pm), len(y), C, w, 1e-4, 1000, 7)
            results.append((it, w))
        else:
            W = np.zeros((X.shape[1] + 1, 3))
            alpha = np.zeros((len(y), 3))
            it = run(_linear_cs.crammer_singer)(*rows_of(X), 1.0, y.astype(np.int64), C, 3, W,
                                                alpha, 1e-4, 1000, 7)
            results.append((it, W))
    assert results[0][0] == results[1][0]
    np.testing.assert_array_equal(results[0][1], results[1][1])
