"""Input checks shared by every estimator and solver in svmlib.

Every check raises a :class:`ValueError` whose message names the parameter,
says what was expected, shows what was received, and suggests a way out,
for example::

    C must be a number > 0; got C=-1.0. Use a positive C such as C=1.0
    (use C=np.inf for a hard margin).
"""

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.multiclass import type_of_target

__all__ = [
    "check_array",
    "check_sparse",
    "check_estimator_X",
    "check_estimator_X_y",
    "check_estimator_n_features",
    "check_X_y",
    "check_binary_labels",
    "check_positive",
    "check_int",
    "check_option",
    "check_same_n_features",
    "check_estimator_X_y_regression",
    "check_nu",
    "check_nonnegative",
]


def _shape_text(a):
    return "shape " + str(tuple(np.shape(a)))


def check_array(X, name="X", ndim=2, allow_empty=False):
    """Return ``X`` as a float64 array after checking its shape and values.

    Parameters
    ----------
    X : array-like
        The input.
    name : str, default="X"
        The parameter's name, used in error messages.
    ndim : {1, 2}, default=2
        The number of dimensions expected.  A 1-D ``X`` where 2-D is
        expected is rejected with a hint to reshape it.
    allow_empty : bool, default=False
        Whether zero rows are acceptable.

    Returns
    -------
    ndarray of float64

    Raises
    ------
    ValueError
        For non-numeric input, a wrong number of dimensions, no rows, or NaN
        or infinite values.
    """
    if not isinstance(X, np.ndarray) and not hasattr(X, "__array_function__"):
        try:
            X = np.asarray(X)
        except (TypeError, ValueError):
            pass  # explained below
    elif not isinstance(X, np.ndarray):
        X = np.asarray(X)   # array-likes that forbid NumPy functions on themselves
    if isinstance(X, np.ndarray) and np.iscomplexobj(X):
        raise ValueError(
            f"Complex data not supported: {name} must be real; got complex numbers. "
            f"Pass {name}.real if the imaginary parts are zero."
        )
    try:
        arr = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{name} must be an array of numbers; got an object of type "
            f"{type(X).__name__} that cannot be converted ({exc}). "
            f"Pass a NumPy array or a list of lists of floats."
        ) from None
    if arr.ndim != ndim:
        if ndim == 2 and arr.ndim == 1:
            hint = (f"Reshape it with {name}.reshape(-1, 1) if it is one feature, "
                    f"or {name}.reshape(1, -1) if it is one sample.")
        elif ndim == 2 and arr.ndim == 0:
            hint = f"Pass a 2-D array such as [[{float(arr)}]]."
        else:
            hint = f"Pass a {ndim}-D array."
        raise ValueError(
            f"{name} must be a {ndim}-D array; got a {arr.ndim}-D array with "
            f"{_shape_text(arr)}. {hint}"
        )
    if not allow_empty and arr.shape[0] == 0:
        raise ValueError(
            f"{name} must contain at least one sample; got {_shape_text(arr)}. "
            f"Pass non-empty data."
        )
    if ndim == 2 and arr.shape[1] == 0:
        raise ValueError(
            f"{name} must have at least one feature; got {_shape_text(arr)}."
        )
    # A NaN or an infinity makes the sum NaN or infinite, so a finite sum proves
    # every value finite without a temporary array; a sum that overflows (or
    # that meets NaN) falls back to the check value by value.
    with np.errstate(over="ignore", invalid="ignore"):
        finite_sum = np.isfinite(arr.sum())
    if not finite_sum and not np.all(np.isfinite(arr)):
        n_nan = int(np.isnan(arr).sum())
        n_inf = int(np.isinf(arr).sum())
        raise ValueError(
            f"{name} must not contain NaN or infinity; got {n_nan} NaN and "
            f"{n_inf} infinite value(s). Remove or impute them first, e.g. "
            f"with sklearn.impute.SimpleImputer."
        )
    return arr


