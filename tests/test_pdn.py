"""PDN reading and writing."""

from __future__ import annotations

import io
import os
import threading
import time
from pathlib import Path

import pytest
import shashki
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki import pdn
from shashki.draw import NO_DRAWS
from shashki.game import Game
from strategies import positions
from system import ROOT

DATA = Path(__file__).parent / "data" / "lidraughts-russian.pdn"


def read_all(text: str, **kwargs) -> list[Game]:
    handle = io.StringIO(text)
    games = []
    while (game := pdn.read_game(handle, **kwargs)) is not None:
        games.append(game)
    return games


def test_reads_every_lidraughts_game_and_round_trips() -> None:
    with DATA.open(encoding="utf-8") as handle:
        games = []
        while (game := pdn.read_game(handle)) is not None:
            games.append(game)
    assert len(games) == 22
    assert all(not g.errors for g in games)
    assert sum(len(g.mainline_moves()) for g in games) > 300
    # lidraughts' 2-0 / 0-2 / 1-1 results are read as the standard ones
    assert {g.headers["Result"] for g in games} <= {"1-0", "0-1", "1/2-1/2", "*"}
    assert games[0].headers["White"] == "lymmen"
    for game in games:
        for notation in ("algebraic", "numeric"):
            text = pdn.write_game(game, notation=notation)
            (again,) = read_all(text)
            assert again.mainline_moves() == game.mainline_moves()
            assert again.headers["Result"] == game.headers["Result"]
            assert again.end().board().fen() == game.end().board().fen()
            assert all(len(line) <= 80 for line in text.splitlines() if not line.startswith("["))


def test_tags_only_game() -> None:
    (game,) = read_all('[Event "x"]\n[Result "1-1"]\n[GameType "25"]\n')
    assert game.mainline_moves() == [] and game.headers["Result"] == "1/2-1/2"


def test_numeric_moves_black_continuation_comments_nags_variations() -> None:
    text = """[Event "test"]
[FEN "B:W18,21-32:B1-12"]

{opening} 1... 11-15 $1 (1... 12-16 ?! 2. 22-17 ; a line comment
 16-20) 2. 18x11 {forced} 8x15!? 3. 22-18 *
"""
    (game,) = read_all(text)
    moves = [str(m) for m in game.mainline_moves()]
    assert moves == ["f6-e5", "d4:f6", "g7:e5", "c3-d4"]
    assert game.comment == "opening"
    assert game.nodes[0].nags == [1] and game.nodes[2].nags == [5]
    assert game.nodes[1].comment == "forced"
    main, alternative = game.root().variations  # the first move and its alternative
    assert main is game.nodes[0] and main.is_mainline() and not alternative.is_mainline()
    variation = [alternative, *alternative.mainline()]
    assert [str(n.move) for n in variation] == ["h6-g5", "c3-b4", "g5-h4"]
    assert variation[0].nags == [6]
    written = pdn.write_game(game)
    assert "(" in written and "1..." in written and "{forced}" in written
    (again,) = read_all(written)
    assert again.mainline_moves() == game.mainline_moves()
    assert again.root().variations[1].mainline_moves() == alternative.mainline_moves()
    assert again.root().variations[1].move == alternative.move
    (plain,) = read_all(text, variations=False)
    assert plain.mainline_moves() == game.mainline_moves()
    assert len(plain.root().variations) == 1


def test_many_games_and_lines() -> None:
    text = '[Result "1-0"]\n\n1. c3-d4 f6-e5 1-0\n\n[Result "0-1"]\n\n1. a3-b4 0-1\n\n1. g3-h4 *\n'
    games = read_all(text)
    assert [len(g.mainline_moves()) for g in games] == [2, 1, 1]


