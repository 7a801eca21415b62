"""A value function learned from batch self-play that beats the random mover.

    pip install ".[train]"   # numpy
    python examples/learn_value.py [--playouts 20000] [--games 400] [--lookahead 1]

1. Data: ``shashki.learn.batch.playouts`` plays random games in Rust and returns every position
   met as observation planes (from the side to move's point of view) with the game it came
   from, so each position gets its game's result as a label: 1 the side to move went on to
   win, 0 it lost, 0.5 a draw.
2. Model: a linear value over the four piece planes' 32 dark squares each (the side to
   move's men and kings, the opponent's men and kings) and a bias, fitted by least squares
   (numpy only, one solve).
3. Play: the learner chooses the move after which the opponent's value is lowest
   (``--lookahead 1``), or the move whose worst reply leaves it the best value
   (``--lookahead 2``); the successors' planes come from ``shashki.learn.batch.Boards`` built
   from their FENs. It plays ``--games`` games against the uniform random mover, colours
   alternating, under the official draw rules.

Measured (2026-11-30, 2 cores, the defaults): 974,710 positions from 20,000 playouts in
7.5 s, the fit in 1.8 s; with one ply of lookahead the learner won 383 of 400 games
(95.8 %, 3 draws, 14 losses) in 1.4 s; with two plies, 400 of 400 in 5.1 s.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import shashki
from shashki.learn.batch import Boards, playouts

DARK = np.add.outer(np.arange(8), np.arange(8)) % 2 == 0
"""The playing squares of the planes (rank-major, a1 first)."""


def features(planes: np.ndarray) -> np.ndarray:
    """The piece planes' dark squares and a bias: ``(n, 4 × 32 + 1)``."""
    pieces = planes[:, :4][:, :, DARK].reshape(len(planes), -1)
    return np.concatenate([pieces, np.ones((len(planes), 1), np.float32)], axis=1)


def training_data(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Features and results (side to move's view) of every position of random playouts."""
    played = playouts(games, seed=seed, positions=True)
    white_to_move = np.array([fen[0] == "W" for fen in played.fens])
    result = played.results[played.games].astype(np.int64)  # 1 White won, -1 Black won
    decided = np.isin(result, (1, -1))
    won = (result == 1) == white_to_move
    targets = np.where(decided, won.astype(np.float32), np.float32(0.5))
    return features(played.planes), targets.astype(np.float32)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Least-squares weights (with a little ridge so that a square never used is 0)."""
    return np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ y)


class Learner:
    """Plays by the learned value, looking ``lookahead`` plies ahead (1 or 2)."""

    def __init__(self, weights: np.ndarray, lookahead: int = 1) -> None:
        self.weights = weights
        self.lookahead = lookahead

    def values(self, fens: list[str]) -> np.ndarray:
        """The value of each position for its side to move."""
        return features(Boards(len(fens), fens=fens).observation()) @ self.weights

    @staticmethod
    def successors(board: shashki.Board, moves: list[shashki.Move]) -> list[str]:
        fens = []
        for move in moves:
            board.push(move)
            fens.append(board.fen())
            board.pop()
        return fens

    def choose(self, board: shashki.Board) -> shashki.Move:
        moves = list(board.legal_moves)
        if self.lookahead == 1:  # the move that leaves the opponent the least
            return moves[int(np.argmin(self.values(self.successors(board, moves))))]
        best: tuple[float, shashki.Move] | None = None
        for move in moves:
            board.push(move)
            replies = list(board.legal_moves)
            if not replies:  # the opponent has no move: this move wins
                board.pop()
                return move
            worst = float(self.values(self.successors(board, replies)).min())
            board.pop()
            if best is None or worst > best[0]:
                best = (worst, move)
        assert best is not None
        return best[1]


def match(learner: Learner, games: int, seed: int) -> tuple[int, int, int]:
    """Wins, draws and losses of ``learner`` against the random mover."""
    rng = random.Random(seed)
    tally = [0, 0, 0]
    for game in range(games):
        board = shashki.Board()
        colour = shashki.WHITE if game % 2 == 0 else shashki.BLACK
        while (outcome := board.outcome()) is None:
            if board.turn == colour:
                board.push(learner.choose(board))
            else:
                board.push(rng.choice(list(board.legal_moves)))
        tally[0 if outcome.winner == colour else 1 if outcome.winner is None else 2] += 1
    return tally[0], tally[1], tally[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--lookahead", type=int, choices=(1, 2), default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    x, y = training_data(args.playouts, args.seed)
    print(
        f"{len(y):,} positions from {args.playouts:,} playouts in "
        f"{time.perf_counter() - started:.1f} s"
    )
    started = time.perf_counter()
    weights = fit(x, y)
    print(
        f"fit: mean squared error {np.mean((x @ weights - y) ** 2):.4f} "
        f"({time.perf_counter() - started:.1f} s)"
    )
    started = time.perf_counter()
    wins, draws, losses = match(Learner(weights, args.lookahead), args.games, args.seed + 1)
    print(
        f"against the random mover: {wins} wins, {draws} draws, {losses} losses "
        f"({wins / args.games:.1%} won) in {time.perf_counter() - started:.1f} s"
    )


if __name__ == "__main__":
    main()