def check_X_y(X, y):
    """Check a design matrix and its labels together.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64
        (a sparse ``X`` comes back as a checked CSR matrix, see
        :func:`check_sparse`)
    y : ndarray of shape (n_samples,)
        The labels as given (not converted to float), so that string or
        integer class names survive.
    """
    if scipy.sparse.issparse(X):
        X = check_sparse(X, "X")
    elif not (isinstance(X, np.ndarray) and X.dtype == object and X.ndim == 1):
        X = check_array(X, "X")   # (a 1-D object array: the rows of a kernel function)
    y_arr = np.asarray(y)
    if y_arr.ndim == 2 and y_arr.shape[1] == 1:
        y_arr = y_arr.ravel()
    if y_arr.ndim != 1:
        raise ValueError(
            f"y must be a 1-D array of labels; got {_shape_text(y_arr)}. "
            f"Use y.ravel() if it is a column vector."
        )
    if y_arr.shape[0] != X.shape[0]:
        raise ValueError(
            f"X and y must have the same number of samples; got X with "
            f"{X.shape[0]} rows and y with {y_arr.shape[0]} labels. "
            f"Check that they come from the same data set."
        )
    if y_arr.dtype.kind in "fc" and not np.all(np.isfinite(y_arr)):
        raise ValueError(
            "y must not contain NaN or infinity; got "
            f"{int(np.sum(~np.isfinite(y_arr)))} such label(s). Drop those samples."
        )
    return X, y_arr


def check_binary_labels(y, name="y"):
    """Map two arbitrary labels to -1 and +1.

    Returns
    -------
    classes : ndarray of shape (2,)
        The sorted labels; ``classes[0]`` becomes -1 and ``classes[1]`` +1.
    y_pm : ndarray of shape (n_samples,), float64
        The labels as -1.0 / +1.0.
    """
    classes = np.unique(y)      # no return_inverse: its sort costs more than one comparison
    if classes.shape[0] < 2:
        raise ValueError(
            f"{name} must contain two classes; got only one class "
            f"({classes.tolist()!r}). A classifier needs examples of both "
            f"classes: check how the data were split or filtered."
        )
    if classes.shape[0] > 2:
        raise ValueError(
            f"Only binary classification is supported: {name} must contain exactly "
            f"two classes; got {classes.shape[0]} "
            f"({classes.tolist()[:10]!r}). For more classes use svmlib.SVC "
            f"(one-vs-one) or svmlib.OneVsRestClassifier."
        )
    return classes, np.where(np.asarray(y) == classes[1], 1.0, -1.0)


def check_positive(value, name, allow_inf=False, hint=""):
    """Check that ``value`` is a real number > 0 (and finite unless allowed)."""
    ok = isinstance(value, Real) and not isinstance(value, bool)
    ok = ok and not np.isnan(value) and value > 0
    if ok and not allow_inf and np.isinf(value):
        ok = False
    if not ok:
        what = "a number > 0" + (" (or np.inf)" if allow_inf else "")
        raise ValueError(
            f"{name} must be {what}; got {name}={value!r}. "
            + (hint or f"Use a positive value such as {name}=1.0.")
        )
    return float(value)


def check_int(value, name, minimum=None, hint=""):
    """Check that ``value`` is an integer (not a bool) >= ``minimum``."""
    ok = isinstance(value, Integral) and not isinstance(value, bool)
    if ok and minimum is not None and value < minimum:
        ok = False
    if not ok:
        bound = f" >= {minimum}" if minimum is not None else ""
        raise ValueError(
            f"{name} must be an integer{bound}; got {name}={value!r}. "
            + (hint or f"Pass a whole number{bound}.")
        )
    return int(value)


def check_option(value, name, options):
    """Check that ``value`` is one of ``options`` (compared with ==)."""
    if not any(value == o and type(value) is type(o) for o in options):
        listed = ", ".join(repr(o) for o in options)
        raise ValueError(
            f"{name} must be one of {listed}; got {name}={value!r}. "
            f"Pick one of the listed values."
        )
    return value


