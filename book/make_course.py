"""Build the course edition: one nbgrader assignment per chapter.

    .venv/bin/python book/make_course.py [--build _build] [--out DIR] [--no-release] [--myst]
                                         [CHAPTER.ipynb ...]

writes an nbgrader course directory (default ``_build/course/``) in
nbgrader's standard layout::

    nbgrader_config.py              the course's settings (read by every nbgrader command run here)
    source/NN_name/NN_name.ipynb    the instructor's version: solutions, rubrics, hidden tests
    release/NN_name/NN_name.ipynb   the students' version, made by `nbgrader generate_assignment`
    gradebook.db                    nbgrader's database (assignments, cells, points)

Each assignment is one chapter (default: every ``book/NN_*.ipynb``), built
from the same explicit marks as the exercise edition (``book/make_exercises.py``,
``book/tag_exercises.py``), never by guessing:

* every **code exercise** (its answer cell is tagged ``exercise-answer``)
  becomes an autograded answer cell: the exercise's starting code, then the
  stored working answer between ``### BEGIN SOLUTION`` and ``### END
  SOLUTION`` (nbgrader replaces it with a stub in the release); and right
  after it a locked test cell worth one point per check.  The test cell's
  visible part runs the chapter's checker and shows its hint; its hidden part
  (``### BEGIN HIDDEN TESTS``) reloads the checker from svmlib and asserts
  its verdict with :func:`svmlib.exercises.assert_correct`, calling the
  checker on the answer alone, so that it compares the answer with the data
  the checker makes itself, not with anything in the notebook.  A cell that
  only prints "Correct", or builds ``Feedback(True, ...)``, earns nothing;
* every **written exercise** (a ``{solution}`` block, or a
  ``{solution-start}`` ... ``{solution-end}`` block with prose: proofs,
  derivations, predictions, the widget exercises) becomes a manually graded
  Markdown answer cell whose solution region holds a rubric and the
  instructor's solution (the book's, code cells included as code blocks);
  the release shows only "YOUR ANSWER HERE".  Widget goals are graded this
  way (the student states what they found), not automatically;
* the rest of the chapter is kept without outputs, solutions removed.

The text is then written from the book build (``--build``, default
``_build``) as the learner's edition writes it (``book/make_notebooks.py``):
references numbered as in the HTML book, glued values, each figure's caption
under its cell, no MyST markup, and after the header a cell that checks that
svmlib imports; so an assignment reads in any Jupyter front end.  References
to another chapter link the published HTML book (_config.yml's html.baseurl)
or, without one, are plain text: an assignment is copied away from the build.
``--myst`` writes the chapters' MyST instead, which needs no build and reads
only with jupyterlab-myst.

The notebooks are reproducible: the same chapter gives the same bytes (cell
ids are numbered, not random).  ``--no-release`` writes ``source/`` and the
configuration only.  How to release, collect, grade and export: the book's
appendix "Teaching with the book" (``book/instructors.md``).
"""

import copy
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
sys.path.insert(0, str(BOOK))

from make_exercises import (  # noqa: E402
    _ANSWERS_MARK, _FENCE, EditionError, _closes, _tidy, chapter_paths, edition_arguments)
from make_exercises import chapters  # noqa: E402, F401  (the default chapters, for callers)

DEFAULT_OUT = ROOT / "_build" / "course"
ANSWER_TAG = "exercise-answer"
STARTER_TAG = "exercise-starter"
SCHEMA = 3
CODE_STUB = "# YOUR CODE HERE: complete the code above (replace each ...)"
POINTS_PER_PART = 2

