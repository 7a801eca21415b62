"""The Python API over the core: Board, Move, squares, FEN, errors."""

from __future__ import annotations

import copy
import io
import pickle
import re
from pathlib import Path

import pytest
import shashki
from hypothesis import given
from hypothesis import strategies as st
from shashki import pdn
from shashki.draw import NO_DRAWS, Termination
from shashki.engine import Engine, Limit
from shashki.game import Game
from strategies import played, positions
from system import SEED_FEN

START = shashki.STARTING_FEN


def test_version_comes_from_cargo() -> None:
    cargo = (Path(__file__).parent.parent / "Cargo.toml").read_text(encoding="utf-8")
    match = re.search(r'^version = "([^"]+)"', cargo, re.M)
    assert match is not None
    assert shashki.__version__ == match.group(1)


def test_start_position() -> None:
    board = shashki.Board()
    assert board.fen() == START
    assert board.turn == shashki.WHITE
    assert len(board.legal_moves) == 7
    assert [str(m) for m in board.legal_moves] == [
        "a3-b4",
        "c3-b4",
        "c3-d4",
        "e3-d4",
        "e3-f4",
        "g3-f4",
        "g3-h4",
    ]
    assert bool(board.legal_moves)
    assert board.legal_moves[0] in board.legal_moves
    assert board.legal_moves[-1] == board.legal_moves[6]
    with pytest.raises(IndexError):
        board.legal_moves[7]


def test_squares() -> None:
    assert shashki.square_name(shashki.C3) == "c3"
    assert shashki.square_number(shashki.C3) == 22
    assert shashki.parse_square("c3") == shashki.C3
    assert shashki.parse_square("22") == shashki.C3
    assert shashki.square_from_number(29) == shashki.A1 == 0
    assert shashki.H8 == 31
    assert len(shashki.SQUARE_NAMES) == 32
    for sq in shashki.SQUARES:
        assert shashki.parse_square(shashki.square_name(sq)) == sq
        assert shashki.square_from_number(shashki.square_number(sq)) == sq


@pytest.mark.parametrize("bad", ["", "a2", "i1", "a9", "33", "0", "c", "c33", " ", "ä1"])
def test_bad_square_names(bad) -> None:
    with pytest.raises(shashki.SquareError):
        shashki.parse_square(bad)


@pytest.mark.parametrize("bad", [-1, 32, 10**30])
def test_bad_square_indices(bad) -> None:
    with pytest.raises((ValueError, OverflowError)):
        shashki.square_name(bad)


def test_move_attributes() -> None:
    board = shashki.Board("W:We1:Bd2,b4,d4,f4,f2")
    loop = board.parse_move("e1:c3:e5:g3:e1")
    assert loop.start == loop.end == shashki.E1
    assert loop.captured == frozenset({shashki.D2, shashki.D4, shashki.F4, shashki.F2})
    assert loop.path[-1] == shashki.E1 and len(loop.path) == 4
    assert loop.is_capture and not loop.promotes
    assert loop == board.parse_move("e1:g3:e5:c3:e1")
    assert hash(loop) == hash(board.parse_move("e1:g3:e5:c3:e1"))
    assert loop.text("numeric") == "31x22x15x24x31" or loop.text("numeric").startswith("31x")
    assert repr(board.legal_moves[0]).startswith("<Move e1:")


def test_promotion_flag() -> None:
    board = shashki.Board("W:Wf6:Be7,b6")
    (move,) = board.legal_moves
    assert str(move) == "f6:d8:a5"
    assert move.promotes
    board.push(move)
    piece = board.piece_at(shashki.A5)
    assert piece is not None and piece.king and piece.color == shashki.WHITE
    assert piece.symbol() == "W"


