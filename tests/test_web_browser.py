"""The web board in a real browser: headless Chromium driven by Selenium through
the Debian chromium-driver, against a real server on 127.0.0.1. Screenshots go to
``$SHASHKI_SCREENSHOTS`` (default: ``build/screenshots``).

Without Chromium and its driver these tests are skipped, unless ``SHASHKI_REQUIRE_BROWSER=1``
(CI sets it after installing them), which makes a missing browser a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest
import shashki
import starlette  # noqa: E402, F401  # the web extra, a test dependency
import uvicorn  # noqa: E402, F401  # the web extra, a test dependency
from browser_support import wait  # noqa: E402  # the wait the page tests share
from selenium import webdriver  # noqa: E402  # a test dependency
from web_server import running_server  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SCREENSHOTS = Path(os.environ.get("SHASHKI_SCREENSHOTS", "build/screenshots"))

if not (CHROMIUM and DRIVER):
    if os.environ.get("SHASHKI_REQUIRE_BROWSER") == "1":
        raise RuntimeError("SHASHKI_REQUIRE_BROWSER=1 but chromium or chromedriver is missing")
    pytest.skip("chromium and chromedriver are not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def base():
    with running_server() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(flag)
    options.add_argument("--disable-dev-shm-usage")
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_script_timeout(60)
    yield driver
    driver.quit()


def state(browser) -> dict:
    return browser.execute_script("return S.state")


def idle(browser) -> bool:
    return browser.execute_script("return !S.busy && S.state !== null")


def shot(browser, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    browser.save_screenshot(str(path))
    assert path.stat().st_size > 5000


def open_page(browser, base: str) -> None:
    browser.get(base + "/")
    wait(lambda: browser.execute_script("return document.body.dataset.ready === 'true'"))
    # The variant menu is filled from the games' cards (/api/games): every game, once.
    values = browser.execute_script(
        "return [...document.getElementById('variant').options].map((o) => o.value)"
    )
    columns = [card.name for card in shashki.games(columns=True)]
    assert values == [*shashki.VARIANTS, *columns]


def load_pdn(browser) -> None:
    """Paste PDN_TEXT into the page's PDN box and load it."""
    area = browser.find_element("id", "pdn")
    browser.execute_script("arguments[0].value = arguments[1]", area, PDN_TEXT)
    browser.find_element("id", "load-pdn").click()
    wait(lambda: "Ann" in browser.find_element("id", "message").text, what="the PDN")


def click_square(browser, square: int) -> None:
    """Click the board square (0 = a1 … 31 = h8) as a user would."""
    element = browser.find_element("css selector", f'rect[data-square="{square}"]')
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).move_to_element(element).click().perform()


def set_controls(browser, **values: object) -> None:
    from selenium.webdriver.support.ui import Select

    for name, value in values.items():
        element = browser.find_element("id", name.replace("_", "-"))
        if element.tag_name == "select":
            Select(element).select_by_value(str(value))
        elif element.get_attribute("type") == "checkbox":
            if element.is_selected() != bool(value):
                element.click()
        else:
            element.clear()
            element.send_keys(str(value))


def start(browser, **values: object) -> None:
    set_controls(browser, **values)
    browser.find_element("id", "start").click()
    wait(lambda: idle(browser), what="the new game")
    time.sleep(0.2)
    wait(lambda: idle(browser), what="the new game")


def play_by_clicks(browser, move: dict) -> None:
    click_square(browser, move["start"])
    for square in move["path"]:
        click_square(browser, square)


def test_a_game_against_the_engine_by_clicks_to_the_end(browser, base) -> None:
    open_page(browser, base)
    shot(browser, "01-start")
    start(
        browser,
        variant="russian",
        opponent="engine",
        color="white",
        level_kind="depth",
        level_value=2,
        fen="W:WKa1,Kc1,Ke1,g3:Bh8,f8",
    )
    for _ in range(120):
        current = state(browser)
        if current["result"] != "*":
            break
        assert current["turn"] == "white"
        before = len(current["moves"])
        move = current["legal"][0]
        play_by_clicks(browser, move)
        wait(
            lambda before=before: (
                idle(browser)
                and (len(state(browser)["moves"]) >= before + 2 or state(browser)["result"] != "*")
            ),
            what="the engine's reply",
        )
    final = state(browser)
    assert final["result"] != "*", "the game did not end"
    assert final["result"] in browser.find_element("id", "result").text
    shot(browser, "02-game-over")


