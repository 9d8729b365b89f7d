/* Scroll cues only on the formulas that really scroll.
 *
 * A formula wider than its line scrolls sideways inside its own box, and
 * _static/reading.css draws a soft shadow on the side where more of it is
 * hidden.  Drawn on every formula, the shadow's edge showed as a grey sliver
 * after the last glyph even where nothing was hidden (the cover that hides it
 * moves with the content, whose width is fractional).  So the cue is drawn
 * only on boxes marked svmlib-overflows, which this script sets and clears
 * whenever a box's size changes: when it is first laid out (the book defers
 * the layout of text far from the screen, see deferred_layout.js), when the
 * window is resized or the fonts arrive.
 *
 * On a narrow screen (a phone), a display formula a little wider than its
 * line is first set smaller to fit, down to FLOOR of its size (MathJax's
 * output is in em, so its font size scales it whole); only a formula that
 * does not fit even then keeps its scroll cue.  The formula is measured at
 * full size each time, so a wider window gives it back its size.
 */
(function () {
  "use strict";

  var BOXES = ".bd-article span.svmlib-math, .bd-article div.svmlib-math > mjx-container, " +
    ".bd-article span.math, .bd-article div.math > mjx-container";

  var FLOOR = 0.6;
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 599.98px)") : null;

  function isDisplay(box) {
    return box.tagName === "MJX-CONTAINER";
  }

  function fit(box) {
    box.style.fontSize = "";                 // measured at full size, every time
    if (!narrow || !narrow.matches) return;
    var natural = box.scrollWidth, room = box.clientWidth;
    if (!(room > 0) || natural <= room + 1) return;
    var scale = Math.max(FLOOR, Math.floor(1000 * (room - 2) / natural) / 1000);
    box.style.fontSize = (scale * 100).toFixed(1) + "%";
  }

  function mark(box) {
    if (isDisplay(box)) fit(box);
    box.classList.toggle("svmlib-overflows", box.scrollWidth > box.clientWidth + 1);
  }

  function start() {
    var boxes = document.querySelectorAll(BOXES);
    if (!("ResizeObserver" in window)) {     // an old browser: every box keeps its cue
      boxes.forEach(function (box) { box.classList.add("svmlib-overflows"); });
      return;
    }
    var observer = new ResizeObserver(function (entries) {
      entries.forEach(function (entry) { mark(entry.target); });
    });
    boxes.forEach(function (box) { observer.observe(box); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
