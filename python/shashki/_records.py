"""What the star's and Чапаев's texts share: a position as ``KEY=VALUE`` fields, and a
record in PDN's shape, ``[Tag "value"]`` lines, then the moves (internal: ``shashki.star``
and ``shashki.chapaev`` read theirs with it)."""

from __future__ import annotations

import re

_TAG = re.compile(r'^\[(\w+)\s+"([^"]*)"\]$')


def split_record(text: str, error: type[ValueError]) -> tuple[dict[str, str], list[str]]:
    """A record's tags and the words of its moves; a tag line that cannot be read is
    ``error`` naming its line."""
    tags: dict[str, str] = {}
    words: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("["):
            found = _TAG.match(line)
            if found is None:
                raise error(f"line {number}: {line!r} is not a tag")
            tags[found.group(1)] = found.group(2)
        else:
            words.extend(line.split())
    return tags, words


def split_fields(text: str, error: type[ValueError]) -> dict[str, str]:
    """A position text's ``KEY=VALUE`` fields; a word that is not one, or a key given
    twice, is ``error`` naming it."""
    fields: dict[str, str] = {}
    for word in text.split():
        key, sep, value = word.partition("=")
        if not sep or key in fields:
            raise error(f"{word!r}: a field is KEY=VALUE, each key once")
        fields[key] = value
    return fields
