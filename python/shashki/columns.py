"""The column games' board: towers (столбовые шашки, Bashni) and Lasca.

A square holds a column of pieces; the top piece owns the column and decides how it moves,
and a capture takes only the top piece of the column jumped, which goes under the column
that took it (docs/variants.md, "Towers" and "Lasca").

>>> from shashki import ColumnBoard
>>> board = ColumnBoard(variant="towers")
>>> len(board.legal_moves)
7
>>> board = ColumnBoard("W:Wc3:Bd4(ww)", variant="towers")
>>> move = board.push_move("c3:e5")
>>> board.fen()
'B:We5(b),d4(w):B'
>>> import shashki
>>> [p.symbol() for p in board.column(shashki.parse_square("e5"))]
['w', 'b']
"""

from __future__ import annotations

from shashki import _core
from shashki.draw import Outcome, Termination

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional

#: Plies of only king-topped columns moving, nothing taken, that draw towers (15 moves of
#: each side: the game's texts' "balance unchanged for 15 moves", docs/variants.md).
TOWERS_QUIET_PLIES = 30


class ColumnBoard(_core.ColumnBoard):
    """A position of a column game (``variant="towers"``, the default, or ``"lasca"``)
    with its moves: ``push``, ``pop``, ``push_move``, ``parse_move``, ``legal_moves``,
    ``fen`` (the pieces under a top in parentheses, top first: ``W:Wc3(bB):Bd6``),
    ``column(square)`` (the pieces of a square, top first), ``piece_at(square)`` (its top),
    ``outcome``, ``is_game_over``, ``result``, ``perft``, ``copy``."""

    __slots__ = ()

    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        """How the game stands: the side to move without a legal move (no column topped by
        its piece, or all blocked) has lost; the same position a third time is a draw, and
        in towers so are fifteen moves of each side in which only king-topped columns
        moved and nothing was taken. None while the game goes on."""
        if not self.legal_moves:
            return Outcome(Termination.NO_MOVES, not self.turn)
        if self.occurrences() >= 3:
            return Outcome(Termination.REPETITION, None)
        if self.variant == "towers" and self.halfmove_clock >= TOWERS_QUIET_PLIES:
            return Outcome(Termination.KINGS_ONLY, None)
        return None

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        """Whether :meth:`outcome` is not None."""
        return self.outcome(claim_draw=claim_draw) is not None

    def result(self, *, claim_draw: bool = False) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
        outcome = self.outcome(claim_draw=claim_draw)
        return "*" if outcome is None else outcome.result()

    def peek(self) -> _core.Move:
        """The last move played (IndexError without one)."""
        stack = self.move_stack
        if not stack:
            raise IndexError("peek at an empty move stack")
        return stack[-1]

    def copy(self, stack: bool = True) -> ColumnBoard:
        """A copy, with the moves played unless ``stack`` is False."""
        board = ColumnBoard(self.root_fen() if stack else self.fen(), variant=self.variant)
        if stack:
            for move in self.move_stack:
                board.push(move)
        return board

    def __copy__(self) -> ColumnBoard:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> ColumnBoard:
        return self.copy()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_rebuild, (self.root_fen(), self.variant, self.move_stack))


def _rebuild(fen: str, variant: str, moves: list[_core.Move]) -> ColumnBoard:
    board = ColumnBoard(fen, variant=variant)
    for move in moves:
        board.push(move)
    return board
