"""Benchmark of ``SVC(probability=True)``: svmlib against LIBSVM, in the same run.

Run from the repository root (``.venv/bin/python benchmarks/bench_probability.py``);
it writes ``benchmarks/probability.md`` (``--quick``: small sizes only, no file
unless ``--write``).

What is timed: ``fit`` with ``probability=True`` (five cross-validation fits
and Platt's sigmoid per pair of classes, then the SVM itself), the same
``fit`` without probabilities (what the probability model adds), and
``predict_proba`` on 2,000 points.  Set-up: ``make_classification`` (20
features, 10 informative, 5 % flipped labels, standardized), RBF kernel with
``gamma="scale"``, ``C = 1``, ``tol = 1e-3``, ``random_state=0``, two classes
and three.  LIBSVM is ``sklearn.svm.SVC``, one core, so BLAS is limited to
one thread for both (threadpoolctl).  Each time is the best of ``REPEATS``
runs, the two libraries taking turns so that the machine's load affects them
alike; svmlib is warmed up first (Numba's start-up and any compilation are
not in the times).  Timings depend on the machine and its load: they are
measurements, not claims (see /work/shared/PITFALLS.md, "Timings and load").
"""

import argparse
import platform
import time
import warnings
from pathlib import Path

import numpy as np
import sklearn
from sklearn.datasets import make_classification
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as LibsvmSVC
from threadpoolctl import threadpool_limits

from svmlib import SVC

SIZES = (500, 1000, 2000, 4000)
QUICK_SIZES = (300,)
CLASSES = (2, 3)
REPEATS = 3
N_PREDICT = 2000
OUT = Path(__file__).with_name("probability.md")


def _problem(n, n_classes, seed=0):
    X, y = make_classification(n + N_PREDICT, n_features=20, n_informative=10,
                               n_classes=n_classes, flip_y=0.05, random_state=seed)
    X = StandardScaler().fit_transform(X)
    return X[:n], y[:n], X[n:]


def _best(function, repeats):
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def _measure(n, n_classes, repeats):
    X, y, X_test = _problem(n, n_classes)
    times = {}
    models = {}
    for probability in (True, False):
        for name in ("svmlib", "LIBSVM"):
            times[name, probability] = np.inf
        for _ in range(repeats):          # the two libraries take turns
            for name, make in (("svmlib", SVC), ("LIBSVM", LibsvmSVC)):
                model = make(probability=probability, random_state=0)
                t = _best(lambda: model.fit(X, y), 1)
                times[name, probability] = min(times[name, probability], t)
                if probability:
                    models[name] = model
    for name in ("svmlib", "LIBSVM"):
        times[name, "predict_proba"] = _best(lambda: models[name].predict_proba(X_test), repeats)
    gap = float(np.max(np.abs(models["svmlib"].predict_proba(X_test)
                              - models["LIBSVM"].predict_proba(X_test))))
    return times, gap


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    parser.add_argument("--write", action="store_true", help="write probability.md with --quick")
    args = parser.parse_args()
    sizes = QUICK_SIZES if args.quick else SIZES
    warnings.filterwarnings("ignore", message="The `probability` parameter",
                            category=FutureWarning)
    rows = []
    with threadpool_limits(limits=1, user_api="blas"):
        # Warm-up: Numba's start-up and the compiled paths both sizes take.
        X, y, _ = _problem(200, 3)
        SVC(probability=True, random_state=0).fit(X, y).predict_proba(X)
        X, y, _ = _problem(1100, 2)
        SVC(random_state=0).fit(X, y)
        for n_classes in CLASSES:
            for n in sizes:
                times, gap = _measure(n, n_classes, REPEATS)
                row = (n_classes, n, times["svmlib", True], times["LIBSVM", True],
                       times["svmlib", False], times["LIBSVM", False],
                       times["svmlib", "predict_proba"], times["LIBSVM", "predict_proba"], gap)
                rows.append(row)
                print(f"{n_classes} classes, n = {n:5d}: probability=True svmlib "
                      f"{row[2]:.3f} s, LIBSVM {row[3]:.3f} s (ratio {row[2] / row[3]:.2f}); "
                      f"without: ratio {row[4] / row[5]:.2f}; predict_proba ratio "
                      f"{row[6] / row[7]:.2f}; max |P - P_LIBSVM| = {gap:.3f}", flush=True)
    lines = [
        "# `SVC(probability=True)`: svmlib and LIBSVM, measured in one run",
        "",
        f"Written by `benchmarks/bench_probability.py` on {platform.processor() or platform.machine()}"
        f" ({platform.python_version()}, scikit-learn {sklearn.__version__}); best of {REPEATS}, "
        f"one BLAS thread. Ratios are svmlib's time / LIBSVM's (below 1: svmlib is faster). "
        f"The folds differ (each library shuffles with its own generator), hence the small "
        f"differences in the probabilities.",
        "",
        "| classes | n | fit, probability=True: svmlib (s) | LIBSVM (s) | ratio | fit without: ratio "
        "| predict_proba (2,000 points): ratio | max abs difference of the probabilities |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for c, n, sp, lp, s0, l0, spp, lpp, gap in rows:
        lines.append(f"| {c} | {n:,} | {sp:.3f} | {lp:.3f} | {sp / lp:.2f} | {s0 / l0:.2f} | "
                     f"{spp / lpp:.2f} | {gap:.3f} |")
    if not args.quick or args.write:
        OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
