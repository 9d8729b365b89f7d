"""Linear SVMs at scale: dual coordinate descent, as LIBLINEAR solves them.

For a linear kernel the dual of the soft-margin SVM needs no kernel matrix.
With the bias folded into the weights by a constant feature ``s``
(``x_hat = (x, s)``, ``w_hat = (w, b / s)``; Book: (eq-scale-augmented)) the
problem has no equality constraint, and its dual is (Book: (eq-scale-dual))::

    minimize over alpha   f(alpha) = 1/2 alpha^T Qbar alpha - 1^T alpha
    subject to            0 <= alpha_i <= U,

with ``Qbar = Q + D``, ``Q_ij = y_i y_j <x_hat_i, x_hat_j>`` and

* hinge loss (L1-SVM): ``D = 0``, ``U = C``;
* squared hinge loss (L2-SVM): ``D = I / (2C)``, ``U = inf``.

Dual coordinate descent :cite:`hsieh2008` keeps ``w = sum_i alpha_i y_i x_hat_i``
up to date, so the partial derivative ``G_i = y_i <w, x_hat_i> - 1 + D_ii alpha_i``
costs one inner product, and minimizes ``f`` exactly in one coordinate at a
time (Book: (eq-scale-cd-step))::

    alpha_i <- min(max(alpha_i - G_i / Qbar_ii, 0), U),
    w       <- w + (alpha_i_new - alpha_i_old) y_i x_hat_i.

A pass visits the active coordinates in a random order.  The stopping rule
uses the projected gradient ``PG_i`` (``G_i`` with the components that point
out of the box set to 0, Book: (eq-scale-projected-gradient)): stop when
``max PG - min PG <= tol`` over a pass.  *Shrinking* removes a coordinate from
the active set when it sits at a bound and its gradient pushes it further
out by more than the extreme projected gradients of the previous pass, and
the whole set is checked again before stopping, as LIBLINEAR does
:cite:`fan2008`.

:class:`LinearSVC` wraps the solver as a scikit-learn classifier, with
LIBLINEAR's parameters and one-vs-rest for more than two classes; the inner
loops are compiled with Numba when it is installed (and run as plain Python
otherwise).
"""

import warnings

import numpy as np
import scipy.sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning, DataConversionWarning
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted

from ._validation import check_array, check_int, check_option, check_positive

try:  # the inner loops are compiled when Numba is available
    from numba import njit
except ImportError:  # pragma: no cover - plain Python, same results, slower
    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

__all__ = ["LinearSVC", "solve_linear_dual_cd", "dual_cd_trace", "linear_svm_primal",
           "linear_svm_dual"]

LOSSES = ("hinge", "squared_hinge")


# ------------------------------------------------------------ the two loops

@njit(cache=True)
def _shuffle(index, active, rng_state):
    # Fisher-Yates on index[:active] with a small linear congruential generator,
    # so the order is the same with and without Numba.
    for s in range(active - 1, 0, -1):
        rng_state = (rng_state * 6364136223846793005 + 1442695040888963407) & (2**63 - 1)
        t = (rng_state >> 17) % (s + 1)
        index[s], index[t] = index[t], index[s]
    return rng_state


@njit(cache=True)
def _projected_gradient(G, a, upper, shrinking, pg_max_old, pg_min_old):
    """One coordinate's projected gradient, and whether shrinking drops it.

    Returns ``(PG, shrink)``: a multiplier at a bound whose gradient points
    out of the box beyond last sweep's extremes leaves the active set.
    """
    if a == 0.0:
        if shrinking and G > pg_max_old:
            return 0.0, True
        return (G if G < 0.0 else 0.0), False
    if a == upper:
        if shrinking and G < pg_min_old:
            return 0.0, True
        return (G if G > 0.0 else 0.0), False
    return G, False


@njit(cache=True)
def _coordinate_step(old, G, qd, upper):
    """The new multiplier: a Newton step on one coordinate, clipped to ``[0, upper]``."""
    if qd > 0.0:
        return min(max(old - G / qd, 0.0), upper)
    return upper  # a zero point with the hinge loss: f is linear in alpha_i


