"""Build the learner's edition: the chapters as notebooks that read in any Jupyter.

    .venv/bin/python book/make_notebooks.py [--build _build] [--out DIR] [CHAPTER ...]

writes ``_build/notebooks/NN_name.ipynb`` (every chapter and the playground)
from the book build: stock JupyterLab, Notebook 7, VS Code and Colab render
none of MyST's roles or directives, so each notebook carries the book's text
already resolved, as plain Markdown and HTML that every front end displays.

Where the numbers come from.  Nothing is re-derived.  The Sphinx build
environment (``_build/.doctrees/environment.pickle``, a
``sphinx.environment.BuildEnvironment``, read with Sphinx's classes) holds
what the HTML book shows: ``toc_fignumbers`` (figures, equations with
``math_numfig``, sphinx-proof's theorems and definitions, sphinx-exercise's
exercises, each as its chapter's tuple), the ``std`` domain's labels (section
titles), sphinx-proof's ``proof_list`` (which kind of statement a label is),
sphinxcontrib-bibtex's citations (the bibliography's formatted entries), and
the configuration (``numfig_format``, ``math_eqref_format``,
``bibtex_reference_style``).  The cells and outputs are the notebooks that
myst-nb rendered in the same build (``_build/jupyter_execute/book/``, the
executed notebooks it wrote from the run of ``make book``), and glued values
are that run's (``NN_name.glue.json`` beside them, myst-nb's own record, and
formatted by myst-nb's ``format_plain_text``).  So the text, the numbers, the
glued values and the outputs of an edition all come from one build.

What the edition does to a chapter:

* ``{numref}``, ``{eq}``, ``{prf:ref}``, ``{ref}`` become Markdown links whose
  text is the book's ("Fig. 6.3", "(6.9)", "Theorem 6.1", the section's or
  the author's title), to an anchor in this notebook or in the sibling
  notebook (a chapter's own label: the sibling notebook itself), followed by
  a small "↗" link to the same place in the HTML book (the published address
  of _config.yml's ``html.baseurl``, else a path relative to where the
  edition is written); ``{cite}``/``{cite:p}`` become "(Platt, 1999)",
  ``{cite:t}`` "Platt (1999)", formatted by sphinxcontrib-bibtex's own
  referencing style, and the notebook ends with its reference list;
* ``{glue:text}`` and ``{glue}`` become the values of the build's run;
* display math becomes one line of ``\\begin{equation*} ... \\end{equation*}``,
  a labelled equation with its number as ``\\tag{6.9}``; ``(label)=`` lines
  become HTML anchors;
* theorems, definitions, proofs, algorithms, exercises, admonitions and
  margin notes become a bold numbered title in a Markdown block quote;
  dropdowns and solutions become collapsed ``<details>`` blocks;
* a code cell of a solution (the stored answer of a code exercise, and any
  other code of a gated solution) becomes a collapsed ``<details>`` block with
  its code and its output, as everything else of a solution: a collapsed code
  cell would not do, since JupyterLab still shows its first line and
  ``nbconvert`` and front ends that ignore ``metadata.jupyter`` show all of it.
  The cell the learner runs is the exercise's stub (``metadata.exercise.stub``,
  as in the exercise edition) or the chapter's own starter cell, which stays;
* each figure's caption (myst-nb's cell metadata) follows it as a Markdown
  cell "**Fig. 6.3.** ...";
* a first cell says how to get svmlib (the wheel the book ships beside its
  landing page, ``downloads/svmlib-<version>-py3-none-any.whl``, or
  ``pip install -e .`` in a copy of the repository), and a code cell checks
  that it imports, with the same advice if it does not.

Anything the edition cannot render faithfully (an unknown directive or role,
a label the build does not know, a glue key the run did not record) stops the
build with a message that names the chapter: an edition from a stale build
fails instead of showing a raw label.
"""

import argparse
import copy
import dataclasses
import hashlib
import json
import os
import pathlib
import pickle
import re
import sys

import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
DEFAULT_BUILD = ROOT / "_build"
DEFAULT_OUT = DEFAULT_BUILD / "notebooks"
#: where the HTML book keeps the edition for its download menu
HTML_DIR = "_notebooks"
#: the tooltip of a reference's second link, to the HTML book
HTML_LINK_TITLE = "the same place in the HTML book"
#: where the HTML book offers svmlib's wheel (relative to its landing page)
WHEEL_DIR = "downloads"

#: a role, or an inline code span (whose text is left alone)
ROLE_OR_CODE = re.compile(r"\{(?P<role>[a-z]+(?::[a-z]+)?)\}`(?P<content>[^`]+)`"
                          r"|(?P<code>(?P<ticks>`+)[^`].*?(?P=ticks))")
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|:{3,})\{(?P<name>[A-Za-z0-9_:-]+)\}"
                   r"(?P<arg>.*)$")
