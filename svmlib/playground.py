"""An SVM playground that trains in the reader's browser.

The reader clicks to add points, drags them, removes them, and moves C, the
kernel and its parameters; after every change an SMO solver written in
JavaScript (``svmlib/static/smo.js``, a line-by-line mirror of
:func:`svmlib.smo.solve_dual_smo`) retrains in the page and the picture is
redrawn: decision regions shaded by the decision function ``h(x)``, the curve
``h = 0`` and the margins ``h = +-1``, each point marked by its case in the
KKT conditions (``alpha = 0``, ``0 < alpha < C``, ``alpha = C``), and a readout.

One JavaScript source, two places:

* **in Jupyter**, :class:`Playground` is an `anywidget
  <https://anywidget.dev>`_ widget.  The points are synced to Python, so
  ``SVC(...).fit(pg.X, pg.y)`` in the next cell fits what the reader drew;
  ``pg.summary`` holds what the page computed (support vectors, dual
  objective, ...), for comparison;
* **in the HTML book** (``SVMLIB_STATIC_WIDGETS=1`` when the book is built)
  the same cell output also carries ``text/html``: the two ES modules
  inlined into one classic script, which needs no kernel and no network and
  works from ``file://``.

Example
-------
>>> from svmlib.playground import Playground, preset
>>> X, y = preset("moons")
>>> X.shape, sorted(set(y.tolist()))
((60, 2), [-1, 1])
"""

import hashlib
import html
import itertools
import json
import os
import pathlib
import re
from numbers import Integral, Real

import numpy as np

from . import datasets
from .svc import SVC

__all__ = ["Playground", "preset", "PRESETS", "javascript_bundle", "STATIC_DIR"]

#: Folder of the JavaScript sources shipped as package data.
STATIC_DIR = pathlib.Path(__file__).resolve().parent / "static"

_ENV = "SVMLIB_STATIC_WIDGETS"
_COUNTER = itertools.count(1)
KERNELS = ("linear", "poly", "rbf")
#: Range of C on the page's logarithmic slider.
C_RANGE = (0.01, 1000.0)
#: Range of gamma on the page's logarithmic slider.
GAMMA_RANGE = (0.01, 100.0)
MAX_POINTS = 2000


def _outlier_set():
    # chapter 06's example (fig-soft-outlier): thirty separable points and one
    # +1 point on the -1 side; still separable, by a much narrower margin
    X, y = datasets.separable_blobs(n=30, margin=1.5, random_state=3)
    return np.vstack([X, [[-1.0, 1.25]]]), np.append(y, 1)


def _exercise_set():
    X = np.array([[2.0, 1.0], [2.0, -1.0], [3.0, 0.0], [-2.0, 0.0], [-3.0, 1.0], [-3.0, -1.0]])
    return X, np.array([1, 1, 1, -1, -1, -1])


#: The preset data sets: name -> (label shown on the page, function -> (X, y)).
PRESETS = {
    "moons": ("two moons", lambda: datasets.moons(n=60, noise=0.12, random_state=0)),
    "separable": ("separable blobs", lambda: datasets.separable_blobs(n=30, random_state=0)),
    "overlapping": ("overlapping blobs", lambda: datasets.overlapping_blobs(n=60, random_state=0)),
    "circles": ("circles", lambda: datasets.circles(n=60, noise=0.08, random_state=0)),
    "xor": ("xor", lambda: datasets.xor(n=60, noise=0.3, random_state=0)),
    "outlier": ("separable, one outlier", _outlier_set),
    "six": ("six points", _exercise_set),
}


def preset(name):
    """The points of a preset data set, as the page shows them.

    Coordinates are rounded to 3 decimals (the page stores them so).

    Parameters
    ----------
    name : str
        One of :data:`PRESETS`.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,), int, values in {-1, +1}
    """
    if name not in PRESETS:
        raise ValueError(f"preset must be one of {', '.join(repr(k) for k in PRESETS)}; got "
                         f"preset={name!r}.")
    X, y = PRESETS[name][1]()
    return np.round(np.asarray(X, dtype=np.float64), 3) + 0.0, np.asarray(y, dtype=int)


