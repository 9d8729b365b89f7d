"""The wheel the book ships (book/_ext/svmlib_landing.py writes it to
_build/html/downloads/ at the end of `make book`): built offline, it holds
the whole svmlib package with its JavaScript, and it installs into a fresh
virtual environment where ``import svmlib; svmlib.SVC().fit(...)`` runs and
the playground finds its files.

The fresh venv has no pip and no network: the project's pip installs the
wheel into it (``pip --python``, ``--no-index --no-deps``), and the
dependencies already installed in .venv (NumPy, SciPy, scikit-learn, numba)
are made visible to it by a ``.pth`` file, after its own site-packages, so
that the ``svmlib`` it imports is the wheel's and not the repository's.
"""

import pathlib
import subprocess
import sys
import sysconfig
import venv
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import svmlib_landing  # noqa: E402


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    return svmlib_landing.write_wheel(tmp_path_factory.mktemp("downloads"))


def test_the_wheel_is_named_for_the_version_and_holds_the_whole_package(wheel):
    import svmlib

    assert wheel.name == f"svmlib-{svmlib.__version__}-py3-none-any.whl"
    assert wheel.name == svmlib_landing.wheel_name()
    names = set(zipfile.ZipFile(wheel).namelist())
    package = ROOT / "svmlib"
    expected = {p.relative_to(ROOT).as_posix() for p in package.rglob("*.py")
                if "__pycache__" not in p.parts}
    expected |= {p.relative_to(ROOT).as_posix() for p in (package / "static").glob("*.js")}
    assert expected - names == set(), f"missing from the wheel: {sorted(expected - names)[:10]}"
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    assert not (ROOT / "build").exists()          # built from a copy of the sources
    metadata = zipfile.ZipFile(wheel).read(f"svmlib-{svmlib.__version__}.dist-info/METADATA").decode()
    for requirement in ("numpy", "scipy", "scikit-learn", "numba"):
        assert f"Requires-Dist: {requirement}" in metadata


def test_the_wheel_installs_into_a_fresh_venv_and_fits(wheel, tmp_path):
    env = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # the dependencies that .venv already has, after the fresh venv's own packages
    (pathlib.Path(site) / "zz_project_dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index", "--no-deps",
         "--ignore-installed", "--quiet", "--find-links", str(wheel.parent), "svmlib"],
        capture_output=True, text=True)
    assert install.returncode == 0, install.stderr[-3000:]
    code = (
        "import pathlib, numpy as np, svmlib\n"
        "from svmlib import datasets\n"
        "from svmlib.playground import STATIC_DIR, javascript_bundle\n"
        "X, y = datasets.moons(n=60, noise=0.15, random_state=0)\n"
        "model = svmlib.SVC(kernel='rbf', C=1.0, gamma=1.0).fit(X, y)\n"
        "print(pathlib.Path(svmlib.__file__).resolve())\n"
        "print(int(model.n_support_.sum()), float((model.predict(X) == y).mean()))\n"
        "print(sorted(p.name for p in STATIC_DIR.glob('*.js')), len(javascript_bundle('classic')) > 1000)\n")
    run = subprocess.run([str(python), "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    where, fitted, static = run.stdout.strip().splitlines()
    assert pathlib.Path(where).is_relative_to(env.resolve()), f"imported svmlib from {where}"
    n_support, accuracy = fitted.split()
    from svmlib import SVC, datasets
    X, y = datasets.moons(n=60, noise=0.15, random_state=0)
    reference = SVC(kernel="rbf", C=1.0, gamma=1.0).fit(X, y)
    assert int(n_support) == int(reference.n_support_.sum())
    assert float(accuracy) == pytest.approx(float((reference.predict(X) == y).mean()))
    assert static == "['playground.js', 'smo.js'] True"
