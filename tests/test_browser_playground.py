"""The SVM playground page of the built book, used in headless Chromium offline.

A reader's gestures, one by one: a click adds a point (the picture and the
readout change), a drag moves a point, a right-click removes one, every
control retrains, the keyboard alone can do all of it, the widget exercise
can be solved, dark mode stays readable, a phone-sized screen shows the whole
playground, and no JavaScript error is raised on the way.  The solver itself is
also run in the page against svmlib.SVC on one data set.  Last, the same
notebook in JupyterLab (a server on 127.0.0.1, the notebook copied to a temporary
folder): the anywidget renders, a click adds a point, and the next cell fits
svmlib.SVC on ``pg.X, pg.y`` and finds what the page showed.

Screenshots go to ``_build/screenshots/playground-*.png`` for review.
"""

import pytest

from test_browser import (HTML, SHOTS, WAIT_MS, Reader, browser,  # noqa: F401  (the fixture)
                          settle)

pytestmark = pytest.mark.browser

PAGE = HTML / "book" / "playground.html"


@pytest.fixture
def page(browser):  # noqa: F811
    if not PAGE.exists():
        pytest.fail(f"{PAGE} is missing: build the book (make book)")
    reader = Reader(browser, PAGE)
    reader.page.wait_for_selector(".svmlib-pg canvas")
    yield reader
    reader.close()


# State of the first playground on the page: its points, readout and pixels.
# The readout without its "trained in 1.2 ms": a test that sees it change must
# see a change of the model, not of the clock.
# A solve that goes on over several frames (a slow setting, or a loaded
# machine) is waited for, up to 600 frames.
STATE = """async (k) => {
    const box = document.querySelectorAll('.svmlib-pg')[k];
    const c = box.svmlibPlayground;
    for (let n = 0; n < 600 && c.state.solving; n++) {
        await new Promise(done => requestAnimationFrame(done));
    }
    return {solving: c.state.solving, points: c.state.points.map(p => p.slice()),
            readout: box.querySelector('.pg-readout').textContent
                .replace(/ · trained in [0-9.]+ ms/, ''),
            pixels: c.canvas.toDataURL(),
            params: Object.assign({}, c.state.params),
            redraws: c.state.redraws};
}"""


# How many times the first playground has redrawn.
REDRAWS = "() => document.querySelector('.svmlib-pg').svmlibPlayground.state.redraws"


def state(r, k=0):
    return r.page.evaluate(STATE, k)


def client_of(r, x, y, k=0):
    return r.page.evaluate(
        "([k, x, y]) => document.querySelectorAll('.svmlib-pg')[k].svmlibPlayground.clientOf(x, y)",
        [k, x, y])


def scroll_to(r, k=0):
    # MathJax's lazy mode typesets formulas as they scroll into view, which
    # moves the page under the pointer: typeset them all first, then scroll
    r.page.evaluate("""async () => {
        const doc = window.MathJax && MathJax.startup && MathJax.startup.document;
        if (doc && doc.lazyTypesetAll) await doc.lazyTypesetAll();
    }""")
    scroll_canvas_into_view(r.page, k)


# The theme scrolls smoothly (CSS scroll-behavior), so a plain scrollIntoView
# is still moving the page 200 ms later and a pointer aimed at a point lands
# elsewhere: jump instantly, then wait until the canvas holds still for a few
# frames.
SCROLL_AND_SETTLE = """async (k) => {
    const canvas = document.querySelectorAll('.svmlib-pg')[k].querySelector('canvas');
    canvas.scrollIntoView({block: 'center', behavior: 'instant'});
    const frame = () => new Promise(done => requestAnimationFrame(done));
    let last = null, still = 0;
    for (let n = 0; n < 300 && still < 5; n++) {
        await frame();
        const top = canvas.getBoundingClientRect().top;
        still = top === last ? still + 1 : 0;
        last = top;
    }
}"""


def scroll_canvas_into_view(page, k=0):
    page.evaluate(SCROLL_AND_SETTLE, k)


def test_page_has_two_playgrounds_and_no_errors(page):
    r = page
    assert r.blocked == [], f"the page asked the network for {r.blocked[:5]}"
    n = r.page.evaluate("() => document.querySelectorAll('.svmlib-pg').length")
    assert n == 2
    first = state(r)
    assert len(first["points"]) == 60
    assert "22 support vectors" in first["readout"]       # what svmlib.SVC finds (the page's text)
    labels = r.page.evaluate(
        "() => [...document.querySelectorAll('.svmlib-pg input, .svmlib-pg select')]"
        ".every(c => c.id && document.querySelector('label[for=\"' + c.id + '\"]'))")
    assert labels, "a control of the playground has no label"
    assert r.real_errors() == []


