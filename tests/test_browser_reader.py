"""What a keyboard or screen-reader user meets: formulas, links, the figure viewer, focus.

Headless Chromium reads ``_build/html`` from ``file://`` with the network cut
off (the ``browser`` fixture of tests/test_browser.py):

* an inline formula scrolls sideways only when its visible formula is wider
  than its box (MathJax's hidden MathML for screen readers once made nearly
  every inline formula a scroller, a Tab stop with a scroll shadow);
* no link is empty (the zoom link of a figure once sat inside Sphinx's image
  link, and the parser left the outer one empty and nameless);
* Escape closes the figure viewer, also after a click on the enlarged figure;
* the header's buttons show a focus ring when reached with the keyboard.

They need the book (``make book``) and Debian's Chromium.
"""

import pytest

from test_browser import HTML, browser, wait_until  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

DESKTOP = dict(viewport={"width": 1440, "height": 900})
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
             device_scale_factor=2)


def visit(browser, stem, **options):
    context = browser.new_context(**options)
    context.route("**/*", lambda route: route.continue_()
                  if route.request.url.startswith(("file://", "data:", "blob:", "about:"))
                  else route.abort())
    page = context.new_page()
    path = HTML / "book" / f"{stem}.html"
    assert path.exists(), f"{path} is missing from the built book"
    page.goto(path.as_uri(), wait_until="load")
    # lay out every text block now (the book defers the ones off screen)
    page.add_style_tag(content="* { content-visibility: visible !important; }")
    page.wait_for_function("() => document.fonts.status === 'loaded'")
    return context, page


FALSE_SCROLLERS = """() => {
    const found = [];
    let scrollers = 0;
    for (const box of document.querySelectorAll('article span.svmlib-math')) {
        if (box.scrollWidth <= box.clientWidth + 1) continue;
        scrollers += 1;
        const formula = box.querySelector('mjx-container > mjx-math') || box.firstElementChild;
        const visible = formula ? formula.getBoundingClientRect().width : 0;
        if (visible <= box.clientWidth + 1)
            found.push(`${box.textContent.slice(0, 40)} (box ${box.clientWidth}px, `
                       + `formula ${Math.round(visible)}px, scrolls ${box.scrollWidth}px)`);
    }
    return {found, scrollers, total: document.querySelectorAll('article span.svmlib-math').length};
}"""


@pytest.mark.parametrize("stem", ["01_hyperplanes", "06_soft_margin", "08_kernels"])
@pytest.mark.parametrize("options", [DESKTOP, PHONE], ids=["1440", "390"])
def test_inline_formulas_scroll_only_when_they_do_not_fit(browser, stem, options):
    context, page = visit(browser, stem, **options)
    try:
        result = page.evaluate(FALSE_SCROLLERS)
        assert result["total"] > 50, "the chapter should have many inline formulas"
        assert not result["found"], (
            f"{stem}: {len(result['found'])} inline formulas scroll sideways although they "
            f"fit: {result['found'][:5]}")
    finally:
        context.close()


EMPTY_LINKS = """() => [...document.querySelectorAll('a[href]')].filter(a => {
    const style = getComputedStyle(a);
    if (style.display === 'none' || style.visibility === 'hidden') return false;
    const named = a.textContent.trim() || a.getAttribute('aria-label') || a.title
        || [...a.querySelectorAll('img')].some(img => img.alt.trim());
    return !named;
}).map(a => a.outerHTML.slice(0, 120))"""


@pytest.mark.parametrize("stem", ["05_hard_margin_dual", "07_smo", "11_at_scale"])
def test_no_link_is_empty(browser, stem):
    context, page = visit(browser, stem, **DESKTOP)
    try:
        empty = page.evaluate(EMPTY_LINKS)
        assert not empty, f"{stem}: {len(empty)} links have no name: {empty[:3]}"
        assert page.evaluate("document.querySelectorAll('a a').length") == 0
    finally:
        context.close()


def test_escape_closes_the_figure_viewer_after_a_click_on_the_figure(browser):
    context, page = visit(browser, "05_hard_margin_dual", **PHONE)
    try:
        link = page.locator("article a.svmlib-zoom").first
        link.scroll_into_view_if_needed()
        link.click()
        page.wait_for_function("() => document.querySelector('dialog[open]')")
        page.locator("dialog[open] img").click()        # focus inside the figure's pane
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('dialog[open]')")
    finally:
        context.close()


