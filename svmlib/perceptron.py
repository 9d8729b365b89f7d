"""The perceptron and its dual, the kernel perceptron.

The perceptron (Rosenblatt, 1958) looks for a separating hyperplane one
point at a time.  It visits the training points, and whenever a point is on
the wrong side or on the hyperplane, ``y_i h(x_i) <= 0``, it moves the
hyperplane towards it:

.. math::

    w \\leftarrow w + \\alpha\\, y_i x_i, \\qquad b \\leftarrow b + \\alpha\\, y_i .

It stops after an epoch (one pass over the data) without a mistake.  On
linearly separable data this happens after at most ``(L / gamma*)^2`` updates
(Novikoff, 1962); on other data it never happens, and the loop ends after
``max_epochs`` with a ``sklearn.exceptions.ConvergenceWarning``.

Started from ``w = 0``, ``b = 0``, the weight vector is always a sum of
training points, ``w = alpha * sum_i c_i y_i x_i`` with ``c_i`` the number of
updates made with point ``i``.  Writing the score with inner products and
replacing them by a kernel gives the kernel perceptron
(Aizerman, Braverman & Rozonoer, 1964; Freund & Schapire, 1999).

Book: chapter ``ch-perceptron``, (eq-perceptron-model), (eq-perceptron-update),
(eq-perceptron-augmented), (eq-novikoff), (eq-perceptron-dual-weights),
(eq-kernel-perceptron).

**One epoch, compiled.**  An epoch of either perceptron is one plain Python
function over NumPy arrays (``perceptron_epoch``,
``kernel_perceptron_epoch``), a loop over the points in visiting order
that reads like the update rule.  Numba compiles it (``@njit(cache=True)``);
:func:`run_perceptron` and :func:`run_kernel_perceptron` call it once per
epoch, compiled or, with ``compiled=False``, as plain Python (the same code
object), and both take identical steps: the score of a point is
``np.dot(x_i, w) + b`` in both, the BLAS routine ``ddot`` (NumPy calls its own
OpenBLAS's, Numba SciPy's through ``scipy.linalg.cython_blas``: two builds of
one library, which gave the same bits for every length tried, 1 to 1,000
features, and the same bits as ``x_i @ w``, the score of earlier versions);
``tests/test_perceptron_compiled.py`` checks the two ways update for update,
bit for bit, wherever it runs.  The estimators draw each epoch's visiting order in
Python (``RandomState.permutation``), so the order is the same either way.
Without Numba installed everything runs as plain Python.
"""

import warnings
from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ._validation import (
    check_array,
    check_binary_labels,
    check_X_y,
    check_estimator_n_features,
    check_estimator_X,
    check_estimator_X_y,
    check_int,
    check_option,
    check_positive,
)
from .kernels import get_kernel, resolve_gamma

try:  # the epoch loops are compiled when Numba is available
    from numba import njit
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - plain Python, same updates, slower
    HAVE_NUMBA = False

    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

__all__ = ["Perceptron", "KernelPerceptron", "best_homogeneous_margin", "novikoff_experiment",
           "novikoff_trace", "perceptron_epoch", "kernel_perceptron_epoch", "run_perceptron",
           "run_kernel_perceptron"]


