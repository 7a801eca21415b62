"""Fit the learned evaluation to self-play results.

    python -m shashki.learn.train selfplay --games 40000 --nodes 3000 --evaluation learned \
        --seed 2 --out positions.txt
    python -m shashki.learn.train label positions.txt --depth 8 --evaluation learned \
        --out labelled.txt
    python -m shashki.learn.train fit labelled.txt --epochs 20   # data/weights/learned.bin
    pip install . && python -m shashki.match --a shashki --b "hub:OLD_BUILD -m shashki hub" ...

``selfplay`` plays the engine against itself (``--evaluation``: the hand-set ``classic``
one, the default, or the ``learned`` one compiled in, for a next generation) from the
built-in openings plus random plies (at fixed nodes, both colours, the variant's draw
rules; a few random moves mixed in for variety) and writes the quiet positions (no capture
for the side to move) with the game's result from the side to move's view: one
``FEN<TAB>score`` line each, score 1, 0.5 or 0. ``label`` adds a deeper search's score as a
third column. Both run in Rust through the batch API (``shashki.learn.batch``) on every core, or
over a Dask cluster with ``--scheduler tcp://HOST:8786``; ``--method pool`` is the earlier
loop (one Python game or search at a time in worker processes, classic only), the one the
first generation's data came from.
``fit`` computes each position's features in the Rust core (``shashki._core.eval_features``),
fits the weights by logistic regression on the results (Texel's method: the predicted score
is ``1 / (1 + exp(-eval / scale))``; the scale is fitted to the classic evaluation first, so
the weights stay in centi-men), and writes them as Rust constants. numpy is needed for
``fit`` and the batch method (``pip install "shashki[train]"``); nothing here is imported by
``import shashki``.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Optional

import shashki
from shashki import _core

SIDE_FEATURES = _core.EVAL_SIDE_FEATURES
PATTERN_WEIGHTS = _core.EVAL_PATTERN_WEIGHTS
SCALE = 16  # the weights are stored in 1/16 centi-men
WEIGHTS_PATH = Path("data/weights/learned.bin")


# ---- self-play ------------------------------------------------------------------------------


def _play_one(args: tuple[int, int, float, int]) -> list[tuple[str, float]]:
    """One self-play game: the quiet positions with the result from the mover's view."""
    seed, nodes, noise, random_plies = args
    from shashki.engine import Engine, Limit
    from shashki.openings import BUILTIN_OPENINGS

    rng = random.Random(seed)
    engine = _ENGINES.get(nodes)
    if engine is None:
        engine = _ENGINES[nodes] = Engine(hash_mb=16, evaluation="classic")
    engine.new_game()
    game = shashki.Game()
    for text in rng.choice(BUILTIN_OPENINGS).split():
        game.push_move(text)
    for _ in range(rng.randint(0, random_plies)):
        moves = list(game.current_board.legal_moves)
        if not moves or game.is_game_over():
            break
        game.push(rng.choice(moves))
    positions: list[tuple[str, bool]] = []
    while not game.is_game_over() and game.ply() < MAX_PLIES:
        board = game.current_board
        legal = list(board.legal_moves)
        if not board.has_captures() and game.ply() >= 6:
            positions.append((board.fen(), board.turn))
        move: Optional[shashki.Move]
        if rng.random() < noise:
            move = rng.choice(legal)
        else:
            move = engine.play(game, Limit(nodes=nodes)).move
        assert move is not None
        game.push(move)
    outcome = game.outcome()
    winner = None if outcome is None else outcome.winner
    out = []
    for fen, turn in positions:
        score = 0.5 if winner is None else (1.0 if winner == turn else 0.0)
        out.append((fen, score))
    return out


_ENGINES: dict[int, Any] = {}


