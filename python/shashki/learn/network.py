"""The network evaluation's training: data, the fit (numpy), the export to the Rust format.

The network (``src/search/network.rs``) sees each side's pieces from its own point of view:
four inputs a square (own men, own kings, the other side's men, the other side's kings, the
board turned half round for Black: 128 on the 8×8 board, 200 on the 10×10, 256 in Turkish
draughts), a first layer of ``HIDDEN`` clipped sums kept for both
perspectives, a second of ``LAYER2`` clipped outputs, and one output, the logit of the side to
move's expected score. It is trained here in float32 with numpy and exported quantised
(``int16`` first layer, ``int8`` after).

**Why numpy and not PyTorch.** The network is tiny (about 20,000 weights); a hand-written
forward and backward pass of three dense layers is a few lines, runs at a few hundred
thousand positions a second on two cores, and adds no 700 MB dependency to the ``train``
extra. A bigger network or a GPU would change that answer.

**The data format** (``.npz``, numpy's zip of arrays; never text): ``pieces`` (uint64,
N × 4: White men, White kings, Black men, Black kings, bit *i* the board's square index *i*,
0 = a1), ``white`` (bool, N: White to move), ``result`` (int8, N: the game's result from the
side to move's view, 1 a win, 0 a draw, −1 a loss), ``score`` (int16, N: a search's score in
centi-men from the side to move's view, or absent), and ``variant`` (the game's name).
A million positions take about 35 MB.

    python -m shashki.learn.train network data --games 120000 --nodes 1000 --out russian.npz
    python -m shashki.learn.train network fit russian.npz --epochs 30 --out russian.nnue
    python -m shashki.learn.train network loop --variant russian --generations 2 --dir runs/

Nothing here is imported by ``import shashki``; numpy is the ``train`` extra.
"""

from __future__ import annotations

import math
import struct
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from shashki import _core

INPUTS = 128
"""Inputs a perspective on the 8×8 board (four a square; :func:`inputs_of` for any game)."""
HIDDEN = 128
LAYER2 = 16
VERSION = 1
"""The format of a network without patterns (version 2 adds the block patterns' section)."""
PATTERN_VERSION = 2
BLOCK_SQUARES = 8
"""Dark squares a block has: a 4×4 window of the board."""
BLOCK_STATES = 3**BLOCK_SQUARES
"""Each block square empty, the side to move's man or the other side's (kings count as empty)."""
WEIGHT_LIMIT = 127 / 64
"""The second and third layers' weights are clipped to what ``int8`` holds times 1/64."""


# ---- data ------------------------------------------------------------------------------------


def save_data(
    path: str | Path,
    fens: Sequence[str],
    results: Any,
    *,
    variant: str = "russian",
    scores: Optional[Any] = None,
    scale: Optional[float] = None,
) -> int:
    """Write positions (FENs of ``variant``) with their results (side to move's view: 1,
    0, −1), optional search scores and the logistic scale of the evaluation that labelled
    them in the ``.npz`` format above; returns the count."""
    import numpy as np

    raw, white = _core.piece_sets(list(fens), variant=variant)
    pieces = np.frombuffer(raw, dtype="<u8").reshape(len(fens), 4)
    arrays: dict[str, Any] = {
        "pieces": pieces,
        "white": np.array(white, dtype=bool),
        "result": np.asarray(results, dtype=np.int8),
        "variant": np.array(variant),
    }
    if scores is not None:
        arrays["score"] = np.clip(np.asarray(scores), -32767, 32767).astype(np.int16)
    if scale is not None:
        arrays["scale"] = np.array(scale)
    np.savez_compressed(path, **arrays)
    return len(fens)


@dataclass
class Data:
    """Positions loaded from a ``.npz`` file (see the module's documentation)."""

    pieces: Any
    white: Any
    result: Any
    score: Optional[Any]
    variant: str

    def __len__(self) -> int:
        return len(self.result)


def load_data(paths: Sequence[str | Path]) -> Data:
    """One or more data files of the same game, joined."""
    import numpy as np

    parts = [np.load(p) for p in paths]
    variants = {str(p["variant"]) for p in parts}
    if len(variants) != 1:
        raise ValueError(f"the data files are of different games: {sorted(variants)}")
    scores = [p["score"] for p in parts if "score" in p.files]
    return Data(
        pieces=np.concatenate([p["pieces"] for p in parts]),
        white=np.concatenate([p["white"] for p in parts]),
        result=np.concatenate([p["result"] for p in parts]),
        score=np.concatenate(scores) if len(scores) == len(parts) else None,
        variant=variants.pop(),
    )


