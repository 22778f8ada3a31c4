#!/usr/bin/env python3
"""Watch mode figures: the cost of an idle watch, a pass of a watch against a one-shot
`--state --due` run, a bounded soak (RSS, open fds and state size across passes), and the memory
a watch holds per source.

    bench/watch.py [--feedpull .build/release/feedpull] [--section idle|pass|soak|memory|all]

idle: 10,000 local sources put in a state by a one-shot run (--min-interval 1h), then a watch
      over the same list with nothing due; CPU (user + system) and voluntary context switches of
      every thread, from /proc, over 30 s once the watch has loaded its schedule.
pass: 1,000 due local sources: a one-shot `--state --due` run against a watch on a fresh copy of
      the same state, until its 1,000th end record (wall and CPU, median of --runs).
soak: 500 http sources on a threaded server on 127.0.0.1 (the same ten items; with --publish a
      new item per feed every two seconds) watched with --min-interval 1s for 50 passes; RSS,
      fds and state size per pass.
memory: a watch of 1, 100,000 and 1,000,000 sources that are in the state and not due (each
      ends `not_due` once, then the watch sleeps); its RSS once loaded, and the bytes each source
      costs beyond the watch of one.
Every server is bound to 127.0.0.1; every process started here is stopped by its pid.
"""

import argparse
import http.server
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

LOOPBACK = "127.0.0.1"


def feed(name, items):
    entries = "".join(
        f"<item><title>{name} item {i}</title><link>https://example.com/{name}/posts/{i}</link>"
        f"<guid>https://example.com/{name}/posts/{i}#guid</guid><description>Text of item {i}."
        f"</description></item>" for i in items)
    return (f'<?xml version="1.0"?><rss version="2.0"><channel><title>{name}</title>'
            f"<link>https://example.com/{name}</link>{entries}</channel></rss>")


def cost(pid):
    """(CPU seconds of the process, voluntary context switches of each of its threads by id)."""
    ticks = os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    switches = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as status:
                for line in status:
                    if line.startswith("voluntary_ctxt_switches:"):
                        switches[task] = int(line.split()[1])
        except FileNotFoundError:
            pass
    return cpu, switches


def switches_between(before, after):
    """Switches of the threads alive at the end since the start (a thread born meanwhile from
    0), and how many threads ended meanwhile (their switches are not counted)."""
    counted = sum(count - before.get(task, 0) for task, count in after.items())
    return counted, len(set(before) - set(after))


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def local_sources(folder, count, items=5):
    os.makedirs(folder, exist_ok=True)
    paths = []
    for i in range(count):
        path = os.path.join(folder, f"feed{i}.xml")
        with open(path, "w") as out:
            out.write(feed(f"source{i}", range(items)))
        paths.append(path)
    listing = os.path.join(folder, "list.txt")
    with open(listing, "w") as out:
        out.write("\n".join(paths) + "\n")
    return listing


class EndCounter:
    """Reads a watch's stdout on a thread and counts its end records."""

    def __init__(self, process):
        self.ends = 0
        self.condition = threading.Condition()
        self.thread = threading.Thread(target=self.read, args=(process,), daemon=True)
        self.thread.start()

    def read(self, process):
        for line in process.stdout:
            if line.startswith(b'{"type":"end"'):
                with self.condition:
                    self.ends += 1
                    self.condition.notify_all()

    def wait(self, count, timeout):
        deadline = time.monotonic() + timeout
        with self.condition:
            while self.ends < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.condition.wait(left)
        return True


