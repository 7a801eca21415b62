"""DXP (DamExchange): the messages, ``shashki dxp`` against pydraughts' DXPEngine on
127.0.0.1, the match runner's ``dxp:`` player, and each answer of the server's threat model
(docs/hub.md, "DXP") as a test: one game at a time, bounded messages, timeouts, bad input."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import draughts  # pydraughts, a test dependency
import pytest
import shashki
from dxp_follower import running_follower
from shashki.protocols import dxp, hub

VARIANT = "international"


@pytest.fixture
def server() -> Iterator[dxp.DxpServer]:
    with running_follower(idle_timeout=2.0, max_move_seconds=0.02) as srv:
        yield srv


def connect(srv: dxp.DxpServer, timeout: float = 5.0) -> dxp.MessageStream:
    sock = socket.create_connection(srv.address, timeout=timeout)
    return dxp.MessageStream(sock, timeout)


def closed_by_peer(stream: dxp.MessageStream) -> bool:
    """Whether the server has closed the connection (within the stream's timeout); the
    socket is closed after."""
    try:
        while True:
            if stream.read() is None:
                return True
    except (ConnectionError, OSError):
        return True
    finally:
        stream.sock.close()


def wait_until(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


# ---- messages ---------------------------------------------------------------------------------


def test_messages_round_trip() -> None:
    board = shashki.Board(variant=VARIANT)
    request = dxp.game_request("tester", False, 90, 75, board)
    assert request.startswith("R01tester") and len(request) == 44 + 50
    parsed = dxp.parse_message(request)
    assert isinstance(parsed, dxp.GameRequest)
    assert (parsed.initiator, parsed.follower_white, parsed.minutes, parsed.moves) == (
        "tester",
        False,
        90,
        75,
    )
    assert parsed.position is not None
    assert dxp.board_from_dxp(*parsed.position, VARIANT) == board
    assert dxp.board_to_dxp(board) == "z" * 20 + "e" * 10 + "w" * 20
    start = dxp.parse_message(dxp.game_request("x", True, 5, 0, None))
    assert isinstance(start, dxp.GameRequest) and start.position is None
    capture = shashki.Board("W:W28,32:B22,12,27", variant=VARIANT)
    (move,) = capture.legal_moves
    text = dxp.move_message(move, 3)
    assert text == "M00032808021222"
    message = dxp.parse_message(text)
    assert isinstance(message, dxp.MoveMessage)
    assert dxp.move_from_dxp(capture, message) == move
    assert dxp.parse_message(dxp.game_accept()) == ("A", ("shashki", "0"))
    assert dxp.parse_message(dxp.game_end("2", "1")) == ("E", ("2", "1"))
    assert dxp.parse_message("B005Z") == ("B", (5, False))
    assert dxp.parse_message("K1") == ("K", ("1",))
    assert dxp.parse_message("Chello") == ("C", ("hello",))


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "X",
        "R02" + " " * 32 + "W090075A",
        "R01" + " " * 32 + "Q090075A",
        "R01" + " " * 32 + "W0x0075A",
        "R01" + " " * 32 + "W090075C",
        "R01" + " " * 32 + "W090075AX",
        "M0000323102",
        "M00003231",
        "M000a3228000",
        "E4",
        "E25",
        "A" + "x" * 40,
        "B5Z",
        "K7",
        "C" + "x" * 200,
    ],
)
def test_malformed_messages_are_dxp_errors(bad: str) -> None:
    with pytest.raises(dxp.DxpError):
        dxp.parse_message(bad)


def test_positions_and_moves_that_are_not_the_games_are_refused() -> None:
    with pytest.raises(dxp.DxpError, match="50 squares"):
        dxp.board_from_dxp(True, "e" * 32, VARIANT)
    with pytest.raises(dxp.DxpError, match="character"):
        dxp.board_from_dxp(True, "q" * 50, VARIANT)
    with pytest.raises(dxp.DxpError, match="not a position"):
        dxp.board_from_dxp(True, "w" * 50, VARIANT)  # a white man on White's crowning row
    board = shashki.Board(variant=VARIANT)
    with pytest.raises(dxp.DxpError, match="illegal"):
        dxp.move_from_dxp(board, dxp.MoveMessage(0, 32, 23, ()))
    with pytest.raises(dxp.DxpError, match="not on the board"):
        dxp.move_from_dxp(board, dxp.MoveMessage(0, 77, 23, ()))


# ---- the server against a real client ------------------------------------------------------------


def test_pydraughts_dxp_engine_plays_a_whole_game(server: dxp.DxpServer) -> None:
    """pydraughts' DXPEngine (an independent client) asks ``shashki dxp`` for an
    International game and plays it out; every move the server sends is legal for
    pydraughts, and the game ends by the rules."""
    from draughts.engine import DXPEngine

    host, port = server.address
    engine = DXPEngine(None, {"engine-opened": True, "ip": host, "port": port})
    board = draughts.Board(variant="standard")
    ours = shashki.Board(variant=VARIANT)
    plies = 0
    try:
        while not board.is_over() and plies < 300:
            result = engine.play(board)
            assert result.move is not None
            assert result.move.hub_move in {m.hub_move for m in board.legal_moves()}
            board.push(result.move)
            ours.push(hub.move_from_hub(ours, result.move.hub_move))
            plies += 1
            if board.is_over():
                break
            reply = board.legal_moves()[plies % len(board.legal_moves())]
            board.push(reply)
            ours.push(hub.move_from_hub(ours, reply.hub_move))
            plies += 1
    finally:
        # pydraughts' client can drop its socket unclosed when the shutdown before its
        # close fails (the server already gone): keep a handle and close it ourselves,
        # or the ResourceWarning lands at some later garbage collection.
        client_socket = engine.sender.socket.sock
        engine.quit()
        if client_socket is not None:
            client_socket.close()
    assert plies >= 30
    assert engine.id["name"] == "shashki"
    assert server.games == 1


def test_the_match_runner_plays_through_dxp(server: dxp.DxpServer) -> None:
    """``dxp:HOST:PORT`` in the match runner: shashki in-process against ``shashki dxp``,
    a pair of International games from a random opening, both read back from their PDN."""
    import io

    from shashki import pdn
    from shashki.apps.match.players import TimeControl, close_players
    from shashki.apps.match.runner import play_pair
    from shashki.openings import load_openings

    host, port = server.address
    opening = load_openings("random", seed=5, variant=VARIANT)[0]
    try:
        points, texts = play_pair(
            "shashki", f"dxp:{host}:{port}", opening, TimeControl(depth=2), None, VARIANT
        )
    finally:
        close_players()
    assert 0.0 <= points <= 2.0 and len(texts) == 2
    for text in texts:
        game = pdn.read_game(io.StringIO(text))
        assert game is not None and game.variant == VARIANT
        assert len(game.mainline_moves()) > 0
    assert server.games >= 2


# ---- the threat model, each answer a test -------------------------------------------------------


def test_one_game_at_a_time(server: dxp.DxpServer) -> None:
    first = connect(server)
    first.send(dxp.game_request("one", True, 1, 0, None))
    assert dxp.parse_message(first.read() or "") == ("A", ("shashki", "0"))
    second = connect(server, timeout=3.0)
    assert closed_by_peer(second)  # refused while the first plays
    assert any("refused" in line for line in server.logged)  # type: ignore[attr-defined]
    first.send(dxp.game_end("0", "1"))
    first.sock.close()
    assert wait_until(lambda: not server.busy.locked())
    third = connect(server)
    third.send(dxp.game_request("three", False, 1, 0, None))
    assert dxp.parse_message(third.read() or "") == ("A", ("shashki", "0"))
    third.sock.close()


def test_an_overlong_message_closes_the_connection(server: dxp.DxpServer) -> None:
    stream = connect(server)
    stream.sock.sendall(b"C" + b"x" * 500)  # no NUL within the protocol's length
    assert closed_by_peer(stream)
    assert wait_until(lambda: not server.busy.locked())


def test_a_silent_peer_is_closed_after_the_idle_timeout(server: dxp.DxpServer) -> None:
    stream = connect(server, timeout=10.0)
    began = time.monotonic()
    assert closed_by_peer(stream)
    assert 1.5 <= time.monotonic() - began < 8.0  # the fixture's 2 s idle timeout
    assert any("silent" in line for line in server.logged)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "garbage",
    [b"\xff\xfe\x00", b"Zzz\x00", b"M0000322800\x00", b"R01" + b" " * 32 + b"W090075Q\x00"],
)
def test_bad_input_closes_that_connection_and_the_server_goes_on(
    server: dxp.DxpServer, garbage: bytes
) -> None:
    stream = connect(server)
    stream.sock.sendall(garbage)
    assert closed_by_peer(stream)
    assert wait_until(lambda: not server.busy.locked())
    again = connect(server)
    again.send(dxp.game_request("again", True, 1, 0, None))
    assert dxp.parse_message(again.read() or "") == ("A", ("shashki", "0"))
    again.sock.close()


def test_an_illegal_move_or_a_bad_position_gets_no_game(server: dxp.DxpServer) -> None:
    stream = connect(server)
    bad = dxp.game_request("x", True, 1, 0, None)[:-1] + "BW" + "w" * 50
    stream.send(bad)
    assert dxp.parse_message(stream.read() or "") == ("A", ("shashki", "2"))  # not this game
    stream.send(dxp.game_request("x", False, 1, 0, None))  # we play Black: White moves
    assert dxp.parse_message(stream.read() or "") == ("A", ("shashki", "0"))
    stream.send("M0000322300")  # 32-23 is no move
    assert closed_by_peer(stream)
    assert any("illegal" in line for line in server.logged)  # type: ignore[attr-defined]


def test_takebacks_are_declined_and_chat_is_only_logged(server: dxp.DxpServer) -> None:
    stream = connect(server)
    stream.send("Chello there")
    stream.send("B001W")
    assert stream.read() == "K1"
    assert wait_until(
        lambda: any("hello there" in line for line in server.logged)  # type: ignore[attr-defined]
    )
    stream.sock.close()


def test_the_command_line_refuses_bad_addresses() -> None:
    import subprocess
    import sys

    for args in (["--listen", "nowhere"], ["--listen", "127.0.0.1:99999"], ["--hash", "0"]):
        proc = subprocess.run(
            [sys.executable, "-m", "shashki", "dxp", *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2, (args, proc.stderr)
        assert "Traceback" not in proc.stderr and "error" in proc.stderr
