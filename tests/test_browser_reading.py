"""The reader's experience of the built book, on a desktop and on a phone.

Headless Chromium, offline, every page at 1440x900 and at 390x844 (2x
density, touch): no sideways page scroll, no console error, every formula
either fits its box or can be scrolled, figures with real alt text,
interactive figures drawn for the screen (the phone layout on a phone,
2x frames, loaded only when they come into view), touch-sized sliders, pages
that stay light, search that ranks chapters first, bibliography entries that
link back to where they are cited.  Timings are in benchmarks/bench_pages.py,
not here.
"""

import gzip
import pathlib
import re
import time
import urllib.parse

import pytest

from test_browser import (CHAPTERS, CHROMIUM_ARGS, HTML, OTHER_PAGES, ROOT,  # noqa: F401
                          WAIT_MS, browser, settle, wait_until, wait_until_loaded)

pytestmark = pytest.mark.browser

PAGES = ([f"book/{s}" for s in CHAPTERS + OTHER_PAGES]
         + ["genindex", "search", "py-modindex"])
DESKTOP = dict(viewport={"width": 1440, "height": 900})
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
             has_touch=True)
SCREENS = {"desktop": DESKTOP, "phone": PHONE}
#: Bytes a chapter may load before the reader scrolls or clicks (as sent by a
#: web server with gzip; benchmarks/pages.md also gives the sizes on disk).
FIRST_VIEW_BUDGET = 2_000_000


class Visit:
    """One page in a fresh context with the network cut off; records requests and errors."""

    def __init__(self, browser, name, screen):
        self.context = browser.new_context(**SCREENS[screen])
        self.requested, self.blocked, self.errors = [], [], []
        self.in_flight = set()
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("request", lambda r: self.in_flight.add(r))
        self.page.on("requestfinished", lambda r: self.in_flight.discard(r))
        self.page.on("requestfailed", lambda r: self.in_flight.discard(r))
        self.page.goto((HTML / f"{name}.html").as_uri(), wait_until="load")
        self.page.wait_for_function(
            "() => !document.querySelector('.math') || "
            "(window.MathJax && MathJax.startup && MathJax.startup.promise)", timeout=WAIT_MS)
        self.page.evaluate("() => window.MathJax && MathJax.startup ? "
                           "MathJax.startup.promise : null")
        wait_until_loaded(self.page)

    def _route(self, route):
        url = route.request.url
        if url.startswith("file://"):
            self.requested.append(url)
            route.continue_()
        elif url.startswith(("data:", "blob:", "about:")):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def wait_until_quiet(self, frames=10):
        """Wait until the page has done what it does by itself after loading:
        its text blocks all laid out (_static/deferred_layout.js marks the root
        element when it is done), then no request in flight and none new for
        ``frames`` animation frames in a row (what comes into view once the
        layout is final is fetched by then)."""
        self.page.wait_for_function("() => 'svmlibLaidOut' in document.documentElement.dataset",
                                    timeout=WAIT_MS)
        deadline = time.monotonic() + WAIT_MS / 1000
        still, count = 0, None
        while still < frames:
            assert time.monotonic() < deadline, (
                f"the page still loads {len(self.in_flight)} files: "
                f"{[r.url.rsplit('/', 1)[-1] for r in self.in_flight][:5]}")
            self.page.evaluate("() => new Promise(done => requestAnimationFrame(done))")
            now = len(self.requested)
            still = still + 1 if now == count and not self.in_flight else 0
            count = now

    def typeset_all(self):
        """Typeset every formula now (MathJax's lazy mode typesets them on scrolling)."""
        self.page.evaluate("""async () => {
            const doc = window.MathJax && MathJax.startup && MathJax.startup.document;
            if (doc && doc.lazyTypesetAll) await doc.lazyTypesetAll();
        }""")

    def close(self):
        self.context.close()


@pytest.fixture
def visit(browser):  # noqa: F811
    opened = []

    def open_page(name, screen):
        opened.append(Visit(browser, name, screen))
        return opened[-1]

    yield open_page
    for v in opened:
        v.close()


