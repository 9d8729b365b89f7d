"""svmlib.LinearSVR against LIBLINEAR (scikit-learn's LinearSVR) and the theory.

Both losses are solved by dual coordinate descent (Ho & Lin 2012, LIBLINEAR's
solvers 13 and 12).  The primal is strictly convex (the regularizer
``1/2 ||w_hat||^2``), so the two libraries, which visit the coordinates in
different random orders, must reach the same weights; they are compared on
the primal objective (relative difference) and on the predictions, at a tight
tolerance where the comparison says something (tol = 1e-10) and at the
default one.  Theory: weak duality for any feasible multipliers, a zero
duality gap at the solution, the KKT conditions that tie each multiplier to
its residual, and ``w = sum_i beta_i x_hat_i``.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVR as LIBLINEAR

from svmlib import LinearSVR
from svmlib.linear import linear_svr_dual, linear_svr_primal, solve_linear_svr_dual_cd

LOSSES = ["epsilon_insensitive", "squared_epsilon_insensitive"]
TIGHT = dict(tol=1e-10, max_iter=200_000)


def regression_data(n=200, p=5, noise=0.3, seed=0, offset=2.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = X @ rng.normal(size=p) + noise * rng.normal(size=n) + offset
    return X, y


def objective(model, X, y, loss, epsilon, C=1.0, intercept_scaling=1.0, fit_intercept=True,
              sample_weight=None):
    b = float(np.ravel(model.intercept_)[0]) if fit_intercept else 0.0
    return linear_svr_primal(model.coef_, b, X, y, C=C, epsilon=epsilon, loss=loss,
                             intercept_scaling=intercept_scaling, fit_intercept=fit_intercept,
                             sample_weight=sample_weight)


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("epsilon, C, fit_intercept, intercept_scaling",
                         [(0.0, 1.0, True, 1.0), (0.2, 0.1, True, 1.0), (0.5, 10.0, False, 1.0),
                          (0.1, 1.0, True, 10.0)])
@pytest.mark.parametrize("sparse", [False, True])
def test_same_solution_as_liblinear_at_a_tight_tolerance(loss, epsilon, C, fit_intercept,
                                                         intercept_scaling, sparse):
    X, y = regression_data(seed=int(10 * epsilon + C))
    Xf = sp.csr_matrix(X) if sparse else X
    params = dict(loss=loss, epsilon=epsilon, C=C, fit_intercept=fit_intercept,
                  intercept_scaling=intercept_scaling, **TIGHT)
    ours = LinearSVR(**params).fit(Xf, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        theirs = LIBLINEAR(dual=True, random_state=0, **params).fit(Xf, y)
    args = (X, y, loss, epsilon, C, intercept_scaling, fit_intercept)
    p_ours, p_theirs = objective(ours, *args), objective(theirs, *args)
    assert abs(p_ours - p_theirs) <= 1e-7 * abs(p_theirs)
    np.testing.assert_allclose(ours.predict(Xf), theirs.predict(Xf), rtol=0, atol=1e-4)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-4)
    assert ours.coef_.shape == theirs.coef_.shape == (X.shape[1],)
    if fit_intercept:
        assert ours.intercept_.shape == (1,)
        np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=0, atol=1e-4)
    else:
        assert ours.intercept_ == theirs.intercept_ == 0.0


@pytest.mark.parametrize("loss", LOSSES)
def test_default_tolerance_is_as_close_to_the_optimum_as_liblinear(loss):
    X, y = regression_data(n=500, p=8, seed=3)
    best = objective(LinearSVR(loss=loss, epsilon=0.1, **TIGHT).fit(X, y), X, y, loss, 0.1)
    with warnings.catch_warnings():
        # The epsilon-insensitive loss needs more than the default 1000 passes here
        # to meet tol = 1e-4, in both libraries; the objective is close anyway.
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = objective(LinearSVR(loss=loss, epsilon=0.1).fit(X, y), X, y, loss, 0.1)
        theirs = objective(LIBLINEAR(loss=loss, epsilon=0.1, dual=True, random_state=0).fit(X, y),
                           X, y, loss, 0.1)
    # LIBLINEAR's rule (violations down to tol = 1e-4 of the first pass's) leaves the
    # objective within 1e-3 of the optimum on this problem for both solvers.
    assert best <= ours <= best * (1 + 1e-3)
    assert best <= theirs * (1 + 1e-12)
    assert abs(ours - theirs) <= 1e-3 * best


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("epsilon", [0.0, 0.3])
def test_duality_and_kkt(loss, epsilon):
    X, y = regression_data(n=150, p=4, seed=7)
    C = 0.5
    result = solve_linear_svr_dual_cd(X, y, C=C, epsilon=epsilon, loss=loss, **TIGHT)
    beta, w, b = result["beta"], result["w"], result["b"]
    assert result["converged"]
    # w = sum_i beta_i x_i, and the bias is the weight of the constant feature 1.
    np.testing.assert_allclose(w, X.T @ beta, rtol=0, atol=1e-10)
    assert b == pytest.approx(beta.sum(), abs=1e-10)
    primal = linear_svr_primal(w, b, X, y, C=C, epsilon=epsilon, loss=loss)
    dual = linear_svr_dual(beta, X, y, C=C, epsilon=epsilon, loss=loss)
    assert abs(primal - dual) <= 1e-8 * abs(primal)                 # zero duality gap
    residual = y - (X @ w + b)
    tube = 1e-6
    at_zero = beta == 0
    assert np.all(np.abs(residual[at_zero]) <= epsilon + tube)
    if loss == "epsilon_insensitive":
        assert np.all(np.abs(beta) <= C)
        free = ~at_zero & (np.abs(beta) < C)
        assert np.all(np.abs(np.abs(residual[free]) - epsilon) <= tube)    # on the tube's edge
        if epsilon > 0:                                             # r_i = epsilon sign(beta_i)
            assert np.all(np.sign(residual[free]) == np.sign(beta[free]))
        bound = np.abs(beta) == C
        assert np.all(np.abs(residual[bound]) >= epsilon - tube)
        assert free.sum() > 0 and bound.sum() > 0                   # both kinds are tested
    else:
        # stationarity of the squared loss: beta_i = 2 C (|r_i| - epsilon)_+ sign(r_i)
        expected = 2 * C * np.maximum(np.abs(residual) - epsilon, 0) * np.sign(residual)
        np.testing.assert_allclose(beta, expected, rtol=0, atol=1e-6)


@pytest.mark.parametrize("loss", LOSSES)
def test_weak_duality_before_convergence(loss):
    X, y = regression_data(n=120, p=3, seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for passes in (1, 2, 5):
            r = solve_linear_svr_dual_cd(X, y, C=2.0, epsilon=0.1, loss=loss, tol=1e-12,
                                         max_iter=passes)
            assert not r["converged"] and r["n_iter"] == passes
            primal = linear_svr_primal(r["w"], r["b"], X, y, C=2.0, epsilon=0.1, loss=loss)
            dual = linear_svr_dual(r["beta"], X, y, C=2.0, epsilon=0.1, loss=loss)
            assert dual <= primal + 1e-12


@pytest.mark.parametrize("loss", LOSSES)
def test_sparse_and_dense_input_give_the_same_fit(loss):
    X, y = regression_data(n=100, p=6, seed=4)
    X[np.abs(X) < 0.7] = 0.0                                      # about half the entries
    dense = LinearSVR(loss=loss, epsilon=0.1, random_state=3).fit(X, y)
    sparse = LinearSVR(loss=loss, epsilon=0.1, random_state=3).fit(sp.csr_matrix(X), y)
    # The same steps in the same order: the sparse loop skips only exact zeros.
    assert np.array_equal(dense.coef_, sparse.coef_)
    assert np.array_equal(dense.intercept_, sparse.intercept_)
    assert dense.n_iter_ == sparse.n_iter_
    # Predictions: a dense and a sparse matrix-vector product, summed in other orders.
    np.testing.assert_allclose(dense.predict(X), sparse.predict(sp.csc_matrix(X)), rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("loss", LOSSES)
def test_sample_weight(loss):
    X, y = regression_data(n=80, p=3, seed=5)
    weights = np.random.default_rng(0).integers(0, 4, size=80).astype(float)
    weighted = LinearSVR(loss=loss, epsilon=0.1, **TIGHT).fit(X, y, sample_weight=weights)
    repeated = LinearSVR(loss=loss, epsilon=0.1, **TIGHT).fit(
        np.repeat(X, weights.astype(int), axis=0), np.repeat(y, weights.astype(int)))
    # A weight k is k copies of the sample; a weight 0 leaves it out.
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=0, atol=1e-6)
    np.testing.assert_allclose(weighted.intercept_, repeated.intercept_, rtol=0, atol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        theirs = LIBLINEAR(loss=loss, epsilon=0.1, dual=True, random_state=0, **TIGHT).fit(
            X, y, sample_weight=weights)
    args = (X, y, loss, 0.1)
    p_ours = objective(weighted, *args, sample_weight=weights)
    p_theirs = objective(theirs, *args, sample_weight=weights)
    assert abs(p_ours - p_theirs) <= 1e-7 * p_theirs
    ones = LinearSVR(loss=loss, epsilon=0.1, max_iter=10_000).fit(X, y,
                                                                  sample_weight=np.ones(80))
    plain = LinearSVR(loss=loss, epsilon=0.1, max_iter=10_000).fit(X, y)
    assert np.array_equal(ones.coef_, plain.coef_)


def test_dual_rules_follow_scikit_learn():
    X, y = regression_data(n=60, p=3, seed=6)
    with pytest.raises(ValueError, match="loss='epsilon_insensitive' are not supported when "
                                         "dual=False"):
        LinearSVR(dual=False).fit(X, y)
    # The squared loss has a primal and a dual: every choice gives the same solution.
    fits = [LinearSVR(loss="squared_epsilon_insensitive", dual=dual, **TIGHT).fit(X, y)
            for dual in ("auto", True, False)]
    for other in fits[1:]:
        np.testing.assert_allclose(other.coef_, fits[0].coef_, rtol=0, atol=1e-8)
    with pytest.raises(ValueError, match="dual must be 'auto', True or False; got dual='yes'"):
        LinearSVR(dual="yes").fit(X, y)


@pytest.mark.parametrize("params, match", [
    (dict(C=0.0), "C must be"), (dict(C=-1.0), "C must be"), (dict(C=np.inf), "C must be"),
    (dict(epsilon=-0.1), "epsilon must be a finite number >= 0; got epsilon=-0.1"),
    (dict(tol=0.0), "tol must be"), (dict(loss="hinge"), "loss must be one of"),
    (dict(fit_intercept="yes"), "fit_intercept must be True or False"),
    (dict(intercept_scaling=0.0), "intercept_scaling must be"),
    (dict(max_iter=0), "max_iter must be"), (dict(verbose=-1), "verbose must be"),
    (dict(random_state=-3), "random_state must be"),
])
def test_bad_parameters_are_named_with_their_value(params, match):
    X, y = regression_data(n=20, p=2)
    with pytest.raises(ValueError, match=match):
        LinearSVR(**params).fit(X, y)


def test_bad_sample_weight_and_data():
    X, y = regression_data(n=20, p=2)
    with pytest.raises(ValueError, match=r"sample_weight.shape == \(3,\), expected \(20,\)"):
        LinearSVR().fit(X, y, sample_weight=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="non-negative; got 1 negative"):
        LinearSVR().fit(X, y, sample_weight=np.r_[-1.0, np.ones(19)])
    with pytest.raises(ValueError, match="at least one positive weight"):
        LinearSVR().fit(X, y, sample_weight=np.zeros(20))
    with pytest.raises(ValueError, match="y must not contain NaN"):
        LinearSVR().fit(X, np.r_[np.nan, y[1:]])
    model = LinearSVR().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features, but LinearSVR is expecting 2"):
        model.predict(np.ones((4, 3)))


def test_convergence_warning_verbose_and_random_state(capsys):
    X, y = regression_data(n=100, p=4, seed=8)
    with pytest.warns(ConvergenceWarning, match="max_iter=2 passes"):
        LinearSVR(max_iter=2, tol=1e-12).fit(X, y)
    # epsilon = 0.1: the epsilon-insensitive loss with epsilon = 0 needs more than
    # 1000 passes on these data (LIBLINEAR's too), which is not what is tested here.
    quick = dict(epsilon=0.1, max_iter=10_000)
    LinearSVR(verbose=1, **quick).fit(X, y)
    out = capsys.readouterr().out
    assert out.startswith("LinearSVR (dual_cd): ") and "primal objective" in out and "dual" in out
    a = LinearSVR(random_state=np.random.RandomState(4), **quick).fit(X, y)
    b = LinearSVR(random_state=np.random.RandomState(4), **quick).fit(X, y)
    assert np.array_equal(a.coef_, b.coef_)
    c = clone(LinearSVR(random_state=1, **quick)).fit(X, y)
    assert c.score(X, y) > 0.9                     # R^2 of a good linear fit