@njit(cache=True)
def _after_sweep(pg_max, pg_min, tol, active, n):
    """``(stop, active, pg_max_old, pg_min_old)`` for the next sweep."""
    if pg_max - pg_min <= tol:
        if active == n:
            return True, active, np.inf, -np.inf
        return False, n, np.inf, -np.inf  # check every coordinate once more before stopping
    return (False, active, pg_max if pg_max > 0.0 else np.inf,
            pg_min if pg_min < 0.0 else -np.inf)


@njit(cache=True)
def _dcd_dense(X, y, alpha, w, bias_w, s, diag, upper, tol, max_iter, seed, shrinking):
    """Dual coordinate descent on dense X; ``w`` (and ``bias_w``) updated in place."""
    n, p = X.shape
    QD = np.empty(n)
    for i in range(n):
        QD[i] = diag + s * s
        for k in range(p):
            QD[i] += X[i, k] * X[i, k]
    index = np.arange(n)
    active = n
    pg_max_old, pg_min_old = np.inf, -np.inf
    rng_state = seed
    it = 0
    while it < max_iter:
        rng_state = _shuffle(index, active, rng_state)
        pg_max, pg_min = -np.inf, np.inf
        k_pos = 0
        while k_pos < active:
            i = index[k_pos]
            dot = bias_w[0] * s
            for k in range(p):
                dot += w[k] * X[i, k]
            G = y[i] * dot - 1.0 + diag * alpha[i]
            PG, shrink = _projected_gradient(G, alpha[i], upper, shrinking, pg_max_old, pg_min_old)
            if shrink:
                active -= 1
                index[k_pos], index[active] = index[active], index[k_pos]
                continue
            pg_max = max(pg_max, PG)
            pg_min = min(pg_min, PG)
            if abs(PG) > 1e-12:
                old = alpha[i]
                alpha[i] = _coordinate_step(old, G, QD[i], upper)
                step = (alpha[i] - old) * y[i]
                for k in range(p):
                    w[k] += step * X[i, k]
                bias_w[0] += step * s
            k_pos += 1
        it += 1
        stop, active, pg_max_old, pg_min_old = _after_sweep(pg_max, pg_min, tol, active, n)
        if stop:
            break
    return it


@njit(cache=True)
def _dcd_csr(data, indices, indptr, y, alpha, w, bias_w, s, diag, upper, tol, max_iter, seed,
             shrinking):
    """The same loop on a CSR matrix: each step touches the nonzeros of one row."""
    n = indptr.shape[0] - 1
    QD = np.empty(n)
    for i in range(n):
        QD[i] = diag + s * s
        for q in range(indptr[i], indptr[i + 1]):
            QD[i] += data[q] * data[q]
    index = np.arange(n)
    active = n
    pg_max_old, pg_min_old = np.inf, -np.inf
    rng_state = seed
    it = 0
    while it < max_iter:
        rng_state = _shuffle(index, active, rng_state)
        pg_max, pg_min = -np.inf, np.inf
        k_pos = 0
        while k_pos < active:
            i = index[k_pos]
            dot = bias_w[0] * s
            for q in range(indptr[i], indptr[i + 1]):
                dot += w[indices[q]] * data[q]
            G = y[i] * dot - 1.0 + diag * alpha[i]
            PG, shrink = _projected_gradient(G, alpha[i], upper, shrinking, pg_max_old, pg_min_old)
            if shrink:
                active -= 1
                index[k_pos], index[active] = index[active], index[k_pos]
                continue
            pg_max = max(pg_max, PG)
            pg_min = min(pg_min, PG)
            if abs(PG) > 1e-12:
                old = alpha[i]
                alpha[i] = _coordinate_step(old, G, QD[i], upper)
                step = (alpha[i] - old) * y[i]
                for q in range(indptr[i], indptr[i + 1]):
                    w[indices[q]] += step * data[q]
                bias_w[0] += step * s
            k_pos += 1
        it += 1
        stop, active, pg_max_old, pg_min_old = _after_sweep(pg_max, pg_min, tol, active, n)
        if stop:
            break
    return it