def test_header_buttons_show_where_the_focus_is(browser):
    context, page = visit(browser, "06_soft_margin", **DESKTOP)
    try:
        seen = {}
        for _ in range(40):
            page.keyboard.press("Tab")
            focused = page.evaluate("""() => {
                const e = document.activeElement;
                if (!e || !e.matches('.bd-header-article button, .bd-header button')) return null;
                const s = getComputedStyle(e);
                return [e.getAttribute('title') || e.getAttribute('aria-label')
                        || e.className, s.outlineStyle, s.outlineWidth, s.boxShadow];
            }""")
            if focused:
                seen[focused[0]] = focused[1:]
        assert seen, "Tab never reached a header button"
        bare = {name: style for name, style in seen.items()
                if (style[0] == "none" or style[1] == "0px") and style[2] == "none"}
        assert not bare, f"header buttons with no focus ring: {bare}"
    finally:
        context.close()


CUES = """() => {
    const boxes = [...document.querySelectorAll('article span.svmlib-math')];
    const shaded = b => getComputedStyle(b).backgroundImage !== 'none';
    const fits = boxes.filter(b => b.scrollWidth <= b.clientWidth + 1);
    const wide = boxes.filter(b => b.scrollWidth > b.clientWidth + 1);
    return {fits: fits.length, fits_shaded: fits.filter(shaded).length,
            wide: wide.length, wide_shaded: wide.filter(shaded).length,
            script: !!document.querySelector('script[src*="math_overflow.js"]')};
}"""


@pytest.mark.parametrize("options", [DESKTOP, PHONE], ids=["1440", "390"])
def test_only_formulas_that_scroll_show_a_scroll_cue(browser, options):
    # the cue's edge showed as a grey sliver after every formula that fits
    context, page = visit(browser, "04_lagrange_kkt", **options)
    try:
        # the marks follow the layout (a resize observer): wait until they agree with it,
        # then assert on what the page shows
        wait_until(page, f"() => {{ const c = ({CUES})();"
                         " return c.fits_shaded === 0 && c.wide_shaded === c.wide; }")
        cues = page.evaluate(CUES)
        assert cues["script"], "the page does not load _static/math_overflow.js"
        assert cues["fits"] > 50 and cues["fits_shaded"] == 0, cues
        assert cues["wide_shaded"] == cues["wide"], cues
    finally:
        context.close()


# Display formulas on a phone: how many still need a swipe once
# _static/math_overflow.js has set the slightly wide ones smaller (to 60 % of
# the text's size at least), and the equation numbers' width.
DISPLAY = """async () => {
    const frame = () => new Promise(done => requestAnimationFrame(done));
    for (let n = 0; n < 5; n++) await frame();      // the ResizeObserver's first round
    const boxes = [...document.querySelectorAll('article div.svmlib-math > mjx-container')];
    const wide = boxes.filter(b => b.scrollWidth > b.clientWidth + 1);
    // a formula's scale: its size against an inline formula's (the build gives both the
    // same size, 127.3 % of the text's, as MathJax does in a browser)
    const inline = document.querySelector('article span.svmlib-math > mjx-container');
    const size = e => parseFloat(getComputedStyle(e).fontSize);
    const scales = boxes.map(b => size(b) / size(inline));
    const scaled = scales.filter(s => s < 1 - 1e-3);
    const numbers = [...document.querySelectorAll('article div.svmlib-math span.eqno')]
        .map(e => e.getBoundingClientRect().width);
    return {total: boxes.length, wide: wide.length, scaled: scaled.length,
            smallest: Math.min(1, ...scaled), largest: Math.max(...scales),
            cued: wide.filter(b => b.classList.contains('svmlib-overflows')).length,
            widest_number: Math.max(0, ...numbers)};
}"""


@pytest.mark.parametrize("stem", ["04_lagrange_kkt", "06_soft_margin", "07_smo", "08_kernels"])
def test_at_most_a_quarter_of_display_formulas_need_a_swipe_on_a_phone(browser, stem):
    context, page = visit(browser, stem, **PHONE)
    try:
        found = page.evaluate(DISPLAY)
        assert found["total"] >= 5, found
        assert found["wide"] <= 0.25 * found["total"], found
        assert found["cued"] == found["wide"], found        # each one left has its cue
        assert found["smallest"] >= 0.6 / 1.273 - 1e-3, found   # 60 % of the text's size
        assert found["widest_number"] <= 48, found
    finally:
        context.close()
    # at 1440 px every display formula keeps the size the build gave it (the script once
    # reset it to the text's, so every formula shrank when it was first laid out and a jump
    # aimed at the page as it was before landed hundreds of pixels off)
    context, page = visit(browser, stem, **DESKTOP)
    try:
        found = page.evaluate(DISPLAY)
        assert found["scaled"] == 0 and abs(found["largest"] - 1) < 1e-3, found
    finally:
        context.close()
