"""Endgame tables: every position of a few pieces solved, built by retrograde analysis in
the Rust core.

>>> import shashki, shashki.egtb, tempfile
>>> directory = tempfile.mkdtemp()
>>> names = shashki.egtb.build(directory, pieces=3, progress=False)
>>> len(names), names[:3]
(16, ['KvK', 'KvB', 'WvK'])
>>> tables = shashki.egtb.open(directory)
>>> board = shashki.Board("W:WK30,K31:BK3")          # two kings against one: drawn
>>> tables.probe_wdl(board), tables.probe_dtw(board)
(0, 0)
>>> board = shashki.Board("W:WK30:B20")              # a king against a man
>>> tables.probe_wdl(board), tables.probe_dtw(board) > 0
(1, True)

International draughts (10×10) has its tables too, in the same directory or another:

>>> names = shashki.egtb.build(directory, pieces=3, variant="international", progress=False)
>>> names[:2]
['international-KvK', 'international-KvB']
>>> tables = shashki.egtb.open(directory)
>>> tables.games
['russian', 'international']
>>> tables.probe_wdl(shashki.Board("W:WK1,K2:BK46", variant="international"))  # long diagonal
0

Every game of one piece a square has its tables, Canadian draughts' 12×12 board among them
(its positions are in the 128-bit word, which the index and the builder take as they take
the 64-bit one), but уголки (a race, not a game of material); a game
without them is refused with the reason
(``_core.endgame_refusal(variant)``), and so are the column games. Each game's files carry its
name (``english-KKvK.egtb``; Portuguese reads Spanish's, whose rules it shares, and the
diagonal game Russian's), so the tables of many games can share a directory.

Each game's own end is respected: in giveaway and antidraughts the side that cannot move
wins; in breakthrough the first man crowned wins (so its tables hold men only); in samoedy
(a capture may take the capturer's own pieces) and the Stavropol games (a side moves the
other's pieces too) a move may leave a side with none, so balances with one side empty are
held too; Turkish men and kings move along the lines; in Frisian draughts (and frysk,
which reads Frisian's tables) a king may make at most three quiet moves in a row while its
side has men, so each side's run of such moves is part of a position and of its slot.
Draw rules by a count of moves are not in the tables (see ``draw_rules`` below).

What the tables store, for every position of up to N pieces of the game
(men and kings, both colours,
either side to move): the value under the move rules alone (no draw by repetition or by a
move count) and the distance to the end of the game with best play (the winner takes the
quickest win, the loser the slowest loss), in plies.

What a probe returns, for the side to move:

- ``probe_wdl(board)``: 1 (wins), 0 (draw), -1 (loses); ``probe_dtw(board)``: the moves of the
  winner until the game is won, positive when the side to move wins, negative when it
  loses, 0 for a draw (or a position already lost: ``probe_wdl`` tells them apart).
  ``probe(board)`` gives both and the plies.
- With ``draw_rules`` (``shashki.draw.FMJD64``, …): the game's move-count rules are applied
  to the board's history. A win that needs more moves than a rule whose count runs now
  still allows (7.2.4: three kings against one in 15 moves; 7.2.5, 7.2.6, 7.2.7, 7.2.8) is
  a draw; a position the rules have already drawn is a draw. The distance is to the end of
  the game, so a win whose path converts (captures, crowns) and so restarts a count may be
  called a draw by this test when the rules would allow it: a conservative reading.
- ``None`` when the balance is not in the tables (or a side has no pieces: the game is
  over). ``best_move(board)``: the quickest win, else a draw, else the slowest loss.

Files: one per mirror pair of balances (``KKvK.egtb``: White's kings ``K`` and men ``W``,
then Black's; ``international-KKvK.egtb`` for International draughts; a balance with the
colours swapped is read from its mirror image's file, and a symmetric balance stores White
to move only), with a header (format version, game, balance, checksums) and the values in
zstd-compressed blocks of 65,536; positions with a capture are
not stored (a probe takes the best of the captures). Opening reads the files and checks
their checksums; a block is unpacked the first time a probe reaches it and then kept. See
``src/egtb/mod.rs`` for the layout. A build writes each balance through a temporary file,
so an interrupted build keeps what it finished and resumes; building twice gives
byte-identical files.
"""

from __future__ import annotations

import sys
import time

from shashki import Board, Move, _core

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from os import PathLike
    from typing import Optional, Union

    from shashki.draw import DrawRules

    StrPath = Union[str, PathLike[str]]

__all__ = [
    "UNPACK_PIECES",
    "EndgameTables",
    "Requirements",
    "build",
    "cache_usage",
    "open",
    "requirements",
    "select",
    "set_cache_mb",
]


