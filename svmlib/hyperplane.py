"""Hyperplanes: the geometry every linear classifier is built on.

A hyperplane in ``p`` dimensions is the set

.. math::

    H = \\{x \\in \\mathbb{R}^p : \\langle w, x \\rangle + b = 0\\},
    \\qquad w \\neq 0,

a point when ``p = 1``, a line when ``p = 2``, a plane when ``p = 3``.
The vector ``w`` is orthogonal to ``H`` and the score
``h(x) = <w, x> + b`` tells on which side of ``H`` a point lies.  Dividing
the score by ``||w||`` turns it into the signed distance of ``x`` from ``H``.

Book: chapter ``ch-hyperplanes``, equations (eq-hyperplane), (eq-unit-normal),
(eq-projection), (eq-signed-distance), (eq-distance-origin),
(eq-slope-intercept), (eq-separating); the geometric margin is
(eq-geometric-margin) of chapter ``ch-maximum-margin``.
"""

from numbers import Real

import numpy as np

from ._validation import check_array, check_X_y

__all__ = ["Hyperplane"]


class Hyperplane:
    """The hyperplane ``{x : <w, x> + b = 0}``.

    Book: (eq-hyperplane).

    Parameters
    ----------
    w : array-like of shape (n_features,)
        The normal vector.  Must be finite and not all zero.
    b : float, default=0.0
        The offset (bias).  Many texts write ``beta`` and ``beta_0`` for
        ``w`` and ``b``.

    Attributes
    ----------
    w : ndarray of shape (n_features,)
        A copy of the normal vector, float64.
    b : float
        The offset.

    Notes
    -----
    ``(w, b)`` and ``(lam * w, lam * b)`` describe the same set for any
    ``lam != 0``; for ``lam > 0`` they also agree on which side is positive,
    so signed distances, the unit normal, projections and the geometric
    margin are unchanged.  Only the score ``h(x)`` scales with ``lam``.

    Examples
    --------
    >>> H = Hyperplane([3.0, 4.0], -5.0)
    >>> H.signed_distance([[3.0, 4.0]]).round(6).tolist()
    [4.0]
    >>> H.project([[3.0, 4.0]]).round(6).tolist()
    [[0.6, 0.8]]
    """

    def __init__(self, w, b=0.0):
        w = check_array(w, "w", ndim=1)
        if not np.any(w != 0):
            raise ValueError(
                f"w must be a nonzero vector (it is the normal of the "
                f"hyperplane); got w={w.tolist()!r}. With w = 0 the set "
                f"<w, x> + b = 0 is empty or the whole space: pick a w with at "
                f"least one nonzero entry."
            )
        if isinstance(b, np.ndarray) and b.size == 1:
            b = b.item()
        if not isinstance(b, Real) or isinstance(b, bool) or not np.isfinite(b):
            raise ValueError(
                f"b must be a finite real number; got b={b!r}. Pass a float "
                f"such as b=0.0 (use b=float(intercept[0]) for an "
                f"intercept array of shape (1,))."
            )
        self.w = w.copy()
        self.b = float(b)

    # ----------------------------------------------------------------- basics
    @property
    def n_features(self):
        """int : the dimension of the ambient space."""
        return self.w.shape[0]

    @property
    def norm(self):
        """float : the Euclidean norm ``||w||``."""
        return float(np.linalg.norm(self.w))

    @property
    def normal(self):
        """ndarray of shape (n_features,) : the unit normal ``w / ||w||``.

        It points to the side where ``h(x) > 0``.  Book: (eq-unit-normal).
        """
        return self.w / self.norm

    @property
    def distance_from_origin(self):
        """float : ``|b| / ||w||``, the distance of the hyperplane from 0.

        Book: (eq-distance-origin).
        """
        return abs(self.b) / self.norm

    def __repr__(self):
        w = np.array2string(self.w, precision=4, separator=", ")
        return f"Hyperplane(w={w}, b={self.b:.4g})"

    def __eq__(self, other):
        """Two hyperplanes are equal when they are the same oriented set."""
        if not isinstance(other, Hyperplane) or other.n_features != self.n_features:
            return NotImplemented
        a = np.append(self.w, self.b) / self.norm
        c = np.append(other.w, other.b) / other.norm
        return bool(np.allclose(a, c, rtol=1e-9, atol=1e-12))

    __hash__ = None

    def _check_X(self, X):
        X = check_array(X, "X")
        if X.shape[1] != self.n_features:
            raise ValueError(
                f"X must have {self.n_features} columns, one per coordinate of "
                f"w; got X with shape {X.shape}. Pass points of the same "
                f"dimension as the hyperplane (use X.reshape(1, -1) for a "
                f"single point)."
            )
        return X

    # -------------------------------------------------------------- formulas
    def decision_function(self, X):
        """The score ``h(x) = <w, x> + b`` of every row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = self._check_X(X)
        return X @ self.w + self.b

    def predict(self, X):
        """The decision rule ``sign h(x)``: +1 where ``h(x) > 0``, else -1.

        Points exactly on the hyperplane get -1, as in scikit-learn.
        Book: (eq-decision-rule).

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels in {-1, +1}.
        """
        return np.where(self.decision_function(X) > 0, 1, -1)

    def signed_distance(self, X):
        """The signed distance ``r(x) = (<w, x> + b) / ||w||``.

        Positive on the side ``w`` points to.  Book: (eq-signed-distance).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self.decision_function(X) / self.norm

    def distance(self, X):
        """The (unsigned) Euclidean distance ``|r(x)|`` from the hyperplane.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return np.abs(self.signed_distance(X))

    def project(self, X):
        """The orthogonal projection onto the hyperplane.

        ``pi(x) = x - (<w, x> + b) / <w, w> * w``, the point of ``H`` closest
        to ``x``.  Book: (eq-projection).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        X = self._check_X(X)
        step = (X @ self.w + self.b) / (self.w @ self.w)
        return X - step[:, None] * self.w[None, :]

    def point(self):
        """The point of ``H`` closest to the origin, ``-b w / ||w||^2``.

        Returns
        -------
        ndarray of shape (n_features,)
        """
        return -self.b * self.w / (self.w @ self.w)

    def functional_margin(self, X, y):
        """The functional margins ``y_i h(x_i)`` (scale with ``w``).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X, y = self._check_X_y(X, y)
        return y * (X @ self.w + self.b)

    def separates(self, X, y):
        """Whether ``y_i h(x_i) > 0`` for every sample (strictly).

        Book: (eq-separating).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Labels in {-1, +1}.

        Returns
        -------
        bool
        """
        return bool(np.all(self.functional_margin(X, y) > 0))

    def geometric_margin(self, X, y):
        """The smallest signed distance to the right side, ``min_i y_i r(x_i)``.

        Positive exactly when the hyperplane separates the data; then it is
        the distance from the hyperplane to the closest point.
        Book: (eq-geometric-margin).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Labels in {-1, +1}.

        Returns
        -------
        float
        """
        return float(np.min(self.functional_margin(X, y)) / self.norm)

    def _check_X_y(self, X, y):
        X, y = check_X_y(X, y)
        X = self._check_X(X)
        y = np.asarray(y)
        if y.dtype.kind not in "iuf" or not np.all(np.isin(y, (-1, 1))):
            raise ValueError(
                f"y must contain only the labels -1 and +1; got the values "
                f"{np.unique(y).tolist()[:10]!r}. Map your two classes to "
                f"-1/+1 first, e.g. y = np.where(y == positive_class, 1, -1)."
            )
        return X, y.astype(np.float64)

    # ---------------------------------------------------------- constructors
    @classmethod
    def from_slope_intercept(cls, m, c):
        """The line ``x2 = m x1 + c`` as the hyperplane ``w = (m, -1)``, ``b = c``.

        The positive side (``h > 0``) lies *below* the line.
        Book: (eq-slope-intercept).

        Parameters
        ----------
        m : float
            The slope.
        c : float
            The intercept with the ``x2`` axis.

        Returns
        -------
        Hyperplane
        """
        for name, value in (("m", m), ("c", c)):
            if not isinstance(value, Real) or isinstance(value, bool) or not np.isfinite(value):
                raise ValueError(
                    f"{name} must be a finite real number; got {name}={value!r}. "
                    f"A vertical line x1 = a has no slope: use "
                    f"Hyperplane([1.0, 0.0], -a) instead."
                )
        return cls(np.array([float(m), -1.0]), float(c))

    @classmethod
    def from_point_normal(cls, point, normal):
        """The hyperplane through ``point`` with normal ``normal``.

        ``b = -<normal, point>``.

        Returns
        -------
        Hyperplane
        """
        point = check_array(point, "point", ndim=1)
        normal = check_array(normal, "normal", ndim=1)
        if point.shape != normal.shape:
            raise ValueError(
                f"point and normal must have the same length; got "
                f"{point.shape[0]} and {normal.shape[0]}. Pass two vectors of "
                f"the same dimension."
            )
        return cls(normal, -float(normal @ point))

    def to_slope_intercept(self):
        """``(m, c)`` with ``x2 = m x1 + c`` for a line in the plane.

        Raises
        ------
        ValueError
            If the hyperplane is not a line in 2-D or is vertical
            (``w[1] == 0``).
        """
        if self.n_features != 2 or self.w[1] == 0:
            raise ValueError(
                f"to_slope_intercept needs a non-vertical line in the plane "
                f"(2 features and w[1] != 0); got {self!r}. Use w and b "
                f"directly for other hyperplanes."
            )
        return float(-self.w[0] / self.w[1]), float(-self.b / self.w[1])
