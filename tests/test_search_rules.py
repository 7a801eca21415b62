"""The search knows the draw rules of the game it plays."""

from __future__ import annotations

import shashki
from shashki import draw
from shashki.engine import Engine, Limit
from walks import quiet_walk


def three_kings_game(rules: draw.DrawRules) -> shashki.Game:
    game = shashki.Game("W:WKc1,Ke1,Kg1:BKh2", draw_rules=rules)
    quiet_walk(game, 27)
    assert game.outcome() is None
    return game


def test_a_win_the_rules_will_call_a_draw_scores_a_draw() -> None:
    # 27 plies of kings only (7.2.5 draws at 30) and White's 14th move of 15 (7.2.4): the
    # win needs more plies than the rules leave.
    game = three_kings_game(draw.FMJD64)
    counters = {c.termination: c for c in game.draw_counters()}
    assert counters[draw.Termination.KINGS_ONLY].done == 27
    info = Engine(hash_mb=8).analyse(game, Limit(depth=10))
    assert info["score"].white().cp == 0
    free = three_kings_game(draw.NO_DRAWS)
    info = Engine(hash_mb=8).analyse(free, Limit(depth=10))
    assert info["score"].white().is_win() and info["score"].white().win > 0


def test_a_board_gets_its_variants_rules_and_clocks_from_its_stack() -> None:
    game = three_kings_game(draw.FMJD64)
    board = game.end().board().copy()
    assert len(board.move_stack) == 27 and board.halfmove_clock == 27
    counters = {c.termination: c for c in board.draw_counters()}
    assert counters[draw.Termination.THREE_KINGS_VS_KING].done == 14
    assert Engine(hash_mb=8).analyse(board, Limit(depth=10))["score"].white().cp == 0
    fresh = shashki.Board("W:Wc3,e3:Bf6", variant="brazilian")
    fresh.push_move("c3-d4")
    assert fresh.halfmove_clock == 0 and fresh.draw_counters() == []


def test_the_fen_halfmove_clock_counts_for_kings_only() -> None:
    board = shashki.Board("W:WKc1,Ke1,Kg1:BKh2:H25:F40")
    assert board.halfmove_clock == 25
    counters = {c.termination: c for c in board.draw_counters()}
    assert counters[draw.Termination.KINGS_ONLY].done == 25
    assert counters[draw.Termination.THREE_KINGS_VS_KING].done == 0
    info = Engine(hash_mb=8).analyse(board, Limit(depth=8))
    assert info["score"].white().cp == 0  # 5 plies left: no win that fast
    fresh = Engine(hash_mb=8).analyse(shashki.Board("W:WKc1,Ke1,Kg1:BKh2"), Limit(depth=8))
    assert fresh["score"].white().is_win() or fresh["score"].white().cp > 500
