"""The network evaluation: its inputs, its export to the Rust format (integers equal to
numpy's), files refused with a reason, the engine using it, and the training command end to
end. Strength is measured by matches (docs/search.md), never here."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import numpy as np
import pytest
import shashki
from hypothesis import given, settings
from shashki import _core
from shashki.engine import Engine, Limit
from shashki.learn import network as nn
from strategies import positions

ROOT = Path(__file__).parents[1]


def _random_fens(count: int, seed: int, variant: str = "russian", longest: int = 60) -> list[str]:
    """``count`` positions of ``variant`` up to ``longest`` random plies from the start."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        board = shashki.Board(variant=variant)
        for _ in range(rng.randint(0, longest)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        out.append(board.fen())
    return out


@settings(max_examples=100)
@given(positions())
def test_inputs_are_each_sides_pieces_from_its_own_side(fen: str) -> None:
    board = shashki.Board(fen)
    raw, white = _core.piece_sets([fen])
    pieces = np.frombuffer(raw, dtype="<u8").reshape(1, 4)
    own, other = nn.inputs(pieces, np.array(white))
    # Written out square by square from the board, independently of the bit tricks.
    expected = {True: np.zeros(128, np.uint8), False: np.zeros(128, np.uint8)}
    for square in range(32):
        piece = board.piece_at(square)
        if piece is None:
            continue
        for view in (True, False):  # White's view, Black's view
            mine = piece.color == view
            kind = (0 if mine else 2) + (1 if piece.king else 0)
            index = square if view else 31 - square
            expected[view][kind * 32 + index] = 1
    assert (own[0] == expected[board.turn]).all()
    assert (other[0] == expected[not board.turn]).all()


@pytest.fixture(scope="module")
def small_network() -> tuple[bytes, nn.Weights, list[str]]:
    fens = _random_fens(300, seed=5)
    rng = np.random.default_rng(3)
    results = rng.integers(-1, 2, size=len(fens))
    raw, white = _core.piece_sets(fens)
    data = nn.Data(
        pieces=np.frombuffer(raw, dtype="<u8").reshape(len(fens), 4),
        white=np.array(white),
        result=results.astype(np.int8),
        score=None,
        variant="russian",
    )
    weights, held, trained = nn.train(data, scale=130, epochs=2, batch=64, progress=False)
    assert np.isfinite(held) and np.isfinite(trained)
    return nn.to_bytes(weights, "russian", 130), weights, fens


def test_the_rust_evaluation_equals_numpys_integers(small_network) -> None:
    blob, weights, fens = small_network
    raw, white = _core.piece_sets(fens)
    own, other = nn.inputs(np.frombuffer(raw, dtype="<u8").reshape(len(fens), 4), white)
    expected = nn.integer_evaluate(weights, own, other, 130)
    assert _core.evaluate_network(fens, blob) == expected.tolist()
    # and the integers stay close to the float network they quantise
    logits, _ = nn.forward(weights, own.astype(np.float32), other.astype(np.float32))
    assert np.max(np.abs(expected - logits * 130)) < 60


def test_the_engine_reads_a_network_file(small_network, tmp_path) -> None:
    blob, _, _ = small_network
    path = tmp_path / "small.nnue"
    path.write_bytes(blob)
    engine = Engine(hash_mb=1, evaluation=str(path))
    assert engine.evaluation == str(path)
    board = shashki.Board()
    info = engine.analyse(board, Limit(depth=4))
    assert info["pv"] and info["pv"][0] in board.legal_moves
    # a position of another game is evaluated by that game's own evaluation
    english = shashki.Board(variant="english")
    assert engine.play(english, Limit(depth=3)).move in english.legal_moves


def test_bad_network_files_are_refused_with_the_reason(small_network, tmp_path) -> None:
    blob, _, _ = small_network
    cases = {
        "checksum": blob[:50] + bytes([blob[50] ^ 1]) + blob[51:],
        "SHNN": b"not a network file at all",
    }
    # a well-formed file of another shape: the sizes rewritten and the checksum redone
    body = bytearray(blob[:-8])
    name_len = body[8]
    struct.pack_into("<I", body, 9 + name_len + 4, 64)  # hidden 64
    cases["shape"] = bytes(body) + struct.pack("<Q", nn.fnv1a(bytes(body)))
    for reason, data in cases.items():
        path = tmp_path / f"{reason}.nnue"
        path.write_bytes(data)
        with pytest.raises(ValueError, match=reason):
            Engine(hash_mb=1, evaluation=str(path))
        with pytest.raises(ValueError, match=reason):
            _core.evaluate_network(["W:W21:B1"], data)
    with pytest.raises(ValueError, match="network file"):
        Engine(hash_mb=1, evaluation=str(tmp_path / "missing.nnue"))


@settings(max_examples=100)
@given(positions())
def test_the_shipped_network_is_colour_symmetric(fen: str) -> None:
    mirrored = shashki.Board(fen).mirror().fen()
    assert _core.evaluate_fens([fen], "network") == _core.evaluate_fens([mirrored], "network")


def test_the_shipped_network_plays() -> None:
    engine = Engine(hash_mb=1, evaluation="network")
    assert engine.evaluation == "network"
    board = shashki.Board()
    info = engine.analyse(board, Limit(depth=6))
    assert info["pv"][0] in board.legal_moves
    # a known ending keeps the known score (material decides it, not the network)
    for fen in ("W:WK1,K10,K19,K28:BK32", "B:WK1,K10:BK32"):
        assert _core.evaluate_fens([fen], "network") == _core.evaluate_fens([fen], "learned")


def test_the_training_command_end_to_end(tmp_path) -> None:
    from shashki.learn import train

    data = tmp_path / "positions.npz"
    assert (
        train.main(
            [
                "network",
                "data",
                "--games",
                "6",
                "--nodes",
                "60",
                "--out",
                str(data),
                "--label-depth",
                "2",
                "--threads",
                "1",
            ]
        )
        == 0
    )
    loaded = nn.load_data([data])
    assert len(loaded) > 50 and loaded.score is not None and loaded.variant == "russian"
    assert set(np.unique(loaded.result)) <= {-1, 0, 1}
    out = tmp_path / "net.nnue"
    assert (
        train.main(
            [
                "network",
                "fit",
                str(data),
                "--epochs",
                "1",
                "--score-share",
                "0.5",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    engine = Engine(hash_mb=1, evaluation=str(out))
    assert engine.play(shashki.Board(), Limit(depth=3)).move is not None


def test_selfplay_text_files_convert(tmp_path) -> None:
    from shashki.learn import train

    fens = _random_fens(20, seed=9)
    text = tmp_path / "positions.txt"
    text.write_text(
        "".join(
            f"{fen}\t{r}\t{s}\n"
            for fen, r, s in zip(fens, ["1.0", "0.5", "0.0", "0.5"] * 5, range(-10, 10))
        ),
        encoding="utf-8",
    )
    out = tmp_path / "positions.npz"
    assert train.main(["network", "convert", str(text), "--out", str(out)]) == 0
    data = nn.load_data([out])
    assert data.result.tolist() == [1, 0, -1, 0] * 5
    assert data.score is not None and data.score.tolist() == list(range(-10, 10))
    raw, _ = _core.piece_sets(fens)
    assert (data.pieces == np.frombuffer(raw, dtype="<u8").reshape(20, 4)).all()
    with np.load(out) as saved:
        assert 40 <= float(saved["scale"]) <= 600  # the learned evaluation's fitted scale
    text.write_text("W:W21:B1\twon\n", encoding="utf-8")
    with pytest.raises(ValueError, match="positions.txt:1"):
        nn.convert_text(text, out)


def test_the_loop_runs_generations_and_resumes(tmp_path) -> None:
    from shashki.learn import train

    args = [
        "network",
        "loop",
        "--games",
        "4",
        "--nodes",
        "40",
        "--epochs",
        "1",
        "--generations",
        "2",
        "--threads",
        "1",
        "--dir",
        str(tmp_path),
    ]
    assert train.main(args) == 0
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == ["data-0.npz", "data-1.npz", "network-0.nnue", "network-1.nnue"]
    stamps = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    (tmp_path / "network-1.nnue").unlink()  # interrupted before the last fit
    assert train.main(args) == 0
    assert all(
        (tmp_path / name).stat().st_mtime_ns == stamp
        for name, stamp in stamps.items()
        if name != "network-1.nnue"
    )
    engine = Engine(hash_mb=1, evaluation=str(tmp_path / "network-1.nnue"))
    assert engine.play(shashki.Board(), Limit(depth=2)).move is not None


def test_self_play_over_an_executor_gives_the_same_data(tmp_path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    here, spread = tmp_path / "here.npz", tmp_path / "spread.npz"
    common = {"evaluation": "learned", "seed": 4, "label_depth": 2, "threads": 1, "chunk": 3}
    n = nn.self_play("russian", 7, 40, here, **common)
    with ThreadPoolExecutor(2) as pool:
        assert nn.self_play("russian", 7, 40, spread, executor=pool, **common) == n
    a, b = nn.load_data([here]), nn.load_data([spread])
    assert (a.pieces == b.pieces).all() and (a.result == b.result).all()
    assert a.score is not None and b.score is not None and (a.score == b.score).all()


@pytest.mark.parametrize("variant", ["international", "turkish", "english"])
def test_other_boards_inputs_are_each_sides_pieces_square_by_square(variant: str) -> None:
    squares = shashki.SQUARE_COUNTS[variant]
    assert nn.inputs_of(variant) == 4 * squares
    fens = _random_fens(30, seed=2, variant=variant, longest=90)
    raw, white = _core.piece_sets(fens, variant=variant)
    own, other = nn.inputs(np.frombuffer(raw, dtype="<u8").reshape(len(fens), 4), white, squares)
    for row, fen in enumerate(fens):
        board = shashki.Board(fen, variant=variant)
        expected = {True: np.zeros(4 * squares, np.uint8), False: np.zeros(4 * squares, np.uint8)}
        for square in range(squares):
            piece = board.piece_at(square)
            if piece is None:
                continue
            for view in (True, False):
                kind = (0 if piece.color == view else 2) + (1 if piece.king else 0)
                index = square if view else squares - 1 - square
                expected[view][kind * squares + index] = 1
        assert (own[row] == expected[board.turn]).all()
        assert (other[row] == expected[not board.turn]).all()


def test_the_twelve_by_twelve_board_has_no_network_yet() -> None:
    with pytest.raises(ValueError, match="72 squares"):
        nn.inputs_of("canadian")


@pytest.mark.parametrize("variant", ["international", "english"])
def test_the_pipeline_trains_another_games_network(variant: str, tmp_path) -> None:
    data = tmp_path / "positions.npz"
    n = nn.self_play(variant, 3, 40, data, label_depth=2, threads=1, seed=3)
    loaded = nn.load_data([data])
    assert n == len(loaded) > 30 and loaded.variant == variant
    weights, held, _ = nn.train(loaded, scale=130, epochs=1, batch=64, progress=False)
    assert weights.w1.shape[0] == nn.inputs_of(variant) and np.isfinite(held)
    blob = nn.to_bytes(weights, variant, 130)
    fens = _random_fens(40, seed=8, variant=variant, longest=90)
    raw, white = _core.piece_sets(fens, variant=variant)
    own, other = nn.inputs(
        np.frombuffer(raw, dtype="<u8").reshape(len(fens), 4),
        white,
        shashki.SQUARE_COUNTS[variant],
    )
    expected = nn.integer_evaluate(weights, own, other, 130)
    assert _core.evaluate_network(fens, blob) == expected.tolist()
    path = tmp_path / f"{variant}.nnue"
    path.write_bytes(blob)
    engine = Engine(hash_mb=1, evaluation=str(path))
    board = shashki.Board(variant=variant)
    assert engine.play(board, Limit(depth=3)).move in board.legal_moves
    # a network of one game is refused as another game's export
    with pytest.raises(ValueError, match="inputs"):
        nn.to_bytes(weights, "russian" if variant != "english" else "international", 130)


@pytest.mark.parametrize("variant", ["english", "italian", "international"])
def test_a_games_learned_evaluation_is_its_network_where_that_won(variant: str) -> None:
    # English, Italian and International draughts' networks beat their linear (family)
    # evaluations
    # (docs/search.md), so their default evaluation, "learned", is the network; "family"
    # stays selectable.
    fens = _random_fens(40, seed=12, variant=variant, longest=90)
    learned = _core.evaluate_fens(fens, "learned", variant=variant)
    assert learned == _core.evaluate_fens(fens, "network", variant=variant)
    assert learned != _core.evaluate_fens(fens, "family", variant=variant)
    # the engine's default searches with it: the same result as asking for the network
    board = shashki.Board(variant=variant)
    default = Engine(hash_mb=1).analyse(board, Limit(depth=7))
    network = Engine(hash_mb=1, evaluation="network").analyse(board, Limit(depth=7))
    family = Engine(hash_mb=1, evaluation="family").analyse(board, Limit(depth=7))
    assert (default["pv"], default["nodes"]) == (network["pv"], network["nodes"])
    assert (default["pv"], default["nodes"]) != (family["pv"], family["nodes"])
    # Russian draughts keeps its linear evaluation as the default
    russian = _random_fens(20, seed=4)
    assert _core.evaluate_fens(russian, "learned") != _core.evaluate_fens(russian, "network")


def test_a_network_file_reads_back_to_the_weights_it_was_written_from() -> None:
    """``from_bytes`` inverts ``to_bytes`` up to the quantisation: written again, the same
    bytes (so a fit can go on from a shipped network)."""
    weights = nn.Weights.initial(seed=5, inputs=nn.inputs_of("international"))
    blob = nn.to_bytes(weights, "international", 173.0)
    again, game, scale = nn.from_bytes(blob)
    assert (game, scale) == ("international", 173.0)
    assert nn.to_bytes(again, game, scale) == blob
    shipped = (ROOT / "data" / "networks" / "international.bin").read_bytes()
    back, game, scale = nn.from_bytes(shipped)
    assert game == "international" and nn.to_bytes(back, game, scale) == shipped
    with pytest.raises(ValueError, match="checksum"):
        nn.from_bytes(blob[:-1] + bytes([blob[-1] ^ 1]))
    with pytest.raises(ValueError, match="SHNN"):
        nn.from_bytes(b"PK\x03\x04" + blob[4:])


def test_a_fit_goes_on_from_a_network(tmp_path) -> None:
    from shashki.learn import train

    data = tmp_path / "positions.npz"
    args = ["network", "data", "--games", "4", "--nodes", "60", "--threads", "1"]
    assert train.main([*args, "--out", str(data)]) == 0
    start = tmp_path / "start.nnue"
    start.write_bytes((ROOT / "data" / "networks" / "russian.bin").read_bytes())
    out = tmp_path / "net.nnue"
    fit = ["network", "fit", str(data), "--epochs", "1", "--out", str(out), "--start", str(start)]
    assert train.main(fit) == 0
    # The best epoch is kept, the start among them: never worse on the held-out positions.
    _, game, scale = nn.from_bytes(out.read_bytes())
    assert game == "russian" and scale == nn.from_bytes(start.read_bytes())[2]
    english = tmp_path / "english.nnue"
    english.write_bytes((ROOT / "data" / "networks" / "english.bin").read_bytes())
    with pytest.raises(SystemExit, match="english"):
        train.main([*fit[:-2], "--start", str(english)])


@pytest.mark.parametrize("variant", ["international", "russian"])
def test_block_keys_are_each_blocks_men_square_by_square(variant: str) -> None:
    """A block's state, written out from the board square by square: the k-th square its
    k-th base-3 digit, 1 the side to move's man, 2 the other side's, kings as empty, Black's
    squares turned half round."""
    squares = shashki.SQUARE_COUNTS[variant]
    blocks = nn.blocks_of(variant)
    assert len(blocks) == {50: 16, 32: 9}[squares]
    # eight squares each, two on each of four ranks; the set the same turned half round
    assert all(len(set(block)) == nn.BLOCK_SQUARES for block in blocks)
    turned = {tuple(sorted(squares - 1 - s for s in block)) for block in blocks}
    assert turned == {tuple(sorted(block)) for block in blocks}
    assert set().union(*blocks) == set(range(squares))
    fens = _random_fens(25, seed=6, variant=variant, longest=90)
    raw, white = _core.piece_sets(fens, variant=variant)
    own, _ = nn.inputs(np.frombuffer(raw, dtype="<u8").reshape(len(fens), 4), white, squares)
    keys = nn.block_keys(own, blocks)
    for row, fen in enumerate(fens):
        board = shashki.Board(fen, variant=variant)
        for b, block in enumerate(blocks):
            key = 0
            for k, index in enumerate(block):
                square = index if board.turn else squares - 1 - index
                piece = board.piece_at(square)
                if piece is not None and not piece.king:
                    key += 3**k * (1 if piece.color == board.turn else 2)
            assert keys[row, b] == key


@pytest.mark.parametrize("variant", ["international", "russian"])
def test_a_network_with_blocks_evaluates_as_numpys_integers(variant: str) -> None:
    squares = shashki.SQUARE_COUNTS[variant]
    blocks = nn.blocks_of(variant)
    weights = nn.Weights.initial(seed=2, inputs=4 * squares).with_blocks(len(blocks))
    assert weights.p is not None and not weights.p.any()
    weights.p = (np.random.default_rng(4).standard_normal(weights.p.shape) * 0.3).astype(np.float32)
    blob = nn.to_bytes(weights, variant, 150)
    assert struct.unpack_from("<I", blob, 4)[0] == nn.PATTERN_VERSION
    fens = _random_fens(60, seed=9, variant=variant, longest=90)
    raw, white = _core.piece_sets(fens, variant=variant)
    own, other = nn.inputs(np.frombuffer(raw, dtype="<u8").reshape(len(fens), 4), white, squares)
    keys = nn.block_keys(own, blocks)
    expected = nn.integer_evaluate(weights, own, other, 150, keys)
    assert _core.evaluate_network(fens, blob) == expected.tolist()
    # the blocks count: without them the same network evaluates otherwise
    plain = nn.Weights(*(getattr(weights, k) for k in ["w1", "b1", "w2", "b2", "w3", "b3"]))
    assert _core.evaluate_network(fens, nn.to_bytes(plain, variant, 150)) != expected.tolist()
    # read back, written again: the same bytes
    again, game, scale = nn.from_bytes(blob)
    assert game == variant and nn.to_bytes(again, game, scale) == blob
    # a block on a square off the board is refused with the reason, by Rust and by Python
    body = bytearray(blob[:-8])
    at = len(body) - len(blocks) * nn.BLOCK_STATES * 2 - len(blocks) * nn.BLOCK_SQUARES
    body[at] = 200
    bad = bytes(body) + struct.pack("<Q", nn.fnv1a(bytes(body)))
    with pytest.raises(ValueError, match="off the board"):
        _core.evaluate_network(fens[:1], bad)
    with pytest.raises(ValueError, match="blocks"):
        nn.from_bytes(bad)


def test_a_fit_adds_blocks_to_a_network_from_where_it_was(tmp_path) -> None:
    """``fit --start NET --blocks``: the blocks start at zero, so the first held-out loss is
    the network's own, and the best epoch is never worse; the engine plays with the file."""
    fens = _random_fens(400, seed=12, variant="international", longest=90)
    raw, white = _core.piece_sets(fens, variant="international")
    rng = np.random.default_rng(5)
    data = nn.Data(
        pieces=np.frombuffer(raw, dtype="<u8").reshape(len(fens), 4),
        white=np.array(white),
        result=rng.integers(-1, 2, size=len(fens)).astype(np.int8),
        score=None,
        variant="international",
    )
    start, _, scale = nn.from_bytes((ROOT / "data" / "networks" / "international.bin").read_bytes())
    _, before, _ = nn.train(data, scale=scale, epochs=0, start=start, progress=False)
    fitted, held, _ = nn.train(
        data, scale=scale, epochs=2, batch=64, start=start, blocks=True, progress=False
    )
    assert fitted.p is not None and fitted.p.shape == (16, nn.BLOCK_STATES)
    assert held <= before
    path = tmp_path / "blocks.nnue"
    path.write_bytes(nn.to_bytes(fitted, "international", scale))
    board = shashki.Board(variant="international")
    engine = Engine(hash_mb=1, evaluation=str(path))
    assert engine.play(board, Limit(depth=3)).move in board.legal_moves
