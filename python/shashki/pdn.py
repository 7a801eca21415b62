"""PDN: reading and writing games of Russian draughts (GameType 25) and of the variants
(Brazilian: GameType 26; giveaway, the diagonal start and captures optional: a ``Variant``
tag).

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

from shashki import Board, Move
from shashki.cards import game_info, games
from shashki.game import GAME_TYPE_OF, GAME_TYPES, Game, GameNode, GameOverError, Headers

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    import re
    import weakref
    from typing import Any, Callable, Optional, TextIO

__all__ = ["PdnError", "read_game", "read_headers", "write_game"]


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

# The reader's regular expressions, compiled on first use (``re`` and the compiles cost
# milliseconds that ``import shashki.pdn`` need not pay): :func:`_pattern`.
_PATTERNS: dict[str, tuple[str, bool]] = {
    "TAG": (r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]', False),
    # One token a match, with the white space before it; a move takes its move number along.
    "TOKEN": (
        r"""
    \s*(?:
      (?P<comment>\{[^}]*\}(?:\s*\{[^}]*\})*)
    | (?P<open_comment>\{)
    | (?P<line_comment>;[^\n]*)
    | (?P<open>\()
    | (?P<close>\))
    | (?P<nag>\$\d+)
    | (?P<result>(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|0-0|\*))(?![\w/-])
    | (?:\d+\s*\.(?:\s*\.\.)?\s*)?
      (?P<move>[a-hA-H0-9]{1,2}(?:\s*[-x:X\u00d7]\s*[a-hA-H0-9]{1,2})+)(?P<mark>[!?]{1,2})?
    | (?P<number>\d+\s*\.(?:\s*\.\.)?)
    | (?P<mark_alone>[!?]{1,2})
    | (?P<end>$)
    )
    """,
        True,
    ),
    # Characters that change the reader's state: comments, variations.
    "_SPECIAL": (r"[{};()]", False),
    "_NESTING": (r"[;()]", False),
    "_COMMENT_BODY": (r"\{([^}]*)\}", False),
    # Movetext without comments, variations, NAGs or marks takes the fast path.
    "_NOT_PLAIN": (r"[{}();$!?]", False),
    "_NUMBERED": (r"\d+\.(?:\.\.)?(.*)", False),
}
_COMPILED: dict[str, re.Pattern[str]] = {}


def _pattern(name: str) -> re.Pattern[str]:
    """The compiled regular expression ``name`` of :data:`_PATTERNS`."""
    compiled = _COMPILED.get(name)
    if compiled is None:
        import re

        text, verbose = _PATTERNS[name]
        compiled = _COMPILED[name] = re.compile(text, re.VERBOSE if verbose else 0)
    return compiled


def __getattr__(name: str) -> object:
    """``TAG`` and ``TOKEN``, the tag and token expressions, compiled on first use."""
    if name in ("TAG", "TOKEN"):
        return _pattern(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Per handle: the line number reached, and a line read ahead that belongs to the next game
# (handed back by the next read instead of seeking, so pipes and sys.stdin work too).
# (``weakref.WeakKeyDictionary`` each, made on the first read.)
_HANDLE_STATE: list[
    tuple[weakref.WeakKeyDictionary[object, int], weakref.WeakKeyDictionary[object, str]]
] = []


def _handle_state() -> tuple[
    weakref.WeakKeyDictionary[object, int], weakref.WeakKeyDictionary[object, str]
]:
    """(line numbers, lines read ahead), by handle, kept only while the handle lives."""
    if not _HANDLE_STATE:
        import weakref

        _HANDLE_STATE.append((weakref.WeakKeyDictionary(), weakref.WeakKeyDictionary()))
    return _HANDLE_STATE[0]


def _tell_line(handle: TextIO) -> int:
    try:
        return _handle_state()[0].get(handle, 0)
    except TypeError:
        return 0


def _set_line(handle: TextIO, line: int) -> None:
    try:
        _handle_state()[0][handle] = line
    except TypeError:
        pass


class _LineReader:
    """Lines of a handle, with one line of look-ahead that can be given back."""

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle
        try:
            self.pending: Optional[str] = _handle_state()[1].pop(handle, None)
            self.keep_ahead = True
        except TypeError:  # a handle that cannot be weakly referenced: seek back instead
            self.pending = None
            self.keep_ahead = False
        self.position = 0

    def readline(self) -> str:
        if self.pending is not None:
            line, self.pending = self.pending, None
            return line
        if not self.keep_ahead:
            self.position = self.handle.tell()
        return self.handle.readline()

    def give_back(self, line: str) -> None:
        if self.keep_ahead:
            _handle_state()[1][self.handle] = line
        else:
            self.handle.seek(self.position)


class _MovetextState:
    """Where the movetext is: inside a ``{…}`` comment, how deep in variations. A line is
    scanned once, at the speed of a regular expression."""

    __slots__ = ("in_comment", "depth")

    def __init__(self) -> None:
        self.in_comment = False
        self.depth = 0

    @property
    def top_level(self) -> bool:
        return not self.in_comment and self.depth == 0

    def scan(self, line: str) -> bool:
        """Advance over ``line``; whether it ends, outside any comment or variation, with a
        game result (``1-0``, ``2-0``, ``*``, …)."""
        if self.depth == 0 and _pattern("_NESTING").search(line) is None:
            # Only comments to look at (the common line): they do not nest, so the last
            # brace of the line tells the state at its end.
            opened, closed = line.rfind("{"), line.rfind("}")
            if opened > closed:
                self.in_comment = True
                return False
            if closed >= 0:
                self.in_comment = False
                tail_start = closed + 1
            elif self.in_comment:
                return False
            else:
                tail_start = 0
            tokens = line[tail_start:].split()
            return bool(tokens) and tokens[-1] in RESULTS
        tail_start = 0 if self.top_level else -1  # start of the line's last top-level run
        end = len(line)
        pos = 0
        while True:
            if self.in_comment:
                close = line.find("}", pos)
                if close < 0:
                    break
                self.in_comment = False
                pos = close + 1
                if self.depth == 0:
                    tail_start = pos
                continue
            found = _pattern("_SPECIAL").search(line, pos)
            if found is None:
                break
            char = found.group()
            pos = found.end()
            if char == "{":
                self.in_comment = True
                tail_start = -1
            elif char == ";":
                if self.depth == 0 and tail_start >= 0:
                    end = found.start()
                break  # the rest of the line is a comment
            elif char == "(":
                self.depth += 1
                tail_start = -1
            elif char == ")":
                self.depth = max(self.depth - 1, 0)
                if self.depth == 0:
                    tail_start = pos
            elif char == "}":
                continue  # a stray '}' is the tokenizer's to report
        if not self.top_level or tail_start < 0:
            return False
        tokens = line[tail_start:end].split()
        return bool(tokens) and tokens[-1] in RESULTS


def _read_lines(handle: TextIO) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The tag lines and movetext lines of the next game, with their line numbers."""
    lineno = _tell_line(handle)
    reader = _LineReader(handle)
    readline = handle.readline if reader.keep_ahead else reader.readline
    pending = reader.pending if reader.keep_ahead else None
    tags: list[tuple[int, str]] = []
    moves: list[tuple[int, str]] = []
    blank_after_tags = False
    after_blank = False
    state = _MovetextState()
    scan = state.scan
    while True:
        if pending is not None:
            line, pending = pending, None
        else:
            line = readline()
            if not isinstance(line, str):
                raise TypeError(
                    "PDN is read from a text handle, not a binary one: open the file with "
                    "open(path, encoding='utf-8') or wrap it: io.TextIOWrapper(handle, 'utf-8')"
                )
            if line.startswith("\ufeff"):
                # A byte order mark, as a text opened without ``utf-8-sig`` keeps it (at a
                # file's start, or where files were joined): not part of the PDN.
                line = line[1:]
        if not line:
            break
        stripped = line.strip()
        if (
            not state.top_level
            and after_blank
            and stripped.startswith("[")
            and _pattern("TAG").fullmatch(stripped)
        ):
            # A comment or variation left open: a tag pair after a blank line starts the
            # next game, so one missing '}' or ')' costs one game, not the rest of the
            # file (the tokenizer reports the unclosed one).
            reader.give_back(line)
            break
        after_blank = not stripped
        if state.in_comment:  # inside a comment: no tags, blank lines or escapes
            lineno += 1
            moves.append((lineno, line))
            if "}" in line and scan(line):
                break
            continue
        if state.depth == 0 and stripped:
            first = stripped[0]
            if first == "%":
                lineno += 1
                continue
            if first == "[" and (moves or blank_after_tags):
                reader.give_back(line)  # the next game's tags
                break
        lineno += 1
        if not stripped:
            if state.depth == 0:
                if tags:
                    blank_after_tags = True
                continue
        elif stripped[0] == "[" and not moves:
            tags.append((lineno, line))
            continue
        moves.append((lineno, line))
        if scan(line):
            break
    _set_line(handle, lineno)
    return tags, moves


