"""``shashki hub`` in a subprocess, spoken to line by line (for the reliability tests and
the Hub fuzzer): bytes in (anything, invalid UTF-8 included), lines out, stderr kept."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Union


class HubProcess:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "shashki", "hub"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: list[str] = []  # read, not yet waited for
        self.errors: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.decode("utf-8", "replace").rstrip("\n"))

    def _read_errors(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.errors.append(line)

    def send(self, *lines: Union[str, bytes]) -> None:
        assert self.proc.stdin is not None
        for line in lines:
            data = line if isinstance(line, bytes) else line.encode("utf-8")
            self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix: str, timeout: float = 20) -> str:
        """The first line starting with ``prefix`` not yet waited for (it and the lines
        before it are consumed)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i, line in enumerate(self.lines):
                if line.startswith(prefix):
                    del self.lines[: i + 1]
                    return line
            time.sleep(0.005)
        raise AssertionError(f"no {prefix!r} within {timeout} s; got {self.lines[-5:]}")

    def rss_mb(self) -> float:
        """The process's resident memory, MB (0 once it has ended)."""
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
        except OSError:
            return 0.0
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def close(self) -> str:
        """Quit (killing it if it does not); the standard error output. Closing twice is
        harmless."""
        if self.proc.returncode is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=30)
            except (BrokenPipeError, ValueError, subprocess.TimeoutExpired):
                self.proc.kill()
            self.proc.communicate(timeout=30)  # closes the pipes
            time.sleep(0.05)  # let the reader threads take the last lines
        return b"".join(self.errors).decode("utf-8", "replace")


def pydraughts_hub_script(tmp_path: Path) -> str:
    """An executable that starts ``shashki hub`` (pydraughts' HubEngine wants a program's
    path)."""
    import stat

    script = tmp_path / "shashki-hub"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m shashki hub\n', encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def play_pydraughts_game(
    engine: object, variant: str, pd_variant: str, game: int, max_plies: int, movetime: float
) -> tuple[object, object, int]:
    """One game of pydraughts' ``HubEngine`` (``engine``, on every other ply from ``game``'s
    parity) against random moves, each move checked legal by pydraughts and replayed on a
    shashki board: ``(pydraughts board, shashki board, plies)``."""
    import random

    import draughts
    import shashki
    from draughts.engine import Limit
    from shashki.protocols import hub

    pd_board = draughts.Board(variant=pd_variant)
    board = shashki.Board(variant=variant)
    rng = random.Random(game)
    plies = 0
    while plies < max_plies and not pd_board.is_over() and board.legal_moves:
        if (plies + game) % 2 == 0:
            result = engine.play(pd_board, Limit(movetime=movetime), ponder=False)  # type: ignore[attr-defined]
            text = result.move.hub_move
        else:
            text = rng.choice(pd_board.legal_moves()).hub_move
        assert text in {m.hub_move for m in pd_board.legal_moves()}
        board.push(hub.move_from_hub(board, text))
        pd_board.push(draughts.Move(pd_board, hub_move=text))
        plies += 1
    return pd_board, board, plies


def run_hub(lines: list[str], timeout: float = 60) -> list[str]:
    """``shashki hub`` fed ``lines`` on stdin to the end: its output lines."""
    import os

    proc = subprocess.run(
        [sys.executable, "-m", "shashki", "hub"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()
