"""One card per game: every layer reads a game's facts from its card (``shashki.games()``,
the core's registry), and the drift between layers is gone, each fix with a test that failed
before: Canadian draughts' draw rules, the Hub's names, a Black-first game over the Hub."""

from __future__ import annotations

import argparse
import io
import random
import sys

import pytest
import shashki
from hub_process import play_pydraughts_game, pydraughts_hub_script
from shashki import _core, draw, pdn
from shashki.game import Game
from shashki.learn import batch
from shashki.protocols import hub

CARDS = shashki.games()


def test_every_game_has_one_card_and_the_package_reads_it() -> None:
    assert [card.name for card in CARDS] == list(shashki.VARIANTS)
    assert len({card.name for card in CARDS}) == len(CARDS) == 24
    for card in CARDS:
        board = shashki.Board(variant=card.name)
        assert board.turn == card.white_first
        assert shashki.BOARD_SIZES[card.name] == card.board_size
        assert shashki.SQUARE_COUNTS[card.name] == card.square_count
        assert batch.action_count(card.name) == card.actions
        for name in card.names:  # every alias, in any case, names the same game
            assert shashki.game_info(name.upper()) is card
            assert shashki.Board(variant=name.upper()).variant == card.name
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        shashki.game_info("chess")
    card = shashki.game_info("russian")
    with pytest.raises(AttributeError):
        card.name = "x"  # type: ignore[misc]


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_the_draw_rules_of_every_layer_are_the_cards(card: shashki.GameInfo) -> None:
    """Python's default draw rules, the core's built-in set the card names (what the Rust
    board and the batch playouts apply: DrawRules::for_variant reads the same card) and the
    rules a Game and the engine use are one set."""
    rules = draw.default_draw_rules(card.name)
    assert rules._core == _core.DrawRules.builtin(card.draw_rules)
    assert Game(variant=card.name).draw_rules is rules


def test_canadian_draughts_ends_by_internationals_draw_rules_in_every_layer() -> None:
    """Before: Python gave Canadian the Russian set (FMJD-64, the fallback for a name its
    table lacked) while the Rust board applied International's."""
    assert draw.default_draw_rules("canadian") is draw.INTERNATIONAL
    # Three kings against one, the stronger side to move: FMJD-64 (7.2.4) ends it after
    # 15 of its moves (ply 29), International's rule (6.3) after 16 (ply 31).
    game = Game("W:WK50,K51,K52:BK1", variant="canadian")
    rng = random.Random(3)
    while game.outcome() is None and game.end().board().ply() < 40:
        board = game.end().board()
        safe = []  # quiet moves after which no capture is possible: the material stays
        for move in board.legal_moves:
            board.push(move)
            if not move.captured and not board.has_captures():
                safe.append(move)
            board.pop()
        game.push(rng.choice(safe))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None
    assert "16 moves" in outcome.termination.value
    assert game.end().board().ply() == 31


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_pdn_game_types_are_the_cards(card: shashki.GameInfo) -> None:
    game = Game(variant=card.name)
    game.push(game.end().board().legal_moves[0])
    text = pdn.write_game(game)
    assert f'[GameType "{card.pdn_game_type}' in text
    again = pdn.read_game(io.StringIO(text))
    assert again is not None and again.end().board().fen() == game.end().board().fen()
    assert again.board().variant == card.name
    if card.lidraughts_type is not None:
        tagless = text.replace(
            f'[GameType "{card.pdn_game_type}', f'[GameType "{card.lidraughts_type}'
        )
        read = pdn.read_game(io.StringIO(tagless))
        assert read is not None and read.board().variant == card.name


def test_the_command_line_offers_every_card() -> None:
    from shashki.apps import cli

    parser = cli._parser()
    choices: set[str] = set()
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        for sub in action.choices.values():
            for option in sub._actions:
                if "--variant" in option.option_strings:
                    assert isinstance(option, argparse.Action)
                    choices |= set(option.choices or ())
    assert {card.name for card in CARDS} <= choices


# ---- the Hub: every game, Scan's names, Black-first games -------------------------------------


