"""Tests of the hyperplanes chapter: its figures, interactive figures, checkers and numbers.

Covers ``svmlib.plotting.hyperplanes``, ``svmlib.widgets.hyperplanes`` and
``svmlib.exercises.hyperplanes``, and pins the worked numbers that
``book/01_hyperplanes.ipynb`` prints.
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from svmlib.widgets._core import MAX_HTML_BYTES  # noqa: E402
from svmlib import Hyperplane, datasets  # noqa: E402
from svmlib.exercises import Feedback  # noqa: E402
from svmlib.exercises.hyperplanes import (  # noqa: E402
    check_bisector,
    check_line,
    check_misclassified,
    check_projection,
    check_signed_distances,
)
from svmlib.plotting import hyperplanes as hp_plot  # noqa: E402
from svmlib.widgets.hyperplanes import (  # noqa: E402
    halfplane_polygon,
    scale_explorer,
    separator_explorer,
)

W, B = np.array([3.0, 4.0]), -12.0          # the chapter's running example


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def chapter_data():
    X, y = datasets.separable_blobs(n=14, margin=1.0, random_state=0)
    return X - X.mean(axis=0), y


# ------------------------------------------------------ the chapter's numbers

def test_running_example_projection_and_pythagoras():
    H = Hyperplane(W, B)
    x = np.array([[5.0, 3.0]])
    px = H.project(x)[0]
    np.testing.assert_allclose(px, [3.2, 0.6], atol=1e-12)
    assert H.signed_distance(x)[0] == pytest.approx(3.0)
    x_other = np.array([0.0, 3.0])
    assert np.sum((x[0] - x_other) ** 2) == pytest.approx(25.0)
    assert np.sum((x[0] - px) ** 2) == pytest.approx(9.0)
    assert np.sum((px - x_other) ** 2) == pytest.approx(16.0)


def test_running_example_distances_three_ways():
    H = Hyperplane(W, B)
    pts = np.array([[5.0, 3.0], [1.0, 1.0], [0.0, 3.0], [0.0, 0.0], [1.0, 4.0], [5.0, 1.0]])
    expected = [3.0, -1.0, 0.0, -2.4, 1.4, 1.4]
    n = W / np.linalg.norm(W)
    np.testing.assert_allclose(H.signed_distance(pts), expected, atol=1e-12)
    np.testing.assert_allclose(pts @ n + B / np.linalg.norm(W), expected, atol=1e-12)  # dot-product view
    by_projection = np.sign(pts @ W + B) * np.linalg.norm(pts - H.project(pts), axis=1)
    np.testing.assert_allclose(by_projection, expected, atol=1e-12)
    assert H.distance_from_origin == pytest.approx(2.4)
    np.testing.assert_allclose(H.point(), [1.44, 1.92])
    assert float(np.array([5.0, 3.0]) @ n) == pytest.approx(5.4)        # x_w of the figure


def test_slope_intercept_is_the_running_line_with_opposite_orientation():
    H_slope = Hyperplane.from_slope_intercept(-0.75, 3.0)
    np.testing.assert_allclose(H_slope.w, [-0.75, -1.0])
    assert H_slope.b == 3.0
    assert not H_slope == Hyperplane(W, B)
    assert H_slope == Hyperplane(-W, -B)


def test_chapter_separators_on_the_widget_grid(chapter_data):
    X, y = chapter_data
    found = []
    for theta in range(0, 360, 30):
        for c in (-1.0, -0.5, 0.0, 0.5, 1.0):
            t = np.deg2rad(theta)
            H = Hyperplane([np.cos(t), np.sin(t)], -c)
            if H.separates(X, y):
                found.append((theta, c, round(H.geometric_margin(X, y), 3)))
    assert found == [(30, -0.5, 0.418), (30, 0.0, 0.09), (60, -0.5, 0.186), (60, 0.0, 0.328)]


def test_exercise_numbers(chapter_data):
    X, y = chapter_data
    H = Hyperplane([1.0, 3.0], -2.0)
    assert np.flatnonzero(y * H.signed_distance(X) <= 0).tolist() == [3, 8]
    # the plane of the paper exercise 2x1 - x2 + 2x3 = 6
    P = Hyperplane([2.0, -1.0, 2.0], -6.0)
    assert P.distance_from_origin == pytest.approx(2.0)
    np.testing.assert_allclose(P.point(), [4 / 3, -2 / 3, 4 / 3])
    # the line of the code exercise through (-1, 0) and (3, 2), (0, 3) on the positive side
    assert check_line(((-0.5, 1.0), -0.5), (-1, 0), (3, 2), (0, 3))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(0, 10_000))
def test_projection_theorem_in_any_dimension(p, seed):
    """Book thm-projection: pi(x) on H and Pythagoras for every x' in H."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=p)
    if np.linalg.norm(w) < 1e-3:
        w[0] = 1.0
    H = Hyperplane(w, float(rng.normal()))
    X = rng.normal(scale=3.0, size=(5, p))
    P = H.project(X)
    np.testing.assert_allclose(H.decision_function(P), 0.0, atol=1e-9)
    others = H.project(rng.normal(scale=3.0, size=(5, p)))
    for x, px in zip(X, P):
        lhs = np.sum((x - others) ** 2, axis=1)
        rhs = np.sum((x - px) ** 2) + np.sum((px - others) ** 2, axis=1)
        np.testing.assert_allclose(lhs, rhs, rtol=1e-9, atol=1e-9)


