#!/usr/bin/env python3
"""Loro's movable list on the replica workload (Tools/Benchmarks/replica-workload.py).

Each item of the workload is one string value of a `LoroMovableList`; expand and collapse are a
`set` of the item's value with a flag appended ("|e", "|c"), since the flat list has no outline.
Every operation is applied by index (`insert`, `push`, `set`, `mov`, `delete`) and committed as
its own transaction, as ListJournal commits one transaction per operation. Turning identifiers
into indices is bookkeeping of this script and is never timed.

Timed:
  merge    two replicas forked from the 100,000-item base each apply their own merge-phase
           operations (not timed); then each exports what the other lacks (`ExportMode.Updates`
           of the other's version vector) and imports the other's export. Reported: export, import
           and their sum (`merge_ms`), and apart from it the check that both docs hold equal values
           (`merge_check_ms`, which converts both lists to Python lists).
  catchup  replica 0 applies its merge-phase operations and then the catch-up operations (not
           timed); a fresh doc at the base imports replica 0's export of everything it lacks.
           Reported: that export, that import (`catchup_ms`) and bytes per operation.
Each timed step runs REPEATS times on fresh docs (the cold catch-up, which takes minutes, once
unless told otherwise); the minimum and the median of wall time are reported, and the median and
minimum of the process's CPU time (`cpu_`), which a loaded machine inflates less.

Every doc starts from a 100,000-item base doc, in two ways, both reported: warm (the main
figures: the doc imported the base's updates, so its history and state are decoded, like a replica
that has been running) and cold (`_cold_ms`: a fork, i.e. a snapshot, which Loro decodes lazily,
so the first import also pays for decoding the base, like a replica just opened from disk).

Output: one JSON object on standard output, a short table on standard error.
Usage: loro_bench.py WORKLOAD [--repeats N] [--cold-catchup-repeats N]
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
from importlib import metadata

import loro
from loro import ExportMode, LoroDoc

LIST = "items"
# The fields each operation needs besides "r", "op" and "id".
NEEDS = {"set": ("value",), "move": ("after",), "append": ("value",), "delete": (),
         "insert": ("after", "value"), "expand": (), "collapse": ()}


class Order:
    """The list's order by identifier: blocks of at most 256 identifiers plus a Fenwick tree over
    the blocks' sizes, so that an identifier's index, an insertion and a removal scan one block
    and sum O(log blocks) sizes (a split, every ~128 insertions into a block, rebuilds the tree)."""

    SPLIT = 256

    def __init__(self, ids):
        self.blocks = [ids[k:k + 128] for k in range(0, len(ids), 128)] or [[]]
        self.block_of = {}
        for block in self.blocks:
            for i in block:
                self.block_of[i] = block
        self.count = len(ids)
        self._reindex()

    def _reindex(self):
        # Block positions and sizes change together only when a block splits.
        self.position = {id(block): k for k, block in enumerate(self.blocks)}
        size = len(self.blocks)
        tree = [0] * (size + 1)
        for k, block in enumerate(self.blocks, 1):
            tree[k] += len(block)
            parent = k + (k & -k)
            if parent <= size:
                tree[parent] += tree[k]
        self.tree = tree

    def _add(self, k, delta):
        tree, k = self.tree, k + 1
        while k < len(tree):
            tree[k] += delta
            k += k & -k

    def _before(self, k):
        """The number of items in blocks 0..<k."""
        tree, total = self.tree, 0
        while k > 0:
            total += tree[k]
            k -= k & -k
        return total

    def index(self, i):
        block = self.block_of[i]
        return self._before(self.position[id(block)]) + block.index(i)

    def _place(self, i, block, offset):
        k = self.position[id(block)]
        index = self._before(k) + offset
        block.insert(offset, i)
        self.block_of[i] = block
        self.count += 1
        self._add(k, 1)
        if len(block) > self.SPLIT:
            half = block[self.SPLIT // 2:]
            del block[self.SPLIT // 2:]
            self.blocks.insert(k + 1, half)
            for j in half:
                self.block_of[j] = half
            self._reindex()
        return index

    def insert_after(self, i, anchor):
        """Places `i` right after `anchor` (None: at the start); returns its index."""
        if anchor is None:
            return self._place(i, self.blocks[0], 0)
        block = self.block_of[anchor]
        return self._place(i, block, block.index(anchor) + 1)

    def append(self, i):
        block = self.blocks[-1]
        return self._place(i, block, len(block))

    def remove(self, i):
        """Removes `i`; returns the index it had."""
        block = self.block_of.pop(i)
        k = self.position[id(block)]
        offset = block.index(i)
        del block[offset]
        self.count -= 1
        self._add(k, -1)
        return self._before(k) + offset

    def ids(self):
        return [i for block in self.blocks for i in block]


class Replica:
    """A LoroDoc and the bookkeeping that turns the workload's identifiers into its indices."""

    FLAG = {"expand": "|e", "collapse": "|c"}

    def __init__(self, doc, base):
        self.doc = doc
        self.list = doc.get_movable_list(LIST)
        self.order = Order([f"i{k}" for k in range(base)])
        self.content = {f"i{k}": f"v{k}" for k in range(base)}
        self.flag = {}

    def apply(self, operation):
        op, i, after, value = operation
        lst = self.list
        if op == "set":
            self.content[i] = value
            lst.set(self.order.index(i), value + self.flag.get(i, ""))
        elif op == "move":
            source = self.order.remove(i)
            target = self.order.insert_after(i, after)
            if source != target:  # Loro records no operation for a move onto itself
                lst.mov(source, target)
        elif op == "append":
            self.content[i] = value
            self.order.append(i)
            lst.push(value)
        elif op == "delete":
            lst.delete(self.order.remove(i), 1)
            del self.content[i]
            self.flag.pop(i, None)
        elif op == "insert":
            self.content[i] = value
            lst.insert(self.order.insert_after(i, after), value)
        elif op in self.FLAG:
            self.flag[i] = self.FLAG[op]
            lst.set(self.order.index(i), self.content[i] + self.flag[i])
        else:
            raise AssertionError(f"unknown operation {op!r} on {i!r}")  # refused when read
        self.doc.commit()

    def expected_values(self):
        return [self.content[i] + self.flag.get(i, "") for i in self.order.ids()]


