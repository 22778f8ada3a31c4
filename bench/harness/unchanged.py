"""Section 6: unchanged feeds: 1,000 and 10,000 sources whose feeds have not changed since the
last pull, and the first pull of a state.

The daily life of a subscriber: almost every feed is the same as last time, and the server
says so with a 304. nginx (Debian's, on 127.0.0.1, a private instance) serves the feeds with
`etag on; if_modified_since before;`, so that it answers a conditional request with a true 304
(by default nginx answers `If-Modified-Since` only when it equals `Last-Modified` exactly, and a
date in the future then gets a 200 and the whole body, which libcurl calls a 304 anyway).

- The unchanged pass: feedpull pulls the list once with `--state`, then every timed run is a
  second `--state` pull of the same list: conditional requests, 304s, no items, the state
  recorded. The baseline is curl making the same conditional requests (the same `If-None-Match`
  and `If-Modified-Since` feedpull sends) with the same concurrency; both are checked to have got
  a 304 for every source. Target: feedpull ≤ 1.5× curl in wall time and in CPU time.
- The first pull: a `--state` pull into a new state against the same pull without state (200s,
  every item written; one run of each checked: every source ends ok, the same items with the
  state as without). Target: ≤ 1.3× the CPU time.
"""

import os
import re
import shutil
import subprocess
import sys
import time

from common import (LOOPBACK, Stats, print_table, progress, run_measured, verdict, which)
from fetch_many import start_nginx

SIZES = (1_000, 10_000)
JOBS = 16
TARGET_RATIO = 1.5
FIRST_PULL_TARGET = 1.3
RUN_TIMEOUT = 300
TRUE_304S = "etag on; if_modified_since before;"


def corpus(ctx):
    """The largest size's names for one small generated feed (hard links: nginx stats each)."""
    directory = os.path.join(ctx.out, "unchanged-%s" % ctx.generator_stamp)
    if os.path.exists(os.path.join(directory, "complete")):
        return directory
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    first = os.path.join(directory, "f0.xml")
    with open(first, "wb") as f:
        subprocess.run([sys.executable, ctx.generator, "--format", "rss20", "--size", "4000"],
                       stdout=f, check=True)
    for index in range(1, max(SIZES)):
        os.link(first, os.path.join(directory, "f%d.xml" % index))
    open(os.path.join(directory, "complete"), "w").close()
    return directory


def validators(url):
    """The ETag and Last-Modified nginx sends for `url` (every file is one inode)."""
    head = subprocess.run(["curl", "-sI", url], capture_output=True, text=True, check=True).stdout
    etag = re.search(r"(?im)^etag: *(.+?)\r?$", head).group(1)
    modified = re.search(r"(?im)^last-modified: *(.+?)\r?$", head).group(1)
    return etag, modified


