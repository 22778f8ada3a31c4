#!/usr/bin/env python3
"""Subscription state figures (issue 10): state size per source and per remembered item, and a
`--due` run over a state of 100,000 sources with 1,000 due (wall time, peak RSS).

    bench/state.py [--feedpull .build/release/feedpull] [--runs 5]

Sizes come from feedpull itself pulling local files with --state (the file is checkpointed and
measured). The 100,000-source state is made by feedpull for its schema and then filled with
Python's sqlite3 (rows shaped like the ones feedpull writes: its own exported state JSON, with
the source name changed); the 1,000 due sources are small local feeds, so the run measures the
state work and local parsing, no network. Every figure is the median of --runs runs (min–max).
Wall time and peak RSS come from /usr/bin/time.
"""

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile


def feed(name, items):
    entries = "".join(
        f"<item><title>{name} item {i}</title><link>https://example.com/{name}/posts/{i}</link>"
        f"<guid>https://example.com/{name}/posts/{i}#guid</guid><description>Text of item {i}."
        f"</description></item>" for i in range(items))
    return (f'<?xml version="1.0"?><rss version="2.0"><channel><title>{name}</title>'
            f"<link>https://example.com/{name}</link>{entries}</channel></rss>")


def measured(argv, stdin=None):
    """(wall seconds, peak RSS KiB, exit status, `end` records) of one run under /usr/bin/time."""
    with tempfile.TemporaryFile() as out:
        result = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + argv, stdin=stdin,
                                stdout=out, stderr=subprocess.PIPE, text=True)
        out.seek(0)
        ends = sum(1 for line in out if line.startswith(b'{"type":"end"'))
    wall, rss = result.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss), result.returncode, ends


def execute(path, sql):
    """Runs one statement and folds the WAL into the file, so a copy of the file has it."""
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def checkpointed_size(path):
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("VACUUM")
    db.close()
    return os.path.getsize(path)


def sizes(feedpull, work):
    """Bytes per source and per remembered item, from two states that differ only in items."""
    results = {}
    count = 2000
    for items in (1, 51):
        folder = os.path.join(work, f"size{items}")
        os.makedirs(folder)
        paths = []
        for i in range(count):
            path = os.path.join(folder, f"feed{i}.xml")
            with open(path, "w") as out:
                out.write(feed(f"source{i}", items))
            paths.append(path)
        listing = os.path.join(folder, "list.txt")
        with open(listing, "w") as out:
            out.write("\n".join(paths))
        state = os.path.join(folder, "state.db")
        subprocess.run([feedpull, "-f", "jsonl", "--state", state, "-i", listing],
                       stdout=subprocess.DEVNULL, check=True)
        results[items] = checkpointed_size(state)
    per_item = (results[51] - results[1]) / (count * 50)
    per_source = results[1] / count - per_item
    return per_source, per_item, results


def big_state(feedpull, work, total, due):
    """A state of `total` sources, `due` of them due (local feeds), the rest next week."""
    folder = os.path.join(work, "big")
    os.makedirs(folder)
    sample = os.path.join(folder, "sample.xml")
    with open(sample, "w") as out:
        out.write(feed("sample", 10))
    state = os.path.join(folder, "state.db")
    subprocess.run([feedpull, "-f", "jsonl", "--state", state, sample],
                   stdout=subprocess.DEVNULL, check=True)
    exported = subprocess.run([feedpull, "state", "export", "--state", state],
                              capture_output=True, text=True, check=True).stdout
    template = json.loads(exported.splitlines()[0])
    due_paths = []
    for i in range(due):
        path = os.path.join(folder, f"due{i}.xml")
        with open(path, "w") as out:
            out.write(feed(f"due{i}", 10))
        due_paths.append(path)
    later = template["nextCheckAt"] + 7 * 86400
    rows = []
    for i in range(total):
        source = due_paths[i] if i < due else f"https://host{i % 5000}.example/feed/{i}.xml"
        row_state = dict(template, source=source)
        next_check = 0 if i < due else later
        row_state["nextCheckAt"] = next_check
        rows.append((source, next_check, json.dumps(row_state)))
    db = sqlite3.connect(state)
    db.execute("DELETE FROM items")
    db.execute("DELETE FROM sources")
    db.executemany("INSERT INTO sources(source, next_check_at, state) VALUES(?, ?, ?)", rows)
    db.commit()
    db.close()
    checkpointed_size(state)
    listing = os.path.join(folder, "list.txt")
    with open(listing, "w") as out:
        out.write("\n".join(r[0] for r in rows))
    return state, listing


def median_run(argv, state, runs, expected_ends):
    walls, rsses = [], []
    for _ in range(runs):
        copy = state + ".run"
        for suffix in ("-wal", "-shm"):
            if os.path.exists(copy + suffix):
                os.remove(copy + suffix)
        shutil.copyfile(state, copy)
        wall, rss, status, ends = measured([a if a != "STATE" else copy for a in argv])
        if status not in (0, 1) or ends != expected_ends:
            sys.exit(f"run failed: status {status}, {ends} sources ended, not "
                     f"{expected_ends}: {argv}")
        walls.append(wall)
        rsses.append(rss)
        # A stale -wal beside the next fresh copy would be replayed into it.
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(copy + suffix):
                os.remove(copy + suffix)
    return walls, rsses


def show(label, walls, rsses):
    print(f"| {label} | {statistics.median(walls):.3f} s ({min(walls):.3f}–{max(walls):.3f}) "
          f"| {statistics.median(rsses) / 1024:.1f} MiB ({min(rsses) / 1024:.1f}–"
          f"{max(rsses) / 1024:.1f}) |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--feedpull", default=".build/release/feedpull")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sources", type=int, default=100_000)
    parser.add_argument("--due", type=int, default=1_000)
    args = parser.parse_args()
    feedpull = os.path.abspath(args.feedpull)
    work = tempfile.mkdtemp(prefix="feedpull-state-bench-")
    try:
        per_source, per_item, raw = sizes(feedpull, work)
        print("| state size | bytes | target |\n| --- | --- | --- |")
        print(f"| per source | {per_source:.0f} | ≤ 1024 |")
        print(f"| per remembered item | {per_item:.0f} | ≤ 200 |")
        print(f"\n(2,000 sources: {raw[1]:,} bytes with 1 item each, {raw[51]:,} with 51)\n")

        state, listing = big_state(feedpull, work, args.sources, args.due)
        print(f"| {args.sources:,} sources, {args.due:,} due | wall | peak RSS |")
        print("| --- | --- | --- |")
        idle = state + ".idle"
        shutil.copyfile(state, idle)
        execute(idle, "UPDATE sources SET next_check_at = (SELECT max(next_check_at) FROM sources)")
        show("`--due`, nothing due (open + pick)", *median_run(
            [feedpull, "-f", "jsonl", "--state", "STATE", "--due"], idle, args.runs, 0))
        show(f"`--due`, {args.due:,} due (pick + pull {args.due:,} local feeds)", *median_run(
            [feedpull, "-f", "jsonl", "--state", "STATE", "--due"], state, args.runs, args.due))
        show(f"`--due -i` a list of {args.sources:,}, {args.due:,} due", *median_run(
            [feedpull, "-f", "jsonl", "--state", "STATE", "--due", "-i", listing], state,
            args.runs, args.due))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
