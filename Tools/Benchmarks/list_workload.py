"""The list a list-language workload edits, as the generators track it: live item ids (drawn
uniformly), each one's parent and children, and fresh ids i1, i2, ... Shared by workload-w.py
and workload-versions.py. Children are kept in insertion-ordered dicts, not sets: a set of
strings iterates in an order that changes with every process's hash seed, and a deletion's
order decides the ids drawn afterwards, so the scripts would differ from run to run."""


class ListModel:
    def __init__(self):
        self.ids, self.where, self.parent, self.kids = [], {}, {}, {}
        self.counter = 0

    def fresh(self):
        self.counter += 1
        return f"i{self.counter}"

    def add(self, i, p):
        self.where[i] = len(self.ids); self.ids.append(i); self.parent[i] = p; self.kids[i] = {}
        if p is not None: self.kids[p][i] = None

    def drop(self, i):
        """Removes i and its descendants, as `delete i` does."""
        for c in list(self.kids[i]): self.drop(c)
        p = self.parent.pop(i)
        if p is not None: del self.kids[p][i]
        del self.kids[i]
        k = self.where.pop(i); last = self.ids.pop()
        if last != i: self.ids[k] = last; self.where[last] = k

    def move(self, a, b):
        """Records `move a before|after b`: a takes b's parent."""
        p = self.parent[a]
        if p is not None: del self.kids[p][a]
        self.parent[a] = self.parent[b]
        if self.parent[b] is not None: self.kids[self.parent[b]][a] = None

    def movable(self, a, b):
        """Whether `move a before|after b` is valid and keeps the outline two levels deep."""
        return not (a == b or self.parent.get(b) == a or (self.kids[a] and self.parent[b] is not None))

    def setup_lines(self, items, section="S"):
        """The section, then `items` root items appended in lines of 1,000."""
        out = [f"append-sections {section}"]
        for start in range(0, items, 1000):
            line = []
            for _ in range(min(1000, items - start)):
                i = self.fresh(); self.add(i, None); line.append(i)
            out.append("append " + " ".join(line) + f" to {section}")
        return out
