"""Tests of chapter 04 (Lagrange multipliers, KKT): plotting, widgets, checkers, theory."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy.optimize import minimize, root  # noqa: E402

from svmlib.widgets._core import MAX_HTML_BYTES  # noqa: E402
from svmlib import datasets  # noqa: E402
from svmlib.exercises import lagrange_kkt as ex  # noqa: E402
from svmlib.plotting import lagrange_kkt as P  # noqa: E402
from svmlib.widgets import lagrange_kkt as W  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def ex_a():
    return datasets.lagrange_example_a()


@pytest.fixture(scope="module")
def ex_b():
    return datasets.lagrange_example_b()


def _grad_L(problem):
    def grad_L(z):
        x, y, lam = z
        return np.r_[problem["grad_f"](x, y) + lam * problem["grad_g"](x, y), problem["g"](x, y)]
    return grad_L


# ------------------------------------------------------------------ theory

def test_example_a_stationary_point_solves_lagrange_system(ex_a):
    z = np.r_[ex_a["points"][0], ex_a["multipliers"][0]]
    assert np.allclose(_grad_L(ex_a)(z), 0.0, atol=1e-12)
    assert np.isclose(ex_a["f"](*ex_a["points"][0]), 0.5)
    sol = root(_grad_L(ex_a), [3.0, 2.0, -4.0])
    assert np.allclose(sol.x, [0.5, -0.5, 1.0], atol=1e-9)


def test_example_b_has_exactly_six_stationary_points(ex_b):
    found = []
    for x0 in (-2.0, -0.5, 1.0, 2.5):
        for y0 in (-2.0, 0.5, 2.0):
            for l0 in (-1.0, 0.0, 1.0):
                z = root(_grad_L(ex_b), [x0, y0, l0]).x
                if np.max(np.abs(_grad_L(ex_b)(z))) < 1e-10 and \
                        not any(np.allclose(z, w, atol=1e-6) for w in found):
                    found.append(z)
    found = np.array(found)
    assert len(found) == 6
    for p, lam, v in zip(ex_b["points"], ex_b["multipliers"], ex_b["values"]):
        hit = np.all(np.abs(found - np.r_[p, lam]) < 1e-7, axis=1)
        assert hit.sum() == 1
        assert np.isclose(ex_b["f"](*p), v)
    assert np.isclose(max(ex_b["f"](*p) for p in found[:, :2]), 2.0)


def test_gradients_parallel_exactly_at_stationary_points(ex_b):
    for p in ex_b["points"]:
        angle = W.gradient_angle(ex_b["grad_f"](*p), ex_b["grad_g"](*p))
        assert np.isnan(angle) or min(angle, 180 - angle) < 1e-6
    q = np.sqrt(3) * np.array([np.cos(0.3), np.sin(0.3)])
    angle = W.gradient_angle(ex_b["grad_f"](*q), ex_b["grad_g"](*q))
    assert 1.0 < angle < 179.0


def test_gradient_angle_values():
    assert W.gradient_angle([1, 0], [2, 0]) == pytest.approx(0.0)
    assert W.gradient_angle([1, 0], [-3, 0]) == pytest.approx(180.0)
    assert W.gradient_angle([1, 0], [0, 5]) == pytest.approx(90.0)
    assert np.isnan(W.gradient_angle([0, 0], [1, 1]))


@settings(max_examples=25, deadline=None)
@given(st.floats(0.05, 3.0), st.floats(0.0, 2 * np.pi))
def test_disk_closed_form_matches_slsqp_and_kkt(radius, angle):
    """(eq-disk-solution): mu* = max(0, ||a|| - 1), x* = a / (1 + mu*), against SLSQP."""
    a = radius * np.array([np.cos(angle), np.sin(angle)])
    mu = max(0.0, radius - 1.0)
    x = a / (1.0 + mu)
    res = minimize(lambda z: (z - a) @ (z - a), np.zeros(2), jac=lambda z: 2 * (z - a),
                   method="SLSQP", options={"ftol": 1e-14},
                   constraints=[{"type": "ineq", "fun": lambda z: 1 - z @ z,
                                 "jac": lambda z: -2 * z}])
    assert np.allclose(res.x, x, atol=1e-5)
    h = x @ x - 1.0
    assert np.allclose(2 * (x - a) + mu * 2 * x, 0.0, atol=1e-12)   # stationarity
    assert h <= 1e-12 and mu >= 0 and abs(mu * h) < 1e-12
    # (eq-disk-dual): the dual optimum equals the primal optimum (no gap)
    q = mu / (1 + mu) * (a @ a) - mu
    assert q == pytest.approx((x - a) @ (x - a), abs=1e-12)


# ---------------------------------------------------------------- plotting

def test_plot_constrained_contours_draws_constraint(ex_a):
    ax = P.plot_constrained_contours(ex_a["f"], ex_a["g"], constraint_label="g = 0")
    assert ax.get_xlim() == (-2.0, 2.0)
    colors = [tuple(np.round(c, 3)) for coll in ax.collections
              for c in np.atleast_2d(coll.get_edgecolor()) if len(c)]
    purple = tuple(np.round(matplotlib.colors.to_rgba(P.GRADIENT_COLORS["g"]), 3))
    assert purple in colors
    assert ax.get_legend_handles_labels()[1] == ["g = 0"]


def test_plot_constrained_contours_region_and_existing_ax(ex_b):
    fig, ax = plt.subplots()
    out = P.plot_constrained_contours(ex_b["f"], ex_b["g"], ax=ax, region=True,
                                      contour_labels=True, levels=[-2, 0, 2])
    assert out is ax
    assert len(ax.collections) >= 4      # filled f, lines of f, region, constraint


def test_plot_gradient_arrows_lengths_and_zero_gradient():
    ax = P.plot_gradient_arrows([0, 0], [2, 0], [5, 0], length=1.0, g_scale=0.5)
    arrows = [t for t in ax.texts if getattr(t, "arrow_patch", None) is not None]
    assert len(arrows) == 2
    heads = sorted(t.xy[0] for t in arrows)
    assert heads == pytest.approx([0.5, 1.0])
    ax = P.plot_gradient_arrows([0, 0], [0, 0], None)
    assert not [t for t in ax.texts if getattr(t, "arrow_patch", None) is not None]


def test_plot_stationary_points_annotations(ex_b):
    ax = P.plot_stationary_points(ex_b["points"], ex_b["values"], best=[0, 1], fmt="{:.0f}")
    assert len(ax.collections) == 6
    assert sorted(t.get_text() for t in ax.texts) == ["-2", "-2", "0", "0", "2", "2"]


def test_plot_along_constraint_and_dual_and_saddle():
    ax = P.plot_along_constraint(np.sin, np.linspace(0, 3, 50), marks=[np.pi / 2])
    assert len(ax.lines) >= 1 and len(ax.collections) == 1
    ax = P.plot_dual_function(lambda m: m - m ** 2 / 4, np.linspace(0, 4, 50), p_star=1.0,
                              mu_star=2.0)
    labels = ax.get_legend_handles_labels()[1]
    assert "$p^* = 1$" in labels
    ax = P.plot_lagrangian_saddle(lambda x, m: x ** 2 + m * (1 - x), (-1, 2), (0, 4),
                                  saddle=(1, 2), argmin=lambda m: m / 2)
    assert ax.get_ylim() == (0.0, 4.0)
    assert "saddle point" in ax.get_legend_handles_labels()[1]


# ----------------------------------------------------------------- widgets

def test_price_explorer_matches_slsqp_and_the_sensitivity(ex_a):
    fig = W.price_explorer(ex_a)
    levels = fig.controls["c"].values
    assert fig.n_settings == len(levels) == 17
    assert [c for c in levels if fig.goal(c=c)] == [-1.0]   # df*/dc = +1, not the obvious c = 0
    for c in (-1.0, 0.5, 1.0, 2.0):
        # the readout's best point and multiplier against SLSQP on x - y = c
        res = minimize(lambda p: -ex_a["f"](*p), x0=[1.0, 1.0], method="SLSQP",
                       constraints=[{"type": "eq", "fun": lambda p: p[0] - p[1] - c}],
                       options={"ftol": 1e-12})
        np.testing.assert_allclose(res.x, [c / 2, -c / 2], atol=1e-6)
        # df*/dc = -lambda* by a central difference of the optimal value
        h = 1e-4
        slope = ((1 - (c + h) ** 2 / 2) - (1 - (c - h) ** 2 / 2)) / (2 * h)
        _, readout = fig.frame(c=c)
        lam = f"{c:.2f}".replace("-", "−")
        assert f"multiplier λ* = {lam}" in readout
        assert slope == pytest.approx(-c, abs=1e-8)
        assert f"f* = {1 - c * c / 2:.3f}".replace("-", "−") in readout
    png, readout = fig.frame(c=-1.0)
    assert png.startswith(b"\x89PNG") and "svmlib-success" in readout
    _, readout = fig.frame(c=0.0)                 # free, but not the goal any more
    assert "svmlib-success" not in readout
    assert "c = 0" not in fig.goal_text           # the goal does not name the answer
    _, readout = fig.frame(c=1.0)
    assert "lowers the best value" in readout and "svmlib-success" not in readout
    assert fig.text().startswith("Example A: the price of the constraint\nlevel c = 1.00")
    with pytest.raises(ValueError, match="levels must be"):
        W.price_explorer(ex_a, levels=[])


def test_example_b_exercise_goal_only_at_maxima(ex_b):
    fig = W.example_b_exercise(ex_b)
    assert fig.n_settings == len(W.EXAMPLE_B_ANGLES) == 60
    # no stop gives the answer away: none lies on a stationary angle off the axes
    stationary = np.degrees(np.arctan2(1, np.sqrt(2)))
    for t0 in (stationary, 180 - stationary, 180 + stationary, 360 - stationary):
        assert np.min(np.abs(W.EXAMPLE_B_ANGLES - t0)) > 0.5
    hits = [t for t in W.EXAMPLE_B_ANGLES if fig.goal(t=t)]
    assert hits == [36.0, 144.0]                  # the stops next to the two maxima
    _, readout = fig.frame(t=36.0)
    assert "svmlib-success" in readout and "λ = −1" in readout and "(±√2, 1)" in readout
    assert "decreasing t" in readout              # just past the maximum at 35.26°
    _, readout = fig.frame(t=30.0)
    assert "increasing t" in readout and "svmlib-success" not in readout
    _, readout = fig.frame(t=90.0)
    assert "∇f = 0" in readout and "svmlib-success" not in readout
    _, readout = fig.frame(t=216.0)               # next to the minimum at 215.26°
    assert "svmlib-success" not in readout


def test_kkt_disk_explorer_readouts():
    fig = W.kkt_disk_explorer()
    assert fig.n_settings == 48
    for values in fig.settings():
        _, readout = fig.frame(**values)
        assert "μ*·c(x*) = 0.000" in readout
        if values["radius"] > 1:
            assert "Active" in readout
            assert f"μ* = {values['radius'] - 1:.3f}" in readout
        elif values["radius"] < 1:
            assert "Inactive" in readout and "μ* = 0.000" in readout
        else:
            assert "Active but μ* = 0" in readout


@pytest.mark.slow
def test_static_html_within_budget(ex_a, ex_b):
    for fig in (W.price_explorer(ex_a), W.example_b_exercise(ex_b), W.kkt_disk_explorer()):
        page = fig.to_html()
        assert len(page.encode()) <= MAX_HTML_BYTES   # the frames move to files in the book (svmlib_reading)
        assert page.count("<input type=\"range\"") == len(fig.controls)


# --------------------------------------------------------------- exercises

def test_check_ellipse_points_right_answers():
    pts = ex.ELLIPSE_POINTS
    assert ex.check_ellipse_points(pts)
    assert ex.check_ellipse_points(pts[::-1].tolist())
    assert ex.check_ellipse_points(np.c_[pts, ex.ELLIPSE_MULTIPLIERS] + 1e-8)
    # the (x, y, lambda, f) table that the chapter's show_points prints
    assert ex.check_ellipse_points(np.c_[pts, ex.ELLIPSE_MULTIPLIERS, pts[:, 0] * pts[:, 1]])


@pytest.mark.parametrize("answer, fragment", [
    (None, "None"),
    ("(2, 1)", "without quotes"),
    (..., "placeholder"),
    ([2.0, 1.0], "single point"),
    (ex.ELLIPSE_POINTS.T, "transposed"),
    (ex.ELLIPSE_POINTS[:2], "missing"),
    (ex.ELLIPSE_POINTS[[0, 1, 2]], "minima"),
    (np.r_[ex.ELLIPSE_POINTS, [[2.0, 1.0]]], "twice"),
    (np.r_[ex.ELLIPSE_POINTS, [[1.0, 1.0]]], "not on the ellipse"),
    (np.r_[ex.ELLIPSE_POINTS, [[np.sqrt(8.0), 0.0]]], "not stationary"),
    (np.c_[ex.ELLIPSE_POINTS, -ex.ELLIPSE_MULTIPLIERS], "wrong sign"),
    (np.c_[ex.ELLIPSE_POINTS, [-2.0, -2.0, 2.0, 1.0]], "lambda should be 2"),
    (np.ones((4, 5)), "expected (n_points, 2)"),
    # a root found too loosely: close to a stationary point, not "not parallel"
    (ex.ELLIPSE_POINTS + [[1e-4, 0.0], [0, 0], [0, 0], [0, 0]], "close to the stationary point"),
    (np.c_[ex.ELLIPSE_POINTS, ex.ELLIPSE_MULTIPLIERS, [2.0, 2.0, -2.0, 2.0]], "value f = x y"),
])
def test_check_ellipse_points_hints(answer, fragment):
    fb = ex.check_ellipse_points(answer)
    assert not fb
    assert fragment in fb.message


def _kkt_right(x, mu, grad_f, h, jac_h, tol=1e-6):
    mu, hx = np.asarray(mu, float), np.asarray(h(x), float)
    return (bool(np.linalg.norm(grad_f(x) + jac_h(x).T @ mu) <= tol), bool(np.all(hx <= tol)),
            bool(np.all(mu >= -tol)), bool(np.all(np.abs(mu * hx) <= tol)))


def test_check_kkt_function_accepts_right_answers():
    assert ex.check_kkt_function(_kkt_right)

    def as_dict(*args):
        names = ("stationarity", "primal feasibility", "dual feasibility",
                 "complementary slackness")
        return dict(zip(names, _kkt_right(*args)))
    assert ex.check_kkt_function(as_dict)

    def as_array(*args):
        return np.array(_kkt_right(*args))
    assert ex.check_kkt_function(as_array)


def _minus_sign(x, mu, grad_f, h, jac_h, tol=1e-6):
    s, p, d, c = _kkt_right(x, mu, grad_f, h, jac_h, tol)
    return bool(np.linalg.norm(grad_f(x) - jac_h(x).T @ np.asarray(mu)) <= tol), p, d, c


def _sum_slackness(x, mu, grad_f, h, jac_h, tol=1e-6):
    s, p, d, c = _kkt_right(x, mu, grad_f, h, jac_h, tol)
    return s, p, d, bool(abs(np.asarray(mu) @ h(x)) <= tol)


def _no_tolerance(x, mu, grad_f, h, jac_h, tol=1e-6):
    s, p, d, c = _kkt_right(x, mu, grad_f, h, jac_h, tol)
    return s, bool(np.all(h(x) <= 0)), d, c


def _transposed(x, mu, grad_f, h, jac_h, tol=1e-6):
    s, p, d, c = _kkt_right(x, mu, grad_f, h, jac_h, tol)
    return bool(np.linalg.norm(grad_f(x) + jac_h(x) @ np.asarray(mu)) <= tol), p, d, c


def _strict_dual(x, mu, grad_f, h, jac_h, tol=1e-6):
    s, p, d, c = _kkt_right(x, mu, grad_f, h, jac_h, tol)
    return s, p, bool(np.all(np.asarray(mu) > 0)), c


@pytest.mark.parametrize("answer, fragment", [
    (_minus_sign, "plus sign"),
    (_sum_slackness, "cancel in the sum"),
    (_no_tolerance, "tolerance"),
    (_transposed, "transpose"),
    (_strict_dual, "allow mu_i = 0"),
    (lambda *a, **k: None, "returned None"),
    (lambda *a, **k: (True, True), "four booleans"),
    (lambda *a, **k: ("yes", True, True, True), "True or False"),
    (lambda *a, **k: {"ok": True}, "dict"),
    (lambda *a, **k: 1 / 0, "ZeroDivisionError"),
    (None, "should be a function"),
    (np.ones(4), "should be a function"),
])
def test_check_kkt_function_hints(answer, fragment):
    fb = ex.check_kkt_function(answer)
    assert not fb
    assert fragment in fb.message


def test_check_kkt_function_shape_error_names_jacobian():
    def wrong_shapes(x, mu, grad_f, h, jac_h, tol=1e-6):
        return _kkt_right(x, mu, grad_f, h, jac_h, tol) if len(mu) == 2 else \
            (bool(np.linalg.norm(grad_f(x) + jac_h(x) @ np.asarray(mu)) <= tol), True, True, True)
    fb = ex.check_kkt_function(wrong_shapes)
    assert not fb and "m = 3" in fb.message and "jac_c(x).T @ mu" in fb.message


def test_feedback_text_is_deterministic():
    a = str(ex.check_kkt_function(_kkt_right))
    b = str(ex.check_kkt_function(_kkt_right))
    assert a == b and a.startswith("\u2705")


def test_plot_active_cone_two_and_one_active_constraints():
    # the chapter's corner: both constraints active, -grad f inside the wedge
    A, e = np.array([[1.0, 2.0], [2.0, 1.0]]), np.array([2.0, 2.0])
    ax = P.plot_active_cone(A, e, [2.0, 2.0], [2 / 3, 2 / 3])
    labels = ax.get_legend_handles_labels()[1]
    assert "cone of the active gradients" in labels and r"$-\nabla f(\mathbf{x}^*)$" in labels
    mu = np.linalg.solve(A.T, 2 * (np.array([2.0, 2.0]) - 2 / 3))
    np.testing.assert_allclose(mu, [8 / 9, 8 / 9])           # the chapter's multipliers
    # the exercise's point: only c_2 is active, so no wedge is drawn
    ax = P.plot_active_cone(A, e, [2.0, 0.5], [1.0, 0.0])
    assert "cone of the active gradients" not in ax.get_legend_handles_labels()[1]