# The hidden tests of each code exercise: (module of svmlib.exercises, the
# checker's call on the answer alone).  Called without the exercise's data,
# every checker makes that data itself (see each module's ``_chapter_*``).
GRADING = {
    "ex-hyperplanes-bisector": [("hyperplanes", "check_bisector((w_bis, b_bis))")],
    "ex-hyperplanes-signed-distances": [("hyperplanes", "check_signed_distances(r)"),
                                        ("hyperplanes", "check_misclassified(wrong)")],
    "ex-hyperplanes-line": [("hyperplanes", "check_line((H_line.w, H_line.b))")],
    "ex-perceptron-one-update": [
        ("perceptron", "check_still_a_mistake(w_one, b_one, x_one, y_one, rate_one)")],
    "ex-perceptron-order": [
        ("perceptron", "check_order_matters(X_ord, y_ord, order_a=[0, 1], order_b=[1, 0])")],
    "ex-maxmargin-two-points-code": [("maximum_margin", "check_two_point_svm((w_two, b_two))")],
    "ex-maxmargin-moves": [("maximum_margin", "check_which_moves_matter(move_answers)")],
    "ex-lagrange-ellipse-numeric": [("lagrange_kkt", "check_ellipse_points(points)")],
    "ex-lagrange-kkt-code": [("lagrange_kkt", "check_kkt_function(kkt_check)")],
    "ex-dual-code-matrix": [("hard_margin_dual", "check_dual_matrix(H_answer)")],
    "ex-dual-code-support": [("hard_margin_dual", "check_support_vectors(support_answer)")],
    "ex-dual-code-w-b": [("hard_margin_dual", "check_w_and_b(w_answer, b_answer)")],
    "ex-soft-code-slacks": [("soft_margin", "check_slacks(xi_yours)")],
    "ex-soft-code-kkt": [("soft_margin", "check_kkt_cases(kkt_cases)")],
    "ex-soft-code-objective": [("soft_margin", "check_soft_margin_objective(soft_margin_objective)")],
    "ex-smo-pair-code": [("smo", "check_pair_update(pair_update)")],
    "ex-smo-violating-code": [("smo", "check_violating_pair(maximal_violating_pair)")],
    "ex-kernels-expand": [("kernels", "check_feature_map_m2(feature_map)")],
    "ex-kernels-gram": [("kernels", "check_rbf_gram(rbf_gram)")],
    "ex-kernels-psd": [("kernels", "check_is_psd(is_psd)")],
    "ex-kernels-decision": [("kernels", "check_kernel_decision(kernel_decision)")],
    "ex-multiclass-count": [("multiclass", "check_training_counts(answer)")],
    "ex-multiclass-ovo-votes": [("multiclass", "check_ovo_votes(ovo_votes)")],
    "ex-multiclass-ovr-predict": [("multiclass", "check_ovr_predict(ovr_predict)")],
    "ex-practice-platt-code": [("in_practice", "check_platt_fit(fit_platt_minimize)")],
    "ex-scale-cd-pass": [("at_scale", "check_cd_pass(cd_pass)")],
    "ex-scale-rff": [("at_scale", "check_rff_map(rff_map)")],
    "ex-beyond-code-eps-loss": [("beyond_classification", "check_eps_loss(eps_loss)")],
    "ex-beyond-code-dual-arrays": [("beyond_classification",
                                    "check_svr_dual_arrays(svr_dual_arrays)")],
    "ex-beyond-code-krr": [("beyond_classification", "check_krr_coefficients(krr_fit)")],
}

# A line of an answer or stub that calls a checker (it moves to the test cell).
_CHECK_LINE = re.compile(r"^\s*(?:display\(|print\()?\s*(?:ex\.)?check_\w+\(.*$")
_PART = re.compile(r"^\s*(?:(\d+)\.|\(([a-z])\)|([a-z])\))\s")
_EXERCISE_END = re.compile(r"^(`{3,}|:{3,})\{exercise-end\}")

NBGRADER_CONFIG = '''\
# nbgrader's settings for this course (written by book/make_course.py; regenerate,
# do not edit: `make course`).  Every nbgrader command run in this directory reads it.
import os

c = get_config()  # noqa: F821 (nbgrader provides it)

c.CourseDirectory.course_id = "svm-interactively"
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
# A released answer cell keeps the exercise's starting code; the solution region
# becomes this line (no `raise`, so "Run All" goes through an untouched notebook).
c.ClearSolutions.code_stub = {"python": %r}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
# Chapters run their figures and solvers: give each cell time on a slow machine.
c.Execute.timeout = 600
c.Execute.interrupt_on_timeout = True
# To release to and collect from students on one JupyterHub, set the exchange:
# c.Exchange.root = "/srv/nbgrader/exchange"
''' % CODE_STUB


def _nbgrader(kind, grade_id, points=None):
    meta = {"grade": kind in ("test", "written"), "grade_id": grade_id,
            "locked": kind in ("test", "readonly"), "schema_version": SCHEMA,
            "solution": kind in ("answer", "written"), "task": False}
    if points is not None:
        meta["points"] = points
    return meta


class _Exercise:
    def __init__(self, label, title, statement):
        self.label = label
        self.title = title
        self.statement = statement

    @property
    def parts(self):
        marks = set()
        for line in self.statement:
            match = _PART.match(line)
            if match:
                marks.add(next(g for g in match.groups() if g))
        return max(1, len(marks))


