/* Static figures, enlarged on request (issue 17).
 *
 * A matplotlib figure is drawn for a desktop column: on a 390 px phone it is
 * shown at about half its size and its smallest labels shrink to 5-7 CSS px.
 * book/_ext/svmlib_reading.py wraps every static figure in a link to its PNG,
 * <a class="svmlib-zoom" data-width=W data-height=H>, W x H being the size
 * the figure was drawn for (CSS px).  Without JavaScript the link opens the
 * PNG itself.  With it, a tap, a click or Enter opens the figure in a
 * full-screen dialog, at least LEGIBLE times its drawn size (its smallest,
 * 7 pt labels are then 12 CSS px), wider when the screen has room; the
 * reader pans it (scroll, swipe), pinch-zooms it, or uses the + / - buttons
 * or keys.  Escape, the close button or a click beside the figure closes it
 * and gives the focus back to the figure's link.  Nothing is loaded: the
 * dialog shows the PNG the page already has.
 */
(function () {
  "use strict";

  /** Enlargement of the opening view, relative to the drawn size. */
  var LEGIBLE = 1.25;
  /** Zoom steps of the + / - buttons, relative to the drawn size. */
  var STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3];
  /** The figure's shown/drawn ratio below which its link shows "Enlarge". */
  var SMALL = 0.9;

  var dialog = null, view = null, caption = null, title = null, opener = null;
  var drawn = {width: 0, height: 0}, scale = 1;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  function build() {
    dialog = el("dialog", "svmlib-zoom-view");
    dialog.setAttribute("aria-labelledby", "svmlib-zoom-title");
    var bar = el("div", "svmlib-zoom-bar");
    title = el("p", "svmlib-zoom-title");
    title.id = "svmlib-zoom-title";
    var out = el("button", "svmlib-zoom-out", "\u2212");
    out.type = "button";
    out.setAttribute("aria-label", "Zoom out");
    var into = el("button", "svmlib-zoom-in", "+");
    into.type = "button";
    into.setAttribute("aria-label", "Zoom in");
    var close = el("button", "svmlib-zoom-close", "\u00d7");
    close.type = "button";
    close.setAttribute("aria-label", "Close the enlarged figure");
    bar.append(title, out, into, close);
    var pane = el("div", "svmlib-zoom-pane");
    // a keyboard user scrolls the enlarged figure with the arrow keys
    pane.tabIndex = 0;
    pane.setAttribute("role", "group");
    pane.setAttribute("aria-label", "Enlarged figure: arrow keys scroll, + and - zoom");
    view = el("img", "svmlib-zoom-image");
    view.decoding = "async";
    pane.append(view);
    caption = el("p", "svmlib-zoom-caption");
    // the same words as the image's alt text: read out once
    caption.setAttribute("aria-hidden", "true");
    dialog.append(bar, pane, caption);
    document.body.append(dialog);

    out.addEventListener("click", function () { step(-1); });
    into.addEventListener("click", function () { step(1); });
    close.addEventListener("click", function () { dialog.close(); });
    dialog.addEventListener("click", function (event) {
      // a click on the dialog's backdrop or beside the figure closes it
      if (event.target === dialog || event.target === pane) dialog.close();
    });
    dialog.addEventListener("keydown", function (event) {
      // Escape closes the view ourselves: Sphinx's sphinx_highlight.js cancels
      // the browser's own Escape (preventDefault) once it reaches the document
      if (event.key === "Escape") { dialog.close(); event.preventDefault(); event.stopPropagation(); }
      else if (event.key === "+" || event.key === "=") { step(1); event.preventDefault(); }
      else if (event.key === "-" || event.key === "_") { step(-1); event.preventDefault(); }
      else if (event.key === "0") { show(opening()); event.preventDefault(); }
    });
    dialog.addEventListener("close", function () {
      view.removeAttribute("src");
      document.documentElement.classList.remove("svmlib-zoom-open");
      if (opener) opener.focus();
      opener = null;
    });
  }

  /** The opening scale: at least LEGIBLE, and the whole width when the screen has room. */
  function opening() {
    var pane = view.parentElement;
    var fit = (pane.clientWidth - 16) / drawn.width;
    return Math.max(LEGIBLE, Math.min(fit, STEPS[STEPS.length - 1]));
  }

  function show(s) {
    var pane = view.parentElement;
    // keep the point at the centre of the pane where it is
    var cx = (pane.scrollLeft + pane.clientWidth / 2) / (view.offsetWidth || 1);
    var cy = (pane.scrollTop + pane.clientHeight / 2) / (view.offsetHeight || 1);
    scale = s;
    view.style.width = Math.round(drawn.width * s) + "px";
    view.style.height = Math.round(drawn.height * s) + "px";
    pane.scrollLeft = cx * view.offsetWidth - pane.clientWidth / 2;
    pane.scrollTop = cy * view.offsetHeight - pane.clientHeight / 2;
    dialog.dataset.scale = s.toFixed(3);
  }

  function step(direction) {
    var next = scale;
    if (direction > 0) {
      for (var i = 0; i < STEPS.length; i++) if (STEPS[i] > scale + 1e-6) { next = STEPS[i]; break; }
    } else {
      for (var j = STEPS.length - 1; j >= 0; j--) if (STEPS[j] < scale - 1e-6) { next = STEPS[j]; break; }
    }
    show(next);
  }

  /** The figure's number ("Fig. 3.2") and its caption as plain text.
   *
   * The words are the image's alt text: the caption with its formulas
   * written in Unicode by the build (the typeset caption's textContent
   * would lose its superscripts and subscripts). */
  function captionOf(link) {
    var img = link.querySelector("img");
    var figure = link.closest("figure");
    var text = figure && figure.querySelector("figcaption");
    var number = text && text.querySelector(".caption-number");
    var words = img.alt || (text ? text.textContent : "");
    return {number: number ? number.textContent.trim() : "Figure",
            words: words.replace(/\s+/g, " ").trim()};
  }

  function open(link) {
    if (!dialog) build();
    var img = link.querySelector("img");
    drawn.width = parseFloat(link.dataset.width) || img.naturalWidth || 600;
    drawn.height = parseFloat(link.dataset.height) || img.naturalHeight || 400;
    var text = captionOf(link);
    title.textContent = text.number;
    caption.textContent = text.words;
    view.alt = img.alt;
    view.src = img.currentSrc || img.src;
    opener = link;
    document.documentElement.classList.add("svmlib-zoom-open");
    dialog.showModal();
    var pane = view.parentElement;
    view.style.width = view.style.height = "";
    scale = opening();
    show(scale);
    pane.scrollLeft = 0;
    pane.scrollTop = 0;
    dialog.querySelector(".svmlib-zoom-close").focus();
  }

  /** Mark a figure shown well below its drawn size ("Enlarge" shows on it). */
  function markSmall(link, shown) {
    var width = parseFloat(link.dataset.width) || 0;
    link.classList.toggle("svmlib-zoom-small", shown > 0 && width > 0 && shown < SMALL * width);
  }

  function init() {
    var links = document.querySelectorAll("a.svmlib-zoom");
    if (!links.length || typeof HTMLDialogElement === "undefined") return;
    // sizes as the browser lays the page out (no layout forced here)
    var watch = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(
      function (entries) {
        entries.forEach(function (entry) {
          markSmall(entry.target.parentElement, entry.contentRect.width);
        });
      });
    links.forEach(function (link) {
      link.addEventListener("click", function (event) {
        if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
        event.preventDefault();
        open(link);
      });
      if (watch) watch.observe(link.querySelector("img"));
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