# ------------------------------------------------------------ check_projection

def _right(X, w, b):
    return X - ((X @ w + b) / (w @ w))[:, None] * w


@pytest.mark.parametrize("wrong, words", [
    (lambda X, w, b: X, "unchanged"),
    (lambda X, w, b: X - ((X @ w + b) / np.linalg.norm(w))[:, None] * w, "divided the score by ||w||"),
    (lambda X, w, b: X - (X @ w + b)[:, None] * w, "forgot to divide"),
    (lambda X, w, b: X + ((X @ w + b) / (w @ w))[:, None] * w, "sign of the step"),
    (lambda X, w, b: X - ((X @ w) / (w @ w))[:, None] * w, "ignores the bias"),
    (lambda X, w, b: X - ((X @ w - b) / (w @ w))[:, None] * w, "wrong sign"),
    (lambda X, w, b: (X @ w + b) / (w @ w), "one number per point"),
    (lambda X, w, b: _right(X, w, b)[0], "every row"),
    (lambda X, w, b: undefined_name, "NameError"),  # noqa: F821
    (lambda X: X, "TypeError"),
    (lambda X, w, b: None, "None"),
    (lambda X, w, b: "pi", "string"),
])
def test_check_projection_hints(wrong, words):
    fb = check_projection(wrong)
    assert isinstance(fb, Feedback) and not fb
    assert words in fb.message, fb.message


def test_check_projection_right_and_not_callable():
    assert check_projection(_right)
    fb = check_projection(np.zeros((2, 2)))
    assert not fb and "function itself" in fb.message


def test_check_projection_detects_points_on_h_but_not_closest():
    def along_the_line(X, w, b):
        P = _right(X, w, b)
        if len(w) == 2:                        # slide along H: still on H, not closest
            P = P + 0.5 * np.array([-w[1], w[0]])
        return P
    fb = check_projection(along_the_line)
    assert not fb and "not the closest" in fb.message


# ------------------------------------------------------- check_signed_distances

@pytest.fixture()
def small():
    X = np.array([[1.0, 2.0], [3.0, 1.0], [0.0, 0.0], [-1.0, 2.0]])
    w = np.array([1.0, 2.0])
    b = -1.0
    return X, w, b, (X @ w + b) / np.linalg.norm(w)


def test_check_signed_distances_right(small):
    X, w, b, r = small
    assert check_signed_distances(r, X, w, b, other_data=True)
    assert check_signed_distances(r.tolist(), X, w, b, other_data=True)


