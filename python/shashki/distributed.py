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

import contextlib
import json
import os
import signal
import threading
import time
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
    from collections.abc import Iterator, Sequence
    from typing import Any, Callable, Optional

__all__ = [
    "perft",
    "split",
    "count_batch",
    "release_table",
    "build_tables",
    "connect",
    "local_cluster",
]


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


# --- Endgame tables on a Dask cluster -------------------------------------------------------

_CACHE: dict[str, str] = {}  # this worker process's directory of tables received or built
_CACHE_LOCK = threading.Lock()


def connect(scheduler: object) -> Any:
    """A Dask ``distributed.Client`` for ``scheduler``: an address (``tcp://HOST:8786``),
    or a client already made (returned as it is). ImportError without Dask."""
    if callable(getattr(scheduler, "get_executor", None)):
        return scheduler
    import distributed as dask_distributed

    return dask_distributed.Client(str(scheduler))  # type: ignore[no-untyped-call]


def _cache_dir() -> str:
    """This process's directory for the tables its tasks receive and build (removed by
    :func:`drop_table_cache`)."""
    import tempfile

    with _CACHE_LOCK:
        path = _CACHE.get("dir")
        if path is None or not os.path.isdir(path):
            path = tempfile.mkdtemp(prefix=f"shashki-egtb-{os.getpid()}-")
            _CACHE["dir"] = path
        return path


def drop_table_cache() -> None:
    """Remove this process's directory of received tables (run on every worker when a
    cluster build ends)."""
    import shutil

    with _CACHE_LOCK:
        path = _CACHE.pop("dir", None)
    if path is not None:
        shutil.rmtree(path, ignore_errors=True)


def build_table_task(
    variant: str,
    balance: str,
    needs: dict[str, Any],
    threads: int = 1,
    shared: Optional[str] = None,
) -> tuple[str, Optional[bytes]]:
    """The work of one task of a cluster build: the balance ``balance`` built from the
    tables it needs. With ``shared`` (a directory every worker and the client reach), it is
    built there from the tables there and ``(name, None)`` comes back; else ``needs`` holds
    each needed file's bytes, or the result of the task that built it (sent by Dask from
    the worker that holds it), written into this process's own directory, and ``(file name,
    the new file's bytes)`` comes back.
    """
    if shared is not None:
        path = _core.build_endgame_table(shared, balance, variant=variant, threads=threads)
        return path.name, None
    directory = _cache_dir()
    for name, need in needs.items():
        data: bytes = need[1] if isinstance(need, tuple) else need
        target = os.path.join(directory, name)
        if not os.path.exists(target) or os.path.getsize(target) != len(data):
            temporary = f"{target}.{os.getpid()}.{threading.get_ident()}.part"
            with open(temporary, "wb") as handle:
                handle.write(data)
            os.replace(temporary, target)
    path = _core.build_endgame_table(directory, balance, variant=variant, threads=threads)
    with open(path, "rb") as handle:
        return path.name, handle.read()


def held_table(file_name: str, data: bytes) -> tuple[str, bytes]:
    """A table the client had before a cluster build: as a task's result, so that the tasks
    needing it receive it as they receive the tables built on the cluster."""
    return file_name, data


def _critical_path(order: list[tuple[str, int, list[str]]], building: set[str]) -> dict[str, float]:
    """For each balance being built, the slots on the longest chain of builds that wait
    for it, its own included: the work that cannot start before it ends."""
    users: dict[str, list[str]] = {name: [] for name, _, _ in order}
    for name, _, needs in order:
        if name in building:
            for need in needs:
                users[need].append(name)
    rank: dict[str, float] = {}
    for name, slots, _ in reversed(order):  # build order reversed: users first
        own = slots if name in building else 0
        rank[name] = own + max((rank[user] for user in users[name]), default=0.0)
    return rank


