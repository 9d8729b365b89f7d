// The SVM playground: a canvas where the reader draws two classes and an SVM
// retrains after every change (svmlib/static/smo.js, the mirror of
// svmlib.smo).  `mount(el, config, host)` builds it inside `el`; the default
// export is the anywidget entry point, which syncs points and settings with
// Python.  No build step, no dependency: the book inlines this file and smo.js
// into one classic script (svmlib.playground.javascript_bundle).
//
// config: {title, goal: {n_support, n_points, text} | null, presets:
//   {name: {label, points}}, preset, view: [xmin, xmax, ymin, ymax],
//   C_range, gamma_range, points: [[x1, x2, label], ...],
//   params: {kernel, C, gamma, degree, coef0}, canvas_first: the picture above the controls}
// host (optional): {points(list), params(dict), summary(dict)} callbacks.

import * as smo from "./smo.js";

const STYLE_ID = "svmlib-playground-style";
const CSS = `
.svmlib-pg{--pg-bg:#ffffff;--pg-fg:#1f2328;--pg-muted:#57606a;--pg-border:#d0d7de;
 --pg-pos:#e8710a;--pg-neg:#1f77b4;--pg-pos-fill:232,113,10;--pg-neg-fill:31,119,180;
 --pg-free:#1a7f37;--pg-bound:#a0327a;--pg-curve:#1f2328;--pg-input:#ffffff;
 border:1px solid var(--pg-border);border-radius:6px;padding:.6em .8em;margin:1em 0;max-width:680px;
 background:var(--pg-bg);color:var(--pg-fg);font-size:.95rem;line-height:1.4}
html[data-theme="dark"] .svmlib-pg,body[data-jp-theme-light="false"] .svmlib-pg,.svmlib-pg.svmlib-pg-dark{
 --pg-bg:#15191e;--pg-fg:#e6edf3;--pg-muted:#9da7b3;--pg-border:#3d444d;
 --pg-pos:#ff9a4d;--pg-neg:#5cb8ff;--pg-pos-fill:255,140,60;--pg-neg-fill:60,160,255;
 --pg-free:#56d364;--pg-bound:#f08ad0;--pg-curve:#f0f6fc;--pg-input:#22272e}
.svmlib-pg .pg-title{font-weight:700;margin-bottom:.2em}
.svmlib-pg .pg-goal{margin-bottom:.4em}
.svmlib-pg .pg-controls{display:flex;flex-wrap:wrap;gap:.35em 1.2em;align-items:center;margin-bottom:.5em}
.svmlib-pg .pg-control{display:flex;align-items:center;gap:.4em;flex-wrap:wrap}
.svmlib-pg label,.svmlib-pg .pg-label{font-weight:600}
.svmlib-pg [role=radiogroup] label{font-weight:400;display:inline-flex;align-items:center;gap:.3em;white-space:nowrap;cursor:pointer}
.svmlib-pg [role=radiogroup] input{margin:0}
.svmlib-pg output{min-width:6.5em;font-variant-numeric:tabular-nums}
.svmlib-pg select,.svmlib-pg button{background:var(--pg-input);color:var(--pg-fg);border:1px solid var(--pg-border);border-radius:4px;padding:.1em .5em;font:inherit}
.svmlib-pg button{cursor:pointer}
.svmlib-pg input[type=range]{width:9em;accent-color:var(--pg-neg)}
.svmlib-pg :focus-visible{outline:3px solid var(--pg-neg);outline-offset:2px}
.svmlib-pg canvas{display:block;width:100%;height:auto;touch-action:none;border:1px solid var(--pg-border);border-radius:4px;cursor:crosshair}
.svmlib-pg .pg-legend{display:flex;flex-wrap:wrap;gap:.2em 1em;margin:.35em 0;color:var(--pg-muted);font-size:.9em}
.svmlib-pg .pg-legend span{display:inline-flex;align-items:center;gap:.3em}
.svmlib-pg .pg-legend svg{flex:none}
.svmlib-pg .pg-readout{min-height:2.8em;font-variant-numeric:tabular-nums}
.svmlib-pg .pg-help{color:var(--pg-muted);font-size:.85em;margin:.3em 0 0}
.svmlib-pg .pg-help kbd{font-size:.95em;border:1px solid var(--pg-border);border-radius:3px;padding:0 .25em}
/* a finger's targets: 44 x 44 px at least (WCAG 2.5.5), on touch screens and narrow windows */
@media (pointer: coarse), (max-width: 600px){
 .svmlib-pg .pg-controls{gap:.25em .9em}
 .svmlib-pg select,.svmlib-pg button{min-height:44px;min-width:44px}
 .svmlib-pg input[type=range]{height:44px;margin:0}
 .svmlib-pg [role=radiogroup] label{min-height:44px;min-width:44px;padding:0 .5em 0 .25em}
 .svmlib-pg [role=radiogroup] input{width:22px;height:22px}
}
.svmlib-pg .svmlib-success{display:block;margin-top:.3em;padding:.2em .6em;color:#1b5e20;background:#e8f5e9;border-left:4px solid #2e7d32;font-weight:600}
`;