@pytest.mark.parametrize("make, words", [
    (lambda X, w, b, r: X @ w + b, "scores"),
    (lambda X, w, b, r: (X @ w + b) / (w @ w), "<w, w>"),
    (lambda X, w, b, r: np.abs(r), "signs are lost"),
    (lambda X, w, b, r: -r, "flipped"),
    (lambda X, w, b, r: (X @ w) / np.linalg.norm(w), "bias is missing"),
    (lambda X, w, b, r: (X @ w - b) / np.linalg.norm(w), "wrong sign"),
    (lambda X, w, b, r: r[:, None], "np.ravel"),
    (lambda X, w, b, r: r[:3], "expected (4,)"),
    (lambda X, w, b, r: None, "None"),
    (lambda X, w, b, r: "r", "without quotes"),
    (lambda X, w, b, r: [1.0, np.nan, 0.0, 0.0], "NaN"),
    (lambda X, w, b, r: r + np.array([0.0, 0.0, 1.0, 0.0]), "index 2"),
    (lambda X, w, b, r: np.round(r, 2), "to 2 decimals"),
    (lambda X, w, b, r: np.trunc(r * 1000) / 1000, "to 3 decimals"),
])
def test_check_signed_distances_hints(small, make, words):
    X, w, b, r = small
    fb = check_signed_distances(make(X, w, b, r), X, w, b, other_data=True)
    assert not fb and words in fb.message, fb.message


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.none(), st.text(max_size=5), st.integers(), st.floats(),
                 st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=6),
                 st.lists(st.lists(st.integers(-3, 3), max_size=3), max_size=3)))
def test_checkers_never_raise(answer):
    X = np.array([[1.0, 2.0], [3.0, 1.0], [0.0, 0.0], [-1.0, 2.0]])
    y = np.array([1, -1, -1, 1])
    for fb in (check_signed_distances(answer, X, [1.0, 2.0], -1.0, other_data=True),
               check_misclassified(answer, X, y, [1.0, 2.0], -1.0, other_data=True),
               check_line(answer, (0, 0), (1, 1), (0, 1), other_data=True),
               check_projection(answer)):
        assert isinstance(fb, Feedback)
        assert isinstance(fb.text, str)


# ---------------------------------------------------------- check_misclassified

def test_check_misclassified(small):
    X, w, b, _ = small
    y = np.array([1, -1, 1, 1])
    h = X @ w + b                               # (4, 4, -1, 2): points 1 and 2 are wrong
    expected = np.flatnonzero(y * h <= 0)
    assert expected.tolist() == [1, 2]
    assert check_misclassified([1, 2], X, y, w, b, other_data=True)
    assert check_misclassified(np.array([2, 1]), X, y, w, b, other_data=True)
    assert check_misclassified(y * h <= 0, X, y, w, b, other_data=True)
    assert check_misclassified([False, True, True, False], X, y, w, b, other_data=True)
    fb = check_misclassified([0, 3], X, y, w, b, other_data=True)
    assert not fb and "correctly classified points" in fb.message
    fb = check_misclassified(np.flatnonzero(h <= 0), X, y, w, b, other_data=True)
    assert not fb and "ignoring the labels" in fb.message
    fb = check_misclassified([1], X, y, w, b, other_data=True)
    assert not fb and "1 misclassified point is missing" in fb.message
    fb = check_misclassified([1, 2, 3], X, y, w, b, other_data=True)
    assert not fb and "correctly classified" in fb.message and "[" not in fb.message
    for bad, words in (([1, 1, 2], "twice"), ([7], "whole numbers"), ([0.5], "whole numbers"),
                       ([[1, 2]], "flat list"), (np.array([True, False]), "shape")):
        fb = check_misclassified(bad, X, y, w, b, other_data=True)
        assert not fb and words in fb.message, fb.message
    # other spellings of the same answer: a set, np.where / np.nonzero of the mask
    assert check_misclassified({2, 1}, X, y, w, b, other_data=True)
    assert check_misclassified(np.where(y * h <= 0), X, y, w, b, other_data=True)
    assert check_misclassified(np.nonzero(y * h <= 0), X, y, w, b, other_data=True)
    # an integer 0/1 mask, and 1-based indices, get their own hints
    fb = check_misclassified((y * h <= 0).astype(int), X, y, w, b, other_data=True)
    assert not fb and "mask of 0s and 1s" in fb.message, fb.message
    fb = check_misclassified([2, 3], X, y, w, b, other_data=True)
    assert not fb and "counts from 0" in fb.message, fb.message
    # a hyperplane that separates: the empty list is right
    assert check_misclassified([], X, np.sign(h), w, b, other_data=True)


# ------------------------------------------------------------------ check_line

P_, Q_, S_ = (-1.0, 0.0), (3.0, 2.0), (0.0, 3.0)


@pytest.mark.parametrize("answer", [
    ((-0.5, 1.0), -0.5), ([-1.0, 2.0], -1.0), (np.array([-2.0, 4.0]), np.array([-2.0])),
    Hyperplane([-1.0, 2.0], -1.0)])
