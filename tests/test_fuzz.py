"""Fuzzers for every way text gets in: FEN, move text, PDN (mutated real games) and the Hub.

Each property: a malformed input gets a clear error (a ``ValueError`` subclass of the kind
that names the format) and changes nothing; an accepted input round-trips. The budget
follows the hypothesis profile (``ci`` by default; ``HYPOTHESIS_PROFILE=long`` for deep
runs); each example checks a batch of inputs (``BATCH``), the Hub fuzzer sends
``HUB_FUZZ_LINES`` lines (2,000 in CI, 25,000 with the long profile).
"""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest
import shashki
from hub_process import HubProcess
from hypothesis import given
from hypothesis import strategies as st
from shashki import pdn
from shashki.protocols import hub
from strategies import positions

DATA = Path(__file__).parent / "data" / "lidraughts-russian.pdn"
LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
BATCH = 40
HUB_FUZZ_LINES = int(os.environ.get("HUB_FUZZ_LINES", 25_000 if LONG else 2_000))

MOVE_ERRORS = (shashki.InvalidMoveError, shashki.IllegalMoveError, shashki.AmbiguousMoveError)

# Characters the formats use, some they do not, and lone surrogates.
FORMAT_CHARS = 'WBwbKk:,-.x0123456789abcdefghHF "[]+;{}()$!?*/\n\t\u00d7'
ODD_CHARS = ["\u00a0", "\u2013", "\ufeff", "é", "Ж", "\x00", "\ud800", "\udfff", "1" * 30]


def mutate(text: str, rng: random.Random, edits: int) -> str:
    """``text`` after ``edits`` random edits: characters inserted, deleted, replaced; slices
    duplicated, moved or deleted; format characters and odd ones."""
    chars = list(text)
    for _ in range(edits):
        kind = rng.randrange(7)
        at = rng.randrange(len(chars) + 1)
        piece = rng.choice(FORMAT_CHARS) if rng.random() < 0.8 else rng.choice(ODD_CHARS)
        if kind == 0 or not chars:
            chars[at:at] = list(piece)
        elif kind == 1:
            del chars[min(at, len(chars) - 1)]
        elif kind == 2:
            chars[min(at, len(chars) - 1)] = piece
        elif kind == 3:
            end = min(len(chars), at + rng.randrange(1, 12))
            chars[at:at] = chars[at:end]
        elif kind == 4:
            end = min(len(chars), at + rng.randrange(1, 30))
            del chars[at:end]
        elif kind == 5:
            end = min(len(chars), at + rng.randrange(1, 12))
            cut = chars[at:end]
            del chars[at:end]
            to = rng.randrange(len(chars) + 1)
            chars[to:to] = cut
        else:
            chars[at:at] = list(rng.choice(["K", ":", ",", "-", "W", "B", "H", "F", "."]))
    return "".join(chars)


def assert_unchanged(board: shashki.Board, fen: str, stack: list) -> None:
    assert board.fen() == fen and board.move_stack == stack


# ---- FEN ------------------------------------------------------------------------------------


def check_fen(text: str) -> None:
    board = shashki.Board()
    board.push_move("c3-d4")
    before, stack = board.fen(), board.move_stack
    try:
        parsed = shashki.Board(text)
    except shashki.FenError as error:
        assert str(error)
        with pytest.raises(shashki.FenError):
            board.set_fen(text)
        assert_unchanged(board, before, stack)
        return
    for notation in ("numeric", "algebraic"):
        assert shashki.Board(parsed.fen(notation=notation)) == parsed
    board.set_fen(text)
    assert board == parsed and not board.move_stack


@given(positions(), st.randoms(use_true_random=False))
def test_fuzz_fen_mutations(fen: str, rng: random.Random) -> None:
    algebraic = shashki.Board(fen).fen(notation="algebraic")
    for i in range(BATCH):
        base = fen if i % 2 else algebraic
        check_fen(mutate(base, rng, rng.randint(1, 6)))


FEN_PIECES = st.sampled_from(list(FORMAT_CHARS) + ODD_CHARS + ["W:", ":B", "K", "-", "12", "a1"])


@given(st.lists(st.lists(FEN_PIECES, max_size=30).map("".join), max_size=BATCH))
def test_fuzz_fen_from_the_alphabet(texts: list[str]) -> None:
    for text in texts:
        check_fen(text)
        check_fen("W:" + text)
        check_fen("B:W21:" + text)


# ---- move text ------------------------------------------------------------------------------


SQUARE_WORDS = [shashki.square_name(s) for s in range(32)] + [str(n) for n in range(0, 35)]
SQUARE_WORDS += ["a2", "h9", "i1", "C3", "00", "+5", "", " "]
SEPARATORS = ["-", ":", "x", "X", "\u00d7", "--", " ", ""]


