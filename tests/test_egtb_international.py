"""International draughts' endgame tables (10×10): every two-piece position against an
independent solve (the pure-Python reference's moves, values found forward, ply by ply),
known results of the theory, the engine and the command line."""

from __future__ import annotations

import itertools

import pytest
import shashki
from shashki import egtb
from shashki import reference as ref

RULES = ref.rules_for("international")
SIZE = 10


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> egtb.EndgameTables:
    directory = tmp_path_factory.mktemp("egtb10")
    names = egtb.build(directory, pieces=3, variant="international", progress=False)
    assert names[:4] == [
        "international-KvK",
        "international-KvB",
        "international-WvK",
        "international-WvB",
    ]
    assert all(name.startswith("international-") for name in names)
    assert len(names) == 16  # as Russian draughts': the same balances
    # Of four pieces, three kings against one only (the theory below): the whole <= 4 set
    # is half a minute of CPU, and the other games' tests build theirs.
    assert egtb.build(
        directory, 4, variant="international", balances=["KvKKK"], progress=False
    ) == ["international-KKKvK"]
    return egtb.open(directory)


def dark_squares() -> list[tuple[int, int]]:
    return [(f, r) for r in range(SIZE) for f in range(SIZE) if ref.is_dark(f, r)]


def two_piece_states() -> list[ref.State]:
    """Every position of one piece a side (a man never on its crowning rank), both sides to
    move."""
    out = []
    squares = dark_squares()
    for white, black in itertools.product("wW", "bB"):
        for (wf, wr), (bf, br) in itertools.permutations(squares, 2):
            if white == "w" and wr == SIZE - 1 or black == "b" and br == 0:
                continue
            grid: list[list[str | None]] = [[None] * SIZE for _ in range(SIZE)]
            grid[wr][wf] = white
            grid[br][bf] = black
            for turn in "WB":
                out.append(ref.State(grid, turn))
    return out


def key(state: ref.State) -> tuple[object, ...]:
    return (tuple(tuple(row) for row in state.grid), state.turn)


def solve(states: list[ref.State]) -> dict[tuple[object, ...], tuple[int, int]]:
    """(wdl, plies) of every state for its side to move, found forward: a side without a
    move (or without pieces) has lost now; a position with a child lost in d - 1 plies is
    won in d (d odd, the least such); one whose children are all won, the slowest in d - 1,
    is lost in d (d even); what is never reached is a draw. Children of one piece a side or
    fewer only: two pieces stay two, or a capture ends the game."""
    children: dict[tuple[object, ...], list[tuple[object, ...]]] = {}
    value: dict[tuple[object, ...], tuple[int, int]] = {}
    todo = []
    for state in states:
        k = key(state)
        moves = ref.distinct_moves(state, rules=RULES)
        if not moves:
            value[k] = (-1, 0)
            continue
        kids = []
        for move in moves:
            after = ref.apply(state, move)
            if not any(
                p is not None and p.upper() == after.turn for row in after.grid for p in row
            ):
                kids.append(("lost", after.turn))  # the side to move has no pieces: lost
                continue
            kids.append(key(after))
        children[k] = kids
        todo.append(k)
    for kid in {("lost", "W"), ("lost", "B")}:
        value[kid] = (-1, 0)
    d = 1
    quiet = 0
    while quiet < 2:
        found = {}
        for k in todo:
            if k in value:
                continue
            kids = [value.get(c) for c in children[k]]
            if d % 2 == 1 and any(v == (-1, d - 1) for v in kids):
                found[k] = (1, d)
            elif d % 2 == 0 and all(v is not None and v[0] == 1 for v in kids):
                if max(v[1] for v in kids if v is not None) == d - 1:
                    found[k] = (-1, d)
        value.update(found)
        quiet = 0 if found else quiet + 1
        d += 1
    return {k: value.get(k, (0, 0)) for k in children} | {
        k: v for k, v in value.items() if not isinstance(k[0], str)
    }


def test_every_two_piece_position_agrees_with_an_independent_solve(
    tables: egtb.EndgameTables,
) -> None:
    states = two_piece_states()
    solved = solve(states)
    # KvK 50·49, KvB and WvK 45·49, WvB 45·45 less the 40 squares both men may share; two
    # sides to move (the core's verify counts the same 4,900 + 4,410 + 4,410 + 3,970).
    assert len(states) == 2 * (50 * 49 + 2 * 45 * 49 + 45 * 45 - 40) == 17690
    counts = {1: 0, 0: 0, -1: 0}
    for state in states:
        board = shashki.Board(ref.write_fen(state), variant="international")
        probed = tables.probe(board)
        assert probed is not None
        expected = solved[key(state)]
        assert (probed.wdl, probed.plies) == expected, board.fen()
        counts[expected[0]] += 1
    # Every kind of result occurs: a king wins against a man, two kings draw.
    assert counts[1] > 1000 and counts[0] > 1000 and counts[-1] > 1000


def test_known_results_of_three_and_four_pieces(tables: egtb.EndgameTables) -> None:
    def wdl(fen: str) -> int | None:
        return tables.probe_wdl(shashki.Board(fen, variant="international"))

    # Two kings against one on the long diagonal (46–5): a draw, whoever moves.
    assert wdl("W:WK1,K2:BK46") == 0 and wdl("B:WK1,K2:BK46") == 0
    # A king takes a king in its line when the square behind is free.
    assert wdl("W:WK46,K5:BK28") == 1
    # Three kings against one: a draw when the lone king holds the long diagonal, whoever
    # moves; off it (45), White to move wins.
    assert wdl("W:WK1,K2,K3:BK46") == 0 and wdl("B:WK1,K2,K3:BK46") == 0
    assert wdl("B:WK1,K2,K3:BK45") == 0 and wdl("W:WK1,K2,K3:BK45") == 1
    # Russian draughts' tables are not asked for International positions and vice versa.
    assert tables.games == ["international"]
    assert tables.probe(shashki.Board("W:WK30,K31:BK3")) is None


def test_the_engine_probes_them(tables: egtb.EndgameTables) -> None:
    from shashki.engine import Engine, Limit

    # Two kings against a man: won in 9 plies, beyond a 2-ply search without the tables.
    board = shashki.Board("W:WK8,K7:B38", variant="international")
    probed = tables.probe(board)
    assert probed is not None and (probed.wdl, probed.plies) == (1, 9)
    scores = []
    for held in (tables, None):
        engine = Engine(hash_mb=4, tables=held)
        try:
            result = engine.play(board, Limit(depth=2))
        finally:
            engine.close()
        assert result.move in board.legal_moves
        scores.append(result.info["score"].relative)
    assert scores[0].win is not None and scores[0].win > 0
    assert scores[1].win is None


def test_the_command_line_builds_and_probes(tmp_path, capsys) -> None:
    from shashki.apps.cli import main

    assert (
        main(["egtb", "build", str(tmp_path), "--pieces", "2", "--variant", "international"]) == 0
    )
    assert "4 balances" in capsys.readouterr().out
    code = main(
        ["egtb", "probe", "W:WK1,K2:BK46", "--dir", str(tmp_path), "--variant", "international"]
    )
    out = capsys.readouterr().out
    assert code == 1 and "not in the tables" in out  # three pieces: not built
    assert (
        main(["egtb", "probe", "W:WK46:B23", "--dir", str(tmp_path), "--variant", "international"])
        == 0
    )
    out = capsys.readouterr().out
    assert "win for White" in out and "best move" in out