def test_check_line_right(answer):
    assert check_line(answer, P_, Q_, S_)


@pytest.mark.parametrize("answer, words", [
    (((0.5, -1.0), 0.5), "wrong orientation"),
    (((0.5, -1.0), -0.5), "b has the wrong sign"),
    (((1.0, 0.5), 0.0), "along the line"),
    (((1.0, 2.0), 3.0), "not orthogonal"),
    (((0.0, 1.0), 0.0), "does not pass through q"),
    ((1, 2, 3), "pair (w, b)"),
    (None, "None"),
    (([1.0, 2.0, 3.0], 1.0), "expected (2,)"),
    (([0.0, 0.0], 1.0), "nonzero"),
    (([1.0, 2.0], [1.0, 2.0]), "swap"),
    ((0.5, (0.5, -1.0)), "did you swap w and b"),
    ("w, b", "pair"),
])
def test_check_line_hints(answer, words):
    fb = check_line(answer, P_, Q_, S_)
    assert not fb and words in fb.message, fb.message


def test_check_line_vertical_line():
    # x1 = 2 through (2, 0) and (2, 5); (3, 0) on the positive side
    assert check_line(((1.0, 0.0), -2.0), (2, 0), (2, 5), (3, 0), other_data=True)
    fb = check_line(((-1.0, 0.0), 2.0), (2, 0), (2, 5), (3, 0), other_data=True)
    assert not fb and "orientation" in fb.message


# --------------------------------------------------------------------- figures

def test_plot_hyperplane_1d():
    ax = hp_plot.plot_hyperplane_1d(2.0, -3.0)
    marks = [ln for ln in ax.lines if ln.get_gid() == "hyperplane"]
    assert len(marks) == 1 and marks[0].get_xdata()[0] == pytest.approx(1.5)
    with pytest.raises(ValueError, match="nonzero"):
        hp_plot.plot_hyperplane_1d(0.0, 1.0)


def test_plot_hyperplane_3d():
    ax = hp_plot.plot_hyperplane_3d([1.0, 1.0, 3.0], -6.0, points=[[0, 0, 0], [3, 3, 3]])
    assert ax.name == "3d"
    assert any(c.get_gid() == "hyperplane" for c in ax.collections)
    with pytest.raises(ValueError, match="3 entries"):
        hp_plot.plot_hyperplane_3d([1.0, 1.0], 0.0)
    _, flat = plt.subplots()
    with pytest.raises(ValueError, match="3-D axes"):
        hp_plot.plot_hyperplane_3d([1.0, 1.0, 1.0], 0.0, ax=flat)


def test_plot_score_levels_and_projection_and_dot_product():
    ax = hp_plot.plot_score_levels(W, B, points=[[4.0, 0.0], [0.0, 3.0]])
    assert any(getattr(a, "get_gid", lambda: None)() == "hyperplane" for a in ax.get_lines())
    ax = hp_plot.plot_score_levels(W, B, levels=())
    assert ax.get_xlim() == (-1.0, 6.0)
    ax = hp_plot.plot_projection(W, B, [5.0, 3.0], other=[0.0, 3.0])
    texts = [t.get_text() for t in ax.texts]
    assert "$|r| = 3$" in texts and "$5$" in texts and "$4$" in texts
    ax = hp_plot.plot_dot_product_view(W, B, [5.0, 3.0])
    texts = " ".join(t.get_text() for t in ax.texts)
    assert "5.4" in texts and "r(\\mathbf{x}) = 3" in texts and "2.4" in texts


def test_plot_separators():
    X, y = datasets.separable_blobs(n=10, random_state=1)
    lines = [Hyperplane([1.0, 1.0], -2.0), (np.array([1.0, 0.5]), -1.0)]
    ax = hp_plot.plot_separators(X, y, lines, labels=["a", "b"])
    assert sum(1 for ln in ax.lines if ln.get_gid() == "hyperplane") == 2
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]
    _, ax = plt.subplots()
    hp_plot.plot_separators(X, y, lines, ax=ax, margins=True)      # + two lines each
    assert sum(1 for ln in ax.lines if ln.get_gid() == "hyperplane") == 6


def test_draw_right_angle():
    _, ax = plt.subplots()
    (line,) = hp_plot.draw_right_angle(ax, (0, 0), (2, 0), (0, 3), size=0.5)
    np.testing.assert_allclose(np.column_stack(line.get_data()), [[0.5, 0], [0.5, 0.5], [0, 0.5]])


