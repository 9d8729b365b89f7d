"""Kernels and Gram matrices.

A kernel is a function ``k(x, z) = <phi(x), phi(z)>`` that computes an inner
product in a feature space without building ``phi``.  Every function here
takes two design matrices and returns the whole matrix of kernel values at
once, computed with matrix products (no Python loop over pairs):

``k(X, Z)[i, j] = k(x_i, z_j)``, an ndarray of shape (n_X, n_Z).

================  ==========================================  ============
name              formula                                     Book label
================  ==========================================  ============
``linear``        ``<x, z>``                                  eq-kernel-linear
``polynomial``    ``(gamma <x, z> + coef0) ** degree``        eq-kernel-poly
``rbf``           ``exp(-gamma ||x - z||^2)``                 eq-kernel-rbf
``sigmoid``       ``tanh(gamma <x, z> + coef0)``              (not always PSD)
================  ==========================================  ============

For the RBF kernel the book writes ``exp(-||x - z||^2 / (2 sigma^2))``, so
``gamma = 1 / (2 sigma^2)``.  The polynomial kernel of the book is
``(<x, z> + c) ** d`` (``gamma = 1``); scikit-learn and LIBSVM default to a
data-dependent ``gamma``, which :class:`svmlib.SVC` passes on to match them.

Defaults differ: :func:`polynomial` defaults to ``coef0=1`` (the book's
inhomogeneous kernel, all monomials up to the degree), while
``SVC(kernel="poly")`` defaults to ``coef0=0``, as scikit-learn and LIBSVM
do (the homogeneous kernel, monomials of exactly the degree), and to
``gamma="scale"``.  To get the book's kernel from ``SVC`` pass
``SVC(kernel="poly", coef0=1.0, gamma=1.0)``.

A function is a valid (Mercer) kernel when it is symmetric and every Gram
matrix it produces is positive semidefinite; :func:`is_psd` checks the
second condition on a given matrix.  The SVM's dual asks for less: because
of its constraint ``sum_i alpha_i y_i = 0`` only the quadratic form on
vectors whose entries sum to zero matters, and
:func:`is_conditionally_psd` checks that weaker property (Book:
``sec-kern-cpd``).  :func:`sigmoid` (LIBSVM's and scikit-learn's
``kernel="sigmoid"``) is *not* a valid kernel for every ``gamma`` and
``coef0``: it is offered because LIBSVM offers it, and an SVM trained with
it solves a dual that may not be concave.

The explicit feature maps ``phi`` behind some of these kernels, and the
linear SVM fitted on the mapped points, are in :mod:`svmlib.feature_maps`.
"""

from numbers import Real

import numpy as np
import scipy.sparse

from ._validation import check_array, check_int, check_sparse

__all__ = [
    "linear",
    "polynomial",
    "rbf",
    "sigmoid",
    "squared_distances",
    "gram_matrix",
    "is_psd",
    "zero_sum_eigenvalues",
    "is_conditionally_psd",
    "get_kernel",
    "BoundKernel",
    "resolve_gamma",
    "KERNELS",
]


#: A sparse matrix with at most this many entries (zeros included; 32 MB
#: dense) is turned dense before its kernel values are computed: the values
#: are then those of the same points given dense, to the last bit, so that a
#: fit on sparse input gives the model of the dense input (as in LIBSVM, whose
#: dense and sparse code do the same arithmetic).  Larger ones are multiplied
#: as sparse matrices.
SMALL_SPARSE_ENTRIES = 2**22


def _points(X, name):
    """Validate points: a dense float64 array, or a CSR matrix if ``X`` is a
    sparse matrix too large to be made dense (see ``SMALL_SPARSE_ENTRIES``)."""
    if scipy.sparse.issparse(X):
        X = check_sparse(X, name)
        if X.shape[0] * X.shape[1] <= SMALL_SPARSE_ENTRIES:
            return X.toarray()
        return X
    return check_array(X, name)


