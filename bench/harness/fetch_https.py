"""Section 8: fetch many over HTTPS: the fetch-many corpus (1,000 feeds of ~50 KB) from nginx
over TLS with HTTP/2, -j 16, the CA given with --cacert.

A throwaway CA and a server certificate for 127.0.0.1 are made with openssl under
bench/out/tls (once). nginx is started by this section on 127.0.0.1 (`listen … ssl http2`,
TLS 1.2 and 1.3) with its own prefix under bench/out/nginx-https and stopped by its PID; its
access log names each request's connection, TLS session reuse and protocol, so the table says
over how many connections each tool did the job. Politeness is lifted for feedpull as in the
plain fetch section (one loopback server is one site). Next to feedpull: the C multi baseline
doing the same job over the same connections (`--cacert`, PIPEWAIT), and `curl --parallel
--parallel-max 16` downloading only, for scale.
"""

import os
import subprocess

from common import (LOOPBACK, Stats, count_item_lines, exit_note, print_table, progress,
                    run_measured, verdict, which)
from fetch_many import FEEDS, JOBS, Nginx, corpus_dir
from parse_throughput import feedpull_argv

TARGET_RATIO = 1.3  # the target: feedpull within 1.3x the C baseline, in wall and in CPU time
RUN_TIMEOUT = 60


