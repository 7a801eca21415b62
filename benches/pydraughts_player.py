"""A py-draughts SimpleEngine player on stdin/stdout, for benches/match.py.

Run with the Python of a venv that has py-draughts (PyPI) installed, never beside pydraughts:
both install as ``import draughts``. Each input line is ``DEPTH FEN`` (numeric PDN FEN,
Russian draughts) or ``DEPTH VARIANT FEN`` (``international`` plays py-draughts'
StandardBoard); the answer is the chosen move with every square (``22-18``, ``22x15x6``), or
``none``.
"""

from __future__ import annotations

import sys

from draughts import RussianBoard, SimpleEngine, StandardBoard

BOARDS = {"russian": RussianBoard, "international": StandardBoard}


def main() -> None:
    engines: dict[int, SimpleEngine] = {}
    for line in sys.stdin:
        depth_text, fen = line.strip().split(" ", 1)
        variant = "russian"
        if ":" not in fen.split(" ", 1)[0]:
            variant, fen = fen.split(" ", 1)
        depth = int(depth_text)
        engine = engines.setdefault(depth, SimpleEngine(depth_limit=depth))
        board = BOARDS[variant].from_fen(fen)
        move = engine.get_best_move(board)
        if move is None:
            print("none", flush=True)
            continue
        squares = [s + 1 for s in move.square_list]
        sep = "x" if move.captured_list else "-"
        print(sep.join(map(str, squares)), flush=True)


if __name__ == "__main__":
    main()
