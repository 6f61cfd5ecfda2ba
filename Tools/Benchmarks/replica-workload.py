#!/usr/bin/env python3
"""The replica workload: operations on one flat movable list, named by identifier, that two
replicas make concurrently and then one replica makes alone. Every replica engine benchmarked
(ListJournal's replicas, Loro's movable list) reads the same file, so they run the same operations.

The file is JSON lines:

  {"base": N, "seed": S}
      The shared starting list: items i0 ... i{N-1} in this order, item iK with value "vK".
  {"phase": "merge", "replicas": 2}
      Then OPS operations by each replica, alternating r0, r1, r0, ... Each replica's operations
      are generated against its OWN local state (the base plus its own earlier operations, never
      the other's), so the two replicas are concurrent and every operation is valid where it was
      made.
  {"phase": "catchup"}
      Then CATCHUP operations by replica 0 alone, generated against replica 0's own state at the
      end of the merge phase (the base plus its own merge-phase operations, without replica 1's),
      continuing its random stream and its identifier counter.

Operation lines ("r" is the replica that made it):

  {"r": 0, "op": "insert", "id": "r0n17", "after": "i5", "value": "v..."}   after null = at the start
  {"r": 0, "op": "append", "id": "r0n18", "value": "v..."}                  at the end
  {"r": 0, "op": "delete", "id": "i9"}
  {"r": 0, "op": "move", "id": "i9", "after": "r0n17"}                      after null = to the start
  {"r": 0, "op": "set", "id": "i9", "value": "v..."}
  {"r": 0, "op": "expand", "id": "i9"}   and "collapse"

The mix per operation: 30% set, 20% move, 15% append, 10% delete, 10% insert, 10% expand or
collapse, 5% set again: a set of the item this replica set most recently (a random item if that
one is gone). It stands in for the mixed workload's undo/redo, which a CRDT list has no
equivalent of. New identifiers are r{replica}n{counter}, unique per replica. An anchor is null
(the start of the list) once in a hundred inserts or moves. Deletes pause while a replica's list
has fewer than 1,000 items. The output depends only on the options.

Usage: replica-workload.py [--base N] [--ops K] [--catchup M] [--seed S] [-o FILE]
(defaults: 100,000 items, 10,000 operations per replica, 1,000,000 catch-up operations, seed 27,
standard output).
"""
import argparse
import random
import sys


class Replica:
    """One replica's local view: the identifiers it sees (order does not matter for validity)."""

    def __init__(self, number, base, seed):
        self.number = number
        # A string seed hashes the same in every Python 3 run, unlike hash() of a tuple.
        self.rng = random.Random(f"replica-workload:{seed}:{number}")
        self.ids = [f"i{k}" for k in range(base)]
        self.where = {i: k for k, i in enumerate(self.ids)}
        self.counter = 0
        self.last_set = None

    def _add(self, i):
        self.where[i] = len(self.ids)
        self.ids.append(i)

    def _drop(self, i):
        # Swap-remove keeps random choice O(1); the list's order is not the list's order.
        k = self.where.pop(i)
        last = self.ids.pop()
        if last != i:
            self.ids[k] = last
            self.where[last] = k

    def _fresh(self):
        self.counter += 1
        return f"r{self.number}n{self.counter}"

    def _anchor(self, rng):
        return "null" if rng.random() < 0.01 else f'"{rng.choice(self.ids)}"'

    def _value(self, rng):
        return f"v{rng.randrange(1_000_000)}"

    def next_line(self):
        """Returns the JSON line of this replica's next operation, applied to its view."""
        rng, r = self.rng, self.number
        while True:
            x = rng.random()
            if x < 0.30:
                i = rng.choice(self.ids)
                self.last_set = i
                return f'{{"r": {r}, "op": "set", "id": "{i}", "value": "{self._value(rng)}"}}'
            if x < 0.50:
                i = rng.choice(self.ids)
                anchor = self._anchor(rng)
                if anchor == f'"{i}"':
                    continue  # an item cannot move next to itself
                return f'{{"r": {r}, "op": "move", "id": "{i}", "after": {anchor}}}'
            if x < 0.65:
                i = self._fresh()
                self._add(i)
                return f'{{"r": {r}, "op": "append", "id": "{i}", "value": "{self._value(rng)}"}}'
            if x < 0.75:
                if len(self.ids) < 1000:
                    continue
                i = rng.choice(self.ids)
                self._drop(i)
                return f'{{"r": {r}, "op": "delete", "id": "{i}"}}'
            if x < 0.85:
                anchor = self._anchor(rng)
                i = self._fresh()
                self._add(i)
                return (f'{{"r": {r}, "op": "insert", "id": "{i}", "after": {anchor}, '
                        f'"value": "{self._value(rng)}"}}')
            if x < 0.95:
                op = "expand" if rng.random() < 0.5 else "collapse"
                return f'{{"r": {r}, "op": "{op}", "id": "{rng.choice(self.ids)}"}}'
            i = self.last_set if self.last_set in self.where else rng.choice(self.ids)
            self.last_set = i
            return f'{{"r": {r}, "op": "set", "id": "{i}", "value": "{self._value(rng)}"}}'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=int, default=100_000, help="items in the shared list")
    parser.add_argument("--ops", type=int, default=10_000, help="merge-phase operations per replica")
    parser.add_argument("--catchup", type=int, default=1_000_000, help="catch-up operations by replica 0")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("-o", "--output", default="-", help="the workload file (default: standard output)")
    options = parser.parse_args()
    if options.base < 1 or options.ops < 0 or options.catchup < 0:
        parser.error("--base must be at least 1, --ops and --catchup at least 0")

    replicas = [Replica(r, options.base, options.seed) for r in range(2)]
    out = sys.stdout if options.output == "-" else open(options.output, "w")
    with out:
        out.write(f'{{"base": {options.base}, "seed": {options.seed}}}\n')
        out.write('{"phase": "merge", "replicas": 2}\n')
        lines = []
        for _ in range(options.ops):
            lines.append(replicas[0].next_line())
            lines.append(replicas[1].next_line())
        out.write("\n".join(lines) + "\n" if lines else "")
        out.write('{"phase": "catchup"}\n')
        next_line = replicas[0].next_line
        written = 0
        while written < options.catchup:
            chunk = min(100_000, options.catchup - written)
            out.write("\n".join([next_line() for _ in range(chunk)]) + "\n")
            written += chunk


if __name__ == "__main__":
    main()
