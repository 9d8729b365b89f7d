"""The ν parametrization: :class:`NuSVC` and :class:`OneClassSVM` (LIBSVM's ν-SVC, one-class SVM).

**ν-SVC** (Schölkopf, Smola, Williamson & Bartlett, 2000) replaces ``C`` by
``nu`` in ``(0, 1]`` and lets the margin ``rho`` be a variable::

    minimize    1/2 ||w||^2 - nu rho + 1/n sum_i xi_i
    subject to  y_i (<w, phi(x_i)> + b) >= rho - xi_i,   xi_i >= 0,   rho >= 0.

At the solution ``nu`` is an upper bound on the fraction of margin errors
(``xi_i > 0``) and a lower bound on the fraction of support vectors.  LIBSVM
solves its dual scaled by ``n`` (``a = n alpha``)::

    minimize    1/2 a^T Q a,   Q[s, t] = y_s y_t k(x_s, x_t),
    subject to  y^T a = 0,   e^T a = nu n,   0 <= a_s <= 1,

with two equality constraints, so SMO picks its pair within one class
(:func:`svmlib.smo.solve_dual_smo` with its ν switch), starting from
``a_s = 1`` for the first ``nu n / 2`` points of each class.  The solver
returns ``b`` and ``r = rho``; dividing ``a`` and ``b`` by ``r`` gives the
decision function ``sum_s (a_s / r) y_s k(x_s, x) + b / r`` of the C-SVC with
``C = 1 / r``, which is what LIBSVM (and scikit-learn's ``dual_coef_``)
store.  Below some ``nu_min`` (classes whose reduced convex hulls overlap)
the optimal ``w`` is 0 and so is ``rho``; LIBSVM then divides by a ``rho`` at
the level of its tolerance; :class:`NuSVC` raises an error when ``rho <= 0``
and warns when ``rho <= tol``.  The problem is infeasible when
``nu (n_+ + n_-) / 2 > min(n_+, n_-)``: the smaller class cannot carry half
of ``e^T a``.

**One-class SVM** (Schölkopf, Platt, Shawe-Taylor, Smola & Williamson, 2001)
separates the data from the origin in feature space with maximal margin::

    minimize    1/2 ||w||^2 + 1/(nu n) sum_i xi_i - rho
    subject to  <w, phi(x_i)> >= rho - xi_i,   xi_i >= 0.

LIBSVM scales its dual by ``nu n``::

    minimize    1/2 a^T K a   subject to   e^T a = nu n,   0 <= a_s <= 1,

the C-SVC dual with ``y = +1``, linear term 0 and a start with ``e^T a =
nu n`` (``a_s = 1`` for the first ``floor(nu n)`` points, the rest of ``nu n``
on the next one).  The decision function is ``sum_s a_s k(x_s, x) - rho``;
``nu`` bounds the fraction of outliers (``< 0`` on the training set) from
above and the fraction of support vectors from below.  When the origin lies
inside the data in feature space (a linear kernel on centred data) ``w = 0``
and ``rho = 0``: :class:`OneClassSVM` then warns (``rho <= tol``).
"""

import dataclasses
import warnings
from itertools import combinations

import numpy as np
from sklearn.base import OutlierMixin
from sklearn.utils.validation import check_is_fitted

from ._kernel_svm import KernelSVMBase, check_bool, one_convergence_warning
from ._validation import check_nu, check_option
from .dual import SolverResult
from .smo import solve_dual_smo
from .svc import _PROBABILITY_DEFAULT, SVC

__all__ = ["NuSVC", "OneClassSVM", "nu_start"]


def nu_start(bounds, total):
    """LIBSVM's feasible start: fill the multipliers in order up to their bounds.

    ``a_s = min(bounds_s, what is left of total)``, so the first points are
    at their bound, one point holds the remainder and the others are 0.

    Parameters
    ----------
    bounds : ndarray of shape (n,)
        Upper bounds of the multipliers.
    total : float
        The sum ``e^T a`` to reach, ``<= bounds.sum()``.

    Returns
    -------
    ndarray of shape (n,)
    """
    alpha = np.zeros(bounds.shape[0])
    left = float(total)
    for s in range(bounds.shape[0]):
        if left <= 0:
            break
        alpha[s] = min(float(bounds[s]), left)
        left -= alpha[s]
    return alpha