def inputs_of(variant: str) -> int:
    """The inputs a perspective has in ``variant``: four a square (128 on the 8×8 board, 200
    on the 10×10); a ``ValueError`` for a game without networks (the 12×12 board)."""
    from shashki import SQUARE_COUNTS

    if variant not in SQUARE_COUNTS:
        raise ValueError(f"unknown game {variant!r}")
    squares = SQUARE_COUNTS[variant]
    if squares > 64:
        raise ValueError(
            f"{variant} has {squares} squares: networks are for the 8×8 and 10×10 boards so far"
        )
    return 4 * squares


def inputs(pieces: Any, white: Any, squares: int = 32) -> tuple[Any, Any]:
    """The side to move's and the other side's inputs (uint8 0/1, N × 4·``squares``)."""
    import numpy as np

    n = len(pieces)
    raw = pieces.astype("<u8").view(np.uint8).reshape(n, 4, 8)
    bits = np.unpackbits(raw, axis=2, bitorder="little")[:, :, :squares]  # N × 4 sets × squares
    from_white = bits.reshape(n, 4 * squares)
    from_black = bits[:, [2, 3, 0, 1], ::-1].reshape(n, 4 * squares)
    turn = np.asarray(white, dtype=bool)[:, None]
    own = np.where(turn, from_white, from_black)
    other = np.where(turn, from_black, from_white)
    return own, other


def blocks_of(variant: str) -> list[tuple[int, ...]]:
    """The block patterns' squares (square indices, 0 = a1) for ``variant``'s board: the
    4×4 windows whose lower left corner is on an even file and an even rank, eight dark
    squares each (two of each of four ranks): 16 on the 10×10 board, 9 on the 8×8. The set
    is the same turned half round, so each side's view has the same blocks. A ``ValueError``
    for a board whose men use every square (Turkish draughts) or that needs the 128-bit word."""
    from shashki import SQUARE_COUNTS

    squares = inputs_of(variant) // 4
    width = {32: 4, 50: 5}.get(squares)
    if width is None or SQUARE_COUNTS.get(variant) != squares:
        raise ValueError(
            f"{variant}: block patterns are for the 8×8 and 10×10 boards' dark squares"
        )
    ranks = 2 * width
    out = []
    for rank in range(0, ranks - 3, 2):
        for column in range(width - 1):
            out.append(
                tuple(r * width + column + k for r in range(rank, rank + 4) for k in range(2))
            )
    return out


def block_keys(own: Any, blocks: Sequence[tuple[int, ...]]) -> Any:
    """Each position's block states (uint16, N × blocks) from the side to move's inputs
    (:func:`inputs`' first array): the k-th square of a block is its k-th base-3 digit, 0
    empty (or a king), 1 the side to move's man, 2 the other side's man."""
    import numpy as np

    squares = own.shape[1] // 4
    powers = 3 ** np.arange(BLOCK_SQUARES, dtype=np.int64)
    keys = np.empty((own.shape[0], len(blocks)), dtype=np.uint16)
    for b, block in enumerate(blocks):
        sq = np.asarray(block)
        mine = own[:, sq].astype(np.int64) @ powers
        theirs = own[:, 2 * squares + sq].astype(np.int64) @ powers
        keys[:, b] = mine + 2 * theirs
    return keys


# ---- the network in numpy --------------------------------------------------------------------


def _sigmoid(x: Any) -> Any:
    import numpy as np

    return 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))


