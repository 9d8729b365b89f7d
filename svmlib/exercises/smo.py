"""Checkers of the SMO chapter's code exercises.

Book: chapter ``ch-smo``.

* :func:`check_pair_update` -- the clipped analytic update of one pair
  (Book: (eq-smo-update), (eq-smo-clip));
* :func:`check_violating_pair` -- the maximal violating pair and the
  violation ``m(alpha) - M(alpha)`` (Book: (eq-smo-stopping)).

Each takes the reader's function, runs it on a few cases chosen to expose
the typical mistakes, and returns a :class:`~svmlib.exercises.Feedback`
with a specific hint.
"""

import numpy as np

from ..plotting.smo import pair_step
from ._core import AnswerError, Feedback, as_array, call_answer, checker, close

__all__ = ["check_pair_update", "check_violating_pair", "pair_update_cases",
           "violating_pair_cases"]


def pair_update_cases():
    """Test cases of :func:`check_pair_update`: ``(description, kwargs)`` pairs.

    The keyword arguments are those of the exercise's
    ``pair_update(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj, K_ij, C)``.
    """
    K = dict(K_ii=1.0, K_jj=1.5, K_ij=0.25)            # eta = 2
    return [
        ("an interior step with y_i = +1, y_j = -1",
         dict(alpha_i=0.2, alpha_j=0.1, y_i=1.0, y_j=-1.0, grad_i=-0.4, grad_j=0.0, C=1.0,
              **K)),
        ("an interior step with y_i = y_j = +1",
         dict(alpha_i=0.9, alpha_j=0.1, y_i=1.0, y_j=1.0, grad_i=0.4, grad_j=-0.4, C=1.0,
              **K)),
        ("a step that alpha_i's upper bound C clips (y_i = +1, y_j = -1)",
         dict(alpha_i=0.5, alpha_j=0.2, y_i=1.0, y_j=-1.0, grad_i=-2.0, grad_j=0.0, C=1.0,
              **K)),
        ("a step that alpha_j's lower bound 0 clips (y_i = y_j = -1)",
         dict(alpha_i=0.3, alpha_j=0.4, y_i=-1.0, y_j=-1.0, grad_i=-0.6, grad_j=0.8, C=1.0,
              **K)),
        ("a step in the negative direction, clipped (y_i = -1, y_j = +1)",
         dict(alpha_i=0.6, alpha_j=0.3, y_i=-1.0, y_j=1.0, grad_i=-1.0, grad_j=-1.0, C=1.0,
              K_ii=2.0, K_jj=1.0, K_ij=0.5)),
        ("a hard-margin step (C = inf)",
         dict(alpha_i=0.0, alpha_j=0.0, y_i=1.0, y_j=-1.0, grad_i=-1.0, grad_j=-1.0,
              C=np.inf, K_ii=2.0, K_jj=1.0, K_ij=-0.5)),
    ]


_PAIR_ARGS = ("alpha_i", "alpha_j", "y_i", "y_j", "grad_i", "grad_j", "K_ii", "K_jj", "K_ij",
              "C")


def _capitalize(text):
    return text[:1].upper() + text[1:]


def _reference(case):
    step = pair_step(**case)
    return np.array([step["alpha_i_new"], step["alpha_j_new"]]), step


