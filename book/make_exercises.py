"""Build the exercise edition: each chapter without its solutions.

    .venv/bin/python book/make_exercises.py [--out DIR] [--answers] [CHAPTER.ipynb ...]

writes one notebook per chapter (default: every ``book/NN_*.ipynb``, into
``_build/exercises/``) in which

* every solution is removed: the ``{solution}`` blocks of the markdown cells,
  and everything between a ``{solution-start}`` and its ``{solution-end}``
  (markdown lines and whole code cells alike).  Both are explicit MyST markup,
  found by their directive names.  So is a directive right after a MyST
  comment line ``% answers ...`` (the answers to questions of the text that
  are not exercises);
* every code exercise's stored working answer, a cell tagged
  ``exercise-answer`` by ``book/tag_exercises.py``, is replaced by the stub in
  its ``metadata["exercise"]["stub"]``: what to write, as ``...``
  placeholders, and the checker call.  Where the chapter has its own starter
  cell (tag ``exercise-starter``) the starter stays and the answer goes;
* every output is cleared, and a first cell says what this edition is.

Then, from the book build (``--build``, default ``_build``: the Sphinx
environment and the glued values of ``make book``), the edition is written as
the learner's edition is (``book/make_notebooks.py``): every role, directive,
label and glued value resolved to Markdown that stock JupyterLab, Notebook 7,
VS Code, Colab and ``jupyter nbconvert`` display, numbered as in the HTML book,
each figure's caption under its cell, and first the cells that say how to get
svmlib and check that it imports.  ``--myst`` writes the edition without a
build, in the chapters' MyST, which only jupyterlab-myst renders (``make
lab-source``).

Running a stub untouched gives the checker's "Not yet" feedback; that is
checked, with the reverse (the stored answers put back pass every checker),
by ``tests/test_exercise_edition.py``.  ``--answers`` builds that reverse
edition: the stub and starter cells hold the chapter's stored answers.

Nothing here guesses: a tagged answer outside a solution, a stub that is
missing, or a ``{solution-start}`` without its ``{solution-end}`` stops the
build with a message naming the chapter and the exercise.
"""

import argparse
import copy
import pathlib
import re
import sys

import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
DEFAULT_OUT = ROOT / "_build" / "exercises"

ANSWER_TAG = "exercise-answer"
STARTER_TAG = "exercise-starter"
STUB_TAG = "exercise-stub"

# A directive fence: ```{name} argument  or  :::{name} argument
_FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[A-Za-z0-9_:-]+)\}(?P<arg>.*)$")


# A MyST comment line "% answers ..." right before a directive (in the chapters:
# the "Answers, for checking" dropdowns of questions that are not exercises)
# marks that block as answers: the editions without solutions leave it out.
_ANSWERS_MARK = re.compile(r"^%\s*answers\b")


class EditionError(Exception):
    """The chapter's markup or marks do not allow a faithful exercise edition."""


def _closes(line, fence):
    """Whether ``line`` closes a block opened with ``fence``."""
    stripped = line.strip()
    return (len(stripped) >= len(fence) and set(stripped) == {fence[0]})


class _Filter:
    """Walks the cells of one chapter and drops the solutions."""

    def __init__(self, chapter):
        self.chapter = chapter
        self.gated = None          # label of the open {solution-start}, if any
        self.waiting_end = None    # fence of an open {solution-end} directive
        self.labels_removed = []

    def markdown(self, text):
        """The lines of ``text`` that are not part of a solution."""
        kept = []
        lines = text.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            match = _FENCE.match(line)
            name = match.group("name") if match else None
            if self.gated is not None:
                # Inside a gated solution: drop everything up to and
                # including the {solution-end} directive.
                if name == "solution-end":
                    i = self._skip_block(lines, i, match.group("fence"))
                    self.gated = None
                    continue
                if name == "solution-start":
                    raise EditionError(f"{self.chapter}: {{solution-start}} inside the open "
                                       f"solution of {self.gated}")
                i += 1
                continue
            if _ANSWERS_MARK.match(line) and i + 1 < len(lines) and _FENCE.match(lines[i + 1]):
                # "% answers": the block below answers questions of the text
                i = self._skip_block(lines, i + 1, _FENCE.match(lines[i + 1]).group("fence"))
                continue
            if name == "solution":
                self.labels_removed.append(match.group("arg").strip())
                i = self._skip_block(lines, i, match.group("fence"))
                continue
            if name == "solution-start":
                self.gated = match.group("arg").strip()
                self.labels_removed.append(self.gated)
                i = self._skip_block(lines, i, match.group("fence"))
                continue
            if name == "solution-end":
                raise EditionError(f"{self.chapter}: {{solution-end}} with no open "
                                   f"{{solution-start}}")
            kept.append(line)
            i += 1
        return "\n".join(kept)

    def _skip_block(self, lines, start, fence):
        """Index of the line after the block opened at ``start``."""
        for j in range(start + 1, len(lines)):
            if _closes(lines[j], fence):
                return j + 1
        raise EditionError(f"{self.chapter}: the directive {lines[start]!r} is never closed "
                           f"(no line {fence!r} after it in its cell)")


