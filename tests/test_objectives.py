"""Tests of svmlib.objectives: the formulas, checked on the book's hand-solved example."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from svmlib import datasets
from svmlib.objectives import (decision_values, dual_objective, duality_gap, hinge_loss,
                               kernel_matrix_Q, kkt_violations, max_kkt_violation,
                               primal_objective, primal_objective_kernel)


@pytest.fixture
def tiny():
    return datasets.tiny_hard_margin()


def test_Q_is_elementwise_product():
    K = np.array([[1.0, 2.0], [2.0, 5.0]])
    y = np.array([1.0, -1.0])
    np.testing.assert_array_equal(kernel_matrix_Q(K, y), [[1.0, -2.0], [-2.0, 5.0]])


def test_objectives_at_hand_solved_example(tiny):
    X, y = tiny["X"], tiny["y"].astype(float)
    Q = kernel_matrix_Q(X @ X.T, y)
    assert dual_objective(tiny["alpha"], Q) == pytest.approx(tiny["objective"])
    assert primal_objective(tiny["w"], tiny["b"], X, y, np.inf) == pytest.approx(tiny["objective"])
    assert duality_gap(tiny["alpha"], tiny["b"], X @ X.T, y, np.inf) == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(kkt_violations(tiny["alpha"], tiny["b"], X @ X.T, y, np.inf),
                               0.0, atol=1e-12)


def test_hard_margin_primal_is_infinite_when_infeasible(tiny):
    X, y = tiny["X"], tiny["y"]
    assert primal_objective(tiny["w"], tiny["b"] + 0.5, X, y, np.inf) == np.inf
    # The same point with a finite C pays C times the slack.
    w, b = tiny["w"], tiny["b"] + 0.5
    slack = hinge_loss(y, X @ w + b)
    assert primal_objective(w, b, X, y, 2.0) == pytest.approx(0.5 * w @ w + 2.0 * slack.sum())


def test_hinge_loss_cases():
    y = np.array([1, 1, 1, -1])
    scores = np.array([2.0, 1.0, 0.5, 0.5])
    np.testing.assert_allclose(hinge_loss(y, scores), [0.0, 0.0, 0.5, 1.5])


def test_kkt_violations_each_case():
    # K = identity: f(x_i) = alpha_i y_i + b, margins m_i = alpha_i + b y_i.
    K = np.eye(3)
    y = np.array([1.0, 1.0, -1.0])
    C = 1.0
    alpha = np.array([0.0, 0.5, 1.0])
    b = 0.0
    margins = y * decision_values(alpha, b, K, y)      # [0, 0.5, 1]
    np.testing.assert_allclose(margins, [0.0, 0.5, 1.0])
    # alpha=0 needs m>=1 (violated by 1); free needs m=1 (by 0.5); alpha=C needs m<=1 (ok).
    np.testing.assert_allclose(kkt_violations(alpha, b, K, y, C), [1.0, 0.5, 0.0])


def test_max_kkt_violation_zero_at_solution_positive_elsewhere(tiny):
    X, y = tiny["X"], tiny["y"].astype(float)
    Q = kernel_matrix_Q(X @ X.T, y)
    grad = Q @ tiny["alpha"] - 1.0
    assert max_kkt_violation(tiny["alpha"], grad, y, np.inf) == pytest.approx(0.0, abs=1e-12)
    alpha0 = np.zeros(3)
    assert max_kkt_violation(alpha0, Q @ alpha0 - 1.0, y, np.inf) == pytest.approx(2.0)


def test_kernel_form_of_primal_matches_linear_form(tiny):
    X, y = tiny["X"], tiny["y"]
    alpha = np.array([0.2, 0.3, 0.1])
    w = (alpha * y) @ X
    for C in (0.5, 3.0):
        assert primal_objective_kernel(alpha, 0.3, X @ X.T, y, C) == pytest.approx(
            primal_objective(w, 0.3, X, y, C))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.1, 10.0))
def test_weak_duality_for_any_feasible_alpha(seed, C):
    """P(w(alpha), b) >= D(alpha) for every feasible alpha and every b (weak duality)."""
    rng = np.random.default_rng(seed)
    n = 8
    X = rng.normal(size=(n, 2))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    alpha = rng.uniform(0, C, size=n)
    # Project onto y^T alpha = 0 inside the box: scale down the larger side.
    pos, neg = alpha[y > 0].sum(), alpha[y < 0].sum()
    if pos > neg:
        alpha[y > 0] *= neg / pos
    else:
        alpha[y < 0] *= pos / neg
    assert abs(alpha @ y) < 1e-9
    b = rng.normal()
    assert duality_gap(alpha, b, X @ X.T, y, C) >= -1e-9


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_Q_is_psd_for_a_psd_kernel(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(6, 3))
    y = rng.choice([-1.0, 1.0], size=6)
    eigenvalues = np.linalg.eigvalsh(kernel_matrix_Q(X @ X.T, y))
    assert eigenvalues.min() >= -1e-9
