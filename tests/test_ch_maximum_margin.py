"""Tests of chapter 03 (maximum-margin hyperplanes): figures, widgets, checkers, theory."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy.optimize import minimize  # noqa: E402

from svmlib.widgets._core import MAX_HTML_BYTES  # noqa: E402
from svmlib import SVC, Hyperplane, Perceptron, datasets, geometry, paths  # noqa: E402
from svmlib.solvers import NotSeparableError  # noqa: E402
from svmlib.exercises import maximum_margin as ex  # noqa: E402
from svmlib.plotting import maximum_margin as mmplot  # noqa: E402
from svmlib.widgets import maximum_margin as mmwidgets  # noqa: E402

# The widget puzzle of the chapter: its maximum-margin line has a normal at 60°
# through the origin, with margin about 1.
X_TOY = np.array([
    [-0.63, 1.52], [1.45, 0.32], [1.78, 0.77], [1.11, 2.64], [1.04, 1.21],
    [2.43, 1.21], [2.83, 1.51], [0.99, 1.86], [0.76, 2.07],
    [-0.67, -0.77], [-3.10, -1.36], [-1.52, -1.33], [-0.54, -2.75],
    [-2.51, -0.17], [-0.26, -2.09], [-1.83, -2.42], [-2.17, -1.35],
    [-1.52, -0.80]])
Y_TOY = np.array([1] * 9 + [-1] * 9)


@pytest.fixture(scope="module")
def blobs():
    return datasets.separable_blobs(n=40, margin=1.0, random_state=0)


@pytest.fixture(scope="module")
def hard_margin(blobs):
    X, y = blobs
    model = SVC(kernel="linear", C=np.inf, tol=1e-8).fit(X, y)
    return model.coef_[0], float(model.intercept_[0])


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ------------------------------------------------------------------ theory

def test_hard_margin_solution_is_canonical_and_margin_is_one_over_norm(blobs, hard_margin):
    X, y = blobs
    w, b = hard_margin
    scores = y * (X @ w + b)
    assert scores.min() == pytest.approx(1.0, abs=1e-6)                  # (eq-canonical)
    assert Hyperplane(w, b).geometric_margin(X, y) == pytest.approx(
        1 / np.linalg.norm(w), rel=1e-6)                                 # (eq-margin-canonical)
    on_planes = np.flatnonzero(np.abs(scores - 1) < 1e-6)
    assert {-1, 1} <= set(y[on_planes].tolist())   # both margin planes carry a point


def test_maximum_margin_beats_every_perceptron(blobs, hard_margin):
    X, y = blobs
    gamma_star = 1 / np.linalg.norm(hard_margin[0])
    for seed in range(10):
        p = Perceptron(random_state=seed).fit(X, y)
        assert Hyperplane(p.coef_[0], p.intercept_[0]).geometric_margin(X, y) <= gamma_star + 1e-9


def test_qp_solution_is_unique_from_random_starts(blobs, hard_margin):
    """SLSQP on (eq-primal-hard) from random starts lands on svmlib's solution."""
    X, y = blobs
    A = y[:, None] * np.column_stack([X, np.ones(len(y))])
    cons = {"type": "ineq", "fun": lambda p: A @ p - 1.0, "jac": lambda p: A}
    rng = np.random.default_rng(7)
    for start in rng.normal(size=(5, 3)) * 3:
        res = minimize(lambda p: 0.5 * p[:2] @ p[:2], start, jac=lambda p: np.r_[p[:2], 0.0],
                       constraints=[cons], method="SLSQP")
        assert res.success
        np.testing.assert_allclose(res.x, [*hard_margin[0], hard_margin[1]], atol=1e-5)


def test_margin_by_angle_matches_brute_force_and_the_qp(blobs, hard_margin):
    X, y = blobs
    angles = np.array([-170.0, -30.0, 10.0, 47.0, 120.0])
    margins, biases = geometry.margin_by_angle(X, y, angles)
    for angle, m, b in zip(angles, margins, biases):
        u = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
        offsets = np.linspace(b - 2, b + 2, 4001)
        brute = np.max([np.min(y * (X @ u + t)) for t in offsets])
        assert m == pytest.approx(brute, abs=2e-3)
        assert np.min(y * (X @ u + b)) == pytest.approx(m, abs=1e-12)
    w, _ = hard_margin
    best_angle = np.degrees(np.arctan2(w[1], w[0]))
    m, _ = geometry.margin_by_angle(X, y, [best_angle])
    assert m[0] == pytest.approx(1 / np.linalg.norm(w), rel=1e-6)
    fine, _ = geometry.margin_by_angle(X, y, np.linspace(-180, 180, 3601))
    assert fine.max() <= 1 / np.linalg.norm(w) + 1e-9


