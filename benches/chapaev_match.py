"""Чапаев: the computer against the random flicker, and level against level
(docs/chapaev.md, "The computer that aims").

    python benches/chapaev_match.py --a 1 --b random --rounds 100
    python benches/chapaev_match.py --a 3 --b 1 --rounds 100

Rounds from the first ranks, the starting side alternating, each player's seed new each
round; a round is won when the other side has no disc left, drawn at the flick limit or
when both sides' last discs fall at once. Prints A's rounds won, drawn and lost, its score,
and the simulations a second of the computers' aiming.
"""

from __future__ import annotations

import argparse
import time

from shashki.chapaev import LEVELS, ChapaevBoard


def choose(board: ChapaevBoard, player: str, seed: int) -> str:
    if player == "random":
        flick = board.random_flick(seed)
    else:
        flick = board.aim(int(player), seed)
    assert flick is not None
    return flick


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="1", help="a level (1, 2, 3) or random")
    parser.add_argument("--b", default="random")
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    won = drawn = lost = 0
    simulations = 0
    seconds = 0.0
    flicks = 0
    for game in range(args.rounds):
        a_side = "w" if game % 2 == 0 else "b"
        board = ChapaevBoard()
        step = 0
        while board.result() is None:
            step += 1
            mover = args.a if board.turn == a_side else args.b
            started = time.perf_counter()
            flick = choose(board, mover, game * 10_000 + step)
            if mover != "random":
                seconds += time.perf_counter() - started
                simulations += LEVELS.get(int(mover), int(mover))
            board.play(flick)
            flicks += 1
        result = board.result()
        if result == a_side:
            won += 1
        elif result == "draw":
            drawn += 1
        else:
            lost += 1
        print(f"round {game + 1:>4}: A {a_side} {result:>4}  +{won} ={drawn} -{lost}", flush=True)
    score = (won + drawn / 2) / args.rounds
    tally = f"+{won} ={drawn} -{lost}, {100 * score:.1f} %"
    print(f"A = {args.a}, B = {args.b}: {args.rounds} rounds, {tally}")
    print(f"{flicks / args.rounds:.1f} flicks a round")
    if seconds:
        rate = simulations / seconds
        print(f"aiming: {simulations:,} simulated flicks in {seconds:.1f} s = {rate:,.0f} a second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
