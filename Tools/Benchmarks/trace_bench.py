#!/usr/bin/env python3
"""ListJournal and Loro on sequential editing traces (josephg/editing-traces), side by side.

For each trace: the `listjournal exec` script is generated (trace_script.py; not timed), then
REPEATS rounds, each of
  1. `listjournal exec J SCRIPT` into a fresh journal (default flags): wall time of the process
     and its CPU time (user + system, all threads, from wait4);
  2. Loro on the same trace in a fresh process (Loro/loro_traces.py, one repeat per round): the
     apply loop's wall and CPU time, `LoroMovableList` and `LoroText`;
  3. and 4. the same two pinned to one core (`taskset -c 0`), unless --no-taskset.
Reported: medians and ranges over the rounds; the journal's bytes (the journal file; the read
index `exec` writes beside it reported apart) against Loro's snapshot with full history; and the
check that the items' contents in order (`listjournal show --format json`) equal the trace's
`endContent` (Loro checks its own values the same way).

Usage: trace_bench.py --listjournal BIN --loro-python PY --traces DIR [--names a,b] [--repeats N]
                      [--no-taskset] [--work DIR]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_script  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LORO_RUNNER = os.path.join(HERE, "Loro", "loro_traces.py")


def find_trace(directory, name):
    for suffix in (".json.gz", ".json"):
        path = os.path.join(directory, name + suffix)
        if os.path.exists(path):
            return path
    sys.exit(f"trace_bench.py: no {name}.json.gz or {name}.json in {directory}")


def timed_process(argv):
    """Runs argv; returns (wall s, CPU s, peak RSS MiB, exit status, stderr)."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr_chunks = []
    # wait4 gives the child's own rusage; stderr is read first so that a chatty child never blocks.
    stderr_chunks.append(process.stderr.read())
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, process.returncode,
            b"".join(stderr_chunks).decode("utf-8", "replace"))


def journal_files(journal):
    directory, base = os.path.split(journal)
    return sorted(os.path.join(directory, f) for f in os.listdir(directory) if f.startswith(base))


def run_exec(binary, journal, script, pin):
    for path in journal_files(journal):
        os.remove(path)
    argv = ([ "taskset", "-c", "0"] if pin else []) + [binary, "exec", journal, script]
    wall, cpu, rss, status, stderr = timed_process(argv)
    sizes = {os.path.basename(p): os.path.getsize(p) for p in journal_files(journal)}
    return {"wall_s": wall, "cpu_s": cpu, "rss_mib": rss, "status": status,
            "stderr": stderr.strip()[-2000:], "files": sizes,
            "journal_bytes": sizes.get(os.path.basename(journal), 0)}


def run_loro(python, trace, pin):
    argv = (["taskset", "-c", "0"] if pin else []) + [python, LORO_RUNNER, trace, "--repeats", "1"]
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    return {shape: runs[0] for shape, runs in result["shapes"].items()}, result["loro"]


