"""What every kernel SVM estimator of svmlib shares: kernel parameters, input checks, kernel values.

:class:`KernelSVMBase` holds the parts of :class:`svmlib.SVC` that do not
depend on the problem being solved, so that :class:`svmlib.SVR`,
:class:`svmlib.NuSVC` and :class:`svmlib.OneClassSVM` validate their input,
resolve ``gamma`` and compute kernel values exactly as ``SVC`` does, with the
same messages (naming the estimator that received the input):

* the kernel parameters ``kernel``, ``degree``, ``gamma``, ``coef0`` and the
  solver parameters ``tol``, ``max_iter``, ``cache_size``, ``shrinking``,
  ``verbose`` (:meth:`KernelSVMBase._check_kernel_params`);
* ``X`` (real, finite, dense or a scipy.sparse matrix; a square PSD Gram
  matrix for ``kernel="precomputed"``, which must be dense), with overflow
  checks for the kernel;
* sparse input as scikit-learn treats it: a fit on a sparse ``X`` keeps
  ``support_vectors_`` and ``dual_coef_`` as CSR matrices and predicts on
  sparse or dense input; a fit on dense input refuses sparse input at
  prediction time (:meth:`KernelSVMBase._kernel_to_support`);
* the kernel function of a fit (``gamma="scale"`` resolved on the training
  data and stored in ``_gamma``) and the kernel values against the support
  vectors at prediction time (a kernel function, as in scikit-learn, against
  every training point, whose support vectors' columns are kept).
"""

import functools
import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse
import sklearn
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from . import kernels as _kernels
from ._validation import check_estimator_X, check_int, check_positive, check_sparse

__all__ = ["KERNEL_NAMES", "CheckedKernel", "check_bool", "KernelSVMBase", "sparse_output",
           "one_convergence_warning", "is_object_rows"]

KERNEL_NAMES = ("linear", "poly", "rbf", "sigmoid", "precomputed")


class CheckedKernel:
    """A user's kernel function whose every output is checked where it enters.

    Calling it returns ``kernel(A, B)`` as float64 after checking that it is
    an array of shape (n_A, n_B) without NaN or infinity; otherwise it
    raises a ValueError that names the kernel.  Picklable when the wrapped
    function is.
    """

    def __init__(self, func):
        self.func = func
        self.name = getattr(func, "__name__", type(func).__name__)

    def __call__(self, A, B):
        try:
            K = self.func(A, B)
            if scipy.sparse.issparse(K):       # e.g. A @ B.T of sparse inputs
                K = K.toarray()
            K = np.asarray(K, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            if isinstance(exc, ValueError) and str(exc).startswith("the kernel "):
                raise
            raise ValueError(
                f"the kernel {self.name!r} must return an array of numbers; its output for "
                f"inputs of shapes {A.shape} and {B.shape} cannot be converted ({exc}). "
                f"Return an ndarray of shape (n_A, n_B).") from None
        expected = (A.shape[0], B.shape[0])
        if K.shape != expected:
            raise ValueError(
                f"the kernel {self.name!r} returned an array of shape {K.shape} for inputs "
                f"of shapes {A.shape} and {B.shape}; expected {expected}, one value per pair "
                f"of rows. A kernel k(A, B) must return K[i, j] = k(A[i], B[j]).")
        if not np.isfinite(K).all():
            n_nan, n_inf = int(np.isnan(K).sum()), int(np.isinf(K).sum())
            i, j = np.argwhere(~np.isfinite(K))[0]
            raise ValueError(
                f"the kernel {self.name!r} returned {n_nan} NaN and {n_inf} infinite "
                f"value(s) for inputs of shapes {A.shape} and {B.shape} (the first at "
                f"[{i}, {j}]); an SVM needs finite kernel values. Check the kernel function "
                f"(and the scale of the features).")
        return K


def sparse_output(M):
    """``M`` as the sparse type scikit-learn's fitted attributes have: a CSR
    matrix, or a CSR array under ``sklearn.set_config(sparse_interface="sparray")``."""
    if sklearn.get_config().get("sparse_interface", "spmatrix") == "sparray":
        return scipy.sparse.csr_array(M)
    return scipy.sparse.csr_matrix(M)


def one_convergence_warning(fit):
    """Decorate a ``fit``: the solvers' ConvergenceWarnings become one, scikit-learn's.

    Each binary problem (and each cross-validation fit of
    ``probability=True``) that reaches ``max_iter`` warns in the solver;
    ``fit`` then gives one ConvergenceWarning whose message begins with
    scikit-learn's (``"Solver terminated early (max_iter=...)."``) and goes
    on with the first solver's own (its KKT violation, and how many solves
    stopped).  Other warnings pass through unchanged.
    """
    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = fit(self, *args, **kwargs)
        stopped = [w for w in caught if issubclass(w.category, ConvergenceWarning)]
        for w in caught:
            if w not in stopped:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno,
                                       source=w.source)
        if stopped:
            count = "" if len(stopped) == 1 else f" ({len(stopped)} solves stopped so.)"
            # scikit-learn's message, word for word, then svmlib's detail.
            warnings.warn(
                f"Solver terminated early (max_iter={self.max_iter}).  Consider "
                f"pre-processing your data with StandardScaler or MinMaxScaler. "
                f"{stopped[0].message}{count}", ConvergenceWarning, stacklevel=2)
        return result
    return wrapper


