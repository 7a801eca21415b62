"""shashki's games in OpenSpiel: importing this module registers each game of one piece a
square whose moves fit the batch actions as a pyspiel game named ``shashki_<name>``
(``shashki_russian``, ``shashki_international``, ``shashki_english``, …; :data:`GAMES`).

>>> import pyspiel
>>> import shashki.learn.openspiel
>>> game = pyspiel.load_game("shashki_russian")
>>> state = game.new_initial_state()
>>> len(state.legal_actions()), game.observation_tensor_shape()
(7, [6, 8, 8])

Each game is sequential, deterministic, zero-sum and of perfect information, with terminal
rewards of 1, -1 or 0. Player 0 moves first (White in Russian draughts, Black in English
draughts). Its actions are :mod:`shashki.learn.batch`'s: one jump or step of one piece, a
capture of several pieces being one action a jump by the same player; its observation
tensor is the batch API's planes (the side to move's view, as the step sees it; the final
position's once the game is over). A game ends as its rules and its federation's draw rules
say (all applied in Rust), or as a draw at ``max_plies`` plies (a parameter, 400 by
default: ``pyspiel.load_game("shashki_russian(max_plies=200)")``). States serialise as their
actions (OpenSpiel's default) and pickle.

Needs OpenSpiel (``pip install open_spiel``, where its wheels exist). Уголки is not
registered: its moves (a chain of jumps ending wherever its turns lead) do not fit the
actions, as the batch API says; nor are the column games (a square holds a column).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

import shashki
from shashki import _core
from shashki.learn.batch import PLANES

try:
    import pyspiel  # type: ignore[import-not-found]
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("shashki.learn.openspiel needs OpenSpiel: pip install open_spiel") from error

MAX_PLIES = 400
"""The plies after which a game is a draw, unless the ``max_plies`` parameter says."""


def game_name(variant: str) -> str:
    """The pyspiel name of a game: ``shashki_<name>`` (hyphens become underscores)."""
    return "shashki_" + variant.replace("-", "_")


class _Observer:
    """The batch planes of a state (OpenSpiel's observer interface)."""

    def __init__(self, shape: tuple[int, ...], params: Optional[dict[str, Any]]) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: _State, player: int) -> None:
        del player  # perfect information: every player sees the same planes
        self.tensor[:] = state.planes().ravel()

    def string_from(self, state: _State, player: int) -> str:
        del player
        return str(state)


class _Games:
    """A state's one game in Rust and the actions it played from the start: copied (not
    replayed) when OpenSpiel clones the state, replayed when it is unpickled."""

    __slots__ = ("core", "variant", "max_plies", "actions")

    def __init__(self, variant: str, max_plies: int, core: Any = None) -> None:
        self.variant, self.max_plies = variant, max_plies
        self.core = core or _core.BatchBoards(1, variant=variant, max_plies=max_plies)
        self.actions: list[int] = []

    def step(self, action: int) -> tuple[bool, bool]:
        _, terminated, truncated = self.core.step(np.array([action], np.int64))
        self.actions.append(action)
        return bool(terminated[0]), bool(truncated[0])

    def __deepcopy__(self, memo: dict[int, Any]) -> _Games:
        other = _Games(self.variant, self.max_plies, self.core.copy())
        other.actions = list(self.actions)
        return other

    def __getstate__(self) -> tuple[str, int, list[int]]:
        return self.variant, self.max_plies, self.actions

    def __setstate__(self, state: tuple[str, int, list[int]]) -> None:
        variant, max_plies, actions = state
        self.__init__(variant, max_plies)  # type: ignore[misc]
        for action in actions:
            self.step(action)


