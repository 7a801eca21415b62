"""Endgame tables from Python: build, open, probe, best moves, the draw rules' limits, the
command line, the engine; and an independent check: the pure-Python reference rules with a
plain recursive solver (no code shared with the Rust builder) on random positions."""

from __future__ import annotations

import functools
import random
import subprocess
import sys
from pathlib import Path

import pytest
import shashki
import shashki.draw
from shashki import egtb, reference
from shashki.engine import Engine, Limit
from strategies import fen_from_cells


@pytest.fixture(scope="module")
def tables_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("egtb")
    names = egtb.build(directory, pieces=4, progress=False)
    assert len(names) == 41 and "KKKvK" in names
    return directory


@pytest.fixture(scope="module")
def tables(tables_dir: Path) -> egtb.EndgameTables:
    return egtb.open(tables_dir)


# ---- an independent solver ------------------------------------------------------------------


@functools.cache
def wins_within(fen: str, plies: int) -> bool:
    """Whether the side to move can force a win within ``plies`` plies (reference rules)."""
    if plies <= 0:
        return False
    state = reference.parse_fen(fen)
    for move in reference.distinct_moves(state):
        child = reference.write_fen(reference.apply(state, move))
        if loses_within(child, plies - 1):
            return True
    return False


@functools.cache
def loses_within(fen: str, plies: int) -> bool:
    """Whether the side to move loses by force within ``plies`` plies (reference rules)."""
    state = reference.parse_fen(fen)
    moves = reference.distinct_moves(state)
    if not moves:
        return True  # no piece or no move: lost now
    if plies <= 0:
        return False
    return all(
        wins_within(reference.write_fen(reference.apply(state, m)), plies - 1) for m in moves
    )