const HIT_RADIUS = 9;      // CSS pixels: a click this close to a point grabs it
const TOUCH_HIT_RADIUS = 18; // a fingertip is less precise than a mouse pointer
const LONG_PRESS_MS = 600; // holding a finger still this long on a point removes it
const LONG_PRESS_SLOP = 8; // CSS pixels a finger may wander during a long press
const POINT_RADIUS = 5;
const CELL = 5;            // CSS pixels per cell of the shading grid

function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else if (key === "html") node.innerHTML = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function fmt(value, digits = 3) {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return "0";
  const magnitude = Math.abs(value);
  if (magnitude >= 1e4 || magnitude < 1e-3) return value.toExponential(2);
  return Number(value.toPrecision(digits)).toString();
}

function logSlider(id, min, max, value) {
  const input = el("input", { type: "range", id, min: String(Math.log10(min)), max: String(Math.log10(max)),
                              step: "0.01", value: String(Math.log10(value)) });
  return input;
}

// Segments of the level set {h = level} on a grid of vertex values (marching squares).
function contour(values, nx, ny, level) {
  const segments = [];
  const at = (i, j) => values[j * nx + i] - level;
  const cross = (i0, j0, i1, j1) => {
    const a = at(i0, j0), b = at(i1, j1);
    const t = a / (a - b);
    return [i0 + t * (i1 - i0), j0 + t * (j1 - j0)];
  };
  for (let j = 0; j + 1 < ny; j++) {
    for (let i = 0; i + 1 < nx; i++) {
      const v = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
      let code = 0;
      for (let k = 0; k < 4; k++) if (v[k] > 0) code |= 1 << k;
      if (code === 0 || code === 15) continue;
      const edges = [[i, j, i + 1, j], [i + 1, j, i + 1, j + 1], [i, j + 1, i + 1, j + 1], [i, j, i, j + 1]];
      const crossing = [];
      for (let e = 0; e < 4; e++) {
        const [a0, b0, a1, b1] = edges[e];
        if ((at(a0, b0) > 0) !== (at(a1, b1) > 0)) crossing.push(cross(a0, b0, a1, b1));
      }
      if (crossing.length === 2) segments.push(crossing);
      else if (crossing.length === 4) {
        // saddle: decide by the centre value
        const centre = (v[0] + v[1] + v[2] + v[3]) / 4;
        if ((centre > 0) === (v[0] > 0)) { segments.push([crossing[0], crossing[1]]); segments.push([crossing[2], crossing[3]]); }
        else { segments.push([crossing[0], crossing[3]]); segments.push([crossing[1], crossing[2]]); }
      }
    }
  }
  return segments;
}

// Join the segments of a level set into polylines (so that dashes run on).
function chain(segments) {
  const key = (p) => p[0].toFixed(5) + "," + p[1].toFixed(5);
  const ends = new Map();
  segments.forEach((segment, k) => {
    for (const p of segment) {
      const q = key(p);
      if (!ends.has(q)) ends.set(q, []);
      ends.get(q).push(k);
    }
  });
  const used = new Uint8Array(segments.length);
  const lines = [];
  for (let k = 0; k < segments.length; k++) {
    if (used[k]) continue;
    used[k] = 1;
    const line = [segments[k][0], segments[k][1]];
    for (const forward of [true, false]) {
      for (;;) {
        const tip = forward ? line[line.length - 1] : line[0];
        const next = (ends.get(key(tip)) || []).find((m) => !used[m]);
        if (next === undefined) break;
        used[next] = 1;
        const s = segments[next];
        const other = key(s[0]) === key(tip) ? s[1] : s[0];
        if (forward) line.push(other); else line.unshift(other);
      }
    }
    lines.push(line);
  }
  return lines;
}

