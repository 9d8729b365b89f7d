"""The installed environment is exactly requirements.lock (see tools/check_environment.py)."""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import check_environment as ce  # noqa: E402


def test_lock_covers_requirements_txt():
    problems = ce.lock_problems(ce.read_pins(ce.REQUIREMENTS), ce.read_pins(ce.LOCK))
    assert problems == [], ("requirements.lock is out of date (run `make lock`): "
                            + "; ".join(problems))


def test_installed_packages_are_exactly_the_lock():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "check_environment.py")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_lock_line_is_an_exact_pin():
    lock = ce.read_pins(ce.LOCK)
    assert len(lock) > 50
    assert "pydata-sphinx-theme" in lock and "sphinx-book-theme" in lock


def test_check_reports_each_kind_of_difference(tmp_path):
    lock = {"numpy": "2.4.6", "scipy": "1.17.1"}
    present = {"numpy": "2.4.5", "matplotlib": "3.11.2", "pip": "26.3", "svmlib": "0.1"}
    problems = ce.install_problems(lock, present)
    assert problems == ["numpy: locked 2.4.6, installed 2.4.5",
                        "scipy==1.17.1 is locked but not installed",
                        "matplotlib==3.11.2 is installed but not in requirements.lock"]
    assert ce.lock_problems({"anywidget": "0.9.18", "numpy": "2.4.6"}, lock) == [
        "anywidget==0.9.18 is in requirements.txt but not in requirements.lock"]
    bad = tmp_path / "r.txt"
    bad.write_text("numpy>=2\n")
    with pytest.raises(ValueError, match="not an exact pin"):
        ce.read_pins(bad)
    assert ce.normalize("Sphinx_Book.Theme") == "sphinx-book-theme"