def exercises_of(notebook):
    """label -> _Exercise for every exercise directive of the notebook."""
    found = {}
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        lines = cell.source.splitlines()
        for i, line in enumerate(lines):
            match = _FENCE.match(line)
            if not match or match.group("name") not in ("exercise", "exercise-start"):
                continue
            label, body, j = None, [], i + 1
            while j < len(lines) and lines[j].startswith(":") and not _closes(lines[j], ":::"):
                m = re.match(r"^:label:\s*(\S+)", lines[j])
                label = m.group(1) if m else label
                j += 1
            fence = match.group("fence")
            while j < len(lines):
                if (match.group("name") == "exercise" and _closes(lines[j], fence)) \
                        or _EXERCISE_END.match(lines[j]):
                    break
                body.append(lines[j])
                j += 1
            if label:
                found[label] = _Exercise(label, match.group("arg").strip(), body)
    return found


def _visible(line):
    """A checker call as the test cell shows it: its verdict displayed."""
    stripped = line.strip()
    if stripped.startswith(("display(", "print(")):
        return stripped
    return f"display({stripped})"


def _split_checks(source):
    """(code without its checker calls, the checker-call lines)."""
    keep, checks = [], []
    for line in source.splitlines():
        (checks if _CHECK_LINE.match(line) else keep).append(line)
    return "\n".join(keep).strip("\n"), checks


