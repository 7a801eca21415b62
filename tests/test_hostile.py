"""What hostile input used to break, one regression test a finding: each failed before its
fix (a panic across the FFI boundary, a lost game, a misread square, an exception of the
wrong kind) and must keep passing. The fuzzers that look for more are in test_fuzz.py."""

from __future__ import annotations

import io
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import shashki
from dxp_follower import running_follower
from hub_process import HubProcess
from shashki import pdn
from shashki.learn.batch import Boards
from shashki.protocols import dxp, hub

# ---- endgame tables: a damaged header never panics --------------------------------------

HEADER = 76  # magic 12, version 4, material 4, slots 8, block 4, sides 4, checksum 8, 2 × 16


@pytest.fixture(scope="module")
def three_piece_tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    from shashki import egtb

    directory = tmp_path_factory.mktemp("egtb-hostile")
    egtb.build(directory, pieces=3, progress=False)
    return {p.name: p.read_bytes() for p in directory.glob("*.egtb")}


def _damaged_dir(tmp_path: Path, name: str, data: bytes) -> Path:
    directory = tmp_path / "tables"
    directory.mkdir()
    (directory / name).write_bytes(data)
    return directory


@pytest.mark.parametrize(
    "material",
    [
        b"\x00\xff\x00\x02",  # 255 kings: the sum wrapped to 1 in a byte, then a panic
        b"\x01\xff\x01\x00",  # the same with men
        b"\xff\xff\xff\x7f",  # every count past the binomial table
        b"\x00\x08\x00\x01",  # KKKKKKKKvK: a possible balance, not the file's slots
        b"\x00\x21\x00\x00",  # 33 kings
        b"\x1d\x00\x00\x01",  # 29 white men: more than their 28 squares
    ],
)
def test_a_table_with_a_damaged_material_header_is_a_value_error(
    three_piece_tables: dict[str, bytes], tmp_path: Path, material: bytes
) -> None:
    from shashki import egtb

    data = bytearray(three_piece_tables["KKvK.egtb"])
    data[16:20] = material  # the header's material bytes (not under the payload checksum)
    directory = _damaged_dir(tmp_path, "KKvK.egtb", bytes(data))
    with pytest.raises(ValueError, match="KKvK.egtb"):
        egtb.open(directory)


def test_the_hub_survives_a_damaged_table(
    three_piece_tables: dict[str, bytes], tmp_path: Path
) -> None:
    data = bytearray(three_piece_tables["KKvK.egtb"])
    data[16:20] = b"\x00\xff\x00\x02"  # panicked: the process ended with a traceback
    directory = _damaged_dir(tmp_path, "KKKKKKKKvK.egtb", bytes(data))
    engine = HubProcess()
    try:
        engine.send(f"set-param name=egtb value={directory}", "ping")
        error = engine.wait_for("error")
        assert "cannot open the endgame tables" in error
        engine.wait_for("pong")
    finally:
        stderr = engine.close()
    assert "Traceback" not in stderr and "panic" not in stderr, stderr[-2000:]
    assert engine.proc.returncode == 0


# ---- Canadian FEN: the file k is a square, not a king ------------------------------------


def test_canadian_fen_reads_the_k_file_as_squares() -> None:
    board = shashki.Board("W:Wk1:Bb12", variant="canadian")
    assert board.fen() == "W:W72:B1"  # k1 is square 72, b12 square 1: two men
    men = shashki.Board("W:Wk5:Bb12", variant="canadian")
    assert men.piece_at(shashki.parse_square("k5", variant="canadian")) == shashki.Piece(
        True, False
    )
    king = shashki.Board("W:WKk5:Bb12", variant="canadian")
    assert king.piece_at(shashki.parse_square("k5", variant="canadian")) == shashki.Piece(
        True, True
    )
    assert shashki.Board("W:WK5:B1", variant="canadian").piece_at(
        shashki.square_from_number(5, variant="canadian")
    ) == shashki.Piece(True, True)


