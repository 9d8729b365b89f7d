"""Page weight and load times of the built HTML book, in headless Chromium.

Run after ``make book``: ``python benchmarks/bench_pages.py`` (writes
``benchmarks/pages.md``).  Every page is opened from ``file://`` with the
network cut off, at 1440x900 (desktop) and 390x844 (phone, 2x density, touch),
in a fresh browser context (nothing cached), and left alone: no scrolling, no
click.  Measured:

* **transferred**: bytes of every file the page requested before the first
  interaction (the page, scripts, styles, fonts, images that loaded), read
  from disk; ``data:`` images are inside the page's own size;
* **math**: time from navigation start until the formulas are drawn.  The
  book typesets them at build time (book/_ext/svmlib_math.py): they are in
  the page, and are drawn in their own fonts once those have arrived, so
  this is the later of the first contentful paint and the arrival of the
  last math font the page asked for.  (A build with the browser's MathJax,
  ``SVMLIB_BROWSER_MATHJAX=1``: until MathJax's startup promise resolves.)
* **longest task**: the longest main-thread task (Long Tasks API);
* DOMContentLoaded and load times.

Absolute times depend on the machine and its load (2 shared cores here):
compare pages and rows of one run; the load average is printed.
This is a measurement, not a test: nothing fails.
"""

import gzip
import json
import os
import pathlib
import platform
import re
import shutil
import sys
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
OUT = ROOT / "benchmarks" / "pages.md"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-dev-shm-usage", "--disable-component-update", "--no-first-run"]

# Goals of issue 17, per chapter before the first interaction.
GOAL_BYTES = 2_000_000
GOAL_MATH_S = 1.5
GOAL_TASK_MS = 200
#: pages.md keeps what follows this heading from one run to the next
NOTES = "## Notes"

_PROBE = """
window.__bench = {longest: 0, tasks: 0, math: null, mathjax: false};
try {
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) {
      window.__bench.tasks += 1;
      window.__bench.longest = Math.max(window.__bench.longest, e.duration);
    }
  }).observe({type: 'longtask', buffered: true});
} catch (e) {}
(function watch() {
  const mj = window.MathJax;
  if (mj && mj.startup && mj.startup.promise) {
    window.__bench.mathjax = true;
    mj.startup.promise.then(() => { window.__bench.math = performance.now(); });
  } else if (document.readyState !== 'complete') { setTimeout(watch, 5); }
})();
"""


def pages():
    """Every chapter, the playground, the landing page, the appendices, the API
    index, the general index and the search page."""
    chapters = sorted((HTML / "book").glob("[0-9][0-9]_*.html"))
    others = [HTML / "book" / f"{n}.html" for n in (
        "playground", "intro", "notation", "api/index", "bibliography")]
    return chapters + [p for p in others if p.exists()] + [HTML / "genindex.html",
                                                          HTML / "search.html"]


def _path(url):
    return pathlib.Path(urllib.parse.unquote(urllib.parse.urlparse(url).path))


def _file_size(url):
    path = _path(url)
    return path.stat().st_size if path.is_file() else 0


_PACKED = (".png", ".jpg", ".jpeg", ".woff", ".woff2", ".gz")
_GZIP_CACHE = {}


def _gzip_size(url):
    """Bytes a web server with gzip would send (images and fonts as they are)."""
    path = _path(url)
    if not path.is_file():
        return 0
    if path.suffix.lower() in _PACKED:
        return path.stat().st_size
    if path not in _GZIP_CACHE:
        _GZIP_CACHE[path] = len(gzip.compress(path.read_bytes(), 6))
    return _GZIP_CACHE[path]


def measure(browser, page_path, phone):
    options = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                   is_mobile=True, has_touch=True) if phone else dict(
                   viewport={"width": 1440, "height": 900})
    context = browser.new_context(**options)
    requested, blocked = [], []

    def route(r):
        url = r.request.url
        if url.startswith("file://"):
            requested.append(url)
            r.continue_()
        elif url.startswith(("data:", "blob:", "about:")):
            r.continue_()
        else:
            blocked.append(url)
            r.abort()

    context.route("**/*", route)
    context.add_init_script(_PROBE)
    page = context.new_page()
    page.goto(page_path.as_uri(), wait_until="load")
    page.wait_for_function("() => !document.querySelector('.math') || window.__bench.math",
                           timeout=60000)
    page.evaluate("() => document.fonts.ready")
    page.wait_for_timeout(1000)  # late lazy loads and tasks
    timing = page.evaluate("""() => {
        const n = performance.getEntriesByType('navigation')[0];
        // formulas typeset at build time: drawn at the first paint, in their
        // fonts once the last math font has arrived
        let math = window.__bench.math;
        if (!window.__bench.mathjax && document.querySelector('mjx-container')) {
            const paint = performance.getEntriesByName('first-contentful-paint')[0];
            const fonts = performance.getEntriesByType('resource')
                .filter(r => /mathjax\/output\/chtml\/fonts\//.test(r.name))
                .map(r => r.responseEnd);
            math = Math.max(paint ? paint.startTime : 0, ...fonts);
        }
        return {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd,
                math: math, longest: window.__bench.longest,
                tasks: window.__bench.tasks,
                formulas: document.querySelectorAll('mjx-container').length};
    }""")
    unique = sorted(set(requested))
    timing["bytes"] = sum(_file_size(u) for u in unique)
    timing["gzip"] = sum(_gzip_size(u) for u in unique)
    timing["requests"] = len(unique)
    # then read the page to its end, one screen every 300 ms: frames and
    # figures load as they come into view; the longest task of that
    page.evaluate("() => { window.__bench.longest = 0; }")
    height = page.evaluate("() => document.documentElement.scrollHeight")
    step = options["viewport"]["height"]
    for y in range(0, height, step):
        page.evaluate(f"() => window.scrollTo(0, {y})")
        page.wait_for_timeout(300)
    page.wait_for_timeout(500)
    timing["scroll_longest"] = page.evaluate("() => window.__bench.longest")
    context.close()
    timing["blocked"] = len(blocked)
    return timing


