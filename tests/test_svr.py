"""svmlib.SVR: against LIBSVM (sklearn.svm.SVR), against the theory, its input checks.

* LIBSVM: on four data sets and five kernels, the dual objective agrees to
  1e-4 (relative), the support vectors are the same up to ties (a point in
  one set only lies on the edge of the tube, ``|z - f(x)| = epsilon``, where
  its multiplier may be 0 or tiny) and the predictions agree to a small
  fraction of the spread of the targets.  Both solvers stop at the same
  tolerance.
* Theory: the KKT conditions of the dual in ``beta = alpha - alpha*`` (inside
  the tube ``beta = 0``, on its edge ``|beta| < C``, outside ``|beta| = C``
  with the sign of the residual), ``sum beta = 0``, ``alpha alpha* = 0``, and a
  zero duality gap against the primal ``1/2 ||w||^2 + C sum max(0, |z - f| -
  epsilon)``.
* The hard tube (``C=np.inf``, which scikit-learn accepts): LIBSVM's solution
  where a function fits in the tube, every target within ``epsilon``;
  NotSeparableError, saying why, where none fits or only far too steep ones.
* A kernel function is called with every training point at prediction time,
  as scikit-learn calls it.
* ``check_estimator`` for SVR with the RBF and the linear kernel.
"""

import numpy as np
import pytest
import scipy.sparse
from sklearn import datasets as skdata
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR as LibsvmSVR
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmlib import SVR, NotSeparableError, kernels

TOL = 1e-4


def _sets():
    rng = np.random.default_rng(0)
    x = np.sort(rng.uniform(-3, 3, 120))[:, None]
    sine = (x, np.sin(x[:, 0]) + 0.1 * rng.normal(size=120))
    X_lin = rng.normal(size=(100, 3))
    linear = (X_lin, X_lin @ np.array([1.0, -2.0, 0.5]) + 0.3 + 0.2 * rng.normal(size=100))
    X_f, y_f = skdata.make_friedman1(n_samples=150, noise=0.5, random_state=0)
    diabetes = skdata.load_diabetes()
    X_d = StandardScaler().fit_transform(diabetes.data[:200])
    y_d = diabetes.target[:200]
    return {
        "sine": sine,
        "linear": linear,
        "friedman1": (X_f, (y_f - y_f.mean()) / y_f.std()),
        "diabetes": (X_d, (y_d - y_d.mean()) / y_d.std()),
    }


SETS = _sets()
KERNELS = [
    {"kernel": "linear"},
    {"kernel": "rbf", "gamma": "scale"},
    {"kernel": "rbf", "gamma": 2.0, "C": 10.0, "epsilon": 0.05},
    {"kernel": "poly", "degree": 3, "coef0": 1.0, "gamma": "scale", "C": 0.5},
    {"kernel": "poly", "degree": 2, "coef0": 0.0, "gamma": 0.5, "C": 0.1, "epsilon": 0.2},
]


def _gram(model, A, B):
    if model.kernel == "linear":
        return kernels.linear(A, B)
    if model.kernel == "rbf":
        return kernels.rbf(A, B, gamma=model._gamma)
    return kernels.polynomial(A, B, degree=model.degree, coef0=model.coef0, gamma=model._gamma)


def dual_objective(model, coef, sv, z_sv):
    """LIBSVM's minimized dual in beta: 1/2 beta^T K beta + epsilon |beta|_1 - z^T beta."""
    return (0.5 * coef @ _gram(model, sv, sv) @ coef + model.epsilon * np.abs(coef).sum()
            - z_sv @ coef)


