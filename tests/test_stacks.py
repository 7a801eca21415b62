"""The column games (towers, Lasca): perft, the pure-Python reference against the core on
random games, the column invariant, and the rules' named positions (docs/variants.md,
"Towers" and "Lasca")."""

from __future__ import annotations

import pickle
import random

import pytest
import shashki
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki import ColumnBoard
from shashki import reference_columns as ref

# Perft of each start position, both conventions (A: one move per position it leads to;
# B: one per order of the columns jumped), computed by the core and for the first depths by
# the reference (docs/variants.md gives the table and the times).
# fmt: off
PERFT = {
    ("towers", "distinct"): [7, 49, 302, 1469, 7482, 37908, 189912, 925862, 4533133,
                             22058971, 107590933],
    ("towers", "orders"): [7, 49, 302, 1469, 7482, 37908, 189912, 925868, 4533214,
                           22065604, 107635944],
    ("lasca", "distinct"): [6, 6, 18, 54, 116, 324, 846, 2148, 5692, 13898, 37124, 97420,
                            269440, 742352],
    ("lasca", "orders"): [6, 6, 18, 54, 116, 324, 846, 2148, 5692, 13898, 37124, 97440,
                          269512, 742638],
    # The western reading of towers: men forwards only, tops taken as they are jumped.
    ("towers-western", "distinct"): [7, 49, 302, 1469, 7361, 36690, 179367, 842435, 3932105],
    ("towers-western", "orders"): [7, 49, 302, 1469, 7361, 36690, 179367, 842435, 3932105],
}
# fmt: on
CORE_DEPTH = {"towers": 9, "lasca": 14, "towers-western": 8}
REFERENCE_DEPTH = {"towers": 5, "lasca": 9, "towers-western": 5}


@pytest.mark.parametrize("key", sorted(PERFT))
def test_perft_of_the_start_positions(key: tuple[str, str]) -> None:
    game, counting = key
    board = ColumnBoard(variant=game)
    for depth, expected in enumerate(PERFT[key][: CORE_DEPTH[game]], start=1):
        assert board.perft(depth, counting) == expected, (game, counting, depth)


@pytest.mark.parametrize("key", sorted(PERFT))
def test_the_reference_agrees_on_the_start_positions(key: tuple[str, str]) -> None:
    game, counting = key
    rules = ref.GAMES[game]
    state = ref.start(rules)
    for depth in range(1, REFERENCE_DEPTH[game] + 1):
        count = ref.perft(rules, state, depth, distinct=counting == "distinct")
        assert count == PERFT[key][depth - 1], (game, counting, depth)


def state_of(board: ColumnBoard) -> ref.State:
    return ref.parse_fen(ref.GAMES[board.variant], board.fen())


def positions_after(board: ColumnBoard) -> set[str]:
    """The positions the core's legal moves lead to, as the reference writes them."""
    rules = ref.GAMES[board.variant]
    out = set()
    for move in board.legal_moves:
        board.push(move)
        out.add(ref.write_fen(rules, state_of(board)))
        board.pop()
    return out


def reference_positions_after(board: ColumnBoard) -> set[str]:
    rules = ref.GAMES[board.variant]
    state = state_of(board)
    return {ref.write_fen(rules, ref.play(state, m)) for m in ref.legal_moves(rules, state)}


def check_columns(board: ColumnBoard, pieces: int) -> None:
    """Every column is at most two blocks of colour; no piece leaves the board."""
    total = 0
    for square in range(shashki.game_info(board.variant).square_count):
        colors = [p.color for p in board.column(square)]
        blocks = sum(1 for i, c in enumerate(colors) if i == 0 or c != colors[i - 1])
        assert blocks <= 2, (board.fen(), square)
        total += len(colors)
    assert total == pieces
    assert board.piece_count(True) + board.piece_count(False) == pieces


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(["towers", "lasca", "towers-western"]),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 120),
)
def test_random_games_agree_with_the_reference(game: str, seed: int, plies: int) -> None:
    """On every position of a random game: the same moves (as the positions they lead to)
    in the core and the reference, the same count in both conventions, the column
    invariant, a FEN that reads back to the same position."""
    rng = random.Random(seed)
    board = ColumnBoard(variant=game)
    rules = ref.GAMES[game]
    pieces = 22 if game == "lasca" else 24
    for _ in range(plies):
        moves = board.legal_moves
        state = state_of(board)
        assert len(moves) == len(ref.legal_moves(rules, state, distinct=True))
        assert board.perft(1, "orders") == len(ref.legal_moves(rules, state, distinct=False))
        assert positions_after(board) == reference_positions_after(board)
        check_columns(board, pieces)
        again = ColumnBoard(board.fen(), variant=game)
        assert again == board and again.zobrist_hash() == board.zobrist_hash()
        if not moves:
            assert board.outcome().winner == (not board.turn)
            break
        board.push(rng.choice(moves))


