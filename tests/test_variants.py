"""The 8×8 variants: giveaway, Brazilian, captures optional, the diagonal start.

Each rule difference has a named test checked on the Rust core and on the pure-Python
reference; perft of every start position against tests/data/variants_perft.txt; the
generator against the reference on random positions under every rule set; the game layer
(outcomes, draw rules, PDN), the engine, the Hub and the command line.
"""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
import shashki
from conftest import perft_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki import pdn, reference
from shashki.draw import BRAZILIAN, FMJD64, GIVEAWAY, Termination
from strategies import positions
from walks import quiet_walk

# The games a Board plays (the 12×12 board's figures are tests/test_canadian.py's).
LINES = [line for line in perft_lines("variants_perft.txt") if line.variant in shashki.VARIANTS]
RULE_SETS = [
    ("russian", False),
    ("giveaway", False),
    ("brazilian", False),
    ("diagonal", False),
    ("russian", True),
    ("brazilian", True),
]


def moves_of(board: shashki.Board) -> set[tuple[str, frozenset[str], bool]]:
    """The moves as (long text, captured squares by name, promotes)."""
    return {
        (str(m), frozenset(shashki.square_name(s) for s in m.captured), m.promotes)
        for m in board.legal_moves
    }


def reference_keys(fen: str, variant: str, optional: bool = False) -> set[tuple]:
    rules = reference.rules_for(variant, optional)
    return {m.key() for m in reference.legal_moves(fen, rules)}


def core_keys(fen: str, variant: str, optional: bool = False) -> set[tuple]:
    board = shashki.Board(fen, variant=variant, captures_optional=optional)
    return {(m.start, m.end, m.captured, m.promotes) for m in board.legal_moves}


def sq(*names: str) -> frozenset[int]:
    return frozenset(shashki.parse_square(n) for n in names)


# ---- the boards ---------------------------------------------------------------------------


def test_board_variant_attributes_and_repr() -> None:
    board = shashki.Board(variant="brazilian", captures_optional=True)
    assert board.variant == "brazilian"
    assert board.captures_optional
    assert repr(board).endswith("variant='brazilian', captures_optional=True)")
    assert shashki.Board().variant == "russian"
    assert not shashki.Board().captures_optional
    assert shashki.VARIANTS[:4] == ("russian", "giveaway", "brazilian", "diagonal")
    assert shashki.VARIANTS[4:] == (
        "english",
        "italian",
        "spanish",
        "portuguese",
        "czech",
        "pool",
        "thai",
        "international",
        "antidraughts",
        "killer",
        "breakthrough",
        "frisian",
        "frysk",
        "turkish",
        "canadian",
        "samoedy",  # new games come last: a position's rules code is its game's index
        "stavropol",
        "ugolki",
        "ugolki-12",
        "stavropol-own-first",
    )


@pytest.mark.parametrize("bad", ["chess", "", "spantsiretti"])
def test_unknown_variant_is_a_value_error(bad: str) -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        shashki.Board(variant=bad)


def test_variant_survives_copy_mirror_pickle_set_fen_and_edits() -> None:
    import pickle

    board = shashki.Board(variant="giveaway", captures_optional=True)
    board.push_move("c3-d4")
    for other in (board.copy(), board.mirror(), pickle.loads(pickle.dumps(board))):
        assert (other.variant, other.captures_optional) == ("giveaway", True)
    assert pickle.loads(pickle.dumps(board)).move_stack == board.move_stack
    board.set_fen("W:Wc3:Bd4")
    board.set_piece_at(shashki.parse_square("a1"), shashki.Piece(True))
    assert board.variant == "giveaway" and board.captures_optional
    assert shashki.Board.empty(variant="brazilian").variant == "brazilian"


def test_same_pieces_under_other_rules_are_different_boards() -> None:
    assert shashki.Board(variant="brazilian") != shashki.Board()
    assert shashki.Board(variant="brazilian") == shashki.Board(variant="brazilian")


