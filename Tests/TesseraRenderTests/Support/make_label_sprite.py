#!/usr/bin/env python3
"""Writes Cases/text-icons/sprite.png and sprite.json: "shield" (40×28, a white rounded box
with a 3-pixel dark blue border, stretching between its rounded corners, text fitted into
its inner area: stretchX, stretchY and content in the index) and "dot-sdf" (32×32, a round
dot as a signed-distance field, 192 on its outline and 255/8 per pixel, drawn tinted by
icon-color); and Cases/text-along-lines/sprite.png and sprite.json: "arrow" (16×10, a dark
green arrow pointing along +x, for one-way roads). Needs only the standard library.

Run from the package root: python3 Tests/TesseraRenderTests/Support/make_label_sprite.py
"""
import json
import os
import struct
import zlib

FOLDER = os.path.join(os.path.dirname(__file__), "..", "Cases", "text-icons")
SHIELD = (40, 28)
DOT = (32, 32)


def shield(x, y):
    w, h = SHIELD
    radius = 8
    cx = min(max(x + 0.5, radius), w - radius)
    cy = min(max(y + 0.5, radius), h - radius)
    distance = ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2) ** 0.5
    if distance > radius:
        return (0, 0, 0, 0)
    if distance > radius - 3:
        return (20, 50, 140, 255)
    return (255, 255, 255, 255)


def dot(x, y):
    distance = ((x + 0.5 - 16) ** 2 + (y + 0.5 - 16) ** 2) ** 0.5
    value = max(0, min(255, round(192 + 255 / 8 * (10 - distance))))
    return (0, 0, 0, value)


def png(width, height, pixel):
    rows = []
    for y in range(height):
        row = bytearray([0])
        for x in range(width):
            row += bytes(pixel(x, y))
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    return data + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")


def arrow(x, y):
    # A shaft from x 1 to 10, 2 pixels thick, and a head from x 9 to 15.
    inside_shaft = 1 <= x <= 10 and 4 <= y <= 5
    inside_head = 9 <= x <= 15 and abs(y + 0.5 - 5) <= (15.5 - x) * 0.75
    return (30, 110, 60, 255) if inside_shaft or inside_head else (0, 0, 0, 0)


def write_arrow():
    folder = os.path.join(os.path.dirname(__file__), "..", "Cases", "text-along-lines")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "sprite.png"), "wb") as file:
        file.write(png(16, 10, arrow))
    with open(os.path.join(folder, "sprite.json"), "w") as file:
        json.dump({"arrow": {"x": 0, "y": 0, "width": 16, "height": 10, "pixelRatio": 1}}, file, indent=1)
        file.write("\n")


def main():
    write_arrow()
    width = SHIELD[0] + DOT[0]
    height = max(SHIELD[1], DOT[1])
    rows = []
    for y in range(height):
        row = bytearray([0])
        for x in range(width):
            if x < SHIELD[0]:
                pixel = shield(x, y) if y < SHIELD[1] else (0, 0, 0, 0)
            else:
                pixel = dot(x - SHIELD[0], y)
            row += bytes(pixel)
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
    os.makedirs(FOLDER, exist_ok=True)
    with open(os.path.join(FOLDER, "sprite.png"), "wb") as file:
        file.write(png)
    index = {
        "shield": {
            "x": 0, "y": 0, "width": SHIELD[0], "height": SHIELD[1], "pixelRatio": 1,
            "stretchX": [[8, 32]], "stretchY": [[8, 20]], "content": [5, 5, 35, 23],
        },
        "dot-sdf": {"x": SHIELD[0], "y": 0, "width": DOT[0], "height": DOT[1], "pixelRatio": 1, "sdf": True},
    }
    with open(os.path.join(FOLDER, "sprite.json"), "w") as file:
        json.dump(index, file, indent=1)
        file.write("\n")


if __name__ == "__main__":
    main()
