"""Tests for svmlib.hyperplane: the formulas of chapter 01 and their theory."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from svmlib.datasets import tiny_hard_margin
from svmlib.hyperplane import Hyperplane

finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


@st.composite
def planes_and_points(draw, max_dim=5, max_points=8):
    """A hyperplane with a not-too-small w, and points in its space."""
    p = draw(st.integers(1, max_dim))
    w = draw(arrays(np.float64, p, elements=finite))
    if np.linalg.norm(w) < 1e-2:
        w = w.copy()
        w[0] = 1.0
    b = draw(finite)
    n = draw(st.integers(1, max_points))
    X = draw(arrays(np.float64, (n, p), elements=finite))
    return Hyperplane(w, b), X


def random_points_on(H, n, rng):
    """``n`` random points of the hyperplane (projections of random points)."""
    return H.project(rng.normal(scale=5.0, size=(n, H.n_features)))


# ------------------------------------------------------------ construction
def test_stores_float_copies():
    w = np.array([1, 2])
    H = Hyperplane(w, 3)
    w[0] = 100
    assert H.w.dtype == np.float64
    assert H.w.tolist() == [1.0, 2.0]
    assert isinstance(H.b, float) and H.b == 3.0
    assert H.n_features == 2


def test_accepts_intercept_array_of_size_one():
    H = Hyperplane([1.0, 1.0], np.array([-2.0]))
    assert H.b == -2.0


@pytest.mark.parametrize("w", [[0.0, 0.0], [0]])
def test_zero_normal_rejected(w):
    with pytest.raises(ValueError, match="w must be a nonzero vector"):
        Hyperplane(w, 1.0)


@pytest.mark.parametrize("w", [[np.nan, 1.0], [np.inf, 1.0], [[1.0, 2.0]], "ab", []])
def test_bad_normal_rejected(w):
    with pytest.raises(ValueError, match="w must"):
        Hyperplane(w, 0.0)


@pytest.mark.parametrize("b", [np.nan, np.inf, "1", None, True, np.array([1.0, 2.0])])
def test_bad_offset_rejected(b):
    with pytest.raises(ValueError, match="b must be a finite real number"):
        Hyperplane([1.0, 0.0], b)


def test_dimension_mismatch_names_the_way_out():
    H = Hyperplane([1.0, 2.0, 3.0], 0.0)
    with pytest.raises(ValueError, match="3 columns") as info:
        H.decision_function([[1.0, 2.0]])
    assert "reshape" in str(info.value)
    with pytest.raises(ValueError, match="2-D"):
        H.signed_distance([1.0, 2.0, 3.0])


def test_repr_is_short_and_deterministic():
    assert repr(Hyperplane([3, 4], -5)) == "Hyperplane(w=[3., 4.], b=-5)"


# ----------------------------------------------------------------- formulas
def test_known_values():
    H = Hyperplane([3.0, 4.0], -5.0)
    X = np.array([[3.0, 4.0], [0.0, 0.0], [3.0, -1.0]])
    np.testing.assert_allclose(H.decision_function(X), [20.0, -5.0, 0.0])
    np.testing.assert_allclose(H.signed_distance(X), [4.0, -1.0, 0.0])
    np.testing.assert_allclose(H.distance(X), [4.0, 1.0, 0.0])
    np.testing.assert_allclose(H.project(X), [[0.6, 0.8], [0.6, 0.8], [3.0, -1.0]])
    np.testing.assert_allclose(H.normal, [0.6, 0.8])
    assert H.norm == pytest.approx(5.0)
    assert H.distance_from_origin == pytest.approx(1.0)
    np.testing.assert_allclose(H.point(), [0.6, 0.8])
    assert H.predict(X).tolist() == [1, -1, -1]   # h = 0 counts as -1


def test_one_dimensional_hyperplane_is_a_point():
    H = Hyperplane([2.0], -3.0)          # the point x = 1.5
    np.testing.assert_allclose(H.project([[10.0], [-4.0]]), [[1.5], [1.5]])
    np.testing.assert_allclose(H.signed_distance([[10.0], [-4.0]]), [8.5, -5.5])


def test_normal_is_orthogonal_to_the_hyperplane():
    rng = np.random.default_rng(0)
    H = Hyperplane(rng.normal(size=4), 1.3)
    P = random_points_on(H, 20, rng)
    np.testing.assert_allclose(H.decision_function(P), 0.0, atol=1e-10)
    differences = P[1:] - P[0]
    np.testing.assert_allclose(differences @ H.w, 0.0, atol=1e-9)
    assert np.linalg.norm(H.normal) == pytest.approx(1.0)


def test_projection_lies_on_the_plane_and_is_the_closest_point():
    rng = np.random.default_rng(1)
    for p in (2, 3, 6):
        H = Hyperplane(rng.normal(size=p), rng.normal())
        X = rng.normal(scale=3.0, size=(10, p))
        proj = H.project(X)
        np.testing.assert_allclose(H.decision_function(proj), 0.0, atol=1e-10)
        others = random_points_on(H, 500, rng)          # candidate points of H
        for x, px in zip(X, proj):
            best = np.linalg.norm(x - px)
            assert np.all(np.linalg.norm(others - x, axis=1) >= best - 1e-10)
            # Pythagoras: ||x - x'||^2 = ||x - pi(x)||^2 + ||pi(x) - x'||^2
            np.testing.assert_allclose(
                np.sum((x - others) ** 2, axis=1),
                best ** 2 + np.sum((px - others) ** 2, axis=1), rtol=1e-9)


def test_signed_distance_from_the_decomposition_both_ways():
    rng = np.random.default_rng(2)
    H = Hyperplane(rng.normal(size=3), -0.7)
    # From x to r: x = pi(x) + r * w / ||w||.
    X = rng.normal(scale=4.0, size=(25, 3))
    r = H.signed_distance(X)
    np.testing.assert_allclose(H.project(X) + r[:, None] * H.normal, X, atol=1e-10)
    # From r to x: start on H, walk r along the unit normal.
    base = random_points_on(H, 25, rng)
    steps = rng.uniform(-5, 5, size=25)
    np.testing.assert_allclose(H.signed_distance(base + steps[:, None] * H.normal), steps,
                               atol=1e-10)


def test_dot_product_view_of_the_signed_distance():
    # r = x_w + b / ||w|| with x_w the component of x along w.
    rng = np.random.default_rng(3)
    H = Hyperplane(rng.normal(size=2), 2.5)
    X = rng.normal(size=(10, 2))
    np.testing.assert_allclose(H.signed_distance(X), X @ H.normal + H.b / H.norm)


def test_distance_from_origin_is_the_distance_of_the_closest_point():
    H = Hyperplane([1.0, -2.0, 2.0], 6.0)
    assert H.distance_from_origin == pytest.approx(2.0)
    assert np.linalg.norm(H.point()) == pytest.approx(2.0)
    assert H.distance([[0.0, 0.0, 0.0]])[0] == pytest.approx(2.0)
    assert H.decision_function(H.point()[None, :])[0] == pytest.approx(0.0)


# ----------------------------------------------------- separation, margins
def test_separates_and_geometric_margin():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [3.0, 0.0], [4.0, 1.0]])
    y = np.array([-1, -1, 1, 1])
    H = Hyperplane([1.0, 0.0], -2.0)           # the line x1 = 2
    assert H.separates(X, y)
    assert H.geometric_margin(X, y) == pytest.approx(1.0)
    np.testing.assert_allclose(H.functional_margin(X, y), [2.0, 1.0, 1.0, 2.0])
    flipped = Hyperplane([-1.0, 0.0], 2.0)     # same line, other orientation
    assert not flipped.separates(X, y)
    assert flipped.geometric_margin(X, y) == pytest.approx(-2.0)


def test_point_on_the_hyperplane_does_not_count_as_separated():
    X = np.array([[0.0, 0.0], [2.0, 0.0]])
    H = Hyperplane([1.0, 0.0], -2.0)
    assert not H.separates(X, [-1, 1])
    assert H.geometric_margin(X, [-1, 1]) == 0.0


def test_geometric_margin_of_the_tiny_hard_margin_example():
    ex = tiny_hard_margin()
    H = Hyperplane(ex["w"], ex["b"])
    assert H.separates(ex["X"], ex["y"])
    assert H.geometric_margin(ex["X"], ex["y"]) == pytest.approx(ex["margin"])
    np.testing.assert_allclose(H.functional_margin(ex["X"], ex["y"]), [1.0, 1.0, 1.5])


@pytest.mark.parametrize("y", [[0, 1], ["a", "b"], [1, 2]])
def test_labels_must_be_plus_minus_one(y):
    H = Hyperplane([1.0, 0.0], 0.0)
    with pytest.raises(ValueError, match="-1 and \\+1"):
        H.separates([[1.0, 0.0], [-1.0, 0.0]], y)


def test_label_count_must_match():
    H = Hyperplane([1.0, 0.0], 0.0)
    with pytest.raises(ValueError, match="same number of samples"):
        H.geometric_margin([[1.0, 0.0], [-1.0, 0.0]], [1])


# ------------------------------------------------------------ constructors
def test_from_slope_intercept():
    H = Hyperplane.from_slope_intercept(2.0, 1.0)
    np.testing.assert_allclose(H.w, [2.0, -1.0])
    assert H.b == 1.0
    x1 = np.linspace(-3, 3, 7)
    on_line = np.column_stack([x1, 2.0 * x1 + 1.0])
    np.testing.assert_allclose(H.decision_function(on_line), 0.0)
    assert H.decision_function([[0.0, 0.0]])[0] > 0     # below the line: positive
    assert H.decision_function([[0.0, 5.0]])[0] < 0
    assert H.to_slope_intercept() == pytest.approx((2.0, 1.0))
    assert H.distance_from_origin == pytest.approx(1.0 / np.sqrt(5.0))


@pytest.mark.parametrize("m, c", [(np.inf, 0.0), (0.0, np.nan), ("1", 0.0), (None, 1.0)])
def test_from_slope_intercept_rejects_bad_numbers(m, c):
    with pytest.raises(ValueError, match="vertical line"):
        Hyperplane.from_slope_intercept(m, c)


def test_to_slope_intercept_rejects_vertical_and_higher_dimensions():
    with pytest.raises(ValueError, match="non-vertical line"):
        Hyperplane([1.0, 0.0], -2.0).to_slope_intercept()
    with pytest.raises(ValueError, match="non-vertical line"):
        Hyperplane([1.0, 1.0, 1.0], 0.0).to_slope_intercept()


def test_from_point_normal():
    H = Hyperplane.from_point_normal([1.0, 2.0, 3.0], [0.0, 0.0, 2.0])
    assert H.b == -6.0
    assert H.decision_function([[5.0, -1.0, 3.0]])[0] == 0.0
    with pytest.raises(ValueError, match="same length"):
        Hyperplane.from_point_normal([1.0, 2.0], [1.0, 2.0, 3.0])


def test_equality_is_equality_of_oriented_sets():
    H = Hyperplane([1.0, 2.0], 3.0)
    assert H == Hyperplane([2.0, 4.0], 6.0)
    assert H != Hyperplane([-1.0, -2.0], -3.0)
    assert H != Hyperplane([1.0, 2.0], 3.1)
    assert H.__eq__("not a plane") is NotImplemented


# --------------------------------------------------------------- properties
@settings(max_examples=60, deadline=None)
@given(planes_and_points(), st.floats(0.01, 100))
def test_scaling_by_a_positive_factor_changes_nothing_geometric(plane_X, lam):
    H, X = plane_X
    G = Hyperplane(lam * H.w, lam * H.b)
    scale = 1.0 + np.abs(X).max() + abs(H.b) / H.norm
    np.testing.assert_allclose(G.signed_distance(X), H.signed_distance(X), atol=1e-9 * scale)
    np.testing.assert_allclose(G.project(X), H.project(X), atol=1e-9 * scale)
    np.testing.assert_allclose(G.normal, H.normal, atol=1e-12)
    np.testing.assert_allclose(G.decision_function(X), lam * H.decision_function(X),
                               atol=1e-9 * lam * scale * H.norm)
    assert G.distance_from_origin == pytest.approx(H.distance_from_origin, rel=1e-9, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(planes_and_points(), st.floats(0.01, 100))
def test_negative_scaling_flips_the_sign_only(plane_X, lam):
    H, X = plane_X
    G = Hyperplane(-lam * H.w, -lam * H.b)
    scale = 1.0 + np.abs(X).max() + abs(H.b) / H.norm
    np.testing.assert_allclose(G.signed_distance(X), -H.signed_distance(X), atol=1e-9 * scale)
    np.testing.assert_allclose(G.project(X), H.project(X), atol=1e-9 * scale)


@settings(max_examples=60, deadline=None)
@given(planes_and_points())
def test_shapes_projection_idempotent_and_on_plane(plane_X):
    H, X = plane_X
    n, p = X.shape
    scale = 1.0 + np.abs(X).max() + abs(H.b) / H.norm
    assert H.decision_function(X).shape == (n,)
    assert H.signed_distance(X).shape == (n,)
    P = H.project(X)
    assert P.shape == (n, p)
    np.testing.assert_allclose(H.signed_distance(P), 0.0, atol=1e-9 * scale)
    np.testing.assert_allclose(H.project(P), P, atol=1e-9 * scale)
    # the distance to the plane is the length of the step to the projection
    np.testing.assert_allclose(np.linalg.norm(X - P, axis=1), H.distance(X), atol=1e-9 * scale)


@settings(max_examples=40, deadline=None)
@given(planes_and_points(), finite)
def test_moving_along_the_normal_shifts_the_signed_distance(plane_X, t):
    H, X = plane_X
    scale = 1.0 + np.abs(X).max() + abs(H.b) / H.norm + abs(t)
    np.testing.assert_allclose(H.signed_distance(X + t * H.normal),
                               H.signed_distance(X) + t, atol=1e-9 * scale)
