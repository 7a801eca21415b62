"""PDN: reading and writing Russian draughts games (GameType 25).

>>> import io, shashki.pdn
>>> text = '[GameType "25"]\\n\\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 {a comment} 1-0\\n'
>>> game = shashki.pdn.read_game(io.StringIO(text))
>>> [str(m) for m in game.mainline_moves()]
['c3-d4', 'f6-e5', 'd4:f6', 'g7:e5']
>>> game.headers["Result"]
'1-0'
>>> print(shashki.pdn.write_game(game).splitlines()[-1])
1. c3-d4 f6-e5 2. d4:f6 g7:e5 {a comment} 1-0

Readers take numeric or algebraic squares, ``-``, ``x`` or ``:`` separators, short or long
capture forms, move numbers with ``1...`` continuations, comments ``{…}`` and ``;…``,
variations ``(…)``, NAGs ``$n`` and ``!``/``?`` marks, lidraughts' results ``2-0``/``1-1``/
``0-2`` (read as ``1-0``/``1/2-1/2``/``0-1``), and games with tags only.
"""

from __future__ import annotations

import re
import weakref
from typing import Optional, TextIO

from shashki import Board
from shashki.game import Game, Node

__all__ = ["PdnError", "read_game", "write_game"]


class PdnError(ValueError):
    """Bad PDN: says where (``line``, ``column``, 1-based) and what."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.message = message
        self.line = line
        self.column = column


RESULTS = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "*": "*",
    "2-0": "1-0",
    "0-2": "0-1",
    "1-1": "1/2-1/2",
    "0-0": "*",
}
MARKS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
NAG_MARKS = {v: k for k, v in MARKS.items()}

TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<comment>\{[^}]*\})
  | (?P<open_comment>\{)
  | (?P<line_comment>;[^\n]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<nag>\$\d+)
  | (?P<result>(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|0-0|\*))(?![\w/-])
  | (?P<number>\d+\s*\.(?:\s*\.\.)?)
  | (?P<move>[a-hA-H0-9]{1,2}(?:\s*[-x:X\u00d7]\s*[a-hA-H0-9]{1,2})+)(?P<mark>[!?]{1,2})?
  | (?P<mark_alone>[!?]{1,2})
    """,
    re.VERBOSE,
)

_line_numbers: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()


def _tell_line(handle: TextIO) -> int:
    try:
        return _line_numbers.get(handle, 0)
    except TypeError:
        return 0


def _set_line(handle: TextIO, line: int) -> None:
    try:
        _line_numbers[handle] = line
    except TypeError:
        pass


