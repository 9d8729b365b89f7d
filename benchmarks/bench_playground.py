"""Benchmark the SVM playground.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_playground.py``.

**The control grid (default; writes ``benchmarks/playground.md``).** Every
setting the page's controls allow, on a grid: kernel (linear, polynomial,
RBF) x C (0.01 ... 1000, the slider's range) x gamma (0.01 ... 100) x degree
(1 ... 5), on 200 overlapping points, trained as the page trains
(``smo.create_trainer`` of ``svmlib/static/smo.js``: a cold start, a warm
start after an edit, at most ``FRAME_SOLVE_MS`` of SMO per animation frame).
node runs ``benchmarks/playground_grid.mjs`` (V8, Chromium's JavaScript
engine); for each setting it opens the points (from alpha = 0), adds a point
(warm start) and moves the C slider one step (warm start), each to the end
of the solve, and times every frame: the trainer's share plus f on the
page's shading grid.  Goal: no frame over 50 ms at 200 points.

**A click in Chromium (``--browser``; writes the section "The playground"
of ``benchmarks/widgets.md``).** For 50, 200 and 500 points (two moons, RBF
kernel with gamma = 1, C = 1) the playground's kernel-free HTML (what the
book embeds) is opened from ``file://`` in headless Chromium, and a real
mouse click adds a point 30 times.  Measured in the page:

* *click to redrawn*: from the ``pointerdown`` event to the end of the
  redraw (Gram matrix, SMO, decision function on the shading grid, contours,
  points, readout), all synchronous in the click's handler;
* *to next frame*: from the same event to the second animation frame after
  it, i.e. until the browser has painted the new picture;
* the solver's share (Gram matrix + SMO) and the drawing's share.

The reference is svmlib in Python on the same data with the added point:
``SVC(...).fit`` alone, and fit plus ``decision_function`` on the same
number of grid points as the page's shading grid (no plotting).
"""

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

os.environ["SVMLIB_STATIC_WIDGETS"] = "1"

from svmlib import SVC, datasets  # noqa: E402
from svmlib.playground import Playground  # noqa: E402

OUT = Path(__file__).with_name("widgets.md")
START, END = "<!-- playground:start -->", "<!-- playground:end -->"
SIZES = (50, 200, 500)
CLICKS = 30
GAMMA, C = 1.0, 1.0
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-dev-shm-usage", "--no-first-run"]

# Screen position of (x, y) and its distance in pixels to the nearest point.
FREE_SPOT = """([x, y]) => {
    const c = document.querySelector('.svmlib-pg').svmlibPlayground;
    const spot = c.clientOf(x, y);
    let nearest = Infinity;
    for (const p of c.state.points) {
        const q = c.clientOf(p[0], p[1]);
        nearest = Math.min(nearest, Math.hypot(q.x - spot.x, q.y - spot.y));
    }
    return {x: spot.x, y: spot.y, nearest};
}"""


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def python_reference(X, y, n_grid, repeats=10):
    rng = np.random.default_rng(1)
    fit_times, total_times = [], []
    grid = np.column_stack([rng.uniform(-1.5, 2.5, n_grid), rng.uniform(-1.0, 1.5, n_grid)])
    for k in range(repeats):
        point = rng.uniform([-1.0, -0.5], [2.0, 1.0])
        X1, y1 = np.vstack([X, point]), np.append(y, 1 if k % 2 else -1)
        t0 = time.perf_counter()
        model = SVC(C=C, kernel="rbf", gamma=GAMMA).fit(X1, y1)
        t1 = time.perf_counter()
        model.decision_function(grid)
        t2 = time.perf_counter()
        fit_times.append((t1 - t0) * 1e3)
        total_times.append((t2 - t0) * 1e3)
    return statistics.median(fit_times), statistics.median(total_times)