def test_canadian_algebraic_fen_reads_back() -> None:
    start = shashki.Board(variant="canadian")
    assert shashki.Board(start.fen(notation="algebraic"), variant="canadian").fen() == start.fen()
    set_up = shashki.Board("W:WKk5,k3,a1:Bk11,Kb12", variant="canadian")
    again = shashki.Board(set_up.fen(notation="algebraic"), variant="canadian")
    assert again.fen() == set_up.fen()
    game = shashki.Game(set_up.fen(), variant="canadian")
    game.push(game.board().legal_moves[0])
    text = pdn.write_game(game, notation="algebraic")
    read = pdn.read_game(io.StringIO(text))
    assert read is not None and read.board().fen() == game.board().fen()


# ---- PDN: an unclosed variation or comment costs one game, not the rest ------------------


def _games(count: int) -> list[str]:
    game = '[Event "game {}"]\n[Result "*"]\n\n1. c3-d4 f6-g5 2. b2-c3 *\n'
    return [game.format(i) for i in range(count)]


@pytest.mark.parametrize("opening", ["( f6-e5", "{ an open comment"])
def test_an_unclosed_variation_or_comment_loses_only_its_game(opening: str) -> None:
    games = _games(102)
    games[1] = games[1].replace("2. b2-c3", f"{opening} 2. b2-c3")
    read = []
    handle = io.StringIO("\n".join(games))
    while (game := pdn.read_game(handle, errors="collect")) is not None:
        read.append(game)
    assert len(read) == 102
    assert [g.headers["Event"] for g in read] == [f"game {i}" for i in range(102)]
    assert read[1].errors and not any(g.errors for g in read[:1] + read[2:])
    assert all(len(g.mainline_moves()) == 3 for g in read[2:])
    with pytest.raises(pdn.PdnError):  # the default still raises, the handle at the next
        pdn.read_game(io.StringIO("\n".join(games[1:3])))


def test_pdn_from_a_binary_handle_is_a_clear_type_error() -> None:
    with pytest.raises(TypeError, match="text handle, not a binary one"):
        pdn.read_game(io.BytesIO(b'[Event "x"]\n\n1. c3-d4 *\n'))


# ---- the batch API replays its own games in every game -----------------------------------


