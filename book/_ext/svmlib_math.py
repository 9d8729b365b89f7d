"""The book's formulas typeset at build time: no MathJax in the reader's browser.

Sphinx writes each formula as TeX (``<span class="math ...">\\(...\\)</span>``,
``<div class="math ...">\\[...\\]</div>``) for MathJax to typeset in the
browser.  That costs every page a 1.1 MB script and, on opening, main-thread
tasks of 0.2-1.4 s (MathJax's evaluation and its first typesetting: finding
the TeX, measuring, laying the page out again), and the formulas appear
seconds after the text (benchmarks/pages.md).

Here the same MathJax (3.2.2, ``mathjax-full`` from npm, build time only:
book/_ext/mathjax) typesets every formula of the built pages once, in Node,
into the CommonHTML that the browser's MathJax would have produced, with the
formula's MathML beside it for screen readers (MathJax's assistive MathML).
The pages then carry finished formulas, one shared stylesheet
(``_static/svmlib-math.css``: the rules for the characters the book uses,
fonts from sphinx-mathjax-offline's copy of MathJax's woff files) and no
MathJax script.  What readers lose is MathJax's right-click menu (zoom,
"show math as TeX", its explorer); the formulas' TeX is still in each
chapter's source.

The wrappers' class ``math`` becomes ``svmlib-math`` (``book/_static/math.css``
gives them the theme's layout: equation numbers, scrolling when too wide):
``math`` is the class that the browser's MathJax configuration and the tests
associate with TeX still to be typeset.

``SVMLIB_BROWSER_MATHJAX=1`` at build time leaves the pages as Sphinx wrote
them, for MathJax in the browser (``mathjax3_config`` in _config.yml).

Incremental builds: pages that Sphinx did not write again are already
typeset; the TeX of every formula typeset so far is kept in
``<outdir>/../svmlib_math.json`` so that the stylesheet still covers them.
"""

import html
import json
import pathlib
import re
import shutil
import subprocess

HERE = pathlib.Path(__file__).resolve().parent
RENDER = HERE / "mathjax" / "render.js"
CSS_NAME = "svmlib-math.css"
#: sphinx-mathjax-offline copies MathJax's files to _static/mathjax; the
#: stylesheet (in _static) names the fonts relative to itself.
FONT_URL = "mathjax/output/chtml/fonts/woff-v2"

# The size MathJax gives a formula in the browser: it matches the height of
# the text's x to the math font's (TeX's x-height is 0.442 em).  Measured in
# this book's pages (Chromium, the theme's system-ui font): the browser's
# MathJax set font-size 127.3% on every mjx-container; the same scale here.
EM = 16
SCALE = 1.273
EX = round(EM * 0.442 * SCALE, 3)
LINE_WIDTH = 80 * 16

_INLINE = re.compile(
    r'<span class="math notranslate nohighlight">\\\((.*?)\\\)</span>', re.S)
_DISPLAY = re.compile(
    r'(<div class="math notranslate nohighlight"(?: id="[^"]*")?>\s*'
    r'(?:<span class="eqno">.*?</span>\s*)?)\\\[(.*?)\\\]\s*(</div>)', re.S)
_MATHJAX_SCRIPTS = [
    re.compile(r'\s*<script>window\.MathJax = .*?</script>', re.S),
    re.compile(r'\s*<script defer="defer" src="[^"]*_static/mathjax/tex-chtml\.js[^"]*">'
               r'</script>'),
]


class MathError(RuntimeError):
    pass


def _tex(escaped):
    return html.unescape(escaped).strip()


def formulas_of(text):
    """The (tex, display) pairs of a page still to be typeset."""
    found = [(_tex(m.group(1)), 0) for m in _INLINE.finditer(text)]
    found += [(_tex(m.group(2)), 1) for m in _DISPLAY.finditer(text)]
    return found


def typeset(formulas, node="node"):
    """HTML of each formula and the stylesheet for all of them (one Node run)."""
    if not RENDER.parent.joinpath("node_modules", "mathjax-full").is_dir():
        raise MathError(
            "book/_ext/mathjax/node_modules is missing: run `npm ci --prefix book/_ext/mathjax` "
            "(`make book` does it), or build with MathJax in the browser: "
            "SVMLIB_BROWSER_MATHJAX=1")
    if shutil.which(node) is None:
        raise MathError(f"typesetting the formulas needs Node.js ({node!r} not found on PATH)")
    request = {"formulas": [list(f) for f in formulas], "em": EM, "ex": EX, "scale": SCALE,
               "width": LINE_WIDTH, "fontURL": FONT_URL}
    done = subprocess.run([node, str(RENDER)], input=json.dumps(request), capture_output=True,
                          text=True, encoding="utf-8")
    if done.returncode != 0:
        raise MathError("MathJax (book/_ext/mathjax/render.js) failed: " + done.stderr.strip())
    answer = json.loads(done.stdout)
    return answer["html"], answer["css"]


def rewrite(text, rendered):
    """A page with its formulas replaced by their typeset HTML (``rendered``: dict)."""
    def inline(m):
        return ('<span class="svmlib-math notranslate nohighlight">'
                + rendered[(_tex(m.group(1)), 0)] + "</span>")

    def display(m):
        head = m.group(1).replace('class="math notranslate', 'class="svmlib-math notranslate', 1)
        return head + rendered[(_tex(m.group(2)), 1)] + m.group(3)

    text = _INLINE.sub(inline, text)
    text = _DISPLAY.sub(display, text)
    return text


def _strip_mathjax(text, prefix):
    for pattern in _MATHJAX_SCRIPTS:
        text = pattern.sub("", text)
    link = f'<link rel="stylesheet" type="text/css" href="{prefix}_static/{CSS_NAME}" />'
    if CSS_NAME not in text and "svmlib-math" in text:
        text = text.replace("</head>", f"    {link}\n  </head>", 1)
    return text


def typeset_pages(outdir, pages, prefix_of):
    """Typeset the formulas of ``pages`` ({path: html}); returns the new texts."""
    outdir = pathlib.Path(outdir)
    store = outdir.parent / "svmlib_math.json"
    try:
        known = [tuple(f) for f in json.loads(store.read_text(encoding="utf-8"))]
    except (OSError, ValueError):
        known = []
    wanted = []
    for text in pages.values():
        wanted += formulas_of(text)
    order = list(dict.fromkeys(known + wanted))
    if not wanted and (outdir / "_static" / CSS_NAME).exists():
        out = {}
    else:
        htmls, css = typeset(order)
        rendered = dict(zip(order, htmls))
        (outdir / "_static" / CSS_NAME).write_text(css, encoding="utf-8")
        store.write_text(json.dumps(order, ensure_ascii=False), encoding="utf-8")
        out = {}
        for page, text in pages.items():
            if formulas_of(text):
                out[page] = rewrite(text, rendered)
    result = {}
    for page, text in pages.items():
        new = _strip_mathjax(out.get(page, text), prefix_of(page))
        result[page] = new
    return result
