"""Tests for svmlib.perceptron: the worked example, Novikoff's bound, the dual form."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.linear_model import Perceptron as SklearnPerceptron

from svmlib import datasets
from svmlib.hyperplane import Hyperplane
from svmlib.kernels import rbf
from svmlib.perceptron import KernelPerceptron, Perceptron


def fit_quietly(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y)


def homogeneous_separable(n, p, gamma, seed):
    """Points with margin >= gamma from a random hyperplane through 0."""
    rng = np.random.default_rng(seed)
    w_star = rng.normal(size=p)
    w_star /= np.linalg.norm(w_star)
    X = rng.uniform(-1, 1, size=(4 * n, p))
    X = X[np.abs(X @ w_star) >= gamma][:n]
    return X, np.where(X @ w_star > 0, 1, -1)


def best_homogeneous_margin(X, y):
    """gamma* = max_w min_i y_i <w, x_i> / ||w|| via min ||w||^2 s.t. y_i <w, x_i> >= 1."""
    A = y[:, None] * X
    result = minimize(lambda w: w @ w, x0=np.ones(X.shape[1]), jac=lambda w: 2 * w,
                      constraints=[{"type": "ineq", "fun": lambda w: A @ w - 1.0,
                                    "jac": lambda w: A}],
                      method="SLSQP", options={"ftol": 1e-12, "maxiter": 500})
    w = result.x
    return float(np.min(A @ w) / np.linalg.norm(w))   # feasible w: a lower bound on gamma*


# ----------------------------------------------------------- worked example
def test_worked_example_of_the_book_exactly():
    ex = datasets.perceptron_example()
    model = Perceptron(learning_rate=ex["learning_rate"], shuffle=False, w_init=ex["w0"],
                       b_init=ex["b0"]).fit(ex["X"], ex["y"])
    assert model.coef_.tolist() == [[1.5, -0.5]]
    assert model.intercept_.tolist() == [-1.75]
    assert model.n_updates_ == 1
    assert model.update_indices_.tolist() == [2]            # x3, not x2
    assert model.converged_ and model.n_epochs_ == 2
    assert model.mistakes_per_epoch_ == [1, 0]
    np.testing.assert_array_equal(model.decision_function(ex["X"]), [-1.25, 3.75, 0.25])
    (w0, b0), (w1, b1) = model.history_
    assert w0.tolist() == [1.0, -1.0] and b0 == -2.0
    assert w1.tolist() == [1.5, -0.5] and b1 == -1.75
    assert type(b1) is float
    update = model.updates_[0]
    assert (update["epoch"], update["index"], update["y"], update["score"]) == (1, 2, 1, -2.0)
    np.testing.assert_array_equal(Hyperplane(w0, b0).decision_function(ex["X"]), ex["h0"])
    np.testing.assert_array_equal(model.predict(ex["X"]), ex["y"])
    assert model.score(ex["X"], ex["y"]) == 1.0


def test_initial_state_is_not_modified():
    w_init = np.array([1.0, -1.0])
    Perceptron(shuffle=False, w_init=w_init, b_init=-2.0).fit([[1.0, 2.0], [2.0, 2.0]], [-1, 1])
    assert w_init.tolist() == [1.0, -1.0]


def test_matches_sklearn_perceptron_in_fixed_order():
    for seed in range(4):
        X, y = datasets.separable_blobs(n=30, margin=0.3, random_state=seed)
        ours = Perceptron(shuffle=False).fit(X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            theirs = SklearnPerceptron(shuffle=False, eta0=1.0, tol=None,
                                       max_iter=ours.n_epochs_ + 2).fit(X, y)
        np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-12)
        np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-12)


# ------------------------------------------------------------ the algorithm
def test_history_records_every_update():
    X, y = datasets.separable_blobs(n=30, margin=0.2, random_state=3)
    model = Perceptron(learning_rate=0.5, random_state=0).fit(X, y)
    y_pm = np.where(y == model.classes_[1], 1.0, -1.0)
    assert len(model.history_) == model.n_updates_ + 1 == len(model.update_indices_) + 1
    assert sum(model.mistakes_per_epoch_) == model.n_updates_
    assert model.mistakes_per_epoch_[-1] == 0
    for (w_prev, b_prev), (w_next, b_next), i in zip(model.history_, model.history_[1:],
                                                      model.update_indices_):
        assert y_pm[i] * (X[i] @ w_prev + b_prev) <= 0                 # it was a mistake
        np.testing.assert_allclose(w_next - w_prev, 0.5 * y_pm[i] * X[i])
        assert b_next - b_prev == pytest.approx(0.5 * y_pm[i])
    np.testing.assert_array_equal(model.history_[-1][0], model.coef_[0])


def test_fixed_order_visits_points_in_order():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    model = Perceptron(shuffle=False, fit_intercept=False).fit(X, [1, 1, -1])
    assert model.update_indices_.tolist()[0] == 0           # w = 0: first point is a mistake
    assert model.update_indices_.tolist() == [0, 1]


def test_weights_are_a_sum_of_training_points():
    X, y = datasets.separable_blobs(n=40, margin=0.5, random_state=1)
    model = Perceptron(learning_rate=0.1, random_state=2).fit(X, y)
    counts = np.bincount(model.update_indices_, minlength=len(y))
    np.testing.assert_allclose(model.coef_[0], 0.1 * (counts * y) @ X, atol=1e-12)
    assert model.intercept_[0] == pytest.approx(0.1 * counts @ y)


def test_zero_start_learning_rate_only_rescales():
    X, y = datasets.separable_blobs(n=40, margin=0.5, random_state=4)
    a = Perceptron(learning_rate=1.0, random_state=5).fit(X, y)
    b = Perceptron(learning_rate=0.01, random_state=5).fit(X, y)
    assert a.update_indices_.tolist() == b.update_indices_.tolist()
    np.testing.assert_allclose(b.coef_, 0.01 * a.coef_)
    np.testing.assert_allclose(b.intercept_, 0.01 * a.intercept_)


def test_bias_is_a_constant_feature():
    X, y = datasets.separable_blobs(n=30, margin=0.5, random_state=6)
    with_bias = Perceptron(random_state=1).fit(X, y)
    X_one = np.column_stack([X, np.ones(30)])
    augmented = Perceptron(random_state=1, fit_intercept=False).fit(X_one, y)
    assert with_bias.update_indices_.tolist() == augmented.update_indices_.tolist()
    np.testing.assert_allclose(augmented.coef_[0], np.append(with_bias.coef_[0],
                                                             with_bias.intercept_[0]))
    assert augmented.intercept_[0] == 0.0


def test_fit_intercept_false_keeps_b_init():
    X, y = datasets.separable_blobs(n=20, random_state=0)
    model = fit_quietly(Perceptron(fit_intercept=False, b_init=0.5, max_epochs=5), X, y)
    assert model.intercept_[0] == 0.5
    assert all(b == 0.5 for _, b in model.history_)


def test_random_state_makes_runs_reproducible():
    X, y = datasets.separable_blobs(n=40, margin=0.2, random_state=2)
    runs = [Perceptron(random_state=7).fit(X, y) for _ in range(2)]
    assert runs[0].update_indices_.tolist() == runs[1].update_indices_.tolist()
    others = [Perceptron(random_state=s).fit(X, y).update_indices_.tolist() for s in range(5)]
    assert len({tuple(o) for o in others}) > 1         # the order matters


@pytest.mark.parametrize("seed", range(5))
def test_separable_data_are_separated(seed):
    X, y = datasets.separable_blobs(n=50, margin=0.3, random_state=seed)
    model = Perceptron(random_state=seed).fit(X, y)
    assert model.converged_
    assert model.score(X, y) == 1.0
    assert Hyperplane(model.coef_[0], model.intercept_[0]).separates(X, y)


# ------------------------------------------------------------- Novikoff
@pytest.mark.parametrize("gamma", [0.3, 0.1, 0.03])
@pytest.mark.parametrize("seed", range(3))
def test_novikoff_bound(gamma, seed):
    X, y = homogeneous_separable(n=60, p=3, gamma=gamma, seed=seed)
    gamma_star = best_homogeneous_margin(X, y)
    assert gamma_star >= gamma - 1e-6
    L = np.linalg.norm(X, axis=1).max()
    for order_seed in range(3):
        model = Perceptron(fit_intercept=False, random_state=order_seed).fit(X, y)
        assert model.converged_
        assert model.n_updates_ <= (L / gamma_star) ** 2
        # the perceptron's own hyperplane is feasible, so its margin is at most gamma*
        H = Hyperplane(model.coef_[0], 0.0)
        assert 0 < H.geometric_margin(X, y) <= gamma_star + 1e-9


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5), st.floats(0.05, 0.5))
def test_novikoff_bound_property(seed, p, gamma):
    X, y = homogeneous_separable(n=40, p=p, gamma=gamma, seed=seed)
    if len(np.unique(y)) < 2:
        return
    L = np.linalg.norm(X, axis=1).max()
    # gamma is a lower bound on gamma*, so (L/gamma)^2 bounds the updates too
    model = Perceptron(fit_intercept=False, shuffle=False).fit(X, y)
    assert model.converged_ and model.n_updates_ <= (L / gamma) ** 2


# ------------------------------------------------------------ labels, API
@pytest.mark.parametrize("labels", [("cat", "dog"), (0, 1), (3, 7), (-1.0, 1.0), (True, False)])
def test_any_two_labels(labels):
    X, y = datasets.separable_blobs(n=30, random_state=0)
    neg, pos = sorted(labels)
    y_named = np.where(y == 1, pos, neg)
    model = Perceptron(random_state=0).fit(X, y_named)
    assert model.classes_.tolist() == [neg, pos]
    np.testing.assert_array_equal(model.predict(X), y_named)
    assert model.score(X, y_named) == 1.0
    assert np.all((model.decision_function(X) > 0) == (y == 1))


def test_non_separable_data_warn_and_stop():
    X, y = datasets.xor(n=40, random_state=0)
    with pytest.warns(ConvergenceWarning, match="max_epochs=20") as record:
        model = Perceptron(max_epochs=20, random_state=0).fit(X, y)
    assert "not be separable" in str(record[0].message)
    assert "soft-margin" in str(record[0].message)
    assert not model.converged_
    assert model.n_epochs_ == 20 and len(model.mistakes_per_epoch_) == 20
    assert model.mistakes_per_epoch_[-1] > 0


def test_nothing_is_printed_and_no_warning_on_success(capsys):
    X, y = datasets.separable_blobs(random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Perceptron(random_state=0).fit(X, y).predict(X)
        KernelPerceptron(random_state=0).fit(X, y).predict(X)
    assert capsys.readouterr() == ("", "")


def test_sklearn_conventions():
    model = Perceptron(learning_rate=0.5, w_init=[1.0, 2.0])
    params = model.get_params()
    assert params["learning_rate"] == 0.5 and params["w_init"] == [1.0, 2.0]
    copy = clone(model).set_params(max_epochs=3)
    assert copy.max_epochs == 3 and model.max_epochs == 1000
    assert not hasattr(model, "coef_")
    with pytest.raises(NotFittedError):
        model.predict([[0.0, 0.0]])
    X, y = datasets.separable_blobs(random_state=0)
    assert model.fit(X, y) is model


@pytest.mark.parametrize("params, match", [
    ({"learning_rate": 0.0}, "learning_rate must be a number > 0"),
    ({"learning_rate": "fast"}, "learning_rate must be"),
    ({"max_epochs": 0}, "max_epochs must be an integer >= 1"),
    ({"max_epochs": 2.5}, "max_epochs must be an integer"),
    ({"shuffle": "yes"}, "shuffle must be True or False"),
    ({"fit_intercept": 1}, "fit_intercept must be True or False"),
    ({"random_state": "seed"}, "random_state must be None"),
    ({"w_init": [1.0, 2.0, 3.0]}, "w_init must have one entry per feature"),
    ({"w_init": [np.nan, 1.0]}, "w_init must not contain NaN"),
    ({"b_init": np.inf}, "b_init must be a finite number"),
])
def test_bad_parameters(params, match):
    X, y = datasets.separable_blobs(n=10, random_state=0)
    with pytest.raises(ValueError, match=match):
        Perceptron(**params).fit(X, y)


def test_bad_data():
    X, y = datasets.three_blobs(n=30)
    with pytest.raises(ValueError, match="exactly two classes"):
        Perceptron().fit(X, y)
    with pytest.raises(ValueError, match="two classes"):
        Perceptron().fit(X, np.ones(30))
    with pytest.raises(ValueError, match="same number of samples"):
        Perceptron().fit(X, y[:5])
    Xb, yb = datasets.separable_blobs(n=10, random_state=0)
    model = Perceptron().fit(Xb, yb)
    with pytest.raises(ValueError, match="expecting 2 features"):
        model.predict(np.ones((3, 3)))


# ------------------------------------------------------- kernel perceptron
def test_linear_kernel_perceptron_is_the_perceptron():
    X, y = datasets.separable_blobs(n=40, margin=0.3, random_state=8)
    primal = Perceptron(random_state=3).fit(X, y)
    dual = KernelPerceptron(kernel="linear", random_state=3).fit(X, y)
    assert dual.update_indices_.tolist() == primal.update_indices_.tolist()
    assert dual.n_updates_ == primal.n_updates_
    np.testing.assert_allclose(dual.dual_coef_[0] @ dual.support_vectors_, primal.coef_[0])
    np.testing.assert_allclose(dual.intercept_, primal.intercept_)
    grid = np.random.default_rng(0).normal(scale=3, size=(50, 2))
    np.testing.assert_allclose(dual.decision_function(grid), primal.decision_function(grid),
                               atol=1e-10)


@pytest.mark.parametrize("make", [datasets.xor, datasets.circles])
def test_kernel_perceptron_solves_non_linear_layouts(make):
    X, y = make(n=200, random_state=0)
    assert not fit_quietly(Perceptron(max_epochs=30, random_state=0), X, y).converged_
    model = KernelPerceptron(kernel="rbf", random_state=0).fit(X, y)
    assert model.converged_
    assert model.score(X, y) == 1.0
    X_test, y_test = make(n=200, random_state=1)
    assert model.score(X_test, y_test) >= 0.9


def test_quadratic_kernel_solves_circles():
    X, y = datasets.circles(n=100, noise=0.05, random_state=2)
    model = KernelPerceptron(kernel="poly", degree=2, coef0=1.0, gamma=1.0, max_epochs=500,
                             random_state=0).fit(X, y)
    assert model.converged_ and model.score(X, y) == 1.0


def test_kernel_perceptron_attributes_are_consistent():
    X, y = datasets.xor(n=80, random_state=3)
    model = KernelPerceptron(gamma=2.0, random_state=0).fit(X, y)
    assert model.gamma_ == 2.0
    assert model.counts_.sum() == model.n_updates_ == len(model.update_indices_)
    np.testing.assert_array_equal(model.support_, np.flatnonzero(model.counts_))
    np.testing.assert_array_equal(np.bincount(model.update_indices_, minlength=80), model.counts_)
    np.testing.assert_array_equal(model.dual_coef_[0], (model.counts_ * y)[model.support_])
    assert model.intercept_[0] == model.counts_ @ y
    assert model.dual_coef_.shape == (1, len(model.support_))
    Z = np.random.default_rng(0).normal(size=(7, 2))
    manual = rbf(Z, X, gamma=2.0) @ (model.counts_ * y) + model.intercept_[0]
    np.testing.assert_allclose(model.decision_function(Z), manual, atol=1e-12)


def test_kernel_perceptron_scale_gamma_and_callable_kernel():
    X, y = datasets.circles(n=60, random_state=4)
    model = KernelPerceptron(random_state=0).fit(X, y)
    assert model.gamma_ == pytest.approx(1 / (2 * X.var()))

    def my_rbf(A, B):
        return rbf(A, B, gamma=model.gamma_)

    same = KernelPerceptron(kernel=my_rbf, random_state=0).fit(X, y)
    np.testing.assert_array_equal(same.counts_, model.counts_)


def test_kernel_perceptron_warns_on_impossible_data():
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]])   # one point with both labels
    with pytest.warns(ConvergenceWarning, match="KernelPerceptron did not converge"):
        model = KernelPerceptron(max_epochs=5, random_state=0).fit(X, [-1, 1, 1])
    assert not model.converged_ and model.n_epochs_ == 5


def test_kernel_perceptron_labels_and_api():
    X, y = datasets.xor(n=60, random_state=0)
    names = np.where(y == 1, "pos", "neg")
    model = KernelPerceptron(random_state=0).fit(X, names)
    assert model.classes_.tolist() == ["neg", "pos"]
    np.testing.assert_array_equal(model.predict(X), names)
    assert clone(model).get_params()["kernel"] == "rbf"
    with pytest.raises(NotFittedError):
        KernelPerceptron().decision_function(X)


@pytest.mark.parametrize("params, match", [
    ({"kernel": "sigmoid"}, "kernel must be one of"),
    ({"gamma": -1.0}, "gamma must be"),
    ({"gamma": "median"}, "'scale', 'auto'"),
    ({"kernel": "poly", "degree": 0}, "degree must be an integer >= 1"),
    ({"max_epochs": 0}, "max_epochs must be an integer >= 1"),
    ({"shuffle": None}, "shuffle must be True or False"),
])
def test_kernel_perceptron_bad_parameters(params, match):
    X, y = datasets.xor(n=20, random_state=0)
    with pytest.raises(ValueError, match=match):
        KernelPerceptron(**params).fit(X, y)