def test_errors_have_line_and_column_and_reading_goes_on() -> None:
    text = '[Event "bad"]\n\n1. c3-d4 f6-e5\n2. c3-b4 g7-f6 *\n\n[Event "good"]\n\n1. a3-b4 *\n'
    with pytest.raises(pdn.PdnError) as info:
        read_all(text)
    assert (info.value.line, info.value.column) == (4, 4)
    assert isinstance(info.value, ValueError)
    games = read_all(text, errors="collect")
    assert len(games) == 2
    bad, good = games
    assert len(bad.mainline_moves()) == 2 and len(bad.errors) == 1
    assert good.headers["Event"] == "good" and len(good.mainline_moves()) == 1


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("1. c3-d4 {unclosed\n", "comment"),
        ("1. c3-d4 ) *", "without a variation"),
        ("1. c3-d4 (1. a3-b4 *", "not closed"),
        ('[GameType "41"]\n\n1. a3-a4 *', "GameType"),
        ('[FEN "W:W1:B2"]\n\n*', "crowning"),
        ("1. c3-d4 @@ *", "unexpected"),
    ],
)
def test_bad_pdn(text, needle) -> None:
    with pytest.raises(pdn.PdnError, match=needle):
        read_all(text)


def test_written_game_has_standard_tags_and_setup() -> None:
    game = shashki.Game("B:W18,21-32:B1-12")
    game.headers["White"] = 'A "quoted" name'
    game.push_move("f6-e5")
    text = pdn.write_game(game)
    assert text.startswith('[Event "?"]')
    assert '[GameType "25"]' in text and "[FEN " in text and '\\"quoted\\"' in text
    (again,) = read_all(text)
    assert again.headers["White"] == 'A "quoted" name'
    assert again.mainline_moves() == game.mainline_moves()


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 1000), max_size=60))
def test_random_games_round_trip(choices) -> None:
    game = shashki.Game()
    for c in choices:
        moves = list(game.end().board().legal_moves)
        if not moves or game.is_game_over():
            break
        game.push(moves[c % len(moves)])
    for notation in ("algebraic", "numeric"):
        (again,) = read_all(pdn.write_game(game, notation=notation))
        assert again.mainline_moves() == game.mainline_moves()
        assert again.result() == game.result()


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet='[]"{}()$!?;. \n-x:0123456789abcdefghWBK*/', max_size=120))
def test_reader_fuzz(text) -> None:
    try:
        read_all(text, errors="collect")
        read_all(text)
    except pdn.PdnError:
        pass


# ---- moved here from the reliability and parity suites (by concept) ----


@given(positions(), st.randoms(use_true_random=False))
def test_written_games_read_back_equal(fen: str, rng) -> None:
    game = Game(fen, draw_rules=NO_DRAWS)
    for _ in range(rng.randint(0, 30)):
        moves = list(game.end().board().legal_moves)
        if not moves:
            break
        game.push(rng.choice(moves))
    for notation in ("algebraic", "numeric"):
        again = pdn.read_game(io.StringIO(pdn.write_game(game, notation=notation)))
        assert again is not None and not again.errors
        assert again.mainline_moves() == game.mainline_moves()
        assert again.end().board() == game.end().board()


def test_a_result_at_the_end_of_a_comment_line_does_not_end_the_game() -> None:
    text = (
        '[Event "one"]\n\n1. c3-d4 {White was winning,\nsome said 1-0\nbut} f6-g5 *\n\n'
        '[Event "two"]\n\n1. a3-b4 *\n'
    )
    handle = io.StringIO(text)
    first, second = pdn.read_game(handle), pdn.read_game(handle)
    assert first is not None and second is not None
    assert [str(m) for m in first.mainline_moves()] == ["c3-d4", "f6-g5"]
    assert "some said 1-0" in first.nodes[0].comment
    assert second.headers["Event"] == "two" and len(second.mainline_moves()) == 1


def test_variations_nested_1000_deep_are_written_and_read_back() -> None:
    # m0 (a0 m1 (a1 m2 (a2 …))): each alternative holds the next level; two kings shuffle.
    board = shashki.Board("W:WK30:BK3")
    text = ""
    for _ in range(1000):
        safe = []  # moves after which nothing can be taken
        for move in board.legal_moves:
            board.push(move)
            if not board.has_captures() and len(board.legal_moves) >= 2:
                safe.append(move)
            board.pop()
        main, alternative = safe[:2]
        text += f"{main} ({alternative} "
        board.push(alternative)
    text += ")" * 1000 + " *"
    game = pdn.read_game(io.StringIO('[FEN "W:WK30:BK3"]\n\n' + text))
    assert game is not None and not game.errors
    written = pdn.write_game(game)
    again = pdn.read_game(io.StringIO(written))
    assert again is not None and not again.errors
    depth, node = 0, again.root()
    while len(node.variations) > 1:  # each alternative holds the next level
        node = node.variations[1]
        depth += 1
    assert depth == 1000
    assert node.board() == board


