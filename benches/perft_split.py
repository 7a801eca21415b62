"""The cost of splitting perft: one process (threads, one hash table) against the same count
split over local worker processes and over a Dask cluster on this machine.

    python benches/distributed.py [DEPTH] [--hash MB] [--workers N]
"""

from __future__ import annotations

import argparse
import os
import time

import shashki
from shashki import distributed


def timed(label: str, run) -> int:
    start = time.perf_counter()
    leaves = run()
    seconds = time.perf_counter() - start
    print(f"{label:<36} {leaves:>16} leaves {seconds:8.1f} s {leaves / seconds / 1e6:8.1f} M/s")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("depth", type=int, nargs="?", default=13)
    parser.add_argument("--hash", type=int, default=512, help="MB of table (each worker)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    board = shashki.Board()
    one = timed(
        f"one process, {args.workers} threads",
        lambda: shashki.perft(board, args.depth, threads=args.workers, hash_mb=args.hash),
    )
    local = timed(
        f"{args.workers} local processes",
        lambda: distributed.perft(board, args.depth, workers=args.workers, hash_mb=args.hash),
    )
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("Dask is not installed: pip install 'shashki[distributed]'")
        return
    with (
        LocalCluster(
            host="127.0.0.1", n_workers=args.workers, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        dask = timed(
            f"Dask, {args.workers} workers",
            lambda: distributed.perft(board, args.depth, executor=client, hash_mb=args.hash),
        )
    local_cost, dask_cost = 100 * (local / one - 1), 100 * (dask / one - 1)
    print(f"split overhead: local {local_cost:+.0f} %, Dask {dask_cost:+.0f} %")


if __name__ == "__main__":
    main()