_NUMERIC_GAMES = frozenset(card.name for card in games() if card.notation == "numeric")
"""The games whose PDN GameType gives numeric notation (N); the others' is algebraic (A)."""


_LIDRAUGHTS_GAME_TYPES = {
    str(card.lidraughts_type): card.name for card in games() if card.lidraughts_type is not None
}
"""The GameType numbers lidraughts gives its own 10×10 variants in its exports (read; the
PDN standard's table has none for them, and shashki writes them as International's or
Frisian's GameType with a ``Variant`` tag): the cards' ``lidraughts_type``."""


def _variant_of(game_type: str, variant_tag: str) -> tuple[Optional[str], bool]:
    """The variant of a game's ``GameType`` (its first field: 25 Russian, 26 Brazilian, 21
    English, …, see :data:`GAME_TYPES`) and ``Variant`` tag (a game written on another's
    GameType names itself there: ``Giveaway``/``Poddavki``, ``Diagonal``, ``Killer``, and
    ``captures optional``); None when GameType names another game. From the games' cards."""
    code = game_type.split(",")[0].strip()
    tag = variant_tag.lower()
    optional = "captures optional" in tag
    # The card whose name the tag holds, the longest name first (``Ugolki-12`` is not
    # ``Ugolki``).
    best: Optional[tuple[int, str]] = None
    for card in games():
        if card.tagged_on is not None and str(card.pdn_game_type) == code:
            for name in card.names:
                if name in tag and (best is None or len(name) > best[0]):
                    best = (len(name), card.name)
    if best is not None:
        return best[1], optional
    if code in _LIDRAUGHTS_GAME_TYPES:
        return _LIDRAUGHTS_GAME_TYPES[code], optional
    if code in GAME_TYPES:
        return GAME_TYPES[code], optional
    if code != "25":
        return None, False
    return "russian", optional


