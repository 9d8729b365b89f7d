"""Checkers of the chapter "SVMs at scale" (chapter 11).

Book: chapter ``ch-at-scale``.

* :func:`check_cd_pass` -- one pass of dual coordinate descent for the hinge
  loss (Book: (eq-scale-cd-step));
* :func:`check_rff_map` -- the random Fourier feature map (Book: (eq-scale-rff)).

Each runs the reader's function on small cases chosen to expose the usual
mistakes and returns a :class:`~svmlib.exercises.Feedback` with a hint.
"""

import numpy as np

from ._core import AnswerError, Feedback, as_array, call_answer, checker, close

__all__ = ["check_cd_pass", "check_rff_map", "cd_pass_reference", "cd_pass_cases"]


def cd_pass_reference(X, y, alpha, w, C, order):
    """One pass of dual coordinate descent (hinge loss, constant feature already in ``X``)."""
    alpha = np.array(alpha, dtype=float)
    w = np.array(w, dtype=float)
    for i in order:
        G = y[i] * (w @ X[i]) - 1.0
        new = min(max(alpha[i] - G / (X[i] @ X[i]), 0.0), C)
        w += (new - alpha[i]) * y[i] * X[i]
        alpha[i] = new
    return alpha, w


def cd_pass_cases():
    """``(description, kwargs)`` pairs for :func:`check_cd_pass`."""
    rng = np.random.default_rng(11)
    X1 = np.array([[1.0, 2.0, 1.0], [2.0, 0.5, 1.0], [-1.0, -1.0, 1.0], [-2.0, 0.0, 1.0]])
    y1 = np.array([1.0, 1.0, -1.0, -1.0])
    X2 = np.column_stack([rng.normal(size=(8, 2)), np.ones(8)])
    y2 = np.array([1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, -1.0])
    start = cd_pass_reference(X2, y2, np.zeros(8), np.zeros(3), 0.5, range(8))
    return [
        ("a first pass from alpha = 0 on four separable points",
         dict(X=X1, y=y1, alpha=np.zeros(4), w=np.zeros(3), C=10.0, order=[0, 1, 2, 3])),
        ("a first pass with a small C, where the upper bound clips",
         dict(X=X2, y=y2, alpha=np.zeros(8), w=np.zeros(3), C=0.05, order=list(range(8)))),
        ("a second pass in another order, from a state where some alpha_i are positive",
         dict(X=X2, y=y2, alpha=start[0], w=start[1], C=0.5, order=[7, 3, 0, 5, 1, 6, 2, 4])),
    ]


@checker
def check_cd_pass(cd_pass):
    """Check the reader's pass of dual coordinate descent.

    Parameters
    ----------
    cd_pass : callable
        ``cd_pass(X, y, alpha, w, C, order) -> (alpha, w)``: visit the indices
        in ``order``; for each, compute ``G = y_i <w, x_i> - 1``, set
        ``alpha_i`` to ``clip(alpha_i - G / <x_i, x_i>, 0, C)`` and update ``w``.

    Returns
    -------
    Feedback
    """
    for description, case in cd_pass_cases():
        args = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in case.items()}
        answer = call_answer(cd_pass, **args, name="cd_pass")
        if not isinstance(answer, (tuple, list)) or len(answer) != 2:
            raise AnswerError("cd_pass must return two things, (alpha, w); got "
                              f"{type(answer).__name__}.")
        n, p = case["X"].shape
        alpha = as_array(answer[0], "the returned alpha", shape=(n,))
        w = as_array(answer[1], "the returned w", shape=(p,))
        want_alpha, want_w = cd_pass_reference(**case)
        if close(alpha, want_alpha, atol=1e-9) and close(w, want_w, atol=1e-9):
            continue
        head = f"on {description}: "
        if close(alpha, want_alpha, atol=1e-9):
            return Feedback(False, head + "alpha is right but w is not: after each change of "
                            "alpha_i add (alpha_i_new - alpha_i_old) * y_i * x_i to w, so that "
                            "w = sum_i alpha_i y_i x_i holds throughout.")
        if np.any(alpha < -1e-12) or np.any(alpha > case["C"] + 1e-12):
            return Feedback(False, head + "some alpha_i left the box [0, C]: clip the "
                            "one-variable minimizer alpha_i - G / Q_ii to [0, C].")
        if close(w, case["w"], atol=1e-12):
            return Feedback(False, head + "w did not change; update it inside the loop, "
                            "right after alpha_i, since the next gradient needs it.")
        unclipped = _pass_variant(case, clip=False)
        if close(alpha, unclipped[0], atol=1e-9):
            return Feedback(False, head + "the update is not clipped to [0, C].")
        flipped = _pass_variant(case, sign=-1.0)
        if close(alpha, flipped[0], atol=1e-9):
            return Feedback(False, head + "the step has the wrong sign: the gradient of the "
                            "dual objective (to minimize) is G = y_i <w, x_i> - 1, and the "
                            "step is alpha_i - G / Q_ii.")
        stale = _pass_variant(case, stale=True)
        if close(alpha, stale[0], atol=1e-9):
            return Feedback(False, head + "every gradient was computed from the w at the "
                            "start of the pass; coordinate descent uses the w updated after "
                            "each coordinate.")
        return Feedback(False, head + f"got alpha = {np.round(alpha, 4).tolist()}, expected "
                        f"{np.round(want_alpha, 4).tolist()}. Check the one-variable update "
                        f"alpha_i <- clip(alpha_i - (y_i <w, x_i> - 1) / <x_i, x_i>, 0, C).")
    return Feedback(True, "your pass matches dual coordinate descent on all three cases "
                    "(from zero, with clipping at C, and from a warm start in another order).")


