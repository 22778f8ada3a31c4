"""Section 4: fetch many: 1,000 feeds of ~50 KB from a loopback nginx, plain and gzip, -j 16.

nginx (Debian's) is started by this section in the foreground (`daemon off`) with its own
config and prefix under bench/out/nginx, listening on 127.0.0.1 only, and stopped by its PID
when the section ends, whatever happens. /plain/ serves the files as they are; /gzip/ serves
the pre-compressed NAME.gz beside each file (gzip_static) to a client that accepts gzip, so the
server spends no CPU compressing on this 2-core machine. Each tool gets the same URL list.
"""

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

from common import (LOOPBACK, Stats, count_item_lines, exit_note, free_loopback_port,
                    print_table, progress, run_measured, verdict, wait_for_port, which)

FEEDS = 1000
FEED_BYTES = 50_000
JOBS = 16
TARGET_RATIO = 1.3  # feedpull's wall time within 1.3x the C multi baseline's
RUN_TIMEOUT = 60  # newsboat needs ~17 s for this set; the C baseline under 1 s

NGINX_CONF = """\
worker_processes 1;
{user}
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 1024; }}
http {{
  {log}
  client_body_temp_path {prefix}/tmp/body;
  proxy_temp_path {prefix}/tmp/proxy;
  fastcgi_temp_path {prefix}/tmp/fastcgi;
  uwsgi_temp_path {prefix}/tmp/uwsgi;
  scgi_temp_path {prefix}/tmp/scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  types {{ application/rss+xml xml; }}
  {http_extra}
  server {{
    listen {address}:{port}{listen};
    location /plain/ {{ alias {corpus}/; gzip off; gzip_static off; }}
    location /gzip/ {{ alias {corpus}/; gzip off; gzip_static on; }}
  }}
}}
"""


