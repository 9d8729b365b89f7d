"""Perceptron and KernelPerceptron in real use (issue 14).

Picklable (so they can be saved and used by joblib-parallel tools), binary
only and saying so in their tags, and a run's record kept compactly: the
history of (w, b) is rebuilt on demand, bit for bit what the update rule
produced, from one index and one score per update.
"""

import pickle
import tracemalloc

import numpy as np
import pytest
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.model_selection import cross_val_score

from svmlib import KernelPerceptron, Perceptron, datasets


def _reference_run(X, y_pm, alpha, order, w0, b0):
    """The perceptron written naively: a new array per update, every state kept."""
    w, b = w0.copy(), b0
    history, scores, indices = [(w, b)], [], []
    for i in order:
        score = X[i] @ w + b
        if y_pm[i] * score <= 0:
            w = w + alpha * y_pm[i] * X[i]
            b = b + alpha * y_pm[i]
            history.append((w, b))
            scores.append(score)
            indices.append(i)
    return history, scores, indices


def test_history_is_rebuilt_exactly():
    X, y = datasets.overlapping_blobs(60, random_state=2)
    model = Perceptron(learning_rate=0.3, shuffle=False, max_epochs=5, w_init=[0.5, -0.2],
                       b_init=0.1)
    with pytest.warns(Warning):
        model.fit(X, y)
    y_pm = np.where(y == model.classes_[1], 1.0, -1.0)
    order = np.tile(np.arange(len(y)), 5)
    history, scores, indices = _reference_run(X, y_pm, 0.3, order, np.array([0.5, -0.2]), 0.1)
    assert len(model.history_) == len(history) == model.n_updates_ + 1
    for (w, b), (w_ref, b_ref) in zip(model.history_, history):
        assert np.array_equal(w, w_ref) and b == b_ref
    assert model.update_indices_.tolist() == indices
    assert [u["score"] for u in model.updates_] == scores
    assert np.array_equal(model.updates_[-1]["w"], model.coef_[0])
    assert model.updates_[-1]["b"] == model.intercept_[0]


def test_record_history_false_keeps_nothing_per_update():
    X, y = datasets.separable_blobs(100, random_state=0)
    full = Perceptron(random_state=0).fit(X, y)
    lean = Perceptron(random_state=0, record_history=False).fit(X, y)
    assert np.array_equal(full.coef_, lean.coef_) and full.n_updates_ == lean.n_updates_
    for name in ["history_", "updates_", "update_indices_"]:
        with pytest.raises(AttributeError, match="record_history=False"):
            getattr(lean, name)


def test_memory_does_not_grow_with_the_number_of_updates():
    # Non-separable data, many epochs: tens of thousands of updates.  The
    # record holds an index and a score per update and one copy of each point
    # that caused one, not a weight vector per update.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 200))
    y = rng.integers(0, 2, size=400)
    tracemalloc.start()
    with pytest.warns(Warning):
        model = Perceptron(max_epochs=60, random_state=0).fit(X, y)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    per_update_w = model.n_updates_ * X.shape[1] * 8           # what a copy per update costs
    assert model.n_updates_ > 5000
    assert peak < X.nbytes + 100 * model.n_updates_ + 10**6
    assert peak < per_update_w / 4


@pytest.mark.parametrize("model", [Perceptron(random_state=0), KernelPerceptron(random_state=0),
                                   KernelPerceptron(kernel="poly", degree=2, random_state=0)])
def test_fitted_perceptrons_pickle_and_run_in_joblib(model):
    X, y = datasets.moons(80, random_state=0)
    with pytest.warns(Warning) if isinstance(model, Perceptron) else _no_warning():
        model = clone(model).fit(X, y)
    copy = pickle.loads(pickle.dumps(model))
    assert np.array_equal(copy.decision_function(X), model.decision_function(X))
    results = Parallel(n_jobs=2)(delayed(_score)(model, X, y) for _ in range(2))
    assert results == [model.score(X, y)] * 2
    scores = cross_val_score(clone(model).set_params(max_epochs=5), X, y, cv=2, n_jobs=2)
    assert scores.shape == (2,)


class _no_warning:
    def __enter__(self):
        return self

    def __exit__(self, *args):
        return False


def _score(model, X, y):
    return model.score(X, y)


@pytest.mark.parametrize("cls", [Perceptron, KernelPerceptron])
def test_binary_only_is_declared_and_enforced(cls):
    assert cls().__sklearn_tags__().classifier_tags.multi_class is False
    X, y = datasets.three_blobs(n=30)
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        cls().fit(X, y)


@pytest.mark.parametrize("cls", [Perceptron, KernelPerceptron])
def test_complex_data_is_refused(cls):
    X, y = datasets.separable_blobs(20, random_state=0)
    with pytest.raises(ValueError, match="Complex data not supported"):
        cls().fit(X + 1j, y)


def test_kernel_perceptron_kernel_attribute_still_works():
    X, y = datasets.circles(60, random_state=0)
    model = KernelPerceptron(kernel="rbf", gamma=2.0, random_state=0).fit(X, y)
    K = model.kernel_(X[:3], model.support_vectors_)
    assert K.shape == (3, len(model.support_))
    assert np.allclose(K @ model.dual_coef_[0] + model.intercept_[0],
                       model.decision_function(X[:3]))


@pytest.mark.parametrize("case", range(6))
def test_blocked_scoring_makes_exactly_the_one_point_updates(case):
    # fit scores blocks of points at once; the updates, their order, the scores
    # and the final (w, b) must be bit for bit those of the one-point loop,
    # including points exactly on the hyperplane (integer data, w = 0 at start).
    rng = np.random.default_rng(case)
    n, p = [(300, 3), (500, 10), (200, 2), (1000, 5), (64, 1), (400, 30)][case]
    X = rng.integers(-3, 4, size=(n, p)).astype(float) if case % 2 else rng.normal(size=(n, p))
    y = (X @ rng.normal(size=p) + 0.5 * rng.normal(size=n) > 0).astype(int)
    alpha = [1.0, 0.25, 0.7][case % 3]
    model = Perceptron(learning_rate=alpha, max_epochs=4, random_state=case)
    with pytest.warns(Warning):
        model.fit(X, y)
    y_pm = np.where(y == model.classes_[1], 1.0, -1.0)
    order_rng = np.random.RandomState(case)
    order = np.concatenate([order_rng.permutation(n) for _ in range(model.n_epochs_)])
    history, scores, indices = _reference_run(X, y_pm, alpha, order, np.zeros(p), 0.0)
    assert model.update_indices_.tolist() == indices
    assert [u["score"] for u in model.updates_] == scores
    assert np.array_equal(model.coef_[0], history[-1][0])
    assert model.intercept_[0] == history[-1][1]
