"""Game management and the draw rules, each article tested at its boundary."""

from __future__ import annotations

import itertools

import pytest
import shashki
from shashki.draw import (
    FMJD64,
    FORTY_MOVES,
    HISTORICAL,
    NO_DRAWS,
    DrawRules,
    KingsOnly,
    MainRoad,
    SmallEnding,
    Termination,
    ThreeKingsVsKing,
    UnchangedBalance,
)
from shashki.game import Game, Outcome


def shuffle(game: Game, white: tuple[str, str], black: tuple[str, str], plies: int) -> None:
    """Play ``plies`` plies, each side moving back and forth between its two squares."""
    cycle = itertools.cycle(
        [
            f"{white[0]}-{white[1]}",
            f"{black[0]}-{black[1]}",
            f"{white[1]}-{white[0]}",
            f"{black[1]}-{black[0]}",
        ]
    )
    for _ in range(plies):
        game.push_move(next(cycle))


def test_no_legal_moves_loses() -> None:
    game = Game("W:Wa1:Bb2,c3")
    assert game.outcome() == Outcome(Termination.NO_MOVES, shashki.BLACK)
    assert game.result() == "0-1" and game.is_game_over()
    assert Game("B:W21:B").result() == "1-0"


def test_game_names() -> None:
    game = shashki.Game()
    assert game.end().board().fen() == shashki.STARTING_FEN
    move = game.push_move("c3-d4").move
    assert game.mainline_moves() == [move]
    assert game.pop() == move and game.mainline_moves() == []
    assert game.result() == "*" and game.outcome() is None
    assert game.headers["GameType"] == "25"


def test_resignation_and_agreement() -> None:
    game = Game()
    game.resign(shashki.WHITE)
    assert game.result() == "0-1" and game.outcome().termination == Termination.RESIGNATION
    game = Game()
    game.agree_draw()
    assert game.result() == "1/2-1/2"


def test_7_2_3_threefold_repetition() -> None:
    game = Game("W:WK30:BK3")  # c1 against f8; the small ending counts too (5 moves)
    shuffle(game, ("c1", "b2"), ("f8", "e7"), 7)
    assert game.outcome() is None
    counters = {c.termination: c for c in game.draw_counters()}
    assert counters[Termination.REPETITION].done == 2
    shuffle_next = "e7-f8"
    game.push_move(shuffle_next)  # the start position for the third time
    assert game.outcome() == Outcome(Termination.REPETITION, None)
    game.pop()
    assert game.outcome() is None


def test_7_2_4_three_kings_against_a_king() -> None:
    game = Game("W:WK30,K31,K32:BK3", draw_rules=DrawRules([ThreeKingsVsKing()]))
    shuffle(game, ("c1", "b2"), ("f8", "e7"), 28)  # White has made 14 moves
    assert game.outcome() is None
    (counter,) = game.draw_counters()
    assert (counter.done, counter.limit, counter.remaining) == (14, 15, 1)
    game.push_move("c1-b2")  # White's 15th move
    assert game.outcome() == Outcome(Termination.THREE_KINGS_VS_KING, None)


def test_7_2_4_needs_three_kings() -> None:
    game = Game("W:WK30,K31:BK3", draw_rules=DrawRules([ThreeKingsVsKing()]))
    shuffle(game, ("c1", "b2"), ("f8", "e7"), 40)
    assert game.outcome() is None and game.draw_counters() == []


def test_7_2_5_only_kings_moved() -> None:
    game = Game("W:WK30,28:BK3,12", draw_rules=DrawRules([KingsOnly()]))
    shuffle(game, ("c1", "d2"), ("f8", "e7"), 29)
    assert game.outcome() is None
    game.push_move("f8-e7")  # the 30th ply: 15 moves of each side
    assert game.outcome() == Outcome(Termination.KINGS_ONLY, None)


def test_7_2_5_a_man_move_resets() -> None:
    game = Game("W:WK30,28:BK3,12", draw_rules=DrawRules([KingsOnly()]))
    shuffle(game, ("c1", "d2"), ("f8", "e7"), 20)
    game.push_move("h2-g3")  # a man moves: the count starts again
    assert game.draw_counters() == []
    game.push_move("f8-e7")
    shuffle(game, ("c1", "d2"), ("e7", "f8"), 28)
    assert game.outcome() is None
    assert game.draw_counters()[0].done == 29
    game.push_move("c1-d2")  # the 30th king ply since the man moved
    assert game.outcome() == Outcome(Termination.KINGS_ONLY, None)


def test_7_2_6_balance_unchanged_four_pieces() -> None:
    game = Game("W:WK30,28:BK3,5", draw_rules=DrawRules([UnchangedBalance()]))
    shuffle(game, ("c1", "d2"), ("f8", "e7"), 59)
    assert game.outcome() is None
    (counter,) = game.draw_counters()
    assert (counter.done, counter.limit) == (59, 60)
    game.push_move("e7-f8")
    assert game.outcome() == Outcome(Termination.UNCHANGED_BALANCE, None)


def test_7_2_6_balance_unchanged_six_pieces() -> None:
    game = Game("W:WK30,28,21:BK3,5,12", draw_rules=DrawRules([UnchangedBalance()]))
    shuffle(game, ("c1", "d2"), ("f8", "e7"), 119)
    assert game.outcome() is None
    game.push_move("e7-f8")
    assert game.outcome() == Outcome(Termination.UNCHANGED_BALANCE, None)


def test_7_2_6_needs_kings_on_both_sides() -> None:
    game = Game("W:WK30,28:B3,5", draw_rules=DrawRules([UnchangedBalance()]))
    assert game.draw_counters() == []


