#!/usr/bin/env python3
"""Writes Cases/style-image-source/picture.png: a 128×96 picture whose orientation shows at a
glance (a red top band, a blue left band, a checker of 16-pixel squares and a white diagonal
from the top left), with straight alpha fading out in the bottom right corner. Needs only the
standard library.

Run from the package root: python3 Tests/TesseraRenderTests/Support/make_image_source_picture.py
"""
import os
import struct
import zlib

WIDTH, HEIGHT = 128, 96
OUT = os.path.join(os.path.dirname(__file__), "..", "Cases", "style-image-source", "picture.png")


def pixel(x, y):
    if y < 12:
        return (220, 40, 40, 255)
    if x < 12:
        return (40, 70, 220, 255)
    if abs(x * HEIGHT - y * WIDTH) < 2 * WIDTH:
        return (255, 255, 255, 255)
    shade = 170 if ((x // 16) + (y // 16)) % 2 == 0 else 90
    alpha = 255 if x + y < 170 else max(0, 255 - (x + y - 170) * 4)
    return (shade, 190, 120, alpha)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


rows = b"".join(b"\x00" + bytes(v for x in range(WIDTH) for v in pixel(x, y)) for y in range(HEIGHT))
png = (
    b"\x89PNG\r\n\x1a\n"
    + chunk(b"IHDR", struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 6, 0, 0, 0))
    + chunk(b"IDAT", zlib.compress(rows, 9))
    + chunk(b"IEND", b"")
)
with open(OUT, "wb") as file:
    file.write(png)
