"""Perft split over worker processes and over a real Dask cluster (a scheduler and two
worker processes started here, on 127.0.0.1): exact counts in both conventions, a worker
killed mid-run, a checkpointed run interrupted and resumed."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from pathlib import Path

import pytest
import shashki
from conftest import perft_lines
from shashki import distributed
from system import interrupted, too_large_mb

LINES = [line for line in perft_lines() if 50_000 <= line.nodes <= 3_000_000][:6]


def test_split_keeps_every_path() -> None:
    board = shashki.Board()
    for plies in range(5):
        for distinct in (True, False):
            parts = distributed.split(board, plies, distinct=distinct)
            assert sum(parts.values()) == shashki.perft(board, plies, distinct=distinct)
    # Transpositions merge: fewer positions than paths.
    parts = distributed.split(board, 4)
    assert len(parts) < sum(parts.values())


def test_local_worker_processes() -> None:
    board = shashki.Board()
    assert distributed.perft(board, 11, workers=2, hash_mb=16) == 110_917_189
    assert distributed.perft(board, 11, distinct=False, workers=2, hash_mb=16) == 110_961_169
    for line in LINES:
        got = distributed.perft(
            shashki.Board(line.fen), line.depth, distinct=line.distinct, workers=2, split_depth=2
        )
        assert got == line.nodes, line


@pytest.fixture(scope="module")
def dask_client():
    import distributed as dask_distributed

    cluster = dask_distributed.LocalCluster(
        host="127.0.0.1",
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=50,
    )
    client = dask_distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_dask_cluster_counts_exactly(dask_client) -> None:
    board = shashki.Board()
    assert distributed.perft(board, 11, executor=dask_client, hash_mb=16) == 110_917_189
    assert (
        distributed.perft(board, 11, distinct=False, executor=dask_client, hash_mb=16)
        == 110_961_169
    )
    for line in LINES[:3]:
        got = distributed.perft(
            shashki.Board(line.fen), line.depth, distinct=line.distinct, executor=dask_client
        )
        assert got == line.nodes, line


def test_training_data_over_the_dask_cluster(dask_client, tmp_path: Path) -> None:
    """``python -m shashki.learn.train selfplay/label --scheduler``: the same files as on one
    machine (the batch playouts and searches are reproducible whatever runs them)."""
    import numpy  # noqa: F401  # the training extra
    from shashki.learn import train

    address = dask_client.scheduler.address
    here, there = tmp_path / "here.txt", tmp_path / "there.txt"
    assert train.selfplay(7, 300, str(here), seed=4, workers=1) > 20
    common = ["--games", "7", "--nodes", "300", "--seed", "4"]
    assert train.main(["selfplay", *common, "--out", str(there), "--scheduler", address]) == 0
    assert there.read_text(encoding="utf-8") == here.read_text(encoding="utf-8")
    labels_here, labels_there = tmp_path / "lh.txt", tmp_path / "lt.txt"
    assert train.label(str(here), str(labels_here), 3, workers=2, chunk=50) > 20
    assert (
        train.main(
            ["label", str(here), "--depth", "3", "--out", str(labels_there)]
            + ["--scheduler", address]
        )
        == 0
    )
    assert labels_there.read_text(encoding="utf-8") == labels_here.read_text(encoding="utf-8")


def test_a_worker_killed_mid_run(dask_client) -> None:
    pids = dask_client.run(os.getpid)  # worker address -> its process
    box: dict[str, int] = {}
    thread = threading.Thread(
        target=lambda: box.update(
            leaves=distributed.perft(
                shashki.Board(), 12, executor=dask_client, hash_mb=8, batch_size=8
            )
        )
    )
    thread.start()
    time.sleep(2.0)
    # One worker process is killed (its nanny starts another); its tasks run again.
    os.kill(next(iter(pids.values())), signal.SIGKILL)
    thread.join(timeout=600)
    assert box.get("leaves") == 544_770_444


class StopAfter(Executor):
    """An executor that runs a few tasks, then fails: a run cut short."""

    def __init__(self, tasks: int) -> None:
        self.left = tasks
        self.inner = ThreadPoolExecutor(2)

    def submit(self, fn, /, *args, **kwargs) -> Future:
        if self.left <= 0:
            raise KeyboardInterrupt
        self.left -= 1
        return self.inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, **kwargs) -> None:
        self.inner.shutdown(wait=wait)


def test_an_interrupted_checkpointed_run_resumes(tmp_path: Path) -> None:
    path = tmp_path / "perft.ckpt"
    board = shashki.Board()
    with pytest.raises(KeyboardInterrupt):
        distributed.perft(
            board, 10, split_depth=4, executor=StopAfter(10), batch_size=16, checkpoint=str(path)
        )
    lines = path.read_text(encoding="utf-8").splitlines()
    header, records = json.loads(lines[0]), lines[1:]
    assert header["depth"] == 10 and 1 <= len(records) <= 10
    with ThreadPoolExecutor(2) as pool:
        leaves = distributed.perft(
            board, 10, split_depth=4, executor=pool, batch_size=16, checkpoint=str(path)
        )
    assert leaves == 22_444_032
    with pytest.raises(ValueError, match="another run"):
        distributed.perft(board, 9, split_depth=4, checkpoint=str(path))


def test_worker_processes_share_one_table(tmp_path: Path) -> None:
    from concurrent.futures import ProcessPoolExecutor

    path = str(tmp_path / "table")
    fens = sorted(distributed.split(shashki.Board(), 3))
    mine = shashki._core.PerftTable(4, shared=path)
    assert os.path.getsize(path) == 4 << 20
    assert not any(Path(path).read_bytes()), "a new shared table is empty"
    with ProcessPoolExecutor(1) as pool:
        counts = pool.submit(
            distributed.count_batch, fens, 5, True, 4, 0, "russian", False, path
        ).result()
    # What the other process counted is in the file this process maps.
    assert any(Path(path).read_bytes())
    assert shashki._core.perft_many(fens, 5, table=mine) == counts
    assert counts == shashki._core.perft_many(fens, 5)
    with pytest.raises(OSError, match="table"):
        shashki._core.PerftTable(8, shared=path)  # another size: refused, named
    distributed.release_table(path)
    assert not os.path.exists(path)


@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="tables are shared in /dev/shm")
def test_shared_tables_are_removed_after_a_run(dask_client) -> None:
    mine = f"/dev/shm/shashki-perft-{os.getpid()}-*"
    board = shashki.Board()
    assert distributed.perft(board, 9, workers=2, hash_mb=4) == 4_570_586
    assert distributed.perft(board, 9, executor=dask_client, hash_mb=4) == 4_570_586
    assert list(Path("/").glob(mine[1:])) == []
    # The workers keep no table of a finished run.
    assert all(dask_client.run(lambda: len(distributed._TABLES) == 0).values())


@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="tables are shared in /dev/shm")
def test_a_task_that_starts_after_its_run_ended_makes_no_shared_table() -> None:
    # A straggler (a task of a cancelled run that a worker starts after the run removed
    # its table) counts in a table of its own and leaves no file in memory behind.
    path = f"/dev/shm/shashki-perft-{os.getpid()}-straggler"
    fens = sorted(distributed.split(shashki.Board(), 2))
    distributed.release_table(path)
    counts = distributed.count_batch(fens, 4, True, 4, 0, "russian", False, path)
    assert counts == shashki._core.perft_many(fens, 4)
    assert not os.path.exists(path)
    assert not any(key[3] == path for key in distributed._TABLES)


def test_threads_of_this_process_resume_a_checkpointed_run(tmp_path: Path) -> None:
    path = tmp_path / "perft.ckpt"
    board = shashki.Board()
    # A first run stopped after a few batches (the checkpoint then holds their counts).
    with pytest.raises(KeyboardInterrupt):
        distributed.perft(
            board, 10, split_depth=4, executor=StopAfter(8), batch_size=16, checkpoint=str(path)
        )
    recorded = len(path.read_text(encoding="utf-8").splitlines()) - 1
    assert 1 <= recorded <= 8
    leaves = distributed.perft(
        board, 10, split_depth=4, threads=2, batch_size=16, checkpoint=str(path), hash_mb=4
    )
    assert leaves == 22_444_032
    assert not distributed._TABLES, "the table is let go when the count ends"
    with pytest.raises(ValueError, match="threads"):
        distributed.perft(board, 6, threads=0)


def test_the_command_line_checkpoints_with_threads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from shashki.apps.cli import main

    path = tmp_path / "perft.ckpt"
    assert main(["perft", "9", "--checkpoint", str(path), "--threads", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["leaves"] == 4_570_586
    assert len(path.read_text(encoding="utf-8").splitlines()) > 1
    assert main(["perft", "9", "--checkpoint", str(path), "--threads", "0"]) == 2


def test_ctrl_c_stops_a_checkpointed_run_of_threads_at_once(tmp_path: Path) -> None:
    path = tmp_path / "perft.ckpt"
    out, seconds = interrupted(
        f"""
        import shashki
        from shashki import distributed
        print("started", flush=True)
        try:
            distributed.perft(shashki.Board(), 16, threads=2, hash_mb=16, checkpoint={str(path)!r})
        except KeyboardInterrupt:
            print("interrupted", distributed._TABLES, flush=True)
        """,
        delay=1.0,
    )
    # Perft 16 takes minutes: the running batches are cancelled, not waited for.
    assert "interrupted {}" in out, out
    assert seconds < 10
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert header["depth"] == 16


def test_a_table_larger_than_the_memory_is_an_error_at_once() -> None:
    started = time.monotonic()
    with pytest.raises(MemoryError, match="cannot allocate"):
        distributed.perft(shashki.Board(), 8, threads=2, hash_mb=too_large_mb(), split_depth=3)
    assert time.monotonic() - started < 10  # not retried batch after batch
