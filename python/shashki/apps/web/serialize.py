"""Output: moves, game states, search reports and game trees as JSON for the page."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

import shashki
from shashki import Board, Game
from shashki.apps.web.columns import ColumnGame, columns_json, grid_json
from shashki.columns import ColumnBoard

if TYPE_CHECKING:
    from shashki.egtb import EndgameTables

_TURNED = frozenset(card.name for card in shashki.games() if card.turned)
"""The games on the turned board (drawn mirrored by the page: the core stores them so)."""
_SIZES = {card.name: card.board_size for card in (*shashki.games(), *shashki.games(columns=True))}
"""Each game's board side (the page draws 7×7 for Lasca, 8×8, 10×10, 12×12)."""
_EVERY_SQUARE = frozenset(card.name for card in shashki.games() if card.every_square)
"""The games played on every square of the board (Turkish draughts)."""


def move_json(board: Union[Board, ColumnBoard], move: shashki.Move) -> dict[str, Any]:
    return {
        "start": move.start,
        "end": move.end,
        "path": list(move.path),
        "captured": sorted(move.captured),
        "promotes": move.promotes,
        "long": move.text(notation="algebraic"),  # the page reads its squares
        "text": board.move_text(move),
        "numeric": board.move_text(move, notation="numeric"),
    }


def state_json(
    game: Union[Game, ColumnGame], tables: Optional[EndgameTables] = None
) -> dict[str, Any]:
    """The game's state for the page; with ``tables`` (the server's ``--tables``), the
    tables' value of the position when they hold it (:func:`tables_json`)."""
    board = game.current_board
    pieces = {}
    for square in range(shashki.game_info(game.variant).square_count):
        piece = board.piece_at(square)
        if piece is not None:
            pieces[square] = piece.symbol()
    replay = game.board()
    history = []
    for move in game.mainline_moves():
        history.append({"long": move.text(notation="algebraic"), "text": replay.move_text(move)})
        replay.push(move)
    outcome = game.outcome()
    out = {
        "fen": board.fen(),
        "start_fen": game.start_fen,
        "variant": game.variant,
        "turned": game.variant in _TURNED,
        "size": _SIZES.get(game.variant, 8),
        "every_square": game.variant in _EVERY_SQUARE,
        "captures_optional": game.captures_optional,
        "turn": "white" if board.turn else "black",
        "pieces": pieces,
        "legal": [move_json(board, m) for m in board.legal_moves],
        "must_capture": board.has_captures() and not game.captures_optional,
        "moves": history,
        "result": game.result(),
        "termination": None if outcome is None else outcome.termination.value,
        "draw_counters": [str(c) for c in game.draw_counters()],
        # The game's players write square numbers: the board shows them (its card's notation).
        "numbers": _numbers(game.variant),
    }
    if tables is not None and isinstance(game, Game):
        out["tables"] = tables_json(game, tables)
    if isinstance(game, ColumnGame):
        # A square holds a column: its pieces from the top down, drawn as a stack, and
        # each square's place (Lasca's 7×7 board is not the page's even-sided layout).
        assert isinstance(board, ColumnBoard)
        out["columns"] = columns_json(board)
        out["grid"] = grid_json(game.variant)
    return out


def tables_json(game: Game, tables: EndgameTables) -> Optional[dict[str, Any]]:
    """The endgame tables' word on the position, or None when they do not hold it (another
    game, more pieces, captures optional, the game over): the side to move's ``wdl`` (1, 0,
    -1) and ``plies`` under the move rules alone, the winner's ``moves``, the ``best`` move
    (its text), and ``rules_wdl``: the value once the game's draw rules have had their say
    (a win too long for a count that runs now is a draw)."""
    if game.is_game_over():
        return None
    board = game.current_board
    value = tables.probe(board)
    if value is None:
        return None
    ruled = tables.probe(board, draw_rules=game.draw_rules)
    best = tables.best_move(board)
    return {
        "wdl": value.wdl,
        "plies": value.plies,
        "moves": value.moves,
        "best": None if best is None else board.move_text(best),
        "rules_wdl": value.wdl if ruled is None else ruled.wdl,
    }


def _numbers(variant: str) -> list[int] | None:
    card = shashki.game_info(variant)
    if card.notation != "numeric":
        return None
    return [shashki.square_number(i, variant=variant) for i in range(card.square_count)]


def info_json(info: dict[str, Any], board: Union[Board, ColumnBoard]) -> dict[str, Any]:
    score = info["score"]
    white = score.white()
    texts = []
    replay = board.copy()
    for move in info.get("pv", []):
        try:
            texts.append(replay.move_text(move))
            replay.push(move)
        except ValueError:
            break
    return {
        "multipv": info.get("multipv", 1),
        "depth": info.get("depth", 0),
        "score": str(white),
        "cp": None if white.cp is None else white.cp,
        "win": white.win,
        "pv": texts,
        "nodes": info.get("nodes", 0),
        "nps": info.get("nps", 0),
        "time": info.get("time", 0.0),
    }


def _tree_json(node: Any, board: Board) -> dict[str, Any]:
    """A game node's variations as nested JSON (iterative: deep games do not recurse)."""
    root: dict[str, Any] = {"children": [], "comment": ""}
    stack = [(node, board, root)]
    while stack:
        current, position, out = stack.pop()
        for child in current.variations:
            entry = {
                "long": child.move.text(notation="algebraic"),
                "text": position.move_text(child.move),
                "comment": child.comment,
                "nags": list(child.nags),
                "children": [],
            }
            out["children"].append(entry)
            after = position.copy()
            after.push(child.move)
            stack.append((child, after, entry))
    return root