def _tidy(text):
    """Collapse the blank lines left where solutions were."""
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n")


def _new_code_cell(source, tags, exercise):
    cell = nbformat.v4.new_code_cell(source=source)
    cell.metadata["tags"] = list(tags)
    cell.metadata["exercise"] = dict(exercise)
    return cell


def _header(chapter_stem, title):
    return nbformat.v4.new_markdown_cell(
        f"```{{note}} Exercise edition\n"
        f"This is the exercise edition of *{title}* (`{chapter_stem}.ipynb`): the solutions are "
        f"removed, and each code exercise starts from a cell with `...` placeholders for you to "
        f"fill in. Run the chapter from the top, then run an exercise cell: its checker says "
        f"\"Not yet\" with a hint until your answer is right. The chapter with the solutions is "
        f"in the book.\n"
        f"```")


def _title(notebook):
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return "this chapter"


def exercise_edition(notebook, chapter, answers=False):
    """The exercise edition of ``notebook`` (a new notebook; the input is untouched).

    Parameters
    ----------
    notebook : nbformat.NotebookNode
        A chapter, tagged by ``book/tag_exercises.py``.
    chapter : str
        Its name (``"01_hyperplanes"``), for messages.
    answers : bool, default=False
        Put the stored answers in the stub and starter cells instead of the
        stubs: the edition a test executes to show that the answers pass.

    Returns
    -------
    nbformat.NotebookNode
    """
    answers_by_label = {}
    for cell in notebook.cells:
        if ANSWER_TAG in cell.metadata.get("tags", []):
            label = cell.metadata.get("exercise", {}).get("label")
            if not label:
                raise EditionError(f"{chapter}: a cell tagged {ANSWER_TAG} has no "
                                   f"metadata['exercise']['label']")
            answers_by_label[label] = cell.source
    starters = {cell.metadata["exercise"]["label"] for cell in notebook.cells
                if STARTER_TAG in cell.metadata.get("tags", [])}

    out = nbformat.v4.new_notebook(metadata=copy.deepcopy(notebook.metadata))
    out.metadata.pop("widgets", None)     # the stored widget views belong to the outputs
    out.cells.append(_header(chapter, _title(notebook)))
    filt = _Filter(chapter)
    placed = set()
    for cell in notebook.cells:
        tags = cell.metadata.get("tags", [])
        if cell.cell_type == "markdown":
            text = _tidy(filt.markdown(cell.source))
            if text.strip():
                out.cells.append(nbformat.v4.new_markdown_cell(
                    text, metadata=copy.deepcopy(cell.metadata)))
            continue
        if cell.cell_type != "code":
            if filt.gated is None:
                out.cells.append(copy.deepcopy(cell))
            continue
        if ANSWER_TAG in tags:
            data = cell.metadata["exercise"]
            label = data["label"]
            if filt.gated is None:
                raise EditionError(f"{chapter}: the answer cell of {label} is not inside a "
                                   f"{{solution-start}} ... {{solution-end}} block, so the "
                                   f"edition cannot remove it with its solution")
            if label in starters:
                placed.add(label)
                continue          # the chapter's own starter cell stays
            if not data.get("stub"):
                raise EditionError(f"{chapter}: the answer cell of {label} has no stub and the "
                                   f"exercise has no starter cell (run book/tag_exercises.py)")
            source = cell.source if answers else data["stub"].rstrip("\n")
            out.cells.append(_new_code_cell(source, [STUB_TAG], {"label": label}))
            placed.add(label)
            continue
        if filt.gated is not None:
            continue              # another code cell of a gated solution
        new = nbformat.v4.new_code_cell(source=cell.source,
                                        metadata=copy.deepcopy(cell.metadata))
        new.metadata.pop("execution", None)
        if STARTER_TAG in tags:
            label = cell.metadata["exercise"]["label"]
            if label not in answers_by_label:
                raise EditionError(f"{chapter}: the starter cell of {label} has no answer cell")
            if answers:
                new.source = answers_by_label[label]
        out.cells.append(new)
    if filt.gated is not None:
        raise EditionError(f"{chapter}: the solution of {filt.gated} is never closed "
                           f"with {{solution-end}}")
    missing = set(answers_by_label) - placed
    if missing:
        raise EditionError(f"{chapter}: answers not placed: {sorted(missing)}")
    _number_cells(out, chapter)
    return out


