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
"""

from itertools import combinations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import check_is_fitted

from ._validation import check_array, check_X_y
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
            f"y must contain at least two classes; got only {classes.tolist()!r}. Check how "
            f"the data were split or filtered.")
    return classes


def _binary_score(estimator, X):
    """Decision values of a fitted binary estimator: > 0 means its label +1."""
    if hasattr(estimator, "decision_function"):
        return np.asarray(estimator.decision_function(X), dtype=np.float64).ravel()
    return np.where(estimator.predict(X) == 1, 1.0, -1.0)


class OneVsRestClassifier(ClassifierMixin, BaseEstimator):
    """One binary classifier per class, class ``k`` (+1) against the rest (-1).

    Parameters
    ----------
    estimator : estimator object
        A binary classifier with ``fit`` and ``decision_function`` (or
        ``predict``), e.g. ``svmlib.SVC(kernel="linear")``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    estimators_ : list of n_classes estimators
        ``estimators_[k]`` separates ``classes_[k]`` from the others.
    n_features_in_ : int
    """

    def __init__(self, estimator=None):
        self.estimator = estimator

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
        _check_estimator(self.estimator)
        X, y = check_X_y(X, y)
        self.classes_ = _check_classes(y)
        self.n_features_in_ = X.shape[1]
        self.estimators_ = []
        for label in self.classes_:
            y_binary = np.where(y == label, 1, -1)       # this class against the rest
            model = clone(self.estimator).fit(X, y_binary)
            self.estimators_.append(model)
        return self

    def decision_function(self, X):
        """The decision value of every class's classifier.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Column ``k`` is ``f_k(x)``, > 0 where classifier ``k`` claims the point.
        """
        check_is_fitted(self, "estimators_")
        X = check_array(X, "X")
        return np.column_stack([_binary_score(model, X) for model in self.estimators_])

    def predict(self, X):
        """The class with the largest decision value, ndarray of shape (n_samples,)."""
        scores = self.decision_function(X)   # checks that the model is fitted
        return self.classes_[np.argmax(scores, axis=1)]

    def n_claims(self, X):
        """How many classifiers claim each point (``f_k(x) > 0``), ndarray of shape (n_samples,).

        0 or more than 1 marks the ambiguous regions of one-vs-rest.
        """
        return (self.decision_function(X) > 0).sum(axis=1)


class OneVsOneClassifier(ClassifierMixin, BaseEstimator):
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

    def __init__(self, estimator=None):
        self.estimator = estimator

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
        _check_estimator(self.estimator)
        X, y = check_X_y(X, y)
        self.classes_ = _check_classes(y)
        self.n_features_in_ = X.shape[1]
        self.pairs_ = list(combinations(range(len(self.classes_)), 2))
        self.estimators_ = []
        for i, j in self.pairs_:
            in_pair = (y == self.classes_[i]) | (y == self.classes_[j])
            y_binary = np.where(y[in_pair] == self.classes_[i], 1, -1)  # i is +1, j is -1
            model = clone(self.estimator).fit(X[in_pair], y_binary)
            self.estimators_.append(model)
        return self

    def pairwise_decision(self, X):
        """Decision value of every pairwise classifier (> 0 votes for the first class).

        Returns
        -------
        ndarray of shape (n_samples, n_pairs)
        """
        check_is_fitted(self, "estimators_")
        X = check_array(X, "X")
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
        """
        return ovr_decision_from_ovo(self.pairwise_decision(X), len(self.classes_))

    def predict(self, X):
        """The class with most votes (ties: the class listed first), ndarray of shape (n_samples,)."""
        votes = self.votes(X)
        return self.classes_[np.argmax(votes, axis=1)]
