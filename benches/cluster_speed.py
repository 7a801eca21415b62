"""The cluster's speed on this machine: a table build and a match on a local Dask cluster
of one worker process, then of two (one thread each), as docs/cluster.md reports them.
Heavy: run it alone on a quiet machine.

    python benches/cluster_speed.py --job build --pieces 5 --variant russian --dir runs/cs
    python benches/cluster_speed.py --job match --pairs 50 --nodes 2000 --dir runs/cs

Each run starts a real ``dask scheduler`` and ``dask worker`` processes on 127.0.0.1 (as a
user does on their machines; see docs/cluster.md), runs the job with ``--scheduler``
through the command line, and stops them; the build starts from an empty directory each
time and its files are compared byte for byte with the other run's (and with a
one-machine build's, ``--local``). Prints one Markdown row per worker count."""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import time
from pathlib import Path

from shashki.distributed import local_cluster


def timed(command: list[str]) -> tuple[float, str]:
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.monotonic() - started, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--job", choices=("build", "match"), required=True)
    parser.add_argument("--dir", required=True, help="working directory (tables, PDN)")
    parser.add_argument("--pieces", type=int, default=5)
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--workers", default="1,2", help="worker counts to run, in turn")
    parser.add_argument("--local", action="store_true", help="compare with a local build")
    args = parser.parse_args()
    base = Path(args.dir)
    shashki_cli = [sys.executable, "-m", "shashki"]
    rows = []
    times: dict[int, float] = {}
    for workers in (int(w) for w in args.workers.split(",")):
        with local_cluster(str(base / f"dask{workers}"), workers) as address:
            if args.job == "build":
                out = base / f"tables{workers}"
                shutil.rmtree(out, ignore_errors=True)
                seconds, _ = timed(
                    [
                        *shashki_cli,
                        "egtb",
                        "build",
                        str(out),
                        "--pieces",
                        str(args.pieces),
                        "--variant",
                        args.variant,
                        "--scheduler",
                        address,
                    ]
                )
                what = f"{args.variant} <= {args.pieces} pieces"
            else:
                pdn = base / f"match{workers}.pdn"
                seconds, text = timed(
                    [
                        sys.executable,
                        "-m",
                        "shashki.match",
                        "--a",
                        "shashki",
                        "--b",
                        "shashki:hash=8",
                        "--nodes",
                        str(args.nodes),
                        "--pairs",
                        str(args.pairs),
                        "--openings",
                        "random",
                        "--seed",
                        "1",
                        "--scheduler",
                        address,
                        "--pdn",
                        str(pdn),
                    ]
                )
                what = f"{2 * args.pairs} games at {args.nodes} nodes: " + text.splitlines()[3]
        times[workers] = seconds
        first = min(times)  # the fewest workers run: the speed-up is against it
        speed = times[first] / seconds
        rows.append(f"| {args.job} | {what} | {workers} | {seconds:.1f} s | {speed:.2f}x |")
        print(rows[-1], flush=True)
    if args.job == "build":
        runs = sorted(times)
        names = sorted(p.name for p in (base / f"tables{runs[0]}").glob("*.egtb"))
        if args.local:
            local = base / "tables-local"
            shutil.rmtree(local, ignore_errors=True)
            seconds, _ = timed(
                [
                    *shashki_cli,
                    "egtb",
                    "build",
                    str(local),
                    "--pieces",
                    str(args.pieces),
                    "--variant",
                    args.variant,
                ]
            )
            print(f"| build | one machine, every core | - | {seconds:.1f} s | |")
            runs.append(-1)
        for other in runs[1:]:
            there = base / ("tables-local" if other == -1 else f"tables{other}")
            match, mismatch, errors = filecmp.cmpfiles(
                base / f"tables{runs[0]}", there, names, shallow=False
            )
            print(f"{there}: {len(match)} files identical, {len(mismatch) + len(errors)} not")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