def read_workload(path):
    """Returns (base, seed, {replica: merge operations}, catch-up operations)."""
    base = seed = None
    merge, catchup, phase = {}, [], None
    with open(path) as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                sys.exit(f"{path}:{number}: not JSON ({error.msg})")
            if number == 1:
                if "base" not in record:
                    sys.exit(f"{path}:1: the first line must give the base, as {{\"base\": N, \"seed\": S}}")
                base, seed = record["base"], record.get("seed")
                continue
            if "phase" in record:
                phase = record["phase"]
                if phase not in ("merge", "catchup"):
                    sys.exit(f"{path}:{number}: unknown phase {phase!r}")
                if phase == "merge" and record.get("replicas", 2) != 2:
                    sys.exit(f"{path}:{number}: this benchmark runs 2 replicas, not {record.get('replicas')}")
                continue
            try:
                operation = (record["op"], record["id"], record.get("after"), record.get("value"))
                replica = record["r"]
                if record["op"] not in NEEDS:
                    sys.exit(f"{path}:{number}: unknown operation {record['op']!r} "
                             f"(known: {', '.join(NEEDS)})")
                for field in NEEDS[record["op"]]:
                    record[field]
            except KeyError as missing:
                sys.exit(f"{path}:{number}: an operation needs {missing}")
            if phase == "merge":
                merge.setdefault(replica, []).append(operation)
            elif phase == "catchup":
                if replica != 0:
                    sys.exit(f"{path}:{number}: catch-up operations are replica 0's, not replica {replica}'s")
                catchup.append(operation)
            else:
                sys.exit(f"{path}:{number}: an operation before any phase line")
    if base is None:
        sys.exit(f"{path}: empty workload")
    return base, seed, [merge.get(0, []), merge.get(1, [])], catchup


def build_base(base):
    doc = LoroDoc()
    items = doc.get_movable_list(LIST)
    for k in range(base):
        items.push(f"v{k}")
    doc.commit()
    return doc


def at_base(base_doc, base_updates, loading):
    """A new doc (a new peer) holding the base. "warm": it imported the base's updates, so its
    history and state are decoded, as in a replica that has been running. "cold": a fork, which
    goes through a snapshot; Loro decodes a snapshot lazily and the first import after it pays
    for that, as a replica just opened from its saved snapshot would."""
    if loading == "cold":
        return base_doc.fork()
    doc = LoroDoc()
    doc.import_(base_updates)
    return doc


