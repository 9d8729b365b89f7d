"""What the longest main-thread tasks of a page's loading are made of.

Run after ``make book``: ``python benchmarks/trace_pages.py 04_lagr 08_kern``
(pages whose file name contains one of the arguments; ``--phone`` for the
390 px layout; ``--keep DIR`` writes each raw trace there, for Chromium's
DevTools "Load profile"; ``--html DIR`` traces another built book, e.g. a
copy of ``_build/html`` made before a change).  Each page is opened from ``file://`` with the
network cut off, in a fresh context, while Chromium records a performance
trace (the timeline categories of DevTools); then, for the three longest
tasks of the renderer's main thread until a second after the load event, the
time is split by what the browser did, each event counted once by its own
("self") time: parsing HTML, recalculating style, layout, pre-paint, paint,
evaluating and compiling scripts (by script: the theme's, ours), parsing
stylesheets, garbage collection, and so on.

This is a measurement, not a test (nothing fails); times depend on the load
of the machine, which is printed.
"""

import collections
import json
import os
import pathlib
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-dev-shm-usage", "--disable-component-update", "--no-first-run"]
CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel",
              "v8.execute", "v8", "blink", "loading", "blink.user_timing"]

#: trace event name -> the group it is reported in
GROUPS = {
    "ParseHTML": "parse HTML",
    "HTMLDocumentParser::PumpTokenizerIfPossible": "parse HTML",
    "HTMLDocumentParser::PumpTokenizer": "parse HTML",
    "HTMLPreloadScanner::scan": "parse HTML",
    "TextResourceDecoder::Decode": "parse HTML",
    "Document::FinishedParsing": "parse HTML",
    "Document::recalcStyle": "recalculate style",
    "Document::updateStyle": "recalculate style",
    "Document::rebuildLayoutTree": "recalculate style",
    "Document::updateActiveStyle": "recalculate style",
    "StyleEngine::scheduleInvalidationsForRuleSets": "recalculate style",
    "RuleSet::addRulesFromSheet": "parse stylesheets",
    "LocalFrameView::performLayout": "layout",
    "InlineNode::ShapeTextIncludingFirstLine": "layout (text shaping)",
    "Blink.PrePaint.UpdateTime": "pre-paint",
    "Blink.CompositingInputs.UpdateTime": "pre-paint",
    "PaintArtifactCompositor::Update": "paint",
    "UpdateLayoutTree": "recalculate style",
    "RecalculateStyles": "recalculate style",
    "Layout": "layout",
    "PrePaint": "pre-paint",
    "Paint": "paint",
    "PaintImage": "paint",
    "Layerize": "layerize",
    "UpdateLayer": "layerize",
    "Commit": "commit",
    "ParseAuthorStyleSheet": "parse stylesheets",
    "EvaluateScript": "script",
    "v8.compile": "script",
    "v8.compileModule": "script",
    "v8.run": "script",
    "FunctionCall": "script",
    "EventDispatch": "script",
    "TimerFire": "script",
    "FireAnimationFrame": "script",
    "v8.callFunction": "script",
    "MajorGC": "garbage collection",
    "MinorGC": "garbage collection",
    "V8.GCScavenger": "garbage collection",
    "V8.GCFinalizeMC": "garbage collection",
    "V8.GC_MC_BACKGROUND_MARKING": "garbage collection",
    "BlinkGC.AtomicPhase": "garbage collection",
    "HitTest": "hit test",
    "IntersectionObserverController::computeIntersections": "intersection observers",
    "Decode Image": "decode images",
    "ImageDecodeTask": "decode images",
    "ResourceReceivedData": "loading",
    "ResourceFinish": "loading",
    "ResourceSendRequest": "loading",
    "ResourceReceiveResponse": "loading",
}


