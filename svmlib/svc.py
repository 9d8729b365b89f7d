"""Support vector classification: the estimator :class:`SVC`.

:class:`SVC` solves the same problem as LIBSVM's C-SVC (``sklearn.svm.SVC``)
with the same parameters, and stores its solution in the same layout, so the
two can be compared attribute by attribute:

* two classes: one dual problem (Book: (eq-soft-dual)); the class
  ``classes_[1]`` plays ``y = +1``, so ``decision_function(X) >= 0`` predicts
  ``classes_[1]`` (an exact 0 goes to ``classes_[1]``, as in LIBSVM);
* ``k >= 3`` classes: one-vs-one, ``k (k - 1) / 2`` binary problems, one per
  pair of classes ``(i, j)`` with ``i < j`` (class ``i`` plays ``+1``), and
  prediction by majority vote, ties going to the class listed first in
  ``classes_``, as LIBSVM does.

The multipliers come from :func:`svmlib.smo.solve_dual_smo` (default) or
:func:`svmlib.qp.solve_dual_slsqp`.
"""

import warnings
from itertools import combinations
from numbers import Real

import numpy as np
import sklearn
from packaging.version import Version
from sklearn.base import ClassifierMixin
from sklearn.exceptions import NotFittedError
from sklearn.utils import check_random_state
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from ._kernel_svm import (CheckedKernel, KernelSVMBase, check_bool,
                          one_convergence_warning)
from ._validation import check_estimator_X_y, check_option, check_positive
from .dual import LP_CHECK_MAX_N, NotSeparableError, check_separable
from .qp import solve_dual_slsqp
from .probability import MIN_PROBABILITY, pairwise_coupling, platt_fit, platt_predict
from .kernels import _squared_norms
from .smo import HARD_MARGIN_LIMIT, solve_dual_smo

__all__ = ["SVC", "ovr_decision_from_ovo", "PROBABILITY_DEPRECATED", "PROBABILITY_FOLDS"]

#: scikit-learn 1.9 deprecates ``SVC(probability=...)`` (to be removed in 1.11):
#: its default becomes the string ``"deprecated"``, and passing the parameter
#: at all (True or False) gives a FutureWarning at ``fit``.  svmlib follows the
#: installed scikit-learn: with an older one the default is ``False`` and no
#: warning is given.
PROBABILITY_DEPRECATED = Version(sklearn.__version__).release[:2] >= (1, 9)
_PROBABILITY_DEFAULT = "deprecated" if PROBABILITY_DEPRECATED else False
#: LIBSVM's number of cross-validation folds for the Platt fit (``nr_fold``).
PROBABILITY_FOLDS = 5

# Older names of the helpers that moved to svmlib._kernel_svm.
_CheckedKernel = CheckedKernel
_check_bool = check_bool


def ovr_decision_from_ovo(decision_ovo, n_classes):
    """Turn one-vs-one decision values into one score per class.

    Each pair ``(i, j)`` gives a vote to ``i`` (value >= 0) or ``j``; the score
    of a class is its number of votes plus its summed confidences squashed
    into ``(-1/3, 1/3)``, so votes decide and confidences only break ties.
    This is the rule scikit-learn uses for ``decision_function_shape="ovr"``,
    down to a value of exactly 0, which votes for ``i`` here but for ``j`` in
    LIBSVM's own vote (``SVC.votes``, which ``predict`` follows): so, as in
    scikit-learn, ``predict`` can differ from the arg max of these scores
    where a pair is tied, unless ``break_ties=True``.

    Parameters
    ----------
    decision_ovo : ndarray of shape (n_samples, n_classes * (n_classes - 1) / 2)
        Pairwise decision values, pairs in the order (0, 1), (0, 2), ...,
        (1, 2), ...
    n_classes : int

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
    """
    n = decision_ovo.shape[0]
    votes = np.zeros((n, n_classes))
    confidence = np.zeros((n, n_classes))
    for k, (i, j) in enumerate(combinations(range(n_classes), 2)):
        value = decision_ovo[:, k]
        votes[:, i] += value >= 0
        votes[:, j] += value < 0
        confidence[:, i] += value
        confidence[:, j] -= value
    return votes + confidence / (3.0 * (np.abs(confidence) + 1.0))


