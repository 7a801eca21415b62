"""shashki's games registered in OpenSpiel (``shashki.learn.openspiel``): OpenSpiel's own
random-simulation checks, its MCTS bot playing a whole game, and the states' actions and
observations equal to the batch API's. Skipped only where open_spiel cannot install."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
import shashki

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel has no wheel for this platform")
openspiel = pytest.importorskip("shashki.learn.openspiel")
from shashki.learn.batch import Boards  # noqa: E402

FLAT = [c.name for c in shashki.games() if c.actions]


def test_every_game_that_fits_the_actions_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {openspiel.game_name(v) for v in FLAT} <= names
    assert set(openspiel.GAMES) == {openspiel.game_name(v) for v in FLAT}
    assert "shashki_ugolki" not in names  # its jumps do not fit the actions
    game = pyspiel.load_game("shashki_international")
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_distinct_actions() == 1800
    assert game.observation_tensor_shape() == [6, 10, 10]


@pytest.mark.parametrize("variant", FLAT)
def test_openspiels_random_simulation_checks_pass(variant: str) -> None:
    game = pyspiel.load_game(openspiel.game_name(variant) + "(max_plies=120)")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("variant", ["russian", "english", "international", "frisian"])
def test_states_are_the_batch_games_action_for_action(variant: str) -> None:
    game = pyspiel.load_game(openspiel.game_name(variant))
    state = game.new_initial_state()
    boards = Boards(1, variant=variant, seed=5)
    rng = np.random.default_rng(5)
    first_white = shashki.game_info(variant).first == "white"
    while not state.is_terminal():
        mask = boards.legal_action_mask()[0]
        assert state.legal_actions() == list(np.flatnonzero(mask))
        assert np.array_equal(np.array(state.observation_tensor()), boards.observation()[0].ravel())
        white = boards.fens()[0].startswith("W")
        assert state.current_player() == (0 if white == first_white else 1)
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        _, rewards, terminated, truncated = boards.step(np.array([action]))
    result = int(boards.results()[0])
    white_value = float(result) if result in (1, -1) else 0.0
    expected = white_value if first_white else -white_value
    assert state.returns() == [expected, -expected]
    final = boards.final_observation()[0].ravel()
    assert np.array_equal(np.array(state.observation_tensor(0)), final)


def test_a_state_clones_serialises_and_pickles() -> None:
    game = pyspiel.load_game("shashki_russian")
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    clone = state.clone()
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    unpickled = pickle.loads(pickle.dumps(state))
    for other in (clone, restored, unpickled):
        assert str(other) == str(state) and other.history() == state.history()
        assert other.legal_actions() == state.legal_actions()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()  # a clone goes its own way


def test_openspiels_mcts_bot_plays_a_whole_game() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("shashki_english(max_plies=80)")
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 1.4, 20, evaluator, random_state=rng) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == 0 and state.returns()[0] in (-1.0, 0.0, 1.0)


# --- the star board, two players ------------------------------------------------------------


def test_the_star_is_registered_and_passes_openspiels_checks() -> None:
    game = pyspiel.load_game("shashki_star")
    assert game.num_distinct_actions() == 121 * 121 and game.num_players() == 2
    assert game.observation_tensor_shape() == [2, 121]
    small = pyspiel.load_game("shashki_star(holes=73,max_plies=150)")
    assert small.num_distinct_actions() == 73 * 73
    pyspiel.random_sim_test(small, num_sims=3, serialize=True, verbose=False)
    with pytest.raises(Exception, match="holes"):
        pyspiel.load_game("shashki_star(holes=100)")


def test_star_states_are_the_batch_games_action_for_action() -> None:
    from shashki.learn.star import StarBoards

    game = pyspiel.load_game("shashki_star(holes=73)")
    state = game.new_initial_state()
    boards = StarBoards(1, size=3)
    seed = 0
    while not state.is_terminal():
        mask = boards.legal_action_mask()[0]
        assert state.legal_actions() == list(np.flatnonzero(mask))
        assert np.array_equal(np.array(state.observation_tensor()), boards.observation()[0].ravel())
        board = boards.board(0)
        assert state.current_player() == board.turn
        # Greedy play, so that the race ends: the greedy move's action.
        seed += 1
        move = board.greedy_move(seed)
        action = next(a for a in state.legal_actions() if boards.move(0, a) == move)
        state.apply_action(action)
        boards.step(np.array([action]))
    winner = int(boards.results()[0])
    assert winner in (1, -1) and state.returns() == [float(winner), float(-winner)]
    clone = state.clone()
    unpickled = pickle.loads(pickle.dumps(state))
    assert clone.returns() == unpickled.returns() == state.returns()
    assert unpickled.history() == state.history()
