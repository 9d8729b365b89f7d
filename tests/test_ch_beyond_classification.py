"""Tests of the chapter "Beyond classification": figures, widgets and checkers of chapter 12."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from scipy.optimize import minimize  # noqa: E402

from svmlib import SVR, OneClassSVM  # noqa: E402
from svmlib.exercises import beyond_classification as bex  # noqa: E402
from svmlib.kernels import rbf  # noqa: E402
from svmlib.plotting import beyond_classification as bplot  # noqa: E402
from svmlib.widgets import beyond_classification as bw  # noqa: E402
from svmlib.widgets._core import MAX_HTML_BYTES  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _curve(n, seed):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0.0, 6.0, n))
    return x, np.sin(x) + 0.1 * x + rng.normal(0.0, 0.2, n)


@pytest.fixture(scope="module")
def regression():
    x, y = _curve(40, 0)
    x_val, y_val = _curve(200, 1)
    return x, y, x_val, y_val


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(2)
    return np.vstack([rng.normal([0.0, 0.0], 0.6, size=(60, 2)),
                      rng.normal([2.6, 1.6], 0.4, size=(30, 2))])


# ------------------------------------------------------------ the theory of the chapter
def test_svr_dual_in_smo_form_matches_svr(regression):
    """(eq-beyond-svr-generic) solved by SLSQP gives svmlib's dual_coef_ and zero gap."""
    x, y, _, _ = regression
    C, eps, gamma = 1.0, 0.2, 0.5
    X = x[:, None]
    K = rbf(X, X, gamma=gamma)
    Q, p, z = bex.svr_dual_arrays_reference(K, y, eps)
    res = minimize(lambda v: 0.5 * v @ Q @ v + p @ v, np.zeros(2 * len(y)),
                   jac=lambda v: Q @ v + p, method="SLSQP", bounds=[(0, C)] * (2 * len(y)),
                   constraints=[{"type": "eq", "fun": lambda v: z @ v, "jac": lambda v: z}],
                   options={"ftol": 1e-12, "maxiter": 1000})
    assert res.success
    n = len(y)
    model = SVR(kernel="rbf", C=C, epsilon=eps, gamma=gamma, tol=1e-6).fit(X, y)
    beta = np.zeros(n)
    beta[model.support_] = model.dual_coef_[0]
    np.testing.assert_allclose(res.x[:n] - res.x[n:], beta, atol=1e-4)
    assert np.max(np.minimum(res.x[:n], res.x[n:])) < 1e-6          # one multiplier per point
    primal = 0.5 * beta @ K @ beta + C * np.sum(
        bex.eps_loss_reference(y - model.predict(X), eps))
    assert primal == pytest.approx(-res.fun, rel=1e-5)                  # zero duality gap
    # the KKT cases (eq-beyond-svr-cases)
    cases = bplot.tube_cases(beta, C)
    gap = np.abs(y - model.predict(X)) - eps
    assert np.all(gap[cases == 0] <= 1e-4)
    assert np.all(np.abs(gap[cases == 1]) <= 1e-4)
    assert np.all(gap[cases == 2] >= -1e-4)


def test_krr_reference_is_stationary():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(7, 3))
    K, y, lam = A @ A.T, rng.normal(size=7), 0.3
    alpha = bex.krr_reference(K, y, lam)
    np.testing.assert_allclose(lam * alpha, y - K @ alpha, atol=1e-12)   # alpha_i = r_i / lam


# ------------------------------------------------------------ tube_cases
def test_tube_cases():
    cases = bplot.tube_cases([0.0, 1e-9, 0.3, -0.5, 1.0, -1.0, -0.9999999], C=1.0)
    assert cases.tolist() == [0, 0, 1, 1, 2, 2, 2]
    with pytest.raises(ValueError, match="C must be a finite number > 0; got C=0"):
        bplot.tube_cases([0.1], C=0)
    with pytest.raises(ValueError, match="shape"):
        bplot.tube_cases(np.zeros((2, 2)), C=1.0)