def _number_cells(notebook, chapter):
    """Cell ids from the position and source, not random: the same chapter gives the same bytes."""
    import hashlib

    for k, cell in enumerate(notebook.cells):
        digest = hashlib.sha1(cell.source.encode("utf-8")).hexdigest()[:8]
        cell["id"] = f"{chapter[:2]}-{k:03d}-{digest}"


def _make_notebooks():
    """book/make_notebooks.py (the learner's edition), whose converter writes this one."""
    if str(BOOK) not in sys.path:
        sys.path.insert(0, str(BOOK))
    import make_notebooks
    return make_notebooks


def readable_edition(edition, chapter, index, glue=None, notebook_names=None, html_root=None,
                     version=None):
    """The exercise edition ``edition`` (of :func:`exercise_edition`) with its MyST resolved.

    Parameters
    ----------
    edition : nbformat.NotebookNode
        What :func:`exercise_edition` made of the chapter (no solution left).
    chapter : str
        The chapter's name (``"06_soft_margin"``).
    index : make_notebooks.BookIndex
        Numbers, titles and citations of the book build.
    glue : dict, optional
        The chapter's glued values in the build's run (``make_notebooks.read_glue``).
    notebook_names : dict, optional
        docname -> file name of the sibling notebooks of this edition: a reference
        to another chapter opens its exercise edition; a reference to a page with
        no notebook here links to the HTML book only.
    html_root : str, optional
        The prefix of links to the HTML book (None: no such links).
    version : str, optional
        svmlib's version for the set-up cells (default: this interpreter's).

    Returns
    -------
    nbformat.NotebookNode
        A new notebook: the set-up cells of ``make_notebooks.header_cells``, then
        every cell of ``edition`` but its MyST note, markdown converted, each
        figure's caption after its code cell, and the chapter's reference list.
    """
    mn = _make_notebooks()
    docname = f"book/{chapter}"
    converter = mn.ChapterConverter(index, docname, glue or {}, notebook_names or {}, html_root)
    out = nbformat.v4.new_notebook(metadata=copy.deepcopy(edition.metadata))
    out.metadata["svmlib_edition"] = {"kind": "exercises", "source": f"{docname}.ipynb"}
    out.cells.extend(mn.header_cells(chapter, _title(edition), index.chapters.get(docname, ""),
                                     docname, html_root, version, edition="exercises",
                                     glue=mn.uses_myst_nb(edition)))
    for cell in edition.cells[1:]:          # [0]: the MyST note, replaced by the header
        if cell.cell_type == "markdown":
            try:
                text = converter.markdown(cell.source)
            except mn.EditionError as error:
                raise EditionError(str(error)) from None
            if text.strip():
                out.cells.append(nbformat.v4.new_markdown_cell(
                    text, metadata=copy.deepcopy(cell.metadata)))
            continue
        new = copy.deepcopy(cell)
        if cell.cell_type == "code":
            new.metadata.pop("mystnb", None)      # its caption follows as a cell
            out.cells.append(new)
            try:
                caption = converter.caption(cell)
            except mn.EditionError as error:
                raise EditionError(str(error)) from None
            if caption:
                out.cells.append(nbformat.v4.new_markdown_cell(caption))
            continue
        out.cells.append(new)
    references = mn.reference_cell(converter, index, chapter)
    if references is not None:
        out.cells.append(references)
    _number_cells(out, chapter)
    return out


def build(paths, out_dir, answers=False, index=None, executed_dir=None, html_dir=None):
    """Write the exercise edition of each chapter in ``paths`` into ``out_dir``.

    With ``index`` (a ``make_notebooks.BookIndex`` of the book build) each
    notebook is written by :func:`readable_edition`, with the glued values of
    the build's executed chapters in ``executed_dir`` and links to the HTML book
    in ``html_dir`` (see ``make_notebooks.html_root_from``); without it, in the
    chapters' MyST.
    """
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [pathlib.Path(path) for path in paths]
    if index is not None:
        if executed_dir is None:
            raise ValueError("executed_dir: the readable edition needs the book build's "
                             "executed chapters (BUILD/jupyter_execute/book) for the glued "
                             "values; pass it with index")
        mn = _make_notebooks()
        names = {f"book/{path.stem}": path.name for path in paths}
        html_root = mn.html_root_from(index, out_dir, executed_dir, html_dir)
        version = mn.svmlib_version()
    written = []
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        edition = exercise_edition(notebook, path.stem, answers=answers)
        if index is not None:
            glue = mn.read_glue(pathlib.Path(executed_dir) / path.name)
            edition = readable_edition(edition, path.stem, index, glue, names, html_root,
                                       version)
        nbformat.validate(edition)
        target = out_dir / path.name
        nbformat.write(edition, target)
        written.append(target)
    return written


