"""svmlib's modules import only downwards: the layering of the README, checked.

The import graph is read from the source with ``ast`` (every ``import`` and
``from ... import`` statement, including those inside functions, which an
import in a fresh interpreter would not run), so an import hidden in a
function body counts as much as one at the top of the file.  A module's
layer is judged by what it reaches through these edges, directly or not.
Running a module also runs its parent packages' ``__init__`` (``svmlib``
imports every estimator); that is the package's front door, not an edge
of the graph.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "svmlib"

#: Modules that fit models (the estimators and what only they use).
ESTIMATORS = {f"svmlib.{name}" for name in (
    "svc", "svr", "nu_svm", "linear", "perceptron", "multiclass", "_kernel_svm")}

#: Modules below the estimators: they must not reach any of ESTIMATORS.
FOUNDATIONS = ("kernels", "objectives", "_validation", "datasets", "hyperplane")

#: The book's helpers: the only modules that may import plotting and widgets.
BOOK_HELPERS = ("svmlib.plotting", "svmlib.widgets", "svmlib.exercises")


def _module_name(path, root):
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported_modules(tree, name, is_package, modules):
    """The svmlib modules that the statements of ``tree`` import."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            for alias in node.names:
                # "from . import kernels" imports the submodule svmlib.kernels;
                # "from .svc import SVC" a name of svmlib.svc
                submodule = f"{target}.{alias.name}"
                found.add(submodule if submodule in modules else target)
    return {module for module in found if module in modules}


def import_graph(root=PACKAGE):
    """``{module: set of svmlib modules it imports}`` for the package at ``root``."""
    files = {_module_name(path, root): path for path in sorted(root.rglob("*.py"))}
    graph = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        imported = _imported_modules(tree, name, path.name == "__init__.py", files)
        graph[name] = imported - {name}
    return graph


def import_chain(graph, start, targets):
    """The shortest chain of imports from ``start`` to a module in ``targets``, or None."""
    parents = {start: None}
    queue = [start]
    while queue:
        module = queue.pop(0)
        if module in targets and module != start:
            chain = [module]
            while parents[chain[-1]] is not None:
                chain.append(parents[chain[-1]])
            return " -> ".join(reversed(chain))
        for imported in sorted(graph[module]):
            if imported not in parents:
                parents[imported] = module
                queue.append(imported)
    return None


def _is_under(module, packages):
    return any(module == p or module.startswith(p + ".") for p in packages)


@pytest.fixture(scope="module")
def graph():
    return import_graph()


def test_the_graph_sees_the_imports_it_should(graph):
    # relative, absolute, "from . import name" and function-level imports
    assert "svmlib._validation" in graph["svmlib.kernels"]
    assert "svmlib.svc" in graph["svmlib.feature_maps"]
    assert "svmlib.kernels" in graph["svmlib.smo"]
    assert "svmlib._smo_steps" in graph["svmlib.smo"]
    assert "svmlib.plotting._core" in graph["svmlib.widgets.kernels"]
    assert set(ESTIMATORS) <= set(graph)
    for module in FOUNDATIONS:
        assert f"svmlib.{module}" in graph


@pytest.mark.parametrize("module", FOUNDATIONS)
def test_foundations_import_no_estimator(graph, module):
    chain = import_chain(graph, f"svmlib.{module}", ESTIMATORS)
    assert chain is None, (f"svmlib.{module} sits below the estimators but imports one: "
                           f"{chain}. Move the code that needs the estimator to a module above it.")


def test_only_the_book_helpers_import_plotting_and_widgets(graph):
    drawing = {m for m in graph if _is_under(m, ("svmlib.plotting", "svmlib.widgets"))}
    offenders = []
    for module in sorted(graph):
        if _is_under(module, BOOK_HELPERS):
            continue
        chain = import_chain(graph, module, drawing)
        if chain is not None:
            offenders.append(chain)
    assert not offenders, ("these modules import the book's drawing code; move what they "
                           "need out of plotting/widgets: " + "; ".join(offenders))


def test_no_import_cycle(graph):
    cycles = []
    for module in sorted(graph):
        for imported in sorted(graph[module]):
            back = import_chain(graph, imported, {module})
            if back is not None:
                cycles.append(f"{module} -> {back}")
    assert not cycles, "import cycles: " + "; ".join(cycles)


def test_the_old_kernels_module_would_fail(tmp_path):
    # kernels.py as it was, with the SVC import inside fit_lifted_plane
    package = tmp_path / "svmlib"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_validation.py").write_text("")
    (package / "svc.py").write_text("from .smo import solve_dual_smo\n")
    (package / "smo.py").write_text("from .kernels import BoundKernel\n")
    (package / "kernels.py").write_text(
        "from ._validation import check_array\n\n"
        "def fit_lifted_plane(Z, y):\n"
        "    from .svc import SVC\n"
        "    return SVC\n")
    chain = import_chain(import_graph(package), "svmlib.kernels", ESTIMATORS)
    assert chain == "svmlib.kernels -> svmlib.svc"