def test_a_nag_of_5000_digits_is_a_pdn_error() -> None:
    text = "1. c3-d4 $" + "9" * 5000 + " *"
    with pytest.raises(pdn.PdnError, match="NAG"):
        pdn.read_game(io.StringIO(text))
    game = pdn.read_game(io.StringIO(text), errors="collect")
    assert game is not None and isinstance(game.errors[0], pdn.PdnError)


def best_of_three(text: str) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        pdn.read_game(io.StringIO(text))
        times.append(time.perf_counter() - start)
    return min(times)


@pytest.mark.parametrize("prefix, unit", [("", "{x}"), ("", "{x}\n"), ("1. c3-d4 ", "{x} ")])
def test_reading_is_linear_in_the_number_of_comments(prefix: str, unit: str) -> None:
    small = prefix + unit * 10_000 + " *"
    large = prefix + unit * 100_000 + " *"
    ratio = best_of_three(large) / best_of_three(small)
    assert ratio < 30, ratio  # ten times the text: about ten times the time (quadratic: 100)


def test_games_stream_from_a_pipe() -> None:
    data = (ROOT / "tests" / "data" / "lidraughts-russian.pdn").read_text(encoding="utf-8")
    read, write = os.pipe()
    with os.fdopen(write, "w", encoding="utf-8") as sink:
        threading.Thread(target=lambda: (sink.write((data + "\n") * 3), sink.close())).start()
        with os.fdopen(read, encoding="utf-8") as handle:
            count = 0
            while pdn.read_game(handle) is not None:
                count += 1
    assert count == 66


@given(
    st.lists(
        st.text(alphabet="ab {};\n", min_size=1, max_size=12).filter(lambda t: t == t.strip()),
        min_size=1,
        max_size=3,
    )
)
def test_comments_with_braces_and_line_breaks_round_trip_exactly(texts: list[str]) -> None:
    """A comment holding '}' (which a brace comment cannot) is written as ';' comments, one
    a line, and read back exactly; others as brace comments."""
    game = Game()
    for move in ["c3-d4", "f6-e5", "d4:f6"][: len(texts)]:
        game.push_move(move)
    node = game
    for text in texts:
        node = node.next()
        assert node is not None
        node.comment = text
    again = pdn.read_game(io.StringIO(pdn.write_game(game)))
    assert again is not None
    node = again
    for text in texts:
        node = node.next()
        assert node is not None and node.comment == text


def test_a_header_with_a_line_break_is_written_on_one_line() -> None:
    game = Game()
    game.headers["Event"] = "first\nsecond"
    again = pdn.read_game(io.StringIO(pdn.write_game(game)))
    assert again is not None and again.headers["Event"] == "first second"