def _pass_variant(case, clip=True, sign=1.0, stale=False):
    X, y, C = case["X"], case["y"], case["C"]
    alpha = np.array(case["alpha"], dtype=float)
    w = np.array(case["w"], dtype=float)
    w_start = w.copy()
    for i in case["order"]:
        G = y[i] * ((w_start if stale else w) @ X[i]) - 1.0
        new = alpha[i] - sign * G / (X[i] @ X[i])
        if clip:
            new = min(max(new, 0.0), C)
        w += (new - alpha[i]) * y[i] * X[i]
        alpha[i] = new
    return alpha, w


def _rff_reference(X, omega, beta):
    D = omega.shape[1]
    return np.sqrt(2.0 / D) * np.cos(X @ omega + beta)


@checker
def check_rff_map(rff_map):
    """Check the reader's random Fourier feature map.

    Parameters
    ----------
    rff_map : callable
        ``rff_map(X, omega, beta) -> Z`` with ``X`` of shape (n, p), the
        frequencies ``omega`` of shape (p, D), the phases ``beta`` of shape
        (D,), and ``Z`` of shape (n, D).

    Returns
    -------
    Feedback
    """
    rng = np.random.default_rng(5)
    X = rng.normal(size=(6, 3))
    omega = rng.normal(size=(3, 4))
    beta = rng.uniform(0, 2 * np.pi, size=4)
    answer = call_answer(rff_map, X.copy(), omega.copy(), beta.copy(), name="rff_map")
    Z = as_array(answer, "Z", shape=(6, 4))
    want = _rff_reference(X, omega, beta)
    if close(Z, want, atol=1e-10):
        Z2 = as_array(call_answer(rff_map, X[:2].copy(), omega[:, :1].copy(), beta[:1].copy(),
                                  name="rff_map"), "Z", shape=(2, 1))
        if close(Z2, _rff_reference(X[:2], omega[:, :1], beta[:1]), atol=1e-10):
            return Feedback(True, "z(x) = sqrt(2/D) cos(Omega^T x + beta): its inner products "
                            "estimate the RBF kernel without bias.")
        return Feedback(False, "right for D = 4 but not for D = 1: the scale is sqrt(2/D) with "
                        "D the number of columns of omega, not a fixed number.")
    D = omega.shape[1]
    base = np.cos(X @ omega + beta)
    if close(Z, base, atol=1e-10):
        return Feedback(False, "the scale factor sqrt(2/D) is missing: without it Z Z^T "
                        "estimates D/2 times the kernel.")
    if close(Z, np.sqrt(1.0 / D) * base, atol=1e-10):
        return Feedback(False, "the scale is sqrt(1/D); it must be sqrt(2/D), because the "
                        "average of 2 cos(a) cos(b) over the phase is cos(a - b).")
    if close(Z, np.sqrt(2.0 / D) * np.sin(X @ omega + beta), atol=1e-10):
        return Feedback(False, "use the cosine, not the sine (with a random phase both would "
                        "work in expectation, but the map of the chapter uses cos).")
    if close(Z, np.sqrt(2.0 / D) * np.cos(X @ omega), atol=1e-10):
        return Feedback(False, "the random phases beta are missing: add beta inside the "
                        "cosine, cos(X @ omega + beta).")
    return Feedback(False, "Z is not the feature map of the chapter. Work through it on one "
                    "point and two features by hand: the projections of x on the columns of "
                    "omega, the phases, the function applied, and the scale that makes "
                    "Z @ Z.T approximate the kernel; then compare each step with your code.")
