"""Giveaway (поддавки) engine strength: against a random mover and against its own search two
plies shallower, game pairs from random 4-ply openings, both colours, under the variant's
draw rules (shashki.draw.GIVEAWAY).

    python benches/giveaway.py [--pairs 50] [--depth 6] [--seed 1]

Prints W/D/L and the Elo difference with its 95 % interval (pentanomial, shashki.apps.match).
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor

import shashki
from shashki.apps.match import Results
from shashki.engine import Engine, Limit

MAX_PLIES = 300


def opening(seed: int) -> str:
    rng = random.Random(seed)
    board = shashki.Board(variant="giveaway")
    for _ in range(4):
        moves = list(board.legal_moves)
        board.push(rng.choice(moves))
    return board.fen()


def play(fen: str, white: str, black: str, depth: int, seed: int) -> float:
    """One game; returns White's points. Players: "engine", "shallow" (depth − 2), "random"."""
    rng = random.Random(seed)
    engines = {"engine": Engine(hash_mb=16), "shallow": Engine(hash_mb=16)}
    depths = {"engine": depth, "shallow": max(1, depth - 2)}
    game = shashki.Game(fen, variant="giveaway")
    while not game.is_game_over() and game.ply() < MAX_PLIES:
        player = white if game.end().board().turn else black
        if player == "random":
            move = rng.choice(list(game.end().board().legal_moves))
        else:
            move = engines[player].play(game, Limit(depth=depths[player])).move
            assert move is not None
        game.push(move)
    result = game.result()
    return {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)


def pair(args: tuple[int, str, int]) -> tuple[float, float]:
    """A's points as White and as Black from one opening."""
    seed, opponent, depth = args
    fen = opening(seed)
    as_white = play(fen, "engine", opponent, depth, seed)
    as_black = 1.0 - play(fen, opponent, "engine", depth, seed + 1)
    return as_white, as_black


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with ProcessPoolExecutor() as pool:
        for opponent in ("random", "shallow"):
            results = Results()
            jobs = [(args.seed * 100_000 + i, opponent, args.depth) for i in range(args.pairs)]
            for as_white, as_black in pool.map(pair, jobs):
                results.add_pair(as_white + as_black, (as_white, as_black))
            elo, low, high = results.elo()
            name = "a random mover" if opponent == "random" else f"depth {args.depth - 2}"
            print(
                f"depth {args.depth} against {name}: {2 * results.count} games, "
                f"+{results.wins} ={results.draws} -{results.losses}, "
                f"score {results.score():.3f}, Elo {elo:+.0f} [{low:+.0f}, {high:+.0f}]",
                flush=True,
            )


if __name__ == "__main__":
    main()
