"""Interactive figures with one source and two renderings.

An :class:`InteractiveFigure` is written once, as two functions and a few
controls over *finite* grids of values:

* ``setup(fig) -> state`` draws what never changes on a
  :class:`matplotlib.figure.Figure` and creates the artists that will move;
* ``update(state, **values) -> str`` moves those artists for one setting of
  the controls and returns a short readout (text or HTML).

It then renders in two ways:

* **live in Jupyter**: ipywidgets controls call ``update`` on the same figure,
  which is re-encoded as PNG into an ``ipywidgets.Image``, with the readout in
  an ``HTML`` widget.  The figure is a bare ``Figure`` on an Agg canvas, never a
  pyplot figure, so nothing leaks into the cell's outputs;
* **static in the HTML book** (no kernel): when the environment variable
  ``SVMLIB_STATIC_WIDGETS=1`` is set, every combination of control values is
  rendered at build time and emitted as ``text/html`` with real form controls
  and a few lines of inline JavaScript that swap the precomputed frames.

Example
-------
>>> import numpy as np
>>> from svmlib.widgets import InteractiveFigure, Slider
>>> def setup(fig):
...     ax = fig.add_subplot()
...     ax.set_xlim(-1, 1); ax.set_ylim(-1, 1)
...     (line,) = ax.plot([], [])
...     return line
>>> def update(line, angle):
...     t = np.deg2rad(angle)
...     line.set_data([0, np.cos(t)], [0, np.sin(t)])
...     return f"angle = {angle}°"
>>> fig = InteractiveFigure(setup, update, {"angle": Slider([0, 45, 90], "angle")})
>>> fig.n_settings
3
"""

import base64
import hashlib
import html
import io
import itertools
import json
import os
import re
from numbers import Real

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.layout_engine import PlaceHolderLayoutEngine

__all__ = ["InteractiveFigure", "Slider", "Choice", "Stepper"]

#: Hard limit on the number of control settings (frames) of one figure.
MAX_SETTINGS = 200
#: Budget of one figure's static HTML with every frame inline, in bytes.  (The
#: book's build moves the frames into files that a page loads one at a time,
#: as the reader reaches the figure and moves its controls; see book/_ext.)
MAX_HTML_BYTES = 10_000_000
_ENV = "SVMLIB_STATIC_WIDGETS"
_WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
_COUNTER = itertools.count(1)

_SUCCESS_STYLE = ("display:block;margin-top:0.3em;padding:0.2em 0.6em;color:#1b5e20;"
                  "background:#e8f5e9;border-left:4px solid #2e7d32;font-weight:600;")


_SUBSCRIPTS = dict(zip("0123456789+-=()aehijklmnoprstuvx−",
                       "₀₁₂₃₄₅₆₇₈₉₊₋"
                       "₌₍₎ₐₑₕᵢⱼₖₗₘₙ"
                       "ₒₚᵣₛₜᵤᵥₓ₋"))
_SUPERSCRIPTS = dict(zip("0123456789+-=()inT−",
                         "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻"
                         "⁼⁽⁾ⁱⁿᵀ⁻"))


def _script_text(match):
    """``<sub>i</sub>`` -> ``ᵢ`` (Unicode sub/superscripts), else ``_(…)``/``^(…)``."""
    kind, inner = match.group(1).lower(), html.unescape(re.sub(r"<[^>]+>", "", match.group(2)))
    table = _SUBSCRIPTS if kind == "sub" else _SUPERSCRIPTS
    if inner and all(ch in table for ch in inner):
        return "".join(table[ch] for ch in inner)
    return ("_" if kind == "sub" else "^") + f"({inner})"


def _strip_tags(text):
    """Plain text of a short HTML snippet: tags removed, entities decoded.

    Subscripts and superscripts become Unicode ones where those exist
    (``y<sub>i</sub>`` -> ``yᵢ``), so that the text does not read ``yi``.
    """
    text = re.sub(r"<(sub|sup)>(.*?)</\1>", _script_text, str(text), flags=re.I | re.S)
    text = re.sub(r"<br\s*/?>|</(div|p|li|tr)>", "\n", text, flags=re.I)
    text = re.sub(r"<[^>]+>", "", text)
    lines = [" ".join(line.split()) for line in html.unescape(text).splitlines()]
    return "\n".join(line for line in lines if line)


def _book_style():
    """The book's matplotlib style as a context (see :func:`svmlib.plotting.style`)."""
    from ..plotting._core import style
    return style()


# ------------------------------------------------------------------ controls

class _Control:
    """A control over a finite list of values, each with a display label."""

    kind = "control"

    def __init__(self, values, labels, label, value, default_index=0, enabled=None,
                 disabled_note=None):
        if len(values) == 0:
            raise ValueError(f"{type(self).__name__} {label!r} needs at least one value; "
                             f"got an empty list.")
        if enabled is not None and not callable(enabled):
            raise TypeError(f"enabled must be a function enabled(**other_controls) -> bool, "
                            f"or None; got {type(enabled).__name__}.")
        self.values = list(values)
        self.labels = [str(v) for v in labels]
        self.label = str(label)
        self.index = default_index if value is None else self.index_of(value)
        self.enabled = enabled
        self.disabled_note = None if disabled_note is None else str(disabled_note)

    def is_enabled(self, others):
        """Whether the control does something for these values of the other controls."""
        return True if self.enabled is None else bool(self.enabled(**others))

    @property
    def value(self):
        """The initial value."""
        return self.values[self.index]

    def __len__(self):
        return len(self.values)

    def index_of(self, value):
        """Position of ``value`` in the grid (exact match, else a float match)."""
        for i, v in enumerate(self.values):
            try:
                if v is value or v == value:
                    return i
            except (TypeError, ValueError):  # e.g. arrays compared with ==
                continue
        if isinstance(value, Real):
            for i, v in enumerate(self.values):
                if isinstance(v, Real) and np.isclose(float(v), float(value), rtol=1e-9,
                                                      atol=1e-12):
                    return i
        shown = ", ".join(self.labels[:12]) + (", ..." if len(self.labels) > 12 else "")
        raise ValueError(f"value {value!r} is not on the grid of {type(self).__name__} "
                         f"{self.label!r}; pick one of: {shown}.")

    def spec(self):
        """A JSON-able description (used for the stable id of a figure)."""
        return [self.kind, self.label, self.labels, self.index]


