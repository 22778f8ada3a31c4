"""Section 1: parse throughput of local files, feedpull next to the C baseline and the peers.

Each tool reads the same generated file and writes its records to /dev/null; the figure is the
file's size over the process's wall time (start-up included, as a user sees it), and beside it
the CPU time (user + system, every thread: what a busy host pays). Tools take turns within each
run so that a noisy neighbour on the machine hurts all of them alike. One untimed run per tool
first warms the page cache and counts the items it printed: a tool that prints nothing is not
fast, it is broken, and the table says so.

Two sizes of item: the generator's default (about 2.4 KB, long HTML bodies) and the `-short`
formats (about 1.7 KB, a sentence of description and a few links), where the cost of an item
weighs more than the cost of its bytes.
"""

import os
import subprocess
import sys

from common import (Stats, count_item_lines, exit_note, print_table, progress,
                    python_module_available, run_measured, startup_floor, verdict, which)

FORMATS = (("rss20", "RSS 2.0"), ("atom10", "Atom 1.0"), ("rss10", "RSS 1.0"),
           ("rss20-short", "RSS 2.0 1.7 KB items"), ("atom10-short", "Atom 1.0 1.7 KB items"))
# Where the targets below apply (100 MB): RSS 2.0 and Atom, both sizes of item.
TARGET_FORMATS = ("rss20", "atom10", "rss20-short", "atom10-short")
SIZES = ((1_000_000, "1 MB"), (100_000_000, "100 MB"))
SFEED_RATIO = 1.0  # wall time: at least sfeed's speed (`sfeed < FILE`)
CPU_RATIO = 1.2  # CPU time: at most 1.2x the C baseline doing the same job
PODCAST_RATIO = 0.75  # a 100 MB podcast feed at >= 0.75x feedpull's own RSS 2.0 figure
HTML_RATIO = 0.85  # --html safe (the default) and text at >= 0.85x --html raw
FEEDPARSER_MAX_BYTES = 10_000_000
RUN_TIMEOUT = 180  # feedparser takes ~45 s for 100 MB (--slow-peers)  # feedparser needs ~40 s for 100 MB; --slow-peers lifts this


class Tool:
    def __init__(self, name, argv_for, stdin_file=False, marker=b'"type":"item"', max_bytes=None,
                 missing=None):
        self.name = name
        self.argv_for = argv_for  # path -> argv
        self.stdin_file = stdin_file  # the file goes to standard input instead of argv
        self.marker = marker  # what marks an item line in its output (None: every line)
        self.max_bytes = max_bytes
        self.missing = missing  # why the tool cannot run, or None


def feedpull_argv(ctx):
    """feedpull as measured: JSON Lines, no body limit, and HTML passed through as the feed
    wrote it (`--html raw`) where the build sanitizes by default, so that it does what the C
    baseline and sfeed do."""
    if getattr(ctx, "feedpull_options", None) is None:
        help_text = subprocess.run([ctx.feedpull, "--help"], capture_output=True, text=True).stdout
        ctx.feedpull_options = ["--html", "raw"] if "--html" in help_text else []
    return [ctx.feedpull, "--format", "jsonl", "--max-bytes", "4G"] + ctx.feedpull_options


def tools(ctx):
    feedparser_script = os.path.join(ctx.bench, "peers", "feedparser_jsonl.py")
    has_feedparser = python_module_available("feedparser")
    argv = feedpull_argv(ctx)
    return [
        Tool("feedpull", lambda p: argv + [p]),
        Tool("C SAX push (limit)", lambda p: [ctx.sax_baseline, p]),
        Tool("C SAX push, a write per record", lambda p: [ctx.sax_baseline, "--flush", p]),
        Tool("Foundation XMLParser", lambda p: [ctx.foundation_baseline, p],
             missing=None if ctx.foundation_baseline else "not built"),
        Tool("FeedKit (Swift, whole document)", lambda p: [ctx.feedkit, p],
             missing=None if ctx.feedkit else "no checkout at bench/out/FeedKit"),
        Tool("sfeed", lambda p: ["sfeed"], stdin_file=True, marker=None,
             missing=None if which("sfeed") else "not installed"),
        Tool("python feedparser", lambda p: [sys.executable, feedparser_script, p],
             max_bytes=float("inf") if ctx.slow_peers else FEEDPARSER_MAX_BYTES,
             missing=None if has_feedparser else "not installed"),
    ]


