"""Fit the learned evaluation to self-play results (issue 10, step 2).

    python -m shashki.train selfplay --games 20000 --nodes 3000 --out positions.txt
    python -m shashki.train fit positions.txt --out src/search/learned_weights.rs
    pip install . && python -m shashki.match shashki:eval=learned shashki:eval=classic ...

``selfplay`` plays the engine against itself from the built-in openings plus random plies
(at fixed nodes, both colours, the variant's draw rules; a few random moves mixed in for
variety) on every core and writes the quiet positions (no capture for the side to move) with
the game's result from the side to move's view: one ``FEN<TAB>score`` line each, score 1,
0.5 or 0. ``fit`` computes each position's features in the Rust core
(``shashki._core.eval_features``), fits the weights by logistic regression on the results
(Texel's method: the predicted score is ``1 / (1 + exp(-eval / scale))``; the scale is fitted
to the classic evaluation first, so the weights stay in centi-men), and writes them as Rust
constants. numpy is needed for ``fit`` only (``pip install "shashki[train]"``); nothing here
is imported by ``import shashki``.
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
PATTERN_WEIGHTS = _core.EVAL_REGIONS * _core.EVAL_REGION_KEYS
SCALE = 16  # the weights are stored in 1/16 centi-men
WEIGHTS_PATH = Path("src/search/learned_weights.rs")


# ---- self-play ------------------------------------------------------------------------------


def _play_one(args: tuple[int, int, float, int]) -> list[tuple[str, float]]:
    """One self-play game: the quiet positions with the result from the mover's view."""
    seed, nodes, noise, random_plies = args
    from shashki.engine import Engine, Limit
    from shashki.match import BUILTIN_OPENINGS

    rng = random.Random(seed)
    engine = _ENGINES.get(nodes)
    if engine is None:
        engine = _ENGINES[nodes] = Engine(hash_mb=16, evaluation="classic")
    engine.new_game()
    game = shashki.Game()
    for text in rng.choice(BUILTIN_OPENINGS).split():
        game.push_move(text)
    for _ in range(rng.randint(0, random_plies)):
        moves = list(game._board.legal_moves)
        if not moves or game.is_game_over():
            break
        game.push(rng.choice(moves))
    positions: list[tuple[str, bool]] = []
    while not game.is_game_over() and game.ply() < 250:
        board = game._board
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


def selfplay(
    games: int,
    nodes: int,
    out: str,
    *,
    noise: float = 0.03,
    random_plies: int = 6,
    workers: Optional[int] = None,
    seed: int = 1,
) -> int:
    """Play ``games`` games and write their positions to ``out``; returns the count."""
    jobs = [(seed * 1_000_003 + i, nodes, noise, random_plies) for i in range(games)]
    written = 0
    started = time.monotonic()
    with open(out, "w", encoding="utf-8") as handle, ProcessPoolExecutor(workers) as pool:
        for done, positions in enumerate(pool.map(_play_one, jobs, chunksize=4), 1):
            for fen, score in positions:
                handle.write(f"{fen}\t{score}\n")
            written += len(positions)
            if sys.stderr.isatty() or done % 500 == 0 or done == games:
                rate = done / max(time.monotonic() - started, 1e-9)
                left = (games - done) / max(rate, 1e-9)
                print(
                    f"\r{done}/{games} games, {written} positions, {left:.0f} s left   ",
                    end="" if sys.stderr.isatty() else "\n",
                    file=sys.stderr,
                    flush=True,
                )
    return written


# ---- labels from a deeper search -----------------------------------------------------------


def _label_chunk(args: tuple[list[str], int]) -> list[int]:
    """The classic engine's score (centi-men, side to move's view; a forced win ±1000) of
    each position, searched ``depth`` plies."""
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