def _openings(games: int, seed: int, random_plies: int) -> list[tuple[str, int]]:
    """Each game's first position (FEN) and its plies from the start: a built-in opening
    then up to ``random_plies`` random plies, game ``i`` drawn from ``seed`` and ``i``."""
    from shashki.openings import BUILTIN_OPENINGS

    out = []
    for i in range(games):
        rng = random.Random(seed * 1_000_003 + i)
        board = shashki.Board()
        for text in rng.choice(BUILTIN_OPENINGS).split():
            board.push_move(text)
        for _ in range(rng.randint(0, random_plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        out.append((board.fen(), board.ply()))
    return out


def _selfplay_batch(
    job: tuple[list[tuple[str, int]], int, float, int, Optional[int], str],
) -> list[tuple[str, float]]:
    """Games from ``starts`` played by the Rust batch playouts (``shashki.learn.batch``): the
    quiet positions from the sixth ply on, with the result from the side to move's view."""
    starts, nodes, noise, seed, threads, evaluation = job
    from shashki.learn.batch import playouts

    played = playouts(
        len(starts),
        fens=[fen for fen, _ in starts],
        seed=seed,
        threads=threads,
        max_plies=MAX_PLIES - min(plies for _, plies in starts),
        policy="engine",
        nodes=nodes,
        noise=noise,
        evaluation=evaluation,
        positions=True,
    )
    out = []
    ply_in_game = 0
    previous = -1
    for fen, game in zip(played.fens, played.games.tolist()):
        ply_in_game = ply_in_game + 1 if game == previous else 0
        previous = game
        if starts[game][1] + ply_in_game < 6:
            continue
        board = shashki.Board(fen)
        if board.has_captures():
            continue
        result = int(played.results[game])  # 1 White won, -1 Black won, else a draw
        white = board.turn == shashki.WHITE
        score = 0.5 if result not in (1, -1) else (1.0 if (result == 1) == white else 0.0)
        out.append((fen, score))
    return out


MAX_PLIES = 250
"""A self-play game stops here (a draw for the positions it wrote)."""


def _progress(total: int, unit: str) -> Any:
    """The commands' one progress display (``shashki._progress``)."""
    from shashki._progress import Progress

    return Progress(total, unit)


def selfplay(
    games: int,
    nodes: int,
    out: str,
    *,
    noise: float = 0.03,
    random_plies: int = 6,
    workers: Optional[int] = None,
    seed: int = 1,
    method: str = "batch",
    executor: object = None,
    chunk: int = 64,
    evaluation: str = "classic",
) -> int:
    """Play ``games`` games and write their positions to ``out``; returns the count.

    ``method="batch"``: the games are played in Rust (``shashki.learn.batch.playouts``), ``chunk``
    games a task, on ``workers`` threads (all cores by default), or spread over a Dask
    cluster when ``executor`` is a ``distributed.Client`` (or any ``Executor``); the engine
    plays with ``evaluation`` (``"classic"``, or ``"learned"``: the weights compiled in, for
    a next generation of data). ``method="pool"``: the earlier loop, one Python game at a
    time in worker processes (classic only; the first generation's data came from it)."""
    if method == "pool":
        return _selfplay_pool(games, nodes, out, noise, random_plies, workers, seed)
    if method != "batch":
        raise ValueError(f"method must be 'batch' or 'pool', not {method!r}")
    starts = _openings(games, seed, random_plies)
    jobs = [
        (starts[i : i + chunk], nodes, noise, seed * 1_000_003 + i, workers, evaluation)
        for i in range(0, games, chunk)
    ]
    written = done = 0
    progress = _progress(games, "games")
    with open(out, "w", encoding="utf-8") as handle:
        for job, positions in zip(jobs, _map(_selfplay_batch, jobs, executor)):
            for fen, score in positions:
                handle.write(f"{fen}\t{score}\n")
            written += len(positions)
            done += len(job[0])
            progress.update(done, detail=f"{written} positions")
    progress.close()
    return written


def _map(function: Any, jobs: list[Any], executor: object) -> Any:
    """:func:`shashki.distributed.map_jobs` (``function`` over ``jobs``, here or on
    ``executor``)."""
    from shashki.distributed import map_jobs

    return map_jobs(function, jobs, executor)


def _selfplay_pool(
    games: int,
    nodes: int,
    out: str,
    noise: float,
    random_plies: int,
    workers: Optional[int],
    seed: int,
) -> int:
    jobs = [(seed * 1_000_003 + i, nodes, noise, random_plies) for i in range(games)]
    written = 0
    progress = _progress(games, "games")
    with open(out, "w", encoding="utf-8") as handle, ProcessPoolExecutor(workers) as pool:
        for done, positions in enumerate(pool.map(_play_one, jobs, chunksize=4), 1):
            for fen, score in positions:
                handle.write(f"{fen}\t{score}\n")
            written += len(positions)
            progress.update(done, detail=f"{written} positions")
    progress.close()
    return written


# ---- labels from a deeper search -----------------------------------------------------------


def _label_batch(job: tuple[list[str], int, Optional[int], str]) -> list[int]:
    """The engine's score (centi-men, side to move's view; a forced win ±1000) of each
    position, searched ``depth`` plies by the Rust batch search with ``evaluation``."""
    fens, depth, threads, evaluation = job
    from shashki.learn.batch import search

    found = search(fens, depth=depth, threads=threads, evaluation=evaluation)
    return [
        (1000 if win > 0 else -1000) if win else max(-1000, min(1000, cp))
        for cp, win in zip(found.scores.tolist(), found.wins.tolist())
    ]


def _label_chunk(args: tuple[list[str], int]) -> list[int]:
    """As ``_label_batch``, one Python ``Engine.analyse`` call a position (``--method
    pool``)."""
    fens, depth = args
    from shashki.engine import Engine, Limit

    engine = _ENGINES.get(-depth)
    if engine is None:
        engine = _ENGINES[-depth] = Engine(hash_mb=16, evaluation="classic")
    out = []
    for fen in fens:
        info = engine.analyse(shashki.Board(fen), Limit(depth=depth))
        score = info["score"].relative
        if score.win is not None:
            out.append(1000 if score.win > 0 else -1000)
        else:
            out.append(max(-1000, min(1000, score.cp or 0)))
    return out


def label(
    path: str,
    out: str,
    depth: int,
    *,
    workers: Optional[int] = None,
    method: str = "batch",
    executor: object = None,
    chunk: int = 2000,
    evaluation: str = "classic",
) -> int:
    """Add a third column to a positions file: a ``depth``-ply search's score (the batch
    search with ``evaluation`` on ``workers`` threads or over ``executor``, as
    :func:`selfplay`; or ``method="pool"``, the earlier process pool, classic only)."""
    if method not in ("batch", "pool"):
        raise ValueError(f"method must be 'batch' or 'pool', not {method!r}")
    rows = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fen, tab, score = line.rstrip("\n").partition("\t")
            if tab and score in ("0.0", "0.5", "1.0"):
                rows.append((fen, score))
    chunks = [[fen for fen, _ in rows[i : i + chunk]] for i in range(0, len(rows), chunk)]
    progress = _progress(len(rows), "positions")
    done = 0
    with open(out, "w", encoding="utf-8") as handle:
        if method == "pool":
            pool = ProcessPoolExecutor(workers)
            results = pool.map(_label_chunk, [(c, depth) for c in chunks])
        else:
            pool = None
            jobs = [(c, depth, workers, evaluation) for c in chunks]
            results = _map(_label_batch, jobs, executor)
        try:
            for part, scores in zip(chunks, results):
                for fen, cp in zip(part, scores):
                    handle.write(f"{fen}\t{rows[done][1]}\t{cp}\n")
                    done += 1
                progress.update(done)
            progress.close()
        finally:
            if pool is not None:
                pool.shutdown()
    return done


# ---- the fit --------------------------------------------------------------------------------


def load(path: str, limit: Optional[int] = None) -> tuple[Any, Any, Any, Any, Any]:
    """Features (n × 2·SIDE_FEATURES, float32), pattern indices (n × 2·(regions + blocks):
    the side to move's, then the opponent's), results (n), the classic evaluation (n) and the deeper
    search's scores (n; NaN where the file has none)."""
    import numpy as np

    fens: list[str] = []
    results: list[float] = []
    searched: list[float] = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fen, tab, rest = line.rstrip("\n").partition("\t")
            score, _, deeper = rest.partition("\t")
            if not tab or score not in ("0.0", "0.5", "1.0"):
                continue  # a line cut short (a file still being written)
            fens.append(fen)
            results.append(float(score))
            searched.append(float(deeper) if deeper else math.nan)
            if limit is not None and len(fens) >= limit:
                break
    # Known endings are scored by rule, not by the weights: left out of the fit.
    keep = ~np.array(_core.eval_known_endings(fens), dtype=bool)
    fens = [fen for fen, k in zip(fens, keep) if k]
    results = [r for r, k in zip(results, keep) if k]
    deeper = np.array(searched, dtype=np.float32)[keep]
    raw = _core.eval_features(fens)
    features = np.frombuffer(raw, dtype=np.float32).reshape(len(fens), 2 * SIDE_FEATURES)
    patterns = np.frombuffer(_core.eval_patterns(fens), dtype="<u2").reshape(
        len(fens), 2 * _core.EVAL_SIDE_PATTERNS
    )
    classic = np.array(_core.evaluate_fens(fens, "classic"), dtype=np.float32)
    targets = np.array(results, dtype=np.float32)
    return features, patterns.astype(np.int64), targets, classic, deeper


def _sigmoid(x: Any) -> Any:
    import numpy as np

    return 1.0 / (1.0 + np.exp(-np.clip(x, -60, 60)))


def fit_scale(evaluations: Any, results: Any) -> float:
    """The scale (centi-men per unit of logit) that best fits an evaluation to results."""
    import numpy as np

    best = (math.inf, 100.0)
    for scale in np.geomspace(20, 1000, 60):
        p = _sigmoid(evaluations / scale)
        loss = float(np.mean((p - results) ** 2))
        best = min(best, (loss, float(scale)))
    return best[1]


def fit(
    features: Any,
    patterns: Any,
    results: Any,
    scale: float,
    *,
    start: Optional[Any] = None,
    epochs: int = 300,
    l2: float = 0.0,
    l2_patterns: float = 1e-9,
    rate: float = 2.0,
    batch: int = 8192,
    seed: int = 1,
) -> tuple[Any, Any, float]:
    """Dense weights and pattern weights (centi-men) minimising the mean squared error
    between the results and ``sigmoid(eval / scale)``, where ``eval = features · w +
    Σ patterns[side to move's regions] − Σ patterns[opponent's regions]`` (Adam,
    mini-batches); returns both and the loss."""
    import numpy as np

    rng = np.random.default_rng(seed)
    n, k = features.shape
    half = patterns.shape[1] // 2
    w = np.zeros(k, dtype=np.float64) if start is None else np.array(start, dtype=np.float64)
    p = np.zeros(PATTERN_WEIGHTS, dtype=np.float64)
    params = [w, p]
    moments = [(np.zeros_like(w), np.zeros_like(w)), (np.zeros_like(p), np.zeros_like(p))]
    step = 0

    def evaluate(index: Any) -> Any:
        x = features[index].astype(np.float64)
        pat = patterns[index]
        return x, pat, x @ w + p[pat[:, :half]].sum(axis=1) - p[pat[:, half:]].sum(axis=1)

    for epoch in range(epochs):
        order = rng.permutation(n)
        step_size = rate * (1 - epoch / epochs)  # decays linearly to nothing
        for begin in range(0, n, batch):
            index = order[begin : begin + batch]
            x, pat, e = evaluate(index)
            y = results[index]
            q = _sigmoid(e / scale)
            g = (q - y) * q * (1 - q) * (2 / (scale * len(index)))
            grad_w = x.T @ g + l2 * w
            grad_p = (
                np.bincount(pat[:, :half].ravel(), weights=np.repeat(g, half), minlength=len(p))
                - np.bincount(pat[:, half:].ravel(), weights=np.repeat(g, half), minlength=len(p))
                + l2_patterns * p
            )
            step += 1
            for param, grad, (m, v) in zip(params, (grad_w, grad_p), moments):
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                param -= (
                    step_size * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-12)
                )
    _, _, e = evaluate(np.arange(n))
    q = _sigmoid(e / scale)
    return w, p, float(np.mean((q - results) ** 2))


def classic_start() -> list[float]:
    """Weights (centi-men, both phases) close to the classic evaluation: the fit's start."""
    classic = _core.classic_weights()
    side = [0.0] * SIDE_FEATURES
    for square in range(32):
        rank = square // 4
        file = (square % 4) * 2 + rank % 2
        center = (file, rank) in {(2, 4), (3, 3), (4, 4), (5, 3)}
        side[square] = (
            classic["man"] + classic["advancement"][rank] + (classic["center"] if center else 0)
        )
        main_road = square in _core.MAIN_ROAD
        side[32 + square] = classic["king"] + (classic["king_main_road"] if main_road else 0)
    names = [_core.eval_feature_name(i) for i in range(SIDE_FEATURES)]
    side[names.index("men's free steps")] = classic["mobility"]
    side[names.index("men about to crown")] = classic["about_to_crown"]
    side[names.index("back rank while the enemy has no king")] = classic["back_rank"]
    return side + side


def weights_checksum(mid: Sequence[int], end: Sequence[int], patterns: Sequence[int]) -> int:
    """FNV-1a (64 bits) of the weights in 1/SCALE centi-men: the middle-game and endgame
    weights as 4 little-endian bytes each, then the pattern weights as 2 (the checksum
    ``learned_weights.rs`` records and the Rust core recomputes)."""
    data = b"".join(v.to_bytes(4, "little", signed=True) for v in [*mid, *end])
    data += b"".join(v.to_bytes(2, "little", signed=True) for v in patterns)
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


WEIGHTS_MAGIC = b"SHLW"
"""The learned weights' file: ``SHLW``, version 1, the unit, the features a side, the pattern
weights' count and the checksum (``<IiIIQ``), then the middle-game and endgame weights
(``i32``) and the pattern weights (``i16``), little-endian (``src/search/learned_weights.rs``
reads it when the crate compiles)."""


def write_weights(
    weights: Sequence[float], path: Path, note: str, patterns: Optional[Sequence[float]] = None
) -> None:
    """Write the weights (centi-men, middle game then endgame) and the pattern weights as the
    weights' data file (``data/weights/learned.bin``), and ``note`` (where they come from)
    beside it (``learned.txt``)."""
    import struct

    scaled = [round(w * SCALE) for w in weights]
    pattern_values = (
        [0] * PATTERN_WEIGHTS if patterns is None else [round(v * SCALE) for v in patterns]
    )
    if any(abs(v) > 16383 for v in pattern_values):
        # the engine keeps a block's weight minus its mirror's in 16 bits
        raise ValueError("a pattern weight does not fit in 15 bits")
    mid, end = scaled[:SIDE_FEATURES], scaled[SIDE_FEATURES:]
    checksum = weights_checksum(mid, end, pattern_values)
    header = WEIGHTS_MAGIC + struct.pack(
        "<IiIIQ", 1, SCALE, SIDE_FEATURES, len(pattern_values), checksum
    )
    body = struct.pack(f"<{2 * SIDE_FEATURES}i", *mid, *end)
    body += struct.pack(f"<{len(pattern_values)}h", *pattern_values)
    path.write_bytes(header + body)
    path.with_suffix(".txt").write_text(
        "Weights of the learned evaluation (written by `python -m shashki.learn.train fit`).\n\n"
        f"{note.strip()}\n\nFeature order: see `src/search/learned.rs` (feature_name); values "
        f"in 1/{SCALE} centi-men.\n",
        encoding="utf-8",
    )


def read_weights(path: Path) -> tuple[int, list[int], list[int], list[int], int]:
    """A weights file read back: ``(scale, middle game, endgame, patterns, checksum)``; a
    ValueError for a file that is not one (its magic, version, sizes or checksum)."""
    import struct

    data = Path(path).read_bytes()
    if len(data) < 28 or data[:4] != WEIGHTS_MAGIC:
        raise ValueError(f"{path}: not a learned weights file (it must start with SHLW)")
    version, scale, features, count, checksum = struct.unpack_from("<IiIIQ", data, 4)
    if version != 1 or len(data) != 28 + 8 * features + 2 * count:
        raise ValueError(f"{path}: version {version} or sizes that do not fit its length")
    values = struct.unpack_from(f"<{2 * features}i", data, 28)
    patterns = list(struct.unpack_from(f"<{count}h", data, 28 + 8 * features))
    mid, end = list(values[:features]), list(values[features:])
    if weights_checksum(mid, end, patterns) != checksum:
        raise ValueError(f"{path}: the checksum does not fit the weights")
    return scale, mid, end, patterns, checksum


def report(weights: Sequence[float]) -> str:
    names = [_core.eval_feature_name(i) for i in range(SIDE_FEATURES)]
    lines = []
    for i, name in enumerate(names):
        if not name.startswith(("man ", "king ")):
            mid, end = weights[i], weights[SIDE_FEATURES + i]
            lines.append(f"{name}: middle game {mid:+.1f}, endgame {end:+.1f}")
    men = [weights[i] for i in range(32) if i < 28]
    kings = [weights[32 + i] for i in range(32)]
    lines.append(f"men by square (middle game): {min(men):.0f} to {max(men):.0f}")
    lines.append(f"kings by square (middle game): {min(kings):.0f} to {max(kings):.0f}")
    return "\n".join(lines)


# ---- the family evaluation (the 10×10 games) -----------------------------------------------

FAMILY_WEIGHTS_PATH = Path("data/weights/family.txt")


def family_data(
    variant: str, games: int, nodes: int, noise: float, seed: int, threads: Optional[int] = None
) -> tuple[Any, Any]:
    """Self-play of ``variant`` in Rust (the engine at ``nodes`` a move with a share
    ``noise`` of random moves, from random openings four plies deep): the quiet positions'
    family features and each one's result from the side to move's view (1, 0.5, 0; games
    cut at the ply limit left out)."""
    import numpy as np

    from shashki.learn.batch import playouts
    from shashki.openings import random_openings

    openings = random_openings(variant, count=max(20, min(games, 500)), seed=seed)
    out = playouts(
        games,
        variant=variant,
        fens=openings,
        seed=seed,
        threads=threads,
        policy="engine",
        nodes=nodes,
        noise=noise,
        positions=True,
    )
    assert out.fens is not None and out.games is not None
    raw, captures = _core.family_features(out.fens, variant=variant)
    features = np.frombuffer(raw, dtype="<i4").reshape(len(out.fens), -1).astype(np.float64)
    results = out.results[out.games]
    white = np.array([fen.startswith("W") for fen in out.fens])
    score = np.where(results == 0, 0.5, np.where((results == 1) == white, 1.0, 0.0))
    keep = (results != 2) & ~np.array(captures)
    return features[keep], score[keep]


def fit_family(
    features: Any, results: Any, start: Sequence[float], epochs: int = 400, seed: int = 1
) -> tuple[list[float], float, float, float]:
    """Texel's method on the family features: the logistic scale fitted to the starting
    weights, then every weight but the man's (100: the unit) by gradient descent on the
    mean squared error of ``1 / (1 + exp(-eval / scale))`` against the results, on 90 % of
    the positions; ``(weights, scale, held-out loss before, held-out loss after)``."""
    import numpy as np

    rng = np.random.default_rng(seed)
    order = rng.permutation(len(results))
    cut = len(order) // 10
    held, used = order[:cut], order[cut:]
    w0 = np.array(start, dtype=np.float64)
    evals = features @ w0
    scale = min(
        (float(np.mean((_sigmoid(evals[used] / k) - results[used]) ** 2)), k)
        for k in np.linspace(20, 800, 157)
    )[1]

    def loss(w: Any, rows: Any) -> float:
        return float(np.mean((_sigmoid(features[rows] @ w / scale) - results[rows]) ** 2))

    before = loss(w0, held)
    w = w0.copy()
    x, y = features[used], results[used]
    # Adam, one step an epoch over all the rows; the man's weight stays 100.
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    rate = 0.5
    for t in range(1, epochs + 1):
        p = _sigmoid(x @ w / scale)
        grad = (2 / len(y)) * (x.T @ ((p - y) * p * (1 - p))) / scale
        grad[0] = 0.0
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        step = rate * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-12)
        w -= step
    return [float(round(value)) for value in w], scale, before, loss(np.round(w), held)


