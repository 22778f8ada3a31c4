"""The benchmark harness behind bench/run: inputs, sections, tables. See bench/README.md.

bench/run builds everything and calls this with the paths of what it built. Sections run in
order and print their tables to stdout as they finish (progress goes to stderr). Every server a
section starts is on 127.0.0.1 and is stopped when the section ends, and again at exit, on
SIGINT or SIGTERM (the cleanups are idempotent).
"""

import argparse
import atexit
import hashlib
import os
import platform
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)  # generate.py

import common  # noqa: E402
import fetch_https  # noqa: E402
import fetch_many  # noqa: E402
import first_item  # noqa: E402
import idle  # noqa: E402
import instructions  # noqa: E402
import parse_throughput  # noqa: E402
import peak_memory  # noqa: E402
import unchanged  # noqa: E402
from common import progress  # noqa: E402

SECTIONS = {
    "parse": parse_throughput.run,
    "memory": peak_memory.run,
    "first-item": first_item.run,
    "fetch-many": fetch_many.run,
    "idle": idle.run,
    "unchanged": unchanged.run,
    "instructions": instructions.run,
    "fetch-https": fetch_https.run,
}


class Context:
    """Paths, run counts and cleanups shared by the sections."""

    def __init__(self, args):
        self.bench = BENCH
        self.out = os.path.abspath(args.out)
        self.generator = os.path.join(BENCH, "generate.py")
        with open(self.generator, "rb") as f:
            self.generator_stamp = hashlib.sha1(f.read()).hexdigest()[:10]
        self.feedpull = args.feedpull
        self.sax_baseline = args.sax_baseline
        self.multi_baseline = args.multi_baseline
        self.foundation_baseline = args.foundation_baseline or None
        self.feedkit = args.feedkit or None
        self.quick = args.quick
        self.runs = args.runs or (2 if args.quick else 5)
        self.slow_peers = args.slow_peers
        self.slow_peer_runs = 1 if args.quick else 2
        self.idle_runs = 1 if args.quick else min(self.runs, 3)
        self.cleanups = []

    def memory_runs(self, size):
        if self.quick:
            return 1
        return min(self.runs, 2 if size >= 1_000_000_000 else 3)

    def input_file(self, fmt, size):
        """A generated feed under bench/out, made once for each version of generate.py."""
        directory = os.path.join(self.out, "inputs-" + self.generator_stamp)
        path = os.path.join(directory, "%s-%d.xml" % (fmt, size))
        if not os.path.exists(path):
            os.makedirs(directory, exist_ok=True)
            for old in os.listdir(self.out):  # inputs of an older generator: stale
                if old.startswith("inputs-") and old != os.path.basename(directory):
                    shutil.rmtree(os.path.join(self.out, old), ignore_errors=True)
            progress("generating %s (%d bytes)" % (os.path.basename(path), size))
            with open(path + ".part", "wb") as f:
                subprocess.run([sys.executable, self.generator, "--format", fmt, "--size",
                                str(size)], stdout=f, check=True)
            os.rename(path + ".part", path)
        return path

    def register_cleanup(self, cleanup):
        self.cleanups.append(cleanup)

    def run_cleanups(self):
        while self.cleanups:
            try:
                self.cleanups.pop()()
            except Exception as error:  # a cleanup must not hide the others
                print("cleanup failed: %s" % error, file=sys.stderr)


def describe_machine(ctx):
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    version = subprocess.run([ctx.feedpull, "--version"], capture_output=True, text=True)
    commit = subprocess.run(["git", "-C", BENCH, "describe", "--always", "--dirty"],
                            capture_output=True, text=True)
    print("# feedpull benchmark")
    print()
    print("- machine: %s, %d cores, %s %s" % (model, os.cpu_count(), platform.system(),
                                               platform.release()))
    print("- feedpull: %s (%s), commit %s" % (version.stdout.strip() or "unknown",
                                              ctx.feedpull, commit.stdout.strip() or "?"))
    print("- date: %s; runs per figure: %d%s" % (time.strftime("%Y-%m-%d %H:%M UTC",
                                                             time.gmtime()), ctx.runs,
                                               " (--quick)" if ctx.quick else ""))
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--feedpull", required=True)
    parser.add_argument("--sax-baseline", required=True)
    parser.add_argument("--multi-baseline", required=True)
    parser.add_argument("--foundation-baseline", default="")
    parser.add_argument("--rusage-exec", required=True)
    parser.add_argument("--feedkit", default="")
    parser.add_argument("--out", required=True)
    parser.add_argument("--runs", type=int, default=0)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--slow-peers", action="store_true")
    parser.add_argument("--sections", default=",".join(SECTIONS))
    args = parser.parse_args()
    wanted = [s for s in args.sections.split(",") if s]
    unknown = [s for s in wanted if s not in SECTIONS]
    if unknown:
        parser.error("unknown section(s) %s; known: %s" % (", ".join(unknown),
                                                           ", ".join(SECTIONS)))
    ctx = Context(args)
    common.RUSAGE_EXEC = args.rusage_exec
    common.RESULT_DIR = os.path.join(ctx.out, "rusage")
    shutil.rmtree(common.RESULT_DIR, ignore_errors=True)  # leftovers of an interrupted run
    os.makedirs(common.RESULT_DIR)
    os.makedirs(ctx.out, exist_ok=True)
    atexit.register(ctx.run_cleanups)
    atexit.register(common.stop_live_processes)

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    describe_machine(ctx)
    started = time.monotonic()
    for name in wanted:
        section_started = time.monotonic()
        SECTIONS[name](ctx)
        ctx.run_cleanups()
        progress("%s took %.0f s" % (name, time.monotonic() - section_started))
    progress("all sections took %.0f s" % (time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
