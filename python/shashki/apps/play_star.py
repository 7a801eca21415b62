"""``shashki play --variant star``: Chinese checkers in the terminal, against the computer
or between people.

At the prompt type a move by the holes' names (``D5-E5``, ``C6-E6-G8``; the start and the end
are enough) or a command: ``moves``, ``hint``, ``undo``, ``save FILE``, ``help``, ``quit``.
"""

from __future__ import annotations

import argparse
from typing import Callable

from shashki.apps.play import save_text
from shashki.star import StarBoard, write_record

#: Each player's mark on the board, in turn order (pbmserv's o and x first).
MARKS = "ox+*#@"
HELP = (
    "moves: D5-E5, C6-E6-G8 (start and end are enough) | commands: moves, hint, undo, "
    "save FILE, help, quit"
)


def render(board: StarBoard) -> str:
    """The star, a row a line from the top (row A), each row starting with the name of its
    first hole; a player's pieces by its mark (player 0: o, 1: x, then + * # @), empty
    holes '.'."""
    owner = {h: MARKS[p] for p in range(board.players) for h in board.pieces(p)}
    rows: dict[int, list[tuple[int, int]]] = {}
    for h, (q, r, _) in enumerate(board.holes):
        rows.setdefault(r, []).append((2 * q + r, h))
    left = min(x for row in rows.values() for x, _ in row)
    lines = []
    for r in sorted(rows):
        cells = sorted(rows[r])
        first = board.hole_name(cells[0][1])
        line = [" "] * (2 * board.size * 4 + 1)
        for x, h in cells:
            line[x - left] = owner.get(h, ".")
        lines.append(f"{first:>4} " + "".join(line).rstrip())
    return "\n".join(lines)


def status(board: StarBoard) -> str:
    places = ", ".join(f"{i + 1}. {MARKS[p]}" for i, p in enumerate(board.finished))
    line = f"ply {board.plies}"
    if places:
        line += f"; finished: {places}"
    return line


def play(
    args: argparse.Namespace,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """Run the game loop; ``read``/``write`` are the terminal (replaceable for tests)."""
    size = {121: 4, 73: 3}[args.holes]
    board = StarBoard(size=size, players=args.players, hop_over=args.hop_over)
    if args.two_players:
        humans = set(range(board.players))
    elif args.watch:
        humans = set()
    else:
        if not 0 <= args.seat < board.players:
            write(f"--seat is 0 to {board.players - 1}")
            return 2
        humans = {args.seat}
    write(
        f"shashki play: Chinese checkers, {len(board.holes)} holes, {board.players} players "
        f"(you: {', '.join(MARKS[p] for p in sorted(humans)) or 'none'}); 'help' for help."
    )
    write(render(board))
    while True:
        if board.is_over():
            places = " ".join(MARKS[p] for p in board.finished) or "none"
            write(f"game over after {board.plies} plies; finished in order: {places}")
            return 0
        mark = MARKS[board.turn]
        target = board.seat(board.turn)[1]
        if board.turn not in humans:
            found = board.search(time=args.time)
            if found.move is None:
                return 0
            text = board.move_text(found.move)
            board.push(found.move)
            write(f"{mark} (computer) plays {text}   depth {found.depth}, {found.nodes} nodes")
            write(render(board))
            write(status(board))
            continue
        try:
            line = read(f"{mark} to move (to point {target})> ").strip()
        except EOFError:
            write("")
            return 0
        if not line:
            continue
        command, _, rest = line.partition(" ")
        if command in ("quit", "exit"):
            return 0
        if command == "help":
            write(HELP)
        elif command == "moves":
            write(", ".join(board.move_text(m) for m in board.legal_moves))
        elif command == "hint":
            hint = board.search(time=args.time)
            if hint.move is not None:
                write(f"hint: {board.move_text(hint.move)}")
        elif command == "undo":
            # Back to this player's previous turn.
            taken = 0
            while board.moves and (taken == 0 or board.turn not in humans):
                board.pop()
                taken += 1
            if taken == 0:
                write("nothing to undo")
            write(render(board))
        elif command == "save":
            save_text(rest.strip(), write_record(board, {"Event": "shashki play"}), write)
        else:
            try:
                move = board.parse_move(line)
            except ValueError as error:
                write(f"{error}; type 'help' for help")
                continue
            board.push(move)
            write(render(board))
            write(status(board))