@pytest.mark.parametrize("params", KERNELS, ids=lambda p: "-".join(str(v) for v in p.values()))
@pytest.mark.parametrize("name", list(SETS))
def test_svr_agrees_with_libsvm(name, params):
    X, z = SETS[name]
    ours = SVR(tol=TOL, **params).fit(X, z)
    ref = LibsvmSVR(tol=TOL, **params).fit(X, z)
    assert ours.fit_status_ == 0
    F_ours = dual_objective(ours, ours.dual_coef_[0], ours.support_vectors_, z[ours.support_])
    F_ref = dual_objective(ours, ref.dual_coef_[0], ref.support_vectors_, z[ref.support_])
    assert F_ours == pytest.approx(F_ref, rel=1e-4, abs=1e-8)
    # Same support vectors up to ties: a point in one set only is on the tube's edge.
    differing = np.setxor1d(ours.support_, ref.support_)
    if differing.size:
        residual = np.abs(z[differing] - ref.predict(X[differing]))
        np.testing.assert_allclose(residual, ours.epsilon, atol=0.01)
    assert differing.size <= max(2, 0.05 * ref.support_.size)
    # Close predictions (the targets have spread about 1).
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=5e-3 * z.std())
    assert ours.intercept_[0] == pytest.approx(ref.intercept_[0], abs=5e-3 * z.std())


def check_svr_kkt(model, X, z, delta):
    """The KKT conditions of the SVR dual at ``model``'s solution, up to ``delta``."""
    C, eps = model.C, model.epsilon
    alpha, alpha_star = model.alpha_
    beta = alpha - alpha_star
    residual = z - model.predict(X)
    assert np.all((alpha >= 0) & (alpha <= C) & (alpha_star >= 0) & (alpha_star <= C))
    assert abs(beta.sum()) <= 1e-10 * max(1.0, np.abs(beta).sum())
    if eps > 0:
        assert np.all(np.minimum(alpha, alpha_star) == 0)
    small = 1e-12 * C
    zero = np.abs(beta) <= small
    at_c = np.abs(beta) >= C - small
    free = ~zero & ~at_c
    assert np.all(np.abs(residual[zero]) <= eps + delta)         # inside the tube
    assert np.all(np.abs(np.abs(residual[free]) - eps) <= delta)  # on its edge
    assert np.all(np.sign(residual[free]) == np.sign(beta[free]))
    assert np.all(np.abs(residual[at_c]) >= eps - delta)          # outside
    assert np.all(np.sign(residual[at_c & (np.abs(residual) > delta)])
                  == np.sign(beta[at_c & (np.abs(residual) > delta)]))
    return beta, residual


@pytest.mark.parametrize("params", KERNELS, ids=lambda p: "-".join(str(v) for v in p.values()))
@pytest.mark.parametrize("name", ["sine", "friedman1"])
def test_svr_kkt_and_zero_duality_gap(name, params):
    X, z = SETS[name]
    model = SVR(tol=1e-6, **params).fit(X, z)
    beta, residual = check_svr_kkt(model, X, z, delta=1e-5)
    K = _gram(model, X, X)
    primal = 0.5 * beta @ K @ beta + model.C * np.maximum(0.0, np.abs(residual)
                                                          - model.epsilon).sum()
    dual = -(0.5 * beta @ K @ beta + model.epsilon * np.abs(beta).sum() - z @ beta)
    assert primal >= dual - 1e-9 * max(1.0, abs(primal))     # weak duality
    assert primal - dual <= 1e-5 * max(1.0, abs(primal))     # zero gap at the solution


def test_epsilon_controls_the_tube():
    """Wider tube, fewer support vectors; inside-tube points never are support vectors."""
    X, z = SETS["sine"]
    counts = []
    for eps in (0.0, 0.05, 0.1, 0.2, 0.5):
        model = SVR(C=1.0, epsilon=eps, gamma=1.0, tol=1e-5).fit(X, z)
        inside = np.abs(z - model.predict(X)) < eps - 1e-4
        assert not np.isin(np.flatnonzero(inside), model.support_).any()
        counts.append(model.support_.size)
    assert counts == sorted(counts, reverse=True) and counts[0] == z.size > counts[-1]


