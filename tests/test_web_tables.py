"""The web board with endgame tables (``shashki serve --tables DIR``): the state of a
position the tables hold carries their value, the engine plays by them, in every game whose
tables the directory holds; a directory that is not tables stops the server before it
announces anything."""

from __future__ import annotations

import subprocess
import sys

import pytest
import shashki
import shashki.egtb
import starlette  # noqa: F401  # the web extra, a test dependency
from web_server import request, running_server

GAMES = ("russian", "english", "giveaway", "brazilian", "canadian")


@pytest.fixture(scope="module")
def tables_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    directory = tmp_path_factory.mktemp("tables")
    for variant in GAMES:
        shashki.egtb.build(directory, pieces=3, variant=variant, progress=False)
    return str(directory)


@pytest.fixture(scope="module")
def client(tables_dir: str):
    with running_server(tables=tables_dir) as base:
        yield base


def state(client: str, fen: str, variant: str, moves: tuple[str, ...] = ()) -> dict:
    status, answer, _ = request(
        client, "/api/state", {"game": {"fen": fen, "variant": variant, "moves": list(moves)}}
    )
    assert status == 200, answer
    return answer


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("russian", "W:WK30:B20"),
        ("english", "B:WK1,K5:BK32"),
        ("giveaway", "W:WK30:B20,19"),
        ("brazilian", "B:W22:B5,K1"),
        ("canadian", "W:WK30:B20"),
    ],
)
def test_the_state_carries_the_tables_value(client, tables_dir, variant, fen) -> None:
    tables = shashki.egtb.open(tables_dir)
    board = shashki.Board(fen, variant=variant)
    expected = tables.probe(board)
    assert expected is not None
    answer = state(client, fen, variant)["tables"]
    assert (answer["wdl"], answer["plies"], answer["moves"]) == (
        expected.wdl,
        expected.plies,
        expected.moves,
    )
    assert answer["rules_wdl"] == expected.wdl  # a fresh game: no count runs yet
    best = tables.best_move(board)
    assert best is not None and answer["best"] == board.move_text(best)
    # The best move keeps the value: after it the other side has the opposite one.
    board.push(best)
    after = tables.probe(board)
    if after is not None:
        assert after.wdl == -expected.wdl


def test_no_tables_value_where_the_tables_do_not_hold_the_position(client) -> None:
    assert state(client, shashki.STARTING_FEN, "russian")["tables"] is None  # 24 pieces
    # A game the directory has no tables of.
    assert state(client, "W:WK30:B20", "pool")["tables"] is None
    # The game over: the side to move has no piece left after the capture.
    answer = state(client, "W:W22:B18", "russian", ("c3:e5",))
    assert answer["result"] != "*" and answer["tables"] is None


def test_without_tables_the_state_has_no_tables_field() -> None:
    with running_server() as base:
        status, answer, _ = request(base, "/api/state", {"game": {"fen": "W:WK30:B20"}})
    assert status == 200 and "tables" not in answer


@pytest.mark.parametrize(
    ("variant", "fen"), [("english", "B:WK1,K5:BK32"), ("russian", "W:WK30:B20")]
)
def test_the_engine_plays_by_the_tables(client, tables_dir, variant, fen) -> None:
    tables = shashki.egtb.open(tables_dir)
    before = tables.probe(shashki.Board(fen, variant=variant))
    assert before is not None and before.wdl != 0
    status, answer, _ = request(
        client,
        "/api/engine/move",
        {"game": {"fen": fen, "variant": variant}, "level": {"depth": 4}, "client": "t"},
    )
    assert status == 200, answer
    after = answer["state"]["tables"]
    # The engine keeps the tables' value and takes no longer than the tables' best line.
    assert after["wdl"] == -before.wdl
    assert after["plies"] == before.plies - 1


def test_a_page_cannot_name_the_tables(client, tables_dir) -> None:
    """The tables are the operator's: a request naming another directory (or a file) is
    not heard; the answer is the server's tables' value, and a body that is not a game is
    refused as before."""
    fen, variant = "W:WK30:B20", "russian"
    plain = state(client, fen, variant)["tables"]
    for extra in ({"tables": "/etc"}, {"egtb": "/nonexistent"}, {"tables": {"dir": ".."}}):
        status, answer, _ = request(
            client, "/api/state", {"game": {"fen": fen, "variant": variant}, **extra}
        )
        assert status == 200 and answer["tables"] == plain
    status, answer, _ = request(client, "/api/state", {"game": {"fen": "/etc/passwd"}})
    assert status == 400 and "error" in answer


def test_a_directory_that_is_not_tables_stops_the_server(tmp_path) -> None:
    (tmp_path / "KvK.egtb").write_bytes(b"not a table")
    for directory in (tmp_path, tmp_path / "missing"):
        done = subprocess.run(
            [sys.executable, "-m", "shashki", "serve", "--port", "1", "--tables", str(directory)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1
        assert "error" in done.stderr and "web board on" not in done.stdout
