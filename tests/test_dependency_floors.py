"""The lower bounds in pyproject.toml are true.

A floor is true when (a) the code needs it: each floor below names the
feature that sets it, the version that introduced the feature, and where the
book uses it, and the floor must be at least that version; when the use
disappears, the test says the floor may be lowered; and (b) the locked
environment that every test runs in satisfies it.  The floors were also
checked once by hand in a scratch environment at exactly those versions
(see the comment in pyproject.toml)."""

import pathlib
import re
import tomllib

import numpy as np
import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = pathlib.Path(__file__).resolve().parents[1]

# package: (first version with the feature, the feature, a file that uses it, the text that uses it)
FEATURES = {
    "scipy": ("1.16", "SLSQP's OptimizeResult.multipliers", "book/04_lagrange_kkt.ipynb",
              "res.multipliers"),
    "matplotlib": ("3.10", "AxLine.set_xy1", "svmlib/widgets/perceptron.py", "set_xy1("),
    "scikit-learn": ("1.6", "check_estimator(expected_failed_checks=...)",
                     "tests/test_estimator_checks.py", "expected_failed_checks"),
}


def _requirements():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    for extra in project.get("optional-dependencies", {}).values():
        reqs += [Requirement(r) for r in extra]
    return reqs


def _floor(req):
    floors = [Version(s.version) for s in req.specifier if s.operator == ">="]
    return max(floors) if floors else None


def _locked():
    lock = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;]+)", line)
        if match:
            lock[match.group(1).lower().replace("_", "-")] = Version(match.group(2))
    return lock


def test_every_dependency_has_a_floor():
    for req in _requirements():
        assert _floor(req) is not None, f"{req} has no lower bound (>=) in pyproject.toml"


@pytest.mark.parametrize("name", sorted(FEATURES))
def test_floor_is_the_version_the_feature_needs(name):
    needed, feature, path, usage = FEATURES[name]
    floors = {req.name.lower(): _floor(req) for req in _requirements()}
    assert name in floors, f"{name} is no longer a dependency; drop it from FEATURES"
    assert floors[name] >= Version(needed), (
        f"pyproject.toml allows {name}>={floors[name]}, but {feature} (used in {path}) "
        f"needs {name}>={needed}: raise the floor")
    assert usage in (ROOT / path).read_text(), (
        f"{path} no longer uses {feature}; the floor {name}>={floors[name]} may be lower now "
        f"(check it in a scratch environment and update FEATURES)")


def test_the_lock_satisfies_every_floor():
    locked = _locked()
    for req in _requirements():
        name = req.name.lower()
        assert name in locked, f"{name} is a dependency but not in requirements.lock"
        assert locked[name] in req.specifier, (
            f"requirements.lock pins {name}=={locked[name]}, outside pyproject's {req.specifier}")


def test_slsqp_reports_multipliers():
    # the feature behind the scipy floor, as chapter 04 uses it: minimize x^2 + y^2
    # subject to x + y = 1; the multiplier of the equality is 1 at (1/2, 1/2)
    from scipy.optimize import minimize

    res = minimize(lambda v: v @ v, [0.0, 0.0], jac=lambda v: 2 * v, method="SLSQP",
                   constraints=[{"type": "eq", "fun": lambda v: v.sum() - 1.0,
                                 "jac": lambda v: np.ones(2)}])
    assert res.success
    assert np.allclose(res.x, [0.5, 0.5], atol=1e-6)
    assert np.allclose(np.abs(np.ravel(res.multipliers)), [1.0], atol=1e-6)