@pytest.mark.parametrize("C", [1.0, np.inf])
def test_a_tube_wider_than_the_targets_gives_a_constant(C):
    """Closed form: with 2 epsilon > max z - min z the flat function b fits inside the tube.

    Then w = 0 and every b in [max z - epsilon, min z + epsilon] is optimal;
    with no free multiplier, LIBSVM's rule takes the midpoint (max z + min z) / 2.
    """
    X, z = SETS["friedman1"]
    epsilon = (z.max() - z.min()) / 2 + 0.01
    ours = SVR(C=C, epsilon=epsilon).fit(X, z)
    ref = LibsvmSVR(C=C, epsilon=epsilon).fit(X, z)
    assert ours.support_.size == ref.support_.size == 0
    assert ours.intercept_[0] == pytest.approx((z.max() + z.min()) / 2, abs=1e-12)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-12)


#: Hard tubes that some function fits: a plane with noise up to 0.48 (linear
#: kernel, half-widths 0.5 and 1.0), Friedman's problem with the RBF kernel
#: (distinct points, so its Gram matrix is positive definite and interpolates).
HARD_TUBES = [
    ("linear", {"kernel": "linear", "epsilon": 0.5}),
    ("linear", {"kernel": "linear", "epsilon": 1.0}),
    ("friedman1", {"kernel": "rbf", "gamma": 1.0, "epsilon": 0.1}),
]


@pytest.mark.parametrize("name, params", HARD_TUBES,
                         ids=lambda v: "-".join(map(str, v.values())) if isinstance(v, dict)
                         else v)
def test_hard_tube_agrees_with_libsvm(name, params):
    """SVR(C=np.inf): every target within epsilon, and LIBSVM's solution.

    With ``C = inf`` the dual has no upper bound; it is bounded above when a
    function fits in the tube, and then SMO reaches the same solution as
    LIBSVM (both at tol=1e-6).  As long as no multiplier reaches 1e10,
    ``C=1e10`` is the same problem, solved by the same steps.
    """
    X, z = SETS[name]
    ours = SVR(C=np.inf, tol=1e-6, **params).fit(X, z)
    ref = LibsvmSVR(C=np.inf, tol=1e-6, **params).fit(X, z)
    assert ours.fit_status_ == 0
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=0, atol=1e-5)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    # Theory: the KKT conditions of the dual (no multiplier at a bound C), and
    # the hard tube itself, every residual at most epsilon (up to tol).
    check_svr_kkt(ours, X, z, delta=1e-5)
    assert np.abs(z - ours.predict(X)).max() <= params["epsilon"] + 1e-5
    large = SVR(C=1e10, tol=1e-6, **params).fit(X, z)
    np.testing.assert_array_equal(ours.predict(X), large.predict(X))
    sparse = SVR(C=np.inf, tol=1e-6, **params).fit(scipy.sparse.csr_matrix(X), z)
    np.testing.assert_array_equal(sparse.predict(X), ours.predict(X))


def test_hard_tube_that_no_function_fits_is_refused():
    """An empty tube: a linear program says so before SMO starts (as SVC's hard margin)."""
    X, z = SETS["linear"]       # a plane plus noise of standard deviation 0.2
    with pytest.raises(NotSeparableError, match=r"no function stays within epsilon=0\.1 of "
                       r"every target, so the hard-tube problem .* Use a finite C"):
        SVR(kernel="linear", C=np.inf, epsilon=0.1).fit(X, z)
    # The RBF kernel interpolates distinct points: only a repeated point whose
    # targets differ by more than 2 epsilon leaves the tube empty.
    X_twice = np.vstack([X, X[:1]])
    with pytest.raises(NotSeparableError, match="no function in the kernel's feature space"):
        SVR(C=np.inf, epsilon=0.1).fit(X_twice, np.r_[z, z[0] + 0.3])
    inside = SVR(C=np.inf, epsilon=0.1, tol=1e-6).fit(X_twice, np.r_[z, z[0] + 0.15])
    assert np.abs(np.r_[z, z[0] + 0.15] - inside.predict(X_twice)).max() <= 0.1 + 1e-5


