"""The claims audit: every number a chapter's prose states comes from somewhere.

A chapter's prose is the text of its markdown cells (the chapters
``book/NN_*.ipynb`` and the playground).  The rule, applied to each of them:

**Which numbers are claims.**  In the prose with its math, code spans, fenced
blocks, roles (``{glue:text}`...```, ``{cite:t}`...```, ``{numref}`...```,
``{eq}`...``` and the rest), link targets, HTML tags and directive options
taken out, a *claim* is

* every number with a decimal point (``0.965``),
* every percentage (``3.5%``, ``37 %``, ``12 percent``),
* every ratio written with its number (``2.5×``, ``3 times``),
* every other integer of 10 or more, except a year (1900 to 2030) and a number
  that a reference word just before it marks as a reference (``section 7.10``,
  ``chapter 12``, ``Table 12.1``, ``scikit-learn 1.9``, ``p. 213``).

Numbers inside math are the mathematics (``$C = 10$`` is a setting the text
chooses, ``$2^{a-1}$`` a formula), so they are not audited here.

**Where a claim may come from.**  Each claim needs one of these sources:

1. a **compared output** of the same notebook: the number appears in what a
   cell without ``# NBVAL_IGNORE_OUTPUT`` printed, displayed or glued (the
   stored outputs that ``make nbval`` checks on every machine).  It may appear
   rounded: a prose number with d decimals (and at least two significant
   digits) matches an output number that rounds to it, and a percentage
   matches an output written with ``%`` or an output fraction that rounds to
   it;
2. a **glue role** in the sentence itself (then it is not a claim at all:
   the role is taken out before the audit);
3. for an integer, a **literal in a code cell** of the same notebook: a data
   set's size, a seed, a grid, a parameter the code fixes;
4. an **entry of** ``ALLOWED`` below, with the number, the words around it and
   the reason it needs no cell: arithmetic on numbers stated in the same
   sentence, a figure from a cited paper, a fact about a library or a format,
   a reference that no reference word announces.  Every entry must still
   match the prose (a stale entry fails).

**Glue.**  Every key a glue role names is glued by a cell of the same
notebook.  A key glued only by a measurement cell (its value is the build's,
not checked by nbval) may be quoted only in a sentence that says so: the
sentence names "this build", "the build's" or "when this page was built".

**Stale claims.**  Sentences the second review found contradicted by the
chapters' own numbers (``STALE``) must not come back.
"""

import json
import pathlib
import re

import pytest

BOOK = pathlib.Path(__file__).resolve().parents[1] / "book"
PAGES = sorted(BOOK.glob("[0-9][0-9]_*.ipynb")) + [BOOK / "playground.ipynb"]
MARK = "NBVAL_IGNORE_OUTPUT"

# What is not prose: each span is blanked out (same length, so positions hold).
NOT_PROSE = [
    r"\$\$.*?\$\$",                                  # display math
    r"\$(?:(?!\n[ \t]*\n)[^$])+?\$",                 # inline math, within a paragraph
    r"\\begin\{(\w+\*?)\}.*?\\end\{\1\}",            # LaTeX environments
    r"```.*?```",                                    # fenced blocks and directives' fences
    r"\{[\w:-]+\}`[^`]*`",                           # roles: glue, cite, ref, numref, eq, math ...
    r"`[^`]*`",                                      # code spans
    r"\]\([^)]*\)",                                  # link targets
    r"<[^>]+>",                                      # HTML tags
    r"^\([\w-]+\)=[ \t]*$",                          # labels
    r"^[ \t]*:[\w-]+:.*$",                           # directive options
]
NUMBER = re.compile(
    r"(?<![\w.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)+|\d+)(?![\d,]\d)"
    r"(\s?%|\s?percent\b|\s?per cent\b|\s?×|\s?times\b)?")
REFERENCE_WORD = re.compile(
    r"(?:sections?|§|chapters?|tables?|figures?|fig\.|equations?|eq\.|pages?|p\.|pp\.|"
    r"exercises?|theorem|lemma|versions?|release|python|scikit-learn|numpy|scipy|"
    r"libsvm|liblinear|jupyter book|myst-nb)\s*$", re.I)
BUILD_WORDS = ("this build", "the build's", "built this page", "this page was built", "on this machine")
OUTPUT_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][-+]?\d+)?(\s?%)?")

