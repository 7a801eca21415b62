"""Draw rules as configurable objects.

A rule looks at the game's history and says how far its count has run: a
:class:`DrawCounter`. The game is drawn when a counter reaches its limit.

Rule sets: :data:`FMJD64` (the default: FMJD-64 articles 7.2.3–7.2.8), :data:`FORTY_MOVES`
(a common site rule: 40 moves without a capture or crowning), :data:`HISTORICAL` (the
historical code's arts. 19–22), :data:`NO_DRAWS`, and for the other games
:data:`BRAZILIAN` and :data:`GIVEAWAY`; :func:`default_draw_rules` gives each variant's.
Build your own with ``DrawRules([...])`` from the rule classes below or your own objects with
a ``termination`` and a ``progress(history)`` method.

The built-in rules are counted once, in the Rust core (``shashki._core``): a game, a board's
``outcome()`` and the engine's search all ask the same code, so they cannot disagree. A rule
set made only of the classes below, however it was built, reaches the search whole. A rule
of your own is applied by :class:`~shashki.Game` and :meth:`~shashki.Board.outcome`; the
search cannot call Python at every node, so it applies the set's built-in rules only and
says so with an :class:`UnappliedDrawRuleWarning`.

The readings where the articles leave room (the docs' rules page gives the sources):

- A "move" is a move of one player; counts of both players' moves are in plies (two a move).
- "Counted from the move that established the balance": the count starts after the ply that
  made the condition true (or at the start of a game set up in it) and restarts on any capture
  or crowning, which change the balance.
- The stronger side of a "player with X against a single king" rule is the side that is not
  the lone king; with a king against a king (7.2.8), it is the side to move when the ending
  arose.
- 7.2.4 asks the stronger side to have three or more kings and no men; 7.2.7 counts only
  while the lone king holds the main road without a break (lidraughts' reading: a king that
  leaves the road and comes back starts the count again).
- 7.2.5 counts the plies since the last capture or man move, including the FEN's halfmove
  clock (``H``) when the game was set up from one.
"""

from __future__ import annotations

import enum
from collections import namedtuple

from shashki import _core
from shashki._value import Value as _Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)

if TYPE_CHECKING:  # only for type checkers: typing costs import time
    from collections.abc import Sequence
    from typing import Any, ClassVar, Optional, Protocol

    from shashki import Board

MAIN_ROAD = frozenset(_core.MAIN_ROAD)
"""The squares of the main road a1–h8 (a1 b2 c3 d4 e5 f6 g7 h8), as the core defines it."""


class UnappliedDrawRuleWarning(UserWarning):
    """The engine's search was given draw rules it cannot apply (rules written in Python):
    it applies the set's built-in rules only."""


_DEPRECATED_TERMINATIONS = {
    "THREEFOLD_REPETITION": "REPETITION",
    "BRAZILIAN_REPETITION": "REPETITION",
    "GIVEAWAY_REPETITION": "REPETITION",
    "HISTORICAL_REPETITION": "REPETITION",
}


class _TerminationType(enum.EnumMeta):
    def __getattr__(cls, name: str) -> Any:
        new = _DEPRECATED_TERMINATIONS.get(name)
        if new is None:
            raise AttributeError(name)
        import warnings

        warnings.warn(
            f"Termination.{name} is deprecated: use Termination.{new} (the rule's article is in "
            "its DrawCounter)",
            DeprecationWarning,
            stacklevel=2,
        )
        return cls[new]