def _formatter(fmt, values):
    if callable(fmt):
        return fmt
    if fmt is None:
        numeric = all(isinstance(v, Real) and not isinstance(v, bool) for v in values)
        fmt = "{:g}" if numeric else "{}"
    return fmt.format


class Slider(_Control):
    """A slider over a finite grid of values.

    Parameters
    ----------
    values : sequence
        The grid, in slider order (e.g. ``np.linspace(0, 165, 12)``).
    label : str
        What the slider sets, shown next to it (e.g. ``"angle θ (degrees)"``).
    value : object, optional
        Initial value, one of ``values``; default the first.
    fmt : str or callable, optional
        How a value is shown: a format string such as ``"{:.0f}°"`` or a
        function ``value -> str``; default ``"{:g}"`` for numbers.
    enabled : callable, optional
        ``enabled(**others) -> bool``: whether the slider does anything for a
        setting of the figure's other controls; where it does not, both views
        disable it and show ``disabled_note``.  Default: always enabled.
    disabled_note : str, optional
        Why the slider is disabled (e.g. ``"the linear kernel has no
        parameter"``), shown next to it while it is.
    """

    kind = "slider"

    def __init__(self, values, label, value=None, fmt=None, enabled=None, disabled_note=None):
        if isinstance(values, np.ndarray):
            values = values.tolist()  # NumPy scalars -> Python numbers
        values = list(values)
        show = _formatter(fmt, values)
        super().__init__(values, [show(v) for v in values], label, value, enabled=enabled,
                         disabled_note=disabled_note)


class Choice(_Control):
    """A drop-down choice among a few options.

    Parameters
    ----------
    options : list or dict
        The options: a list of values (each shown with ``str``), or a dict
        ``{label: value}``.
    label : str
        What the choice sets.
    value : object, optional
        Initial value (or, for a dict, its label); default the first option.
    """

    kind = "choice"

    def __init__(self, options, label, value=None):
        if isinstance(options, dict):
            labels, values = list(options.keys()), list(options.values())
            if value is not None and value in labels and not any(
                    v is value or (type(v) is type(value) and v == value) for v in values):
                value = options[value]
        else:
            values = list(options)
            labels = [str(v) for v in values]
        super().__init__(values, labels, label, value)


class Stepper(_Control):
    """Steps 0, 1, ..., n−1 of an algorithm, with Previous and Next buttons.

    Parameters
    ----------
    n : int
        Number of steps (≥ 1).
    label : str
        What a step is (e.g. ``"update"``).
    value : int, default=0
        Initial step.
    fmt : str or callable, optional
        How step ``k`` is shown; default ``"k / n−1"`` (or ``"k / last"``).
    last : callable, optional
        ``last(**others) -> int``: the last step that exists for a setting of
        the figure's *other* controls (keyword arguments named like them),
        when runs differ in length, e.g. an algorithm that stops early for
        some settings.  The views then stop the stepper there and count
        ``"k / last"``, so the counter agrees with the run shown.  Default:
        every setting has all ``n`` steps.
    """

    kind = "stepper"

    def __init__(self, n, label, value=0, fmt=None, last=None):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be an integer >= 1 (the number of steps); got n={n!r}.")
        if last is not None and not callable(last):
            raise TypeError(f"last must be a function last(**other_controls) -> int, or None; "
                            f"got {type(last).__name__}.")
        if last is not None and fmt is not None:
            raise ValueError("give either fmt or last, not both: with last the stepper counts "
                             "'k / last' for the run shown.")
        n = int(n)
        show = _formatter(fmt, []) if fmt is not None else (lambda k: f"{k} / {n - 1}")
        super().__init__(list(range(n)), [show(k) for k in range(n)], label, value)
        self.last = last

    def last_step(self, others):
        """The last step for these values of the other controls (``n − 1`` by default).

        Raises
        ------
        ValueError
            If ``last`` returns something outside ``0 .. n−1``.
        """
        top = len(self) - 1
        if self.last is None:
            return top
        value = self.last(**others)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                or not 0 <= value <= top:
            raise ValueError(f"last() of stepper {self.label!r} must return an integer in "
                             f"0..{top} (n − 1); got {value!r} for {others!r}.")
        return int(value)

    def counter(self, k, others):
        """The counter text of step ``k`` for these values of the other controls."""
        if self.last is None:
            return self.labels[k]
        return f"{k} / {self.last_step(others)}"


# ------------------------------------------------------------ the figure

