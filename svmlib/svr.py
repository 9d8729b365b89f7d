"""Support vector regression: the estimator :class:`SVR` (LIBSVM's ε-SVR).

The primal problem, for targets ``z_i`` and ``f(x) = <w, phi(x)> + b``::

    minimize    1/2 ||w||^2 + C sum_i (xi_i + xi*_i)
    subject to  z_i - f(x_i) <= epsilon + xi_i,
                f(x_i) - z_i <= epsilon + xi*_i,     xi_i, xi*_i >= 0,

that is ``1/2 ||w||^2 + C sum_i max(0, |z_i - f(x_i)| - epsilon)``: errors
inside the tube of half-width ``epsilon`` cost nothing.  Its dual has a pair
of multipliers ``(alpha_i, alpha*_i)`` per sample; LIBSVM writes it as one
problem in ``2 n`` variables ``a = (alpha, alpha*)`` with labels
``y = (+1, ..., +1, -1, ..., -1)``::

    minimize    1/2 a^T Q a + p^T a,   Q[s, t] = y_s y_t k(x_(s mod n), x_(t mod n)),
    subject to  y^T a = 0,   0 <= a_s <= C,
    with        p = (epsilon - z, epsilon + z),

which is the C-SVC dual with another linear term (``-1`` there), so the same
SMO solves it (:func:`svmlib.smo.solve_dual_smo` with ``p``).  The regression
function is ``f(x) = sum_i (alpha_i - alpha*_i) k(x_i, x) + b``; the support
vectors are the samples with ``alpha_i != alpha*_i``, on or outside the tube.

**ν-SVR** (:class:`NuSVR`; Schölkopf, Smola, Williamson & Bartlett, 2000)
makes the tube's width a variable and prices it with ``nu``::

    minimize    1/2 ||w||^2 + C (nu epsilon + 1/n sum_i (xi_i + xi*_i))
    subject to  the same tube constraints,   epsilon >= 0.

At the solution ``nu`` is an upper bound on the fraction of errors (points
outside the tube) and a lower bound on the fraction of support vectors.
LIBSVM (``solve_nu_svr``) solves its dual scaled by ``n``, in the same ``2 n``
variables and labels as ε-SVR::

    minimize    1/2 a^T Q a + p^T a,   p = (-z, z),
    subject to  sum_i (alpha_i - alpha*_i) = 0,   sum_i (alpha_i + alpha*_i) = C nu n,
                0 <= a_s <= C,

two equality constraints, one per label: the sums of ``alpha`` and of
``alpha*`` are both ``C nu n / 2``.  That is LIBSVM's ``Solver_NU``, the pair
chosen within one label (:func:`svmlib.smo.solve_dual_smo` with its ν switch),
from LIBSVM's start ``alpha_i = alpha*_i = min(C, what is left of C nu n /
2)``, in order.  Its two multipliers give the bias ``b = -rho`` and the
tube's half-width ``epsilon = -r`` (``NuSVR.epsilon_``).
"""

import numpy as np
import scipy.sparse
from sklearn.base import RegressorMixin
from sklearn.utils.validation import check_is_fitted

from ._kernel_svm import KernelSVMBase, one_convergence_warning
from ._validation import (check_estimator_X_y_regression, check_nonnegative, check_nu,
                          check_positive)
from .smo import solve_dual_smo

__all__ = ["SVR", "NuSVR"]


