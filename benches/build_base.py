"""Build the package at a git revision into a venv, for matches against it: prints the
match runner's Hub player spec.

    python benches/build_base.py REV DIR
    python -m shashki.match --a shashki --b "$(python benches/build_base.py 4a99b14 /tmp/base)" ...
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def build_base(revision: str, directory: str) -> str:
    """Build the package at a git revision into a venv at ``directory``; its Hub spec."""
    root = Path(__file__).resolve().parents[1]
    target = Path(directory).resolve()
    source = target / "source"
    subprocess.run(
        ["git", "-C", str(root), "worktree", "add", "-f", str(source), revision], check=True
    )
    subprocess.run([sys.executable, "-m", "venv", str(target)], check=True)
    python = target / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(source)], check=True)
    return f"hub:{python} -m shashki hub"


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit("usage: python benches/build_base.py REV DIR")
    print(build_base(sys.argv[1], sys.argv[2]))
