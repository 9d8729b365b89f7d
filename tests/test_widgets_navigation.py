"""svmlib.widgets: steppers sized to their run, controls that switch off, plain text.

The static script itself is driven in Chromium by tests/test_browser_navigation.py;
here the data it reads (the ``last`` and ``enabled`` tables, the frames kept)
and the live ipywidgets view are checked in Python.
"""

import json
import re

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from svmlib.widgets import Choice, InteractiveFigure, Slider, Stepper  # noqa: E402
from svmlib.widgets._core import _strip_tags  # noqa: E402

# Two "runs" of different length: run "short" has steps 0..2, run "long" 0..4.
RUN_LAST = {"short": 2, "long": 4}


def setup(fig):
    ax = fig.add_subplot()
    ax.set_xlim(0, 5)
    ax.set_ylim(0, 5)
    (dot,) = ax.plot([0], [0], "o")
    return dot


def update(dot, run, step, size=1):
    k = min(step, RUN_LAST[run])
    dot.set_data([k], [size])
    return f"<b>Update {k} of {RUN_LAST[run]}</b> (run {run})"


def stepper_figure(**kwargs):
    controls = {"run": Choice(["short", "long"], "run"),
                "step": Stepper(5, "update", last=lambda run, size: RUN_LAST[run]),
                "size": Slider([1, 2, 3], "size", enabled=lambda run, step: run == "long",
                               disabled_note="off: the short run has no size")}
    return InteractiveFigure(setup, update, controls, figsize=(2, 2), dpi=40, **kwargs)


def payload(page):
    script = re.search(r"var D=(\{.*?\}),n=D", page, re.S).group(1)
    return json.loads(script.replace("<\\/", "</"))


def test_strip_tags_turns_subscripts_into_unicode():
    assert _strip_tags("min<sub>i</sub> y<sub>i</sub>h(x<sub>i</sub>) = 1") == "minᵢ yᵢh(xᵢ) = 1"
    assert _strip_tags("&alpha;<sub>12</sub> &rarr; &alpha;<sub>j</sub>") == "α₁₂ → αⱼ"
    assert _strip_tags("x<sup>2</sup> + x<sup>T</sup>") == "x² + xᵀ"
    # no Unicode form: spelled out, never run together with the base
    assert _strip_tags("w<sub>best fit</sub>") == "w_(best fit)"
    assert _strip_tags("a<br>b <b>c</b>") == "a\nb c"


def test_stepper_last_is_validated():
    with pytest.raises(TypeError, match="last must be a function"):
        Stepper(3, "update", last=2)
    with pytest.raises(ValueError, match="either fmt or last"):
        Stepper(3, "update", fmt="{}", last=lambda: 1)
    bad = Stepper(3, "update", last=lambda run: 7)
    with pytest.raises(ValueError, match=r"must return an integer in 0\.\.2.*got 7"):
        bad.last_step({"run": "x"})


def test_enabled_is_validated():
    with pytest.raises(TypeError, match="enabled must be a function"):
        Slider([1, 2], "size", enabled=True)


def test_static_stepper_stops_at_the_run_end_and_counts_it():
    fig = stepper_figure()
    page = fig.to_html()
    data = payload(page)
    # the stepper is control 1; its last step depends on the run (control 0)
    assert data["last"]["1"] == {"0-*-0": 2, "0-*-1": 2, "0-*-2": 2,
                                 "1-*-0": 4, "1-*-1": 4, "1-*-2": 4}
    # steps past a run's end are never shown, so no frame is stored for them
    assert "0-3-0" not in data["frames"] and "0-4-2" not in data["frames"]
    assert "1-4-2" in data["frames"]
    assert len(data["frames"]) == 3 * 3 + 5 * 3
    # the counter starts at "0 / 2" (run "short"), not "0 / 4"
    assert re.search(r'<output id="[^"]+-c1-out" data-index="0"[^>]*>0 / 2</output>', page)
    # the size slider does nothing for the short run: disabled, with its reason
    assert data["enabled"]["2"]["0-0-*"] == 0 and data["enabled"]["2"]["1-3-*"] == 1
    slider = re.search(r'<input type="range" id="[^"]+-c2"[^>]*>', page).group(0)
    assert " disabled" in slider and "aria-describedby" in slider
    assert re.search(r'<span class="svmlib-note" id="[^"]+-c2-note">off: the short run', page)


def test_static_note_hidden_while_enabled():
    controls = {"run": Choice(["long", "short"], "run"),
                "step": Stepper(5, "update", last=lambda run, size: RUN_LAST[run]),
                "size": Slider([1, 2, 3], "size", enabled=lambda run, step: run == "long",
                               disabled_note="off: the short run has no size")}
    page = InteractiveFigure(setup, update, controls, figsize=(2, 2), dpi=40).to_html()
    slider = re.search(r'<input type="range" id="[^"]+-c2"[^>]*>', page).group(0)
    assert " disabled" not in slider
    assert re.search(r'<span class="svmlib-note" id="[^"]+-c2-note" hidden>', page)


def test_live_view_follows_the_run_length_and_switches_the_slider():
    pytest.importorskip("ipywidgets")
    fig = stepper_figure()
    fig.widget  # build the live view
    run, step, size = (fig._live["controls"][k] for k in ("run", "step", "size"))
    counter = fig._live["counters"]["step"]
    assert step.max == 2 and counter.value == "0 / 2" and size.disabled
    run.value = 1          # "long"
    assert step.max == 4 and not size.disabled
    step.value = 4
    assert counter.value == "4 / 4"
    assert "Update 4 of 4" in fig._live["readout"].value
    run.value = 0          # back to "short": the step is clamped to its end
    assert step.value == 2 and counter.value == "2 / 2" and size.disabled
    assert "Update 2 of 2" in fig._live["readout"].value