def test_diagonal_start_is_the_two_triangles_beside_the_empty_main_road() -> None:
    board = shashki.Board(variant="diagonal")
    white = {shashki.square_name(s) for s in board.pieces(shashki.WHITE)}
    black = {shashki.square_name(s) for s in board.pieces(shashki.BLACK)}
    assert white == set("c1 e1 g1 d2 f2 h2 e3 g3 f4 h4 g5 h6".split())
    assert black == set("a3 b4 a5 c5 b6 d6 a7 c7 e7 b8 d8 f8".split())
    assert board.turn == shashki.WHITE
    assert shashki.Board(reference.START["diagonal"]).fen() == board.fen()


# ---- named rule differences ---------------------------------------------------------------

MAJORITY_FEN = "W:WKa1,e3:Bc3,f4"


def test_brazilian_majority_rule_with_a_kings_long_capture() -> None:
    # The king takes c3 and f4 (a1:e5:g3 or on to h2); the man e3 could take f4 alone.
    russian = moves_of(shashki.Board(MAJORITY_FEN))
    brazilian = moves_of(shashki.Board(MAJORITY_FEN, variant="brazilian"))
    assert {m[0] for m in russian} == {"a1:e5:g3", "a1:e5:h2", "e3:g5"}
    assert {m[0] for m in brazilian} == {"a1:e5:g3", "a1:e5:h2"}
    assert all(m[1] == {"c3", "f4"} for m in brazilian)
    assert reference_keys(MAJORITY_FEN, "brazilian") == core_keys(MAJORITY_FEN, "brazilian")
    assert reference_keys(MAJORITY_FEN, "russian") == core_keys(MAJORITY_FEN, "russian")


def test_brazilian_majority_counts_kings_and_men_alike() -> None:
    # One capture takes a king, the other two men: the two men must be taken.
    fen = "W:Wc3,g3:BKd4,f4,e5"  # c3 takes the king d4 (one piece); g3:e5:... takes more
    brazilian = shashki.Board(fen, variant="brazilian")
    most = max(len(m.captured) for m in shashki.Board(fen).legal_moves)
    assert all(len(m.captured) == most for m in brazilian.legal_moves)
    assert reference_keys(fen, "brazilian") == core_keys(fen, "brazilian")


def test_brazilian_man_crossing_the_far_rank_goes_on_as_a_man() -> None:
    fen = "W:Wb6:Bc7,e7"  # b6 takes c7 landing on d8, then e7 as a man, ending on f6
    (move,) = shashki.Board(fen, variant="brazilian").legal_moves
    assert str(move) == "b6:d8:f6"
    assert not move.promotes
    russian = moves_of(shashki.Board(fen))
    assert {m[0] for m in russian} == {"b6:d8:f6", "b6:d8:g5", "b6:d8:h4"}
    assert all(m[2] for m in russian)  # crowned on d8, it captured on as a king
    assert reference_keys(fen, "brazilian") == core_keys(fen, "brazilian")


def test_brazilian_man_ending_on_the_far_rank_is_crowned_there() -> None:
    fen = "W:Wb6:Bc7,f6"  # as a man on d8 it cannot reach f6: the move ends, crowned
    (move,) = shashki.Board(fen, variant="brazilian").legal_moves
    assert (str(move), move.promotes, move.captured) == ("b6:d8", True, sq("c7"))
    russian = moves_of(shashki.Board(fen))
    assert {m[0] for m in russian} == {"b6:d8:g5", "b6:d8:h4"}  # as a king it takes f6
    board = shashki.Board(fen, variant="brazilian")
    board.push(move)
    assert board.piece_at(shashki.parse_square("d8")) == shashki.Piece(True, True)
    assert reference_keys(fen, "brazilian") == core_keys(fen, "brazilian")


def test_giveaway_a_side_that_is_blocked_wins() -> None:
    fen = "W:Wh2:Bg3,f4"  # White's only man can neither step nor jump
    for board in (shashki.Board(fen, variant="giveaway"), shashki.Board(fen)):
        assert not board.legal_moves
    assert shashki.Board(fen, variant="giveaway").result() == "1-0"
    assert shashki.Board(fen).result() == "0-1"
    outcome = shashki.Board(fen, variant="giveaway").outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.NO_MOVES, shashki.WHITE)


