"""The Starlette app: the routes of the page and its API."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import shashki
from shashki import Board
from shashki.apps.web import limits
from shashki.apps.web.columns import ColumnGame
from shashki.apps.web.guard import RequestGuard, _hostname
from shashki.apps.web.searches import Searches, _client, _SearchStream, _until_done, post
from shashki.apps.web.serialize import _tree_json, info_json, move_json, state_json
from shashki.apps.web.validation import (
    COLUMN_GAMES,
    BadRequest,
    Busy,
    _body,
    _build_tree,
    _json,
    _number,
    _obj,
    _query_number,
    _str,
    parse_game,
    parse_level,
)
from shashki.columns import ColumnBoard
from shashki.engine import Engine, Limit

if TYPE_CHECKING:
    from os import PathLike

    StrPath = Union[str, PathLike[str]]

STATIC = Path(__file__).parent / "static"


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


def create_app(
    *, hash_mb: int = 16, hosts: tuple[str, ...] = (), tables: Optional[StrPath] = None
) -> Any:
    """The web board's ASGI application (Starlette behind :class:`RequestGuard`): requests
    may name 127.0.0.1, localhost, [::1] and ``hosts`` in their ``Host`` header. ``tables``:
    a directory of endgame tables (:mod:`shashki.egtb`, of any games), opened once here:
    the engines probe them and every state the page asks for carries their value of the
    position when they hold it (its ``tables`` field). The directory is the operator's:
    nothing a page sends names a file."""
    opened = None
    if tables is not None:
        from shashki import egtb

        opened = egtb.open(tables)
    searches = Searches(hash_mb, opened)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def star_page(request: Request) -> Response:
        return FileResponse(STATIC / "star.html")

    async def star_state(request: Request) -> Response:
        from shashki.apps.web.star import parse_star, star_json

        body = await _body(request)
        return JSONResponse(star_json(parse_star(body.get("game"))))

    async def chapaev_page(request: Request) -> Response:
        return FileResponse(STATIC / "chapaev.html")

    async def chapaev_state(request: Request) -> Response:
        from shashki.apps.web.chapaev import parse_round, round_json

        body = await _body(request)
        return JSONResponse(round_json(parse_round(body.get("game"))))

    async def chapaev_flick(request: Request) -> Response:
        from shashki.apps.web.chapaev import play_flick

        body = await _body(request)
        return JSONResponse(await asyncio.to_thread(play_flick, body))

    async def chapaev_aim(request: Request) -> Response:
        from shashki.apps.web.chapaev import computer_flick

        body = await _body(request)
        return JSONResponse(await asyncio.to_thread(computer_flick, body))

    async def star_engine_move(request: Request) -> Response:
        from shashki.apps.web.star import star_move

        return JSONResponse(await star_move(await _body(request)))

    async def state(request: Request) -> Response:
        body = await _body(request)
        return JSONResponse(state_json(parse_game(body.get("game")), opened))

    async def engine_move(request: Request) -> Response:
        body = await _body(request)
        game = parse_game(body.get("game"))
        limit = parse_level(body.get("level"))
        client = _client(body.get("client"))
        if game.is_game_over():
            raise BadRequest("the game is over")
        # A column game is searched on its board (the column search).
        target = game.current_board if isinstance(game, ColumnGame) else game
        engine, running = await searches.start(client, lambda engine: engine.play(target, limit))
        result = await _until_done(request, engine, running)
        if result.move is None:
            raise BadRequest("no legal move")
        board = game.current_board
        move = move_json(board, result.move)
        info = info_json(result.info, board) if result.info else None
        game.push(result.move)
        return JSONResponse({"move": move, "info": info, "state": state_json(game, opened)})

    async def analyse(request: Request) -> Response:
        params = request.query_params
        game = parse_game(_json(params.get("game", "{}"), "game"))
        multipv = int(_query_number(params.get("multipv"), "multipv", 1, 1, limits.MAX_MULTIPV))
        seconds = _query_number(params.get("time"), "time", limits.MAX_TIME, 0.1, limits.MAX_TIME)
        client = _client(params.get("client"))
        board = game.current_board.copy()
        if not board.legal_moves:
            raise BadRequest("no legal move to analyse")
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Optional[dict[str, Any]]] = asyncio.Queue()

        def on_info(info: dict[str, Any]) -> None:
            post(loop, queue.put_nowait, info_json(info, board))

        def run(engine: Engine) -> None:
            try:
                if isinstance(board, ColumnBoard):  # one line: the column search's
                    engine.search(board, Limit(time=seconds), on_info=on_info)
                else:
                    engine.analyse(board, Limit(time=seconds), multipv=multipv, on_info=on_info)
            finally:
                post(loop, queue.put_nowait, None)

        # The search runs (at most limits.MAX_TIME) and frees its slot whether or not the stream is
        # ever read; the stream's end (the client gone) stops it.
        engine, running = await searches.start(client, run)
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

        from shashki import pdn

        body = await _body(request)
        text = _str(body.get("text", ""), "text", limits.MAX_BODY)
        if _column_variant(text):
            return JSONResponse(_read_column_pdn(text))
        game = _read_one(pdn.read_game, text)
        return JSONResponse(
            {
                "fen": game.start_fen,
                "variant": game.variant,
                "captures_optional": game.captures_optional,
                "headers": dict(game.headers),
                "comment": game.comment,
                "tree": _tree_json(game.root(), game.board()),
            }
        )

    async def pdn_write(request: Request) -> Response:
        from shashki import pdn

        body = await _body(request)
        spec = _obj(body.get("game"), "game")
        if spec.get("variant") in COLUMN_GAMES:
            return JSONResponse({"pdn": _write_column_pdn(spec, body.get("headers", {}))})
        game = parse_game({**spec, "moves": []})
        assert isinstance(game, shashki.Game)
        tree = _obj(spec.get("tree", {"children": []}), "tree")
        _build_tree(game.root(), tree)
        game.headers.update(_tags(body.get("headers", {})))
        game.comment = _str(spec.get("comment", "") or "", "comment", 2000)
        return JSONResponse({"pdn": pdn.write_game(game)})

    async def review_game(request: Request) -> Response:
        from shashki.apps.review import plot_svg, review

        body = await _body(request)
        game = parse_game(body.get("game"))  # a Game, or a ColumnGame (towers, Lasca)
        client = _client(body.get("client"))
        if len(game.mainline_moves()) > limits.MAX_REVIEW_PLIES:
            raise BadRequest(f"a review takes games of at most {limits.MAX_REVIEW_PLIES} plies")
        level = _obj(body.get("level", {"depth": 8}), "level")
        # The whole review keeps to limits.MAX_TIME: each position gets its share.
        share = limits.MAX_TIME / (len(game.mainline_moves()) + 1)
        if "time" in level:
            seconds = _number(level["time"], "time", 0.01, limits.MAX_REVIEW_TIME)
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

        engine, running = await searches.start(client, run)
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

    async def games(request: Request) -> Response:
        # The variant menu: every game's card, the page's only list of games.
        cards = (*shashki.games(), *shashki.games(columns=True))
        return JSONResponse({"games": [card._asdict() for card in cards]})

    routes = [
        Route("/", index),
        Route("/star", star_page),
        Route("/chapaev", chapaev_page),
        Route("/api/chapaev/state", _handler(chapaev_state), methods=["POST"]),
        Route("/api/chapaev/flick", _handler(chapaev_flick), methods=["POST"]),
        Route("/api/chapaev/aim", _handler(chapaev_aim), methods=["POST"]),
        Route("/api/star/state", _handler(star_state), methods=["POST"]),
        Route("/api/star/move", _handler(star_engine_move), methods=["POST"]),
        Route("/api/state", _handler(state), methods=["POST"]),
        Route("/api/engine/move", _handler(engine_move), methods=["POST"]),
        Route("/api/analyse", _handler(analyse), methods=["GET"]),
        Route("/api/stop", _handler(stop), methods=["POST"]),
        Route("/api/pdn/read", _handler(pdn_read), methods=["POST"]),
        Route("/api/pdn/write", _handler(pdn_write), methods=["POST"]),
        Route("/api/review", _handler(review_game), methods=["POST"]),
        Route("/api/openings", _handler(openings), methods=["GET"]),
        Route("/api/games", _handler(games), methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):  # type: ignore[no-untyped-def]
        yield
        searches.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.searches = searches
    guarded = RequestGuard(app, limits.LOCAL_HOSTS | {_hostname(h) for h in hosts})
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


_VARIANT_TAG = re.compile(r'\[\s*Variant\s+"([^"]{0,40})"\s*\]')


def _column_variant(text: str) -> Optional[str]:
    """The column game a PDN text's first ``Variant`` tag names, or None."""
    match = _VARIANT_TAG.search(text[:20_000])
    if match is None:
        return None
    card = shashki.cards.find(match.group(1))
    return card.name if card is not None and card.stacks else None


