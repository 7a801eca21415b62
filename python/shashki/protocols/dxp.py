"""DXP, the DamExchange protocol: engine matches over TCP, as the 10×10 world plays them.

Two programs exchange short ASCII messages, each ended by a NUL byte (at most 127
characters). The *initiator* connects and asks for a game; the *follower* listens, accepts
and plays the colour it is given. The messages (one letter, then fixed-width fields):

- ``R`` GAMEREQ (initiator → follower): version ``01``, the initiator's name (32
  characters), the follower's colour (``W`` white, ``Z`` black), the game's time in minutes
  (3 digits) and moves (3 digits) of the time control, then ``A`` (the start position) or
  ``B``, the side to move (``W``/``Z``) and the board, one character a square in the game's
  order (``w``/``z`` men, ``W``/``Z`` kings, ``e`` empty: 50 on 10×10).
- ``A`` GAMEACC: the follower's name (32 characters) and a code (``0`` accepted, ``1``
  not this version, ``2`` not this game, ``3`` no games).
- ``M`` MOVE: seconds spent (4 digits), from and to (2 digits each), the number of pieces
  taken (2 digits) and their squares (2 digits each), in the game's numbers.
- ``E`` GAMEEND: a reason (``0`` unknown, ``1`` I lose, ``2`` draw, ``3`` I win) and a stop
  code (``0`` another game welcome, ``1`` no more); answered with an ``E`` of one's own.
- ``C`` CHAT (text), ``B`` BACKREQ (move number, side) answered ``K`` BACKACC (``1``: not
  supported, here).

``shashki dxp --listen HOST:PORT`` is a follower (:class:`DxpServer`); the match runner's
``dxp:HOST:PORT`` player (:class:`shashki.apps.match.players.DxpPlayer`) is an initiator
built from this module's messages. Its threat model (who can
connect, what a peer can make it do) is the docs' protocols page, each answer a test.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, cast

import shashki
from shashki import Board, Move, square_from_number, square_number
from shashki.protocols.hub_text import pieces_fen

if TYPE_CHECKING:
    import argparse

    from shashki.engine import Engine

MAX_MESSAGE = 127
"""The longest message (without its NUL) the protocol allows."""
DEFAULT_PORT = 27531
NAME = "shashki"
PIECES = {"w": (True, False), "z": (False, False), "W": (True, True), "Z": (False, True)}


class DxpError(ValueError):
    """A message that breaks the protocol (what was wrong, and where)."""


# ---- messages -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRequest:
    """A GAMEREQ: who asks, the follower's colour, the time control, the position."""

    initiator: str
    follower_white: bool
    minutes: int
    moves: int
    position: Optional[tuple[bool, str]]  # (White to move, the squares) or None: the start


@dataclass(frozen=True)
class MoveMessage:
    """A MOVE: seconds spent, from, to and the squares taken (the game's numbers)."""

    seconds: int
    start: int
    end: int
    captured: tuple[int, ...]


def _digits(text: str, what: str, message: str) -> int:
    if not text.isdigit() or not text.isascii():
        raise DxpError(f"{what} must be digits, not {text!r} (in {message[:40]!r})")
    return int(text)


