"""Уголки (the corners race) in plain Python, written from the rules page (not from the Rust
code), for differential tests against ``shashki._core`` (``tests/test_ugolki.py``).

Every square of the 8×8 board is played. Each side has nine pieces in its 3×3 corner (White
a1–c3, Black f6–h8), or twelve in a corner three ranks deep and four files wide (White
a1–d3, Black e6–h8: the page's other house; ``house=HOUSE_12``). A move takes one piece
of the side to move either one square along its rank or file to an empty square, or over
a piece of either colour next to it on its rank or file to the empty square just behind,
and from there on over further pieces the same way, turning as it likes, stopping after
any jump. Nothing is captured. A move is its start and its end. A position is a dict from
``(file, rank)`` to ``"W"`` or ``"B"`` and the side to move.
"""

from __future__ import annotations

from typing import Optional

Square = tuple[int, int]
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))


#: The houses the rules page gives: three ranks of three files (nine pieces), or of four
#: files (twelve pieces); ``(files, ranks)``.
HOUSE_9 = (3, 3)
HOUSE_12 = (4, 3)


def houses(house: tuple[int, int] = HOUSE_9) -> tuple[frozenset[Square], frozenset[Square]]:
    """White's house (in the a1 corner) and Black's (in the h8 corner, White's turned half
    round)."""
    files, ranks = house
    white = frozenset((f, r) for f in range(files) for r in range(ranks))
    return white, frozenset((7 - f, 7 - r) for f, r in white)


WHITE_HOUSE, BLACK_HOUSE = houses()


def start(house: tuple[int, int] = HOUSE_9) -> tuple[dict[Square, str], str]:
    board: dict[Square, str] = {}
    white, black = houses(house)
    for sq in white:
        board[sq] = "W"
    for sq in black:
        board[sq] = "B"
    return board, "W"


def filled(
    board: dict[Square, str], turn: str, house: tuple[int, int] = HOUSE_9
) -> tuple[bool, Optional[str]]:
    """Whether the game is over by filling, and the result: with White to move (Black has
    had its reply to White's filling move), (True, winner or None for a draw); else
    (False, None); the winner is "W" or "B"."""
    if turn != "W":
        return False, None
    white_house, black_house = houses(house)
    white = {sq for sq, c in board.items() if c == "W"} == black_house
    black = {sq for sq, c in board.items() if c == "B"} == white_house
    if white and black:
        return True, None
    if white or black:
        return True, "W" if white else "B"
    return False, None


def on_board(sq: Square) -> bool:
    return 0 <= sq[0] < 8 and 0 <= sq[1] < 8


def moves(
    board: dict[Square, str], turn: str, house: tuple[int, int] = HOUSE_9
) -> list[tuple[Square, Square]]:
    """The legal moves as (start, end) pairs: none once the game is over by filling."""
    if filled(board, turn, house)[0]:
        return []
    out: list[tuple[Square, Square]] = []
    for sq, color in sorted(board.items()):
        if color != turn:
            continue
        ends: set[Square] = set()
        for df, dr in DIRECTIONS:
            step = (sq[0] + df, sq[1] + dr)
            if on_board(step) and step not in board:
                ends.add(step)
        # Chains of jumps: the piece has left its square, which is empty while it moves.
        seen = {sq}
        todo = [sq]
        while todo:
            at = todo.pop()
            for df, dr in DIRECTIONS:
                over = (at[0] + df, at[1] + dr)
                land = (at[0] + 2 * df, at[1] + 2 * dr)
                if (
                    on_board(land)
                    and over in board
                    and over != sq
                    and (land not in board or land == sq)
                    and land not in seen
                ):
                    seen.add(land)
                    todo.append(land)
        ends |= seen - {sq}
        out.extend((sq, end) for end in sorted(ends))
    return out


def play(board: dict[Square, str], turn: str, move: tuple[Square, Square]) -> dict[Square, str]:
    after = dict(board)
    after[move[1]] = after.pop(move[0])
    return after


def perft(board: dict[Square, str], turn: str, depth: int, house: tuple[int, int] = HOUSE_9) -> int:
    if depth == 0:
        return 1
    ms = moves(board, turn, house)
    if depth == 1:
        return len(ms)
    other = "B" if turn == "W" else "W"
    return sum(perft(play(board, turn, m), other, depth - 1, house) for m in ms)


def from_fen(fen: str) -> tuple[dict[Square, str], str]:
    """An algebraic FEN (``W:Wa1,b1:Bh8``)."""
    fields = fen.split(":")
    board: dict[Square, str] = {}
    for field in fields[1:]:
        color = field[0]
        for token in field[1:].split(","):
            if token:
                board[(ord(token[0]) - ord("a"), int(token[1:]) - 1)] = color
    return board, fields[0]
