"""Multiclass classification from binary classifiers: one-vs-rest and one-vs-one.

An SVM separates two classes.  For ``K`` classes the two classic reductions
(Book: chapter 09, (eq-mc-ovr-argmax) and (eq-mc-ovo-votes)) are

* **one-vs-rest** (:class:`OneVsRestClassifier`): ``K`` binary problems,
  "class k" against "all the others"; predict the class whose classifier
  gives the largest decision value, ``argmax_k f_k(x)``.
* **one-vs-one** (:class:`OneVsOneClassifier`): ``K (K - 1) / 2`` binary
  problems, one per pair of classes, each trained on the two classes only;
  every pairwise classifier votes, and the class with most votes wins (ties
  go to the class listed first), as LIBSVM does.

Both work with any estimator that has ``fit`` and ``decision_function``
(svmlib's or scikit-learn's); each sub-problem gets its own fresh copy of
the estimator (``sklearn.base.clone``).  The loops are written out on
purpose: they are the algorithm.

With two classes both follow scikit-learn's convention for a binary
classifier: one binary problem, and a ``decision_function`` of shape
(n_samples,) whose positive values mean ``classes_[1]``.  Sparse input is
passed on to the binary estimators when they accept it (their
``input_tags.sparse``).
"""

from itertools import combinations

import numpy as np
import scipy.sparse
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils import get_tags
from sklearn.utils.validation import check_is_fitted

from ._validation import (check_estimator_n_features, check_estimator_X,
                          check_estimator_X_y, check_sparse)
from .svc import ovr_decision_from_ovo

__all__ = ["OneVsRestClassifier", "OneVsOneClassifier"]


def _check_estimator(estimator):
    if estimator is None or not hasattr(estimator, "fit"):
        raise ValueError(
            f"estimator must be a binary classifier with fit and decision_function, such as "
            f"svmlib.SVC(); got estimator={estimator!r}. Pass an estimator instance.")


def _check_classes(y):
    classes = np.unique(y)
    if classes.shape[0] < 2:
        raise ValueError(
            f"y must contain at least two classes; got only one class, "
            f"{classes.tolist()!r}. Check how the data were split or filtered.")
    return classes


class _Wrapper(ClassifierMixin, BaseEstimator):
    """The input checks of both reductions (scikit-learn's messages)."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self.estimator is not None:
            tags.input_tags.sparse = get_tags(self.estimator).input_tags.sparse
        return tags

    def _check_X(self, X):
        if scipy.sparse.issparse(X) and get_tags(self).input_tags.sparse:
            return check_sparse(X)
        return check_estimator_X(X, type(self).__name__)

    def _check_fit(self, X, y):
        _check_estimator(self.estimator)
        X, y = check_estimator_X_y(X, y, type(self).__name__, check_X=self._check_X)
        self.classes_ = _check_classes(y)
        self.n_features_in_ = X.shape[1]
        return X, y

    def _check_predict(self, X):
        check_is_fitted(self, "estimators_")
        return check_estimator_n_features(self._check_X(X), self.n_features_in_,
                                          type(self).__name__)


def _binary_score(estimator, X):
    """Decision values of a fitted binary estimator: > 0 means its label +1."""
    if hasattr(estimator, "decision_function"):
        return np.asarray(estimator.decision_function(X), dtype=np.float64).ravel()
    return np.where(estimator.predict(X) == 1, 1.0, -1.0)


class OneVsRestClassifier(_Wrapper):
    """One binary classifier per class, class ``k`` (+1) against the rest (-1).

    With two classes there is one classifier, ``classes_[1]`` (+1) against
    ``classes_[0]``.

    Parameters
    ----------
    estimator : estimator object
        A binary classifier with ``fit`` and ``decision_function`` (or
        ``predict``), e.g. ``svmlib.SVC(kernel="linear")``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    estimators_ : list of n_classes estimators (one for two classes)
        ``estimators_[k]`` separates ``classes_[k]`` from the others.
    n_features_in_ : int
    """

    def fit(self, X, y):
        """Fit one classifier per class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        X, y = self._check_fit(X, y)
        self.estimators_ = []
        labels = self.classes_[1:] if len(self.classes_) == 2 else self.classes_
        for label in labels:
            y_binary = np.where(y == label, 1, -1)       # this class against the rest
            model = clone(self.estimator).fit(X, y_binary)
            self.estimators_.append(model)
        return self

    def decision_function(self, X):
        """The decision value of every class's classifier.

        Returns
        -------
        ndarray of shape (n_samples, n_classes), or (n_samples,) for two classes
            Column ``k`` is ``f_k(x)``, > 0 where classifier ``k`` claims the
            point; with two classes the one classifier's value (> 0:
            ``classes_[1]``).
        """
        X = self._check_predict(X)
        scores = np.column_stack([_binary_score(model, X) for model in self.estimators_])
        return scores[:, 0] if len(self.classes_) == 2 else scores

    def predict(self, X):
        """The class with the largest decision value, ndarray of shape (n_samples,)."""
        scores = self.decision_function(X)   # checks that the model is fitted
        if len(self.classes_) == 2:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def n_claims(self, X):
        """How many classifiers claim each point (``f_k(x) > 0``), ndarray of shape (n_samples,).

        0 or more than 1 marks the ambiguous regions of one-vs-rest (with
        two classes the one classifier decides every point: 1 everywhere).
        """
        scores = self.decision_function(X)
        if len(self.classes_) == 2:
            return np.ones(scores.shape[0], dtype=np.int64)
        return (scores > 0).sum(axis=1)


