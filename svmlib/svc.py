"""Support vector classification: the estimator :class:`SVC`.

:class:`SVC` solves the same problem as LIBSVM's C-SVC (``sklearn.svm.SVC``)
with the same parameters, and stores its solution in the same layout, so the
two can be compared attribute by attribute:

* two classes: one dual problem (Book: (eq-soft-dual)); the class
  ``classes_[1]`` plays ``y = +1``, so ``decision_function(X) > 0`` predicts
  ``classes_[1]``;
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
import scipy.sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted

from . import kernels as _kernels
from ._validation import check_array, check_int, check_option, check_positive, check_X_y
from .qp import LP_CHECK_MAX_N, check_separable, solve_dual_slsqp
from .smo import solve_dual_smo

__all__ = ["SVC", "ovr_decision_from_ovo"]

KERNEL_NAMES = ("linear", "poly", "rbf", "precomputed")


def ovr_decision_from_ovo(decision_ovo, n_classes):
    """Turn one-vs-one decision values into one score per class.

    Each pair ``(i, j)`` gives a vote to ``i`` (value > 0) or ``j``; the score
    of a class is its number of votes plus its summed confidences squashed
    into ``(-1/3, 1/3)``, so votes decide and confidences only break ties.
    This is the rule scikit-learn uses for ``decision_function_shape="ovr"``.

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
        votes[:, i] += value > 0
        votes[:, j] += value <= 0
        confidence[:, i] += value
        confidence[:, j] -= value
    return votes + confidence / (3.0 * (np.abs(confidence) + 1.0))