class Termination(enum.Enum, metaclass=_TerminationType):
    """How a game ended."""

    NO_MOVES = "no legal moves"
    """The side to move has no pieces or cannot move: it loses (in giveaway and antidraughts,
    it wins). In breakthrough a side whose opponent has crowned a man has no moves."""
    RESIGNATION = "resignation"
    AGREEMENT = "draw by agreement"
    REPETITION = "threefold repetition"
    """The same position for the third time (FMJD-64 7.2.3 and the other rule sets'
    repetition rules: the counter's ``article`` says which)."""
    THREE_KINGS_VS_KING = "7.2.4 three kings against a king"
    KINGS_ONLY = "7.2.5 only kings moved"
    UNCHANGED_BALANCE = "7.2.6 balance unchanged"
    MAIN_ROAD = "7.2.7 lone king on the main road"
    SMALL_ENDING = "7.2.8 small ending"
    FORTY_MOVES = "40 moves without capture or promotion"
    BRAZILIAN_KINGS_ONLY = "20 moves of kings only"
    BRAZILIAN_THREE_PIECES = "three pieces with a king against a king, 16 moves"
    BRAZILIAN_SMALL_ENDING = "two pieces with a king against a king, 5 moves"
    GIVEAWAY_KINGS_ONLY = "giveaway: 15 moves of kings only"
    INTERNATIONAL_KINGS_ONLY = "25 moves of kings only"
    FRISIAN_KINGS_VS_KING = "Frisian: two kings or one against a lone king"
    """Frisian draughts' endings: two kings against a king not won in 7 moves, a king
    against a king in 2 (the counter's ``article`` says which)."""
    NO_MAN_MOVE_OR_CAPTURE = "moves without a man moved or a piece taken"
    """The 8×8 family's progress rules (English 40 moves each, Italian 40, Pool 30: the
    counter's ``article`` says which)."""
    ONE_PIECE_EACH = "one piece against one"
    """Turkish draughts: each side has one piece left and the side to move cannot capture."""
    HISTORICAL_THREE_KINGS = "art. 20 three kings against one"
    HISTORICAL_KING_AND_MEN = "art. 21 a king and men"
    CORNER_FILLED = "filled the other's corner"
    """Уголки: a side filled the other's corner (Black, moving second, had its reply; both
    filled after the same number of moves is a draw)."""
    CORNER_NOT_LEFT = "a piece still in its own corner after the 40th move"
    """Уголки: the side that moved has a piece in its own corner after its 40th move or
    later (one left behind, or one moved back), and loses."""
    RECORDED = "as recorded"
    """A result from outside the rules: a loss on time, an adjudication (PDN's Result)."""


class Outcome(namedtuple("_OutcomeBase", "termination winner")):
    """How the game ended: a ``termination`` and the ``winner`` (``None`` for a draw)."""

    __slots__ = ()
    termination: Termination
    winner: Optional[bool]

    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"


def no_moves_outcome(board: Board) -> Optional[Outcome]:
    """The game decided on the board (the core's ``Board::decided``): a side has no pieces,
    or the side to move has no move; it loses, or in giveaway it wins. None otherwise."""
    winner = board._decided()
    return None if winner is None else Outcome(Termination.NO_MOVES, winner)


#: Уголки: the move after which a side must have left its corner (docs/variants.md).
CORNER_MOVES = 40


def corners_outcome(board: Board) -> Optional[Outcome]:
    """Уголки's own endings after ``board``'s last move: the first side to fill the other's
    corner wins, Black (moving second) having one reply, both filled a draw; the side that
    moved loses with a piece in its own corner after its 40th move. None otherwise."""
    from shashki import Board as _Board

    start = _Board(variant=board.variant)
    homes = {color: set(start.pieces(color)) for color in (True, False)}
    pieces = {color: set(board.pieces(color)) for color in (True, False)}
    filled = {color: pieces[color] == homes[not color] for color in (True, False)}
    if board.turn:  # Black has just moved: both sides have made the same number of moves
        if filled[True] and filled[False]:
            return Outcome(Termination.CORNER_FILLED, None)
        if filled[True] or filled[False]:
            return Outcome(Termination.CORNER_FILLED, filled[True])
    elif filled[False]:
        return Outcome(Termination.CORNER_FILLED, False)
    mover = not board.turn
    made = board.fullmove_number - (1 if mover is False else 0)
    if made >= CORNER_MOVES and pieces[mover] & homes[mover]:
        return Outcome(Termination.CORNER_NOT_LEFT, not mover)
    return None


