"""Checkers for the code exercises of chapter 04, Lagrange multipliers and KKT.

* :func:`check_ellipse_points` -- exercise ``ex-lagrange-ellipse-numeric``:
  all stationary points of ``f(x, y) = x y`` on the ellipse
  ``x^2/8 + y^2/2 = 1``, found by solving the stationarity system of the
  Lagrangian ``L = f + lambda g`` numerically.
* :func:`check_kkt_function` -- exercise ``ex-lagrange-kkt-code``: a function
  that tells, for a point ``x`` and multipliers ``mu``, which of the four KKT
  conditions hold (Book: (eq-kkt-stationarity) to (eq-kkt-slackness)).
"""

import numpy as np

from ._core import AnswerError, Feedback, as_array, call_answer, checker

__all__ = ["ELLIPSE_POINTS", "ELLIPSE_MULTIPLIERS", "check_ellipse_points", "check_kkt_function"]

#: Stationary points of ``x y`` on ``x^2/8 + y^2/2 = 1``: two maxima (f = 2)
#: then two minima (f = -2).
ELLIPSE_POINTS = np.array([[2.0, 1.0], [-2.0, -1.0], [2.0, -1.0], [-2.0, 1.0]])
#: Their multipliers for ``L = f + lambda (x^2/8 + y^2/2 - 1)``.
ELLIPSE_MULTIPLIERS = np.array([-2.0, -2.0, 2.0, 2.0])


def _ellipse_g(p):
    return p[..., 0] ** 2 / 8.0 + p[..., 1] ** 2 / 2.0 - 1.0


def _fmt(p):
    return "(" + ", ".join(f"{v + 0.0:.3g}" for v in p) + ")"