def _read_lines(handle: TextIO) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The tag lines and movetext lines of the next game, with their line numbers."""
    lineno = _tell_line(handle)
    tags: list[tuple[int, str]] = []
    moves: list[tuple[int, str]] = []
    blank_after_tags = False
    while True:
        pos = handle.tell()
        line = handle.readline()
        if not line:
            break
        stripped = line.strip()
        if stripped.startswith("%"):
            lineno += 1
            continue
        if stripped.startswith("[") and (moves or blank_after_tags):
            handle.seek(pos)  # the next game's tags
            break
        lineno += 1
        if not stripped:
            if tags:
                blank_after_tags = True
            continue
        if stripped.startswith("[") and not moves:
            tags.append((lineno, line))
            continue
        moves.append((lineno, line))
        if _ends_with_result(stripped):
            break
    _set_line(handle, lineno)
    return tags, moves


def _ends_with_result(line: str) -> bool:
    if "{" in line or "(" in line:
        return False  # a result inside a comment or variation does not end the game
    last = line.split()[-1] if line.split() else ""
    return last in RESULTS


def read_game(handle: TextIO, *, variations: bool = True, errors: str = "raise") -> Optional[Game]:
    """Read the next game from a text handle; None at the end of the file.

    ``variations=False`` skips variations. ``errors="collect"`` keeps what was read of a bad
    game (its ``errors`` lists the PdnErrors) and leaves the handle at the next game; the
    default raises the PdnError (the handle is still at the next game).
    """
    if errors not in ("raise", "collect"):
        raise ValueError("errors must be 'raise' or 'collect'")
    tag_lines, move_lines = _read_lines(handle)
    if not tag_lines and not move_lines:
        return None
    headers: dict[str, str] = {}
    problems: list[PdnError] = []
    for lineno, line in tag_lines:
        found = TAG.findall(line)
        if not found:
            problems.append(PdnError(f"bad tag {line.strip()!r}", lineno, 1))
        for name, value in found:
            headers[name] = value.replace('\\"', '"').replace("\\\\", "\\")
    game_type = headers.get("GameType", "25").strip()
    fen = headers.get("FEN")
    try:
        if game_type.split(",")[0] != "25":
            raise PdnError(
                f"GameType {game_type!r} is not Russian draughts (25)", tag_lines[0][0], 1
            )
        game = Game(fen)
    except (PdnError, ValueError) as error:
        line = next((n for n, t in tag_lines if "FEN" in t), tag_lines[0][0] if tag_lines else 1)
        pdn_error = error if isinstance(error, PdnError) else PdnError(str(error), line, 1)
        if errors == "raise":
            raise pdn_error from None
        game = Game()
        game.errors.append(pdn_error)
        game.headers.update(headers)
        return game
    game.headers.update(headers)
    if "Result" in headers:
        game.headers["Result"] = RESULTS.get(headers["Result"].strip(), headers["Result"])
    for problem in problems:
        if errors == "raise":
            raise problem
        game.errors.append(problem)
    try:
        _parse_movetext(game, move_lines, variations)
    except PdnError as error:
        if errors == "raise":
            raise
        game.errors.append(error)
    return game


def _parse_movetext(game: Game, lines: list[tuple[int, str]], variations: bool) -> None:
    text = "".join(line for _, line in lines)
    starts = []  # offset of each line start, for line/column
    offset = 0
    for lineno, line in lines:
        starts.append((offset, lineno))
        offset += len(line)

    def where(pos: int) -> tuple[int, int]:
        line_start, lineno = 0, lines[0][0] if lines else 1
        for start, number in starts:
            if start > pos:
                break
            line_start, lineno = start, number
        return lineno, pos - line_start + 1

    # Each context: (board or None for the main line, nodes list)
    stack: list[tuple[Optional[Board], list[Node]]] = [(None, game.nodes)]
    skip_depth = 0
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if m is None:
            line, col = where(pos)
            snippet = text[pos : pos + 12].split("\n")[0]
            raise PdnError(f"unexpected text {snippet!r}", line, col)
        kind = m.lastgroup
        token = m.group(0)
        start = pos
        pos = m.end()
        if kind == "mark":
            kind = "move"
        if kind in ("space", "number", "line_comment"):
            continue
        if kind == "open_comment":
            raise PdnError("comment without a closing '}'", *where(start))
        if skip_depth:
            if kind == "open":
                skip_depth += 1
            elif kind == "close":
                skip_depth -= 1
            continue
        board, nodes = stack[-1]
        if kind == "open":
            if not nodes:
                raise PdnError("a variation before any move", *where(start))
            if not variations:
                skip_depth = 1
                continue
            base = (board if board is not None else game.board).copy()
            base.pop()
            variation: list[Node] = []
            nodes[-1].variations.append(variation)
            stack.append((base, variation))
        elif kind == "close":
            if len(stack) == 1:
                raise PdnError("')' without a variation to close", *where(start))
            stack.pop()
        elif kind == "comment":
            comment = token[1:-1].strip()
            if nodes:
                nodes[-1].comment = (nodes[-1].comment + " " + comment).strip()
            elif len(stack) == 1:
                game.comment = (game.comment + " " + comment).strip()
        elif kind == "nag":
            if nodes:
                nodes[-1].nags.append(int(token[1:]))
        elif kind == "mark_alone":
            if nodes:
                nodes[-1].nags.append(MARKS[token])
        elif kind == "result":
            if len(stack) == 1:
                game.headers["Result"] = RESULTS[token]
                break
        elif kind == "move":
            move_text = m.group("move")
            target = board if board is not None else game.board
            try:
                move = target.parse_move(move_text)
            except ValueError as error:
                raise PdnError(str(error), *where(start)) from None
            if board is None:
                node = game.push(move)
            else:
                board.push(move)
                node = Node(board.peek())
                nodes.append(node)
            mark = m.group("mark")
            if mark:
                node.nags.append(MARKS[mark])
    if len(stack) > 1 and skip_depth == 0:
        raise PdnError("a variation is not closed", *where(len(text)))


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def write_game(
    game: Game,
    *,
    notation: str = "algebraic",
    columns: int = 80,
    comments: bool = True,
    variations: bool = True,
) -> str:
    """The game as PDN: tags (GameType 25, FEN when not the start), the minimal notation of
    every move, comments, NAGs, variations, and the result, wrapped at ``columns``."""
    result = game.result()
    if result == "*" and game.headers.get("Result", "*") in RESULTS.values():
        result = game.headers.get("Result", "*")
    headers = dict(game.headers)
    headers["Result"] = result
    headers.setdefault("GameType", "25")
    if game.start_fen != Board().fen():
        headers["FEN"] = (
            game.start_fen
            if notation == "numeric"
            else Board(game.start_fen).fen(notation="algebraic")
        )
    tag_text = "".join(f'[{name} "{_escape(str(value))}"]\n' for name, value in headers.items())

    tokens: list[str] = []
    if comments and game.comment:
        tokens.append("{" + game.comment + "}")
    start = Board(game.start_fen)
    _write_line(start, game.nodes, tokens, notation, comments, variations, 0 if start.turn else 1)
    tokens.append(result)
    lines: list[str] = []
    current = ""
    for token in tokens:
        if current and len(current) + 1 + len(token) > columns:
            lines.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
    if current:
        lines.append(current)
    return tag_text + "\n" + "\n".join(lines) + "\n"


def _write_line(
    board: Board,
    nodes: list[Node],
    tokens: list[str],
    notation: str,
    comments: bool,
    variations: bool,
    ply_in_game: int,
) -> None:
    board = board.copy(stack=False)
    need_number = True
    for node in nodes:
        number = ply_in_game // 2 + 1
        prefix = ""
        if board.turn:
            prefix = f"{number}. "
        elif need_number:
            prefix = f"{number}... "
        need_number = False
        text = prefix + board.move_text(node.move, notation=notation)
        marks = [NAG_MARKS[n] for n in node.nags if n in NAG_MARKS]
        if len(marks) == 1 and len(node.nags) == 1:
            tokens.append(text + marks[0])
        else:
            tokens.append(text)
            tokens.extend(f"${n}" for n in node.nags)
        if comments and node.comment:
            tokens.append("{" + node.comment.replace("}", ")") + "}")
            need_number = True
        if variations:
            for variation in node.variations:
                tokens.append("(")
                _write_line(board, variation, tokens, notation, comments, variations, ply_in_game)
                tokens.append(")")
                need_number = True
        board.push(node.move)
        ply_in_game += 1