def remove_state(path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def statuses(output):
    """How many of each HTTP status curl's write-out printed, one a line."""
    counts = {}
    for line in output.split():
        counts[line] = counts.get(line, 0) + 1
    return counts


def run_size(ctx, nginx, size, rows, notes):
    urls = ["http://%s:%d/plain/f%d.xml" % (LOOPBACK, nginx.port, i) for i in range(size)]
    url_file = os.path.join(ctx.out, "urls-unchanged-%d.txt" % size)
    with open(url_file, "w") as f:
        f.write("\n".join(urls) + "\n")
    etag, modified = validators(urls[0])
    # curl 7.88's --etag-compare sends If-None-Match twice under --parallel (nginx answers
    # 400): the same validators go as a header instead.
    curl_config = os.path.join(ctx.out, "curl-unchanged-%d.conf" % size)
    with open(curl_config, "w") as f:
        f.write('header = "If-None-Match: %s"\n' % etag.replace('"', '\\"'))
        f.write('time-cond = "%s"\n' % modified)
        f.write('write-out = "%{http_code}\\n"\n')
        for url in urls:
            f.write('url = "%s"\noutput = "/dev/null"\n' % url)
    curl = ["curl", "--parallel", "--parallel-max", str(JOBS), "--no-progress-meter", "-K",
            curl_config]
    checked_curl = statuses(subprocess.run(curl, capture_output=True, text=True,
                                           timeout=RUN_TIMEOUT).stdout)
    state = os.path.join(ctx.out, "unchanged-state-%d.db" % size)
    remove_state(state)
    options = ["--format", "jsonl", "-q", "-j", str(JOBS), "--per-host", str(JOBS),
               "--host-delay", "0", "-i", url_file]
    feedpull = [ctx.feedpull] + options + ["--state", state]
    stateless = [ctx.feedpull] + options
    progress("unchanged: priming the state with %d sources" % size)
    prime = subprocess.run(feedpull, stdout=subprocess.DEVNULL, timeout=RUN_TIMEOUT)
    if prime.returncode != 0:
        notes.append("%d: priming run exited %d" % (size, prime.returncode))
    # One checked run: every source must end with a 304, not_modified, with no item.
    checked = subprocess.run(feedpull, stdout=subprocess.PIPE, timeout=RUN_TIMEOUT)
    lines = checked.stdout.splitlines()
    true_304s = sum(1 for line in lines
                    if b'"status":304' in line and b'"not_modified":true' in line)
    item_lines = sum(1 for line in lines if line.startswith(b'{"type":"item"'))
    samples = {"feedpull": [], "curl": []}
    for _ in range(ctx.runs):
        samples["feedpull"].append(run_measured(feedpull, timeout=RUN_TIMEOUT))
        samples["curl"].append(run_measured(curl, timeout=RUN_TIMEOUT))
    curl_wall = Stats(m.wall for m in samples["curl"]).median
    curl_cpu = Stats(m.cpu for m in samples["curl"]).median
    feedpull_complete = true_304s == size and item_lines == 0
    curl_complete = checked_curl.get("304", 0) == size
    for name, tool, complete in [
        ("feedpull --state (second pull)", "feedpull", feedpull_complete),
        ("curl --parallel, the same validators (baseline)", "curl", curl_complete),
    ]:
        wall = Stats(m.wall for m in samples[tool])
        cpu = Stats(m.cpu for m in samples[tool])
        wall_ratio = wall.median / curl_wall
        cpu_ratio = cpu.median / curl_cpu if curl_cpu else float("nan")
        target = ""
        if tool == "feedpull":
            met = wall_ratio <= TARGET_RATIO and cpu_ratio <= TARGET_RATIO and complete
            target = "≤ %.1f× curl, wall and CPU: %s" % (TARGET_RATIO, verdict(met and
                                                                       curl_complete))
        if not complete:
            target += " (%s)" % ("%d of %d true 304s, %d items" % (true_304s, size, item_lines)
                                 if tool == "feedpull" else "curl statuses %s" % checked_curl)
        rows.append(["%s, %s" % (name, "{:,}".format(size)), wall.format(3, " s"),
                     cpu.format(3, " s"), "%.2f×" % wall_ratio, "%.2f×" % cpu_ratio, target])
    # The first pull of a state against the same pull without one; one checked run of each
    # first: every source must end ok with its feed's item, or the rows compare unlike work.
    first_complete = {}
    for key, argv in [("with", feedpull), ("without", stateless)]:
        remove_state(state)
        checked_first = subprocess.run(argv, stdout=subprocess.PIPE, timeout=RUN_TIMEOUT)
        first_lines = checked_first.stdout.splitlines()
        items = sum(1 for line in first_lines if line.startswith(b'{"type":"item"'))
        ok_ends = sum(1 for line in first_lines
                      if line.startswith(b'{"type":"end"') and b'"ok":true' in line)
        first_complete[key] = (items, ok_ends)
    first = {"with": [], "without": []}
    for _ in range(ctx.runs):
        remove_state(state)
        first["with"].append(run_measured(feedpull, timeout=RUN_TIMEOUT))
        first["without"].append(run_measured(stateless, timeout=RUN_TIMEOUT))
    remove_state(state)
    base_cpu = Stats(m.cpu for m in first["without"]).median
    for label, key in [("feedpull --state, first pull", "with"), ("feedpull, no state", "without")]:
        wall = Stats(m.wall for m in first[key])
        cpu = Stats(m.cpu for m in first[key])
        ratio = cpu.median / base_cpu
        # Each feed's items, the same with a state as without: the two rows did the same work.
        items, ok_ends = first_complete[key]
        complete = ok_ends == size and items > 0 and items == first_complete["without"][0]
        both = complete and first_complete["without"][1] == size
        target = ("≤ %.1f× the CPU without state: %s" % (
            FIRST_PULL_TARGET, verdict(ratio <= FIRST_PULL_TARGET and both))
                  if key == "with" else "")
        if not complete:
            target += " (%d items, %d ok ends of %d)" % (items, ok_ends, size)
        rows.append(["%s, %s" % (label, "{:,}".format(size)), wall.format(3, " s"),
                     cpu.format(3, " s"), "", "%.2f× CPU" % ratio, target])


def run(ctx):
    files = corpus(ctx) if which("nginx") else None
    nginx = start_nginx(ctx, "6. Unchanged feeds", "nginx-unchanged", files, TRUE_304S)
    if nginx is None:
        return
    rows = []
    notes = []
    try:
        for size in SIZES:
            run_size(ctx, nginx, size, rows, notes)
    finally:
        nginx.stop()
    notes.append("Feeds on one loopback nginx with `%s` (true 304s, checked: every feedpull end "
                 "has status 304 and not_modified, curl's write-out is 304 for every URL), %d in "
                 "flight, politeness off for both (one site). Wall = process start to exit; "
                 "CPU = user + system. Medians of %d runs, min–max in brackets. The first-pull "
                 "rows fetch every body (200s) into a new state or none; one run of each was "
                 "checked (every source ends ok, the same items with the state as without)." % (
                     TRUE_304S, JOBS, ctx.runs))
    print_table("6. Unchanged feeds (304) and the first pull of a state",
                ["run", "wall", "CPU", "wall vs curl", "CPU vs baseline", "target"], rows,
                notes)