PLAIN_FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})[^`{]*$")
LABEL_LINE = re.compile(r"^\((?P<label>[A-Za-z0-9_.:-]+)\)=\s*$")
# A MyST comment: a line that starts with "%" (never rendered by the book;
# plain Markdown would show it as text)
COMMENT_LINE = re.compile(r"^\s*%")
EQ_CLOSE = re.compile(r"^(?P<before>.*)\$\$\s*\((?P<label>[A-Za-z0-9_.:-]+)\)\s*$")
OPTION = re.compile(r"^:(?P<key>[A-Za-z_-]+):\s*(?P<value>.*)$")

PROOF_TYPES = {"prf:theorem", "prf:definition", "prf:algorithm", "prf:proposition",
               "prf:corollary", "prf:lemma", "prf:conjecture", "prf:example",
               "prf:remark", "prf:property", "prf:observation", "prf:axiom",
               "prf:criterion", "prf:assumption", "prf:notation"}
ADMONITIONS = {"note", "tip", "hint", "important", "warning", "caution", "attention",
               "danger", "error", "seealso"}
#: tags of myst-nb and sphinx-book-theme that hide part of a cell in the book
HIDE_TAGS = {"hide-input": ("source_hidden",), "hide-output": ("outputs_hidden",),
             "hide-cell": ("source_hidden", "outputs_hidden"),
             "remove-input": ("source_hidden",)}


# the marks of book/tag_exercises.py (see book/make_exercises.py)
ANSWER_TAG = "exercise-answer"
STARTER_TAG = "exercise-starter"
STUB_TAG = "exercise-stub"


class EditionError(Exception):
    """The build does not allow a faithful learner's edition of a chapter."""


# --- what the build knows -------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Target:
    """Something a reference can point at, as the HTML book shows it."""
    docname: str        # "book/06_soft_margin"
    text: str           # "Fig. 6.3", "(6.9)", "Theorem 6.1", a section title
    top: bool = False   # the label of a chapter's own title: a link opens the notebook
    anchor: str = ""    # its id in the HTML page ("equation-eq-soft-dual"); "" = the label


@dataclasses.dataclass(frozen=True)
class Reference:
    """One bibliography entry, as the book cites and lists it."""
    key: str
    textual: str        # "Platt (1999)"
    parenthetical: str  # "Platt, 1999" (without the brackets)
    entry: str          # the reference list's Markdown entry


class _TextBuilder:
    """The little of a Sphinx builder that sphinxcontrib-bibtex's citation text needs."""
    name = "text"

    def get_relative_uri(self, from_, to, typ=None):
        return ""


def _number(numbers):
    return ".".join(str(n) for n in numbers)


class BookIndex:
    """Numbers, titles and citations of one book build, from its environment."""

    def __init__(self, targets, references, chapters, reference_style=None, html_baseurl=""):
        self.targets = dict(targets)
        self.references = dict(references)
        self.chapters = dict(chapters)     # docname -> chapter number text ("6", or "")
        self.reference_style = reference_style
        # where the HTML book is published (Sphinx's html_baseurl, from
        # _config.yml's html.baseurl); "" when it is not set
        self.html_baseurl = html_baseurl

    # The book's environment, read with Sphinx's own classes ----------------
    @classmethod
    def from_pickle(cls, path):
        path = pathlib.Path(path)
        if not path.is_file():
            raise EditionError(f"no Sphinx environment at {path}: run `make book` first")
        with open(path, "rb") as handle:
            env = pickle.load(handle)     # a sphinx.environment.BuildEnvironment
        return cls.from_environment(env)

    @classmethod
    def from_environment(cls, env):
        config = env.config
        figure_format = config.numfig_format.get("figure", "Fig. %s")
        eq_format = config.math_eqref_format or "({number})"
        targets = {}
        labels = env.domaindata["std"]["labels"]
        titles = {docname: node.astext() for docname, node in env.titles.items()}
        for label, (docname, anchor, title) in labels.items():
            if title:
                targets[label] = Target(docname, str(title),
                                        top=str(title) == titles.get(docname), anchor=anchor)
        proofs = getattr(env, "proof_list", {})
        exercises = getattr(env, "sphinx_exercise_registry", {})
        for docname, kinds in env.toc_fignumbers.items():
            for kind, numbers in kinds.items():
                for node_id, number in numbers.items():
                    text = _number(number)
                    if kind == "figure":
                        targets[node_id] = Target(docname, figure_format % text, anchor=node_id)
                    elif kind == "displaymath":
                        label = node_id[len("equation-"):] if node_id.startswith("equation-") \
                            else node_id
                        targets[label] = Target(docname, eq_format.format(number=text),
                                                anchor=node_id)
                    elif kind == "exercise":
                        targets[node_id] = Target(docname, f"Exercise {text}", anchor=node_id)
                    elif node_id in proofs:
                        realtype = proofs[node_id].get("realtype", kind)
                        targets[node_id] = Target(docname, f"{realtype.title()} {text}",
                                                  anchor=node_id)
        for label, data in exercises.items():
            if data.get("type") == "exercise" and label not in targets:
                raise EditionError(f"exercise {label} has no number in the build")
        chapters = {}
        for docname, numbers in env.toc_secnumbers.items():
            top = numbers.get("")
            chapters[docname] = _number(top) if top else ""
        style = cls._reference_style(config)
        references = cls._references(env, style)
        return cls(targets, references, chapters, style,
                   html_baseurl=getattr(config, "html_baseurl", "") or "")

    def html_root(self, fallback):
        """The prefix of links to the HTML book: its published address when
        _config.yml names one (html.baseurl), else ``fallback``, the HTML
        output's path relative to the edition's folder ("../html/")."""
        if self.html_baseurl:
            return self.html_baseurl.rstrip("/") + "/"
        return fallback

    @staticmethod
    def _reference_style(config):
        """The book's referencing style (author_year), with round brackets."""
        from sphinxcontrib.bibtex.plugin import find_plugin
        from sphinxcontrib.bibtex.style.referencing import BracketStyle
        style_class = find_plugin("sphinxcontrib.bibtex.style.referencing",
                                  config.bibtex_reference_style)
        round_ = BracketStyle(left="(", right=")")
        fields = {f.name for f in dataclasses.fields(style_class)}
        options = {name: round_ for name in ("bracket_parenthetical", "bracket_textual")
                   if name in fields}
        return style_class(**options)

    @classmethod
    def _references(cls, env, style):
        import pybtex.plugin
        markdown = pybtex.plugin.find_plugin("pybtex.backends", "markdown")()
        references = {}
        for citation in env.domaindata["cite"]["citations"]:
            if citation.key in references:
                continue
            textual = cls._cite_text(style, "t", [citation])
            parenthetical = cls._cite_text(style, "p", [citation])
            entry = citation.formatted_entry.text.render(markdown)
            references[citation.key] = Reference(
                citation.key, textual, parenthetical.strip("()"), entry)
        return references

    @staticmethod
    def _cite_text(style, role, citations):
        """A citation's text by sphinxcontrib-bibtex's own style and templates."""
        import pybtex_docutils
        from sphinxcontrib.bibtex.style.referencing import format_references
        from sphinxcontrib.bibtex.style.template import SphinxReferenceInfo
        references = [(c.entry, c.formatted_entry,
                       SphinxReferenceInfo(builder=_TextBuilder(), fromdocname="",
                                           todocname="", citation_id=c.citation_id,
                                           title=None, pre_text="", post_text=""))
                      for c in citations]
        text = format_references(style, role, references)
        nodes = text.render(pybtex_docutils.Backend())
        return "".join(node.astext() for node in nodes)


# --- one notebook's conversion ----------------------------------------------

def _anchor(label):
    return f'<a id="{label}" name="{label}"></a>'


def _quote(body_lines, title_line):
    """A Markdown block quote (``> `` lines), which every front end renders and
    whose Markdown inside jupyterlab-myst parses too (an HTML ``<blockquote>``
    it passes through with the math inside left as TeX).  Display math inside
    is one line (``ChapterConverter.math``): JupyterLab and nbconvert take the
    math out of the text before they parse the Markdown, so a ``> `` inside a
    formula would be part of it."""
    lines = [title_line, "", *body_lines]
    while lines and not lines[-1].strip():
        lines.pop()
    out = []
    for line in lines:
        quoted = f"> {line}" if line.strip() else ">"
        if not (quoted == ">" and out and out[-1] == ">"):     # one blank line at most
            out.append(quoted)
    return out


def _details(summary, body_lines):
    return ["<details>", f"<summary><b>{summary}</b></summary>", "", *body_lines, "",
            "</details>"]


def _closes(line, fence):
    stripped = line.strip()
    return len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def _split_options(lines):
    """``:key: value`` lines at the top of a directive's body, and the rest."""
    options, i = {}, 0
    while i < len(lines):
        match = OPTION.match(lines[i].strip())
        if not match:
            break
        options[match.group("key")] = match.group("value").strip()
        i += 1
    return options, lines[i:]


class ChapterConverter:
    """Turns the MyST of one chapter into Markdown that any front end renders."""

    def __init__(self, index, docname, glue=None, notebook_names=None, html_root=None):
        self.index = index
        self.docname = docname
        self.chapter = docname.rsplit("/", 1)[-1]
        self.glue = glue or {}
        # docname -> file name of the sibling notebook in the edition
        self.notebook_names = notebook_names or {}
        # the prefix of links to the HTML book ("../html/", or its published
        # address); None: no links to it
        self.html_root = html_root
        self.cited = []            # bibliography keys, in order of first citation
        self.gate = None           # label of the open {solution-start}
        self.gate_cells = 0        # markdown cells of the open gate so far
        self.exercise_titles = {}  # label -> its title, for its solution's summary

    # -- roles ---------------------------------------------------------------
    def _target(self, label):
        target = self.index.targets.get(label)
        if target is None:
            raise EditionError(f"{self.chapter}: the build knows no label {label!r} "
                               f"(rebuild the book with `make book`)")
        return target

    def _href(self, label, target):
        if target.docname == self.docname:
            return f"#{label}"
        name = self.notebook_names.get(target.docname)
        if not name:
            return None
        return name if target.top else f"{name}#{label}"

    def html_href(self, label, target):
        """The same place in the HTML book: the chapter's page, at the label's id."""
        if self.html_root is None:
            return None
        page = f"{self.html_root}{target.docname}.html"
        return page if target.top else f"{page}#{target.anchor or label}"

    def _link(self, text, label, target):
        """The reference's text as a link to the notebook that has it, and a
        small "↗" after it to the same place in the HTML book.  A target that
        no notebook of the edition has (the notation page, the landing page)
        links to the HTML book only."""
        href, html = self._href(label, target), self.html_href(label, target)
        if href and html:
            return f'[{text}]({href})<sup>[↗]({html} "{HTML_LINK_TITLE}")</sup>'
        if href or html:
            return f"[{text}]({href or html})"
        return text

    @staticmethod
    def _explicit(content):
        """``title <label>`` -> (title, label); ``label`` -> (None, label)."""
        match = re.match(r"^(?P<title>.*?)\s*<(?P<label>[^<>]+)>$", content.strip(), re.S)
        if match:
            return match.group("title"), match.group("label").strip()
        return None, content.strip()

    def role(self, role, content):
        """The Markdown for one ``{role}`content```."""
        if role in ("numref", "eq", "prf:ref", "ref"):
            title, label = self._explicit(content)
            target = self._target(label)
            if title is None:
                text = target.text
            elif role == "numref":
                number = re.sub(r"^\D*", "", target.text)
                text = title.replace("%s", number).replace("{number}", number)
            else:
                text = title
            return self._link(self.roles(text), label, target)
        if role in ("cite", "cite:p", "cite:t", "cite:ps", "cite:ts"):
            keys = [key.strip() for key in content.split(",") if key.strip()]
            refs = []
            for key in keys:
                reference = self.index.references.get(key)
                if reference is None:
                    raise EditionError(f"{self.chapter}: no bibliography entry {key!r}")
                if key not in self.cited:
                    self.cited.append(key)
                refs.append(reference)
            if role.startswith("cite:t"):
                return ", ".join(f"[{r.textual}](#ref-{r.key})" for r in refs)
            return "(" + "; ".join(f"[{r.parenthetical}](#ref-{r.key})" for r in refs) + ")"
        if role.startswith("glue"):
            return self._glue(role, content)
        if role in ("class", "func", "meth", "mod", "attr", "obj", "data", "py:class",
                    "py:func", "code", "samp", "file", "kbd"):
            return f"`{content.strip()}`"
        if role in ("math",):
            return f"${content}$"
        raise EditionError(f"{self.chapter}: no rendering for the role {{{role}}}")

    def _glue(self, role, content):
        from myst_nb.core.variables import format_plain_text
        key, fmt = content.strip(), ""
        if role == "glue:text" and ":" in key:
            key, fmt = key.rsplit(":", 1)
        if "::" in key:
            raise EditionError(f"{self.chapter}: glue from another page ({content}) "
                               f"is not supported")
        output = self.glue.get(key)
        if output is None:
            raise EditionError(f"{self.chapter}: the build's run glued no value {key!r}")
        data = output.get("data", {})
        if role == "glue:md" and "text/markdown" in data:
            return data["text/markdown"]
        if "text/plain" not in data:
            raise EditionError(f"{self.chapter}: the glued value {key!r} has no text")
        return format_plain_text(data["text/plain"], fmt)

    def roles(self, text):
        """``text`` with every role replaced, outside code spans."""
        def replace(match):
            if match.group("code") is not None:
                return match.group("code")
            return self.role(match.group("role"), match.group("content"))
        return ROLE_OR_CODE.sub(replace, text)

    # -- blocks --------------------------------------------------------------
    def blocks(self, lines):
        """Convert a list of lines (no gate handling), recursively through directives."""
        out, paragraph, i = [], [], 0

        def flush():
            # roles are replaced per run of text lines: a role's text may wrap
            if paragraph:
                out.extend(self.roles("\n".join(paragraph)).split("\n"))
                paragraph.clear()

        while i < len(lines):
            line = lines[i]
            plain = PLAIN_FENCE.match(line)
            if plain or FENCE.match(line) or LABEL_LINE.match(line) or \
                    line.strip().startswith("$$"):
                flush()
            if plain and not FENCE.match(line):      # a code block: copied as it is
                j = i + 1
                while j < len(lines) and not _closes(lines[j], plain.group("fence")):
                    j += 1
                out.extend(lines[i:j + 1])
                i = j + 1
                continue
            match = FENCE.match(line)
            if match:
                end = self._block_end(lines, i, match.group("fence"))
                out.extend(self.directive(match.group("name"), match.group("arg").strip(),
                                          lines[i + 1:end]))
                i = end + 1
                continue
            if COMMENT_LINE.match(line):             # a MyST comment: not shown
                flush()
                i += 1
                continue
            label = LABEL_LINE.match(line)
            if label:
                out.extend([_anchor(label.group("label")), ""])
                i += 1
                continue
            if line.strip().startswith("$$"):
                j = self._math_end(lines, i)
                out.extend(self.math(lines[i:j + 1]))
                i = j + 1
                continue
            paragraph.append(line)
            i += 1
        flush()
        return out

    def _block_end(self, lines, start, fence):
        for j in range(start + 1, len(lines)):
            if _closes(lines[j], fence):
                return j
        raise EditionError(f"{self.chapter}: the directive {lines[start]!r} is never closed")

    def _math_end(self, lines, start):
        first = lines[start].strip()
        if first.count("$$") >= 2 and first != "$$":
            return start
        for j in range(start + 1, len(lines)):
            if "$$" in lines[j]:
                return j
        raise EditionError(f"{self.chapter}: display math opened by {lines[start]!r} "
                           f"is never closed")

    def math(self, lines):
        """Display math as one line ``\\begin{equation*} ... \\end{equation*}``,
        with ``\\tag{6.9}`` and an anchor for a labelled equation.

        ``equation*``, not ``$$``: jupyterlab-myst numbers every ``$$`` block
        of a notebook by itself, "(2)" beside the book's "(6.2)", and numbers
        no starred environment; stock JupyterLab, nbconvert (MathJax) and
        VS Code typeset both alike.  One line, so that it can stand in a
        block quote (see ``_quote``); TeX reads a line break as a space, and
        ``%`` comments are dropped."""
        match = EQ_CLOSE.match(lines[-1])
        label = match.group("label") if match else None
        last = match.group("before") + "$$" if match else lines[-1]
        text = "\n".join([*lines[:-1], last]) if len(lines) > 1 else last
        text = text.strip()
        if not (text.startswith("$$") and text.endswith("$$") and len(text) >= 4):
            raise EditionError(f"{self.chapter}: display math not between $$ and $$: "
                               f"{text[:80]!r}")
        body = " ".join(re.sub(r"(?<!\\)%.*$", "", line).strip()
                        for line in text[2:-2].split("\n"))
        body = " ".join(body.split())
        if label is None:
            return [f"\\begin{{equation*}} {body} \\end{{equation*}}"]
        target = self._target(label)
        tag = target.text[1:-1] if target.text.startswith("(") else target.text
        return [_anchor(label), "",
                f"\\begin{{equation*}} {body} \\tag{{{tag}}} \\end{{equation*}}"]

    def directive(self, name, arg, body):
        options, body = _split_options(body)
        label = options.get("label")
        inner = self.blocks(body)
        title = self.roles(arg) if arg else ""
        anchor = [_anchor(label), ""] if label else []
        if name in PROOF_TYPES:
            kind = name.split(":", 1)[1].title()
            number = self._numbered(label, name) if "nonumber" not in options else kind
            head = f"**{number}" + (f" ({title})" if title else "") + ".**"
            return anchor + _quote(inner, head)
        if name == "prf:proof":
            return _quote(inner + ["", "∎"], "*Proof.*")
        if name in ("exercise", "exercise-start") and label:
            self.exercise_titles[label] = title
        if name == "exercise":
            number = self._numbered(label, name)
            return anchor + _quote(inner, f"**{number}" + (f" ({title})" if title else "")
                                   + ".**")
        if name == "exercise-start":
            number = self._numbered(label, name)
            return anchor + [f"**{number}" + (f" ({title})" if title else "") + ".**", ""]
        if name == "exercise-end":
            return []
        if name == "solution":
            return _details(self._solution_title(arg), inner)
        if name in ("solution-start", "solution-end"):
            raise EditionError(f"{self.chapter}: {{{name}}} nested in another directive")
        if name == "margin":
            return _quote(inner, "**Margin note" + (f": {title}" if title else "") + ".**")
        if name in ("admonition", *ADMONITIONS):
            heading = title or name.title()
            if "dropdown" in options.get("class", "").split():
                return _details(heading, inner)
            return _quote(inner, f"**{heading}**")
        raise EditionError(f"{self.chapter}: no rendering for the directive {{{name}}}")

    def _numbered(self, label, name):
        if not label:
            raise EditionError(f"{self.chapter}: a {{{name}}} without :label: (its number "
                               f"cannot be read from the build)")
        return self._target(label).text

    def _solution_title(self, label, continued=False):
        target = self._target(label.strip())
        title = self.exercise_titles.get(label.strip())
        # a <summary> is HTML: jupyterlab-myst typesets no math in it, so a
        # title with math is left out (the exercise's number names it)
        if title and "$" in title:
            title = None
        text = f"Solution to {target.text}" + (f" ({title})" if title else "")
        return text + (", continued" if continued else "")

    # -- cells ---------------------------------------------------------------
    def markdown(self, text):
        """A markdown cell's text, converted; solutions gated across cells in ``<details>``."""
        lines = text.splitlines()
        out, gated, i = [], [], 0
        while i < len(lines):
            match = FENCE.match(lines[i])
            name = match.group("name") if match else None
            if name == "solution-start":
                if self.gate is not None:
                    raise EditionError(f"{self.chapter}: {{solution-start}} inside the open "
                                       f"solution of {self.gate}")
                end = self._block_end(lines, i, match.group("fence"))
                self.gate, self.gate_cells = match.group("arg").strip(), 0
                i = end + 1
                continue
            if name == "solution-end":
                if self.gate is None:
                    raise EditionError(f"{self.chapter}: {{solution-end}} with no open "
                                       f"{{solution-start}}")
                end = self._block_end(lines, i, match.group("fence"))
                out.extend(self._flush(gated))
                gated = []
                self.gate = None
                i = end + 1
                continue
            # one block at a time, so that a directive is never split
            j = i + 1
            if match:
                j = self._block_end(lines, i, match.group("fence")) + 1
            elif lines[i].strip().startswith("$$"):
                j = self._math_end(lines, i) + 1
            elif PLAIN_FENCE.match(lines[i]):
                j = i + 1
                while j < len(lines) and not _closes(lines[j], PLAIN_FENCE.match(lines[i])
                                                     .group("fence")):
                    j += 1
                j += 1
            else:                  # a run of text lines: a role's text may wrap
                while j < len(lines) and not (FENCE.match(lines[j]) or PLAIN_FENCE.match(lines[j])
                                              or lines[j].strip().startswith("$$")):
                    j += 1
            converted = self.blocks(lines[i:j])
            (gated if self.gate is not None else out).extend(converted)
            i = j
        out.extend(self._flush(gated))
        return _tidy("\n".join(out))

    def _flush(self, gated):
        if not any(line.strip() for line in gated):
            return []
        title = self._solution_title(self.gate, continued=self.gate_cells > 0)
        self.gate_cells += 1
        return _details(title, gated)

    def solution_code(self, cell):
        """A code cell of a solution as a collapsed block: its code and its output.

        Not a runnable cell: a collapsed code cell still shows its first line in
        JupyterLab and its whole source in ``jupyter nbconvert --to html`` and in
        front ends that ignore ``metadata.jupyter``.  So the code goes inside
        ``<details>``, and the exercise's cell to run is its stub (as in the
        exercise edition) or the chapter's own starter cell."""
        target = self._target(self.gate)
        self.gate_cells += 1
        body = ["To run it, paste it into a code cell.", "", *_code_block(cell.source,
                                                                                 "python")]
        text = _output_text(cell)
        if text:
            body += ["", "Its output in the book's build:", "", *_code_block(text, "text")]
        # not _tidy: the code keeps its blank lines
        return "\n".join(_details(f"Solution to {target.text}: code", body)).strip("\n")

    def caption(self, cell):
        """The caption cell of a figure (myst-nb's ``metadata.mystnb.figure``)."""
        figure = cell.metadata.get("mystnb", {}).get("figure")
        if not figure:
            return None
        label, caption = figure.get("name"), figure.get("caption", "")
        if not label:
            raise EditionError(f"{self.chapter}: a figure without a name has no number")
        target = self._target(label)
        text = " ".join(self.roles(caption).split())
        return _tidy(f"{_anchor(label)}\n\n**{target.text}.** {text}")


def _code_block(text, language):
    """A fenced code block that no backtick run in ``text`` can close."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{language}", *text.rstrip("\n").split("\n"), fence]


def _output_text(cell):
    """The text of a code cell's outputs (streams, plain-text results, errors)."""
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append(output.get("text", ""))
        elif output.get("output_type") in ("execute_result", "display_data"):
            data = output.get("data", {})
            if "text/plain" in data and not any(k.startswith("image/") for k in data):
                parts.append(data["text/plain"] + "\n")
    return "".join(parts).strip("\n")


def _tidy(text):
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n")


def _cell_id(*parts):
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:16]


def _markdown_cell(source, *id_parts):
    cell = nbformat.v4.new_markdown_cell(source)
    cell.id = _cell_id(*id_parts)
    return cell


def _title(notebook):
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return ""


def svmlib_version():
    """The version of the svmlib that ran the build (this interpreter's)."""
    from importlib import metadata
    from packaging.version import Version
    return str(Version(metadata.version("svmlib")))


def wheel_name(version):
    """svmlib's wheel as the book ships it (pure Python: py3-none-any)."""
    return f"svmlib-{version}-py3-none-any.whl"


#: what a chapter imports besides svmlib (the playground also needs anywidget)
NEEDS = ("matplotlib", "ipywidgets")

#: a code cell that imports myst-nb (its ``glue``), which svmlib's extras do not bring
_IMPORTS_MYST_NB = re.compile(r"^\s*(?:from|import)\s+myst_nb\b", re.M)


def uses_myst_nb(notebook):
    """Whether a code cell of ``notebook`` imports myst-nb (chapters that glue numbers)."""
    return any(cell.cell_type == "code" and _IMPORTS_MYST_NB.search(cell.source)
               for cell in notebook.cells)


def header_cells(stem, title, chapter_number, docname=None, html_root=None, version=None,
                 edition="learner", glue=False):
    """The first cells: what this edition is, how to get svmlib, and a check.

    ``edition`` is ``"learner"`` (this module's edition: solutions collapsed) or
    ``"exercises"`` (book/make_exercises.py: solutions removed, stubs to fill in).
    ``glue``: the notebook imports myst-nb (``uses_myst_nb``), so the install
    commands add it and the check cell checks it too.

    ``html_root`` is where the HTML book is (see ``BookIndex.html_root``): the
    text links this chapter's page, the landing page and svmlib's wheel there
    (``downloads/svmlib-<version>-py3-none-any.whl``, next to the landing page).
    """
    version = version or svmlib_version()
    wheel = wheel_name(version)
    where = f"Chapter {chapter_number}, *{title}*" if chapter_number else f"*{title}*"
    needs = NEEDS + (("anywidget",) if stem == "playground" else ()) \
        + (("myst_nb",) if glue else ())
    more = " myst-nb" if glue else ""
    if html_root is not None:
        page = f"[in the HTML book]({html_root}{docname or 'book/' + stem}.html)"
        landing = f"[the book's landing page]({html_root}index.html)"
        wheel_link = f"[`{wheel}`]({html_root}{WHEEL_DIR}/{wheel})"
    else:
        page, landing, wheel_link = "in the HTML book", "the book's landing page", f"`{wheel}`"
    if edition == "learner":
        head = "learner's edition"
        what = (f"This notebook is the chapter as it reads {page}, generated from the book's "
                f"build: ")
        solutions = "every solution is collapsed (click **Solution to …** to open it)"
    elif edition == "exercises":
        head = "Exercise edition (solutions removed)"
        what = (f"This notebook is the chapter {page} without its solutions: each code "
                f"exercise starts from a cell with `...` placeholders for you to fill in, and "
                f"its checker says \"Not yet\" with a hint until your answer is right. It is "
                f"generated from the book's build: ")
        solutions = ("no solution is in it (the HTML book and the learner's edition have "
                     "them)")
    else:
        raise ValueError(f"edition={edition!r}: expected 'learner' or 'exercises'")
    text = (
        f"**Support Vector Machines, Interactively** · {where} · {head}\n\n"
        f"{what}"
        f"references, figure captions, theorems and exercises are numbered as in the HTML "
        f"book (each reference links to its place in this folder's notebooks, and its "
        f"\u2197 to the HTML book), glued numbers are those of the run that built it, and "
        f"{solutions}. It reads in any "
        f"Jupyter front end with no extension. Links to other chapters open the sibling "
        f"notebooks of this edition: keep them in one folder.\n\n"
        f"**To run it you need `svmlib` {version}**, the book's library, in the Python "
        f"environment of this notebook's kernel. Either download {wheel_link} from "
        f"{landing} and install it with the packages the figures use"
        + (" (and myst-nb, whose `glue` records the numbers the text quotes)" if glue else "")
        + f":\n\n"
        f"```bash\npip install \"./{wheel}[book,playground]\"{more}   # where you saved it\n"
        f"```\n\n"
        f"or, from a copy of the book's repository, run in its root:\n\n"
        f"```bash\npip install -e \".[book,playground]\"{more}\n```\n\n"
        f"(In a notebook cell, write `%pip install ...` to install into the kernel's own "
        f"environment.) Then restart the kernel and run the cell below: it says whether "
        f"`svmlib` can be imported.")
    check = (
        "# Can this kernel import svmlib? (the cell above says how to install it)\n"
        "import importlib\n"
        f"BOOK_SVMLIB = {version!r}   # the version that built this edition\n"
        "missing = []\n"
        f"for name in {('svmlib',) + needs!r}:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError:\n"
        "        missing.append(name)\n"
        "if missing:\n"
        "    raise ModuleNotFoundError(\n"
        "        \"This notebook needs svmlib, the book's library, and the packages its \"\n"
        "        f\"figures use; this kernel cannot import {', '.join(missing)}. Download \"\n"
        f"        \"{wheel} from the book's landing page and run \"\n"
        f"        \"`%pip install \\\"./{wheel}[book,playground]\\\"{more}` in a cell, or \"\n"
        f"        \"`pip install -e \\\".[book,playground]\\\"{more}` in the root of a copy of \"\n"
        "        \"the book's repository; then restart the kernel.\") from None\n"
        "import svmlib\n"
        "if svmlib.__version__ != BOOK_SVMLIB:\n"
        "    print(f\"Note: this edition was built with svmlib {BOOK_SVMLIB} and this kernel \"\n"
        "          f\"has {svmlib.__version__}: some outputs may differ from those shown.\")\n"
        "print(f\"svmlib {svmlib.__version__} is ready\")")
    intro = _markdown_cell(text, stem, "edition-header")
    code = nbformat.v4.new_code_cell(check)
    code.id = _cell_id(stem, "edition-check")
    code.metadata["tags"] = ["edition-check"]
    return [intro, code]


