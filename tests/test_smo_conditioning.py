"""SMO on a badly conditioned problem: the cubic kernel on unscaled features.

scikit-learn's check_fit_idempotent, check_fit_check_is_fitted and
check_n_features_in train on 100 points drawn around (100, 100) (2 features,
random labels).  With ``SVC(kernel="poly")`` (degree 3, ``coef0=0``,
``gamma="scale"``, about 0.48 here) the kernel values are about 1e12, and
the cubic kernel of 2 features has a 4-dimensional feature space: the Gram
matrix has rank 4, with eigenvalues 8.9e13, 1.4e10, 1.3e6 and 49 (a condition
number of 2e12), and all the others are rounding noise (below 0.02).  SMO, a
coordinate method, crawls on such a problem: its dual objective is 0.59 after
3 million iterations and 1.95 at the 10-million limit (the same algorithm
without shrinking: 7.2 after 40 million), while weak duality bounds it by 100.

LIBSVM reports convergence on the same data after 1.5 million iterations
because it stores kernel rows in single precision (``Qfloat``): rounding
values of 1e12 to float32 changes each entry by up to 3.3e4 (half the
spacing of float32 numbers there, 65,536), which adds eigenvalues of
+-3.5e5 (the two smallest directions of the kernel drown) and makes ``Q``
indefinite; LIBSVM solves *that* problem (a different one: its dual objective
exceeds every bound of the true problem).  Its multipliers, put into the true
dual, give a *negative* objective, worse than not training at all.

These tests pin the diagnosis (svmlib's gradient does not drift: the
non-convergence is the problem's conditioning, not rounding in the solver),
the ConvergenceWarning of an explicit ``max_iter`` that names the way out
(``max_iter=-1`` has no limit, as in scikit-learn: tests/test_max_iter.py),
and that the way out (scaling the features) converges to LIBSVM's objective.
"""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC, kernels
from svmlib.objectives import max_kkt_violation
from svmlib.smo import solve_dual_smo


def _check_data():
    """The data of check_n_features_in (check_fit_idempotent trains on 80 of them)."""
    rng = np.random.RandomState(0)
    X = rng.normal(loc=100, size=(100, 2))
    y = rng.randint(low=0, high=2, size=100)
    return X, y


def _cubic_problem():
    X, y = _check_data()
    gamma = kernels.resolve_gamma("scale", X)
    K = kernels.get_kernel("poly", gamma=gamma, degree=3, coef0=0.0)(X, X)
    y_pm = np.where(y == 1, 1.0, -1.0)
    return X, y, y_pm, gamma, K


def _dual(alpha, Q):
    return float(alpha.sum() - 0.5 * alpha @ Q @ alpha)


def test_the_cubic_gram_matrix_has_rank_four():
    *_, K = _cubic_problem()
    eigenvalues = np.linalg.eigvalsh(K)
    top = eigenvalues[-1]
    assert 1e13 < top < 1e15
    # Four eigenvalues stand out (the dimension of the feature space of a
    # homogeneous cubic in two variables; measured: 8.9e13, 1.4e10, 1.3e6,
    # 49) ...
    assert np.all(eigenvalues[-4:] > 1e-13 * top)
    # ... and the other 96 are rounding noise of both signs (measured: 0.02).
    assert np.all(np.abs(eigenvalues[:-4]) < 1e-14 * top)


def test_smo_gradient_does_not_drift_on_the_unscaled_cubic_problem():
    """After 300,000 iterations the solver's gradient is still Q alpha - 1 to
    well below tol: rounding in the solver is not why it has not converged."""
    _, _, y_pm, _, K = _cubic_problem()
    Q = y_pm[:, None] * y_pm[None, :] * K
    objectives = []
    for steps in (100_000, 300_000):
        with pytest.warns(ConvergenceWarning, match=f"max_iter={steps}"):
            result = solve_dual_smo(K, y_pm, C=1.0, max_iter=steps)
        assert not result.converged
        exact_gradient = Q @ result.alpha - 1.0
        recomputed = max_kkt_violation(result.alpha, exact_gradient, y_pm, 1.0)
        # The solver's KKT violation (from its own gradient) is the recomputed
        # one to 1e-3 (measured: 3e-6), while both are about 30, far above tol.
        assert abs(result.kkt_violation - recomputed) <= 1e-3
        assert recomputed > 1.0
        assert result.objective == pytest.approx(_dual(result.alpha, Q), abs=1e-3)
        objectives.append(result.objective)
    # The dual objective rises, slowly (0 at alpha = 0; measured: 0.020, 0.060),
    # and weak duality bounds it by the primal at w = 0, b = 0: C n = 100.
    assert 0.0 < objectives[0] < objectives[1] < 100.0


