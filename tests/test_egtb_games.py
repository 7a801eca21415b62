"""Endgame tables of every game of one piece a square, against an independent solve by the
pure-Python reference (its own moves, values found forward ply by ply) of every position of
one piece a side, and of a sample of three-piece positions against the reference's moves
with the tables' values of their children; the games without tables are refused with a
reason."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Callable

import pytest
import shashki
from shashki import egtb
from shashki import reference as ref
from shashki.reference_tables import (
    ReferenceGame,
    from_children,
    key,
    placements,
    probed,
    random_grid,
)

# Every game with tables: the games that share one (diagonal: Russian draughts'; Portuguese:
# Spanish draughts') are probed through the other's.
GAMES = [
    "english",
    "italian",
    "spanish",
    "czech",
    "pool",
    "thai",
    "brazilian",
    "giveaway",
    "samoedy",
    "stavropol",
    "stavropol-own-first",
    "killer",
    "breakthrough",
    "antidraughts",
    "turkish",
    "frisian",
    "canadian",
]
EMPTY_SIDE = {"samoedy", "stavropol", "stavropol-own-first"}  # a side may take its own last

Key = tuple[object, ...]


def solve(game: ReferenceGame, states: list[ref.State]) -> dict[Key, tuple[int, int]]:
    """(wdl, plies) of every state reachable from ``states``, found forward: no move is the
    game's end (a loss, or a win in giveaway and antidraughts); a child lost in d - 1 makes
    a win in d (the least); children all won, the slowest in d - 1, a loss in d; what is
    never decided is a draw."""
    children: dict[Key, list[Key]] = {}
    value: dict[Key, tuple[int, int]] = {}
    todo = list(states)
    while todo:
        state = todo.pop()
        k = key(state)
        if k in children or k in value:
            continue
        moves = game.moves(state)
        if not moves:
            value[k] = game.end()
            continue
        kids = []
        for move in moves:
            after = game.apply(state, move)
            kids.append(key(after))
            todo.append(after)
        children[k] = kids
    d = 1
    quiet = 0
    while quiet < 3:
        found = {}
        for k, kids in children.items():
            if k in value:
                continue
            vs = [value.get(c) for c in kids]
            if any(v is not None and v[0] == -1 and v[1] == d - 1 for v in vs):
                found[k] = (1, d)
            elif all(v is not None and v[0] == 1 for v in vs):
                if max(v[1] for v in vs if v is not None) == d - 1:
                    found[k] = (-1, d)
        value.update(found)
        quiet = 0 if found else quiet + 1
        d += 1
    return {k: value.get(k, (0, 0)) for k in children} | value


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], egtb.EndgameTables]:
    held: dict[str, egtb.EndgameTables] = {}

    def tables(variant: str) -> egtb.EndgameTables:
        if variant not in held:
            directory = tmp_path_factory.mktemp(variant)
            egtb.build(directory, pieces=3, variant=variant, progress=False)
            held[variant] = egtb.open(directory)
        return held[variant]

    return tables


@pytest.mark.parametrize("variant", GAMES)
def test_every_position_of_a_piece_a_side_agrees_with_the_reference_solve(
    variant: str, built: Callable[[str], egtb.EndgameTables]
) -> None:
    game = ReferenceGame(variant)
    tables = built(variant)
    states = []
    for white, black in itertools.product("wW", "bB"):
        if variant == "breakthrough" and (white == "W" or black == "B"):
            continue  # a king has ended the game: no balance holds kings
        states += list(placements(game, white + black))
    if variant in EMPTY_SIDE:
        for piece in "wWbB":
            states += list(placements(game, piece))
    solved = solve(game, states)
    counts = {1: 0, 0: 0, -1: 0}
    for state in states:
        board = game.board(state)
        expected = solved[key(state)]
        assert probed(tables, board) == expected, (variant, board.fen())
        counts[expected[0]] += 1
    assert counts[1] > 0, counts  # decided positions occur in every game
    if variant != "turkish":  # (one piece a side: in Turkish the side to move never loses)
        assert counts[-1] > 0, counts
    if variant not in {"breakthrough", "giveaway", "antidraughts"}:
        assert counts[0] > 0, counts  # and drawn ones where kings may run forever


@pytest.mark.parametrize("variant", GAMES)
def test_three_piece_values_follow_from_the_reference_moves(
    variant: str, built: Callable[[str], egtb.EndgameTables]
) -> None:
    game = ReferenceGame(variant)
    tables = built(variant)
    rng = random.Random(f"{variant}-3")
    squares = game.squares()
    n = game.size
    checked = 0
    kinds = "wb" if variant == "breakthrough" else "wWbB"
    while checked < 120:
        pieces = [rng.choice(kinds) for _ in range(3)]
        if not any(p in "wW" for p in pieces) or not any(p in "bB" for p in pieces):
            continue
        grid = random_grid(rng, squares, n, pieces)
        if grid is None:
            continue
        state = ref.State(grid, rng.choice("WB"))
        moves = game.moves(state)
        if moves:
            children = []
            for move in moves:
                after = game.apply(state, move)
                if game.moves(after):
                    child = probed(tables, game.board(after))
                    assert child is not None, (variant, game.board(after).fen())
                else:
                    child = game.end()
                children.append(child)
            expected = from_children(children)
        else:
            expected = game.end()
        assert probed(tables, game.board(state)) == expected, (variant, game.board(state).fen())
        checked += 1


def test_each_game_has_its_own_files_and_the_shared_ones_are_shared(
    tmp_path: Path, built: Callable[[str], egtb.EndgameTables]
) -> None:
    names = egtb.build(tmp_path, pieces=2, variant="english", progress=False)
    assert names == ["english-KvK", "english-KvB", "english-WvK", "english-WvB"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "english-KvK.egtb",
        "english-WvB.egtb",
        "english-WvK.egtb",
    ]  # KvB is WvK mirrored: one file
    tables = egtb.open(tmp_path)
    assert tables.games == ["english"]
    # Portuguese plays Spanish draughts' positions, the diagonal start Russian's.
    spanish = built("spanish")
    board = shashki.Board("W:WK1:BK32,31", variant="portuguese")
    assert spanish.probe(board) is not None
    assert spanish.probe(board) == spanish.probe(shashki.Board(board.fen(), variant="spanish"))


@pytest.mark.parametrize(
    ("variant", "reason"),
    [
        ("ugolki", "race"),
        ("ugolki-12", "race"),
    ],
)
def test_games_the_builder_cannot_serve_are_refused_with_the_reason(
    variant: str, reason: str
) -> None:
    with pytest.raises(ValueError, match=f"no endgame tables for {variant}: .*{reason}"):
        egtb.build("/nonexistent", pieces=2, variant=variant, progress=False)


def frisian_run_after(board: shashki.Board, move: shashki.Move) -> tuple[object, object]:
    """Each side's run of quiet king moves after ``move``, from the rules' text (a king may
    make at most three quiet moves in a row while its side has men): a quiet move by a king
    of a side that still has men runs on (the same king: one more; another: one), any other
    move of the mover ends its run; a capture ends the other side's run when it takes that
    king or leaves that side without men or without kings."""
    mover = board.turn
    before = {c: board.king_run(c) for c in (shashki.WHITE, shashki.BLACK)}
    after = board.copy()
    after.push(move)
    men = {c: after.pieces(c, king=False) for c in (shashki.WHITE, shashki.BLACK)}
    kings = {c: after.pieces(c, king=True) for c in (shashki.WHITE, shashki.BLACK)}
    was_king = board.piece_at(move.start).king  # type: ignore[union-attr]
    runs = dict(before)
    if was_king and not move.captured and men[mover]:
        old = before[mover]
        count = old[0] + 1 if old is not None and old[1] == move.start else 1
        runs[mover] = (min(count, 3), move.end)
    else:
        runs[mover] = None
    other = not mover
    if move.captured and before[other] is not None:
        if before[other][1] in move.captured or not men[other] or not kings[other]:
            runs[other] = None
    return runs[shashki.WHITE], runs[shashki.BLACK]


def _gives_a_capture(board: shashki.Board, move: shashki.Move) -> bool:
    child = board.copy()
    child.push(move)
    return child.has_captures()


def test_frisian_values_with_runs_follow_from_the_reference_moves(
    built: Callable[[str], egtb.EndgameTables],
) -> None:
    """Frisian's tables hold each side's run of quiet king moves: positions reached by
    random moves (so with runs of one to three moves), each valued from the reference's
    legal moves (a king that has made three quiet moves blocked while its side has men)
    and the tables' values of the children, whose runs follow the rule as written here."""
    tables = built("frisian")
    game = ReferenceGame("frisian")
    rng = random.Random("frisian-runs")
    squares = game.squares()
    n = game.size
    checked = runs_seen = blocked_seen = 0
    while checked < 150:
        pieces = (
            ["W", "w", rng.choice("bB")] if rng.random() < 0.5 else ["B", "b", rng.choice("wW")]
        )
        grid = random_grid(rng, squares, n, pieces)
        if grid is None:
            continue
        board = game.board(ref.State(grid, rng.choice("WB")))
        for _ in range(rng.randrange(3, 10)):  # quiet moves only: the balance stays
            quiet = [m for m in board.legal_moves if not m.captured and not m.promotes]
            if not quiet or len(quiet) != len(list(board.legal_moves)):
                break
            mine = board.king_run(board.turn)
            if mine is not None and mine[0] >= 3 and rng.random() < 0.5:
                break  # a blocked king: value this position
            quiet = [m for m in quiet if not _gives_a_capture(board, m)] or quiet
            by_king = [m for m in quiet if board.piece_at(m.start).king]  # type: ignore[union-attr]
            board.push(rng.choice(by_king if by_king and rng.random() < 0.8 else quiet))
        if board.is_game_over() or len(list(board.legal_moves)) == 0:
            continue
        run = board.king_run(board.turn)
        runs_seen += (board.king_run(shashki.WHITE), board.king_run(shashki.BLACK)) != (None, None)
        blocked = run[1] if run is not None and run[0] >= 3 else None
        blocked_seen += blocked is not None
        reference_moves = {
            m.key() for m in ref.legal_moves(board.fen(), game.rules, blocked=blocked)
        }
        core_moves = {(m.start, m.end, m.captured, m.promotes): m for m in board.legal_moves}
        assert set(core_moves) == reference_moves, board.fen()
        children = []
        for move_key in reference_moves:
            move = core_moves[move_key]
            child = board.copy()
            child.push(move)
            assert (child.king_run(shashki.WHITE), child.king_run(shashki.BLACK)) == (
                frisian_run_after(board, move)
            )
            value = probed(tables, child) if list(child.legal_moves) else (-1, 0)
            assert value is not None, child.fen()
            children.append(value)
        assert probed(tables, board) == from_children(children), board.fen()
        checked += 1
    assert runs_seen > 30 and blocked_seen > 5, (runs_seen, blocked_seen)
    # Frysk plays Frisian's positions: the same tables.
    board = shashki.Board("W:WK46,40:BK5", variant="frysk")
    assert tables.probe(board) == tables.probe(shashki.Board(board.fen(), variant="frisian"))
    # Every stored position of the three-piece balances follows from its children.
    for name in tables.materials():
        if name.startswith("frisian-"):
            tables.verify(name, 3)