def parse_message(message: str) -> object:
    """A message as a :class:`GameRequest`, :class:`MoveMessage`, or ``(kind, fields)`` for
    the others (``("A", (name, code))``, ``("E", (reason, stop))``, ``("C", (text,))``,
    ``("B", (move, white))``, ``("K", (code,))``); :class:`DxpError` when it is malformed."""
    if not message:
        raise DxpError("an empty message")
    if len(message) > MAX_MESSAGE:
        raise DxpError(f"a message of {len(message)} characters (at most {MAX_MESSAGE})")
    kind = message[0]
    if kind == "R":
        if len(message) < 43:
            raise DxpError(f"a GAMEREQ of {len(message)} characters (at least 43)")
        if message[1:3] != "01":
            raise DxpError(f"GAMEREQ version {message[1:3]!r} (01 is spoken)")
        color = message[35]
        if color not in "WZ":
            raise DxpError(f"the follower's colour must be W or Z, not {color!r}")
        minutes = _digits(message[36:39], "the minutes", message)
        moves = _digits(message[39:42], "the moves", message)
        setup = message[42]
        position: Optional[tuple[bool, str]] = None
        if setup == "B":
            if len(message) < 45 or message[43] not in "WZ":
                raise DxpError("a GAMEREQ position needs the side to move (W or Z) and squares")
            position = (message[43] == "W", message[44:])
        elif setup != "A" or len(message) != 43:
            raise DxpError(f"a GAMEREQ's position must be A or B and squares, not {setup!r}")
        return GameRequest(message[3:35].strip(), color == "W", minutes, moves, position)
    if kind == "M":
        if len(message) < 11:
            raise DxpError(f"a MOVE of {len(message)} characters (at least 11)")
        seconds = _digits(message[1:5], "the time", message)
        start = _digits(message[5:7], "the start square", message)
        end = _digits(message[7:9], "the end square", message)
        count = _digits(message[9:11], "the number taken", message)
        if len(message) != 11 + 2 * count:
            raise DxpError(f"a MOVE taking {count} pieces must have {11 + 2 * count} characters")
        taken = tuple(
            _digits(message[11 + 2 * i : 13 + 2 * i], "a square taken", message)
            for i in range(count)
        )
        return MoveMessage(seconds, start, end, taken)
    if kind == "A":
        if len(message) != 34 or message[33] not in "0123":
            raise DxpError("a GAMEACC is A, a name of 32 characters and a code 0-3")
        return ("A", (message[1:33].strip(), message[33]))
    if kind == "E":
        if len(message) != 3 or message[1] not in "0123" or message[2] not in "01":
            raise DxpError("a GAMEEND is E, a reason 0-3 and a stop code 0-1")
        return ("E", (message[1], message[2]))
    if kind == "C":
        return ("C", (message[1:],))
    if kind == "B":
        if len(message) != 5 or message[4] not in "WZ":
            raise DxpError("a BACKREQ is B, a move number of 3 digits and W or Z")
        return ("B", (_digits(message[1:4], "the move number", message), message[4] == "W"))
    if kind == "K":
        if len(message) != 2 or message[1] not in "012":
            raise DxpError("a BACKACC is K and a code 0-2")
        return ("K", (message[1],))
    raise DxpError(f"unknown message type {kind!r}")


def game_request(
    initiator: str, follower_white: bool, minutes: int, moves: int, board: Optional[Board]
) -> str:
    """A GAMEREQ; ``board`` None for the start position."""
    head = (
        f"R01{initiator[:32]:<32}{'W' if follower_white else 'Z'}"
        f"{min(max(minutes, 0), 999):03d}{min(max(moves, 0), 999):03d}"
    )
    if board is None:
        return head + "A"
    return head + "B" + ("W" if board.turn else "Z") + board_to_dxp(board)


def game_accept(name: str = NAME, code: str = "0") -> str:
    return f"A{name[:32]:<32}{code}"


def game_end(reason: str, stop: str = "1") -> str:
    return f"E{reason}{stop}"


def move_message(move: Move, seconds: float = 0) -> str:
    """A MOVE for ``move`` (numbers of the move's game)."""
    variant = move.variant
    taken = sorted(square_number(sq, variant=variant) for sq in move.captured)
    return (
        f"M{min(int(seconds), 9999):04d}{square_number(move.start, variant=variant):02d}"
        f"{square_number(move.end, variant=variant):02d}{len(taken):02d}"
        + "".join(f"{n:02d}" for n in taken)
    )


