"""Each game's endgame tables: the size and build time of every balance of 2 to N pieces,
as a Markdown table (docs/egtb.md). Heavy: run it alone on a quiet machine.

    python benches/egtb_games.py --pieces 4 --dir /tmp/tables [--games english,italian]
        [--out runs/egtb5.md]

A game's tables already in DIR are kept (the build resumes balance by balance), so its
time then counts only what was left to build: give an empty DIR for the figures. With
``--out`` each game's row is appended to that file as it is finished, and a game whose row
is already there is skipped: a long run stopped part way is picked up by running the same
command again. The CPU time is the process's (every build thread's), so it stays a fair
figure when something else shared the machine; the wall time does not."""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import shashki
from shashki import _core, egtb


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=4)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument(
        "--out", default=None, help="append each game's row here; skip the games it has"
    )
    parser.add_argument(
        "--games",
        default=None,
        help="comma-separated (default: every game with tables of its own)",
    )
    args = parser.parse_args()
    games = (
        args.games.split(",")
        if args.games
        else [
            card.name
            for card in shashki.games()
            # The diagonal start plays Russian draughts' tables, Portuguese Spanish's.
            if _core.endgame_refusal(card.name) is None
            and card.name not in ("diagonal", "portuguese")
        ]
    )
    out = Path(args.out) if args.out else None
    done = set()
    if out is not None and out.exists():
        rows = [line for line in out.read_text().splitlines() if line.startswith("| ")]
        done = {row.split("|")[1].strip() for row in rows}
    header = (
        f"| game | balances | positions (slots) | bytes on disk | build ({args.pieces} pieces),"
        " wall | CPU |\n|---|---|---|---|---|---|"
    )
    print(header, flush=True)
    if out is not None and not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(header + "\n")
    for name in games:
        if name in done:
            continue
        directory = Path(args.dir) / name
        started, cpu = time.monotonic(), cpu_seconds()
        names = egtb.build(
            directory, pieces=args.pieces, variant=name, threads=args.threads, progress=False
        )
        seconds, cpu = time.monotonic() - started, cpu_seconds() - cpu
        slots = sum(s for _, s, _ in _core.endgame_balances(args.pieces, variant=name))
        size = sum(p.stat().st_size for p in directory.iterdir())
        row = f"| {name} | {len(names)} | {slots:,} | {size:,} | {seconds:.1f} s | {cpu:.1f} s |"
        print(row, flush=True)
        if out is not None:
            with out.open("a") as f:
                f.write(row + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