export function mount(root, config, host = {}) {
  if (!document.getElementById(STYLE_ID)) {
    const style = el("style", { id: STYLE_ID });
    style.textContent = CSS;
    document.head.append(style);
  }
  // Unique ids on the page: anywidget evaluates this module once per widget,
  // so the count lives on globalThis, shared by every copy.
  globalThis.svmlibPlaygroundCount = (globalThis.svmlibPlaygroundCount || 0) + 1;
  const uid = (root.id || "svmlib-pg") + "-" + globalThis.svmlibPlaygroundCount;
  const presets = config.presets || {};
  const state = {
    points: (config.points || []).map((p) => [p[0], p[1], p[2]]),
    params: Object.assign({ kernel: "rbf", C: 1, gamma: 1, degree: 3, coef0: 1 }, config.params || {}),
    view: (config.view || [-3, 3, -3, 3]).slice(),
    cls: 1,
    model: null,
    error: null,
    cursor: null,        // keyboard cursor, in data coordinates
    selected: -1,        // index of the point the keyboard (or the pointer) selected
    carrying: false,     // the selected point moves with the arrow keys
    dragging: -1,
    timing: { train_ms: 0, draw_ms: 0, total_ms: 0, solve_total_ms: 0 },
    redraws: 0,
    trainer: null,       // the solve under way (smo.create_trainer)
    solving: false,      // true while it goes on in later frames
    easy: true,          // the last solve ended in its first frame
  };
  const start_count = state.points.length;

  // ------------------------------------------------------------ the DOM
  const box = el("div", { class: "svmlib-pg", role: "group", "aria-label": config.title || "SVM playground" });
  if (config.title) box.append(el("div", { class: "pg-title", text: config.title }));
  if (config.goal) box.append(el("div", { class: "pg-goal", html: "<strong>Goal:</strong> " + config.goal.text }));
  const controls = el("div", { class: "pg-controls" });

  const classSet = el("div", { class: "pg-control", role: "radiogroup", "aria-labelledby": `${uid}-classlabel` });
  classSet.append(el("span", { class: "pg-label", id: `${uid}-classlabel`, text: "new point" }));
  const classInputs = {};
  for (const [value, text] of [[1, "class +1 (orange ■)"], [-1, "class −1 (blue ●)"]]) {
    const id = `${uid}-class${value > 0 ? "pos" : "neg"}`;
    const input = el("input", { type: "radio", name: `${uid}-class`, id, value: String(value) });
    if (value === 1) input.checked = true;
    input.addEventListener("change", () => { if (input.checked) state.cls = value; });
    classInputs[value] = input;
    // the label holds its radio button, so the whole label is the target
    classSet.append(el("label", { for: id }, [input, document.createTextNode(text)]));
  }
  controls.append(classSet);

  const kernelSelect = el("select", { id: `${uid}-kernel` });
  for (const [value, text] of [["linear", "linear"], ["poly", "polynomial"], ["rbf", "RBF (Gaussian)"]]) {
    const option = el("option", { value, text });
    if (value === state.params.kernel) option.selected = true;
    kernelSelect.append(option);
  }
  controls.append(el("div", { class: "pg-control" }, [el("label", { for: kernelSelect.id, text: "kernel" }), kernelSelect]));

  const C_range = config.C_range || [0.01, 1000];
  const CInput = logSlider(`${uid}-C`, C_range[0], C_range[1], state.params.C);
  const COut = el("output", { for: CInput.id });
  controls.append(el("div", { class: "pg-control" }, [el("label", { for: CInput.id, text: "C" }), CInput, COut]));

  const gamma_range = config.gamma_range || [0.01, 100];
  const gammaInput = logSlider(`${uid}-gamma`, gamma_range[0], gamma_range[1], state.params.gamma);
  const gammaOut = el("output", { for: gammaInput.id });
  const gammaControl = el("div", { class: "pg-control" }, [el("label", { for: gammaInput.id, text: "γ" }), gammaInput, gammaOut]);
  controls.append(gammaControl);

  const degreeSelect = el("select", { id: `${uid}-degree` });
  for (let d = 1; d <= 5; d++) {
    const option = el("option", { value: String(d), text: String(d) });
    if (d === state.params.degree) option.selected = true;
    degreeSelect.append(option);
  }
  const degreeControl = el("div", { class: "pg-control" }, [el("label", { for: degreeSelect.id, text: "degree" }), degreeSelect]);
  controls.append(degreeControl);

  let presetSelect = null;
  if (Object.keys(presets).length) {
    presetSelect = el("select", { id: `${uid}-preset` });
    presetSelect.append(el("option", { value: "", text: "(your points)" }));
    for (const [name, p] of Object.entries(presets)) {
      const option = el("option", { value: name, text: p.label });
      if (name === config.preset) option.selected = true;
      presetSelect.append(option);
    }
    controls.append(el("div", { class: "pg-control" }, [el("label", { for: presetSelect.id, text: "data" }), presetSelect]));
  }
  const clearButton = el("button", { type: "button", id: `${uid}-clear`, text: "Clear" });
  controls.append(clearButton);

  const helpId = `${uid}-help`;
  const canvas = el("canvas", { tabindex: "0", role: "img", "aria-describedby": helpId, id: `${uid}-canvas` });
  box.append(canvas);
  // the picture first (config.canvas_first, the landing page) or the controls first
  if (config.canvas_first) box.append(controls); else canvas.before(controls);
  const legend = el("div", { class: "pg-legend" });
  box.append(legend);
  const readout = el("div", { class: "pg-readout", "aria-live": "polite", id: `${uid}-readout` });
  box.append(readout);
  box.append(el("p", { class: "pg-help", id: helpId, html:
    "Click to add a point of the chosen class (<kbd>Shift</kbd>+click: the other class), drag a point to move it, " +
    "right-click it to remove it (on a touch screen: hold a finger on it). Keyboard: focus the picture, move the cursor with the arrow keys " +
    "(<kbd>Shift</kbd>: faster), <kbd>Enter</kbd> adds a point (<kbd>Shift</kbd>+<kbd>Enter</kbd>: the other class), " +
    "<kbd>N</kbd>/<kbd>P</kbd> select the next/previous point, <kbd>Space</kbd> picks it up and puts it down, " +
    "<kbd>Delete</kbd> removes it." }));
  root.replaceChildren(box);

  // ----------------------------------------------------------- geometry
  let cssWidth = 560, cssHeight = 400, dpr = 1;
  function resize() {
    const available = Math.floor(canvas.getBoundingClientRect().width || box.clientWidth || 560);
    cssWidth = Math.max(200, Math.min(available, 660));
    cssHeight = Math.round(cssWidth * (cssWidth < 480 ? 0.85 : 0.66));
    dpr = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
    canvas.width = Math.round(cssWidth * dpr);
    canvas.height = Math.round(cssHeight * dpr);
    canvas.style.height = cssHeight + "px";
  }
  // The data window, widened to the canvas's aspect ratio.
  function windowBox() {
    const [x0, x1, y0, y1] = state.view;
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    let w = x1 - x0, h = y1 - y0;
    if (w / h > cssWidth / cssHeight) h = w * cssHeight / cssWidth; else w = h * cssWidth / cssHeight;
    return { x0: cx - w / 2, x1: cx + w / 2, y0: cy - h / 2, y1: cy + h / 2 };
  }
  const toPixel = (x, y, W) => [(x - W.x0) / (W.x1 - W.x0) * cssWidth, (W.y1 - y) / (W.y1 - W.y0) * cssHeight];
  const toData = (px, py, W) => [W.x0 + px / cssWidth * (W.x1 - W.x0), W.y1 - py / cssHeight * (W.y1 - W.y0)];

  let palette = null;   // the theme's colours, read once per draw
  function color(name) {
    if (palette === null) {
      const style = getComputedStyle(box);
      palette = {};
      for (const key of ["bg", "fg", "pos", "neg", "pos-fill", "neg-fill", "free", "bound", "curve"]) {
        palette[key] = style.getPropertyValue("--pg-" + key).trim();
      }
    }
    return palette[name];
  }

  // ----------------------------------------------------------- training
  // Each edit starts a trainer (smo.create_trainer): a cold start for a few
  // milliseconds, then, if SMO needs longer, a warm start from the last
  // multipliers (a point just added at alpha = 0, sum(alpha * y) kept at 0),
  // run for at most smo.FRAME_SOLVE_MS per animation frame.  The picture and
  // the readout show the current iterate and say that it is still converging
  // until it has.
  let alphaOf = new Map(), alphaC = null;   // the last multipliers, by point
  function remember(model) {
    alphaOf = new Map();
    state.points.forEach((p, k) => alphaOf.set(p, model.alpha[k]));
    alphaC = model.C;
  }
  function lastSolution() {
    if (alphaC === null || alphaOf.size === 0) return null;
    return { alpha: state.points.map((p) => alphaOf.get(p) || 0), C: alphaC };
  }
  function train() {
    const t0 = performance.now();
    const X = state.points.map((p) => [p[0], p[1]]);
    const y = state.points.map((p) => p[2]);
    state.model = null;
    state.error = null;
    state.trainer = null;
    const n_pos = y.filter((v) => v === 1).length, n_neg = y.length - n_pos;
    if (n_pos === 0 || n_neg === 0) {
      state.error = y.length === 0 ? "No points yet: click in the picture to add some."
        : `Add a point of class ${n_pos === 0 ? "+1" : "−1"}: an SVM needs both classes.`;
    } else {
      try {
        const p = state.params;
        // a solve that needed more than one frame: go straight to the warm start next time
        state.trainer = smo.create_trainer(X, y, {
          kernel: p.kernel, C: p.C, gamma: p.gamma, degree: p.degree, coef0: p.coef0,
          max_iter: smo.PLAYGROUND_ITERATIONS,
        }, lastSolution(), { try_cold: state.easy });
        state.model = state.trainer.frame();
        remember(state.model);
        state.easy = state.model.result.finished;
      } catch (error) {
        state.error = String(error.message || error);
        state.trainer = null;
      }
    }
    state.solving = !!(state.model && !state.model.result.finished);
    state.timing.train_ms = performance.now() - t0;
    state.timing.solve_total_ms = state.timing.train_ms;
    if (state.solving) continueSoon();
  }
  // The next frame's share of a solve still under way.
  let continuation = 0;
  function continueSoon() {
    if (continuation) return;
    continuation = requestAnimationFrame(() => {
      continuation = 0;
      if (!state.trainer || !state.solving) return;
      if (pending) { continueSoon(); return; }    // a redraw with a new trainer is due first
      const t0 = performance.now();
      state.model = state.trainer.frame();
      remember(state.model);
      state.solving = !state.model.result.finished;
      if (!state.solving && state.model.frames > 1) state.easy = false;
      state.timing.train_ms = performance.now() - t0;
      state.timing.solve_total_ms += state.timing.train_ms;
      draw();
      const s = summary();
      showReadout(s);
      state.redraws += 1;
      state.lastRedrawEnd = performance.now();
      if (state.solving) continueSoon();
      else if (host.summary) host.summary(s);
    });
  }

  // ------------------------------------------------------------ drawing
  function draw() {
    const t0 = performance.now();
    palette = null;
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const W = windowBox();
    ctx.fillStyle = color("bg");
    ctx.fillRect(0, 0, cssWidth, cssHeight);
    const model = state.model;
    if (model) {
      // the decision function h on the vertices of a grid of CELL-pixel cells
      const nx = Math.ceil(cssWidth / CELL) + 1, ny = Math.ceil(cssHeight / CELL) + 1;
      const h = smo.decision_grid(model, W.x0, CELL * (W.x1 - W.x0) / cssWidth, nx,
                                  W.y1, CELL * (W.y1 - W.y0) / cssHeight, ny);
      // shading: one pixel per vertex on a small canvas, scaled up smoothly
      const shade = document.createElement("canvas");
      shade.width = nx; shade.height = ny;
      const sctx = shade.getContext("2d");
      const image = sctx.createImageData(nx, ny);
      const pos = color("pos-fill").split(",").map(Number), neg = color("neg-fill").split(",").map(Number);
      for (let k = 0; k < h.length; k++) {
        const rgb = h[k] > 0 ? pos : neg;
        const strength = Math.min(Math.abs(h[k]), 1.5) / 1.5;
        image.data[4 * k] = rgb[0]; image.data[4 * k + 1] = rgb[1]; image.data[4 * k + 2] = rgb[2];
        image.data[4 * k + 3] = Math.round(255 * (0.10 + 0.30 * strength));
      }
      sctx.putImageData(image, 0, 0);
      ctx.imageSmoothingEnabled = true;
      ctx.drawImage(shade, -CELL / 2, -CELL / 2, nx * CELL, ny * CELL);
      // h = 0 (solid) and h = +-1 (dashed)
      ctx.strokeStyle = color("curve");
      for (const [level, dash, width] of [[0, [], 2.2], [1, [6, 4], 1.3], [-1, [6, 4], 1.3]]) {
        ctx.setLineDash(dash);
        ctx.lineWidth = width;
        ctx.beginPath();
        for (const line of chain(contour(h, nx, ny, level))) {
          ctx.moveTo(line[0][0] * CELL, line[0][1] * CELL);
          for (let k = 1; k < line.length; k++) ctx.lineTo(line[k][0] * CELL, line[k][1] * CELL);
        }
        ctx.stroke();
      }
      ctx.setLineDash([]);
    }
    // the points, each marked by its KKT case
    const cases = model ? smo.kkt_cases(model) : null;
    state.points.forEach((p, k) => {
      const [px, py] = toPixel(p[0], p[1], W);
      ctx.lineWidth = 1.2;
      ctx.strokeStyle = color("bg");
      ctx.fillStyle = p[2] === 1 ? color("pos") : color("neg");
      ctx.beginPath();
      if (p[2] === 1) ctx.rect(px - POINT_RADIUS + 0.5, py - POINT_RADIUS + 0.5, 2 * POINT_RADIUS - 1, 2 * POINT_RADIUS - 1);
      else ctx.arc(px, py, POINT_RADIUS, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
      if (cases && cases[k] > 0) {
        ctx.lineWidth = 2;
        ctx.strokeStyle = cases[k] === 1 ? color("free") : color("bound");
        ctx.setLineDash(cases[k] === 1 ? [] : [3, 2]);
        ctx.beginPath();
        ctx.arc(px, py, POINT_RADIUS + 4, 0, 2 * Math.PI);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      if (k === state.selected && document.activeElement === canvas) {
        ctx.lineWidth = 2;
        ctx.strokeStyle = color("curve");
        ctx.strokeRect(px - POINT_RADIUS - 7, py - POINT_RADIUS - 7, 2 * POINT_RADIUS + 14, 2 * POINT_RADIUS + 14);
      }
    });
    // the keyboard cursor
    if (state.cursor && document.activeElement === canvas) {
      const [cx, cy] = toPixel(state.cursor[0], state.cursor[1], W);
      ctx.strokeStyle = color("curve");
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(cx - 10, cy); ctx.lineTo(cx - 3, cy); ctx.moveTo(cx + 3, cy); ctx.lineTo(cx + 10, cy);
      ctx.moveTo(cx, cy - 10); ctx.lineTo(cx, cy - 3); ctx.moveTo(cx, cy + 3); ctx.lineTo(cx, cy + 10);
      ctx.stroke();
    }
    state.timing.draw_ms = performance.now() - t0;
  }

  function summary() {
    const model = state.model;
    const n = state.points.length;
    const n_pos = state.points.filter((p) => p[2] === 1).length;
    const out = { n_points: n, n_pos, n_neg: n - n_pos, params: Object.assign({}, state.params) };
    if (!model) return Object.assign(out, { error: state.error });
    const cases = smo.kkt_cases(model);
    const n_free = cases.filter((c) => c === 1).length, n_bound = cases.filter((c) => c === 2).length;
    const w = smo.primal_weights(model);
    return Object.assign(out, {
      n_support: n_free + n_bound, n_free, n_bound, objective: model.result.objective, b: model.b,
      n_iter: model.result.n_iter, converged: model.result.converged, solving: state.solving,
      frames: model.frames,
      kkt_violation: model.result.kkt_violation,
      margin_width: w ? 2 / Math.hypot(...w) : null, gamma: model.kernel_params.gamma,
      support: model.support.slice(),
    });
  }

  function showReadout(s) {
    if (s.error) { readout.textContent = s.error; return; }
    const parts = [
      `${s.n_points} points (${s.n_pos} of +1, ${s.n_neg} of −1)`,
      `<b>${s.n_support} support vectors</b>: ${s.n_free} on the margin (0 &lt; α &lt; C), ${s.n_bound} at α = C`,
    ];
    if (s.margin_width !== null) parts.push(`margin width 2/‖w‖ = ${fmt(s.margin_width)}`);
    parts.push(`dual objective D(α) = ${fmt(s.objective, 5)}`);
    if (s.solving) {
      parts.push(`<b>still converging</b>: ${s.n_iter} SMO iterations so far, KKT violation ` +
                 `${fmt(s.kkt_violation)} (done at 0.001); the picture shows the current iterate and ` +
                 "is redrawn as SMO goes on");
    } else if (s.converged) {
      parts.push(`${s.n_iter} SMO iterations` + (s.frames > 1 ? ` over ${s.frames} frames` : ""));
    } else {
      parts.push(`SMO stopped after ${s.n_iter} iterations, before convergence (KKT violation ${fmt(s.kkt_violation)}): ` +
        "with a large C (or a large γ with the polynomial kernel) on overlapping classes the dual is slow " +
        "to solve, and the picture is not optimal; a smaller C (or γ) converges");
    }
    if (!s.solving) parts.push(`trained in ${state.timing.solve_total_ms.toFixed(1)} ms`);
    let text = parts.join(" · ");
    const goal = config.goal;
    if (goal && s.n_points === goal.n_points && s.n_support === goal.n_support) {
      text += '<div class="svmlib-success">✅ Goal reached: one point added, ' +
              `${goal.n_support} support vectors. Well done!</div>`;
    }
    readout.innerHTML = text;
    canvas.setAttribute("aria-label", `SVM decision regions. ${readout.textContent}`);
  }

  function showControls() {
    const p = state.params;
    COut.textContent = `C = ${fmt(p.C)}`;
    CInput.setAttribute("aria-valuetext", `C = ${fmt(p.C)}`);
    const sigma = 1 / Math.sqrt(2 * p.gamma);
    gammaOut.textContent = p.kernel === "rbf" ? `γ = ${fmt(p.gamma)} (σ = ${fmt(sigma)})` : `γ = ${fmt(p.gamma)}`;
    gammaInput.setAttribute("aria-valuetext", gammaOut.textContent);
    gammaInput.disabled = p.kernel === "linear";
    degreeSelect.disabled = p.kernel !== "poly";
    gammaControl.style.opacity = p.kernel === "linear" ? 0.5 : 1;
    degreeControl.style.opacity = p.kernel === "poly" ? 1 : 0.5;
  }

  function showLegend() {
    palette = null;
    const svg = (body) => `<svg width="22" height="22" viewBox="-11 -11 22 22" aria-hidden="true">${body}</svg>`;
    const pos = color("pos"), neg = color("neg"), free = color("free"), bound = color("bound"), curve = color("curve");
    legend.innerHTML = [
      `<span>${svg(`<rect x="-5" y="-5" width="10" height="10" fill="${pos}"/>`)} class +1</span>`,
      `<span>${svg(`<circle r="5" fill="${neg}"/>`)} class −1</span>`,
      `<span>${svg(`<circle r="9" fill="none" stroke="${free}" stroke-width="2"/>`)} 0 &lt; α &lt; C (on the margin)</span>`,
      `<span>${svg(`<circle r="9" fill="none" stroke="${bound}" stroke-width="2" stroke-dasharray="3 2"/>`)} α = C</span>`,
      `<span>${svg(`<line x1="-10" x2="10" stroke="${curve}" stroke-width="2.2"/>`)} h = 0</span>`,
      `<span>${svg(`<line x1="-10" x2="10" stroke="${curve}" stroke-width="1.3" stroke-dasharray="6 4"/>`)} h = ±1</span>`,
    ].join("");
  }

  // Retrain and redraw now (every discrete change).
  function refresh(notify = true) {
    const t0 = performance.now();
    train();
    draw();
    const s = summary();
    showReadout(s);
    state.timing.total_ms = performance.now() - t0;
    state.redraws += 1;
    state.lastRedrawEnd = performance.now();
    if (host.summary) host.summary(s);
    if (notify && host.points) host.points(state.points.map((p) => p.slice()));
  }
  // During a drag: at most once per animation frame.
  let pending = false;
  function refreshSoon() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; refresh(false); });
  }
  function paramsChanged() {
    showControls();
    refresh(false);
    if (host.params) host.params(Object.assign({}, state.params));
  }
  function pointsEdited() {
    if (presetSelect) presetSelect.value = "";
    refresh(true);
  }

  // ------------------------------------------------------------ controls
  kernelSelect.addEventListener("change", () => { state.params.kernel = kernelSelect.value; paramsChanged(); });
  CInput.addEventListener("input", () => { state.params.C = Number(Math.pow(10, Number(CInput.value)).toPrecision(4)); paramsChanged(); });
  gammaInput.addEventListener("input", () => { state.params.gamma = Number(Math.pow(10, Number(gammaInput.value)).toPrecision(4)); paramsChanged(); });
  degreeSelect.addEventListener("change", () => { state.params.degree = Number(degreeSelect.value); paramsChanged(); });
  if (presetSelect) {
    presetSelect.addEventListener("change", () => {
      const p = presets[presetSelect.value];
      if (!p) return;
      setPoints(p.points, true);
    });
  }
  clearButton.addEventListener("click", () => { state.points = []; state.selected = -1; pointsEdited(); });

  function setPoints(points, fitView) {
    state.points = points.map((p) => [p[0], p[1], p[2]]);
    state.selected = -1;
    state.carrying = false;
    if (fitView && state.points.length) {
      const xs = state.points.map((p) => p[0]), ys = state.points.map((p) => p[1]);
      const sx = Math.max(Math.max(...xs) - Math.min(...xs), 1), sy = Math.max(Math.max(...ys) - Math.min(...ys), 1);
      state.view = [Math.min(...xs) - 0.15 * sx, Math.max(...xs) + 0.15 * sx, Math.min(...ys) - 0.15 * sy, Math.max(...ys) + 0.15 * sy];
    }
    refresh(true);
  }

  // ------------------------------------------------------------- pointer
  function eventPixel(event) {
    const rect = canvas.getBoundingClientRect();
    return [(event.clientX - rect.left) * cssWidth / rect.width, (event.clientY - rect.top) * cssHeight / rect.height];
  }
  function hit(px, py, radius) {
    const W = windowBox();
    let best = -1, bestDistance = radius || HIT_RADIUS;
    state.points.forEach((p, k) => {
      const [qx, qy] = toPixel(p[0], p[1], W);
      const d = Math.hypot(qx - px, qy - py);
      if (d <= bestDistance) { bestDistance = d; best = k; }
    });
    return best;
  }
  const round = (v) => Math.round(v * 1000) / 1000;
  canvas.addEventListener("contextmenu", (event) => event.preventDefault());
  // Touch screens have no right button: holding a finger still on a point
  // for LONG_PRESS_MS removes it (moving the finger first makes it a drag).
  let longPress = null;
  function cancelLongPress() {
    if (longPress) { clearTimeout(longPress.timer); longPress = null; }
  }
  function removePoint(k) {
    state.points.splice(k, 1);
    state.selected = -1;
    state.dragging = -1;
    pointsEdited();
  }
  canvas.addEventListener("pointerdown", (event) => {
    const [px, py] = eventPixel(event);
    const touch = event.pointerType === "touch";
    const k = hit(px, py, touch ? TOUCH_HIT_RADIUS : HIT_RADIUS);
    if (event.button === 2) {
      if (k >= 0) removePoint(k);
      return;
    }
    if (event.button !== 0) return;
    if (k >= 0) {
      state.dragging = k;
      state.selected = k;
      state.moved = false;
      try {
        // keeps the drag going when the pointer leaves the canvas; a pointer
        // the browser no longer tracks (a synthetic one) cannot be captured
        if (canvas.setPointerCapture && event.pointerId !== undefined) canvas.setPointerCapture(event.pointerId);
      } catch (error) { /* the drag still works inside the canvas */ }
      if (touch) {
        cancelLongPress();
        longPress = { x: px, y: py, timer: setTimeout(() => {
          longPress = null;
          if (state.dragging === k && !state.moved) removePoint(k);
        }, LONG_PRESS_MS) };
      }
      return;
    }
    const [x, y] = toData(px, py, windowBox());
    const label = event.shiftKey ? -state.cls : state.cls;
    state.points.push([round(x), round(y), label]);
    state.selected = state.points.length - 1;
    state.cursor = [round(x), round(y)];
    pointsEdited();
  });
  canvas.addEventListener("pointermove", (event) => {
    if (state.dragging < 0) return;
    const [px, py] = eventPixel(event);
    if (longPress) {
      // a finger trembles: only a real move turns the long press into a drag
      if (Math.hypot(px - longPress.x, py - longPress.y) < LONG_PRESS_SLOP) return;
      cancelLongPress();
    }
    const [x, y] = toData(Math.max(0, Math.min(cssWidth, px)), Math.max(0, Math.min(cssHeight, py)), windowBox());
    const p = state.points[state.dragging];
    p[0] = round(x); p[1] = round(y);
    state.moved = true;
    if (presetSelect) presetSelect.value = "";
    refreshSoon();
  });
  const endDrag = () => {
    cancelLongPress();
    if (state.dragging < 0) return;
    state.dragging = -1;
    if (state.moved) refresh(true);
  };
  canvas.addEventListener("pointerup", endDrag);
  canvas.addEventListener("pointercancel", endDrag);

  // ------------------------------------------------------------ keyboard
  function centre() {
    const W = windowBox();
    return [round((W.x0 + W.x1) / 2), round((W.y0 + W.y1) / 2)];
  }
  canvas.addEventListener("focus", () => { if (!state.cursor) state.cursor = centre(); draw(); });
  canvas.addEventListener("blur", () => { state.carrying = false; draw(); });
  canvas.addEventListener("keydown", (event) => {
    const W = windowBox();
    const step = (event.shiftKey ? 10 : 2) * (W.x1 - W.x0) / cssWidth * 4;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (!state.cursor) state.cursor = centre();
    const key = event.key;
    if (moves[key]) {
      event.preventDefault();
      const [dx, dy] = moves[key];
      const clampX = (v) => Math.max(W.x0, Math.min(W.x1, v)), clampY = (v) => Math.max(W.y0, Math.min(W.y1, v));
      state.cursor = [round(clampX(state.cursor[0] + dx * step)), round(clampY(state.cursor[1] + dy * step))];
      if (state.carrying && state.selected >= 0) {
        const p = state.points[state.selected];
        p[0] = state.cursor[0]; p[1] = state.cursor[1];
        pointsEdited();
      } else {
        const [px, py] = toPixel(state.cursor[0], state.cursor[1], W);
        state.selected = hit(px, py);
        draw();
      }
      return;
    }
    if (key === "Enter") {
      event.preventDefault();
      const label = event.shiftKey ? -state.cls : state.cls;
      state.points.push([state.cursor[0], state.cursor[1], label]);
      state.selected = state.points.length - 1;
      state.carrying = false;
      pointsEdited();
      return;
    }
    if ((key === "n" || key === "N" || key === "p" || key === "P") && state.points.length) {
      event.preventDefault();
      const forward = key === "n" || key === "N";
      const count = state.points.length;
      state.selected = state.selected < 0 ? (forward ? 0 : count - 1) : (state.selected + (forward ? 1 : count - 1)) % count;
      const p = state.points[state.selected];
      state.cursor = [p[0], p[1]];
      state.carrying = false;
      draw();
      return;
    }
    if (key === " " && state.selected >= 0) {
      event.preventDefault();
      state.carrying = !state.carrying;
      const p = state.points[state.selected];
      state.cursor = [p[0], p[1]];
      readout.insertAdjacentText("afterbegin", state.carrying ? "Point picked up: move it with the arrow keys, Space to put it down. " : "");
      draw();
      return;
    }
    if ((key === "Delete" || key === "Backspace") && state.selected >= 0) {
      event.preventDefault();
      state.points.splice(state.selected, 1);
      state.selected = -1;
      state.carrying = false;
      pointsEdited();
    }
  });

  // ------------------------------------------------------ theme, size
  function redrawAll() { resize(); showLegend(); draw(); }
  const observer = new MutationObserver(() => { showLegend(); draw(); });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme", "class"] });
  if (document.body) observer.observe(document.body, { attributes: true, attributeFilter: ["data-jp-theme-light"] });
  let lastWidth = 0;
  const resizeObserver = typeof ResizeObserver !== "undefined" ? new ResizeObserver(() => {
    const width = Math.floor(box.clientWidth);
    if (width !== lastWidth) { lastWidth = width; redrawAll(); }
  }) : null;
  if (resizeObserver) resizeObserver.observe(box);

  resize();
  showControls();
  showLegend();
  refresh(false);

  const controller = {
    root: box, canvas, state,
    setPoints: (points) => setPoints(points, false),
    setParams(params) {
      Object.assign(state.params, params);
      kernelSelect.value = state.params.kernel;
      CInput.value = String(Math.log10(state.params.C));
      gammaInput.value = String(Math.log10(state.params.gamma));
      degreeSelect.value = String(state.params.degree);
      showControls();
      refresh(false);
    },
    summary,
    // Where a data point (x, y) is on the screen, in client coordinates (for tests and tools).
    clientOf(x, y) {
      const rect = canvas.getBoundingClientRect();
      const [px, py] = toPixel(x, y, windowBox());
      return { x: rect.left + px * rect.width / cssWidth, y: rect.top + py * rect.height / cssHeight };
    },
    destroy() { observer.disconnect(); if (resizeObserver) resizeObserver.disconnect(); },
  };
  box.svmlibPlayground = controller;
  return controller;
}

// The anywidget entry point: the same playground, with points, settings and
// the last summary synced to Python (traits `points`, `params`, `summary`).
function render({ model, el: target }) {
  let echo = false;
  const controller = mount(target, Object.assign({}, model.get("config"), {
    points: model.get("points"), params: model.get("params"),
  }), {
    points(points) { echo = true; model.set("points", points); model.save_changes(); echo = false; },
    params(params) { echo = true; model.set("params", params); model.save_changes(); echo = false; },
    summary(s) { echo = true; model.set("summary", s); model.save_changes(); echo = false; },
  });
  const onPoints = () => { if (!echo) controller.setPoints(model.get("points")); };
  const onParams = () => { if (!echo) controller.setParams(model.get("params")); };
  model.on("change:points", onPoints);
  model.on("change:params", onParams);
  return () => {
    model.off("change:points", onPoints);
    model.off("change:params", onParams);
    controller.destroy();
  };
}

export default { render };