def test_push_pop_peek_and_stack() -> None:
    board = shashki.Board()
    first = board.push_move("c3-d4")
    assert board.turn == shashki.BLACK
    reply = board.push_move("f6-e5")
    assert board.move_stack == [first, reply]
    assert board.peek() == reply
    assert board.has_captures()
    assert [str(m) for m in board.legal_moves] == ["d4:f6"]
    assert board.pop() == reply
    assert board.pop() == first
    assert board.fen() == START
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_illegal_push_leaves_board_unchanged() -> None:
    board = shashki.Board()
    elsewhere = shashki.Board("W:WKa1:B").parse_move("a1-e5")
    with pytest.raises(shashki.IllegalMoveError):
        board.push(elsewhere)
    assert board.fen() == START and not board.move_stack
    # A quiet move while a capture is available is illegal.
    board = shashki.Board("W:Wc3,g3:Bd4")
    quiet = shashki.Board("W:Wg3:B").parse_move("g3-h4")
    assert not board.is_legal(quiet)
    with pytest.raises(shashki.IllegalMoveError):
        board.push(quiet)
    assert board.fen() == "W:W22,24:B18"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", shashki.InvalidMoveError),
        ("c3", shashki.InvalidMoveError),
        ("c3-z9", shashki.InvalidMoveError),
        ("hello", shashki.InvalidMoveError),
        ("c3-e5", shashki.IllegalMoveError),
        ("c3-c4", shashki.InvalidMoveError),
        ("21-13", shashki.IllegalMoveError),
    ],
)
def test_bad_move_text(text, error) -> None:
    board = shashki.Board()
    with pytest.raises(error):
        board.push_move(text)
    assert board.fen() == START


def test_ambiguous_short_form_lists_the_moves() -> None:
    board = shashki.Board("W:We1:Bd2,b4,d4,f4,f2")
    with pytest.raises(shashki.AmbiguousMoveError) as info:
        board.parse_move("e1:a5")
    assert "e1:c3:a5" in str(info.value) and "e1:g3:e5:c3:a5" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_move_text_short_unless_needed() -> None:
    board = shashki.Board("W:We1:Bd2,b4,d4,f4,f2")
    texts = sorted(board.move_text(m) for m in board.legal_moves)
    assert texts == ["e1:c3:a5", "e1:e1", "e1:g3:e5:c3:a5"]
    start = shashki.Board()
    move = start.parse_move("c3-d4")
    assert start.move_text(move, notation="numeric") == "22-18"
    for m in board.legal_moves:
        assert board.parse_move(board.move_text(m)) == m
        assert board.parse_move(board.move_text(m, notation="numeric")) == m


@pytest.mark.parametrize(
    "fen",
    [
        "W:W21,22:B1,K4",
        "W:Wa1,c3:BKd6",
        "W:W21-32:B1-12",
        '[FEN "W:W21-32:B1-12"]',
        "W:W21-32:B1-12:H0:F1",
        "B:W:B1",
        "W:W21:B",
    ],
)
def test_fen_forms(fen) -> None:
    board = shashki.Board.from_fen(fen)
    assert shashki.Board(board.fen()).fen() == board.fen()
    assert shashki.Board(board.fen(notation="algebraic")) == board


@pytest.mark.parametrize(
    ("fen", "needle"),
    [
        ("W:Wa2:B1", "light square"),
        ("W:W33:B1", "out of range"),
        ("W:W1:B12", "crowning rank"),
        ("W:W21,21:B1", "twice"),
        ("X:W21:B1", "side to move"),
        ("W:W21:Z1", "unknown colour"),
        ("", "empty"),
    ],
)
def test_bad_fen_says_why(fen, needle) -> None:
    with pytest.raises(shashki.FenError, match=needle):
        shashki.Board(fen)
    board = shashki.Board()
    with pytest.raises(shashki.FenError):
        board.set_fen(fen)
    assert board.fen() == START


def test_copy_and_equality() -> None:
    board = shashki.Board()
    board.push_move("c3-d4")
    clone = board.copy()
    assert type(clone) is shashki.Board
    assert clone == board and clone.move_stack == board.move_stack
    assert board.copy(stack=False).move_stack == []
    clone.pop()
    assert clone != board
    with pytest.raises(TypeError, match="unhashable"):
        hash(board)  # mutable: the key for dictionaries is zobrist_hash()


def test_str_and_repr() -> None:
    board = shashki.Board()
    text = str(board)
    assert "a b c d e f g h" in text and text.count("w") == 12 and text.count("b") == 13
    assert repr(board) == f"Board('{START}')"


def test_pieces() -> None:
    board = shashki.Board("W:WK29,22:B1,K4")
    assert board.pieces(shashki.WHITE) == [shashki.A1, shashki.C3]
    assert board.pieces(shashki.WHITE, king=True) == [shashki.A1]
    assert board.pieces(shashki.BLACK, king=False) == [shashki.B8]
    assert board.piece_at(shashki.D4) is None
    with pytest.raises(ValueError):
        board.piece_at(40)