class InteractiveFigure:
    """A figure with controls: live in Jupyter, precomputed frames in the book.

    Parameters
    ----------
    setup : callable
        ``setup(fig) -> state``: draws on ``fig`` (a
        :class:`matplotlib.figure.Figure`) what never changes and creates the
        artists that move; returns whatever ``update`` needs (the state).
    update : callable
        ``update(state, **values) -> str``: moves the artists for one setting
        (keyword arguments named like the controls) and returns the readout,
        a short text or HTML snippet (write ``&lt;`` for a literal ``<``).
        Must depend only on its arguments (deterministic).
    controls : dict
        ``{name: Slider | Choice | Stepper}``; names are Python identifiers.
        The product of the grid sizes is the number of settings (frames):
        keep it under ~60, it must not exceed 200.
    goal : callable, optional
        ``goal(**values) -> bool``: the widget exercise's test.
    goal_text : str, optional
        The stated goal, shown above the figure.
    success_message : str, optional
        Shown (highlighted) in the readout when ``goal`` is met.
    figsize : (float, float), default=(6, 4)
        Size in inches.
    dpi : int, default=80
        Resolution of the frames.
    title : str, optional
        Shown above the controls and as the first line of the plain-text
        rendering.
    alt : str, optional
        Text alternative of the image; default the title (or the goal),
        followed by the current readout.
    blit : bool, default=True
        Redraw only the artists that ``update`` changes (see
        :class:`_Redrawer`); ``False`` redraws the whole figure every time.

    Attributes
    ----------
    figure : matplotlib.figure.Figure
    state : object
        What ``setup`` returned.
    controls : dict
    """

    def __init__(self, setup, update, controls, goal=None, goal_text=None,
                 success_message="Goal reached. Well done!", figsize=(6, 4), dpi=80,
                 title=None, alt=None, blit=True):
        if not callable(setup) or not callable(update):
            raise TypeError("setup and update must be functions: setup(fig) -> state and "
                            "update(state, **values) -> readout.")
        if not isinstance(controls, dict):
            raise TypeError(f"controls must be a dict {{name: Slider/Choice/Stepper}}; got "
                            f"{type(controls).__name__}.")
        for name, control in controls.items():
            if not (isinstance(name, str) and name.isidentifier()):
                raise ValueError(f"control names must be Python identifiers (they become "
                                 f"keyword arguments of update); got {name!r}.")
            if not isinstance(control, _Control):
                raise TypeError(f"control {name!r} must be a Slider, Choice or Stepper; got "
                                f"{type(control).__name__}.")
        if goal is not None and not callable(goal):
            raise TypeError("goal must be a function goal(**values) -> bool, or None.")
        self.controls = dict(controls)
        self._names = list(self.controls)
        sizes = [len(c) for c in self.controls.values()]
        n = int(np.prod(sizes)) if sizes else 1
        if n > MAX_SETTINGS:
            detail = ", ".join(f"{name}: {len(c)} values" for name, c in self.controls.items())
            product = " × ".join(str(s) for s in sizes)
            raise ValueError(
                f"the controls give {product} = {n} combinations ({detail}), more than the "
                f"limit of {MAX_SETTINGS}: the HTML book stores one frame per combination. "
                f"Use a coarser grid (fewer values per slider, ideally ≤ 60 combinations).")
        self._n_settings = n
        self.update_function = update
        self.goal = goal
        self.goal_text = goal_text
        self.success_message = success_message
        self.title = title
        self.alt = alt
        self.dpi = dpi
        self._setup = setup
        self._blit = blit
        self._figsize = tuple(figsize)
        with _book_style():
            self.figure = Figure(figsize=figsize, dpi=dpi, facecolor="white",
                                 layout="constrained")
            self.canvas = FigureCanvasAgg(self.figure)
            self.state = setup(self.figure)
        self._redrawer = _Redrawer(self.figure, self.canvas, blit=blit)
        self._initial = {name: c.value for name, c in self.controls.items()}
        self.initial_readout = self._apply(self._initial)
        self.id = self._stable_id()
        self._view = None
        self._live = {}
        self._static_html = None

    # -- settings ---------------------------------------------------------

    @property
    def n_settings(self):
        """Number of combinations of control values (frames)."""
        return self._n_settings

    def settings(self):
        """Every combination of control values, as a list of dicts."""
        grids = [c.values for c in self.controls.values()]
        return [dict(zip(self._names, combo)) for combo in itertools.product(*grids)]

    def _complete(self, values):
        unknown = set(values) - set(self._names)
        if unknown:
            raise ValueError(f"unknown control(s) {sorted(unknown)}; this figure has "
                             f"{self._names}.")
        full = dict(self._initial)
        for name, value in values.items():
            full[name] = self.controls[name].values[self.controls[name].index_of(value)]
        return full

    def _others(self, name, values):
        """The values of every control but ``name`` (keyword arguments of its callbacks)."""
        return {k: v for k, v in values.items() if k != name}

    def _index_others(self, position, combo):
        """``combo`` (control indices) as values, without control number ``position``."""
        return {name: c.values[i] for j, (name, c, i) in
                enumerate(zip(self._names, self.controls.values(), combo)) if j != position}

    def _reachable(self, combo):
        """Whether a setting can be shown: no stepper beyond the last step of its run."""
        for position, control in enumerate(self.controls.values()):
            if control.kind == "stepper" and control.last is not None:
                if combo[position] > control.last_step(self._index_others(position, combo)):
                    return False
        return True

    def _conditions(self):
        """Per control with ``last``/``enabled``: its value for every setting of the others.

        Returns ``(last, enabled)``, two dicts ``{position: {key: value}}``
        where ``key`` is the others' indices joined by ``-`` with ``*`` in
        the control's own place (the lookup the static script makes).
        """
        last, enabled = {}, {}
        controls = list(self.controls.values())
        for position, control in enumerate(controls):
            wants_last = control.kind == "stepper" and control.last is not None
            wants_enabled = getattr(control, "enabled", None) is not None
            if not (wants_last or wants_enabled):
                continue
            grids = [range(len(c)) if j != position else [0] for j, c in enumerate(controls)]
            table = {}
            for combo in itertools.product(*grids):
                key = "-".join("*" if j == position else str(i) for j, i in enumerate(combo))
                others = self._index_others(position, combo)
                table[key] = (control.last_step(others) if wants_last
                              else int(control.is_enabled(others)))
            (last if wants_last else enabled)[str(position)] = table
        return last, enabled

    def _stable_id(self):
        spec = json.dumps([self.title, self.goal_text,
                           [[k] + c.spec() for k, c in self.controls.items()]],
                          ensure_ascii=True, default=str)
        digest = hashlib.sha1(spec.encode()).hexdigest()[:8]
        return f"svmlib-widget-{digest}-{next(_COUNTER)}"

    # -- rendering --------------------------------------------------------

    def _apply(self, values):
        """Run ``update`` for these values; return the readout HTML (with success)."""
        with _book_style():  # artists created by update get the book's style too
            readout = self.update_function(self.state, **values)
        return self._readout(readout, values)

    def _readout(self, readout, values):
        """The readout HTML of ``update``'s result, with the success message if due."""
        readout = "" if readout is None else str(readout)
        if self.goal is not None and self.goal(**values):
            readout += (f'<div class="svmlib-success" style="{_SUCCESS_STYLE}">'
                        f"\u2705 {self.success_message}</div>")
        return readout

    def _rgba(self):
        """Draw the figure (see :class:`_Redrawer`) and return its RGBA pixels."""
        self._redrawer.draw()
        return np.asarray(self.canvas.buffer_rgba())

    def _png_fast(self):
        """PNG of the current figure, encoded for speed (the live view)."""
        from PIL import Image
        rgba = self._rgba()
        buffer = io.BytesIO()
        Image.fromarray(rgba[..., :3]).save(buffer, format="PNG", compress_level=1)
        return buffer.getvalue()

    def _png_small(self, colors=256):
        """PNG of the current figure, encoded for size (the static book)."""
        return _encode_small(self._rgba()[..., :3], colors)

    def frame(self, **values):
        """Render one setting; controls not given keep their initial value.

        Returns
        -------
        png : bytes
            The figure as PNG (as the static book stores it).
        readout : str
            The readout HTML, including the success message if the goal is met.
        """
        full = self._complete(values)
        readout = self._apply(full)
        return self._png_small(), readout

    def text(self):
        """The plain-text rendering: title and initial readout."""
        lines = [self.title or "Interactive figure"]
        readout = _strip_tags(self.initial_readout)
        if readout:
            lines.append(readout)
        return "\n".join(lines)

    def __repr__(self):
        return self.text()

    def _repr_mimebundle_(self, include=None, exclude=None):
        data = {"text/plain": self.text()}
        try:
            view = self.widget._repr_mimebundle_()
        except Exception:  # no ipywidgets or no comm: the plain text still shows
            view = {}
        if _WIDGET_MIME in view:
            data[_WIDGET_MIME] = view[_WIDGET_MIME]
        if os.environ.get(_ENV) == "1":
            data["text/html"] = self.to_html()
        if include:
            data = {k: v for k, v in data.items() if k in include}
        if exclude:
            data = {k: v for k, v in data.items() if k not in exclude}
        return data

    # -- live view (ipywidgets) --------------------------------------------

    @property
    def widget(self):
        """The live ipywidgets view (a ``VBox``), built on first use."""
        if self._view is None:
            self._view = self._build_view()
        return self._view

    def _build_view(self):
        import ipywidgets as W

        values = dict(self._initial)
        self._live = {"values": values, "controls": {}}
        rows = []
        for name, control in self.controls.items():
            options = list(zip(control.labels, range(len(control))))
            style = {"description_width": "initial"}
            if control.kind == "slider":
                widget = W.SelectionSlider(options=options, value=control.index,
                                           description=control.label, style=style,
                                           continuous_update=True,
                                           layout=W.Layout(width="420px"))
                rows.append(widget)
            elif control.kind == "choice":
                widget = W.Dropdown(options=options, value=control.index,
                                    description=control.label, style=style)
                rows.append(widget)
            else:
                widget = W.IntSlider(value=control.index, min=0, max=len(control) - 1,
                                     step=1, description=control.label, style=style,
                                     readout=False, continuous_update=True)
                previous = W.Button(description="Previous", icon="step-backward",
                                    layout=W.Layout(width="100px"))
                following = W.Button(description="Next", icon="step-forward",
                                     layout=W.Layout(width="100px"))
                shown = W.Label(control.labels[control.index])
                previous.on_click(lambda _, w=widget: setattr(w, "value", max(w.min, w.value - 1)))
                following.on_click(lambda _, w=widget: setattr(w, "value", min(w.max, w.value + 1)))
                self._live.setdefault("counters", {})[name] = shown
                rows.append(W.HBox([widget, previous, following, shown]))
            if control.disabled_note:
                note = W.HTML(f"<i>{html.escape(control.disabled_note)}</i>")
                self._live.setdefault("notes", {})[name] = note
                rows[-1] = W.HBox([rows[-1], note])
            widget.observe(lambda change, n=name: self._on_change(n, change["new"]),
                           names="value")
            self._live["controls"][name] = widget
        self._sync_live()
        self._apply(values)
        # the first image is stored in the notebook's widget state: keep it small
        self._live["image"] = W.Image(value=self._png_small(), format="png")
        self._live["readout"] = W.HTML(value=self.initial_readout)
        header = []
        if self.title:
            header.append(W.HTML(f"<b>{self.title}</b>"))
        if self.goal_text:
            header.append(W.HTML(f"<b>Goal:</b> {self.goal_text}"))
        return W.VBox(header + rows + [self._live["image"], self._live["readout"]])

    def _sync_live(self):
        """Stepper lengths, counters and enabled states for the current values."""
        values = self._live["values"]
        for name, control in self.controls.items():
            widget = self._live["controls"][name]
            others = self._others(name, values)
            if control.kind == "stepper":
                last = control.last_step(others)
                if widget.max != last:
                    widget.max = last  # clamps the value; its observer syncs again
                counter = self._live.get("counters", {}).get(name)
                if counter is not None:
                    counter.value = control.counter(widget.value, others)
            on = control.is_enabled(others)
            widget.disabled = not on
            note = self._live.get("notes", {}).get(name)
            if note is not None:
                note.layout.display = "none" if on else None

    def _on_change(self, name, index):
        values = self._live["values"]
        values[name] = self.controls[name].values[index]
        self._sync_live()
        if "image" not in self._live:  # still building the view
            return
        try:
            readout = self._apply(dict(values))
            self._live["image"].value = self._png_fast()
        except Exception as exc:  # show the problem where the reader looks
            readout = (f'<span style="color:#b00020">update failed: '
                       f"{html.escape(type(exc).__name__)}: {html.escape(str(exc))}</span>")
        self._live["readout"].value = readout

    # -- static view (the HTML book) ---------------------------------------

    def _frames(self):
        """Render every setting once, for wide screens and for phones.

        The frames are drawn on two figures of their own (see
        :class:`_StaticView`), at ``FRAME_DENSITY`` pixels per CSS pixel; the
        live figure is not touched.

        Returns
        -------
        views : (_StaticView, _StaticView)
            The wide and the phone rendering.
        pixels, phone_pixels : list of ndarray
            The distinct images (RGB) of each rendering, each stored once.
        readouts : list of str
            The distinct readouts.
        frames : dict
            ``"i-j-k"`` (the control indices) -> [wide image index, readout
            index, phone image index].
        """
        views = (_StaticView(self, self._figsize), _StaticView(self, self._figsize, phone=True))
        stores = ([], []), ([], [])
        pixel_index = ({}, {})
        readouts, readout_index = [], {}
        frames = {}
        grids = [range(len(c)) for c in self.controls.values()]
        controls = list(self.controls.values())
        drawn = set()
        for combo in itertools.product(*grids):
            if not self._reachable(combo):
                continue  # a step past the end of its run: never shown
            values = {name: c.values[i] for name, c, i in zip(self._names, controls, combo)}
            same = self._same_as_drawn(combo, drawn)
            if same is not None:  # differs only in controls that are disabled here
                frames["-".join(map(str, combo))] = frames["-".join(map(str, same))]
                continue
            drawn.add(combo)
            slots = []
            for k, view in enumerate(views):
                rgb, raw = view.render(values)
                if k == 0:
                    readout = self._readout(raw, values)
                key = hashlib.sha1(rgb.tobytes()).hexdigest()
                if key not in pixel_index[k]:
                    pixel_index[k][key] = len(stores[k][0])
                    stores[k][0].append(rgb)
                slots.append(pixel_index[k][key])
            if readout not in readout_index:
                readout_index[readout] = len(readouts)
                readouts.append(readout)
            frames["-".join(map(str, combo))] = [slots[0], readout_index[readout], slots[1]]
        for view in views:
            view.close()
        return views, stores[0][0], stores[1][0], readouts, frames

    def _disabled(self, combo):
        """Positions of the controls that are disabled at this setting."""
        controls = list(self.controls.values())
        values = [c.values[i] for c, i in zip(controls, combo)]
        off = set()
        for k, control in enumerate(controls):
            others = {n: v for j, (n, v) in enumerate(zip(self._names, values)) if j != k}
            if not control.is_enabled(others):
                off.add(k)
        return frozenset(off)

    def _same_as_drawn(self, combo, drawn):
        """A drawn setting that shows the same frame as ``combo``, or None.

        A disabled control does nothing (that is what ``enabled`` declares), so
        a setting equals the one with every disabled control at its first
        value, provided the same controls are disabled there.  That setting
        comes earlier in the order the frames are drawn.
        """
        off = self._disabled(combo)
        if not off:
            return None
        first = tuple(0 if k in off else i for k, i in enumerate(combo))
        if first == combo or first not in drawn or self._disabled(first) != off:
            return None
        return first

    def to_html(self):
        """The kernel-free rendering: form controls, frames and a small script.

        Every setting is rendered once for wide screens and once in the phone
        layout (see :class:`_StaticView`), at twice the CSS resolution;
        identical images are stored once, and settings that differ only in
        disabled controls are drawn once.  Images are PNGs quantized to 256
        colours at zlib's default level, or at its highest level and then
        with fewer colours (128, 64) if that is what it takes to stay within
        :data:`MAX_HTML_BYTES`.  The book's build moves them out of the page
        into files loaded when the figure scrolls into view (``book/_ext``);
        ``data["src"]`` is the prefix that turns an entry of ``images`` or
        ``phone`` into a URL.  The result
        is cached; it is what ``_repr_mimebundle_`` emits as ``text/html`` when
        ``SVMLIB_STATIC_WIDGETS=1``.

        Raises
        ------
        ValueError
            If the HTML exceeds :data:`MAX_HTML_BYTES` even with 64 colours.
        """
        if self._static_html is None:
            views, pixels, phone_pixels, readouts, frames = self._frames()
            # zlib's default level first (six times faster than level 9 on
            # these frames, about 10 % larger); the slowest level and then
            # fewer colours only when the page needs them to fit its budget.
            for colors, level in ((256, 6), (256, 9), (128, 9), (64, 9)):
                images = [base64.b64encode(_encode_small(rgb, colors, fast=True, level=level))
                          .decode("ascii") for rgb in pixels]
                phone = [base64.b64encode(_encode_small(rgb, colors, fast=True, level=level))
                         .decode("ascii") for rgb in phone_pixels]
                page = self._render_html(views, images, phone, readouts, frames)
                if len(page.encode("utf-8")) <= MAX_HTML_BYTES:
                    break
            else:
                raise ValueError(
                    f"the static rendering of {self.title or 'this figure'!r} takes "
                    f"{len(page.encode('utf-8')) / 1e6:.1f} MB, over the budget of "
                    f"{MAX_HTML_BYTES / 1e6:.1f} MB; use fewer settings ({self.n_settings} "
                    f"now), a smaller figsize, or simpler shading.")
            self._static_html = page
        return self._static_html

    def _render_html(self, views, images, phone, readouts, frames):
        uid = self.id
        esc = html.escape
        start = "-".join(str(c.index) for c in self.controls.values())
        first_image, first_readout, first_phone = frames[start]
        alt_base = self.alt or self.title or (
            f"Goal: {_strip_tags(self.goal_text)}" if self.goal_text else "Interactive figure")
        parts = [f'<div class="svmlib-widget" id="{uid}">', _CSS]
        if self.title:
            parts.append(f'<div class="svmlib-title">{self.title}</div>')
        if self.goal_text:
            parts.append(f'<div class="svmlib-goal"><strong>Goal:</strong> {self.goal_text}</div>')
        parts.append('<div class="svmlib-controls">')
        for i, control in enumerate(self.controls.values()):
            cid = f"{uid}-c{i}"
            others = self._others(self._names[i], self._initial)
            current = esc(control.labels[control.index])
            off = "" if control.is_enabled(others) else " disabled"
            note = ""
            if control.disabled_note:
                note = (f'<span class="svmlib-note" id="{cid}-note"{" hidden" if not off else ""}>'
                        f"{esc(control.disabled_note)}</span>")
            described = f' aria-describedby="{cid}-note"' if note else ""
            if control.kind == "slider":
                parts.append(
                    f'<div class="svmlib-control"><label for="{cid}">{esc(control.label)}</label>'
                    f'<input type="range" id="{cid}" data-control="{i}" min="0" '
                    f'max="{len(control) - 1}" step="1" value="{control.index}" '
                    f'aria-valuetext="{current}"{described}{off}>'
                    f'<output id="{cid}-out" for="{cid}">{current}</output>{note}</div>')
            elif control.kind == "choice":
                options = "".join(
                    f'<option value="{j}"{" selected" if j == control.index else ""}>'
                    f"{esc(text)}</option>" for j, text in enumerate(control.labels))
                parts.append(
                    f'<div class="svmlib-control"><label for="{cid}">{esc(control.label)}</label>'
                    f'<select id="{cid}" data-control="{i}"{off}>{options}</select>{note}</div>')
            else:
                last = control.last_step(others)
                current = esc(control.counter(control.index, others))
                parts.append(
                    f'<div class="svmlib-control" role="group" aria-labelledby="{cid}-label">'
                    f'<span class="svmlib-label" id="{cid}-label">{esc(control.label)}</span>'
                    f'<button type="button" id="{cid}-prev" data-control="{i}" data-step="-1"'
                    f'{" disabled" if control.index == 0 else ""}>&#9664; Previous</button>'
                    f'<output id="{cid}-out" data-index="{control.index}" aria-live="polite">'
                    f"{current}</output>"
                    f'<button type="button" id="{cid}-next" data-control="{i}" data-step="1"'
                    f'{" disabled" if control.index >= last else ""}>Next &#9654;</button></div>')
        parts.append("</div>")
        # each readout's lines as one sentence each ("C = 10; 21 support vectors"):
        # read from the HTML's <br>, not from textContent, which runs them together
        alts = ["; ".join(_strip_tags(r).splitlines()) for r in readouts]
        alt = esc(f"{alt_base}. {alts[first_readout]}".strip())
        (width, height), (pw, ph) = views[0].css_size(), views[1].css_size()
        parts.append(f'<picture class="svmlib-picture" style="max-width:{width}px">'
                     f'<source class="svmlib-phone" media="{PHONE_MEDIA}" width="{pw}" '
                     f'height="{ph}" srcset="data:image/png;base64,{phone[first_phone]}">'
                     f'<img class="svmlib-frame" id="{uid}-img" width="{width}" '
                     f'height="{height}" loading="lazy" decoding="async" alt="{alt}" '
                     f'src="data:image/png;base64,{images[first_image]}"></picture>')
        parts.append(f'<div class="svmlib-readout" id="{uid}-readout" aria-live="polite">'
                     f"{readouts[first_readout]}</div>")
        data = {
            "labels": [c.labels for c in self.controls.values()],
            "kinds": [c.kind for c in self.controls.values()],
            "alt": alt_base,
            "src": "data:image/png;base64,",
            "images": images,
            "phone": phone,
            "readouts": readouts,
            "alts": alts,
            "frames": frames,
        }
        last, enabled = self._conditions()
        if last:
            data["last"] = last
        if enabled:
            data["enabled"] = enabled
        payload = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
        payload = payload.replace("</", "<\\/").replace("<!--", "<\\!--")
        parts.append(f"<script>{_SCRIPT.replace('__ID__', uid).replace('__DATA__', payload)}"
                     "</script>")
        parts.append("</div>")
        return "".join(parts)


