"""The web board's server: every endpoint, good and bad input, and the review
module and command behind its game review. The page itself is driven in a real browser in
test_web_browser.py."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
import shashki
import starlette  # noqa: E402, F401  # the web extra, a test dependency
import uvicorn  # noqa: E402, F401  # the web extra, a test dependency
from shashki import pdn
from shashki.apps.review import annotate, plot_svg, review
from shashki.apps.web import MAX_BODY, Busy, Searches  # noqa: E402
from shashki.engine import Limit
from web_server import request, running_server  # noqa: E402


@pytest.fixture(scope="module")
def client():
    """The base URL of a real server on 127.0.0.1."""
    with running_server() as base:
        yield base


def post(client: str, path: str, body: object) -> tuple[int, dict]:
    status, answer, _ = request(client, path, body)
    return status, answer


def get(client: str, path: str) -> tuple[int, dict, str]:
    return request(client, path)


def test_index_and_static_files_are_served(client) -> None:
    status, page, kind = get(client, "/")
    assert status == 200 and kind.startswith("text/html")
    assert '<svg id="board"' in page["text"]
    assert "http" not in page["text"]  # no CDN: nothing remote
    for name in ("app.js", "style.css"):
        status, answer, _ = get(client, f"/static/{name}")
        assert status == 200 and len(answer["text"]) > 500
    status, _, _ = get(client, "/static/%2e%2e/__init__.py")
    assert status == 404


def test_state_of_a_game(client) -> None:
    status, state = post(client, "/api/state", {"game": {"moves": ["c3-d4", "f6-e5"]}})
    assert status == 200
    assert state["turn"] == "white"
    assert state["must_capture"] is True
    assert [m["long"] for m in state["legal"]] == ["d4:f6"]
    assert state["moves"] == [
        {"long": "c3-d4", "text": "c3-d4"},
        {"long": "f6-e5", "text": "f6-e5"},
    ]
    assert state["pieces"]["13"] == "w" and state["result"] == "*"


def test_state_of_a_variant_from_a_fen(client) -> None:
    game = {"fen": "W:Wh2:Bg3,f4", "variant": "giveaway"}
    status, state = post(client, "/api/state", {"game": game})
    assert status == 200
    assert state["result"] == "1-0" and state["termination"] == "no legal moves"
    assert state["legal"] == []


@pytest.mark.parametrize(
    "body, message",
    [
        ({"game": {"moves": ["c3-d5"]}}, "move 1 (c3-d5)"),
        ({"game": {"moves": ["c3-d4", "c3-d4"]}}, "move 2"),
        ({"game": {"fen": "W:W99:B1"}}, "bad FEN"),
        ({"game": {"variant": "chess"}}, "unknown variant"),
        ({"game": {"moves": "c3-d4"}}, "moves must be a list"),
        ({"game": {"captures_optional": "yes"}}, "captures_optional"),
        ({"game": []}, "game must be a JSON object"),
        ({"game": {"moves": [7]}}, "move 1 must be a string"),
        ({"game": {"fen": "x" * 1000}}, "too long"),
    ],
)
def test_bad_games_get_400_with_a_message(client, body, message: str) -> None:
    status, answer = post(client, "/api/state", body)
    assert status == 400
    assert message in answer["error"]
    assert "Traceback" not in answer["error"]


def test_bad_bodies(client) -> None:
    status, answer, _ = request(client, "/api/state", raw=b"{not json")
    assert status == 400 and "not JSON" in answer["error"]
    status, answer, _ = request(client, "/api/state", raw=b"x" * (MAX_BODY + 10))
    assert status == 413 and "too large" in answer["error"]
    status, _, _ = get(client, "/api/state")
    assert status == 405
    status, _, _ = get(client, "/api/nothing")
    assert status == 404


def test_engine_move(client) -> None:
    body = {"game": {"moves": ["c3-d4"]}, "level": {"depth": 4}, "client": "t1"}
    status, answer = post(client, "/api/engine/move", body)
    assert status == 200
    board = shashki.Board()
    board.push_move("c3-d4")
    assert board.parse_move(answer["move"]["long"]) in board.legal_moves
    assert answer["state"]["turn"] == "white"
    assert len(answer["state"]["moves"]) == 2


@pytest.mark.parametrize(
    "level, message",
    [
        ({"depth": 0}, "depth must be between"),
        ({"depth": 1000}, "depth must be between"),
        ({"time": -1}, "time must be between"),
        ({"time": 10_000}, "time must be between"),
        ({"time": "fast"}, "time must be a number"),
    ],
)
def test_engine_levels_are_bounded(client, level, message: str) -> None:
    status, answer = post(client, "/api/engine/move", {"game": {}, "level": level})
    assert status == 400 and message in answer["error"]


def test_engine_refuses_a_finished_game(client) -> None:
    game = {"fen": "W:Wh2:Bg3,f4"}
    status, answer = post(client, "/api/engine/move", {"game": game})
    assert status == 400 and "over" in answer["error"]


def test_analysis_streams_lines_then_done(client) -> None:
    import urllib.parse

    game = urllib.parse.quote(json.dumps({"moves": ["c3-d4"]}))
    url = f"/api/analyse?game={game}&multipv=2&time=0.3&client=t2"
    status, answer, kind = get(client, url)
    assert status == 200 and kind.startswith("text/event-stream")
    text = answer["text"]
    events = [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: {")]
    events = [e for e in events if e]
    assert events and {e["multipv"] for e in events} <= {1, 2}
    assert all(e["pv"] for e in events)
    assert "event: done" in text


@pytest.mark.parametrize(
    "query, message",
    [
        ("game=%7B%7D&multipv=9", "multipv must be between"),
        ("game=%7B%7D&time=99999", "time must be between"),
        ("game=nonsense", "game is not JSON"),
        ("game=%7B%7D&multipv=abc", "multipv must be a number"),
        ("game=%7B%7D&client=a%20b", "client must be"),
        ('game={"fen":"W:Wh2:Bg3,f4"}', "no legal move"),
    ],
)
def test_bad_analysis_requests(client, query: str, message: str) -> None:
    import urllib.parse

    query = urllib.parse.quote(query, safe="=&%")
    status, answer, _ = get(client, f"/api/analyse?{query}")
    assert status == 400
    assert message in answer["error"]


def test_one_search_a_client_and_a_cap_on_all() -> None:
    searches = Searches(hash_mb=1)
    try:
        searches.acquire("a")
        with pytest.raises(Busy) as again:
            searches.acquire("a")
        assert again.value.status == 429
        searches.acquire("b")
        with pytest.raises(Busy) as full:
            searches.acquire("c")
        assert full.value.status == 503
        searches.release("a")
        searches.acquire("c")
    finally:
        searches.close()


def test_stop_answers_for_any_client(client) -> None:
    status, answer = post(client, "/api/stop", {"client": "nobody"})
    assert status == 200 and answer == {"stopped": True}


PDN_TEXT = """[White "Ann"]
[Black "Bob"]
[GameType "25"]

