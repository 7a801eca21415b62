"""The column games' rules in plain Python, written from the rules' texts (not from the Rust
code): towers (столбовые шашки, Bashni) in the Russian tradition and Lasca (Lasker's rules).

A slow, obvious implementation for differential tests against ``shashki._core``
(``tests/test_stacks.py``). A position is a dict from ``(file, rank)`` to its column, a
string of pieces from the top down (``w``, ``b`` men, ``W``, ``B`` kings), and the side to
move. What each function follows (docs/variants.md, "Towers" and "Lasca"):

* a column moves as its top piece: a man-topped one a square diagonally forward, a
  king-topped one as a king (towers: any distance along a diagonal; Lasca: one square);
* a capture jumps a column topped by the opponent (a man: to the square just behind it,
  forwards and backwards in towers, forwards only in Lasca; a towers king: from any
  distance over empty squares, landing on any empty square behind it, and where some
  landings let the capture go on, on one of those), takes only its top piece and puts it
  under the capturing column when the move ends; a column jumped once cannot be jumped
  again in the move and stands in the way until the move ends; the capturing column's
  start square is empty during the move;
* capturing is compulsory, any capture may be chosen, and a capture is played to its end;
* a man-topped column reaching the far rank has its top crowned: in towers during a
  capture too, going on as a king; in Lasca the move ends there;
* a side without a legal move has lost.
"""

from __future__ import annotations

from dataclasses import dataclass

Columns = dict[tuple[int, int], str]
Square = tuple[int, int]
Jumped = tuple[Square, ...]


@dataclass(frozen=True)
class Game:
    """The rules of a column game: its board's side, whether men capture backwards, whether
    kings fly, whether a man crowned during a capture goes on as a king."""

    name: str
    size: int
    men_capture_backwards: bool
    flying_kings: bool
    crown_during_capture: bool
    #: The western reading of towers: a column's top is taken (and goes under the capturing
    #: column) as it is jumped, so the rest of the column, or an empty square, is what the
    #: move meets afterwards; a column may be jumped again, though not twice in a row.
    western: bool = False


TOWERS = Game("towers", 8, True, True, True)
LASCA = Game("lasca", 7, False, False, False)
#: Towers as Michaelsen and Pakhomov's rules give it (Ludii's Bashni, jpneto's pages): men
#: capture forwards only; prisoners are taken as they are jumped; a column may be jumped
#: again once another capture came between.
TOWERS_WESTERN = Game("towers-western", 8, False, True, True, western=True)
GAMES = {"towers": TOWERS, "lasca": LASCA, "towers-western": TOWERS_WESTERN}


@dataclass(frozen=True)
class ColumnMove:
    """A move: start, landings, the squares jumped in order, whether the top is crowned."""

    start: tuple[int, int]
    path: tuple[tuple[int, int], ...]
    jumped: tuple[tuple[int, int], ...]
    promotes: bool

    @property
    def end(self) -> tuple[int, int]:
        return self.path[-1]


@dataclass
class State:
    columns: Columns
    turn: str  # "W" or "B"


# ---- squares and FEN ----------------------------------------------------------------------


def playable(game: Game, file: int, rank: int) -> bool:
    """Both boards are played on the squares of a1's colour (Lasca's 25 include its
    corners)."""
    return 0 <= file < game.size and 0 <= rank < game.size and (file + rank) % 2 == 0


def lasca_squares() -> list[tuple[int, int]]:
    """Lasca's squares by number: 1 = a1, 2 = c1, … rank by rank from White's side."""
    return [(f, r) for r in range(7) for f in range(7) if (f + r) % 2 == 0]


def square_of(game: Game, token: str) -> tuple[int, int]:
    token = token.strip()
    if token.isdigit():
        if game.name == "lasca":
            return lasca_squares()[int(token) - 1]
        n = int(token)  # towers' numbers: Russian draughts' PDN (1 = b8, 32 = g1)
        row, col = divmod(n - 1, 4)
        rank = 7 - row
        return col * 2 + (1 if rank % 2 else 0), rank
    file, rank = ord(token[0]) - ord("a"), int(token[1:]) - 1
    if not playable(game, file, rank):
        raise ValueError(f"{token} is not a square of {game.name}")
    return file, rank


def name_of(game: Game, square: tuple[int, int]) -> str:
    if game.name == "lasca":
        return str(lasca_squares().index(square) + 1)
    return "abcdefgh"[square[0]] + str(square[1] + 1)


