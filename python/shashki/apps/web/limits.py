"""The threat model's numbers, in one place: request sizes, search caps, timeouts and
connection limits (the package's docstring says what each answers)."""

from __future__ import annotations

MAX_BODY = 1_000_000


MAX_TIME = 30.0


MAX_DEPTH = 40


MAX_MOVES = 600


MAX_REVIEW_PLIES = 400


MAX_REVIEW_TIME = 2.0


MAX_SEARCHES = 2


MAX_ENGINE_MB = 64


MAX_MULTIPV = 5


HEADER_TIMEOUT = 10.0


BODY_TIMEOUT = 10.0


MAX_CONNECTIONS = 64


LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
REPLACE_WAIT = 2.0
"""Seconds a page's new search waits for its running one to stop (it is stopped at once)."""
MAX_CLOCK = 3 * 3600.0
"""The longest clock a page may give the engine (seconds)."""
