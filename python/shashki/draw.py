"""Draw rules as configurable objects (RULES.md §4).

A rule looks at the game's history (a snapshot of the material after every ply and what each
ply did) and says how far its count has run: a :class:`DrawCounter`. The game is drawn when a
counter reaches its limit. All counting lives here, one function a rule, each named after its
article.

Rule sets: :data:`FMJD64` (the default: FMJD-64 articles 7.2.3–7.2.8), :data:`FORTY_MOVES`
(seed 001's site rule), :data:`HISTORICAL` (seed 002's code, arts. 19–22), :data:`NO_DRAWS`,
and for the other games :data:`BRAZILIAN` and :data:`GIVEAWAY`;
:func:`default_draw_rules` gives each variant's.
Build your own with ``DrawRules([...])`` from the rule classes below or your own objects with a
``termination`` and a ``progress(history)`` method.

Interpretations where RULES.md leaves room (each rule's docstring says which it takes):

- A "move" is a move of one player; counts of both players' moves are in plies (two a move).
- "Counted from the move that established the balance": the count starts after the ply that
  made the condition true (or at the start of a game set up in it) and restarts on any capture
  or promotion, which change the balance.
- The stronger side of a "player with X against a single king" rule is the side that is not
  the lone king; with a king against a king (7.2.8), it is the side to move when the ending
  arose.
- 7.2.4 asks the stronger side to have three or more kings and no men; 7.2.7 counts only
  while the lone king stands on the main road (lidraughts' reading).
"""

from __future__ import annotations

import enum
from collections import namedtuple

from shashki._value import Value as _Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)

if TYPE_CHECKING:  # only for type checkers: typing costs import time
    from collections.abc import Sequence
    from typing import Callable, ClassVar, Optional, Protocol

MAIN_ROAD = frozenset({0, 4, 9, 13, 18, 22, 27, 31})  # a1 b2 c3 d4 e5 f6 g7 h8


class Termination(enum.Enum):
    """How a game ended."""

    NO_MOVES = "no legal moves"
    """The side to move has no pieces or cannot move: it loses."""
    RESIGNATION = "resignation"
    AGREEMENT = "draw by agreement"
    THREEFOLD_REPETITION = "7.2.3 threefold repetition"
    THREE_KINGS_VS_KING = "7.2.4 three kings against a king"
    KINGS_ONLY = "7.2.5 only kings moved"
    UNCHANGED_BALANCE = "7.2.6 balance unchanged"
    MAIN_ROAD = "7.2.7 lone king on the main road"
    SMALL_ENDING = "7.2.8 small ending"
    FORTY_MOVES = "40 moves without capture or promotion"
    BRAZILIAN_REPETITION = "threefold repetition"
    BRAZILIAN_KINGS_ONLY = "20 moves of kings only"
    BRAZILIAN_THREE_PIECES = "three pieces with a king against a king, 16 moves"
    BRAZILIAN_SMALL_ENDING = "two pieces with a king against a king, 5 moves"
    GIVEAWAY_REPETITION = "giveaway: threefold repetition"
    GIVEAWAY_KINGS_ONLY = "giveaway: 15 moves of kings only"
    HISTORICAL_THREE_KINGS = "art. 20 three kings against one"
    HISTORICAL_KING_AND_MEN = "art. 21 a king and men"
    HISTORICAL_REPETITION = "art. 19 moves repeated three times"
    RECORDED = "as recorded"
    """A result from outside the rules: a loss on time, an adjudication (PDN's Result)."""


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
    """``snapshots[i]`` is the position after ``plies[:i]``; ``snapshots[0]`` the start."""

    __slots__ = ("snapshots", "plies")

    def __init__(self, snapshots: Sequence[Snapshot], plies: Sequence[Ply]) -> None:
        self.snapshots = snapshots
        self.plies = plies


class DrawCounter(_Value):
    """How far a draw rule's count has run: ``done`` of ``limit`` (both in ``unit``)."""

    termination: Termination
    done: int
    limit: int
    unit: str  # "plies", "moves" (of the stronger side) or "occurrences"

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


