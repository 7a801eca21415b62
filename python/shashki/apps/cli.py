"""The ``shashki`` command line.

- ``shashki perft [FEN] DEPTH [--divide] [--orders] [--threads N] [--hash MB] [--json]``
- ``shashki moves FEN`` — the legal moves, in the game's notation and the other
- ``shashki analyse FEN [--depth N | --time S]`` — info lines as the search deepens
- ``shashki selfplay [--time S] [--fen FEN] [--max-plies N]`` — an engine game under the
  game's draw rules: its PDN on stdout, the moves as they come on stderr
- ``shashki bench [--variant NAME|all]`` — fixed-depth search benchmark (nodes, nodes/s)
- ``shashki play [--color white|black] [--time S] [--ascii] [--two-players] [--watch]
  [--ponder]``
- ``shashki match --b ENGINE [--pairs N] [--time S]`` — a match between engines (also
  ``python -m shashki.match``)
- ``shashki hub`` — the Hub protocol engine on stdin/stdout
- ``shashki egtb build DIR --pieces N``, ``shashki egtb probe FEN --dir DIR`` — endgame tables
- ``shashki review GAME.pdn [--depth N] [--annotate OUT.pdn] [--plot OUT.svg]`` — a game
  review: every move judged against the engine's best
- ``shashki serve [--host H] [--port P] [--open] [--tables DIR]`` — the web board (the
  ``web`` extra)

``perft`` also takes ``--checkpoint FILE`` (the tree split into sub-positions, counted by
this process's threads, each finished one recorded so that a stopped run resumes),
``--workers K`` and ``--scheduler tcp://HOST:8786`` (split over processes or a Dask
cluster); most commands take ``--variant`` and ``--captures-optional``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Sequence
from typing import Optional, Union

import shashki

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from shashki.engine import InfoDict


class _UsageError(Exception):
    pass


FEN_REQUIRED_HELP = (
    "a position as FEN: numeric 'W:W21-32:B1-12', algebraic 'W:Wa1,c3:BKd6' (K marks "
    'kings), optionally in [FEN "..."]'
)
FEN_HELP = FEN_REQUIRED_HELP + "; the start position when left out"


class _Formatter(argparse.HelpFormatter):
    """Help that shows each option's default where it has a real one."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if action.default not in (None, False, argparse.SUPPRESS) and action.option_strings:
            text += " (default: %(default)s)"
        return text


#: The star board's names (Chinese checkers: ``shashki.star``, not a card of draughts).
STAR_NAMES = ("star", "chinese-checkers", "sternhalma")
#: Чапаев's names (the flicking game: ``shashki.chapaev``, not a card of draughts).
CHAPAEV_NAMES = ("chapaev", "chapayev", "чапаев")


def _variant_name(text: str) -> str:
    """A game's name from any of its names or aliases, in any case (as Python's
    ``variant=`` takes them); an unknown one is left for argparse to refuse."""
    if text.strip().lower() in STAR_NAMES:
        return "star"
    if text.strip().lower() in CHAPAEV_NAMES:
        return "chapaev"
    try:
        return shashki.game_info(text).name
    except ValueError:
        return text


def _add_variant(
    parser: argparse.ArgumentParser,
    choices: tuple[str, ...] = shashki.VARIANTS,
    columns: bool = False,
    star: bool = False,
    chapaev: bool = False,
) -> None:
    cards = shashki.games() + (shashki.games(columns=True) if columns else ())
    parser.add_argument(
        "--variant",
        type=_variant_name,
        choices=choices
        + tuple(card.name for card in cards if card.stacks)
        + (("star",) if star else ())
        + (("chapaev",) if chapaev else ()),
        default="russian",
        help="the game, by name or alias in any case: "
        + ", ".join(f"{card.name} ({card.display_name})" for card in cards)
        + (", star (Chinese checkers: --players, --holes, --hop-over)" if star else "")
        + (", chapaev (Чапаев, the flicking game: --level)" if chapaev else ""),
    )
    if star:
        group = parser.add_argument_group("the star board (--variant star)")
        group.add_argument("--players", type=int, choices=(2, 3, 4, 6), default=2, help="players")
        group.add_argument(
            "--holes", type=int, choices=(121, 73), default=121, help="the star's holes"
        )
        group.add_argument(
            "--hop-over",
            choices=("any", "others"),
            default="any",
            help="hops over any piece, or over other players' only",
        )
    parser.add_argument(
        "--captures-optional",
        action="store_true",
        help="quiet moves legal beside captures (a house rule)",
    )


