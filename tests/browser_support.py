"""What the pages' browser tests beyond the draughts board share (the star's, Чапаев's):
the mark that needs Chromium and its driver (a failure instead of a skip under
``SHASHKI_REQUIRE_BROWSER=1``, as CI sets), the same headless Chromium as
``test_web_browser``'s, and a wait."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
needs_browser = pytest.mark.skipif(
    not (CHROMIUM and DRIVER) and os.environ.get("SHASHKI_REQUIRE_BROWSER") != "1",
    reason="chromium and chromedriver are not installed",
)


def headless_chromium() -> Iterator[object]:
    """test_web_browser's driver (importing it checks Chromium is there)."""
    from test_web_browser import browser as make

    generator = make.__wrapped__()
    driver = next(generator)
    yield driver
    generator.close()


def wait(condition: Callable[[], object], timeout: float = 30.0, what: str = "the page") -> object:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
