"""Mark the code exercises of every chapter for the exercise edition.

The exercise edition (``book/make_exercises.py``, ``make exercises``) is built
from explicit marks in the chapter notebooks, never from guessing.  This script
writes those marks; it is idempotent, so it can be re-run after anyone edits a
chapter (run it after merging branches that touch ``book/NN_*.ipynb``)::

    .venv/bin/python book/tag_exercises.py          # write the marks
    .venv/bin/python book/tag_exercises.py --check  # exit 1 if a mark is missing or stale

It changes cell metadata only, never a cell's source, outputs or order:

* the cell holding a code exercise's stored working answer gets the tag
  ``exercise-answer`` and ``metadata["exercise"] = {"label": ..., "stub": ...}``.
  ``stub`` is the cell the learner starts from in the exercise edition: what to
  write (``...`` placeholders) and the checker call, kept.  The answer cell
  also gets ``metadata["jupyter"]`` ``source_hidden`` and ``outputs_hidden``
  so that JupyterLab shows it collapsed (click the bar to read it), as the
  book's dropdown does;
* every other code cell inside a ``{solution-start}`` ... ``{solution-end}``
  block (found by that markup) gets the tag ``exercise-solution`` and is
  collapsed in JupyterLab the same way;
* where a chapter already has a starter cell inside the exercise (one whose
  untouched run gives the checker's hint), that cell gets the tag
  ``exercise-starter`` and ``metadata["exercise"] = {"label": ...}``, and the
  answer cell carries no stub: the edition keeps the chapter's own starter.

Cells are found by a *key*: one complete line of the cell's source (compared
with surrounding blanks stripped) that must occur in exactly one code cell of
the chapter.  A key found zero times or more than once stops the script with
a message naming the chapter and the key, so an edit that breaks the mapping
is noticed instead of silently tagging the wrong cell.  Each label must be the
``:label:`` of an exercise directive of that chapter.
"""

import argparse
import pathlib
import re
import sys
from dataclasses import dataclass

import nbformat

BOOK = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BOOK))

ANSWER_TAG = "exercise-answer"
STARTER_TAG = "exercise-starter"
SOLUTION_TAG = "exercise-solution"
TAGS = (ANSWER_TAG, STARTER_TAG, SOLUTION_TAG)


@dataclass(frozen=True)
class CodeExercise:
    """One code exercise: its label, how to find its cells, and its stub."""

    label: str
    answer: str            # key line of the stored-answer cell
    stub: str = None       # the learner's starting cell (when there is no starter)
    starter: str = None    # key line of the chapter's own starter cell


def _stub(text):
    return text.strip("\n") + "\n"