1. c3-d4 {the centre} (1. a3-b4 b6-a5) 1... f6-e5 2. d4xf6 g7xe5 *
"""


def test_pdn_read_gives_the_tree(client) -> None:
    status, game = post(client, "/api/pdn/read", {"text": PDN_TEXT})
    assert status == 200
    assert game["headers"]["White"] == "Ann" and game["variant"] == "russian"
    first = game["tree"]["children"]
    assert [c["long"] for c in first] == ["c3-d4", "a3-b4"]
    assert first[0]["comment"] == "the centre"
    assert first[1]["children"][0]["long"] == "b6-a5"


@pytest.mark.parametrize("text", ["", "1. c3-d5 *", '[GameType "41"]\n\n1. a3-a4 *'])
def test_pdn_read_refuses_bad_text(client, text: str) -> None:
    status, answer = post(client, "/api/pdn/read", {"text": text})
    assert status == 400 and answer["error"].startswith("PDN")


def test_pdn_write_round_trip(client) -> None:
    _, game = post(client, "/api/pdn/read", {"text": PDN_TEXT})
    spec = {"fen": None, "variant": "russian", "tree": game["tree"]}
    status, answer = post(client, "/api/pdn/write", {"game": spec, "headers": {"White": "Ann"}})
    assert status == 200
    again = pdn.read_game(io.StringIO(answer["pdn"]))
    assert again is not None and again.headers["White"] == "Ann"
    assert [str(m) for m in again.mainline_moves()] == ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]
    assert len(again.root().variations) == 2


def test_pdn_headers_and_comments_round_trip_exactly(client) -> None:
    """Read, then write what the page holds (its tree, the headers and the game comment it
    kept): the same tags, and comments with braces and line breaks, exactly."""
    text = (
        '[Event "Club, round 2"]\n[White "Ann \\"A\\" B"]\n[Black "Bob"]\n'
        '[Date "2026.11.30"]\n[Result "*"]\n\n'
        ";a game comment with } in it\n1. c3-d4 ;after } the move\n;and a second line\n"
        "1... f6-e5 {plain} *\n"
    )
    _, game = post(client, "/api/pdn/read", {"text": text})
    assert game["comment"] == "a game comment with } in it"
    assert game["tree"]["children"][0]["comment"] == "after } the move\nand a second line"
    spec = {"variant": "russian", "tree": game["tree"], "comment": game["comment"]}
    status, answer = post(client, "/api/pdn/write", {"game": spec, "headers": game["headers"]})
    assert status == 200
    again = pdn.read_game(io.StringIO(answer["pdn"]))
    assert again is not None
    for name in ("Event", "White", "Black", "Date"):
        assert again.headers[name] == game["headers"][name]
    assert again.headers["White"] == 'Ann "A" B'
    assert again.comment == "a game comment with } in it"
    first = again.next()
    assert first is not None and first.comment == "after } the move\nand a second line"
    # A header with a line break cannot be a PDN tag: refused, not written broken.
    bad = {"game": spec, "headers": {"White": "Ann\nBob"}}
    status, answer = post(client, "/api/pdn/write", bad)
    assert status == 400 and "one line" in answer["error"]


def test_pdn_write_refuses_an_illegal_tree(client) -> None:
    spec = {"tree": {"children": [{"long": "c3-d5", "children": []}]}}
    status, answer = post(client, "/api/pdn/write", {"game": spec})
    assert status == 400 and "c3-d5" in answer["error"]


def test_review_endpoint_plots_and_judges(client) -> None:
    body = {"game": {"moves": BLUNDER_MOVES}, "level": {"depth": 6}, "client": "t3"}
    status, report = post(client, "/api/review", body)
    assert status == 200
    assert report["svg"].startswith("<svg") and "polyline" in report["svg"]
    assert len(report["moves"]) == len(BLUNDER_MOVES)
    assert any(m["judgement"] == "blunder" for m in report["moves"])
    status, answer = post(client, "/api/review", {"game": {}, "level": {"depth": 99}})
    assert status == 400


def test_openings(client) -> None:
    status, answer, _ = get(client, "/api/openings")
    assert status == 200
    openings = answer["openings"]
    assert openings and all("label" in o for o in openings)
    board = shashki.Board()
    for text in openings[0]["moves"].split():
        board.push_move(text)
    ballots = [o for o in openings if "fen" in o]
    assert len(ballots) >= 700  # pydraughts' Russian ballots (a test dependency)
    assert all(shashki.Board(o["fen"]).legal_moves for o in ballots[:50])


def test_the_variant_menu_comes_from_the_games_cards(client) -> None:
    status, answer, _ = get(client, "/api/games")
    assert status == 200
    columns = [card.name for card in shashki.games(columns=True)]
    assert [card["name"] for card in answer["games"]] == [*shashki.VARIANTS, *columns]
    for card in answer["games"]:
        assert card == {**shashki.game_info(card["name"])._asdict(), **card}
        assert shashki.game_info(card["name"]).display_name == card["display_name"]
    _, page, _ = get(client, "/")
    # No list of games of its own in the page: only the default's option before the fill.
    assert not any(f'value="{name}"' in page["text"] for name in shashki.VARIANTS[1:])


# ---- the review module and command --------------------------------------------------------

# 4. e1-d2 gives Black a shot (over 3 men by a depth-6 search; b2-c3 holds).
BLUNDER_MOVES = ["g3-h4", "b6-a5", "c3-b4", "a5:c3", "d2:b4", "f6-e5", "e1-d2"]


def blunder_game() -> shashki.Game:
    game = shashki.Game()
    for text in BLUNDER_MOVES:
        game.push_move(text)
    return game


def test_review_judges_moves_against_the_engine() -> None:
    report = review(blunder_game(), Limit(depth=6))
    assert len(report.moves) == len(BLUNDER_MOVES)
    assert len(report.evaluations) == len(BLUNDER_MOVES) + 1
    for move in report.moves:
        if move.judgement is None:
            continue
        assert move.best is not None and move.best != move.text
        assert move.lost >= 50 or move.judgement == "blunder"
    assert sum(report.counts(True).values()) + sum(report.counts(False).values()) >= 1


def test_annotate_and_plot() -> None:
    game = blunder_game()
    report = review(game, Limit(depth=6))
    annotate(game, report)
    text = pdn.write_game(game)
    assert "[%eval" in text
    judged = [m for m in report.moves if m.judgement]
    assert judged
    for node, move in zip(game.mainline(), report.moves):
        if move.judgement:
            assert node.nags == [{"blunder": 4, "mistake": 2, "inaccuracy": 6}[move.judgement]]
            assert f"best was {move.best}" in node.comment
    assert "e1-d2??" in text
    svg = plot_svg(report.evaluations, report.moves)
    assert svg.count("<circle") == len(report.evaluations)  # a point a position
    for judgement in {m.judgement for m in judged}:
        assert svg.count(f'class="{judgement}"') == sum(m.judgement == judgement for m in judged)


def test_cli_review_writes_the_annotated_game_and_the_plot(tmp_path) -> None:
    source = tmp_path / "game.pdn"
    source.write_text(pdn.write_game(blunder_game()), encoding="utf-8")
    out, plot = tmp_path / "out.pdn", tmp_path / "eval.svg"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "shashki",
            "review",
            str(source),
            "--depth",
            "6",
            "--annotate",
            str(out),
            "--plot",
            str(plot),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "White:" in proc.stdout and "Black:" in proc.stdout
    assert "[%eval" in out.read_text(encoding="utf-8")
    assert plot.read_text(encoding="utf-8").startswith("<svg")
    missing = subprocess.run(
        [sys.executable, "-m", "shashki", "review", str(tmp_path / "nope.pdn")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 2 and "cannot read" in missing.stderr


# ---- the column games (towers, Lasca) ----

# A towers game in which White's a3-b4 hands Black a man (c5:a3 takes it under its column).
TOWERS_MISTAKE = ["c3-b4", "d6-c5", "b4:d6", "e7:c5", "a3-b4", "c5:a3"]


def towers_game() -> shashki.ColumnGame:
    game = shashki.ColumnGame(variant="towers")
    for text in TOWERS_MISTAKE:
        game.push_move(text)
    return game


def test_a_column_game_is_reviewed_as_the_others(client) -> None:
    report = review(towers_game(), Limit(depth=6))
    assert [m.text for m in report.moves] == TOWERS_MISTAKE
    assert len(report.evaluations) == len(TOWERS_MISTAKE) + 1
    given = report.moves[4]
    assert given.judgement in ("mistake", "blunder") and given.best not in (None, "a3-b4")
    assert given.lost >= 100
    body = {"game": {"variant": "towers", "moves": TOWERS_MISTAKE}, "level": {"depth": 6}}
    status, answer = post(client, "/api/review", {**body, "client": "tr"})
    assert status == 200, answer
    assert [m["text"] for m in answer["moves"]] == TOWERS_MISTAKE
    assert answer["moves"][4]["judgement"] in ("mistake", "blunder")
    assert answer["svg"].startswith("<svg") and answer["svg"].count("data-ply") == 7


def test_cli_review_of_a_column_game_writes_its_annotated_pdn(tmp_path) -> None:
    from shashki.columns import read_pdn

    source, out = tmp_path / "towers.pdn", tmp_path / "out.pdn"
    source.write_text(towers_game().pdn(), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "shashki", "review", str(source), "--depth", "6"]
        + ["--annotate", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "3. a3-b4?" in proc.stdout and "best" in proc.stdout
    text = out.read_text(encoding="utf-8")
    assert '[Variant "towers"]' in text and text.count("[%eval") == len(TOWERS_MISTAKE)
    assert "3. a3-b4 $2 {" in text or "3. a3-b4 $4 {" in text
    assert "3... c5:a3" in text  # Black's move numbered again after a comment
    with out.open(encoding="utf-8") as handle:
        found = read_pdn(handle)
    assert found is not None
    assert len(found[1].move_stack) == len(TOWERS_MISTAKE)
    assert found[1].fen() == towers_game().current_board.fen()


def test_a_comment_over_two_lines_is_skipped_by_the_column_reader() -> None:
    import io

    from shashki.columns import read_pdn

    text = '[Variant "lasca"]\n\n1. 9-13 {a comment\nover 7-10 two lines} 17x9 *\n'
    found = read_pdn(io.StringIO(text))
    assert found is not None
    tags, board = found
    assert [board.root().move_text(board.move_stack[0])] == ["9-13"]
    assert len(board.move_stack) == 2


def test_a_towers_state_lists_its_columns(client) -> None:
    game = {"variant": "towers", "fen": "W:Wc3(bB),e3:Bd4(ww),f6", "moves": []}
    status, state = post(client, "/api/state", {"game": game})
    assert status == 200, state
    assert state["variant"] == "towers" and state["size"] == 8
    # c3 (index 9): a white man over a black man over a black king; d4 (13): black on two
    # white men; the top decides the piece shown.
    assert state["columns"] == {"9": "wbB", "10": "w", "13": "bww", "22": "b"}
    assert state["pieces"] == {"9": "w", "10": "w", "13": "b", "22": "b"}
    assert state["must_capture"] is True
    assert sorted(m["long"] for m in state["legal"]) == ["c3:e5:g7", "e3:c5"]
    assert state["grid"][9] == [2, 2] and len(state["grid"]) == 32
    status, after = post(client, "/api/state", {"game": {**game, "moves": ["c3:e5:g7"]}})
    assert status == 200
    # The two men taken go under the capturing column in the order taken; d4 is White's.
    assert after["columns"]["27"] == "wbBbb" and after["columns"]["13"] == "ww"


def test_lasca_is_played_on_its_seven_by_seven_board(client) -> None:
    status, state = post(client, "/api/state", {"game": {"variant": "lasca"}})
    assert status == 200, state
    assert state["size"] == 7 and len(state["grid"]) == 25
    assert state["numbers"] == list(range(1, 26))
    assert len(state["pieces"]) == 22
    body = {"game": {"variant": "lasca"}, "level": {"depth": 3}, "client": "lasca"}
    status, answer = post(client, "/api/engine/move", body)
    assert status == 200, answer
    board = shashki.ColumnBoard(variant="lasca")
    assert board.parse_move(answer["move"]["long"]) in board.legal_moves
    assert len(answer["state"]["moves"]) == 1


def test_column_games_refused_where_they_do_not_fit(client) -> None:
    status, answer = post(
        client, "/api/state", {"game": {"variant": "towers", "captures_optional": True}}
    )
    assert status == 400 and "compulsory" in answer["error"]
    status, answer = post(client, "/api/state", {"game": {"variant": "towers", "moves": ["a1-b2"]}})
    assert status == 400 and "move 1" in answer["error"]


def test_a_towers_game_written_and_read_as_pdn(client) -> None:
    tree = {"children": [{"long": "c3-d4", "children": [{"long": "f6-e5", "children": []}]}]}
    game = {"variant": "towers", "tree": tree}
    status, answer = post(client, "/api/pdn/write", {"game": game, "headers": {"White": "Ann"}})
    assert status == 200, answer
    text = answer["pdn"]
    assert '[Variant "towers"]' in text and '[White "Ann"]' in text and "c3-d4" in text
    status, read = post(client, "/api/pdn/read", {"text": text})
    assert status == 200, read
    assert read["variant"] == "towers" and read["headers"]["White"] == "Ann"
    first = read["tree"]["children"][0]
    assert first["long"] == "c3-d4" and first["children"][0]["long"] == "f6-e5"


def test_a_towers_analysis_streams_its_depths(client) -> None:
    import urllib.parse

    game = urllib.parse.quote(json.dumps({"variant": "towers", "moves": ["c3-d4"]}))
    status, answer, _ = get(client, f"/api/analyse?game={game}&time=0.3&client=t3")
    assert status == 200
    events = [
        json.loads(line[6:]) for line in answer["text"].splitlines() if line.startswith("data: {")
    ]
    depths = [e["depth"] for e in events if e]
    assert depths and depths == sorted(depths) and depths[-1] >= 3
    assert "event: done" in answer["text"]
