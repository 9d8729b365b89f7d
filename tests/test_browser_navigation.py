"""Moving through the built book: navigation, keyboard, search, figure details.

Headless Chromium reads ``_build/html`` from ``file://`` with the network cut
off (as in tests/test_browser.py, whose ``browser`` fixture and page list this
module reuses):

* the ☰ button opens the table of contents on a phone (390×844, touch) and
  the chapter links in it can be followed; it collapses and restores the
  sidebar on a desktop; the "contents" button opens the page's contents;
  a tapped header icon leaves no tooltip over its neighbour;
* the keyboard: formulas are not Tab stops, the Tab stops of every chapter
  are counted by pressing Tab, a stepper is driven from its first step to its
  last and back with Enter alone, solution toggles show a focus ring and
  name their exercise;
* search from ``file://``: the chapter about a topic comes first, results
  carry snippets, no result page is fetched;
* interactive-figure details: a slider that does nothing is disabled and says
  why, goals state their target, no ``y_i``-style text, no ipywidgets state,
  links in theorem and exercise boxes with enough contrast.

They need the book (``make book``) and Debian's Chromium.
"""

import contextlib
import re

import pytest

from test_browser import (CHAPTERS, HTML, KNOWN_NOISE, WAIT_MS, browser,  # noqa: F401 (fixture)
                          settle, wait_until, wait_until_loaded)

pytestmark = pytest.mark.browser

PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
             device_scale_factor=2)
DESKTOP = dict(viewport={"width": 1440, "height": 900})


class Visit:
    """One page in a fresh browser context (phone or desktop), offline."""

    def __init__(self, browser, path, query="", **options):
        self.context = browser.new_context(**options)
        self.blocked, self.errors, self.requested = [], [], []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.goto(path.as_uri() + query, wait_until="load")
        wait_until_loaded(self.page)

    def _route(self, route):
        url = route.request.url
        self.requested.append(url)
        if url.startswith(("file://", "data:", "blob:", "about:")):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def real_errors(self):
        return [e for e in self.errors if not any(noise in e for noise in KNOWN_NOISE)]

    def wait_for_math(self):
        """The formulas are typeset at build time: wait for their fonts."""
        self.page.wait_for_function("() => document.querySelector('mjx-container')",
                                    timeout=WAIT_MS)
        self.page.evaluate("() => document.fonts.ready")


@contextlib.contextmanager
def visit(browser, stem, query="", **options):
    path = HTML / (f"book/{stem}.html" if not stem.endswith(".html") else stem)
    if not path.exists():
        pytest.fail(f"{path} is missing: run `make book` first")
    v = Visit(browser, path, query, **options)
    try:
        yield v
    finally:
        v.context.close()


# Whether the first element matching the selector is visible inside the viewport.
_ON_SCREEN = """([sel, width]) => {
    const e = document.querySelector(sel);
    if (!e) return false;
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= width
        && s.visibility !== 'hidden' && s.display !== 'none';
}"""


def _on_screen(page, selector, width):
    return page.evaluate(_ON_SCREEN, [selector, width])


def _slid_in(page, selector, width, shown=True):
    """Wait until the element is on screen (``shown``) or off it, then until the
    drawer or sidebar holding it has finished moving; return whether it is on screen.

    (The theme slides its drawers with CSS transitions: the element's box is
    probed frame by frame until it holds still.)
    """
    predicate = _ON_SCREEN if shown else f"(a) => !({_ON_SCREEN})(a)"
    wait_until(page, predicate, [selector, width])
    settle(page, """(sel) => { const e = document.querySelector(sel);
        if (!e) return null; const r = e.getBoundingClientRect();
        return [r.left, r.top, r.width, getComputedStyle(e).visibility]; }""", selector)
    return _on_screen(page, selector, width)


# ----------------------------------------------------------------- navigation

TOC_LINK = ".bd-sidebar-primary a.reference[href$='08_kernels.html']"


