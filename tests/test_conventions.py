"""Each community's conventions and a newcomer's habits (the notation its players write,
python-chess's ``Game.from_board`` and ``read_headers``, commands whose output composes)."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
import shashki
from shashki import pdn

NUMERIC = [card.name for card in shashki.games() if card.notation == "numeric"]
ALGEBRAIC = [card.name for card in shashki.games() if card.notation == "algebraic"]


def test_the_cards_say_which_games_write_numbers() -> None:
    assert {"international", "english", "italian", "canadian", "frisian", "pool"} <= set(NUMERIC)
    assert {"russian", "brazilian", "czech", "turkish"} <= set(ALGEBRAIC)


@pytest.mark.parametrize("variant", [card.name for card in shashki.games()])
def test_a_move_is_written_as_its_games_players_write_it(variant: str) -> None:
    board = shashki.Board(variant=variant)
    notation = shashki.game_info(variant).notation
    other = "algebraic" if notation == "numeric" else "numeric"
    for move in board.legal_moves:
        assert str(move) == move.text() == move.text(notation=notation)
        assert repr(move) == f"<Move {move.text(notation=notation)}>"
        assert board.move_text(move) == board.move_text(move, notation=notation)
        assert str(move)[0].isdigit() == (notation == "numeric")
        # Either notation reads back.
        assert board.parse_move(str(move)) == move
        assert board.parse_move(move.text(notation=other)) == move


def test_international_and_english_moves_are_numbers() -> None:
    board = shashki.Board(variant="international")
    assert "32-28" in [str(m) for m in board.legal_moves]
    board.push_move("32-28")
    board.push_move("19-23")
    (capture,) = board.legal_moves
    assert str(capture) == "28x19" and capture.text(notation="algebraic") == "e5:g7"
    english = shashki.Board(variant="english")
    assert [str(m) for m in english.legal_moves][0] == "9-13"
    assert str(shashki.Board().legal_moves[0]) == "a3-b4"  # Russian draughts unchanged


def test_game_from_board_as_in_python_chess() -> None:
    board = shashki.Board("W:W21,22,23:B9,10,11", variant="english")
    for _ in range(3):
        board.push(board.legal_moves[0])
    game = shashki.Game.from_board(board)
    assert game.variant == "english"
    assert list(game.mainline_moves()) == board.move_stack
    assert game.headers["FEN"] == board.root().fen()
    assert game.end().board().fen() == board.fen()
    start = shashki.Game.from_board(shashki.Board())
    assert "FEN" not in start.headers and not list(start.mainline_moves())
    with pytest.raises(TypeError, match="Game.from_board"):
        shashki.Game(board)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a Board"):
        shashki.Game.from_board("W:W21:B1")  # type: ignore[arg-type]


def test_read_headers_skips_the_moves_and_reads_game_after_game() -> None:
    text = (
        '[Event "first"]\n[White "A"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
        '[Event "second"]\n\n1. c3-d4 (1. c3-b4 {a {comment}) f6-e5 *\n'
    )
    handle = io.StringIO(text)
    first = pdn.read_headers(handle)
    second = pdn.read_headers(handle)
    assert first is not None and second is not None
    assert (first["Event"], first["White"], first["GameType"]) == ("first", "A", "20")
    assert second["Event"] == "second"
    assert pdn.read_headers(handle) is None
    with pytest.raises(TypeError, match="read_headers reads from a text handle"):
        pdn.read_headers(text)  # type: ignore[arg-type]


def test_read_game_takes_the_game_of_a_file_without_a_game_type() -> None:
    moves = "1. 32-28 19-23 2. 28x19 14x23 *"
    game = pdn.read_game(io.StringIO(moves), variant="International")
    assert game is not None and game.variant == "international"
    assert [str(m) for m in game.mainline_moves()] == ["32-28", "19-23", "28x19", "14x23"]
    with pytest.raises(pdn.PdnError):
        pdn.read_game(io.StringIO(moves))  # PDN's default: Russian draughts
    tagged = pdn.read_game(io.StringIO('[GameType "25"]\n\n1. c3-d4 *'), variant="international")
    assert tagged is not None and tagged.variant == "russian"  # the file's tag decides
    giveaway = pdn.read_game(io.StringIO("1. c3-d4 f6-e5 *"), variant="giveaway")
    assert giveaway is not None and giveaway.variant == "giveaway"
    with pytest.raises(ValueError, match="unknown"):
        pdn.read_game(io.StringIO(moves), variant="chess")


def test_selfplay_writes_a_pdn_that_reads_back_and_progress_elsewhere() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "shashki",
            "selfplay",
            "--time",
            "0.01",
            "--max-plies",
            "6",
            "--variant",
            "international",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    game = pdn.read_game(io.StringIO(run.stdout))
    assert game is not None and game.variant == "international"
    assert len(list(game.mainline_moves())) == 6
    assert game.result() == "*"  # cut, not a draw by agreement
    assert "max-plies 6" in game.headers["Termination"]
    assert "1." in run.stderr and "result *" in run.stderr  # the progress, on stderr


def test_every_game_is_a_gymnasium_environment() -> None:
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env
    from shashki.learn.rl import env_name

    ids = {f"shashki/{env_name(card.name)}-v0" for card in shashki.games()}
    assert ids <= set(gym.registry)
    env = gym.make("shashki/English-v0")
    observation, info = env.reset(seed=3)
    assert env.unwrapped.variant == "english"  # type: ignore[attr-defined]
    assert observation.shape == (6, 8, 8) and info["action_mask"].shape == (896,)
    check_env(gym.make("shashki/International-v0").unwrapped, skip_render_check=True)


def test_make_imports_the_environments_by_module_name() -> None:
    code = (
        "import gymnasium as gym; env = gym.make('shashki.learn.rl:shashki/Canadian-v0'); "
        "print(env.reset(seed=1)[0].shape)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "(6, 12, 12)"


def test_a_step_before_reset_or_out_of_range_raises() -> None:
    import gymnasium
    from shashki.learn.rl import DraughtsEnv

    env = DraughtsEnv(variant="international")
    with pytest.raises(gymnasium.error.ResetNeeded, match="reset"):
        env.step(0)
    env.reset(seed=1)
    for action in (10**9, -1, 1800):
        with pytest.raises(ValueError, match="out of range: the actions are 0 to 1799"):
            env.step(action)
    # An action in range that the mask refuses is still the agent's loss, as documented.
    mask = env.reset(seed=1)[1]["action_mask"]
    refused = int((~mask).nonzero()[0][0])
    _, reward, terminated, _, _ = env.step(refused)
    assert (reward, terminated) == (-1.0, True)


def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shashki", *args], capture_output=True, text=True, timeout=timeout
    )


def test_the_command_line_takes_game_names_in_any_case_as_python_does() -> None:
    for name in ("International", "INTERNATIONAL", "10x10", "Checkers"):
        run = _cli("perft", "2", "--variant", name)
        assert run.returncode == 0, run.stderr
    assert "perft 2: 81" in _cli("perft", "2", "--variant", "International").stdout
    refused = _cli("perft", "2", "--variant", "chess")
    assert refused.returncode == 2 and "invalid choice: 'chess'" in refused.stderr


def test_a_fen_of_another_board_says_which_games_it_fits() -> None:
    with pytest.raises(shashki.FenError, match=r'it fits the 10×10 board: variant "international"'):
        shashki.Board("W:W31-50:B1-20")
    with pytest.raises(shashki.FenError, match=r'12×12 board: variant "canadian"\?$'):
        shashki.Board("W:W61-72:B1-12", variant="international")
    with pytest.raises(shashki.FenError) as bad:
        shashki.Board("W:Wzz:B")  # fits no board: no hint
    assert "fits" not in str(bad.value)
    run = _cli("moves", "W:W31-50:B1-20")
    assert run.returncode == 2 and "--variant international" in run.stderr


def test_serve_binds_before_it_announces(tmp_path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = _cli("serve", "--port", str(port))
    assert run.returncode == 1
    assert run.stdout == ""  # nothing announced
    assert f"cannot listen on 127.0.0.1:{port}" in run.stderr


def test_every_subcommands_help_says_what_it_takes() -> None:
    probe = _cli("egtb", "probe", "--help").stdout
    assert "(required)" in probe and "left out" not in probe
    moves = _cli("moves", "--help").stdout
    assert "the start position when left out" in " ".join(moves.split())
    assert _cli("egtb", "probe").returncode == 2  # the FEN is required


def test_match_is_a_subcommand_and_says_a_bad_player_in_one_line() -> None:
    run = _cli(
        "match",
        "--b",
        "shashki:eval=classic",
        "--pairs",
        "1",
        "--nodes",
        "60",
        "--workers",
        "1",
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "games 2:" in run.stdout and "Elo (A - B)" in run.stdout
    bad = _cli("match", "--b", "random", "--nodes", "60")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "--b: unknown player 'random'" in bad.stderr
    option = _cli("match", "--b", "shashki:evaluation=classic", "--nodes", "60")
    assert option.returncode == 2 and "unknown shashki player option 'evaluation'" in option.stderr
    assert "usage: shashki match" in _cli("match", "--help").stdout
    assert "match" in _cli("--help").stdout


def test_play_in_the_terminal_echoes_the_games_notation() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "shashki",
            "play",
            "--variant",
            "international",
            "--two-players",
            "--ascii",
        ],
        input="32-28\n19-23\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert "last move: 32-28" in run.stdout and "last move: 19-23" in run.stdout
    assert "d4-e5" not in run.stdout


def test_analyse_writes_the_line_in_the_games_notation() -> None:
    run = _cli("analyse", "--variant", "international", "--depth", "3")
    best = [line for line in run.stdout.splitlines() if line.startswith("best line: ")][0]
    assert best[len("best line: ") :].split()[0].split("-")[0].isdigit()


def test_an_engine_that_cannot_be_reached_is_not_an_output_error() -> None:
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    run = _cli(
        "match",
        "--b",
        f"dxp:127.0.0.1:{port}",
        "--nodes",
        "50",
        "--pairs",
        "1",
        "--workers",
        "1",
        timeout=120,
    )
    assert run.returncode == 1
    assert "Connection refused" in run.stderr and "cannot write the output" not in run.stderr
    assert "Traceback" not in run.stderr