def test_click_adds_a_point_and_the_picture_and_readout_change(page):
    r = page
    scroll_to(r)
    before = state(r)
    spot = client_of(r, 0.5, 1.6)
    r.page.mouse.click(spot["x"], spot["y"])
    after = state(r)
    assert len(after["points"]) == len(before["points"]) + 1
    assert after["points"][-1][2] == 1
    assert after["points"][-1][0] == pytest.approx(0.5, abs=0.02)
    assert after["readout"] != before["readout"] and "61 points" in after["readout"]
    assert after["pixels"] != before["pixels"]
    # shift-click: the other class
    spot = client_of(r, -0.8, -0.4)
    r.page.keyboard.down("Shift")
    r.page.mouse.click(spot["x"], spot["y"])
    r.page.keyboard.up("Shift")
    assert state(r)["points"][-1][2] == -1
    assert r.real_errors() == []


def test_drag_moves_a_point_and_right_click_removes_it(page):
    r = page
    scroll_to(r)
    before = state(r)
    x, y, label = before["points"][0]
    start = client_of(r, x, y)
    r.page.mouse.move(start["x"], start["y"])
    r.page.mouse.down()
    for step in range(1, 6):
        r.page.mouse.move(start["x"] + 12 * step, start["y"] - 6 * step)
    r.page.mouse.up()
    # a move during the drag redraws in the next animation frame: wait until no
    # redraw is left to come (the count of redraws holds for a few frames)
    settle(r.page, REDRAWS)
    after = state(r)
    assert len(after["points"]) == len(before["points"])
    moved = after["points"][0]
    assert moved[2] == label and (moved[0] - x) > 0.1 and (moved[1] - y) > 0.03
    assert after["pixels"] != before["pixels"]
    spot = client_of(r, moved[0], moved[1])
    r.page.mouse.click(spot["x"], spot["y"], button="right")
    gone = state(r)
    assert len(gone["points"]) == len(before["points"]) - 1
    assert r.real_errors() == []


# A finger on the canvas: pointer events of type "touch" (what a phone sends),
# dispatched at the canvas; `hold` is how long the finger stays down.
TOUCH = """async ([x, y, hold, dx]) => {
    const canvas = document.querySelector('.svmlib-pg canvas');
    const send = (type, cx, cy) => canvas.dispatchEvent(new PointerEvent(type, {
        pointerType: 'touch', pointerId: 7, isPrimary: true, button: type === 'pointermove' ? -1 : 0,
        buttons: type === 'pointerup' ? 0 : 1, clientX: cx, clientY: cy, bubbles: true}));
    send('pointerdown', x, y);
    if (dx) for (let k = 1; k <= 4; k++) send('pointermove', x + dx * k / 4, y);
    await new Promise(done => setTimeout(done, hold));
    send('pointerup', x + (dx || 0), y);
}"""


def test_long_press_removes_a_point_and_a_touch_drag_moves_one(page):
    r = page
    scroll_to(r)
    before = state(r)
    x, y, _ = before["points"][0]
    spot = client_of(r, x, y)
    # a short tap on a point neither removes nor moves it
    r.page.evaluate(TOUCH, [spot["x"], spot["y"], 100, 0])
    assert state(r)["points"] == before["points"]
    # a finger that moves is a drag, even if it stays down long
    r.page.evaluate(TOUCH, [spot["x"], spot["y"], 900, 40])
    moved = state(r)["points"]
    assert len(moved) == len(before["points"]) and moved[0][0] > x + 0.1
    # a finger held still on the point removes it
    spot = client_of(r, moved[0][0], moved[0][1])
    r.page.evaluate(TOUCH, [spot["x"], spot["y"], 900, 0])
    after = state(r)
    assert len(after["points"]) == len(before["points"]) - 1
    assert after["points"][0] == before["points"][1]
    assert r.real_errors() == []