def parse_fen(game: Game, fen: str) -> State:
    """``W:Wc3(bB),e3:Bd6``: each colour's columns by their top pieces (``K`` a king), the
    pieces under a top in parentheses, top first."""
    fields = fen.strip().split(":")
    columns: Columns = {}
    for field in fields[1:]:
        field = field.strip()
        if not field or field[0] in "HF":
            continue
        color = field[0]
        for token in field[1:].split(","):
            token = token.strip()
            if not token:
                continue
            under = ""
            if "(" in token:
                token, under = token[:-1].split("(")
            king = token.startswith("K")
            top = color if king else color.lower()
            columns[square_of(game, token.lstrip("K"))] = top + under
    return State(columns, fields[0].strip())


def write_fen(game: Game, state: State) -> str:
    parts = [state.turn]
    for color in "WB":
        items = []
        for sq, column in state.columns.items():
            if column[0].upper() != color:
                continue
            name = name_of(game, sq)
            key = int(name) if name.isdigit() else (ord(name[0]), int(name[1:]))
            text = ("K" if column[0].isupper() else "") + name
            if len(column) > 1:
                text += "(" + column[1:] + ")"
            items.append((key, text))
        parts.append(color + ",".join(t for _, t in sorted(items)))
    return ":".join(parts)


def start(game: Game) -> State:
    """Each side's men on its three nearest ranks (12 in towers, 11 in Lasca)."""
    columns: Columns = {}
    for rank in range(game.size):
        for file in range(game.size):
            if playable(game, file, rank):
                if rank < 3:
                    columns[(file, rank)] = "w"
                elif rank >= game.size - 3:
                    columns[(file, rank)] = "b"
    return State(columns, "W")


# ---- moves ----------------------------------------------------------------------------------


def forward(turn: str) -> int:
    return 1 if turn == "W" else -1


def far_rank(game: Game, turn: str) -> int:
    return game.size - 1 if turn == "W" else 0


def quiet_moves(game: Game, state: State) -> list[ColumnMove]:
    moves = []
    for (f, r), column in state.columns.items():
        if column[0].upper() != state.turn:
            continue
        king = column[0].isupper()
        dirs = [(df, dr) for df in (-1, 1) for dr in (-1, 1)]
        if not king:
            dirs = [(df, dr) for df, dr in dirs if dr == forward(state.turn)]
        for df, dr in dirs:
            g, s = f + df, r + dr
            while playable(game, g, s) and (g, s) not in state.columns:
                promotes = not king and s == far_rank(game, state.turn)
                moves.append(ColumnMove((f, r), ((g, s),), (), promotes))
                if not (king and game.flying_kings):
                    break
                g, s = g + df, s + dr
    return moves


def captures_from(game: Game, state: State, sq: tuple[int, int]) -> list[ColumnMove]:
    """Every complete capture of the column on ``sq``."""
    if game.western:
        return _western_captures(game, state, sq)
    turn = state.turn
    begin = sq
    out: list[ColumnMove] = []

    def occupied(p: tuple[int, int]) -> bool:
        # The start square is empty once the column has left it; jumped columns stay.
        return p in state.columns and p != begin

    def legs(at: Square, king: bool, jumped: Jumped) -> list[tuple[Square, list[Square]]]:
        """(jumped square, landing squares) of each capture from ``at``."""
        result = []
        for df in (-1, 1):
            for dr in (-1, 1):
                if not king and not game.men_capture_backwards and dr != forward(turn):
                    continue
                g, s = at[0] + df, at[1] + dr
                if king and game.flying_kings:
                    while playable(game, g, s) and not occupied((g, s)):
                        g, s = g + df, s + dr
                if not playable(game, g, s) or not occupied((g, s)):
                    continue
                target = (g, s)
                if target in jumped or state.columns[target][0].upper() == turn:
                    continue
                landings = []
                g, s = g + df, s + dr
                while playable(game, g, s) and not occupied((g, s)):
                    landings.append((g, s))
                    if not (king and game.flying_kings):
                        break
                    g, s = g + df, s + dr
                if landings:
                    result.append((target, landings))
        return result

    def extend(at: Square, king: bool, path: list[Square], jumped: Jumped, promotes: bool) -> None:
        options = legs(at, king, jumped)
        if not options:
            if jumped:
                out.append(ColumnMove(begin, tuple(path), tuple(jumped), promotes))
            return
        for target, landings in options:
            # A king must land where the capture can go on, if it can anywhere.
            going_on = [land for land in landings if legs_after(land, king, jumped + (target,))]
            for land in going_on or landings:
                crowned = king
                ends = False
                if not king and land[1] == far_rank(game, turn):
                    if game.crown_during_capture:
                        crowned = True
                    else:
                        ends = True
                if ends:
                    out.append(
                        ColumnMove(begin, tuple(path + [land]), tuple(jumped) + (target,), True)
                    )
                    continue
                extend(
                    land, crowned, path + [land], jumped + (target,), promotes or crowned != king
                )

    def legs_after(at: Square, king: bool, jumped: Jumped) -> bool:
        crowned = king or (game.crown_during_capture and at[1] == far_rank(game, turn))
        if not king and not game.crown_during_capture and at[1] == far_rank(game, turn):
            return False
        return bool(legs(at, crowned, jumped))

    top = state.columns[sq][0]
    extend(sq, top.isupper(), [], (), False)
    return out


