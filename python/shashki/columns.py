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
from shashki.cards import game_info
from shashki.draw import Outcome, Termination

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Optional, TextIO

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
        if (
            game_info(self.variant).draw_rules == "towers"  # the card's draw set
            and self.halfmove_clock >= TOWERS_QUIET_PLIES
        ):
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

    def root(self) -> ColumnBoard:
        """The position before the first move of the stack, as a board of its own."""
        return ColumnBoard(self.root_fen(), variant=self.variant)

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


class ColumnGame:
    """A column game as :class:`shashki.Game` holds a game of the other games, without
    variations: its PDN ``headers``, the board (``current_board``, a
    :class:`ColumnBoard` from ``fen`` or the start) and its moves (``push``,
    ``push_move``, ``pop``, ``mainline_moves``), the start (``start_fen``, ``board()``), the
    outcome (``outcome``, ``result``, ``is_game_over``) and the draw counts
    (``draw_counters``: text, towers' fifteen moves of king-topped columns).
    :func:`write_pdn` writes it (``write_pdn(game.current_board, game.headers)``)."""

    captures_optional = False

    def __init__(self, fen: Optional[str] = None, variant: str = "towers") -> None:
        self.current_board = ColumnBoard(fen, variant=variant)
        self.variant: str = self.current_board.variant
        self.start_fen: str = self.current_board.fen()
        self.headers: dict[str, str] = {}

    @classmethod
    def from_board(cls, board: ColumnBoard, headers: Optional[dict[str, str]] = None) -> ColumnGame:
        """The game of ``board``'s moves from its root (as :meth:`shashki.Game.from_board`),
        with ``headers``."""
        game = cls(board.root_fen(), variant=board.variant)
        for move in board.move_stack:
            game.push(move)
        game.headers.update(headers or {})
        return game

    def push_move(self, text: str) -> _core.Move:
        """Play a move given as text (the game's notation or squares); ValueError if it is
        not legal, the game unchanged."""
        return self.current_board.push_move(text)

    def push(self, move: _core.Move) -> None:
        self.current_board.push(move)

    def pop(self) -> _core.Move:
        return self.current_board.pop()

    def ply(self) -> int:
        return len(self.current_board.move_stack)

    def mainline_moves(self) -> list[_core.Move]:
        return self.current_board.move_stack

    def board(self) -> ColumnBoard:
        """The board at the start, without the moves."""
        return self.current_board.root()

    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        return self.current_board.outcome(claim_draw=claim_draw)

    def result(self) -> str:
        return self.current_board.result()

    def is_game_over(self) -> bool:
        return self.current_board.is_game_over()

    def draw_counters(self) -> list[str]:
        """Towers' count of moves of king-topped columns only, nothing taken (fifteen of
        each side draw), as text; none in Lasca."""
        if game_info(self.variant).draw_rules != "towers":
            return []
        plies = self.current_board.halfmove_clock
        return [f"king-topped columns only: {plies // 2} of {TOWERS_QUIET_PLIES // 2} moves"]

    def pdn(self) -> str:
        """The game as PDN text (:func:`write_pdn`)."""
        return write_pdn(self.current_board, self.headers)


def _rebuild(fen: str, variant: str, moves: list[_core.Move]) -> ColumnBoard:
    board = ColumnBoard(fen, variant=variant)
    for move in moves:
        board.push(move)
    return board


#: The tags written first, in this order (PDN's seven-tag roster, then ours).
_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


