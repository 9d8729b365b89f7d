"""Tests of the chapter "SVMs at scale": the CD trace, figures, widgets and checkers."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from svmlib import LinearSVC, datasets  # noqa: E402
from svmlib.exercises.at_scale import (cd_pass_cases, cd_pass_reference,  # noqa: E402
                                       check_cd_pass, check_rff_map)
from svmlib.linear import dual_cd_trace  # noqa: E402
from svmlib.plotting import at_scale as aplot  # noqa: E402
from svmlib.widgets import at_scale as awidgets  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _toy():
    X, y = datasets.overlapping_blobs(n=40, random_state=0)
    return X, y.astype(float)


# ------------------------------------------------------------ the CD trace
@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_trace_is_monotone_and_converges_to_linearsvc(loss):
    X, y = _toy()
    trace = dual_cd_trace(X, y, C=1.0, loss=loss, n_passes=60)
    duals = [s["dual"] for s in trace]
    # exact coordinate minimization never decreases the dual objective
    assert all(b >= a - 1e-12 for a, b in zip(duals, duals[1:]))
    assert all(s["gap"] >= -1e-9 for s in trace)        # weak duality
    assert trace[-1]["gap"] <= 1e-6 * trace[-1]["primal"]
    model = LinearSVC(C=1.0, loss=loss, tol=1e-10, max_iter=100_000).fit(X, y)
    assert trace[-1]["primal"] == pytest.approx(model.objective(X, y)[0], rel=1e-6)
    # w and alpha stay linked: w_hat = sum alpha_i y_i x_hat_i
    last = trace[-1]
    np.testing.assert_allclose(last["w"], X.T @ (last["alpha"] * y), atol=1e-12)
    assert last["b"] == pytest.approx(np.sum(last["alpha"] * y))


def test_trace_rejects_bad_labels():
    X, _ = _toy()
    with pytest.raises(ValueError, match="only the labels -1 and \\+1"):
        dual_cd_trace(X, np.arange(40), n_passes=2)


# ------------------------------------------------------------ checkers
def test_check_cd_pass_accepts_the_reference():
    assert check_cd_pass(cd_pass_reference)


def _unclipped(X, y, alpha, w, C, order):
    alpha, w = np.array(alpha, float), np.array(w, float)
    for i in order:
        new = alpha[i] - (y[i] * (w @ X[i]) - 1) / (X[i] @ X[i])
        w += (new - alpha[i]) * y[i] * X[i]
        alpha[i] = new
    return alpha, w


def _no_w_update(X, y, alpha, w, C, order):
    alpha = np.array(alpha, float)
    for i in order:
        alpha[i] = min(max(alpha[i] - (y[i] * (w @ X[i]) - 1) / (X[i] @ X[i]), 0), C)
    return alpha, w


def _stale(X, y, alpha, w, C, order):
    alpha, w0 = np.array(alpha, float), np.array(w, float)
    w = w0.copy()
    for i in order:
        new = min(max(alpha[i] - (y[i] * (w0 @ X[i]) - 1) / (X[i] @ X[i]), 0), C)
        w += (new - alpha[i]) * y[i] * X[i]
        alpha[i] = new
    return alpha, w


@pytest.mark.parametrize("answer, hint", [
    (_unclipped, "box [0, C]"),
    (_no_w_update, "w did not change"),
    (_stale, "start of the pass"),
    (lambda *a, **k: None, "two things"),
    (lambda *a, **k: (np.zeros(2), np.zeros(3)), "shape"),
    (lambda *a, **k: 1 / 0, "ZeroDivisionError"),
    ("not a function", "should be a function"),
])
def test_check_cd_pass_hints(answer, hint):
    feedback = check_cd_pass(answer)
    assert not feedback
    assert hint in feedback.message


def test_cd_pass_cases_clip_at_C():
    # the second case must exercise the upper bound, or its hint would be untested
    description, case = cd_pass_cases()[1]
    alpha, _ = cd_pass_reference(**case)
    assert np.any(np.isclose(alpha, case["C"]))


@pytest.mark.parametrize("answer, ok, hint", [
    (lambda X, o, b: np.sqrt(2 / o.shape[1]) * np.cos(X @ o + b), True, "estimate"),
    (lambda X, o, b: np.cos(X @ o + b), False, "sqrt(2/D)"),
    (lambda X, o, b: np.sqrt(1 / o.shape[1]) * np.cos(X @ o + b), False, "sqrt(1/D)"),
    (lambda X, o, b: np.sqrt(2 / o.shape[1]) * np.sin(X @ o + b), False, "cosine"),
    (lambda X, o, b: np.sqrt(2 / o.shape[1]) * np.cos(X @ o), False, "phases"),
    (lambda X, o, b: np.sqrt(2 / 4) * np.cos(X @ o + b), False, "D = 1"),
    (lambda X, o, b: (np.sqrt(2 / o.shape[1]) * np.cos(X @ o + b)).T, False, "transposed"),
    (lambda X, o, b: None, False, "None"),
])
def test_check_rff_map(answer, ok, hint):
    feedback = check_rff_map(answer)
    assert bool(feedback) is ok
    assert hint in feedback.message


# ------------------------------------------------------------ figures
def test_figures_draw():
    X, y = _toy()
    trace = dual_cd_trace(X, y, n_passes=3)
    ax = aplot.plot_cd_state(X, y, trace[2], title="pass 2")
    assert ax.get_title() == "pass 2"
    assert [a.get_gid() for a in ax.lines].count("hyperplane") == 1
    ax = aplot.plot_cd_state(X, y, trace[0])        # w = 0: no hyperplane, no rings
    assert not ax.lines
    aplot.plot_cd_convergence(trace)
    ax = aplot.plot_kernel_error([10, 40, 160], {"random Fourier features": [0.4, 0.2, 0.1]})
    assert len(ax.lines) == 2
    rows = [{"method": "Nyström", "n": n, "seconds": 0.01 * n, "accuracy": 0.9}
            for n in (1, 10)]
    ax = aplot.plot_accuracy_time(rows)
    assert ax.get_xscale() == "log"


# ------------------------------------------------------------ widgets
def test_cd_explorer_frames():
    X, y = _toy()
    fig = awidgets.cd_explorer(X, y, n_passes=4)
    assert fig.n_settings == 2 * 5
    assert "Pass 0" in fig.initial_readout


def test_feature_count_explorer_goal_is_the_smallest_D():
    X, y = datasets.moons(n=200, noise=0.25, random_state=0)
    X_val, y_val = datasets.moons(n=1000, noise=0.25, random_state=1)
    fig = awidgets.feature_count_explorer(X, y, X_val, y_val, gamma=2.0, C=1.0)
    fits = awidgets.feature_count_fits(X, y, X_val, y_val, gamma=2.0, C=1.0)
    exact = fits["exact"]["val_accuracy"]
    for method in ("random Fourier features", "Nyström"):
        good = [D for D in awidgets.DEFAULT_FEATURE_COUNTS
                if fits[(method, D)]["val_accuracy"] >= exact - 0.01 - 1e-12]
        assert good, method
        for D in awidgets.DEFAULT_FEATURE_COUNTS:
            assert fig.goal(method=method, D=D) == (D == min(good))
    # the book's solution states these values
    assert fig.goal(method="random Fourier features", D=20)
    assert fig.goal(method="Nyström", D=10)
