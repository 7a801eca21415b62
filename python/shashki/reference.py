"""The rules of Russian draughts (and of the other games shashki plays, on the 8×8, the
10×10 and the 12×12 board) in plain Python: an executable specification.

This module is the independent reference used to test the Rust core. It shares no code or
tables with it: a mailbox of the board's size, explicit recursion for captures, written
from the rules (docs/rules.rst, docs/variants.md) and readable first; speed does not matter
here. It is never imported by ``import shashki``.

Squares are numbered as in the main API: 0 = a1, 1 = c1, … 31 = h8 (rank by rank from
White's side; 0 … 49 = j10 on the 10×10 board, ``rules.size`` 10), so
``shashki.square_name`` and ``shashki.square_number`` apply.

>>> from shashki import reference
>>> start = "W:W21-32:B1-12"
>>> len(reference.legal_moves(start))
7
>>> reference.perft(start, 3)
302

The variants' move rules are a :class:`Rules` value (``rules_for("brazilian")``): majority
capture, crowning during a capture, captures optional. Giveaway and the diagonal start move
as in Russian draughts; :data:`START` holds each variant's start position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Optional, Protocol

WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_KING = "w", "W", "b", "B"
DIAGONALS = ((1, 1), (-1, 1), (1, -1), (-1, -1))  # (file step, rank step)
# Along a rank or a file the next square of the same colour is two squares away (Frisian).
STRAIGHT_LINES = ((2, 0), (-2, 0), (0, 2), (0, -2))

Grid = list[list[Optional[str]]]  # grid[rank][file], rank 0 is White's back rank


@dataclass(frozen=True)
class RefMove:
    """One legal move: start, end, captured squares, landing squares, promotion.

    ``order`` lists the captured squares in the order they were taken; it tells apart the
    capture sequences that convention B counts separately.
    """

    start: int
    end: int
    captured: frozenset[int]
    path: tuple[int, ...]
    promotes: bool
    order: tuple[int, ...] = ()

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    def key(self) -> tuple[int, int, frozenset[int], bool]:
        """What makes a move distinct (docs/rules.rst, "Which moves are distinct")."""
        return (self.start, self.end, self.captured, self.promotes)


class MoveLike(Protocol):
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def captured(self) -> frozenset[int]: ...
    @property
    def promotes(self) -> bool: ...


@dataclass(frozen=True)
class Rules:
    """The move rules of a game (docs/rules.rst, "Variants"; docs/variants.md).

    ``crown_during_capture``: a man reaching the far rank during a capture is crowned at once
    and goes on as a king (Russian); otherwise it goes on as a man and is crowned only if
    the move ends there (Brazilian, Pool; where men capture only forwards the move ends
    there). ``majority``: only the captures taking the most pieces are legal (Brazilian).
    ``captures_optional``: quiet moves stay legal beside captures. ``men_capture_backwards``:
    men jump backwards too. ``flying_kings``: kings move and capture along whole diagonals
    (otherwise one square, a jump over an adjacent piece). ``man_takes_king``: men may
    capture kings (not in Italian). ``king_lands_behind``: a flying king's capture lands on
    the square just behind the piece (Thai). ``remove_during_move``: pieces taken leave the
    board at once, and a king never turns straight back (Thai). ``priority``: ``"free"``,
    ``"majority"``, ``"pieces_then_kings"`` (Spanish), ``"italian"`` (the FID's order) or
    ``"king_first"`` (Czech). ``size``: the board's side (8, or 10 for International).
    ``king_stops_behind_king``: a king whose capture ends on taking a king stops on the
    square just behind it (Killer draughts). ``crowning_wins``: the first side to crown a man
    wins; its opponent has no moves (breakthrough). ``orthogonal_captures``: men and kings
    also capture along ranks and files, over the next square of their colour (Frisian).
    ``king_quiet_moves``: the most quiet moves one king may make in a row while its side
    has men (Frisian: 3; 0 for no limit): the reference keeps no history, so
    :func:`legal_moves` is told which king has reached the limit.
    ``priority`` ``"value"``: the captures taking the most value, a king worth less than two
    men and more than one, then a king's capture (Frisian). ``capture_own``: a piece takes
    pieces of either colour, its own side's too, and such captures are compulsory as any
    (самоеды, Samoedy: "pieces must be captured regardless of colour"). ``either_colour``:
    the side to move moves a piece of either colour, each by its own colour's rules, a
    capture by either colour compulsory; a side whose own colour cannot move has lost
    (ставропольские шашки, Stavropol draughts). ``own_captures_first``: with
    ``either_colour``, the other colour's captures are legal only when the side to move's own
    colour has none (the Dagaz project's reading of Stavropol draughts).
    """

    crown_during_capture: bool = True
    majority: bool = False
    captures_optional: bool = False
    men_capture_backwards: bool = True
    flying_kings: bool = True
    man_takes_king: bool = True
    king_lands_behind: bool = False
    remove_during_move: bool = False
    priority: str = "free"
    size: int = 8
    king_stops_behind_king: bool = False
    crowning_wins: bool = False
    orthogonal_captures: bool = False
    king_quiet_moves: int = 0
    capture_own: bool = False
    either_colour: bool = False
    own_captures_first: bool = False


RUSSIAN = Rules()

_GAME_RULES: dict[str, dict[str, object]] = {
    "russian": {},
    "giveaway": {},
    "diagonal": {},
    "brazilian": {"crown_during_capture": False, "majority": True, "priority": "majority"},
    # English: men forward only, short kings, free choice; crowning ends the move.
    "english": {
        "crown_during_capture": False,
        "men_capture_backwards": False,
        "flying_kings": False,
    },
    # Italian: as English; a man never takes a king; the FID's priorities.
    "italian": {
        "crown_during_capture": False,
        "men_capture_backwards": False,
        "flying_kings": False,
        "man_takes_king": False,
        "priority": "italian",
    },
    # Spanish and Portuguese: men forward only, flying kings, most pieces then most kings.
    "spanish": {
        "crown_during_capture": False,
        "men_capture_backwards": False,
        "priority": "pieces_then_kings",
    },
    "portuguese": {
        "crown_during_capture": False,
        "men_capture_backwards": False,
        "priority": "pieces_then_kings",
    },
    # Czech: men forward only, flying kings, a king's capture first.
    "czech": {
        "crown_during_capture": False,
        "men_capture_backwards": False,
        "priority": "king_first",
    },
    # Pool: men capture backwards, flying kings, free choice, no crowning mid-capture.
    "pool": {"crown_during_capture": False},
    # Thai: men forward only; flying kings landing just behind; pieces leave at once.
    "thai": {
        "crown_during_capture": False,
        "men_capture_backwards": False,
        "king_lands_behind": True,
        "remove_during_move": True,
    },
    # International (FMJD, 10×10): Brazilian's rules on the larger board.
    "international": {
        "crown_during_capture": False,
        "majority": True,
        "priority": "majority",
        "size": 10,
    },
    "antidraughts": {
        "crown_during_capture": False,
        "majority": True,
        "priority": "majority",
        "size": 10,
    },
    # Killer draughts: International, and a king's capture ending on a king stops behind it.
    "killer": {
        "crown_during_capture": False,
        "majority": True,
        "priority": "majority",
        "size": 10,
        "king_stops_behind_king": True,
    },
    # Frisian: captures along ranks and files too, by value; three quiet king moves in a row.
    "frisian": {
        "crown_during_capture": False,
        "priority": "value",
        "size": 10,
        "orthogonal_captures": True,
        "king_quiet_moves": 3,
    },
    "frysk": {
        "crown_during_capture": False,
        "priority": "value",
        "size": 10,
        "orthogonal_captures": True,
        "king_quiet_moves": 3,
    },
    # Breakthrough: International moves; the first king wins.
    "breakthrough": {
        "crown_during_capture": False,
        "majority": True,
        "priority": "majority",
        "size": 10,
        "crowning_wins": True,
    },
    # Canadian draughts: International's rules on the 12×12 board.
    "canadian": {
        "crown_during_capture": False,
        "majority": True,
        "priority": "majority",
        "size": 12,
    },
    "samoedy": {"capture_own": True},
    "stavropol": {"either_colour": True},
    "stavropol-own-first": {"either_colour": True, "own_captures_first": True},
}


def rules_for(variant: str = "russian", captures_optional: bool = False) -> Rules:
    """The move rules of a game: ``russian``, ``giveaway``, ``brazilian``, ``diagonal``,
    ``english``, ``italian``, ``spanish``, ``portuguese``, ``czech``, ``pool``, ``thai``,
    ``international``, ``antidraughts``, ``killer``, ``breakthrough``."""
    if variant not in _GAME_RULES:
        raise ValueError(f"unknown variant {variant!r}")
    fields = dict(_GAME_RULES[variant])
    return Rules(captures_optional=captures_optional, **fields)  # type: ignore[arg-type]


# The PDN GameType fields that fix each game's square numbers: the side that moves first,
# the corner of square 1 as that side sees the board (0 bottom left, 1 bottom right, 2 top
# left, 3 top right; numbers then run along the rows), and whether the board is turned
# (its bottom left corner, seen by White, a light square).
GAME_NUMBERING: dict[str, tuple[str, int, bool]] = {
    "russian": ("W", 2, False),
    "giveaway": ("W", 2, False),
    "brazilian": ("W", 2, False),
    "diagonal": ("W", 2, False),
    "czech": ("W", 2, False),
    "english": ("B", 1, False),
    "pool": ("B", 1, False),
    "italian": ("W", 2, True),
    "spanish": ("W", 1, True),
    "portuguese": ("W", 1, True),
    "thai": ("B", 2, False),
    "international": ("W", 2, False),
    "antidraughts": ("W", 2, False),
    "killer": ("W", 2, False),
    "breakthrough": ("W", 2, False),
    "frisian": ("W", 2, False),
    "frysk": ("W", 2, False),
    "canadian": ("W", 2, False),
    "samoedy": ("W", 2, False),
    "stavropol": ("W", 2, False),
    "stavropol-own-first": ("W", 2, False),
}


def game_numbers(variant: str) -> dict[int, int]:
    """Each square index (this module's coordinates, the generator's: a turned board stored
    mirrored, file a for h) to the game's own square number."""
    first, corner, turned = GAME_NUMBERING[variant]
    n = rules_for(variant).size
    last = n - 1
    numbers: dict[int, int] = {}
    count = 0
    rows = range(n) if corner in (0, 1) else range(last, -1, -1)
    for seen_rank in rows:
        cols = range(n) if corner in (0, 2) else range(last, -1, -1)
        for seen_file in cols:
            # From the first side's seat to the board as White sees it.
            file, rank = (
                (seen_file, seen_rank) if first == "W" else (last - seen_file, last - seen_rank)
            )
            playable = (file + rank) % 2 == (1 if turned else 0)
            if not playable:
                continue
            count += 1
            stored_file = last - file if turned else file
            numbers[square_index(stored_file, rank, n)] = count
    return numbers


def from_game_fen(fen: str, variant: str) -> str:
    """A numeric FEN in the game's own numbering rewritten in this module's coordinates
    (ranges such as ``W1-12`` allowed)."""
    squares = {n: sq for sq, n in game_numbers(variant).items()}
    size = rules_for(variant).size

    def coords(number: int) -> tuple[int, int]:
        if number not in squares:
            raise ValueError(f"square number {number} is not within 1-{len(squares)}")
        return square_coords(squares[number], size)

    return write_fen(parse_fen(fen, coords, size))


def game_fen(fen: str, variant: str) -> str:
    """A numeric FEN of this module's coordinates rewritten in the game's own numbering."""
    numbers = game_numbers(variant)
    size = rules_for(variant).size
    return write_fen(
        parse_fen(fen, size=size), lambda file, rank: numbers[square_index(file, rank, size)]
    )


def _diagonal_start() -> str:
    """The diagonal start as we read it: the main road a1–h8 empty, White's men on
    every dark square right of it (file > rank), Black's left of it."""
    white: list[str] = []
    black: list[str] = []
    for rank in range(8):
        for file in range(8):
            if is_dark(file, rank) and file != rank:
                (white if file > rank else black).append(str(pdn_number(file, rank)))
    return f"W:W{','.join(white)}:B{','.join(black)}"


@dataclass
class State:
    """A position: the grid and the side to move (``"W"`` or ``"B"``)."""

    grid: Grid
    turn: str


# ---- squares (docs/rules.rst, "The board and the start") -----------------------------------------


def is_dark(file: int, rank: int) -> bool:
    """§1: play is on the dark squares; a1 (file 0, rank 0) is dark."""
    return (file + rank) % 2 == 0


def on_board(file: int, rank: int, size: int = 8) -> bool:
    return 0 <= file < size and 0 <= rank < size


def square_index(file: int, rank: int, size: int = 8) -> int:
    """The API's square number: rank by rank from White's side, ``size / 2`` dark squares
    a rank (0 = a1)."""
    return rank * (size // 2) + file // 2


def square_coords(index: int, size: int = 8) -> tuple[int, int]:
    half = size // 2
    rank = index // half
    file = (index % half) * 2 + (rank % 2)
    return file, rank


def pdn_number(file: int, rank: int, size: int = 8) -> int:
    """§1: PDN numbers run from b8 (1) to g1 (32), rank by rank from Black's side (on
    10×10, from b10 (1) to i1 (50); on 12×12, from b12 (1) to k1 (72))."""
    return (size - 1 - rank) * (size // 2) + file // 2 + 1


def pdn_coords(number: int, size: int = 8) -> tuple[int, int]:
    half = size // 2
    if not 1 <= number <= size * half:
        raise ValueError(f"square number {number} is not within 1-{size * half}")
    row = (number - 1) // half  # 0 is the top rank
    rank = size - 1 - row
    col = (number - 1) % half
    file = col * 2 + (1 if rank % 2 == 1 else 0)
    return file, rank


# ---- FEN (docs/formats.rst) ----------------------------------------------------------------------


def _parse_square(
    token: str,
    coords: Callable[[int], tuple[int, int]],
    size: int = 8,
    every_square: bool = False,
) -> tuple[int, int]:
    if token.isdigit():
        return coords(int(token))
    files = "abcdefghijkl"[:size]
    if 2 <= len(token) <= 3 and token[0] in files and token[1:].isdigit():
        file, rank = ord(token[0]) - ord("a"), int(token[1:]) - 1
        if not 0 <= rank < size:
            raise ValueError(f"bad square {token!r}")
        if not every_square and not is_dark(file, rank):
            raise ValueError(f"{token} is a light square")
        return file, rank
    raise ValueError(f"bad square {token!r}")


def parse_fen(
    fen: str,
    coords: Optional[Callable[[int], tuple[int, int]]] = None,
    size: int = 8,
    every_square: bool = False,
) -> State:
    """§5: ``W:W21,22,K30:B1-12`` or algebraic squares; lidraughts' H/F fields are ignored.
    ``coords``: the (file, rank) of a square number (PDN's by default, or a game's);
    ``size``: the board's side; ``every_square``: light squares are played too (Turkish)."""
    if coords is None:

        def coords(number: int) -> tuple[int, int]:
            return pdn_coords(number, size)

    text = fen.strip()
    if text.startswith("[FEN"):
        text = text[4:].strip().rstrip("]").strip().strip('"')
    fields = text.split(":")
    turn = fields[0].strip().upper()
    if turn not in ("W", "B"):
        raise ValueError(f"bad side to move in {fen!r}")
    grid: Grid = [[None] * size for _ in range(size)]
    for field in fields[1:]:
        field = field.strip()
        if not field or field[0].upper() in "HF":
            continue
        color = field[0].upper()
        if color not in "WB":
            raise ValueError(f"bad colour in {fen!r}")
        for token in field[1:].split(","):
            token = token.strip()
            if not token:
                continue
            king = token[0] in "Kk"
            body = token[1:] if king else token
            if "-" in body:
                lo, hi = (int(x) for x in body.split("-"))
                cells = [coords(n) for n in range(lo, hi + 1)]
            else:
                cells = [_parse_square(body, coords, size, every_square)]
            for file, rank in cells:
                if grid[rank][file] is not None:
                    raise ValueError(f"square given twice in {fen!r}")
                piece = color if king else color.lower()
                grid[rank][file] = piece
    return State(grid, turn)


def write_fen(state: State, number: Optional[Callable[[int, int], int]] = None) -> str:
    """Numeric FEN with squares in PDN order (or the order of ``number(file, rank)``, a
    game's numbering) and ``K`` before kings."""
    size = len(state.grid)
    if number is None:

        def number(file: int, rank: int) -> int:
            return pdn_number(file, rank, size)

    parts = [state.turn]
    for color in ("W", "B"):
        items = []
        for rank in range(size):
            for file in range(size):
                piece = state.grid[rank][file]
                if piece is not None and piece.upper() == color:
                    n = number(file, rank)
                    items.append((n, ("K" if piece.isupper() else "") + str(n)))
        parts.append(color + ",".join(text for _, text in sorted(items)))
    return ":".join(parts)


# ---- rules -------------------------------------------------------------------------------


def owner(piece: Optional[str]) -> Optional[str]:
    return None if piece is None else piece.upper()


def is_king(piece: str) -> bool:
    return piece.isupper()


def forward(turn: str) -> int:
    """§2: White moves up the board (towards rank 8), Black down."""
    return 1 if turn == "W" else -1


def crowning_rank(turn: str, size: int = 8) -> int:
    """§2: a man is crowned on the far rank: rank 8 for White, rank 1 for Black."""
    return size - 1 if turn == "W" else 0


def quiet_moves(state: State, rules: Rules = RUSSIAN) -> list[RefMove]:
    """§2: a man steps one square diagonally forward; a king flies any number of empty
    squares along a diagonal (one square where kings are short); a man ending on the far
    rank is crowned."""
    moves = []
    n = len(state.grid)
    for rank in range(n):
        for file in range(n):
            piece = state.grid[rank][file]
            if owner(piece) != state.turn:
                continue
            start = square_index(file, rank, n)
            if piece is not None and is_king(piece):
                for df, dr in DIAGONALS:
                    f, r = file + df, rank + dr
                    while on_board(f, r, n) and state.grid[r][f] is None:
                        moves.append(
                            RefMove(
                                start,
                                square_index(f, r, n),
                                frozenset(),
                                ((square_index(f, r, n)),),
                                False,
                            )
                        )
                        if not rules.flying_kings:
                            break
                        f, r = f + df, r + dr
            else:
                dr = forward(state.turn)
                for df in (-1, 1):
                    f, r = file + df, rank + dr
                    if on_board(f, r, n) and state.grid[r][f] is None:
                        end = square_index(f, r, n)
                        crowns = r == crowning_rank(state.turn, n)
                        moves.append(RefMove(start, end, frozenset(), (end,), crowns))
    return moves


def _capture_targets(
    state: State,
    file: int,
    rank: int,
    king: bool,
    start: tuple[int, int],
    taken: list[tuple[int, int]],
    rules: Rules = RUSSIAN,
    came: Optional[tuple[int, int]] = None,
) -> list[tuple[tuple[int, int], list[tuple[int, int]]]]:
    """The jumps available to a piece on (file, rank): a list of (victim, landing squares).

    §3.3: a man jumps an adjacent enemy piece onto the empty square right behind it, in any
    of the four directions. §3.4: a king jumps the first piece along a diagonal over empty
    squares and may land on any empty square behind it. §3.6: pieces already taken in this
    move stay on the board: they cannot be jumped again and they block. §3.7: the start
    square of the moving piece is empty during the move.
    """

    n = len(state.grid)

    def empty(f: int, r: int) -> bool:
        if not on_board(f, r, n):
            return False
        if rules.remove_during_move and (f, r) in taken:
            return True  # Thai: a piece taken has left the board
        return (f, r) == start or state.grid[r][f] is None

    def enemy(f: int, r: int) -> bool:
        piece = state.grid[r][f] if on_board(f, r, n) else None
        if piece is None or (f, r) == start:
            return False
        if owner(piece) == state.turn and not rules.capture_own:
            return False  # one's own pieces are taken only in Samoedy
        return king or rules.man_takes_king or not is_king(piece)

    jumps = []
    lines = DIAGONALS + STRAIGHT_LINES if rules.orthogonal_captures else DIAGONALS
    for df, dr in lines:
        if not king and not rules.men_capture_backwards and dr != forward(state.turn):
            continue  # men that capture forwards only
        if rules.remove_during_move and came is not None and (df, dr) == (-came[0], -came[1]):
            continue  # a king never turns straight back
        f, r = file + df, rank + dr
        if king and rules.flying_kings:
            while empty(f, r):
                f, r = f + df, r + dr
        if not on_board(f, r, n) or not enemy(f, r) or (f, r) in taken:
            continue
        victim = (f, r)
        landings = []
        f, r = f + df, r + dr
        while empty(f, r):
            landings.append((f, r))
            if not (king and rules.flying_kings) or rules.king_lands_behind:
                break
            f, r = f + df, r + dr
        if landings:
            jumps.append((victim, landings))
    return jumps


def capture_sequences(state: State, file: int, rank: int, rules: Rules = RUSSIAN) -> list[RefMove]:
    """Every capture sequence of the piece on (file, rank), one per order and end square.

    §3.1–3.2: a capture once begun goes on while any further jump exists. §3.4: where a king
    can land on several squares behind its victim and from some of them the capture goes on,
    it must land on one of those. §3.8: a man reaching the far rank during a capture is
    crowned at once and goes on capturing as a king (with ``rules.crown_during_capture``;
    otherwise it goes on as a man and is crowned only where the move ends).
    """
    piece = state.grid[rank][file]
    assert piece is not None
    start = (file, rank)
    found: list[RefMove] = []
    n = len(state.grid)

    def index(square: tuple[int, int]) -> int:
        return square_index(square[0], square[1], n)

    def extend(
        f: int,
        r: int,
        king: bool,
        crowned: bool,
        taken: list[tuple[int, int]],
        path: list[tuple[int, int]],
        came: Optional[tuple[int, int]] = None,
    ) -> None:
        jumps = _capture_targets(state, f, r, king, start, taken, rules, came)
        if not jumps:
            if taken and king and rules.king_stops_behind_king and came is not None:
                # Killer: ending on a king taken, the king stops right behind it.
                last_f, last_r = taken[-1]
                last = state.grid[last_r][last_f]
                if last is not None and is_king(last):
                    if (f, r) != (last_f + came[0], last_r + came[1]):
                        return
            if taken:
                if not king and r == crowning_rank(state.turn, n):
                    crowned = True  # the move ends on the far rank (Brazilian)
                found.append(
                    RefMove(
                        index(start),
                        index((f, r)),
                        frozenset(index(t) for t in taken),
                        tuple(index(p) for p in path),
                        crowned,
                        tuple(index(t) for t in taken),
                    )
                )
            return
        for victim, landings in jumps:
            now_taken = taken + [victim]

            options = []
            for landing in landings:
                becomes_king = king or (
                    rules.crown_during_capture and landing[1] == crowning_rank(state.turn, n)
                )
                options.append((landing, becomes_king))
            # The line's step: one square along a diagonal, two along a rank or a file.
            dx, dy = landing[0] - victim[0], landing[1] - victim[1]
            unit = 1 if dx and dy else 2
            direction = ((dx > 0) - (dx < 0)) * unit, ((dy > 0) - (dy < 0)) * unit
            if king:
                continuing = [
                    (sq, k)
                    for sq, k in options
                    if _capture_targets(state, sq[0], sq[1], k, start, now_taken, rules, direction)
                ]
                if continuing:
                    options = continuing
            for landing, becomes_king in options:
                extend(
                    landing[0],
                    landing[1],
                    becomes_king,
                    crowned or (becomes_king and not king),
                    now_taken,
                    path + [landing],
                    direction,
                )

    extend(file, rank, is_king(piece), False, [], [])
    return found


def all_sequences(
    state: State, rules: Rules = RUSSIAN, blocked: Optional[int] = None
) -> list[RefMove]:
    """§3.1: if any capture exists, only captures are legal; otherwise the quiet moves.
    With ``rules.majority`` only the captures taking the most pieces; with
    ``rules.captures_optional`` the quiet moves too. ``blocked``: the square index of a
    king that may make no quiet move now (Frisian: three in a row while men remain)."""
    captures = []
    n = len(state.grid)
    if rules.crowning_wins and any(
        piece is not None and owner(piece) != state.turn and is_king(piece)
        for row in state.grid
        for piece in row
    ):
        return []  # breakthrough: the opponent has crowned, the game is over
    for rank in range(n):
        for file in range(n):
            if owner(state.grid[rank][file]) == state.turn:
                captures.extend(capture_sequences(state, file, rank, rules))
    if captures:
        captures = _by_priority(state, captures, rules)
    quiet = [m for m in quiet_moves(state, rules) if m.start != blocked]
    if rules.captures_optional:
        return captures + quiet
    return captures if captures else quiet


def _by_priority(state: State, captures: list[RefMove], rules: Rules) -> list[RefMove]:
    """The captures the rules' priority allows among all capture sequences."""

    n = len(state.grid)

    def kings_in(squares: tuple[int, ...]) -> list[bool]:
        out = []
        for sq in squares:
            f, r = square_coords(sq, n)
            piece = state.grid[r][f]
            out.append(piece is not None and is_king(piece))
        return out

    def by_king(m: RefMove) -> bool:
        f, r = square_coords(m.start, n)
        piece = state.grid[r][f]
        return piece is not None and is_king(piece)

    priority = "majority" if rules.majority else rules.priority
    if priority == "free":
        return captures
    if priority == "king_first":
        kings = [m for m in captures if by_king(m)]
        return kings if kings else captures
    rank: dict[int, tuple[object, ...]]
    if priority == "majority":
        rank = {id(m): (len(m.captured),) for m in captures}
    elif priority == "pieces_then_kings":
        rank = {id(m): (len(m.captured), sum(kings_in(m.order))) for m in captures}
    elif priority == "value":
        # A king is worth 2 - 1/64 men: less than two men, more than one; then a king's
        # capture.
        def value(m: RefMove) -> int:
            kings = sum(kings_in(m.order))
            men = len(m.captured) - kings
            return (2 * kings + men) * 64 - kings

        rank = {id(m): (value(m), by_king(m)) for m in captures}
    elif priority == "italian":
        # The most pieces; then a king capturing; then the most kings; then the capture
        # whose kings come earliest (compared capture by capture).
        rank = {
            id(m): (len(m.captured), by_king(m), sum(kings_in(m.order)), tuple(kings_in(m.order)))
            for m in captures
        }
    else:
        raise ValueError(f"unknown capture priority {priority!r}")
    best = max(rank.values())
    return [m for m in captures if rank[id(m)] == best]


def distinct_moves(
    state: State, distinct: bool = True, rules: Rules = RUSSIAN, blocked: Optional[int] = None
) -> list[RefMove]:
    """The moves under a counting convention.

    Convention A (``distinct=True``): one move per (start, end, captured set, promotion),
    the identity that determines the position after the move. Convention B: one per
    (start, end, order of the captured pieces): several intermediate landing squares of a
    king that lead to the same captures in the same order count once.
    """
    if rules.either_colour:
        return _either_colour_moves(state, distinct, rules)
    seen: set[object] = set()
    out = []
    for move in all_sequences(state, rules, blocked):
        key: object = move.key() if distinct else (move.start, move.end, move.order, move.promotes)
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out


def _either_colour_moves(state: State, distinct: bool, rules: Rules) -> list[RefMove]:
    """Stavropol draughts: the moves of the side to move's pieces and of the other colour's,
    each by its own colour's rules (the other colour's are its moves with that side to
    move). A capture of either colour is compulsory when there is one; a side whose own
    colour has no move has lost (no moves)."""
    one_side = replace(rules, either_colour=False)
    own = distinct_moves(state, distinct, one_side)
    if not own:
        return []
    other = distinct_moves(State(state.grid, "B" if state.turn == "W" else "W"), distinct, one_side)
    both = own + other
    if rules.captures_optional or not any(m.captured for m in both):
        return both
    if rules.own_captures_first and any(m.captured for m in own):
        return [m for m in own if m.captured]
    return [m for m in both if m.captured]


def apply(state: State, move: MoveLike) -> State:
    """Play a move: the piece goes from start to end, captured pieces leave the board only
    now (§3.6), a promoting man becomes a king, the turn passes (to the other side, whoever's
    piece moved: in Stavropol draughts a side may move the other colour's)."""
    n = len(state.grid)
    sf, sr = square_coords(move.start, n)
    mover = owner(state.grid[sr][sf])
    if mover is not None and mover != state.turn:
        after = apply(State(state.grid, mover), move)
        return State(after.grid, "B" if state.turn == "W" else "W")
    grid = [row[:] for row in state.grid]
    n = len(grid)
    sf, sr = square_coords(move.start, n)
    ef, er = square_coords(move.end, n)
    piece = grid[sr][sf]
    assert piece is not None
    grid[sr][sf] = None
    for sq in move.captured:
        cf, cr = square_coords(sq, n)
        grid[cr][cf] = None
    grid[er][ef] = piece.upper() if move.promotes else piece
    return State(grid, "B" if state.turn == "W" else "W")


# ---- the interface other tools use --------------------------------------------------------


def legal_moves(fen: str, rules: Rules = RUSSIAN, blocked: Optional[int] = None) -> list[RefMove]:
    """The distinct legal moves of a FEN (``blocked``: as :func:`all_sequences`)."""
    return distinct_moves(parse_fen(fen, size=rules.size), rules=rules, blocked=blocked)


def play(fen: str, move: MoveLike, rules: Rules = RUSSIAN) -> str:
    """The FEN after a legal move (matched by start, end, captured set and promotion)."""
    state = parse_fen(fen, size=rules.size)
    key = (move.start, move.end, frozenset(move.captured), move.promotes)
    for legal in distinct_moves(state, rules=rules):
        if legal.key() == key:
            return write_fen(apply(state, legal))
    raise ValueError(f"move {key} is not legal in {fen}")


def perft(fen: str, depth: int, distinct: bool = True, rules: Rules = RUSSIAN) -> int:
    """Leaves of the move tree ``depth`` plies deep, in convention A or B."""

    def count(state: State, depth: int) -> int:
        if depth == 0:
            return 1
        moves = distinct_moves(state, distinct, rules)
        if depth == 1:
            return len(moves)
        return sum(count(apply(state, m), depth - 1) for m in moves)

    return count(parse_fen(fen, size=rules.size), depth)


START: dict[str, str] = {
    "russian": "W:W21-32:B1-12",
    "giveaway": "W:W21-32:B1-12",
    "brazilian": "W:W21-32:B1-12",
    "diagonal": _diagonal_start(),
    "english": "B:W21-32:B1-12",
    "italian": "W:W21-32:B1-12",
    "spanish": "W:W21-32:B1-12",
    "portuguese": "W:W21-32:B1-12",
    "czech": "W:W21-32:B1-12",
    "pool": "B:W21-32:B1-12",
    "thai": "B:W25-32:B1-8",
    "international": "W:W31-50:B1-20",
    "antidraughts": "W:W31-50:B1-20",
    "killer": "W:W31-50:B1-20",
    "breakthrough": "W:W31-50:B1-20",
    "frisian": "W:W31-50:B1-20",
    "frysk": "W:W46-50:B1-5",
    "canadian": "W:W43-72:B1-30",
}
"""The start position of each game, in this module's coordinates (Russian draughts' numbers;
:func:`game_fen` writes it in the game's own)."""


# ---- Turkish draughts (docs/variants.md, "Turkish draughts") -----------------------------
#
# Every square of the 8×8 board is played, so the dark-square helpers above do not apply:
# here a square's index is ``8 × rank + file`` (0 = a1, 7 = h1, 63 = h8), the main API's
# index for this game, and a FEN numbers the squares as the game does, 1 = a8 … 8 = h8,
# 9 = a7 … 64 = h1 (row by row from Black's side), or names them (``d3``).

TURKISH_START = "W:W41-56:B9-24"
"""Sixteen men each on the second and third ranks (White on a2–h3, Black on a6–h7)."""

ROOK_LINES = ((1, 0), (-1, 0), (0, 1), (0, -1))  # (file step, rank step)


def turkish_index(file: int, rank: int) -> int:
    return 8 * rank + file


def turkish_coords(index: int) -> tuple[int, int]:
    return index % 8, index // 8


def turkish_number(file: int, rank: int) -> int:
    """The game's square number: 1 = a8, along each rank to h, ranks from 8 down to 1."""
    return (7 - rank) * 8 + file + 1


def turkish_parse_fen(fen: str) -> State:
    """A FEN of Turkish draughts (numbers 1-64, ranges, or square names)."""

    def coords(number: int) -> tuple[int, int]:
        if not 1 <= number <= 64:
            raise ValueError(f"square number {number} is not within 1-64")
        return (number - 1) % 8, 7 - (number - 1) // 8

    return parse_fen(fen, coords, 8, every_square=True)


def turkish_write_fen(state: State) -> str:
    fields = []
    for color in ("W", "B"):
        tokens = []
        for rank in range(8):
            for file in range(8):
                piece = state.grid[rank][file]
                if owner(piece) == color:
                    king = "K" if piece is not None and is_king(piece) else ""
                    tokens.append(
                        (turkish_number(file, rank), f"{king}{turkish_number(file, rank)}")
                    )
        fields.append(color + ",".join(t for _, t in sorted(tokens)))
    return f"{state.turn}:{fields[0]}:{fields[1]}"


def turkish_captures(state: State, file: int, rank: int) -> list[RefMove]:
    """Every capture sequence of the piece on (file, rank), whatever its length.

    A man jumps an adjacent enemy piece forward or sideways to the empty square just
    behind it; a king looks along its rank and file, over any number of empty squares, for
    an enemy piece with an empty square behind it, and may land on any empty square behind
    it. Each piece taken leaves the board at once (so its square may be crossed again), a
    jump never goes straight back along the line of the one before, and the sequence goes
    on while the piece can jump. A man landing on the far rank is crowned there and its
    move ends.
    """
    grid = [row[:] for row in state.grid]
    piece = grid[rank][file]
    assert piece is not None
    me = owner(piece)
    king = is_king(piece)
    grid[rank][file] = None  # the piece has left its square
    lines = ROOK_LINES if king else ((1, 0), (-1, 0), (0, forward(state.turn)))
    far = crowning_rank(state.turn)
    start = turkish_index(file, rank)
    found: list[RefMove] = []

    def enemy(f: int, r: int) -> bool:
        return on_board(f, r) and grid[r][f] is not None and owner(grid[r][f]) != me

    def empty(f: int, r: int) -> bool:
        return on_board(f, r) and grid[r][f] is None

    def record(f: int, r: int, taken: list[int], path: list[int], promotes: bool) -> None:
        found.append(
            RefMove(
                start=start,
                end=turkish_index(f, r),
                captured=frozenset(taken),
                path=tuple(path),
                promotes=promotes,
                order=tuple(taken),
            )
        )

    def extend(
        f: int, r: int, came: Optional[tuple[int, int]], taken: list[int], path: list[int]
    ) -> None:
        jumped = False
        for df, dr in lines:
            if came is not None and (df, dr) == (-came[0], -came[1]):
                continue  # no turn of 180 degrees
            if king:
                vf, vr = f + df, r + dr
                while empty(vf, vr):
                    vf, vr = vf + df, vr + dr
            else:
                vf, vr = f + df, r + dr
            if not enemy(vf, vr) or not empty(vf + df, vr + dr):
                continue
            victim_piece = grid[vr][vf]
            grid[vr][vf] = None  # taken pieces leave at once
            victim = turkish_index(vf, vr)
            lf, lr = vf + df, vr + dr
            while empty(lf, lr):
                jumped = True
                landing = turkish_index(lf, lr)
                if not king and lr == far:
                    record(lf, lr, taken + [victim], path + [landing], True)
                else:
                    extend(lf, lr, (df, dr), taken + [victim], path + [landing])
                if not king:
                    break  # a man lands just behind its victim
                lf, lr = lf + df, lr + dr
            grid[vr][vf] = victim_piece
        if not jumped and taken:
            record(f, r, taken, path, False)

    extend(file, rank, None, [], [])
    return found


def turkish_quiet_moves(state: State) -> list[RefMove]:
    """A man steps to the empty square ahead or beside it (crowned on the far rank); a king
    moves like a rook over empty squares."""
    moves = []
    far = crowning_rank(state.turn)
    for rank in range(8):
        for file in range(8):
            piece = state.grid[rank][file]
            if piece is None or owner(piece) != state.turn:
                continue
            start = turkish_index(file, rank)
            if is_king(piece):
                for df, dr in ROOK_LINES:
                    f, r = file + df, rank + dr
                    while on_board(f, r) and state.grid[r][f] is None:
                        end = turkish_index(f, r)
                        moves.append(RefMove(start, end, frozenset(), (end,), False))
                        f, r = f + df, r + dr
            else:
                for df, dr in ((1, 0), (-1, 0), (0, forward(state.turn))):
                    f, r = file + df, rank + dr
                    if on_board(f, r) and state.grid[r][f] is None:
                        end = turkish_index(f, r)
                        moves.append(RefMove(start, end, frozenset(), (end,), r == far))
    return moves


def turkish_moves(state: State, distinct: bool = True) -> list[RefMove]:
    """The legal moves: the captures taking the most pieces (a king and a man count one
    each) if there is any capture, otherwise the quiet moves; under convention A one per
    (start, end, captured set, promotion), under B one per (start, end, order taken)."""
    captures = [
        m
        for rank in range(8)
        for file in range(8)
        if owner(state.grid[rank][file]) == state.turn
        for m in turkish_captures(state, file, rank)
    ]
    if captures:
        most = max(len(m.captured) for m in captures)
        candidates = [m for m in captures if len(m.captured) == most]
    else:
        candidates = turkish_quiet_moves(state)
    seen: set[object] = set()
    out = []
    for move in candidates:
        key: object = move.key() if distinct else (move.start, move.end, move.order, move.promotes)
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out


def turkish_apply(state: State, move: MoveLike) -> State:
    grid = [row[:] for row in state.grid]
    sf, sr = turkish_coords(move.start)
    ef, er = turkish_coords(move.end)
    piece = grid[sr][sf]
    assert piece is not None
    grid[sr][sf] = None
    for sq in move.captured:
        cf, cr = turkish_coords(sq)
        grid[cr][cf] = None
    grid[er][ef] = piece.upper() if move.promotes else piece
    return State(grid, "B" if state.turn == "W" else "W")


def turkish_legal_moves(fen: str, distinct: bool = True) -> list[RefMove]:
    """The legal moves of a Turkish draughts FEN."""
    return turkish_moves(turkish_parse_fen(fen), distinct)


def turkish_perft(fen: str, depth: int, distinct: bool = True) -> int:
    """Leaves of the Turkish draughts move tree ``depth`` plies deep."""

    def count(state: State, depth: int) -> int:
        if depth == 0:
            return 1
        moves = turkish_moves(state, distinct)
        if depth == 1:
            return len(moves)
        return sum(count(turkish_apply(state, m), depth - 1) for m in moves)

    return count(turkish_parse_fen(fen), depth)
