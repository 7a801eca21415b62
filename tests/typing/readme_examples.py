"""Every example of the README, as a typed program: ``mypy --strict`` must accept it
(tests/test_typing.py runs it) and it must run."""

from __future__ import annotations

import io

import shashki
import shashki.pdn
from shashki.engine import Engine, Limit, PlayResult, PovScore


def tour() -> None:
    board = shashki.Board()
    texts: list[str] = [str(m) for m in board.legal_moves]
    assert len(texts) == 7
    board.push_move("c3-d4")
    board.push_move("f6-e5")
    captures: bool = board.has_captures()
    assert captures
    move: shashki.Move = board.legal_moves[0]
    start: int = move.start
    captured: frozenset[int] = move.captured
    path: tuple[int, ...] = move.path
    promotes: bool = move.promotes
    assert (start, sorted(captured), path, promotes) == (13, [18], (22,), False)
    assert board.move_text(move, notation="numeric") == "18x11"
    board.pop()
    seed = shashki.Board.from_fen("W:We1:Bd2,b4,d4,f4,f2")
    try:
        seed.parse_move("e1:a5")
    except shashki.AmbiguousMoveError as error:
        assert "e1:c3:a5" in str(error)
    leaves: int = shashki.perft(shashki.Board(), 8)
    assert leaves == 929899
    assert shashki.perft(shashki.Board(), 8, distinct=False) == 929905
    square: int = shashki.C3
    assert shashki.square_name(square) == "c3" and shashki.square_number(square) == 22
    assert shashki.parse_square("c3") == square


def games() -> None:
    game: shashki.Game = shashki.Game("W:WK30,K31:BK3")
    for text in ["c1-b2", "f8-e7", "b2-c1"]:
        game.push_move(text)
    counters: list[str] = [str(c) for c in game.draw_counters()]
    assert counters
    result: str = game.result()
    assert result == "*"
    outcome: shashki.Outcome | None = game.outcome()
    assert outcome is None
    read = shashki.pdn.read_game(io.StringIO('[Result "2-0"]\n\n1. c3-d4 f6-e5 2. d4xf6 2-0'))
    assert read is not None
    assert read.headers["Result"] == "1-0"
    moves: list[str] = [str(m) for m in read.mainline_moves()]
    assert moves == ["c3-d4", "f6-e5", "d4:f6"]
    written: str = shashki.pdn.write_game(read, notation="numeric")
    assert written.splitlines()[-1] == "1. 22-18 11-15 2. 18x11 1-0"
    termination: shashki.Termination | None = outcome.termination if outcome else None
    assert termination is None


def engine() -> None:
    with Engine(hash_mb=16, threads=1) as searcher:
        played: PlayResult = searcher.play(shashki.Board(), Limit(depth=8))
        assert played.move in shashki.Board().legal_moves
        info = searcher.analyse(shashki.Board("W:WK29:B1"), Limit(depth=10))
        score: PovScore = info["score"]
        assert score.relative.is_win()
        lines = searcher.analyse(shashki.Board(), Limit(depth=4), multipv=2)
        assert len(lines) == 2


if __name__ == "__main__":
    tour()
    games()
    engine()
    print("ok")
