"""A real web board server for tests: uvicorn on 127.0.0.1 and a free port, in a thread."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def running_server(hash_mb: int = 4, tables: str | None = None) -> Iterator[str]:
    """Serve the web board (with the endgame tables of the directory ``tables``, if
    given); yields its base URL (``http://127.0.0.1:PORT``)."""
    import uvicorn
    from shashki.apps.web import server_config

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = server_config("127.0.0.1", port, hash_mb=hash_mb, log_level="error", tables=tables)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def request(
    base: str, path: str, body: object = None, *, raw: bytes | None = None, method: str = ""
) -> tuple[int, dict, str]:
    """Status, JSON answer (or {}) and headers' content type of one request."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(base + path, data=data, method=method or None)
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=120) as response:
            text = response.read().decode()
            status, kind = response.status, response.headers.get("content-type", "")
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        status, kind = error.code, error.headers.get("content-type", "")
    try:
        answer = json.loads(text)
    except json.JSONDecodeError:
        answer = {"text": text}
    return status, answer, kind
