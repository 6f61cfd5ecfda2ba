#!/usr/bin/env python3
"""Workload W: one section, 100,000 items appended in lines of 1,000, then N single-command
lines: 30% set, 20% move before|after, 15% append, 10% delete, 10% insert before|after,
10% expand|collapse, 5% an undo + redo pair. Usage: workload-w.py N OUT [ITEMS]"""
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
initial = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
rng = random.Random(7)
ids, where, parent, kids = [], {}, {}, {}
counter = 0
def add(i, p):
    where[i] = len(ids); ids.append(i); parent[i] = p; kids[i] = set()
    if p is not None: kids[p].add(i)
def drop(i):
    for c in list(kids[i]): drop(c)
    p = parent.pop(i)
    if p is not None: kids[p].discard(i)
    del kids[i]
    k = where.pop(i); last = ids.pop()
    if last != i: ids[k] = last; where[last] = k
def fresh():
    global counter; counter += 1; return f"i{counter}"
out = ["append-sections S"]
for start in range(0, initial, 1000):
    line = []
    for _ in range(min(1000, initial - start)):
        i = fresh(); add(i, None); line.append(i)
    out.append("append " + " ".join(line) + " to S")
body = 0
while body < n:
    r = rng.random()
    if r < 0.30:
        out.append(f'set {rng.choice(ids)} "v{rng.randrange(1_000_000)}"'); body += 1
    elif r < 0.50:
        a, b = rng.choice(ids), rng.choice(ids)
        if a == b or parent.get(b) == a or (kids[a] and parent[b] is not None): continue
        out.append(f"move {a} {rng.choice(['before', 'after'])} {b}"); body += 1
        p = parent[a]
        if p is not None: kids[p].discard(a)
        parent[a] = parent[b]
        if parent[b] is not None: kids[parent[b]].add(a)
    elif r < 0.65:
        i = fresh()
        p = rng.choice(ids)
        if rng.random() < 0.3 and parent[p] is None:
            out.append(f"append {i} under {p}"); add(i, p)
        else:
            out.append(f"append {i} to S"); add(i, None)
        body += 1
    elif r < 0.75:
        if len(ids) < 1000: continue
        i = rng.choice(ids); out.append(f"delete {i}"); drop(i); body += 1
    elif r < 0.85:
        i = fresh(); j = rng.choice(ids)
        out.append(f"insert {i} {rng.choice(['before', 'after'])} {j}"); add(i, parent[j]); body += 1
    elif r < 0.95:
        out.append(f"{rng.choice(['expand', 'collapse'])} {rng.choice(ids)}"); body += 1
    else:
        out.append("undo"); out.append("redo"); body += 2
with open(path, "w") as f: f.write("\n".join(out) + "\n")
