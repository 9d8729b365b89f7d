"""Tests of svmlib.widgets' core: controls, live view, static HTML rendering."""

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from svmlib.widgets import Choice, InteractiveFigure, Slider, Stepper  # noqa: E402
from svmlib.widgets import _core  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"
ROOT = Path(__file__).resolve().parents[1]

# A small problem: rotate a line through the origin until it separates two
# clusters; the goal is met for the angles whose line makes no mistake.
RNG = np.random.default_rng(0)
X = np.r_[RNG.normal(-1.5, 0.5, (15, 2)), RNG.normal(1.5, 0.5, (15, 2))]
Y = np.r_[-np.ones(15), np.ones(15)]
ANGLES = list(range(0, 180, 20))


def normal(angle):
    t = np.deg2rad(angle)
    return np.array([np.cos(t), np.sin(t)])


def mistakes(angle, bias=0.0):
    return int(np.sum(Y * (X @ normal(angle) + bias) <= 0))


def setup(fig):
    ax = fig.add_subplot()
    ax.scatter(X[:, 0], X[:, 1], c=Y, cmap="coolwarm")
    ax.set_xlim(-3, 3)
    ax.set_ylim(-3, 3)
    (line,) = ax.plot([], [], color="black")
    return {"line": line}


def update(state, angle, bias=0.0, step=0):
    w = normal(angle)
    d = np.array([-w[1], w[0]])
    p = -bias * w
    state["line"].set_data([p[0] - 9 * d[0], p[0] + 9 * d[0]], [p[1] - 9 * d[1], p[1] + 9 * d[1]])
    return f"mistakes: <b>{mistakes(angle, bias)}</b> &lt;step {step}&gt;"


def goal(angle, bias=0.0, step=0):
    return mistakes(angle, bias) == 0


def make(**kwargs):
    controls = kwargs.pop("controls", None) or {
        "angle": Slider(ANGLES, "angle θ", value=140, fmt="{:.0f}°"),
        "bias": Choice({"−1": -1.0, "0": 0.0, "+1": 1.0}, "bias b", value=0.0),
        "step": Stepper(2, "step"),
    }
    kwargs.setdefault("goal", goal)
    kwargs.setdefault("goal_text", "Find a line with no mistakes.")
    kwargs.setdefault("success_message", "No mistakes: the line separates the classes.")
    kwargs.setdefault("title", "Rotate the line")
    return InteractiveFigure(setup, update, controls, **kwargs)


@pytest.fixture(autouse=True)
def no_static_env(monkeypatch):
    monkeypatch.delenv("SVMLIB_STATIC_WIDGETS", raising=False)


# ------------------------------------------------------------------ controls

def test_slider_labels_and_initial_value():
    s = Slider([0.0, 0.5, 1.0], "C", value=0.5, fmt="{:.1f}")
    assert s.labels == ["0.0", "0.5", "1.0"] and s.index == 1 and s.value == 0.5
    assert Slider(np.array([1, 10, 100]), "C").labels == ["1", "10", "100"]
    assert Slider([0.1, 0.2, 0.30000000000000004], "t", value=0.3).index == 2  # float match
    assert Slider([1, 2], "n", fmt=lambda v: f"n={v}").labels == ["n=1", "n=2"]
    with pytest.raises(ValueError, match="not on the grid of Slider 'C'"):
        Slider([1, 2, 3], "C", value=5)
    with pytest.raises(ValueError, match="at least one value"):
        Slider([], "C")


def test_choice_from_list_and_dict():
    c = Choice(["linear", "rbf"], "kernel", value="rbf")
    assert c.labels == ["linear", "rbf"] and c.value == "rbf"
    d = Choice({"small": 0.1, "large": 10.0}, "C", value="large")
    assert d.labels == ["small", "large"] and d.value == 10.0
    assert Choice({"small": 0.1, "large": 10.0}, "C", value=0.1).index == 0


def test_stepper():
    s = Stepper(4, "update", value=1)
    assert s.values == [0, 1, 2, 3] and s.value == 1 and s.labels[3] == "3 / 3"
    for bad in (0, 2.5, True, "3"):
        with pytest.raises(ValueError, match="n must be an integer >= 1"):
            Stepper(bad, "update")


# ------------------------------------------------------------------ figure

