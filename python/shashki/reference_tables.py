"""Endgame tables checked against the pure-Python reference (:mod:`shashki.reference`).

A position's value must follow from the reference's own legal moves and the tables' values
of the positions they lead to: a position without a move is the game's end (lost, or won
where a side without a move wins), else the quickest win through a child lost for the other
side, else a draw through a drawn child, else the slowest loss — one ply more than the
child's. :meth:`shashki.egtb.EndgameTables.verify` checks the same thing with the core's
moves; this check takes the moves from the reference, written from the rules on its own,
so a fault shared by the core's generator and the tables' builder shows here. It checks
every position of a balance, or a random sample of them::

    python -m shashki.reference_tables DIR --variant english --every 3 --sample 2000

(every position of up to 3 pieces, 2,000 random positions of each larger balance held).
Frisian draughts' positions carry each side's run of quiet king moves; the positions
checked here are set up without runs, and their children take the runs the core's board
gives them after the move (the tests check the runs themselves against the rule's text).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Callable, Optional

import shashki
from shashki import _core, egtb
from shashki import reference as ref

#: Games where a side without a move wins.
NO_MOVES_WINS = frozenset({"giveaway", "antidraughts"})

Value = tuple[int, int]
"""(wdl, plies) for the side to move, as :func:`probed` gives it."""


class ReferenceGame:
    """The reference's moves of one game, and its positions as the core's boards read
    them."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.turkish = variant == "turkish"
        self.frisian = variant in ("frisian", "frysk")
        self.rules = ref.rules_for("russian" if self.turkish else variant)
        self.size = 8 if self.turkish else self.rules.size

    def moves(self, state: ref.State) -> list[ref.RefMove]:
        if self.turkish:
            return ref.turkish_moves(state)
        return ref.distinct_moves(state, rules=self.rules)

    def apply(self, state: ref.State, move: ref.RefMove) -> ref.State:
        return ref.turkish_apply(state, move) if self.turkish else ref.apply(state, move)

    def squares(self) -> list[tuple[int, int]]:
        """The squares pieces stand on, as (file, rank)."""
        n = self.size
        return [(f, r) for r in range(n) for f in range(n) if self.turkish or ref.is_dark(f, r)]

    def board(self, state: ref.State) -> shashki.Board:
        if self.turkish:
            fen = ref.turkish_write_fen(state)
        else:
            fen = ref.write_fen(state)
            if self.size == 8:
                fen = ref.game_fen(fen, self.variant)
        return shashki.Board(fen, variant=self.variant)

    def end(self) -> Value:
        """A position without a move: lost now, or won where that is the goal."""
        return (1, 0) if self.variant in NO_MOVES_WINS else (-1, 0)


def key(state: ref.State) -> tuple[object, ...]:
    """A state as a dictionary key."""
    return (tuple(tuple(row) for row in state.grid), state.turn)


def empty_grid(n: int) -> list[list[Optional[str]]]:
    return [[None] * n for _ in range(n)]


def placements(game: ReferenceGame, pieces: str) -> Iterator[ref.State]:
    """Every placement of ``pieces`` (letters ``w`` ``W`` ``b`` ``B``: men and kings of
    each colour), each once, a man never on its crowning rank, both sides to move."""
    n = game.size
    squares = game.squares()
    kinds = sorted({p: pieces.count(p) for p in pieces}.items())

    def place(
        i: int, used: frozenset[tuple[int, int]], grid: list[list[Optional[str]]]
    ) -> Iterator[list[list[Optional[str]]]]:
        if i == len(kinds):
            yield grid
            return
        piece, count = kinds[i]
        allowed = [
            s
            for s in squares
            if s not in used and not (piece == "w" and s[1] == n - 1 or piece == "b" and s[1] == 0)
        ]
        for chosen in itertools.combinations(allowed, count):
            for f, r in chosen:
                grid[r][f] = piece
            yield from place(i + 1, used | set(chosen), grid)
            for f, r in chosen:
                grid[r][f] = None

    for grid in place(0, frozenset(), empty_grid(n)):
        for turn in "WB":
            yield ref.State([row[:] for row in grid], turn)


def random_grid(
    rng: random.Random, squares: list[tuple[int, int]], n: int, pieces: list[str] | str
) -> Optional[list[list[Optional[str]]]]:
    """The pieces on distinct random squares of an n×n grid; None when a man would stand on
    its crowning rank."""
    grid = empty_grid(n)
    for piece, (f, r) in zip(pieces, rng.sample(squares, len(pieces))):
        if piece == "w" and r == n - 1 or piece == "b" and r == 0:
            return None
        grid[r][f] = piece
    return grid


def from_children(children: list[Value]) -> Value:
    """A position's (wdl, plies) from its children's (the other side to move): the quickest
    win through a lost child, else a draw through a drawn one, else the slowest loss."""
    wins = [plies + 1 for wdl, plies in children if wdl == -1]
    if wins:
        return (1, min(wins))
    if any(wdl == 0 for wdl, _ in children):
        return (0, 0)
    return (-1, max(plies + 1 for _, plies in children))