def replica(start, base, operations, check=False):
    """A replica from `start` (a doc at the base) that applied `operations`; optionally checks
    the bookkeeping against the doc's values, which makes every index used trustworthy."""
    r = Replica(start, base)
    for number, operation in enumerate(operations, 1):
        try:
            r.apply(operation)
        except KeyError as missing:
            sys.exit(f"operation {number} of its replica ({operation[0]} {operation[1]}): "
                     f"{missing} is not in that replica's list")
    if check and r.list.to_vec() != r.expected_values():
        sys.exit("internal error: the identifier bookkeeping disagrees with the doc's values")
    return r


def ms(seconds):
    return round(seconds * 1000, 3)


def now():
    """Wall time and the process's CPU time: on a loaded machine the second says what the work
    cost, the first what it took."""
    return time.perf_counter(), time.process_time()


def span(start, end):
    return end[0] - start[0], end[1] - start[1]


def summary(samples):
    """Wall and CPU milliseconds of (wall, cpu) samples: min, median and every wall run."""
    wall, cpu = [s[0] for s in samples], [s[1] for s in samples]
    return {"min": ms(min(wall)), "median": ms(statistics.median(wall)),
            "cpu_min": ms(min(cpu)), "cpu_median": ms(statistics.median(cpu)),
            "runs": [ms(s) for s in wall]}


def merge_runs(base_doc, base_updates, base, merge_ops, repeats, loading):
    """Both replicas export what the other lacks, then both import; returns the samples."""
    samples = {"exchange": [], "export": [], "import": [], "check": []}
    sizes = None
    for run in range(repeats):
        check = run == 0
        a = replica(at_base(base_doc, base_updates, loading), base, merge_ops[0], check)
        b = replica(at_base(base_doc, base_updates, loading), base, merge_ops[1], check)
        t0 = now()
        to_b = a.doc.export(ExportMode.Updates(b.doc.oplog_vv))
        to_a = b.doc.export(ExportMode.Updates(a.doc.oplog_vv))
        t1 = now()
        into_b = b.doc.import_(to_b)
        into_a = a.doc.import_(to_a)
        t2 = now()
        values = a.list.to_vec()
        equal = values == b.list.to_vec()
        t3 = now()
        if not equal or into_a.pending or into_b.pending:
            sys.exit(f"merge run {run + 1} ({loading}): the replicas did not converge")
        samples["exchange"].append(span(t0, t2))
        samples["export"].append(span(t0, t1))
        samples["import"].append(span(t1, t2))
        samples["check"].append(span(t2, t3))
        sizes = (len(to_b) + len(to_a), len(values))
    return samples, sizes


