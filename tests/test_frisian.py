"""Frisian draughts (10×10, GameType 40) and frysk against their oracles: the published perft
figures (tests/data/variants_perft.txt, also checked by tests/test_variants.py), shashki's
pure-Python reference (its eight-line captures and value priority written from the Frisian
federation's rules) on positions hypothesis finds, and pydraughts' ``frisian`` along random
games played move by move (so that its history, and the limit on a king's quiet moves, is
the same as ours); then each rule with a position of its own, the draw rules, PDN and the
Hub.
"""

from __future__ import annotations

import io
import random

import draughts  # pydraughts, a test dependency
import pytest
import shashki
from conftest import perft_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki import pdn, reference
from shashki.draw import FRISIAN, Termination, default_draw_rules
from shashki.protocols import hub
from strategies import ten_by_ten_setups

VARIANT = "frisian"
RULES = reference.rules_for(VARIANT)
START = "W:W31-50:B1-20"
LINES = [line for line in perft_lines("variants_perft.txt") if line.variant == VARIANT]


def number(square: int) -> int:
    return shashki.square_number(square, variant=VARIANT)


def core_keys(board: shashki.Board) -> set[tuple]:
    return {(m.start, m.end, m.captured, m.promotes) for m in board.legal_moves}


def reference_keys(board: shashki.Board) -> set[tuple]:
    run = board.king_run(board.turn)
    blocked = run[1] if run is not None and run[0] >= 3 else None
    return {m.key() for m in reference.legal_moves(board.fen(), RULES, blocked=blocked)}


def texts(fen: str, variant: str = VARIANT) -> set[str]:
    return {m.text("numeric") for m in shashki.Board(fen, variant=variant).legal_moves}


def setups() -> st.SearchStrategy[str]:
    """Any legal 10×10 setup (squares from the reference's helpers, not the core's)."""
    return ten_by_ten_setups(most_empty=16)


# ---- exact: perft, the reference, pydraughts ----------------------------------------------


def test_the_published_table_is_there() -> None:
    assert {(line.distinct, line.depth) for line in LINES} >= {(True, 11), (False, 11)}


@pytest.mark.parametrize("distinct", [True, False])
def test_reference_perft_of_the_start(distinct: bool) -> None:
    expected = {line.depth: line.nodes for line in LINES if line.distinct == distinct}
    for depth in (1, 2, 3, 4):
        assert reference.perft(START, depth, distinct, RULES) == expected[depth]