def compare_records(ctx, path, items_only=False):
    """Differences between feedpull's and the C baseline's records for one file (source, url
    and elapsed_ms aside), so the table shows that both did the same work. None: not run.
    `items_only`: the item records alone (the C baseline reads no channel-level namespaces)."""
    import json
    import subprocess

    outputs = []
    for argv in (feedpull_argv(ctx) + [path], [ctx.sax_baseline, path]):
        result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                timeout=RUN_TIMEOUT)
        try:
            outputs.append([json.loads(line) for line in result.stdout.splitlines()])
        except ValueError:
            return None
    ours, limit = outputs
    differences = abs(len(ours) - len(limit))
    for a, b in zip(ours, limit):
        if items_only and a.get("type") != "item":
            continue
        for key in set(a) | set(b):
            if key not in ("source", "url", "elapsed_ms") and a.get(key) != b.get(key):
                differences += 1
    return differences


def run(ctx):
    rows = []
    notes = []
    all_tools = tools(ctx)
    for size, size_name in SIZES:
        for fmt, fmt_name in FORMATS:
            path = ctx.input_file(fmt, size)
            actual = os.path.getsize(path)
            active = []
            for tool in all_tools:
                if tool.missing:
                    continue
                if tool.max_bytes and actual > tool.max_bytes:
                    continue
                active.append(tool)
            progress("parse %s %s: %s" % (fmt_name, size_name, ", ".join(t.name for t in active)))
            items = {}
            timed_out = set()
            for tool in active:
                with open(path if tool.stdin_file else os.devnull, "rb") as stdin:
                    items[tool.name], status = count_item_lines(
                        tool.argv_for(path), stdin=stdin, marker=tool.marker, timeout=RUN_TIMEOUT)
                if status == -9:
                    timed_out.add(tool.name)  # shown once, not waited for in every run
            active = [tool for tool in active if tool.name not in timed_out]
            results = {tool.name: [] for tool in active}
            for run_index in range(ctx.runs):
                for tool in active:
                    if tool.max_bytes is not None and actual > FEEDPARSER_MAX_BYTES and \
                            run_index >= ctx.slow_peer_runs:
                        continue  # --slow-peers on 100 MB: ~45 s a run, so fewer runs
                    with open(path if tool.stdin_file else os.devnull, "rb") as stdin:
                        results[tool.name].append(
                            run_measured(tool.argv_for(path), stdin=stdin, timeout=RUN_TIMEOUT))
            c_median = Stats(m.wall for m in results["C SAX push (limit)"]).median
            c_cpu = Stats(m.cpu for m in results["C SAX push (limit)"]).median
            for tool in all_tools:
                label = "%s %s" % (fmt_name, size_name)
                if tool.missing:
                    if size == SIZES[0][0] and fmt == FORMATS[0][0]:
                        notes.append("%s: %s, skipped." % (tool.name, tool.missing))
                    continue
                if tool.name in timed_out:
                    rows.append([label, tool.name, "timed out after %d s" % RUN_TIMEOUT, "", "",
                                 "", "", str(items[tool.name]),
                                 "❌ not met" if tool.name == "feedpull" else ""])
                    continue
                if tool not in active:
                    rows.append([label, tool.name, "skipped: slow (--slow-peers)", "", "", "", "",
                                 "", ""])
                    continue
                runs = results[tool.name]
                seconds = Stats(m.wall for m in runs)
                cpu = Stats(m.cpu for m in runs)
                throughput = Stats(actual / 1e6 / m.wall for m in runs)
                ratio = c_median / seconds.median
                cpu_ratio = cpu.median / c_cpu
                target = ""
                if tool.name == "feedpull" and size == 100_000_000 and fmt in TARGET_FORMATS:
                    expected = items["C SAX push (limit)"]
                    if items[tool.name] != expected or exit_note(runs):
                        target = "❌ not met (printed %d items of %d)" % (items[tool.name], expected)
                    else:
                        target = "CPU ≤ %.1f× C: %s (%.2f×)" % (
                            CPU_RATIO, verdict(cpu_ratio <= CPU_RATIO), cpu_ratio)
                        if results.get("sfeed"):
                            sfeed = Stats(m.wall for m in results["sfeed"]).median
                            target += "; ≥ %.1f× sfeed's speed: %s (%.2f×)" % (
                                SFEED_RATIO, verdict(sfeed / seconds.median >= SFEED_RATIO),
                                sfeed / seconds.median)
                rows.append([label, tool.name + exit_note(runs), throughput.format(1),
                             seconds.format(3), cpu.format(3), "%.2f×" % ratio,
                             "%.2f×" % cpu_ratio, str(items[tool.name]), target])
    rows += podcast_rows(ctx, all_tools[0])
    rows += json_feed_rows(ctx, all_tools[0], rss20_items(rows))
    rows += html_rows(ctx)
    same = []
    for fmt, fmt_name in FORMATS:
        differences = compare_records(ctx, ctx.input_file(fmt, SIZES[0][0]))
        same.append("%s: %s" % (fmt_name, "not comparable (output is not JSON Lines)"
                                if differences is None else "identical" if differences == 0
                                else "%d fields differ" % differences))
    differences = compare_records(ctx, ctx.input_file("podcast", SIZES[0][0]), items_only=True)
    same.append("podcast items: %s" % ("not comparable (output is not JSON Lines)"
                                       if differences is None else "identical" if differences == 0
                                       else "%d fields differ" % differences))
    notes.append("Same work: feedpull's records and the C baseline's on the 1 MB inputs, "
                 "field by field (source, url, elapsed_ms aside): " + "; ".join(same) + ".")
    wall, rss = startup_floor(ctx)
    notes.append("feedpull's start-up alone (`feedpull --version`): %s, which the 1 MB figures "
                 "include." % wall.format(3, " s"))
    notes.append("MB/s = 10^6 bytes per second of wall time (process start-up included); vs C = "
                 "C baseline's median wall time / the tool's; CPU = user + system seconds, every "
                 "thread; CPU vs C = the tool's median CPU time / the C baseline's; items = item "
                 "lines printed (sfeed: TSV lines). Medians of %d runs, min–max in brackets. "
                 "feedpull ran as `%s`." % (ctx.runs, " ".join(
                     ["feedpull"] + feedpull_argv(ctx)[1:] + ["FILE"])))
    print_table("1. Parse throughput: `feedpull --format jsonl FILE > /dev/null`",
                ["input", "tool", "MB/s", "seconds", "CPU s", "vs C", "CPU vs C", "items",
                 "target"], rows, notes)