class _KernelRegressor(RegressorMixin, KernelSVMBase):
    """What SVR and NuSVR share: the ``2 n``-variable dual, its solution, ``predict``.

    A subclass defines ``_dual_terms(z, bounds)`` (the linear term, the start
    and whether the solver is ``Solver_NU``) and stores what is its own in
    :meth:`_store_extra`.
    """

    def _store_extra(self, result):
        """Attributes of one estimator only (none for SVR)."""

    @one_convergence_warning
    def fit(self, X, y, sample_weight=None):
        """Fit the regression function.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Or the Gram matrix of shape (n_samples, n_samples) if
            ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Target values.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample ``i`` gets the penalty ``C * sample_weight[i]`` (both of its
            multipliers have that bound, as in LIBSVM); samples with a weight
            ``<= 0`` are left out, as in scikit-learn.

        Returns
        -------
        self
        """
        self._check_params()
        precomputed = self.kernel == "precomputed"
        name = type(self).__name__
        X, y = check_estimator_X_y_regression(
            X, y, name, check_X=lambda X: self._check_X(X, precomputed=precomputed))
        n = X.shape[0]
        sample_weight = self._check_sample_weight(sample_weight, n)
        kernel = self._fit_kernel(X)
        if sample_weight is None:
            idx = np.arange(n)
            bounds = np.full(n, self._C)
        else:
            idx = np.flatnonzero(sample_weight > 0)
            if idx.size == 0:
                raise ValueError(
                    "Invalid input - all samples have zero or negative weights (such samples "
                    "are left out), so there is nothing to learn. Check sample_weight.")
            bounds = self._C * sample_weight[idx]
        C = float(bounds[0]) if np.all(bounds == bounds[0]) else np.concatenate(
            [bounds, bounds])
        m = idx.shape[0]
        z = y[idx]
        # LIBSVM's 2m-variable problem: a = (alpha, alpha*), labels (+1, -1).
        y2 = np.concatenate([np.ones(m), -np.ones(m)])
        p, alpha0, nu_solver = self._dual_terms(z, bounds)
        options = dict(C=C, p=p, tol=self.tol, max_iter=self._max_iter(),
                       cache_size=self.cache_size, check_feasible=False,
                       shrinking=bool(self.shrinking), verbose=bool(self.verbose),
                       alpha0=alpha0, nu_solver=nu_solver)
        if precomputed:
            K = X[np.ix_(idx, idx)]
            result = solve_dual_smo(np.block([[K, K], [K, K]]), y2, **options)
        else:
            X_sub = X[idx]
            stack = scipy.sparse.vstack if scipy.sparse.issparse(X_sub) else np.concatenate
            result = solve_dual_smo(kernel, y2, X=stack([X_sub, X_sub]), **options)

        alpha = np.zeros((2, n))
        alpha[0, idx] = result.alpha[:m]
        alpha[1, idx] = result.alpha[m:]
        coef = alpha[0] - alpha[1]
        support = np.flatnonzero(coef != 0)
        self.alpha_ = alpha
        self.support_ = support.astype(np.int32)
        self.n_support_ = np.array([support.shape[0]], dtype=np.int32)
        self._store_support(X, support, coef[support][None, :], precomputed)
        self.intercept_ = np.array([result.b])
        self.solver_result_ = result
        self.n_iter_ = int(result.n_iter)
        self.fit_status_ = 0 if result.converged else 1
        self.shape_fit_ = X.shape
        if X.ndim == 2:                      # (not for the rows of a kernel function)
            self.n_features_in_ = X.shape[1]
        elif hasattr(self, "n_features_in_"):
            del self.n_features_in_
        self._store_extra(result)
        return self

    def predict(self, X):
        """The regression function ``f(x) = sum_i (alpha_i - alpha*_i) k(x_i, x) + b``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Or the kernel values against the training points, of shape
            (n_samples, n_train), if ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        K = self._kernel_to_support(X)
        return K @ self._dual()[0] + self.intercept_[0]

    @property
    def coef_(self):
        """``w = sum_i (alpha_i - alpha*_i) x_i`` (linear kernel only), shape (1, n_features).

        Read-only, as in scikit-learn; a CSR matrix after a fit on sparse input.
        """
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self, "support_")
        return self._linear_coef(np.asarray(self._dual() @ self.support_vectors_))


class SVR(_KernelRegressor):
    """Epsilon-support vector regression (LIBSVM's ε-SVR, ``sklearn.svm.SVR``).

    The parameters have scikit-learn's names and meanings, so code written
    for ``sklearn.svm.SVR`` runs with ``from svmlib import SVR``.  The dual
    problem in ``2 n`` variables (see the docstring of the module
    ``svmlib.svr``) is solved by the SMO of :class:`svmlib.SVC`.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or callable, default="rbf"
        As in :class:`svmlib.SVC` (``"sigmoid"`` is not always PSD).
    degree : int, default=3
        Degree of the polynomial kernel.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient of "rbf" and "poly" (``"scale"``: ``1 /
        (n_features * X.var())``).
    coef0 : float, default=0.0
        Constant of the polynomial kernel.
    tol : float, default=1e-3
        Stopping tolerance of SMO on the maximal KKT violation.
    C : float, default=1.0
        Penalty of the errors outside the tube, ``> 0`` and finite.
    epsilon : float, default=0.1
        Half-width of the tube in which errors cost nothing, ``>= 0`` (in the
        units of ``y``).
    shrinking : bool, default=True
        Use SMO's shrinking heuristic.
    cache_size : float, default=200
        Kernel cache of SMO in megabytes.
    verbose : bool or int, default=False
        Print the solver's progress.
    max_iter : int, default=-1
        Iteration limit of SMO; ``-1`` means no limit (as in scikit-learn).

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors (``alpha_i != alpha*_i``) in the
        training set, in increasing order.
    support_vectors_ : ndarray or CSR matrix of shape (n_SV, n_features)
        (Empty (n_SV, 0) for a precomputed kernel.)
    n_support_ : ndarray of shape (1,)
        Number of support vectors.
    dual_coef_ : ndarray or CSR matrix of shape (1, n_SV)
        ``alpha_i - alpha*_i`` of each support vector, in ``[-C_i, C_i]``.
    intercept_ : ndarray of shape (1,)
        The bias ``b`` (LIBSVM's ``-rho``).
    alpha_ : ndarray of shape (2, n_samples)
        The multipliers ``alpha`` (row 0: the constraint ``z - f <= eps +
        xi``) and ``alpha*`` (row 1) of every training sample (0 for samples
        of weight 0).
    solver_result_ : SolverResult
        The solver's record for the ``2 n``-variable problem.
    n_iter_ : int
    fit_status_ : int
        0 if the solver met its tolerance, 1 otherwise.
    shape_fit_ : tuple
    n_features_in_ : int
    """

    def __init__(self, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3, C=1.0,
                 epsilon=0.1, shrinking=True, cache_size=200, verbose=False, max_iter=-1):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.C = C
        self.epsilon = epsilon
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    def _check_params(self):
        self._C = check_positive(
            self.C, "C", hint="Use a positive, finite C such as C=1.0 (a larger C fits the "
            "data more closely; SVR has no hard-margin version, since a tube that holds every "
            "point need not exist).")
        self._epsilon = check_nonnegative(
            self.epsilon, "epsilon",
            hint="Use a tube half-width >= 0 in the units of y, such as epsilon=0.1 "
                 "(epsilon=0 penalizes every error).")
        self._check_kernel_params()

    def _dual_terms(self, z, bounds):
        """ε-SVR: ``p = (epsilon - z, epsilon + z)``, start at 0, LIBSVM's ``Solver``."""
        return np.concatenate([self._epsilon - z, self._epsilon + z]), None, False


class NuSVR(_KernelRegressor):
    """ν-support vector regression (LIBSVM's ν-SVR, ``sklearn.svm.NuSVR``).

    ``nu`` replaces ε-SVR's ``epsilon``: the tube's half-width is found by
    the fit, ``nu`` being an upper bound on the fraction of training errors
    (points outside the tube) and a lower bound on the fraction of support
    vectors (see the docstring of the module ``svmlib.svr``).  The parameters
    have scikit-learn's names and meanings; the dual is solved by the SMO of
    :class:`svmlib.NuSVC` (LIBSVM's ``Solver_NU``).

    Parameters
    ----------
    nu : float, default=0.5
        In ``(0, 1]``.
    C : float, default=1.0
        Penalty of the errors, ``> 0`` and finite.
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or callable, default="rbf"
        As in :class:`svmlib.SVC`.
    degree, gamma, coef0 : as in :class:`svmlib.SVC`
    shrinking : bool, default=True
    tol : float, default=1e-3
        Stopping tolerance of SMO (the larger of the two labels' KKT gaps).
    cache_size : float, default=200
    verbose : bool or int, default=False
    max_iter : int, default=-1
        Iteration limit of SMO; ``-1`` means no limit (as in scikit-learn).

    Attributes
    ----------
    support_, support_vectors_, n_support_, dual_coef_, intercept_, alpha_,
    solver_result_, n_iter_, fit_status_, shape_fit_, n_features_in_ :
        As in :class:`svmlib.SVR`; ``dual_coef_`` (``alpha_i - alpha*_i``) is in
        ``[-C_i, C_i]``, and ``alpha_`` sums to ``C nu n / 2`` in each row
        (``nu C sum(sample_weight) / 2`` with weights).
    epsilon_ : float
        The half-width of the tube at the solution (LIBSVM's ``-r``, which it
        prints as "epsilon = ..."; scikit-learn does not expose it).
    """

    def __init__(self, nu=0.5, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0,
                 shrinking=True, tol=1e-3, cache_size=200, verbose=False, max_iter=-1):
        self.nu = nu
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.tol = tol
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    def _check_params(self):
        self._nu = check_nu(self.nu)
        self._C = check_positive(
            self.C, "C", hint="Use a positive, finite C such as C=1.0 (a larger C fits the "
            "data more closely).")
        self._check_kernel_params()

    def _dual_terms(self, z, bounds):
        """ν-SVR: ``p = (-z, z)``, LIBSVM's start, ``Solver_NU``.

        The start puts ``alpha_i = alpha*_i = min(C_i, left)`` in order, ``left``
        starting at ``nu sum_i C_i / 2``: both labels' sums are then ``nu sum C /
        2``, and ``Solver_NU`` keeps each.
        """
        start = np.zeros(z.shape[0])
        left = self._nu * float(bounds.sum()) / 2
        for i in range(z.shape[0]):
            start[i] = min(left, float(bounds[i]))
            left -= start[i]
        return np.concatenate([-z, z]), np.concatenate([start, start]), True

    def _store_extra(self, result):
        self.epsilon_ = -float(result.info["r"])
