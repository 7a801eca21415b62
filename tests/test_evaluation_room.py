"""The evaluation's room (src/eval/, docs/development.md): no evaluation left in the search,
no circle among the room's files, the search reaching it only through its evaluator, each
game's evaluation named on its card (docs/search.md's table is made from the cards), and
``shashki bench --variant`` for every game with a search."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import shashki
from shashki.apps.bench import BENCH

ROOT = Path(__file__).parents[1]
ROOM = ROOT / "src" / "eval"
SEARCH = ROOT / "src" / "search"
DOCS = ROOT / "docs" / "search.md"

BEGIN = "<!-- the evaluations table: made from the cards (tests/test_evaluation_room.py) -->"
END = "<!-- end of the evaluations table -->"


def _without_tests(text: str) -> str:
    """A Rust file's code before its test module, without its comments."""
    return re.sub(r"//[^\n]*", "", text.split("#[cfg(test)]", 1)[0])


def _room_graph() -> dict[str, set[str]]:
    """Which of the room's files each file uses (``super::name`` or ``crate::eval::name``),
    its test module left out; ``mod.rs`` only declares and re-exports."""
    files = {path.stem for path in ROOM.glob("*.rs")} - {"mod"}
    graph: dict[str, set[str]] = {}
    for name in files:
        code = _without_tests((ROOM / f"{name}.rs").read_text(encoding="utf-8"))
        used = set(re.findall(r"\bsuper::(\w+)", code))
        used |= set(re.findall(r"\bcrate::eval::(\w+)", code))
        # `use super::{a, b}` names several.
        for group in re.findall(r"\bsuper::\{([^}]*)\}", code):
            used |= {part.strip().split("::")[0] for part in group.split(",")}
        graph[name] = (used & files) - {name}
    return graph


def test_the_room_s_files_import_each_other_without_a_circle() -> None:
    graph = _room_graph()
    assert {"evaluator", "network", "family", "learned", "classic"} <= set(graph)
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        if state.get(node) == 1:
            raise AssertionError("a circle: " + " -> ".join(path + [node]))
        if state.get(node) == 2:
            return
        state[node] = 1
        for nxt in sorted(graph[node]):
            visit(nxt, path + [node])
        state[node] = 2

    for node in sorted(graph):
        visit(node, [])
    # Only the evaluator reads the evaluations it chooses among.
    readers = {name for name, used in graph.items() if {"classic", "learned"} & used}
    assert readers == {"evaluator"}


def test_a_circle_would_be_found() -> None:
    """The graph reads `use super::{…}` groups and paths alike (the check is not blind)."""
    graph = _room_graph()
    assert "network" in graph["evaluator"] and "endings" in graph["evaluator"]
    assert "family_weights" in graph["family"]
    assert "family" not in graph["family_weights"]


def test_no_evaluation_is_left_in_the_search() -> None:
    names = {path.stem for path in SEARCH.glob("*.rs")}
    assert not names & {"eval", "network", "learned", "family", "family_weights"}
    for path in SEARCH.glob("*.rs"):
        code = path.read_text(encoding="utf-8")
        assert not re.search(r"\bfn evaluate", code), path.name
        # The search reaches the room only through its evaluator and the user's choice.
        reached = set(re.findall(r"\bcrate::eval::(\w+)", code))
        for group in re.findall(r"\bcrate::eval::\{([^}]*)\}", code):
            reached |= {part.strip() for part in group.split(",")}
        assert reached <= {"Evaluator", "Evaluation"}, (path.name, reached)


def _table() -> str:
    rows = ["| game | its evaluation | the match that chose it |", "|---|---|---|"]
    for card in shashki.games() + shashki.games(columns=True):
        rows.append(f"| {card.name} | {card.evaluation} | {card.evaluation_match} |")
    return "\n".join(rows)


def test_the_search_page_s_table_is_the_cards() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    table = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert table == _table(), "docs/search.md's table differs from the cards:\n" + _table()


def test_every_card_names_an_evaluation_and_its_match() -> None:
    kinds = {"russian", "family", "network", "giveaway", "corners", "columns"}
    for card in shashki.games() + shashki.games(columns=True):
        assert card.evaluation in kinds, card.name
        assert len(card.evaluation_match) > 20, card.name
    assert shashki.game_info("international").evaluation == "network"
    assert shashki.game_info("russian").evaluation == "russian"
    assert shashki.game_info("towers").evaluation == "columns"


def test_every_game_with_a_search_has_its_bench() -> None:
    names = [card.name for card in shashki.games() + shashki.games(columns=True)]
    assert list(BENCH) == names
    for name, (depth, fens) in BENCH.items():
        card = shashki.game_info(name)
        assert 6 <= depth <= 20 and len(fens) == (6 if name == "russian" else 5), name
        for fen in fens:
            board = (
                shashki.ColumnBoard(fen, variant=name)
                if card.stacks
                else shashki.Board(fen, variant=name)
            )
            assert list(board.legal_moves), (name, fen)
        start = shashki.ColumnBoard(variant=name) if card.stacks else shashki.Board(variant=name)
        assert fens[0] == start.fen(), name


@pytest.mark.parametrize("variant", ["killer", "Lasca"])
def test_the_bench_command_runs_a_game_s_positions(variant: str) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "shashki", "bench", "--variant", variant],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    name = variant.lower()
    assert len(out) == len(BENCH[name][1]) + 1
    nodes = [int(line.split()[0]) for line in out[:-1]]
    total = re.match(
        r"total (\d+) nodes in [\d.]+ s: (\d+) nodes/s \((\S+), depth (\d+)\)", out[-1]
    )
    assert total is not None, out[-1]
    assert int(total.group(1)) == sum(nodes) and all(n > 0 for n in nodes)
    assert total.group(3) == name and int(total.group(4)) == BENCH[name][0]


def test_the_bench_refuses_a_game_it_does_not_know() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "shashki", "bench", "--variant", "chess"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and "chess" in run.stderr
