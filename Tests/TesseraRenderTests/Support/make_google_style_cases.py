#!/usr/bin/env python3
"""Writes the golden cases of Google map styling: Cases/google-<style>-<place>-<view>/case.json
for the styles in Cases/google-styles/ (night, retro, silver, aubergine: looks after Google's
published example styles, written for these tests; hide-business and hide-transit) over the demo
city and over Monaco (OpenMapTiles from ../shared/data, skipped without it), flat and tilted.
Needs only the standard library.

Run from the package root: python3 Tests/TesseraRenderTests/Support/make_google_style_cases.py
"""
import json
import os

CASES = os.path.join(os.path.dirname(__file__), "..", "Cases")
SHARED = "../../../../../shared/data"
PLACES = {
    "demo": {"camera": {"latitude": 40.0, "longitude": -74.0}, "flat": 16.5, "tilted": 16.8},
    "monaco": {"camera": {"latitude": 43.7384, "longitude": 7.4246}, "flat": 16.0, "tilted": 16.4},
}
LOOKS = {
    "night": "dark blue-grey land and roads, brown highways with gold names, dark teal parks, navy water",
    "retro": "parchment land, cream roads, yellow-orange highways, sage parks, green-grey water",
    "silver": "light greys, white roads, grey names, no label icons",
    "aubergine": "dark navy-purple land, blue roads and highways, teal names, near-black water",
    "hide-business": "the normal map type with every business POI (shops, food, lodging, banks) gone",
    "hide-transit": "the normal map type without railways, stations or road shields",
}
VIEWS = {
    "night": ["flat", "tilted"], "retro": ["flat", "tilted"], "silver": ["flat", "tilted"],
    "aubergine": ["flat", "tilted"], "hide-business": ["flat"], "hide-transit": ["tilted"],
}


def main():
    for style, views in VIEWS.items():
        for place, spec in PLACES.items():
            if style == "hide-business" and place == "demo":
                continue  # the demo city's POIs at street zoom are not businesses here
            for view in views:
                camera = dict(spec["camera"], zoom=spec[view])
                if style == "hide-business":
                    # Street zoom, where minor POIs (shops, cafés) show.
                    camera["zoom"] = 17.3
                if view == "tilted":
                    camera.update(bearing=-25, viewingAngle=55)
                case = {
                    "description": f"Google styling '{style}' ({LOOKS[style]}) over the normal map type, "
                                   f"{'the demo city' if place == 'demo' else 'Monaco'}, "
                                   f"{'flat' if view == 'flat' else 'tilted 55° and turned −25°'} at zoom {camera['zoom']}.",
                    "size": {"width": 320, "height": 240},
                    "camera": camera,
                    "mapStyle": f"../google-styles/{style}.json",
                }
                if place == "monaco":
                    case["dataRoot"] = SHARED
                    case["tiles"] = "vector/monaco-openmaptiles.mbtiles"
                    case["test"] = {"sharedData": True}
                folder = os.path.join(CASES, f"google-{style}-{place}-{view}")
                os.makedirs(folder, exist_ok=True)
                with open(os.path.join(folder, "case.json"), "w") as f:
                    json.dump(case, f, indent=2, ensure_ascii=False)
                    f.write("\n")


if __name__ == "__main__":
    main()
