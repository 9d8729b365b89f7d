"""Which values in a notebook come from a clock, and where they are shown.

nbval compares what a code cell shows (its printed text, its displayed
values, the values it glues into the prose).  Anything computed from a clock
differs from run to run, so it must only ever be shown by a *measurement
cell* (first line ``# NBVAL_IGNORE_OUTPUT``), never by a compared one.  This
module follows clock values through a notebook's code the way they travel:

* **Sources.**  Calls of the clocks of :mod:`time` (``perf_counter``,
  ``process_time``, ``time``, ``monotonic``, ``thread_time`` and their ``_ns``
  forms), anything of :mod:`timeit`, ``datetime.now``, the ``%time`` and
  ``%timeit`` magics, and every function of ``svmlib`` or ``benchmarks/``
  whose result carries a clock reading (found by the same analysis run over
  their source, e.g. ``time_solvers``, or ``solve_dual_smo``, whose result
  records the solver's ``time``).
* **Flow.**  Assignments, augmented assignments, tuple unpacking, ``for``
  loops, comprehensions, containers filled by ``append``/``update``/...,
  items and attributes stored (``row["seconds"] = ...``), function
  definitions (a function that returns a clock value makes every call of it
  one), arguments (a call given a clock value returns one), and the branches
  of an ``if``/``while`` whose test depends on a clock (everything assigned
  or shown there depends on it too).
* **Fields.**  A record that holds one clock reading among other values
  (``{"seconds": t, "accuracy": a}``, ``SolverResult(time=t, ...)``) is a
  *carrier*: reading ``row["seconds"]`` or ``result.time`` gives a clock
  value, reading ``row["accuracy"]`` or ``result.alpha`` does not, and showing
  the whole record shows its clock field.  Field names are learnt where the
  clock value is stored, so ``r["seconds"]`` is a clock value wherever it is
  read.
* **Sinks.**  ``print``, ``display``, ``glue``, ``warnings.warn``,
  ``sys.stdout.write``, a cell's last expression, and a call of a function
  that prints (a notebook's own or the library's) given such a value.

The analysis is static and errs on the side of flagging: a value that merely
travels next to a clock reading in one container is treated as a clock
value.  ``tests/test_notebook_rules.py`` applies it to every chapter; the
dynamic counterpart is ``tests/lying_clock/sitecustomize.py``, under which
``make nbval-portable`` runs the chapters with a clock that adds random
delays.
"""

from __future__ import annotations

import ast
import os
import warnings
import pathlib
from dataclasses import dataclass, field

CLEAN, CARRIER, TAINTED = 0, 1, 2

CLOCK_CALLS = {
    f"time.{name}{suffix}"
    for name in ("perf_counter", "process_time", "time", "monotonic", "thread_time")
    for suffix in ("", "_ns")
} | {"datetime.datetime.now", "datetime.datetime.utcnow", "datetime.now"}
CLOCK_MODULES = {"timeit"}          # every name of the module measures time
TIMING_MAGICS = {"time", "timeit", "prun"}
MUTATORS = {"append", "extend", "insert", "update", "setdefault", "add",
            "appendleft", "extendleft", "put", "__setitem__"}
PRINTERS = {"print", "display", "glue", "pprint", "pprint.pprint",
            "IPython.display.display", "myst_nb.glue", "warnings.warn",
            "sys.stdout.write", "sys.stderr.write"}

DEBUG = bool(os.environ.get("CLOCK_FLOW_DEBUG"))
SIZE_OF = {"len", "isinstance", "hasattr", "callable", "type", "range", "id",
           "numpy.shape", "numpy.ndim", "numpy.size", "np.shape", "np.ndim", "np.size"}
PASS_THROUGH = {"list", "tuple", "sorted", "reversed", "dict", "set", "frozenset", "zip",
                "enumerate", "iter", "next", "filter", "map", "copy.copy", "copy.deepcopy",
                "pandas.DataFrame", "pd.DataFrame", "pandas.Series", "pd.Series",
                "numpy.array", "numpy.asarray", "np.array", "np.asarray"}