def _check_pair(X, Z):
    """Validate ``X`` and ``Z`` (``Z=None`` means ``Z = X``); each may be sparse."""
    X = _points(X, "X")
    if Z is None:
        return X, X
    Z = _points(Z, "Z")
    if Z.shape[1] != X.shape[1]:
        raise ValueError(
            f"X and Z must have the same number of features; got X with "
            f"{X.shape[1]} and Z with {Z.shape[1]} columns. Pass points from "
            f"the same space (for one point use z.reshape(1, -1))."
        )
    return X, Z


def _check_real(value, name, minimum=None, strict=False, hint=""):
    ok = isinstance(value, Real) and not isinstance(value, bool) and np.isfinite(value)
    if ok and minimum is not None:
        ok = value > minimum if strict else value >= minimum
    if not ok:
        bound = ""
        if minimum is not None:
            bound = f" {'>' if strict else '>='} {minimum}"
        raise ValueError(
            f"{name} must be a finite number{bound}; got {name}={value!r}. "
            + (hint or "Pass a plain float.")
        )
    return float(value)


def _check_gamma(gamma):
    return _check_real(
        gamma, "gamma", 0, strict=True,
        hint="Use a positive value such as gamma=1.0, or gamma='scale' in "
             "get_kernel/SVC to let the data choose it.",
    )


def _inner(X, Z):
    """All inner products ``<x_i, z_j>`` as a dense array (either may be sparse)."""
    product = X @ Z.T
    if scipy.sparse.issparse(product):
        return product.toarray()
    return np.asarray(product)


def _squared_norms(X):
    """``||x_i||^2`` of every row (dense or sparse)."""
    if scipy.sparse.issparse(X):
        return np.asarray(X.multiply(X).sum(axis=1), dtype=np.float64).ravel()
    return np.einsum("ij,ij->i", X, X)


# ----------------------------------------------------------------- kernels
def linear(X, Z=None):
    """The linear kernel ``k(x, z) = <x, z>``.

    Book: (eq-kernel-linear).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples_X, n_features)
    Z : array-like or sparse matrix of shape (n_samples_Z, n_features), default=None
        ``None`` means ``Z = X``.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Z)
    """
    X, Z = _check_pair(X, Z)
    return _inner(X, Z)


def polynomial(X, Z=None, degree=3, coef0=1.0, gamma=1.0):
    """The polynomial kernel ``k(x, z) = (gamma <x, z> + coef0) ** degree``.

    With the default ``gamma=1`` this is the book's ``(<x, z> + c) ** d``.

    The defaults are the book's, not scikit-learn's: here ``coef0=1.0`` and
    ``gamma=1.0``, while ``SVC(kernel="poly")`` (like ``sklearn.svm.SVC``)
    defaults to ``coef0=0.0`` and ``gamma="scale"``.  Pass both explicitly
    when you compare the two.

    Book: (eq-kernel-poly).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples_X, n_features)
    Z : array-like or sparse matrix of shape (n_samples_Z, n_features), default=None
        ``None`` means ``Z = X``.
    degree : int, default=3
        The degree ``p >= 1``.
    coef0 : float, default=1.0
        The constant ``c >= 0``; ``c = 0`` gives the homogeneous kernel.
    gamma : float, default=1.0
        Scale of the inner product (scikit-learn's ``gamma``).

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Z)
    """
    X, Z = _check_pair(X, Z)
    degree = check_int(degree, "degree", minimum=1)
    coef0 = _check_real(coef0, "coef0", hint="Pass a float such as coef0=1.0.")
    gamma = _check_gamma(gamma)
    return (gamma * _inner(X, Z) + coef0) ** degree


def squared_distances(X, Z=None):
    """All squared Euclidean distances ``||x_i - z_j||^2``.

    Computed as ``||x||^2 + ||z||^2 - 2 <x, z>`` and clipped at 0 (rounding
    can make the expression slightly negative for nearly equal points).

    Returns
    -------
    D2 : ndarray of shape (n_samples_X, n_samples_Z)
    """
    X, Z = _check_pair(X, Z)
    x_sq = _squared_norms(X)
    z_sq = x_sq if Z is X else _squared_norms(Z)
    D2 = x_sq[:, None] + z_sq[None, :] - 2.0 * _inner(X, Z)
    np.maximum(D2, 0.0, out=D2)
    if Z is X:
        np.fill_diagonal(D2, 0.0)
    return D2


