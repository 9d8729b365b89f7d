"""The rules that keep the chapters' stored outputs valid on every machine.

nbval compares each code cell's stored output with a fresh run.  A cell whose
output depends on the machine (a timing, an iteration count, the last digits
of a solver's result, a difference between two solvers) is a *measurement*:
it is marked ``# NBVAL_IGNORE_OUTPUT`` with a comment saying why, and the
claim the text draws from it is printed by a compared cell right after it,
in a form that cannot flip.  These tests check the form of that rule over
every chapter; whether the compared outputs really hold elsewhere is what
``make nbval-portable`` checks.

No compared output may depend on a clock: a timing, and every claim drawn
from one (a ratio, "faster than", a growth exponent), is shown only by a
measurement cell and checked against its threshold by ``make bench``
(``benchmarks/bench_chapters.py``).  ``tools/clock_flow.py`` follows clock
readings through the code, however indirectly they travel, to what a compared
cell prints, displays or glues; ``make nbval-portable`` runs the chapters
again with a clock that adds random delays (``tests/lying_clock``), so what
the static analysis misses still fails there.
"""

import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))
import clock_flow  # noqa: E402

BOOK = pathlib.Path(__file__).resolve().parents[1] / "book"
CHAPTERS = sorted(BOOK.glob("*.ipynb"))   # the chapters and every other executed page
MARK = "NBVAL_IGNORE_OUTPUT"
MAX_MEASUREMENTS = 3
FOLLOW_WITHIN = 2          # a compared cell among the next two code cells


def code_cells(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]


def source(cell):
    return "".join(cell["source"])


def is_measurement(cell):
    return MARK in source(cell)


def prints_something(cell):
    for output in cell.get("outputs", []):
        if output["output_type"] == "stream" and "".join(output["text"]).strip():
            return True
        if output["output_type"] in ("execute_result", "display_data"):
            data = output.get("data", {})
            if "text/plain" in data or "text/html" in data:
                return True
    return False


def test_there_are_chapters():
    assert len(CHAPTERS) >= 10


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_measurement_cells_say_why(path):
    for k, cell in enumerate(code_cells(path)):
        if not is_measurement(cell):
            continue
        lines = [line.strip() for line in source(cell).splitlines()]
        assert lines[0] == f"# {MARK}", (
            f"{path.name}, code cell {k}: the marker must be the first line, "
            f"exactly '# {MARK}'")
        assert len(lines) > 1 and lines[1].startswith("#") and len(lines[1]) > 12, (
            f"{path.name}, code cell {k}: the line after '# {MARK}' must be a "
            f"comment saying why the output differs between machines or runs")


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_at_most_three_measurement_cells(path):
    count = sum(is_measurement(cell) for cell in code_cells(path))
    assert count <= MAX_MEASUREMENTS, (
        f"{path.name} has {count} cells whose output nbval ignores; at most "
        f"{MAX_MEASUREMENTS}: print the robust claim in a compared cell instead")


def analyse(sources):
    """The clock analysis of a list of code-cell sources."""
    compared = [MARK not in source for source in sources]
    return clock_flow.Notebook(sources, compared, clock_flow.library())


def unfollowed_measurements(sources, outputs_shown):
    """Measurement cells not followed by a compared cell that uses what they computed."""
    flow = analyse(sources)
    missing = []
    for k, source in enumerate(sources):
        if MARK not in source:
            continue
        following = range(k + 1, min(k + 1 + FOLLOW_WITHIN, len(sources)))
        if not any(MARK not in sources[j] and outputs_shown[j]
                   and flow.used[j] & flow.defined[k] for j in following):
            missing.append(k)
    return missing


def clock_findings(path):
    cells = code_cells(path)
    return analyse([source(cell) for cell in cells]).findings


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_each_measurement_is_followed_by_a_compared_claim(path):
    cells = code_cells(path)
    sources = [source(cell) for cell in cells]
    for k in unfollowed_measurements(sources, [prints_something(c) for c in cells]):
        pytest.fail(
            f"{path.name}, code cell {k} is a measurement, but none of the next "
            f"{FOLLOW_WITHIN} code cells is a compared cell that prints a claim drawn "
            f"from it: one of them must use a value the measurement computed (and "
            f"that holds no clock reading)")


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_compared_output_depends_on_a_clock(path):
    findings = clock_findings(path)
    assert not findings, (
        f"{path.name}: compared cells show values computed from a clock; move them "
        f"into the measurement cell (glue what the prose quotes) and put the "
        f"threshold in benchmarks/bench_chapters.py:\n  "
        + "\n  ".join(str(f) for f in findings))


# ----------------------------------------------- the rule catches what it should

MEASURED = """# NBVAL_IGNORE_OUTPUT
# Timings differ from machine to machine.
import time
from svmlib import SVC, datasets
X, y = datasets.moons(n=200, random_state=0)

def best_time(fit, repeats=3):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fit()
        times.append(time.perf_counter() - start)
    return min(times)

rows = []
for C in (1.0, 10.0):
    model = SVC(C=C).fit(X, y)
    rows.append({"C": C, "seconds": best_time(lambda: SVC(C=C).fit(X, y)),
                 "accuracy": model.score(X, y), "n_sv": len(model.support_)})
print(rows)
"""