def test_hard_tube_holding_only_steep_functions_fails_fast():
    """A tube that is not empty, but only for functions 1e4 times steeper than the targets need.

    Two points 1e-6 apart with targets 1 apart: the RBF kernel interpolates
    them, with ``||w||`` about 5.7e5 where the targets' half-range beyond the
    tube (0.4) over the radius (1) asks for 0.4.  SMO's dual objective proves
    it in one step, as it proves a vanishing margin for SVC.
    """
    X = np.array([[0.0], [1e-6], [1.0], [2.0]])
    z = np.array([0.0, 1.0, 0.5, 0.5])
    with pytest.raises(NotSeparableError, match=r"SVR\(C=inf\) asks for a function within "
                       r"epsilon=0\.1 .* more than 10000 times the least value .* feasibility "
                       r"test found a function in the tube"):
        SVR(C=np.inf, gamma=1.0).fit(X, z)


def test_a_kernel_function_sees_every_training_point_at_predict():
    """As scikit-learn: ``kernel(X, X_fit)`` against all training points, then the
    support vectors' columns (svmlib once passed the support vectors alone)."""
    X, z = SETS["sine"]
    seen = []

    def kernel(A, B):
        seen.append(B.shape[0])
        return kernels.rbf(A, B, gamma=1.0)

    ours = SVR(kernel=kernel, tol=1e-6).fit(X, z)
    assert ours.support_.size < z.size       # (so the test tells the two ways apart)
    seen.clear()
    prediction = ours.predict(X[:9])
    assert seen == [z.size]
    ref = LibsvmSVR(kernel=lambda A, B: kernels.rbf(A, B, gamma=1.0), tol=1e-6).fit(X, z)
    np.testing.assert_allclose(prediction, ref.predict(X[:9]), rtol=0, atol=1e-5)


def test_linear_svr_coef_and_precomputed_and_callable_kernels():
    X, z = SETS["linear"]
    lin = SVR(kernel="linear", C=1.0, epsilon=0.1, tol=1e-6).fit(X, z)
    np.testing.assert_allclose(lin.predict(X), X @ lin.coef_[0] + lin.intercept_[0], atol=1e-10)
    np.testing.assert_allclose(lin.coef_[0], [1.0, -2.0, 0.5], atol=0.15)
    with pytest.raises(AttributeError, match="linear kernel"):
        SVR().fit(X, z).coef_
    rbf = SVR(gamma=0.3, tol=1e-6).fit(X, z)
    K = kernels.rbf(X, X, gamma=0.3)
    pre = SVR(kernel="precomputed", tol=1e-6).fit(K, z)
    np.testing.assert_array_equal(pre.support_, rbf.support_)
    # Same problem, other arithmetic (the 2n x 2n Gram matrix against kernel rows).
    np.testing.assert_allclose(pre.predict(K), rbf.predict(X), atol=1e-5)
    assert pre.support_vectors_.shape == (pre.support_.size, 0)
    call = SVR(kernel=lambda A, B: kernels.rbf(A, B, gamma=0.3), tol=1e-6).fit(X, z)
    np.testing.assert_allclose(call.predict(X[:7]), rbf.predict(X[:7]), atol=1e-5)


def test_sample_weight_matches_libsvm_and_means_repetition():
    X, z = SETS["sine"]
    rng = np.random.default_rng(1)
    weight = rng.uniform(0.2, 3.0, size=z.size)
    weight[:5] = 0.0
    ours = SVR(gamma=1.0, tol=1e-6).fit(X, z, sample_weight=weight)
    ref = LibsvmSVR(gamma=1.0, tol=1e-6).fit(X, z, sample_weight=weight)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-4)
    assert not np.isin(np.arange(5), ours.support_).any()   # weight 0: left out
    assert np.all(np.abs(ours.dual_coef_[0]) <= weight[ours.support_] * ours.C + 1e-12)
    # A weight of 2 is the same primal problem as the sample written twice.
    doubled = SVR(gamma=1.0, tol=1e-8).fit(np.vstack([X, X[:10]]), np.r_[z, z[:10]])
    weighted = SVR(gamma=1.0, tol=1e-8).fit(X, z, sample_weight=np.r_[np.full(10, 2.0),
                                                                        np.ones(z.size - 10)])
    np.testing.assert_allclose(weighted.predict(X), doubled.predict(X), atol=1e-5)


