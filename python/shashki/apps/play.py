"""``shashki play``: a game in the terminal, against the engine or between two people.

At the prompt type a move in either notation (``c3-d4``, ``22-18``, ``e3:c5:e7``, ``23x14``)
or a command: ``undo``, ``hint``, ``flip``, ``moves``, ``save FILE.pdn``, ``help``, ``quit``.
"""

from __future__ import annotations

import argparse
from typing import Callable, Optional, Union

import shashki
from shashki.columns import ColumnBoard, ColumnGame
from shashki.engine import Engine, Limit
from shashki.game import Game

UNICODE = {"w": "⛀", "W": "⛁", "b": "⛂", "B": "⛃"}
HELP = (
    "moves: c3-d4, 22-18, e3:c5:e7, 23x14 | commands: undo, hint, flip, moves, "
    "save FILE.pdn, help, quit"
)


def render(board: Union[shashki.Board, ColumnBoard], *, flipped: bool, ascii_only: bool) -> str:
    """The board with coordinates; White at the bottom unless ``flipped``. A column game's
    squares show their columns' tops, and the columns of two pieces or more are listed
    under the board, top first (``c3 wbB``)."""
    card = shashki.game_info(board.variant)
    n = card.board_size
    every_square = card.square_count == n * n  # Turkish draughts, уголки
    # A column game's squares by their names (Lasca's 7×7 board has rows of 4 and 3).
    where: dict[tuple[int, int], int] = {}
    if isinstance(board, ColumnBoard):
        for square in range(card.square_count):
            name = shashki.square_name(square, variant=board.variant)
            where[(ord(name[0]) - ord("a"), int(name[1:]) - 1)] = square
    ranks = range(n) if flipped else range(n - 1, -1, -1)
    files = list(range(n - 1, -1, -1)) if flipped else list(range(n))
    width = len(str(n))
    lines = []
    for rank in ranks:
        cells = []
        for file in files:
            if where:
                found = where.get((file, rank))
                if found is None:
                    cells.append(" ")
                    continue
                square = found
            elif every_square:
                square = rank * n + file
            elif (file + rank) % 2:
                cells.append(" ")
                continue
            else:
                square = rank * (n // 2) + file // 2
            piece = board.piece_at(square)
            if piece is None:
                cells.append(".")
            else:
                symbol = piece.symbol()
                cells.append(symbol if ascii_only else UNICODE[symbol])
        lines.append(f"{rank + 1:>{width}} " + " ".join(cells))
    lines.append(" " * (width + 1) + " ".join("abcdefghijkl"[f] for f in files))
    if isinstance(board, ColumnBoard):
        for square in range(card.square_count):
            column = board.column(square)
            if len(column) > 1:
                letters = "".join(p.symbol() for p in column)
                lines.append(f"  {shashki.square_name(square, variant=board.variant)} {letters}")
    return "\n".join(lines)


def play(
    args: argparse.Namespace,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """Run the game loop; ``read``/``write`` are the terminal (replaceable for tests)."""
    variant = getattr(args, "variant", "russian")
    game: Union[Game, ColumnGame]
    if shashki.game_info(variant).stacks:  # towers, Lasca
        game = ColumnGame(args.fen, variant=variant)
    else:
        game = Game(
            args.fen,
            variant=variant,
            captures_optional=getattr(args, "captures_optional", False),
        )
    engine = Engine()
    limit = Limit(time=args.time)
    if args.two_players:
        humans = {True, False}
    elif args.watch:
        humans = set()
    else:
        humans = {args.color == "white"}
    engine_name = f"shashki {shashki.__version__}"
    you = "Player"
    names = {side: (you if side in humans else engine_name) for side in (True, False)}
    game.headers["White"] = getattr(args, "white", None) or names[True]
    game.headers["Black"] = getattr(args, "black", None) or names[False]
    game.headers["Event"] = "shashki play"
    write("shashki play: type a move (c3-d4, 22-18, e3:c5:e7) or 'help'; Ctrl-C quits.")
    flipped = args.color == "black" and not args.two_players
    announced: set[str] = set()

    def show() -> None:
        write(render(game.current_board, flipped=flipped, ascii_only=args.ascii))
        if game.current_board.move_stack:
            write(f"last move: {game.current_board.peek()}")

    show()
    while True:
        outcome = game.outcome()
        if outcome is not None:
            write(f"game over: {game.result()} ({outcome.termination.value})")
            return 0
        for counter in game.draw_counters() if isinstance(game, Game) else ():
            key = f"{counter.termination.value}:{counter.done}"
            if counter.done > 0 and key not in announced and counter.unit != "occurrences":
                announced.add(key)
                write(f"draw rule {counter}: {counter.remaining} {counter.unit} left")
        side = "White" if game.current_board.turn else "Black"
        if game.current_board.turn not in humans:
            write(f"{side} (engine) is thinking ({args.time:g} s)...")
            result = engine.play(_searched(game), limit, ponder=getattr(args, "ponder", False))
            if result.move is None:
                continue
            text = game.current_board.move_text(result.move)
            game.push(result.move)
            write(f"{side} (engine) plays {text}   score {result.info['score']}")
            show()
            continue
        try:
            line = read(f"{side} to move> ").strip()
        except EOFError:
            write("")
            engine.close()
            return 0
        if not line:
            continue
        command, _, rest = line.partition(" ")
        if command in ("quit", "exit"):
            engine.close()
            return 0
        if command == "help":
            write(HELP)
        elif command == "flip":
            flipped = not flipped
            show()
        elif command == "moves":
            write(
                ", ".join(game.current_board.move_text(m) for m in game.current_board.legal_moves)
            )
        elif command == "hint":
            write(f"thinking ({args.time:g} s)...")
            hint = engine.play(_searched(game), limit)
            if hint.move is not None:
                write(f"hint: {game.current_board.move_text(hint.move)} ({hint.info['score']})")
        elif command == "undo":
            undo(game, 1 if args.two_players else 2, write)
            show()
        elif command == "save":
            save(game, rest.strip(), write)
        else:
            try:
                move = game.current_board.parse_move(line)
            except ValueError as error:
                write(f"{error}; type 'help' for help")
                continue
            game.push(move)
            show()


def _searched(game: Union[Game, ColumnGame]) -> Union[Game, ColumnBoard]:
    """What the engine searches: a Game, or a column game's board."""
    return game.current_board if isinstance(game, ColumnGame) else game


def undo(game: Union[Game, ColumnGame], plies: int, write: Callable[[str], None]) -> None:
    taken = 0
    while taken < plies and game.mainline_moves():
        game.pop()
        taken += 1
    if taken == 0:
        write("nothing to undo")


def save(game: Union[Game, ColumnGame], path: Optional[str], write: Callable[[str], None]) -> None:
    from shashki import pdn

    if not path:
        write("usage: save FILE.pdn")
        return
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(game.pdn() if isinstance(game, ColumnGame) else pdn.write_game(game))
    except OSError as error:
        write(f"cannot save: {error}")
        return
    write(f"saved to {path}")


def save_text(path: str, text: str, write: Callable[[str], None]) -> None:
    """``save FILE`` of the terminal games without a Game (the star, Чапаев): ``text``
    written to ``path``, or why not."""
    if not path:
        write("usage: save FILE")
        return
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        write(f"cannot save: {error}")
        return
    write(f"saved to {path}")
