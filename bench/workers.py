#!/usr/bin/env python3
"""Many workers on one PostgreSQL: the wall time of one `--due` pass over --sources
sources with 1, 2 and 4 `feedpull` worker processes started together on one database, every
response delayed by --latency seconds (network-bound, like the real web), and the database's
own time per source (pg_stat_statements: execution time of every statement the workers sent,
divided by the sources) at the largest worker count.

    bench/workers.py [--feedpull .build/debug/feedpull] [--sources 5000] [--latency 0.05]
                     [--jobs 8] [--workers 1,2,4] [--host-delay 0]

It starts a throwaway PostgreSQL cluster in a temporary directory (as the postgres user when
run as root, on a Unix socket only) and a threaded HTTP/1.1 server on 127.0.0.1, and checks
that every source was requested exactly once in each pass.
"""

import argparse
import http.server
import os
import pwd
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import time


class Farm(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    latency = 0.05
    counts = {}
    lock = threading.Lock()

    def do_GET(self):
        time.sleep(self.latency)
        with self.lock:
            self.counts[self.path] = self.counts.get(self.path, 0) + 1
        name = self.path.rsplit("/", 1)[-1]
        body = (f'<?xml version="1.0"?><rss version="2.0"><channel><title>{name}</title>'
                f"<item><title>{name} a</title><guid>{name}-a</guid></item>"
                f"<item><title>{name} b</title><guid>{name}-b</guid></item>"
                "</channel></rss>").encode()
        # Head and body in one write: two small writes would meet the client's delayed ACK
        # (40 ms on Linux) and measure that instead of --latency.
        head = ("HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode()
        self.wfile.write(head + body)

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 256


class Cluster:
    def __init__(self):
        self.bin = sorted(os.listdir("/usr/lib/postgresql"), key=int)[-1]
        self.bin = f"/usr/lib/postgresql/{self.bin}/bin"
        self.dir = tempfile.mkdtemp(prefix="feedpull-bench-pg-")
        self.as_user = []
        if os.getuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.run("initdb", "-D", f"{self.dir}/data", "-U", "postgres", "--auth=trust",
                 "-E", "UTF8", "--locale=C", "--no-sync")
        self.run("pg_ctl", "-D", f"{self.dir}/data", "-l", f"{self.dir}/log", "-w", "-o",
                 f"-c listen_addresses='' -k {self.dir} -c max_connections=100 "
                 "-c shared_preload_libraries=pg_stat_statements -c synchronous_commit=off",
                 "start")

    def run(self, tool, *args):
        return subprocess.run(self.as_user + [f"{self.bin}/{tool}", *args], check=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              cwd="/tmp").stdout.strip()

    def sql(self, database, statement):
        return self.run("psql", "-h", self.dir, "-U", "postgres", "-At", "-d", database, "-c",
                        statement)

    def uri(self, database):
        return f"postgresql:///{database}?host={self.dir}&user=postgres"

    def stop(self):
        self.run("pg_ctl", "-D", f"{self.dir}/data", "-m", "fast", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--feedpull", default=".build/debug/feedpull")
    parser.add_argument("--sources", type=int, default=5000)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--host-delay", default="0",
                        help="feedpull's --host-delay; above 0 every start reserves a slot in "
                        "the database (all sources share one host here)")
    args = parser.parse_args()
    Farm.latency = args.latency
    server = Server(("127.0.0.1", 0), Farm)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    work = tempfile.mkdtemp(prefix="feedpull-bench-")
    listing = os.path.join(work, "sources.txt")
    with open(listing, "w") as out:
        out.write("\n".join(f"http://127.0.0.1:{port}/f/{n}" for n in range(args.sources)))
    cluster = Cluster()
    cluster.sql("postgres", "CREATE EXTENSION pg_stat_statements")
    rows = []
    try:
        for count in [int(w) for w in args.workers.split(",")]:
            database = f"bench_{count}"
            cluster.run("createdb", "-h", cluster.dir, "-U", "postgres", database)
            cluster.sql("postgres", "SELECT pg_stat_statements_reset()")
            Farm.counts.clear()
            argv = [args.feedpull, "-f", "jsonl", "--state", cluster.uri(database), "--due",
                    "-i", listing, "-j", str(args.jobs), "--per-host", str(args.jobs),
                    "--host-delay", args.host_delay, "-q"]
            start = time.monotonic()
            workers = [subprocess.Popen(argv, stdout=subprocess.DEVNULL) for _ in range(count)]
            statuses = [w.wait() for w in workers]
            wall = time.monotonic() - start
            once = len(Farm.counts) == args.sources and set(Farm.counts.values()) == {1}
            db_ms = float(cluster.sql(
                "postgres",
                "SELECT coalesce(sum(total_exec_time), 0) FROM pg_stat_statements "
                f"WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '{database}')"))
            rows.append((count, wall, db_ms / args.sources, statuses, once))
    finally:
        cluster.stop()
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    base = rows[0][1]
    print(f"{args.sources} sources, {args.latency * 1000:.0f} ms per response, "
          f"-j {args.jobs} per worker, --host-delay {args.host_delay}")
    print("workers  wall s  × one worker  db ms/source  exit  each source once")
    for count, wall, db_ms, statuses, once in rows:
        print(f"{count:>7}  {wall:6.2f}  {wall / base:12.2f}  {db_ms:12.3f}  "
              f"{','.join(map(str, statuses)):>4}  {once}")
    return 0 if all(set(r[3]) == {0} and r[4] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
