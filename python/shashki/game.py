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
    return Snapshot(*board._draw_snapshot())


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
        # What the draw rules read, kept for the first len(self._plies) plies and brought up
        # to date when asked for (pushing a move costs only the move): a board replaying
        # the main line, the snapshot after every ply and what every ply did.
        self._replay = self.board.copy(stack=False)
        self._snapshots: list[Snapshot] = [_snapshot(self.board)]
        self._plies: list[Ply] = []
        self._ended: Optional[tuple[int, Outcome]] = None  # (ply, outcome) when it ended
        self._checked = -1  # the last snapshot the draw rules have been applied to

    # ---- moves -------------------------------------------------------------------------

    @property
    def start_fen(self) -> str:
        return self._start_fen

    def push(self, move: Move) -> Node:
        """Play a legal move on the main line (IllegalMoveError otherwise)."""
        if not isinstance(move, Move):
            raise TypeError(
                f"Game.push takes a Move, not {type(move).__name__} (push_move takes text)"
            )
        self.board.push(move)  # raises IllegalMoveError, board unchanged
        node = Node(self.board.peek())
        self.nodes.append(node)
        return node

    def push_move(self, text: str) -> Move:
        """Parse a move in any notation (``c3-d4``, ``22x15``, …), play it and return it."""
        move = self.board.parse_move(text)
        self.push(move)
        return self.board.peek()

    def _push_move_texts(self, texts: list[str]) -> Optional[Exception]:
        """Parse and play move texts on the main line, stopping at the first that fails
        (whose exception is returned)."""
        played, error = self.board._push_move_texts(texts)
        self.nodes.extend(Node(move) for move in played)
        return error

    def pop(self) -> Move:
        """Take back the last move of the main line."""
        move = self.board.pop()
        self.nodes.pop()
        if len(self._plies) > len(self.nodes):
            self._plies.pop()
            self._snapshots.pop()
            self._replay.pop()
        if self._ended is not None and self._ended[0] > len(self.nodes):
            self._ended = None
        self._checked = min(self._checked, len(self.nodes))
        return move

    def _sync(self) -> None:
        """Bring the draw rules' view (plies and snapshots) up to the main line."""
        replay, plies, snapshots = self._replay, self._plies, self._snapshots
        for node in self.nodes[len(plies) :]:
            move = node.move
            piece = replay.piece_at(move.start)
            replay.push(move)
            plies.append(
                Ply(
                    mover=not replay.turn,
                    king_moved=piece is not None and piece.king,
                    capture=move.is_capture,
                    promotion=move.promotes,
                )
            )
            snapshots.append(_snapshot(replay))

    def mainline_moves(self) -> list[Move]:
        """The moves of the main line."""
        return [node.move for node in self.nodes]

    def ply(self) -> int:
        """The number of plies (half-moves) of the main line."""
        return len(self.nodes)

    # ---- results -----------------------------------------------------------------------

    def _history(self) -> History:
        self._sync()
        return History(self._snapshots, self._plies)

    def _check_end(self) -> None:
        """Apply the draw rules to every position not yet checked, in order, until one ends
        the game. Pushing a move costs no rule checking: it happens when an outcome,
        result or counter is asked for (so reading a long PDN archive stays fast)."""
        self._sync()
        rules = self.draw_rules
        n = len(self._plies)
        while self._checked < n and self._ended is None:
            self._checked += 1
            i = self._checked
            now = self._snapshots[i]
            if not (now.white_kings or now.black_kings or rules.apply_without_kings):
                continue  # no rule of the set can hold without a king
            if i == n:
                history = self._history()
            else:
                history = History(self._snapshots[: i + 1], self._plies[:i])
            termination = rules.reached(history)
            if termination is None:
                continue
            # A position without legal moves can only be the last one.
            outcome = (self._no_moves() if i == n else None) or Outcome(termination, None)
            self._ended = (i, outcome)

    def _no_moves(self) -> Optional[Outcome]:
        if self.board.legal_moves:
            return None
        return Outcome(Termination.NO_MOVES, not self.board.turn)

    def resign(self, color: bool) -> None:
        """Record that ``color`` resigned."""
        self._check_end()
        self._ended = (len(self.nodes), Outcome(Termination.RESIGNATION, not color))

    def agree_draw(self) -> None:
        """Record a draw by agreement."""
        self._check_end()
        self._ended = (len(self.nodes), Outcome(Termination.AGREEMENT, None))

    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        """The outcome, or None while the game goes on. ``claim_draw`` also applies the
        rule set's claimable draws (such as the historical code's repetition)."""
        self._check_end()
        if self._ended is not None:
            return self._ended[1]
        no_moves = self._no_moves()
        if no_moves is not None:
            return no_moves
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
