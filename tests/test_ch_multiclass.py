"""Tests of the multiclass chapter: figures, interactive figures, checkers, and its theory."""

import matplotlib

matplotlib.use("Agg")

from itertools import combinations  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import sklearn.svm  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from scipy.optimize import linprog  # noqa: E402

from svmlib import SVC, OneVsOneClassifier, OneVsRestClassifier, datasets  # noqa: E402
from svmlib.exercises.multiclass import (check_ovo_votes, check_ovr_predict,  # noqa: E402
                                         check_training_counts, reference_ovo_votes)
from svmlib.plotting import multiclass as mplot  # noqa: E402
from svmlib.widgets import multiclass as mwidgets  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def blobs():
    X, y = datasets.three_blobs(n=150, random_state=0)
    X_test, y_test = datasets.three_blobs(n=600, random_state=1)
    return X, y, X_test, y_test


@pytest.fixture(scope="module")
def linear_models(blobs):
    X, y, _, _ = blobs
    ovr = OneVsRestClassifier(SVC(kernel="linear", C=1.0)).fit(X, y)
    ovo = OneVsOneClassifier(SVC(kernel="linear", C=1.0)).fit(X, y)
    return ovr, ovo


class _FixedScores:
    """A stand-in one-vs-rest model with given scores."""

    def __init__(self, scores, classes):
        self.scores = np.asarray(scores, dtype=float)
        self.classes_ = np.asarray(classes)

    def decision_function(self, X):
        return self.scores[: len(X)]


class _FixedVotes:
    def __init__(self, votes, classes):
        self._votes = np.asarray(votes)
        self.classes_ = np.asarray(classes)

    def votes(self, X):
        return self._votes[: len(X)]


# ------------------------------------------------------------------ rules
def test_rule_candidates_and_outcome_on_fixed_scores():
    scores = [[1.0, -2.0, -0.5],     # only class 0 claims
              [-1.0, -2.0, -0.5],    # nobody claims; argmax class 2
              [0.5, 0.7, -1.0]]      # two claim; argmax class 1
    model = _FixedScores(scores, [0, 1, 2])
    X = np.zeros((3, 2))
    sign = mplot.rule_candidates(model, X, "ovr-sign")
    np.testing.assert_array_equal(sign, [[1, 0, 0], [0, 0, 0], [1, 1, 0]])
    argmax = mplot.rule_candidates(model, X, "ovr-argmax")
    np.testing.assert_array_equal(mplot.rule_outcome(argmax), [0, 2, 1])
    np.testing.assert_array_equal(mplot.rule_outcome(sign), [0, -1, -2])
    fractions = mplot.ambiguity_fractions(sign)
    assert fractions == pytest.approx({"none": 1 / 3, "several": 1 / 3, "ambiguous": 2 / 3})


def test_rule_candidates_ovo_marks_ties():
    model = _FixedVotes([[2, 1, 0], [1, 1, 1], [0, 1, 2]], [0, 1, 2])
    cand = mplot.rule_candidates(model, np.zeros((3, 2)), "ovo")
    np.testing.assert_array_equal(mplot.rule_outcome(cand), [0, -2, 2])


def test_rule_candidates_rejects_bad_input(linear_models):
    ovr, ovo = linear_models
    with pytest.raises(ValueError, match="rule must be one of"):
        mplot.rule_candidates(ovr, np.zeros((2, 2)), "vote")
    with pytest.raises(TypeError, match="votes"):
        mplot.rule_candidates(ovr, np.zeros((2, 2)), "ovo")


def test_argmax_never_ambiguous_and_sign_rule_is(blobs, linear_models):
    X, _, _, _ = blobs
    ovr, ovo = linear_models
    points, _ = mplot.plane_grid(X, grid=120)
    assert mplot.ambiguity_fractions(
        mplot.rule_candidates(ovr, points, "ovr-argmax"))["ambiguous"] == 0.0
    sign = mplot.ambiguity_fractions(mplot.rule_candidates(ovr, points, "ovr-sign"))
    assert sign["none"] > 0.01 and sign["several"] > 0.1
    ties = mplot.ambiguity_fractions(mplot.rule_candidates(ovo, points, "ovo"))
    assert 0 < ties["several"] < 0.02 and ties["none"] == 0.0