def _diagnose_pair(got, case, step):
    """A hint for a wrong pair update (got is an array of shape (2,))."""
    a_i, a_j = got
    y_i, y_j, C = case["y_i"], case["y_j"], case["C"]
    before = y_i * case["alpha_i"] + y_j * case["alpha_j"]
    if not np.isclose(y_i * a_i + y_j * a_j, before, atol=1e-7):
        return ("the pair left its line: y_i*alpha_i + y_j*alpha_j must not change. Move "
                "both by one step t (alpha_i + y_i*t, alpha_j - y_j*t) and clip t, not "
                "alpha_i and alpha_j separately.")
    t = y_i * (a_i - case["alpha_i"])
    wrong_way = ("the step goes the wrong way (the objective increases): check its sign. The "
                 "unclipped step is t* = (s_i - s_j)/eta with the scores s = -y*grad, and "
                 "alpha_i moves by +y_i*t, alpha_j by -y_j*t.")
    if t * step["t"] < 0:
        return wrong_way
    if min(a_i, a_j) < -1e-9 or max(a_i, a_j) > C + 1e-9:
        if step["t"] < 0:
            return ("this step goes in the negative direction (t* < 0), and your pair ends "
                    "outside the box [0, C]^2: clip t to the whole interval [t_low, t_high] "
                    "of feasible steps, from below as well as from above.")
        return ("the new pair is outside the box [0, C]^2: clip the step t to the interval "
                "that keeps both multipliers between 0 and C.")
    change = -(step["score_i"] - step["score_j"]) * t + 0.5 * step["eta"] * t * t
    if change > 1e-12:
        return wrong_way
    if np.isclose(t, 2 * step["t"], atol=1e-7) or np.isclose(t, 0.5 * step["t"], atol=1e-7):
        return ("the step is off by a factor 2: minimizing -(s_i - s_j) t + eta t^2 / 2 "
                "gives t* = (s_i - s_j)/eta with eta = K_ii + K_jj - 2 K_ij.")
    if not step["clipped"]:
        return ("the step length is not the unconstrained minimizer along the line: "
                "t* = (s_i - s_j)/eta with s = -y*grad and eta = K_ii + K_jj - 2 K_ij.")
    if step["t"] < 0:
        return ("this step goes in the negative direction (t* < 0): clip t to the whole "
                "interval [t_low, t_high] of feasible steps, not only from above.")
    return ("the clipping is wrong: of the two bounds on t (one from alpha_i, one from "
            "alpha_j), the tighter one wins.")


@checker
def check_pair_update(pair_update):
    """Check the reader's clipped pair update.

    Parameters
    ----------
    pair_update : callable
        ``pair_update(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj,
        K_ij, C) -> (new_alpha_i, new_alpha_j)``.

    Returns
    -------
    Feedback
    """
    for description, case in pair_update_cases():
        # positionally, in the order of the exercise, so that any parameter names work
        answer = call_answer(pair_update, *(case[name] for name in _PAIR_ARGS),
                             name="pair_update")
        got = as_array(answer, "the value returned by pair_update", shape=(2,))
        want, step = _reference(case)
        if not close(got, want, rtol=1e-7, atol=1e-9):
            return Feedback(False, f"on {description} (alpha_i = {case['alpha_i']:g}, "
                                   f"alpha_j = {case['alpha_j']:g}) you return "
                                   f"({got[0]:.4g}, {got[1]:.4g}); expected "
                                   f"({want[0]:.4g}, {want[1]:.4g}). "
                                   + _capitalize(_diagnose_pair(got, case, step)))
    return Feedback(True, f"your update matches the clipped analytic update on all "
                          f"{len(pair_update_cases())} cases (interior steps, each bound, "
                          f"both signs of t, and C = inf).")


def _index_sets(alpha, y, C):
    pos = y > 0
    in_up = (pos & (alpha < C)) | (~pos & (alpha > 0))
    in_low = (pos & (alpha > 0)) | (~pos & (alpha < C))
    return in_up, in_low


