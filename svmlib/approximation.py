"""Kernels approximated by explicit features: random Fourier features and Nyström.

A kernel SVM on ``n`` points works with the ``n x n`` Gram matrix ``K``.  If
instead we had a map ``z: R^p -> R^D`` with ``<z(x), z(x')> ~ k(x, x')``, a
*linear* SVM on ``z(x)`` (:class:`svmlib.LinearSVC`) would approximate the
kernel SVM at a cost linear in ``n``.  Two such maps:

* :class:`RandomFourierFeatures` (Rahimi & Recht 2007) for the RBF kernel
  ``k(x, x') = exp(-gamma ||x - x'||^2)``.  By Bochner's theorem the kernel is
  the expectation ``E[2 cos(<omega, x> + beta) cos(<omega, x'> + beta)]`` with
  ``omega ~ N(0, 2 gamma I)`` and ``beta ~ U[0, 2 pi]`` (Book:
  (eq-scale-bochner), (eq-scale-rff)); ``D`` samples give
  ``z(x) = sqrt(2/D) cos(Omega^T x + beta)``, whose inner products are
  averages of ``D`` independent terms: the error shrinks like ``1/sqrt(D)``.
* :class:`Nystroem` (Williams & Seeger 2001) for any kernel: pick ``m``
  landmarks ``L``, and use ``z(x) = K_mm^{-1/2} k(L, x)``, so that
  ``Z Z^T = K_nm K_mm^+ K_mn``: the Gram matrix of the feature vectors
  ``phi(x_i)`` projected orthogonally onto the span of the landmarks'
  ``phi(l_1), ..., phi(l_m)`` (Book: (eq-scale-nystroem)).  It reproduces the
  landmarks' rows and columns of ``K`` exactly, and ``K - Z Z^T`` (a Schur
  complement) is positive semidefinite; it is *not* the best approximation of
  ``K`` from those columns in the Frobenius norm (that is ``C C^+ K (C^+)^T C^T``
  with ``C = K_nm``), only the one that never overestimates a squared distance
  in feature space.  With every point as a landmark it is ``K`` itself.

Both are scikit-learn transformers (``fit`` / ``transform``) and work in a
``Pipeline`` in front of :class:`svmlib.LinearSVC`.
"""

import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from . import kernels as _kernels
from ._validation import check_int, check_positive
from .linear import _as_dense

__all__ = ["RandomFourierFeatures", "Nystroem", "kernel_approximation_error"]


def _check_X(X, name="X"):
    import scipy.sparse
    if scipy.sparse.issparse(X):
        raise TypeError(f"{name} is a sparse matrix, but the kernel approximations need dense "
                        f"input; got {type(X).__name__}. Convert it with X.toarray().")
    return _as_dense(X)


def _check_seed(random_state):
    if random_state is None or (isinstance(random_state, numbers.Integral)
                                and not isinstance(random_state, bool) and random_state >= 0):
        return random_state
    raise ValueError(f"random_state must be None or an integer >= 0; got "
                     f"random_state={random_state!r}. Use e.g. random_state=0.")



def _check_fitted_input(transformer, X, attribute):
    """``X`` checked for ``transform``: the transformer is fitted, the width matches."""
    check_is_fitted(transformer, attribute)
    X = _check_X(X)
    if X.shape[1] != transformer.n_features_in_:
        raise ValueError(f"X has {X.shape[1]} features, but {type(transformer).__name__} is "
                         f"expecting {transformer.n_features_in_} features as input (as in fit).")
    return X