def test_hashes_follow_the_columns() -> None:
    """Two positions with the same tops and other columns under them hash apart."""
    a = ColumnBoard("W:Wc3(b):Bf6", variant="towers")
    b = ColumnBoard("W:Wc3(B):Bf6", variant="towers")
    c = ColumnBoard("W:Wc3:Bf6", variant="towers")
    assert len({a.zobrist_hash(), b.zobrist_hash(), c.zobrist_hash()}) == 3
    # The hash after a move is the hash of the position read from its FEN.
    board = ColumnBoard("W:Wc3:Bd4(ww),f6", variant="towers")
    board.push_move("c3:g7")
    assert board.zobrist_hash() == ColumnBoard(board.fen(), variant="towers").zobrist_hash()


# ---- the rules, position by position ------------------------------------------------------


def test_a_capture_takes_only_the_top_and_the_rest_changes_hands() -> None:
    board = ColumnBoard("W:Wc3:Bd4(ww)", variant="towers")
    board.push_move("c3:e5")
    assert board.fen() == "B:We5(b),d4(w):B"
    # The rest of the column jumped is White's now: Black has no piece on top and loses.
    assert board.outcome().winner is True


def test_a_king_taken_is_a_king_again_when_freed() -> None:
    board = ColumnBoard("W:Wc3:Bd4(W)", variant="towers")
    board.push_move("c3:e5")
    square = shashki.parse_square("d4")
    assert [p.symbol() for p in board.column(square)] == ["W"]
    assert board.piece_at(square).king


def test_a_column_is_jumped_once_a_move() -> None:
    """A king could go round and jump d4's column again after taking its top; the Turkish
    strike forbids it, so the capture ends at one piece."""
    board = ColumnBoard("W:WKa1:Bd4(bb)", variant="towers")
    texts = {board.move_text(m) for m in board.legal_moves}
    assert texts == {"a1:e5", "a1:f6", "a1:g7", "a1:h8"}
    board.push_move("a1:h8")
    assert board.fen() == "B:WKh8(b):Bd4(b)"


def test_a_jumped_column_blocks_until_the_move_ends() -> None:
    """After jumping b4 the king cannot land beyond it again on the way back: the jumped
    column stands until the move ends (the Turkish strike), as in Russian draughts."""
    board = ColumnBoard("W:WKe1:Bc3(b),c5,e5", variant="towers")
    for move in board.legal_moves:
        assert len(set(move.captured)) == len(move.captured)
    board_moves = {board.move_text(m) for m in board.legal_moves}
    state = ref.parse_fen(ref.TOWERS, board.fen())
    reference = {
        ref.write_fen(ref.TOWERS, ref.play(state, m)) for m in ref.legal_moves(ref.TOWERS, state)
    }
    assert reference == positions_after(board)
    assert board_moves


def test_a_man_crowned_during_a_capture_goes_on_as_a_king_in_towers() -> None:
    # d6 takes e7 and lands on f8, crowned; as a king it goes on and takes g7's top.
    board = ColumnBoard("W:Wd6:Be7,g7(w)", variant="towers")
    moves = board.legal_moves
    assert [[shashki.square_name(s) for s in m.path] for m in moves] == [["f8", "h6"]]
    board.push(moves[0])
    assert [p.symbol() for p in board.column(shashki.parse_square("h6"))] == ["W", "b", "b"]
    # g7's column was a black man over a white one: the white man is freed, and White's.
    assert [p.symbol() for p in board.column(shashki.parse_square("g7"))] == ["w"]


def test_lasca_soldiers_capture_forwards_only_and_promotion_ends_the_move() -> None:
    # White's soldier on 13 (d4) has a black column ahead (17, e5) and one behind (9, c3).
    board = ColumnBoard("W:W13:B9,17", variant="lasca")
    texts = {board.move_text(m) for m in board.legal_moves}
    assert texts == {"13x21"}
    # A soldier reaching the far row by a capture stops there, crowned, where an officer
    # would capture on (c7 takes b6).
    board = ColumnBoard("W:W17:B19,20", variant="lasca")
    moves = board.legal_moves
    assert [board.move_text(m) for m in moves] == ["17x23"]
    board.push(moves[0])
    top = board.piece_at(22)
    assert top is not None and top.king
    assert board.piece_at(18) is not None  # b6 (19) still stands


def test_lasca_officers_step_one_square() -> None:
    board = ColumnBoard("W:WK13:B25", variant="lasca")
    assert sorted(board.move_text(m) for m in board.legal_moves) == [
        "13-10",
        "13-16",
        "13-17",
        "13-9",
    ]