class _State(pyspiel.State):  # type: ignore[misc]
    """A game of one shashki variant as OpenSpiel plays it (one game of the batch API)."""

    def __init__(self, game: _Game) -> None:
        super().__init__(game)
        self._first = game.first
        self._games = _Games(game.variant, game.max_plies)
        self._fen: str = self._boards.fens()[0]
        self._jumps: list[int] = []  # the jumps made of a capture going on
        self._returns: Optional[list[float]] = None
        self._final: Optional[np.ndarray] = None

    @property
    def _boards(self) -> Any:
        return self._games.core

    def current_player(self) -> int:
        if self._returns is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return 0 if (self._fen[0] == "W") == (self._first == "white") else 1

    def _legal_actions(self, player: int) -> list[int]:
        if self._returns is not None:
            return []
        _, actions = self._boards.legal_actions()
        return [int(a) for a in actions]

    def _apply_action(self, action: int) -> None:
        terminated, truncated = self._games.step(action)
        if terminated or truncated:
            result = int(self._boards.results()[0])  # 1 White won, -1 Black, 0 draw, 2 cut
            white = 0.0 if result not in (1, -1) else float(result)
            first = white if self._first == "white" else -white
            self._returns = [first, -first]
            self._final = self._boards.final_observation()[0]
            self._jumps = []
            return
        # The FEN is the position before a capture going on: unchanged while its jumps go
        # on (a whole move hands the turn over, so it always changes the FEN).
        fen = self._boards.fens()[0]
        self._jumps = [*self._jumps, action] if fen == self._fen else []
        self._fen = fen

    def _action_to_string(self, player: int, action: int) -> str:
        return f"a{action}"

    def is_terminal(self) -> bool:
        return self._returns is not None

    def returns(self) -> list[float]:
        return list(self._returns) if self._returns is not None else [0.0, 0.0]

    def planes(self) -> np.ndarray:
        """The batch planes of the state: ``(PLANES, size, size)`` float32."""
        if self._final is not None:
            return self._final
        planes: np.ndarray = self._boards.observation()[0]
        return planes

    def __str__(self) -> str:
        jumps = "".join(f" {a}" for a in self._jumps)
        ended = " (over)" if self._returns is not None else ""
        return f"{self._fen}{jumps}{ended}"


class _Game(pyspiel.Game):  # type: ignore[misc]
    """One shashki variant as a pyspiel game (a class a variant: :func:`_game_class`)."""

    variant = "russian"
    first = "white"
    max_plies = MAX_PLIES

    def new_initial_state(self) -> _State:
        return _State(self)

    def make_py_observer(
        self, iig_obs_type: Optional[Any] = None, params: Optional[dict[str, Any]] = None
    ) -> _Observer:
        size = shashki.BOARD_SIZES.get(self.variant, 8)
        return _Observer((PLANES, size, size), params)


def _game_class(card: Any) -> tuple[Any, type]:
    """The pyspiel game type and game class of a card."""
    name = game_name(card.name)
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"shashki: {card.display_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"max_plies": MAX_PLIES},
    )

    def __init__(self: _Game, params: Optional[dict[str, Any]] = None) -> None:
        params = dict(params or {})
        max_plies = int(params.get("max_plies", MAX_PLIES))
        if max_plies < 1:
            raise ValueError(f"max_plies must be at least 1, not {max_plies}")
        self.max_plies = max_plies
        info = pyspiel.GameInfo(
            num_distinct_actions=card.actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # Every action is a ply or a jump that takes a piece: at most the plies and
            # the pieces (fewer than the squares).
            max_game_length=max_plies + card.square_count,
        )
        pyspiel.Game.__init__(self, game_type, info, params)

    cls = type(
        f"ShashkiGame_{card.name.replace('-', '_')}",
        (_Game,),
        {"__init__": __init__, "variant": card.name, "first": card.first},
    )
    return game_type, cls


GAMES: dict[str, type] = {}
"""Each registered pyspiel name's game class."""

for _card in shashki.games():
    if _card.actions and not _card.stacks:
        _type, _class = _game_class(_card)
        if _type.short_name not in pyspiel.registered_names():
            pyspiel.register_game(_type, _class)
        GAMES[_type.short_name] = _class


# --- the star board (Chinese checkers), two players ------------------------------------------

STAR_NAME = "shashki_star"
"""The pyspiel name of the two-player star game (parameters ``holes`` 121 or 73,
``hop_over`` "any" or "others", ``max_plies``): its actions and planes are
:mod:`shashki.learn.star`'s, seen from the player to move."""


