"""International draughts (10×10, FMJD) against its oracles: the published perft figures
(tests/data/variants_perft.txt), shashki's pure-Python reference (written from the rules on a
mailbox of any size) on positions hypothesis finds and along random games, and pydraughts'
``standard`` game along random games; then the game layer (FEN, squares, PDN, draw rules).
"""

from __future__ import annotations

import io
import random

import draughts  # pydraughts, a test dependency
import pytest
import shashki
from conftest import perft_lines
from hub_process import play_pydraughts_game, pydraughts_hub_script
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki import pdn, reference
from shashki.draw import INTERNATIONAL, Termination, default_draw_rules
from shashki.protocols import hub
from strategies import ten_by_ten_setups

VARIANT = "international"
RULES = reference.rules_for(VARIANT)
START = "W:W31-50:B1-20"
LINES = [line for line in perft_lines("variants_perft.txt") if line.variant == VARIANT]


def core_keys(board: shashki.Board) -> set[tuple]:
    return {(m.start, m.end, m.captured, m.promotes) for m in board.legal_moves}


def reference_keys(fen: str) -> set[tuple]:
    return {m.key() for m in reference.legal_moves(fen, RULES)}


def setups() -> st.SearchStrategy[str]:
    """Any legal 10×10 setup (built with the reference's square helpers, not the core's)."""
    return ten_by_ten_setups()


@st.composite
def played(draw: st.DrawFn) -> str:
    """A position reached by random play from the start or from a random setup."""
    fen = draw(st.one_of(st.just(START), setups()))
    board = shashki.Board(fen, variant=VARIANT)
    for _ in range(draw(st.integers(0, 80))):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    return board.fen()


def random_game(seed: int, plies: int = 150) -> list[shashki.Board]:
    rng = random.Random(seed)
    board = shashki.Board(variant=VARIANT)
    seen = [board.copy()]
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        seen.append(board.copy())
    return seen


# ---- exact: perft, the reference, pydraughts ----------------------------------------------


def test_the_published_table_is_there() -> None:
    assert {(line.distinct, line.depth) for line in LINES} >= {(True, 11), (False, 12)}


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_reference_perft_of_the_start(depth: int) -> None:
    expected = {line.depth: line.nodes for line in LINES if line.distinct}
    assert reference.perft(START, depth, rules=RULES) == expected[depth]


