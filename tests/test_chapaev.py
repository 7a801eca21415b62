"""Чапаев, the flicking game: the physics (discs never overlap at rest, a flick into empty
space stops where friction says, the same flick gives the same result, discs only leave
the board), the rules (flicking again, rounds won and drawn), the texts and records that
replay, the computer against the random flicker, and bad input refused."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki.chapaev import (
    FRICTION,
    MAX_SPEED,
    RADIUS,
    STEP,
    ChapaevBoard,
    ChapaevError,
    parse_flick,
    read_record,
    write_record,
)


def centres(board: ChapaevBoard) -> dict[str, tuple[float, float]]:
    return {name: (x, y) for name, x, y, on in board.discs if on}


def no_overlap(board: ChapaevBoard) -> bool:
    points = list(centres(board).values())
    return all(
        math.dist(a, b) >= 2 * RADIUS - 1e-9 for i, a in enumerate(points) for b in points[:i]
    )


def test_the_start_is_two_rows_on_every_square_of_the_first_ranks() -> None:
    board = ChapaevBoard()
    assert centres(board)["wa"] == (0.5, 0.5) and centres(board)["bh"] == (7.5, 7.5)
    assert board.count("w") == board.count("b") == 8 and board.turn == "w"
    later = ChapaevBoard(white_rank=3, black_rank=2)
    assert centres(later)["wc"] == (2.5, 3.5) and centres(later)["bc"] == (2.5, 5.5)
    with pytest.raises(ChapaevError, match="meet"):
        ChapaevBoard(white_rank=4, black_rank=3)


def test_a_flick_into_empty_space_slows_to_a_stop_where_friction_says() -> None:
    board = ChapaevBoard.from_text("turn=w flicks=0 limit=200 wa=0.5,0.5 bh=7.5,7.5")
    for strength in (0.2, 0.5, 0.7):
        copy = board.copy()
        shot = copy.flick("a", 0, strength)
        speed = strength * MAX_SPEED
        expected = speed * speed / (2 * FRICTION)  # v^2 / 2a
        x, y = centres(copy)["wa"]
        assert abs(x - 0.5 - expected) < 0.05 and y == 0.5
        assert shot.off == [] and not shot.again and copy.turn == "b"
        assert abs(shot.seconds - speed / FRICTION) < 2 * STEP


def test_a_straight_shot_knocks_off_the_disc_in_front_and_the_flicker_goes_again() -> None:
    board = ChapaevBoard()
    shot = board.flick("d", 90, 1.0, sample=4)
    assert "bd" in shot.off and shot.again and board.turn == "w"
    assert len(shot.frames) > 10 and all(len(frame) == 16 for frame in shot.frames)
    assert shot.frames[0][3] == (3.5, 0.5)
    # A miss hands the turn over.
    miss = board.flick("a", 180, 0.3)
    assert miss.off == ["wa"] or not miss.off
    assert board.turn == "b"


def test_own_disc_knocked_off_hands_the_turn_over() -> None:
    text = "turn=w flicks=0 limit=200 wa=0.5,0.5 wb=0.5,1.5 ba=4.5,4.5"
    board = ChapaevBoard.from_text(text)
    shot = board.flick("a", 90, 1.0)  # into its own b disc, which slides off the top
    assert shot.off == ["wb"] and not shot.again and board.turn == "b"


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 7), st.floats(0, 360, allow_nan=False), st.floats(0.05, 1.0)),
        min_size=1,
        max_size=8,
    )
)
def test_random_flicks_keep_the_physics_and_replay_exactly(
    flicks: list[tuple[int, float, float]],
) -> None:
    board = ChapaevBoard()
    played = 0
    for disc, angle, strength in flicks:
        if board.result() is not None:
            break
        mine = [name[1] for name, _, _, on in board.discs if on and name[0] == board.turn]
        before = {s: board.count(s) for s in "wb"}
        shot = board.flick(mine[disc % len(mine)], angle, strength)
        played += 1
        assert no_overlap(board)
        assert all(0 <= x <= 8 and 0 <= y <= 8 for x, y in centres(board).values())
        after = {s: board.count(s) for s in "wb"}
        assert sum(before.values()) - sum(after.values()) == len(shot.off)
    again = ChapaevBoard()
    for text in board.flicks:
        again.play(text)
    assert again.text() == board.text() and len(board.flicks) == played


def test_the_same_flick_gives_the_same_result_twice() -> None:
    a, b = ChapaevBoard(), ChapaevBoard()
    for text in ("e:95.5:0.9", "c:260:1", "f:100.25:0.75"):
        if a.result() is not None:
            break
        assert a.play(text, sample=3) == b.play(text, sample=3)
    assert a.text() == b.text()


def test_texts_and_records_replay() -> None:
    board = ChapaevBoard()
    seed = 0
    while board.result() is None:
        seed += 1
        flick = board.aim(1, seed)
        assert flick is not None
        board.play(flick)
        again = ChapaevBoard.from_text(board.text())
        assert again.text() == board.text()
    record = write_record(board, {"Event": "test"})
    tags, replayed = read_record(record)
    assert tags["Event"] == "test" and tags["Result"] == board.result()
    assert replayed.text() == board.text() and replayed.flicks == board.flicks
    with pytest.raises(ChapaevError, match="Result"):
        read_record(record.replace(f'[Result "{board.result()}"]', '[Result "*"]'))
    with pytest.raises(ChapaevError, match="flick 1"):
        read_record(record.replace("1. ", "1. z:1:1 ", 1))


def test_bad_input_is_refused_and_the_board_kept() -> None:
    board = ChapaevBoard()
    before = board.text()
    for disc, angle, strength in [
        ("z", 90, 0.5),
        ("a", 90, 1.5),
        ("a", float("nan"), 0.5),
        ("a", 90, -0.1),
        ("ab", 90, 0.5),
    ]:
        with pytest.raises(ChapaevError):
            board.flick(disc, angle, strength)
    assert board.text() == before and board.flicks == []
    for text in ("d 90", "q:1:1", "d:up:1"):
        with pytest.raises(ChapaevError):
            parse_flick(text)
    for text, what in [
        ("turn=x", "side"),
        ("turn=w wa=0.5,0.5 wb=0.6,0.5", "overlaps"),
        ("turn=w wa=9,0.5", "off the board"),
        ("turn=w zz=1,1", "not a disc"),
        ("garbage", "KEY=VALUE"),
    ]:
        with pytest.raises(ChapaevError, match=what):
            ChapaevBoard.from_text(text)
    board.flick("d", 90, 1.0)
    assert board.pop().startswith("d:90.00") and board.text() == before


def test_the_computer_beats_the_random_flicker() -> None:
    """Eight rounds, each side starting four times: level 1 (8 simulated flicks) wins
    them all (docs/chapaev.md has the long matches)."""
    won = 0
    for game in range(8):
        board = ChapaevBoard(turn="w" if game % 2 == 0 else "b")
        step = 0
        while board.result() is None:
            step += 1
            if board.turn == "w":
                flick = board.aim(1, game * 1000 + step)
            else:
                flick = board.random_flick(game * 1000 + step)
            assert flick is not None
            board.play(flick)
        won += board.result() == "w"
    assert won == 8


def test_a_round_in_the_terminal_against_the_computer(tmp_path) -> None:
    from shashki.apps import cli
    from shashki.apps.play_chapaev import play

    out: list[str] = []
    answers = iter(["help", "d 90 1", "z 1 1", "undo", "d 90 1", f"save {tmp_path / 'r.txt'}"])

    def read(prompt: str) -> str:
        assert prompt in ("White to flick> ", "Black to flick> ")
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    args = cli._parser().parse_args(["play", "--variant", "Chapayev", "--level", "1"])
    assert play(args, read, out.append) == 0
    text = "\n".join(out)
    assert "White flicks d:90.00:1.000: off bd — flicks again" in text
    assert "a flick: FILE DEGREES STRENGTH" in text  # help
    assert "a flick is FILE:DEGREES:STRENGTH" in text  # the bad flick, refused
    tags, board = read_record((tmp_path / "r.txt").read_text())
    assert board.flicks[0] == "d:90.00:1.000" and tags["Event"] == "shashki play"
    watched: list[str] = []
    args = cli._parser().parse_args(["play", "--variant", "chapaev", "--watch", "--level", "1"])
    assert play(args, read, watched.append) == 0
    assert watched[-1].startswith("round over after")
    whole: list[str] = []
    args = cli._parser().parse_args(
        ["play", "--variant", "chapaev", "--watch", "--level", "1", "--match"]
    )
    assert play(args, read, whole.append) == 0
    assert whole[-1].startswith("match over after") and "wins the match" in whole[-1]
    assert any(line.startswith("round 2: White's row on rank") for line in whole)


def test_the_match_advances_the_winners_row_and_ends_on_the_far_edge() -> None:
    from shashki.chapaev import ChapaevMatch

    match = ChapaevMatch()
    for expected in range(1, 7):
        match.record("w")
        assert match.ranks == {"w": expected, "b": 0} and match.starter == "w"
    assert match.board().discs[0][1:3] == (0.5, 6.5)  # White's row on rank 7
    match.record("b")  # the rows touch: Black advances and pushes White back
    assert match.ranks == {"w": 5, "b": 1} and match.starter == "b"
    match.record("draw")
    assert match.ranks == {"w": 5, "b": 1} and match.starter == "w"
    match.record("w")
    assert match.ranks == {"w": 6, "b": 0} and match.winner is None
    match.record("w")
    assert match.winner == "w" and len(match.rounds) == 10
    with pytest.raises(ChapaevError, match="over"):
        match.board()
    played = ChapaevMatch()
    board = played.board()
    seed = 0
    while board.result() is None:
        seed += 1
        board.play(board.aim(1, seed) or "")
    played.record(board.result() or "draw")
    assert played.rounds and sum(played.ranks.values()) == 1