def build(
    directory: StrPath,
    pieces: int = 4,
    *,
    threads: Optional[int] = None,
    progress: bool = True,
    variant: str = "russian",
    scheduler: object = None,
    shared: bool = False,
    balances: Optional[Sequence[str]] = None,
) -> list[str]:
    """Build every balance of 2 to ``pieces`` pieces of ``variant`` (any game with tables;
    files ``KKvK.egtb`` for Russian, ``international-KKvK.egtb``, ``english-KKvK.egtb``, …,
    so the games can share a directory) into ``directory`` (made if needed), keeping the
    balances already there; the names of the balances held (``international-KKvK`` for
    International's).
    ``progress`` shows a progress bar on stderr: the balance being built, the distance being
    settled, the time so far and left (from the speed of this run). Ctrl-C stops it between
    balances (those finished stay).
    ``scheduler``: a Dask scheduler's address (``tcp://HOST:8786``) or a ``distributed.Client``:
    each balance is a task on the cluster's workers (``threads`` threads each, default 1),
    the files written here by this process, or by the workers themselves with ``shared``
    (``directory`` reached by every worker at the same path); see
    :func:`shashki.distributed.build_tables`.
    ``balances``: only these balances of up to ``pieces`` pieces (names like ``KKvKK`` or
    ``international-KKvKK``; a mirror names its stored balance), the balances they need
    being in ``directory`` already (a ValueError names the first missing); their names."""
    if scheduler is not None:
        from shashki import distributed

        return distributed.build_tables(
            str(directory),
            pieces,
            scheduler,
            variant=variant,
            threads=threads or 1,
            shared=shared,
            progress=progress,
            balances=None
            if balances is None
            else [b for b, _, _ in select(pieces, balances, variant)],
        )
    if shared:
        raise ValueError("shared is for a cluster build (with scheduler)")
    from shashki._progress import Progress

    if balances is not None:
        return _build_some(directory, pieces, balances, threads, progress, variant)

    started = time.monotonic()
    before = _slots_before(pieces, variant)  # slots of the balances before each, in build order
    total = before[-1]
    # Balances already there are skipped: the time left follows from this run's own speed.
    shown: list[Progress] = []
    head = [""]

    def on_start(index: int, count: int, name: str, slots: int) -> None:
        done = before[min(index, len(before) - 1)]
        if not shown:
            shown.append(Progress(total, "positions", enabled=progress, already=done))
        head[0] = f"balance {index + 1}/{count} {name}"
        shown[0].update(done, detail=head[0], force=True)

    def on_distance(plies: int) -> None:
        if shown:
            shown[0].update(shown[0].done, detail=f"{head[0]}, distance {plies}")

    names: list[str] = _core.build_endgame_tables(
        str(directory),
        pieces,
        threads=threads,
        on_start=on_start,
        on_distance=on_distance,
        variant=variant,
    )
    summary = f"{len(names)} balances in {time.monotonic() - started:.1f} s"
    if shown:
        shown[0].update(shown[0].total)
        shown[0].close(summary)
    elif progress:
        print(summary, file=sys.stderr)
    return names


def select(
    pieces: int, balances: Optional[Sequence[str]], variant: str = "russian"
) -> list[tuple[str, int, list[str]]]:
    """The stored balances of up to ``pieces`` pieces of ``variant`` in build order, as
    ``(name, slots, names of the balances it needs)``; with ``balances``, only those (each
    named as stored, by its mirror, or without the game's prefix); a ValueError names one
    that is not a balance of the game."""
    order = _core.endgame_balances(pieces, variant=variant)
    if balances is None:
        return order
    known = {name: name for name, _, _ in order}
    for name in list(known):
        known[_mirror(name)] = name
        bare = name.rpartition("-")[2]
        known.setdefault(bare, name)
        known.setdefault(_mirror(bare), name)
    wanted = set()
    for balance in balances:
        if balance not in known:
            raise ValueError(
                f"{balance!r} is not a balance of {variant} of at most {pieces} pieces "
                "(a name like KKWvKB: White's kings K and men W, v, Black's kings K and men B)"
            )
        wanted.add(known[balance])
    return [entry for entry in order if entry[0] in wanted]


def _mirror(name: str) -> str:
    """The balance with the colours swapped: ``KWvK`` → ``KvKB``."""
    prefix, dash, material = name.rpartition("-")
    white, _, black = material.partition("v")
    return f"{prefix}{dash}{black.replace('B', 'W')}v{white.replace('W', 'B')}"


