"""Old import paths kept for one release: a module that moved leaves a stub at its old path
that warns and hands over the new module itself (so ``shashki.hub is
shashki.protocols.hub``, private names included); a package that moved also hands over its
submodules (``shashki.web.app is shashki.apps.web.app``), so no module is loaded twice."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Optional

_PACKAGES: dict[str, str] = {}
"""Moved packages: old name → new name (their submodules follow)."""


class _SubmoduleAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``old.sub`` of a moved package as the module ``new.sub``."""

    def find_spec(
        self,
        fullname: str,
        path: Optional[Sequence[str]],
        target: Optional[ModuleType] = None,
    ) -> Optional[importlib.machinery.ModuleSpec]:
        for old in _PACKAGES:
            if fullname.startswith(old + "."):
                return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        for old, new in _PACKAGES.items():
            if spec.name.startswith(old + "."):
                return importlib.import_module(new + spec.name[len(old) :])
        raise ImportError(spec.name)  # pragma: no cover (find_spec said it was ours)

    def exec_module(self, module: ModuleType) -> None:
        pass  # the new module has run already


def moved(old: str, new: str, *, package: bool = False) -> None:
    """Make the module ``old`` an alias of ``new``, with a DeprecationWarning (for a
    package, its submodules too)."""
    warnings.warn(
        f"{old} has moved to {new}; the old path works until the next release",
        DeprecationWarning,
        stacklevel=4,
    )
    if package:
        if not _PACKAGES:
            sys.meta_path.insert(0, _SubmoduleAlias())
        _PACKAGES[old] = new
    sys.modules[old] = importlib.import_module(new)
