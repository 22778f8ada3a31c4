#!/usr/bin/env python3
"""Subscription state figures: state size per source and per remembered item; peak memory of a
one-shot run over 10,000 and 100,000 sources with and without --state, local files (--flat) and
URLs of a private nginx on 127.0.0.1 (--flat-http) (it must not grow with the number of
sources); and `--due` runs over a state of --sources sources with --due of them due (wall time,
CPU, peak RSS), alone and with the whole list given (`-i`, every source named: the due ones
pulled, the others ending `skipped: not_due`).

    bench/state.py [--feedpull .build/release/feedpull] [--runs 5] [--sources 1000000]
    bench/state.py --only-flat --flat "" --flat-http 10000,100000 --runs 3
    bench/state.py --paired-due-list OLD_FEEDPULL --sources 1000000 --runs 5 [--spread] [--opml]

Sizes come from feedpull itself pulling local files with --state (the file is checkpointed and
measured). The large state is made by feedpull for its schema and one pulled row, then filled
with Python's sqlite3 (every row a copy of that one's columns, with the source name changed);
the due sources are small local feeds, so the runs measure the state work and local parsing, no
network. Each run starts from a copy of the large state that is synced to disk first, as the
state a previous run checkpointed is. Every figure is the median of --runs runs (min–max). Wall
time, CPU (user + system) and peak RSS come from /usr/bin/time.
"""

import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time


def feed(name, items):
    entries = "".join(
        f"<item><title>{name} item {i}</title><link>https://example.com/{name}/posts/{i}</link>"
        f"<guid>https://example.com/{name}/posts/{i}#guid</guid><description>Text of item {i}."
        f"</description></item>" for i in range(items))
    return (f'<?xml version="1.0"?><rss version="2.0"><channel><title>{name}</title>'
            f"<link>https://example.com/{name}</link>{entries}</channel></rss>")


def measured(argv, stdin=None):
    """(wall seconds, peak RSS KiB, exit status, `end` records, CPU seconds) of one run under
    /usr/bin/time."""
    with tempfile.TemporaryFile() as out:
        result = subprocess.run(["/usr/bin/time", "-f", "%e %M %U %S"] + argv, stdin=stdin,
                                stdout=out, stderr=subprocess.PIPE, text=True)
        out.seek(0)
        ends = sum(1 for line in out if line.startswith(b'{"type":"end"'))
    wall, rss, user, system = result.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss), result.returncode, ends, float(user) + float(system)


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


def wal_bytes_written(argv, state):
    """Bytes the run writes to the state's write-ahead log (strace: every pwrite64 to the
    descriptor it opened `-wal` on) and the size of the state it leaves (checkpointed)."""
    trace = state + ".strace"
    subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat,pwrite64", "-o", trace] + argv,
                   stdout=subprocess.DEVNULL, check=True)
    wal_fds, written, pending = set(), 0, {}
    with open(trace) as lines:
        for line in lines:
            if "openat(" in line and state + '-wal"' in line and "= " in line:
                wal_fds.add(line.rsplit("= ", 1)[1].split()[0])
            elif "pwrite64(" in line:
                # A call another thread's interrupted ends `<unfinished ...>`: its result comes
                # on a `resumed` line of that thread.
                fd = line.split("pwrite64(", 1)[1].split(",", 1)[0]
                pending[line.split()[0]] = fd
                result = re.search(r"= (\d+)$", line.rstrip())
                if result and fd in wal_fds:
                    written += int(result.group(1))
            elif "pwrite64 resumed" in line:
                result = re.search(r"= (\d+)$", line.rstrip())
                if result and pending.get(line.split()[0]) in wal_fds:
                    written += int(result.group(1))
    os.remove(trace)
    return written, checkpointed_size(state)