def test_phone_hamburger_opens_and_closes_the_table_of_contents(browser):
    with visit(browser, "06_soft_margin", **PHONE) as v:
        page = v.page
        assert not _on_screen(page, TOC_LINK, 390), "the table of contents shows before ☰"
        page.locator(".bd-header-article .primary-toggle").tap()
        assert _slid_in(page, TOC_LINK, 390), "☰ did not open the table of contents"
        SHOTS = HTML.parent / "screenshots"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "phone_toc_open.png"))
        # closing: tap the dimmed page beside the drawer
        page.locator("label.overlay-primary").tap(position={"x": 370, "y": 420})
        assert not _slid_in(page, TOC_LINK, 390, shown=False), "the drawer did not close"
        # and a chapter link in it is usable: open again, follow it
        page.locator(".bd-header-article .primary-toggle").tap()
        assert _slid_in(page, TOC_LINK, 390), "☰ did not open the table of contents again"
        with page.expect_navigation(wait_until="domcontentloaded", timeout=WAIT_MS):
            page.locator(TOC_LINK).tap()
        assert page.url.endswith("08_kernels.html"), page.url
        assert v.blocked == []


def test_phone_contents_button_opens_the_page_contents(browser):
    with visit(browser, "06_soft_margin", **PHONE) as v:
        link = ".bd-sidebar-secondary a.nav-link[href='#slack-variables']"
        assert not _on_screen(v.page, link, 390)
        v.page.locator(".bd-header-article .secondary-toggle").tap()
        assert _slid_in(v.page, link, 390), "the contents button did not open the contents"


def test_phone_tooltip_does_not_cover_the_next_icon(browser):
    """Tap ☰'s neighbour "contents", close it, then tap Search: the tap must land."""
    with visit(browser, "06_soft_margin", **PHONE) as v:
        page = v.page
        link = ".bd-sidebar-secondary a.nav-link[href='#slack-variables']"
        page.locator(".bd-header-article .secondary-toggle").tap()
        assert _slid_in(page, link, 390), "the contents button did not open the contents"
        page.locator("label.overlay-secondary").tap(position={"x": 20, "y": 420})
        assert not _slid_in(page, link, 390, shown=False), "the contents did not close"
        # Playwright refuses the tap if anything covers the button, and tries
        # again until its timeout: a tooltip that stays over it fails the test
        page.locator(".bd-header-article .search-button").tap(timeout=WAIT_MS)
        assert wait_until(page, "() => document.activeElement && "
                                "document.activeElement.matches('input[name=q]')"), \
            "tapping Search did not open the search field"
        # tooltips fade in and out (CSS transitions): count them once all is still
        tips = ("() => [...document.querySelectorAll('.tooltip')].filter("
                "t => getComputedStyle(t).display !== 'none').length")
        settle(page, tips)
        assert page.evaluate(tips) == 0


def test_desktop_hamburger_collapses_and_restores_the_sidebar(browser):
    with visit(browser, "06_soft_margin", **DESKTOP) as v:
        page = v.page
        assert _on_screen(page, TOC_LINK, 1440)
        article = "() => document.querySelector('.bd-article').offsetWidth"
        page.locator(".bd-header-article .primary-toggle").click()
        assert not _slid_in(page, TOC_LINK, 1440, shown=False), "☰ did not collapse the sidebar"
        settle(page, article)                     # the article has taken the room
        width = page.evaluate(article)
        page.locator(".bd-header-article .primary-toggle").click()
        assert _slid_in(page, TOC_LINK, 1440), "☰ did not bring the sidebar back"
        settle(page, article)
        assert page.evaluate(article) < width


# ------------------------------------------------------------------ keyboard

