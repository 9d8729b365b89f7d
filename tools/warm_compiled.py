"""Compile svmlib's Numba code once, into Numba's on-disk cache (run by `make setup`).

svmlib's solvers are plain Python compiled by Numba with ``cache=True``: the
first call on a machine compiles them (about 10-20 s on a 2-core machine) and
writes the machine code next to the sources (``svmlib/__pycache__``); every
later process loads it in a fraction of a second.  Running this script once
after installing moves that one-time cost out of the first chapter, test or
fit.  It fits tiny problems along every compiled path: SMO on a Gram matrix,
on a built-in kernel's rows, with a Python kernel whose rows come from a
Python cache, the nu-solver, regression, and the linear SVM's coordinate
descent on dense and sparse data (classification and regression), and the
two perceptrons' epochs.

Usage: ``python tools/warm_compiled.py`` (prints what it compiled and how long
it took).  Run it again after editing the compiled functions, or let the next
call compile them.
"""

import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp


def _quietly(model, X, y):
    """Fit without the ConvergenceWarning that one epoch on these data gives."""
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y)


def paths():
    """``(name, fit)`` for every compiled path: tiny problems, one fit each."""
    from svmlib import (KernelPerceptron, LinearSVC, LinearSVR, NuSVC, Perceptron, SVC, SVR,
                        datasets, kernels)
    from svmlib.smo import solve_dual_smo

    X, y = datasets.moons(40, noise=0.3, random_state=0)
    signs = np.where(y == y.max(), 1.0, -1.0)
    return [
        ("SMO on a Gram matrix", lambda: SVC(kernel="rbf").fit(X, y)),
        # A built-in kernel is one get_kernel returns (what SVC passes): the bare
        # function kernels.rbf would be taken for a Python kernel.
        ("SMO on a built-in kernel's cached rows",
         lambda: solve_dual_smo(kernels.get_kernel("rbf", gamma=1.0), signs, X=X,
                                precompute_kernel=False)),
        # C = 10: enough iterations (82 > n) for the steps called from Python
        # on this path to shrink the active set and rebuild the gradient.
        ("SMO with a Python kernel (rows from a Python cache)",
         lambda: solve_dual_smo(lambda A, B: kernels.rbf(A, B, gamma=1.0), signs, X=X,
                                C=10.0, precompute_kernel=False)),
        ("the nu-solver", lambda: NuSVC(nu=0.5).fit(X, y)),
        ("regression (SVR)", lambda: SVR().fit(X, X[:, 0])),
        ("linear SVM, dense", lambda: LinearSVC().fit(X, y)),
        ("linear SVM, sparse", lambda: LinearSVC().fit(sp.csr_matrix(X), y)),
        ("linear SVR, dense", lambda: LinearSVR(epsilon=0.1).fit(X, X[:, 0])),
        ("linear SVR, sparse", lambda: LinearSVR(epsilon=0.1).fit(sp.csr_matrix(X), X[:, 0])),
        # One epoch each is enough: every fit passes the same argument types.
        ("the perceptron", lambda: _quietly(Perceptron(max_epochs=1), X, y)),
        ("the kernel perceptron", lambda: _quietly(KernelPerceptron(max_epochs=1), X, y)),
    ]


def main():
    start = time.perf_counter()
    import svmlib

    for name, fit in paths():
        t0 = time.perf_counter()
        fit()
        print(f"  {name}: {time.perf_counter() - t0:.1f} s")
    print(f"svmlib {svmlib.__version__}: compiled code cached in "
          f"{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