def test_every_control_retrains(page):
    r = page
    scroll_to(r)
    ids = r.page.evaluate("() => [...document.querySelectorAll('.svmlib-pg')[0]"
                          ".querySelectorAll('input, select, button')].map(e => e.id)")
    pick = {name: next(i for i in ids if i.endswith(name))
            for name in ("-kernel", "-C", "-gamma", "-degree", "-preset", "-clear", "-classneg")}

    def changed_by(action):
        before = state(r)
        action()
        after = state(r)
        return after["redraws"] > before["redraws"] and (
            after["readout"] != before["readout"] or after["pixels"] != before["pixels"])

    assert changed_by(lambda: r.page.select_option(f"#{pick['-kernel']}", "poly"))
    assert changed_by(lambda: r.page.select_option(f"#{pick['-degree']}", "2"))
    r.page.focus(f"#{pick['-C']}")
    assert changed_by(lambda: [r.page.keyboard.press("ArrowRight") for _ in range(20)])
    assert state(r)["params"]["C"] > 1.3
    r.page.focus(f"#{pick['-gamma']}")
    assert changed_by(lambda: [r.page.keyboard.press("ArrowLeft") for _ in range(30)])
    assert state(r)["params"]["gamma"] < 0.6
    assert changed_by(lambda: r.page.select_option(f"#{pick['-kernel']}", "linear"))
    assert "margin width" in state(r)["readout"]
    assert changed_by(lambda: r.page.select_option(f"#{pick['-preset']}", "circles"))
    assert changed_by(lambda: r.page.click(f"#{pick['-clear']}"))
    assert state(r)["points"] == [] and "No points" in state(r)["readout"]
    r.page.check(f"#{pick['-classneg']}")
    spot = client_of(r, 0.0, 0.0)
    r.page.mouse.click(spot["x"], spot["y"])
    assert state(r)["points"] == [[pytest.approx(0.0, abs=0.02), pytest.approx(0.0, abs=0.02), -1]]
    assert "class +1" in state(r)["readout"]              # asks for the missing class
    assert r.real_errors() == []


def test_keyboard_only(page):
    r = page
    # Tab from the start of the page to the first playground's picture
    r.page.evaluate("() => document.querySelectorAll('.svmlib-pg')[0]"
                    ".querySelector('select').focus()")
    for _ in range(15):
        if r.page.evaluate("() => document.activeElement.tagName") == "CANVAS":
            break
        r.page.keyboard.press("Tab")
    assert r.page.evaluate("() => document.activeElement.tagName") == "CANVAS"
    before = state(r)
    r.page.keyboard.press("ArrowUp")
    r.page.keyboard.press("Enter")                        # add at the cursor
    added = state(r)
    assert len(added["points"]) == len(before["points"]) + 1
    assert added["readout"] != before["readout"]
    r.page.keyboard.press("Shift+Enter")                  # the other class
    assert state(r)["points"][-1][2] == -added["points"][-1][2]
    r.page.keyboard.press("n")                            # select the first point
    first = state(r)["points"][0]
    r.page.keyboard.press("Space")                        # pick it up
    for _ in range(3):
        r.page.keyboard.press("ArrowRight")
    r.page.keyboard.press("Space")                        # put it down
    carried = state(r)["points"][0]
    assert carried[0] > first[0] and carried[2] == first[2]
    count = len(state(r)["points"])
    r.page.keyboard.press("Delete")
    assert len(state(r)["points"]) == count - 1
    assert r.real_errors() == []


def test_the_widget_exercise_can_be_solved(page):
    r = page
    scroll_to(r, 1)
    assert r.page.evaluate("() => !document.querySelectorAll('.svmlib-pg')[1]"
                           ".querySelector('.svmlib-success')")
    spot = client_of(r, -3.5, 1.8, k=1)                   # far from the margin: still 3 SVs
    r.page.mouse.click(spot["x"], spot["y"])
    assert r.page.evaluate("() => !document.querySelectorAll('.svmlib-pg')[1]"
                           ".querySelector('.svmlib-success')")
    r.page.mouse.click(spot["x"], spot["y"], button="right")
    spot = client_of(r, 0.0, 0.0, k=1)
    r.page.mouse.click(spot["x"], spot["y"])
    assert "2 support vectors" in state(r, 1)["readout"]
    assert r.page.evaluate("() => !!document.querySelectorAll('.svmlib-pg')[1]"
                           ".querySelector('.svmlib-success')")
    SHOTS.mkdir(parents=True, exist_ok=True)
    r.page.locator(".svmlib-pg").nth(1).screenshot(path=str(SHOTS / "playground-exercise.png"))


