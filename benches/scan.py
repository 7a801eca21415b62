"""shashki against Scan (Fabien Letouzey's 10×10 engine) in International draughts.

Scan is not part of this repository, and nothing here fetches, clones or builds it: the
script drives the Scan you already have. Give its executable (``--scan PATH``: it runs in
its own directory, with that directory's ``scan.ini`` and data — for the project's matches:
``threads = 1``, ``book = true``, ``bb-size = 4``), or any Hub command line of your own
(``--hub "COMMAND"``), or the address of a Scan you started as a DXP follower (``--dxp
HOST:PORT``), and it plays the project's match runner against it::

    python benches/scan.py --scan /path/to/scan-2.0/scan --pairs 100 --time 0.1
    python benches/scan.py --dxp 127.0.0.1:27531 --pairs 20 --time 0.1

With ``--scan`` Scan plays through ``benches/scan_hub.py`` (our adaptor over Scan 2.0's own
Hub mode, whose ``time MS`` is a fixed time a move): both engines get the same time a move.
Over DXP the game request counts whole minutes: at ``--time 0.1`` Scan is given one minute
for 75 moves and shares it over the moves it expects to be left (30 at the start), thinking
from about 0.8 s to several seconds a move while shashki thinks 0.1 s — a time handicap, not
an equal match. The summary is the match runner's: W/D/L, Elo with its 95 % interval, the
pentanomial counts, and each side's mean and longest time a move. Run two copies (other
``--seed``, other openings) for two cores.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    engine = parser.add_mutually_exclusive_group(required=True)
    engine.add_argument("--scan", type=Path, help="your Scan executable (in its own directory)")
    engine.add_argument("--hub", help="a Hub command line of your own")
    engine.add_argument("--dxp", help="HOST:PORT of a Scan listening as a DXP follower")
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move")
    parser.add_argument("--a", default="shashki", help="the match runner's player A")
    parser.add_argument("--openings", default="random")
    parser.add_argument("--pdn", default=None, help="write the games here")
    parser.add_argument(
        "--seed", type=int, default=None, help="the match runner's seed (other openings)"
    )
    args = parser.parse_args()

    if args.scan is not None:
        binary = args.scan.resolve()
        if not binary.is_file():
            raise SystemExit(f"no Scan executable at {binary}")
        adaptor = Path(__file__).resolve().parent / "scan_hub.py"
        player_b = f"hub:{sys.executable} {adaptor} {binary}"
    elif args.hub is not None:
        player_b = f"hub:{args.hub}"
    else:
        player_b = f"dxp:{args.dxp}"
    command = [
        sys.executable,
        "-m",
        "shashki",
        "match",
        "--variant",
        "international",
        "--a",
        args.a,
        "--b",
        player_b,
        "--time",
        str(args.time),
        "--pairs",
        str(args.pairs),
        "--workers",
        "1",
        "--openings",
        args.openings,
    ]
    if args.pdn:
        command += ["--pdn", args.pdn]
    if args.seed is not None:
        command += ["--seed", str(args.seed)]
    return subprocess.call(command, env={**os.environ})


if __name__ == "__main__":
    raise SystemExit(main())
