"""The chapters' claims about speed, measured and checked against their thresholds.

Run from the repository root (``make bench`` or
``.venv/bin/python benchmarks/bench_chapters.py``); it writes
``benchmarks/chapters.md`` and exits with status 1 if a claim does not hold.

The chapters time their solvers in *measurement cells*, whose output nbval
does not compare, and quote the numbers of the machine that built the page
(glued). A timing cannot be a compared output: it changes with the machine
and with its load. So the claims the chapters draw from timings ("SLSQP's
time grows faster than n", "svmlib takes less than ten times LIBSVM's time")
are checked here instead, on the same problems, with the same thresholds
they had in the chapters. A claim that fails here on an idle machine means the
chapter's prose needs another look; on a busy machine, run it again.

Every time is the processor time of this process (``time.process_time``),
the best of several runs, with one BLAS thread; each solver runs once untimed
first, so that loading compiled code is not counted.

Options: ``--quick`` (fewer repeats, to check the script).
"""

import argparse
import os
import platform
import sys
import time
import timeit
from pathlib import Path

import numpy as np
import scipy.sparse
import sklearn
import sklearn.multiclass
import sklearn.svm
from sklearn.datasets import load_breast_cancer, load_digits, load_iris
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from svmlib import (SVC, LinearSVC, Nystroem, OneVsOneClassifier, RandomFourierFeatures,
                    datasets, feature_maps, kernels)
from svmlib.plotting.smo import fit_growth, time_solvers
from svmlib.solvers import solve_dual_slsqp, solve_dual_smo

OUTPUT = Path(__file__).with_name("chapters.md")


def best_seconds(function, repeat):
    """Best processor time of ``repeat`` calls (after one untimed call)."""
    function()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


# ------------------------------------------------------------------ chapter 07

