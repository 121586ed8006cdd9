#!/usr/bin/env python3
"""Writes the overlays-1500 benchmark scenario into Tools/bench/scenarios: 1,000 polylines of
100 vertices (100,000 in all; random walks like GPS tracks) and 500 polygons (irregular
12-gons on a grid, not overlapping) around Monaco, with simplestyle colours and widths.

- data/overlays-1500.geojson: the features (polygons first, then polylines).
- styles/overlays-1500.json: what MapLibre Native draws, a background and the GeoJSON as a fill
  layer and a line layer (round joins and caps).
- styles/background.json: the background alone, for Tessera, which draws the same file as
  overlays (the scenario's `tessera` object: `geojsonOverlays`).
- overlays-1500.json: the scenario.

Deterministic (fixed seed); needs only the standard library.
Run from the package root: python3 Tools/bench/make_overlay_scenario.py
"""
import json
import math
import os
import random

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios")
CENTER = (43.7384, 7.4246)
BACKGROUND = "#e8e4dc"


def main():
    rng = random.Random(1500)
    features = []
    # 500 polygons: a 25 x 20 grid of cells, each an irregular 12-gon inside its cell.
    span_lng, span_lat = 0.05, 0.03
    cols, rows = 25, 20
    cell_w, cell_h = span_lng / cols, span_lat / rows
    for row in range(rows):
        for col in range(cols):
            cx = CENTER[1] - span_lng / 2 + (col + 0.5) * cell_w
            cy = CENTER[0] - span_lat / 2 + (row + 0.5) * cell_h
            ring = []
            for k in range(12):
                angle = 2 * math.pi * k / 12
                r = rng.uniform(0.25, 0.42)
                ring.append([round(cx + math.cos(angle) * r * cell_w, 6), round(cy + math.sin(angle) * r * cell_h, 6)])
            ring.append(ring[0])
            hue = rng.choice(["#1a73e8", "#34a853", "#fbbc04", "#ea4335", "#9334e6"])
            features.append({"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [ring]},
                             "properties": {"fill": hue, "fill-opacity": 0.35, "stroke": hue, "stroke-width": 1.5,
                                            "stroke-opacity": 1}})
    # 1,000 polylines of 100 vertices: random walks.
    for _ in range(1000):
        lng = CENTER[1] + rng.uniform(-span_lng / 2, span_lng / 2)
        lat = CENTER[0] + rng.uniform(-span_lat / 2, span_lat / 2)
        heading = rng.uniform(0, 2 * math.pi)
        line = []
        for _ in range(100):
            line.append([round(lng, 6), round(lat, 6)])
            heading += rng.uniform(-0.5, 0.5)
            lng += math.cos(heading) * 0.00012
            lat += math.sin(heading) * 0.00009
        color = rng.choice(["#1967d2", "#188038", "#d93025", "#e37400", "#5f6368"])
        features.append({"type": "Feature", "geometry": {"type": "LineString", "coordinates": line},
                          "properties": {"stroke": color, "stroke-width": rng.choice([2, 3, 4]), "stroke-opacity": 1}})
    with open(os.path.join(HERE, "data", "overlays-1500.geojson"), "w") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f, separators=(",", ":"))
        f.write("\n")

    background = {"id": "background", "type": "background", "paint": {"background-color": BACKGROUND}}
    peer_style = {
        "version": 8, "name": "overlays-1500 as style layers",
        "sources": {"overlays": {"type": "geojson", "data": "file://data/overlays-1500.geojson", "tolerance": 0}},
        "layers": [
            background,
            {"id": "areas", "type": "fill", "source": "overlays", "filter": ["==", ["geometry-type"], "Polygon"],
             "paint": {"fill-color": ["get", "fill"], "fill-opacity": ["get", "fill-opacity"]}},
            {"id": "lines", "type": "line", "source": "overlays",
             "layout": {"line-join": "round", "line-cap": "round"},
             "paint": {"line-color": ["get", "stroke"], "line-width": ["get", "stroke-width"],
                       "line-opacity": ["get", "stroke-opacity"]}},
        ],
    }
    os.makedirs(os.path.join(HERE, "styles"), exist_ok=True)
    with open(os.path.join(HERE, "styles", "overlays-1500.json"), "w") as f:
        json.dump(peer_style, f, indent=1)
        f.write("\n")
    with open(os.path.join(HERE, "styles", "background.json"), "w") as f:
        json.dump({"version": 8, "name": "background", "sources": {}, "layers": [background]}, f, indent=1)
        f.write("\n")
    scenario = {
        "name": "overlays-1500",
        "description": "1,000 polylines (100,000 vertices) and 500 polygons around Monaco, 1024x768, flat. "
                       "MapLibre Native draws them as GeoJSON fill and line layers (the style); Tessera as "
                       "overlays from the same GeoJSON (the tessera object).",
        "dataRoot": ".",
        "size": {"width": 1024, "height": 768},
        "scale": 1,
        "camera": {"latitude": CENTER[0], "longitude": CENTER[1], "zoom": 14.2, "bearing": 0, "viewingAngle": 0},
        "style": "styles/overlays-1500.json",
        "tessera": {
            "style": "styles/background.json",
            "geojsonOverlays": [{"geojson": "data/overlays-1500.geojson"}],
        },
    }
    with open(os.path.join(HERE, "overlays-1500.json"), "w") as f:
        json.dump(scenario, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