def _size(url, packed=(".png", ".jpg", ".woff", ".woff2")):
    """Bytes sent for this file by a web server with gzip (images and fonts as they are)."""
    path = pathlib.Path(urllib.parse.unquote(urllib.parse.urlparse(url).path))
    if not path.is_file():
        return 0
    data = path.read_bytes()
    return len(data) if path.suffix.lower() in packed else len(gzip.compress(data, 6))


# Every formula: its nearest ancestor (or itself) that does not let content
# overflow visibly must scroll (auto/scroll) or hold the whole formula.
_CLIPPED_MATH = r"""() => {
    const bad = [];
    for (const m of document.querySelectorAll('article mjx-container')) {
        if (!m.getClientRects().length) continue;   // inside a closed <details>
        let box = m, clipped = null;
        while (box && box !== document.body) {
            const s = getComputedStyle(box);
            if (s.overflowX !== 'visible') {
                if (s.overflowX === 'hidden' || s.overflowX === 'clip') clipped = box;
                break;
            }
            box = box.parentElement;
        }
        const wide = m.scrollWidth, rect = m.getBoundingClientRect();
        if (clipped && wide > clipped.clientWidth + 1) {
            bad.push([m.textContent.slice(0, 50), wide, clipped.clientWidth]);
        } else if (!box || box === document.body) {
            if (rect.right > document.documentElement.clientWidth + 1)
                bad.push([m.textContent.slice(0, 50), rect.right, 'viewport']);
        }
    }
    return bad;
}"""


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("name", PAGES)
def test_no_sideways_scroll_no_errors_no_clipped_math(visit, name, screen):
    v = visit(name, screen)
    width = v.page.evaluate("() => document.documentElement.clientWidth")
    scroll = v.page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width, f"{name} scrolls sideways at {screen} width: {scroll} > {width} px"
    assert v.blocked == [], f"{name} asked the network for {v.blocked[:3]}"
    assert v.errors == [], f"{name} logged errors: {v.errors[:3]}"
    v.typeset_all()
    bad = v.page.evaluate(_CLIPPED_MATH)
    assert bad == [], f"{name} at {screen}: formulas cut off with no way to scroll: {bad[:5]}"


@pytest.mark.parametrize("stem", CHAPTERS)
def test_figures_have_captions_as_alt_text(visit, stem):
    v = visit(f"book/{stem}", "desktop")
    images = v.page.evaluate("""() => [...document.querySelectorAll('article img')].map(
        i => ({alt: i.getAttribute('alt') || '', src: i.getAttribute('src') || '',
               caption: (i.closest('figure') && i.closest('figure').querySelector('figcaption'))
                        ? i.closest('figure').querySelector('figcaption').textContent : null,
               widget: !!i.closest('.svmlib-widget')}))""")
    assert images, f"{stem} has no images"
    for image in images:
        alt = image["alt"].strip()
        assert len(alt) > 15, f"{stem}: alt text {alt!r} for {image['src'][:60]}"
        assert not re.search(r"\.(png|jpe?g|svg)$|_images/", alt), f"{stem}: alt is a file: {alt}"
        assert "\\math" not in alt and "\\boldsymbol" not in alt, f"{stem}: TeX in alt: {alt}"
        if image["caption"] is not None:
            # the alt text is the caption (without its "Fig. n.m" number)
            # (formulas are typeset in the caption, plain Unicode in the alt: compare words)
            caption = re.sub(r"^Fig\. [0-9.]+\s*", "", " ".join(image["caption"].split()))
            words = re.findall(r"[A-Za-z]{3,}", caption)[:5]
            assert re.findall(r"[A-Za-z]{3,}", alt)[:5] == words, (
                f"{stem}: alt {alt[:60]!r} vs caption {caption[:60]!r}")


