"""The Hub protocol's text: positions, moves, scores and game names as the protocol writes
them, and back (shared by the engine, :mod:`shashki.protocols.hub`, and the client,
:mod:`shashki.protocols.hub_client`; it depends on the library only).

All conversions between the Hub's numbers and shashki's squares live here: moves number
squares from White's side in Russian draughts and its variants (1 = a1, 2 = c1, … 32 = h8,
shashki's square index plus one, as pydraughts numbers them), and by the game's own numbers
in the others (English 1 = b8 …, International 1 = b10 …).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Optional, Union

import shashki
from shashki import Board, Move, square_from_number, square_number
from shashki.search_types import Score

if TYPE_CHECKING:
    from shashki.columns import ColumnBoard
    from shashki.search_types import InfoDict

ARG = re.compile(r'([A-Za-z][\w-]*)(?:=("[^"]*"|\S*))?')
PIECE_CHARS = {"w": (True, False), "b": (False, False), "W": (True, True), "B": (False, True)}


# ---- numbering: all conversions between the Hub protocol and shashki live here ----------


def hub_square(square: int, variant: str = "russian") -> int:
    """Hub move number of a square index: a1 = 1, c1 = 2, … h8 = 32 in Russian draughts and
    its variants; the game's own number (English 1 = b8 …) in the others."""
    if shashki.game_info(variant).hub_index_numbers:
        return square + 1
    return square_number(square, variant=variant)


def square_count(variant: str) -> int:
    """The number of squares of the variant's board (32, or 50 on 10×10)."""
    return shashki.SQUARE_COUNTS.get(variant, 32)


def square_from_hub(number: int, variant: str = "russian") -> int:
    count = square_count(variant)
    if not 1 <= number <= count:
        raise ValueError(f"square {number} is not within 1-{count}")
    if shashki.game_info(variant).hub_index_numbers:
        return number - 1
    return square_from_number(number, variant=variant)


def move_to_hub(move: Move) -> str:
    """``10-13`` or ``from x to x captured…``, in the numbers of the move's game: the
    captured squares in increasing order, or in the column games (towers, Lasca) in the
    order jumped, since there the order decides which prisoner lies over which."""
    variant = move.variant
    start, end = hub_square(move.start, variant), hub_square(move.end, variant)
    if not move.is_capture:
        return f"{start}-{end}"
    if _stacks(variant):
        captured = [hub_square(sq, variant) for sq in jumped_in_order(move)]
    else:
        captured = sorted(hub_square(sq, variant) for sq in move.captured)
    return "x".join(str(n) for n in [start, end, *captured])


def _stacks(variant: str) -> bool:
    return shashki.game_info(variant).stacks


def _coordinates(square: int, variant: str) -> tuple[int, int]:
    name = shashki.square_name(square, variant=variant)
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def jumped_in_order(move: Move) -> list[int]:
    """The squares a capture jumped, in the order jumped: each leg of its path, from one
    landing to the next, jumps one of them, the last one of them on the leg (a flying king
    may first pass squares emptied earlier in the move, where pieces are taken as they are
    jumped; there a column may be jumped twice, and is listed twice)."""
    variant = move.variant
    where = {sq: _coordinates(sq, variant) for sq in move.captured}
    order: list[int] = []
    here = _coordinates(move.start, variant)
    for landing in move.path:
        there = _coordinates(landing, variant)
        best: Optional[tuple[float, int]] = None
        for sq, (f, r) in where.items():
            # Strictly between here and there on their diagonal; the nearest to there.
            df, dr = f - here[0], r - here[1]
            tf, tr = there[0] - here[0], there[1] - here[1]
            if tf and df * tr == dr * tf and 0 < df / tf < 1:
                if best is None or df / tf > best[0]:
                    best = (df / tf, sq)
        if best is not None:
            order.append(best[1])
        here = there
    return order


def move_from_hub(board: Union[Board, ColumnBoard], text: str) -> Move:
    """The legal move a Hub move text denotes (ValueError if none). In the column games a
    capture's squares in the order jumped pick one of two captures that jump the same
    squares in another order; any order is read when only one capture fits."""
    capture = "x" in text
    parts = text.split("x" if capture else "-")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise ValueError(f"bad move {text!r}") from None
    if len(numbers) < 2 or (not capture and len(numbers) != 2):
        raise ValueError(f"bad move {text!r}")
    variant = board.variant
    start, end = square_from_hub(numbers[0], variant), square_from_hub(numbers[1], variant)
    jumped = [square_from_hub(n, variant) for n in numbers[2:]]
    captured = frozenset(jumped)
    fits = [
        move
        for move in board.legal_moves
        if move.start == start
        and move.end == end
        and (move.captured == captured if capture else not move.is_capture)
    ]
    if len(fits) > 1 and capture and _stacks(variant):
        fits = [move for move in fits if jumped_in_order(move) == jumped] or fits
    if fits:
        return fits[0]
    raise shashki.IllegalMoveError(f"illegal move {text!r} in position {board.fen()}")


def pieces_fen(squares: str, pieces: dict[str, tuple[bool, bool]], error: type[Exception]) -> str:
    """The FEN's piece fields (``W…:B…``) of a position string of the engine protocols (one
    character a square in the game's numbering, ``e`` empty, ``pieces`` the others as
    ``(white, king)``: the Hub's and DXP's letters); ``error`` for another character."""
    white: list[str] = []
    black: list[str] = []
    for number, char in enumerate(squares, start=1):
        if char == "e":
            continue
        if char not in pieces:
            raise error(f"bad square character {char!r} at square {number}")
        color, king = pieces[char]
        (white if color else black).append(("K" if king else "") + str(number))
    return f"W{','.join(white)}:B{','.join(black)}"


