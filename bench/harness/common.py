"""What every benchmark section shares: measured child processes, statistics, tables, servers.

Every measured child runs under bin/rusage_exec (rusage_exec.c), which forks it, waits with
wait4 and reports its wall time, CPU time (user + system, including the children it waited
for, all threads), peak resident set (ru_maxrss) and voluntary context switches: the kernel's
accounting of that one process, not sampling.
"""

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

LOOPBACK = "127.0.0.1"  # the only address any section ever binds or connects to


@dataclass
class Measurement:
    wall: float  # seconds
    cpu: float  # seconds, user + system
    max_rss_kib: int
    voluntary_switches: int
    status: int  # exit status, or -signal


# bin/rusage_exec (rusage_exec.c), set by main.py: measures each child from a small parent.
RUSAGE_EXEC = None
# Where rusage_exec writes its one-line results (bench/out/rusage), set by main.py.
RESULT_DIR = None
# No tool may hang the benchmark: one that runs past this is killed and shows as failed.
DEFAULT_TIMEOUT = 300


# Measured tools still running, so that an interrupted benchmark stops them too.
LIVE = set()


def stop_live_processes():
    """SIGTERM to every rusage_exec still running; it forwards the signal to its tool."""
    for measured in list(LIVE):
        if measured.process.poll() is None:
            measured.process.terminate()
    LIVE.clear()


class MeasuredProcess:
    """A tool started under rusage_exec; finish() waits and returns its Measurement."""

    def __init__(self, argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                 timeout=DEFAULT_TIMEOUT):
        handle, self.result_path = tempfile.mkstemp(prefix="rusage-", suffix=".txt", dir=RESULT_DIR)
        os.close(handle)
        self.process = subprocess.Popen([RUSAGE_EXEC, self.result_path, str(int(timeout))]
                                        + list(argv), stdin=stdin, stdout=stdout,
                                        stderr=subprocess.DEVNULL)
        self.stdin = self.process.stdin
        LIVE.add(self)

    def finish(self):
        self.process.wait()
        LIVE.discard(self)
        try:
            with open(self.result_path) as f:
                fields = f.read().split()
            return Measurement(float(fields[0]), float(fields[1]), int(fields[2]),
                               int(fields[3]), int(fields[4]))
        except (OSError, IndexError, ValueError):
            return Measurement(0.0, 0.0, 0, 0, -1)
        finally:
            os.unlink(self.result_path)


def run_measured(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                 timeout=DEFAULT_TIMEOUT):
    """Runs argv to completion and measures it (stdout to /dev/null unless told)."""
    return MeasuredProcess(argv, stdin, stdout, timeout).finish()


def kill_after(process, seconds):
    """A started watchdog that kills `process` (by its PID, via Popen) after `seconds`."""
    timer = threading.Timer(seconds, lambda: process.poll() is None and process.kill())
    timer.daemon = True
    timer.start()
    return timer


def count_item_lines(argv, stdin=subprocess.DEVNULL, marker=b'"type":"item"',
                     timeout=DEFAULT_TIMEOUT):
    """Runs argv once, unmeasured, and counts the output lines holding `marker` (None: all)."""
    process = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    watchdog = kill_after(process, timeout)
    count = 0
    try:
        for line in process.stdout:
            if marker is None or marker in line:
                count += 1
        process.wait()
    finally:
        watchdog.cancel()
        process.stdout.close()
    return count, process.returncode


def which(name):
    return shutil.which(name)


def python_module_available(name):
    return subprocess.run([sys.executable, "-c", "import " + name],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def free_loopback_port():
    """An ephemeral port on 127.0.0.1 that was free a moment ago (for a server we then start)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def wait_for_port(port, deadline_seconds=10.0):
    """Waits until something accepts connections on 127.0.0.1:port, or raises."""
    deadline = time.monotonic() + deadline_seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((LOOPBACK, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("nothing listens on %s:%d after %.0f s" % (LOOPBACK, port, deadline_seconds))


class Stats:
    """Median and range of a list of numbers."""

    def __init__(self, values):
        self.values = list(values)
        self.median = statistics.median(self.values) if self.values else None
        self.low = min(self.values) if self.values else None
        self.high = max(self.values) if self.values else None

    def format(self, digits=2, unit=""):
        if self.median is None:
            return "—"
        text = "%.*f%s" % (digits, self.median, unit)
        if len(self.values) > 1:
            text += " (%.*f–%.*f)" % (digits, self.low, digits, self.high)
        return text


def verdict(ok):
    return "✅ met" if ok else "❌ not met"


def print_table(title, header, rows, notes=()):
    """A Markdown table (readable in a terminal, pasteable into the README)."""
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]

    def line(cells):
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"

    print()
    print("### " + title)
    if rows:  # a skipped section has only its note
        print()
        print(line(header))
        print("| " + " | ".join("-" * w for w in widths) + " |")
        for row in rows:
            print(line(row))
    for note in notes:
        print()
        print(note)
    sys.stdout.flush()


def progress(text):
    """A progress line on stderr, so stdout keeps only the tables."""
    print("  … " + text, file=sys.stderr, flush=True)


def exit_note(measurements):
    """' (exit N)' when a tool failed in any run, so a broken tool is not read as a fast one."""
    bad = sorted({m.status for m in measurements if m.status != 0})
    return " (exit %s)" % ",".join(str(s) for s in bad) if bad else ""


def startup_floor(ctx):
    """feedpull's fixed cost, `feedpull --version`: (wall Stats, peak RSS Stats in MiB).
    It explains the 1 MB figures (mostly start-up) and the floor under the peak memory."""
    if getattr(ctx, "startup", None) is None:
        runs = [run_measured([ctx.feedpull, "--version"]) for _ in range(max(ctx.runs, 3))]
        ctx.startup = (Stats(m.wall for m in runs), Stats(m.max_rss_kib / 1024 for m in runs))
    return ctx.startup