def _build_some(
    directory: StrPath,
    pieces: int,
    balances: Sequence[str],
    threads: Optional[int],
    progress: bool,
    variant: str,
) -> list[str]:
    """:func:`build` of the balances named only, one after another."""
    from shashki._progress import Progress

    chosen = select(pieces, balances, variant)
    started = time.monotonic()
    shown = Progress(sum(slots for _, slots, _ in chosen), "positions", enabled=progress)
    done = 0
    for index, (name, slots, _) in enumerate(chosen):
        head = f"balance {index + 1}/{len(chosen)} {name}"
        shown.update(done, detail=head, force=True)

        def on_distance(plies: int, head: str = head) -> None:
            shown.update(shown.done, detail=f"{head}, distance {plies}")

        _core.build_endgame_table(
            directory, name, variant=variant, threads=threads, on_distance=on_distance
        )
        done += slots
    shown.update(done)
    shown.close(f"{len(chosen)} balances in {time.monotonic() - started:.1f} s")
    return [name for name, _, _ in chosen]


class Requirements:
    """What a build of ``pieces`` pieces of a game needs (:func:`requirements`): ``balances``
    and ``slots`` (stored: both sides to move, a symmetric balance once); ``largest``, the
    balance whose build takes the most memory, and ``memory``, its bytes (six a slot of the
    balance while it is settled, one a stored slot for its values, and every table it reads,
    unpacked); ``disk_most``, the files' bytes uncompressed (one a slot), and ``disk``, the
    bytes expected at the compression of the tables already in the directory (None when it
    holds none of the game's)."""

    def __init__(
        self,
        balances: int,
        slots: int,
        largest: str,
        memory: int,
        disk_most: int,
        disk: Optional[int],
    ) -> None:
        self.balances, self.slots, self.largest = balances, slots, largest
        self.memory, self.disk_most, self.disk = memory, disk_most, disk

    def __str__(self) -> str:
        disk = f"at most {_size(self.disk_most)} on disk"
        if self.disk is not None:
            disk += f", about {_size(self.disk)} at the compression of the tables there"
        return (
            f"{self.balances} balances, {self.slots:,} slots; the largest build, "
            f"{self.largest}, needs {_size(self.memory)} of memory; {disk}"
        )


def _size(count: int) -> str:
    """Bytes as kB, MB or GB (powers of 1000), three figures."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:.3g} {unit}"
    return f"{count} bytes"


def _symmetric(name: str) -> bool:
    white, _, black = name.rpartition("-")[2].partition("v")
    return white.replace("W", "B") == black


def requirements(
    pieces: int,
    variant: str = "russian",
    directory: Optional[StrPath] = None,
    balances: Optional[Sequence[str]] = None,
) -> Requirements:
    """The memory and disk a build of up to ``pieces`` pieces of ``variant`` needs (of the
    ``balances`` named only, if given), from the balances' sizes (nothing is built); the
    compression of the game's files already in ``directory``, if any, gives the expected
    bytes on disk."""
    import os

    every = _core.endgame_balances(pieces, variant=variant)
    order = select(pieces, balances, variant)
    stored = {name: slots for name, slots, _ in every}
    best = ("", -1)
    for name, slots, needs in order:
        settling = 6 * (slots if _symmetric(name) else slots // 2)
        memory = settling + slots + sum(stored[need] for need in needs)
        if memory > best[1]:
            best = (name, memory)
    total = sum(slots for _, slots, _ in order)
    disk: Optional[int] = None
    if directory is not None:
        have_bytes = have_slots = 0
        for name, slots in stored.items():
            path = os.path.join(os.fspath(directory), f"{name}.egtb")
            if os.path.exists(path):
                have_bytes += os.path.getsize(path)
                have_slots += slots
        if have_slots:
            disk = round(total * have_bytes / have_slots)
    return Requirements(len(order), total, best[0], max(best[1], 0), total, disk)


def _slots_before(pieces: int, variant: str = "russian") -> list[int]:
    """Slots of the stored balances before each one in build order, and of them all at the
    end (the Rust builder's order and sizes, from ``_core.endgame_balances``)."""
    out = [0]
    for _, slots, _ in _core.endgame_balances(pieces, variant=variant):
        out.append(out[-1] + slots)
    return out


class EndgameValue:
    """A probe's answer for the side to move: ``wdl`` (1, 0, -1), ``plies`` to the end of
    the game with best play, and ``moves``: the winner's moves until it has won."""

    __slots__ = ("wdl", "plies")

    def __init__(self, wdl: int, plies: int) -> None:
        self.wdl = wdl
        self.plies = plies

    @property
    def moves(self) -> int:
        if self.wdl > 0:
            return (self.plies + 1) // 2
        return self.plies // 2

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EndgameValue):
            return NotImplemented
        return (self.wdl, self.plies) == (other.wdl, other.plies)

    def __hash__(self) -> int:
        return hash((self.wdl, self.plies))

    def __repr__(self) -> str:
        return f"EndgameValue(wdl={self.wdl}, plies={self.plies})"


