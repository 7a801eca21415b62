"""Games: a board with its history, results, draw adjudication, headers and variations.

>>> import shashki
>>> game = shashki.Game()
>>> game.push_move("c3-d4")
Move('c3-d4')
>>> game.result()
'*'
>>> game.draw_counters()
[]
>>> shashki.Game("W:WKa1:BKh2").outcome()
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import Optional, Union

from shashki import STARTING_FEN, Board, Move
from shashki.draw import (
    FMJD64,
    MAIN_ROAD,
    DrawCounter,
    DrawRules,
    History,
    Ply,
    Snapshot,
    Termination,
)

WHITE, BLACK = True, False

DECISIVE = (Termination.NO_MOVES, Termination.RESIGNATION)


@dataclass(frozen=True)
class Outcome:
    """How the game ended: a termination and the winner (``None`` for a draw)."""

    termination: Termination
    winner: Optional[bool]

    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"


@dataclass
class Node:
    """One move of a game with its annotations and the variations that replace it."""

    move: Move
    comment: str = ""
    nags: list[int] = field(default_factory=list)
    variations: list[list[Node]] = field(default_factory=list)


def _snapshot(board: Board) -> Snapshot:
    white_kings = board.pieces(WHITE, king=True)
    black_kings = board.pieces(BLACK, king=True)
    return Snapshot(
        hash=board.zobrist_hash(),
        turn=board.turn,
        white_men=len(board.pieces(WHITE, king=False)),
        white_kings=len(white_kings),
        black_men=len(board.pieces(BLACK, king=False)),
        black_kings=len(black_kings),
        white_kings_on_main_road=sum(1 for sq in white_kings if sq in MAIN_ROAD),
        black_kings_on_main_road=sum(1 for sq in black_kings if sq in MAIN_ROAD),
    )


class Headers(MutableMapping[str, str]):
    """PDN tags, in insertion order (the seven standard tags first)."""

    STANDARD = ("Event", "Site", "Date", "Round", "White", "Black", "Result")

    def __init__(self, items: Optional[dict[str, str]] = None) -> None:
        self._data: dict[str, str] = {name: "?" for name in self.STANDARD}
        self._data["Result"] = "*"
        self._data["Date"] = "????.??.??"
        self._data["GameType"] = "25"
        if items:
            self._data.update(items)

    def __getitem__(self, key: str) -> str:
        return self._data[key]

    def __setitem__(self, key: str, value: str) -> None:
        self._data[key] = str(value)

    def __delitem__(self, key: str) -> None:
        del self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Headers({self._data!r})"


class Game:
    """A game: ``Game()`` from the start position, ``Game(fen)`` from a setup.

    ``game.board`` is the current position. Moves pushed on the game form its main line;
    ``draw_rules`` (FMJD-64 by default) adjudicate automatic draws after every move.
    """

    def __init__(
        self,
        fen: Optional[str] = None,
        *,
        draw_rules: DrawRules = FMJD64,
        headers: Optional[dict[str, str]] = None,
    ) -> None:
        self.board = Board(fen) if fen is not None else Board()
        self.draw_rules = draw_rules
        self.headers = Headers(headers)
        if fen is not None and self.board.fen() != STARTING_FEN:
            self.headers["FEN"] = self.board.fen()
        self.comment = ""
        self.nodes: list[Node] = []
        self.errors: list[Exception] = []
        self._start_fen = self.board.fen()
        self._snapshots: list[Snapshot] = [_snapshot(self.board)]
        self._plies: list[Ply] = []
        self._ended: Optional[tuple[int, Outcome]] = None  # (ply, outcome) when it ended
        self._check_end()

    # ---- moves -------------------------------------------------------------------------

    @property
    def start_fen(self) -> str:
        return self._start_fen

    def push(self, move: Move) -> Node:
        """Play a legal move on the main line (IllegalMoveError otherwise)."""
        board = self.board
        piece = board.piece_at(move.start)
        board.push(move)  # raises IllegalMoveError, board unchanged
        played = board.peek()
        self._plies.append(
            Ply(
                mover=not board.turn,
                king_moved=piece is not None and piece.king,
                capture=played.is_capture,
                promotion=played.promotes,
            )
        )
        self._snapshots.append(_snapshot(board))
        node = Node(played)
        self.nodes.append(node)
        self._check_end()
        return node

    def push_move(self, text: str) -> Move:
        """Parse a move in any notation (``c3-d4``, ``22x15``, …), play it and return it."""
        move = self.board.parse_move(text)
        self.push(move)
        return self.board.peek()

    def pop(self) -> Move:
        """Take back the last move of the main line."""
        move = self.board.pop()
        self.nodes.pop()
        self._plies.pop()
        self._snapshots.pop()
        if self._ended is not None and self._ended[0] > len(self._plies):
            self._ended = None
        return move

    def mainline_moves(self) -> list[Move]:
        """The moves of the main line."""
        return [node.move for node in self.nodes]

    def ply(self) -> int:
        return len(self._plies)

    # ---- results -----------------------------------------------------------------------

    def _history(self) -> History:
        return History(self._snapshots, self._plies)

    def _check_end(self) -> None:
        if self._ended is not None:
            return
        if not self.board.legal_moves:
            outcome = Outcome(Termination.NO_MOVES, not self.board.turn)
        else:
            termination = self.draw_rules.reached(self._history())
            if termination is None:
                return
            outcome = Outcome(termination, None)
        self._ended = (len(self._plies), outcome)

    def resign(self, color: bool) -> None:
        """Record that ``color`` resigned."""
        self._ended = (len(self._plies), Outcome(Termination.RESIGNATION, not color))

    def agree_draw(self) -> None:
        """Record a draw by agreement."""
        self._ended = (len(self._plies), Outcome(Termination.AGREEMENT, None))

    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        """The outcome, or None while the game goes on. ``claim_draw`` also applies the
        rule set's claimable draws (such as the historical code's repetition)."""
        if self._ended is not None:
            return self._ended[1]
        if claim_draw:
            termination = self.draw_rules.reached(self._history(), claim=True)
            if termination is not None:
                return Outcome(termination, None)
        return None

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw=claim_draw) is not None

    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or ``"*"`` (game goes on)."""
        outcome = self.outcome()
        return outcome.result() if outcome is not None else "*"

    def draw_counters(self) -> list[DrawCounter]:
        """Every draw rule whose count runs now, e.g. to show "draw in 3 moves"."""
        return self.draw_rules.counters(self._history())

    def __repr__(self) -> str:
        return (
            f"<Game {self.headers['White']!r} vs {self.headers['Black']!r} at {self.board.fen()!r}>"
        )


GameOrBoard = Union[Game, Board]
