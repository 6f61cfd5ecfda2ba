#!/usr/bin/env python3
"""Loro on a sequential editing trace (josephg/editing-traces), one commit per trace transaction.

Two shapes of the same trace, each on a fresh `LoroDoc`:
  movable  a `LoroMovableList` of one-character string values, as ListJournal's list of
           one-character items: an insert of "ab" at p is `insert(p, "a")`, `insert(p + 1, "b")`,
           a delete of n at p is `delete(p, n)`;
  text     a `LoroText`: `delete(p, n)` and `insert(p, "ab")` (Unicode positions), Loro's native
           shape for text, for context.
The trace's patches are read into Python tuples before the clock starts; timed is the loop that
applies them and commits after each transaction (wall: `perf_counter`, CPU: `process_time`), so the
figures include the Python calls into Loro. After the clock: the snapshot with full history
(`export(ExportMode.Snapshot())`), the updates from the start (`ExportMode.Updates`), and the check
that the values in order equal the trace's `endContent`.

Output: one JSON object on standard output.
Usage: loro_traces.py TRACE.json.gz [--repeats N] [--shapes movable,text]
"""
import argparse
import gzip
import json
import sys
import time
from importlib import metadata

from loro import ExportMode, LoroDoc, VersionVector


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        trace = json.load(f)
    txns = [[(p[0], p[1], p[2]) for p in txn["patches"]] for txn in trace["txns"]]
    return txns, trace["endContent"]


def apply_movable(txns):
    doc = LoroDoc()
    items = doc.get_movable_list("text")
    insert, delete, commit = items.insert, items.delete, doc.commit
    wall, cpu = time.perf_counter(), time.process_time()
    for patches in txns:
        for pos, deleted, inserted in patches:
            if deleted:
                delete(pos, deleted)
            for k, ch in enumerate(inserted, pos):
                insert(k, ch)
        commit()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return doc, wall, cpu, lambda: "".join(items.get_value())


def apply_text(txns):
    doc = LoroDoc()
    text = doc.get_text("text")
    insert, delete, commit = text.insert, text.delete, doc.commit
    wall, cpu = time.perf_counter(), time.process_time()
    for patches in txns:
        for pos, deleted, inserted in patches:
            if deleted:
                delete(pos, deleted)
            if inserted:
                insert(pos, inserted)
        commit()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return doc, wall, cpu, text.to_string


SHAPES = {"movable": apply_movable, "text": apply_text}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--shapes", default="movable,text")
    args = parser.parse_args()
    txns, end = load(args.trace)
    result = {"loro": metadata.version("loro"), "transactions": len(txns), "shapes": {}}
    for shape in args.shapes.split(","):
        runs = []
        for _ in range(args.repeats):
            doc, wall, cpu, value = SHAPES[shape](txns)
            snapshot = len(doc.export(ExportMode.Snapshot()))
            updates = len(doc.export(ExportMode.Updates(VersionVector())))
            runs.append({"wall_s": wall, "cpu_s": cpu, "snapshot_bytes": snapshot,
                         "updates_bytes": updates, "changes": doc.len_changes,
                         "ops": doc.len_ops, "end_matches": value() == end})
            del doc
        result["shapes"][shape] = runs
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main()
