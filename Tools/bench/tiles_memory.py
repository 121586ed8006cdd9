#!/usr/bin/env python3
"""Memory over a long `tessera tiles` run (make bench-tiles-memory): about --tiles tiles of the
demo city at zoom 16 (a square area around New York's demo centre) into an MBTiles archive,
the process's resident memory sampled every few seconds. Bounded by --time-limit.

usage: tiles_memory.py --tessera .build/release/tessera [--tiles 20000] [--time-limit 1800]
"""
import argparse, math, os, subprocess, sys, tempfile, time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tessera", required=True)
    ap.add_argument("--tiles", type=int, default=20000)
    ap.add_argument("--time-limit", type=float, default=1800)
    a = ap.parse_args()
    side = math.ceil(math.sqrt(a.tiles))
    span = side * 360 / 2 ** 16  # degrees of longitude; latitude spans about as many tiles
    west, south = -74.0 - span / 2, 40.0 - span * math.cos(math.radians(40)) / 2
    bbox = f"{west},{south},{west + span},{south + span * math.cos(math.radians(40))}"
    folder = tempfile.mkdtemp(prefix="tessera-tiles-memory-")
    out = os.path.join(folder, "city.mbtiles")
    process = subprocess.Popen([a.tessera, "tiles", "--bbox", bbox, "--zooms", "16", "--output", out, "--quiet"],
                               stdout=subprocess.PIPE, text=True)
    samples, start = [], time.time()
    while process.poll() is None and time.time() - start < a.time_limit:
        time.sleep(5)
        try:
            with open(f"/proc/{process.pid}/status") as f:
                rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
            samples.append((round(time.time() - start), rss // 1024))
        except (OSError, StopIteration):
            pass
    if process.poll() is None:
        process.kill()
        sys.exit("stopped at the time limit")
    print(process.stdout.read().strip())
    print("resident memory (s, MB):", samples)
    tenth = max(len(samples) // 10, 1)
    print("every tenth:", [mb for _, mb in samples[::tenth]])
    os.remove(out)


if __name__ == "__main__":
    main()
