"""Shared test helpers: the published perft table and hypothesis profiles."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
import shashki
from hub_process import HubProcess
from hypothesis import HealthCheck, settings

DATA = Path(__file__).parent / "data"

# ``ci`` (the default, what the README's test command runs): the same examples every run,
# so a green run does not depend on luck. ``explore``: as many, drawn afresh each run (and
# kept in .hypothesis/ when one fails). ``long``: the long fuzzing runs of the development
# page, drawn afresh.
settings.register_profile(
    "ci",
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "explore",
    max_examples=300,
    deadline=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long", max_examples=20000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@dataclass(frozen=True)
class PerftLine:
    id: str
    fen: str
    distinct: bool
    depth: int
    nodes: int
    variant: str = "russian"
    captures_optional: bool = False

    def board(self) -> shashki.Board:
        return shashki.Board(
            self.fen, variant=self.variant, captures_optional=self.captures_optional
        )


def perft_lines(name: str = "perft.txt") -> list[PerftLine]:
    """Every line of tests/data/perft.txt (copied from the published reference figures), or
    of another file of that format (variants_perft.txt adds variant lines)."""
    lines: list[PerftLine] = []
    ident = fen = ""
    variant, optional = "russian", False
    for raw in (DATA / name).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "id":
            ident = rest.strip()
            variant, optional = "russian", False
        elif key == "fen":
            fen = rest.strip()
        elif key == "variant":
            variant = rest.strip()
        elif key == "captures_optional":
            optional = rest.strip() == "true"
        elif key in ("A", "B"):
            depth, nodes = rest.split()
            lines.append(
                PerftLine(ident, fen, key == "A", int(depth), int(nodes), variant, optional)
            )
        else:
            raise ValueError(f"unknown line {line!r}")
    return lines


@pytest.fixture
def hub_process():
    hub = HubProcess()
    hub.send("hub", "init")
    hub.wait_for("ready")
    yield hub
    hub.close()