def board_from_hub(
    text: str, variant: str = "russian", captures_optional: bool = False
) -> Union[Board, ColumnBoard]:
    """A board from a Hub position string (``W`` + 32 characters in PDN order, or 50 on the
    10×10 board). The column games (towers, Lasca), which a square's one letter cannot
    hold, take their FEN instead (``W:Wc3(bB),e3:Bd6``: a column's pieces under its top
    in parentheses) and give a :class:`shashki.ColumnBoard`; captures are compulsory
    there."""
    if _stacks(variant):
        from shashki.columns import ColumnBoard

        if captures_optional:
            raise ValueError(f"captures are compulsory in {variant}")
        return ColumnBoard(text, variant=variant)
    count = square_count(variant)
    if len(text) != count + 1 or text[0] not in "WB":
        raise ValueError(
            f"position must be W or B and {count} squares for {variant}, got {text[:60]!r}"
        )
    return Board(
        f"{_turn_from_hub(text[0], variant)}:{pieces_fen(text[1:], PIECE_CHARS, ValueError)}",
        variant=variant,
        captures_optional=captures_optional,
    )


_HUB_CARDS = (*shashki.games(), *shashki.games(columns=True))

HUB_VARIANTS: dict[str, str] = {
    name: card.name for card in _HUB_CARDS for name in (*card.names, *card.hub_names)
}
"""Hub variant names → our variants, from the games' cards: each game's name, its aliases
and the names Hub clients send for it (Scan's ``normal`` is International draughts,
``losing`` antidraughts, ``bt`` breakthrough; pydraughts' ``standard``, ``american``,
``checkers``, ``poddavki``), the column games' too (towers, Lasca). A position is ``W``/``B``
and the squares in the game's own order (32, 50 on the 10×10 board, 64 in Turkish
draughts, 72 on 12×12; a column game's is its FEN); move numbers are :func:`hub_square`'s."""

SCAN_EIGHT_BY_EIGHT = {"normal": "russian", "losing": "giveaway"}
"""Scan's names for the 10×10 games, which clients of the 8×8 board have sent for their
own: after ``normal`` or ``losing`` the start is the 10×10 game's, and a 32-square position
plays this 8×8 game (International draughts' and antidraughts' rules on the small board are
Russian draughts' and giveaway's nearest kin)."""


def hub_variant_values() -> list[str]:
    """The ``variant`` values the ``hub`` command lists: every game's name and the names Hub
    clients send (those a space-separated list can hold)."""
    values: list[str] = []
    for card in _HUB_CARDS:
        for name in (card.name, *card.hub_names):
            if name.isascii() and " " not in name and name not in values:
                values.append(name)
    return values


def board_to_hub(board: Union[Board, ColumnBoard]) -> str:
    """The Hub position string of a board (a column game's: its FEN)."""
    if _stacks(board.variant):
        return board.fen()
    chars = []
    for number in range(1, square_count(board.variant) + 1):
        piece = board.piece_at(square_from_number(number, variant=board.variant))
        chars.append("e" if piece is None else piece.symbol())
    return _turn_to_hub(board.turn, board.variant) + "".join(chars)


def _black_first(variant: str) -> bool:
    return shashki.game_info(variant).first == "black"


def _turn_from_hub(char: str, variant: str) -> str:
    """The FEN turn of a Hub position's first character. The Hub names the side to move as
    the player who moves first (``W``) or second (``B``), as pydraughts writes it: in the
    games where Black moves first (English draughts, Pool, Thai) ``W`` is Black. The pieces'
    letters are their colours in every game."""
    if _black_first(variant):
        return "B" if char == "W" else "W"
    return char


def _turn_to_hub(white_to_move: bool, variant: str) -> str:
    """The Hub's first character for the side to move (see :func:`_turn_from_hub`)."""
    return "W" if white_to_move != _black_first(variant) else "B"


def score_to_hub(info: InfoDict) -> str:
    """Scores in men (``0.15``); a win in n plies is ``(10000 - n) / 100``, as pydraughts
    reads it."""
    score = info["score"].relative
    if score.win is not None:
        plies = max(2 * abs(score.win) - 1, 0)
        value = (10000 - plies) / 100
        return f"{value if score.win > 0 else -value:.2f}"
    return f"{(score.cp or 0) / 100:.2f}"


def score_from_hub(text: str) -> Optional[Score]:
    """A Hub score read back (see :func:`score_to_hub`): men as centi-men, a value of
    (10000 − n) / 100 or more as a win in n plies; ``#3`` / ``-#3`` as Scan writes forced
    results. None for text that is not a score."""
    text = text.strip().strip('"')
    if text.lstrip("+-").startswith("#"):
        try:
            moves = int(text.lstrip("+-")[1:])
        except ValueError:
            return None
        return Score(win=-moves if text.startswith("-") else moves)
    try:
        value = float(text)
    except ValueError:
        return None
    if value != value or abs(value) == float("inf"):
        return None
    if abs(value) >= 90.0:  # (10000 - plies) / 100: a forced result
        plies = round(10000 - abs(value) * 100)
        moves = max((plies + 1) // 2, 1) if plies > 0 else 0
        return Score(win=moves if value > 0 else -moves)
    return Score(cp=round(value * 100))
