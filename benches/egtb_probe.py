"""Endgame table probes from Python: ``python benches/egtb_probe.py DIR [--pieces N]``.

Random positions of N pieces (default 5) with a balance the tables hold; each probed twice
(the first pass unpacks the blocks it reaches, the second finds them in memory), timed
apart for positions with a capture (a probe searches their captures)."""

from __future__ import annotations

import argparse
import random
import time

import shashki
from shashki import egtb


def random_board(rng: random.Random, pieces: int) -> shashki.Board | None:
    squares = rng.sample(range(1, 33), pieces)
    white, black = [], []
    for i, square in enumerate(squares):
        side = white if i % 2 == 0 else black
        king = rng.random() < 0.5
        man_allowed = (side is white and square > 4) or (side is black and square < 29)
        side.append(f"K{square}" if king or not man_allowed else str(square))
    turn = rng.choice("WB")
    return shashki.Board(f"{turn}:W{','.join(white)}:B{','.join(black)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--pieces", type=int, default=5)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tables = egtb.open(args.directory)
    rng = random.Random(args.seed)
    quiet, captures = [], []
    while len(quiet) + len(captures) < args.count:
        board = random_board(rng, args.pieces)
        if board is None:
            continue
        (captures if any(m.is_capture for m in board.legal_moves) else quiet).append(board)
    print(f"{args.count} positions of {args.pieces} pieces ({len(captures)} with a capture)")
    for label in ("first pass (unpacking)", "second pass (in memory)"):
        for kind, boards in (("quiet", quiet), ("capture", captures)):
            probe = tables.probe_wdl
            start = time.perf_counter()
            for board in boards:
                probe(board)
            per = (time.perf_counter() - start) / max(len(boards), 1)
            print(f"{label:<24} {kind:<8} {per * 1e6:8.2f} µs a probe_wdl")


if __name__ == "__main__":
    main()
