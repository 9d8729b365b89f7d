// The playground's training over its whole control grid, in node (V8, the
// JavaScript engine of Chromium): run by benchmarks/bench_playground.py,
// which passes the points and the grid on stdin as JSON and writes
// benchmarks/playground.md from the rows this prints (JSON on stdout).
//
// For each setting, as the page does it (svmlib/static/smo.js):
//   open:  a trainer from alpha = 0 (a preset loaded, the kernel changed),
//   add:   a point added to the solution of `open` (warm start at alpha = 0),
//   C+:    the C slider moved one step up (10^0.05) from that solution;
// each trainer is run frame by frame to its end.  A frame's cost is
// trainer.frame() (the Gram matrix in the first frame, then SMO for at most
// FRAME_SOLVE_MS) plus f on the page's shading grid (decision_grid), which
// the page computes at every frame, in wall-clock time and in the process's
// CPU time (which a loaded machine does not inflate); drawing on the canvas
// is not included (benchmarks/widgets.md measures the whole click in Chromium).

import * as smo from "../svmlib/static/smo.js";

const clock = performance;
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  const { X, y, extra, grid, settings, warmup } = job;
  const [x0, dx, nx, y1, dy, ny] = grid;

  function run_trainer(points, labels, params, start) {
    const trainer = smo.create_trainer(points, labels, params, start);
    const frames = [], cpu = [];
    let model;
    for (;;) {
      const t0 = clock.now(), c0 = process.cpuUsage();
      model = trainer.frame();
      smo.decision_grid(model, x0, dx, nx, y1, dy, ny);
      const c1 = process.cpuUsage(c0);
      frames.push(clock.now() - t0);
      cpu.push((c1.user + c1.system) / 1000);
      if (trainer.finished()) break;
    }
    return { model, frames, cpu };
  }
  function summary({ model, frames, cpu }) {
    if (!model) return null;
    return {
      frames: frames.length, max_frame: Math.max(...frames), first_frame: frames[0],
      max_cpu: Math.max(...cpu), total_cpu: cpu.reduce((a, b) => a + b, 0),
      total: frames.reduce((a, b) => a + b, 0), solve_ms: model.train_ms,
      n_iter: model.result.n_iter, converged: model.result.converged, phase: model.phase,
      kkt: model.result.kkt_violation, n_support: model.support.length,
    };
  }

  // warm-up: the JIT compiles the solver and the grid
  for (let k = 0; k < warmup; k++) {
    run_trainer(X, y, { kernel: "rbf", C: 1, gamma: 1, max_iter: smo.PLAYGROUND_ITERATIONS }, null);
  }
  const rows = [];
  for (const setting of settings) {
    const params = Object.assign({ coef0: 1, max_iter: smo.PLAYGROUND_ITERATIONS }, setting);
    const open = run_trainer(X, y, params, null);
    const X1 = X.concat([extra.slice(0, 2)]), y1 = y.concat([extra[2]]);
    const add = run_trainer(X1, y1, params,
                            { alpha: Array.from(open.model.alpha).concat([0]), C: params.C });
    // the C slider one step up, from a converged solution (a solve that ended at
    // the limit is left out: its next solve would run to the limit again)
    const C_up = Math.min(params.C * Math.pow(10, 0.05), 1000);
    const up = !open.model.result.converged ? {} :
      run_trainer(X, y, Object.assign({}, params, { C: C_up }), { alpha: open.model.alpha, C: params.C });
    rows.push({ setting, open: summary(open), add: summary(add), up: summary(up) });
    process.stderr.write(".");
  }
  process.stdout.write(JSON.stringify({ rows, frame_solve_ms: smo.FRAME_SOLVE_MS,
                                        cold_trial_ms: smo.COLD_TRIAL_MS,
                                        limit: smo.PLAYGROUND_ITERATIONS, node: process.version }));
});