def rbf(X, Z=None, gamma=1.0):
    """The Gaussian (RBF) kernel ``k(x, z) = exp(-gamma ||x - z||^2)``.

    The book writes ``exp(-||x - z||^2 / (2 sigma^2))``: ``gamma = 1 / (2
    sigma^2)``, so a small ``sigma`` (large ``gamma``) makes a narrow bump.

    Book: (eq-kernel-rbf).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples_X, n_features)
    Z : array-like or sparse matrix of shape (n_samples_Z, n_features), default=None
        ``None`` means ``Z = X``.
    gamma : float, default=1.0
        The width parameter, ``> 0``.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Z)
        Entries in (0, 1], with 1 where ``x = z``.
    """
    gamma = _check_gamma(gamma)
    return np.exp(-gamma * squared_distances(X, Z))


def sigmoid(X, Z=None, gamma=1.0, coef0=0.0):
    """The sigmoid (hyperbolic tangent) function ``k(x, z) = tanh(gamma <x, z> + coef0)``.

    LIBSVM's and scikit-learn's ``kernel="sigmoid"`` (the activation of a
    two-layer neural network).  **It is not always a kernel**: its Gram
    matrices are not positive semidefinite for many ``gamma`` and ``coef0``
    (e.g. ``k(x, x) = tanh(gamma ||x||^2 + coef0)`` is negative for
    ``coef0 < -gamma ||x||^2``, impossible for a kernel; Lin & Lin (2003)
    study for which ``gamma`` and ``coef0`` it behaves like one).
    An SVM with it solves a dual that may not be convex: SMO still stops at
    a point where its KKT conditions hold (its curvature guard ``TAU``
    replaces a non-positive ``K_ii + K_jj - 2 K_ij``, as LIBSVM does), which
    need not be a global optimum.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples_X, n_features)
    Z : array-like or sparse matrix of shape (n_samples_Z, n_features), default=None
        ``None`` means ``Z = X``.
    gamma : float, default=1.0
        Scale of the inner product, ``> 0``.
    coef0 : float, default=0.0
        The shift inside ``tanh``.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Z)
        Entries in (-1, 1).
    """
    X, Z = _check_pair(X, Z)
    coef0 = _check_real(coef0, "coef0", hint="Pass a float such as coef0=0.0.")
    gamma = _check_gamma(gamma)
    return np.tanh(gamma * _inner(X, Z) + coef0)


KERNELS = {"linear": linear, "poly": polynomial, "polynomial": polynomial, "rbf": rbf,
           "sigmoid": sigmoid}


# ------------------------------------------------------- kernel machinery
def resolve_gamma(gamma, X):
    """Turn ``gamma`` into a number, as scikit-learn does.

    Parameters
    ----------
    gamma : {"scale", "auto"} or float
        ``"scale"`` gives ``1 / (n_features * X.var())`` (1.0 if the variance
        is 0), ``"auto"`` gives ``1 / n_features``; a number is returned as is.
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The training data.

    Returns
    -------
    float
    """
    if isinstance(gamma, str):
        X = _points(X, "X")
        n_features = X.shape[1]
        if gamma == "scale":
            # A small sparse X is dense here (the variance of the same points
            # given dense, to the last bit); a large one gives E[X^2] - E[X]^2,
            # as scikit-learn computes it for sparse input.
            if scipy.sparse.issparse(X):
                var = float(X.multiply(X).mean() - X.mean() ** 2)
            else:
                var = float(X.var())
            return 1.0 / (n_features * var) if var > 0 else 1.0
        if gamma == "auto":
            return 1.0 / n_features
        raise ValueError(
            f"gamma must be 'scale', 'auto' or a number > 0; got gamma={gamma!r}. "
            f"Use gamma='scale' (scikit-learn's default) or a float."
        )
    return _check_gamma(gamma)