def _western_captures(game: Game, state: State, sq: Square) -> list[ColumnMove]:
    """The western reading's captures of the column on ``sq``: each leg takes the top of
    the column it jumps at once (the board it leaves is the next leg's), any column topped
    by the opponent may be jumped but the one just jumped, a man forwards only (a man
    crowned on the far rank goes on as a king), a king from any distance over empty
    squares to any empty square behind, on one from which the capture goes on where one
    exists."""
    turn = state.turn
    begin = sq
    out: list[ColumnMove] = []
    board = dict(state.columns)
    del board[begin]  # the moving column is off its square while it moves

    Leg = tuple[Square, Columns, list[Square]]

    def legs(columns: Columns, at: Square, king: bool, last: object) -> list[Leg]:
        result = []
        for df in (-1, 1):
            for dr in (-1, 1):
                if not king and dr != forward(turn):
                    continue
                g, s = at[0] + df, at[1] + dr
                if king:
                    while playable(game, g, s) and (g, s) not in columns:
                        g, s = g + df, s + dr
                target = (g, s)
                if not playable(game, g, s) or target not in columns or target == last:
                    continue
                if columns[target][0].upper() == turn:
                    continue
                after = dict(columns)
                if len(after[target]) > 1:
                    after[target] = after[target][1:]
                else:
                    del after[target]
                landings: list[Square] = []
                g, s = g + df, s + dr
                while playable(game, g, s) and (g, s) not in after:
                    landings.append((g, s))
                    if not king:
                        break
                    g, s = g + df, s + dr
                if landings:
                    result.append((target, after, landings))
        return result

    def extend(columns: Columns, at: Square, king: bool, path: list[Square], jumped: Jumped,
               promotes: bool, last: object) -> None:  # fmt: skip
        options = legs(columns, at, king, last)
        if not options:
            if jumped:
                out.append(ColumnMove(begin, tuple(path), jumped, promotes))
            return
        for target, after, landings in options:

            def crowned_at(land: Square) -> bool:
                return king or land[1] == far_rank(game, turn)

            going_on = [land for land in landings if legs(after, land, crowned_at(land), target)]
            for land in going_on or landings:
                extend(after, land, crowned_at(land), path + [land], jumped + (target,),
                       promotes or crowned_at(land) != king, target)  # fmt: skip

    top = state.columns[sq][0]
    extend(board, sq, top.isupper(), [], (), False, None)
    return out


def play(state: State, move: ColumnMove) -> State:
    """The column moves; each column jumped gives its top piece, which goes under the moving
    column, in the order taken; a crowned top becomes a king."""
    columns = dict(state.columns)
    mover = columns.pop(move.start)
    for sq in move.jumped:
        taken, rest = columns[sq][0], columns[sq][1:]
        if rest:
            columns[sq] = rest
        else:
            del columns[sq]
        mover = mover + taken
    if move.promotes:
        mover = mover[0].upper() + mover[1:]
    columns[move.end] = mover
    return State(columns, "B" if state.turn == "W" else "W")


def legal_moves(game: Game, state: State, distinct: bool = True) -> list[ColumnMove]:
    """The legal moves: the captures if any (compulsory, free choice), else the quiet moves.
    ``distinct``: one move per position it leads to (convention A); otherwise one per order
    of the squares jumped (convention B)."""
    captures = [
        m
        for sq, column in state.columns.items()
        if column[0].upper() == state.turn
        for m in captures_from(game, state, sq)
    ]
    moves = captures or quiet_moves(game, state)
    seen: set[object] = set()
    out = []
    for m in moves:
        key: object = (
            (m.start, m.end, write_fen(game, play(state, m)))
            if distinct
            else (m.start, m.end, m.jumped)
        )
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def perft(game: Game, state: State, depth: int, distinct: bool = True) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(game, state, distinct)
    if depth == 1:
        return len(moves)
    return sum(perft(game, play(state, m), depth - 1, distinct) for m in moves)