class _StarGames:
    """A star state's one game in Rust and its actions: copied when OpenSpiel clones the
    state, replayed when it is unpickled."""

    __slots__ = ("core", "params", "actions")

    def __init__(self, params: tuple[int, str, int], core: Any = None) -> None:
        self.params = params
        self.core = core or _core.StarBatch(1, *params)
        self.actions: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _StarGames:
        other = _StarGames(self.params, self.core.copy())
        other.actions = list(self.actions)
        return other

    def __getstate__(self) -> tuple[tuple[int, str, int], list[int]]:
        return self.params, self.actions

    def __setstate__(self, state: tuple[tuple[int, str, int], list[int]]) -> None:
        params, actions = state
        self.__init__(params)  # type: ignore[misc]
        for action in actions:
            self.core.step(np.array([action], np.int64))
            self.actions.append(action)


class _StarState(pyspiel.State):  # type: ignore[misc]
    """A two-player star game as OpenSpiel plays it (one game of the star batch API)."""

    def __init__(self, game: _StarGame) -> None:
        super().__init__(game)
        self._games = _StarGames((game.size, game.hop_over, game.max_plies))
        self._returns: Optional[list[float]] = None
        self._final: Optional[np.ndarray] = None

    def current_player(self) -> int:
        if self._returns is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self._games.core.position(0).turn)

    def _legal_actions(self, player: int) -> list[int]:
        if self._returns is not None:
            return []
        _, actions = self._games.core.legal_actions()
        return [int(a) for a in actions]

    def _apply_action(self, action: int) -> None:
        mover = self.current_player()
        before = self._games.core.observation()[0]
        rewards, terminated, truncated = self._games.core.step(np.array([action], np.int64))
        self._games.actions.append(action)
        if terminated[0] or truncated[0]:
            won = float(rewards[0])
            self._returns = [won, -won] if mover == 0 else [-won, won]
            self._final = before  # the last position the players saw

    def _action_to_string(self, player: int, action: int) -> str:
        return f"a{action}"

    def is_terminal(self) -> bool:
        return self._returns is not None

    def returns(self) -> list[float]:
        return list(self._returns) if self._returns is not None else [0.0, 0.0]

    def planes(self) -> np.ndarray:
        """The planes of the state: ``(2, holes)`` float32 (the mover's view)."""
        if self._final is not None:
            return self._final
        planes: np.ndarray = self._games.core.observation()[0]
        return planes

    def __str__(self) -> str:
        plies = len(self._games.actions)
        if self._returns is not None:
            return f"over after {plies} plies, returns {self._returns}"
        position = self._games.core.position(0)
        pieces = ";".join(",".join(map(str, position.pieces(p))) for p in (0, 1))
        return f"ply {plies} turn {position.turn} {pieces}"


class _StarGame(pyspiel.Game):  # type: ignore[misc]
    """The two-player star game as a pyspiel game."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        params = dict(params or {})
        holes = int(params.get("holes", 121))
        if holes not in (121, 73):
            raise ValueError(f"holes must be 121 or 73, not {holes}")
        self.size = 4 if holes == 121 else 3
        self.hop_over = str(params.get("hop_over", "any"))
        if self.hop_over not in ("any", "others"):
            raise ValueError(f"hop_over must be 'any' or 'others', not {self.hop_over!r}")
        self.max_plies = int(params.get("max_plies", 1000))
        if self.max_plies < 1:
            raise ValueError(f"max_plies must be at least 1, not {self.max_plies}")
        self.holes = holes
        info = pyspiel.GameInfo(
            num_distinct_actions=holes * holes,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_plies,
        )
        pyspiel.Game.__init__(self, _STAR_TYPE, info, params)

    def new_initial_state(self) -> _StarState:
        return _StarState(self)

    def make_py_observer(
        self, iig_obs_type: Optional[Any] = None, params: Optional[dict[str, Any]] = None
    ) -> _Observer:
        return _Observer((2, self.holes), params)


_STAR_TYPE = pyspiel.GameType(
    short_name=STAR_NAME,
    long_name="shashki: the star board (Chinese checkers), two players",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"holes": 121, "hop_over": "any", "max_plies": 1000},
)
if STAR_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_STAR_TYPE, _StarGame)