def test_no_moves_means_no_legal_moves() -> None:
    board = shashki.Board("W:Wa1:Bb2,c3")
    assert len(board.legal_moves) == 0 and not board.legal_moves


# ---- fuzzing the parsers: any text gives a value or a ValueError, never a crash ----


@given(st.text(max_size=80))
def test_fen_parser_fuzz(text) -> None:
    try:
        board = shashki.Board(text)
    except ValueError:
        return
    assert shashki.Board(board.fen()) == board


@given(st.text(alphabet='WBK:,-0123456789abcdefgh[]"FEN H', max_size=60))
def test_fen_parser_fuzz_fen_alphabet(text) -> None:
    try:
        board = shashki.Board(text)
    except shashki.FenError:
        return
    assert shashki.Board(board.fen()) == board


@given(st.text(max_size=30))
def test_move_parser_fuzz(text) -> None:
    board = shashki.Board()
    try:
        move = board.parse_move(text)
    except ValueError:
        assert board.fen() == START
        return
    assert move in board.legal_moves


@given(st.text(alphabet="abcdefgh12345678x:-", max_size=20))
def test_move_parser_fuzz_move_alphabet(text) -> None:
    board = shashki.Board("W:We1:Bd2,b4,d4,f4,f2")
    try:
        move = board.parse_move(text)
    except (shashki.InvalidMoveError, shashki.IllegalMoveError, shashki.AmbiguousMoveError):
        return
    assert move in board.legal_moves


@given(st.text(max_size=10))
def test_square_parser_fuzz(text) -> None:
    try:
        sq = shashki.parse_square(text)
    except shashki.SquareError:
        return
    assert 0 <= sq < 32


def test_lidraughts_fen_suffix() -> None:
    board = shashki.Board()
    assert board.fen(lidraughts=True) == START + ":H0:F1"
    board.push_move("c3-d4")
    assert board.fen(lidraughts=True).endswith(":H0:F1")
    board.push_move("f6-e5")
    assert board.fen(lidraughts=True).endswith(":H0:F2")
    kings = shashki.Board("W:WK30:BK3")
    for text in ["c1-b2", "f8-e7", "b2-c1"]:
        kings.push_move(text)
    assert kings.fen(notation="algebraic", lidraughts=True) == "B:WKc1:BKe7:H3:F2"
    assert shashki.Board(kings.fen(lidraughts=True)) == kings


# ---- moved here from the reliability and parity suites (by concept) ----


def test_the_single_capture_beside_a_longer_one() -> None:
    board = shashki.Board(SEED_FEN)
    short, long = sorted(board.legal_moves, key=lambda m: len(m.captured))
    assert str(short) == "d6:b8" and str(long) == "d6:f8:h6:f4:b8"
    assert board.parse_move("d6:b8") == short
    assert board.parse_move("10x1") == short
    assert board.parse_move(board.move_text(short, long=True)) == short
    game = Game(SEED_FEN)
    game.push(short)
    again = pdn.read_game(io.StringIO(pdn.write_game(game, notation="numeric")))
    assert again is not None and again.mainline_moves() == [short]


@given(positions())
def test_every_text_of_every_legal_move_parses_back(fen: str) -> None:
    board = shashki.Board(fen)
    for move in board.legal_moves:
        texts = {str(move), move.text("numeric")}
        for notation in ("algebraic", "numeric"):
            for long in (False, True):
                texts.add(board.move_text(move, notation=notation, long=long))
        for text in texts:
            assert board.parse_move(text) == move, (fen, text)


def test_lone_surrogates_are_format_errors() -> None:
    with pytest.raises(shashki.FenError, match="surrogate"):
        shashki.Board("W:W21\udc80:B1")
    with pytest.raises(shashki.FenError):
        shashki.Board.from_fen("\ud800")
    board = shashki.Board()
    with pytest.raises(shashki.FenError):
        board.set_fen("W:W21:B1\udfff")
    with pytest.raises(shashki.InvalidMoveError, match="surrogate"):
        board.parse_move("c3-d4\ud800")
    with pytest.raises(shashki.InvalidMoveError):
        board.push_move("\udc00")
    with pytest.raises(shashki.SquareError):
        shashki.parse_square("c\udc003")
    assert board == shashki.Board() and not board.move_stack