def _board(args: argparse.Namespace, fen: Optional[str]) -> shashki.Board:
    """The board of a command: its FEN (or the variant's start when none is given; an
    empty one is an error) under --variant; a column game's is a ColumnBoard."""
    if fen is not None and not fen.strip():
        raise _UsageError("the FEN is empty (leave it out for the start position)")
    if shashki.game_info(args.variant).stacks:
        if args.captures_optional:
            raise _UsageError(f"captures are compulsory in {args.variant}")
        # The same calls as a Board's here (moves, texts, outcome, the engine's).
        return shashki.ColumnBoard(fen, variant=args.variant)  # type: ignore[return-value]
    return shashki.Board(fen, variant=args.variant, captures_optional=args.captures_optional)


def _games_line() -> str:
    """Every game the commands play, from the cards: the games of one piece a square, then
    the column games."""
    flat, columns = shashki.games(), shashki.games(columns=True)
    return (
        f"Draughts, {len(flat)} games and {len(columns)} column games (--variant: "
        + ", ".join(card.display_name for card in flat)
        + "; the column games: "
        + ", ".join(card.display_name for card in columns)
        + ")"
    )


def _parser() -> argparse.ArgumentParser:
    formatter = _Formatter
    parser = argparse.ArgumentParser(
        prog="shashki",
        description=_games_line()
        + ": perft, analysis, play, self-play, endgame tables, the Hub and DXP engine "
        "protocols, the web board.",
        epilog="'shashki COMMAND --help' tells more about each command.",
    )
    parser.add_argument("--version", action="version", version=f"shashki {shashki.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    perft = sub.add_parser(
        "perft",
        help="count the leaves of the move tree",
        description="Count the leaves of the move tree DEPTH plies deep (perft), with bulk "
        "counting, in convention A (distinct moves) unless --orders. Ctrl-C stops it.",
        formatter_class=formatter,
    )
    perft.add_argument(
        "args",
        nargs="+",
        metavar="[FEN] DEPTH",
        help=f"DEPTH: plies, 0-63; FEN: {FEN_HELP}",
    )
    perft.add_argument("--divide", action="store_true", help="count below each root move")
    perft.add_argument(
        "--orders",
        action="store_true",
        help="count capture orders separately (convention B)",
    )
    perft.add_argument(
        "--threads", type=int, default=None, help="worker threads (default: one, no pool)"
    )
    perft.add_argument(
        "--hash", type=int, default=0, metavar="MB", help="hash table size in MB (0: none)"
    )
    perft.add_argument("--json", action="store_true", help="print one JSON object")
    perft.add_argument(
        "--workers", type=int, default=None, help="split the tree over N local processes"
    )
    perft.add_argument(
        "--scheduler", default=None, metavar="ADDRESS", help="a Dask scheduler (tcp://HOST:8786)"
    )
    perft.add_argument("--split-depth", type=int, default=None, help="plies before the split")
    perft.add_argument(
        "--checkpoint", default=None, metavar="FILE", help="record finished sub-positions here"
    )
    perft.add_argument("--key-seed", type=int, default=0, help="seed of the tables' second key")
    _add_variant(perft, columns=True, star=True)

    moves = sub.add_parser(
        "moves",
        help="list the legal moves of a position",
        description="List the legal moves: algebraic, numeric (PDN) and with every landing.",
        formatter_class=formatter,
    )
    moves.add_argument("fen", nargs="?", default=None, metavar="FEN", help=FEN_HELP)
    _add_variant(moves, columns=True)

    analyse = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="search a position",
        description="Search a position, printing a line per depth, then the best line. "
        "Thinks 3 seconds unless --depth or --time says otherwise; Ctrl-C stops it.",
        formatter_class=formatter,
    )
    analyse.add_argument("fen", nargs="?", default=None, metavar="FEN", help=FEN_HELP)
    analyse.add_argument("--depth", type=int, default=None, help="plies (default: by time)")
    analyse.add_argument(
        "--time", type=float, default=None, help="seconds (default: 3 when no --depth)"
    )
    analyse.add_argument("--multipv", type=int, default=1, help="best lines to show")
    analyse.add_argument("--hash", type=int, default=64, metavar="MB", help="table size in MB")
    analyse.add_argument("--threads", type=int, default=1, help="search threads")
    _add_variant(analyse, columns=True)

    selfplay = sub.add_parser(
        "selfplay",
        help="play an engine game against itself",
        description="The engine plays itself under the variant's draw rules (FMJD-64 for "
        "Russian draughts), then the PDN.",
        formatter_class=formatter,
    )
    selfplay.add_argument("--time", type=float, default=0.1, help="seconds a move")
    selfplay.add_argument("--fen", default=None, help=FEN_HELP)
    selfplay.add_argument(
        "--max-plies",
        type=int,
        default=400,
        help="then stop: the game is written unterminated (*), its Termination tag saying why",
    )
    _add_variant(selfplay, columns=True)

    bench = sub.add_parser(
        "bench",
        help="fixed-depth search benchmark",
        description="Search a game's bench positions to a fixed depth and report nodes and "
        "nodes per second: Russian draughts' six positions at depth 13 by default, each "
        "other game's start, two middle games and two endings (--variant; all: every game, "
        "one total a game).",
        formatter_class=formatter,
    )
    bench.add_argument(
        "--evaluation",
        default="learned",
        help="learned, classic, family, network or a network file",
    )
    bench.add_argument(
        "--variant",
        type=lambda text: "all" if text.strip().lower() == "all" else _variant_name(text),
        choices=("all",)
        + tuple(card.name for card in shashki.games() + shashki.games(columns=True)),
        default="russian",
        help="the game whose bench positions to search (or all): "
        + ", ".join(card.name for card in shashki.games() + shashki.games(columns=True)),
    )

    play = sub.add_parser(
        "play",
        help="play against the engine in the terminal",
        description="A game in the terminal. Type moves (c3-d4, 22-18, e3:c5:e7, c3d4) or "
        "'help' for the commands.",
        formatter_class=formatter,
    )
    play.add_argument("--color", choices=["white", "black"], default="white", help="your side")
    play.add_argument("--time", type=float, default=1.0, help="engine seconds a move")
    play.add_argument("--fen", default=None, help=FEN_HELP)
    play.add_argument("--ascii", action="store_true", help="plain ASCII board")
    play.add_argument("--two-players", action="store_true", help="two people at one terminal")
    play.add_argument("--watch", action="store_true", help="watch the engine play itself")
    play.add_argument(
        "--ponder",
        action="store_true",
        help="the engine thinks on your time too (on the reply it expects)",
    )
    play.add_argument("--white", default=None, help="White's name in saved games")
    play.add_argument("--black", default=None, help="Black's name in saved games")
    play.add_argument(
        "--seat", type=int, default=0, help="the star board: your player (0 moves first)"
    )
    play.add_argument(
        "--level", type=int, choices=(1, 2, 3), default=2, help="Чапаев: the computer's level"
    )
    play.add_argument(
        "--match", action="store_true", help="Чапаев: rounds until a row reaches the far edge"
    )
    _add_variant(play, columns=True, star=True, chapaev=True)

    tables = sub.add_parser(
        "egtb",
        help="endgame tables: build, probe",
        description="Endgame tables built by retrograde analysis: every position of a few "
        "pieces solved.",
        formatter_class=formatter,
    )
    tables_sub = tables.add_subparsers(dest="egtb_command", required=True, metavar="ACTION")
    build = tables_sub.add_parser(
        "build",
        help="build the tables of up to N pieces",
        description="Build every material balance of 2 to N pieces into DIR (kept balances "
        "are skipped: an interrupted build resumes), with a progress bar on stderr.",
        formatter_class=formatter,
    )
    build.add_argument("dir", metavar="DIR", help="the directory of the tables")
    build.add_argument("--pieces", type=int, default=4, help="most pieces (5: minutes)")
    build.add_argument(
        "--threads",
        type=int,
        default=None,
        help="threads (default: all cores; with --scheduler: a task's, default 1)",
    )
    build.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="a Dask scheduler (tcp://HOST:8786): each balance a task on its workers",
    )
    build.add_argument(
        "--only",
        default=None,
        metavar="BALANCE[,BALANCE…]",
        help="only these balances (e.g. KKWvKB), those they need being in DIR already",
    )
    build.add_argument(
        "--shared",
        action="store_true",
        help="with --scheduler: DIR is reached by every worker at the same path, "
        "and they read and write it themselves",
    )
    _add_table_variant(build)
    probe = tables_sub.add_parser(
        "probe",
        help="the value of a position",
        description="The value of a position from the tables: win, draw or loss for the "
        "side to move, the moves to the end, the best move; also under the game's draw rules.",
        formatter_class=formatter,
    )
    probe.add_argument("fen", metavar="FEN", help=FEN_REQUIRED_HELP + " (required)")
    probe.add_argument("--dir", default="egtb", help="the directory of the tables")
    _add_table_variant(probe)

    review = sub.add_parser(
        "review",
        help="evaluate every move of a game: mistakes, blunders, a plot",
        description="Review the first game of a PDN file with the engine: each move's "
        "evaluation and what it lost against the engine's best; inaccuracies (0.5 men), "
        "mistakes (1.0) and blunders (2.0, or a win let go) are marked.",
        formatter_class=formatter,
    )
    review.add_argument("pdn", metavar="GAME.pdn", help="the game ('-' for stdin)")
    review.add_argument("--depth", type=int, default=None, help="plies a position (default 10)")
    review.add_argument("--time", type=float, default=None, help="seconds a position")
    review.add_argument("--annotate", metavar="OUT.pdn", help="write the annotated game here")
    review.add_argument("--plot", metavar="EVAL.svg", help="plot the evaluation here (SVG)")

    serve = sub.add_parser(
        "serve",
        help="a web board in the browser (needs shashki[web])",
        description="Serve the web board: play the engine or a friend, analyse, load, step "
        "through and review PDN games. Binds 127.0.0.1 unless --host says otherwise.",
        formatter_class=formatter,
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="the port")
    serve.add_argument("--open", action="store_true", help="open the page in a browser")
    serve.add_argument(
        "--tables",
        metavar="DIR",
        default=None,
        help="endgame tables (shashki egtb build, any games): the engine plays by them and "
        "the page shows their value of the position",
    )

    sub.add_parser(
        "match",
        help="a match between engines: Elo with its interval (shashki match --help)",
        add_help=False,  # its own command line takes every argument after "match"
    )
    sub.add_parser(
        "hub",
        help="Hub protocol engine on stdin/stdout",
        description="Speak the Hub protocol (Scan's, version 2) on stdin/stdout, for GUIs "
        "and bots (pydraughts' HubEngine).",
        formatter_class=formatter,
    )
    dxp = sub.add_parser(
        "dxp",
        help="DXP (DamExchange) engine on a TCP port",
        description="Listen for DXP games (the protocol of 10x10 engine matches; pydraughts' "
        "DXPEngine, Scan, Kingsrow): one game at a time. Binds 127.0.0.1 unless --listen "
        "says otherwise; DXP has no authentication.",
        formatter_class=formatter,
    )
    dxp.add_argument("--listen", default="127.0.0.1:27531", metavar="HOST:PORT")
    dxp.add_argument(
        "--variant",
        default="international",
        choices=shashki.VARIANTS,
        help="the game played: " + ", ".join(shashki.VARIANTS),
    )
    dxp.add_argument("--hash", type=int, default=64, metavar="MB", help="transposition table")
    dxp.add_argument("--threads", type=int, default=1, help="search threads")
    dxp.add_argument(
        "--idle-timeout",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="close a connection silent this long",
    )
    return parser


