"""Engine matches and SPRT tests: ``python -m shashki.match``.

Two players play game pairs: each opening once with each colour. Games run in parallel
worker processes (one per core by default; any ``concurrent.futures.Executor`` from the
API), under the FMJD-64 draw rules of the game layer. Results: W/D/L, score, Elo with its
95 % interval, pentanomial counts (the five outcomes of a pair, 0 to 2 points in halves),
and, with ``--sprt ELO0,ELO1``, a sequential probability ratio test as fishtest runs it
(log-likelihood ratio of the pentanomial results, stopping at the bounds of α = β = 0.05).

Players (``--a``, ``--b``):

- ``shashki[:hash=MB,threads=N,egtb=DIR,eval=learned|classic]``: the engine of this
  installed package.
- ``hub:COMMAND``: any engine speaking the Hub protocol, e.g. another build of shashki:
  ``hub:/path/venv/bin/python -m shashki hub``. ``python -m shashki.match base REV DIR``
  builds the package of a git revision into a venv at DIR and prints this spec.

Limits: ``--nodes N`` a move (fixed nodes: free of the machine's speed swings), ``--time S``
a move, or ``--tc BASE+INC`` clocks in seconds. Openings: ``--openings ballots`` (the 3-move
ballots of pydraughts' ``russian.json``, when pydraughts is installed), ``150`` (its 150
positions), ``builtin``, or a file of FENs. ``--pdn FILE`` keeps every game.

    python -m shashki.match --a shashki --b "hub:/tmp/base/bin/python -m shashki hub" \\
        --nodes 20000 --openings ballots --sprt 0,10 --pdn games.pdn
"""

from __future__ import annotations

import argparse
import math
import os
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from pathlib import Path

import shashki
from shashki import pdn
from shashki.game import Game

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Optional

    from shashki.engine import HubEngine, Limit

BUILTIN_OPENINGS = [
    "c3-d4 f6-g5",
    "c3-d4 d6-c5",
    "c3-d4 b6-a5",
    "c3-b4 f6-g5",
    "c3-b4 b6-c5",
    "e3-d4 d6-c5",
    "e3-f4 f6-g5",
    "g3-h4 b6-a5",
    "g3-f4 f6-e5",
    "a3-b4 b6-a5",
]
MAX_PLIES = 300


# ---- limits and players --------------------------------------------------------------------


class TimeControl:
    """How long a player may think: ``nodes`` or ``time`` a move, or a clock of ``base``
    seconds plus ``inc`` a move."""

    def __init__(
        self,
        *,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        base: Optional[float] = None,
        inc: float = 0.0,
        depth: Optional[int] = None,
    ) -> None:
        if sum(x is not None for x in (nodes, time, base, depth)) != 1:
            raise ValueError("give exactly one of nodes, time, a clock (base+inc) or depth")
        self.nodes, self.time, self.base, self.inc, self.depth = nodes, time, base, inc, depth

    @classmethod
    def parse_clock(cls, text: str) -> TimeControl:
        base, _, inc = text.partition("+")
        try:
            return cls(base=float(base), inc=float(inc or 0))
        except ValueError:
            raise ValueError(f"a clock is BASE+INC in seconds, not {text!r}") from None

    def __repr__(self) -> str:
        if self.nodes is not None:
            return f"{self.nodes} nodes a move"
        if self.time is not None:
            return f"{self.time:g} s a move"
        if self.depth is not None:
            return f"depth {self.depth}"
        return f"{self.base:g}+{self.inc:g} s"


class Adjudication:
    """Ending games by the engines' own scores, as fishtest does (off unless set): a draw
    once ``draw_plies`` plies in a row (after ply ``draw_after``) were each scored within
    ±``draw_cp`` centi-men by the engine that played them; a win once ``win_plies`` plies in
    a row were scored ``win_cp`` or more for the same side by both engines (a forced win
    counts as any score)."""

    def __init__(
        self,
        *,
        draw_plies: Optional[int] = None,
        draw_cp: int = 10,
        draw_after: int = 60,
        win_plies: Optional[int] = None,
        win_cp: int = 600,
    ) -> None:
        for name, value in (("draw_plies", draw_plies), ("win_plies", win_plies)):
            if value is not None and value < 1:
                raise ValueError(f"{name} must be positive, not {value}")
        self.draw_plies, self.draw_cp, self.draw_after = draw_plies, draw_cp, draw_after
        self.win_plies, self.win_cp = win_plies, win_cp

    def verdict(self, scores: list[tuple[bool, Optional[int]]], ply: int) -> Optional[str]:
        """``"1/2-1/2"``, ``"1-0"``, ``"0-1"`` or None, from ``(mover, centi-men from the
        mover's view)`` of every ply so far."""
        if self.draw_plies and ply >= self.draw_after and len(scores) >= self.draw_plies:
            recent = scores[-self.draw_plies :]
            if all(s is not None and abs(s) <= self.draw_cp for _, s in recent):
                return "1/2-1/2"
        if self.win_plies and len(scores) >= self.win_plies:
            recent = scores[-self.win_plies :]
            winners = set()
            for mover, s in recent:
                if s is None or abs(s) < self.win_cp:
                    return None
                winners.add(mover if s > 0 else not mover)
            movers = {mover for mover, _ in recent}
            if len(winners) == 1 and len(movers) == 2:
                return "1-0" if winners.pop() else "0-1"
        return None