# The frame an interactive figure shows: which layout, its pixel density, and
# the size it is shown at.
_FRAMES = r"""() => [...document.querySelectorAll('.svmlib-widget')].map(w => {
    const img = w.querySelector('img.svmlib-frame');
    const r = img.getBoundingClientRect();
    return {current: img.currentSrc, complete: img.complete, natural: img.naturalWidth,
            shown: r.width, top: r.top, column: w.clientWidth};
})"""


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("stem", CHAPTERS)
def test_interactive_figures_fit_the_screen_and_load_lazily(visit, stem, screen):
    v = visit(f"book/{stem}", screen)
    frames_before = [u for u in v.requested if "/_images/svmlib/" in u]
    widgets = v.page.evaluate(_FRAMES)
    in_view = sum(1 for w in widgets if w["top"] < 844 + 1250)  # Chromium's lazy margin
    assert len(frames_before) <= in_view, (
        f"{stem}: {len(frames_before)} frames loaded before scrolling, "
        f"{in_view} figures near the first screen")
    handles = v.page.query_selector_all(".svmlib-widget")
    for k, root in enumerate(handles):
        root.scroll_into_view_if_needed()
        v.page.wait_for_function(
            "(w) => { const i = w.querySelector('img.svmlib-frame'); "
            "return i.complete && i.naturalWidth > 0; }", arg=root, timeout=WAIT_MS)
        shot = v.page.evaluate(_FRAMES)[k]
        phone_frame = "/svmlib/" in shot["current"] and v.page.evaluate(
            "(w) => { const s = w.querySelector('source.svmlib-phone'); "
            "return !!s && matchMedia(s.media).matches; }", root)
        if screen == "phone":
            assert phone_frame, f"{stem}: figure {k + 1} does not use its phone layout"
        else:
            assert not phone_frame
        # drawn for at least 1.9x the size it is shown at, and never wider than its box
        assert shot["natural"] >= 1.9 * shot["shown"], (
            f"{stem} {screen}: figure {k + 1} has {shot['natural']} px shown at {shot['shown']}")
        assert shot["shown"] <= shot["column"] + 1
        # sliders are touch-sized
        heights = root.evaluate(
            "(w) => [...w.querySelectorAll('input[type=range]')].map("
            "i => i.getBoundingClientRect().height)")
        assert all(h >= 44 for h in heights), f"{stem}: slider heights {heights}"
    # moving a control loads one frame file, no inline image data
    if handles:
        before = len(v.requested)
        frame = handles[-1].evaluate("(w) => w.querySelector('img.svmlib-frame').currentSrc")
        moved = handles[-1].evaluate("""(w) => {
            const c = w.querySelector('input[type=range], select');
            if (!c) return false;
            if (c.tagName === 'SELECT') c.selectedIndex = (c.selectedIndex + 1) % c.options.length;
            else c.value = String((parseInt(c.value) + 1) % (parseInt(c.max) + 1));
            c.dispatchEvent(new Event('input', {bubbles: true}));
            c.dispatchEvent(new Event('change', {bubbles: true}));
            return true; }""")
        if moved:
            # the figure shows another frame once that file has come
            wait_until(v.page, """([w, frame]) => { const i = w.querySelector('img.svmlib-frame');
                return i.currentSrc !== frame && i.complete && i.naturalWidth > 0; }""",
                       [handles[-1], frame])
            assert len(v.requested) > before
        src = handles[-1].evaluate("(w) => w.querySelector('img.svmlib-frame').src")
        assert not src.startswith("data:")
    assert v.errors == []


@pytest.mark.parametrize("stem", CHAPTERS)
def test_chapter_is_light_before_the_first_interaction(visit, stem):
    v = visit(f"book/{stem}", "phone")
    # "before the first interaction": all that the page loads by itself
    v.wait_until_quiet()
    loaded = sorted(set(v.requested))
    total = sum(_size(u) for u in loaded)
    assert total < FIRST_VIEW_BUDGET, (
        f"{stem}: {total / 1e6:.2f} MB before the first interaction; the largest: "
        f"{sorted(((_size(u), u.rsplit('/', 1)[-1]) for u in loaded), reverse=True)[:4]}")
    names = " ".join(loaded)
    assert "sphinx-thebe" not in names
    assert not [u for u in loaded if "fontawesome" in u and u.split("?")[0].endswith(".js")], (
        "FontAwesome's JavaScript is loaded (the theme's stylesheet has the icons)")
    assert "searchindex.js" not in names
    assert "tex-chtml.js" not in names, "MathJax is loaded: the formulas are typeset at build time"
    # the theme's icons still show (web font from the theme's stylesheet)
    family = v.page.evaluate(
        "() => { const i = document.querySelector('.fa-solid, .fa-brands, .fas'); "
        "return i ? getComputedStyle(i, '::before').fontFamily : 'none'; }")
    assert family == "none" or "Font Awesome" in family


