#!/usr/bin/env python3
"""Regenerates BENCHMARKS.md: Tessera against MapLibre Native, side by side, on this machine.

usage: benchmarks.py --tessera .build/release/tessera --shared ../shared [--out BENCHMARKS.md]
                     [--runs 3] [--frames 10] [--batch-jobs 2000] [--gpu-json FILE ...]
                     [--random-cameras 24] [--random-only OUT.md]

Runs ../shared/bench/compare.py (with the peer venv's python) over every shared scenario and
every scenario in Tools/bench/scenarios, once without and once with --orbit; then
`tessera bench` once per scenario for the per-phase timings; then `tessera render --batch` over
generated Monaco jobs on 1 and 2 threads for images/s and the resident-memory curve; and
compare.py over seeded random cameras (Tools/bench/random_cameras.py) for the median and worst
ratios. Writes the whole as Markdown. --gpu-json adds `tessera bench --json` results measured on
a GPU machine; --random-only writes only the random-camera section, to the file given.
"""
import argparse, datetime, glob, json, os, platform, random, shutil, statistics, subprocess, sys, tempfile, time

import random_cameras

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# One blended full-screen layer at 1024x1024 on llvmpipe here (shared/bench/README.md).
FLOOR_MS_PER_MEGAPIXEL_LAYER = 3.0
TARGET = 0.5


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def machine():
    cpu = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem_kb = int(f.readline().split()[1])
    os_name = platform.platform()
    if os.path.exists("/etc/os-release"):
        with open("/etc/os-release") as f:
            fields = dict(l.rstrip().split("=", 1) for l in f if "=" in l)
            os_name = fields.get("PRETTY_NAME", os_name).strip('"')
    mesa = ""
    try:
        mesa = sh(["dpkg-query", "-W", "-f=${Version}", "libgl1-mesa-dri"])
    except Exception:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gib": round(mem_kb / 1048576, 1), "os": os_name,
            "mesa": mesa}