# ------------------------------------------------- frames for the HTML book

#: CSS pixels per inch of a figure as the book shows it (96 = the CSS inch,
#: so a 9 pt tick label is 12 CSS px on a screen wide enough for the figure).
CSS_PX_PER_INCH = 96
#: Pixel density of the stored frames: 2 image pixels per CSS pixel, sharp
#: on high-density screens; CSS scales them to the column.
FRAME_DENSITY = 2
#: The phone layout: shown ``PHONE_WIDTH_PX`` CSS px wide (the column of a
#: 390 px screen), with no text smaller than ``PHONE_MIN_TEXT_PX`` CSS px.
PHONE_WIDTH_PX = 330
PHONE_MIN_TEXT_PX = 11
#: Smallest font (points) in the phone layout; smaller text is enlarged.
PHONE_MIN_FONT_PT = 8
#: Screens up to this width (CSS px) get the phone layout.
PHONE_MEDIA = "(max-width: 599.98px)"


class _NarrowFigure(Figure):
    """A figure that lays out a row of panels as a column (the phone layout).

    ``subplots(1, k, width_ratios=...)`` gives ``k`` panels stacked top to
    bottom, in the same order and of equal height (each gets the phone's
    whole width, so the row's width ratios are dropped), and
    ``add_gridspec(1, k)`` a grid whose ``[0, j]`` is row ``j``; everything
    else is an ordinary :class:`~matplotlib.figure.Figure`.
    """

    stacked = 1

    def subplots(self, nrows=1, ncols=1, *, squeeze=True, width_ratios=None,
                 height_ratios=None, gridspec_kw=None, **kwargs):
        gridspec_kw = dict(gridspec_kw or {})
        if nrows == 1 and ncols > 1:
            gridspec_kw.pop("width_ratios", None)
            gridspec_kw.pop("height_ratios", None)
            self.stacked = max(self.stacked, ncols)
            axes = super().subplots(ncols, 1, squeeze=squeeze, gridspec_kw=gridspec_kw,
                                    **kwargs)
            return axes if squeeze else axes.reshape(1, ncols)
        return super().subplots(nrows, ncols, squeeze=squeeze, width_ratios=width_ratios,
                                height_ratios=height_ratios, gridspec_kw=gridspec_kw, **kwargs)

    def add_gridspec(self, nrows=1, ncols=1, **kwargs):
        if nrows == 1 and ncols > 1:
            kwargs.pop("width_ratios", None)
            kwargs.pop("height_ratios", None)
            self.stacked = max(self.stacked, ncols)
            return _Transposed(super().add_gridspec(ncols, 1, **kwargs))
        return super().add_gridspec(nrows, ncols, **kwargs)