def learner_edition(notebook, index, docname, glue=None, notebook_names=None, html_root=None,
                    version=None):
    """The learner's edition of one executed chapter (a new notebook).

    ``html_root``: the prefix of links to the HTML book (None: no such links)."""
    converter = ChapterConverter(index, docname, glue, notebook_names, html_root)
    stem = converter.chapter
    out = nbformat.v4.new_notebook(metadata=copy.deepcopy(notebook.metadata))
    out.metadata["svmlib_edition"] = {"kind": "learner", "source": f"{docname}.ipynb"}
    out.cells.extend(header_cells(stem, _title(notebook), index.chapters.get(docname, ""),
                                  docname, html_root, version, glue=uses_myst_nb(notebook)))
    starters = {cell.metadata["exercise"]["label"] for cell in notebook.cells
                if STARTER_TAG in cell.metadata.get("tags", [])}
    for position, cell in enumerate(notebook.cells):
        cell_id = cell.get("id") or _cell_id(stem, str(position))
        if cell.cell_type == "markdown":
            text = converter.markdown(cell.source)
            if text.strip():
                new = nbformat.v4.new_markdown_cell(text)
                new.id = cell_id
                out.cells.append(new)
            continue
        if cell.cell_type != "code":
            if converter.gate is None:
                out.cells.append(copy.deepcopy(cell))
            continue
        tags = set(cell.metadata.get("tags", []))
        if "remove-cell" in tags:
            continue
        new = copy.deepcopy(cell)
        new.id = cell_id
        new.metadata.pop("mystnb", None)        # its caption follows as a cell
        new.metadata.pop("execution", None)     # the run's timestamps
        jupyter = new.metadata.setdefault("jupyter", {})
        for tag, flags in HIDE_TAGS.items():
            if tag in tags:
                for flag in flags:
                    jupyter[flag] = True
        if "remove-output" in tags:
            new.outputs = []
        if converter.gate is not None:
            # solution code: read behind a click, never run (see solution_code)
            note = _markdown_cell(converter.solution_code(cell), stem, cell_id)
            stub = cell.metadata.get("exercise", {}).get("stub")
            label = cell.metadata.get("exercise", {}).get("label")
            if ANSWER_TAG in tags and label not in starters:
                if not stub:
                    raise EditionError(f"{stem}: the answer cell of {label} has no stub and "
                                       f"the exercise has no starter cell")
                attempt = nbformat.v4.new_code_cell(stub.rstrip("\n"))
                attempt.id = _cell_id(stem, cell_id, "stub")
                attempt.metadata["tags"] = [STUB_TAG]
                attempt.metadata["exercise"] = {"label": label}
                out.cells.append(attempt)     # the cell to try, then its solution
            out.cells.append(note)
            continue
        if not jupyter:
            new.metadata.pop("jupyter")
        out.cells.append(new)
        caption = converter.caption(cell)
        if caption:
            out.cells.append(_markdown_cell(caption, stem, cell_id, "caption"))
    if converter.gate is not None:
        raise EditionError(f"{stem}: the solution of {converter.gate} is never closed")
    references = reference_cell(converter, index, stem)
    if references is not None:
        out.cells.append(references)
    return out