def write_pdn(
    board: ColumnBoard,
    headers: Optional[dict[str, str]] = None,
    *,
    comments: Optional[Sequence[str]] = None,
    nags: Optional[Sequence[Sequence[int]]] = None,
) -> str:
    """The game of ``board`` (from its root position) as PDN text. No PDN GameType names the
    column games, so none is written: a ``Variant`` tag (``towers``, ``lasca``) says which
    game it is, a ``FEN`` tag with the columns in parentheses gives a root position other
    than the start, and the moves are in the game's notation (towers ``c3:e5``, Lasca
    ``13x21``). The result is the board's when the rules ended the game, else a result the
    headers record (a game adjudicated, resigned or lost on time), else ``*``.
    ``comments[i]`` (text, ``{}`` left out) and ``nags[i]`` (``$4`` …) follow the ``i``-th
    move (a review's annotations). :func:`read_pdn` reads it back."""
    tags = {name: "?" for name in _ROSTER}
    tags["Date"] = "????.??.??"
    tags.update(headers or {})
    # The board's result when the rules ended the game; else a result the headers record
    # (a game adjudicated or ended on time), else "*".
    result = board.result()
    if result == "*" and tags["Result"] in ("1-0", "0-1", "1/2-1/2"):
        result = tags["Result"]
    tags["Result"] = result
    tags["Variant"] = board.variant
    root = board.root_fen()
    if root != ColumnBoard(variant=board.variant).fen():
        tags["FEN"] = root
    tags.pop("GameType", None)
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
    replay = ColumnBoard(root, variant=board.variant)
    words: list[str] = []
    numbered = False  # a Black move is numbered first, and again after a comment
    for i, move in enumerate(board.move_stack):
        text = replay.move_text(move)
        if replay.turn or not numbered:
            number = replay.fullmove_number
            text = f"{number}. {text}" if replay.turn else f"{number}... {text}"
        words.append(text)  # a move number stays on its move's line
        numbered = True
        replay.push(move)
        if nags is not None and i < len(nags):
            words.extend(f"${nag}" for nag in nags[i])
        if comments is not None and i < len(comments) and comments[i]:
            words.append("{" + comments[i].replace("}", ")") + "}")
            numbered = False
    words.append(tags["Result"])
    body, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > 79:
            body.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    body.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(body) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def read_pdn(
    handle: TextIO, *, variant: Optional[str] = None
) -> Optional[tuple[dict[str, str], ColumnBoard]]:
    """The next game of a column game from a PDN text handle: its tags and the board after
    its moves (its ``move_stack`` holds them); None at the end of the file. The game is the
    ``Variant`` tag's (``towers``, ``bashni``, ``lasca``, … any name of their cards), else
    ``variant``; a ``FEN`` tag gives the root. Comments and variations are skipped. A tag or
    move that cannot be read raises :class:`shashki.pdn.PdnError` with its line."""
    from shashki import game_info, pdn

    pdn._check_handle(handle, "read_pdn")
    tag_lines, move_lines = pdn._read_lines(handle)
    if not tag_lines and not move_lines:
        return None
    headers, problems = pdn._tags(tag_lines)
    if problems:
        raise problems[0]
    first = tag_lines[0][0] if tag_lines else (move_lines[0][0] if move_lines else 1)
    name = headers.get("Variant", variant)
    try:
        card = game_info(name) if name else None
    except ValueError:
        card = None
    if card is None or not card.stacks:
        raise pdn.PdnError(
            f"not a column game: Variant {name!r} (towers or lasca; or give variant=)", first, 1
        )
    try:
        board = ColumnBoard(headers.get("FEN"), variant=card.name)
    except ValueError as error:
        raise pdn.PdnError(str(error), first, 1) from None
    depth, in_comment = 0, False  # a comment or a variation may run over lines
    for number, line in move_lines:
        text = ""
        for char in line:
            if in_comment:
                in_comment = char != "}"
            elif char == "{":
                in_comment = True
            elif char == "(":
                depth += 1
            elif char == ")":
                depth = max(0, depth - 1)
            elif depth == 0:
                text += char
        moves, _result = pdn._plain_moves(text)
        for word in moves:
            word = word.rstrip("!?")
            if not word or word.startswith("$"):
                continue
            try:
                board.push_move(word)
            except ValueError as error:
                raise pdn.PdnError(f"move {word!r}: {error}", number, 1) from None
    return headers, board