LUMINANCE = """(color) => {
    const m = color.match(/[\\d.]+/g).map(Number);
    const lin = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(m[0]) + 0.7152 * lin(m[1]) + 0.0722 * lin(m[2]);
}"""


def test_dark_mode_is_readable(page):
    r = page
    r.page.evaluate("() => document.documentElement.setAttribute('data-theme', 'dark')")
    # the colours change by the stylesheet (maybe with a transition) and the
    # canvas is redrawn by a MutationObserver: wait until both hold still
    settle(r.page, """() => { const box = document.querySelector('.svmlib-pg');
        return [getComputedStyle(box).backgroundColor,
                getComputedStyle(box.querySelector('.pg-readout')).color,
                box.svmlibPlayground.canvas.toDataURL().length]; }""")
    colors = r.page.evaluate("""() => {
        const box = document.querySelector('.svmlib-pg');
        const style = getComputedStyle(box);
        const readout = getComputedStyle(box.querySelector('.pg-readout'));
        const canvas = box.querySelector('canvas');
        const ctx = canvas.getContext('2d');
        const corner = ctx.getImageData(2, 2, 1, 1).data;
        return {bg: style.backgroundColor, fg: readout.color,
                canvas: 'rgb(' + corner[0] + ',' + corner[1] + ',' + corner[2] + ')'};
    }""")
    bg = r.page.evaluate(LUMINANCE, colors["bg"])
    fg = r.page.evaluate(LUMINANCE, colors["fg"])
    canvas = r.page.evaluate(LUMINANCE, colors["canvas"])
    assert bg < 0.05, f"the playground stays light in dark mode: {colors['bg']}"
    assert (fg + 0.05) / (bg + 0.05) > 7, f"text contrast too low: {colors}"
    assert canvas < 0.1, f"the picture stays light in dark mode: {colors['canvas']}"
    scroll_to(r)
    SHOTS.mkdir(parents=True, exist_ok=True)
    r.page.locator(".svmlib-pg").first.screenshot(path=str(SHOTS / "playground-dark.png"))
    assert r.real_errors() == []


def test_phone_width_shows_the_whole_playground(browser):  # noqa: F811
    r = Reader(browser, PAGE)
    try:
        r.page.set_viewport_size({"width": 390, "height": 844})
        r.page.wait_for_function("() => window.innerWidth === 390", timeout=WAIT_MS)
        # the page reflows, and the playground redraws for its new width (a
        # ResizeObserver): wait until its box and its canvas hold still
        settle(r.page, """() => { const b = document.querySelector('.svmlib-pg');
            const c = b.querySelector('canvas'), r = b.getBoundingClientRect();
            return [r.left, r.right, c.width, c.getBoundingClientRect().width,
                    document.documentElement.scrollWidth]; }""")
        box = r.page.evaluate("""() => {
            const b = document.querySelector('.svmlib-pg').getBoundingClientRect();
            const c = document.querySelector('.svmlib-pg canvas');
            return {left: b.left, right: b.right, width: c.getBoundingClientRect().width,
                    pixels: c.width, dpr: window.devicePixelRatio,
                    scroll: document.documentElement.scrollWidth};
        }""")
        assert box["left"] >= 0 and box["right"] <= 390 and box["scroll"] <= 390
        assert box["width"] > 250
        assert box["pixels"] >= box["width"] * box["dpr"] - 1     # drawn at the screen's resolution
        scroll_to(r)
        spot = client_of(r, 0.5, 1.6)
        r.page.mouse.click(spot["x"], spot["y"])
        assert "61 points" in state(r)["readout"]
        SHOTS.mkdir(parents=True, exist_ok=True)
        r.page.screenshot(path=str(SHOTS / "playground-phone.png"))
        assert r.real_errors() == []
    finally:
        r.close()


# The box a finger can hit for each control: a radio button's label holds it.
TARGETS = """() => [...document.querySelector('.svmlib-pg').querySelectorAll('input, select, button')]
    .map(c => { const t = c.type === 'radio' ? c.closest('label') : c;
                const r = t.getBoundingClientRect();
                return {id: c.id, width: r.width, height: r.height}; })"""


