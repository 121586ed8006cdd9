#!/usr/bin/env python3
"""Writes Cases/overlays-route-spans/stamp.png (copied to overlays-route-spans-tilted/): a 16×16 stamp for a polyline's stamp span, a
white chevron pointing down (toward the end of the line, as the top of a stamp faces its start)
on a dark green square. Needs only the standard library.

Run from the package root: python3 Tests/TesseraRenderTests/Support/make_overlay_stamp.py
"""
import os
import struct
import zlib

SIZE = 16
OUT = os.path.join(os.path.dirname(__file__), "..", "Cases", "overlays-route-spans", "stamp.png")


def pixel(x, y):
    cx = abs(x + 0.5 - SIZE / 2)
    # A chevron: two arms rising from the bottom centre, 3 pixels thick.
    if abs((y + 0.5) - (4 + (SIZE / 2 - cx))) < 1.8:
        return (255, 255, 255, 255)
    return (20, 110, 60, 255)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def main():
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(SIZE)) for y in range(SIZE))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    with open(OUT, "wb") as f:
        f.write(png)


if __name__ == "__main__":
    main()