# (number as written, words around it that contain it, why no cell is needed)
ALLOWED = {
    "07_smo": [
        ("70", "about 70 MB for 3,000 points", "8n^2 bytes, the formula of the sentence, at n = 3,000"),
        ("800", "800 MB for 10,000", "8n^2 bytes, the formula of the sentence, at n = 10,000"),
        ("3.2", "3.2 GB for 20,000", "8n^2 bytes, the formula of the sentence, at n = 20,000"),
        ("20,000", "3.2 GB for 20,000", "a problem size chosen to illustrate the formula 8n^2"),
        ("800", "alone would fill 800 MB", "8n^2 bytes at the 10,000 points of the same sentence"),
        ("200", "200 by default in scikit-learn's", "scikit-learn's documented default of cache_size"),
        ("1,024", "beyond 1,024 points they fill", "svmlib's constant: svmlib/smo.py fills the cache "
         "up front only up to 2**20 entries, n <= 1024"),
        ("1,024", "beyond 1,024 points it computes", "svmlib's constant: svmlib/smo.py, 2**20 entries"),
    ],
    "08_kernels": [
        ("0.6", "between 0.6 and 0.7", "bounds of the printed row sigma = 0.4 (0.605 to 0.695)"),
        ("0.7", "between 0.6 and 0.7", "bounds of the printed row sigma = 0.4 (0.605 to 0.695)"),
        ("49", "of the 49 settings", "7 x 7, the two sliders' seven values each, stated in the sentence"),
        ("260", "about 260", "the exercise's count by hand; the solution's code cell checks it"),
    ],
    "09_multiclass": [
        ("0.1", "less than 0.1 % of the plane", "the exercise's goal, the widget's max_ambiguous=0.001"),
        ("1797", "1797 handwritten digits", "the size of scikit-learn's digits data (load_digits)"),
        ("64", "64 features, 10 classes", "8 x 8 pixels, the digits data's format"),
        ("0.125", "p-value below 0.125", "2 (1/2)^4: the smallest two-sided exact McNemar p-value "
         "with four discordant pairs"),
    ],
    "10_in_practice": [
        ("357", "212 malignant, 357 benign", "569 - 212, the counts printed by the first cell"),
        ("9", "from 9% to 3.5%", "1 - 0.910, the accuracy printed above, as an error rate"),
        ("3.5", "from 9% to 3.5%", "1 - 0.965, the accuracy printed above, as an error rate"),
        ("25", "a contest among 25 noisy scores", "the 5 x 5 grid stated above"),
        ("25", "The best of 25 noisy estimates", "the 5 x 5 grid stated above"),
        ("0.6", "by 0.6 percentage points", "1/171, one error among the 171 test points"),
        ("1.4", "about 1.4 points", "the standard error 0.014 printed above, in percentage points"),
        ("0.88", "a probability of 0.88", "1/(1 + e^-2), the naive rule at the f = 2 of the sentence"),
        ("37", "(37 % malignant)", "212/569, the counts printed by the first cell"),
        ("1,797", "1,797 images of", "the size of scikit-learn's digits data (load_digits)"),
        ("0.5", "every constant rule scores 0.5", "the definition: recall 1 on one class, 0 on the other"),
        ("1,135", "With 1,135 other digits", "1257 - 122, the counts printed above"),
        ("96", "make 96 fits", "(4 + 12) x 2 x 3, the arithmetic of the sentence"),
        ("840", "about 840 images each", "two thirds of the 1257 training images (3 folds)"),
        ("488", "among the 488 other digits", "540 - 52, the counts printed above"),
        ("80", "(80 GB in double precision", "8n^2 bytes at the n = 100,000 of the sentence"),
    ],
    "11_at_scale": [
        ("20,000", "on 20,000 × 40 dense and on sparse data", "the size of benchmarks/bench_linear.py's "
         "solver problems, where the sentence sends the reader"),
        ("800", "800 MB at", "8n^2 bytes, the formula of the sentence, at n = 10,000"),
        ("32", "bytes or 32 MB", "8n^2 bytes at the n = 2,000 of the run"),
        ("5,120", "beyond 5,120 points", "8n^2 bytes = 200 MiB, the cache budget of the sentence"),
    ],
    "12_beyond_classification": [
        ("1,797", "hold 1,797 images", "the size of scikit-learn's digits data (load_digits)"),
        ("64", "a 64-dimensional space", "8 x 8 pixels, the digits data's format"),
    ],
    "playground": [
        ("600", "some 600 lines", "the length of svmlib/static/smo.js (616 lines)"),
    ],
}

STALE = [
    ("10_in_practice", "order of magnitude faster"),
    ("10_in_practice", "same algorithm in NumPy"),
    ("09_multiclass", "is written in Python"),
    ("07_smo", "differ by a few percent"),
    ("07_smo", "a few percent more or fewer"),
    ("11_at_scale", "as fast in growth"),
    ("11_at_scale", "is enough here"),
]


