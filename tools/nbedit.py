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

    def find(self, text, kind=None):
        """The one cell whose source contains `text` (of `kind`, if given)."""
        hits = [c for c in self.nb["cells"]
                if (kind is None or c["cell_type"] == kind) and text in "".join(c["source"])]
        if len(hits) != 1:
            raise SystemExit(f"{self.path.name}: {text[:60]!r} found in {len(hits)} cells, expected 1")
        return hits[0]

    def insert_after(self, anchor, cell_type, text, kind=None, metadata=None):
        """Add a new cell after the one cell that contains `anchor`; its id comes
        from its text, so replaying a script gives the same notebook."""
        import hashlib
        after = self.find(anchor, kind)
        ident = hashlib.sha1(text.encode()).hexdigest()[:8]
        cell = {"cell_type": cell_type, "id": ident, "metadata": metadata or {},
                "source": text.splitlines(keepends=True)}
        if cell_type == "code":
            cell.update(execution_count=None, outputs=[])
        self.nb["cells"].insert(self.nb["cells"].index(after) + 1, cell)
        return cell

    def delete(self, text, kind=None):
        """Remove the one cell that contains `text`."""
        self.nb["cells"].remove(self.find(text, kind))

    def has(self, text):
        """Whether some cell contains `text` (lets a replay script skip an edit already made)."""
        return any(text in "".join(c["source"]) for c in self.nb["cells"])