def test_the_hub_lists_and_plays_every_game() -> None:
    out = io.StringIO()
    lines = ["hub"]
    for card in CARDS:
        lines += [f"set-param name=variant value={card.name}", "pos start", "ping"]
    server = hub.HubServer(io.StringIO("\n".join(lines) + "\n"), out)
    boards = []
    original = server.handle

    def handle(command: str, args: dict[str, str]) -> None:
        original(command, args)
        if command == "pos":
            boards.append(server.board.variant)

    server.handle = handle  # type: ignore[method-assign]
    server.run()
    text = out.getvalue()
    assert "error" not in text
    values = next(line for line in text.splitlines() if "name=variant" in line)
    for card in CARDS:
        assert f" {card.name}" in values or f'"{card.name}' in values
    assert boards == [card.name for card in CARDS]  # Canadian included


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_hub_move_numbers_are_the_cards(card: shashki.GameInfo) -> None:
    board = shashki.Board(variant=card.name)
    for square in range(card.square_count):
        number = hub.hub_square(square, card.name)
        expected = (
            square + 1
            if card.hub_index_numbers
            else shashki.square_number(square, variant=card.name)
        )
        assert number == expected and hub.square_from_hub(number, card.name) == square
    assert hub.board_from_hub(hub.board_to_hub(board), card.name) == board


def test_scans_names_mean_scans_games() -> None:
    """Before: ``normal`` then ``pos start`` played Russian draughts."""
    server = hub.HubServer(io.StringIO(), io.StringIO())
    for name, variant in [
        ("normal", "international"),
        ("losing", "antidraughts"),
        ("killer", "killer"),
        ("bt", "breakthrough"),
        ("frisian", "frisian"),
    ]:
        server.set_param("variant", name)
        server.handle("pos", {"start": ""})
        assert server.board.variant == variant, name
        assert len(server.board.legal_moves) == 9


def test_pydraughts_hub_engine_plays_english_draughts_from_the_start(tmp_path) -> None:
    """English draughts, whose first side is Black, driven by pydraughts' HubEngine from the
    start to the end of the game (before: the engine answered with a White move at the first
    ply and pydraughts refused it)."""
    from draughts.engine import HubEngine

    engine = HubEngine([pydraughts_hub_script(tmp_path)])
    try:
        engine.configure({"variant": "english"})
        engine.init()
        for game in range(2):
            pd_board, board, plies = play_pydraughts_game(
                engine, "english", "english", game, 300, 0.01
            )
            assert plies >= 20
            assert pd_board.is_over() == board.is_game_over() or plies == 300  # type: ignore[attr-defined]
    finally:
        engine.quit()
        engine.kill_process()


@pytest.mark.parametrize("variant", ["pool", "thai", "english"])
def test_black_first_games_over_the_hub_with_our_client(variant: str) -> None:
    from shashki.engine import Limit
    from shashki.protocols.hub_client import HubEngine

    command = [sys.executable, "-m", "shashki", "hub"]
    with HubEngine.popen(command, options={"hash": 8, "variant": variant}) as engine:
        board = shashki.Board(variant=variant)
        rng = random.Random(1)
        while not board.is_game_over() and board.ply() < 200:
            if board.ply() % 2 == 0:
                move = engine.play(board, Limit(depth=3)).move
                assert move in board.legal_moves
            else:
                move = rng.choice(list(board.legal_moves))
            board.push(move)
        assert board.ply() >= 20


def test_help_texts_and_descriptions_name_the_games_from_the_cards() -> None:
    import re
    from pathlib import Path

    from shashki.apps import cli

    parser = cli._parser()
    text = parser.format_help()
    assert all(card.display_name in " ".join(text.split()) for card in CARDS)
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        for name, sub in action.choices.items():
            for option in sub._actions:
                if "--variant" in option.option_strings:
                    assert all(card.name in (option.help or "") for card in CARDS), name
    pyproject = (Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    description = re.search(r'^description = "(.*)"$', pyproject, re.M)
    assert description is not None
    assert f"{len(CARDS)} games" in description.group(1)
    from shashki.learn.rl import DraughtsEnv

    assert all(f"{card.actions:,}" in (DraughtsEnv.__doc__ or "") for card in CARDS)
