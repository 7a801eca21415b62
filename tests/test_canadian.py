"""Canadian draughts (12×12, International rules, thirty men each) against its oracles: the
published perft figures (tests/data/variants_perft.txt), shashki's pure-Python reference
(written from the rules on a mailbox of any size) on positions hypothesis finds and along
random games; then what takes the 12×12 board today (``perft_many``, ``child_positions``,
``start_fen``, the command line) and what does not yet (a ``Board``, with a clear error).

No other program installed here plays Canadian draughts (pydraughts, py-draughts and
OpenSpiel do not), so the reference and the published figures are the oracles.
"""

from __future__ import annotations

import json
import random

import pytest
import shashki
from conftest import perft_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki import _core, reference
from shashki.apps import cli
from shashki.learn import batch
from strategies import twelve_by_twelve_setups

VARIANT = "canadian"
RULES = reference.rules_for(VARIANT)
START = "W:W43-72:B1-30"
LINES = [line for line in perft_lines("variants_perft.txt") if line.variant == VARIANT]


def pieces(fen: str) -> tuple[str, frozenset[str], frozenset[str]]:
    """A FEN's side to move and each side's squares (numbers, K for kings), ranges spelt
    out: FENs that list the same pieces in another order compare equal."""
    turn, *fields = fen.split(":")
    sides: dict[str, set[str]] = {"W": set(), "B": set()}
    for field in fields:
        for token in filter(None, field[1:].split(",")):
            king = token.startswith("K")
            body = token[1:] if king else token
            if "-" in body:
                low, high = (int(n) for n in body.split("-"))
                squares = [str(n) for n in range(low, high + 1)]
            else:
                squares = [body]
            sides[field[0]].update(("K" if king else "") + sq for sq in squares)
    return turn, frozenset(sides["W"]), frozenset(sides["B"])


def core_children(fen: str) -> set[tuple]:
    return {pieces(child) for _, child in shashki.child_positions(fen, variant=VARIANT)}


def reference_children(fen: str) -> set[tuple]:
    return {pieces(reference.play(fen, move, RULES)) for move in reference.legal_moves(fen, RULES)}


def random_game(seed: int, plies: int = 160) -> list[str]:
    rng = random.Random(seed)
    fen = shashki.start_fen(VARIANT)
    seen = [fen]
    for _ in range(plies):
        children = shashki.child_positions(fen, variant=VARIANT)
        if not children:
            break
        fen = rng.choice(children)[1]
        seen.append(fen)
    return seen


# ---- exact: perft, the reference ----------------------------------------------------------


def test_the_published_table_is_there() -> None:
    assert {(line.distinct, line.depth) for line in LINES} >= {(True, 10)}


@pytest.mark.parametrize("line", [line for line in LINES if line.depth <= 7], ids=str)
def test_perft_of_the_start_equals_the_published_figures(line) -> None:
    (count,) = shashki.perft_many(
        [START], line.depth, variant=VARIANT, distinct=line.distinct, threads=2
    )
    assert count == line.nodes


@pytest.mark.slow
@pytest.mark.parametrize("line", [line for line in LINES if 8 <= line.depth <= 10], ids=str)
def test_deep_perft_of_the_start_equals_the_published_figures(line) -> None:
    (count,) = shashki.perft_many([START], line.depth, variant=VARIANT, threads=2)
    assert count == line.nodes


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_reference_perft_of_the_start(depth: int) -> None:
    expected = {line.depth: line.nodes for line in LINES if line.distinct}
    assert reference.perft(START, depth, rules=RULES) == expected[depth]