def board_to_dxp(board: Board) -> str:
    """The board's squares in its game's order: ``w``/``z`` men, ``W``/``Z`` kings, ``e``."""
    count = shashki.SQUARE_COUNTS.get(board.variant, 32)
    out = []
    for number in range(1, count + 1):
        piece = board.piece_at(square_from_number(number, variant=board.variant))
        if piece is None:
            out.append("e")
        else:
            letter = "w" if piece.color else "z"
            out.append(letter.upper() if piece.king else letter)
    return "".join(out)


def board_from_dxp(white_to_move: bool, squares: str, variant: str) -> Board:
    """The board a GAMEREQ's position describes; :class:`DxpError` when it is no position
    of ``variant``."""
    count = shashki.SQUARE_COUNTS.get(variant, 32)
    if len(squares) != count:
        raise DxpError(f"a {variant} position has {count} squares, not {len(squares)}")
    fen = f"{'W' if white_to_move else 'B'}:{pieces_fen(squares, PIECES, DxpError)}"
    try:
        return Board(fen, variant=variant)
    except ValueError as error:
        raise DxpError(f"not a position: {error}") from None


def move_from_dxp(board: Board, message: MoveMessage) -> Move:
    """The legal move a MOVE denotes; :class:`DxpError` when there is none."""
    variant = board.variant

    def square(number: int) -> int:
        try:
            return square_from_number(number, variant=variant)
        except ValueError:
            raise DxpError(f"square {number} is not on the board") from None

    start, end = square(message.start), square(message.end)
    taken = frozenset(square(n) for n in message.captured)
    for move in board.legal_moves:
        if move.start == start and move.end == end and move.captured == taken:
            return move
    raise DxpError(
        f"illegal move {message.start}-{message.end} taking {list(message.captured)} "
        f"in {board.fen()}"
    )


# ---- the byte stream --------------------------------------------------------------------------


class MessageStream:
    """Messages over a socket: each read bounded (``MAX_MESSAGE`` characters before its NUL,
    else :class:`DxpError`) and timed (``socket.timeout`` after ``timeout`` seconds of
    silence)."""

    def __init__(self, sock: socket.socket, timeout: Optional[float]) -> None:
        self.sock = sock
        self.sock.settimeout(timeout)
        self.buffer = b""
        self.closed = False  # the peer's end was seen (by a read or a watch)

    def read(self) -> Optional[str]:
        """The next message, or None when the peer has closed the connection."""
        while b"\0" not in self.buffer:
            if len(self.buffer) > MAX_MESSAGE:
                raise DxpError(f"no message end within {MAX_MESSAGE + 1} bytes")
            if self.closed:
                return None
            chunk = self.sock.recv(256)
            if not chunk:
                self.closed = True
                return None
            self.buffer += chunk
        raw, _, self.buffer = self.buffer.partition(b"\0")
        if len(raw) > MAX_MESSAGE:
            raise DxpError(f"a message of {len(raw)} bytes (at most {MAX_MESSAGE})")
        try:
            return raw.decode("ascii").strip()
        except UnicodeDecodeError:
            raise DxpError("a message that is not ASCII") from None

    def send(self, message: str) -> None:
        self.sock.sendall(message.encode("ascii") + b"\0")


# ---- the follower: ``shashki dxp --listen`` -------------------------------------------------


class PeerLeft(OSError):
    """The peer closed the connection while the follower was thinking."""


class _PeerWatch:
    """While the engine thinks, watch the connection: the peer closing it stops the search
    at once (a peer that asks for a game and leaves would otherwise hold the follower, one
    game at a time, for its whole move). What the peer sends meanwhile is kept for the next
    read, up to a bound (beyond it the watch only waits)."""

    def __init__(self, stream: MessageStream, engine: Engine) -> None:
        self.stream, self.engine = stream, engine
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> _PeerWatch:
        self.thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.done.set()
        self.thread.join()

    def _watch(self) -> None:
        import select

        stream = self.stream
        while not self.done.is_set():
            if stream.closed:
                self.engine.stop()  # again until the search ends: a stop can come early
                self.done.wait(0.01)
                continue
            if len(stream.buffer) > 4 * (MAX_MESSAGE + 1):
                self.done.wait(0.05)  # enough kept: the rest waits in the socket
                continue
            try:
                readable, _, _ = select.select([stream.sock], [], [], 0.05)
                if not readable:
                    continue
                chunk = stream.sock.recv(4096)
            except (OSError, ValueError):  # reset, or closed under us
                chunk = b""
            if chunk:
                stream.buffer += chunk
            else:
                stream.closed = True