EXERCISES = {
    "01_hyperplanes": [
        CodeExercise("ex-hyperplanes-bisector",
                     answer="b_bis = -w_bis @ m_ac               # through the midpoint",
                     starter="w_bis, b_bis = np.array([1.0, 0.0]), 0.0            # replace: your (w, b)"),
        CodeExercise("ex-hyperplanes-signed-distances",
                     answer="r = (X @ w_ex + b_ex) / np.linalg.norm(w_ex)",
                     starter="wrong = []            # indices of the misclassified points"),
        CodeExercise("ex-hyperplanes-line",
                     answer="m = (q[1] - p[1]) / (q[0] - p[0])",
                     starter="m, c = 0.0, 0.0       # replace: slope and intercept of the line through p, q"),
    ],
    "02_perceptron": [
        CodeExercise("ex-perceptron-one-update",
                     answer="w_one, b_one = np.array([4.0, 0.0]), 0.0                # y h(x) = -4 before the update",
                     starter="w_one, b_one = np.array([1.0, 0.0]), 0.0               # replace: your numbers"),
        CodeExercise("ex-perceptron-order",
                     answer="X_ord = np.array([[1.0, 0.0], [-3.0, 0.0]])",
                     starter="X_ord = np.array([[1.0, 0.0], [-1.0, 0.0]])   # your points, one per row"),
    ],
    "03_maximum_margin": [
        CodeExercise("ex-maxmargin-two-points-code",
                     answer="w_two = 2 * d_two / (d_two @ d_two)             # h(x+) - h(x-) = 2",
                     starter="w_two, b_two = np.array([1.0, 1.0]), 0.0     # replace: your canonical (w, b)"),
        CodeExercise("ex-maxmargin-moves",
                     answer='move_answers = {"a": False, "b": True, "c": True, "d": False, "e": False}',
                     starter='move_answers = {"a": None, "b": None, "c": None, "d": None, "e": None}   # True: the line changes'),
    ],
    "04_lagrange_kkt": [
        CodeExercise("ex-lagrange-ellipse-numeric",
                     answer="points = stationary_points(lagrangian_gradient(ellipse), starts)",
                     starter="points = ...   # the stationary points of x y on x^2/8 + y^2/2 = 1, one per row"),
        CodeExercise("ex-lagrange-kkt-code",
                     answer="residual = grad_f(x) + jac_c(x).T @ mu",
                     starter="#         complementary slackness), four booleans"),
    ],
    "05_hard_margin_dual": [
        CodeExercise("ex-dual-code-matrix",
                     answer="H_answer = np.outer(y, y) * (X @ X.T)",
                     stub=_stub('''
H_answer = ...   # H[i, j] = y_i y_j <x_i, x_j>
ex.check_dual_matrix(H_answer)
''')),
        CodeExercise("ex-dual-code-support",
                     answer="support_answer = np.flatnonzero(alpha_raw > threshold)",
                     stub=_stub('''
support_answer = ...   # the i with alpha_i > 0, up to the solver's noise
ex.check_support_vectors(support_answer)
''')),
        CodeExercise("ex-dual-code-w-b",
                     answer="w_answer = (alpha_raw * y) @ X",
                     stub=_stub('''
w_answer = ...   # shape (2,)
b_answer = ...   # a number
ex.check_w_and_b(w_answer, b_answer)
''')),
    ],
    "06_soft_margin": [
        CodeExercise("ex-soft-code-slacks",
                     answer="xi_yours = np.maximum(0.0, 1.0 - y * (X @ w + b))",
                     stub=_stub('''
xi_yours = ...   # shape (n,): the slacks of the solution w, b
ex.check_slacks(xi_yours)
''')),
        CodeExercise("ex-soft-code-kkt",
                     answer="def kkt_cases(alpha, C):",
                     stub=_stub('''
def kkt_cases(alpha, C):
    ...   # your code: 0 where alpha_i = 0, 1 where 0 < alpha_i < C, 2 where alpha_i = C


ex.check_kkt_cases(kkt_cases)
''')),
        CodeExercise("ex-soft-code-objective",
                     answer="def soft_margin_objective(w, b, X, y, C):",
                     stub=_stub('''
def soft_margin_objective(w, b, X, y, C):
    ...   # your code: 1/2 ||w||^2 + C times the sum of the hinge losses


ex.check_soft_margin_objective(soft_margin_objective)
''')),
    ],
    "07_smo": [
        CodeExercise("ex-smo-pair-code",
                     answer="# minimize f along (alpha_i + y_i*tau, alpha_j - y_j*tau) in the box",
                     stub=_stub('''
def pair_update(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j,
                K_ii, K_jj, K_ij, C):
    ...   # your code: the clipped update of the pair
    # return alpha_i_new, alpha_j_new


check_pair_update(pair_update)
''')),
        CodeExercise("ex-smo-violating-code",
                     answer="def maximal_violating_pair(alpha, grad, y, C):",
                     stub=_stub('''
def maximal_violating_pair(alpha, grad, y, C):
    ...   # your code: return i, j, violation


check_violating_pair(maximal_violating_pair)
''')),
    ],
    "08_kernels": [
        CodeExercise("ex-kernels-expand",
                     answer="def feature_map(x):",
                     stub=_stub('''
def feature_map(x):
    ...   # your code: the 6 coordinates of phi(x) for (<x, z> + 1)^2, x in R^2


check_feature_map_m2(feature_map)
''')),
        CodeExercise("ex-kernels-gram",
                     answer="def rbf_gram(X, sigma):",
                     stub=_stub('''
def rbf_gram(X, sigma):
    ...   # your code: the n x n RBF Gram matrix of the rows of X, without a loop over pairs


check_rbf_gram(rbf_gram)
''')),
        CodeExercise("ex-kernels-psd",
                     answer="def is_psd(K, tol=1e-10):",
                     stub=_stub('''
def is_psd(K, tol=1e-10):
    ...   # your code: True when K is symmetric and positive semidefinite


check_is_psd(is_psd)
''')),
        CodeExercise("ex-kernels-decision",
                     answer="def kernel_decision(X_new, X_sv, alpha, y_sv, b, kernel):",
                     stub=_stub('''
def kernel_decision(X_new, X_sv, alpha, y_sv, b, kernel):
    ...   # your code: the scores h(x) of the rows of X_new, shape (n_new,)


check_kernel_decision(kernel_decision)
''')),
    ],
    "09_multiclass": [
        CodeExercise("ex-multiclass-count",
                     answer='answer = {"ovr_problems": K, "ovr_points": K * m,',
                     stub=_stub('''
K, m = 10, 100
answer = {"ovr_problems": ..., "ovr_points": ...,   # points per problem
          "ovr_kernel": ...,                         # kernel entries in total
          "ovo_problems": ..., "ovo_points": ...,
          "ovo_kernel": ...}
check_training_counts(answer)
''')),
        CodeExercise("ex-multiclass-ovo-votes",
                     answer="def ovo_votes(pairwise, n_classes):",
                     stub=_stub('''
def ovo_votes(pairwise, n_classes):
    ...   # your code: the votes, an integer array of shape (n_samples, n_classes)


check_ovo_votes(ovo_votes)
''')),
        CodeExercise("ex-multiclass-ovr-predict",
                     answer="def ovr_predict(scores, classes):",
                     stub=_stub('''
def ovr_predict(scores, classes):
    ...   # your code: the predicted labels, shape (n_samples,)


check_ovr_predict(ovr_predict)
''')),
    ],
    "10_in_practice": [
        CodeExercise("ex-practice-platt-code",
                     answer="def fit_platt_minimize(f, y):",
                     stub=_stub('''
from scipy.optimize import minimize


def fit_platt_minimize(f, y):
    ...   # your code: return A, B


ex.check_platt_fit(fit_platt_minimize)
''')),
    ],
    "11_at_scale": [
        CodeExercise("ex-scale-cd-pass",
                     answer="new = min(max(alpha[i] - G / (X[i] @ X[i]), 0.0), C)",
                     stub=_stub('''
def cd_pass(X, y, alpha, w, C, order):
    # your code: for each i in order, the one-variable step of dual coordinate
    # descent (gradient, clipped update of alpha[i], update of w); return alpha, w
    ...


check_cd_pass(cd_pass)
''')),
        CodeExercise("ex-scale-rff",
                     answer="return np.sqrt(2.0 / D) * np.cos(X @ omega + beta)",
                     stub=_stub('''
def rff_map(X, omega, beta):
    ...   # your code: the random Fourier features of the rows of X, shape (n, D)


print(check_rff_map(rff_map))
''')),
    ],
    "12_beyond_classification": [
        CodeExercise("ex-beyond-code-eps-loss",
                     answer="def eps_loss(r, epsilon):",
                     stub=_stub('''
def eps_loss(r, epsilon):
    ...   # your code: the epsilon-insensitive loss of every residual in r


ex.check_eps_loss(eps_loss)
''')),
        CodeExercise("ex-beyond-code-dual-arrays",
                     answer="def svr_dual_arrays(K, y, epsilon):",
                     stub=_stub('''
def svr_dual_arrays(K, y, epsilon):
    ...   # your code: return Q (2n x 2n), p (2n,) and z (2n,)


ex.check_svr_dual_arrays(svr_dual_arrays)
''')),
        CodeExercise("ex-beyond-code-krr",
                     answer="def krr_fit(K, y, lam):",
                     stub=_stub('''
def krr_fit(K, y, lam):
    ...   # your code: the coefficients alpha of kernel ridge regression, shape (n,)


ex.check_krr_coefficients(krr_fit)
''')),
    ],
}