def _check_handle(handle: object, reader: str) -> None:
    if isinstance(handle, (str, bytes)) or not callable(getattr(handle, "readline", None)):
        raise TypeError(
            f"{reader} reads from a text handle such as open(path, encoding='utf-8') or "
            f"io.StringIO(text), not {type(handle).__name__}"
        )


def _tags(tag_lines: list[tuple[int, str]]) -> tuple[dict[str, str], list[PdnError]]:
    headers: dict[str, str] = {}
    problems: list[PdnError] = []
    for lineno, line in tag_lines:
        found = _pattern("TAG").findall(line)
        if not found:
            problems.append(PdnError(f"bad tag {line.strip()!r}", lineno, 1))
        for name, value in found:
            headers[name] = value.replace('\\"', '"').replace("\\\\", "\\")
    return headers, problems


def read_headers(handle: TextIO) -> Optional[Headers]:
    """The next game's tags, its moves skipped (the handle left at the game after it), as
    python-chess's ``read_headers``: a quick pass over a large file; None at its end. Bad
    tag lines are left out."""
    _check_handle(handle, "read_headers")
    tag_lines, move_lines = _read_lines(handle)
    if not tag_lines and not move_lines:
        return None
    return Headers(_tags(tag_lines)[0])


def read_game(
    handle: TextIO,
    *,
    variations: bool = True,
    errors: str = "raise",
    variant: Optional[str] = None,
) -> Optional[Game]:
    """Read the next game from a text handle; None at the end of the file.

    ``variations=False`` skips variations. ``errors="collect"`` keeps what was read of a bad
    game (its ``errors`` lists the PdnErrors) and leaves the handle at the next game; the
    default raises the PdnError (the handle is still at the next game). ``variant``: the
    game of a file without a ``GameType`` tag (PDN's default is Russian draughts, 25);
    a GameType tag, where there is one, names the game.
    """
    if errors not in ("raise", "collect"):
        raise ValueError("errors must be 'raise' or 'collect'")
    _check_handle(handle, "read_game")
    card = None if variant is None else game_info(variant)  # an unknown name: ValueError
    tag_lines, move_lines = _read_lines(handle)
    if not tag_lines and not move_lines:
        return None
    headers, problems = _tags(tag_lines)
    if card is not None and "GameType" not in headers:
        headers["GameType"] = str(card.pdn_game_type)
        if card.tagged_on is not None and "Variant" not in headers:
            headers["Variant"] = card.name
    game_type = headers.get("GameType", "25").strip()
    fen = headers.get("FEN")
    try:
        _refuse_column_game(headers, tag_lines)
        variant, captures_optional = _variant_of(game_type, headers.get("Variant", ""))
        if variant is None:
            raise PdnError(
                f"GameType {game_type!r} is not a game shashki plays (25 Russian, "
                + ", ".join(f"{n} {v}" for n, v in GAME_TYPES.items())
                + ")",
                tag_lines[0][0],
                1,
            )
        game = Game(fen, variant=variant, captures_optional=captures_optional)
    except (PdnError, ValueError) as error:
        fen_line: int = next(
            (n for n, t in tag_lines if "FEN" in t), tag_lines[0][0] if tag_lines else 1
        )
        pdn_error = error if isinstance(error, PdnError) else PdnError(str(error), fen_line, 1)
        if errors == "raise":
            raise pdn_error from None
        game = Game()
        game.errors.append(pdn_error)
        _set_headers(game, headers)
        return game
    tag_result = headers.pop("Result", None)
    _set_headers(game, headers)
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
    if tag_result is not None and game.result() == "*":
        _record(game, tag_result)  # the movetext gave none: the tag's
    return game


