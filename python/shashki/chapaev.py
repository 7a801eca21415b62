"""Чапаев, the flicking game of the rules pages: eight discs a side on the 8×8 board,
flicked to knock the other side's off (docs/chapaev.md: the rules, their readings and
sources, the physics).

>>> from shashki.chapaev import ChapaevBoard
>>> board = ChapaevBoard()                 # White's row on rank 1, Black's on rank 8
>>> shot = board.flick("d", 90, 1.0)       # White's d disc straight up the board
>>> shot.off, shot.again                   # Black's d disc knocked off: White again
(['bd'], True)
>>> board.turn, board.count("b")
('w', 7)

A disc is named by its side and the file it started on (``wa`` … ``wh``, ``ba`` … ``bh``);
a flick by that file, the direction in degrees counter-clockwise from a1-h1 (90: up the
board, towards Black; 270: towards White) and the strength from 0 to 1 (a strength of 1
leaves at 9 squares a second). A flick is rounded to 0.01 degree and 0.001 of strength
before it is played, and written so (``d:90.00:1.000``): the same flick from the same
position gives the same result on every machine, and a game replays from its record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from shashki import _core
from shashki._records import split_fields, split_record

SIDES = "wb"
FILES = "abcdefgh"
#: The physics' constants, from the core: a disc's radius (squares), the speed of a flick
#: of strength 1 (squares a second), friction's deceleration, the restitution of an impact,
#: the time step (seconds).
RADIUS, MAX_SPEED, FRICTION, RESTITUTION, STEP = _core.ChapaevTable.physics()
#: The computer's levels: simulations a flick.
LEVELS = {1: 8, 2: 64, 3: 512}


class ChapaevError(ValueError):
    """A flick, a position text or a record that cannot be played or read (the message
    says what and where)."""


@dataclass(frozen=True)
class Shot:
    """What a flick did: the discs knocked off (``"bd"``: Black's d disc), whether the
    flicker flicks again, the discs' centres every few steps while they moved (for
    drawing: ``frames[k][i]`` is disc ``i``'s, discs in :attr:`ChapaevBoard.discs`'
    order), and the simulated seconds until everything stopped."""

    flick: str
    off: list[str]
    again: bool
    frames: list[list[tuple[float, float]]]
    seconds: float


def _side(side: object) -> int:
    if side in ("w", 0):
        return 0
    if side in ("b", 1):
        return 1
    raise ChapaevError(f"a side is 'w' or 'b', not {side!r}")


def _flick_text(disc: int, angle: float, strength: float) -> str:
    return f"{FILES[disc]}:{angle:.2f}:{strength:.3f}"


def parse_flick(text: str) -> tuple[int, float, float]:
    """``"d:90:0.8"`` (or ``"d 90 0.8"``): the disc's file, degrees, strength."""
    parts = [p for p in re.split(r"[:\s,]+", text.strip()) if p]
    if len(parts) != 3 or len(parts[0]) != 1 or parts[0].lower() not in FILES:
        raise ChapaevError(f"{text!r}: a flick is FILE:DEGREES:STRENGTH, such as d:90:0.8")
    try:
        angle, strength = float(parts[1]), float(parts[2])
    except ValueError:
        raise ChapaevError(f"{text!r}: the degrees and the strength are numbers") from None
    return FILES.index(parts[0].lower()), angle, strength


