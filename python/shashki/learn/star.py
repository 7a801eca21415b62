"""The star board (Chinese checkers) for learning: many two-player games stepped together
in Rust, arrays in and out.

>>> from shashki.learn.star import StarBoards
>>> boards = StarBoards(4, seed=1)
>>> boards.legal_action_mask().shape, boards.observation().shape
((4, 14641), (4, 2, 121))
>>> observation, reward, terminated, truncated = boards.step(boards.sample_actions())
>>> observation.shape, reward.dtype.name, terminated.tolist()
((4, 2, 121), 'float32', [False, False, False, False])

Everything is seen from the player to move: for the second player the star is turned half
round (hole ``h`` is the hole at ``(-q, -r, -s)``), so the mover always races from the
bottom point to the top one. **Actions** (:attr:`StarBoards.action_count`: 14,641 on the
121-hole star, 5,329 on the 73-hole one): a move, ``start * holes + end`` in that view
(:meth:`StarBoards.move` gives the move of an action in a game). **Observations**: two
planes over the holes in that view (``(2, holes)`` a game, float32): the mover's pieces,
the opponent's. **Steps**: ``step(actions)`` plays one action a game and returns
``(observation, rewards, terminated, truncated)``; the reward is 1 for the player who acted
when it finished its race (the game then won), 0 otherwise; a game where nobody can move is
terminated (a draw), one at ``max_plies`` truncated; a game that ends starts again at
once, and :meth:`StarBoards.results` keeps how the last one ended.

Needs numpy (imported by this module only).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from shashki import _core
from shashki.star import StarBoard

MAX_GAMES = 1 << 20
"""The most games one :class:`StarBoards` holds."""


class StarBoards:
    """``n`` two-player games of the star of ``size`` (4: 121 holes, 3: 73), hops over
    ``hop_over`` pieces, truncated at ``max_plies``; ``seed`` drives
    :meth:`sample_actions`."""

    def __init__(
        self,
        n: int,
        size: int = 4,
        hop_over: str = "any",
        max_plies: int = 1000,
        seed: Optional[int] = None,
    ) -> None:
        self._core = _core.StarBatch(n, size, hop_over, max_plies)
        self.size, self.hop_over, self.max_plies = size, hop_over, max_plies
        self._rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        return len(self._core)

    @property
    def action_count(self) -> int:
        """holes × holes: 14,641 on the 121-hole star, 5,329 on the 73-hole one."""
        return int(self._core.action_count)

    @property
    def observation_shape(self) -> tuple[int, int]:
        """One game's observation: ``(2, holes)``."""
        return (2, int(self._core.holes))

    def copy(self) -> StarBoards:
        """An independent copy of the games as they stand (the sampler's state too)."""
        other = object.__new__(StarBoards)
        other.__dict__.update(self.__dict__, _core=self._core.copy())
        other._rng = np.random.default_rng()
        other._rng.bit_generator.state = self._rng.bit_generator.state
        return other

    def reset(self) -> np.ndarray[Any, Any]:
        """Every game from the start again: the observations."""
        self._core.reset()
        return self.observation()

    def observation(self) -> np.ndarray[Any, Any]:
        """Every game's planes: float32 ``(n, 2, holes)``."""
        return self._core.observation()

    def legal_action_mask(self) -> np.ndarray[Any, Any]:
        """Every game's legal actions: bool ``(n, action_count)``."""
        return self._core.legal_action_mask()

    def legal_actions(self) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """``(offsets, actions)``: game ``i``'s legal actions are
        ``actions[offsets[i]:offsets[i + 1]]``, ascending."""
        return self._core.legal_actions()

    def sample_actions(self) -> np.ndarray[Any, Any]:
        """A legal action a game, drawn uniformly (reproducible from the seed)."""
        offsets, actions = self.legal_actions()
        counts = np.diff(offsets)
        picks = offsets[:-1] + (self._rng.random(len(counts)) * counts).astype(np.int64)
        chosen: np.ndarray[Any, Any] = actions[picks]
        return chosen

    def step(
        self, actions: Any
    ) -> tuple[
        np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]
    ]:
        """Play ``actions`` (one a game): ``(observation, rewards, terminated, truncated)``.
        A wrong shape or an illegal action is a ValueError naming the first bad game, and
        no game changes."""
        array = np.asarray(actions)
        if array.shape != (len(self),) or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"actions must be {len(self)} integers, one a game")
        rewards, terminated, truncated = self._core.step(np.ascontiguousarray(array, np.int64))
        return self.observation(), rewards, terminated, truncated

    def results(self) -> np.ndarray[Any, Any]:
        """Each game's last result for the first player: 1 won, -1 lost, 0 drawn (nobody
        could move), 2 cut at the move limit, -2 none ended yet."""
        return self._core.results()

    def board(self, index: int) -> StarBoard:
        """Game ``index`` as a :class:`shashki.star.StarBoard` (its position; no moves)."""
        position = self._core.position(index)
        board = StarBoard.__new__(StarBoard)
        board._position = position
        board._root = position
        board._stack = []
        return board

    def move(self, index: int, action: int) -> tuple[int, int]:
        """The move ``(start, end)`` an action is in game ``index`` (a ValueError when it
        is not legal there)."""
        holes = int(self._core.holes)
        board = self.board(index)
        start, end = divmod(int(action), holes)
        if board.turn == 1:
            turned = _turned(board.size)
            start, end = turned[start], turned[end]
        if (start, end) not in board.legal_moves:
            raise ValueError(f"action {action} is not a legal move of game {index}")
        return (start, end)


def _turned(size: int) -> list[int]:
    """Each hole's hole with the star turned half round."""
    holes = _core.StarPosition.holes(size)
    index = {h: i for i, h in enumerate(holes)}
    return [index[(-q, -r, -s)] for q, r, s in holes]