def test_giveaway_a_side_that_has_lost_every_piece_wins() -> None:
    game = shashki.Game("W:We3:Bc5", variant="giveaway")
    game.push_move("e3-d4")
    game.push_move("c5:e3")
    assert game.result() == "1-0"
    assert game.outcome().termination is Termination.NO_MOVES


def test_captures_optional_a_quiet_move_beside_a_capture() -> None:
    fen = "W:Wc3:Bd4"
    assert {m[0] for m in moves_of(shashki.Board(fen))} == {"c3:e5"}
    optional = moves_of(shashki.Board(fen, captures_optional=True))
    assert {m[0] for m in optional} == {"c3:e5", "c3-b4"}
    assert reference_keys(fen, "russian", True) == core_keys(fen, "russian", True)


def test_captures_optional_a_capture_once_begun_is_completed() -> None:
    fen = "W:Wc3:Bd4,f6"
    optional = moves_of(shashki.Board(fen, captures_optional=True))
    assert {m[0] for m in optional} == {"c3:e5:g7", "c3-b4"}  # no stop on e5
    board = shashki.Board(fen, captures_optional=True)
    with pytest.raises(shashki.IllegalMoveError):
        board.push_move("c3:e5")


def test_captures_optional_combines_with_the_majority_rule() -> None:
    fen = MAJORITY_FEN
    keys = core_keys(fen, "brazilian", True)
    assert keys == reference_keys(fen, "brazilian", True)
    captures = [k for k in keys if k[2]]
    assert captures and all(len(k[2]) == 2 for k in captures)
    assert any(not k[2] for k in keys)


# ---- perft --------------------------------------------------------------------------------


def _id(line) -> str:
    return f"{line.id}-{'A' if line.distinct else 'B'}{line.depth}"


@pytest.mark.parametrize("line", [x for x in LINES if x.depth <= 10], ids=_id)
def test_perft_of_the_variant_start_positions(line) -> None:
    count = shashki.perft(line.board(), line.depth, distinct=line.distinct, hash_mb=16)
    assert count == line.nodes


@pytest.mark.slow
@pytest.mark.parametrize("line", [x for x in LINES if x.depth > 10], ids=_id)
def test_perft_of_the_variant_start_positions_deep(line) -> None:
    count = shashki.perft(line.board(), line.depth, distinct=line.distinct, threads=2, hash_mb=512)
    assert count == line.nodes


REFERENCE_DEPTH = {"brazilian": 5, "diagonal": 6, "giveaway": 4}


@pytest.mark.parametrize(
    "line",
    [
        x
        for x in LINES
        if x.depth <= (4 if x.captures_optional else REFERENCE_DEPTH.get(x.variant, 4))
    ],
    ids=_id,
)
def test_reference_confirms_the_variant_figures(line) -> None:
    rules = reference.rules_for(line.variant, line.captures_optional)
    fen = reference.from_game_fen(line.fen, line.variant)
    assert reference.perft(fen, line.depth, line.distinct, rules) == line.nodes


def test_giveaway_perft_is_russian_perft() -> None:
    russian = {(x.distinct, x.depth): x.nodes for x in perft_lines() if x.id == "start"}
    for line in LINES:
        if line.variant == "giveaway" and (line.distinct, line.depth) in russian:
            assert russian[(line.distinct, line.depth)] == line.nodes


def test_perft_divide_and_perft_many_follow_the_variant() -> None:
    board = shashki.Board(variant="brazilian")
    divide = shashki.perft_divide(board, 6)
    assert sum(divide.values()) == 37628
    fen = board.fen()
    assert shashki._core.perft_many([fen], 6, variant="brazilian") == [37628]
    assert shashki._core.perft_many([fen], 6) == [37986]


@settings(max_examples=settings.default.max_examples)
@given(positions(), st.sampled_from(RULE_SETS))
def test_core_and_reference_agree_under_every_rule_set(fen: str, rules: tuple[str, bool]) -> None:
    variant, optional = rules
    assert core_keys(fen, variant, optional) == reference_keys(fen, variant, optional)


# ---- games, draw rules, PDN ---------------------------------------------------------------