def reference_cell(converter, index, stem):
    """The chapter's reference list (what ``converter`` cited), or None."""
    if not converter.cited:
        return None
    order = list(index.references)      # the book's bibliography order
    entries = sorted((index.references[key] for key in converter.cited),
                     key=lambda r: order.index(r.key))
    lines = ["## References of this chapter", ""]
    for reference in entries:
        entry = " ".join(reference.entry.split())
        lines.append(f"- {_anchor('ref-' + reference.key)}{entry}")
    return _markdown_cell("\n".join(lines), stem, "edition-references")


# --- the whole edition ----------------------------------------------------------

def chapters(executed_dir):
    """The executed chapters and the playground that the build rendered."""
    executed_dir = pathlib.Path(executed_dir)
    found = sorted(executed_dir.glob("[0-9][0-9]_*.ipynb"))
    playground = executed_dir / "playground.ipynb"
    if playground.is_file():
        found.append(playground)
    return found


def read_glue(executed):
    """myst-nb's record of a chapter's glued values (``NN_name.glue.json``)."""
    path = pathlib.Path(executed).with_suffix(".glue.json")
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def html_root_from(index, out_dir, executed_dir, html_dir=None):
    """The prefix of an edition's links to the HTML book: the published book
    (_config.yml's html.baseurl), else the path from ``out_dir`` to ``html_dir``
    (default: the ``html/`` of ``executed_dir``'s build)."""
    if html_dir is None:
        html_dir = pathlib.Path(executed_dir).parents[1] / "html"    # BUILD/jupyter_execute/book
    relative = os.path.relpath(pathlib.Path(html_dir).resolve(), pathlib.Path(out_dir).resolve())
    return index.html_root(pathlib.PurePath(relative).as_posix().rstrip("/") + "/")