def _perft(args: argparse.Namespace) -> int:
    if len(args.args) > 2:
        raise _UsageError("perft takes an optional FEN and a depth")
    *fen, depth_text = args.args
    try:
        depth = int(depth_text)
    except ValueError:
        raise _UsageError(f"depth must be a whole number, not {depth_text!r}") from None
    if not 0 <= depth <= 63:
        raise _UsageError(f"depth must be between 0 and 63, not {depth}")
    if args.variant == "star":
        return _perft_star(args, fen[0] if fen else None, depth)
    if shashki.game_info(args.variant).stacks:
        return _perft_columns(args, fen[0] if fen else None, depth)
    board = _board(args, fen[0] if fen else None)
    if args.workers is not None or args.scheduler is not None or args.checkpoint is not None:
        return _perft_split(args, board, depth)
    options = {
        "distinct": not args.orders,
        "threads": args.threads,
        "hash_mb": args.hash,
        "key_seed": args.key_seed,
    }
    start = time.perf_counter()
    divide: dict[str, int] = {}
    show_progress = not args.json and depth >= 9
    if depth >= 2 and (args.divide or show_progress):
        # Root move by root move: shows progress and lets Ctrl-C stop between moves.
        from shashki._progress import Progress

        moves = list(board.legal_moves)
        progress = Progress(len(moves), "root moves", enabled=show_progress)
        for i, move in enumerate(moves, 1):
            board.push(move)
            divide[str(move)] = shashki.perft(board, depth - 1, **options)
            board.pop()
            progress.update(i, detail=str(move))
        progress.close()
        leaves = sum(divide.values())
    else:
        leaves = shashki.perft(board, depth, **options)
        if args.divide:
            divide = shashki.perft_divide(board, depth, **options)
    return _report_perft(args, board.fen(), depth, leaves, divide, time.perf_counter() - start)