# ------------------------------------------------------------ figures
def test_figures_draw(regression, blobs):
    x, y, _, _ = regression
    model = SVR(kernel="rbf", C=1.0, epsilon=0.2, gamma=0.5).fit(x[:, None], y)
    beta = np.zeros(len(y))
    beta[model.support_] = model.dual_coef_[0]
    ax = bplot.plot_regression_losses(epsilon=0.3)
    assert len(ax.lines) == 3
    with pytest.raises(ValueError, match="epsilon must be >= 0"):
        bplot.plot_regression_losses(epsilon=-1)
    ax = bplot.plot_tube(model.predict, x, y, 0.2, beta=beta, C=1.0)
    assert len(ax.lines) == 3                                # f and the two edges
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert sum(int(s.rsplit(": ", 1)[1]) for s in labels) == len(y)
    with pytest.raises(ValueError, match="same length"):
        bplot.plot_tube(model.predict, x, y[:-1], 0.2)
    ax = bplot.plot_dual_coefficients(x, {"a": np.ones(len(x)), "b": beta})
    assert "40 of 40 nonzero" in ax.get_legend().get_texts()[0].get_text()
    with pytest.raises(ValueError, match="has 3 values for 40 points"):
        bplot.plot_dual_coefficients(x, {"a": np.ones(3)})
    X = blobs + 3.0
    ax = bplot.plot_origin_separation(X, [1.0, 1.0], 6.0)
    assert ax.get_xlim()[0] < 0 < ax.get_xlim()[1]           # the origin is in view
    with pytest.raises(ValueError, match="nonzero vector"):
        bplot.plot_origin_separation(X, [0.0, 0.0], 1.0)
    oc = OneClassSVM(kernel="rbf", nu=0.1, gamma=1.0).fit(blobs)
    bplot.plot_novelty_frontier(oc.decision_function, blobs, support=oc.support_,
                                X_new=[[5.0, 5.0]])
    ax = bplot.plot_score_histograms({"a": np.array([0.1, 0.2]), "b": np.array([-1.0, 0.3])})
    assert len(ax.patches) > 0
    fig, axes = plt.subplots(1, 2)
    bplot.plot_digit_gallery(np.zeros((2, 64)), ["a", "b"], axes)
    with pytest.raises(ValueError, match="as many images"):
        bplot.plot_digit_gallery(np.zeros((2, 64)), ["a"], axes)


# ------------------------------------------------------------ widgets
def test_tube_explorer_goal_is_the_sparsest_good_setting(regression):
    x, y, x_val, y_val = regression
    fig = bw.tube_explorer(x, y, x_val, y_val, gamma=0.5)
    assert fig.n_settings == len(bw.DEFAULT_SVR_CS) * len(bw.DEFAULT_EPSILONS)
    assert "support vectors of 40" in fig.initial_readout
    fits = fig.fits
    keys = [k for k in fits if k != "t"]
    best = min(fits[k]["val_rmse"] for k in keys)
    good = [k for k in keys if fits[k]["val_rmse"] <= 1.05 * best]
    fewest = min(fits[k]["n_support"] for k in good)
    reached = [k for k in keys if fig.goal(C=k[0], epsilon=k[1])]
    assert reached and all(k in good and fits[k]["n_support"] == fewest for k in reached)
    # counts are consistent: support vectors = on the edge + outside + bound ones on the edge
    for k in keys:
        assert fits[k]["n_edge"] + fits[k]["n_outside"] <= fits[k]["n_support"]
    html = fig.to_html()
    assert len(html.encode()) <= MAX_HTML_BYTES   # the frames move to files in the book


def test_tube_explorer_rejects_bad_input(regression):
    x, y, x_val, y_val = regression
    with pytest.raises(ValueError, match="same length"):
        bw.svr_grid_fits(x, y[:-1], x_val, y_val, Cs=[1.0], epsilons=[0.1])
    with pytest.raises(ValueError, match="one input per point"):
        bw.svr_grid_fits(np.zeros((40, 2)), y, x_val, y_val, Cs=[1.0], epsilons=[0.1])


def test_one_class_explorer_checks_the_nu_property(blobs):
    fig = bw.one_class_explorer(blobs, nus=(0.05, 0.2), gammas=(0.3, 1.0), nu=0.2, gamma=1.0)
    assert fig.n_settings == 4
    assert "ν-property" in fig.initial_readout and "holds" in fig.initial_readout
    fits = bw.one_class_grid_fits(blobs, nus=(0.05, 0.2), gammas=(0.3, 1.0), grid=30)
    n = len(blobs)
    for (nu, _gamma), fit in ((k, v) for k, v in fits.items() if k != "mesh"):
        assert fit["n_outliers"] / n <= nu + 1e-12 <= fit["n_support"] / n + 2e-12
        assert fit["h"].shape == (30, 30)
    with pytest.raises(ValueError, match="2 features"):
        bw.one_class_grid_fits(np.zeros((10, 3)))
    assert len(fig.to_html().encode()) <= MAX_HTML_BYTES


