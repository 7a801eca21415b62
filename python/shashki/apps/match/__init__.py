"""Engine matches and SPRT tests: ``python -m shashki.match``.

Two players play game pairs: each opening once with each colour. Games run in parallel
worker processes (one per core by default; any ``concurrent.futures.Executor`` from the
API), under the FMJD-64 draw rules of the game layer. Results: W/D/L, score, Elo with its
95 % interval, pentanomial counts (the five outcomes of a pair, 0 to 2 points in halves),
and, with ``--sprt ELO0,ELO1``, a sequential probability ratio test as fishtest runs it
(log-likelihood ratio of the pentanomial results, stopping at the bounds of α = β = 0.05).

Players (``--a``, ``--b``):

- ``shashki[:hash=MB,threads=N,egtb=DIR,egtb-unpack=N,eval=EVALUATION,variety=N,``
  ``variety-seed=S,ponder=1,odds=F,overhead=MS]``: the engine of this installed package
  (``eval``: learned, classic, family, network or a network file's path;
  ``egtb-unpack``: the tables of at most N pieces unpacked at open, see
  :func:`shashki.egtb.open`;
  ``variety``: its first N moves varied, see :meth:`shashki.engine.Engine.set_variety`;
  ``ponder``: it thinks on the opponent's time, see :meth:`shashki.engine.Engine.play`;
  ``odds``: its nodes or time a move multiplied by F, e.g. ``shashki:odds=2`` against
  ``shashki`` measures what twice the time is worth; ``overhead``: its move overhead in
  milliseconds, see :meth:`shashki.engine.Engine.set_move_overhead`).
- ``hub:COMMAND``: any engine speaking the Hub protocol, e.g. another build of shashki:
  ``hub:/path/venv/bin/python -m shashki hub``. ``python benches/build_base.py REV DIR``
  builds the package of a git revision into a venv at DIR and prints this spec.
  ``hub,ponder,NAME=VALUE…:COMMAND``: the same, pondering (``go ponder``, ``ponder-hit``),
  and each ``NAME=VALUE`` sent as ``set-param`` (e.g. ``hub,hash=16:…``).
- ``dxp:HOST:PORT``: an engine listening for DXP games (Scan, Kingsrow, ``shashki dxp``),
  asked for each game as DXP's initiator (:class:`DxpPlayer`; DXP counts time
  in whole minutes: a clock is sent as its minutes, a time a move as minutes for 75 moves).

A pondering player thinks while its opponent does: give it a core of its own (with two
cores, one worker).

Limits: ``--nodes N`` a move (fixed nodes: free of the machine's speed swings), ``--time S``
a move, or ``--tc BASE+INC`` clocks in seconds. Openings: ``--openings ballots`` (the 3-move
ballots of pydraughts' ``russian.json``, when pydraughts is installed), ``150`` (its 150
positions), ``builtin``, or a file of FENs. ``--pdn FILE`` keeps every game.

    python -m shashki.match --a shashki --b "hub:/tmp/base/bin/python -m shashki hub" \\
        --nodes 20000 --openings ballots --sprt 0,10 --pdn games.pdn

The package: ``players`` (this engine, Hub engines, time controls), ``runner`` (games, pairs,
the match), ``stats`` (Elo, pentanomial counts, SPRT), ``cli`` (the command line); openings
come from :mod:`shashki.openings`.
"""

from __future__ import annotations

from shashki.apps.match.cli import main
from shashki.apps.match.players import (
    HUB_TIMEOUT,
    DxpPlayer,
    HubPlayer,
    ShashkiPlayer,
    TimeControl,
    close_players,
    make_player,
)
from shashki.apps.match.runner import MAX_PLIES, Adjudication, play_game, play_pair, run_match
from shashki.apps.match.stats import (
    Results,
    elo_from_score,
    score_from_elo,
    sprt_bounds,
    summary,
)
from shashki.openings import BUILTIN_OPENINGS, load_openings

__all__ = [
    "HUB_TIMEOUT",
    "MAX_PLIES",
    "BUILTIN_OPENINGS",
    "Adjudication",
    "DxpPlayer",
    "HubPlayer",
    "Results",
    "ShashkiPlayer",
    "TimeControl",
    "close_players",
    "elo_from_score",
    "load_openings",
    "main",
    "make_player",
    "play_game",
    "play_pair",
    "run_match",
    "score_from_elo",
    "sprt_bounds",
    "summary",
]
