"""The star board's batch API (``shashki.learn.star.StarBoards``): actions and planes from
the mover's view, steps, ends and restarts, checked against ``StarBoard``."""

from __future__ import annotations

import numpy as np
import pytest
from shashki.learn.star import StarBoards
from shashki.star import StarBoard


def test_actions_are_the_legal_moves_from_the_movers_view() -> None:
    boards = StarBoards(3, size=4, seed=4)
    assert boards.action_count == 121 * 121 and boards.observation_shape == (2, 121)
    for _ in range(30):
        mask = boards.legal_action_mask()
        offsets, actions = boards.legal_actions()
        for i in range(3):
            listed = actions[offsets[i] : offsets[i + 1]]
            assert list(listed) == list(np.flatnonzero(mask[i]))
            board = boards.board(i)
            assert sorted(boards.move(i, a) for a in listed) == sorted(board.legal_moves)
            planes = boards.observation()[i]
            assert planes.sum() == 20 and (planes[0] * planes[1]).sum() == 0
            # The mover's pieces, in its view, are its holes (turned for the second player).
            mine = set(np.flatnonzero(planes[0]))
            turned = {boards.move(i, a)[0] for a in listed}
            assert {h for h in turned} <= set(board.pieces(board.turn))
            assert len(mine) == 10
        boards.step(boards.sample_actions())


def test_games_end_won_and_start_again() -> None:
    boards = StarBoards(2, size=3, max_plies=400)
    wins = 0
    for step in range(400):
        actions = []
        for i in range(2):
            move = boards.board(i).greedy_move(step * 2 + i)
            offsets, listed = boards.legal_actions()
            actions.append(
                next(a for a in listed[offsets[i] : offsets[i + 1]] if boards.move(i, a) == move)
            )
        _, rewards, terminated, truncated = boards.step(np.array(actions))
        assert not truncated.any()
        assert list(rewards) == [1.0 if t else 0.0 for t in terminated]
        wins += int(terminated.sum())
        for i in np.flatnonzero(terminated):
            assert boards.board(int(i)).plies == 0  # started again
        if wins >= 3:
            break
    assert wins >= 3 and set(boards.results()) <= {1, -1}


def test_truncation_and_bad_actions() -> None:
    boards = StarBoards(2, size=3, max_plies=4, seed=1)
    for _ in range(3):
        _, _, _, truncated = boards.step(boards.sample_actions())
        assert not truncated.any()
    _, rewards, terminated, truncated = boards.step(boards.sample_actions())
    assert truncated.all() and not terminated.any() and not rewards.any()
    assert list(boards.results()) == [2, 2]
    before = [boards.board(i).text() for i in range(2)]
    good = boards.sample_actions()
    for bad in ([good[0], -1], [good[0], 10**9], [good[0]], [0.5, 1.5]):
        with pytest.raises(ValueError):
            boards.step(np.array(bad))
    assert [boards.board(i).text() for i in range(2)] == before
    copy = boards.copy()
    copy.step(copy.sample_actions())
    assert [boards.board(i).text() for i in range(2)] == before
    with pytest.raises(ValueError):
        StarBoards(0)
    with pytest.raises(ValueError):
        StarBoards(2, size=5)
    assert StarBoard(size=3).legal_moves  # the board class is the same game