def _perft_star(args: argparse.Namespace, text: Optional[str], depth: int) -> int:
    """Perft of the star board (Chinese checkers): the start of --holes, --players and
    --hop-over, or a position's text (``StarBoard.text()``); moves are start and end."""
    from shashki.star import StarBoard

    if args.workers is not None or args.scheduler is not None or args.checkpoint is not None:
        raise _UsageError("the star board's perft runs in one process (no --workers)")
    if depth > 12:
        raise _UsageError(f"the star board's perft goes to depth 12, not {depth}")
    if text is not None:
        board = StarBoard.from_text(text)
    else:
        size = {121: 4, 73: 3}[args.holes]
        board = StarBoard(size=size, players=args.players, hop_over=args.hop_over)
    start = time.perf_counter()
    divide: dict[str, int] = {}
    if args.divide and depth >= 1:
        for move in board.legal_moves:
            text_ = board.move_text(move)
            board.push(move)
            divide[text_] = board.perft(depth - 1)
            board.pop()
        leaves = sum(divide.values())
    else:
        leaves = board.perft(depth)
    return _report_perft(args, board.text(), depth, leaves, divide, time.perf_counter() - start)


def _perft_columns(args: argparse.Namespace, fen: Optional[str], depth: int) -> int:
    """Perft of a column game (towers, Lasca): one thread, no table."""
    if args.captures_optional:
        raise _UsageError(f"{args.variant} has no captures-optional house rule here")
    if args.workers is not None or args.scheduler is not None or args.checkpoint is not None:
        raise _UsageError(f"{args.variant}'s perft runs in one process (no --workers)")
    if fen is not None and not fen.strip():
        raise _UsageError("the FEN is empty (leave it out for the start position)")
    board = shashki.ColumnBoard(fen, variant=args.variant)
    counting = "orders" if args.orders else "distinct"
    start = time.perf_counter()
    divide: dict[str, int] = {}
    if args.divide and depth >= 1:
        for move in board.legal_moves:
            text = board.move_text(move)
            board.push(move)
            divide[text] = board.perft(depth - 1, counting)
            board.pop()
        leaves = sum(divide.values())
    else:
        leaves = board.perft(depth, counting)
    return _report_perft(args, board.fen(), depth, leaves, divide, time.perf_counter() - start)


