"""Section 7, instructions: what each format costs the parsing thread, counted by callgrind.

Wall times on these shared machines move by a tenth between runs minutes apart (the host steals
time), and the parse section's ratios with them: the podcast's ratio to RSS 2.0 read 0.56× to 0.82×
on one commit. An instruction count does not depend on the load, so it tells whether a change
made a format cheaper, and by how much, in one run. It is not a time: instructions differ in
cost (libxml2's hashing and branching cost more cycles each than a scan over bytes in cache),
so the wall-time figures of section 1 stay the ones the targets are judged by.

Each generated 5 MB input is parsed once under `valgrind --tool=callgrind --separate-threads=yes`;
the parsing thread is the thread with the most instructions (the others: start-up, the input
preparer running a chunk ahead, the reader).
"""

import os
import shutil
import subprocess
import tempfile

from common import count_item_lines, print_table, progress, verdict, which
from parse_throughput import feedpull_argv

SIZE = 5_000_000
FORMATS = (("rss20", "RSS 2.0"), ("atom10", "Atom 1.0"), ("rss10", "RSS 1.0"),
           ("rss20-short", "RSS 2.0, 1.7 KB items"), ("atom10-short", "Atom 1.0, 1.7 KB items"),
           ("podcast", "podcast"), ("json11", "JSON Feed"))
# The C baseline doing the same job on the same inputs: what it costs a C program on the same
# libxml2 API, and how much dearer the podcast and the short items are for it.
C_FORMATS = (("rss20", "RSS 2.0"), ("atom10", "Atom 1.0"), ("rss20-short", "RSS 2.0, 1.7 KB items"),
             ("atom10-short", "Atom 1.0, 1.7 KB items"), ("podcast", "podcast"))
# The parsing thread's reference-count calls and mallocs an item before the item table (the
# release build of commit 8d1aa65, measured by this section): the target is half of these.
BEFORE = {"rss20": (219, 13.3), "atom10": (223, 12.9), "rss10": (193, 12.1),
          "rss20-short": (219, 13.3), "atom10-short": (224, 12.7), "podcast": (543, 33.4),
          "json11": (257, 11.3)}


# Swift's reference counting: each call an atomic read-modify-write (unless the object is
# immortal), far dearer than the instructions it counts for. The bridge-object forms call the
# plain ones; only calls from outside this set are counted.
REFERENCE_COUNTING = {"swift_retain", "swift_release", "swift_bridgeObjectRetain",
                      "swift_bridgeObjectRelease", "swift_unknownObjectRetain",
                      "swift_unknownObjectRelease", "swift_retain_n", "swift_release_n"}
# The C allocator, whoever calls it (Swift's objects through swift_slowAlloc, libxml2, yajl):
# calls from outside this set are counted, so that realloc's own malloc is not counted twice.
ALLOCATION = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}


