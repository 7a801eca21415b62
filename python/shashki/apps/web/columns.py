"""The column games (towers, Lasca) on the web board: what the page's state reads of a
:class:`shashki.columns.ColumnGame` beside a :class:`shashki.Game`."""

from __future__ import annotations

import shashki
from shashki.columns import ColumnBoard, ColumnGame

__all__ = ["ColumnGame", "columns_json", "grid_json"]


def columns_json(board: ColumnBoard) -> dict[int, str]:
    """Each square's column, its pieces' letters from the top down (``"wbB"``: a white man
    over a black man over a black king)."""
    out = {}
    for square in range(shashki.game_info(board.variant).square_count):
        column = board.column(square)
        if column:
            out[square] = "".join(piece.symbol() for piece in column)
    return out


def grid_json(variant: str) -> list[tuple[int, int]]:
    """Each square's (file, rank) from White's side, a1 = (0, 0): the page places squares
    by it on boards its formulas do not cover (Lasca's 7×7)."""
    out = []
    for square in range(shashki.game_info(variant).square_count):
        name = shashki.square_name(square, variant=variant)
        out.append((ord(name[0]) - ord("a"), int(name[1:]) - 1))
    return out