def random_fens(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        cells = [0] * 32
        pieces = rng.randint(2, 4)
        for square in rng.sample(range(32), pieces):
            cells[square] = rng.choice([1, 2, 3, 4])
        fen = fen_from_cells(cells, rng.random() < 0.5)
        if ":W:" in fen or fen.endswith(":B"):
            continue  # a side without pieces
        fens.append(fen)
    return fens


def test_values_agree_with_an_independent_recursive_solver(tables: egtb.EndgameTables) -> None:
    horizon = 7  # plies the plain solver looks ahead
    checked = {"win": 0, "loss": 0, "beyond": 0}
    for fen in random_fens(300, seed=11):
        board = shashki.Board(fen)
        value = tables.probe(board)
        assert value is not None, fen
        if value.wdl > 0:
            if value.plies <= horizon:
                assert wins_within(fen, value.plies), fen
                assert not wins_within(fen, value.plies - 2), fen
                checked["win"] += 1
            else:
                assert not wins_within(fen, horizon), fen
                checked["beyond"] += 1
        elif value.wdl < 0:
            if value.plies <= horizon:
                assert loses_within(fen, value.plies), fen
                assert value.plies == 0 or not loses_within(fen, value.plies - 2), fen
                checked["loss"] += 1
            else:
                assert not loses_within(fen, horizon - 1), fen
                checked["beyond"] += 1
        else:  # a draw: no forced result within the horizon either way
            assert not wins_within(fen, horizon) and not loses_within(fen, horizon - 1), fen
    assert checked["win"] > 20 and checked["loss"] > 10, checked


# ---- probing ---------------------------------------------------------------------------------


def test_probes(tables: egtb.EndgameTables) -> None:
    assert tables.max_pieces == 4 and len(tables.materials()) == 41
    three = shashki.Board("W:WK30,K31,K32:BK1")  # three kings against one off the main road
    assert tables.probe_wdl(three) == 1 and 0 < tables.probe_dtw(three) <= 15
    assert tables.probe_wdl(three.mirror()) == 1  # the same, Black to move with three kings
    road = shashki.Board("W:WK30,K31,K32:BK29")  # the lone king holds the main road
    assert tables.probe_wdl(road) == 0 and tables.probe_dtw(road) == 0
    lost = three.copy()
    lost.push(tables.best_move(three))
    assert tables.probe_wdl(lost) == -1
    assert tables.probe_dtw(lost) == -tables.probe_dtw(three) + 1
    assert tables.probe(shashki.Board()) is None  # 24 pieces: not held
    assert tables.best_move(shashki.Board()) is None


def test_best_moves_win_as_fast_as_the_tables_say(tables: egtb.EndgameTables) -> None:
    board = shashki.Board("W:WK30,K31,K32:BK1")
    plies = tables.probe(board).plies
    for _ in range(plies):
        board.push(tables.best_move(board))
    assert not board.legal_moves  # the lone king is gone
    assert len(board.move_stack) == plies


def test_draw_rules_limit_the_wins(tables: egtb.EndgameTables) -> None:
    # Three kings against one: a win in 10 moves, but 7.2.4 allows 15 from when the
    # balance arose. After 12 moves spent shuffling, the win no longer fits.
    board = shashki.Board("W:WK30,K31,K32:BK1")
    rules = shashki.draw.FMJD64
    assert tables.probe_wdl(board, draw_rules=rules) == 1
    shuffle = ["c1-d2", "b8-a7", "d2-c1", "a7-b8"]
    for i in range(24):
        board.push(board.parse_move(shuffle[i % 4]))
    assert tables.probe_wdl(board) == 1
    assert tables.probe_wdl(board, draw_rules=rules) == 0
    assert tables.probe_wdl(board, draw_rules=shashki.draw.NO_DRAWS) == 1


# ---- the command line and the engine ---------------------------------------------------------


def test_command_line_build_and_probe(tmp_path: Path, tables_dir: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "shashki", "egtb", "build", str(tmp_path), "--pieces", "3"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(list(tmp_path.glob("*.egtb"))) == 9  # one file a mirror pair
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "shashki",
            "egtb",
            "probe",
            "W:WK30,K31,K32:BK1",
            "--dir",
            str(tables_dir),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "win" in proc.stdout and "best move" in proc.stdout


def test_resumable_and_byte_identical(tmp_path: Path, tables_dir: Path) -> None:
    egtb.build(tmp_path, pieces=3, progress=False)
    first = {p.name: p.read_bytes() for p in tmp_path.glob("*.egtb")}
    (tmp_path / "KKvK.egtb").unlink()  # as if interrupted
    egtb.build(tmp_path, pieces=3, progress=False)
    again = {p.name: p.read_bytes() for p in tmp_path.glob("*.egtb")}
    assert again == first
    assert all(first[name] == (tables_dir / name).read_bytes() for name in first)


def test_the_engine_plays_table_positions_perfectly(tables_dir: Path) -> None:
    with Engine(hash_mb=8, tables=tables_dir) as engine:
        board = shashki.Board("W:WK30,K31,K32:BK1")
        info = engine.analyse(board, Limit(depth=2))
        assert info["score"].relative.win == egtb.open(tables_dir).probe_dtw(board)
        result = engine.play(shashki.Board("W:WK30:B20"), Limit(depth=1))
        assert result.move is not None
    with pytest.raises(OSError):
        Engine(hash_mb=1, tables=tables_dir / "missing")


def test_the_hub_engine_takes_the_tables(tables_dir: Path) -> None:
    from hub_process import HubProcess
    from shashki.protocols import hub

    board = shashki.Board("W:WK30,K31,K32:BK1")
    engine = HubProcess()
    try:
        engine.send("hub", f"set-param name=egtb value={tables_dir}", "init")
        engine.wait_for("ready")
        engine.send(f"pos pos={hub.board_to_hub(board)}", "level depth=1", "go think")
        done = engine.wait_for("done move=", timeout=60)
        engine.send("set-param name=egtb value=/nonexistent/tables")
        assert "cannot open the endgame tables" in engine.wait_for("error")
        engine.send("ping")
        engine.wait_for("pong")
    finally:
        stderr = engine.close()
    move = hub.move_from_hub(board, done.split("move=")[1].split()[0])
    child = board.copy()
    child.push(move)
    tables = egtb.open(tables_dir)
    assert tables.probe_dtw(child) == -tables.probe_dtw(board) + 1  # a quickest win
    assert "Traceback" not in stderr


def four_piece_boards(count: int, seed: int) -> list[shashki.Board]:
    """Random positions of two pieces a side (men only where a man may stand)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        squares = rng.sample(range(1, 33), 4)
        pieces = [
            ("K" if rng.random() < 0.5 or not 5 <= sq <= 28 else "") + str(sq) for sq in squares
        ]
        fen = f"{rng.choice('WB')}:W{','.join(pieces[:2])}:B{','.join(pieces[2:])}"
        boards.append(shashki.Board(fen))
    return boards


def test_unpacked_blocks_stay_within_the_bound(tables_dir: Path) -> None:
    tables = egtb.open(tables_dir, unpack_pieces=0)  # every block unpacked as probed
    assert tables.unpacked_bytes == 0
    rng = random.Random(5)
    boards = four_piece_boards(3000, seed=5)
    egtb.set_cache_mb(256)
    expected = [tables.probe(board) for board in boards]
    assert egtb.cache_usage()[0] > 1 << 20, "these probes unpack more than 1 MiB"
    try:
        egtb.set_cache_mb(1)
        rng.shuffle(order := list(range(len(boards))))
        for i in order:
            assert tables.probe(boards[i]) == expected[i]
            resident, limit = egtb.cache_usage()
            assert resident <= limit == 1 << 20
    finally:
        egtb.set_cache_mb(256)
    with pytest.raises(ValueError, match="limit_mb"):
        shashki._core.endgame_block_cache(0)


def test_tables_unpacked_at_open_probe_the_same_outside_the_cache(tables_dir: Path) -> None:
    packed = egtb.open(tables_dir, unpack_pieces=0)
    three = egtb.open(tables_dir, unpack_pieces=3)
    whole = egtb.open(tables_dir)  # egtb.UNPACK_PIECES: every table here (≤ 4 pieces)
    assert egtb.UNPACK_PIECES >= 4
    assert packed.unpacked_bytes == 0 < three.unpacked_bytes < whole.unpacked_bytes
    boards = four_piece_boards(500, seed=11) + [shashki.Board("W:WK30:B20")]
    resident = egtb.cache_usage()[0]
    found = [whole.probe(board) for board in boards]
    assert egtb.cache_usage()[0] == resident  # no block unpacked for them
    assert found == [packed.probe(board) for board in boards]
    assert [whole.best_move(b) for b in boards[:50]] == [packed.best_move(b) for b in boards[:50]]
    for bad in (-1, 33, "5"):
        with pytest.raises((ValueError, TypeError), match="unpack_pieces"):
            egtb.open(tables_dir, unpack_pieces=bad)  # type: ignore[arg-type]
