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

import time

from shashki import Board, Move, _core
from shashki.columns import ColumnBoard
from shashki.game import Game
from shashki.search_types import (
    DEFAULT_MOVE_OVERHEAD,
    MAX_DEPTH,
    MAX_MOVE_OVERHEAD,
    MAX_NODES,
    MAX_REMAINING_MOVES,
    MAX_SECONDS,
    Limit,
    PlayResult,
    PovScore,
    Score,
    _board_of,
    _convert,
    _same_game,
)

__all__ = [
    "DEFAULT_MOVE_OVERHEAD",
    "MAX_DEPTH",
    "MAX_MOVE_OVERHEAD",
    "MAX_NODES",
    "MAX_REMAINING_MOVES",
    "MAX_SECONDS",
    "Engine",
    "EngineClosedError",
    "Limit",
    "PlayResult",
    "PovScore",
    "Score",
]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    import threading
    from os import PathLike
    from typing import Callable, Optional, Union, overload

    from shashki.egtb import EndgameTables
    from shashki.search_types import InfoDict as InfoDict
else:

    def overload(function: object) -> object:  # the real one only matters to type checkers
        return function


def _search_rules(board_or_game: object, board: Board) -> _core.DrawRules:
    """The core's draw rules for the search: a Game's, else the variant's default (a
    warning when the game's rules include some the search cannot apply)."""
    from shashki import draw

    rules = getattr(board_or_game, "draw_rules", None)
    if rules is None:
        rules = draw.default_draw_rules(board.variant)
    return rules._for_search()


class EngineClosedError(RuntimeError):
    """The engine was closed (``close()`` or the end of its ``with`` block)."""


