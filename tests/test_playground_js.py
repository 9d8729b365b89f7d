"""The playground's JavaScript SMO solver against svmlib.SVC.

``svmlib/static/smo.js`` mirrors :func:`svmlib.smo.solve_dual_smo`; here node
runs it on the same data as :class:`svmlib.SVC` (every preset of the
playground, linear, polynomial and RBF kernels, several C and gamma,
duplicate points, a class with a single point) and the two must give:

* the same dual objective, within 1e-6 relative;
* the same predictions on a 40 x 40 grid over the data (points where
  ``|f| < 1e-2``, ten times the solvers' tolerance, are skipped, and must be
  rare), and decision values within ``1e-2`` of each other;
* the same support vectors, up to ties: a point that is a support vector for
  one solver only must have a multiplier below ``1e-6 C`` there, or be a
  duplicate of a point that is a support vector for both.

Also: the module's input checks, and the playground's bundles.
"""

import json
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

from svmlib import SVC, datasets
from svmlib.playground import PRESETS, STATIC_DIR, Playground, javascript_bundle, preset

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node (>= 18) is not installed: "
                                "apt-get install nodejs to test the playground's solver")

SMO_JS = STATIC_DIR / "smo.js"

_RUNNER = r"""
import * as smo from "%s";
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const out = [];
  for (const job of JSON.parse(input)) {
    try {
      const model = smo.fit(job.X, job.y, job.params);
      out.push({alpha: Array.from(model.alpha), b: model.b, objective: model.result.objective,
                converged: model.result.converged, n_iter: model.result.n_iter,
                shrink_events: model.result.shrink_events,
                gamma: model.kernel_params.gamma,
                decision: Array.from(smo.decision_function(model, job.grid))});
    } catch (error) {
      out.push({error: String(error.message)});
    }
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def run_js(jobs):
    """Fit every job with smo.js in one node process; return its answers."""
    script = _RUNNER % SMO_JS.as_uri()
    result = subprocess.run([NODE, "--input-type=module", "-e", script],
                            input=json.dumps(jobs), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _duplicates(X):
    X = np.asarray(X)
    _, inverse, counts = np.unique(X, axis=0, return_inverse=True, return_counts=True)
    return inverse.ravel(), counts


def _case(name, X, y, **params):
    return {"name": name, "X": np.asarray(X, dtype=float), "y": np.asarray(y, dtype=int),
            "params": params}


def _cases():
    cases = []
    defaults = Playground().params
    for key in PRESETS:
        X, y = preset(key)
        cases.append(_case(f"preset {key}, the page's defaults", X, y,
                           kernel=defaults["kernel"], C=defaults["C"], gamma=defaults["gamma"],
                           degree=defaults["degree"], coef0=defaults["coef0"]))
    X, y = datasets.separable_blobs(n=40, random_state=3)
    cases.append(_case("separable, linear, C=100", X, y, kernel="linear", C=100.0))
    cases.append(_case("separable, linear, C=0.01", X, y, kernel="linear", C=0.01))
    X, y = datasets.overlapping_blobs(n=120, random_state=2)
    cases.append(_case("overlapping, linear, C=1", X, y, kernel="linear", C=1.0))
    cases.append(_case("overlapping, rbf, gamma=scale", X, y, kernel="rbf", C=1.0, gamma="scale"))
    X, y = datasets.moons(n=200, noise=0.15, random_state=1)
    cases.append(_case("moons, rbf, gamma=10, C=100", X, y, kernel="rbf", C=100.0, gamma=10.0))
    cases.append(_case("moons, rbf, gamma=0.1, C=0.05", X, y, kernel="rbf", C=0.05, gamma=0.1))
    X, y = datasets.circles(n=150, random_state=4)
    cases.append(_case("circles, poly degree 2", X, y, kernel="poly", C=10.0, gamma=1.0,
                       degree=2, coef0=1.0))
    cases.append(_case("circles, rbf, gamma=30, C=1000", X, y, kernel="rbf", C=1000.0,
                       gamma=30.0))
    X, y = datasets.xor(n=120, random_state=5)
    cases.append(_case("xor, poly degree 3, coef0=0", X, y, kernel="poly", C=0.5, gamma=0.5,
                       degree=3, coef0=0.0))
    cases.append(_case("xor, rbf, gamma=2", X, y, kernel="rbf", C=3.0, gamma=2.0))
    X, y = datasets.moons(n=40, noise=0.2, random_state=6)
    X2 = np.vstack([X, X[:15]])                         # 15 exact duplicates
    y2 = np.concatenate([y, y[:15]])
    cases.append(_case("duplicate points, rbf", X2, y2, kernel="rbf", C=2.0, gamma=1.0))
    X3 = np.vstack([X, X[:5]])                          # same point, both labels
    y3 = np.concatenate([y, -y[:5]])
    cases.append(_case("duplicates with opposite labels, linear", X3, y3, kernel="linear",
                       C=1.0))
    rng = np.random.default_rng(7)
    X4 = np.vstack([rng.normal(0, 1, (20, 2)), [[3.0, 3.0]]])
    y4 = np.array([-1] * 20 + [1])
    cases.append(_case("a single point of class +1, rbf", X4, y4, kernel="rbf", C=1.0,
                       gamma=0.5))
    cases.append(_case("a single point of class +1, linear", X4, y4, kernel="linear", C=10.0))
    cases.append(_case("two points", [[0.0, 0.0], [1.0, 1.0]], [-1, 1], kernel="linear",
                       C=1.0))
    return cases


CASES = _cases()
# Both solvers stop once the KKT violation is at most tol = 1e-3; two runs
# whose paths part (the Gram matrices differ in the last bits: BLAS against a
# plain loop) agree on f(x) to about tol, so predictions are compared where
# |f| exceeds ten times that.
MARGIN_OF_ROUNDING = 1e-2


def _grid(X, size=40):
    low, high = X.min(axis=0) - 0.5, X.max(axis=0) + 0.5
    g1, g2 = np.meshgrid(np.linspace(low[0], high[0], size), np.linspace(low[1], high[1], size))
    return np.column_stack([g1.ravel(), g2.ravel()])


@pytest.fixture(scope="module")
def answers():
    jobs = []
    for case in CASES:
        params = {k: (float(v) if isinstance(v, float) else v)
                  for k, v in case["params"].items()}
        jobs.append({"X": case["X"].tolist(), "y": case["y"].tolist(), "params": params,
                     "grid": _grid(case["X"]).tolist()})
    return run_js(jobs)


def test_there_are_enough_cases():
    assert len(CASES) >= 12
    kernels = {c["params"]["kernel"] for c in CASES}
    assert kernels == {"linear", "poly", "rbf"}


@pytest.mark.parametrize("k", range(len(CASES)), ids=[c["name"] for c in CASES])
def test_js_solver_matches_svmlib(answers, k):
    case, js = CASES[k], answers[k]
    assert "error" not in js, js.get("error")
    p = case["params"]
    model = SVC(C=p["C"], kernel=p["kernel"], gamma=p.get("gamma", "scale"),
                degree=p.get("degree", 3), coef0=p.get("coef0", 0.0)).fit(case["X"], case["y"])
    result = model.solver_result_
    assert js["converged"] and result.converged
    # the same dual objective
    assert js["objective"] == pytest.approx(result.objective, rel=1e-6, abs=1e-12)
    if p["kernel"] != "linear":
        assert js["gamma"] == pytest.approx(model._gamma, rel=1e-12)
    # the same predictions on a grid, away from the boundary
    grid = _grid(case["X"])
    f_py = model.decision_function(grid)
    f_js = np.array(js["decision"])
    clear = np.abs(f_py) > MARGIN_OF_ROUNDING
    assert clear.mean() > 0.9
    assert np.array_equal(np.sign(f_js[clear]), np.sign(f_py[clear]))
    scale = max(1.0, float(np.abs(f_py).max()))
    assert np.max(np.abs(f_js - f_py)) < MARGIN_OF_ROUNDING * scale
    # the same support vectors, up to ties
    alpha_js, alpha_py = np.array(js["alpha"]), model.alpha_
    sv_js, sv_py = alpha_js > 0, alpha_py > 0
    group, _ = _duplicates(case["X"])
    both = set(group[sv_js & sv_py].tolist())
    tiny = 1e-6 * p["C"]
    for t in np.flatnonzero(sv_js != sv_py):
        other = alpha_py[t] if sv_js[t] else alpha_js[t]
        mine = alpha_js[t] if sv_js[t] else alpha_py[t]
        assert mine <= tiny or other <= tiny or group[t] in both, (
            f"point {t} is a support vector for one solver only (alpha {alpha_js[t]:.3g} in "
            f"JS, {alpha_py[t]:.3g} in svmlib)")


_SAME_GRAM = r"""
import * as smo from "%s";
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map((job) => {
    const trace = [];
    const r = smo.solve_dual_smo(Float64Array.from(job.K), job.y, {
      C: job.C, shrinking: job.shrinking, selection: job.selection,
      callback: (step) => { trace.push([step.i, step.j]); }});
    return {alpha: Array.from(r.alpha), b: r.b, objective: r.objective, n_iter: r.n_iter,
            shrink_events: r.shrink_events, kkt_violation: r.kkt_violation, trace};
  });
  process.stdout.write(JSON.stringify(out));
});
"""


@pytest.mark.parametrize("selection", ["second_order", "first_order"])
@pytest.mark.parametrize("shrinking", [True, False])
def test_js_takes_the_same_path_as_svmlib_on_the_same_gram_matrix(selection, shrinking):
    """Given one Gram matrix, the mirror makes the same SMO steps as svmlib.smo.

    The same working pair (i, j) at every iteration, and multipliers equal to
    rounding at the end; the same number of shrinking events.  One exception,
    by design: once the violation falls below 10 tol, LIBSVM's rule rebuilds
    the gradient of the shrunk variables, which NumPy does with a BLAS product
    and JavaScript with a loop; the last bits then differ, and a later near-tie
    may pick another pair.  So with shrinking the pairs must agree up to that
    point (the first problem takes thousands of iterations: shrinking has
    acted several times by then) and the results to the solvers' tolerance.
    """
    from svmlib.kernels import linear, rbf
    from svmlib.smo import solve_dual_smo

    problems = []
    X, y = datasets.moons(n=400, noise=0.25, random_state=8)
    problems.append((rbf(X, X, gamma=5.0), y, 1000.0))
    X, y = datasets.overlapping_blobs(n=300, random_state=9)
    problems.append((linear(X, X), y, 1.0))
    X, y = datasets.xor(n=200, random_state=10)
    problems.append((rbf(X, X, gamma=0.7), y, 0.3))
    jobs = [{"K": K.ravel().tolist(), "y": y.tolist(), "C": C, "shrinking": shrinking,
             "selection": selection} for K, y, C in problems]
    result = subprocess.run([NODE, "--input-type=module", "-e", _SAME_GRAM % SMO_JS.as_uri()],
                            input=json.dumps(jobs), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    for (K, y, C), js in zip(problems, json.loads(result.stdout)):
        py = solve_dual_smo(K, y.astype(float), C=C, shrinking=shrinking, selection=selection,
                            record_trace=True)
        pairs_py = [(step["i"], step["j"]) for step in py.trace]
        pairs_js = [tuple(pair) for pair in js["trace"]]
        same = next((k for k, (a, b) in enumerate(zip(pairs_py, pairs_js)) if a != b),
                    min(len(pairs_py), len(pairs_js)))
        violations = [step["violation"] for step in py.trace]
        rebuilt = next((k for k, v in enumerate(violations) if v <= 10 * 1e-3), len(violations))
        if same == len(pairs_py) == len(pairs_js):
            np.testing.assert_allclose(js["alpha"], py.alpha, rtol=0, atol=1e-9 * C)
            assert js["b"] == pytest.approx(py.b, abs=1e-9)
            assert js["objective"] == pytest.approx(py.objective, rel=1e-12)
            assert js["shrink_events"] == py.info["shrink_events"]
        else:
            assert shrinking, f"paths part at iteration {same} without shrinking"
            assert same >= rebuilt, f"paths part at iteration {same}, before iteration {rebuilt}"
            assert js["objective"] == pytest.approx(py.objective, rel=1e-6)
            assert js["kkt_violation"] <= 1e-3
        if shrinking and K.shape[0] == 400:
            assert py.info["shrink_events"] >= 3 and rebuilt > 3000


def test_js_pair_update_and_intercept_agree_with_python():
    from svmlib.dual import compute_intercept
    from svmlib.smo import analytic_pair_update

    rng = np.random.default_rng(11)
    pairs = []
    for _ in range(200):
        y_i, y_j = rng.choice([-1.0, 1.0], 2)
        C = float(rng.choice([0.5, 1.0, 10.0]))
        a_i, a_j = (float(v) for v in rng.uniform(0, C, 2))
        g_i, g_j = (float(v) for v in rng.normal(0, 2, 2))
        Q_ii, Q_jj = (float(v) for v in rng.uniform(0.1, 3, 2))
        Q_ij = float(rng.uniform(-1, 1)) * np.sqrt(Q_ii * Q_jj) * y_i * y_j
        pairs.append([a_i, a_j, y_i, y_j, g_i, g_j, Q_ii, Q_jj, Q_ij, C])
    alpha = rng.uniform(0, 1, 30)
    alpha[:10] = 0.0
    alpha[10:15] = 1.0
    grad = rng.normal(0, 1, 30)
    y = rng.choice([-1.0, 1.0], 30)
    script = (f'import * as smo from "{SMO_JS.as_uri()}";\n'
              f"const pairs = {json.dumps(pairs)};\n"
              "const out = pairs.map((p) => smo.analytic_pair_update(...p));\n"
              f"const b = smo.compute_intercept({json.dumps(alpha.tolist())}, "
              f"{json.dumps(grad.tolist())}, {json.dumps(y.tolist())}, 1.0);\n"
              "process.stdout.write(JSON.stringify({out, b}));")
    result = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    for p, got in zip(pairs, answer["out"]):
        assert got == pytest.approx(list(analytic_pair_update(*p)), rel=1e-14, abs=1e-15)
    assert answer["b"] == pytest.approx(compute_intercept(alpha, grad, y, 1.0), rel=1e-14)


@pytest.mark.parametrize("params, message", [
    ({"kernel": "sigmoid"}, "kernel must be one of"),
    ({"kernel": "rbf", "gamma": -1}, "gamma must be a positive"),
    ({"kernel": "poly", "degree": 0, "gamma": 1}, "degree must be an integer"),
    ({"kernel": "linear", "C": 0}, "C must be > 0"),
])
def test_js_rejects_bad_parameters_with_a_clear_message(params, message):
    answer = run_js([{"X": [[0, 0], [1, 1]], "y": [-1, 1], "params": params, "grid": []}])[0]
    assert message in answer["error"]


def test_js_needs_both_classes():
    answer = run_js([{"X": [[0, 0], [1, 1]], "y": [1, 1], "params": {}, "grid": []}])[0]
    assert "both classes" in answer["error"]


def test_bundles_are_self_contained():
    classic = javascript_bundle("classic")
    module = javascript_bundle("module")
    assert "import " not in classic.split("\n", 3)[0] and "\nexport " not in classic
    assert "export default" in module and 'from "./smo.js"' not in module
    # the classic bundle parses and mounts nothing by itself
    check = subprocess.run([NODE, "--check", "-"], input=classic, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    with pytest.raises(ValueError, match="kind must be"):
        javascript_bundle("umd")


def test_package_data_lists_the_javascript():
    text = (pathlib.Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    assert 'svmlib = ["static/*.js"]' in text
    assert (STATIC_DIR / "playground.js").exists() and SMO_JS.exists()


@pytest.mark.parametrize("params", [
    {"kernel": "linear", "C": 1.0},
    {"kernel": "rbf", "C": 10.0, "gamma": 3.0},
    {"kernel": "poly", "C": 1.0, "gamma": 0.5, "degree": 3, "coef0": 1.0},
])
def test_the_fast_grid_of_the_picture_equals_the_decision_function(params):
    """decision_grid (what the page shades) against decision_function, point by point."""
    X, y = preset("moons")
    script = (f'import * as smo from "{SMO_JS.as_uri()}";\n'
              f"const model = smo.fit({json.dumps(X.tolist())}, {json.dumps(y.tolist())}, "
              f"{json.dumps(params)});\n"
              "const [x0, dx, nx, y1, dy, ny] = [-1.5, 0.07, 50, 1.4, 0.05, 40];\n"
              "const fast = smo.decision_grid(model, x0, dx, nx, y1, dy, ny);\n"
              "const points = [];\n"
              "for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) "
              "points.push([x0 + i * dx, y1 - j * dy]);\n"
              "const slow = smo.decision_function(model, points);\n"
              "let worst = 0; for (let k = 0; k < fast.length; k++) "
              "worst = Math.max(worst, Math.abs(fast[k] - slow[k]));\n"
              "process.stdout.write(JSON.stringify({worst, n: fast.length}));")
    result = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["n"] == 2000
    assert answer["worst"] < 1e-9


# ------------------------------------------------------------ the Python side

def test_playground_points_and_text_come_from_the_preset():
    pg = Playground(preset="six", kernel="linear", C=100.0)
    X, y = preset("six")
    np.testing.assert_array_equal(pg.X, X)
    np.testing.assert_array_equal(pg.y, y)
    assert pg.params == {"kernel": "linear", "C": 100.0, "gamma": 1.0, "degree": 3, "coef0": 1.0}
    assert "svmlib.SVC: 3 support vectors (3 with 0 < alpha < C, 0 with alpha = C)" in pg.text()
    model = pg.svc().fit(pg.X, pg.y)
    assert model.n_support_.sum() == 3


def test_playground_takes_points_and_rejects_bad_input():
    pg = Playground(X=[[0.0, 0.0], [1.0, 1.0]], y=[-1, 1], kernel="poly", degree=2)
    assert pg.X.shape == (2, 2) and pg.params["degree"] == 2
    with pytest.raises(ValueError, match="kernel must be one of"):
        Playground(kernel="sigmoid")
    with pytest.raises(ValueError, match=r"C must be a number in \[0.01, 1000\]; got C=0"):
        Playground(C=0)
    with pytest.raises(ValueError, match="gamma must be a number"):
        Playground(gamma=float("nan"))
    with pytest.raises(ValueError, match="degree must be an integer from 1 to 5"):
        Playground(degree=7)
    with pytest.raises(ValueError, match=r"X must have shape \(n_samples, 2\)"):
        Playground(X=np.zeros((3, 3)), y=[1, -1, 1])
    with pytest.raises(ValueError, match="labels -1 and \\+1"):
        Playground(X=np.zeros((2, 2)), y=[0, 1])
    with pytest.raises(ValueError, match="X was given without y"):
        Playground(X=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="preset must be one of"):
        Playground(preset="spirals")
    with pytest.raises(ValueError, match="goal_n_support must be a positive integer"):
        Playground(goal_n_support=0)


def test_one_class_only_is_described_without_fitting():
    pg = Playground(X=[[0.0, 0.0], [1.0, 0.0]], y=[1, 1])
    assert "2 of class +1, 0 of class -1" in pg.text()
    assert "svmlib.SVC" not in pg.text()


def test_the_book_html_inlines_everything(monkeypatch):
    monkeypatch.setenv("SVMLIB_STATIC_WIDGETS", "1")
    pg = Playground(title="A test")
    data, _ = pg._repr_mimebundle_()
    page = data["text/html"]
    assert data["text/plain"] == pg.text()
    assert "<script>" in page and "src=" not in page.split("<script>")[1][:200]
    assert "solve_dual_smo" in page and "mount(document.getElementById(" in page
    assert "</script" not in page.split("<script>", 1)[1].rsplit("</script>", 1)[0]
    assert page == pg.to_html()                     # built once
    monkeypatch.setenv("SVMLIB_STATIC_WIDGETS", "0")
    assert "text/html" not in Playground()._repr_mimebundle_()[0]


def test_the_widget_syncs_points_to_python():
    pytest.importorskip("anywidget")
    pg = Playground(preset="six", kernel="linear", C=100.0)
    widget = pg.widget
    assert "export default" in widget._esm
    widget.points = [*widget.points, [0.0, 0.0, 1]]   # as the page sends an added point
    assert pg.X.shape == (7, 2) and pg.y[-1] == 1
    assert pg.svc().fit(pg.X, pg.y).n_support_.sum() == 2
    widget.summary = {"n_support": 2}
    assert pg.summary == {"n_support": 2}


def test_the_node_tests_of_slices_warm_starts_and_frames():
    """tests/js/playground_solver.test.mjs, run by node itself (no bundler).

    A solve cut into slices takes the path of one run; a warm start after an
    edit (a point added at alpha = 0, one removed, C moved) is feasible with
    sum(alpha * y) = 0 and reaches the cold start's optimum; the playground's
    trainer reaches the KKT tolerance across frames within each frame's budget.
    """
    folder = pathlib.Path(__file__).resolve().parent / "js"
    run = subprocess.run([NODE, "--test", str(folder / "playground_solver.test.mjs")],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# pass 8" in run.stdout and "# fail 0" in run.stdout, run.stdout[-2000:]


def test_the_playground_trains_by_frames_and_says_when_it_is_not_done():
    # The reviewer's freeze: 200 overlapping points, polynomial kernel, C = 1000,
    # where SMO needs hundreds of thousands of iterations.  The playground trains
    # with smo.create_trainer, a frame's share at a time (FRAME_SOLVE_MS), ends
    # a solve at PLAYGROUND_ITERATIONS, and its readout says "still converging"
    # while it goes on and "SMO stopped after" when it gave up.
    source = (STATIC_DIR / "playground.js").read_text(encoding="utf-8")
    assert "smo.create_trainer(" in source and "max_iter: smo.PLAYGROUND_ITERATIONS" in source
    assert "still converging" in source and "SMO stopped after" in source
    assert "requestAnimationFrame" in source.split("function continueSoon", 1)[1][:200]


def test_the_legend_names_the_decision_function_h_as_the_book_does():
    # The reviewers' notation drift: the legend wrote "f = 0" and "f = ±1"
    # where the book (and the playground page) call the decision function h.
    source = (STATIC_DIR / "playground.js").read_text(encoding="utf-8")
    legend = source.split("function showLegend", 1)[1].split("\n  }\n", 1)[0]
    entries = [entry.rsplit("}", 1)[1].removesuffix("</span>`,").strip()
               for entry in legend.split("\n") if entry.strip().startswith("`<span>")]
    assert entries[-2:] == ["h = 0", "h = ±1"], entries
    assert not any(entry.startswith("f ") for entry in entries), entries
