#!/usr/bin/env python3
"""Writes Cases/overlays-traffic/traffic.geojson: traffic lines on the demo city's streets near
(40, -74). Demo city streets run along multiples of 128 world points at zoom 17; each street
gets one line per direction (so the right-hand offset puts them on either side), cut into
pieces with congestion levels (low, moderate, heavy, severe) or, on one street, speed ratios
(numbers 0…1). Needs only the standard library.

Run from the package root: python3 Tests/TesseraRenderTests/Support/make_traffic_lines.py
"""
import json
import math
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "Cases", "overlays-traffic", "traffic.geojson")
WORLD = 256 * 2 ** 17
BLOCK = 128


def world(lat, lng):
    x = (lng + 180) / 360 * WORLD
    y = (1 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / math.pi) / 2 * WORLD
    return x, y


def coordinate(x, y):
    lng = x / WORLD * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / WORLD))))
    return [round(lng, 7), round(lat, 7)]


def main():
    cx, cy = world(40.0, -74.0)
    gx, gy = round(cx / BLOCK), round(cy / BLOCK)
    features = []
    levels = ["low", "moderate", "heavy", "severe", "low", "heavy"]

    def add(points, value):
        for forward in (True, False):
            line = points if forward else points[::-1]
            v = value if forward else (levels[(levels.index(value) + 2) % 4] if isinstance(value, str) else 1 - value)
            features.append({"type": "Feature", "properties": {"congestion": v},
                             "geometry": {"type": "LineString", "coordinates": [coordinate(*p) for p in line]}})

    # Three east-west streets and three north-south streets, each in pieces of two blocks.
    for row, offset in enumerate((-1, 0, 1)):
        y = (gy + offset) * BLOCK
        for piece in range(-3, 3):
            x0, x1 = (gx + piece * 2) * BLOCK, (gx + piece * 2 + 2) * BLOCK
            add([(x0, y), (x1, y)], levels[(piece + row + 3) % len(levels)])
    for column, offset in enumerate((-2, 1)):
        x = (gx + offset) * BLOCK
        for piece in range(-2, 2):
            y0, y1 = (gy + piece * 2) * BLOCK, (gy + piece * 2 + 2) * BLOCK
            add([(x, y0), (x, y1)], levels[(piece + column + 2) % len(levels)])
    # One street with speed ratios instead of levels.
    x = (gx + 2) * BLOCK
    for piece, ratio in zip(range(-2, 2), (0.9, 0.6, 0.3, 0.1)):
        y0, y1 = (gy + piece * 2) * BLOCK, (gy + piece * 2 + 2) * BLOCK
        add([(x, y0), (x, y1)], ratio)
    with open(OUT, "w") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
