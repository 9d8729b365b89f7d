"""Benchmark of the dual solvers: svmlib's SMO, the SLSQP route and LIBSVM.

Run from the repository root (``make bench`` or
``.venv/bin/python benchmarks/bench_solvers.py``); it writes
``benchmarks/solvers.md``.

Set-up, the same for every solver: a binary problem from
``sklearn.datasets.make_classification`` (20 features, 10 informative, 5 %
flipped labels, standardized), the RBF kernel with ``gamma="scale"``,
``C = 1`` and stopping tolerance ``tol = 1e-3`` (LIBSVM's default ``eps``).
LIBSVM is ``sklearn.svm.SVC`` with its default 200 MB cache and shrinking;
svmlib's SMO uses the same cache size.  LIBSVM runs on one core, so BLAS is
limited to one thread for every solver (threadpoolctl).  Each time is the
best of several runs (fewer for the large sizes), the solvers taking turns so
that changes in the machine's load affect them alike.  Peak memory of the
n = 20,000 run is measured with tracemalloc (NumPy reports its allocations
to it) in a separate run, since tracing slows NumPy down.

SMO runs compiled (Numba, the default); for n <= 500 the same steps run as
plain Python too (``compiled=False``), which is what the compiled path saves.
With the Gram matrix too large for the cache (n = 20,000) the built-in
kernel's rows are computed and cached in compiled code
(``svmlib/_smo_rows.py``), so the whole loop runs compiled.  Two more
sections: the linear kernel with a large C on overlapping data
(n = 2,000; the problems that need 10^5-10^7 iterations), and the time of the
first call in a fresh process, with Numba's on-disk cache warm and cold
(an empty ``NUMBA_CACHE_DIR``), measured in subprocesses.

Options: ``--quick`` (small sizes only, to check the script),
``--no-large`` (skip n = 20,000).
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
import scipy
import sklearn
from sklearn.datasets import make_classification
from sklearn.svm import SVC as LibsvmSVC
from threadpoolctl import threadpool_limits

from svmlib import datasets, kernels
from svmlib.qp import solve_dual_slsqp
from svmlib.smo import solve_dual_smo

SIZES = (250, 500, 1000, 2000, 4000)
SLSQP_MAX_N = 1000
INTERPRETED_MAX_N = 500
LINEAR_N = 2000
LINEAR_CS = (100.0, 10_000.0)
#: Best of 3 for C = 100 (a fraction of a second, easily disturbed by the load); once for C = 10,000.
LINEAR_REPEATS = {100.0: 3, 10_000.0: 1}
LARGE_N = 20_000
ABLATION_N = 2000
C = 1.0
TOL = 1e-3
OUTPUT = Path(__file__).with_name("solvers.md")


def make_data(n):
    """Standardized 20-feature binary problem; y in {-1, +1}."""
    X, y = make_classification(n, n_features=20, n_informative=10, flip_y=0.05, random_state=0)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    return X, np.where(y == 1, 1.0, -1.0)


def best_time(run, repeats):
    """Best wall-clock time of ``repeats`` calls, and the last result."""
    times, results = best_times({"run": run}, repeats)
    return times["run"], results["run"]


def best_times(runs, repeats):
    """Best time of each of several runs, interleaved so that load changes hit all alike.

    Parameters
    ----------
    runs : dict of name -> callable
    repeats : int

    Returns
    -------
    times : dict of name -> float (seconds)
    results : dict of name -> the last return value
    """
    times = {name: np.inf for name in runs}
    results = {}
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            results[name] = run()
            times[name] = min(times[name], time.perf_counter() - start)
    return times, results


def libsvm_objective(model, X, gamma):
    """The dual objective D = sum alpha - 1/2 c^T K c of a fitted sklearn SVC (c = alpha y)."""
    c = model.dual_coef_[0]
    sv = X[model.support_]
    return float(np.abs(c).sum() - 0.5 * c @ kernels.rbf(sv, sv, gamma=gamma) @ c)


def repeats_for(n):
    return 5 if n <= 1000 else (3 if n <= 4000 else 1)


def run_size(n):
    X, y = make_data(n)
    gamma = kernels.resolve_gamma("scale", X)
    kernel = kernels.get_kernel("rbf", gamma=gamma)
    repeats = repeats_for(n)
    times, results = best_times({
        "libsvm": lambda: LibsvmSVC(C=C, tol=TOL, gamma=gamma).fit(X, y),
        "smo": lambda: solve_dual_smo(kernel, y, C=C, tol=TOL, X=X)}, repeats)
    model, result = results["libsvm"], results["smo"]
    rows = {"LIBSVM (sklearn.svm.SVC)": (times["libsvm"], libsvm_objective(model, X, gamma),
                                         len(model.support_), int(model.n_iter_[0])),
            "svmlib SMO": (times["smo"], result.objective, int((result.alpha > 0).sum()),
                           result.n_iter)}
    if n <= INTERPRETED_MAX_N:
        t, result = best_time(lambda: solve_dual_smo(kernel, y, C=C, tol=TOL, X=X,
                                                     compiled=False), 1)
        rows["svmlib SMO, steps as plain Python (compiled=False)"] = (
            t, result.objective, int((result.alpha > 0).sum()), result.n_iter)
    if n <= SLSQP_MAX_N:
        def slsqp():
            K = kernel(X, X)          # the general route needs the whole matrix
            return solve_dual_slsqp(K, y, C=C)
        t, result = best_time(slsqp, 1)
        rows["svmlib SLSQP"] = (t, result.objective, int((result.alpha > 0).sum()), result.n_iter)
    return rows


def run_ablation(n):
    """SMO variants at one size: what each ingredient buys."""
    X, y = make_data(n)
    gamma = kernels.resolve_gamma("scale", X)
    kernel = kernels.get_kernel("rbf", gamma=gamma)
    variants = {
        "default (second order, shrinking; a built-in kernel's rows computed on demand "
        "beyond n = 1,024)": {},
        "no shrinking": {"shrinking": False},
        "first-order selection (maximal violating pair)": {"selection": "first_order"},
        "Gram matrix built up front (precompute_kernel=True)": {"precompute_kernel": True},
    }
    runs = {"LIBSVM": lambda: LibsvmSVC(C=C, tol=TOL, gamma=gamma).fit(X, y)}
    for name, options in variants.items():
        runs[name] = (lambda options=options:
                      solve_dual_smo(kernel, y, C=C, tol=TOL, X=X, **options))
    times, results = best_times(runs, 3)
    t_ref = times.pop("LIBSVM")
    rows = {name: (t, t / t_ref, results[name].n_iter, results[name].objective)
            for name, t in times.items()}
    return t_ref, rows


def run_large(n):
    X, y = make_data(n)
    gamma = kernels.resolve_gamma("scale", X)
    kernel = kernels.get_kernel("rbf", gamma=gamma)
    times, results = best_times({
        "libsvm": lambda: LibsvmSVC(C=C, tol=TOL, gamma=gamma).fit(X, y),
        "smo": lambda: solve_dual_smo(kernel, y, C=C, tol=TOL, X=X),
        "plain": lambda: solve_dual_smo(kernel, y, C=C, tol=TOL, X=X, shrinking=False)}, 2)
    elapsed, t_plain, t_ref = times["smo"], times["plain"], times["libsvm"]
    result, plain, model = results["smo"], results["plain"], results["libsvm"]
    # Peak memory in a separate run: tracing every allocation slows NumPy down.
    tracemalloc.start()
    solve_dual_smo(kernel, y, C=C, tol=TOL, X=X)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"time": elapsed, "peak_mb": peak / 2**20, "objective": result.objective,
            "plain_time": t_plain, "plain_objective": plain.objective,
            "plain_n_iter": plain.n_iter,
            "plain_kernel_values": plain.info["kernel_values_computed"],
            "n_iter": result.n_iter, "n_sv": int((result.alpha > 0).sum()),
            "kernel_values": result.info["kernel_values_computed"],
            "cached": result.info["kernel_values_cached"],
            "uncached": result.info["kernel_values_uncached"],
            "rebuilt": result.info["kernel_values_rebuilding_gradient"],
            "hits": result.info["cache_hits"], "misses": result.info["cache_misses"],
            "shrink_events": result.info["shrink_events"], "libsvm_time": t_ref,
            "libsvm_objective": libsvm_objective(model, X, gamma),
            "full_matrix_mb": n * n * 8 / 2**20}


def run_linear(n):
    """Linear kernel, large C, overlapping classes: many iterations, mostly shrunk."""
    X, y = datasets.overlapping_blobs(n, random_state=0)
    rows = {}
    for C_value in LINEAR_CS:
        times, results = best_times({
            "libsvm": lambda: LibsvmSVC(kernel="linear", C=C_value, tol=TOL).fit(X, y),
            "smo": lambda: solve_dual_smo(kernels.linear, y, C=C_value, tol=TOL, X=X)},
            LINEAR_REPEATS[C_value])
        model, result = results["libsvm"], results["smo"]
        c = model.dual_coef_[0]
        sv = X[model.support_]
        objective = float(np.abs(c).sum() - 0.5 * c @ (sv @ sv.T) @ c)
        rows[C_value] = (times["libsvm"], objective, int(model.n_iter_[0]), times["smo"],
                         result.objective, result.n_iter)
    return rows


FIRST_CALL = """
import json, sys, time
t0 = time.perf_counter()
import numpy as np
from svmlib import datasets, kernels
from svmlib.smo import solve_dual_smo
X, y = datasets.moons(200, noise=0.3, random_state=0)
K = kernels.rbf(X, X, gamma=1.0)
t1 = time.perf_counter()
if "startup-first" in sys.argv:
    # Numba's own start-up, which the first compiled call of any process
    # pays: its typing and target contexts load their registries of types
    # and implementations.
    from numba.core.registry import cpu_target
    cpu_target.typing_context.refresh()
    cpu_target.target_context.refresh()
