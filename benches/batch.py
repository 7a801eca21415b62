"""Speed of the batch API (``shashki.learn.batch``): random self-play steps a second, each step
reading the legal-action mask and the observation, as a learning loop does; and, when
``open_spiel`` is installed (``pip install open-spiel``), the same loop over OpenSpiel's
``checkers`` through its Python API, in the same run.

    python benches/batch.py [--games 4096] [--steps 200] [--warmup 300] [--variant english]
                            [--spiel-python PATH]
    python benches/batch.py --policy [--variant english] [--games 4096]

``--policy`` times a policy's loop: logits kept as a float32 array ``(n, action_count)``,
``sample_actions(logits)`` (the masked softmax sampled in Rust) then ``step(actions,
out=planes, mask=packed)`` (uint8 planes, the packed mask), on one thread and on two
(``Boards(threads=…)``); beside it the same sampling done in numpy over the dense mask, and
OpenSpiel's ``checkers`` (step + mask + observation, no sampling from logits), in the same
run.

``--variant`` plays another game (English draughts is OpenSpiel's ``checkers``; the 10×10
games, ``international`` among them, step on their own board: 1800 actions, 10×10 planes);
``--spiel-python`` runs the OpenSpiel loop under another interpreter (OpenSpiel in its own
virtual environment), still in the same run.

Each loop first runs ``--warmup`` steps untimed: a learning loop runs for millions of steps,
and the first few hundred grow the games' records and the arrays' pages.
"""

from __future__ import annotations

import argparse
import time

from shashki.learn.batch import Boards

WARMUP = 300


def shashki_steps(games: int, steps: int) -> float:
    boards = Boards(games, seed=1)
    rate = 0.0
    for count in (WARMUP, steps):
        started = time.perf_counter()
        for _ in range(count):
            boards.legal_action_mask()
            boards.step(boards.sample_actions())  # returns the observation too
        rate = games * count / (time.perf_counter() - started)
    return rate


def shashki_steps_into_arrays(games: int, steps: int) -> float:
    """The same loop writing into the same arrays every step (``out=``)."""
    import numpy as np
    from shashki.learn.batch import ACTIONS, PLANES

    boards = Boards(games, seed=1)
    mask = np.empty((games, ACTIONS), np.bool_)
    planes = np.empty((games, PLANES, 8, 8), np.float32)
    rate = 0.0
    for count in (WARMUP, steps):
        started = time.perf_counter()
        for _ in range(count):
            boards.legal_action_mask(out=mask)
            boards.step(boards.sample_actions(), out=planes)
        rate = games * count / (time.perf_counter() - started)
    return rate


def shashki_steps_with_the_mask(games: int, steps: int, dtype: str = "float32") -> float:
    """The same loop with the next mask written by the step itself (``mask=``)."""
    import numpy as np
    from shashki.learn.batch import ACTIONS, PLANES

    boards = Boards(games, seed=1, dtype=dtype)
    mask = np.empty((games, ACTIONS), np.bool_)
    planes = np.empty((games, PLANES, 8, 8), dtype)
    boards.legal_action_mask(out=mask)
    rate = 0.0
    for count in (WARMUP, steps):
        started = time.perf_counter()
        for _ in range(count):
            boards.step(boards.sample_actions(), out=planes, mask=mask)
        rate = games * count / (time.perf_counter() - started)
    return rate


def shashki_steps_caller_chooses(
    games: int,
    steps: int,
    variant: str,
    lists: bool,
    mask_too: bool = True,
    reuse: bool = False,
) -> float:
    """A learning loop as a user writes it: the caller draws a uniformly random legal action
    of each game with numpy, from the mask (its legal entries found with ``nonzero``) or,
    with ``lists``, from :meth:`Boards.legal_actions` (and with ``mask_too`` takes the mask
    as well, as a policy masking its logits does); step + mask + observation, fresh arrays
    every step (they leave the cache between steps), or with ``reuse`` the same mask and
    planes arrays every step (``out=``) and uint8 planes."""
    import numpy as np

    dtype = np.uint8 if reuse else np.float32
    boards = Boards(games, seed=1, variant=variant, dtype=dtype)
    mask = np.empty((games, boards.action_count), np.bool_)
    planes = np.empty((games, *boards.observation_shape), dtype)
    rng = np.random.default_rng(1)
    rate = 0.0
    for count in (WARMUP, steps):
        started = time.perf_counter()
        for _ in range(count):
            if lists:
                if mask_too:
                    if reuse:
                        boards.legal_action_mask(out=mask)
                    else:
                        boards.legal_action_mask()
                offsets, legal = boards.legal_actions()
                counts = np.diff(offsets)
                first = offsets[:-1]
            else:
                rows, legal = np.nonzero(boards.legal_action_mask())
                counts = np.bincount(rows, minlength=games)
                first = np.concatenate(([0], np.cumsum(counts)[:-1]))
            pick = first + (rng.random(games) * np.maximum(counts, 1)).astype(np.int64)
            actions = legal[np.minimum(pick, len(legal) - 1)]
            if reuse:
                boards.step(actions, out=planes)
            else:
                boards.step(actions)
        rate = games * count / (time.perf_counter() - started)
    return rate


