"""``shashki serve``: a local web board to play, analyse and review games in the browser.

Needs the ``web`` extra (``pip install "shashki[web]"``: Starlette and uvicorn); everything
the page uses ships in the package (no CDN). The server keeps no game: each request carries
the game (start FEN, variant, the moves as full-path texts), so a page can be reloaded and
nothing on the server grows with the games played.

Safe by default: it binds 127.0.0.1; the page never sends file paths (PDN is uploaded as
text); every input is validated (a 400 with a message, never a traceback); bodies over
:data:`MAX_BODY` bytes get 413; each client (a page) runs one search at a time (429
otherwise) and at most :data:`MAX_SEARCHES` run at once (503); searches are capped at
:data:`MAX_TIME` seconds and :data:`MAX_DEPTH` plies, a review at :data:`MAX_REVIEW_PLIES`
plies.

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
from typing import Any, Optional

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
MAX_CLIENTS = 16
MAX_MULTIPV = 5


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
    """``{"time": seconds}`` or ``{"depth": plies}`` (capped), 1 s by default."""
    level = _obj(data if data is not None else {"time": 1.0}, "level")
    if "depth" in level:
        return Limit(depth=int(_number(level["depth"], "depth", 1, MAX_DEPTH)))
    return Limit(time=_number(level.get("time", 1.0), "time", 0.01, MAX_TIME))


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
    """One engine a client (LRU, :data:`MAX_CLIENTS`), one search a client at a time, at
    most :data:`MAX_SEARCHES` at once."""

    def __init__(self, hash_mb: int = 16) -> None:
        self.hash_mb = hash_mb
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
            while len(self.engines) > MAX_CLIENTS:
                old_client, old = next(iter(self.engines.items()))
                if old_client in self.busy:
                    break
                self.engines.pop(old_client)
                old.close()
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
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Busy(413, f"the request is too large (over {MAX_BODY} bytes)")
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        data = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BadRequest(f"the body is not JSON: {error}") from None
    return _obj(data, "the body")


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


def create_app(*, hash_mb: int = 16) -> Starlette:
    """The Starlette application of the web board."""
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
        engine = searches.acquire(client)
        try:
            result = await asyncio.to_thread(engine.play, game, limit)
        finally:
            searches.release(client)
        if result.move is None:
            raise BadRequest("no legal move")
        board = game._board
        move = move_json(board, result.move)
        info = info_json(result.info, board) if result.info else None
        game.push(result.move)
        return JSONResponse({"move": move, "info": info, "state": state_json(game)})

    async def analyse(request: Request) -> Response:
        params = request.query_params
        try:
            game_data = json.loads(params.get("game", "{}"))
        except json.JSONDecodeError:
            raise BadRequest("game must be JSON") from None
        game = parse_game(game_data)
        multipv = int(_query_number(params.get("multipv"), "multipv", 1, 1, MAX_MULTIPV))
        seconds = _query_number(params.get("time"), "time", MAX_TIME, 0.1, MAX_TIME)
        client = _client(params.get("client"))
        board = game._board.copy()
        if not board.legal_moves:
            raise BadRequest("no legal move to analyse")
        engine = searches.acquire(client)
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Optional[dict[str, Any]]] = asyncio.Queue()

        def on_info(info: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, info_json(info, board))

        def run() -> None:
            try:
                engine.analyse(board, Limit(time=seconds), multipv=multipv, on_info=on_info)
            except Exception:  # noqa: S110 - the stream ends either way
                pass
            finally:
                loop.call_soon_threadsafe(queue.put_nowait, None)

        async def events() -> AsyncIterator[str]:
            thread = threading.Thread(target=run, daemon=True)
            thread.start()
            try:
                while True:
                    item = await queue.get()
                    if item is None:
                        yield "event: done\ndata: {}\n\n"
                        break
                    yield f"data: {json.dumps(item)}\n\n"
            finally:
                engine.stop()
                await asyncio.to_thread(thread.join, MAX_TIME + 5)
                searches.release(client)

        return StreamingResponse(
            events(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store"},
        )

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
        if "time" in level:
            limit = Limit(time=_number(level["time"], "time", 0.01, MAX_REVIEW_TIME))
        else:
            limit = Limit(depth=int(_number(level.get("depth", 8), "depth", 1, 16)))
        engine = searches.acquire(client)
        try:
            report = await asyncio.to_thread(review, game, limit, engine=engine)
        finally:
            searches.release(client)
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
    return app


def opening_list() -> list[dict[str, str]]:
    """Openings for a new game: the Russian ballots (745 three-move openings, from pydraughts'
    files when pydraughts is installed) after the built-in two-move ones; each ``{"label",
    "moves"}`` or ``{"label", "fen"}``."""
    from shashki.match import BUILTIN_OPENINGS

    out = [{"label": text, "moves": text} for text in BUILTIN_OPENINGS]
    try:
        import json as json_module

        import draughts  # type: ignore[import-untyped]  # pydraughts (MIT), optional
    except ImportError:
        return out
    folder = Path(draughts.__file__).parent / "ballot_files"
    try:
        with open(folder / "russian.json", encoding="utf-8") as handle:
            ballots: dict[str, str] = json_module.load(handle)["all"]
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


def serve(host: str = "127.0.0.1", port: int = 8000, *, open_browser: bool = False) -> None:
    """Run the web board until Ctrl-C."""
    import uvicorn

    url = f"http://{host}:{port}/"
    if open_browser:
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    print(f"shashki web board on {url} (Ctrl-C stops it)", flush=True)
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
