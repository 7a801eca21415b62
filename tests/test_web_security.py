"""The web board's threat model, a test for each answer (see ``shashki.apps.web``'s docstring).

Every test talks to a real server on 127.0.0.1 and ends by itself: the limits that would
take long (the search cap, the header deadline) are lowered for the test's own server.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.parse

import pytest
import shashki.apps.web as web  # noqa: E402
import starlette  # noqa: E402, F401  # the web extra, a test dependency
import uvicorn  # noqa: E402, F401  # the web extra, a test dependency
from web_server import request, running_server  # noqa: E402


@pytest.fixture()
def server(monkeypatch):
    """A server with short limits: searches of at most 3 s, request heads within 1 s,
    bodies within 1 s, at most 12 connections."""
    monkeypatch.setattr(web.limits, "MAX_TIME", 3.0)
    monkeypatch.setattr(web.limits, "HEADER_TIMEOUT", 1.0)
    monkeypatch.setattr(web.limits, "BODY_TIMEOUT", 1.0)
    monkeypatch.setattr(web.limits, "MAX_CONNECTIONS", 12)
    with running_server() as base:
        yield base


def address(base: str) -> tuple[str, int]:
    parts = urllib.parse.urlsplit(base)
    assert parts.hostname == "127.0.0.1"
    return parts.hostname, int(parts.port or 80)


def raw_request(base: str, head: str, body: bytes = b"", read: bool = True) -> tuple[int, str]:
    """Send a request as bytes (any headers); the status and the text of the answer."""
    with socket.create_connection(address(base), timeout=30) as sock:
        sock.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        if not read:
            return 0, ""
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    text = data.decode(errors="replace")
    return int(text.split(" ", 2)[1]), text


def post_head(base: str, path: str, body: bytes, **headers: str) -> str:
    host, port = address(base)
    lines = [f"POST {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    lines.append(f"Content-Length: {len(body)}")
    return "\n".join(lines) + "\n"


MOVE = json.dumps({"game": {}, "level": {"depth": 2}, "client": "csrf"}).encode()


# ---- other sites cannot drive the engine ---------------------------------------------------


@pytest.mark.parametrize(
    "headers, status",
    [
        ({"Content_Type": "application/json"}, 200),
        ({"Content_Type": "application/json; charset=utf-8"}, 200),
        ({"Content_Type": "text/plain"}, 415),
        ({"Content_Type": "application/x-www-form-urlencoded"}, 415),
        ({}, 415),
        ({"Content_Type": "application/json", "Origin": "http://evil.example"}, 403),
        ({"Content_Type": "application/json", "Origin": "null"}, 403),
        ({"Content_Type": "application/json", "Sec_Fetch_Site": "cross-site"}, 403),
        ({"Content_Type": "application/json", "Sec_Fetch_Site": "same-site"}, 403),
        ({"Content_Type": "application/json", "Sec_Fetch_Site": "same-origin"}, 200),
    ],
)
def test_only_json_from_this_origin_drives_the_engine(server, headers, status) -> None:
    got, text = raw_request(server, post_head(server, "/api/engine/move", MOVE, **headers), MOVE)
    assert got == status, text[-300:]


def test_a_request_from_the_page_itself_is_served(server) -> None:
    host, port = address(server)
    head = post_head(
        server,
        "/api/engine/move",
        MOVE,
        Content_Type="application/json",
        Origin=f"http://{host}:{port}",
        Sec_Fetch_Site="same-origin",
    )
    assert raw_request(server, head, MOVE)[0] == 200


@pytest.mark.parametrize(
    "host, status",
    [
        ("evil.example:{port}", 403),
        ("evil.example", 403),
        ("127.0.0.1.evil.example:{port}", 403),
        ("127.0.0.1:{port}", 200),
        ("localhost:{port}", 200),
        ("[::1]:{port}", 200),
    ],
)
def test_the_host_header_is_checked_against_dns_rebinding(server, host, status) -> None:
    port = address(server)[1]
    head = f"GET /api/openings HTTP/1.1\nHost: {host.format(port=port)}\nConnection: close\n"
    assert raw_request(server, head)[0] == status


def test_a_cross_site_event_stream_is_refused(server) -> None:
    host, port = address(server)
    query = urllib.parse.urlencode({"game": "{}", "client": "x", "time": "1"})
    head = (
        f"GET /api/analyse?{query} HTTP/1.1\nHost: {host}:{port}\n"
        "Origin: http://evil.example\nSec-Fetch-Site: cross-site\nConnection: close\n"
    )
    assert raw_request(server, head)[0] == 403


# ---- nobody can hold the engine ------------------------------------------------------------


def engine_move_status(base: str, client: str) -> int:
    body = {"game": {}, "level": {"time": 0.05}, "client": client}
    return request(base, "/api/engine/move", body)[0]


def wait_for_status(base: str, client: str, want: int, seconds: float) -> int:
    deadline = time.monotonic() + seconds
    status = engine_move_status(base, client)
    while status != want and time.monotonic() < deadline:
        time.sleep(0.1)
        status = engine_move_status(base, client)
    return status


def open_stream(base: str, client: str, read_first: bool) -> socket.socket:
    host, port = address(base)
    query = urllib.parse.urlencode({"game": "{}", "client": client, "time": "3"})
    sock = socket.create_connection((host, port), timeout=10)
    sock.sendall(f"GET /api/analyse?{query} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    if read_first:
        data = b""
        while b"data:" not in data:
            data += sock.recv(4096)
    return sock


@pytest.mark.parametrize("read_first", [True, False])
def test_an_analysis_cut_off_frees_its_slot(server, read_first) -> None:
    # Two streams cut off while the engine thinks (the server's two slots): other pages
    # get the engine again at once, not after the searches' time.
    for client in ("cut1", "cut2"):
        open_stream(server, client, read_first).close()
    started = time.monotonic()
    assert wait_for_status(server, "other", 200, 2.5) == 200
    assert time.monotonic() - started < 2.5  # before the 3 s searches would have ended
    # And the cut-off clients may search again.
    assert wait_for_status(server, "cut1", 200, 2.5) == 200


def test_a_pages_new_search_replaces_its_running_one(server) -> None:
    """A move asked for while the page's analysis runs, and analyse → stop → analyse, do not
    get "a search is already running": the running search is stopped and replaced."""
    stream = open_stream(server, "page", read_first=True)  # a 3 s analysis, being read
    try:
        started = time.monotonic()
        assert engine_move_status(server, "page") == 200  # at once, not 429
        assert time.monotonic() - started < 2.0
        again = open_stream(server, "page", read_first=True)  # and analysis again
        again.close()
    finally:
        stream.close()


def test_every_search_obeys_the_cap(server) -> None:
    started = time.monotonic()
    body = {"game": {}, "level": {"depth": 40}, "client": "deep"}
    status, answer, _ = request(server, "/api/engine/move", body)
    assert status == 200 and answer["move"]
    assert time.monotonic() - started < 3.0 + 2.0
    status, _, _ = request(
        server,
        "/api/review",
        {"game": {"moves": ["c3-d4", "f6-g5", "b2-c3"]}, "level": {"depth": 16}, "client": "r"},
    )
    assert status == 200
    assert time.monotonic() - started < 2 * (3.0 + 2.0)


def test_a_search_on_a_long_clock_obeys_the_cap_too(server) -> None:
    """A clock level lets the engine share out its clock; whatever it computes, no search
    outlives the cap (a watchdog stops it)."""
    started = time.monotonic()
    body = {"game": {}, "level": {"clock": 3 * 3600, "inc": 60}, "client": "clocked"}
    status, answer, _ = request(server, "/api/engine/move", body)
    assert status == 200 and answer["move"]
    assert time.monotonic() - started < 3.0 + 2.0
    bad = {"game": {}, "level": {"clock": 4 * 3600}, "client": "clocked"}
    assert request(server, "/api/engine/move", bad)[0] == 400


def test_a_search_stops_when_its_client_disconnects(server) -> None:
    body = json.dumps({"game": {}, "level": {"depth": 40}, "client": "leaver"}).encode()
    head = post_head(server, "/api/engine/move", body, Content_Type="application/json")
    raw_request(server, head, body, read=False)  # sends, then closes at once
    time.sleep(0.3)
    started = time.monotonic()
    # The same client searches again well before the 3 s cap of the abandoned search.
    assert wait_for_status(server, "leaver", 200, 2.0) == 200
    assert time.monotonic() - started < 2.0


# ---- input that would cost memory or a core -------------------------------------------------


def test_deeply_nested_json_is_a_bad_request(server) -> None:
    body = b"[" * 100_000
    head = post_head(server, "/api/state", body, Content_Type="application/json")
    status, text = raw_request(server, head, body)
    assert status == 400 and "deeply" in text
    query = urllib.parse.urlencode({"game": "[" * 3_000, "client": "deep"})
    host, port = address(server)
    head = f"GET /api/analyse?{query} HTTP/1.1\nHost: {host}:{port}\nConnection: close\n"
    status, text = raw_request(server, head)
    assert status == 400


def test_the_engines_kept_for_clients_are_bounded_by_memory() -> None:
    searches = web.Searches(hash_mb=16)
    try:
        assert searches.max_engines == web.MAX_ENGINE_MB // 16
        for n in range(3 * searches.max_engines):
            searches.acquire(f"page{n}")
            searches.release(f"page{n}")
            assert len(searches.engines) <= searches.max_engines
    finally:
        searches.close()


# ---- nobody can hold the connections -------------------------------------------------------


def closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except (TimeoutError, socket.timeout):
        return False
    except ConnectionResetError:
        return True
    return True


def test_a_slow_request_head_is_cut_off(server) -> None:
    host, port = address(server)
    with socket.create_connection((host, port), timeout=5) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        assert closed_within(slow, 3.0)
    with socket.create_connection((host, port), timeout=5) as idle:  # sends nothing
        assert closed_within(idle, 3.0)


def test_a_slow_body_gets_408(server) -> None:
    body = MOVE
    head = post_head(server, "/api/state", body, Content_Type="application/json")
    host, port = address(server)
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body[:5])
        data = b""
        while chunk := sock.recv(4096):
            data += chunk
    assert data.split(b" ", 2)[1] == b"408"


def test_connections_are_capped_and_the_server_answers_afterwards(server) -> None:
    host, port = address(server)
    held = [socket.create_connection((host, port), timeout=5) for _ in range(20)]
    try:
        closed = sum(closed_within(sock, 0.3) for sock in held)
        assert closed >= 20 - 12  # the ones over the cap are closed at once
    finally:
        for sock in held:
            sock.close()
    assert wait_for_status(server, "after", 200, 3.0) == 200


# ---- no search outlives the server ---------------------------------------------------------


def test_a_search_ending_after_its_loop_closed_raises_nothing(monkeypatch) -> None:
    """A search thread that ends after the server's event loop has closed drops its answer
    (nobody waits for it) instead of raising "Event loop is closed" in its thread."""
    import asyncio
    import threading

    failures: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda hook: failures.append(hook.exc_value))
    searches = web.Searches(hash_mb=1)
    release = threading.Event()

    def search(engine: object) -> str:
        release.wait(10)
        return "done"

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(searches.start("late", search))
    finally:
        loop.close()
    (thread,) = searches.threads
    release.set()
    thread.join(10)
    assert not thread.is_alive() and failures == []
    assert searches.busy == set() and searches.threads == set()
    searches.close()


def test_the_server_stops_its_searches_and_waits_for_them(monkeypatch) -> None:
    import threading

    monkeypatch.setattr(web.limits, "MAX_TIME", 30.0)
    failures: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda hook: failures.append(hook.exc_value))
    started = time.monotonic()
    with running_server() as base:
        streams = [open_stream(base, client, read_first=True) for client in ("a", "b")]
        assert {t.name for t in threading.enumerate()} >= {"search a", "search b"}
    for stream in streams:
        stream.close()
    # Shut down at once (not after the 30 s searches), and no search thread is left behind.
    assert time.monotonic() - started < 15
    assert not [t for t in threading.enumerate() if t.name.startswith("search ")]
    assert failures == []


@pytest.mark.parametrize(
    "path, body",
    [
        ("/api/star/move", {"game": {"holes": 73}, "time": 0.05}),
        ("/api/star/state", {"game": {}}),
        ("/api/chapaev/aim", {"game": {"flicks": []}, "level": 1}),
        ("/api/chapaev/flick", {"game": {"flicks": []}, "flick": "d:90:1"}),
    ],
)
def test_other_sites_cannot_drive_the_star_or_chapaev(server, path, body) -> None:
    """The star's and Чапаев's endpoints are behind the same guard: another origin, a
    cross-site fetch or a body that is not JSON is refused; the page's own is served."""
    data = json.dumps(body).encode()
    for headers, status in [
        ({"Content_Type": "application/json", "Origin": "http://evil.example"}, 403),
        ({"Content_Type": "application/json", "Sec_Fetch_Site": "cross-site"}, 403),
        ({"Content_Type": "text/plain"}, 415),
        ({"Content_Type": "application/json", "Sec_Fetch_Site": "same-origin"}, 200),
    ]:
        got, text = raw_request(server, post_head(server, path, data, **headers), data)
        assert got == status, (path, headers, text[-300:])