def policy_loop(games: int, steps: int, variant: str, threads: int) -> float:
    """The policy's loop: kept float32 logits sampled in Rust, the step writing uint8 planes
    and the packed mask."""
    import numpy as np
    from shashki.learn.batch import packed_width

    boards = Boards(games, seed=1, variant=variant, dtype=np.uint8, threads=threads)
    logits = np.random.default_rng(1).standard_normal((games, boards.action_count))
    logits = logits.astype(np.float32)
    planes = np.empty((games, *boards.observation_shape), np.uint8)
    packed = np.empty((games, packed_width(boards.action_count)), np.uint8)
    boards.legal_action_mask(out=packed)
    rate = 0.0
    for count in (WARMUP, steps):
        started = time.perf_counter()
        for _ in range(count):
            boards.step(boards.sample_actions(logits), out=planes, mask=packed)
        rate = games * count / (time.perf_counter() - started)
    return rate


def policy_loop_numpy(games: int, steps: int, variant: str) -> float:
    """The same loop sampling in numpy: the dense mask, a masked softmax, one draw a row."""
    import numpy as np

    boards = Boards(games, seed=1, variant=variant, dtype=np.uint8, threads=1)
    logits = np.random.default_rng(1).standard_normal((games, boards.action_count))
    logits = logits.astype(np.float32)
    planes = np.empty((games, *boards.observation_shape), np.uint8)
    mask = np.empty((games, boards.action_count), np.bool_)
    boards.legal_action_mask(out=mask)
    rng = np.random.default_rng(2)
    rate = 0.0
    for count in (min(WARMUP, 20), max(steps // 10, 5)):
        started = time.perf_counter()
        for _ in range(count):
            masked = np.where(mask, logits, -np.inf)
            weights = np.exp(masked - masked.max(axis=1, keepdims=True))
            cumulative = np.cumsum(weights, axis=1)
            draw = rng.random((games, 1)) * cumulative[:, -1:]
            actions = (cumulative < draw).sum(axis=1)
            boards.step(actions, out=planes, mask=mask)
        rate = games * count / (time.perf_counter() - started)
    return rate


def policy_main(args: argparse.Namespace) -> None:
    one = policy_loop(args.games, args.steps, args.variant, 1)
    two = policy_loop(args.games, args.steps, args.variant, 2)
    one_again = policy_loop(args.games, args.steps, args.variant, 1)
    two_again = policy_loop(args.games, args.steps, args.variant, 2)
    numpy_rate = policy_loop_numpy(args.games, args.steps, args.variant)
    print(
        f"policy loop, Boards({args.games}, variant={args.variant!r}): sample_actions(logits) "
        f"-> step(out=uint8 planes, mask=packed): 1 thread {one:,.0f} and {one_again:,.0f} "
        f"steps/s, 2 threads {two:,.0f} and {two_again:,.0f} "
        f"({(two + two_again) / (one + one_again):.2f}x)"
    )
    print(f"the same sampling in numpy over the dense mask, 1 thread: {numpy_rate:,.0f} steps/s")
    if args.spiel_python:
        spiel = open_spiel_steps_elsewhere(args.spiel_python, 20_000)
    else:
        spiel = open_spiel_steps(20_000)
    if spiel is not None:
        print(
            f"OpenSpiel checkers, one state, step + mask + observation: {spiel:,.0f} steps/s "
            f"(the 1-thread policy loop {min(one, one_again) / spiel:.0f}x)"
        )


SPIEL_LOOP = """
import random, sys, time
import numpy as np
import pyspiel
game = pyspiel.load_game("checkers")
rng = random.Random(1)
state = game.new_initial_state()
steps = int(sys.argv[1])
started = time.perf_counter()
for _ in range(steps):
    if state.is_terminal():
        state = game.new_initial_state()
    np.asarray(state.observation_tensor())
    mask = np.asarray(state.legal_actions_mask())
    state.apply_action(rng.choice(np.flatnonzero(mask).tolist()))
print(steps / (time.perf_counter() - started))
"""


def open_spiel_steps_elsewhere(python: str, steps: int) -> float:
    """OpenSpiel's loop (step + mask + observation, the action drawn from the mask) under
    another interpreter."""
    import subprocess

    out = subprocess.run(
        [python, "-c", SPIEL_LOOP, str(steps)], capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip())


def open_spiel_steps(steps: int) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    import random

    game = pyspiel.load_game("checkers")
    rng = random.Random(1)
    state = game.new_initial_state()
    started = time.perf_counter()
    for _ in range(steps):
        if state.is_terminal():
            state = game.new_initial_state()
        state.observation_tensor()
        state.legal_actions_mask()
        state.apply_action(rng.choice(state.legal_actions()))
    return steps / (time.perf_counter() - started)


def main() -> None:
    global WARMUP
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=WARMUP)
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--spiel-python", help="an interpreter that has open_spiel")
    parser.add_argument("--policy", action="store_true", help="time the policy's loop")
    args = parser.parse_args()
    WARMUP = args.warmup
    if args.policy:
        policy_main(args)
        return
    if args.variant != "russian":
        listed = shashki_steps_caller_chooses(args.games, args.steps, args.variant, True)
        print(
            f"shashki.learn.batch: Boards({args.games}, variant={args.variant!r}), the caller "
            f"drawing from legal_actions() with numpy, + mask + observation: {listed:,.0f} "
            "steps/s"
        )
        bare = shashki_steps_caller_chooses(args.games, args.steps, args.variant, True, False)
        print(f"shashki.learn.batch: the same without the mask: {bare:,.0f} steps/s")
        masked = shashki_steps_caller_chooses(args.games, args.steps, args.variant, False)
        print(f"shashki.learn.batch: the same, drawing from the mask: {masked:,.0f} steps/s")
        if args.spiel_python:
            spiel = open_spiel_steps_elsewhere(args.spiel_python, 20_000)
            print(
                f"OpenSpiel checkers, one state, step + mask + observation: {spiel:,.0f} "
                f"steps/s (shashki {listed / spiel:.0f}× and {masked / spiel:.0f}×)"
            )
        return
    hot = shashki_steps(args.games, args.steps)
    print(
        f"shashki.learn.batch: Boards({args.games}), step + mask + observation: {hot:,.0f} steps/s"
    )
    real = shashki_steps_caller_chooses(args.games, args.steps, args.variant, True)
    print(
        "shashki.learn.batch: a learning loop's (the caller drawing each action from "
        f"legal_actions() with numpy, + mask + observation, new arrays): {real:,.0f} steps/s "
        f"({hot / real:.2f}× slower than the loop above)"
    )
    reused = shashki_steps_caller_chooses(args.games, args.steps, args.variant, True, True, True)
    print(
        "shashki.learn.batch: the same learning loop, its mask and uint8 planes written into the "
        f"same arrays (out=): {reused:,.0f} steps/s ({hot / reused:.2f}×)"
    )
    rate = hot
    rate = shashki_steps_into_arrays(args.games, args.steps)
    print(f"shashki.learn.batch: the same, into the same arrays (out=): {rate:,.0f} steps/s")
    rate = shashki_steps_with_the_mask(args.games, args.steps)
    print(
        f"shashki.learn.batch: the same, the mask written by the step (mask=): {rate:,.0f} steps/s"
    )
    rate = shashki_steps_with_the_mask(args.games, args.steps, "uint8")
    print(
        f"shashki.learn.batch: the same, uint8 planes (Boards(n, dtype=np.uint8)): "
        f"{rate:,.0f} steps/s"
    )
    spiel = open_spiel_steps(20_000)
    if spiel is not None:
        print(f"OpenSpiel checkers, one state, step + mask + observation: {spiel:,.0f} steps/s")


if __name__ == "__main__":
    main()