class EndgameTables:
    """Endgame tables in memory (see the module docs for what a probe returns)."""

    def __init__(self, core: _core.EndgameTables) -> None:
        self._core = core

    @property
    def max_pieces(self) -> int:
        """The most pieces of any balance held."""
        return self._core.max_pieces

    @property
    def unpacked_bytes(self) -> int:
        """The bytes of the tables unpacked whole at open (outside :func:`cache_usage`)."""
        return self._core.unpacked_bytes

    def materials(self) -> list[str]:
        """The balances held, by name (``international-KKvK`` for International's)."""
        return self._core.materials()

    @property
    def games(self) -> list[str]:
        """The games whose tables are held (``"russian"``, ``"english"``, …)."""
        return self._core.games

    def probe(
        self, board: Board, *, draw_rules: Optional[DrawRules] = None
    ) -> Optional[EndgameValue]:
        """The value for the side to move, or None when the balance is not held."""
        found = self._core.probe(board)
        if found is None:
            return None
        value = EndgameValue(*found)
        if draw_rules is not None and value.wdl != 0 and _drawn_by_rules(board, value, draw_rules):
            return EndgameValue(0, 0)
        return value

    def probe_wdl(self, board: Board, *, draw_rules: Optional[DrawRules] = None) -> Optional[int]:
        """1 (the side to move wins), 0, -1; None when the balance is not held."""
        value = self.probe(board, draw_rules=draw_rules)
        return None if value is None else value.wdl

    def probe_dtw(self, board: Board, *, draw_rules: Optional[DrawRules] = None) -> Optional[int]:
        """The winner's moves until it has won: positive when the side to move wins,
        negative when it loses, 0 for a draw; None when the balance is not held."""
        value = self.probe(board, draw_rules=draw_rules)
        if value is None:
            return None
        return value.moves if value.wdl > 0 else -value.moves

    def verify(self, balance: str, step: int = 1) -> tuple[tuple[int, int, int], ...]:
        """Check every ``step``-th position of a held balance (a name of :meth:`materials`)
        against its children, as the move generator gives them: the wins, draws and losses
        of the side to move, White to move then Black to move. A ValueError names the
        first position whose value does not follow from its children's."""
        white, black = self._core.verify(balance, step)
        return (tuple(white), tuple(black))  # type: ignore[return-value]

    def best_move(self, board: Board) -> Optional[Move]:
        """The quickest win, else a draw, else the slowest loss (under the move rules);
        None when the balance is not held or there is no legal move."""
        return self._core.best_move(board)

    def __repr__(self) -> str:
        return f"<EndgameTables {len(self.materials())} balances, up to {self.max_pieces} pieces>"


def _drawn_by_rules(board: Board, value: EndgameValue, rules: DrawRules) -> bool:
    """Whether the rules' move counts that run now leave too few moves for this win."""
    if board.outcome(draw_rules=rules) is not None:
        return True
    winner_moves = value.moves
    for counter in board.draw_counters(draw_rules=rules):
        if counter.unit == "moves" and winner_moves > counter.remaining:
            return True
        if counter.unit == "plies" and value.plies > counter.remaining:
            return True
    return False


def refusal(variant: str) -> Optional[str]:
    """Why ``variant`` (a game's name) has no endgame tables — уголки, the column
    games, captures optional —, or None when it has them (a ValueError for an unknown
    name)."""
    return _core.endgame_refusal(variant)


def cache_usage() -> tuple[int, int]:
    """The bytes of unpacked blocks the process's tables hold now, and their bound."""
    return _core.endgame_block_cache()


def set_cache_mb(megabytes: int) -> None:
    """Bound the unpacked blocks of all tables of the process (default 256 MiB); the
    oldest are dropped past it, and unpacked again if probed again."""
    _core.endgame_block_cache(megabytes)


#: Tables of at most this many pieces are unpacked whole when opened (all of them up to 5
#: pieces: 187 MB, opened in 1.6 s on two cores): their probes never wait for a block to be
#: unpacked, which matters to a search on the clock.
UNPACK_PIECES = 5


def open(  # noqa: A001 (as shashki.egtb.open)
    directory: StrPath, *, unpack_pieces: int = UNPACK_PIECES
) -> EndgameTables:
    """The tables in ``directory`` (every ``*.egtb`` file, read into memory and checked);
    those of at most ``unpack_pieces`` pieces unpacked whole now (their values checked),
    the others block by block as probes reach them (0: every table so)."""
    return EndgameTables(_core.EndgameTables.open(str(directory), unpack_pieces))