def _refuse_column_game(headers: dict[str, str], tag_lines: list[tuple[int, str]]) -> None:
    """A game whose ``Variant`` tag names a column game (towers, Lasca) is not a
    :class:`Game`'s: say where it is read."""
    tag = headers.get("Variant", "").strip()
    if not tag:
        return
    try:
        card = game_info(tag)
    except ValueError:
        return
    if card.stacks:
        line = next((n for n, t in tag_lines if "Variant" in t), 1)
        raise PdnError(
            f"{card.name} is a column game: read it with shashki.columns.read_pdn", line, 1
        )


def _set_headers(game: Game, headers: dict[str, str]) -> None:
    for name, value in headers.items():
        if name == "Result":
            _record(game, value)
        else:
            game.headers[name] = value


def _record(game: Game, text: str) -> None:
    """A result as the file gives it (lidraughts' 2-0 too). Where the rules already end
    the game otherwise, the rules' result stands."""
    result = RESULTS.get(text.strip())
    if result is None or result == "*":
        return
    try:
        game.headers["Result"] = result
    except GameOverError:
        pass


def _plain_moves(text: str) -> tuple[list[str], Optional[str]]:
    """The move texts and the result of plain movetext (numbers dropped)."""
    moves: list[str] = []
    for token in text.split():
        if token in RESULTS:
            return moves, token
        numbered = _pattern("_NUMBERED").fullmatch(token)
        if numbered is not None:
            token = numbered.group(1)
            if not token:
                continue
        moves.append(token)
    return moves, None


def _parse_movetext(game: Game, lines: list[tuple[int, str]], variations: bool) -> None:
    text = "".join(line for _, line in lines)
    if not _pattern("_NOT_PLAIN").search(text):
        # Plain moves: parsed and played by the core in one call. On any trouble the game
        # is taken back and the full reader below says what is wrong and where.
        moves, result = _plain_moves(text)
        if game._push_move_texts(moves) is None:
            if result is not None:
                _record(game, result)
            return
        while game.nodes:
            game.pop()
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

    # Comments are gathered per node (or for the game) and joined once at the end: adding
    # to a string comment by comment would make many comments quadratic.
    comments: dict[int, tuple[object, list[str]]] = {}

    def add_comment(owner: object, comment: str) -> None:
        entry = comments.get(id(owner))
        if entry is None:
            comments[id(owner)] = (owner, [comment])
        else:
            entry[1].append(comment)

    try:
        _tokens(game, text, where, variations, add_comment)
    finally:
        for owner, parts in comments.values():
            joined = _join_comments(parts)
            earlier = owner.comment  # type: ignore[attr-defined]
            owner.comment = f"{earlier} {joined}" if earlier and joined else earlier or joined  # type: ignore[attr-defined]


MAX_NAG = 255

_LINE = "\x00"  # marks a part that came from a ';' comment (joined to the next by a newline)


def _join_comments(parts: list[str]) -> str:
    """A node's comments as one text: brace comments joined by a space, consecutive ';'
    comments (the writer's form of a comment holding '}') by a newline."""
    out: list[str] = []
    previous_line = False
    for part in parts:
        line = part.startswith(_LINE)
        text = part[1:] if line else part
        if not text and not line:
            continue
        if out:
            out.append("\n" if line and previous_line else " ")
        out.append(text)
        previous_line = line
    return "".join(out)