def test_settings_and_frames():
    fig = make()
    assert fig.n_settings == len(ANGLES) * 3 * 2 == len(fig.settings())
    assert fig.settings()[0] == {"angle": 0, "bias": -1.0, "step": 0}
    png, readout = fig.frame(angle=160)
    assert png.startswith(PNG)
    assert readout == f"mistakes: <b>{mistakes(160)}</b> &lt;step 0&gt;"
    assert fig.frame(angle=160)[0] == png  # deterministic
    assert fig.frame(angle=120)[0] != png
    with pytest.raises(ValueError, match="unknown control"):
        fig.frame(gamma=1)
    with pytest.raises(ValueError, match="not on the grid"):
        fig.frame(angle=7)


def test_too_many_settings_is_refused_with_a_useful_message():
    controls = {"C": Slider(range(15), "C"), "gamma": Slider(range(14), "gamma")}
    with pytest.raises(ValueError) as info:
        InteractiveFigure(setup, lambda s, C, gamma: "", controls)
    message = str(info.value)
    assert "15 × 14 = 210" in message and "C: 15 values" in message
    assert "gamma: 14 values" in message and "coarser grid" in message


def test_bad_arguments():
    with pytest.raises(ValueError, match="identifiers"):
        InteractiveFigure(setup, update, {"my angle": Slider([0], "a")})
    with pytest.raises(TypeError, match="Slider, Choice or Stepper"):
        InteractiveFigure(setup, update, {"angle": [0, 10]})


def test_plain_text_is_title_and_stripped_readout():
    fig = make()
    assert fig._repr_mimebundle_()["text/plain"] == (
        f"Rotate the line\nmistakes: {mistakes(140)} <step 0>")
    assert repr(fig) == fig.text()
    untitled = make(title=None, controls={"angle": Slider([ANGLES[4]], "angle")})
    assert untitled.text().splitlines()[0] == "Interactive figure"
    assert "No mistakes" in untitled.text()  # the goal is met initially: say so


def test_mimebundle_has_html_only_with_the_environment_variable(monkeypatch):
    fig = make(controls={"angle": Slider(ANGLES[:3], "angle")})
    bundle = fig._repr_mimebundle_()
    assert "text/html" not in bundle
    assert "application/vnd.jupyter.widget-view+json" in bundle
    monkeypatch.setenv("SVMLIB_STATIC_WIDGETS", "0")
    assert "text/html" not in fig._repr_mimebundle_()
    monkeypatch.setenv("SVMLIB_STATIC_WIDGETS", "1")
    bundle = fig._repr_mimebundle_()
    assert bundle["text/html"].startswith('<div class="svmlib-widget"')
    assert fig._repr_mimebundle_(include={"text/plain"}).keys() == {"text/plain"}
    assert "text/html" not in fig._repr_mimebundle_(exclude={"text/html"})


def test_no_pyplot_figure_leaks():
    before = plt.get_fignums()
    fig = make()
    fig.frame(angle=60)
    fig.widget
    fig.to_html()
    assert plt.get_fignums() == before


# ------------------------------------------------------------------ static HTML

class Collect(HTMLParser):
    """Collect tags with attributes, and the text of <option>, <label>, <output>."""

    def __init__(self):
        super().__init__()
        self.tags, self.text, self._open = [], {}, None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in ("option", "label", "output", "button"):
            self._open = (tag, len(self.tags) - 1)

    def handle_data(self, data):
        if self._open:
            self.text[self._open[1]] = self.text.get(self._open[1], "") + data

    def handle_endtag(self, tag):
        self._open = None

    def find(self, tag, **attrs):
        return [(i, a) for i, (t, a) in enumerate(self.tags)
                if t == tag and all(a.get(k) == v for k, v in attrs.items())]


def frame_data(page):
    script = re.search(r"<script>(.*?)</script>", page, re.S).group(1)
    payload = re.search(r"var D=(\{.*?\}),n=", script, re.S).group(1)
    return json.loads(payload.replace("<\\/", "</"))


