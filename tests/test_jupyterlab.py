"""The Jupyter path: the chapters opened and run in JupyterLab, in headless Chromium.

An author who types ``make lab-source`` reads the chapters in JupyterLab, where
jupyterlab-myst renders the MyST markup and the interactive figures are live
ipywidgets.  These tests start JupyterLab from the project's venv on a free
local port (no token, no browser, temporary settings and a temporary copy of
the chapters, so nothing in ``book/`` is touched), and check what the learner
would see:

* every chapter (all ten): every markdown cell rendered, no raw MyST role or
  directive left as text (``{numref}``, ```` ```{exercise} ````, ``:label:``),
  the solutions collapsed, and the stored answers of the code exercises
  (with the other code cells of their solutions) collapsed; a screenshot is saved under ``_build/screenshots/jupyterlab``;
* the chapters in ``RUN_ALL`` (three by default; ``SVMLIB_LAB_RUN_ALL=all`` for
  every chapter): "Run All Cells", then no cell error, every interactive
  figure present and redrawn when one of its controls moves, and every widget
  exercise's success message reached by moving its controls in the page to a
  setting that meets the goal (the kernel names which setting; the browser
  moves the controls there as a learner would).

Running all ten chapters live takes several minutes on two cores, longer than
this suite should; the three chosen cover the three kinds of control (slider,
menu, stepper) and two widget exercises.  The server is stopped at the end,
also when a test fails.  Needs Debian's Chromium; skips, saying so, without it.
"""

import html
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

from test_browser import WAIT_MS, settle, wait_until

pytestmark = pytest.mark.browser

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = pathlib.Path(sys.executable).parent
CHAPTERS = sorted(p.stem for p in (ROOT / "book").glob("[0-9][0-9]_*.ipynb"))
SHOTS = ROOT / "_build" / "screenshots" / "jupyterlab"
RUN_ALL = (CHAPTERS if os.environ.get("SVMLIB_LAB_RUN_ALL") == "all"
           else ["01_hyperplanes", "04_lagrange_kkt", "07_smo"])

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-dev-shm-usage", "--disable-component-update", "--no-first-run"]

# Text that only shows when MyST was not rendered.
RAW_MYST = [
    (re.compile(r"\{(?:numref|ref|eq|prf:ref|cite(?::[tp])?|glue(?::text)?|doc|term|math)\}`"),
     "a role"),
    (re.compile(r"(?:`{3,}|:{3,})\{[A-Za-z:-]+\}"), "a directive fence"),
    (re.compile(r"^:(?:label|class|name|nonumber):", re.M), "a directive option"),
]


def _chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_settings(directory):
    """User settings for a repeatable, quiet JupyterLab."""
    settings = {
        # every cell in the DOM (JupyterLab 4 otherwise renders only what is on screen)
        "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
        # never write the executed copies back (they are temporary anyway)
        "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
        # no news or update checks over the network
        "@jupyterlab/apputils-extension/notification": {"fetchNews": "false",
                                                        "checkForUpdates": False},
    }
    for plugin, values in settings.items():
        package, name = plugin.rsplit("/", 1)
        path = directory / package / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")


