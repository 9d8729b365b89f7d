/* The book's search page: ranking, and snippets that work from file://.
 *
 * Loaded by search.html only (book/_ext/svmlib_reading.py adds it), after
 * _static/search_rank.js and before searchtools.js, which then keeps this
 * Scorer instead of its own.  Sphinx's own snippets fetch every result page,
 * which a browser refuses from file:// and which downloads every matching
 * page over HTTP; the book turns them off (html_show_search_summary = False)
 * and cuts its snippets from the prose of the result's page instead:
 * _static/search_text/<page>.js (written at build time by
 * book/_ext/svmlib_reading.py), loaded as a <script> (which file:// allows)
 * when a result of that page is shown, once per page.  Ranking needs only
 * _static/search_rank.js: each chapter's section titles and word counts.
 */
;(function () {
  "use strict";
  if (window.BOOK_SEARCH_PAGE) return;   // run once

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

  // A title that is the query and nothing else ("8. Kernels" for "kernel"):
  // its chapter is about the query, more than one whose title mentions it
  // among other things ("approximate kernels").  Numbers and small words aside.
  var SMALL = ["the", "a", "an", "of", "and", "in", "on", "for", "to"];
  function namedExactly(text, words) {
    var have = (text || "").toLowerCase().split(/[^0-9a-z\u00c0-\u024f\u0370-\u03ff]+/)
      .filter(function (w) { return w && !/^[0-9]+$/.test(w) && SMALL.indexOf(w) < 0; })
      .map(stem);
    var want = words.map(stem);
    return have.length > 0 && have.every(function (w) { return want.indexOf(w) >= 0; });
  }

  function plain(html) { return (html || "").replace(/<[^>]*>/g, ""); }

  // How strongly a chapter is about the query, from _static/search_rank.js:
  // a section title that names it, and how often its prose uses the first
  // query word (the counts of the prose's words that start with it).
  var about = {};
  function aboutness(docname) {
    if (docname in about) return about[docname];
    var rank = (window.BOOK_SEARCH_RANK || {})[docname] || {t: [], w: ""};
    var titled = rank.t.some(function (t) { return names(t, words); });
    var count = 0;
    if (words.length && rank.w) {
      rank.w.split(" ").forEach(function (entry) {
        var colon = entry.lastIndexOf(":");
        var word = colon > 0 ? entry.slice(0, colon) : entry;
        if (word.indexOf(words[0]) === 0) count += colon > 0 ? +entry.slice(colon + 1) : 1;
      });
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
        if (names(page, words)) score += namedExactly(page, words) ? 50 : 40;  // about it
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

  // Each page's text arrives by its own script, which calls BOOK_SEARCH_PAGE.
  var texts = {}, waiting = {};
  // next to _static/search_rank.js, which the search page loads first
  var rankScript = document.querySelector('script[src*="search_rank.js"]');
  var folder = (rankScript ? rankScript.src : "_static/search_rank.js")
    .replace(/search_rank\.js([?#].*)?$/, "search_text/");

  window.BOOK_SEARCH_PAGE = function (docname, sections) {
    texts[docname] = sections;
    (waiting[docname] || []).forEach(addSnippet);
    delete waiting[docname];
  };

  function load(docname, li) {
    if (waiting[docname]) { waiting[docname].push(li); return; }
    waiting[docname] = [li];
    var script = document.createElement("script");
    script.src = folder + docname.replace(/\//g, "__") + ".js";
    script.onerror = function () { texts[docname] = []; delete waiting[docname]; };
    document.head.appendChild(script);
  }

  function sectionsOf(docname) {
    return texts[docname] || [];
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
    var link = li.querySelector("a");
    if (!link || li.querySelector(":scope > span")) return;   // API objects: a description
    var href = link.getAttribute("href") || "";
    var hash = href.indexOf("#");
    var anchor = hash >= 0 ? decodeURIComponent(href.slice(hash + 1)) : "";
    var docname = (hash >= 0 ? href.slice(0, hash) : href).replace(/\.html$/, "");
    if (!(docname in texts)) { load(docname, li); return; }
    li.dataset.bookSnippet = "1";
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