class Engine:
    """shashki's search engine: a transposition table of ``hash_mb`` MiB (1–65536; the
    table's memory is taken and touched now, ``MemoryError`` when the machine does not have
    it free), ``threads`` search threads (1–256), and optionally endgame ``tables`` (a
    directory of :mod:`shashki.egtb` tables, or tables already open), and the ``evaluation``:
    ``"learned"`` (the default: weights fitted to self-play by :mod:`shashki.learn.train`, and in
    English, Italian and International draughts their networks, measured the stronger
    there: docs/search.md), ``"classic"`` (the hand-set weights of version 0.1),
    ``"family"`` (a linear evaluation any game can fit to its own self-play:
    docs/search.md; the other 10×10 games use it under the other choices but
    ``"network"``), ``"network"`` (the network compiled in for the game,
    :mod:`shashki.learn.network`; Russian, English, Italian and International draughts
    have one; a game without one is evaluated as by ``"learned"``) or the path of a network
    file
    (``python -m shashki.learn.train network fit`` writes them; a file of another shape or a
    damaged one is refused with a ``ValueError`` that says why), and the ``move_overhead``
    (see :meth:`set_move_overhead`).

    Searches run without the GIL. Several may run on one engine at once from several
    threads: each keeps its own limits and stop flag (a short search ending does not end a
    long one), and they share the table. :meth:`stop` stops every search running at that
    moment. Ctrl-C (KeyboardInterrupt) interrupts a search within 0.1 s and leaves the engine
    usable.
    """

    def __init__(
        self,
        hash_mb: int = 64,
        threads: int = 1,
        *,
        tables: Union[None, str, PathLike[str], EndgameTables] = None,
        evaluation: str = "learned",
        move_overhead: float = DEFAULT_MOVE_OVERHEAD,
    ) -> None:
        self._engine: Optional[_core.SearchEngine] = _core.SearchEngine(
            hash_mb=hash_mb, threads=threads
        )
        self._engine.set_evaluation(evaluation)
        self._engine.set_move_overhead(move_overhead)
        self._stops = 0  # counts stop() calls: a multi-line analysis ends on one
        self._pondering: Optional[_Ponder] = None  # play(ponder=True)'s search, if any
        self._column_searches: set[_ColumnSearch] = set()  # the column games' running ones
        self.tables: Optional[EndgameTables] = None
        if tables is not None:
            self.set_tables(tables)

    def set_tables(self, tables: Union[None, str, PathLike[str], EndgameTables]) -> None:
        """Use endgame tables (a directory or :func:`shashki.egtb.open`'s tables; None for
        none): positions they hold get their exact value, so the engine plays them
        perfectly and scores the lines that reach them exactly."""
        from shashki import egtb

        if tables is not None and not isinstance(tables, egtb.EndgameTables):
            tables = egtb.open(tables)
        self._core().set_endgame_tables(None if tables is None else tables._core)
        self.tables = tables

    @property
    def move_overhead(self) -> float:
        """Seconds a move is assumed to lose outside the search (see
        :meth:`set_move_overhead`)."""
        return self._core().move_overhead

    def set_move_overhead(self, seconds: float) -> None:
        """The time a move is assumed to lose outside the search — the caller's code, a
        connection, a machine busy with other work — from 0 to :data:`MAX_MOVE_OVERHEAD`
        seconds (:data:`DEFAULT_MOVE_OVERHEAD` by default), as Stockfish's "Move Overhead":
        under a clock the engine keeps this much a move to go (and two more) in reserve,
        never planned for. Raise it when moves arrive late on the clock (a slow connection,
        a loaded host); a fixed move time (``Limit(time=…)``) is kept as given."""
        self._core().set_move_overhead(seconds)

    @property
    def evaluation(self) -> str:
        """The evaluation in use: ``"learned"``, ``"classic"``, ``"family"``, ``"network"``
        or a network file's path."""
        return self._core().evaluation

    def set_evaluation(self, evaluation: str) -> None:
        """Use ``"learned"``, ``"classic"``, ``"family"`` (the family evaluation with the
        game's fitted weights: docs/search.md), ``"network"`` or a network file (see the
        class's documentation) in the searches that start from now on."""
        self._core().set_evaluation(evaluation)

    def set_variety(self, moves: int, *, margin: int = 20, seed: int = 0) -> None:
        """Vary the opening moves, so that games are not all the same: while the game's
        move number is at most ``moves``, :meth:`play` chooses at random (reproducibly from
        ``seed``) among the best four lines scored within ``margin`` centi-men of the best
        (``moves`` 0: never). The move number is the board's: give the engine the game
        (or a board with its moves), not only its last position. A forced win is never
        given up for variety."""
        if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
            raise ValueError(f"moves must be an int of at least 0, not {moves!r}")
        self._core().set_variety(moves, margin, seed)

    @property
    def variety(self) -> Optional[tuple[int, int, int]]:
        """The opening variety ``(moves, margin, seed)``, or None."""
        return self._core().variety

    def _core(self) -> _core.SearchEngine:
        engine = self._engine
        if engine is None:
            raise EngineClosedError("the engine is closed")
        return engine

    def close(self) -> None:
        """Stop any search and give back the table's memory. The engine cannot search
        afterwards (EngineClosedError); closing twice is harmless."""
        if self._engine is not None:
            self._end_ponder()
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.stop()
        self._stop_columns()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _search(
        self,
        board_or_game: Union[Board, Game, str],
        limit: Limit,
        on_info: Optional[Callable[[InfoDict], object]],
        *,
        need_limit: bool = False,
        root_moves: Optional[list[Move]] = None,
        multipv: Optional[int] = None,
        ponder: bool = False,
        rules_of: object = None,
    ) -> tuple[Optional[Move], Optional[Move], InfoDict]:
        """One search of ``board_or_game`` (the draw rules of ``rules_of``, a Game, when
        given: else its own)."""
        engine = self._core()
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
                info = _convert(raw, turn)
                if multipv is None:
                    del info["multipv"]
                on_info(info)

        best, reply, info = engine.search(
            board,
            draw_rules=_search_rules(board_or_game if rules_of is None else rules_of, board),
            depth=limit.depth,
            nodes=limit.nodes,
            movetime=limit.time,
            time_left=clock,
            increment=inc,
            moves_to_go=limit.remaining_moves,
            on_info=callback,
            root_moves=root_moves,
            multipv=multipv,
            ponder=ponder,
        )
        if multipv is not None:
            return best, reply, info  # the caller converts the lines
        out = _convert(info, turn)
        del out["multipv"], out["lines"]
        return best, reply, out

    def play(
        self,
        board: Union[Board, Game, str, ColumnBoard],
        limit: Limit,
        *,
        on_info: Optional[Callable[[InfoDict], object]] = None,
        ponder: bool = False,
    ) -> PlayResult:
        """Choose a move for the side to move of a Board, a Game or a FEN. ``limit`` must
        limit the search (a time, depth, nodes or the side to move's clock): ``Limit()`` raises
        ValueError.

        A :class:`shashki.ColumnBoard` (towers, Lasca) is searched by the column games' own
        search (alpha-beta with a transposition table and a quiescence of the captures, an
        evaluation of the columns: docs/variants.md); its tables, evaluation choice and
        pondering are this engine's one-piece games' only.

        ``ponder=True``: after answering, the engine goes on thinking in the background on
        the position after its move and the reply it expects (``PlayResult.ponder``). When
        the next ``play`` is on that position (the same moves), that search goes on under
        the new limit, its time counted from when the pondering began: the opponent's
        thinking time was the engine's too. Any other call (another position, ``analyse``,
        ``stop``, ``new_game``, ``close``) ends the pondering first. A ponder search
        reports to this call's ``on_info``. At fixed nodes or depth pondering gains nothing
        (the count starts with the pondering)."""
        if isinstance(board, ColumnBoard):
            return self._columns(board, limit, on_info, need_limit=True)
        pondered = self._take_ponder(board, limit)
        if pondered is not None:
            best, ponder_move, info = pondered
        else:
            best, ponder_move, info = self._search(board, limit, on_info, need_limit=True)
        if ponder and best is not None and ponder_move is not None:
            self._start_ponder(board, best, ponder_move, limit, on_info)
        return PlayResult(best, ponder_move, info)

    def search(
        self,
        board: Union[Board, Game, str, ColumnBoard],
        limit: Limit,
        *,
        on_info: Optional[Callable[[InfoDict], object]] = None,
    ) -> PlayResult:
        """One search of ``board``, answered as :meth:`play` answers: the move, the reply
        expected, the last info. Unlike ``play``, ``Limit()`` is allowed (it searches until
        :meth:`stop`) and nothing is pondered; what a Hub engine's ``go think`` and ``go
        analyze`` do."""
        self._end_ponder()
        if isinstance(board, ColumnBoard):
            return self._columns(board, limit, on_info)
        best, reply, info = self._search(board, limit, on_info)
        return PlayResult(best, reply, info)

    def ponder(
        self,
        board: Union[Board, Game, str, ColumnBoard],
        limit: Limit,
        *,
        on_info: Optional[Callable[[InfoDict], object]] = None,
    ) -> PlayResult:
        """Think on the opponent's time, as a Hub engine's ``go ponder`` does: a search of
        ``board`` whose time limits are held until :meth:`ponderhit` (its depth and node
        limits hold at once); it returns when stopped (:meth:`stop`) or, after the hit,
        when its limits are reached. Call it on a thread of its own; ``play(...,
        ponder=True)`` is the simpler way to ponder through this API. A
        :class:`shashki.ColumnBoard` ponders the same way (its time limit is the move's
        share of the clock, as :meth:`play` takes it)."""
        if isinstance(board, ColumnBoard):
            return self._columns(board, limit, on_info, ponder=True)
        best, ponder_move, info = self._search(board, limit, on_info, ponder=True)
        return PlayResult(best, ponder_move, info)

    def ponderhit(self) -> bool:
        """Start the clocks of the pondering searches running on this engine
        (:meth:`ponder`): their time limits count from when they began. False when no
        pondering search has started yet (call it again)."""
        hit = False
        for search in list(self._column_searches):
            hit = search.hit() or hit
        return bool(self._core().ponderhit()) or hit

    def _start_ponder(
        self,
        board_or_game: Union[Board, Game, str],
        move: Move,
        reply: Move,
        limit: Limit,
        on_info: Optional[Callable[[InfoDict], object]],
    ) -> None:
        """Search the position after ``move`` and ``reply`` in the background, its time
        limits held until the ponder hit."""
        import threading

        after = _board_of(board_or_game).copy()
        after.push(move)
        after.push(reply)
        ponder = _Ponder(after)

        def search() -> None:
            try:
                ponder.result = self._search(
                    after, limit, on_info, ponder=True, rules_of=board_or_game
                )
            except BaseException as error:  # handed to the play() that takes it
                ponder.error = error

        ponder.thread = threading.Thread(target=search, name="shashki ponder", daemon=True)
        self._pondering = ponder
        ponder.thread.start()

    def _take_ponder(
        self, board_or_game: Union[Board, Game, str], limit: Limit
    ) -> Optional[tuple[Optional[Move], Optional[Move], InfoDict]]:
        """The pondering search's answer when ``board_or_game`` is the position it
        pondered (a ponder hit: it goes on under ``limit``'s times), else None (and any
        pondering is stopped)."""
        ponder = self._pondering
        if ponder is None:
            return None
        board = _board_of(board_or_game)
        if not _same_game(board, ponder.board):
            self._end_ponder()
            return None
        self._pondering = None
        turn = board.turn
        clock = limit.white_clock if turn else limit.black_clock
        timed = limit.time is not None or clock is not None
        while ponder.thread is not None and ponder.thread.is_alive():
            # Repeated until it lands: a hit before the search has started is not seen.
            if timed:
                self._core().ponderhit(
                    movetime=limit.time,
                    time_left=clock,
                    increment=limit.white_inc if turn else limit.black_inc,
                    moves_to_go=limit.remaining_moves,
                )
            else:
                self._core().ponderhit()
            ponder.thread.join(timeout=0.01)
        if ponder.error is not None:
            raise ponder.error
        return ponder.result

    def _end_ponder(self) -> None:
        """Stop the pondering search, if any, and forget it."""
        ponder, self._pondering = self._pondering, None
        if ponder is None or ponder.thread is None:
            return
        while ponder.thread.is_alive():
            self._core().stop()
            ponder.thread.join(timeout=0.05)

    @overload
    def analyse(
        self,
        board: Union[Board, Game, str, ColumnBoard],
        limit: Limit,
        *,
        multipv: None = None,
        on_info: Optional[Callable[[InfoDict], object]] = None,
    ) -> InfoDict: ...

    @overload
    def analyse(  # noqa: F811 (overloads)
        self,
        board: Union[Board, Game, str, ColumnBoard],
        limit: Limit,
        *,
        multipv: int,
        on_info: Optional[Callable[[InfoDict], object]] = None,
    ) -> list[InfoDict]: ...

    def analyse(  # noqa: F811 (overloads)
        self,
        board: Union[Board, Game, str, ColumnBoard],
        limit: Limit,
        *,
        multipv: Optional[int] = None,
        on_info: Optional[Callable[[InfoDict], object]] = None,
    ) -> Union[InfoDict, list[InfoDict]]:
        """Analyse: ``{"score": PovScore, "depth", "seldepth", "nodes", "nps", "time",
        "pv"}``; ``on_info`` is called after every iteration. ``Limit()`` analyses until
        :meth:`stop` (from another thread) or Ctrl-C.

        ``multipv=K``: the best K lines, as a list of K infos (fewer when there are fewer
        legal moves) with distinct first moves, best first, each with ``"multipv"`` (1…K,
        also in the infos ``on_info`` gets: every line after each iteration). The lines are
        searched together, as Stockfish does: each iteration searches the best line, then
        the best among the other first moves, and so on, all within the one limit."""
        self._end_ponder()
        if isinstance(board, ColumnBoard):  # the column search: one line
            if multipv not in (None, 1):
                raise ValueError("a column game is analysed one line at a time (multipv=1)")
            info = self._columns(board, limit, on_info).info
            return info if multipv is None else [{**info, "multipv": 1}]
        if multipv is None:
            return self._search(board, limit, on_info)[2]
        if isinstance(multipv, bool) or not isinstance(multipv, int) or multipv < 1:
            raise ValueError(f"multipv must be a positive int, not {multipv!r}")
        turn = _board_of(board).turn
        _, _, info = self._search(board, limit, on_info, multipv=min(multipv, 256))
        return [_convert(line, turn) for line in info["lines"]]

    def _columns(
        self,
        board: ColumnBoard,
        limit: Limit,
        on_info: Optional[Callable[[InfoDict], object]],
        *,
        need_limit: bool = False,
        ponder: bool = False,
    ) -> PlayResult:
        """A column game's search (see :meth:`Engine.play`, :meth:`Engine.search` and
        :meth:`Engine.ponder`): stopped by :meth:`Engine.stop`, its time held while it ponders
        until :meth:`Engine.ponderhit`."""
        if not isinstance(limit, Limit):
            raise TypeError(f"limit must be a Limit, not {type(limit).__name__}")
        if need_limit and not limit.limits(board.turn):
            raise ValueError("Engine.play needs a limit: a time, depth, nodes or a clock")
        self._core()  # refused once closed
        seconds = _column_seconds(board, limit, self.move_overhead)
        search = _ColumnSearch(seconds, ponder)
        self._column_searches.add(search)
        started = time.monotonic()

        def on_depth(answer: tuple[object, ...]) -> None:
            if on_info is not None:
                on_info(_column_info(board, answer, time.monotonic() - started))

        try:
            answer = board.search(
                depth=limit.depth,
                nodes=limit.nodes,
                time=None if ponder else seconds,
                control=search.control,
                on_depth=on_depth,
            )
            if ponder:
                # A ponder search answers after the hit or a stop, even when its depth or
                # nodes ran out before.
                search.done.wait()
        finally:
            self._column_searches.discard(search)
        info = _column_info(board, answer, time.monotonic() - started)
        best, pv = answer[0], info["pv"]
        return PlayResult(best, pv[1] if len(pv) > 1 else None, info)

    def stop(self) -> None:
        """Stop every search running on this engine (call it from another thread); each
        returns its best move so far. A stop that comes before a search has started does
        not reach it: call it again while the search runs. Pondering stops too."""
        self._stops += 1
        self._end_ponder()
        self._core().stop()
        self._stop_columns()

    def _stop_columns(self) -> None:
        for search in list(self._column_searches):
            search.stop()

    def searches_running(self) -> int:
        """How many searches are running on this engine now."""
        return self._core().searches_running() + len(self._column_searches)

    def new_game(self) -> None:
        """Forget what earlier searches stored (and stop pondering)."""
        self._end_ponder()
        self._core().clear()


