/* Moving through the book: names for the solution toggles.
 *
 * sphinx-togglebutton gives every solution's toggle the same accessible
 * name, "Toggle hidden content".  This names each one after its box title
 * ("Show solution to Exercise 6.1 (Where the box comes from)") and keeps
 * "Show"/"Hide" in step with its state.  Jupyter Book adds every file of
 * book/_static to every page; on pages without toggles this does nothing.
 */
(function () {
  "use strict";

  function titleOf(button) {
    var title = button.closest(".admonition-title");
    if (!title) return null;
    var copy = title.cloneNode(true);
    copy.querySelectorAll("button, .headerlink").forEach(function (e) { e.remove(); });
    var text = (copy.textContent || "").replace(/\s+/g, " ").trim();
    return text || null;
  }

  function name(button) {
    var title = button.dataset.svmlibTitle;
    var open = button.getAttribute("aria-expanded") === "true";
    var label = (open ? "Hide " : "Show ") + title.charAt(0).toLowerCase() + title.slice(1);
    if (button.getAttribute("aria-label") !== label) button.setAttribute("aria-label", label);
  }

  function labelToggles() {
    document.querySelectorAll("button.toggle-button").forEach(function (button) {
      if (button.dataset.svmlibTitle) return;
      var title = titleOf(button);
      if (!title) return;
      button.dataset.svmlibTitle = title;
      name(button);
      new MutationObserver(function () { name(button); })
        .observe(button, {attributes: true, attributeFilter: ["aria-expanded"]});
    });
  }

  // The toggles are created by togglebutton.js when the DOM is ready; run
  // after it, and once more at load in case it ran late.
  function soon() { window.setTimeout(labelToggles, 0); }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", soon);
  } else {
    soon();
  }
  window.addEventListener("load", labelToggles);
})();
