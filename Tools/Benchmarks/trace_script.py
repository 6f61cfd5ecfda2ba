#!/usr/bin/env python3
"""A sequential editing trace (josephg/editing-traces, `sequential_traces/*.json.gz`) as a
`listjournal exec` script: the text as a list of one-character items.

The trace's format: `{"startContent": "", "endContent": "...", "txns": [{"patches":
[[pos, deleted, "inserted"], ...]}, ...]}`; positions count Unicode code points and each patch
applies in order (`text[:pos] + inserted + text[pos + deleted:]`).

The script, one section `T`, items `c1`, `c2`, ... numbered in the order they are created:
  - an insert of "ab" at position p is one command with contents on creation,
    `insert c7="a" c8="b" after cK` where cK is the item at p - 1; at position 0
    `insert ... before` the first item, into an empty list `append ... to T`;
  - a delete of n characters at p is `delete cI cJ ...` naming the n items from p;
  - a patch that deletes and inserts is the delete, then the insert;
  - a trace transaction is one version: a single command alone on its line, several commands
    between `begin` and `commit`. The first transaction also creates the section, so the journal
    has exactly one version per trace transaction.

Every item's content is its character, written as a quoted token (`"`, `\\` and a line
break escaped: `\\"`, `\\\\`, `\\n`). Turning positions into item identifiers
is this script's bookkeeping; the benchmark times only `listjournal exec`.

Usage: trace_script.py TRACE.json.gz -o SCRIPT.list   (prints a one-line summary)
"""
import argparse
import gzip
import json
import sys

SECTION = "T"


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def _content_token(ch):
    if ch == "\n":
        return '"\\n"'
    if ch == "\r":
        return '"\\r"'
    if ch == '"':
        return '"\\""'
    if ch == "\\":
        return '"\\\\"'
    return '"' + ch + '"'


def item_text(content):
    """The character an item's content stands for."""
    return content


def script_lines(trace):
    """Yields the script's lines, checking that each patch fits the text built so far."""
    ids = []  # the items' numbers in list order
    counter = 0
    first = True
    for txn in trace["txns"]:
        commands = []
        if first:
            commands.append(f"append-sections {SECTION}")
            first = False
        for pos, deleted, inserted in txn["patches"]:
            if pos + deleted > len(ids):
                raise ValueError(f"patch {[pos, deleted]} past the end of a {len(ids)}-character text")
            if deleted:
                commands.append("delete " + " ".join(f"c{i}" for i in ids[pos:pos + deleted]))
                del ids[pos:pos + deleted]
            if inserted:
                new = range(counter + 1, counter + len(inserted) + 1)
                counter += len(inserted)
                items = " ".join(f"c{n}={_content_token(ch)}" for n, ch in zip(new, inserted))
                if pos > 0:
                    commands.append(f"insert {items} after c{ids[pos - 1]}")
                elif ids:
                    commands.append(f"insert {items} before c{ids[0]}")
                else:
                    commands.append(f"append {items} to {SECTION}")
                ids[pos:pos] = new
        if len(commands) == 1:
            yield commands[0]
        else:
            yield "begin"
            yield from commands
            yield "commit"


def write_script(trace, path):
    """Writes the script; returns (lines, bytes)."""
    lines = 0
    size = 0
    with open(path, "w", encoding="utf-8") as f:
        for line in script_lines(trace):
            f.write(line)
            f.write("\n")
            lines += 1
            size += len(line.encode("utf-8")) + 1
    return lines, size


def replayed_text(trace):
    """The trace applied to a Python string, as a check of the trace itself."""
    parts = list(trace.get("startContent", ""))
    for txn in trace["txns"]:
        for pos, deleted, inserted in txn["patches"]:
            parts[pos:pos + deleted] = list(inserted)
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    trace = load(args.trace)
    if trace.get("startContent", ""):
        sys.exit("trace_script.py: traces with a start content are not supported")
    lines, size = write_script(trace, args.output)
    print(f"{args.trace}: {len(trace['txns'])} transactions -> {lines} lines, {size:,} bytes")


if __name__ == "__main__":
    main()