TEXT_OF = {"str", "repr", "format", "pprint.pformat", "json.dumps"}
ROOT = pathlib.Path(__file__).resolve().parents[1]


@dataclass
class Finding:
    """A compared output that depends on a clock."""
    cell: int          # index among the notebook's code cells
    line: int          # line in the cell's source
    what: str          # the shown expression
    why: str           # where its clock value comes from

    def __str__(self):
        return f"code cell {self.cell}, line {self.line}: {self.what} ({self.why})"


@dataclass
class Knowledge:
    """What is known of the library: clock functions, printing functions, fields."""
    returns: dict = field(default_factory=dict)     # qualified name -> CARRIER/TAINTED
    reasons: dict = field(default_factory=dict)     # qualified name -> why
    printers: set = field(default_factory=lambda: set(PRINTERS))
    clock_fields: dict = field(default_factory=dict)    # field name -> why
    carrier_fields: dict = field(default_factory=dict)  # field name -> why
    aliases: dict = field(default_factory=dict)     # module -> {name: qualified}


def _dotted(node):
    """``a.b.c`` of a Name/Attribute chain, or None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _field_name(node):
    """The field a Subscript/Attribute reads (``r["seconds"]``, ``res.time``), or None."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value
    return None


def _stored_names(target):
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for t in target.elts for n in _stored_names(t)]
    if isinstance(target, ast.Starred):
        return _stored_names(target.value)
    return []


