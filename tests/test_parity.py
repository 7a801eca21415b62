"""python-chess habits that work: Board outcome, editing, mirror, pickling, the game tree,
game-over rules, a read-only game board, move texts as bots write them, messages that say
why a move is illegal."""

from __future__ import annotations

import copy
import io
import pickle

import pytest
import shashki
from hypothesis import given
from hypothesis import strategies as st
from shashki import pdn
from shashki.draw import NO_DRAWS, Termination
from shashki.game import Game, GameOverError, ReadOnlyBoardError
from strategies import played, positions

# ---- Board: outcome ----------------------------------------------------------------------


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


# ---- Board: editing, mirror ----------------------------------------------------------------


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


# ---- Board: hashing, copies, pickles -------------------------------------------------------


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


# ---- move texts ----------------------------------------------------------------------------


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


# ---- the game tree -------------------------------------------------------------------------


def test_game_tree_editing() -> None:
    game = Game()
    start = shashki.Board()
    c3d4, a3b4 = start.parse_move("c3-d4"), start.parse_move("a3-b4")
    game.push(c3d4)
    alternative = game.root().add_variation(a3b4, comment="quieter")
    assert [n.move for n in game.root().variations] == [c3d4, a3b4]
    assert alternative.parent is game.root() and not alternative.is_mainline()
    reply = alternative.add_variation(alternative.board().parse_move("b6-a5"))
    assert reply.board().move_stack == [a3b4, reply.move] and reply.ply() == 2
    assert alternative.end() is reply and alternative.next() is reply
    game.root().promote_to_main(a3b4)
    assert game.mainline_moves() == [a3b4, reply.move]
    assert game.end().board().move_stack == [a3b4, reply.move]
    game.root().demote(a3b4)
    assert game.mainline_moves() == [c3d4]
    game.root().remove_variation(a3b4)
    assert [n.move for n in game.root().variations] == [c3d4]
    main = game.root().add_main_variation(a3b4)
    assert game.next() is main and game.end() is main and game.end().board().peek() == a3b4
    assert [n.move for n in game.mainline()] == [a3b4]


def test_game_tree_round_trips_through_pdn() -> None:
    game = Game()
    game.push_move("c3-d4")
    game.push_move("f6-e5")
    side = (
        game.root()
        .variations[0]
        .add_variation(shashki.Board("B:W18,21,23-32:B1-12").parse_move("b6-a5"), comment="sharp")
    )
    side.starting_comment = "or"
    side.add_variation(side.board().parse_move("d4-c5"))
    game.nodes[1].nags.append(1)
    text = pdn.write_game(game)
    assert "{or}" in text and "{sharp}" in text and "(" in text
    again = pdn.read_game(io.StringIO(text))
    assert again is not None and not again.errors
    assert again.mainline_moves() == game.mainline_moves()
    (main, alternative) = again.nodes[0].variations
    assert alternative.starting_comment == "or" and alternative.comment == "sharp"
    assert alternative.mainline_moves() == side.mainline_moves()
    assert again.nodes[1].nags == [1]


# ---- game over --------------------------------------------------------------------------------


def test_no_move_after_the_end_until_pop() -> None:
    game = Game()
    game.push_move("c3-d4")
    game.resign(shashki.BLACK)
    assert game.result() == "1-0" and game.headers["Result"] == "1-0"
    with pytest.raises(GameOverError, match="1-0"):
        game.push_move("f6-g5")
    with pytest.raises(GameOverError):
        game.agree_draw()
    with pytest.raises(GameOverError):
        game.resign(shashki.WHITE)
    game.pop()
    assert game.result() == "*"
    game.push_move("c3-d4")
    game.agree_draw()
    assert game.headers["Result"] == "1/2-1/2"


def test_a_rules_draw_ends_the_game() -> None:
    game = Game("W:WK30:BK3")
    for text in ["c1-d2", "f8-e7", "d2-c1", "e7-f8", "c1-d2", "f8-e7", "d2-c1", "e7-f8"]:
        game.push_move(text)
    assert game.is_game_over() and game.headers["Result"] == "1/2-1/2"
    with pytest.raises(GameOverError):
        game.push_move("c1-d2")
    game.pop()
    game.push_move("e7-d8")


def test_recorded_results_are_the_result() -> None:
    game = Game()
    game.push_move("c3-d4")
    game.headers["Result"] = "0-1"  # a loss on time, say
    assert game.result() == "0-1" and game.outcome().termination is Termination.RECORDED
    with pytest.raises(ValueError, match="1-0, 0-1"):
        game.headers["Result"] = "2-0x"
    game.headers["Result"] = "*"
    assert game.result() == "*" and game.headers["Result"] == "*"