def test_touch_targets_are_44_px_on_a_phone(browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(PAGE.as_uri(), wait_until="load")
        page.wait_for_selector(".svmlib-pg canvas")
        targets = page.evaluate(TARGETS)
        assert len(targets) >= 7          # two radios, kernel, C, gamma, degree, data, Clear
        small = [t for t in targets if t["width"] < 44 or t["height"] < 44]
        assert small == [], f"touch targets under 44 x 44 px: {small}"
        # a tap on the label of the other class selects it
        page.tap(".svmlib-pg [role=radiogroup] label:last-child")
        assert page.evaluate("() => document.querySelector('.svmlib-pg [role=radiogroup] "
                             "label:last-child input').checked")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(".svmlib-pg").first.screenshot(path=str(SHOTS / "playground-phone-controls.png"))
    finally:
        context.close()


def test_a_slow_setting_keeps_the_page_responsive_and_says_so(page):
    """200 overlapping points, polynomial kernel, gamma = 100, C = 1000: SMO
    needs far more than one frame.  The page trains a frame's share at a time,
    says "still converging" meanwhile, and a click still lands at once."""
    r = page
    from svmlib import datasets
    X, y = datasets.overlapping_blobs(n=200, random_state=0)
    points = [[round(float(a), 3), round(float(b), 3), 1 if c > 0 else -1] for (a, b), c in zip(X, y)]
    result = r.page.evaluate("""(points) => new Promise(done => {
        const c = document.querySelector('.svmlib-pg').svmlibPlayground;
        c.setPoints(points);
        c.setParams({kernel: 'poly', C: 1000, gamma: 100, degree: 3});
        const first = {readout: c.root.querySelector('.pg-readout').textContent,
                       solving: c.state.solving, n_iter: c.summary().n_iter};
        let frames = 0;
        const tick = () => {
            if (++frames < 10) { requestAnimationFrame(tick); return; }
            done({first, solving: c.state.solving, n_iter: c.summary().n_iter,
                  readout: c.root.querySelector('.pg-readout').textContent});
        };
        requestAnimationFrame(tick);
    })""", points)
    # the handler returned with part of the solve done, and the frames after it go on
    assert result["first"]["solving"] and "still converging" in result["first"]["readout"]
    assert 0 < result["first"]["n_iter"] < result["n_iter"]
    assert "still converging" in result["readout"] or "SMO stopped after" in result["readout"]
    # an edit meanwhile is taken at once: a new solve starts from the click's points
    r.page.focus(".svmlib-pg canvas")
    r.page.keyboard.press("Enter")                        # a point at the keyboard cursor
    assert r.page.evaluate("() => document.querySelector('.svmlib-pg').svmlibPlayground"
                           ".state.points.length") == 201
    assert r.real_errors() == []


def test_high_dpi_canvas_is_crisp(browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=2)
    try:
        page = context.new_page()
        page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
            ("file://", "data:", "blob:", "about:")) else route.abort())
        page.goto(PAGE.as_uri(), wait_until="load")
        page.wait_for_selector(".svmlib-pg canvas")
        sizes = page.evaluate("() => { const c = document.querySelector('.svmlib-pg canvas');"
                              " return [c.width, c.getBoundingClientRect().width]; }")
        assert sizes[0] == pytest.approx(2 * sizes[1], abs=2)
    finally:
        context.close()


def test_the_page_solver_agrees_with_svmlib(page):
    """The solver inside the page, on the preset the page starts with."""
    from svmlib.playground import preset
    from svmlib import SVC

    r = page
    summary = r.page.evaluate("() => document.querySelector('.svmlib-pg').svmlibPlayground.summary()")
    X, y = preset("moons")
    model = SVC(C=1.0, kernel="rbf", gamma=1.0).fit(X, y)
    assert summary["n_support"] == int(model.n_support_.sum())
    assert summary["objective"] == pytest.approx(model.solver_result_.objective, rel=1e-6)


# JupyterLab (with expose_app_in_browser): the notebook open and its kernel idle.
KERNEL_IDLE = """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    return !!(w && w.context && w.context.isReady && w.sessionContext
              && w.sessionContext.session && w.sessionContext.session.kernel
              && w.sessionContext.session.kernel.status === 'idle'); }"""

# Run code in the notebook's kernel (not in a cell); its stdout.
KERNEL_OUTPUT = """async (code) => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    let text = '';
    const future = kernel.requestExecute({code, store_history: false, silent: false});
    future.onIOPub = msg => { if (msg.header.msg_type === 'stream') text += msg.content.text; };
    await future.done;
    return text;
}"""