class _Transposed:
    """A one-column grid indexed as the one-row grid it replaces."""

    def __init__(self, grid):
        self.grid = grid

    def __getitem__(self, key):
        if isinstance(key, tuple) and len(key) == 2:
            return self.grid[key[1], key[0]]
        return self.grid[key]

    def __getattr__(self, name):
        return getattr(self.grid, name)


def _phone_legends(figure):
    """Move the legends beside the plots under them (no room beside them on a phone).

    A legend anchored to the right of its axes, or a figure legend placed
    ``outside right``, becomes a figure legend ``outside lower center`` in two
    columns.  Returns the number of legends moved.
    """
    moved = []
    for ax in figure.axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        anchor = legend.get_bbox_to_anchor().transformed(ax.transAxes.inverted())
        if anchor.x0 >= 0.99:
            moved.append(legend)
    for legend in figure.legends:
        if legend.get_bbox_to_anchor().x0 >= 0.5 * figure.bbox.x1 or getattr(
                legend, "_outside_loc", None) in ("right", "left"):
            moved.append(legend)
    for legend in moved:
        handles, labels = legend.legend_handles, [t.get_text() for t in legend.texts]
        size = legend.texts[0].get_fontsize() if legend.texts else None
        legend.remove()
        figure.legend(handles, labels, loc="outside lower center", ncols=2, fontsize=size,
                      frameon=False, handletextpad=0.4, columnspacing=1.0)
    return len(moved)


