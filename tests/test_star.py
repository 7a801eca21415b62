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
        (-n, 2 * n, -n),
        (-2 * n, n, n),
        (-n, -n, 2 * n),
        (n, -2 * n, n),
        (2 * n, -n, -n),
        (n, n, -2 * n),
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


# --- names, position text, records -------------------------------------------------------

from shashki import IllegalMoveError, InvalidMoveError  # noqa: E402
from shashki.star import (  # noqa: E402
    WIN,
    StarTextError,
    hole_name,
    parse_hole,
    read_record,
    write_record,
)


def cube(board: StarBoard, name: str) -> tuple[int, int, int]:
    return board.holes[parse_hole(name, board.size)]


def test_holes_are_named_as_pbmserv_names_them() -> None:
    """Rows A (the top tip) to Q, numbers along the rising diagonals: A5 and Q13 are the big
    star's tips, row E runs E1..E13, row I (the middle) I5..I13; the server's own examples
    (N13-N12 a step, C6-E6 a hop, A5-C7-E7-E9-G11 a chain) are steps and hops here."""
    board = StarBoard()
    names = [hole_name(h) for h in range(121)]
    assert len(set(names)) == 121
    assert all(parse_hole(n) == h for h, n in enumerate(names))
    assert parse_hole("a5") == parse_hole(" A5 ")
    assert [n for n in names if n[0] == "A"] == ["A5"] and [n for n in names if n[0] == "Q"] == [
        "Q13"
    ]
    assert [n for n in names if n[0] == "E"] == [f"E{i}" for i in range(1, 14)]
    assert [n for n in names if n[0] == "I"] == [f"I{i}" for i in range(5, 14)]
    assert max(map(abs, cube(board, "A5"))) == 8 and max(map(abs, cube(board, "Q13"))) == 8

    def apart(a: str, b: str) -> int:
        x, y = cube(board, a), cube(board, b)
        return max(abs(i - j) for i, j in zip(x, y))

    def on_a_line(a: str, b: str) -> bool:
        x, y = cube(board, a), cube(board, b)
        return 0 in [i - j for i, j in zip(x, y)]

    assert apart("N13", "N12") == 1
    assert apart("C6", "E6") == 2 and on_a_line("C6", "E6")
    chain = "A5-C7-E7-E9-G11".split("-")
    assert all(apart(a, b) == 2 and on_a_line(a, b) for a, b in zip(chain, chain[1:]))
    small = [hole_name(h, 3) for h in range(73)]
    assert small[0] == "A4" and small[-1] == "M10" and len(set(small)) == 73
    for bad in ("Z1", "A1", "E14", "", "55"):
        with pytest.raises(ValueError):
            parse_hole(bad)


def test_moves_are_read_and_written_with_their_hops() -> None:
    board = StarBoard()
    assert board.pieces(0) == sorted(
        parse_hole(n) for n in "N10 N11 N12 N13 O11 O12 O13 P12 P13 Q13".split()
    )
    move = board.parse_move("N10-M9")
    assert board.move_text(move) == "N10-M9"
    board.push(move)
    board.push(board.parse_move("d8-e9"))
    hop = board.parse_move("P12-L8")
    assert board.move_text(hop) == "P12-N10-L8" and board.parse_move("P12-N10-L8") == hop
    with pytest.raises(IllegalMoveError, match="chain"):
        board.parse_move("P12-M9-L8")
    with pytest.raises(InvalidMoveError):
        board.parse_move("P12")
    with pytest.raises(InvalidMoveError):
        board.parse_move("P12-Z99")
    with pytest.raises(IllegalMoveError):
        board.parse_move("A5-B5")
    with pytest.raises(IllegalMoveError):
        board.push((0, 0))
    assert board.plies == 2 and board.moves_text() == ["N10-M9", "D8-E9"]


@pytest.mark.parametrize(
    ("size", "players", "hop"), [(4, 2, "any"), (3, 3, "others"), (3, 6, "any")]
)
def test_position_text_reads_back_along_a_game(size: int, players: int, hop: str) -> None:
    board = StarBoard(size=size, players=players, hop_over=hop, max_plies=300)
    rng = random.Random(size * 10 + players)
    while not board.is_over():
        again = StarBoard.from_text(board.text())
        assert again.text() == board.text()
        assert again.legal_moves == board.legal_moves and again.turn == board.turn
        move = board.greedy_move(rng.randrange(2**32)) if rng.random() < 0.8 else None
        board.push(move or rng.choice(board.legal_moves))
    assert StarBoard.from_text(board.text()).is_over()