# ------------------------------------------------------------ the solver

def solve_linear_dual_cd(X, y, C=1.0, loss="squared_hinge", fit_intercept=True,
                         intercept_scaling=1.0, tol=1e-4, max_iter=1000, random_state=0,
                         shrinking=True):
    """Solve the binary linear SVM by dual coordinate descent.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or scipy.sparse CSR matrix
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    C : float, default=1.0
    loss : {"squared_hinge", "hinge"}, default="squared_hinge"
    fit_intercept : bool, default=True
        Append the constant feature ``intercept_scaling`` (Book: (eq-scale-augmented)).
    intercept_scaling : float, default=1.0
    tol : float, default=1e-4
        Stop when ``max PG - min PG <= tol`` over a pass.
    max_iter : int, default=1000
        Maximal number of passes.
    random_state : int, default=0
        Seed of the visiting order.
    shrinking : bool, default=True

    Returns
    -------
    dict
        ``w`` (n_features,), ``b``, ``alpha`` (n_samples,), ``n_iter`` (passes)
        and ``converged``.
    """
    y = np.ascontiguousarray(y, dtype=np.float64)
    n = y.shape[0]
    diag, upper = (0.0, float(C)) if loss == "hinge" else (0.5 / C, np.inf)
    s = float(intercept_scaling) if fit_intercept else 0.0
    seed = int(np.random.default_rng(random_state).integers(1, 2**62))
    alpha = np.zeros(n)
    bias_w = np.zeros(1)
    if scipy.sparse.issparse(X):
        X = scipy.sparse.csr_matrix(X, dtype=np.float64)
        X.sort_indices()
        w = np.zeros(X.shape[1])
        n_iter = _dcd_csr(X.data, X.indices.astype(np.int64), X.indptr.astype(np.int64), y,
                          alpha, w, bias_w, s, diag, upper, float(tol), int(max_iter), seed,
                          bool(shrinking))
    else:
        X = np.ascontiguousarray(X, dtype=np.float64)
        w = np.zeros(X.shape[1])
        n_iter = _dcd_dense(X, y, alpha, w, bias_w, s, diag, upper, float(tol), int(max_iter),
                            seed, bool(shrinking))
    return {"w": w, "b": float(bias_w[0] * s), "alpha": alpha, "n_iter": int(n_iter),
            "converged": int(n_iter) < int(max_iter)}


def linear_svm_primal(w, b, X, y, C=1.0, loss="squared_hinge", intercept_scaling=1.0,
                      fit_intercept=True):
    """The primal objective LIBLINEAR minimizes (Book: (eq-scale-primal)).

    ``1/2 (||w||^2 + (b/s)^2) + C sum_i loss(y_i (<w, x_i> + b))`` with the
    hinge ``max(0, 1 - m)`` or the squared hinge ``max(0, 1 - m)^2``; the bias
    term is present only with ``fit_intercept`` (it is regularized, as the
    weight of the constant feature ``s``).
    """
    w = np.asarray(w, dtype=float)
    margins = np.asarray(y, dtype=float) * (np.asarray(X @ w).ravel() + b)
    slack = np.maximum(0.0, 1.0 - margins)
    penalty = slack.sum() if loss == "hinge" else (slack ** 2).sum()
    reg = w @ w + ((b / intercept_scaling) ** 2 if fit_intercept else 0.0)
    return float(0.5 * reg + C * penalty)


def linear_svm_dual(alpha, X, y, C=1.0, loss="squared_hinge", intercept_scaling=1.0,
                    fit_intercept=True):
    """The dual objective ``1^T alpha - 1/2 ||w(alpha)||^2 - 1/2 alpha^T D alpha`` (Book: (eq-scale-dual)).

    At the solution it equals :func:`linear_svm_primal` (zero duality gap).
    """
    alpha = np.asarray(alpha, dtype=float)
    ay = alpha * np.asarray(y, dtype=float)
    w = np.asarray(X.T @ ay).ravel()
    s = intercept_scaling if fit_intercept else 0.0
    w_bias = s * ay.sum()
    diag = 0.0 if loss == "hinge" else 0.5 / C
    return float(alpha.sum() - 0.5 * (w @ w + w_bias ** 2) - 0.5 * diag * (alpha @ alpha))


