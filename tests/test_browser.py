"""The built HTML book, read in headless Chromium with no network.

These tests open every page of ``_build/html`` from ``file://`` with every
non-local request blocked, and check what a reader would notice: JavaScript
errors, TeX that MathJax left untypeset, interactive figures that do not
respond, a widget exercise whose success message cannot be reached, a search
box that finds nothing.  A screenshot of each chapter is saved under
``_build/screenshots`` for review.

They need the book (``make book``) and Debian's Chromium
(``apt-get install chromium``); without Chromium they skip and say so.
"""

import pathlib
import re
import shutil

import pytest

pytestmark = pytest.mark.browser

ROOT = pathlib.Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
SHOTS = ROOT / "_build" / "screenshots"
CHAPTERS = sorted(p.stem for p in (ROOT / "book").glob("[0-9][0-9]_*.ipynb"))
API_PAGES = sorted("api/" + p.stem for p in (ROOT / "book" / "api").glob("*.md"))
OTHER_PAGES = ["intro", "notation", *API_PAGES, "bibliography", "status"]

# Console errors to tolerate, each with the reason it is harmless.  Empty: the
# two Jupyter Book 1 ones are gone (book/_ext/svmlib_reading.py drops
# sphinx-thebe and sets the theme's default colour mode).  Kept as the one
# place to add such an entry (tests/test_browser_navigation.py uses it too).
KNOWN_NOISE = {}

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-dev-shm-usage", "--disable-component-update", "--no-first-run"]


#: Timeout (ms) of every wait for a condition in the browser tests: far more
#: than an idle machine needs (a loaded one is two or three times slower), so
#: that a test fails because its condition never comes, never because the
#: machine is slow.  No test waits for a fixed time.
WAIT_MS = 90_000

# Settled: `probe(arg)` has given the same value (compared as JSON) for
# `frames` animation frames in a row, and no CSS transition or finite CSS
# animation is running on the page (a blinking text cursor repeats forever and
# does not count).  Polled once per animation frame by wait_for_function; the
# state between polls is kept on `window` under a key of its own per wait.
_SETTLED = """([key, arg, frames]) => {
    const probe = %s;
    const running = document.getAnimations().filter(a => a.playState === 'running'
        && a.effect && a.effect.getComputedTiming().iterations !== Infinity).length;
    const now = JSON.stringify([probe(arg), running]);
    const all = window.__svmlibSettled || (window.__svmlibSettled = {});
    const s = all[key] || (all[key] = {last: null, same: 0});
    s.same = now === s.last ? s.same + 1 : 0;
    s.last = now;
    return running === 0 && s.same >= frames;
}"""

_settle_keys = iter(range(10**9))


def settle(page, probe="() => null", arg=None, frames=5, timeout=WAIT_MS):
    """Wait until the page holds still: ``probe`` (JavaScript, a function of
    ``arg``) unchanged for ``frames`` animation frames and no transition running.

    Counted in frames, not milliseconds: a slow machine draws fewer frames per
    second, and every one of them still has to show the same state.
    """
    page.wait_for_function(_SETTLED % probe, arg=[next(_settle_keys), arg, frames],
                           polling="raf", timeout=timeout)


