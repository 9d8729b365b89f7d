"""What the reader gets from the built HTML book, beyond Jupyter Book's defaults.

The book's one local Sphinx extension for reading (``sphinx: local_extensions``
in _config.yml); everything that changes what a page loads lives here:

* **alt text**: every image inside a figure gets its caption as ``alt``
  (``Fig. 3.2`` numbers aside), instead of Sphinx's default, the file path;
* **figures that read on a phone**: every static figure opens, on a tap, a
  click or Enter, in a full-screen view at the size it was drawn for, which
  scrolls and pinch-zooms (``_static/figure_zoom.js``); see ``_zoomable``;
* **lighter pages**, by rewriting each HTML page once the build is done:

  - the frames of the interactive figures (``svmlib.widgets``), inline
    base64 in the cell output, become files under ``_images/svmlib/`` that
    the page loads when the figure scrolls into view (``loading="lazy"``)
    and, one at a time, as the reader moves a control;
  - static figures load lazily too (``loading="lazy" decoding="async"``);
  - no FontAwesome JavaScript (1.5 MB): the theme's stylesheet already draws
    its few icons with the FontAwesome web font;
  - no sphinx-thebe (Jupyter Book adds it; it is not configured, loads
    nothing useful offline and throws "THEBE_JS_URL has already been
    declared" on every page);
  - no ipywidgets state: a notebook executed in Jupyter stores the state of
    its live widgets, and myst-nb copies it into the page as a
    ``<script type="application/vnd.jupyter.widget-state+json">`` block
    (45-143 KB per chapter); the book renders every interactive figure as
    kernel-free HTML and loads no widget manager, so nothing reads it;
  - the search index and its scripts only on the search page;
  - no MathJax: the formulas are typeset at build time (``svmlib_math``);
  - the colour theme settled in the page's head (``THEME_NOW``), so that
    the theme's script does not restyle the whole page when it loads;

* **search snippets from ``file://``**: Sphinx's search page fetches every
  result page to cut a snippet out of it; from ``file://`` the browser
  refuses those requests (no snippets, one error per result), and over HTTP
  one search downloads every matching page (tens of MB).  Instead the title
  and prose of every section of a page are written to one small script,
  ``_static/search_text/<page>.js``, which the search page loads (as a
  script, which ``file://`` allows) for the pages whose results it shows,
  and ``search_scorer.js`` cuts the snippets from it.  Code cells, their
  outputs and display equations are left out; inline formulas are kept as
  short text.  Each page's file grows with that page only, so the search
  scales with the book;
* **search ranking**: ``search_scorer.js`` (loaded before Sphinx's
  searchtools.js, it defines the ``Scorer`` that searchtools.js then uses)
  ranks a chapter whose title names the query above the API entries and
  sections that merely mention it, from ``_static/search_rank.js`` (each
  chapter's section titles and word counts, a few KB per chapter);
* **bibliography back-links**: each entry of the bibliography lists the
  places that cite it;
* **the PDF edition**: each interactive figure becomes its first frame and a
  pointer to the HTML (``widgets_as_frames``).
"""

import base64
import hashlib
import html
import json
import os
import pathlib
import re
import sys

from docutils import nodes

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import svmlib_math  # noqa: E402  (book/_ext is not a package)

FRAMES_DIR = "_images/svmlib"

_DATA_URI = re.compile(r"data:image/png;base64,([A-Za-z0-9+/=]+)")
_PAYLOAD = re.compile(r"var D=(\{.*?\}),n=D\.labels\.length", re.S)
_WIDGET = re.compile(r'<div class="svmlib-widget" id="[^"]+">.*?</script></div>', re.S)


# ------------------------------------------------------------------ alt text