class Lab:
    """A JupyterLab server started for these tests, on a copy of the chapters."""

    def __init__(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="svmlib-lab-"))
        self.root = self.tmp / "book"
        self.root.mkdir()
        for stem in CHAPTERS:
            shutil.copy(ROOT / "book" / f"{stem}.ipynb", self.root)
        _write_settings(self.tmp / "settings")
        # the same custom.css as `make lab-source` (book/_lab is its config dir)
        shutil.copytree(ROOT / "book" / "_lab" / "custom", self.tmp / "config" / "custom")
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ,
                   JUPYTER_CONFIG_DIR=str(self.tmp / "config"),
                   JUPYTER_RUNTIME_DIR=str(self.tmp / "runtime"),
                   JUPYTERLAB_SETTINGS_DIR=str(self.tmp / "settings"),
                   JUPYTERLAB_WORKSPACES_DIR=str(self.tmp / "workspaces"))
        env.pop("SVMLIB_STATIC_WIDGETS", None)     # live widgets, as in `make lab-source`
        command = [str(BIN / "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1",
                   f"--port={self.port}", "--port-retries=0",
                   "--IdentityProvider.token=", "--ServerApp.password=",
                   f"--ServerApp.root_dir={self.root}",
                   "--LabApp.expose_app_in_browser=True", "--LabApp.custom_css=True"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-root")      # CI containers run as root
        self.log_path = self.tmp / "server.log"
        self._log = open(self.log_path, "w")
        self.process = subprocess.Popen(command, env=env, stdout=self._log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 120
        while True:
            if self.process.poll() is not None:
                self.stop()
                raise RuntimeError(f"JupyterLab exited with {self.process.returncode}:\n"
                                   f"{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/status", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"JupyterLab did not answer within 120 s:\n"
                                       f"{self.log_tail()}") from None
                time.sleep(0.5)

    def log_tail(self):
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-3000:]
        except OSError:
            return ""

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)     # the server and its kernels
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self._log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def lab():
    if _chromium() is None:
        pytest.skip("Chromium is not installed: `apt-get install chromium` (Debian) "
                    "to run the browser tests")
    pytest.importorskip("playwright.sync_api", reason="the Python package playwright is "
                        "not installed (pip install -r requirements.txt)")
    if not (BIN / "jupyter").exists():
        pytest.fail(f"no jupyter next to {sys.executable}: run the tests from the venv "
                    f"(`make setup`, then .venv/bin/pytest)")
    server = Lab()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser(lab):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def chapter_page(lab, browser):
    """Open a chapter in JupyterLab; close it and stop its kernel afterwards."""
    opened = []

    def open_chapter(stem):
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(120_000)
        errors = []

        def page_error(exc):
            # JupyterLab's own cell toolbar (pkg:cell-toolbar) now and then
            # raises "Cannot read properties of undefined (reading 'node')"
            # from its overlap check while a notebook is laid out again: not
            # the book's error; only that one is let through, by its stack
            # (as in tests/test_browser_playground.py)
            if "_cellToolbarOverlapsContents" in (exc.stack or ""):
                return
            errors.append(str(exc))

        page.on("pageerror", page_error)
        opened.append((context, page))
        page.goto(f"{lab.url}/lab/tree/{stem}.ipynb?reset", wait_until="load")  # no restored tabs
        page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=240_000)
        # the notebook is ready when its kernel is (then every cell is attached)
        page.wait_for_function(
            "() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
            " return w && w.context && w.context.isReady && w.sessionContext"
            " && w.sessionContext.session && w.sessionContext.session.kernel"
            " && w.sessionContext.session.kernel.status === 'idle'; }",
            timeout=240_000, polling=500)
        page.js_errors = errors
        return page

    yield open_chapter
    for context, page in opened:
        # stop the chapter's kernel (one at a time keeps two cores responsive);
        # through the page, which holds the server's XSRF cookie
        try:
            page.evaluate("async () => await window.jupyterapp.serviceManager.sessions"
                          ".shutdownAll()")
        except Exception as exc:       # the page may be gone after a failure
            print(f"could not stop the kernel of {page.url}: {exc}")
        context.close()


def _render_all_markdown(page):
    """Scroll every markdown cell into view once, so that each is rendered."""
    page.evaluate("""async () => {
        for (const cell of document.querySelectorAll('.jp-MarkdownCell')) {
            cell.scrollIntoView();
            await new Promise(r => requestAnimationFrame(r));   // let it be seen
        }
        document.querySelector('.jp-Cell').scrollIntoView();   // back to the top
    }""")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-MarkdownCell')]"
        ".every(c => c.classList.contains('jp-mod-rendered'))", timeout=2 * WAIT_MS, polling=500)


def _markdown_texts(page):
    return page.evaluate(r"""() => [...document.querySelectorAll('.jp-MarkdownCell')].map(c => {
        // what the reader sees: the rendering, not the (hidden) editor
        const copy = c.cloneNode(true);
        copy.querySelectorAll('.jp-InputArea-editor, .cm-editor, .jp-InputPrompt, '
                              + 'pre, code, .katex-mathml').forEach(e => e.remove());
        return copy.textContent;
    })""")


# Where the notebook is scrolled to: the first cell's place in the window.
_SCROLLED = "() => document.querySelector('.jp-Cell').getBoundingClientRect().top"


def _screenshot(page, stem, suffix=""):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{stem}{suffix}.png"))


