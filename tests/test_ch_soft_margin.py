"""Tests of chapter 06 (the soft-margin SVM): theory, data, figures, widgets, checkers."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy.optimize import minimize  # noqa: E402

from svmlib.widgets._core import MAX_HTML_BYTES  # noqa: E402
from svmlib import SVC, datasets, paths  # noqa: E402
from svmlib.exercises import soft_margin as ex  # noqa: E402
from svmlib.objectives import (dual_objective, kernel_matrix_Q, kkt_cases,  # noqa: E402
                               primal_objective)
from svmlib.plotting import soft_margin as smplot  # noqa: E402
from svmlib.solvers import NotSeparableError, solve_dual_slsqp, solve_primal_pegasos  # noqa: E402
from svmlib.widgets import soft_margin as smw  # noqa: E402

C_GRID = (0.01, 0.1, 1.0, 10.0)


@pytest.fixture(scope="module")
def data():
    return datasets.elongated_blobs(n=50, label_noise=0.05, random_state=0)


@pytest.fixture(scope="module")
def validation():
    return datasets.elongated_blobs(n=1000, label_noise=0.05, random_state=1)


@pytest.fixture(scope="module")
def fit(data):
    X, y = data
    model = SVC(kernel="linear", C=1.0, tol=1e-8).fit(X, y)
    return model, model.coef_[0], float(model.intercept_[0])


@pytest.fixture(scope="module")
def path(data, validation):
    X, y = data
    return paths.soft_margin_path(X, y, C_GRID, *validation)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ------------------------------------------------------------------ theory

def test_running_example_is_not_separable(data):
    X, y = data
    with pytest.raises(NotSeparableError, match="not linearly separable"):
        SVC(kernel="linear", C=np.inf).fit(X, y)


@pytest.mark.parametrize("C", C_GRID)
def test_dual_box_stationarity_and_zero_gap(data, C):
    X, y = data
    model = SVC(kernel="linear", C=C, tol=1e-8).fit(X, y)
    alpha = model.alpha_
    assert alpha.min() >= 0 and alpha.max() <= C + 1e-12                 # (eq-soft-dual)
    assert abs(alpha @ y) < 1e-8 * max(1.0, C)                           # (eq-soft-grad-b)
    w = (alpha * y) @ X                                                  # (eq-soft-grad-w)
    np.testing.assert_allclose(w, model.coef_[0], atol=1e-10)
    Q = kernel_matrix_Q(X @ X.T, y)
    primal = primal_objective(w, model.intercept_[0], X, y, C)
    assert primal == pytest.approx(dual_objective(alpha, Q), rel=1e-6)  # strong duality


def test_primal_with_explicit_slacks_matches_the_dual(data, fit):
    # independent reference: (eq-soft-primal) with (w, b, xi) as unknowns, solved by SLSQP
    X, y = data
    _, w, b = fit
    n, C = len(y), 1.0
    A = y[:, None] * np.column_stack([X, np.ones(n)])

    def objective(z):
        return 0.5 * z[:2] @ z[:2] + C * z[3:].sum()

    def gradient(z):
        return np.concatenate([z[:2], [0.0], C * np.ones(n)])

    constraints = [
        {"type": "ineq", "fun": lambda z: A @ z[:3] - 1 + z[3:],
         "jac": lambda z: np.hstack([A, np.eye(n)])},
        {"type": "ineq", "fun": lambda z: z[3:],
         "jac": lambda z: np.hstack([np.zeros((n, 3)), np.eye(n)])},
    ]
    start = np.concatenate([np.zeros(3), np.ones(n)])
    result = minimize(objective, start, jac=gradient, constraints=constraints, method="SLSQP",
                      options={"ftol": 1e-12, "maxiter": 500})
    assert result.success
    np.testing.assert_allclose(result.x[:2], w, atol=1e-4)
    assert result.x[2] == pytest.approx(b, abs=1e-4)
    xi = result.x[3:]
    # (eq-soft-slack-optimal): the slacks are the hinge losses at the solution
    np.testing.assert_allclose(xi, np.maximum(0, 1 - y * (X @ w + b)), atol=1e-4)
    assert result.fun == pytest.approx(primal_objective(w, b, X, y, C), rel=1e-6)


def test_matches_scikit_learn(data):
    from sklearn.svm import SVC as SklearnSVC

    X, y = data
    ours = SVC(kernel="linear", C=1.0, tol=1e-8).fit(X, y)
    theirs = SklearnSVC(kernel="linear", C=1.0, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-5)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-5)


def test_kkt_cases_match_the_geometry(path, data):
    X, y = data
    for p in path:
        margin = y * p["h"]
        assert np.all(margin[p["cases"] == 0] >= 1 - 1e-4)             # (eq-soft-kkt-cases)
        assert np.all(np.abs(margin[p["cases"] == 1] - 1) < 1e-4)
        assert np.all(margin[p["cases"] == 2] <= 1 + 1e-4)
        # the converse: strictly inside the margin means alpha = C, outside means 0
        assert np.all(p["cases"][margin < 1 - 1e-4] == 2)
        assert np.all(p["cases"][margin > 1 + 1e-4] == 0)


def test_bias_from_free_support_vectors(data, fit):
    X, y = data
    model, w, b = fit
    free = kkt_cases(model.alpha_, 1.0) == 1
    assert free.sum() >= 1
    assert np.mean(y[free] - X[free] @ w) == pytest.approx(b, abs=1e-8)   # (eq-soft-bias)


def test_hinge_form_and_regularized_form(data, fit):
    X, y = data
    _, w, b = fit
    n, C = len(y), 1.0
    hinge = np.maximum(0, 1 - y * (X @ w + b))
    P = 0.5 * w @ w + C * hinge.sum()                                   # (eq-soft-hinge-form)
    lam = 1 / (n * C)
    R = hinge.mean() + lam / 2 * w @ w                                  # (eq-soft-regularized)
    assert n * C * R == pytest.approx(P, rel=1e-12)
    assert P == pytest.approx(primal_objective(w, b, X, y, C), rel=1e-12)
    # the total slack bounds the training errors
    assert hinge.sum() >= np.sum(np.sign(X @ w + b) != y)


def test_pegasos_agrees_with_the_dual(data, fit):
    X, y = data
    _, w, b = fit
    result = solve_primal_pegasos(X, y, C=1.0, n_iter=20_000, batch_size=10, random_state=0)
    np.testing.assert_allclose(result.w, w, atol=0.03)
    assert result.b == pytest.approx(b, abs=0.02)
    assert result.objective == pytest.approx(primal_objective(w, b, X, y, 1.0), rel=1e-4)


def test_large_C_is_the_hard_margin_on_separable_data():
    X, y = datasets.separable_blobs(n=30, margin=1.5, random_state=3)
    hard = SVC(kernel="linear", C=np.inf, tol=1e-8).fit(X, y)
    soft = SVC(kernel="linear", C=1e4, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(soft.coef_, hard.coef_, atol=1e-5)


def test_soft_margin_caps_the_outlier():
    X, y = datasets.separable_blobs(n=30, margin=1.5, random_state=3)
    X, y = np.vstack([X, [-1.0, 1.25]]), np.append(y, 1)
    hard = SVC(kernel="linear", C=np.inf).fit(X, y)
    soft = SVC(kernel="linear", C=1.0).fit(X, y)
    assert hard.alpha_[-1] > 5                      # the outlier pushes hard ...
    assert soft.alpha_[-1] == pytest.approx(1.0)    # ... until the box caps it at C
    assert 2 / np.linalg.norm(soft.coef_[0]) > 3 * 2 / np.linalg.norm(hard.coef_[0])


def test_dual_slsqp_respects_the_box(data):
    X, y = data
    result = solve_dual_slsqp(X @ X.T, y, C=0.5)
    assert result.alpha.max() <= 0.5 and result.alpha.min() >= 0


@given(st.floats(-10, 10, allow_nan=False))
def test_hinge_is_an_upper_bound_on_the_zero_one_loss(s):
    hinge = smplot.LOSS_FUNCTIONS["hinge"][0](np.array([s]))[0]
    zero_one = smplot.LOSS_FUNCTIONS["zero_one"][0](np.array([s]))[0]
    assert hinge >= zero_one


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=20), st.floats(0.01, 100))
def test_kkt_cases_of_values_in_the_box(fractions, C):
    alpha = np.array(fractions) * C
    cases = kkt_cases(alpha, C)
    assert cases.shape == alpha.shape
    assert np.all(cases[alpha <= 1e-6 * C] == 0)
    assert np.all(cases[alpha >= C * (1 - 1e-6)] == 2)
    assert np.all(cases[(alpha > 1e-6 * C) & (alpha < C * (1 - 1e-6))] == 1)


def test_kkt_cases_hard_margin_and_errors():
    np.testing.assert_array_equal(kkt_cases([0.0, 3.0, 1e-14], np.inf), [0, 1, 0])
    with pytest.raises(ValueError, match="C must be > 0"):
        kkt_cases([0.0, 1.0], 0.0)


# -------------------------------------------------------------------- data

def test_elongated_blobs_is_seeded_and_well_formed():
    X1, y1 = datasets.elongated_blobs(n=40, random_state=5)
    X2, y2 = datasets.elongated_blobs(n=40, random_state=5)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    assert X1.shape == (40, 2) and set(np.unique(y1)) <= {-1, 1}
    _, y_clean = datasets.elongated_blobs(n=40, label_noise=0.0, random_state=5)
    assert np.sum(y_clean == 1) == 20
    with pytest.raises(ValueError, match="label_noise"):
        datasets.elongated_blobs(label_noise=0.7)


def test_path_summaries(path):
    assert [p["C"] for p in path] == list(C_GRID)
    widths = [p["margin_width"] for p in path]
    assert all(a >= b - 1e-9 for a, b in zip(widths, widths[1:]))   # narrower as C grows
    for p in path:
        assert p["n_support"] == p["n_free"] + p["n_bound"]
        assert 0 <= p["val_accuracy"] <= 1
        assert p["slack_sum"] == pytest.approx(p["slack"].sum())


# ----------------------------------------------------------------- figures

def test_plot_kkt_cases_and_staircase(data, fit):
    X, y = data
    model, w, b = fit
    fig, (a1, a2) = plt.subplots(1, 2)
    assert smplot.plot_kkt_cases(X, y, w, b, model.alpha_, 1.0, ax=a1) is a1
    gids = {c.get_gid() for c in a1.collections}
    assert {"kkt-case-0", "kkt-case-1", "kkt-case-2", "slack"} <= gids
    counts = {g: sum(len(c.get_offsets()) for c in a1.collections if c.get_gid() == g)
              for g in ("kkt-case-0", "kkt-case-1", "kkt-case-2")}
    assert counts == {"kkt-case-0": 26, "kkt-case-1": 2, "kkt-case-2": 22}
    assert smplot.plot_kkt_staircase(y, X @ w + b, model.alpha_, 1.0, ax=a2) is a2
    assert any(line.get_gid() == "staircase" for line in a2.lines)
    with pytest.raises(ValueError, match="same points"):
        smplot.plot_kkt_cases(X, y[:-1], w, b, model.alpha_, 1.0)
    with pytest.raises(ValueError, match="finite"):
        smplot.plot_kkt_staircase(y, X @ w + b, model.alpha_, np.inf)


def test_plot_loss_functions():
    ax = smplot.plot_loss_functions(mark=0.5)
    gids = {line.get_gid() for line in ax.lines}
    assert {"loss-zero_one", "loss-hinge", "loss-logistic", "loss-perceptron", "mark"} <= gids
    with pytest.raises(ValueError, match="unknown loss"):
        smplot.plot_loss_functions(losses=("hinge", "cubic"))


def test_plot_c_path_and_objective_gap(path):
    axes = smplot.plot_c_path(path)
    assert len(axes) == 3
    assert any(line.get_gid() == "validation" for line in axes[0].lines)
    ax = smplot.plot_objective_gap({"a": ([1, 2, 3], [3.0, 2.0, 1.0])}, optimum=0.5)
    assert ax.get_xscale() == "log" and ax.lines[0].get_gid() == "trace"


# ----------------------------------------------------------------- widgets

def test_c_explorer_goal_and_readout(data, validation):
    X, y = data
    figure = smw.c_explorer(X, y, *validation)
    assert figure.n_settings == 13
    path = paths.soft_margin_path(X, y, smw.DEFAULT_C_GRID, *validation)
    # The goal is the training-accuracy peak, which is not at the largest C
    # although the total slack never grows with C.
    best = max(p["train_accuracy"] for p in path)
    winners = [p["C"] for p in path if p["train_accuracy"] == best]
    assert winners == [0.1]
    assert path[-1]["train_accuracy"] < best
    slacks = [p["slack_sum"] for p in path]
    assert all(b <= a + 1e-4 for a, b in zip(slacks, slacks[1:]))   # the path's tol=1e-5
    for p in path:
        assert figure.goal(C=p["C"]) == (p["C"] in winners)
    png, readout = figure.frame(C=0.1)
    assert png.startswith(b"\x89PNG") and "svmlib-success" in readout
    assert "training accuracy 88.0%" in readout and "hinge loss" in readout
    _, readout = figure.frame(C=0.215)
    assert "svmlib-success" not in readout
    _, readout = figure.frame(C=0.01)
    assert "svmlib-success" not in readout and "validation 72.0%" in readout
    assert figure.text().startswith("The soft margin as C changes\nC = 1: margin width")


@pytest.fixture(scope="module")
def separable():
    return datasets.separable_blobs(n=30, margin=1.5, random_state=3)


@pytest.fixture(scope="module")
def dragged(separable):
    X, y = separable
    return paths.drag_path(X, y, 29, [round(0.1 * i, 1) for i in range(29)], C=1.0)


def test_drag_path_rides_the_kkt_staircase(separable, dragged):
    """Each position is a solution: KKT holds, and the point's case matches its score."""
    X, y = separable
    cases = [p["case"] for p in dragged]
    # 0 -> free -> C, each a contiguous stretch, in this order
    first_free, first_bound = cases.index(1), cases.index(2)
    assert cases == [0] * first_free + [1] * (first_bound - first_free) + \
        [2] * (len(cases) - first_bound)
    assert first_bound - first_free >= 5          # being free is a stretch, not a point
    for p in dragged:
        s = p["score"]
        if p["case"] == 0:
            assert s >= 1 - 1e-7 and p["slack"] == 0.0 and p["alpha_k"] <= 1e-6
        elif p["case"] == 1:
            assert abs(s - 1) < 1e-6 and 0 < p["alpha_k"] < 1
        else:
            assert s <= 1 + 1e-7 and p["slack"] == pytest.approx(1 - s) and p["alpha_k"] == 1.0
        Xt = X.copy()
        Xt[29] = p["x"]
        # the fit at this position is the reference solution of the moved data
        ref = SVC(kernel="linear", C=1.0, tol=1e-10).fit(Xt, y)
        np.testing.assert_allclose(p["w"], ref.coef_[0], atol=1e-8)
        # w = sum alpha_i y_i x_i and sum alpha_i y_i = 0 (Book: eq-soft-grad-w, eq-soft-grad-b)
        np.testing.assert_allclose((p["alpha"] * y) @ Xt, p["w"], atol=1e-6)
        assert abs(p["alpha"] @ y) < 1e-8
    # alpha_k never decreases along the path; while alpha_k = 0 nothing moves
    alphas = np.array([p["alpha_k"] for p in dragged])
    assert np.all(np.diff(alphas) >= -1e-9)
    still = [p for p in dragged if p["case"] == 0]
    for p in still:
        np.testing.assert_allclose(p["w"], dragged[0]["w"], atol=1e-7)
    # the point's moves are along the first normal: its offset is the distance moved
    for p in dragged:
        assert np.linalg.norm(p["x"] - X[29]) == pytest.approx(p["offset"])