_TEX_WORDS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "varepsilon": "ε", "epsilon": "ε",
    "xi": "ξ", "theta": "θ", "varphi": "φ", "phi": "φ", "lambda": "λ", "mu": "μ",
    "sigma": "σ", "pi": "π", "nabla": "∇", "langle": "⟨", "rangle": "⟩", "le": "≤",
    "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "pm": "±", "cdot": "·",
    "times": "×", "sum": "Σ", "infty": "∞", "in": "∈", "to": "→", "top": "ᵀ",
    "ldots": "…", "dots": "…", "sqrt": "√", "quad": " ", "qquad": " ", "left": "",
    "right": "", "big": "", "Big": "", "lVert": "‖", "rVert": "‖", "mid": "|",
}
_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_SUP = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def tex_to_text(tex):
    """Readable Unicode for a short TeX formula (alt text is read aloud, not typeset)."""
    # a font command without braces takes one token: \boldsymbol\alpha
    tex = re.sub(r"\\(mathbf|boldsymbol|mathrm|mathit|mathcal|bm)\s*(\\[A-Za-z]+|[A-Za-z0-9])",
                 r"\\\1{\2}", tex)
    t = re.sub(r"\\(mathbf|boldsymbol|mathrm|text|operatorname|mathit|mathcal|textrm|bm|"
               r"mathbb)\s*\{([^{}]*)\}",
               lambda m: "ℝ" if m.group(1) == "mathbb" and m.group(2) == "R" else "{%s}" % m.group(2),
               tex)
    t = t.replace("\\|", "‖").replace("\\{", "{").replace("\\}", "}")
    t = re.sub(r"\\[,;:!]", " ", t)
    t = re.sub(r"\\([A-Za-z]+)", lambda m: _TEX_WORDS.get(m.group(1), m.group(1)), t)
    t = re.sub(r"_\{?([0-9]+)\}?", lambda m: m.group(1).translate(_SUB), t)
    t = re.sub(r"\^\{?([0-9]+)\}?", lambda m: m.group(1).translate(_SUP), t)
    t = re.sub(r"[_^]", "", t).replace("{", "").replace("}", "")
    return " ".join(t.split())


def _caption_text(figure):
    for child in figure.children:
        if isinstance(child, nodes.caption):
            parts = []
            for node in child.findall(nodes.Text):
                parent = node.parent
                if isinstance(parent, (nodes.math, nodes.math_block)):
                    parts.append(tex_to_text(parent.astext()))
                else:
                    parts.append(str(node))
            return " ".join("".join(parts).split())
    return ""


def _looks_like_a_file(alt):
    return not alt or re.search(r"\.(png|jpe?g|svg|gif|webp)$", alt.strip(), re.I) is not None


def add_alt_text(app, doctree, docname):
    """Give each figure's image its caption as alt text."""
    for figure in doctree.findall(nodes.figure):
        caption = _caption_text(figure)
        if not caption:
            continue
        for image in figure.findall(nodes.image):
            if _looks_like_a_file(image.get("alt", "")):
                image["alt"] = caption


# ------------------------------------------------------------------ search
# Snippets that work from file:// and chapters ranked above API entries.

HERE = pathlib.Path(__file__).resolve().parent

#: At most this many characters of prose are kept per section (snippets are
#: cut around the first match, and the first matches come early).
MAX_SECTION_CHARS = 2400
#: The API pages' sections are long lists of signatures and docstrings whose
#: objects Sphinx's index already describes; a short opening is enough for a
#: snippet, and it keeps the search page's download small.
MAX_API_SECTION_CHARS = 500

_SNIPPET_GREEK = {name: chr(code) for name, code in [
    ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4),
    ("epsilon", 0x3B5), ("varepsilon", 0x3B5), ("zeta", 0x3B6), ("eta", 0x3B7),
    ("theta", 0x3B8), ("kappa", 0x3BA), ("lambda", 0x3BB), ("mu", 0x3BC), ("nu", 0x3BD),
    ("xi", 0x3BE), ("pi", 0x3C0), ("rho", 0x3C1), ("sigma", 0x3C3), ("tau", 0x3C4),
    ("phi", 0x3C6), ("varphi", 0x3C6), ("chi", 0x3C7), ("psi", 0x3C8), ("omega", 0x3C9),
    ("Gamma", 0x393), ("Delta", 0x394), ("Lambda", 0x39B), ("Phi", 0x3A6), ("Sigma", 0x3A3),
    ("Omega", 0x3A9)]}
_SNIPPET_SYMBOLS = {"le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠",
            "in": "∈", "sum": "Σ", "infty": "∞", "cdot": "·", "times": "×", "to": "→",
            "rightarrow": "→", "mapsto": "↦", "langle": "⟨", "rangle": "⟩", "|": "‖",
            "pm": "±", "approx": "≈", "partial": "∂", "nabla": "∇", "top": "ᵀ"}


_SNIPPET_SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx",
                "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
_SNIPPET_SUP = dict(zip("0123456789+-=()inT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿᵀ"))