class ChapaevBoard:
    """A round of Чапаев: the discs, the side to flick, the flicks played (``flick``,
    ``pop``). ``white_rank`` and ``black_rank`` (0 to 6) put each side's row that many
    ranks in from its own edge, as later rounds of a match do; ``max_flicks`` ends a round
    drawn."""

    def __init__(
        self, white_rank: int = 0, black_rank: int = 0, turn: str = "w", max_flicks: int = 200
    ) -> None:
        try:
            self._table = _core.ChapaevTable(white_rank, black_rank, _side(turn), max_flicks)
        except ValueError as error:
            raise ChapaevError(str(error)) from None
        self._root = self._table
        self._stack: list[tuple[_core.ChapaevTable, str]] = []

    @property
    def turn(self) -> str:
        """The side to flick: ``"w"`` or ``"b"``."""
        return SIDES[self._table.turn]

    @property
    def discs(self) -> list[tuple[str, float, float, bool]]:
        """Every disc: its name, its centre, whether it is on the board."""
        return [(SIDES[side] + FILES[i], x, y, on) for side, i, x, y, on in self._table.discs()]

    def count(self, side: str) -> int:
        """The discs of ``side`` (``"w"`` or ``"b"``) on the board."""
        return int(self._table.count(_side(side)))

    @property
    def flicks(self) -> list[str]:
        """The flicks played, first first (``d:90.00:1.000``)."""
        return [text for _, text in self._stack]

    def result(self) -> Optional[str]:
        """``"w"`` or ``"b"`` when that side has won the round, ``"draw"`` when it is
        drawn (both sides' last discs fell at once, or the flick limit), None while it goes
        on."""
        status, winner = self._table.round()
        if status == "on":
            return None
        return "draw" if winner is None else SIDES[winner]

    def flick(self, disc: str, angle: float, strength: float, sample: int = 0) -> Shot:
        """Flick the side to move's disc ``disc`` (its file, ``"a"`` to ``"h"``) at
        ``angle`` degrees with ``strength`` (0 to 1); ``sample`` keeps the centres every so
        many steps of 1/240 s for drawing. A bad flick is a :class:`ChapaevError` and the
        board is unchanged."""
        if not isinstance(disc, str) or len(disc) != 1 or disc.lower() not in FILES:
            raise ChapaevError(f"a disc is named by its file, 'a' to 'h', not {disc!r}")
        index = FILES.index(disc.lower())
        try:
            table, off, again, frames, seconds = self._table.flick(
                index, float(angle), float(strength), sample
            )
        except (ValueError, TypeError) as error:
            raise ChapaevError(str(error)) from None
        text = _flick_text(index, *_core.ChapaevTable.rounded(float(angle), float(strength)))
        self._stack.append((self._table, text))
        self._table = table
        names = [SIDES[side] + FILES[i] for side, i in off]
        return Shot(text, names, bool(again), [list(f) for f in frames], float(seconds))

    def play(self, text: str, sample: int = 0) -> Shot:
        """Play a flick written as text (``d:90:0.8``)."""
        disc, angle, strength = parse_flick(text)
        return self.flick(FILES[disc], angle, strength, sample)

    def pop(self) -> str:
        """Take back the last flick and return it."""
        if not self._stack:
            raise IndexError("no flick to take back")
        self._table, text = self._stack.pop()
        return text

    def aim(self, level: int = 2, seed: int = 0) -> Optional[str]:
        """The computer's flick (text) at ``level`` (1, 2 or 3: 8, 64 or 512 simulated
        flicks; or a number of simulations over 3), None when the round is over."""
        simulations = LEVELS.get(level, level)
        found = self._table.aim(simulations, seed)
        if found is None:
            return None
        disc, angle, strength, _ = found
        return _flick_text(disc, angle, strength)

    def random_flick(self, seed: int = 0) -> Optional[str]:
        """A random flick of the side to move (the random flicker's), None when the round
        is over."""
        if self.result() is not None:
            return None
        found = self._table.random_flick(seed)
        return None if found is None else _flick_text(*found)

    def text(self) -> str:
        """The position as text: the side to flick, the flicks played this round, the
        limit, and each disc on the board with its centre::

            turn=w flicks=0 limit=200 wa=0.500000,0.500000 ... bh=7.500000,7.500000
        """
        fields = [f"turn={self.turn}", f"flicks={self._table.flicks}"]
        fields.append(f"limit={self._table.max_flicks}")
        for name, x, y, on in self.discs:
            if on:
                fields.append(f"{name}={x!r},{y!r}")
        return " ".join(fields)

    @classmethod
    def from_text(cls, text: str) -> ChapaevBoard:
        """The board of a position's text (:meth:`text`); :class:`ChapaevError` naming what
        is wrong."""
        fields = split_fields(text, ChapaevError)
        try:
            turn = _side(fields.pop("turn", "w"))
            flicks = int(fields.pop("flicks", "0"))
            limit = int(fields.pop("limit", "200"))
            discs = []
            for key, value in fields.items():
                if len(key) != 2 or key[0] not in SIDES or key[1] not in FILES:
                    raise ChapaevError(f"{key!r} is not a disc (wa … bh)")
                x, y = (float(v) for v in value.split(","))
                discs.append((SIDES.index(key[0]), FILES.index(key[1]), x, y, True))
            table = _core.ChapaevTable.from_discs(discs, turn, flicks, limit)
        except ValueError as error:
            raise ChapaevError(f"{text[:60]!r}: {error}") from None
        board = cls.__new__(cls)
        board._table = board._root = table
        board._stack = []
        return board

    def copy(self) -> ChapaevBoard:
        board = ChapaevBoard.__new__(ChapaevBoard)
        board._table, board._root, board._stack = self._table, self._root, list(self._stack)
        return board

    def __repr__(self) -> str:
        return (
            f"<ChapaevBoard white {self.count('w')} black {self.count('b')} "
            f"turn {self.turn} flicks {len(self._stack)}>"
        )


