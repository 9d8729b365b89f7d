"""Compare the installed Python packages with ``requirements.lock``.

``requirements.txt`` lists what the book, its tests and its notebooks use
directly, each pinned; ``requirements.lock`` is the whole environment that
``make lock`` resolved from it in a fresh virtual environment (every package,
direct and transitive, with its exact version).  ``make setup`` installs the
lock.  This script checks two things and exits non-zero, saying what differs
and what to do, when either fails:

1. every pin of ``requirements.txt`` is in the lock at the same version (so a
   package added to ``requirements.txt`` without ``make lock`` is caught);
2. the packages installed in the running interpreter's environment are exactly
   the lock: none missing, none extra, no version different.

pip (the installer, pinned in the Makefile) and svmlib itself (installed
editable from this repository) are not part of the lock.

Usage: ``.venv/bin/python tools/check_environment.py [--lock-only]``
(``--lock-only`` runs check 1 alone, without looking at the installation).
"""

import argparse
import pathlib
import re
import sys
from importlib import metadata

ROOT = pathlib.Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "requirements.txt"
LOCK = ROOT / "requirements.lock"
#: Not locked: the installer's own tools, and the project itself.
UNLOCKED = {"pip", "svmlib"}

_PIN = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*==\s*([^\s;#]+)")


def normalize(name):
    """A distribution name as PEP 503 compares it (``Foo_Bar`` -> ``foo-bar``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_pins(path):
    """``{normalized name: version}`` of the ``name==version`` lines of a file.

    Raises
    ------
    ValueError
        If a requirement line is not an exact pin ``name==version``.
    """
    pins = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _PIN.match(line)
        if match is None:
            raise ValueError(f"{path.name}, line {number}: {raw.strip()!r} is not an exact "
                             f"pin 'name==version'; every package must be pinned.")
        pins[normalize(match.group(1))] = match.group(2)
    return pins


def installed():
    """``{normalized name: version}`` of the distributions this interpreter sees."""
    found = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if name:
            found[normalize(name)] = dist.version
    return found


def lock_problems(requirements, lock):
    """Pins of requirements.txt missing from the lock or locked at another version."""
    problems = []
    for name, version in sorted(requirements.items()):
        if name not in lock:
            problems.append(f"{name}=={version} is in requirements.txt but not in "
                            f"requirements.lock")
        elif lock[name] != version:
            problems.append(f"{name}: requirements.txt pins {version}, requirements.lock "
                            f"has {lock[name]}")
    return problems


def install_problems(lock, present):
    """Differences between the lock and what is installed."""
    problems = []
    for name, version in sorted(lock.items()):
        if name not in present:
            problems.append(f"{name}=={version} is locked but not installed")
        elif present[name] != version:
            problems.append(f"{name}: locked {version}, installed {present[name]}")
    for name in sorted(set(present) - set(lock) - UNLOCKED):
        problems.append(f"{name}=={present[name]} is installed but not in requirements.lock")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lock-only", action="store_true",
                        help="only check that requirements.lock covers requirements.txt")
    args = parser.parse_args(argv)
    if not LOCK.exists():
        print(f"{LOCK} is missing: run `make lock` to create it.", file=sys.stderr)
        return 2
    requirements, lock = read_pins(REQUIREMENTS), read_pins(LOCK)
    problems = lock_problems(requirements, lock)
    if problems:
        print("requirements.lock does not match requirements.txt:\n  " + "\n  ".join(problems)
              + "\nRun `make lock` (it re-resolves requirements.txt in a fresh environment) "
              "and commit requirements.lock.", file=sys.stderr)
        return 1
    if not args.lock_only:
        problems = install_problems(lock, installed())
        if problems:
            print(f"The environment of {sys.executable} differs from requirements.lock:\n  "
                  + "\n  ".join(problems) + "\nRun `make setup` again (or `rm -rf .venv && "
                  "make setup`) to install exactly the lock.", file=sys.stderr)
            return 1
    print(f"OK: {len(lock)} locked packages" +
          ("" if args.lock_only else ", installed exactly") + ".")
    return 0


if __name__ == "__main__":
    sys.exit(main())