class RandomFourierFeatures(TransformerMixin, BaseEstimator):
    """Random Fourier features of the RBF kernel ``exp(-gamma ||x - x'||^2)``.

    Parameters
    ----------
    gamma : float, default=1.0
        The RBF kernel's parameter, ``> 0``.
    n_components : int, default=100
        The number ``D`` of random features.
    random_state : int or None, default=None
        Seed of the frequencies and phases.

    Attributes
    ----------
    random_weights_ : ndarray of shape (n_features, n_components)
        The frequencies ``omega_j`` (columns), drawn from ``N(0, 2 gamma I)``.
    random_offset_ : ndarray of shape (n_components,)
        The phases ``beta_j``, drawn from ``U[0, 2 pi]``.
    n_features_in_ : int
    """

    def __init__(self, gamma=1.0, n_components=100, random_state=None):
        self.gamma = gamma
        self.n_components = n_components
        self.random_state = random_state

    def fit(self, X, y=None):
        """Draw the frequencies for data with ``X.shape[1]`` features.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        gamma = check_positive(self.gamma, "gamma",
                               hint="Use the RBF kernel's gamma, e.g. gamma=1.0.")
        D = check_int(self.n_components, "n_components", minimum=1,
                      hint="Use a number of random features such as n_components=100.")
        rng = np.random.default_rng(_check_seed(self.random_state))
        X = _check_X(X)
        self.n_features_in_ = X.shape[1]
        self.random_weights_ = rng.normal(scale=np.sqrt(2.0 * gamma), size=(X.shape[1], D))
        self.random_offset_ = rng.uniform(0.0, 2.0 * np.pi, size=D)
        return self

    def transform(self, X):
        """Map ``X`` to ``z(X) = sqrt(2/D) cos(X Omega + beta)`` (Book: (eq-scale-rff)).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_components)
        """
        X = _check_fitted_input(self, X, "random_weights_")
        D = self.random_weights_.shape[1]
        return np.sqrt(2.0 / D) * np.cos(X @ self.random_weights_ + self.random_offset_)


class Nystroem(TransformerMixin, BaseEstimator):
    """Nyström features: a low-rank factor of the Gram matrix from ``m`` landmarks.

    Parameters
    ----------
    kernel : {"rbf", "linear", "poly"} or callable, default="rbf"
        A name of :mod:`svmlib.kernels` or a function ``k(X, Z)``.
    gamma : float, default=1.0
        Parameter of the "rbf" and "poly" kernels.
    n_components : int, default=100
        The number ``m`` of landmarks, drawn without replacement from the
        training points (all of them if there are fewer).
    random_state : int or None, default=None
        Seed of the choice of landmarks.

    Attributes
    ----------
    components_ : ndarray of shape (m, n_features)
        The landmarks.
    component_indices_ : ndarray of shape (m,)
        Their rows in the training data.
    normalization_ : ndarray of shape (m, m)
        ``K_mm^{-1/2}`` (pseudo-inverse square root: eigenvalues below
        ``1e-12`` times the largest are dropped).
    n_features_in_ : int
    """

    def __init__(self, kernel="rbf", gamma=1.0, n_components=100, random_state=None):
        self.kernel = kernel
        self.gamma = gamma
        self.n_components = n_components
        self.random_state = random_state

    def _kernel(self):
        if callable(self.kernel):
            return self.kernel
        if self.kernel not in ("rbf", "linear", "poly"):
            raise ValueError(f"kernel must be 'rbf', 'linear', 'poly' or a callable k(X, Z); "
                             f"got kernel={self.kernel!r}. Pick a listed name or pass a "
                             f"function.")
        check_positive(self.gamma, "gamma", hint="Use a positive gamma such as gamma=1.0.")
        return _kernels.get_kernel(self.kernel, gamma=float(self.gamma))

    def fit(self, X, y=None):
        """Choose the landmarks and factor their Gram matrix.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        kernel = self._kernel()
        m = check_int(self.n_components, "n_components", minimum=1,
                      hint="Use a number of landmarks such as n_components=100.")
        rng = np.random.default_rng(_check_seed(self.random_state))
        X = _check_X(X)
        n = X.shape[0]
        if m > n:
            warnings.warn(f"n_components={m} is larger than the number of samples {n}; "
                          f"every sample becomes a landmark (n_components={n}).",
                          UserWarning, stacklevel=2)
            m = n
        self.n_features_in_ = X.shape[1]
        self.component_indices_ = np.sort(rng.choice(n, size=m, replace=False))
        self.components_ = X[self.component_indices_].copy()
        K_mm = np.asarray(kernel(self.components_, self.components_), dtype=np.float64)
        K_mm = 0.5 * (K_mm + K_mm.T)
        eigvals, eigvecs = np.linalg.eigh(K_mm)
        keep = eigvals > 1e-12 * max(eigvals.max(), 1e-300)
        self.normalization_ = (eigvecs[:, keep] / np.sqrt(eigvals[keep])) @ eigvecs[:, keep].T
        return self

    def transform(self, X):
        """Map ``X`` to ``k(X, L) K_mm^{-1/2}`` (Book: (eq-scale-nystroem)).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, m)
        """
        X = _check_fitted_input(self, X, "components_")
        K_nm = np.asarray(self._kernel()(X, self.components_), dtype=np.float64)
        return K_nm @ self.normalization_


def kernel_approximation_error(X, transformer, K=None, kernel="rbf", gamma=1.0):
    """Mean absolute error of the approximate Gram matrix ``Z Z^T`` against ``K``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    transformer : RandomFourierFeatures or Nystroem (or any transformer)
        Fitted on ``X`` here.
    K : ndarray of shape (n_samples, n_samples), optional
        The exact Gram matrix; by default ``kernel(X, X)`` with ``gamma``.
    kernel : str, default="rbf"
    gamma : float, default=1.0

    Returns
    -------
    float
        ``mean_ij |<z(x_i), z(x_j)> - k(x_i, x_j)|``.
    """
    X = _check_X(X)
    if K is None:
        K = _kernels.get_kernel(kernel, gamma=gamma)(X, X)
    Z = transformer.fit(X).transform(X)
    return float(np.abs(Z @ Z.T - K).mean())
