"""book/execute_chapters.py: a chapter whose outputs show an error is not recorded.

A cell can fail without its execution failing: matplotlib runs a figure's
callbacks (a widget's redraw on a slider event, a resize) through a registry
that catches an exception and prints its traceback to stderr, and the cell
still reports success, so ``make record`` stored such a notebook as if nothing
had happened.
"""

import importlib.util
import pathlib

import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("execute_chapters", ROOT / "book" / "execute_chapters.py")
execute_chapters = importlib.util.module_from_spec(spec)
spec.loader.exec_module(execute_chapters)

# matplotlib's own mechanism: under an interactive backend (ipympl's widget
# figures) a callback that raises is printed with traceback.print_exc, not raised.
BROKEN_DISPLAY = '''\
import traceback
from matplotlib.cbook import CallbackRegistry

def redraw(value):
    raise ValueError("this figure cannot be drawn")

callbacks = CallbackRegistry(exception_handler=lambda exc: traceback.print_exc())
callbacks.connect("changed", redraw)
callbacks.process("changed", 1)'''


def _notebook(*sources):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    return notebook


def test_output_problems_names_the_cell_and_the_error():
    notebook = _notebook("1", "2", "3")
    notebook.cells[1].outputs = [nbformat.v4.new_output(
        "stream", name="stderr",
        text="Traceback (most recent call last):\n  File ...\nValueError: bad figure\n")]
    notebook.cells[2].outputs = [nbformat.v4.new_output(
        "error", ename="KeyError", evalue="'x'", traceback=[])]
    assert execute_chapters.output_problems(notebook) == [
        "cell 1: ValueError: bad figure", "cell 2: KeyError: 'x'"]


def test_output_problems_allows_ordinary_output():
    notebook = _notebook("print(1)")
    notebook.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout", text="1\n"),
                                 nbformat.v4.new_output("stream", name="stderr",
                                                        text="a note on stderr\n")]
    assert execute_chapters.output_problems(notebook) == []


def test_record_refuses_a_notebook_whose_display_fails(tmp_path, capsys):
    path = tmp_path / "broken.ipynb"
    nbformat.write(_notebook("x = 1", BROKEN_DISPLAY), path)
    before = path.read_bytes()
    assert execute_chapters.record_outputs([path]) == 1
    err = capsys.readouterr().err
    assert "broken.ipynb failed" in err and "this figure cannot be drawn" in err, err
    assert path.read_bytes() == before, "the failed notebook was written back"


def test_record_stores_a_good_notebook(tmp_path, capsys):
    path = tmp_path / "good.ipynb"
    nbformat.write(_notebook("print(6 * 7)"), path)
    assert execute_chapters.record_outputs([path]) == 0
    stored = nbformat.read(path, as_version=4)
    assert stored.cells[0].outputs[0]["text"] == "42\n"
    assert "recorded good.ipynb in" in capsys.readouterr().out
