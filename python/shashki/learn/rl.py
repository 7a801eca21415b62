"""Russian draughts for reinforcement learning, in the ecosystem's conventions (the ``rl``
extra: ``pip install "shashki[rl]"``): a gymnasium environment (one game against a fixed
opponent) and a PettingZoo AEC environment (two agents). Both use :mod:`shashki.learn.batch`'s
actions and observation planes, its rules and its draw rules (all in Rust).

>>> from shashki.learn.rl import DraughtsEnv
>>> env = DraughtsEnv(opponent="random")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(info["action_mask"].sum())
((6, 8, 8), 7)
>>> from shashki.learn.rl import DraughtsAEC
>>> game = DraughtsAEC()
>>> game.reset(seed=1)
>>> game.agent_selection, int(game.observe("player_0")["action_mask"].sum())
('player_0', 7)

An action the mask does not allow ends the game as a loss for the agent (reward -1): the
spaces are fixed, so a policy that ignores the mask is told, not crashed.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np

import shashki
from shashki.learn.batch import PLANES, action_count, board_size, move_actions

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError('shashki.learn.rl needs its extra: pip install "shashki[rl]"') from error

from shashki import _core
from shashki.engine import Engine, Limit

_RESULT = {1: True, -1: False}
WHITE_AGENT, BLACK_AGENT = "player_0", "player_1"


class _Game:
    """One game held in Rust (a :class:`shashki.learn.batch.Boards` of one), with its last
    result."""

    def __init__(self, variant: str, fen: Optional[str], max_plies: int) -> None:
        self.variant = variant
        self.final: Optional[np.ndarray] = None
        self.core = _core.BatchBoards(
            1, variant=variant, fens=None if fen is None else [fen], max_plies=max_plies
        )
        self.actions = int(self.core.action_count)
        size = int(self.core.board_size)
        self.shape = (PLANES, size, size)

    def mask(self) -> np.ndarray:
        if self.final is not None:
            return np.zeros(self.actions, dtype=bool)
        mask: np.ndarray = self.core.legal_action_mask()[0]
        return mask

    def observation(self) -> np.ndarray:
        return self.core.observation()[0] if self.final is None else self.final

    def turn(self) -> bool:
        """The side to move (``True``: White), a capture in progress included."""
        return self.core.fens()[0].startswith("W")

    def board(self) -> shashki.Board:
        fen, moves = self.core._history(0)
        board = shashki.Board(fen, variant=self.variant)
        for text in moves:
            board.push_move(text)
        return board

    def step(self, action: int) -> tuple[bool, bool, int]:
        """Play one action: (terminated, truncated, result code of a finished game). A
        finished game keeps its final position as the observation until the next reset."""
        _, terminated, truncated = self.core.step(np.array([action], dtype=np.int64))
        done = bool(terminated[0]) or bool(truncated[0])
        if done:
            self.final = self.core.final_observation()[0]
        return bool(terminated[0]), bool(truncated[0]), int(self.core.results()[0]) if done else -2


Opponent = Union[str, Limit]


class DraughtsEnv(gymnasium.Env):
    """One game of Russian draughts (or another ``variant``) against a fixed opponent:
    ``"random"`` (a uniformly random legal move) or a :class:`shashki.engine.Limit` (the
    engine at that level). The agent plays ``agent_color`` (White by default).
    Observations: :data:`shashki.learn.batch.PLANES` × size × size float32 from the agent's view
    (the game's board: ``shashki.game_info(variant).board_size``); actions: the board's
    jumps (the game's card's ``actions``, :func:`shashki.learn.batch.action_count`: 896 on 8×8,
    1,800 on 10×10, 3,168 on 12×12, 1,792 in Turkish draughts, 3,600 in Frisian draughts);
    ``info["action_mask"]`` the legal ones.
    Rewards: 1 a win, -1 a loss (or an action the mask does not allow), 0 otherwise."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        opponent: Opponent = "random",
        *,
        agent_color: bool = shashki.WHITE,
        variant: str = "russian",
        fen: Optional[str] = None,
        max_plies: int = 400,
        render_mode: Optional[str] = None,
    ) -> None:
        if opponent != "random" and not isinstance(opponent, Limit):
            raise ValueError(f"opponent must be 'random' or a Limit, not {opponent!r}")
        self.opponent = opponent
        self.agent_color = agent_color
        self.variant = variant
        self.fen = fen
        self.max_plies = max_plies
        self.render_mode = render_mode
        self._game = _Game(variant, fen, max_plies)
        self.observation_space = spaces.Box(0.0, 1.0, self._game.shape, np.float32)
        self.action_space = spaces.Discrete(self._game.actions)
        self._engine: Optional[Engine] = None
        self._rng = np.random.default_rng()
        self._reset_done = False

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._game.mask()}

    def _reward(self, code: int) -> float:
        winner = _RESULT.get(code)
        if winner is None:
            return 0.0
        return 1.0 if winner == self.agent_color else -1.0

    def _opponent_moves(self) -> tuple[bool, bool, int]:
        """The opponent plays until the agent is to move or the game ends."""
        while self._game.turn() != self.agent_color:
            if self.opponent == "random":
                legal = np.flatnonzero(self._game.mask())
                actions = [int(self._rng.choice(legal))]
            else:
                if self._engine is None:
                    self._engine = Engine(hash_mb=16)
                board = self._game.board()
                assert isinstance(self.opponent, Limit)
                move = self._engine.play(board, self.opponent).move
                assert move is not None
                actions = move_actions(board, move)
            for action in actions:
                terminated, truncated, code = self._game.step(action)
                if terminated or truncated:
                    return terminated, truncated, code
        return False, False, -2

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game: the observation and ``{"action_mask": ...}`` (the opponent has
        moved first if the agent plays Black)."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._reset_done = True
        self._game = _Game(self.variant, self.fen, self.max_plies)
        terminated, truncated, _ = self._opponent_moves()
        if terminated or truncated:  # the opponent won from the setup: start again
            self._game = _Game(self.variant, self.fen, self.max_plies)
        return self._game.observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the agent's action (and the opponent's reply when the agent's move is
        complete): observation, reward, terminated, truncated, info."""
        if not self._reset_done:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        action = int(action)
        if not 0 <= action < self._game.actions:
            raise ValueError(
                f"action {action} is out of range: the actions are 0 to "
                f"{self._game.actions - 1} (the action space)"
            )
        mask = self._game.mask()
        if self._game.final is not None:
            raise RuntimeError("the game is over: call reset()")
        if not mask[action]:
            self._game.final = self._game.observation()
            return self._game.observation(), -1.0, True, False, self._info()
        terminated, truncated, code = self._game.step(action)
        if not (terminated or truncated):
            terminated, truncated, code = self._opponent_moves()
        reward = self._reward(code) if terminated else 0.0
        return self._game.observation(), reward, terminated, truncated, self._info()

    def render(self) -> Optional[str]:
        """The board as text (``render_mode="ansi"``)."""
        if self.render_mode == "ansi":
            return str(self._game.board())
        return None

    def close(self) -> None:
        """Give back the opponent engine's memory."""
        if self._engine is not None:
            self._engine.close()
            self._engine = None


