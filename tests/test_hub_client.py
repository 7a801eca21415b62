"""shashki.protocols.hub_client.HubEngine: any Hub engine driven with the Engine API — a real
``shashki hub`` subprocess, and fake engines that hang, crash and answer garbage (each an
EngineError within its timeout, the process killed, nothing left hanging)."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

import pytest
import shashki
from shashki.engine import Limit, PovScore
from shashki.protocols.hub_client import EngineError, HubEngine

SHASHKI_HUB = [sys.executable, "-m", "shashki", "hub"]


def test_a_real_hub_engine_plays_and_analyses() -> None:
    with HubEngine.popen(SHASHKI_HUB, options={"hash": 8}) as engine:
        assert engine.id["name"] == "shashki" and engine.id["version"] == shashki.__version__
        assert {"variant", "hash", "threads"} <= set(engine.options)
        board = shashki.Board()
        result = engine.play(board, Limit(depth=5))
        assert result.move in board.legal_moves and result.info["depth"] == 5
        assert isinstance(result.info["score"], PovScore)
        # The principal variation is legal move after move.
        line = board.copy()
        for move in result.info["pv"]:
            assert move in line.legal_moves
            line.push(move)
        info = engine.analyse(shashki.Board("W:WK29:B1"), Limit(depth=6))
        assert info["score"].relative.is_win() and info["score"].white().is_win()
        # A game: its history reaches the engine (the position after the moves).
        game = shashki.Game()
        for text in ["c3-d4", "f6-e5"]:
            game.push_move(text)
        reply = engine.play(game, Limit(nodes=2000)).move
        assert reply is not None and str(reply) == "d4:f6"  # the only (compulsory) capture
        seen: list[int] = []
        engine.analyse(shashki.Board(), Limit(depth=4), on_info=lambda i: seen.append(i["depth"]))
        assert seen == sorted(seen) and seen[-1] == 4
        # Clocks: the side to move's clock and increment reach the engine.
        clocked = engine.play(shashki.Board(), Limit(white_clock=2.0, white_inc=0.1))
        assert clocked.move in shashki.Board().legal_moves
        engine.ping()
        with pytest.raises(ValueError, match="limit"):
            engine.play(shashki.Board(), Limit())
        process = engine._process
    assert process.poll() is not None, "the engine's process ended with the with block"
    with pytest.raises(EngineError, match="closed"):
        engine.play(shashki.Board(), Limit(depth=2))


def test_a_hub_engine_ponders_and_goes_on_after_a_hit() -> None:
    with HubEngine.popen(SHASHKI_HUB, options={"hash": 8}) as engine:
        board = shashki.Board()
        # A miss: the pondering stops, the position played is searched.
        first = engine.play(board, Limit(depth=6), ponder=True)
        assert first.move is not None and first.ponder is not None
        board.push(first.move)
        board.push(next(m for m in board.legal_moves if m != first.ponder))
        second = engine.play(board, Limit(depth=5), ponder=True)
        assert second.move in board.legal_moves and second.info["depth"] == 5
        # A hit: the search that pondered answers (at depth 5 it had finished, and waited).
        assert second.move is not None and second.ponder is not None
        board.push(second.move)
        board.push(second.ponder)
        time.sleep(0.1)
        third = engine.play(board, Limit(depth=5))
        assert third.move in board.legal_moves and third.info["depth"] == 5
        # Under a clock; then other calls stop the pondering first.
        clock = Limit(white_clock=1.0, black_clock=1.0, white_inc=0.01, black_inc=0.01)
        fourth = engine.play(board, clock, ponder=True)
        assert fourth.move in board.legal_moves
        engine.new_game()
        info = engine.analyse(shashki.Board(), Limit(depth=3))
        assert info["depth"] == 3
        engine.ping()


def test_set_param_changes_the_engines_game() -> None:
    with HubEngine.popen(SHASHKI_HUB, options={"variant": "giveaway"}) as engine:
        board = shashki.Board("W:Wc3:Bd4,f6", variant="giveaway")
        move = engine.play(board, Limit(depth=3)).move
        assert move is not None and move.captured
    with pytest.raises(ValueError):
        HubEngine.configure(engine, "name with spaces", 1)


def fake_engine(tmp_path: Path, body: str) -> list[str]:
    """A Hub engine of a few lines: the handshake, then ``body`` for each ``go``."""
    script = tmp_path / "engine.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys, time
            def say(line):
                print(line, flush=True)
            for line in sys.stdin:
                command = line.split()[0] if line.split() else ""
                if command == "hub":
                    say("id name=fake")
                    say("wait")
                elif command == "init":
                    say("ready")
                elif command == "quit":
                    break
                elif command == "go":
            """
        )
        + textwrap.indent(textwrap.dedent(body), " " * 8),
        encoding="utf-8",
    )
    return [sys.executable, str(script)]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("time.sleep(3600)\n", "said nothing"),  # hangs in a search
        ("sys.exit(3)\n", "ended"),  # dies in a search
        ('say("done move=1-2")\n', "not legal"),  # answers a move that is no move here
        ('say("done")\n', "no move"),  # no move where there are legal ones
        ('say("info depth=x score=zz pv=\\"99-98\\"")\nsay("done move=!!")\n', "not legal"),
    ],
)
def test_a_broken_engine_is_an_engine_error_in_time(tmp_path: Path, body, message) -> None:
    engine = HubEngine.popen(fake_engine(tmp_path, body), timeout=1.0)
    started = time.monotonic()
    with pytest.raises(EngineError, match=message):
        engine.play(shashki.Board(), Limit(depth=3))
    assert time.monotonic() - started < 5.0
    assert engine._process.poll() is not None, "the broken engine was killed"


def test_an_engine_that_never_finishes_its_handshake(tmp_path: Path) -> None:
    script = tmp_path / "mute.py"
    script.write_text("import time\ntime.sleep(3600)\n", encoding="utf-8")
    started = time.monotonic()
    with pytest.raises(EngineError, match="said nothing"):
        HubEngine.popen([sys.executable, str(script)], timeout=1.0)
    assert time.monotonic() - started < 5.0


def test_a_command_that_does_not_start() -> None:
    with pytest.raises(EngineError, match="cannot start"):
        HubEngine.popen(["/nonexistent/engine"])


def test_a_move_time_is_waited_for_beyond_the_timeout(tmp_path: Path) -> None:
    """A search allowed 1.5 s may stay silent that long plus the timeout, not less."""
    body = 'time.sleep(1.5)\nsay("done move=9-13")\n'
    with HubEngine.popen(fake_engine(tmp_path, body), timeout=1.0) as engine:
        move = engine.play(shashki.Board(), Limit(time=1.5)).move
    assert str(move) == "a3-b4"