def test_argmax_regions_of_linear_ovr_are_convex(blobs, linear_models):
    # Book: (thm-mc-argmax-convex): midpoints of two points of R_k stay in R_k.
    X, _, _, _ = blobs
    ovr, _ = linear_models
    rng = np.random.default_rng(0)
    points = rng.uniform(X.min(axis=0) - 2, X.max(axis=0) + 2, size=(3000, 2))
    labels = ovr.predict(points)
    for k in ovr.classes_:
        inside = points[labels == k]
        a = inside[rng.integers(len(inside), size=500)]
        b = inside[rng.integers(len(inside), size=500)]
        assert np.all(ovr.predict((a + b) / 2) == k)


def test_argmax_boundary_is_where_scores_are_equal(linear_models):
    ovr, _ = linear_models
    w = np.array([f.coef_[0] for f in ovr.estimators_])
    b = np.array([f.intercept_[0] for f in ovr.estimators_])
    # the point where all three scores are equal lies on every pairwise boundary
    A = np.array([w[0] - w[1], w[0] - w[2]])
    x = np.linalg.solve(A, [b[1] - b[0], b[2] - b[0]])
    scores = ovr.decision_function(x[None])[0]
    assert np.ptp(scores) < 1e-9


# ------------------------------------------------------------ the images
def test_region_image_colours():
    candidates = np.array([[1, 0, 0], [0, 0, 0], [0, 1, 1], [0, 1, 1]], dtype=bool)
    image = mplot.region_image(candidates, (2, 2), stripe=1)
    assert image.shape == (2, 2, 3)
    np.testing.assert_allclose(image[0, 0], mplot.light_color(0))
    np.testing.assert_allclose(image[0, 1], [1, 1, 1])
    strong = {tuple(np.round(0.35 + 0.65 * np.array(to_rgb(c)), 6))
              for c in mplot.PALETTE[1:3]}
    striped = {tuple(np.round(image[1, j], 6)) for j in range(2)}
    assert striped == strong          # the stripes alternate the two competitors
    with pytest.raises(ValueError, match="rows"):
        mplot.region_image(candidates, (3, 3))


def test_plane_grid():
    X = np.array([[0.0, 0.0], [1.0, 2.0]])
    points, extent = mplot.plane_grid(X, grid=5, padding=0.0)
    assert points.shape == (25, 2)
    assert extent == (0.0, 1.0, 0.0, 2.0)
    np.testing.assert_allclose(points[0], [0, 0])
    np.testing.assert_allclose(points[-1], [1, 2])
    points, extent = mplot.plane_grid(X, grid=3, xlim=(-1, 1), ylim=(5, 6))
    assert extent == (-1, 1, 5, 6)


def test_plot_multiclass_regions(blobs, linear_models):
    X, y, _, _ = blobs
    ovr, ovo = linear_models
    ax = mplot.plot_multiclass_regions(ovr, X, y, rule="ovr-sign", grid=80)
    assert any(a.get_gid() == "regions" for a in ax.get_images())
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "no class claims it" in texts and "several classes claim it" in texts
    assert "class 0" in texts
    ax = mplot.plot_multiclass_regions(ovo, X, y, rule="ovo", grid=80, xlim=(-1, 1),
                                       ylim=(-1, 1), edges=False)
    assert ax.get_xlim() == (-1, 1)
    assert "vote tie" in [t.get_text() for t in ax.get_legend().get_texts()]
    ax = mplot.plot_multiclass_regions(ovr, X, rule="ovr-argmax", grid=60, legend=False)
    assert ax.get_legend() is None


def test_region_legend_handles():
    handles = mplot.region_legend_handles([0, 1], ("none", "tie"))
    assert [h.get_label() for h in handles] == ["class 0", "class 1", "no class claims it",
                                                "vote tie"]
    with pytest.raises(ValueError, match="kinds"):
        mplot.region_legend_handles([], ("maybe",))


