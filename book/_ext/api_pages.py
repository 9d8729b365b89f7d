"""The API reference's pages: one directive, one line per module.

``book/api/*.md`` hold the reference.  Each page lists its modules in a
directive, one module per line, so that adding a module to the book is one
line in one page:

.. code-block:: rst

   .. svmlib-api::

      svmlib.kernels
      svmlib.approximation

For every module the directive makes a section (titled with the module's
name) that holds a summary table (each public function or class with the
first line of its docstring, linked to its entry) and then the entries,
written by autodoc.  The public members of a module are the names of its ``__all__`` (or,
without one, its public names) that it defines itself or takes from a
private submodule; a name re-exported from another public module is
documented at its home (``svmlib.exercises`` shows what ``svmlib.exercises._core``
defines, under the public name).  Classes that ``svmlib`` exports at the top
level are documented once, as ``svmlib.SVC`` and so on, on the line
``svmlib``; a module that defines one does not repeat it.

The book's helpers are grouped by chapter:

.. code-block:: rst

   .. svmlib-chapter-helpers::

      hyperplanes
      perceptron

makes one section per chapter (the chapter's number and title read from
``book/NN_<name>.ipynb``, a link to the chapter) holding a module section
for each of ``svmlib.plotting.<name>``, ``svmlib.widgets.<name>`` and
``svmlib.exercises.<name>`` that exists.

Docstrings point at the book's equations as "(eq-label)" (and at algorithms
and theorems as "(alg-label)", "(thm-label)", chapters as ``ch-label``).
The hook on ``autodoc-process-docstring`` turns every such mention whose
label a chapter defines into a cross-reference: a link to the numbered
equation ("(5.3)"), to the algorithm or theorem, or to the chapter.  Labels
are collected from the chapters' sources when the build starts, so a mention
of a label that no chapter defines stays plain text instead of failing the
build.
"""

import importlib
import inspect
import json
import re
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.nodes import nested_parse_with_titles

logger = logging.getLogger(__name__)

BOOK = Path(__file__).resolve().parent.parent

# labels the chapters define, filled when the build starts
_LABELS = {"eq": set(), "prf": set(), "std": set()}


# --------------------------------------------------------------------------
# members and summary tables

def _top_level_classes():
    import svmlib
    return {id(getattr(svmlib, name)) for name in svmlib.__all__
            if inspect.isclass(getattr(svmlib, name, None))}


def public_members(modname):
    """``(name, object)`` pairs that the reference documents for ``modname``."""
    module = importlib.import_module(modname)
    if modname == "svmlib":
        return [(name, getattr(module, name)) for name in module.__all__
                if inspect.isclass(getattr(module, name))]
    skip = _top_level_classes()
    names = getattr(module, "__all__", None)
    if names is None:
        names = [name for name in vars(module) if not name.startswith("_")]
    members = []
    for name in names:
        obj = getattr(module, name, None)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        home = getattr(obj, "__module__", "") or ""
        own = home == modname or (home.startswith(modname + "._")
                                  and "." not in home[len(modname) + 2:])
        if not own:                      # a re-export: documented at its home
            continue
        if id(obj) in skip:
            continue
        members.append((name, obj))
    return members


def _undocumented_property(cls, name, value):
    """A property that the class docstring does not already describe.

    numpydoc's Attributes section ("name : type") is rendered from the class
    docstring; documenting the same property again would be a duplicate
    entry.  Other properties (the playground's ``X``, ``y``, ``summary``)
    get their own entry.
    """
    if not isinstance(value, property):
        return False
    doc = inspect.getdoc(cls) or ""
    return re.search(rf"^{re.escape(name)}\s*:", doc, re.M) is None


def _first_line(obj):
    doc = inspect.getdoc(obj) or ""
    paragraph = []
    for line in doc.strip().splitlines():
        if not line.strip():
            break
        paragraph.append(line.strip())
    text = " ".join(paragraph)
    # the first sentence, at most
    match = re.match(r"(.+?\.)(\s|$)", text)
    return match.group(1) if match else text


def _escape_cell(text):
    # a list-table cell is reStructuredText like the entry below it: keep
    # its inline markup and link its equation mentions the same way
    return link_mentions(text)


def module_rst(modname, members):
    """reStructuredText for one module: docstring, table, entries."""
    lines = [f".. automodule:: {modname}", "   :no-members:", ""]
    if members:
        lines += [".. list-table::", "   :class: svmlib-api-summary", "   :widths: 30 70", ""]
        for name, obj in members:
            role = "class" if inspect.isclass(obj) else "func"
            lines += [f"   * - :py:{role}:`~{modname}.{name}`",
                      f"     - {_escape_cell(_first_line(obj))}"]
        lines.append("")
    for name, obj in members:
        if inspect.isclass(obj):
            # the methods the class defines; its fitted attributes and
            # properties are described in the docstring's Attributes section
            # (and those it inherits from svmlib's own base classes, not
            # scikit-learn's get_params, set_*_request, ...)
            methods = []
            for base in reversed([c for c in obj.__mro__
                                  if c.__module__.split(".")[0] == "svmlib"]):
                methods += [m for m, v in vars(base).items()
                            if not m.startswith("_") and m not in methods
                            and (inspect.isfunction(v)
                                 or isinstance(v, (classmethod, staticmethod))
                                 or _undocumented_property(obj, m, v))]
            lines += [f".. autoclass:: {modname}.{name}"]
            lines += [f"   :members: {', '.join(methods)}"] if methods else []
            lines.append("")
        else:
            lines += [f".. autofunction:: {modname}.{name}", ""]
    return lines