def _check_bool(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(
            f"{name} must be True or False; got {name}={value!r}. Pass a bool."
        )
    return bool(value)


def _check_random_state(value):
    try:
        return check_random_state(value)
    except ValueError:
        raise ValueError(
            f"random_state must be None, an int or a numpy RandomState; got "
            f"random_state={value!r}. Pass an int such as random_state=0 for "
            f"reproducible runs."
        ) from None


def _warn_not_converged(model, n_mistakes):
    warnings.warn(
        f"{type(model).__name__} did not converge: the last of "
        f"max_epochs={model.max_epochs} epochs still made {n_mistakes} "
        f"mistake(s). The data may not be separable by this model; try a "
        f"larger max_epochs, scaled features, a (different) kernel, or a "
        f"soft-margin svmlib.SVC.",
        ConvergenceWarning,
        stacklevel=3,
    )


# ------------------------------------------------------------ one epoch

# Both epochs allocate nothing and touch only arrays that their caller owns for
# the whole call, so they are compiled without Numba's reference counting
# (``_nrt=False``, a private option of Numba's, as in svmlib._smo_steps): a
# count per row view would be two atomic operations per point.

@njit(cache=True, _nrt=False)
def perceptron_epoch(X, y, order, w, b, alpha, fit_intercept, updated, scores):
    """One pass of the perceptron over the points ``order`` (Book: (eq-perceptron-update)).

    For each ``i`` in ``order``: if ``y_i (<x_i, w> + b) <= 0`` (a mistake,
    or a point on the hyperplane), ``w <- w + alpha y_i x_i`` (in place) and,
    with ``fit_intercept``, ``b <- b + alpha y_i``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64, C-contiguous
    y : ndarray of shape (n_samples,), float64
        Labels -1.0 / +1.0.
    order : ndarray of int64
        The visiting order of this epoch.
    w : ndarray of shape (n_features,), float64
        The weights, updated in place.
    b : float
        The bias at the start of the epoch.
    alpha : float
        The learning rate.
    fit_intercept : bool
    updated : ndarray of int64, at least ``len(order)`` long
        Receives the index of the point of each update, in order.
    scores : ndarray of float64, at least ``len(order)`` long
        Receives the score ``<x_i, w> + b`` just before each update.

    Returns
    -------
    (mistakes, b) : (int, float)
        The number of updates of the epoch and the bias after it.
    """
    n_features = X.shape[1]
    mistakes = 0
    for t in range(order.shape[0]):
        i = order[t]
        score = np.dot(X[i], w) + b
        if y[i] * score <= 0.0:
            step = alpha * y[i]
            for k in range(n_features):
                w[k] += step * X[i, k]
            if fit_intercept:
                b = b + step
            updated[mistakes] = i
            scores[mistakes] = score
            mistakes += 1
    return mistakes, b


@njit(cache=True, _nrt=False)
def kernel_perceptron_epoch(K, y, order, coef, counts, b, updated):
    """One pass of the kernel perceptron over the points ``order`` (Book: (eq-kernel-perceptron)).

    For each ``i`` in ``order``: if ``y_i (sum_j coef_j K_ij + b) <= 0``,
    then ``c_i <- c_i + 1``, ``coef_i <- coef_i + y_i`` and ``b <- b + y_i``
    (``coef_j = c_j y_j``).

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples), float64, C-contiguous
        The kernel matrix of the training points.
    y : ndarray of shape (n_samples,), float64
        Labels -1.0 / +1.0.
    order : ndarray of int64
    coef : ndarray of shape (n_samples,), float64
        ``c_j y_j``, updated in place.
    counts : ndarray of shape (n_samples,), int64
        The mistake counts ``c_j``, updated in place.
    b : float
    updated : ndarray of int64, at least ``len(order)`` long
        Receives the index of the point of each update, in order.

    Returns
    -------
    (mistakes, b) : (int, float)
    """
    mistakes = 0
    for t in range(order.shape[0]):
        i = order[t]
        if y[i] * (np.dot(K[i], coef) + b) <= 0.0:
            counts[i] += 1
            coef[i] += y[i]
            b += y[i]
            updated[mistakes] = i
            mistakes += 1
    return mistakes, b


def _epoch_function(function, compiled):
    """The compiled epoch, or (``compiled=False``) the plain Python function behind it."""
    check_option(compiled, "compiled", (True, False))
    return function if compiled else getattr(function, "py_func", function)


def _visiting_order(rng, in_order):
    """This epoch's order: a new permutation from ``rng``, or the rows in order (``rng=None``)."""
    if rng is None:
        return in_order
    return rng.permutation(in_order.shape[0]).astype(np.int64, copy=False)


def run_perceptron(X, y, w, b=0.0, learning_rate=1.0, max_epochs=1000, rng=None,
                   fit_intercept=True, record=True, compiled=True):
    """Run the perceptron for up to ``max_epochs`` epochs; stop after one without a mistake.

    The solver behind :class:`Perceptron` (which checks its input first).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
        Copied to a writeable C-contiguous array only when it is not one.
    y : ndarray of shape (n_samples,)
        Labels -1.0 / +1.0.
    w : ndarray of shape (n_features,)
        The starting weights (not modified).
    b : float, default=0.0
        The starting bias.
    learning_rate : float, default=1.0
    max_epochs : int, default=1000
    rng : numpy.random.RandomState or None, default=None
        Source of a new visiting order every epoch (``rng.permutation``);
        ``None`` visits the rows in order.
    fit_intercept : bool, default=True
    record : bool, default=True
        Keep the index and the score of every update.
    compiled : bool, default=True
        Run the epochs compiled by Numba (when it is installed), or as plain
        Python (``False``: the same function, about a microsecond per point).

    Returns
    -------
    dict
        ``w``, ``b``, ``mistakes_per_epoch`` (list of int), ``n_epochs``,
        ``converged``, and with ``record`` ``update_indices`` (int64) and
        ``scores`` (float64), one entry per update (else ``None``).
    """
    epoch_function = _epoch_function(perceptron_epoch, compiled)
    if not (X.flags.c_contiguous and X.flags.writeable and X.dtype == np.float64):
        X = np.array(X, dtype=np.float64, order="C")    # one type for the compiled loop
    y = np.ascontiguousarray(y, dtype=np.float64)
    w = np.array(w, dtype=np.float64)                    # a copy: the caller's start stays
    b, alpha = float(b), float(learning_rate)
    n_samples = X.shape[0]
    updated = np.empty(n_samples, dtype=np.int64)        # at most one update per point
    in_order = np.arange(n_samples, dtype=np.int64)
    scores = np.empty(n_samples)
    kept_indices, kept_scores, mistakes_per_epoch = [], [], []
    converged = False
    for _ in range(max_epochs):
        order = _visiting_order(rng, in_order)
        mistakes, b = epoch_function(X, y, order, w, b, alpha, bool(fit_intercept), updated,
                                     scores)
        mistakes, b = int(mistakes), float(b)
        if record and mistakes:
            kept_indices.append(updated[:mistakes].copy())
            kept_scores.append(scores[:mistakes].copy())
        mistakes_per_epoch.append(mistakes)
        if mistakes == 0:
            converged = True
            break
    result = {"w": w, "b": b, "mistakes_per_epoch": mistakes_per_epoch,
              "n_epochs": len(mistakes_per_epoch),
              "converged": converged, "update_indices": None, "scores": None}
    if record:
        result["update_indices"] = np.concatenate([np.empty(0, dtype=np.int64)] + kept_indices)
        result["scores"] = np.concatenate([np.empty(0)] + kept_scores)
    return result


def run_kernel_perceptron(K, y, max_epochs=100, rng=None, compiled=True):
    """Run the kernel perceptron on its kernel matrix ``K``; the solver behind :class:`KernelPerceptron`.

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples), float64
    y : ndarray of shape (n_samples,)
        Labels -1.0 / +1.0.
    max_epochs : int, default=100
    rng : numpy.random.RandomState or None, default=None
        Source of a new visiting order every epoch; ``None``: in order.
    compiled : bool, default=True
        Compiled by Numba, or (``False``) the same function as plain Python.

    Returns
    -------
    dict
        ``counts`` (int64, ``c_i``), ``coef`` (``c_i y_i``), ``b``,
        ``update_indices`` (int64), ``mistakes_per_epoch``, ``n_epochs``,
        ``converged``.
    """
    epoch_function = _epoch_function(kernel_perceptron_epoch, compiled)
    if not (K.flags.c_contiguous and K.flags.writeable and K.dtype == np.float64):
        K = np.array(K, dtype=np.float64, order="C")
    y = np.ascontiguousarray(y, dtype=np.float64)
    n_samples = K.shape[0]
    counts = np.zeros(n_samples, dtype=np.int64)
    coef = np.zeros(n_samples)
    b = 0.0
    updated = np.empty(n_samples, dtype=np.int64)
    in_order = np.arange(n_samples, dtype=np.int64)
    kept, mistakes_per_epoch = [], []
    converged = False
    for _ in range(max_epochs):
        order = _visiting_order(rng, in_order)
        mistakes, b = epoch_function(K, y, order, coef, counts, b, updated)
        mistakes, b = int(mistakes), float(b)
        kept.append(updated[:mistakes].copy())
        mistakes_per_epoch.append(mistakes)
        if mistakes == 0:
            converged = True
            break
    return {"counts": counts, "coef": coef, "b": b,
            "update_indices": np.concatenate(kept), "mistakes_per_epoch": mistakes_per_epoch,
            "n_epochs": len(mistakes_per_epoch), "converged": converged}


class _SignClassifier(ClassifierMixin):
    """``predict`` and ``score`` for a binary classifier with a score h(x).

    Both perceptrons predict ``classes_[1]`` where ``decision_function`` is
    positive and ``classes_[0]`` elsewhere (a point on the boundary counts as
    the first class, as in scikit-learn).  They handle two classes only, and
    say so in their scikit-learn tags (``classifier_tags.multi_class``).
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def predict(self, X):
        """Predict ``classes_[1]`` where ``h(x) > 0`` and ``classes_[0]`` elsewhere.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        scores = self.decision_function(X)      # checks that the model is fitted
        return self.classes_[(scores > 0).astype(int)]

    def score(self, X, y, sample_weight=None):
        """The accuracy: the fraction of rows of ``X`` predicted as ``y``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        float
        """
        return super().score(X, y, sample_weight=sample_weight)


class Perceptron(_SignClassifier, BaseEstimator):
    """Rosenblatt's perceptron for two classes.

    Book: (eq-perceptron-update).

    Parameters
    ----------
    learning_rate : float, default=1.0
        The step ``alpha > 0`` of each update.
    max_epochs : int, default=1000
        The largest number of passes over the data.
    shuffle : bool, default=True
        Visit the points in a new random order in every epoch.  With
        ``shuffle=False`` they are visited in the order of the rows of ``X``.
    random_state : int, RandomState instance or None, default=None
        Seed of the visiting order (used only when ``shuffle=True``).
    w_init : array-like of shape (n_features,), default=None
        The starting weight vector; ``None`` means zeros.
    b_init : float, default=0.0
        The starting bias.
    fit_intercept : bool, default=True
        Whether ``b`` is learned.  With ``False`` the bias stays at
        ``b_init`` (the homogeneous perceptron when ``b_init=0``, the form
        of Novikoff's theorem).  Learning ``b`` is the same as appending a
        constant feature 1 to every point (Book: (eq-perceptron-augmented)).
    record_history : bool, default=True
        Keep the record of the run (``update_indices_``, ``history_``,
        ``updates_``).  It is stored compactly: the index and score of each
        update and one copy of each training point that triggered an update
        (at most the data); ``history_`` and ``updates_`` are rebuilt from it
        when read.  With ``False`` nothing per update is kept (memory
        O(n_samples + n_features)).

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features)
        The final weight vector ``w``.
    intercept_ : ndarray of shape (1,)
        The final bias ``b``.
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[0]`` is treated as -1, ``classes_[1]``
        as +1.
    n_features_in_ : int
        The number of features seen in ``fit``.
    n_updates_ : int
        The number of updates (mistakes) made.
    n_epochs_ : int
        The number of epochs run, including the final mistake-free one when
        the perceptron converged.
    converged_ : bool
        True when an epoch ended without a mistake.
    history_ : list of (ndarray of shape (n_features,), float)
        ``(w, b)`` at the start, then after each update: ``n_updates_ + 1``
        pairs (rebuilt on every access; with ``record_history=True``).
    update_indices_ : ndarray of int
        The index (row of ``X``) of the point that triggered each update,
        one entry per update.
    updates_ : list of dict
        One dict per update with keys ``"epoch"`` (1-based), ``"index"``
        (row of ``X``), ``"y"`` (-1 or +1), ``"score"`` (``h(x_i)`` before
        the update), ``"w"`` and ``"b"`` (after the update).
    mistakes_per_epoch_ : list of int
        The number of updates made in each epoch.

    Examples
    --------
    >>> from svmlib import datasets
    >>> ex = datasets.perceptron_example()
    >>> model = Perceptron(learning_rate=0.25, shuffle=False, w_init=ex["w0"],
    ...                    b_init=ex["b0"]).fit(ex["X"], ex["y"])
    >>> model.coef_.tolist(), model.intercept_.tolist(), model.update_indices_.tolist()
    ([[1.5, -0.5]], [-1.75], [2])
    """

    def __init__(self, learning_rate=1.0, max_epochs=1000, shuffle=True,
                 random_state=None, w_init=None, b_init=0.0, fit_intercept=True,
                 record_history=True):
        self.learning_rate = learning_rate
        self.max_epochs = max_epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.w_init = w_init
        self.b_init = b_init
        self.fit_intercept = fit_intercept
        self.record_history = record_history

    def _initial_state(self, n_features):
        if self.w_init is None:
            w = np.zeros(n_features)
        else:
            w = check_array(self.w_init, "w_init", ndim=1).copy()
            if w.shape[0] != n_features:
                raise ValueError(
                    f"w_init must have one entry per feature ({n_features}); "
                    f"got {w.shape[0]} entries. Pass w_init of shape "
                    f"({n_features},) or w_init=None to start from zeros."
                )
        b = self.b_init
        if not isinstance(b, Real) or isinstance(b, bool) or not np.isfinite(b):
            raise ValueError(
                f"b_init must be a finite number; got b_init={b!r}. "
                f"Pass a float such as b_init=0.0."
            )
        return w, float(b)

    def fit(self, X, y):
        """Run the perceptron on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two distinct labels of any kind.

        Returns
        -------
        self : Perceptron
        """
        alpha = check_positive(self.learning_rate, "learning_rate")
        max_epochs = check_int(self.max_epochs, "max_epochs", minimum=1)
        shuffle = _check_bool(self.shuffle, "shuffle")
        fit_intercept = _check_bool(self.fit_intercept, "fit_intercept")
        record = _check_bool(self.record_history, "record_history")
        rng = _check_random_state(self.random_state)
        X, y = check_estimator_X_y(X, y, type(self).__name__)
        self.classes_, y = check_binary_labels(y)
        n_features = X.shape[1]
        w, b = self._initial_state(n_features)
        w_start, b_start = w.copy(), b

        run = run_perceptron(X, y, w, b, learning_rate=alpha, max_epochs=max_epochs,
                             rng=rng if shuffle else None, fit_intercept=fit_intercept,
                             record=record)
        w, b = run["w"], run["b"]
        mistakes_per_epoch = run["mistakes_per_epoch"]
        n_updates, epoch, converged = sum(mistakes_per_epoch), run["n_epochs"], run["converged"]

        self.coef_ = w.reshape(1, -1).copy()
        self.intercept_ = np.array([b], dtype=np.float64)
        self.n_features_in_ = n_features
        self.n_updates_ = n_updates
        self.n_epochs_ = epoch
        self.converged_ = converged
        self.mistakes_per_epoch_ = mistakes_per_epoch
        if record:
            indices = run["update_indices"].astype(int, copy=False)
            # The rows that triggered an update, sorted, and each update's place
            # among them (np.unique's answer, in O(n + updates) without a sort).
            seen = np.zeros(X.shape[0], dtype=bool)
            seen[indices] = True
            rows = np.flatnonzero(seen)
            position = (np.cumsum(seen) - 1)[indices]
            self.update_indices_ = indices
            self._record = {"w0": w_start, "b0": float(b_start), "alpha": alpha,
                            "fit_intercept": fit_intercept, "points": X[rows].copy(),
                            "position": position.astype(np.intp), "y": y[indices],
                            "scores": run["scores"]}
        else:
            self._record = None
        if not converged:
            _warn_not_converged(self, mistakes_per_epoch[-1])
        return self

    def _get_record(self, name):
        check_is_fitted(self, "coef_")
        if self._record is None:
            raise AttributeError(
                f"{name} is not available: the perceptron was fitted with "
                f"record_history=False. Fit with record_history=True (the default) to keep "
                f"the record of the run.")
        return self._record

    def _weights_and_biases(self):
        """(W, B): ``W[k]``, ``B[k]`` after ``k`` updates, k = 0..n_updates_.

        Rebuilt from the compact record with the same floating-point
        operations, in the same order, as during ``fit`` (a running sum).
        """
        rec = self._get_record("history_")
        steps = rec["alpha"] * rec["y"]                      # alpha * y_i, per update
        W = np.empty((steps.shape[0] + 1, rec["w0"].shape[0]))
        W[0] = rec["w0"]
        W[1:] = steps[:, None] * rec["points"][rec["position"]]
        np.add.accumulate(W, axis=0, out=W)
        B = np.empty(steps.shape[0] + 1)
        B[0] = rec["b0"]
        B[1:] = steps if rec["fit_intercept"] else 0.0
        np.add.accumulate(B, out=B)
        return W, B

    @property
    def history_(self):
        """``(w, b)`` at the start and after each update: ``n_updates_ + 1`` pairs."""
        W, B = self._weights_and_biases()
        return [(W[k], float(B[k])) for k in range(W.shape[0])]

    @property
    def updates_(self):
        """One dict per update: ``epoch``, ``index``, ``y``, ``score`` (before), ``w``, ``b`` (after)."""
        rec = self._get_record("updates_")
        W, B = self._weights_and_biases()
        epochs = np.repeat(np.arange(1, self.n_epochs_ + 1), self.mistakes_per_epoch_)
        return [{"epoch": int(epochs[k]), "index": int(i), "y": int(rec["y"][k]),
                 "score": float(rec["scores"][k]), "w": W[k + 1], "b": float(B[k + 1])}
                for k, i in enumerate(self.update_indices_)]

    def __getattr__(self, name):
        # The record exists only with record_history=True; say why otherwise
        # (a property that raises AttributeError also ends up here).
        if name in ("history_", "updates_", "update_indices_") \
                and self.__dict__.get("_record", False) is None:
            self._get_record(name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def decision_function(self, X):
        """The score ``h(x) = <w, x> + b`` of every row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
            Positive values mean ``classes_[1]``.
        """
        check_is_fitted(self, "coef_")
        X = check_estimator_n_features(check_estimator_X(X, type(self).__name__),
                                       self.n_features_in_, type(self).__name__)
        return X @ self.coef_[0] + self.intercept_[0]



class KernelPerceptron(_SignClassifier, BaseEstimator):
    """The perceptron in dual form, with a kernel.

    It keeps a mistake count ``c_i`` per training point and scores

    .. math::

        h(x) = \\sum_i c_i y_i k(x_i, x) + b ,

    adding 1 to ``c_i`` and ``y_i`` to ``b`` when point ``i`` is misclassified
    (``y_i h(x_i) <= 0``).  With the linear kernel this is exactly
    :class:`Perceptron` with ``learning_rate=1`` started at zero.

    Book: (eq-kernel-perceptron).

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf"} or callable, default="rbf"
        The kernel; a callable ``k(X, Z)`` must return an ndarray of shape
        (n_samples_X, n_samples_Z).
    degree : int, default=3
        Degree of the polynomial kernel.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel width for "rbf" and scale for "poly" (see
        :func:`svmlib.kernels.resolve_gamma`).
    coef0 : float, default=1.0
        Constant of the polynomial kernel.
    max_epochs : int, default=100
        The largest number of passes over the data.
    shuffle : bool, default=True
        Visit the points in a new random order in every epoch.
    random_state : int, RandomState instance or None, default=None
        Seed of the visiting order.

    Attributes
    ----------
    counts_ : ndarray of shape (n_samples,), int
        The mistake count ``c_i`` of every training point.
    support_ : ndarray of shape (n_SV,), int
        Indices of the points with ``c_i > 0``.
    support_vectors_ : ndarray of shape (n_SV, n_features)
    dual_coef_ : ndarray of shape (1, n_SV)
        ``c_i y_i`` for the support points (as in scikit-learn's SVC).
    intercept_ : ndarray of shape (1,)
        The bias ``b``.
    classes_ : ndarray of shape (2,)
    gamma_ : float
        The numeric ``gamma`` used.
    n_features_in_ : int
    n_updates_ : int
        Total number of mistakes, ``sum_i c_i``.
    n_epochs_ : int
    converged_ : bool
    update_indices_ : ndarray of int
        The point that triggered each update, one entry per update.
    mistakes_per_epoch_ : list of int
    """

    def __init__(self, kernel="rbf", degree=3, gamma="scale", coef0=1.0,
                 max_epochs=100, shuffle=True, random_state=None):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.max_epochs = max_epochs
        self.shuffle = shuffle
        self.random_state = random_state

    def _make_kernel(self, X=None):
        """The kernel as a callable (``X`` given: resolve ``gamma_`` on it first).

        Built on demand (not stored), so a fitted model pickles whenever the
        kernel itself does (every named kernel does).
        """
        if not callable(self.kernel):
            check_option(self.kernel, "kernel", ("linear", "poly", "rbf"))
        if X is not None:
            self.gamma_ = resolve_gamma(self.gamma, X)
        if callable(self.kernel):
            return self.kernel
        return get_kernel(self.kernel, gamma=self.gamma_, degree=self.degree,
                          coef0=self.coef0)

    @property
    def kernel_(self):
        """The fitted kernel ``k(X, Z)`` (named kernels with ``gamma_`` filled in)."""
        check_is_fitted(self, "dual_coef_")
        return self._make_kernel()

    def fit(self, X, y):
        """Run the kernel perceptron on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two distinct labels of any kind.

        Returns
        -------
        self : KernelPerceptron
        """
        max_epochs = check_int(self.max_epochs, "max_epochs", minimum=1)
        shuffle = _check_bool(self.shuffle, "shuffle")
        rng = _check_random_state(self.random_state)
        X, y = check_estimator_X_y(X, y, type(self).__name__)
        self.classes_, y = check_binary_labels(y)
        kernel = self._make_kernel(X)
        K = np.asarray(kernel(X, X), dtype=np.float64)
        if K.shape != (X.shape[0], X.shape[0]) or not np.isfinite(K).all():
            raise ValueError(
                f"the kernel {getattr(kernel, '__name__', 'kernel')!r} must return a finite "
                f"matrix of shape ({X.shape[0]}, {X.shape[0]}) for the training points; got "
                f"shape {K.shape}{' with NaN or infinite values' if K.shape == (X.shape[0],) * 2 else ''}. "
                f"Check the kernel function (and the scale of the features).")

        run = run_kernel_perceptron(K, y, max_epochs=max_epochs, rng=rng if shuffle else None)
        counts, coef, b = run["counts"].astype(int, copy=False), run["coef"], run["b"]
        mistakes_per_epoch, epoch, converged = (run["mistakes_per_epoch"], run["n_epochs"],
                                                run["converged"])
        update_indices = run["update_indices"]

        self.counts_ = counts
        self.support_ = np.flatnonzero(counts)
        self.support_vectors_ = X[self.support_]
        self.dual_coef_ = coef[self.support_].reshape(1, -1)
        self.intercept_ = np.array([b])
        self.n_features_in_ = X.shape[1]
        self.n_updates_ = int(update_indices.shape[0])
        self.n_epochs_ = epoch
        self.converged_ = converged
        self.update_indices_ = update_indices.astype(int, copy=False)
        self.mistakes_per_epoch_ = mistakes_per_epoch
        if not converged:
            _warn_not_converged(self, mistakes_per_epoch[-1])
        return self

    def decision_function(self, X):
        """The score ``h(x) = sum_i c_i y_i k(x_i, x) + b``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "dual_coef_")
        X = check_estimator_n_features(check_estimator_X(X, type(self).__name__),
                                       self.n_features_in_, type(self).__name__)
        if self.support_.size == 0:
            return np.full(X.shape[0], self.intercept_[0])
        K = np.asarray(self._make_kernel()(X, self.support_vectors_), dtype=np.float64)
        return K @ self.dual_coef_[0] + self.intercept_[0]


def best_homogeneous_margin(X, y):
    """The best margin of a hyperplane through the origin, and its direction.

    Solves ``min 1/2 ||w||^2`` subject to ``y_i <w, x_i> >= 1`` (no bias);
    the optimum gives ``gamma* = 1 / ||w||`` and ``u* = w / ||w||``, the
    maximizer of ``min_i y_i <u, x_i>`` over unit vectors ``u``.
    Book: (eq-perceptron-best-margin).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.

    Returns
    -------
    u : ndarray of shape (n_features,)
        The best unit normal.
    gamma : float
        The best margin ``gamma* = min_i y_i <u, x_i>``, > 0.

    Raises
    ------
    ValueError
        When no hyperplane through the origin separates the data.
    """
    from scipy.optimize import minimize

    X, y = check_X_y(X, y)
    _, y = check_binary_labels(y)
    Z = y[:, None] * X                       # rows y_i x_i
    start = _separating_start(Z)
    if start is None:
        raise ValueError(
            "the data are not separable by a hyperplane through the origin, so the "
            "best margin gamma* is not positive; append a constant feature "
            "(x -> (x, 1)) for a hyperplane with a bias, or use data that a line "
            "through the origin separates.")
    start = start / np.min(Z @ start)          # feasible: min_i y_i <w, x_i> = 1
    result = minimize(lambda w: 0.5 * w @ w, start, jac=lambda w: w, method="SLSQP",
                      constraints=[{"type": "ineq", "fun": lambda w: Z @ w - 1.0,
                                    "jac": lambda w: Z}],
                      options={"ftol": 1e-14, "maxiter": 500})
    w = result.x if np.min(Z @ result.x) > 1 - 1e-7 else start
    u = w / np.linalg.norm(w)
    return u, float(np.min(Z @ u))


def _separating_start(Z, max_epochs=2000):
    """A w with Z w > 0 found by the homogeneous perceptron, or None."""
    w = np.zeros(Z.shape[1])
    for _ in range(max_epochs):
        mistakes = 0
        for z in Z:
            if z @ w <= 0:
                w = w + z
                mistakes += 1
        if mistakes == 0:
            return w
    return None


def novikoff_experiment(gaps=(0.2, 0.1, 0.05, 0.025, 0.0125), n=100, n_features=5,
                        n_orders=20, random_state=0):
    """Count the perceptron's updates against Novikoff's bound as the gap shrinks.

    For each gap, draws :func:`svmlib.datasets.perceptron_sphere_data`, computes
    ``L = max_i ||x_i||`` and ``gamma*`` (:func:`best_homogeneous_margin`),
    and runs the homogeneous perceptron (no bias, start at 0) with
    ``n_orders`` random visiting orders.  Book: (eq-novikoff).

    Parameters
    ----------
    gaps : sequence of float
    n : int, default=100
    n_features : int, default=5
    n_orders : int, default=20
    random_state : int, default=0
        Seed of the data; the orders use seeds 0, ..., n_orders - 1.

    Returns
    -------
    list of dict
        One dict per gap with keys ``"gap"``, ``"L"``, ``"gamma"``,
        ``"bound"`` (``(L / gamma)^2``) and ``"updates"`` (ndarray of shape
        (n_orders,), int).
    """
    rows = []
    for gap in gaps:
        from .datasets import perceptron_sphere_data

        X, y = perceptron_sphere_data(n=n, gap=gap, n_features=n_features,
                                      random_state=random_state)
        L = float(np.max(np.linalg.norm(X, axis=1)))
        _, gamma = best_homogeneous_margin(X, y)
        updates = []
        for seed in range(n_orders):
            with warnings.catch_warnings():
                warnings.simplefilter("error")      # it must converge: the data separate
                model = Perceptron(fit_intercept=False, random_state=seed,
                                   max_epochs=100_000).fit(X, y)
            updates.append(model.n_updates_)
        rows.append({"gap": float(gap), "L": L, "gamma": gamma, "bound": (L / gamma) ** 2,
                     "updates": np.array(updates, dtype=int)})
    return rows


def novikoff_trace(X, y, u=None, learning_rate=1.0, random_state=0, max_epochs=100_000):
    """Follow the two numbers of Novikoff's proof along one perceptron run.

    Runs the perceptron without bias from ``w_0 = 0`` (visiting order drawn
    from ``random_state``) and records, after each update ``k``, the
    component ``<w_k, u>`` of the weights along a separating unit vector
    ``u`` and their length ``||w_k||``.  The proof shows
    ``<w_k, u> >= k alpha gamma`` (Step 1) and ``||w_k|| <= sqrt(k) alpha L``
    (Step 2), so that the cosine of the angle between ``w_k`` and ``u`` is at
    least ``sqrt(k) gamma / L``, which cannot exceed 1 (Step 3): hence
    ``k <= (L / gamma)^2``.  Book: (eq-novikoff), (thm-novikoff).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}, separable by a hyperplane through the origin.
    u : array-like of shape (n_features,), optional
        The separating direction of the theorem (normalized here).  Default:
        the best direction ``u*`` of :func:`best_homogeneous_margin`, so
        that ``gamma`` is the best margin ``gamma_0*``.
    learning_rate : float, default=1.0
        The perceptron's ``alpha``.  From ``w_0 = 0`` it only scales every
        ``w_k``: the ratios below do not depend on it.
    random_state : int, default=0
        Seed of the visiting orders (a new shuffle every epoch).
    max_epochs : int, default=100000

    Returns
    -------
    dict
        ``"k"`` (ndarray 0..n_updates), ``"along"`` (``<w_k, u> / alpha``),
        ``"norm"`` (``||w_k|| / alpha``), ``"cosine"`` (of the angle between
        ``w_k`` and ``u``; 0 at ``k = 0``), ``"gamma"`` (``min_i y_i <u, x_i>``),
        ``"L"`` (``max_i ||x_i||``), ``"bound"`` (``(L / gamma)^2``) and
        ``"n_updates"`` (int).

    Raises
    ------
    ValueError
        When ``u`` does not separate the data (``gamma <= 0``), or when no
        hyperplane through the origin does (from
        :func:`best_homogeneous_margin`).
    """
    X, y = check_X_y(X, y)
    _, y = check_binary_labels(y)
    learning_rate = check_positive(learning_rate, "learning_rate")
    if u is None:
        u, gamma = best_homogeneous_margin(X, y)
    else:
        u = check_array(u, "u", ndim=1)
        if u.shape[0] != X.shape[1] or not np.any(u):
            raise ValueError(f"u must be a nonzero vector with {X.shape[1]} entries, one per "
                             f"feature; got {u.tolist()!r}.")
        u = u / np.linalg.norm(u)
        gamma = float(np.min(y * (X @ u)))
        if gamma <= 0:
            raise ValueError(f"u does not separate the data: min_i y_i <u, x_i> = {gamma:.3g} "
                             f"<= 0, and Novikoff's theorem needs a separating u. Leave u=None "
                             f"to use the best direction u*.")
    model = Perceptron(fit_intercept=False, learning_rate=learning_rate,
                       random_state=random_state, max_epochs=max_epochs)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)   # separable: it must stop
        model.fit(X, y)
    W, _ = model._weights_and_biases()
    along = W @ u / learning_rate
    norm = np.linalg.norm(W, axis=1) / learning_rate
    cosine = np.divide(along, norm, out=np.zeros_like(along), where=norm > 0)
    L = float(np.max(np.linalg.norm(X, axis=1)))
    return {"k": np.arange(W.shape[0]), "along": along, "norm": norm, "cosine": cosine,
            "gamma": float(gamma), "L": L, "bound": (L / gamma) ** 2,
            "n_updates": int(model.n_updates_)}
