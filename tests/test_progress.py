"""The long commands' one progress display (``shashki._progress``): redrawn in place on a
terminal, plain lines now and then in a log."""

from __future__ import annotations

import io
import subprocess
import sys

from shashki._progress import Progress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_log_gets_a_few_plain_lines_not_every_update() -> None:
    out, clock = io.StringIO(), Clock()
    progress = Progress(1000, "games", stream=out, interactive=False, every=10, clock=clock)
    for done in range(1, 1001):
        clock.now = done * 0.1  # 100 s in all
        progress.update(done, detail=f"{done * 50} positions")
    progress.close()
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue()
    assert 9 <= len(lines) <= 12  # one every 10 s, and the last
    assert lines[0].startswith("1/1000 games, 0 s (50 positions)")
    assert lines[-1] == "1000/1000 games, 1 min 40 s (50000 positions)"
    assert any("left" in line for line in lines[1:-1])


def test_a_terminal_gets_one_line_redrawn() -> None:
    out, clock = io.StringIO(), Clock()
    progress = Progress(4, "balances", stream=out, interactive=True, clock=clock)
    for done in range(1, 5):
        clock.now = done * 1.0
        progress.update(done)
    progress.close("4 balances in 4.0 s")
    text = out.getvalue()
    assert text.count("\n") == 1 and text.count("\r") == 5  # four redraws and the summary
    assert "\r[##########          ] 2/4 balances, 2 s, 2 s left" in text
    assert text.rstrip().endswith("\r4 balances in 4.0 s")


def test_the_time_left_is_this_runs_speed_and_disabled_shows_nothing() -> None:
    out, clock = io.StringIO(), Clock()
    resumed = Progress(100, "parts", stream=out, interactive=False, clock=clock, already=50)
    clock.now = 10.0
    resumed.update(60, force=True)  # 10 parts in 10 s, 40 to go
    assert out.getvalue().strip() == "60/100 parts, 10 s, 40 s left"
    quiet = io.StringIO()
    off = Progress(10, "x", stream=quiet, enabled=False)
    off.update(5)
    off.close()
    assert quiet.getvalue() == ""


def test_a_piped_table_build_logs_plain_lines(tmp_path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "shashki", "egtb", "build", str(tmp_path), "--pieces", "3"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "\r" not in run.stderr  # stderr is a pipe here: no redraws
    needs, *lines = run.stderr.splitlines()  # first what the build needs, then its progress
    assert needs.startswith("russian, up to 3 pieces: 9 balances, 216,000 slots;")
    assert 1 <= len(lines) <= 10 and lines[-1].endswith("s") and "balances in" in lines[-1]
