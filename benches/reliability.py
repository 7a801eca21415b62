"""Figures for the reliability guarantees: how fast Ctrl-C lands, how well time limits hold,
how fast PDN streams. ``python benches/reliability.py [--pdn-mb 50] [--rounds 10]``.

- Ctrl-C latency: a fresh interpreter runs ``perft(Board(), 14)`` or an unlimited analysis;
  SIGINT is sent after 0.5 s; the time from the signal to the KeyboardInterrupt handler.
- Time limits: ``Engine.play(Board(), Limit(time=T))`` from a fresh engine, several table
  sizes and thread counts; the overshoot over T (the goal: at most 10 ms + 10 %).
- PDN: the lidraughts sample repeated to ``--pdn-mb`` MB in a file, read game by game.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import shashki
from shashki import pdn
from shashki.engine import Engine, Limit

DATA = Path(__file__).parent.parent / "tests" / "data" / "lidraughts-russian.pdn"

CHILD = """
import sys, time, shashki
from shashki.engine import Engine, Limit
kind = sys.argv[1]
print("ready", flush=True)
try:
    if kind == "perft":
        shashki.perft(shashki.Board(), 14, threads=2)
    else:
        Engine(hash_mb=64).analyse(shashki.Board(), Limit())
except KeyboardInterrupt:
    print(time.monotonic(), flush=True)
"""


def interrupt_latency(kind: str) -> float:
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(CHILD), kind],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    proc.stdout.readline()
    time.sleep(0.5)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    caught = float(proc.stdout.readline())
    proc.wait()
    return caught - sent


def overshoot(rounds: int) -> None:
    configs = [
        {"hash_mb": 1, "threads": 1},
        {"hash_mb": 64, "threads": 1},
        {"hash_mb": 256, "threads": 1},
        {"hash_mb": 256, "threads": 2},
        {"hash_mb": 1024, "threads": 2},
    ]
    for config in configs:
        for seconds in (0.05, 0.1, 0.5):
            worst = 0.0
            for _ in range(rounds):
                engine = Engine(**config)  # fresh: the first search is the one at risk
                start = time.perf_counter()
                engine.play(shashki.Board(), Limit(time=seconds))
                worst = max(worst, time.perf_counter() - start - seconds)
                del engine
            allowed = 0.010 + 0.1 * seconds
            verdict = "ok" if worst <= allowed else "OVER"
            print(
                f"  hash {config['hash_mb']:>5} MB threads {config['threads']} "
                f"time {seconds:.2f} s: worst overshoot {worst * 1000:6.1f} ms "
                f"(allowed {allowed * 1000:.0f} ms) {verdict}"
            )


def pdn_speed(megabytes: float) -> None:
    sample = DATA.read_text(encoding="utf-8") + "\n"
    copies = max(1, int(megabytes * 1e6 / len(sample.encode())))
    with tempfile.NamedTemporaryFile("w", suffix=".pdn", delete=False, encoding="utf-8") as f:
        for _ in range(copies):
            f.write(sample)
        path = f.name
    try:
        size = os.path.getsize(path)
        start = time.perf_counter()
        games = 0
        with open(path, encoding="utf-8") as handle:
            while pdn.read_game(handle) is not None:
                games += 1
        seconds = time.perf_counter() - start
        print(
            f"  {size / 1e6:.1f} MB, {games} games in {seconds:.2f} s: "
            f"{size / 1e6 / seconds:.1f} MB/s, {games / seconds:.0f} games/s"
        )
    finally:
        os.unlink(path)
    import io

    for unit in ("{x}", "{x}\n"):
        text = unit * (1_000_000 // len(unit)) + " *"
        start = time.perf_counter()
        pdn.read_game(io.StringIO(text))
        print(f"  1 MB of {unit!r} comments: {time.perf_counter() - start:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdn-mb", type=float, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print("Ctrl-C latency (signal to KeyboardInterrupt):")
    for kind in ("perft", "analyse"):
        latencies = sorted(interrupt_latency(kind) for _ in range(args.rounds))
        print(
            f"  {kind}: median {latencies[len(latencies) // 2] * 1000:.0f} ms, "
            f"worst {latencies[-1] * 1000:.0f} ms"
        )
    print("Time limits from a fresh engine:")
    overshoot(args.rounds)
    print("PDN reading:")
    pdn_speed(args.pdn_mb)


if __name__ == "__main__":
    main()