def test_7_2_7_lone_king_on_the_main_road() -> None:
    game = Game("W:WK30,K31,K32:BK4", draw_rules=DrawRules([MainRoad()]))
    shuffle(game, ("c1", "d2"), ("h8", "g7"), 8)  # White has made 4 moves
    assert game.outcome() is None
    game.push_move("c1-d2")  # the 5th
    assert game.outcome() == Outcome(Termination.MAIN_ROAD, None)


def test_7_2_7_counts_only_while_the_king_holds_the_main_road() -> None:
    game = Game("W:WK30,K31,K32:BK4", draw_rules=DrawRules([MainRoad()]))
    for text in ["c1-d2", "h8-g7", "d2-c1", "g7-f8"]:  # the lone king leaves the road
        game.push_move(text)
    assert game.draw_counters() == []
    for text in ["c1-d2", "f8-g7"]:  # and comes back: a new count
        game.push_move(text)
    assert game.draw_counters()[0].done == 0
    shuffle(game, ("d2", "c1"), ("g7", "h8"), 8)
    assert game.outcome() is None
    game.push_move("d2-c1")
    assert game.outcome() == Outcome(Termination.MAIN_ROAD, None)


def test_7_2_8_small_ending() -> None:
    game = Game("W:WK30,K31:BK3", draw_rules=DrawRules([SmallEnding()]))
    shuffle(game, ("c1", "b2"), ("f8", "e7"), 8)
    assert game.outcome() is None
    game.push_move("c1-b2")
    assert game.outcome() == Outcome(Termination.SMALL_ENDING, None)


def test_7_2_8_king_against_king_counts_the_side_to_move() -> None:
    game = Game("B:WK30:BK3", draw_rules=DrawRules([SmallEnding()]))
    shuffle(game, ("f8", "e7"), ("c1", "b2"), 8)
    assert game.outcome() is None
    game.push_move("f8-e7")  # Black, to move when the ending arose, makes its 5th move
    assert game.outcome() == Outcome(Termination.SMALL_ENDING, None)


def test_fmjd64_is_the_default_and_applies_in_order() -> None:
    game = Game("W:WK30,K31:BK3")
    assert game.draw_rules is FMJD64
    shuffle(game, ("c1", "d2"), ("f8", "e7"), 8)
    # Positions repeat too: the third occurrence comes at ply 8, before the small ending.
    assert game.outcome() == Outcome(Termination.REPETITION, None)


def test_forty_move_rule() -> None:
    game = Game("W:WK30:BK3", draw_rules=FORTY_MOVES)
    shuffle(game, ("c1", "b2"), ("f8", "e7"), 79)
    assert game.outcome() is None
    game.push_move("e7-f8")
    assert game.outcome() == Outcome(Termination.FORTY_MOVES, None)


def test_forty_move_rule_resets_on_capture() -> None:
    game = Game("W:WK30,23:BK3,14", draw_rules=FORTY_MOVES)  # e3 and c5
    game.push_move("c1-b2")
    game.push_move("c5-d4")
    game.push_move("e3:c5")
    assert game.draw_counters()[0].done == 0


def test_historical_code() -> None:
    game = Game("W:WK30,K31,K32:BK3", draw_rules=HISTORICAL)
    shuffle(game, ("c1", "b2"), ("f8", "e7"), 8)
    # Repetition is only claimable in the historical code.
    assert game.outcome() is None
    assert game.outcome(claim_draw=True) == Outcome(Termination.REPETITION, None)
    shuffle(game, ("c1", "b2"), ("f8", "e7"), 21)
    assert game.outcome() == Outcome(Termination.HISTORICAL_THREE_KINGS, None)


def test_no_draw_rules() -> None:
    game = Game("W:WK30:BK3", draw_rules=NO_DRAWS)
    shuffle(game, ("c1", "b2"), ("f8", "e7"), 100)
    assert game.outcome() is None and game.draw_counters() == []


def test_pop_reopens_an_ended_game() -> None:
    game = Game("W:WK30,K31:BK3", draw_rules=DrawRules([SmallEnding()]))
    shuffle(game, ("c1", "b2"), ("f8", "e7"), 9)
    assert game.is_game_over()
    game.pop()
    assert not game.is_game_over()


def test_illegal_move_leaves_game_unchanged() -> None:
    game = Game()
    with pytest.raises(shashki.IllegalMoveError):
        game.push_move("c3-e5")
    with pytest.raises(shashki.InvalidMoveError):
        game.push_move("nonsense")
    assert game.mainline_moves() == [] and game.end().board().fen() == shashki.STARTING_FEN


def test_board_svg() -> None:
    board = shashki.Board()
    board.push_move("c3-d4")
    svg = board._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") == 24 and "polyline" in svg


def test_the_repetition_terminations_are_one_with_the_article_in_the_counter() -> None:

    for old in ("THREEFOLD_REPETITION", "BRAZILIAN_REPETITION", "HISTORICAL_REPETITION"):
        with pytest.warns(DeprecationWarning, match="REPETITION"):
            assert getattr(Termination, old) is Termination.REPETITION
    game = Game("W:WK1:BK28", variant="brazilian")
    for text in ["b8-a7", "h2-g1", "a7-b8", "g1-h2"] * 2:
        game.push_move(text)
    assert game.outcome() == Outcome(Termination.REPETITION, None)
    (counter,) = [c for c in game.draw_counters() if c.termination is Termination.REPETITION]
    assert counter.article == "FMJD international rules 6.2" and counter.done == 3


def test_dir_shashki_shows_the_public_names_only() -> None:
    names = dir(shashki)
    assert "Board" in names and "WHITE" in names
    for private in ("TYPE_CHECKING", "annotations", "_LAZY", "_LAZY_NAMES"):
        assert private not in names
    assert shashki.Outcome is Outcome
