"""Section 6: unchanged feeds: 10,000 sources whose feeds have not changed since the last pull.

The daily life of a subscriber: almost every feed is the same as last time, and the server
says so with a 304. nginx (Debian's, on 127.0.0.1, the fetch-many section's private instance)
serves 10,000 small feeds and answers `If-Modified-Since` / `If-None-Match` by itself. feedpull
pulls them once with `--state` (validators stored), then every timed run is a second `--state`
pull of the same list: 10,000 conditional requests, 304s, no items, one state transaction per
source. The baseline is curl making the same 10,000 conditional requests (`-z DATE`) with the
same concurrency: the floor of asking whether anything changed. Issue 10's target: feedpull's
wall time ≤ 1.5× curl's.
"""

import os
import shutil
import subprocess
import sys
import time

from common import (LOOPBACK, Stats, print_table, progress, run_measured, verdict, which)
from fetch_many import start_nginx

SOURCES = 10_000
JOBS = 16
TARGET_RATIO = 1.5
RUN_TIMEOUT = 300


def corpus(ctx):
    """10,000 names for one small generated feed (hard links: nginx stats each one)."""
    directory = os.path.join(ctx.out, "unchanged-%s" % ctx.generator_stamp)
    if os.path.exists(os.path.join(directory, "complete")):
        return directory
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    first = os.path.join(directory, "f0.xml")
    with open(first, "wb") as f:
        subprocess.run([sys.executable, ctx.generator, "--format", "rss20", "--size", "4000"],
                       stdout=f, check=True)
    for index in range(1, SOURCES):
        os.link(first, os.path.join(directory, "f%d.xml" % index))
    open(os.path.join(directory, "complete"), "w").close()
    return directory


def run(ctx):
    files = corpus(ctx) if which("nginx") else None
    nginx = start_nginx(ctx, "6. Unchanged feeds", "nginx-unchanged", files)
    if nginx is None:
        return
    rows = []
    notes = []
    try:
        urls = ["http://%s:%d/plain/f%d.xml" % (LOOPBACK, nginx.port, i) for i in range(SOURCES)]
        url_file = os.path.join(ctx.out, "urls-unchanged.txt")
        with open(url_file, "w") as f:
            f.write("\n".join(urls) + "\n")
        # Every file was written before this moment: -z asks "changed since then?" and nginx
        # says 304, as it does to feedpull's stored Last-Modified and ETag.
        since = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 60))
        curl_config = os.path.join(ctx.out, "curl-unchanged.conf")
        with open(curl_config, "w") as f:
            for url in urls:
                f.write('url = "%s"\noutput = "/dev/null"\n' % url)
        state = os.path.join(ctx.out, "unchanged-state.db")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(state + suffix):
                os.remove(state + suffix)
        feedpull = [ctx.feedpull, "--format", "jsonl", "-q", "-j", str(JOBS), "--per-host",
                    str(JOBS), "--host-delay", "0", "--state", state, "-i", url_file]
        progress("unchanged: priming the state with %d sources" % SOURCES)
        prime = subprocess.run(feedpull, stdout=subprocess.DEVNULL, timeout=RUN_TIMEOUT)
        if prime.returncode != 0:
            notes.append("priming run exited %d" % prime.returncode)
        # One checked run: every source must end not_modified, with no item.
        checked = subprocess.run(feedpull, stdout=subprocess.PIPE, timeout=RUN_TIMEOUT)
        lines = checked.stdout.splitlines()
        not_modified = sum(1 for line in lines if b'"not_modified":true' in line)
        item_lines = sum(1 for line in lines if line.startswith(b'{"type":"item"'))
        tools = [
            ("feedpull --state (second pull)", feedpull),
            ("curl --parallel -z (baseline)", ["curl", "--parallel", "--parallel-max", str(JOBS),
                                               "-s", "-z", since, "-K", curl_config]),
        ]
        samples = {name: [] for name, _ in tools}
        for _ in range(ctx.runs):
            for name, argv in tools:
                samples[name].append(run_measured(argv, timeout=RUN_TIMEOUT))
        curl_wall = Stats(m.wall for m in samples[tools[1][0]]).median
        for name, _ in tools:
            wall = Stats(m.wall for m in samples[name])
            cpu = Stats(m.cpu for m in samples[name])
            ratio = wall.median / curl_wall
            target = ""
            if name.startswith("feedpull"):
                complete = not_modified == SOURCES and item_lines == 0
                target = "≤ %.1f× curl: %s" % (TARGET_RATIO, verdict(ratio <= TARGET_RATIO
                                                                      and complete))
                if not complete:
                    target += " (%d of %d not_modified, %d items)" % (not_modified, SOURCES,
                                                                      item_lines)
            rows.append([name, wall.format(3, " s"), cpu.format(3, " s"), "%.2f×" % ratio,
                         target])
    finally:
        nginx.stop()
    notes.append("%d feeds on one loopback nginx, %d in flight, politeness off for both (one "
                 "site). Wall = process start to exit; CPU = user + system. Medians of %d runs, "
                 "min–max in brackets. feedpull's state file: %s." % (
                     SOURCES, JOBS, ctx.runs, "WAL, one transaction per source"))
    print_table("6. Unchanged feeds (304)", ["tool", "wall", "CPU", "vs curl", "target"], rows,
                notes)