def _run_start(
    history: History,
    holds: Callable[[Snapshot], bool],
    resets: Callable[[Ply], bool],
) -> Optional[int]:
    """The index of the snapshot where the current run of ``holds`` began (no resetting ply
    since), or None when it does not hold now."""
    snaps, plies = history.snapshots, history.plies
    k = len(snaps) - 1
    if not holds(snaps[k]):
        return None
    while k > 0 and holds(snaps[k - 1]) and not resets(plies[k - 1]):
        k -= 1
    return k


def _balance_changed(ply: Ply) -> bool:
    return ply.capture or ply.promotion


def _strong_side_moves(
    history: History,
    termination: Termination,
    moves: int,
    weak_ok: Callable[[Snapshot, bool], bool],
    strong_ok: Callable[[Snapshot, bool], bool],
) -> Optional[DrawCounter]:
    """Count the stronger side's moves since a "X against a single king" ending arose
    (``weak_ok`` must ask for a lone king on the weak side)."""
    now = history.snapshots[-1]
    for weak in (True, False):
        if not now.lone_king(weak):
            continue  # the quick test that keeps games with men cheap
        strong = not weak

        def holds(s: Snapshot, weak: bool = weak, strong: bool = strong) -> bool:
            return weak_ok(s, weak) and strong_ok(s, strong)

        start = _run_start(history, holds, _balance_changed)
        if start is None:
            continue
        counted = strong
        if now.lone_king(strong):  # a king against a king: the side to move when it arose
            counted = history.snapshots[start].turn
        done = sum(1 for ply in history.plies[start:] if ply.mover == counted)
        return DrawCounter(termination, done, moves, "moves")
    return None


def _material(s: Snapshot, color: bool) -> tuple[int, int]:
    return (s.kings(color), s.men(color))


class Repetition(_Value):
    """7.2.3: the same position (pieces and side to move) for the ``times``-th time."""

    times: int = 3
    needs_kings: ClassVar[bool] = True
    termination: Termination = Termination.THREEFOLD_REPETITION

    def progress(self, history: History) -> Optional[DrawCounter]:
        snaps, plies = history.snapshots, history.plies
        now = snaps[-1]
        # A position can only recur since the last capture or man move (those cannot be
        # undone), so only the snapshots since then are compared.
        seen = 1
        k = len(plies)
        while k > 0:
            ply = plies[k - 1]
            if ply.capture or not ply.king_moved:
                break
            k -= 1
            earlier = snaps[k]
            if earlier.hash == now.hash and earlier.turn == now.turn:
                seen += 1
        if seen < 2:
            return None
        return DrawCounter(self.termination, seen, self.times, "occurrences")


class ThreeKingsVsKing(_Value):
    """7.2.4: three or more kings (and no men) against a lone king, not taken by the
    stronger side's ``moves``-th move since that balance arose."""

    moves: int = 15
    needs_kings: ClassVar[bool] = True
    termination: Termination = Termination.THREE_KINGS_VS_KING
    allow_men: bool = False

    def progress(self, history: History) -> Optional[DrawCounter]:
        return _strong_side_moves(
            history,
            self.termination,
            self.moves,
            lambda s, c: s.lone_king(c),
            lambda s, c: s.kings(c) >= 3 and (self.allow_men or s.men(c) == 0),
        )


class KingsOnly(_Value):
    """7.2.5: for ``moves`` moves of each side only kings moved, without captures (resets on
    a man move or a capture)."""

    moves: int = 15
    needs_kings: ClassVar[bool] = True
    termination: Termination = Termination.KINGS_ONLY

    def progress(self, history: History) -> Optional[DrawCounter]:
        plies = history.plies
        run = 0
        for ply in reversed(plies):
            if not ply.king_moved or ply.capture:
                break
            run += 1
        if run == 0:
            return None
        return DrawCounter(self.termination, run, 2 * self.moves, "plies")


