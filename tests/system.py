"""Helpers of the tests that watch the system: free memory, a process's resident size, a
table too large to allocate, and a Python process interrupted with Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SEED_FEN = "B:W6,7,8,16:BK10"  # the black king on d6 has d6:b8 and d6:f8:h6:f4:b8


def available_mb() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no MemAvailable in /proc/meminfo")


def rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def too_large_mb() -> int:
    """A table size (MiB, allowed by the API) that cannot fit in this machine's free memory."""
    free = available_mb()
    if free >= 65536:
        pytest.skip("this machine has 64 GB free: every allowed table fits")
    return 65536


def interruptible() -> None:
    """Ctrl-C back to its default in a child process (``preexec_fn=``): a test run started
    in the background (``cmd &``, ``nohup``) passes SIGINT on ignored, and Python then never
    raises KeyboardInterrupt. Every test that sends a child SIGINT starts it with this, so
    the suite's result does not depend on how it was started."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted(code: str, wait_for: str = "started", delay: float = 0.5) -> tuple[str, float]:
    """Run ``code`` in a fresh interpreter, SIGINT it after it prints ``wait_for``; its output
    and the seconds from the signal to its exit."""
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=interruptible,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert wait_for in first, first
    time.sleep(delay)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    return first + out, time.monotonic() - sent