@given(positions(), st.randoms(use_true_random=False))
def test_result_header_always_equals_result(fen: str, rng) -> None:
    game = Game(fen)
    for _ in range(rng.randint(0, 40)):
        assert game.headers["Result"] == game.result()
        if game.is_game_over():
            break
        game.push(rng.choice(list(game.end().board().legal_moves)))
    assert game.headers["Result"] == game.result()
    assert dict(game.headers)["Result"] == game.result()


def test_the_game_is_the_root_of_its_tree_and_board_is_a_method() -> None:
    game = Game()
    node = game.push_move("c3-d4")
    assert game.root() is game and node.root() is game and node.game() is game
    assert isinstance(game, shashki.game.GameNode)
    assert game.board().fen() == shashki.STARTING_FEN  # the first position (python-chess)
    current = game.end().board()
    assert type(current) is shashki.Board and current.move_stack == [node.move]
    current.push_move("f6-g5")  # a new board: the game is unchanged
    assert game.mainline_moves() == [node.move]
    assert game.variation(node) is node and game.variation(node.move) is node
    assert pickle.loads(pickle.dumps(game.end().board())) == game.end().board()
    assert not hasattr(shashki.game, "GameBoard") and not hasattr(shashki.game, "Node")


def test_game_board_as_an_attribute_is_deprecated_and_read_only() -> None:
    game = Game()
    game.push_move("c3-d4")
    with pytest.warns(DeprecationWarning, match=r"game.end\(\).board\(\)"):
        assert game.board.fen() == game.end().board().fen()
    for change in (
        lambda b: b.push(b.legal_moves[0]),
        lambda b: b.pop(),
        lambda b: b.push_move("f6-g5"),
        lambda b: b.set_fen("W:W21:B1"),
        lambda b: b.clear(),
        lambda b: b.set_piece_at(0, None),
    ):
        with pytest.warns(DeprecationWarning), pytest.raises(ReadOnlyBoardError):
            change(game.board)
    assert len(game.mainline_moves()) == 1


# ---- the engine's lifecycle and several lines --------------------------------------------------


def test_engine_context_manager_and_close() -> None:
    from shashki.engine import Engine, EngineClosedError, Limit

    with Engine(hash_mb=4) as engine:
        assert engine.play(shashki.Board(), Limit(depth=3)).move is not None
    with pytest.raises(EngineClosedError):
        engine.play(shashki.Board(), Limit(depth=3))
    engine.close()  # twice is harmless


def test_multipv_lines_are_distinct_and_best_first() -> None:
    from shashki.engine import Engine, Limit

    seen: list[int] = []
    with Engine(hash_mb=8) as engine:
        infos = engine.analyse(
            shashki.Board(), Limit(depth=6), multipv=4, on_info=lambda i: seen.append(i["multipv"])
        )
        single = engine.analyse(shashki.Board("W:W21:B1"), Limit(depth=4), multipv=3)
        with pytest.raises(ValueError, match="multipv"):
            engine.analyse(shashki.Board(), Limit(depth=2), multipv=0)
    assert [i["multipv"] for i in infos] == [1, 2, 3, 4]
    assert len({i["pv"][0] for i in infos}) == 4
    keys = [i["score"].relative.cp for i in infos]
    assert keys == sorted(keys, reverse=True)
    assert set(seen) == {1, 2, 3, 4}
    assert len(single) == 1 and single[0]["multipv"] == 1  # one legal move


def test_play_greets_thinks_aloud_and_names_the_players(tmp_path) -> None:
    import argparse

    from shashki.play import play

    path = tmp_path / "game.pdn"
    out: list[str] = []
    feed = iter(["c3-d4", "c3-b4", f"save {path}", "quit"])

    def read(prompt: str) -> str:
        return next(feed)

    options = dict(color="white", time=0.02, fen=None, ascii=True, two_players=False)
    play(argparse.Namespace(watch=False, white="Ann", **options), read=read, write=out.append)
    text = "\n".join(out)
    assert out[0].startswith("shashki play:") and "help" in out[0]
    assert "is thinking" in text
    assert "a capture is compulsory" in text or "illegal move" in text
    saved = path.read_text(encoding="utf-8")
    assert '[White "Ann"]' in saved and f'[Black "shashki {shashki.__version__}"]' in saved