def thread_instructions(argv, out_prefix):
    """Each thread of one run of `argv`, largest first: (instructions, its profile's path)."""
    subprocess.run(["valgrind", "--tool=callgrind", "--separate-threads=yes",
                    "--callgrind-out-file=" + out_prefix] + argv,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    threads = []
    directory, stem = os.path.split(out_prefix)
    for name in os.listdir(directory):
        if not name.startswith(stem + "-"):
            continue
        path = os.path.join(directory, name)
        with open(path) as f:
            for line in f:
                if line.startswith("summary:"):
                    threads.append((int(line.split()[1]), path))
                    break
    return sorted(threads, reverse=True)


def runtime_calls(profile):
    """Calls to Swift's reference counting and to the C allocator in one thread's callgrind
    profile (its `fn=`/`cfn=`/`calls=` lines; names are given once, then by number)."""
    names = {}

    def function(token):
        token = token.strip()
        if token.startswith("("):
            number, _, name = token.partition(")")
            name = name.strip()
            if name:
                names[number] = name
            return names.get(number, "")
        return token

    caller = callee = ""
    counting = allocations = 0
    with open(profile) as f:
        for line in f:
            if line.startswith("fn="):
                caller = function(line[3:])
            elif line.startswith("cfn="):
                callee = function(line[4:])
            elif line.startswith("calls="):
                calls = int(line[6:].split()[0])
                if callee in REFERENCE_COUNTING and caller not in REFERENCE_COUNTING:
                    counting += calls
                elif callee in ALLOCATION and caller not in ALLOCATION:
                    allocations += calls
    return counting, allocations


def run(ctx):
    title = "7. Instructions on the parsing thread (callgrind), 5 MB inputs"
    if not which("valgrind") or not which("strip"):
        print_table(title, [], [], ["valgrind or binutils' strip is not installed: skipped."])
        return
    work = tempfile.mkdtemp(prefix="callgrind-", dir=ctx.out)
    try:
        # Valgrind 3.19 gives up on the debug information of a Swift release build ("possibly
        # corrupted debuginfo file"); the symbols it needs survive --strip-debug.
        binary = os.path.join(work, "feedpull")
        subprocess.run(["strip", "--strip-debug", "-o", binary, ctx.feedpull], check=True)
        measured = {}
        for fmt, name in FORMATS:
            path = ctx.input_file(fmt, SIZE)
            argv = feedpull_argv(ctx)
            items, _ = count_item_lines(argv + [path])
            progress("callgrind: %s" % name)
            threads = thread_instructions([binary] + argv[1:] + [path], os.path.join(work, fmt))
            measured[fmt] = (name, os.path.getsize(path), items, threads[0][0],
                             sum(count for count, _ in threads), runtime_calls(threads[0][1]))
        for fmt, name in C_FORMATS:
            path = ctx.input_file(fmt, SIZE)
            items, _ = count_item_lines([ctx.sax_baseline, path])
            progress("callgrind: C baseline, %s" % name)
            threads = thread_instructions([ctx.sax_baseline, path], os.path.join(work, "c-" + fmt))
            measured["c-" + fmt] = ("C baseline, " + name, os.path.getsize(path), items,
                                    threads[0][0], sum(count for count, _ in threads),
                                    runtime_calls(threads[0][1]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rows = []
    for fmt in [fmt for fmt, _ in FORMATS] + ["c-" + fmt for fmt, _ in C_FORMATS]:
        name, size, items, parsing, total, (counting, allocations) = measured[fmt]
        per_item = max(items, 1)
        c_total = measured.get("c-" + fmt, (None,) * 6)[4]
        rows.append([name, "%d" % size, str(items), "%.1f M" % (parsing / 1e6),
                     "%.1f" % (parsing / size), "%.1f k" % (parsing / per_item / 1e3),
                     "%.0f" % (counting / per_item), "%.1f" % (allocations / per_item),
                     "%.1f M" % (total / 1e6),
                     "%.2f×" % (total / c_total) if c_total and not fmt.startswith("c-") else ""])
    rss_name, rss_size, rss_items, rss_parsing, _, (rss_counting, _) = measured["rss20"]
    _, pod_size, _, pod_parsing, _, (pod_counting, _) = measured["podcast"]
    _, _, json_items, json_parsing, _, _ = measured["json11"]
    _, c_rss_size, _, c_rss, _, _ = measured["c-rss20"]
    _, c_pod_size, _, c_pod, _, _ = measured["c-podcast"]
    notes = [
        "Podcast against RSS 2.0, instructions a byte (the proxy of section 1's wall-time "
        "ratio, whose target is 0.75×): %.3f×. JSON Feed against RSS 2.0, instructions an item "
        "(the proxy of section 1's time per item): %.2f×." % (
            (rss_parsing / rss_size) / (pod_parsing / pod_size),
            (json_parsing / max(json_items, 1)) / (rss_parsing / max(rss_items, 1))),
        "The C baseline (one thread) doing the same job: its podcast against its RSS 2.0, "
        "instructions a byte: %.3f×; feedpull's parsing thread against it, on the podcast %.2f× "
        "its instructions, on RSS 2.0 %.2f×." % (
            (c_rss / c_rss_size) / (c_pod / c_pod_size), pod_parsing / c_pod,
            rss_parsing / c_rss),
        "Reference counting (calls to swift_retain, swift_release and their forms; each an "
        "atomic operation, dearer than the instructions it counts for) and allocations (calls "
        "to malloc, calloc and realloc, from Swift and from libxml2 alike) on the parsing "
        "thread, an item: the podcast makes %.2f× RSS 2.0's reference-count calls a byte, a "
        "cost its instruction count understates (a C program has none)." % (
            (pod_counting / pod_size) / (rss_counting / rss_size)),
        "Against the counts before the item table (commit 8d1aa65; the target is half of "
        "each): " + "; ".join(
            "%s %.0f → %.0f and %.1f → %.1f (%s)" % (
                measured[fmt][0], BEFORE[fmt][0], measured[fmt][5][0] / max(measured[fmt][2], 1),
                BEFORE[fmt][1], measured[fmt][5][1] / max(measured[fmt][2], 1),
                verdict(measured[fmt][5][0] / max(measured[fmt][2], 1) <= BEFORE[fmt][0] / 2
                        and measured[fmt][5][1] / max(measured[fmt][2], 1) <= BEFORE[fmt][1] / 2))
            for fmt, _ in FORMATS) + ".",
        "One run each: the counts repeat to within 0.1%. All threads: start-up, the input "
        "preparer and the reader besides the parse.",
    ]
    print_table(title, ["input", "bytes", "items", "parsing thread", "a byte", "an item",
                        "retain/release an item", "mallocs an item", "all threads",
                        "all threads vs C"], rows, notes)
