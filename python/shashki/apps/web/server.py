"""The server: uvicorn with the threat model's timeouts and connection limit, and ``serve``."""

from __future__ import annotations

import asyncio
import socket
import threading
from typing import Any, Optional

from shashki.apps.web import limits
from shashki.apps.web.app import create_app


def server_config(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    hash_mb: int = 16,
    log_level: str = "warning",
    tables: Optional[str] = None,
) -> Any:
    """The uvicorn configuration :func:`serve` runs: the app (with the endgame tables of the
    directory ``tables``, if given), and the connection limits and timeouts of the threat
    model."""
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedH11(H11Protocol):
        """uvicorn's HTTP/1.1 protocol with a deadline for each request's head and a cap on
        open connections."""

        _head_deadline: Optional[asyncio.TimerHandle] = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > limits.MAX_CONNECTIONS:
                transport.close()
                return
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._head_deadline = self.loop.call_later(limits.HEADER_TIMEOUT, self._too_slow)

        def _disarm(self) -> None:
            if self._head_deadline is not None:
                self._head_deadline.cancel()
                self._head_deadline = None

        def _too_slow(self) -> None:
            if self.cycle is None or self.cycle.response_complete:
                self.transport.close()

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Optional[Exception]) -> None:
            self._disarm()
            super().connection_lost(exc)

    return uvicorn.Config(
        create_app(hash_mb=hash_mb, hosts=(host,), tables=tables),
        host=host,
        port=port,
        log_level=log_level,
        http=TimedH11,
        timeout_keep_alive=5,
    )


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, or an OSError saying why not (a port in use, a
    host that is not this machine's) before anything is announced."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family, backlog=128)
    except OSError as error:
        reason = error.strerror or str(error)
        raise OSError(error.errno, f"cannot listen on {host}:{port}: {reason}") from None


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = False,
    tables: Optional[str] = None,
) -> None:
    """Run the web board until Ctrl-C: the tables (a directory, if given) opened and the
    port bound first, then the address announced (a port in use or a bad table is an
    OSError or a ValueError, and nothing is announced)."""
    import uvicorn

    config = server_config(host, port, tables=tables)
    sock = listen(host, port)
    url = f"http://{host}:{port}/"
    if open_browser:
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    print(f"shashki web board on {url} (Ctrl-C stops it)", flush=True)
    uvicorn.Server(config).run(sockets=[sock])