def _race(variant: str) -> bool:
    """Whether the game is уголки's race (its card's move rules), with its own endings."""
    from shashki.cards import game_info

    return game_info(variant).move_rules == "ugolki"


def board_outcome(
    board: Board, *, claim_draw: bool = False, draw_rules: Optional[DrawRules] = None
) -> Optional[Outcome]:
    """How the game stands after ``board``'s move stack (:meth:`shashki.Board.outcome`)."""
    if _race(board.variant):
        # Before the no-moves test: a position after a house is filled has no moves.
        ended = corners_outcome(board)
        if ended is not None:
            return ended
    decided = no_moves_outcome(board)
    if decided is not None:
        return decided
    rules = default_draw_rules(board.variant) if draw_rules is None else draw_rules
    termination = rules.reached(History(board), claim=claim_draw)
    return None if termination is None else Outcome(termination, None)


_SnapshotBase = namedtuple(
    "_SnapshotBase",
    "hash turn white_men white_kings black_men black_kings "
    "white_kings_on_main_road black_kings_on_main_road",
)


class Snapshot(_SnapshotBase):
    """The material of one position, as draw rules need it: ``hash``, ``turn``,
    ``white_men``, ``white_kings``, ``black_men``, ``black_kings``,
    ``white_kings_on_main_road``, ``black_kings_on_main_road``."""

    __slots__ = ()
    hash: int
    turn: bool
    white_men: int
    white_kings: int
    black_men: int
    black_kings: int
    white_kings_on_main_road: int
    black_kings_on_main_road: int

    def men(self, color: bool) -> int:
        return self.white_men if color else self.black_men

    def kings(self, color: bool) -> int:
        return self.white_kings if color else self.black_kings

    def pieces(self) -> int:
        return self.white_men + self.white_kings + self.black_men + self.black_kings

    def lone_king(self, color: bool) -> bool:
        """Whether ``color`` has a single king and nothing else."""
        return self.kings(color) == 1 and self.men(color) == 0

    def on_main_road(self, color: bool) -> int:
        return self.white_kings_on_main_road if color else self.black_kings_on_main_road


class Ply(namedtuple("_PlyBase", "mover king_moved capture promotion")):
    """What one ply did: ``mover`` (the colour), ``king_moved``, ``capture``,
    ``promotion``."""

    __slots__ = ()
    mover: bool
    king_moved: bool
    capture: bool
    promotion: bool


class History:
    """A game's history as draw rules read it: the ``board`` (a :class:`~shashki.Board`
    with its move stack), and for rules written in Python ``snapshots`` (``snapshots[i]`` is
    the position after ``plies[:i]``, ``snapshots[0]`` the first) and ``plies``, made by the
    core when first asked for."""

    __slots__ = ("board", "_lists")

    def __init__(self, board: Board) -> None:
        self.board = board
        self._lists: Optional[tuple[list[Snapshot], list[Ply]]] = None

    def _load(self) -> tuple[list[Snapshot], list[Ply]]:
        if self._lists is None:
            snapshots, plies = self.board._draw_history()
            self._lists = ([Snapshot(*s) for s in snapshots], [Ply(*p) for p in plies])
        return self._lists

    @property
    def snapshots(self) -> list[Snapshot]:
        return self._load()[0]

    @property
    def plies(self) -> list[Ply]:
        return self._load()[1]


class DrawCounter(_Value):
    """How far a draw rule's count has run: ``done`` of ``limit`` (both in ``unit``), and
    the ``article`` of the rules it follows."""

    termination: Termination
    done: int
    limit: int
    unit: str  # "plies", "moves" (of the stronger side) or "occurrences"
    article: str = ""

    @property
    def remaining(self) -> int:
        return max(self.limit - self.done, 0)

    @property
    def reached(self) -> bool:
        return self.done >= self.limit

    def __str__(self) -> str:
        return f"{self.termination.value}: {self.done}/{self.limit} {self.unit}"