def test_takeback_undoes_the_move_and_the_reply(browser, base) -> None:
    open_page(browser, base)
    start(browser, opponent="engine", color="white", level_kind="depth", level_value=2, fen="")
    first = state(browser)
    move = next(m for m in first["legal"] if m["long"] == "c3-d4")
    play_by_clicks(browser, move)
    wait(lambda: idle(browser) and len(state(browser)["moves"]) == 2, what="the reply")
    browser.find_element("id", "takeback").click()
    wait(lambda: len(state(browser)["moves"]) == 0, what="the takeback")
    assert state(browser)["fen"] == first["fen"]
    shot(browser, "03-takeback")


def test_a_multi_capture_entered_square_by_square(browser, base) -> None:
    open_page(browser, base)
    start(browser, opponent="human", fen="W:Wc3:Bd4,f6,h6")
    click_square(browser, 9)  # c3
    click_square(browser, 18)  # e5: the capture goes on
    time.sleep(0.3)
    assert state(browser)["moves"] == []
    assert "continues" in browser.find_element("id", "message").text
    shot(browser, "04-capture-halfway")
    click_square(browser, 27)  # g7
    wait(lambda: len(state(browser)["moves"]) == 1, what="the capture")
    assert state(browser)["moves"][0]["long"] == "c3:e5:g7"
    assert state(browser)["pieces"] == {"27": "w", "23": "b"}
    shot(browser, "05-capture-done")


PDN_TEXT = """[Event "browser test"]
[White "Ann"]
[Black "Bob"]
[GameType "25"]

1. g3-h4 b6-a5 2. c3-b4 (2. c3-d4 a5-b4) 2... a5xc3 3. d2xb4 f6-e5 4. e1-d2 *
"""


def test_a_pasted_pdn_stepped_through_then_reviewed(browser, base) -> None:
    open_page(browser, base)
    area = browser.find_element("id", "pdn")
    area.clear()
    browser.execute_script("arguments[0].value = arguments[1]", area, PDN_TEXT)
    browser.find_element("id", "load-pdn").click()
    wait(lambda: "Ann" in browser.find_element("id", "message").text, what="the PDN")
    assert state(browser)["moves"] == []
    forward = browser.find_element("id", "forward")
    for _ in range(3):
        forward.click()
        time.sleep(0.15)
    wait(lambda: len(state(browser)["moves"]) == 3, what="three moves")
    assert [m["long"] for m in state(browser)["moves"]] == ["g3-h4", "b6-a5", "c3-b4"]
    variation = browser.find_element("css selector", '#moves .variation .move[title="c3-d4"]')
    variation.click()
    wait(lambda: [m["long"] for m in state(browser)["moves"]][-1:] == ["c3-d4"], what="variation")
    browser.find_element("id", "last").click()
    wait(lambda: len(state(browser)["moves"]) == 4, what="the variation's end")
    shot(browser, "06-pdn-variation")

    set_controls(browser, review_depth=6)
    browser.find_element("id", "review").click()
    wait(
        lambda: browser.find_elements("css selector", "#plot svg polyline"),
        timeout=120,
        what="the review plot",
    )
    assert browser.find_elements("css selector", "#plot svg circle.blunder")
    assert browser.find_elements("css selector", "#moves .move.blunder")
    summary = browser.find_element("id", "review-summary").text
    assert re.search(r"\b1 blunder\b|\b\d+ blunders\b", summary), summary
    assert "1 blunders" not in summary and "1 mistakes" not in summary
    # The plot fits its column, has axes with move numbers, and its points go to positions.
    plot = browser.find_element("css selector", "#plot svg")
    column = browser.find_element("id", "side")
    assert plot.size["width"] <= column.size["width"] + 1
    texts = [t.text for t in plot.find_elements("css selector", "text")]
    assert "+5" in texts and "-5" in texts and "1" in texts and "move" in texts
    point = plot.find_element("css selector", '[data-ply="2"]')
    browser.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", point
    )
    wait(lambda: len(state(browser)["moves"]) == 2, what="the position after two plies")
    shot(browser, "07-review")

    # The download keeps the loaded game's tags (they were lost: "?" for every name).
    area = browser.find_element("id", "pdn")
    browser.execute_script("arguments[0].value = ''", area)
    browser.find_element("id", "download").click()
    wait(lambda: "[White" in (area.get_attribute("value") or ""), what="the downloaded PDN")
    written = area.get_attribute("value") or ""
    for tag in ('[Event "browser test"]', '[White "Ann"]', '[Black "Bob"]'):
        assert tag in written, written