def _report_perft(
    args: argparse.Namespace,
    fen: str,
    depth: int,
    leaves: int,
    divide: dict[str, int],
    seconds: float,
) -> int:
    """Print a perft's result: one JSON object with --json, else the divide (with
    --divide), the leaves and the rate."""
    rate = leaves / seconds if seconds > 0 else 0.0
    if args.json:
        out: dict[str, object] = {
            "fen": fen,
            "depth": depth,
            "convention": "orders" if args.orders else "distinct",
            "leaves": leaves,
            "seconds": round(seconds, 6),
            "leaves_per_second": round(rate),
        }
        if args.divide:
            out["divide"] = divide
        print(json.dumps(out))
        return 0
    if args.divide:
        for text, count in divide.items():
            print(f"{text}: {count}")
        print()
    print(f"perft {depth}: {leaves}")
    print(f"time {seconds:.3f} s, {rate / 1e6:.1f} M leaves/s")
    return 0


def _perft_split(args: argparse.Namespace, board: shashki.Board, depth: int) -> int:
    """Perft split into sub-positions counted by local processes or a Dask cluster."""
    from shashki import distributed

    if args.workers is not None and args.workers < 1:
        raise _UsageError(f"--workers must be positive, not {args.workers}")
    if args.threads is not None and args.threads < 1:
        raise _UsageError(f"--threads must be positive, not {args.threads}")
    client = None
    if args.scheduler is not None:
        try:
            from dask.distributed import Client
        except ImportError:
            raise _UsageError(
                '--scheduler needs Dask: pip install "shashki[distributed]"'
            ) from None
        client = Client(args.scheduler)  # type: ignore[no-untyped-call]
    start = time.perf_counter()
    try:
        leaves = distributed.perft(
            board,
            depth,
            distinct=not args.orders,
            split_depth=args.split_depth,
            executor=client,
            workers=args.workers,
            threads=(
                (args.threads or os.cpu_count() or 1)
                if args.workers is None and args.scheduler is None
                else None
            ),
            hash_mb=args.hash or 64,
            key_seed=args.key_seed,
            checkpoint=args.checkpoint,
            progress=sys.stderr.isatty() and not args.json,
        )
    finally:
        if client is not None:
            client.close()  # type: ignore[no-untyped-call]
    seconds = time.perf_counter() - start
    if args.json:
        print(
            json.dumps(
                {
                    "fen": board.fen(),
                    "depth": depth,
                    "convention": "orders" if args.orders else "distinct",
                    "leaves": leaves,
                    "seconds": round(seconds, 3),
                    "split": True,
                }
            )
        )
    else:
        print(f"perft {depth}: {leaves}")
        print(f"time {seconds:.3f} s, {leaves / max(seconds, 1e-9) / 1e6:.1f} M leaves/s")
    return 0