def _snippet_script(match):
    """``_1`` -> ``₁``, ``^{2}`` -> ``²`` where Unicode has the character."""
    table = _SNIPPET_SUB if match.group(1) == "_" else _SNIPPET_SUP
    # group 2 is a braced script, possibly empty once commands are stripped
    # (\nu_{\max} -> _{}); group 3 a single character
    inner = match.group(2) if match.group(2) is not None else match.group(3)
    if inner and all(ch in table for ch in inner):
        return "".join(table[ch] for ch in inner)
    return inner


def snippet_text(tex):
    """A short plain-text reading of an inline formula (for snippets only)."""
    def command(match):
        name = match.group(1)
        return _SNIPPET_GREEK.get(name) or _SNIPPET_SYMBOLS.get(name) or ""
    text = re.sub(r"\\[dt]?frac\s*(?:\{([^{}]*)\}|(\w))\s*(?:\{([^{}]*)\}|(\w))",
                  lambda m: f"{m.group(1) or m.group(2)}/{m.group(3) or m.group(4)}", tex)
    text = re.sub(r"\\([A-Za-z]+|\|)", command, text)
    text = re.sub(r"([_^])(?:\{([^{}]*)\}|([A-Za-z0-9]))", _snippet_script, text)
    text = re.sub(r"[{}^_$\\]", "", text)
    return " ".join(text.split())


def _is_code_cell(node):
    return isinstance(node, nodes.container) and (
        "cell" in node.get("classes", []) or node.get("nb_element") == "cell_code")


class _Prose(nodes.NodeVisitor):
    """Collect the prose of one section, without its subsections."""

    def __init__(self, document):
        super().__init__(document)
        self.parts = []

    def dispatch_visit(self, node):
        if isinstance(node, nodes.section) or _is_code_cell(node) or isinstance(node, (
                nodes.raw, nodes.literal_block, nodes.math_block, nodes.comment,
                nodes.target, nodes.system_message, nodes.image, nodes.substitution_definition)):
            raise nodes.SkipNode
        if isinstance(node, nodes.math):
            self.parts.append(snippet_text(node.astext()))
            raise nodes.SkipNode
        if isinstance(node, nodes.Text):
            self.parts.append(str(node))
        elif isinstance(node, (nodes.paragraph, nodes.title, nodes.list_item, nodes.term)):
            self.parts.append(" ")

    def dispatch_departure(self, node):
        if isinstance(node, (nodes.paragraph, nodes.title, nodes.list_item)):
            self.parts.append(" ")


def section_texts(doctree, max_chars=MAX_SECTION_CHARS):
    """``[[ids, title, text], ...]``: each section's ids, title and own prose."""
    out = []
    for section in doctree.findall(nodes.section):
        visitor = _Prose(doctree)
        title = ""
        for child in section.children:
            if isinstance(child, nodes.section):
                continue
            if isinstance(child, nodes.title):
                title = " ".join(child.astext().split())
                continue
            child.walkabout(visitor)
        text = " ".join("".join(visitor.parts).split())
        if text or title:
            out.append([list(section["ids"]), title, text[:max_chars]])
    return out


def add_search_text(app, pagename, templatename, context, doctree):
    """The search page (only) loads the ranking data and the scorer, in that order."""
    if pagename == "search":
        app.add_js_file(SEARCH_RANK)
        app.add_js_file("search_scorer.js")


#: Under _static: one script per page with its sections' text, loaded by the
#: search page for the results it shows (a <script> element: file:// allows
#: it, where it refuses fetch); and one small script for the ranking.
SEARCH_DIR = "search_text"
SEARCH_RANK = "search_rank.js"
_WORD = re.compile(r"[0-9a-z\u00c0-\u024f\u0370-\u03ff]{2,}")


def search_file(docname):
    """The file name of a page's search text (also computed by search_scorer.js)."""
    return docname.replace("/", "__") + ".js"


def word_counts(sections):
    """A chapter's prose as ``"word:count ..."`` (``word`` alone when once), most used first.

    The scorer sums the counts of the words that start with the first query
    word: how often the chapter's prose uses it (``aboutness``).
    """
    counts = {}
    for _, _, text in sections:
        for word in _WORD.findall(text.lower()):
            counts[word] = counts.get(word, 0) + 1
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return " ".join(word if n == 1 else f"{word}:{n}" for word, n in ranked)


