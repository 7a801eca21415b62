"""``shashki.reference_tables``: a game's tables checked against the pure-Python reference's
moves — every position of few pieces, a sample of the others — and a fault in the moves
found."""

from __future__ import annotations

from pathlib import Path

import pytest
from shashki import egtb, reference_tables
from shashki.reference_tables import ReferenceGame, balance_pieces, placements


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("english")
    egtb.build(directory, pieces=3, variant="english", progress=False)
    return directory


def test_every_two_piece_position_and_a_sample_agree(english: Path) -> None:
    tables = egtb.open(english)
    seen: list[str] = []
    report = reference_tables.check(
        tables, "english", every=2, sample=40, seed=1, progress=lambda n, c: seen.append(n)
    )
    assert report.mismatches == []
    assert seen == list(report.checked) and len(seen) == len(tables.materials())
    # Every position of one piece a side, both sides to move: a king anywhere (32 squares),
    # a man off its crowning rank (28), two pieces never on one square.
    assert report.checked["english-KvK"] == 2 * 32 * 31
    assert report.checked["english-WvB"] == 2 * (28 * 28 - 24)
    assert all(report.checked[n] == 40 for n in seen if len(balance_pieces(n)) == 3)


def test_a_fault_in_the_moves_is_found(english: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A reference that forgets every move but the first values many positions otherwise.
    moves = ReferenceGame.moves
    monkeypatch.setattr(ReferenceGame, "moves", lambda self, state: moves(self, state)[:1])
    report = reference_tables.check(egtb.open(english), "english", every=2, sample=0)
    assert report.mismatches and "reference" in report.mismatches[0]


def test_the_command_line(english: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [str(english), "--variant", "english", "--every", "2", "--sample", "10"]
    assert reference_tables.main(argv) == 0
    out = capsys.readouterr().out
    assert "english: " in out and " 0 mismatches" in out


def test_placements_are_each_position_once() -> None:
    game = ReferenceGame("russian")
    states = list(placements(game, "WW"))
    assert len(states) == 2 * (32 * 31 // 2)  # two kings: a pair of squares, either side to move
    assert len({reference_tables.key(s) for s in states}) == len(states)
    assert balance_pieces("international-KWvKB") == "WwBb"
