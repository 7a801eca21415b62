"""Games and game pairs between two players, and the match: pairs over openings on worker
processes (or any executor) until the openings run out or the SPRT decides."""

from __future__ import annotations

import os
import time
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait

from shashki import pdn
from shashki.apps.match.players import ShashkiPlayer, TimeControl, _player, close_players
from shashki.apps.match.stats import Results, sprt_bounds
from shashki.cards import game_info
from shashki.columns import ColumnGame
from shashki.game import Game

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Optional, Union

MAX_PLIES = 300
"""A game still going at this ply is adjudicated a draw."""


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


def play_game(
    white: ShashkiPlayer,
    black: ShashkiPlayer,
    opening: str,
    tc: TimeControl,
    names: tuple[str, str],
    adjudication: Optional[Adjudication] = None,
    variant: str = "russian",
) -> Union[Game, ColumnGame]:
    """One game of ``variant`` from an opening (a FEN in the game's numbering, or moves from
    the start), to its end under the game's draw rules (a column game, towers or Lasca, is a
    :class:`shashki.ColumnGame`); a game that reaches 300 plies is
    adjudicated a draw, a player that loses on time or gives no move loses; with
    ``adjudication``, the engines' scores may end it earlier."""
    game: Union[Game, ColumnGame]
    if game_info(variant).stacks:
        game = ColumnGame(opening if ":" in opening else None, variant=variant)
    elif ":" in opening:
        game = Game(opening, variant=variant)
    else:
        game = Game(variant=variant)
    if ":" not in opening:
        for text in opening.split():
            game.push_move(text)
    game.headers["White"], game.headers["Black"] = names
    game.headers["Event"] = "shashki.apps.match"
    game.headers["Opening"] = opening
    white.new_game()
    black.new_game()
    clocks = {True: tc.base or 0.0, False: tc.base or 0.0}
    thought: dict[bool, list[float]] = {True: [], False: []}  # each move's seconds
    scores: list[tuple[bool, Optional[int]]] = []
    try:
        return _play_moves(game, white, black, tc, clocks, thought, scores, adjudication)
    finally:
        for colour, times in thought.items():
            game.headers["WhiteMoveTimes" if colour else "BlackMoveTimes"] = _times_tag(times)


def _times_tag(times: list[float]) -> str:
    """A side's moves and their seconds as a PDN tag's value: ``moves,total,max``."""
    return f"{len(times)},{sum(times):.4f},{max(times, default=0.0):.4f}"


def _play_moves(
    game: Union[Game, ColumnGame],
    white: ShashkiPlayer,
    black: ShashkiPlayer,
    tc: TimeControl,
    clocks: dict[bool, float],
    thought: dict[bool, list[float]],
    scores: list[tuple[bool, Optional[int]]],
    adjudication: Optional[Adjudication],
) -> Union[Game, ColumnGame]:
    """The moves of :func:`play_game`'s game to its end, each side's seconds a move kept in
    ``thought``."""
    while not game.is_game_over() and game.ply() < MAX_PLIES:
        turn = game.current_board.turn
        player = white if turn else black
        start = time.perf_counter()
        move = player.move(game, tc, clocks[turn])
        thought[turn].append(time.perf_counter() - start)
        if tc.base is not None:
            clocks[turn] += tc.inc - (time.perf_counter() - start)
            if clocks[turn] < 0:
                game.headers["Termination"] = "time forfeit"
                game.headers["Result"] = "0-1" if turn else "1-0"
                return game
        if move is None or move not in game.current_board.legal_moves:
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
        if isinstance(game, ColumnGame):
            game.headers["Result"] = "1/2-1/2"
        else:
            game.agree_draw()
        game.headers["Termination"] = f"adjudicated: {MAX_PLIES} plies"
    elif isinstance(game, ColumnGame):
        game.headers["Result"] = game.result()
    return game


