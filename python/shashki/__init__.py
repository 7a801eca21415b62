"""shashki: Russian draughts (русские шашки) for Python, with a Rust core.

>>> import shashki
>>> board = shashki.Board()
>>> len(board.legal_moves)
7
>>> board.push_move("c3-d4")
Move('c3-d4')
>>> board.fen()
'B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12'
>>> shashki.perft(shashki.Board(), 5)
7482

Squares are numbered 0 (a1) to 31 (h8) from White's side, rank by rank; ``square_name``,
``square_number`` (PDN 1–32) and ``parse_square`` convert.
"""

from __future__ import annotations

from shashki import _core
from shashki._core import (
    AmbiguousMoveError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    LegalMoves,
    Move,
    Piece,
    SquareError,
    parse_square,
    perft,
    perft_divide,
    square_from_number,
    square_name,
    square_number,
)

__version__: str = _core.__version__

Color = bool
WHITE: Color = True
BLACK: Color = False
COLOR_NAMES = ["black", "white"]

SQUARES: list[int] = list(range(32))
SQUARE_NAMES: list[str] = [square_name(sq) for sq in SQUARES]

STARTING_FEN = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


class Board(_core.Board):
    """A position with its move history.

    ``Board()`` is the start position with White to move; ``Board(fen)`` or
    ``Board.from_fen(fen)`` sets up any legal position. ``push``, ``pop``, ``peek``,
    ``legal_moves``, ``parse_move``, ``push_move``, ``fen`` work as in python-chess.
    """

    __slots__ = ()

    def fen(self, notation: str = "numeric", *, lidraughts: bool = False) -> str:
        """The position as a PDN FEN, squares ``"numeric"`` (1–32) or ``"algebraic"``.

        ``lidraughts=True`` appends lidraughts' ``:H<n>:F<n>`` fields: plies since the last
        capture or man move, and the full-move number (counting from 1 at the first move of
        the board's move stack).
        """
        text = super().fen(notation)
        if not lidraughts:
            return text
        board = self.copy()
        halfmove = 0
        counting = True
        plies = len(board.move_stack)
        while board.move_stack:
            move = board.pop()
            piece = board.piece_at(move.start)
            if counting and (move.is_capture or (piece is not None and not piece.king)):
                counting = False
            if counting:
                halfmove += 1
        black_started = not board.turn
        fullmove = 1 + (plies + (1 if black_started else 0)) // 2
        return f"{text}:H{halfmove}:F{fullmove}"

    def _repr_svg_(self) -> str:
        from shashki import svg

        return svg.board(self, lastmove=self.peek() if self.move_stack else None)


_LAZY = {
    "Game": "shashki.game",
    "Outcome": "shashki.game",
    "Termination": "shashki.draw",
    "DrawRules": "shashki.draw",
}


def __getattr__(name: str) -> object:
    """Import the game layer on first use, keeping ``import shashki`` fast."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'shashki' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [
    "AmbiguousMoveError",
    "BLACK",
    "Board",
    "Color",
    "DrawRules",
    "FenError",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "LegalMoves",
    "Move",
    "Outcome",
    "Piece",
    "SQUARES",
    "SQUARE_NAMES",
    "STARTING_FEN",
    "SquareError",
    "Termination",
    "WHITE",
    "parse_square",
    "perft",
    "perft_divide",
    "square_from_number",
    "square_name",
    "square_number",
]


def _export_square_constants() -> None:
    for index, name in enumerate(SQUARE_NAMES):
        globals()[name.upper()] = index


_export_square_constants()
