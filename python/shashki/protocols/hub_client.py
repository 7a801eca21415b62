"""Drive any engine that speaks the Hub protocol (Scan's, version 2) from Python, with the
API of :class:`shashki.engine.Engine`: ``play``, ``analyse``, :class:`~shashki.engine.Limit`,
:class:`~shashki.engine.PovScore`, a context manager. Import it as
``shashki.protocols.hub_client.HubEngine``.

>>> import shashki, sys
>>> from shashki.engine import Limit
>>> from shashki.protocols.hub_client import HubEngine
>>> with HubEngine.popen([sys.executable, "-m", "shashki", "hub"]) as engine:
...     result = engine.play(shashki.Board(), Limit(depth=4))
...     info = engine.analyse(shashki.Board("W:WK29:B1"), Limit(depth=6))
>>> result.move in shashki.Board().legal_moves, info["score"].relative.is_win()
(True, True)

Every read has a timeout: an engine that says nothing for ``timeout`` seconds (beyond the
move's own time), dies, or answers something that is not the protocol is an
:class:`EngineError`, and its process is killed: nothing hangs.
"""

from __future__ import annotations

import queue
import threading

from shashki import Board, Move
from shashki.protocols import hub_text as _hub
from shashki.search_types import Limit, PlayResult, PovScore, _board_of, _same_game

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Sequence
    from typing import Any, Callable, Optional, Union

    from shashki.search_types import InfoDict

__all__ = ["EngineError", "HubEngine"]


class EngineError(RuntimeError):
    """A Hub engine hung, died, or answered something that is not the protocol."""


_END = object()  # the reader's mark: the engine's output ended