def write_record(board: ChapaevBoard, tags: Optional[dict[str, str]] = None) -> str:
    """A round's record: tags (``Game``, the start as a ``Setup`` position text, the
    ``Result``: ``w``, ``b``, ``draw`` or ``*``) and its flicks, numbered."""
    root = ChapaevBoard.__new__(ChapaevBoard)
    root._table = root._root = board._root
    root._stack = []
    out = {"Game": "Chapaev", "Setup": root.text()}
    for key, value in (tags or {}).items():
        if key not in out and key != "Result":
            out[key] = value
    out["Result"] = board.result() or "*"
    lines = [f'[{key} "{value}"]' for key, value in out.items()]
    body = " ".join(f"{i}. {text}" for i, text in enumerate(board.flicks, 1))
    return "\n".join(lines) + "\n\n" + body + "\n"


def read_record(text: str) -> tuple[dict[str, str], ChapaevBoard]:
    """A round's record read back and replayed: its tags and the board after its flicks.
    A tag or flick that cannot be read or played, or a ``Result`` the flicks do not give, is
    a :class:`ChapaevError` naming it."""
    tags, words = split_record(text, ChapaevError)
    board = ChapaevBoard.from_text(tags["Setup"]) if "Setup" in tags else ChapaevBoard()
    played = 0
    for word in words:
        if re.fullmatch(r"\d+\.", word):
            continue
        played += 1
        try:
            board.play(word)
        except ChapaevError as error:
            raise ChapaevError(f"flick {played}, {word!r}: {error}") from None
    result = tags.get("Result")
    if result is not None and result != (board.result() or "*"):
        raise ChapaevError(f"the Result tag says {result!r}, the flicks give {board.result()!r}")
    return tags, board


class ChapaevMatch:
    """The classic match of rounds: both rows start on their first ranks; the winner of a
    round starts the next with its row a rank further forward, and from the round where the
    rows stand next to each other the loser's row is pushed back a rank as the winner's
    advances; a side whose row would stand on the other's edge has won the match. A drawn
    round changes no row, and the side that did not start it starts the next."""

    def __init__(self, max_flicks: int = 200) -> None:
        self.ranks = {"w": 0, "b": 0}
        self.starter = "w"
        self.max_flicks = max_flicks
        self.rounds: list[str] = []
        self.winner: Optional[str] = None

    def board(self) -> ChapaevBoard:
        """The next round's board."""
        if self.winner is not None:
            raise ChapaevError(f"the match is over: {self.winner} has won it")
        return ChapaevBoard(self.ranks["w"], self.ranks["b"], self.starter, self.max_flicks)

    def record(self, result: str) -> None:
        """Record a round's result (``"w"``, ``"b"`` or ``"draw"``) and set the next."""
        if self.winner is not None:
            raise ChapaevError("the match is over")
        if result not in ("w", "b", "draw"):
            raise ChapaevError(f"a round's result is w, b or draw, not {result!r}")
        self.rounds.append(result)
        if result == "draw":
            self.starter = "b" if self.starter == "w" else "w"
            return
        loser = "b" if result == "w" else "w"
        if self.ranks["w"] + self.ranks["b"] >= 6:
            self.ranks[loser] -= 1
        self.ranks[result] += 1
        self.starter = result
        if self.ranks[result] >= 7:
            self.winner = result
