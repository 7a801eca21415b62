"""The 8×8 family (English, Italian, Spanish, Portuguese, Czech, Pool, Thai) against two
independent oracles: shashki's pure-Python reference (written from the rules, with its own
square numbering from the PDN GameType fields) on any position hypothesis finds and along
random games, and pydraughts (English and Italian) along random games.

Positions are built in the reference's coordinates and handed to shashki as each game's own
FEN (``reference.game_fen``): a numbering the two disagree on shows as different moves.
"""

from __future__ import annotations

import random

import draughts  # pydraughts, a test dependency
import pytest
import shashki
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki import pdn, reference
from strategies import positions

FAMILY = ("english", "italian", "spanish", "portuguese", "czech", "pool", "thai")


def core_keys(board: shashki.Board) -> set[tuple]:
    return {(m.start, m.end, m.captured, m.promotes) for m in board.legal_moves}


def reference_keys(fen: str, variant: str, optional: bool = False) -> set[tuple]:
    rules = reference.rules_for(variant, optional)
    return {m.key() for m in reference.legal_moves(fen, rules)}


@settings(max_examples=settings.default.max_examples)
@given(positions(), st.sampled_from(FAMILY), st.booleans())
def test_core_and_reference_agree_on_any_position(fen: str, variant: str, optional: bool) -> None:
    game_fen = reference.game_fen(fen, variant)
    board = shashki.Board(game_fen, variant=variant, captures_optional=optional)
    assert board.fen() == game_fen
    assert core_keys(board) == reference_keys(fen, variant, optional), (variant, game_fen)


def random_game(variant: str, seed: int, plies: int = 120) -> list[shashki.Board]:
    """The positions of one game of random moves (copies, first to last)."""
    rng = random.Random(seed)
    board = shashki.Board(variant=variant)
    seen = [board.copy()]
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        seen.append(board.copy())
    return seen


@pytest.mark.parametrize("variant", FAMILY)
def test_core_and_reference_agree_along_random_games(variant: str) -> None:
    numbers = reference.game_numbers(variant)
    checked = 0
    for seed in range(6):
        for board in random_game(variant, seed):
            fen = reference.from_game_fen(board.fen(), variant)
            assert reference.game_fen(fen, variant) == board.fen()
            assert core_keys(board) == reference_keys(fen, variant), board.fen()
            checked += 1
    assert checked > 200
    assert sorted(numbers.values()) == list(range(1, 33))


def pydraughts_keys(fen: str, variant: str) -> set[tuple[int, int, frozenset[int]]]:
    board = draughts.Board(variant=variant, fen=fen)
    return {(m.steps_move[0], m.steps_move[-1], frozenset(m.captures)) for m in board.legal_moves()}


@pytest.mark.parametrize("variant", ["english", "italian"])
def test_pydraughts_agrees_along_random_games(variant: str) -> None:
    numbers = reference.game_numbers(variant)
    checked = captures = 0
    for seed in range(4):
        for board in random_game(variant, 100 + seed, plies=90):
            ours = {
                (numbers[m.start], numbers[m.end], frozenset(numbers[c] for c in m.captured))
                for m in board.legal_moves
            }
            assert ours == pydraughts_keys(board.fen(), variant), board.fen()
            checked += 1
            captures += board.has_captures()
    assert checked > 200 and captures > 20


@pytest.mark.parametrize("variant", FAMILY)
def test_each_game_ends_and_reads_back_from_pdn(variant: str) -> None:
    from shashki.game import Game

    game = Game(variant=variant)
    for board in random_game(variant, 7, plies=60)[1:]:
        game.push(board.peek())
    text = pdn.write_game(game)
    game_type = pdn.GAME_TYPE_OF[variant]
    assert f'[GameType "{game_type}"]' in text
    back = pdn.read_game(__import__("io").StringIO(text))
    assert back is not None
    assert back.variant == variant
    assert [m for m in back.mainline_moves()] == [m for m in game.mainline_moves()]