def dual_cd_trace(X, y, C=1.0, loss="hinge", n_passes=10, intercept_scaling=1.0,
                  random_state=0):
    """Dual coordinate descent in plain NumPy, recording the state after every pass.

    The loop the chapter derives (Book: (eq-scale-cd-step)), without shrinking,
    on dense data with the constant feature ``intercept_scaling`` appended;
    meant for small problems that one wants to watch.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    C : float, default=1.0
    loss : {"hinge", "squared_hinge"}, default="hinge"
    n_passes : int, default=10
    intercept_scaling : float, default=1.0
    random_state : int, default=0
        Seed of the random visiting order (a new permutation every pass).

    Returns
    -------
    list of dict
        ``n_passes + 1`` states (pass 0 is the start ``alpha = 0``), each with
        ``pass``, ``alpha``, ``w``, ``b``, ``primal``, ``dual``, ``gap`` and
        ``pg_spread`` (``max PG - min PG`` over the pass, ``nan`` for pass 0).
    """
    X = check_array(X, "X")
    y = check_array(y, "y", ndim=1)
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must contain only the labels -1 and +1; got other values. "
                         "Map the two classes to -1/+1 first.")
    C = check_positive(C, "C", hint="Use a positive, finite C such as C=1.0.")
    check_option(loss, "loss", LOSSES)
    n_passes = check_int(n_passes, "n_passes", minimum=1)
    s = check_positive(intercept_scaling, "intercept_scaling")
    X_hat = np.hstack([X, np.full((X.shape[0], 1), s)])      # the constant feature
    diag, upper = (0.0, C) if loss == "hinge" else (0.5 / C, np.inf)
    Q_diag = np.einsum("ij,ij->i", X_hat, X_hat) + diag       # Qbar_ii
    alpha = np.zeros(X.shape[0])
    w_hat = np.zeros(X_hat.shape[1])
    rng = np.random.default_rng(random_state)

    def state(k, spread):
        w, b = w_hat[:-1].copy(), float(w_hat[-1] * s)
        primal = linear_svm_primal(w, b, X, y, C, loss, s)
        dual = linear_svm_dual(alpha, X, y, C, loss, s)
        return {"pass": k, "alpha": alpha.copy(), "w": w, "b": b, "primal": primal,
                "dual": dual, "gap": primal - dual, "pg_spread": spread}

    states = [state(0, float("nan"))]
    for k in range(1, n_passes + 1):
        pg = []
        for i in rng.permutation(X.shape[0]):
            G = y[i] * (w_hat @ X_hat[i]) - 1.0 + diag * alpha[i]
            pg.append(min(G, 0.0) if alpha[i] == 0 else (max(G, 0.0) if alpha[i] == upper
                                                           else G))
            new = min(max(alpha[i] - G / Q_diag[i], 0.0), upper)
            w_hat += (new - alpha[i]) * y[i] * X_hat[i]
            alpha[i] = new
        states.append(state(k, float(max(pg) - min(pg))))
    return states


# ------------------------------------------------------------ the estimator