@dataclass
class Weights:
    """Float weights: ``w1`` (inputs × H), ``b1``, ``w2`` (2H × L), ``b2``, ``w3`` (L),
    ``b3``."""

    w1: Any
    b1: Any
    w2: Any
    b2: Any
    w3: Any
    b3: Any
    p: Optional[Any] = None
    """The block patterns' weights (blocks × 3⁸, logits added to the output), or None."""

    @staticmethod
    def initial(
        seed: int = 1, hidden: int = HIDDEN, layer2: int = LAYER2, inputs: int = INPUTS
    ) -> Weights:
        import numpy as np

        rng = np.random.default_rng(seed)
        f = np.float32
        return Weights(
            w1=(rng.standard_normal((inputs, hidden)) * 0.1).astype(f),
            b1=np.full(hidden, 0.1, dtype=f),
            w2=(rng.standard_normal((2 * hidden, layer2)) / math.sqrt(2 * hidden)).astype(f),
            b2=np.zeros(layer2, dtype=f),
            w3=(rng.standard_normal(layer2) / math.sqrt(layer2)).astype(f),
            b3=np.zeros(1, dtype=f),
        )

    def names(self) -> list[str]:
        return ["w1", "b1", "w2", "b2", "w3", "b3"] + ([] if self.p is None else ["p"])

    def with_blocks(self, count: int) -> Weights:
        """These weights with ``count`` block patterns' weights, all zero (a fit that adds
        patterns to a network starts where the network was)."""
        import numpy as np

        return Weights(
            self.w1,
            self.b1,
            self.w2,
            self.b2,
            self.w3,
            self.b3,
            p=np.zeros((count, BLOCK_STATES), dtype=np.float32),
        )


def forward(
    w: Weights, own: Any, other: Any, keys: Optional[Any] = None
) -> tuple[Any, dict[str, Any]]:
    """The logits of a batch (with ``keys``, :func:`block_keys`, where the weights have
    patterns), and what the backward pass needs."""
    import numpy as np

    s_own = own @ w.w1 + w.b1
    s_other = other @ w.w1 + w.b1
    h = np.concatenate([np.clip(s_own, 0, 1), np.clip(s_other, 0, 1)], axis=1)
    z = h @ w.w2 + w.b2
    y = np.clip(z, 0, 1)
    out = y @ w.w3 + w.b3
    if w.p is not None:
        if keys is None:
            raise ValueError("the network has block patterns: give the positions' keys")
        out = out + w.p[np.arange(w.p.shape[0])[None, :], keys].sum(axis=1)
    return out, {"s_own": s_own, "s_other": s_other, "h": h, "z": z, "y": y, "keys": keys}


def backward(w: Weights, own: Any, other: Any, cache: dict[str, Any], d_out: Any) -> dict[str, Any]:
    """Gradients of the loss given its gradient by logit ``d_out``."""
    import numpy as np

    y, z, h = cache["y"], cache["z"], cache["h"]
    g: dict[str, Any] = {"w3": y.T @ d_out, "b3": np.array([d_out.sum()], dtype=np.float32)}
    d_y = np.outer(d_out, w.w3)
    d_z = d_y * ((z > 0) & (z < 1))
    g["w2"] = h.T @ d_z
    g["b2"] = d_z.sum(axis=0)
    d_h = d_z @ w.w2.T
    hidden = w.w1.shape[1]
    d_own = d_h[:, :hidden] * ((cache["s_own"] > 0) & (cache["s_own"] < 1))
    d_other = d_h[:, hidden:] * ((cache["s_other"] > 0) & (cache["s_other"] < 1))
    g["w1"] = own.T @ d_own + other.T @ d_other
    g["b1"] = d_own.sum(axis=0) + d_other.sum(axis=0)
    if w.p is not None:
        count = w.p.shape[0]
        flat = (cache["keys"].astype(np.int64) + BLOCK_STATES * np.arange(count)[None, :]).ravel()
        g["p"] = (
            np.bincount(flat, weights=np.repeat(d_out, count), minlength=count * BLOCK_STATES)
            .reshape(count, BLOCK_STATES)
            .astype(np.float32)
        )
    return g


def targets(data: Data, scale: float, score_share: float) -> Any:
    """Each position's target: its result (1, 0.5, 0), blended with its search score's
    expected result ``1 / (1 + exp(-score / scale))`` by ``score_share`` where scores exist."""
    import numpy as np

    result = (data.result.astype(np.float32) + 1) / 2
    if data.score is None or score_share <= 0:
        return result
    expected = _sigmoid(data.score.astype(np.float32) / scale)
    return (1 - score_share) * result + score_share * expected


def loss_of(
    w: Weights,
    own: Any,
    other: Any,
    target: Any,
    batch: int = 65536,
    keys: Optional[Any] = None,
) -> float:
    """The mean squared error of the predicted score against ``target``."""
    import numpy as np

    total = 0.0
    for i in range(0, len(target), batch):
        out, _ = forward(
            w,
            own[i : i + batch].astype(np.float32),
            other[i : i + batch].astype(np.float32),
            None if keys is None else keys[i : i + batch],
        )
        total += float(np.sum((_sigmoid(out) - target[i : i + batch]) ** 2))
    return total / max(len(target), 1)