@pytest.mark.parametrize("variant", ["towers", "lasca"])
def test_column_games_are_refused(variant: str) -> None:
    with pytest.raises(ValueError, match="column game"):
        egtb.build("/nonexistent", pieces=2, variant=variant, progress=False)


def coefficients(factors: list[tuple[int, int]], up_to: int) -> list[int]:
    """The coefficients of x^0 … x^up_to in the product of (1 + k x)^e over (k, e)."""
    out = [1] + [0] * up_to
    for k, e in factors:
        for _ in range(e):
            out = [out[i] + (k * out[i - 1] if i else 0) for i in range(up_to + 1)]
    return out


def test_english_position_counts_are_the_published_ones(tmp_path: Path) -> None:
    """The positions of each number of pieces in English checkers' databases as the
    Chinook project published them (Schaeffer et al., "Checkers is solved", Science 317,
    2007, table 1: placements of the pieces, a side to move not counted, a side without
    pieces included): 120, 6,972, 261,224 and 7,092,774 for one to four pieces. The tables
    count every position of their balances (both sides with a piece) by verifying each one;
    the placements of one colour alone (no balance holds them: the game is over) are
    counted apart: a king on any of 32 squares, a man on the 28 off its crowning row."""
    published = {1: 120, 2: 6_972, 3: 261_224, 4: 7_092_774}
    egtb.build(tmp_path, pieces=4, variant="english", progress=False)
    tables = egtb.open(tmp_path)
    held = {n: 0 for n in published}
    for name in tables.materials():
        white_to_move, _ = tables.verify(name)
        held[sum(c in "KWB" for c in name.removeprefix("english-"))] += sum(white_to_move)
    one_colour = coefficients([(1, 4), (2, 28)], 4)  # its crowning row: kings only
    for n, count in published.items():
        assert held[n] + 2 * one_colour[n] == count, n
    # The whole board, by the same count: (1 + 3x)^8 (1 + 4x)^24.
    assert coefficients([(3, 8), (4, 24)], 5)[1:] == [120, 6_972, 261_224, 7_092_774, 148_688_232]


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("english", "B:WK1,K5:BK32"),
        ("giveaway", "W:WK29:B1,2"),
        ("turkish", "W:WK1,K2:BK64"),
        ("canadian", "W:WK30:B20"),
    ],
)
def test_the_engine_plays_another_game_s_tables_perfectly(
    variant: str, fen: str, built: Callable[[str], egtb.EndgameTables]
) -> None:
    from shashki.engine import Engine, Limit

    tables = built(variant)
    board = shashki.Board(fen, variant=variant)
    value = tables.probe(board)
    assert value is not None and value.wdl != 0
    with Engine(hash_mb=8, tables=tables) as engine:
        info = engine.analyse(board, Limit(depth=2))
    # The engine's mate distance (the winner's moves, negative for a loss) is the table's.
    assert info["score"].relative.win == tables.probe_dtw(board)
    child = board.copy()
    child.push(info["pv"][0])
    after = tables.probe(child)
    if after is not None:  # the move keeps the best value: its child is the table's best
        assert (after.wdl, after.plies) == (-value.wdl, value.plies - 1)


@pytest.mark.parametrize(
    ("variant", "fen"), [("english", "B:WK1,K5:BK32"), ("canadian", "B:WK13,K63:B4")]
)
def test_the_hub_engine_takes_another_game_s_tables(tmp_path: Path, variant: str, fen: str) -> None:
    from hub_process import HubProcess
    from shashki.protocols import hub

    egtb.build(tmp_path, pieces=3, variant=variant, progress=False)
    board = shashki.Board(fen, variant=variant)
    engine = HubProcess()
    try:
        engine.send(
            "hub",
            f"set-param name=variant value={variant}",
            f"set-param name=egtb value={tmp_path}",
            "init",
        )
        engine.wait_for("ready")
        engine.send(f"pos pos={hub.board_to_hub(board)}", "level depth=1", "go think")
        done = engine.wait_for("done move=", timeout=60)
    finally:
        stderr = engine.close()
    move = hub.move_from_hub(board, done.split("move=")[1].split()[0])
    child = board.copy()
    child.push(move)
    tables = egtb.open(tmp_path)
    before, after = tables.probe(board), tables.probe(child)
    assert before is not None and after is not None
    assert (after.wdl, after.plies) == (-before.wdl, before.plies - 1)  # the slowest loss
    assert "Traceback" not in stderr
