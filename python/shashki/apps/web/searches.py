"""Search slots: one search a page and ``MAX_SEARCHES`` at once, each in its own thread,
stopped when its client leaves, the engines kept for pages within ``MAX_ENGINE_MB``."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Callable, Optional

from starlette.requests import Request
from starlette.responses import StreamingResponse

from shashki.apps.web import limits
from shashki.apps.web.validation import BadRequest, Busy, _str
from shashki.engine import Engine

if TYPE_CHECKING:
    from shashki.egtb import EndgameTables


class Searches:
    """One engine a client (the most recent ones, :data:`limits.MAX_ENGINE_MB` MiB of tables in
    all), one search a client at a time, at most :data:`limits.MAX_SEARCHES` at once."""

    def __init__(self, hash_mb: int = 16, tables: Optional[EndgameTables] = None) -> None:
        self.hash_mb = hash_mb
        self.tables = tables  # shared by every engine (opened once)
        self.max_engines = max(limits.MAX_SEARCHES, limits.MAX_ENGINE_MB // max(hash_mb, 1))
        self.engines: OrderedDict[str, Engine] = OrderedDict()
        self.busy: set[str] = set()
        self.threads: set[threading.Thread] = set()
        self.lock = threading.Lock()

    def acquire(self, client: str) -> Engine:
        with self.lock:
            if client in self.busy:
                raise Busy(429, "a search is already running for this page: stop it first")
            if len(self.busy) >= limits.MAX_SEARCHES:
                raise Busy(503, "the engine is busy with other pages: try again shortly")
            engine = self.engines.pop(client, None)
            if engine is None:
                engine = Engine(hash_mb=self.hash_mb, tables=self.tables)
            self.engines[client] = engine
            for old_client in list(self.engines):
                if len(self.engines) <= self.max_engines:
                    break
                if old_client not in self.busy:
                    self.engines.pop(old_client).close()
            self.busy.add(client)
            return engine

    def release(self, client: str) -> None:
        with self.lock:
            self.busy.discard(client)

    def stop(self, client: str) -> None:
        with self.lock:
            engine = self.engines.get(client)
        if engine is not None:
            engine.stop()

    async def start(self, client: str, search: Callable[[Engine], Any]) -> tuple[Engine, Any]:
        """Run ``search(engine)`` in a thread of its own holding the client's slot, which the
        thread frees when the search ends (however the request ends): the engine and an
        awaitable of the result. A page's new search replaces its running one (a move made
        while the analysis runs, analyse → stop → analyse): that one is stopped and its slot
        awaited for up to ``REPLACE_WAIT`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limits.REPLACE_WAIT
        while True:
            try:
                engine = self.acquire(client)
                break
            except Busy as busy:
                if busy.status != 429 or loop.time() >= deadline:
                    raise
                self.stop(client)
                await asyncio.sleep(0.01)
        future: asyncio.Future[Any] = loop.create_future()

        def settle(outcome: Callable[[], None]) -> None:
            if not future.done():
                outcome()

        # Whatever its level, no search outlives the cap.
        cap = threading.Timer(limits.MAX_TIME, engine.stop)
        cap.daemon = True

        def run() -> None:
            cap.start()
            try:
                result = search(engine)
            except BaseException as error:  # handed to the request
                failure = error
                post(loop, settle, lambda: future.set_exception(failure))
            else:
                post(loop, settle, lambda: future.set_result(result))
            finally:
                cap.cancel()
                self.release(client)
                with self.lock:
                    self.threads.discard(thread)

        thread = threading.Thread(target=run, daemon=True, name=f"search {client}")
        with self.lock:
            self.threads.add(thread)
        thread.start()
        return engine, future

    def close(self, wait: float = 5.0) -> None:
        """Stop every search and give back the engines' tables; wait up to ``wait`` seconds
        for the search threads to end (the server shuts down after them, not under them)."""
        with self.lock:
            for engine in self.engines.values():
                engine.close()
            self.engines.clear()
            threads = list(self.threads)
        deadline = time.monotonic() + wait
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))


def post(loop: asyncio.AbstractEventLoop, callback: Callable[..., Any], *args: Any) -> None:
    """Hand ``callback(*args)`` from a search thread to the server's event loop; nothing if
    that loop has closed (the server has stopped: nobody waits for the answer)."""
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:  # "Event loop is closed"
        pass


def _client(value: object) -> str:
    client = _str(value if value is not None else "anonymous", "client", 64)
    if not client.replace("-", "").replace("_", "").isalnum():
        raise BadRequest("client must be letters, digits, - and _")
    return client


async def _until_done(request: Request, engine: Engine, result: Any) -> Any:
    """Wait for a search started by :meth:`Searches.start`, stopping it when the client
    disconnects (or this request is cancelled)."""
    try:
        while True:
            done, _ = await asyncio.wait({result}, timeout=0.2)
            if done:
                return result.result()
            if await request.is_disconnected():
                engine.stop()
    finally:
        if not result.done():
            engine.stop()


class _SearchStream(StreamingResponse):
    """Server-sent events of a search, which stops when the response ends in any way (also
    when the client leaves before the first event)."""

    def __init__(self, engine: Engine, content: AsyncIterator[str]) -> None:
        super().__init__(
            content, media_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )
        self.engine = engine

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.engine.stop()