def test_analysis_updates_and_stops(browser, base) -> None:
    open_page(browser, base)
    start(browser, opponent="human", fen="")
    set_controls(browser, multipv=2)
    browser.find_element("id", "analyse").click()
    wait(lambda: len(browser.find_elements("css selector", "#lines li")) == 2, what="two lines")
    wait(lambda: "depth" in browser.find_element("id", "depth").text, what="the depth")
    browser.find_element("id", "stop").click()
    wait(lambda: browser.find_element("id", "analyse").is_enabled(), what="the stop")
    shot(browser, "08-analysis")


def test_a_new_game_from_a_ballot(browser, base) -> None:
    from selenium.webdriver.support.ui import Select

    open_page(browser, base)
    select = Select(browser.find_element("id", "opening"))
    ballot = next(o for o in select.options if o.text.startswith("ballot"))
    set_controls(browser, opponent="human", fen="")
    select.select_by_visible_text(ballot.text)
    browser.find_element("id", "start").click()
    wait(lambda: idle(browser), what="the ballot")
    time.sleep(0.3)
    chosen = json.loads(ballot.get_attribute("value"))
    assert state(browser)["start_fen"] == shashki.Board(chosen["fen"]).fen()


def test_bad_input_shows_a_message(browser, base) -> None:
    open_page(browser, base)
    set_controls(browser, fen="W:W99:B1")
    browser.find_element("id", "start").click()
    wait(lambda: "FEN" in browser.find_element("id", "message").text, what="the message")
    browser.execute_script("arguments[0].value = 'not a game'", browser.find_element("id", "pdn"))
    browser.find_element("id", "load-pdn").click()
    wait(lambda: "PDN" in browser.find_element("id", "message").text, what="the PDN message")


def test_moves_and_new_analyses_while_the_analysis_runs(browser, base) -> None:
    """A move made while the engine analyses is played and answered (the page was stuck on
    "a search is already running"); analyse → stop → analyse at once works; the lines of
    an old position go when the position changes; the depth shown never goes back."""
    open_page(browser, base)
    start(browser, opponent="engine", color="white", level_kind="depth", level_value=2, fen="")
    set_controls(browser, multipv=3)
    browser.find_element("id", "analyse").click()
    wait(lambda: len(browser.find_elements("css selector", "#lines li")) == 3, what="three lines")
    depths: list[int] = []
    for _ in range(10):
        text = browser.find_element("id", "depth").text
        if text:
            depths.append(int(text.split()[-1]))
        time.sleep(0.05)
    assert depths == sorted(depths), depths
    before = len(state(browser)["moves"])
    move = next(m for m in state(browser)["legal"] if m["long"] == "c3-d4")
    play_by_clicks(browser, move)
    wait(
        lambda: idle(browser) and len(state(browser)["moves"]) == before + 2,
        what="the move and the engine's reply",
    )
    assert "already running" not in browser.find_element("id", "message").text
    assert browser.find_elements("css selector", "#lines li") == []  # the old lines went
    for _ in range(2):  # analyse, stop, analyse again at once
        browser.find_element("id", "analyse").click()
        browser.find_element("id", "stop").click()
    browser.find_element("id", "analyse").click()
    want = min(3, len(state(browser)["legal"]))  # the reply may leave a forced capture
    wait(lambda: len(browser.find_elements("css selector", "#lines li")) == want, what="lines")
    assert browser.find_element("id", "message").text == ""
    browser.find_element("id", "stop").click()


