#!/usr/bin/env python3
"""Writes Cases/indoor-venue (an IMDF folder) and Cases/indoor-venue.zip: a two-storey
bazaar with Persian names over demo-city building 19 at 40.0,-74.0 (the indoor goldens,
IndoorTests, the CLI and scene sweeps read it). Run from Tests/TesseraRenderTests."""
import json, os, zipfile

W, E, S, N = -74.00045, -73.99991, 39.99976, 40.000175
MID = (S + N) / 2
CS, CN = MID - 0.00004, MID + 0.00004
OUT = "Cases/indoor-venue"


def rect(w, s, e, n):
    ring = [[w, s], [e, s], [e, n], [w, n], [w, s]]
    return {"type": "Polygon", "coordinates": [[[round(x, 7), round(y, 7)] for x, y in ring]]}


def pt(x, y):
    return {"type": "Point", "coordinates": [round(x, 7), round(y, 7)]}


def ln(a, b, y):
    return {"type": "LineString", "coordinates": [[round(a, 7), round(y, 7)], [round(b, 7), round(y, 7)]]}


def fc(features):
    return {"type": "FeatureCollection", "features": features}


def feat(i, kind, geometry, properties):
    return {"type": "Feature", "id": i, "feature_type": kind, "geometry": geometry, "properties": properties}


def write(name, value):
    with open(os.path.join(OUT, name), "w") as file:
        json.dump(value, file, ensure_ascii=False, indent=1)


os.makedirs(OUT, exist_ok=True)
cx = (W + E) / 2
write("manifest.json", {"version": "1.0.0", "created": "2026-12-03T00:00:00Z", "language": "fa"})
write("venue.geojson", fc([feat("venue-1", "venue", rect(W, S, E, N), {
    "category": "shoppingcenter", "name": {"fa": "بازار نو", "en": "New Bazaar"}, "display_point": pt(cx, MID)})]))
write("building.geojson", fc([feat("building-1", "building", None, {"category": "unspecified", "name": {"fa": "بازار نو"}})]))
write("footprint.geojson", fc([feat("footprint-1", "footprint", rect(W, S, E, N), {"category": "ground", "building_ids": ["building-1"]})]))
write("level.geojson", fc([
    feat("level-0", "level", rect(W, S, E, N), {"category": "unspecified", "ordinal": 0, "outdoor": False,
         "name": {"fa": "طبقه همکف", "en": "Ground floor"}, "short_name": {"fa": "همکف", "en": "G"}, "building_ids": ["building-1"]}),
    feat("level-1", "level", rect(W, S, E, N), {"category": "unspecified", "ordinal": 1, "outdoor": False,
         "name": {"fa": "طبقه اول", "en": "First floor"}, "short_name": {"fa": "۱", "en": "1"}, "building_ids": ["building-1"]}),
]))
xs = [W + (E - W) * k / 3 for k in range(4)]
sx = [W, W + (E - W) * 0.22, W + (E - W) * 0.38, W + (E - W) * 0.54, E]
units, openings, fixtures, amenities, anchors, occupants = [], [], [], [], [], []


def unit(i, level, geometry, category, name):
    units.append(feat(i, "unit", geometry, {"category": category, "level_id": level, "name": {"fa": name} if name else None}))


unit("u0-corridor", "level-0", rect(W, CS, E, CN), "walkway", "راهرو")
for k, (category, name) in enumerate([("room", "کتابفروشی"), ("foodservice", None), ("room", "داروخانه")]):
    unit("u0-north-%d" % k, "level-0", rect(xs[k], CN, xs[k + 1], N), category, name)
    mx = (xs[k] + xs[k + 1]) / 2
    openings.append(feat("o0-%d" % k, "opening", ln(mx - 0.00003, mx + 0.00003, CN), {"category": "pedestrian", "level_id": "level-0"}))
for k, (category, name) in enumerate([("restroom", "سرویس بهداشتی"), ("stairs", "پله"), ("elevator", "آسانسور"), ("foodservice", "نانوایی")]):
    unit("u0-south-%d" % k, "level-0", rect(sx[k], S, sx[k + 1], CS), category, name)
    mx = (sx[k] + sx[k + 1]) / 2
    openings.append(feat("o0-s%d" % k, "opening", ln(mx - 0.00002, mx + 0.00002, CS), {"category": "pedestrian", "level_id": "level-0"}))
fixtures.append(feat("f0-counter", "fixture", rect(xs[1] + 0.00003, CN + 0.00002, xs[2] - 0.00003, CN + 0.00004), {"category": "furniture", "level_id": "level-0"}))
amenities.append(feat("a0-restroom", "amenity", pt((sx[0] + sx[1]) / 2, (S + CS) / 2), {"category": "restroom", "unit_ids": ["u0-south-0"]}))
amenities.append(feat("a0-elevator", "amenity", pt((sx[2] + sx[3]) / 2, (S + CS) / 2), {"category": "elevator", "unit_ids": ["u0-south-2"]}))
anchors.append(feat("anchor-cafe", "anchor", pt((xs[1] + xs[2]) / 2, (CN + N) / 2 + 0.00002), {"unit_id": "u0-north-1"}))
occupants.append(feat("occ-cafe", "occupant", None, {"category": "cafe", "name": {"fa": "کافه نادری"}, "anchor_id": "anchor-cafe"}))
unit("u1-corridor", "level-1", rect(W, CS, E, CN), "walkway", "راهرو")
unit("u1-office", "level-1", rect(W, CN, xs[2], N), "office", "دفتر مرکزی")
unit("u1-meeting", "level-1", rect(xs[2], CN, E, N), "conferenceroom", "اتاق جلسات")
unit("u1-restroom", "level-1", rect(sx[0], S, sx[1], CS), "restroom", "سرویس بهداشتی")
unit("u1-stairs", "level-1", rect(sx[1], S, sx[2], CS), "stairs", "پله")
unit("u1-elevator", "level-1", rect(sx[2], S, sx[3], CS), "elevator", "آسانسور")
unit("u1-terrace", "level-1", rect(sx[3], S, E, CS), "terrace", "تراس")
for i, (a, b, y) in enumerate([(W, xs[2], CN), (xs[2], E, CN), (sx[0], sx[1], CS), (sx[3], E, CS)]):
    mx = (a + b) / 2
    openings.append(feat("o1-%d" % i, "opening", ln(mx - 0.00003, mx + 0.00003, y), {"category": "pedestrian", "level_id": "level-1"}))
fixtures.append(feat("f1-table", "fixture", rect(xs[2] + 0.00004, CN + 0.00003, E - 0.00004, N - 0.00003), {"category": "furniture", "level_id": "level-1"}))
amenities.append(feat("a1-elevator", "amenity", pt((sx[2] + sx[3]) / 2, (S + CS) / 2), {"category": "elevator", "unit_ids": ["u1-elevator"]}))
for name, features in [("unit", units), ("opening", openings), ("fixture", fixtures), ("amenity", amenities),
                       ("anchor", anchors), ("occupant", occupants), ("section", [])]:
    write(name + ".geojson", fc(features))
with zipfile.ZipFile("Cases/indoor-venue.zip", "w", zipfile.ZIP_DEFLATED) as archive:
    for name in sorted(os.listdir(OUT)):
        archive.write(os.path.join(OUT, name), "bazaar/" + name)