def chapter_07(repeat):
    C, GAMMA = 1.0, 1.0

    def moons_problem(n):
        X, y = datasets.moons(n=n, noise=0.25, random_state=1)
        return X, y.astype(float)

    def rbf_kernel(A, B):
        return kernels.rbf(A, B, gamma=GAMMA)

    def libsvm_fit(X, y):
        sklearn.svm.SVC(C=C, kernel="rbf", gamma=GAMMA).fit(X, y)
        return 0.0          # time_solvers records an objective; none is checked here

    routes = {
        "SLSQP": lambda p: solve_dual_slsqp(rbf_kernel(p[0], p[0]), p[1], C=C),
        "SMO": lambda p: solve_dual_smo(rbf_kernel, p[1], C=C, X=p[0]),
        "interpreted": lambda p: solve_dual_smo(rbf_kernel, p[1], C=C, X=p[0],
                                                compiled=False),
        "LIBSVM": lambda p: libsvm_fit(*p),
    }
    for solve in routes.values():            # load compiled code, untimed
        solve(moons_problem(40))
    sizes = {"SLSQP": [40, 320], "SMO": [320, 2560], "interpreted": [320],
             "LIBSVM": [2560]}
    rows = time_solvers(sizes, moons_problem, routes, repeat=repeat)
    sec = {(r["solver"], r["n"]): r["seconds"] for r in rows}
    X, y = moons_problem(2560)
    K = rbf_kernel(X, X)
    loop = best_seconds(lambda: solve_dual_smo(K, y, C=C), repeat)
    builtin = kernels.get_kernel("rbf", gamma=GAMMA)
    builtin_seconds = best_seconds(lambda: solve_dual_smo(builtin, y, C=C, X=X), repeat)
    X_big, y_big = datasets.overlapping_blobs(n=3000, random_state=0)
    shrink = {s: best_seconds(lambda s=s: sklearn.svm.SVC(C=100.0, gamma=1.0, shrinking=s)
                              .fit(X_big, y_big), max(1, repeat // 2))
              for s in (False, True)}
    return [
        ("07", "SLSQP's time from n = 40 to 320 grows faster than n",
         sec["SLSQP", 320] / sec["SLSQP", 40], ">", 8.0),
        ("07", "SLSQP at 320 points / svmlib's SMO at 2,560 (Python-function kernel)",
         sec["SLSQP", 320] / sec["SMO", 2560], ">", 1.0),
        ("07", "svmlib's compiled loop (Gram matrix given) / LIBSVM, n = 2,560",
         loop / sec["LIBSVM", 2560], "<", 3.0),
        ("07", "built-in kernel (rows on demand) / Python-function kernel, n = 2,560",
         builtin_seconds / sec["SMO", 2560], "<", 0.5),
        ("07", "built-in kernel / LIBSVM, n = 2,560",
         builtin_seconds / sec["LIBSVM", 2560], "<", 2.0),
        ("07", "interpreted / compiled SMO, n = 320",
         sec["interpreted", 320] / sec["SMO", 320], ">", 5.0),
        ("07", "LIBSVM without / with shrinking, 3,000 blobs, C = 100",
         shrink[False] / shrink[True], ">", 1.0),
    ]


# ------------------------------------------------------------------ chapter 08

def chapter_08(repeat):
    A = np.random.default_rng(0).normal(size=(60, 256))

    def through_map():
        Phi = feature_maps.all_products_feature_map(A)
        return Phi @ Phi.T

    def through_kernel():
        return (A @ A.T) ** 2

    ratio = (min(timeit.repeat(through_map, number=1, repeat=max(repeat, 5)))
             / min(timeit.repeat(through_kernel, number=1, repeat=max(repeat, 5))))
    return [("08", "explicit degree-2 map / kernel, 60 points, p = 256", ratio, ">", 10.0)]


# ------------------------------------------------------------------ chapter 09

def chapter_09(repeat):
    digits = load_digits()
    X_train, X_test, y_train, y_test = train_test_split(
        digits.data / 16.0, digits.target, test_size=0.6, random_state=0,
        stratify=digits.target)
    gamma = 1.0 / (X_train.shape[1] * X_train.var())
    ovr = best_seconds(lambda: sklearn.multiclass.OneVsRestClassifier(
        sklearn.svm.SVC(kernel="rbf", gamma=gamma)).fit(X_train, y_train), repeat)
    ovo = best_seconds(lambda: sklearn.svm.SVC(kernel="rbf", gamma=gamma)
                       .fit(X_train, y_train), repeat)
    wrapper = OneVsOneClassifier(SVC(kernel="rbf", gamma=gamma)).fit(X_train, y_train)
    builtin = SVC(kernel="rbf", gamma=gamma).fit(X_train, y_train)
    predict = (best_seconds(lambda: wrapper.predict(X_test), repeat)
               / best_seconds(lambda: builtin.predict(X_test), repeat))
    return [
        ("09", "LIBSVM fit, one-vs-rest / one-vs-one, digits", ovr / ovo, ">", 1.0),
        ("09", "svmlib predict, one-vs-one wrapper / SVC, digits", predict, ">", 2.0),
    ]


# ------------------------------------------------------------------ chapter 10

def chapter_10(repeat):
    def split(X, y, standardize):
        A, B, a, b = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
        if standardize:
            scaler = StandardScaler().fit(A)
            A = scaler.transform(A)
        return A, a

    cancer = load_breast_cancer()
    digits = load_digits()
    is_3_or_8 = np.isin(digits.target, [3, 8])
    problems = {
        "breast cancer": (*split(cancer.data, (cancer.target == 0).astype(int), True),
                          100.0, 1e-3),
        "digits 3 vs 8": (*split(digits.data[is_3_or_8] / 16, digits.target[is_3_or_8],
                                 False), 10.0, 0.02),
        "iris (3 classes)": (*split(*load_iris(return_X_y=True), True), 1.0, 0.5),
    }
    claims = []
    for label, (A, a, C, gamma) in problems.items():
        ours = best_seconds(lambda: SVC(C=C, gamma=gamma).fit(A, a), 5 * repeat)
        theirs = best_seconds(lambda: sklearn.svm.SVC(C=C, gamma=gamma).fit(A, a),
                              5 * repeat)
        claims.append(("10", f"svmlib / LIBSVM fit, {label}", ours / theirs, "<", 10.0))
    return claims


# ------------------------------------------------------------------ chapter 11

def chapter_11(repeat):
    GAMMA, C = 2.0, 1.0
    methods = {
        "exact RBF (SMO)": (lambda: SVC(C=C, kernel="rbf", gamma=GAMMA),
                            [2000, 5000, 10_000]),
        "linear (LinearSVC)": (lambda: LinearSVC(C=C), [3000, 10_000, 30_000, 100_000]),
        "random Fourier features": (lambda: make_pipeline(
            RandomFourierFeatures(gamma=GAMMA, n_components=100, random_state=0),
            LinearSVC(C=C)), [3000, 10_000, 30_000, 100_000]),
        "Nyström": (lambda: make_pipeline(
            Nystroem(gamma=GAMMA, n_components=50, random_state=0), LinearSVC(C=C)),
            [3000, 10_000, 30_000, 100_000]),
    }
    growth = {}
    for name, (make, sizes) in methods.items():
        make().fit(*datasets.moons(n=2000, noise=0.3, random_state=1))   # untimed
        seconds = []
        for n in sizes:
            X, y = datasets.moons(n=n, noise=0.3, random_state=1)
            seconds.append(best_seconds(lambda: make().fit(X, y), 1 if n > 10_000 else repeat))
        growth[name] = fit_growth(sizes, seconds)[0]
    claims = [("11", "exact SVM: growth exponent of its time, n = 2,000 to 10,000",
               growth["exact RBF (SMO)"], ">", 1.0)]
    for name in list(methods)[1:]:
        claims.append(("11", f"{name}: growth exponent, n = 3,000 to 100,000, below the "
                       f"exact SVM's ({growth['exact RBF (SMO)']:.2f})",
                       growth[name], "<", growth["exact RBF (SMO)"]))
    rng = np.random.default_rng(3)
    n, p, nnz = 20_000, 100_000, 30
    X = scipy.sparse.csr_matrix((rng.random(n * nnz), (np.repeat(np.arange(n), nnz),
                                                       rng.integers(p, size=n * nnz))),
                                shape=(n, p))
    y = np.where(X @ rng.normal(size=p) + 0.3 * rng.normal(size=n) > 0, 1, -1)
    import warnings
    from sklearn.exceptions import ConvergenceWarning
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = best_seconds(lambda: LinearSVC(C=0.1).fit(X, y), repeat)
        theirs = best_seconds(lambda: sklearn.svm.LinearSVC(C=0.1, dual=True).fit(X, y),
                              repeat)
    claims.append(("11", "svmlib's LinearSVC / LIBLINEAR, sparse 20,000 x 100,000",
                   ours / theirs, "<", 5.0))
    return claims


def holds(value, relation, threshold):
    return value > threshold if relation == ">" else value < threshold


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    started = time.perf_counter()
    claims = []
    with threadpool_limits(1):
        for chapter in (chapter_07, chapter_08, chapter_09, chapter_10, chapter_11):
            for claim in chapter(repeat):
                claims.append(claim)
                number, text, value, relation, threshold = claim
                verdict = "holds" if holds(value, relation, threshold) else "FAILS"
                print(f"{number}  {text}: {value:.3g} {relation} {threshold:.3g}  {verdict}",
                      flush=True)
    failed = [c for c in claims if not holds(*c[2:])]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    import numba
    lines = [
        "# The chapters' speed claims",
        "",
        "Written by `benchmarks/bench_chapters.py` (see its docstring): each claim a chapter draws "
        "from its timings, measured on the chapter's problem and checked against the chapter's "
        "threshold. The chapters themselves print and glue these numbers only in measurement "
        "cells, which nbval does not compare.",
        "",
        f"Machine: {platform.machine()}, {_processor()}, load average {load:.1f} at the end; "
        f"Python {platform.python_version()}, NumPy {np.__version__}, scikit-learn "
        f"{sklearn.__version__}, Numba {numba.__version__}; processor time, best of "
        f"{repeat} (of 1 for the largest problems), one BLAS thread; "
        f"{time.perf_counter() - started:.0f} s in all.",
        "",
        "| chapter | claim | measured | threshold | |",
        "|---|---|---|---|---|",
    ]
    for number, text, value, relation, threshold in claims:
        verdict = "holds" if holds(value, relation, threshold) else "**fails**"
        lines.append(f"| {number} | {text} | {value:.3g} | {relation} {threshold:.3g} | {verdict} |")
    lines += ["", f"{len(claims) - len(failed)} of {len(claims)} claims hold."]
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT}: {len(claims) - len(failed)} of {len(claims)} claims hold")
    return 1 if failed else 0


def _processor():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


if __name__ == "__main__":
    sys.exit(main())
