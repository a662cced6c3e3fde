"""Load benchmark of the web API under waitress, on loopback only.

    .venv/bin/python benchmarks/bench_webapp_load.py [--clients 8] [--seconds 20]

Starts ``agari serve`` (waitress, the production server) on a free 127.0.0.1 port, then
for ``POST /api/v1/score`` and ``POST /api/v1/recognize`` runs ``--clients`` concurrent
clients (keep-alive connections) until ``--requests`` answers or ``--seconds`` pass,
whichever is first. Reports requests per second, p50/p95/max latency, the number of
non-200 answers, and the server's resident memory after a warm-up and at the end of each
quarter of the run (flat memory = no leak per request). Exits 1 on any error answer.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "webapp" / "examples" / "example-hand.jpg"

#: Winning hands of several shapes (rendered by datasets/ for the example-photo search),
#: cycled through so that the engine's caches see different hands.
HANDS: list[tuple[str, str, list[tuple[str, str, str | None]], list[str]]] = [
    ("6m234p406s", "6m", [("chi", "345s", "left"), ("chi", "340p", "left")], ["2s"]),
    ("444406m7s", "7s", [("chi", "678s", "left"), ("daiminkan", "8888m", "across")], ["5m"]),
    ("4078999m234p222z", "3m", [], ["1p"]),
    ("14499m4499s5566z", "1m", [], ["3s"]),
    ("0777s555z", "6s", [("chi", "234s", "left"), ("chi", "456s", "left")], ["5s"]),
    ("1066778m", "1m", [("chi", "789m", "left"), ("chi", "456m", "left")], ["3p"]),
    ("88m77788p111z", "8p", [("pon", "888s", "across")], ["2z"]),
    ("3334405556667s", "4s", [], ["9m"]),
    ("456678m2344p678s", "4p", [], ["4z"]),
    ("2223334444m111s", "2m", [], ["8m"]),
    ("6688m3305p224s66z", "4s", [], ["2m", "2s"]),
    (
        "1234m",
        "4m",
        [("pon", "999p", "across"), ("chi", "340s", "left"), ("ankan", "6666z", None)],
        [],
    ),
]


def score_bodies() -> list[bytes]:
    out = []
    for n, (closed, win, melds, dora) in enumerate(HANDS):
        out.append(
            json.dumps(
                {
                    "ruleset": ["tenhou", "m-league", "tenpane"][n % 3],
                    "closed": closed,
                    "win_tile": win,
                    "win": "ron" if n % 2 else "tsumo",
                    "melds": [
                        {"kind": k, "tiles": t, **({"from": f} if f else {})} for k, t, f in melds
                    ],
                    "round_wind": "E",
                    "seat_wind": "S",
                    **({"discarder": "N"} if n % 2 else {}),
                    "dora_indicators": dora,
                    "honba": n % 3,
                }
            ).encode()
        )
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _multipart(photo: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="p.jpg"\r\n'
        "Content-Type: image/jpeg\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    return head + photo + tail, f"multipart/form-data; boundary={boundary}"


def _nothing() -> None:
    return None


def run_load(
    port: int,
    path: str,
    body: bytes | list[bytes],
    ctype: str,
    *,
    clients: int,
    max_requests: int,
    seconds: float,
    on_quarter: Any,
) -> dict[str, Any]:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    issued = 0
    deadline = time.monotonic() + seconds
    quarters = {max_requests * q // 4 for q in (1, 2, 3)}

    def client() -> None:
        nonlocal issued
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            with lock:
                if issued >= max_requests or time.monotonic() > deadline:
                    break
                issued += 1
                n = issued
            payload = body[n % len(body)] if isinstance(body, list) else body
            t0 = time.perf_counter()
            conn.request("POST", path, payload, {"Content-Type": ctype})
            resp = conn.getresponse()
            resp.read()
            dt = time.perf_counter() - t0
            with lock:
                latencies.append(dt)
                statuses[resp.status] = statuses.get(resp.status, 0) + 1
            if n in quarters:
                on_quarter()
        conn.close()

    t0 = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    latencies.sort()
    return {
        "requests": len(latencies),
        "seconds": round(wall, 2),
        "req_per_s": round(len(latencies) / wall, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 1),
        "p95_ms": round(1000 * latencies[int(0.95 * (len(latencies) - 1))], 1),
        "max_ms": round(1000 * latencies[-1], 1),
        "statuses": statuses,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=20.0, help="time cap per endpoint")
    ap.add_argument("--requests", type=int, default=4000, help="request cap for /score")
    ap.add_argument("--recognize-requests", type=int, default=400)
    ap.add_argument("--threads", type=int, default=8, help="waitress worker threads")
    args = ap.parse_args(argv)

    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    agari = Path(sys.executable).with_name("agari")
    threads = str(args.threads)
    server = subprocess.Popen(
        [str(agari), "serve", "--host", "127.0.0.1", "--port", str(port), "--threads", threads],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        results: dict[str, Any] = {}
        photo, photo_type = _multipart(EXAMPLE.read_bytes())
        plans = [
            ("/api/v1/score", score_bodies(), "application/json", args.requests),
            ("/api/v1/recognize", photo, photo_type, args.recognize_requests),
        ]
        for path, body, ctype, cap in plans:
            # Warm-up at full concurrency: imports, the model session, caches and the
            # per-thread buffers of 8 requests at once are in place before memory is read.
            warm = run_load(
                port,
                path,
                body,
                ctype,
                clients=args.clients,
                max_requests=2 * args.clients,
                seconds=120,
                on_quarter=_nothing,
            )
            if set(warm["statuses"]) != {200}:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                first = body[0] if isinstance(body, list) else body
                conn.request("POST", path, first, {"Content-Type": ctype})
                answer = conn.getresponse().read()[:300]
                results[path] = {"skipped": f"warm-up answered {warm['statuses']}: {answer!r}"}
                continue
            rss = [round(_rss_mb(server.pid), 1)]

            def sample(rss: list[float] = rss) -> None:
                rss.append(round(_rss_mb(server.pid), 1))

            res = run_load(
                port,
                path,
                body,
                ctype,
                clients=args.clients,
                max_requests=cap,
                seconds=args.seconds,
                on_quarter=sample,
            )
            rss.append(round(_rss_mb(server.pid), 1))
            res["rss_mb"] = rss
            results[path] = res
    finally:
        server.terminate()
        server.wait(timeout=10)

    report = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.python_version()}",
        "clients": args.clients,
        "waitress_threads": args.threads,
        "results": results,
    }
    print(json.dumps(report, indent=1))
    errors = sum(n for r in results.values() for s, n in r.get("statuses", {}).items() if s != 200)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