def test_huge_integers_name_the_allowed_range() -> None:
    board = shashki.Board()
    with pytest.raises(IndexError, match="out of range"):
        board.legal_moves[10**30]
    with pytest.raises(shashki.SquareError, match="0 and 31"):
        board.piece_at(2**70)
    for call in (shashki.square_name, shashki.square_number):
        with pytest.raises(shashki.SquareError):
            call(-(2**80))
    with pytest.raises(shashki.SquareError, match="1 and 32"):
        shashki.square_from_number(10**40)
    with pytest.raises(ValueError, match="0 and 63"):
        shashki.perft(board, 2**70)
    with pytest.raises(ValueError, match="threads"):
        shashki.perft(board, 2, threads=2**64)
    with pytest.raises(ValueError, match="hash_mb"):
        Engine(hash_mb=2**100)
    with pytest.raises(ValueError, match="nodes"):
        Limit(nodes=2**63)
    with pytest.raises(ValueError, match="depth"):
        Limit(depth=10**20)


def test_wrong_types_get_type_errors() -> None:
    engine = Engine(hash_mb=1)
    with pytest.raises(TypeError, match="Move"):
        Game().push(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Board, a Game or a FEN"):
        engine.play(None, Limit(depth=1))  # type: ignore[arg-type]
    result = engine.play("W:W21:B1", Limit(depth=2))  # a FEN is accepted
    assert result.move is not None and str(result.move) == "a3-b4"
    with pytest.raises(TypeError, match="Game"):
        pdn.write_game(shashki.Board())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text handle"):
        pdn.read_game("1. c3-d4 *")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="str"):
        shashki.Board().parse_move(22)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="int"):
        Limit(depth=2.5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "fen",
    [
        "W",
        "w.",
        "B:",
        "W:W21",
        "W:W21-+32:B1",
        "W:W+21:B1",
        "W:W21:B1:H0:H1",
        "W:W21:B1:F2:F2",
        "W:W21:H0:B1",
        "W:W21,,22:B1",
        "W:W21:B1:W22",
        "W:W21:B1:H+3",
    ],
)
def test_fens_outside_the_grammar_are_refused(fen: str) -> None:
    with pytest.raises(shashki.FenError):
        shashki.Board(fen)


@pytest.mark.parametrize(
    "fen",
    [
        "W:W21-32:B1-12",
        "W:W:B",
        "b:wK21 , 22:bk1",
        '[FEN "W:Wa3,c3:BKh8"]',
        "W:W21:B1:H3:F12",
        "W:B1:W21.",
        '"B:W21:B1"',
    ],
)
def test_fens_inside_the_grammar_are_read(fen: str) -> None:
    board = shashki.Board(fen)
    assert shashki.Board(board.fen()) == board


def test_board_outcome_from_its_stack() -> None:
    board = shashki.Board()
    assert board.outcome() is None and not board.is_game_over() and board.result() == "*"
    lost = shashki.Board("W:W:B1")
    outcome = lost.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES
    assert outcome.winner is False and lost.result() == "0-1"
    # Kings shuffle: the third occurrence of a position is a draw under FMJD-64 (7.2.3).
    kings = shashki.Board("W:WK30:BK3")
    for text in ["c1-d2", "f8-e7", "d2-c1", "e7-f8", "c1-d2", "f8-e7", "d2-c1", "e7-f8"]:
        kings.push_move(text)
    assert kings.outcome() is not None
    assert kings.outcome().termination is Termination.REPETITION
    assert kings.result() == "1/2-1/2"
    assert kings.result(draw_rules=NO_DRAWS) == "*"


def test_move_numbers_and_clocks() -> None:
    board = shashki.Board()
    assert (board.ply(), board.fullmove_number, board.halfmove_clock) == (0, 1, 0)
    board.push_move("c3-d4")
    assert (board.ply(), board.fullmove_number) == (1, 1)
    board.push_move("f6-g5")
    assert (board.ply(), board.fullmove_number) == (2, 2)
    late = shashki.Board("B:WK21:BK1:H7:F30")
    assert (late.fullmove_number, late.ply(), late.halfmove_clock) == (30, 59, 7)
    late.push(late.legal_moves[0])
    assert (late.fullmove_number, late.halfmove_clock) == (31, 8)
    assert late.fen(lidraughts=True).endswith(":H8:F31")