class UnchangedBalance(_Value):
    """7.2.6: both sides have kings and no capture or crowning for 30 moves (4–5 pieces on the
    board) or 60 moves (6–7 pieces); each side's moves count, so 60 or 120 plies."""

    limits: tuple[tuple[int, int, int], ...] = ((4, 5, 30), (6, 7, 60))
    needs_kings: ClassVar[bool] = True
    termination: Termination = Termination.UNCHANGED_BALANCE

    def _limit(self, s: Snapshot) -> Optional[int]:
        if s.white_kings == 0 or s.black_kings == 0:
            return None
        for low, high, moves in self.limits:
            if low <= s.pieces() <= high:
                return moves
        return None

    def progress(self, history: History) -> Optional[DrawCounter]:
        limit = self._limit(history.snapshots[-1])
        if limit is None:
            return None
        start = _run_start(history, lambda s: self._limit(s) == limit, _balance_changed)
        if start is None:
            return None
        done = len(history.snapshots) - 1 - start
        return DrawCounter(self.termination, done, 2 * limit, "plies")


class MainRoad(_Value):
    """7.2.7: three kings, two kings and a man, or a king and two men against a lone king on
    the main road (a1–h8), not won by the stronger side's 5th move; counts while the lone
    king holds the main road."""

    moves: int = 5
    needs_kings: ClassVar[bool] = True
    termination: Termination = Termination.MAIN_ROAD
    materials: frozenset[tuple[int, int]] = frozenset({(3, 0), (2, 1), (1, 2)})

    def progress(self, history: History) -> Optional[DrawCounter]:
        return _strong_side_moves(
            history,
            self.termination,
            self.moves,
            lambda s, c: s.lone_king(c) and s.on_main_road(c) == 1,
            lambda s, c: _material(s, c) in self.materials,
        )


class SmallEnding(_Value):
    """7.2.8: two kings, a king and a man, or one king against a lone king, not won by the
    stronger side's 5th move."""

    moves: int = 5
    needs_kings: ClassVar[bool] = True
    termination: Termination = Termination.SMALL_ENDING
    materials: frozenset[tuple[int, int]] = frozenset({(2, 0), (1, 1), (1, 0)})

    def progress(self, history: History) -> Optional[DrawCounter]:
        return _strong_side_moves(
            history,
            self.termination,
            self.moves,
            lambda s, c: s.lone_king(c),
            lambda s, c: _material(s, c) in self.materials,
        )


class NoCaptureOrPromotion(_Value):
    """Seed 001's site rule: ``moves`` moves of each side without a capture and without a man
    becoming a king."""

    moves: int = 40
    termination: Termination = Termination.FORTY_MOVES

    def progress(self, history: History) -> Optional[DrawCounter]:
        run = 0
        for ply in reversed(history.plies):
            if _balance_changed(ply):
                break
            run += 1
        return DrawCounter(self.termination, run, 2 * self.moves, "plies")


class KingAndMenVsKing(_Value):
    """Seed 002, art. 21: one king with one or more men against a lone king: 30 moves to win,
    counted until the balance of forces changes."""

    moves: int = 30
    needs_kings: ClassVar[bool] = True
    termination: Termination = Termination.HISTORICAL_KING_AND_MEN

    def progress(self, history: History) -> Optional[DrawCounter]:
        return _strong_side_moves(
            history,
            self.termination,
            self.moves,
            lambda s, c: s.lone_king(c),
            lambda s, c: s.kings(c) == 1 and s.men(c) >= 1,
        )


class PiecesVsKing(_Value):
    """A lone king against ``pieces`` pieces of which at least one king (any mix of kings and
    men), not won by the stronger side's ``moves``-th move since that balance arose (FMJD's
    international rules 6.3–6.4, which Brazilian draughts shares)."""

    pieces: int = 3
    moves: int = 16
    needs_kings: ClassVar[bool] = True
    termination: Termination = Termination.BRAZILIAN_THREE_PIECES

    def progress(self, history: History) -> Optional[DrawCounter]:
        return _strong_side_moves(
            history,
            self.termination,
            self.moves,
            lambda s, c: s.lone_king(c),
            lambda s, c: s.kings(c) >= 1 and s.kings(c) + s.men(c) == self.pieces,
        )