class _Ponder:
    """A search pondering on ``board`` in ``thread``; its answer or its error."""

    __slots__ = ("board", "thread", "result", "error")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.thread: Optional[threading.Thread] = None
        self.result: Optional[tuple[Optional[Move], Optional[Move], InfoDict]] = None
        self.error: Optional[BaseException] = None


def __getattr__(name: str) -> object:
    """``HubEngine`` and ``EngineError`` live in :mod:`shashki.protocols.hub_client`; their
    old names here keep working for one release, with a ``DeprecationWarning``."""
    if name in ("HubEngine", "EngineError"):
        import importlib
        import warnings

        warnings.warn(
            f"shashki.engine.{name} is deprecated: import it from shashki.protocols.hub_client",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module("shashki.protocols.hub_client"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The share of a clock a column game's move may take when the limit is a clock.
_COLUMN_CLOCK_SHARE = 30


class _ColumnSearch:
    """A running column search: its control, the time it may take (held while it
    ponders), and, while pondering, the event a hit or a stop sets."""

    __slots__ = ("control", "seconds", "pondering", "done")

    def __init__(self, seconds: Optional[float], pondering: bool) -> None:
        import threading

        self.control = _core.ColumnControl()
        self.seconds = seconds
        self.pondering = pondering
        self.done = threading.Event()

    def hit(self) -> bool:
        if not self.pondering:
            return False
        self.pondering = False
        if self.seconds is not None:
            self.control.set_time(self.seconds)
        self.done.set()
        return True

    def stop(self) -> None:
        self.control.stop()
        self.done.set()


def _column_seconds(board: ColumnBoard, limit: Limit, overhead: float) -> Optional[float]:
    """The time a column game's move may take under ``limit``: its move time, or a share
    of the side to move's clock, less the move overhead."""
    seconds = limit.time
    clock = limit.white_clock if board.turn else limit.black_clock
    if seconds is None and clock is not None:
        inc = (limit.white_inc if board.turn else limit.black_inc) or 0.0
        moves = limit.remaining_moves or _COLUMN_CLOCK_SHARE
        return max(0.0, min(clock - overhead, clock / moves + inc - overhead))
    if seconds is not None:
        return max(0.0, seconds - overhead)
    return None


def _column_info(board: ColumnBoard, answer: tuple[object, ...], elapsed: float) -> InfoDict:
    _best, kind, value, depth, nodes, pv = answer
    assert isinstance(value, int) and isinstance(depth, int) and isinstance(nodes, int)
    score = Score(cp=value) if kind == "cp" else Score(win=value)
    return {
        "score": PovScore(score, board.turn),
        "depth": depth,
        "seldepth": depth,
        "nodes": nodes,
        "nps": int(nodes / elapsed) if elapsed > 0 else nodes,
        "time": elapsed,
        "pv": list(pv),  # type: ignore[call-overload]
    }