def train(
    data: Data,
    *,
    scale: float,
    epochs: int = 20,
    batch: int = 4096,
    rate: float = 2e-3,
    score_share: float = 0.0,
    seed: int = 1,
    start: Optional[Weights] = None,
    blocks: bool = False,
    progress: bool = True,
) -> tuple[Weights, float, float]:
    """Fit the network to ``data`` (a tenth held out) by Adam on the mean squared error of
    the predicted score; ``(weights, held-out loss, training loss)``, the weights of the
    epoch with the best held-out loss. With ``blocks`` (or a ``start`` that has them) the
    block patterns' weights (:func:`blocks_of`) are fitted with the network's; added to a
    ``start`` without them, they start at zero."""
    import numpy as np

    rng = np.random.default_rng(seed)
    n_inputs = inputs_of(data.variant)
    own, other = inputs(data.pieces, data.white, n_inputs // 4)
    target = targets(data, scale, score_share).astype(np.float32)
    order = rng.permutation(len(target))
    cut = max(1, len(order) // 10)
    held, used = order[:cut], order[cut:]
    w = start or Weights.initial(seed, inputs=n_inputs)
    if blocks and w.p is None:
        w = w.with_blocks(len(blocks_of(data.variant)))
    keys = None if w.p is None else block_keys(own, blocks_of(data.variant))
    m = {k: np.zeros_like(getattr(w, k)) for k in w.names()}
    v = {k: np.zeros_like(getattr(w, k)) for k in w.names()}
    held_keys = None if keys is None else keys[held]
    best = (loss_of(w, own[held], other[held], target[held], keys=held_keys), _copy(w))
    t = 0
    started = time.monotonic()
    train_loss = float("nan")
    for epoch in range(1, epochs + 1):
        rng.shuffle(used)
        lr = rate * (0.5 ** ((epoch - 1) // max(1, epochs // 3)))
        total = 0.0
        for i in range(0, len(used), batch):
            rows = used[i : i + batch]
            xo = own[rows].astype(np.float32)
            xt = other[rows].astype(np.float32)
            out, cache = forward(w, xo, xt, None if keys is None else keys[rows])
            p = _sigmoid(out)
            err = p - target[rows]
            total += float(np.sum(err * err))
            d_out = (2.0 / len(rows)) * err * p * (1 - p)
            g = backward(w, xo, xt, cache, d_out.astype(np.float32))
            t += 1
            for k in w.names():
                m[k] = 0.9 * m[k] + 0.1 * g[k]
                v[k] = 0.999 * v[k] + 0.001 * g[k] * g[k]
                step = lr * (m[k] / (1 - 0.9**t)) / (np.sqrt(v[k] / (1 - 0.999**t)) + 1e-8)
                setattr(w, k, (getattr(w, k) - step).astype(np.float32))
            w.w2 = np.clip(w.w2, -WEIGHT_LIMIT, WEIGHT_LIMIT)
            w.w3 = np.clip(w.w3, -WEIGHT_LIMIT, WEIGHT_LIMIT)
        train_loss = total / len(used)
        held_loss = loss_of(w, own[held], other[held], target[held], keys=held_keys)
        if held_loss < best[0]:
            best = (held_loss, _copy(w))
        if progress:
            print(
                f"epoch {epoch}/{epochs}: training loss {train_loss:.5f}, held-out "
                f"{held_loss:.5f} (best {best[0]:.5f}), {time.monotonic() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return best[1], best[0], train_loss


def _copy(w: Weights) -> Weights:
    return Weights(
        w.w1.copy(),
        w.b1.copy(),
        w.w2.copy(),
        w.b2.copy(),
        w.w3.copy(),
        w.b3.copy(),
        p=None if w.p is None else w.p.copy(),
    )


# ---- export ----------------------------------------------------------------------------------


def quantised(w: Weights) -> dict[str, Any]:
    """The integer weights the Rust evaluation uses."""
    import numpy as np

    def q(x: Any, factor: float, dtype: Any, limit: int) -> Any:
        return np.clip(np.round(np.asarray(x, dtype=np.float64) * factor), -limit, limit).astype(
            dtype
        )

    return {
        "w1": q(w.w1, 127, np.int16, 32767),
        "b1": q(w.b1, 127, np.int16, 32767),
        "w2": q(w.w2.T, 64, np.int8, 127),  # output-major
        "b2": q(w.b2, 127 * 64, np.int32, 2**31 - 1),
        "w3": q(w.w3, 64, np.int8, 127),
        "b3": q(w.b3, 127 * 64, np.int32, 2**31 - 1),
        **({} if w.p is None else {"p": q(w.p, 127 * 64, np.int16, 32767)}),
    }


def from_bytes(data: bytes) -> tuple[Weights, str, float]:
    """A network file read back as float weights (the integers over the factors
    :func:`quantised` multiplied them by), its game and its scale: the start of a fit that
    goes on from a network (``fit --start``). A file damaged or of another version is a
    ValueError."""
    import numpy as np

    if len(data) < 8 or data[:4] != b"SHNN":
        raise ValueError("not a network file (no SHNN magic)")
    if struct.unpack("<Q", data[-8:])[0] != fnv1a(data[:-8]):
        raise ValueError("the network file's checksum does not match")
    (version,) = struct.unpack_from("<I", data, 4)
    if version not in (VERSION, PATTERN_VERSION):
        raise ValueError(f"network format {version}, not {VERSION} or {PATTERN_VERSION}")
    length = data[8]
    variant = data[9 : 9 + length].decode()
    at = 9 + length
    inputs, hidden, layer2, scale = struct.unpack_from("<IIIi", data, at)
    at += 16

    def take(dtype: Any, count: int) -> Any:
        nonlocal at
        size = np.dtype(dtype).itemsize * count
        out = np.frombuffer(data[at : at + size], dtype=np.dtype(dtype).newbyteorder("<"))
        at += size
        return out.astype(np.float64)

    w1 = take(np.int16, inputs * hidden).reshape(inputs, hidden) / 127
    b1 = take(np.int16, hidden) / 127
    w2 = take(np.int8, layer2 * 2 * hidden).reshape(layer2, 2 * hidden).T / 64
    b2 = take(np.int32, layer2) / (127 * 64)
    w3 = take(np.int8, layer2) / 64
    b3 = take(np.int32, 1) / (127 * 64)
    patterns = None
    if version == PATTERN_VERSION:
        count, size = struct.unpack_from("<II", data, at)
        at += 8
        if size != BLOCK_SQUARES or [
            tuple(data[at + 8 * b : at + 8 * b + 8]) for b in range(count)
        ] != blocks_of(variant):
            raise ValueError("the network's blocks are not this build's")
        at += count * size
        patterns = take(np.int16, count * BLOCK_STATES).reshape(count, BLOCK_STATES) / (127 * 64)
    f = np.float32
    weights = Weights(
        w1=w1.astype(f),
        b1=b1.astype(f),
        w2=w2.astype(f),
        b2=b2.astype(f),
        w3=w3.astype(f),
        b3=b3.astype(f),
        p=None if patterns is None else patterns.astype(f),
    )
    return weights, variant, float(scale)


def fnv1a(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def to_bytes(w: Weights, variant: str, scale: float) -> bytes:
    """The network file (the format of ``src/search/network.rs``)."""
    qw = quantised(w)
    name = variant.encode()
    version = VERSION if w.p is None else PATTERN_VERSION
    head = b"SHNN" + struct.pack("<I", version) + bytes([len(name)]) + name
    if w.w1.shape[0] != inputs_of(variant):
        raise ValueError(
            f"the first layer has {w.w1.shape[0]} inputs, {variant} needs {inputs_of(variant)}"
        )
    head += struct.pack("<IIIi", w.w1.shape[0], w.w1.shape[1], w.w2.shape[1], int(round(scale)))
    body = b"".join(
        qw[k].astype(qw[k].dtype.newbyteorder("<")).tobytes()
        for k in ["w1", "b1", "w2", "b2", "w3", "b3"]
    )
    if w.p is not None:
        blocks = blocks_of(variant)
        if w.p.shape != (len(blocks), BLOCK_STATES):
            raise ValueError(f"{w.p.shape[0]} blocks' weights, {variant} has {len(blocks)} blocks")
        body += struct.pack("<II", len(blocks), BLOCK_SQUARES)
        body += b"".join(bytes(block) for block in blocks)
        body += qw["p"].astype("<i2").tobytes()
    data = head + body
    return data + struct.pack("<Q", fnv1a(data))


def integer_evaluate(
    w: Weights, own: Any, other: Any, scale: float, keys: Optional[Any] = None
) -> Any:
    """What the Rust evaluation computes (integers), for checking an export in numpy
    (``keys``: :func:`block_keys`, where the weights have patterns)."""
    import numpy as np

    qw = quantised(w)
    w1 = qw["w1"].astype(np.int64)
    b1 = qw["b1"].astype(np.int64)
    s_own = np.clip(own.astype(np.int64) @ w1 + b1, 0, 127)
    s_other = np.clip(other.astype(np.int64) @ w1 + b1, 0, 127)
    x = np.concatenate([s_own, s_other], axis=1)
    z = (x @ qw["w2"].astype(np.int64).T + qw["b2"]) >> 6
    y = np.clip(z, 0, 127)
    out = y @ qw["w3"].astype(np.int64) + qw["b3"][0]
    if w.p is not None:
        if keys is None:
            raise ValueError("the network has block patterns: give the positions' keys")
        table = qw["p"].astype(np.int64)
        out = out + table[np.arange(table.shape[0])[None, :], keys].sum(axis=1)
    return (out * int(round(scale))) // 8128


# ---- the commands ----------------------------------------------------------------------------


def fit_scale(evaluations: Any, results: Any) -> float:
    """The logistic scale (centi-men a logit unit) under which ``evaluations`` best predict
    ``results`` (1, 0, −1): the network's output is turned into centi-men by it, so the
    search's margins keep their meaning."""
    import numpy as np

    y = (np.asarray(results, dtype=np.float64) + 1) / 2
    e = np.asarray(evaluations, dtype=np.float64)
    return float(
        min((float(np.mean((_sigmoid(e / k) - y) ** 2)), k) for k in np.linspace(40, 600, 113))[1]
    )


def _data_chunk(
    job: tuple[str, list[str], int, float, str, int, Optional[int], Optional[int]],
) -> tuple[list[str], list[int], list[int]]:
    """One chunk of :func:`self_play`: its games played, their quiet positions from the
    eighth ply on with results (side to move's view) and, with a label depth, scores."""
    variant, starts, nodes, noise, evaluation, seed, label_depth, threads = job
    from shashki.learn.batch import playouts, search

    played = playouts(
        len(starts),
        variant=variant,
        fens=starts,
        seed=seed,
        threads=threads,
        policy="engine",
        nodes=nodes,
        noise=noise,
        evaluation=evaluation,
        positions=True,
    )
    assert played.fens is not None and played.games is not None
    _, captures = _core.family_features(played.fens, variant=variant)
    fens: list[str] = []
    results: list[int] = []
    previous, ply = -1, 0
    for fen, game, capture in zip(played.fens, played.games.tolist(), captures):
        ply = ply + 1 if game == previous else 0
        previous = game
        result = int(played.results[game])  # 1 White won, -1 Black won, 0 draw, 2 cut
        if ply < 2 or capture or result == 2:
            continue
        white = fen.startswith("W")
        fens.append(fen)
        results.append(0 if result == 0 else (1 if (result == 1) == white else -1))
    scores: list[int] = []
    if label_depth:
        found = search(
            fens, depth=label_depth, threads=threads, variant=variant, evaluation=evaluation
        )
        for cp, win in zip(found.scores.tolist(), found.wins.tolist()):
            scores.append((1000 if win > 0 else -1000) if win else max(-1000, min(1000, cp)))
    return fens, results, scores


def self_play(
    variant: str,
    games: int,
    nodes: int,
    out: str | Path,
    *,
    evaluation: str = "learned",
    noise: float = 0.03,
    seed: int = 1,
    label_depth: Optional[int] = None,
    threads: Optional[int] = None,
    chunk: int = 512,
    executor: object = None,
) -> int:
    """Play ``games`` games of ``variant`` (the engine at ``nodes`` a move with
    ``evaluation``, a share ``noise`` of random moves, from random openings) and write their
    quiet positions from the eighth ply on, with each game's result and, with
    ``label_depth``, a search's score (with the same evaluation), to ``out`` (the ``.npz``
    format). The file also keeps ``scale``: the learned (or the game's own) evaluation's
    logistic scale on these positions. ``chunk`` games a task, here on ``threads`` threads
    or over ``executor`` (a Dask ``Client`` or any ``Executor``; a network file named by
    ``evaluation`` must then be at the same path on every worker)."""

    from shashki.distributed import map_jobs as _map
    from shashki.openings import random_openings

    openings = random_openings(variant, count=max(20, min(games, 2000)), plies=6, seed=seed)
    jobs = [
        (
            variant,
            [openings[(first + i) % len(openings)] for i in range(min(chunk, games - first))],
            nodes,
            noise,
            evaluation,
            seed * 1_000_003 + first,
            label_depth,
            threads,
        )
        for first in range(0, games, chunk)
    ]
    fens: list[str] = []
    results: list[int] = []
    scores: list[int] = []
    from shashki._progress import Progress

    progress = Progress(games, "games")
    done = 0
    for job, (part, part_results, part_scores) in zip(jobs, _map(_data_chunk, jobs, executor)):
        fens.extend(part)
        results.extend(part_results)
        scores.extend(part_scores)
        done += len(job[1])
        progress.update(done, detail=f"{len(fens)} positions")
    progress.close()
    return _save_scaled(out, fens, results, variant, scores if label_depth else None)


def _save_scaled(
    out: str | Path, fens: list[str], results: list[int], variant: str, scores: Optional[Any]
) -> int:
    """:func:`save_data` with the scale of the learned evaluation (the game's own for the
    other games) fitted to these positions' results."""
    kind = "learned" if variant == "russian" else "family"
    scale = fit_scale(_core.evaluate_fens(fens, kind, variant=variant), results)
    return save_data(out, fens, results, variant=variant, scores=scores, scale=scale)


def _fit_command(args: Any) -> int:
    import numpy as np

    data = load_data(args.data)
    scales = []
    for path in args.data:
        with np.load(path) as f:
            if "scale" in f.files:
                scales.append(float(f["scale"]))
    scale = args.scale or (sum(scales) / len(scales) if scales else 130.0)
    start = None
    if getattr(args, "start", None):
        start, game, start_scale = from_bytes(Path(args.start).read_bytes())
        if game != data.variant:
            raise SystemExit(f"{args.start} is a network of {game}, the data {data.variant}'s")
        scale = args.scale or start_scale  # the network's own scale: its outputs keep meaning
    print(f"{len(data)} positions of {data.variant}; logistic scale {scale:.0f}", file=sys.stderr)
    started = time.monotonic()
    w, held, trained = train(
        data,
        scale=scale,
        epochs=args.epochs,
        rate=args.rate,
        score_share=args.score_share,
        seed=args.seed,
        start=start,
        blocks=getattr(args, "blocks", False),
    )
    blob = to_bytes(w, data.variant, scale)
    Path(args.out).write_bytes(blob)
    print(
        f"held-out loss {held:.5f} (training {trained:.5f}), {time.monotonic() - started:.0f} s; "
        f"network written to {args.out} ({len(blob)} bytes)"
    )
    return 0


def _client(address: Optional[str]) -> Any:
    if address is None:
        return None
    try:
        from dask.distributed import Client
    except ImportError:
        raise SystemExit('--scheduler needs Dask: pip install "shashki[distributed]"') from None
    return Client(address)  # type: ignore[no-untyped-call]


def _data_command(args: Any) -> int:
    started = time.monotonic()
    client = _client(args.scheduler)
    try:
        n = _data_run(args, client)
    finally:
        if client is not None:
            client.close()
    print(f"{n} positions in {args.out} ({time.monotonic() - started:.0f} s)")
    return 0


def _data_run(args: Any, client: Any) -> int:
    return self_play(
        args.variant,
        args.games,
        args.nodes,
        args.out,
        evaluation=args.evaluation,
        noise=args.noise,
        seed=args.seed,
        label_depth=args.label_depth,
        threads=args.threads,
        executor=client,
    )


def convert_text(path: str | Path, out: str | Path, variant: str = "russian") -> int:
    """A positions file of ``python -m shashki.learn.train selfplay`` / ``label``
    (``FEN<TAB>result`` with results 1.0, 0.5, 0.0, and optionally ``<TAB>score``) written
    in the ``.npz`` format, with the learned evaluation's scale on it."""

    fens: list[str] = []
    results: list[int] = []
    scores: list[int] = []
    codes = {"1.0": 1, "0.5": 0, "0.0": -1}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 2 or parts[1] not in codes:
                raise ValueError(f"{path}:{number}: not a FEN<TAB>result line")
            fens.append(parts[0])
            results.append(codes[parts[1]])
            if len(parts) > 2:
                scores.append(int(parts[2]))
    return _save_scaled(out, fens, results, variant, scores if len(scores) == len(fens) else None)


def _loop_command(args: Any) -> int:
    """Generations of data and fit: generation 0's games are played with the game's
    default evaluation (``learned``: its linear one, or its network where that is the
    default), each next one's with the network just fitted; each fit uses every
    generation's data so far. A step whose file exists is not redone (resumable)."""
    directory = Path(args.dir)
    directory.mkdir(parents=True, exist_ok=True)
    evaluation = "learned"
    data: list[str] = []
    for g in range(args.generations):
        path = directory / f"data-{g}.npz"
        if not path.exists():
            print(f"generation {g}: self-play with {evaluation}", file=sys.stderr)
            self_play(
                args.variant,
                args.games,
                args.nodes,
                str(path) + ".part.npz",
                evaluation=evaluation,
                seed=args.seed + g,
                label_depth=args.label_depth,
                threads=args.threads,
            )
            Path(str(path) + ".part.npz").rename(path)
        data.append(str(path))
        net = directory / f"network-{g}.nnue"
        if not net.exists():
            print(f"generation {g}: fit on {len(data)} data files", file=sys.stderr)
            fit_args = _Namespace(
                data=data,
                scale=None,
                epochs=args.epochs,
                rate=2e-3,
                score_share=args.score_share,
                seed=args.seed,
                out=str(net) + ".part",
            )
            _fit_command(fit_args)
            Path(str(net) + ".part").rename(net)
        evaluation = str(net)
    print(f"the last generation's network: {evaluation}")
    return 0


class _Namespace:
    def __init__(self, **kw: Any) -> None:
        self.__dict__.update(kw)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m shashki.learn.train network data|fit|loop``."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m shashki.learn.train network",
        description="train the network evaluation (docs/search.md)",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    data = sub.add_parser("data", help="self-play: positions with results (.npz)")
    loop = sub.add_parser("loop", help="generations of self-play and fit, resumable")
    for p in (data, loop):
        p.add_argument("--variant", default="russian")
        p.add_argument("--games", type=int, default=20000)
        p.add_argument("--nodes", type=int, default=1000)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--threads", type=int, default=None)
        p.add_argument(
            "--label-depth", type=int, default=None, help="add a search's score at this depth"
        )
    data.add_argument("--noise", type=float, default=0.03, help="share of random moves")
    data.add_argument(
        "--evaluation", default="learned", help="learned, family, network or a network file"
    )
    data.add_argument("--out", default="positions.npz")
    data.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="spread the games over a Dask cluster (tcp://HOST:8786)",
    )
    fit = sub.add_parser("fit", help="fit a network to data files, write it")
    fit.add_argument("data", nargs="+")
    fit.add_argument("--out", default="network.nnue")
    fit.add_argument("--seed", type=int, default=1)
    fit.add_argument("--rate", type=float, default=2e-3)
    fit.add_argument("--scale", type=float, default=None, help="default: the data's")
    fit.add_argument(
        "--start",
        default=None,
        help="a network file to go on from (its weights, its scale) instead of random weights",
    )
    fit.add_argument(
        "--blocks",
        action="store_true",
        help="add the block patterns (4×4 windows' men, a weight a state) to the network",
    )
    for p in (fit, loop):
        p.add_argument("--epochs", type=int, default=20)
        p.add_argument(
            "--score-share",
            type=float,
            default=0.0,
            help="the target's share taken from the search score (the rest: the result)",
        )
    convert = sub.add_parser("convert", help="a selfplay/label text file as .npz")
    convert.add_argument("positions")
    convert.add_argument("--variant", default="russian")
    convert.add_argument("--out", default="positions.npz")
    loop.add_argument("--generations", type=int, default=2)
    loop.add_argument("--dir", default="network-runs")
    args = parser.parse_args(argv)
    if args.command == "data":
        return _data_command(args)
    if args.command == "fit":
        return _fit_command(args)
    if args.command == "convert":
        n = convert_text(args.positions, args.out, args.variant)
        print(f"{n} positions in {args.out}")
        return 0
    return _loop_command(args)
