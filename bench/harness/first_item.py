"""Section 3: time to first item over a slow connection.

A loopback server (a thread of this process, 127.0.0.1 only) trickles a 1 MB RSS 2.0 feed at
about 100 KB/s: 1,000-byte pieces every 10 ms, with a piece ending exactly at the last byte of
the first item's `</item>`. It notes CLOCK_MONOTONIC when that piece has been handed to the
kernel (TCP_NODELAY, so it leaves at once). The client's standard output is read line by line
in this process and its first item line is stamped on the same clock. The figure is the
difference: how long the program took from the item's last byte leaving the server to the item
being printed. The client is then stopped (the rest of the trickle would take 10 s).
"""

import os
import select
import socket
import subprocess
import threading
import time

from common import LOOPBACK, Stats, print_table, progress, verdict

FEED_BYTES = 1_000_000
PIECE = 1000
INTERVAL = 0.010  # 1,000 bytes every 10 ms: 100 KB/s
TARGET_MS = 5.0
CLIENT_DEADLINE = 15.0  # the whole trickle takes 10 s


class TrickleServer:
    """Serves one body slowly to each connection; records when the first item was sent."""

    def __init__(self, body, first_item_end):
        self.body = body
        self.first_item_end = first_item_end
        self.sent_at = {}  # path -> monotonic time the first item's last byte was sent
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind((LOOPBACK, 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.stopping = False
        self.thread = threading.Thread(target=self.accept_loop, daemon=True)
        self.thread.start()

    def accept_loop(self):
        while not self.stopping:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(connection,), daemon=True).start()

    def serve(self, connection):
        with connection:
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            request = b""
            while b"\r\n\r\n" not in request:
                data = connection.recv(4096)
                if not data:
                    return
                request += data
            path = request.split(b" ", 2)[1].decode()
            header = ("HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml; charset=utf-8\r\n"
                      "Content-Length: %d\r\nConnection: close\r\n\r\n" % len(self.body))
            try:
                connection.sendall(header.encode())
                start = time.monotonic()
                offset = 0
                step = 0
                while offset < len(self.body) and not self.stopping:
                    end = min(offset + PIECE, len(self.body))
                    if offset < self.first_item_end < end:
                        end = self.first_item_end  # a piece ends exactly at the item's last byte
                    connection.sendall(self.body[offset:end])
                    if end == self.first_item_end:
                        self.sent_at[path] = time.monotonic()
                    offset = end
                    step += 1
                    delay = start + step * INTERVAL - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
            except OSError:
                return  # the client went away after its first item: expected

    def stop(self):
        self.stopping = True
        self.listener.close()


def first_item_latency(server, argv, path):
    """Starts argv, stamps its first item line; returns milliseconds after the send, or None."""
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    printed_at = None
    pending = b""
    deadline = time.monotonic() + CLIENT_DEADLINE
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([process.stdout], [], [], remaining)[0]:
                break  # nothing printed in time: counted as a run without an item
            data = os.read(process.stdout.fileno(), 65536)
            if not data:
                break
            now = time.monotonic()
            pending += data
            lines = pending.split(b"\n")
            pending = lines.pop()
            if any(b'"type":"item"' in line for line in lines):
                printed_at = now
                break
    finally:
        process.kill()
        process.wait()
        process.stdout.close()
    sent_at = server.sent_at.get(path)
    if printed_at is None or sent_at is None:
        return None
    return (printed_at - sent_at) * 1000


def run(ctx):
    pieces = []
    import generate  # bench/generate.py, on sys.path from main.py
    generate.generate("rss20", FEED_BYTES, 3, pieces.append)
    body = b"".join(pieces)
    first_item_end = body.index(b"</item>") + len(b"</item>")
    server = TrickleServer(body, first_item_end)
    clients = [("feedpull", lambda url: [ctx.feedpull, "--format", "jsonl", url]),
               ("C curl + SAX push (baseline)", lambda url: [ctx.multi_baseline, url_file(ctx, url)])]
    results = {name: [] for name, _ in clients}
    failures = {name: 0 for name, _ in clients}
    runs = ctx.runs
    progress("time to first item, %d run(s) per client, 127.0.0.1:%d" % (runs, server.port))
    try:
        for run_index in range(runs):
            for client_index, (name, argv_for) in enumerate(clients):
                path = "/feed-%d-%d.xml" % (run_index, client_index)
                url = "http://%s:%d%s" % (LOOPBACK, server.port, path)
                latency = first_item_latency(server, argv_for(url), path)
                if latency is None:
                    failures[name] += 1
                else:
                    results[name].append(latency)
    finally:
        server.stop()
    rows = []
    for name, _ in clients:
        stats = Stats(results[name])
        printed = "%d of %d" % (len(results[name]), runs)
        target = ""
        if name == "feedpull":
            target = "≤ %.0f ms: %s" % (TARGET_MS, verdict(
                stats.median is not None and stats.median <= TARGET_MS and not failures[name]))
        rows.append([name, stats.format(2, " ms"), printed, target])
    notes = ["First item of a 1 MB RSS 2.0 feed trickled at ~100 KB/s (its `</item>` ends at "
             "byte %d, ~%.0f ms into the body); milliseconds from that byte's send to the item "
             "line being read from the client's stdout. Medians, min–max in brackets." %
             (first_item_end, first_item_end / PIECE * INTERVAL * 1000)]
    print_table("3. Time to first item: `feedpull --format jsonl http://127.0.0.1:PORT/feed.xml`",
                ["client", "first item after its last byte", "runs with an item", "target"],
                rows, notes)


def url_file(ctx, url):
    """multi_baseline reads its URLs from a file: one a line."""
    path = os.path.join(ctx.out, "first-item-url.txt")
    with open(path, "w") as f:
        f.write(url + "\n")
    return path