def test_plot_subproblem_roles(blobs, linear_models):
    X, y, _, _ = blobs
    ovr, ovo = linear_models
    ax = mplot.plot_subproblem(ovr.estimators_[1], X, y, positive=1, grid=60)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == ["class 0 (rest, \u22121)", "class 1 (+1)", "class 2 (rest, \u22121)"]
    ax = mplot.plot_subproblem(ovo.estimators_[2], X, y, positive=1, negative=2, grid=60,
                               legend_loc="below")
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == ["class 0 (not used)", "class 1 (+1)", "class 2 (\u22121)"]
    with pytest.raises(ValueError, match="labels present"):
        mplot.plot_subproblem(ovo.estimators_[0], X, y, positive=7)


def test_problem_sizes_and_cost_curves():
    ovr = mplot.problem_sizes([10, 20, 30], "ovr")
    np.testing.assert_array_equal(ovr, [[10, 50], [20, 40], [30, 30]])
    ovo = mplot.problem_sizes([10, 20, 30], "ovo")
    np.testing.assert_array_equal(ovo, [[10, 20], [10, 30], [20, 30]])
    assert len(mplot.problem_sizes([5] * 10, "ovo")) == 45
    with pytest.raises(ValueError, match="strategy"):
        mplot.problem_sizes([1, 2], "all")
    with pytest.raises(ValueError, match="class_counts"):
        mplot.problem_sizes([3], "ovr")
    ax = mplot.plot_multiclass_cost(ks=range(3, 11), quantity="problems")
    ovr_line, ovo_line = ax.get_lines()
    np.testing.assert_allclose(ovo_line.get_ydata(), [k * (k - 1) / 2 for k in range(3, 11)])
    ax = mplot.plot_multiclass_cost(ks=range(3, 11), quantity="cost", exponent=2.0)
    ovr_line, ovo_line = ax.get_lines()
    ks = np.arange(3, 11)
    np.testing.assert_allclose(ovr_line.get_ydata(), ks)
    np.testing.assert_allclose(ovo_line.get_ydata() / ovr_line.get_ydata(),
                               2 * (ks - 1) / ks ** 2)        # Book: (eq-mc-cost)
    with pytest.raises(ValueError, match="quantity"):
        mplot.plot_multiclass_cost(quantity="time")


# ------------------------------------------------------ the theory, tested
def test_ovo_votes_sum_and_agree_with_reference(blobs, linear_models):
    _, _, X_test, _ = blobs
    _, ovo = linear_models
    votes = ovo.votes(X_test)
    assert np.all(votes.sum(axis=1) == 3)
    np.testing.assert_array_equal(reference_ovo_votes(ovo.pairwise_decision(X_test), 3), votes)
    cyclic = reference_ovo_votes(np.array([[0.7, -0.4, 1.2]]), 3)
    np.testing.assert_array_equal(cyclic, [[1, 1, 1]])


def test_pairwise_from_scores_never_tie():
    # Solution of ex-multiclass-ties, part 3.
    rng = np.random.default_rng(1)
    for K in (3, 4, 6):
        g = rng.normal(size=(50, K))
        pairwise = np.column_stack([g[:, i] - g[:, j] for i, j in combinations(range(K), 2)])
        votes = reference_ovo_votes(pairwise, K)
        assert np.all(np.sort(votes, axis=1) == np.arange(K))


def _mean_in_reduced_hull(P, Q):
    n_plus, n_minus = len(P), len(Q)
    A = np.vstack([Q.T, np.ones(n_minus)])
    result = linprog(np.zeros(n_minus), A_eq=A, b_eq=np.append(P.mean(axis=0), 1.0),
                     bounds=[(0, 1 / n_plus)] * n_minus, method="highs")
    return result.status == 0


