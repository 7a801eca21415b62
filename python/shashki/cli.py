"""The ``shashki`` command line.

``shashki perft [FEN] DEPTH [--divide] [--orders] [--threads N] [--hash MB] [--json]``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Optional

import shashki


class _UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shashki", description="Russian draughts: perft and tools."
    )
    parser.add_argument("--version", action="version", version=f"shashki {shashki.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    perft = sub.add_parser("perft", help="count the leaves of the move tree")
    perft.add_argument("args", nargs="+", metavar="[FEN] DEPTH", help="optional FEN, then depth")
    perft.add_argument("--divide", action="store_true", help="count below each root move")
    perft.add_argument(
        "--orders",
        action="store_true",
        help="count capture orders separately (convention B)",
    )
    perft.add_argument("--threads", type=int, default=None, help="worker threads")
    perft.add_argument("--hash", type=int, default=0, metavar="MB", help="hash table size")
    perft.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _perft(args: argparse.Namespace) -> int:
    if len(args.args) > 2:
        raise _UsageError("perft takes an optional FEN and a depth")
    *fen, depth_text = args.args
    try:
        depth = int(depth_text)
    except ValueError:
        raise _UsageError(f"depth must be a whole number, not {depth_text!r}") from None
    if not 0 <= depth <= 63:
        raise _UsageError(f"depth must be between 0 and 63, not {depth}")
    board = shashki.Board(fen[0]) if fen else shashki.Board()
    options = {"distinct": not args.orders, "threads": args.threads, "hash_mb": args.hash}
    start = time.perf_counter()
    divide: dict[str, int] = {}
    show_progress = sys.stderr.isatty() and not args.json and depth >= 9
    if depth >= 2 and (args.divide or show_progress):
        # Root move by root move: shows progress and lets Ctrl-C stop between moves.
        moves = list(board.legal_moves)
        for i, move in enumerate(moves, 1):
            board.push(move)
            divide[str(move)] = shashki.perft(board, depth - 1, **options)
            board.pop()
            if show_progress:
                print(f"\r{i}/{len(moves)} root moves", end="", file=sys.stderr, flush=True)
        if show_progress:
            print("\r" + " " * 30 + "\r", end="", file=sys.stderr, flush=True)
        leaves = sum(divide.values())
    else:
        leaves = shashki.perft(board, depth, **options)
        if args.divide:
            divide = shashki.perft_divide(board, depth, **options)
    seconds = time.perf_counter() - start
    rate = leaves / seconds if seconds > 0 else 0.0
    if args.json:
        out = {
            "fen": board.fen(),
            "depth": depth,
            "convention": "orders" if args.orders else "distinct",
            "leaves": leaves,
            "seconds": round(seconds, 6),
            "leaves_per_second": round(rate),
        }
        if args.divide:
            out["divide"] = divide
        print(json.dumps(out))
        return 0
    if args.divide:
        for text, count in divide.items():
            print(f"{text}: {count}")
        print()
    print(f"perft {depth}: {leaves}")
    print(f"time {seconds:.3f} s, {rate / 1e6:.1f} M leaves/s")
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status (2 on a usage error)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "perft":
            return _perft(args)
    except (_UsageError, ValueError) as error:
        print(f"shashki: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