def build_tables(
    directory: str,
    pieces: int,
    scheduler: object,
    *,
    variant: str = "russian",
    threads: int = 1,
    shared: bool = False,
    progress: bool = True,
    balances: Optional[Sequence[str]] = None,
) -> list[str]:
    """Build every balance of 2 to ``pieces`` pieces of ``variant`` on a Dask cluster
    (``scheduler``: its address or a ``Client``): one task a balance, depending on the
    tasks of the balances its captures and promotions reach, run on whichever worker is
    free with ``threads`` threads. The client writes each finished file into ``directory``
    (balances already there are kept and sent to the tasks that need them: an interrupted
    build resumes). With ``shared``, ``directory`` is one that every worker reaches at the
    same path (a network file system): the tasks read and write it themselves and no table
    crosses the network through Dask. A worker lost mid-task costs that task only: Dask
    runs it again elsewhere (and any finished table held only by the lost worker). The
    files are the same bytes a one-machine build writes. The names of the balances held, as
    :func:`shashki.egtb.build` gives them. ``balances``: only these, named as stored (see
    :func:`shashki.egtb.select`), the others they need being in ``directory`` already."""
    from shashki._progress import Progress

    every = _core.endgame_balances(pieces, variant=variant)
    order = every
    if balances is not None:
        unknown = set(balances) - {name for name, _, _ in every}
        if unknown:
            raise ValueError(f"not stored balances of {variant}: {', '.join(sorted(unknown))}")
        order = [entry for entry in every if entry[0] in set(balances)]
    file_of = {name: f"{name}.egtb" for name, _, _ in every}
    have = {name for name in file_of if os.path.exists(os.path.join(directory, file_of[name]))}
    chosen = {name for name, _, _ in order}
    for name, _, needs in order:
        for need in needs:
            if need not in chosen and need not in have:
                raise ValueError(
                    f"{name} needs {need}, which is not in {directory}: build it first"
                )
    needed = chosen | {need for _, _, needs in order for need in needs}
    client = connect(scheduler)
    own = client is not scheduler
    os.makedirs(directory, exist_ok=True)
    started = time.monotonic()
    shown = Progress(len(order), "balances", enabled=progress, already=len(have))
    held: dict[str, object] = {}  # name -> the future of its task (built, or read here)
    futures: dict[Any, str] = {}  # the build tasks in flight -> their balances
    run = os.urandom(4).hex()
    todo = [(name, needs) for name, _, needs in every if name in needed and name not in have]
    rank = _critical_path(every, {name for name, _ in todo})
    finished = set(have)
    try:
        import distributed as dask_distributed

        for name in needed & have:
            if not shared:
                # A task that holds the file: its bytes cross to the scheduler once and to
                # each worker once, and are there again if a worker holding them dies.
                with open(os.path.join(directory, file_of[name]), "rb") as handle:
                    data = handle.read()
                held[name] = client.submit(
                    held_table, file_of[name], data, key=f"shashki-egtb-held-{name}-{run}"
                )
        done = len(have)
        shown.update(done, force=True)
        while todo or futures:
            # The client hands out the ready balances itself, as many as the workers have
            # threads, the longest road to the end first: left to itself, Dask would queue
            # them on the worker that holds the tables they need, while another idles.
            room = max(sum(client.nthreads().values()), 1) - len(futures)
            ready = [entry for entry in todo if finished.issuperset(entry[1])]
            ready.sort(key=lambda entry: -rank[entry[0]])
            for name, needs in ready[: max(room, 0)]:
                if shared:
                    args: dict[str, object] = {}  # the needs are files there, finished
                else:
                    args = {file_of[n]: held[n] for n in needs}
                future = client.submit(
                    build_table_task,
                    variant,
                    name,
                    args,
                    threads,
                    os.path.abspath(directory) if shared else None,
                    key=f"shashki-egtb-{name}-{run}",
                    pure=False,
                )
                held[name] = future
                futures[future] = name
                todo.remove((name, needs))
            if not futures:
                raise RuntimeError("a cluster build with nothing to run: no workers?")
            complete = dask_distributed.wait(  # type: ignore[no-untyped-call]
                list(futures), return_when="FIRST_COMPLETED"
            )
            for future in complete.done:
                name = futures.pop(future)
                file_name, data = future.result()
                if data is not None:
                    target = os.path.join(directory, file_name)
                    temporary = f"{target}.part"
                    with open(temporary, "wb") as handle:
                        handle.write(data)
                        handle.flush()
                        os.fsync(handle.fileno())
                    os.replace(temporary, target)
                finished.add(name)
                done += 1
                shown.update(done, detail=name)
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    finally:
        try:
            if not shared:
                client.run(drop_table_cache)
        except Exception:  # noqa: BLE001 - a cluster gone: nothing left to remove
            pass
        if own:
            client.close()
    if balances is not None:
        names = [name for name, _, _ in order]
    else:
        # Every file is there now: the one-machine builder only reads them (their headers
        # and checksums checked) and names the balances held, mirrors too, as it names its own.
        names = _core.build_endgame_tables(directory, pieces, variant=variant, threads=1)
    shown.close(f"{len(order)} files, {len(names)} balances in {time.monotonic() - started:.1f} s")
    return names


@contextlib.contextmanager
def local_cluster(
    directory: str, workers: int = 2, *, threads: int = 1, timeout: float = 120.0
) -> Iterator[str]:
    """A Dask cluster of real processes on this machine, every socket on 127.0.0.1: a
    ``dask scheduler`` and ``workers`` ``dask worker`` processes of ``threads`` threads, each
    under its nanny (which starts it again if it dies), as a user starts them on their
    machines; their logs and scratch space in ``directory``. Yields the scheduler's address;
    stops them all at the end. (How the tests and benches/cluster_speed.py run the cluster
    jobs here; docs/cluster.md.)"""
    import subprocess
    import sys

    os.makedirs(directory, exist_ok=True)
    file = os.path.join(directory, "scheduler.json")
    if os.path.exists(file):
        os.unlink(file)
    local = ["--host", "127.0.0.1", "--no-dashboard", "--dashboard-address", "127.0.0.1:0"]

    def start(name: str, *args: str) -> subprocess.Popen[bytes]:
        with open(os.path.join(directory, f"{name}.log"), "wb") as log:
            return subprocess.Popen(
                [sys.executable, "-m", "dask", *args, *local],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group: stopped with its children
            )

    processes = [start("scheduler", "scheduler", "--port", "0", "--scheduler-file", file)]
    try:
        deadline = time.monotonic() + timeout
        while not os.path.exists(file):
            if time.monotonic() > deadline or processes[0].poll() is not None:
                raise RuntimeError(f"the Dask scheduler did not start: see {directory}")
            time.sleep(0.05)
        with open(file, encoding="utf-8") as handle:
            address = str(json.load(handle)["address"])
        for i in range(workers):
            scratch = os.path.join(directory, f"worker{i}")
            processes.append(
                start(
                    f"worker{i}",
                    "worker",
                    address,
                    "--nthreads",
                    str(threads),
                    "--local-directory",
                    scratch,
                )
            )
        import distributed as dask_distributed

        with dask_distributed.Client(address, timeout=timeout) as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(workers, timeout=timeout)
        yield address
    finally:
        for process in reversed(processes):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