def main():
    from playwright.sync_api import sync_playwright

    if not (HTML / "index.html").exists():
        sys.exit("the book is not built: run `make book` first")
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        sys.exit("Chromium is not installed (apt-get install chromium)")
    load = os.getloadavg()[0]
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=ARGS)
        version = browser.version
        wanted = sys.argv[1:]  # optional: only pages whose name contains one of these
        for path in pages():
            if wanted and not any(w in path.name for w in wanted):
                continue
            name = path.relative_to(HTML).as_posix()
            desktop = measure(browser, path, phone=False)
            phone = measure(browser, path, phone=True)
            rows.append((name, desktop, phone))
            print(f"{name}: {desktop['bytes'] / 1e6:.2f} MB, math {desktop['math']}, "
                  f"longest {desktop['longest']:.0f} ms | phone {phone['bytes'] / 1e6:.2f} MB",
                  flush=True)
        browser.close()
    write(rows, load, version)


def _s(ms):
    return "–" if ms is None else f"{ms / 1000:.2f}"


def write(rows, load, version):
    lines = [
        "# Page weight and load times",
        "",
        f"Written by `benchmarks/bench_pages.py` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}."
        f" Chromium {version} (headless) on {platform.machine()}, {os.cpu_count()} CPUs; "
        f"load average at the start: {load:.1f}. Pages opened from `file://` with the network "
        "cut off, each in a fresh context (nothing cached), and not touched: the numbers are what "
        "a reader's browser does before the first scroll or click. *MB*: every file requested "
        "(page, scripts, styles, fonts, images) before the first interaction, read from disk; "
        "*MB gzip*: the same files as a web server with gzip compression sends them (PNG and "
        "fonts as they are). *math*: navigation start until the formulas are drawn: they are "
        "typeset at build time (book/_ext/svmlib_math.py), so this is the later of the first "
        "contentful paint and the arrival of the last math font the page uses (– : no formula). "
        "*longest task*: longest main-thread task until a second after the load event and the "
        "fonts (Long Tasks API); *scrolling*: the longest task while the page is then read to its "
        "end, one screen every 300 ms (figures and frames loaded on the way). Times depend on the machine "
        "and its load: compare rows of one run.",
        "",
        f"Goals (issue 17, chapters): under {GOAL_BYTES / 1e6:.0f} MB before the first "
        f"interaction, math typeset in under {GOAL_MATH_S} s, no main-thread task over "
        f"{GOAL_TASK_MS} ms.",
        "",
        "| page | MB on disk | MB gzip | requests | DOMContentLoaded s | load s | math s "
        "| longest task ms | longest task ms, scrolling | MB on disk (phone) | math s (phone) "
        "| longest task ms (phone) | scrolling (phone) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, d, ph in rows:
        lines.append(
            f"| {name} | {d['bytes'] / 1e6:.2f} | {d['gzip'] / 1e6:.2f} | {d['requests']} | "
            f"{_s(d['dcl'])} | {_s(d['load'])} | {_s(d['math'])} | {d['longest']:.0f} | "
            f"{d['scroll_longest']:.0f} | {ph['bytes'] / 1e6:.2f} | {_s(ph['math'])} | "
            f"{ph['longest']:.0f} | {ph['scroll_longest']:.0f} |")
    chapters = [r for r in rows if re.match(r"book/\d\d_", r[0])]
    if chapters:
        worst_bytes = max(max(d["bytes"], ph["bytes"]) for _, d, ph in chapters)
        worst_gzip = max(max(d["gzip"], ph["gzip"]) for _, d, ph in chapters)
        worst_scroll = max(max(d["scroll_longest"], ph["scroll_longest"])
                           for _, d, ph in chapters)
        worst_math = max(max(d["math"] or 0, ph["math"] or 0) for _, d, ph in chapters)
        worst_task = max(max(d["longest"], ph["longest"]) for _, d, ph in chapters)
        lines += [
            "",
            f"Chapters, worst case: {worst_bytes / 1e6:.2f} MB on disk, {worst_gzip / 1e6:.2f} MB "
            f"with gzip ({'within' if worst_gzip < GOAL_BYTES else 'over'} the goal of "
            f"{GOAL_BYTES / 1e6:.0f} MB transferred), math typeset in "
            f"{worst_math / 1000:.2f} s ({'within' if worst_math < GOAL_MATH_S * 1000 else 'over'}"
            f" the goal), longest task {worst_task:.0f} ms "
            f"({'within' if worst_task <= GOAL_TASK_MS else 'over'} the goal); longest task "
            f"while scrolling through: {worst_scroll:.0f} ms.",
        ]
    blocked = sum(d["blocked"] + ph["blocked"] for _, d, ph in rows)
    lines += ["", f"Requests to the network (blocked): {blocked}.", ""]
    # hand-written notes (profiles, what was changed) survive a new run
    notes = ""
    if OUT.exists():
        old = OUT.read_text(encoding="utf-8")
        if NOTES in old:
            notes = old[old.index(NOTES):]
    OUT.write_text("\n".join(lines) + ("\n" + notes if notes else ""), encoding="utf-8")
    (ROOT / "_build" / "bench_pages.json").write_text(json.dumps(rows, indent=1))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
