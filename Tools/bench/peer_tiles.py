#!/usr/bin/env python3
"""The peer of the raster tile benchmark: MapLibre Native (pymgl) rendering tiles one by one,
one process per core, each tile a map of the tile's size at its centre (MapLibre zoom: z - 1
for 256-pixel tiles, z for 512) encoded as PNG, as a hand-built tile renderer does.

usage: peer_tiles.py --style STYLE.json --data-root DIR --tiles TILES.json --tile-size 256|512
                     [--processes N]
TILES.json is a list of [z, x, y]. Prints JSON: tiles, seconds, tiles_per_second.
Run it with the peer venv's python.
"""
import argparse, json, math, multiprocessing, os, time

os.environ.setdefault("EGL_PLATFORM", "surfaceless")
_map = None


def _init(style, size):
    global STYLE, SIZE
    STYLE, SIZE = style, size


def _centre(z, x, y):
    n = 2 ** z
    lon = (x + 0.5) / n * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * (y + 0.5) / n))))
    return lon, lat


def _render(tile):
    global _map
    import pymgl
    z, x, y = tile
    lon, lat = _centre(z, x, y)
    zoom = z - 1 if SIZE == 256 else z
    if _map is None:
        _map = pymgl.Map(STYLE, width=SIZE, height=SIZE, ratio=1.0, longitude=lon, latitude=lat, zoom=zoom)
    _map.setCenter(lon, lat)
    _map.setZoom(zoom)
    return len(_map.renderPNG())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--style", required=True)
    ap.add_argument("--data-root", required=True)
    ap.add_argument("--tiles", required=True)
    ap.add_argument("--tile-size", type=int, default=256)
    ap.add_argument("--processes", type=int, default=os.cpu_count())
    a = ap.parse_args()
    text = open(a.style).read()
    for scheme in ("mbtiles://", "pmtiles://", "file://"):
        text = text.replace(scheme, scheme + a.data_root + "/")
    tiles = json.load(open(a.tiles))
    with multiprocessing.Pool(a.processes, initializer=_init, initargs=(text, a.tile_size)) as pool:
        pool.map(_render, tiles[: a.processes * 2])  # warm-up: each process makes its map
        start = time.perf_counter()
        sizes = pool.map(_render, tiles, chunksize=4)
        seconds = time.perf_counter() - start
    print(json.dumps({"tiles": len(sizes), "seconds": round(seconds, 3),
                      "tiles_per_second": round(len(sizes) / seconds, 2)}))


if __name__ == "__main__":
    main()
