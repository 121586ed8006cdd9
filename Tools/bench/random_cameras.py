#!/usr/bin/env python3
"""Writes seeded random-camera scenarios over the shared Monaco data, for compare.py.

usage: random_cameras.py --shared ../shared --out DIR [--count 24] [--seed 21]

Each scenario is a camera over Monaco: zoom 13-18 (Google's), any bearing, tilt from 0 to the
Google cap at that zoom (30 degrees at zoom 10 rising linearly to 65 at zoom 16 and beyond), a
size from phone to desktop and a scale of 1 or 2, in one of the shared Monaco styles (the basic
style with 3D buildings, or Liberty with all its labels). The same seed writes the same files.
"""
import argparse, json, os, random

# The Monaco data's well-filled middle (../shared/data/README.md), degrees.
LATITUDES = (43.727, 43.748)
LONGITUDES = (7.405, 7.437)
SIZES = [(800, 600), (1024, 768), (512, 512), (1280, 720), (390, 844)]
STYLES = ["styles/monaco-basic.json", "styles/monaco-liberty.json"]


def google_tilt_cap(zoom):
    """Google's maximum viewing angle at a zoom: 30 at <= 10, 65 at >= 16, linear between."""
    return 30 + 35 * min(max(zoom - 10, 0), 6) / 6


def scenarios(shared, count, seed):
    rng = random.Random(seed)
    data = os.path.join(os.path.abspath(shared), "data")
    result = []
    for index in range(count):
        zoom = round(rng.uniform(13, 18), 2)
        width, height = rng.choice(SIZES)
        # Scale 2 at phone and small sizes only: desktop sizes at 2x are beyond both engines' point.
        scale = 2 if width * height <= 512 * 512 * 1.3 and rng.random() < 0.5 else 1
        style = STYLES[index % len(STYLES)]
        result.append({
            "name": f"random-{index:02d}",
            "description": "seeded random camera over Monaco (Tools/bench/random_cameras.py)",
            "dataRoot": data,
            "size": {"width": width, "height": height},
            "scale": scale,
            "camera": {
                "latitude": round(rng.uniform(*LATITUDES), 6),
                "longitude": round(rng.uniform(*LONGITUDES), 6),
                "zoom": zoom,
                "bearing": round(rng.uniform(0, 360), 1),
                "viewingAngle": round(rng.uniform(0, google_tilt_cap(zoom)), 1),
            },
            "style": style,
        })
    return result


def write(shared, folder, count, seed):
    """Writes the scenarios into `folder`; returns their paths."""
    os.makedirs(folder, exist_ok=True)
    paths = []
    for scenario in scenarios(shared, count, seed):
        path = os.path.join(folder, scenario["name"] + ".json")
        with open(path, "w") as f:
            json.dump(scenario, f, indent=2)
        paths.append(path)
    return paths


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--seed", type=int, default=21)
    a = ap.parse_args()
    for path in write(a.shared, a.out, a.count, a.seed):
        print(path)


if __name__ == "__main__":
    main()