def _section(directive, title, ident):
    section = nodes.section(ids=[ident], names=[nodes.fully_normalize_name(ident)])
    section += nodes.title(text=title)
    directive.state.document.note_implicit_target(section, section)
    return section


def _module_section(directive, modname):
    section = _section(directive, modname, "api-" + modname.replace(".", "-"))
    section[0].children = [nodes.literal(text=modname)]
    members = public_members(modname)
    content = StringList(module_rst(modname, members), source=f"<svmlib-api {modname}>")
    nested_parse_with_titles(directive.state, content, section)
    return section


class SvmlibApi(Directive):
    """One section per module named in the content (one per line)."""

    has_content = True

    def run(self):
        out = []
        for line in self.content:
            modname = line.strip()
            if not modname or modname.startswith("#"):
                continue
            try:
                importlib.import_module(modname)
            except ImportError as exc:
                raise self.error(f"svmlib-api: cannot import {modname!r}: {exc}") from exc
            out.append(_module_section(self, modname))
        return out


def chapter_of(name):
    """(number, title, label) of the chapter whose notebook is ``NN_<name>``."""
    hits = sorted(BOOK.glob(f"[0-9][0-9]_{name}.ipynb"))
    if not hits:
        return None
    notebook = json.loads(hits[0].read_text(encoding="utf-8"))
    title, label = name.replace("_", " ").capitalize(), None
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        found = re.search(r"^\((ch-[\w-]+)\)=\s*$", text, re.M)
        heading = re.search(r"^# (.+)$", text, re.M)
        if heading:
            title, label = heading.group(1).strip(), found.group(1) if found else label
            break
        if found:
            label = found.group(1)
    return int(hits[0].name[:2]), title, label


class SvmlibChapterHelpers(Directive):
    """One section per chapter: its plotting, widgets and exercises modules."""

    has_content = True

    def run(self):
        out = []
        for line in self.content:
            name = line.strip()
            if not name or name.startswith("#"):
                continue
            chapter = chapter_of(name)
            if chapter is None:
                raise self.error(f"svmlib-chapter-helpers: no notebook book/NN_{name}.ipynb")
            number, title, label = chapter
            section = _section(self, f"Chapter {number} · {title}", f"api-chapter-{name}")
            if label:
                intro = StringList([f"Helpers of :ref:`{label}`.", ""], source="<svmlib-api>")
                self.state.nested_parse(intro, 0, section)
            for package in ("plotting", "widgets", "exercises"):
                modname = f"svmlib.{package}.{name}"
                try:
                    importlib.import_module(modname)
                except ModuleNotFoundError:
                    continue
                section += _module_section(self, modname)
            out.append(section)
        return out


# --------------------------------------------------------------------------
# "(eq-label)" in docstrings -> a link to the equation

_MENTION = re.compile(r"\((?P<label>(?:eq|alg|thm|def|prop|lem|cor)-[\w-]+?)\)")
_CHAPTER = re.compile(r"``(?P<label>ch-[\w-]+)``")


def collect_labels(app):
    """Read the labels that the chapters define (equations, proofs, chapters)."""
    for key in _LABELS:
        _LABELS[key].clear()
    for path in sorted(BOOK.glob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for cell in notebook["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            text = "".join(cell["source"])
            _LABELS["eq"].update(re.findall(r"\$\$\s*\((eq-[\w-]+)\)", text))
            _LABELS["eq"].update(re.findall(r"^:label:\s*(eq-[\w-]+)", text, re.M))
            _LABELS["prf"].update(re.findall(r"^:label:\s*((?:alg|thm|def|prop|lem|cor)-[\w-]+)",
                                             text, re.M))
            _LABELS["std"].update(re.findall(r"^\((ch-[\w-]+)\)=\s*$", text, re.M))


def link_mentions(text):
    """Turn the label mentions in ``text`` into cross-reference roles."""
    def mention(match):
        label = match.group("label")
        if label in _LABELS["eq"]:
            return f":math:numref:`{label}`"
        if label in _LABELS["prf"]:
            return f"(:prf:ref:`{label}`)"
        return match.group(0)

    def chapter(match):
        label = match.group("label")
        return f":ref:`{label}`" if label in _LABELS["std"] else match.group(0)

    return _CHAPTER.sub(chapter, _MENTION.sub(mention, text))


def process_docstring(app, what, name, obj, options, lines):
    in_literal = False
    for i, line in enumerate(lines):
        stripped = line.rstrip()
        if in_literal and stripped and not line.startswith((" ", "\t")):
            in_literal = False
        if not in_literal:
            lines[i] = link_mentions(line)
        if stripped.endswith("::"):
            in_literal = True


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")
    app.add_directive("svmlib-api", SvmlibApi)
    app.add_directive("svmlib-chapter-helpers", SvmlibChapterHelpers)
    app.connect("builder-inited", collect_labels)
    app.connect("autodoc-process-docstring", process_docstring)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