@pytest.mark.parametrize("stem", ["04_lagrange_kkt", "08_kernels"])
def test_formulas_are_typeset_in_the_page(visit, stem):
    """No MathJax in the browser: every formula arrives typeset (book/_ext/svmlib_math.py),
    drawn in MathJax's fonts, with its MathML for screen readers."""
    v = visit(f"book/{stem}", "desktop")
    v.page.evaluate("() => document.fonts.ready")
    found = v.page.evaluate(r"""() => {
        const wrappers = [...document.querySelectorAll('.svmlib-math')];
        return {wrappers: wrappers.length,
                typeset: wrappers.filter(w => w.querySelector(
                    ':scope > mjx-container > mjx-math[aria-hidden="true"]')
                    && w.querySelector(':scope > mjx-container > mjx-assistive-mml > math')).length,
                numbered: document.querySelectorAll('div.svmlib-math > span.eqno').length,
                tex: document.querySelectorAll('.math').length,
                mathjax: typeof window.MathJax,
                fonts: [...document.fonts].filter(f => /^MJXZERO|^MJXTEX/.test(f.family)
                                                  && f.status === 'loaded').length};
    }""")
    assert found["wrappers"] > 100 and found["typeset"] == found["wrappers"], found
    assert found["numbered"] > 5, found
    assert found["tex"] == 0 and found["mathjax"] == "undefined", found
    assert found["fonts"] >= 3, found
    assert not [u for u in v.requested if "tex-chtml" in u]
    assert v.errors == [] and v.blocked == []
    # an equation's number sits to the right of its formula, on the same line
    row = v.page.evaluate("""() => { const d = document.querySelector('div.svmlib-math');
        const m = d.querySelector('mjx-container').getBoundingClientRect();
        const n = d.querySelector('span.eqno').getBoundingClientRect();
        return [m.left, m.right, m.top, m.bottom, n.left, n.top, n.bottom]; }""")
    assert row[4] >= row[1] - 1 and row[5] < row[3] and row[6] > row[2], row


def test_perceptron_stepper_redraws_when_order_or_rate_change(visit):
    v = visit("book/02_perceptron", "desktop")
    root = v.page.query_selector(".svmlib-widget:has(button[data-step])")
    assert root is not None
    for index in (0, 1):
        changed = root.evaluate("""(w, k) => {
            const img = w.querySelector('img.svmlib-frame');
            const selects = [...w.querySelectorAll('select')];
            const before = img.getAttribute('src');
            const s = selects[k];
            s.selectedIndex = (s.selectedIndex + 1) % s.options.length;
            s.dispatchEvent(new Event('change', {bubbles: true}));
            return img.getAttribute('src') !== before; }""", index)
        assert changed, f"select {index + 1} of the stepper changes nothing at the start"


def test_search_ranks_the_chapter_above_the_api(browser):  # noqa: F811
    context = browser.new_context(**DESKTOP)
    try:
        page = context.new_page()
        page.goto((HTML / "search.html").as_uri() + "?q=kernel", wait_until="load")
        page.wait_for_selector("#search-results li", timeout=WAIT_MS)
        page.wait_for_function(
            "() => document.querySelector('#search-results p.search-summary') && "
            "!document.querySelector('#search-progress')?.textContent.includes('Preparing')",
            timeout=WAIT_MS)
        first = page.eval_on_selector("#search-results li a", "a => a.getAttribute('href')")
        assert re.search(r"book/\d\d_", first), f"first result for 'kernel': {first}"
    finally:
        context.close()


def test_bibliography_links_back_to_citing_pages(visit):
    v = visit("book/bibliography", "desktop")
    entries = v.page.evaluate("""() => [...document.querySelectorAll('div.citation')].map(
        d => [d.id, [...d.querySelectorAll('.svmlib-backrefs a')].map(a => a.getAttribute('href'))])""")
    assert entries
    with_links = [e for e in entries if e[1]]
    assert len(with_links) >= 0.9 * len(entries), (
        f"only {len(with_links)} of {len(entries)} entries link back to a citation")
    for _, hrefs in with_links:
        for href in hrefs:
            page, anchor = href.split("#")
            text = (HTML / "book" / page).read_text(encoding="utf-8")
            assert f'id="{anchor}"' in text, f"back-link {href} has no target"


