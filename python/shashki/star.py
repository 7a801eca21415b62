"""The star board: Chinese checkers (Sternhalma) for two to six players, the six-pointed star
of the rules pages (docs/star.md: the rules, their sources and our readings).

>>> from shashki.star import StarBoard
>>> board = StarBoard(players=2)          # 121 holes, ten pieces a player
>>> len(board.legal_moves), board.perft(2)
(14, 196)
>>> board.push(board.parse_move("D5-E5"))
>>> board.turn, board.plies, board.moves_text()
(1, 1, ['D5-E5'])

Holes are numbered in reading order (``board.holes[i]`` is hole ``i``'s cube coordinates
``(q, r, s)``) and named as pbmserv's play-by-mail Chinese checkers names them: a row letter
from the top (``A``, the top point's tip, to ``Q``; ``M`` on the small star) and a number
along the rising diagonals (``A5``, ``E1``…``E13``, ``Q13``); :func:`hole_name` and
:func:`parse_hole` convert. A move is ``(start, end)``, written with its hops
(``C6-E6-G8``). Players are numbered in turn order from 0, the first on point 0 (the bottom
point); ``board.seat(player)`` gives the point a player sits on and the point it races to.
``board.text()`` is a position's text, :func:`write_record` and :func:`read_record` a
game's record, ``board.search(...)`` the computer's move and ``board.greedy_move()`` the
greedy player's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from shashki import _core
from shashki._core import IllegalMoveError, InvalidMoveError
from shashki._records import split_fields, split_record

Move = tuple[int, int]


class StarTextError(ValueError):
    """A star position's text or a game record that cannot be read (the message says what
    and where)."""


def _size_of(size: int) -> int:
    if size not in (3, 4):
        raise ValueError(f"a star of point size 3 or 4, not {size!r}")
    return size


def hole_name(hole: int, size: int = 4) -> str:
    """Hole ``hole``'s name: its row's letter from the top and its rising diagonal's number
    (pbmserv's names: ``A5`` is the top tip of the big star, ``Q13`` the bottom one)."""
    holes = _core.StarPosition.holes(_size_of(size))
    if not 0 <= hole < len(holes):
        raise ValueError(f"no hole {hole} on a star of {len(holes)} holes")
    q, r, _ = holes[hole]
    return f"{chr(ord('A') + r + 2 * size)}{q + r + 2 * size + 1}"


_NAMES: dict[int, dict[str, int]] = {}


def parse_hole(name: str, size: int = 4) -> int:
    """The hole named ``name`` (``"E6"``, any case); a ValueError naming it otherwise."""
    names = _NAMES.get(_size_of(size))
    if names is None:
        count = len(_core.StarPosition.holes(size))
        names = _NAMES[size] = {hole_name(h, size): h for h in range(count)}
    found = names.get(name.strip().upper())
    if found is None:
        raise InvalidMoveError(f"{name!r} is not a hole of the {len(names)}-hole star")
    return found


@dataclass(frozen=True)
class StarSearch:
    """The computer's answer: its move (None when the game is over), the score for the
    player to move (``WIN`` less the plies to a won race; otherwise the leading
    opponent's cost less its own), the last depth completed, the nodes searched, the
    principal variation."""

    move: Optional[Move]
    score: int
    depth: int
    nodes: int
    pv: list[Move]


#: A won race's score in :class:`StarSearch` (less the plies to it).
WIN = 1_000_000


class StarBoard:
    """A game on the star: its position and the moves played (``push``, ``pop``)."""

    def __init__(
        self, size: int = 4, players: int = 2, hop_over: str = "any", max_plies: int = 1000
    ) -> None:
        self._position = _core.StarPosition(size, players, hop_over, max_plies)
        self._root = self._position
        self._stack: list[tuple[_core.StarPosition, Move]] = []

    @property
    def size(self) -> int:
        """The point size: 4 (121 holes, ten pieces a player) or 3 (73 holes, six)."""
        return int(self._position.size)

    @property
    def players(self) -> int:
        return int(self._position.players)

    @property
    def max_plies(self) -> int:
        """The move limit: the game ends unfinished after this many plies."""
        return int(self._position.max_plies)

    @property
    def hop_over(self) -> str:
        """``"any"`` (hops over any piece) or ``"others"`` (over other players' only)."""
        return str(self._position.hop_over)

    @property
    def holes(self) -> list[tuple[int, int, int]]:
        """Each hole's cube coordinates, by index."""
        return _core.StarPosition.holes(self.size)

    @property
    def turn(self) -> int:
        """The player to move (in turn order)."""
        return int(self._position.turn)

    @property
    def plies(self) -> int:
        return int(self._position.plies)

    @property
    def finished(self) -> list[int]:
        """The players who have finished, first first (their places)."""
        return list(self._position.finished)

    @property
    def legal_moves(self) -> list[Move]:
        return list(self._position.legal_moves())

    @property
    def moves(self) -> list[Move]:
        """The moves played, first first."""
        return [move for _, move in self._stack]

    def seat(self, player: int) -> tuple[int, int]:
        """The point ``player`` sits on and the point it races to."""
        return self._position.seat(player)

    def pieces(self, player: int) -> list[int]:
        """``player``'s holes."""
        return list(self._position.pieces(player))

    def is_over(self) -> bool:
        """All but one player finished (two players: one), or the move limit reached."""
        return bool(self._position.is_over())

    def path(self, move: Move) -> list[int]:
        """The holes ``move`` passes, its start and end included (a ValueError when it is not
        legal)."""
        return list(self._position.path(*move))

    def push(self, move: Move) -> None:
        """Play ``move``; an illegal one is :class:`shashki.IllegalMoveError` (a ValueError)
        and the board is unchanged."""
        try:
            after = self._position.play(*move)
        except (ValueError, TypeError) as error:
            raise IllegalMoveError(str(error)) from None
        self._stack.append((self._position, (int(move[0]), int(move[1]))))
        self._position = after

    def hole_name(self, hole: int) -> str:
        """Hole ``hole``'s name on this star (:func:`hole_name`)."""
        return hole_name(hole, self.size)

    def move_text(self, move: Move) -> str:
        """A legal move with its hops, by the holes' names (``C6-E6-G8``)."""
        return "-".join(self.hole_name(h) for h in self.path(move))

    def moves_text(self) -> list[str]:
        """The moves played, each with its hops, first first."""
        out = []
        board = self.root()
        for move in self.moves:
            out.append(board.move_text(move))
            board.push(move)
        return out

    def parse_move(self, text: str) -> Move:
        """The legal move a text names: its start and end (``D5-E5``, ``A5-G11``), or its
        whole chain of hops (``A5-C7-E7-E9-G11``), each hop then checked. An unreadable
        text is :class:`shashki.InvalidMoveError`, a move that is not legal
        :class:`shashki.IllegalMoveError` (both ValueErrors)."""
        parts = [p for p in re.split(r"[-x: ]+", text.strip()) if p]
        if len(parts) < 2:
            raise InvalidMoveError(f"{text!r}: a move is its start and end, such as D5-E5")
        holes = [parse_hole(p, self.size) for p in parts]
        move = (holes[0], holes[-1])
        if move not in self.legal_moves:
            raise IllegalMoveError(f"{text!r} is not a legal move for player {self.turn}")
        if len(holes) > 2 and not self._is_chain(holes):
            raise IllegalMoveError(f"{text!r}: its hops are not a chain of legal hops")
        return move

    def _is_chain(self, holes: list[int]) -> bool:
        """Whether ``holes`` is a chain of hops of the piece on its first hole."""
        coords = self.holes
        index = {c: i for i, c in enumerate(coords)}
        mine = set(self.pieces(self.turn))
        taken = set().union(*(self.pieces(p) for p in range(self.players))) - {holes[0]}
        for a, b in zip(holes, holes[1:]):
            (qa, ra, sa), (qb, rb, sb) = coords[a], coords[b]
            dq, dr, ds = qb - qa, rb - ra, sb - sa
            if sorted(map(abs, (dq, dr, ds))) != [0, 2, 2]:
                return False
            over = index.get((qa + dq // 2, ra + dr // 2, sa + ds // 2))
            if over is None or over not in taken or b in taken:
                return False
            if self.hop_over == "others" and over in mine:
                return False
        return True

    def text(self) -> str:
        """The position as text: the game's settings, whose turn, the plies played, who has
        finished and each player's holes by name (:meth:`from_text` reads it back)::

            holes=121 players=2 hop=any limit=1000 turn=0 plies=0 finished=- 0=A5,... 1=...
        """
        finished = ",".join(map(str, self.finished)) or "-"
        fields = [
            f"holes={len(self.holes)}",
            f"players={self.players}",
            f"hop={self.hop_over}",
            f"limit={self._position.max_plies}",
            f"turn={self.turn}",
            f"plies={self.plies}",
            f"finished={finished}",
        ]
        for player in range(self.players):
            fields.append(f"{player}=" + ",".join(self.hole_name(h) for h in self.pieces(player)))
        return " ".join(fields)

    @classmethod
    def from_text(cls, text: str) -> StarBoard:
        """The board of a position's text (:meth:`text`); :class:`StarTextError` naming the
        field that is wrong."""
        fields = split_fields(text, StarTextError)
        try:
            size = {"121": 4, "73": 3}[fields.pop("holes", "121")]
        except KeyError:
            raise StarTextError("holes= is 121 or 73") from None

        def number(key: str, default: str) -> int:
            value = fields.pop(key, default)
            if not value.isdigit():
                raise StarTextError(f"{key}={value!r} is not a number")
            return int(value)

        players = number("players", "2")
        hop = fields.pop("hop", "any")
        limit = number("limit", "1000")
        turn = number("turn", "0")
        plies = number("plies", "0")
        finished_text = fields.pop("finished", "-")
        try:
            finished = [] if finished_text == "-" else [int(f) for f in finished_text.split(",")]
            pieces = []
            for player in range(players):
                names = fields.pop(str(player), None)
                if names is None:
                    raise StarTextError(f"no field {player}= (player {player}'s holes)")
                pieces.append([parse_hole(n, size) for n in names.split(",") if n])
        except ValueError as error:
            raise StarTextError(f"{text!r}: {error}") from None
        if fields:
            raise StarTextError(f"unknown fields: {', '.join(sorted(fields))}")
        try:
            position = _core.StarPosition.from_parts(
                size, players, hop, limit, pieces, turn, plies, finished
            )
        except ValueError as error:
            raise StarTextError(str(error)) from None
        board = cls.__new__(cls)
        board._position = position
        board._root = position
        board._stack = []
        return board

    def root(self) -> StarBoard:
        """The board before the first move played (its start or its set-up)."""
        board = StarBoard.__new__(StarBoard)
        board._position = self._root
        board._root = self._root
        board._stack = []
        return board

    def search(
        self,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        multi: str = "best-reply",
    ) -> StarSearch:
        """The computer's move for the player to move: alpha-beta with two players, the
        paranoid search with more (docs/star.md), iterative deepening within ``depth``,
        ``nodes`` and ``time`` seconds (without the GIL). Give ``nodes`` or ``time``, or a
        ``depth`` of at most 8; nothing at all is ``time=1``."""
        if depth is None and nodes is None and time is None:
            time = 1.0
        move, score, done, searched, pv = self._position.search(depth, nodes, time, multi)
        return StarSearch(move, int(score), int(done), int(searched), list(pv))

    def greedy_move(self, seed: int = 0) -> Optional[Move]:
        """The greedy player's move: the longest stride toward the tip of its target point
        (ties by ``seed``); None when the game is over."""
        return self._position.greedy_move(seed)

    def cost(self, player: int) -> int:
        """``player``'s distance to its goal as the search counts it: its pieces' steps to
        its target's tip less a filled point's, plus its last piece's lag; 0 once done."""
        return int(self._position.cost(player))

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self._stack:
            raise IndexError("no move to take back")
        self._position, move = self._stack.pop()
        return move

    def perft(self, depth: int) -> int:
        """The move paths of ``depth`` plies from here (in Rust, without the GIL)."""
        return int(self._position.perft(depth))

    def copy(self) -> StarBoard:
        board = StarBoard.__new__(StarBoard)
        board._position = self._position
        board._root = self._root
        board._stack = list(self._stack)
        return board

    def __repr__(self) -> str:
        return (
            f"<StarBoard size={self.size} players={self.players} hop_over={self.hop_over!r} "
            f"turn={self.turn} plies={self.plies}>"
        )


def write_record(board: StarBoard, tags: Optional[dict[str, str]] = None) -> str:
    """A game's record: PDN-like tags (the game's settings, a ``Setup`` when it did not
    start at the start, the ``Result``: the players in the order they finished, ``*``
    while it goes on) and its moves with their hops, numbered by ply::

        [Game "Chinese checkers"]
        [Holes "121"]
        ...
        1. D5-E5 2. N13-M12 3. C6-E6 ...
    """
    root = board.root()
    out = {
        "Game": "Chinese checkers",
        "Holes": str(len(board.holes)),
        "Players": str(board.players),
        "HopOver": board.hop_over,
        "MaxPlies": str(board.max_plies),
    }
    if root.text() != StarBoard(root.size, root.players, root.hop_over, root.max_plies).text():
        out["Setup"] = root.text()
    for key, value in (tags or {}).items():
        if key not in out and key != "Result":
            out[key] = value
    out["Result"] = " ".join(map(str, board.finished)) if board.is_over() else "*"
    lines = [f'[{key} "{value}"]' for key, value in out.items()]
    moves = [f"{root.plies + i + 1}. {text}" for i, text in enumerate(board.moves_text())]
    body, line = [], ""
    for word in moves:
        if line and len(line) + 1 + len(word) > 79:
            body.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        body.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(body) + ("\n" if body else "")


def read_record(text: str) -> tuple[dict[str, str], StarBoard]:
    """A game's record (:func:`write_record`) read back: its tags and the board after its
    moves (``board.moves``). A tag or move that cannot be read, or a move that is not
    legal, is :class:`StarTextError` naming it; the ``Result`` tag, when given, must be
    the replay's."""
    tags, words = split_record(text, StarTextError)
    try:
        size = {"121": 4, "73": 3}[tags.get("Holes", "121")]
        players = int(tags.get("Players", "2"))
        limit = int(tags.get("MaxPlies", "1000"))
    except (KeyError, ValueError):
        raise StarTextError("the Holes, Players or MaxPlies tag cannot be read") from None
    if "Setup" in tags:
        board = StarBoard.from_text(tags["Setup"])
    else:
        try:
            board = StarBoard(size, players, tags.get("HopOver", "any"), limit)
        except ValueError as error:
            raise StarTextError(f"the game's tags: {error}") from None
    for word in words:
        if re.fullmatch(r"\d+\.+", word) or word == "*":
            continue
        try:
            board.push(board.parse_move(word))
        except ValueError as error:
            raise StarTextError(f"ply {board.plies + 1}, {word!r}: {error}") from None
    result = tags.get("Result")
    if result is not None:
        replayed = " ".join(map(str, board.finished)) if board.is_over() else "*"
        if result != replayed:
            raise StarTextError(f"the Result tag says {result!r}, the moves give {replayed!r}")
    return tags, board
