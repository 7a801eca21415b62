"""A small self-play policy-value loop over :class:`shashki.learn.batch.Boards` that learns in
minutes on two cores, numpy only (the ``rl`` extra for the evaluation's environment).

The policy is linear: logits ``planes @ W`` over the batch actions, sampled in Rust
(``Boards.sample_actions(logits)``, the masked softmax); the value is linear too,
``tanh(planes @ v)``. Each round plays ``--games`` games against themselves (both sides the
current policy), and every finished game's actions are pushed towards its result for the
side that played them, less the value's guess (REINFORCE with a learned baseline); the value
is fitted to the results. Then the policy (its arg-max, temperature 0) plays a random mover
and the engine searching one ply, through :class:`shashki.learn.rl.DraughtsEnv`, with both
colours, each game after a random opening of the policy's first three decisions.

    python examples/learn_policy.py [--variant english] [--rounds 30] [--games 512]

Measured on the batch page (docs/batch.md).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from shashki.engine import Limit
from shashki.learn.batch import Boards


def softmax_rows(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The softmax of each row over its legal actions (zeros elsewhere)."""
    masked = np.where(mask, logits, -np.inf)
    weights = np.exp(masked - masked.max(axis=1, keepdims=True))
    return weights / weights.sum(axis=1, keepdims=True)


def self_play(
    boards: Boards, weights: np.ndarray, steps: int
) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], list[float]]:
    """``steps`` steps of every game with the policy: each finished game's observations,
    actions, masks and its result for the player of each step."""
    n = len(boards)
    observations, actions_taken, masks, targets = [], [], [], []
    episodes: list[list[tuple[np.ndarray, int, np.ndarray, str]]] = [[] for _ in range(n)]
    planes = boards.observation()
    for _ in range(steps):
        flat = planes.reshape(n, -1)
        mask = boards.legal_action_mask()
        turns = [fen[0] for fen in boards.fens()]
        actions = boards.sample_actions(flat @ weights)
        planes, rewards, terminated, truncated = boards.step(actions)
        for i in range(n):
            episodes[i].append((flat[i], int(actions[i]), mask[i], turns[i]))
            if terminated[i] or truncated[i]:
                last_turn = turns[i]
                for obs, action, legal, turn in episodes[i]:
                    value = float(rewards[i]) if turn == last_turn else -float(rewards[i])
                    observations.append(obs)
                    actions_taken.append(np.int64(action))
                    masks.append(legal)
                    targets.append(value)
                episodes[i] = []
    return observations, actions_taken, masks, targets


def train(args: argparse.Namespace) -> np.ndarray:
    boards = Boards(args.games, variant=args.variant, seed=args.seed)
    features = int(np.prod(boards.observation_shape))
    weights = np.zeros((features, boards.action_count), np.float32)
    value = np.zeros(features, np.float32)
    for round_ in range(args.rounds):
        started = time.perf_counter()
        obs, actions, masks, targets = self_play(boards, weights, args.steps)
        if not obs:
            continue
        x = np.asarray(obs, np.float32)
        a = np.asarray(actions)
        legal = np.asarray(masks)
        z = np.asarray(targets, np.float32)
        guess = np.tanh(x @ value)
        advantage = z - guess
        probabilities = softmax_rows(x @ weights, legal)
        grad = -probabilities
        grad[np.arange(len(a)), a] += 1.0
        grad *= advantage[:, None]
        weights += args.lr * (x.T @ grad) / len(a)
        value += args.lr * (x.T @ ((z - guess) * (1 - guess**2))) / len(a)
        print(
            f"round {round_ + 1}: {len(a):,} positions, value loss "
            f"{float(np.mean((z - guess) ** 2)):.3f}, {time.perf_counter() - started:.1f} s",
            flush=True,
        )
    return weights


#: The policy's first decisions of each evaluation game are drawn at random (both players'
#: being deterministic, every game would otherwise be the same).
OPENING_DECISIONS = 3


def evaluate(weights: np.ndarray, variant: str, opponent: object, games: int, seed: int) -> str:
    """The policy's arg-max against ``opponent`` after a random opening of its first
    :data:`OPENING_DECISIONS` decisions, half the games with each colour: W/D/L."""
    from shashki.learn.rl import DraughtsEnv

    score = {1: 0, 0: 0, -1: 0}
    for game in range(games):
        env = DraughtsEnv(opponent, agent_color=game % 2 == 0, variant=variant, max_plies=300)
        observation, info = env.reset(seed=seed + game)
        rng = np.random.default_rng(seed + game)
        reward, done, decisions = 0.0, False, 0
        while not done:
            logits = observation.reshape(-1) @ weights
            legal = info["action_mask"]
            if decisions < OPENING_DECISIONS:  # a random opening: every game its own
                action = int(rng.choice(np.flatnonzero(legal)))
            else:
                action = int(np.where(legal, logits, -np.inf).argmax())
            decisions += 1
            observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        score[int(np.sign(reward))] += 1
        env.close()
    points = score[1] + score[0] / 2
    return f"+{score[1]} ={score[0]} -{score[-1]} ({100 * points / games:.1f} %)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="english")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--games", type=int, default=512)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--lr", type=float, default=0.5)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    weights = train(args)
    print(f"trained in {time.perf_counter() - started:.0f} s")
    for name, opponent in (("a random mover", "random"), ("the engine at depth 1", Limit(depth=1))):
        trained = evaluate(weights, args.variant, opponent, args.eval_games, 10_000)
        untrained = np.zeros_like(weights)  # every logit 0: the lowest legal action
        before = evaluate(untrained, args.variant, opponent, args.eval_games, 10_000)
        print(f"against {name}: the learned policy {trained}; the untrained one {before}")


if __name__ == "__main__":
    main()
