"""A real Dask cluster on 127.0.0.1 for the tests (``shashki.distributed.local_cluster``: a
``dask scheduler`` process and ``dask worker`` processes, each under its nanny, which starts
it again if it dies), not an in-process cluster; and a way to kill a worker mid-task."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from shashki.distributed import local_cluster


@contextlib.contextmanager
def real_cluster(directory: Path, workers: int = 2) -> Iterator[tuple[str, Any]]:
    """``(address, client)`` of a scheduler and ``workers`` one-thread workers, stopped at
    the end."""
    import distributed

    with local_cluster(str(directory), workers) as address:
        client = distributed.Client(address, timeout=60)
        try:
            yield address, client
        finally:
            client.close()


def kill_a_busy_worker(client: Any, prefix: str, timeout: float = 60.0) -> str:
    """Kill (SIGKILL) the process of a worker while it runs a task whose key starts with
    ``prefix``; its nanny starts a new one. The killed task's key."""
    pids = client.run(os.getpid)  # worker address -> its process
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for worker, keys in client.processing().items():
            running = [str(key) for key in keys if str(key).startswith(prefix)]
            if running and worker in pids:
                os.kill(pids[worker], 9)
                return running[0]
        time.sleep(0.02)
    raise AssertionError(f"no task {prefix}… was seen running")
