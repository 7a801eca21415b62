"""``shashki serve``: a local web board to play, analyse and review games in the browser.

Needs the ``web`` extra (``pip install "shashki[web]"``: Starlette and uvicorn); everything
the page uses ships in the package (no CDN). The server keeps no game: each request carries
the game (start FEN, variant, the moves as full-path texts), so a page can be reloaded and
nothing on the server grows with the games played.

Threat model. Who can reach the server: it binds 127.0.0.1, so the processes of this
machine, and the web pages open in its user's browser (any site can make the browser send
requests to 127.0.0.1). What they could make it do, and what stops them:

- Drive the engine from another site (CSRF) or through a hostname of the attacker's that
  resolves to 127.0.0.1 (DNS rebinding): every request must name an allowed ``Host``
  (127.0.0.1, localhost, [::1] and the host it was started on: 403 otherwise); ``/api/``
  requests from another origin (``Origin``, ``Sec-Fetch-Site``) get 403, and a POST must be
  ``application/json`` (415 otherwise), which a page of another origin cannot send without
  the browser asking first (and the server never says yes).
- Hold the engine: each client (a page) runs one search at a time (its new search stops
  and replaces the running one within :data:`REPLACE_WAIT` seconds, else 429) and at most
  :data:`MAX_SEARCHES` run at once (503); every search (a move, an analysis, a review, a
  move on a clock of up to :data:`MAX_CLOCK` seconds) is capped at :data:`MAX_TIME` seconds
  (a watchdog stops it whatever its level) and stops when its client disconnects; its slot
  is freed by the search itself when it ends, so a request cut off mid-search cannot keep
  it. When the server stops, it stops every search and waits for their threads; a search
  that ends after the server's event loop has closed drops its answer quietly. The numbers
  live in :mod:`shashki.apps.web.limits`, read when used.
- Exhaust memory or a core with input: bodies over :data:`MAX_BODY` bytes get 413, JSON
  nested too deeply 400, games over :data:`MAX_MOVES` moves 400, a review over
  :data:`MAX_REVIEW_PLIES` plies 400; the engines kept for clients take at most
  :data:`MAX_ENGINE_MB` MiB of tables beside the running searches'.
- Hold connections (slowloris, from a local process): a request's head must arrive within
  :data:`HEADER_TIMEOUT` seconds and its body within :data:`BODY_TIMEOUT`, idle connections
  close after 5 s, and at most :data:`MAX_CONNECTIONS` are open at once.

The page never sends file paths (PDN is uploaded as text); every input is validated (a 400
with a message, never a traceback). Endgame tables (``--tables DIR``) are the operator's: the
directory is named on the command line, opened and checked before the port is bound, and
shared by every engine (one copy in memory, its unpacked blocks bounded by
:func:`shashki.egtb.set_cache_mb`); a state's probe reads the blocks of the position and
of its children (for the best move), within that bound.

The star board's page (``/star``, Chinese checkers) is held to the same guard: its requests
carry their game too, at most ``MAX_STAR_PLIES`` moves of at most 80 characters each (400
beyond); a computer's move there searches at most ``MAX_STAR_TIME`` seconds, the search's
own clock stopping it, and at most :data:`MAX_SEARCHES` such searches run at once (503
beyond) (:mod:`shashki.apps.web.star`). Чапаев's page (``/chapaev``) likewise: at most
``MAX_CHAPAEV_FLICKS`` flicks of at most 40 characters a request, the computer's level 1
to 3 (at most 512 simulated flicks, about 50 ms), each run in a worker thread
(:mod:`shashki.apps.web.chapaev`).

API (JSON): ``POST /api/state``, ``POST /api/engine/move``, ``GET /api/analyse`` (server-
sent events), ``POST /api/stop``, ``POST /api/pdn/read``, ``POST /api/pdn/write``,
``POST /api/review``, ``GET /api/openings``; the star's ``POST /api/star/state`` and
``POST /api/star/move``; Чапаев's ``POST /api/chapaev/state``, ``POST /api/chapaev/flick``
and ``POST /api/chapaev/aim``.
"""

from __future__ import annotations

try:
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError(
        'the web board needs its extra: pip install "shashki[web]" (Starlette, uvicorn)'
    ) from error

from shashki.apps.web.app import create_app, opening_list
from shashki.apps.web.guard import RequestGuard
from shashki.apps.web.limits import (
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    LOCAL_HOSTS,
    MAX_BODY,
    MAX_CLOCK,
    MAX_CONNECTIONS,
    MAX_DEPTH,
    MAX_ENGINE_MB,
    MAX_MOVES,
    MAX_MULTIPV,
    MAX_REVIEW_PLIES,
    MAX_REVIEW_TIME,
    MAX_SEARCHES,
    MAX_TIME,
    REPLACE_WAIT,
)
from shashki.apps.web.searches import Searches
from shashki.apps.web.serialize import info_json, move_json, state_json
from shashki.apps.web.server import serve, server_config
from shashki.apps.web.validation import BadRequest, Busy, parse_game, parse_level

__all__ = [
    "create_app",
    "serve",
    "server_config",
    "opening_list",
    "RequestGuard",
    "Searches",
    "BadRequest",
    "Busy",
    "parse_game",
    "parse_level",
    "move_json",
    "state_json",
    "info_json",
    "MAX_BODY",
    "MAX_CLOCK",
    "MAX_TIME",
    "MAX_DEPTH",
    "MAX_MOVES",
    "MAX_REVIEW_PLIES",
    "MAX_REVIEW_TIME",
    "MAX_SEARCHES",
    "MAX_ENGINE_MB",
    "MAX_MULTIPV",
    "HEADER_TIMEOUT",
    "BODY_TIMEOUT",
    "MAX_CONNECTIONS",
    "REPLACE_WAIT",
    "LOCAL_HOSTS",
]