def test_a_game_type_shashki_does_not_play_is_a_clear_error() -> None:
    text = '[GameType "41"]\n\n1. a3-a4 *\n'
    with pytest.raises(pdn.PdnError, match="GameType"):
        pdn.read_game(__import__("io").StringIO(text))


@pytest.mark.parametrize("bad", ["W:Wa1:Bb8", "W:W33:B1", "W:W0:B1"])
def test_squares_the_turned_board_lacks_are_refused(bad: str) -> None:
    board = shashki.Board(variant="italian")
    before = board.fen()
    with pytest.raises(shashki.FenError):
        board.set_fen(bad)
    assert board.fen() == before


def test_aliases_and_first_sides() -> None:
    assert shashki.Board(variant="american").variant == "english"
    assert shashki.Board(variant="checkers").variant == "english"
    assert not shashki.Board(variant="english").turn  # Black moves first
    assert not shashki.Board(variant="pool").turn
    assert not shashki.Board(variant="thai").turn
    assert shashki.Board(variant="italian").turn
    assert set(shashki.VARIANTS) >= set(FAMILY)


def test_the_draw_rules_of_each_game() -> None:
    from shashki.draw import ENGLISH, ITALIAN, POOL, THREEFOLD, default_draw_rules

    assert default_draw_rules("english") is ENGLISH
    assert default_draw_rules("italian") is ITALIAN
    assert default_draw_rules("pool") is POOL
    for variant in ("spanish", "portuguese", "czech", "thai"):
        assert default_draw_rules(variant) is THREEFOLD
    # Repetition: English draws at the third occurrence, Italian at the fourth.
    from shashki.game import Game

    shuffle = ["29-25", "1-5", "25-29", "5-1"]
    for variant, times in (("english", 3), ("italian", 4)):
        game = Game("W:WK29,K30:BK1,K2", variant=variant)
        plies = 0
        while not game.is_game_over():
            game.push_move(shuffle[plies % 4])
            plies += 1
        assert plies == 4 * (times - 1), variant
        assert game.outcome().termination.name == "REPETITION"
        assert game.result() == "1/2-1/2"


def test_forty_moves_without_a_man_moved_draw_english() -> None:
    from shashki.draw import Termination
    from shashki.game import Game

    # 79 plies of king moves behind the FEN (its H field): the 80th ends the game, a man's
    # move instead starts the count again.
    game = Game("W:WK29,18:BK4,11:H79:F50", variant="english")
    assert not game.is_game_over()
    game.push_move("29-25")
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MAN_MOVE_OR_CAPTURE
    fresh = Game("W:WK29,18:BK4,11:H79:F50", variant="english")
    fresh.push_move("18-14")
    assert not fresh.is_game_over()
    # Pool counts 30 moves each; Spanish has no such rule here.
    pool = Game("W:WK29,18:BK4,11:H59:F50", variant="pool")
    pool.push_move("29-25")
    assert pool.is_game_over()
    spanish = Game("W:WK4,14:BK29,21:H200:F50", variant="spanish")
    assert not spanish.is_game_over()


def test_moves_name_their_squares_as_their_game_does() -> None:
    import copy
    import pickle

    board = shashki.Board(variant="italian")
    texts = [str(m) for m in board.legal_moves]
    assert texts == [board.move_text(m, long=True) for m in board.legal_moves]
    assert "24-20" in texts and all(m.variant == "italian" for m in board.legal_moves)
    assert "b3-a4" in [m.text(notation="algebraic") for m in board.legal_moves]
    spanish = shashki.Board(variant="spanish")
    assert {m.text("numeric") for m in spanish.legal_moves} == {
        spanish.move_text(m, notation="numeric") for m in spanish.legal_moves
    }
    move = board.legal_moves[0]
    for again in (pickle.loads(pickle.dumps(move)), copy.deepcopy(move)):
        assert again == move and str(again) == str(move) and again.variant == "italian"
    assert shashki.square_name(0, variant="italian") == "h1"
    assert shashki.square_number(0, variant="spanish") == 1  # h1
    assert shashki.parse_square("h1", variant="italian") == 0
    assert shashki.square_from_number(1, variant="thai") == 3
    with pytest.raises(ValueError, match="unknown variant"):
        shashki.square_name(0, variant="chess")