# What the kernel has of the first playground: its points and the page's summary.
KERNEL_HAS_61 = "print(len(pg.y), pg.summary.get('n_points'))"

TWO_FRAMES = ("() => new Promise(done => requestAnimationFrame("
              "() => requestAnimationFrame(done)))")


def _free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_jupyterlab_widget_syncs_points_to_python(browser, tmp_path):  # noqa: F811
    """The same notebook in JupyterLab: the anywidget renders, a click adds a point,
    and the next cell fits svmlib.SVC on pg.X, pg.y and shows what the page computed."""
    import pathlib
    import shutil as sh
    import subprocess
    import sys
    import time
    import urllib.request

    pytest.importorskip("jupyterlab")
    pytest.importorskip("anywidget")
    root = pathlib.Path(__file__).resolve().parents[1]
    sh.copy(root / "book" / "playground.ipynb", tmp_path / "playground.ipynb")
    port, token = _free_port(), "svmlib-playground-test"
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--allow-root", "--no-browser", "--ip=127.0.0.1",
         f"--port={port}", f"--IdentityProvider.token={token}",
         f"--ServerApp.root_dir={tmp_path}", "--LabApp.news_url=None",
         "--LabApp.expose_app_in_browser=True"],      # window.jupyterapp, for the waits below
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = None
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 180                # a loaded machine starts it slowly
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("JupyterLab did not start within 180 s")
                time.sleep(0.5)                           # the polling interval
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        errors = []

        def page_error(exc):
            # JupyterLab's own cell toolbar (pkg:cell-toolbar) sometimes raises
            # "Cannot read properties of undefined (reading 'node')" from its
            # overlap check while the notebook is re-laid out: not the widget's
            # error, and only that one is let through, by its stack
            if "_cellToolbarOverlapsContents" in (exc.stack or ""):
                return
            errors.append(str(exc))

        page.on("pageerror", page_error)
        page.goto(f"{base}/lab/tree/playground.ipynb?token={token}")
        page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=WAIT_MS)
        # the notebook is ready when its kernel is (as in tests/test_jupyterlab.py)
        page.wait_for_function(KERNEL_IDLE, timeout=2 * WAIT_MS, polling=500)
        page.click("text=Run", timeout=WAIT_MS)
        page.click("text=Run All Cells", timeout=WAIT_MS)
        page.wait_for_selector(".jp-OutputArea .svmlib-pg canvas", timeout=2 * WAIT_MS)
        page.wait_for_function("document.querySelectorAll('.svmlib-pg').length === 2",
                               timeout=WAIT_MS)
        radios = page.evaluate("[...document.querySelectorAll('.svmlib-pg')].map(b => "
                               "[...b.querySelectorAll('input[type=radio]')].map(r => r.checked))")
        assert radios == [[True, False], [True, False]]
        scroll_canvas_into_view(page)
        spot = page.evaluate("document.querySelector('.svmlib-pg').svmlibPlayground.clientOf(0.5, 1.6)")
        page.mouse.click(spot["x"], spot["y"])
        page.wait_for_function("document.querySelector('.svmlib-pg .pg-readout')"
                               ".textContent.startsWith('61 points')", timeout=WAIT_MS)
        # the page sends the points and its summary to Python (anywidget traits):
        # ask the kernel until it has them, before the next cell reads them
        deadline = time.monotonic() + WAIT_MS / 1000
        synced = False
        while not synced and time.monotonic() < deadline:
            synced = page.evaluate(KERNEL_OUTPUT, KERNEL_HAS_61) == "61 61\n"
            if not synced:
                page.evaluate(TWO_FRAMES)
        assert synced, "the playground's 61 points never reached the kernel"
        cell = page.locator(".jp-CodeCell", has_text="pg.summary.get").first
        cell.scroll_into_view_if_needed()
        cell.locator(".cm-content").click()
        page.keyboard.press("Shift+Enter")
        output = cell.locator(".jp-OutputArea")
        output.filter(has_text="the page:").wait_for(timeout=WAIT_MS)
        text = output.inner_text()
        assert "playground's 61 points" in text
        fitted = int(text.split("61 points: ")[1].split(" support")[0])
        shown = int(text.split("the page: ")[1].split(" support")[0])
        assert fitted == shown
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(".svmlib-pg").first.screenshot(path=str(SHOTS / "playground-jupyterlab.png"))
        assert errors == []
    finally:
        if context is not None:
            context.close()
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
