"""What an engine is asked and answers, shared by shashki's own engine
(:mod:`shashki.engine`) and the Hub client (:mod:`shashki.protocols.hub_client`): :class:`Limit`,
:class:`Score`, :class:`PovScore`, :class:`PlayResult` and the info dictionary. Both engine
modules import from here; this module imports neither, so the layers point one way.
"""

from __future__ import annotations

from shashki import Board, Move, _core
from shashki._value import Value
from shashki.game import Game

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from typing import Any, Optional

    InfoDict = dict[str, Any]


class Score(Value):
    """A score for one side: centi-men (``cp``, a man = 100) or a forced result in ``win``
    moves, a signed distance: positive, this side wins in that many of its moves; negative,
    it loses in that many of the opponent's moves."""

    cp: Optional[int] = None
    win: Optional[int] = None

    def is_win(self) -> bool:
        """Whether this side wins by force."""
        return self.win is not None and self.win > 0

    def is_loss(self) -> bool:
        """Whether this side loses by force."""
        return self.win is not None and self.win < 0

    def is_forced(self) -> bool:
        """Whether the result is forced (a win or a loss at a known distance)."""
        return self.win is not None

    def __neg__(self) -> Score:
        if self.win is not None:
            return Score(win=-self.win)
        return Score(cp=-(self.cp or 0))

    def __str__(self) -> str:
        if self.win is not None:
            return f"#{self.win}"
        return f"{(self.cp or 0) / 100:+.2f}"


class PovScore(Value):
    """A score from the point of view of ``turn`` (the side to move when it was computed)."""

    relative: Score
    turn: bool

    def pov(self, color: bool) -> Score:
        return self.relative if color == self.turn else -self.relative

    def white(self) -> Score:
        return self.pov(True)

    def black(self) -> Score:
        return self.pov(False)

    def __str__(self) -> str:
        return f"{self.white()} (White's view)"


MAX_SECONDS = 365 * 24 * 3600.0
"""The longest time a :class:`Limit` may give (a year)."""
MAX_NODES = 2**63 - 1
MAX_DEPTH = 120
MAX_REMAINING_MOVES = 1000
DEFAULT_MOVE_OVERHEAD: float = _core.DEFAULT_MOVE_OVERHEAD
"""Seconds a move is assumed to lose outside the search unless set (see
:meth:`Engine.set_move_overhead`)."""
MAX_MOVE_OVERHEAD: float = _core.MAX_MOVE_OVERHEAD
"""The largest move overhead :meth:`Engine.set_move_overhead` takes, in seconds."""


def _check_seconds(name: str, value: object) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"Limit.{name} must be a number of seconds, not {type(value).__name__}")
    if not 0 <= value <= MAX_SECONDS:  # also refuses nan
        raise ValueError(
            f"Limit.{name} must be between 0 and {MAX_SECONDS:.0f} seconds (a year), not {value!r}"
        )


def _check_int(name: str, value: object, high: int) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Limit.{name} must be an int, not {type(value).__name__}")
    if not 1 <= value <= high:
        shown = value if value.bit_length() < 128 else "a number that large"
        raise ValueError(f"Limit.{name} must be between 1 and {high}, not {shown}")


class Limit(Value):
    """When to stop searching. ``time``: seconds for this move; ``depth`` (1–120);
    ``nodes`` (1 to 2**63−1); ``white_clock``/``black_clock`` (seconds left),
    ``white_inc``/``black_inc``, ``remaining_moves`` (to the next time control, 1–1000).
    Times are between 0 and a year. Every value is checked here: a bad one raises
    ``ValueError`` (``TypeError`` for a value that is not a number).

    ``Limit()`` sets no limit: :meth:`Engine.analyse` then runs until :meth:`Engine.stop` or
    Ctrl-C, and :meth:`Engine.play` refuses it (a move needs a limit)."""

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    white_clock: Optional[float] = None
    black_clock: Optional[float] = None
    white_inc: Optional[float] = None
    black_inc: Optional[float] = None
    remaining_moves: Optional[int] = None

    def __init__(
        self,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        white_clock: Optional[float] = None,
        black_clock: Optional[float] = None,
        white_inc: Optional[float] = None,
        black_inc: Optional[float] = None,
        remaining_moves: Optional[int] = None,
    ) -> None:
        super().__init__(
            time, depth, nodes, white_clock, black_clock, white_inc, black_inc, remaining_moves
        )
        for name in ("time", "white_clock", "black_clock", "white_inc", "black_inc"):
            _check_seconds(name, getattr(self, name))
        _check_int("depth", self.depth, MAX_DEPTH)
        _check_int("nodes", self.nodes, MAX_NODES)
        _check_int("remaining_moves", self.remaining_moves, MAX_REMAINING_MOVES)

    def limits(self, turn: bool) -> bool:
        """Whether this limits a search for the side ``turn`` (``WHITE`` is True): a time,
        a depth, a node count or that side's clock."""
        clock = self.white_clock if turn else self.black_clock
        return not (self.time is None and self.depth is None and self.nodes is None) or (
            clock is not None
        )


class PlayResult:
    """The move to play (``None`` when there is no legal move), the expected reply, and the
    last search report."""

    __slots__ = ("move", "ponder", "info")

    def __init__(
        self, move: Optional[Move], ponder: Optional[Move], info: Optional[InfoDict] = None
    ) -> None:
        self.move = move
        self.ponder = ponder
        self.info: InfoDict = {} if info is None else info

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayResult):
            return NotImplemented
        return (self.move, self.ponder, self.info) == (other.move, other.ponder, other.info)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PlayResult(move={self.move!r}, ponder={self.ponder!r}, info={self.info!r})"


def _convert(info: InfoDict, turn: bool) -> InfoDict:
    kind, value = info["score"]
    score = Score(cp=value) if kind == "cp" else Score(win=value)
    out = dict(info)
    out["score"] = PovScore(score, turn)
    return out


def _board_of(board_or_game: object) -> Board:
    """The board to search: a Board, a Game's current board, or a FEN string."""
    if isinstance(board_or_game, Board):
        return board_or_game
    if isinstance(board_or_game, Game):
        return board_or_game.current_board
    if isinstance(board_or_game, str):
        return Board(board_or_game)
    raise TypeError(f"expected a Board, a Game or a FEN string, not {type(board_or_game).__name__}")


def _same_game(a: Board, b: Board) -> bool:
    """Whether two boards hold the same game: the same moves to the same position."""
    return a.move_stack == b.move_stack and a.fen() == b.fen()