def probed(tables: egtb.EndgameTables, board: shashki.Board) -> Optional[Value]:
    value = tables.probe(board)
    return None if value is None else (value.wdl, value.plies)


def expected(tables: egtb.EndgameTables, game: ReferenceGame, state: ref.State) -> Value:
    """The value of ``state`` from the reference's moves and the tables' values of its
    children (a ValueError when a child is not held)."""
    moves = game.moves(state)
    if not moves:
        return game.end()
    if game.frisian:
        return _expected_frisian(tables, game, state, moves)
    children = []
    for move in moves:
        after = game.apply(state, move)
        if not game.moves(after):
            children.append(game.end())
            continue
        child = probed(tables, game.board(after))
        if child is None:
            raise ValueError(f"a child is not held: {game.board(after).fen()}")
        children.append(child)
    return from_children(children)


def _expected_frisian(
    tables: egtb.EndgameTables, game: ReferenceGame, state: ref.State, moves: list[ref.RefMove]
) -> Value:
    """Frisian: the reference's moves, played on the core's board (whose children keep each
    side's run of quiet king moves) once the two agree on which moves there are."""
    board = game.board(state)
    core = {(m.start, m.end, m.captured, m.promotes): m for m in board.legal_moves}
    wanted = {m.key() for m in ref.legal_moves(board.fen(), game.rules)}
    if set(core) != wanted:
        raise ValueError(f"the core's moves are not the reference's: {board.fen()}")
    children = []
    for move_key in wanted:
        child = board.copy()
        child.push(core[move_key])
        if not list(child.legal_moves):
            children.append(game.end())
            continue
        value = probed(tables, child)
        if value is None:
            raise ValueError(f"a child is not held: {child.fen()}")
        children.append(value)
    return from_children(children)


def balance_pieces(name: str) -> str:
    """The reference's letters of a balance's name (``KWvB`` → ``Wwb``; a game's prefix
    is dropped)."""
    white, black = name.rsplit("-", 1)[-1].split("v")
    return white.replace("W", "w").replace("K", "W") + black.replace("B", "b").replace("K", "B")


@dataclass
class Report:
    """What a check found: positions checked by balance, and the first mismatches."""

    checked: dict[str, int] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.checked.values())


def check(
    tables: egtb.EndgameTables,
    variant: str,
    *,
    every: int = 3,
    sample: int = 1000,
    seed: int = 0,
    progress: Optional[Callable[[str, int], object]] = None,
) -> Report:
    """Check the tables of ``variant`` against the reference: every position of each held
    balance of at most ``every`` pieces, ``sample`` random positions of each larger one.
    A position whose side not to move has no pieces is skipped (the game is over); so is,
    in breakthrough, one with a king. ``progress(balance, positions)`` after each balance."""
    game = ReferenceGame(variant)
    prefix = egtb_prefix(variant)
    names = [n for n in tables.materials() if n.startswith(prefix)]
    names = [n for n in names if "-" not in n[len(prefix) :]]
    rng = random.Random(seed)
    report = Report()
    for name in names:
        pieces = balance_pieces(name)
        if len(pieces) <= every:
            states: Iterator[ref.State] = placements(game, pieces)
        else:
            states = _sampled(rng, game, pieces, sample)
        count = 0
        for state in states:
            board = game.board(state)
            got = probed(tables, board)
            if got is None:
                continue  # a position the game has ended in (a side without pieces)
            want = expected(tables, game, state)
            if got != want and len(report.mismatches) < 20:
                report.mismatches.append(f"{board.fen()}: tables {got}, reference {want}")
            count += 1
        report.checked[name] = count
        if progress is not None:
            progress(name, count)
    return report


def _sampled(
    rng: random.Random, game: ReferenceGame, pieces: str, count: int
) -> Iterator[ref.State]:
    squares = game.squares()
    made = 0
    while made < count:
        grid = random_grid(rng, squares, game.size, pieces)
        if grid is not None:
            made += 1
            yield ref.State(grid, rng.choice("WB"))


def egtb_prefix(variant: str) -> str:
    """The prefix of the game's balance names in ``EndgameTables.materials()``, as the core
    names them (the games that play another's positions read its tables)."""
    first = _core.endgame_balances(2, variant=variant)[0][0]
    return first[: first.rfind("-") + 1]


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", help="a directory of tables")
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--every", type=int, default=3, help="every position up to N pieces")
    parser.add_argument("--sample", type=int, default=1000, help="random positions a balance")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    tables = egtb.open(args.dir)
    start = time.monotonic()

    def say(name: str, count: int) -> None:
        print(f"{name:>24} {count:>10,} positions  {time.monotonic() - start:8.1f} s", flush=True)

    report = check(
        tables, args.variant, every=args.every, sample=args.sample, seed=args.seed, progress=say
    )
    print(
        f"{args.variant}: {report.total:,} positions of {len(report.checked)} balances checked "
        f"against the reference, {len(report.mismatches)} mismatches "
        f"({time.monotonic() - start:.1f} s)"
    )
    for line in report.mismatches:
        print("  " + line)
    return 1 if report.mismatches or not report.checked else 0


if __name__ == "__main__":
    sys.exit(main())
