"""The batch API (``shashki.learn.batch``): masks and steps against ``Board``, results against
``Game``, observations against the board, seeds, bad input."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import numpy as np  # noqa: E402
import pytest
import shashki  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from shashki.learn.batch import ACTIONS, PLANES, Boards  # noqa: E402
from strategies import positions  # noqa: E402

# 10^5 random positions in the long profile (HYPOTHESIS_PROFILE=long).
POSITIONS = 100_000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 300

VARIANTS = [
    ("russian", False),
    ("russian", True),
    ("giveaway", False),
    ("brazilian", False),
    ("diagonal", False),
]


def dark_coords(square: int, size: int = 8) -> tuple[int, int]:
    """(file, rank) of a dark square's index (0 = a1, along the rank) on a board of side
    ``size``, written out here independently of the core."""
    half = size // 2
    rank = square // half
    return (square % half) * 2 + rank % 2, rank


def action(turn: bool, start: int, end: int) -> int:
    """The documented numbering, written out here independently of the core."""
    if not turn:
        start, end = 31 - start, 31 - end
    (f0, r0), (f1, r1) = dark_coords(start), dark_coords(end)
    up, right = r1 > r0, f1 > f0
    direction = {(True, False): 0, (True, True): 1, (False, False): 2, (False, True): 3}
    return (start * 4 + direction[(up, right)]) * 7 + abs(f1 - f0) - 1


def jumps_by(
    action_of: Callable[[bool, int, int], int],
) -> Callable[[shashki.Board, shashki.Move], list[int]]:
    """A move's actions, one a jump (a quiet move's one step), numbered by `action_of`."""

    def jumps_of(board: shashki.Board, move: shashki.Move) -> list[int]:
        out, at = [], move.start
        for landing in move.path:
            out.append(action_of(board.turn, at, landing))
            at = landing
        return out

    return jumps_of


jumps = jumps_by(action)


def playable(fen: str, variant: str, optional: bool) -> shashki.Board | None:
    try:
        board = shashki.Board(fen, variant=variant, captures_optional=optional)
    except ValueError:
        return None
    return board if board.legal_moves else None


def one_game(fen: str, rules: tuple[str, bool]) -> tuple[shashki.Board, Boards] | None:
    """The position as a board and as a batch of one game, if it is legal and playable."""
    variant, optional = rules
    board = playable(fen, variant, optional)
    if board is None:
        return None
    return board, Boards(1, variant=variant, captures_optional=optional, fens=[board.fen()])


@settings(max_examples=POSITIONS, deadline=None)
@given(fen=positions(), rules=st.sampled_from(VARIANTS))
def test_the_mask_is_the_first_jumps_of_the_legal_moves_and_steps_replay_them(
    fen: str, rules: tuple[str, bool]
) -> None:
    game = one_game(fen, rules)
    if game is None:
        return
    board, boards = game
    variant, optional = rules
    fen = board.fen()
    mask = boards.legal_action_mask()[0]
    expected = {jumps(board, m)[0] for m in board.legal_moves}
    assert set(np.flatnonzero(mask)) == expected
    sequences = {tuple(jumps(board, m)): m for m in board.legal_moves}
    assert len(sequences) == len(board.legal_moves)  # one sequence a move
    for sequence, move in sequences.items():
        game = Boards(1, variant=variant, captures_optional=optional, fens=[fen], max_plies=10**6)
        for jump in sequence[:-1]:
            assert game.legal_action_mask()[0][jump]
            game.step([jump])
            assert game.fens() == [fen]  # the capture goes on: the position waits
        _, _, terminated, _ = game.step([sequence[-1]])
        after = board.copy()
        after.push(move)
        if not terminated[0]:
            assert game.fens() == [after.fen()]
            assert game.board(0).move_stack == [move]


def moves_stepped(
    boards: Boards,
    game: shashki.Game,
    jumps_of: Callable[[shashki.Board, shashki.Move], list[int]],
    actions: int,
    prefixes: bool = False,
) -> Iterator[tuple[list[int], bool, bool]]:
    """Step the one game of `boards` by its own sampled actions, at most `actions` of them,
    beside `game`: each time the actions since the last move are one legal move's jumps
    (`jumps_of`), push that move on `game` and yield (its actions, terminated, truncated).
    With `prefixes`, actions that finish no move must begin one."""
    pending: list[int] = []
    for _ in range(actions):
        board = game.end().board()
        chosen = int(boards.sample_actions()[0])
        pending.append(chosen)
        _, _, terminated, truncated = boards.step([chosen])
        done = [m for m in board.legal_moves if jumps_of(board, m) == pending]
        if not done:
            if prefixes:
                assert any(jumps_of(board, m)[: len(pending)] == pending for m in board.legal_moves)
            continue  # a capture goes on
        game.push(done[0])
        yield pending, bool(terminated[0]), bool(truncated[0])
        pending = []


def result_of(outcome: shashki.Outcome | None) -> int:
    if outcome is None:
        return -2
    return 0 if outcome.winner is None else (1 if outcome.winner else -1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(VARIANTS))
def test_games_end_as_shashki_game_says(seed: int, rules: tuple[str, bool]) -> None:
    variant, optional = rules
    boards = Boards(1, variant=variant, captures_optional=optional, seed=seed, max_plies=300)
    game = shashki.Game(variant=variant, captures_optional=optional)
    for _, terminated, truncated in moves_stepped(boards, game, jumps, 2000):
        if terminated:
            assert game.outcome() is not None
            assert boards.results()[0] == result_of(game.outcome())
            return
        if truncated:
            assert game.outcome() is None and len(game.mainline_moves()) == 300
            assert boards.results()[0] == 2
            return
        assert game.outcome() is None
        assert boards.board(0).move_stack == game.mainline_moves()
    raise AssertionError("no game ended in 2000 actions")


def test_a_draw_by_the_rules_ends_a_batch_game() -> None:
    # Three kings against a king on the main road, 7.2.7: a draw by White's 5th move.
    boards = Boards(1, fens=["W:WKb8,Kd8,Kf8:BKc3"], seed=3)
    for _ in range(200):
        _, _, terminated, _ = boards.step(boards.sample_actions())
        if terminated[0]:
            break
    assert terminated[0] and boards.results()[0] in (0, 1)


def test_observation_planes_are_the_side_to_moves_view() -> None:
    board = shashki.Board("W:W22,K31:B10,K5")  # White: c3, a king on e1; Black: d6, a king on a7
    planes = Boards(1, fens=[board.fen()]).observation()[0]
    assert planes.shape == (PLANES, 8, 8) and planes.dtype == np.float32

    def cells(plane: int) -> set[str]:
        ranks, files = np.nonzero(planes[plane])
        return {"abcdefgh"[f] + str(r + 1) for r, f in zip(ranks, files)}

    def names(color: bool, king: bool) -> set[str]:
        return {shashki.square_name(s) for s in board.pieces(color, king=king)}

    assert cells(0) == names(True, False) and cells(1) == names(True, True)
    assert cells(2) == names(False, False) and cells(3) == names(False, True)
    assert not planes[4].any() and not planes[5].any()
    # The same game seen from the other side gives the same planes.
    mirrored = Boards(1, fens=[board.mirror().fen()]).observation()[0]
    assert np.array_equal(planes, mirrored)


def seen(turn: bool, square: int) -> tuple[int, int]:
    """A square's (rank, file) in the planes of the side to move (Black's turned round)."""
    index = square if turn else 31 - square
    rank = index // 4
    return rank, (index % 4) * 2 + rank % 2


@settings(max_examples=POSITIONS, deadline=None)
@given(fen=positions(), rules=st.sampled_from(VARIANTS))
def test_observation_planes_show_every_piece_from_the_side_to_moves_view(
    fen: str, rules: tuple[str, bool]
) -> None:
    game = one_game(fen, rules)
    if game is None:
        return
    board, boards = game
    expected = np.zeros((PLANES, 8, 8), np.float32)
    turn = board.turn
    for plane, (color, king) in enumerate([(turn, False), (turn, True), (not turn, False)]):
        for square in board.pieces(color, king=king):
            expected[(plane, *seen(turn, square))] = 1.0
    for square in board.pieces(not turn, king=True):
        expected[(3, *seen(turn, square))] = 1.0
    assert np.array_equal(boards.observation()[0], expected)
    # Mid-capture: the capturing piece on its landing square, its prey so far.
    move = next(iter(board.legal_moves))
    if len(move.path) > 1:
        boards.step([jumps(board, move)[0]])
        planes = boards.observation()[0]
        assert np.array_equal(planes[:4], expected[:4])  # nothing leaves the board yet
        assert list(zip(*np.nonzero(planes[4]))) == [seen(turn, move.path[0])]
        assert planes[5].sum() == 1 and planes[2:4].sum(0)[planes[5] == 1].all()


def test_mid_capture_planes_show_the_capturing_piece_and_its_prey() -> None:
    board = shashki.Board("W:W27:B23,15")  # f2 takes e3 and e5: f2:d4:f6
    (move,) = list(board.legal_moves)
    assert len(move.path) == 2
    boards = Boards(1, fens=[board.fen()])
    boards.step([jumps(board, move)[0]])
    planes = boards.observation()[0]
    assert planes[4].sum() == 1 and planes[5].sum() == 1
    assert planes[2].sum() == 2  # the taken piece is still on the board


def test_reset_starts_every_game_again() -> None:
    boards = Boards(3, seed=2)
    start = boards.observation()
    for _ in range(5):
        boards.step(boards.sample_actions())
    assert not np.array_equal(boards.observation(), start)
    assert np.array_equal(boards.reset(), start)
    assert boards.fens() == [shashki.Board().fen()] * 3


def test_seeds_reproduce() -> None:
    def run(seed: int) -> list[str]:
        boards = Boards(8, seed=seed)
        for _ in range(60):
            boards.step(boards.sample_actions())
        return boards.fens()

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_arrays_written_into_out_are_the_arrays_made_anew() -> None:
    from shashki.learn.batch import PLANES

    boards = Boards(600, seed=3)  # enough games for the threaded path
    mask = np.ones((600, ACTIONS), np.bool_)  # stale values must all be overwritten
    planes = np.full((600, PLANES, 8, 8), 7.0, np.float32)
    for _ in range(30):
        assert boards.legal_action_mask(out=mask) is mask
        assert np.array_equal(mask, boards.legal_action_mask())
        observation, *_ = boards.step(boards.sample_actions(), out=planes)
        assert observation is planes
        assert np.array_equal(planes, boards.observation())
    for bad in [
        np.zeros((600, ACTIONS), np.uint8),  # dtype
        np.zeros((599, ACTIONS), np.bool_),  # shape
        np.zeros((ACTIONS, 600), np.bool_).T,  # not C-contiguous
        [[False] * ACTIONS] * 600,  # not an array
    ]:
        with pytest.raises(ValueError, match="out must"):
            boards.legal_action_mask(out=bad)  # type: ignore[arg-type]
    frozen = np.zeros((600, PLANES, 8, 8), np.float32)
    frozen.flags.writeable = False
    fens = boards.fens()
    with pytest.raises(ValueError, match="writeable"):
        boards.observation(out=frozen)
    with pytest.raises(ValueError, match="writeable"):
        boards.step(boards.sample_actions(), out=frozen)
    assert boards.fens() == fens and not frozen.any()


@pytest.mark.parametrize("dtype", [np.uint8, np.bool_])
@pytest.mark.parametrize("games", [5, 600])  # the calling thread's path and the threaded one
def test_byte_planes_hold_the_float_planes_values(dtype: type, games: int) -> None:
    from shashki.learn.batch import PLANES

    boards = Boards(games, seed=9, dtype=dtype)
    twin = Boards(games, seed=9)  # float32
    assert boards.observation().dtype == dtype and twin.observation().dtype == np.float32
    stale = np.ones((games, PLANES, 8, 8), dtype)  # stale values must all be overwritten
    finished = False
    for _ in range(120):
        actions = boards.sample_actions()
        observation, _, terminated, truncated = boards.step(actions)
        float_planes, _, twin_terminated, _ = twin.step(actions)
        assert observation.dtype == dtype
        assert np.array_equal(observation.astype(np.float32), float_planes)
        assert np.array_equal(boards.observation(out=stale), float_planes)
        assert np.array_equal(terminated, twin_terminated)
        finished = finished or bool(terminated.any() or truncated.any())
    assert finished  # the final planes, too, after a game has ended
    final = boards.final_observation()
    assert final.dtype == dtype
    assert np.array_equal(final.astype(np.float32), twin.final_observation())
    # An out= array of another plane dtype is written in its own dtype.
    into = np.full((games, PLANES, 8, 8), 3.0, np.float32)
    observation, *_ = boards.step(boards.sample_actions(), out=into)
    assert observation is into and set(np.unique(into)) <= {0.0, 1.0}
    with pytest.raises(ValueError, match="dtype"):
        Boards(2, dtype=np.int16)
    fens = boards.fens()
    with pytest.raises(ValueError, match="out must"):
        boards.step(boards.sample_actions(), out=np.zeros((games, PLANES, 8, 8), np.int16))
    with pytest.raises(ValueError, match="float32, uint8 or bool"):  # the core checks too
        boards._core.observation(np.zeros((games, PLANES, 8, 8), np.int16))
    with pytest.raises(ValueError, match="float32, uint8 or bool"):
        boards._core.observation(dtype="int8")
    assert boards.fens() == fens


@pytest.mark.parametrize("games", [7, 600])  # the calling thread's path and the threaded one
def test_a_step_writes_the_next_mask_as_legal_action_mask_does(games: int) -> None:
    boards = Boards(games, seed=4)
    twin = Boards(games, seed=4)
    mask = np.ones((games, ACTIONS), np.bool_)  # stale values must all be overwritten
    for _ in range(40):
        actions = boards.sample_actions()
        observation, rewards, terminated, truncated = boards.step(actions, mask=mask)
        expected = twin.step(actions)
        assert np.array_equal(mask, boards.legal_action_mask())
        assert np.array_equal(observation, expected[0]) and np.array_equal(rewards, expected[1])
        assert np.array_equal(terminated, expected[2]) and np.array_equal(truncated, expected[3])
    fens = boards.fens()
    for bad in [np.zeros((games, ACTIONS), np.uint8), np.zeros((games + 1, ACTIONS), np.bool_)]:
        with pytest.raises(ValueError, match="mask must"):
            boards.step(boards.sample_actions(), mask=bad)
    assert boards.fens() == fens


@pytest.mark.parametrize("games", [7, 600])
def test_the_mask_a_step_prepares_is_the_mask_of_the_games_then(games: int) -> None:
    """After ``legal_action_mask()``, the next step writes the next mask in its own pass and
    ``legal_action_mask()`` hands it over: the same values as a twin batch's, computed
    afresh, through steps, resets and a refused step; a mask handed over is the caller's
    (later steps leave it alone)."""
    boards, twin = Boards(games, seed=6), Boards(games, seed=6)
    first = boards.legal_action_mask()
    kept = first.copy()
    for turn in range(60):
        actions = boards.sample_actions()
        twin.step(actions)
        if turn == 20:  # a refused step changes nothing
            illegal = actions.copy()
            illegal[0] = int(np.flatnonzero(~boards.legal_action_mask()[0])[0])
            with pytest.raises(ValueError, match="row 0"):
                boards.step(illegal)
        boards.step(actions)
        if turn == 40:
            boards.reset()
            twin.reset()
        if turn % 7 != 3:  # now and then the mask is not asked for: none prepared
            mask = boards.legal_action_mask()
            assert np.array_equal(mask, twin._core.legal_action_mask(np.empty_like(mask)))
            assert mask is not boards.legal_action_mask()  # asked twice: a new array
    assert np.array_equal(first, kept)


def test_bad_input_is_refused_and_no_game_changes() -> None:
    boards = Boards(3, seed=1)
    boards.step(boards.sample_actions())
    fens, mask = boards.fens(), boards.legal_action_mask()
    good = boards.sample_actions()
    illegal = good.copy()
    illegal[1] = int(np.flatnonzero(~mask[1])[0])
    for bad, message in [
        (illegal, "row 1"),
        (good[:2], "shape"),
        (good.astype(np.float64), "integers"),
        (np.array([0, 0, ACTIONS + 5]), "row 0|row 2"),
        (np.array([-1, 0, 0]), "row 0"),
    ]:
        with pytest.raises(ValueError, match=message):
            boards.step(bad)
        assert boards.fens() == fens
        assert np.array_equal(boards.legal_action_mask(), mask)
    with pytest.raises(ValueError, match="fens"):
        Boards(2, fens=["W:W21:B1", "not a fen"])
    with pytest.raises(ValueError, match="n must be"):
        Boards(0)
    with pytest.raises(ValueError, match="n must be"):
        Boards(1 << 40)
    from shashki.learn.batch import playouts

    with pytest.raises(ValueError, match="games must be"):
        playouts(1 << 40)
    with pytest.raises(ValueError):
        playouts(2, fen="W:W21:B1:nonsense")


def test_playouts_are_reproducible_whatever_the_threads() -> None:
    from shashki.learn.batch import playouts

    one = playouts(300, seed=5, threads=1)
    two = playouts(300, seed=5, threads=2)
    assert np.array_equal(one.results, two.results)
    assert np.array_equal(one.lengths, two.lengths)
    results, lengths = one.results, one.lengths
    assert set(np.unique(results)) <= {1, -1, 0, 2}
    assert lengths.max() <= 400 and lengths.min() > 0
    assert not np.array_equal(playouts(300, seed=6).lengths, lengths)
    assert one.planes is None and one.fens is None


def test_playouts_end_as_the_variant_says() -> None:
    from shashki.learn.batch import playouts

    # White to move without a move: lost in Russian draughts, won in giveaway.
    fen = "W:Wa1:Bb2,c3"
    results, lengths, *_ = playouts(3, fen=fen)
    assert results.tolist() == [-1, -1, -1] and lengths.tolist() == [0, 0, 0]
    assert playouts(3, fen=fen, variant="giveaway").results.tolist() == [1, 1, 1]
    # Three kings against a lone king on the main road: the draw rules (7.2.7, then 7.2.4
    # or 7.2.8 after a capture) end every random game soon that the king does not lose.
    results, lengths, *_ = playouts(50, fen="W:WKb8,Kd8,Kf8:BKc3", seed=1)
    assert 0 in results.tolist() and 2 not in results.tolist()
    assert lengths.max() < 100


def test_batch_search_labels_agree_with_the_engine() -> None:
    from shashki.engine import Engine, Limit
    from shashki.learn.batch import Boards, search

    boards = Boards(6, seed=4)
    for _ in range(9):
        boards.step(boards.sample_actions())
    fens = boards.fens() + ["W:WK29:B1", "B:WK29:B1"]
    labels = search(fens, depth=6, threads=2, hash_mb=4)
    alone = search(fens, depth=6, threads=1, hash_mb=4)
    assert np.array_equal(labels.scores, alone.scores) and labels.moves == alone.moves
    for i, fen in enumerate(fens):
        with Engine(hash_mb=4) as engine:
            info = engine.analyse(shashki.Board(fen), Limit(depth=6))
        score = info["score"].relative
        assert (labels.scores[i], labels.wins[i]) == (score.cp or 0, score.win or 0)
        board = shashki.Board(fen)
        best = board.parse_move(labels.moves[i])
        assert best in board.legal_moves
        assert labels.actions[i] == jumps(board, best)[0]
    assert labels.wins[-2] > 0 and labels.wins[-1] < 0  # the king wins, the man loses
    classic = search(fens[:3], depth=4, evaluation="classic")
    with shashki.engine.Engine(hash_mb=16, evaluation="classic") as engine:
        info = engine.analyse(shashki.Board(fens[0]), Limit(depth=4))
    assert classic.scores[0] == (info["score"].relative.cp or 0)
    with pytest.raises(ValueError, match="evaluation"):
        search(fens[:1], depth=2, evaluation="magic")
    with pytest.raises(ValueError, match="depth or nodes"):
        search(fens)
    with pytest.raises(ValueError, match=r"fens\[1\]"):
        search(["W:W21:B1", "nonsense"], depth=2)


def test_engine_playouts_keep_their_positions_and_beat_random_play() -> None:
    from shashki.learn.batch import playouts

    played = playouts(8, policy="engine", depth=3, seed=2, positions=True, threads=2)
    again = playouts(8, policy="engine", depth=3, seed=2, positions=True, threads=1)
    assert np.array_equal(played.results, again.results) and played.fens == again.fens
    assert played.planes is not None and played.games is not None and played.fens is not None
    assert played.planes.shape == (int(played.lengths.sum()), 6, 8, 8)
    assert np.array_equal(np.bincount(played.games, minlength=8), played.lengths)
    first = played.fens[0]
    assert first == shashki.Board().fen()
    assert np.array_equal(played.planes[0], Boards(1, fens=[first]).observation()[0])
    with pytest.raises(ValueError, match="depth or nodes"):
        playouts(2, policy="engine")
    with pytest.raises(ValueError, match="policy"):
        playouts(2, policy="clever")


def test_the_learning_example_beats_the_random_mover() -> None:
    """``examples/learn_value.py`` at a small scale: a linear value fitted to 3,000 random
    playouts wins at least 95 % of 40 games against the random mover with two plies of
    lookahead, and more than untrained weights do with one."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "learn_value.py"
    spec = importlib.util.spec_from_file_location("learn_value", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    x, y = example.training_data(3000, seed=1)
    assert x.shape == (len(y), 129) and set(np.unique(y)) <= {0.0, 0.5, 1.0}
    weights = example.fit(x, y)
    wins, _, _ = example.match(example.Learner(weights, lookahead=2), 40, seed=2)
    assert wins >= 38
    trained, _, _ = example.match(example.Learner(weights, lookahead=1), 40, seed=2)
    untrained, _, _ = example.match(example.Learner(0 * weights, lookahead=1), 40, seed=2)
    assert trained > untrained


@pytest.mark.parametrize("variant", ["russian", "english", "italian", "thai"])
def test_legal_actions_lists_what_the_mask_holds(variant: str) -> None:
    boards = Boards(64, seed=5, variant=variant)
    for _ in range(60):
        offsets, actions = boards.legal_actions()
        mask = boards.legal_action_mask()
        assert offsets.shape == (65,) and offsets[0] == 0 and offsets[-1] == len(actions)
        for i in range(64):
            row = actions[offsets[i] : offsets[i + 1]]
            assert list(row) == list(np.flatnonzero(mask[i]))
        boards.step(boards.sample_actions())


# ---- the 10×10 board: 1800 actions, 10×10 planes ------------------------------------------

TEN = ["international", "antidraughts", "killer", "breakthrough"]


def action10(turn: bool, start: int, end: int) -> int:
    """The documented numbering on the 10×10 board, written out independently of the core:
    square index 0 = a1 along the rank, 50 squares, nine distances, Black's board turned."""
    if not turn:
        start, end = 49 - start, 49 - end
    (f0, r0), (f1, r1) = dark_coords(start, 10), dark_coords(end, 10)
    direction = {(True, False): 0, (True, True): 1, (False, False): 2, (False, True): 3}
    return (start * 4 + direction[(r1 > r0, f1 > f0)]) * 9 + abs(f1 - f0) - 1


jumps10 = jumps_by(action10)


def random_positions(variant: str, games: int, plies: int, seed: int) -> list[shashki.Board]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        board = shashki.Board(variant=variant)
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            out.append(board.copy())
            board.push(moves[int(rng.integers(len(moves)))])
    return out


def replay_every_move(
    board: shashki.Board,
    variant: str,
    jumps_of: Callable[[shashki.Board, shashki.Move], list[int]],
) -> None:
    """Each legal move of `board` is one sequence of actions (`jumps_of`), and a batch game
    stepping it, jump by jump with each jump in the mask, stands where the move leads."""
    sequences = {tuple(jumps_of(board, m)): m for m in board.legal_moves}
    assert len(sequences) == len(board.legal_moves)
    for sequence, move in sequences.items():
        game = Boards(1, variant=variant, fens=[board.fen()], max_plies=10**6)
        for jump in sequence[:-1]:
            assert game.legal_action_mask()[0][jump]
            game.step([jump])
        _, _, terminated, _ = game.step([sequence[-1]])
        if not terminated[0]:
            after = board.copy()
            after.push(move)
            assert game.fens() == [after.fen()]
            assert game.board(0).move_stack == [move]


def masks_replay_every_move(
    positions: list[shashki.Board],
    variant: str,
    size: int,
    actions: int,
    jumps_of: Callable[[shashki.Board, shashki.Move], list[int]],
) -> None:
    """For each position, a batch of it has the board's shape, its mask holds the legal
    moves' first jumps, and every move replays (`replay_every_move`); more than 20
    positions, some with a capture."""
    checked = captures = 0
    for board in positions:
        boards = Boards(1, variant=variant, fens=[board.fen()], max_plies=10**6)
        assert boards.action_count == actions
        assert boards.observation_shape == (PLANES, size, size)
        mask = boards.legal_action_mask()[0]
        assert mask.shape == (actions,)
        assert set(np.flatnonzero(mask)) == {jumps_of(board, m)[0] for m in board.legal_moves}
        replay_every_move(board, variant, jumps_of)
        checked += 1
        captures += board.has_captures()
    assert checked > 20 and captures > 0


@pytest.mark.parametrize("variant", TEN)
def test_ten_by_ten_masks_and_steps_replay_every_legal_move(variant: str) -> None:
    positions = random_positions(variant, games=2, plies=90, seed=len(variant))[::3]
    masks_replay_every_move(positions, variant, 10, 1800, jumps10)


def planes_seen(board: shashki.Board, size: int) -> np.ndarray:
    """The planes of `board` on a board of side `size`, written out independently of the
    core: own men, own kings, the opponent's men and kings, Black's board turned."""
    last = size * size // 2 - 1
    expected = np.zeros((PLANES, size, size), np.float32)
    turn = board.turn
    for plane, (color, king) in enumerate(
        [(turn, False), (turn, True), (not turn, False), (not turn, True)]
    ):
        for square in board.pieces(color, king=king):
            file, rank = dark_coords(square if turn else last - square, size)
            expected[plane, rank, file] = 1.0
    return expected


@pytest.mark.parametrize(
    ("variant", "fen", "size"),
    [("international", "B:W32,K46:B19,K5", 10), ("canadian", "B:W40,K67:B19,K5", 12)],
)
def test_larger_boards_planes_are_the_side_to_moves_view(variant: str, fen: str, size: int) -> None:
    board = shashki.Board(fen, variant=variant)
    planes = Boards(1, variant=variant, fens=[board.fen()]).observation()[0]
    assert planes.shape == (PLANES, size, size)
    assert np.array_equal(planes, planes_seen(board, size))


@pytest.mark.parametrize("variant", ["international", "breakthrough"])
def test_ten_by_ten_games_end_as_shashki_game_says(variant: str) -> None:
    for seed in range(2):
        boards = Boards(1, variant=variant, seed=seed, max_plies=400)
        game = shashki.Game(variant=variant)
        for _, terminated, truncated in moves_stepped(boards, game, jumps10, 3000):
            if terminated or truncated:
                assert boards.results()[0] == (2 if truncated else result_of(game.outcome()))
                break
            assert game.outcome() is None
        else:
            raise AssertionError("no game ended in 3000 actions")


def test_ten_by_ten_playouts() -> None:
    from shashki.learn.batch import action_count, playouts

    out = playouts(8, variant="international", seed=3, positions=True)
    assert out.planes is not None and out.planes.shape[1:] == (PLANES, 10, 10)
    assert len(out.fens) == out.planes.shape[0] == int(out.lengths.sum())
    assert action_count("international") == 1800 and action_count("russian") == ACTIONS
    with pytest.raises(ValueError, match="unknown variant"):
        action_count("chess")


def action_frisian(turn: bool, start: int, end: int) -> int:
    """Frisian draughts' documented numbering, written out independently of the core: the
    10×10 board's four diagonals (0-3, as :func:`action10`), then along the rank left (4)
    and right (5) and along the file down (6) and up (7), a step two files or two ranks;
    eight lines, nine distances."""
    if not turn:
        start, end = 49 - start, 49 - end
    (f0, r0), (f1, r1) = dark_coords(start, 10), dark_coords(end, 10)
    if r1 == r0:
        line, distance = (4 if f1 < f0 else 5), abs(f1 - f0) // 2
    elif f1 == f0:
        line, distance = (6 if r1 < r0 else 7), abs(r1 - r0) // 2
    else:
        direction = {(True, False): 0, (True, True): 1, (False, False): 2, (False, True): 3}
        line, distance = direction[(r1 > r0, f1 > f0)], abs(f1 - f0)
    return (start * 8 + line) * 9 + distance - 1


def test_frisian_games_step_by_their_eight_lines() -> None:
    """Frisian draughts in the batch API: 3,600 actions; every move reached by its jumps
    (orthogonal ones included) as the documented numbering gives them, and each game ends
    as shashki's Game says (its king-run limit kept by the batch's positions too)."""
    from shashki.learn.batch import action_count

    assert action_count("frisian") == action_count("frysk") == 50 * 8 * 9

    orthogonal_jumps = 0
    for seed in range(3):
        boards = Boards(1, variant="frisian", seed=seed, max_plies=400)
        assert boards.action_count == 3600
        game = shashki.Game(variant="frisian")

        stepped = moves_stepped(boards, game, jumps_by(action_frisian), 3000, prefixes=True)
        for pending, terminated, truncated in stepped:
            orthogonal_jumps += sum(1 for a in pending if (a // 9) % 8 >= 4)
            if terminated or truncated:
                assert boards.results()[0] == (2 if truncated else result_of(game.outcome()))
                break
            assert game.outcome() is None
            assert boards.board(0).fen() == game.end().board().fen()
        else:
            raise AssertionError("no game ended in 3000 actions")
    assert orthogonal_jumps > 0


def action12(turn: bool, start: int, end: int) -> int:
    """The documented numbering on the 12×12 board (Canadian draughts), written out
    independently of the core: 72 squares, four diagonals, eleven distances, Black's board
    turned."""
    if not turn:
        start, end = 71 - start, 71 - end
    (f0, r0), (f1, r1) = dark_coords(start, 12), dark_coords(end, 12)
    direction = {(True, False): 0, (True, True): 1, (False, False): 2, (False, True): 3}
    return (start * 4 + direction[(r1 > r0, f1 > f0)]) * 11 + abs(f1 - f0) - 1


jumps12 = jumps_by(action12)


def test_twelve_by_twelve_masks_and_steps_replay_every_legal_move() -> None:
    from shashki.learn.batch import action_count, board_size, move_actions

    assert action_count("canadian") == 72 * 4 * 11 and board_size("canadian") == 12
    positions = random_positions("canadian", games=2, plies=120, seed=12)[::4]
    for board in positions:
        for move in board.legal_moves:
            assert move_actions(board, move) == jumps12(board, move)
    masks_replay_every_move(positions, "canadian", 12, 3168, jumps12)


def test_twelve_by_twelve_games_end_as_shashki_game_says() -> None:
    boards = Boards(1, variant="canadian", max_plies=300)
    game = shashki.Game(variant="canadian")
    for _, terminated, truncated in moves_stepped(boards, game, jumps12, 4000, prefixes=True):
        if terminated or truncated:
            assert boards.results()[0] == (2 if truncated else result_of(game.outcome()))
            break
        assert game.outcome() is None
        assert boards.board(0).fen() == game.end().board().fen()
    else:
        raise AssertionError("no game ended in 4000 actions")