def random_move_text(rng: random.Random, board: shashki.Board) -> str:
    moves = list(board.legal_moves)
    if moves and rng.random() < 0.5:
        move = rng.choice(moves)
        text = rng.choice(
            [str(move), move.text("numeric"), board.move_text(move, notation="numeric")]
        )
        return mutate(text, rng, rng.randint(0, 3))
    words = [rng.choice(SQUARE_WORDS) for _ in range(rng.randint(1, 6))]
    text = words[0]
    for word in words[1:]:
        text += rng.choice(SEPARATORS) + word
    return text


@given(positions(), st.randoms(use_true_random=False))
def test_fuzz_move_text(fen: str, rng: random.Random) -> None:
    check_move_texts(shashki.Board(fen), rng)


def check_move_texts(board: shashki.Board, rng: random.Random) -> None:
    """Random and mutated move texts: each a legal move (pushed and popped back) or a clear
    error of its kind, the board unchanged either way."""
    legal = list(board.legal_moves)
    for _ in range(BATCH):
        text = random_move_text(rng, board)
        before, stack = board.fen(), board.move_stack
        try:
            move = board.parse_move(text)
        except MOVE_ERRORS as error:
            assert str(error)
            with pytest.raises(type(error)):
                board.push_move(text)
            assert_unchanged(board, before, stack)
            continue
        assert move in legal
        assert board.push_move(text) == move
        board.pop()
        assert_unchanged(board, before, stack)


# ---- PDN ------------------------------------------------------------------------------------


def real_games() -> list[str]:
    text = DATA.read_text(encoding="utf-8")
    return ["[Event" + part for part in text.split("[Event")[1:]]


GAMES = real_games()
PDN_PIECES = [
    "{",
    "}",
    "(",
    ")",
    "$12",
    "$999",
    "1-0",
    "2-0",
    "*",
    ";",
    "\n",
    "[",
    "]",
    "1...",
    "%",
]


def mutate_pdn(text: str, rng: random.Random) -> str:
    if rng.random() < 0.5:
        return mutate(text, rng, rng.randint(1, 8))
    tokens = text.split(" ")
    for _ in range(rng.randint(1, 5)):
        at = rng.randrange(len(tokens) + 1)
        kind = rng.randrange(3)
        if kind == 0:
            tokens[at:at] = [rng.choice(PDN_PIECES)]
        elif kind == 1 and tokens:
            del tokens[min(at, len(tokens) - 1)]
        else:
            tokens[at:at] = tokens[at : at + rng.randint(1, 6)]
    return " ".join(tokens)


def read_every_game(text: str, **options: object) -> list:
    handle = io.StringIO(text)
    games = []
    for _ in range(1000):
        game = pdn.read_game(handle, **options)
        if game is None:
            return games
        games.append(game)
    raise AssertionError("read_game does not advance")


@given(st.randoms(use_true_random=False))
def test_fuzz_pdn_mutated_real_games(rng: random.Random) -> None:
    for _ in range(BATCH // 4):
        text = "\n".join(mutate_pdn(rng.choice(GAMES), rng) for _ in range(rng.randint(1, 3)))
        try:
            read_every_game(text)
        except pdn.PdnError as error:
            assert error.line >= 1 and error.column >= 1 and error.message
        for game in read_every_game(text, errors="collect"):
            assert all(isinstance(e, pdn.PdnError) for e in game.errors)
            if game.errors:
                continue
            for notation in ("algebraic", "numeric"):
                (again,) = read_every_game(pdn.write_game(game, notation=notation))
                assert not again.errors
                assert again.mainline_moves() == game.mainline_moves()
                assert again.end().board() == game.end().board()


# ---- the Hub --------------------------------------------------------------------------------

# Not ping (its pong is the fuzzer's clock) and not quit.
HUB_COMMANDS = ["hub", "init", "new-game", "pos", "level", "go", "stop", "pong", "ponder-hit"]
HUB_COMMANDS += ["set-param", "xyzzy", "", "GO", "pos  pos"]
HUB_WORDS = ["think", "ponder", "analyze", "start", "infinite", "name=hash", "name=threads"]
HUB_WORDS += ["name=variant", "value=russian", "value=brazilian", "value=-1", "value=8"]
HUB_WORDS += ["value=99999999", "value=x", "value=2", "depth=3", "depth=-4", "depth=999"]
HUB_WORDS += ["nodes=1e30", "move-time=nan", "move-time=0.01", "time=inf", "inc=2", "moves=0"]
HUB_WORDS += ['moves="9-13 22-18"', 'moves="1-2 3x4"', "moves=", 'pos="Wbbbbeee"', "pos=W"]
HUB_WORDS += ["=", '"', '""', "move-time=1e308", "nodes=18446744073709551616", "x" * 2000]


def garbage_line(rng: random.Random) -> bytes:
    kind = rng.randrange(10)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(60))).replace(b"\n", b"")
    if kind == 1:
        return ("é" * rng.randrange(5000)).encode()
    words = [rng.choice(HUB_COMMANDS)] + [rng.choice(HUB_WORDS) for _ in range(rng.randrange(5))]
    line = " ".join(words)
    if kind == 2:
        line = mutate(line, rng, 3).replace("\n", " ")
    if line.strip().split(" ")[0] in ("ping", "quit"):
        line = "x" + line
    return line.encode("utf-8", "surrogatepass")