def test_epsilon_zero_and_one_sample():
    X, z = SETS["sine"]
    ours = SVR(epsilon=0.0, gamma=1.0, tol=1e-5).fit(X, z)
    ref = LibsvmSVR(epsilon=0.0, gamma=1.0, tol=1e-5).fit(X, z)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-3)
    one = SVR().fit([[1.0, 2.0]], [3.0])
    assert one.predict([[0.0, 0.0]]).shape == (1,)


@pytest.mark.parametrize("params, pattern", [
    ({"epsilon": -0.1}, r"epsilon must be a finite number >= 0; got epsilon=-0\.1"),
    ({"epsilon": np.inf}, r"epsilon must be a finite number >= 0"),
    ({"epsilon": "wide"}, r"epsilon must be a finite number >= 0; got epsilon='wide'"),
    ({"C": 0.0}, r"C must be a number > 0 \(or np.inf\); got C=0\.0"),
    ({"C": -np.inf}, r"C must be a number > 0 \(or np.inf\); got C=-inf"),
    ({"kernel": "sigmoidal"}, r"kernel must be one of"),
    ({"gamma": -1.0}, r"gamma must be a number > 0"),
    ({"max_iter": 0}, r"max_iter must be -1"),
    ({"tol": 0}, r"tol must be a number > 0"),
])
def test_bad_parameters_are_named(params, pattern):
    X, z = SETS["sine"]
    with pytest.raises(ValueError, match=pattern):
        SVR(**params).fit(X, z)


def test_bad_input_is_explained():
    X, z = SETS["sine"]
    with pytest.raises(ValueError, match="SVR requires y to be passed"):
        SVR().fit(X, None)
    with pytest.raises(ValueError, match="y must hold numbers"):
        SVR().fit(X, np.array(["a"] * z.size))
    with pytest.raises(ValueError, match=r"y must not contain NaN or infinity; got 1 NaN"):
        SVR().fit(X, np.r_[np.nan, z[1:]])
    with pytest.raises(ValueError, match="y must be a 1-D array"):
        SVR().fit(X, np.c_[z, z])
    with pytest.raises(ValueError, match="same number of samples"):
        SVR().fit(X, z[:-1])
    with pytest.raises(ValueError, match=r"sample_weight must have shape \(120,\)"):
        SVR().fit(X, z, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="all samples have zero or negative weight"):
        SVR().fit(X, z, sample_weight=np.zeros(z.size))
    model = SVR().fit(X, z)
    with pytest.raises(ValueError, match="X has 2 features, but SVR is expecting 1"):
        model.predict(np.ones((3, 2)))
    with pytest.raises(ValueError, match="square Gram matrix"):
        SVR(kernel="precomputed").fit(np.ones((4, 3)), np.arange(4.0))


#: check name -> reason (scikit-learn lists its own SVR as failing the same check).
EXPECTED_FAILED_CHECKS = {
    "check_sample_weight_equivalence_on_dense_data": (
        "A weight of 2 is the same primal problem as a repeated sample, but the two dual "
        "problems differ (a pair of multipliers with bound 2C against two pairs with bound "
        "C) and are solved to tol=1e-3, so the predictions agree to about 1e-3, not to the "
        "check's rtol=1e-7 (and gamma='scale' sees the variance of the repeated data). "
        "test_sample_weight_matches_libsvm_and_means_repetition checks the equivalence at "
        "tol=1e-8 with a fixed gamma."),
}
# The same check on sparse data (the estimator takes sparse input): the same reason.
EXPECTED_FAILED_CHECKS["check_sample_weight_equivalence_on_sparse_data"] = \
    EXPECTED_FAILED_CHECKS["check_sample_weight_equivalence_on_dense_data"]


@parametrize_with_checks([SVR(), SVR(kernel="linear")],
                         expected_failed_checks=lambda estimator: EXPECTED_FAILED_CHECKS)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)

