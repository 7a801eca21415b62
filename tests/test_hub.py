"""``shashki hub`` against a real Hub client: pydraughts' HubEngine (a test dependency)."""

from __future__ import annotations

import stat
import subprocess
import sys
import time
from pathlib import Path

import draughts  # pydraughts: a test dependency
import pytest
import shashki
from draughts import Board as PyDraughtsBoard
from draughts.engine import HubEngine
from draughts.engine import Limit as PyDraughtsLimit
from hub_process import HubProcess, run_hub
from shashki.engine import Engine, Limit
from shashki.protocols import hub
from system import too_large_mb


@pytest.fixture
def engine_command(tmp_path: Path) -> str:
    """An executable that starts ``shashki hub`` (HubEngine wants a path to a program)."""
    script = tmp_path / "shashki-hub"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m shashki hub\n', encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def start(command: str) -> HubEngine:
    engine = HubEngine([command])
    assert "russian" in engine.variants
    assert engine.id["name"] == "shashki"
    engine.setoption("variant", "russian")
    engine.init()
    engine.ping()
    return engine


def test_numbering_conversions() -> None:
    board = shashki.Board()
    assert hub.board_to_hub(board) == "W" + "b" * 12 + "e" * 8 + "w" * 12
    assert hub.board_from_hub(hub.board_to_hub(board)) == board
    move = board.parse_move("a3-b4")
    assert hub.move_to_hub(move) == "9-13"
    assert hub.move_from_hub(board, "9-13") == move
    seed = shashki.Board("W:We1:Bd2,b4,d4,f4,f2")
    assert hub.board_to_hub(seed) == "Weeeeeeeeeeeeeeeebbbeeeeeebbeeewe"
    texts = {hub.move_to_hub(m) for m in seed.legal_moves}
    assert texts == {"3x17x6x13", "3x3x6x7x14x15", "3x17x7x13x14x15"}
    assert hub.move_from_hub(seed, "3x17x13x6") == seed.parse_move("e1:c3:a5")
    for bad in ["3x17", "9-14", "x", "0-5", "9-13-17"]:
        with pytest.raises(ValueError):
            hub.move_from_hub(board if "-" in bad else seed, bad)


def play_out(white, black, plies: int = 160) -> tuple[PyDraughtsBoard, shashki.Board]:
    """Play a game; ``white``/``black`` map (pydraughts board, shashki board) to a hub move."""
    pd_board = PyDraughtsBoard(variant="russian")
    board = shashki.Board()
    for _ in range(plies):
        if pd_board.is_over() or not board.legal_moves:
            break
        player = white if board.turn else black
        text = player(pd_board, board)
        move = hub.move_from_hub(board, text)  # raises if the move is not legal
        legal = {m.hub_move for m in pd_board.legal_moves()}
        assert text in legal or hub.move_to_hub(move) in legal
        pd_board.push(draughts.Move(pd_board, hub_move=hub.move_to_hub(move)))
        board.push(move)
    return pd_board, board


def test_whole_game_hub_against_hub(engine_command: str) -> None:
    a, b = start(engine_command), start(engine_command)
    try:

        def via(engine: HubEngine):
            def choose(pd_board: PyDraughtsBoard, board: shashki.Board) -> str:
                result = engine.play(pd_board, PyDraughtsLimit(movetime=0.02), ponder=False)
                assert engine.info.get("depth", 0) >= 1
                return result.move.hub_move

            return choose

        pd_board, board = play_out(via(a), via(b))
        assert len(board.move_stack) >= 20
    finally:
        a.quit()
        b.quit()
        a.kill_process()
        b.kill_process()


def test_whole_game_hub_against_python_engine(engine_command: str) -> None:
    remote = start(engine_command)
    local = Engine(hash_mb=16)
    try:

        def hub_player(pd_board: PyDraughtsBoard, board: shashki.Board) -> str:
            result = remote.play(pd_board, PyDraughtsLimit(depth=5), ponder=False)
            return result.move.hub_move

        def local_player(pd_board: PyDraughtsBoard, board: shashki.Board) -> str:
            move = local.play(board, Limit(depth=5)).move
            assert move is not None
            return hub.move_to_hub(move)

        pd_board, board = play_out(hub_player, local_player)
        assert len(board.move_stack) >= 20
    finally:
        remote.quit()
        remote.kill_process()


def test_protocol_lines_and_bad_input() -> None:
    out = run_hub(
        [
            "hub",
            "init",
            "ping",
            "nonsense here",
            "pos pos=Wxyz",
            'pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves="9-14"',
            "set-param name=variant value=chess",
            "set-param name=hash value=abc",
            "level depth=-3",
            "go",
            "set-param name=hash value=8",
            'pos start moves="9-13"',
            "level depth=4",
            "go think",
            "ping",
        ]
    )
    assert out[-1] == "pong" or any(line.startswith("done move=") for line in out)
    assert out[:1] == [
        "id name=shashki version=" + shashki.__version__ + ' author="shashki developers"'
    ]
    assert "wait" in out and "ready" in out and "pong" in out
    errors = [line for line in out if line.startswith("error message=")]
    assert len(errors) == 7, errors
    done = [line for line in out if line.startswith("done move=")]
    assert len(done) == 1
    board = shashki.Board()
    board.push_move("a3-b4")
    hub.move_from_hub(board, done[0].split("=", 1)[1].split()[0])
    infos = [line for line in out if line.startswith("info ")]
    assert infos and all("depth=" in line and "score=" in line for line in infos)


