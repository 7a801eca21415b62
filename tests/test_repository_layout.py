"""The repository's root holds only what the layout names (docs/development.md, "Layout"):
a stray file there (a game a command wrote, a scratch script) fails here, and so does a name
the layout keeps that has gone."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[1]

#: The root's tracked entries, each with what it is (the development page lists the same).
LAYOUT = {
    ".cargo": "the build flags of every checkout (x86-64-v2: hardware popcount)",
    ".ci": "what CI runs on a clean checkout",
    ".gitignore": "what git leaves out",
    "CHANGELOG.md": "each release's changes",
    "Cargo.lock": "the Rust dependencies' exact versions",
    "Cargo.toml": "the Rust crate",
    "README.md": "what it is, the two commands, the tour",
    "benches": "speed and strength measurements, never tests",
    "data": "data compiled in: networks, weights",
    "docs": "the Sphinx pages",
    "examples": "runnable Rust and Python examples",
    "pyproject.toml": "the Python package (maturin)",
    "python": "the Python package's source",
    "src": "the Rust core",
    "tests": "the Rust and Python tests",
}


def _tracked_root_entries() -> set[str]:
    """The first path component of every file git tracks (a checkout without git: every
    entry at the root that .gitignore does not leave out)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout.decode()
        names = {path.split("/", 1)[0] for path in listed.split("\0") if path}
        if names:
            return names
    except (OSError, subprocess.CalledProcessError):
        pass
    ignored = {".git", "target", "build", "dist", ".hypothesis", ".pytest_cache", ".ruff_cache"}
    return {
        p.name
        for p in ROOT.iterdir()
        if p.name not in ignored
        and not p.name.startswith(".venv")
        and p.name != "__pycache__"
        and not p.name.endswith((".so", ".pyc"))
    }


def test_the_root_holds_only_what_the_layout_names() -> None:
    stray = _tracked_root_entries() - set(LAYOUT)
    assert not stray, f"not in the layout (docs/development.md): {sorted(stray)}"


def test_every_entry_the_layout_names_is_there() -> None:
    missing = {name for name in LAYOUT if not (ROOT / name).exists()}
    assert not missing, sorted(missing)


def test_the_development_page_lists_the_same_entries() -> None:
    page = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    unlisted = {name for name in LAYOUT if f"`{name}`" not in page}
    assert not unlisted, f"docs/development.md's layout does not name {sorted(unlisted)}"
