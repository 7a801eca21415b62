"""Perft beyond one process: local worker processes, or a Dask cluster.

The tree is split ``split_depth`` plies below the root; transpositions are merged into
unique positions with multiplicities (the number of move sequences reaching each, counted
by the convention: distinct moves, or capture orders for convention B); batches of
positions go to workers, which run the hashed Rust perft (``_core.perft_many``; each worker
keeps its table, 128-bit keys, from batch to batch, and the workers of one machine share one
table in memory, ``/dev/shm``); the counts times the multiplicities are summed exactly.

>>> import shashki, shashki.distributed
>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(2) as pool:
...     shashki.distributed.perft(shashki.Board(), 8, split_depth=3, executor=pool)
929899

``executor``: any ``concurrent.futures.Executor`` or a Dask ``distributed.Client`` (its
``get_executor()`` is used: tasks of a lost worker are recomputed by Dask); by default a
pool of local worker processes, one per core. ``checkpoint``: a file recording the finished
sub-positions, so that a long run survives a restart and resumes where it was.
``progress``: a progress bar on stderr (sub-positions done, leaves so far, time left).

The CLI: ``shashki perft 17 --workers 2`` (local), ``shashki perft 18 --scheduler
tcp://HOST:8786`` (a running Dask scheduler; ``pip install "shashki[distributed]"`` there,
and ``dask worker tcp://HOST:8786`` on each machine with shashki installed).
"""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool

from shashki import Board, _core, perft_divide

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

__all__ = ["perft", "split", "count_batch", "release_table"]


def split(board: Board, plies: int, *, distinct: bool = True) -> dict[str, int]:
    """The positions ``plies`` below ``board``, as FEN → the number of move sequences
    (distinct moves, or capture orders with ``distinct=False``) that reach each."""
    frontier = {board.fen(): 1}
    for _ in range(plies):
        following: dict[str, int] = {}
        for fen, paths in frontier.items():
            position = Board(fen, variant=board.variant, captures_optional=board.captures_optional)
            if distinct:
                children = [(move, 1) for move in position.legal_moves]
            else:
                # Every capture order of a move is a path of its own (convention B).
                orders = perft_divide(position, 1, distinct=False)
                children = [(position.parse_move(text), n) for text, n in orders.items()]
            for move, count in children:
                position.push(move)
                key = position.fen()
                following[key] = following.get(key, 0) + paths * count
                position.pop()
        frontier = following
    return frontier


_TABLES: dict[tuple[int, int, bool, Optional[str]], _core.PerftTable] = {}
_TABLES_LOCK = threading.Lock()  # threads of one process make their one table once
# Shared tables' files this process was told to remove: a task that starts after its run
# ended (a straggler of a cancelled run) must not make one again.
_RELEASED: set[str] = set()


def count_batch(
    fens: list[str],
    depth: int,
    distinct: bool,
    hash_mb: int,
    key_seed: int,
    variant: str = "russian",
    captures_optional: bool = False,
    shared: Optional[str] = None,
) -> list[int]:
    """The work of one task: perft of each position. The worker keeps its hash table from
    batch to batch (one table a process), so subtrees batches share are counted once (the
    table's keys include the rules, so batches of several variants can share it). With
    ``shared`` (a file in memory, ``/dev/shm/…``), the worker processes of one machine map
    one table between them, as the threads of one process share theirs; a worker that cannot
    map it keeps a table of its own."""
    key = (hash_mb, key_seed, distinct, shared)
    with _TABLES_LOCK:
        table = _TABLES.get(key)
        if shared is not None and shared in _RELEASED:
            # Its run has ended: a table of its own for this task only, no file made again.
            table = _core.PerftTable(hash_mb, distinct=distinct, key_seed=key_seed)
        elif table is None:
            _TABLES.clear()
            try:
                table = _core.PerftTable(
                    hash_mb, distinct=distinct, key_seed=key_seed, shared=shared
                )
            except OSError:
                table = _core.PerftTable(hash_mb, distinct=distinct, key_seed=key_seed)
            _TABLES[key] = table
    return _core.perft_many(
        fens,
        depth,
        distinct=distinct,
        threads=1,
        table=table,
        variant=variant,
        captures_optional=captures_optional,
    )


