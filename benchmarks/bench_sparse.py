"""Benchmark of the kernel SVMs on sparse input: svmlib against LIBSVM, in the same run.

Run from the repository root (``.venv/bin/python benchmarks/bench_sparse.py``);
it writes ``benchmarks/sparse.md`` (``--quick``: small sizes only, no file
unless ``--write``).

The problem is text-like: ``N_FEATURES = 20,000`` features of which each
document holds ``0.5 %`` (100 distinct words drawn with Zipf-like
frequencies, so that common words are shared and rare ones are not), with
tf-idf-like positive weights and rows of unit length, in a CSR matrix.  Two
classes, each with a vocabulary of its own from which its documents take
20 of their words (5 % of the labels flipped).  What is timed: ``SVC(kernel="linear", C=1)`` and
``SVC(kernel="rbf", gamma="scale", C=10)`` ``fit`` at ``tol = 1e-3``, and
``decision_function`` on 2,000 sparse test documents.  LIBSVM is
``sklearn.svm.SVC`` (its sparse code path, ``libsvm_sparse``), one core.
Each time is the best of ``REPEATS`` runs, the two libraries taking turns so
that the machine's load affects them alike; svmlib is warmed up first
(Numba's start-up and any compilation are not in the times).  Beside the
times the table shows that the two found the same model: the support sets'
symmetric difference and the largest difference of the decision values.
Timings depend on the machine and its load: they are measurements, not
claims (see /work/shared/PITFALLS.md, "Timings and load").
"""

import argparse
import platform
import time
from pathlib import Path

import numpy as np
import scipy.sparse
import sklearn
from sklearn.svm import SVC as LibsvmSVC
from threadpoolctl import threadpool_limits

from svmlib import SVC

N_FEATURES = 20_000
WORDS_PER_DOCUMENT = 100          # 0.5 % of the features
TOPIC_VOCABULARY = 2000
TOPIC_WORDS = 20
FLIPPED = 0.05
SIZES = (1000, 2000, 4000)
QUICK_SIZES = (600,)
N_TEST = 2000
REPEATS = 3
KERNELS = (("linear", dict(kernel="linear", C=1.0)),
           ("rbf", dict(kernel="rbf", gamma="scale", C=10.0)))
OUT = Path(__file__).with_name("sparse.md")


def text_like(n, seed=0):
    """``(X, y)``: ``n`` documents as CSR rows of unit length, labels in {0, 1}.

    A document of class ``c`` takes ``TOPIC_WORDS`` of its words from its
    class's vocabulary (``TOPIC_VOCABULARY`` words of its own) and the rest
    from the background frequencies; ``FLIPPED`` of the labels are flipped.
    """
    rng = np.random.default_rng(seed)
    frequency = 1.0 / np.arange(1, N_FEATURES + 1) ** 0.8        # Zipf-like word frequencies
    frequency /= frequency.sum()
    topics = np.random.default_rng(12345).permutation(N_FEATURES)[:2 * TOPIC_VOCABULARY]
    topics = topics.reshape(2, TOPIC_VOCABULARY)
    y = rng.integers(0, 2, size=n)
    rows, cols, values = [], [], []
    for i in range(n):
        topic = rng.choice(topics[y[i]], size=TOPIC_WORDS, replace=False)
        background = rng.choice(N_FEATURES, size=3 * WORDS_PER_DOCUMENT, replace=False,
                                p=frequency)
        words = np.concatenate([topic, np.setdiff1d(background, topic)])
        words = np.unique(words[:WORDS_PER_DOCUMENT])
        counts = rng.geometric(0.6, size=words.size)
        weights = np.log1p(counts) * np.log(1.0 / (frequency[words] * 50))   # tf-idf-like
        rows.append(np.full(words.size, i))
        cols.append(words)
        values.append(weights / np.linalg.norm(weights))
    X = scipy.sparse.csr_matrix((np.concatenate(values), (np.concatenate(rows),
                                                          np.concatenate(cols))),
                                shape=(n, N_FEATURES))
    flip = rng.random(n) < FLIPPED
    y[flip] = 1 - y[flip]
    return X, y