def build(index, executed_dir, out_dir, stems=None, html_dir=None):
    """Write the edition of every executed chapter (or of ``stems``) into ``out_dir``.

    Its links to the HTML book go to the published book when _config.yml's
    html.baseurl names it, else to ``html_dir`` (the HTML output, default
    ``executed_dir``'s build's ``html/``) by a path relative to ``out_dir``:
    ``_build/notebooks`` links ``../html/book/06_soft_margin.html#...``, the
    copy in the HTML book ``_build/html/_notebooks`` links ``../book/...``."""
    paths = chapters(executed_dir)
    if not paths:
        raise EditionError(f"no executed chapters in {executed_dir}: run `make book` first")
    names = {f"book/{path.stem}": path.name for path in paths}
    if stems:
        unknown = set(stems) - {path.stem for path in paths}
        if unknown:
            raise EditionError(f"not chapters of the build: {sorted(unknown)}")
        paths = [path for path in paths if path.stem in stems]
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    html_root = html_root_from(index, out_dir, executed_dir, html_dir)
    version = svmlib_version()
    written = []
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        edition = learner_edition(notebook, index, f"book/{path.stem}", read_glue(path), names,
                                  html_root, version)
        nbformat.validate(edition)
        target = out_dir / path.name
        nbformat.write(edition, target)
        written.append(target)
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*",
                        help="chapter names (01_hyperplanes ...; default: all and the playground)")
    parser.add_argument("--build", type=pathlib.Path, default=DEFAULT_BUILD,
                        help="the book build's directory (default: _build)")
    parser.add_argument("--out", type=pathlib.Path, default=None,
                        help="output directory (default: BUILD/notebooks)")
    parser.add_argument("--html", action="store_true",
                        help="also write the edition into BUILD/html/_notebooks (the HTML "
                             "book's download menu links it)")
    args = parser.parse_args(argv)
    out = args.out or args.build / "notebooks"
    stems = [pathlib.Path(name).stem for name in args.chapters]
    html = args.build / "html"
    executed = args.build / "jupyter_execute" / "book"
    try:
        index = BookIndex.from_pickle(args.build / ".doctrees" / "environment.pickle")
        written = build(index, executed, out, stems, html_dir=html)
        print(f"wrote {len(written)} notebook(s) of the learner's edition into {out}")
        if args.html and html.is_dir():
            # written again, not copied: its links to the HTML book are relative
            # to where it is
            build(index, executed, html / HTML_DIR, stems, html_dir=html)
            print(f"and into {html / HTML_DIR}")
    except EditionError as error:
        sys.exit(f"make_notebooks: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


# --- Sphinx extension: the edition in the HTML book's download menu ------------
# _config.yml loads this module as a local extension.  When the HTML build
# ends, the edition is written from the build's environment in memory (the
# same one that is pickled) into _notebooks/ of the HTML output, and each
# chapter's download menu links it, after the exercise edition.

def _add_download_entry(app, pagename, templatename, context, doctree):
    stem = pagename.rsplit("/", 1)[-1]
    if not (pagename.startswith("book/") and
            (re.match(r"^[0-9][0-9]_", stem) or stem == "playground")):
        return
    for group in context.get("header_buttons", []):
        if group.get("label") != "download-buttons":
            continue
        entry = {
            "type": "link",
            "url": f"{context['pathto'](HTML_DIR, 1)}/{stem}.ipynb",
            "text": ".ipynb (any Jupyter)",
            "icon": "fas fa-book-open",
            "tooltip": "Download the learner's edition: reads in any Jupyter, no extension",
            "label": "download-learner-button",
        }
        buttons = group["buttons"]
        labels = [b.get("label") for b in buttons]
        for after in ("download-exercises-button", "download-notebook-button",
                      "download-source-button"):
            if after in labels:
                buttons.insert(labels.index(after) + 1, entry)
                return
        buttons.append(entry)
        return


def _write_edition(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    outdir = pathlib.Path(app.outdir)
    executed = outdir.parent / "jupyter_execute" / "book"
    build(BookIndex.from_environment(app.env), executed, outdir / HTML_DIR, html_dir=outdir)


def setup(app):
    # after make_exercises' entry (priority 502)
    app.connect("html-page-context", _add_download_entry, priority=503)
    app.connect("build-finished", _write_edition)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