def _base_name(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


class Scope:
    """The state of the names of one scope (a notebook, a module, a function)."""

    def __init__(self, knowledge, module=None, parent=None, import_module=None):
        self.k = knowledge
        # In the library only data flows count: a verbose progress line timed by
        # the clock does not make the fitted model depend on it.
        self.implicit = parent.implicit if parent is not None else module is None
        self.module = module
        self.import_module = import_module or module
        self.parent = parent
        self.state = {}          # name -> (level, why)
        self.aliases = {}        # name -> qualified name (imports, definitions)
        self.printers = set()    # names of functions of this scope that print
        self.findings = []
        self.changed = False
        self.weak = 0            # > 0 inside a loop or a branch: assignments may not happen
        self.shown = False       # the analysed code shows something itself

    # ---------------------------------------------------------------- names
    def qualify(self, dotted):
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        scope = self
        while scope is not None:
            if head in scope.aliases:
                qualified = scope.aliases[head] + ("." + rest if rest else "")
                return self._canonical(qualified)
            if head in scope.state:
                return None
            scope = scope.parent
        return self._canonical(dotted)

    def _canonical(self, qualified):
        # follow re-exports: svmlib.plotting.time_solvers -> svmlib.plotting.smo.time_solvers
        for _ in range(10):
            module, _, name = qualified.rpartition(".")
            target = self.k.aliases.get(module, {}).get(name)
            if target is None or target == qualified:
                return qualified
            qualified = target
        return qualified

    def lookup(self, name):
        scope = self
        while scope is not None:
            if name in scope.state:
                return scope.state[name]
            scope = scope.parent
        return (CLEAN, "")

    def set(self, name, level, why, strong=False):
        if strong and not self.weak:
            # a plain assignment, not inside a loop or a branch: the old value is gone
            if self.state.get(name) != (level, why if level else ""):
                self.changed = self.changed or bool(level)
            self.state[name] = (level, why if level else "")
            return
        old = self.state.get(name, (CLEAN, ""))
        if level > old[0] or name not in self.state:
            self.state[name] = (max(level, old[0]), why if level > old[0] else old[1])
            if level > old[0]:
                self.changed = True

    def learn_field(self, name, level, why):
        if DEBUG and level and name not in self.k.clock_fields:
            print("field", name, level, self.module, "<-", why[:120])
        table = self.k.clock_fields if level == TAINTED else self.k.carrier_fields
        if level and name not in table:
            table[name] = why
            self.changed = True

    def is_printer(self, qualified, dotted):
        if dotted is None:
            return False
        head = dotted.split(".")[0]
        scope = self
        while scope is not None:
            if dotted in scope.printers or head in scope.printers:
                return True
            scope = scope.parent
        return qualified in self.k.printers or dotted in PRINTERS

    # ---------------------------------------------------------- expressions
    def level(self, node):
        """(level, why) of an expression."""
        if node is None:
            return (CLEAN, "")
        if isinstance(node, ast.Name):
            level = self.lookup(node.id)
            if level[0]:
                return level
            return self._qualified_level(self.qualify(node.id))
        if isinstance(node, ast.Constant):
            return (CLEAN, "")
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            name = _field_name(node)
            dotted = _dotted(node)
            if dotted is not None:
                qualified = self._qualified_level(self.qualify(dotted))
                if qualified[0]:
                    return qualified
            if name in self.k.clock_fields:
                return (TAINTED, f"its field {name!r} holds a time: "
                        f"{self.k.clock_fields[name]}")
            base = self.level(node.value)
            inner = (CLEAN, "")
            if isinstance(node, ast.Subscript):
                inner = self.level(node.slice)
            if name is not None and name in self.k.carrier_fields:
                return max(base, inner, (CARRIER, self.k.carrier_fields[name]),
                           key=lambda x: x[0])
            if name is not None and base[0] == CARRIER:
                return inner        # another field of a carrier: no clock value
            return max(base, inner, key=lambda x: x[0])
        if isinstance(node, ast.Call):
            return self._call_level(node)
        if isinstance(node, ast.Dict):
            best = (CLEAN, "")
            for key, value in zip(node.keys, node.values):
                v = self.level(value)
                if key is not None and isinstance(key, ast.Constant) \
                        and isinstance(key.value, str):
                    if v[0]:
                        self.learn_field(key.value, v[0], v[1])
                        best = max(best, (CARRIER, v[1]), key=lambda x: x[0])
                else:
                    best = max(best, v, self.level(key), key=lambda x: x[0])
            return best
        if isinstance(node, ast.Lambda):
            inner = Scope(self.k, self.module, parent=self, import_module=self.import_module)
            a = node.args
            for param in a.posonlyargs + a.args + a.kwonlyargs:
                inner.state[param.arg] = (CLEAN, "")
            for default in a.defaults + [d for d in a.kw_defaults if d is not None]:
                level = self.level(default)
                if level[0]:
                    return level
            return inner.level(node.body)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            inner = Scope(self.k, self.module, parent=self, import_module=self.import_module)
            for gen in node.generators:
                inner.assign(gen.target, inner.level(gen.iter))
                for cond in gen.ifs:
                    test = inner.level(cond)
                    if test[0]:
                        inner.assign(gen.target, (TAINTED, test[1]))
            if isinstance(node, ast.DictComp):
                return max(inner.level(node.key), inner.level(node.value),
                           key=lambda x: x[0])
            return inner.level(node.elt)
        if isinstance(node, ast.JoinedStr):
            return max([(CLEAN, "")] + [self.level(v) for v in node.values],
                       key=lambda x: x[0])
        if isinstance(node, ast.FormattedValue):
            value = self.level(node.value)
            if value[0] == CARRIER:
                # {record} or {record!r} shows all its fields; {n:5d} formats a
                # number or a name that merely travelled with a record
                return (TAINTED, value[1]) if node.format_spec is None else (CLEAN, "")
            return value
        best = (CLEAN, "")
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                best = max(best, self.level(child), key=lambda x: x[0])
        return best

    def _method_base(self, func):
        """The level of ``x.method`` as a call target: that of ``x``, whole."""
        base = self.level(func.value)
        if base[0] == CARRIER and func.attr in ("__repr__", "__str__", "format",
                                                "to_string", "to_html", "describe"):
            return (TAINTED, base[1])     # the record's text shows its clock field
        return base

    def _qualified_level(self, qualified):
        if qualified is None:
            return (CLEAN, "")
        if qualified in CLOCK_CALLS or qualified.split(".")[0] in CLOCK_MODULES:
            return (TAINTED, f"{qualified} reads a clock")
        if qualified in self.k.returns:
            return (self.k.returns[qualified], self.k.reasons[qualified])
        return (CLEAN, "")

    def _call_level(self, node):
        func = node.func
        dotted = _dotted(func)
        if isinstance(func, ast.Attribute) and func.attr in ("run_line_magic",
                                                             "run_cell_magic"):
            if node.args and isinstance(node.args[0], ast.Constant) \
                    and node.args[0].value in TIMING_MAGICS:
                return (TAINTED, f"the %{node.args[0].value} magic measures time")
        if isinstance(func, ast.Attribute):
            qualified = self._qualified_level(self.qualify(dotted)) if dotted else (CLEAN, "")
            levels = [qualified if qualified[0] else self._method_base(func)]
        else:
            levels = [self.level(func)]
        qualified_func = self.qualify(dotted) if dotted else None
        if qualified_func in SIZE_OF or dotted in SIZE_OF:
            # len(rows) of a carrier counts its records, not its clock values
            args = [self.level(a) for a in node.args]
            return max([(CLEAN, "")] + [a for a in args if a[0] == TAINTED],
                       key=lambda x: x[0])
        if (qualified_func in TEXT_OF or dotted in TEXT_OF) and node.args:
            arg = self.level(node.args[0])
            if arg[0] == CARRIER:
                return (TAINTED, arg[1])   # str(record) shows its clock field
        through = qualified_func in PASS_THROUGH or dotted in PASS_THROUGH

        def argument(level):
            # a record given to a function: its result holds the record only if
            # the function hands its argument back (list(rows), sorted(rows))
            return level if level[0] == TAINTED or through else (CLEAN, "")

        levels += [argument(self.level(a)) for a in node.args]
        for kw in node.keywords:
            value = self.level(kw.value)
            if value[0] == CARRIER and not _is_constructor(dotted):
                value = argument(value)
            if value[0] and kw.arg is not None and _is_constructor(dotted):
                # Record(time=t, ...): the record carries the clock value in that field
                self.learn_field(kw.arg, value[0], value[1])
                levels.append((CARRIER, value[1]))
            else:
                levels.append(value)
        best = max(levels, key=lambda x: x[0])
        if isinstance(func, ast.Attribute) and best[0] == CLEAN:
            return self.level(func.value) if func.attr in ("items", "values", "copy") \
                else best
        return best

    # ----------------------------------------------------------- statements
    def assign(self, target, level):
        why = level[1]
        if isinstance(target, ast.Name):
            self.set(target.id, level[0], why, strong=True)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                self.assign(t, level)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, level)
        elif isinstance(target, (ast.Subscript, ast.Attribute)):
            name = _field_name(target)
            base = _base_name(target)
            if not level[0]:
                return
            if name is not None:
                # row["seconds"] = t, result.time = t: reading that field gives a
                # clock value wherever it is read; the record itself carries one
                self.learn_field(name, level[0], why)
                if base and base != "self":
                    self.set(base, CARRIER, why)
            elif base:
                self.set(base, level[0], why)

    def run(self, body, context=(CLEAN, ""), sink=None):
        """Analyse statements; ``sink(node, level)`` is told of every shown value."""
        for stmt in body:
            self.statement(stmt, context, sink)

    def statement(self, stmt, context, sink):
        lift = lambda level: max(level, context, key=lambda x: x[0])  # noqa: E731
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                local = alias.asname or alias.name.split(".")[0]
                if isinstance(stmt, ast.Import):
                    self.aliases[local] = alias.name if alias.asname else local
                else:
                    module = _resolve_module(stmt, self.import_module)
                    self.aliases[local] = f"{module}.{alias.name}"
                self.state.pop(local, None)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._function(stmt, context)
        elif isinstance(stmt, ast.ClassDef):
            for item in stmt.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self._function(item, context, owner=stmt.name)
        elif isinstance(stmt, ast.Assign):
            value = lift(self.level(stmt.value))
            for target in stmt.targets:
                if isinstance(target, (ast.Tuple, ast.List)) and \
                        isinstance(stmt.value, (ast.Tuple, ast.List)) and \
                        len(target.elts) == len(stmt.value.elts):
                    for t, v in zip(target.elts, stmt.value.elts):
                        self.assign(t, lift(self.level(v)))
                else:
                    self.assign(target, value)
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
            if stmt.value is not None:
                value = lift(self.level(stmt.value))
                if isinstance(stmt, ast.AugAssign):
                    value = max(value, self.level(stmt.target), key=lambda x: x[0])
                self.assign(stmt.target, value)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            self.assign(stmt.target, lift(self.level(stmt.iter)))
            inner = lift((TAINTED, self.level(stmt.iter)[1])
                         if self.implicit and self.level(stmt.iter)[0] == TAINTED
                         else (CLEAN, ""))
            # the first pass as the first iteration (its assignments replace the old
            # values), the second as every later one (they may or may not happen)
            self.run(stmt.body, inner, sink)
            self.weak += 1
            self.run(stmt.body, inner, sink)
            self.run(stmt.orelse, context, sink)
            self.weak -= 1
        elif isinstance(stmt, (ast.If, ast.While)):
            test = self.level(stmt.test) if self.implicit else (CLEAN, "")
            inner = lift(test if test[0] else (CLEAN, ""))
            if inner[0]:
                inner = (TAINTED, inner[1])
            self.weak += 1
            for _ in range(2 if isinstance(stmt, ast.While) else 1):
                self.run(stmt.body, inner, sink)
            self.run(stmt.orelse, inner, sink)
            self.weak -= 1
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, lift(self.level(item.context_expr)))
            self.run(stmt.body, context, sink)
        elif isinstance(stmt, ast.Try):
            self.weak += 1
            for block in (stmt.body, *[h.body for h in stmt.handlers],
                          stmt.orelse, stmt.finalbody):
                self.run(block, context, sink)
            self.weak -= 1
        elif isinstance(stmt, ast.Expr):
            self._expression_statement(stmt.value, context, sink)
        elif isinstance(stmt, ast.Return):
            if sink is not None and stmt.value is not None:
                sink(stmt.value, lift(self.level(stmt.value)), kind="return")
        # other statements (pass, del, global, assert, raise) carry no value

    def _expression_statement(self, value, context, sink):
        # containers filled in place: rows.append(t), seconds.update(...)
        for call in ast.walk(value):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                    and call.func.attr in MUTATORS:
                args = [self.level(a) for a in call.args] + \
                       [self.level(k.value) for k in call.keywords] + [context]
                best = max(args, key=lambda x: x[0])
                base = _base_name(call.func.value)
                if base and best[0]:
                    if isinstance(call.func.value, (ast.Subscript, ast.Attribute)) \
                            and _field_name(call.func.value) is not None:
                        self.learn_field(_field_name(call.func.value), best[0], best[1])
                        self.set(base, CARRIER, best[1])
                    else:
                        self.set(base, best[0], best[1])
        if sink is not None:
            sink(value, max(self.level(value), context, key=lambda x: x[0]),
                 kind="expression")

    def _function(self, node, context, owner=None):
        inner = Scope(self.k, self.module, parent=self, import_module=self.import_module)
        args = node.args
        params = args.posonlyargs + args.args + args.kwonlyargs
        defaults = [None] * (len(args.posonlyargs + args.args) - len(args.defaults)) \
            + list(args.defaults) + list(args.kw_defaults)
        for param, default in zip(params, defaults):
            inner.state[param.arg] = self.level(default) if default is not None \
                else (CLEAN, "")
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                inner.state[extra.arg] = (CLEAN, "")
        returned = [(CLEAN, "")]
        prints = [False]

        def sink(value, level, kind):
            if kind == "return":
                returned.append(level)
            else:
                prints[0] = prints[0] or inner.shows(value)

        local = {n for s in ast.walk(node) for n in
                 (_stored_names(t) for t in getattr(s, "targets", []))
                 for n in n}
        for _ in range(3):
            inner.run(node.body, context, sink)
        for yielded in ast.walk(node):
            if isinstance(yielded, (ast.Yield, ast.YieldFrom)) and yielded.value is not None:
                returned.append(inner.level(yielded.value))
        level = max(returned, key=lambda x: x[0])
        name = node.name if owner is None else f"{owner}.{node.name}"
        # names of an enclosing scope that the function fills in place
        for var, (lvl, why) in inner.state.items():
            if lvl and var not in local and var not in [p.arg for p in params] \
                    and var in self._visible_names():
                self.set(var, lvl, why)
        why = level[1] if level[0] else ""
        if level[0]:
            why = f"{node.name}() returns a value from a clock ({level[1]})"
        if self.module is not None:
            qualified = f"{self.module}.{name}"
            if level[0] and self.k.returns.get(qualified, CLEAN) < level[0]:
                self.k.returns[qualified] = level[0]
                self.k.reasons[qualified] = why
                self.changed = True
            if prints[0] and qualified not in self.k.printers:
                self.k.printers.add(qualified)
                self.changed = True
        if owner is None:
            self.state.pop(node.name, None)
            if level[0]:
                self.set(node.name, level[0], why)
            if prints[0]:
                self.printers.add(node.name)
            self.aliases.pop(node.name, None)
            if self.module is not None:
                self.aliases[node.name] = f"{self.module}.{node.name}"

    def _visible_names(self):
        names, scope = set(), self
        while scope is not None:
            names |= set(scope.state)
            scope = scope.parent
        return names

    def shows(self, value):
        """Whether an expression statement shows something (a print-like call)."""
        for call in ast.walk(value):
            if isinstance(call, ast.Call):
                dotted = _dotted(call.func)
                if self.is_printer(self.qualify(dotted), dotted):
                    return True
                if isinstance(call.func, ast.Attribute) and call.func.attr in (
                        "run_line_magic", "run_cell_magic"):
                    return True
        return False


