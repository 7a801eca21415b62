"""The one progress display of the long commands (perft, egtb build, review, training data,
split perft): on a terminal one line redrawn in place (a bar, the count, the time so far and
left, what is being done), at most ten times a second; where stderr is not a terminal (a log,
a pipe, CI) plain lines, at most one every ``every`` seconds and a last one at the end, so
that a log holds a few lines, not thousands of ``\\r`` redraws.

tqdm does the first well, but on a stream that is not a terminal it either draws the same
``\\r`` updates into the log or, with ``disable=None``, shows nothing at all; the logs of
hours-long table builds and training runs want the plain lines. What every command needs is
these few lines, so they are written here once rather than taken as a dependency.
"""

from __future__ import annotations

import sys
import time

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from typing import Optional, TextIO


def _seconds(value: float) -> str:
    value = max(0.0, value)
    if value < 60:
        return f"{value:.0f} s"
    if value < 3600:
        return f"{value // 60:.0f} min {value % 60:02.0f} s"
    return f"{value // 3600:.0f} h {value % 3600 // 60:02.0f} min"


class Progress:
    """``done`` of ``total`` ``unit``, shown on ``stream`` (stderr) as it goes::

        progress = Progress(total, "balances")
        progress.update(3, detail="KKvK, distance 5")
        progress.close("42 balances in 3.1 s")

    ``enabled=False`` shows nothing (a caller's ``progress=False``). ``interactive`` is
    whether the stream is a terminal (None: ask it). ``already``: the count done before this
    run (a resumed build), left out of its speed."""

    def __init__(
        self,
        total: int,
        unit: str,
        *,
        stream: Optional[TextIO] = None,
        enabled: bool = True,
        interactive: Optional[bool] = None,
        every: float = 10.0,
        clock: object = time.monotonic,
        already: int = 0,
    ) -> None:
        self.total = max(int(total), 0)
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled
        if interactive is None:
            isatty = getattr(self.stream, "isatty", None)
            interactive = bool(isatty and isatty())
        self.interactive = interactive
        self.every = every
        self._clock = clock
        self.started = self._now()
        self.already = already  # done before this run: the time left is from this run's speed
        self.done = already
        self.detail = ""
        self._shown_at: Optional[float] = None
        self._width = 0

    def _now(self) -> float:
        return float(self._clock())  # type: ignore[operator]

    def line(self) -> str:
        """What is shown now: the bar (on a terminal), the count, the time so far and left,
        the detail."""
        elapsed = self._now() - self.started
        text = f"{self.done}/{self.total} {self.unit}, {_seconds(elapsed)}"
        ran = self.done - self.already
        if ran > 0 and self.done < self.total and elapsed > 0.5:
            text += f", {_seconds(elapsed / ran * (self.total - self.done))} left"
        if self.detail:
            text += f" ({self.detail})"
        if self.interactive:
            filled = int(20 * self.done / self.total) if self.total else 20
            text = f"[{'#' * filled:<20}] {text}"
        return text

    def update(self, done: int, *, detail: Optional[str] = None, force: bool = False) -> None:
        """Set the count (and what is being done); shown when it is time to."""
        self.done = min(max(int(done), 0), self.total) if self.total else int(done)
        if detail is not None:
            self.detail = detail
        if not self.enabled:
            return
        now = self._now()
        wait = 0.1 if self.interactive else self.every
        if not force and self._shown_at is not None and now - self._shown_at < wait:
            return
        self._shown_at = now
        self._write(self.line())

    def _write(self, text: str) -> None:
        if self.interactive:
            pad = " " * max(0, self._width - len(text))
            self.stream.write(f"\r{text}{pad}")
            self._width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def close(self, summary: Optional[str] = None) -> None:
        """End the display: the summary (or the last count) on a line of its own."""
        if not self.enabled:
            return
        text = summary if summary is not None else self.line()
        if self.interactive:
            pad = " " * max(0, self._width - len(text))
            self.stream.write(f"\r{text}{pad}\n")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self._width = 0