class TaggingError(Exception):
    """A key or label of the table above does not match the chapter."""


def find_cell(notebook, key, chapter):
    """The index of the one code cell with a source line equal to ``key``."""
    hits = [i for i, cell in enumerate(notebook.cells)
            if cell.cell_type == "code"
            and any(line.strip() == key.strip() for line in cell.source.splitlines())]
    if len(hits) != 1:
        where = f"cells {hits}" if hits else "no code cell"
        raise TaggingError(
            f"{chapter}: the key line {key!r} must occur in exactly one code cell, "
            f"but {where} contain it. Update EXERCISES in book/tag_exercises.py to a line "
            f"that identifies the cell.")
    return hits[0]


def exercise_labels(notebook):
    """The ``:label:`` of every exercise directive in the notebook's markdown."""
    labels = set()
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        inside = False
        for line in cell.source.splitlines():
            if re.match(r"^(`{3,}|:{3,})\{exercise(-start)?\}", line):
                inside = True
            elif inside:
                match = re.match(r"^:label:\s*(\S+)\s*$", line)
                if match:
                    labels.add(match.group(1))
                    inside = False
                elif not line.startswith(":"):
                    inside = False
    return labels


def _clear(cell):
    """Remove every mark this script writes (so that re-running is idempotent)."""
    was_answer = bool({ANSWER_TAG, SOLUTION_TAG} & set(cell.metadata.get("tags", [])))
    tags = [t for t in cell.metadata.get("tags", []) if t not in TAGS]
    if tags:
        cell.metadata["tags"] = tags
    else:
        cell.metadata.pop("tags", None)
    cell.metadata.pop("exercise", None)
    jupyter = cell.metadata.get("jupyter")
    if was_answer and isinstance(jupyter, dict):
        jupyter.pop("source_hidden", None)
        jupyter.pop("outputs_hidden", None)
        if not jupyter:
            cell.metadata.pop("jupyter")