class HubEngine:
    """A Hub engine in a subprocess: start one with :meth:`popen`."""

    def __init__(self, process: subprocess.Popen[str], *, timeout: float = 10.0) -> None:
        self._process = process
        self.timeout = timeout
        self.id: dict[str, str] = {}
        """What the engine said of itself (``name``, ``version``, ``author``)."""
        self.options: dict[str, dict[str, str]] = {}
        """The parameters it offers: name → its fields (``value``, ``type``, …)."""
        self._lines: queue.Queue[object] = queue.Queue()
        self._reader = threading.Thread(target=self._read_all, daemon=True)
        self._reader.start()
        self._closed = False
        self._pondering: Optional[tuple[Board, Limit]] = None  # the position, its limit

    @classmethod
    def popen(
        cls,
        command: Union[str, Sequence[str]],
        *,
        timeout: float = 10.0,
        options: Optional[dict[str, object]] = None,
        cwd: Optional[str] = None,
    ) -> HubEngine:
        """Start ``command`` (a list of arguments, or a string split as a shell would) and
        go through the protocol's handshake (``hub`` … ``wait``; ``set-param`` for each of
        ``options``; ``init`` … ``ready``), each step within ``timeout`` seconds."""
        import shlex
        import subprocess

        args = shlex.split(command) if isinstance(command, str) else list(command)
        try:
            process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
                cwd=cwd,
            )
        except OSError as error:
            raise EngineError(f"cannot start {args!r}: {error}") from None
        engine = cls(process, timeout=timeout)
        try:
            engine._send("hub")
            for words in engine._until("wait"):
                if words[0] == "id":
                    engine.id.update(words[1])
                elif words[0] == "param" and "name" in words[1]:
                    engine.options[words[1]["name"]] = words[1]
            for name, value in (options or {}).items():
                engine.configure(name, value)
            engine._send("init")
            for _ in engine._until("ready"):
                pass
        except BaseException:
            engine.close()
            raise
        return engine

    # ---- the line protocol -------------------------------------------------------------

    def _read_all(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        try:
            for line in stdout:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(_END)

    def _send(self, line: str) -> None:
        if self._closed:
            raise EngineError("the engine was closed")
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (OSError, ValueError):
            self._fail(f"the engine stopped reading (sending {line.split()[0]!r})")

    def _fail(self, message: str) -> None:
        self.close(kill=True)
        raise EngineError(message)

    def _until(
        self, word: str, *, silence: Optional[float] = None
    ) -> Any:  # an iterator of (command, args)
        """The lines up to and including the first that starts with ``word``, as (command,
        arguments) pairs; each within ``silence`` seconds of the one before (``timeout``
        by default)."""
        wait = self.timeout if silence is None else silence
        while True:
            try:
                raw = self._lines.get(timeout=wait)
            except queue.Empty:
                self._fail(f"the engine said nothing for {wait:g} s (waiting for {word!r})")
            if raw is _END:
                code = self._process.poll()
                self._fail(f"the engine ended (exit status {code}) before {word!r}")
            assert isinstance(raw, str)
            command, _, rest = raw.strip().partition(" ")
            if not command:
                continue
            args = {k: (v[1:-1] if v.startswith('"') else v) for k, v in _hub.ARG.findall(rest)}
            yield command, args
            if command == word:
                return

    def configure(self, name: str, value: object) -> None:
        """``set-param name=NAME value=VALUE`` (booleans as ``true``/``false``)."""
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if any(c.isspace() or c == '"' for c in name) or '"' in text or "\n" in text:
            raise ValueError(f"a Hub parameter cannot hold {name!r} = {text!r}")
        self._send(f'set-param name={name} value="{text}"')

    # ---- the Engine API ----------------------------------------------------------------

    def _search(
        self, board: Board, limit: Limit, on_info: Optional[Callable[[InfoDict], None]]
    ) -> tuple[Optional[Move], Optional[Move], InfoDict]:
        self._end_ponder()
        self._go(board, limit, "think")
        return self._answer(board, limit, on_info)

    def _go(self, board: Board, limit: Limit, mode: str) -> None:
        """Send the position, the level and ``go MODE``."""
        if self._closed:
            raise EngineError("the engine was closed")
        root = board.root()
        moves = " ".join(_hub.move_to_hub(m) for m in board.move_stack)
        self._send(f'pos pos={_hub.board_to_hub(root)} moves="{moves}"')
        self._send(self._level(board, limit))
        self._send(f"go {mode}")

    def _answer(
        self, board: Board, limit: Limit, on_info: Optional[Callable[[InfoDict], None]]
    ) -> tuple[Optional[Move], Optional[Move], InfoDict]:
        """Read the search's reports up to its ``done``: (move, expected reply, info)."""
        # The move's own time, then ``timeout`` of silence at most between lines.
        own = limit.time if limit.time is not None else self._clock_time(board, limit)
        info: InfoDict = {}
        for command, args in self._until("done", silence=self.timeout + (own or 0.0)):
            if command == "info":
                info = self._info(board, args, info)
                if on_info is not None:
                    on_info(info)
            elif command == "done":
                move = self._move(board, args.get("move"))
                ponder = None
                if move is not None and args.get("ponder"):
                    after = board.copy(stack=False)
                    after.push(move)
                    ponder = self._move(after, args.get("ponder"))
                return move, ponder, info
        raise AssertionError("unreachable")  # pragma: no cover

    def _end_ponder(self) -> None:
        """``stop`` the pondering search, if any, and drop its answer."""
        pondering, self._pondering = self._pondering, None
        if pondering is not None and not self._closed:
            self._send("stop")
            for _ in self._until("done"):
                pass

    @staticmethod
    def _clock_time(board: Board, limit: Limit) -> Optional[float]:
        clock = limit.white_clock if board.turn else limit.black_clock
        inc = (limit.white_inc if board.turn else limit.black_inc) or 0.0
        return None if clock is None else clock + inc

    @staticmethod
    def _level(board: Board, limit: Limit) -> str:
        if limit.nodes is not None:
            return f"level nodes={limit.nodes}"
        if limit.depth is not None:
            return f"level depth={limit.depth}"
        if limit.time is not None:
            return f"level move-time={limit.time}"
        clock = limit.white_clock if board.turn else limit.black_clock
        if clock is None:
            raise ValueError("the limit has no time, depth, nodes or clock for the side to move")
        inc = (limit.white_inc if board.turn else limit.black_inc) or 0.0
        level = f"level time={clock} inc={inc}"
        if limit.remaining_moves is not None:
            level += f" moves={limit.remaining_moves}"
        return level

    def _move(self, board: Board, text: Optional[str]) -> Optional[Move]:
        if not text:
            if board.legal_moves:
                self._fail("the engine answered no move in a position with legal moves")
            return None
        try:
            return _hub.move_from_hub(board, text)
        except ValueError as error:
            self._fail(f"the engine's move {text!r} is not legal here: {error}")
            raise  # pragma: no cover (_fail raises)

    @staticmethod
    def _info(board: Board, args: dict[str, str], last: InfoDict) -> InfoDict:
        info: InfoDict = dict(last)
        for key in ("depth", "nodes", "nps"):
            if args.get(key, "").isdigit():
                info[key] = int(args[key])
        if args.get("mean-depth", "").replace(".", "", 1).isdigit():
            info["seldepth"] = round(float(args["mean-depth"]))
        try:
            info["time"] = float(args["time"])
        except (KeyError, ValueError):
            pass
        score = _hub.score_from_hub(args.get("score", ""))
        if score is not None:
            info["score"] = PovScore(score, board.turn)
        pv: list[Move] = []
        line = board.copy(stack=False)
        for text in args.get("pv", "").split():
            try:
                move = _hub.move_from_hub(line, text)
            except ValueError:
                break  # a line the engine got wrong is cut where it stops being legal
            pv.append(move)
            line.push(move)
        if pv or "pv" in args:
            info["pv"] = pv
        return info

    def play(self, board: object, limit: Limit, *, ponder: bool = False) -> PlayResult:
        """The engine's move in ``board`` (a Board, a Game, a FEN or a
        :class:`shashki.ColumnBoard` of the variant set) under ``limit``.

        ``ponder=True``: after answering, the engine ponders (``go ponder``) on the position
        after its move and the reply it expects, under the clock as it will stand (this
        limit's, less the time this move took, plus the increment). A next ``play`` on that
        position is a ``ponder-hit``: the same search goes on; any other call stops it."""
        import time

        position = _position(board)
        if not limit.limits(position.turn):
            raise ValueError("play needs a limit: a time, a depth, nodes or a clock")
        start = time.perf_counter()
        pondering = self._pondering
        if pondering is not None and _same_game(position, pondering[0]):
            self._pondering = None
            self._send("ponder-hit")
            move, reply, info = self._answer(position, pondering[1], None)
        else:
            move, reply, info = self._search(position, limit, None)
        if ponder and move is not None and reply is not None:
            after = position.copy()
            after.push(move)
            after.push(reply)
            next_limit = _after_move(limit, position.turn, time.perf_counter() - start)
            self._go(after, next_limit, "ponder")
            self._pondering = (after, next_limit)
        return PlayResult(move, reply, info)

    def analyse(
        self,
        board: object,
        limit: Limit,
        *,
        on_info: Optional[Callable[[InfoDict], None]] = None,
    ) -> InfoDict:
        """The engine's last report on ``board`` (``score`` as a PovScore, ``depth``,
        ``nodes``, ``pv``, …); ``on_info`` is called with each report as it comes."""
        position = _position(board)
        if not limit.limits(position.turn):
            raise ValueError("analyse needs a limit with a Hub engine: a time, a depth or nodes")
        return self._search(position, limit, on_info)[2]

    def new_game(self) -> None:
        """Tell the engine a new game starts (``new-game``)."""
        self._end_ponder()
        self._send("new-game")

    def ping(self) -> None:
        """``ping``: the engine must answer ``pong`` within ``timeout``."""
        self._send("ping")
        for _ in self._until("pong"):
            pass

    def close(self, *, kill: bool = False) -> None:
        """``quit`` and wait a moment for the process to end; kill it if it does not (or
        at once with ``kill``). Closing twice does nothing."""
        if self._closed:
            return
        self._pondering = None
        self._closed = True
        import subprocess

        process = self._process
        if not kill and process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write("quit\n")
                process.stdin.flush()
                process.wait(timeout=min(self.timeout, 5.0))
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        if process.poll() is None:
            process.kill()
            process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except (OSError, ValueError):
                    pass

    def __enter__(self) -> HubEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        name = self.id.get("name", "?")
        return f"<HubEngine {name} pid={self._process.pid}{' closed' if self._closed else ''}>"


def _after_move(limit: Limit, turn: bool, used: float) -> Limit:
    """``limit`` with the clock of ``turn`` as it stands after a move that took ``used``
    seconds (less the time, plus the increment)."""
    clock = limit.white_clock if turn else limit.black_clock
    if clock is None:
        return limit
    inc = (limit.white_inc if turn else limit.black_inc) or 0.0
    left = max(clock - used, 0.0) + inc
    return Limit(
        time=limit.time,
        depth=limit.depth,
        nodes=limit.nodes,
        white_clock=left if turn else limit.white_clock,
        black_clock=limit.black_clock if turn else left,
        white_inc=limit.white_inc,
        black_inc=limit.black_inc,
        remaining_moves=limit.remaining_moves,
    )


def _position(board: object) -> Board:
    """The board a Hub engine is asked about: a Board, a Game's, a FEN's or a column
    game's :class:`shashki.ColumnBoard` (which the Hub speaks by its FEN)."""
    from shashki.columns import ColumnBoard

    if isinstance(board, ColumnBoard):
        return board  # type: ignore[return-value]  # the same protocol for the Hub
    return _board_of(board)
