"""The landing page and what the book hands out: a Sphinx extension.

* ``svmlib-playground`` directive: the SVM playground (svmlib.playground),
  kernel-free, trainable in the page, placed in a Markdown page without a
  notebook to execute; ``:preset:``, ``:kernel:``, ``:c:``, ``:gamma:``,
  ``:title:`` as :class:`svmlib.playground.Playground` takes them, and the
  flag ``:canvas-first:`` (the picture above the controls).  Only the
  HTML builder shows it; the PDF gets a sentence pointing at the HTML book.
* ``svmlib-wheel`` directive: a link to svmlib's wheel and the lines that
  install it.  The wheel itself is written at the end of an HTML build
  (``build-finished``) to ``downloads/svmlib-<version>-py3-none-any.whl``
  under the output folder, by ``pip wheel --no-deps --no-build-isolation
  --no-index`` from a copy of the package's sources, so it needs no network
  and leaves no ``build/`` folder in the repository.  The learner's notebooks
  name the same location in their first cell.
* Every HTML page gets a description and Open Graph tags
  (``html-page-context``): the landing page the book's description
  (``svmlib_description`` in ``_config.yml``), other pages their first
  paragraph.  (The landing page's ``<title>`` is the book's title once, not
  "title — title": book/_templates/layout.html.)
"""

import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
from html import escape

from docutils import nodes
from docutils.parsers.rst import Directive, directives

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOWNLOADS = "downloads"
DESCRIPTION_LIMIT = 200


def _version():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    match = re.search(r'^version\s*=\s*"([^"]+)"', text, flags=re.M)
    if not match:
        raise RuntimeError("pyproject.toml has no version = \"...\" line: the wheel's name needs it")
    return match.group(1)


def wheel_name():
    """svmlib-<version>-py3-none-any.whl, the version from pyproject.toml."""
    return f"svmlib-{_version()}-py3-none-any.whl"


def _to_root(docname):
    return "../" * docname.count("/")


# ------------------------------------------------------------ the playground

class PlaygroundDirective(Directive):
    has_content = False
    option_spec = {
        "preset": directives.unchanged,
        "kernel": directives.unchanged,
        "c": float,
        "gamma": float,
        "title": directives.unchanged,
        "canvas-first": directives.flag,
        "class": directives.class_option,
    }

    def run(self):
        from svmlib.playground import Playground

        o = self.options
        try:
            pg = Playground(preset=o.get("preset", "moons"), kernel=o.get("kernel", "rbf"),
                            C=o.get("c", 1.0), gamma=o.get("gamma", 1.0), title=o.get("title"),
                            canvas_first="canvas-first" in o)
        except ValueError as exc:
            raise self.error(f"svmlib-playground: {exc}") from None
        classes = " ".join(["svmlib-hero-playground", *o.get("class", [])])
        html = f'<div class="{escape(classes)}">{pg.to_html()}</div>'
        latex = (r"\emph{The HTML edition of this book opens here with the SVM playground, "
                 r"an SVM trained in the page as you place points.}")
        return [nodes.raw("", html, format="html"), nodes.raw("", latex, format="latex")]


# -------------------------------------------------------------- the wheel

class WheelDirective(Directive):
    has_content = False

    def run(self):
        env = self.state.document.settings.env
        name = wheel_name()
        uri = f"{_to_root(env.docname)}{DOWNLOADS}/{name}"
        link = nodes.reference("", "", refuri=uri, classes=["svmlib-wheel"])
        link += nodes.Text(f"svmlib {_version()} (a Python wheel)")
        para = nodes.paragraph("", "")
        para += nodes.Text("Download ")
        para += link
        para += nodes.Text(", then, in the folder you saved it to:")
        code = (f"pip install {name}\n"
                f"pip install jupyterlab matplotlib ipywidgets anywidget myst-nb   # "
                "the chapters' figures, widgets and quoted numbers\n"
                "jupyter lab 01_hyperplanes.ipynb")
        block = nodes.literal_block(code, code, language="bash")
        return [para, block]


def write_wheel(target):
    """Build svmlib's wheel offline and put it in the folder `target`; its path.

    The sources (pyproject.toml, README.md, svmlib/) are copied to a
    temporary folder first, so setuptools' build/ and egg-info folders stay
    out of the repository; ``--no-build-isolation --no-index`` uses the
    setuptools of the running environment and no network.  An older wheel
    of svmlib in `target` is removed.
    """
    target = pathlib.Path(target)
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="svmlib-wheel-") as tmp:
        source = pathlib.Path(tmp) / "src"
        source.mkdir()
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(ROOT / name, source / name)
        shutil.copytree(ROOT / "svmlib", source / "svmlib",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc"))
        out = pathlib.Path(tmp) / "dist"
        run = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
             "--no-index", "--quiet", "-w", str(out), str(source)],
            capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"pip wheel could not build svmlib's wheel:\n{run.stderr[-3000:]}")
        built = out / wheel_name()
        if not built.exists():
            raise RuntimeError(f"pip wheel wrote {sorted(p.name for p in out.iterdir())}, not "
                               f"{built.name}: is the package still pure Python?")
        for old in target.glob("svmlib-*.whl"):
            old.unlink()
        return pathlib.Path(shutil.copy2(built, target / built.name))


def build_wheel(app, exception):
    """build-finished: svmlib's wheel into <outdir>/downloads/ (HTML builds only)."""
    if exception is not None or app.builder.format != "html":
        return
    write_wheel(pathlib.Path(app.outdir) / DOWNLOADS)


# ---------------------------------------------------- title and meta tags

def _first_paragraph(doctree):
    if doctree is None:
        return ""
    for para in doctree.findall(nodes.paragraph):
        if para.get("classes") or isinstance(para.parent, (nodes.admonition, nodes.field_body)):
            continue
        text = " ".join(para.astext().split())
        if len(text) > 40:
            return text
    return ""


def _shorten(text, limit=DESCRIPTION_LIMIT):
    if len(text) <= limit:
        return text
    cut = text[:limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def page_meta(app, pagename, templatename, context, doctree):
    book = re.sub(r"<[^>]+>", "", context.get("docstitle") or app.config.html_title or "")
    is_root = pagename == app.config.root_doc
    if is_root:
        # (its <title>, the book's title once: book/_templates/layout.html)
        description = app.config.svmlib_description
        title = book
    else:
        description = _first_paragraph(doctree) or app.config.svmlib_description
        title = re.sub(r"<[^>]+>", "", context.get("title") or book)
    description = _shorten(description)
    tags = [
        f'<meta name="description" content="{escape(description)}" />',
        f'<meta property="og:title" content="{escape(title)}" />',
        f'<meta property="og:description" content="{escape(description)}" />',
        f'<meta property="og:type" content="{"website" if is_root else "article"}" />',
        f'<meta property="og:site_name" content="{escape(book)}" />',
        '<meta name="twitter:card" content="summary" />',
    ]
    context["metatags"] = context.get("metatags", "") + "\n" + "\n".join(tags) + "\n"


def setup(app):
    app.add_config_value("svmlib_description", "", "html")
    app.add_directive("svmlib-playground", PlaygroundDirective)
    app.add_directive("svmlib-wheel", WheelDirective)
    app.connect("html-page-context", page_meta)
    app.connect("build-finished", build_wheel)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1.0"}