LEAKS = {
    "a timing printed": 'print(rows[0]["seconds"])',
    "a ratio of timings": 'ratio = rows[1]["seconds"] / rows[0]["seconds"]\nprint(f"{ratio:.1f}")',
    "a claim drawn from a timing": 'print("C = 10 is slower:", rows[1]["seconds"] > rows[0]["seconds"])',
    "a claim through a comprehension": 'slow = all(r["seconds"] < 1 for r in rows)\nprint(slow)',
    "a claim through a function": ('def total(rs):\n    return sum(r["seconds"] for r in rs)\n'
                                   'print(total(rows) > 0.001)'),
    "a value shown by a branch": 'if rows[0]["seconds"] > 0.01:\n    print("slow machine")',
    "a whole record": "print(rows[0])",
    "a glued timing": ('from myst_nb import glue\n'
                       'glue("t", float(rows[0]["seconds"]), display=False)'),
    "the last expression": 'rows[0]["seconds"] * 1000',
    "a timing from timeit": 'import timeit\nprint(min(timeit.repeat(lambda: 1, number=1)))',
    "the %timeit magic": "%timeit sum(range(10))",
    "the %time magic": "%time x = sum(range(10))",
    "a library function that times": (
        "from svmlib.plotting import smo as smo_plots\n"
        "r = smo_plots.time_solvers({'a': [10]}, lambda n: n, {'a': lambda p: 0.0})\n"
        "print(r[0]['seconds'] < 1)"),
    "a solver's recorded time": (
        "import numpy as np\nfrom svmlib.solvers import solve_dual_smo\n"
        "res = solve_dual_smo(np.eye(2), np.array([1.0, -1.0]), C=1.0)\n"
        "print(res.time < 1)"),
    "a clock read through an alias": ('from time import perf_counter as now\n'
                                      'start = now()\nelapsed = now() - start\nprint(elapsed >= 0)'),
}


@pytest.mark.parametrize("label", sorted(LEAKS))
def test_a_new_clock_dependent_output_is_caught(label):
    findings = analyse([MEASURED, LEAKS[label]]).findings
    assert findings and all(f.cell == 1 for f in findings), (
        f"the static rule did not catch {label}: {LEAKS[label]!r}")


@pytest.mark.parametrize("chapter", ["07_smo", "10_in_practice", "11_at_scale"])
def test_a_timing_claim_added_to_a_chapter_is_caught(chapter):
    # The claims that used to sit in these chapters, added back to the end of each
    path = BOOK / f"{chapter}.ipynb"
    sources = [source(cell) for cell in code_cells(path)]
    leak = {"07_smo": 'print(sec[SLSQP, 320] > sec[SMO, 2560])',
            "10_in_practice": 'print(all(r < 10 for r in speed_ratio.values()))',
            "11_at_scale": 'print(f"exponent > 1: {smo_growth > 1.0}")'}[chapter]
    findings = analyse(sources + [leak]).findings
    assert [f.cell for f in findings] == [len(sources)], findings


def test_values_that_travel_with_a_timing_but_hold_no_clock_are_allowed():
    shown = ('print([r["accuracy"] for r in rows], [r["n_sv"] for r in rows])\n'
             'print(f"{len(rows)} settings, C from {rows[0][\'C\']:g}")')
    assert analyse([MEASURED, shown]).findings == []


def test_a_measurement_followed_by_an_unrelated_cell_is_caught():
    unrelated = 'print(sum(range(10)))'
    related = 'print([r["n_sv"] for r in rows])'
    assert unfollowed_measurements([MEASURED, unrelated], [True, True]) == [0]
    assert unfollowed_measurements([MEASURED, related], [True, True]) == []
    # a compared cell that uses only the measurement's clock values does not count
    timed = 'print(best_time(lambda: None) >= 0)'
    assert unfollowed_measurements([MEASURED, timed], [True, True]) == [0]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_recorded_in_one_fresh_run(path):
    cells = code_cells(path)
    counts = [cell.get("execution_count") for cell in cells]
    assert counts == list(range(1, len(cells) + 1)), (
        f"{path.name} was not executed top to bottom in one fresh kernel "
        f"(execution counts {counts[:8]}...): run 'make record NB={path}'")
    errors = [k for k, cell in enumerate(cells)
              for output in cell.get("outputs", [])
              if output["output_type"] == "error"]
    assert not errors, f"{path.name}: code cells {errors} stored an error"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_glued_numbers_can_be_formatted(path):
    # {glue:text}`name:.1f` formats the glued text/plain; NumPy 2 scalars print
    # as "np.float64(...)", which the book build cannot format: glue float(x).
    for k, cell in enumerate(code_cells(path)):
        for output in cell.get("outputs", []):
            if "scrapbook" not in output.get("metadata", {}):
                continue
            for key, value in output.get("data", {}).items():
                if key.endswith("text/plain"):
                    text = "".join(value)
                    assert not text.startswith("np."), (
                        f"{path.name}, code cell {k} glues {text!r}: glue a Python "
                        f"number (float(x), int(x)) so that the text can format it")
