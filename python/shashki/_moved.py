"""Old import paths kept for one release: a module that moved leaves a stub at its old path
that warns and hands over the new module itself (so ``shashki.hub is
shashki.protocols.hub``, private names included)."""

from __future__ import annotations


def moved(old: str, new: str) -> None:
    """Make the module ``old`` an alias of ``new``, with a DeprecationWarning."""
    import importlib
    import sys
    import warnings

    warnings.warn(
        f"{old} has moved to {new}; the old path works until the next release",
        DeprecationWarning,
        stacklevel=4,
    )
    sys.modules[old] = importlib.import_module(new)
