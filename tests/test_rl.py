"""The reinforcement-learning environments (``shashki.learn.rl``) against the ecosystem's own
checkers, and their rules against the library's."""

from __future__ import annotations

import gymnasium  # noqa: E402, F401
import numpy as np  # noqa: E402
import pytest
import shashki  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from shashki.engine import Limit  # noqa: E402
from shashki.learn.batch import move_actions  # noqa: E402
from shashki.learn.rl import DraughtsEnv  # noqa: E402


def test_the_environment_passes_gymnasiums_checker() -> None:
    check_env(DraughtsEnv(), skip_render_check=True)
    check_env(DraughtsEnv(Limit(depth=1), agent_color=shashki.BLACK), skip_render_check=True)


def play(env: DraughtsEnv, seed: int) -> tuple[float, bool]:
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return reward, terminated


def test_games_against_the_engine_end_and_mostly_lose() -> None:
    env = DraughtsEnv(Limit(depth=3), max_plies=300)
    rewards = [play(env, seed)[0] for seed in range(6)]
    assert all(r in (-1.0, 0.0, 1.0) for r in rewards)
    assert sum(r < 0 for r in rewards) >= 4  # a random mover loses to the engine


def test_an_action_the_mask_forbids_loses_and_the_game_waits_for_reset() -> None:
    env = DraughtsEnv()
    _, info = env.reset(seed=0)
    forbidden = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, _, info = env.step(forbidden)
    assert reward == -1.0 and terminated and not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=1)


def test_move_actions_play_the_move() -> None:
    board = shashki.Board("W:WK29:B18,10,11,26,3")
    env = DraughtsEnv(fen=board.fen())
    _, info = env.reset(seed=0)
    for move in board.legal_moves:
        actions = move_actions(board, move)
        assert info["action_mask"][actions[0]]


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # dict observations, by design
def test_the_two_agent_game_passes_pettingzoos_api_test() -> None:
    import pettingzoo  # noqa: F401
    from pettingzoo.test import api_test
    from shashki.learn.rl import DraughtsAEC

    api_test(DraughtsAEC(), num_cycles=300, verbose_progress=False)


def test_the_two_agent_game_sees_each_side_from_its_own_view() -> None:
    import pettingzoo  # noqa: F401
    from shashki.learn.rl import DraughtsAEC

    env = DraughtsAEC()
    env.reset(seed=0)
    white, black = env.observe("player_0"), env.observe("player_1")
    assert white["action_mask"].sum() == 7 and black["action_mask"].sum() == 0
    # The start is symmetric: each side sees the same picture of its own men.
    assert np.array_equal(white["observation"], black["observation"])
    env.step(int(np.flatnonzero(white["action_mask"])[0]))
    assert env.agent_selection == "player_1"


def test_the_ten_by_ten_games_have_their_own_spaces() -> None:
    env = DraughtsEnv(opponent="random", variant="international")
    observation, info = env.reset(seed=2)
    assert observation.shape == (6, 10, 10) and env.observation_space.contains(observation)
    assert env.action_space.n == 1800 and info["action_mask"].shape == (1800,)
    action = int(np.flatnonzero(info["action_mask"])[0])
    observation, reward, terminated, truncated, info = env.step(action)
    assert observation.shape == (6, 10, 10) and reward in (-1.0, 0.0, 1.0)
    from shashki.learn.rl import DraughtsAEC

    game = DraughtsAEC(variant="international")
    game.reset(seed=1)
    seen = game.observe("player_0")
    assert seen["observation"].shape == (6, 10, 10) and seen["action_mask"].shape == (1800,)
