#!/usr/bin/env python3
"""The hand-built alternative the service benchmark compares with: MapLibre Native (pymgl)
behind a minimal Python HTTP server, one pymgl process per core.

usage: peer_server.py --style STYLE.json --data-root DIR --icon PIN.png --port PORT [--processes N]

It answers tileserver-gl static URLs as `tessera serve` does for the benchmark:
GET /styles/{id}/static/{lon},{lat},{zoom}@{bearing},{pitch}/{w}x{h}.png?marker=lng,lat&…
(MapLibre zoom). Each worker process keeps one map of the size asked for, moves its camera,
sets the markers' GeoJSON and renders a PNG. Run it with the peer venv's python.
"""
import argparse, json, multiprocessing, os, re, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

os.environ.setdefault("EGL_PLATFORM", "surfaceless")

URL = re.compile(r"^/styles/[^/]+/static/([-0-9.]+),([-0-9.]+),([0-9.]+)@([-0-9.]+),([0-9.]+)/(\d+)x(\d+)\.png$")
_map = None
_size = None


def _load_style(path, data_root):
    text = open(path).read()
    for scheme in ("mbtiles://", "pmtiles://", "file://"):
        text = text.replace(scheme, scheme + data_root + "/")
    return json.loads(text)


def _init(style_path, data_root, icon):
    global STYLE, ICON
    from PIL import Image
    STYLE = _load_style(style_path, data_root)
    STYLE["sources"]["markers"] = {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}
    STYLE["layers"].append({"id": "markers", "type": "symbol", "source": "markers",
                            "layout": {"icon-image": "pin", "icon-anchor": "bottom", "icon-allow-overlap": True,
                                       "icon-ignore-placement": True}})
    im = Image.open(icon).convert("RGBA")
    ICON = (im.tobytes(), im.width, im.height)


def _render(job):
    global _map, _size
    import pymgl
    lon, lat, zoom, bearing, pitch, w, h, markers = job
    if _map is None or _size != (w, h):
        _map = pymgl.Map(json.dumps(STYLE), width=w, height=h, ratio=1.0, longitude=lon, latitude=lat, zoom=zoom)
        _map.addImage("pin", ICON[0], ICON[1], ICON[2], 1.0, False)
        _size = (w, h)
    _map.setCenter(lon, lat)
    _map.setZoom(zoom)
    _map.setBearing(bearing % 360)
    _map.setPitch(pitch)
    features = [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [x, y]}, "properties": {}}
                for x, y in markers]
    _map.setGeoJSON("markers", json.dumps({"type": "FeatureCollection", "features": features}))
    return _map.renderPNG()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--style", required=True)
    ap.add_argument("--data-root", required=True)
    ap.add_argument("--icon", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--processes", type=int, default=os.cpu_count())
    a = ap.parse_args()
    pool = multiprocessing.Pool(a.processes, initializer=_init, initargs=(a.style, a.data_root, a.icon))

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            url = urlparse(self.path)
            if url.path == "/health":
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")
                return
            m = URL.match(url.path)
            if not m:
                self.send_error(404)
                return
            lon, lat, zoom, bearing, pitch = (float(m.group(i)) for i in range(1, 6))
            w, h = int(m.group(6)), int(m.group(7))
            markers = []
            for text in parse_qs(url.query).get("marker", []):
                x, y = text.split("|")[0].split(",")
                markers.append((float(x), float(y)))
            png = pool.apply((_render), ((lon, lat, zoom, bearing, pitch, w, h, markers),))
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(png)))
            self.end_headers()
            self.wfile.write(png)

    server = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    print(f"peer server on 127.0.0.1:{a.port} with {a.processes} pymgl processes", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    finally:
        pool.terminate()


if __name__ == "__main__":
    main()