@settings(max_examples=30, deadline=None)
@given(st.floats(0.01, 100.0))
def test_geometric_margin_is_scale_invariant(scale):
    H = Hyperplane([1.0, 2.0], -4.0)
    case = ex.margin_cases()[0]
    scaled = Hyperplane(scale * H.w, scale * H.b)
    assert scaled.geometric_margin(case["X"], case["y"]) == pytest.approx(
        H.geometric_margin(case["X"], case["y"]), rel=1e-9)


# ---------------------------------------------------------------- plotting

def test_plot_separators_margins_draws_segments_of_length_gamma(blobs, hard_margin):
    X, y = blobs
    w, b = hard_margin
    ax = mmplot.plot_separators_margins(X, y, [(w, b)], band=True)
    segments = [line for line in ax.get_lines() if line.get_gid() == "closest"]
    assert len(segments) == 3                 # three tied closest points
    gamma = 1 / np.linalg.norm(w)
    for line in segments:
        (x0, x1), (y0, y1) = line.get_data()
        assert np.hypot(x1 - x0, y1 - y0) == pytest.approx(gamma, rel=1e-5)
    assert any(p.get_gid() == "band" for p in ax.patches + ax.artists)


def test_plot_margin_geometry_rings_points_on_the_margin_planes(blobs, hard_margin):
    X, y = blobs
    ax = mmplot.plot_margin_geometry(*hard_margin, X, y)
    rings = [c for c in ax.collections if c.get_gid() == "support-vectors"]
    assert len(rings) == 1 and rings[0].get_offsets().shape[0] == 3
    assert len([line for line in ax.get_lines() if line.get_gid() == "margin"]) == 2


def test_landscape_and_optimizer_figures(blobs, hard_margin):
    X, y = blobs
    w, b = hard_margin
    ax = mmplot.plot_pointwise_margins(X, y, b / np.linalg.norm(w), np.linspace(0, 90, 91),
                                       highlight=45)
    assert len(ax.get_lines()) == X.shape[0] + 2
    ax = mmplot.plot_margin_by_angle(X, y)
    assert ax.get_xlim() == (-180, 180)
    ax = mmplot.plot_optimizer_runs({"a": [0.8, 0.4, -3.0], "b": [0.8, 0.8, 0.8]}, 0.8)
    texts = [t.get_text() for t in ax.texts]
    assert "1/3 at the optimum" in texts and "3/3 at the optimum" in texts
    assert "1 below -1" in texts


def test_logistic_band_rings_points_inside(blobs, hard_margin):
    X, y = blobs
    w, b = np.array([0.1, 0.1]), -0.15            # a short w: a wide band
    ax = mmplot.plot_logistic_band(w, b, X, y, reference=hard_margin, title="t")
    rings = [c for c in ax.collections if c.get_gid() == "support-vectors"]
    assert rings[0].get_offsets().shape[0] == int(np.sum(np.abs(X @ w + b) < 1))


def test_discs_and_sigmoid_profile(blobs, hard_margin):
    X, y = blobs
    ax = mmplot.plot_margin_discs(*hard_margin, X, y)
    discs = [c for c in ax.collections if c.get_gid() == "discs"]
    assert len(discs) == 2
    ax = mmplot.plot_sigmoid_profile(*hard_margin, X, y)
    curve = ax.get_lines()[0].get_ydata()
    assert curve.min() >= 0 and curve.max() <= 1


def test_plotting_rejects_bad_input(blobs):
    X, y = blobs
    with pytest.raises(ValueError, match="labels -1 and \\+1"):
        geometry.margin_by_angle(X, np.where(y > 0, 1, 0), [0.0])
    with pytest.raises(ValueError, match="2 entries"):
        mmplot.plot_margin_geometry([1.0, 2.0, 3.0], 0.0, X, y)


# ----------------------------------------------------------------- widgets

def test_margin_explorer_goal_only_at_the_maximum():
    # the chapter's call: the optimum is off the start in both controls
    fig = mmwidgets.margin_explorer(X_TOY, Y_TOY, center=(-0.075, -0.13), angle=0, offset=0.0)
    assert fig.n_settings == 180                  # 5° steps: the balance can be felt
    met = [s for s in fig.settings() if fig.goal(**s)]
    assert met == [{"angle": 60.0, "offset": 0.15}]
    assert not fig.goal(angle=0, offset=0.0)      # the start is not the answer
    assert "1.00" not in fig.goal_text            # the goal does not give away γ*
    png, readout = fig.frame(angle=60, offset=0.15)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "separates: <b>yes</b>" in readout and "svmlib-success" in readout
    _, readout = fig.frame(angle=150, offset=0.3)
    assert "separates: <b>no</b>" in readout and "svmlib-success" not in readout
    assert fig.text() == fig.text()               # deterministic plain text
    assert "γ = -0.555" in fig.text()