def test_stop_and_analyze() -> None:
    out = run_hub(["init", "pos start", "go analyze", "ping", "stop", "ping", "quit"])
    assert out.count("pong") == 2
    assert any(line.startswith("done move=") for line in out)


def test_ponder_then_ponder_hit_thinks_with_the_level() -> None:
    import time

    with subprocess.Popen(
        [sys.executable, "-m", "shashki", "hub"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        for line in ["init", "pos start", "level move-time=0.1", "go ponder"]:
            proc.stdin.write(line + "\n")
        proc.stdin.flush()
        lines = [proc.stdout.readline().strip()]  # ready
        lines.append(proc.stdout.readline().strip())  # the pondering search's first report
        time.sleep(0.3)
        proc.stdin.write("ping\nponder-hit\n")
        proc.stdin.flush()
        while True:
            line = proc.stdout.readline().strip()
            lines.append(line)
            if line.startswith("done") or not line and proc.poll() is not None:
                break
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=10) == 0
    assert lines[0] == "ready"
    assert lines[-1].startswith("done move=")
    assert sum(1 for line in lines if line.startswith("done")) == 1
    # The search that pondered goes on after the hit (its 0.1 s were spent pondering):
    # no search starts again from depth 1.
    pong = lines.index("pong")
    before = [_depth(line) for line in lines[:pong] if line.startswith("info")]
    after = [_depth(line) for line in lines[pong:] if line.startswith("info")]
    assert before and all(depth > max(before) for depth in after)


def _depth(info: str) -> int:
    return int(info.split("depth=")[1].split()[0])


# ---- moved here from the reliability and parity suites (by concept) ----


def test_set_param_during_a_search_does_not_hang(hub_process: HubProcess) -> None:
    hub_process.send("go analyze")
    hub_process.wait_for("info")
    hub_process.send("set-param name=hash value=8", "stop", "ping")
    hub_process.wait_for("pong", timeout=10)
    hub_process.send("level move-time=0.05", "go think")
    assert hub_process.wait_for("done move=")
    assert "Traceback" not in hub_process.close()


@pytest.mark.parametrize(
    "level",
    ["move-time=inf", "move-time=1e10", "time=1e10", "nodes=1e30", "moves=5000", "depth=999"],
)
def test_every_go_think_ends_in_done(hub_process: HubProcess, level: str) -> None:
    hub_process.send(f"level {level}", "go think")
    time.sleep(0.2)
    hub_process.send("stop")
    done = hub_process.wait_for("done", timeout=20)
    move = done.split("move=")[1].split()[0]
    hub.move_from_hub(shashki.Board(), move)  # legal in the start position
    hub_process.send("ping")
    hub_process.wait_for("pong")
    assert "Traceback" not in hub_process.close()


def test_bad_levels_get_an_error_and_keep_the_old_level(hub_process: HubProcess) -> None:
    hub_process.send("level move-time=0.05")
    for bad in ["move-time=inf", "move-time=nan", "time=-1", "nodes=1e30", "depth=x"]:
        hub_process.send(f"level {bad}")
        assert hub_process.wait_for("error").startswith("error message=")
    hub_process.send("go think")
    hub_process.wait_for("done move=", timeout=10)


def test_hub_keeps_its_table(hub_process: HubProcess) -> None:
    hub_process.send(f"set-param name=hash value={too_large_mb()}")
    assert "cannot allocate" in hub_process.wait_for("error")
    hub_process.send("level move-time=0.05", "go think")
    hub_process.wait_for("done move=")
    assert "Traceback" not in hub_process.close()


def test_move_overhead_param_reaches_every_engine_the_hub_makes() -> None:
    import io

    server = hub.HubServer(io.StringIO(), io.StringIO())
    server.handle("hub", {})
    assert "param name=move-overhead value=5 type=int min=0 max=5000" in server.out.getvalue()
    server.set_param("move-overhead", "120")
    assert server.get_engine().move_overhead == pytest.approx(0.12)
    server.set_param("move-overhead", "40")
    assert server.get_engine().move_overhead == pytest.approx(0.04)
    server.set_param("hash", "2")  # a new engine keeps it
    assert server.get_engine().move_overhead == pytest.approx(0.04)
    for bad in ("-1", "5001", "x", "1.5"):
        with pytest.raises(ValueError, match="move-overhead"):
            server.set_param("move-overhead", bad)
    assert server.get_engine().move_overhead == pytest.approx(0.04)


def test_variety_params_vary_the_first_moves_by_seed() -> None:
    def first_move(seed: int) -> str:
        # The search must end by its node count: input ending (EOF) stops a running search,
        # so the session stays open until ``done``.
        process = HubProcess()
        try:
            process.send(
                "hub",
                "set-param name=variety value=3",
                f"set-param name=variety-seed value={seed}",
                "set-param name=hash value=4",  # a new engine keeps the variety
                "init",
            )
            assert "param name=variety value=0 type=int min=0 max=100" in process.wait_for(
                "param name=variety "
            )
            process.send("pos start", "level nodes=2000", "go think")
            return process.wait_for("done move=").split("=", 1)[1].split()[0]
        finally:
            assert "Traceback" not in process.close()

    moves = [first_move(seed) for seed in range(8)]
    assert len(set(moves)) >= 2, moves
    assert first_move(5) == moves[5]
    errors = [
        line
        for line in run_hub(
            ["set-param name=variety value=101", "set-param name=variety-seed value=x"]
        )
        if line.startswith("error message=")
    ]
    assert len(errors) == 2
