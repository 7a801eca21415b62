"""The column games (towers, Lasca) over the Hub: their FEN as the position, captures in
the order jumped, the column search behind ``go`` (think, analyze, ponder), and the
engine API's stop and ponder hit on a :class:`shashki.ColumnBoard`."""

from __future__ import annotations

import sys
import threading
import time
from typing import Callable

import pytest
from hub_process import run_hub
from shashki import ColumnBoard
from shashki.engine import Engine, Limit, PlayResult
from shashki.protocols import hub
from shashki.protocols.hub_client import HubEngine


def test_a_towers_position_and_its_forced_capture() -> None:
    # White's c3 must take d4 (a tower of three) and then f6: c3 = 10, g7 = 28, d4 = 14,
    # f6 = 23 (the square's index plus one), the jumped squares in the order jumped.
    out = run_hub(
        [
            "set-param name=variant value=bashni",
            "pos pos=W:Wc3:Bd4(ww),f6",
            "level depth=3",
            "go think",
            "ping",
        ]
    )
    done = [line for line in out if line.startswith("done")]
    assert done == ["done move=10x28x14x23"], out
    assert not [line for line in out if line.startswith("error")]


def test_the_order_jumped_tells_two_captures_apart() -> None:
    # A man on c3 around four black pieces (a king on d4): c3-a5-c7-e5-c3 and
    # c3-e5-c7-a5-c3 jump the same squares, in two orders, and leave the prisoners in two
    # orders under it.
    board = ColumnBoard("W:Wc3:Bb4,Kd4,b6,d6", variant="towers")
    loops = [m for m in board.legal_moves if m.start == m.end]
    assert len(loops) == 2
    texts = {hub.move_to_hub(m) for m in loops}
    assert len(texts) == 2
    for move in loops:
        assert hub.move_from_hub(board, hub.move_to_hub(move)) == move
        after = board.copy()
        after.push(move)
        assert after.fen() != board.fen()
    columns = set()
    for move in loops:
        after = board.copy()
        after.push(move)
        columns.add(after.fen())
    assert len(columns) == 2, columns  # the prisoners' orders differ


def test_column_games_refuse_optional_captures() -> None:
    out = run_hub(
        [
            "set-param name=captures-optional value=true",
            "set-param name=variant value=towers",
            "set-param name=captures-optional value=false",
            "set-param name=variant value=lasca",
            "set-param name=captures-optional value=true",
            "pos start",
            "level depth=2",
            "go think",
            "ping",
        ]
    )
    errors = [line for line in out if line.startswith("error")]
    assert len(errors) == 2 and all("compulsory" in line for line in errors), out
    done = [line for line in out if line.startswith("done move=")]
    assert len(done) == 1
    board = ColumnBoard(variant="lasca")
    assert hub.move_from_hub(board, done[0].split("=", 1)[1].split()[0]) in board.legal_moves


def test_analyze_until_stop_and_bad_positions() -> None:
    out = run_hub(
        [
            "set-param name=variant value=towers",
            "pos pos=W:Wz9:Bd4",
            "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            'pos start moves="10-14 99-1"',
            "go analyze",
            "ping",
            "stop",
            "ping",
        ]
    )
    assert out.count("pong") == 2
    assert len([line for line in out if line.startswith("error")]) == 3, out
    done = [line for line in out if line.startswith("done move=")]
    assert len(done) == 1
    assert hub.move_from_hub(ColumnBoard(), done[0].split("=", 1)[1].split()[0])


@pytest.mark.parametrize("variant", ["towers", "lasca"])
def test_a_whole_game_through_the_hub_client(variant: str) -> None:
    engine = HubEngine.popen([sys.executable, "-m", "shashki", "hub"])
    try:
        engine.configure("variant", variant)
        own = Engine(hash_mb=1)
        board = ColumnBoard(variant=variant)
        plies = 0
        while not board.is_game_over() and plies < 300:
            player = engine if board.turn else own
            move = player.play(board, Limit(nodes=300)).move
            assert move is not None and board.is_legal(move)
            board.push(move)
            plies += 1
        assert plies > 10
    finally:
        engine.close()


def test_engine_stop_and_ponder_hit_on_a_column_board() -> None:
    engine = Engine(hash_mb=1)
    board = ColumnBoard(variant="towers")
    answers: dict[str, PlayResult] = {}

    def run(key: str, call: Callable[[], PlayResult]) -> threading.Thread:
        thread = threading.Thread(target=lambda: answers.__setitem__(key, call()))
        thread.start()
        return thread

    # Limit() searches until stopped.
    thread = run("search", lambda: engine.search(board, Limit()))
    time.sleep(0.2)
    assert thread.is_alive() and engine.searches_running() == 1
    engine.stop()
    thread.join(5)
    assert not thread.is_alive()
    assert answers["search"].move in board.legal_moves
    # A ponder search that ran out of depth waits for the hit.
    thread = run("ponder", lambda: engine.ponder(board, Limit(depth=2)))
    time.sleep(0.3)
    assert thread.is_alive()
    assert engine.ponderhit()
    thread.join(5)
    assert not thread.is_alive() and answers["ponder"].move in board.legal_moves
    # Its time held until the hit, then counted from its start.
    thread = run("timed", lambda: engine.ponder(board, Limit(time=0.05)))
    time.sleep(0.3)
    assert thread.is_alive()
    engine.ponderhit()
    thread.join(5)
    assert not thread.is_alive()
    infos: list[object] = []
    result = engine.play(board, Limit(depth=3), on_info=infos.append)
    assert result.info["depth"] == 3 and len(infos) == 3
