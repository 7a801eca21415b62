"""Each game's endgame tables: the size and build time of every balance of 2 to N pieces,
as a Markdown table (docs/egtb.md). Heavy: run it alone on a quiet machine.

    python benches/egtb_games.py --pieces 4 --dir /tmp/tables [--games english,italian]

A game's tables already in DIR are kept (the build resumes balance by balance), so its
time then counts only what was left to build: give an empty DIR for the figures."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import shashki
from shashki import _core, egtb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=4)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--threads", type=int, default=None)
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
    print(f"| game | balances | positions (slots) | bytes on disk | build ({args.pieces} pieces) |")
    print("|---|---|---|---|---|")
    for name in games:
        directory = Path(args.dir) / name
        started = time.monotonic()
        names = egtb.build(
            directory, pieces=args.pieces, variant=name, threads=args.threads, progress=False
        )
        seconds = time.monotonic() - started
        slots = sum(s for _, s, _ in _core.endgame_balances(args.pieces, variant=name))
        size = sum(p.stat().st_size for p in directory.iterdir())
        print(
            f"| {name} | {len(names)} | {slots:,} | {size:,} | {seconds:.1f} s |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