@checker
def check_ellipse_points(points, atol=1e-5):
    """Check all stationary points of ``x y`` on the ellipse ``x^2/8 + y^2/2 = 1``.

    Parameters
    ----------
    points : array-like of shape (n_points, 2), (n_points, 3) or (n_points, 4)
        The distinct stationary points ``(x, y)``, each once, in any order; a
        third column, if given, holds the multiplier ``lambda`` of the
        Lagrangian ``L = x y + lambda (x^2/8 + y^2/2 - 1)``, and a fourth the
        value ``f = x y`` (the table the chapter's ``show_points`` prints);
        both are checked too.
    atol : float, default=1e-5
        Absolute tolerance on every coordinate.

    Returns
    -------
    Feedback
        Correct when exactly the four points (2, 1), (-2, -1), (2, -1),
        (-2, 1) are given (with lambda = -2, -2, 2, 2 when a third column
        is present); otherwise a hint: a missing case, a point that is off
        the ellipse or not stationary, a duplicate, a sign convention.
    """
    P = as_array(points, "points")
    if P.ndim == 1 and P.shape[0] in (2, 3, 4):
        raise AnswerError("points holds a single point; stack all the stationary points as "
                          "rows of one array, e.g. np.array([[x1, y1], [x2, y2], ...]).")
    if P.ndim != 2 or P.shape[1] not in (2, 3, 4):
        hint = (f"points has shape {P.shape}; expected (n_points, 2), or (n_points, 3) with "
                f"lambda as a third column.")
        if P.ndim == 2 and P.shape[0] in (2, 3, 4):
            hint += " It looks transposed: try points.T."
        raise AnswerError(hint)
    if P.shape[0] in (2, 3) and P.shape[1] >= 2:
        # a (2, n) or (3, n) array whose *columns* are points on the ellipse is
        # the answer transposed (with four points, (2, 4) also fits the (x, y,
        # lambda, f) table, so the shape alone cannot tell)
        rows_on = np.all(np.abs(_ellipse_g(P[:, :2])) <= 1e3 * atol)
        cols_on = np.all(np.abs(_ellipse_g(P.T[:, :2])) <= 1e3 * atol)
        if cols_on and not rows_on:
            raise AnswerError(f"points has shape {P.shape} and its columns are points on the "
                              f"ellipse: it looks transposed, try points.T (one point per row).")
    xy = P[:, :2]
    for p in xy:
        if abs(_ellipse_g(p)) > 1e3 * atol:
            return Feedback(False, f"the point {_fmt(p)} is not on the ellipse "
                                   f"(x^2/8 + y^2/2 = {_ellipse_g(p) + 1.0:.4g}, not 1): keep "
                                   f"only roots where the constraint equation holds.")
    for i in range(len(xy)):
        for j in range(i):
            if np.allclose(xy[i], xy[j], atol=1e3 * atol):
                return Feedback(False, f"the point {_fmt(xy[i])} appears twice; root finding "
                                       f"from many starts finds the same root again and again, "
                                       f"so drop a root that is within a tolerance of one you "
                                       f"have.")
    matched = []
    for p in xy:
        hit = np.flatnonzero(np.all(np.abs(ELLIPSE_POINTS - p) <= atol, axis=1))
        if hit.size == 0:
            off = np.max(np.abs(ELLIPSE_POINTS - p), axis=1)
            nearest = int(np.argmin(off))
            if off[nearest] <= 1e3 * atol:
                return Feedback(False, f"{_fmt(p)} is close to the stationary point "
                                       f"{_fmt(ELLIPSE_POINTS[nearest])} but off by "
                                       f"{off[nearest]:.1g}, more than the tolerance "
                                       f"atol = {atol:g}: solve the system more accurately "
                                       f"(a smaller tol for the root finder) and keep the "
                                       f"root, not the starting point.")
            gf = np.array([p[1], p[0]])
            gg = np.array([p[0] / 4.0, p[1]])
            return Feedback(False, f"{_fmt(p)} is on the ellipse but not stationary: there "
                                   f"grad f = {_fmt(gf)} is not parallel to grad g = {_fmt(gg)} "
                                   f"(check the residual of grad L = 0 before keeping a root).")
        matched.append(int(hit[0]))
    missing = [k for k in range(4) if k not in matched]
    if missing:
        names = ", ".join(_fmt(ELLIPSE_POINTS[k]) for k in missing)
        kinds = {"maxima (f = 2)" if k < 2 else "minima (f = -2)" for k in missing}
        return Feedback(False, f"{len(matched)} of the 4 stationary points found; missing "
                               f"{names}, the {' and '.join(sorted(kinds))}. Start the root "
                               f"finder from more points (all four quadrants, both signs "
                               f"of lambda).")
    if P.shape[1] == 4:
        values = P[:, 3]
        bad = np.flatnonzero(np.abs(values - xy[:, 0] * xy[:, 1]) > 1e3 * atol)
        if bad.size:
            k = int(bad[0])
            return Feedback(False, f"the fourth column should be the value f = x y; at "
                                   f"{_fmt(xy[k])} it is {values[k] + 0.0:.4g}, not "
                                   f"{xy[k, 0] * xy[k, 1] + 0.0:.4g}.")
    if P.shape[1] >= 3:
        lam = P[:, 2]
        want = ELLIPSE_MULTIPLIERS[matched]
        if np.allclose(lam, -want, atol=atol):
            return Feedback(False, "the points are right but every lambda has the wrong sign: "
                                   "with L = f + lambda g stationarity reads "
                                   "grad f = -lambda grad g.")
        if not np.allclose(lam, want, atol=atol):
            bad = int(np.flatnonzero(np.abs(lam - want) > atol)[0])
            return Feedback(False, f"the points are right, but at {_fmt(xy[bad])} lambda should "
                                   f"be {want[bad] + 0.0:g}, not {lam[bad] + 0.0:.4g} "
                                   f"(solve y + lambda x / 4 = 0 for lambda).")
    return Feedback(True, "the four stationary points: maxima f = 2 at (2, 1) and (-2, -1), "
                          "minima f = -2 at (2, -1) and (-2, 1).")


# ----------------------------------------------------------- KKT conditions
# The problem of exercise ex-lagrange-kkt-paper:
#   minimize (x1 - 2)^2 + (x2 - 1)^2  s.t.  c1 = x1 + x2 - 2 <= 0,  c2 = -x1 <= 0
# (and, to test any number of constraints, an inactive c3 = x2 - 5 <= 0).

def _grad_f(x):
    x = np.asarray(x, dtype=float)
    return np.array([2.0 * (x[0] - 2.0), 2.0 * (x[1] - 1.0)])


