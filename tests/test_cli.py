"""The ``shashki`` command line: every command, its errors, and the README's shell examples."""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import shashki
from shashki import pdn
from shashki.apps.play import play
from system import interruptible

README = Path(__file__).parent.parent / "README.md"


def run(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "shashki", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_version() -> None:
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"shashki {shashki.__version__}"


def test_perft_text_json_and_divide() -> None:
    proc = run("perft", "6")
    assert proc.returncode == 0 and "perft 6: 37986" in proc.stdout and "leaves/s" in proc.stdout
    proc = run("perft", "W:WK29,22,23,27:B6,7,14,15,19,K4", "5", "--divide", "--json")
    data = json.loads(proc.stdout)
    assert data["leaves"] == 950 and sum(data["divide"].values()) == 950
    proc = run("perft", "8", "--orders", "--threads", "2", "--hash", "16")
    assert "perft 8: 929905" in proc.stdout


def test_moves() -> None:
    proc = run("moves", "W:We1:Bd2,b4,d4,f4,f2")
    assert proc.returncode == 0
    assert "e1:c3:a5" in proc.stdout and "31x22x13" in proc.stdout
    header, *rows = proc.stdout.splitlines()
    assert header.split()[:2] == ["algebraic", "numeric"] and len(rows) == 3


def test_the_help_names_every_game_the_commands_play() -> None:
    """``shashki --help`` names each card's game, the column games included."""
    proc = run("--help")
    text = " ".join(proc.stdout.split())
    cards = shashki.games() + shashki.games(columns=True)
    missing = [c.display_name for c in cards if " ".join(c.display_name.split()) not in text]
    assert proc.returncode == 0 and not missing, missing
    assert f"{len(shashki.games())} games and {len(shashki.games(columns=True))} column" in text


@pytest.mark.parametrize("command", ["perft", "moves", "analyse", "selfplay", "play", "bench"])
def test_every_command_documents_its_arguments(command: str) -> None:
    proc = run(command, "--help")
    assert proc.returncode == 0
    text = proc.stdout
    if command in ("perft", "moves", "analyse"):
        assert "FEN" in text and "W:W21-32:B1-12" in text
    if command == "perft":
        assert "DEPTH" in text and "0-63" in text
    if command == "analyse":
        assert "3" in text and "seconds" in text
    if command == "play":
        assert "(default: 1.0)" in text


def test_analyse_several_lines() -> None:
    proc = run("analyse", "--depth", "6", "--multipv", "3")
    final = [line for line in proc.stdout.splitlines() if re.match(r"line \d: ", line)]
    firsts = {line.split("  ")[1].split()[0] for line in final}
    assert proc.returncode == 0 and len(final) == 3 and len(firsts) == 3


def test_analyse_prints_iterations_then_the_line() -> None:
    proc = run("analyse", "--depth", "6")
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0
    assert [line.split()[1] for line in lines if line.startswith("depth")] == list("123456")
    assert lines[-2].startswith("best line: ")


def test_selfplay_plays_a_whole_game() -> None:
    proc = run("selfplay", "--time", "0.01", timeout=120)
    assert proc.returncode == 0
    assert '[GameType "25"]' in proc.stdout
    # The PDN alone on stdout; how the game ended on stderr.
    assert re.search(r"^result (1-0|0-1|1/2-1/2) \(", proc.stderr, re.M)
    assert "result" not in proc.stdout.lower().replace('[result "', "")


@pytest.mark.parametrize(
    "args",
    [
        ("perft", "x"),
        ("perft", "W:W33", "3"),
        ("perft", "-1"),
        ("moves", "nonsense"),
        ("analyse", "--depth", "0"),
        ("selfplay", "--time", "-1"),
        ("perft", "3", "--threads", "0"),
    ],
)
def test_errors_exit_2_with_one_line(args) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def scripted(lines: list[str], **options) -> list[str]:
    out: list[str] = []
    feed = iter(lines)

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    defaults = dict(color="white", time=0.02, fen=None, ascii=True, two_players=False, watch=False)
    defaults.update(options)
    assert play(argparse.Namespace(**defaults), read=read, write=out.append) == 0
    return out


def test_play_against_the_engine(tmp_path: Path) -> None:
    path = tmp_path / "game.pdn"
    out = scripted(
        ["c3-d4", "zz", "c3-e5", "hint", "moves", "flip", "undo", f"save {path}", "quit"]
    )
    text = "\n".join(out)
    assert "(engine) plays" in text
    assert "invalid square" in text and "illegal move" in text
    assert "hint: " in text and "saved to" in text
    assert "1 w" in text or "1 " in text

    with path.open(encoding="utf-8") as handle:
        game = pdn.read_game(handle)
    assert game is not None and game.mainline_moves() == []  # everything was undone


def test_play_with_pondering_goes_on_after_each_reply() -> None:
    # The engine ponders on the reply it expects while the human thinks; whether the
    # human's reply is that one (the search goes on) or not (a new search), the engine
    # answers, and a hint in between stops the pondering.
    out: list[str] = []
    replies = iter(["moves", "first", "hint", "moves", "first", "quit"])

    def read(prompt: str) -> str:
        out.append(prompt)
        reply = next(replies)
        if reply == "first":  # the first legal move the last "moves" listed
            listed = next(line for line in reversed(out) if "-" in line or ":" in line)
            return listed.split(",")[0].strip()
        return reply

    args = dict(color="black", time=0.05, fen=None, ascii=True, two_players=False)
    namespace = argparse.Namespace(**args, watch=False, ponder=True)
    assert play(namespace, read=read, write=out.append) == 0
    text = "\n".join(out)
    assert text.count("(engine) plays") == 3 and "hint: " in text


def test_play_unicode_and_two_players() -> None:
    out = scripted(["c3-d4", "f6-e5", "d4:f6", "undo", "quit"], two_players=True, ascii=False)
    text = "\n".join(out)
    assert "⛀" in text and "⛂" in text
    assert "(engine)" not in text
    assert text.count("last move") >= 3


def test_watch_engine_game_to_the_end() -> None:
    out = scripted([], watch=True, fen="W:WK30,K31:BK3", time=0.01)
    assert "game over: 1/2-1/2" in "\n".join(out)


def test_draw_rules_are_announced() -> None:
    out = scripted(["c1-b2", "quit"], fen="W:WK30,K31:BK3", time=0.01)
    assert any(line.startswith("draw rule 7.2.8") for line in out)


def readme_shell_examples() -> list[str]:
    """The shell lines of the README and the docs' Markdown pages (installs left out)."""
    pages = [README, *sorted((README.parent / "docs").glob("*.md"))]
    text = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    commands = []
    for block in blocks:
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line and not line.startswith("pip install"):
                commands.append(line)
    return commands


@pytest.mark.parametrize("command", readme_shell_examples())
def test_readme_shell_examples_run(command) -> None:
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    proc = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, timeout=300, env=env
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()


# ---- moved here from the reliability and parity suites (by concept) ----


def test_ctrl_c_stops_the_perft_command() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "shashki", "perft", "14"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err


def test_ctrl_c_stops_the_play_command_while_the_engine_thinks() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "shashki", "play", "--color", "black", "--time", "60", "--ascii"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    time.sleep(1.5)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 20  # not the engine's 60 s
    assert proc.returncode == 130 and "Traceback" not in err


def test_play_greets_thinks_aloud_and_names_the_players(tmp_path) -> None:
    import argparse

    from shashki.apps.play import play

    path = tmp_path / "game.pdn"
    out: list[str] = []
    feed = iter(["c3-d4", "c3-b4", f"save {path}", "quit"])

    def read(prompt: str) -> str:
        return next(feed)

    options = dict(color="white", time=0.02, fen=None, ascii=True, two_players=False)
    play(argparse.Namespace(watch=False, white="Ann", **options), read=read, write=out.append)
    text = "\n".join(out)
    assert out[0].startswith("shashki play:") and "help" in out[0]
    assert "is thinking" in text
    assert "a capture is compulsory" in text or "illegal move" in text
    saved = path.read_text(encoding="utf-8")
    assert '[White "Ann"]' in saved and f'[Black "shashki {shashki.__version__}"]' in saved


@pytest.mark.parametrize(
    "args",
    [
        ["perft", "10"],
        ["perft", "8", "--divide"],
        ["moves", "W:We1:Bd2,b4,d4,f4,f2"],
        ["perft", "6", "--variant", "english", "--divide"],
    ],
)
def test_a_reader_that_goes_away_stops_the_command_quietly(args: list[str]) -> None:
    """``shashki perft 10 | head -c 5``: no BrokenPipeError traceback."""
    import subprocess
    import sys

    with subprocess.Popen(
        [sys.executable, "-m", "shashki", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.read(5)
        proc.stdout.close()  # the reader goes away
        err = proc.stderr.read().decode()
        proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    # Nothing but the progress display's plain lines (stderr is a pipe here).
    assert all(" root moves, " in line for line in err.splitlines()), err


def test_a_full_disk_is_one_line_of_error() -> None:
    import os
    import subprocess
    import sys

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "shashki", "perft", "6", "--divide"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and "No space left" in proc.stderr, proc.stderr


def test_the_hub_engine_stops_quietly_when_its_client_has_gone() -> None:
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "shashki", "hub"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        proc.stdin.write(b"hub\ninit\nlevel move-time=0.5\ngo think\n")
        proc.stdin.flush()
        proc.stdout.read(10)
        proc.stdout.close()  # the client's end of the engine's output is gone
        time.sleep(1.0)  # the search ends and its answer finds no reader
        try:
            proc.stdin.write(b"go think\n")
            proc.stdin.flush()
            time.sleep(1.0)
            proc.stdin.close()
        except BrokenPipeError:
            pass  # the engine has already stopped
        err = proc.stderr.read().decode()
        proc.wait(timeout=30)
    finally:
        proc.stderr.close()
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


@pytest.mark.parametrize("command", ["moves", "analyse"])
def test_an_empty_fen_is_a_usage_error_not_the_start(command: str) -> None:
    proc = run(command, "  ")
    assert proc.returncode == 2
    assert "FEN is empty" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_no_moves_is_a_win_where_the_goal_is_reversed() -> None:
    for variant, verdict in (("antidraughts", "won"), ("international", "lost")):
        proc = run("moves", "W:W:B1", "--variant", variant)
        assert proc.returncode == 0 and f"side to move has {verdict}" in proc.stdout, variant


def test_bench_refuses_an_unknown_evaluation_with_the_reason() -> None:
    proc = run("bench", "--evaluation", "neural")
    assert proc.returncode == 2
    assert "network" in proc.stderr and "neural" in proc.stderr


# ---- the column games (towers, Lasca) on the command line ----


def test_column_games_on_the_command_line(tmp_path) -> None:
    fen = "W:Wc3(bB),e3:Bd4(ww),f6"
    moves = run("moves", "--variant", "bashni", fen)
    assert moves.returncode == 0, moves.stderr
    assert [line.split()[0] for line in moves.stdout.splitlines()[1:]] == ["c3:g7", "e3:c5"]
    analysed = run("analyse", "--variant", "towers", "--depth", "4", fen)
    assert analysed.returncode == 0, analysed.stderr
    assert "best line: c3:e5:g7" in analysed.stdout and "score: #1" in analysed.stdout
    # Two players at one terminal: the board lists the columns; the capture is played and
    # the game saved as the column games' PDN.
    path = tmp_path / "towers.pdn"
    played = run(
        "play",
        "--variant",
        "towers",
        "--fen",
        fen + ",a7",
        "--two-players",
        "--ascii",
        stdin=f"c3:e5:g7\nsave {path}\nquit\n",
    )
    assert played.returncode == 0, played.stderr
    assert "  c3 wbB" in played.stdout and "  g7 wbBbb" in played.stdout
    with path.open(encoding="utf-8") as handle:
        read = shashki.columns.read_pdn(handle)
    assert read is not None
    headers, board = read
    assert headers["Variant"] == "towers" and board.fen() == "B:Wg7(bBbb),d4(w),e3:Ba7"
    selfplay = run("selfplay", "--variant", "lasca", "--time", "0.01", "--max-plies", "12")
    assert selfplay.returncode == 0, selfplay.stderr
    assert '[Variant "lasca"]' in selfplay.stdout
    import io

    again = shashki.columns.read_pdn(io.StringIO(selfplay.stdout))
    assert again is not None and len(again[1].move_stack) == 12
    refused = run("moves", "--variant", "towers", "--captures-optional")
    assert refused.returncode != 0 and "compulsory" in refused.stderr


def test_a_column_game_object() -> None:
    game = shashki.ColumnGame(variant="towers")
    game.push_move("c3-d4")
    game.push_move("f6-e5")
    game.push_move("d4:f6")
    assert game.ply() == 3 and len(game.mainline_moves()) == 3
    assert game.board().fen() == game.start_fen
    assert game.current_board.column(shashki.parse_square("f6"))[0].symbol() == "w"
    assert game.draw_counters() == ["king-topped columns only: 0 of 15 moves"]
    with pytest.raises(ValueError):
        game.push_move("a1-b2")
    assert game.ply() == 3
    game.pop()
    assert game.ply() == 2
    game.headers["White"] = "Ann"
    assert '[White "Ann"]' in game.pdn() and game.result() == "*"
    assert shashki.ColumnGame(variant="lasca").draw_counters() == []
