"""Game-walking helpers shared by the tests."""

from __future__ import annotations

import shashki


def quiet_walk(game: shashki.Game, plies: int) -> None:
    """Play up to ``plies`` moves that capture nothing, allow no capture and repeat no
    position, until the game ends."""
    seen = {game.end().board().fen()}
    for _ in range(plies):
        if game.is_game_over():
            return
        board = game.end().board().copy()
        for move in board.legal_moves:
            board.push(move)
            fen = board.fen()
            safe = not move.is_capture and not board.has_captures() and fen not in seen
            board.pop()
            if safe:
                seen.add(fen)
                game.push(move)
                break
        else:
            return