if TYPE_CHECKING:

    class DrawRule(Protocol):
        termination: Termination

        def progress(self, history: History) -> Optional[DrawCounter]: ...

else:

    class DrawRule:
        """What a draw rule is: a ``termination`` and ``progress(history)``, how far its
        count has run (a :class:`DrawCounter`, or None when its condition does not hold).
        A rule may set ``needs_kings = True`` when it cannot hold unless a king stands on
        the board (then it is not asked while none does). Any object with these works."""

        termination: Termination

        def progress(self, history: History) -> Optional[DrawCounter]:
            raise NotImplementedError


class _BuiltinRule(_Value):
    """A rule the core counts: ``_spec()`` gives its kind and parameters."""

    needs_kings: ClassVar[bool] = True
    if TYPE_CHECKING:  # each rule's own fields (not fields here: they would come first)
        termination: Termination
        article: str

    def _spec(self) -> tuple[str, tuple[object, ...]]:
        raise NotImplementedError

    def progress(self, history: History) -> Optional[DrawCounter]:
        """How far the count has run at the end of ``history``, or None."""
        core = _core.DrawRules([self._spec()])
        counts = history.board._draw_counts(core)
        if not counts:
            return None
        _, done, limit, unit = counts[0]
        return DrawCounter(self.termination, done, limit, unit, self.article)


class Repetition(_BuiltinRule):
    """7.2.3: the same position (pieces and side to move) for the ``times``-th time."""

    times: int = 3
    termination: Termination = Termination.REPETITION
    article: str = "FMJD-64 7.2.3"

    def _spec(self) -> tuple[str, tuple[object, ...]]:
        return ("repetition", (self.times,))


class ThreeKingsVsKing(_BuiltinRule):
    """7.2.4: three or more kings (and no men) against a lone king, not taken by the
    stronger side's ``moves``-th move since that balance arose."""

    moves: int = 15
    termination: Termination = Termination.THREE_KINGS_VS_KING
    allow_men: bool = False
    article: str = "FMJD-64 7.2.4"

    def _spec(self) -> tuple[str, tuple[object, ...]]:
        return ("three_kings_vs_king", (self.moves, self.allow_men))


class KingsOnly(_BuiltinRule):
    """7.2.5: for ``moves`` moves of each side only kings moved, without captures (resets on
    a man move or a capture)."""

    moves: int = 15
    termination: Termination = Termination.KINGS_ONLY
    article: str = "FMJD-64 7.2.5"

    def _spec(self) -> tuple[str, tuple[object, ...]]:
        return ("kings_only", (self.moves,))


class UnchangedBalance(_BuiltinRule):
    """7.2.6: both sides have kings and no capture or crowning for 30 moves (4–5 pieces on the
    board) or 60 moves (6–7 pieces); each side's moves count, so 60 or 120 plies."""

    limits: tuple[tuple[int, int, int], ...] = ((4, 5, 30), (6, 7, 60))
    termination: Termination = Termination.UNCHANGED_BALANCE
    article: str = "FMJD-64 7.2.6"

    def _spec(self) -> tuple[str, tuple[object, ...]]:
        return ("unchanged_balance", (tuple(self.limits),))


class MainRoad(_BuiltinRule):
    """7.2.7: three kings, two kings and a man, or a king and two men against a lone king on
    the main road (a1–h8), not won by the stronger side's 5th move; counts while the lone
    king holds the main road."""

    moves: int = 5
    termination: Termination = Termination.MAIN_ROAD
    materials: frozenset[tuple[int, int]] = frozenset({(3, 0), (2, 1), (1, 2)})
    article: str = "FMJD-64 7.2.7"

    def _spec(self) -> tuple[str, tuple[object, ...]]:
        return ("main_road", (self.moves, tuple(self.materials)))