t_startup = time.perf_counter()
solve_dual_smo(K, y.astype(float), C=1.0)
t2 = time.perf_counter()
solve_dual_smo(K, y.astype(float), C=1.0)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "startup": t_startup - t1, "first": t2 - t_startup,
                  "second": t3 - t2}))
"""


def run_first_call(repeats=3):
    """First solve in a fresh process: Numba's cache warm (the median of
    ``repeats`` processes, with and without Numba's start-up done first),
    then cold (an empty cache directory)."""
    def once(env, *flags):
        out = subprocess.run([sys.executable, "-c", FIRST_CALL, *flags], env=env, check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out.strip().splitlines()[-1])

    def median_run(env, *flags):
        runs = [once(env, *flags) for _ in range(repeats)]
        return {key: float(np.median([r[key] for r in runs])) for key in runs[0]}

    env = dict(os.environ)
    once(env)                                  # make sure the cache is written
    warm = median_run(env)
    split = median_run(env, "startup-first")
    with tempfile.TemporaryDirectory() as cache_dir:
        cold = once({**env, "NUMBA_CACHE_DIR": cache_dir})
    return warm, split, cold


def fmt_time(t):
    return f"{t * 1000:.0f} ms" if t < 1 else f"{t:.2f} s"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes 250 and 500 only")
    parser.add_argument("--no-large", action="store_true", help="skip n = 20,000")
    parser.add_argument("--note", default="", help="a paragraph about this run (e.g. the load)")
    args = parser.parse_args(argv)
    sizes = (250, 500) if args.quick else SIZES
    lines = [
        "# Solver benchmark: svmlib SMO vs the SLSQP route vs LIBSVM",
        "",
        "Written by `benchmarks/bench_solvers.py`. Binary `make_classification` data (20 "
        "features, standardized), RBF kernel with `gamma=\"scale\"`, C = 1, tol = 1e-3, "
        "200 MB kernel cache; BLAS limited to one thread (LIBSVM is single-threaded); best "
        "of 5 runs (n ≤ 1000), 3 runs (n ≤ 4000) or 2 runs (n = 20,000). \"Objective\" is the dual "
        "objective D(α) = Σα − ½ αᵀQα (equal across solvers when all reach the optimum). "
        "Times depend on the machine and its load; the ratios are what to read.",
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, NumPy "
        f"{np.__version__}, SciPy {scipy.__version__}, scikit-learn {sklearn.__version__}.",
        "",
        *([f"Note on this run: {args.note}", ""] if args.note else []),
        "## Time against n",
        "",
        "| n | solver | time | ratio to LIBSVM | objective D(α) | support vectors | iterations |",
        "|---:|:---|---:|---:|---:|---:|---:|",
    ]
    with threadpool_limits(limits=1, user_api="blas"):
        for n in sizes:
            rows = run_size(n)
            t_ref = rows["LIBSVM (sklearn.svm.SVC)"][0]
            for name, (t, objective, n_sv, n_iter) in rows.items():
                lines.append(f"| {n} | {name} | {fmt_time(t)} | {t / t_ref:.2f} | "
                             f"{objective:.6f} | {n_sv} | {n_iter} |")
            print(f"n = {n} done", file=sys.stderr, flush=True)
        if not args.quick:
            t_ref, rows = run_ablation(ABLATION_N)
            lines += ["", f"## What each ingredient of SMO buys (n = {ABLATION_N})", "",
                      f"LIBSVM: {fmt_time(t_ref)}.", "",
                      "| SMO variant | time | ratio to LIBSVM | iterations | objective D(α) |",
                      "|:---|---:|---:|---:|---:|"]
            for name, (t, ratio, n_iter, objective) in rows.items():
                lines.append(f"| {name} | {fmt_time(t)} | {ratio:.2f} | {n_iter} | "
                             f"{objective:.6f} |")
            print("ablation done", file=sys.stderr, flush=True)
        if not args.quick:
            rows = run_linear(LINEAR_N)
            lines += ["", f"## Linear kernel, large C, overlapping classes (n = {LINEAR_N:,})", "",
                      "`svmlib.datasets.overlapping_blobs(2000)`, 2 features; best of 3 runs "
                      "for C = 100, one run for C = 10,000. These problems need 10⁴–10⁷ iterations with the active set "
                      "mostly shrunk, so the cost per iteration is what is compared.", "",
                      "| C | LIBSVM time | svmlib SMO time | ratio to LIBSVM | iterations "
                      "(LIBSVM / svmlib) | objective D(α) (LIBSVM / svmlib) |",
                      "|---:|---:|---:|---:|---:|---:|"]
            for C_value, (t_ref, obj_ref, it_ref, t, obj, it) in rows.items():
                lines.append(f"| {C_value:g} | {fmt_time(t_ref)} | {fmt_time(t)} | "
                             f"{t / t_ref:.2f} | {it_ref} / {it} | {obj_ref:.6g} / {obj:.6g} |")
            print("linear done", file=sys.stderr, flush=True)
            warm, split, cold = run_first_call()
            lines += ["", "## First call in a fresh process (n = 200, RBF, precomputed Gram "
                      "matrix)", "",
                      "Seconds, in a subprocess: importing svmlib (NumPy, SciPy, scikit-learn, "
                      "Numba), the first solve (Numba loads the compiled steps from its "
                      "on-disk cache, or compiles them when the cache is cold) and a second "
                      "solve. Warm rows: the median of 3 processes. The second warm row does "
                      "Numba's own start-up first (its typing and target contexts, which the "
                      "first compiled call of any process pays), to show how the first solve "
                      "divides.", "",
                      "| Numba cache | import | Numba's start-up | first solve | second solve |",
                      "|:---|---:|---:|---:|---:|",
                      f"| warm | {warm['import']:.2f} | (in the first solve) | "
                      f"{warm['first']:.2f} | {warm['second']:.3f} |",
                      f"| warm, Numba's start-up first | {split['import']:.2f} | "
                      f"{split['startup']:.2f} | {split['first']:.2f} | {split['second']:.3f} |",
                      f"| cold (empty NUMBA_CACHE_DIR) | {cold['import']:.2f} | "
                      f"(in the first solve) | {cold['first']:.2f} | {cold['second']:.3f} |"]
            print("first call done", file=sys.stderr, flush=True)
        if not (args.quick or args.no_large):
            large = run_large(LARGE_N)
            lines += [
                "", f"## n = {LARGE_N:,}: SMO without the n × n matrix", "",
                "| solver | time | ratio to LIBSVM | objective D(α) | peak memory (tracemalloc) | "
                "kernel values computed | iterations |",
                "|:---|---:|---:|---:|---:|---:|---:|",
                f"| svmlib SMO | {fmt_time(large['time'])} | "
                f"{large['time'] / large['libsvm_time']:.2f} | {large['objective']:.4f} | "
                f"{large['peak_mb']:.0f} MB | {large['kernel_values'] / 1e6:.0f} million "
                f"({large['kernel_values'] / LARGE_N**2:.2f} n²) | {large['n_iter']} |",
                f"| LIBSVM (sklearn.svm.SVC) | {fmt_time(large['libsvm_time'])} | 1.00 | "
                f"{large['libsvm_objective']:.4f} | – | – | – |",
                f"| svmlib SMO without shrinking | {fmt_time(large['plain_time'])} | "
                f"{large['plain_time'] / large['libsvm_time']:.2f} | "
                f"{large['plain_objective']:.4f} | – | "
                f"{large['plain_kernel_values'] / 1e6:.0f} million "
                f"({large['plain_kernel_values'] / LARGE_N**2:.2f} n²) | {large['plain_n_iter']} |",
                "",
                f"The full kernel matrix would take {large['full_matrix_mb']:,.0f} MB; SMO's peak is "
                f"the 200 MB row cache (compiled, `svmlib/_smo_rows.py`) plus the points and "
                f"O(n) vectors ({large['shrink_events']} shrinking rounds, {large['n_sv']} "
                f"support vectors). Of the kernel values computed, "
                f"{large['cached'] / LARGE_N**2:.2f} n² went into the cache, "
                f"{large['uncached'] / LARGE_N**2:.2f} n² were the tails of full rows beyond the "
                f"active set (updating grad_bar when a multiplier reaches or leaves C) and "
                f"{large['rebuilt'] / LARGE_N**2:.2f} n² rebuilt the gradient of the shrunk "
                f"variables; the cache served {large['hits']:,} rows and computed "
                f"{large['misses']:,}.",
            ]
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
