"""Tests of the primal route: Pegasos agrees with the dual solution."""

import numpy as np
import pytest

from svmlib import datasets
from svmlib.objectives import primal_objective
from svmlib.primal import solve_primal_pegasos
from svmlib.smo import solve_dual_smo


@pytest.fixture(scope="module")
def blobs():
    return datasets.overlapping_blobs(200, random_state=0)


@pytest.mark.parametrize("C", [0.1, 1.0])
def test_pegasos_agrees_with_the_dual(blobs, C):
    X, y = blobs
    dual = solve_dual_smo(X @ X.T, y, C=C, tol=1e-8)
    w_dual = (dual.alpha * y) @ X
    result = solve_primal_pegasos(X, y, C=C, n_iter=2000, batch_size=50, random_state=0)
    # The primal objective is never below the optimum, and gets within 0.5 % of it.
    assert result.objective >= dual.objective * (1 - 1e-9)
    assert result.objective == pytest.approx(dual.objective, rel=5e-3)
    np.testing.assert_allclose(result.w, w_dual, atol=0.1 * np.linalg.norm(w_dual))
    assert result.b == pytest.approx(dual.b, abs=0.15)
    assert result.objective == pytest.approx(primal_objective(result.w, result.b, X, y, C))


def test_lam_and_C_are_the_same_problem(blobs):
    X, y = blobs
    n = X.shape[0]
    by_C = solve_primal_pegasos(X, y, C=0.5, n_iter=300, random_state=1)
    by_lam = solve_primal_pegasos(X, y, lam=1.0 / (n * 0.5), n_iter=300, random_state=1)
    np.testing.assert_array_equal(by_C.w, by_lam.w)
    assert by_C.b == by_lam.b


def test_seeded_runs_are_reproducible_and_recorded(blobs):
    X, y = blobs
    a = solve_primal_pegasos(X, y, C=1.0, n_iter=500, random_state=7, record_every=100)
    b = solve_primal_pegasos(X, y, C=1.0, n_iter=500, random_state=7, record_every=100)
    np.testing.assert_array_equal(a.w, b.w)
    assert [t for t, _ in a.trace] == [100, 200, 300, 400, 500]
    assert a.alpha is None and np.isnan(a.kkt_violation) and a.solver == "pegasos"


def test_bias_options(blobs):
    X, y = blobs
    none = solve_primal_pegasos(X, y, C=1.0, n_iter=500, random_state=0, bias="none")
    assert none.b == 0.0
    augmented = solve_primal_pegasos(X, y, C=1.0, n_iter=500, random_state=0, bias="augmented")
    assert augmented.w.shape == (2,) and augmented.b != 0.0


@pytest.mark.parametrize("kwargs, match", [
    ({}, "exactly one of C and lam"),
    ({"C": 1.0, "lam": 0.1}, "exactly one of C and lam"),
    ({"C": np.inf}, "finite C"),
    ({"C": 1.0, "bias": "maybe"}, "bias must be"),
    ({"C": 1.0, "n_iter": 0}, "n_iter"),
])
def test_input_errors(blobs, kwargs, match):
    X, y = blobs
    with pytest.raises(ValueError, match=match):
        solve_primal_pegasos(X, y, **kwargs)
