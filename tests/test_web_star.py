"""The web board's star (Chinese checkers): its API on a real server on 127.0.0.1 (the
game each request carries, the computer's move, bad input refused with a message, the
limits of the threat model), and the page in a real browser: a person against the
computer with two and with three players, by clicks."""

from __future__ import annotations

import time

import pytest
import shashki.apps.web.star as web_star
import starlette  # noqa: F401  # the web extra, a test dependency
from browser_support import headless_chromium, needs_browser, wait
from shashki.star import StarBoard, read_record
from web_server import request, running_server


@pytest.fixture(scope="module")
def base():
    with running_server() as url:
        yield url


def game(moves: list[str], players: int = 2, holes: int = 121, hop: str = "any") -> dict:
    return {"holes": holes, "players": players, "hop": hop, "moves": moves}


def test_the_state_of_a_game_the_request_carries(base: str) -> None:
    status, state, kind = request(base, "/api/star/state", {"game": game(["N10-M9", "D8-E9"])})
    assert status == 200 and kind.startswith("application/json")
    board = StarBoard()
    board.push(board.parse_move("N10-M9"))
    board.push(board.parse_move("D8-E9"))
    assert len(state["holes"]) == 121 and state["holes"][0]["name"] == "A5"
    assert state["pieces"] == [board.pieces(0), board.pieces(1)]
    assert state["turn"] == 0 and state["plies"] == 2 and not state["over"]
    assert sorted((m["from"], m["to"]) for m in state["moves"]) == sorted(board.legal_moves)
    hop = next(m for m in state["moves"] if m["text"] == "P12-N10-L8")
    assert hop["path"] == board.path(board.parse_move("P12-L8"))
    assert state["last"]["text"] == "D8-E9" and state["played"] == ["N10-M9", "D8-E9"]
    assert read_record(state["record"])[1].text() == board.text()


def test_the_computer_moves_for_every_number_of_players(base: str) -> None:
    for players in (2, 3, 4, 6):
        status, answer, _ = request(
            base, "/api/star/move", {"game": game([], players, 73), "time": 0.05}
        )
        assert status == 200, answer
        board = StarBoard(size=3, players=players)
        move = board.parse_move(answer["move"]["text"])
        assert answer["move"]["path"] == board.path(move)
        assert answer["state"]["plies"] == 1 and answer["state"]["turn"] == 1
        assert answer["info"]["nodes"] > 0


def test_bad_games_are_refused_with_a_message(base: str) -> None:
    for body, what in [
        ({"game": game([], 5)}, "players"),
        ({"game": game([], 2, 100)}, "holes"),
        ({"game": game([], 2, 121, "mine")}, "hop"),
        ({"game": {"moves": "N10-M9"}}, "list"),
        ({"game": game(["N10-M9", "N10-M9"])}, "moves[1]"),
        ({"game": game(["Z1-Z2"])}, "moves[0]"),
        ({"game": game([7])}, "moves[0]"),
        ({"game": game(["N10-M9" * 20])}, "too long"),
        ({"game": game([]), "time": 60}, "time"),
        ({"game": game([]), "time": "fast"}, "time"),
        ({"game": []}, "object"),
    ]:
        path = "/api/star/move" if "time" in body else "/api/star/state"
        status, answer, _ = request(base, path, body)
        assert status == 400 and what in answer["error"], (body, answer)


def test_the_limits_hold(base: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At most MAX_STAR_PLIES moves a request; a finished game gets no computer's move; a
    computer's move keeps to its time; none beyond MAX_SEARCHES at once (503)."""
    too_long = game(["N10-M9"] * (web_star.MAX_STAR_PLIES + 1))
    status, answer, _ = request(base, "/api/star/state", {"game": too_long})
    assert status == 400 and "at most" in answer["error"]
    board = StarBoard(size=3, max_plies=1000)
    seed = 0
    while not board.is_over():
        seed += 1
        board.push(board.greedy_move(seed))
    over = game(board.moves_text(), 2, 73)
    status, answer, _ = request(base, "/api/star/move", {"game": over, "time": 0.05})
    assert status == 400 and "over" in answer["error"]
    started = time.monotonic()
    status, _, _ = request(base, "/api/star/move", {"game": game([]), "time": 0.3})
    assert status == 200 and time.monotonic() - started < 5
    monkeypatch.setattr(web_star, "_running", 99)
    status, answer, _ = request(base, "/api/star/move", {"game": game([]), "time": 0.05})
    assert status == 503 and "busy" in answer["error"]


# --- in a real browser ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    yield from headless_chromium()


def star_state(browser) -> dict:
    return browser.execute_script("return S.state")


def my_turn(browser) -> bool:
    return bool(
        browser.execute_script(
            "return S.state !== null && !S.busy && (S.state.over || S.humans.has(S.state.turn))"
        )
    )


def click_hole(browser, hole: int, piece: bool) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    kind = "piece" if piece else "hole"
    element = browser.find_element("css selector", f'circle.{kind}[data-hole="{hole}"]')
    ActionChains(browser).move_to_element(element).click().perform()


def new_game(browser, base: str, players: int, holes: int = 121) -> None:
    from selenium.webdriver.support.ui import Select

    browser.get(base + "/star")
    wait(lambda: browser.execute_script("return typeof S !== 'undefined' && S.state !== null"))
    Select(browser.find_element("id", "players")).select_by_value(str(players))
    Select(browser.find_element("id", "holes")).select_by_value(str(holes))
    time_box = browser.find_element("id", "time")
    time_box.clear()
    time_box.send_keys("0.05")
    browser.find_element("id", "start").click()
    wait(lambda: my_turn(browser) and star_state(browser)["players"] == players)


@needs_browser
@pytest.mark.parametrize("players", [2, 3])
def test_a_person_plays_the_computer_by_clicks(browser, base: str, players: int) -> None:
    from test_web_browser import shot

    new_game(browser, base, players)
    for turn in range(3):
        state = star_state(browser)
        assert state["turn"] == 0 and not state["over"]
        move = max(state["moves"], key=lambda m: len(m["path"]))  # a hop when there is one
        start, plies = move["from"], players * (turn + 1)
        click_hole(browser, start, piece=True)
        wait(lambda: browser.execute_script("return S.selected") == start)  # noqa: B023
        click_hole(browser, move["to"], piece=False)
        wait(lambda: my_turn(browser) and star_state(browser)["plies"] == plies)  # noqa: B023
        played = star_state(browser)["played"]
        assert played[turn * players] == move["text"]
    state = star_state(browser)
    board = read_record(state["record"])[1]
    assert board.plies == 3 * players and board.turn == 0
    pieces = browser.find_elements("css selector", "circle.piece")
    assert len(pieces) == 10 * players
    colours = {p.get_attribute("fill") for p in pieces}
    assert len(colours) == players
    assert browser.find_elements("css selector", "polyline.last-path")
    shot(browser, f"star-{players}-players")
    browser.find_element("id", "undo").click()
    wait(lambda: my_turn(browser) and star_state(browser)["plies"] == 2 * players)


@needs_browser
def test_a_typed_move_and_a_bad_one(browser, base: str) -> None:
    new_game(browser, base, 2, 73)
    box = browser.find_element("id", "move-input")
    box.send_keys("K8-A4\n")
    message = browser.find_element("id", "message")
    wait(lambda: "not a legal move" in message.text, what="the refusal")
    assert star_state(browser)["plies"] == 0
    first = star_state(browser)["moves"][0]["text"]
    box.send_keys(first.lower() + "\n")
    wait(lambda: my_turn(browser) and star_state(browser)["plies"] == 2)
    assert star_state(browser)["played"][0] == first