def _h2(x):
    x = np.asarray(x, dtype=float)
    return np.array([x[0] + x[1] - 2.0, -x[0]])


def _jac2(x):
    return np.array([[1.0, 1.0], [-1.0, 0.0]])


def _h3(x):
    x = np.asarray(x, dtype=float)
    return np.array([x[0] + x[1] - 2.0, -x[0], x[1] - 5.0])


def _jac3(x):
    return np.array([[1.0, 1.0], [-1.0, 0.0], [0.0, 1.0]])


def _h1(x):
    x = np.asarray(x, dtype=float)
    return np.array([x[0] + x[1] - 2.0])


def _jac1(x):
    return np.array([[1.0, 1.0]])


_CONDITIONS = ("stationarity", "primal feasibility", "dual feasibility",
               "complementary slackness")

# (label, x, mu, which constraints, expected verdicts, hint when wrong)
_CASES = [
    ("the solution x = (1.5, 0.5), mu = (1, 0)", [1.5, 0.5], [1.0, 0.0], 2,
     (True, True, True, True),
     {0: "this is the solution, so stationarity holds: the residual "
         "grad_f(x) + jac_c(x).T @ mu is zero. Check the plus sign (grad f + sum_i mu_i "
         "grad c_i) and the transpose (the rows of jac_c(x) are the constraint gradients, "
         "so transpose before multiplying by mu).",
      1: "this point is feasible: c(x) = (0, -1.5), and c_i(x) <= tol for every i.",
      2: "mu = (1, 0) is dual feasible: every mu_i >= 0 (allow mu_i = 0).",
      3: "here mu * c(x) = (0, 0): complementary slackness holds."}),
    ("x = (1.5, 0.5) with mu = (-1, 0)", [1.5, 0.5], [-1.0, 0.0], 2,
     (False, True, False, True),
     {0: "stationarity has a plus sign: grad f(x) + sum_i mu_i grad c_i(x) = 0, i.e. "
         "grad_f(x) + jac_c(x).T @ mu; with a minus sign mu = (-1, 0) passes wrongly.",
      2: "dual feasibility asks mu_i >= 0 for every i (up to -tol)."}),
    ("the unconstrained minimum x = (2, 1), mu = (0, 0)", [2.0, 1.0], [0.0, 0.0], 2,
     (True, False, True, True),
     {1: "primal feasibility asks c_i(x) <= tol for every i: here c_1 = 1 > 0."}),
    ("the interior point x = (0.5, 0.5), mu = (0, 0)", [0.5, 0.5], [0.0, 0.0], 2,
     (False, True, True, True),
     {0: "at an interior point with mu = 0 stationarity needs grad f(x) = 0; compare the "
         "norm of grad_f(x) + jac_c(x).T @ mu with tol."}),
    ("x = (1.5, 0.5), mu = (1, 0.5)", [1.5, 0.5], [1.0, 0.5], 2,
     (False, True, True, False),
     {3: "complementary slackness asks mu_i c_i(x) = 0 for each i: the inactive constraint "
         "c_2 = -1.5 < 0 has mu_2 = 0.5, so it fails."}),
    ("x = (1, 0.5), mu = (2, -1)", [1.0, 0.5], [2.0, -1.0], 2,
     (False, True, False, False),
     {3: "complementary slackness must hold for each constraint separately: here "
         "mu_1 c_1 = -1 and mu_2 c_2 = +1 cancel in the sum; check every product "
         "(np.all(np.abs(mu * c(x)) <= tol)).",
      2: "dual feasibility asks mu_i >= 0 for every i (up to -tol)."}),
    ("x = (1.5, 0.5 + 1e-9), mu = (1, 0), within tolerance", [1.5, 0.5 + 1e-9], [1.0, 0.0], 2,
     (True, True, True, True),
     {1: "c_1 = 1e-9 is a rounding error: compare with the tolerance, c_i(x) <= tol, "
         "not c_i(x) <= 0.",
      0: "compare the stationarity residual with the tolerance, not with exact zero.",
      3: "compare |mu_i c_i(x)| with the tolerance, not with exact zero."}),
    ("three constraints, x = (1.5, 0.5), mu = (1, 0, 0)", [1.5, 0.5], [1.0, 0.0, 0.0], 3,
     (True, True, True, True),
     {0: "with m = 3 constraints jac_c(x) has shape (3, 2): one row per constraint "
         "gradient; the stationarity residual is grad_f(x) + jac_c(x).T @ mu."}),
    ("one constraint, x = (1.5, 0.5), mu = (1,)", [1.5, 0.5], [1.0], 1,
     (True, True, True, True), None),
]
_PROBLEMS = {1: (_h1, _jac1), 2: (_h2, _jac2), 3: (_h3, _jac3)}


