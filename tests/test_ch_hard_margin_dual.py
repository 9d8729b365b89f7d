"""Tests of the chapter "The hard-margin SVM and its dual": checkers, figures, widgets.

The theory is tested too: the closest points of the convex hulls give the
dual solution (alpha = 2 u / delta^2, margin delta / 2), and every frame of the
interactive figures satisfies the KKT conditions with a support-vector set
that is not ambiguous.
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from svmlib import SVC, datasets, geometry, solvers  # noqa: E402
from svmlib.exercises import Feedback  # noqa: E402
from svmlib.exercises import hard_margin_dual as ex  # noqa: E402
from svmlib.plotting import hard_margin_dual as hp  # noqa: E402
from svmlib.widgets import hard_margin_dual as hw  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def blobs():
    X, y = datasets.separable_blobs(n=40, margin=1.0, random_state=0)
    y = y.astype(float)
    result = solvers.solve_dual_slsqp(X @ X.T, y, C=np.inf)
    return X, y, result.alpha


@pytest.fixture(scope="module")
def noisy_alpha(blobs):
    """The exact multipliers plus solver-like noise where they are zero."""
    X, y, alpha = blobs
    rng = np.random.default_rng(3)
    noisy = alpha.copy()
    zero = alpha == 0
    noisy[zero] = rng.uniform(0, 1e-13, size=zero.sum())
    return noisy


def _not_yet(feedback, *words):
    assert isinstance(feedback, Feedback)
    assert not feedback, feedback.text
    for word in words:
        assert word in feedback.message, feedback.message


# ----------------------------------------------------------------- exercises

class TestCheckDualMatrix:
    def test_right(self, blobs):
        X, y, _ = blobs
        fb = ex.check_dual_matrix(np.outer(y, y) * (X @ X.T), X, y)
        assert fb and "40 x 40" in fb.message

    def test_right_as_nested_list(self):
        d = datasets.tiny_hard_margin()
        H = [[2, -6, -7], [-6, 18, 21], [-7, 21, 25]]
        assert ex.check_dual_matrix(H, d["X"], d["y"], other_data=True)

    def test_missing_labels(self, blobs):
        X, y, _ = blobs
        _not_yet(ex.check_dual_matrix(X @ X.T, X, y), "labels are missing")

    def test_matrix_product_instead_of_elementwise(self, blobs):
        X, y, _ = blobs
        _not_yet(ex.check_dual_matrix(np.outer(y, y) @ (X @ X.T), X, y), "entry-by-entry")

    def test_sign_and_factor(self, blobs):
        X, y, _ = blobs
        H = np.outer(y, y) * (X @ X.T)
        _not_yet(ex.check_dual_matrix(-H, X, y), "sign")
        _not_yet(ex.check_dual_matrix(2 * H, X, y), "twice what it should be")
        _not_yet(ex.check_dual_matrix(0.5 * H, X, y), "half of what it should be")

    def test_feature_by_feature_matrix(self, blobs):
        X, y, _ = blobs
        _not_yet(ex.check_dual_matrix(X.T @ X, X, y), "X @ X.T")

    @pytest.mark.parametrize("answer", [None, "H", ..., np.zeros((3, 3)), [[1, 2], [3]], np.nan])
    def test_malformed(self, blobs, answer):
        X, y, _ = blobs
        fb = ex.check_dual_matrix(answer, X, y)
        assert isinstance(fb, Feedback) and not fb


class TestCheckSupportVectors:
    def test_right_in_any_order_and_type(self, noisy_alpha):
        expected = [22, 23, 25]
        assert ex.check_support_vectors(expected, noisy_alpha)
        assert ex.check_support_vectors(np.array([25, 22, 23]), noisy_alpha)
        assert ex.check_support_vectors(tuple(expected), noisy_alpha)
        assert ex.check_support_vectors(set(expected), noisy_alpha)
        assert ex.check_support_vectors(frozenset(expected), noisy_alpha)

    def test_noise_counted(self, noisy_alpha):
        _not_yet(ex.check_support_vectors(np.flatnonzero(noisy_alpha > 0), noisy_alpha),
                 "noise", "threshold")

    def test_one_based(self, noisy_alpha):
        _not_yet(ex.check_support_vectors([23, 24, 26], noisy_alpha), "shifted by one")

    def test_mask(self, noisy_alpha):
        _not_yet(ex.check_support_vectors(noisy_alpha > 1e-6, noisy_alpha), "mask")

    def test_values_instead_of_indices(self, noisy_alpha):
        _not_yet(ex.check_support_vectors(noisy_alpha[[22, 23, 25]], noisy_alpha),
                 "multipliers of the support vectors")

    def test_threshold_too_large(self, noisy_alpha):
        _not_yet(ex.check_support_vectors(np.flatnonzero(noisy_alpha > 0.1), noisy_alpha),
                 "missed 1 support vector")

    def test_points_instead_of_indices(self, blobs, noisy_alpha):
        X, _, _ = blobs
        _not_yet(ex.check_support_vectors(X[[22, 23, 25]], noisy_alpha), "indices")

    def test_duplicates_and_range(self, noisy_alpha):
        _not_yet(ex.check_support_vectors([22, 22, 23, 25], noisy_alpha), "twice")
        _not_yet(ex.check_support_vectors([22, 23, 99], noisy_alpha), "between 0 and 39")

    @pytest.mark.parametrize("answer", [None, "22, 23", ..., [[1, 2], [3]], {1: 2}, float("nan"),
                                        lambda: 0])
    def test_malformed(self, noisy_alpha, answer):
        fb = ex.check_support_vectors(answer, noisy_alpha)
        assert isinstance(fb, Feedback) and not fb

    def test_threshold_is_relative(self):
        assert ex.support_threshold([0.5, 0.0]) == pytest.approx(1e-6)
        assert ex.support_threshold([200.0, 0.0]) == pytest.approx(2e-4)


class TestCheckWAndB:
    @pytest.fixture
    def truth(self, blobs, noisy_alpha):
        X, y, _ = blobs
        sv = noisy_alpha > 1e-6
        w = (noisy_alpha * y) @ X
        b = float(np.mean(y[sv] - X[sv] @ w))
        return X, y, noisy_alpha, w, b

    def test_right(self, truth):
        X, y, alpha, w, b = truth
        fb = ex.check_w_and_b(w, b, X, y, alpha)
        assert fb and "3 support vectors" in fb.message
        assert ex.check_w_and_b(list(w), np.array([b]), X, y, alpha)

    def test_against_svmlib(self, truth):
        X, y, alpha, w, b = truth
        svc = SVC(kernel="linear", C=np.inf, tol=1e-6).fit(X, y)
        np.testing.assert_allclose(svc.coef_[0], w, atol=1e-4)
        assert svc.intercept_[0] == pytest.approx(b, abs=1e-4)

    def test_w_mistakes(self, truth):
        X, y, alpha, w, b = truth
        _not_yet(ex.check_w_and_b(alpha @ X, b, X, y, alpha), "labels are missing")
        _not_yet(ex.check_w_and_b(-w, b, X, y, alpha), "wrong sign")
        _not_yet(ex.check_w_and_b(2 * w, b, X, y, alpha), "factor of 2")
        _not_yet(ex.check_w_and_b(alpha * y, b, X, y, alpha), "(alpha * y) @ X")
        _not_yet(ex.check_w_and_b(w.reshape(-1, 1), b, X, y, alpha), "shape")

    def test_b_mistakes(self, truth):
        X, y, alpha, w, b = truth
        _not_yet(ex.check_w_and_b(w, -b, X, y, alpha), "wrong sign")
        _not_yet(ex.check_w_and_b(w, float(np.mean(y - X @ w)), X, y, alpha), "all points")
        sv = alpha > 1e-6
        _not_yet(ex.check_w_and_b(w, float(np.mean(1 - X[sv] @ w)), X, y, alpha), "label y_s")
        _not_yet(ex.check_w_and_b(w, b + 0.3, X, y, alpha), "average")

    @pytest.mark.parametrize("w_answer, b_answer", [(None, 0.0), ("w", 0.0), ((1.0, 1.0), None),
                                                    ((1.0, 1.0), "b"), ([1.0, np.nan], 0.0),
                                                    ((1.0, 1.0), [1.0, 2.0])])
    def test_malformed(self, truth, w_answer, b_answer):
        X, y, alpha, w, b = truth
        if w_answer == (1.0, 1.0):
            w_answer = w          # a right w, so that the malformed b is reached
        fb = ex.check_w_and_b(w_answer, b_answer, X, y, alpha)
        assert isinstance(fb, Feedback) and not fb


# ----------------------------------------------------------------- plotting

class TestClosestHullPoints:
    def test_tiny_example_by_hand(self):
        d = datasets.tiny_hard_margin()
        hull = geometry.closest_hull_points(d["X"], d["y"])
        np.testing.assert_allclose(hull["c_plus"], [3, 3], atol=1e-6)
        np.testing.assert_allclose(hull["c_minus"], [1, 1], atol=1e-6)
        assert hull["distance"] == pytest.approx(2 * np.sqrt(2), abs=1e-6)
        np.testing.assert_allclose(hull["alpha"], d["alpha"], atol=1e-6)

    def test_theorem_on_blobs(self, blobs):
        """alpha = 2u/delta^2 solves the dual; w = 2(c+ - c-)/delta^2; margin delta/2."""
        X, y, alpha = blobs
        hull = geometry.closest_hull_points(X, y)
        np.testing.assert_allclose(hull["alpha"], alpha, atol=1e-5)
        d = hull["c_plus"] - hull["c_minus"]
        w_hull = 2 * d / (d @ d)
        svc = SVC(kernel="linear", C=np.inf, tol=1e-6).fit(X, y)
        np.testing.assert_allclose(w_hull, svc.coef_[0], atol=1e-4)
        assert 1 / np.linalg.norm(svc.coef_[0]) == pytest.approx(hull["distance"] / 2, abs=1e-4)
        # the margin planes pass through the closest points
        b = svc.intercept_[0]
        assert hull["c_plus"] @ svc.coef_[0] + b == pytest.approx(1.0, abs=1e-3)
        assert hull["c_minus"] @ svc.coef_[0] + b == pytest.approx(-1.0, abs=1e-3)
        # convex weights of each class sum to one
        assert hull["u"][y > 0].sum() == pytest.approx(1.0)
        assert hull["u"][y < 0].sum() == pytest.approx(1.0)

    def test_overlapping_hulls(self):
        X = np.array([[0.0, 0.0], [2.0, 2.0], [0.0, 2.0], [2.0, 0.0]])
        y = np.array([1, 1, -1, -1])
        hull = geometry.closest_hull_points(X, y)
        assert hull["distance"] < 1e-6 and hull["alpha"] is None
        with pytest.raises(ValueError, match="not linearly separable"):
            hp.plot_hull_view(X, y)

    def test_bad_labels(self):
        with pytest.raises(ValueError, match="both classes"):
            geometry.closest_hull_points([[0, 0], [1, 1]], [1, 1])
        with pytest.raises(ValueError, match="-1, \\+1"):
            geometry.closest_hull_points([[0, 0], [1, 1]], [0, 1])


class TestFigures:
    def test_plot_dual_solution(self, blobs):
        X, y, alpha = blobs
        axes = hp.plot_dual_solution(X, y, alpha, highlight=23, alpha_max=0.5)
        assert len(axes) == 2
        rings = [c for c in axes[0].collections if c.get_gid() == "support-vectors"]
        assert len(rings) == 1 and rings[0].get_offsets().shape == (3, 2)
        labels = [t.get_text() for t in axes[1].texts]
        assert "0.8" in labels and "0.7" in labels       # clipped bars labelled
        assert axes[1].get_title().startswith("3 support vectors")

    def test_plot_dual_solution_without_solution(self, blobs):
        X, y, _ = blobs
        axes = hp.plot_dual_solution(X, y, None)
        assert "not separable" in axes[1].get_title()

    def test_votes_and_contributions(self, blobs):
        X, y, alpha = blobs
        w = (alpha * y) @ X
        sv = alpha > 1e-6
        b = float(np.mean(y[sv] - X[sv] @ w))
        x = np.array([0.8, 0.9])
        ax = hp.plot_dual_votes(X, y, alpha, b, x)
        assert sum(line.get_gid() == "votes" for line in ax.lines) == 3
        ax = hp.plot_vote_contributions(X, y, alpha, b, x)
        heights = [p.get_height() for p in ax.patches if p.get_gid() == "contributions"]
        assert len(heights) == 5
        assert heights[-1] == pytest.approx(sum(heights[:-1]))
        assert heights[-1] == pytest.approx(w @ x + b)

    def test_hull_view_and_annotations(self):
        X, y = datasets.ten_points()
        ax = hp.plot_hull_view(X, y)
        gids = {a.get_gid() for a in ax.get_children()}
        assert {"hull", "closest-segment", "closest-points", "midpoint"} <= gids
        ax = hp.annotate_points(X[:3], ax=ax)
        assert any(t.get_text() == "$\\mathbf{x}_{3}$" for t in ax.texts)
        with pytest.raises(ValueError, match="one entry per point"):
            hp.annotate_points(X[:3], names=["a"])

    def test_dual_landscape(self):
        def D(a2, a3):        # the three-point dual (eq-hmd-tiny-dual)
            return 2 * a2 + 2 * a3 - 4 * a2**2 - 10 * a2 * a3 - 6.5 * a3**2

        ax = hp.plot_dual_landscape(D, points={"stationary": (1.5, -1.0), "max": (0.25, 0.0)})
        assert ax.get_xlim() == pytest.approx((-0.3, 1.9))
        assert len(ax.collections) >= 3                    # contours, quadrant, markers
        offsets = [c.get_offsets() for c in ax.collections if c.get_label() == "max"]
        assert np.allclose(offsets[0], [[0.25, 0.0]])
        with pytest.raises(TypeError, match="D must be a function"):
            hp.plot_dual_landscape(np.zeros(3))
        with pytest.raises(ValueError, match="extent"):
            hp.plot_dual_landscape(D, extent=(1.0, 0.0, 0.0, 1.0))
        with pytest.raises(ValueError, match="one value per grid point"):
            hp.plot_dual_landscape(lambda a, b: 1.0)


# ----------------------------------------------------------------- widgets

GRIDS = {
    5: (np.arange(1.5, 4.6, 0.5), np.arange(1.0, 4.1, 0.5)),
    2: (np.arange(0.5, 3.6, 0.5), np.arange(0.0, 3.1, 0.5)),
}


def test_playground_solution():
    X, y = datasets.ten_points()
    svc = SVC(kernel="linear", C=np.inf, tol=1e-6).fit(X, y)
    assert sorted(svc.support_.tolist()) == [1, 5, 8]
    # points 2 and 5 are on the sliders' grid
    for index, (xs, ys) in GRIDS.items():
        assert np.isclose(xs, X[index, 0]).any() and np.isclose(ys, X[index, 1]).any()


@pytest.mark.parametrize("index, goal", [(5, "stop"), (2, "become")])
def test_moving_point_goal(index, goal):
    X, y = datasets.ten_points()
    xs, ys = GRIDS[index]
    fig = hw.moving_point_figure(X, y, index, xs, ys, goal=goal)
    assert fig.n_settings == 49
    settings = fig.settings()
    reached = [s for s in settings if fig.goal(**s)]
    assert not fig.goal(x=X[index, 0], y_coord=X[index, 1])      # not solved at the start
    assert 5 <= len(reached) < 49                               # reachable, not trivial
    png, readout = fig.frame(**reached[0])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "svmlib-success" in readout
    # some positions make the data inseparable; the goal is never met there
    blocked = [s for s in settings if "not separable" in fig.frame(**s)[1]]
    assert blocked and not any(fig.goal(**s) for s in blocked)


def test_moving_point_text_is_deterministic():
    X, y = datasets.ten_points()
    xs, ys = GRIDS[5]
    a = hw.moving_point_figure(X, y, 5, xs, ys).text()
    b = hw.moving_point_figure(X, y, 5, xs, ys).text()
    assert a == b
    assert "Point 5 at (3, 2.5): a support vector" in a
    assert "Support vectors: 1, 5, 8" in a


@pytest.mark.parametrize("index", [5, 2])
def test_every_frame_satisfies_kkt_without_ambiguity(index):
    """Complementary slackness in every frame, and no point exactly on a margin with alpha = 0."""
    X, y = datasets.ten_points()
    y = y.astype(float)
    xs, ys = GRIDS[index]
    for px in xs:
        for py in ys:
            X_moved = X.copy()
            X_moved[index] = (px, py)
            sol = hw._solve(X_moved, y, 1e-6)
            if sol is None:
                continue
            margins = y * (X_moved @ sol["w"] + sol["b"])
            assert margins.min() > 1 - 1e-5                                  # feasible
            on_margin = np.flatnonzero(np.abs(margins - 1) < 1e-4)
            assert on_margin.tolist() == sol["support"].tolist(), (px, py)   # no degeneracy
            assert np.all(sol["alpha"][sol["support"]] > 1e-3)
            np.testing.assert_allclose(sol["alpha"] @ y, 0.0, atol=1e-8)


def test_moving_point_errors():
    X, y = datasets.ten_points()
    xs, ys = GRIDS[5]
    with pytest.raises(ValueError, match="index"):
        hw.moving_point_figure(X, y, 10, xs, ys)
    with pytest.raises(ValueError, match="goal"):
        hw.moving_point_figure(X, y, 5, xs, ys, goal="win")
    with pytest.raises(ValueError, match="on the grid"):
        hw.moving_point_figure(X, y, 5, xs + 0.25, ys)
    with pytest.raises(ValueError, match="shape"):
        hw.moving_point_figure(X[:, :1], y, 5, xs, ys)