def _enlarge_small_text(figure, minimum):
    """Set every text smaller than ``minimum`` points to ``minimum``."""
    from matplotlib.text import Text
    for text in figure.findobj(Text):
        if text.get_fontsize() < minimum:
            text.set_fontsize(minimum)


class _StaticView:
    """One rendering of an :class:`InteractiveFigure` for the HTML book.

    Its own figure (``setup`` called again), drawn at ``FRAME_DENSITY`` image
    pixels per CSS pixel.  ``phone=True`` builds the phone layout: panels
    stacked, legends below, text at least ``PHONE_MIN_FONT_PT``, and a width
    that shows that text at ``PHONE_MIN_TEXT_PX`` CSS px or more when the
    frame is ``PHONE_WIDTH_PX`` CSS px wide.
    """

    def __init__(self, owner, figsize, phone=False):
        self.owner = owner
        self.phone = phone
        dpi = CSS_PX_PER_INCH * FRAME_DENSITY
        width, height = figsize
        if phone:
            # CSS px per inch on the phone must be at least
            # PHONE_MIN_TEXT_PX / (PHONE_MIN_FONT_PT / 72).
            width_in = PHONE_WIDTH_PX * PHONE_MIN_FONT_PT / (72 * PHONE_MIN_TEXT_PX)
            width, height = width_in, 0.85 * width_in
            dpi = FRAME_DENSITY * PHONE_WIDTH_PX / width_in
        with _book_style():
            cls = _NarrowFigure if phone else Figure
            self.figure = cls(figsize=(width, height), dpi=dpi, facecolor="white",
                              layout="constrained")
            self.canvas = FigureCanvasAgg(self.figure)
            self.state = owner._setup(self.figure)
        if phone:
            # each stacked panel about as tall as a single one; room for legends below
            extra = 0.45 * _phone_legends(self.figure)
            self.figure.set_size_inches(width, height * self.figure.stacked + extra)
        self._redrawer = _Redrawer(self.figure, self.canvas, blit=owner._blit)

    def css_size(self):
        """(width, height) in CSS pixels."""
        w, h = self.figure.get_size_inches()
        if self.phone:
            scale = PHONE_WIDTH_PX / w
        else:
            scale = CSS_PX_PER_INCH
        return int(round(w * scale)), int(round(h * scale))

    def render(self, values):
        """Pixels (RGB) of one setting, and what ``update`` returned."""
        with _book_style():
            readout = self.owner.update_function(self.state, **values)
        if self.phone:
            _enlarge_small_text(self.figure, PHONE_MIN_FONT_PT)
        self._redrawer.draw()
        return np.array(np.asarray(self.canvas.buffer_rgba())[..., :3]), readout

    def close(self):
        """Drop the figure's pixels (the sizes stay known)."""
        self._redrawer.background = None