def _as_verdicts(result, label):
    if isinstance(result, dict):
        keys = [k for k in _CONDITIONS if k in result]
        if len(keys) != 4:
            raise AnswerError(f"for {label} your function returned a dict with keys "
                              f"{sorted(map(str, result))}; return a tuple of four booleans "
                              f"(stationarity, primal, dual, slackness) instead.")
        result = [result[k] for k in _CONDITIONS]
    if isinstance(result, (str, bytes)) or result is None or np.ndim(result) != 1 \
            or len(result) != 4:
        raise AnswerError(f"for {label} your function returned "
                          f"{'None' if result is None else repr(result)[:60]}; it should return "
                          f"a tuple of four booleans (stationarity, primal feasibility, "
                          f"dual feasibility, complementary slackness).")
    out = []
    for v in result:
        if isinstance(v, (bool, np.bool_)):
            out.append(bool(v))
        elif isinstance(v, (int, np.integer)) and v in (0, 1):
            out.append(bool(v))
        else:
            raise AnswerError(f"for {label} your function returned {v!r} as a verdict; each "
                              f"of the four entries should be True or False (compare a "
                              f"residual with tol to get one).")
    return tuple(out)


@checker
def check_kkt_function(kkt, tol=1e-6):
    """Check a reader's function that tests the four KKT conditions at a point.

    The function must have the signature ``kkt(x, mu, grad_f, c, jac_c, tol)``
    with ``x`` of shape (n,), ``mu`` of shape (m,), ``grad_f(x)`` of shape
    (n,), ``c(x)`` of shape (m,) and ``jac_c(x)`` of shape (m, n) (row i is
    the gradient of ``c_i``), and return a tuple of four booleans: whether
    stationarity ``grad f + sum_i mu_i grad c_i = 0``, primal feasibility
    ``c_i <= 0``, dual feasibility ``mu_i >= 0`` and complementary
    slackness ``mu_i c_i = 0`` hold, each up to ``tol``.

    Book: (eq-kkt-stationarity) to (eq-kkt-slackness).

    Parameters
    ----------
    kkt : callable
        The reader's function.
    tol : float, default=1e-6
        Passed to the reader's function as ``tol``.

    Returns
    -------
    Feedback
        Correct when the verdicts agree on nine test points of the
        exercise's problem (with one, two or three constraints); otherwise
        the first disagreement with a hint about the usual mistake (the sign
        in stationarity, a sum instead of each product in complementary
        slackness, no tolerance, a transposed Jacobian).
    """
    if not callable(kkt):
        raise AnswerError(f"kkt should be a function kkt(x, mu, grad_f, c, jac_c, tol), "
                          f"but it is {'None' if kkt is None else type(kkt).__name__}.")
    for label, x, mu, m, expected, hints in _CASES:
        h, jac = _PROBLEMS[m]
        try:
            result = call_answer(kkt, np.array(x), np.array(mu), _grad_f, h, jac, tol,
                                 name="your function")
        except AnswerError as exc:
            if m != 2:
                raise AnswerError(f"{exc.hint} (with m = {m} constraint(s): jac_c(x) has shape "
                                  f"({m}, 2), one row per constraint gradient; use "
                                  f"jac_c(x).T @ mu)") from None
            raise
        got = _as_verdicts(result, label)
        for k in range(4):
            if got[k] != expected[k]:
                hint = (hints or {}).get(k)
                if hint is None:
                    hint = (f"it should be {expected[k]}; recompute this condition from "
                            f"its definition.")
                return Feedback(False, f"at {label} your function says {_CONDITIONS[k]} is "
                                       f"{got[k]}: {hint}")
    return Feedback(True, "your function agrees with the KKT conditions on all nine test "
                          "points (one, two and three constraints).")