def read_back(binary, journal):
    """The items' contents in order, mapped back to characters, and the head version."""
    out = subprocess.run([binary, "show", journal, "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    state = json.loads(out)
    chars = []

    def walk(items):
        for item in items:
            chars.append(trace_script.item_text(item["content"]))
            walk(item["children"])

    for section in state["sections"]:
        walk(section["items"])
    return "".join(chars), state["version"]


def journal_info(binary, journal):
    """`listjournal info`'s lines about the records (what the journal's bytes are made of)."""
    out = subprocess.run([binary, "info", journal], check=True, capture_output=True, text=True).stdout
    keep = ("records:", "checkpoints:", "frames:", "events:")
    return "; ".join(line.strip() for line in out.splitlines() if line.startswith(keep))


def med(values):
    return statistics.median(values)


def span(values, scale=1.0, fmt="{:.2f}"):
    m = med(values) * scale
    lo, hi = min(values) * scale, max(values) * scale
    return f"{fmt.format(m)} ({fmt.format(lo)}–{fmt.format(hi)})"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listjournal", required=True)
    parser.add_argument("--loro-python", required=True)
    parser.add_argument("--traces", required=True, help="a directory of sequential_traces/*.json.gz")
    parser.add_argument("--names", default="seph-blog1,sveltecomponent,rustcode,automerge-paper")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-taskset", action="store_true")
    parser.add_argument("--work", help="where scripts and journals go (default: a temporary directory)")
    parser.add_argument("--header", default="")
    args = parser.parse_args()

    work = args.work or tempfile.mkdtemp(prefix="bench-traces-")
    os.makedirs(work, exist_ok=True)
    pins = [False] if args.no_taskset else [False, True]
    load_before = open("/proc/loadavg").read().split()[:3]
    out = []

    def say(line=""):
        print(line, flush=True)
        out.append(line)

    summary = []
    failures = 0
    loro_version = "?"
    for name in args.names.split(","):
        path = find_trace(args.traces, name)
        trace = trace_script.load(path)
        end = trace["endContent"]
        txns = len(trace["txns"])
        patches = sum(len(t["patches"]) for t in trace["txns"])
        inserted = sum(len(p[2]) for t in trace["txns"] for p in t["patches"])
        deleted = sum(p[1] for t in trace["txns"] for p in t["patches"])
        if trace_script.replayed_text(trace) != end:
            sys.exit(f"trace_bench.py: {name}: the trace does not replay to its endContent")
        script = os.path.join(work, name + ".list")
        t0 = time.perf_counter()
        lines, script_bytes = trace_script.write_script(trace, script)
        generate_s = time.perf_counter() - t0
        del trace
        journal = os.path.join(work, name + ".journal")
        say(f"## {name}: {txns:,} transactions, {patches:,} patches, {inserted:,} characters inserted, "
            f"{deleted:,} deleted, final text {len(end):,} characters")
        say(f"script: {lines:,} lines, {script_bytes:,} bytes (generated in {generate_s:.1f} s, not timed)")
        runs = {(engine, pin): [] for engine in ("lj", "loro") for pin in pins}
        lj_check = None
        for round_ in range(args.repeats):
            for pin in pins:
                lj = run_exec(args.listjournal, journal, script, pin)
                if lj["status"] != 0:
                    say(f"exec FAILED (status {lj['status']}, pinned {pin}): {lj['stderr']}")
                    failures += 1
                runs[("lj", pin)].append(lj)
                if not pin and round_ == args.repeats - 1 and lj["status"] == 0:
                    text, version = read_back(args.listjournal, journal)
                    lj_check = (text == end, version, len(text))
                    info = journal_info(args.listjournal, journal)
                loro, loro_version = run_loro(args.loro_python, path, pin)
                runs[("loro", pin)].append(loro)
                tag = " (taskset -c 0)" if pin else ""
                say(f"round {round_ + 1}{tag}: exec {lj['wall_s']:.2f} s wall, {lj['cpu_s']:.2f} s CPU; "
                    f"Loro movable {loro['movable']['wall_s']:.2f} s wall, {loro['movable']['cpu_s']:.2f} s CPU; "
                    f"text {loro['text']['wall_s']:.3f} s wall")
        lj_runs = runs[("lj", False)]
        sizes = sorted(r["journal_bytes"] for r in lj_runs)
        journal_bytes = int(med(sizes))
        files = lj_runs[-1]["files"]
        loro_m = runs[("loro", False)][-1]["movable"]
        loro_t = runs[("loro", False)][-1]["text"]
        ok = lj_check is not None and lj_check[0]
        loro_ok = all(r[s]["end_matches"] for pin in pins for r in runs[("loro", pin)] for s in r)
        if not ok or not loro_ok:
            failures += 1
        say(f"journal: {journal_bytes:,} bytes (median; runs {sizes[0]:,}–{sizes[-1]:,}, as commits fall into chunks "
            f"differently), {journal_bytes / txns:.2f} B/transaction; last run's files {files}")
        if lj_check is not None:
            say(f"listjournal info (last run): {info}")
        say(f"Loro movable list: snapshot {loro_m['snapshot_bytes']:,} bytes, updates {loro_m['updates_bytes']:,}, "
            f"{loro_m['changes']:,} changes, {loro_m['ops']:,} ops; text: snapshot {loro_t['snapshot_bytes']:,}, "
            f"updates {loro_t['updates_bytes']:,}")
        say(f"journal / Loro movable snapshot: {journal_bytes / loro_m['snapshot_bytes']:.2f}×; "
            f"/ Loro text snapshot: {journal_bytes / loro_t['snapshot_bytes']:.2f}×")
        if lj_check is None:
            say("final text: not checked (exec failed)")
        else:
            say(f"final text: {'equals' if ok else 'DIFFERS FROM'} endContent ({lj_check[2]:,} characters, "
                f"head version {lj_check[1]:,}); Loro's: {'equal' if loro_ok else 'DIFFER'}")
        for pin in pins:
            tag = " (taskset -c 0)" if pin else ""
            lj = runs[("lj", pin)]
            lm = [r["movable"] for r in runs[("loro", pin)]]
            lt = [r["text"] for r in runs[("loro", pin)]]
            say(f"ingest{tag}, median (min–max) of {args.repeats}:")
            say(f"  listjournal exec   wall {span([r['wall_s'] for r in lj])} s, CPU {span([r['cpu_s'] for r in lj])} s, "
                f"peak RSS {max(r['rss_mib'] for r in lj):.0f} MiB")
            say(f"  Loro MovableList   wall {span([r['wall_s'] for r in lm])} s, CPU {span([r['cpu_s'] for r in lm])} s")
            say(f"  Loro LoroText      wall {span([r['wall_s'] for r in lt], fmt='{:.3f}')} s, "
                f"CPU {span([r['cpu_s'] for r in lt], fmt='{:.3f}')} s")
            summary.append((name, pin, med([r['wall_s'] for r in lj]), med([r['cpu_s'] for r in lj]),
                            med([r['wall_s'] for r in lm]), med([r['cpu_s'] for r in lm]),
                            journal_bytes, loro_m["snapshot_bytes"], ok))
        say()

    load_after = open("/proc/loadavg").read().split()[:3]
    say("## summary (medians; journal bytes vs Loro MovableList snapshot with full history)")
    say("| trace | pinned | exec wall / CPU | Loro wall / CPU | exec / Loro wall, CPU | journal | Loro snapshot | ratio | text ok |")
    say("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, pin, lw, lc, mw, mc, jb, sb, ok in summary:
        say(f"| {name} | {'taskset -c 0' if pin else 'no'} | {lw:.2f} / {lc:.2f} s | {mw:.2f} / {mc:.2f} s | "
            f"{lw / mw:.2f}×, {lc / mc:.2f}× | {jb:,} | {sb:,} | {jb / sb:.2f}× | {'yes' if ok else 'NO'} |")
    header = (f"# Tools/bench-traces: listjournal exec (default release build, default flags) and Loro "
              f"{loro_version} (PyPI) on editing traces; {args.header}load average "
              f"{' '.join(load_before)} -> {' '.join(load_after)}, {os.cpu_count()} cores")
    print(header, flush=True)
    if os.environ.get("TRACE_BENCH_RESULTS"):
        with open(os.environ["TRACE_BENCH_RESULTS"], "w") as f:
            f.write(header + "\n" + "\n".join(out) + "\n")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