def _read_one(reader: Any, text: str) -> Any:
    """The first game ``reader`` (a PDN reader of a text handle) finds in ``text``; a
    reading error or no game is a 400 that says so."""
    import io

    from shashki import pdn

    try:
        game = reader(io.StringIO(text))
    except pdn.PdnError as error:
        raise BadRequest(f"PDN: {error}") from None
    if game is None:
        raise BadRequest("PDN: no game in the text")
    return game


def _read_column_pdn(text: str) -> dict[str, Any]:
    """A column game's PDN as the page loads a game: its start, tags and its one line of
    moves as a tree."""

    from shashki import columns

    headers, board = _read_one(columns.read_pdn, text)
    replay = board.root()
    tree: dict[str, Any] = {"children": [], "comment": ""}
    node = tree
    for move in board.move_stack:
        child = {
            "long": move.text(notation="algebraic"),
            "text": replay.move_text(move),
            "comment": "",
            "nags": [],
            "children": [],
        }
        node["children"].append(child)
        node = child
        replay.push(move)
    return {
        "fen": board.root_fen(),
        "variant": board.variant,
        "captures_optional": False,
        "headers": headers,
        "comment": "",
        "tree": tree,
    }


def _write_column_pdn(spec: dict[str, Any], headers: object) -> str:
    """A column game's PDN from the page's game: its main line (the first move of each
    node: the column games' PDN has no variations)."""
    from shashki import columns

    tree = _obj(spec.get("tree", {"children": []}), "tree")
    moves: list[str] = []
    node = tree
    while True:
        children = node.get("children", [])
        if not isinstance(children, list) or not children:
            break
        node = _obj(children[0], "tree node")
        moves.append(_str(node.get("long", ""), "move", 100))
        if len(moves) > limits.MAX_MOVES:
            raise BadRequest(f"at most {limits.MAX_MOVES} moves in a game")
    game = parse_game({**spec, "moves": moves})
    assert isinstance(game, ColumnGame)
    return columns.write_pdn(game.current_board, _tags(headers))


def _tags(headers: object) -> dict[str, str]:
    """The PDN tags the page sends (its own ``Result`` left out: the game's is written),
    each one line of text."""
    tags: dict[str, str] = {}
    for name, value in _obj(headers, "headers").items():
        if name != "Result" and name.isalnum():
            text = _str(value, f"header {name}", 200)
            if any(ord(c) < 32 for c in text):
                raise BadRequest(f"header {name}: a PDN tag value is one line of text")
            tags[name] = text
    return tags