@pytest.mark.parametrize("variant", ["english", "italian"])
def test_hub_numbers_are_pydraughts_hub_numbers(variant: str) -> None:
    from shashki.protocols import hub

    pd_board = draughts.Board(variant=variant)
    for board in random_game(variant, 11, plies=80)[1:]:
        move = board.peek()
        before = board.copy()
        before.pop()
        assert hub.move_from_hub(before, hub.move_to_hub(move)) == move
        legal = {m.hub_move for m in pd_board.legal_moves()}
        assert hub.move_to_hub(move) in legal, (variant, hub.move_to_hub(move), sorted(legal))
        pd_board.push(draughts.Move(pd_board, hub_move=hub.move_to_hub(move)))
        assert hub.board_from_hub(hub.board_to_hub(board), variant=variant) == board


def test_analyse_finds_the_english_two_kings_win() -> None:
    """Two kings against one win in English draughts (short kings): the search proves it
    (Russian draughts' known ending, where a lone king holds against two, is not applied)."""
    import subprocess
    import sys

    from shashki.engine import Engine, Limit

    fen = "W:WK18,K19:BK32"
    with Engine() as engine:
        info = engine.analyse(shashki.Board(fen, variant="english"), Limit(depth=24))
    assert info["score"].relative.win is not None and info["score"].relative.win > 0
    out = subprocess.run(
        [sys.executable, "-m", "shashki", "analyse", "--variant", "english", "--depth", "24", fen],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert "score: #" in out, out  # a forced win, in moves


def test_an_english_pdn_in_its_own_numbers_reads_back_the_same() -> None:
    import io

    text = (
        '[Event "Old Fourteenth"]\n[GameType "21"]\n[Result "*"]\n\n'
        "1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13 4. 15-18 24-20 5. 11-15 28-24 *\n"
    )
    game = pdn.read_game(io.StringIO(text))
    assert game is not None and game.variant == "english"
    board = game.end().board()
    assert board.fen() == "B:W13,19,20,21,24,25,26,27,29,30,31,32:B1,2,3,5,6,7,8,9,10,12,15,18"
    again = pdn.read_game(io.StringIO(pdn.write_game(game)))
    assert again is not None
    assert again.mainline_moves() == game.mainline_moves()
    assert "1. 11-15 23-19 2. 8-11 22-17" in pdn.write_game(game)


def test_a_match_in_another_game_through_the_hub() -> None:
    """The match runner plays English draughts: shashki in-process against ``shashki hub``
    told the game by ``set-param``; every game of the PDN reads back as English."""
    import io
    import sys

    from shashki.apps.match.players import TimeControl, close_players
    from shashki.apps.match.runner import play_pair
    from shashki.openings import load_openings

    openings = load_openings("random", seed=3, variant="english")
    assert len(openings) >= 50 and all(o.startswith(("W:", "B:")) for o in openings)
    with pytest.raises(ValueError, match="Russian"):
        load_openings("ballots", variant="english")
    hub = f"hub:{sys.executable} -m shashki hub"
    try:
        points, texts = play_pair(
            "shashki", hub, openings[0], TimeControl(depth=2), None, "english"
        )
    finally:
        close_players()
    assert 0.0 <= points <= 2.0 and len(texts) == 2
    for text in texts:
        game = pdn.read_game(io.StringIO(text))
        assert game is not None and game.variant == "english"
        assert len(game.mainline_moves()) > 0


@pytest.mark.parametrize("variant", FAMILY)
def test_every_move_text_parses_back_in_its_game(variant: str) -> None:
    for board in random_game(variant, 21, plies=70):
        for move in board.legal_moves:
            for text in (
                str(move),
                move.text("numeric"),
                board.move_text(move),
                board.move_text(move, notation="numeric"),
                board.move_text(move, notation="numeric", long=True),
            ):
                assert board.parse_move(text) == move, (variant, board.fen(), text)
