#!/usr/bin/env python3
"""A tile server for Tessera's HTTP source tests, on 127.0.0.1 and a free port.

Prints the port on its first line, then serves until its standard input closes (the test that
started it stopped or died) or it is killed. The first path segment picks
the behaviour; the body of a tile is b"tile <path>":
  /ok/...          200, no caching headers
  /cached/...      200, Cache-Control: max-age=3600 and an ETag
  /etag/...        200 with ETag "v1" and Cache-Control: no-cache; 304 when If-None-Match matches
  /nostore/...     200, Cache-Control: no-store
  /missing/...     404
  /empty/...       204
  /error/...       500 every time
  /flaky/...       500 on the first request of each path, then 200
  /slow/...        waits 3 seconds, then 200
  /truncated/...   announces 1000 bytes, sends 10, closes
  /hang/...        accepts the request and never answers (until the server stops)
  /tilejson/hostile.json   a TileJSON document whose zooms are 1e300
  /glyphs/<stack>/0-255.pbf   a glyph PBF of one glyph ("A", 8×12); other ranges 404
  /glyphs-corrupt/...      200 with bytes that are not a glyph PBF
The argument, if given, names a file rewritten after every request with a JSON object of how
many requests each path received.
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

counts = {}
lock = threading.Lock()
counts_file = sys.argv[1] if len(sys.argv) > 1 else None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=None):
        self.send_response(status)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]
        with lock:
            counts[path] = counts.get(path, 0) + 1
            seen = counts[path]
            if counts_file:
                with open(counts_file + ".tmp", "w") as out:
                    json.dump(counts, out)
                os.replace(counts_file + ".tmp", counts_file)
        kind = path.strip("/").split("/")[0]
        body = ("tile " + path).encode()
        if kind == "ok":
            return self.send(200, body)
        if kind == "cached":
            return self.send(200, body, {"Cache-Control": "max-age=3600", "ETag": '"c1"'})
        if kind == "etag":
            if self.headers.get("If-None-Match") == '"v1"':
                return self.send(304, b"", {"ETag": '"v1"', "Cache-Control": "no-cache"})
            return self.send(200, body, {"ETag": '"v1"', "Cache-Control": "no-cache"})
        if kind == "nostore":
            return self.send(200, body, {"Cache-Control": "no-store"})
        if kind == "missing":
            return self.send(404, b"not found")
        if kind == "empty":
            return self.send(204)
        if kind == "error":
            return self.send(500, b"broken")
        if kind == "flaky":
            return self.send(500 if seen == 1 else 200, b"retry" if seen == 1 else body)
        if kind == "slow":
            time.sleep(3)
            return self.send(200, body)
        if kind == "hang":
            while True:
                time.sleep(3600)
        if kind == "tilejson":
            port = self.server.server_address[1]
            document = {"tilejson": "3.0.0", "tiles": ["http://127.0.0.1:%d/ok/{z}/{x}/{y}.png" % port],
                        "minzoom": 0, "maxzoom": 1e300}
            return self.send(200, json.dumps(document).encode(), {"Content-Type": "application/json"})
        if kind == "truncated":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.wfile.flush()
            self.close_connection = True
            return
        if kind == "glyphs":
            if path.endswith("/0-255.pbf"):
                return self.send(200, glyph_pbf(), {"Content-Type": "application/x-protobuf"})
            return self.send(404, b"no such range")
        if kind == "glyphs-corrupt":
            return self.send(200, b"\x0a\xff\x01junk")
        return self.send(400, b"unknown behaviour")


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def glyph_pbf():
    width, height = 8, 12
    bitmap = bytes((i * 37) % 256 for i in range((width + 6) * (height + 6)))
    glyph = varint(1 << 3) + varint(65) + field(2, bitmap)
    for number, value in ((3, width), (4, height), (5, 2), (6, 13), (7, 10)):
        glyph += varint(number << 3) + varint(value)
    return field(1, field(1, b"Test") + field(2, b"0-255") + field(3, glyph))


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)

    def exit_when_stdin_closes():
        sys.stdin.buffer.read()
        os._exit(0)

    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
