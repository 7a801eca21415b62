"""Game management and the draw rules, each article tested at its boundary."""

from __future__ import annotations

import io
import itertools
import pickle

import pytest
import shashki
from hypothesis import given
from hypothesis import strategies as st
from shashki import pdn
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
from shashki.game import Game, GameOverError, Outcome, ReadOnlyBoardError
from strategies import positions


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


# ---- moved here from the reliability and parity suites (by concept) ----


def test_game_tree_editing() -> None:
    game = Game()
    start = shashki.Board()
    c3d4, a3b4 = start.parse_move("c3-d4"), start.parse_move("a3-b4")
    game.push(c3d4)
    alternative = game.root().add_variation(a3b4, comment="quieter")
    assert [n.move for n in game.root().variations] == [c3d4, a3b4]
    assert alternative.parent is game.root() and not alternative.is_mainline()
    reply = alternative.add_variation(alternative.board().parse_move("b6-a5"))
    assert reply.board().move_stack == [a3b4, reply.move] and reply.ply() == 2
    assert alternative.end() is reply and alternative.next() is reply
    game.root().promote_to_main(a3b4)
    assert game.mainline_moves() == [a3b4, reply.move]
    assert game.end().board().move_stack == [a3b4, reply.move]
    game.root().demote(a3b4)
    assert game.mainline_moves() == [c3d4]
    game.root().remove_variation(a3b4)
    assert [n.move for n in game.root().variations] == [c3d4]
    main = game.root().add_main_variation(a3b4)
    assert game.next() is main and game.end() is main and game.end().board().peek() == a3b4
    assert [n.move for n in game.mainline()] == [a3b4]


def test_game_tree_round_trips_through_pdn() -> None:
    game = Game()
    game.push_move("c3-d4")
    game.push_move("f6-e5")
    side = (
        game.root()
        .variations[0]
        .add_variation(shashki.Board("B:W18,21,23-32:B1-12").parse_move("b6-a5"), comment="sharp")
    )
    side.starting_comment = "or"
    side.add_variation(side.board().parse_move("d4-c5"))
    game.nodes[1].nags.append(1)
    text = pdn.write_game(game)
    assert "{or}" in text and "{sharp}" in text and "(" in text
    again = pdn.read_game(io.StringIO(text))
    assert again is not None and not again.errors
    assert again.mainline_moves() == game.mainline_moves()
    (main, alternative) = again.nodes[0].variations
    assert alternative.starting_comment == "or" and alternative.comment == "sharp"
    assert alternative.mainline_moves() == side.mainline_moves()
    assert again.nodes[1].nags == [1]


def test_no_move_after_the_end_until_pop() -> None:
    game = Game()
    game.push_move("c3-d4")
    game.resign(shashki.BLACK)
    assert game.result() == "1-0" and game.headers["Result"] == "1-0"
    with pytest.raises(GameOverError, match="1-0"):
        game.push_move("f6-g5")
    with pytest.raises(GameOverError):
        game.agree_draw()
    with pytest.raises(GameOverError):
        game.resign(shashki.WHITE)
    game.pop()
    assert game.result() == "*"
    game.push_move("c3-d4")
    game.agree_draw()
    assert game.headers["Result"] == "1/2-1/2"


def test_a_rules_draw_ends_the_game() -> None:
    game = Game("W:WK30:BK3")
    for text in ["c1-d2", "f8-e7", "d2-c1", "e7-f8", "c1-d2", "f8-e7", "d2-c1", "e7-f8"]:
        game.push_move(text)
    assert game.is_game_over() and game.headers["Result"] == "1/2-1/2"
    with pytest.raises(GameOverError):
        game.push_move("c1-d2")
    game.pop()
    game.push_move("e7-d8")


def test_recorded_results_are_the_result() -> None:
    game = Game()
    game.push_move("c3-d4")
    game.headers["Result"] = "0-1"  # a loss on time, say
    assert game.result() == "0-1" and game.outcome().termination is Termination.RECORDED
    with pytest.raises(ValueError, match="1-0, 0-1"):
        game.headers["Result"] = "2-0x"
    game.headers["Result"] = "*"
    assert game.result() == "*" and game.headers["Result"] == "*"


@given(positions(), st.randoms(use_true_random=False))
def test_result_header_always_equals_result(fen: str, rng) -> None:
    game = Game(fen)
    for _ in range(rng.randint(0, 40)):
        assert game.headers["Result"] == game.result()
        if game.is_game_over():
            break
        game.push(rng.choice(list(game.end().board().legal_moves)))
    assert game.headers["Result"] == game.result()
    assert dict(game.headers)["Result"] == game.result()


def test_the_game_is_the_root_of_its_tree_and_board_is_a_method() -> None:
    game = Game()
    node = game.push_move("c3-d4")
    assert game.root() is game and node.root() is game and node.game() is game
    assert isinstance(game, shashki.game.GameNode)
    assert game.board().fen() == shashki.STARTING_FEN  # the first position (python-chess)
    current = game.end().board()
    assert type(current) is shashki.Board and current.move_stack == [node.move]
    current.push_move("f6-g5")  # a new board: the game is unchanged
    assert game.mainline_moves() == [node.move]
    assert game.variation(node) is node and game.variation(node.move) is node
    assert pickle.loads(pickle.dumps(game.end().board())) == game.end().board()
    assert not hasattr(shashki.game, "GameBoard") and not hasattr(shashki.game, "Node")


def test_game_board_as_an_attribute_is_deprecated_and_read_only() -> None:
    game = Game()
    game.push_move("c3-d4")
    with pytest.warns(DeprecationWarning, match=r"game.end\(\).board\(\)"):
        assert game.board.fen() == game.end().board().fen()
    for change in (
        lambda b: b.push(b.legal_moves[0]),
        lambda b: b.pop(),
        lambda b: b.push_move("f6-g5"),
        lambda b: b.set_fen("W:W21:B1"),
        lambda b: b.clear(),
        lambda b: b.set_piece_at(0, None),
    ):
        with pytest.warns(DeprecationWarning), pytest.raises(ReadOnlyBoardError):
            change(game.board)
    assert len(game.mainline_moves()) == 1