# ------------------------------------------------------------------- widgets

@pytest.mark.parametrize("w, b", [([1.0, 1.0], 0.0), ([1.0, -2.0], 0.7), ([0.0, 1.0], -5.0),
                                  ([1.0, 0.0], 10.0)])
def test_halfplane_polygon(w, b):
    xlim, ylim = (-2.0, 3.0), (-1.0, 2.0)
    pos = halfplane_polygon(w, b, xlim, ylim)
    neg = halfplane_polygon(-np.asarray(w), -b, xlim, ylim)

    def area(P):
        if len(P) < 3:
            return 0.0
        x, y = P[:, 0], P[:, 1]
        return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))

    assert area(pos) + area(neg) == pytest.approx(15.0)
    if len(pos):
        assert np.all(pos @ np.asarray(w) + b >= -1e-9)


def test_separator_explorer(chapter_data):
    X, y = chapter_data
    fig = separator_explorer(X, y)
    assert fig.n_settings == 60
    assert fig.text() == ("Find a separating hyperplane\n"
                          "θ = 120°, t = 0.5: w = (−0.50, 0.87), b = −0.50\n"
                          "misclassified: 4 of 14 · smallest yᵢ r(xᵢ) = −2.16")
    # the goal is met exactly where the hyperplane separates the data
    for values in fig.settings():
        t = np.deg2rad(values["angle"])
        separates = Hyperplane([np.cos(t), np.sin(t)], -values["offset"]).separates(X, y)
        assert fig.goal(**values) == separates
    png, readout = fig.frame(angle=30, offset=0.0)
    assert png.startswith(b"\x89PNG")
    assert "misclassified: <b>0</b>" in readout and "separates the data" in readout
    _, readout = fig.frame(angle=210, offset=0.0)
    assert "misclassified: <b>14</b>" in readout and "separates" not in readout


@pytest.mark.parametrize("phone", [False, True], ids=["wide", "phone"])
def test_separator_explorer_labels_never_collide(chapter_data, phone):
    """Each point's signed distance stays legible in every setting, in the book's
    wide rendering and in its phone layout (larger text on a narrower plot, where
    labels at a fixed offset ran into each other: "-2.67-2.19")."""
    import itertools

    from svmlib.widgets import _core

    X, y = chapter_data
    fig = separator_explorer(X, y)
    view = _core._StaticView(fig, fig._figsize, phone=phone)
    for values in fig.settings():
        view.render(values)
        renderer = view.canvas.get_renderer()
        labels = view.state["labels"]
        boxes = [t.get_window_extent(renderer) for t in labels.texts]
        assert all(t.get_text() for t in labels.texts)
        for (i, a), (j, b) in itertools.combinations(enumerate(boxes), 2):
            assert not a.overlaps(b), f"{values}: labels {i} and {j} overlap"
        centres = labels.axes.transData.transform(X)
        frame = labels.axes.bbox
        for k, box in enumerate(boxes):
            assert frame.x0 <= box.x0 and box.x1 <= frame.x1, f"{values}: label {k} leaves the plot"
            assert frame.y0 <= box.y0 and box.y1 <= frame.y1, f"{values}: label {k} leaves the plot"
            covered = [j for j, (cx, cy) in enumerate(centres) if j != k and box.contains(cx, cy)]
            assert not covered, f"{values}: label {k} covers point(s) {covered}"


def test_separator_explorer_line_outside_the_view(chapter_data):
    X, y = chapter_data
    fig = separator_explorer(X, y, angles=(0, 180), offsets=(0.0, 50.0), angle=0, offset=50.0)
    png, readout = fig.frame(angle=0, offset=50.0)       # every point on the negative side
    assert png.startswith(b"\x89PNG") and f"misclassified: <b>{int(np.sum(y > 0))}</b>" in readout


def test_separator_explorer_rejects_bad_input():
    with pytest.raises(ValueError, match="2 columns"):
        separator_explorer(np.zeros((4, 3)), [1, -1, 1, -1])
    with pytest.raises(ValueError, match="-1 and \\+1"):
        separator_explorer(np.zeros((4, 2)), [0, 1, 0, 1])


SCALE_POINTS = [[5.0, 3.0], [1.0, 1.0], [0.0, 0.0]]   # the chapter's widget