def test_fuzz_hub_garbage_between_real_commands() -> None:
    rng = random.Random(20261130)
    boards = [shashki.Board()]
    board = shashki.Board()
    for _ in range(60):  # positions along a random game, for the real searches
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        boards.append(board.copy(stack=False))
    engine = HubProcess()
    peak_rss = 0.0
    try:
        engine.send(b"hub")
        engine.wait_for("wait")
        engine.send(b"init")
        engine.wait_for("ready")
        sent = 0
        while sent < HUB_FUZZ_LINES:
            for _ in range(rng.randint(1, 25)):
                engine.send(garbage_line(rng))
                sent += 1
            engine.send(b"ping")
            engine.wait_for("pong")
            if rng.random() < 0.3:
                target = rng.choice(boards)
                engine.send(b"stop")  # a garbage search sends its done before the pong
                engine.send(b"ping")
                engine.wait_for("pong")
                del engine.lines[:]
                engine.send(f"pos pos={hub.board_to_hub(target)}".encode())
                engine.send(b"level move-time=0.02")
                engine.send(b"go think")
                done = engine.wait_for("done")
                if target.legal_moves:
                    move = done.split("move=")[1].split()[0]
                    assert hub.move_from_hub(target, move) in target.legal_moves
            peak_rss = max(peak_rss, engine.rss_mb())
    finally:
        stderr = engine.close()
    assert "Traceback" not in stderr, stderr[-2000:]
    assert engine.proc.returncode == 0
    assert peak_rss < 1024, peak_rss  # MB: a 64 MB table, a few threads


# ---- endgame table files ----------------------------------------------------------------


def damage(original: bytes, rng: random.Random, *, header: int = 0) -> bytearray:
    """``original`` after one to four random edits: a byte changed (within the first
    ``header`` bytes seven times in ten, when given), the end cut off, or bytes inserted."""
    data = bytearray(original)
    for _ in range(rng.randint(1, 4)):
        kind = rng.random()
        if kind < 0.6 and data:
            near = header and rng.random() < 0.7
            data[rng.randrange(min(len(data), header) if near else len(data))] = rng.randrange(256)
        elif kind < 0.8:
            del data[rng.randrange(len(data) + 1) :]
        else:
            at = rng.randrange(len(data) + 1)
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 9)))
    return data