def big_state(feedpull, work, total, due, spread=False):
    """A state of `total` sources, `due` of them due (local feeds), the rest next week: the due
    ones first in the state and the list, or (`spread`) one every `total // due` rows, as a
    subscription's due sources fall in practice."""
    folder = os.path.join(work, "big")
    os.makedirs(folder)
    sample = os.path.join(folder, "sample.xml")
    with open(sample, "w") as out:
        out.write(feed("sample", 10))
    state = os.path.join(folder, "state.db")
    # feedpull makes the file, its schema and one row of a pulled source: the others copy it.
    subprocess.run([feedpull, "-f", "jsonl", "--state", state, sample],
                   stdout=subprocess.DEVNULL, check=True)
    db = sqlite3.connect(state)
    columns = [row[1] for row in db.execute("PRAGMA table_info(sources)")
               if row[1] not in ("id", "source", "next_check_at", "lease_until", "lease_owner")]
    template = db.execute("SELECT %s FROM sources" % ", ".join(columns)).fetchone()
    due_paths = []
    for i in range(due):
        path = os.path.join(folder, f"due{i}.xml")
        with open(path, "w") as out:
            out.write(feed(f"due{i}", 10))
        due_paths.append(path)
    later = int(time.time()) + 7 * 86400

    step = max(1, total // max(1, due)) if spread else 1
    due_rows = {i * step: path for i, path in enumerate(due_paths)}

    def name(i):
        return due_rows.get(i) or f"https://host{i % 5000}.example/feed/{i}.xml"

    def rows():
        for i in range(total):
            yield (name(i), 0 if i in due_rows else later) + tuple(template)

    db.execute("DELETE FROM items")
    db.execute("DELETE FROM sources")
    db.executemany("INSERT INTO sources(source, next_check_at, %s) VALUES(?, ?, %s)" % (
        ", ".join(columns), ", ".join("?" * len(columns))), rows())
    db.commit()
    db.close()
    checkpointed_size(state)
    listing = os.path.join(folder, "list.txt")
    with open(listing, "w") as out:
        for i in range(total):
            out.write(name(i) + "\n")
    # The same list as an OPML subscription list, as a feed reader exports it.
    with open(os.path.join(folder, "list.opml"), "w") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n'
                  '<head><title>subscriptions</title></head>\n<body>\n')
        for i in range(total):
            url = name(i)
            out.write(f'<outline type="rss" text="Feed {i}" title="Feed {i}" xmlUrl="{url}" '
                      f'htmlUrl="https://host{i % 5000}.example/"/>\n')
        out.write("</body>\n</opml>\n")
    return state, listing


def link(first, path, i):
    """`path` as a hard link to `first`, or to a copy of it for each 50,000 (a file has at most
    65,000 links on ext4)."""
    if i % 50_000 == 0:
        shutil.copyfile(first, path)
    else:
        os.link(first if i < 50_000 else
                os.path.join(os.path.dirname(path), f"f{i - i % 50_000}.xml"), path)


def flat_memory(feedpull, work, counts, runs):
    """Peak RSS of a one-shot run over N local sources (one small feed, hard-linked N times),
    with and without --state: memory must not grow with the number of sources."""
    folder = os.path.join(work, "flat")
    os.makedirs(folder)
    first = os.path.join(folder, "f0.xml")
    with open(first, "w") as out:
        out.write(feed("flat", 5))
    print("| one-shot run over N local sources | without state: wall, peak RSS | with --state: "
          "wall, peak RSS |\n| --- | --- | --- |")
    made = 1
    for count in counts:
        for i in range(made, count):
            link(first, os.path.join(folder, f"f{i}.xml"), i)
        made = max(made, count)
        listing = os.path.join(folder, f"list{count}.txt")
        with open(listing, "w") as out:
            out.write("\n".join(os.path.join(folder, f"f{i}.xml") for i in range(count)) + "\n")
        cells = []
        for with_state in (False, True):
            walls, rsses = [], []
            for _ in range(runs):
                state = os.path.join(folder, "state.db")
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(state + suffix):
                        os.remove(state + suffix)
                argv = [feedpull, "-f", "jsonl", "-i", listing]
                if with_state:
                    argv += ["--state", state]
                wall, rss, status, ends, _ = measured(argv)
                if status != 0 or ends != count:
                    sys.exit(f"flat run failed: status {status}, {ends} ends of {count}")
                walls.append(wall)
                rsses.append(rss)
            cells.append(f"{statistics.median(walls):.2f} s, "
                         f"{statistics.median(rsses) / 1024:.1f} MiB")
        print(f"| {count:,} | {cells[0]} | {cells[1]} |")
    print()