class Nginx:
    """A private nginx on 127.0.0.1, stopped by PID. Plain http with no access log unless the
    section asks otherwise: `http_extra` directives for the `http` block, a `log` directive
    and `listen` parameters (the HTTPS section's TLS, HTTP/2 and connection log)."""

    def __init__(self, prefix, corpus, http_extra="", log="access_log off;", listen=""):
        self.prefix = prefix
        self.port = free_loopback_port()
        os.makedirs(os.path.join(prefix, "tmp"), exist_ok=True)
        conf = os.path.join(prefix, "nginx.conf")
        with open(conf, "w") as f:
            f.write(NGINX_CONF.format(
                prefix=prefix, corpus=corpus, address=LOOPBACK, port=self.port, log=log,
                listen=listen, http_extra=http_extra,
                # As root, nginx's worker would become `nobody`, who may not read the corpus.
                user="user root;" if os.geteuid() == 0 else ""))
        self.process = subprocess.Popen(
            ["nginx", "-p", prefix, "-c", conf, "-e", os.path.join(prefix, "error.log"),
             "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_port(self.port)
        except RuntimeError:
            self.stop()
            raise

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: the master stops its worker
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_nginx(ctx, section, directory_name, corpus, http_extra=""):
    """A private nginx serving `corpus` for a section, stopped when the section ends (or at
    exit); None, with the section's table saying so, when nginx is not installed. `http_extra`:
    more directives for its `http` block."""
    if not which("nginx"):
        print_table(section, ["tool"], [], ["nginx: not installed, section skipped."])
        return None
    nginx = Nginx(os.path.join(ctx.out, directory_name), corpus, http_extra)
    ctx.register_cleanup(nginx.stop)
    return nginx


def corpus_dir(ctx):
    """1,000 feeds (RSS 2.0, Atom, RSS 1.0 mixed) and their .gz, generated once per generator."""
    directory = os.path.join(ctx.out, "corpus-%s" % ctx.generator_stamp)
    if not os.path.exists(os.path.join(directory, "complete")):
        progress("generating %d feeds of ~%d KB with .gz beside them" % (FEEDS, FEED_BYTES // 1000))
        shutil.rmtree(directory, ignore_errors=True)
        subprocess.run([sys.executable, ctx.generator, "--corpus", directory, "--count",
                        str(FEEDS), "--size", str(FEED_BYTES), "--gzip"], check=True)
        open(os.path.join(directory, "complete"), "w").close()
    return directory


def write_lists(ctx, port, corpus, kind):
    names = sorted(n for n in os.listdir(corpus) if n.endswith(".xml"))
    urls = ["http://%s:%d/%s/%s" % (LOOPBACK, port, kind, n) for n in names]
    url_file = os.path.join(ctx.out, "urls-%s.txt" % kind)
    with open(url_file, "w") as f:
        f.write("\n".join(urls) + "\n")
    curl_config = os.path.join(ctx.out, "curl-%s.conf" % kind)
    with open(curl_config, "w") as f:
        if kind == "gzip":
            f.write("compressed\n")
        for url in urls:
            f.write('url = "%s"\noutput = "/dev/null"\n' % url)
    sfeedrc = os.path.join(ctx.out, "sfeedrc-%s" % kind)
    with open(sfeedrc, "w") as f:
        f.write("# sfeed_update's configuration for the fetch-many benchmark (%s set).\n" % kind)
        f.write("maxjobs=%d\n" % JOBS)
        f.write("sfeedpath=\"%s\"\n" % os.path.join(ctx.out, "sfeed-feeds"))
        if kind == "gzip":
            f.write('fetch() {\n\tcurl -L --max-redirs 0 -H "User-Agent:" -f -s -m 15 '
                    '--compressed "$2" 2>/dev/null\n}\n')
        f.write("feeds() {\n")
        for index, url in enumerate(urls):
            f.write('\tfeed "f%d" "%s"\n' % (index, url))
        f.write("}\n")
    return url_file, curl_config, sfeedrc, len(urls)


class SfeedPeer:
    """sfeed_update: a shell script running curl and sfeed per feed, 16 at a time."""

    def __init__(self, ctx):
        self.feeds = os.path.join(ctx.out, "sfeed-feeds")

    def prepare(self):
        shutil.rmtree(self.feeds, ignore_errors=True)  # every run starts with no feeds stored

    def count(self):
        total = 0
        for name in os.listdir(self.feeds) if os.path.isdir(self.feeds) else ():
            with open(os.path.join(self.feeds, name), "rb") as f:
                total += sum(1 for _ in f)
        return total


class NewsboatPeer:
    """newsboat -x reload: fetches every URL of its list into its SQLite cache."""

    def __init__(self, ctx):
        self.home = os.path.join(ctx.out, "newsboat")
        self.cache = os.path.join(self.home, "cache.db")
        self.config = os.path.join(self.home, "config")
        os.makedirs(self.home, exist_ok=True)
        with open(self.config, "w") as f:
            f.write("reload-threads %d\n" % JOBS)

    def argv(self, url_file):
        # HOME too, so that nothing is read from or written to the user's own ~/.newsboat.
        return ["env", "HOME=" + self.home, "newsboat", "-x", "reload", "-u", url_file,
                "-c", self.cache, "-C", self.config]

    def prepare(self):
        for path in (self.cache, self.cache + ".lock"):
            if os.path.exists(path):
                os.unlink(path)

    def count(self):
        try:
            with sqlite3.connect(self.cache) as db:
                return db.execute("select count(*) from rss_item").fetchone()[0]
        except sqlite3.Error:
            return 0


def peers(ctx, kind, url_file, sfeedrc, notes):
    """The slow peers that are installed, as (name, argv, peer); the others noted once."""
    found = []
    if which("sfeed_update"):
        found.append(("sfeed_update (maxjobs=16)", ["sfeed_update", sfeedrc], SfeedPeer(ctx)))
    elif kind == "plain":
        notes.append("sfeed_update: not installed, skipped.")
    if which("newsboat"):
        newsboat = NewsboatPeer(ctx)
        found.append(("newsboat (reload-threads 16)", newsboat.argv(url_file), newsboat))
    elif kind == "plain":
        notes.append("newsboat: not installed, skipped.")
    return found


def run(ctx):
    corpus = corpus_dir(ctx) if which("nginx") else None
    nginx = start_nginx(ctx, "4. Fetch many", "nginx", corpus)
    if nginx is None:
        return
    rows = []
    notes = []
    try:
        for kind in ("plain", "gzip"):
            url_file, curl_config, sfeedrc, count = write_lists(ctx, nginx.port, corpus, kind)
            tools = [
                ("feedpull", [ctx.feedpull, "--format", "jsonl", "-q", "-j", str(JOBS),
                              # One loopback server is one "site": politeness off, as for
                              # the baselines, which have none.
                              "--per-host", str(JOBS), "--host-delay", "0", "-i",
                              url_file], b'"type":"item"'),
                ("C curl multi + SAX push (baseline)", [ctx.multi_baseline, "-j", str(JOBS),
                                                        url_file], b'"type":"item"'),
                ("curl --parallel (network floor)", ["curl", "--parallel", "--parallel-max",
                                                     str(JOBS), "-s", "-K", curl_config], None),
            ]
            slow = peers(ctx, kind, url_file, sfeedrc, notes)
            progress("fetch many (%s): %d URLs, %s" % (kind, count,
                                                      ", ".join(t[0] for t in tools + slow)))
            items = {}
            timed_out = set()
            for name, argv, marker in tools:
                count, status = count_item_lines(argv, marker=marker, timeout=RUN_TIMEOUT)
                if marker:
                    items[name] = count
                if status == -9:
                    timed_out.add(name)  # a hung tool is shown once, not waited for each run
            samples = {name: [] for name, _, _ in tools + slow}
            for run_index in range(ctx.runs):
                for name, argv, _ in tools:
                    if name not in timed_out:
                        samples[name].append(run_measured(argv, timeout=RUN_TIMEOUT))
                if run_index < ctx.slow_peer_runs:
                    for name, argv, peer in slow:
                        peer.prepare()
                        samples[name].append(run_measured(argv, timeout=RUN_TIMEOUT))
                        items[name] = peer.count()
            c_wall = Stats(m.wall for m in samples[tools[1][0]]).median
            for name, _, marker in tools + slow:
                if name in timed_out:
                    target = "≤ %.1f× C: %s" % (TARGET_RATIO, verdict(False)) \
                        if name == "feedpull" else ""
                    rows.append([kind, name, "timed out after %d s" % RUN_TIMEOUT, "", "",
                                 str(items.get(name, "")), target])
                    continue
                wall = Stats(m.wall for m in samples[name])
                cpu = Stats(m.cpu for m in samples[name])
                ratio = wall.median / c_wall
                target = ""
                if name == "feedpull":
                    expected = items[tools[1][0]]
                    complete = items[name] == expected and not exit_note(samples[name])
                    target = "≤ %.1f× C: %s" % (TARGET_RATIO,
                                               verdict(ratio <= TARGET_RATIO and complete))
                    if not complete:
                        target += " (printed %d items of %d)" % (items[name], expected)
                rows.append([kind, name + exit_note(samples[name]), wall.format(3, " s"),
                             cpu.format(3, " s"), "%.2f×" % ratio,
                             str(items[name]) if name in items else "", target])
    finally:
        nginx.stop()
    notes.append("%d feeds of ~%d KB (%s) from nginx on 127.0.0.1, %d in flight. Wall = "
                 "process start to exit; CPU = user + system of the tool and its children "
                 "(not nginx's). vs C = wall time / the C multi baseline's. Medians of %d runs "
                 "(sfeed_update, newsboat: %d), min–max in brackets; items = item lines "
                 "printed (sfeed: lines stored; newsboat: items in its cache)." % (
                     FEEDS, FEED_BYTES // 1000, "RSS 2.0, Atom 1.0, RSS 1.0 as 7:2:1",
                     JOBS, ctx.runs, min(ctx.runs, ctx.slow_peer_runs)))
    print_table("4. Fetch many: `feedpull -j 16 -i urls.txt > /dev/null`",
                ["set", "tool", "wall", "CPU", "vs C", "items", "target"], rows, notes)
