"""Board pictures as SVG (imported lazily by ``Board._repr_svg_``).

>>> import shashki, shashki.svg
>>> shashki.svg.board(shashki.Board()).startswith("<svg")
True
"""

from __future__ import annotations

from typing import Optional

from shashki import BOARD_SIZES, SQUARE_COUNTS, Board, Move, square_name

SQUARE = 45
MARGIN = 20
LIGHT, DARK = "#f0d9b5", "#b58863"
PIECE_FILL = {True: "#fafafa", False: "#222222"}
PIECE_STROKE = {True: "#333333", False: "#000000"}


def _layout(variant: str) -> tuple[int, list[tuple[int, int]]]:
    """The side of the variant's board and each square's (file, rank), 0-based from a1, read
    from the game's own square names (so every board is drawn as its game names it: Italian
    draughts' squares from h1, Turkish draughts' every square, the 12×12 board)."""
    layout = _LAYOUTS.get(variant)
    if layout is None:
        n = BOARD_SIZES.get(variant, 8)
        squares = []
        for square in range(SQUARE_COUNTS.get(variant, 32)):
            name = square_name(square, variant=variant)
            squares.append((ord(name[0]) - ord("a"), int(name[1:]) - 1))
        layout = _LAYOUTS[variant] = (n, squares)
    return layout


_LAYOUTS: dict[str, tuple[int, list[tuple[int, int]]]] = {}


def _point(file: int, rank: int, flipped: bool, n: int) -> tuple[float, float]:
    col, row = (n - 1 - file, rank) if flipped else (file, n - 1 - rank)
    return MARGIN + col * SQUARE + SQUARE / 2, MARGIN + row * SQUARE + SQUARE / 2


def board(
    board: Board,
    *,
    lastmove: Optional[Move] = None,
    flipped: bool = False,
    coordinates: bool = True,
    size: Optional[int] = None,
) -> str:
    """An SVG picture of ``board``: squares, pieces (kings with a crown ring), coordinates,
    and an arrow along ``lastmove``'s path."""
    n, squares = _layout(board.variant)
    playable = set(squares)
    every_square = len(playable) == n * n
    full = 2 * MARGIN + n * SQUARE
    width = size or full
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {full} {full}" '
        f'width="{width}" height="{width}">',
        f'<rect x="0" y="0" width="{full}" height="{full}" fill="#6b4a2b"/>',
    ]
    for row in range(n):
        for col in range(n):
            file, rank = (n - 1 - col, row) if flipped else (col, n - 1 - row)
            # The playing squares dark; a board of every square (Turkish) checkered.
            dark = (file + rank) % 2 == 0 if every_square else (file, rank) in playable
            fill = DARK if dark else LIGHT
            x, y = MARGIN + col * SQUARE, MARGIN + row * SQUARE
            out.append(f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>')
    if coordinates:
        for i in range(n):
            file_char = "abcdefghijkl"[n - 1 - i if flipped else i]
            rank_char = str((i if flipped else n - 1 - i) + 1)
            pos = MARGIN + i * SQUARE + SQUARE / 2
            out.append(
                f'<text x="{pos}" y="{full - 5}" font-size="12" text-anchor="middle" '
                f'fill="#eee">{file_char}</text>'
            )
            out.append(
                f'<text x="9" y="{pos + 4}" font-size="12" text-anchor="middle" '
                f'fill="#eee">{rank_char}</text>'
            )
    for square, (file, rank) in enumerate(squares):
        piece = board.piece_at(square)
        if piece is None:
            continue
        cx, cy = _point(file, rank, flipped, n)
        r = SQUARE * 0.38
        out.append(
            f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{PIECE_FILL[piece.color]}" '
            f'stroke="{PIECE_STROKE[piece.color]}" stroke-width="2">'
            f"<title>{square_name(square, variant=board.variant)}</title></circle>"
        )
        if piece.king:
            out.append(
                f'<circle cx="{cx}" cy="{cy}" r="{r * 0.5}" fill="none" stroke="#d4a017" '
                f'stroke-width="3"/>'
            )
    if lastmove is not None:
        points = [_point(*squares[sq], flipped, n) for sq in (lastmove.start, *lastmove.path)]
        coords = " ".join(f"{x},{y}" for x, y in points)
        out.append(
            '<defs><marker id="arrowhead" markerWidth="4" markerHeight="4" refX="2" refY="2" '
            'orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="#15781b"/></marker></defs>'
        )
        out.append(
            f'<polyline points="{coords}" fill="none" stroke="#15781b" stroke-width="6" '
            f'stroke-opacity="0.7" marker-end="url(#arrowhead)"/>'
        )
    out.append("</svg>")
    return "".join(out)