def flat_memory_http(feedpull, work, counts, runs):
    """The same over HTTP: N URLs of a private nginx on 127.0.0.1 (bench/harness/fetch_many.py's,
    one small feed hard-linked N times), so that each source also costs a transfer, its headers
    and its connection's share: peak RSS must still not grow with N."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness"))
    from fetch_many import Nginx
    folder = os.path.join(work, "flat-http")
    os.makedirs(folder)
    first = os.path.join(folder, "f0.xml")
    with open(first, "w") as out:
        out.write(feed("flat", 5))
    for i in range(1, max(counts)):
        link(first, os.path.join(folder, f"f{i}.xml"), i)
    nginx = Nginx(os.path.join(work, "nginx"), folder)
    try:
        print("| one-shot run over N http sources (nginx, 127.0.0.1) | without state: wall, peak "
              "RSS | with --state: wall, peak RSS |\n| --- | --- | --- |")
        for count in counts:
            listing = os.path.join(work, f"urls{count}.txt")
            with open(listing, "w") as out:
                out.write("".join(f"http://127.0.0.1:{nginx.port}/plain/f{i}.xml\n"
                                  for i in range(count)))
            cells = []
            for with_state in (False, True):
                walls, rsses = [], []
                for _ in range(runs):
                    state = os.path.join(work, "http-state.db")
                    for suffix in ("", "-wal", "-shm"):
                        if os.path.exists(state + suffix):
                            os.remove(state + suffix)
                    # One host: without these, politeness spaces its requests a second apart.
                    argv = [feedpull, "-f", "jsonl", "-j", "16", "--per-host", "16",
                            "--host-delay", "0", "-i", listing]
                    if with_state:
                        argv += ["--state", state]
                    wall, rss, status, ends, _ = measured(argv)
                    if status != 0 or ends != count:
                        sys.exit(f"http run failed: status {status}, {ends} ends of {count}")
                    walls.append(wall)
                    rsses.append(rss)
                cells.append(f"{statistics.median(walls):.2f} s, "
                             f"{statistics.median(rsses) / 1024:.1f} MiB "
                             f"({min(rsses) / 1024:.1f}–{max(rsses) / 1024:.1f})")
            print(f"| {count:,} | {cells[0]} | {cells[1]} |")
        print()
    finally:
        nginx.stop()


def settle(path):
    """Writes `path` to the disk, and whatever else the page cache holds dirty (an earlier
    run's output), so that a run does not pay for the benchmark's own writes."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.sync()


def median_run(argv, state, runs, expected_ends):
    walls, rsses, cpus = [], [], []
    for _ in range(runs):
        copy = state + ".run"
        for suffix in ("-wal", "-shm"):
            if os.path.exists(copy + suffix):
                os.remove(copy + suffix)
        shutil.copyfile(state, copy)
        # On disk before the clock starts, as a state file a previous run checkpointed is: a
        # copy left in the page cache was written back during the run (the checkpoint's
        # `fdatasync` waited for all of it), and that writeback was 0.5 s of a 2 s run.
        settle(copy)
        wall, rss, status, ends, cpu = measured(
            [a if a != "STATE" else copy for a in argv])
        if status not in (0, 1) or ends != expected_ends:
            sys.exit(f"run failed: status {status}, {ends} sources ended, not "
                     f"{expected_ends}: {argv}")
        walls.append(wall)
        rsses.append(rss)
        cpus.append(cpu)
        # A stale -wal beside the next fresh copy would be replayed into it.
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(copy + suffix):
                os.remove(copy + suffix)
    return walls, rsses, cpus


def show(label, walls, rsses, cpus):
    print(f"| {label} | {statistics.median(walls):.3f} s ({min(walls):.3f}–{max(walls):.3f}) "
          f"| {statistics.median(cpus):.2f} s ({min(cpus):.2f}–{max(cpus):.2f}) "
          f"| {statistics.median(rsses) / 1024:.1f} MiB ({min(rsses) / 1024:.1f}–"
          f"{max(rsses) / 1024:.1f}) |")


def paired_due_list(feedpull, baseline, work, args):
    """`--due -i` over the whole list, the baseline and feedpull alternated run by run, so that
    both meet the same load."""
    state, listing = big_state(feedpull, work, args.sources, args.due, args.spread)
    # With --opml, feedpull reads the list as OPML and the baseline as one a line: what the
    # format costs beyond the list's names (the baseline may be the same binary).
    opml = os.path.splitext(listing)[0] + ".opml" if args.opml else listing
    roles = [("baseline", baseline, listing), ("now", feedpull, opml)]
    runs = {role: ([], [], []) for role, _, _ in roles}
    for _ in range(args.runs):
        for role, binary, path in roles:
            one = median_run([binary, "-f", "jsonl", "--state", "STATE", "--due", "-i", path],
                             state, 1, args.sources)
            for values, value in zip(runs[role], one):
                values.extend(value)
    where = "spread through the list" if args.spread else "first in the list"
    kind = " (now as OPML, the baseline one a line)" if args.opml else ""
    print(f"| `--due -i`, {args.sources:,} listed{kind}, {args.due:,} due ({where}) | wall | CPU | "
          "peak RSS |")
    print("| --- | --- | --- | --- |")
    show(f"baseline ({os.path.basename(baseline)})", *runs["baseline"])
    show(f"now ({os.path.basename(feedpull)})", *runs["now"])
    print(f"(load {os.getloadavg()[0]:.1f} at the end)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--feedpull", default=".build/release/feedpull")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sources", type=int, default=100_000)
    parser.add_argument("--due", type=int, default=1_000)
    parser.add_argument("--flat", default="10000,100000",
                        help="source counts of the one-shot memory runs (empty: none)")
    parser.add_argument("--flat-http", default="10000,100000",
                        help="source counts of the one-shot memory runs over HTTP from nginx "
                        "(empty: none)")
    parser.add_argument("--paired-due-list", metavar="BASELINE",
                        help="the `--due -i` runs only, alternating BASELINE (another feedpull "
                        "binary) and --feedpull run by run over the same state")
    parser.add_argument("--opml", action="store_true",
                        help="with --paired-due-list: feedpull reads the list as OPML, the "
                        "baseline (which may be the same binary) reads it one a line")
    parser.add_argument("--spread", action="store_true",
                        help="the due sources spread evenly through the large state and its "
                        "list (one every sources/due rows) instead of first in both")
    parser.add_argument("--only-flat", action="store_true",
                        help="the one-shot memory runs only (no sizes, no --due runs)")
    args = parser.parse_args()
    feedpull = os.path.abspath(args.feedpull)
    work = tempfile.mkdtemp(prefix="feedpull-state-bench-")
    try:
        if args.paired_due_list:
            paired_due_list(feedpull, os.path.abspath(args.paired_due_list), work, args)
            return
        if not args.only_flat:
            per_source, per_item, raw = sizes(feedpull, work)
            print("| state size | bytes | target |\n| --- | --- | --- |")
            print(f"| per source | {per_source:.0f} | ≤ 1024 |")
            print(f"| per remembered item | {per_item:.0f} | ≤ 200 |")
            print(f"\n(2,000 sources: {raw[1]:,} bytes with 1 item each, {raw[51]:,} with 51)\n")
            if shutil.which("strace"):
                folder = os.path.join(work, "size51")
                state = os.path.join(work, "wal.db")
                written, size = wal_bytes_written(
                    [feedpull, "-f", "jsonl", "--state", state, "-i",
                     os.path.join(folder, "list.txt")], state)
                print(f"First pull of 2,000 sources with 51 items each: {written:,} bytes written "
                      f"to the WAL for a state of {size:,} bytes ({written / size:.1f}×; "
                      f"{written / 2000:,.0f} bytes a source).\n")

        if args.flat:
            flat_memory(feedpull, work, [int(n) for n in args.flat.split(",")], args.runs)
        if args.flat_http:
            flat_memory_http(feedpull, work, [int(n) for n in args.flat_http.split(",")],
                             args.runs)
        if args.only_flat:
            return

        state, listing = big_state(feedpull, work, args.sources, args.due, args.spread)
        print(f"| {args.sources:,} sources, {args.due:,} due | wall | CPU | peak RSS |")
        print("| --- | --- | --- | --- |")
        idle = state + ".idle"
        shutil.copyfile(state, idle)
        execute(idle, "UPDATE sources SET next_check_at = (SELECT max(next_check_at) FROM sources)")
        show("`--due`, nothing due (open + pick)", *median_run(
            [feedpull, "-f", "jsonl", "--state", "STATE", "--due"], idle, args.runs, 0))
        show(f"`--due`, {args.due:,} due (pick + pull {args.due:,} local feeds)", *median_run(
            [feedpull, "-f", "jsonl", "--state", "STATE", "--due"], state, args.runs, args.due))
        # Every source of the list ends: the due ones pulled, the others `skipped: not_due`.
        show(f"`--due -i` a list of {args.sources:,}, {args.due:,} due", *median_run(
            [feedpull, "-f", "jsonl", "--state", "STATE", "--due", "-i", listing], state,
            args.runs, args.sources))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