def test_static_html_structure():
    fig = make()
    page = fig.to_html()
    parsed = Collect()
    parsed.feed(page)
    root = parsed.find("div", **{"class": "svmlib-widget"})
    assert len(root) == 1 and root[0][1]["id"] == fig.id
    assert re.fullmatch(r"svmlib-widget-[0-9a-f]{8}-\d+", fig.id)
    # slider: a labelled range input over the indices, with an <output>
    (i, rng), = parsed.find("input", type="range")
    assert (rng["min"], rng["max"], rng["step"]) == ("0", str(len(ANGLES) - 1), "1")
    assert rng["value"] == str(ANGLES.index(140))
    (j, label), = parsed.find("label", **{"for": rng["id"]})
    assert parsed.text[j] == "angle θ"
    (k, out), = parsed.find("output", **{"for": rng["id"]})
    assert parsed.text[k] == "140°"
    # choice: a labelled select with one option per choice
    (_, select), = parsed.find("select")
    assert parsed.find("label", **{"for": select["id"]})
    options = parsed.find("option")
    assert [parsed.text[i] for i, _ in options] == ["−1", "0", "+1"]
    assert ["selected" in a for _, a in options] == [False, True, False]
    # stepper: previous/next buttons (previous disabled at step 0)
    buttons = parsed.find("button", type="button")
    assert len(buttons) == 2 and "disabled" in buttons[0][1] and "disabled" not in buttons[1][1]
    # image, readout, goal
    (_, img), = parsed.find("img")
    assert img["src"].startswith("data:image/png;base64,") and img["alt"].startswith("Rotate")
    assert img["loading"] == "lazy"
    (_, source), = parsed.find("source")
    assert source["srcset"].startswith("data:image/png;base64,")
    assert source["media"] == _core.PHONE_MEDIA
    (_, readout), = parsed.find("div", **{"class": "svmlib-readout"})
    assert readout["aria-live"] == "polite"
    assert "Find a line with no mistakes." in page
    # the script: inline, scoped to this widget, no network
    script = re.search(r"<script.*?</script>", page, re.S).group(0)
    assert page.count("<script") == 1 and script.startswith("<script>")
    assert "require" not in page and "http" not in page
    assert f'document.getElementById("{fig.id}")' in page


def test_alt_text_keeps_the_readout_lines_apart():
    # A readout of two lines ("C = 10<br>21 support vectors") must not be read
    # out as "C = 1021 support vectors": the alt of every frame is built from
    # the readout's HTML at build time, one sentence per line.
    def two_lines(state, angle, bias=0.0, step=0):
        update(state, angle, bias, step)
        return f"angle = {angle}<br><b>{mistakes(angle, bias)}</b> mistakes of {len(Y)}"

    fig = InteractiveFigure(setup, two_lines, {"angle": Slider(ANGLES, "angle θ", value=140)},
                            title="Rotate the line")
    page = fig.to_html()
    data = frame_data(page)
    assert len(data["alts"]) == len(data["readouts"])
    expected = f"angle = 140; {mistakes(140)} mistakes of {len(Y)}"
    assert expected in data["alts"]
    parsed = Collect()
    parsed.feed(page)
    (_, img), = parsed.find("img")
    assert img["alt"] == f"Rotate the line. {expected}", img["alt"]
    assert "D.alts[f[1]]" in page and "textContent||" not in page


def test_static_frames_are_deduplicated_and_complete():
    import base64
    import io

    from PIL import Image

    fig = make()
    data = frame_data(fig.to_html())
    used_wide, used_phone = set(), set()
    for setting in fig.settings():
        _, readout = fig.frame(**setting)
        key = "-".join(str(fig.controls[n].index_of(v)) for n, v in setting.items())
        image, text, phone = data["frames"][key]
        assert data["readouts"][text] == readout
        used_wide.add(image)
        used_phone.add(phone)
    assert len(data["frames"]) == fig.n_settings
    # every stored image is used, and stored once
    assert used_wide == set(range(len(data["images"])))
    assert used_phone == set(range(len(data["phone"])))
    assert len(set(data["images"])) == len(data["images"])
    # the step control changes only the readout: at most half as many images as frames
    assert len(data["images"]) <= fig.n_settings // 2
    assert len(data["phone"]) <= fig.n_settings // 2
    assert data["labels"][0] == [f"{a}°" for a in ANGLES]
    assert data["src"] == "data:image/png;base64,"
    # wide frames: the figure at 96 CSS px per inch, drawn at twice that
    wide = Image.open(io.BytesIO(base64.b64decode(data["images"][0])))
    assert wide.size == (6 * 96 * 2, 4 * 96 * 2)
    # phone frames: PHONE_WIDTH_PX CSS px wide at 2x, text legible at that width
    phone = Image.open(io.BytesIO(base64.b64decode(data["phone"][0])))
    assert phone.size[0] == 2 * _core.PHONE_WIDTH_PX


