"""The held-out loss of a network file against the game's linear evaluation, on the same
positions and targets: the tenth ``python -m shashki.learn.train network fit`` held out (the same
seed), the target half result, half search score (``--score-share``), each evaluation's
centi-men read as an expected score by the data's logistic scale.

    python benches/network_loss.py DATA.npz [DATA2.npz …] --network NET.nnue [--sample 200000]

A heavy job (it rebuilds FENs in Python and evaluates them): a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import shashki
from shashki import _core
from shashki.learn import network as nn


def fens_of(data: nn.Data, rows: np.ndarray) -> list[str]:
    """The FENs of the positions ``rows`` of ``data`` (pieces by square index)."""
    squares = shashki.SQUARE_COUNTS[data.variant]
    pieces = [
        shashki.Piece(True),
        shashki.Piece(True, True),
        shashki.Piece(False),
        shashki.Piece(False, True),
    ]
    out = []
    for row in rows.tolist():
        board = shashki.Board.empty(variant=data.variant)
        for kind, bits in enumerate(data.pieces[row].tolist()):
            for square in range(squares):
                if bits >> square & 1:
                    board.set_piece_at(square, pieces[kind])
        fen = board.fen()  # White to move; the side to move set by the FEN's first letter
        out.append(("W" if data.white[row] else "B") + fen[1:])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+")
    parser.add_argument("--network", required=True)
    parser.add_argument("--score-share", type=float, default=0.5)
    parser.add_argument("--sample", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1, help="the fit's seed (its held-out tenth)")
    args = parser.parse_args()

    data = nn.load_data(args.data)
    scales = [float(np.load(p)["scale"]) for p in args.data]
    scale = sum(scales) / len(scales)
    order = np.random.default_rng(args.seed).permutation(len(data))
    held = order[: max(1, len(order) // 10)][: args.sample]
    target = nn.targets(data, scale, args.score_share)[held]
    started = time.monotonic()
    fens = fens_of(data, held)
    blob = open(args.network, "rb").read()
    kind = "learned" if data.variant == "russian" else "family"

    def loss(centi_men: list[int]) -> float:
        p = 1 / (1 + np.exp(-np.asarray(centi_men, dtype=np.float64) / scale))
        return float(np.mean((p - target) ** 2))

    network = loss(_core.evaluate_network(fens, blob))
    linear = loss(_core.evaluate_fens(fens, kind, variant=data.variant))
    print(
        f"{data.variant}: {len(held)} held-out positions of {len(data)}, scale {scale:.0f}, "
        f"target {1 - args.score_share:g} result + {args.score_share:g} score: "
        f"network {network:.5f}, {kind} evaluation {linear:.5f} "
        f"({time.monotonic() - started:.0f} s)",
        file=sys.stdout,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
