"""Margins and convex hulls of two labelled point sets.

Two computations that the chapters on the maximum margin and on the dual
draw in figures, kept here so that a reader can call and adapt them:

* :func:`margin_by_angle` -- for each direction of the normal, the best
  margin a hyperplane with that direction can reach and the offset that
  reaches it (Book: (eq-maxmin)); its maximum over the directions is the
  maximum margin, which makes it a brute-force check of the QP in the plane;
* :func:`closest_hull_points` -- the closest pair of points of the two
  classes' convex hulls, by a small QP (Book: (eq-hull-qp)); the
  maximum-margin hyperplane bisects the segment between them.

The figures built on them are :func:`svmlib.plotting.plot_margin_by_angle`
and :func:`svmlib.plotting.plot_hull_view`.
"""

import warnings

import numpy as np
from scipy import optimize

from ._validation import check_array, check_X_y

__all__ = ["margin_by_angle", "closest_hull_points"]


def _labels(X, y):
    X, y = check_X_y(X, y)
    y = np.asarray(y, dtype=float)
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"y must contain only the labels -1 and +1; got "
                         f"{np.unique(y)[:5].tolist()}. Map the classes to -1/+1 first.")
    return X, y


def margin_by_angle(X, y, angles):
    """The best margin of a hyperplane whose unit normal has a given angle.

    For the unit normal ``u = (cos t, sin t)`` the margin
    ``min_i y_i (<u, x_i> + b)`` is largest for
    ``b = -(min_{y_i=+1} <u, x_i> + max_{y_i=-1} <u, x_i>) / 2`` and equals
    ``(min_{y_i=+1} <u, x_i> - max_{y_i=-1} <u, x_i>) / 2``: half the gap
    between the classes along ``u`` (negative when they overlap along ``u``).
    Book: (eq-maxmin).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}; both classes must be present.
    angles : array-like of shape (n_angles,)
        Angles of the normal in degrees.

    Returns
    -------
    margins : ndarray of shape (n_angles,)
    biases : ndarray of shape (n_angles,)
        The best ``b`` for each angle (for the unit normal).
    """
    X, y = _labels(X, y)
    if X.shape[1] != 2:
        raise ValueError(f"X must have 2 columns (angles describe directions in the plane); "
                         f"got shape {X.shape}.")
    if not (np.any(y > 0) and np.any(y < 0)):
        raise ValueError("y must contain both classes -1 and +1 to define a margin.")
    theta = np.deg2rad(np.asarray(angles, dtype=float).ravel())
    U = np.column_stack([np.cos(theta), np.sin(theta)])      # (n_angles, 2)
    P = X @ U.T                                             # (n_samples, n_angles)
    low_pos = P[y > 0].min(axis=0)
    high_neg = P[y < 0].max(axis=0)
    return (low_pos - high_neg) / 2, -(low_pos + high_neg) / 2



def _labels_pm(y, n):
    y = np.asarray(y, dtype=float).ravel()
    if y.shape != (n,) or not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"y must hold one label in {{-1, +1}} per point ({n} points); got "
                         f"shape {y.shape} with values {np.unique(y)[:5].tolist()}. "
                         f"Map the classes to -1/+1 first.")
    if np.unique(y).shape[0] < 2:
        raise ValueError("y must contain both classes -1 and +1; got only one. The convex "
                         "hulls of two classes need points of both.")
    return y


def closest_hull_points(X, y, tol=1e-12):
    """The closest pair of points of the two classes' convex hulls.

    Solves (Book: (eq-hull-qp))::

        minimize over u    1/2 || sum_i y_i u_i x_i ||^2  =  1/2 u^T H u
        subject to         u_i >= 0,  sum_{y_i=+1} u_i = 1,  sum_{y_i=-1} u_i = 1,

    whose solution gives ``c_plus = sum_{y_i=+1} u_i x_i`` and ``c_minus =
    sum_{y_i=-1} u_i x_i``.  For separable data the hard-margin solution is
    ``alpha = 2 u / delta^2`` with ``delta = ||c_plus - c_minus||``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}, both present.
    tol : float, default=1e-12
        SLSQP's ``ftol``.

    Returns
    -------
    dict
        ``c_plus`` and ``c_minus`` (each of shape (n_features,)), ``u`` (shape
        (n_samples,), the convex weights; those of each class sum to 1),
        ``distance`` (``delta``; 0 when the hulls intersect) and ``alpha``
        (shape (n_samples,), ``2 u / delta^2``; ``None`` when ``delta`` is 0).
    """
    X = check_array(X, "X")
    y = _labels_pm(y, X.shape[0])
    pos, neg = y > 0, y < 0
    Z = y[:, None] * X
    H = Z @ Z.T
    u0 = np.where(pos, 1.0 / pos.sum(), 1.0 / neg.sum())
    constraints = [
        {"type": "eq", "fun": lambda u: u[pos].sum() - 1.0,
         "jac": lambda u: pos.astype(float)},
        {"type": "eq", "fun": lambda u: u[neg].sum() - 1.0,
         "jac": lambda u: neg.astype(float)},
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = optimize.minimize(lambda u: 0.5 * u @ H @ u, u0, jac=lambda u: H @ u,
                                method="SLSQP", bounds=[(0.0, None)] * X.shape[0],
                                constraints=constraints,
                                options={"ftol": tol, "maxiter": 1000})
    u = np.clip(res.x, 0.0, None)
    u[u < 1e-9] = 0.0
    u[pos] /= u[pos].sum()
    u[neg] /= u[neg].sum()
    c_plus, c_minus = u[pos] @ X[pos], u[neg] @ X[neg]
    distance = float(np.linalg.norm(c_plus - c_minus))
    alpha = 2.0 * u / distance ** 2 if distance > 1e-9 else None
    return {"c_plus": c_plus, "c_minus": c_minus, "u": u, "distance": distance,
            "alpha": alpha}
