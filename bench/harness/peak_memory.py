"""Section 2: peak resident memory of `feedpull --format jsonl -` on feeds streamed through a pipe.

The generator's output is never stored: this harness reads it in 1 MiB pieces and writes each
piece to the standard input of every tool at once (feedpull, the C baseline, Foundation's
XMLParser), so one generation serves all of them and 1 GB never sits on disk or in memory. The
slowest reader sets the pace, which changes no one's peak. Peak = ru_maxrss from wait4.
"""

import os
import select
import signal
import subprocess
import sys

from common import (MeasuredProcess, Stats, exit_note, print_table, progress, startup_floor,
                    verdict)

SIZES = ((10_000_000, "10 MB"), (100_000_000, "100 MB"), (1_000_000_000, "1 GB"))
TARGET_GROWTH = 0.10  # memory flat: 10 MB -> 1 GB grows < 10%
TARGET_MIB = 32.0  # and at most 32 MiB, at 10 MB and at 1 GB
PIECE = 1 << 20
STALL_SECONDS = 60.0


def fan_out(ctx, size, tools):
    """Streams one generated RSS 2.0 feed of `size` bytes into every tool; their Measurements."""
    generator = subprocess.Popen(
        [sys.executable, ctx.generator, "--format", "rss20", "--size", str(size), "--seed", "7"],
        stdout=subprocess.PIPE)
    children = {}
    for name, argv in tools:
        children[name] = MeasuredProcess(argv, stdin=subprocess.PIPE)
    for child in children.values():
        os.set_blocking(child.stdin.fileno(), False)
    open_inputs = {name: child.stdin.fileno() for name, child in children.items()}
    while open_inputs:
        piece = memoryview(generator.stdout.read(PIECE))
        if not piece:
            break
        offsets = {name: 0 for name in open_inputs}
        while offsets:
            ready = select.select([], [open_inputs[n] for n in offsets], [], STALL_SECONDS)[1]
            if not ready:
                # A tool that takes no input for this long is stuck: stopped and shown failed.
                for name in offsets:
                    os.kill(children[name].process.pid, signal.SIGTERM)  # rusage_exec kills it
                    del open_inputs[name]
                break
            for name in [n for n in offsets if open_inputs[n] in ready]:
                try:
                    offsets[name] += os.write(open_inputs[name], piece[offsets[name]:])
                except BlockingIOError:
                    continue
                except BrokenPipeError:
                    # A tool that stops reading early (a stub, a crash) is measured as it is.
                    del open_inputs[name]
                    del offsets[name]
                    continue
                if offsets[name] == len(piece):
                    del offsets[name]
    for child in children.values():
        try:
            child.stdin.close()
        except BrokenPipeError:
            pass
    generator.stdout.close()
    generator.wait()
    results = {}
    for name, child in children.items():
        results[name] = child.finish()
    return results


def run(ctx):
    tools = [("feedpull", [ctx.feedpull, "--format", "jsonl", "--max-bytes", "4G", "-"]),
             ("C SAX push (limit)", [ctx.sax_baseline, "-"])]
    notes = []
    if ctx.foundation_baseline:
        tools.append(("Foundation XMLParser (stream)", [ctx.foundation_baseline, "-"]))
    else:
        notes.append("Foundation XMLParser: not built, skipped.")
    peaks = {name: {} for name, _ in tools}
    statuses = {name: {} for name, _ in tools}
    for size, size_name in SIZES:
        runs = ctx.memory_runs(size)
        progress("peak memory %s through a pipe, %d run(s)" % (size_name, runs))
        samples = {name: [] for name, _ in tools}
        for _ in range(runs):
            for name, measurement in fan_out(ctx, size, tools).items():
                samples[name].append(measurement)
        for name, _ in tools:
            peaks[name][size] = Stats(m.max_rss_kib / 1024 for m in samples[name])
            statuses[name][size] = exit_note(samples[name])
    rows = []
    for name, _ in tools:
        small, large = peaks[name][SIZES[0][0]].median, peaks[name][SIZES[-1][0]].median
        growth = (large - small) / small
        target = ""
        if name == "feedpull":
            # A run that failed (a stub, a crash) proves nothing about memory.
            failed = any(statuses[name].values())
            target = "< %d%% growth: %s; ≤ %d MiB at 10 MB and at 1 GB: %s%s" % (
                TARGET_GROWTH * 100, verdict(growth < TARGET_GROWTH and not failed),
                TARGET_MIB, verdict(max(small, large) <= TARGET_MIB and not failed),
                " (it failed)" if failed else "")
        row = [name + "".join(sorted(set(statuses[name].values())))]
        row += [peaks[name][size].format(1) for size, _ in SIZES]
        row += ["%+.0f%%" % (growth * 100), target]
        rows.append(row)
    _, rss = startup_floor(ctx)
    notes.append("feedpull's start-up alone (`feedpull --version`) peaks at %s MiB: the floor "
                 "under its figures." % rss.format(1))
    notes.append("Peak RSS in MiB (ru_maxrss), RSS 2.0 generated on the fly into each tool's "
                 "standard input. Medians, min–max in brackets; runs: %s." % ", ".join(
                     "%s %d" % (n, ctx.memory_runs(s)) for s, n in SIZES))
    print_table("2. Peak memory: `generate.py | feedpull --format jsonl -`",
                ["tool"] + [n for _, n in SIZES] + ["10 MB → 1 GB", "target"], rows, notes)
