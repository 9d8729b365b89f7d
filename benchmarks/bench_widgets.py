"""Benchmark svmlib.widgets: live update latency and size of the static rendering.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/bench_widgets.py``);
writes ``benchmarks/widgets.md``.

Three interactive figures typical of the book are measured:

* ``line``: a line rotating over 200 points (one artist moves);
* ``regions``: decision regions of a linear function, recomputed on a
  120 × 120 grid at every update (shading, contour lines and a readout change);
* ``stepper``: an algorithm's steps, moving a line, recolouring bars of
  multipliers and updating an in-axes label across two panels.

Live latency is the time from changing an ipywidgets control to the new PNG
being in the ``Image`` widget (``update`` + redraw + PNG encoding), measured
through the real observers, with partial redrawing (the default) and with a
full redraw of every frame.  The static rendering is what ``make book`` embeds:
every setting rendered, colour-quantized, deduplicated.
"""

import os
import platform
import re
import statistics
import sys
import time
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")

from svmlib.plotting import plot_data, plot_decision_regions, plot_multipliers  # noqa: E402
from svmlib.widgets import Choice, InteractiveFigure, Slider, Stepper  # noqa: E402
from svmlib.widgets._core import MAX_HTML_BYTES  # noqa: E402

LOAD = 0.0
OUT = Path(__file__).with_name("widgets.md")
RNG = np.random.default_rng(0)
X = np.r_[RNG.normal(-1.2, 0.8, (100, 2)), RNG.normal(1.2, 0.8, (100, 2))]
Y = np.r_[-np.ones(100), np.ones(100)]


def normal(angle):
    t = np.deg2rad(angle)
    return np.array([np.cos(t), np.sin(t)])


def mistakes(w, b):
    return int(np.sum(Y * (X @ w + b) <= 0))


# ---------------------------------------------------------------- the figures

def line_figure(blit):
    def setup(fig):
        ax = fig.add_subplot()
        plot_data(X, Y, ax=ax)
        ax.set_xlim(-4, 4)
        ax.set_ylim(-3.5, 3.5)
        (line,) = ax.plot([], [], color="black", linewidth=1.8)
        return line

    def update(line, angle, bias):
        w = normal(angle)
        d = np.array([-w[1], w[0]])
        p = -bias * w
        line.set_data([p[0] - 12 * d[0], p[0] + 12 * d[0]], [p[1] - 12 * d[1], p[1] + 12 * d[1]])
        return f"mistakes: <b>{mistakes(w, bias)}</b>"

    controls = {"angle": Slider(list(range(0, 180, 12)), "angle θ", fmt="{:.0f}°"),
                "bias": Choice([-0.5, 0.0, 0.5, 1.0], "bias b")}
    return InteractiveFigure(setup, update, controls, blit=blit, title="line")


def regions_figure(blit):
    def setup(fig):
        ax = fig.add_subplot()
        plot_data(X, Y, ax=ax, legend=False)
        return ax

    def update(ax, angle, scale):
        for artist in list(ax.images) + [c for c in ax.collections if c.get_gid() == "levels"]:
            artist.remove()
        w = scale * normal(angle)
        plot_decision_regions(lambda Z: Z @ w, X, ax=ax, grid=120)
        return f"margin 1/‖w‖ = {1 / scale:.2f}, mistakes: {mistakes(w, 0.0)}"

    controls = {"angle": Slider(list(range(0, 180, 12)), "angle θ", fmt="{:.0f}°"),
                "scale": Slider([0.5, 1.0, 2.0, 4.0], "‖w‖")}
    return InteractiveFigure(setup, update, controls, blit=blit, title="regions")


def stepper_figure(blit):
    steps = 60
    angles = np.linspace(0, 170, steps)
    alphas = np.abs(np.sin(np.outer(np.arange(steps), np.arange(20)) / 7.0))

    def setup(fig):
        ax, bars_ax = fig.subplots(1, 2, width_ratios=[1.3, 1])
        plot_data(X, Y, ax=ax, legend=False)
        ax.set_xlim(-4, 4)
        ax.set_ylim(-3.5, 3.5)
        (line,) = ax.plot([], [], color="black")
        label = ax.text(0.03, 0.95, "", transform=ax.transAxes, va="top")
        plot_multipliers(np.ones(20), ax=bars_ax, C=1.2)
        bars_ax.set_ylim(0, 1.3)
        return {"line": line, "label": label, "bars": bars_ax.patches[:20]}

    def update(state, step):
        w = normal(angles[step])
        d = np.array([-w[1], w[0]])
        state["line"].set_data([-12 * d[0], 12 * d[0]], [-12 * d[1], 12 * d[1]])
        state["label"].set_text(f"step {step}")
        for bar, height in zip(state["bars"], alphas[step]):
            bar.set_height(height)
        return f"step {step}: mistakes {mistakes(w, 0.0)}"

    return InteractiveFigure(setup, update, {"step": Stepper(steps, "step")}, blit=blit,
                             figsize=(7, 3.5), title="stepper")


