"""Moved to :mod:`shashki.apps.match` (this path and its modules work, with a
DeprecationWarning, until the next release; ``python -m shashki.match`` stays the match
runner's command)."""

import sys

if "shashki.match.__main__" in sys.modules or sys.argv[:1] == ["-m"]:
    # ``python -m shashki.match``: the command, not an old import path; no warning.
    import importlib

    sys.modules[__name__] = importlib.import_module("shashki.apps.match")
else:
    from shashki._moved import moved

    moved(__name__, "shashki.apps.match", package=True)