def test_scale_explorer_scores_scale_and_distances_do_not():
    fig = scale_explorer(W, B, SCALE_POINTS)
    assert fig.n_settings == 15
    assert fig.text().splitlines()[0] == "One line, many scales: h(x) = λ·(3 x₁ + 4 x₂ − 12)"
    H = Hyperplane(W, B)
    for values in fig.settings():
        lam = values["scale"]
        _, readout = fig.frame(**values)
        scaled = Hyperplane(lam * W, lam * B)
        # the readout's scores are λ h(x), its distances ±r(x) and the level spacing 1/‖λw‖
        scores = ", ".join(f"{v + 0.0:.2f}".replace("-", "\u2212")
                           for v in np.round(scaled.decision_function(SCALE_POINTS), 2))
        assert f"h = {scores};" in readout
        r = scaled.signed_distance(SCALE_POINTS)
        np.testing.assert_allclose(r, np.sign(lam) * H.signed_distance(SCALE_POINTS))
        assert f"<b>{1 / (abs(lam) * 5):.2f}</b> from H" in readout
        assert "swap" not in readout            # part (2) of the exercise is not given away
        # the goal: λ > 0 and the closest point on a level h = ±1 (only λ = 0.2 here)
        assert fig.goal(**values) == (lam == 0.2)
    _, readout = fig.frame(scale=0.2)
    assert "svmlib-success" in readout and "(1, 1) sits on a level" in readout


def test_scale_explorer_rejects_bad_input():
    with pytest.raises(ValueError, match="nonzero"):
        scale_explorer(W, B, SCALE_POINTS, scales=(0.0, 1.0))
    with pytest.raises(ValueError, match="lies on H"):
        scale_explorer(W, B, [[0.0, 3.0], [1.0, 1.0]])
    with pytest.raises(ValueError, match="2 entries"):
        scale_explorer([1.0, 2.0, 3.0], 0.0, SCALE_POINTS)
    with pytest.raises(ValueError, match="2 columns"):
        scale_explorer(W, B, [[1.0, 2.0, 3.0]])


def test_static_html_fits_the_budget(chapter_data):
    X, y = chapter_data
    html = scale_explorer(W, B, [[0.0, 0.0], [4.0, 3.0]], scales=(0.5, 1.0)).to_html()
    assert 'class="svmlib-widget"' in html and html.count("<input") == 1
    assert len(html.encode()) <= MAX_HTML_BYTES   # the frames move to files in the book (svmlib_reading)


# ------------------------------------------------------------ check_bisector

_A, _C = np.array([1.0, 3.0]), np.array([5.0, 1.0])
_D, _M = _A - _C, (_A + _C) / 2


def test_check_bisector_accepts_positive_multiples_and_a_hyperplane():
    for lam in (1.0, 0.5, 7.0):
        assert check_bisector((lam * _D, -lam * _D @ _M), _A, _C)
    assert check_bisector(Hyperplane(_D, -_D @ _M), _A, _C)
    assert check_bisector((_D.tolist(), int(-_D @ _M)), _A, _C)
    # in three dimensions too
    a3, c3 = np.array([1.0, 0.0, 2.0]), np.array([-1.0, 2.0, 0.0])
    assert check_bisector((a3 - c3, -(a3 - c3) @ (a3 + c3) / 2), a3, c3, other_data=True)


@pytest.mark.parametrize("answer, words", [
    ((-_D, _D @ _M), "wrong orientation"),
    ((_D, _D @ _M), "wrong sign"),
    ((_D, -_D @ _A), "passes through a itself"),
    ((_D, -_D @ _C), "passes through c itself"),
    ((_D, -_D @ (_A + _C)), "halving"),
    ((np.array([1.0, 2.0]), -7.0), "orthogonal to the segment"),
    ((np.array([3.0, 1.0]), 1.0), "stay equal"),
    ((np.array([1.0, 0.0]), 0.0), "does not separate"),     # the chapter's starting answer
    ((np.array([-3.0, 1.0]), 6.0), "add up to"),
    ((_D, 0.0), "misses the midpoint"),
    ((8.0, _D), "swap"),
    (None, "None"),
])
def test_check_bisector_hints(answer, words):
    fb = check_bisector(answer, _A, _C)
    assert not fb and words in fb.message, fb.message