def test_importing_the_layers_leaves_the_regular_expressions_for_later() -> None:
    """``import shashki.game, shashki.engine, shashki.pdn`` loads neither ``re`` nor the
    reader's patterns (their import and compiles were a third of the layers' import time):
    they load on the first read, and ``pdn.TAG``/``pdn.TOKEN`` still give them."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "before = 're' in sys.modules  # a site's start-up files may load it first\n"
        "import shashki.game, shashki.engine, shashki.pdn as pdn, io\n"
        "assert before or 're' not in sys.modules, 're imported'\n"
        "game = pdn.read_game(io.StringIO('[Event \"x\"]\\n1. c3-d4 f6-g5 *'))\n"
        "assert 're' in sys.modules and len(game.mainline_moves()) == 2\n"
        "assert pdn.TAG.match('[Event \"x\"]') and pdn.TOKEN.pattern\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.strip() == "ok", out.stderr


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_byte_order_mark_kept_by_the_text_is_skipped(newline: str) -> None:
    """A file opened as plain UTF-8 keeps its BOM as a character; two such files joined
    have one in the middle: neither is PDN, both are skipped."""
    one = f'\ufeff[Event "a"]{newline}{newline}1. c3-d4 f6-g5 *{newline}{newline}'
    handle = io.StringIO(one + one.replace('"a"', '"b"'))
    first = pdn.read_game(handle)
    second = pdn.read_game(handle)
    assert first is not None and second is not None
    assert (first.headers["Event"], second.headers["Event"]) == ("a", "b")
    assert len(second.mainline_moves()) == 2
    ten = io.StringIO(f'\ufeff[GameType "20"]{newline}{newline}1. 32-28 19-23 *{newline}')
    game = pdn.read_game(ten)
    assert game is not None and game.variant == "international"


def test_a_ten_by_ten_board_mirrors() -> None:
    board = shashki.Board("W:W31,K46:B5,20", variant="international")
    mirrored = board.mirror()
    assert mirrored.variant == "international"
    assert mirrored.fen() == "B:W31,46:BK5,20"
    assert mirrored.mirror() == board


def lidraughts_export(moves: list[str], result: str, closing: str) -> str:
    """A 10×10 game written as lidraughts exports one: its tags (GameType 20, lidraughts'
    10×10 results 2-0, 0-2, 1-1), a clock comment after every move (the mover's side in
    lower case), moves numbered once a pair, captures by start and end only, a comment
    before the result."""
    lines = [
        '[Event "Casual Rapid game"]',
        '[Site "https://lidraughts.org/AbCdEfGh"]',
        '[Round "-"]',
        f'[Result "{result}"]',
        '[GameType "20"]',
        '[TimeControl "600+0"]',
        '[Termination "Normal"]',
        '[Annotator "lidraughts.org"]',
        "",
    ]
    body = []
    for i, move in enumerate(moves):
        clock = "[%clock w0:09:5{0} B0:09:5{0}]" if i % 2 == 0 else "[%clock W0:09:5{0} b0:09:5{0}]"
        if i % 2 == 0:
            body.append(f"{i // 2 + 1}.")
        body.append(f"{move} {{{clock.format(i % 10)}}}")
    body.append(f"{{{closing}}} {result}")
    return "\n".join(lines) + "\n" + " ".join(body) + "\n"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_lidraughts_ten_by_ten_export_reads_back_exactly(seed: int) -> None:
    """A whole International game (played here at random) in lidraughts' export format
    reads back move for move, to the same final position and result."""
    import random

    rng = random.Random(seed)
    board = shashki.Board(variant="international")
    texts = []
    while not board.is_game_over() and len(texts) < 200:
        move = rng.choice(list(board.legal_moves))
        # lidraughts writes a capture by its start and end only: 28x10, not 28x19x10.
        squares = move.text("numeric").replace("x", "-").split("-")
        texts.append(f"{squares[0]}{'x' if move.is_capture else '-'}{squares[-1]}")
        board.push(move)
    outcome = board.outcome()
    result = {True: "2-0", False: "0-2", None: "1-1"}[outcome.winner if outcome else None]
    game = pdn.read_game(io.StringIO(lidraughts_export(texts, result, "Black resigns.")))
    assert game is not None and game.variant == "international"
    assert len(game.mainline_moves()) == len(texts)
    assert game.end().board().fen() == board.fen()
    assert game.headers["Result"] == {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2"}[result]


# Real exports of lidraughts' 10×10 games (GameType 20, and its own 96-98 for breakthrough,
# frysk and antidraughts; Frisian's with tags only), as tests/data/README.md says.
LIDRAUGHTS_TEN = {
    "international": (30, 13),
    "antidraughts": (25, 25),
    "breakthrough": (25, 25),
    "frysk": (25, 25),
    "frisian": (16, 0),
}


@pytest.mark.parametrize("variant", sorted(LIDRAUGHTS_TEN))
def test_reads_every_lidraughts_ten_by_ten_export_and_round_trips(variant: str) -> None:
    path = Path(__file__).parent / "data" / f"lidraughts-{variant}.pdn"
    games = read_all(path.read_text(encoding="utf-8"))
    count, with_moves = LIDRAUGHTS_TEN[variant]
    assert len(games) == count and all(not g.errors for g in games)
    assert {g.variant for g in games} == {variant}
    assert sum(1 for g in games if g.mainline_moves()) == with_moves
    assert {g.headers["Result"] for g in games} <= {"1-0", "0-1", "1/2-1/2", "*"}
    for game in games:
        for notation in ("algebraic", "numeric"):
            (again,) = read_all(pdn.write_game(game, notation=notation))
            assert again.variant == variant
            assert again.mainline_moves() == game.mainline_moves()
            assert again.headers["Result"] == game.headers["Result"]
            assert again.end().board().fen() == game.end().board().fen()