def _is_constructor(dotted):
    return bool(dotted) and dotted.split(".")[-1][:1].isupper()


def _resolve_module(stmt, module):
    if not stmt.level:
        return stmt.module
    package = (module or "").split(".")
    # a module's own name is its last part, unless it is a package's __init__
    base = package[: len(package) - stmt.level] if package else []
    return ".".join(base + ([stmt.module] if stmt.module else []))


# ------------------------------------------------------------------ library

def _module_name(path, root):
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1] + ["__init__"]
    return ".".join(parts)


def _analyse(modules, knowledge, rounds=6):
    for _ in range(rounds):
        changed = False
        for public, name, tree in modules:
            scope = Scope(knowledge, module=public, import_module=name)
            scope.run(tree.body)
            knowledge.aliases[public] = dict(scope.aliases)
            changed |= scope.changed
        if not changed:
            break


def _parse_package(root, package):
    modules = []
    for path in sorted((root / package).rglob("*.py")):
        name = _module_name(path, root)
        public = name[: -len(".__init__")] if name.endswith(".__init__") else name
        with warnings.catch_warnings():     # a script's own invalid escapes are its business
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        modules.append((public, name, tree))
    return modules


def learn_library(root=ROOT, package="svmlib", scripts=("benchmarks",)):
    """Analyse the library's source: which functions return clock values or print.

    The scripts (``benchmarks/``) are analysed after the library, each with its
    own copy of the field names: a benchmark's table of timings says nothing
    of what the library's records hold.  Their functions' results and
    printing are kept, should a notebook call one.
    """
    knowledge = Knowledge()
    _analyse(_parse_package(root, package), knowledge)
    for folder in scripts:
        if not (root / folder).is_dir():
            continue
        for module in _parse_package(root, folder):
            local = Knowledge(returns=dict(knowledge.returns),
                              reasons=dict(knowledge.reasons),
                              printers=set(knowledge.printers),
                              clock_fields=dict(knowledge.clock_fields),
                              carrier_fields=dict(knowledge.carrier_fields),
                              aliases=knowledge.aliases)
            _analyse([module], local)
            for qualified, level in local.returns.items():
                if qualified.startswith(module[0] + "."):
                    knowledge.returns[qualified] = level
                    knowledge.reasons[qualified] = local.reasons[qualified]
            knowledge.printers |= {q for q in local.printers
                                   if q.startswith(module[0] + ".")}
    return knowledge