def measure_feedpull(ctx, feedpull, fmt, name, also=None):
    """feedpull on a generated 100 MB file of `fmt`, its runs taking turns with feedpull on the
    100 MB RSS 2.0 file: the file, its size, the items printed, the runs, their seconds and
    MB/s, the RSS 2.0 runs' median seconds, the RSS 2.0 runs, and the runs of `also` (an
    argv for the file, taking its turn after feedpull's; [] when None). The JSON Feed's and the
    podcast's ratios are taken against those turns, not against the RSS 2.0 row above: that row's turns
    also run the peers (FeedKit holds gigabytes for half a minute), which slows whatever runs
    next, so a figure from another block of runs would flatter the feed measured here."""
    path = ctx.input_file(fmt, 100_000_000)
    rss20 = ctx.input_file("rss20", 100_000_000)
    actual = os.path.getsize(path)
    rss20_size = os.path.getsize(rss20)
    progress("parse %s 100 MB: feedpull, taking turns with feedpull on RSS 2.0" % name)
    with open(os.devnull, "rb") as stdin:
        items, _ = count_item_lines(feedpull.argv_for(path), stdin=stdin, timeout=RUN_TIMEOUT)
    runs = []
    rss20_runs = []
    also_runs = []
    turns = [(feedpull.argv_for(rss20), rss20_runs), (feedpull.argv_for(path), runs)]
    if also:
        turns.append((also, also_runs))
    for _ in range(ctx.runs):
        for argv, into in turns:
            with open(os.devnull, "rb") as stdin:
                into.append(run_measured(argv, stdin=stdin, timeout=RUN_TIMEOUT))
    seconds = Stats(m.wall for m in runs)
    throughput = Stats(actual / 1e6 / m.wall for m in runs)
    # Per 10^8 bytes, as the RSS 2.0 file is within a few bytes of 100 MB.
    rss20_seconds = Stats(m.wall for m in rss20_runs).median * 100_000_000 / rss20_size
    return path, actual, items, runs, seconds, throughput, rss20_seconds, rss20_runs, also_runs