def _centi_men(score: object) -> Optional[int]:
    """A Score (cp, or a forced win ±10000) as centi-men."""
    win = getattr(score, "win", None)
    if win is not None:
        return 10000 if win > 0 else -10000
    cp = getattr(score, "cp", None)
    return None if cp is None else int(cp)


def _limit(game: Game, tc: TimeControl, clock: float) -> Limit:
    """The limit of a move: fixed nodes, time or depth, or the mover's clock."""
    from shashki.engine import Limit

    if tc.base is None:
        return Limit(nodes=tc.nodes, time=tc.time, depth=tc.depth)
    turn = game._board.turn
    return Limit(
        white_clock=clock if turn else None,
        black_clock=None if turn else clock,
        white_inc=tc.inc,
        black_inc=tc.inc,
    )


class ShashkiPlayer:
    """This package's engine, in the worker's process."""

    def __init__(self, options: dict[str, str]) -> None:
        from shashki.engine import Engine

        self.engine: Engine | HubEngine = Engine(
            hash_mb=int(options.get("hash", 16)),
            threads=int(options.get("threads", 1)),
            tables=options.get("egtb"),
            evaluation=options.get("eval", "learned"),
        )
        self.last_score: Optional[int] = None  # the last move's score, mover's view

    def new_game(self) -> None:
        self.engine.new_game()

    def move(self, game: Game, tc: TimeControl, clock: float) -> Optional[shashki.Move]:
        if not game._board.legal_moves:
            return None
        result = self.engine.play(game, _limit(game, tc, clock))
        score = result.info.get("score")
        self.last_score = None if score is None else _centi_men(score.relative)
        return result.move

    def close(self) -> None:
        self.engine.close()


class HubPlayer(ShashkiPlayer):
    """An engine speaking the Hub protocol, in a subprocess (``shashki.engine.HubEngine``:
    a hung or dead engine is an ``EngineError`` within ``HUB_TIMEOUT`` seconds beyond the
    move's own time, not a hung match)."""

    def __init__(self, command: str) -> None:
        from shashki.engine import HubEngine

        self.engine = HubEngine.popen(command, timeout=HUB_TIMEOUT)
        self.last_score = None


HUB_TIMEOUT = 30.0
"""Seconds of silence after which a Hub engine counts as hung."""


def make_player(spec: str) -> ShashkiPlayer:
    """A player from its spec (see the module docs)."""
    kind, _, rest = spec.partition(":")
    if kind == "shashki":
        options = dict(item.split("=", 1) for item in rest.split(",") if item)
        return ShashkiPlayer(options)
    if kind == "hub":
        if not rest:
            raise ValueError("hub: needs the engine's command")
        return HubPlayer(rest)
    raise ValueError(f"unknown player {spec!r} (shashki[:options] or hub:COMMAND)")


# ---- games ---------------------------------------------------------------------------------