def catchup_runs(base_doc, base_updates, source, source_values, repeats, loading):
    """A doc at the base imports replica 0's export of all it lacks; returns the samples."""
    samples = {"export": [], "import": []}
    size = None
    for run in range(repeats):
        receiver = at_base(base_doc, base_updates, loading)
        receiver.get_movable_list(LIST).to_vec()  # its state is loaded, as in an open replica
        t0 = now()
        update = source.doc.export(ExportMode.Updates(receiver.oplog_vv))
        t1 = now()
        status = receiver.import_(update)
        t2 = now()
        if status.pending or receiver.get_movable_list(LIST).to_vec() != source_values:
            sys.exit(f"catch-up run {run + 1} ({loading}): the receiver does not equal replica 0")
        samples["export"].append(span(t0, t1))
        samples["import"].append(span(t1, t2))
        size = len(update)
    return samples, size


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workload")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cold-catchup-repeats", type=int, default=1,
                        help="runs of the cold catch-up, which takes minutes (0: skip it)")
    options = parser.parse_args()
    if options.repeats < 1 or options.cold_catchup_repeats < 0:
        parser.error("--repeats must be at least 1, --cold-catchup-repeats at least 0")

    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = os.getloadavg()
    base, seed, merge_ops, catchup_ops = read_workload(options.workload)
    print(f"loro {metadata.version('loro')}: base {base:,}, merge {len(merge_ops[0]):,} + "
          f"{len(merge_ops[1]):,} operations, catch-up {len(catchup_ops):,}", file=sys.stderr)
    base_doc = build_base(base)
    base_updates = base_doc.export(ExportMode.Updates(LoroDoc().oplog_vv))
    base_snapshot = len(base_doc.export(ExportMode.Snapshot()))

    merge, (merge_bytes, merged_length) = merge_runs(
        base_doc, base_updates, base, merge_ops, options.repeats, "warm")
    merge_cold, _ = merge_runs(base_doc, base_updates, base, merge_ops, options.repeats, "cold")

    print("applying the catch-up operations to replica 0 (not timed)...", file=sys.stderr)
    t = time.perf_counter()
    source = replica(at_base(base_doc, base_updates, "warm"), base, merge_ops[0] + catchup_ops, check=True)
    apply_seconds = time.perf_counter() - t
    source_values = source.list.to_vec()
    catchup, catchup_bytes = catchup_runs(
        base_doc, base_updates, source, source_values, options.repeats, "warm")
    if options.cold_catchup_repeats:
        print("the cold catch-up (minutes)...", file=sys.stderr)
    catchup_cold, _ = catchup_runs(base_doc, base_updates, source, source_values,
                                   options.cold_catchup_repeats, "cold")
    caught_up = len(merge_ops[0]) + len(catchup_ops)

    merge_count = len(merge_ops[0]) + len(merge_ops[1])
    result = {
        "library": "loro",
        "version": metadata.version("loro"),
        "loro_core_version": loro.LORO_VERSION,
        "workload": {"base": base, "seed": seed, "ops_per_replica": [len(m) for m in merge_ops],
                     "catchup_ops": len(catchup_ops)},
        "repeats": options.repeats,
        "cold_catchup_repeats": options.cold_catchup_repeats,
        "merge_ms": summary(merge["exchange"]),
        "merge_export_ms": summary(merge["export"]),
        "merge_import_ms": summary(merge["import"]),
        "merge_check_ms": summary(merge["check"]),
        "merge_cold_ms": summary(merge_cold["exchange"]),
        "merge_export_bytes": merge_bytes,
        "merge_bytes_per_op": round(merge_bytes / merge_count, 2) if merge_count else None,
        "merged_items": merged_length,
        "catchup_ms": summary(catchup["import"]),
        "catchup_export_ms": summary(catchup["export"]),
        "catchup_cold_ms": summary(catchup_cold["import"]) if catchup_cold["import"] else None,
        "catchup_commits": caught_up,
        "catchup_bytes": catchup_bytes,
        "catchup_bytes_per_op": round(catchup_bytes / caught_up, 2) if caught_up else None,
        "catchup_items": len(source_values),
        "catchup_source_changes": source.doc.len_changes,
        "catchup_source_ops": source.doc.len_ops,
        "base_snapshot_bytes": base_snapshot,
        "untimed_apply_catchup_s": round(apply_seconds, 1),
        "machine": {"python": platform.python_version(), "system": platform.platform(),
                    "cores": os.cpu_count(), "started": started.strftime("%Y-%m-%dT%H:%MZ"),
                    "load_average": [list(load_before), list(os.getloadavg())]},
    }
    json.dump(result, sys.stdout, indent=1)
    sys.stdout.write("\n")

    rows = [
        ("merge: export + import, both directions", result["merge_ms"], "target for ours: <= 100 ms"),
        ("  export (both)", result["merge_export_ms"], f"{merge_bytes:,} B, {result['merge_bytes_per_op']} B/op"),
        ("  import (both)", result["merge_import_ms"], f"{merged_length:,} items after"),
        ("  check: both values equal (Python lists)", result["merge_check_ms"], ""),
        ("  cold: replicas opened from a snapshot", result["merge_cold_ms"], "export + import"),
        (f"catch-up: import of {caught_up:,} commits", result["catchup_ms"], "target for ours: <= 2 s"),
        ("  export", result["catchup_export_ms"], f"{catchup_bytes:,} B, {result['catchup_bytes_per_op']} B/op"),
    ]
    if result["catchup_cold_ms"]:
        rows.append(("  cold: receiver opened from a snapshot", result["catchup_cold_ms"],
                     f"import, {options.cold_catchup_repeats} run(s)"))
    print(f"{'what':<46} {'median':>11} {'min':>11} {'CPU median':>11}  note", file=sys.stderr)
    for name, figures, note in rows:
        print(f"{name:<46} {figures['median']:>8.1f} ms {figures['min']:>8.1f} ms "
              f"{figures['cpu_median']:>8.1f} ms  {note}", file=sys.stderr)


if __name__ == "__main__":
    main()
