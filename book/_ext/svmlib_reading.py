"""What the reader gets from the built HTML book, beyond Jupyter Book's defaults.

A small local Sphinx extension (``sphinx: local_extensions`` in _config.yml):

* **alt text**: every image inside a figure gets its caption as ``alt``
  (``Fig. 3.2`` numbers aside), instead of Sphinx's default, the file path;
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
  - no ipywidgets state (the live widgets' JSON, useless without a kernel);
  - the search index and its scripts only on the search page;

* **bibliography back-links**: each entry of the bibliography lists the
  places that cite it;
* **search ranking**: a scorer (``search_scorer.js``) that ranks chapter
  text above API entries.
"""

import base64
import hashlib
import html
import json
import pathlib
import re

from docutils import nodes

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
_STATIC_IMG = re.compile(r'<img (alt="[^"]*" )?src="((?:\.\./)*_images/(?!svmlib/)[^"]+)"')


def rewrite_page(page, outdir, written):
    text = page.read_text(encoding="utf-8")
    before = text
    for pattern in _DROP:
        text = pattern.sub("", text)
    if page.name != "search.html":
        text = _SEARCH_ONLY.sub("", text)
    prefix = _relative_root(page, outdir)
    text = _WIDGET.sub(lambda m: _externalize_widget(m.group(0), prefix, outdir, written), text)
    text = _STATIC_IMG.sub(
        lambda m: f'<img loading="lazy" decoding="async" {m.group(1) or ""}src="{m.group(2)}"',
        text)
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
    add_backlinks(outdir, pages)
    link_pdf(outdir)
    # frames of an earlier build that no page uses any more
    for stale in (outdir / FRAMES_DIR).glob("*.png"):
        if stale.name not in written:
            stale.unlink()


# ------------------------------------------------------------- PDF edition

def _source_doc(node, default):
    """The document a node of LaTeX's assembled tree came from."""
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
                 f"({_source_doc(raw, docname)}.html) its controls move the figure.")
        figure += caption
        raw.replace_self(figure)


def default_mode(app, config):
    """An explicit light/dark default: with none, the theme logs a console error."""
    context = dict(config.html_context or {})
    context.setdefault("default_mode", "auto")
    config.html_context = context


def setup(app):
    app.connect("config-inited", default_mode)
    app.connect("doctree-resolved", add_alt_text)
    app.connect("doctree-resolved", widgets_as_frames)
    app.connect("build-finished", finish)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1.0"}


if __name__ == "__main__":  # `make pdf`: python book/_ext/svmlib_reading.py _build/html
    import sys

    if not link_pdf(sys.argv[1] if len(sys.argv) > 1 else "_build/html"):
        sys.exit("no _build/latex/book.pdf: run `make pdf` first")
    print(f"linked {PDF_NAME} from book/intro.html")
