"""The perceptrons' epoch loops, compiled and interpreted (issue 28).

``perceptron_epoch`` and ``kernel_perceptron_epoch`` are one source each, run
compiled by Numba or as plain Python (``compiled=False``).  Both ways must make
the same updates, in the same order, with the same scores and the same final
weights, bit for bit: the score ``np.dot(x_i, w) + b`` is the same BLAS routine
in NumPy and in Numba, and the update is the same sequence of additions.
"""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from svmlib import KernelPerceptron, Perceptron, datasets
from svmlib.perceptron import (HAVE_NUMBA, kernel_perceptron_epoch, perceptron_epoch,
                               run_kernel_perceptron, run_perceptron)


def _problem(case):
    """Noisy data (many updates); odd cases integer-valued, with points on the hyperplane."""
    rng = np.random.default_rng(100 + case)
    n, p = [(300, 2), (500, 7), (200, 30), (1000, 3), (64, 1), (400, 50)][case]
    if case % 2:
        X = rng.integers(-3, 4, size=(n, p)).astype(float)
    else:
        X = rng.normal(size=(n, p))
    y = np.where(X @ rng.normal(size=p) + 0.7 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y


def _assert_same_run(a, b):
    assert a["mistakes_per_epoch"] == b["mistakes_per_epoch"]
    assert a["n_epochs"] == b["n_epochs"] and a["converged"] == b["converged"]
    for key in ("update_indices", "scores", "counts", "coef"):
        if key in a and a[key] is not None:
            assert a[key].dtype == b[key].dtype
            assert np.array_equal(a[key], b[key]), key
    for key in ("w", "b"):
        if key in a:
            assert np.array_equal(a[key], b[key]), key


@pytest.mark.parametrize("case", range(6))
@pytest.mark.parametrize("shuffle", [True, False])
def test_compiled_and_interpreted_perceptron_make_identical_updates(case, shuffle):
    X, y = _problem(case)
    alpha = [1.0, 0.25, 0.7][case % 3]
    fit_intercept = case != 4
    w0 = np.linspace(-0.5, 0.5, X.shape[1]) if case == 2 else np.zeros(X.shape[1])
    runs = []
    for compiled in (True, False):
        rng = np.random.RandomState(case) if shuffle else None
        runs.append(run_perceptron(X, y, w0, 0.125, learning_rate=alpha, max_epochs=4, rng=rng,
                                   fit_intercept=fit_intercept, compiled=compiled))
    compiled_run, interpreted_run = runs
    assert sum(compiled_run["mistakes_per_epoch"]) > 20          # a real run, not a few updates
    _assert_same_run(compiled_run, interpreted_run)
    assert np.array_equal(w0, np.linspace(-0.5, 0.5, X.shape[1]) if case == 2
                          else np.zeros(X.shape[1]))                     # the start is not touched


@pytest.mark.parametrize("case", range(6))
def test_the_estimator_runs_the_compiled_loop_and_matches_the_interpreted_one(case):
    X, y01 = _problem(case)
    y = np.where(y01 > 0, "yes", "no")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = Perceptron(learning_rate=0.5, max_epochs=3, random_state=case).fit(X, y)
    y_pm = np.where(y == model.classes_[1], 1.0, -1.0)
    reference = run_perceptron(X, y_pm, np.zeros(X.shape[1]), 0.0, learning_rate=0.5,
                               max_epochs=3, rng=np.random.RandomState(case), compiled=False)
    assert model.update_indices_.tolist() == reference["update_indices"].tolist()
    assert [u["score"] for u in model.updates_] == reference["scores"].tolist()
    assert np.array_equal(model.coef_[0], reference["w"])
    assert model.intercept_[0] == reference["b"]
    assert model.mistakes_per_epoch_ == reference["mistakes_per_epoch"]
    if HAVE_NUMBA:
        assert perceptron_epoch.signatures, "the fit did not run the compiled epoch"


def test_record_history_false_runs_the_same_updates():
    X, y = _problem(1)
    full = run_perceptron(X, y, np.zeros(X.shape[1]), max_epochs=3,
                          rng=np.random.RandomState(0))
    lean = run_perceptron(X, y, np.zeros(X.shape[1]), max_epochs=3,
                          rng=np.random.RandomState(0), record=False)
    assert lean["update_indices"] is None and lean["scores"] is None
    assert np.array_equal(full["w"], lean["w"]) and full["b"] == lean["b"]
    assert full["mistakes_per_epoch"] == lean["mistakes_per_epoch"]


@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly"])
@pytest.mark.parametrize("shuffle", [True, False])
def test_compiled_and_interpreted_kernel_perceptron_make_identical_updates(kernel, shuffle):
    X, y = datasets.moons(150, noise=0.3, random_state=3)
    model = KernelPerceptron(kernel=kernel, degree=2, max_epochs=6, shuffle=shuffle,
                             random_state=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    K = np.asarray(model.kernel_(X, X), dtype=np.float64)
    y_pm = np.where(y == model.classes_[1], 1.0, -1.0)
    runs = [run_kernel_perceptron(K, y_pm, max_epochs=6,
                                  rng=np.random.RandomState(5) if shuffle else None,
                                  compiled=compiled) for compiled in (True, False)]
    assert sum(runs[0]["mistakes_per_epoch"]) > 10
    _assert_same_run(runs[0], runs[1])
    assert model.update_indices_.tolist() == runs[1]["update_indices"].tolist()
    assert np.array_equal(model.counts_, runs[1]["counts"])
    assert model.intercept_[0] == runs[1]["b"]
    if HAVE_NUMBA:
        assert kernel_perceptron_epoch.signatures


def test_any_memory_layout_gives_the_same_run():
    # Fortran-ordered, strided and read-only inputs are copied to one C-ordered
    # float64 array (one compiled specialization); the run does not change.
    X, y = _problem(3)
    reference = Perceptron(random_state=1, max_epochs=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        reference.fit(X, y)
        read_only = X.copy()
        read_only.flags.writeable = False
        wide = np.repeat(X, 2, axis=1)[:, ::2]                       # a strided view
        for variant in (np.asfortranarray(X), wide, read_only):
            model = Perceptron(random_state=1, max_epochs=3).fit(variant, y)
            assert np.array_equal(model.coef_, reference.coef_)
            assert model.update_indices_.tolist() == reference.update_indices_.tolist()


def test_compiled_must_be_a_bool():
    X, y = _problem(0)
    with pytest.raises(ValueError, match="compiled"):
        run_perceptron(X, y, np.zeros(X.shape[1]), compiled="yes")
    with pytest.raises(ValueError, match="compiled"):
        run_kernel_perceptron(X @ X.T, y, compiled=None)