def test_each_variant_has_its_draw_rules() -> None:
    assert shashki.Game().draw_rules is FMJD64
    assert shashki.Game(variant="diagonal").draw_rules is FMJD64
    assert shashki.Game(variant="brazilian").draw_rules is BRAZILIAN
    assert shashki.Game(variant="giveaway").draw_rules is GIVEAWAY
    assert shashki.Board("W:WKa1,Kc1,Ke1:BKh8", variant="brazilian").outcome() is None


def test_brazilian_counters_three_pieces_against_a_king_and_kings_only() -> None:
    game = shashki.Game("W:WKa1,Kc1,e3:BKh8", variant="brazilian")
    game.push_move("a1-b2")
    counters = {c.termination: c for c in game.draw_counters()}
    three = counters[Termination.BRAZILIAN_THREE_PIECES]
    assert (three.done, three.limit, three.unit) == (1, 16, "moves")
    kings = counters[Termination.BRAZILIAN_KINGS_ONLY]
    assert (kings.done, kings.limit) == (1, 40)


def test_brazilian_small_ending_is_drawn_after_five_moves() -> None:
    game = shashki.Game("W:WKc1,Ke1:BKh8", variant="brazilian")
    quiet_walk(game, 40)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.termination is Termination.BRAZILIAN_SMALL_ENDING
    assert game.ply() == 9  # White's 5th move ends it (White moved first)


def test_giveaway_draw_by_kings_only() -> None:
    game = shashki.Game("W:WKa1:BKh8,Kf8", variant="giveaway")
    game.push_move("a1-b2")
    (counter,) = game.draw_counters()
    assert counter.termination is Termination.GIVEAWAY_KINGS_ONLY
    assert counter.limit == 30


def test_pdn_round_trip_of_a_brazilian_game() -> None:
    game = shashki.Game(variant="brazilian")
    for text in ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]:
        game.push_move(text)
    text = pdn.write_game(game)
    assert '[GameType "26"]' in text
    again = pdn.read_game(io.StringIO(text))
    assert again is not None
    assert again.variant == "brazilian"
    assert again.mainline_moves() == game.mainline_moves()


@pytest.mark.parametrize("variant", ["giveaway", "diagonal"])
def test_pdn_round_trip_with_the_variant_tag(variant: str) -> None:
    game = shashki.Game(variant=variant, captures_optional=True)
    game.push(next(iter(game.end().board().legal_moves)))
    text = pdn.write_game(game)
    assert '[GameType "25"]' in text
    assert f'[Variant "{variant.capitalize()}, captures optional"]' in text
    assert "[FEN" not in text  # the variant's own start needs none
    again = pdn.read_game(io.StringIO(text))
    assert again is not None
    assert (again.variant, again.captures_optional) == (variant, True)
    assert again.end().board() == game.end().board()


def test_pdn_of_another_game_type_is_refused() -> None:
    text = '[GameType "41"]\n\n1. a3-a4 *\n'
    with pytest.raises(pdn.PdnError, match="GameType '41'"):
        pdn.read_game(io.StringIO(text))


# ---- engine, Hub, command line ------------------------------------------------------------


def test_engine_in_giveaway_gives_its_last_man_away() -> None:
    from shashki.engine import Engine, Limit

    board = shashki.Board("W:We3:Bc5", variant="giveaway")
    info = Engine(hash_mb=1).analyse(board, Limit(depth=4))
    assert str(info["pv"][0]) == "e3-d4"
    assert info["score"].relative.is_win and info["score"].relative.win > 0


def test_engine_in_brazilian_plays_legal_majority_captures() -> None:
    from shashki.engine import Engine, Limit

    board = shashki.Board(MAJORITY_FEN, variant="brazilian")
    result = Engine(hash_mb=1).play(board, Limit(depth=3))
    assert result.move in list(board.legal_moves)
    assert len(result.move.captured) == 2


def test_engine_tables_are_not_probed_outside_russian_rules(tmp_path) -> None:
    from shashki import egtb

    egtb.build(tmp_path, pieces=3)
    tables = egtb.open(tmp_path)
    fen = "W:WKa1,Kc1:BKh8"
    assert tables.probe(shashki.Board(fen)) is not None
    assert tables.probe(shashki.Board(fen, variant="diagonal")) is not None
    for variant in ("giveaway", "brazilian"):
        assert tables.probe(shashki.Board(fen, variant=variant)) is None
    assert tables.probe(shashki.Board(fen, captures_optional=True)) is None