def fresh_copy(base, state):
    """A copy of a checkpointed state, without the WAL of an earlier run beside it."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(state + suffix):
            os.remove(state + suffix)
    shutil.copy(base, state)


def stop(process):
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait()


def idle(feedpull, work, count=10_000, seconds=30):
    listing = local_sources(os.path.join(work, "idle"), count, items=1)
    state = os.path.join(work, "idle.db")
    common = ["-f", "jsonl", "--state", state, "--min-interval", "1h", "-i", listing]
    subprocess.run([feedpull] + common, stdout=subprocess.DEVNULL, check=True)
    started = time.monotonic()
    process = subprocess.Popen([feedpull, "--watch"] + common, stdout=subprocess.PIPE)
    # Every source ends `not_due` once as the schedule loads: its output is read all along (a
    # pipe left unread fills at 64 KB and blocks the watch, which then costs nothing, idle or
    # not), and the schedule is loaded at the last of those ends.
    ends = EndCounter(process)
    if not ends.wait(count, 600):
        sys.exit("idle: the watch did not load its schedule")
    load = time.monotonic() - started
    time.sleep(1)
    before = cost(process.pid)
    rss = rss_kib(process.pid)
    time.sleep(seconds)
    after = cost(process.pid)
    written = ends.ends
    status = stop(process)
    cpu = after[0] - before[0]
    switches, ended = switches_between(before[1], after[1])
    print(f"idle watch, {count} sources, nothing due, {seconds} s: CPU {cpu:.3f} s "
          f"(target < 0.05), voluntary context switches {switches} (target < 100; "
          f"{ended} threads ended meanwhile, not counted); "
          f"schedule loaded in {load:.1f} s; RSS {rss / 1024:.1f} MiB; "
          f"exit {status}; {written - count} ends written while idle")


def one_pass(feedpull, work, count=1_000, runs=3):
    listing = local_sources(os.path.join(work, "pass"), count)
    base = os.path.join(work, "pass-base.db")
    # A state that knows every source, all due: the first pull, then next_check_at moved back.
    subprocess.run([feedpull, "-f", "jsonl", "--state", base, "-i", listing],
                   stdout=subprocess.DEVNULL, check=True)
    import sqlite3
    db = sqlite3.connect(base)
    db.execute("UPDATE sources SET next_check_at = 0")
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    shot_figures, watch_figures = [], []
    for _ in range(runs):
        state = os.path.join(work, "pass-shot.db")
        fresh_copy(base, state)
        started = time.monotonic()
        before = os.times()
        # Its output goes to a pipe read as the watch's is, so both pay the same for writing.
        process = subprocess.Popen([feedpull, "-f", "jsonl", "--state", state, "--due",
                                    "-i", listing], stdout=subprocess.PIPE)
        ends = EndCounter(process)
        process.wait()
        ends.thread.join()
        after = os.times()
        shot_figures.append((time.monotonic() - started,
                             after.children_user + after.children_system
                             - before.children_user - before.children_system))
        state = os.path.join(work, "pass-watch.db")
        fresh_copy(base, state)
        started = time.monotonic()
        process = subprocess.Popen([feedpull, "--watch", "-f", "jsonl", "--state", state,
                                    "-i", listing], stdout=subprocess.PIPE)
        ends = EndCounter(process)
        ok = ends.wait(count, 120)
        wall = time.monotonic() - started
        cpu, _ = cost(process.pid)
        stop(process)
        watch_figures.append((wall if ok else float("nan"), cpu))
    for name, figures in (("one-shot --state --due", shot_figures), ("watch pass", watch_figures)):
        walls = [f[0] for f in figures]
        cpus = [f[1] for f in figures]
        print(f"{name}, {count} due local sources: wall {statistics.median(walls):.3f} s "
              f"({min(walls):.3f}–{max(walls):.3f}), CPU {statistics.median(cpus):.2f} s "
              f"({min(cpus):.2f}–{max(cpus):.2f})")


class SoakFeeds(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    started = time.monotonic()
    publishing = False

    def do_GET(self):
        # Ten items; with --publish a new one about every two seconds per feed (the state then
        # grows with the items it must remember, by design).
        newest = int((time.monotonic() - SoakFeeds.started) / 2) if SoakFeeds.publishing else 9
        name = self.path.strip("/")
        body = feed(name, range(max(0, newest - 9), newest + 1)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def soak(feedpull, work, count=500, passes=50, publishing=False):
    SoakFeeds.publishing = publishing
    server = http.server.ThreadingHTTPServer((LOOPBACK, 0), SoakFeeds)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    listing = os.path.join(work, "soak.txt")
    with open(listing, "w") as out:
        out.write("".join(f"http://{LOOPBACK}:{port}/feed{i}\n" for i in range(count)))
    state = os.path.join(work, "soak.db")
    process = subprocess.Popen(
        [feedpull, "--watch", "-q", "-f", "jsonl", "--state", state, "-i", listing,
         "--min-interval", "1s", "--max-interval", "1s", "--per-host", "8", "--host-delay", "0"],
        stdout=subprocess.PIPE)
    ends = EndCounter(process)
    rows = []
    started = time.monotonic()
    for done in range(1, passes + 1):
        if not ends.wait(done * count, 600):
            print(f"soak: pass {done} did not complete")
            break
        fds = len(os.listdir(f"/proc/{process.pid}/fd"))
        size = sum(os.path.getsize(state + s) for s in ("", "-wal") if os.path.exists(state + s))
        rows.append((done, rss_kib(process.pid), fds, size, time.monotonic() - started))
    stop(process)
    server.shutdown()
    kind = "a new item per feed every 2 s" if publishing else "the same ten items"
    print(f"soak, {count} http sources ({kind}): pass, RSS MiB, open fds, "
          "state file + WAL KiB, seconds")
    for done, rss, fds, size, seconds in rows:
        if done in (1, 2, 5, 10, 20, 30, 40, 50) or done == rows[-1][0]:
            print(f"  {done:3d}  {rss / 1024:7.1f}  {fds:4d}  {size / 1024:8.0f}  {seconds:6.1f}")


def memory(feedpull, work, counts, settle=2.0):
    """RSS of a watch over N sources none of which is due (a state made as bench/state.py makes
    it), once its schedule is loaded, against a watch of one source: the bytes each source costs
    a watch beyond its start."""
    import state as state_bench
    figures = []
    for count in counts:
        folder = os.path.join(work, f"memory{count}")
        os.makedirs(folder)
        state, listing = state_bench.big_state(feedpull, folder, count, 0)
        process = subprocess.Popen([feedpull, "--watch", "-f", "jsonl", "--state", state,
                                    "-i", listing], stdout=subprocess.PIPE)
        ends = EndCounter(process)
        started = time.monotonic()
        # Every source named and not due ends `not_due` once: the schedule is loaded then.
        loaded = ends.wait(count, 600)
        load = time.monotonic() - started
        time.sleep(settle)
        rss = rss_kib(process.pid)
        stop(process)
        figures.append((count, rss, load, loaded))
    base = figures[0][1]
    print("watch, N sources none due | RSS once loaded | load time | bytes a source beyond "
          f"the watch of {figures[0][0]}")
    for count, rss, load, loaded in figures:
        extra = (rss - base) * 1024 / max(1, count - figures[0][0]) if count > figures[0][0] else 0
        print(f"  {count:>9,} | {rss / 1024:7.1f} MiB | {load:6.1f} s | "
              f"{extra:6.0f}{'' if loaded else ' (not loaded in time)'}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--feedpull", default=".build/release/feedpull")
    parser.add_argument("--section", default="all",
                        choices=["idle", "pass", "soak", "memory", "all"])
    parser.add_argument("--memory", default="1,100000,1000000",
                        help="memory: source counts (the first is the baseline)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--passes", type=int, default=50)
    parser.add_argument("--publish", action="store_true", help="soak: feeds that grow")
    args = parser.parse_args()
    feedpull = os.path.abspath(args.feedpull)
    work = tempfile.mkdtemp(prefix="feedpull-watch-bench-")
    try:
        if args.section in ("idle", "all"):
            idle(feedpull, work)
        if args.section in ("pass", "all"):
            one_pass(feedpull, work, runs=args.runs)
        if args.section in ("soak", "all"):
            soak(feedpull, work, passes=args.passes, publishing=args.publish)
        if args.section in ("memory", "all"):
            memory(feedpull, work, [int(n) for n in args.memory.split(",")])
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
