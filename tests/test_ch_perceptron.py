"""Tests of the perceptron chapter's figures, interactive figures and checkers."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402

from svmlib import Perceptron, datasets  # noqa: E402
from svmlib import perceptron as svmlib_perceptron  # noqa: E402
from svmlib.exercises.perceptron import (  # noqa: E402
    check_order_matters,
    check_still_a_mistake,
)
from svmlib.plotting import perceptron as pplot  # noqa: E402
from svmlib.widgets import perceptron as pwidgets  # noqa: E402

X_SMALL = np.array([[1.0, 2.0], [-2.0, 1.0], [-1.0, 0.0], [2.0, -1.0],
                    [1.0, -1.5], [-1.0, 2.0], [-0.5, 0.0], [-1.0, -1.5]])
Y_SMALL = np.array([1, -1, -1, 1, -1, 1, -1, -1])


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ------------------------------------------------------------ worked example
def test_worked_example_numbers():
    ex = datasets.perceptron_example()
    model = Perceptron(learning_rate=0.25, shuffle=False, w_init=(1, -1), b_init=-2).fit(
        ex["X"], ex["y"])
    w0, b0 = model.history_[0]
    np.testing.assert_allclose(ex["X"] @ w0 + b0, [-3, 1, -2])
    np.testing.assert_allclose(model.coef_[0], [1.5, -0.5])
    assert model.intercept_[0] == pytest.approx(-1.75)
    np.testing.assert_allclose(model.decision_function(ex["X"]), [-1.25, 3.75, 0.25])
    assert model.n_updates_ == 1
    assert model.update_indices_.tolist() == [2]          # x3 = (2, 2), not x2


def test_worked_example_with_rate_one_needs_four_updates():
    # Solution of ex-perceptron-rate, part 2.
    ex = datasets.perceptron_example()
    model = Perceptron(learning_rate=1.0, shuffle=False, w_init=(1, -1), b_init=-2).fit(
        ex["X"], ex["y"])
    np.testing.assert_allclose(model.history_[1][0], [3.0, 1.0])
    assert model.history_[1][1] == pytest.approx(-1.0)
    assert model.n_updates_ == 4


# ----------------------------------------------------------------- plotting


def test_plot_functions_return_axes():
    ex = datasets.perceptron_example()
    ax = pplot.plot_perceptron_state(ex["X"], ex["y"], ex["w0"], ex["b0"], highlight=2,
                                     previous=(np.array([1.0, 0.0]), 0.0))
    assert ax.get_title() == "" and len(ax.collections) >= 3
    ax = pplot.plot_perceptron_state(ex["X"], ex["y"], [0.0, 0.0], 0.0)
    assert any("w = 0" in t.get_text() for t in ax.texts)
    runs = [Perceptron(random_state=s).fit(ex["X"], ex["y"]) for s in range(3)]
    ax = pplot.plot_perceptron_runs(ex["X"], ex["y"], runs + [(np.array([1.0, 1.0]), -5.0)])
    assert len([line for line in ax.get_lines() if line.get_gid() == "hyperplane"]) == 4


def test_the_loss_figure_draws_the_three_losses_of_u_the_soft_margin_chapters_letter():
    # Chapter 2's losses and chapter 6's are functions of one quantity, the
    # margin value u = y h(x): both figures name their axis with that letter.
    from svmlib.plotting import soft_margin as smplot
    ax = pplot.plot_perceptron_losses(u_range=(-2.0, 2.0))
    assert ax.get_xlabel() == "$u = y\\,h(\\mathbf{x})$"
    assert ax.get_xlabel() in smplot.plot_loss_functions().get_xlabel()
    curves = {line.get_label().split(":")[0]: line for line in ax.get_lines()
              if not line.get_label().startswith("_")}
    assert set(curves) == {"zero-one", "perceptron", "hinge"}
    assert all("u" in line.get_label() and "s" not in line.get_label().split(":")[1]
               for line in curves.values())
    u = curves["hinge"].get_xdata()
    assert u[0] == -2.0 and u[-1] == 2.0
    np.testing.assert_allclose(curves["zero-one"].get_ydata(), (u <= 0).astype(float))
    np.testing.assert_allclose(curves["perceptron"].get_ydata(), np.maximum(0.0, -u))
    np.testing.assert_allclose(curves["hinge"].get_ydata(), np.maximum(0.0, 1.0 - u))


def test_plot_mistake_trace_counts_errors():
    X, y = datasets.overlapping_blobs(n=100, random_state=0)
    with pytest.warns(ConvergenceWarning):
        model = Perceptron(max_epochs=5, random_state=0).fit(X, y)
    ax = pplot.plot_mistake_trace(model, X, y)
    trace = ax.get_lines()[0].get_ydata()
    assert len(trace) == model.n_updates_ + 1
    w, b = model.history_[-1]
    assert trace[-1] == np.sum(y * (X @ w + b) <= 0)


def test_best_homogeneous_margin_matches_a_grid_search():
    X, y = datasets.perceptron_disc_data(n=50, gap=0.1, random_state=3)
    u, gamma = svmlib_perceptron.best_homogeneous_margin(X, y)
    theta = np.linspace(0, 2 * np.pi, 400_001)
    U = np.column_stack([np.cos(theta), np.sin(theta)])
    grid_best = np.max(np.min(y[:, None] * (X @ U.T), axis=0))
    assert np.linalg.norm(u) == pytest.approx(1.0)
    assert gamma == pytest.approx(grid_best, abs=1e-5)
    assert gamma >= 0.1 - 1e-12
    assert np.min(y * (X @ u)) == pytest.approx(gamma)


def test_best_homogeneous_margin_rejects_non_separable_data():
    X = np.array([[1.0, 0.0], [2.0, 0.0]])
    with pytest.raises(ValueError, match="not separable"):
        svmlib_perceptron.best_homogeneous_margin(X, [1, -1])


def test_gap_data_properties():
    X, y = datasets.perceptron_disc_data(n=80, gap=0.2, angle=30.0, random_state=0)
    u = np.array([np.cos(np.radians(30)), np.sin(np.radians(30))])
    assert X.shape == (80, 2) and set(np.unique(y)) == {-1, 1}
    assert np.all(np.linalg.norm(X, axis=1) <= 1.0 + 1e-12)
    assert np.all(y * (X @ u) >= 0.2)
    X, y = datasets.perceptron_sphere_data(n=50, gap=0.05, n_features=5, random_state=0)
    assert X.shape == (50, 5)
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0)
    assert np.all((y * X[:, 0] >= 0.05) & (y * X[:, 0] <= 0.1))
    with pytest.raises(ValueError, match="gap"):
        datasets.perceptron_sphere_data(gap=0.7)


def test_novikoff_bound_holds_in_the_experiment():
    # The theorem itself: no run may exceed (L / gamma*)^2 updates.
    rows = svmlib_perceptron.novikoff_experiment(gaps=(0.2, 0.05), n=60, n_features=4, n_orders=8)
    for row in rows:
        assert row["gamma"] >= row["gap"] - 1e-9
        assert row["updates"].max() <= row["bound"]
        assert row["updates"].min() >= 1
    assert rows[1]["updates"].mean() > rows[0]["updates"].mean()
    ax = pplot.plot_novikoff(rows)
    assert ax.get_xscale() == "log"


@pytest.mark.parametrize("seed", range(5))
def test_novikoff_bound_with_a_bias_on_augmented_data(seed):
    X, y = datasets.separable_blobs(n=30, margin=0.5, random_state=seed)
    X_aug = np.column_stack([X, np.ones(len(y))])
    _, gamma = svmlib_perceptron.best_homogeneous_margin(X_aug, y)
    L = np.linalg.norm(X_aug, axis=1).max()
    for order_seed in range(3):
        model = Perceptron(random_state=order_seed).fit(X, y)
        assert model.n_updates_ <= (L / gamma) ** 2


def test_plot_homogeneous_margin_draws_band_and_circle():
    X, y = datasets.perceptron_disc_data(n=40, gap=0.15, random_state=1)
    ax = pplot.plot_homogeneous_margin(X, y, w=np.array([1.0, 0.5]))
    assert len(ax.patches) >= 2


# ------------------------------------------------------------------ widgets
def test_stepper_reproduces_worked_example():
    ex = datasets.perceptron_example()
    fig = pwidgets.perceptron_stepper(ex["X"], ex["y"], w_init=(1, -1), b_init=-2,
                                      learning_rates=(0.25,), orders={"as given": [0, 1, 2]})
    assert fig.n_settings == 2
    assert "1 point(s) misclassified" in fig.text()
    png, readout = fig.frame(step=1)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "point 3" in readout and "(1.5, -0.5)" in readout and "-1.75" in readout
    assert "stops after 1 update" in readout


def test_stepper_on_the_chapter_data():
    fig = pwidgets.perceptron_stepper(X_SMALL, Y_SMALL, w_init=(1.0, -0.5), b_init=0.5)
    assert fig.n_settings <= 60
    assert fig.text() == fig.text()                     # deterministic
    _, readout = fig.frame(order="reversed", learning_rate=1.0, step=7)
    assert "This run has only" in readout


def test_default_orders_are_permutations():
    orders = pwidgets.default_orders(6, seeds=(0, 1))
    assert list(orders)[:2] == ["as given", "reversed"]
    for order in orders.values():
        assert sorted(order.tolist()) == list(range(6))


def test_stepper_start_frame_shows_order_and_rate():
    # before the first update, changing the visiting order or the learning
    # rate must redraw the figure (the reader sees the choice took effect)
    fig = pwidgets.perceptron_stepper(X_SMALL, Y_SMALL, w_init=(1.0, -0.5), b_init=0.5)
    orders = list(fig.controls["order"].values)
    rates = list(fig.controls["learning_rate"].values)
    start = fig.frame(order=orders[0], learning_rate=rates[0], step=0)[0]
    assert fig.frame(order=orders[1], learning_rate=rates[0], step=0)[0] != start
    assert fig.frame(order=orders[0], learning_rate=rates[1], step=0)[0] != start
    title = fig.state["title"].get_text()
    assert "visited in the order" in title and f"{rates[1]:g}" in title


# ------------------------------------------------- Novikoff, run by run
def test_novikoff_trace_follows_the_proof():
    X, y = datasets.perceptron_sphere_data(n=100, gap=0.05, n_features=5, random_state=0)
    t = svmlib_perceptron.novikoff_trace(X, y, random_state=1)
    u, gamma = svmlib_perceptron.best_homogeneous_margin(X, y)
    assert t["gamma"] == pytest.approx(gamma) and t["L"] == pytest.approx(1.0)
    k = t["k"]
    assert k[0] == 0 and k[-1] == t["n_updates"] == len(k) - 1
    # Step 1, Step 2, Cauchy-Schwarz and Step 3 at every update
    assert np.all(t["along"] >= k * gamma - 1e-9)
    assert np.all(t["norm"] <= np.sqrt(k) * t["L"] + 1e-9)
    assert np.all(t["along"] <= t["norm"] + 1e-9)
    assert np.all(t["cosine"][1:] >= np.sqrt(k[1:]) * gamma / t["L"] - 1e-9)
    assert t["n_updates"] <= t["bound"]
    # the same run as Perceptron's, and the learning rate only scales w
    model = Perceptron(fit_intercept=False, random_state=1, max_epochs=100_000).fit(X, y)
    assert model.n_updates_ == t["n_updates"]
    t2 = svmlib_perceptron.novikoff_trace(X, y, learning_rate=0.01, random_state=1)
    assert t2["n_updates"] == t["n_updates"]
    np.testing.assert_allclose(t2["along"], t["along"], rtol=1e-9, atol=1e-12)


def test_novikoff_trace_with_a_given_direction_and_bad_input():
    X, y = datasets.perceptron_sphere_data(n=40, gap=0.1, n_features=3, random_state=0)
    t = svmlib_perceptron.novikoff_trace(X, y, u=[2.0, 0.0, 0.0])   # e_1 separates these data
    assert t["gamma"] == pytest.approx(np.min(y * X[:, 0]))
    assert t["gamma"] <= svmlib_perceptron.best_homogeneous_margin(X, y)[1] + 1e-9
    with pytest.raises(ValueError, match="does not separate"):
        svmlib_perceptron.novikoff_trace(X, y, u=[-1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="3 entries"):
        svmlib_perceptron.novikoff_trace(X, y, u=[1.0, 0.0])
    with pytest.raises(ValueError, match="learning_rate"):
        svmlib_perceptron.novikoff_trace(X, y, learning_rate=0.0)


def test_novikoff_explorer_goal_and_readout():
    fig = pwidgets.novikoff_explorer()
    assert fig.n_settings == 16
    lines = fig.text().splitlines()
    assert lines[0] == "Novikoff's theorem, run by run"
    assert lines[1].startswith("gap g = 0.2: L = 1, γ₀* = 0.205, bound (L/γ₀*)² = 24")
    shares = {key: t["n_updates"] / t["bound"] for key, t in fig.traces.items()}
    assert all(0 < v < 1 for v in shares.values())            # no run crosses the bound
    met = [s for s in fig.settings() if fig.goal(**s)]
    assert met == [{"gap": 0.2, "order": "order 4"}]           # the widest gap, not the narrowest
    best = max(shares, key=shares.get)
    assert best == (0.2, "order 4")
    png, readout = fig.frame(gap=0.2, order="order 4")
    assert png.startswith(b"\x89PNG") and "svmlib-success" in readout
    _, readout = fig.frame(gap=0.025, order="order 1")
    t = fig.traces[(0.025, "order 1")]
    assert f"<b>{t['n_updates']} updates</b>" in readout and "1525" in readout
    # the bound grows about fourfold per halving of the gap
    bounds = [fig.traces[(g, "order 1")]["bound"] for g in (0.2, 0.1, 0.05, 0.025)]
    assert all(3.5 < b2 / b1 < 4.5 for b1, b2 in zip(bounds, bounds[1:]))
    with pytest.raises(ValueError, match="gap"):
        pwidgets.novikoff_explorer(gaps=(0.0, 0.1))


# ------------------------------------------------- exercises of judgement
def test_check_still_a_mistake():
    assert check_still_a_mistake(np.array([4.0, 0.0]), 0.0, np.array([1.0, 1.0]), -1, 1.0)
    assert check_still_a_mistake([1, 0], 0, [1, 1], -1, 0.1)          # a small rate suffices
    assert check_still_a_mistake([1, 1, 1], -10, [1, 0, 0], 1, 1)      # three dimensions
    # on the boundary after the update still counts as a mistake: y h = -3 + 3 = 0
    assert check_still_a_mistake([3, 0], 0, [1, 1], -1, 1)
    cases = [
        (([1, 0], 0, [1, 1], -1, 1.0), "one update fixes"),
        (([1, 0], 0, [1, 1], 1, 1.0), "classified correctly"),
        (([1, 0], 0, [1, 1], 0, 1.0), "-1 or +1"),
        (([1, 0], 0, [1, 1], -1, -1.0), "positive"),
        (([1, 0], 0, [1, 1, 1], -1, 1.0), "same length"),
        ((..., 0, [1, 1], -1, 1.0), "placeholder"),
    ]
    for args, words in cases:
        fb = check_still_a_mistake(*args)
        assert not fb and words in fb.message, (args, fb.message)


def test_check_order_matters():
    X = np.array([[1.0, 0.0], [-3.0, 0.0]])
    fb = check_order_matters(X, [1, -1], [0, 1], [1, 0])
    assert fb and "w = (1, 0), b = 1" in fb.message and "w = (3, 0), b = -1" in fb.message
    # the two results really are those of svmlib's perceptron
    for order, w in (([0, 1], [1.0, 0.0]), ([1, 0], [3.0, 0.0])):
        model = Perceptron(shuffle=False).fit(X[order], np.array([1, -1])[order])
        np.testing.assert_allclose(model.coef_[0], w)
    cases = [
        (([[1, 0], [-1, 0]], [1, -1], [0, 1], [1, 0]), "same hyperplane"),
        (([[1, 0], [-3, 0]], [1, -1], [0, 1], [0, 0]), "permutation"),
        (([[1, 0], [-3, 0]], [1, -1], [0, 1], [0, 1, 2]), "permutation"),
        (([[0, 0], [1, 1], [1, 0], [0, 1]], [1, 1, -1, -1], [0, 1, 2, 3], [3, 2, 1, 0]),
         "not linearly separable"),
        (([[1, 0], [-3, 0]], [1, 1], [0, 1], [1, 0]), "both of them"),
        (([[1, 0], [-3, 0]], [1, -1, 1], [0, 1], [1, 0]), "one label per row"),
        ((..., [1, -1], [0, 1], [1, 0]), "placeholder"),
    ]
    for args, words in cases:
        fb = check_order_matters(*args)
        assert not fb and words in fb.message, (args, fb.message)