def test_a_bad_position_text_is_refused_naming_what_is_wrong() -> None:
    start = StarBoard().text()
    for bad, what in [
        (start.replace("holes=121", "holes=100"), "holes"),
        (start.replace("turn=0", "turn=x"), "turn"),
        (start.replace("turn=0", "turn=5"), "player 5 to move"),
        (start + " colour=red", "unknown"),
        (start.replace(" 1=", " 9="), "no field 1"),
        (start.replace("1=A5", "1=N10"), "already held"),
        (start.replace("1=A5,", "1="), "pieces"),
        (start.replace("finished=-", "finished=0"), "finished"),
        (start.replace("0=N10", "0=Z9"), "Z9"),
        ("garbage", "KEY=VALUE"),
    ]:
        with pytest.raises(StarTextError, match=what):
            StarBoard.from_text(bad)


def test_a_record_replays_to_the_same_position() -> None:
    board = StarBoard(size=3, players=3, max_plies=400)
    seed = 0
    while not board.is_over():
        seed += 1
        move = board.greedy_move(seed)
        assert move is not None
        board.push(move)
    text = write_record(board, {"Event": "test"})
    assert '[Result "' in text and "*" not in text.split("]")[-1]
    tags, again = read_record(text)
    assert tags["Event"] == "test" and tags["Players"] == "3"
    assert again.moves == board.moves and again.text() == board.text()
    assert again.finished == board.finished
    # A game that goes on from a set-up: the Setup tag, "*".
    middle = StarBoard.from_text(board.root().text())
    for move in board.moves[:7]:
        middle.push(move)
    later = StarBoard.from_text(middle.text())
    later.push(later.legal_moves[0])
    record = write_record(later)
    assert "[Setup " in record and '[Result "*"]' in record
    assert read_record(record)[1].text() == later.text()
    with pytest.raises(StarTextError, match="Result"):
        read_record(text.replace('[Result "', '[Result "9 '))
    with pytest.raises(StarTextError, match="ply 1"):
        read_record(text.replace("1. ", "1. A4-A4 ", 1))


# --- the opponent --------------------------------------------------------------------------


def test_the_search_finds_a_finishing_move() -> None:
    """Player 0 has five pieces in its target (the top point of the small star) and the
    sixth a step from the last hole: the search finishes the race, scored a win."""
    board = StarBoard(size=3)
    holes = board.holes
    target = board.pieces(1)  # player 0's target: where player 1 starts
    last = parse_hole("C6", 3)
    assert last in target
    near = [
        h
        for h in range(len(holes))
        if h not in target and max(abs(a - b) for a, b in zip(holes[h], holes[last])) == 1
    ]
    mine = [h for h in target if h != last] + [near[0]]
    theirs = [parse_hole(n, 3) for n in "F4 F5 G5 G6 H6 H7".split()]
    text = board.text().split()
    fields = {f.split("=")[0]: f for f in text}
    fields["0"] = "0=" + ",".join(hole_name(h, 3) for h in sorted(mine))
    fields["1"] = "1=" + ",".join(hole_name(h, 3) for h in sorted(theirs))
    setup = StarBoard.from_text(" ".join(fields.values()))
    for depth in (1, 3):
        found = setup.search(depth=depth)
        assert found.move == (near[0], last) and found.score == WIN - 1
    assert setup.cost(0) == 2 and setup.cost(1) > 0  # a step to go, and the last piece out
    setup.push((near[0], last))
    assert setup.is_over() and setup.finished == [0] and setup.cost(0) == 0


def test_greedy_and_search_moves_are_legal_for_every_number_of_players() -> None:
    for players in (2, 3, 4, 6):
        board = StarBoard(size=3, players=players)
        for _ in range(5):
            greedy = board.greedy_move(3)
            assert greedy in board.legal_moves
            board.push(greedy)
        found = board.search(nodes=2000)
        assert found.move in board.legal_moves and found.pv[0] == found.move
    with pytest.raises(ValueError, match="depth"):
        StarBoard().search(depth=20)
    with pytest.raises(ValueError, match="time"):
        StarBoard().search(time=-1)
    assert WIN == 1_000_000