def test_margin_explorer_without_exercise_has_no_goal():
    fig = mmwidgets.margin_explorer(X_TOY, Y_TOY, exercise=False, angles=[0, 60],
                                    offsets=[0.0])
    assert fig.goal is None and fig.n_settings == 2


def test_support_vector_explorer_hands_over_the_support_vectors(blobs, hard_margin):
    X, y = blobs
    fig = mmwidgets.support_vector_explorer(X, y, index=39)
    offsets = fig.controls["offset"].values
    assert fig.n_settings == len(offsets) == 18
    path = paths.drag_path(X, y, 39, offsets, C=np.inf, tol=1e-8)
    w0, b0 = hard_margin
    first = {22, 23, 25}
    for p in path:
        support = set(p["support"].tolist())
        Xt = X.copy()
        Xt[39] = p["x"]
        # each frame is the hard-margin solution of the moved data: canonical, SVs on the planes
        scores = y * (Xt @ p["w"] + p["b"])
        assert scores.min() == pytest.approx(1.0, abs=1e-6)
        np.testing.assert_allclose(scores[sorted(support)], 1.0, atol=1e-6)
        if 39 not in support:
            # while the moved point is no support vector, nothing changes at all
            assert support == first
            np.testing.assert_allclose(np.r_[p["w"], p["b"]], np.r_[w0, b0], atol=1e-6)
    entered = [p["offset"] for p in path if 39 in set(p["support"].tolist())]
    gone = [p["offset"] for p in path if not first & set(p["support"].tolist())]
    assert entered[0] == 1.0 and gone[0] == 1.2
    assert [o for o in offsets if fig.goal(offset=o)] == [1.2]
    _, readout = fig.frame(offset=0.0)
    assert "rows 22, 23, 25 (the same as at the start" in readout
    assert "not a support vector" in readout and "svmlib-success" not in readout
    _, readout = fig.frame(offset=1.0)
    assert "rows 23, 25, 39 (joined: 39; left: 22)" in readout
    png, readout = fig.frame(offset=1.2)
    assert png.startswith(b"\x89PNG") and "svmlib-success" in readout
    assert "left: 22, 23, 25" in readout
    with pytest.raises(ValueError, match="index must be a row"):
        mmwidgets.support_vector_explorer(X, y, index=40)


def test_drag_path_hard_margin_refuses_inseparable_positions(blobs):
    X, y = blobs
    with pytest.raises(NotSeparableError):
        paths.drag_path(X, y, 39, [6.0], C=np.inf)


def test_logistic_margin_readouts(blobs):
    X, y = blobs
    fig = mmwidgets.logistic_margin(X, y, Cs=[0.01, 100.0])
    _, weak = fig.frame(C=100.0)
    _, strong = fig.frame(C=0.01)
    assert "points inside the band: 0" in weak
    assert "points inside the band: 40" in strong
    assert "maximum margin 0.805" in weak


@pytest.mark.slow
def test_static_html_within_budget():
    fig = mmwidgets.margin_explorer(X_TOY, Y_TOY, center=(0.0, 0.0))
    page = fig.to_html()
    assert len(page.encode()) <= MAX_HTML_BYTES   # the frames move to files in the book (svmlib_reading)
    assert page.count('type="range"') == 2


# --------------------------------------------------------------- exercises

def _margin_right(w, b, X, y):
    return np.min(y * (X @ w + b)) / np.linalg.norm(w)


@pytest.mark.parametrize("answer, hint", [
    (lambda w, b, X, y: np.min(y * (X @ w + b)), "functional margin"),
    (lambda w, b, X, y: np.min(y * (X @ w + b)) / (w @ w), "||w||^2"),
    (lambda w, b, X, y: np.min(np.abs(X @ w + b)) / np.linalg.norm(w), "|h(x_i)|"),
    (lambda w, b, X, y: np.max(y * (X @ w + b)) / np.linalg.norm(w), "minimum"),
    (lambda w, b, X, y: np.mean(y * (X @ w + b)) / np.linalg.norm(w), "averaged"),
    (lambda w, b, X, y: -_margin_right(w, b, X, y), "sign is reversed"),
    (lambda w, b, X, y: np.min(y * (X @ w)) / np.linalg.norm(w), "bias b is missing"),
    (lambda w, b, X, y: np.min(y * (X @ w + b)) / np.linalg.norm(np.r_[w, b]), "||(w, b)||"),
    (lambda w, b, X, y: y * (X @ w + b) / np.linalg.norm(w), "one value per point"),
    (lambda w, b, X, y: 1 / 0, "raised ZeroDivisionError"),
    (lambda w, b, X, y: "0.5", "string"),
    (lambda w, b, X, y: None, "None"),
    (lambda w, b, X, y: 0.123, "the geometric margin is"),
])
def test_check_geometric_margin_hints(answer, hint):
    feedback = ex.check_geometric_margin(answer)
    assert not feedback
    assert hint in feedback.message