def _tab_walk(page, limit=1500):
    """Press Tab from the top of the page until the focus comes round; count the stops."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); "
                  "window.scrollTo(0, 0); }")
    seen, kinds = set(), {"formula": 0, "link": 0, "control": 0, "scroller": 0, "other": 0}
    order = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        info = page.evaluate("""() => {
            const e = document.activeElement;
            if (!e || e === document.body) return null;
            if (!e.dataset.tabSeen) e.dataset.tabSeen = String(Math.random());
            // Chromium makes a scrollable box with nothing focusable inside a
            // Tab stop of its own (a wide formula that scrolls on a phone, a
            // code block), so that the keyboard can scroll it
            const scrolls = ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)
                && !e.matches('a[href], input, select, button, textarea, summary');
            const kind = e.closest('mjx-container') && !scrolls ? 'formula'
                : e.matches('a[href]') ? 'link'
                : e.matches('input, select, button, textarea, summary, .svmlib-pg canvas') ? 'control'
                : e.matches('pre') || scrolls ? 'scroller' : 'other';
            return [e.dataset.tabSeen, kind, e.tagName,
                    (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 40)];
        }""")
        if info is None:
            if order:
                break      # the focus left the page: a full round
            continue
        if info[0] in seen:
            break
        seen.add(info[0])
        kinds[info[1]] += 1
        order.append(info[1:])
    return kinds, order


# The sequential focus order as the DOM defines it: what Tab will visit.
_TAB_STOPS = r"""() => {
    const all = document.querySelectorAll(
        'a[href], button, input, select, textarea, summary, [tabindex], mjx-container');
    const kinds = {formula: 0, link: 0, control: 0, scroller: 0, other: 0};
    for (const e of all) {
        if (e.tabIndex < 0 || e.disabled || e.closest('[inert]')) continue;
        // (checkVisibility also sees the content of a closed <details>)
        if (!e.checkVisibility({visibilityProperty: true})) continue;
        const kind = e.closest('mjx-container') ? 'formula'
            : e.matches('a[href]') ? 'link'
            : e.matches('input, select, button, textarea, summary, .svmlib-pg canvas') ? 'control'
            : e.matches('pre') ? 'scroller' : 'other';
        kinds[kind] += 1;
    }
    return kinds;
}"""


@pytest.mark.parametrize("stem", CHAPTERS)
def test_tab_stops_are_links_and_controls_not_formulas(browser, stem):
    with visit(browser, stem, **DESKTOP) as v:
        v.wait_for_math()
        n_math = v.page.evaluate("() => document.querySelectorAll('mjx-container').length")
        assert n_math > 20
        kinds = v.page.evaluate(_TAB_STOPS)
        total = sum(kinds.values())
        print(f"{stem}: {total} Tab stops {kinds}, {n_math} formulas")
        assert kinds["formula"] == 0, f"{stem}: {kinds['formula']} formulas are Tab stops"
        # (a scrollable code block is a Tab stop so that the keyboard can scroll it)
        assert kinds["other"] == 0, f"{stem}: Tab stops that are neither links nor controls"
        # every enabled widget control is among them
        n_controls = v.page.evaluate(
            "() => document.querySelectorAll('.svmlib-widget input:not(:disabled), "
            ".svmlib-widget select:not(:disabled), .svmlib-widget button:not(:disabled)').length")
        assert kinds["control"] >= n_controls >= 2
        assert total < n_math, f"{stem}: {total} Tab stops"
        # the formulas were typeset at build time: no MathJax here to make
        # them Tab stops; a screen reader reads each one's MathML
        assert v.page.evaluate("() => typeof window.MathJax") == "undefined"
        assert v.page.evaluate(
            "() => [...document.querySelectorAll('mjx-container')]"
            ".every(m => m.querySelector('mjx-assistive-mml > math'))")


@pytest.mark.parametrize("stem", ["01_hyperplanes", "07_smo"])
def test_pressing_tab_visits_exactly_those_stops(browser, stem):
    """Press Tab through a whole chapter: the count above is what a reader meets."""
    with visit(browser, stem, **DESKTOP) as v:
        v.wait_for_math()
        kinds, order = _tab_walk(v.page)
        # counted after the walk: tabbing to a figure's enlarge link scrolls the
        # page, and the theme's "Contents" sidebar then unfolds that section's
        # subsections, so a link that was hidden before the walk is a stop now
        expected = v.page.evaluate(_TAB_STOPS)
        # the DOM count cannot see the scrollers Chromium adds by itself (no
        # tabindex): compare every other kind exactly
        assert ({k: c for k, c in kinds.items() if k != "scroller"}
                == {k: c for k, c in expected.items() if k != "scroller"}), (kinds, expected)
        assert kinds["scroller"] >= expected["scroller"]
        # every stop met is a link, a control or a scrollable block: never a formula
        for k, (kind, _tag, _name) in enumerate(order[:-1]):
            assert kind in ("link", "control", "scroller"), order[k]


def _widget(page, title):
    handle = page.evaluate_handle(
        "(title) => [...document.querySelectorAll('.svmlib-widget')].find("
        "w => (w.querySelector('.svmlib-title') || {}).textContent === title)", title)
    assert handle.as_element() is not None, f"no interactive figure titled {title!r}"
    return handle.as_element()


def _stepper_state(widget):
    return widget.evaluate("""(w) => {
        const group = w.querySelector('[role=group]');
        const [prev, next] = group.querySelectorAll('button');
        const a = document.activeElement;
        return {counter: group.querySelector('output').textContent,
                readout: w.querySelector('.svmlib-readout').textContent,
                prev_disabled: prev.disabled, next_disabled: next.disabled,
                focus: a === prev ? 'previous' : a === next ? 'next'
                       : (w.contains(a) ? 'in widget' : a.tagName)};
    }""")


@pytest.mark.parametrize("stem, title, update", [
    ("02_perceptron", "The perceptron, one update at a time", r"Update (\d+) of (\d+)"),
    ("07_smo", "SMO, one pair update at a time", r"Update (\d+)\b"),
])
def test_stepper_driven_end_to_end_by_keyboard(browser, stem, title, update):
    with visit(browser, stem, **DESKTOP) as v:
        page = v.page
        w = _widget(page, title)
        w.evaluate("(w) => w.querySelectorAll('[role=group] button')[1].focus()")
        for setting in range(2):       # the first run, then another one
            states = [_stepper_state(w)]
            while not states[-1]["next_disabled"]:
                page.keyboard.press("Enter")
                states.append(_stepper_state(w))
                assert len(states) < 60, "Next never reaches an end"
            end = states[-1]
            k, last = (int(t) for t in end["counter"].split(" / "))
            assert k == last == len(states) - 1, end
            found = re.search(update, end["readout"])
            assert found and int(found.group(1)) == last, (end["counter"], end["readout"])
            if found.re.groups == 2:
                assert int(found.group(2)) == last, (end["counter"], end["readout"])
            for s in states[1:]:
                step = int(s["counter"].split(" / ")[0])
                got = re.search(update, s["readout"])
                assert got and int(got.group(1)) == step, (s["counter"], s["readout"])
            # at the end the focus moved to Previous, never to the page body
            assert end["focus"] == "previous", end
            # and back to the start with Enter alone
            while not _stepper_state(w)["prev_disabled"]:
                page.keyboard.press("Enter")
            start = _stepper_state(w)
            assert start["counter"] == f"0 / {last}" and start["focus"] == "next", start
            if setting == 0:
                # another run: change the first menu by keyboard, then back to Next
                w.evaluate("(w) => w.querySelector('select').focus()")
                page.keyboard.press("ArrowDown")
                w.evaluate("(w) => w.querySelectorAll('[role=group] button')[1].focus()")
        assert v.real_errors() == []


def test_solution_toggles_show_focus_and_name_their_exercise(browser):
    with visit(browser, "06_soft_margin", **DESKTOP) as v:
        page = v.page
        page.wait_for_selector("button.toggle-button[aria-label^='Show solution to']")
        # reach the first solution's toggle with the keyboard from the link before it
        page.evaluate("() => document.querySelector('.solution .admonition-title a').focus()")
        page.keyboard.press("Tab")
        info = page.evaluate("""() => {
            const e = document.activeElement, s = getComputedStyle(e);
            return {cls: e.className, label: e.getAttribute('aria-label'),
                    outline: s.outlineStyle, width: parseFloat(s.outlineWidth),
                    expanded: e.getAttribute('aria-expanded')};
        }""")
        assert "toggle-button" in info["cls"], info
        assert re.match(r"Show solution to Exercise 6\.\d+ \(", info["label"]), info
        assert info["outline"] != "none" and info["width"] >= 2, info
        page.keyboard.press("Enter")
        # the label follows aria-expanded (a MutationObserver in _static/navigation.js)
        wait_until(page, "() => (document.activeElement.getAttribute('aria-label') || '')"
                         ".startsWith('Hide ')")
        label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
        assert label.startswith("Hide solution to Exercise 6."), label
        labels = page.evaluate("() => [...document.querySelectorAll('button.toggle-button')]"
                               ".map(b => b.getAttribute('aria-label'))")
        assert len(labels) >= 3 and len(set(labels)) == len(labels), labels


# -------------------------------------------------------------------- search

def _search(browser, words):
    with visit(browser, "search.html", f"?q={words}", **DESKTOP) as v:
        v.page.wait_for_selector("#search-results li", timeout=WAIT_MS)
        v.page.wait_for_function(
            "() => /found|did not match/.test(document.querySelector('#search-results')"
            ".textContent)", timeout=WAIT_MS)
        # each result's snippet arrives with its page's search text
        v.page.wait_for_function("""() => [...document.querySelectorAll('#search-results li')]
            .every(li => li.querySelector('span') || li.querySelector('p.context'))""",
                                 timeout=WAIT_MS)
        # and then the list holds still (no result or snippet added any more)
        settle(v.page, "() => document.querySelector('#search-results').innerHTML.length")
        results = v.page.evaluate("""() => [...document.querySelectorAll('#search-results li')]
            .map(li => ({href: li.querySelector('a').getAttribute('href'),
                         snippet: (li.querySelector('p.context') || {}).textContent || null,
                         api: !!li.querySelector('span')}))""")
        return results, v.real_errors(), v.requested, v.blocked


@pytest.mark.parametrize("words, chapter", [("kernel", "08_kernels"),
                                            ("hinge loss", "06_soft_margin"),
                                            ("perceptron", "02_perceptron")])
def test_search_ranks_the_chapter_first_with_snippets_offline(browser, words, chapter):
    results, errors, requested, blocked = _search(browser, words)
    assert results, f"no results for {words!r}"
    assert chapter in results[0]["href"], (
        f"{words!r}: first result {results[0]['href']}, expected chapter {chapter}; "
        f"top 5: {[r['href'] for r in results[:5]]}")
    assert errors == [], errors[:5]
    assert blocked == []
    # no result page is downloaded to build snippets
    assert not [u for u in requested if re.search(r"/book/[^/]+\.html", u)]
    prose = [r for r in results if not r["api"]]
    with_snippet = [r for r in prose if r["snippet"]]
    assert len(with_snippet) == len(prose), [r["href"] for r in prose if not r["snippet"]][:5]
    first_word = words.split()[0]
    assert first_word in results[0]["snippet"].lower(), results[0]["snippet"]


#: Budgets per page, so that they hold however many chapters the book has.
#: Search text of one page (its sections' prose, at most 2400 characters each):
SEARCH_TEXT_PER_PAGE = 120_000
#: Ranking data of one chapter (section titles and word counts):
SEARCH_RANK_PER_CHAPTER = 25_000
#: Sphinx's index, per page of the book:
SEARCH_INDEX_PER_PAGE = 25_000


def test_search_files_stay_small():
    """The search page loads the index and the ranking data, then one small
    file of text for each page whose results it shows."""
    docs = sorted((HTML / "_static" / "search_text").glob("*.js"))
    chapters = [d for d in docs if re.match(r"book__\d\d_", d.name)]
    assert len(chapters) >= 12 and len(docs) > len(chapters), [d.name for d in docs]
    assert not (HTML / "_static" / "search_text.js").exists()   # the old single file
    for doc in docs:
        size = doc.stat().st_size
        assert size < SEARCH_TEXT_PER_PAGE, f"{doc.name}: {size} B"
    rank = (HTML / "_static" / "search_rank.js").stat().st_size
    assert rank < SEARCH_RANK_PER_CHAPTER * len(chapters), f"search_rank.js {rank} B"
    index = (HTML / "searchindex.js").stat().st_size
    assert index < SEARCH_INDEX_PER_PAGE * len(docs), f"searchindex.js {index} B"
    print(f"{len(docs)} pages: search text {sum(d.stat().st_size for d in docs)} B in all, "
          f"at most {max(d.stat().st_size for d in docs)} B; rank {rank} B; index {index} B")


def test_search_page_loads_text_only_for_the_results_shown(browser):
    """A query that only a few pages match loads only those pages' text."""
    results, errors, requested, blocked = _search(browser, "perceptron")
    loaded = {re.sub(r".*/search_text/", "", u) for u in requested if "/search_text/" in u}
    pages = {re.sub(r"#.*", "", r["href"]).replace("/", "__").replace(".html", ".js")
             for r in results}
    assert loaded and loaded <= pages, (loaded, pages)
    everything = list((HTML / "_static" / "search_text").glob("*.js"))
    assert len(loaded) < len(everything), f"{len(loaded)} of {len(everything)} loaded"


