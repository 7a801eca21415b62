"""The web board's star (Chinese checkers): the game a request carries, its state as JSON,
and the computer's move (``/star``, ``POST /api/star/state``, ``POST /api/star/move``).

A request carries the whole game, as the draughts board's do: ``{"holes": 121 or 73,
"players": 2, 3, 4 or 6, "hop": "any" or "others", "moves": ["D5-E5", …]}``; the server
keeps nothing. Its limits (the package's threat model): at most :data:`MAX_STAR_PLIES`
moves, each text at most 80 characters; a computer's move searches at most
:data:`MAX_STAR_TIME` seconds (the search's own clock stops it), at most
``limits.MAX_SEARCHES`` at once (503 beyond).
"""

from __future__ import annotations

import asyncio
from typing import Any

from shashki.apps.web import limits
from shashki.apps.web.validation import BadRequest, Busy, _number, _obj, _str
from shashki.star import StarBoard

#: The longest star game a request may carry (the game's own move limit).
MAX_STAR_PLIES = 1000
#: The longest a computer's move on the star may think (seconds).
MAX_STAR_TIME = 10.0

_running = 0


def parse_star(value: object) -> StarBoard:
    """The star game a request carries, replayed (a 400 naming what is wrong)."""
    game = _obj(value, "game")
    holes = game.get("holes", 121)
    if holes not in (121, 73) or isinstance(holes, bool):
        raise BadRequest("game.holes must be 121 or 73")
    players = game.get("players", 2)
    if players not in (2, 3, 4, 6) or isinstance(players, bool):
        raise BadRequest("game.players must be 2, 3, 4 or 6")
    hop = _str(game.get("hop", "any"), "game.hop", 10)
    if hop not in ("any", "others"):
        raise BadRequest("game.hop must be 'any' or 'others'")
    moves = game.get("moves", [])
    if not isinstance(moves, list):
        raise BadRequest("game.moves must be a list of move texts")
    if len(moves) > MAX_STAR_PLIES:
        raise BadRequest(f"game.moves has {len(moves)} moves, at most {MAX_STAR_PLIES}")
    board = StarBoard(size=4 if holes == 121 else 3, players=players, hop_over=hop)
    for i, text in enumerate(moves):
        text = _str(text, f"game.moves[{i}]", 80)
        if board.is_over():
            raise BadRequest(f"game.moves[{i}]: the game is over")
        try:
            board.push(board.parse_move(text))
        except ValueError as error:
            raise BadRequest(f"game.moves[{i}]: {error}") from None
    return board


def star_json(board: StarBoard) -> dict[str, Any]:
    """What the page draws: the holes (name, cube coordinates), the six points, each
    player's seat, target and holes, whose turn, who finished, the legal moves with their
    hops, the last move's hops and the game's record."""
    from shashki.star import write_record

    moves = board.legal_moves
    last = None
    if board.moves:
        before = board.copy()
        move = before.pop()
        last = {"text": before.move_text(move), "path": before.path(move)}
    return {
        "holes": [
            {"name": board.hole_name(h), "q": q, "r": r, "s": s}
            for h, (q, r, s) in enumerate(board.holes)
        ],
        "players": board.players,
        "hop": board.hop_over,
        "seats": [list(board.seat(p)) for p in range(board.players)],
        "pieces": [board.pieces(p) for p in range(board.players)],
        "turn": board.turn,
        "plies": board.plies,
        "finished": board.finished,
        "over": board.is_over(),
        "moves": [
            {"from": a, "to": b, "text": board.move_text((a, b)), "path": board.path((a, b))}
            for a, b in moves
        ],
        "played": board.moves_text(),
        "last": last,
        "record": write_record(board),
    }


async def star_move(body: dict[str, Any]) -> dict[str, Any]:
    """The computer's move in the game ``body`` carries, and the state after it."""
    global _running
    board = parse_star(body.get("game"))
    seconds = _number(body.get("time", 0.5), "time", 0.05, MAX_STAR_TIME)
    if board.is_over():
        raise BadRequest("the game is over")
    if _running >= limits.MAX_SEARCHES:
        raise Busy(503, "the computer is busy with other games; try again")
    _running += 1
    try:
        found = await asyncio.to_thread(board.search, time=seconds)
    finally:
        _running -= 1
    if found.move is None:
        raise BadRequest("no legal move")
    text = board.move_text(found.move)
    path = board.path(found.move)
    board.push(found.move)
    return {
        "move": {"text": text, "path": path},
        "info": {"depth": found.depth, "nodes": found.nodes, "score": found.score},
        "state": star_json(board),
    }
