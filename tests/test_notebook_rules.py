"""The rules that keep the chapters' stored outputs valid on every machine.

nbval compares each code cell's stored output with a fresh run.  A cell whose
output depends on the machine (a timing, an iteration count, the last digits
of a solver's result, a difference between two solvers) is a *measurement*:
it is marked ``# NBVAL_IGNORE_OUTPUT`` with a comment saying why, and the
claim the text draws from it is printed by a compared cell right after it,
in a form that cannot flip.  These tests check the form of that rule over
every chapter; whether the compared outputs really hold elsewhere is what
``make nbval-portable`` checks.
"""

import json
import pathlib

import pytest

BOOK = pathlib.Path(__file__).resolve().parents[1] / "book"
CHAPTERS = sorted(BOOK.glob("[0-9][0-9]_*.ipynb"))
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


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_each_measurement_is_followed_by_a_compared_claim(path):
    cells = code_cells(path)
    for k, cell in enumerate(cells):
        if not is_measurement(cell):
            continue
        following = cells[k + 1:k + 1 + FOLLOW_WITHIN]
        assert any(not is_measurement(c) and prints_something(c)
                   for c in following), (
            f"{path.name}, code cell {k} is a measurement, but none of the next "
            f"{FOLLOW_WITHIN} code cells is a compared cell that prints the claim "
            f"drawn from it")


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
