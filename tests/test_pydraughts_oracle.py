"""pydraughts (PyPI) as a third, independent oracle of the legal moves.

pydraughts numbers squares from White's side starting at 1 (1 = a1 … 32 = h8): our index
plus one. It lists capture sequences (one per path), so its moves are reduced to
(start, end, captured set) before comparing. Promotion is not compared (it does not say).
"""

from __future__ import annotations

import draughts  # noqa: E402  # pydraughts, a test dependency
import pytest
import shashki
from hypothesis import given, settings
from shashki import reference
from strategies import positions


def pydraughts_moves(fen: str) -> set[tuple[int, int, frozenset[int]]]:
    algebraic = shashki.Board(fen).fen(notation="algebraic")
    board = draughts.Board(variant="russian", fen=algebraic)
    out = set()
    for move in board.legal_moves():
        steps = move.steps_move
        out.add((steps[0] - 1, steps[-1] - 1, frozenset(c - 1 for c in move.captures)))
    return out


def strip(
    moves: set[tuple[int, int, frozenset[int], bool]],
) -> set[tuple[int, int, frozenset[int]]]:
    return {m[:3] for m in moves}


@settings(max_examples=settings.default.max_examples)
@given(positions())
def test_three_oracles_agree(fen: str) -> None:
    rust = strip({(m.start, m.end, m.captured, m.promotes) for m in shashki.Board(fen).legal_moves})
    ref = strip({m.key() for m in reference.legal_moves(fen)})
    oracle = pydraughts_moves(fen)
    # Where two of the three disagree, the rules (docs/rules.rst) decide; settled cases
    # become named tests.
    assert rust == ref
    assert oracle == rust, f"pydraughts differs on {fen}"


def pydraughts_brazilian_moves(fen: str) -> set[tuple[int, int, frozenset[int]]]:
    algebraic = shashki.Board(fen).fen(notation="algebraic")
    board = draughts.Board(variant="brazilian", fen=algebraic)
    return {
        (m.steps_move[0] - 1, m.steps_move[-1] - 1, frozenset(c - 1 for c in m.captures))
        for m in board.legal_moves()
    }


@settings(max_examples=settings.default.max_examples)
@given(positions())
def test_brazilian_three_oracles_agree(fen: str) -> None:
    rules = reference.rules_for("brazilian")
    rust = strip(
        {
            (m.start, m.end, m.captured, m.promotes)
            for m in shashki.Board(fen, variant="brazilian").legal_moves
        }
    )
    ref = strip({m.key() for m in reference.legal_moves(fen, rules)})
    assert rust == ref
    assert pydraughts_brazilian_moves(fen) == rust, f"pydraughts differs on {fen}"


@pytest.mark.parametrize(
    "fen",
    [
        "W:WKa1,e3:Bc3,f4",  # the king's two-piece capture beats the man's one
        "W:Wb6:Bc7,e7",  # a man crosses the far rank and captures on as a man
        "W:Wb6:Bc7,f6",  # a man ends its capture on the far rank
        "W:Wc3,g3:BKd4,f4,e5",
    ],
)
def test_brazilian_named_positions_agree_with_pydraughts(fen: str) -> None:
    rust = {
        (m.start, m.end, m.captured) for m in shashki.Board(fen, variant="brazilian").legal_moves
    }
    assert pydraughts_brazilian_moves(fen) == rust


def test_brazilian_start_perft_agrees_with_pydraughts() -> None:
    def count(board: draughts.Board, depth: int) -> int:
        distinct = {}
        for move in board.legal_moves():
            key = (move.steps_move[0], move.steps_move[-1], frozenset(move.captures))
            distinct.setdefault(key, move)
        if depth == 1:
            return len(distinct)
        total = 0
        for move in distinct.values():
            board.push(move)
            total += count(board, depth - 1)
            board.pop()
        return total

    board = shashki.Board(variant="brazilian")
    for depth in (1, 2, 3, 4):
        assert count(draughts.Board(variant="brazilian"), depth) == shashki.perft(board, depth)
