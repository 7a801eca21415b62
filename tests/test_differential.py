"""Differential tests: the Rust core against the pure-Python reference rules.

Every property runs on random setups (any mix of men and kings, either side to move) and on
positions reached by random play from the start and from random setups, where kings, long
captures and mid-capture promotions are common. Failing examples are kept in hypothesis'
database (.hypothesis/) and replayed first; settled disagreements become @example lines.
"""

from __future__ import annotations

import shashki
from conftest import perft_lines
from hypothesis import example, given, settings
from hypothesis import strategies as st
from shashki import reference
from strategies import played, positions, setups

# Budgets scale with the active profile (conftest: "ci" by default, HYPOTHESIS_PROFILE=long
# for manual runs): 1500 and 400 examples a property in CI.
MANY = settings(max_examples=5 * settings.default.max_examples)
SOME = settings(max_examples=settings.default.max_examples + 100)


def rust_moves(fen: str) -> set[tuple[int, int, frozenset[int], bool]]:
    return {(m.start, m.end, m.captured, m.promotes) for m in shashki.Board(fen).legal_moves}


def reference_moves(fen: str) -> set[tuple[int, int, frozenset[int], bool]]:
    return {m.key() for m in reference.legal_moves(fen)}


@MANY
@given(positions())
@example("W:We1:Bd2,b4,d4,f4,f2")  # two loops are one move (docs/rules.rst)
@example("W:WKa1:Bc3,f6")  # a king taking two pieces on one line
@example("W:Wf6:Be7,b6")  # crowned mid-capture, goes on as a king
@example("B:Wd2,g3:Bc3")
def test_legal_moves_agree(fen: str) -> None:
    rust = list(shashki.Board(fen).legal_moves)
    assert len(rust) == len(set(rust)), "the core listed a move twice"
    assert rust_moves(fen) == reference_moves(fen)


@MANY
@given(positions())
def test_orders_convention_agrees_at_depth_one(fen: str) -> None:
    board = shashki.Board(fen)
    expected = len(reference.distinct_moves(reference.parse_fen(fen), distinct=False))
    assert shashki.perft(board, 1, distinct=False) == expected


@SOME
@given(positions())
def test_perft_agrees_in_both_conventions(fen: str) -> None:
    board = shashki.Board(fen)
    # Depth 3 where the pure-Python side can afford it, else depth 2.
    depth = 3 if shashki.perft(board, 3) <= 20_000 else 2
    for distinct in (True, False):
        assert shashki.perft(board, depth, distinct=distinct) == reference.perft(
            fen, depth, distinct=distinct
        )


@MANY
@given(positions())
def test_play_agrees_and_pop_restores(fen: str) -> None:
    board = shashki.Board(fen)
    before_fen, before_hash = board.fen(), board.zobrist_hash()
    for move in list(board.legal_moves):
        board.push(move)
        assert board.fen() == reference.play(fen, move)
        # The incremental hash equals the hash computed from scratch.
        assert board.zobrist_hash() == shashki.Board(board.fen()).zobrist_hash()
        assert board.pop() == move
        assert board.fen() == before_fen
        assert board.zobrist_hash() == before_hash


@MANY
@given(positions())
def test_fen_round_trip_is_identity(fen: str) -> None:
    board = shashki.Board(fen)
    for notation in ("numeric", "algebraic"):
        again = shashki.Board(board.fen(notation=notation))
        assert again == board
        assert again.fen() == board.fen()
    assert reference.write_fen(reference.parse_fen(fen)) == board.fen()


@SOME
@given(played(base=setups()))
def test_hash_after_long_random_play(fen: str) -> None:
    board = shashki.Board(fen)
    assert board.zobrist_hash() == shashki.Board(board.fen(notation="algebraic")).zobrist_hash()


def test_reference_alone_matches_published_perft() -> None:
    checked = 0
    for line in perft_lines():
        if line.nodes <= 12_000:
            assert reference.perft(line.fen, line.depth, distinct=line.distinct) == line.nodes, line
            checked += 1
    assert checked >= 40


@st.composite
def moves_of(draw: st.DrawFn) -> tuple[str, int]:
    fen = draw(positions())
    n = len(shashki.Board(fen).legal_moves)
    return fen, draw(st.integers(0, max(n - 1, 0)))


@SOME
@given(moves_of())
def test_move_text_round_trip(case: tuple[str, int]) -> None:
    fen, index = case
    board = shashki.Board(fen)
    if not board.legal_moves:
        return
    move = board.legal_moves[index]
    for notation in ("algebraic", "numeric"):
        assert board.parse_move(board.move_text(move, notation=notation)) == move
        assert board.parse_move(move.text(notation)) == move