class _Builder:
    """Walks one chapter and writes the assignment's cells."""

    def __init__(self, notebook, chapter):
        self.chapter = chapter
        self.exercises = exercises_of(notebook)
        self.cells = []
        self.md = []
        self.gated = None
        self.gated_text = []
        self.answer_blocks = 0
        self.answers = {}
        self.starters = {}
        for cell in notebook.cells:
            tags = cell.metadata.get("tags", [])
            data = cell.metadata.get("exercise", {})
            if ANSWER_TAG in tags:
                self.answers[data["label"]] = (cell.source, data.get("stub"))
            if STARTER_TAG in tags:
                self.starters[data["label"]] = cell.source
        unknown = set(self.answers) - set(GRADING)
        if unknown:
            raise EditionError(f"{chapter}: code exercises with no hidden tests in "
                               f"book/make_course.py GRADING: {sorted(unknown)}")

    # ---------------------------------------------------------------- cells
    def _add(self, cell):
        self.cells.append(cell)

    def _flush(self):
        text = _tidy("\n".join(self.md))
        self.md = []
        if text.strip():
            self._add(nbformat.v4.new_markdown_cell(text))

    def _title(self, label):
        ex = self.exercises.get(label)
        return ex.title if ex else label

    def _code_exercise(self, label):
        answer, stub = self.answers[label]
        start = self.starters.get(label, stub)
        if start is None:
            raise EditionError(f"{self.chapter}: {label} has neither a stub nor a starter cell")
        prefix, visible = _split_checks(start)
        solution, _ = _split_checks(answer)
        if not visible:
            raise EditionError(f"{self.chapter}: the starting code of {label} calls no checker")
        title = self._title(label)
        lines = [f"# Your answer to the exercise \"{title}\" ({label}).", prefix,
                 "### BEGIN SOLUTION", solution, "### END SOLUTION"]
        cell = nbformat.v4.new_code_cell("\n".join(x for x in lines if x))
        cell.metadata["nbgrader"] = _nbgrader("answer", f"{label}-answer")
        self._add(cell)
        checks = GRADING[label]
        hidden = ["import importlib as _importlib", "",
                  "import svmlib.exercises._core as _core", "",
                  "_core = _importlib.reload(_core)   # the checkers as svmlib ships them"]
        for module, call in checks:
            hidden.append(f"_checks = _importlib.reload(_importlib.import_module("
                          f"\"svmlib.exercises.{module}\"))")
            hidden.append(f"_core.assert_correct(_checks.{call})")
        test = [f"# The test of \"{title}\" ({label}): the checker's verdict on your answer.",
                "# When the assignment is graded, hidden tests check the answer itself.",
                *(_visible(line) for line in visible),
                "### BEGIN HIDDEN TESTS", *hidden, "### END HIDDEN TESTS"]
        cell = nbformat.v4.new_code_cell("\n".join(test))
        cell.metadata["nbgrader"] = _nbgrader("test", f"{label}-test", points=len(checks))
        self._add(cell)

    def _written(self, label, solution_lines, part_of_code=False, title=None):
        text = _tidy("\n".join(solution_lines))
        if not text.strip() or (part_of_code and not _prose(solution_lines)):
            return      # a code exercise whose solution has no written part
        ex = self.exercises.get(label)
        parts = 1 if part_of_code or ex is None else ex.parts
        points = POINTS_PER_PART * parts
        what = "the written part of the exercise" if part_of_code else "the exercise"
        name = title or f"*{self._title(label)}*"
        if title:
            what = ""
        split = f": {parts} parts, {POINTS_PER_PART} points each" if parts > 1 else ""
        rubric = (f"**Rubric** ({points} points{split}). For each part: {POINTS_PER_PART} points "
                  f"for a complete, correct answer that reaches the result of the solution "
                  f"below (another correct route counts fully); 1 point for the right "
                  f"approach with a gap or a slip; 0 for a missing or wrong answer. "
                  f"{'Predictions and observations from a widget count when they state the value found and why it is so.' if 'idget' in self._title(label) else ''}").rstrip()
        body = (f"**Your answer** to {what + ' ' if what else ''}{name} (`{label}`): write it in "
                f"this cell (Markdown; `$...$` for mathematics).\n\n"
                f"### BEGIN SOLUTION\n{rubric}\n\n**The instructor's solution.**\n\n{text}\n"
                f"### END SOLUTION")
        cell = nbformat.v4.new_markdown_cell(body)
        cell.metadata["nbgrader"] = _nbgrader("written", f"{label}-written", points=points)
        self._add(cell)

    # ------------------------------------------------------------- markdown
    def markdown(self, text):
        lines = text.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            match = _FENCE.match(line)
            name = match.group("name") if match else None
            if self.gated is not None:
                if name == "solution-end":
                    i = _skip(lines, i, match.group("fence"), self.chapter)
                    label, self.gated = self.gated, None
                    self._written(label, self.gated_text, part_of_code=label in self.answers)
                    self.gated_text = []
                    continue
                self.gated_text.append(line)
                i += 1
                continue
            if _ANSWERS_MARK.match(line) and i + 1 < len(lines) and _FENCE.match(lines[i + 1]):
                # answers to questions of the text: graded like a written exercise
                self._flush()
                fence = _FENCE.match(lines[i + 1])
                end = _skip(lines, i + 1, fence.group("fence"), self.chapter)
                inner = lines[i + 2:end - 1]
                while inner and inner[0].startswith(":"):
                    inner = inner[1:]
                self.answer_blocks += 1
                self._written(f"{self.chapter[:2]}-answers-{self.answer_blocks}", inner,
                              title="the questions above")
                i = end
                continue
            if name == "solution":
                self._flush()
                end = _skip(lines, i, match.group("fence"), self.chapter)
                inner = lines[i + 1:end - 1]
                while inner and inner[0].startswith(":"):
                    inner = inner[1:]
                self._written(match.group("arg").strip(), inner)
                i = end
                continue
            if name == "solution-start":
                self._flush()
                self.gated = match.group("arg").strip()
                self.gated_text = []
                i = _skip(lines, i, match.group("fence"), self.chapter)
                continue
            self.md.append(line)
            i += 1
        self._flush()

    # ----------------------------------------------------------------- code
    def code(self, cell):
        tags = cell.metadata.get("tags", [])
        label = cell.metadata.get("exercise", {}).get("label")
        if self.gated is not None:
            if ANSWER_TAG in tags:
                if label not in self.starters:
                    self._code_exercise(label)
            elif cell.source.strip():
                self.gated_text += ["", "```python", cell.source.rstrip("\n"), "```", ""]
            return
        if STARTER_TAG in tags:
            self._code_exercise(label)
            return
        new = nbformat.v4.new_code_cell(cell.source)
        for key in ("tags",):
            if key in cell.metadata:
                new.metadata[key] = [t for t in cell.metadata[key] if not t.startswith("exercise")]
                if not new.metadata[key]:
                    del new.metadata[key]
        figure = cell.metadata.get("mystnb", {}).get("figure")
        if figure:
            # myst-nb's figure (label, caption): the readable course shows it as a caption cell
            new.metadata["mystnb"] = {"figure": copy.deepcopy(figure)}
        self._add(new)


def _prose(lines):
    """Whether ``lines`` hold text outside fenced code blocks."""
    fence = None
    for line in lines:
        stripped = line.strip()
        if fence is None and stripped.startswith("```"):
            fence = re.match(r"`+", stripped).group(0)
            continue
        if fence is not None:
            if _closes(stripped, fence):
                fence = None
            continue
        if stripped:
            return True
    return False


