"""Уголки (the corners race): perft, the pure-Python reference on random games, the chains of
jumps, and the game's endings (docs/variants.md, "Уголки")."""

from __future__ import annotations

import random

import pytest
import shashki
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki import reference_ugolki as ref
from shashki.draw import Termination

# Perft of the start (ours: no published figures; the reference agrees to depth 5).
PERFT = [12, 144, 2784, 53824, 1135552, 23968870]
# The twelve-piece game (3×4 houses): the reference agrees to depth 5.
PERFT_12 = [14, 196, 4412, 99597, 2559237, 66066863]


def test_perft_of_the_start() -> None:
    board = shashki.Board(variant="ugolki")
    for depth, expected in enumerate(PERFT, start=1):
        assert shashki.perft(board, depth) == expected
        assert shashki.perft(board, depth, distinct=False) == expected


def test_the_reference_agrees_on_the_start() -> None:
    start, turn = ref.start()
    for depth, expected in enumerate(PERFT[:5], start=1):
        assert ref.perft(start, turn, depth) == expected


def test_perft_of_the_twelve_piece_start() -> None:
    board = shashki.Board(variant="ugolki-12")
    assert board.fen("algebraic") == (
        "W:Wa3,b3,c3,d3,a2,b2,c2,d2,a1,b1,c1,d1:Be8,f8,g8,h8,e7,f7,g7,h7,e6,f6,g6,h6"
    )
    for depth, expected in enumerate(PERFT_12, start=1):
        assert shashki.perft(board, depth) == expected
    start, turn = ref.start(ref.HOUSE_12)
    for depth, expected in enumerate(PERFT_12[:4], start=1):
        assert ref.perft(start, turn, depth, ref.HOUSE_12) == expected


def name(square: int) -> str:
    return shashki.square_name(square, variant="ugolki")


def pairs(board: shashki.Board) -> set[tuple[str, str]]:
    return {
        (
            shashki.square_name(m.start, variant="ugolki"),
            shashki.square_name(m.end, variant="ugolki"),
        )
        for m in board.legal_moves
    }


def reference_pairs(board: shashki.Board) -> set[tuple[str, str]]:
    position, turn = ref.from_fen(board.fen("algebraic"))
    name = "abcdefgh"
    house = ref.HOUSE_12 if board.variant == "ugolki-12" else ref.HOUSE_9
    return {
        (f"{name[a[0]]}{a[1] + 1}", f"{name[b[0]]}{b[1] + 1}")
        for a, b in ref.moves(position, turn, house)
    }


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 150),
    variant=st.sampled_from(["ugolki", "ugolki-12"]),
)
def test_random_games_agree_with_the_reference(seed: int, plies: int, variant: str) -> None:
    rng = random.Random(seed)
    board = shashki.Board(variant=variant)
    pieces = 12 if variant == "ugolki-12" else 9
    for _ in range(plies):
        assert pairs(board) == reference_pairs(board)
        assert len(board.pieces(True)) == len(board.pieces(False)) == pieces
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))


def test_a_chain_of_jumps_turns_and_may_stop_anywhere() -> None:
    # a1 over a2 to a3, over b3 to c3, over c4 to c5: each landing is a move's end.
    board = shashki.Board("W:Wa1:Ba2,b3,c4", variant="ugolki")
    assert {end for start, end in pairs(board) if start == "a1"} == {"b1", "a3", "c3", "c5"}
    move = board.push_move("a1-c5")
    assert not move.captured and board.fen("algebraic") == "B:Wc5:Bc4,b3,a2"


def test_pieces_of_either_colour_are_jumped_and_nothing_wraps_round_the_edge() -> None:
    board = shashki.Board("W:Wh1,h2:Bg3,a2", variant="ugolki")
    assert {end for start, end in pairs(board) if start == "h1"} == {"g1", "h3", "f3"}


