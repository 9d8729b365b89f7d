"""Checkers of the chapter "Beyond classification" (chapter 12).

Book: chapter ``ch-beyond``.

* :func:`check_eps_loss` -- the epsilon-insensitive loss (Book: (eq-beyond-eps-loss));
* :func:`check_svr_dual_arrays` -- the 2n-variable form of the SVR dual that
  SMO solves, ``(Q, p, z)`` (Book: (eq-beyond-svr-generic));
* :func:`check_krr_coefficients` -- the closed form of kernel ridge
  regression (Book: (eq-beyond-krr-alpha)).

Each runs the reader's function on small cases chosen to expose the usual
mistakes and returns a :class:`~svmlib.exercises.Feedback` with a hint.
"""

import numpy as np

from ._core import AnswerError, Feedback, as_array, call_answer, checker, close

__all__ = ["check_eps_loss", "check_svr_dual_arrays", "check_krr_coefficients",
           "eps_loss_reference", "svr_dual_arrays_reference", "krr_reference"]


def eps_loss_reference(r, epsilon):
    """The epsilon-insensitive loss ``max(0, |r| - epsilon)`` of residuals ``r``."""
    return np.maximum(0.0, np.abs(np.asarray(r, dtype=float)) - epsilon)


def svr_dual_arrays_reference(K, y, epsilon):
    """``(Q, p, z)`` of the SVR dual as ``min 1/2 b'Qb + p'b`` s.t. ``z'b = 0``, ``0 <= b <= C``.

    The variables are ``beta = (alpha, alpha^*)``; ``Q = [[K, -K], [-K, K]]``,
    ``p = (epsilon - y, epsilon + y)``, ``z = (1, ..., 1, -1, ..., -1)``.
    """
    K = np.asarray(K, dtype=float)
    y = np.asarray(y, dtype=float)
    Q = np.block([[K, -K], [-K, K]])
    p = np.concatenate([epsilon - y, epsilon + y])
    z = np.concatenate([np.ones(len(y)), -np.ones(len(y))])
    return Q, p, z


def krr_reference(K, y, lam):
    """Kernel ridge regression's coefficients ``(K + lam I)^{-1} y``."""
    K = np.asarray(K, dtype=float)
    return np.linalg.solve(K + lam * np.eye(len(K)), np.asarray(y, dtype=float))


def _residual_cases():
    r1 = np.array([-1.5, -0.3, -0.1, 0.0, 0.05, 0.2, 0.8, 2.0])
    r2 = np.linspace(-1.0, 1.0, 9)
    return [("residuals from -1.5 to 2 with epsilon = 0.25", r1, 0.25),
            ("nine residuals in [-1, 1] with epsilon = 0.5", r2, 0.5),
            ("the same residuals with epsilon = 0 (absolute loss)", r2, 0.0)]


@checker
def check_eps_loss(eps_loss):
    """Check the reader's epsilon-insensitive loss.

    Parameters
    ----------
    eps_loss : callable
        ``eps_loss(r, epsilon) -> array``: the loss of every residual in the
        1-D array ``r``, same shape as ``r``.

    Returns
    -------
    Feedback
    """
    if not callable(eps_loss):
        raise AnswerError(f"eps_loss should be a function eps_loss(r, epsilon); got "
                          f"{type(eps_loss).__name__}.")
    for description, r, eps in _residual_cases():
        got = as_array(call_answer(eps_loss, r.copy(), eps, name="eps_loss"),
                       "the returned loss", shape=r.shape)
        want = eps_loss_reference(r, eps)
        if close(got, want, atol=1e-12):
            continue
        head = f"on {description}: "
        if close(got, np.maximum(0.0, r - eps), atol=1e-12):
            return Feedback(False, head + "negative residuals get no loss. A point below the "
                            "function is as wrong as one above it: use |r|.")
        if close(got, np.abs(r) - eps, atol=1e-12):
            return Feedback(False, head + "residuals inside the tube get a negative loss; "
                            "clip at zero with max(0, ...).")
        if close(got, np.maximum(0.0, r ** 2 - eps), atol=1e-12) or close(
                got, np.maximum(0.0, np.abs(r) - eps) ** 2, atol=1e-12):
            return Feedback(False, head + "the loss grows quadratically; the epsilon-"
                            "insensitive loss grows linearly, max(0, |r| - epsilon).")
        if close(got, np.maximum(0.0, np.abs(r) + eps), atol=1e-12) or close(
                got, np.abs(r) + eps, atol=1e-12):
            return Feedback(False, head + "epsilon is added; it should be subtracted, so "
                            "that residuals smaller than epsilon cost nothing.")
        if close(got, (np.abs(r) > eps).astype(float), atol=1e-12):
            return Feedback(False, head + "this counts the points outside the tube; the loss "
                            "is how far outside they are, max(0, |r| - epsilon).")
        return Feedback(False, head + f"got {np.round(got, 3).tolist()}, expected "
                        f"{np.round(want, 3).tolist()}.")
    return Feedback(True, "your loss is zero inside the tube |r| <= epsilon and grows like "
                    "|r| - epsilon outside it, on both sides.")