@settings(max_examples=max(20, settings.default.max_examples // 2), deadline=None)
@given(fen=setups(), data=st.data())
def test_core_and_reference_agree_on_any_position(fen: str, data: st.DataObject) -> None:
    """Along random play from any setup, so that kings' runs build up as well."""
    board = shashki.Board(fen, variant=VARIANT)
    for _ in range(data.draw(st.integers(0, 30))):
        assert core_keys(board) == reference_keys(board), board.fen()
        moves = list(board.legal_moves)
        if not moves:
            return
        board.push(moves[data.draw(st.integers(0, len(moves) - 1))])
    assert core_keys(board) == reference_keys(board), board.fen()


def test_pydraughts_agrees_along_random_games() -> None:
    """pydraughts' ``frisian`` (its own generator, value priority and king-run rule) on every
    position of random games, both boards playing the same moves."""
    checked = captures = runs = 0
    for seed in range(8):
        rng = random.Random(900 + seed)
        board = shashki.Board(variant=VARIANT)
        theirs = draughts.Board(variant="frisian")
        for _ in range(160):
            ours = {
                (number(m.start), number(m.end), frozenset(number(c) for c in m.captured)): m
                for m in board.legal_moves
            }
            their_moves = {
                (m.steps_move[0], m.steps_move[-1], frozenset(m.captures)): m
                for m in theirs.legal_moves()
            }
            assert set(ours) == set(their_moves), board.fen()
            checked += 1
            captures += board.has_captures()
            runs += board.king_run(board.turn) is not None
            if not ours:
                break
            key = rng.choice(sorted(ours, key=str))
            board.push(ours[key])
            theirs.push(their_moves[key])
    assert checked > 400 and captures > 80 and runs > 5, (checked, captures, runs)


# ---- each rule with a position -----------------------------------------------------------


def test_men_capture_along_ranks_and_files() -> None:
    # A White man on 28 (e5): along the rank it takes 27 (c5) and lands on 26 (a5); along
    # the file it takes 18 (e7) and lands on 8 (e9); backwards as well.
    assert texts("W:W28:B27") == {"28x26"}
    assert texts("W:W28:B18") == {"28x8"}
    assert texts("W:W18:B28") == {"18x38"}
    # International draughts has no such capture.
    assert texts("W:W28:B27", "international") == {"28-22", "28-23"}


def test_kings_capture_along_lines_from_afar_and_land_anywhere_behind() -> None:
    # A king on 46 (a1) takes 26 (a5) up the a-file and lands on 16 (a7) or 6 (a9).
    assert texts("W:WK46:B26") == {"46x16", "46x6"}
    # A king on 36 (a3) takes 38 (e3) along the rank and lands on 39 or 40.
    assert texts("W:WK36:B38") == {"36x39", "36x40"}


def test_the_capture_of_most_value() -> None:
    """The Frisian rules: two men are worth more than a king, a king more than a man; as
    the federation's wording leaves open, a king counts 2 − ε men, so two kings outweigh
    three men (the reading of dctl, Scan and lidraughts; docs/variants.md)."""
    # A king beats a man: 26 takes the king on 16, not 33 the man on 32.
    assert texts("W:W33,26:B32,K16") == {"26x6"}
    # Two men beat a king: the king on 16 could take the king on 10; the king on 17 takes
    # two men instead.
    board = shashki.Board("W:WK16,K17,14:B22,K10,38", variant=VARIANT)
    assert {len(m.captured) for m in board.legal_moves} == {2}
    assert all(m.start == shashki.parse_square("17", variant=VARIANT) for m in board.legal_moves)
    # Two kings beat three men.
    board = shashki.Board("W:WK47:BK37,K21,42,25,24", variant=VARIANT)
    kings = {shashki.parse_square(n, variant=VARIANT) for n in ("37", "21")}
    assert {m.text("numeric") for m in board.legal_moves} == {"47x17x26", "47x27x16"}
    assert all(set(m.captured) == kings for m in board.legal_moves)


def test_equal_value_goes_to_the_king() -> None:
    # The men on 9 and 22 and the king on 28 can each take one man: the king must.
    assert texts("W:W9,22,K28:B19,K47,K7") == {"28x10", "28x14", "28x5"}


def test_a_man_crossing_the_far_rank_mid_capture_stays_a_man() -> None:
    board = shashki.Board("W:W17:B12,3,8", variant=VARIANT)
    for move in board.legal_moves:
        end_rank = reference.square_coords(move.end, 10)[1]
        assert move.promotes == (end_rank == 9)


def test_a_king_makes_at_most_three_quiet_moves_in_a_row_while_men_remain() -> None:
    board = shashki.Board("W:WK46,35:B5,15", variant=VARIANT)
    king = shashki.parse_square("46", variant=VARIANT)
    for count in (1, 2, 3):
        move = next(m for m in board.legal_moves if m.start == king and not m.is_capture)
        board.push(move)
        king = move.end
        assert board.king_run(shashki.WHITE) == (count, king)
        board.push(next(iter(board.legal_moves)))  # Black replies with a man
    # The fourth quiet move of the same king is not legal: White must move something else.
    assert all(m.start != king for m in board.legal_moves)
    assert any(m.start != king for m in board.legal_moves)
    # A man's move frees it.
    board.push(next(iter(board.legal_moves)))
    assert board.king_run(shashki.WHITE) is None
    board.push(next(iter(board.legal_moves)))
    assert any(m.start == king for m in board.legal_moves)


def test_the_limit_lapses_with_kings_only() -> None:
    board = shashki.Board("W:WK46:B5,15", variant=VARIANT)
    for _ in range(4):
        board.push(next(m for m in board.legal_moves if not m.is_capture))
        assert board.king_run(shashki.WHITE) is None
        board.push(next(iter(board.legal_moves)))


def test_the_run_is_part_of_the_position() -> None:
    """Two positions with the same pieces but different runs hash apart (the table and the
    repetition rule must not take one for the other)."""
    a = shashki.Board("W:WK46,35:B5,15", variant=VARIANT)
    king = shashki.parse_square("46", variant=VARIANT)
    a.push(next(m for m in a.legal_moves if m.start == king))
    a.push(next(iter(a.legal_moves)))
    b = shashki.Board(a.fen(), variant=VARIANT)
    assert a.fen() == b.fen() and a.zobrist_hash() != b.zobrist_hash()


# ---- the game around it ------------------------------------------------------------------


def test_the_start_fen_and_frysk() -> None:
    assert shashki.Board(variant=VARIANT).fen() == shashki.Board(variant="international").fen()
    frysk = shashki.Board(variant="frysk")
    assert frysk.fen() == "W:W46,47,48,49,50:B1,2,3,4,5"
    assert shashki.perft(frysk, 4) == reference.perft("W:W46-50:B1-5", 4, True, RULES)


def safe_quiet_move(board: shashki.Board) -> shashki.Move:
    """A quiet move after which the opponent has no capture, to a position not seen yet."""
    seen = {board.fen()}
    copy = board.copy()
    while copy.move_stack:
        copy.pop()
        seen.add(copy.fen())
    for move in board.legal_moves:
        board.push(move)
        safe = not move.is_capture and not board.has_captures() and board.fen() not in seen
        board.pop()
        if safe:
            return move
    raise AssertionError(f"no safe quiet move in {board.fen()}")


def plies_to_the_ending_draw(fen: str, limit: int = 30) -> int:
    """Safe quiet moves from ``fen`` until the game ends; it must end by Frisian's endings."""
    board = shashki.Board(fen, variant=VARIANT)
    plies = 0
    while board.outcome() is None and plies < limit:
        board.push(safe_quiet_move(board))
        plies += 1
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.FRISIAN_KINGS_VS_KING
    return plies


def test_draw_rules() -> None:
    assert default_draw_rules(VARIANT) is FRISIAN
    assert default_draw_rules("frysk") is FRISIAN
    # A king against a king: drawn after two moves each.
    assert plies_to_the_ending_draw("W:WK45:BK6") == 3  # the stronger side's 2nd move
    # Two kings against one: seven moves of the stronger side.
    assert plies_to_the_ending_draw("W:WK45,K50:BK6") == 13


def test_pdn_and_the_hub() -> None:
    from shashki.game import Game

    game = Game(variant=VARIANT)
    rng = random.Random(11)
    for _ in range(40):
        game.push(rng.choice(list(game.end().board().legal_moves)))
    text = pdn.write_game(game)
    assert '[GameType "40"]' in text
    back = pdn.read_game(io.StringIO(text))
    assert back is not None and back.variant == VARIANT
    assert back.end().board().fen() == game.end().board().fen()
    frysk = Game(variant="frysk")
    frysk.push(next(iter(frysk.end().board().legal_moves)))
    text = pdn.write_game(frysk)
    assert '[GameType "40"]' in text and '[Variant "Frysk"]' in text
    back = pdn.read_game(io.StringIO(text))
    assert back is not None and back.variant == "frysk"
    server = hub.HubServer(io.StringIO(), io.StringIO())
    server.set_param("variant", "frisian")
    server.handle("pos", {"pos": "W" + "b" * 20 + "e" * 10 + "w" * 20})
    assert server.board.variant == VARIANT