def get_kernel(kernel, **params):
    """Return the kernel ``kernel`` as a callable ``k(X, Z)`` with ``params`` fixed.

    Parameters
    ----------
    kernel : {"linear", "poly", "polynomial", "rbf", "sigmoid"} or callable
        A name from ``KERNELS``, or a function ``k(X, Z, **params)``
        returning an ndarray of shape (n_samples_X, n_samples_Z).
    **params
        Keyword arguments for the kernel: ``gamma`` (rbf, poly, sigmoid),
        ``degree`` (poly) and ``coef0`` (poly, sigmoid).  Parameters that the chosen named kernel does
        not use are ignored, so ``get_kernel(name, gamma=.., degree=..,
        coef0=..)`` works for every name (as in ``SVC``).  ``gamma`` must be a
        number here; use :func:`resolve_gamma` for ``"scale"``/``"auto"``.

    Returns
    -------
    callable
        ``k(X, Z=None)`` returning ndarray of shape (n_samples_X, n_samples_Z).
    """
    if callable(kernel):
        if not params:
            return kernel
        return BoundKernel(kernel, params, fill_z=True)
    if not isinstance(kernel, str) or kernel not in KERNELS:
        raise ValueError(
            f"kernel must be one of {sorted(KERNELS)!r} or a callable k(X, Z); "
            f"got kernel={kernel!r}. Pick a listed name or pass a function."
        )
    if isinstance(params.get("gamma"), str):
        raise ValueError(
            f"gamma must be a number in get_kernel; got gamma={params['gamma']!r}. "
            f"Resolve it first with resolve_gamma(gamma, X_train)."
        )
    accepted = {"linear": (), "rbf": ("gamma",), "poly": ("degree", "coef0", "gamma"),
                "polynomial": ("degree", "coef0", "gamma"), "sigmoid": ("gamma", "coef0")}[kernel]
    kept = {key: value for key, value in params.items() if key in accepted}
    unknown = set(params) - {"gamma", "degree", "coef0"}
    if unknown:
        raise ValueError(
            f"get_kernel got unknown parameter(s) {sorted(unknown)!r}; the "
            f"built-in kernels take gamma, degree and coef0."
        )
    func = KERNELS[kernel]
    # Validate the parameters now, on a tiny input, so errors surface early.
    func(np.zeros((1, 1)), **kept)
    return BoundKernel(func, kept, name=kernel)


class BoundKernel:
    """A kernel function with its parameters fixed: ``k(X, Z=None)``.

    What :func:`get_kernel` returns.  A plain object (not a closure), so it
    can be pickled (and a fitted estimator that keeps one can be saved or
    sent to joblib workers) whenever the wrapped function can.

    Attributes
    ----------
    func : callable
    params : dict
        The fixed keyword arguments.
    __name__ : str
        The kernel's name ("linear", "rbf", ... or the function's name).
    """

    def __init__(self, func, params, name=None, fill_z=False):
        self.func = func
        self.params = dict(params)
        self.fill_z = fill_z
        self.__name__ = name or getattr(func, "__name__", "kernel")

    def __call__(self, X, Z=None):
        if self.fill_z and Z is None:
            Z = X
        return self.func(X, Z, **self.params)

    def __repr__(self):
        args = ", ".join(f"{key}={value!r}" for key, value in self.params.items())
        return f"<kernel {self.__name__}({args})>"


def gram_matrix(kernel, X, **params):
    """The Gram matrix ``K[i, j] = k(x_i, x_j)`` of the rows of ``X``.

    Parameters
    ----------
    kernel : str or callable
        As in :func:`get_kernel`.
    X : array-like of shape (n_samples, n_features)
    **params
        Passed to :func:`get_kernel`; ``gamma="scale"``/``"auto"`` is resolved
        on ``X``.

    Returns
    -------
    K : ndarray of shape (n_samples, n_samples)
    """
    X = check_array(X, "X")
    if isinstance(params.get("gamma"), str):
        params["gamma"] = resolve_gamma(params["gamma"], X)
    K = np.asarray(get_kernel(kernel, **params)(X, X), dtype=np.float64)
    if K.shape != (X.shape[0], X.shape[0]):
        raise ValueError(
            f"the kernel must return a matrix of shape (n_X, n_Z); got "
            f"{K.shape} for {X.shape[0]} samples. Check your kernel function."
        )
    return K