def check_same_n_features(X, n_features, name="X"):
    """Check that ``X`` has the number of features seen during ``fit``."""
    if X.shape[1] != n_features:
        raise ValueError(
            f"{name} has {X.shape[1]} features, but the model was fitted with "
            f"{n_features}. Pass data with the same columns as in fit."
        )
    return X


# ------------------------------------------------- estimators' fit / predict input
def check_sparse(X, name="X"):
    """Return a sparse ``X`` as a CSR matrix of float64, canonical and checked.

    The copy has sorted column indices and no duplicate entries (duplicates
    are summed, as scipy does), int32 or int64 indices as scipy chose them.

    Parameters
    ----------
    X : scipy.sparse matrix or array, any format
        The input.
    name : str, default="X"
        The parameter's name, used in error messages.

    Returns
    -------
    scipy.sparse.csr_matrix

    Raises
    ------
    ValueError
        For complex values, no rows or columns, or NaN or infinite values.
    """
    if X.dtype.kind == "c":
        raise ValueError(
            f"Complex data not supported: {name} must be real; got a sparse matrix of "
            f"complex numbers. Pass {name}.real if the imaginary parts are zero.")
    try:
        X = scipy.sparse.csr_matrix(X, dtype=np.float64, copy=True)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{name} must hold numbers; got a sparse matrix of dtype {X.dtype} that cannot "
            f"be converted to float64 ({exc}).") from None
    X.sum_duplicates()
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-D; got a sparse array of shape {X.shape}.")
    if X.shape[0] == 0:
        raise ValueError(
            f"{name} must contain at least one sample; got shape {X.shape}. Pass non-empty "
            f"data.")
    if X.shape[1] == 0:
        raise ValueError(
            f"{name} has 0 feature(s) (shape={X.shape}) while a minimum of 1 is required. "
            f"Pass data with at least one column.")
    if not np.isfinite(X.data).all():
        raise ValueError(
            f"{name} must not contain NaN or infinity; got {int(np.isnan(X.data).sum())} NaN "
            f"and {int(np.isinf(X.data).sum())} infinite value(s) in the sparse matrix. "
            f"Remove or impute them first.")
    return X


def check_estimator_X(X, estimator_name):
    """Validate the ``X`` given to an estimator's ``fit`` or ``predict``.

    Dense, real, 2-D, at least one feature, finite; messages say what to do
    (and match the patterns scikit-learn's estimator checks look for).
    Returns ``X`` as float64.
    """
    if scipy.sparse.issparse(X):
        raise TypeError(
            f"X is a sparse matrix, but svmlib.{estimator_name} supports only dense input; "
            f"got {type(X).__name__}. Convert it with X.toarray().")
    if not isinstance(X, np.ndarray):
        try:
            X = np.asarray(X)
        except (TypeError, ValueError):
            pass  # check_array below explains what is wrong
    if isinstance(X, np.ndarray) and np.iscomplexobj(X):
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


def _given_X_and_y(X, y, estimator_name, check_X, what):
    """What every ``fit(X, y)`` checks first: ``y`` given, ``X`` valid, a column ``y`` raveled."""
    if y is None:
        raise ValueError(
            f"{estimator_name} requires y to be passed, but the target y is None. Call "
            f"fit(X, y) with {what}.")
    X = check_X(X) if check_X is not None else check_estimator_X(X, estimator_name)
    if not isinstance(y, np.ndarray):
        y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected. Please change "
            "the shape of y to (n_samples,), for example using ravel().",
            DataConversionWarning, stacklevel=4)   # the caller of fit
        y = np.ravel(y)
    return X, y