def play_pair(
    spec_a: str,
    spec_b: str,
    opening: str,
    tc: TimeControl,
    adjudication: Optional[Adjudication] = None,
    variant: str = "russian",
) -> tuple[float, list[str]]:
    """A's points in the pair (0 to 2) and the two games' PDN: A with White, then Black."""
    a, b = _player(spec_a, variant), _player(spec_b, variant)
    points = 0.0
    texts = []
    for a_white in (True, False):
        white, black = (a, b) if a_white else (b, a)
        names = ("A " + spec_a, "B " + spec_b) if a_white else ("B " + spec_b, "A " + spec_a)
        game = play_game(white, black, opening, tc, names, adjudication, variant)
        result = game.headers["Result"]
        white_points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        points += white_points if a_white else 1 - white_points
        texts.append(game.pdn() if isinstance(game, ColumnGame) else pdn.write_game(game))
    return points, texts


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
    variant: str = "russian",
    scheduler: object = None,
    resume: bool = False,
) -> Results:
    """Play game pairs of ``variant`` over ``openings`` (each with both colours), on
    ``executor`` (a new process pool of one worker per core when None), until the openings
    run out or the SPRT decides. ``report(results, opening)`` is called after each pair.

    ``scheduler``: a Dask scheduler's address (``tcp://HOST:8786``) or ``distributed.Client``
    instead of ``executor``: each pair is a task on its workers (the players started there),
    two pairs in flight for each worker thread; a pair whose worker is lost is played again
    elsewhere and counted once. ``resume`` (with ``pdn_path``): the pairs already in that
    file (a run stopped halfway) are counted and their openings not played again; the new
    games are appended."""
    if scheduler is not None and executor is not None:
        raise ValueError("give an executor or a scheduler, not both")
    if resume and not pdn_path:
        raise ValueError("resume needs pdn_path: the file of the games played so far")
    client = None
    if scheduler is not None:
        from shashki.distributed import connect

        client = connect(scheduler)
        # pure=False: two pairs of one opening are two tasks, not one result counted twice.
        executor = client.get_executor(pure=False)
    own = executor is None
    pool: Executor = ProcessPoolExecutor(os.cpu_count() or 1) if executor is None else executor
    results = Results()
    pending: dict[Future[tuple[float, list[str]]], str] = {}
    queue = list(openings)
    if resume and pdn_path and os.path.exists(pdn_path):
        for texts in _pairs_in(pdn_path):
            _count_pair(results, texts)
            opening = _tag(texts[0], "Opening")
            if opening in queue:
                queue.remove(opening)
        if callable(report) and results.count:
            report(results, "")
    queue.reverse()  # the next opening last
    lower, upper = sprt_bounds()
    if client is not None:
        workers = max(sum(client.nthreads().values()), 1)
    else:
        workers = getattr(pool, "_max_workers", 2)
    mode = "a" if resume else "w"
    out = open(pdn_path, mode, encoding="utf-8") if pdn_path else None  # noqa: SIM115
    lost = 0
    try:
        decided = sprt is not None and _decided(results, sprt, lower, upper)
        while True:
            while not decided and queue and len(pending) < 2 * workers:
                opening = queue.pop()
                future = pool.submit(play_pair, spec_a, spec_b, opening, tc, adjudication, variant)
                pending[future] = opening
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                opening = pending.pop(future)
                if future.cancelled():
                    continue
                try:
                    points, texts = future.result()
                except Exception as error:
                    if client is None or type(error).__name__ != "KilledWorker":
                        raise
                    # Dask gave up on a pair whose workers kept dying: once more, elsewhere.
                    lost += 1
                    if lost > 10 + len(pending):
                        raise
                    queue.append(opening)
                    continue
                _count_pair(results, texts)
                if out is not None:
                    out.write("\n".join(texts) + "\n")
                    out.flush()
                    os.fsync(out.fileno())
                if callable(report):
                    report(results, opening)
            if sprt is not None and not decided:
                decided = _decided(results, sprt, lower, upper)
                if decided:
                    for future in pending:
                        future.cancel()
    finally:
        if out is not None:
            out.close()
        if own:
            pool.shutdown(cancel_futures=True)
        elif client is not None:
            for future in pending:
                future.cancel()
            try:
                client.run(close_players)  # the players the workers made, and their engines
            except Exception:  # noqa: BLE001 - a cluster gone: nothing left to close
                pass
            if client is not scheduler:
                client.close()
        else:
            close_players()  # the players an in-process executor's threads made
    return results


def _decided(results: Results, sprt: tuple[float, float], lower: float, upper: float) -> bool:
    llr = results.llr(*sprt)
    return llr <= lower or llr >= upper


def _count_pair(results: Results, texts: list[str]) -> None:
    """Count a pair's two games (A with White in the first) into ``results``."""
    singles = [_a_points(text, white_is_a=(i == 0)) for i, text in enumerate(texts)]
    results.add_pair(sum(singles), singles)
    for i, text in enumerate(texts):  # A has White in game 0
        for colour in ("White", "Black"):
            a_side = (colour == "White") == (i == 0)
            results.add_move_times(0 if a_side else 1, _tag(text, colour + "MoveTimes"))
    for i, text in enumerate(texts):
        if '[Termination "time forfeit"]' in text:
            # The side that lost on time scored 0; A has White in game 0.
            a_lost = singles[i] == 0.0
            results.time_forfeits[0 if a_lost else 1] += 1


def _pairs_in(path: str) -> list[list[str]]:
    """The complete pairs of a match's PDN file (two games from one opening, A with White
    first, as :func:`run_match` writes them); a pair cut short at the end (a run stopped
    while writing) is dropped and cut from the file, so appending goes on cleanly."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    starts = [i for i in range(len(text)) if text.startswith("[Event ", i)]
    spans = list(zip(starts, starts[1:] + [len(text)]))
    pairs: list[list[str]] = []
    keep = 0  # characters of the file that hold complete pairs
    for first, second in zip(spans[0::2], spans[1::2]):
        games = [text[a:b] for a, b in (first, second)]
        if not all(_complete(game) for game in games):
            break
        if _tag(games[0], "Opening") != _tag(games[1], "Opening"):
            break
        pairs.append(games)
        keep = second[1]
    if keep < len(text):
        with open(path, "r+", encoding="utf-8") as handle:
            handle.truncate(len(text[:keep].encode("utf-8")))
    return pairs


def _complete(game: str) -> bool:
    """Whether a game's text ends with its result, as its Result tag gives it."""
    result = _tag(game, "Result")
    words = game.split()
    return bool(result) and result != "*" and bool(words) and words[-1] == result


def _tag(text: str, name: str) -> Optional[str]:
    """The value of the PDN tag ``name`` in ``text``, if it is there."""
    marker = f'[{name} "'
    start = text.find(marker)
    if start < 0:
        return None
    start += len(marker)
    return text[start : text.find('"', start)]


def _a_points(text: str, *, white_is_a: bool) -> float:
    result = text.strip().split()[-1]
    white = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    return white if white_is_a else 1 - white