class DraughtsAEC(AECEnv):  # type: ignore[misc]
    """A game for two agents, ``"player_0"`` (White) and ``"player_1"`` (Black), in
    PettingZoo's AEC API: each
    agent observes ``{"observation": planes from its own view, "action_mask": its legal
    actions (all zero when it is not to move)}``; a capture of several pieces is several
    turns of the same agent. Rewards: 1 the winner, -1 the loser, 0 a draw. An action the
    mask does not allow loses the game."""

    metadata = {"render_modes": ["ansi"], "name": "shashki_v0", "is_parallelizable": False}

    def __init__(
        self, *, variant: str = "russian", max_plies: int = 400, render_mode: Optional[str] = None
    ) -> None:
        super().__init__()
        self.variant = variant
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.possible_agents = [WHITE_AGENT, BLACK_AGENT]
        self.agents = self.possible_agents[:]
        size, actions = board_size(variant), action_count(variant)
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (PLANES, size, size), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._game = _Game(variant, None, max_plies)
        self._turn = WHITE_AGENT

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` sees: its planes and its action mask."""
        planes = self._game.observation()
        if agent != self._turn:  # the other side's view: colours swapped, board turned
            planes = np.ascontiguousarray(planes[[2, 3, 0, 1, 4, 5], ::-1, ::-1])
        mask = self._game.mask().astype(np.int8)
        if agent != self._turn:
            mask = np.zeros(self._game.actions, dtype=np.int8)
        return {"observation": planes, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        """A new game, White (``player_0``) to move."""
        self._game = _Game(self.variant, None, self.max_plies)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._turn = WHITE_AGENT if self._game.turn() else BLACK_AGENT
        self.agent_selection = self._turn

    def step(self, action: Any) -> None:
        """Play the selected agent's action."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        mask = self._game.mask()
        other = BLACK_AGENT if agent == WHITE_AGENT else WHITE_AGENT
        action = int(action) if action is not None else -1
        if not (0 <= action < self._game.actions and mask[action]):
            self._game.final = self._game.observation()
            self.rewards[agent], self.rewards[other] = -1.0, 1.0
            self.terminations = {a: True for a in self.agents}
        else:
            terminated, truncated, code = self._game.step(action)
            if terminated:
                winner = _RESULT.get(code)
                if winner is not None:
                    won = WHITE_AGENT if winner else BLACK_AGENT
                    lost = BLACK_AGENT if winner else WHITE_AGENT
                    self.rewards[won], self.rewards[lost] = 1.0, -1.0
                self.terminations = {a: True for a in self.agents}
            elif truncated:
                self.truncations = {a: True for a in self.agents}
            else:
                self._turn = WHITE_AGENT if self._game.turn() else BLACK_AGENT
        self.agent_selection = self._turn
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        """The board as text (``render_mode="ansi"``)."""
        if self.render_mode == "ansi":
            return str(self._game.board())
        return None

    def close(self) -> None:
        """Give back the opponent engine's memory."""
        pass


def _register() -> None:
    """Every game as a gymnasium environment, ``shashki/<Game>-v0`` (``shashki/Russian-v0``,
    ``shashki/International-v0``, …): ``gym.make("shashki/English-v0")`` once this module
    is imported, or ``gym.make("shashki.learn.rl:shashki/English-v0")``, which imports it."""
    for card in shashki.games():
        env_id = f"shashki/{env_name(card.name)}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="shashki.learn.rl:DraughtsEnv",
                kwargs={"variant": card.name},
            )


def env_name(variant: str) -> str:
    """The gymnasium name of a game: ``russian`` → ``Russian``, ``antidraughts`` →
    ``Antidraughts``."""
    return "".join(part.capitalize() for part in shashki.game_info(variant).name.split("-"))


_register()
