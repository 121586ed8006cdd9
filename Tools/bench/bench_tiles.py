#!/usr/bin/env python3
"""Raster tile benchmark (make bench-tiles): the Monaco pyramid (monaco-basic style) at zooms
10-16, 256- and 512-point tiles, `tessera tiles` with metatiles of 1, 2, 4 and 8 tiles a side
(tiles/s over the rendering, after start-up, as the peer is timed, the median of --repeat runs;
a one-metatile run's whole time; peak memory), 4 shards run one after another (their tile
counts and times), and MapLibre Native rendering the same tiles one by one through pymgl
(peer_tiles.py), all cores each.

usage: bench_tiles.py --tessera .build/release/tessera --shared ../shared [--zooms 10-16]
                      [--metatiles 1,2,4,8] [--repeat 3] [--shard-zooms 10-17] [--no-peer] [--json OUT]
"""
import argparse, json, math, os, re, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
BBOX = (7.409205, 43.72335, 7.448637, 43.75169)  # the data's bounds


def tile_list(zooms):
    west, south, east, north = BBOX
    tiles = []
    for z in zooms:
        n = 2 ** z
        def row(lat):
            r = math.radians(lat)
            return int((1 - math.log(math.tan(r) + 1 / math.cos(r)) / math.pi) / 2 * n)
        for y in range(row(north), row(south) + 1):
            for x in range(int((west + 180) / 360 * n), int((east + 180) / 360 * n) + 1):
                tiles.append([z, x, y])
    return tiles


def run_tiles(tessera, shared, folder, size, metatile, zooms, extra=(), bbox=BBOX):
    out = os.path.join(folder, f"t{size}-{metatile}-{time.time_ns()}.mbtiles")
    command = ["/usr/bin/time", "-f", "%M", tessera, "tiles", "--style",
               os.path.join(shared, "data", "styles", "monaco-basic.json"), "--data-root",
               os.path.join(shared, "data"), "--bbox", ",".join(map(str, bbox)), "--zooms", zooms,
               "--tile-size", str(size), "--metatile", str(metatile), "--output", out, "--quiet", *extra]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"tessera tiles failed: {done.stderr}")
    count = int(re.search(r": (\d+) tiles", done.stdout).group(1))
    rendering = float(re.search(r"([0-9.]+) s rendering", done.stdout).group(1))
    peak = int(done.stderr.strip().splitlines()[-1])
    os.remove(out)
    # tiles/s over the rendering (after start-up: style, GL contexts), as the peer is timed.
    return {"tiles": count, "seconds": round(seconds, 3), "rendering_seconds": rendering,
            "tiles_per_second": round(count / rendering, 2), "peak_rss_mb": round(peak / 1024)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tessera", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--zooms", default="10-16")
    ap.add_argument("--metatiles", default="1,2,4,8")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--shard-zooms", default="10-17")
    ap.add_argument("--json")
    a = ap.parse_args()
    shared = os.path.abspath(a.shared)
    low, high = map(int, a.zooms.split("-"))
    folder = tempfile.mkdtemp(prefix="tessera-bench-tiles-")
    result = {"cores": os.cpu_count(), "zooms": a.zooms, "tessera": [], "latency": [], "shards": [], "peer": []}
    for size in (256, 512):
        zooms = a.zooms if size == 256 else f"{max(low - 1, 0)}-{high - 1}"
        for metatile in map(int, a.metatiles.split(",")):
            runs = sorted((run_tiles(a.tessera, shared, folder, size, metatile, zooms) for _ in range(a.repeat)),
                          key=lambda run: run["tiles_per_second"])
            entry = {"tile_size": size, "metatile": metatile, **runs[len(runs) // 2]}  # the median run
            result["tessera"].append(entry)
            print("tessera", entry, file=sys.stderr, flush=True)
            # One metatile at zoom 16 (15 for 512): process start, style and first frame included.
            one = run_tiles(a.tessera, shared, folder, size, metatile, str(high if size == 256 else high - 1),
                            bbox=(7.4246, 43.7384, 7.4247, 43.7385))
            result["latency"].append({"tile_size": size, "metatile": metatile, "seconds": one["seconds"],
                                      "tiles": one["tiles"]})
    # Four shards, one after another (default metatiles, a deeper pyramid for enough of them).
    for index in range(4):
        entry = run_tiles(a.tessera, shared, folder, 256, 2, a.shard_zooms, extra=("--shard", f"{index}/4"))
        result["shards"].append(entry)
        print("shard", index, entry, file=sys.stderr, flush=True)
    if not a.no_peer:
        py = subprocess.run([os.path.join(shared, "bench", "peer", "setup.sh")], capture_output=True, text=True,
                            check=True).stdout.strip().splitlines()[-1]
        for size in (256, 512):
            zooms = range(low, high + 1) if size == 256 else range(max(low - 1, 0), high)
            path = os.path.join(folder, f"tiles-{size}.json")
            json.dump(tile_list(zooms), open(path, "w"))
            runs = []
            for _ in range(a.repeat):
                done = subprocess.run([py, os.path.join(HERE, "peer_tiles.py"), "--style",
                                       os.path.join(shared, "data", "styles", "monaco-basic.json"), "--data-root",
                                       os.path.join(shared, "data"), "--tiles", path, "--tile-size", str(size)],
                                      capture_output=True, text=True)
                if done.returncode != 0:
                    sys.exit(f"peer failed: {done.stderr[-2000:]}")
                runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
            runs.sort(key=lambda run: run["tiles_per_second"])
            entry = {"tile_size": size, **runs[len(runs) // 2]}  # the median run
            result["peer"].append(entry)
            print("peer", entry, file=sys.stderr, flush=True)
    lines = ["| tile size | metatile | tiles | tiles/s | one metatile, s | peak memory MB |", "|---|---|---|---|---|---|"]
    for entry, latency in zip(result["tessera"], result["latency"]):
        lines.append(f"| {entry['tile_size']} | {entry['metatile']}×{entry['metatile']} | {entry['tiles']} | "
                     f"{entry['tiles_per_second']} | {latency['seconds']} | {entry['peak_rss_mb']} |")
    for peer in result["peer"]:
        best = max(e["tiles_per_second"] for e in result["tessera"] if e["tile_size"] == peer["tile_size"])
        lines.append(f"\nMapLibre Native (pymgl), {peer['tile_size']}-pixel tiles one by one: {peer['tiles']} tiles, "
                     f"{peer['tiles_per_second']} tiles/s; Tessera's best is {best / peer['tiles_per_second']:.2f}× that.")
    shards = result["shards"]
    lines.append(f"\n4 shards (256, metatile 2, zooms {a.shard_zooms}): tiles " + ", ".join(str(s["tiles"]) for s in shards) + "; seconds "
                 + ", ".join(str(s["seconds"]) for s in shards) + ".")
    print("\n".join(lines))
    if a.json:
        json.dump(result, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
