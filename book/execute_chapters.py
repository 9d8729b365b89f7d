"""Execute every chapter notebook, two at a time, into the book's cache.

``make book`` runs this before ``jupyter-book build``.  The build itself
executes notebooks one after another; on a machine with two cores, running
them two at a time halves the wall-clock time.  The results go into the
jupyter-cache database that myst-nb reads in ``execute_notebooks: cache`` mode
(``_build/.jupyter_cache``).

The cache is deleted first, every time: jupyter-cache keys a notebook by its
code cells only, so a cached result would survive a change to ``svmlib``'s
``.py`` files.  Starting empty makes every build a fresh execution, exactly
as ``execute_notebooks: force`` would, only faster.

With ``--record`` it instead executes each chapter in a fresh kernel and
writes the outputs back into the notebook file itself: these are the stored
outputs that nbval compares (``make record`` runs it).  Recording runs
without ``SVMLIB_STATIC_WIDGETS``, as nbval and Jupyter do, so the stored
notebooks hold the live widget views, not the book's kernel-free HTML.
Recorded outputs must hold on every machine: see "Working on a chapter" in
the README.

Usage: ``python book/execute_chapters.py [--record] [NOTEBOOK ...]``
(default: every chapter).  Exit status 1, with the traceback, if any chapter
fails, or shows an error in an output (a traceback on stderr, as IPython
prints when a figure cannot be displayed): see ``output_problems``.
"""

import concurrent.futures
import logging
import os
import pathlib
import shutil
import sys
import time
import traceback

from jupyter_cache import get_cache
from jupyter_cache.executors import load_executor

ROOT = pathlib.Path(__file__).resolve().parents[1]
CACHE = ROOT / "_build" / ".jupyter_cache"
TIMEOUT = 120  # seconds per cell, as execute.timeout in _config.yml
BUDGET = 30    # seconds per chapter, the developers' guide's standing budget


def output_problems(notebook):
    """What a reader would see go wrong in an executed notebook's outputs.

    A cell can fail without raising: IPython catches an exception in a display
    formatter (a figure that cannot be drawn, a widget that cannot render) and
    prints its traceback to stderr, and the cell still "succeeds".  The book's
    chapters write nothing to stderr, so any traceback there, or any error
    output, is a failure.  Returns one line per problem: cell number and text.
    """
    problems = []
    for number, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            text = ""
            if output.get("output_type") == "error":
                text = f"{output.get('ename')}: {output.get('evalue')}"
            elif output.get("output_type") == "stream" and output.get("name") == "stderr" \
                    and "Traceback" in output.get("text", ""):
                text = output["text"].strip().splitlines()[-1]
            if text:
                problems.append(f"cell {number}: {text}")
    return problems


def record_outputs(notebooks):
    """Execute each notebook in a fresh kernel and store its outputs in it."""
    import nbformat
    from nbclient import NotebookClient

    os.environ.pop("SVMLIB_STATIC_WIDGETS", None)   # the kernels inherit this

    def run(path):
        notebook = nbformat.read(path, as_version=4)
        start = time.perf_counter()
        NotebookClient(notebook, timeout=TIMEOUT, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}
                       ).execute()
        seconds = time.perf_counter() - start
        problems = output_problems(notebook)
        if problems:
            raise RuntimeError("a cell shows an error in its output:\n  " + "\n  ".join(problems))
        nbformat.write(notebook, path)
        return seconds

    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {pool.submit(run, path): path for path in notebooks}
        for future in concurrent.futures.as_completed(futures):
            path = futures[future]
            try:
                seconds = future.result()
                over = (f" -- over the {BUDGET} s budget (two at a time; "
                        f"a loaded machine is slower)" if seconds > BUDGET else "")
                print(f"recorded {path.name} in {seconds:.1f} s{over}")
            except Exception:
                failed.append(path.name)
                print(f"\n=== {path.name} failed (file left unchanged):\n"
                      f"{traceback.format_exc()}", file=sys.stderr)
    print(f"recorded {len(notebooks) - len(failed)} of {len(notebooks)} chapters"
          + (f"; failed: {failed}" if failed else ""))
    return 1 if failed else 0


def main():
    args = sys.argv[1:]
    recording = "--record" in args
    args = [a for a in args if a != "--record"]
    notebooks = ([pathlib.Path(a).resolve() for a in args]
                 or sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb")))
    if recording:
        return record_outputs(notebooks)
    if os.environ.get("SVMLIB_STATIC_WIDGETS") != "1":
        print("note: SVMLIB_STATIC_WIDGETS is not 1, so interactive figures will have "
              "no kernel-free HTML in the book", file=sys.stderr)
    shutil.rmtree(CACHE, ignore_errors=True)
    cache = get_cache(str(CACHE))
    for path in notebooks:
        cache.add_nb_to_project(str(path))
    logger = logging.getLogger("execute_chapters")
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    executor = load_executor("local-parallel", cache=cache, logger=logger)
    result = executor.run_and_cache(timeout=TIMEOUT, allow_errors=False)
    failed = result.errored + result.excepted
    for record in cache.list_project_records():
        if record.uri in failed:
            print(f"\n=== {pathlib.Path(record.uri).name} failed:\n{record.traceback}",
                  file=sys.stderr)
            continue
        cached = cache.get_cached_project_nb(record.pk)
        problems = output_problems(cache.get_cache_bundle(cached.pk).nb) if cached else []
        if problems:
            failed.append(record.uri)
            print(f"\n=== {pathlib.Path(record.uri).name} shows an error in its output:\n  "
                  + "\n  ".join(problems), file=sys.stderr)
    print(f"executed {len(notebooks) - len(failed)} of {len(notebooks)} chapters"
          + (f"; failed: {[pathlib.Path(u).name for u in failed]}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