def compare(py, tessera, scenarios, runs, frames, orbit, shared):
    out = tempfile.mktemp(suffix=".json")
    cmd = [py, os.path.join(shared, "bench", "compare.py"), "--tessera", tessera, *scenarios,
           "--runs", str(runs), "--frames", str(frames), "--json", out] + (["--orbit"] if orbit else [])
    print(" ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)
    with open(out) as f:
        return json.load(f)


def bench(tessera, scenario, frames):
    return json.loads(sh([tessera, "bench", scenario, "--frames", str(frames)]).strip().splitlines()[-1])


def batch(tessera, shared, count, threads, folder):
    """Generated jobs: Monaco (monaco-basic-3d's style) at 512x512, random cameras."""
    scene = os.path.join(shared, "bench", "scenarios", "monaco-basic-3d.json")
    rng = random.Random(7)
    jobs = os.path.join(folder, "jobs.jsonl")
    with open(jobs, "w") as f:
        for i in range(count):
            camera = {"latitude": 43.7384 + rng.uniform(-0.008, 0.008), "longitude": 7.4246 + rng.uniform(-0.01, 0.01),
                      "zoom": rng.uniform(14.5, 17.5), "bearing": rng.uniform(0, 360),
                      "viewingAngle": rng.uniform(0, 60)}
            f.write(json.dumps({"scene": scene, "size": {"width": 512, "height": 512}, "camera": camera,
                                "output": f"out/{i % 50}.png"}) + "\n")
    os.makedirs(os.path.join(folder, "out"), exist_ok=True)
    report = os.path.join(folder, f"report-{threads}.json")
    print(f"batch: {count} jobs on {threads} thread(s)", file=sys.stderr, flush=True)
    before = os.times()
    start = time.monotonic()
    sh([tessera, "render", "--batch", jobs, "--threads", str(threads), "--report", report])
    wall = time.monotonic() - start
    after = os.times()
    with open(report) as f:
        result = json.load(f)
    # Cores kept busy: the child's user + system time over the whole process's wall time.
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    result["cores"] = cpu / wall
    result["process_seconds"] = wall
    return result


def fmt(x, digits=1):
    return "–" if x is None else f"{x:.{digits}f}"


def mark(ratio):
    return f"**{ratio:.2f}**" if ratio <= TARGET else f"{ratio:.2f}"


def comparison_table(rows, sizes):
    lines = ["| scenario | warm ms T / MLN | ratio | first ms T / MLN | ratio | process ratio | encode ms T / MLN | ratio |"
             " layers' worth | image Δ |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        t, p = r["tessera"], r["peer"]
        w, h = sizes.get(r["scenario"], (1024, 1024))
        floor = FLOOR_MS_PER_MEGAPIXEL_LAYER * w * h / (1024 * 1024)
        # The peer skips encoding an image it already encoded (0 ms): no ratio then.
        enc = t["encode_ms"] / p["encode_ms"] if p["encode_ms"] >= 0.05 else None
        lines.append(
            f"| {r['scenario']} | {fmt(t['warm_ms'])} / {fmt(p['warm_ms'])} | {mark(r['ratio_warm'])} "
            f"| {fmt(t['first_ms'])} / {fmt(p['first_ms'])} | {mark(r['ratio_first'])} "
            f"| {mark(r['ratio_process_wall'])} | {fmt(t['encode_ms'])} / {fmt(p['encode_ms'])} "
            f"| {'–' if enc is None else mark(enc)} "
            f"| {t['warm_ms'] / floor:.1f} | {r['image'].get('mean_abs_diff', '–')} |")
    return lines


def random_camera_section(rows, scenarios, seed):
    """The random-camera table (one row per camera) and the median and worst of each ratio."""
    cameras = {}
    for path in scenarios:
        with open(path) as f:
            s = json.load(f)
        cameras[s["name"]] = s
    lines = [f"{len(rows)} cameras over Monaco from `Tools/bench/random_cameras.py --seed {seed}`: zoom 13–18, any "
             "bearing, tilt up to Google's cap at the zoom, phone to desktop sizes at scale 1 or 2, the basic style "
             "(3D buildings) and Liberty (all its labels) in turn. Ratios Tessera / MapLibre Native.",
             "",
             "| | warm | first | process |", "|---|---|---|---|"]
    for label, pick in (("median", statistics.median), ("worst", max)):
        lines.append(f"| {label} | {pick(r['ratio_warm'] for r in rows):.2f} | {pick(r['ratio_first'] for r in rows):.2f} "
                     f"| {pick(r['ratio_process_wall'] for r in rows):.2f} |")
    lines += ["", "| camera | style | size | zoom | bearing | tilt | warm ms T / MLN | ratio | first ms T / MLN | ratio "
              "| process ratio |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: -r["ratio_warm"]):
        s = cameras[r["scenario"]]
        c, size = s["camera"], s["size"]
        t, p = r["tessera"], r["peer"]
        style = os.path.basename(s["style"])[:-5].replace("monaco-", "")
        lines.append(f"| {r['scenario']} | {style} | {size['width']}×{size['height']}@{s['scale']} | {c['zoom']:.2f} "
                     f"| {c['bearing']:.0f} | {c['viewingAngle']:.0f} | {fmt(t['warm_ms'])} / {fmt(p['warm_ms'])} "
                     f"| {mark(r['ratio_warm'])} | {fmt(t['first_ms'])} / {fmt(p['first_ms'])} | {mark(r['ratio_first'])} "
                     f"| {mark(r['ratio_process_wall'])} |")
    return lines


def kept_sections(path, written):
    """The `## ` sections of the existing file at `path` that this script does not write (those
    of the other bench tools, e.g. Raster tiles), to be carried over unchanged."""
    if not os.path.exists(path):
        return []
    produced = {line for line in written if line.startswith("## ")}
    kept, keeping = [], False
    with open(path) as f:
        for line in f.read().splitlines():
            if line.startswith("## "):
                keeping = line not in produced
            if keeping:
                kept.append(line)
    return [""] + kept if kept else []


def phase_table(reports):
    keys = ["tile_decode_ms", "tessellation_ms", "upload_ms", "command_planning_ms", "command_encoding_ms", "draw_ms",
            "readback_ms"]
    lines = ["| scenario | frame | gl setup | " + " | ".join(k[:-3].replace("_", " ") for k in keys)
             + " | image encode | warm frame bound by |",
             "|---|---|---|" + "---|" * (len(keys) + 2)]
    for name, rep in reports:
        first, warm = rep["first_phases"], rep["phases"]
        # On llvmpipe the GL calls do vertex shading and binning; glFinish waits for pixels.
        bound = "vertices (command encoding)" if warm["command_encoding_ms"] >= warm["draw_ms"] else "pixels (draw)"
        lines.append(f"| {name} | first | {fmt(first['gl_setup_ms'])} | "
                     + " | ".join(fmt(first[k]) for k in keys) + " | | |")
        lines.append(f"| | warm | | " + " | ".join(fmt(warm[k]) for k in keys)
                     + f" | {fmt(warm['image_encode_ms'])} | {bound} |")
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tessera", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--out", default=os.path.join(ROOT, "BENCHMARKS.md"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--frames", type=int, default=10)
    ap.add_argument("--batch-jobs", type=int, default=2000)
    ap.add_argument("--gpu-json", nargs="*", default=[])
    ap.add_argument("--random-cameras", type=int, default=24)
    ap.add_argument("--random-seed", type=int, default=21)
    ap.add_argument("--random-only")
    a = ap.parse_args()
    tessera = os.path.abspath(a.tessera)
    shared = os.path.abspath(a.shared)
    py = sh(["bash", os.path.join(shared, "bench", "peer", "setup.sh")]).strip().splitlines()[-1]
    random_folder = tempfile.mkdtemp(prefix="tessera-random-cameras-")
    random_scenarios = random_cameras.write(shared, random_folder, a.random_cameras, a.random_seed)
    random_rows = compare(py, tessera, random_scenarios, a.runs, a.frames, False, shared)
    random_lines = random_camera_section(random_rows, random_scenarios, a.random_seed)
    shutil.rmtree(random_folder, ignore_errors=True)
    if a.random_only:
        with open(a.random_only, "w") as f:
            f.write("\n".join(["## Random cameras", "", *random_lines]) + "\n")
        print(f"wrote {a.random_only}", file=sys.stderr)
        return
    scenarios = sorted(glob.glob(os.path.join(shared, "bench", "scenarios", "*.json")))
    scenarios += sorted(glob.glob(os.path.join(HERE, "scenarios", "*.json")))
    sizes = {}
    for path in scenarios:
        with open(path) as f:
            s = json.load(f)
        scale = s.get("scale", 1)
        size = s.get("size", {})
        sizes[s.get("name", os.path.basename(path)[:-5])] = (size.get("width", 512) * scale,
                                                             size.get("height", 512) * scale)
    still = compare(py, tessera, scenarios, a.runs, a.frames, False, shared)
    orbit = compare(py, tessera, scenarios, a.runs, a.frames, True, shared)
    phases = [(os.path.basename(p)[:-5], bench(tessera, p, a.frames)) for p in scenarios]
    folder = tempfile.mkdtemp(prefix="tessera-batch-")
    batches = [batch(tessera, shared, a.batch_jobs, t, folder) for t in (1, 2, 4)]
    shutil.rmtree(folder, ignore_errors=True)

    m = machine()
    renderer = phases[0][1].get("gl_renderer", "?") if phases else "?"
    commit = ""
    try:
        commit = sh(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).strip()
    except Exception:
        pass
    out = [
        "# Benchmarks",
        "",
        "Generated by `make bench` (Tools/bench/benchmarks.py); do not edit by hand.",
        "",
        f"- Date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}, commit {commit}",
        f"- Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}",
        f"- GL renderer: {renderer} (Mesa {m['mesa']}), for both engines",
        f"- Peer: MapLibre Native through pymgl 0.5.0 (../shared/bench/peer), run by ../shared/bench/compare.py "
        f"with {a.runs} runs of {a.frames} warm frames per scenario, the engines alternating process by process.",
        "",
        "Ratios are Tessera / MapLibre Native, each the median of per-run pairs measured in this one run; "
        f"**bold** meets the target of ≤ {TARGET}. `first` is map creation (GL context, style, tiles, "
        "tessellation, shaders) to the first frame's pixels; `warm` the median frame drawn in full and read "
        "back; `process` the whole command's wall time (start-up, first frame, warm frames, PNG); "
        "`encode` one PNG. *Layers' worth* is the warm frame over the floor of this machine, "
        f"{FLOOR_MS_PER_MEGAPIXEL_LAYER:g} ms per blended full-screen layer per 1024×1024 pixels "
        "(../shared/bench/README.md): how many full-screen layers the frame costs. Image Δ is the mean "
        "absolute RGB difference of the two engines' images (0–255). MapLibre Native's `encode` is "
        "the difference of two timed renders (`renderPNG()` − `render()`), so it is noisy: for small "
        "images and marker scenes (little to compress) its ratio says little.",
        "",
        "## Fixed camera",
        "",
        *comparison_table(still, sizes),
        "",
        "## Random cameras",
        "",
        *random_lines,
        "",
        "## Orbit (bearing +7° before every warm frame)",
        "",
        *comparison_table(orbit, sizes),
        "",
        "## Where the time goes (tessera bench, ms)",
        "",
        "First frame and median warm frame. Tile decode is summed over the loader's worker threads; "
        "on llvmpipe, command encoding includes vertex shading and binning (done on the calling "
        "thread), draw is the rasterisation that `glFinish` waits for.",
        "",
        *phase_table(phases),
        "",
        "## Many renders in one process",
        "",
        f"`tessera render --batch` over {a.batch_jobs} generated jobs: Monaco with monaco-basic-3d's style at "
        "512×512, random cameras (zoom 14.5–17.5, any bearing, tilt 0–60°), each image encoded and written as PNG. "
        "Images/s over the rendering (as the command reports it); cores used is the process's user + system CPU "
        "time over its whole wall time (start-up and reading the jobs included). Render threads draw on the two "
        "display lanes (each its own llvmpipe rasteriser; threads beyond two share a lane and take turns at GL "
        "calls, see docs/performance.md); the default is one thread per core.",
        "",
        "| threads | images/s | cores used | seconds | resident MiB after 1st sample | after the last | peak |",
        "|---|---|---|---|---|---|---|",
    ]
    for rep in batches:
        curve = rep["resident_mib"]
        settled = [mib for jobs, mib in curve if jobs > 0]
        out.append(f"| {rep['threads']} | {rep['images_per_second']:.1f} | {rep['cores']:.2f} | {rep['seconds']:.1f} | "
                   f"{settled[0] if settled else 0:.0f} | {settled[-1] if settled else 0:.0f} | "
                   f"{max(settled) if settled else 0:.0f} |")
    out += ["", "Resident memory (MiB) by images done:", ""]
    for rep in batches:
        points = rep["resident_mib"]
        step = max(1, len(points) // 10)
        shown = points[::step] + ([points[-1]] if (len(points) - 1) % step else [])
        out.append(f"- {rep['threads']} thread(s): " + ", ".join(f"{int(j)}: {mib:.0f}" for j, mib in shown))
    out += ["", "## GPU", ""]
    if a.gpu_json:
        out += ["| scenario | renderer | first ms | warm ms | encode ms |", "|---|---|---|---|---|"]
        for path in a.gpu_json:
            with open(path) as f:
                for line in f:
                    if line.strip():
                        r = json.loads(line)
                        out.append(f"| {r['scenario']} | {r['gl_renderer']} | {r['first_ms']} | {r['warm_ms']} | "
                                   f"{r['encode_ms']} |")
    else:
        out.append("No GPU machine was available for this run: there are no NVIDIA figures yet. On one, run "
                   "`tessera bench SCENARIO --gpu device:0 --json OUT.json` per scenario and pass the files "
                   "with `make bench GPU_JSON='…'`.")
    out += kept_sections(a.out, out)
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