def _dual_cases():
    rng = np.random.default_rng(3)
    x = np.array([0.0, 0.5, 1.5])
    K1 = np.exp(-(x[:, None] - x[None, :]) ** 2)
    y1 = np.array([1.0, -0.5, 2.0])
    A = rng.normal(size=(4, 2))
    K2 = A @ A.T
    y2 = np.array([0.3, -1.2, 0.7, 2.5])
    return [("three points, RBF kernel, epsilon = 0.1", K1, y1, 0.1),
            ("four points, linear kernel, epsilon = 0.5", K2, y2, 0.5)]


@checker
def check_svr_dual_arrays(svr_dual_arrays):
    """Check the reader's ``(Q, p, z)`` of the SVR dual in SMO's generic form.

    Parameters
    ----------
    svr_dual_arrays : callable
        ``svr_dual_arrays(K, y, epsilon) -> (Q, p, z)`` with ``Q`` of shape
        (2n, 2n) and ``p``, ``z`` of shape (2n,), for the variables
        ``beta = (alpha_1..alpha_n, alpha_1^*..alpha_n^*)``.

    Returns
    -------
    Feedback
    """
    if not callable(svr_dual_arrays):
        raise AnswerError(f"svr_dual_arrays should be a function svr_dual_arrays(K, y, "
                          f"epsilon); got {type(svr_dual_arrays).__name__}.")
    for description, K, y, eps in _dual_cases():
        answer = call_answer(svr_dual_arrays, K.copy(), y.copy(), eps, name="svr_dual_arrays")
        if not isinstance(answer, (tuple, list)) or len(answer) != 3:
            raise AnswerError("svr_dual_arrays must return three things, (Q, p, z); got "
                              f"{type(answer).__name__}.")
        n = len(y)
        Q = as_array(answer[0], "Q", shape=(2 * n, 2 * n))
        want_Q, want_p, want_z = svr_dual_arrays_reference(K, y, eps)
        head = f"on {description}: "
        if not close(Q, want_Q, atol=1e-10):
            if close(Q, np.block([[K, K], [K, K]]), atol=1e-10):
                return Feedback(False, head + "Q has the right blocks but no signs: f uses "
                                "alpha_i - alpha_i^*, so the off-diagonal blocks are -K.")
            if close(np.abs(Q), np.abs(want_Q), atol=1e-10):
                return Feedback(False, head + "the blocks of Q have the wrong signs: "
                                "Q = [[K, -K], [-K, K]] (the diagonal blocks are +K).")
            return Feedback(False, head + "Q should be the 2n x 2n block matrix "
                            "[[K, -K], [-K, K]].")
        p = as_array(answer[1], "p", shape=(2 * n,))
        z = as_array(answer[2], "z", shape=(2 * n,))
        if not close(np.abs(z), np.ones(2 * n), atol=1e-12) or not close(z, want_z, atol=1e-12):
            if close(z, -want_z, atol=1e-12):
                return Feedback(False, head + "z has the opposite sign; with beta = (alpha, "
                                "alpha^*) the constraint sum_i (alpha_i - alpha_i^*) = 0 is "
                                "z = (1, ..., 1, -1, ..., -1). (Either sign gives the same "
                                "constraint, but p and z must use one convention.)")
            return Feedback(False, head + "z should be +1 for the n variables alpha_i and -1 "
                            "for the n variables alpha_i^*.")
        if not close(p, want_p, atol=1e-10):
            if close(p, np.concatenate([eps + y, eps - y]), atol=1e-10):
                return Feedback(False, head + "the halves of p are swapped: alpha_i carries "
                                "-y_i (it is rewarded for pushing f up towards y_i), so "
                                "p = (epsilon - y, epsilon + y).")
            if close(p, np.concatenate([-y, y]), atol=1e-10):
                return Feedback(False, head + "p misses epsilon: every multiplier pays "
                                "epsilon, p = (epsilon - y, epsilon + y).")
            if close(p, -want_p, atol=1e-10):
                return Feedback(False, head + "p has the wrong sign: it belongs to a "
                                "minimization, the dual objective with its sign flipped.")
            return Feedback(False, head + f"p is wrong: expected (epsilon - y, epsilon + y) "
                            f"= {np.round(want_p, 3).tolist()}.")
    return Feedback(True, "Q, p and z are the SVR dual in the form that SMO solves: the "
                    "classification dual's Q and z with signed copies of K, and p = "
                    "(epsilon - y, epsilon + y) in place of -1.")


