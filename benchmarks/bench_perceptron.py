"""Benchmark of svmlib.Perceptron against scikit-learn's Perceptron.

Run from the repository root (``make bench`` or
``.venv/bin/python benchmarks/bench_perceptron.py``); it writes
``benchmarks/perceptron.md``.

Problem (issue 28's): ``n = 100,000`` points with ``p = 20`` standard normal
features, labels ``sign(<w*, x> + noise)`` for a random ``w*`` with noise of
standard deviation 0.5 of the scores' (not separable, so every run makes its
5 epochs), learning rate 1, bias learned.

Runs, each **5 epochs**:

* **shuffled**: a new visiting order every epoch, as both libraries do by
  default (``svmlib.Perceptron(max_epochs=5, random_state=0)``, with its
  record of the run and with ``record_history=False``;
  ``sklearn.linear_model.Perceptron(max_iter=5, tol=None, random_state=0)``).
  The two draw their orders from different generators, so they make
  different updates; the table gives both training accuracies.
* **fixed order** (``shuffle=False`` in both): the same updates, so the
  weights agree (largest relative difference of ``(w, b)`` reported).
* **interpreted**: svmlib's same epoch function run as plain Python
  (``run_perceptron(..., compiled=False)``), once, for scale.

Every (library, run) runs in a **fresh subprocess**: it builds the data, fits
a tiny problem first (loading svmlib's compiled code from Numba's cache, not
timed), then times one fit as processor time (``time.process_time``) with one
BLAS thread.  The libraries alternate, each measured ``repeats`` times (best
time kept); the ratio is svmlib's time over scikit-learn's in the same run of
this script.

Options: ``--quick`` (n = 10,000 and one repeat, to check the script).
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

OUTPUT = Path(__file__).with_name("perceptron.md")
P = 20
EPOCHS = 5


def make_problem(n):
    rng = np.random.default_rng(n)
    X = rng.normal(size=(n, P))
    score = X @ rng.normal(size=P)
    y = np.where(score + 0.5 * np.std(score) * rng.normal(size=n) > 0, 1, -1)
    return X, y


def child(library, run, n):
    """Run in a subprocess: fit once, print a JSON record."""
    import time
    import warnings

    from threadpoolctl import threadpool_limits
    from sklearn.linear_model import Perceptron as SklearnPerceptron

    from svmlib import Perceptron
    from svmlib.perceptron import run_perceptron

    threadpool_limits(1)
    X, y = make_problem(n)
    warnings.simplefilter("ignore")                 # 5 epochs do not converge: expected
    Perceptron(max_epochs=1).fit(X[:50], y[:50])   # load the compiled code (not timed)
    shuffle = run != "fixed order"
    start = time.process_time()
    if library == "scikit-learn":
        model = SklearnPerceptron(max_iter=EPOCHS, tol=None, shuffle=shuffle, eta0=1.0,
                                  random_state=0).fit(X, y)
        w, b = model.coef_[0], float(model.intercept_[0])
    elif run == "interpreted":
        result = run_perceptron(X, np.where(y > 0, 1.0, -1.0), np.zeros(P), 0.0,
                                max_epochs=EPOCHS, rng=np.random.RandomState(0), compiled=False)
        w, b = result["w"], result["b"]
    else:
        model = Perceptron(max_epochs=EPOCHS, shuffle=shuffle, random_state=0,
                           record_history=(run != "shuffled, record_history=False")).fit(X, y)
        w, b = model.coef_[0], float(model.intercept_[0])
    seconds = time.process_time() - start
    accuracy = float(np.mean(np.where(X @ w + b > 0, 1, -1) == y))
    print(json.dumps({"library": library, "run": run, "n": n, "seconds": seconds,
                      "accuracy": accuracy, "w": list(map(float, w)), "b": b}))


def measure(library, run, n):
    result = subprocess.run([sys.executable, __file__, "--child", library, run, str(n)],
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
    n = 10_000 if args.quick else 100_000
    repeats = 1 if args.quick else 7
    pairs = [("shuffled", "shuffled"), ("shuffled, record_history=False", "shuffled"),
             ("fixed order", "fixed order")]
    best = {}
    for _ in range(repeats):
        for ours, theirs in pairs:
            for library, run in (("svmlib", ours), ("scikit-learn", theirs)):
                record = measure(library, run, n)
                key = (library, run)
                if key not in best or record["seconds"] < best[key]["seconds"]:
                    best[key] = record
                print(f"{library} {run}: {record['seconds']:.3f} s", flush=True)
    interpreted = measure("svmlib", "interpreted", n)

    import numba
    lines = [
        "# svmlib.Perceptron against scikit-learn's Perceptron",
        "",
        f"Written by `benchmarks/bench_perceptron.py` (see its docstring for the set-up). "
        f"n = {n:,} points, p = {P} features, not separable, {EPOCHS} epochs, learning rate 1, "
        f"bias learned; processor time of one fit, best of {repeats}, each in a fresh process "
        f"with svmlib's compiled code already loaded, one BLAS thread. Ratio: svmlib's time "
        f"over scikit-learn's, measured in the same run.",
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, NumPy "
        f"{np.__version__}, SciPy {scipy.__version__}, scikit-learn {sklearn.__version__}, "
        f"Numba {numba.__version__}.",
        "",
        "| run | svmlib (s) | scikit-learn (s) | time ratio | training accuracy (svmlib / "
        "scikit-learn) | largest relative difference of (w, b) |",
        "|---|---|---|---|---|---|",
    ]
    for ours, theirs in pairs:
        a, r = best[("svmlib", ours)], best[("scikit-learn", theirs)]
        if ours == "fixed order":
            wa, wr = np.array(a["w"] + [a["b"]]), np.array(r["w"] + [r["b"]])
            diff = f"{np.max(np.abs(wa - wr)) / np.max(np.abs(wr)):.1e}"
        else:
            diff = "different orders"
        lines.append(f"| {ours} | {a['seconds']:.3f} | {r['seconds']:.3f} | "
                     f"{a['seconds'] / r['seconds']:.2f} | {a['accuracy']:.4f} / "
                     f"{r['accuracy']:.4f} | {diff} |")
    lines += [
        "",
        f"The same epoch function interpreted (plain Python, `compiled=False`, shuffled, one run): "
        f"{interpreted['seconds']:.2f} s, {interpreted['seconds'] / best[('svmlib', 'shuffled')]['seconds']:.0f} "
        f"times the compiled fit; its weights equal the compiled run's bit for bit: "
        f"{interpreted['w'] == best[('svmlib', 'shuffled, record_history=False')]['w']}.",
        "",
        "What svmlib's time holds besides the epochs: checking the input (finite values, the "
        "labels), drawing each epoch's order with `numpy.random.RandomState.permutation` (kept "
        "so that every shuffled run of earlier versions makes the same updates), and, with "
        "`record_history=True`, keeping each update's index and score and one copy of each row "
        "that caused an update (from which `history_` and `updates_` are rebuilt when read).",
    ]
    OUTPUT.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
