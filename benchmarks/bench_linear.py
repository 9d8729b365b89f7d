"""Benchmark of svmlib.LinearSVC against LIBLINEAR (scikit-learn's LinearSVC).

Run from the repository root (``make bench`` or
``.venv/bin/python benchmarks/bench_linear.py``); it writes
``benchmarks/linear.md``.

Problems (the same for both solvers, generated from fixed seeds):

* **dense**: ``n`` points with ``p = 50`` standard normal features, labels
  ``sign(<w*, x> + noise)`` for a random ``w*`` with noise of standard
  deviation 0.5 (so about 5 % of the points lie on the wrong side of the best
  hyperplane), at ``n = 10^4, 10^5, 10^6``;
* **sparse**: ``n = 10^5`` points with ``p = 10^6`` features and 50 nonzeros
  per point (uniform values at uniform positions), labelled the same way:
  bag-of-words-like data.

Both solvers run the squared hinge loss (the default of both), ``C = 0.1``,
``tol = 1e-4``, ``max_iter = 1000``, with an intercept, by dual coordinate
descent with shrinking.  Every (solver, problem) runs in a **fresh
subprocess**: it builds the data, notes its peak resident memory, fits, and
reports the processor time of the fit and the growth of the peak resident
memory during the fit (so C allocations inside LIBLINEAR count as much as
NumPy's).  The solvers alternate, each measured ``repeats`` times (best time
kept).  Agreement: primal objective (relative difference) and the fraction of
equal predictions on the training points.

Options: ``--quick`` (small sizes only, to check the script).
"""

import argparse
import json
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import scipy
import sklearn

OUTPUT = Path(__file__).with_name("linear.md")
C = 0.1
TOL = 1e-4


def make_problem(kind, n):
    rng = np.random.default_rng(n)
    if kind == "dense":
        p = 50
        X = rng.normal(size=(n, p))
    else:
        import scipy.sparse
        p, nnz = 1_000_000, 50
        rows = np.repeat(np.arange(n), nnz)
        cols = rng.integers(p, size=n * nnz)
        X = scipy.sparse.csr_matrix((rng.random(n * nnz), (rows, cols)), shape=(n, p))
    w_star = rng.normal(size=p)
    score = X @ w_star
    noise = 0.5 * np.std(score) * rng.normal(size=n)
    y = np.where(score + noise > 0, 1, -1)
    return X, y


def child(solver, kind, n):
    """Run in a subprocess: fit once, print a JSON record."""
    import resource
    import time
    import warnings

    from threadpoolctl import threadpool_limits

    from svmlib import LinearSVC
    from svmlib.linear import linear_svm_primal
    from sklearn.svm import LinearSVC as LIBLINEAR

    threadpool_limits(1)
    X, y = make_problem(kind, n)
    if solver == "svmlib":  # compile the loops on a tiny problem first (not timed)
        LinearSVC().fit(X[:50], y[:50])
        model = LinearSVC(C=C, tol=TOL, max_iter=1000)
    else:
        model = LIBLINEAR(C=C, tol=TOL, max_iter=1000, dual=True)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.process_time()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(X, y)
    seconds = time.process_time() - start
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    w, b = model.coef_[0], float(np.ravel(model.intercept_)[0])
    y_pm = np.where(y == model.classes_[1], 1.0, -1.0)
    pred = model.predict(X)
    out = Path(f"/tmp/bench_linear_pred_{solver}_{kind}_{n}.npy")
    np.save(out, pred)
    print(json.dumps({
        "solver": solver, "kind": kind, "n": n, "seconds": seconds,
        "memory_MB": (after - before) / 1024.0,
        "objective": linear_svm_primal(w, b, X, y_pm, C, "squared_hinge"),
        "n_iter": int(np.max(model.n_iter_)), "warned": len(caught) > 0,
        "predictions": str(out)}))


def run(solver, kind, n):
    result = subprocess.run([sys.executable, __file__, "--child", solver, kind, str(n)],
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--child", nargs=3)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return
    problems = ([("dense", 10_000)] if args.quick else
                [("dense", 10_000), ("dense", 100_000), ("dense", 1_000_000),
                 ("sparse", 100_000)])
    rows = []
    for kind, n in problems:
        repeats = 3 if n <= 100_000 else 1
        best = {}
        for _ in range(repeats):
            for solver in ("svmlib", "LIBLINEAR"):
                record = run(solver, kind, n)
                if solver not in best or record["seconds"] < best[solver]["seconds"]:
                    best[solver] = record
                print(f"{kind} n={n}: {solver} {record['seconds']:.2f} s", flush=True)
        ours, ref = best["svmlib"], best["LIBLINEAR"]
        agree = float(np.mean(np.load(ours["predictions"]) == np.load(ref["predictions"])))
        rows.append((kind, n, ours, ref, agree))

    import numba
    lines = [
        "# svmlib.LinearSVC against LIBLINEAR",
        "",
        "Written by `benchmarks/bench_linear.py` (see its docstring for the set-up). Squared hinge, "
        f"C = {C}, tol = {TOL}, both by dual coordinate descent with shrinking; processor time of "
        "one fit (best of 3, or of 1 at n = 10^6) and growth of the peak resident memory during the "
        "fit, each in a fresh process, one BLAS thread.",
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, NumPy "
        f"{np.__version__}, SciPy {scipy.__version__}, scikit-learn {sklearn.__version__} "
        f"(LIBLINEAR inside), Numba {numba.__version__}.",
        "",
        "| problem | n | svmlib (s) | LIBLINEAR (s) | time ratio | svmlib memory (MB) | "
        "LIBLINEAR memory (MB) | passes (svmlib / LIBLINEAR) | primal rel. diff. | equal predictions |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for kind, n, ours, ref, agree in rows:
        what = "dense, p = 50" if kind == "dense" else "sparse, p = 10^6, 50 nnz/row"
        rel = abs(ours["objective"] - ref["objective"]) / abs(ref["objective"])
        lines.append(
            f"| {what} | {n:,} | {ours['seconds']:.2f} | {ref['seconds']:.2f} | "
            f"{ours['seconds'] / ref['seconds']:.2f} | {ours['memory_MB']:.0f} | "
            f"{ref['memory_MB']:.0f} | {ours['n_iter']} / {ref['n_iter']} | {rel:.1e} | "
            f"{100 * agree:.2f} % |")
    lines += [
        "",
        "Memory: svmlib works on the caller's array (dense, C-contiguous float64) or CSR matrix "
        "in place and allocates only `alpha`, the diagonal `Q_ii` and a permutation, O(n); "
        "LIBLINEAR (through scikit-learn) first copies the data into its own sparse format, "
        "16 bytes per nonzero.",
        "Passes: the number of passes over the data (LIBLINEAR's `n_iter_`); the two solvers "
        "visit the coordinates in different random orders, so they can stop after different "
        "numbers of passes at the same tolerance.",
        "The sparse row's memory reads 0 MB for both: building the CSR matrix (COO to CSR) "
        "already set a higher peak of resident memory than either fit reached, so this measure "
        "cannot see them there.",
    ]
    OUTPUT.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
