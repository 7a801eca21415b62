"""The engine: play and analyse with the Rust search (python-chess-like API).

>>> import shashki
>>> from shashki.engine import Engine, Limit
>>> engine = Engine(hash_mb=16)
>>> result = engine.play(shashki.Board(), Limit(depth=6))
>>> result.move in shashki.Board().legal_moves
True
>>> info = engine.analyse(shashki.Board("W:WK29:B1"), Limit(depth=5))
>>> info["score"].relative.is_win()   # a king against a lone man wins by force
True

The search runs without the GIL: searches can run at once in several threads (each with
its own limits), ``engine.stop()`` from another thread ends the running searches early (each
still returns a move), and Ctrl-C interrupts a search (KeyboardInterrupt).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

from shashki import Board, Move, _core
from shashki.game import Game

InfoDict = dict[str, Any]


@dataclass(frozen=True)
class Score:
    """A score for one side: centi-men (``cp``, a man = 100) or a forced win in ``win``
    moves (negative: a forced loss)."""

    cp: Optional[int] = None
    win: Optional[int] = None

    def is_win(self) -> bool:
        return self.win is not None

    def __neg__(self) -> Score:
        if self.win is not None:
            return Score(win=-self.win)
        return Score(cp=-(self.cp or 0))

    def __str__(self) -> str:
        if self.win is not None:
            return f"#{self.win}"
        return f"{(self.cp or 0) / 100:+.2f}"


@dataclass(frozen=True)
class PovScore:
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


@dataclass(frozen=True)
class Limit:
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

    def __post_init__(self) -> None:
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


@dataclass
class PlayResult:
    """The move to play (``None`` when there is no legal move), the expected reply, and the
    last search report."""

    move: Optional[Move]
    ponder: Optional[Move]
    info: InfoDict = field(default_factory=dict)


def _history(board: Board) -> list[int]:
    """Hashes of the positions before the current one, oldest first."""
    replay = board.copy()
    hashes = []
    while replay.move_stack:
        replay.pop()
        hashes.append(replay.zobrist_hash())
    hashes.reverse()
    return hashes


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
        return board_or_game.board
    if isinstance(board_or_game, str):
        return Board(board_or_game)
    raise TypeError(f"expected a Board, a Game or a FEN string, not {type(board_or_game).__name__}")


class Engine:
    """shashki's search engine: a transposition table of ``hash_mb`` MiB (1–65536; the
    table's memory is taken and touched now, ``MemoryError`` when the machine does not have
    it free) and ``threads`` search threads (1–256).

    Searches run without the GIL. Several may run on one engine at once from several
    threads: each keeps its own limits and stop flag (a short search ending does not end a
    long one), and they share the table. :meth:`stop` stops every search running at that
    moment. Ctrl-C (KeyboardInterrupt) interrupts a search within 0.1 s and leaves the engine
    usable.
    """

    def __init__(self, hash_mb: int = 64, threads: int = 1) -> None:
        self._engine = _core.SearchEngine(hash_mb=hash_mb, threads=threads)

    def _search(
        self,
        board_or_game: Union[Board, Game, str],
        limit: Limit,
        on_info: Optional[Callable[[InfoDict], object]],
        *,
        need_limit: bool = False,
    ) -> tuple[Optional[Move], Optional[Move], InfoDict]:
        board = _board_of(board_or_game)
        if not isinstance(limit, Limit):
            raise TypeError(f"limit must be a Limit, not {type(limit).__name__}")
        turn = board.turn
        if need_limit and not limit.limits(turn):
            side = "White" if turn else "Black"
            raise ValueError(
                f"Engine.play needs a limit: a time, depth, nodes or {side}'s clock "
                "(Limit() searches until stopped: use analyse() for that)"
            )
        clock = limit.white_clock if turn else limit.black_clock
        inc = limit.white_inc if turn else limit.black_inc
        callback = None
        if on_info is not None:

            def callback(raw: InfoDict) -> None:
                on_info(_convert(raw, turn))

        best, ponder, info = self._engine.search(
            board,
            _history(board),
            depth=limit.depth,
            nodes=limit.nodes,
            movetime=limit.time,
            time_left=clock,
            increment=inc,
            moves_to_go=limit.remaining_moves,
            on_info=callback,
        )
        return best, ponder, _convert(info, turn)

    def play(
        self,
        board: Union[Board, Game, str],
        limit: Limit,
        *,
        on_info: Optional[Callable[[InfoDict], object]] = None,
    ) -> PlayResult:
        """Choose a move for the side to move of a Board, a Game or a FEN. ``limit`` must
        limit the search (a time, depth, nodes or the side to move's clock): ``Limit()`` raises
        ValueError."""
        best, ponder, info = self._search(board, limit, on_info, need_limit=True)
        return PlayResult(best, ponder, info)

    def analyse(
        self,
        board: Union[Board, Game, str],
        limit: Limit,
        *,
        on_info: Optional[Callable[[InfoDict], object]] = None,
    ) -> InfoDict:
        """Analyse: ``{"score": PovScore, "depth", "seldepth", "nodes", "nps", "time",
        "pv"}``; ``on_info`` is called after every iteration. ``Limit()`` analyses until
        :meth:`stop` (from another thread) or Ctrl-C."""
        return self._search(board, limit, on_info)[2]

    def stop(self) -> None:
        """Stop every search running on this engine (call it from another thread); each
        returns its best move so far. A stop that comes before a search has started does
        not reach it: call it again while the search runs."""
        self._engine.stop()

    def searches_running(self) -> int:
        """How many searches are running on this engine now."""
        return self._engine.searches_running()

    def new_game(self) -> None:
        """Forget what earlier searches stored."""
        self._engine.clear()
