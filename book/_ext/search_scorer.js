/* The book's search page: ranking, and snippets that work from file://.
 *
 * Loaded by search.html only (book/_ext/svmlib_reading.py adds it), before
 * searchtools.js, which then keeps this Scorer instead of its own.  Sphinx's own snippets fetch every result page, which a
 * browser refuses from file:// and which downloads every matching page over
 * HTTP; the book turns them off (html_show_search_summary = False) and cuts
 * its snippets from _static/search_text.js instead (the prose of every
 * section, written at build time by book/_ext/svmlib_reading.py).
 */
;(function () {
  "use strict";

  var CHAPTER = /^book\/\d\d_/;
  var API = "book/api/";

  function queryWords() {
    var q = new URLSearchParams(window.location.search).get("q") || "";
    return q.toLowerCase().split(/[^0-9a-z\u00c0-\u024f\u0370-\u03ff]+/)
      .filter(function (w) { return w.length > 1; });
  }

  // A crude stem, enough to compare a query word with a title word:
  // "kernels" ~ "kernel", "losses" ~ "loss", "margins" ~ "margin".
  function stem(word) {
    return word.replace(/(es|s)$/, "");
  }

  function names(text, words) {
    var have = (text || "").toLowerCase().split(/[^0-9a-z\u00c0-\u024f\u0370-\u03ff]+/).map(stem);
    return words.length > 0 && words.every(function (w) { return have.indexOf(stem(w)) >= 0; });
  }

  var words = queryWords();

  function plain(html) { return (html || "").replace(/<[^>]*>/g, ""); }

  // How strongly a chapter is about the query, from the text the search
  // page has anyway (_static/search_text.js): a section title that names it,
  // and how often its prose uses the first query word.
  var about = {};
  function aboutness(docname) {
    if (docname in about) return about[docname];
    var sections = (window.BOOK_SEARCH_TEXT || {})[docname] || [];
    var titled = sections.some(function (s) { return names(s[1], words); });
    var count = 0;
    if (words.length) {
      var re = new RegExp("\\b" + words[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi");
      sections.forEach(function (s) { count += (s[2].match(re) || []).length; });
    }
    return (about[docname] = (titled ? 15 : 0) + Math.min(10, Math.floor(count / 5)));
  }

  window.Scorer = {
    // Sphinx's default weights
    objNameMatch: 11, objPartialMatch: 6,
    objPrio: {0: 15, 1: 5, 2: -5}, objPrioDefault: 0,
    title: 15, partialTitle: 7, term: 5, partialTerm: 2,

    // result = [docname, title, anchor, description, score, filename]
    score: function (result) {
      var docname = result[0], title = plain(result[1]), descr = result[3], score = result[4];
      var parts = title.split(" > ");
      var page = parts[0], section = parts.slice(1).join(" > ");
      if (CHAPTER.test(docname)) {
        score += 10;                                 // chapter text first
        if (names(page, words)) score += 40;         // the chapter about it
        else if (section && names(section, words)) score += 20;
        score += aboutness(docname);
      }
      if (descr) score -= 10;                        // an API object
      else if (docname.indexOf(API) === 0) score -= 5;          // the API page's text
      return score;
    },
  };

  // ------------------------------------------------------------- snippets
  var RADIUS = 110;

  function escapeHtml(s) {
    return s.replace(/[&<>"]/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c];
    });
  }

  function sectionsOf(docname) {
    var all = window.BOOK_SEARCH_TEXT || {};
    return all[docname] || [];
  }

  function firstMatch(text, terms) {
    var lower = text.toLowerCase(), best = -1;
    terms.forEach(function (t) {
      var at = lower.indexOf(t);
      if (at >= 0 && (best < 0 || at < best)) best = at;
    });
    return best;
  }

  function snippet(docname, anchor) {
    var sections = sectionsOf(docname);
    if (!sections.length) return null;
    var candidates = sections;
    if (anchor) {
      var own = sections.filter(function (s) { return s[0].indexOf(anchor) >= 0; });
      if (own.length) candidates = own.concat(sections);
    }
    var text = null, at = -1;
    for (var i = 0; i < candidates.length && at < 0; i++) {
      at = firstMatch(candidates[i][2], words);
      if (at >= 0) text = candidates[i][2];
    }
    if (text === null) { text = candidates[0][2]; at = 0; }
    var start = Math.max(0, at - RADIUS), end = Math.min(text.length, at + RADIUS);
    var piece = escapeHtml(text.slice(start, end));
    words.forEach(function (w) {
      var re = new RegExp("(" + w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + ")", "gi");
      piece = piece.replace(re, '<span class="highlighted">$1</span>');
    });
    return (start > 0 ? "… " : "") + piece + (end < text.length ? " …" : "");
  }

  function addSnippet(li) {
    if (li.dataset.bookSnippet) return;
    li.dataset.bookSnippet = "1";
    var link = li.querySelector("a");
    if (!link || li.querySelector(":scope > span")) return;   // API objects: a description
    var href = link.getAttribute("href") || "";
    var hash = href.indexOf("#");
    var anchor = hash >= 0 ? decodeURIComponent(href.slice(hash + 1)) : "";
    var docname = (hash >= 0 ? href.slice(0, hash) : href).replace(/\.html$/, "");
    var html = snippet(docname, anchor);
    if (!html) return;
    var p = document.createElement("p");
    p.className = "context";
    p.innerHTML = html;
    li.appendChild(p);
  }

  function watch() {
    var results = document.getElementById("search-results");
    if (!results) return;
    new MutationObserver(function () {
      results.querySelectorAll("li").forEach(addSnippet);
    }).observe(results, {childList: true, subtree: true});
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