def move_seconds(minutes: int, moves: int, spent: float, played: int) -> float:
    """A move's time under a GAMEREQ's control: what is left of ``minutes`` over the moves
    to the control (``moves``; 40 more when it is 0 or passed), at least 0.05 s."""
    left = max(minutes * 60 - spent, 0.0)
    to_go = moves - played if moves > played else 40
    return max(0.05, min(left / max(to_go, 1) * 0.9, left * 0.5))


class DxpServer:
    """A DXP follower: one game at a time, on ``host``:``port``. ``engine_factory`` makes the
    engine (once); ``idle_timeout`` seconds of silence from a peer end its connection."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        *,
        variant: str = "international",
        engine_factory: Optional[Callable[[], Engine]] = None,
        idle_timeout: float = 600.0,
        max_move_seconds: float = 60.0,
        log: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True),
    ) -> None:
        if variant not in shashki.VARIANTS:
            raise ValueError(f"unknown variant {variant!r}")
        self.variant = variant
        self.idle_timeout = idle_timeout
        self.max_move_seconds = max_move_seconds
        self.log = log
        self.engine_factory = engine_factory
        self.engine: Optional[Engine] = None
        self.listener = socket.create_server((host, port))
        self.address = self.listener.getsockname()[:2]
        self.busy = threading.Lock()
        self.closed = threading.Event()
        self.games = 0

    def get_engine(self) -> Engine:
        if self.engine is None:
            from shashki.engine import Engine

            self.engine = self.engine_factory() if self.engine_factory else Engine(hash_mb=64)
        return self.engine

    def serve_forever(self) -> None:
        """Accept connections until :meth:`close`: one is played at a time; another that
        comes meanwhile is closed at once."""
        self.listener.settimeout(0.2)  # to notice close() between connections
        while not self.closed.is_set():
            try:
                conn, peer = self.listener.accept()
            except socket.timeout:
                continue
            except OSError:
                break  # closed
            conn.settimeout(None)
            if not self.busy.acquire(blocking=False):
                self.log(f"dxp: {peer[0]}:{peer[1]} refused: a game is being played")
                conn.close()
                continue
            threading.Thread(target=self._serve, args=(conn, peer), daemon=True).start()

    def close(self) -> None:
        self.closed.set()
        try:
            self.listener.close()
        except OSError:
            pass

    def _serve(self, conn: socket.socket, peer: tuple[str, int]) -> None:
        try:
            self.play_connection(MessageStream(conn, self.idle_timeout))
        except socket.timeout:
            self.log(f"dxp: {peer[0]}:{peer[1]} silent for {self.idle_timeout:g} s: closed")
        except DxpError as error:
            self.log(f"dxp: {peer[0]}:{peer[1]}: {error}: closed")
        except OSError as error:
            self.log(f"dxp: {peer[0]}:{peer[1]}: {error}")
        finally:
            conn.close()
            self.busy.release()

    def play_connection(self, stream: MessageStream) -> None:
        """The protocol loop of one connection: games until the peer stops or leaves."""
        board: Optional[Board] = None
        ours = True  # the colour we play
        control = (0, 0)
        spent = 0.0
        while True:
            text = stream.read()
            if text is None:
                return
            message = parse_message(text)
            if isinstance(message, GameRequest):
                if board is not None and not board.is_game_over():
                    raise DxpError("a GAMEREQ during a game")
                try:
                    if message.position is None:
                        board = Board(variant=self.variant)
                    else:
                        board = board_from_dxp(*message.position, self.variant)
                except DxpError as error:
                    self.log(f"dxp: game refused: {error}")
                    stream.send(game_accept(code="2"))
                    continue
                ours, control, spent = message.follower_white, (message.minutes, message.moves), 0.0
                stream.send(game_accept())
                self.games += 1
                self.get_engine().new_game()
                spent += self._maybe_move(stream, board, ours, control, spent)
            elif isinstance(message, MoveMessage):
                if board is None:
                    raise DxpError("a MOVE before a game")
                if board.turn == ours:
                    raise DxpError("a MOVE when it is our turn")
                board.push(move_from_dxp(board, message))
                spent += self._maybe_move(stream, board, ours, control, spent)
            else:
                kind, fields = cast("tuple[str, tuple[Any, ...]]", message)
                if kind == "E":
                    if board is not None:
                        stream.send(game_end(self._reason(board, ours), "1"))
                    board = None
                    if fields[1] == "1":
                        return
                elif kind == "B":
                    stream.send("K1")  # taking moves back is not supported
                elif kind == "C":
                    self.log(f"dxp chat: {fields[0][:80]}")
                # GAMEACC and BACKACC are the initiator's to receive: ignored here.

    def _maybe_move(
        self,
        stream: MessageStream,
        board: Board,
        ours: bool,
        control: tuple[int, int],
        spent: float,
    ) -> float:
        """Our move when it is our turn (and the game is not over): sent; the seconds spent."""
        if board.turn != ours:
            return 0.0
        if board.is_game_over():
            stream.send(game_end(self._reason(board, ours), "0"))
            return 0.0
        from shashki.engine import Limit

        played = len(board.move_stack) // 2
        seconds = min(move_seconds(*control, spent, played), self.max_move_seconds)
        began = time.monotonic()
        engine = self.get_engine()
        with _PeerWatch(stream, engine):
            result = engine.play(board, Limit(time=seconds))
        if stream.closed:  # the peer left while we thought: no one to send the move to
            raise PeerLeft("left during our move")
        taken = time.monotonic() - began
        if result.move is None:
            stream.send(game_end("1", "0"))
            return taken
        board.push(result.move)
        stream.send(move_message(result.move, taken))
        if board.is_game_over():
            stream.send(game_end(self._reason(board, ours), "0"))
        return taken

    @staticmethod
    def _reason(board: Board, ours: bool) -> str:
        """The GAMEEND reason from our side: 1 we lose, 2 draw, 3 we win, 0 not decided."""
        outcome = board.outcome()
        if outcome is None:
            return "0"
        if outcome.winner is None:
            return "2"
        return "3" if outcome.winner == ours else "1"


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``PORT``) as a pair; ValueError naming what is wrong."""
    host, _, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"an address is HOST:PORT, not {text!r}") from None
    if not 0 <= number < 65536:
        raise ValueError(f"port {number} is not within 0-65535")
    return host or "127.0.0.1", number


def serve(args: argparse.Namespace) -> int:
    """Run the follower of ``shashki dxp`` until interrupted."""
    from shashki.engine import Engine

    host, port = parse_address(args.listen)
    hash_mb, threads = args.hash, args.threads
    server = DxpServer(
        host,
        port,
        variant=args.variant,
        engine_factory=lambda: Engine(hash_mb=hash_mb, threads=threads),
        idle_timeout=args.idle_timeout,
    )
    bound_host, bound_port = server.address
    if bound_host not in ("127.0.0.1", "::1", "localhost"):
        print(
            f"dxp: listening on {bound_host}:{bound_port}: anyone who can reach it can play "
            "games (DXP has no authentication)",
            file=sys.stderr,
        )
    print(f"dxp: {server.variant} games on {bound_host}:{bound_port}", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
