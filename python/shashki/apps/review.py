"""Game review: the engine evaluates every position of a game's main line, each move is
judged by what it lost against the engine's best, and the evaluation is plotted (SVG) — as
lidraughts' computer analysis does.

>>> import shashki
>>> from shashki.engine import Limit
>>> from shashki.apps.review import review
>>> game = shashki.Game()
>>> for text in ["c3-d4", "f6-g5", "g3-f4"]:
...     _ = game.push_move(text)
>>> report = review(game, Limit(depth=4))
>>> [(m.text, m.judgement) for m in report.moves][:2]
[('c3-d4', None), ('f6-g5', None)]

A move is an **inaccuracy** when it loses 0.5 men or more of the evaluation (the mover's
view, scores clamped to ±10 men), a **mistake** from 1.0, a **blunder** from 2.0 or when it
turns a forced win into no win, or a position that is not lost into a forced loss. The
engine's own best move is never judged. Command line: ``shashki review game.pdn --annotate
out.pdn --plot eval.svg``.
"""

from __future__ import annotations

from shashki.engine import Engine, Limit, Score

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Optional, Union

    from shashki.columns import ColumnGame
    from shashki.game import Game

CLAMP = 1000  # centi-men: a forced win counts as ten men
THRESHOLDS = (("blunder", 200), ("mistake", 100), ("inaccuracy", 50))
NAGS = {"blunder": 4, "mistake": 2, "inaccuracy": 6}  # ??, ?, ?!
COLORS = {"blunder": "#d62728", "mistake": "#ff7f0e", "inaccuracy": "#e6b800"}


def centi_men(score: Score) -> int:
    """A score in centi-men, a forced win or loss clamped to ±:data:`CLAMP`."""
    if score.win is not None:
        return CLAMP if score.win > 0 else -CLAMP
    return max(-CLAMP, min(CLAMP, score.cp or 0))


class MoveReview:
    """One move of the reviewed game: ``ply`` (0 = the first move), ``text``, the mover
    (``white``), the evaluation before and after it from White's view (``before``,
    ``after``: :class:`~shashki.engine.Score`), the engine's ``best`` move (text) and what
    the move ``lost`` (centi-men, the mover's view), and its ``judgement``: ``"blunder"``,
    ``"mistake"``, ``"inaccuracy"`` or None."""

    __slots__ = ("ply", "text", "white", "before", "after", "best", "lost", "judgement")

    def __init__(
        self,
        ply: int,
        text: str,
        white: bool,
        before: Score,
        after: Score,
        best: Optional[str],
        lost: int,
        judgement: Optional[str],
    ) -> None:
        self.ply, self.text, self.white = ply, text, white
        self.before, self.after, self.best = before, after, best
        self.lost, self.judgement = lost, judgement

    def as_dict(self) -> dict[str, object]:
        return {
            "ply": self.ply,
            "text": self.text,
            "white": self.white,
            "before": str(self.before),
            "after": str(self.after),
            "after_cp": centi_men(self.after),
            "best": self.best,
            "lost": self.lost,
            "judgement": self.judgement,
        }


class Review:
    """A reviewed game: ``moves`` (:class:`MoveReview`, in order) and ``evaluations``
    (White's view of every position, the start included)."""

    def __init__(self, moves: list[MoveReview], evaluations: list[Score]) -> None:
        self.moves = moves
        self.evaluations = evaluations

    def counts(self, white: bool) -> dict[str, int]:
        """How many inaccuracies, mistakes and blunders ``white`` (True) or Black made."""
        out = {name: 0 for name, _ in THRESHOLDS}
        for move in self.moves:
            if move.white == white and move.judgement is not None:
                out[move.judgement] += 1
        return out


def _judge(before: Score, after: Score, lost: int) -> Optional[str]:
    """Judge a move from the mover's view of the evaluations before and after it."""
    if before.win is not None and before.win > 0 and not (after.win is not None and after.win > 0):
        return "blunder"  # a forced win let go
    if after.win is not None and after.win < 0 and not (before.win is not None and before.win < 0):
        return "blunder"  # walked into a forced loss
    for name, threshold in THRESHOLDS:
        if lost >= threshold:
            return name
    return None


