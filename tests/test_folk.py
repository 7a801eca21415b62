"""The folk games of the Russian rules pages (docs/variants.md, "The folk games"): Samoedy
(самоеды), Russian draughts in which a piece captures pieces of either colour, its own
side's too, every capture compulsory alike.

The core is checked against the pure-Python reference (``reference.rules_for("samoedy")``,
written from the rules' text: its capture test admits a piece of either colour) on any
position hypothesis finds and along random games; no perft of the game is published, so the
figures below are ours, each one agreed by the reference.
"""

from __future__ import annotations

import io
import random

import pytest
import shashki
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki import pdn, reference
from shashki.learn import batch
from strategies import positions

VARIANT = "samoedy"
RULES = reference.rules_for(VARIANT)
# Perft from the start, conventions A and B: the core's, equal to the reference's to depth 5
# (test_the_start_perft_is_the_references); deeper ones the core's alone.
PERFT_A = [6, 36, 154, 714, 2491, 9671]
PERFT_B = [6, 36, 154, 720, 2536, 9892]


def keys(board: shashki.Board) -> set[tuple]:
    return {(m.start, m.end, m.captured, m.promotes) for m in board.legal_moves}


def engine_plays(variant: str, plies: int) -> None:
    """The engine plays ``plies`` plies of ``variant`` from the start, each move legal."""
    from shashki.engine import Engine, Limit

    board = shashki.Board(variant=variant)
    with Engine(hash_mb=4) as engine:
        for _ in range(plies):
            if board.is_game_over():
                break
            move = engine.play(board, Limit(nodes=300)).move
            assert move in board.legal_moves
            board.push(move)


def test_the_card() -> None:
    card = shashki.game_info("самоеды")
    assert card.name == VARIANT and card.board_size == 8 and card.first == "white"
    assert card.notation == "algebraic" and card.tagged_on == "russian"
    assert card.draw_rules == "fmjd64" and card.actions == 896


def test_the_start_has_six_moves_all_taking_ones_own_men() -> None:
    # The rules' consequence the sources name: White's only moves take its own men on row 3.
    board = shashki.Board(variant=VARIANT)
    assert sorted(str(m) for m in board.legal_moves) == [
        "b2:d4",
        "d2:b4",
        "d2:f4",
        "f2:d4",
        "f2:h4",
        "h2:f4",
    ]
    board.push_move("b2:d4")
    assert board.piece_at(shashki.parse_square("c3")) is None  # its own man is gone
    assert len(board.pieces(shashki.WHITE)) == 11


def test_the_start_perft_is_the_references() -> None:
    start = shashki.Board(variant=VARIANT)
    fen = start.fen()
    for depth in range(1, 6):
        assert reference.perft(fen, depth, rules=RULES) == PERFT_A[depth - 1]
        assert reference.perft(fen, depth, distinct=False, rules=RULES) == PERFT_B[depth - 1]
    for depth in range(1, len(PERFT_A) + 1):
        assert shashki.perft(start, depth) == PERFT_A[depth - 1]
        assert shashki.perft(start, depth, distinct=False) == PERFT_B[depth - 1]


FOLK = ("samoedy", "stavropol", "stavropol-own-first")


def folk_keys(fen: str, variant: str, optional: bool = False) -> set[tuple]:
    rules = reference.rules_for(variant, optional)
    return {m.key() for m in reference.legal_moves(fen, rules)}


@settings(max_examples=settings.default.max_examples)
@given(positions(), st.sampled_from(FOLK), st.booleans())
def test_core_and_reference_agree_on_any_position(fen: str, variant: str, optional: bool) -> None:
    board = shashki.Board(fen, variant=variant, captures_optional=optional)
    assert keys(board) == folk_keys(fen, variant, optional), (variant, fen)


