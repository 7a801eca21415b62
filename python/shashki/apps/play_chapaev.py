"""``shashki play --variant chapaev``: Чапаев in the terminal, against the computer or
between two people.

Type a flick as the disc's file, the direction in degrees and the strength (``d 90 0.8``:
the d disc straight up the board at 0.8 of full strength; 0 degrees points along rank 1
towards h, 90 towards Black, 270 towards White) or a command: ``hint``, ``undo``,
``save FILE``, ``help``, ``quit``. The board is drawn after the discs stop.
"""

from __future__ import annotations

import argparse
from typing import Callable

from shashki.apps.play import save_text
from shashki.chapaev import ChapaevBoard, ChapaevMatch, write_record

HELP = (
    "a flick: FILE DEGREES STRENGTH (d 90 0.8; 90 is up the board, towards Black) | "
    "commands: hint, undo, save FILE, help, quit"
)


def render(board: ChapaevBoard) -> str:
    """The board, rank 8 at the top: each disc on the square its centre is on (capital
    when two share one), and the discs' centres listed under it."""
    cells: dict[tuple[int, int], str] = {}
    for name, x, y, on in board.discs:
        if not on:
            continue
        key = (min(7, int(x)), min(7, int(y)))
        cells[key] = name[0].upper() if key in cells else name[0]
    lines = []
    for rank in range(7, -1, -1):
        row = " ".join(cells.get((file, rank), ".") for file in range(8))
        lines.append(f"{rank + 1} {row}")
    lines.append("  a b c d e f g h")
    for side, label in (("w", "white"), ("b", "black")):
        discs = [f"{n[1]}({x:.2f},{y:.2f})" for n, x, y, on in board.discs if on and n[0] == side]
        lines.append(f"{label}: " + (" ".join(discs) or "none"))
    return "\n".join(lines)


def play(
    args: argparse.Namespace,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """Run the round loop (with ``--match``, rounds until the match is won);
    ``read``/``write`` are the terminal (replaceable for tests)."""
    match = ChapaevMatch() if getattr(args, "match", False) else None
    board = match.board() if match else ChapaevBoard()
    if args.two_players:
        humans = {"w", "b"}
    elif args.watch:
        humans = set()
    else:
        humans = {"w" if args.color == "white" else "b"}
    level = int(getattr(args, "level", 2))
    write(f"shashki play: Чапаев (the computer at level {level}); 'help' for help.")
    write(render(board))
    seed = 0
    while True:
        result = board.result()
        if result is not None:
            outcome = {"w": "White wins", "b": "Black wins", "draw": "drawn"}[result]
            write(f"round over after {len(board.flicks)} flicks: {outcome}")
            if match is None:
                return 0
            match.record(result)
            if match.winner is not None:
                name = "White" if match.winner == "w" else "Black"
                write(f"match over after {len(match.rounds)} rounds: {name} wins the match")
                return 0
            board = match.board()
            write(
                f"round {len(match.rounds) + 1}: White's row on rank {match.ranks['w'] + 1}, "
                f"Black's on rank {8 - match.ranks['b']}"
            )
            write(render(board))
            continue
        side = "White" if board.turn == "w" else "Black"
        if board.turn not in humans:
            seed += 1
            flick = board.aim(level, seed)
            if flick is None:
                return 0
            shot = board.play(flick)
            write(f"{side} (computer) flicks {flick}" + _said(shot.off, shot.again))
            write(render(board))
            continue
        try:
            line = read(f"{side} to flick> ").strip()
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
        elif command == "hint":
            seed += 1
            write(f"hint: {board.aim(level, seed)}")
        elif command == "undo":
            taken = 0
            while board.flicks and (taken == 0 or board.turn not in humans):
                board.pop()
                taken += 1
            write(render(board) if taken else "nothing to undo")
        elif command == "save":
            save_text(rest.strip(), write_record(board, {"Event": "shashki play"}), write)
        else:
            try:
                shot = board.play(line)
            except ValueError as error:
                write(f"{error}; type 'help' for help")
                continue
            write(f"{side} flicks {shot.flick}" + _said(shot.off, shot.again))
            write(render(board))


def _said(off: list[str], again: bool) -> str:
    text = f": off {', '.join(off)}" if off else ": nothing off"
    return text + (" — flicks again" if again else "")