# ------------------------------------------------- figures, boxes, page data

# Raw TeX-like subscripts in widget text: "y_i", "α_j", "min_i", "x_{12}".
_RAW = re.compile(r"(?<![\w/.])(?:[A-Za-z\u0370-\u03ff]{1,6})_(?:\{|[a-z0-9]\b)")

_WIDGET_TEXT = r"""(w) => {
    const parts = [w.querySelector('.svmlib-title'), w.querySelector('.svmlib-goal'),
                   ...w.querySelectorAll('label, .svmlib-label, option, output, .svmlib-note')]
        .filter(Boolean).map(e => e.textContent);
    parts.push(w.querySelector('img.svmlib-frame').alt);
    const script = [...w.querySelectorAll('script')].map(s => s.textContent).join('');
    const m = script.match(/var D=(\{.*?\}),n=D/s);
    const data = JSON.parse(m[1]);
    const div = document.createElement('div');
    for (const r of data.readouts) { div.innerHTML = r; parts.push(div.textContent); }
    parts.push(data.alt);
    return parts;
}"""

# Contrast of every link in a theorem/definition/exercise/solution box
# against the box colour behind it (backgrounds blended up the tree).
_BOX_LINK_CONTRAST = r"""() => {
    const parse = c => { const m = c.match(/[\d.]+/g).map(Number);
        return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
    const lum = ([r, g, b]) => { const f = v => { v /= 255;
        return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
    const over = (top, under) => { const a = top[3];
        return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat([1]); };
    const background = e => { const layers = [];
        for (let n = e; n; n = n.parentElement) {
            const c = parse(getComputedStyle(n).backgroundColor);
            if (c[3] > 0) layers.push(c);
            if (c[3] >= 1) break; }
        let colour = [255, 255, 255, 1];
        for (const layer of layers.reverse()) colour = over(layer, colour);
        return colour; };
    const out = [];
    document.querySelectorAll('.proof a, .exercise a, .solution a, .admonition a').forEach(a => {
        if (a.classList.contains('headerlink') || !a.textContent.trim()
            || a.closest('button')) return;
        const fg = parse(getComputedStyle(a).color), bg = background(a);
        const [l1, l2] = [lum(over(fg, bg)), lum(bg)].sort((x, y) => y - x);
        out.push([a.textContent.trim().slice(0, 30), (l1 + 0.05) / (l2 + 0.05)]);
    });
    return out;
}"""