_FAMILY_HEADER = (
    "# The family evaluation's fitted weights (src/search/family.rs), one game a line:\n"
    "# its name, its 16 weights in the order of shashki._core.FAMILY_FEATURE_NAMES, then\n"
    "# after '#' how they were fitted. Written by `python -m shashki.learn.train family\n"
    "# --write`; read when the crate compiles (a malformed line does not compile). A game\n"
    "# not listed uses the hand-set weights.\n"
)


def write_family_weights(variant: str, weights: Sequence[float], note: str, path: Path) -> None:
    """Set ``variant``'s line of the fitted family weights (data/weights/family.txt; the other
    games' lines kept), its note after ``#``. The core reads the file when it compiles."""
    if len(weights) != len(_core.FAMILY_FEATURE_NAMES):
        raise ValueError(
            f"{len(weights)} weights, the family evaluation has {len(_core.FAMILY_FEATURE_NAMES)}"
        )
    rows: dict[str, str] = {}
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            rows[line.split()[0]] = line.strip()
    values = " ".join(str(int(w)) for w in weights)
    rows[variant] = f"{variant} {values}  # {note}" if note else f"{variant} {values}"
    body = "".join(rows[name] + "\n" for name in sorted(rows))
    path.write_text(_FAMILY_HEADER + "\n" + body, encoding="utf-8")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command; a closed or full output ends it quietly or with one line of error
    (``shashki._streams``)."""
    from shashki._streams import guarded

    return guarded("python -m shashki.learn.train", lambda: _main(argv))


def _main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["network"]:
        from shashki.learn import network

        return network.main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m shashki.learn.train", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("selfplay", help="play games, write positions with results")
    play.add_argument("--games", type=int, default=20000)
    play.add_argument("--nodes", type=int, default=3000)
    play.add_argument("--noise", type=float, default=0.03, help="share of random moves")
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--out", default="positions.txt")
    learn = sub.add_parser("fit", help="fit the weights, write them as Rust constants")
    learn.add_argument("positions")
    learn.add_argument("--out", default=str(WEIGHTS_PATH))
    learn.add_argument("--epochs", type=int, default=200)
    learn.add_argument("--limit", type=int, default=None, help="use the first N positions")
    learn.add_argument(
        "--result-weight",
        type=float,
        default=0.5,
        help="the target: this share of the game result, the rest the deeper search's "
        "score (when the file has one: see 'label')",
    )
    tag = sub.add_parser("label", help="add a deeper search's score to every position")
    tag.add_argument("positions")
    tag.add_argument("--depth", type=int, default=6)
    tag.add_argument("--out", default="labelled.txt")
    for command in (play, tag):
        command.add_argument(
            "--method",
            choices=("batch", "pool"),
            default="batch",
            help="batch: the Rust batch API (default); pool: one Python game or search at a "
            "time in worker processes (classic only; the first generation's data came from it)",
        )
        command.add_argument(
            "--workers", type=int, default=None, help="threads (batch) or processes (pool)"
        )
        command.add_argument(
            "--scheduler",
            default=None,
            metavar="ADDRESS",
            help="spread the work over a Dask cluster (tcp://HOST:8786; batch only)",
        )
        command.add_argument(
            "--evaluation",
            choices=("classic", "learned"),
            default="classic",
            help="the engine's evaluation (learned: the weights compiled in, for a next "
            "generation of data; batch only)",
        )
    sub.add_parser("initial", help="write weights equal to the classic evaluation")
    sub.add_parser(
        "network", help="train the network evaluation: network data|fit|loop (see --help)"
    )
    family = sub.add_parser(
        "family", help="self-play a game and fit its family-evaluation weights (10×10 games)"
    )
    family.add_argument("--variant", default="international")
    family.add_argument("--games", type=int, default=2000)
    family.add_argument("--nodes", type=int, default=1000)
    family.add_argument("--noise", type=float, default=0.1, help="share of random moves")
    family.add_argument("--seed", type=int, default=1)
    family.add_argument("--threads", type=int, default=None)
    family.add_argument("--epochs", type=int, default=400)
    family.add_argument(
        "--write", action="store_true", help=f"write the weights into {FAMILY_WEIGHTS_PATH}"
    )
    args = parser.parse_args(argv)
    if args.command == "family":
        return _family(args)
    client = None
    if getattr(args, "scheduler", None) is not None:
        if args.method != "batch":
            parser.error("--scheduler works with --method batch")
        try:
            from dask.distributed import Client
        except ImportError:
            parser.error('--scheduler needs Dask: pip install "shashki[distributed]"')
        client = Client(args.scheduler)  # type: ignore[no-untyped-call]
    try:
        if args.command == "selfplay":
            n = selfplay(
                args.games,
                args.nodes,
                args.out,
                noise=args.noise,
                workers=args.workers,
                seed=args.seed,
                method=args.method,
                executor=client,
                evaluation=args.evaluation,
            )
            print(f"{n} positions in {args.out}")
            return 0
        if args.command == "label":
            n = label(
                args.positions,
                args.out,
                args.depth,
                workers=args.workers,
                method=args.method,
                executor=client,
                evaluation=args.evaluation,
            )
            print(f"{n} positions labelled in {args.out}")
            return 0
    finally:
        if client is not None:
            client.close()  # type: ignore[no-untyped-call]
    if args.command == "initial":
        write_weights(classic_start(), WEIGHTS_PATH, "The classic evaluation's weights.")
        return 0
    import numpy as np

    started = time.monotonic()
    features, patterns, results, classic, searched = load(args.positions, args.limit)
    scale = fit_scale(classic, results)
    if not np.isnan(searched).any():
        share = args.result_weight
        results = share * results + (1 - share) * _sigmoid(searched / scale)
        print(f"target: {share:.2f} game result + {1 - share:.2f} deeper search")
    classic_loss = float(np.mean((_sigmoid(classic / scale) - results) ** 2))
    print(f"{len(results)} positions; scale {scale:.1f}; classic loss {classic_loss:.6f}")
    weights, pattern_weights, loss = fit(
        features, patterns, results, scale, start=classic_start(), epochs=args.epochs
    )
    print(f"fitted loss {loss:.6f} ({time.monotonic() - started:.0f} s)")
    print(report(weights))
    note = (
        f"Fitted to {len(results)} positions of `{os.path.basename(args.positions)}`\n"
        f"(logistic scale {scale:.1f} centi-men, {args.epochs} epochs): mean squared error\n"
        f"{loss:.6f} against {classic_loss:.6f} for the classic evaluation."
    )
    write_weights(
        [float(w) for w in weights],
        Path(args.out),
        note,
        [float(v) for v in pattern_weights],
    )
    print(f"weights written to {args.out}")
    return 0


def _family(args: argparse.Namespace) -> int:
    started = time.monotonic()
    print(f"self-play: {args.games} games of {args.variant} at {args.nodes} nodes a move")
    features, results = family_data(
        args.variant, args.games, args.nodes, args.noise, args.seed, args.threads
    )
    played = time.monotonic() - started
    print(f"{len(results)} quiet positions of decided or drawn games ({played:.0f} s)")
    start = _core.family_weights(variant=args.variant)
    weights, scale, before, after = fit_family(features, results, start, epochs=args.epochs)
    names = _core.FAMILY_FEATURE_NAMES
    for name, old, new in zip(names, start, weights):
        print(f"{name:>15}: {old:5d} -> {new:5.0f}")
    print(
        f"scale {scale:.0f}; held-out loss {before:.6f} (weights now) -> {after:.6f} (fitted); "
        f"{time.monotonic() - started:.0f} s in all"
    )
    if args.write:
        note = (
            f"{args.games} self-play games at {args.nodes} nodes, noise {args.noise}, seed "
            f"{args.seed}: {len(results)} positions, held-out loss {before:.5f} -> {after:.5f}"
        )
        write_family_weights(args.variant, weights, note, FAMILY_WEIGHTS_PATH)
        print(f"weights written to {FAMILY_WEIGHTS_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