def _fnv1a(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


@pytest.fixture(scope="module")
def table_bytes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    from shashki import egtb

    directory = tmp_path_factory.mktemp("egtb-fuzz")
    egtb.build(directory, pieces=3, progress=False)
    return {p.name: p.read_bytes() for p in directory.glob("*.egtb")}


@given(st.randoms(use_true_random=False), st.booleans())
def test_fuzz_table_files(
    table_bytes: dict[str, bytes],
    tmp_path_factory: pytest.TempPathFactory,
    rng: random.Random,
    fix_checksum: bool,
) -> None:
    """A damaged table file is refused with a ValueError naming it, or (damage the checksums
    do not cover, or a checksum made to fit) opens, and then no probe crashes: each answers
    a value or None."""
    from shashki import egtb

    name = rng.choice(sorted(table_bytes))
    data = damage(table_bytes[name], rng)
    if fix_checksum and len(data) >= 76:
        data[36:44] = _fnv1a(bytes(data[76:])).to_bytes(8, "little")
    directory = tmp_path_factory.mktemp("damaged")
    (directory / name).write_bytes(bytes(data))
    try:
        tables = egtb.open(directory)
    except ValueError as error:
        assert name in str(error)
        return
    boards = [
        shashki.Board(f) for f in ("W:WK30:BK3", "B:WK30,K31:BK3", "W:W20:B13", "B:W22:BK4,6")
    ]
    for board in boards:
        value = tables.probe(board)
        assert value is None or value.wdl in (-1, 0, 1)


# ---- the 8×8 family's numberings -----------------------------------------------------------

FAMILY = ("english", "italian", "spanish", "portuguese", "czech", "pool", "thai")


@given(positions(), st.sampled_from(FAMILY), st.randoms(use_true_random=False))
def test_fuzz_fens_and_moves_of_every_game(fen: str, variant: str, rng: random.Random) -> None:
    """FEN and move text in each game's own numbering: a mutated FEN is a FenError or a
    position that reads back the same in both notations; move text is a legal move or a
    clear error, the board unchanged."""
    from shashki import reference

    game_fen = reference.game_fen(fen, variant)
    board = shashki.Board(game_fen, variant=variant)
    algebraic = board.fen(notation="algebraic")
    for i in range(BATCH):
        text = mutate(game_fen if i % 2 else algebraic, rng, rng.randint(1, 6))
        try:
            parsed = shashki.Board(text, variant=variant)
        except shashki.FenError as error:
            assert str(error)
            continue
        for notation in ("numeric", "algebraic"):
            assert shashki.Board(parsed.fen(notation=notation), variant=variant) == parsed
    check_move_texts(board, rng)


# ---- network files ---------------------------------------------------------------------------

SHIPPED_NETWORK = Path(__file__).parents[1] / "data" / "networks" / "english.bin"


@given(st.randoms(use_true_random=False), st.booleans())
def test_fuzz_network_files(rng: random.Random, fix_checksum: bool) -> None:
    """A damaged network file (bytes changed, cut or inserted; its checksum made to fit or
    not) is refused with a ValueError saying why, or (damage only to the weights) loads and
    evaluates: never a panic, never an allocation sized by a damaged header."""
    from shashki import _core

    # Mostly the header (version, name, sizes, scale), where damage matters most.
    data = damage(SHIPPED_NETWORK.read_bytes(), rng, header=64)
    if fix_checksum and len(data) >= 12:
        data[-8:] = _fnv1a(bytes(data[:-8])).to_bytes(8, "little")
    try:
        scores = _core.evaluate_network(["W:W21,22:B1,K4", "B:W31:B5,6"], bytes(data))
    except ValueError as error:
        assert str(error)
        return
    assert len(scores) == 2 and all(isinstance(s, int) for s in scores)


# ---- DXP messages ----------------------------------------------------------------------------

DXP_PIECES = st.sampled_from(
    ["R01", "M", "E", "C", "B", "K", "A", "W", "Z", "e", "w", "b", "0", "1", "9", " ", "\x00"]
    + ["x" * 50, "e" * 50, "0032", "28", "99", "ΩΩ"]
)


@given(st.lists(DXP_PIECES, max_size=40).map("".join), st.randoms(use_true_random=False))
def test_fuzz_dxp_messages(text: str, rng: random.Random) -> None:
    """A DXP message from a peer is read as one of the protocol's messages or refused with a
    DxpError (a ValueError); a position or a move in it becomes a board or a legal move, or
    a DxpError: nothing else escapes."""
    from shashki.protocols import dxp

    board = shashki.Board(variant="international")
    request = dxp.game_request("fuzz", rng.random() < 0.5, 5, 0, board)
    samples = [text, mutate(request, rng, rng.randint(1, 4))]
    move = rng.choice(list(board.legal_moves))
    samples.append(mutate(dxp.move_message(move, 1.5), rng, rng.randint(1, 3)))
    for sample in samples:
        try:
            message = dxp.parse_message(sample)
        except dxp.DxpError as error:
            assert str(error)
            continue
        try:
            if isinstance(message, dxp.GameRequest) and message.position is not None:
                dxp.board_from_dxp(*message.position, "international")
            elif isinstance(message, dxp.MoveMessage):
                assert dxp.move_from_dxp(board, message) in board.legal_moves
        except dxp.DxpError as error:
            assert str(error)


# ---- the web board's JSON --------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(alphabet=FORMAT_CHARS + "éЖ", max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
GAME_KEYS = st.sampled_from(["fen", "variant", "captures_optional", "moves", "x"])


@given(
    st.dictionaries(GAME_KEYS, JSON_VALUES | st.sampled_from(shashki.VARIANTS), max_size=5),
    st.dictionaries(st.sampled_from(["time", "depth", "nodes", "clock", "inc"]), JSON_VALUES),
    st.randoms(use_true_random=False),
)
def test_fuzz_web_board_json(game: dict, level: dict, rng: random.Random) -> None:
    """What the web board's pages post (a game and a level, as JSON text) is read or refused
    with a BadRequest (a ValueError, the page's 400): never another exception."""
    import json

    pytest.importorskip("starlette")
    from shashki.apps.web.validation import BadRequest, _json, parse_game, parse_level

    real = json.dumps(
        {"game": {"variant": "russian", "moves": ["c3-d4", "f6-g5"]}, "level": {"time": 0.5}}
    )
    for raw in (json.dumps({"game": game, "level": level}), mutate(real, rng, rng.randint(1, 5))):
        try:
            body = _json(raw, "the body")
            if not isinstance(body, dict):
                continue
            parse_game(body.get("game"))
            parse_level(body.get("level"))
        except BadRequest as error:
            assert str(error)