def review(
    game: Union[Game, ColumnGame],
    limit: Limit,
    *,
    engine: Optional[Engine] = None,
    progress: Optional[Callable[[int, int], object]] = None,
) -> Review:
    """Evaluate every position of ``game``'s main line under ``limit`` (each position gets
    the whole limit) and judge every move. A column game (:class:`shashki.ColumnGame`:
    towers, Lasca) is reviewed the same way, by the column games' search.
    ``progress(done, total)`` is called after each position."""
    own = engine is None
    searcher = Engine(hash_mb=32) if engine is None else engine
    try:
        board = game.board()
        moves = game.mainline_moves()
        boards = []
        for move in moves:
            boards.append(board.copy())
            board.push(move)
        boards.append(board.copy())
        white_view: list[Score] = []
        best_moves: list[Optional[str]] = []
        for index, position in enumerate(boards):
            if not position.legal_moves:
                outcome = position.outcome()
                winner = None if outcome is None else outcome.winner
                score = Score(cp=0) if winner is None else Score(win=1 if winner else -1)
                white_view.append(score)
                best_moves.append(None)
            else:
                info = searcher.analyse(position, limit)
                white_view.append(info["score"].white())
                pv = info["pv"]
                best_moves.append(position.move_text(pv[0]) if pv else None)
            if progress is not None:
                progress(index + 1, len(boards))
        reviewed = []
        for ply, move in enumerate(moves):
            mover = boards[ply].turn
            sign = 1 if mover else -1
            before = white_view[ply] if mover else -white_view[ply]
            after = white_view[ply + 1] if mover else -white_view[ply + 1]
            text = boards[ply].move_text(move)
            if text == best_moves[ply]:
                lost, judgement = 0, None
            else:
                lost = max(0, sign * (centi_men(white_view[ply]) - centi_men(white_view[ply + 1])))
                judgement = _judge(before, after, lost)
            reviewed.append(
                MoveReview(
                    ply,
                    text,
                    mover,
                    white_view[ply],
                    white_view[ply + 1],
                    best_moves[ply],
                    lost,
                    judgement,
                )
            )
        return Review(reviewed, white_view)
    finally:
        if own:
            searcher.close()


def annotate(game: Game, report: Review) -> None:
    """Write the review into the game: each main-line move gets the evaluation after it as
    a comment (``[%eval +0.35]``), judged moves a NAG (``$4`` ??, ``$2`` ?, ``$6`` ?!) and
    the engine's best move."""
    for node, move in zip(game.mainline(), report.moves):
        words = [f"[%eval {move.after}]"]
        if move.judgement is not None:
            node.nags.append(NAGS[move.judgement])
            words.append(f"{move.judgement}; best was {move.best}")
        node.comment = " ".join(part for part in (node.comment, *words) if part)


def annotated_pdn(game: ColumnGame, report: Review) -> str:
    """A column game's PDN with the review written in, as :func:`annotate` writes it into a
    :class:`shashki.Game`: the evaluation after each move as a comment (``[%eval -2.73]``),
    judged moves a NAG and the engine's best move."""
    from shashki.columns import write_pdn

    comments, nags = [], []
    for move in report.moves:
        words = [f"[%eval {move.after}]"]
        if move.judgement is not None:
            words.append(f"{move.judgement}; best was {move.best}")
        comments.append(" ".join(words))
        nags.append([NAGS[move.judgement]] if move.judgement is not None else [])
    return write_pdn(game.current_board, game.headers, comments=comments, nags=nags)


