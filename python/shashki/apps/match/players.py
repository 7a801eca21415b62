"""The players of a match: this package's engine in the worker's process, or any Hub engine
in a subprocess (through :class:`shashki.protocols.hub_client.HubEngine`), and how a time
control becomes a move's limit."""

from __future__ import annotations

import socket
import threading
import time

import shashki
from shashki import Board, Move
from shashki.columns import ColumnGame
from shashki.game import Game
from shashki.protocols.dxp import (
    DxpError,
    MessageStream,
    MoveMessage,
    game_end,
    game_request,
    move_from_dxp,
    move_message,
    parse_address,
    parse_message,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from typing import Optional, Union

    from shashki.engine import Engine, Limit
    from shashki.protocols.hub_client import HubEngine


class TimeControl:
    """How long a player may think: ``nodes`` or ``time`` a move, or a clock of ``base``
    seconds plus ``inc`` a move."""

    def __init__(
        self,
        *,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        base: Optional[float] = None,
        inc: float = 0.0,
        depth: Optional[int] = None,
    ) -> None:
        if sum(x is not None for x in (nodes, time, base, depth)) != 1:
            raise ValueError("give exactly one of nodes, time, a clock (base+inc) or depth")
        self.nodes, self.time, self.base, self.inc, self.depth = nodes, time, base, inc, depth

    @classmethod
    def parse_clock(cls, text: str) -> TimeControl:
        base, _, inc = text.partition("+")
        try:
            return cls(base=float(base), inc=float(inc or 0))
        except ValueError:
            raise ValueError(f"a clock is BASE+INC in seconds, not {text!r}") from None

    def __repr__(self) -> str:
        if self.nodes is not None:
            return f"{self.nodes} nodes a move"
        if self.time is not None:
            return f"{self.time:g} s a move"
        if self.depth is not None:
            return f"depth {self.depth}"
        return f"{self.base:g}+{self.inc:g} s"


def _centi_men(score: object) -> Optional[int]:
    """A Score (cp, or a forced win ±10000) as centi-men."""
    win = getattr(score, "win", None)
    if win is not None:
        return 10000 if win > 0 else -10000
    cp = getattr(score, "cp", None)
    return None if cp is None else int(cp)


def _limit(game: Union[Game, ColumnGame], tc: TimeControl, clock: float) -> Limit:
    """The limit of a move: fixed nodes, time or depth, or the mover's clock."""
    from shashki.engine import Limit

    if tc.base is None:
        return Limit(nodes=tc.nodes, time=tc.time, depth=tc.depth)
    turn = game.current_board.turn
    return Limit(
        white_clock=clock if turn else None,
        black_clock=None if turn else clock,
        white_inc=tc.inc,
        black_inc=tc.inc,
    )


SHASHKI_OPTIONS = frozenset(
    {
        "hash",
        "threads",
        "egtb",
        "egtb-unpack",
        "eval",
        "variety",
        "variety-seed",
        "ponder",
        "odds",
        "overhead",
    }
)
"""The options of a ``shashki:`` player (the module docs of :mod:`shashki.apps.match`)."""


class ShashkiPlayer:
    """This package's engine, in the worker's process."""

    def __init__(self, options: dict[str, str]) -> None:
        from shashki import egtb
        from shashki.engine import Engine

        unknown = sorted(set(options) - SHASHKI_OPTIONS)
        if unknown:
            raise ValueError(
                f"unknown shashki player option {unknown[0]!r} "
                f"(one of {', '.join(sorted(SHASHKI_OPTIONS))})"
            )

        tables = options.get("egtb")
        unpack = int(options.get("egtb-unpack", egtb.UNPACK_PIECES))
        engine = Engine(
            hash_mb=int(options.get("hash", 16)),
            threads=int(options.get("threads", 1)),
            tables=None if tables is None else egtb.open(tables, unpack_pieces=unpack),
            evaluation=options.get("eval", "learned"),
        )
        if "overhead" in options:
            engine.set_move_overhead(int(options["overhead"]) / 1000)
        if "variety" in options:
            engine.set_variety(int(options["variety"]), seed=int(options.get("variety-seed", 0)))
        self.engine: Engine | HubEngine = engine
        self.last_score: Optional[int] = None  # the last move's score, mover's view
        self.ponder = options.get("ponder", "0") not in ("0", "false", "no")
        self.odds = float(options.get("odds", 1))
        if not 0 < self.odds <= 1000:
            raise ValueError(f"odds must be a factor above 0 (and at most 1000), not {self.odds}")

    def new_game(self) -> None:
        self.engine.new_game()

    def move(
        self, game: Union[Game, ColumnGame], tc: TimeControl, clock: float
    ) -> Optional[shashki.Move]:
        if not game.current_board.legal_moves:
            return None
        limit = _limit(game, self.scaled(tc), clock)
        # A column game is searched on its board (Engine and HubEngine take a ColumnBoard).
        target = game.current_board if isinstance(game, ColumnGame) else game
        result = self.engine.play(target, limit, ponder=self.ponder)
        score = result.info.get("score")
        self.last_score = None if score is None else _centi_men(score.relative)
        return result.move

    def scaled(self, tc: TimeControl) -> TimeControl:
        """The player's own limit: ``tc``'s nodes or time a move times its ``odds`` (what
        more time is worth: ``shashki:odds=2`` against ``shashki``). Clocks are the match's,
        the same for both players: odds under a clock are refused."""
        if self.odds == 1:
            return tc
        if tc.nodes is not None:
            return TimeControl(nodes=max(1, round(tc.nodes * self.odds)))
        if tc.time is not None:
            return TimeControl(time=tc.time * self.odds)
        raise ValueError("odds apply to nodes or time a move, not to a clock or a depth")

    def close(self) -> None:
        self.engine.close()


class HubPlayer(ShashkiPlayer):
    """An engine speaking the Hub protocol, in a subprocess
    (``shashki.protocols.hub_client.HubEngine``: a hung or dead engine is an ``EngineError``
    within ``HUB_TIMEOUT`` seconds beyond the move's own time, not a hung match)."""

    def __init__(
        self, command: str, *, ponder: bool = False, options: Optional[dict[str, str]] = None
    ) -> None:
        from shashki.protocols.hub_client import HubEngine

        self.engine = HubEngine.popen(command, timeout=HUB_TIMEOUT, options=dict(options or {}))
        self.last_score = None
        self.ponder = ponder
        self.odds = 1.0


HUB_TIMEOUT = 30.0
"""Seconds of silence after which a Hub engine counts as hung."""


def check_spec(spec: str, variant: str = "russian") -> None:
    """A ValueError saying what is wrong with a player's spec for games of ``variant``,
    before any player starts."""
    kind, _, rest = spec.partition(":")
    name, *settings = kind.split(",")
    if kind == "shashki":
        items = [item for item in rest.split(",") if item]
        if any("=" not in item for item in items):
            raise ValueError(f"shashki options are NAME=VALUE, not {rest!r}")
        unknown = sorted({item.split("=", 1)[0] for item in items} - SHASHKI_OPTIONS)
        if unknown:
            raise ValueError(
                f"unknown shashki player option {unknown[0]!r} "
                f"(one of {', '.join(sorted(SHASHKI_OPTIONS))})"
            )
        return
    if name == "hub":
        if not rest:
            raise ValueError("hub: needs the engine's command")
        if any(item != "ponder" and "=" not in item for item in settings):
            raise ValueError(f"hub options are ponder or NAME=VALUE, not {kind!r}")
        return
    if name == "dxp":
        _refuse_dxp(variant)
        parse_address(rest)
        return
    raise ValueError(
        f"unknown player {spec!r} (shashki[:options], hub[,ponder][,NAME=VALUE…]:COMMAND "
        "or dxp:HOST:PORT)"
    )


def make_player(spec: str, variant: str = "russian") -> ShashkiPlayer:
    """A player from its spec (see the module docs), for games of ``variant`` (a Hub engine
    is told it with ``set-param name=variant`` unless its spec names one)."""
    kind, _, rest = spec.partition(":")
    if kind == "shashki":
        options = dict(item.split("=", 1) for item in rest.split(",") if item)
        return ShashkiPlayer(options)
    name, *settings = kind.split(",")
    if name == "hub":
        if not rest:
            raise ValueError("hub: needs the engine's command")
        ponder = "ponder" in settings
        params = dict(item.split("=", 1) for item in settings if item != "ponder" and "=" in item)
        if variant != "russian":
            params.setdefault("variant", variant)
        if any(item != "ponder" and "=" not in item for item in settings):
            raise ValueError(f"hub options are ponder or NAME=VALUE, not {kind!r}")
        return HubPlayer(rest, ponder=ponder, options=params)
    if name == "dxp":
        _refuse_dxp(variant)
        host, port = parse_address(rest)
        return DxpPlayer(host, port, timeout=HUB_TIMEOUT)  # type: ignore[return-value]
    raise ValueError(
        f"unknown player {spec!r} (shashki[:options], hub[,ponder][,NAME=VALUE…]:COMMAND "
        "or dxp:HOST:PORT)"
    )


class DxpPlayer:
    """An engine listening for DXP games (Scan, Kingsrow, ``shashki dxp``), played as an
    initiator: each game is asked for from the position the match gives, the engine playing
    the side to move when it is first asked for a move; the other side's moves are sent as
    they are made. ``timeout`` seconds beyond a move's own time without an answer is an
    error, not a hung match."""

    def __init__(self, host: str, port: int, *, timeout: float = 30.0) -> None:
        self.address = (host, port)
        self.timeout = timeout
        self.stream: Optional[MessageStream] = None
        self.board: Optional[Board] = None
        self.ours = True
        self.last_score: Optional[int] = None
        self.ponder = False
        self.odds = 1.0

    def _connect(self) -> MessageStream:
        if self.stream is None:
            sock = socket.create_connection(self.address, timeout=self.timeout)
            self.stream = MessageStream(sock, self.timeout)
        return self.stream

    def _receive(self, wait: float) -> object:
        stream = self._connect()
        stream.sock.settimeout(wait)
        while True:
            text = stream.read()
            if text is None:
                raise ConnectionError("the DXP engine closed the connection")
            message = parse_message(text)
            if isinstance(message, tuple) and message[0] == "C":
                continue
            return message

    def new_game(self) -> None:
        self._end_game("0")

    def _end_game(self, stop: str) -> None:
        if self.board is not None and self.stream is not None:
            try:
                self.stream.send(game_end("0", stop))
                deadline = time.monotonic() + 2.0
                while time.monotonic() < deadline:
                    message = self._receive(max(0.05, deadline - time.monotonic()))
                    if isinstance(message, tuple) and message[0] == "E":
                        break
            except (OSError, DxpError, ConnectionError):
                self.close()
        self.board = None

    def move(self, game: Game, tc: TimeControl, clock: float) -> Optional[Move]:
        board = game.current_board
        if not board.legal_moves:
            return None
        stream = self._connect()
        if self.board is None:
            root = game.root().board()
            self.ours = board.turn
            minutes, moves = self._control(tc)
            stream.send(game_request("shashki match", self.ours, minutes, moves, root))
            reply = self._receive(self.timeout)
            while isinstance(reply, tuple) and reply[0] == "E":  # the last game's, late
                reply = self._receive(self.timeout)
            if not (isinstance(reply, tuple) and reply[0] == "A" and reply[1][1] == "0"):
                raise ConnectionError(f"the DXP engine did not accept the game: {reply}")
            self.board = root
        for move in board.move_stack[len(self.board.move_stack) :]:
            stream.send(move_message(move))
            self.board.push(move)
        wait = self.timeout + (tc.time or 0) + (clock if tc.base is not None else 0)
        while True:
            message = self._receive(wait)
            if isinstance(message, MoveMessage):
                move = move_from_dxp(self.board, message)
                self.board.push(move)
                return move
            if isinstance(message, tuple) and message[0] == "E":
                stream.send(game_end("0", "0"))
                self.board = None
                return None

    @staticmethod
    def _control(tc: TimeControl) -> tuple[int, int]:
        """A match's time control as DXP's minutes and moves (DXP counts whole minutes)."""
        if tc.base is not None:
            return max(1, round((tc.base + 60 * tc.inc) / 60)), 0
        per_move = tc.time if tc.time is not None else 1.0
        return max(1, round(per_move * 75 / 60)), 75

    def close(self) -> None:
        if self.stream is not None:
            try:
                if self.board is not None:
                    self.stream.send(game_end("0", "1"))
            except OSError:
                pass
            self.stream.sock.close()
            self.stream = None
        self.board = None


def _refuse_dxp(variant: str) -> None:
    """A ValueError for a DXP player of a column game: DXP's messages carry one piece a
    square."""
    if shashki.game_info(variant).stacks:
        raise ValueError(
            f"DXP carries one piece a square, not {variant}'s columns: "
            "play a column game with shashki or a Hub engine"
        )


_LOCAL = threading.local()
_MADE: list[ShashkiPlayer] = []  # every player of this process, to close
_MADE_LOCK = threading.Lock()


def _player(spec: str, variant: str = "russian") -> ShashkiPlayer:
    """One player a spec, game and worker (process or thread), made on first use and kept
    until :func:`close_players`."""
    players: dict[tuple[str, str], ShashkiPlayer] = getattr(_LOCAL, "players", {})
    _LOCAL.players = players
    player = players.get((spec, variant))
    with _MADE_LOCK:
        if player is None or player not in _MADE:
            player = players[(spec, variant)] = make_player(spec, variant)
            _MADE.append(player)
    return player


def close_players() -> None:
    """Close every player this process made (their engines and subprocesses)."""
    with _MADE_LOCK:
        made = list(_MADE)
        _MADE.clear()
    for player in made:
        player.close()