def _main_thread(events):
    """(pid, tid) of the renderer's main thread that loaded the page."""
    names = {(e["pid"], e["tid"]): e["args"].get("name") for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    candidates = [key for key, name in names.items() if name == "CrRendererMain"]
    if not candidates:
        raise RuntimeError("no renderer main thread in the trace")
    # the one with the most ParseHTML time (the page, not about:blank)
    work = collections.Counter()
    for e in events:
        if e.get("name") == "ParseHTML" and (e["pid"], e["tid"]) in candidates:
            work[(e["pid"], e["tid"])] += e.get("dur", 0)
    return work.most_common(1)[0][0] if work else candidates[0]


def _complete_events(events, key):
    """The thread's events as (start, end, name, args) intervals, B/E pairs joined."""
    out, open_ = [], collections.defaultdict(list)
    for e in events:
        if (e.get("pid"), e.get("tid")) != key:
            continue
        ph = e.get("ph")
        if ph == "X" and "dur" in e:
            out.append((e["ts"], e["ts"] + e["dur"], e["name"], e.get("args", {})))
        elif ph == "B":
            open_[e["name"]].append(e)
        elif ph == "E" and open_[e["name"]]:
            b = open_[e["name"]].pop()
            out.append((b["ts"], e["ts"], b["name"], b.get("args", {})))
    out.sort(key=lambda x: (x[0], -x[1]))
    return out


def _script_of(name, args):
    data = args.get("data", {}) if isinstance(args, dict) else {}
    url = data.get("url") or data.get("scriptName") or args.get("fileName", "") or ""
    if not url:
        frame = data.get("stackTrace") or []
        url = frame[0].get("url", "") if frame else ""
    url = url.split("?")[0]
    if not url:
        return ""
    return url.rsplit("/_static/", 1)[-1] if "/_static/" in url else url.rsplit("/", 1)[-1]


def split(task, inner):
    """Self time (ms) per group of the events nested in ``task``."""
    start, end = task[0], task[1]
    nested = [e for e in inner if e[0] >= start and e[1] <= end and e is not task]
    totals = collections.Counter()
    scripts = collections.Counter()
    # stack of [event, time of its children]
    stack = []

    def close(entry):
        event, children = entry
        own = (event[1] - event[0]) - children
        group = GROUPS.get(event[2], "other: " + event[2])
        totals[group] += own
        if group == "script":
            scripts[_script_of(event[2], event[3]) or "(unknown)"] += own
        if stack:
            stack[-1][1] += event[1] - event[0]

    for e in nested:
        while stack and stack[-1][0][1] <= e[0]:
            close(stack.pop())
        stack.append([e, 0])
    while stack:
        close(stack.pop())
    covered = sum(totals.values())
    totals["task itself (not in a traced event)"] = (end - start) - covered
    return ({k: v / 1000 for k, v in totals.items()},
            {k: v / 1000 for k, v in scripts.items()})


def trace(browser, page_path, phone, keep=None):
    options = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                   is_mobile=True, has_touch=True) if phone else dict(
                   viewport={"width": 1440, "height": 900})
    context = browser.new_context(**options)
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(
        ("file://", "data:", "blob:", "about:")) else r.abort())
    page = context.new_page()
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "trace.json"
        browser.start_tracing(page=page, path=str(path), categories=CATEGORIES)
        page.goto(page_path.as_uri(), wait_until="load")
        page.evaluate("() => document.fonts.ready")
        page.wait_for_timeout(1000)
        browser.stop_tracing()
        raw = path.read_text(encoding="utf-8")
        if keep:
            suffix = "-phone" if phone else ""
            target = pathlib.Path(keep) / f"{page_path.stem}{suffix}.json"
            target.write_text(raw, encoding="utf-8")
    context.close()
    data = json.loads(raw)
    events = data["traceEvents"] if isinstance(data, dict) else data
    key = _main_thread(events)
    inner = _complete_events(events, key)
    tasks = [e for e in inner if e[2] in ("RunTask", "ThreadControllerImpl::RunTask")]
    # top-level tasks only (a RunTask nested in another is part of it)
    top, last_end = [], -1
    for t in sorted(tasks, key=lambda x: (x[0], -x[1])):
        if t[0] >= last_end:
            top.append(t)
            last_end = t[1]
    top.sort(key=lambda t: t[0] - t[1])
    return [(t, *split(t, inner)) for t in top[:3]]


def main():
    from playwright.sync_api import sync_playwright

    argv = sys.argv[1:]
    phone = "--phone" in argv
    keep = None
    if "--keep" in argv:
        keep = argv[argv.index("--keep") + 1]
        argv.remove("--keep")
        argv.remove(keep)
        os.makedirs(keep, exist_ok=True)
    html_dir = HTML
    if "--html" in argv:  # another build, e.g. a copy of the one before a change
        i = argv.index("--html")
        html_dir = pathlib.Path(argv[i + 1]).resolve()
        del argv[i:i + 2]
    wanted = [a for a in argv if not a.startswith("--")]
    if not (html_dir / "index.html").exists():
        sys.exit("the book is not built: run `make book` first")
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        sys.exit("Chromium is not installed (apt-get install chromium)")
    pages = sorted(html_dir.glob("**/*.html"))
    if wanted:
        pages = [p for p in pages if any(w in p.name for w in wanted)]
    print(f"load average {os.getloadavg()[0]:.2f}, {'phone 390 px' if phone else 'desktop 1440 px'}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=ARGS)
        for path in pages:
            print(f"\n{path.relative_to(html_dir)}")
            for task, groups, scripts in trace(browser, path, phone, keep):
                start, end = task[0], task[1]
                print(f"  task of {(end - start) / 1000:.0f} ms:")
                for name, ms in sorted(groups.items(), key=lambda kv: -kv[1]):
                    if ms >= 1:
                        print(f"    {ms:7.1f} ms  {name}")
                for name, ms in sorted(scripts.items(), key=lambda kv: -kv[1]):
                    if ms >= 1:
                        print(f"             script {ms:6.1f} ms  {name}")
        browser.close()


if __name__ == "__main__":
    main()
