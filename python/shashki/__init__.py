"""shashki: Russian draughts (русские шашки) for Python, with a Rust core.

>>> import shashki
>>> board = shashki.Board()
>>> len(board.legal_moves)
7
>>> board.push_move("c3-d4")
<Move c3-d4>
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
    child_positions,
    parse_square,
    perft,
    perft_divide,
    perft_many,
    square_from_number,
    square_name,
    square_number,
    start_fen,
)
from shashki.cards import GameInfo, game_info, games

__version__: str = _core.__version__

Color = bool
WHITE: Color = True
BLACK: Color = False
COLOR_NAMES = ["black", "white"]

SQUARES: list[int] = list(range(32))
SQUARE_NAMES: list[str] = [square_name(sq) for sq in SQUARES]

STARTING_FEN = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

VARIANTS: tuple[str, ...] = tuple(card.name for card in games())
"""The games a :class:`Board` plays (its ``variant``; :func:`games` has each one's card,
docs/variants.md the table)."""
BOARD_SIZES: dict[str, int] = {card.name: card.board_size for card in games()}
"""Each game's board side: 8, 10 for International draughts and its family, 12 for
Canadian draughts."""
SQUARE_COUNTS: dict[str, int] = {card.name: card.square_count for card in games()}
"""Each game's playable squares: 32 on 8×8, 50 on 10×10, 72 on 12×12, 64 in Turkish
draughts (every square of its board)."""


class Board(_core.Board):
    """A position with its move history.

    ``Board()`` is the start position with White to move; ``Board(fen)`` or
    ``Board.from_fen(fen)`` sets up any legal position; ``Board.empty()`` has no pieces.
    ``variant`` chooses the game: ``"russian"`` (the default), ``"giveaway"`` (поддавки: a
    side without pieces or moves wins), ``"brazilian"`` (majority capture, no crowning
    mid-capture), ``"diagonal"`` (Russian rules from the diagonal start), or one of the
    8×8 family: ``"english"`` (also ``"american"``, ``"checkers"``), ``"italian"``,
    ``"spanish"``, ``"portuguese"``, ``"czech"``, ``"pool"``, ``"thai"`` (each reads and
    writes FEN and moves in its own numbering);
    ``captures_optional=True`` makes quiet moves legal beside captures (a house
    rule). :data:`VARIANTS` lists the names.
    ``push``, ``pop``, ``peek``, ``legal_moves``, ``parse_move``, ``push_move``, ``fen``,
    ``outcome``, ``is_game_over``, ``result``, ``ply``, ``fullmove_number``, ``mirror``,
    ``set_piece_at``, ``remove_piece_at``, ``clear``, ``copy`` work as in python-chess.

    A board is mutable, so it is not hashable (a board in a set would be lost after a
    ``push``): ``==`` compares the position and the side to move, and ``zobrist_hash()`` is
    the key for dictionaries. Boards pickle and deep-copy with their move stack.
    """

    __slots__ = ()

    @classmethod
    def empty(cls, *, variant: str = "russian", captures_optional: bool = False) -> Board:
        """A board without pieces, White to move."""
        return cls("W:W:B", variant=variant, captures_optional=captures_optional)

    # ---- counting moves -------------------------------------------------------------------

    # ``fullmove_number`` and ``halfmove_clock`` (plies since the last capture or man move,
    # lidraughts' ``H``: the FEN's count goes on while only kings move) come from the core.

    def ply(self) -> int:
        """Plies (half-moves) played before this position, counted from the first move of
        the game as the move number says: ``2 * (fullmove_number - 1)``, plus one when
        Black is to move."""
        return 2 * (self.fullmove_number - 1) + (0 if self.turn else 1)

    def fen(self, notation: Optional[str] = "numeric", *, lidraughts: bool = False) -> str:
        """The position as a PDN FEN, squares ``"numeric"`` (1–32, also for None) or
        ``"algebraic"``.

        ``lidraughts=True`` appends lidraughts' ``:H<n>:F<n>`` fields:
        :attr:`halfmove_clock` and :attr:`fullmove_number`.
        """
        text = super().fen(notation)
        if not lidraughts:
            return text
        return f"{text}:H{self.halfmove_clock}:F{self.fullmove_number}"

    # ---- how the game stands --------------------------------------------------------------

    def outcome(
        self, *, claim_draw: bool = False, draw_rules: Optional[DrawRules] = None
    ) -> Optional[Outcome]:
        """How the game stands after the move stack: an ``Outcome`` (the side to move has no
        move, or a draw rule of ``draw_rules`` — FMJD-64 by default — holds now), or None.
        ``claim_draw`` also applies the claimable rules. Boards know no resignations: a
        :class:`shashki.Game` does."""
        from shashki.draw import board_outcome

        return board_outcome(self, claim_draw=claim_draw, draw_rules=draw_rules)

    def draw_counters(self, *, draw_rules: Optional[DrawRules] = None) -> list[DrawCounter]:
        """How far each draw rule of ``draw_rules`` (the variant's by default) has run after
        the move stack, for the rules whose condition holds now: e.g. to show "draw in 3
        moves"."""
        from shashki.draw import History, default_draw_rules

        rules = default_draw_rules(self.variant) if draw_rules is None else draw_rules
        return rules.counters(History(self))

    def is_game_over(
        self, *, claim_draw: bool = False, draw_rules: Optional[DrawRules] = None
    ) -> bool:
        """Whether :meth:`outcome` is not None."""
        return self.outcome(claim_draw=claim_draw, draw_rules=draw_rules) is not None

    def result(self, *, claim_draw: bool = False, draw_rules: Optional[DrawRules] = None) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
        outcome = self.outcome(claim_draw=claim_draw, draw_rules=draw_rules)
        return "*" if outcome is None else outcome.result()

    # ---- copies and pickles ---------------------------------------------------------------

    def __copy__(self) -> Board:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self.copy()

    def _root_fen(self) -> str:
        """The FEN of the position before the stack, with the FEN's clocks."""
        halfmove, fullmove = self._start_clocks
        return f"{_core.Board.root(self).fen()}:H{halfmove}:F{fullmove}"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        rules = (self.variant, self.captures_optional)
        return (_rebuild_board, (type(self), self._root_fen(), self.move_stack, rules))

    def _repr_svg_(self) -> str:
        from shashki import svg

        return svg.board(self, lastmove=self.peek() if self.move_stack else None)


def _rebuild_board(
    cls: type[Board], fen: str, moves: list[Move], rules: tuple[str, bool] = ("russian", False)
) -> Board:
    """Unpickle a board: its first position under its rules, then its moves."""
    board = cls(fen, variant=rules[0], captures_optional=rules[1])
    for move in moves:
        board.push(move)
    return board


TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:  # the lazily loaded names, for type checkers
    from typing import Optional

    from shashki.columns import ColumnBoard, ColumnGame
    from shashki.draw import DrawCounter, DrawRules, Outcome, Termination
    from shashki.game import Game
del TYPE_CHECKING


def __getattr__(name: str) -> object:
    """Import the game layer on first use, keeping ``import shashki`` fast."""
    module = {
        "Game": "shashki.game",
        "ColumnBoard": "shashki.columns",
        "ColumnGame": "shashki.columns",
        "Outcome": "shashki.draw",
        "Termination": "shashki.draw",
        "DrawRules": "shashki.draw",
    }.get(name)
    if module is None:
        raise AttributeError(f"module 'shashki' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [
    "game_info",
    "games",
    "AmbiguousMoveError",
    "BLACK",
    "Board",
    "Color",
    "ColumnBoard",
    "ColumnGame",
    "DrawRules",
    "FenError",
    "Game",
    "GameInfo",
    "IllegalMoveError",
    "InvalidMoveError",
    "LegalMoves",
    "Move",
    "Outcome",
    "Piece",
    "SQUARES",
    "SQUARE_NAMES",
    "STARTING_FEN",
    "VARIANTS",
    "BOARD_SIZES",
    "SQUARE_COUNTS",
    "SquareError",
    "Termination",
    "WHITE",
    "child_positions",
    "parse_square",
    "perft",
    "perft_divide",
    "perft_many",
    "square_from_number",
    "square_name",
    "square_number",
    "start_fen",
]


# The squares by name: A1 = 0, C1 = 1, … H8 = 31 (written out for type checkers).
A1: int = 0
C1: int = 1
E1: int = 2
G1: int = 3
B2: int = 4
D2: int = 5
F2: int = 6
H2: int = 7
A3: int = 8
C3: int = 9
E3: int = 10
G3: int = 11
B4: int = 12
D4: int = 13
F4: int = 14
H4: int = 15
A5: int = 16
C5: int = 17
E5: int = 18
G5: int = 19
B6: int = 20
D6: int = 21
F6: int = 22
H6: int = 23
A7: int = 24
C7: int = 25
E7: int = 26
G7: int = 27
B8: int = 28
D8: int = 29
F8: int = 30
H8: int = 31

del annotations  # the __future__ import, not a name of the package
