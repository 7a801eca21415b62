"""The web board's Чапаев: its API on a real server on 127.0.0.1 (the round each request
carries, a flick's paths, the computer's flick, bad input refused, the limits), and the
page in a real browser: a flick by dragging from a disc, animated, and the computer's
answer."""

from __future__ import annotations

import pytest
import shashki.apps.web.chapaev as web_chapaev
import starlette  # noqa: F401  # the web extra, a test dependency
from browser_support import headless_chromium, needs_browser, wait
from shashki.chapaev import ChapaevBoard, read_record
from web_server import request, running_server


@pytest.fixture(scope="module")
def base():
    with running_server() as url:
        yield url


def test_a_flick_its_paths_and_the_state_after(base: str) -> None:
    status, answer, _ = request(
        base, "/api/chapaev/flick", {"game": {"flicks": []}, "flick": "d:90:1"}
    )
    assert status == 200, answer
    shot, state = answer["shot"], answer["state"]
    assert shot["flick"] == "d:90.00:1.000" and shot["off"] == ["bd"] and shot["again"]
    assert len(shot["frames"]) > 10 and all(len(f) == 16 for f in shot["frames"])
    board = ChapaevBoard()
    board.play("d:90:1")
    assert state["turn"] == "w" and state["flicks"] == board.flicks
    assert [(d["name"], d["x"], d["y"], d["on"]) for d in state["discs"]] == board.discs
    assert read_record(state["record"])[1].text() == board.text()
    status, again, _ = request(base, "/api/chapaev/state", {"game": {"flicks": state["flicks"]}})
    assert status == 200 and again["discs"] == state["discs"]


def test_the_computer_flicks_at_each_level(base: str) -> None:
    for level in (1, 2, 3):
        status, answer, _ = request(
            base, "/api/chapaev/aim", {"game": {"flicks": ["a:0:0.01"]}, "level": level}
        )
        assert status == 200, answer
        assert answer["shot"]["flick"][0] in "abcdefgh"
        assert answer["state"]["flicks"][0] == "a:0.00:0.010"


def test_bad_rounds_and_flicks_are_refused_with_a_message(base: str) -> None:
    for path, body, what in [
        ("/api/chapaev/state", {"game": {"flicks": "d:90:1"}}, "list"),
        ("/api/chapaev/state", {"game": {"flicks": ["z:1:1"]}}, "flicks[0]"),
        ("/api/chapaev/state", {"game": {"flicks": [5]}}, "flicks[0]"),
        ("/api/chapaev/flick", {"game": {"flicks": []}, "flick": "d:90:2"}, "strength"),
        ("/api/chapaev/flick", {"game": {"flicks": []}, "flick": "d" * 50}, "too long"),
        ("/api/chapaev/aim", {"game": {"flicks": []}, "level": 9}, "level"),
        ("/api/chapaev/aim", {"game": []}, "object"),
    ]:
        status, answer, _ = request(base, path, body)
        assert status == 400 and what in answer["error"], (path, body, answer)
    many = {"game": {"flicks": ["a:0:0"] * (web_chapaev.MAX_CHAPAEV_FLICKS + 1)}}
    status, answer, _ = request(base, "/api/chapaev/state", many)
    assert status == 400 and "at most" in answer["error"]
    board = ChapaevBoard()
    seed = 0
    while board.result() is None:
        seed += 1
        board.play(board.aim(1, seed) or "")
    over = {"game": {"flicks": board.flicks}, "level": 1}
    status, answer, _ = request(base, "/api/chapaev/aim", over)
    assert status == 400 and "over" in answer["error"]


@pytest.fixture(scope="module")
def browser():
    yield from headless_chromium()


def ready(browser) -> bool:
    return bool(
        browser.execute_script(
            "return typeof S !== 'undefined' && S.state !== null && !S.busy && !S.animating"
            " && (S.state.result !== null || S.humans.has(S.state.turn))"
        )
    )


@needs_browser
def test_a_flick_by_dragging_and_the_computers_answer(browser, base: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from test_web_browser import shot

    browser.get(base + "/chapaev")
    wait(lambda: ready(browser))
    disc = browser.find_element("css selector", 'circle.disc[data-disc="wd"]')
    size = browser.find_element("id", "table").size["width"]
    square = size / 8
    # Drag from White's d disc straight up the board, three squares: full strength.
    ActionChains(browser).move_to_element(disc).click_and_hold().move_by_offset(
        0, -int(square)
    ).move_by_offset(0, -int(2 * square)).release().perform()
    wait(lambda: browser.execute_script("return S.flicks.length") >= 1, what="the flick")
    first = browser.execute_script("return S.flicks[0]")
    assert first.startswith("d:")
    angle, strength = (float(v) for v in first.split(":")[1:])
    assert abs(angle - 90) < 3 and strength > 0.9
    wait(lambda: ready(browser), what="the animation and the computer")
    state = browser.execute_script("return S.state")
    assert "bd" not in [d["name"] for d in state["discs"] if d["on"]]
    shot(browser, "chapaev-after-a-flick")
    # Typed flicks too, until the computer has flicked.
    for _ in range(6):
        if browser.execute_script("return S.state.result !== null || S.flicks.length > 2"):
            break
        box = browser.find_element("id", "flick-input")
        box.send_keys("e 90 1\n")
        wait(lambda: ready(browser), what="the typed flick")
    board = read_record(browser.execute_script("return S.state.record"))[1]
    assert board.flicks == browser.execute_script("return S.flicks")