def is_psd(K, tol=1e-10):
    """Whether ``K`` is symmetric positive semidefinite (up to ``tol``).

    Checks symmetry and that the smallest eigenvalue is ``>= -tol * max(1,
    largest |eigenvalue|)`` (a relative tolerance, since rounding errors grow
    with the size of the entries).

    Parameters
    ----------
    K : array-like of shape (n, n)
    tol : float, default=1e-10

    Returns
    -------
    bool
    """
    K = check_array(K, "K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(
            f"K must be a square matrix; got shape {K.shape}. Pass a Gram "
            f"matrix k(X, X)."
        )
    tol = _check_real(tol, "tol", 0, hint="Use a small tolerance such as tol=1e-10.")
    scale = max(1.0, float(np.max(np.abs(K))))
    if not np.allclose(K, K.T, rtol=0.0, atol=tol * scale):
        return False
    eigenvalues = np.linalg.eigvalsh((K + K.T) / 2)
    return bool(eigenvalues[0] >= -tol * max(scale, float(np.max(np.abs(eigenvalues)))))


def zero_sum_eigenvalues(K):
    """Eigenvalues of the quadratic form of ``K`` on the vectors that sum to 0.

    These are the eigenvalues of ``B.T @ K @ B``, where the ``n - 1`` columns
    of ``B`` are an orthonormal basis of ``{c : sum_i c_i = 0}``.  The form
    ``c.T K c`` is non-negative for every such ``c`` exactly when the smallest
    of them is ``>= 0``: ``K`` is then *conditionally* positive semidefinite,
    which is all the SVM's dual needs (Book: ``eq-kern-cpd``).

    Parameters
    ----------
    K : array-like of shape (n, n), symmetric, n >= 2

    Returns
    -------
    ndarray of shape (n - 1,), ascending
    """
    K = check_array(K, "K")
    if K.shape[0] != K.shape[1] or K.shape[0] < 2:
        raise ValueError(
            f"K must be a square matrix of at least 2 points; got shape {K.shape}. "
            f"Pass a Gram matrix k(X, X).")
    n = K.shape[0]
    # A Householder reflection that sends 1 / sqrt(n) to the first unit
    # vector; its other n - 1 columns span the vectors with zero sum.
    v = np.full(n, 1.0 / np.sqrt(n))
    v[0] -= 1.0
    H = np.eye(n) - 2.0 * np.outer(v, v) / (v @ v)
    B = H[:, 1:]
    S = B.T @ ((K + K.T) / 2) @ B
    return np.linalg.eigvalsh((S + S.T) / 2)


def is_conditionally_psd(K, tol=1e-10):
    """Whether ``K`` is symmetric and ``c.T K c >= 0`` whenever ``sum(c) == 0``.

    Every positive semidefinite matrix passes; so do the Gram matrices of
    conditionally positive definite functions such as ``<x, z> - 1`` and
    ``-||x - z||``, with which the SVM's dual is still concave (Book:
    ``sec-kern-cpd``).  The tolerance is relative, as in :func:`is_psd`.

    Parameters
    ----------
    K : array-like of shape (n, n)
    tol : float, default=1e-10

    Returns
    -------
    bool
    """
    K = check_array(K, "K")
    tol = _check_real(tol, "tol", 0, hint="Use a small tolerance such as tol=1e-10.")
    scale = max(1.0, float(np.max(np.abs(K))))
    if K.shape[0] == K.shape[1] and not np.allclose(K, K.T, rtol=0.0, atol=tol * scale):
        return False
    eigenvalues = zero_sum_eigenvalues(K)
    return bool(eigenvalues[0] >= -tol * max(scale, float(np.max(np.abs(eigenvalues)))))
