"""Sphinx configuration: the API reference is built from the docstrings (autodoc), and the
examples in the pages run as doctests (``sphinx-build -b doctest``). Built in CI with
warnings as errors."""

from __future__ import annotations

import shashki

project = "shashki"
author = "shashki developers"
release = version = shashki.__version__
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.napoleon",
    "myst_parser",  # the Markdown pages (their examples run in tests/test_readme.py)
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_heading_anchors = 3
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_type_aliases = {"InfoDict": "shashki.engine.InfoDict"}
nitpicky = False
html_theme = "alabaster"
html_static_path: list[str] = []
exclude_patterns = ["_build"]
doctest_global_setup = "import io, shashki"
suppress_warnings = ["config.cache"]
