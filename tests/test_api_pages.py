"""The API reference (book/api/*.md) documents every public module once.

The pages list their modules in two directives (book/_ext/api_pages.py): a
line per module in ``svmlib-api``, a line per chapter in
``svmlib-chapter-helpers``.  These tests make a new module or a new chapter's
helpers fail until a line names them, and check that no object is documented
twice (Sphinx would warn, and the book builds with warnings as errors).
"""

import importlib
import pathlib
import pkgutil
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import api_pages  # noqa: E402

import svmlib  # noqa: E402

HELPER_PACKAGES = ("plotting", "widgets", "exercises")


def _directive_lines(name):
    lines = []
    for page in sorted((ROOT / "book" / "api").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for block in re.findall(rf"\.\. {name}::\n\n((?:   \S.*\n?)+)", text):
            lines += [line.strip() for line in block.splitlines() if line.strip()]
    return lines


def _public_modules():
    names = {"svmlib"}
    for info in pkgutil.walk_packages(svmlib.__path__, "svmlib."):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts):
            continue
        if len(parts) > 2 and parts[1] in HELPER_PACKAGES:
            continue                       # chapter modules: svmlib-chapter-helpers
        names.add(info.name)
    return names - {"svmlib.solvers"}     # re-exports only, documented at their homes


def test_every_public_module_has_a_line():
    listed = set(_directive_lines("svmlib-api"))
    missing = _public_modules() - listed
    assert not missing, f"add a line to a page of book/api/ for: {sorted(missing)}"
    unknown = listed - _public_modules()
    assert not unknown, f"book/api/ lists modules that do not exist: {sorted(unknown)}"


def test_every_chapter_with_helpers_has_a_line():
    listed = _directive_lines("svmlib-chapter-helpers")
    assert len(listed) == len(set(listed))
    chapters = set()
    for package in HELPER_PACKAGES:
        module = importlib.import_module(f"svmlib.{package}")
        for info in pkgutil.iter_modules(module.__path__):
            if not info.name.startswith("_"):
                chapters.add(info.name)
    assert chapters == set(listed), (
        f"chapters with helpers but no line: {sorted(chapters - set(listed))}; "
        f"lines without helpers: {sorted(set(listed) - chapters)}")
    for name in listed:
        assert api_pages.chapter_of(name) is not None, f"no notebook book/NN_{name}.ipynb"


def test_no_object_is_documented_twice():
    seen = {}
    modules = _directive_lines("svmlib-api") + [
        f"svmlib.{package}.{name}" for name in _directive_lines("svmlib-chapter-helpers")
        for package in HELPER_PACKAGES
        if importlib.util.find_spec(f"svmlib.{package}.{name}") is not None]
    for modname in modules:
        for name, obj in api_pages.public_members(modname):
            key = id(obj)
            assert key not in seen, f"{modname}.{name} is also documented as {seen[key]}"
            seen[key] = f"{modname}.{name}"


def test_private_core_modules_are_shown_under_the_package():
    names = {name for name, _ in api_pages.public_members("svmlib.exercises")}
    assert {"Feedback", "checker", "call_answer"} <= names
    assert "svmlib.exercises._core" not in _directive_lines("svmlib-api")


@pytest.mark.parametrize("text, expected", [
    ("Book: (eq-kernel-rbf).", "Book: :math:numref:`eq-kernel-rbf`."),
    ("Book: (alg-perceptron), exercise", "Book: (:prf:ref:`alg-perceptron`), exercise"),
    ("chapter ``ch-kernels``", "chapter :ref:`ch-kernels`"),
    ("(eq-no-such-label)", "(eq-no-such-label)"),
])
def test_equation_mentions_become_links_when_the_label_exists(text, expected):
    api_pages.collect_labels(None)
    assert api_pages.link_mentions(text) == expected