def test_phone_layout_stacks_panels_and_keeps_text_legible():
    def setup(fig):
        left, right = fig.subplots(1, 2, width_ratios=[2, 1])
        left.plot([0, 1], [0, 1], label="a line")
        left.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
        right.text(0.5, 0.5, "tiny", fontsize=5)
        return left, right

    def update(state, k):
        state[0].set_title(f"k = {k}")
        return f"k = {k}"

    fig = InteractiveFigure(setup, update, {"k": Slider([1, 2], "k")}, figsize=(8, 3))
    wide = _core._StaticView(fig, fig._figsize)
    phone = _core._StaticView(fig, fig._figsize, phone=True)
    (la, ra), (lp, rp) = wide.state, phone.state
    # wide: side by side; phone: the same panels, one above the other
    assert la.get_position().y0 == pytest.approx(ra.get_position().y0)
    phone.render({"k": 1})
    assert lp.get_position().y0 > rp.get_position().y1 - 1e-9
    # the legend beside the left panel moved under the figure
    assert lp.get_legend() is None and len(phone.figure.legends) == 1
    # every text at least PHONE_MIN_FONT_PT: at PHONE_WIDTH_PX CSS px, >= 11 px
    from matplotlib.text import Text
    sizes = [t.get_fontsize() for t in phone.figure.findobj(Text) if t.get_text()]
    css_px_per_pt = phone.css_size()[0] / phone.figure.get_size_inches()[0] / 72
    assert min(sizes) * css_px_per_pt >= _core.PHONE_MIN_TEXT_PX - 1e-9
    assert phone.css_size()[0] == _core.PHONE_WIDTH_PX
    assert wide.css_size() == (8 * 96, 3 * 96)


def test_success_message_appears_exactly_for_goal_settings():
    fig = make()
    data = frame_data(fig.to_html())
    for setting in fig.settings():
        key = "-".join(str(fig.controls[n].index_of(v)) for n, v in setting.items())
        readout = data["readouts"][data["frames"][key][1]]
        assert ('class="svmlib-success"' in readout) == goal(**setting)
        assert ("No mistakes: the line separates" in readout) == goal(**setting)
    assert any(goal(**s) for s in fig.settings()) and not all(goal(**s) for s in fig.settings())


def test_static_html_is_cached_and_restores_the_initial_state():
    fig = make()
    first = fig.frame()[0]
    assert fig.to_html() is fig.to_html()
    assert fig.frame()[0] == first


def test_static_html_size_budget_with_decision_regions():
    from svmlib.plotting import plot_data, plot_decision_regions

    def setup_regions(fig):
        ax = fig.add_subplot()
        plot_data(X, Y, ax=ax, legend=False)
        return ax

    def update_regions(ax, angle, bias):
        for artist in list(ax.images) + [c for c in ax.collections if c.get_gid() == "levels"]:
            artist.remove()
        plot_decision_regions(lambda Z: 2 * (Z @ normal(angle) + bias), X, ax=ax, grid=120)
        return f"{mistakes(angle, bias)} mistakes"

    fig = InteractiveFigure(setup_regions, update_regions,
                            {"angle": Slider(list(range(0, 180, 12)), "angle"),
                             "bias": Slider([-1.0, -0.5, 0.0, 0.5], "bias")})
    assert fig.n_settings == 60
    size = len(fig.to_html().encode())
    assert size <= _core.MAX_HTML_BYTES


def test_over_budget_uses_fewer_colours_then_refuses(monkeypatch):
    controls = {"angle": Slider(ANGLES[:4], "angle")}
    full = len(make(controls=dict(controls)).to_html().encode())
    monkeypatch.setattr(_core, "MAX_HTML_BYTES", full - 1)
    smaller = make(controls=dict(controls)).to_html()
    assert len(smaller.encode()) < full
    monkeypatch.setattr(_core, "MAX_HTML_BYTES", 5000)
    with pytest.raises(ValueError, match="over the budget.*use fewer settings"):
        make(controls=dict(controls)).to_html()