def _moves(args: argparse.Namespace) -> int:
    board = _board(args, args.fen)
    own = shashki.game_info(board.variant).notation  # the game's players' notation first
    other = "algebraic" if own == "numeric" else "numeric"
    if board.legal_moves:
        print(f"{own:<16} {other:<16} every landing")
    for move in board.legal_moves:
        print(f"{board.move_text(move):<16} {board.move_text(move, notation=other):<16} {move}")
    if not board.legal_moves:
        verdict = "won" if board.outcome().winner == board.turn else "lost"  # type: ignore[union-attr]
        print(f"no legal moves: the side to move has {verdict}")
    return 0


def _info_line(info: InfoDict) -> str:
    board_moves = " ".join(str(m) for m in info["pv"])
    return (
        f"depth {info['depth']:>2} seldepth {info['seldepth']:>2} "
        f"score {info['score'].relative!s:>7}"
        f" nodes {info['nodes']:>10} nps {info['nps']:>9} time {info['time']:.2f}  pv {board_moves}"
    )


def _check_positive(name: str, value: Optional[float]) -> None:
    if value is not None and value <= 0:
        raise _UsageError(f"--{name} must be positive, not {value}")


def _analyse(args: argparse.Namespace) -> int:
    from shashki.engine import Engine, Limit

    _check_positive("depth", args.depth)
    _check_positive("time", args.time)
    board = _board(args, args.fen)
    limit = Limit(depth=args.depth, time=args.time)
    if args.depth is None and args.time is None:
        limit = Limit(time=3.0)
    _check_positive("multipv", args.multipv)
    engine = Engine(hash_mb=args.hash, threads=args.threads)
    if args.multipv > 1:
        infos = engine.analyse(
            board,
            limit,
            multipv=args.multipv,
            on_info=lambda i: print(f"line {i['multipv']} " + _info_line(i), flush=True),
        )
        for info in infos:
            line = " ".join(str(m) for m in info["pv"]) or "(no legal moves)"
            print(f"line {info['multipv']}: {info['score']}  {line}")
        return 0
    info = engine.analyse(board, limit, on_info=lambda i: print(_info_line(i), flush=True))
    line = " ".join(str(m) for m in info["pv"]) or "(no legal moves)"
    print(f"best line: {line}")
    print(f"score: {info['score']}")
    return 0


def _game(args: argparse.Namespace) -> Union[shashki.Game, shashki.ColumnGame]:
    """The game of a command from --fen under --variant (a ColumnGame for towers, Lasca)."""
    if shashki.game_info(args.variant).stacks:
        if args.captures_optional:
            raise _UsageError(f"captures are compulsory in {args.variant}")
        return shashki.ColumnGame(args.fen, variant=args.variant)
    return shashki.Game(args.fen, variant=args.variant, captures_optional=args.captures_optional)


def _selfplay(args: argparse.Namespace) -> int:
    from shashki import pdn
    from shashki.engine import Engine, Limit

    _check_positive("time", args.time)
    game = _game(args)
    game.headers["White"] = game.headers["Black"] = f"shashki {shashki.__version__}"
    game.headers["Event"] = "shashki selfplay"
    engine = Engine()
    while not game.is_game_over() and game.ply() < args.max_plies:
        board = game.current_board
        searched = board if isinstance(game, shashki.ColumnGame) else game
        result = engine.play(searched, Limit(time=args.time))
        if result.move is None:
            break
        number = game.ply() // 2 + 1
        prefix = f"{number}." if board.turn else f"{number}..."
        text = board.move_text(result.move)
        game.push(result.move)
        print(f"{prefix} {text}  ({result.info['score']})", file=sys.stderr, flush=True)
    # The PDN alone goes to stdout (`shashki selfplay > game.pdn` reads back); a game cut at
    # --max-plies is unterminated (`*`), and its Termination tag says why.
    if not game.is_game_over():
        game.headers["Termination"] = f"unterminated: --max-plies {args.max_plies} reached"
    outcome = game.outcome()
    game.headers["Result"] = game.result()
    print(game.pdn() if isinstance(game, shashki.ColumnGame) else pdn.write_game(game))
    verdict = outcome.termination.value if outcome else f"cut at {args.max_plies} plies"
    print(f"result {game.result()} ({verdict})", file=sys.stderr)
    return 0