def test_a_blocked_side_loses() -> None:
    board = ColumnBoard("W:Wa1:Bb2(w),c3", variant="towers")
    assert board.legal_moves == []
    assert board.outcome().winner is False
    assert board.result() == "0-1"


def test_towers_draw_after_fifteen_moves_of_kings_only() -> None:
    board = ColumnBoard("W:WKa1:BKh6", variant="towers")
    moves = ["a1-b2", "h6-g5", "b2-a1", "g5-h6"]
    for ply in range(30):
        assert board.outcome() is None or board.outcome().winner is None
        board.push_move(moves[ply % 4])
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is None


def test_threefold_repetition() -> None:
    board = ColumnBoard("W:WKa1(b):BKh6(w)", variant="towers")
    for text in ["a1-b2", "h6-g5", "b2-a1", "g5-h6"] * 2:
        board.push_move(text)
    assert board.occurrences() == 3
    assert board.outcome().termination == shashki.Termination.REPETITION


# ---- input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [
        "W:Wc3(bw):Bf6",  # three blocks of colour
        "W:Wc3(b:Bf6",  # no closing parenthesis
        "W:Wc3(x):Bf6",  # not a piece
        "W:Wc3:Bf6(" + "w" * 30 + ")",  # too high
        "W:Wc3(b),c3(b):B",  # a square twice
    ],
)
def test_bad_fens_are_refused(fen: str) -> None:
    with pytest.raises(shashki.FenError):
        ColumnBoard(fen, variant="towers")


def test_an_illegal_move_leaves_the_board_unchanged() -> None:
    board = ColumnBoard(variant="towers")
    before = board.fen()
    with pytest.raises(shashki.InvalidMoveError):
        board.push_move("c3-c4")
    with pytest.raises(shashki.IllegalMoveError):
        board.push_move("a3-b6")
    assert board.fen() == before and board.move_stack == []


def test_the_one_piece_board_refuses_a_column_game() -> None:
    with pytest.raises(ValueError, match="ColumnBoard"):
        shashki.Board(variant="towers")
    with pytest.raises(ValueError, match="not a column game"):
        ColumnBoard(variant="russian")


def test_cards_of_the_column_games() -> None:
    names = [card.name for card in shashki.games(columns=True)]
    assert names == ["towers", "lasca", "towers-western"]
    assert all(not card.stacks for card in shashki.games())
    lasca = shashki.game_info("laska")
    assert (lasca.board_size, lasca.square_count, lasca.notation) == (7, 25, "numeric")
    assert shashki.game_info("bashni").draw_rules == "towers"


def test_pickle_and_copy_keep_the_moves() -> None:
    board = ColumnBoard(variant="lasca")
    board.push_move("10-13")
    board.push(board.legal_moves[0])
    for other in (pickle.loads(pickle.dumps(board)), board.copy()):
        assert other == board and other.move_stack == board.move_stack
    assert board.copy(stack=False).move_stack == []


def test_the_command_line_counts_the_column_games(capsys: pytest.CaptureFixture[str]) -> None:
    from shashki.apps import cli

    assert cli.main(["perft", "--variant", "Bashni", "6"]) == 0
    assert "perft 6: 37908" in capsys.readouterr().out
    assert cli.main(["perft", "--variant", "lasca", "--orders", "--json", "12"]) == 0
    assert '"leaves": 97440' in capsys.readouterr().out
    assert cli.main(["perft", "--variant", "towers", "--captures-optional", "3"]) == 2
    assert "captures-optional" in capsys.readouterr().err


def test_the_engine_plays_the_column_games() -> None:
    from shashki.engine import Engine, Limit

    engine = Engine(hash_mb=4)
    try:
        for variant in ("towers", "lasca"):
            board = ColumnBoard(variant=variant)
            result = engine.play(board, Limit(depth=4))
            assert result.move in board.legal_moves
            assert result.info["depth"] == 4 and result.info["nodes"] > 10
            assert result.info["pv"][0] == result.move
        # Towers: c3 must take d4's man, Black's last: a win in one move.
        board = ColumnBoard("W:Wc3,h2:Bd4", variant="towers")
        result = engine.play(board, Limit(depth=3))
        assert result.move == board.parse_move("c3:e5")
        assert result.info["score"].relative.win == 1
        # Time and clocks limit it too; a position without moves has no move.
        board = ColumnBoard(variant="towers")
        assert engine.play(board, Limit(time=0.05)).move in board.legal_moves
        assert engine.play(board, Limit(white_clock=1.0)).move in board.legal_moves
        with pytest.raises(ValueError, match="needs a limit"):
            engine.play(board, Limit())
        assert engine.play(ColumnBoard("W:Wc3:Bd4(ww)", variant="towers"), Limit(depth=2)).move
    finally:
        engine.close()