def write_search_text(app, exception):
    if exception is not None or app.builder is None or app.builder.format != "html":
        return
    env = app.env
    static = pathlib.Path(app.builder.outdir) / "_static"
    folder = static / SEARCH_DIR
    folder.mkdir(parents=True, exist_ok=True)
    rank, written = {}, set()
    for docname in sorted(env.found_docs):
        try:  # resolved, so that cross-references read as the reader sees them
            doctree = env.get_and_resolve_doctree(docname, app.builder)
        except FileNotFoundError:  # a document that was not read in this build
            continue
        sections = section_texts(doctree, MAX_API_SECTION_CHARS if docname.startswith(
            "book/api/") else MAX_SECTION_CHARS)
        payload = json.dumps(sections, ensure_ascii=False, separators=(",", ":"))
        payload = payload.replace("</", "<\\/")
        name = search_file(docname)
        (folder / name).write_text(
            f"BOOK_SEARCH_PAGE({json.dumps(docname)},{payload});\n", encoding="utf-8")
        written.add(name)
        if CHAPTER_DOC.match(docname):
            rank[docname] = {"t": [title for _, title, _ in sections if title],
                             "w": word_counts(sections)}
    for stale in folder.glob("*.js"):
        if stale.name not in written:
            stale.unlink()
    (static / "search_text.js").unlink(missing_ok=True)  # the single file of earlier builds
    payload = json.dumps(rank, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    (static / SEARCH_RANK).write_text("window.BOOK_SEARCH_RANK=" + payload + ";\n",
                                      encoding="utf-8")
    # written on every build (not a static file: Sphinx would not refresh
    # it in an existing output folder)
    (static / "search_scorer.js").write_text(
        (HERE / "search_scorer.js").read_text(encoding="utf-8"), encoding="utf-8")


#: The chapters: the scorer ranks these with their titles and word counts.
CHAPTER_DOC = re.compile(r"^book/\d\d_")


# ----------------------------------------------------- page post-processing

def _relative_root(page, outdir):
    depth = len(page.relative_to(outdir).parts) - 1
    return "../" * depth


def _write_frame(outdir, b64, written):
    """Write one PNG (base64) under FRAMES_DIR; return its file name."""
    data = base64.b64decode(b64)
    name = hashlib.sha1(data).hexdigest()[:20] + ".png"
    if name not in written:
        path = outdir / FRAMES_DIR / name
        if not path.exists():
            path.write_bytes(data)
        written.add(name)
    return name


def _externalize_widget(block, prefix, outdir, written):
    """One widget's HTML with its frames moved to files."""
    def payload(match):
        data = json.loads(match.group(1).replace("<\\/", "</"))
        if not data.get("src", "").startswith("data:"):
            return match.group(0)
        for key in ("images", "phone"):
            data[key] = [_write_frame(outdir, b64, written) for b64 in data.get(key, [])]
        data["src"] = prefix + FRAMES_DIR + "/"
        text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
        text = text.replace("</", "<\\/").replace("<!--", "<\\!--")
        return f"var D={text},n=D.labels.length"

    block = _PAYLOAD.sub(payload, block)
    return _DATA_URI.sub(
        lambda m: prefix + FRAMES_DIR + "/" + _write_frame(outdir, m.group(1), written), block)


_DROP = [
    # FontAwesome's SVG/JS build; the theme's CSS has the web font.
    re.compile(r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>'),
    # sphinx-thebe: configuration, loader, per-page config and kernel name.
    re.compile(r'\s*<script>const THEBE_JS_URL = [^<]*</script>'),
    re.compile(r'\s*<script async="async" src="[^"]*_static/sphinx-thebe\.js[^"]*"></script>'),
    re.compile(r'\s*<script type="text/x-thebe-config">.*?</script>', re.S),
    re.compile(r"\s*<script>kernelName = '[^']*'</script>"),
    re.compile(r'\s*<link rel="stylesheet" type="text/css" href="[^"]*_static/sphinx-thebe\.css'
               r'[^"]*" />'),
    # the live ipywidgets' state: no widget manager reads it in the book.
    re.compile(r'\s*<script type="application/vnd\.jupyter\.widget-state\+json">.*?</script>',
               re.S),
]
_SEARCH_ONLY = re.compile(
    r'\s*<script src="[^"]*(_static/searchtools\.js|_static/language_data\.js|searchindex\.js)'
    r'[^"]*"></script>')
# A static figure's <img> (not an interactive figure's frame under _images/svmlib/),
# with the zoom link of an earlier run of this rewrite in front of it, if any.
_STATIC_IMG = re.compile(
    r'(<a class="svmlib-zoom"[^>]*>)?<img ([^>]*?)src="((?:\.\./)*_images/(?!svmlib/)([^"/]+))"'
    r'([^>]*?)\s*/?>')
_IMAGE_REFERENCE = re.compile(
    r'<a class="reference internal image-reference" href="[^"]*">\s*'
    r'(<a class="svmlib-zoom".*?</a>)\s*</a>', re.S)
_ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')
_CSS_SIZE = re.compile(r"(width|height):\s*([0-9.]+)px")


def _png_size(path):
    """(width, height) in pixels from a PNG's header, or None."""
    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except OSError:
        return None
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def _drawn_size(attrs, path):
    """The CSS size a figure was drawn for.

    The kernels of `make book` store figures at twice their size ("retina",
    book/_ext/ipython) and the notebook output keeps the size they are meant
    for, which Sphinx writes as the image's width/height (attributes or
    style); without it, the PNG's own pixels.
    """
    sizes = {k: v for k, v in attrs.items() if k in ("width", "height")}
    sizes.update(dict(_CSS_SIZE.findall(attrs.get("style", ""))))
    try:
        return float(sizes["width"].removesuffix("px")), float(sizes["height"].removesuffix("px"))
    except (KeyError, ValueError):
        return _png_size(path)


def _zoomable(match, page):
    """A static figure's <img>, loaded lazily, inside a link that enlarges it.

    Without JavaScript the link opens the PNG; with _static/figure_zoom.js it
    opens a full-screen view that a phone reader can pan and pinch-zoom.
    """
    if match.group(1):  # rewritten by an earlier run (an unchanged page)
        return match.group(0)
    before, src, after = match.group(2), match.group(3), match.group(5)
    attrs = dict(_ATTR.findall(before + " " + after))
    tag = f'<img loading="lazy" decoding="async" {before}src="{src}"{after} />'
    if "loading=" in before + after:
        tag = f"<img {before}src=\"{src}\"{after} />"
    size = _drawn_size(attrs, page.parent / src)
    if size is None:
        return tag
    if "width" not in attrs and "height" not in attrs:
        # the browser reserves the figure's box (width/height attributes give
        # its aspect ratio) before the lazily loaded PNG arrives
        tag = tag.replace("<img ", f'<img width="{size[0]:g}" height="{size[1]:g}" ', 1)
    return (f'<a class="svmlib-zoom" href="{src}" data-width="{size[0]:g}" '
            f'data-height="{size[1]:g}">{tag}'
            '<span class="svmlib-zoom-cue" aria-hidden="true">\u2922 Enlarge</span>'
            '<span class="svmlib-hidden"> (enlarge the figure)</span></a>')


def rewrite_page(page, outdir, written):
    text = page.read_text(encoding="utf-8")
    before = text
    for pattern in _DROP:
        text = pattern.sub("", text)
    if page.name != "search.html":
        text = _SEARCH_ONLY.sub("", text)
    prefix = _relative_root(page, outdir)
    text = _WIDGET.sub(lambda m: _externalize_widget(m.group(0), prefix, outdir, written), text)
    text = _STATIC_IMG.sub(lambda m: _zoomable(m, page), text)
    # Sphinx links a figure's image to its own file; the zoom link does the same
    # and more, and a link inside a link is invalid HTML (the parser leaves the
    # outer one empty, a nameless Tab stop before every figure): keep only ours
    text = _IMAGE_REFERENCE.sub(r"\1", text)
    if text != before:
        page.write_text(text, encoding="utf-8")
    return text


# ------------------------------------------------------ bibliography links

_CITE = re.compile(r'<span class="bibtex-citation" id="([^"]+)">(.*?)</span>', re.S)
_TARGET = re.compile(r'href="(?:[^"#]*/)?bibliography\.html#([^"]+)"')
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def _page_title(text):
    match = _TITLE.search(text)
    if not match:
        return ""
    title = html.unescape(re.sub(r"<[^>]+>", "", match.group(1))).strip()
    return re.sub(r"\s+[—–-]\s+Support Vector Machines, Interactively$", "", title)


def add_backlinks(outdir, pages):
    """List under each bibliography entry the places that cite it."""
    bib = outdir / "book" / "bibliography.html"
    if not bib.exists():
        return
    cited = {}  # entry id -> [(page path from book/, anchor, page title)]
    for page, text in pages.items():
        if page == bib:
            continue
        title = _page_title(text)
        rel = page.relative_to(bib.parent) if bib.parent in page.parents else None
        if rel is None:
            continue
        for anchor, inner in _CITE.findall(text):
            for target in _TARGET.findall(inner):
                places = cited.setdefault(target, [])
                if (str(rel), anchor) not in [(p, a) for p, a, _ in places]:
                    places.append((rel.as_posix(), anchor, title))
    text = bib.read_text(encoding="utf-8")

    def entry(match):
        places = cited.get(match.group(1))
        if not places:
            return match.group(0)
        by_page = {}
        for path, anchor, title in places:
            by_page.setdefault((path, title), []).append(anchor)
        links = []
        for (path, title), anchors in by_page.items():
            refs = ", ".join(
                f'<a href="{path}#{anchor}">{k + 1}</a>' for k, anchor in enumerate(anchors))
            links.append(f"{html.escape(title)} ({refs})" if len(anchors) > 1 else
                         f'<a href="{path}#{anchors[0]}">{html.escape(title)}</a>')
        return (match.group(0) + '<p class="svmlib-backrefs">Cited in: '
                + "; ".join(links) + ".</p>")

    text = re.sub(r'<div class="citation" id="([^"]+)" role="doc-biblioentry">.*?(?=</div>)',
                  entry, text, flags=re.S)
    bib.write_text(text, encoding="utf-8")


PDF_NAME = "svm-interactively.pdf"
_PDF_LINK = ('<p class="svmlib-pdf-link"><a href="../{name}">The whole book as one PDF</a> '
             "(each interactive figure shown in one setting).</p>")


def link_pdf(outdir):
    """Copy the PDF edition next to the HTML and link it from the landing page.

    Returns True if the PDF exists (``make pdf`` builds it into _build/latex).
    """
    outdir = pathlib.Path(outdir)
    pdf = outdir.parent / "latex" / "book.pdf"
    if not pdf.exists():
        return False
    (outdir / PDF_NAME).write_bytes(pdf.read_bytes())
    intro = outdir / "book" / "intro.html"
    if intro.exists():
        text = intro.read_text(encoding="utf-8")
        if "svmlib-pdf-link" not in text:
            # after the page's title
            text = re.sub(r"(<h1>.*?</h1>)", lambda m: m.group(1) + _PDF_LINK.format(
                name=PDF_NAME), text, count=1, flags=re.S)
            intro.write_text(text, encoding="utf-8")
    return True


def finish(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    outdir = pathlib.Path(app.outdir)
    (outdir / FRAMES_DIR).mkdir(parents=True, exist_ok=True)
    written = set()
    pages = {}
    for page in sorted(outdir.rglob("*.html")):
        if FRAMES_DIR in page.as_posix() or "_static" in page.parts:
            continue
        pages[page] = rewrite_page(page, outdir, written)
    if not os.environ.get("SVMLIB_BROWSER_MATHJAX"):
        # formulas typeset here, not by MathJax in the browser (svmlib_math)
        typeset = svmlib_math.typeset_pages(
            outdir, pages, lambda page: _relative_root(page, outdir))
        for page, text in typeset.items():
            if text != pages[page]:
                page.write_text(text, encoding="utf-8")
                pages[page] = text
    add_backlinks(outdir, pages)
    link_pdf(outdir)
    # frames of an earlier build that no page uses any more; in an incremental
    # build the pages Sphinx did not write again already name their frame
    # files (and have no base64 left to write), so those names count as used
    frame_name = re.compile(r"\b[0-9a-f]{20}\.png\b")
    for page in pages:
        written.update(frame_name.findall(page.read_text(encoding="utf-8")))
    for stale in (outdir / FRAMES_DIR).glob("*.png"):
        if stale.name not in written:
            stale.unlink()


# ------------------------------------------------------------- PDF edition

_OWNERS = [None, {}]


def _source_doc(node, default, doctree=None):
    """The document a node of LaTeX's assembled tree came from.

    Sphinx's ``inline_all_toctrees`` hangs each document's children under a
    ``start_of_file`` node without resetting their ``parent``, so walking up
    from a node stops at its old document and never meets the
    ``start_of_file``.  With ``doctree`` (the assembled tree) the owners are
    found walking down from each ``start_of_file`` instead, the innermost
    one winning.
    """
    if doctree is not None:
        if _OWNERS[0] is not doctree:
            from sphinx import addnodes

            owners = {}
            for start in doctree.findall(addnodes.start_of_file):  # outer ones first
                for inner in start.findall(include_self=False):
                    owners[id(inner)] = start["docname"]
            _OWNERS[0], _OWNERS[1] = doctree, owners
        if id(node) in _OWNERS[1]:
            return _OWNERS[1][id(node)]
    while node is not None:
        if node.tagname == "start_of_file":
            return node["docname"]
        node = node.parent
    return default


def widgets_as_frames(app, doctree, docname):
    """LaTeX: each interactive figure becomes its first frame and a pointer to the HTML.

    myst-nb hands the LaTeX builder the figure's ``text/html`` (see
    ``nb_mime_priority_overrides``); here it becomes an image of the setting
    the figure opens with, captioned with its title, that setting's readout
    and where to move the controls.
    """
    if app.builder.format != "latex":
        return
    outdir = pathlib.Path(app.outdir) / "svmlib_frames"
    outdir.mkdir(parents=True, exist_ok=True)
    for raw in list(doctree.findall(nodes.raw)):
        if "html" not in raw.get("format", ""):
            continue
        if "svmlib-widget" not in raw.astext():
            if "<script" in raw.astext() or "<style" in raw.astext():
                continue  # page machinery, not content: LaTeX drops raw HTML
            # other HTML outputs (the exercise checkers' verdicts) as plain text
            words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", raw.astext())).split())
            words = words.replace("\u2705", "[correct]").replace("\u274c", "[not yet]")
            if words and raw.parent is not None and not isinstance(raw.parent, nodes.paragraph):
                raw.replace_self(nodes.paragraph(text=words))
            continue
        text = raw.astext()
        first = _DATA_URI.search(text[text.find('<img class="svmlib-frame"'):])
        if first is None:
            continue
        png = base64.b64decode(first.group(1))
        path = outdir / (hashlib.sha1(png).hexdigest()[:20] + ".png")
        path.write_bytes(png)
        title = re.search(r'<div class="svmlib-title">(.*?)</div>', text, re.S)
        title = re.sub(r"<[^>]+>", "", title.group(1)) if title else "Interactive figure"
        readout = re.search(r'<div class="svmlib-readout"[^>]*>(.*?)</div><script>', text, re.S)
        readout = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", readout.group(1))).split()) \
            if readout else ""
        figure = nodes.figure()
        figure += nodes.image(uri=str(path), alt=title, width="80%",
                              candidates={"*": str(path)})
        caption = nodes.caption()
        caption += nodes.strong(text=f"Interactive figure: {html.unescape(title)}. ")
        caption += nodes.Text(f"{readout} " if readout else "")
        caption += nodes.emphasis(
            text="One setting shown; in the HTML edition of this chapter "
                 f"({_source_doc(raw, docname, doctree)}.html) its controls move the figure.")
        figure += caption
        raw.replace_self(figure)


#: LaTeX at the start of a document of the PDF: the introduction's sections
#: are unnumbered front matter (in the HTML they have no number either), so
#: chapter 1 is "Hyperplanes and linear classifiers" as in the HTML; the
#: playground is unnumbered; the appendices are lettered (A Notation, ...).
_LATEX_AT_START = {
    None: r"\chardef\svmlibsecnumdepth=\value{secnumdepth}\setcounter{secnumdepth}{-1}",
    "book/01_hyperplanes": r"\setcounter{secnumdepth}{\svmlibsecnumdepth}",
    "book/playground": r"\setcounter{secnumdepth}{-1}",
    "book/notation": r"\appendix\setcounter{secnumdepth}{\svmlibsecnumdepth}",
}


def latex_numbering(app, doctree, docname):
    """LaTeX: chapter numbers as in the HTML edition (see ``_LATEX_AT_START``).

    The LaTeX builder assembles the whole book into one tree under the root
    document (the introduction), whose sections would otherwise become
    chapters 1-5 and push "Hyperplanes and linear classifiers" to chapter 6.
    """
    if app.builder.format != "latex" or docname != app.config.root_doc:
        return
    from sphinx import addnodes

    def raw(tex):
        return nodes.raw("", tex + "\n", format="latex")

    doctree.insert(0, raw(_LATEX_AT_START[None]))
    for start in doctree.findall(addnodes.start_of_file):
        tex = _LATEX_AT_START.get(start["docname"])
        if tex:
            start.insert(0, raw(tex))


def latex_exercise_labels(app, doctree, docname):
    """LaTeX: an exercise can be the target of an ordinary ``{ref}``.

    sphinx-exercise labels an exercise ``exercise:<label>`` in LaTeX, while
    a ``{ref}`` to it points at ``<document>:<label>`` (what the HTML uses):
    the PDF had "reference undefined" for every such link.  Each exercise
    also gets the second label.
    """
    if app.builder.format != "latex":
        return
    try:
        from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node
    except ImportError:
        return
    for node in list(doctree.findall(
            lambda n: isinstance(n, (exercise_enumerable_node, exercise_node)))):
        label = node.get("label")
        if label:
            target = f"{node.get('docname') or _source_doc(node, docname, doctree)}:{label}"
            # after the title (sphinx-exercise reads the first child as the title)
            node.insert(1, nodes.raw("", "\\label{\\detokenize{%s}}" % target, format="latex"))


_DOCTREES = {}


def _doctree_once(env, docname):
    """``BuildEnvironment.get_doctree`` for the LaTeX build (see ``cache_doctrees``)."""
    if docname not in _DOCTREES:
        _DOCTREES[docname] = _DOCTREE_FROM_DISK(env, docname)
    original = _DOCTREES[docname]
    copy = original.deepcopy()
    # a copied document starts with empty tables; numbered references look
    # their targets up in .ids
    for node in copy.findall(nodes.Element):
        for id_ in node["ids"]:
            copy.ids.setdefault(id_, node)
    copy.nameids = dict(original.nameids)
    copy.nametypes = dict(original.nametypes)
    return copy


_DOCTREE_FROM_DISK = None


def cache_doctrees(app, env):
    """LaTeX: read each chapter's doctree from disk once, not once per use.

    The LaTeX builder assembles the book from the pickled doctrees, and
    Sphinx reads a doctree again each time it needs one: for the assembly,
    for numbering figures, for every numbered reference to a figure or
    equation (151 reads of 27 documents in this book).  The chapters'
    doctrees are large (8-17 MB: every interactive figure's frames are in
    its HTML), and those reads were most of `make pdf`'s Sphinx step (336 of
    393 s in one profile).  Once every document is read (``env-updated``),
    each doctree is read from disk once; every caller still gets its own
    copy (the assembly changes the tree it is given).  Patched on the class,
    so that nothing of it is pickled with the environment.
    """
    global _DOCTREE_FROM_DISK
    if app.builder.format != "latex":
        return []
    from sphinx.environment import BuildEnvironment

    if _DOCTREE_FROM_DISK is None:
        _DOCTREE_FROM_DISK = BuildEnvironment.get_doctree
        BuildEnvironment.get_doctree = _doctree_once
    _DOCTREES.clear()
    return []


def default_mode(app, config):
    """An explicit light/dark default: with none, the theme logs a console error."""
    context = dict(config.html_context or {})
    context.setdefault("default_mode", "auto")
    config.html_context = context


#: The colour theme decided in the page's <head>, before the body is parsed.
#: The theme's own head script sets ``data-theme`` to the reader's stored
#: choice or to ``"auto"``, which none of its stylesheets' colour rules
#: match (they key on ``light`` and ``dark``); only its script, at
#: DOMContentLoaded, turns ``auto`` into ``light`` or ``dark``.  That change
#: of the root element's custom properties made the browser compute the
#: style of every element of the page a second time, inside the
#: DOMContentLoaded task (150-200 ms in chapters 04 and 08, most of the
#: longest task: benchmarks/pages.md), and the first paint came without the
#: theme's colours.  Resolved here first, the theme's script then sets the
#: value the page already has.  The theme's switch and its reaction to the
#: system's setting are unchanged.
THEME_NOW = (
    "(function(){var r=document.documentElement;"
    "if(r.dataset.theme!=='light'&&r.dataset.theme!=='dark'){"
    "r.dataset.theme=window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches"
    "?'dark':'light';}})();"
)


def setup(app):
    app.connect("config-inited", default_mode)
    app.add_js_file(None, body=THEME_NOW, priority=100)
    app.connect("env-updated", cache_doctrees)
    app.connect("html-page-context", add_search_text)
    app.connect("build-finished", write_search_text)
    app.connect("doctree-resolved", add_alt_text)
    app.connect("doctree-resolved", widgets_as_frames)
    app.connect("doctree-resolved", latex_numbering)
    app.connect("doctree-resolved", latex_exercise_labels)
    app.connect("build-finished", finish)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1.0"}


if __name__ == "__main__":  # `make pdf`: python book/_ext/svmlib_reading.py _build/html
    import sys

    if not link_pdf(sys.argv[1] if len(sys.argv) > 1 else "_build/html"):
        sys.exit("no _build/latex/book.pdf: run `make pdf` first")
    print(f"linked {PDF_NAME} from book/intro.html")
