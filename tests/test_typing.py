"""Type checking: ``mypy --strict`` accepts a program using every README example (square
constants are ints, lazily loaded names are visible, the stubs are complete) and the whole
package; the program also runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
EXAMPLES = Path(__file__).parent / "typing" / "readme_examples.py"


def mypy(*targets: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *map(str, targets)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )


def test_readme_examples_pass_mypy_strict_and_run() -> None:
    proc = mypy(EXAMPLES)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run = subprocess.run([sys.executable, str(EXAMPLES)], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


def test_the_package_passes_mypy_strict() -> None:
    proc = mypy(ROOT / "python" / "shashki")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_core_stub_matches_the_built_module() -> None:
    """``mypy.stubtest``: every name, signature and default of ``_core.pyi`` against the
    compiled ``shashki._core`` (PEP 800's disjoint bases aside)."""
    proc = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--ignore-disjoint-bases", "shashki._core"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