def chapters():
    return sorted(BOOK.glob("[0-9][0-9]_*.ipynb"))


def edition_arguments(doc, out, what):
    """The command line every edition writer shares: chapters, ``--out``, ``--build``, ``--myst``.

    ``doc`` is the writer's docstring (its first paragraph is the help),
    ``out`` the default output directory and ``what`` what ``--out`` names.
    """
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", type=pathlib.Path,
                        help="chapter notebooks (default: every book/NN_*.ipynb)")
    parser.add_argument("--out", type=pathlib.Path, default=out,
                        help=f"{what} (default: {out.relative_to(ROOT)})")
    parser.add_argument("--build", type=pathlib.Path, default=ROOT / "_build",
                        help="the book build to resolve references, numbers and glued values "
                             "from (default: _build, made by `make book`)")
    parser.add_argument("--myst", action="store_true",
                        help="keep the chapters' MyST (needs no build; only jupyterlab-myst "
                             "renders it)")
    return parser


def chapter_paths(args, tool):
    """The chapters named on the command line (default: all), each checked to exist."""
    paths = args.chapters or chapters()
    for path in paths:
        if not path.is_file():
            sys.exit(f"{tool}: no such chapter notebook: {path}")
    return paths


def main(argv=None):
    parser = edition_arguments(__doc__, DEFAULT_OUT, "output directory")
    parser.add_argument("--answers", action="store_true",
                        help="put the stored answers in place of the stubs (for checking)")
    args = parser.parse_args(argv)
    paths = chapter_paths(args, "make_exercises")
    index = executed = None
    if not args.myst:
        mn = _make_notebooks()
        environment = args.build / ".doctrees" / "environment.pickle"
        executed = args.build / "jupyter_execute" / "book"
        if not environment.is_file() or not executed.is_dir():
            sys.exit(f"make_exercises: no book build in {args.build} (no {environment} or "
                     f"{executed}): run `make book` first, or pass --myst for the edition "
                     f"in MyST, which needs no build but reads only with jupyterlab-myst")
        try:
            index = mn.BookIndex.from_pickle(environment)
        except mn.EditionError as error:
            sys.exit(f"make_exercises: {error}")
    try:
        written = build(paths, args.out, answers=args.answers, index=index,
                        executed_dir=executed, html_dir=args.build / "html")
    except EditionError as error:
        sys.exit(f"make_exercises: {error}")
    kind = "answer" if args.answers else "exercise"
    form = " (MyST)" if args.myst else ""
    print(f"wrote {len(written)} {kind} notebook(s){form} into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


# --- Sphinx extension: the exercise edition in the HTML book ---------------
# _config.yml loads this module as a local extension.  Each chapter's
# download menu (sphinx-book-theme's "download-buttons" group) gets an entry
# for its exercise edition, next to the notebook, and the editions are written
# into the built HTML (``_exercises/NN_name.ipynb``) so the link works offline.

EXERCISE_DIR = "_exercises"


def _chapter_stem(pagename):
    stem = pagename.rsplit("/", 1)[-1]
    return stem if re.match(r"^[0-9][0-9]_", stem) and (BOOK / f"{stem}.ipynb").is_file() else None


def _add_download_entry(app, pagename, templatename, context, doctree):
    stem = _chapter_stem(pagename)
    if stem is None:
        return
    for group in context.get("header_buttons", []):
        if group.get("label") != "download-buttons":
            continue
        entry = {
            "type": "link",
            "url": f"{context['pathto'](EXERCISE_DIR, 1)}/{stem}.ipynb",
            "text": ".ipynb (exercises)",
            "icon": "fas fa-pencil-alt",
            "tooltip": "Download the exercise edition (solutions removed)",
            "label": "download-exercises-button",
        }
        buttons = group["buttons"]
        # right after the chapter's own notebook (".ipynb", the source of a
        # notebook page; "download-notebook-button" when myst-nb made it)
        after = [i for i, b in enumerate(buttons)
                 if b.get("label") in ("download-notebook-button", "download-source-button")]
        buttons.insert(after[0] + 1 if after else len(buttons), entry)
        return
    # no download menu on this page (theme option off): nothing to add to


def _write_editions(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    # from the environment in memory, as make_notebooks' hook writes the learner's edition
    outdir = pathlib.Path(app.outdir)
    index = _make_notebooks().BookIndex.from_environment(app.env)
    build(chapters(), outdir / EXERCISE_DIR, index=index,
          executed_dir=outdir.parent / "jupyter_execute" / "book", html_dir=outdir)


def setup(app):
    # after sphinx-book-theme's add_header_buttons (priority 501)
    app.connect("html-page-context", _add_download_entry, priority=502)
    app.connect("build-finished", _write_editions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