def _krr_cases():
    x = np.array([0.0, 0.4, 1.0, 2.0, 2.5])
    K1 = np.exp(-0.5 * (x[:, None] - x[None, :]) ** 2)
    y1 = np.array([0.1, 0.5, 0.9, 0.2, -0.4])
    rng = np.random.default_rng(5)
    A = rng.normal(size=(6, 6))
    K2 = A @ A.T / 6
    y2 = rng.normal(size=6)
    return [("five points, RBF kernel, lambda = 0.1", K1, y1, 0.1),
            ("six points, another kernel matrix, lambda = 2", K2, y2, 2.0)]


@checker
def check_krr_coefficients(krr_fit):
    """Check the reader's kernel ridge regression, ``alpha = (K + lambda I)^{-1} y``.

    Parameters
    ----------
    krr_fit : callable
        ``krr_fit(K, y, lam) -> alpha`` of shape (n,).

    Returns
    -------
    Feedback
    """
    if not callable(krr_fit):
        raise AnswerError(f"krr_fit should be a function krr_fit(K, y, lam); got "
                          f"{type(krr_fit).__name__}.")
    for description, K, y, lam in _krr_cases():
        n = len(y)
        alpha = as_array(call_answer(krr_fit, K.copy(), y.copy(), lam, name="krr_fit"),
                         "the returned alpha", shape=(n,))
        want = krr_reference(K, y, lam)
        if close(alpha, want, rtol=1e-6, atol=1e-9):
            continue
        head = f"on {description}: "
        I = np.eye(n)
        variants = [
            (np.linalg.lstsq(K, y, rcond=None)[0], "this solves K alpha = y, interpolation "
             "without a penalty; add lambda to the diagonal, (K + lambda I) alpha = y."),
            (np.linalg.solve(K + n * lam * I, y), "lambda was multiplied by n; this chapter's "
             "objective sums the squared errors, so the system is (K + lambda I) alpha = y."),
            (np.linalg.solve(K + lam * np.ones((n, n)), y), "lambda was added to every "
             "entry of K; add it to the diagonal only, lambda * np.eye(n)."),
            ((K + lam * I) @ y, "this multiplies y by K + lambda I; solve the system "
             "instead, np.linalg.solve(K + lambda I, y)."),
            (np.linalg.solve(K + I / lam, y), "the penalty is inverted: the diagonal gets "
             "lambda (= 1/C), not 1/lambda."),
        ]
        for variant, hint in variants:
            if close(alpha, variant, rtol=1e-6, atol=1e-9):
                return Feedback(False, head + hint)
        return Feedback(False, head + f"got {np.round(alpha, 3).tolist()}, expected "
                        f"{np.round(want, 3).tolist()}.")
    return Feedback(True, "alpha = (K + lambda I)^{-1} y: every training point gets a "
                    "coefficient, as the stationarity condition alpha_i = (y_i - f(x_i)) / "
                    "lambda says.")
