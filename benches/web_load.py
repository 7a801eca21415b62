"""A bounded load test of the web board (127.0.0.1 only, stops by itself): 50 clients open
analysis streams and drop them at random moments while a probe times ordinary requests
(``POST /api/state``); prints the probe's latencies and the server's memory before and after.

    python benches/web_load.py [--clients 50] [--seconds 30]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import socket
import sys
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from web_server import request, running_server  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def stream_and_drop(base: str, client: str, stop: threading.Event, rng: random.Random) -> int:
    parts = urllib.parse.urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    opened = 0
    while not stop.is_set():
        query = urllib.parse.urlencode({"game": json.dumps({}), "client": client, "time": "5"})
        try:
            with socket.create_connection((host, port), timeout=5) as sock:
                sock.sendall(
                    f"GET /api/analyse?{query} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
                )
                opened += 1
                deadline = time.monotonic() + rng.uniform(0.05, 2.0)
                sock.settimeout(0.2)
                while time.monotonic() < deadline and not stop.is_set():
                    try:
                        if not sock.recv(4096):
                            break
                    except TimeoutError:
                        pass
        except OSError:
            time.sleep(0.05)
    return opened


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    with running_server() as base:
        before = rss_mb()
        stop = threading.Event()
        counts: list[int] = []
        workers = [
            threading.Thread(
                target=lambda i=i: counts.append(
                    stream_and_drop(base, f"load{i}", stop, random.Random(i))
                ),
                daemon=True,
            )
            for i in range(args.clients)
        ]
        for worker in workers:
            worker.start()
        latencies = []
        body = {"game": {"moves": ["c3-d4", "f6-e5"]}}
        finish = time.monotonic() + args.seconds
        while time.monotonic() < finish:
            started = time.perf_counter()
            status, _, _ = request(base, "/api/state", body)
            latencies.append((time.perf_counter() - started) * 1000)
            assert status == 200, status
            time.sleep(0.05)
        stop.set()
        for worker in workers:
            worker.join(timeout=10)
        after = rss_mb()
        latencies.sort()
        n = len(latencies)
        print(
            f"{args.clients} clients streaming and dropping for {args.seconds:g} s "
            f"({sum(counts)} streams opened); probe POST /api/state, {n} requests: "
            f"p50 {latencies[n // 2]:.1f} ms, p95 {latencies[int(n * 0.95)]:.1f} ms, "
            f"max {latencies[-1]:.1f} ms; RSS {before:.0f} MB before, {after:.0f} MB after"
        )
        # Every slot is free again: a search from a new page is served.
        status, _, _ = request(
            base, "/api/engine/move", {"game": {}, "level": {"time": 0.05}, "client": "after"}
        )
        print(f"an engine move after the load: HTTP {status}")


if __name__ == "__main__":
    main()