def blank(text):
    for pattern in NOT_PROSE:
        text = re.sub(pattern, lambda m: re.sub(r"[^\n]", " ", m.group()), text,
                      flags=re.S | re.M)
    return text


def is_claim(number, suffix, prose, start):
    if number.count(".") > 1 or REFERENCE_WORD.search(prose[max(0, start - 20):start]):
        return False          # a section or version number (7.10.2), or a reference
    if suffix or "." in number:
        return True
    value = int(number.replace(",", ""))
    if value < 10 or ("," not in number and 1900 <= value <= 2030):
        return False
    return True


def claims(markdown):
    """(number, suffix, start, end) of every claim in one markdown cell's text."""
    prose = blank(markdown)
    return [(m.group(1), (m.group(2) or "").strip(), m.start(), m.end())
            for m in NUMBER.finditer(prose)
            if is_claim(m.group(1), m.group(2), prose, m.start())]


def output_text(output):
    if output["output_type"] == "stream":
        return "".join(output.get("text", ""))
    data = output.get("data", {})
    return "\n".join("".join(value) for key, value in data.items()
                     if key.endswith("text/plain") or key.endswith("text/html")
                     or key.endswith("text/markdown"))


class Sources:
    """What the code cells of one notebook compute, fix and glue."""

    def __init__(self, cells):
        self.tokens, self.values, self.percents = set(), [], set()
        self.literals = set()
        self.glued, self.glued_compared = set(), set()
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            code = "".join(cell["source"])
            compared = MARK not in code
            for m in re.finditer(r"(?<![\w.])\d[\d_]*(?![\w.])", code):
                self.literals.add(m.group().replace("_", ""))
            for output in cell.get("outputs", []):
                name = output.get("metadata", {}).get("scrapbook", {}).get("name")
                if name:
                    self.glued.add(name)
                    if compared:
                        self.glued_compared.add(name)
                if not compared:
                    continue
                for m in OUTPUT_NUMBER.finditer(output_text(output)):
                    token = m.group().split("%")[0].strip().replace(",", "")
                    self.tokens.add(token)
                    if m.group(1):
                        self.percents.add(token)
                    try:
                        self.values.append(float(token))
                    except ValueError:
                        pass

    def explains(self, number, suffix):
        plain = number.replace(",", "")
        decimals = len(plain.split(".")[1]) if "." in plain else 0
        digits = len(plain.replace(".", "").lstrip("0"))
        x = float(plain)

        def rounds_to(target, places):
            return digits >= 2 and any(round(v, places) == round(target, places)
                                       for v in self.values)
        if suffix in ("%", "percent", "per cent"):
            return (plain in self.percents or rounds_to(x / 100, decimals + 2)
                    or any(round(float(p), decimals) == x for p in self.percents))
        if plain in self.tokens or rounds_to(x, decimals):
            return True
        return not suffix and "." not in plain and plain in self.literals


def allowed_spans(stem, text):
    spans = []
    for number, words, _reason in ALLOWED.get(stem, []):
        pattern = r"\s+".join(re.escape(w) for w in words.split())
        for m in re.finditer(pattern, text):
            offset = m.group().find(number)
            if offset >= 0:
                spans.append((number, m.start() + offset, m.start() + offset + len(number)))
    return spans


def unexplained(stem, cells):
    """Every claim of a notebook's prose that no source explains, with its context."""
    sources = Sources(cells)
    found = []
    for k, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        spans = allowed_spans(stem, text)
        for number, suffix, start, end in claims(text):
            if sources.explains(number, suffix):
                continue
            if any(n == number and s <= start < e for n, s, e in spans):
                continue
            context = " ".join(text[max(0, start - 60):end + 30].split())
            found.append(f"cell {k}: {number}{suffix and ' ' + suffix} in '...{context}...'")
    return found


def glue_problems(cells):
    sources = Sources(cells)
    problems = []
    for k, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        for m in re.finditer(r"\{glue(?::\w+)?\}`([^`:]+)", text):
            key = m.group(1).strip()
            if key not in sources.glued:
                problems.append(f"cell {k}: glue key {key!r} is glued by no cell")
            elif key not in sources.glued_compared:
                begin = max(text.rfind(". ", 0, m.start()), text.rfind("\n\n", 0, m.start()))
                stops = [i for i in (text.find(". ", m.end()), text.find("\n\n", m.end())) if i >= 0]
                sentence = text[begin + 1:min(stops) if stops else len(text)].lower()
                if not any(word in sentence for word in BUILD_WORDS):
                    problems.append(
                        f"cell {k}: {key!r} is glued only by a measurement cell, so its "
                        f"sentence must say the number is this build's: "
                        f"'{' '.join(sentence.split())[:160]}'")
    return problems


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_every_number_in_the_prose_has_a_source(path):
    found = unexplained(path.stem, load(path))
    assert not found, (
        f"{path.name}: numbers in the prose that no compared output, code literal or "
        f"allow-list entry explains (glue them from a cell, rewrite the sentence, or "
        f"add an entry with its reason to ALLOWED in tests/test_claims.py):\n  "
        + "\n  ".join(found))


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_every_glue_key_is_glued_by_a_cell(path):
    problems = glue_problems(load(path))
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