# ------------------------------------------------------------ checkers
@pytest.mark.parametrize("answer, ok, hint", [
    (bex.eps_loss_reference, True, "zero inside the tube"),
    (lambda r, e: np.maximum(0, r - e), False, "use |r|"),
    (lambda r, e: np.abs(r) - e, False, "negative loss"),
    (lambda r, e: np.maximum(0, np.abs(r) - e) ** 2, False, "quadratically"),
    (lambda r, e: np.maximum(0, np.abs(r) + e), False, "subtracted"),
    (lambda r, e: (np.abs(r) > e).astype(float), False, "counts the points"),
    (lambda r, e: np.maximum(0, np.abs(r) - e)[:, None], False, "shape"),
    (lambda r, e: None, False, "None"),
    (lambda r, e: 1 / 0, False, "ZeroDivisionError"),
    ("not a function", False, "should be a function"),
])
def test_check_eps_loss(answer, ok, hint):
    feedback = bex.check_eps_loss(answer)
    assert bool(feedback) is ok
    assert hint in feedback.message


def _dual(Q_fn=None, p_fn=None, z_fn=None):
    def answer(K, y, eps):
        Q, p, z = bex.svr_dual_arrays_reference(K, y, eps)
        return (Q_fn(K) if Q_fn else Q), (p_fn(y, eps) if p_fn else p), (z_fn(z) if z_fn else z)
    return answer


@pytest.mark.parametrize("answer, ok, hint", [
    (bex.svr_dual_arrays_reference, True, "the form that SMO solves"),
    (_dual(Q_fn=lambda K: np.block([[K, K], [K, K]])), False, "no signs"),
    (_dual(Q_fn=lambda K: np.block([[-K, K], [K, -K]])), False, "wrong signs"),
    (_dual(Q_fn=lambda K: K), False, "shape"),
    (_dual(p_fn=lambda y, e: np.concatenate([e + y, e - y])), False, "swapped"),
    (_dual(p_fn=lambda y, e: np.concatenate([-y, y])), False, "misses epsilon"),
    (_dual(p_fn=lambda y, e: -np.concatenate([e - y, e + y])), False, "wrong sign"),
    (_dual(z_fn=lambda z: -z), False, "opposite sign"),
    (_dual(z_fn=lambda z: np.ones_like(z)), False, "+1 for the n variables"),
    (lambda K, y, e: (K, y), False, "three things"),
    (lambda K, y, e: None, False, "three things"),
    (42, False, "should be a function"),
])
def test_check_svr_dual_arrays(answer, ok, hint):
    feedback = bex.check_svr_dual_arrays(answer)
    assert bool(feedback) is ok
    assert hint in feedback.message


@pytest.mark.parametrize("answer, ok, hint", [
    (bex.krr_reference, True, "every training point gets a coefficient"),
    (lambda K, y, lam: np.linalg.solve(K + 1e-12 * np.eye(len(K)), y), False, "interpolation"),
    (lambda K, y, lam: np.linalg.solve(K + len(K) * lam * np.eye(len(K)), y), False,
     "multiplied by n"),
    (lambda K, y, lam: np.linalg.solve(K + lam * np.ones_like(K), y), False, "diagonal only"),
    (lambda K, y, lam: (K + lam * np.eye(len(K))) @ y, False, "solve the system"),
    (lambda K, y, lam: np.linalg.solve(K + np.eye(len(K)) / lam, y), False, "inverted"),
    (lambda K, y, lam: bex.krr_reference(K, y, lam)[:, None], False, "column"),
    (lambda K, y, lam: "alpha", False, "alpha"),
    (None, False, "should be a function"),
])
def test_check_krr_coefficients(answer, ok, hint):
    feedback = bex.check_krr_coefficients(answer)
    assert bool(feedback) is ok
    assert hint in feedback.message
