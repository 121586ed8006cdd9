#!/usr/bin/env python3
"""Writes the synthetic raster fixtures of the golden cases (needs Pillow).

- Cases/style-raster/tiles/{z}/{x}/{y}.png: "imagery" for zooms 0-2, a smooth pattern of
  colour bands and discs in world coordinates, so neighbouring tiles join.
- Cases/style-hillshade/dem/{z}/{x}/{y}.png: a Terrarium DEM of zoom 9 tile 256/190 and its
  four zoom-10 children (near 0.35°E, 41.9°N) with a few Gaussian mountains and a ridge (up to
  about 2800 m), continuous across tiles.

Run from the package root: python3 Tests/TesseraRenderTests/Support/make_fixture_tiles.py
"""
import json
import math
import os

from PIL import Image

CASES = os.path.join(os.path.dirname(__file__), "..", "Cases")
SIZE = 256


def world(z, x, y, px, py):
    """World coordinates 0..1 of a pixel centre."""
    n = 1 << z
    return (x + (px + 0.5) / SIZE) / n, (y + (py + 0.5) / SIZE) / n


def imagery(u, v):
    # Sea and land bands with a few discs, colours like a satellite image.
    land = math.sin(u * 2 * math.pi * 3) * math.cos(v * 2 * math.pi * 2) + 0.3 * math.sin(u * 40 + v * 25)
    disc = any((u - cu) ** 2 + (v - cv) ** 2 < r * r for cu, cv, r in [(0.3, 0.4, 0.06), (0.7, 0.55, 0.04)])
    if disc:
        return (214, 196, 150)
    if land > 0.2:
        shade = int(40 * math.sin(u * 90) * math.sin(v * 70))
        return (70 + shade, 110 + shade, 50 + shade // 2)
    return (20, 60 + int(30 * v), 110 + int(40 * u))


# Mountains as (u, v) centre in the zoom-9 tile 256/190, spread and height (m).
MOUNTAINS = [(0.35, 0.40, 0.05, 2600), (0.62, 0.55, 0.03, 1600), (0.70, 0.25, 0.04, 2000)]


def elevation(u, v):
    # Coordinates relative to the zoom-9 tile 256/190.
    tu, tv = u * 512 - 256, v * 512 - 190
    h = sum(a * math.exp(-((tu - cu) ** 2 + (tv - cv) ** 2) / (2 * s * s)) for cu, cv, s, a in MOUNTAINS)
    ridge = 900 * math.exp(-((tv - 0.75 - 0.3 * (tu - 0.5)) ** 2) / (2 * 0.015 ** 2))
    return 200 + h + ridge


def terrarium(h):
    value = h + 32768
    r = int(value // 256)
    g = int(value % 256)
    b = int((value - math.floor(value)) * 256)
    return (r, g, b)


def write_pyramid(folder, zooms, colour, tilejson, tiles=None):
    for z in zooms:
        n = 1 << z
        for x in range(n):
            for y in range(n):
                if tiles is not None and (z, x, y) not in tiles:
                    continue
                image = Image.new("RGB", (SIZE, SIZE))
                pixels = image.load()
                for py in range(SIZE):
                    for px in range(SIZE):
                        pixels[px, py] = colour(*world(z, x, y, px, py))
                path = os.path.join(folder, str(z), str(x))
                os.makedirs(path, exist_ok=True)
                image.save(os.path.join(path, f"{y}.png"), optimize=True)
    with open(os.path.join(folder, "tilejson.json"), "w") as file:
        json.dump(tilejson, file, indent=2)
        file.write("\n")


write_pyramid(
    os.path.join(CASES, "style-raster", "tiles"), range(0, 3), imagery,
    {"tilejson": "3.0.0", "tiles": ["{z}/{x}/{y}.png"], "minzoom": 0, "maxzoom": 2, "tileSize": 256})
write_pyramid(
    os.path.join(CASES, "style-hillshade", "dem"), range(9, 11), lambda u, v: terrarium(elevation(u, v)),
    {"tilejson": "3.0.0", "tiles": ["{z}/{x}/{y}.png"], "minzoom": 9, "maxzoom": 10, "tileSize": 256,
     "encoding": "terrarium"},
    tiles={(9, 256, 190), (10, 512, 380), (10, 513, 380), (10, 512, 381), (10, 513, 381)})