class LinearSVC(ClassifierMixin, BaseEstimator):
    """Linear support vector classifier trained by dual coordinate descent (LIBLINEAR's method).

    Solves the same problem as ``sklearn.svm.LinearSVC(dual=True)``: the
    primal (Book: (eq-scale-primal)) with the bias as the weight of a constant
    feature ``intercept_scaling``, through its dual (Book: (eq-scale-dual)).
    More than two classes are handled one-vs-rest, one binary problem per
    class, as LIBLINEAR does.

    Parameters
    ----------
    C : float, default=1.0
        Penalty of the loss, ``> 0`` and finite.
    loss : {"squared_hinge", "hinge"}, default="squared_hinge"
        The squared hinge (L2-SVM) or the hinge (L1-SVM, the SVM of the
        soft-margin chapter).
    tol : float, default=1e-4
        Stopping tolerance on the spread of the projected gradient.
    max_iter : int, default=1000
        Maximal number of passes over the data.
    fit_intercept : bool, default=True
        Learn a bias (as the weight of a constant feature).
    intercept_scaling : float, default=1.0
        The value ``s`` of the constant feature; a larger ``s`` regularizes
        the bias less.
    random_state : int or None, default=None
        Seed of the order in which coordinates are visited (``None`` is
        seed 0, so that fits are repeatable).
    shrinking : bool, default=True
        Set aside coordinates that sit at a bound (LIBLINEAR's shrinking).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    dual_coef_ : ndarray of shape (1, n_samples) or (n_classes, n_samples)
        The multipliers ``alpha_i`` of each binary problem.
    n_iter_ : int
        Largest number of passes over the binary problems.
    n_features_in_ : int
    """

    def __init__(self, C=1.0, loss="squared_hinge", tol=1e-4, max_iter=1000, fit_intercept=True,
                 intercept_scaling=1.0, random_state=None, shrinking=True):
        self.C = C
        self.loss = loss
        self.tol = tol
        self.max_iter = max_iter
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.random_state = random_state
        self.shrinking = shrinking

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _check_params(self):
        check_positive(self.C, "C", hint="Use a positive, finite C such as C=1.0 (a hard "
                                         "margin needs svmlib.SVC with C=np.inf).")
        check_option(self.loss, "loss", LOSSES)
        check_positive(self.tol, "tol", hint="Use a small positive tolerance such as tol=1e-4.")
        check_int(self.max_iter, "max_iter", minimum=1,
                  hint="Use max_iter=1000 (passes over the data).")
        if not isinstance(self.fit_intercept, (bool, np.bool_)):
            raise ValueError(f"fit_intercept must be True or False; got "
                             f"fit_intercept={self.fit_intercept!r}.")
        check_positive(self.intercept_scaling, "intercept_scaling",
                       hint="Use intercept_scaling=1.0 (larger values regularize b less).")
        if self.random_state is not None:
            check_int(self.random_state, "random_state", minimum=0,
                      hint="Use an integer seed such as random_state=0, or None.")

    def _check_X(self, X, reset):
        if scipy.sparse.issparse(X):
            X = scipy.sparse.csr_matrix(X)
            if X.dtype.kind not in "biuf":
                raise ValueError(f"X must hold real numbers; got a sparse matrix of dtype "
                                 f"{X.dtype}. Convert it with X.astype(float).")
            X = X.astype(np.float64)
            if not np.all(np.isfinite(X.data)):
                raise ValueError("X must not contain NaN or infinity; got such values in the "
                                 "sparse matrix. Remove or impute them first.")
            if X.ndim != 2 or X.shape[1] == 0:
                raise ValueError(f"X must have at least one feature; got shape {X.shape}.")
        else:
            X = _as_dense(X)
        if reset:
            self.n_features_in_ = X.shape[1]
        elif X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but LinearSVC is expecting "
                f"{self.n_features_in_} features as input (as in fit). Pass data with the "
                f"same columns as in fit.")
        return X

    def fit(self, X, y):
        """Fit one binary problem (two classes) or one per class (one-vs-rest).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or sparse matrix
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : LinearSVC
        """
        self._check_params()
        if y is None:
            raise ValueError("LinearSVC requires y to be passed, but the target y is None. "
                             "Call fit(X, y) with the class labels.")
        X = self._check_X(X, reset=True)
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            warnings.warn("A column-vector y was passed when a 1d array was expected. Please "
                          "change the shape of y to (n_samples,), for example using ravel().",
                          DataConversionWarning, stacklevel=2)
            y = y.ravel()
        if y.ndim != 1:
            raise ValueError(f"y must be a 1-D array of labels; got shape {y.shape}. Use "
                             f"y.ravel() if it is a column vector.")
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"X and y must have the same number of samples; got X with "
                             f"{X.shape[0]} rows and y with {y.shape[0]} labels.")
        target = type_of_target(y)
        if target in ("continuous", "continuous-multioutput"):
            raise ValueError(f"Unknown label type: {target}. y holds real numbers, but "
                             f"LinearSVC needs class labels; bin the values or use a regressor.")
        classes, y_index = np.unique(y, return_inverse=True)
        if classes.shape[0] < 2:
            raise ValueError(
                f"y must contain at least two classes; got only one class "
                f"({classes.tolist()!r}). A classifier needs examples of both classes: check "
                f"how the data were split or filtered.")
        self.classes_ = classes
        targets = [1] if classes.shape[0] == 2 else range(classes.shape[0])
        seed = 0 if self.random_state is None else self.random_state
        coefs, intercepts, duals, iters = [], [], [], []
        for k in targets:
            y_pm = np.where(y_index == k, 1.0, -1.0)
            result = solve_linear_dual_cd(
                X, y_pm, C=float(self.C), loss=self.loss, fit_intercept=bool(self.fit_intercept),
                intercept_scaling=float(self.intercept_scaling), tol=float(self.tol),
                max_iter=self.max_iter, random_state=seed, shrinking=bool(self.shrinking))
            coefs.append(result["w"])
            intercepts.append(result["b"])
            duals.append(result["alpha"])
            iters.append(result["n_iter"])
        self.coef_ = np.array(coefs)
        self.intercept_ = np.array(intercepts)
        self.dual_coef_ = np.array(duals)
        self.n_iter_ = int(max(iters))
        if self.n_iter_ >= self.max_iter:
            warnings.warn(
                f"LinearSVC did not converge in max_iter={self.max_iter} passes (tol="
                f"{self.tol:g}). Increase max_iter, scale the features (e.g. with "
                f"sklearn.preprocessing.StandardScaler), or use a smaller C.",
                ConvergenceWarning, stacklevel=2)
        return self

    def decision_function(self, X):
        """``<w, x> + b`` of each binary problem.

        Returns
        -------
        ndarray of shape (n_samples,) for two classes (> 0 means ``classes_[1]``)
        or (n_samples, n_classes).
        """
        check_is_fitted(self, "coef_")
        X = self._check_X(X, reset=False)
        scores = np.asarray(X @ self.coef_.T) + self.intercept_
        return scores[:, 0] if self.classes_.shape[0] == 2 else scores

    def predict(self, X):
        """Predicted class labels, ndarray of shape (n_samples,)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def objective(self, X, y):
        """Primal objective of each binary problem at the fitted weights.

        Returns
        -------
        ndarray of shape (1,) or (n_classes,)
        """
        check_is_fitted(self, "coef_")
        X = self._check_X(X, reset=False)
        y = np.asarray(y)
        targets = [1] if self.classes_.shape[0] == 2 else range(self.classes_.shape[0])
        return np.array([
            linear_svm_primal(self.coef_[r], self.intercept_[r], X,
                              np.where(y == self.classes_[k], 1.0, -1.0), C=float(self.C),
                              loss=self.loss, intercept_scaling=float(self.intercept_scaling),
                              fit_intercept=bool(self.fit_intercept))
            for r, k in enumerate(targets)])


def _as_dense(X):
    """Validate dense input (real, 2-D, finite) with messages that say what to do."""
    if not isinstance(X, np.ndarray):
        try:
            X = np.asarray(X)
        except (TypeError, ValueError):
            pass  # check_array below explains what is wrong
    if np.iscomplexobj(X):
        raise ValueError("Complex data not supported: X must be real; got complex numbers. "
                         "Pass X.real if the imaginary parts are zero.")
    if isinstance(X, np.ndarray) and X.dtype == object:
        try:
            X = X.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"X must contain only numbers; got an object array that cannot "
                            f"be converted ({exc}). Encode the features as numbers first.") \
                from None
    shape = np.shape(X)
    if len(shape) == 1:
        raise ValueError(
            f"X must be a 2-D array; got a 1-D array of shape {shape}. Reshape your data with "
            f"X.reshape(-1, 1) if it has a single feature or X.reshape(1, -1) if it is a "
            f"single sample.")
    if len(shape) == 2 and shape[1] == 0:
        raise ValueError(f"X has 0 feature(s) (shape={shape}) while a minimum of 1 is "
                         f"required. Pass data with at least one column.")
    return check_array(X, "X")
