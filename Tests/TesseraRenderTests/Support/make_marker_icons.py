#!/usr/bin/env python3
"""Writes the marker icons used by the marker golden cases (Cases/markers-*/icons).

arrow.png (20x28): a blue arrow pointing up with a white outline; its tip is the top centre.
arrow@2x.png: the same arrow at twice the density, with a yellow stripe so the golden shows
which variant was chosen.
corner.png (16x16): an orange square with a black dot in its top-left pixel block, so
anchors show where the icon hangs.
Run from the repository root: python3 Tests/TesseraRenderTests/Support/make_marker_icons.py
"""

import os

from PIL import Image, ImageDraw

FOLDER = "Tests/TesseraRenderTests/Cases/markers-icons-anchors/icons"


def arrow(scale, stripe):
  width, height = 20 * scale, 28 * scale
  image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
  draw = ImageDraw.Draw(image)
  s = scale
  outline = [(10 * s, 0), (20 * s - 1, 12 * s), (14 * s, 12 * s), (14 * s, 28 * s - 1),
             (6 * s, 28 * s - 1), (6 * s, 12 * s), (0, 12 * s)]
  draw.polygon(outline, fill=(255, 255, 255, 255))
  inner = [(10 * s, 3 * s), (16 * s, 10 * s), (12 * s, 10 * s), (12 * s, 26 * s),
           (8 * s, 26 * s), (8 * s, 10 * s), (4 * s, 10 * s)]
  draw.polygon(inner, fill=(30, 90, 220, 255))
  if stripe:
    draw.rectangle([8 * s, 17 * s, 12 * s - 1, 19 * s - 1], fill=(250, 210, 40, 255))
  return image


def corner():
  image = Image.new("RGBA", (16, 16), (240, 130, 20, 255))
  draw = ImageDraw.Draw(image)
  draw.rectangle([0, 0, 3, 3], fill=(0, 0, 0, 255))
  draw.rectangle([15, 15, 15, 15], fill=(255, 255, 255, 255))
  return image


def main():
  os.makedirs(FOLDER, exist_ok=True)
  arrow(1, False).save(os.path.join(FOLDER, "arrow.png"))
  arrow(2, True).save(os.path.join(FOLDER, "arrow@2x.png"))
  corner().save(os.path.join(FOLDER, "corner.png"))


if __name__ == "__main__":
  main()
