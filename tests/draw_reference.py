"""An independent reading of the draw rules, for the agreement tests only.

The library counts its built-in draw rules once, in the Rust core, from clocks kept move by
move. This module counts them the slow, literal way: it walks the whole history, position by
position, as the rules' text reads (a condition must hold at every position of the run, and a
capture or crowning ends the run). It builds its view of each position from the Python API
(``piece_at`` and the move stack), not from the core's draw code, so the two can disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import shashki
from shashki import draw

MAIN_ROAD = {0, 4, 9, 13, 18, 22, 27, 31}  # a1 b2 c3 d4 e5 f6 g7 h8


@dataclass(frozen=True)
class Material:
    turn: bool
    key: tuple[object, ...]  # pieces and side to move: equal keys are the same position
    men: dict[bool, int]
    kings: dict[bool, int]
    on_road: dict[bool, int]

    def lone_king(self, color: bool) -> bool:
        return self.kings[color] == 1 and self.men[color] == 0

    def pieces(self) -> int:
        return sum(self.men.values()) + sum(self.kings.values())


@dataclass(frozen=True)
class Step:
    mover: bool
    king_moved: bool
    capture: bool
    promotion: bool


def _material(board: shashki.Board) -> Material:
    men = {True: 0, False: 0}
    kings = {True: 0, False: 0}
    road = {True: 0, False: 0}
    cells = []
    for square in range(32):
        piece = board.piece_at(square)
        cells.append(None if piece is None else (piece.color, piece.king))
        if piece is None:
            continue
        if piece.king:
            kings[piece.color] += 1
            road[piece.color] += square in MAIN_ROAD
        else:
            men[piece.color] += 1
    return Material(board.turn, (board.turn, tuple(cells)), men, kings, road)


def history(board: shashki.Board) -> tuple[list[Material], list[Step], int]:
    """Every position of the board's history, what every ply did, and the FEN's halfmove
    clock of the first position."""
    replay = board.root()
    positions = [_material(replay)]
    steps = []
    for move in board.move_stack:
        piece = replay.piece_at(move.start)
        assert piece is not None
        steps.append(Step(replay.turn, piece.king, move.is_capture, move.promotes))
        replay.push(move)
        positions.append(_material(replay))
    return positions, steps, board._start_clocks[0]


def _run_start(
    positions: list[Material], steps: list[Step], holds: Callable[[Material], bool]
) -> Optional[int]:
    """Where the run of ``holds`` that reaches the last position began (no capture or
    crowning inside it), or None when it does not hold now."""
    k = len(positions) - 1
    if not holds(positions[k]):
        return None
    while (
        k > 0 and holds(positions[k - 1]) and not (steps[k - 1].capture or steps[k - 1].promotion)
    ):
        k -= 1
    return k


def _against_lone_king(
    positions: list[Material],
    steps: list[Step],
    weak_ok: Callable[[Material, bool], bool],
    strong_ok: Callable[[Material, bool], bool],
) -> Optional[int]:
    now = positions[-1]
    for weak in (True, False):
        if not now.lone_king(weak):
            continue
        strong = not weak

        def holds(s: Material, weak: bool = weak, strong: bool = strong) -> bool:
            return s.lone_king(weak) and weak_ok(s, weak) and strong_ok(s, strong)

        start = _run_start(positions, steps, holds)
        if start is None:
            continue
        counted = positions[start].turn if now.lone_king(strong) else strong
        return sum(1 for step in steps[start:] if step.mover == counted)
    return None


def progress(
    rule: object, positions: list[Material], steps: list[Step], halfmove: int
) -> Optional[tuple[int, int, str]]:
    """``(done, limit, unit)`` of one built-in rule at the last position, or None."""
    now = positions[-1]
    if isinstance(rule, draw.Repetition):
        seen, k = 1, len(steps)
        while k > 0 and steps[k - 1].king_moved and not steps[k - 1].capture:
            k -= 1
            seen += positions[k].key == now.key
        return (seen, rule.times, "occurrences") if seen >= 2 else None
    if isinstance(rule, draw.KingsOnly):
        run = 0
        for step in reversed(steps):
            if not step.king_moved or step.capture:
                break
            run += 1
        else:
            run += halfmove  # the FEN's count goes on
        return (run, 2 * rule.moves, "plies") if run else None
    if isinstance(rule, (draw.NoCaptureOrPromotion, draw.UnchangedBalance)):
        limit = 2 * rule.moves if isinstance(rule, draw.NoCaptureOrPromotion) else None
        if isinstance(rule, draw.UnchangedBalance):
            if not (now.kings[True] and now.kings[False]):
                return None
            found = [m for low, high, m in rule.limits if low <= now.pieces() <= high]
            if not found:
                return None
            limit = 2 * found[0]
        run = 0
        for step in reversed(steps):
            if step.capture or step.promotion:
                break
            run += 1
        assert limit is not None
        return (run, limit, "plies")

    def material(s: Material, c: bool) -> tuple[int, int]:
        return (s.kings[c], s.men[c])

    def anywhere(s: Material, c: bool) -> bool:
        return True

    if isinstance(rule, draw.ThreeKingsVsKing):
        allow = rule.allow_men
        done = _against_lone_king(
            positions, steps, anywhere, lambda s, c: s.kings[c] >= 3 and (allow or not s.men[c])
        )
    elif isinstance(rule, draw.MainRoad):
        mats = rule.materials
        done = _against_lone_king(
            positions,
            steps,
            lambda s, c: s.on_road[c] == 1,
            lambda s, c: material(s, c) in mats,
        )
    elif isinstance(rule, draw.SmallEnding):
        mats = rule.materials
        done = _against_lone_king(positions, steps, anywhere, lambda s, c: material(s, c) in mats)
    elif isinstance(rule, draw.KingAndMenVsKing):
        done = _against_lone_king(
            positions, steps, anywhere, lambda s, c: s.kings[c] == 1 and s.men[c] >= 1
        )
    elif isinstance(rule, draw.PiecesVsKing):
        n = rule.pieces
        done = _against_lone_king(
            positions, steps, anywhere, lambda s, c: s.kings[c] >= 1 and s.kings[c] + s.men[c] == n
        )
    else:
        raise TypeError(f"not a built-in rule: {rule!r}")
    return None if done is None else (done, rule.moves, "moves")


def counters(rules: draw.DrawRules, board: shashki.Board) -> list[tuple[object, int, int, str]]:
    """``(termination, done, limit, unit)`` of every rule whose condition holds."""
    positions, steps, halfmove = history(board)
    out = []
    for rule in rules.automatic + rules.claimable:
        found = progress(rule, positions, steps, halfmove)
        if found is not None:
            out.append((rule.termination, *found))
    return out


def drawn(rules: draw.DrawRules, board: shashki.Board, claim: bool = False) -> Optional[object]:
    """The termination of the first complete count, if any."""
    positions, steps, halfmove = history(board)
    chosen = rules.automatic + (rules.claimable if claim else ())
    for rule in chosen:
        found = progress(rule, positions, steps, halfmove)
        if found is not None and found[0] >= found[1]:
            return rule.termination
    return None


def search_verdict(rules: draw.DrawRules, board: shashki.Board) -> bool:
    """What the search must conclude at a node: a repetition (the position met before with
    the same side to move) or a complete count of an automatic rule other than repetition."""
    positions, steps, halfmove = history(board)
    now = positions[-1]
    if any(p.key == now.key for p in positions[:-1]):
        return True
    for rule in rules.automatic:
        if isinstance(rule, draw.Repetition):
            continue
        found = progress(rule, positions, steps, halfmove)
        if found is not None and found[0] >= found[1]:
            return True
    return False