def test_libsvm_float32_rows_solve_another_problem():
    """LIBSVM's multipliers are worse than alpha = 0 for the true dual; its
    problem is the Gram matrix rounded to float32, which is indefinite, and
    on that matrix svmlib's SMO converges too."""
    X, y, y_pm, gamma, K = _cubic_problem()
    Q = y_pm[:, None] * y_pm[None, :] * K
    reference = SklearnSVC(kernel="poly", gamma=gamma, degree=3, coef0=0.0).fit(X, y)
    alpha_libsvm = np.zeros(len(y))
    alpha_libsvm[reference.support_] = np.abs(reference.dual_coef_[0])
    assert _dual(alpha_libsvm, Q) < -1000.0          # measured: -72,755

    K32 = K.astype(np.float32).astype(np.float64)    # LIBSVM's Qfloat rows
    # Rounding noise of +-3.5e5 (measured) in the eigenvalues: the matrix is
    # indefinite, and the two smallest directions of the kernel (49, 1.3e6) drown.
    assert np.linalg.eigvalsh(K32)[0] < -1e5
    result = solve_dual_smo(K32, y_pm, C=1.0, max_iter=2_000_000)
    assert result.converged and result.kkt_violation <= 1e-3
    # Measured: 215,000 iterations (LIBSVM: 470,000 on the same matrix).
    assert result.n_iter < 1_000_000
    # An objective above the bound C n = 100 of every PSD problem on these
    # data: the rounded matrix is a different, non-convex, problem (measured:
    # 5.6e6 for svmlib, 5.4e6 for LIBSVM: two local maxima).
    assert result.objective > 1e6


def test_an_explicit_limit_stops_with_a_warning_naming_the_way_out():
    X, y, y_pm, _, K = _cubic_problem()
    with pytest.warns(ConvergenceWarning, match=r"max_iter=500 iterations .*> tol.*"
                                                r"max_iter=-1 \(no limit\).*StandardScaler"):
        result = solve_dual_smo(K, y_pm, C=1.0, max_iter=500)
    assert result.n_iter == 500 and not result.converged
    assert result.info["iteration_limit"] == 500
    with pytest.warns(ConvergenceWarning, match=r"max_iter=2000 iterations"):
        model = SVC(kernel="poly", max_iter=2000).fit(X, y)
    assert model.n_iter_[0] == 2000 and model.fit_status_ == 1


def test_scaled_features_converge_to_libsvms_objective():
    """The way out: on standardized features the same model converges in a few
    hundred iterations, with the theory checks and LIBSVM's objective."""
    X, y = _check_data()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = make_pipeline(StandardScaler(), SVC(kernel="poly")).fit(X, y)
    svc = model[-1]
    result = svc.solver_result_
    assert result.converged and result.n_iter < 10_000   # measured: 442 (LIBSVM: 401)
    Z = model[0].transform(X)
    y_pm = np.where(y == 1, 1.0, -1.0)
    K = (svc._gamma * Z @ Z.T) ** 3
    Q = y_pm[:, None] * y_pm[None, :] * K
    alpha = result.alpha
    # KKT from a gradient recomputed from scratch, and the duality gap.
    assert max_kkt_violation(alpha, Q @ alpha - 1.0, y_pm, 1.0) <= 1e-3
    decision = K @ (alpha * y_pm) + result.b
    primal = 0.5 * alpha @ Q @ alpha + np.maximum(0.0, 1.0 - y_pm * decision).sum()
    dual = _dual(alpha, Q)
    assert primal - dual <= 1e-3 * abs(dual)
    # LIBSVM on the same scaled data (its float32 rows are harmless at this
    # scale): the same dual objective to 1e-6 relative (measured: 1e-10).
    reference = SklearnSVC(kernel="poly", gamma=svc._gamma).fit(Z, y)
    alpha_libsvm = np.zeros(len(y))
    alpha_libsvm[reference.support_] = np.abs(reference.dual_coef_[0])
    assert dual == pytest.approx(_dual(alpha_libsvm, Q), rel=1e-6)
