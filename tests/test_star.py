"""The star board (Chinese checkers): the Rust generator (``shashki.star``) against the
pure-Python reference written from the rules (``shashki.reference_star``), at every start
(both stars, 2, 3, 4 and 6 players, both readings of the hop), along random games and along
races played to their end."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki import reference_star as ref
from shashki.star import StarBoard

CONFIGS = [
    (size, players, hop) for size in (4, 3) for players in (2, 3, 4, 6) for hop in ("any", "others")
]


def reference_moves(state: ref.StarState, size: int) -> list[tuple[int, int]]:
    index = {hole: i for i, hole in enumerate(ref.holes(size))}
    return sorted((index[a], index[b]) for a, b in ref.moves(state))


def reference_play(state: ref.StarState, move: tuple[int, int]) -> ref.StarState:
    holes = ref.holes(state.size)
    return ref.play(state, (holes[move[0]], holes[move[1]]))


def test_the_boards_are_the_rules_boards() -> None:
    for size, holes, point in ((4, 121, 10), (3, 73, 6)):
        board = StarBoard(size=size)
        assert board.holes == ref.holes(size) and len(board.holes) == holes
        for player in range(2):
            seat, target = board.seat(player)
            assert (seat, target) == ((0, 3) if player == 0 else (3, 0))
            assert len(board.pieces(player)) == point
            assert {ref.point_of(board.holes[h], size) for h in board.pieces(player)} == {seat}


@pytest.mark.parametrize(("size", "players", "hop"), CONFIGS)
def test_perft_of_every_start_agrees_with_the_reference(size: int, players: int, hop: str) -> None:
    board = StarBoard(size=size, players=players, hop_over=hop)
    state = ref.StarState.start(size, players, hop)
    assert [board.perft(d) for d in (1, 2, 3)] == [ref.perft(state, d) for d in (1, 2, 3)]
    assert sorted(board.legal_moves) == reference_moves(state, size)


def test_perft_figures_of_the_two_player_star() -> None:
    """Our figures (no published ones found), the fourth ply the reference's too: the big
    star, two players, hops over any piece; the rules page's reading (over others' pieces
    only) moves far less at first."""
    assert [StarBoard().perft(d) for d in range(1, 6)] == [14, 196, 4_760, 115_600, 3_188_520]
    assert ref.perft(ref.StarState.start(4, 2, "any"), 4) == 115_600
    assert [StarBoard(hop_over="others").perft(d) for d in range(1, 4)] == [8, 64, 848]


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(CONFIGS),
    st.integers(min_value=0, max_value=2**32),
    st.integers(min_value=1, max_value=60),
)
def test_random_games_agree_with_the_reference_move_by_move(
    config: tuple[int, int, str], seed: int, plies: int
) -> None:
    size, players, hop = config
    rng = random.Random(seed)
    board = StarBoard(size=size, players=players, hop_over=hop)
    state = ref.StarState.start(size, players, hop)
    for _ in range(plies):
        moves = board.legal_moves
        assert sorted(moves) == reference_moves(state, size)
        if not moves:
            break
        move = rng.choice(moves)
        path = board.path(move)
        assert (path[0], path[-1]) == move
        board.push(move)
        state = reference_play(state, move)
        assert board.turn == state.turn and board.finished == state.finished


def distance(holes: list[tuple[int, int, int]], hole: int, tip: tuple[int, int, int]) -> int:
    q, r, s = holes[hole]
    return max(abs(q - tip[0]), abs(r - tip[1]), abs(s - tip[2]))


@pytest.mark.parametrize(
    ("size", "players", "hop"), [(3, 2, "any"), (3, 3, "any"), (3, 2, "others")]
)
def test_races_to_the_end_agree_with_the_reference(size: int, players: int, hop: str) -> None:
    """A greedy race (each move the one that brings the mover's pieces nearest its target's
    tip, ties by a seeded choice) played to its end by both generators, move by move: the
    finishing rule, the passing over of finished players and a piece kept in its target."""
    n = size
    tips = [
        (2 * n, -n, -n),
        (n, n, -2 * n),
        (-n, 2 * n, -n),
        (-2 * n, n, n),
        (-n, -n, 2 * n),
        (n, -2 * n, n),
    ]
    board = StarBoard(size=size, players=players, hop_over=hop, max_plies=400)
    state = ref.StarState.start(
        size,
        players,
        hop,
    )
    state.max_plies = 400
    holes = board.holes
    rng = random.Random(7)
    while not board.is_over():
        moves = board.legal_moves
        assert sorted(moves) == reference_moves(state, size)
        tip = tips[board.seat(board.turn)[1]]
        best = min(distance(holes, b, tip) - distance(holes, a, tip) for a, b in moves)
        move = rng.choice(
            [(a, b) for a, b in moves if distance(holes, b, tip) - distance(holes, a, tip) == best]
        )
        board.push(move)
        state = reference_play(state, move)
        assert board.finished == state.finished and board.is_over() == state.is_over()
    assert board.finished, "someone finished within the limit"
    assert board.legal_moves == [] and ref.moves(state) == []


def test_an_illegal_move_is_refused_and_the_board_kept() -> None:
    board = StarBoard(size=3, players=3)
    before = (board.legal_moves, board.turn, board.plies)
    for bad in [(0, 1), (0, 0), (500, 3)]:
        with pytest.raises(ValueError):
            board.push(bad)
    assert (board.legal_moves, board.turn, board.plies) == before
    with pytest.raises(ValueError, match="players"):
        StarBoard(players=5)
    with pytest.raises(ValueError, match="size"):
        StarBoard(size=5)
    with pytest.raises(ValueError, match="hop_over"):
        StarBoard(hop_over="own")
    board.push(board.legal_moves[0])
    assert board.pop() == board.legal_moves[0] or board.plies == 0
    assert board.plies == 0