def release_table(shared: str) -> None:
    """Forget the table mapped from ``shared`` and remove its file (run on every worker when
    a count ends, so no memory stays taken); a task of that run that starts later counts in
    a table of its own and does not make the file again."""
    with _TABLES_LOCK:
        _RELEASED.add(shared)
        for key in [key for key in _TABLES if key[3] == shared]:
            del _TABLES[key]
    try:
        os.unlink(shared)
    except OSError:
        pass


def _shared_table_path() -> Optional[str]:
    """A fresh file name in memory for the table the workers of this run share, or None
    where there is no ``/dev/shm``."""
    if not os.path.isdir("/dev/shm"):
        return None
    return f"/dev/shm/shashki-perft-{os.getpid()}-{os.urandom(6).hex()}"


def map_jobs(function: Callable[[Any], Any], jobs: list[Any], executor: object) -> Any:
    """``function`` over ``jobs`` in order: here (``executor`` None), or on ``executor`` (an
    ``Executor`` or a Dask ``Client``): how the training commands spread their work."""
    if executor is None:
        return map(function, jobs)
    return _executor_of(executor).map(function, jobs)


def _executor_of(executor: object) -> Executor:
    get_executor = getattr(executor, "get_executor", None)  # a Dask Client
    if callable(get_executor):
        return get_executor()  # type: ignore[no-any-return]
    if not isinstance(executor, Executor):
        raise TypeError(f"executor must be an Executor or a Dask Client, not {executor!r}")
    return executor


class _Checkpoint:
    """The finished sub-positions of a run: a header line, then one JSON line a batch."""

    def __init__(self, path: str, header: dict[str, object]) -> None:
        self.path = path
        self.done: dict[str, int] = {}
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
            if lines:
                if json.loads(lines[0]) != header:
                    raise ValueError(
                        f"checkpoint {path} belongs to another run: {lines[0]} (this one: "
                        f"{json.dumps(header)})"
                    )
                for line in lines[1:]:
                    try:
                        record = json.loads(line)
                    except json.JSONDecodeError:
                        break  # a line cut short when the run stopped
                    self.done.update(zip(record["fens"], record["counts"]))
        self.handle = open(path, "a", encoding="utf-8")  # noqa: SIM115
        if not self.done and self.handle.tell() == 0:
            self.handle.write(json.dumps(header) + "\n")
            self.handle.flush()

    def record(self, fens: list[str], counts: list[int]) -> None:
        self.handle.write(json.dumps({"fens": fens, "counts": counts}) + "\n")
        self.handle.flush()
        os.fsync(self.handle.fileno())

    def close(self) -> None:
        self.handle.close()