def html_rows(ctx):
    """The cost of `--html` on 100 MB RSS 2.0 and Atom (their items carry paragraphs,
    links and images, a quarter of them relative, some with a style or an embed's script):
    `safe` (the default) and `text` against `raw` on the same file, the three taking turns; the
    ratio is raw's median time over the mode's, and also by CPU time (both threads)."""
    rows = []
    for fmt, name in (("rss20", "RSS 2.0"), ("atom10", "Atom 1.0")):
        path = ctx.input_file(fmt, 100_000_000)
        actual = os.path.getsize(path)
        progress("parse %s 100 MB: --html raw, safe, text taking turns" % name)
        modes = ("raw", "safe", "text")
        runs = {mode: [] for mode in modes}
        argv = {mode: [ctx.feedpull, "--format", "jsonl", "--max-bytes", "4G", "--html", mode,
                       path] for mode in modes}
        items = {}
        for mode in modes:
            with open(os.devnull, "rb") as stdin:
                items[mode], _ = count_item_lines(argv[mode], stdin=stdin, timeout=RUN_TIMEOUT)
        for _ in range(ctx.runs):
            for mode in modes:
                with open(os.devnull, "rb") as stdin:
                    runs[mode].append(run_measured(argv[mode], stdin=stdin, timeout=RUN_TIMEOUT))
        raw_wall = Stats(m.wall for m in runs["raw"]).median
        raw_cpu = Stats(m.cpu for m in runs["raw"]).median
        for mode in modes:
            seconds = Stats(m.wall for m in runs[mode])
            throughput = Stats(actual / 1e6 / m.wall for m in runs[mode])
            cpu = Stats(m.cpu for m in runs[mode]).median
            target = ""
            if mode != "raw":
                ratio = raw_wall / seconds.median
                target = ("≥ %.2f× raw: %s (%.2f×; by CPU time %.2f×, %.2f s vs %.2f s)"
                          % (HTML_RATIO, verdict(ratio >= HTML_RATIO), ratio, raw_cpu / cpu, cpu,
                             raw_cpu))
            rows.append(["%s 100 MB, --html %s" % (name, mode), "feedpull" + exit_note(runs[mode]),
                         throughput.format(1), seconds.format(3),
                         Stats(m.cpu for m in runs[mode]).format(3), "", "", str(items[mode]),
                         target])
    return rows


def rss20_items(rows):
    """The items feedpull printed for 100 MB RSS 2.0, from the rows above (None if not run)."""
    for row in rows:
        if row[0] == "RSS 2.0 100 MB" and row[1].startswith("feedpull") and row[7]:
            try:
                return int(row[7])
            except ValueError:
                return None
    return None