def test_editing() -> None:
    board = shashki.Board()
    board.push_move("c3-d4")
    board.set_piece_at(shashki.E5, shashki.Piece(shashki.WHITE, king=True))
    assert board.piece_at(shashki.E5) == shashki.Piece(True, True) and not board.move_stack
    assert board.remove_piece_at(shashki.E5) == shashki.Piece(True, True)
    assert board.remove_piece_at(shashki.E5) is None
    before = board.fen()
    with pytest.raises(ValueError, match="crowning rank"):
        board.set_piece_at(shashki.H8, shashki.Piece(shashki.WHITE))
    assert board.fen() == before
    board.clear()
    assert board == shashki.Board.empty() and board.turn and not board.legal_moves
    with pytest.raises(shashki.SquareError):
        board.set_piece_at(32, None)


@given(positions())
def test_mirror_is_the_same_game_from_the_other_side(fen: str) -> None:
    board = shashki.Board(fen)
    mirrored = board.mirror()
    assert mirrored.turn != board.turn
    assert mirrored.mirror() == board
    assert len(mirrored.legal_moves) == len(board.legal_moves)
    assert shashki.perft(mirrored, 3) == shashki.perft(board, 3)
    assert shashki.perft(mirrored, 3, distinct=False) == shashki.perft(board, 3, distinct=False)


def test_a_mutable_board_is_not_hashable() -> None:
    with pytest.raises(TypeError):
        {shashki.Board()}  # noqa: B018
    assert shashki.Board() == shashki.Board("W:W21-32:B1-12")
    assert {shashki.Board().zobrist_hash(): 1}


@given(played())
def test_boards_and_moves_pickle_and_deep_copy_with_their_stack(fen: str) -> None:
    board = shashki.Board(fen)
    for _ in range(6):
        if not board.legal_moves:
            break
        board.push(board.legal_moves[len(board.legal_moves) // 2])
    for clone in (pickle.loads(pickle.dumps(board)), copy.deepcopy(board), copy.copy(board)):
        assert type(clone) is shashki.Board
        assert clone == board and clone.move_stack == board.move_stack
        assert [m.path for m in clone.move_stack] == [m.path for m in board.move_stack]
    for move in board.legal_moves:
        again = pickle.loads(pickle.dumps(move))
        assert again == move and again.path == move.path and repr(again) == f"<Move {move}>"


def test_move_texts_without_separators() -> None:
    board = shashki.Board()
    assert str(board.parse_move("c3d4")) == "c3-d4"
    assert str(board.parse_move("2217")) == "c3-b4"
    board.push_move("c3-d4")
    board.push_move("f6-e5")
    assert str(board.parse_move("d4f6")) == "d4:f6"
    assert str(board.parse_move("1811")) == "d4:f6"
    with pytest.raises(shashki.InvalidMoveError):
        board.parse_move("d4f")


@pytest.mark.parametrize(
    "fen, text, reason",
    [
        ("W:W18,22:B15", "c3-b4", "a capture is compulsory: d4:f6"),
        ("W:W22:B1", "d2-e3", "no White piece on d2"),
        ("W:W18:B1", "d4-c3", "men move forward only"),
        ("W:W22,18:B1", "c3-d4", "d4 is occupied"),
        ("W:W22:B1", "c3-e5", "a man moves one square"),
        ("W:WK29,18:B1", "a1-e5", "blocked at d4"),
        ("W:W22:B1", "22-14", "not on a diagonal"),
    ],
)
def test_illegal_moves_say_why(fen: str, text: str, reason: str) -> None:
    board = shashki.Board(fen)
    with pytest.raises(shashki.IllegalMoveError, match=reason) as info:
        board.parse_move(text)
    assert "W:" not in str(info.value)  # a reason, not a raw FEN


def test_pushing_a_foreign_move_says_why() -> None:
    move = shashki.Board().parse_move("c3-d4")
    board = shashki.Board()
    board.push_move("a3-b4")
    with pytest.raises(shashki.IllegalMoveError, match="Black is to move"):
        board.push(move)


@pytest.mark.parametrize(
    ("fen", "variant", "result"),
    [
        ("W:Wa1:B", "russian", "1-0"),  # Black has nothing left, though White is to move
        ("B:W:Bh8", "russian", "0-1"),
        ("W:Wa1:B", "giveaway", "0-1"),  # in giveaway having nothing left wins
        ("W:Wa1:Bh8", "russian", "*"),
    ],
)
def test_a_side_without_pieces_has_lost_whoever_is_to_move(fen, variant, result) -> None:
    board = shashki.Board(fen, variant=variant)
    assert board.result() == result
    assert shashki.Game(fen, variant=variant).result() == result
    assert board.is_game_over() == (result != "*")
