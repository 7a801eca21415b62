"""Engine matches (a thin script; ``python -m shashki.match`` is the runner with SPRT,
worker processes and ballots): two players over balanced openings, each opening with both colours,
adjudicated with the game layer's FMJD-64 draw rules.

    python benches/match.py --a shashki:time=0.1 --b pydraughts:depth=6 \\
        --pydraughts-python /path/to/venv-with-py-draughts/bin/python --pdn match.pdn

``--variant international`` plays International draughts (py-draughts' StandardBoard) from
random openings four plies deep (``--openings N`` of them, each with both colours).

Players: ``shashki:time=SECONDS`` (or ``depth=N``, ``nodes=N``, ``hash=MB``, ``egtb=DIR``
for endgame tables) and ``pydraughts:depth=N`` (py-draughts' SimpleEngine, run in a
subprocess with its own Python). ``--endgames N --pieces K`` starts from N random positions
of K men a side instead of the openings (to see what endgame tables change):

    python benches/match.py --a shashki:depth=6,egtb=egtb5 --b shashki:depth=6 \
        --endgames 60 --pieces 3
Prints each result, the score, the Elo difference with a 95 % interval, and writes the PDN.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

import shashki
from shashki import pdn
from shashki.engine import Engine, Limit
from shashki.game import Game
from shashki.openings import BUILTIN_OPENINGS

# Balanced two- and three-ply openings (ballot style), algebraic: the runner's, and two more.
OPENINGS = [*BUILTIN_OPENINGS, "c3-d4 f6-g5 b2-c3", "e3-d4 b6-c5 d4:b6"]
MAX_PLIES = 300


VARIANT = "russian"  # the game played (--variant)


class ShashkiPlayer:
    def __init__(self, options: dict[str, str]) -> None:
        self.engine = Engine(hash_mb=int(options.get("hash", 64)), tables=options.get("egtb"))
        self.limit = Limit(
            time=float(options["time"]) if "time" in options else None,
            depth=int(options["depth"]) if "depth" in options else None,
            nodes=int(options["nodes"]) if "nodes" in options else None,
        )
        self.name = "shashki " + ",".join(f"{k}={v}" for k, v in options.items())

    def move(self, game: Game) -> Optional[shashki.Move]:
        return self.engine.play(game, self.limit).move

    def new_game(self) -> None:
        self.engine.new_game()

    def close(self) -> None:
        pass


class PyDraughtsPlayer:
    def __init__(self, options: dict[str, str], python: str) -> None:
        self.depth = int(options.get("depth", 6))
        script = Path(__file__).with_name("pydraughts_player.py")
        self.proc = subprocess.Popen(
            [python, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.name = f"py-draughts SimpleEngine depth={self.depth}"

    def move(self, game: Game) -> Optional[shashki.Move]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        board = game.end().board()
        self.proc.stdin.write(f"{self.depth} {board.variant} {board.fen()}\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        if answer in ("", "none"):
            return None
        return game.end().board().parse_move(answer)

    def new_game(self) -> None:
        pass

    def close(self) -> None:
        self.proc.kill()


def make_player(spec: str, python: str):
    kind, _, rest = spec.partition(":")
    options = dict(item.split("=", 1) for item in rest.split(",") if item)
    if kind == "shashki":
        return ShashkiPlayer(options)
    if kind == "pydraughts":
        return PyDraughtsPlayer(options, python)
    raise SystemExit(f"unknown player {spec!r}")


def random_endgames(count: int, men: int, seed: int) -> list[str]:
    """``count`` random positions of ``men`` men a side, White to move, no capture due,
    both sides with moves: starting points for endgame matches."""
    import random

    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        squares = rng.sample(range(4, 28), 2 * men)
        white = [shashki.square_number(s) for s in squares[:men]]
        black = [shashki.square_number(s) for s in squares[men:]]
        fen = f"W:W{','.join(map(str, white))}:B{','.join(map(str, black))}"
        board = shashki.Board(fen)
        if board.has_captures() or not board.legal_moves:
            continue
        if not board.mirror().legal_moves or board.mirror().has_captures():
            continue
        out.append("fen:" + fen)
    return out


def play_game(white, black, opening: str) -> tuple[Game, dict[str, float]]:
    if opening.startswith("fen:"):
        game = Game(opening[4:], variant=VARIANT)
        opening_plies = 0
    else:
        game = Game()
        for text in opening.split():
            game.push_move(text)
        opening_plies = len(opening.split())
    game.headers["White"], game.headers["Black"] = white.name, black.name
    game.headers["Event"] = f"shashki match, opening {opening}"
    del opening_plies
    times = {white.name: 0.0, black.name: 0.0}
    while not game.is_game_over() and game.ply() < MAX_PLIES:
        player = white if game.end().board().turn else black
        start = time.perf_counter()
        move = player.move(game)
        times[player.name] += time.perf_counter() - start
        if move is None:
            break
        game.push(move)
    if not game.is_game_over():
        game.agree_draw()  # adjudicated: the ply limit
    game.headers["Result"] = game.result()
    return game, times


def elo(score: float, games: int, results: list[float]) -> str:
    if games == 0:
        return "n/a"
    mean = sum(results) / games
    var = sum((r - mean) ** 2 for r in results) / max(games - 1, 1)
    margin = 1.96 * math.sqrt(var / games)

    def to_elo(p: float) -> float:
        p = min(max(p, 1e-4), 1 - 1e-4)
        return -400 * math.log10(1 / p - 1)

    return f"{to_elo(mean):+.0f} [{to_elo(mean - margin):+.0f}, {to_elo(mean + margin):+.0f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="shashki:time=0.1")
    parser.add_argument("--b", default="pydraughts:depth=6")
    parser.add_argument("--openings", type=int, default=len(OPENINGS))
    parser.add_argument("--pydraughts-python", default=sys.executable)
    parser.add_argument("--pdn", default=None, help="write the games here")
    parser.add_argument("--endgames", type=int, default=0, help="random endgame starts")
    parser.add_argument("--pieces", type=int, default=3, help="men a side in the endgames")
    parser.add_argument("--seed", type=int, default=1, help="of the random endgames")
    parser.add_argument(
        "--variant",
        default="russian",
        choices=("russian", "international"),
        help="the game (international: random openings four plies deep, each both colours)",
    )
    args = parser.parse_args()
    global VARIANT
    VARIANT = args.variant
    if args.variant != "russian":
        from shashki.openings import load_openings

        fens = load_openings("random", seed=args.seed, variant=args.variant)
        openings = ["fen:" + fen for fen in fens[: args.openings]]
    else:
        openings = (
            random_endgames(args.endgames, args.pieces, args.seed)
            if args.endgames
            else OPENINGS[: args.openings]
        )
    for opening in OPENINGS:
        board = shashki.Board()
        for text in opening.split():
            board.push_move(text)  # raises on an illegal opening
    a = make_player(args.a, args.pydraughts_python)
    b = make_player(args.b, args.pydraughts_python)
    results: list[float] = []
    wins = draws = losses = 0
    texts = []
    totals = {a.name: 0.0, b.name: 0.0}
    moves = {a.name: 0, b.name: 0}
    try:
        for opening in openings:
            for a_white in (True, False):
                white, black = (a, b) if a_white else (b, a)
                a.new_game()
                b.new_game()
                game, times = play_game(white, black, opening)
                for name, t in times.items():
                    totals[name] += t
                plies = game.ply() - (0 if opening.startswith("fen:") else len(opening.split()))
                moves[white.name] += (plies + 1) // 2
                moves[black.name] += plies // 2
                result = game.result()
                points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
                a_points = points if a_white else 1 - points
                results.append(a_points)
                wins += a_points == 1
                losses += a_points == 0
                draws += a_points == 0.5
                outcome = game.outcome()
                why = outcome.termination.value if outcome else "?"
                print(
                    f"{opening:22} {'A white' if a_white else 'B white'}: {result:8} ({why})",
                    flush=True,
                )
                texts.append(pdn.write_game(game))
    finally:
        a.close()
        b.close()
    n = len(results)
    score = sum(results)
    print(f"\nA = {a.name}\nB = {b.name}")
    print(f"A scores {score}/{n} ({100 * score / max(n, 1):.1f} %): +{wins} ={draws} -{losses}")
    print(f"Elo difference (A - B): {elo(score, n, results)}")
    for name in (a.name, b.name):
        print(f"{name}: {totals[name] / max(moves[name], 1):.3f} s a move")
    if args.pdn:
        Path(args.pdn).write_text("\n".join(texts), encoding="utf-8")
        print(f"PDN written to {args.pdn}")


if __name__ == "__main__":
    main()