def test_drag_path_errors(separable):
    X, y = separable
    with pytest.raises(ValueError, match="index must be a row of X"):
        paths.drag_path(X, y, 30, [0.0])
    with pytest.raises(TypeError, match="index must be an integer"):
        paths.drag_path(X, y, "a", [0.0])
    with pytest.raises(ValueError, match="C must be > 0"):
        paths.drag_path(X, y, 0, [0.0], C=0.0)
    with pytest.raises(ValueError, match="offsets must be a non-empty"):
        paths.drag_path(X, y, 0, [])
    with pytest.raises(ValueError, match="both labels -1 and \\+1"):
        paths.drag_path(X, np.where(y > 0, 1, 0), 0, [0.0])
    with pytest.raises(ValueError, match="C_values must be"):
        paths.soft_margin_path(X, y, [0.0, 1.0])


def test_drag_explorer_goal_and_readout(separable, dragged):
    X, y = separable
    figure = smw.drag_explorer(X, y, index=29)
    assert figure.n_settings == 29
    bound = [p["offset"] for p in dragged if p["case"] == 2]
    for p in dragged:
        assert figure.goal(offset=p["offset"]) == (p["offset"] == bound[0])
    png, readout = figure.frame(offset=bound[0])
    assert png.startswith(b"\x89PNG") and "svmlib-success" in readout
    assert "α = 1.00" in readout and "no longer follows" in readout
    _, readout = figure.frame(offset=0.0)
    assert "svmlib-success" not in readout and "α = 0.00" in readout
    assert "no say" in readout and "margin width 2/‖w‖ = 1.91" in readout
    free = [p["offset"] for p in dragged if p["case"] == 1]
    _, readout = figure.frame(offset=free[len(free) // 2])
    assert "y·h(x) = 1.00" in readout and "free support vector" in readout
    _, readout = figure.frame(offset=2.8)
    assert "misclassified" in readout
    assert figure.text().startswith("Drag one training point across the band\nPoint 29 moved")
    with pytest.raises(ValueError, match="2 columns"):
        smw.drag_explorer(np.c_[X, X[:, :1]], y, index=0)


def test_static_html_fits_the_budget(data, validation):
    X, y = data
    for figure in (smw.c_explorer(X, y, *validation),
                   smw.drag_explorer(*datasets.separable_blobs(n=30, margin=1.5, random_state=3),
                                     index=29)):
        page = figure.to_html()
        assert 'class="svmlib-widget"' in page
        assert len(page.encode()) <= MAX_HTML_BYTES   # the frames move to files in the book (svmlib_reading)


# --------------------------------------------------------------- exercises

def test_check_slacks(data, fit):
    X, y = data
    _, w, b = fit
    h = X @ w + b
    right = np.maximum(0, 1 - y * h)
    assert ex.check_slacks(right, w, b, X, y)
    assert ex.check_slacks(list(right), w, b, X, y)
    cases = {
        "negative": 1 - y * h,
        "divided by ||w||": right / np.linalg.norm(w),
        "labels are missing": np.maximum(0, 1 - h),
        "bias b is missing": np.maximum(0, 1 - y * (X @ w)),
        "perceptron": np.maximum(0, -y * h),
        "sign is flipped": np.maximum(0, 1 + y * h),
    }
    for hint, answer in cases.items():
        feedback = ex.check_slacks(answer, w, b, X, y)
        assert not feedback and hint in feedback.message
    for malformed in (None, "xi", right[:, None], right[:-1], [np.nan] * len(y), ...):
        feedback = ex.check_slacks(malformed, w, b, X, y)
        assert not feedback and feedback.message


def _cases_with(tol_rel=None, tol_abs=None, exact=False, swap=False, two=False):
    def kkt_cases(alpha, C):
        alpha = np.asarray(alpha, dtype=float)
        if exact:
            zero, upper = alpha == 0, alpha == C
        else:
            tol = tol_abs if tol_abs is not None else tol_rel * (C if np.isfinite(C) else 1)
            zero, upper = alpha <= tol, alpha >= C - tol
        result = np.ones(len(alpha), dtype=int)
        result[zero] = 0
        result[upper & ~zero] = 2
        if swap:
            result = 2 - result
        if two:
            result = (result > 0).astype(int)
        return result
    return kkt_cases


def test_check_kkt_cases():
    assert ex.check_kkt_cases(smplot.kkt_cases)
    assert ex.check_kkt_cases(_cases_with(tol_rel=1e-6))
    assert ex.check_kkt_cases(_cases_with(tol_abs=1e-6))
    expectations = [
        (_cases_with(exact=True), "Use a tolerance"),
        (_cases_with(tol_rel=1e-6, swap=True), "swapped"),
        (_cases_with(tol_rel=1e-6, two=True), "three cases"),
        (_cases_with(tol_rel=0.05), "tolerance is too large"),
        (_cases_with(tol_abs=1e-8), "too small"),
        (lambda alpha, C: np.where(alpha <= 1e-6 * C, 0, np.where(alpha >= C - 1e-6 * C, 2, 1)),
         "hard margin"),   # tol = 1e-6 * inf swallows everything when C = inf
        (lambda alpha, C: np.full(len(alpha), 7), "use only 0"),
        (lambda alpha, C: 1 / 0, "ZeroDivisionError"),
        (lambda alpha, C: None, "None"),
        (lambda alpha, C: np.zeros((len(alpha), 1)), "shape"),
        (np.zeros(5), "pass your function itself"),
    ]
    for answer, hint in expectations:
        feedback = ex.check_kkt_cases(answer)
        assert not feedback and hint in feedback.message, (hint, feedback.message)


def test_check_soft_margin_objective():
    def right(w, b, X, y, C):
        return 0.5 * w @ w + C * np.maximum(0, 1 - y * (X @ w + b)).sum()

    assert ex.check_soft_margin_objective(right)
    assert ex.check_soft_margin_objective(
        lambda w, b, X, y, C: primal_objective(w, b, X, y, C))

    def hinge(w, b, X, y):
        return np.maximum(0, 1 - y * (X @ w + b))

    expectations = [
        (lambda w, b, X, y, C: 0.5 * w @ w + C * hinge(w, b, X, y).mean(), "averaged"),
        (lambda w, b, X, y, C: w @ w + C * hinge(w, b, X, y).sum(), "1/2"),
        (lambda w, b, X, y, C: 0.5 * np.linalg.norm(w) + C * hinge(w, b, X, y).sum(),
         "squared norm"),
        (lambda w, b, X, y, C: 0.5 * w @ w + hinge(w, b, X, y).sum(), "C is missing"),
        (lambda w, b, X, y, C: hinge(w, b, X, y).mean() + 0.5 * w @ w / (len(y) * C),
         "lambda = 1/(nC)"),
        (lambda w, b, X, y, C: 0.5 * w @ w + C * np.sum(1 - y * (X @ w + b)), "max(0, .)"),
        (lambda w, b, X, y, C: 0.5 * w @ w + C * hinge(w, 0.0, X, y).sum(), "bias b"),
        (lambda w, b, X, y, C: 0.5 * w @ w + C * hinge(w, b, X, np.ones_like(y)).sum(),
         "labels"),
        (lambda w, b, X, y, C: 0.5 * w @ w + C * hinge(w, b, X, y), "one number"),
        (lambda w, b, X, y, C: 42.0, "expected"),
        (lambda w, b, X, y, C: "a lot", "string"),
        (lambda w, b, X, y, C: X @ np.ones(7), "raised ValueError"),
        (3.0, "pass your function itself"),
    ]
    for answer, hint in expectations:
        feedback = ex.check_soft_margin_objective(answer)
        assert not feedback and hint in feedback.message, (hint, feedback.message)
