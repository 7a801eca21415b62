"""The column games (towers, Lasca) on the web board: a game of one line of moves on a
:class:`shashki.ColumnBoard`, with what the page's state and the API read of a
:class:`shashki.Game` (no variations: a column game's PDN is its main line)."""

from __future__ import annotations

from typing import Optional

import shashki
from shashki.columns import TOWERS_QUIET_PLIES, ColumnBoard
from shashki.draw import Outcome


class ColumnGame:
    """A column game from ``fen`` (None: the start) and its moves."""

    captures_optional = False

    def __init__(self, fen: Optional[str], variant: str) -> None:
        self.current_board = ColumnBoard(fen, variant=variant)
        self.variant = self.current_board.variant
        self.start_fen = self.current_board.fen()

    def push_move(self, text: str) -> shashki.Move:
        return self.current_board.push_move(text)

    def push(self, move: shashki.Move) -> None:
        self.current_board.push(move)

    def mainline_moves(self) -> list[shashki.Move]:
        return self.current_board.move_stack

    def board(self) -> ColumnBoard:
        """The board at the start (the page replays the moves on it)."""
        return self.current_board.root()

    def outcome(self) -> Optional[Outcome]:
        return self.current_board.outcome()

    def result(self) -> str:
        return self.current_board.result()

    def is_game_over(self) -> bool:
        return self.current_board.is_game_over()

    def draw_counters(self) -> list[str]:
        """Towers' fifteen-move count of king-topped columns' moves (Lasca has none)."""
        if shashki.game_info(self.variant).draw_rules != "towers":
            return []
        plies = self.current_board.halfmove_clock
        return [f"king-topped columns only: {plies // 2} of {TOWERS_QUIET_PLIES // 2} moves"]


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