def violating_pair_cases():
    """Test cases of :func:`check_violating_pair`: ``(description, alpha, grad, y, C)``.

    Each case is chosen so that ignoring one of the conditions of ``I_up`` or
    ``I_low`` gives a different pair.
    """
    y = np.array([1.0, 1.0, -1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    cases = []
    # 1. alpha = 0: every y = +1 is only in I_up, every y = -1 only in I_low.
    cases.append(("the start alpha = 0", np.zeros(8),
                  np.array([-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0]) +
                  np.array([0.0, 0.1, 0.3, -0.2, 0.25, 0.05, -0.15, 0.4]), y, 1.0))
    # 2. multipliers at both bounds: the largest score belongs to a point at C with
    #    y = +1 (not in I_up), the smallest to a point at C with y = -1 (not in I_low).
    alpha = np.array([1.0, 0.4, 0.0, 1.0, 0.0, 0.6, 0.2, 0.0])
    grad = np.array([-2.0, -0.5, 0.3, -1.2, -0.1, 0.4, -0.9, 0.8])
    cases.append(("multipliers at 0, free and at C", alpha, grad, y, 1.0))
    # 3. a hard-margin state (C = inf)
    alpha = np.array([0.0, 2.0, 1.5, 0.0, 0.7, 0.0, 0.0, 1.2])
    grad = np.array([0.4, -0.3, 0.2, -0.6, -0.05, 0.9, -0.7, 0.1])
    cases.append(("a hard-margin state (C = inf)", alpha, grad, y, np.inf))
    return cases


def _maximal_pair(alpha, grad, y, C):
    score = -y * grad
    in_up, in_low = _index_sets(alpha, y, C)
    up, low = np.flatnonzero(in_up), np.flatnonzero(in_low)
    i = int(up[np.argmax(score[up])])
    j = int(low[np.argmin(score[low])])
    return i, j, float(score[i] - score[j])


def _diagnose_violating(i, j, gap, alpha, grad, y, C):
    in_up, in_low = _index_sets(alpha, y, C)
    want_i, want_j, want_gap = _maximal_pair(alpha, grad, y, C)
    if (i, j) == (want_j, want_i):
        return ("the indices i and j are swapped: i maximizes the score s_t = -y_t grad_t "
                "over I_up, j minimizes it over I_low.")
    flipped = _maximal_pair(alpha, -grad, y, C)
    if (i, j) == flipped[:2]:
        return "check the sign of the score: s_t = -y_t * grad_t."
    if i != want_i:
        if i < 0 or i >= y.shape[0]:
            return f"index i = {i} is not a valid index; indices run from 0 to {y.shape[0] - 1}."
        if not in_up[i]:
            reason = ("it is at C with y = +1" if y[i] > 0 else "it is at 0 with y = -1")
            return (f"index i = {i} is not in I_up ({reason}, so it cannot move in the direction "
                    f"y_i); take the largest score among the indices of I_up only.")
        return (f"index i should have the largest score s_t = -y_t grad_t in I_up; index {want_i} "
                f"has a larger one.")
    if j != want_j:
        if j < 0 or j >= y.shape[0]:
            return f"index j = {j} is not a valid index; indices run from 0 to {y.shape[0] - 1}."
        if not in_low[j]:
            reason = ("it is at 0 with y = +1" if y[j] > 0 else "it is at C with y = -1")
            return (f"index j = {j} is not in I_low ({reason}, so it cannot move in the direction "
                    f"-y_j); take the smallest score among the indices of I_low only.")
        return (f"index j should have the smallest score s_t = -y_t grad_t in I_low; index "
                f"{want_j} has a smaller one.")
    if np.isclose(gap, -want_gap):
        return "the violation is m - M = s_i - s_j (not s_j - s_i)."
    return (f"the pair is right, but the violation should be m - M = s_i - s_j = "
            f"{want_gap:.4g}; you return {gap:.4g}.")


@checker
def check_violating_pair(maximal_violating_pair):
    """Check the reader's maximal violating pair.

    Parameters
    ----------
    maximal_violating_pair : callable
        ``maximal_violating_pair(alpha, grad, y, C) -> (i, j, violation)`` with
        ``i`` the index of ``I_up`` with the largest score ``-y_t grad_t``,
        ``j`` the index of ``I_low`` with the smallest, and ``violation =
        m - M``.

    Returns
    -------
    Feedback
    """
    for description, alpha, grad, y, C in violating_pair_cases():
        answer = call_answer(maximal_violating_pair, alpha.copy(), grad.copy(), y.copy(), C,
                             name="maximal_violating_pair")
        if not isinstance(answer, (tuple, list, np.ndarray)) or len(answer) != 3:
            raise AnswerError("maximal_violating_pair should return three values, "
                              "(i, j, violation); return i, j, violation.")
        values = as_array(answer, "(i, j, violation)", shape=(3,))
        i, j, gap = values
        if i != int(i) or j != int(j):
            raise AnswerError(f"i and j must be whole numbers (indices); got i = {i:g}, "
                              f"j = {j:g}. Use np.argmax / np.argmin on the candidates.")
        i, j = int(i), int(j)
        want_i, want_j, want_gap = _maximal_pair(alpha, grad, y, C)
        if (i, j) != (want_i, want_j) or not np.isclose(gap, want_gap, rtol=1e-7, atol=1e-9):
            return Feedback(False, f"on {description} you return (i, j) = ({i}, {j}) and "
                                   f"violation {gap:.4g}. "
                                   + _capitalize(_diagnose_violating(i, j, gap, alpha, grad,
                                                                     y, C)))
    return Feedback(True, "your pair and violation are right on all "
                          f"{len(violating_pair_cases())} cases (the start, multipliers at "
                          "both bounds, and C = inf).")
