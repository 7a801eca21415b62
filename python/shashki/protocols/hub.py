"""``shashki hub``: a Hub protocol (Scan's engine protocol, version 2) engine on stdin/stdout.

Draughts GUIs and bot frameworks (lidraughts bots among them) speak it through pydraughts.
Square numbers as pydraughts uses them for Russian draughts — all conversions are here.
International draughts (10×10) is spoken as Scan speaks it: positions of ``W``/``B`` and 50
characters in the game's order (1 = b10 … 50 = i1) and moves in those numbers; a 50-square
``pos`` with no variant set (or ``normal``) plays it.

- ``pos pos=…``: ``W`` or ``B`` (side to move), then one character per square in PDN order
  (square 1 = b8 … 32 = g1): ``w``/``b`` men, ``W``/``B`` kings, ``e`` empty. The first
  character names the player who moves first (``W``) or second (``B``), as pydraughts writes
  it: in the games where Black moves first (English draughts, Pool, Thai) ``W`` is Black to
  move; the pieces' letters are their colours in every game.
- Moves (``moves="…"`` and ``done move=…``) number squares from White's side: 1 = a1,
  2 = c1, 3 = e1, 4 = g1, 5 = b2, … 32 = h8 — shashki's square index plus one. Quiet moves
  are ``10-13``; captures ``from x to x captured…`` (captured squares in any order, no
  intermediate squares).

Commands: ``hub``, ``set-param``, ``init``, ``new-game``, ``pos``, ``level``, ``go think|
ponder|analyze``, ``stop``, ``ping``, ``ponder-hit``, ``quit``. Anything else, or anything
malformed, gets ``error message=…`` and the engine keeps running.

Guarantees a GUI can rely on:

- Every ``go think`` ends in ``done move=…`` (a legal move), or plain ``done`` when the side
  to move has no move; ``go ponder``/``go analyze`` end in ``done`` after ``stop``.
- ``go ponder`` searches under the level's limits, its time held until ``ponder-hit``;
  after it the same search goes on as a ``go think`` (the time spent pondering counts as
  spent: the move comes at once when it was more than the level's share) and ends in
  ``done move=…``.
- ``ping`` is answered with ``pong`` at once, also while a search runs.
- ``level``: ``move-time``, ``time`` and ``inc`` are seconds from 0 to a year (larger values
  are clamped to a year), ``depth`` an integer from 1 (clamped to 120), ``nodes`` from 1
  (clamped to 2**63−1), ``moves`` from 1 (clamped to 1000); a negative, non-finite or
  non-numeric value gets ``error`` and leaves the level unchanged. With no level set,
  ``go think`` thinks for :data:`DEFAULT_MOVE_TIME` seconds; ``level infinite`` thinks
  until ``stop``.
- ``set-param name=variant value=NAME``: any game's name (the ``hub`` command lists them
  all, from the games' cards: :func:`shashki.games`), an alias, or the names Hub clients
  send: Scan's ``normal`` (International draughts), ``losing`` (antidraughts), ``bt``
  (breakthrough), ``killer``, ``frisian``; pydraughts' ``standard``, ``american``,
  ``checkers``, ``poddavki``. After ``normal`` and ``losing`` a 32-square position plays
  Russian draughts or giveaway (:data:`SCAN_EIGHT_BY_EIGHT`). That and
  ``name=captures-optional value=true|false`` choose the game; the position goes back to
  the variant's start (send ``pos`` after them).
- The column games (``towers``, ``lasca``: a square holds a column of pieces) have no
  position string of one letter a square: their ``pos pos=…`` is the game's FEN, as
  :class:`shashki.ColumnBoard` writes it (``W:Wc3(bB),e3:Bd6``: the pieces under a column's
  top in parentheses, top first), and their captures list the squares jumped in the order
  jumped (``from x to x jumped…``: the order decides which prisoner lies over which).
  Their engine is the column search; ``evaluation``, ``egtb`` and ``variety`` do not apply.
- ``set-param name=evaluation value=learned|classic|family|network`` chooses the evaluation
  (the learned one by default; ``classic`` is version 0.1's; ``network`` the network
  compiled in for the game).
- ``set-param name=variety value=N`` (0 to 100) varies the engine's first N moves of a
  game among its best lines within 0.2 men (:meth:`shashki.engine.Engine.set_variety`),
  the choices seeded by ``name=variety-seed`` (0 by default); send the game's moves with
  ``pos`` (``moves=…``), as the move number counts from the position given.
- ``set-param name=move-overhead value=MS`` (0 to 5000; 5 by default): milliseconds a move
  is assumed to lose outside the search, as Stockfish's "Move Overhead"; under a clock the
  engine keeps that much a move to go in reserve (:meth:`shashki.engine.Engine.set_move_overhead`).
  Raise it when the GUI's clock runs ahead of the engine's (a slow connection, a busy host).
- ``set-param name=hash|threads`` during a search stops that search first (its ``done`` is
  sent); a table that does not fit in free memory gets ``error`` and the engine keeps its
  previous table.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TYPE_CHECKING, Optional, TextIO, Union

import shashki
from shashki import Board, Move
from shashki.columns import ColumnBoard
from shashki.engine import (
    DEFAULT_MOVE_OVERHEAD,
    MAX_DEPTH,
    MAX_MOVE_OVERHEAD,
    MAX_NODES,
    MAX_REMAINING_MOVES,
    MAX_SECONDS,
    Engine,
    Limit,
)
from shashki.protocols.hub_text import (  # the protocol's text, also read from here
    ARG,
    HUB_VARIANTS,
    PIECE_CHARS,
    SCAN_EIGHT_BY_EIGHT,
    board_from_hub,
    board_to_hub,
    hub_square,
    hub_variant_values,
    move_from_hub,
    move_to_hub,
    score_from_hub,
    score_to_hub,
    square_count,
    square_from_hub,
)

__all__ = [
    "HubServer",
    "main",
    "ARG",
    "HUB_VARIANTS",
    "PIECE_CHARS",
    "SCAN_EIGHT_BY_EIGHT",
    "board_from_hub",
    "board_to_hub",
    "hub_square",
    "hub_variant_values",
    "move_from_hub",
    "move_to_hub",
    "score_from_hub",
    "score_to_hub",
    "square_count",
    "square_from_hub",
]

if TYPE_CHECKING:
    from shashki.egtb import EndgameTables
    from shashki.engine import InfoDict

DEFAULT_MOVE_TIME = 1.0
"""Seconds a move when ``go think`` comes with no ``level``."""
MAX_ERROR = 200
"""The longest ``error`` message: what it quotes of a bad line is cut to fit."""


def _short(text: str, most: int = 40) -> str:
    """``text``, cut to ``most`` characters (for quoting a peer's words in an error)."""
    return text if len(text) <= most else text[: most - 3] + "..."


# ---- the engine loop -----------------------------------------------------------------------


class HubServer:
    """The protocol loop. ``run()`` reads commands until ``quit`` or end of input."""

    def __init__(self, inp: TextIO = sys.stdin, out: TextIO = sys.stdout) -> None:
        self.inp, self.out = inp, out
        self.lock = threading.Lock()
        self.params: dict[str, int] = {"hash": 64, "threads": 1}
        self.engine: Optional[Engine] = None
        self.variant = "russian"
        # No variant set, ``normal`` or ``losing``: the positions' board decides the game
        # (the 8×8 game, the 10×10 one).
        self.follow: Optional[tuple[str, str]] = ("russian", "international")
        self.captures_optional = False
        self.evaluation = "learned"
        self.variety = (0, 0)  # opening moves to vary, and the seed of the choices
        self.move_overhead_ms = round(DEFAULT_MOVE_OVERHEAD * 1000)
        self.board = self.start_board()
        self.level: dict[str, float] = {}
        self.search: Optional[threading.Thread] = None
        self.search_engine: Optional[Engine] = None  # the engine the running search uses
        self.tables: Optional[EndgameTables] = None
        self.pondering = False

    def send(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, message: str) -> None:
        if len(message) > MAX_ERROR:  # never echo a long line back whole
            message = message[: MAX_ERROR - 3] + "..."
        self.send(f'error message="{message.replace(chr(34), chr(39))}"')

    def run(self) -> None:
        for raw in self.inp:
            line = raw.strip()
            if not line:
                continue
            command, _, rest = line.partition(" ")
            args = {k: (v[1:-1] if v.startswith('"') else v) for k, v in ARG.findall(rest)}
            try:
                if command == "quit":
                    self.stop_search()
                    return
                self.handle(command, args)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as error:  # noqa: B036 (a Rust panic is a BaseException)
                # The engine never dies on bad input: a panic from the core (a bug, caught
                # as pyo3's PanicException) is reported like any error.
                self.error(f"{_short(command)}: {error}")
        self.stop_search()

    def start_board(self) -> Union[Board, ColumnBoard]:
        if shashki.game_info(self.variant).stacks:
            return ColumnBoard(variant=self.variant)
        return Board(variant=self.variant, captures_optional=self.captures_optional)

    def get_engine(self) -> Engine:
        if self.engine is None:
            self.engine = self.new_engine(self.params)
        return self.engine

    def new_engine(self, params: dict[str, int]) -> Engine:
        """An engine of ``params`` (hash, threads) with the other settings as they stand."""
        engine = Engine(
            hash_mb=params["hash"],
            threads=params["threads"],
            evaluation=self.evaluation,
            move_overhead=self.move_overhead_ms / 1000,
        )
        if self.tables is not None:
            engine.set_tables(self.tables)
        engine.set_variety(self.variety[0], seed=self.variety[1])
        return engine

    def handle(self, command: str, args: dict[str, str]) -> None:
        if command == "hub":
            self.send(f'id name=shashki version={shashki.__version__} author="shashki developers"')
            values = " ".join(hub_variant_values())
            self.send(f'param name=variant value=russian type=enum values="{values}"')
            self.send("param name=captures-optional value=false type=bool")
            self.send(
                "param name=evaluation value=learned type=enum "
                'values="learned classic family network"'
            )
            self.send("param name=hash value=64 type=int min=1 max=65536")
            self.send("param name=threads value=1 type=int min=1 max=256")
            self.send('param name=egtb value="" type=string')
            self.send("param name=variety value=0 type=int min=0 max=100")
            self.send("param name=variety-seed value=0 type=int min=0 max=18446744073709551615")
            self.send(
                f"param name=move-overhead value={round(DEFAULT_MOVE_OVERHEAD * 1000)} "
                f"type=int min=0 max={round(MAX_MOVE_OVERHEAD * 1000)}"
            )
            self.send("wait")
        elif command == "set-param":
            self.set_param(args.get("name", ""), args.get("value", ""))
        elif command == "init":
            self.get_engine()
            self.send("ready")
        elif command == "new-game":
            self.stop_search()
            self.get_engine().new_game()
            self.board = self.start_board()
        elif command == "pos":
            self.stop_search()
            variant = self.variant
            if "start" in args or "pos" not in args:
                board = self.start_board()
            else:
                variant = self.board_variant(args["pos"])
                board = board_from_hub(args["pos"], variant, self.captures_optional)
            for text in args.get("moves", "").split():
                board.push(move_from_hub(board, text))
            # Only a position read whole changes the game: a refused one leaves both.
            self.variant, self.board = variant, board
        elif command == "level":
            self.set_level(args)
        elif command == "go":
            self.go(args)
        elif command == "stop":
            self.stop_search()
        elif command == "ponder-hit":
            # The pondering search goes on as the move's search: its time limits (the
            # level's) count from when it began pondering.
            if self.pondering and self.search_engine is not None:
                self.pondering = False
                while self.search is not None and self.search.is_alive():
                    if self.search_engine.ponderhit():
                        break
                    time.sleep(0.001)  # the search has not started yet
        elif command == "ping":
            self.send("pong")
        else:
            raise ValueError(f"unknown command {_short(command)!r}")

    def board_variant(self, position: str) -> str:
        """The game a position plays: with no variant set (or ``normal``, ``losing``), the
        game of the position's board (a 50-square position plays International draughts or
        antidraughts, a 32-square one Russian or giveaway); else the variant set."""
        if self.follow is None:
            return self.variant
        eight, ten = self.follow
        if len(position) == 51:
            return ten
        if len(position) == 33:
            return eight
        return self.variant

    def set_param(self, name: str, value: str) -> None:
        if name == "variant":
            variant = HUB_VARIANTS.get(value.strip().lower().replace("_", "-"))
            if variant is None:
                raise ValueError(
                    f"variant {value!r} is not supported ({', '.join(sorted(set(HUB_VARIANTS)))})"
                )
            if shashki.game_info(variant).stacks and self.captures_optional:
                raise ValueError(
                    f"captures are compulsory in {variant}: set captures-optional false first"
                )
            self.stop_search()
            self.variant = variant
            eight = SCAN_EIGHT_BY_EIGHT.get(value.lower())
            self.follow = None if eight is None else (eight, variant)
            self.board = self.start_board()
        elif name == "evaluation":
            if value not in ("learned", "classic", "family", "network"):
                raise ValueError(
                    f"evaluation must be learned, classic, family or network, not {value!r}"
                )
            self.stop_search()
            self.evaluation = value
            if self.engine is not None:
                self.engine.set_evaluation(value)
        elif name == "captures-optional":
            if value.lower() not in ("true", "false"):
                raise ValueError(f"captures-optional takes true or false, not {value!r}")
            if value.lower() == "true" and shashki.game_info(self.variant).stacks:
                raise ValueError(f"captures are compulsory in {self.variant}")
            self.stop_search()
            self.captures_optional = value.lower() == "true"
            self.board = self.start_board()
        elif name in ("variety", "variety-seed"):
            try:
                number = int(value)
            except ValueError:
                raise ValueError(f"{name} must be an integer, not {value!r}") from None
            if not 0 <= number <= (100 if name == "variety" else 2**64 - 1):
                raise ValueError(f"{name} out of range: {number}")
            self.stop_search()
            moves, seed = self.variety
            self.variety = (number, seed) if name == "variety" else (moves, number)
            if self.engine is not None:
                self.engine.set_variety(self.variety[0], seed=self.variety[1])
        elif name == "move-overhead":
            try:
                milliseconds = int(value)
            except ValueError:
                raise ValueError(f"move-overhead must be an integer, not {value!r}") from None
            most = round(MAX_MOVE_OVERHEAD * 1000)
            if not 0 <= milliseconds <= most:
                raise ValueError(f"move-overhead must be between 0 and {most} ms, not {value}")
            self.move_overhead_ms = milliseconds
            if self.engine is not None:  # the running search keeps its budget
                self.engine.set_move_overhead(milliseconds / 1000)
        elif name == "egtb":
            from shashki import egtb

            tables = None
            if value:
                try:
                    tables = egtb.open(value)
                except (OSError, ValueError) as error:
                    raise ValueError(f"cannot open the endgame tables: {error}") from None
            self.stop_search()
            self.tables = tables
            self.get_engine().set_tables(tables)
        elif name in ("hash", "threads"):
            try:
                number = int(value)
            except ValueError:
                raise ValueError(f"{name} must be an integer, not {value!r}") from None
            limits = {"hash": (1, 65536), "threads": (1, 256)}[name]
            if not limits[0] <= number <= limits[1]:
                raise ValueError(f"{name} must be between {limits[0]} and {limits[1]}")
            if number == self.params[name] and self.engine is not None:
                return
            # A new engine, made now so that a table too large for the memory is refused
            # here; the running search (on the old engine) ends first.
            self.stop_search()
            params = dict(self.params, **{name: number})
            try:
                engine = self.new_engine(params)
            except MemoryError as error:
                raise ValueError(f"{error}; keeping the {self.params['hash']} MB table") from None
            self.engine = engine
            self.params[name] = number
        else:
            raise ValueError(f"unknown parameter {name!r}")

    def set_level(self, args: dict[str, str]) -> None:
        level: dict[str, float] = {}
        integers = {"depth": MAX_DEPTH, "nodes": MAX_NODES, "moves": MAX_REMAINING_MOVES}
        for key, value in args.items():
            if key == "infinite":
                level["infinite"] = 1
                continue
            if key in integers:
                try:
                    whole = int(value)
                except ValueError:
                    raise ValueError(f"level {key} must be an integer, not {value!r}") from None
                if whole < 1:
                    raise ValueError(f"level {key} must be at least 1, not {value}")
                level[key] = min(whole, integers[key])
            elif key in ("move-time", "time", "inc"):
                try:
                    seconds = float(value)
                except ValueError:
                    raise ValueError(
                        f"level {key} must be a number of seconds, not {value!r}"
                    ) from None
                if not 0 <= seconds < float("inf"):
                    raise ValueError(f"level {key} must be a finite number >= 0, not {value}")
                level[key] = min(seconds, MAX_SECONDS)
            else:
                raise ValueError(f"unknown level {key!r}")
        self.level = level

    def limit(self, think: bool) -> Limit:
        level = self.level
        if not think or "infinite" in level:
            return Limit()
        if not level.keys() & {"depth", "nodes", "move-time", "time"}:
            return Limit(time=DEFAULT_MOVE_TIME)
        clock = None
        if "time" in level:
            clock = min(level["time"] + level.get("inc", 0.0), MAX_SECONDS)
        return Limit(
            time=level.get("move-time"),
            depth=int(level["depth"]) if "depth" in level else None,
            nodes=int(level["nodes"]) if "nodes" in level else None,
            white_clock=clock,
            black_clock=clock,
            white_inc=level.get("inc"),
            black_inc=level.get("inc"),
            remaining_moves=int(level["moves"]) if level.get("moves") else None,
        )

    def go(self, args: dict[str, str]) -> None:
        self.stop_search()
        mode = "think" if "think" in args else "ponder" if "ponder" in args else "analyze"
        if not ({"think", "ponder", "analyze", "analyse"} & args.keys()):
            raise ValueError("go needs think, ponder or analyze")
        board = self.board.copy()
        engine = self.get_engine()
        limit = self.limit(mode != "analyze")
        self.pondering = mode == "ponder"

        def info(i: InfoDict) -> None:
            pv = " ".join(self._pv_texts(board, i["pv"]))
            self.send(
                f"info depth={i['depth']} mean-depth={i['seldepth']} score={score_to_hub(i)} "
                f'nodes={i["nodes"]} time={i["time"]:.3f} nps={i["nps"]} pv="{pv}"'
            )

        def search() -> None:
            if not board.legal_moves:
                self.send("done")
                return
            best = ponder = None
            try:
                answer = engine.ponder if mode == "ponder" else engine.search
                result = answer(board, limit, on_info=info)
                best, ponder = result.move, result.ponder
            except Exception as error:  # a search that fails still answers with a move
                self.error(f"search failed: {error}")
            if self.silent:
                return
            move = best if best is not None else board.legal_moves[0]
            line = f"done move={move_to_hub(move)}"
            if ponder is not None and best is not None:
                line += f" ponder={move_to_hub(ponder)}"
            self.send(line)

        self.silent = False
        self.search_engine = engine
        self.search = threading.Thread(target=search, daemon=True)
        self.search.start()

    @staticmethod
    def _pv_texts(board: Union[Board, ColumnBoard], pv: list[Move]) -> list[str]:
        return [move_to_hub(m) for m in pv]

    silent = False

    def stop_search(self, report: bool = True) -> None:
        if self.search is not None and self.search.is_alive():
            self.silent = not report
            # Repeat the stop until the thread ends: a stop that lands before the search
            # has started would otherwise be forgotten when it starts.
            while self.search.is_alive():
                if self.search_engine is not None:
                    self.search_engine.stop()
                self.search.join(timeout=0.05)
        self.search = None
        self.search_engine = None
        self.pondering = False


def main() -> int:
    # Bytes that are not UTF-8 become U+FFFD (and get an error reply) instead of ending
    # the engine with a UnicodeDecodeError.
    for stream, errors in ((sys.stdin, "replace"), (sys.stdout, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=errors)
    server = HubServer()
    try:
        server.run()
    except KeyboardInterrupt:  # Ctrl-C, or a GUI ending the engine with SIGINT
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
