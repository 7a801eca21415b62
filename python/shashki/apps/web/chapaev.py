"""The web board's Чапаев: the round a request carries, a person's flick and the computer's,
each with the discs' paths for the page to animate (``/chapaev``, ``POST
/api/chapaev/state``, ``POST /api/chapaev/flick``, ``POST /api/chapaev/aim``).

A request carries the whole round, as the draughts board's do: ``{"flicks": ["d:90.00:
1.000", …]}`` from the first ranks, White first; the server keeps nothing. Its limits (the
package's threat model): at most :data:`MAX_CHAPAEV_FLICKS` flicks of at most 40
characters each; the computer's level 1 to 3 (at most 512 simulated flicks, about 50 ms);
a flick's paths sampled every 4 steps (60 frames a second of simulated time).
"""

from __future__ import annotations

from typing import Any

from shashki.apps.web.validation import BadRequest, _number, _obj, _str
from shashki.chapaev import RADIUS, ChapaevBoard, Shot, write_record

#: The most flicks a request may carry (a round is drawn at 200).
MAX_CHAPAEV_FLICKS = 400
#: Steps of 1/240 s between two frames of a flick's paths.
SAMPLE = 4


def parse_round(value: object) -> ChapaevBoard:
    """The round a request carries, replayed (a 400 naming what is wrong)."""
    game = _obj(value, "game")
    flicks = game.get("flicks", [])
    if not isinstance(flicks, list):
        raise BadRequest("game.flicks must be a list of flick texts")
    if len(flicks) > MAX_CHAPAEV_FLICKS:
        raise BadRequest(f"game.flicks has {len(flicks)} flicks, at most {MAX_CHAPAEV_FLICKS}")
    board = ChapaevBoard()
    for i, text in enumerate(flicks):
        text = _str(text, f"game.flicks[{i}]", 40)
        try:
            board.play(text)
        except ValueError as error:
            raise BadRequest(f"game.flicks[{i}]: {error}") from None
    return board


def round_json(board: ChapaevBoard) -> dict[str, Any]:
    """What the page draws: the discs' radius, the discs (name, centre, on the board),
    whose flick, the result, the flicks played and the record."""
    return {
        "radius": RADIUS,
        "discs": [{"name": name, "x": x, "y": y, "on": on} for name, x, y, on in board.discs],
        "turn": board.turn,
        "result": board.result(),
        "flicks": board.flicks,
        "record": write_record(board),
    }


def _shot_json(shot: Shot) -> dict[str, Any]:
    return {"flick": shot.flick, "off": shot.off, "again": shot.again, "frames": shot.frames}


def play_flick(body: dict[str, Any]) -> dict[str, Any]:
    """A person's flick in the round ``body`` carries: its paths and the state after."""
    board = parse_round(body.get("game"))
    if board.result() is not None:
        raise BadRequest("the round is over")
    text = _str(body.get("flick"), "flick", 40)
    try:
        shot = board.play(text, sample=SAMPLE)
    except ValueError as error:
        raise BadRequest(f"flick: {error}") from None
    return {"shot": _shot_json(shot), "state": round_json(board)}


def computer_flick(body: dict[str, Any]) -> dict[str, Any]:
    """The computer's flick at ``level`` (1 to 3) in the round ``body`` carries."""
    board = parse_round(body.get("game"))
    if board.result() is not None:
        raise BadRequest("the round is over")
    level = int(_number(body.get("level", 2), "level", 1, 3))
    seed = int(_number(body.get("seed", len(board.flicks)), "seed", 0, 2**31))
    text = board.aim(level, seed)
    if text is None:
        raise BadRequest("no flick")
    shot = board.play(text, sample=SAMPLE)
    return {"shot": _shot_json(shot), "state": round_json(board)}