def _timed(function):
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def measure(n, params, repeats):
    """Best fit and decision times of both libraries, and how far their models differ."""
    X_all, y_all = text_like(n + N_TEST, seed=n)
    X, y, X_test = X_all[:n], y_all[:n], X_all[n:]
    fit = {"svmlib": np.inf, "LIBSVM": np.inf}
    decide = {"svmlib": np.inf, "LIBSVM": np.inf}
    models = {}
    for _ in range(repeats):              # the two libraries take turns
        for name, make in (("svmlib", SVC), ("LIBSVM", LibsvmSVC)):
            model = make(**params)
            t, _ = _timed(lambda: model.fit(X, y))
            fit[name] = min(fit[name], t)
            t, _ = _timed(lambda: model.decision_function(X_test))
            decide[name] = min(decide[name], t)
            models[name] = model
    ours, theirs = models["svmlib"], models["LIBSVM"]
    support_gap = len(set(ours.support_.tolist()) ^ set(theirs.support_.tolist()))
    value_gap = float(np.max(np.abs(ours.decision_function(X_test)
                                    - theirs.decision_function(X_test))))
    return dict(fit=fit, decide=decide, n_sv=int(theirs.support_.shape[0]),
                support_gap=support_gap, value_gap=value_gap,
                iterations=(int(ours.n_iter_[0]), int(theirs.n_iter_[0])))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    parser.add_argument("--write", action="store_true", help="write sparse.md with --quick")
    args = parser.parse_args()
    sizes = QUICK_SIZES if args.quick else SIZES
    rows = []
    with threadpool_limits(limits=1, user_api="blas"):
        # Warm-up: Numba's start-up and the compiled sparse paths (a Gram
        # matrix below 1,024 points, rows from the CSR cache above).
        for n in (300, 1100):
            X, y = text_like(n, seed=1)
            for _, params in KERNELS:
                SVC(**params).fit(X, y).decision_function(X[:10])
        for kernel, params in KERNELS:
            for n in sizes:
                r = measure(n, params, REPEATS)
                rows.append((kernel, n, r))
                print(f"{kernel:6s} n = {n:5d}: fit svmlib {r['fit']['svmlib']:.3f} s, LIBSVM "
                      f"{r['fit']['LIBSVM']:.3f} s (ratio "
                      f"{r['fit']['svmlib'] / r['fit']['LIBSVM']:.2f}); decision ratio "
                      f"{r['decide']['svmlib'] / r['decide']['LIBSVM']:.2f}; "
                      f"{r['n_sv']} SV, support sets differ by {r['support_gap']}, "
                      f"max |f - f_LIBSVM| = {r['value_gap']:.1e}; iterations "
                      f"{r['iterations']}", flush=True)
    lines = [
        "# Kernel SVMs on sparse input: svmlib and LIBSVM, measured in one run",
        "",
        f"Written by `benchmarks/bench_sparse.py` on {platform.processor() or platform.machine()}"
        f" ({platform.python_version()}, scikit-learn {sklearn.__version__}); best of {REPEATS}, "
        f"one BLAS thread. Text-like CSR data: {N_FEATURES:,} features, "
        f"{WORDS_PER_DOCUMENT} nonzeros per row (0.5 %), rows of unit length. "
        f"`SVC(kernel=\"linear\", C=1)` and `SVC(kernel=\"rbf\", gamma=\"scale\", C=10)`, "
        f"tol = 1e-3. Ratios are svmlib's time / LIBSVM's (below 1: svmlib is faster); "
        f"the decision function is timed on {N_TEST:,} sparse test rows. "
        f"Below 1,024 points svmlib computes the whole Gram matrix (a sparse product), "
        f"above it rows of the kernel from the compressed rows (`svmlib/_smo_rows.py`, "
        f"`sparse_block`).",
        "",
        "| kernel | n | fit: svmlib (s) | LIBSVM (s) | ratio | decision_function: ratio "
        "| support vectors | support sets differ by | max abs difference of decision values "
        "| iterations (svmlib, LIBSVM) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for kernel, n, r in rows:
        lines.append(
            f"| {kernel} | {n:,} | {r['fit']['svmlib']:.3f} | {r['fit']['LIBSVM']:.3f} | "
            f"{r['fit']['svmlib'] / r['fit']['LIBSVM']:.2f} | "
            f"{r['decide']['svmlib'] / r['decide']['LIBSVM']:.2f} | {r['n_sv']:,} | "
            f"{r['support_gap']} | {r['value_gap']:.1e} | {r['iterations'][0]:,}, "
            f"{r['iterations'][1]:,} |")
    if not args.quick or args.write:
        OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