# ------------------------------------------------------ static figures, enlarged

#: The smallest text a reader must be able to read, CSS px (issue 17).
LEGIBLE_PX = 11


def _smallest_figure_text_px():
    """CSS px of the smallest text in the book's static figures, at their drawn size.

    The figures are drawn at svmlib's figure.dpi; the smallest text is the
    smallest font size (pt) the plotting code or a chapter asks for.
    """
    from svmlib.plotting._core import BOOK_RC

    sizes = [v for k, v in BOOK_RC.items() if k.endswith("size") and isinstance(v, (int, float))]
    sources = list((ROOT / "svmlib" / "plotting").glob("*.py"))
    sources += sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))
    for source in sources:
        text = source.read_text(encoding="utf-8")
        sizes += [float(x) for x in re.findall(r"(?:fontsize|labelsize)\s*=\s*([0-9.]+)\b", text)]
    return min(sizes) * BOOK_RC["figure.dpi"] / 72


# Each static figure of the article: its zoom link, the size it was drawn for,
# the size it is shown at, and whether the "Enlarge" cue shows.
_STATIC = r"""() => [...document.querySelectorAll('article img')]
    .filter(i => !i.closest('.svmlib-widget') && i.getAttribute('src').includes('_images/'))
    .map(i => {
        const a = i.closest('a.svmlib-zoom');
        const cue = a && a.querySelector('.svmlib-zoom-cue');
        return {src: i.getAttribute('src'), zoom: !!a,
                drawn: a ? parseFloat(a.dataset.width) : null,
                shown: i.getBoundingClientRect().width,
                hidden: !i.getClientRects().length,
                cue: !!cue && getComputedStyle(cue).display !== 'none'};
    })"""

_VIEW = r"""() => {
    const d = document.querySelector('dialog.svmlib-zoom-view');
    if (!d || !d.open) return null;
    const img = d.querySelector('img.svmlib-zoom-image'), pane = img.parentElement;
    return {shown: img.getBoundingClientRect().width, natural: img.naturalWidth,
            complete: img.complete, paneScroll: pane.scrollWidth, pane: pane.clientWidth,
            focus: d.contains(document.activeElement), title: d.querySelector('p').textContent,
            scale: parseFloat(d.dataset.scale)};
}"""


@pytest.mark.parametrize("stem", CHAPTERS)
def test_static_figures_enlarge_to_legible_text_on_a_phone(visit, stem):
    smallest = _smallest_figure_text_px()
    v = visit(f"book/{stem}", "phone")
    figures = v.page.evaluate(_STATIC)
    assert figures, f"{stem} has no static figures"
    links = v.page.query_selector_all("article a.svmlib-zoom")
    assert len(links) == len(figures) and all(f["zoom"] for f in figures), (
        f"{stem}: {sum(not f['zoom'] for f in figures)} static figures cannot be enlarged")
    for k, (figure, link) in enumerate(zip(figures, links)):
        if figure["hidden"]:  # in a solution the reader has not opened: has its link (above)
            continue
        inline = smallest * figure["shown"] / figure["drawn"]
        # in the column, a figure whose text is too small says it can be enlarged
        if inline < LEGIBLE_PX:
            assert figure["cue"], f"{stem}: figure {k + 1} ({inline:.1f} px text) shows no cue"
        # every second one by a tap, the others by the keyboard
        if k % 2 == 0:
            link.tap()
        else:
            link.focus()
            v.page.keyboard.press("Enter")
        v.page.wait_for_function(
            "() => { const i = document.querySelector('dialog.svmlib-zoom-view[open] img');"
            " return i && i.complete && i.naturalWidth > 0; }", timeout=WAIT_MS)
        view = v.page.evaluate(_VIEW)
        enlarged = smallest * view["shown"] / figure["drawn"]
        assert enlarged >= LEGIBLE_PX, (
            f"{stem}: figure {k + 1}'s smallest text is {enlarged:.1f} CSS px enlarged")
        # sharp: the PNG has at least as many pixels as the view shows CSS px
        assert view["natural"] >= view["shown"] - 1
        # the reader can pan to the rest, and the keyboard focus is in the dialog
        assert view["paneScroll"] >= view["shown"]
        assert view["focus"] and view["title"].startswith("Fig.")
        if k == 0:  # zoom in and out with the buttons
            v.page.click("dialog.svmlib-zoom-view .svmlib-zoom-in")
            assert v.page.evaluate(_VIEW)["scale"] > view["scale"]
            v.page.keyboard.press("-")
            assert v.page.evaluate(_VIEW)["scale"] == pytest.approx(view["scale"])
        v.page.keyboard.press("Escape")
        assert v.page.evaluate(_VIEW) is None
        assert v.page.evaluate("(a) => document.activeElement === a", link), (
            f"{stem}: the focus does not return to figure {k + 1} when its view closes")
    assert v.blocked == [] and v.errors == [], (v.blocked[:3], v.errors[:3])