def browser_main():
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("Chromium is not installed (apt-get install chromium)")
    load = os.getloadavg()[0]
    rows = []
    folder = Path(tempfile.mkdtemp(prefix="svmlib-bench-playground-"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for n in SIZES:
            X, y = datasets.moons(n=n, noise=0.15, random_state=0)
            pg = Playground(X=X, y=y, kernel="rbf", C=C, gamma=GAMMA, presets=False)
            page_file = folder / f"playground-{n}.html"
            page_file.write_text("<!doctype html><html><head><meta charset='utf-8'></head><body>"
                                 + pg.to_html() + "</body></html>", encoding="utf-8")
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(page_file.as_uri(), wait_until="load")
            page.wait_for_selector(".svmlib-pg canvas")
            original = pg.points
            grid_points = page.evaluate("""() => { const c = document.querySelector('.svmlib-pg')
                .svmlibPlayground; const w = c.canvas.getBoundingClientRect();
                return (Math.ceil(w.width / 5) + 1) * (Math.ceil(w.height / 5) + 1); }""")
            rng = np.random.default_rng(n)
            latencies, frames, trains, draws = [], [], [], []
            for k in range(CLICKS + 3):
                page.evaluate("(pts) => document.querySelector('.svmlib-pg').svmlibPlayground"
                              ".setPoints(pts)", original)
                while True:  # an empty place: a click on a point would start a drag
                    x, yy = rng.uniform(-1.0, 2.0), rng.uniform(-0.5, 1.0)
                    spot = page.evaluate(FREE_SPOT, [x, yy])
                    if spot["nearest"] > 15:
                        break
                page.evaluate("""() => { const c = document.querySelector('.svmlib-pg').svmlibPlayground;
                    window.__t0 = null; window.__painted = null;
                    c.canvas.addEventListener('pointerdown', () => { window.__t0 = performance.now();
                      requestAnimationFrame(() => requestAnimationFrame(() => {
                        window.__painted = performance.now(); })); }, {capture: true, once: true}); }""")
                page.mouse.click(spot["x"], spot["y"])
                page.wait_for_function("() => window.__painted !== null", timeout=10000)
                got = page.evaluate("""() => { const c = document.querySelector('.svmlib-pg')
                    .svmlibPlayground; return {t0: window.__t0, painted: window.__painted,
                    end: c.state.lastRedrawEnd, train: c.state.timing.train_ms,
                    draw: c.state.timing.draw_ms, n: c.state.points.length}; }""")
                assert got["n"] == n + 1, got
                if k < 3:
                    continue  # warm-up: the JIT compiles the solver
                latencies.append(got["end"] - got["t0"])
                frames.append(got["painted"] - got["t0"])
                trains.append(got["train"])
                draws.append(got["draw"])
            context.close()
            if errors:
                sys.exit(f"JavaScript errors at n={n}: {errors[:3]}")
            fit_ms, fit_grid_ms = python_reference(X, y, grid_points)
            rows.append({
                "n": n, "grid": grid_points,
                "click": statistics.median(latencies), "click90": percentile(latencies, 0.9),
                "frame": statistics.median(frames),
                "train": statistics.median(trains), "draw": statistics.median(draws),
                "py_fit": fit_ms, "py_total": fit_grid_ms,
            })
            print(f"n={n}: click to redrawn {rows[-1]['click']:.1f} ms, svmlib fit "
                  f"{fit_ms:.1f} ms", flush=True)
        version = browser.version
        browser.close()
    shutil.rmtree(folder, ignore_errors=True)
    write(rows, version, load)


def write(rows, version, load):
    lines = [
        START,
        "## The playground (training in the browser)",
        "",
        f"Written by `benchmarks/bench_playground.py`. Headless Chromium {version}, "
        f"{platform.machine()}, Python {platform.python_version()}; load average at the start "
        f"{load:.1f} on {os.cpu_count()} cores (wall-clock times on a shared machine vary from run "
        f"to run: compare rows, not absolute numbers).",
        "",
        f"The playground's book rendering opened from `file://`; two moons, RBF kernel "
        f"(gamma = {GAMMA:g}), C = {C:g}; a real mouse click adds one point, {CLICKS} clicks per "
        "row after 3 warm-up clicks. *click to redrawn*: from the `pointerdown` event to the end "
        "of the redraw (Gram matrix, SMO, f on the shading grid, contours, points, readout); *to "
        "next frame*: until the second animation frame after the click, when the new picture is "
        "on screen. Reference: `svmlib.SVC(...).fit` in Python on the same points, and fit plus "
        "`decision_function` on as many grid points as the page shades (no plotting). "
        "Goal: under 30 ms at 200 points.",
        "",
        "Medians in milliseconds.",
        "",
        "| points | click to redrawn | p90 | to next frame | page: solver | page: drawing "
        "| svmlib fit (Python) | svmlib fit + grid (Python) | grid points |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(f"| {r['n']} | {r['click']:.1f} | {r['click90']:.1f} | {r['frame']:.1f} | "
                     f"{r['train']:.1f} | {r['draw']:.1f} | {r['py_fit']:.1f} | "
                     f"{r['py_total']:.1f} | {r['grid']} |")
    at200 = next(r for r in rows if r["n"] == 200)
    lines += [
        "",
        f"At 200 points a click is redrawn in {at200['click']:.1f} ms "
        f"({'within' if at200['click'] < 30 else 'over'} the 30 ms goal); the solver's share is "
        f"{at200['train']:.1f} ms, against {at200['py_fit']:.1f} ms for `svmlib.SVC.fit` on the "
        "same points. Both run the same algorithm (`svmlib/static/smo.js` mirrors "
        "`svmlib/smo.py` step for step); svmlib pays NumPy's call overhead on every SMO "
        "iteration (some 30 microseconds, see `solve_dual_smo`'s docstring), the page's "
        "compiled loop a small fraction of that. The drawing shades f on a grid of 5-pixel "
        "cells, with the RBF kernel split into per-row and per-column factors "
        "(`decision_grid`), so it costs about the same at every size.",
        END,
    ]
    section = "\n".join(lines) + "\n"
    text = OUT.read_text(encoding="utf-8") if OUT.exists() else "# Widget benchmark\n"
    if START in text and END in text:
        text = re.sub(re.escape(START) + r"[\s\S]*?" + re.escape(END) + r"\n?", section, text)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")


# ------------------------------------------------------------ the control grid

GRID_OUT = Path(__file__).with_name("playground.md")
GRID_SCRIPT = Path(__file__).with_name("playground_grid.mjs")
C_GRID = (0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)
GAMMA_GRID = (0.01, 0.1, 1.0, 10.0, 100.0)
DEGREES = (1, 2, 3, 4, 5)
FRAME_GOAL_MS = 50.0
# The page's shading grid at its widest (a 660 x 436 px canvas, 5 px cells).
PAGE_GRID = (660, 436, 5)


def grid_settings():
    settings = [{"kernel": "linear", "C": C} for C in C_GRID]
    settings += [{"kernel": "rbf", "C": C, "gamma": g} for C in C_GRID for g in GAMMA_GRID]
    settings += [{"kernel": "poly", "C": C, "gamma": g, "degree": d}
                 for C in C_GRID for g in GAMMA_GRID for d in DEGREES]
    return settings


def grid_main():
    node = shutil.which("node")
    if node is None:
        sys.exit("node (>= 18) is not installed (apt-get install nodejs)")
    load = os.getloadavg()[0]
    X, y = datasets.overlapping_blobs(n=200, random_state=0)
    X = np.round(X, 3)
    y = np.where(y > 0, 1, -1)
    lo, hi = X.min(axis=0), X.max(axis=0)
    width, height, cell = PAGE_GRID
    nx, ny = width // cell + 1, height // cell + 1
    grid = [float(lo[0]), float((hi[0] - lo[0]) / (nx - 1)), nx,
            float(hi[1]), float((hi[1] - lo[1]) / (ny - 1)), ny]
    job = {"X": X.tolist(), "y": y.tolist(), "extra": [0.8, 0.4, 1], "grid": grid,
           "settings": grid_settings(), "warmup": 3}
    started = time.perf_counter()
    run = subprocess.run([node, str(GRID_SCRIPT)], input=json.dumps(job), capture_output=True,
                         text=True, timeout=3600)
    if run.returncode != 0:
        sys.exit(f"node failed: {run.stderr[-3000:]}")
    answer = json.loads(run.stdout)
    write_grid(answer, load, time.perf_counter() - started, nx * ny)


def _fmt_setting(s):
    if s["kernel"] == "linear":
        return f"linear, C = {s['C']:g}"
    if s["kernel"] == "rbf":
        return f"RBF, C = {s['C']:g}, γ = {s['gamma']:g}"
    return f"poly, C = {s['C']:g}, γ = {s['gamma']:g}, degree {s['degree']}"


def write_grid(answer, load, seconds, grid_points):
    rows = answer["rows"]
    edits = (("open", "open (from α = 0)"), ("add", "add a point (warm start)"),
             ("up", "C slider one step up (warm start)"))
    lines = [
        "# The playground over its control grid",
        "",
        f"Written by `benchmarks/bench_playground.py` (run `make bench`), node {answer['node']} "
        f"(V8), {platform.machine()}; load average at the start {load:.1f} on {os.cpu_count()} "
        f"cores; the run took {seconds:.0f} s. Wall-clock times on a shared machine vary from "
        "run to run.",
        "",
        f"{len(rows)} settings: linear x {len(C_GRID)} values of C; RBF x C x γ "
        f"({len(GAMMA_GRID)} values, 0.01 to 100); polynomial (coef0 = 1) x C x γ x degree 1 to "
        f"5; C from 0.01 to 1000, the ends of the page's sliders. 200 points of "
        "`datasets.overlapping_blobs(n=200, random_state=0)`. Each setting is trained as the "
        "page trains it (`smo.create_trainer` in `svmlib/static/smo.js`): at most "
        f"{answer['frame_solve_ms']} ms of SMO per animation frame; after an edit a cold start "
        f"for {answer['cold_trial_ms']} ms, then a warm start from the last multipliers (the "
        "new point at α = 0, Σαy = 0); the readout says \"still converging\" until SMO "
        f"has converged, and a solve ends after {answer['limit']:,} iterations. A *frame* is "
        "the trainer's share of one animation frame (with the Gram matrix in the first) plus "
        f"f on the page's shading grid ({grid_points} points); drawing on the canvas is "
        "not included (a few ms: `benchmarks/widgets.md`). *One handler*: the whole solve "
        "from α = 0 in one event handler, as the page did before (the sum of the open "
        "solve's frames: the frames take exactly its path).",
        "",
        "## Every frame, over the grid",
        "",
        "*CPU*: the node process's CPU time in the frame, which other programs on a loaded "
        "machine do not inflate; *wall*: wall-clock time, which they do (the solver's "
        "deadline is on the wall clock, so a preempted frame does less work, not more).",
        "",
        "| edit | solves | worst frame, CPU (ms) | over 50 ms, CPU | median frame, CPU (ms) "
        "| worst frame, wall (ms) | frames over 50 ms, wall | done in the first frame "
        "| converged later | ended at the limit | longest solve, wall (s) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    worst_all = 0.0
    for key, label in edits:
        frames = [r[key] for r in rows if r[key]]
        worst = max(f["max_cpu"] for f in frames)
        worst_all = max(worst_all, worst)
        over = sum(1 for f in frames if f["max_cpu"] > FRAME_GOAL_MS)
        median = statistics.median(f["total_cpu"] / f["frames"] for f in frames)
        wall = max(f["max_frame"] for f in frames)
        over_wall = sum(1 for f in frames if f["max_frame"] > FRAME_GOAL_MS)
        first = sum(1 for f in frames if f["frames"] == 1 and f["converged"])
        later = sum(1 for f in frames if f["frames"] > 1 and f["converged"])
        limit = sum(1 for f in frames if not f["converged"])
        longest = max(f["total"] for f in frames) / 1e3
        lines.append(f"| {label} | {len(frames)} | {worst:.1f} | {over} | {median:.1f} "
                     f"| {wall:.1f} | {over_wall} | {first} | {later} | {limit} | {longest:.1f} |")
    by_kernel = []
    for kernel in ("linear", "rbf", "poly"):
        sel = [r for r in rows if r["setting"]["kernel"] == kernel]
        if not sel:
            continue
        by_kernel.append(
            f"| {kernel} | {len(sel)} | {max(r['open']['max_cpu'] for r in sel):.1f} "
            f"| {max(r['open']['solve_ms'] for r in sel):.0f} "
            f"| {sum(1 for r in sel if r['open']['solve_ms'] > FRAME_GOAL_MS)} "
            f"| {sum(1 for r in sel if not r['open']['converged'])} |")
    lines += [
        "",
        f"Worst frame over all solves, in CPU time: {worst_all:.1f} ms "
        f"({'within' if worst_all <= FRAME_GOAL_MS else 'over'} the {FRAME_GOAL_MS:g} ms goal).",
        "",
        "## Frames against one handler (open, by kernel)",
        "",
        "| kernel | settings | worst frame, CPU (ms) | one handler, worst (wall ms) | one handler over 50 ms "
        "| ended at the limit |",
        "|---|---:|---:|---:|---:|---:|",
        *by_kernel,
        "",
        "## The slowest settings",
        "",
        "The 15 settings whose open solve took longest; for the edits, SMO iterations and frames "
        "to the end, and whether the warm start took over (*warm*) or the cold trial finished "
        "(*cold*); the C step is left out (–) where the open solve ended at the limit.",
        "",
        "| setting | open: iterations | open: frames | open: one handler (wall ms) | worst frame, CPU (ms) "
        "| add: iterations, frames | C up: iterations, frames | converged (open, add, C up) |",
        "|---|---:|---:|---:|---:|---|---|---|",
    ]
    slow = sorted(rows, key=lambda r: -r["open"]["solve_ms"])[:15]
    for r in slow:
        o, a, u = r["open"], r["add"], r["up"]
        yes = lambda f: ("yes" if f["converged"] else "no") if f else "–"  # noqa: E731
        edit = lambda f: f"{f['n_iter']:,}, {f['frames']} ({f['phase']})" if f else "–"  # noqa: E731
        lines.append(
            f"| {_fmt_setting(r['setting'])} | {o['n_iter']:,} | {o['frames']} | {o['solve_ms']:.0f} "
            f"| {max(f['max_cpu'] for f in (o, a, u) if f):.1f} "
            f"| {edit(a)} | {edit(u)} | {yes(o)}, {yes(a)}, {yes(u)} |")
    never = [r for r in rows if not r["open"]["converged"]]
    lines += [
        "",
        f"{len(never)} of {len(rows)} settings do not converge within {answer['limit']:,} SMO "
        "iterations from α = 0; all of them are "
        + (", ".join(sorted({_fmt_setting(r['setting']).split(',')[0] for r in never})) or "none")
        + " settings (a large γ or C: the polynomial kernel's values reach (γ‖x‖² + 1)^degree, "
        "and SMO's coordinate steps crawl on so badly conditioned a dual). The page stays "
        "responsive there, shows the current iterate with \"still converging\", and ends with "
        "\"SMO stopped after … iterations, before convergence\".",
        "",
    ]
    GRID_OUT.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {GRID_OUT}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--browser", action="store_true",
                        help="time real clicks in headless Chromium (writes widgets.md)")
    if parser.parse_args().browser:
        browser_main()
    else:
        grid_main()
