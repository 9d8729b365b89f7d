/* The article's text blocks, laid out a few at a time once the page has loaded.
 *
 * _static/reading.css lets the blocks far from the screen skip style and
 * layout while a chapter loads (content-visibility: auto): without that,
 * styling and laying out a chapter's 13-30 thousand elements at once made
 * main-thread tasks of 150-300 ms (benchmarks/pages.md).  A skipped block
 * stands in with an estimated height, which is fine for reading on, but a
 * jump to a section or an equation far down, with the theme's smooth
 * scrolling, aims at where the target is in the estimated page and lands
 * beside it once the blocks it passed get their true heights.
 *
 * So, after the load event, in the browser's idle time, each block is given
 * its layout for good (content-visibility: visible), in document order, as
 * many per slice as fit in about SLICE_MS of work; after a second or two the
 * page is laid out as if nothing had been skipped, and every jump lands
 * where it should.  A link to a place on the same page, followed before
 * that, first lays out all that is left (one longer task, at the reader's
 * request), and so does a page opened at such a place (its URL ends
 * with #...), which then goes to it again.  The selector is the
 * stylesheet's.  When all is laid out, the
 * root element has the attribute data-svmlib-laid-out.
 */
(function () {
  "use strict";

  var BLOCKS = ".bd-article section > :is(p, ul, ol, dl, blockquote, div.svmlib-math, " +
    "div.proof, div.exercise):not(:has(pre))";
  /** Work per slice (ms): well under the 50 ms of a "long task". */
  var SLICE_MS = 25;

  var blocks = null, next = 0, perSlice = 2;

  function show(block) {
    block.style.contentVisibility = "visible";
  }

  function slice(deadline) {
    var start = performance.now();
    var end = Math.min(blocks.length, next + perSlice);
    for (; next < end; next++) show(blocks[next]);
    // lay them out here, inside this slice, not in the next frame's task
    void document.documentElement.offsetHeight;
    var spent = performance.now() - start;
    // more blocks next time when this slice was quick (at most twice as
    // many: blocks differ), fewer when it was slow
    var ratio = Math.min(2, SLICE_MS / Math.max(spent, 1));
    perSlice = Math.max(1, Math.min(32, Math.round(perSlice * ratio)));
    if (next < blocks.length) later(slice);
    else document.documentElement.dataset.svmlibLaidOut = "";
  }

  function later(fn) {
    if (window.requestIdleCallback) window.requestIdleCallback(fn, {timeout: 500});
    else window.setTimeout(fn, 16);
  }

  function collect() {
    if (blocks) return blocks.length > 0;
    try {
      blocks = Array.prototype.slice.call(document.querySelectorAll(BLOCKS));
    } catch (e) {
      blocks = [];  // a browser without :is() or :has() skips nothing either
    }
    return blocks.length > 0;
  }

  function all() {
    if (!collect()) return;
    for (; next < blocks.length; next++) show(blocks[next]);
    document.documentElement.dataset.svmlibLaidOut = "";
  }

  function start() {
    if (!collect() || next >= blocks.length) return;
    var id = window.location.hash.slice(1), target = null;
    try { target = id && document.getElementById(decodeURIComponent(id)); } catch (e) {}
    if (target) {
      // opened at a section or an equation: the browser aimed at it in the
      // estimated page; lay out the rest now and go there again
      all();
      target.scrollIntoView({behavior: "instant"});
    } else {
      later(slice);
    }
  }

  // a jump within the page before everything is laid out
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href*='#']");
    if (link && link.pathname === window.location.pathname &&
        !("svmlibLaidOut" in document.documentElement.dataset)) all();
  }, true);
  window.addEventListener("hashchange", all);

  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();