FIGURES = {"line": line_figure, "regions": regions_figure, "stepper": stepper_figure}


# ---------------------------------------------------------------- measurements

def live_latency(make, blit, repeats=2):
    """Milliseconds per control change through the ipywidgets observers."""
    fig = make(blit)
    update_times = []
    inner = fig.update_function

    def timed_update(*args, **kwargs):
        start = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            update_times.append(1000 * (time.process_time() - start))

    fig.update_function = timed_update
    _ = fig.widget  # builds the view and renders the first frame
    name, control = next(iter(fig.controls.items()))
    widget = fig._live["controls"][name]
    n = len(control)
    widget.value = 1 % n  # warm-up: the redrawer learns what moves
    widget.value = 2 % n
    wall, cpu = [], []
    update_times.clear()
    for _ in range(repeats):
        for i in list(range(n)) + list(range(n - 1, -1, -1)):
            start, start_cpu = time.perf_counter(), time.process_time()
            widget.value = i
            wall.append(1000 * (time.perf_counter() - start))
            cpu.append(1000 * (time.process_time() - start_cpu))
    return {"wall": statistics.median(wall), "wall90": float(np.percentile(wall, 90)),
            "cpu": statistics.median(cpu), "update": statistics.median(update_times),
            "full_draws": fig._redrawer.full_draws}


def static_rendering(make):
    fig = make(True)
    start = time.process_time()
    page = fig.to_html()
    seconds = time.process_time() - start
    images = len(re.findall(r'"iVBOR', page))  # base64 PNGs start with iVBOR
    return fig.n_settings, images, len(page.encode()), seconds


def main():
    global LOAD
    LOAD = os.getloadavg()[0]
    rows_live, rows_static = [], []
    for name, make in FIGURES.items():
        fast = live_latency(make, True)
        slow = live_latency(make, False)
        rows_live.append((name, fast, slow))
        rows_static.append((name, *static_rendering(make)))
        print(f"{name}: live {fast['cpu']:.1f} ms CPU (partial) vs {slow['cpu']:.1f} ms (full)",
              flush=True)

    lines = [
        "# Widget benchmark",
        "",
        "Written by `benchmarks/bench_widgets.py` (run `make bench`). Machine: "
        f"{platform.machine()}, Python {platform.python_version()}, matplotlib "
        f"{matplotlib.__version__}; figures 6 × 4 in at 80 dpi (480 × 320 px) unless stated. "
        f"Load average at the start: {LOAD:.1f} on {os.cpu_count()} cores; on a shared machine "
        "wall-clock times vary from run to run, CPU times (`time.process_time`) much less: "
        "compare rows, not absolute numbers.",
        "",
        "## Live update (Jupyter)",
        "",
        "Time from a control change to the new PNG in the `ipywidgets.Image`: `update`, "
        "redraw, PNG encoding. *Partial* redraws only the artists `update` changed "
        "(the default); *full* redraws the whole figure. Target: under 50 ms.",
        "",
        "Medians in milliseconds per control change.",
        "",
        "| figure | `update` alone (CPU) | partial (CPU) | partial (wall) | partial (wall, p90) "
        "| full (CPU) | full (wall) | speed-up (CPU) | full redraws |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, fast, slow in rows_live:
        lines.append(f"| {name} | {fast['update']:.1f} | {fast['cpu']:.1f} | {fast['wall']:.1f} | "
                     f"{fast['wall90']:.1f} | {slow['cpu']:.1f} | {slow['wall']:.1f} | "
                     f"{slow['cpu'] / fast['cpu']:.1f}× | {fast['full_draws']} |")
    lines += [
        "",
        "*`update` alone*: the figure's own `update` function (for `regions`, evaluating h on "
        "the grid and tracing the contours), included in the other columns. *full redraws*: "
        "how many of the partial-mode frames still needed a full draw (the first frames, while "
        "the redrawer learns which artists move).",
        "",
        "## Static rendering (the HTML book)",
        "",
        f"Every setting rendered once, quantized to 256 colours, identical images stored once. "
        f"Budget: {MAX_HTML_BYTES / 1e6:.1f} MB of HTML per figure.",
        "",
        "| figure | settings | distinct images | HTML size (kB) | kB per image | build time (CPU s) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, n, images, size, seconds in rows_static:
        lines.append(f"| {name} | {n} | {images} | {size / 1e3:.0f} | "
                     f"{size / 1e3 / max(images, 1):.1f} | {seconds:.1f} |")
    lines.append("")
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
