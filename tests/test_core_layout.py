"""The Rust core's map (docs/development.md, "The map of the core"): ``src/`` laid out by
concept, one folder or file each, listed in ``src/lib.rs``'s map from the bottom up; each
imports only what is listed before it, no two files import each other in a circle, and a
position's rules reach their code through one dispatch.

The imports are read from the source: ``use crate::…`` / ``use super::…`` trees and paths
written inline (``crate::a::b::item``), a folder's re-exports (``pub use child::Item`` in its
``mod.rs``) followed to the file that defines the item; unit tests (``#[cfg(test)] mod
tests``) and comments do not count."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return "::".join(parts)


def _code(path: Path) -> str:
    text = re.sub(r"//[^\n]*", "", path.read_text(encoding="utf-8"))
    test_module = re.search(r"#\[cfg\(test\)\]\s*mod tests\b", text)
    return text[: test_module.start()] if test_module else text


def _use_paths(tree: str, prefix: list[str]) -> list[list[str]]:
    """The paths of a `use` tree (`a::{b, c::{d, e as f}}`)."""
    tree = tree.strip()
    if tree.startswith("{"):
        items, depth, current = [], 0, ""
        for ch in tree[1:-1]:
            depth += ch == "{"
            depth -= ch == "}"
            if ch == "," and depth == 0:
                items.append(current)
                current = ""
            else:
                current += ch
        items.append(current)
        return [p for item in items if item.strip() for p in _use_paths(item, prefix)]
    if "::" in tree:
        head, rest = tree.split("::", 1)
        return _use_paths(rest, [*prefix, head.strip()])
    return [[*prefix, tree.split(" as ")[0].strip()]]


FILES = {_module_name(p): p for p in SRC.rglob("*.rs")}
CODE = {name: _code(path) for name, path in FILES.items()}


def _reexports() -> dict[str, str]:
    """`folder::Item` → the module that defines it, for a folder's `pub use child::…`."""
    out: dict[str, str] = {}
    for name, path in FILES.items():
        if path.name != "mod.rs":
            continue
        for match in re.finditer(r"\bpub(?:\(crate\))?\s+use\s+([a-z_]+)::([^;]+);", CODE[name]):
            child = f"{name}::{match.group(1)}"
            if child not in FILES:
                continue
            for path_ in _use_paths(match.group(2), []):
                out[f"{name}::{path_[-1]}"] = child
    return out


REEXPORTS = _reexports()


def _resolve(path: list[str]) -> str | None:
    for n in range(len(path), 0, -1):
        candidate = "::".join(path[:n])
        if n < len(path) and f"{candidate}::{path[n]}" in REEXPORTS:
            return REEXPORTS[f"{candidate}::{path[n]}"]
        if candidate in FILES:
            return candidate
    return None


def _imports(name: str) -> set[str]:
    code = CODE[name]
    here = name.split("::")
    parent = here[:-1]
    found: set[str] = set()
    for match in re.finditer(r"\buse\s+(crate|super|self)::([^;]+);", code, re.S):
        base = {"crate": [], "super": parent, "self": here}[match.group(1)]
        for path in _use_paths(match.group(2), base):
            found.add(_resolve(path) or "")
    # A folder's own files, named without a prefix (`use worker::Worker;` in search/mod.rs).
    for match in re.finditer(r"\buse\s+([a-z_]+)::([^;]+);", code, re.S):
        if f"{name}::{match.group(1)}" in FILES:
            for path in _use_paths(match.group(2), [*here, match.group(1)]):
                found.add(_resolve(path) or "")
    inline = re.sub(r"\buse\s+[^;]+;", "", code)  # the paths written in the code itself
    for match in re.finditer(r"\bcrate::([a-z_]+(?:::[A-Za-z_]+)*)", inline):
        found.add(_resolve(match.group(1).split("::")) or "")
    found.discard("")  # outside the crate, or the crate root (lib.rs), which only re-exports
    found.discard(name)
    return found


GRAPH = {name: _imports(name) for name in FILES if name}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _top(name: str) -> str:
    return name.split("::")[0]


def _declared_order() -> list[str]:
    """The map in src/lib.rs's documentation: `//! 3. `geometry`: …`, bottom up."""
    lib = (SRC / "lib.rs").read_text(encoding="utf-8")
    return re.findall(r"^//! \d+\. `([a-z_]+)`", lib, re.M)


def test_the_reader_sees_the_imports_it_checks() -> None:
    # The checks below are only as good as the reader: a few known arrows.
    assert "position::state" in GRAPH["rules::dispatch"]
    assert "rules::kinds" in GRAPH["movegen::diagonal"]
    assert "geometry::square" in GRAPH["geometry::bitboard"]
    assert "games" in GRAPH["position::state"]
    assert len(GRAPH) > 40


def test_no_two_files_of_the_core_import_each_other_in_a_circle() -> None:
    assert _circles(GRAPH) == []


def test_no_two_concepts_import_each_other_in_a_circle() -> None:
    folders: dict[str, set[str]] = {}
    for name, deps in GRAPH.items():
        folders.setdefault(_top(name), set()).update(_top(d) for d in deps if _top(d) != _top(name))
    assert _circles(folders) == []


def test_each_concept_imports_only_those_declared_before_it() -> None:
    order = _declared_order()
    assert sorted(order) == sorted({_top(n) for n in GRAPH}), "the map names every concept once"
    upward = sorted(
        (name, dep)
        for name, deps in GRAPH.items()
        for dep in deps
        if order.index(_top(dep)) > order.index(_top(name))
    )
    assert upward == []


def test_one_dispatch_from_a_rules_code_to_its_rules_type() -> None:
    # The match from a kind of move rules to its type is written once per word, in one file.
    dispatching = sorted(n for n, code in CODE.items() if re.search(r"fn dispatch<", code))
    assert dispatching == ["rules::dispatch", "rules::kinds"]  # the trait and its two impls
    assert len(re.findall(r"fn dispatch<", CODE["rules::dispatch"])) == 2
    for name, code in CODE.items():
        assert "macro_rules! with_rules" not in code, name
        assert "ORTHOGONAL_" not in code, name  # generators are chosen by type (Rules::Moves)


@pytest.mark.parametrize("name", sorted(n for n in GRAPH if n.startswith("movegen")))
def test_the_generators_do_not_import_the_dispatch(name: str) -> None:
    assert "rules::dispatch" not in GRAPH[name]
    assert "::dispatch(" not in CODE[name]
