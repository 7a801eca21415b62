"""The star board (Chinese checkers) on the command line and in the terminal game:
``shashki perft --variant star`` and ``shashki play --variant star`` with two and three
players, against the computer."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from shashki.apps import cli
from shashki.apps.play_star import play, render
from shashki.star import StarBoard, read_record


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_perft_of_the_star_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "--variant", "star", "3")
    assert code == 0 and "perft 3: 4760" in out
    code, out, _ = run(
        capsys,
        "perft",
        "--variant",
        "Chinese-Checkers",
        "--players",
        "3",
        "--holes",
        "73",
        "--hop-over",
        "others",
        "--json",
        "3",
    )
    expected = StarBoard(size=3, players=3, hop_over="others").perft(3)
    assert code == 0 and json.loads(out)["leaves"] == expected
    board = StarBoard(players=3)
    board.push(board.legal_moves[5])
    code, out, _ = run(capsys, "perft", "--variant", "star", "--divide", board.text(), "2")
    assert code == 0 and f"perft 2: {board.perft(2)}" in out
    assert out.count(":") >= len(board.legal_moves)
    code, _, err = run(capsys, "perft", "--variant", "star", "holes=99", "2")
    assert code == 2 and "holes" in err
    code, _, err = run(capsys, "perft", "--variant", "star", "--workers", "2", "3")
    assert code == 2 and "one process" in err


def script(lines: list[str]) -> tuple[list[str], object]:
    said: list[str] = []
    answers: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        said.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return said, read


def arguments(*argv: str) -> object:
    return cli._parser().parse_args(["play", "--variant", "star", "--time", "0.02", *argv])


def test_a_person_plays_the_computer_with_two_players(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    out: list[str] = []
    prompts, read = script(
        ["moves", "N10-M9", "Z1-Z2", "A5-B5", "undo", "O11-M9", f"save {record}", "quit"]
    )
    assert play(arguments(), read, out.append) == 0  # type: ignore[arg-type]
    text = "\n".join(out)
    assert "N10-M9, N10-M10" in text  # the moves
    assert text.count("(computer) plays") == 2  # after N10-M9 and after O11-M9
    assert "not a hole" in text and "not a legal move" in text
    tags, board = read_record(record.read_text())
    assert tags["Players"] == "2" and board.plies == 2
    assert board.moves_text()[0] == "O11-M9"  # N10-M9 and its answer were taken back
    assert all(p.startswith("o to move") for p in prompts)


def test_a_person_plays_two_computers_with_three_players() -> None:
    out: list[str] = []
    board = StarBoard(players=3)
    first = board.move_text(board.legal_moves[0])
    _, read = script([first, "hint", "quit"])
    assert play(arguments("--players", "3"), read, out.append) == 0  # type: ignore[arg-type]
    text = "\n".join(out)
    assert "3 players (you: o)" in text
    assert "x (computer) plays" in text and "+ (computer) plays" in text
    assert "hint: " in text


def test_the_computers_play_a_game_to_its_end() -> None:
    out: list[str] = []
    _, read = script([])
    args = arguments("--watch", "--holes", "73", "--players", "3")
    assert play(args, read, out.append) == 0  # type: ignore[arg-type]
    assert "game over after" in out[-1] and "finished in order:" in out[-1]


def test_the_star_is_drawn_row_by_row() -> None:
    board = StarBoard(size=3)
    lines = render(board).splitlines()
    assert len(lines) == 13 and lines[0].split()[0] == "A4" and lines[-1].split()[0] == "M10"
    assert sum(line.count("o") for line in lines) == 6
    assert sum(line.count("x") for line in lines) == 6
    assert sum(line[5:].count(".") for line in lines) == 73 - 12