@pytest.mark.parametrize("stem", CHAPTERS)
def test_chapter_renders_without_raw_myst(chapter_page, stem):
    page = chapter_page(stem)
    _render_all_markdown(page)
    problems = []
    for index, text in enumerate(_markdown_texts(page)):
        for pattern, what in RAW_MYST:
            match = pattern.search(text)
            if match:
                start = max(0, match.start() - 40)
                problems.append(f"markdown cell {index}: {what} left as text: "
                                f"{text[start:match.end() + 40]!r}")
    assert not problems, f"{stem}: raw MyST in JupyterLab:\n" + "\n".join(problems[:10])

    # References to other chapters and citations cannot resolve inside one
    # notebook: they must read as text, without jupyterlab-myst's warning icon.
    unresolved = page.evaluate("""() => {
        const spans = [...document.querySelectorAll('.jp-MarkdownCell span[title$="Not Found"]')];
        return {n: spans.length,
                icons: spans.filter(s => { const i = s.querySelector('svg');
                    return i && i.getBoundingClientRect().width > 0; }).map(s => s.textContent),
                yellow: spans.filter(s => getComputedStyle(s).color === 'rgb(202, 138, 4)').length};
    }""")
    assert unresolved["icons"] == [], (
        f"{stem}: warning icons on {unresolved['icons'][:5]} (is book/_lab/custom/custom.css loaded?)")
    assert unresolved["yellow"] == 0, f"{stem}: unresolved references still shown as warnings"

    # Solutions are collapsed: a {solution} is a closed dropdown, and the
    # code cells of a gated solution are collapsed (their source and outputs).
    state = page.evaluate("""() => {
        const w = window.jupyterapp.shell.currentWidget.content;
        const answers = w.widgets.filter(c => (c.model.getMetadata('tags') || [])
            .some(t => t === 'exercise-answer' || t === 'exercise-solution'));
        return {answers: answers.length,
                open: answers.filter(c => !c.inputHidden || !c.outputHidden).length,
                solutions: document.querySelectorAll('.jp-MarkdownCell details').length,
                expanded: document.querySelectorAll('.jp-MarkdownCell details[open]').length};
    }""")
    assert state["answers"] >= 1, f"{stem}: no stored answer of a code exercise is marked"
    assert state["open"] == 0, f"{stem}: {state['open']} stored answers are shown expanded"
    assert state["expanded"] == 0, f"{stem}: {state['expanded']} solutions are shown expanded"
    # look at it: the top of the chapter and its exercises
    _screenshot(page, stem)
    page.evaluate("""() => { const h = [...document.querySelectorAll('.jp-MarkdownCell h2')]
        .find(e => e.textContent.startsWith('Exercises')); if (h) h.scrollIntoView(); }""")
    settle(page, _SCROLLED)                   # the notebook has stopped scrolling
    _screenshot(page, stem, "-exercises")
    page.evaluate("""() => { const w = window.jupyterapp.shell.currentWidget.content;
        const i = w.widgets.findIndex(c => (c.model.getMetadata('tags') || [])
                                           .includes('exercise-answer'));
        if (i > 0) w.widgets[i - 1].node.scrollIntoView(); }""")
    settle(page, _SCROLLED)
    _screenshot(page, stem, "-answer")
    assert page.js_errors == [], f"{stem}: JavaScript errors: {page.js_errors[:5]}"


# --- run all cells, then use the interactive figures --------------------------

# The interactive figures of the page: svmlib's live view is a VBox whose
# children are the controls, an Image (the figure) and an HTML readout.
_FIGURES_JS = r"""() => [...document.querySelectorAll('.jp-OutputArea-output .widget-vbox')]
    .filter(box => box.querySelector(':scope > .widget-image'))"""