def json_feed_rows(ctx, feedpull, rss20_item_count):
    """A 100 MB JSON Feed (generate.py's RSS 2.0 items, same texts, as JSON Feed
    1.1) against the same items as RSS 2.0: time per item, since JSON spends fewer bytes on
    each item and so holds more of them in 100 MB."""
    path, actual, items, runs, seconds, throughput, rss20_median, _, _ = measure_feedpull(
        ctx, feedpull, "json11", "JSON Feed")
    target = ""
    if rss20_item_count and items:
        json_per_item = seconds.median / items
        rss_per_item = rss20_median / rss20_item_count
        target = ("≤ RSS 2.0's time per item: %s (%.2f µs vs %.2f µs, RSS 2.0 %.3f s in the "
                  "same turns)" % (verdict(json_per_item <= rss_per_item), json_per_item * 1e6,
                                   rss_per_item * 1e6, rss20_median))
    rows = [["JSON Feed 100 MB", "feedpull" + exit_note(runs), throughput.format(1),
             seconds.format(3), Stats(m.cpu for m in runs).format(3), "", "", str(items),
             target]]
    if ctx.feedkit:
        progress("parse JSON Feed 100 MB: FeedKit")
        peer_items, _ = count_item_lines([ctx.feedkit, path], timeout=RUN_TIMEOUT)
        peer_runs = [run_measured([ctx.feedkit, path], timeout=RUN_TIMEOUT)
                     for _ in range(ctx.runs)]
        peer_seconds = Stats(m.wall for m in peer_runs)
        rows.append(["JSON Feed 100 MB", "FeedKit (Swift, whole document)" + exit_note(peer_runs),
                     Stats(actual / 1e6 / m.wall for m in peer_runs).format(1),
                     peer_seconds.format(3), Stats(m.cpu for m in peer_runs).format(3), "", "",
                     str(peer_items), ""])
    return rows


def podcast_rows(ctx, feedpull):
    """The podcast feed: the same items as RSS 2.0 with iTunes and Podcasting 2.0 tags on every item,
    against feedpull on RSS 2.0 in the same turns, and the C baseline on the same file doing
    the same job (it writes the items' `itunes` and `podcast` objects too: the records are
    compared in the notes) in the same turns."""
    c_argv = [ctx.sax_baseline, ctx.input_file("podcast", 100_000_000)]
    (path, actual, items, runs, seconds, throughput, rss20_median, rss20_runs,
     c_runs) = measure_feedpull(ctx, feedpull, "podcast", "podcast", also=c_argv)
    with open(os.devnull, "rb") as stdin:
        c_items, _ = count_item_lines(c_argv, stdin=stdin, timeout=RUN_TIMEOUT)
    c_seconds = Stats(m.wall for m in c_runs)
    c_cpu = Stats(m.cpu for m in c_runs)
    cpu_seconds = Stats(m.cpu for m in runs)
    cpu_against_c = cpu_seconds.median / c_cpu.median
    ratio = (actual / seconds.median) / (100_000_000 / rss20_median)
    # Two more readings of the same turns, as a loaded host moves the medians by a tenth: the
    # fastest run of each (a host's interference only adds time) and the CPU time (both
    # threads; what the host steals is not counted). The verdict stays the medians'.
    rss20_size = os.path.getsize(ctx.input_file("rss20", 100_000_000))
    fastest = (actual / min(m.wall for m in runs)) / (rss20_size / min(m.wall for m in rss20_runs))
    cpu = (actual / Stats(m.cpu for m in runs).median) / (
        rss20_size / Stats(m.cpu for m in rss20_runs).median)
    target = ("≥ %.2f× feedpull RSS 2.0: %s (%.2f×; fastest runs %.2f×, CPU time %.2f×; RSS 2.0 "
              "%.3f s in the same turns); CPU ≤ %.1f× C: %s (%.2f×)" % (
                  PODCAST_RATIO, verdict(ratio >= PODCAST_RATIO), ratio, fastest, cpu,
                  rss20_median, CPU_RATIO, verdict(cpu_against_c <= CPU_RATIO), cpu_against_c))
    return [["podcast 100 MB", "feedpull" + exit_note(runs), throughput.format(1),
             seconds.format(3), cpu_seconds.format(3),
             "%.2f×" % (c_seconds.median / seconds.median), "%.2f×" % cpu_against_c, str(items),
             target],
            ["podcast 100 MB", "C SAX push (limit), the same job" + exit_note(c_runs),
             Stats(actual / 1e6 / m.wall for m in c_runs).format(1), c_seconds.format(3),
             c_cpu.format(3), "1.00×", "1.00×", str(c_items), ""]]