def check_estimator_X_y(X, y, estimator_name, check_X=None):
    """Validate ``(X, y)`` given to a classifier's ``fit``.

    ``y`` must be given, 1-D (a column vector is raveled with a
    DataConversionWarning), free of missing labels (None, NaN), and hold
    class labels (not continuous values).  ``check_X`` replaces
    :func:`check_estimator_X` for ``X``.  Returns ``(X, y)``, ``y`` as given
    (labels of any kind survive).
    """
    X, y = _given_X_and_y(X, y, estimator_name, check_X, "the class labels")
    if y.dtype == object:
        missing = [k for k, v in enumerate(y.ravel()) if v is None
                   or (isinstance(v, float) and np.isnan(v))]
        if missing:
            raise ValueError(
                f"y must hold a class label for every sample; got {len(missing)} missing "
                f"label(s) (None or NaN), the first at index {missing[0]}. Drop the "
                f"unlabelled samples (or give them a label) before fit.")
    X, y = check_X_y(X, y)
    target = type_of_target(y)
    if target in ("continuous", "continuous-multioutput"):
        raise ValueError(
            f"Unknown label type: {target}. y holds real numbers, but {estimator_name} needs "
            f"class labels; for regression use a regressor (e.g. sklearn.svm.SVR), or bin "
            f"the values.")
    if target == "unknown":
        raise ValueError(
            f"Unknown label type: y must hold class labels (numbers or strings of one "
            f"kind); got values of "
            f"type(s) {sorted({type(v).__name__ for v in y.ravel()})}. Encode the labels "
            f"with sklearn.preprocessing.LabelEncoder.")
    return X, y


def check_estimator_n_features(X, n_features, estimator_name):
    """Check that ``X`` has the number of features seen in ``fit`` (scikit-learn's wording)."""
    if X.shape[1] != n_features:
        raise ValueError(
            f"X has {X.shape[1]} features, but {estimator_name} is expecting {n_features} "
            f"features as input (as in fit). Pass data with the same columns as in fit.")
    return X


def check_estimator_X_y_regression(X, y, estimator_name, check_X=None):
    """Validate ``(X, y)`` given to a regressor's ``fit``.

    ``y`` must be given, 1-D (a column vector is raveled with a
    DataConversionWarning), numeric and finite.  ``check_X`` replaces
    :func:`check_estimator_X` for ``X``.  Returns ``(X, y)`` with ``y`` as
    float64.
    """
    X, y = _given_X_and_y(X, y, estimator_name, check_X, "the target values")
    if y.ndim != 1:
        raise ValueError(
            f"y must be a 1-D array of target values; got {_shape_text(y)}. {estimator_name} "
            f"predicts one number per sample: fit one model per output column.")
    if np.iscomplexobj(y):
        raise ValueError("Complex data not supported: y must be real; got complex numbers. "
                         "Pass y.real if the imaginary parts are zero.")
    try:
        y = y.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"y must hold numbers (the targets of a regression); got values that cannot be "
            f"converted to float ({exc}). For class labels use a classifier such as "
            f"svmlib.SVC.") from None
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"X and y must have the same number of samples; got X with "
            f"{X.shape[0]} rows and y with {y.shape[0]} values. "
            f"Check that they come from the same data set.")
    if not np.all(np.isfinite(y)):
        raise ValueError(
            f"y must not contain NaN or infinity; got {int(np.isnan(y).sum())} NaN and "
            f"{int(np.isinf(y).sum())} infinite value(s). Drop those samples or impute "
            f"their targets.")
    return X, y


def check_nu(value, name="nu"):
    """Check that ``nu`` is a real number in ``(0, 1]`` (as LIBSVM requires)."""
    ok = isinstance(value, Real) and not isinstance(value, bool)
    ok = ok and not np.isnan(value) and 0 < value <= 1
    if not ok:
        raise ValueError(
            f"{name} must be a number in (0, 1]; got {name}={value!r}. It bounds the "
            f"fraction of support vectors from below and of margin errors from above; use "
            f"a fraction such as {name}=0.5 (LIBSVM's message: 'nu <= 0 or nu > 1').")
    return float(value)


def check_nonnegative(value, name, hint=""):
    """Check that ``value`` is a finite real number >= 0."""
    ok = isinstance(value, Real) and not isinstance(value, bool)
    ok = ok and np.isfinite(value) and value >= 0
    if not ok:
        raise ValueError(
            f"{name} must be a finite number >= 0; got {name}={value!r}. "
            + (hint or f"Use a value such as {name}=0.1.")
        )
    return float(value)
