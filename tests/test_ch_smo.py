"""Tests of the SMO chapter's figures, interactive figures and checkers."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.svm import SVC as SklearnSVC  # noqa: E402

from svmlib import datasets, kernels  # noqa: E402
from svmlib.exercises.smo import (check_pair_update, check_violating_pair,  # noqa: E402
                                  pair_update_cases, violating_pair_cases)
from svmlib.objectives import dual_objective, kernel_matrix_Q, max_kkt_violation  # noqa: E402
from svmlib.plotting import smo as splot  # noqa: E402
from svmlib.solvers import analytic_pair_update, solve_dual_slsqp, solve_dual_smo  # noqa: E402
from svmlib.widgets import smo as swidgets  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _toy():
    X, y = datasets.overlapping_blobs(n=20, overlap=1.5, random_state=0)
    return X, y.astype(float)


# ------------------------------------------------------------------ pair_step
def _brute_force_pair(case, points=200_001):
    """Minimize f along the feasible segment by brute force (independent reference)."""
    step = splot.pair_step(**case)
    t = np.linspace(step["t_low"], step["t_high"], points)
    change = -(step["score_i"] - step["score_j"]) * t + 0.5 * step["eta"] * t ** 2
    best = t[np.argmin(change)]
    return case["alpha_i"] + case["y_i"] * best, case["alpha_j"] - case["y_j"] * best


@pytest.mark.parametrize("description, case", pair_update_cases()[:-1])
def test_pair_step_minimizes_on_the_segment(description, case):
    step = splot.pair_step(**case)
    a_i, a_j = _brute_force_pair(case)
    assert step["alpha_i_new"] == pytest.approx(a_i, abs=1e-4)
    assert step["alpha_j_new"] == pytest.approx(a_j, abs=1e-4)
    # stays on the line and in the box, and never increases f
    before = case["y_i"] * case["alpha_i"] + case["y_j"] * case["alpha_j"]
    after = case["y_i"] * step["alpha_i_new"] + case["y_j"] * step["alpha_j_new"]
    assert after == pytest.approx(before)
    assert 0 <= step["alpha_i_new"] <= case["C"] and 0 <= step["alpha_j_new"] <= case["C"]
    assert step["decrease"] <= 0


def test_pair_step_agrees_with_svmlib_on_random_pairs():
    rng = np.random.default_rng(1)
    for _ in range(2000):
        C = float(rng.choice([0.5, 1.0, 10.0, np.inf]))
        top = C if np.isfinite(C) else 5.0
        a_i, a_j = rng.uniform(0, top, 2) * (rng.random(2) > 0.25)
        y_i, y_j = rng.choice([-1.0, 1.0], 2)
        g_i, g_j = 3 * rng.normal(size=2)
        A = rng.normal(size=(2, 3))
        K = A @ A.T
        step = splot.pair_step(a_i, a_j, y_i, y_j, g_i, g_j, K[0, 0], K[1, 1], K[0, 1], C)
        ref = analytic_pair_update(a_i, a_j, y_i, y_j, g_i, g_j, K[0, 0], K[1, 1],
                                   y_i * y_j * K[0, 1], C)
        np.testing.assert_allclose([step["alpha_i_new"], step["alpha_j_new"]], ref, atol=1e-9)


def test_pair_step_unclipped_decrease_formula():
    # the decrease of the unclipped step is (s_i - s_j)^2 / (2 eta)
    case = pair_update_cases()[0][1]
    step = splot.pair_step(**case)
    assert not step["clipped"]
    assert step["decrease"] == pytest.approx(-(step["score_i"] - step["score_j"]) ** 2
                                             / (2 * step["eta"]))


def test_pair_step_at_uses_the_gradient():
    X, y = _toy()
    K = X @ X.T
    step = splot.pair_step_at(K, y, np.zeros(len(y)), 0, 1, 1.0)
    assert step["score_i"] == pytest.approx(y[0]) and step["score_j"] == pytest.approx(y[1])
    assert step["eta"] == pytest.approx(np.sum((X[0] - X[1]) ** 2))


# ---------------------------------------------------------- the tiny SMO of the book
def _tiny_smo(K, y, C, tol=1e-3, max_iter=10_000):
    n = len(y)
    Q = np.outer(y, y) * K
    alpha, grad = np.zeros(n), -np.ones(n)
    for _ in range(max_iter):
        score = -y * grad
        up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
        low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
        i = np.flatnonzero(up)[np.argmax(score[up])]
        j = np.flatnonzero(low)[np.argmin(score[low])]
        if score[i] - score[j] <= tol:
            break
        eta = max(K[i, i] + K[j, j] - 2 * K[i, j], 1e-12)
        tau = min((score[i] - score[j]) / eta, C - alpha[i] if y[i] > 0 else alpha[i],
                  alpha[j] if y[j] > 0 else C - alpha[j])
        alpha[i] += y[i] * tau
        alpha[j] -= y[j] * tau
        grad += tau * (y[i] * Q[:, i] - y[j] * Q[:, j])
    return alpha, grad


def test_tiny_smo_matches_svmlib_libsvm_and_slsqp():
    X, y = _toy()
    K = X @ X.T
    Q = kernel_matrix_Q(K, y)
    alpha, grad = _tiny_smo(K, y, 1.0, tol=1e-6)
    assert max_kkt_violation(alpha, grad, y, 1.0) <= 1e-6
    smo = solve_dual_smo(K, y, C=1.0, tol=1e-6)
    slsqp = solve_dual_slsqp(K, y, C=1.0)
    sk = SklearnSVC(kernel="linear", C=1.0, tol=1e-6).fit(X, y)
    alpha_sk = np.zeros(len(y))
    alpha_sk[sk.support_] = np.abs(sk.dual_coef_[0])
    np.testing.assert_allclose(alpha, smo.alpha, atol=1e-5)
    np.testing.assert_allclose(alpha, alpha_sk, atol=1e-4)
    for other in (smo.objective, slsqp.objective, dual_objective(alpha_sk, Q)):
        assert dual_objective(alpha, Q) == pytest.approx(other, rel=1e-6)
    # the chapter's description of the solution: 3 multipliers at C, 3 free
    assert np.sum(alpha >= 1.0 - 1e-9) == 3
    assert np.sum((alpha > 1e-9) & (alpha < 1.0 - 1e-9)) == 3


# ------------------------------------------------------------------ smo_states
def test_smo_states_replay_the_trace():
    X, y = _toy()
    K = X @ X.T
    result = solve_dual_smo(K, y, C=1.0, shrinking=False, record_trace=True)
    states = splot.smo_states(K, y, 1.0, result)
    assert len(states) == result.n_iter + 1
    assert states[0]["pair"] is None and states[-1]["next_pair"] is None
    objectives = [s["objective"] for s in states]
    assert np.all(np.diff(objectives) > 0)          # every step increases D
    for s in states:
        assert abs(s["alpha"] @ y) < 1e-9             # feasible all along
    assert states[-1]["violation"] <= 1e-3
    assert states[-1]["objective"] == pytest.approx(result.objective)
    # the violation of state k is the one the solver recorded before update k + 1
    for k, step in enumerate(result.trace):
        assert states[k]["violation"] == pytest.approx(step["violation"], rel=1e-6, abs=1e-9)


def test_smo_states_needs_a_trace():
    X, y = _toy()
    K = X @ X.T
    with pytest.raises(ValueError, match="record_trace=True"):
        splot.smo_states(K, y, 1.0, solve_dual_smo(K, y, C=1.0))


def test_violation_history_and_plot():
    X, y = datasets.moons(n=120, random_state=0)
    K = kernels.rbf(X, X, gamma=1.0)
    first, r1 = splot.violation_history(K, y, 10.0, "first_order")
    second, r2 = splot.violation_history(K, y, 10.0, "second_order")
    assert first.shape == (r1.n_iter + 1,) and second.shape == (r2.n_iter + 1,)
    assert first[-1] <= 1e-3 and second[-1] <= 1e-3
    ax = splot.plot_violation_history({"first": first, "second": second}, tol=1e-3)
    assert ax.get_yscale() == "log"
    assert len(ax.get_lines()) == 3


# ----------------------------------------------------------------- shrinking
def test_plot_cache_runs_bars_add_up_to_the_requests():
    X, y = datasets.moons(n=120, noise=0.25, random_state=0)

    def rbf(A, B):
        return kernels.rbf(A, B, gamma=1.0)

    runs = {mb: solve_dual_smo(rbf, y, C=10.0, X=X, cache_size=mb,
                               precompute_kernel=False, shrinking=False)
            for mb in (0.002, 1.0)}
    # the cache changes how fast an iteration runs, never which pair is chosen
    assert runs[0.002].n_iter == runs[1.0].n_iter
    assert runs[1.0].info["cache_misses"] <= 120
    ax = splot.plot_cache_runs(runs, n=120)
    bars = ax.patches
    assert len(bars) == 4                       # computed and served, per run
    for k, mb in enumerate(runs):
        info = runs[mb].info
        computed, served = bars[k].get_height(), bars[k + 2].get_height()
        assert computed == pytest.approx(info["kernel_values_computed"] / 1e6)
        assert served == pytest.approx(info["cache_hits"] * 120 / 1e6)
        # every row request is either served or computed: the bars are equal
        total = (info["cache_hits"] + info["cache_misses"]) * 120 / 1e6
        assert computed + served == pytest.approx(total, rel=0.05)
    assert [t.get_text().split("\n")[0] for t in ax.get_xticklabels()] == [
        "0.002 MB", "1 MB"]
    plt.close("all")


def test_shrinkable_mask_only_sets_aside_bounded_non_violators():
    X, y = datasets.overlapping_blobs(n=200, random_state=0)
    y = y.astype(float)
    K = kernels.rbf(X, X, gamma=1.0)
    Q = kernel_matrix_Q(K, y)
    result = solve_dual_smo(K, y, C=10.0, tol=1e-8)
    alpha = result.alpha
    grad = Q @ alpha - 1.0
    mask = splot.shrinkable_mask(alpha, grad, y, 10.0)
    free = (alpha > 0) & (alpha < 10.0)
    assert not np.any(mask & free)                    # free multipliers are never set aside
    assert mask.mean() > 0.5                          # at the solution most are settled
    # at alpha = 0 nothing can be set aside: every score is y_t, so m = 1 and M = -1
    assert not splot.shrinkable_mask(np.zeros_like(y), -np.ones_like(y), y, 10.0).any()


def test_settled_history():
    X, y = datasets.moons(n=150, random_state=0)
    K = kernels.rbf(X, X, gamma=1.0)
    its, fractions, result = splot.settled_history(K, y, 10.0, every=10)
    assert its[0] == 0 and its[-1] == result.n_iter
    assert np.all((fractions >= 0) & (fractions <= 1))
    assert fractions[-1] > 0.5
    ax = splot.plot_settled_history({"moons": (its, fractions)})
    assert ax.get_ylim() == (0, 100)


# -------------------------------------------------------------------- timing
def test_fit_growth_recovers_a_power_law():
    n = np.array([100, 200, 400, 800])
    p, c = splot.fit_growth(n, 3e-7 * n ** 2.5)
    assert p == pytest.approx(2.5) and c == pytest.approx(3e-7)
    with pytest.raises(ValueError, match="same length"):
        splot.fit_growth([1, 2], [1.0])


def test_time_solvers_and_plot_timings():
    calls = []

    def make(n):
        return n

    def solver(problem):
        calls.append(problem)
        return lambda: 2.0 * problem             # objective computed after timing

    def solver_result(problem):
        X, y = datasets.moons(n=problem, random_state=0)
        return solve_dual_smo(kernels.rbf(X, X, gamma=1.0), y, C=1.0)

    rows = splot.time_solvers({"a": [10, 20], "svmlib SMO": [40, 80]}, make,
                              {"a": solver, "svmlib SMO": solver_result}, repeat=2)
    assert [r["n"] for r in rows] == [10, 20, 40, 80]
    assert rows[0]["objective"] == 20.0 and rows[0]["n_iter"] is None
    assert rows[2]["n_iter"] > 0
    assert calls == [10, 10, 20, 20]
    ax, exponents = splot.plot_timings(rows)
    assert set(exponents) == {"a", "svmlib SMO"}
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"


# ------------------------------------------------------------------- figures
def test_plot_pair_update_and_state():
    step = splot.pair_step(**pair_update_cases()[2][1])
    ax = splot.plot_pair_update(step, names=("3", "7"))
    assert ax.get_xlabel() == "$\\alpha_{3}$"
    labels = ax.get_legend_handles_labels()[1]
    assert "clipped update" in labels and "unclipped minimizer" in labels
    hard = splot.pair_step(**pair_update_cases()[-1][1])      # C = inf
    splot.plot_pair_update(hard)
    X, y = _toy()
    result = solve_dual_smo(X @ X.T, y, C=1.0)
    ax = splot.plot_smo_state(X, y, result.alpha, result.b, pair=(0, 1), numbers=True)
    assert len(ax.texts) == len(y)


# ------------------------------------------------------------------- widgets
def test_smo_stepper_frames_and_readouts():
    X, y = _toy()
    fig = swidgets.smo_stepper(X, y, C=1.0)
    assert fig.n_settings <= 60
    rules = fig.controls["rule"].values
    second, first = (fig.states[r] for r in rules)
    assert len(second) - 1 == fig.results[rules[0]].n_iter
    assert len(second) < len(first)                  # second order needs fewer updates here
    # At alpha = 0 every positive point ties for i (score 1): the last one
    # wins, as in LIBSVM (-G[t] >= Gmax), so i = 19, the last of class +1.
    assert "Start" in fig.text() and "(19, 15)" in fig.text()
    png, readout = fig.frame(rule=rules[1], step=1)
    assert png[:4] == b"\x89PNG"
    i, j = first[1]["pair"]
    assert f"pair (i, j) = ({i}, {j})" in readout
    _, last = fig.frame(rule=rules[0], step=fig.controls["step"].values[-1])
    assert "Converged" in last and "This run stops" in last
    # deterministic
    assert fig.frame(rule=rules[1], step=3)[1] == fig.frame(rule=rules[1], step=3)[1]


def test_pair_update_exercise_goal():
    fig = swidgets.pair_update_exercise()
    assert fig.n_settings <= 60
    for label, step in fig.steps.items():
        target = round(step["alpha_j_new"], 10)
        assert fig.goal(pair=label, alpha_j=target)
        _, readout = fig.frame(pair=label, alpha_j=target)
        assert "clipped update" in readout and "feasible" in readout
        # the unclipped optimum, when on the grid, is not the answer
        star = round(step["alpha_j_star"], 10)
        if step["clipped"] and star in fig.controls["alpha_j"].values:
            assert not fig.goal(pair=label, alpha_j=star)
            assert "outside the box" in fig.frame(pair=label, alpha_j=star)[1]
    # exactly one goal setting per pair
    hits = [s for s in fig.settings() if fig.goal(**s)]
    assert len(hits) == len(fig.steps)
    assert not fig.goal(**fig.settings()[0])


def test_pair_update_exercise_rejects_off_grid_optimum():
    case = dict(swidgets.default_pair_cases())
    with pytest.raises(ValueError, match="not on the slider grid"):
        swidgets.pair_update_exercise(cases=case, grid=[0.0, 0.25, 1.0])


# ------------------------------------------------------------------ checkers
def _pair_update(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj, K_ij, C):
    s_i, s_j = -y_i * grad_i, -y_j * grad_j
    eta = max(K_ii + K_jj - 2 * K_ij, 1e-12)
    tau = (s_i - s_j) / eta
    low_i, high_i = (-alpha_i, C - alpha_i) if y_i > 0 else (alpha_i - C, alpha_i)
    low_j, high_j = (alpha_j - C, alpha_j) if y_j > 0 else (-alpha_j, C - alpha_j)
    tau = min(max(tau, low_i, low_j), high_i, high_j)
    return alpha_i + y_i * tau, alpha_j - y_j * tau


def _no_clip(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj, K_ij, C):
    tau = (-y_i * grad_i + y_j * grad_j) / (K_ii + K_jj - 2 * K_ij)
    return alpha_i + y_i * tau, alpha_j - y_j * tau


def _clip_separately(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj, K_ij, C):
    a_i, a_j = _no_clip(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj, K_ij, C)
    return min(max(a_i, 0), C), min(max(a_j, 0), C)


def _wrong_sign(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj, K_ij, C):
    return _pair_update(alpha_i, alpha_j, y_i, y_j, -grad_i, -grad_j, K_ii, K_jj, K_ij, C)


def _half_step(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj, K_ij, C):
    return _pair_update(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, 2 * K_ii, 2 * K_jj,
                        2 * K_ij, C)


def _positive_only(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj, K_ij, C):
    # the tiny_smo clipping, which assumes tau > 0
    tau = (-y_i * grad_i + y_j * grad_j) / (K_ii + K_jj - 2 * K_ij)
    tau = min(tau, C - alpha_i if y_i > 0 else alpha_i, alpha_j if y_j > 0 else C - alpha_j)
    return alpha_i + y_i * tau, alpha_j - y_j * tau


def _backwards_unclipped(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj, K_ij, C):
    # the step taken against the descent direction and not clipped: the sign is the
    # mistake to name, although the pair also leaves the box
    tau = (-y_i * grad_i + y_j * grad_j) / (K_ii + K_jj - 2 * K_ij)
    return alpha_i - y_i * tau, alpha_j + y_j * tau


def test_check_pair_update_right_answers():
    assert check_pair_update(_pair_update)

    # other parameter names, or *args, are fine: the checker calls positionally
    def renamed(ai, aj, yi, yj, gi, gj, kii, kjj, kij, c):
        return _pair_update(ai, aj, yi, yj, gi, gj, kii, kjj, kij, c)

    assert check_pair_update(renamed)
    assert check_pair_update(lambda *args: _pair_update(*args))

    def svmlib_version(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj, K_ij, C):
        return analytic_pair_update(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, K_ii, K_jj,
                                    y_i * y_j * K_ij, C)

    assert check_pair_update(svmlib_version)


@pytest.mark.parametrize("answer, hint", [
    (_no_clip, "outside the box"),
    (_clip_separately, "left its line"),
    (_wrong_sign, "wrong way"),
    (_half_step, "factor 2"),
    (_positive_only, "from below as well as from above"),
    (_backwards_unclipped, "wrong way"),
    (lambda *a, **k: None, "is None"),
    (lambda *a, **k: (1.0, 2.0, 3.0), "shape"),
    (lambda *a, **k: 1 / 0, "ZeroDivisionError"),
    ("not a function", "should be a function"),
])
def test_check_pair_update_hints(answer, hint):
    feedback = check_pair_update(answer)
    assert not feedback
    assert hint in feedback.message


def _mvp(alpha, grad, y, C):
    score = -y * grad
    up = np.flatnonzero(((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0)))
    low = np.flatnonzero(((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C)))
    i, j = up[np.argmax(score[up])], low[np.argmin(score[low])]
    return int(i), int(j), float(score[i] - score[j])


def _mvp_swapped(alpha, grad, y, C):
    i, j, gap = _mvp(alpha, grad, y, C)
    return j, i, gap


def _mvp_no_sets(alpha, grad, y, C):
    score = -y * grad
    i, j = int(np.argmax(score)), int(np.argmin(score))
    return i, j, float(score[i] - score[j])


def _mvp_j_from_all(alpha, grad, y, C):
    i, _, _ = _mvp(alpha, grad, y, C)
    score = -y * grad
    j = int(np.argmin(score))
    return i, j, float(score[i] - score[j])


def _mvp_sign(alpha, grad, y, C):
    return _mvp(alpha, -grad, y, C)


def _mvp_gap_sign(alpha, grad, y, C):
    i, j, gap = _mvp(alpha, grad, y, C)
    return i, j, -gap


def test_check_violating_pair_right_answer_and_cases():
    assert check_violating_pair(_mvp)
    for _, alpha, grad, y, C in violating_pair_cases():
        _, _, gap = _mvp(alpha, grad, y, C)
        assert gap == pytest.approx(max_kkt_violation(alpha, grad, y, C))


@pytest.mark.parametrize("answer, hint", [
    (_mvp_swapped, "The indices i and j are swapped"),
    (_mvp_no_sets, "Index i = 0 is not in I_up"),
    (_mvp_j_from_all, "Index j = 3 is not in I_low"),
    (_mvp_sign, "the sign of the score"),
    (_mvp_gap_sign, "s_i - s_j"),
    (lambda a, g, y, C: (0, 1), "three values"),
    (lambda a, g, y, C: (0.5, 1, 0.2), "whole numbers"),
    (lambda a, g, y, C: None, "three values"),
    (lambda a, g, y, C: a[100], "IndexError"),
])
def test_check_violating_pair_hints(answer, hint):
    feedback = check_violating_pair(answer)
    assert not feedback
    assert hint in feedback.message