def test_ids_are_unique_in_a_process_and_stable_across_processes():
    a = make(controls={"angle": Slider(ANGLES[:2], "angle")})
    b = make(controls={"angle": Slider(ANGLES[:2], "angle")})
    assert a.id != b.id and a.id.rsplit("-", 1)[0] == b.id.rsplit("-", 1)[0]
    script = textwrap.dedent(f"""
        import hashlib, sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        import test_widgets as t
        fig = t.make(controls={{"angle": t.Slider(t.ANGLES[:3], "angle")}})
        print(fig.id, hashlib.sha256(fig.to_html().encode()).hexdigest())
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env=env, check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1] and runs[0].startswith("svmlib-widget-")


# ------------------------------------------------------------------ live view

def test_live_view_updates_image_and_readout():
    fig = make()
    box = fig.widget
    assert fig.widget is box
    controls, image, readout = fig._live["controls"], fig._live["image"], fig._live["readout"]
    assert bytes(image.value).startswith(PNG) and readout.value == fig.initial_readout
    before = (bytes(image.value), readout.value)
    controls["angle"].value = ANGLES.index(160)
    assert bytes(image.value) != before[0] and readout.value != before[1]
    assert readout.value.startswith(f"mistakes: <b>{mistakes(160)}</b>")
    # the live frame shows the same pixels as the static frame of that setting
    from PIL import Image
    import io
    live = np.asarray(Image.open(io.BytesIO(bytes(image.value))).convert("RGB"))
    static = np.asarray(Image.open(io.BytesIO(fig.frame(angle=160)[0])).convert("RGB"))
    assert live.shape == static.shape
    assert np.abs(live.astype(int) - static.astype(int)).mean() < 3  # quantized colours only


def test_live_choice_stepper_and_goal():
    fig = make()
    fig.widget
    controls, readout = fig._live["controls"], fig._live["readout"]
    controls["bias"].value = 2
    assert readout.value.endswith("&lt;step 0&gt;")
    stepper_row = [w for w in fig.widget.children if hasattr(w, "children")][0]
    slider, previous, following, shown = stepper_row.children
    following.click()
    assert controls["step"].value == 1 and shown.value == "1 / 1"
    following.click()  # at the last step: stays
    assert controls["step"].value == 1 and "&lt;step 1&gt;" in readout.value
    previous.click()
    assert controls["step"].value == 0
    controls["bias"].value = 1
    good = next(a for a in ANGLES if goal(a))
    controls["angle"].value = ANGLES.index(good)
    assert 'class="svmlib-success"' in readout.value


def test_live_update_errors_show_in_the_readout():
    def fragile(state, angle):
        if angle > 20:
            raise RuntimeError("boom")
        return "fine"

    fig = InteractiveFigure(setup, fragile, {"angle": Slider(ANGLES[:3], "angle")})
    fig.widget
    fig._live["controls"]["angle"].value = 2
    assert "update failed: RuntimeError: boom" in fig._live["readout"].value


# ------------------------------------------------------------------ redrawing

def test_partial_redraw_matches_full_redraw():
    """Blitting only the changed artists gives the same pixels as a full draw.

    Up to a few pixels where a tick mark meets the spine: an axis without grid
    lines stays in the background, so content reaching the axes' edge may be
    painted over the first pixel of a tick.
    """

    def setup_two(fig):
        ax, bars_ax = fig.subplots(1, 2)
        ax.scatter(X[:, 0], X[:, 1], c=Y, zorder=4)
        ax.set_xlim(-3, 3)
        ax.set_ylim(-3, 3)
        (line,) = ax.plot([], [], "k-")
        label = ax.text(0.02, 0.95, "", transform=ax.transAxes)
        bars = bars_ax.bar([0, 1], [1, 1])
        bars_ax.set_ylim(0, 3)
        return {"ax": ax, "line": line, "label": label, "bars": bars}

    def update_two(st, angle, shade):
        update({"line": st["line"]}, angle)
        st["label"].set_text(f"angle {angle}")
        st["bars"][0].set_height(1 + np.cos(np.deg2rad(angle)))
        for image in list(st["ax"].images):
            image.remove()
        if shade:  # a new image below everything: forces a full redraw the first time
            st["ax"].imshow([[0, 1], [1, 0]], extent=(-3, 3, -3, 3), alpha=0.3, zorder=0)
        return ""

    controls = {"angle": Slider(ANGLES, "angle"), "shade": Choice([False, True], "shade")}
    fast = InteractiveFigure(setup_two, update_two, dict(controls), blit=True)
    slow = InteractiveFigure(setup_two, update_two, dict(controls), blit=False)
    order = fast.settings()[::-1] + fast.settings()
    for setting in order:
        for fig in (fast, slow):
            fig._apply(fig._complete(setting))
        a = fast._rgba().astype(int)
        b = slow._rgba().astype(int)
        differ = np.abs(a - b).max(axis=2) > 0
        assert differ.sum() <= 12, setting
        assert np.abs(a - b).max() <= 16, setting
    assert fast._redrawer.full_draws < len(order) // 4
    assert slow._redrawer.full_draws == len(order)


def test_changing_limits_falls_back_to_a_full_draw():
    def update_zoom(state, zoom):
        state["line"].axes.set_xlim(-zoom, zoom)
        return ""

    fig = InteractiveFigure(setup, update_zoom, {"zoom": Slider([1, 2, 3], "zoom")})
    reference = InteractiveFigure(setup, update_zoom, {"zoom": Slider([1, 2, 3], "zoom")},
                                  blit=False)
    for zoom in (2, 3, 1, 2):
        assert fig.frame(zoom=zoom)[0] == reference.frame(zoom=zoom)[0]


# ------------------------------------------------------------------ browser

def chromium():
    return shutil.which("chromium") or (os.path.exists("/usr/bin/chromium") and "/usr/bin/chromium")


@pytest.mark.browser
@pytest.mark.skipif(not chromium(), reason="needs Chromium")
def test_static_widget_in_headless_chromium(tmp_path):
    playwright = pytest.importorskip("playwright.sync_api")
    one = make()
    two = make(controls={"angle": Slider(ANGLES[:4], "angle")}, title="Second")
    page_file = tmp_path / "page.html"
    page_file.write_text("<!doctype html><meta charset='utf-8'><body>" + one.to_html()
                         + "<p>text between</p>" + two.to_html() + "</body>", encoding="utf-8")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-dev-shm-usage"])
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: errors.append(r.url) if not r.url.startswith(
            ("file:", "data:")) else None)
        page.goto(page_file.as_uri())
        img, out = page.locator(f"#{one.id}-img"), page.locator(f"#{one.id}-readout")
        other = page.locator(f"#{two.id}-img").get_attribute("src")
        start = img.get_attribute("src"), out.inner_text()
        page.locator(f"#{one.id}-c0").focus()
        page.keyboard.press("ArrowRight")
        assert img.get_attribute("src") != start[0]
        assert out.inner_text().startswith(f"mistakes: {mistakes(160)}")
        assert page.locator(f"#{one.id}-c0-out").inner_text() == "160°"
        assert page.locator(f"#{two.id}-img").get_attribute("src") == other
        page.locator(f"#{one.id}-c2-next").click()
        assert out.inner_text().endswith("<step 1>")
        assert page.locator(f"#{one.id}-c2-next").is_disabled()
        good = next(a for a in ANGLES if goal(a))
        page.locator(f"#{one.id}-c0").fill(str(ANGLES.index(good)))
        page.locator(f"#{one.id}-c0").dispatch_event("change")
        assert page.locator(f"#{one.id} .svmlib-success").count() == 1
        page.locator(f"#{one.id}-c1").select_option("0")
        assert out.inner_text().startswith(f"mistakes: {mistakes(good, -1.0)}")
        assert errors == []
        browser.close()


def test_settings_that_differ_only_in_a_disabled_control_are_drawn_once():
    calls = []

    def counting_update(state, angle, bias=0.0, step=0):
        calls.append((angle, bias))
        return update(state, angle, bias)

    controls = {
        "angle": Slider(ANGLES, "angle θ", value=140, fmt="{:.0f}°"),
        # the bias does something only for angles below 90°
        "bias": Slider([-1.0, 0.0, 1.0], "bias b", value=0.0,
                       enabled=lambda angle: angle < 90, disabled_note="fixed here"),
    }
    fig = InteractiveFigure(setup, counting_update, controls, title="Rotate")
    calls.clear()  # the live view's first draw
    data = frame_data(fig.to_html())
    low = [a for a in ANGLES if a < 90]
    high = [a for a in ANGLES if a >= 90]
    # two views (wide, phone) per drawn setting: all biases below 90°, one above
    assert len(calls) == 2 * (3 * len(low) + len(high))
    assert len(data["frames"]) == fig.n_settings
    for i, angle in enumerate(ANGLES):
        frames = [data["frames"][f"{i}-{j}"] for j in range(3)]
        if angle >= 90:
            assert frames[0] == frames[1] == frames[2]
        else:
            _, readout = fig.frame(angle=angle, bias=-1.0)
            assert data["readouts"][frames[0][1]] == readout
