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

The search runs without the GIL: two engines can search at once in two threads, and
``engine.stop()`` from another thread ends a search early (it still returns a move).
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


@dataclass(frozen=True)
class Limit:
    """When to stop searching. ``time``: seconds for this move; ``depth``; ``nodes``;
    ``white_clock``/``black_clock`` (seconds left), ``white_inc``/``black_inc``,
    ``remaining_moves`` (to the next time control). No limit at all: search until stopped."""

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
            value = getattr(self, name)
            if value is not None and not (value >= 0):
                raise ValueError(f"Limit.{name} must be a non-negative number, not {value!r}")
        if self.depth is not None and not 1 <= self.depth <= 120:
            raise ValueError(f"Limit.depth must be between 1 and 120, not {self.depth!r}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"Limit.nodes must be positive, not {self.nodes!r}")
        if self.remaining_moves is not None and self.remaining_moves < 1:
            raise ValueError(
                f"Limit.remaining_moves must be positive, not {self.remaining_moves!r}"
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


class Engine:
    """shashki's search engine."""

    def __init__(self, hash_mb: int = 64, threads: int = 1) -> None:
        self._engine = _core.SearchEngine(hash_mb=hash_mb, threads=threads)

    def _search(
        self,
        board_or_game: Union[Board, Game],
        limit: Limit,
        on_info: Optional[Callable[[InfoDict], object]],
    ) -> tuple[Optional[Move], Optional[Move], InfoDict]:
        board = board_or_game.board if isinstance(board_or_game, Game) else board_or_game
        if not isinstance(limit, Limit):
            raise TypeError(f"limit must be a Limit, not {type(limit).__name__}")
        turn = board.turn
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
        board: Union[Board, Game],
        limit: Limit,
        *,
        on_info: Optional[Callable[[InfoDict], object]] = None,
    ) -> PlayResult:
        """Choose a move."""
        best, ponder, info = self._search(board, limit, on_info)
        return PlayResult(best, ponder, info)

    def analyse(
        self,
        board: Union[Board, Game],
        limit: Limit,
        *,
        on_info: Optional[Callable[[InfoDict], object]] = None,
    ) -> InfoDict:
        """Analyse: ``{"score": PovScore, "depth", "seldepth", "nodes", "nps", "time",
        "pv"}``; ``on_info`` is called after every iteration."""
        return self._search(board, limit, on_info)[2]

    def stop(self) -> None:
        """Stop the running search (from another thread). A stop that comes before the
        search has started is forgotten when it starts: call it again while the search runs."""
        self._engine.stop()

    def new_game(self) -> None:
        """Forget what earlier searches stored."""
        self._engine.clear()