def test_white_is_not_crowned_in_black_s_corner() -> None:
    board = shashki.Board("W:Wg7:Bh1", variant="ugolki")
    board.push_move("g7-g8")
    assert board.piece_at(shashki.parse_square("g8", variant="ugolki")) == shashki.Piece(
        True, False
    )


def corner(names: str) -> str:
    return ",".join(names.split())


WHITE_HOME = "a1 b1 c1 a2 b2 c2 a3 b3 c3"
BLACK_HOME = "f6 g6 h6 f7 g7 h7 f8 g8 h8"


def test_filling_the_corner_first_wins_and_black_has_one_reply() -> None:
    white = corner(BLACK_HOME.replace("f6", "e6"))
    black = corner(WHITE_HOME.replace("c3", "d3"))
    board = shashki.Board(f"W:W{white}:B{black}", variant="ugolki")
    board.push_move("e6-f6")  # White fills Black's corner
    assert board.outcome() is None  # Black has its reply
    board.push_move("d3-c3")  # and fills White's: a draw
    assert board.outcome() == shashki.Outcome(Termination.CORNER_FILLED, None)
    board.pop()
    board.push_move("d3-d4")
    assert board.outcome() == shashki.Outcome(Termination.CORNER_FILLED, True)


def test_black_filling_first_wins_at_once() -> None:
    board = shashki.Board(
        "B:W"
        + corner(BLACK_HOME.replace("f6", "e5"))
        + ":B"
        + corner(WHITE_HOME.replace("c3", "d3")),
        variant="ugolki",
    )
    board.push_move("d3-c3")
    assert board.outcome() == shashki.Outcome(Termination.CORNER_FILLED, False)


def test_a_piece_left_in_its_own_corner_after_the_40th_move_loses() -> None:
    fen = "W:Wa1,d4:Bh8,e5:H0:F40"
    board = shashki.Board(fen, variant="ugolki")
    board.push_move("d4-d5")  # White's 40th move, a1 still at home
    outcome = board.outcome()
    assert outcome == shashki.Outcome(Termination.CORNER_NOT_LEFT, False)
    board = shashki.Board("W:Wb4,d4:Bh8,e5:H0:F39", variant="ugolki")
    board.push_move("b4-b3")  # White's 39th move, back home: not yet lost
    assert board.outcome() is None
    board.push_move("e5-e4")  # Black's 39th
    board.push_move("d4-d5")  # White's 40th, b3 still at home
    assert board.outcome() == shashki.Outcome(Termination.CORNER_NOT_LEFT, False)


def test_the_engine_plays_a_legal_move() -> None:
    from shashki.engine import Engine, Limit

    board = shashki.Board(variant="ugolki")
    engine = Engine(hash_mb=16)
    try:
        move = engine.play(board, Limit(depth=3)).move
    finally:
        engine.close()
    assert move in list(board.legal_moves)


@pytest.mark.parametrize("bad", ["W:Wa1,a1:Bh8", "W:Wi1:Bh8", "W:Wa9:Bh8"])
def test_bad_fens_are_refused(bad: str) -> None:
    with pytest.raises(shashki.FenError):
        shashki.Board(bad, variant="ugolki")


def test_a_finished_race_has_no_moves_in_the_core_and_the_reference() -> None:
    # White has filled, Black has not: with White to move the game is over (White won).
    board = shashki.Board(
        f"W:W{corner(BLACK_HOME)}:B{corner(WHITE_HOME.replace('c3', 'd3'))}", variant="ugolki"
    )
    assert not list(board.legal_moves)
    assert board.outcome() == shashki.Outcome(Termination.CORNER_FILLED, True)
    assert ref.moves(*ref.from_fen(board.fen("algebraic"))) == []
    # The same pieces with Black to move: Black has its reply, and may take it.
    board = shashki.Board(board.fen("algebraic").replace("W:", "B:", 1), variant="ugolki")
    assert ("d3", "c3") in pairs(board)
    assert pairs(board) == reference_pairs(board)


