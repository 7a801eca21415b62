"""The match runner and its statistics: ``python -m shashki.match``."""

from __future__ import annotations

import io
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from shashki import pdn
from shashki.apps import match


def test_sprt_bounds_and_direction() -> None:
    lower, upper = match.sprt_bounds()
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    strong = match.Results()
    for points in [2, 1.5, 1.5, 1, 2, 1.5, 1, 2] * 10:
        strong.add_pair(points)
    assert strong.llr(0, 10) > upper  # A clearly stronger: H1
    assert strong.elo()[1] > 0
    equal = match.Results()
    for points in [1, 0.5, 1.5, 1] * 50:
        equal.add_pair(points)
    assert equal.llr(0, 10) < 0 < equal.llr(-10, 0)
    low, high = equal.elo()[1:]
    assert low < 0 < high
    assert equal.pairs == [0, 50, 100, 50, 0] and equal.score() == pytest.approx(0.5)


def test_elo_and_scores_are_inverse() -> None:
    for elo in (-300, -50, 0, 25, 400):
        assert match.elo_from_score(match.score_from_elo(elo)) == pytest.approx(elo)


def test_a_small_match_on_any_executor(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    seen: list[int] = []
    with ThreadPoolExecutor(2) as pool:
        results = match.run_match(
            "shashki:hash=4",
            "shashki:hash=4",
            match.BUILTIN_OPENINGS[:3],
            match.TimeControl(depth=2),
            executor=pool,
            pdn_path=str(path),
            report=lambda r, opening: seen.append(r.count),
        )
    assert results.count == 3 and sorted(seen) == [1, 2, 3]
    assert results.wins + results.draws + results.losses == 6
    assert sum(results.pairs) == 3
    handle = io.StringIO(path.read_text(encoding="utf-8"))
    games = []
    while (game := pdn.read_game(handle)) is not None:
        games.append(game)
    assert len(games) == 6 and all(g.result() != "*" for g in games)


def test_the_summary_gives_each_sides_mean_and_longest_time_a_move(tmp_path: Path) -> None:
    """Each game's PDN records both sides' moves and seconds (``WhiteMoveTimes``,
    ``BlackMoveTimes``: moves, total, longest); the match adds them up per player, A and B
    whatever their colour, and the summary prints the mean and the maximum."""
    path = tmp_path / "games.pdn"
    with ThreadPoolExecutor(1) as pool:
        results = match.run_match(
            "shashki:hash=4",
            "shashki:hash=4,odds=8",  # B thinks longer: 8 times A's nodes
            match.BUILTIN_OPENINGS[:2],
            match.TimeControl(nodes=400),
            executor=pool,
            pdn_path=str(path),
        )
    text = path.read_text(encoding="utf-8")
    tags = [line for line in text.splitlines() if "MoveTimes" in line]
    assert len(tags) == 8  # four games, two sides each
    moves = {0: 0, 1: 0}
    for game_text in text.split("[Event")[1:]:
        white_is_a = '[White "A ' in game_text
        for line in game_text.splitlines():
            if "MoveTimes" in line:
                count = int(line.split('"')[1].split(",")[0])
                moves[0 if ("White" in line.split()[0]) == white_is_a else 1] += count
    assert [int(r[0]) for r in results.move_times] == [moves[0], moves[1]]
    assert all(r[2] >= r[1] / r[0] > 0 for r in results.move_times)
    line = match.summary(results).splitlines()[-1]
    assert line.startswith("time a move: A mean ") and "; B mean " in line and "max" in line


def test_games_lost_on_time_are_counted_for_the_side_that_lost_them() -> None:
    # A clock of a microsecond with no increment: White runs out at its first move (a
    # move of a warm engine may take less than a millisecond, never less than a microsecond:
    # the call alone takes longer).
    with ThreadPoolExecutor(1) as pool:
        results = match.run_match(
            "shashki:hash=4",
            "shashki:hash=4",
            match.BUILTIN_OPENINGS[:1],
            match.TimeControl.parse_clock("0.000001+0"),
            executor=pool,
        )
    assert results.time_forfeits == [1, 1]  # A flagged with White, then B
    assert "lost on time: A 1, B 1" in match.summary(results)


def test_hub_players_and_the_sprt_stop() -> None:
    hub = f"hub:{sys.executable} -m shashki hub"
    with ThreadPoolExecutor(1) as pool:
        results = match.run_match(
            "shashki:hash=4",
            hub,
            match.BUILTIN_OPENINGS * 3,
            match.TimeControl(nodes=300),
            executor=pool,
            sprt=(0.0, 200.0),
        )
    # Identical engines at fixed nodes: the SPRT accepts H0 long before 30 pairs.
    assert 2 <= results.count < 30
    assert results.llr(0.0, 200.0) <= match.sprt_bounds()[0]


def test_ballot_openings_from_pydraughts() -> None:
    openings = match.load_openings("ballots")
    assert len(openings) > 500 and all(":" in o for o in openings)
    assert len(match.load_openings("150")) == 150
    assert match.load_openings("ballots", seed=2) != openings
    with pytest.raises(ValueError):
        match.TimeControl(nodes=1, time=1.0)


def test_command_line_with_worker_processes() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "shashki.apps.match",
            "--b",
            "shashki:hash=4",
            "--depth",
            "2",
            "--openings",
            "builtin",
            "--pairs",
            "2",
            "--workers",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "games 4:" in proc.stdout and "pentanomial" in proc.stdout


def test_adjudication_verdicts() -> None:
    adj = match.Adjudication(draw_plies=4, draw_cp=10, draw_after=0, win_plies=4, win_cp=600)
    assert adj.verdict([(True, 5), (False, -3), (True, 0), (False, 10)], 4) == "1/2-1/2"
    assert adj.verdict([(True, 5), (False, -30), (True, 0), (False, 10)], 4) is None
    # Both engines agree White wins: White's scores positive, Black's negative.
    assert adj.verdict([(True, 700), (False, -650), (True, 900), (False, -10000)], 4) == "1-0"
    assert adj.verdict([(True, -700), (False, 650), (True, -900), (False, 800)], 4) == "0-1"
    assert adj.verdict([(True, 700), (False, 650), (True, 900), (False, -800)], 4) is None
    assert adj.verdict([(True, 700), (False, None), (True, 900), (False, -800)], 4) is None
    late = match.Adjudication(draw_plies=2, draw_after=60)
    assert late.verdict([(True, 0), (False, 0)], 10) is None
    assert match.Adjudication().verdict([(True, 0)] * 100, 100) is None  # off by default
    with pytest.raises(ValueError):
        match.Adjudication(win_plies=0)


@pytest.mark.parametrize("black", ["shashki:hash=4", f"hub:{sys.executable} -m shashki hub"])
def test_a_lost_position_is_adjudicated_by_score(black: str) -> None:
    white = match.make_player("shashki:hash=4")
    other = match.make_player(black)
    try:
        game = match.play_game(
            white,
            other,
            "W:WK29,K30,K31,22,23,24:B5,6,7,8",  # three kings and three men against four men
            match.TimeControl(nodes=2000),
            ("A", "B"),
            match.Adjudication(win_plies=4, win_cp=600),
        )
    finally:
        white.close()
        other.close()
    assert game.headers["Termination"] == "adjudicated by score"
    assert game.headers["Result"] == "1-0"
    assert len(game.mainline_moves()) == 4


@pytest.mark.parametrize(
    "spec", ["shashki:hash=4,ponder=1", f"hub,ponder,hash=4:{sys.executable} -m shashki hub"]
)
def test_a_pondering_player_plays_a_clocked_game_to_its_end(spec: str) -> None:
    ponderer = match.make_player(spec)
    other = match.make_player("shashki:hash=4")
    assert ponderer.ponder and not other.ponder
    try:
        game = match.play_game(
            ponderer,
            other,
            "W:WK29,K30,22,23:B5,6,7,8",
            match.TimeControl(base=1.0, inc=0.01),
            ("A", "B"),
            match.Adjudication(win_plies=6, win_cp=400),
        )
    finally:
        ponderer.close()
        other.close()
    assert game.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
    assert game.headers.get("Termination") not in ("time forfeit", "no move")
    assert len(game.mainline_moves()) >= 2


def test_odds_multiply_a_players_nodes_or_time_a_move() -> None:
    from shashki.apps.match.players import TimeControl
    from shashki.game import Game

    player = match.make_player("shashki:odds=3")
    try:
        assert player.scaled(TimeControl(nodes=1000)).nodes == 3000
        assert player.scaled(TimeControl(time=0.05)).time == pytest.approx(0.15)
        with pytest.raises(ValueError, match="odds"):
            player.scaled(TimeControl(base=1.0, inc=0.01))
        # Its engine is asked for 2,100 nodes when the match says 700.
        asked = []
        play = player.engine.play

        def recording_play(game, limit, **options):  # type: ignore[no-untyped-def]
            asked.append(limit)
            return play(game, limit, **options)

        player.engine.play = recording_play  # type: ignore[method-assign]
        assert player.move(Game(), TimeControl(nodes=700), 0.0) is not None
        assert [limit.nodes for limit in asked] == [2100]
    finally:
        player.close()
    for bad in ("0", "-1", "1e9"):
        with pytest.raises(ValueError, match="odds"):
            match.make_player(f"shashki:odds={bad}")


def test_a_players_move_overhead_is_its_engines() -> None:
    player = match.make_player("shashki:overhead=80")
    try:
        assert player.engine.move_overhead == pytest.approx(0.08)  # type: ignore[union-attr]
    finally:
        player.close()
    with pytest.raises(ValueError, match="move_overhead"):
        match.make_player("shashki:overhead=99999")


def test_hub_player_options_are_checked() -> None:
    with pytest.raises(ValueError, match="hub options"):
        match.make_player(f"hub,fast:{sys.executable} -m shashki hub")
    with pytest.raises(ValueError, match="command"):
        match.make_player("hub,ponder:")


def test_command_line_adjudication_option_is_checked() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "shashki.apps.match",
            "--b",
            "shashki",
            "--nodes",
            "100",
            "--adjudicate-win",
            "four",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "PLIES,CP" in proc.stderr


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shashki.apps.match", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def test_command_line_mistakes_are_usage_errors_not_tracebacks(tmp_path: Path) -> None:
    import os

    for args, message in [
        (["--sprt", "five"], "ELO0,ELO1"),
        (["--openings", str(tmp_path / "missing.txt")], "--openings"),
        (["--workers", "0"], "--workers"),
    ]:
        proc = run_cli("--b", "shashki", "--nodes", "100", *args)
        assert proc.returncode == 2 and message in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr
    # Without pydraughts, the ballots are a usage error naming it.
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "draughts.py").write_text("raise ImportError('blocked')\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(blocker)}
    proc = run_cli("--b", "shashki", "--nodes", "100", "--openings", "ballots", env=env)
    assert proc.returncode == 2 and "pydraughts" in proc.stderr and "Traceback" not in proc.stderr


def test_a_hung_hub_engine_ends_the_match_with_an_error(tmp_path: Path, monkeypatch) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from shashki.apps.match import players
    from shashki.protocols.hub_client import EngineError

    script = tmp_path / "hang.py"
    script.write_text(
        "import sys, time\n"
        "for line in sys.stdin:\n"
        "    word = line.split()[0] if line.split() else ''\n"
        "    if word == 'hub': print('wait', flush=True)\n"
        "    elif word == 'init': print('ready', flush=True)\n"
        "    elif word == 'go': time.sleep(3600)\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(players, "HUB_TIMEOUT", 1.0)
    tc = match.TimeControl(depth=2)
    with ThreadPoolExecutor(1) as pool, pytest.raises(EngineError, match="said nothing"):
        match.run_match(
            "shashki:hash=4", f"hub:{sys.executable} {script}", ["c3-d4"], tc, executor=pool
        )


def test_an_unknown_player_option_is_refused_not_ignored() -> None:
    from shashki.apps.match.players import make_player

    with pytest.raises(ValueError, match="unknown shashki player option 'evaluation'"):
        make_player("shashki:evaluation=classic")


def test_a_small_match_of_alike_pairs_has_an_honest_interval() -> None:
    drawn = match.Results()
    for _ in range(4):
        drawn.add_pair(1.0, [0.5, 0.5])
    elo, low, high = drawn.elo()
    assert elo == 0.0 and low < -100 and high > 100  # four drawn pairs prove little
    text = match.summary(drawn)
    assert "Elo (A - B) +0.0 [-173.7, +173.7]" in text  # not "-0 [-0, -0]"
    many = match.Results()
    for points in [1, 0.5, 1.5, 1] * 100:
        many.add_pair(points)
    bare = 1.96 * (many.variance() / many.count) ** 0.5
    low, high = many.elo()[1:]
    assert match.score_from_elo(high) - 0.5 == pytest.approx(bare, rel=0.02)


@pytest.mark.parametrize("variant", ["towers", "lasca", "towers-western"])
def test_a_column_game_match_in_process_and_over_the_hub(variant: str, tmp_path: Path) -> None:
    from shashki.columns import read_pdn

    path = tmp_path / "games.pdn"
    openings = match.load_openings("random", seed=3, variant=variant)[:1]
    with ThreadPoolExecutor(1) as pool:
        results = match.run_match(
            "shashki:hash=4",
            f"hub:{sys.executable} -m shashki hub",
            openings,
            match.TimeControl(nodes=200),
            executor=pool,
            pdn_path=str(path),
            variant=variant,
        )
    assert results.count == 1 and results.wins + results.draws + results.losses == 2
    handle = io.StringIO(path.read_text(encoding="utf-8"))
    read = []
    while (found := read_pdn(handle)) is not None:
        read.append(found)
    assert len(read) == 2
    for tags, board in read:
        assert tags["Variant"] == variant and tags["FEN"] == openings[0]
        assert tags["Result"] in ("1-0", "0-1", "1/2-1/2")
        # A game the rules ended reads back ended the same way; one adjudicated at the
        # ply limit carries the recorded draw.
        assert board.result() in (tags["Result"], "*")
        if board.result() == "*":
            assert tags["Result"] == "1/2-1/2" and len(board.move_stack) >= match.MAX_PLIES
    white_points = [{"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[t["Result"]] for t, _ in read]
    a_points = white_points[0] + (1 - white_points[1])  # A has White first, then Black
    assert results.pairs[round(2 * a_points)] == 1


def test_a_column_game_at_the_ply_limit_is_a_recorded_draw(monkeypatch) -> None:
    from shashki.apps.match import runner
    from shashki.apps.match.players import make_player

    monkeypatch.setattr(runner, "MAX_PLIES", 4)
    player = make_player("shashki:hash=4", "towers")
    try:
        game = runner.play_game(
            player, player, "", match.TimeControl(depth=1), ("A", "B"), variant="towers"
        )
    finally:
        player.close()
    assert game.ply() == 4 and game.current_board.result() == "*"
    assert game.headers["Result"] == "1/2-1/2"
    assert '[Result "1/2-1/2"]' in game.pdn() and game.pdn().rstrip().endswith("1/2-1/2")


def test_dxp_is_refused_for_a_column_game() -> None:
    from shashki.apps.match.players import check_spec, make_player

    with pytest.raises(ValueError, match="one piece a square"):
        check_spec("dxp:127.0.0.1:27531", "towers")
    with pytest.raises(ValueError, match="one piece a square"):
        make_player("dxp:127.0.0.1:27531", "lasca")
    check_spec("dxp:127.0.0.1:27531", "international")  # the address alone is checked
    proc = run_cli("--variant", "towers", "--b", "dxp:127.0.0.1:27531", "--nodes", "100")
    assert proc.returncode == 2 and "one piece a square" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_random_openings_of_a_column_game_are_its_positions() -> None:
    import shashki

    openings = match.load_openings("random", seed=5, variant="lasca")
    assert len(openings) == len(set(openings)) > 50
    for fen in openings[:20]:
        board = shashki.ColumnBoard(fen, variant="lasca")
        assert board.fen() == fen and not board.is_game_over()
