"""How the commands end when their output cannot be written: a reader that went away
(``shashki perft 10 | head -c 5``) stops the command quietly, as Unix tools stop; a full
disk or another write error is one line on stderr and a non-zero status, never a
traceback. Imported by the commands only (not by ``import shashki``)."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable

OUTPUT_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE, errno.EBADF}
)
"""The errors of a write that failed (a full disk, a quota, a device): any other OSError
that reaches here (a refused connection to an engine, …) is the command's own, said as it
is, not as an output error."""

BROKEN_PIPE_STATUS = 1
"""The status after the reader went away (Python's documented handling; a shell's own
SIGPIPE status would be 141)."""


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush at exit finds
    nothing left to fail on (Python's documented way after a broken pipe)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def guarded(prog: str, run: Callable[[], int]) -> int:
    """Run a command's ``run()`` and flush its output; a closed reader ends it quietly, a
    failed write (a full disk) with one line of error. Returns the exit status."""
    try:
        status = run()
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE_STATUS
    except OSError as error:
        if error.filename is not None or error.errno is None:
            raise  # a file the command was given: its own handling, not the output's
        reason = error.strerror or str(error)
        if error.errno not in OUTPUT_ERRNOS:
            print(f"{prog}: error: {reason}", file=sys.stderr)
            return 1
        _silence_stdout()
        try:
            print(f"{prog}: error: cannot write the output: {reason}", file=sys.stderr)
        except OSError:
            pass
        return 1