def test_a_bad_fen_leaves_the_game_as_it_was(browser, base) -> None:
    open_page(browser, base)
    start(browser, opponent="human", fen="")
    move = next(m for m in state(browser)["legal"] if m["long"] == "c3-d4")
    play_by_clicks(browser, move)
    wait(lambda: len(state(browser)["moves"]) == 1, what="the move")
    set_controls(browser, fen="W:W99:B1")
    browser.find_element("id", "start").click()
    wait(lambda: "FEN" in browser.find_element("id", "message").text, what="the message")
    assert [m["long"] for m in state(browser)["moves"]] == ["c3-d4"]
    assert browser.execute_script("return S.current.long") == "c3-d4"


def test_a_side_with_nothing_left_is_game_over(browser, base) -> None:
    open_page(browser, base)
    start(browser, opponent="human", fen="W:Wa1:B")
    wait(lambda: state(browser)["result"] == "1-0", what="the result")
    assert "1-0" in browser.find_element("id", "result").text


def contrast(browser, script: str) -> float:
    """The WCAG contrast ratio of two colours the page computes (``script`` returns the two
    computed colours as 'rgb(r, g, b)' strings)."""
    first, second = browser.execute_script(script)

    def luminance(text: str) -> float:
        parts = [int(v) / 255 for v in text[text.index("(") + 1 : text.index(")")].split(",")[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_text_is_readable_and_the_last_move_shows_its_path(browser, base) -> None:
    open_page(browser, base)
    start(browser, opponent="human", fen="W:Wc3:Bd4,f6")
    pair = (
        "const c = getComputedStyle(document.querySelector('.coord')).fill;"
        "const d = getComputedStyle(document.querySelector('.square.dark')).fill;"
        "return [c, d];"
    )
    assert contrast(browser, pair) >= 4.5  # coordinates on dark squares (was 1.09)
    ring = (
        "const p = getComputedStyle(document.querySelector('.piece.black')).stroke;"
        "const d = getComputedStyle(document.querySelector('.square.dark')).fill;"
        "return [p, d];"
    )
    assert contrast(browser, ring) >= 3.0  # black men on dark squares (was 2.33)
    capture = next(m for m in state(browser)["legal"] if m["long"] == "c3:e5:g7")
    play_by_clicks(browser, capture)
    wait(lambda: len(state(browser)["moves"]) == 1, what="the capture")
    path = browser.find_element("css selector", "polyline.last-path")
    assert len(path.get_attribute("points").split()) == 3  # c3, e5, g7
    labels = [e.get_attribute("aria-label") for e in browser.find_elements("css selector", "rect")]
    assert "g7, white man" in labels and "c3" in labels
    # A success message is not in the error colour.
    browser.execute_script("say('all fine')")
    colour = browser.find_element("id", "message").value_of_css_property("color")
    assert "255, 155, 155" not in colour


def test_the_keyboard_steps_through_moves_and_plays(browser, base) -> None:
    from selenium.webdriver.common.keys import Keys

    open_page(browser, base)
    start(browser, opponent="human", fen="")
    entry = browser.find_element("id", "move-input")
    for text in ["c3-d4", "f6-g5", "24-19"]:  # either notation: 24-19 is g3-f4
        entry.send_keys(text, Keys.ENTER)
        wait(lambda: idle(browser), what="the move")
    wait(lambda: len(state(browser)["moves"]) == 3, what="three typed moves")
    assert [m["long"] for m in state(browser)["moves"]] == ["c3-d4", "f6-g5", "g3-f4"]
    entry.send_keys("h2-g1", Keys.ENTER)  # illegal: refused, with a message
    wait(lambda: "not a legal move" in browser.find_element("id", "message").text)
    board = browser.find_element("id", "board")
    board.click()
    board.send_keys(Keys.ARROW_LEFT)
    wait(lambda: len(state(browser)["moves"]) == 2, what="one move back")
    board.send_keys(Keys.HOME)
    wait(lambda: len(state(browser)["moves"]) == 0, what="the start")
    board.send_keys(Keys.END)
    wait(lambda: len(state(browser)["moves"]) == 3, what="the end")
    board.send_keys(Keys.ARROW_LEFT, Keys.ARROW_RIGHT)
    wait(lambda: len(state(browser)["moves"]) == 3, what="back and forward")
    for name in ("first", "back", "forward", "last"):
        assert browser.find_element("id", name).get_attribute("aria-label")
    assert browser.find_element("id", "eval-bar").get_attribute("aria-label")


def test_the_phone_page_fits_its_screen_after_a_review(browser, base) -> None:
    browser.set_window_size(390, 844)
    try:
        open_page(browser, base)
        load_pdn(browser)
        browser.find_element("id", "last").click()
        wait(lambda: len(state(browser)["moves"]) == 7, what="the game's end")
        shot(browser, "09-phone-game")
        set_controls(browser, review_depth=4)
        browser.find_element("id", "review").click()
        wait(lambda: browser.find_elements("css selector", "#plot svg"), timeout=120)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        viewport = browser.execute_script("return window.innerWidth")
        assert width <= viewport, (width, viewport)  # no sideways scrolling (was 680 px)
        browser.execute_script("document.getElementById('review-box').scrollIntoView()")
        shot(browser, "10-phone-review")
    finally:
        browser.set_window_size(1400, 1000)


def test_a_game_on_the_clock(browser, base) -> None:
    """Clocks for both sides, the engine playing on its clock (it answers well within it),
    and a flag that falls ends the game."""
    open_page(browser, base)
    # A short clock for the test (the page offers 1 to 30 minutes).
    browser.execute_script(
        "const o = document.createElement('option'); o.value = '3+0'; o.text = '3 s';"
        "document.getElementById('clock').append(o);"
    )
    start(browser, opponent="engine", color="white", clock="3+0", fen="")
    assert browser.find_element("id", "clocks").is_displayed()
    assert browser.find_element("id", "clock-white").text.startswith("White 0:0")
    move = next(m for m in state(browser)["legal"] if m["long"] == "c3-d4")
    play_by_clicks(browser, move)
    wait(lambda: idle(browser) and len(state(browser)["moves"]) == 2, what="the reply")
    black_left = browser.execute_script("return S.clock.black")
    assert 0 < black_left < 3000  # the engine spent some of its clock, not all of it
    # White does not move: White's flag falls, and the game is over on time.
    wait(lambda: "time forfeit" in browser.find_element("id", "result").text, timeout=10)
    assert "0-1" in browser.find_element("id", "result").text
    assert "flagged" in browser.find_element("id", "clock-white").get_attribute("class")
    click_square(browser, state(browser)["legal"][0]["start"])  # no more moves
    time.sleep(0.3)
    assert len(state(browser)["moves"]) == 2


def test_a_page_of_another_origin_cannot_drive_or_hold_the_engine(browser, base) -> None:
    """The threat model's attack from a real browser: a page of another origin (served here
    by a second local server) opens two analysis streams (the two search slots) and posts a
    text/plain deep search. The server refuses them all, so the engine stays free."""
    import http.server
    import threading
    import urllib.parse

    from web_server import request

    query = urllib.parse.urlencode({"game": "{}", "client": "evil", "time": "30"})
    page = f"""<!doctype html><script>
      window.streams = [new EventSource("{base}/api/analyse?{query}"),
                        new EventSource("{base}/api/analyse?{query}&x=2")];
      fetch("{base}/api/engine/move", {{method: "POST", mode: "no-cors",
        headers: {{"Content-Type": "text/plain"}},
        body: JSON.stringify({{game: {{}}, level: {{depth: 40}}, client: "evil2"}})}});
    </script>""".encode()

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        time.sleep(1.0)
        states = browser.execute_script("return window.streams.map((s) => s.readyState)")
        assert states == [2, 2], states  # both streams refused and closed (2: CLOSED)
        started = time.monotonic()
        body = {"game": {}, "level": {"time": 0.1}, "client": "board"}
        status, answer, _ = request(base, "/api/engine/move", body)
        assert status == 200 and answer["move"], answer  # not 503: nothing holds the engine
        assert time.monotonic() - started < 5.0
    finally:
        server.shutdown()
        server.server_close()
        browser.get("about:blank")


def test_a_deep_engine_level_keeps_to_the_cap(browser, base, monkeypatch) -> None:
    """The page asks for depth 40 (a search of hours): the server's cap (here 2 s) ends the
    search and the engine's move comes in time; the page goes on."""
    from shashki.apps import web

    monkeypatch.setattr(web.limits, "MAX_TIME", 2.0)
    open_page(browser, base)
    start(browser, opponent="engine", color="white", level_kind="depth", level_value=40, fen="")
    move = next(m for m in state(browser)["legal"] if m["long"] == "c3-d4")
    started = time.monotonic()
    play_by_clicks(browser, move)
    wait(lambda: idle(browser) and len(state(browser)["moves"]) == 2, what="the capped reply")
    assert time.monotonic() - started < 2.0 + 3.0


def test_an_italian_game_on_the_turned_board(browser, base) -> None:
    """The turned board: a1 is a light square, h1 dark; the squares' names are the board's
    own, and a move entered by clicks is the move the server lists."""
    open_page(browser, base)
    start(browser, variant="italian", opponent="human", fen="")
    labels = browser.execute_script(
        "return [...document.querySelectorAll('rect[data-square]')]"
        ".map(r => r.getAttribute('aria-label'))"
    )
    assert any(label.startswith("h1") for label in labels)
    assert not any(label.startswith("a1") for label in labels)
    first = state(browser)
    assert first["variant"] == "italian"
    move = next(m for m in first["legal"] if m["long"] == "b3-a4")
    play_by_clicks(browser, move)
    wait(lambda: len(state(browser)["moves"]) == 1, what="the move")
    assert state(browser)["moves"][0]["long"] == "b3-a4"
    shot(browser, "20-italian")


@pytest.mark.parametrize(
    ("variant", "size", "far_corner", "men", "move", "name"),
    [
        ("international", 10, "j10", 40, "d4-e5", "21-international"),
        ("canadian", 12, "l12", 60, "e5-f6", "23-canadian"),
    ],
)
def test_a_game_on_the_larger_boards(browser, base, variant, size, far_corner, men, move, name):
    """The 10×10 and 12×12 boards: their dark squares named a1 … j10 or l12, twenty or
    thirty men a side, and a move entered by clicks is the move the server lists."""
    open_page(browser, base)
    start(browser, variant=variant, opponent="human", fen="")
    labels = browser.execute_script(
        "return [...document.querySelectorAll('rect[data-square]')]"
        ".map(r => r.getAttribute('aria-label'))"
    )
    assert len(labels) == size * size // 2
    assert any(label.startswith(far_corner) for label in labels)
    assert any(label.startswith("a1") for label in labels)
    view = browser.execute_script("return document.getElementById('board').getAttribute('viewBox')")
    assert view == f"0 0 {size * 100} {size * 100}"
    first = state(browser)
    assert first["variant"] == variant and first["size"] == size
    assert len(first["pieces"]) == men
    chosen = next(m for m in first["legal"] if m["long"] == move)
    play_by_clicks(browser, chosen)
    wait(lambda: len(state(browser)["moves"]) == 1, what="the move")
    assert state(browser)["moves"][0]["long"] == move
    shot(browser, name)


def test_a_turkish_game_on_every_square(browser, base) -> None:
    """Turkish draughts: sixty-four squares a1 … h8, sixteen men a side on the second and
    third ranks, and a move entered by clicks (a man stepping sideways) is the move the
    server lists."""
    open_page(browser, base)
    start(browser, variant="turkish", opponent="human", fen="W:Wd3,e3:Be6,d6")
    labels = browser.execute_script(
        "return [...document.querySelectorAll('rect[data-square]')]"
        ".map(r => r.getAttribute('aria-label'))"
    )
    assert len(labels) == 64
    assert any(label.startswith("a1") for label in labels)
    assert any(label.startswith("h8") for label in labels)
    first = state(browser)
    assert first["variant"] == "turkish" and first["every_square"]
    assert len(first["pieces"]) == 4
    move = next(m for m in first["legal"] if m["long"] == "d3-c3")
    play_by_clicks(browser, move)
    wait(lambda: len(state(browser)["moves"]) == 1, what="the move")
    assert state(browser)["moves"][0]["long"] == "d3-c3"
    start(browser, variant="turkish", opponent="human", fen="")
    assert len(state(browser)["pieces"]) == 32
    shot(browser, "22-turkish")


def test_the_address_holds_the_game_and_a_link_opens_it(browser, base) -> None:
    """A game's address (variant, setup, moves) reproduces it: a link two players share,
    or a screenshot tool pointed at a position."""
    open_page(browser, base)
    start(browser, variant="international", opponent="human", fen="")
    first = state(browser)
    chosen = next(m for m in first["legal"] if m["text"] == "32-28")
    play_by_clicks(browser, chosen)
    wait(lambda: "moves=32-28" in browser.current_url, what="the address")
    assert "variant=international" in browser.current_url
    link = browser.current_url
    # A link with the moves of a capture: opened fresh, the same position and move list.
    browser.get(base + "/?variant=international&moves=32-28+19-23+28x19")
    wait(lambda: browser.execute_script("return document.body.dataset.ready === 'true'"))
    opened = state(browser)
    assert opened["variant"] == "international"
    assert [m["text"] for m in opened["moves"]] == ["32-28", "19-23", "28x19"]
    board = shashki.Board(variant="international")
    for text in ("32-28", "19-23", "28x19"):
        board.push_move(text)
    assert opened["fen"] == board.fen()
    shot(browser, "24-international-link")
    browser.get(link)
    wait(lambda: browser.execute_script("return document.body.dataset.ready === 'true'"))
    assert [m["text"] for m in state(browser)["moves"]] == ["32-28"]
    # A set-up position in Russian draughts: its FEN in the address.
    fen = "W:WK29,22:B6,7"
    browser.get(base + "/?fen=" + fen.replace(":", "%3A").replace(",", "%2C"))
    wait(lambda: browser.execute_script("return document.body.dataset.ready === 'true'"))
    assert state(browser)["fen"] == shashki.Board(fen).fen()
    # A bad move in a link is said, and the game stops before it.
    browser.get(base + "/?variant=english&moves=11-15+99-98")
    wait(lambda: browser.execute_script("return document.body.dataset.ready === 'true'"))
    assert [m["text"] for m in state(browser)["moves"]] == ["11-15"]
    assert "99-98" in browser.find_element("id", "message").text


@pytest.mark.parametrize(
    ("variant", "count", "first", "name"),
    [("international", 50, 1, "25-numbers-10x10"), ("canadian", 72, 1, "26-numbers-12x12")],
)
def test_numeric_boards_show_square_numbers(browser, base, variant, count, first, name) -> None:
    open_page(browser, base)
    start(browser, variant=variant, opponent="human", fen="")
    numbers = browser.execute_script(
        "return [...document.querySelectorAll('text.number')].map((t) => Number(t.textContent))"
    )
    assert sorted(numbers) == list(range(1, count + 1))
    # Square 1 is where the game's numbering puts it: the top left dark square, White below.
    top_left = browser.execute_script(
        "const t = [...document.querySelectorAll('text.number')]"
        ".sort((a, b) => a.getAttribute('y') - b.getAttribute('y') || "
        "a.getAttribute('x') - b.getAttribute('x'))[0]; return Number(t.textContent)"
    )
    assert top_left == first
    # The coordinates keep their size on the screen on the larger board.
    height = browser.execute_script(
        "return document.querySelector('text.coord').getBoundingClientRect().height"
    )
    assert height >= 10
    shot(browser, name)
    # Russian draughts' players write names: no numbers.
    start(browser, variant="russian", opponent="human", fen="")
    assert browser.execute_script("return document.querySelectorAll('text.number').length") == 0


def test_a_king_is_drawn_as_two_stacked_men_and_a_crown(browser, base) -> None:
    open_page(browser, base)
    start(browser, variant="russian", opponent="human", fen="W:WK29,22:BK6,7")
    counts = browser.execute_script(
        "return [document.querySelectorAll('circle.piece').length,"
        " document.querySelectorAll('path.crown').length]"
    )
    assert counts == [6, 2]  # two men, two kings of two discs each; a crown a king
    shot(browser, "27-kings")


def test_the_board_stays_in_view_while_a_review_is_read(browser, base) -> None:
    """At 1200×900 the review's plot and summary below the move list scroll the page; the
    board beside them stays on the screen (it is sticky), so a move clicked in the list
    shows on a board the reader can see."""
    browser.set_window_size(1200, 900)
    try:
        open_page(browser, base)
        load_pdn(browser)
        browser.find_element("id", "last").click()
        set_controls(browser, review_depth=4)
        browser.find_element("id", "review").click()
        wait(lambda: browser.find_elements("css selector", "#plot svg"), timeout=120)
        browser.execute_script("document.getElementById('review-box').scrollIntoView()")
        time.sleep(0.2)
        scrolled = browser.execute_script("return window.scrollY")
        top, bottom = browser.execute_script(
            "const r = document.getElementById('board').getBoundingClientRect();"
            "return [r.top, r.bottom]"
        )
        height = browser.execute_script("return window.innerHeight")
        assert scrolled > 0  # the page did scroll to the review
        assert top >= 0 and bottom <= height, (top, bottom, height)  # the board is in view
        shot(browser, "28-review-board-in-view")
    finally:
        browser.set_window_size(1400, 1000)


def test_towers_columns_are_drawn_as_stacks_and_captured_by_clicks(browser, base) -> None:
    """A column's pieces are drawn as a stack (one disc a piece, a king inside ringed, the
    height in a badge) and said in its square's label; a capture entered by clicks puts the
    pieces taken under the capturing column."""
    open_page(browser, base)
    start(browser, variant="towers", opponent="human", fen="W:Wc3(bB),e3:Bd4(ww),f6")
    drawn = browser.execute_script(
        "return [...document.querySelectorAll('g.column')].map((g) => ["
        "Number(g.dataset.square), g.querySelectorAll('rect.slab').length,"
        "g.querySelector('text.height').textContent,"
        "g.querySelectorAll('rect.king-inside').length])"
    )
    assert sorted(drawn) == [[9, 3, "3", 1], [13, 3, "3", 0]]
    label = browser.execute_script(
        "return document.querySelector('rect[data-square=\"9\"]').getAttribute('aria-label')"
    )
    assert label == "c3, a column of 3: white man over black man over black king"
    shot(browser, "28-towers-columns")
    capture = next(m for m in state(browser)["legal"] if m["long"] == "c3:e5:g7")
    play_by_clicks(browser, capture)
    wait(lambda: len(state(browser)["moves"]) == 1, what="the capture")
    assert state(browser)["columns"]["27"] == "wbBbb"
    heights = browser.execute_script(
        "return [...document.querySelectorAll('text.height')].map((t) => t.textContent)"
    )
    assert sorted(heights) == ["2", "5"]
    shot(browser, "29-towers-after-capture")


def test_lasca_on_its_seven_by_seven_board(browser, base) -> None:
    open_page(browser, base)
    start(browser, variant="lasca", opponent="human", fen="")
    view = browser.execute_script("return document.getElementById('board').getAttribute('viewBox')")
    assert view == "0 0 700 700"
    squares = browser.execute_script(
        "return [...document.querySelectorAll('rect[data-square]')]"
        ".map((r) => r.getAttribute('aria-label'))"
    )
    assert len(squares) == 25
    assert any(label.startswith("a1") for label in squares)
    assert any(label.startswith("g7") for label in squares)
    numbers = browser.execute_script(
        "return [...document.querySelectorAll('text.number')].map((t) => Number(t.textContent))"
    )
    assert sorted(numbers) == list(range(1, 26))
    first = state(browser)
    move = first["legal"][0]
    play_by_clicks(browser, move)
    wait(lambda: len(state(browser)["moves"]) == 1, what="the move")
    assert state(browser)["moves"][0]["long"] == move["long"]
    shot(browser, "30-lasca")
