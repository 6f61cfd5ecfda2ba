#!/usr/bin/env python3
"""Workload W: one section, 100,000 items appended in lines of 1,000, then N single-command
lines: 30% set, 20% move before|after, 15% append, 10% delete, 10% insert before|after,
10% expand|collapse, 5% an undo + redo pair. Usage: workload-w.py N OUT [ITEMS]"""
import os, random, sys
sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from list_workload import ListModel

n, path = int(sys.argv[1]), sys.argv[2]
initial = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
rng = random.Random(7)
model = ListModel()
ids, parent, kids = model.ids, model.parent, model.kids
out = model.setup_lines(initial)
body = 0
while body < n:
    r = rng.random()
    if r < 0.30:
        out.append(f'set {rng.choice(ids)} "v{rng.randrange(1_000_000)}"'); body += 1
    elif r < 0.50:
        a, b = rng.choice(ids), rng.choice(ids)
        if not model.movable(a, b): continue
        out.append(f"move {a} {rng.choice(['before', 'after'])} {b}"); body += 1
        model.move(a, b)
    elif r < 0.65:
        i = model.fresh()
        p = rng.choice(ids)
        if rng.random() < 0.3 and parent[p] is None:
            out.append(f"append {i} under {p}"); model.add(i, p)
        else:
            out.append(f"append {i} to S"); model.add(i, None)
        body += 1
    elif r < 0.75:
        if len(ids) < 1000: continue
        i = rng.choice(ids); out.append(f"delete {i}"); model.drop(i); body += 1
    elif r < 0.85:
        i = model.fresh(); j = rng.choice(ids)
        out.append(f"insert {i} {rng.choice(['before', 'after'])} {j}"); model.add(i, parent[j]); body += 1
    elif r < 0.95:
        out.append(f"{rng.choice(['expand', 'collapse'])} {rng.choice(ids)}"); body += 1
    else:
        out.append("undo"); out.append("redo"); body += 2
with open(path, "w") as f: f.write("\n".join(out) + "\n")