@settings(max_examples=max(20, settings.default.max_examples // 2), deadline=None)
@given(twelve_by_twelve_setups())
def test_core_and_reference_agree_on_any_position(fen: str) -> None:
    assert core_children(fen) == reference_children(fen), fen


def test_core_and_reference_agree_along_random_games() -> None:
    checked = captures = 0
    for seed in range(4):
        for fen in random_game(seed):
            children = shashki.child_positions(fen, variant=VARIANT)
            assert core_children(fen) == reference_children(fen), fen
            checked += 1
            captures += any("x" in text for text, _ in children)
    assert checked > 300 and captures > 30


@settings(max_examples=10, deadline=None)
@given(twelve_by_twelve_setups(), st.integers(1, 2))
def test_perft_of_any_position_is_the_references(fen: str, depth: int) -> None:
    (count,) = shashki.perft_many([fen], depth, variant=VARIANT)
    assert count == reference.perft(fen, depth, rules=RULES)


# ---- the rules, by hand --------------------------------------------------------------------


def texts(fen: str) -> set[str]:
    return {text for text, _ in shashki.child_positions(fen, variant=VARIANT)}


def test_the_capture_taking_the_most_pieces_is_compulsory() -> None:
    # e3 (57) may take d4 alone or f4 and f6: only the longer capture is legal.
    assert texts("W:We3:Bd4,f4,f6") == {"57x46x33"}


def test_a_man_passing_the_last_rank_mid_capture_stays_a_man() -> None:
    # h10 (16) takes g11, lands on f12 (3), takes e11 backwards and ends on d10 (14).
    ((text, after),) = shashki.child_positions("W:Wh10:Bg11,e11", variant=VARIANT)
    assert text == "16x3x14" and pieces(after) == ("B", frozenset({"14"}), frozenset())
    ((text, after),) = shashki.child_positions("W:Wh10:Bg11", variant=VARIANT)
    assert pieces(after) == ("B", frozenset({"K3"}), frozenset())


def test_squares_and_the_start() -> None:
    white, black = range(43, 73), range(1, 31)
    expected = f"W:W{','.join(map(str, white))}:B{','.join(map(str, black))}"
    assert shashki.start_fen(VARIANT) == expected
    assert [shashki.square_name(i, variant=VARIANT) for i in (0, 5, 66, 71)] == [
        "a1",
        "k1",
        "b12",
        "l12",
    ]
    assert shashki.square_number(0, variant=VARIANT) == 67
    assert shashki.parse_square("l12", variant=VARIANT) == 71
    assert shashki.square_from_number(1, variant=VARIANT) == 66
    with pytest.raises(ValueError, match="1 and 72"):
        shashki.square_from_number(73, variant=VARIANT)


# ---- a Board, a Game, PDN and the engine on the 12×12 board --------------------------------


def test_a_board_plays_it() -> None:
    assert VARIANT in shashki.VARIANTS
    assert shashki.BOARD_SIZES[VARIANT] == 12 and shashki.SQUARE_COUNTS[VARIANT] == 72
    board = shashki.Board(variant=VARIANT)
    assert board.variant == VARIANT and board.fen() == shashki.start_fen(VARIANT)
    assert board == shashki.Board(START, variant=VARIANT)
    assert len(board.legal_moves) == 11
    move = board.parse_move("43-37")
    assert str(move) == "43-37" and move.variant == VARIANT  # its players write numbers
    assert move.text(notation="algebraic") == "a5-b6"
    assert (move.start, move.end) == (24, 30)  # a5 and b6: six squares a rank from a1
    board.push(move)
    assert board.turn == shashki.BLACK and board.peek() == move
    assert board.move_stack == [move]
    assert board.piece_at(30) == shashki.Piece(shashki.WHITE)
    assert board.pop() == move and board == shashki.Board(START, variant=VARIANT)
    assert "12 |" in str(board) and "a b c d e f g h i j k l" in str(board)


def test_a_board_lists_the_same_moves_as_the_core_along_random_games() -> None:
    rng = random.Random(41)
    checked = 0
    for _ in range(3):
        board = shashki.Board(variant=VARIANT)
        for _ in range(120):
            moves = list(board.legal_moves)
            if not moves:
                break
            listed = set()
            for move in moves:
                text = board.move_text(move, notation="numeric", long=True)
                board.push(move)
                listed.add((text, board.fen()))
                board.pop()
            assert listed == set(shashki.child_positions(board.fen(), variant=VARIANT))
            checked += 1
            board.push(rng.choice(moves))
    assert checked > 200


def test_editing_copying_and_pickling_keep_the_board() -> None:
    import copy
    import pickle

    board = shashki.Board(variant=VARIANT)
    board.push_move("43-37")
    board.push_move("30-36")
    for other in (board.copy(), copy.deepcopy(board), pickle.loads(pickle.dumps(board))):
        assert other == board and other.move_stack == board.move_stack
        assert other.variant == VARIANT
    assert board.copy(stack=False).move_stack == []
    assert board.root() == shashki.Board(START, variant=VARIANT)
    assert board.mirror().mirror() == board
    king = shashki.Piece(shashki.BLACK, king=True)
    board.set_piece_at(71, king)
    assert board.piece_at(shashki.parse_square("l12", variant=VARIANT)) == king
    assert board.remove_piece_at(71) == king
    with pytest.raises(ValueError):
        board.set_piece_at(72, shashki.Piece(shashki.WHITE))
    board.clear()
    assert board.fen() == "W:W:B" and not board.legal_moves


def test_moves_of_another_board_are_refused_and_the_board_is_unchanged() -> None:
    board = shashki.Board(variant=VARIANT)
    russian = shashki.Board().legal_moves[0]
    assert russian not in board.legal_moves and not board.is_legal(russian)
    with pytest.raises(shashki.IllegalMoveError, match="russian draughts"):
        board.push(russian)
    with pytest.raises(shashki.IllegalMoveError, match="a5-b6: it is a move of canadian"):
        shashki.Board().push(board.parse_move("43-37"))
    with pytest.raises(shashki.IllegalMoveError, match="no White piece on a7"):
        board.push_move("a7-b8")
    assert board == shashki.Board(START, variant=VARIANT) and board.move_stack == []


def test_the_draw_rules_and_the_outcome() -> None:
    board = shashki.Board("W:WK72:BK1", variant=VARIANT)
    for _ in range(2):
        for text in ("k1-l2", "b12-a11", "l2-k1", "a11-b12"):
            board.push_move(text)
    assert board.is_repetition(3)
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None and outcome.winner is None
    lost = shashki.Board("W:W72:B1", variant=VARIANT).copy()
    lost.push_move("k1-l2")
    assert lost.outcome() is None
    assert shashki.Board("B:W72:B", variant=VARIANT).outcome().winner == shashki.WHITE


def test_a_game_writes_and_reads_pdn_with_its_game_type() -> None:
    import io

    from shashki import pdn

    game = shashki.Game(variant=VARIANT)
    for text in ("43-37", "30-36", "37-31"):
        game.push_move(text)
    written = pdn.write_game(game)
    assert '[GameType "27' in written
    back = pdn.read_game(io.StringIO(written))
    assert back is not None and back.variant == VARIANT
    assert back.end().board().fen() == game.end().board().fen()
    assert [str(node.move) for node in back.nodes] == ["43-37", "30-36", "37-31"]
    assert [node.move.text(notation="algebraic") for node in back.nodes] == [
        "a5-b6",
        "l8-k7",
        "b6-a7",
    ]


def test_the_engine_plays_it() -> None:
    from shashki.engine import Engine, Limit

    with Engine() as engine:
        # The capture of the most pieces is compulsory: c5 takes two (d6, d8), not g5 one.
        board = shashki.Board("W:W44,46:B38,26,40", variant=VARIANT)
        result = engine.play(board, Limit(depth=3))
        assert result.move in board.legal_moves and len(result.move.captured) == 2
        board = shashki.Board(variant=VARIANT)
        plies = 0
        while not board.is_game_over() and plies < 400:
            move = engine.play(board, Limit(nodes=300)).move
            assert move in board.legal_moves
            board.push(move)
            plies += 1
        assert plies > 20


def test_the_batch_api_plays_and_labels_it() -> None:
    out = batch.playouts(4, variant=VARIANT, seed=5, positions=True, max_plies=120)
    assert out.planes is not None and out.planes.shape[1:] == (batch.PLANES, 12, 12)
    assert len(out.fens) == int(out.lengths.sum()) and set(out.results) <= {1, -1, 0, 2}
    board = shashki.Board(out.fens[7], variant=VARIANT)  # every position a Board reads
    labels = batch.search(out.fens[:6], variant=VARIANT, depth=3)
    assert len(labels.moves) == 6
    for fen, text, action in zip(out.fens[:6], labels.moves, labels.actions):
        board = shashki.Board(fen, variant=VARIANT)
        move = next(m for m in board.legal_moves if m.text(notation="algebraic") == text)
        assert batch.move_actions(board, move)[0] == action
    engine = batch.playouts(2, variant=VARIANT, policy="engine", nodes=200, max_plies=60)
    assert engine.lengths.sum() > 0
    with pytest.raises(ValueError, match="12×12.*family"):
        shashki._core.piece_sets([START], variant=VARIANT)


def test_the_family_features_are_read_on_its_board() -> None:
    import numpy as np

    raw, captures = _core.family_features([START, "W:W44,46:B38,26,40"], variant=VARIANT)
    rows = np.frombuffer(raw, dtype="<i4").reshape(2, -1)
    assert list(rows[0]) == [0] * len(rows[0])  # the start is symmetric
    assert captures == [False, True]
    assert rows[1][0] == 2 - 3  # two men against three


@pytest.mark.parametrize(
    "bad", ["", "W:W73", "X:W1", "W:W1:B1", "W:Wm1", "W:Wa2", "W:W1,,2", "W:W" + "1" * 500]
)
def test_bad_fens_are_clear_errors(bad: str) -> None:
    with pytest.raises(shashki.FenError):
        shashki.child_positions(bad, variant=VARIANT)
    with pytest.raises(shashki.FenError):
        shashki.perft_many([bad], 1, variant=VARIANT)


def test_a_perft_table_is_refused() -> None:
    with pytest.raises(ValueError, match="12×12"):
        shashki.perft_many([START], 1, variant=VARIANT, table=_core.PerftTable(1))


def test_the_command_line_counts_it(capsys) -> None:
    assert cli.main(["perft", "--variant", VARIANT, "--json", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["leaves"] == 79049 and out["fen"] == shashki.start_fen(VARIANT)
    assert cli.main(["perft", "--variant", VARIANT, "--divide", "W:We3:Bd4,f4,f6", "1"]) == 0
    assert "e3:g5:e7: 1" in capsys.readouterr().out
