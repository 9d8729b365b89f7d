"""tools/warm_compiled.py compiles every specialization the estimators use.

`make setup` runs it so that no chapter, test or first fit pays Numba's
compilation (10-30 s).  A fit whose compiled functions take argument types the
warm-up never passed compiles them anew in the first process that meets them:
this happened to the built-in kernels' rows on demand (n > 1,024), which the
warm-up reached with the bare function ``kernels.rbf``, a Python kernel to the
solver.  The test runs the warm-up's fits, then the estimators' fits on every
compiled path, in one process, and checks that the second set adds no
signature to any compiled function.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import json, sys
import numpy as np
import scipy.sparse as sp
sys.path.insert(0, sys.argv[1])
import warm_compiled
from svmlib import (KernelPerceptron, LinearSVC, LinearSVR, NuSVC, OneClassSVM, Perceptron, SVC, SVR,
                    datasets, _smo_rows, _smo_steps, linear, perceptron)
from svmlib.smo import solve_dual_smo


def signatures():
    found = {}
    for module in (_smo_rows, _smo_steps, linear, perceptron):
        for name, obj in vars(module).items():
            if hasattr(obj, "signatures") and hasattr(obj, "py_func"):
                found[f"{module.__name__}.{name}"] = sorted(map(str, obj.signatures))
    return found


for _, fit in warm_compiled.paths():
    fit()
warmed = signatures()
X, y = datasets.moons(n=1500, noise=0.3, random_state=1)     # beyond the Gram matrix limit
signs = np.where(y == 1, 1.0, -1.0)
for kernel in ("rbf", "linear", "poly"):
    SVC(kernel=kernel).fit(X, y)
SVC(shrinking=False).fit(X, y)
SVC(kernel="precomputed").fit(X[:200] @ X[:200].T, y[:200])
NuSVC(nu=0.3).fit(X, y)
SVR().fit(X, X[:, 0])
OneClassSVM(nu=0.2).fit(X)
solve_dual_smo(lambda A, B: A @ B.T, signs, X=X, precompute_kernel=False)
LinearSVC().fit(X, y)
LinearSVC().fit(sp.csr_matrix(X), y)
import warnings
warnings.simplefilter("ignore")
Perceptron(max_epochs=3, learning_rate=0.5, w_init=np.ones(2), b_init=1).fit(X, y)
Perceptron(shuffle=False, fit_intercept=False, record_history=False).fit(np.asfortranarray(X), y)
Perceptron().fit(X.astype(np.float32), y)
KernelPerceptron(kernel="linear", shuffle=False, max_epochs=3).fit(X, y)
KernelPerceptron(kernel="poly", max_epochs=3).fit(X, y)
LinearSVR(loss="squared_epsilon_insensitive", fit_intercept=False).fit(X, X[:, 1])
LinearSVR(C=10.0).fit(sp.csr_matrix(X), X[:, 1], sample_weight=np.arange(len(X)) % 3)
after = signatures()
print(json.dumps({"warmed": warmed, "after": after}))
"""


def test_the_warm_up_compiles_every_specialization_the_estimators_use():
    out = subprocess.run([sys.executable, "-c", PROBE, str(ROOT / "tools")], check=True,
                         capture_output=True, text=True, cwd=ROOT).stdout
    result = json.loads(out.strip().splitlines()[-1])
    warmed, after = result["warmed"], result["after"]
    assert any(warmed.values()), "the warm-up compiled nothing"
    missing = {name: sorted(set(sigs) - set(warmed.get(name, [])))
               for name, sigs in after.items() if set(sigs) - set(warmed.get(name, []))}
    assert not missing, (
        f"fits compiled specializations that tools/warm_compiled.py does not: {missing}. "
        f"Add a fit along that path to warm_compiled.paths().")