def make_certificates(directory):
    """A CA and a certificate for 127.0.0.1 signed by it, made once under `directory`."""
    if os.path.exists(os.path.join(directory, "complete")):
        return
    os.makedirs(directory, exist_ok=True)

    def openssl(*args):
        subprocess.run(["openssl"] + list(args), check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=directory)

    key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl("req", "-x509", *key, "-keyout", "ca.key", "-out", "ca.pem", "-days", "3650",
            "-subj", "/CN=feedpull bench CA")
    openssl("req", *key, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
    with open(os.path.join(directory, "server.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
            "-CAcreateserial", "-out", "server.pem", "-days", "3650", "-extfile", "server.ext")
    open(os.path.join(directory, "complete"), "w").close()


class HTTPSNginx(Nginx):
    """The fetch-many nginx speaking TLS and HTTP/2, with an access log of connections."""

    def __init__(self, prefix, corpus, tls):
        self.log = os.path.join(prefix, "access.log")
        super().__init__(
            prefix, corpus, listen=" ssl http2",
            log="log_format connections '$connection $server_protocol $ssl_session_reused';"
                "\n  access_log %s connections;" % self.log,
            http_extra="ssl_protocols TLSv1.2 TLSv1.3;\n  ssl_session_cache shared:tls:1m;\n"
                "  ssl_certificate %s/server.pem;\n  ssl_certificate_key %s/server.key;"
                % (tls, tls))

    def log_offset(self):
        return os.path.getsize(self.log) if os.path.exists(self.log) else 0

    def connections_since(self, offset):
        """(connections, requests, resumed handshakes, protocols) logged after `offset`; nginx
        writes a request's line when its response is done, so a finished tool's are all there."""
        connections, protocols, resumed = set(), set(), set()
        requests = 0
        with open(self.log) as f:
            f.seek(offset)
            for line in f:
                fields = line.split()
                if len(fields) != 3:
                    continue
                requests += 1
                connections.add(fields[0])
                protocols.add(fields[1])
                if fields[2] == "r":
                    resumed.add(fields[0])
        return len(connections), requests, len(resumed), sorted(protocols)


def run(ctx):
    title = ("8. Fetch many over HTTPS: "
             "`feedpull -j 16 --html raw --cacert ca.pem -i urls.txt > /dev/null`")
    missing = [tool for tool in ("nginx", "openssl", "curl") if not which(tool)]
    if missing:
        print_table(title, ["tool"], [], ["%s: not installed, section skipped."
                                          % ", ".join(missing)])
        return
    corpus = corpus_dir(ctx)
    tls = os.path.join(ctx.out, "tls")
    make_certificates(tls)
    ca = os.path.join(tls, "ca.pem")
    nginx = HTTPSNginx(os.path.join(ctx.out, "nginx-https"), corpus, tls)
    ctx.register_cleanup(nginx.stop)
    names = sorted(n for n in os.listdir(corpus) if n.endswith(".xml"))
    urls = ["https://%s:%d/plain/%s" % (LOOPBACK, nginx.port, n) for n in names]
    url_file = os.path.join(ctx.out, "urls-https.txt")
    with open(url_file, "w") as f:
        f.write("\n".join(urls) + "\n")
    curl_config = os.path.join(ctx.out, "curl-https.conf")
    with open(curl_config, "w") as f:
        f.write('cacert = "%s"\n' % ca)
        for url in urls:
            f.write('url = "%s"\noutput = "/dev/null"\n' % url)
    tools = [
        # As the parse section runs it (JSON Lines, `--html raw`): the C baseline writes the
        # HTML as the feed gives it, and sanitizing is the parse section's own row.
        ("feedpull", feedpull_argv(ctx) + ["-q", "-j", str(JOBS), "--per-host", str(JOBS),
                                           "--host-delay", "0", "--cacert", ca, "-i", url_file],
         b'"type":"item"'),
        ("C curl multi + SAX push (baseline)", [ctx.multi_baseline, "-j", str(JOBS),
                                                "--cacert", ca, url_file], b'"type":"item"'),
        ("curl --parallel (download only)", ["curl", "--parallel", "--parallel-max", str(JOBS),
                                             "-s", "-K", curl_config], None),
    ]
    rows = []
    try:
        progress("fetch many over HTTPS: %d URLs, %s" % (len(urls),
                                                         ", ".join(t[0] for t in tools)))
        items, connections = {}, {}
        for name, argv, marker in tools:
            offset = nginx.log_offset()
            count, _ = count_item_lines(argv, marker=marker, timeout=RUN_TIMEOUT)
            if marker:
                items[name] = count
            connections[name] = nginx.connections_since(offset)
        samples = {name: [] for name, _, _ in tools}
        for _ in range(ctx.runs):
            for name, argv, _ in tools:
                samples[name].append(run_measured(argv, timeout=RUN_TIMEOUT))
        c_name = tools[1][0]
        c_wall = Stats(m.wall for m in samples[c_name]).median
        c_cpu = Stats(m.cpu for m in samples[c_name]).median
        for name, _, _ in tools:
            wall = Stats(m.wall for m in samples[name])
            cpu = Stats(m.cpu for m in samples[name])
            count, requests, resumed, protocols = connections[name]
            target = ""
            if name == "feedpull":
                complete = items[name] == items[c_name] and requests == len(urls) \
                    and not exit_note(samples[name])
                met = wall.median / c_wall <= TARGET_RATIO and cpu.median / c_cpu <= TARGET_RATIO
                target = "≤ %.1f× C in wall and CPU: %s" % (TARGET_RATIO, verdict(met and complete))
                if not complete:
                    target += " (printed %d items of %d)" % (items[name], items[c_name])
            rows.append([
                name + exit_note(samples[name]), wall.format(3, " s"), cpu.format(3, " s"),
                "%.2f×" % (wall.median / c_wall), "%.2f×" % (cpu.median / c_cpu),
                "%d (%d requests, %s)" % (count, requests, "/".join(protocols)),
                str(items[name]) if name in items else "", target])
    finally:
        nginx.stop()
    notes = ["%d feeds of ~50 KB (the fetch-many corpus, uncompressed) from nginx on 127.0.0.1 "
             "over TLS with HTTP/2, %d in flight; the CA made at run time and given to every "
             "tool as a file. Wall = process start to exit; CPU = user + system of the tool "
             "(not nginx's). vs C = the tool's median / the C baseline's. connections = as "
             "nginx logged them in the untimed run. Medians of %d runs, min–max in brackets."
             % (FEEDS, JOBS, ctx.runs)]
    print_table(title, ["tool", "wall", "CPU", "wall vs C", "CPU vs C", "connections", "items",
                        "target"], rows, notes)
