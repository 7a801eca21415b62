"""The learned evaluation and its training command: behaviour, not
strength (strength is measured by matches: the docs' engine page)."""

from __future__ import annotations

from pathlib import Path

import pytest
import shashki
from hypothesis import given, settings
from shashki import _core
from shashki.engine import Engine, Limit
from strategies import positions


@settings(max_examples=200)
@given(positions())
def test_learned_evaluation_is_colour_symmetric(fen: str) -> None:
    board = shashki.Board(fen)
    mirrored = board.mirror().fen()
    for kind in ("learned", "classic"):
        assert _core.evaluate_fens([fen], kind) == _core.evaluate_fens([mirrored], kind)


@settings(max_examples=100)
@given(positions())
def test_features_are_the_side_to_moves_minus_the_opponents(fen: str) -> None:
    import struct

    n = 2 * _core.EVAL_SIDE_FEATURES
    raw = _core.eval_features([fen, shashki.Board(fen).mirror().fen()])
    values = struct.unpack(f"<{2 * n}f", raw)
    assert values[:n] == values[n:]


def test_feature_names_and_counts() -> None:
    names = [_core.eval_feature_name(i) for i in range(_core.EVAL_SIDE_FEATURES)]
    assert names[0] == "man a1" and names[32] == "king a1"
    assert "runaway men" in names and "side to move" in names
    assert len(set(names)) == len(names)


def test_engine_evaluation_option() -> None:
    assert Engine(hash_mb=1).evaluation == "learned"
    engine = Engine(hash_mb=1, evaluation="classic")
    assert engine.evaluation == "classic"
    info = engine.analyse(shashki.Board(), Limit(depth=3))
    assert info["pv"]
    try:
        Engine(hash_mb=1, evaluation="neural")
    except ValueError as error:
        assert "learned" in str(error)
    else:
        raise AssertionError("an unknown evaluation was accepted")


def test_training_command_end_to_end(tmp_path) -> None:

    import numpy  # noqa: F401  # the training extra
    from shashki.learn import train

    data = tmp_path / "positions.txt"
    count = train.selfplay(6, 300, str(data), workers=1, seed=3)
    lines = data.read_text(encoding="utf-8").splitlines()
    assert count == len(lines) > 20
    for line in lines:
        fen, score = line.split("\t")
        board = shashki.Board(fen)
        assert not board.has_captures()
        assert float(score) in (0.0, 0.5, 1.0)
    # The batch search's labels: a third column, the same whatever the threads.
    labelled = [tmp_path / "one.txt", tmp_path / "two.txt"]
    for threads, path in zip((1, 2), labelled):
        assert train.label(str(data), str(path), 3, workers=threads, chunk=7) == count
    assert labelled[0].read_text(encoding="utf-8") == labelled[1].read_text(encoding="utf-8")
    for line, row in zip(lines, labelled[0].read_text(encoding="utf-8").splitlines()):
        fen, score, cp = row.split("\t")
        assert line == f"{fen}\t{score}" and -1000 <= int(cp) <= 1000
    out = tmp_path / "weights.bin"
    assert train.main(["fit", str(labelled[0]), "--out", str(out), "--epochs", "3"]) == 0
    scale, mid, end, patterns, checksum = train.read_weights(out)
    n = _core.EVAL_SIDE_FEATURES
    assert scale == train.SCALE and len(mid) == len(end) == n
    assert _core.EVAL_PATTERN_WEIGHTS == _core.EVAL_REGIONS * _core.EVAL_REGION_KEYS + 9 * 3**8
    assert len(patterns) == _core.EVAL_PATTERN_WEIGHTS
    # The file records the checksum of the weights it holds, and its provenance beside it.
    assert checksum == train.weights_checksum(mid, end, patterns)
    assert "learned evaluation" in out.with_suffix(".txt").read_text(encoding="utf-8")


def test_the_shipped_weights_file_is_what_the_core_compiled(tmp_path) -> None:
    from pathlib import Path

    from shashki.learn import train

    shipped = Path(__file__).parents[1] / "data" / "weights" / "learned.bin"
    scale, mid, end, patterns, checksum = train.read_weights(shipped)
    assert checksum == _core.EVAL_WEIGHTS_CHECKSUM
    assert (mid, end, patterns) == tuple(list(w) for w in _core.eval_weights())
    damaged = bytearray(shipped.read_bytes())
    damaged[100] ^= 1
    bad = tmp_path / "learned.bin"
    bad.write_bytes(bytes(damaged))
    with pytest.raises(ValueError, match="checksum"):
        train.read_weights(bad)