class SVC(ClassifierMixin, KernelSVMBase):
    """C-support vector classifier (soft margin, any kernel; ``C=np.inf`` is the hard margin).

    The parameters have scikit-learn's names and meanings (``sklearn.svm.SVC``),
    so code written for it runs with ``from svmlib import SVC``; see the
    README for what is not supported.  ``X`` may be a scipy.sparse matrix:
    ``support_vectors_``, ``dual_coef_`` and ``coef_`` are then CSR
    matrices, as in scikit-learn, and a fit on dense input refuses sparse
    input at prediction time (scikit-learn's ValueError).  A callable kernel
    receives ``X`` as given (rows of any objects, strings for instance).

    Parameters
    ----------
    C : float, default=1.0
        Penalty of the slack (Book: (eq-soft-primal)); ``> 0`` or ``np.inf``
        for the hard margin (Book: (eq-hmd-primal)).
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or callable, default="rbf"
        ``"sigmoid"`` is ``tanh(gamma <x, z> + coef0)``, as in LIBSVM; it is
        not always positive semidefinite (see :func:`svmlib.kernels.sigmoid`),
        so the dual may be non-convex and SMO then finds a stationary point,
        not necessarily the one LIBSVM finds.
        A callable ``k(X, Z)`` must return an ndarray of shape (n_X, n_Z);
        its outputs are checked (shape, NaN, infinity) as they are computed.
        With ``"precomputed"``, ``fit`` takes the Gram matrix of shape
        (n_samples, n_samples) and ``predict`` the matrix of shape
        (n_test, n_train) of kernel values against the training points.
    degree : int, default=3
        Degree of the polynomial kernel (``>= 0``; ``>= 1`` for "poly").
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient of "rbf", "poly" and "sigmoid": ``"scale"`` is
        ``1 / (n_features * X.var())``, ``"auto"`` is ``1 / n_features``.
        Checked whatever the kernel.
    coef0 : float, default=0.0
        Constant of the polynomial kernel, ``(gamma <x, z> + coef0) ** degree``,
        and of the sigmoid, ``tanh(gamma <x, z> + coef0)``.
        The defaults are scikit-learn's (``coef0=0``, ``gamma="scale"``), not
        those of :func:`svmlib.kernels.polynomial` (``coef0=1``, ``gamma=1``):
        ``SVC(kernel="poly", coef0=1.0, gamma=1.0)`` is the book's kernel.
    tol : float, default=1e-3
        Stopping tolerance on the maximal KKT violation (as LIBSVM's ``eps``).
    solver : {"smo", "slsqp"}, default="smo"
        Which dual solver to use; "slsqp" builds the n x n matrix and suits a
        few hundred points.
    max_iter : int, default=-1
        Iteration limit of the solver (per binary problem); ``-1`` means no
        limit, as in scikit-learn: SMO runs until its stopping rule holds
        (on badly conditioned problems, such as unscaled features with a
        polynomial kernel, that can be hundreds of millions of iterations;
        ``verbose=True`` shows the progress).  A limit that is reached gives
        a ConvergenceWarning and ``fit_status_ = 1``, as in LIBSVM, even
        when the KKT violation there is already below ``tol`` (LIBSVM tests
        the limit before its stopping rule).  Must be -1 or >= 1.
    cache_size : float, default=200
        Kernel cache of SMO in megabytes.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        Shape of ``decision_function`` for three or more classes: one
        column per class (votes plus a squashed confidence, scikit-learn's
        default) or one column per pair of classes (LIBSVM's raw values).
    class_weight : dict, "balanced" or None, default=None
        Multiplies ``C`` for the samples of each class: ``C_i = C *
        class_weight[y_i]``.  ``"balanced"`` uses ``n_samples / (n_classes *
        count of the class)``.  Stored as ``class_weight_``.
    break_ties : bool, default=False
        With ``decision_function_shape="ovr"`` and three or more classes,
        predict the argmax of ``decision_function`` (ties between vote
        counts broken by the confidences) instead of the first class with
        most votes.  Not allowed with ``"ovo"``.
    shrinking : bool, default=True
        Use SMO's shrinking heuristic (the solution is the same up to ``tol``).
    verbose : bool or int, default=False
        Print the solver's progress (iterations, KKT violation, time) about
        once a second, and a summary per binary problem.
    random_state : int, RandomState instance or None, default=None
        Shuffles the samples into the cross-validation folds of
        ``probability=True``; otherwise unused (the fit is deterministic).
    probability : bool or "deprecated", default="deprecated"
        ``True``: also fit LIBSVM's probability model (5-fold cross-validated
        decision values, Platt's sigmoid per pair of classes, pairwise
        coupling; see :mod:`svmlib.probability`), which enables
        ``predict_proba`` and ``predict_log_proba`` and costs about
        five more fits.  As in scikit-learn 1.9, where the parameter is
        deprecated, passing it (``True`` or ``False``) gives a FutureWarning
        at ``fit`` suggesting ``CalibratedClassifierCV(SVC(),
        ensemble=False)``, and the default ``"deprecated"`` means ``False``
        (with scikit-learn older than 1.9 the default is ``False`` and there
        is no warning).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_weight_ : ndarray of shape (n_classes,)
        The weight of each class (all 1 for ``class_weight=None``).
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors in the training set, grouped by class.
    support_vectors_ : ndarray or CSR matrix of shape (n_SV, n_features)
        (Empty (n_SV, 0) for a precomputed kernel.)
    n_support_ : ndarray of shape (n_classes,)
        Number of support vectors of each class.
    dual_coef_ : ndarray or CSR matrix of shape (n_classes - 1, n_SV)
        ``alpha_i y_i`` of each support vector, in LIBSVM's one-vs-one layout.
    intercept_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        The bias ``b`` of each binary problem.
    alpha_ : ndarray of shape (n_samples,) or (n_pairs, n_samples)
        The multipliers of every training point (0 outside a pair's classes
        and for samples of weight 0).
    solver_result_ : SolverResult or list of SolverResult
        The solver's record for each binary problem.
    n_iter_ : ndarray of shape (n_pairs,)
    fit_status_ : int
        0 if every solver (those of the cross-validation of
        ``probability=True`` included, as in LIBSVM) met its tolerance, 1
        otherwise.
    probA_, probB_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        Platt's ``A`` and ``B`` of each pair ``(i, j)``, ``i < j``, for
        ``P(class i | pair) = 1 / (1 + exp(A f + B))`` with ``f`` LIBSVM's
        decision value of the pair (class ``i`` positive, so ``f`` is minus
        :meth:`decision_function` for two classes); empty without
        ``probability=True``.  Reading them gives scikit-learn 1.9's
        FutureWarning (deprecated with ``probability``).
    shape_fit_ : tuple
    n_features_in_ : int
    """

    def __init__(self, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3,
                 solver="smo", max_iter=-1, cache_size=200, decision_function_shape="ovr",
                 class_weight=None, break_ties=False, shrinking=True, verbose=False,
                 random_state=None, probability=_PROBABILITY_DEFAULT):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.solver = solver
        self.max_iter = max_iter
        self.cache_size = cache_size
        self.decision_function_shape = decision_function_shape
        self.class_weight = class_weight
        self.break_ties = break_ties
        self.shrinking = shrinking
        self.verbose = verbose
        self.random_state = random_state
        self.probability = probability

    # ------------------------------------------------------------ checks
    def _check_params(self):
        """Check every parameter, whatever the kernel (as scikit-learn does)."""
        self._C = check_positive(self.C, "C", allow_inf=True,
                                 hint="Use a positive C such as C=1.0 (C=np.inf for a hard margin).")
        self._check_kernel_params()
        check_option(self.solver, "solver", ("smo", "slsqp"))
        check_option(self.decision_function_shape, "decision_function_shape", ("ovr", "ovo"))
        cw = self.class_weight
        if not (cw is None or isinstance(cw, dict) or (isinstance(cw, str) and cw == "balanced")):
            raise ValueError(
                f"class_weight must be None, 'balanced' or a dict {{label: weight}}; got "
                f"class_weight={cw!r}. Use class_weight='balanced' for imbalanced classes.")
        check_bool(self.break_ties, "break_ties")
        self._check_probability_params()

    def _check_probability_params(self):
        """``random_state`` and ``probability`` (shared with NuSVC)."""
        try:
            check_random_state(self.random_state)
        except ValueError:
            raise ValueError(
                f"random_state must be None, an int or a numpy RandomState; got "
                f"random_state={self.random_state!r}. (It shuffles the folds of "
                f"probability=True.)") from None
        name = type(self).__name__
        p = self.probability
        if not (isinstance(p, (bool, np.bool_)) or (isinstance(p, str) and p == "deprecated")):
            raise ValueError(
                f"probability must be True, False or 'deprecated' (the default, meaning "
                f"False); got probability={p!r}. Pass probability=True for predict_proba, or "
                f"use CalibratedClassifierCV({name}(), ensemble=False).")
        self._effective_probability = False if isinstance(p, str) else bool(p)

    def _warn_probability_deprecated(self):
        """scikit-learn 1.9's FutureWarning when ``probability`` is passed (True or False)."""
        if PROBABILITY_DEPRECATED and not isinstance(self.probability, str):
            name = type(self).__name__
            # scikit-learn's message, word for word (with this estimator's name).
            warnings.warn(
                f"The `probability` parameter was deprecated in 1.9 and will be removed in "
                f"version 1.11. Use `CalibratedClassifierCV({name}(), ensemble=False)` "
                f"instead of `{name}(probability=True)`", FutureWarning, stacklevel=3)

    def _check_X_y(self, X, y):
        precomputed = self.kernel == "precomputed"
        return check_estimator_X_y(X, y, type(self).__name__,
                                   check_X=lambda X: self._check_X(X, precomputed=precomputed))

    def _class_weights(self, classes, y_index):
        """The weight of each class (``class_weight_``)."""
        n_classes = classes.shape[0]
        cw = self.class_weight
        if cw is None:
            return np.ones(n_classes)
        if isinstance(cw, str):  # "balanced"
            counts = np.bincount(y_index, minlength=n_classes)
            return y_index.shape[0] / (n_classes * counts.astype(np.float64))
        labels = classes.tolist()
        unknown = [key for key in cw if key not in labels]
        if unknown:
            raise ValueError(
                f"class_weight has key(s) {unknown!r} that are not classes of y; the classes "
                f"are {labels!r}. Use the labels of y as keys.")
        weights = np.ones(n_classes)
        for k, label in enumerate(labels):
            if label in cw:
                value = cw[label]
                if not isinstance(value, Real) or isinstance(value, bool) \
                        or not np.isfinite(value) or value < 0:
                    raise ValueError(
                        f"class_weight must map each class to a finite number >= 0; got "
                        f"class_weight[{label!r}]={value!r}. Use weights such as 1.0 or 10.0.")
                weights[k] = float(value)
        return weights

    # ------------------------------------------------------------ fit
    @one_convergence_warning
    def fit(self, X, y, sample_weight=None):
        """Fit the classifier.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Or the Gram matrix of shape (n_samples, n_samples) if
            ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels (any two or more distinct values).
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample weights: sample ``i`` gets the penalty ``C *
            class_weight[y_i] * sample_weight[i]`` (as LIBSVM).  Samples with
            a weight ``<= 0`` are left out, as in scikit-learn.

        Returns
        -------
        self : SVC
        """
        self._check_params()
        self._warn_probability_deprecated()
        X, y = self._check_X_y(X, y)
        if X.shape[0] < 2:
            raise ValueError(
                f"X must contain at least 2 samples (n_samples = {X.shape[0]}); a classifier "
                f"needs examples of two classes. Pass more data.")
        classes, y_index = np.unique(y, return_inverse=True)
        if classes.shape[0] < 2:
            raise ValueError(
                f"y must contain at least two classes; got only one class "
                f"({classes.tolist()!r}). A classifier needs examples of both classes: check "
                f"how the data were split or filtered.")
        n = X.shape[0]
        class_weight = self._class_weights(classes, y_index)
        sample_weight = self._check_sample_weight(sample_weight, n)
        weighted = self.class_weight is not None or sample_weight is not None
        if weighted:
            # Per-sample upper bounds C_i = C * class_weight[y_i] * sample_weight_i.
            weights = class_weight[y_index]
            if sample_weight is not None:
                weights = weights * sample_weight
            upper = self._C * weights if np.isfinite(self._C) else np.where(
                weights > 0, np.inf, 0.0)
            active = upper > 0
            self._check_weighted_classes(classes, y_index, active)
        precomputed = self.kernel == "precomputed"
        kernel = self._fit_kernel(X)

        self.classes_ = classes
        self.class_weight_ = class_weight
        if X.ndim == 2:                      # (not for the rows of a kernel function)
            self.n_features_in_ = X.shape[1]
        elif hasattr(self, "n_features_in_"):
            del self.n_features_in_
        self.shape_fit_ = X.shape
        n_classes = classes.shape[0]
        pairs = list(combinations(range(n_classes), 2))
        alphas = np.zeros((len(pairs), n))
        intercepts = np.zeros(len(pairs))
        results = []
        prob_a, prob_b = np.zeros(len(pairs)), np.zeros(len(pairs))
        cv_converged = True
        rng = check_random_state(self.random_state) if self._effective_probability else None
        for p, (ci, cj) in enumerate(pairs):
            in_pair = (y_index == ci) | (y_index == cj)
            if weighted:
                in_pair &= active
            idx = np.flatnonzero(in_pair)
            if n_classes == 2:
                y_pm = np.where(y_index[idx] == 1, 1.0, -1.0)  # classes_[1] is +1
            else:
                y_pm = np.where(y_index[idx] == ci, 1.0, -1.0)  # LIBSVM: first class is +1
            C = self._C
            if weighted:
                bounds = upper[idx]
                C = float(bounds[0]) if np.all(bounds == bounds[0]) else bounds
            if self.verbose and n_classes > 2:
                print(f"{type(self).__name__}: classes {classes.tolist()[ci]!r} (+1) and "
                      f"{classes.tolist()[cj]!r} (-1), "
                      f"{idx.shape[0]} samples", flush=True)
            if self._effective_probability:
                # As LIBSVM: the pair's probability model first, then its SVM.
                # LIBSVM's pair has class ci as +1; svmlib's binary problem has
                # classes_[1] as +1, so its labels are flipped for the fit.
                flip = -1.0 if n_classes == 2 else 1.0
                decision, ok = self._cross_validated_decision(
                    X, idx, flip * y_pm, kernel, precomputed, C, rng)
                prob_a[p], prob_b[p], _ = platt_fit(decision, flip * y_pm)
                cv_converged &= ok
            result = self._solve(X, idx, y_pm, kernel, precomputed, C)
            alphas[p, idx] = result.alpha
            intercepts[p] = result.b
            results.append(result)
        self._set_solution(X, y_index, pairs, alphas, intercepts, precomputed)
        self.alpha_ = alphas[0] if n_classes == 2 else alphas
        self.solver_result_ = results[0] if n_classes == 2 else results
        self.n_iter_ = np.array([r.n_iter for r in results], dtype=np.int64)
        self.fit_status_ = 0 if all(r.converged for r in results) and cv_converged else 1
        self._probA = prob_a if self._effective_probability else np.empty(0)
        self._probB = prob_b if self._effective_probability else np.empty(0)
        return self

    def _cross_validated_decision(self, X, idx, y_pm, kernel, precomputed, C, rng):
        """LIBSVM's ``svm_binary_svc_probability`` up to the sigmoid: 5-fold decision values.

        The ``m`` samples ``idx`` of one pair (labels ``y_pm``, +1 the
        positive class of the returned values) are shuffled by ``rng`` and cut
        into ``PROBABILITY_FOLDS`` consecutive folds (``fold k`` = positions
        ``k m // 5`` to ``(k + 1) m // 5`` of the shuffle); each fold's
        values come from the binary SVM (this estimator's solver, same ``C``
        bounds) trained on the other folds.  A training part with one class
        only gives that class's sign, +1 or -1, as LIBSVM does (0 if empty).

        Returns
        -------
        (ndarray of shape (m,), bool)
            The decision values and whether every fold's solver converged.
        """
        m = idx.shape[0]
        perm = rng.permutation(m)
        decision = np.zeros(m)
        bounds = None if np.ndim(C) == 0 else np.asarray(C)
        converged = True
        for k in range(PROBABILITY_FOLDS):
            begin, end = k * m // PROBABILITY_FOLDS, (k + 1) * m // PROBABILITY_FOLDS
            test = perm[begin:end]
            train = np.concatenate([perm[:begin], perm[end:]])
            if test.size == 0:
                continue
            n_pos = int(np.sum(y_pm[train] > 0))
            if train.size == 0:
                decision[test] = 0.0
                continue
            if n_pos == train.size or n_pos == 0:
                decision[test] = 1.0 if n_pos else -1.0
                continue
            C_train = C if bounds is None else bounds[train]
            if bounds is not None and np.all(C_train == C_train[0]):
                C_train = float(C_train[0])
            try:
                result = self._solve(X, idx[train], y_pm[train], kernel, precomputed, C_train)
            except ValueError as err:
                raise ValueError(
                    f"probability=True: the SVM of cross-validation fold {k + 1} of "
                    f"{PROBABILITY_FOLDS} (trained on {train.size} of the pair's {m} samples) "
                    f"failed: {err}") from None
            converged &= bool(result.converged)
            coef = result.alpha * y_pm[train]
            sv = coef != 0
            train_sv, test_points = idx[train][sv], idx[test]
            if precomputed:
                K = X[np.ix_(test_points, train_sv)]
            else:
                K = np.asarray(kernel(X[test_points], X[train_sv]), dtype=np.float64)
            decision[test] = K @ coef[sv] + result.b
        return decision, converged

    # ------------------------------------------------------------ probabilities
    def _check_proba(self):
        if isinstance(self.probability, str) or not self.probability:
            raise AttributeError("predict_proba is not available when probability=False")
        return True

    @available_if(_check_proba)
    def predict_proba(self, X):
        """Class probabilities, ndarray of shape (n_samples, n_classes) (columns as ``classes_``).

        LIBSVM's ``svm_predict_probability``: each pair's decision value goes
        through its Platt sigmoid (``probA_``, ``probB_``), clipped to
        ``[1e-7, 1 - 1e-7]``; two classes take it as is, more are coupled by
        method 2 of Wu, Lin & Weng (:func:`svmlib.probability.pairwise_coupling`).
        Needs ``probability=True`` at ``fit``.  The probabilities come from a
        model fitted on cross-validated decision values, so their argmax
        may differ from :meth:`predict` (as in scikit-learn and LIBSVM).
        """
        check_is_fitted(self, "support_")
        if getattr(self, "_probA", np.empty(0)).size == 0:
            raise NotFittedError(
                "predict_proba is not available when fitted with probability=False")
        values = self._decision_ovo(X)
        n_classes = self.classes_.shape[0]
        if n_classes == 2:
            values = -values          # LIBSVM's orientation: classes_[0] positive
        pairwise = np.clip(platt_predict(values, self._probA, self._probB),
                           MIN_PROBABILITY, 1.0 - MIN_PROBABILITY)
        if n_classes == 2:
            return np.column_stack([pairwise[:, 0], 1.0 - pairwise[:, 0]])
        r = np.zeros((values.shape[0], n_classes, n_classes))
        for p, (ci, cj) in enumerate(combinations(range(n_classes), 2)):
            r[:, ci, cj] = pairwise[:, p]
            r[:, cj, ci] = 1.0 - pairwise[:, p]
        return pairwise_coupling(r)

    @available_if(_check_proba)
    def predict_log_proba(self, X):
        """``np.log(predict_proba(X))``, ndarray of shape (n_samples, n_classes)."""
        return np.log(self.predict_proba(X))

    @property
    def probA_(self):
        """Platt's ``A`` per pair of classes (empty without ``probability=True``)."""
        self._warn_prob_attribute("probA_")
        return self._probA

    @property
    def probB_(self):
        """Platt's ``B`` per pair of classes (empty without ``probability=True``)."""
        self._warn_prob_attribute("probB_")
        return self._probB

    def _warn_prob_attribute(self, name):
        check_is_fitted(self, "support_")
        if PROBABILITY_DEPRECATED:
            warnings.warn(
                f"Attribute `{name}` was deprecated in version 1.9 and will be removed in "
                f"1.11 as the `probability=True` option for SVC and NuSVC was deprecated and "
                f"will be removed in 1.11.", FutureWarning, stacklevel=3)

    #: LIBSVM's message when a single class keeps samples of positive weight
    #: (scikit-learn's tests look for it); NuSVC's solver reports that nu is
    #: infeasible instead.
    _ONE_CLASS_LEFT = "Invalid input - all samples with positive weights belong to the same class"

    def _check_weighted_classes(self, classes, y_index, active):
        """Every class needs a sample of positive weight (LIBSVM drops the others)."""
        if not active.any():
            raise ValueError(
                "Invalid input - all samples have zero or negative weights (C * class_weight * "
                "sample_weight <= 0; such samples are left out), so there is nothing to learn. "
                "Check sample_weight and class_weight.")
        empty = [classes[c] for c in range(classes.shape[0]) if not active[y_index == c].any()]
        if empty:
            lead = (self._ONE_CLASS_LEFT + ": "
                    if classes.shape[0] - len(empty) == 1 else "")
            raise ValueError(
                f"{lead}all samples of class(es) {[c.item() if hasattr(c, 'item') else c for c in empty]!r} "
                f"have weight 0 (sample_weight <= 0 or class_weight 0), so that class cannot be "
                f"learned. Give some of its samples a positive weight, or remove the class from y.")

    def _solve(self, X, idx, y_pm, kernel, precomputed, C):
        """Solve the binary dual problem on the samples ``idx`` (``C``: scalar or per sample)."""
        X_sub = X[np.ix_(idx, idx)] if precomputed else X[idx]
        hard = np.ndim(C) == 0 and np.isinf(C)
        K = None
        if precomputed:
            K = X_sub
        elif self.solver == "slsqp" or (hard and idx.shape[0] <= LP_CHECK_MAX_N
                                        and self.kernel != "linear"):
            K = np.asarray(kernel(X_sub, X_sub), dtype=np.float64)
        lp_bound = None
        if hard:
            if self.kernel == "linear":
                lp_bound = check_separable(y_pm, X=X_sub)   # sparse stays sparse (HiGHS)
                radius_sq = float(_squared_norms(X_sub).max())
            elif K is not None and idx.shape[0] <= LP_CHECK_MAX_N:
                lp_bound = check_separable(y_pm, K=K, where=" in the kernel's feature space")
                radius_sq = float(np.diagonal(K).max())
        max_iter = self._max_iter()
        try:
            if self.solver == "slsqp":
                return solve_dual_slsqp(K, y_pm, C=C, check_feasible=False,
                                        **({} if max_iter is None else {"max_iter": max_iter}))
            options = dict(C=C, tol=self.tol, max_iter=max_iter, cache_size=self.cache_size,
                           check_feasible=False, shrinking=bool(self.shrinking),
                           verbose=bool(self.verbose))
            if K is not None:
                return solve_dual_smo(K, y_pm, **options)
            return solve_dual_smo(kernel, y_pm, X=X_sub, **options)
        except NotSeparableError as err:
            if lp_bound is None:
                raise
            # The linear program found a separating hyperplane, but not one
            # with a margin of 1e-4 R or more; SMO then proved there is none.
            raise NotSeparableError(
                f"{err} (The separability test found a separating hyperplane of margin "
                f"{1 / np.sqrt(lp_bound):.3g}, {1 / np.sqrt(lp_bound * radius_sq):.3g} times "
                f"the radius: the data are separable in exact arithmetic, but not by the "
                f"margin of at least {1 / np.sqrt(HARD_MARGIN_LIMIT):g} times the radius that "
                f"svmlib's hard margin requires.)") from None

    def _set_solution(self, X, y_index, pairs, alphas, intercepts, precomputed):
        """Store the solution in LIBSVM's layout (support vectors grouped by class)."""
        n_classes = self.classes_.shape[0]
        is_sv = (alphas > 0).any(axis=0)
        support = np.concatenate([np.flatnonzero(is_sv & (y_index == c))
                                  for c in range(n_classes)])
        self.support_ = support.astype(np.int32)
        self.n_support_ = np.array([np.sum(is_sv & (y_index == c)) for c in range(n_classes)],
                                   dtype=np.int32)
        sv_class = y_index[support]
        dual_coef = np.zeros((n_classes - 1, support.shape[0]))
        for p, (ci, cj) in enumerate(pairs):
            coef = alphas[p, support]
            if n_classes == 2:
                dual_coef[0] = coef * np.where(sv_class == 1, 1.0, -1.0)
            else:
                in_i, in_j = sv_class == ci, sv_class == cj
                dual_coef[cj - 1, in_i] = coef[in_i]
                dual_coef[ci, in_j] = -coef[in_j]
        self._store_support(X, support, dual_coef, precomputed)
        self.intercept_ = intercepts
        self._sv_start = np.concatenate([[0], np.cumsum(self.n_support_)])

    # ------------------------------------------------------------ predict
    def _decision_ovo(self, X):
        """Pairwise decision values, ndarray of shape (n_samples, n_pairs)."""
        K = self._kernel_to_support(X)
        dual = self._dual()
        n_classes = self.classes_.shape[0]
        if n_classes == 2:
            return (K @ dual[0] + self.intercept_[0])[:, None]
        start = self._sv_start
        values = np.empty((K.shape[0], len(self.intercept_)))
        for p, (ci, cj) in enumerate(combinations(range(n_classes), 2)):
            si = slice(start[ci], start[ci + 1])
            sj = slice(start[cj], start[cj + 1])
            values[:, p] = (K[:, si] @ dual[cj - 1, si]
                            + K[:, sj] @ dual[ci, sj] + self.intercept_[p])
        return values

    def decision_function(self, X):
        """Signed decision values.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) for two classes (> 0 means ``classes_[1]``),
        (n_samples, n_classes) for ``decision_function_shape="ovr"``, or
        (n_samples, n_pairs) for ``"ovo"``.
        """
        values = self._decision_ovo(X)
        n_classes = self.classes_.shape[0]
        if n_classes == 2:
            return values[:, 0]
        if self.decision_function_shape == "ovr":
            return ovr_decision_from_ovo(values, n_classes)
        return values

    def votes(self, X):
        """One-vs-one votes of each class, ndarray of shape (n_samples, n_classes)."""
        values = self._decision_ovo(X)
        n_classes = self.classes_.shape[0]
        if n_classes == 2:
            values = -values  # the binary problem has classes_[1] as +1
        votes = np.zeros((values.shape[0], n_classes), dtype=np.int64)
        for p, (ci, cj) in enumerate(combinations(range(n_classes), 2)):
            votes[:, ci] += values[:, p] > 0
            votes[:, cj] += values[:, p] <= 0
        return votes

    def predict(self, X):
        """Predicted class of each sample, ndarray of shape (n_samples,).

        Two classes: the sign of the decision function, an exact 0 going to
        ``classes_[1]`` as in LIBSVM (and as :meth:`votes` counts).  More: the class with
        most one-vs-one votes (ties to the class listed first in ``classes_``),
        or with ``break_ties=True`` the argmax of the "ovr" decision function.
        """
        check_is_fitted(self, "support_")
        if self.break_ties and self.decision_function_shape == "ovo":
            raise ValueError(
                "break_ties must be False when decision_function_shape is 'ovo' (ties are "
                "broken with the one-vs-rest scores). Use decision_function_shape='ovr' or "
                "break_ties=False.")
        if self.break_ties and self.classes_.shape[0] > 2:
            scores = ovr_decision_from_ovo(self._decision_ovo(X), self.classes_.shape[0])
            return self.classes_[np.argmax(scores, axis=1)]
        if self.classes_.shape[0] == 2:
            values = self._decision_ovo(X)[:, 0]
            return self.classes_[(values >= 0).astype(int)]
        votes = self.votes(X)
        return self.classes_[np.argmax(votes, axis=1)]

    @property
    def coef_(self):
        """``w = sum_i alpha_i y_i x_i`` of each binary problem (linear kernel only).

        ndarray of shape (n_pairs, n_features), read-only (as in
        scikit-learn, a write raises ValueError); a CSR matrix after a fit
        on sparse input.
        """
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self, "support_")
        n_classes = self.classes_.shape[0]
        dual = self._dual()
        sv = self.support_vectors_
        if n_classes == 2:
            return self._linear_coef(np.asarray(dual @ sv))
        start = self._sv_start
        rows = []
        for ci, cj in combinations(range(n_classes), 2):
            si = slice(start[ci], start[ci + 1])
            sj = slice(start[cj], start[cj + 1])
            rows.append(np.asarray(dual[cj - 1, si] @ sv[si] + dual[ci, sj] @ sv[sj]).ravel())
        return self._linear_coef(np.array(rows))