class SVC(ClassifierMixin, BaseEstimator):
    """C-support vector classifier (soft margin, any kernel; ``C=np.inf`` is the hard margin).

    Parameters
    ----------
    C : float, default=1.0
        Penalty of the slack (Book: (eq-soft-primal)); ``> 0`` or ``np.inf``
        for the hard margin (Book: (eq-hmd-primal)).
    kernel : {"linear", "poly", "rbf", "precomputed"} or callable, default="rbf"
        A callable ``k(X, Z)`` must return an ndarray of shape (n_X, n_Z).
        With ``"precomputed"``, ``fit`` takes the Gram matrix of shape
        (n_samples, n_samples) and ``predict`` the matrix of shape
        (n_test, n_train) of kernel values against the training points.
    degree : int, default=3
        Degree of the polynomial kernel.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient of "rbf" and "poly": ``"scale"`` is
        ``1 / (n_features * X.var())``, ``"auto"`` is ``1 / n_features``.
    coef0 : float, default=0.0
        Constant of the polynomial kernel.
    tol : float, default=1e-3
        Stopping tolerance on the maximal KKT violation (as LIBSVM's ``eps``).
    solver : {"smo", "slsqp"}, default="smo"
        Which dual solver to use; "slsqp" builds the n x n matrix and suits a
        few hundred points.
    max_iter : int, default=-1
        Iteration limit of the solver, ``-1`` for the solver's default.
    cache_size : float, default=200
        Kernel cache of SMO in megabytes.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        Shape of ``decision_function`` for three or more classes.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors in the training set, grouped by class.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        (Empty (n_SV, 0) for a precomputed kernel.)
    n_support_ : ndarray of shape (n_classes,)
        Number of support vectors of each class.
    dual_coef_ : ndarray of shape (n_classes - 1, n_SV)
        ``alpha_i y_i`` of each support vector, in LIBSVM's one-vs-one layout.
    intercept_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        The bias ``b`` of each binary problem.
    alpha_ : ndarray of shape (n_samples,) or (n_pairs, n_samples)
        The multipliers of every training point (0 outside a pair's classes).
    solver_result_ : SolverResult or list of SolverResult
        The solver's record for each binary problem.
    n_iter_ : ndarray of shape (n_pairs,)
    fit_status_ : int
        0 if every solver met its tolerance, 1 otherwise.
    shape_fit_ : tuple
    n_features_in_ : int
    """

    def __init__(self, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3,
                 solver="smo", max_iter=-1, cache_size=200, decision_function_shape="ovr"):
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

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags

    # ------------------------------------------------------------ checks
    def _check_params(self):
        self._C = check_positive(self.C, "C", allow_inf=True,
                                 hint="Use a positive C such as C=1.0 (C=np.inf for a hard margin).")
        if not callable(self.kernel):
            if not isinstance(self.kernel, str) or self.kernel not in KERNEL_NAMES:
                raise ValueError(
                    f"kernel must be one of {', '.join(repr(k) for k in KERNEL_NAMES)} or a "
                    f"callable k(X, Z); got kernel={self.kernel!r}. Pick a listed name or pass "
                    f"a function.")
        check_int(self.degree, "degree", minimum=1 if self.kernel == "poly" else 0)
        check_positive(self.tol, "tol", hint="Use a small positive tolerance such as tol=1e-3.")
        check_option(self.solver, "solver", ("smo", "slsqp"))
        check_int(self.max_iter, "max_iter", minimum=-1,
                  hint="Use max_iter=-1 for no explicit limit.")
        check_positive(self.cache_size, "cache_size", hint="Use cache_size=200 (megabytes).")
        check_option(self.decision_function_shape, "decision_function_shape", ("ovr", "ovo"))
        if not isinstance(self.coef0, Real) or isinstance(self.coef0, bool) \
                or not np.isfinite(self.coef0):
            raise ValueError(f"coef0 must be a finite number; got coef0={self.coef0!r}. "
                             f"Use coef0=0.0.")

    @staticmethod
    def _check_X(X):
        """Validate X (dense, real, 2-D, finite), with messages that say what to do."""
        if scipy.sparse.issparse(X):
            raise TypeError(
                "X is a sparse matrix, but svmlib.SVC supports only dense input; got "
                f"{type(X).__name__}. Convert it with X.toarray() (or use sklearn.svm.SVC).")
        if not isinstance(X, np.ndarray):
            try:
                X = np.asarray(X)
            except (TypeError, ValueError):
                pass  # check_array below explains what is wrong
        if np.iscomplexobj(X):
            raise ValueError("Complex data not supported: X must be real; got complex "
                             "numbers. Pass X.real if the imaginary parts are zero.")
        if isinstance(X, np.ndarray) and X.dtype == object:
            try:
                X = X.astype(np.float64)
            except (TypeError, ValueError) as exc:
                raise TypeError(f"X must contain only numbers; got an object array that "
                                f"cannot be converted ({exc}). Encode the features as "
                                f"numbers first.") from None
        shape = np.shape(X)
        if len(shape) == 1:
            raise ValueError(
                f"X must be a 2-D array; got a 1-D array of shape {shape}. Reshape your "
                f"data with X.reshape(-1, 1) if it has a single feature or X.reshape(1, -1) "
                f"if it is a single sample.")
        if len(shape) == 2 and shape[1] == 0:
            raise ValueError(
                f"X has 0 feature(s) (shape={shape}) while a minimum of 1 is required. "
                f"Pass data with at least one column.")
        return check_array(X, "X")

    def _check_X_y(self, X, y):
        if y is None:
            raise ValueError(
                "SVC requires y to be passed, but the target y is None. Call fit(X, y) "
                "with the class labels.")
        X = self._check_X(X)
        if not isinstance(y, np.ndarray):
            y = np.asarray(y)
        if np.ndim(y) == 2 and np.shape(y)[1] == 1:
            warnings.warn(
                "A column-vector y was passed when a 1d array was expected. Please change "
                "the shape of y to (n_samples,), for example using ravel().",
                DataConversionWarning, stacklevel=3)
            y = np.ravel(y)
        X, y = check_X_y(X, y)
        target = type_of_target(y)
        if target in ("continuous", "continuous-multioutput"):
            raise ValueError(
                f"Unknown label type: {target}. y holds real numbers, but SVC needs class "
                f"labels; for regression use sklearn.svm.SVR, or bin the values.")
        return X, y

    def _kernel_function(self, X):
        """The kernel as a callable ``k(A, B)``.

        During ``fit`` (``X`` given) ``gamma`` is resolved on the training data
        and stored in ``_gamma``; afterwards (``X=None``) the stored value is used.
        """
        if X is not None:
            self._gamma = None
        if callable(self.kernel):
            return _kernels.get_kernel(self.kernel)
        if self.kernel == "linear":
            return _kernels.get_kernel("linear")
        if X is not None:
            self._gamma = _kernels.resolve_gamma(self.gamma, X)
        if self.kernel == "rbf":
            return _kernels.get_kernel("rbf", gamma=self._gamma)
        return _kernels.get_kernel("poly", gamma=self._gamma, degree=self.degree,
                                   coef0=float(self.coef0))

    # ------------------------------------------------------------ fit
    def fit(self, X, y):
        """Fit the classifier.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Or the Gram matrix of shape (n_samples, n_samples) if
            ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels (any two or more distinct values).

        Returns
        -------
        self : SVC
        """
        self._check_params()
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
        precomputed = self.kernel == "precomputed"
        if precomputed:
            if X.shape[0] != X.shape[1]:
                raise ValueError(
                    f"with kernel='precomputed', X must be the square Gram matrix of the "
                    f"training points; got shape {X.shape}. Pass K = k(X_train, X_train).")
            if X.shape[0] <= 2000 and not _kernels.is_psd(X, tol=1e-8):
                raise ValueError(
                    "with kernel='precomputed', X must be a symmetric positive semidefinite "
                    "Gram matrix; got a matrix that is not (the dual problem would not be "
                    "convex). Check the kernel, or add a small multiple of the identity.")
            kernel = None
            self._gamma = None
        else:
            kernel = self._kernel_function(X)

        self.classes_ = classes
        self.n_features_in_ = X.shape[1]
        self.shape_fit_ = X.shape
        n_classes = classes.shape[0]
        pairs = list(combinations(range(n_classes), 2))
        n = X.shape[0]
        alphas = np.zeros((len(pairs), n))
        intercepts = np.zeros(len(pairs))
        results = []
        for p, (ci, cj) in enumerate(pairs):
            idx = np.flatnonzero((y_index == ci) | (y_index == cj))
            if n_classes == 2:
                y_pm = np.where(y_index[idx] == 1, 1.0, -1.0)  # classes_[1] is +1
            else:
                y_pm = np.where(y_index[idx] == ci, 1.0, -1.0)  # LIBSVM: first class is +1
            result = self._solve(X, idx, y_pm, kernel, precomputed)
            alphas[p, idx] = result.alpha
            intercepts[p] = result.b
            results.append(result)
        self._set_solution(X, y_index, pairs, alphas, intercepts, precomputed)
        self.alpha_ = alphas[0] if n_classes == 2 else alphas
        self.solver_result_ = results[0] if n_classes == 2 else results
        self.n_iter_ = np.array([r.n_iter for r in results], dtype=np.int64)
        self.fit_status_ = 0 if all(r.converged for r in results) else 1
        return self

    def _solve(self, X, idx, y_pm, kernel, precomputed):
        """Solve the binary dual problem on the samples ``idx``."""
        C = self._C
        X_sub = X[np.ix_(idx, idx)] if precomputed else X[idx]
        K = None
        if precomputed:
            K = X_sub
        elif self.solver == "slsqp" or (np.isinf(C) and idx.shape[0] <= LP_CHECK_MAX_N
                                        and self.kernel != "linear"):
            K = np.asarray(kernel(X_sub, X_sub), dtype=np.float64)
        if np.isinf(C):
            if self.kernel == "linear":
                check_separable(y_pm, X=X_sub)
            elif K is not None and idx.shape[0] <= LP_CHECK_MAX_N:
                check_separable(y_pm, K=K, where=" in the kernel's feature space")
        max_iter = None if self.max_iter == -1 else self.max_iter
        if self.solver == "slsqp":
            return solve_dual_slsqp(K, y_pm, C=C, check_feasible=False,
                                    **({} if max_iter is None else {"max_iter": max_iter}))
        if K is not None:
            return solve_dual_smo(K, y_pm, C=C, tol=self.tol, max_iter=max_iter,
                                  cache_size=self.cache_size, check_feasible=False)
        return solve_dual_smo(kernel, y_pm, C=C, tol=self.tol, X=X_sub, max_iter=max_iter,
                              cache_size=self.cache_size, check_feasible=False)

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
        self.dual_coef_ = dual_coef
        self.intercept_ = intercepts
        self.support_vectors_ = (np.empty((support.shape[0], 0)) if precomputed
                                 else X[support].copy())
        self._sv_start = np.concatenate([[0], np.cumsum(self.n_support_)])

    # ------------------------------------------------------------ predict
    def _kernel_to_support(self, X):
        check_is_fitted(self, "support_")
        X = self._check_X(X)
        if self.kernel == "precomputed":
            n_train = self.shape_fit_[0]
            if X.shape[1] != n_train:
                raise ValueError(
                    f"with kernel='precomputed', X must hold the kernel values against the "
                    f"{n_train} training points; got shape {X.shape}. Pass "
                    f"k(X_test, X_train) of shape (n_test, {n_train}).")
            return X[:, self.support_]
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but SVC is expecting {self.n_features_in_} "
                f"features as input (as in fit). Pass data with the same columns as in fit.")
        if self.support_vectors_.shape[0] == 0:
            return np.zeros((X.shape[0], 0))
        kernel = self._kernel_function(None)
        return np.asarray(kernel(X, self.support_vectors_), dtype=np.float64)

    def _decision_ovo(self, X):
        """Pairwise decision values, ndarray of shape (n_samples, n_pairs)."""
        K = self._kernel_to_support(X)
        n_classes = self.classes_.shape[0]
        if n_classes == 2:
            return (K @ self.dual_coef_[0] + self.intercept_[0])[:, None]
        start = self._sv_start
        values = np.empty((K.shape[0], len(self.intercept_)))
        for p, (ci, cj) in enumerate(combinations(range(n_classes), 2)):
            si = slice(start[ci], start[ci + 1])
            sj = slice(start[cj], start[cj + 1])
            values[:, p] = (K[:, si] @ self.dual_coef_[cj - 1, si]
                            + K[:, sj] @ self.dual_coef_[ci, sj] + self.intercept_[p])
        return values

    def decision_function(self, X):
        """Signed decision values.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

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

        Two classes: the sign of the decision function.  More: the class with
        most one-vs-one votes (ties to the class listed first in ``classes_``).
        """
        check_is_fitted(self, "support_")
        if self.classes_.shape[0] == 2:
            values = self._decision_ovo(X)[:, 0]
            return self.classes_[(values > 0).astype(int)]
        votes = self.votes(X)
        return self.classes_[np.argmax(votes, axis=1)]

    @property
    def coef_(self):
        """``w = sum_i alpha_i y_i x_i`` of each binary problem (linear kernel only).

        ndarray of shape (n_pairs, n_features).
        """
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self, "support_")
        n_classes = self.classes_.shape[0]
        if n_classes == 2:
            return self.dual_coef_ @ self.support_vectors_
        start = self._sv_start
        sv = self.support_vectors_
        rows = []
        for ci, cj in combinations(range(n_classes), 2):
            si = slice(start[ci], start[ci + 1])
            sj = slice(start[cj], start[cj + 1])
            rows.append(self.dual_coef_[cj - 1, si] @ sv[si] + self.dual_coef_[ci, sj] @ sv[sj])
        return np.array(rows)
