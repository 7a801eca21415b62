"""Openings for matches, self-play and new games: the built-in two-move openings, and the
Russian ballots (the 3-move openings drawn in tournaments) and the 150-position set that
pydraughts ships (``pip install pydraughts``; read from its files, not copied here)."""

from __future__ import annotations

import random
from pathlib import Path

import shashki

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from typing import Optional

BUILTIN_OPENINGS = [
    "c3-d4 f6-g5",
    "c3-d4 d6-c5",
    "c3-d4 b6-a5",
    "c3-b4 f6-g5",
    "c3-b4 b6-c5",
    "e3-d4 d6-c5",
    "e3-f4 f6-g5",
    "g3-h4 b6-a5",
    "g3-f4 f6-e5",
    "a3-b4 b6-a5",
]
"""Ten two-move openings (moves from the start), always available."""


def pydraughts_openings(kind: str = "ballots") -> Optional[dict[str, str]]:
    """pydraughts' openings by name → FEN: ``"ballots"`` (its ``russian.json``, 745
    three-move ballots) or ``"150"`` (the 150 positions of its Russian and Brazilian set);
    None when pydraughts is not installed."""
    try:
        import draughts  # type: ignore[import-untyped]  # pydraughts (MIT)
    except ImportError:
        return None
    import json

    folder = Path(draughts.__file__).parent / "ballot_files"
    name = "russian.json" if kind == "ballots" else "150russian_and_brazilian.json"
    with open(folder / name, encoding="utf-8") as handle:
        data = json.load(handle)
    # Both files: {"all": {name: FEN}, "standard": [names]}; the 150 set's "standard" names
    # its 150 positions.
    by_name: dict[str, str] = data["all"]
    if kind == "ballots":
        return dict(by_name)
    return {name: by_name[name] for name in data["standard"] if name in by_name}


def _valid_fen(fen: str) -> bool:
    try:
        board = shashki.Board(fen)
    except ValueError:
        return False
    return bool(board.legal_moves)


def random_openings(variant: str, *, count: int = 200, plies: int = 4, seed: int = 1) -> list[str]:
    """``count`` different positions (FENs in the game's numbering) ``plies`` random plies
    from ``variant``'s start, drawn from ``seed``: openings for the games that have no
    ballot set here."""
    import shashki

    rng = random.Random(seed)
    found: dict[str, None] = {}
    columns = shashki.game_info(variant).stacks
    for _ in range(count * 20):
        if len(found) >= count:
            break
        board = shashki.ColumnBoard(variant=variant) if columns else shashki.Board(variant=variant)
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            found.setdefault(board.fen(), None)
    return list(found)


def load_openings(kind: str, *, seed: int = 1, variant: str = "russian") -> list[str]:
    """Openings by name (``ballots``, ``150``, ``builtin`` for Russian draughts; ``random``
    for any game: :func:`random_openings`) or a file of FENs or move lists, shuffled with
    ``seed``; a ValueError when pydraughts is needed and missing, or when Russian openings
    are asked for another game."""
    if kind == "random":
        return random_openings(variant, seed=seed)
    russian_sets = ("ballots", "150", "builtin")
    if variant not in ("russian", "giveaway", "brazilian") and kind in russian_sets:
        raise ValueError(f"{kind} openings are Russian draughts'; for {variant}: random or a file")
    if kind == "builtin":
        openings = list(BUILTIN_OPENINGS)
    elif kind in ("ballots", "150"):
        found = pydraughts_openings(kind)
        if found is None:
            raise ValueError("the ballot openings come with pydraughts (pip install pydraughts)")
        openings = [fen for fen in found.values() if _valid_fen(fen)]
    else:
        lines = Path(kind).read_text(encoding="utf-8").splitlines()
        openings = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    random.Random(seed).shuffle(openings)
    return openings