def _bench(args: argparse.Namespace) -> int:
    import io

    from shashki.apps.bench import BENCH, bench

    names = list(BENCH) if args.variant == "all" else [args.variant]
    for name in names:
        quiet = io.StringIO() if args.variant == "all" else None
        try:
            bench(name, args.evaluation, out=quiet)
        except ValueError as error:
            raise _UsageError(str(error)) from None
        if quiet is not None:
            print(f"{name:<20} {quiet.getvalue().splitlines()[-1]}")
    return 0


def _table_refusal(variant: str) -> Optional[str]:
    from shashki import egtb

    return egtb.refusal(variant)


def _add_table_variant(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        type=_variant_name,
        choices=shashki.VARIANTS,
        default="russian",
        metavar="GAME",
        help="the game, one of: "
        + ", ".join(v for v in shashki.VARIANTS if _table_refusal(v) is None)
        + " (another game is refused with the reason)",
    )


def _physical_memory() -> Optional[int]:
    """This machine's memory in bytes, where the system tells it."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return None


def _egtb(args: argparse.Namespace) -> int:
    from shashki import draw, egtb

    refusal = egtb.refusal(args.variant)
    if refusal is not None:
        raise _UsageError(refusal)
    if args.egtb_command == "build":
        if not 2 <= args.pieces <= 8:
            raise _UsageError(f"--pieces must be between 2 and 8, not {args.pieces}")
        if args.shared and args.scheduler is None:
            raise _UsageError("--shared is for a cluster build: give --scheduler too")
        if args.threads is not None and args.threads < 1:
            raise _UsageError(f"--threads must be positive, not {args.threads}")
        only = args.only.split(",") if args.only else None
        try:
            needs = egtb.requirements(args.pieces, args.variant, args.dir, balances=only)
        except ValueError as error:
            raise _UsageError(f"--only: {error}") from None
        print(f"{args.variant}, up to {args.pieces} pieces: {needs}", file=sys.stderr)
        memory = _physical_memory()
        if args.scheduler is None and memory is not None and needs.memory > memory:
            raise _UsageError(
                f"this machine has {memory / 1e9:.1f} GB of memory: too little for "
                f"{needs.largest}: build the balances that fit with --only, or on a cluster "
                "whose workers have more memory (--scheduler)"
            )
        try:
            names = egtb.build(
                args.dir,
                pieces=args.pieces,
                threads=args.threads,
                variant=args.variant,
                scheduler=args.scheduler,
                shared=args.shared,
                balances=only,
            )
        except ImportError:
            if args.scheduler is None:
                raise
            raise _UsageError(
                '--scheduler needs Dask: pip install "shashki[distributed]"'
            ) from None
        if only is not None:
            print(f"{', '.join(names)} in {args.dir}")
            return 0
        print(f"{len(names)} balances of up to {args.pieces} pieces in {args.dir}")
        return 0
    board = shashki.Board(args.fen, variant=args.variant)
    try:
        tables = egtb.open(args.dir, unpack_pieces=0)  # one probe: unpack only its block
    except OSError as error:
        raise _UsageError(f"cannot open the tables: {error}") from None
    value = tables.probe(board)
    if value is None:
        print(f"not in the tables (they hold up to {tables.max_pieces} pieces)")
        return 1
    side = "White" if board.turn else "Black"
    if value.wdl == 0:
        print(f"draw ({side} to move)")
    else:
        verdict = "win" if value.wdl > 0 else "loss"
        print(f"{verdict} for {side} (to move): {value.moves} moves, {value.plies} plies")
    rules = draw.default_draw_rules(args.variant)
    ruled = tables.probe(board, draw_rules=rules)
    if ruled is not None and ruled.wdl != value.wdl:
        print(f"under the draw rules {rules.name}: a draw")
    best = tables.best_move(board)
    if best is not None:
        print(f"best move: {board.move_text(best)}")
    return 0


def _review(args: argparse.Namespace) -> int:
    from shashki import pdn
    from shashki.apps.review import annotate, annotated_pdn, plot_svg, review
    from shashki.engine import Limit

    _check_positive("depth", args.depth)
    _check_positive("time", args.time)
    limit = Limit(time=args.time) if args.time is not None else Limit(depth=args.depth or 10)
    try:
        handle = sys.stdin if args.pdn == "-" else open(args.pdn, encoding="utf-8")  # noqa: SIM115
    except OSError as error:
        raise _UsageError(f"cannot read {args.pdn}: {error.strerror}") from None
    with handle:
        text = handle.read()
    game = _read_review_game(text)
    if game is None:
        raise _UsageError(f"no game in {args.pdn}")

    from shashki._progress import Progress

    shown: list[Progress] = []

    def progress(done: int, total: int) -> None:
        if not shown:
            shown.append(Progress(total, "positions"))
        shown[0].update(done)

    report = review(game, limit, progress=progress)
    if shown:
        shown[0].close()
    for move in report.moves:
        number = f"{move.ply // 2 + 1}{'.' if move.white else '...'}"
        mark = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}.get(move.judgement or "", "")
        line = f"{number:>5} {move.text + mark:<12} {str(move.after):>7}"
        if move.judgement:
            line += f"  {move.judgement}, best {move.best} (lost {move.lost / 100:.2f})"
        print(line)
    for color, name in ((True, "White"), (False, "Black")):
        c = report.counts(color)
        print(
            f"{name}: {c['inaccuracy']} inaccuracies, {c['mistake']} mistakes, "
            f"{c['blunder']} blunders"
        )
    if args.annotate:
        if isinstance(game, shashki.ColumnGame):
            annotated = annotated_pdn(game, report)
        else:
            annotate(game, report)
            annotated = pdn.write_game(game)
        with open(args.annotate, "w", encoding="utf-8") as out:
            out.write(annotated)
    if args.plot:
        with open(args.plot, "w", encoding="utf-8") as out:
            out.write(plot_svg(report.evaluations, report.moves))
    return 0


def _read_review_game(text: str) -> Optional[Union[shashki.Game, shashki.ColumnGame]]:
    """The first game of a PDN text: a column game's (its ``Variant`` tag names towers or
    Lasca) as a ColumnGame, another as a Game; None without one."""
    import io

    from shashki import pdn
    from shashki.cards import find
    from shashki.columns import read_pdn

    headers = pdn.read_headers(io.StringIO(text))
    card = find(headers.get("Variant", "")) if headers else None
    if card is None or not card.stacks:
        return pdn.read_game(io.StringIO(text))
    found = read_pdn(io.StringIO(text))
    if found is None:
        return None
    tags, board = found
    return shashki.ColumnGame.from_board(board, tags)


def _serve(args: argparse.Namespace) -> int:
    try:
        from shashki.apps.web import serve
    except ImportError as error:
        raise _UsageError(str(error)) from None
    if not 0 < args.port < 65536:
        raise _UsageError(f"--port must be between 1 and 65535, not {args.port}")
    try:
        serve(args.host, args.port, open_browser=args.open, tables=args.tables)
    except OSError as error:
        print(f"shashki serve: error: {error.strerror or error}", file=sys.stderr)
        return 1
    except ValueError as error:  # a table file that is not one
        print(f"shashki serve: error: {error}", file=sys.stderr)
        return 1
    return 0


def _dxp(args: argparse.Namespace) -> int:
    from shashki.protocols.dxp import parse_address, serve

    parse_address(args.listen)  # a usage error before anything starts
    if not 1 <= args.hash <= 65536 or not 1 <= args.threads <= 256:
        raise _UsageError("--hash must be 1-65536 MB and --threads 1-256")
    if not args.idle_timeout > 0:
        raise _UsageError("--idle-timeout must be a positive number of seconds")
    return serve(args)


def _hub(args: argparse.Namespace) -> int:
    from shashki.protocols.hub import main as hub_main

    return hub_main()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status (2 on a usage error). Output that
    cannot be written ends it quietly (a closed pipe) or with one line of error (a full
    disk): ``shashki._streams``."""
    from shashki._streams import guarded

    return guarded("shashki", lambda: _main(argv))


