#!/usr/bin/env python3
"""Load benchmark of `tessera serve` (make bench-serve): 512x512 tilted Monaco maps with
markers at concurrency 1, 4 and 16, against `tessera render --batch` on the same jobs and
against MapLibre Native behind a minimal Python HTTP server with one pymgl process per core
(peer_server.py). Loopback only; every load loop is bounded in count and time. Each level
also reports the cores the server used: its user + system CPU time over the level's wall time
(the Python clients run on the same machine and take the rest).

usage: bench_serve.py --tessera .build/release/tessera --shared ../shared [--requests 96]
                      [--concurrency 1,4,16] [--time-limit 180] [--overload-seconds 30]
                      [--soak-requests 10000] [--overload-factor 4] [--json OUT] [--no-peer]

After the levels: an overload phase (an open loop at --overload-factor (4) times the best
rate the levels sustained, for --overload-seconds: every answer must be 200 or 503, the 200s'
p99 within the deadline) and a soak (--soak-requests in a row, the server's resident memory sampled).
"""
import argparse, json, os, random, socket, statistics, subprocess, sys, tempfile, threading, time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def jobs(count, seed=11):
    """Random tilted Monaco cameras (MapLibre zoom) with 12 markers around each centre."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        lon, lat = 7.4246 + rng.uniform(-0.008, 0.008), 43.7384 + rng.uniform(-0.006, 0.006)
        zoom = rng.uniform(14.5, 16.0)
        markers = [(lon + rng.uniform(-0.003, 0.003), lat + rng.uniform(-0.002, 0.002)) for _ in range(12)]
        out.append({"lon": lon, "lat": lat, "zoom": zoom, "bearing": rng.uniform(0, 360),
                    "pitch": rng.uniform(40, 60), "markers": markers})
    return out


def url(port, job):
    query = "&".join(f"marker={x:.6f},{y:.6f}" for x, y in job["markers"])
    return (f"http://127.0.0.1:{port}/styles/monaco/static/{job['lon']:.6f},{job['lat']:.6f},{job['zoom']:.3f}"
            f"@{job['bearing']:.1f},{job['pitch']:.1f}/512x512.png?{query}")


def wait_ready(port, limit=120):
    end = time.time() + limit
    while time.time() < end:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                if r.status == 200:
                    return
        except Exception:
            time.sleep(0.2)
    raise RuntimeError(f"server on {port} did not become ready")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """User + system CPU time of process `pid` so far, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def overload(port, work, seconds, rate, senders=128):
    """Open loop: request i leaves at start + i / `rate` (requests per second) for `seconds`, sent
    by a bounded pool of `senders` threads; reports the rate reached and the answers."""
    statuses, ok_latencies, lock = {}, [], threading.Lock()
    start = time.time() + 0.5
    total = int(seconds * rate)
    slots = iter(range(total))
    sent_at = []

    def sender():
        while True:
            with lock:
                i = next(slots, None)
            if i is None:
                return
            due = start + i / rate
            delay = due - time.time()
            if delay > 0:
                time.sleep(delay)
            job = work[i % len(work)]
            t = time.perf_counter()
            with lock:
                sent_at.append(time.time())
            try:
                with urllib.request.urlopen(url(port, job), timeout=60) as r:
                    r.read()
                    status = r.status
            except urllib.error.HTTPError as e:
                status = e.code
            except Exception:
                status = -1
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                if status == 200:
                    ok_latencies.append(time.perf_counter() - t)

    threads = [threading.Thread(target=sender) for _ in range(senders)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ok_latencies.sort()
    p99 = ok_latencies[min(len(ok_latencies) - 1, int(len(ok_latencies) * 0.99))] if ok_latencies else None
    span = max(sent_at) - min(sent_at) if len(sent_at) > 1 else 1
    return {"seconds": seconds, "target_rate": round(rate, 1), "sent_rate": round(len(sent_at) / span, 1),
            "requests": total, "statuses": statuses, "p99_ok_ms": round(1000 * p99, 1) if p99 else None,
            "ok_per_second": round(statuses.get(200, 0) / span, 1)}


def load(port, work, concurrency, time_limit, server_pid=None):
    """Sends every job once with `concurrency` client threads (stopping at `time_limit`); with
    `server_pid`, also the cores the server used (its CPU time over the wall time)."""
    latencies, statuses, lock = [], {}, threading.Lock()
    queue = list(work)
    end = time.time() + time_limit

    def client():
        while time.time() < end:
            with lock:
                if not queue:
                    return
                job = queue.pop()
            t = time.perf_counter()
            try:
                with urllib.request.urlopen(url(port, job), timeout=120) as r:
                    r.read()
                    status = r.status
            except urllib.error.HTTPError as e:
                status = e.code
            except Exception:
                status = -1
            with lock:
                latencies.append(time.perf_counter() - t)
                statuses[status] = statuses.get(status, 0) + 1

    cpu_before = cpu_seconds(server_pid) if server_pid else None
    start = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    latencies.sort()
    ok = statuses.get(200, 0)
    result = {"concurrency": concurrency, "requests": len(latencies), "ok": ok, "statuses": statuses,
              "images_per_second": round(ok / wall, 2), "p50_ms": round(1000 * latencies[len(latencies) // 2], 1),
              "p99_ms": round(1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 1)}
    if server_pid:
        result["server_cores"] = round((cpu_seconds(server_pid) - cpu_before) / wall, 2)
    return result


def batch(tessera, shared, work, folder, threads):
    style = os.path.join(shared, "data", "styles", "monaco-basic.json")
    path = os.path.join(folder, "jobs.jsonl")
    with open(path, "w") as f:
        for i, job in enumerate(work):
            f.write(json.dumps({
                "size": {"width": 512, "height": 512}, "style": style, "dataRoot": os.path.join(shared, "data"),
                "camera": {"latitude": job["lat"], "longitude": job["lon"], "zoom": job["zoom"] + 1,
                           "bearing": job["bearing"], "viewingAngle": job["pitch"]},
                "markers": [{"position": [y, x]} for x, y in job["markers"]],
                "output": f"out/{i % 16}.png"}) + "\n")
    os.makedirs(os.path.join(folder, "out"), exist_ok=True)
    report = os.path.join(folder, "batch.json")
    subprocess.run([tessera, "render", "--batch", path, "--threads", str(threads), "--report", report], check=True,
                   capture_output=True, timeout=900)
    return json.load(open(report))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tessera", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--requests", type=int, default=96)
    ap.add_argument("--concurrency", default="1,4,16")
    ap.add_argument("--time-limit", type=float, default=180)
    ap.add_argument("--json")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--overload-seconds", type=float, default=30)
    ap.add_argument("--soak-requests", type=int, default=10000)
    ap.add_argument("--overload-factor", type=float, default=4)
    a = ap.parse_args()
    shared = os.path.abspath(a.shared)
    cores = os.cpu_count()
    folder = tempfile.mkdtemp(prefix="tessera-bench-serve-")
    work = jobs(a.requests)
    levels = [int(c) for c in a.concurrency.split(",")]
    result = {"cores": cores, "requests_per_level": a.requests, "tessera": [], "peer": []}

    config = os.path.join(folder, "serve.json")
    port = free_port()
    json.dump({"listen": f"127.0.0.1:{port}", "workers": cores, "queue": 32, "deadline": 10,
               "attribution": False,
               "styles": {"monaco": {"style": os.path.join(shared, "data", "styles", "monaco-basic.json"),
                                     "dataRoot": os.path.join(shared, "data")}}}, open(config, "w"))
    server = subprocess.Popen([a.tessera, "serve", "--config", config], stderr=subprocess.DEVNULL)
    try:
        wait_ready(port)
        load(port, work[:8], 2, 60)  # warm-up: shaders and tiles
        for c in levels:
            result["tessera"].append(load(port, work, c, a.time_limit, server_pid=server.pid))
            print("tessera", result["tessera"][-1], file=sys.stderr, flush=True)
        before = rss_kib(server.pid)
        sustainable = max(level["images_per_second"] for level in result["tessera"])
        result["overload"] = overload(port, work, a.overload_seconds, a.overload_factor * sustainable)
        result["overload"]["rss_kib"] = [before, rss_kib(server.pid)]
        print("overload", result["overload"], file=sys.stderr, flush=True)
        soak, samples = jobs(min(a.soak_requests, 10000), seed=5), []
        for start in range(0, len(soak), max(len(soak) // 10, 1)):
            load(port, soak[start:start + max(len(soak) // 10, 1)], 4, a.time_limit * 4)
            samples.append(rss_kib(server.pid))
        result["soak"] = {"requests": len(soak), "rss_kib": samples}
        print("soak", result["soak"], file=sys.stderr, flush=True)
    finally:
        server.terminate()
        server.wait(timeout=60)
    result["batch"] = batch(a.tessera, shared, work, folder, cores)
    print("batch", result["batch"].get("images_per_second"), file=sys.stderr, flush=True)

    if not a.no_peer:
        py = subprocess.run([os.path.join(shared, "bench", "peer", "setup.sh")], capture_output=True, text=True,
                            check=True).stdout.strip().splitlines()[-1]
        port = free_port()
        peer = subprocess.Popen([py, os.path.join(HERE, "peer_server.py"), "--port", str(port),
                                 "--style", os.path.join(shared, "data", "styles", "monaco-basic.json"),
                                 "--data-root", os.path.join(shared, "data"),
                                 "--icon", os.path.join(shared, "bench", "scenarios", "icons", "pin-red.png"),
                                 "--processes", str(cores)], stderr=subprocess.DEVNULL)
        try:
            wait_ready(port)
            load(port, work[:8], 2, 120)
            for c in levels:
                result["peer"].append(load(port, work, c, a.time_limit))
                print("peer", result["peer"][-1], file=sys.stderr, flush=True)
        finally:
            peer.terminate()
            peer.wait(timeout=60)

    lines = ["| concurrency | tessera serve images/s | cores used | p50 ms | p99 ms | MapLibre Native server images/s |"
             " p50 ms | p99 ms | throughput ratio | p99 ratio |", "|---|---|---|---|---|---|---|---|---|---|"]
    for i, t in enumerate(result["tessera"]):
        p = result["peer"][i] if i < len(result["peer"]) else None
        ratio = f"{t['images_per_second'] / p['images_per_second']:.2f}" if p and p["images_per_second"] else "–"
        p99 = f"{t['p99_ms'] / p['p99_ms']:.2f}" if p and p["p99_ms"] else "–"
        lines.append(f"| {t['concurrency']} | {t['images_per_second']} | {t.get('server_cores', '–')} | {t['p50_ms']} | "
                     f"{t['p99_ms']} | "
                     f"{p['images_per_second'] if p else '–'} | {p['p50_ms'] if p else '–'} | {p['p99_ms'] if p else '–'} | "
                     f"{ratio} | {p99} |")
    best = max(t["images_per_second"] for t in result["tessera"])
    lines.append(f"\n`tessera render --batch` on the same jobs ({cores} threads): "
                 f"{result['batch'].get('images_per_second')} images/s; the service's best is "
                 f"{best / result['batch']['images_per_second']:.2f} of it.")
    if "overload" in result:
        o = result["overload"]
        lines.append(f"\nOverload ({o['seconds']} s at {o['target_rate']} requests/s, {a.overload_factor:g}× the best "
                     f"sustained rate; sent at {o['sent_rate']}/s; deadline 10 s): answers {o['statuses']}, "
                     f"{o['ok_per_second']} images/s, p99 of the 200s {o['p99_ok_ms']} ms, resident memory "
                     f"{o['rss_kib'][0]} → {o['rss_kib'][1]} KiB.")
        lines.append(f"Soak: {result['soak']['requests']} requests, resident memory every tenth (KiB): "
                     f"{result['soak']['rss_kib']}.")
    print("\n".join(lines))
    if a.json:
        json.dump(result, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