class OneVsOneClassifier(_Wrapper):
    """One binary classifier per pair of classes; prediction by majority vote.

    Parameters
    ----------
    estimator : estimator object
        A binary classifier with ``fit`` and ``decision_function`` (or
        ``predict``), e.g. ``svmlib.SVC()``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    pairs_ : list of (int, int)
        Pairs of class indices ``(i, j)``, ``i < j``, in the order
        (0, 1), (0, 2), ..., (1, 2), ...
    estimators_ : list of n_classes * (n_classes - 1) / 2 estimators
        ``estimators_[p]`` separates ``classes_[i]`` (+1) from ``classes_[j]``
        (-1) for ``(i, j) = pairs_[p]``, trained on those two classes only.
    n_features_in_ : int
    """

    def fit(self, X, y):
        """Fit one classifier per pair of classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        X, y = self._check_fit(X, y)
        self.pairs_ = list(combinations(range(len(self.classes_)), 2))
        self.estimators_ = []
        for i, j in self.pairs_:
            in_pair = (y == self.classes_[i]) | (y == self.classes_[j])
            y_binary = np.where(y[in_pair] == self.classes_[i], 1, -1)  # i is +1, j is -1
            model = clone(self.estimator).fit(X[np.flatnonzero(in_pair)], y_binary)
            self.estimators_.append(model)
        return self

    def pairwise_decision(self, X):
        """Decision value of every pairwise classifier (> 0 votes for the first class).

        Returns
        -------
        ndarray of shape (n_samples, n_pairs)
        """
        X = self._check_predict(X)
        return np.column_stack([_binary_score(model, X) for model in self.estimators_])

    def votes(self, X):
        """The number of pairwise votes each class receives.

        Returns
        -------
        ndarray of shape (n_samples, n_classes), int
            Each row sums to ``n_classes * (n_classes - 1) / 2``.
        """
        values = self.pairwise_decision(X)
        votes = np.zeros((values.shape[0], len(self.classes_)), dtype=np.int64)
        for p, (i, j) in enumerate(self.pairs_):
            winner_is_i = values[:, p] > 0
            votes[winner_is_i, i] += 1
            votes[~winner_is_i, j] += 1
        return votes

    def decision_function(self, X):
        """Votes plus a small confidence term, ndarray of shape (n_samples, n_classes).

        The confidence (summed pairwise decision values, squashed into
        ``(-1/3, 1/3)``) only breaks ties between equal vote counts; this is
        scikit-learn's ``"ovr"``-shaped decision function for one-vs-one.
        With two classes: ndarray of shape (n_samples,), minus the one
        pairwise value (> 0: ``classes_[1]``, as for a binary classifier).
        """
        values = self.pairwise_decision(X)
        if len(self.classes_) == 2:
            return -values[:, 0]
        return ovr_decision_from_ovo(values, len(self.classes_))

    def predict(self, X):
        """The class with most votes (ties: the class listed first), ndarray of shape (n_samples,)."""
        votes = self.votes(X)
        return self.classes_[np.argmax(votes, axis=1)]
