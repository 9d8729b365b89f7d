"""Explicit feature maps, and the linear SVM fitted on the mapped points.

A feature map ``phi`` sends a point to a space where a hyperplane can do what
no line could in the original one: the route of the kernels chapter before
the kernel trick (map first, then fit a linear SVM).  Each map here is the
``phi`` of a kernel in :mod:`svmlib.kernels` or of a figure of the chapter:

* :func:`quadratic_feature_map`, points of the plane, ``<phi(x), phi(z)> =
  <x, z>^2`` (Book: (eq-quadratic-map));
* :func:`all_products_feature_map`, any dimension, ``<x, z>^2`` again
  (Book: (eq-all-products-map));
* :func:`polynomial_feature_map`, ``(<x, z> + c)^2`` (Book: (eq-poly-map));
* :func:`paraboloid_feature_map` and :func:`conic_feature_map`, points of the
  plane, under which circles and conics become planes (Book:
  (eq-kern-circle-anywhere), (eq-kern-conic)).

:func:`fit_lifted_plane` fits the maximum-margin hyperplane to mapped points
with a linear :class:`svmlib.SVC`; this module therefore sits above the
estimators, while :mod:`svmlib.kernels` sits below them.
"""

import numpy as np

from ._validation import check_array, check_nonnegative, check_X_y
from .svc import SVC

__all__ = [
    "quadratic_feature_map",
    "all_products_feature_map",
    "polynomial_feature_map",
    "paraboloid_feature_map",
    "conic_feature_map",
    "fit_lifted_plane",
]


def quadratic_feature_map(X):
    """``phi(x1, x2) = (x1^2, x2^2, sqrt(2) x1 x2)``, a map from R^2 to R^3.

    It satisfies ``<phi(x), phi(z)> = <x, z>^2``: the homogeneous polynomial
    kernel of degree 2.  Circles centred at the origin become planes.

    Book: (eq-quadratic-map).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)

    Returns
    -------
    ndarray of shape (n_samples, 3)
    """
    X = check_array(X, "X")
    if X.shape[1] != 2:
        raise ValueError(
            f"quadratic_feature_map is defined for points in the plane; got X "
            f"with {X.shape[1]} columns. Use all_products_feature_map or "
            f"polynomial_feature_map for other dimensions."
        )
    x1, x2 = X[:, 0], X[:, 1]
    return np.column_stack([x1 ** 2, x2 ** 2, np.sqrt(2.0) * x1 * x2])


def all_products_feature_map(X):
    """All ordered products ``x_i x_j`` (i, j = 1..m), a map from R^m to R^(m^2).

    Coordinate ``i * m + j`` is ``x_i x_j``.  It satisfies
    ``<phi(x), phi(z)> = <x, z>^2`` and costs O(m^2) where the kernel costs O(m).

    Book: (eq-all-products-map).

    Parameters
    ----------
    X : array-like of shape (n_samples, m)

    Returns
    -------
    ndarray of shape (n_samples, m * m)
    """
    X = check_array(X, "X")
    n, m = X.shape
    return (X[:, :, None] * X[:, None, :]).reshape(n, m * m)


def polynomial_feature_map(X, c=1.0):
    """The feature map of the kernel ``(<x, z> + c)^2``.

    Coordinates: all ordered products ``x_i x_j`` (m^2 of them), then
    ``sqrt(2c) x_i`` (m of them), then the constant ``c``: ``m^2 + m + 1``
    coordinates, 13 for m = 3.  It satisfies
    ``<phi(x), phi(z)> = (<x, z> + c)^2``.

    Book: (eq-poly-map).

    Parameters
    ----------
    X : array-like of shape (n_samples, m)
    c : float, default=1.0
        The constant of the kernel, ``>= 0``.

    Returns
    -------
    ndarray of shape (n_samples, m * m + m + 1)
    """
    X = check_array(X, "X")
    c = check_nonnegative(c, "c", hint="The map needs sqrt(2c): use c >= 0, e.g. c=1.0.")
    n = X.shape[0]
    return np.hstack([
        all_products_feature_map(X),
        np.sqrt(2.0 * c) * X,
        np.full((n, 1), c),
    ])


def paraboloid_feature_map(X):
    """``phi(x1, x2) = (x1, x2, x1^2 + x2^2)``: lift the plane onto a paraboloid.

    A circle anywhere in the plane, ``(x1 - a)^2 + (x2 - c)^2 = r^2``, is
    ``x1^2 + x2^2 - 2a x1 - 2c x2 + a^2 + c^2 - r^2 = 0``: a plane in these
    coordinates.  It is the map ``(x1, x2, x1^2, x2^2)`` of the chapter with
    the last two coordinates added up.  Book: (eq-kern-circle-anywhere).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)

    Returns
    -------
    ndarray of shape (n_samples, 3)
    """
    X = check_array(X, "X")
    if X.shape[1] != 2:
        raise ValueError(f"paraboloid_feature_map maps points of the plane; got X with "
                         f"{X.shape[1]} columns. Pass an array of shape (n, 2).")
    return np.column_stack([X[:, 0], X[:, 1], X[:, 0] ** 2 + X[:, 1] ** 2])


def conic_feature_map(X, cross_term=True):
    """All monomials of degree 1 and 2 of a point in the plane.

    ``(x1, x2, x1^2, x2^2, x1 x2)`` (five coordinates), or without the cross
    term ``x1 x2`` (four coordinates).  Every conic section, in particular
    every ellipse, is a hyperplane in the five coordinates; the four without
    ``x1 x2`` suffice for circles and for ellipses whose axes are parallel
    to the coordinate axes.  Book: (eq-kern-conic).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    cross_term : bool, default=True
        Include ``x1 x2``.

    Returns
    -------
    ndarray of shape (n_samples, 5) or (n_samples, 4)
    """
    X = check_array(X, "X")
    if X.shape[1] != 2:
        raise ValueError(f"conic_feature_map maps points of the plane; got X with "
                         f"{X.shape[1]} columns. Pass an array of shape (n, 2).")
    x1, x2 = X[:, 0], X[:, 1]
    columns = [x1, x2, x1 ** 2, x2 ** 2] + ([x1 * x2] if cross_term else [])
    return np.column_stack(columns)


def fit_lifted_plane(Z, y, C=np.inf, tol=1e-6):
    """The maximum-margin hyperplane ``<w, z> + b = 0`` of lifted points.

    A linear :class:`svmlib.SVC` on the feature vectors ``Z = phi(X)``: the
    explicit-map route of the kernels chapter (map first, then fit a linear
    SVM), e.g. with :func:`quadratic_feature_map` or :func:`conic_feature_map`.

    Parameters
    ----------
    Z : array-like of shape (n_samples, D)
        The points after the feature map.
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    C : float, default=np.inf
        ``np.inf`` for the hard margin; raises
        :class:`svmlib.NotSeparableError` when no hyperplane
        separates ``Z``.  A finite ``C`` gives the soft-margin plane.
    tol : float, default=1e-6
        Tolerance of the solver.

    Returns
    -------
    w : ndarray of shape (D,)
    b : float
    """
    Z, y = check_X_y(Z, y)
    y = np.asarray(y, dtype=float).ravel()
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"y must hold one label in {{-1, +1}} per point; got values "
                         f"{np.unique(y)[:5].tolist()}. Map the two classes to -1 and +1.")
    model = SVC(kernel="linear", C=C, tol=tol).fit(Z, y)
    return model.coef_[0].copy(), float(model.intercept_[0])
