"""Section 5: the cost of waiting: 3 transfers to a silent server for 4 seconds.

The server (a thread of this process, 127.0.0.1 only) accepts every connection and never reads
or answers, so each transfer sits connected until `--timeout 4` ends it. What a waiting worker
should cost is close to nothing: the figures are the whole process's voluntary context switches
and CPU time (user + system, start-up included), from wait4's rusage, which sums all threads.
"""

import socket
import threading

from common import LOOPBACK, Stats, print_table, progress, run_measured, verdict

TRANSFERS = 3
WAIT_SECONDS = 4
TARGET_SWITCHES = 150
TARGET_CPU = 0.15


class SilentServer:
    """Accepts connections and holds them open without a byte, until stopped."""

    def __init__(self):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind((LOOPBACK, 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.held = []
        self.thread = threading.Thread(target=self.accept_loop, daemon=True)
        self.thread.start()

    def accept_loop(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(connection)

    def stop(self):
        self.listener.close()
        for connection in self.held:
            connection.close()


def run(ctx):
    server = SilentServer()
    urls = ["http://%s:%d/silent/%d.xml" % (LOOPBACK, server.port, n) for n in range(TRANSFERS)]
    url_file = ctx.out + "/urls-silent.txt"
    with open(url_file, "w") as f:
        f.write("\n".join(urls) + "\n")
    clients = [
        ("feedpull", [ctx.feedpull, "--format", "jsonl", "-q", "--timeout", str(WAIT_SECONDS),
                      "--per-host", "16", "--host-delay", "0"] + urls),
        ("C curl multi (baseline)", [ctx.multi_baseline, "--timeout", str(WAIT_SECONDS),
                                     url_file]),
    ]
    runs = ctx.idle_runs
    progress("idle: %d transfers waiting %d s on a silent server, %d run(s) per client"
             % (TRANSFERS, WAIT_SECONDS, runs))
    samples = {name: [] for name, _ in clients}
    try:
        for _ in range(runs):
            for name, argv in clients:
                samples[name].append(run_measured(argv, timeout=WAIT_SECONDS + 10))
    finally:
        server.stop()
    rows = []
    for name, _ in clients:
        wall = Stats(m.wall for m in samples[name])
        switches = Stats(m.voluntary_switches for m in samples[name])
        cpu = Stats(m.cpu for m in samples[name])
        target = ""
        if name == "feedpull":
            # It must have waited and then stopped by itself (exit 1: every transfer timed out).
            behaved = all(m.status >= 0 and WAIT_SECONDS * 0.9 <= m.wall <= WAIT_SECONDS + 5
                          for m in samples[name])
            target = "< %d switches: %s; < %.2f s CPU: %s%s" % (
                TARGET_SWITCHES, verdict(switches.median < TARGET_SWITCHES and behaved),
                TARGET_CPU, verdict(cpu.median < TARGET_CPU and behaved),
                "" if behaved else " (it did not wait %d s and stop)" % WAIT_SECONDS)
        killed = sorted({-m.status for m in samples[name] if m.status < 0})
        label = name + (" (killed: signal %s)" % ",".join(map(str, killed)) if killed else "")
        rows.append([label, wall.format(2, " s"), switches.format(0), cpu.format(3, " s"),
                     target])
    notes = ["%d transfers to a server that accepts and never answers, `--timeout %d`. "
             "Voluntary context switches and CPU (user + system) of the whole process from "
             "wait4 (exit status 1 is expected: every transfer ends in `timeout`). Medians of "
             "%d runs, min–max in brackets." % (TRANSFERS, WAIT_SECONDS, runs)]
    print_table("5. Idle: %d transfers waiting %d s on silent servers" % (TRANSFERS, WAIT_SECONDS),
                ["client", "wall", "voluntary switches", "CPU", "target"], rows, notes)
