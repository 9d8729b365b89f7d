"""LinearSVC's class_weight, sample_weight, dual and penalty, against LIBLINEAR (issue 28).

Weights scale each sample's ``C`` the way LIBLINEAR does (a binary problem
weights both classes, the one-vs-rest problem of class k only the samples of
k), so both libraries minimize the same weighted primal; they are compared on
its value (relative difference) and on the weights, at tol = 1e-10.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC as LIBLINEAR
from sklearn.utils.class_weight import compute_class_weight

from svmlib import LinearSVC, datasets
from svmlib.linear import linear_svm_primal

TIGHT = dict(tol=1e-10, max_iter=100_000)


def weighted_objectives(model, X, y, loss, C, class_weight_, sample_weight):
    """The primal of every binary problem, with LIBLINEAR's per-sample C_i / C."""
    classes = model.classes_
    sw = np.ones(len(y)) if sample_weight is None else sample_weight
    values = []
    targets = [1] if len(classes) == 2 else range(len(classes))
    for r, k in enumerate(targets):
        index = np.searchsorted(classes, y)
        if len(classes) == 2:
            scale = class_weight_[index]
        else:
            scale = np.where(index == k, class_weight_[k], 1.0)
        y_pm = np.where(index == k, 1.0, -1.0)
        values.append(linear_svm_primal(model.coef_[r], model.intercept_[r], X, y_pm, C=C,
                                        loss=loss, sample_weight=scale * sw))
    return np.array(values)


@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("class_weight", [None, "balanced", "dict"])
@pytest.mark.parametrize("weighted", [False, True])
def test_weights_match_liblinear(loss, n_classes, class_weight, weighted):
    rng = np.random.default_rng(n_classes)
    if n_classes == 2:
        X, y = datasets.overlapping_blobs(120, random_state=1)
        keep = np.r_[np.flatnonzero(y == y.min())[:30], np.flatnonzero(y == y.max())]
        X, y = X[keep], y[keep]                        # unbalanced: the weights matter
    else:
        X, y = datasets.three_blobs(n=150, random_state=2)
        X = X + 0.8 * rng.normal(size=X.shape)
    classes = np.unique(y)
    cw = ({c: w for c, w in zip(classes, (3.0, 0.5, 2.0))} if class_weight == "dict"
          else class_weight)
    sw = rng.integers(0, 4, size=len(y)).astype(float) if weighted else None
    ours = LinearSVC(loss=loss, C=0.5, class_weight=cw, **TIGHT).fit(X, y, sample_weight=sw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        theirs = LIBLINEAR(loss=loss, C=0.5, class_weight=cw, dual=True, random_state=0,
                           **TIGHT).fit(X, y, sample_weight=sw)
    expected = (np.ones(len(classes)) if cw is None
                else compute_class_weight(cw, classes=classes, y=y, sample_weight=sw))
    np.testing.assert_allclose(ours.class_weight_, expected, rtol=1e-15)
    p_ours = weighted_objectives(ours, X, y, loss, 0.5, ours.class_weight_, sw)
    p_theirs = weighted_objectives(theirs, X, y, loss, 0.5, ours.class_weight_, sw)
    np.testing.assert_allclose(p_ours, p_theirs, rtol=1e-7)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-4)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=0, atol=1e-4)
    assert np.mean(ours.predict(X) == theirs.predict(X)) >= 0.99


def test_class_weight_moves_the_boundary_and_zero_weights_drop_samples():
    X, y = datasets.overlapping_blobs(200, random_state=3)
    plain = LinearSVC(**TIGHT).fit(X, y)
    heavy = LinearSVC(class_weight={y.min(): 10.0, y.max(): 1.0}, **TIGHT).fit(X, y)
    assert np.mean(heavy.predict(X) == y.min()) > np.mean(plain.predict(X) == y.min())
    sw = (np.arange(len(y)) % 2).astype(float)
    weighted = LinearSVC(**TIGHT).fit(X, y, sample_weight=sw)
    dropped = LinearSVC(**TIGHT).fit(X[sw > 0], y[sw > 0])
    np.testing.assert_allclose(weighted.coef_, dropped.coef_, rtol=0, atol=1e-7)
    assert np.all(weighted.dual_coef_[0][sw == 0] == 0)


def test_dual_rules_and_messages_follow_scikit_learn():
    X, y = datasets.overlapping_blobs(60, random_state=0)
    with pytest.raises(ValueError, match="penalty='l2' and loss='hinge' are not supported when "
                                         "dual=False"):
        LinearSVC(loss="hinge", dual=False).fit(X, y)
    with pytest.raises(ValueError, match="penalty='l1' and loss='hinge' is not supported"):
        LinearSVC(loss="hinge", penalty="l1").fit(X, y)
    with pytest.raises(ValueError, match="penalty='l1' and loss='squared_hinge' are not "
                                         "supported when dual=True"):
        LinearSVC(penalty="l1", dual=True).fit(X, y)
    assert LinearSVC(penalty="l1", dual=False).fit(X, y).solver_ == "l1_cd"
    assert LinearSVC(penalty="l1").fit(X, y).solver_ == "l1_cd"      # "auto": the primal
    with pytest.raises(ValueError, match="penalty must be one of 'l2', 'l1'; got penalty='l3'"):
        LinearSVC(penalty="l3").fit(X, y)
    with pytest.raises(ValueError, match="dual must be 'auto', True or False; got dual=1"):
        LinearSVC(dual=1).fit(X, y)
    fits = [LinearSVC(dual=dual, **TIGHT).fit(X, y) for dual in ("auto", True, False,
                                                                  np.False_)]
    for other in fits[1:]:
        np.testing.assert_allclose(other.coef_, fits[0].coef_, rtol=0, atol=1e-9)


def test_bad_weights_are_named():
    X, y = datasets.overlapping_blobs(40, random_state=0)
    with pytest.raises(ValueError, match=r"class_weight\[.*\] must be a finite number >= 0"):
        LinearSVC(class_weight={y.min(): -1.0, y.max(): 1.0}).fit(X, y)
    with pytest.raises(ValueError, match="class_weight must be None, 'balanced' or a dict"):
        LinearSVC(class_weight=[1, 2]).fit(X, y)
    with pytest.raises(ValueError, match="class_weight must be one of 'balanced'"):
        LinearSVC(class_weight="even").fit(X, y)
    with pytest.raises(ValueError, match="not in class_weight|not present in the data"):
        LinearSVC(class_weight={"nope": 2.0}).fit(X, y)
    with pytest.raises(ValueError, match=r"sample_weight.shape == \(2,\), expected \(40,\)"):
        LinearSVC().fit(X, y, sample_weight=[1.0, 2.0])


def test_verbose_prints_one_line_per_problem(capsys):
    X, y = datasets.three_blobs(n=60, random_state=0)
    LinearSVC(verbose=1).fit(sp.csr_matrix(X), y)
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3 and all(line.startswith("LinearSVC (primal_newton): problem") for line in lines)