def test_every_allow_list_entry_still_matches():
    stale = []
    for stem, entries in ALLOWED.items():
        texts = ["".join(c["source"]) for c in load(BOOK / f"{stem}.ipynb")
                 if c["cell_type"] == "markdown"]
        for number, words, reason in entries:
            assert len(reason) > 15, f"{stem}: the entry for {number} needs a reason"
            if not any(allowed_spans_for(number, words, text) for text in texts):
                stale.append(f"{stem}: {number!r} in {words!r}")
    assert not stale, "allow-list entries that no longer match the prose:\n  " + "\n  ".join(stale)


def allowed_spans_for(number, words, text):
    pattern = r"\s+".join(re.escape(w) for w in words.split())
    return [m for m in re.finditer(pattern, text) if number in m.group()]


@pytest.mark.parametrize("stem, phrase", STALE)
def test_stale_claims_stay_gone(stem, phrase):
    text = " ".join("".join(c["source"]) for c in load(BOOK / f"{stem}.ipynb")
                    if c["cell_type"] == "markdown")
    assert phrase not in " ".join(text.split()), f"{stem}: the stale claim '{phrase}' is back"


# ----------------------------------------------- the rule catches what it should

def markdown(text):
    return {"cell_type": "markdown", "source": [text]}


def code(text, outputs=(), measured=False):
    source = (f"# {MARK}\n# differs between machines\n" if measured else "") + text
    return {"cell_type": "code", "source": [source], "outputs": list(outputs)}


def stream(text):
    return {"output_type": "stream", "name": "stdout", "text": [text]}


def glued(name, value):
    return {"output_type": "display_data", "metadata": {"scrapbook": {"name": name}},
            "data": {"application/papermill.record/text/plain": repr(value)}}


@pytest.mark.parametrize("sentence", [
    "The accuracy is 0.913 on the test set.",
    "It makes 12% errors.",
    "It is 3.5× faster.",
    "It took 1,234 iterations.",
    "Its mean error is 0.15 on the moons.",
])
def test_a_number_without_a_source_is_caught(sentence):
    cells = [code("print(acc)", [stream("accuracy 0.871\n")]), markdown(sentence)]
    assert len(unexplained("synthetic", cells)) == 1


@pytest.mark.parametrize("sentence", [
    "The accuracy is 0.871 on the test set.",           # printed
    "The accuracy is 0.87 on the test set.",            # printed, rounded
    "It is right on 87.1 % of the points.",             # a printed fraction as a percentage
    "The error is 12% here.",                           # printed with its %
    "We train on 200 points.",                          # fixed by the code
    "With $C = 0.25$ and $\\gamma = 10^{-3}$ it fits.",  # math
    "It reaches {glue:text}`acc:.3f` on the moons.",    # glued
    "See section 7.10.2 of the book and chapter 12.",   # references
    "As shown in 1998 and 2004.",                       # years
    "Run `SVC(C=0.125)` again.",                        # code
])
def test_a_number_with_a_source_passes(sentence):
    cells = [code("X = make(n=200)\nprint(acc, err)", [stream("accuracy 0.871 error 12 %\n")]),
             code("glue('acc', acc)", [glued("acc", 0.871)]), markdown(sentence)]
    assert unexplained("synthetic", cells) == []


def test_a_measured_output_is_no_source():
    cells = [code("print(t)", [stream("ratio 4.2\n")], measured=True),
             markdown("svmlib took 4.2 times LIBSVM's time.")]
    assert len(unexplained("synthetic", cells)) == 1


def test_glue_keys_are_checked():
    cells = [code("glue('a', 1.5)", [glued("a", 1.5)]),
             code("glue('t', 2.0)", [glued("t", 2.0)], measured=True),
             markdown("Here {glue:text}`a:.1f` and {glue:text}`missing`."),
             markdown("It took {glue:text}`t:.1f` times as long."),
             markdown("In this build it took {glue:text}`t:.1f` times as long.")]
    problems = glue_problems(cells)
    assert len(problems) == 2
    assert "'missing'" in problems[0] and "cell 3" in problems[1]