def _solve_kernel_dual(estimator, X_sub, kernel, precomputed, y, **options):
    """Call SMO with the Gram matrix (precomputed kernel) or the kernel function."""
    common = dict(tol=estimator.tol, max_iter=estimator._max_iter(),
                  cache_size=estimator.cache_size, check_feasible=False,
                  shrinking=bool(estimator.shrinking), verbose=bool(estimator.verbose))
    if precomputed:
        return solve_dual_smo(X_sub, y, **common, **options)
    return solve_dual_smo(kernel, y, X=X_sub, **common, **options)


class NuSVC(SVC):
    """ν-support vector classifier (LIBSVM's ν-SVC, ``sklearn.svm.NuSVC``).

    ``nu`` replaces ``C``: it is an upper bound on the fraction of margin
    errors and a lower bound on the fraction of support vectors (see the
    docstring of the module ``svmlib.nu_svm``).  Everything else (kernels,
    one-vs-one for three or more classes, the attributes,
    ``decision_function`` and ``predict``) is as in :class:`svmlib.SVC`; the multipliers are LIBSVM's, divided by the margin
    ``rho``, so ``dual_coef_`` and ``intercept_`` compare one to one with
    scikit-learn's.  The fitted attributes not listed below (``classes_``,
    ``support_``, ``support_vectors_``, ``n_support_``, ``n_iter_``,
    ``fit_status_``, ``shape_fit_``, ``n_features_in_``, and
    ``class_weight_``, all ones) are those of :class:`svmlib.SVC`.

    ``probability=True`` fits LIBSVM's probability model as
    :class:`svmlib.SVC` does (each cross-validation fold solves the ν-dual
    of its training part).  Not supported: ``class_weight`` (which
    scikit-learn's NuSVC accepts and ignores); ``sample_weight`` in ``fit``
    bounds each multiplier by the sample's weight, as in scikit-learn.

    Parameters
    ----------
    nu : float, default=0.5
        In ``(0, 1]``.  Each pair of classes with ``n_+`` and ``n_-`` samples
        needs ``nu <= 2 min(n_+, n_-) / (n_+ + n_-)``; too small a ``nu`` for
        classes that overlap gives ``w = 0`` and a margin ``rho`` of 0:
        ``fit`` raises a ValueError when ``rho <= 0`` and warns when ``rho <=
        tol`` (see the docstring of the module ``svmlib.nu_svm``).
    kernel, degree, gamma, coef0 : as in :class:`svmlib.SVC`
    shrinking : bool, default=True
    tol : float, default=1e-3
        Stopping tolerance of SMO (on the ν-dual, before the scaling by ``rho``).
    cache_size : float, default=200
    verbose : bool or int, default=False
    max_iter : int, default=-1
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
    break_ties : bool, default=False
    random_state : int, RandomState instance or None, default=None
        Shuffles the folds of ``probability=True``; otherwise unused.
    probability : bool or "deprecated", default="deprecated"
        As in :class:`svmlib.SVC` (scikit-learn 1.9's FutureWarning when passed).

    Attributes
    ----------
    dual_coef_ : ndarray or CSR matrix of shape (n_classes - 1, n_SV)
        ``a_s y_s / rho`` of each support vector, in LIBSVM's one-vs-one
        layout (as :class:`svmlib.SVC`).
    intercept_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        ``b / rho`` of each binary problem.
    alpha_ : ndarray of shape (n_samples,) or (n_pairs, n_samples)
        ``a_s / rho`` of every training point.
    solver_result_ : SolverResult or list of SolverResult
        The solver's record for each binary problem, with ``alpha`` and ``b``
        divided by ``rho``; ``info["r"]`` is ``rho`` and ``info["nu_alpha"]``,
        ``info["nu_b"]`` the unscaled solution of the ν-dual.
    """

    #: Not a parameter: NuSVC has no class weights (SVC's fit reads this).
    class_weight = None
    #: LIBSVM's message when a single class keeps samples of positive weight.
    _ONE_CLASS_LEFT = "specified nu is infeasible"

    def __init__(self, nu=0.5, kernel="rbf", degree=3, gamma="scale", coef0=0.0,
                 shrinking=True, tol=1e-3, cache_size=200, verbose=False, max_iter=-1,
                 decision_function_shape="ovr", break_ties=False, random_state=None,
                 probability=_PROBABILITY_DEFAULT):
        self.nu = nu
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.tol = tol
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state
        self.probability = probability

    def _check_params(self):
        self._nu = check_nu(self.nu)
        self._C = 1.0  # the bound of the ν-dual's multipliers
        self._check_kernel_params()
        check_option(self.decision_function_shape, "decision_function_shape", ("ovr", "ovo"))
        check_bool(self.break_ties, "break_ties")
        self._check_probability_params()

    def _check_feasible(self, y, sample_weight):
        """Raise if ``nu`` is infeasible for a pair of classes (LIBSVM's test).

        The size of a class is its number of samples, or the sum of its
        positive sample weights (as in scikit-learn).
        """
        classes, y_index = np.unique(y, return_inverse=True)
        if sample_weight is None:
            sizes = np.bincount(y_index, minlength=classes.shape[0]).astype(np.float64)
        else:
            sizes = np.bincount(y_index, weights=np.where(sample_weight > 0, sample_weight, 0.0),
                                minlength=classes.shape[0])
        def size(v):
            return f"{v:g} samples" if sample_weight is None else f"total weight {v:g}"

        for i, j in combinations(range(classes.shape[0]), 2):
            n_i, n_j = float(sizes[i]), float(sizes[j])
            if min(n_i, n_j) <= 0:
                continue  # SVC's fit explains a class without weight
            if self._nu * (n_i + n_j) / 2 > min(n_i, n_j):
                largest = 2 * min(n_i, n_j) / (n_i + n_j)
                label = (lambda c: c.item() if hasattr(c, "item") else c)
                raise ValueError(
                    f"specified nu is infeasible: nu={self.nu!r} is too large for the classes "
                    f"{label(classes[i])!r} ({size(n_i)}) and {label(classes[j])!r} "
                    f"({size(n_j)}). nu-SVC needs nu * (n_1 + n_2) / 2 <= min(n_1, n_2): "
                    f"the smaller class must hold half of the multipliers' sum. Use "
                    f"nu <= {largest:.4g}, or balance the classes.")

    def fit(self, X, y, sample_weight=None):
        """Fit the classifier.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Or the Gram matrix of shape (n_samples, n_samples) if
            ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels (two or more distinct values).
        sample_weight : array-like of shape (n_samples,), default=None
            Sample ``i``'s multiplier is bounded by ``sample_weight[i]`` and
            each pair's multipliers sum to ``nu`` times the pair's total weight
            (as in scikit-learn); samples with a weight ``<= 0`` are left out.

        Returns
        -------
        self : NuSVC
        """
        self._check_params()
        X, y = self._check_X_y(X, y)
        sample_weight = self._check_sample_weight(sample_weight, X.shape[0])
        if X.shape[0] >= 2:
            self._check_feasible(y, sample_weight)
        return super().fit(X, y, sample_weight=sample_weight)

    def _solve(self, X, idx, y_pm, kernel, precomputed, C):
        """Solve the ν-dual of one pair of classes and scale it by ``1 / rho``."""
        m = idx.shape[0]
        bounds = np.full(m, float(C)) if np.ndim(C) == 0 else np.asarray(C, dtype=np.float64)
        half = self._nu * bounds.sum() / 2
        alpha0 = np.zeros(m)
        for sign in (1.0, -1.0):
            members = np.flatnonzero(y_pm == sign)
            alpha0[members] = nu_start(bounds[members], half)
        X_sub = X[np.ix_(idx, idx)] if precomputed else X[idx]
        result = _solve_kernel_dual(self, X_sub, kernel, precomputed, y_pm, C=C,
                                    p=np.zeros(m), alpha0=alpha0, nu_solver=True)
        r = float(result.info["r"])
        where = "" if self.classes_.shape[0] == 2 else " (for one of the one-vs-one pairs)"
        advice = ("Usually nu is too small for classes that overlap in feature space: below "
                  "some nu_min the optimal w is 0 and so is rho. Use a larger nu (nu bounds the "
                  "fraction of margin errors you accept), a more flexible kernel, or svmlib.SVC.")
        if not (np.isfinite(r) and r > 0):
            raise ValueError(
                f"nu={self.nu!r} gives a nu-SVC solution{where} with margin rho = {r:.3g} <= 0: "
                f"w = 0, so there is no decision function (it is divided by rho). {advice} "
                f"(LIBSVM does not check this and divides by rho anyway.)")
        if r <= self.tol:
            # The decision function is divided by rho, which SMO only knows up
            # to about tol.
            warnings.warn(
                f"nu={self.nu!r} gives a nu-SVC solution{where} with margin rho = {r:.3g}, not "
                f"above the solver's tolerance tol={self.tol:g}: the decision values (divided "
                f"by rho) may be mostly numerical noise. {advice} A smaller tol gives rho more "
                f"digits.", UserWarning, stacklevel=4)
        info = dict(result.info, nu_alpha=result.alpha, nu_b=result.b)
        return dataclasses.replace(result, alpha=result.alpha / r, b=result.b / r, info=info)


