"""``probability=True``: LIBSVM's cross-validated Platt scaling and pairwise coupling.

Three parts (see :mod:`svmlib.probability`), each tested on its own:

* the Platt fit, given the same decision values, is the minimizer of
  Platt's regularized cross-entropy (checked against SciPy and against
  scikit-learn's own Platt fit, to 1e-4);
* the coupling of Wu, Lin & Weng (method 2) is the solution of its
  quadratic program (checked against a direct solve of its KKT system);
* end to end against LIBSVM (``sklearn.svm.SVC(probability=True)``): the
  folds cannot be the same (each library shuffles with its own generator),
  so the comparison is on problems large enough that the fold noise in
  ``A`` and ``B`` is small: probabilities within 0.02 (measured: 0.005).
"""

import warnings

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn import svm as sk
from sklearn.datasets import make_blobs
from sklearn.exceptions import NotFittedError

from svmlib import SVC, NuSVC
from svmlib import svc as svc_module
from svmlib.probability import pairwise_coupling, platt_fit, platt_predict


@pytest.fixture(autouse=True)
def _quiet_deprecation():
    """Passing probability= is deprecated in scikit-learn 1.9 (tested below)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The `probability` parameter",
                                category=FutureWarning)
        warnings.filterwarnings("ignore", message="Attribute `prob", category=FutureWarning)
        yield


def _platt_objective(f, positive):
    n_pos, n_neg = positive.sum(), (~positive).sum()
    t = np.where(positive, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))

    def loss(ab):
        z = ab[0] * f + ab[1]                  # p = 1 / (1 + exp(z)) = P(+1)
        return np.sum(t * np.logaddexp(0, z) + (1 - t) * np.logaddexp(0, -z))
    return loss


# ------------------------------------------------------------ Platt's fit
@pytest.mark.parametrize("seed, shift", [(0, 0.0), (1, 1.5), (2, -0.7)])
def test_platt_fit_minimizes_platts_objective(seed, shift):
    rng = np.random.RandomState(seed)
    labels = np.where(rng.rand(300) < 0.4, 1, -1)
    f = labels * 1.2 + shift + rng.normal(scale=1.0, size=300)
    A, B, info = platt_fit(f, labels)
    assert info["converged"] and max(map(abs, info["gradient"])) < 1e-5
    loss = _platt_objective(f, labels > 0)
    best = minimize(loss, x0=[0.0, 0.0], method="BFGS", options={"gtol": 1e-10})
    # The minimizer, to 1e-4 (measured: 1e-7), and A < 0 since f > 0 means +1.
    np.testing.assert_allclose([A, B], best.x, rtol=0, atol=1e-4)
    assert A < 0
    assert loss([A, B]) <= best.fun + 1e-8


def test_platt_fit_agrees_with_scikit_learns_platt_fit():
    """scikit-learn's CalibratedClassifierCV fits the same objective (its own
    minimizer, L-BFGS); given the same decision values both find the same
    (A, B) to 1e-4."""
    from sklearn import calibration
    sigmoid = getattr(calibration, "_sigmoid_calibration", None)
    if sigmoid is None:
        pytest.skip("scikit-learn's private _sigmoid_calibration is not available")
    rng = np.random.RandomState(3)
    y = (rng.rand(400) < 0.5).astype(int)
    f = (2 * y - 1) * 0.8 + rng.normal(size=400)
    A, B, _ = platt_fit(f, y)
    a, b = sigmoid(f, y)
    np.testing.assert_allclose([A, B], [a, b], rtol=0, atol=1e-4)


def test_platt_fit_is_safe_for_separable_values():
    """Perfectly separated values: the optimum is finite thanks to Platt's
    targets (t_+ < 1, t_- > 0), and no exp overflows."""
    f = np.concatenate([np.linspace(5, 50, 50), -np.linspace(5, 50, 50)])
    labels = np.concatenate([np.ones(50), -np.ones(50)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        A, B, info = platt_fit(f, labels)
        p = platt_predict(f * 100, A, B)
    assert np.isfinite([A, B]).all() and A < 0
    assert np.all((p >= 0) & (p <= 1))
    with pytest.raises(ValueError, match="same length"):
        platt_fit(np.zeros(3), np.zeros(4))


# ------------------------------------------------------------ coupling
def _direct_coupling(r):
    """Solve min 1/2 p^T Q p s.t. sum p = 1 through its KKT system."""
    k = r.shape[0]
    Q = np.zeros((k, k))
    for t in range(k):
        for j in range(k):
            if j != t:
                Q[t, t] += r[j, t] ** 2
                Q[t, j] = -r[j, t] * r[t, j]
    system = np.block([[Q, np.ones((k, 1))], [np.ones((1, k)), np.zeros((1, 1))]])
    return np.linalg.solve(system, np.concatenate([np.zeros(k), [1.0]]))[:k]


@pytest.mark.parametrize("k", [3, 4, 6])
def test_pairwise_coupling_solves_its_quadratic_program(k):
    rng = np.random.RandomState(k)
    r = np.zeros((20, k, k))
    for s in range(20):
        for i in range(k):
            for j in range(i + 1, k):
                r[s, i, j] = rng.uniform(0.05, 0.95)
                r[s, j, i] = 1 - r[s, i, j]
    p = pairwise_coupling(r)
    direct = np.array([_direct_coupling(r[s]) for s in range(20)])
    assert np.all(direct >= 0)                 # the theorem: p >= 0 without a constraint
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    # LIBSVM's stopping rule, max |Qp - p^T Q p| < 0.005 / k, leaves p within
    # 0.01 of the exact solution (measured: below 1e-3).
    np.testing.assert_allclose(p, direct, rtol=0, atol=1e-2)


def test_pairwise_coupling_of_consistent_estimates_is_exact():
    """If r_ij = p_i / (p_i + p_j) for some p, that p is the solution (Q p = 0)."""
    p_true = np.array([0.5, 0.3, 0.15, 0.05])
    r = p_true[:, None] / (p_true[:, None] + p_true[None, :])
    p = pairwise_coupling(r[None])
    np.testing.assert_allclose(p[0], p_true, rtol=0, atol=1e-3)


# ------------------------------------------------------------ end to end vs LIBSVM
def _binary():
    X, y = make_blobs(1000, centers=2, cluster_std=3.0, random_state=0)
    X_test, _ = make_blobs(300, centers=2, cluster_std=3.0, random_state=1)
    return X, y, X_test


@pytest.mark.parametrize("seed", [0, 1])
def test_binary_probabilities_match_libsvm(seed):
    X, y, X_test = _binary()
    ours = SVC(probability=True, random_state=seed).fit(X, y)
    theirs = sk.SVC(probability=True, random_state=seed).fit(X, y)
    P, P_ref = ours.predict_proba(X_test), theirs.predict_proba(X_test)
    assert P.shape == (300, 2)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert np.max(np.abs(P - P_ref)) <= 0.02          # measured: 0.005
    # LIBSVM's orientation: A < 0 makes P(classes_[0]) grow with -decision_function.
    assert ours.probA_.shape == (1,) and ours.probA_[0] < 0
    np.testing.assert_allclose(ours.probA_, theirs.probA_, rtol=0.05)
    np.testing.assert_allclose(ours.predict_log_proba(X_test), np.log(P), rtol=0, atol=0)
    # probability=True does not change the SVM itself.
    plain = SVC().fit(X, y)
    np.testing.assert_array_equal(ours.predict(X_test), plain.predict(X_test))
    np.testing.assert_allclose(ours.decision_function(X_test),
                               plain.decision_function(X_test), rtol=0, atol=0)


def test_multiclass_probabilities_match_libsvm():
    X, y = make_blobs(900, centers=3, cluster_std=2.5, random_state=0)
    ours = SVC(probability=True, random_state=0).fit(X, y)
    theirs = sk.SVC(probability=True, random_state=0).fit(X, y)
    P = ours.predict_proba(X)
    assert P.shape == (900, 3)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert np.max(np.abs(P - theirs.predict_proba(X))) <= 0.02     # measured: 0.006
    assert ours.probA_.shape == ours.probB_.shape == (3,)
    # The coupling of the model's own pairwise probabilities, solved directly.
    values = SVC(decision_function_shape="ovo").fit(X, y).decision_function(X[:5])
    pair = np.clip(platt_predict(values, ours.probA_, ours.probB_), 1e-7, 1 - 1e-7)
    for s in range(5):
        r = np.zeros((3, 3))
        for p, (i, j) in enumerate([(0, 1), (0, 2), (1, 2)]):
            r[i, j], r[j, i] = pair[s, p], 1 - pair[s, p]
        np.testing.assert_allclose(P[s], _direct_coupling(r), rtol=0, atol=1e-2)


def test_nu_svc_probabilities_match_libsvm():
    """nu well above nu_min for these data (overlapping blobs: each fold's
    margin rho is far from 0; measured 4.2 on the whole set)."""
    X, y, X_test = _binary()
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        ours = NuSVC(nu=0.7, probability=True, random_state=0).fit(X, y)
    theirs = sk.NuSVC(nu=0.7, probability=True, random_state=0).fit(X, y)
    assert np.max(np.abs(ours.predict_proba(X_test) - theirs.predict_proba(X_test))) <= 0.02


def test_random_state_controls_the_folds():
    X, y, X_test = _binary()
    a = SVC(probability=True, random_state=0).fit(X, y)
    b = SVC(probability=True, random_state=0).fit(X, y)
    c = SVC(probability=True, random_state=1).fit(X, y)
    np.testing.assert_array_equal(a.probA_, b.probA_)
    np.testing.assert_array_equal(a.predict_proba(X_test), b.predict_proba(X_test))
    assert a.probA_[0] != c.probA_[0]
    rng = np.random.RandomState(7)
    d = SVC(probability=True, random_state=rng).fit(X, y)
    e = SVC(probability=True, random_state=np.random.RandomState(7)).fit(X, y)
    np.testing.assert_array_equal(d.probB_, e.probB_)


def test_sample_weight_and_class_weight_reach_the_folds():
    """The folds keep each sample's bound C * class_weight * sample_weight: a
    heavy class shifts the sigmoid (B), as in LIBSVM (same sign of the shift)."""
    X, y, _ = _binary()
    plain = SVC(probability=True, random_state=0).fit(X, y)
    weighted = SVC(probability=True, random_state=0, class_weight={0: 10.0}).fit(X, y)
    ref_plain = sk.SVC(probability=True, random_state=0).fit(X, y)
    ref_weighted = sk.SVC(probability=True, random_state=0, class_weight={0: 10.0}).fit(X, y)
    assert np.sign(weighted.probB_[0] - plain.probB_[0]) == \
        np.sign(ref_weighted.probB_[0] - ref_plain.probB_[0])


# ------------------------------------------------------------ scikit-learn's API
def test_deprecation_behaviour_of_scikit_learn_1_9():
    X, y, X_test = _binary()
    assert SVC().probability == "deprecated" and NuSVC().probability == "deprecated"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = SVC().fit(X, y)                      # the default: no warning
    assert not hasattr(model, "predict_proba")
    with pytest.raises(AttributeError) as error:
        model.predict_proba(X_test)
    # available_if's message, caused by scikit-learn's own (as for sklearn.svm.SVC).
    assert str(error.value.__cause__) == "predict_proba is not available when probability=False"
    for value in (True, False):
        with pytest.warns(FutureWarning, match=r"The `probability` parameter was deprecated "
                                               r"in 1.9.*CalibratedClassifierCV\(SVC\(\), "
                                               r"ensemble=False\)") as record:
            SVC(probability=value).fit(X, y)
        assert len([w for w in record if issubclass(w.category, FutureWarning)]) == 1
    with pytest.warns(FutureWarning, match=r"CalibratedClassifierCV\(NuSVC\(\)"):
        NuSVC(nu=0.7, probability=False).fit(X, y)
    with pytest.warns(FutureWarning, match="Attribute `probA_` was deprecated in version 1.9"):
        assert model.probA_.shape == (0,)
    # Fitted without, then switched on: scikit-learn's NotFittedError.
    model.set_params(probability=True)
    with pytest.raises(NotFittedError, match="fitted with probability=False"):
        model.predict_proba(X_test)


def test_probability_is_checked():
    X, y, _ = _binary()
    with pytest.raises(ValueError, match=r"probability must be True, False or 'deprecated'.*"
                                         r"got probability='yes'"):
        SVC(probability="yes").fit(X, y)


def test_without_scikit_learns_deprecation(monkeypatch):
    """With a scikit-learn older than 1.9 there is no FutureWarning."""
    monkeypatch.setattr(svc_module, "PROBABILITY_DEPRECATED", False)
    X, y, X_test = _binary()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = SVC(probability=True, random_state=0).fit(X, y)
        assert model.probA_.shape == (1,)
        assert model.predict_proba(X_test).shape == (300, 2)


def test_a_fold_with_one_class_gets_its_sign():
    """LIBSVM's rule: a training part with one class only gives the fold +1 or -1."""
    X = np.array([[0.0], [0.1], [0.2], [0.3], [0.4], [0.5], [5.0]])
    y = np.array([0, 0, 0, 0, 0, 0, 1])
    model = SVC(probability=True, random_state=0, kernel="linear").fit(X, y)
    assert np.isfinite(model.probA_).all() and np.isfinite(model.probB_).all()
    P = model.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-12)


# ------------------------------------------------------------ scikit-learn's checks
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

from test_estimator_checks import EXPECTED_FAILED_CHECKS  # noqa: E402


@parametrize_with_checks([SVC(probability=True, random_state=0)],
                         expected_failed_checks=lambda est: EXPECTED_FAILED_CHECKS)
def test_probability_svc_passes_the_estimator_checks(estimator, check):
    """With probability=True (predict_proba and predict_log_proba exposed, a
    fixed random_state), SVC passes the same checks as SVC()."""
    check(estimator)
