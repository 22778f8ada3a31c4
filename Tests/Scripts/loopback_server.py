#!/usr/bin/env python3
"""An HTTP/1.1 test server on a loopback address, with TLS when given a certificate.

    loopback_server.py --address 127.0.0.1|127.0.0.2 [--cert PEM --key PEM] ROUTES.json

The tests (Tests/TestSupport/LoopbackScriptServer.swift) start it for what the Swift loopback
server cannot do: TLS with a throwaway certificate, and listening on 127.0.0.2. It binds the
address given (only 127.0.0.1 and 127.0.0.2 are accepted), on a port the kernel picks, and
prints `PORT n` once it listens. Each request is then printed as one JSON line, flushed
(`{"path": …, "headers": [[name, value], …]}`), before it is answered, so a test sees every
request that reached the server.

ROUTES.json maps a path to its answer: {"status": 200, "headers": [[name, value]], "body":
text} or "body_hex" for bytes, and "header_bytes": N to add one header of N bytes. A path
with no route gets 404.
"""

import argparse
import http.server
import json
import ssl
import sys
import threading


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True, choices=["127.0.0.1", "127.0.0.2"])
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("routes")
    args = parser.parse_args()
    with open(args.routes) as f:
        routes = json.load(f)
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def do_GET(self):
            with lock:
                print(json.dumps({"path": self.path, "headers": list(self.headers.items())}),
                      flush=True)
            route = routes.get(self.path)
            if route is None:
                route = {"status": 404, "body": "not found"}
            body = bytes.fromhex(route["body_hex"]) if "body_hex" in route else \
                route.get("body", "").encode()
            self.send_response(route.get("status", 200))
            for name, value in route.get("headers", []):
                self.send_header(name, value)
            if route.get("header_bytes"):
                self.send_header("X-Padding", "p" * route["header_bytes"])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer((args.address, 0), Handler)
    server.daemon_threads = True
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("PORT %d" % server.server_address[1], flush=True)
    # Ends when the test closes our stdin (or dies): no server outlives its test.
    threading.Thread(target=lambda: (sys.stdin.read(), server.shutdown()), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