def play_game(
    white: ShashkiPlayer,
    black: ShashkiPlayer,
    opening: str,
    tc: TimeControl,
    names: tuple[str, str],
    adjudication: Optional[Adjudication] = None,
) -> Game:
    """One game from an opening (a FEN, or moves from the start), to its end under the
    FMJD-64 draw rules; a game that reaches 300 plies is adjudicated a draw, a player that
    loses on time or gives no move loses; with ``adjudication``, the engines' scores may
    end it earlier."""
    if ":" in opening:
        game = Game(opening)
    else:
        game = Game()
        for text in opening.split():
            game.push_move(text)
    game.headers["White"], game.headers["Black"] = names
    game.headers["Event"] = "shashki.match"
    game.headers["Opening"] = opening
    white.new_game()
    black.new_game()
    clocks = {True: tc.base or 0.0, False: tc.base or 0.0}
    scores: list[tuple[bool, Optional[int]]] = []
    while not game.is_game_over() and game.ply() < MAX_PLIES:
        turn = game._board.turn
        player = white if turn else black
        start = time.perf_counter()
        move = player.move(game, tc, clocks[turn])
        if tc.base is not None:
            clocks[turn] += tc.inc - (time.perf_counter() - start)
            if clocks[turn] < 0:
                game.headers["Termination"] = "time forfeit"
                game.headers["Result"] = "0-1" if turn else "1-0"
                return game
        if move is None or move not in game._board.legal_moves:
            game.headers["Termination"] = "no move"
            game.headers["Result"] = "0-1" if turn else "1-0"
            return game
        game.push(move)
        if adjudication is not None:
            scores.append((turn, player.last_score))
            verdict = adjudication.verdict(scores, len(scores))
            if verdict is not None and not game.is_game_over():
                game.headers["Termination"] = "adjudicated by score"
                game.headers["Result"] = verdict
                return game
    if not game.is_game_over():
        game.agree_draw()
        game.headers["Termination"] = f"adjudicated: {MAX_PLIES} plies"
    return game


_LOCAL = threading.local()
_MADE: list[ShashkiPlayer] = []  # every player of this process, to close
_MADE_LOCK = threading.Lock()


def _player(spec: str) -> ShashkiPlayer:
    """One player a spec and worker (process or thread), made on first use and kept until
    :func:`close_players`."""
    players: dict[str, ShashkiPlayer] = getattr(_LOCAL, "players", {})
    _LOCAL.players = players
    player = players.get(spec)
    with _MADE_LOCK:
        if player is None or player not in _MADE:
            player = players[spec] = make_player(spec)
            _MADE.append(player)
    return player


def close_players() -> None:
    """Close every player this process made (their engines and subprocesses)."""
    with _MADE_LOCK:
        made = list(_MADE)
        _MADE.clear()
    for player in made:
        player.close()


def play_pair(
    spec_a: str,
    spec_b: str,
    opening: str,
    tc: TimeControl,
    adjudication: Optional[Adjudication] = None,
) -> tuple[float, list[str]]:
    """A's points in the pair (0 to 2) and the two games' PDN: A with White, then Black."""
    a, b = _player(spec_a), _player(spec_b)
    points = 0.0
    texts = []
    for a_white in (True, False):
        white, black = (a, b) if a_white else (b, a)
        names = ("A " + spec_a, "B " + spec_b) if a_white else ("B " + spec_b, "A " + spec_a)
        game = play_game(white, black, opening, tc, names, adjudication)
        result = game.headers["Result"]
        white_points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        points += white_points if a_white else 1 - white_points
        texts.append(pdn.write_game(game))
    return points, texts


# ---- statistics ----------------------------------------------------------------------------