def _encode_small(rgb, colors=256, fast=False, level=9):
    """PNG bytes of an RGB array, colour-quantized (no dithering).

    Median cut by default; ``fast=True`` uses an octree (several times faster
    on the book's 2x frames, and smaller files for these flat-colour plots).
    ``level`` is zlib's compression level (9: smallest, slowest).
    """
    from PIL import Image

    image = Image.fromarray(np.ascontiguousarray(rgb))
    if colors:
        method = Image.Quantize.FASTOCTREE if fast else Image.Quantize.MEDIANCUT
        image = image.quantize(colors=colors, method=method, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=level)
    return buffer.getvalue()


class _Redrawer:
    """Redraw a figure, repainting only what changed since the last draw.

    Matplotlib marks an artist *stale* when one of its properties changes.
    After each draw this class records, for every Axes, its limits and its
    children; at the next draw, the children that are stale or new are the
    ones ``update`` changed.  Those become *dynamic*: they are set animated,
    so that a full draw (the *background*, kept as a copy of the pixels)
    leaves them out, and each later draw restores the background and paints
    only the dynamic artists on top.

    Drawing order is kept: every child of an Axes whose zorder is at least
    that of its lowest dynamic artist is dynamic too (except an axis without
    grid lines: its ticks and labels lie outside the data area).  Anything
    else (new limits, a removed background artist, a change outside the
    Axes) triggers a full draw, which is always correct.  The layout
    (e.g. constrained) is computed at the first draw and then frozen, so the
    axes do not jump from frame to frame.
    """

    def __init__(self, figure, canvas, blit=True):
        self.figure = figure
        self.canvas = canvas
        self.blit = blit
        self.dynamic = {}      # id -> artist
        self.thresholds = {}   # id(ax) -> lowest zorder ever dynamic in ax
        self.snapshot = None   # state after the last draw
        self.background = None
        self.full_draws = 0

    @staticmethod
    def _children(ax):
        return [a for a in ax.get_children() if a is not ax.patch]

    def _take_snapshot(self):
        fig = self.figure
        # the artists themselves are kept (not only their ids), so that an id
        # cannot be reused by a new artist while the snapshot refers to it
        self.snapshot = {
            "figure": [id(a) for a in fig.get_children()],
            "axes": {id(ax): (ax.get_xlim(), ax.get_ylim(),
                              {id(a): a for a in self._children(ax)}) for ax in fig.axes},
        }

    def _changes(self):
        """The changed children per Axes, and whether only a full draw will do.

        Returns ``(changes, full)``; ``changes`` is ``None`` when the figure
        itself changed (then nothing can be learned).
        """
        fig = self.figure
        snap = self.snapshot
        if snap is None or [id(a) for a in fig.get_children()] != snap["figure"]:
            return None, True
        full = any(a.stale for a in fig.get_children() if a not in fig.axes)
        changes = {}
        for ax in fig.axes:
            xlim, ylim, before = snap["axes"][id(ax)]
            if ax.get_xlim() != xlim or ax.get_ylim() != ylim:
                full = True
            children = self._children(ax)
            now = {id(a) for a in children}
            if any(i not in self.dynamic for i in before.keys() - now):
                full = True  # a background artist was removed
            changes[ax] = [a for a in children if a.stale or id(a) not in before]
        return changes, full

    def _closure(self, ax):
        """The dynamic children of ``ax`` in drawing order, completed by zorder."""
        children = self._children(ax)
        mine = [a.get_zorder() for a in children if id(a) in self.dynamic]
        if id(ax) in self.thresholds:
            mine.append(self.thresholds[id(ax)])
        if not mine:
            return []
        threshold = self.thresholds[id(ax)] = min(mine)
        for a in children:
            if a.get_zorder() >= threshold and id(a) not in self.dynamic:
                if a in (ax.xaxis, ax.yaxis) and not self._has_grid(a):
                    continue
                self.dynamic[id(a)] = a
        return sorted((a for a in children if id(a) in self.dynamic),
                      key=lambda a: a.get_zorder())

    @staticmethod
    def _has_grid(axis):
        ticks = axis.get_major_ticks()[:1] + axis.get_minor_ticks()[:1]
        return any(t.gridline.get_visible() for t in ticks)

    def draw(self):
        if not self.blit:
            self._full_draw()
            return
        changes, full = self._changes()
        if changes is not None:
            for ax, changed in changes.items():
                threshold = self.thresholds.get(id(ax))
                for a in changed:
                    if id(a) not in self.dynamic:
                        if threshold is None or a.get_zorder() < threshold:
                            full = True  # it must go below something in the background
                        self.dynamic[id(a)] = a
            alive = {id(a) for children in changes for a in self._children(children)}
            for key in [k for k in self.dynamic if k not in alive]:
                del self.dynamic[key]  # removed from the figure: forget it
        if full or self.background is None:
            self._full_draw()
        else:
            self._paint_dynamic()

    def _full_draw(self):
        fig = self.figure
        alive = {id(a) for ax in fig.axes for a in self._children(ax)}
        for key in [k for k in self.dynamic if k not in alive]:
            del self.dynamic[key]
        if not self.blit or not self.dynamic:
            for a in self.dynamic.values():
                a.set_animated(False)
            self.canvas.draw()
            self.background = None
        else:
            for ax in fig.axes:
                self._closure(ax)
            for a in self.dynamic.values():
                a.set_animated(True)
            self.canvas.draw()
            self.background = self.canvas.copy_from_bbox(fig.bbox)
            self._paint_dynamic(restore=False)
        self.full_draws += 1
        engine = fig.get_layout_engine()
        if engine is not None and not isinstance(engine, PlaceHolderLayoutEngine):
            fig.set_layout_engine("none")  # freeze the layout found at the first draw
        self._take_snapshot()

    def _paint_dynamic(self, restore=True):
        if restore:
            self.canvas.restore_region(self.background)
        renderer = self.canvas.get_renderer()
        for ax in self.figure.axes:
            for a in self._closure(ax):
                a.draw(renderer)
        self._take_snapshot()


