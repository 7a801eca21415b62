"""Random endgame starts for the endgame-table matches: N men a side placed at random, no
man on its crowning rank, no capture for either side to move, the side to move the game's
first; one FEN a line (``python -m shashki.match --openings FILE``).

    python benches/endgame_openings.py --variant english --men 4 --count 200 > FILE
"""

from __future__ import annotations

import argparse
import random

import shashki


def starts(variant: str, men: int, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    card = shashki.game_info(variant)
    first = shashki.Board(variant=variant).turn
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < count:
        board = shashki.Board(variant=variant)
        board.clear()
        squares = rng.sample(range(card.square_count), 2 * men)
        try:
            for i, square in enumerate(squares):
                board.set_piece_at(square, shashki.Piece(i < men, False))
        except ValueError:
            continue  # a man on its crowning rank
        body = board.fen().split(":", 1)[1]
        mine = shashki.Board(("W:" if first else "B:") + body, variant=variant)
        other = shashki.Board(("B:" if first else "W:") + body, variant=variant)
        if mine.has_captures() or other.has_captures() or mine.fen() in seen:
            continue
        seen.add(mine.fen())
        out.append(mine.fen())
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="english")
    parser.add_argument("--men", type=int, default=4)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"# {args.count} random {2 * args.men}-man endgames of {args.variant} ({args.men} men a"
        " side, no capture for either side to move): benches/endgame_openings.py"
    )
    for fen in starts(args.variant, args.men, args.count, args.seed):
        print(fen)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
