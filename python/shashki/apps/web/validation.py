"""Input: every value a request may carry, checked (a :class:`BadRequest` is a 400 naming what
was wrong; :class:`Busy` another refusal with its status), and request bodies read within
their size and time limits."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Optional, Union

from starlette.requests import Request

import shashki
from shashki import Game
from shashki.apps.web import limits
from shashki.apps.web.columns import ColumnGame
from shashki.engine import Limit


class BadRequest(ValueError):
    """Input the API refuses (400)."""


class Busy(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


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


#: The column games the page plays (towers, Lasca), by name.
COLUMN_GAMES = tuple(card.name for card in shashki.games(columns=True))


def parse_game(data: object) -> Union[Game, ColumnGame]:
    """A game from ``{"fen"?, "variant"?, "captures_optional"?, "moves": [texts]}``: a
    :class:`shashki.Game`, or for the column games a :class:`ColumnGame`."""
    spec = _obj(data, "game")
    fen = spec.get("fen")
    if fen is not None:
        fen = _str(fen, "fen", 400)
    variant = _str(spec.get("variant", "russian"), "variant", 20)
    if variant not in shashki.VARIANTS and variant not in COLUMN_GAMES:
        names = ", ".join((*shashki.VARIANTS, *COLUMN_GAMES))
        raise BadRequest(f"unknown variant {variant!r}: one of {names}")
    optional = spec.get("captures_optional", False)
    if not isinstance(optional, bool):
        raise BadRequest("captures_optional must be true or false")
    if optional and variant in COLUMN_GAMES:
        raise BadRequest(f"captures are compulsory in {variant}")
    moves = spec.get("moves", [])
    if not isinstance(moves, list) or len(moves) > limits.MAX_MOVES:
        raise BadRequest(f"moves must be a list of at most {limits.MAX_MOVES} move texts")
    game: Union[Game, ColumnGame]
    try:
        if variant in COLUMN_GAMES:
            game = ColumnGame(fen or None, variant)
        else:
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
    """``{"time": seconds}``, ``{"depth": plies}`` or ``{"clock": seconds, "inc": seconds}``
    (the side to move's clock: the engine shares it out as in a game), 1 s by default. Every
    search is also stopped after :data:`limits.MAX_TIME` seconds whatever its level (see
    :class:`~shashki.apps.web.searches.Searches`)."""
    level = _obj(data if data is not None else {"time": 1.0}, "level")
    if "depth" in level:
        depth = int(_number(level["depth"], "depth", 1, limits.MAX_DEPTH))
        return Limit(depth=depth, time=limits.MAX_TIME)
    if "clock" in level:
        clock = _number(level["clock"], "clock", 0.01, limits.MAX_CLOCK)
        inc = _number(level.get("inc", 0), "inc", 0, 60)
        return Limit(white_clock=clock, black_clock=clock, white_inc=inc, black_inc=inc)
    return Limit(time=_number(level.get("time", 1.0), "time", 0.01, limits.MAX_TIME))


def _json(raw: Union[str, bytes], what: str) -> Any:
    """Parse JSON; 400 when it is not JSON or nests too deeply to parse."""
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BadRequest(f"{what} is not JSON: {error}") from None
    except RecursionError:
        raise BadRequest(f"{what} nests too deeply") from None


async def _body(request: Request) -> dict[str, Any]:
    chunks = []
    size = 0

    async def read() -> None:
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > limits.MAX_BODY:
                raise Busy(413, f"the request is too large (over {limits.MAX_BODY} bytes)")
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), limits.BODY_TIMEOUT)
    except asyncio.TimeoutError:
        raise Busy(408, f"the body did not arrive within {limits.BODY_TIMEOUT:g} s") from None
    return _obj(_json(b"".join(chunks) or b"{}", "the body"), "the body")


def _build_tree(node: Any, tree: dict[str, Any]) -> None:
    """Add ``tree``'s children (``{"long": text, "comment"?, "children": [...]}``) below
    ``node`` (iterative, at most :data:`limits.MAX_MOVES` moves in all)."""
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
            if count > limits.MAX_MOVES:
                raise BadRequest(f"at most {limits.MAX_MOVES} moves in a game tree")
            text = _str(child.get("long", ""), "move", 100)
            try:
                move = board.parse_move(text)
            except ValueError as error:
                raise BadRequest(f"move {text}: {error}") from None
            comment = _str(child.get("comment", "") or "", "comment", 2000)
            added = current.add_variation(move, comment=comment)
            stack.append((added, child))