def perft(
    board: Board,
    depth: int,
    *,
    distinct: bool = True,
    split_depth: Optional[int] = None,
    executor: object = None,
    workers: Optional[int] = None,
    hash_mb: int = 64,
    key_seed: int = 0,
    batch_size: int = 64,
    checkpoint: Optional[str] = None,
    progress: bool = False,
    share_tables: bool = True,
    threads: Optional[int] = None,
) -> int:
    """Leaves ``depth`` plies below ``board``, counted by workers (see the module docs).
    ``split_depth`` (default: enough plies for a few thousand sub-positions, at most
    ``depth - 2``); ``hash_mb`` and ``key_seed`` go to the workers' tables. With
    ``share_tables`` (the local pool and Dask clients), the workers of one machine share one
    table of ``hash_mb`` in memory (``/dev/shm``) instead of one each. With ``threads``
    (and no ``executor`` or ``workers``), the sub-positions are counted by that many threads
    of this process sharing one table in its own memory (with huge pages where the kernel
    gives them): the fastest way to run a checkpointed count on one machine."""
    if not 0 <= depth <= 63:
        raise ValueError(f"depth must be between 0 and 63, not {depth}")
    if split_depth is None:
        split_depth = max(0, min(depth - 2, 5))
    if not 0 <= split_depth <= depth:
        raise ValueError(f"split_depth must be between 0 and depth, not {split_depth}")
    from shashki._progress import Progress

    parts = split(board, split_depth, distinct=distinct)
    remaining_depth = depth - split_depth
    header = {
        "fen": board.fen(),
        "depth": depth,
        "distinct": distinct,
        "split_depth": split_depth,
    }
    if board.variant != "russian" or board.captures_optional:
        header["variant"] = board.variant
        header["captures_optional"] = board.captures_optional
    saved = _Checkpoint(checkpoint, header) if checkpoint else None
    done: dict[str, int] = dict(saved.done) if saved else {}
    todo = sorted(fen for fen in parts if fen not in done)
    batches = [todo[i : i + batch_size] for i in range(0, len(todo), batch_size)]
    if threads is not None and threads < 1:
        raise ValueError(f"threads must be positive, not {threads}")
    in_process = threads is not None and executor is None and workers is None
    if in_process:
        executor = ThreadPoolExecutor(threads)
    own = executor is None
    is_dask = callable(getattr(executor, "get_executor", None))
    shared = _shared_table_path() if share_tables and (own or is_dask) else None
    pool: Optional[ProcessPoolExecutor] = (
        ProcessPoolExecutor(workers or os.cpu_count() or 1) if executor is None else None
    )
    runner: Executor = pool if pool is not None else _executor_of(executor)
    leaves = sum(parts[fen] * count for fen, count in done.items() if fen in parts)
    finished = len(done)
    shown = Progress(len(parts), "sub-positions", enabled=progress, already=finished)
    pending: dict[Future[list[int]], list[str]] = {}
    queue = list(reversed(batches))  # batches to (re)submit, next last
    failures = 0
    in_flight = 2 * (workers or os.cpu_count() or 1) + 2
    try:
        while queue or pending:
            while queue and len(pending) < in_flight:
                fens = queue.pop()
                try:
                    future = runner.submit(
                        count_batch,
                        fens,
                        remaining_depth,
                        distinct,
                        hash_mb,
                        key_seed,
                        board.variant,
                        board.captures_optional,
                        shared,
                    )
                except BrokenProcessPool:
                    if pool is None:
                        raise
                    # A local worker died: a new pool, and its batches again.
                    queue.append(fens)
                    queue.extend(pending.values())
                    pending.clear()
                    pool.shutdown(wait=False, cancel_futures=True)
                    pool = runner = ProcessPoolExecutor(workers or os.cpu_count() or 1)
                    continue
                pending[future] = fens
            completed, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in completed:
                fens = pending.pop(future)
                try:
                    counts = future.result()
                except MemoryError:
                    raise  # a table larger than the free memory: counting again cannot help
                except Exception as error:  # a lost worker, a cancelled task: count again
                    failures += 1
                    if failures > 10 * max(len(batches), 1):
                        raise RuntimeError(f"perft tasks keep failing: {error}") from error
                    queue.append(fens)
                    continue
                leaves += sum(parts[fen] * count for fen, count in zip(fens, counts))
                finished += len(fens)
                if saved is not None:
                    saved.record(fens, counts)
                shown.update(finished, detail=f"{leaves} leaves")
    finally:
        for future in pending:
            future.cancel()
        if saved is not None:
            saved.close()
        if own and pool is not None:
            pool.shutdown(cancel_futures=True)
        if in_process:
            assert isinstance(executor, ThreadPoolExecutor)
            with _TABLES_LOCK:
                if pending:  # stopped early (Ctrl-C, an error): end the running counts now
                    for table in _TABLES.values():
                        table.cancel()
            executor.shutdown(cancel_futures=True)
            with _TABLES_LOCK:
                _TABLES.clear()  # the table's memory goes back when the count ends
        if shared is not None:
            if is_dask:
                try:
                    executor.run(release_table, shared)  # type: ignore[attr-defined]
                except Exception:  # noqa: BLE001 - a cluster gone: nothing left to free
                    pass
            release_table(shared)
    shown.close()
    return leaves