def _skip(lines, start, fence, chapter):
    for j in range(start + 1, len(lines)):
        if _closes(lines[j], fence):
            return j + 1
    raise EditionError(f"{chapter}: the directive {lines[start]!r} is never closed in its cell")


def _header(chapter, title, readable=False):
    if readable:
        reading = ("It reads in any Jupyter front end (no extension): references, theorems, "
                   "exercises and figure captions are numbered as in the HTML book, and the "
                   "cell below checks that this kernel can import svmlib.")
    else:
        reading = ("JupyterLab with jupyterlab-myst shows the chapter's directives and "
                   "mathematics as the book does.")
    text = textwrap.dedent(f"""\
        # Assignment: {title}

        This is the graded version of the chapter *{title}* (`{chapter}.ipynb`) of *Support Vector
        Machines, Interactively*. Run it from the top. Each exercise has an **answer cell** to complete:

        * a code exercise starts from the exercise's code with `...` to replace; the locked cell after it
          runs the checker and shows its hint. When the assignment is graded, hidden tests check the
          answer itself, so a printed "Correct" earns nothing: only a right answer does;
        * a written exercise (a proof, a derivation, what you found with a widget) has a Markdown cell
          that says "YOUR ANSWER HERE": replace that text with your answer.

        You need Python 3.11 with svmlib and the book's packages (see the book's appendix "Teaching
        with the book"). READING Do not copy, rename or delete the cells of this notebook: the grader
        matches them by their hidden ids.""").replace("READING", reading)
    cell = nbformat.v4.new_markdown_cell(text)
    cell.metadata["nbgrader"] = _nbgrader("readonly", "assignment-header")
    return cell


def _chapter_title(notebook):
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return "this chapter"


