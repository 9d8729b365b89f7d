"""Small helpers to edit a chapter's cells from a script (sources only; outputs come from `make record`)."""
import json
import pathlib


class NB:
    def __init__(self, path):
        self.path = pathlib.Path(path)
        self.nb = json.loads(self.path.read_text(encoding="utf-8"))

    def code(self):
        return [c for c in self.nb["cells"] if c["cell_type"] == "code"]

    def src(self, cell):
        return "".join(cell["source"])

    def set_code(self, k, text):
        cell = self.code()[k]
        cell["source"] = text.splitlines(keepends=True)
        if cell["source"] and cell["source"][-1].endswith("\n"):
            cell["source"][-1] = cell["source"][-1][:-1]

    def replace(self, old, new, count=1, kind=None):
        hits = 0
        for cell in self.nb["cells"]:
            if kind and cell["cell_type"] != kind:
                continue
            s = "".join(cell["source"])
            if old in s:
                s = s.replace(old, new)
                hits += 1
                cell["source"] = s.splitlines(keepends=True)
        if hits != count:
            raise SystemExit(f"{self.path.name}: {old[:60]!r} found in {hits} cells, expected {count}")

    def save(self):
        self.path.write_text(json.dumps(self.nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
