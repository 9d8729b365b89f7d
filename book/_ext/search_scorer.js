// Search ranking of the book (Sphinx's html_search_scorer; see svmlib_reading.py).
// A reader who types "kernel" wants the chapter on kernels before the API
// entry svmlib.kernels: chapter pages get a bonus, API objects a small malus.
var Scorer = {
  score: (result) => {
    const [docname, , , descr, score] = result;
    if (/(^|\/)\d\d_[^/]*$/.test(docname)) return score + 15;  // a chapter
    if (descr) return score - 5;                                // an API object
    return score;
  },
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: {0: 15, 1: 5, 2: -5},
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};