def hub(lines: list[str]) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "shashki", "hub"],
        input="\n".join(lines) + "\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    return proc.stdout.splitlines()


def hub_position(pieces: dict[str, str], turn: str = "W") -> str:
    """A Hub position string: the side to move, then squares 1 (b8) … 32 (g1)."""
    cells = []
    for number in range(1, 33):
        name = shashki.square_name(reference.square_index(*reference.pdn_coords(number)))
        cells.append(pieces.get(name, "e"))
    return turn + "".join(cells)


def test_hub_plays_the_variant_set_by_set_param() -> None:
    position = hub_position({"a1": "W", "e3": "w", "c3": "b", "f4": "b"})
    out = hub(
        [
            "hub",
            "set-param name=variant value=brazilian",
            "init",
            f"pos pos={position}",
            "level depth=3",
            "go think",
        ]
    )
    done = [line for line in out if line.startswith("done")]
    assert done, out
    squares = done[-1].split()[1].removeprefix("move=").split("x")
    # The king a1 (1) takes c3 (10) and f4 (15), ending on g3 (12) or h2 (8): the man's
    # single capture e3:g5 is not legal under the majority rule.
    assert squares[0] == "1" and squares[1] in ("8", "12")
    assert set(squares[2:]) == {"10", "15"}
    assert any("brazilian" in line and "values=" in line for line in out)


@pytest.mark.parametrize("name", ["normal", "losing", "antidraughts", "poddavki", "diagonal"])
def test_hub_accepts_pydraughts_and_scan_variant_names(name: str) -> None:
    out = hub(["hub", f"set-param name=variant value={name}", "ping"])
    assert "pong" in out
    assert not any(line.startswith("error") for line in out)


def test_hub_refuses_an_unknown_variant() -> None:
    out = hub(["hub", "set-param name=variant value=chess", "ping"])
    assert any(line.startswith("error") and "chess" in line for line in out)
    assert "pong" in out


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shashki", *args], capture_output=True, text=True, timeout=120
    )


def test_cli_perft_and_moves_take_a_variant() -> None:
    out = run_cli("perft", "6", "--variant", "brazilian")
    assert "perft 6: 37628" in out.stdout
    out = run_cli("perft", "4", "--captures-optional", "--orders")
    assert "perft 4: 2872" in out.stdout
    out = run_cli("moves", "W:Wh2:Bg3,f4", "--variant", "giveaway")
    assert "side to move has won" in out.stdout
    out = run_cli("perft", "3", "--variant", "chess")
    assert out.returncode == 2 and "invalid choice" in out.stderr


def test_cli_selfplay_in_giveaway_ends_with_a_result() -> None:
    out = run_cli("selfplay", "--variant", "giveaway", "--time", "0.01", "--max-plies", "60")
    assert out.returncode == 0
    assert '[Variant "Giveaway"]' in out.stdout
    assert '[Result "' in out.stdout and "result " in out.stderr


def test_hub_evaluation_param() -> None:
    out = hub(
        [
            "hub",
            "set-param name=evaluation value=classic",
            "init",
            "set-param name=evaluation value=neural",
            "level depth=2",
            "go think",
        ]
    )
    assert any("name=evaluation" in line for line in out)
    assert any(line.startswith("error") and "neural" in line for line in out)
    assert any(line.startswith("done move=") for line in out)


def test_hub_evaluation_network_by_name_never_by_path(tmp_path) -> None:
    from shashki.learn import network as nn

    path = tmp_path / "a.nnue"
    path.write_bytes(nn.to_bytes(nn.Weights.initial(2), "russian", 130))
    out = hub(
        [
            "hub",
            "init",
            "set-param name=evaluation value=network",
            f"set-param name=evaluation value={path}",
            "level depth=3",
            "go think",
        ]
    )
    assert any('values="learned classic family network"' in line for line in out)
    errors = [line for line in out if line.startswith("error")]
    assert len(errors) == 1 and str(path) in errors[0]
    assert any(line.startswith("done move=") for line in out)