class SmallEnding(_BuiltinRule):
    """7.2.8: two kings, a king and a man, or one king against a lone king, not won by the
    stronger side's 5th move."""

    moves: int = 5
    termination: Termination = Termination.SMALL_ENDING
    materials: frozenset[tuple[int, int]] = frozenset({(2, 0), (1, 1), (1, 0)})
    article: str = "FMJD-64 7.2.8"

    def _spec(self) -> tuple[str, tuple[object, ...]]:
        return ("small_ending", (self.moves, tuple(self.materials)))


class NoCaptureOrPromotion(_BuiltinRule):
    """The 40-move site rule: ``moves`` moves of each side without a capture and without a
    man becoming a king."""

    moves: int = 40
    needs_kings: ClassVar[bool] = False
    termination: Termination = Termination.FORTY_MOVES
    article: str = "40-move site rule"

    def _spec(self) -> tuple[str, tuple[object, ...]]:
        return ("no_capture_or_promotion", (self.moves,))


class KingAndMenVsKing(_BuiltinRule):
    """The historical code's art. 21: one king with one or more men against a lone king: 30
    moves to win, counted until the balance of forces changes."""

    moves: int = 30
    termination: Termination = Termination.HISTORICAL_KING_AND_MEN
    article: str = "historical code, art. 21"

    def _spec(self) -> tuple[str, tuple[object, ...]]:
        return ("king_and_men_vs_king", (self.moves,))


class PiecesVsKing(_BuiltinRule):
    """A lone king against ``pieces`` pieces of which at least one king (any mix of kings and
    men), not won by the stronger side's ``moves``-th move since that balance arose (FMJD's
    international rules 6.3–6.4, which Brazilian draughts shares)."""

    pieces: int = 3
    moves: int = 16
    termination: Termination = Termination.BRAZILIAN_THREE_PIECES
    article: str = "FMJD international rules 6.3"

    def _spec(self) -> tuple[str, tuple[object, ...]]:
        return ("pieces_vs_king", (self.pieces, self.moves))


class OnePieceEach(_BuiltinRule):
    """Each side has one piece left (a king or a man) and the side to move cannot capture:
    a draw at once (Turkish draughts; docs/variants.md cites the rule)."""

    needs_kings: ClassVar[bool] = False
    termination: Termination = Termination.ONE_PIECE_EACH
    article: str = "Turkish draughts: one piece against one"

    def _spec(self) -> tuple[str, tuple[object, ...]]:
        return ("one_piece_each", ())


_BUILTIN = frozenset(
    {
        OnePieceEach,
        Repetition,
        ThreeKingsVsKing,
        KingsOnly,
        UnchangedBalance,
        MainRoad,
        SmallEnding,
        NoCaptureOrPromotion,
        KingAndMenVsKing,
        PiecesVsKing,
    }
)


def _is_builtin(rule: object) -> bool:
    return type(rule) in _BUILTIN