@settings(max_examples=max(20, settings.default.max_examples // 2), deadline=None)
@given(st.one_of(setups(), played()))
def test_core_and_reference_agree_on_any_position(fen: str) -> None:
    board = shashki.Board(fen, variant=VARIANT)
    assert core_keys(board) == reference_keys(board.fen()), board.fen()


def test_core_and_reference_agree_along_random_games() -> None:
    checked = captures = 0
    for seed in range(4):
        for board in random_game(seed):
            assert core_keys(board) == reference_keys(board.fen()), board.fen()
            checked += 1
            captures += board.has_captures()
    assert checked > 300 and captures > 30


def pydraughts_keys(fen: str) -> set[tuple[int, int, frozenset[int]]]:
    board = draughts.Board(variant="standard", fen=fen)
    return {(m.steps_move[0], m.steps_move[-1], frozenset(m.captures)) for m in board.legal_moves()}


def test_pydraughts_agrees_along_random_games() -> None:
    def number(square: int) -> int:
        return shashki.square_number(square, variant=VARIANT)

    checked = captures = 0
    for seed in range(3):
        for board in random_game(200 + seed, plies=100):
            ours = {
                (number(m.start), number(m.end), frozenset(number(c) for c in m.captured))
                for m in board.legal_moves
            }
            assert ours == pydraughts_keys(board.fen()), board.fen()
            checked += 1
            captures += board.has_captures()
    assert checked > 200 and captures > 20


# ---- the rules' named cases ------------------------------------------------------------------


def texts(fen: str) -> set[str]:
    return {m.text("numeric") for m in shashki.Board(fen, variant=VARIANT).legal_moves}


def test_the_capture_taking_the_most_pieces_is_compulsory() -> None:
    # White's man on 32 can take one (27) or, from 28, two (22 and 12 via 17): only the two.
    fen = "W:W28,32:B22,12,27"
    assert texts(fen) == {"28x17x8"}
    assert reference_keys(fen) == core_keys(shashki.Board(fen, variant=VARIANT))


def test_men_capture_backwards_and_kings_fly() -> None:
    assert texts("W:W23:B28") == {"23x32"}
    assert texts("W:WK46:B23") == {"46x19", "46x14", "46x10", "46x5"}


def test_a_man_passing_the_last_rank_mid_capture_stays_a_man() -> None:
    # 12x3x14: the man lands on 3 (the far rank) and goes on as a man, ending uncrowned.
    board = shashki.Board("W:W12:B8,9", variant=VARIANT)
    (move,) = board.legal_moves
    assert move.text("numeric") == "12x3x14"
    assert not move.promotes


# ---- the game layer ---------------------------------------------------------------------------


def test_squares_numbers_and_names_of_the_ten_by_ten_board() -> None:
    assert shashki.square_name(0, variant=VARIANT) == "a1"
    assert shashki.square_name(49, variant=VARIANT) == "j10"
    assert shashki.square_number(0, variant=VARIANT) == 46
    assert shashki.parse_square("1", variant=VARIANT) == shashki.parse_square(
        "b10", variant=VARIANT
    )
    assert shashki.square_from_number(50, variant=VARIANT) == 4
    with pytest.raises(shashki.SquareError):
        shashki.square_from_number(51, variant=VARIANT)
    with pytest.raises(shashki.SquareError):
        shashki.square_name(50, variant=VARIANT)
    with pytest.raises(shashki.SquareError):
        shashki.parse_square("k1", variant=VARIANT)


def test_the_start_and_its_fen() -> None:
    board = shashki.Board(variant=VARIANT)
    assert board.fen() == "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(
        map(str, range(1, 21))
    )
    assert len(board.legal_moves) == 9
    assert len(board.pieces(True)) == 20
    assert max(board.pieces(False)) == 49
    assert "10 |" in str(board) and "a b c d e f g h i j" in str(board)


@pytest.mark.parametrize(
    "bad",
    ["W:W51:B1", "W:W0:B1", "W:Wm1:B1", "W:W31-52:B1-20", "W:W1:B2"],
)
def test_bad_fens_are_clear_errors(bad: str) -> None:
    with pytest.raises(shashki.FenError):
        shashki.Board(bad, variant=VARIANT)


def test_an_eight_by_eight_square_index_is_not_a_ten_by_ten_one() -> None:
    board = shashki.Board(variant=VARIANT)
    assert board.piece_at(49) is not None
    with pytest.raises(shashki.SquareError):
        board.piece_at(50)
    with pytest.raises(shashki.SquareError):
        shashki.Board().piece_at(32)


def test_a_game_reads_back_from_its_pdn() -> None:
    from shashki.game import Game

    game = Game(variant=VARIANT)
    for board in random_game(9, plies=80)[1:]:
        game.push(board.peek())
    text = pdn.write_game(game)
    assert '[GameType "20"]' in text
    back = pdn.read_game(io.StringIO(text))
    assert back is not None and back.variant == VARIANT
    assert list(back.mainline_moves()) == list(game.mainline_moves())


def test_draw_rules_are_fmjd_six() -> None:
    from shashki.game import Game

    assert default_draw_rules(VARIANT) is INTERNATIONAL
    # 25 moves of each side with only kings moved: 49 plies behind the FEN (its H field),
    # the 50th ends the game; a man's move instead starts the count again.
    game = Game("W:WK46,27:BK5,24:H49:F60", variant=VARIANT)
    assert not game.is_game_over()
    game.push_move("46-41")
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.INTERNATIONAL_KINGS_ONLY
    fresh = Game("W:WK46,27:BK5,24:H49:F60", variant=VARIANT)
    fresh.push_move("27-21")
    assert not fresh.is_game_over()
    # English counts 40 moves: the same clock is no draw there.
    assert not Game("W:WK29,18:BK4,11:H49:F60", variant="english").is_game_over()


# ---- the Hub, as Scan speaks it for 10×10 --------------------------------------------------


def test_hub_positions_and_moves_are_scans_and_pydraughts() -> None:

    board = shashki.Board(variant=VARIANT)
    assert hub.board_to_hub(board) == "W" + "b" * 20 + "e" * 10 + "w" * 20
    assert hub.board_from_hub(hub.board_to_hub(board), variant=VARIANT) == board
    pd_board = draughts.Board(variant="standard")
    for board in random_game(31, plies=90)[1:]:
        move = board.peek()
        text = hub.move_to_hub(move)
        legal = {m.hub_move for m in pd_board.legal_moves()}
        assert text in legal, (text, sorted(legal))
        before = board.copy()
        before.pop()
        assert hub.move_from_hub(before, text) == move
        pd_board.push(draughts.Move(pd_board, hub_move=text))
        assert hub.board_from_hub(hub.board_to_hub(board), variant=VARIANT) == board
    with pytest.raises(ValueError, match="50 squares"):
        hub.board_from_hub("W" + "e" * 32, variant=VARIANT)


def test_pydraughts_hub_engine_plays_whole_international_games(tmp_path) -> None:
    """pydraughts' HubEngine drives ``shashki hub`` on the 10×10 board, as it drives Scan:
    50-square positions, no variant set; every move it returns is legal for pydraughts."""

    from draughts.engine import HubEngine

    engine = HubEngine([pydraughts_hub_script(tmp_path)])
    try:
        assert "international" in engine.variants and "normal" in engine.variants
        engine.init()
        for game in range(2):
            _, _, plies = play_pydraughts_game(engine, VARIANT, "standard", game, 120, 0.02)
            assert plies >= 40
    finally:
        engine.quit()
        engine.kill_process()


# ---- antidraughts: International moves, the goal reversed --------------------------------------


def test_antidraughts_moves_as_international_and_reverses_the_goal() -> None:
    from shashki.draw import ANTIDRAUGHTS
    from shashki.game import Game

    start = shashki.Board(variant="antidraughts")
    assert start.fen() == shashki.Board(variant=VARIANT).fen()
    assert shashki.perft(start, 5) == 27117
    assert default_draw_rules("antidraughts") is ANTIDRAUGHTS
    # White has no piece left: White has won.
    assert shashki.Board("W:W:B1,2", variant="antidraughts").result() == "1-0"
    assert shashki.Board("W:W:B1,2", variant=VARIANT).result() == "0-1"
    game = Game(variant="antidraughts")
    for board in random_game(41, plies=30)[1:]:
        game.push(board.peek())
    text = pdn.write_game(game)
    assert '[GameType "20"]' in text and '[Variant "Antidraughts"]' in text
    back = pdn.read_game(io.StringIO(text))
    assert back is not None and back.variant == "antidraughts"


def test_pydraughts_antidraughts_agrees_along_random_games() -> None:
    def number(square: int) -> int:
        return shashki.square_number(square, variant="antidraughts")

    checked = 0
    rng = random.Random(7)
    board = shashki.Board(variant="antidraughts")
    while board.legal_moves and checked < 120:
        pd = draughts.Board(variant="antidraughts", fen=board.fen())
        ours = {
            (number(m.start), number(m.end), frozenset(number(c) for c in m.captured))
            for m in board.legal_moves
        }
        theirs = {
            (m.steps_move[0], m.steps_move[-1], frozenset(m.captures)) for m in pd.legal_moves()
        }
        assert ours == theirs, board.fen()
        board.push(rng.choice(list(board.legal_moves)))
        checked += 1
    assert checked >= 60


def test_the_hub_plays_antidraughts_for_losing_on_fifty_squares() -> None:
    server = hub.HubServer(io.StringIO(), io.StringIO())
    server.set_param("variant", "losing")
    position = "W" + "b" * 20 + "e" * 10 + "w" * 20
    server.handle("pos", {"pos": position})
    assert server.board.variant == "antidraughts"
    server.handle("pos", {"pos": "W" + "b" * 12 + "e" * 8 + "w" * 12})
    assert server.board.variant == "giveaway"
    server.set_param("variant", "english")
    with pytest.raises(ValueError, match="32 squares"):
        server.handle("pos", {"pos": position})


# ---- Killer draughts and breakthrough: International moves with one rule changed --------------


@pytest.mark.parametrize("variant", ["killer", "breakthrough"])
@settings(max_examples=max(20, settings.default.max_examples // 3), deadline=None)
@given(data=st.data())
def test_killer_and_breakthrough_agree_with_the_reference(
    variant: str, data: st.DataObject
) -> None:
    """The core against the reference (its killer and breakthrough rules written from the
    rules' texts) on any setup, and on positions reached by random play."""
    fen = data.draw(setups())
    board = shashki.Board(fen, variant=variant)
    for _ in range(data.draw(st.integers(0, 40))):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[data.draw(st.integers(0, len(moves) - 1))])
    rules = reference.rules_for(variant)
    ours = {(m.start, m.end, m.captured, m.promotes) for m in board.legal_moves}
    assert ours == {m.key() for m in reference.legal_moves(board.fen(), rules)}, board.fen()


def test_killer_kings_stop_behind_a_king_taken_last() -> None:
    def ends(fen: str, variant: str) -> set[int]:
        board = shashki.Board(fen, variant=variant)
        return {shashki.square_number(m.end, variant=variant) for m in board.legal_moves}

    # A White king on 46 takes the Black king on 37: anywhere behind it in International
    # draughts, only on 32 (the square right behind) in Killer draughts.
    assert ends("W:WK46:BK37", "international") == {32, 28, 23, 19, 14, 10, 5}
    assert ends("W:WK46:BK37", "killer") == {32}
    # A man taken last leaves the landing free, as in International draughts.
    assert ends("W:WK46:B37", "killer") == {32, 28, 23, 19, 14, 10, 5}
    # A king taken first, a man (18) last: free again; a man first, a king last: stopped.
    assert ends("W:WK46:BK37,18", "killer") == ends("W:WK46:BK37,18", "international")
    assert ends("W:WK46:B37,K18", "killer") == {12}
    # Killer's draws: no FMJD small endings (two kings against one must be winnable).
    assert default_draw_rules("killer").name == "killer"
    kinds = {type(rule).__name__ for rule in default_draw_rules("killer").automatic}
    assert kinds == {"Repetition", "KingsOnly"}


def test_breakthrough_ends_at_the_first_king() -> None:
    from shashki.game import Game

    board = shashki.Board("W:W7:B45", variant="breakthrough")
    assert {str(m) for m in board.legal_moves} == {"7-1", "7-2"}
    assert {m.text(notation="algebraic") for m in board.legal_moves} == {"c9-b10", "c9-d10"}
    board.push(next(iter(board.legal_moves)))
    assert list(board.legal_moves) == [] and board.is_game_over()
    assert board.result() == "1-0"
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES
    # The same position in International draughts goes on.
    assert list(shashki.Board(board.fen(), variant=VARIANT).legal_moves)
    # A game reads back from its PDN: GameType 20 with a Variant tag (lidraughts' own 96-98
    # are read too: tests/test_pdn.py's real exports).
    game = Game(variant="breakthrough")
    rng = random.Random(3)
    while not game.is_game_over() and len(game.mainline_moves()) < 400:
        game.push(rng.choice(list(game.end().board().legal_moves)))
    text = pdn.write_game(game)
    assert '[GameType "20"]' in text and '[Variant "Breakthrough"]' in text
    back = pdn.read_game(io.StringIO(text))
    assert back is not None and back.variant == "breakthrough"
    assert back.end().board().fen() == game.end().board().fen()


def test_pydraughts_breakthrough_agrees_along_random_games() -> None:
    """pydraughts' ``breakthrough``: the same moves at every position of random games, and
    the same winner where a man is crowned."""

    def number(square: int) -> int:
        return shashki.square_number(square, variant="breakthrough")

    checked = finished = 0
    for seed in range(4):
        rng = random.Random(600 + seed)
        board = shashki.Board(variant="breakthrough")
        while board.legal_moves:
            pd = draughts.Board(variant="breakthrough", fen=board.fen())
            ours = {
                (number(m.start), number(m.end), frozenset(number(c) for c in m.captured))
                for m in board.legal_moves
            }
            theirs = {
                (m.steps_move[0], m.steps_move[-1], frozenset(m.captures)) for m in pd.legal_moves()
            }
            assert ours == theirs, board.fen()
            board.push(rng.choice(list(board.legal_moves)))
            checked += 1
        pd = draughts.Board(variant="breakthrough", fen=board.fen())
        winner = board.outcome().winner
        assert pd.winner() == (draughts.WHITE if winner else draughts.BLACK), board.fen()
        finished += 1
    assert checked >= 100 and finished == 4


def test_the_hub_names_killer_and_bt_as_scan_does() -> None:
    server = hub.HubServer(io.StringIO(), io.StringIO())
    for name, variant in (("killer", "killer"), ("bt", "breakthrough")):
        server.set_param("variant", name)
        server.handle("pos", {"pos": "W" + "b" * 20 + "e" * 10 + "w" * 20})
        assert server.board.variant == variant