def test_give_up_theorem_on_the_ring():
    # Book: (thm-mc-give-up): w = 0, b = -1 exactly for the classes whose mean lies in
    # the reduced convex hull of the rest, for every C; sklearn (LIBSVM) agrees.
    X, y = datasets.ring_of_blobs(10, n_per_class=30, random_state=0)
    holds = np.array([_mean_in_reduced_hull(X[y == k], X[y != k]) for k in range(10)])
    assert holds.sum() == 2
    for C in (0.1, 10.0):
        ovr = OneVsRestClassifier(SVC(kernel="linear", C=C, tol=1e-4)).fit(X, y)
        norms = np.array([np.linalg.norm(f.coef_) for f in ovr.estimators_])
        np.testing.assert_array_equal(norms < 0.01, holds)
        for k in np.flatnonzero(holds):
            assert ovr.estimators_[k].intercept_[0] == pytest.approx(-1.0, abs=0.01)
    for k in np.flatnonzero(holds):
        reference = sklearn.svm.SVC(kernel="linear", C=1.0).fit(X, np.where(y == k, 1, -1))
        assert np.linalg.norm(reference.coef_) < 0.01


def test_give_up_small_example_and_balanced_counterpart():
    # one positive point at the mean of four negatives: RCH with bound 1 is the hull
    negatives = np.array([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    X = np.vstack([[[0.0, 0.0]], negatives])
    y = np.array([1, -1, -1, -1, -1])
    model = SVC(kernel="linear", C=1.0, tol=1e-5).fit(X, y)
    assert np.linalg.norm(model.coef_) < 1e-3
    assert model.intercept_[0] == pytest.approx(-1.0, abs=1e-3)
    # the objective bound 2 C n_+ of part 1
    assert 0.5 * np.sum(model.coef_ ** 2) + 1.0 * np.sum(
        np.maximum(0, 1 - y * model.decision_function(X))) == pytest.approx(2.0, abs=1e-2)
    # balanced: the same point against a single negative is separated
    balanced = SVC(kernel="linear", C=1.0).fit(X[:2], y[:2])
    assert np.linalg.norm(balanced.coef_) > 0.5


def test_small_C_pushes_every_ovr_score_below_zero(blobs):
    X, y, X_test, y_test = blobs
    model = OneVsRestClassifier(SVC(kernel="rbf", C=0.01)).fit(X, y)
    points, _ = mplot.plane_grid(X, grid=60)
    assert np.all(model.decision_function(points) < 0)
    assert model.score(X_test, y_test) > 0.95


# ------------------------------------------------------------------ widgets
def test_ring_of_blobs():
    X, y = datasets.ring_of_blobs(5, n_per_class=4, spacing=2.0, spread=0.01, random_state=3)
    assert X.shape == (20, 2) and np.bincount(y).tolist() == [4] * 5
    X2, y2 = datasets.ring_of_blobs(5, n_per_class=4, spacing=2.0, spread=0.01, random_state=3)
    np.testing.assert_array_equal(X, X2)
    centres = np.array([X[y == k].mean(axis=0) for k in range(5)])
    gaps = np.linalg.norm(centres - np.roll(centres, -1, axis=0), axis=1)
    np.testing.assert_allclose(gaps, 2.0, atol=0.05)
    assert centres[0, 1] > 0 and abs(centres[0, 0]) < 0.05         # class 0 at the top
    with pytest.raises(ValueError, match="n_classes"):
        datasets.ring_of_blobs(1)


@pytest.fixture(scope="module")
def explorer(blobs):
    X, y, X_test, y_test = blobs
    return mwidgets.multiclass_explorer(X, y, X_test, y_test, Cs=(0.01, 1.0, 100.0), grid=60)


def test_multiclass_explorer(explorer):
    assert explorer.n_settings == 3 * 2 * 3
    assert set(explorer.controls) == {"rule", "kernel", "C"}
    assert explorer.text().startswith("Multiclass rules")
    for (rule, kernel, C), result in explorer.results.items():
        if rule == "ovr-argmax":
            assert result["ambiguous"] == 0 and not explorer.goal(rule, kernel, C)
        if rule == "ovr-sign":
            assert result["ambiguous"] > 0.05 and not explorer.goal(rule, kernel, C)
    assert explorer.goal("ovo", "linear", 0.01)
    assert not explorer.goal("ovo", "linear", 1.0)
    png, readout = explorer.frame(rule="ovo", kernel="linear", C=0.01)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Goal reached" in readout and "test accuracy" in readout
    png, readout = explorer.frame(rule="ovr-sign", kernel="rbf", C=0.01)
    assert "100.00 %" in readout and "Goal reached" not in readout
    assert explorer.frame(rule="ovr-sign")[1] == explorer.frame(rule="ovr-sign")[1]


def test_evaluate_rules_matches_rule_candidates(blobs, linear_models):
    X, y, X_test, y_test = blobs
    ovr, ovo = linear_models
    points, _ = mplot.plane_grid(X, grid=40)
    results = mwidgets.evaluate_rules(ovr, ovo, points, X_test, y_test)
    for rule in mplot.RULES:
        model = ovo if rule == "ovo" else ovr
        np.testing.assert_array_equal(results[rule]["candidates"],
                                      mplot.rule_candidates(model, points, rule))
    assert results["ovr-argmax"]["accuracy"] == pytest.approx(ovr.score(X_test, y_test))
    assert results["ovo"]["accuracy"] == pytest.approx(ovo.score(X_test, y_test))
    assert results["ovr-sign"]["accuracy"] <= results["ovr-argmax"]["accuracy"]


def test_more_classes_explorer():
    figure = mwidgets.more_classes_explorer(Ks=(3, 4), n_per_class=15, n_test_per_class=20,
                                            grid=40)
    assert figure.n_settings == 2 * 3 * 2
    _, readout = figure.frame(K=4, rule="ovr-sign", kernel="linear")
    assert "4 problems of 60 points (15 against 45, 1 : 3)" in readout
    assert "6 problems of 30 points" in readout and "give up" in readout
    _, readout = figure.frame(K=3, rule="ovo", kernel="rbf")
    assert "give up" not in readout and "vote ties" in readout
    assert all(r["gave_up"] == 0 for r in figure.results.values())
    with pytest.raises(ValueError, match="K"):
        mwidgets.more_classes_explorer(Ks=(2,))


def test_gives_up_is_the_theorems_constant_classifier():
    # the ring of ten blobs: linear classifiers 6 and 9 are w = 0, b = -1
    # (thm-mc-give-up); an RBF classifier never is (cor-mc-rbf-never-gives-up),
    # not even at a C so small that it claims no training point at all
    X, y = datasets.ring_of_blobs(10, n_per_class=30, random_state=0)
    linear = OneVsRestClassifier(SVC(kernel="linear", C=1.0, tol=1e-6)).fit(X, y)
    assert [k for k, f in enumerate(linear.estimators_) if mwidgets.gives_up(f)] == [6, 9]
    silent = OneVsRestClassifier(SVC(kernel="rbf", C=0.01, tol=1e-6)).fit(X, y)
    assert np.all(silent.decision_function(X) < 0)
    assert not any(mwidgets.gives_up(f) for f in silent.estimators_)


# ----------------------------------------------------------------- checkers
def _votes(d, K):
    v = np.zeros((d.shape[0], K), dtype=int)
    for p, (i, j) in enumerate(combinations(range(K), 2)):
        v[:, i] += d[:, p] > 0
        v[:, j] += d[:, p] <= 0
    return v


def _votes_flipped(d, K):
    return _votes(-d, K)


def _votes_zero_to_nobody(d, K):
    v = np.zeros((d.shape[0], K), dtype=int)
    for p, (i, j) in enumerate(combinations(range(K), 2)):
        v[:, i] += d[:, p] > 0
        v[:, j] += d[:, p] < 0
    return v


def _votes_wrong_order(d, K):
    v = np.zeros((d.shape[0], K), dtype=int)
    for p, (i, j) in enumerate([(a, b) for b in range(K) for a in range(b)]):
        v[:, i] += d[:, p] > 0
        v[:, j] += d[:, p] <= 0
    return v


def _confidence(d, K):
    v = np.zeros((d.shape[0], K))
    for p, (i, j) in enumerate(combinations(range(K), 2)):
        v[:, i] += d[:, p]
        v[:, j] -= d[:, p]
    return v


def _raises(d, K):
    raise KeyError("nope")


@pytest.mark.parametrize("func, words", [
    (_votes_flipped, "wrong way"),
    (_votes_zero_to_nobody, "exactly 0"),
    (_votes_wrong_order, "wrong order"),
    (_confidence, "whole numbers"),
    (lambda d, K: _votes(d, K).T, "transposed"),
    (lambda d, K: np.zeros((d.shape[0], K)), "add up"),
    (lambda d, K: None, "None"),
    (_raises, "KeyError"),
    ("votes", "function"),
])
def test_check_ovo_votes_hints(func, words):
    feedback = check_ovo_votes(func)
    assert not feedback
    assert words in feedback.message


def test_check_ovo_votes_accepts_right_answer():
    feedback = check_ovo_votes(_votes)
    assert feedback and "LIBSVM" in feedback.message


@pytest.mark.parametrize("func, words", [
    (lambda s, c: np.argmax(s, axis=1), "column indices"),
    (lambda s, c: np.asarray(c)[np.argmin(s, axis=1)], "smallest"),
    (lambda s, c: np.where((s > 0).sum(axis=1) == 1, np.asarray(c)[np.argmax(s, axis=1)],
                           np.asarray(c)[0]), "signs"),
    (lambda s, c: np.asarray(c)[np.argmax(s, axis=1)][:, None], "flat"),
    (lambda s, c: np.asarray(c), "axis=1"),
    (lambda s, c: None, "None"),
    (lambda s, c: np.asarray(c)[np.argmax(s, axis=0)], "IndexError"),
    (None, "function"),
])
def test_check_ovr_predict_hints(func, words):
    feedback = check_ovr_predict(func)
    assert not feedback
    assert words in feedback.message


def test_check_ovr_predict_accepts_right_answer():
    assert check_ovr_predict(lambda s, c: np.asarray(c)[np.argmax(s, axis=1)])


_RIGHT = dict(ovr_problems=10, ovr_points=1000, ovr_kernel=10 ** 7, ovo_problems=45,
              ovo_points=200, ovo_kernel=45 * 200 ** 2)


@pytest.mark.parametrize("change, words", [
    ({"ovo_problems": 90}, "twice"),
    ({"ovo_problems": 100}, "never paired"),
    ({"ovo_problems": 40}, "pairs"),
    ({"ovr_problems": 9}, "one classifier per class"),
    ({"ovr_points": 100}, "AND all"),
    ({"ovo_points": 1000}, "only the points of its two classes"),
    ({"ovr_kernel": 10000}, "not n_p"),
    ({"ovo_kernel": 40000}, "add up"),
    ({"ovo_kernel": 1}, "sum n_p^2"),
    ({"ovr_points": "1000"}, "without quotes"),
    ({"ovr_points": [1000, 1]}, "shape"),
])
def test_check_training_counts_hints(change, words):
    feedback = check_training_counts({**_RIGHT, **change})
    assert not feedback
    assert words in feedback.message


def test_check_training_counts_right_and_malformed():
    feedback = check_training_counts(_RIGHT)
    assert feedback and "5.56" in feedback.message
    assert check_training_counts({k: v for k, v in _RIGHT.items() if k != "ovo_kernel"}).message \
        .startswith("answer is missing the key(s) ovo_kernel")
    assert not check_training_counts(None)
    assert not check_training_counts([1, 2, 3])
    small = dict(ovr_problems=3, ovr_points=30, ovr_kernel=3 * 900, ovo_problems=3,
                 ovo_points=20, ovo_kernel=3 * 400)
    assert check_training_counts(small, n_classes=3, n_per_class=10)