def _tokens(
    game: Game,
    text: str,
    where: Callable[[int], tuple[int, int]],
    variations: bool,
    add_comment: Callable[[object, str], None],
) -> None:
    # Each line being read: its board (None for the main line: the game's), the node its
    # next move follows, whether a move of the line has been read yet, and the comments
    # before its first move (that move's starting_comment).
    stack: list[list[Any]] = [[None, game.root(), False, []]]
    skip_depth = 0
    pos = 0
    match = _pattern("TOKEN").match
    while pos < len(text):
        m = match(text, pos)
        if m is None:
            while text[pos].isspace():
                pos += 1
            line, col = where(pos)
            snippet = text[pos : pos + 12].split("\n")[0]
            raise PdnError(f"unexpected text {snippet!r}", line, col)
        kind = m.lastgroup or "end"
        pos = m.end()
        if kind == "mark":
            kind = "move"
        if kind in ("end", "number"):
            continue
        start = m.start(kind)
        token = m.group(kind)
        if kind == "open_comment":
            raise PdnError("comment without a closing '}'", *where(start))
        if skip_depth:
            if kind == "open":
                skip_depth += 1
            elif kind == "close":
                skip_depth -= 1
            continue
        context = stack[-1]
        board, node, started, before_first = context
        if kind in ("comment", "line_comment"):
            if kind == "comment":
                comments = [c.strip() for c in _pattern("_COMMENT_BODY").findall(token)]
            else:
                comments = [_LINE + token[1:].rstrip("\r")]
            if started or len(stack) == 1:
                for comment in comments:
                    add_comment(node, comment)
            else:
                before_first.extend(comments)
        elif kind == "open":
            if node.move is None:
                raise PdnError("a variation before any move", *where(start))
            if not variations:
                skip_depth = 1
                continue
            base = (board if board is not None else game.current_board).copy()
            base.pop()
            stack.append([base, node.parent, False, []])
        elif kind == "close":
            if len(stack) == 1:
                raise PdnError("')' without a variation to close", *where(start))
            stack.pop()
        elif kind == "nag":
            digits = token[1:]
            if len(digits) > 3 or int(digits) > MAX_NAG:
                shown = digits if len(digits) <= 12 else digits[:12] + "…"
                raise PdnError(f"NAG ${shown} is not within $0-${MAX_NAG}", *where(start))
            if started:
                node.nags.append(int(digits))
        elif kind == "mark_alone":
            if started:
                node.nags.append(MARKS[token])
        elif kind == "result":
            if len(stack) == 1:
                _record(game, token)
                break
        elif kind == "move":
            move_text = m.group("move")
            target = board if board is not None else game.current_board
            try:
                move = target.parse_move(move_text)
            except ValueError as error:
                raise PdnError(str(error), *where(start)) from None
            if board is None:
                node = game._push_unchecked(move)
            else:
                board.push(move)
                child = GameNode(node, board.peek())
                node.variations.append(child)
                node = child
            if before_first:
                node.starting_comment = _join_comments(before_first)
                before_first.clear()
            context[1], context[2] = node, True
            mark = m.group("mark")
            if mark:
                node.nags.append(MARKS[mark])
    if len(stack) > 1 and skip_depth == 0:
        raise PdnError("a variation is not closed", *where(len(text)))


def _escape(value: str) -> str:
    """A tag value as PDN writes it: backslashes and quotes escaped; a line break (which a
    tag cannot hold) written as a space."""
    value = " ".join(value.splitlines()) if "\n" in value or "\r" in value else value
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment_tokens(comment: str) -> list[str]:
    """A comment as PDN tokens: ``{…}``, or, when it holds a '}' (which a brace comment
    cannot), one ';' comment a line, which the reader joins back exactly."""
    if "}" not in comment:
        return ["{" + comment + "}"]
    return [";" + line for line in comment.split("\n")]