class DrawRules:
    """A set of draw rules: automatic ones end the game, claimable ones only on
    ``outcome(claim_draw=True)``."""

    def __init__(
        self,
        automatic: Sequence[DrawRule] = (),
        claimable: Sequence[DrawRule] = (),
        name: str = "custom",
    ) -> None:
        self.automatic = tuple(automatic)
        self.claimable = tuple(claimable)
        self.name = name
        # Rules that say (``needs_kings = True``) they cannot hold without a king on the
        # board are skipped while there is none: most plies of a game cost nothing.
        self._kingless = tuple(r for r in self.automatic if not getattr(r, "needs_kings", False))
        self.apply_without_kings = bool(self._kingless)
        self._kingless_claimable = tuple(
            r for r in self.claimable if not getattr(r, "needs_kings", False)
        )

    def counters(self, history: History) -> list[DrawCounter]:
        """The counters of every rule whose condition holds now."""
        out = []
        for rule in self.automatic + self.claimable:
            counter = rule.progress(history)
            if counter is not None:
                out.append(counter)
        return out

    def reached(self, history: History, claim: bool = False) -> Optional[Termination]:
        """The first rule whose count is complete, if any."""
        now = history.snapshots[-1]
        if now.white_kings or now.black_kings:
            rules = self.automatic + (self.claimable if claim else ())
        else:
            rules = self._kingless + (self._kingless_claimable if claim else ())
        for rule in rules:
            counter = rule.progress(history)
            if counter is not None and counter.reached:
                return counter.termination
        return None

    def __repr__(self) -> str:
        return f"DrawRules({self.name!r})"


FMJD64 = DrawRules(
    [Repetition(), MainRoad(), SmallEnding(), ThreeKingsVsKing(), KingsOnly(), UnchangedBalance()],
    name="FMJD-64",
)
FORTY_MOVES = DrawRules([NoCaptureOrPromotion()], name="40 moves (seed 001)")
HISTORICAL = DrawRules(
    [
        ThreeKingsVsKing(termination=Termination.HISTORICAL_THREE_KINGS, allow_men=True),
        KingAndMenVsKing(),
    ],
    claimable=[Repetition(termination=Termination.HISTORICAL_REPETITION)],
    name="historical code (seed 002)",
)
NO_DRAWS = DrawRules([], name="none")

BRAZILIAN = DrawRules(
    [
        Repetition(termination=Termination.BRAZILIAN_REPETITION),
        PiecesVsKing(pieces=3, moves=16),
        PiecesVsKing(pieces=2, moves=5, termination=Termination.BRAZILIAN_SMALL_ENDING),
        PiecesVsKing(pieces=1, moves=5, termination=Termination.BRAZILIAN_SMALL_ENDING),
        KingsOnly(moves=20, termination=Termination.BRAZILIAN_KINGS_ONLY),
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
        Repetition(termination=Termination.GIVEAWAY_REPETITION),
        KingsOnly(moves=15, termination=Termination.GIVEAWAY_KINGS_ONLY),
    ],
    name="giveaway",
)
"""Поддавки has no federation rules; ours: the same position a third time, or 15 moves of
each side with only kings moved and nothing taken (FMJD-64 7.2.3 and 7.2.5 carried over).
Any :class:`DrawRules` can replace it."""


def default_draw_rules(variant: str) -> DrawRules:
    """The draw rules a game of ``variant`` is played under unless told otherwise: FMJD-64
    for Russian draughts and the diagonal start, :data:`BRAZILIAN`, :data:`GIVEAWAY`."""
    return {"brazilian": BRAZILIAN, "giveaway": GIVEAWAY}.get(variant, FMJD64)