# In the kernel: each live svmlib figure with a goal, the control positions of
# the setting that meets the goal closest to the current one; and
# _svmlib_position(goal), where that figure's controls are now.
_GOAL_SETTINGS = r"""
import gc as _gc, json as _json
from svmlib.widgets import InteractiveFigure as _IF
_svmlib_figures = {}
def _svmlib_goal_settings():
    found = []
    for fig in _gc.get_objects():
        if not isinstance(fig, _IF) or fig.goal is None or getattr(fig, "_view", None) is None:
            continue
        names = list(fig.controls)
        now = [fig.controls[n].index_of(fig._live["values"][n]) for n in names]
        best = None
        for values in fig.settings():
            if fig.goal(**values):
                target = [fig.controls[n].index_of(values[n]) for n in names]
                cost = sum(abs(a - b) for a, b in zip(target, now))
                if best is None or cost < best[0]:
                    best = (cost, target)
        _svmlib_figures[str(fig.goal_text)] = fig
        found.append({"goal": str(fig.goal_text), "kinds": [fig.controls[n].kind for n in names],
                      "now": now, "target": None if best is None else best[1]})
    return found
def _svmlib_position(goal):     # where the controls of that figure are, in the kernel
    fig = _svmlib_figures[goal]
    print("SVMLIB-NOW" + _json.dumps([fig.controls[n].index_of(fig._live["values"][n])
                                       for n in fig.controls]))
print("SVMLIB-GOALS" + _json.dumps(_svmlib_goal_settings()))
"""


def _kernel_output(page, code):
    """Run ``code`` in the notebook's kernel (not in a cell); return its stdout."""
    return page.evaluate("""async (code) => {
        const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
        let text = '';
        const future = kernel.requestExecute({code, store_history: false});
        future.onIOPub = msg => {
            if (msg.header.msg_type === 'stream') text += msg.content.text;
            if (msg.header.msg_type === 'error') text += 'ERROR ' + msg.content.ename + ': '
                                                        + msg.content.evalue;
        };
        await future.done;
        return text;
    }""", code)


def _cell_errors(page):
    return page.evaluate("""() => {
        const nb = window.jupyterapp.shell.currentWidget.content;
        const errors = [];
        nb.widgets.forEach((cell, i) => {
            if (cell.model.type !== 'code') return;
            for (const o of cell.model.outputs.toJSON())
                if (o.output_type === 'error') errors.push(`cell ${i}: ${o.ename}: ${o.evalue}`);
        });
        return errors;
    }""")


def _figure_state(figure):
    return figure.evaluate("""box => {
        const img = box.querySelector(':scope > .widget-image');
        const html = [...box.querySelectorAll(':scope > .widget-html')].map(h => h.innerHTML);
        return (img ? img.getAttribute('src') : '') + '|' + html.join('|');
    }""")


def _controls(figure):
    """The control rows of a figure, in order: (kind, element handle)."""
    rows = []
    for child in figure.query_selector_all(":scope > *"):
        cls = child.get_attribute("class") or ""
        if "widget-dropdown" in cls:
            rows.append(("choice", child))
        elif "widget-slider" in cls:
            rows.append(("slider", child))
        elif "widget-hbox" in cls and child.query_selector(".widget-slider"):
            rows.append(("stepper", child))
    return rows


def _slider_position(row):
    """A slider's (or a stepper's) position and last position, as its handle says."""
    handle = row.query_selector(".noUi-handle")
    return (round(float(handle.get_attribute("aria-valuenow"))),
            round(float(handle.get_attribute("aria-valuemax"))))


def _set_control(page, kind, row, index, current):
    """Move one control to position ``index`` as a learner would."""
    if kind == "choice":
        row.query_selector("select").select_option(index=index)
        return
    handle = row.query_selector(".noUi-handle")
    handle.focus()
    key = "ArrowRight" if index > current else "ArrowLeft"
    for _ in range(abs(index - current)):
        before = handle.get_attribute("aria-valuenow")
        page.keyboard.press(key)
        # one step at a time: the handle has moved before the next key press
        wait_until(page, "([h, before]) => h.getAttribute('aria-valuenow') !== before",
                   [handle, before])


def _wait_for_change(page, figure, before):
    """Wait until the figure's image or readout differs from ``before``; whether it did."""
    return wait_until(page, """([box, before]) => {
        const img = box.querySelector(':scope > .widget-image');
        const html = [...box.querySelectorAll(':scope > .widget-html')].map(h => h.innerHTML);
        return (img ? img.getAttribute('src') : '') + '|' + html.join('|') !== before; }""",
                      [figure, before])