# ---------------------------------------------------------------- notebooks

def cell_code(source):
    """A cell's source as Python: IPython's magics become the calls they stand for."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
        return TransformerManager().transform_cell(source)
    except ImportError:        # without IPython, drop magic lines
        return "\n".join("pass" if line.lstrip().startswith(("%", "!")) else line
                         for line in source.splitlines())


class Notebook:
    """The clock analysis of a notebook's code cells, in order."""

    def __init__(self, sources, compared, knowledge=None):
        self.k = knowledge if knowledge is not None else learn_library()
        self.scope = Scope(self.k)
        self.findings = []
        self.defined = []        # per cell: names it assigns that hold no clock value
        self.used = []           # per cell: names it reads
        self.clocked = []        # per cell: names it assigns that hold clock values
        for index, (source, is_compared) in enumerate(zip(sources, compared)):
            self._cell(index, source, is_compared)

    def _cell(self, index, source, is_compared):
        tree = ast.parse(cell_code(source))
        before = dict(self.scope.state)
        findings = []

        def sink(value, level, kind):
            if not is_compared or kind == "return":
                return
            shows = self.scope.shows(value)
            last = kind == "expression" and value is last_value
            if last and not shows and level[0] == CARRIER and isinstance(value, ast.Call):
                # an object built from a record (a widget drawing a solver's run)
                # is shown by its own display, not as the record's fields
                return
            if level[0] and (shows or last):
                findings.append(Finding(index, value.lineno,
                                        ast.unparse(value)[:80], level[1]))
            elif shows:
                for call in ast.walk(value):
                    if isinstance(call, ast.Call) and \
                            self.scope.is_printer(self.scope.qualify(_dotted(call.func)),
                                                  _dotted(call.func)):
                        for arg in call.args + [k.value for k in call.keywords]:
                            level = self.scope.level(arg)
                            if level[0]:
                                findings.append(Finding(index, value.lineno,
                                                        ast.unparse(value)[:80],
                                                        level[1]))
                                return

        last_value = tree.body[-1].value if tree.body and \
            isinstance(tree.body[-1], ast.Expr) else None
        for _ in range(2):     # loops and later definitions reach a fixed point
            findings.clear()
            self.scope.run(tree.body, sink=sink)
        seen = set()
        for f in findings:
            if (f.line, f.what) not in seen:
                seen.add((f.line, f.what))
                self.findings.append(f)
        assigned = {n for node in ast.walk(tree)
                    for n in (_stored_names(t) for t in _targets(node)) for n in n}
        assigned |= {node.name for node in ast.walk(tree)
                     if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
        self.clocked.append({n for n in assigned if self.scope.lookup(n)[0] == TAINTED
                             or (n in self.scope.state and self.scope.state[n][0] == TAINTED)})
        self.defined.append({n for n in assigned if self.scope.lookup(n)[0] != TAINTED})
        self.used.append({node.id for node in ast.walk(tree)
                          if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)})
        del before


def _targets(node):
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.comprehension)):
        return [node.target]
    if isinstance(node, ast.withitem) and node.optional_vars is not None:
        return [node.optional_vars]
    return []


_LIBRARY = None


def library():
    """The library's analysis, computed once per process."""
    global _LIBRARY
    if _LIBRARY is None:
        _LIBRARY = learn_library()
    return _LIBRARY


def notebook_findings(path, knowledge=None):
    """Clock values shown by the compared cells of a notebook file."""
    import json
    cells = [c for c in json.loads(pathlib.Path(path).read_text(encoding="utf-8"))["cells"]
             if c["cell_type"] == "code"]
    sources = ["".join(c["source"]) for c in cells]
    compared = [not s.lstrip().startswith("# NBVAL_IGNORE_OUTPUT") for s in sources]
    return Notebook(sources, compared, knowledge or library())


if __name__ == "__main__":
    import sys
    for name in sys.argv[1:]:
        for finding in notebook_findings(name).findings:
            print(f"{name}: {finding}")