class DrawRules:
    """A set of draw rules: automatic ones end the game, claimable ones only on
    ``outcome(claim_draw=True)``. The built-in rules among them are counted by the core
    (``_core``, a ``shashki._core.DrawRules``); rules of your own by their ``progress``."""

    def __init__(
        self,
        automatic: Sequence[DrawRule] = (),
        claimable: Sequence[DrawRule] = (),
        name: str = "custom",
    ) -> None:
        self.automatic = tuple(automatic)
        self.claimable = tuple(claimable)
        self.name = name
        rules = self.automatic + self.claimable
        self.custom = tuple(rule for rule in rules if not _is_builtin(rule))
        """The rules written in Python: the game applies them, the search cannot."""
        # The core's rules: the built-in ones, in order; ``_index[i]`` is the position in
        # ``automatic + claimable`` of the core's rule i.
        self._index = [i for i, rule in enumerate(rules) if _is_builtin(rule)]
        self._core = _core.DrawRules(
            [r._spec() for r in self.automatic if _is_builtin(r)],  # type: ignore[attr-defined]
            [r._spec() for r in self.claimable if _is_builtin(r)],  # type: ignore[attr-defined]
        )
        # Rules that say (``needs_kings = True``) they cannot hold without a king on the
        # board are skipped while there is none: most plies of a game cost nothing.
        self.apply_without_kings = any(not getattr(r, "needs_kings", False) for r in self.automatic)
        self._warned = False

    def _rules(self) -> tuple[DrawRule, ...]:
        return self.automatic + self.claimable

    def _counter(self, core_index: int, done: int, limit: int, unit: str) -> DrawCounter:
        rule = self._rules()[self._index[core_index]]
        return DrawCounter(rule.termination, done, limit, unit, getattr(rule, "article", ""))

    def counters(self, history: History) -> list[DrawCounter]:
        """The counters of every rule whose condition holds now, in the set's order."""
        found: dict[int, DrawCounter] = {
            self._index[i]: self._counter(i, done, limit, unit)
            for i, done, limit, unit in history.board._draw_counts(self._core)
        }
        rules = self._rules()
        for i, rule in enumerate(rules):
            if not _is_builtin(rule):
                counter = rule.progress(history)
                if counter is not None:
                    found[i] = counter
        return [found[i] for i in sorted(found)]

    def reached(self, history: History, claim: bool = False) -> Optional[Termination]:
        """The first rule whose count is complete, if any."""
        rules = self._rules()
        if not self.custom:
            index = history.board._draw_reached(self._core, claim)
            return None if index is None else rules[self._index[index]].termination
        count = len(self.automatic) + (len(self.claimable) if claim else 0)
        for counter_rule in rules[:count]:
            counter = counter_rule.progress(history)
            if counter is not None and counter.reached:
                return counter.termination
        return None

    def _first_draw(self, board: Board, start: int) -> Optional[tuple[int, Termination]]:
        """The first position, from the one after ``start`` moves of ``board``'s stack on,
        that an automatic rule drew: ``(ply, termination)``."""
        if not self.custom:
            found = board._first_draw(self._core, start)
            if found is None:
                return None
            ply, index = found
            return ply, self._rules()[self._index[index]].termination
        # Rules of your own read a history: replay the stack position by position.
        moves = board.move_stack
        replay = board.copy()
        for _ in range(len(moves) - start):
            replay.pop()
        for ply in range(start, len(moves) + 1):
            if ply > start:
                replay.push(moves[ply - 1])
            termination = self.reached(History(replay))
            if termination is not None:
                return ply, termination
        return None

    def _for_search(self) -> _core.DrawRules:
        """The core's rules for the engine's search, with a warning when rules of your own
        cannot be applied there (once a rule set)."""
        if self.custom and not self._warned:
            self._warned = True
            import warnings

            names = ", ".join(type(rule).__name__ for rule in self.custom)
            warnings.warn(
                f"the search applies only the built-in draw rules of {self!r}; it cannot "
                f"apply {names} (the game still does)",
                UnappliedDrawRuleWarning,
                stacklevel=4,
            )
        return self._core

    def __repr__(self) -> str:
        return f"DrawRules({self.name!r})"


FMJD64 = DrawRules(
    [Repetition(), MainRoad(), SmallEnding(), ThreeKingsVsKing(), KingsOnly(), UnchangedBalance()],
    name="FMJD-64",
)
FORTY_MOVES = DrawRules([NoCaptureOrPromotion()], name="40 moves")
HISTORICAL = DrawRules(
    [
        ThreeKingsVsKing(
            termination=Termination.HISTORICAL_THREE_KINGS,
            allow_men=True,
            article="historical code, art. 20",
        ),
        KingAndMenVsKing(),
    ],
    claimable=[Repetition(article="historical code, art. 19")],
    name="historical code",
)
NO_DRAWS = DrawRules([], name="none")