def test_check_geometric_margin_accepts_right_answers():
    assert ex.check_geometric_margin(_margin_right)
    assert ex.check_geometric_margin(lambda w, b, X, y: Hyperplane(w, b).geometric_margin(X, y))
    assert ex.check_geometric_margin(lambda w, b, X, y: [_margin_right(w, b, X, y)])


@pytest.mark.parametrize("answer", [None, 0.5, "geometric_margin", np.zeros(3)])
def test_check_geometric_margin_malformed(answer):
    feedback = ex.check_geometric_margin(answer)
    assert not feedback and "function" in feedback.message


def test_margin_cases_cover_the_slips():
    cases = ex.margin_cases()
    assert [c["separates"] for c in cases] == [True, True, False, True]
    assert {c["X"].shape[1] for c in cases} == {2, 3}
    assert not any(np.isclose(np.linalg.norm(c["w"]), 1.0) for c in cases)


# ------------------------------------------------------- check_two_point_svm

def test_check_two_point_svm_matches_svc_and_names_slips():
    from svmlib import SVC, Hyperplane
    from svmlib.exercises.maximum_margin import check_two_point_svm

    xp, xm = np.array([1.0, 3.0]), np.array([5.0, 1.0])
    model = SVC(kernel="linear", C=np.inf).fit(np.vstack([xp, xm]), [1, -1])
    w, b = model.coef_[0], model.intercept_[0]
    assert check_two_point_svm((w, b), xp, xm)
    assert check_two_point_svm(Hyperplane(w, b), xp, xm)
    assert check_two_point_svm((w.tolist(), float(b)), xp.tolist(), xm.tolist())
    d, m = xp - xm, (xp + xm) / 2
    cases = [((d, -d @ m), "not its canonical scale"),
             ((-w, -b), "orientation is flipped"),
             ((w, 0.0), "misses the midpoint"),
             ((d / np.linalg.norm(d), -d @ m / np.linalg.norm(d)), "normalized w to length 1"),
             ((3 * w, 3 * b), "wrong scale"),
             ((np.array([1.0, 2.0]), 0.0), "not the widest street"),
             (None, "None"), ("wb", "without quotes"), (3.0, "pair")]
    for answer, words in cases:
        fb = check_two_point_svm(answer, xp, xm)
        assert not fb and words in fb.message, (answer, fb.message)
    # three dimensions
    a3, c3 = np.array([1.0, 0.0, 2.0]), np.array([-1.0, 2.0, 0.0])
    w3 = 2 * (a3 - c3) / ((a3 - c3) @ (a3 - c3))
    assert check_two_point_svm((w3, -w3 @ (a3 + c3) / 2), a3, c3, other_data=True)


def test_check_which_moves_matter(blobs):
    X, y = blobs
    right = {"a": False, "b": True, "c": True, "d": False, "e": False}
    feedback = ex.check_which_moves_matter(right, X, y)
    assert feedback and "1.65" in feedback.message
    # the truth comes from refits, not from a table: check it against the moves themselves
    base = np.r_[SVC(kernel="linear", C=np.inf, tol=1e-8).fit(X, y).coef_[0],
                 SVC(kernel="linear", C=np.inf, tol=1e-8).fit(X, y).intercept_[0]]
    for key, (Xm, ym) in ex.support_vector_moves(X, y).items():
        refit = SVC(kernel="linear", C=np.inf, tol=1e-8).fit(Xm, ym)
        changed = not np.allclose(np.r_[refit.coef_[0], refit.intercept_[0]], base, atol=1e-5)
        assert changed == right[key], key
    wrong = dict(right, d=True)
    feedback = ex.check_which_moves_matter(wrong, X, y)
    assert not feedback and "(d)" in feedback.message and "1 of 5" in feedback.message
    for malformed, hint in [([True] * 5, "dict"), ({"a": False}, "missing"),
                            (dict(right, f=True), "unknown f"), (dict(right, a=None), "True")]:
        feedback = ex.check_which_moves_matter(malformed, X, y)
        assert not feedback and hint in feedback.message
    with pytest.raises(ValueError, match="running example"):
        ex.support_vector_moves(X[:30], y[:30])
