"""A real Dask cluster on 127.0.0.1 for the tests: a ``dask scheduler`` process and
``dask worker`` processes (each under its nanny, which starts it again if it dies), as a
user starts them on their machines; not an in-process cluster."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def _dask(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as handle:  # the process keeps its own copy of the handle
        return subprocess.Popen(
            [sys.executable, "-m", "dask", *args],
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a killed test leaves no worker behind its group
        )


@contextlib.contextmanager
def real_cluster(directory: Path, workers: int = 2) -> Iterator[tuple[str, Any]]:
    """``(address, client)`` of a scheduler and ``workers`` one-thread workers, stopped at
    the end."""
    import distributed

    file = directory / "scheduler.json"
    processes = [
        _dask(
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--dashboard-address",
            "127.0.0.1:0",
            "--scheduler-file",
            str(file),
            log=directory / "scheduler.log",
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        for i in range(workers):
            processes.append(
                _dask(
                    "worker",
                    address,
                    "--nthreads",
                    "1",
                    "--host",
                    "127.0.0.1",
                    "--no-dashboard",
                    "--dashboard-address",
                    "127.0.0.1:0",
                    "--local-directory",
                    str(directory / f"worker{i}"),
                    log=directory / f"worker{i}.log",
                )
            )
        client = distributed.Client(address, timeout=60)
        try:
            client.wait_for_workers(workers, timeout=60)
            yield address, client
        finally:
            client.close()
    finally:
        for process in reversed(processes):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 15)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, 9)
                process.wait()


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
