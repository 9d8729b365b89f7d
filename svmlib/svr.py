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
"""

import numpy as np
from sklearn.base import RegressorMixin
from sklearn.utils.validation import check_is_fitted

from ._kernel_svm import KernelSVMBase
from ._validation import check_estimator_X_y_regression, check_nonnegative, check_positive
from .smo import solve_dual_smo

__all__ = ["SVR"]


class SVR(RegressorMixin, KernelSVMBase):
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
    support_vectors_ : ndarray of shape (n_SV, n_features)
        (Empty (n_SV, 0) for a precomputed kernel.)
    n_support_ : ndarray of shape (1,)
        Number of support vectors.
    dual_coef_ : ndarray of shape (1, n_SV)
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

    def fit(self, X, y, sample_weight=None):
        """Fit the regression function.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
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
        self : SVR
        """
        self._check_params()
        precomputed = self.kernel == "precomputed"
        X, y = check_estimator_X_y_regression(
            X, y, "SVR", check_X=lambda X: self._check_X(X, precomputed=precomputed))
        n = X.shape[0]
        sample_weight = self._check_sample_weight(sample_weight, n)
        kernel = self._fit_kernel(X)
        if sample_weight is None:
            idx = np.arange(n)
            C = self._C
        else:
            idx = np.flatnonzero(sample_weight > 0)
            if idx.size == 0:
                raise ValueError(
                    "all samples have zero or negative weight (such samples are left out), so "
                    "there is nothing to learn. Check sample_weight.")
            bounds = self._C * sample_weight[idx]
            C = float(bounds[0]) if np.all(bounds == bounds[0]) else np.concatenate(
                [bounds, bounds])
        m = idx.shape[0]
        z = y[idx]
        # LIBSVM's 2m-variable problem: a = (alpha, alpha*), labels (+1, -1).
        y2 = np.concatenate([np.ones(m), -np.ones(m)])
        p = np.concatenate([self._epsilon - z, self._epsilon + z])
        options = dict(C=C, p=p, tol=self.tol, max_iter=self._max_iter(),
                       cache_size=self.cache_size, check_feasible=False,
                       shrinking=bool(self.shrinking), verbose=bool(self.verbose))
        if precomputed:
            K = X[np.ix_(idx, idx)]
            result = solve_dual_smo(np.block([[K, K], [K, K]]), y2, **options)
        else:
            X_sub = X[idx]
            result = solve_dual_smo(kernel, y2, X=np.vstack([X_sub, X_sub]), **options)

        alpha = np.zeros((2, n))
        alpha[0, idx] = result.alpha[:m]
        alpha[1, idx] = result.alpha[m:]
        coef = alpha[0] - alpha[1]
        support = np.flatnonzero(coef != 0)
        self.alpha_ = alpha
        self.support_ = support.astype(np.int32)
        self.n_support_ = np.array([support.shape[0]], dtype=np.int32)
        self.dual_coef_ = coef[support][None, :]
        self.intercept_ = np.array([result.b])
        self.support_vectors_ = (np.empty((support.shape[0], 0)) if precomputed
                                 else X[support].copy())
        self.solver_result_ = result
        self.n_iter_ = int(result.n_iter)
        self.fit_status_ = 0 if result.converged else 1
        self.shape_fit_ = X.shape
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        """The regression function ``f(x) = sum_i (alpha_i - alpha*_i) k(x_i, x) + b``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Or the kernel values against the training points, of shape
            (n_samples, n_train), if ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        K = self._kernel_to_support(X)
        return K @ self.dual_coef_[0] + self.intercept_[0]

    @property
    def coef_(self):
        """``w = sum_i (alpha_i - alpha*_i) x_i`` (linear kernel only), shape (1, n_features)."""
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self, "support_")
        return self.dual_coef_ @ self.support_vectors_