def elo_from_score(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def score_from_elo(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


class Results:
    """Pentanomial counts: ``pairs[k]`` pairs in which A scored ``k / 2`` points."""

    def __init__(self) -> None:
        self.pairs = [0, 0, 0, 0, 0]
        self.wins = self.draws = self.losses = 0

    def add_pair(self, points: float, results: Sequence[float] = ()) -> None:
        self.pairs[round(points * 2)] += 1
        for r in results:
            self.wins += r == 1.0
            self.draws += r == 0.5
            self.losses += r == 0.0

    @property
    def count(self) -> int:
        return sum(self.pairs)

    def score(self) -> float:
        """A's mean score a game."""
        n = self.count
        return sum(k / 4 * c for k, c in enumerate(self.pairs)) / n if n else 0.5

    def variance(self) -> float:
        """The variance of a pair's mean score (per game in the pair)."""
        n = self.count
        if n < 2:
            return 0.25
        mean = self.score()
        return sum(c * (k / 4 - mean) ** 2 for k, c in enumerate(self.pairs)) / n

    def elo(self) -> tuple[float, float, float]:
        """Elo difference A − B with its 95 % interval (from the pentanomial variance)."""
        n = self.count
        mean = self.score()
        margin = 1.96 * math.sqrt(self.variance() / max(n, 1))
        return elo_from_score(mean), elo_from_score(mean - margin), elo_from_score(mean + margin)

    def llr(self, elo0: float, elo1: float) -> float:
        """The log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) for the
        pentanomial results: the generalized SPRT's normal approximation that fishtest
        uses, LLR = N (s1 − s0)(2 s − s0 − s1) / (2 σ²), with s the mean score a game and σ²
        the variance of a pair's mean score; as fishtest does, each empty cell counts
        1/1000 of a pair, so that a run of identical pairs has a variance."""
        if self.count < 2:
            return 0.0
        cells = [max(c, 1e-3) for c in self.pairs]
        n = sum(cells)
        mean = sum(k / 4 * c for k, c in enumerate(cells)) / n
        variance = sum(c * (k / 4 - mean) ** 2 for k, c in enumerate(cells)) / n
        s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """(lower, upper): accept H0 at or below the lower, H1 at or above the upper."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


# ---- the match -----------------------------------------------------------------------------


def load_openings(kind: str, *, seed: int = 1) -> list[str]:
    """Openings by name (``ballots``, ``150``, ``builtin``) or a file of FENs or move lists,
    shuffled with ``seed``."""
    if kind == "builtin":
        openings = list(BUILTIN_OPENINGS)
    elif kind in ("ballots", "150"):
        try:
            import draughts  # type: ignore[import-untyped]  # pydraughts (MIT)
        except ImportError:
            raise ValueError(
                "the ballot openings come with pydraughts (pip install pydraughts)"
            ) from None
        import json

        folder = Path(draughts.__file__).parent / "ballot_files"
        name = "russian.json" if kind == "ballots" else "150russian_and_brazilian.json"
        with open(folder / name, encoding="utf-8") as handle:
            data = json.load(handle)
        # Both files: {"all": {name: FEN}, "standard": [names]}; the 150 set's "standard"
        # names its 150 positions.
        by_name: dict[str, str] = data["all"]
        if kind == "ballots":
            openings = list(by_name.values())
        else:
            openings = [by_name[name] for name in data["standard"] if name in by_name]
        openings = [fen for fen in openings if _valid_fen(fen)]
    else:
        lines = Path(kind).read_text(encoding="utf-8").splitlines()
        openings = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    random.Random(seed).shuffle(openings)
    return openings


def _valid_fen(fen: str) -> bool:
    try:
        board = shashki.Board(fen)
    except ValueError:
        return False
    return bool(board.legal_moves)


def run_match(
    spec_a: str,
    spec_b: str,
    openings: Iterable[str],
    tc: TimeControl,
    *,
    executor: Optional[Executor] = None,
    sprt: Optional[tuple[float, float]] = None,
    pdn_path: Optional[str] = None,
    report: Optional[object] = None,
    adjudication: Optional[Adjudication] = None,
) -> Results:
    """Play game pairs over ``openings`` (each with both colours), on ``executor`` (a new
    process pool of one worker per core when None), until the openings run out or the SPRT
    decides. ``report(results, opening)`` is called after each pair."""
    own = executor is None
    pool: Executor = ProcessPoolExecutor(os.cpu_count() or 1) if executor is None else executor
    results = Results()
    pending: dict[Future[tuple[float, list[str]]], str] = {}
    queue = iter(list(openings))
    lower, upper = sprt_bounds()
    workers = getattr(pool, "_max_workers", 2)
    out = open(pdn_path, "w", encoding="utf-8") if pdn_path else None  # noqa: SIM115
    try:
        decided = False
        while True:
            while not decided and len(pending) < 2 * workers:
                opening = next(queue, None)
                if opening is None:
                    break
                future = pool.submit(play_pair, spec_a, spec_b, opening, tc, adjudication)
                pending[future] = opening
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                opening = pending.pop(future)
                if future.cancelled():
                    continue
                points, texts = future.result()
                singles = [_a_points(text, white_is_a=(i == 0)) for i, text in enumerate(texts)]
                results.add_pair(points, singles)
                if out is not None:
                    out.write("\n".join(texts) + "\n")
                    out.flush()
                if callable(report):
                    report(results, opening)
            if sprt is not None and not decided:
                llr = results.llr(*sprt)
                decided = llr <= lower or llr >= upper
                if decided:
                    for future in pending:
                        future.cancel()
    finally:
        if out is not None:
            out.close()
        if own:
            pool.shutdown(cancel_futures=True)
        else:
            close_players()  # the players an in-process executor's threads made
    return results


def _a_points(text: str, *, white_is_a: bool) -> float:
    result = text.strip().split()[-1]
    white = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    return white if white_is_a else 1 - white


def summary(results: Results, sprt: Optional[tuple[float, float]] = None) -> str:
    elo, low, high = results.elo()
    games = 2 * results.count
    lines = [
        f"games {games}: +{results.wins} ={results.draws} -{results.losses}, "
        f"score {100 * results.score():.1f} %",
        f"Elo (A - B) {elo:+.1f} [{low:+.1f}, {high:+.1f}] (95 %)",
        "pentanomial (A's points in a pair: 0, 1/2, 1, 3/2, 2): "
        + " ".join(str(c) for c in results.pairs),
    ]
    if sprt is not None:
        lower, upper = sprt_bounds()
        llr = results.llr(*sprt)
        verdict = "H1 accepted" if llr >= upper else "H0 accepted" if llr <= lower else "open"
        lines.append(
            f"SPRT elo0={sprt[0]:g} elo1={sprt[1]:g}: LLR {llr:.2f} "
            f"[{lower:.2f}, {upper:.2f}] {verdict}"
        )
    return "\n".join(lines)


def build_base(revision: str, directory: str) -> str:
    """Build the package at a git revision into a venv at ``directory``; its Hub spec."""
    root = Path(__file__).resolve().parents[2]
    target = Path(directory).resolve()
    source = target / "source"
    subprocess.run(
        ["git", "-C", str(root), "worktree", "add", "-f", str(source), revision], check=True
    )
    subprocess.run([sys.executable, "-m", "venv", str(target)], check=True)
    python = target / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(source)], check=True)
    return f"hub:{python} -m shashki hub"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m shashki.match", description=__doc__.splitlines()[0]
    )
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "base":
        if len(argv) != 3:
            parser.error("base REV DIR")
        print(build_base(argv[1], argv[2]))
        return 0
    parser.add_argument("--a", default="shashki", help="player A (default: shashki)")
    parser.add_argument("--b", required=True, help="player B (shashki[:…] or hub:COMMAND)")
    limit = parser.add_mutually_exclusive_group(required=True)
    limit.add_argument("--nodes", type=int, help="nodes a move")
    limit.add_argument("--time", type=float, help="seconds a move")
    limit.add_argument("--tc", help="a clock: BASE+INC seconds")
    limit.add_argument("--depth", type=int, help="plies a move")
    parser.add_argument("--openings", default="ballots", help="ballots, 150, builtin or a file")
    parser.add_argument("--pairs", type=int, default=None, help="at most this many pairs")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--sprt", default=None, help="ELO0,ELO1: stop at the bounds (negative: --sprt=-5,5)"
    )
    parser.add_argument("--seed", type=int, default=1, help="shuffles the openings")
    parser.add_argument("--pdn", default=None, help="write every game here")
    parser.add_argument(
        "--adjudicate-draw",
        metavar="PLIES,CP",
        help="a draw after PLIES plies in a row scored within ±CP (from move 30 on)",
    )
    parser.add_argument(
        "--adjudicate-win",
        metavar="PLIES,CP",
        help="a win after PLIES plies in a row scored CP or more for one side by both engines",
    )
    args = parser.parse_args(argv)
    tc = (
        TimeControl.parse_clock(args.tc)
        if args.tc
        else TimeControl(nodes=args.nodes, time=args.time, depth=args.depth)
    )
    sprt: Optional[tuple[float, float]] = None
    if args.sprt:
        elo0, _, elo1 = args.sprt.partition(",")
        sprt = (float(elo0), float(elo1))
    openings = load_openings(args.openings, seed=args.seed)
    if args.pairs is not None:
        openings = openings[: args.pairs]
    started = time.monotonic()

    def report(results: Results, opening: str) -> None:
        elo, low, high = results.elo()
        extra = f" LLR {results.llr(*sprt):.2f}" if sprt else ""
        print(
            f"{2 * results.count:5} games {time.monotonic() - started:7.0f} s  "
            f"+{results.wins} ={results.draws} -{results.losses}  "
            f"Elo {elo:+.0f} [{low:+.0f}, {high:+.0f}]{extra}",
            file=sys.stderr,
            flush=True,
        )

    adjudication = None
    if args.adjudicate_draw or args.adjudicate_win:
        settings: dict[str, int] = {}
        for name, value in (("draw", args.adjudicate_draw), ("win", args.adjudicate_win)):
            if value:
                try:
                    plies, cp = (int(x) for x in value.split(","))
                except ValueError:
                    parser.error(f"--adjudicate-{name} takes PLIES,CP, not {value!r}")
                settings[f"{name}_plies"], settings[f"{name}_cp"] = plies, cp
        adjudication = Adjudication(**settings)
    with ProcessPoolExecutor(args.workers) as pool:
        results = run_match(
            args.a,
            args.b,
            openings,
            tc,
            executor=pool,
            sprt=sprt,
            pdn_path=args.pdn,
            report=report,
            adjudication=adjudication,
        )
    print(f"A = {args.a}\nB = {args.b}\n{tc}, openings {args.openings}")
    print(summary(results, sprt))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