def write_game(
    game: Game,
    *,
    notation: Optional[str] = None,
    columns: int = 80,
    comments: bool = True,
    variations: bool = True,
) -> str:
    """The game as PDN: tags (GameType, FEN when not the start), the minimal notation of
    every move, comments, NAGs, variations, and the result, wrapped at ``columns``. The
    notation is the game's own unless ``notation`` says otherwise: algebraic for Russian
    draughts, its variants and Czech draughts, numeric for the others (their PDN
    GameType's notation); a move number's first move is the first side's (Black's in
    English, Pool and Thai draughts)."""
    if not isinstance(game, Game):
        raise TypeError(f"write_game writes a Game, not {type(game).__name__}")
    if notation is None:
        notation = "numeric" if game.variant in _NUMERIC_GAMES else "algebraic"
    result = game.result()
    headers = dict(game.headers)
    headers["Result"] = result
    headers.setdefault("GameType", GAME_TYPE_OF.get(game.variant, "25"))
    if game.start_fen != Board(variant=game.variant).fen():
        headers["FEN"] = (
            game.start_fen
            if notation == "numeric"
            else Board(game.start_fen, variant=game.variant).fen(notation="algebraic")
        )
    tag_text = "".join(f'[{name} "{_escape(str(value))}"]\n' for name, value in headers.items())

    tokens: list[str] = []
    if comments and game.comment:
        tokens.extend(_comment_tokens(game.comment))
    start = game.board()
    first = Board(variant=game.variant).turn
    _write_tree(start, game.root(), tokens, notation, comments, variations, first)
    tokens.append(result)
    lines: list[str] = []
    current = ""
    for token in tokens:
        if current and len(current) + 1 + len(token) > columns:
            lines.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
        if token.startswith(";"):  # a ';' comment runs to the end of its line
            lines.append(current)
            current = ""
    if current:
        lines.append(current)
    return tag_text + "\n" + "\n".join(lines) + "\n"


def _write_tree(
    board: Board,
    root: GameNode,
    tokens: list[str],
    notation: str,
    comments: bool,
    variations: bool,
    first: bool = True,
) -> None:
    """The tokens of the tree below ``root`` (``first``: the side whose move opens each
    move number, True for White): at every node its main continuation, then
    each alternative in parentheses, then on along the main line. Iterative (a stack of
    frames, not recursion), so variations nested any depth deep are written."""

    class Frame:
        """A line being written: the board before ``node``'s continuations."""

        __slots__ = ("board", "node", "ply", "need_number", "alternative", "first")

        def __init__(self, board: Board, node: GameNode, ply: int, first: Optional[GameNode]):
            self.board = board
            self.node = node
            self.ply = ply
            self.need_number = True
            self.alternative = 1  # the next alternative of node.variations to write
            self.first = first  # a variation frame writes this move first

    def write(frame: Frame, child: GameNode) -> None:
        if comments and child.starting_comment:
            tokens.extend(_comment_tokens(child.starting_comment))
            frame.need_number = True
        _write_node(frame.board, child, frame.ply, frame.need_number, tokens, notation, first)
        frame.need_number = False
        if comments and child.comment:
            tokens.extend(_comment_tokens(child.comment))
            frame.need_number = True

    first_ply = 0 if board.turn == first else 1
    stack = [Frame(board.copy(stack=False), root, first_ply, None)]
    while stack:
        frame = stack[-1]
        if frame.first is not None:  # a variation: its own first move, then on from it
            child, frame.first = frame.first, None
            write(frame, child)
            frame.board.push(_move(child))
            frame.node, frame.ply = child, frame.ply + 1
            continue
        children = frame.node.variations
        if not children:
            stack.pop()
            if stack:
                tokens.append(")")
                stack[-1].need_number = True
            continue
        main = children[0]
        if frame.alternative == 1:
            write(frame, main)
        if variations and frame.alternative < len(children):
            alternative = children[frame.alternative]
            frame.alternative += 1
            tokens.append("(")
            stack.append(Frame(frame.board.copy(stack=False), frame.node, frame.ply, alternative))
            continue
        frame.board.push(_move(main))
        frame.node, frame.ply, frame.alternative = main, frame.ply + 1, 1


def _move(node: GameNode) -> Move:
    """The move of a node below the root."""
    assert node.move is not None
    return node.move


def _write_node(
    board: Board,
    node: GameNode,
    ply: int,
    need_number: bool,
    tokens: list[str],
    notation: str,
    first: bool = True,
) -> None:
    number = ply // 2 + 1
    prefix = ""
    if board.turn == first:
        prefix = f"{number}. "
    elif need_number:
        prefix = f"{number}... "
    text = prefix + board.move_text(_move(node), notation=notation)
    marks = [NAG_MARKS[n] for n in node.nags if n in NAG_MARKS]
    if len(marks) == 1 and len(node.nags) == 1:
        tokens.append(text + marks[0])
    else:
        tokens.append(text)
        tokens.extend(f"${n}" for n in node.nags)