_CSS = """<style>
.svmlib-widget{border:1px solid #d0d7de;border-radius:6px;padding:.6em .8em;margin:1em 0;max-width:800px;background:#fff;color:#1f2328}
.svmlib-widget .svmlib-title{font-weight:700;margin-bottom:.2em}
.svmlib-widget .svmlib-goal{margin-bottom:.4em}
.svmlib-widget .svmlib-controls{display:flex;flex-wrap:wrap;gap:.3em 1.4em;align-items:center;margin-bottom:.4em}
.svmlib-widget .svmlib-control{display:flex;align-items:center;gap:.5em}
.svmlib-widget label,.svmlib-widget .svmlib-label{font-weight:600}
.svmlib-widget output{min-width:3.5em;font-variant-numeric:tabular-nums}
.svmlib-widget button{padding:.1em .6em;cursor:pointer}
.svmlib-widget picture.svmlib-picture{display:block}
.svmlib-widget img.svmlib-frame{display:block;width:100%;max-width:100%;height:auto}
.svmlib-widget .svmlib-readout{min-height:1.5em;margin-top:.2em}
.svmlib-widget .svmlib-note{font-style:italic;color:#57606a}
.svmlib-widget input:disabled,.svmlib-widget select:disabled{opacity:.45;cursor:not-allowed}
</style>"""

# The frame swapper: one closure per widget, keyed by the widget's id, so any
# number of widgets can share a page; no network, works from file://.
_SCRIPT = """(function(){
var root=document.getElementById("__ID__");if(!root)return;
var D=__DATA__,n=D.labels.length,idx=[],img=root.querySelector("img.svmlib-frame"),
pic=root.querySelector("source.svmlib-phone"),out=root.querySelector(".svmlib-readout");
function el(i,s){return document.getElementById("__ID__-c"+i+(s||""));}
function key(i){return idx.map(function(v,j){return j===i?"*":v;}).join("-");}
function lastOf(i){var L=D.last&&D.last[i];return L?L[key(i)]:D.labels[i].length-1;}
function url(f){return D.src+(pic&&matchMedia(pic.media).matches?D.phone[f[2]]:D.images[f[0]]);}
function near(){if(D.src.indexOf("data:")===0)return;for(var i=0;i<n;i++)for(var d=-1;d<2;d+=2){
 var j=idx.slice();j[i]+=d;var f=D.frames[j.join("-")];if(f)(new Image()).src=url(f);}}
function show(first){
 for(var i=0;i<n;i++){if(D.kinds[i]==="stepper")idx[i]=Math.min(idx[i],lastOf(i));}
 var f=D.frames[idx.join("-")];if(!f)return;
 if(!first){img.src=D.src+D.images[f[0]];if(pic)pic.srcset=D.src+D.phone[f[2]];}
 out.innerHTML=D.readouts[f[1]];
 img.alt=D.alt+". "+D.alts[f[1]];
 for(var i=0;i<n;i++){var t=D.labels[i][idx[i]],o=el(i,"-out");
  if(D.kinds[i]==="stepper"&&D.last&&D.last[i])t=idx[i]+" / "+lastOf(i);
  if(o)o.textContent=t;
  if(D.kinds[i]==="slider")el(i).setAttribute("aria-valuetext",t);
  if(D.kinds[i]==="stepper"){el(i,"-prev").disabled=idx[i]<=0;
   el(i,"-next").disabled=idx[i]>=lastOf(i);}
  if(D.enabled&&D.enabled[i]){var on=!!D.enabled[i][key(i)],nt=el(i,"-note");
   el(i).disabled=!on;if(nt)nt.hidden=on;}}
 if(!first)near();
}
for(var i=0;i<n;i++){(function(i){
 if(D.kinds[i]==="stepper"){idx[i]=parseInt(el(i,"-out").getAttribute("data-index"),10);
  [["-prev",-1,"-next"],["-next",1,"-prev"]].forEach(function(p){var b=el(i,p[0]);
   b.addEventListener("click",function(){
   idx[i]=Math.max(0,Math.min(lastOf(i),idx[i]+p[1]));show();
   /* at either end the pressed button is disabled: keep the focus on a usable one */
   if(b.disabled&&document.activeElement!==el(i,p[2])){var o=el(i,p[2]);
    if(!o.disabled)o.focus();}});});}
 else{var c=el(i);idx[i]=parseInt(c.value,10);
  var h=function(){idx[i]=parseInt(c.value,10);show();};
  c.addEventListener("input",h);c.addEventListener("change",h);}
})(i);}
show(true);
})();"""