def test_the_earlier_process_pool_method_still_runs(tmp_path) -> None:
    """``--method pool`` (the loop the shipped weights' data came from) writes the same
    kind of file."""
    from shashki.learn import train

    data, labelled = tmp_path / "positions.txt", tmp_path / "labelled.txt"
    assert (
        train.main(
            ["selfplay", "--games", "2", "--nodes", "200", "--method", "pool"]
            + ["--workers", "1", "--out", str(data)]
        )
        == 0
    )
    count = len(data.read_text(encoding="utf-8").splitlines())
    assert count > 10
    assert train.label(str(data), str(labelled), 2, workers=1, method="pool") == count
    assert all(len(row.split("\t")) == 3 for row in labelled.read_text().splitlines())
    with pytest.raises(ValueError, match="method"):
        train.selfplay(1, 100, str(data), method="threads")


def test_the_shipped_weights_match_their_checksum() -> None:
    from shashki.learn import train

    mid, end, patterns = shashki._core.eval_weights()
    assert len(mid) == len(end) == shashki._core.EVAL_SIDE_FEATURES
    assert len(patterns) == shashki._core.EVAL_PATTERN_WEIGHTS
    recorded = shashki._core.EVAL_WEIGHTS_CHECKSUM
    assert shashki._core.eval_weights_checksum() == recorded
    assert train.weights_checksum(mid, end, patterns) == recorded
    assert train.weights_checksum([mid[0] + 1, *mid[1:]], end, patterns) != recorded
    assert train.weights_checksum(mid, end, [*patterns[:-1], patterns[-1] - 1]) != recorded


# ---- the family evaluation (the 10×10 games) -----------------------------------------------


def test_family_features_are_colour_symmetric_and_weigh_to_the_evaluation() -> None:
    """The features of a 10×10 position are the side to move's counts minus the
    opponent's (so the mirrored position, seen from its own side to move, has the same),
    and the engine's static evaluation is their dot product with the game's weights."""
    import random
    import struct

    rng = random.Random(4)
    names = _core.FAMILY_FEATURE_NAMES
    weights = _core.family_weights(variant="international")
    assert len(weights) == len(names) == 16
    board = shashki.Board(variant="international")
    for _ in range(60):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        fens = [board.fen(), board.mirror().fen()]
        raw, captures = _core.family_features(fens, variant="international")
        values = struct.unpack(f"<{2 * len(names)}i", raw)
        own, mirrored = values[: len(names)], values[len(names) :]
        assert own == mirrored
        assert captures[0] == board.has_captures()
        value = sum(f * w for f, w in zip(own, weights))
        for kind in ("classic", "family"):  # "learned" is its network now
            assert _core.evaluate_fens([fens[0]], kind, variant="international") == [value]


def test_family_training_command_end_to_end(tmp_path, monkeypatch) -> None:
    from shashki.learn import train

    features, results = train.family_data("international", games=12, nodes=100, noise=0.2, seed=3)
    assert len(features) == len(results) > 100
    assert set(results.tolist()) <= {0.0, 0.5, 1.0}
    start = _core.family_weights(variant="international")
    weights, scale, before, after = train.fit_family(features, results, start, epochs=50)
    assert weights[0] == 100 and len(weights) == 16 and scale > 0
    assert after <= before + 0.01
    path = tmp_path / "family.txt"
    train.write_family_weights("international", weights, "a test", path)
    train.write_family_weights("killer", start, "another", path)
    lines = [line for line in path.read_text().splitlines() if not line.startswith("#")]
    rows = {line.split()[0]: line for line in lines if line}
    assert rows["international"].split("#")[0].split()[1:] == [str(int(w)) for w in weights]
    assert rows["international"].endswith("# a test") and "killer" in rows
    # Writing a row again replaces it and keeps the other.
    train.write_family_weights("international", start, "again", path)
    text = path.read_text()
    assert text.count("\ninternational ") == 1 and "\nkiller " in text
    with pytest.raises(ValueError, match="16"):
        train.write_family_weights("killer", [1, 2, 3], "short", path)


def test_the_shipped_family_weights_are_what_the_core_compiled_in() -> None:
    """data/weights/family.txt, read as the writer writes it, is the core's table."""
    from shashki.learn import train

    path = Path(__file__).parents[1] / train.FAMILY_WEIGHTS_PATH
    games = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, *values = line.split("#")[0].split()
        assert _core.family_weights(variant=name) == [int(v) for v in values], name
        games += 1
    assert games >= 10


def test_the_family_evaluation_is_an_engine_choice_for_every_game() -> None:
    import struct

    for variant in ("russian", "english", "italian", "international"):
        board = shashki.Board(variant=variant)
        board.push(next(iter(board.legal_moves)))
        raw, _ = _core.family_features([board.fen()], variant=variant)
        features = struct.unpack(f"<{len(_core.FAMILY_FEATURE_NAMES)}i", raw)
        weights = _core.family_weights(variant=variant)
        value = sum(f * w for f, w in zip(features, weights))
        assert _core.evaluate_fens([board.fen()], "family", variant=variant) == [value]
        engine = Engine(hash_mb=1, evaluation="family")
        assert engine.evaluation == "family"
        assert engine.play(board, Limit(depth=3)).move in board.legal_moves
    with pytest.raises(ValueError, match="family"):
        Engine(hash_mb=1, evaluation="nonsense")
