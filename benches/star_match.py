"""The star game's computer against the greedy player (docs/star.md, "The opponent").

One computer seat against greedy players in every other seat, the computer's seat taking
each place in turn, greedy ties by a seed a game::

    python benches/star_match.py --players 2 --games 100 --nodes 20000
    python benches/star_match.py --players 3 --size 3 --games 60 --time 0.1

A game's points go by places: first 1, last 0, evenly between ((players - place) /
(players - 1)); a game that reaches the move limit gives every unfinished player the
places left, shared. Prints the computer's points, first places, mean plies, and its
nodes a second over the match.
"""

from __future__ import annotations

import argparse
import time

from shashki.star import StarBoard


def play_game(
    args: argparse.Namespace, seat: int, seed: int
) -> tuple[float, bool, int, int, float]:
    """One game: the computer's points, whether it finished first, the plies, its nodes
    and its seconds."""
    board = StarBoard(size=args.size, players=args.players, hop_over=args.hop, max_plies=args.limit)
    nodes = 0
    seconds = 0.0
    ply = 0
    while not board.is_over():
        if board.turn == seat:
            started = time.perf_counter()
            found = board.search(
                depth=args.depth, nodes=args.nodes, time=args.time, multi=args.multi
            )
            seconds += time.perf_counter() - started
            nodes += found.nodes
            move = found.move
        else:
            move = board.greedy_move(seed * 1000 + ply)
        assert move is not None
        board.push(move)
        ply += 1
    places = board.finished
    n = board.players
    if seat in places:
        place = places.index(seat)
    else:  # unfinished: shares the places left
        left = n - len(places)
        place = len(places) + (left - 1) / 2
    points = (n - 1 - place) / (n - 1)
    return points, bool(places) and places[0] == seat, board.plies, nodes, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4, choices=(3, 4))
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 6))
    parser.add_argument("--hop", default="any", choices=("any", "others"))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--depth", type=int, default=None)
    parser.add_argument("--nodes", type=int, default=None)
    parser.add_argument("--time", type=float, default=None)
    parser.add_argument("--multi", default="best-reply", choices=("best-reply", "paranoid"))
    parser.add_argument("--limit", type=int, default=1000, help="the move limit (plies)")
    args = parser.parse_args()
    if args.depth is None and args.nodes is None and args.time is None:
        args.nodes = 20_000
    total = first = plies = nodes = 0.0
    seconds = 0.0
    for game in range(args.games):
        seat = game % args.players
        points, won, length, searched, spent = play_game(args, seat, game)
        total += points
        first += won
        plies += length
        nodes += searched
        seconds += spent
        print(
            f"game {game + 1:>4}  seat {seat}  points {points:.2f}  plies {length:>4}  "
            f"total {total:.1f}/{game + 1}",
            flush=True,
        )
    limits = ", ".join(
        f"{k} {v}"
        for k, v in (("depth", args.depth), ("nodes", args.nodes), ("time", args.time))
        if v
    )
    print(
        f"star {len(StarBoard(size=args.size).holes)} holes, {args.players} players, "
        f"hop over {args.hop}; computer ({limits}) against greedy, {args.games} games"
    )
    print(
        f"points {total:.1f}/{args.games} = {100 * total / args.games:.1f} %, first places "
        f"{int(first)}, mean plies {plies / args.games:.0f}"
    )
    rate = nodes / max(seconds, 1e-9)
    print(f"search: {int(nodes):,} nodes in {seconds:.1f} s = {rate:,.0f} nodes/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
