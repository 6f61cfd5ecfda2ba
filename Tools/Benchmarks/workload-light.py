#!/usr/bin/env python3
"""Workload L, a light single-command mix for `listjournal exec`: 10 sections, then N commands
(append, some nested; insert; move; set; delete once past 2,000 items; expand|collapse), each its
own transaction. Seeded: the same N gives the same script.

    python3 Tools/Benchmarks/workload-light.py 1000000 L.list
"""
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(42)
ids = []            # live items
where = {}          # id -> position in ids
parent = {}         # id -> parent id or None
kids = {}           # id -> set of children
counter = 0
out = ["append-sections " + " ".join(f"S{i}" for i in range(10))]
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
def related(a, b):  # b is a or a descendant of a (depth <= 2)
    return b == a or parent.get(b) == a
while len(out) < n:
    r = rng.random()
    if len(ids) < 1000 or r < 0.15:                  # append (some nested)
        i = fresh()
        if ids and rng.random() < 0.2:
            p = rng.choice(ids)
            if parent[p] is None:
                out.append(f"append {i} under {p}"); add(i, p); continue
        out.append(f"append {i} to S{rng.randrange(10)}"); add(i, None)
    elif r < 0.25:                                   # insert
        i = fresh(); j = rng.choice(ids)
        out.append(f"insert {i} {rng.choice(['before', 'after'])} {j}"); add(i, parent[j])
    elif r < 0.45:                                   # move
        a, b = rng.choice(ids), rng.choice(ids)
        if related(a, b) or (kids[a] and parent[b] is not None): continue
        out.append(f"move {a} {rng.choice(['before', 'after'])} {b}")
        p = parent[a]
        if p is not None: kids[p].discard(a)
        parent[a] = parent[b]
        if parent[b] is not None: kids[parent[b]].add(a)
    elif r < 0.80:                                   # set content
        out.append(f"set {rng.choice(ids)} \"v{rng.randrange(1_000_000)}\"")
    elif r < 0.90:                                   # delete
        if len(ids) < 2000: continue
        i = rng.choice(ids); out.append(f"delete {i}"); drop(i)
    else:                                            # expand / collapse
        out.append(f"{rng.choice(['expand', 'collapse'])} {rng.choice(ids)}")
with open(path, "w") as f: f.write("\n".join(out) + "\n")
