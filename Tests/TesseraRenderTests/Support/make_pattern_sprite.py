#!/usr/bin/env python3
"""Writes Cases/style-patterns/sprite.png and sprite.json: a sprite sheet of three pattern
images whose repeats are easy to count: "stripes" (12×12, a dark diagonal stripe on yellow),
"dots" (16×16, a blue dot on clear, half transparent at the rim) and "arrows" (24×8, a red
arrow pointing along +x on white). Needs only the standard library.

Run from the package root: python3 Tests/TesseraRenderTests/Support/make_pattern_sprite.py
"""
import json
import os
import struct
import zlib

FOLDER = os.path.join(os.path.dirname(__file__), "..", "Cases", "style-patterns")


def stripes(x, y):
    return (40, 40, 40, 255) if (x + y) % 12 < 4 else (240, 200, 60, 255)


def dots(x, y):
    distance = ((x - 7.5) ** 2 + (y - 7.5) ** 2) ** 0.5
    if distance < 4:
        return (30, 90, 220, 255)
    if distance < 5.5:
        return (30, 90, 220, 128)
    return (0, 0, 0, 0)


def arrows(x, y):
    inside = x < 16 and abs(y - 3.5) < 1.5 or 16 <= x < 23 and abs(y - 3.5) < (23 - x) * 0.6
    return (210, 30, 30, 255) if inside else (255, 255, 255, 255)


IMAGES = [("stripes", 12, 12, stripes), ("dots", 16, 16, dots), ("arrows", 24, 8, arrows)]
WIDTH = sum(width for _, width, _, _ in IMAGES)
HEIGHT = max(height for _, _, height, _ in IMAGES)

sheet = [[(0, 0, 0, 0)] * WIDTH for _ in range(HEIGHT)]
index = {}
left = 0
for name, width, height, draw in IMAGES:
    for y in range(height):
        for x in range(width):
            sheet[y][left + x] = draw(x, y)
    index[name] = {"x": left, "y": 0, "width": width, "height": height, "pixelRatio": 1}
    left += width


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


rows = b"".join(b"\x00" + bytes(v for pixel in row for v in pixel) for row in sheet)
png = (
    b"\x89PNG\r\n\x1a\n"
    + chunk(b"IHDR", struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 6, 0, 0, 0))
    + chunk(b"IDAT", zlib.compress(rows, 9))
    + chunk(b"IEND", b"")
)
with open(os.path.join(FOLDER, "sprite.png"), "wb") as file:
    file.write(png)
with open(os.path.join(FOLDER, "sprite.json"), "w") as file:
    json.dump(index, file, indent=1)
    file.write("\n")
