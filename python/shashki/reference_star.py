"""The star board (Chinese checkers, Sternhalma): a pure-Python reference of its moves,
written from the rules (docs/star.md) and nothing else of the package, for differential
tests against the Rust generator (``shashki.star``).

The holes are cube coordinates ``(q, r, s)`` with ``q + r + s = 0``: the star of point size
``n`` (4: 121 holes, 10 pieces a point; 3: 73 holes, 6 a point) is the union of the two big
triangles ``min(q, r, s) >= -n`` and ``max(q, r, s) <= n``. Its six points, numbered
clockwise round the star as drawn with ``r`` growing downwards: 0 (``r > n``, the bottom), 1
(``q < -n``), 2 (``s > n``), 3 (``r < -n``, the top), 4 (``q > n``), 5 (``s < -n``); point
``k``'s opposite is ``(k + 3) % 6``. The six neighbours of a hole are
the six unit vectors away; a hop is twice one, over the piece on the hole between.

A move is one piece's: a step to an empty neighbour, or a chain of hops, each over an
adjacent piece (any piece, or another player's only: ``hop_over="others"``) into the empty
hole right behind it, stopping wherever the player chooses; a move is its start and its
end (different holes), however many chains lead there. A piece that stands in its target
point does not leave it. A player has finished when every hole of its target point holds a
piece and one at least is its own (so a piece left at home cannot block it forever);
finished players, and players who cannot move, are passed over, and the game ends when one
player is left unfinished (two players: when the first finishes), when no unfinished player
can move, or after ``max_plies``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

DIRECTIONS = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))

#: The points each number of players sits on, in turn order (clockwise round the star).
SEATS = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 6: (0, 1, 2, 3, 4, 5)}

Hole = tuple[int, int, int]


def holes(size: int) -> list[Hole]:
    """Every hole of the star of point size ``size``, in reading order: by ``r`` then
    ``q`` (the order the Rust board numbers them in)."""
    out = []
    for r in range(-2 * size, 2 * size + 1):
        for q in range(-2 * size, 2 * size + 1):
            s = -q - r
            if min(q, r, s) >= -size or max(q, r, s) <= size:
                out.append((q, r, s))
    return out


def point_of(hole: Hole, size: int) -> int | None:
    """The point a hole is in (None: the middle hexagon)."""
    q, r, s = hole
    for k, inside in enumerate((r > size, q < -size, s > size, r < -size, q > size, s < -size)):
        if inside:
            return k
    return None


@dataclass
class StarState:
    """A position: each player's holes, whose turn (a player's index), who has finished."""

    size: int
    players: int
    hop_over: str = "any"  # or "others"
    pieces: list[set[Hole]] = field(default_factory=list)
    turn: int = 0
    finished: list[int] = field(default_factory=list)
    plies: int = 0
    max_plies: int = 1000
    stalled: bool = False  # no unfinished player can move: the game has ended

    @staticmethod
    def start(size: int, players: int, hop_over: str = "any") -> StarState:
        if players not in SEATS:
            raise ValueError(f"2, 3, 4 or 6 players, not {players}")
        board = holes(size)
        pieces = [{h for h in board if point_of(h, size) == seat} for seat in SEATS[players]]
        return StarState(size, players, hop_over, pieces)

    def seat(self, player: int) -> int:
        return SEATS[self.players][player]

    def target(self, player: int) -> int:
        return (self.seat(player) + 3) % 6

    def occupied(self) -> dict[Hole, int]:
        return {h: p for p, holes_ in enumerate(self.pieces) for h in holes_}

    def copy(self) -> StarState:
        return StarState(
            self.size,
            self.players,
            self.hop_over,
            [set(p) for p in self.pieces],
            self.turn,
            list(self.finished),
            self.plies,
            self.max_plies,
            self.stalled,
        )

    def is_over(self) -> bool:
        left = self.players - len(self.finished)
        return left <= 1 or self.plies >= self.max_plies or self.stalled

    def has_finished(self, player: int) -> bool:
        target = [h for h in holes(self.size) if point_of(h, self.size) == self.target(player)]
        taken = self.occupied()
        return all(h in taken for h in target) and any(taken[h] == player for h in target)


def _add(a: Hole, b: Hole, times: int = 1) -> Hole:
    return (a[0] + times * b[0], a[1] + times * b[1], a[2] + times * b[2])


def moves(state: StarState) -> list[tuple[Hole, Hole]]:
    """The moves of the side to move, each ``(start, end)`` once, sorted."""
    if state.is_over():
        return []
    board = set(holes(state.size))
    taken = state.occupied()
    me = state.turn
    target = state.target(me)
    out: set[tuple[Hole, Hole]] = set()
    for start in state.pieces[me]:
        locked = point_of(start, state.size) == target
        for d in DIRECTIONS:
            to = _add(start, d)
            if to in board and to not in taken:
                out.add((start, to))
        seen = {start}
        todo = [start]
        while todo:
            at = todo.pop()
            for d in DIRECTIONS:
                over, to = _add(at, d), _add(at, d, 2)
                free = to in board and (to not in taken or to == start)
                if over == start or over not in taken or not free or to in seen:
                    continue
                if state.hop_over == "others" and taken[over] == me:
                    continue
                seen.add(to)
                todo.append(to)
        out.update((start, to) for to in seen if to != start)
        if locked:
            out = {(a, b) for a, b in out if a != start or point_of(b, state.size) == target}
    return sorted(out)


def play(state: StarState, move: tuple[Hole, Hole]) -> StarState:
    """The position after ``move`` (not checked)."""
    after = state.copy()
    start, end = move
    after.pieces[state.turn].remove(start)
    after.pieces[state.turn].add(end)
    after.plies += 1
    if state.turn not in after.finished and after.has_finished(state.turn):
        after.finished.append(state.turn)
    if not after.is_over():
        # The next player round the star who has not finished and can move; a player who
        # cannot move is passed over, and when nobody can, the game has stalled.
        for step in range(1, state.players + 1):
            nxt = (state.turn + step) % state.players
            if nxt in after.finished:
                continue
            after.turn = nxt
            if moves(after):
                break
        else:
            after.stalled = True
    return after


def perft(state: StarState, depth: int) -> int:
    """The move paths of ``depth`` plies (a finished game ends a path early)."""
    if depth == 0:
        return 1
    found = moves(state)
    if depth == 1:
        return len(found)
    return sum(perft(play(state, m), depth - 1) for m in found)


def walk(state: StarState, depth: int) -> Iterator[StarState]:
    """Every position ``depth`` plies on (for tests)."""
    if depth == 0:
        yield state
        return
    for m in moves(state):
        yield from walk(play(state, m), depth - 1)
