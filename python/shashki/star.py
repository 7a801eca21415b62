"""The star board: Chinese checkers (Sternhalma) for two to six players, the six-pointed star
of the rules pages (docs/star.md: the rules, their sources and our readings).

>>> from shashki.star import StarBoard
>>> board = StarBoard(players=2)          # 121 holes, ten pieces a player
>>> len(board.legal_moves), board.perft(2)
(14, 196)
>>> board.push(board.legal_moves[0])
>>> board.turn, board.plies
(1, 1)

Holes are numbered in reading order (``board.holes[i]`` is hole ``i``'s cube coordinates
``(q, r, s)``); a move is ``(start, end)``, its hops ``board.path(move)``. Players are
numbered in turn order, the first on point 0; ``board.seat(player)`` gives the point a
player sits on and the point it races to.
"""

from __future__ import annotations

from shashki import _core

Move = tuple[int, int]


class StarBoard:
    """A game on the star: its position and the moves played (``push``, ``pop``)."""

    def __init__(
        self, size: int = 4, players: int = 2, hop_over: str = "any", max_plies: int = 1000
    ) -> None:
        self._position = _core.StarPosition(size, players, hop_over, max_plies)
        self._stack: list[tuple[_core.StarPosition, Move]] = []

    @property
    def size(self) -> int:
        """The point size: 4 (121 holes, ten pieces a player) or 3 (73 holes, six)."""
        return int(self._position.size)

    @property
    def players(self) -> int:
        return int(self._position.players)

    @property
    def hop_over(self) -> str:
        """``"any"`` (hops over any piece) or ``"others"`` (over other players' only)."""
        return str(self._position.hop_over)

    @property
    def holes(self) -> list[tuple[int, int, int]]:
        """Each hole's cube coordinates, by index."""
        return _core.StarPosition.holes(self.size)

    @property
    def turn(self) -> int:
        """The player to move (in turn order)."""
        return int(self._position.turn)

    @property
    def plies(self) -> int:
        return int(self._position.plies)

    @property
    def finished(self) -> list[int]:
        """The players who have finished, first first (their places)."""
        return list(self._position.finished)

    @property
    def legal_moves(self) -> list[Move]:
        return list(self._position.legal_moves())

    @property
    def moves(self) -> list[Move]:
        """The moves played, first first."""
        return [move for _, move in self._stack]

    def seat(self, player: int) -> tuple[int, int]:
        """The point ``player`` sits on and the point it races to."""
        return self._position.seat(player)

    def pieces(self, player: int) -> list[int]:
        """``player``'s holes."""
        return list(self._position.pieces(player))

    def is_over(self) -> bool:
        """All but one player finished (two players: one), or the move limit reached."""
        return bool(self._position.is_over())

    def path(self, move: Move) -> list[int]:
        """The holes ``move`` passes, its start and end included (a ValueError when it is not
        legal)."""
        return list(self._position.path(*move))

    def push(self, move: Move) -> None:
        """Play ``move``; an illegal one is a ValueError and the board is unchanged."""
        after = self._position.play(*move)
        self._stack.append((self._position, (int(move[0]), int(move[1]))))
        self._position = after

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self._stack:
            raise IndexError("no move to take back")
        self._position, move = self._stack.pop()
        return move

    def perft(self, depth: int) -> int:
        """The move paths of ``depth`` plies from here (in Rust, without the GIL)."""
        return int(self._position.perft(depth))

    def copy(self) -> StarBoard:
        board = StarBoard.__new__(StarBoard)
        board._position = self._position
        board._stack = list(self._stack)
        return board

    def __repr__(self) -> str:
        return (
            f"<StarBoard size={self.size} players={self.players} hop_over={self.hop_over!r} "
            f"turn={self.turn} plies={self.plies}>"
        )
