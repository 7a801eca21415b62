"""Perft through Python against the published figures (tests/data/perft.txt)."""

from __future__ import annotations

import pytest
import shashki
from conftest import perft_lines
from system import interrupted, too_large_mb

CI_NODE_LIMIT = 30_000_000
LINES = perft_lines()


def _id(line) -> str:
    return f"{line.id}-{'A' if line.distinct else 'B'}{line.depth}"


@pytest.mark.parametrize("line", [x for x in LINES if x.nodes <= CI_NODE_LIMIT], ids=_id)
def test_perft_matches_published_figures(line) -> None:
    board = shashki.Board(line.fen)
    assert shashki.perft(board, line.depth, distinct=line.distinct) == line.nodes


@pytest.mark.slow
@pytest.mark.parametrize("line", [x for x in LINES if x.nodes > CI_NODE_LIMIT], ids=_id)
def test_perft_deep(line) -> None:
    board = shashki.Board(line.fen)
    # The deepest lines (A 19: half an hour on 2 cores) want a larger table.
    hash_mb = 1024 if line.nodes < 10**12 else 8192
    assert (
        shashki.perft(board, line.depth, distinct=line.distinct, threads=2, hash_mb=hash_mb)
        == line.nodes
    )


def test_start_position_depth_10_both_conventions_with_threads_and_hash() -> None:
    board = shashki.Board()
    assert shashki.perft(board, 10, threads=2) == 22444032
    assert shashki.perft(board, 10, distinct=False, hash_mb=64) == 22450628


def test_divide_sums_to_perft_and_names_moves() -> None:
    board = shashki.Board("W:WK29,22,23,27:B6,7,14,15,19,K4")
    divide = shashki.perft_divide(board, 4)
    assert sum(divide.values()) == 220
    assert set(divide) == {str(m) for m in board.legal_moves}
    orders = shashki.perft_divide(shashki.Board(), 8, distinct=False)
    assert sum(orders.values()) == 929905


def test_perft_depth_zero_and_one() -> None:
    assert shashki.perft(shashki.Board(), 0) == 1
    assert shashki.perft(shashki.Board(), 1) == 7
    assert shashki.perft_divide(shashki.Board(), 1) == {
        str(m): 1 for m in shashki.Board().legal_moves
    }


@pytest.mark.parametrize(
    "kwargs", [{"threads": 0}, {"threads": -1}, {"hash_mb": -5}, {"hash_mb": 10**9}]
)
def test_bad_options_raise_value_error(kwargs) -> None:
    with pytest.raises(ValueError):
        shashki.perft(shashki.Board(), 3, **kwargs)


@pytest.mark.parametrize("depth", [-1, 64, 10**20])
def test_bad_depth_raises_value_error(depth) -> None:
    with pytest.raises((ValueError, OverflowError)):
        shashki.perft(shashki.Board(), depth)


# ---- moved here from the reliability and parity suites (by concept) ----


def test_perft_table_too_large_is_a_memory_error() -> None:
    board = shashki.Board()
    with pytest.raises(MemoryError):
        shashki.perft(board, 3, hash_mb=too_large_mb())
    with pytest.raises(MemoryError):
        shashki.perft_divide(board, 3, hash_mb=too_large_mb())
    assert shashki.perft(board, 3, hash_mb=1) == 302


def test_ctrl_c_interrupts_perft_and_leaves_the_board_usable() -> None:
    out, seconds = interrupted(
        """
        import shashki
        board = shashki.Board()
        for call in (shashki.perft, shashki.perft_divide):
            print("started", flush=True)
            try:
                call(board, 14, threads=2)
            except KeyboardInterrupt:
                print("interrupted", shashki.perft(board, 4), flush=True)
            if call is shashki.perft:
                import os, signal, threading, time
                threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        """
    )
    assert out.count("interrupted 1469") == 2, out
    assert seconds < 20  # perft 14 takes minutes