@pytest.mark.parametrize("variant", FOLK)
@pytest.mark.parametrize("seed", range(4))
def test_core_and_reference_agree_along_random_games(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    rules = reference.rules_for(variant)
    board = shashki.Board(variant=variant)
    checked = 0
    while board.legal_moves and checked < 150:
        assert keys(board) == folk_keys(board.fen(), variant), board.fen()
        move = rng.choice(list(board.legal_moves))
        after = reference.play(board.fen(), move, rules)
        board.push(move)
        assert board.fen() == after
        assert board.zobrist_hash() == shashki.Board(board.fen(), variant=variant).zobrist_hash()
        checked += 1
    assert checked > 20


def test_a_king_takes_its_own_king_and_men_take_either_colour() -> None:
    # A white king on a1 takes its own king on c3 and goes on over the black man on e5
    # (c3 stays on the board until the move ends, as in Russian draughts); the king on c3
    # takes e5 at once. Every move captures.
    board = shashki.Board("W:WKa1,Kc3:Be5", variant=VARIANT)
    assert sorted(str(m) for m in board.legal_moves) == [
        "a1:d4:f6",
        "a1:d4:g7",
        "a1:d4:h8",
        "c3:f6",
        "c3:g7",
        "c3:h8",
    ]
    board.push_move("a1:d4:g7")
    assert board.fen() == shashki.Board("B:WKg7:B", variant=VARIANT).fen()
    assert board.is_game_over() and board.result() == "1-0"  # Black has nothing left
    # A man takes its own man, then the opponent's, in one move.
    board = shashki.Board(variant=VARIANT)
    board.push_move("b2:d4")
    board.push_move("g7:e5:c3")  # over its own f6, then White's d4
    assert "f2:d4:b2" in [str(m) for m in board.legal_moves]


def test_a_game_writes_and_reads_pdn_with_its_variant_tag() -> None:
    game = shashki.Game(variant=VARIANT)
    for text in ("b2:d4", "g7:e5:c3", "f2:d4:b2"):
        game.push_move(text)
    written = pdn.write_game(game)
    assert '[GameType "25"]' in written and '[Variant "' in written
    back = pdn.read_game(io.StringIO(written))
    assert back is not None and back.variant == VARIANT
    assert back.end().board().fen() == game.end().board().fen()
    assert shashki.draw.default_draw_rules(VARIANT).name == shashki.draw.FMJD64.name


def test_the_engine_and_the_batch_api_play_it() -> None:
    engine_plays(VARIANT, 20)
    boards = batch.Boards(16, variant=VARIANT, seed=3)
    assert boards.legal_action_mask().sum(axis=1).min() > 0
    for _ in range(40):
        boards.step(boards.sample_actions())
    games = batch.playouts(8, variant=VARIANT, seed=2, max_plies=200)
    assert games.lengths.sum() > 0
    replay = boards.board(0)
    assert replay.variant == VARIANT


# ---- Stavropol draughts ---------------------------------------------------------------------

STAVROPOL = "stavropol"
STAVROPOL_RULES = reference.rules_for(STAVROPOL)
# Ours, the core's and the reference's alike to depth 4 (5: 253,946 for both; a minute of
# the reference); the two conventions agree here (no two orders of the same captures yet).
STAVROPOL_PERFT = [14, 210, 2528, 25916, 253946, 2409524]


def test_stavropol_moves_either_colour_by_its_own_rules() -> None:
    card = shashki.game_info("ставропольские")
    assert card.name == STAVROPOL and card.tagged_on == "russian" and card.actions == 896
    start = shashki.Board(variant=STAVROPOL)
    assert len(start.legal_moves) == 14  # White's seven first moves and Black's seven
    # A black man moved by White goes Black's way, towards White (c7-b6, c7-d6).
    board = shashki.Board("W:Wg1,b2:Bc7", variant=STAVROPOL)
    assert sorted(str(m) for m in board.legal_moves) == [
        "b2-a3",
        "b2-c3",
        "c7-b6",
        "c7-d6",
        "g1-f2",
        "g1-h2",
    ]
    board.push_move("c7-d6")
    assert board.turn == shashki.BLACK  # the turn passes as after any move
    assert board.piece_at(shashki.parse_square("d6")) == shashki.Piece(shashki.BLACK)
    # A black man moved by White to the first rank is crowned a black king.
    crown = shashki.Board("W:Wh2:Bb2", variant=STAVROPOL)
    move = crown.parse_move("b2-a1")
    assert move.promotes
    crown.push(move)
    assert crown.piece_at(shashki.parse_square("a1")) == shashki.Piece(shashki.BLACK, king=True)


def test_stavropol_captures_of_either_colour_are_compulsory() -> None:
    # White may take with its own c3 or with Black's d4, which takes White's c3 ("if the
    # only forced move is a capture of your own piece by an opponent's piece, you must").
    board = shashki.Board("W:Wc3:Bd4,h8", variant=STAVROPOL)
    assert sorted(str(m) for m in board.legal_moves) == ["c3:e5", "d4:b2"]
    board.push_move("d4:b2")
    assert not board.pieces(shashki.WHITE)  # White took its own last man
    # A side whose own colour cannot move has lost, whatever the other colour could do.
    stuck = shashki.Board("W:Wa1:Bb2,c3", variant=STAVROPOL)
    assert list(stuck.legal_moves) == [] and stuck.result() == "0-1"


def test_stavropol_perft_is_the_references() -> None:
    start = shashki.Board(variant=STAVROPOL)
    fen = start.fen()
    for depth in range(1, 5):
        assert reference.perft(fen, depth, rules=STAVROPOL_RULES) == STAVROPOL_PERFT[depth - 1]
    for depth in range(1, len(STAVROPOL_PERFT) + 1):
        assert shashki.perft(start, depth) == STAVROPOL_PERFT[depth - 1]


def test_stavropol_pdn_engine_and_batch() -> None:
    game = shashki.Game(variant=STAVROPOL)
    for text in ("c3-d4", "e3-f4", "f6-g5"):  # White; Black moves White's e3; White Black's f6
        game.push_move(text)
    back = pdn.read_game(io.StringIO(pdn.write_game(game)))
    assert back is not None and back.variant == STAVROPOL
    assert back.end().board().fen() == game.end().board().fen()
    engine_plays(STAVROPOL, 12)
    boards = batch.Boards(8, variant=STAVROPOL, seed=5)
    for _ in range(30):
        boards.step(boards.sample_actions())
    assert boards.board(0).variant == STAVROPOL


# ---- Stavropol draughts with one's own captures first (the Dagaz project's reading) -------

OWN_FIRST = "stavropol-own-first"
# The core's and the reference's to depth 4; the Dagaz project's Stavropol (its model run
# under node, benches/dagaz.py) counts the same to depth 6.
OWN_FIRST_PERFT = [14, 210, 2518, 25662, 249474, 2340543]


def test_own_captures_come_first_in_that_reading() -> None:
    # After 1. g3-f4 d6-e5 White can take with its own f4, or with Black's e5 (which takes
    # White's f4): both in our reading, only its own in this one.
    free = shashki.Board(variant=STAVROPOL)
    own_first = shashki.Board(variant=OWN_FIRST)
    for board in (free, own_first):
        board.push_move("g3-f4")
        board.push_move("d6-e5")
    assert sorted(str(m) for m in free.legal_moves) == ["e5:g3", "f4:d6"]
    assert [str(m) for m in own_first.legal_moves] == ["f4:d6"]
    # Without a capture of its own the other colour's is compulsory, as in our reading.
    forced = shashki.Board("W:Wc3,h2:Bd4,a7", variant=OWN_FIRST)
    assert sorted(str(m) for m in forced.legal_moves) == ["c3:e5"]
    # c3 cannot take d4 (e5 is taken): Black's d4 taking White's c3 is the only capture,
    # and compulsory.
    theirs = shashki.Board("W:Wc3,h2:Bd4,e5", variant=OWN_FIRST)
    assert [str(m) for m in theirs.legal_moves] == ["d4:b2"]
    card = shashki.game_info("stavropol-own")
    assert card.name == OWN_FIRST and card.move_rules == "stavropolownfirst"


def test_own_first_perft_is_the_references_and_dagazs() -> None:
    start = shashki.Board(variant=OWN_FIRST)
    rules = reference.rules_for(OWN_FIRST)
    for depth in range(1, 5):
        assert reference.perft(start.fen(), depth, rules=rules) == OWN_FIRST_PERFT[depth - 1]
    for depth in range(1, len(OWN_FIRST_PERFT) + 1):
        assert shashki.perft(start, depth) == OWN_FIRST_PERFT[depth - 1]