def label(path: str, out: str, depth: int, *, workers: Optional[int] = None) -> int:
    """Add a third column to a positions file: a ``depth``-ply search's score."""
    rows = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fen, tab, score = line.rstrip("\n").partition("\t")
            if tab and score in ("0.0", "0.5", "1.0"):
                rows.append((fen, score))
    chunks = [[fen for fen, _ in rows[i : i + 2000]] for i in range(0, len(rows), 2000)]
    started = time.monotonic()
    done = 0
    with open(out, "w", encoding="utf-8") as handle, ProcessPoolExecutor(workers) as pool:
        for chunk, scores in zip(chunks, pool.map(_label_chunk, [(c, depth) for c in chunks])):
            for fen, cp in zip(chunk, scores):
                handle.write(f"{fen}\t{rows[done][1]}\t{cp}\n")
                done += 1
            left = (len(rows) - done) * (time.monotonic() - started) / max(done, 1)
            print(f"{done}/{len(rows)} positions, {left:.0f} s left", file=sys.stderr, flush=True)
    return done


# ---- the fit --------------------------------------------------------------------------------


def load(path: str, limit: Optional[int] = None) -> tuple[Any, Any, Any, Any, Any]:
    """Features (n × 2·SIDE_FEATURES, float32), pattern indices (n × 2·regions: the side to
    move's, then the opponent's), results (n), the classic evaluation (n) and the deeper
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
        len(fens), 2 * _core.EVAL_REGIONS
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


def write_weights(
    weights: Sequence[float], path: Path, note: str, patterns: Optional[Sequence[float]] = None
) -> None:
    """Write the weights (centi-men, middle game then endgame) and the pattern weights as
    Rust constants."""
    scaled = [round(w * SCALE) for w in weights]
    pattern_values = (
        [0] * PATTERN_WEIGHTS if patterns is None else [round(v * SCALE) for v in patterns]
    )
    if any(abs(v) > 32767 for v in pattern_values):
        raise ValueError("a pattern weight does not fit in 16 bits")
    mid, end = scaled[:SIDE_FEATURES], scaled[SIDE_FEATURES:]

    def rows(values: list[int]) -> str:
        lines = []
        for i in range(0, len(values), 8):
            lines.append("    " + " ".join(f"{v}," for v in values[i : i + 8]))
        return "\n".join(lines)

    comment = "\n".join(f"//! {line}" if line else "//!" for line in note.splitlines())
    text = f"""//! Weights of the learned evaluation (generated by `python -m shashki.train`: do not
//! edit).
//!
{comment}
//!
//! Feature order: see `super::learned::feature_name`; values in 1/{SCALE} centi-men.

/// The weights' unit: 1/SCALE of a centi-man.
pub const SCALE: i32 = {SCALE};

/// Middle-game weights (24 pieces on the board).
pub const MID: [i32; {SIDE_FEATURES}] = [
{rows(mid)}
];

/// Endgame weights (no piece on the board; blended by the piece count in between).
pub const END: [i32; {SIDE_FEATURES}] = [
{rows(end)}
];

/// Pattern weights: region × {_core.EVAL_REGION_KEYS} keys (see `super::learned::REGIONS`).
pub static PATTERNS: [i16; {PATTERN_WEIGHTS}] = [
{rows(pattern_values)}
];

/// FNV-1a of the weights above (`shashki.train.weights_checksum`), checked by the tests.
pub const CHECKSUM: u64 = {weights_checksum(mid, end, pattern_values):#018x};
"""
    path.write_text(text, encoding="utf-8")
    import shutil
    import subprocess

    rustfmt = shutil.which("rustfmt")
    if rustfmt is not None:  # the repository's files are rustfmt-clean
        subprocess.run([rustfmt, "--edition", "2021", str(path)], check=False)


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


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shashki.train", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("selfplay", help="play games, write positions with results")
    play.add_argument("--games", type=int, default=20000)
    play.add_argument("--nodes", type=int, default=3000)
    play.add_argument("--noise", type=float, default=0.03, help="share of random moves")
    play.add_argument("--workers", type=int, default=None)
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
    tag.add_argument("--workers", type=int, default=None)
    tag.add_argument("--out", default="labelled.txt")
    sub.add_parser("initial", help="write weights equal to the classic evaluation")
    args = parser.parse_args(argv)
    if args.command == "selfplay":
        n = selfplay(
            args.games, args.nodes, args.out, noise=args.noise, workers=args.workers, seed=args.seed
        )
        print(f"{n} positions in {args.out}")
        return 0
    if args.command == "label":
        n = label(args.positions, args.out, args.depth, workers=args.workers)
        print(f"{n} positions labelled in {args.out}")
        return 0
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


if __name__ == "__main__":
    raise SystemExit(main())
