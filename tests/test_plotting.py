"""Tests of svmlib.plotting's core: each figure draws what the book says it draws."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402
from sklearn.svm import SVC as SklearnSVC  # noqa: E402

from svmlib import plotting  # noqa: E402
from svmlib.plotting import (  # noqa: E402
    CLASS_COLORS,
    PALETTE,
    REGION_CMAP,
    figure,
    plot_data,
    plot_decision_regions,
    plot_hyperplane,
    plot_multipliers,
    plot_normal,
    plot_slack,
    plot_svm,
    ring_support_vectors,
    style,
)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture
def blobs():
    rng = np.random.default_rng(3)
    X = np.r_[rng.normal(-1.0, 0.8, (25, 2)), rng.normal(1.0, 0.8, (25, 2))]
    y = np.r_[-np.ones(25), np.ones(25)]
    return X, y


@pytest.fixture
def linear_svm(blobs):
    X, y = blobs
    return SklearnSVC(kernel="linear", C=1.0).fit(X, y)


def by_gid(ax, gid, kind="lines"):
    return [a for a in getattr(ax, kind) if a.get_gid() == gid]


# ---------------------------------------------------------------- style

def test_importing_and_figure_do_not_change_global_rcparams():
    before = dict(matplotlib.rcParams)
    fig, ax = figure()
    plot_data(np.eye(2), [-1, 1], ax=ax)
    assert dict(matplotlib.rcParams) == before
    assert not ax.spines["top"].get_visible() and not ax.spines["right"].get_visible()


def test_style_context_applies_and_restores():
    size = matplotlib.rcParams["axes.spines.top"]
    with style():
        assert matplotlib.rcParams["axes.spines.top"] is False
        assert matplotlib.rcParams["legend.frameon"] is False
    assert matplotlib.rcParams["axes.spines.top"] == size


@pytest.mark.parametrize("size, ncols, expected", [
    ("medium", 1, (6.0, 4.0)), ("small", 1, (4.0, 3.0)), ("large", 1, (8.0, 5.0)),
    ("medium", 2, (10.0, 4.0 * 10 / 12)), ((3, 2), 2, (6.0, 2.0)),
])
def test_figure_sizes(size, ncols, expected):
    fig, axes = figure(ncols=ncols, size=size)
    assert np.allclose(fig.get_size_inches(), expected)
    assert fig.dpi == 100
    assert np.size(axes) == ncols


def test_figure_rejects_unknown_size():
    with pytest.raises(ValueError, match="size must be one of"):
        figure(size="huge")


def test_functions_create_axes_when_none_given(blobs):
    X, y = blobs
    ax = plot_data(X, y)
    assert isinstance(ax, matplotlib.axes.Axes)
    assert plt.get_fignums()  # a pyplot figure, so `plt.show()` displays it


# ---------------------------------------------------------------- data

def test_plot_data_colours_markers_and_counts(blobs):
    X, y = blobs
    fig, ax = figure()
    assert plot_data(X, y, ax=ax) is ax
    neg, pos = ax.collections
    assert neg.get_offsets().shape == (25, 2) and pos.get_offsets().shape == (25, 2)
    assert np.allclose(neg.get_facecolor()[0], to_rgba(CLASS_COLORS[-1]))
    assert np.allclose(pos.get_facecolor()[0], to_rgba(CLASS_COLORS[1]))
    assert np.allclose(np.sort(neg.get_offsets()[:, 0]), np.sort(X[y < 0, 0]))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["$y = \u22121$", "$y = +1$"]
    assert ax.get_xlabel() == "$x_1$" and ax.get_ylabel() == "$x_2$"


def test_plot_data_multiclass_uses_palette():
    X = np.arange(12.0).reshape(6, 2)
    y = np.array([0, 1, 2, 0, 1, 2])
    fig, ax = figure()
    plot_data(X, y, ax=ax)
    assert len(ax.collections) == 3
    for coll, colour in zip(ax.collections, PALETTE):
        assert np.allclose(coll.get_facecolor()[0], to_rgba(colour))


def test_plot_data_rejects_wrong_inputs():
    with pytest.raises(ValueError, match="2 columns"):
        plot_data(np.zeros((3, 3)), [1, -1, 1])
    with pytest.raises(ValueError, match="y must have shape"):
        plot_data(np.zeros((3, 2)), [1, -1])


# ---------------------------------------------------------------- hyperplanes

def test_hyperplane_and_margins_lie_on_their_level_sets(blobs):
    X, y = blobs
    w, b = np.array([2.0, -1.0]), 0.5
    fig, ax = figure()
    plot_data(X, y, ax=ax)
    limits = ax.get_xlim(), ax.get_ylim()
    plot_hyperplane(w, b, ax=ax, margins=True, label="boundary")
    assert (ax.get_xlim(), ax.get_ylim()) == limits  # drawing lines does not rescale
    (line,) = by_gid(ax, "hyperplane")
    for p in (line.get_xy1(), line.get_xy2()):
        assert np.isclose(np.dot(w, p) + b, 0.0)
    assert line.get_linestyle() == "-"
    margins = by_gid(ax, "margin")
    assert len(margins) == 2
    levels = sorted(np.dot(w, m.get_xy1()) + b for m in margins)
    assert np.allclose(levels, [-1.0, 1.0])
    for m in margins:
        assert np.isclose(np.dot(w, m.get_xy1()), np.dot(w, m.get_xy2()))  # parallel to H
        assert m.get_linestyle() == "--"


def test_hyperplane_is_clipped_to_the_view():
    fig, ax = figure()
    ax.set_xlim(-1, 1)
    ax.set_ylim(-1, 1)
    plot_hyperplane([1.0, 1.0], 0.0, ax=ax)
    fig.canvas.draw()
    (line,) = by_gid(ax, "hyperplane")
    # the drawn segment, in data coordinates, stays on the line and spans the view
    path = line.get_transform().transform_path(line.get_path())
    data = ax.transData.inverted().transform(path.vertices)
    assert np.allclose(data.sum(axis=1), 0.0, atol=1e-9)
    assert data[:, 0].min() <= -1 + 1e-9 and data[:, 0].max() >= 1 - 1e-9


def test_hyperplane_rejects_zero_normal():
    with pytest.raises(ValueError, match="zero vector"):
        plot_hyperplane([0.0, 0.0], 1.0)


def test_plot_normal_is_orthogonal_and_starts_on_the_hyperplane():
    w, b = np.array([1.0, 2.0]), -1.0
    fig, ax = figure()
    ax.set_xlim(-3, 3)
    ax.set_ylim(-3, 3)
    plot_normal(w, b, ax=ax)
    (arrow,) = [t for t in ax.texts
                if t.get_gid() == "normal" and getattr(t, "arrow_patch", None) is not None]
    start, tip = np.array(arrow.xyann), np.array(arrow.xy)
    assert np.isclose(start @ w + b, 0.0)
    direction = (tip - start) / np.linalg.norm(tip - start)
    assert np.allclose(direction, w / np.linalg.norm(w))


# ---------------------------------------------------------------- regions

def test_decision_regions_image_and_contours(blobs, linear_svm):
    X, y = blobs
    fig, ax = figure()
    plot_decision_regions(linear_svm, X, y, ax=ax, grid=80)
    (image,) = [im for im in ax.images if im.get_gid() == "regions"]
    assert image.get_cmap() is REGION_CMAP or image.get_cmap().name == REGION_CMAP.name
    vmin, vmax = image.get_clim()
    assert np.isclose(vmin, -vmax) and 1.0 <= vmax <= 3.0
    (contours,) = [c for c in ax.collections if c.get_gid() == "levels"]
    assert list(contours.levels) == [-1.0, 0.0, 1.0]
    # every vertex of each contour line lies on its level set (the model is linear)
    for level, path in zip(contours.levels, contours.get_paths()):
        vertices = path.vertices
        assert len(vertices) > 1
        assert np.allclose(linear_svm.decision_function(vertices), level, atol=1e-6)
    styles = contours.get_linestyles()
    assert styles[1][1] is None and styles[0][1] is not None  # solid at 0, dashed at ±1
    # the grid covers the data
    x0, x1 = ax.get_xlim()
    assert x0 < X[:, 0].min() and x1 > X[:, 0].max()


def test_decision_regions_accept_a_callable_with_nonlinear_boundary():
    X = np.array([[-2.0, -2.0], [2.0, 2.0]])
    fig, ax = figure()
    plot_decision_regions(lambda Z: 1.0 - (Z ** 2).sum(axis=1), X, ax=ax, grid=150,
                          levels=(0,))
    (contours,) = [c for c in ax.collections if c.get_gid() == "levels"]
    vertices = contours.get_paths()[0].vertices
    radius = np.linalg.norm(vertices, axis=1)
    assert np.allclose(radius, 1.0, atol=0.03)


def test_decision_regions_multiclass_uses_predict():
    rng = np.random.default_rng(0)
    centres = np.array([[0, 3], [3, 0], [-3, -1]])
    X = np.concatenate([c + rng.normal(0, 0.5, (20, 2)) for c in centres])
    y = np.repeat([0, 1, 2], 20)
    model = SklearnSVC(kernel="linear").fit(X, y)
    fig, ax = figure()
    plot_decision_regions(model, X, y, ax=ax, grid=60)
    (image,) = ax.images
    assert set(np.unique(image.get_array())) == {0, 1, 2}


def test_decision_regions_reject_bad_models():
    with pytest.raises(TypeError, match="decision_function or a callable"):
        plot_decision_regions(42, np.zeros((3, 2)))
    with pytest.raises(ValueError, match="one value per row"):
        plot_decision_regions(lambda Z: np.zeros(3), np.eye(2), grid=10)


# ---------------------------------------------------------------- support vectors

def test_ring_support_vectors_count(linear_svm, blobs):
    fig, ax = figure()
    ring_support_vectors(linear_svm.support_vectors_, ax=ax)
    (rings,) = [c for c in ax.collections if c.get_gid() == "support-vectors"]
    assert len(rings.get_offsets()) == len(linear_svm.support_vectors_)
    assert np.allclose(rings.get_offsets(), linear_svm.support_vectors_)
    assert len(rings.get_facecolor()) == 0 or rings.get_facecolor()[0][3] == 0
    assert np.allclose(rings.get_edgecolor()[0], to_rgba("black"))


def test_plot_svm_has_regions_lines_points_and_rings(linear_svm, blobs):
    X, y = blobs
    fig, ax = figure()
    plot_svm(linear_svm, X, y, ax=ax, grid=60)
    assert [im.get_gid() for im in ax.images] == ["regions"]
    (rings,) = [c for c in ax.collections if c.get_gid() == "support-vectors"]
    assert len(rings.get_offsets()) == int(linear_svm.n_support_.sum())
    (contours,) = [c for c in ax.collections if c.get_gid() == "levels"]
    assert list(contours.levels) == [-1.0, 0.0, 1.0]
    fig, ax = figure()
    plot_svm(linear_svm, X, y, ax=ax, regions=False, grid=60)
    assert not ax.images
    assert [c for c in ax.collections if c.get_gid() == "levels"]


def test_plot_svm_with_svmlib_svc(blobs):
    from svmlib import SVC

    X, y = blobs
    model = SVC(kernel="rbf", C=1.0, gamma=0.5).fit(X, y)
    fig, ax = figure()
    plot_svm(model, X, y, ax=ax, grid=50)
    (rings,) = [c for c in ax.collections if c.get_gid() == "support-vectors"]
    assert len(rings.get_offsets()) == len(model.support_)


# ---------------------------------------------------------------- slack

def test_slack_segments_end_on_the_margin_planes(blobs, linear_svm):
    X, y = blobs
    w, b = linear_svm.coef_[0], linear_svm.intercept_[0]
    xi = np.maximum(0, 1 - y * (X @ w + b))
    fig, ax = figure()
    plot_data(X, y, ax=ax)
    plot_slack(linear_svm, X, y, ax=ax, annotate=True)
    (segments,) = [c for c in ax.collections if c.get_gid() == "slack"]
    lines = segments.get_segments()
    assert len(lines) == int((xi > 1e-9).sum()) > 0
    for (start, end) in lines:
        i = int(np.argmin(np.linalg.norm(X - start, axis=1)))
        assert np.allclose(start, X[i])
        assert np.isclose(y[i] * (end @ w + b), 1.0)  # lands on its own margin plane
        assert np.isclose(np.linalg.norm(end - start), xi[i] / np.linalg.norm(w))
    labels = [t.get_text() for t in ax.texts if t.get_gid() == "slack"]
    assert sorted(labels) == sorted(f"{v:.2f}" for v in xi[xi > 1e-9])


def test_slack_accepts_a_pair_and_rejects_nonlinear_models(blobs):
    X, y = blobs
    fig, ax = figure()
    plot_slack((np.array([1.0, 1.0]), 0.0), X, y, ax=ax)
    with pytest.raises(ValueError, match="model must be linear"):
        plot_slack(lambda Z: Z[:, 0], X, y, ax=ax)


# ---------------------------------------------------------------- multipliers

def test_plot_multipliers_bars_and_box(blobs):
    X, y = blobs
    alpha = np.zeros(len(y))
    alpha[[3, 7, 30]] = [0.5, 1.0, 1.0]
    fig, ax = figure()
    plot_multipliers(alpha, ax=ax, C=1.0, y=y)
    bars = [p for p in ax.patches if p.get_gid() == "multipliers"]
    assert len(bars) == len(alpha)
    assert np.allclose([p.get_height() for p in bars], alpha)
    assert np.allclose(bars[30].get_facecolor(), to_rgba(CLASS_COLORS[1]))
    assert np.allclose(bars[3].get_facecolor(), to_rgba(CLASS_COLORS[-1]))
    (box,) = by_gid(ax, "C")
    assert np.allclose(box.get_ydata(), 1.0)
    assert ax.get_title().startswith("3 support vectors")


def test_public_names_are_exported():
    for name in plotting._core.__all__:
        assert hasattr(plotting, name)