def plot_svg(
    evaluations: Sequence[Score],
    moves: Sequence[MoveReview] = (),
    *,
    width: int = 640,
    height: int = 220,
) -> str:
    """The evaluation over the game (White's view, clamped to ±5 men) as an SVG: White's
    advantage above the middle line, axes with the evaluation in men and move numbers,
    judged moves marked in colour. Every position has a point carrying ``data-ply`` (the
    plies played to reach it), which the web board makes a link to that position. The
    drawing scales to its container (a ``viewBox``)."""
    limit = 500
    n = max(len(evaluations) - 1, 1)
    left, right, top, bottom = 34, 8, 8, 26
    inner_w, inner_h = width - left - right, height - top - bottom
    middle = top + inner_h / 2

    def x(ply: int) -> float:
        return left + inner_w * ply / n

    def y(score: Score) -> float:
        value = max(-limit, min(limit, centi_men(score)))
        return middle - (inner_h / 2) * value / limit

    points = " ".join(f"{x(i):.1f},{y(s):.1f}" for i, s in enumerate(evaluations))
    last = len(evaluations) - 1
    area = f"{x(0):.1f},{middle:.1f} {points} {x(last):.1f},{middle:.1f}"
    axes = [
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + inner_h}" stroke="#aaa"/>',
        f'<line x1="{left}" y1="{top + inner_h}" x2="{left + inner_w}" y2="{top + inner_h}" '
        'stroke="#aaa"/>',
    ]
    for men in (5, 0, -5):
        at = middle - (inner_h / 2) * men / 5
        label = f"{men:+d}" if men else "0"
        axes.append(
            f'<text x="{left - 4}" y="{at + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="#ddd">{label}</text>'
        )
    moves_in_game = (last + 1) // 2 + 1
    step = next(k for k in (1, 2, 5, 10, 20, 50, 100, 200) if moves_in_game / k <= 10)
    for number in range(step, moves_in_game + 1, step):
        ply = 2 * (number - 1)
        if ply > last:
            break
        axes.append(
            f'<line x1="{x(ply):.1f}" y1="{top + inner_h}" x2="{x(ply):.1f}" '
            f'y2="{top + inner_h + 4}" stroke="#aaa"/>'
            f'<text x="{x(ply):.1f}" y="{top + inner_h + 16}" text-anchor="middle" '
            f'font-size="11" fill="#ddd">{number}</text>'
        )
    axes.append(
        f'<text x="{left + inner_w}" y="{height - 2}" text-anchor="end" font-size="10" '
        'fill="#bbb">move</text>'
        f'<text x="2" y="{height - 2}" font-size="10" fill="#bbb">men</text>'
    )
    judged = {move.ply + 1: move for move in moves if move.judgement is not None}
    marks = []
    for ply, score in enumerate(evaluations):
        move = judged.get(ply)
        if move is not None and move.judgement is not None:
            marks.append(
                f'<circle class="{move.judgement}" data-ply="{ply}" cx="{x(ply):.1f}" '
                f'cy="{y(move.after):.1f}" r="4.5" fill="{COLORS[move.judgement]}">'
                f"<title>{move.ply // 2 + 1}{'.' if move.white else '...'} {move.text} "
                f"{move.judgement} ({move.after}); best {move.best}</title></circle>"
            )
        else:
            marks.append(
                f'<circle class="point" data-ply="{ply}" cx="{x(ply):.1f}" cy="{y(score):.1f}" '
                f'r="5" fill="#4a90d9" fill-opacity="0"><title>after {ply} plies: {score}'
                "</title></circle>"
            )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" class="evaluation-plot" role="img" '
        'aria-label="the evaluation over the game">'
        f'<rect width="{width}" height="{height}" fill="#2b2b2b"/>'
        f'<polygon points="{area}" fill="#f0f0f0" fill-opacity="0.85"/>'
        f'<line x1="{left}" y1="{middle}" x2="{left + inner_w}" y2="{middle}" stroke="#888" '
        'stroke-dasharray="4 3"/>'
        f'<polyline points="{points}" fill="none" stroke="#4a90d9" stroke-width="2"/>'
        + "".join(axes)
        + "".join(marks)
        + "</svg>"
    )