def _wait_for_kernel_position(page, goal, k, index):
    """Wait until control ``k`` of the kernel's figure of ``goal`` is at ``index``
    (the browser sends each move to the kernel, which then redraws the figure)."""
    code = f"_svmlib_position({goal!r})"
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        output = _kernel_output(page, code)
        if ("SVMLIB-NOW" in output
                and json.loads(output.split("SVMLIB-NOW", 1)[1])[k] == index):
            return True
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return False


@pytest.mark.parametrize("stem", RUN_ALL)
def test_run_all_cells_then_figures_respond_and_goals_are_reachable(chapter_page, stem):
    page = chapter_page(stem)
    finished = page.evaluate(
        "async () => await window.jupyterapp.commands.execute('notebook:run-all-cells')")
    errors = _cell_errors(page)
    assert errors == [], f"{stem}: cells raised errors in JupyterLab:\n" + "\n".join(errors)
    assert finished, f"{stem}: Run All Cells did not finish cleanly"

    figures = page.query_selector_all(".jp-OutputArea-output .widget-vbox")
    figures = [f for f in figures if f.query_selector(":scope > .widget-image")]
    assert len(figures) >= 2, f"{stem}: {len(figures)} live interactive figures, at least 2 expected"
    for k, figure in enumerate(figures):
        figure.scroll_into_view_if_needed()
        controls = _controls(figure)
        assert controls, f"{stem}: interactive figure {k + 1} has no controls"
        responded = False
        for kind, row in controls:        # the first control that redraws is enough
            if row.query_selector("select:disabled, .noUi-target[disabled]"):
                continue                  # a control that does nothing at this setting
            before = _figure_state(figure)
            if kind == "choice":
                now = row.evaluate("r => r.querySelector('select').selectedIndex")
                _set_control(page, kind, row, 1 if now == 0 else 0, now)
            else:
                now, last = _slider_position(row)    # one step, away from the end it is at
                _set_control(page, kind, row, now + 1 if now < last else now - 1, now)
            if _wait_for_change(page, figure, before):
                responded = True
                break
        assert responded, f"{stem}: interactive figure {k + 1} did not redraw when its controls moved"

    # Widget exercises: the kernel says which setting meets each goal; move there.
    output = _kernel_output(page, _GOAL_SETTINGS)
    assert "SVMLIB-GOALS" in output, f"{stem}: could not list the widget exercises: {output}"
    goals = json.loads(output.split("SVMLIB-GOALS", 1)[1])
    assert goals, f"{stem}: no widget exercise (a live figure with a goal)"
    for goal in goals:
        assert goal["target"] is not None, f"{stem}: no setting meets the goal {goal['goal']!r}"
        # the figure whose header shows this goal (its text, without markup)
        words = " ".join(html.unescape(re.sub(r"<[^>]+>", "", goal["goal"])).split()[:4])
        figure = next((f for f in figures if words in " ".join(f.inner_text().split())), None)
        assert figure is not None, f"{stem}: the figure of the goal {goal['goal']!r} is not on the page"
        figure.scroll_into_view_if_needed()
        # the controls may have been moved above: ask the kernel again for this figure
        controls = _controls(figure)
        assert [kind for kind, _ in controls] == goal["kinds"], (
            f"{stem}: the figure's controls {[k for k, _ in controls]} differ from {goal['kinds']}")
        fresh = json.loads(_kernel_output(page, _GOAL_SETTINGS).split("SVMLIB-GOALS", 1)[1])
        goal = next(g for g in fresh if g["goal"] == goal["goal"])
        for k, ((kind, row), target) in enumerate(zip(controls, goal["target"])):
            # where the control is now (a move of another one may have clamped a stepper)
            now = (row.evaluate("r => r.querySelector('select').selectedIndex")
                   if kind == "choice" else _slider_position(row)[0])
            if now != target:
                _set_control(page, kind, row, target, now)
                # the kernel has this move (and has redrawn) before the next control
                # moves: a move can change what another control offers
                assert _wait_for_kernel_position(page, goal["goal"], k, target), (
                    f"{stem}: control {k + 1} of {goal['goal']!r} never reached {target} "
                    "in the kernel")
        page.wait_for_function(
            "(box) => box.textContent.includes('\u2705')", arg=figure, timeout=WAIT_MS,
            polling=300)
        _screenshot(page, stem, "-goal")
    assert _cell_errors(page) == []
    assert page.js_errors == [], f"{stem}: JavaScript errors: {page.js_errors[:5]}"