def _main(argv: Optional[Sequence[str]] = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["match"]:  # the match runner's own command line
        from shashki.apps.match.cli import main as match_main

        return match_main(arguments[1:], prog="shashki match")
    parser = _parser()
    args = parser.parse_args(arguments)
    handlers = {
        "perft": _perft,
        "moves": _moves,
        "analyse": _analyse,
        "analyze": _analyse,
        "selfplay": _selfplay,
        "bench": _bench,
        "hub": _hub,
        "dxp": _dxp,
        "egtb": _egtb,
        "review": _review,
        "serve": _serve,
    }
    try:
        if args.command == "play" and args.variant == "chapaev":
            from shashki.apps.play_chapaev import play as play_chapaev

            return play_chapaev(args)
        if args.command == "play" and args.variant == "star":
            from shashki.apps.play_star import play as play_star

            return play_star(args)
        if args.command == "play":
            from shashki.apps.play import play

            return play(args)
        if args.command in handlers:
            return handlers[args.command](args)
    except (_UsageError, ValueError) as error:
        # A hint naming a game says it as this command line takes it.
        text = re.sub(r'variant "([a-z-]+)"', r"--variant \1", str(error))
        print(f"shashki: error: {text}", file=sys.stderr)
        return 2
    except MemoryError as error:
        print(f"shashki: error: {error or 'out of memory'}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