def test_the_engine_fills_the_corner_when_it_can() -> None:
    from shashki.engine import Engine, Limit

    white = corner(BLACK_HOME.replace("f6", "e6"))
    black = corner(WHITE_HOME.replace("c3", "e3"))
    board = shashki.Board(f"W:W{white}:B{black}", variant="ugolki")
    engine = Engine(hash_mb=16)
    try:
        result = engine.play(board, Limit(depth=4))
    finally:
        engine.close()
    assert result.move == board.parse_move("e6-f6")
    board.push(result.move)
    board.push_move("e3-d3")  # Black's reply cannot fill: White has won
    assert board.outcome() == shashki.Outcome(Termination.CORNER_FILLED, True)


@pytest.mark.parametrize("variant", ["ugolki", "ugolki-12"])
def test_the_batch_api_refuses_ugolki(variant: str) -> None:
    from shashki.learn.batch import Boards

    with pytest.raises(ValueError, match=f"{variant}'s moves do not fit"):
        Boards(4, variant=variant)


def test_pdn_writes_and_reads_the_game() -> None:
    import io

    from shashki import pdn
    from shashki.game import Game

    game = Game(variant="ugolki")
    for move in ("c3-d3", "f6-e6", "a3-e3"):  # a3 over b3 to c3, over d3 to e3
        game.push_move(move)
    text = pdn.write_game(game)
    assert '[GameType "30"]' in text and '[Variant "Ugolki"]' in text
    back = pdn.read_game(io.StringIO(text))
    assert back is not None and back.variant == "ugolki"
    assert back.end().board().fen() == game.end().board().fen()


def test_the_card_says_the_batch_api_does_not_take_it() -> None:
    assert shashki.game_info("ugolki").actions == 0
    assert shashki.game_info("turkish").actions > 0
    assert shashki.game_info("ugolki").evaluation == "corners"


WHITE_HOME_12 = "a1 b1 c1 d1 a2 b2 c2 d2 a3 b3 c3 d3"
BLACK_HOME_12 = "e6 f6 g6 h6 e7 f7 g7 h7 e8 f8 g8 h8"


def test_the_twelve_piece_race_ends_on_its_own_houses() -> None:
    # White one step from filling e6-h8 (d6 to e6), Black far from a1-d3.
    white = corner(BLACK_HOME_12.replace("e6", "d6"))
    black = corner(WHITE_HOME_12.replace("d3", "d5"))
    board = shashki.Board(f"W:W{white}:B{black}", variant="ugolki-12")
    board.push_move("d6-e6")
    assert board.outcome() is None  # Black's reply
    board.push_move("d5-d4")
    assert board.outcome() == shashki.Outcome(Termination.CORNER_FILLED, True)
    assert not list(board.legal_moves)
    assert ref.moves(*ref.from_fen(board.fen("algebraic")), ref.HOUSE_12) == []
    # The nine-piece game's houses are not the end here: a 3×3 corner filled is not enough.
    nine = shashki.Board(f"W:W{corner(BLACK_HOME)}:B{corner(WHITE_HOME)}", variant="ugolki-12")
    assert list(nine.legal_moves) and nine.outcome() is None


def test_the_engine_races_in_the_twelve_piece_game() -> None:
    from shashki.engine import Engine, Limit

    white = corner(BLACK_HOME_12.replace("e6", "d6"))
    black = corner(WHITE_HOME_12.replace("d3", "e4"))
    board = shashki.Board(f"W:W{white}:B{black}", variant="ugolki-12")
    engine = Engine(hash_mb=16)
    try:
        result = engine.play(board, Limit(depth=4))
    finally:
        engine.close()
    assert result.move == board.parse_move("d6-e6")
    card = shashki.game_info("уголки-12")
    assert card.name == "ugolki-12" and card.evaluation == "corners" and card.actions == 0