def test_static_figure_enlarges_to_the_screen_on_a_desktop(visit):
    v = visit("book/03_maximum_margin", "desktop")
    link = v.page.query_selector("article a.svmlib-zoom")
    drawn = float(link.get_attribute("data-width"))
    link.click()
    v.page.wait_for_function(
        "() => document.querySelector('dialog.svmlib-zoom-view[open] img')?.complete",
        timeout=WAIT_MS)
    view = v.page.evaluate(_VIEW)
    # at least 1.25x the drawn size, and as wide as the screen allows
    assert view["shown"] >= 1.25 * drawn - 1
    assert view["shown"] <= view["pane"]
    v.page.mouse.click(5, 500)  # beside the figure
    assert v.page.evaluate(_VIEW) is None
    assert v.errors == []


def _wait_until_landed(page, target):
    """Wait for a jump to the element with id ``target`` to end: the target in
    view (its top 0-150 px from the top of the window), then ``window.scrollY``
    unchanged for a few frames.  The caller measures where it landed and asserts."""
    wait_until(page, """(id) => { const e = document.getElementById(id);
        if (!e) return false; const top = e.getBoundingClientRect().top;
        return top >= 0 && top <= 150; }""", target)
    settle(page, """(id) => [window.scrollY,
        document.getElementById(id).getBoundingClientRect().top]""", target)


_BLOCKS = """() => [...document.querySelectorAll('.bd-article section > :is(p, ul, ol, dl, blockquote,'
    + ' div.svmlib-math, div.proof, div.exercise):not(:has(pre))')]"""


def test_text_blocks_laid_out_after_the_load_and_jumps_land(visit, browser):  # noqa: F811
    """Text blocks far from the screen skip style and layout while a chapter loads
    (content-visibility: auto, _static/reading.css); after the load event they are laid out a
    few at a time (_static/deferred_layout.js), and a jump to a section or an equation lands on
    it, whether the page is opened at it or the reader follows a link right after the load."""
    v = visit("book/08_kernels", "desktop")
    # a jump right after the load, before everything is laid out: the contents' last-but-one entry
    links = v.page.evaluate("() => [...document.querySelectorAll('.bd-toc-nav a.nav-link')]"
                            ".map(a => a.getAttribute('href'))")
    v.page.click(f".bd-toc-nav a.nav-link[href='{links[-2]}']")
    _wait_until_landed(v.page, links[-2][1:])   # the theme scrolls smoothly
    top = v.page.evaluate("(h) => document.getElementById(h.slice(1)).getBoundingClientRect().top",
                          links[-2])
    assert 0 <= top <= 150, f"the jump to {links[-2]} lands {top:.0f} px from the top"
    v.page.wait_for_function("() => 'svmlibLaidOut' in document.documentElement.dataset",
                             timeout=WAIT_MS)
    styles = v.page.evaluate(f"() => ({_BLOCKS})().map(b => getComputedStyle(b).contentVisibility)")
    assert len(styles) > 50 and set(styles) == {"visible"}, set(styles)
    # opened at an equation far down: the browser aimed at it in the estimated page
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.goto((HTML / "book" / "08_kernels.html").as_uri() + "#equation-eq-kern-logistic",
              wait_until="load")
    _wait_until_landed(page, "equation-eq-kern-logistic")
    top = page.evaluate("() => document.getElementById('equation-eq-kern-logistic')"
                        ".getBoundingClientRect().top")
    context.close()
    assert 0 <= top <= 150, f"the page opened at an equation shows it {top:.0f} px from the top"
    assert v.errors == []