def _read(name):
    path = STATIC_DIR / name
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FileNotFoundError(
            f"the playground's JavaScript {path} is missing ({exc}); reinstall svmlib "
            f"(pip install -e .) so that its package data are present.") from None


_IMPORT_LINE = 'import * as smo from "./smo.js";'


def javascript_bundle(kind="module"):
    """The two ES modules joined into one script.

    ``smo.js`` becomes an object ``smo`` (its ``export`` statements turned into
    a returned namespace), followed by ``playground.js`` without its import
    line.

    Parameters
    ----------
    kind : {"module", "classic"}
        ``"module"`` keeps ``playground.js``'s exports (for anywidget);
        ``"classic"`` removes them, so the code runs in a plain ``<script>``
        (modules loaded from ``file://`` are blocked by browsers).

    Returns
    -------
    str
    """
    if kind not in ("module", "classic"):
        raise ValueError(f"kind must be 'module' or 'classic'; got kind={kind!r}.")
    smo_source = _read("smo.js")
    names = re.findall(r"^export (?:function|const|let|class) ([A-Za-z_$][\w$]*)", smo_source,
                       flags=re.M)
    smo_body = re.sub(r"^export (function|const|let|class) ", r"\1 ", smo_source, flags=re.M)
    if re.search(r"^export ", smo_body, flags=re.M):
        raise RuntimeError("smo.js has an export form the bundler does not know; use "
                           "'export function NAME' or 'export const NAME'.")
    playground_source = _read("playground.js")
    if _IMPORT_LINE not in playground_source:
        raise RuntimeError(f"playground.js must import the solver with {_IMPORT_LINE!r}.")
    playground_body = playground_source.replace(_IMPORT_LINE, "")
    if kind == "classic":
        playground_body = re.sub(r"^export default [\s\S]*?;\s*$", "", playground_body,
                                 flags=re.M)
        playground_body = re.sub(r"^export (function|const|let|class) ", r"\1 ",
                                 playground_body, flags=re.M)
        if re.search(r"^export ", playground_body, flags=re.M):
            raise RuntimeError("playground.js has an export form the bundler does not know.")
    namespace = "Object.freeze({" + ", ".join(names) + "})"
    return (f"const smo = (function () {{\n{smo_body}\nreturn {namespace};\n}})();\n"
            f"{playground_body}")


def _check_real_in(value, name, low, high, hint):
    if isinstance(value, bool) or not isinstance(value, Real) or not np.isfinite(value) \
            or not (low <= float(value) <= high):
        raise ValueError(f"{name} must be a number in [{low:g}, {high:g}]; got {name}={value!r}. "
                         f"{hint}")
    return float(value)


def _as_points(X, y):
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (n_samples, 2) (the playground is a plane); got "
                         f"shape {X.shape}. Keep two features, e.g. X[:, :2].")
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},), one label per point; got shape "
                         f"{y.shape}.")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinity; pass finite coordinates.")
    labels = set(np.unique(y).tolist())
    if not labels <= {-1, 1}:
        raise ValueError(f"y must hold the labels -1 and +1; got {sorted(labels)}. Map the two "
                         f"classes to -1 and +1, e.g. y = np.where(y == y.max(), 1, -1).")
    if X.shape[0] > MAX_POINTS:
        raise ValueError(f"the playground takes at most {MAX_POINTS} points (it retrains on every "
                         f"click); got {X.shape[0]}. Pass a subsample.")
    return [[round(float(a), 4) + 0.0, round(float(b), 4) + 0.0, int(c)]
            for (a, b), c in zip(X, y)]


def _view_of(points):
    """A square-ish window around the points (xmin, xmax, ymin, ymax), padded."""
    if not points:
        return [-3.0, 3.0, -3.0, 3.0]
    P = np.array([p[:2] for p in points])
    low, high = P.min(axis=0), P.max(axis=0)
    span = np.maximum(high - low, 1.0)
    pad = 0.15 * span
    low, high = low - pad, high + pad
    return [round(float(v), 3) for v in (low[0], high[0], low[1], high[1])]


def _make_widget_class():
    import anywidget
    import traitlets as t

    class _PlaygroundWidget(anywidget.AnyWidget):
        _esm = javascript_bundle("module")
        config = t.Dict().tag(sync=True)
        points = t.List().tag(sync=True)
        params = t.Dict().tag(sync=True)
        summary = t.Dict().tag(sync=True)

    return _PlaygroundWidget


