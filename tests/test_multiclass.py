"""Tests of the one-vs-rest and one-vs-one wrappers in svmlib.multiclass."""

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.multiclass import OneVsOneClassifier as SkOneVsOne
from sklearn.multiclass import OneVsRestClassifier as SkOneVsRest
from sklearn.svm import SVC as LibsvmSVC

from svmlib import SVC, OneVsOneClassifier, OneVsRestClassifier, datasets


@pytest.fixture(scope="module")
def blobs():
    return datasets.three_blobs(150, random_state=0)


def test_one_vs_one_structure_and_votes(blobs):
    X, y = blobs
    model = OneVsOneClassifier(SVC(kernel="linear")).fit(X, y)
    assert model.pairs_ == [(0, 1), (0, 2), (1, 2)]
    assert len(model.estimators_) == 3
    assert len({id(e) for e in model.estimators_}) == 3          # one clone per pair
    assert not hasattr(model.estimator, "support_")              # the template stays unfitted
    # Each pairwise model saw only its two classes.
    for (i, j), estimator in zip(model.pairs_, model.estimators_):
        assert estimator.shape_fit_[0] == np.sum((y == i) | (y == j))
    votes = model.votes(X)
    assert votes.shape == (150, 3)
    np.testing.assert_array_equal(votes.sum(axis=1), 3)
    np.testing.assert_array_equal(model.predict(X), np.argmax(votes, axis=1))
    assert model.score(X, y) > 0.9


def test_one_vs_one_equals_svc_internal_voting(blobs):
    X, y = blobs
    # A fixed gamma: "scale" would be computed on each pair's data by the wrapper.
    wrapper = OneVsOneClassifier(SVC(C=1.0, gamma=0.5, tol=1e-6)).fit(X, y)
    builtin = SVC(C=1.0, gamma=0.5, tol=1e-6, decision_function_shape="ovo").fit(X, y)
    np.testing.assert_allclose(wrapper.pairwise_decision(X), builtin.decision_function(X),
                               atol=1e-6)
    np.testing.assert_array_equal(wrapper.votes(X), builtin.votes(X))
    np.testing.assert_array_equal(wrapper.predict(X), builtin.predict(X))


def test_one_vs_one_agrees_with_sklearn(blobs):
    X, y = blobs
    ours = OneVsOneClassifier(SVC(tol=1e-5)).fit(X, y)
    ref = SkOneVsOne(LibsvmSVC(tol=1e-5)).fit(X, y)
    assert (ours.predict(X) == ref.predict(X)).mean() >= 0.99
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=0.02)


def test_one_vs_rest(blobs):
    X, y = blobs
    model = OneVsRestClassifier(SVC(kernel="linear")).fit(X, y)
    assert len(model.estimators_) == 3
    scores = model.decision_function(X)
    assert scores.shape == (150, 3)
    np.testing.assert_array_equal(model.predict(X), model.classes_[np.argmax(scores, axis=1)])
    # Classifier k says "class k" (> 0) on most points of class k.
    for k in range(3):
        assert (scores[y == k, k] > 0).mean() > 0.8
    claims = model.n_claims(X)
    assert claims.shape == (150,) and set(np.unique(claims)) <= {0, 1, 2, 3}
    ref = SkOneVsRest(LibsvmSVC(kernel="linear")).fit(X, y)
    assert (model.predict(X) == ref.predict(X)).mean() >= 0.99


def test_string_labels_and_errors(blobs):
    X, y = blobs
    names = np.array(["cat", "dog", "emu"])[y]
    model = OneVsRestClassifier(SVC()).fit(X, names)
    np.testing.assert_array_equal(model.classes_, ["cat", "dog", "emu"])
    assert set(model.predict(X)) <= {"cat", "dog", "emu"}
    with pytest.raises(NotFittedError):
        OneVsOneClassifier(SVC()).predict(X)
    with pytest.raises(ValueError, match="estimator must be"):
        OneVsOneClassifier(None).fit(X, y)
    with pytest.raises(ValueError, match="at least two classes"):
        OneVsRestClassifier(SVC()).fit(X, np.zeros(len(y)))
