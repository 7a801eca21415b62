"""``shashki serve``: a local web board to play, analyse and review games in the browser.

Needs the ``web`` extra (``pip install "shashki[web]"``: Starlette and uvicorn); everything
the page uses ships in the package (no CDN). The server keeps no game: each request carries
the game (start FEN, variant, the moves as full-path texts), so a page can be reloaded and
nothing on the server grows with the games played.

Threat model. Who can reach the server: it binds 127.0.0.1, so the processes of this
machine, and the web pages open in its user's browser (any site can make the browser send
requests to 127.0.0.1). What they could make it do, and what stops them:

- Drive the engine from another site (CSRF) or through a hostname of the attacker's that
  resolves to 127.0.0.1 (DNS rebinding): every request must name an allowed ``Host``
  (127.0.0.1, localhost, [::1] and the host it was started on: 403 otherwise); ``/api/``
  requests from another origin (``Origin``, ``Sec-Fetch-Site``) get 403, and a POST must be
  ``application/json`` (415 otherwise), which a page of another origin cannot send without
  the browser asking first (and the server never says yes).
- Hold the engine: each client (a page) runs one search at a time (429) and at most
  :data:`MAX_SEARCHES` run at once (503); every search (a move, an analysis, a review) is
  capped at :data:`MAX_TIME` seconds and stops when its client disconnects; its slot is freed
  by the search itself when it ends, so a request cut off mid-search cannot keep it.
- Exhaust memory or a core with input: bodies over :data:`MAX_BODY` bytes get 413, JSON
  nested too deeply 400, games over :data:`MAX_MOVES` moves 400, a review over
  :data:`MAX_REVIEW_PLIES` plies 400; the engines kept for clients take at most
  :data:`MAX_ENGINE_MB` MiB of tables beside the running searches'.
- Hold connections (slowloris, from a local process): a request's head must arrive within
  :data:`HEADER_TIMEOUT` seconds and its body within :data:`BODY_TIMEOUT`, idle connections
  close after 5 s, and at most :data:`MAX_CONNECTIONS` are open at once.

The page never sends file paths (PDN is uploaded as text); every input is validated (a 400
with a message, never a traceback).

API (JSON): ``POST /api/state``, ``POST /api/engine/move``, ``GET /api/analyse`` (server-
sent events), ``POST /api/stop``, ``POST /api/pdn/read``, ``POST /api/pdn/write``,
``POST /api/review``, ``GET /api/openings``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Callable, Optional, Union

import shashki
from shashki import Board, Game
from shashki.engine import Engine, Limit

try:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError(
        'the web board needs its extra: pip install "shashki[web]" (Starlette, uvicorn)'
    ) from error

STATIC = Path(__file__).parent / "static"
MAX_BODY = 1_000_000
MAX_TIME = 30.0
MAX_DEPTH = 40
MAX_MOVES = 600
MAX_REVIEW_PLIES = 400
MAX_REVIEW_TIME = 2.0
MAX_SEARCHES = 2
MAX_ENGINE_MB = 64
MAX_MULTIPV = 5
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 10.0
MAX_CONNECTIONS = 64
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class BadRequest(ValueError):
    """Input the API refuses (400)."""


# ---- input ----------------------------------------------------------------------------------


def _obj(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadRequest(f"{what} must be a JSON object")
    return value


def _str(value: object, what: str, limit: int = 200) -> str:
    if not isinstance(value, str):
        raise BadRequest(f"{what} must be a string")
    if len(value) > limit:
        raise BadRequest(f"{what} is too long ({len(value)} characters, at most {limit})")
    return value


def _number(value: object, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadRequest(f"{what} must be a number")
    if not low <= value <= high:
        raise BadRequest(f"{what} must be between {low:g} and {high:g}, not {value}")
    return float(value)


def _query_number(text: Optional[str], what: str, default: float, low: float, high: float) -> float:
    if text is None or text == "":
        return default
    try:
        value = float(text)
    except ValueError:
        raise BadRequest(f"{what} must be a number, not {text[:20]!r}") from None
    return _number(value, what, low, high)


def parse_game(data: object) -> Game:
    """A game from ``{"fen"?, "variant"?, "captures_optional"?, "moves": [texts]}``."""
    spec = _obj(data, "game")
    fen = spec.get("fen")
    if fen is not None:
        fen = _str(fen, "fen", 400)
    variant = _str(spec.get("variant", "russian"), "variant", 20)
    if variant not in shashki.VARIANTS:
        raise BadRequest(f"unknown variant {variant!r}: one of {', '.join(shashki.VARIANTS)}")
    optional = spec.get("captures_optional", False)
    if not isinstance(optional, bool):
        raise BadRequest("captures_optional must be true or false")
    moves = spec.get("moves", [])
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise BadRequest(f"moves must be a list of at most {MAX_MOVES} move texts")
    try:
        game = Game(fen or None, variant=variant, captures_optional=optional)
    except ValueError as error:
        raise BadRequest(f"bad FEN: {error}") from None
    for number, text in enumerate(moves, 1):
        text = _str(text, f"move {number}", 100)
        try:
            game.push_move(text)
        except ValueError as error:
            raise BadRequest(f"move {number} ({text}): {error}") from None
    return game


def parse_level(data: object) -> Limit:
    """``{"time": seconds}`` or ``{"depth": plies}`` (capped at :data:`MAX_TIME` seconds
    either way), 1 s by default."""
    level = _obj(data if data is not None else {"time": 1.0}, "level")
    if "depth" in level:
        depth = int(_number(level["depth"], "depth", 1, MAX_DEPTH))
        return Limit(depth=depth, time=MAX_TIME)
    return Limit(time=_number(level.get("time", 1.0), "time", 0.01, MAX_TIME))


def _json(raw: Union[str, bytes], what: str) -> Any:
    """Parse JSON; 400 when it is not JSON or nests too deeply to parse."""
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BadRequest(f"{what} is not JSON: {error}") from None
    except RecursionError:
        raise BadRequest(f"{what} nests too deeply") from None


# ---- output ---------------------------------------------------------------------------------


def move_json(board: Board, move: shashki.Move) -> dict[str, Any]:
    return {
        "start": move.start,
        "end": move.end,
        "path": list(move.path),
        "captured": sorted(move.captured),
        "promotes": move.promotes,
        "long": str(move),
        "text": board.move_text(move),
    }


def state_json(game: Game) -> dict[str, Any]:
    board = game._board
    pieces = {}
    for square in range(32):
        piece = board.piece_at(square)
        if piece is not None:
            pieces[square] = piece.symbol()
    replay = game._new_board(Board)
    history = []
    for move in game.mainline_moves():
        history.append({"long": str(move), "text": replay.move_text(move)})
        replay.push(move)
    outcome = game.outcome()
    return {
        "fen": board.fen(),
        "start_fen": game.start_fen,
        "variant": game.variant,
        "captures_optional": game.captures_optional,
        "turn": "white" if board.turn else "black",
        "pieces": pieces,
        "legal": [move_json(board, m) for m in board.legal_moves],
        "must_capture": board.has_captures() and not game.captures_optional,
        "moves": history,
        "result": game.result(),
        "termination": None if outcome is None else outcome.termination.value,
        "draw_counters": [str(c) for c in game.draw_counters()],
    }


def info_json(info: dict[str, Any], board: Board) -> dict[str, Any]:
    score = info["score"]
    white = score.white()
    texts = []
    replay = board.copy()
    for move in info.get("pv", []):
        try:
            texts.append(replay.move_text(move))
            replay.push(move)
        except ValueError:
            break
    return {
        "multipv": info.get("multipv", 1),
        "depth": info.get("depth", 0),
        "score": str(white),
        "cp": None if white.cp is None else white.cp,
        "win": white.win,
        "pv": texts,
        "nodes": info.get("nodes", 0),
        "nps": info.get("nps", 0),
        "time": info.get("time", 0.0),
    }


# ---- the app --------------------------------------------------------------------------------


class Searches:
    """One engine a client (the most recent ones, :data:`MAX_ENGINE_MB` MiB of tables in
    all), one search a client at a time, at most :data:`MAX_SEARCHES` at once."""

    def __init__(self, hash_mb: int = 16) -> None:
        self.hash_mb = hash_mb
        self.max_engines = max(MAX_SEARCHES, MAX_ENGINE_MB // max(hash_mb, 1))
        self.engines: OrderedDict[str, Engine] = OrderedDict()
        self.busy: set[str] = set()
        self.lock = threading.Lock()

    def acquire(self, client: str) -> Engine:
        with self.lock:
            if client in self.busy:
                raise Busy(429, "a search is already running for this page: stop it first")
            if len(self.busy) >= MAX_SEARCHES:
                raise Busy(503, "the engine is busy with other pages: try again shortly")
            engine = self.engines.pop(client, None)
            if engine is None:
                engine = Engine(hash_mb=self.hash_mb)
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

    def start(self, client: str, search: Callable[[Engine], Any]) -> tuple[Engine, Any]:
        """Run ``search(engine)`` in a thread of its own holding the client's slot, which the
        thread frees when the search ends (however the request ends): the engine and an
        awaitable of the result."""
        engine = self.acquire(client)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()

        def settle(outcome: Callable[[], None]) -> None:
            if not future.done():
                outcome()

        def run() -> None:
            try:
                result = search(engine)
            except BaseException as error:  # handed to the request
                failure = error
                loop.call_soon_threadsafe(settle, lambda: future.set_exception(failure))
            else:
                loop.call_soon_threadsafe(settle, lambda: future.set_result(result))
            finally:
                self.release(client)

        threading.Thread(target=run, daemon=True, name=f"search {client}").start()
        return engine, future

    def close(self) -> None:
        with self.lock:
            for engine in self.engines.values():
                engine.close()
            self.engines.clear()


class Busy(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _client(value: object) -> str:
    client = _str(value if value is not None else "anonymous", "client", 64)
    if not client.replace("-", "").replace("_", "").isalnum():
        raise BadRequest("client must be letters, digits, - and _")
    return client


async def _body(request: Request) -> dict[str, Any]:
    chunks = []
    size = 0

    async def read() -> None:
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise Busy(413, f"the request is too large (over {MAX_BODY} bytes)")
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), BODY_TIMEOUT)
    except asyncio.TimeoutError:
        raise Busy(408, f"the body did not arrive within {BODY_TIMEOUT:g} s") from None
    return _obj(_json(b"".join(chunks) or b"{}", "the body"), "the body")


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


class RequestGuard:
    """ASGI middleware: the ``Host`` allow-list, no ``/api/`` request from another origin,
    JSON-only POSTs (see the module's threat model)."""

    def __init__(self, app: Any, allowed_hosts: frozenset[str]) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self.refusal(scope, headers)
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, message = refusal
        await JSONResponse({"error": message}, status_code=status)(scope, receive, send)

    def refusal(self, scope: dict[str, Any], headers: dict[str, str]) -> Optional[tuple[int, str]]:
        host = headers.get("host", "")
        if _hostname(host) not in self.allowed_hosts:
            return 403, f"host {host[:100]!r} is not served here"
        if not scope["path"].startswith("/api/"):
            return None
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return 403, "requests from other sites are refused"
        origin = headers.get("origin")
        if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
            return 403, "requests from other origins are refused"
        if scope["method"] == "POST":
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return 415, "the API takes application/json only"
        return None


def _hostname(host: str) -> str:
    """The name of a ``Host`` header without its port: ``[::1]:8000`` → ``::1``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else ""
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _handler(function: Any) -> Any:
    """Every endpoint answers JSON: 400 on bad input, 4xx/503 when busy, 500 without a
    traceback on anything else."""

    async def endpoint(request: Request) -> Response:
        try:
            return await function(request)  # type: ignore[no-any-return]
        except BadRequest as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        except Busy as error:
            return JSONResponse({"error": str(error)}, status_code=error.status)
        except Exception as error:  # never a traceback to the page
            return JSONResponse(
                {"error": f"internal error ({type(error).__name__})"}, status_code=500
            )

    return endpoint


def create_app(*, hash_mb: int = 16, hosts: tuple[str, ...] = ()) -> Any:
    """The web board's ASGI application (Starlette behind :class:`RequestGuard`): requests
    may name 127.0.0.1, localhost, [::1] and ``hosts`` in their ``Host`` header."""
    searches = Searches(hash_mb)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def state(request: Request) -> Response:
        body = await _body(request)
        return JSONResponse(state_json(parse_game(body.get("game"))))

    async def engine_move(request: Request) -> Response:
        body = await _body(request)
        game = parse_game(body.get("game"))
        limit = parse_level(body.get("level"))
        client = _client(body.get("client"))
        if game.is_game_over():
            raise BadRequest("the game is over")
        engine, running = searches.start(client, lambda engine: engine.play(game, limit))
        result = await _until_done(request, engine, running)
        if result.move is None:
            raise BadRequest("no legal move")
        board = game._board
        move = move_json(board, result.move)
        info = info_json(result.info, board) if result.info else None
        game.push(result.move)
        return JSONResponse({"move": move, "info": info, "state": state_json(game)})

    async def analyse(request: Request) -> Response:
        params = request.query_params
        game = parse_game(_json(params.get("game", "{}"), "game"))
        multipv = int(_query_number(params.get("multipv"), "multipv", 1, 1, MAX_MULTIPV))
        seconds = _query_number(params.get("time"), "time", MAX_TIME, 0.1, MAX_TIME)
        client = _client(params.get("client"))
        board = game._board.copy()
        if not board.legal_moves:
            raise BadRequest("no legal move to analyse")
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Optional[dict[str, Any]]] = asyncio.Queue()

        def on_info(info: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, info_json(info, board))

        def run(engine: Engine) -> None:
            try:
                engine.analyse(board, Limit(time=seconds), multipv=multipv, on_info=on_info)
            finally:
                loop.call_soon_threadsafe(queue.put_nowait, None)

        # The search runs (at most MAX_TIME) and frees its slot whether or not the stream is
        # ever read; the stream's end (the client gone) stops it.
        engine, running = searches.start(client, run)
        running.add_done_callback(lambda future: future.exception())  # nothing to report

        async def events() -> AsyncIterator[str]:
            try:
                while True:
                    item = await queue.get()
                    if item is None:
                        yield "event: done\ndata: {}\n\n"
                        break
                    yield f"data: {json.dumps(item)}\n\n"
            finally:
                engine.stop()

        return _SearchStream(engine, events())

    async def stop(request: Request) -> Response:
        body = await _body(request)
        searches.stop(_client(body.get("client")))
        return JSONResponse({"stopped": True})

    async def pdn_read(request: Request) -> Response:
        import io

        from shashki import pdn

        body = await _body(request)
        text = _str(body.get("text", ""), "text", MAX_BODY)
        try:
            game = pdn.read_game(io.StringIO(text))
        except pdn.PdnError as error:
            raise BadRequest(f"PDN: {error}") from None
        if game is None:
            raise BadRequest("PDN: no game in the text")
        return JSONResponse(
            {
                "fen": game.start_fen,
                "variant": game.variant,
                "captures_optional": game.captures_optional,
                "headers": dict(game.headers),
                "comment": game.comment,
                "tree": _tree_json(game.root(), game._new_board(Board)),
            }
        )

    async def pdn_write(request: Request) -> Response:
        from shashki import pdn

        body = await _body(request)
        spec = _obj(body.get("game"), "game")
        game = parse_game({**spec, "moves": []})
        tree = _obj(spec.get("tree", {"children": []}), "tree")
        _build_tree(game.root(), tree)
        headers = _obj(body.get("headers", {}), "headers")
        for name, value in headers.items():
            if name != "Result" and name.isalnum():
                game.headers[name] = _str(value, f"header {name}", 200)
        return JSONResponse({"pdn": pdn.write_game(game)})

    async def review_game(request: Request) -> Response:
        from shashki.review import plot_svg, review

        body = await _body(request)
        game = parse_game(body.get("game"))
        client = _client(body.get("client"))
        if len(game.mainline_moves()) > MAX_REVIEW_PLIES:
            raise BadRequest(f"a review takes games of at most {MAX_REVIEW_PLIES} plies")
        level = _obj(body.get("level", {"depth": 8}), "level")
        # The whole review keeps to MAX_TIME: each position gets its share.
        share = MAX_TIME / (len(game.mainline_moves()) + 1)
        if "time" in level:
            seconds = _number(level["time"], "time", 0.01, MAX_REVIEW_TIME)
            limit = Limit(time=min(seconds, share))
        else:
            depth = int(_number(level.get("depth", 8), "depth", 1, 16))
            limit = Limit(depth=depth, time=share)
        cancelled = threading.Event()

        def check(done: int, total: int) -> None:
            if cancelled.is_set():
                raise Busy(499, "the client went away")

        def run(engine: Engine) -> Any:
            return review(game, limit, engine=engine, progress=check)

        engine, running = searches.start(client, run)
        try:
            report = await _until_done(request, engine, running)
        finally:
            cancelled.set()
        return JSONResponse(
            {
                "moves": [m.as_dict() for m in report.moves],
                "evaluations": [str(s) for s in report.evaluations],
                "svg": plot_svg(report.evaluations, report.moves),
                "white": report.counts(True),
                "black": report.counts(False),
            }
        )

    async def openings(request: Request) -> Response:
        return JSONResponse({"openings": opening_list()})

    routes = [
        Route("/", index),
        Route("/api/state", _handler(state), methods=["POST"]),
        Route("/api/engine/move", _handler(engine_move), methods=["POST"]),
        Route("/api/analyse", _handler(analyse), methods=["GET"]),
        Route("/api/stop", _handler(stop), methods=["POST"]),
        Route("/api/pdn/read", _handler(pdn_read), methods=["POST"]),
        Route("/api/pdn/write", _handler(pdn_write), methods=["POST"]),
        Route("/api/review", _handler(review_game), methods=["POST"]),
        Route("/api/openings", _handler(openings), methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):  # type: ignore[no-untyped-def]
        yield
        searches.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.searches = searches
    guarded = RequestGuard(app, LOCAL_HOSTS | {_hostname(h) for h in hosts})
    guarded.state = app.state  # type: ignore[attr-defined]
    return guarded


def opening_list() -> list[dict[str, str]]:
    """Openings for a new game: the Russian ballots (745 three-move openings, from pydraughts'
    files when pydraughts is installed) after the built-in two-move ones; each ``{"label",
    "moves"}`` or ``{"label", "fen"}``."""
    from shashki.openings import BUILTIN_OPENINGS, pydraughts_openings

    out = [{"label": text, "moves": text} for text in BUILTIN_OPENINGS]
    try:
        ballots = pydraughts_openings("ballots") or {}
    except (OSError, ValueError, KeyError):
        return out
    for name, fen in ballots.items():
        try:
            Board(fen)
        except ValueError:
            continue
        out.append({"label": f"ballot {name}", "fen": fen})
    return out


def _tree_json(node: Any, board: Board) -> dict[str, Any]:
    """A game node's variations as nested JSON (iterative: deep games do not recurse)."""
    root: dict[str, Any] = {"children": [], "comment": ""}
    stack = [(node, board, root)]
    while stack:
        current, position, out = stack.pop()
        for child in current.variations:
            entry = {
                "long": str(child.move),
                "text": position.move_text(child.move),
                "comment": child.comment,
                "nags": list(child.nags),
                "children": [],
            }
            out["children"].append(entry)
            after = position.copy()
            after.push(child.move)
            stack.append((child, after, entry))
    return root


def _build_tree(node: Any, tree: dict[str, Any]) -> None:
    """Add ``tree``'s children (``{"long": text, "comment"?, "children": [...]}``) below
    ``node`` (iterative, at most :data:`MAX_MOVES` moves in all)."""
    stack = [(node, tree)]
    count = 0
    while stack:
        current, spec = stack.pop()
        children = spec.get("children", [])
        if not isinstance(children, list):
            raise BadRequest("tree children must be a list")
        board = current.board()
        for child in children:
            child = _obj(child, "tree node")
            count += 1
            if count > MAX_MOVES:
                raise BadRequest(f"at most {MAX_MOVES} moves in a game tree")
            text = _str(child.get("long", ""), "move", 100)
            try:
                move = board.parse_move(text)
            except ValueError as error:
                raise BadRequest(f"move {text}: {error}") from None
            comment = _str(child.get("comment", "") or "", "comment", 2000)
            added = current.add_variation(move, comment=comment)
            stack.append((added, child))


def server_config(
    host: str = "127.0.0.1", port: int = 8000, *, hash_mb: int = 16, log_level: str = "warning"
) -> Any:
    """The uvicorn configuration :func:`serve` runs: the app, and the connection limits and
    timeouts of the threat model."""
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedH11(H11Protocol):
        """uvicorn's HTTP/1.1 protocol with a deadline for each request's head and a cap on
        open connections."""

        _head_deadline: Optional[asyncio.TimerHandle] = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > MAX_CONNECTIONS:
                transport.close()
                return
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._head_deadline = self.loop.call_later(HEADER_TIMEOUT, self._too_slow)

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
        create_app(hash_mb=hash_mb, hosts=(host,)),
        host=host,
        port=port,
        log_level=log_level,
        http=TimedH11,
        timeout_keep_alive=5,
    )


def serve(host: str = "127.0.0.1", port: int = 8000, *, open_browser: bool = False) -> None:
    """Run the web board until Ctrl-C."""
    import uvicorn

    url = f"http://{host}:{port}/"
    if open_browser:
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    print(f"shashki web board on {url} (Ctrl-C stops it)", flush=True)
    uvicorn.Server(server_config(host, port)).run()
