#!/usr/bin/env python3
"""A long history of a list that stays the same size: one section, ITEMS items appended in lines
of 1,000, then single commands until the journal has N versions (undo and redo make none):
30% set, 20% move before|after, 30% an insert or a delete — whichever brings the list back to
ITEMS items (a deletion takes an item's children with it) — of which inserts are 70%
insert before|after and 30% append under a top-level item, 10% expand|collapse, 5% (of
the commands drawn) an undo + redo pair. The journal's age then grows while its head does not.
Usage: workload-versions.py N ITEMS OUT"""
import os, random, sys
sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from list_workload import ListModel

versions, items, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(11)
model = ListModel()
ids, parent = model.ids, model.parent
out = model.setup_lines(items)
made = len(out)  # each setup line is one version
while made < versions:
    r = rng.random()
    if r < 0.30:
        out.append(f'set {rng.choice(ids)} "v{rng.randrange(1_000_000)}"')
    elif r < 0.50:
        a, b = rng.choice(ids), rng.choice(ids)
        if not model.movable(a, b): continue
        out.append(f"move {a} {rng.choice(['before', 'after'])} {b}")
        model.move(a, b)
    elif r < 0.80:
        if len(ids) >= items:
            i = rng.choice(ids); out.append(f"delete {i}"); model.drop(i)
        elif rng.random() < 0.3:
            i, p = model.fresh(), rng.choice(ids)
            if parent[p] is not None: continue
            out.append(f"append {i} under {p}"); model.add(i, p)
        else:
            i, j = model.fresh(), rng.choice(ids)
            out.append(f"insert {i} {rng.choice(['before', 'after'])} {j}"); model.add(i, parent[j])
    elif r < 0.95:
        out.append(f"{rng.choice(['expand', 'collapse'])} {rng.choice(ids)}")
    else:
        out.append("undo"); out.append("redo")
        continue
    made += 1
with open(path, "w") as f: f.write("\n".join(out) + "\n")
