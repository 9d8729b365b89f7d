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

**The hard tube** (``C = inf``, which scikit-learn accepts) drops the slacks:
every target must lie within ``epsilon`` of ``f``.  The dual loses its upper
bound, and is bounded above exactly when some function fits in the tube (the
regression counterpart of separable data for the hard margin).  So ``fit``
first asks a linear program whether one does
(:func:`svmlib.dual.check_tube_feasible`), and SMO stops with
:class:`~svmlib.NotSeparableError` once its dual objective proves that
only a function far steeper than the targets ask for would fit (the hard
margin's rule, :func:`svmlib.smo.solve_dual_smo` with ``half_range``).

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

from numbers import Real

import numpy as np
import scipy.sparse
from sklearn.base import RegressorMixin
from sklearn.utils.validation import check_is_fitted

from ._kernel_svm import KernelSVMBase, one_convergence_warning
from ._validation import (check_estimator_X_y_regression, check_nonnegative, check_nu,
                          check_positive)
from .kernels import _squared_norms
from .dual import LP_CHECK_MAX_N, NotSeparableError, check_tube_feasible
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
        hard_tube = bool(np.isinf(self._C))       # SVR(C=inf); NuSVR refuses it
        lp_found = None
        if hard_tube:
            options["half_range"], lp_found = self._check_hard_tube(X, idx, z, kernel,
                                                                    precomputed)
        try:
            if precomputed:
                K = X[np.ix_(idx, idx)]
                result = solve_dual_smo(np.block([[K, K], [K, K]]), y2, **options)
            else:
                X_sub = X[idx]
                stack = scipy.sparse.vstack if scipy.sparse.issparse(X_sub) else np.concatenate
                result = solve_dual_smo(kernel, y2, X=stack([X_sub, X_sub]), **options)
        except NotSeparableError as err:
            raise NotSeparableError(self._steep_tube_message(err, lp_found)) from None

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

    def _check_hard_tube(self, X, idx, z, kernel, precomputed):
        """``C = inf`` (SVR's hard tube): refuse an empty tube before solving.

        With ``C = inf`` every target must lie within ``epsilon`` of ``f``.
        Half of the least range such an ``f`` covers at the training points
        is ``half_range = (max z - min z) / 2 - epsilon``.  If it is ``<= 0``
        the constant ``f = (max z + min z) / 2`` is in the tube, so the dual
        is bounded and there is nothing to check.  Otherwise, as
        :class:`svmlib.SVC` does for the hard margin, a linear program
        decides whether any ``f`` stays in the tube
        (:func:`svmlib.dual.check_tube_feasible`, which raises
        NotSeparableError if none does): on the features for the linear
        kernel, on the Gram matrix for the other kernels up to
        ``LP_CHECK_MAX_N`` samples.  SMO then gets ``half_range``, with which
        it gives up once its dual objective proves every such ``f`` at least
        ``1e4`` times steeper than the targets ask for (the hard margin's
        rule, with the targets' half-range in place of 1; see
        :func:`svmlib.smo.solve_dual_smo`): beyond ``LP_CHECK_MAX_N`` samples
        that is what stops a solve whose tube is empty.

        Returns
        -------
        (float or None, tuple or None)
            ``half_range`` for the solver (None: no test needed), and
            ``(||w||^2, R^2)`` for the function the linear program found and
            the data's squared radius in feature space (None if it did not run).
        """
        half_range = (float(z.max()) - float(z.min())) / 2 - self._epsilon
        if half_range <= 0:
            return None, None
        if self.kernel == "linear" and not precomputed:
            points = X[idx]
            found = check_tube_feasible(z, self._epsilon, X=points)
            return half_range, (found, float(_squared_norms(points).max()))
        if precomputed:
            K = X[np.ix_(idx, idx)]
        elif idx.shape[0] <= LP_CHECK_MAX_N:
            K = np.asarray(kernel(X[idx], X[idx]), dtype=np.float64)
        else:
            return half_range, None
        found = check_tube_feasible(z, self._epsilon, K=K,
                                    where=" in the kernel's feature space")
        return half_range, (found, float(np.diagonal(K).max()))

    def _steep_tube_message(self, err, lp_found):
        """NotSeparableError's message when SMO gives up on a hard tube (``C = inf``)."""
        message = (
            f"{type(self).__name__}(C=inf) asks for a function within epsilon="
            f"{self._epsilon:g} of every target (a hard tube), and there is none within "
            f"svmlib's tolerance: {err}. The tube is empty, or holds only such steep functions "
            f"(points with different targets nearly coincide). Use a finite C, e.g. C=1.0 (a "
            f"large C such as C=1e6 still fits closely), or a larger epsilon.")
        if lp_found is not None:
            w_sq, radius_sq = lp_found
            message += (
                f" (The feasibility test found a function in the tube with ||w|| = "
                f"{np.sqrt(w_sq):.3g}, ||w|| R = {np.sqrt(w_sq * radius_sq):.3g}: the tube is "
                f"not empty in exact arithmetic, but it holds only functions steeper than "
                f"svmlib's hard tube accepts.)")
        return message

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
        Penalty of the errors outside the tube, ``> 0``.  ``np.inf`` asks for
        a *hard tube*, every target within ``epsilon`` of the regression
        function (the counterpart of SVC's hard margin): if no function fits
        in it, the dual has no maximum and ``fit`` raises
        :class:`~svmlib.NotSeparableError`, which says so, as SVC does on
        data that are not separable.
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
            self.C, "C", allow_inf=True,
            hint="Use a positive C such as C=1.0 (a larger C fits the data more closely; "
                 "C=np.inf asks for every target within epsilon).")
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
        if isinstance(self.C, Real) and np.isinf(self.C) and self.C > 0:
            raise ValueError(
                "C must be a finite number > 0 for NuSVR; got C=inf. Its dual fixes the sums "
                "of the multipliers at C nu n / 2 each, which would be infinite. Use a finite C such as "
                "C=1.0 (a larger C fits the data more closely), or SVR(C=np.inf, epsilon=...) "
                "to ask for every target within a tube of fixed width.")
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