_WIDGET_CLASS = None


class Playground:
    """Draw a data set, watch an SVM retrain in the page.

    The points on the page are :attr:`X` and :attr:`y` (in Jupyter, as the
    reader left them); :attr:`summary` holds what the page computed at its
    last retraining (empty until a page has shown the widget).

    Parameters
    ----------
    preset : str, default="moons"
        Starting data, one of :data:`PRESETS`; ignored when ``X`` is given.
    X, y : array-like, optional
        Starting points, shape (n_samples, 2), labels in {-1, +1}.
    kernel : {"linear", "poly", "rbf"}, default="rbf"
    C : float, default=1.0
        In [0.01, 1000] (the slider's range).
    gamma : float, default=1.0
        In [0.01, 100]; ``exp(-gamma ||x - z||^2)`` for "rbf",
        ``(gamma <x, z> + coef0) ** degree`` for "poly" (svmlib's meanings).
    degree : int, default=3
        1 to 5, for "poly".
    coef0 : float, default=1.0
        For "poly" (fixed on the page).
    title : str, optional
    goal_n_support : int, optional
        A widget exercise: success when the reader has added exactly one
        point and the SVM has this many support vectors.
    goal_text : str, optional
        The stated goal.
    presets : bool, default=True
        Offer the preset menu.
    canvas_first : bool, default=False
        Put the picture above the controls (the book's landing page opens
        with it), not below them.
    """

    def __init__(self, preset="moons", X=None, y=None, kernel="rbf", C=1.0, gamma=1.0,
                 degree=3, coef0=1.0, title=None, goal_n_support=None, goal_text=None,
                 presets=True, canvas_first=False):
        if kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {', '.join(map(repr, KERNELS))}; got "
                             f"kernel={kernel!r}.")
        C = _check_real_in(C, "C", *C_RANGE, hint="The slider runs from 0.01 to 1000.")
        gamma = _check_real_in(gamma, "gamma", *GAMMA_RANGE, hint="The slider runs from 0.01 to 100.")
        if isinstance(degree, bool) or not isinstance(degree, Integral) or not 1 <= degree <= 5:
            raise ValueError(f"degree must be an integer from 1 to 5; got degree={degree!r}.")
        coef0 = _check_real_in(coef0, "coef0", -10.0, 10.0, hint="Use coef0=1.0.")
        if X is None:
            if y is not None:
                raise ValueError("y was given without X; pass both, or neither (then the preset "
                                 "is used).")
            Xp, yp = globals()["preset"](preset)
            points = _as_points(Xp, yp)
            start = preset
        else:
            if y is None:
                raise ValueError("X was given without y; pass the labels too (-1 and +1).")
            points = _as_points(X, y)
            start = ""
        if goal_n_support is not None and (isinstance(goal_n_support, bool) or not isinstance(
                goal_n_support, Integral) or goal_n_support < 1):
            raise ValueError(f"goal_n_support must be a positive integer or None; got "
                             f"{goal_n_support!r}.")
        self.title = title
        self.goal_text = goal_text
        self._points = points
        self._params = {"kernel": kernel, "C": C, "gamma": gamma, "degree": int(degree),
                        "coef0": coef0}
        self._config = {
            "title": title or "",
            "goal": ({"n_support": int(goal_n_support), "n_points": len(points) + 1,
                      "text": goal_text or ""} if goal_n_support is not None else None),
            "presets": ({k: {"label": v[0], "points": _as_points(*globals()["preset"](k))}
                         for k, v in PRESETS.items()} if presets else {}),
            "preset": start,
            "view": _view_of(points),
            "C_range": list(C_RANGE),
            "gamma_range": list(GAMMA_RANGE),
            "canvas_first": bool(canvas_first),
        }
        self._summary = {}
        self._widget = None
        self._html = None

    # -- the data, as Python sees them ------------------------------------

    @property
    def points(self):
        """The points as a list of ``[x1, x2, label]``."""
        if self._widget is not None:
            return [list(p) for p in self._widget.points]
        return [list(p) for p in self._points]

    @property
    def X(self):
        """ndarray of shape (n_samples, 2): the points on the page."""
        pts = self.points
        return np.array([p[:2] for p in pts], dtype=np.float64).reshape(len(pts), 2)

    @property
    def y(self):
        """ndarray of shape (n_samples,): their labels, -1 or +1."""
        return np.array([int(p[2]) for p in self.points], dtype=int)

    @property
    def params(self):
        """The page's settings: kernel, C, gamma, degree, coef0."""
        if self._widget is not None:
            return dict(self._widget.params)
        return dict(self._params)

    @property
    def summary(self):
        """What the page computed at the last retraining."""
        if self._widget is not None:
            return dict(self._widget.summary)
        return dict(self._summary)

    def svc(self):
        """An unfitted :class:`~svmlib.SVC` with the page's settings."""
        p = self.params
        return SVC(C=p["C"], kernel=p["kernel"], gamma=p["gamma"], degree=p["degree"],
                   coef0=p["coef0"])

    # -- renderings ------------------------------------------------------

    @property
    def widget(self):
        """The live anywidget view, built on first use."""
        global _WIDGET_CLASS
        if self._widget is None:
            if _WIDGET_CLASS is None:
                _WIDGET_CLASS = _make_widget_class()
            self._widget = _WIDGET_CLASS(config=self._config, points=self._points,
                                         params=self._params, summary={})
        return self._widget

    def text(self):
        """Plain text: what the playground starts with, fitted by svmlib.SVC."""
        X, y = self.X, self.y
        p = self.params
        lines = [self.title or "SVM playground"]
        if self.goal_text:
            lines.append(f"Goal: {self.goal_text}")
        kernel = {"linear": "linear kernel",
                  "rbf": f"RBF kernel, gamma = {p['gamma']:g}",
                  "poly": f"polynomial kernel, degree {p['degree']}, gamma = {p['gamma']:g}, "
                          f"coef0 = {p['coef0']:g}"}[p["kernel"]]
        lines.append(f"{len(y)} points ({int(np.sum(y == 1))} of class +1, "
                     f"{int(np.sum(y == -1))} of class -1); {kernel}, C = {p['C']:g}")
        if len(set(y.tolist())) == 2:
            model = self.svc().fit(X, y)
            alpha = model.alpha_
            n_bound = int(np.sum(alpha >= p["C"]))
            n_free = int(np.sum(alpha > 0)) - n_bound
            lines.append(f"svmlib.SVC: {n_free + n_bound} support vectors "
                         f"({n_free} with 0 < alpha < C, {n_bound} with alpha = C)")
        return "\n".join(lines)

    def __repr__(self):
        return self.text()

    def to_html(self):
        """The kernel-free rendering for the book: a container and one inline script."""
        if self._html is None:
            config = dict(self._config, points=self._points, params=self._params)
            payload = json.dumps(config, ensure_ascii=True, separators=(",", ":"))
            payload = payload.replace("</", "<\\/").replace("<!--", "<\\!--")
            digest = hashlib.sha1(payload.encode()).hexdigest()[:8]
            uid = f"svmlib-playground-{digest}-{next(_COUNTER)}"
            code = javascript_bundle("classic").replace("</script", "<\\/script")
            fallback = html.escape(self.text()).replace("\n", "<br>")
            self._html = (
                f'<div class="svmlib-playground-host" id="{uid}">'
                f'<noscript><p>{fallback}</p><p>The playground needs JavaScript.</p></noscript>'
                f"</div><script>(function () {{\n{code}\n"
                f'mount(document.getElementById("{uid}"), {payload});\n}})();</script>')
        return self._html

    def _repr_mimebundle_(self, include=None, exclude=None):
        data, metadata = {}, {}
        try:
            bundle = self.widget._repr_mimebundle_()
            if isinstance(bundle, tuple):
                data, metadata = dict(bundle[0]), dict(bundle[1] or {})
            elif bundle:
                data = dict(bundle)
        except Exception:  # no anywidget or no comm: the text still shows
            data = {}
        data["text/plain"] = self.text()
        if os.environ.get(_ENV) == "1":
            data["text/html"] = self.to_html()
        if include:
            data = {k: v for k, v in data.items() if k in include}
        if exclude:
            data = {k: v for k, v in data.items() if k not in exclude}
        return data, metadata
