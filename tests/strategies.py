"""Hypothesis strategies for Russian draughts positions (as FEN strings).

Written against the reference module's square helpers, not the Rust core, so that the
positions the tests feed to both sides are built independently of either.
"""

from __future__ import annotations

import shashki
from hypothesis import strategies as st
from shashki import reference

START_FEN = "W:W21-32:B1-12"


def fen_from_cells(cells: list[int], white_to_move: bool, size: int = 8) -> str:
    white, black = [], []
    for index, cell in enumerate(cells):
        file, rank = reference.square_coords(index, size)
        number = reference.pdn_number(file, rank, size)
        if cell == 1:  # white man, crowned if it stands on the far rank
            white.append(f"K{number}" if rank == size - 1 else str(number))
        elif cell == 2:
            black.append(f"K{number}" if rank == 0 else str(number))
        elif cell == 3:
            white.append(f"K{number}")
        elif cell == 4:
            black.append(f"K{number}")
    return f"{'W' if white_to_move else 'B'}:W{','.join(white)}:B{','.join(black)}"


@st.composite
def setups(draw: st.DrawFn) -> str:
    """Any legal setup: 0-32 pieces, men and kings of both sides, either side to move."""
    empty_weight = draw(st.integers(1, 12))
    king_weight = draw(st.integers(0, 3))
    weights = [empty_weight, 3, 3, king_weight, king_weight]
    choices = [i for i, w in enumerate(weights) for _ in range(w)]
    cells = draw(st.lists(st.sampled_from(choices), min_size=32, max_size=32))
    return fen_from_cells(cells, draw(st.booleans()))


@st.composite
def large_board_setups(draw: st.DrawFn, size: int, most_empty: int) -> str:
    """Any legal setup of the ``size``×``size`` board: men and kings of both sides, either
    side to move (empty squares weighted 2 to ``most_empty`` against each kind of piece)."""
    empty_weight = draw(st.integers(2, most_empty))
    king_weight = draw(st.integers(0, 3))
    weights = [empty_weight, 3, 3, king_weight, king_weight]
    choices = [i for i, w in enumerate(weights) for _ in range(w)]
    squares = size * size // 2
    cells = draw(st.lists(st.sampled_from(choices), min_size=squares, max_size=squares))
    return fen_from_cells(cells, draw(st.booleans()), size=size)


def ten_by_ten_setups(most_empty: int = 20) -> st.SearchStrategy[str]:
    """Any legal 10×10 setup (International draughts' board)."""
    return large_board_setups(10, most_empty)


def twelve_by_twelve_setups(most_empty: int = 24) -> st.SearchStrategy[str]:
    """Any legal 12×12 setup (Canadian draughts' board)."""
    return large_board_setups(12, most_empty)


@st.composite
def played(draw: st.DrawFn, base: st.SearchStrategy[str] | None = None) -> str:
    """A position reached by random legal play from the start or from a random setup."""
    fen = draw(base if base is not None else st.one_of(st.just(START_FEN), setups()))
    board = shashki.Board(fen)
    for _ in range(draw(st.integers(0, 70))):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    return board.fen()


def positions() -> st.SearchStrategy[str]:
    """Random setups and positions reached by play, mixed."""
    return st.one_of(setups(), played())