@pytest.mark.parametrize("variant", [c.name for c in shashki.games() if c.actions])
def test_a_batch_game_replays_as_a_board(variant: str) -> None:
    boards = Boards(6, variant=variant, seed=7)
    for _ in range(40):
        boards.step(boards.sample_actions())
    fens = boards.fens()
    for i in range(len(boards)):
        board = boards.board(i)
        assert board.fen() == shashki.Board(fens[i], variant=variant).fen()
    assert boards.board(-1).fen() == boards.board(len(boards) - 1).fen()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Boards(1, max_plies=-1), "max_plies"),
        (lambda: Boards(-1), "n must be"),
        (lambda: Boards(2**64), "n must be"),
        (lambda: shashki.Board().is_repetition(-1), "count"),
        (lambda: shashki.Board().is_repetition(2**64), "count"),
        (lambda: shashki.learn.batch.playouts(2, threads=-1), "threads"),
        (lambda: shashki.learn.batch.playouts(2, max_plies=2**70), "max_plies"),
        (lambda: shashki.learn.batch.search(["W:W21:B5"], depth=-2), "depth"),
        (lambda: shashki.learn.batch.search(["W:W21:B5"], nodes=2**64), "nodes"),
        (lambda: Boards(2, fens=["W:W29:B25,22"]).step([0, 0]), "cannot step"),
    ],
)
def test_bad_numbers_and_dead_starts_are_value_errors(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_a_batch_from_a_finished_position_observes_but_does_not_step() -> None:
    boards = Boards(2, fens=["W:W29:B25,22", "W:W21:B5"])
    assert boards.observation().shape == (2, *boards.observation_shape)
    assert not boards.legal_action_mask()[0].any() and boards.legal_action_mask()[1].any()
    before = boards.fens()
    with pytest.raises(ValueError, match="row 0's game cannot step"):
        boards.step(boards.sample_actions())
    assert boards.fens() == before


def test_a_batch_index_out_of_range_is_an_index_error() -> None:
    boards = Boards(2)
    for index in (2, -3, 2**64):
        with pytest.raises(IndexError):
            boards.board(index)


# ---- SVG: every board drawn as its game names it -----------------------------------------


@pytest.mark.parametrize("variant", shashki.VARIANTS)
def test_the_svg_board_draws_every_piece_of_every_game(variant: str) -> None:
    import shashki.svg

    board = shashki.Board(variant=variant)
    picture = shashki.svg.board(board)
    pieces = sum(1 for sq in range(shashki.SQUARE_COUNTS[variant]) if board.piece_at(sq))
    assert picture.count("<title>") == pieces
    n = shashki.BOARD_SIZES[variant]
    size = 2 * 20 + n * 45
    assert f'viewBox="0 0 {size} {size}"' in picture
    # Each piece's title names its own square, at that square's place on the board.
    for sq in range(shashki.SQUARE_COUNTS[variant]):
        if board.piece_at(sq):
            name = shashki.square_name(sq, variant=variant)
            file, rank = ord(name[0]) - ord("a"), int(name[1:]) - 1
            cx, cy = 20 + file * 45 + 22.5, 20 + (n - 1 - rank) * 45 + 22.5
            assert f'cx="{cx}" cy="{cy}"' in picture.split(f"<title>{name}</title>")[0][-200:]


# ---- the Hub: a refused pos changes nothing; errors never echo a long line ---------------


def test_a_refused_hub_position_leaves_the_game_as_it_was() -> None:
    out = io.StringIO()
    server = hub.HubServer(io.StringIO(""), out)
    board = shashki.Board(variant="international")
    good = hub.board_to_hub(board)
    server.handle("pos", {"pos": good})
    assert server.variant == "international"
    bad = shashki.Board()
    text = hub.board_to_hub(bad)
    with pytest.raises(ValueError):
        server.handle("pos", {"pos": text[:5] + "x" + text[6:]})  # a 32-square position
    assert server.variant == "international"
    assert server.board.fen() == board.fen()
    server.handle("pos", {"pos": text})
    assert server.variant == "russian"


def test_an_unknown_hub_command_is_not_echoed_whole() -> None:
    out = io.StringIO()
    long_line = "x" * 3_000_000
    hub.HubServer(io.StringIO(long_line + "\nping\n"), out).run()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("error") and len(lines[0]) <= hub.MAX_ERROR + 20
    assert lines[1] == "pong"


# ---- DXP: a peer that asks for a game and leaves frees the follower at once --------------


@pytest.fixture
def slow_follower() -> Iterator[dxp.DxpServer]:
    # A long move (30 s): the follower must not sit it out for a peer that has left.
    with running_follower(idle_timeout=30.0, max_move_seconds=30.0) as srv:
        yield srv


def test_a_peer_that_leaves_during_our_move_frees_the_follower(
    slow_follower: dxp.DxpServer,
) -> None:
    for attempt in range(3):  # the 44-byte request, repeated
        sock = socket.create_connection(slow_follower.address, timeout=5)
        stream = dxp.MessageStream(sock, 5)
        stream.send(dxp.game_request("hostile", True, 60, 0, None))  # we play White: we think
        assert dxp.parse_message(stream.read() or "") == ("A", ("shashki", "0"))
        time.sleep(0.2)  # the follower is thinking now
        sock.close()
        began = time.monotonic()
        while slow_follower.busy.locked() and time.monotonic() - began < 10:
            time.sleep(0.01)
        assert not slow_follower.busy.locked(), f"still busy after attempt {attempt}"
        assert time.monotonic() - began < 5  # not the 30 s move
    assert any("left" in line for line in slow_follower.logged)  # type: ignore[attr-defined]
