// The playground's solver spread over frames and warm-started after edits
// (svmlib/static/smo.js), run by node directly: `node --test tests/js/`
// (tests/test_playground_js.py runs it too).
//
// * a solve cut into slices (create_smo's run with an iteration budget or a
//   deadline) takes exactly the path of one run;
// * a warm start after an edit (a point added at alpha = 0, a point removed,
//   C moved) is feasible, keeps sum(alpha * y) = 0, and reaches the same
//   optimum as a cold start: KKT violation <= tol for both, the same dual
//   objective and the same predictions;
// * the playground's trainer reaches the KKT tolerance across frames, none of
//   which runs more SMO iterations than its budget.

import test from "node:test";
import assert from "node:assert/strict";
import * as smo from "../../svmlib/static/smo.js";

// ------------------------------------------------------------- data

function generator(seed) {            // mulberry32, then Box-Muller
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => {
    const u = Math.max(uniform(), 1e-300), v = uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  return { uniform, normal };
}

// n points in two overlapping Gaussian clouds, centres 1.5 apart, rounded as the page stores them.
function overlapping(n, seed) {
  const g = generator(seed);
  const X = [], y = [];
  for (let k = 0; k < n; k++) {
    const label = k % 2 === 0 ? 1 : -1;
    X.push([Math.round((0.75 * label + g.normal()) * 1000) / 1000, Math.round(g.normal() * 1000) / 1000]);
    y.push(label);
  }
  return { X, y, g };
}

const SETTINGS = [
  { kernel: "linear", C: 10 },
  { kernel: "rbf", C: 100, gamma: 1 },
  { kernel: "rbf", C: 1, gamma: 10 },
  { kernel: "poly", C: 10, gamma: 1, degree: 3, coef0: 1 },
  { kernel: "poly", C: 1, gamma: 0.1, degree: 5, coef0: 1 },
];
const TOL = 1e-3;

function sum_alpha_y(alpha, y) {
  let s = 0, total = 0;
  for (let t = 0; t < y.length; t++) { s += alpha[t] * y[t]; total += alpha[t]; }
  return { s, total };
}

function assert_feasible(alpha, y, C) {
  for (let t = 0; t < alpha.length; t++) assert.ok(alpha[t] >= 0 && alpha[t] <= C, `alpha[${t}] = ${alpha[t]}`);
  const { s, total } = sum_alpha_y(alpha, y);
  assert.ok(Math.abs(s) <= 1e-12 * Math.max(total, 1), `sum(alpha * y) = ${s}`);
}

// Same optimum: both at the KKT tolerance, same dual objective, same signs of f
// on a grid wherever f is not within 0.05 of the boundary.
function assert_same_optimum(cold, warm, label) {
  assert.ok(cold.result.converged && warm.result.converged, `${label}: both converge`);
  assert.ok(cold.result.kkt_violation <= TOL && warm.result.kkt_violation <= TOL, label);
  const rel = Math.abs(cold.result.objective - warm.result.objective) / Math.abs(cold.result.objective);
  assert.ok(rel < 1e-4, `${label}: objectives ${cold.result.objective} and ${warm.result.objective}`);
  const grid = [];
  for (let i = 0; i < 25; i++) for (let j = 0; j < 25; j++) grid.push([-3 + 0.25 * i, -3 + 0.25 * j]);
  const fc = smo.decision_function(cold, grid), fw = smo.decision_function(warm, grid);
  let checked = 0;
  for (let k = 0; k < grid.length; k++) {
    if (Math.abs(fc[k]) < 0.05) continue;
    checked += 1;
    assert.equal(Math.sign(fc[k]), Math.sign(fw[k]), `${label}: the sign of f at ${grid[k]}`);
  }
  assert.ok(checked > 300, `${label}: only ${checked} grid points away from the boundary`);
}

// ------------------------------------------------------------ slices

test("a solve cut into slices takes the path of one run", () => {
  const { X, y } = overlapping(120, 1);
  for (const params of SETTINGS.concat([{ kernel: "poly", C: 1000, gamma: 1, degree: 3, coef0: 1 }])) {
    const kernel = smo.get_kernel(Object.assign({ gamma: null, degree: 3, coef0: 0 }, params));
    const K = smo.gram_matrix(kernel, X);
    const options = { C: params.C, max_iter: 20000 };
    const whole = smo.solve_dual_smo(K, y, options);
    const solver = smo.create_smo(K, y, options);
    let slices = 0;
    while (!solver.run({ iterations: 37 })) slices += 1;
    const sliced = solver.snapshot();
    assert.ok(slices >= Math.floor(whole.n_iter / 37) - 1, `${params.kernel}: ${slices} slices`);
    assert.equal(sliced.n_iter, whole.n_iter);
    assert.equal(sliced.converged, whole.converged);
    assert.deepEqual(Array.from(sliced.alpha), Array.from(whole.alpha));
    assert.equal(sliced.b, whole.b);
  }
});

test("a deadline in the past stops a slice within a few iterations", () => {
  const { X, y } = overlapping(200, 2);
  const K = smo.gram_matrix(smo.get_kernel({ kernel: "poly", gamma: 1, degree: 3, coef0: 1 }), X);
  const solver = smo.create_smo(K, y, { C: 1000 });
  const done = solver.run({ deadline_ms: performance.now() - 1 });
  const snap = solver.snapshot();
  assert.equal(done, false);
  assert.ok(snap.n_iter >= 1 && snap.n_iter <= 32, `${snap.n_iter} iterations`);
  assert.equal(snap.finished, false);
  // a snapshot does not change the path: going on gives the same as never stopping
  solver.run({ iterations: 500 });
  const whole = smo.create_smo(K, y, { C: 1000 });
  whole.run({ iterations: snap.n_iter + 500 });
  assert.deepEqual(Array.from(solver.snapshot().alpha), Array.from(whole.snapshot().alpha));
});

// ------------------------------------------------------- warm starts

test("a point added at alpha = 0: the warm start reaches the cold optimum", () => {
  for (const params of SETTINGS) {
    const { X, y, g } = overlapping(200, 3);
    const before = smo.fit(X, y, params);
    const X1 = X.concat([[g.normal(), g.normal()]]), y1 = y.concat([1]);
    const start = smo.warm_start(Array.from(before.alpha).concat([0]), y1, params.C, params.C);
    assert.equal(start[200], 0);
    assert_feasible(start, y1, params.C);
    const cold = smo.fit(X1, y1, params);
    const warm = smo.fit(X1, y1, Object.assign({}, params, { alpha0: start }));
    assert_same_optimum(cold, warm, `add, ${JSON.stringify(params)}`);
    assert_feasible(warm.alpha, y1, params.C);
  }
});

test("a point removed: the warm start rebalances the other class and keeps sum(alpha * y) = 0", () => {
  for (const params of SETTINGS) {
    const { X, y } = overlapping(200, 4);
    const before = smo.fit(X, y, params);
    const k = before.support[0];                       // a support vector: alpha_k > 0
    assert.ok(before.alpha[k] > 0);
    const keep = (_, t) => t !== k;
    const X1 = X.filter(keep), y1 = y.filter(keep);
    const previous = Array.from(before.alpha).filter(keep);
    assert.ok(Math.abs(sum_alpha_y(previous, y1).s) > 0, "removing it unbalances the classes");
    const start = smo.warm_start(previous, y1, params.C, params.C);
    assert_feasible(start, y1, params.C);
    for (let t = 0; t < y1.length; t++) {         // only the class that had the surplus moves
      if (y1[t] === y[k]) assert.equal(start[t], previous[t]);
      else assert.ok(start[t] <= previous[t]);
    }
    const cold = smo.fit(X1, y1, params);
    const warm = smo.fit(X1, y1, Object.assign({}, params, { alpha0: start }));
    assert_same_optimum(cold, warm, `remove, ${JSON.stringify(params)}`);
  }
});

test("C moved: the start is scaled into the new box", () => {
  const { X, y } = overlapping(200, 5);
  const params = { kernel: "rbf", gamma: 1, C: 1 };
  const before = smo.fit(X, y, params);
  for (const C of [0.05, 30, 1000]) {
    const start = smo.warm_start(before.alpha, y, 1, C);
    assert_feasible(start, y, C);
    const cold = smo.fit(X, y, Object.assign({}, params, { C }));
    const warm = smo.fit(X, y, Object.assign({}, params, { C, alpha0: start }));
    assert_same_optimum(cold, warm, `C = ${C}`);
  }
  assert.equal(smo.warm_start(null, y, 1, 1), null);
  assert.equal(smo.warm_start(new Float64Array(200), y, 1, 1), null);   // nothing to start from
  assert.equal(smo.warm_start(before.alpha, y.slice(1), 1, 1), null);  // not aligned with y
});

test("an infeasible start is refused with a clear message", () => {
  const K = smo.gram_matrix(smo.linear, [[0, 0], [1, 1]]);
  assert.throws(() => smo.create_smo(K, [-1, 1], { C: 1, alpha0: [0.5, 2] }),
                /alpha0 must be feasible, 0 <= alpha0\[t\] <= C = 1; got alpha0\[1\]=2/);
  assert.throws(() => smo.create_smo(K, [-1, 1], { alpha0: [0.5] }), /alpha0 must hold one starting value per point, 2; got 1/);
});

// ------------------------------------------------------ across frames

// Budgets in SMO iterations only (no clock), so that the frames are the same on every machine.
const NO_CLOCK = { solve_ms: Infinity, cold_ms: Infinity };

test("the trainer reaches the KKT tolerance across frames, each within its budget", () => {
  const { X, y, g } = overlapping(200, 6);
  const hard = { kernel: "poly", C: 100, gamma: 1, degree: 1, coef0: 1, max_iter: smo.PLAYGROUND_ITERATIONS };
  const cold = smo.fit(X, y, hard);
  assert.ok(cold.result.converged && cold.result.n_iter > 5000, `a slow case: ${cold.result.n_iter} iterations`);
  // from alpha = 0, in frames of 2000 iterations
  const trainer = smo.create_trainer(X, y, hard, null, Object.assign({ frame_iterations: 2000 }, NO_CLOCK));
  let last = 0, model;
  do {
    model = trainer.frame();
    assert.ok(model.result.n_iter - last <= 2000, `a frame ran ${model.result.n_iter - last} iterations`);
    last = model.result.n_iter;
  } while (!trainer.finished());
  assert.ok(model.frames > 2 && model.phase === "cold");
  assert.equal(model.result.n_iter, cold.result.n_iter);           // the cold path, cut into frames
  assert.ok(model.result.converged && model.result.kkt_violation <= TOL);
  // after an edit: the cold trial gets 100 iterations, then the warm start takes over
  const X1 = X.concat([[g.normal(), g.normal()]]), y1 = y.concat([-1]);
  const start = { alpha: Array.from(model.alpha).concat([0]), C: hard.C };
  const after = smo.create_trainer(X1, y1, hard, start, Object.assign({ frame_iterations: 2000, cold_iterations: 100 }, NO_CLOCK));
  let frames = 0;
  while (!after.finished()) { after.frame(); frames += 1; }
  const warm = after.model();
  assert.equal(warm.phase, "warm");
  assert.equal(warm.frames, frames);
  assert_same_optimum(smo.fit(X1, y1, hard), warm, "trainer after an edit");
  // an easy setting ends in its first frame, by the cold path (svmlib's)
  const easy = smo.create_trainer(X1, y1, { kernel: "rbf", C: 1, gamma: 1 }, start, Object.assign({ cold_iterations: 100000 }, NO_CLOCK));
  const first = easy.frame();
  assert.ok(easy.finished() && first.phase === "cold" && first.frames === 1);
  assert.deepEqual(Array.from(first.alpha), Array.from(smo.fit(X1, y1, { kernel: "rbf", C: 1, gamma: 1 }).alpha));
});

test("a solve that cannot converge ends at the playground's limit", () => {
  const { X, y } = overlapping(60, 7);
  const params = { kernel: "poly", C: 1000, gamma: 100, degree: 5, coef0: 1, max_iter: 30000 };
  const trainer = smo.create_trainer(X, y, params, null, Object.assign({ frame_iterations: 7000 }, NO_CLOCK));
  while (!trainer.finished()) trainer.frame();
  const model = trainer.model();
  assert.equal(model.result.n_iter, 30000);
  assert.equal(model.result.converged, false);
  assert.equal(model.frames, 5);
  assert.ok(smo.PLAYGROUND_ITERATIONS >= 100000);
});
