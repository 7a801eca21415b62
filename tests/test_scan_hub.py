"""benches/scan_hub.py, the Hub adaptor over Scan 2.0's first Hub mode, against a stand-in
for Scan: a small program that speaks that mode (``hub``, ``init``, ``pos``, ``move``,
``time``, ``depth``, ``go``) as Scan 2.0's source describes it, plays the first legal move and
writes down every line it was sent. Scan itself is not needed (nor in this repository)."""

from __future__ import annotations

import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from shashki.apps import match

ADAPTOR = Path(__file__).resolve().parent.parent / "benches" / "scan_hub.py"

STAND_IN = textwrap.dedent(
    """\
    import sys
    from shashki.protocols import hub_text

    log = open("sent.log", "a", encoding="utf-8")
    print("Scan 2.0 by Fabien Letouzey", flush=True)
    board = None
    for line in sys.stdin:
        log.write(line)
        log.flush()
        words = line.split()
        if not words:
            continue
        if words[0] == "hub":
            print("name Stand-in\\nauthor Nobody\\ncountry Nowhere\\nwait", flush=True)
        elif words[0] == "init":
            print("init eval\\nready", flush=True)
        elif words[0] == "pos":
            # Scan 2.0's side letter is lower case; ours is upper case.
            text = words[1][0].upper() + words[1][1:]
            board = hub_text.board_from_hub(text, "international")
        elif words[0] == "move":
            board.push(hub_text.move_from_hub(board, words[1]))
        elif words[0] == "go":
            moves = list(board.legal_moves)
            print("info 0 0.0 0 0 0.00 0.0", flush=True)
            print("move " + hub_text.move_to_hub(moves[0]), flush=True)
        elif words[0] == "quit":
            break
    """
)


def test_the_adaptor_plays_a_match_and_sends_the_fixed_time(tmp_path: Path) -> None:
    (tmp_path / "scan").write_text(f"#!{sys.executable}\n{STAND_IN}", encoding="utf-8")
    (tmp_path / "scan").chmod(0o755)
    player = f"hub:{sys.executable} {ADAPTOR} {tmp_path / 'scan'}"
    openings = match.load_openings("random", seed=4, variant="international")[:1]
    with ThreadPoolExecutor(1) as pool:
        results = match.run_match(
            "shashki:hash=4",
            player,
            openings,
            match.TimeControl(time=0.02),
            executor=pool,
            variant="international",
        )
    assert results.count == 1 and results.wins + results.draws + results.losses == 2
    sent = (tmp_path / "sent.log").read_text(encoding="utf-8").splitlines()
    assert sent[:2] == ["hub", "init"]
    positions = [line for line in sent if line.startswith("pos ")]
    assert positions and all(line.split()[1][0] in "wb" for line in positions)
    assert all(len(line.split()[1]) == 51 for line in positions)
    # Every search is asked for a fixed 20 ms, sent after the position and its moves.
    for i, line in enumerate(sent):
        if line == "go":
            assert sent[i - 1] == "time 20"
    assert sent.count("go") >= 10
