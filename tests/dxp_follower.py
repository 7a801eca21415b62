"""A DXP follower (``shashki.protocols.dxp.DxpServer``) on 127.0.0.1, on a free port, in a
thread, its log kept in ``logged``: for the DXP tests and the hostile-input ones."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from shashki.engine import Engine
from shashki.protocols import dxp


@contextlib.contextmanager
def running_follower(*, idle_timeout: float, max_move_seconds: float) -> Iterator[dxp.DxpServer]:
    logged: list[str] = []
    srv = dxp.DxpServer(
        "127.0.0.1",
        0,
        engine_factory=lambda: Engine(hash_mb=8),
        idle_timeout=idle_timeout,
        max_move_seconds=max_move_seconds,
        log=logged.append,
    )
    srv.logged = logged  # type: ignore[attr-defined]
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.close()
        thread.join(timeout=5)
