"""The cost of splitting perft: one process (threads, one hash table) against the same count
split over local worker processes and over a Dask cluster on this machine.

    python benches/perft_split.py [DEPTH] [--hash MB] [--workers N] [--rounds N]

Each way is timed ``--rounds`` times, the rounds interleaved, and the best time of each kept
(this machine's speed swings hit single runs).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import shashki
from shashki import distributed


def timed(label: str, run: Callable[[], int]) -> float:
    start = time.perf_counter()
    leaves = run()
    seconds = time.perf_counter() - start
    print(f"{label:<36} {leaves:>16} leaves {seconds:8.1f} s {leaves / seconds / 1e6:8.1f} M/s")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("depth", type=int, nargs="?", default=13)
    parser.add_argument("--hash", type=int, default=512, help="MB of table")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    board = shashki.Board()
    ways: dict[str, Callable[[], int]] = {
        f"one process, {args.workers} threads": lambda: shashki.perft(
            board, args.depth, threads=args.workers, hash_mb=args.hash
        ),
        f"{args.workers} local processes": lambda: distributed.perft(
            board, args.depth, workers=args.workers, hash_mb=args.hash
        ),
    }
    clusters = []
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        print("Dask is not installed: pip install 'shashki[distributed]'")
    else:
        # Dask's workers sample their threads' stacks every 10 ms by default (its
        # statistical profiler): measured both ways.
        for label, profiler in (("Dask", True), ("Dask, profiler off", False)):
            with dask.config.set({"distributed.worker.profile.enabled": profiler}):
                cluster = LocalCluster(
                    host="127.0.0.1",
                    n_workers=args.workers,
                    threads_per_worker=1,
                    dashboard_address=None,
                    silence_logs=50,
                )
            client = Client(cluster)
            clusters.append((client, cluster))
            ways[f"{label}, {args.workers} workers"] = lambda client=client: distributed.perft(
                board, args.depth, executor=client, hash_mb=args.hash
            )
    best: dict[str, float] = {}
    try:
        for _ in range(args.rounds):
            for label, run in ways.items():
                best[label] = min(best.get(label, float("inf")), timed(label, run))
    finally:
        for client, cluster in clusters:
            client.close()
            cluster.close()
    one = best.pop(next(iter(ways)))
    print(f"best of {args.rounds}: one process {one:.1f} s; split overhead: ", end="")
    print(", ".join(f"{k} {100 * (v / one - 1):+.0f} % ({v:.1f} s)" for k, v in best.items()))


if __name__ == "__main__":
    main()
