// Typesets the book's formulas at build time (called by book/_ext/svmlib_math.py).
//
// stdin:  {"formulas": [[tex, display], ...], "em": 16, "ex": 9, "scale": 1.27,
//          "width": 1280, "fontURL": "..."}
// stdout: {"html": ["<mjx-container ...>", ...], "css": "..."}
//
// MathJax 3 (mathjax-full, the same version as the browser copy that
// sphinx-mathjax-offline ships): TeX input with every TeX package, CommonHTML
// output, and for screen readers the formula's MathML beside it (MathJax's
// assistive-mml, what the browser's MathJax also adds).  The stylesheet holds
// the rules of every character that the formulas use, for the whole book.
// A TeX error stops the build, naming the formula (a browser would show it
// in red on the page).
"use strict";

const {mathjax} = require("mathjax-full/js/mathjax.js");
const {TeX} = require("mathjax-full/js/input/tex.js");
const {CHTML} = require("mathjax-full/js/output/chtml.js");
const {liteAdaptor} = require("mathjax-full/js/adaptors/liteAdaptor.js");
const {RegisterHTMLHandler} = require("mathjax-full/js/handlers/html.js");
const {AssistiveMmlHandler} = require("mathjax-full/js/a11y/assistive-mml.js");
const {AllPackages} = require("mathjax-full/js/input/tex/AllPackages.js");

function main(request) {
  const adaptor = liteAdaptor();
  AssistiveMmlHandler(RegisterHTMLHandler(adaptor));
  // every package except noerrors/noundefined: an error must reach us
  const packages = AllPackages.filter((p) => p !== "noerrors" && p !== "noundefined");
  const tex = new TeX({
    packages,
    formatError(jax, err) { throw err; },
  });
  const chtml = new CHTML({fontURL: request.fontURL, adaptiveCSS: true});
  const doc = mathjax.document("", {InputJax: tex, OutputJax: chtml});
  const html = request.formulas.map(([source, display], k) => {
    let node;
    try {
      node = doc.convert(source, {
        display: Boolean(display), em: request.em, ex: request.ex,
        containerWidth: request.width, scale: request.scale,
      });
    } catch (err) {
      throw new Error(`formula ${k} (${display ? "display" : "inline"}) ${JSON.stringify(source)}: `
                      + (err && err.message ? err.message : String(err)));
    }
    return adaptor.outerHTML(node);
  });
  const css = adaptor.textContent(chtml.styleSheet(doc));
  return {html, css};
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  try {
    process.stdout.write(JSON.stringify(main(JSON.parse(input))));
  } catch (err) {
    process.stderr.write(String(err && err.message ? err.message : err) + "\n");
    process.exit(1);
  }
});