def course_notebook(notebook, chapter, book=None):
    """The source (instructor's) notebook of the assignment for one chapter.

    Parameters
    ----------
    notebook : nbformat.NotebookNode
        A chapter, tagged by ``book/tag_exercises.py``.
    chapter : str
        Its name, e.g. ``"06_soft_margin"`` (the assignment's name).
    book : BookBuild, optional
        The book build: with it, every markdown cell is written as the
        learner's edition writes it (``book/make_notebooks.py``: references
        numbered as in the HTML book, glued values, captions, no MyST), so the
        assignment reads in any Jupyter; without it, in the chapter's MyST.

    Returns
    -------
    nbformat.NotebookNode
    """
    builder = _Builder(notebook, chapter)
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            builder.markdown(cell.source)
        elif cell.cell_type == "code":
            builder.code(cell)
    if builder.gated is not None:
        raise EditionError(f"{chapter}: the solution of {builder.gated} is never closed")
    out = nbformat.v4.new_notebook()
    out.metadata["kernelspec"] = copy.deepcopy(notebook.metadata.get("kernelspec", {
        "display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}))
    out.metadata["language_info"] = {"name": "python"}
    out.cells = [_header(chapter, _chapter_title(notebook), readable=book is not None)] \
        + builder.cells
    if book is not None:
        out.cells = _readable(out.cells, chapter, book)
    else:
        for cell in out.cells:
            cell.metadata.pop("mystnb", None)
    for k, cell in enumerate(out.cells):
        digest = hashlib.sha1(cell.source.encode("utf-8")).hexdigest()[:8]
        cell["id"] = f"{chapter[:2]}-{k:03d}-{digest}"
    nbformat.validate(out)
    return out


class BookBuild:
    """What the readable course takes from the book build: its numbers and glued values.

    Parameters
    ----------
    index : make_notebooks.BookIndex
        The build's numbers, titles and citations.
    executed_dir : path
        The chapters myst-nb executed (``BUILD/jupyter_execute/book``), whose
        ``NN_name.glue.json`` hold the glued values.
    html_root : str or None
        The prefix of links to the HTML book: its published address
        (_config.yml's html.baseurl), or None when it has none (an assignment
        is copied away from the build, where no relative path holds).  A
        reference within the chapter links its anchor; one to another chapter
        (whose assignment is another folder) links the HTML book, or is text.
    """

    def __init__(self, index, executed_dir, html_root=None):
        self.index = index
        self.executed_dir = pathlib.Path(executed_dir)
        self.html_root = html_root

    @classmethod
    def from_directory(cls, build, html_root=None):
        """The build in ``build`` (``_build``), or EditionError saying to run `make book`."""
        mn = _make_notebooks()
        build = pathlib.Path(build)
        environment = build / ".doctrees" / "environment.pickle"
        executed = build / "jupyter_execute" / "book"
        if not environment.is_file() or not executed.is_dir():
            raise EditionError(f"no book build in {build} (no {environment} or {executed}): "
                               f"run `make book` first, or pass --myst for the course in MyST, "
                               f"which needs no build but reads only with jupyterlab-myst")
        try:
            index = mn.BookIndex.from_pickle(environment)
        except mn.EditionError as error:
            raise EditionError(str(error)) from None
        return cls(index, executed, html_root if html_root is not None
                   else index.html_root(None))


def _make_notebooks():
    from make_exercises import _make_notebooks as load
    return load()


def _readable(cells, chapter, book):
    """The assignment's cells as the learner's edition writes a chapter's (see ``book``)."""
    mn = _make_notebooks()
    glue = mn.read_glue(book.executed_dir / f"{chapter}.ipynb")
    converter = mn.ChapterConverter(book.index, f"book/{chapter}", glue, {}, book.html_root)
    out = []
    try:
        for cell in cells:
            if cell.cell_type == "markdown":
                cell.source = converter.markdown(cell.source)
                out.append(cell)
                if cell.metadata.get("nbgrader", {}).get("grade_id") == "assignment-header":
                    # the learner's edition's check that svmlib imports, with its advice
                    check = mn.header_cells(chapter, "", "", version=mn.svmlib_version(),
                                            glue=mn.uses_myst_nb(nbformat.v4.new_notebook(
                                                cells=cells)))[1]
                    out.append(nbformat.v4.new_code_cell(check.source.replace(
                        "(the cell above says how to install it)",
                        "(if it cannot, its message says how to install it)")))
                continue
            caption = converter.caption(cell) if cell.cell_type == "code" else None
            cell.metadata.pop("mystnb", None)
            out.append(cell)
            if caption:
                out.append(nbformat.v4.new_markdown_cell(caption))
    except mn.EditionError as error:
        raise EditionError(str(error)) from None
    references = mn.reference_cell(converter, book.index, chapter)
    if references is not None:
        out.append(nbformat.v4.new_markdown_cell(references.source))
    return out


def write_source(paths, out_dir, book=None):
    """Write ``nbgrader_config.py`` and ``source/<chapter>/<chapter>.ipynb``
    (readable in any Jupyter with ``book``, a :class:`BookBuild`; else in MyST)."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "nbgrader_config.py").write_text(NBGRADER_CONFIG, encoding="utf-8")
    names = []
    for path in paths:
        path = pathlib.Path(path)
        notebook = nbformat.read(path, as_version=4)
        course = course_notebook(notebook, path.stem, book)
        folder = out_dir / "source" / path.stem
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        nbformat.write(course, folder / path.name)
        names.append(path.stem)
    return names


def nbgrader(course_dir, *args, check=True):
    """Run an nbgrader command in the course directory (so it reads its config)."""
    command = [sys.executable, "-m", "nbgrader", *args, "--log-level=WARN"]
    # nbgrader runs `alembic` (its database migrations) from PATH: this environment's
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(pathlib.Path(sys.executable).parent), env.get("PATH", "")])
    result = subprocess.run(command, cwd=course_dir, capture_output=True, text=True, env=env)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed in {course_dir}:\n{result.stdout}"
                           f"{result.stderr}")
    return result


def release(course_dir, names):
    """``nbgrader generate_assignment`` for each assignment: ``release/`` and the gradebook."""
    for name in names:
        nbgrader(course_dir, "generate_assignment", name, "--force")


def main(argv=None):
    parser = edition_arguments(__doc__, DEFAULT_OUT, "course directory")
    parser.add_argument("--no-release", action="store_true",
                        help="write source/ and nbgrader_config.py only")
    args = parser.parse_args(argv)
    paths = chapter_paths(args, "make_course")
    try:
        book = None if args.myst else BookBuild.from_directory(args.build)
        names = write_source(paths, args.out, book)
    except EditionError as error:
        sys.exit(f"make_course: {error}")
    if not args.no_release:
        try:
            release(args.out, names)
        except RuntimeError as error:
            sys.exit(f"make_course: {error}")
    print(f"wrote {len(names)} assignment(s) into {args.out}"
          + ("" if args.no_release else " (source/ and release/)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