def _tag(cell, tag, data):
    cell.metadata.setdefault("tags", [])
    cell.metadata["tags"].append(tag)
    cell.metadata["exercise"] = data


def tag_notebook(notebook, chapter):
    """Write the marks of ``EXERCISES[chapter]`` into ``notebook`` (in place)."""
    table = EXERCISES.get(chapter, [])
    labels = exercise_labels(notebook)
    located = []
    for ex in table:
        if ex.label not in labels:
            raise TaggingError(f"{chapter}: no exercise directive has ':label: {ex.label}'")
        if (ex.stub is None) == (ex.starter is None):
            raise TaggingError(f"{chapter}: exercise {ex.label} needs either a stub or "
                               f"a starter cell, not both or neither")
        answer = find_cell(notebook, ex.answer, chapter)
        starter = None if ex.starter is None else find_cell(notebook, ex.starter, chapter)
        if starter is not None and starter >= answer:
            raise TaggingError(f"{chapter}: the starter cell of {ex.label} (cell {starter}) "
                               f"must come before its answer (cell {answer})")
        located.append((ex, answer, starter))
    for cell in notebook.cells:
        _clear(cell)
    for ex, answer, starter in located:
        data = {"label": ex.label}
        if ex.stub is not None:
            data["stub"] = ex.stub
        _tag(notebook.cells[answer], ANSWER_TAG, data)
        notebook.cells[answer].metadata.setdefault("jupyter", {}).update(
            source_hidden=True, outputs_hidden=True)
        if starter is not None:
            _tag(notebook.cells[starter], STARTER_TAG, {"label": ex.label})
    for index, label in _solution_code_cells(notebook, chapter):
        cell = notebook.cells[index]
        if ANSWER_TAG not in cell.metadata.get("tags", []):
            _tag(cell, SOLUTION_TAG, {"label": label})
            cell.metadata.setdefault("jupyter", {}).update(
                source_hidden=True, outputs_hidden=True)
    return notebook


def _solution_code_cells(notebook, chapter):
    """(index, label) of each code cell inside a gated solution."""
    from make_exercises import EditionError, _Filter   # the same reading of the markup
    reader = _Filter(chapter)
    found = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            try:
                reader.markdown(cell.source)
            except EditionError as error:
                raise TaggingError(str(error)) from None
        elif cell.cell_type == "code" and reader.gated is not None:
            found.append((index, reader.gated))
    return found


def chapters():
    return sorted(BOOK.glob("[0-9][0-9]_*.ipynb"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit with status 1 if a notebook's marks differ")
    args = parser.parse_args(argv)
    stale = []
    for path in chapters():
        before = path.read_text(encoding="utf-8")
        notebook = nbformat.reads(before, as_version=4)
        try:
            tag_notebook(notebook, path.stem)
        except TaggingError as error:
            sys.exit(f"tag_exercises: {error}")
        after = nbformat.writes(notebook) + "\n"
        if after != before:
            stale.append(path.name)
            if not args.check:
                path.write_text(after, encoding="utf-8")
    unknown = set(EXERCISES) - {p.stem for p in chapters()}
    if unknown:
        sys.exit(f"tag_exercises: EXERCISES names chapters that do not exist: {sorted(unknown)}")
    if args.check:
        if stale:
            print("exercise marks missing or stale in: " + ", ".join(stale)
                  + "\n  run: .venv/bin/python book/tag_exercises.py")
            return 1
        print("exercise marks are up to date in every chapter")
        return 0
    print(f"tagged {sum(len(v) for v in EXERCISES.values())} code exercises; "
          f"rewrote {len(stale)} notebook(s)" + (f": {', '.join(stale)}" if stale else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
