"""The README's Python examples run as doctests."""

from __future__ import annotations

import doctest
from pathlib import Path

import shashki

README = Path(__file__).parent.parent / "README.md"
PAGES = sorted((Path(__file__).parent.parent / "docs").glob("*.md"))


def test_readme_examples() -> None:
    result = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.attempted >= 10
    assert result.failed == 0


def test_markdown_pages_examples() -> None:
    """The docs' Markdown pages (the reStructuredText ones run under Sphinx's doctest)."""
    assert len(PAGES) >= 8
    attempted = 0
    for page in PAGES:
        result = doctest.testfile(
            str(page), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
        )
        assert result.failed == 0, page.name
        attempted += result.attempted
    assert attempted >= 20


def test_package_docstring_examples() -> None:
    result = doctest.testmod(shashki, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 4
    assert result.failed == 0