def test_the_column_search_refuses_bad_limits() -> None:
    board = ColumnBoard(variant="lasca")
    for kwargs in ({"depth": 0}, {"depth": 101}, {"nodes": 0}, {"time": -1.0}):
        with pytest.raises(ValueError):
            board.search(**kwargs)


@pytest.mark.parametrize("variant", ["towers", "lasca"])
def test_pdn_writes_and_reads_a_column_game(variant: str) -> None:
    import io

    from shashki import pdn
    from shashki.columns import read_pdn, write_pdn

    rng = random.Random(7)
    board = ColumnBoard(variant=variant)
    for _ in range(40):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    assert any(m.captured for m in board.move_stack)  # columns were built
    text = write_pdn(board, {"White": "A", "Black": 'B "quoted"'})
    assert f'[Variant "{variant}"]' in text and "GameType" not in text
    headers, back = read_pdn(io.StringIO(text + "\n" + text)) or ({}, None)
    assert back is not None and back.fen() == board.fen()
    assert back.move_stack == board.move_stack and headers["Black"] == 'B "quoted"'
    # From a set-up position, with comments and a variation to skip.
    start = ColumnBoard("W:Wc3:Bd4(ww),h8" if variant == "towers" else None, variant=variant)
    move = next(iter(start.legal_moves))
    start.push(move)
    text = write_pdn(start)
    assert ("[FEN" in text) == (variant == "towers")
    text = text.replace(" *", " {a note} (1. x) *")
    _, again = read_pdn(io.StringIO(text)) or ({}, None)
    assert again is not None and again.fen() == start.fen()
    # The one-piece reader says where a column game is read.
    with pytest.raises(pdn.PdnError, match="read_pdn"):
        pdn.read_game(io.StringIO(text))
    # A move that is not legal is reported with its line.
    bad = f'[Variant "{variant}"]\n\n1. a1-h8 *\n'
    with pytest.raises(pdn.PdnError, match="a1-h8") as raised:
        read_pdn(io.StringIO(bad))
    assert raised.value.line == 3
    assert read_pdn(io.StringIO("")) is None


# ---- towers, the western reading ----------------------------------------------------------

WESTERN = "towers-western"


def ends(board: ColumnBoard) -> set[str]:
    return {board.move_text(m, long=True) for m in board.legal_moves}


def test_western_men_capture_forwards_only() -> None:
    # The black man on b4 behind White's c3: the Russian tradition takes it backwards,
    # the western reading cannot (White's quiet moves instead).
    fen = "W:Wc5:Bb4,h8"
    assert ends(ColumnBoard(fen, variant="towers")) == {"c5:a3"}
    western = ColumnBoard(fen, variant=WESTERN)
    assert not western.has_captures()
    assert ends(western) == {"c5-b6", "c5-d6"}


def test_western_a_column_is_jumped_again_after_another_capture() -> None:
    # A white king on a1, Black's column of two men on d4 and a man on f6. The king takes
    # d4's top (landing on e5), then f6 (g7 or h8); in the western reading f6 is gone at
    # once and d4, jumped before another capture came between, may be jumped again: the
    # king flies back over the emptied f6 and takes d4's last man, landing on c3, b2 or a1
    # (its own start). In the Russian tradition d4 stays jumped and in the way.
    fen = "W:WKa1:Bd4(b),f6"
    assert ends(ColumnBoard(fen, variant="towers")) == {"a1:e5:g7", "a1:e5:h8"}
    western = ColumnBoard(fen, variant=WESTERN)
    assert ends(western) == {"a1:e5:g7:c3", "a1:e5:g7:b2", "a1:e5:g7:a1"}
    move = western.parse_move("a1:e5:g7:c3")
    western.push(move)
    assert western.fen() == "B:WKc3(bbb):B"  # the three men under the king, none left
    assert western.outcome() is not None and western.result() == "1-0"
    # Not twice in a row: a king cannot turn straight back over the column it just took.
    board = ColumnBoard("W:WKa1:Bc3(b),h8", variant=WESTERN)
    assert ends(board) == {"a1:d4", "a1:e5", "a1:f6", "a1:g7"}


def test_western_pdn_and_hub_spell_a_column_jumped_twice() -> None:
    import io

    from shashki import columns
    from shashki.protocols import hub

    board = ColumnBoard("W:WKa1:Bd4(b),f6", variant=WESTERN)
    move = board.parse_move("a1:e5:g7:c3")
    # The Hub lists d4 twice, in the order jumped (1 = a1 … d4 = 14, f6 = 23, c3 = 10).
    assert hub.move_to_hub(move) == "1x10x14x23x14"
    assert hub.move_from_hub(board, "1x10x14x23x14") == move
    board.push(move)
    text = columns.write_pdn(board)
    assert '[Variant "towers-western"]' in text
    read = columns.read_pdn(io.StringIO(text))
    assert read is not None and read[1].fen() == board.fen()
