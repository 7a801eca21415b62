"""Match statistics: Elo from a score with its 95 % interval over game pairs (pentanomial
counts), and fishtest's SPRT."""

from __future__ import annotations

import math

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Optional


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
        self.time_forfeits = [0, 0]  # games A, B lost on time
        # A's and B's moves, their seconds in all and the longest
        self.move_times: list[list[float]] = [[0, 0.0, 0.0], [0, 0.0, 0.0]]

    def add_move_times(self, side: int, tag: Optional[str]) -> None:
        """Count a game's moves of ``side`` (0 A, 1 B) from its ``moves,total,max`` tag."""
        if not tag:
            return
        try:
            moves, total, longest = tag.split(",")
            record = self.move_times[side]
            record[0] += int(moves)
            record[1] += float(total)
            record[2] = max(record[2], float(longest))
        except ValueError:
            return  # a tag of another program's: not counted

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
        """Elo difference A − B with its 95 % interval (from the pentanomial variance).

        The interval's variance counts two more pairs, one lost and one won outright: a
        small match whose pairs all came out alike (four drawn pairs) has not shown that
        the players cannot differ, and its interval says so (±174 Elo for four drawn
        pairs, where the bare sample variance said ±0); over hundreds of pairs of mixed
        results they change it by under a percent. The point estimate is the plain
        score's."""
        mean = self.score()
        cells = list(self.pairs)
        cells[0] += 1
        cells[4] += 1
        padded_n = sum(cells)
        padded_mean = sum(k / 4 * c for k, c in enumerate(cells)) / padded_n
        variance = sum(c * (k / 4 - padded_mean) ** 2 for k, c in enumerate(cells)) / padded_n
        margin = 1.96 * math.sqrt(variance / padded_n)
        return (
            elo_from_score(mean) + 0.0,  # never "-0"
            elo_from_score(mean - margin) + 0.0,
            elo_from_score(mean + margin) + 0.0,
        )

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


def summary(results: Results, sprt: Optional[tuple[float, float]] = None) -> str:
    elo, low, high = results.elo()
    games = 2 * results.count
    lines = [
        f"games {games}: +{results.wins} ={results.draws} -{results.losses}, "
        f"score {100 * results.score():.1f} %",
        f"Elo (A - B) {elo:+.1f} [{low:+.1f}, {high:+.1f}] (95 %)",
        "pentanomial (A's points in a pair: 0, 1/2, 1, 3/2, 2): "
        + " ".join(str(c) for c in results.pairs),
        f"lost on time: A {results.time_forfeits[0]}, B {results.time_forfeits[1]}",
    ]
    if any(record[0] for record in results.move_times):
        sides = []
        for name, (moves, total, longest) in zip("AB", results.move_times):
            mean = total / moves if moves else 0.0
            sides.append(f"{name} mean {mean:.3f} s, max {longest:.3f} s ({int(moves)} moves)")
        lines.append("time a move: " + "; ".join(sides))
    if sprt is not None:
        lower, upper = sprt_bounds()
        llr = results.llr(*sprt)
        verdict = "H1 accepted" if llr >= upper else "H0 accepted" if llr <= lower else "open"
        lines.append(
            f"SPRT elo0={sprt[0]:g} elo1={sprt[1]:g}: LLR {llr:.2f} "
            f"[{lower:.2f}, {upper:.2f}] {verdict}"
        )
    return "\n".join(lines)