_FMJD_ENDINGS = (
    PiecesVsKing(pieces=3, moves=16),
    PiecesVsKing(
        pieces=2,
        moves=5,
        termination=Termination.BRAZILIAN_SMALL_ENDING,
        article="FMJD international rules 6.4",
    ),
    PiecesVsKing(
        pieces=1,
        moves=5,
        termination=Termination.BRAZILIAN_SMALL_ENDING,
        article="FMJD international rules 6.4",
    ),
)
"""The FMJD's endings with a lone king (international rules 6.3–6.4), shared by International
and Brazilian draughts."""

BRAZILIAN = DrawRules(
    [
        Repetition(article="FMJD international rules 6.2"),
        *_FMJD_ENDINGS,
        KingsOnly(
            moves=20, termination=Termination.BRAZILIAN_KINGS_ONLY, article="CBD rules, art. 16"
        ),
    ],
    name="Brazilian (CBD art. 16, FMJD 6.2-6.4)",
)
"""Brazilian draughts: the same position a third time (FMJD international rules 6.2); 20
successive moves of kings only without a capture (the Brazilian confederation's official
rules, art. 16: "após 20 lances sucessivos de damas, sem captura ou deslocamento de pedra");
three pieces including a king against a lone king: 16 moves; two pieces or one king
against a lone king: 5 moves (FMJD 6.3-6.4)."""

GIVEAWAY = DrawRules(
    [
        Repetition(article="giveaway (FMJD-64 7.2.3 carried over)"),
        KingsOnly(
            moves=15,
            termination=Termination.GIVEAWAY_KINGS_ONLY,
            article="giveaway (FMJD-64 7.2.5 carried over)",
        ),
    ],
    name="giveaway",
)
"""Поддавки has no federation rules; ours: the same position a third time, or 15 moves of
each side with only kings moved and nothing taken (FMJD-64 7.2.3 and 7.2.5 carried over).
Any :class:`DrawRules` can replace it."""


ENGLISH = DrawRules(
    [
        Repetition(article="English draughts: the same position a third time"),
        KingsOnly(
            moves=40,
            termination=Termination.NO_MAN_MOVE_OR_CAPTURE,
            article="English draughts: 40 moves each without a man moved or a piece taken",
        ),
    ],
    name="English",
)
"""English draughts (checkers): the same position a third time with the same side to move;
40 moves of each side in which no man moved and nothing was taken (docs/variants.md cites
the rules)."""

ITALIAN = DrawRules(
    [
        Repetition(times=4, article="Italian draughts (FID): the same position a fourth time"),
        KingsOnly(
            moves=40,
            termination=Termination.NO_MAN_MOVE_OR_CAPTURE,
            article="Italian draughts (FID): 40 moves each without a man moved or a piece taken",
        ),
    ],
    name="Italian",
)
"""Italian draughts: the same position a fourth time; 40 moves of each side without a man
moved or a piece taken (docs/variants.md gives the other reading, threefold, and why)."""

POOL = DrawRules(
    [
        Repetition(article="Pool checkers: the same position a third time"),
        KingsOnly(
            moves=30,
            termination=Termination.NO_MAN_MOVE_OR_CAPTURE,
            article="Pool checkers: 30 moves each without a man moved or a piece taken",
        ),
    ],
    name="Pool",
)
"""Pool checkers: the same position a third time; 30 moves of each side without a man moved
or a piece taken."""

INTERNATIONAL = DrawRules(
    [
        Repetition(article="FMJD international rules 6.1"),
        *_FMJD_ENDINGS,
        KingsOnly(
            moves=25,
            termination=Termination.INTERNATIONAL_KINGS_ONLY,
            article="FMJD international rules 6.2",
        ),
    ],
    name="International (FMJD 6.1-6.4)",
)
"""International draughts (10×10): the same position a third time; 25 moves of each side
with only kings moved and nothing taken; three pieces with a king against a king, 16 moves;
two pieces or one against a king, 5 moves (FMJD international rules 6.1–6.4)."""