def wait_until(page, predicate, arg=None, timeout=WAIT_MS):
    """Wait until the JavaScript ``predicate(arg)`` is true; return whether it came.

    The caller asserts on the result with its own message (a condition that
    never comes fails the test after ``timeout`` ms, not as a bare timeout).
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    try:
        page.wait_for_function(predicate, arg=arg, polling="raf", timeout=timeout)
        return True
    except PlaywrightTimeout:
        return False


def wait_until_loaded(page, timeout=WAIT_MS):
    """After the load event: the fonts are in, and the page has drawn a few
    frames with no transition running (what its scripts do at the load event
    is done).  The text blocks may still be being laid out a few at a time
    (_static/deferred_layout.js): tests that need all of them wait for that."""
    page.wait_for_function("() => document.readyState === 'complete' "
                           "&& document.fonts.status === 'loaded'", timeout=timeout)
    settle(page, frames=2, timeout=timeout)


def _chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def browser():
    executable = _chromium()
    if executable is None:
        pytest.skip("Chromium is not installed: `apt-get install chromium` (Debian) "
                    "to run the browser tests")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="the Python package playwright is not installed "
                                          "(pip install -r requirements.txt)")
    if not (HTML / "index.html").exists():
        pytest.fail("the book is not built: run `make book` first")
    with sync_api.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


class Reader:
    """A page opened as a reader would, with the network cut off."""

    def __init__(self, browser, path):
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.blocked, self.errors = [], []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", self._console)
        self.page.goto(path.as_uri(), wait_until="load")
        wait_until_loaded(self.page)

    def _route(self, route):
        url = route.request.url
        if url.startswith(("file://", "data:", "blob:", "about:")):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def _console(self, message):
        if message.type == "error":
            self.errors.append(message.text)

    def real_errors(self):
        return [e for e in self.errors
                if not any(noise in e for noise in KNOWN_NOISE)
                # a blocked request is reported through self.blocked instead
                and "net::ERR_FAILED" not in e]

    def wait_for_math(self):
        self.page.wait_for_function(
            "() => !document.querySelector('.math') || "
            "(window.MathJax && MathJax.startup && MathJax.startup.promise)", timeout=WAIT_MS)
        self.page.evaluate(
            "() => window.MathJax && MathJax.startup ? MathJax.startup.promise : null")
        # MathJax's lazy mode types formulas as they scroll into view: all of them now
        self.page.evaluate("""async () => {
            const doc = window.MathJax && MathJax.startup && MathJax.startup.document;
            if (doc && doc.lazyTypesetAll) await doc.lazyTypesetAll();
        }""")

    def raw_tex(self):
        """Text of the article that still looks like TeX after typesetting."""
        return self.page.evaluate(r"""() => {
            const main = document.querySelector('article') || document.body;
            const copy = main.cloneNode(true);
            copy.querySelectorAll('mjx-container, pre, code, script, style, .highlight, '
                                  + '.cell_input, .svmlib-widget, .MathJax_Preview, dt.sig')
                .forEach(e => e.remove());
            const text = copy.textContent;
            const found = [];
            for (const pattern of ['$$', '\\frac', '\\begin{', '\\mathbf', '\\langle', '\\(', '\\[']) {
                const at = text.indexOf(pattern);
                if (at >= 0) found.push(text.slice(Math.max(0, at - 40), at + 40));
            }
            return found;
        }""")

    def close(self):
        self.context.close()


def _page(stem):
    return HTML / "book" / f"{stem}.html"


@pytest.fixture
def reader(browser, request):
    opened = []

    def open_page(stem):
        path = _page(stem)
        assert path.exists(), f"{path} is missing from the built book"
        opened.append(Reader(browser, path))
        return opened[-1]

    yield open_page
    for r in opened:
        r.close()


@pytest.mark.parametrize("stem", CHAPTERS + OTHER_PAGES)
def test_page_loads_offline_without_errors(reader, stem):
    r = reader(stem)
    r.wait_for_math()
    assert r.blocked == [], f"{stem} asked the network for {r.blocked[:5]}"
    assert r.real_errors() == [], f"{stem} raised JavaScript errors: {r.real_errors()[:5]}"
    assert r.raw_tex() == [], f"{stem} shows untypeset TeX near: {r.raw_tex()[:3]}"


@pytest.mark.parametrize("stem", CHAPTERS)
def test_chapter_math_is_typeset_and_screenshot_saved(reader, stem):
    r = reader(stem)
    r.wait_for_math()
    n_math = r.page.evaluate("() => document.querySelectorAll('mjx-container').length")
    assert n_math > 20, f"{stem}: only {n_math} typeset formulas"
    SHOTS.mkdir(parents=True, exist_ok=True)
    r.page.screenshot(path=str(SHOTS / f"{stem}.png"), full_page=True)


# The controls of one interactive figure, as the page offers them: for each,
# how many settings it has and a function that sets it the way a reader would
# (a range input moved, a menu changed, a Previous/Next button clicked).
_CONTROLS_JS = r"""
function svmlibControls(root) {
    const groups = [...root.querySelectorAll('.svmlib-control')];
    return groups.map((g, i) => {
        const range = g.querySelector('input[type=range]');
        const select = g.querySelector('select');
        let label = g.querySelector('label, .svmlib-label');
        label = label ? label.textContent : 'control ' + i;
        if (range) {
            return {label, size: parseInt(range.max) + 1, set: k => {
                range.value = String(k);
                range.dispatchEvent(new Event('input', {bubbles: true})); }};
        }
        if (select) {
            return {label, size: select.options.length, set: k => {
                select.selectedIndex = k;
                select.dispatchEvent(new Event('change', {bubbles: true})); }};
        }
        const prev = g.querySelector('button[data-step="-1"]');
        const next = g.querySelector('button[data-step="1"]');
        const home = () => { while (!prev.disabled) prev.click(); };
        home();
        let size = 1;
        while (!next.disabled) { next.click(); size++; }
        home();
        return {label, size, set: k => { home(); for (let j = 0; j < k; j++) next.click(); }};
    });
}
"""

# Move each control from several settings of the others, and report the
# controls that never changed the image or the readout.  (A control may do
# nothing at one setting -- the learning rate before the first update, a
# kernel's degree while the linear kernel is chosen -- but must somewhere.)
_MOVE_EACH_CONTROL = "async (root) => {" + _CONTROLS_JS + r"""
    const img = root.querySelector('img.svmlib-frame');
    const out = root.querySelector('.svmlib-readout');
    const state = () => img.getAttribute('src') + '|' + out.innerHTML;
    const controls = svmlibControls(root);
    const dead = [];
    let seed = 7;
    const random = n => { seed = (seed * 48271) % 2147483647; return seed % n; };
    controls.forEach((c, i) => {
        let alive = false;
        for (let trial = 0; trial < 12 && !alive; trial++) {
            controls.forEach((o, j) => { if (j !== i) o.set(trial === 0 ? 0 : random(o.size)); });
            c.set(0);
            const before = state();
            c.set(c.size - 1);
            alive = state() !== before;
        }
        if (!alive) dead.push(c.label);
    });
    return {n: controls.length, dead: dead};
}"""

# Try every setting of a widget exercise until its success message shows.
_REACH_GOAL = "async (root) => {" + _CONTROLS_JS + r"""
    const controls = svmlibControls(root);
    const total = controls.reduce((a, c) => a * c.size, 1);
    for (let code = 0; code < total; code++) {
        let rest = code;
        for (const c of controls) { c.set(rest % c.size); rest = Math.floor(rest / c.size); }
        if (root.querySelector('.svmlib-success')) return {reached: true, tried: code + 1, total};
    }
    return {reached: false, tried: total, total};
}"""

# Ranges must answer the keyboard too: focus one and press an arrow key.
_KEYBOARD_RANGE = r"""(root) => {
    const range = root.querySelector('input[type=range]');
    if (!range) return null;
    range.focus();
    return document.activeElement === range ? range.id : null;
}"""


@pytest.mark.parametrize("stem", CHAPTERS)
def test_interactive_figures_respond_and_goals_are_reachable(reader, stem):
    r = reader(stem)
    widgets = r.page.query_selector_all(".svmlib-widget")
    assert len(widgets) >= 2, f"{stem}: {len(widgets)} interactive figures, at least 2 expected"
    n_goals = 0
    for k, root in enumerate(widgets):
        moved = root.evaluate(_MOVE_EACH_CONTROL)
        assert moved["n"] >= 1, f"{stem}: interactive figure {k + 1} has no controls"
        assert moved["dead"] == [], (
            f"{stem}: interactive figure {k + 1}: moving {moved['dead']} changed nothing")
        labels = root.evaluate(
            "(root) => [...root.querySelectorAll('input, select')].every("
            "c => c.id && root.querySelector('label[for=\"' + c.id + '\"]'))")
        assert labels, f"{stem}: interactive figure {k + 1} has a control without a label"
        range_id = root.evaluate(_KEYBOARD_RANGE)
        if range_id is not None:
            value = r.page.eval_on_selector(f"#{range_id}", "e => e.value")
            maximum = r.page.eval_on_selector(f"#{range_id}", "e => e.max")
            r.page.keyboard.press("ArrowLeft" if value == maximum else "ArrowRight")
            after = r.page.eval_on_selector(f"#{range_id}", "e => e.value")
            assert after != value, f"{stem}: figure {k + 1}: the range does not answer the arrow keys"
        if root.query_selector(".svmlib-goal"):
            n_goals += 1
            result = root.evaluate(_REACH_GOAL)
            assert result["reached"], (
                f"{stem}: widget exercise {k + 1}: no setting out of {result['total']} "
                "shows the success message")
    assert n_goals >= 1, f"{stem}: no widget exercise (an interactive figure with a goal)"
    assert r.real_errors() == [], f"{stem}: JavaScript errors while moving controls: {r.real_errors()[:5]}"


def test_search_works_offline(browser):
    r = Reader(browser, HTML / "search.html")
    try:
        r.page.goto((HTML / "search.html").as_uri() + "?q=hyperplane", wait_until="load")
        r.page.wait_for_selector("#search-results li", timeout=WAIT_MS)
        hits = r.page.query_selector_all("#search-results li")
        assert len(hits) >= 1
        assert r.blocked == []
    finally:
        r.close()


@pytest.mark.parametrize("stem", CHAPTERS)
def test_chapter_page_within_size_budget(stem):
    """The page and the images it loads stay under 5 MB."""
    if not (HTML / "index.html").exists():
        pytest.fail("the book is not built: run `make book` first")
    page = _page(stem)
    text = page.read_text(encoding="utf-8")
    images = set(re.findall(r'src="\.\./(_images/[^"]+)"', text))
    size = page.stat().st_size + sum((HTML / name).stat().st_size for name in images)
    assert size < 5_000_000, (
        f"{stem}.html with its {len(images)} images is {size / 1e6:.2f} MB; the budget is 5 MB")
