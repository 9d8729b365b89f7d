"""Sphinx extension of the book: lighter pages and a search that helps offline.

* **No ipywidgets state.**  A notebook executed in Jupyter stores the state of
  its live widgets in its metadata, and myst-nb copies it into the page as a
  ``<script type="application/vnd.jupyter.widget-state+json">`` block (45-143
  KB per chapter).  The book renders every interactive figure as kernel-free
  HTML (``svmlib.widgets``) and loads no widget manager, so nothing reads that
  block: it is dropped.
* **Search snippets from ``file://``.**  Sphinx's search page fetches every
  result page to cut a snippet out of it; from ``file://`` the browser refuses
  those requests (no snippets, one error per result), and over HTTP one search
  downloads every matching page (tens of MB).  Instead this extension writes
  the title and prose of every section, once, to ``_static/search_text.js`` (loaded by
  the search page only, as a script, which ``file://`` allows), and
  ``search_scorer.js`` cuts the snippets from it.  Code cells, their outputs
  and display equations are left out; inline formulas are kept as short text.
* **Ranking.**  ``search_scorer.js`` (loaded before Sphinx's searchtools.js,
  it defines the ``Scorer`` that searchtools.js then uses) ranks a
  chapter whose title names the query above the API entries and sections
  that merely mention it.
"""

import json
import pathlib
import re

from docutils import nodes

HERE = pathlib.Path(__file__).resolve().parent
#: At most this many characters of prose are kept per section (snippets are
#: cut around the first match, and the first matches come early).
MAX_SECTION_CHARS = 2400

_GREEK = {name: chr(code) for name, code in [
    ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4),
    ("epsilon", 0x3B5), ("varepsilon", 0x3B5), ("zeta", 0x3B6), ("eta", 0x3B7),
    ("theta", 0x3B8), ("kappa", 0x3BA), ("lambda", 0x3BB), ("mu", 0x3BC), ("nu", 0x3BD),
    ("xi", 0x3BE), ("pi", 0x3C0), ("rho", 0x3C1), ("sigma", 0x3C3), ("tau", 0x3C4),
    ("phi", 0x3C6), ("varphi", 0x3C6), ("chi", 0x3C7), ("psi", 0x3C8), ("omega", 0x3C9),
    ("Gamma", 0x393), ("Delta", 0x394), ("Lambda", 0x39B), ("Phi", 0x3A6), ("Sigma", 0x3A3),
    ("Omega", 0x3A9)]}
_SYMBOLS = {"le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠",
            "in": "∈", "sum": "Σ", "infty": "∞", "cdot": "·", "times": "×", "to": "→",
            "rightarrow": "→", "mapsto": "↦", "langle": "⟨", "rangle": "⟩", "|": "‖",
            "pm": "±", "approx": "≈", "partial": "∂", "nabla": "∇", "top": "ᵀ"}


_SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx",
                "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
_SUP = dict(zip("0123456789+-=()inT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿᵀ"))


def _script(match):
    """``_1`` -> ``₁``, ``^{2}`` -> ``²`` where Unicode has the character."""
    table = _SUB if match.group(1) == "_" else _SUP
    inner = match.group(2) or match.group(3)
    if all(ch in table for ch in inner):
        return "".join(table[ch] for ch in inner)
    return inner


def tex_to_text(tex):
    """A short plain-text reading of an inline formula (for snippets only)."""
    def command(match):
        name = match.group(1)
        return _GREEK.get(name) or _SYMBOLS.get(name) or ""
    text = re.sub(r"\\[dt]?frac\s*(?:\{([^{}]*)\}|(\w))\s*(?:\{([^{}]*)\}|(\w))",
                  lambda m: f"{m.group(1) or m.group(2)}/{m.group(3) or m.group(4)}", tex)
    text = re.sub(r"\\([A-Za-z]+|\|)", command, text)
    text = re.sub(r"([_^])(?:\{([^{}]*)\}|([A-Za-z0-9]))", _script, text)
    text = re.sub(r"[{}^_$\\]", "", text)
    return " ".join(text.split())


def _is_code_cell(node):
    return isinstance(node, nodes.container) and (
        "cell" in node.get("classes", []) or node.get("nb_element") == "cell_code")


class _Prose(nodes.NodeVisitor):
    """Collect the prose of one section, without its subsections."""

    def __init__(self, document):
        super().__init__(document)
        self.parts = []

    def dispatch_visit(self, node):
        if isinstance(node, nodes.section) or _is_code_cell(node) or isinstance(node, (
                nodes.raw, nodes.literal_block, nodes.math_block, nodes.comment,
                nodes.target, nodes.system_message, nodes.image, nodes.substitution_definition)):
            raise nodes.SkipNode
        if isinstance(node, nodes.math):
            self.parts.append(tex_to_text(node.astext()))
            raise nodes.SkipNode
        if isinstance(node, nodes.Text):
            self.parts.append(str(node))
        elif isinstance(node, (nodes.paragraph, nodes.title, nodes.list_item, nodes.term)):
            self.parts.append(" ")

    def dispatch_departure(self, node):
        if isinstance(node, (nodes.paragraph, nodes.title, nodes.list_item)):
            self.parts.append(" ")


def section_texts(doctree):
    """``[[ids, title, text], ...]``: each section's ids, title and own prose."""
    out = []
    for section in doctree.findall(nodes.section):
        visitor = _Prose(doctree)
        title = ""
        for child in section.children:
            if isinstance(child, nodes.section):
                continue
            if isinstance(child, nodes.title):
                title = " ".join(child.astext().split())
                continue
            child.walkabout(visitor)
        text = " ".join("".join(visitor.parts).split())
        if text or title:
            out.append([list(section["ids"]), title, text[:MAX_SECTION_CHARS]])
    return out


def drop_widget_state(app, pagename, templatename, context, doctree):
    """Forget the notebook's ipywidgets state before myst-nb adds it to the page."""
    data = getattr(app.env, "nb_metadata", {}).get(pagename, {})
    data.get("js_files", {}).pop("ipywidgets_state", None)


def add_search_text(app, pagename, templatename, context, doctree):
    """The search page (only) loads the section text and the scorer, in that order."""
    if pagename == "search":
        app.add_js_file("search_text.js")
        app.add_js_file("search_scorer.js")


def write_search_text(app, exception):
    if exception is not None or app.builder is None or app.builder.format != "html":
        return
    env = app.env
    data = {}
    for docname in sorted(env.found_docs):
        try:  # resolved, so that cross-references read as the reader sees them
            doctree = env.get_and_resolve_doctree(docname, app.builder)
        except FileNotFoundError:  # a document that was not read in this build
            continue
        data[docname] = section_texts(doctree)
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    payload = payload.replace("</", "<\\/")
    static = pathlib.Path(app.builder.outdir) / "_static"
    (static / "search_text.js").write_text("window.BOOK_SEARCH_TEXT=" + payload + ";\n",
                                           encoding="utf-8")
    # written on every build (Sphinx does not refresh html_search_scorer's
    # copy in an existing output folder)
    (static / "search_scorer.js").write_text(
        (HERE / "search_scorer.js").read_text(encoding="utf-8"), encoding="utf-8")


def setup(app):
    # before myst-nb's own html-page-context handler (priority 500)
    app.connect("html-page-context", drop_widget_state, priority=400)
    app.connect("html-page-context", add_search_text)
    app.connect("build-finished", write_search_text)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
