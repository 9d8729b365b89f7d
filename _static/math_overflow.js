/* Scroll cues only on the formulas that really scroll.
 *
 * A formula wider than its line scrolls sideways inside its own box, and
 * _static/reading.css draws a soft shadow on the side where more of it is
 * hidden.  Drawn on every formula, the shadow's edge showed as a grey sliver
 * after the last glyph even where nothing was hidden (the cover that hides it
 * moves with the content, whose width is fractional).  So the cue is drawn
 * only on boxes marked svmlib-overflows, which this script sets and clears
 * whenever the size of a box or of its content changes: when it is first
 * laid out (the book defers the layout of text far from the screen, see
 * deferred_layout.js), when the window is resized or the fonts arrive.
 *
 * On a narrow screen (a phone), a display formula a little wider than its
 * line is first set smaller to fit, down to FLOOR of the text's size (its
 * own is 127.3 % of the text's; MathJax's output is in em, so the font
 * size scales it whole); only a formula that does not fit even then keeps
 * its scroll cue.  The formula is measured at
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

  /** The size the book gave a formula (the build writes font-size: 127.3%
   * on each, as MathJax does in a browser), kept before it is ever changed. */
  var authored = new WeakMap();

  function fit(box) {
    if (!authored.has(box)) authored.set(box, box.style.fontSize);
    var full = authored.get(box);
    box.style.fontSize = full;               // measured at full size, every time
    if (!narrow || !narrow.matches) return;
    var natural = box.scrollWidth, room = box.clientWidth;
    if (!(room > 0) || natural <= room + 1) return;
    var percent = /%$/.test(full) ? parseFloat(full) : 100;
    var fits = percent * Math.floor(1000 * (room - 2) / natural) / 1000;
    box.style.fontSize = Math.max(100 * FLOOR, fits).toFixed(1) + "%";
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
    // A box is measured again when its own size changes and when its
    // content's does: an inline formula held at the width of its line keeps
    // its size while its content shrinks to fit (the fonts arrive, the
    // text block is laid out), and only the content's size says so.  The
    // content is the typeset formula and MathJax's hidden MathML for screen
    // readers, which is absolutely placed and so counts in what scrolls.
    var boxOf = new Map();
    var observer = new ResizeObserver(function (entries) {
      var seen = new Set();
      entries.forEach(function (entry) {
        var box = boxOf.get(entry.target);
        if (!seen.has(box)) { seen.add(box); mark(box); }
      });
    });
    boxes.forEach(function (box) {
      boxOf.set(box, box);
      observer.observe(box);
      var content = [box.firstElementChild, box.querySelector("mjx-assistive-mml")];
      content.forEach(function (part) {
        if (part) { boxOf.set(part, box); observer.observe(part); }
      });
    });
    // a font that arrives can widen or narrow what scrolls without changing
    // any observed size: measure every box again
    if (document.fonts && document.fonts.addEventListener) {
      document.fonts.addEventListener("loadingdone", function () { boxes.forEach(mark); });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