ANTIDRAUGHTS = DrawRules(
    [
        Repetition(article="lidraughts' antidraughts: International draughts' repetition"),
        KingsOnly(
            moves=25,
            termination=Termination.INTERNATIONAL_KINGS_ONLY,
            article="lidraughts' antidraughts: International draughts' 25 moves",
        ),
    ],
    name="antidraughts",
)
"""Antidraughts (lidraughts' rules): International draughts' draws without the endings with
few pieces: the same position a third time; 25 moves of each side with only kings moved."""

KILLER = DrawRules(
    [
        Repetition(article="Killer draughts: International draughts' repetition"),
        KingsOnly(
            moves=25,
            termination=Termination.INTERNATIONAL_KINGS_ONLY,
            article="Killer draughts: International draughts' 25 moves",
        ),
    ],
    name="killer",
)
"""Killer draughts: the same position a third time; 25 moves of each side with only kings
moved. Not FMJD's endings with few pieces: the killer rule exists so that such endings can
be won (docs/variants.md)."""

FRISIAN = DrawRules(
    [
        Repetition(article="Frisian draughts (lidraughts): the same position a third time"),
        SmallEnding(
            moves=7,
            materials=frozenset({(2, 0)}),
            termination=Termination.FRISIAN_KINGS_VS_KING,
            article="Frisian rules, art. 15: two kings against one, 7 moves",
        ),
        SmallEnding(
            moves=2,
            materials=frozenset({(1, 0)}),
            termination=Termination.FRISIAN_KINGS_VS_KING,
            article="Frisian rules, art. 16: a king against a king (lidraughts: 2 moves)",
        ),
    ],
    name="Frisian",
)
"""Frisian draughts and frysk: the same position a third time; two kings against a lone king
not won by the stronger side's 7th move (the Frisian federation's rule 15); a king against
a king, drawn after 2 moves (rule 16: "neither can win any more", counted as lidraughts
counts it, so that a capture on the first move still wins; docs/variants.md)."""

THREEFOLD = DrawRules([Repetition(article="the same position a third time")], name="threefold")
"""Spanish, Portuguese, Czech and Thai draughts: the same position a third time (the
federations' further rules are not yet applied; docs/variants.md); breakthrough (men only:
the first king ends the game)."""

TURKISH = DrawRules(
    [
        Repetition(article="Turkish draughts: the same position a third time"),
        OnePieceEach(),
    ],
    name="Turkish",
)
"""Turkish draughts: the same position a third time; one piece against one, the side to move
unable to capture, is a draw (docs/variants.md gives the sources)."""

_SETS = {
    "fmjd64": FMJD64,
    "turkish": TURKISH,
    "brazilian": BRAZILIAN,
    "giveaway": GIVEAWAY,
    "english": ENGLISH,
    "italian": ITALIAN,
    "pool": POOL,
    "international": INTERNATIONAL,
    "antidraughts": ANTIDRAUGHTS,
    "killer": KILLER,
    "frisian": FRISIAN,
    "threefold": THREEFOLD,
}
"""The built-in sets by the names the games' cards give them (``GameInfo.draw_rules``, the
core's ``DrawSet``): every card's name is here (a test walks them)."""


def default_draw_rules(variant: str) -> DrawRules:
    """The draw rules a game of ``variant`` is played under unless told otherwise: FMJD-64
    for Russian draughts and the diagonal start, :data:`BRAZILIAN`, :data:`GIVEAWAY`,
    :data:`ENGLISH`, :data:`ITALIAN`, :data:`POOL`, :data:`INTERNATIONAL`,
    :data:`ANTIDRAUGHTS`, :data:`KILLER`, :data:`FRISIAN` (also frysk), :data:`TURKISH`, and
    :data:`THREEFOLD` for Spanish, Portuguese, Czech and Thai draughts and breakthrough, as
    each game's card names them (``shashki.game_info(variant).draw_rules``, the set the Rust
    board applies too): Canadian draughts plays :data:`INTERNATIONAL`'s. An unknown name is a
    ValueError."""
    from shashki.cards import game_info

    return _SETS[game_info(variant).draw_rules]
