"""Give every bare {ref}`label` in a chapter's Markdown cells an explicit link text.

Sphinx fills in the text of a bare {ref}`ch-kernels` from the labelled heading
("8. Kernels"), but JupyterLab's MyST renderer (jupyterlab-myst) shows the raw
label, "ch-kernels". This script looks every such label up in the book and
rewrites the role as {ref}`text <label>`, with the text taken from the target:

- a chapter title ``(ch-x)=`` + ``# Title`` in ``book/NN_name.ipynb`` gives
  "chapter N, Title" ("Chapter N, Title" at the start of a sentence);
- any other labelled heading gives its title;
- an exercise (```` ```{exercise} Title```` with ``:label:``) gives
  'exercise "Title"' (capitalized at the start of a sentence).

Inline math in a title ($C$, $\\gamma$) is turned into plain text (C, γ),
because a role's text is not parsed as Markdown. Roles that already have a
text are left alone, so running the script twice changes nothing. A label
that cannot be found is reported and left as it is; the exit status is then 1.

Usage:  python tools/ref_link_text.py book/08_kernels.ipynb [more notebooks]
        python tools/ref_link_text.py --check book/08_kernels.ipynb
(--check writes nothing and exits with 1 if some role would change.)
"""

import argparse
import json
import re
import sys
from pathlib import Path

BOOK = Path(__file__).resolve().parent.parent / "book"

GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "varepsilon": "ε",
    "epsilon": "ε", "eta": "η", "theta": "θ", "kappa": "κ", "lambda": "λ",
    "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ",
    "tau": "τ", "varphi": "φ", "phi": "φ", "omega": "ω", "Phi": "Φ",
    "Gamma": "Γ", "Delta": "Δ", "Omega": "Ω",
}
COMMANDS = {
    **GREEK, "ell": "ℓ", "infty": "∞", "le": "≤", "leq": "≤", "ge": "≥",
    "geq": "≥", "to": "→", "times": "×", "cdot": "·", "in": "∈", "pm": "±",
    "ne": "≠", "neq": "≠", "approx": "≈",
}
# commands whose argument is kept as it is: \mathbf{x} -> x, \text{up} -> up
WRAPPERS = ("mathbf", "boldsymbol", "mathrm", "text", "operatorname", "mathcal",
            "hat", "tilde", "bar")
SUPERSCRIPTS = str.maketrans("0123456789+-n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁿ")
SUBSCRIPTS = str.maketrans("0123456789+-", "₀₁₂₃₄₅₆₇₈₉₊₋")


def math_to_text(tex):
    """Plain-text rendering of a short piece of inline LaTeX ($...$ content)."""
    out = tex
    for _ in range(3):           # nested wrappers: \hat{\mathbf{x}}
        out = re.sub(r"\\(?:%s)\s*\{([^{}]*)\}" % "|".join(WRAPPERS), r"\1", out)
        out = re.sub(r"\\(?:%s)\s*(\\?[A-Za-z])\b" % "|".join(WRAPPERS), r"\1", out)

    def command(match):
        name = match.group(1)
        if name not in COMMANDS:
            raise ValueError(f"no plain-text form for \\{name} in the title math ${tex}$")
        return COMMANDS[name]

    out = re.sub(r"\\([A-Za-z]+)", command, out)
    out = re.sub(r"\^\{([^{}]*)\}|\^(.)", lambda m: (m.group(1) or m.group(2)).translate(SUPERSCRIPTS), out)
    out = re.sub(r"_\{([^{}]*)\}|_(.)", lambda m: (m.group(1) or m.group(2)).translate(SUBSCRIPTS), out)
    out = out.replace("{", "").replace("}", "").replace("\\,", " ")
    return re.sub(r"\s+", " ", out).strip()


def title_text(title):
    return re.sub(r"\$([^$]+)\$", lambda m: math_to_text(m.group(1)), title).strip()


def markdown_sources(path):
    """The Markdown text of a .md file, or the Markdown cells of a notebook."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    return [path.read_text(encoding="utf-8")]


def collect_targets(book=BOOK):
    """label -> link text, for every labelled heading and exercise in the book."""
    targets = {}
    for path in sorted(book.glob("*.ipynb")) + sorted(book.glob("*.md")):
        number = re.match(r"(\d\d)_", path.name)
        for text in markdown_sources(path):
            for match in re.finditer(r"^\(([^)\s]+)\)=[ \t]*\n+(#+)[ \t]+(.+?)[ \t]*$", text, re.M):
                label, level, title = match.group(1), len(match.group(2)), title_text(match.group(3))
                if level == 1 and number:
                    targets[label] = ("chapter", f"chapter {int(number.group(1))}, {title}")
                else:
                    targets[label] = ("section", title)
            for match in re.finditer(r"^(`{3,}|:{3,})\{exercise\}[ \t]*(.*?)[ \t]*\n"
                                     r"(?:^:[a-z-]+:.*\n)*?^:label:[ \t]*(\S+)", text, re.M):
                title = title_text(match.group(2))
                if title:
                    targets[match.group(3)] = ("exercise", f"exercise “{title}”")
    return targets


BARE_REF = re.compile(r"\{ref\}`([^`<>]+)`")


def starts_sentence(text, position):
    """Whether the role at `position` begins a sentence, a paragraph or a list item."""
    line = text[:position].rsplit("\n", 1)[-1].strip(" \t(*_")
    if line in ("", "-", "|") or re.fullmatch(r"\d+\.", line):
        before = text[:position].rstrip(" \t(*_\n")
        if before == "" or line in ("-", "|") or line.endswith(".") or text[:position].rstrip(" \t(*_").endswith("\n\n"):
            return True
    return text[:position].rstrip(" \t(*_\n").endswith((".", "!", "?"))


def add_link_texts(text, targets, missing):
    def replace(match):
        label = match.group(1).strip()
        if label not in targets:
            missing.add(label)
            return match.group(0)
        kind, link = targets[label]
        if kind != "section" and starts_sentence(text, match.start()):
            link = link[0].upper() + link[1:]
        link = link.replace("`", "'").replace("<", "‹").replace(">", "›")
        return f"{{ref}}`{link} <{label}>`"
    return BARE_REF.sub(replace, text)


def process(path, targets, check):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    missing, changed = set(), 0
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        before = "".join(cell["source"])
        after = add_link_texts(before, targets, missing)
        if after != before:
            changed += len(BARE_REF.findall(before)) - len(BARE_REF.findall(after))
            cell["source"] = after.splitlines(keepends=True)
    if changed and not check:
        path.write_text(json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return changed, missing


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if some {ref} has no link text")
    args = parser.parse_args(argv)
    for path in args.notebooks:
        if path.suffix != ".ipynb" or not path.is_file():
            parser.error(f"expected notebooks (.ipynb files); got {str(path)!r}, which is not one. "
                         f"Pass chapter notebooks such as book/08_kernels.ipynb.")
    targets = collect_targets()
    status = 0
    for path in args.notebooks:
        changed, missing = process(path, targets, args.check)
        verb = "would give" if args.check else "gave"
        print(f"{path}: {verb} {changed} {{ref}} role(s) a link text")
        for label in sorted(missing):
            print(f"  no labelled heading or exercise found for {{ref}}`{label}`: left as it is",
                  file=sys.stderr)
        if missing or (args.check and changed):
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