@pytest.mark.parametrize("stem", CHAPTERS)
def test_chapter_page_details(browser, stem):
    html = (HTML / "book" / f"{stem}.html").read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-state+json" not in html, (
        f"{stem}: the page still carries the notebook's ipywidgets state")
    with visit(browser, stem, **DESKTOP) as v:
        for k, w in enumerate(v.page.query_selector_all(".svmlib-widget")):
            raw = [p for p in w.evaluate(_WIDGET_TEXT) if _RAW.search(p)]
            assert raw == [], f"{stem}: figure {k + 1} shows raw subscripts: {raw[:3]}"
        contrast = v.page.evaluate(_BOX_LINK_CONTRAST)
        low = [(text, round(ratio, 2)) for text, ratio in contrast if ratio < 4.5]
        assert low == [], f"{stem}: links in boxes below 4.5:1: {low[:5]}"


def test_kernel_playground_disables_the_width_slider_for_the_other_kernels(browser):
    with visit(browser, "08_kernels", **DESKTOP) as v:
        w = _widget(v.page, "Kernel playground: regions, margins and support vectors")
        state = """(w, kernel) => {
            const selects = [...w.querySelectorAll('select')];
            const menu = selects.find(s => [...s.options].some(o => o.text === 'linear'));
            menu.selectedIndex = [...menu.options].findIndex(o => o.text === kernel);
            menu.dispatchEvent(new Event('change', {bubbles: true}));
            const label = r => w.querySelector('label[for="' + r.id + '"]').textContent;
            const sliders = [...w.querySelectorAll('input[type=range]')];
            const width = sliders.find(r => label(r).startsWith('γ'));
            const C = sliders.find(r => label(r).startsWith('C'));
            const note = document.getElementById(width.id + '-note');
            return {disabled: width.disabled, C_disabled: C.disabled,
                    note: note && !note.hidden ? note.textContent : null,
                    readout: w.querySelector('.svmlib-readout').textContent};
        }"""
        for kernel in ("linear", "polynomial, d = 2", "polynomial, d = 3"):
            other = w.evaluate(state, kernel)
            assert other["disabled"] and "only the RBF kernel" in other["note"], other
            assert not other["C_disabled"], other
        assert "degree d = 3" in other["readout"], other
        rbf = w.evaluate(state, "RBF")
        assert not rbf["disabled"] and rbf["note"] is None and not rbf["C_disabled"], rbf
        assert "σ = " in rbf["readout"], rbf


def test_margin_goal_states_its_target(browser):
    with visit(browser, "03_maximum_margin", **DESKTOP) as v:
        goal = _widget(v.page, "Turn and shift a separator").evaluate(
            "(w) => w.querySelector('.svmlib-goal').textContent")
        # the goal says how close counts, but no longer gives the answer away:
        # the reader decides from the picture when the closest points balance
        assert re.search(r"within \d+ ?%", goal), goal
        assert not re.search(r"γ\* = \d", goal), f"the goal reveals the maximum margin: {goal}"