def _numeric(X):
    """Whether ``X`` converts to a 2-D array of numbers (what the checks then take)."""
    if isinstance(X, np.ndarray) and X.dtype.kind in "biuf":
        return X.ndim == 2
    try:
        array = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return array.ndim == 2


def _object_rows(X):
    """Non-numeric ``X`` for a kernel function: a 1-D array of objects, one per row."""
    rows = np.empty(len(X), dtype=object)
    for k, row in enumerate(X):
        rows[k] = row
    if rows.shape[0] == 0:
        raise ValueError("X must contain at least one sample; got an empty sequence.")
    return rows


def is_object_rows(X):
    """Whether ``X`` is the array of objects of a kernel function's non-numeric input."""
    return isinstance(X, np.ndarray) and X.dtype == object and X.ndim == 1


def check_bool(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {name}={value!r}. Pass a bool.")
    return bool(value)


class KernelSVMBase(BaseEstimator):
    """Kernel handling and input checks shared by svmlib's kernel SVM estimators.

    Subclasses define the parameters ``kernel``, ``degree``, ``gamma``,
    ``coef0``, ``tol``, ``max_iter``, ``cache_size``, ``shrinking`` and
    ``verbose`` (scikit-learn's names and meanings), and after ``fit`` the
    attributes ``support_``, ``support_vectors_``, ``shape_fit_`` and
    ``n_features_in_``.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        tags.input_tags.sparse = self.kernel != "precomputed"
        return tags

    def _check_kernel_params(self):
        """Check the kernel's and the solver's parameters (whatever the kernel, as scikit-learn)."""
        if not callable(self.kernel):
            if not isinstance(self.kernel, str) or self.kernel not in KERNEL_NAMES:
                raise ValueError(
                    f"kernel must be one of {', '.join(repr(k) for k in KERNEL_NAMES)} or a "
                    f"callable k(X, Z); got kernel={self.kernel!r}. Pick a listed name or pass "
                    f"a function.")
        check_int(self.degree, "degree", minimum=1 if self.kernel == "poly" else 0)
        if isinstance(self.gamma, str):
            if self.gamma not in ("scale", "auto"):
                raise ValueError(
                    f"gamma must be 'scale', 'auto' or a number > 0; got gamma={self.gamma!r}. "
                    f"Use gamma='scale' (the default) or a float such as gamma=0.1.")
        else:
            check_positive(self.gamma, "gamma",
                           hint="Use gamma='scale' (the default) or a float such as gamma=0.1.")
        if not isinstance(self.coef0, Real) or isinstance(self.coef0, bool) \
                or not np.isfinite(self.coef0):
            raise ValueError(f"coef0 must be a finite number; got coef0={self.coef0!r}. "
                             f"Use coef0=0.0.")
        check_positive(self.tol, "tol", hint="Use a small positive tolerance such as tol=1e-3.")
        check_int(self.max_iter, "max_iter", minimum=-1,
                  hint="Use max_iter=-1 for no limit, or a positive number of iterations.")
        if self.max_iter == 0:
            raise ValueError(
                "max_iter must be -1 (no limit) or a positive number of iterations; got "
                "max_iter=0, which would return the untrained starting point. Use max_iter=-1.")
        check_positive(self.cache_size, "cache_size", hint="Use cache_size=200 (megabytes).")
        check_bool(self.shrinking, "shrinking")
        if not isinstance(self.verbose, (Integral, np.bool_)):
            raise ValueError(f"verbose must be a bool or an int; got verbose={self.verbose!r}. "
                             f"Pass verbose=True to see the solver's progress.")

    def _check_X(self, X, precomputed=False):
        """Validate X (real, 2-D, finite), with messages that say what to do.

        A sparse ``X`` becomes a canonical CSR matrix of float64; with
        ``precomputed`` it is refused with scikit-learn's TypeError.
        """
        if scipy.sparse.issparse(X):
            if precomputed:
                raise TypeError("Sparse precomputed kernels are not supported.")
            return check_sparse(X)
        if callable(self.kernel) and not _numeric(X):
            # A kernel function may take anything with rows (strings, say):
            # X is then kept as an array of objects, indexed along its first axis.
            return _object_rows(X)
        if precomputed and isinstance(X, np.ndarray) and X.dtype.kind in "fiub" and X.ndim == 2:
            finite = np.isfinite(X)
            if not finite.all():
                i, j = np.argwhere(~finite)[0]
                raise ValueError(
                    f"with kernel='precomputed', X holds kernel values and must be finite; "
                    f"got {int(np.isnan(X).sum())} NaN and {int(np.isinf(X).sum())} infinite "
                    f"value(s) (the first at row {i}, column {j}). Check the function that "
                    f"computed the kernel matrix.")
        return check_estimator_X(X, type(self).__name__)

    @staticmethod
    def _check_scale(X):
        """Raise if the squared norms of the rows of X overflow (no kernel is computable)."""
        with np.errstate(over="ignore", invalid="ignore"):
            sq = _kernels._squared_norms(X)
            largest = float(sq.max()) if sq.size else 0.0
        if not np.isfinite(largest) or largest > np.finfo(np.float64).max / 4:
            values = X.data if scipy.sparse.issparse(X) else X
            raise ValueError(
                f"X has values as large as {float(np.abs(values).max()):.3g} in absolute value: "
                f"the squared norms of its rows overflow float64 (whose largest value is about "
                f"1.8e308), so neither the kernel nor gamma='scale' can be computed. Scale the "
                f"features first, e.g. with sklearn.preprocessing.StandardScaler.")
        return largest

    @staticmethod
    def _check_sample_weight(sample_weight, n):
        if sample_weight is None:
            return None
        try:
            sw = np.asarray(sample_weight, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(
                f"sample_weight must be an array of numbers, one per sample; got an object "
                f"of type {type(sample_weight).__name__}. Pass a float array of length "
                f"{n}.") from None
        if sw.ndim == 0:
            sw = np.full(n, float(sw))
        if sw.shape != (n,):
            raise ValueError(
                f"sample_weight must have shape ({n},), one weight per sample; got shape "
                f"{sw.shape}. Pass a 1-D array as long as y.")
        if not np.isfinite(sw).all():
            raise ValueError(
                "sample_weight must be finite; got NaN or infinite weight(s). Replace them "
                "(a weight of 0 removes a sample).")
        return sw

    def _kernel_function(self, X):
        """The kernel as a callable ``k(A, B)``.

        During ``fit`` (``X`` given) ``gamma`` is resolved on the training data
        and stored in ``_gamma``; afterwards (``X=None``) the stored value is used.
        """
        if X is not None:
            self._gamma = None
        if callable(self.kernel):
            return CheckedKernel(self.kernel)
        if self.kernel == "linear":
            return _kernels.get_kernel("linear")
        if X is not None:
            with np.errstate(over="ignore", invalid="ignore"):
                self._gamma = _kernels.resolve_gamma(self.gamma, X)
            if not np.isfinite(self._gamma) or self._gamma <= 0:
                values = X.data if scipy.sparse.issparse(X) else X
                raise ValueError(
                    f"gamma={self.gamma!r} could not be computed from X (the variance of X "
                    f"overflows float64: values up to {float(np.abs(values).max()):.3g}). Scale "
                    f"the features first, e.g. with sklearn.preprocessing.StandardScaler.")
        if self.kernel == "rbf":
            return _kernels.get_kernel("rbf", gamma=self._gamma)
        if self.kernel == "sigmoid":
            return _kernels.get_kernel("sigmoid", gamma=self._gamma, coef0=float(self.coef0))
        return _kernels.get_kernel("poly", gamma=self._gamma, degree=self.degree,
                                   coef0=float(self.coef0))

    def _check_kernel_range(self, largest_sq_norm):
        """The polynomial kernel's largest value ``k(x, x)`` must be finite."""
        if self.kernel != "poly":
            return
        with np.errstate(over="ignore", invalid="ignore"):
            top = np.float64(self._gamma * largest_sq_norm + float(self.coef0)) ** self.degree
        if not np.isfinite(top):
            raise ValueError(
                f"the polynomial kernel overflows float64 on this data: (gamma * ||x||^2 + "
                f"coef0) ** degree is {top} for the largest row (||x||^2 = "
                f"{largest_sq_norm:.3g}, gamma={self._gamma:.3g}, degree={self.degree}). "
                f"Scale the features (e.g. sklearn.preprocessing.StandardScaler) or lower "
                f"gamma or degree.")

    def _fit_kernel(self, X):
        """Check the training ``X`` against the kernel; return the kernel function.

        For ``kernel="precomputed"`` ``X`` must be a square PSD Gram matrix
        and the result is ``None``; otherwise ``gamma`` is resolved on ``X``
        (stored in ``_gamma``) and a callable kernel is probed on a few rows.
        """
        n = X.shape[0]
        # A kernel function is evaluated against every training point at
        # prediction time, as scikit-learn does (see _kernel_function_to_support).
        self._X_fit = X if callable(self.kernel) else None
        # As scikit-learn's _sparse: the fit works on sparse rows (a kernel
        # function receives X as it was given, and is predicted from likewise).
        self._sparse = scipy.sparse.issparse(X) and not callable(self.kernel)
        if self.kernel == "precomputed":
            if X.shape[0] != X.shape[1]:
                raise ValueError(
                    f"with kernel='precomputed', X must be the square Gram matrix of the "
                    f"training points; got shape {X.shape}. Pass K = k(X_train, X_train).")
            if X.shape[0] <= 2000 and not _kernels.is_psd(X, tol=1e-8):
                raise ValueError(
                    "with kernel='precomputed', X must be a symmetric positive semidefinite "
                    "Gram matrix; got one with a negative eigenvalue. The SVM's dual needs "
                    "less (c^T K c >= 0 only for c with sum(c) = 0, since sum(alpha * y) = 0), "
                    "but svmlib checks the stronger property. If the kernel is conditionally "
                    "positive definite (such as <x, z> - 1 or -||x - z||; test it with "
                    "svmlib.kernels.is_conditionally_psd), add a large enough constant to "
                    "every entry: K + c gives the same dual solution and decision values. "
                    "Otherwise the kernel is not valid for the SVM (tanh, for instance): "
                    "check it.")
            self._gamma = None
            return None
        largest_sq_norm = self._check_scale(X) if not is_object_rows(X) else 0.0
        kernel = self._kernel_function(X)
        self._check_kernel_range(largest_sq_norm)
        if callable(self.kernel):
            # Probe the first rows (sizes differ, so a kernel that ignores
            # its second argument is caught at once).
            kernel(X[:min(n, 4)], X[:min(n, 3)])
        return kernel

    def _max_iter(self):
        """``max_iter`` as the solver takes it (None: no limit)."""
        return None if self.max_iter == -1 else self.max_iter

    def _store_support(self, X, support, dual_coef, precomputed):
        """Set ``support_vectors_`` and ``dual_coef_``: CSR matrices after a
        sparse fit (as scikit-learn), dense arrays otherwise."""
        if getattr(self, "_sparse", False):
            self.support_vectors_ = sparse_output(X[support])
            self.dual_coef_ = sparse_output(dual_coef)
        else:
            self.support_vectors_ = (np.empty((support.shape[0], 0)) if precomputed
                                     else X[support].copy())
            self.dual_coef_ = dual_coef

    def _dual(self):
        """``dual_coef_`` as a dense array (it is a CSR matrix after a sparse fit)."""
        dual = self.dual_coef_
        return dual.toarray() if scipy.sparse.issparse(dual) else np.asarray(dual)

    def _linear_coef(self, coef):
        """``coef_`` as scikit-learn returns it: CSR after a sparse fit, and
        read-only (a write raises ValueError instead of being lost)."""
        if getattr(self, "_sparse", False):
            coef = sparse_output(coef)
            coef.data.flags.writeable = False
        else:
            coef = np.array(coef)
            coef.flags.writeable = False
        return coef

    def _kernel_to_support(self, X):
        check_is_fitted(self, "support_")
        if scipy.sparse.issparse(X) and not getattr(self, "_sparse", False) \
                and not callable(self.kernel):
            # scikit-learn's message, word for word.
            raise ValueError(
                f"cannot use sparse input in {type(self).__name__!r} trained on dense data. "
                f"Pass X.toarray(), or fit on sparse input.")
        X = self._check_X(X, precomputed=self.kernel == "precomputed")
        if getattr(self, "_sparse", False) and not scipy.sparse.issparse(X):
            X = scipy.sparse.csr_matrix(X)
        if self.kernel == "precomputed":
            n_train = self.shape_fit_[0]
            if X.shape[1] != n_train:
                raise ValueError(
                    f"with kernel='precomputed', X must hold the kernel values against the "
                    f"{n_train} training points; got shape {X.shape}. Pass "
                    f"k(X_test, X_train) of shape (n_test, {n_train}).")
            return X[:, self.support_]
        if is_object_rows(X):      # rows for a kernel function, not numbers
            return self._kernel_function_to_support(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} "
                f"features as input (as in fit). Pass data with the same columns as in fit.")
        if callable(self.kernel):
            return self._kernel_function_to_support(X)
        if self.support_vectors_.shape[0] == 0:
            return np.zeros((X.shape[0], 0))
        self._check_kernel_range(self._check_scale(X))
        kernel = self._kernel_function(None)
        return np.asarray(kernel(X, self.support_vectors_), dtype=np.float64)

    def _kernel_function_to_support(self, X):
        """A kernel function's values between ``X`` and the support vectors, as scikit-learn gets them.

        scikit-learn calls a kernel function with *every* training point,
        ``kernel(X, X_fit)`` of shape (n_samples, n_train), and keeps the
        columns of the support vectors; so does svmlib.  A kernel written
        for that call then gives the same values here as there: one that
        fills a single triangle of a square block and mirrors it (so that
        ``kernel(X_fit, X_fit)`` is right while a block against the support
        vectors alone is not), or one that expects the training set as its
        second argument.  It costs ``n_train`` kernel values per sample
        instead of ``n_SV``, and keeps a reference to the training ``X``.
        """
        K = self._kernel_function(None)(X, self._X_fit)
        return K[:, self.support_]