class OneClassSVM(OutlierMixin, KernelSVMBase):
    """Unsupervised outlier detection: LIBSVM's one-class SVM (``sklearn.svm.OneClassSVM``).

    Separates the training data from the origin in feature space with a
    maximal margin (see the docstring of the module ``svmlib.nu_svm``);
    ``decision_function(x) >= 0`` marks ``x`` as an inlier.

    Parameters
    ----------
    kernel, degree, gamma, coef0 : as in :class:`svmlib.SVC`
    tol : float, default=1e-3
        Stopping tolerance of SMO.
    nu : float, default=0.5
        In ``(0, 1]``: an upper bound on the fraction of training points
        outside the estimated support (outliers) and a lower bound on the
        fraction of support vectors.
    shrinking : bool, default=True
    cache_size : float, default=200
    verbose : bool or int, default=False
    max_iter : int, default=-1

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors (``a_s > 0``), in increasing order.
    support_vectors_ : ndarray or CSR matrix of shape (n_SV, n_features)
        (Empty (n_SV, 0) for a precomputed kernel.)
    n_support_ : ndarray of shape (1,)
    dual_coef_ : ndarray or CSR matrix of shape (1, n_SV)
        The multipliers ``a_s`` of LIBSVM's scaled dual (sum ``nu n``, or
        ``nu * sum(sample_weight)``).
    intercept_ : ndarray of shape (1,)
        ``-rho``.
    offset_ : ndarray of shape (1,)
        ``rho``: ``decision_function = score_samples - offset_``.
    alpha_ : ndarray of shape (n_samples,)
        The multipliers of every training sample.
    solver_result_ : SolverResult
    n_iter_ : int
    fit_status_ : int
        0 if the solver met its tolerance, 1 otherwise.
    shape_fit_ : tuple
    n_features_in_ : int
    """

    def __init__(self, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3, nu=0.5,
                 shrinking=True, cache_size=200, verbose=False, max_iter=-1):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.nu = nu
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    @one_convergence_warning
    def fit(self, X, y=None, sample_weight=None):
        """Estimate the support of the distribution of ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Or the Gram matrix of shape (n_samples, n_samples) if
            ``kernel="precomputed"``.
        y : ignored
            Accepted for compatibility (pipelines).
        sample_weight : array-like of shape (n_samples,), default=None
            Sample ``i``'s multiplier is bounded by ``sample_weight[i]`` and the
            multipliers sum to ``nu * sum(sample_weight)`` (as in scikit-learn);
            samples with a weight ``<= 0`` are left out.

        Returns
        -------
        self : OneClassSVM
        """
        self._nu = check_nu(self.nu)
        self._check_kernel_params()
        precomputed = self.kernel == "precomputed"
        X = self._check_X(X, precomputed=precomputed)
        n = X.shape[0]
        sample_weight = self._check_sample_weight(sample_weight, n)
        kernel = self._fit_kernel(X)
        if sample_weight is None:
            idx = np.arange(n)
            bounds = np.ones(n)
        else:
            idx = np.flatnonzero(sample_weight > 0)
            if idx.size == 0:
                raise ValueError(
                    "Invalid input - all samples have zero or negative weights (such samples "
                    "are left out), so there is no data to describe. Check sample_weight.")
            bounds = sample_weight[idx]
        C = float(bounds[0]) if np.all(bounds == bounds[0]) else bounds
        alpha0 = nu_start(bounds, self._nu * bounds.sum())
        X_sub = X[np.ix_(idx, idx)] if precomputed else X[idx]
        if idx.shape[0] == 1:
            result = self._one_point(X_sub, kernel, precomputed, alpha0)
        else:
            result = _solve_kernel_dual(self, X_sub, kernel, precomputed,
                                        np.ones(idx.shape[0]), C=C, p=np.zeros(idx.shape[0]),
                                        alpha0=alpha0)
        if -result.b <= self.tol:
            warnings.warn(
                f"the one-class SVM's offset rho = {-result.b:.3g} is not above the solver's "
                f"tolerance tol={self.tol:g}: the origin lies (nearly) inside the data in "
                f"feature space, as for a linear kernel on centred data, so the data cannot "
                f"be separated from it and the verdicts (signs of values near 0) are noise. "
                f"Use the RBF kernel (it keeps every point away from the origin) or shift "
                f"the data away from the origin.", UserWarning, stacklevel=2)
        alpha = np.zeros(n)
        alpha[idx] = result.alpha
        support = np.flatnonzero(alpha > 0)
        self.alpha_ = alpha
        self.support_ = support.astype(np.int32)
        self.n_support_ = np.array([support.shape[0]], dtype=np.int32)
        self._store_support(X, support, alpha[support][None, :], precomputed)
        self.intercept_ = np.array([result.b])
        self.offset_ = -self.intercept_
        self.solver_result_ = result
        self.n_iter_ = int(result.n_iter)
        self.fit_status_ = 0 if result.converged else 1
        self.shape_fit_ = X.shape
        if X.ndim == 2:                      # (not for the rows of a kernel function)
            self.n_features_in_ = X.shape[1]
        elif hasattr(self, "n_features_in_"):
            del self.n_features_in_
        return self

    @staticmethod
    def _one_point(X_sub, kernel, precomputed, alpha0):
        """The dual of a single point: its feasible set is the point ``a = nu w_1``.

        ``rho`` is then its score ``K_11 a`` (LIBSVM's rule, whether ``a`` is free
        or at its bound).
        """
        k11 = float(X_sub[0, 0]) if precomputed else float(kernel(X_sub, X_sub)[0, 0])
        a = float(alpha0[0])
        return SolverResult(alpha=alpha0.copy(), b=-k11 * a, n_iter=0,
                            objective=-0.5 * k11 * a * a, kkt_violation=0.0, time=0.0,
                            converged=True, solver="closed form (one point)")

    def decision_function(self, X):
        """Signed distance to the separating hyperplane: ``sum_s a_s k(x_s, x) - rho``.

        Positive (or zero) for inliers, negative for outliers.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        K = self._kernel_to_support(X)
        return K @ self._dual()[0] + self.intercept_[0]

    @property
    def coef_(self):
        """``w = sum_s a_s x_s`` (linear kernel only), shape (1, n_features).

        Read-only, as in scikit-learn; a CSR matrix after a fit on sparse input.
        """
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self, "support_")
        return self._linear_coef(np.asarray(self._dual() @ self.support_vectors_))

    def score_samples(self, X):
        """The unshifted score ``sum_s a_s k(x_s, x)`` (``decision_function + offset_``).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self.decision_function(X) + self.offset_[0]

    def predict(self, X):
        """+1 for inliers (``decision_function >= 0``), -1 for outliers.

        Returns
        -------
        ndarray of shape (n_samples,), int64
        """
        check_is_fitted(self, "support_")
        return np.where(self.decision_function(X) >= 0, 1, -1).astype(np.int64)
