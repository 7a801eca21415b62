"""``shashki match`` (also ``python -m shashki.match``): matches between engines, in pairs of
games from the same opening with colours swapped, with Elo and its interval."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import shashki
from shashki.apps.match.players import TimeControl, check_spec
from shashki.apps.match.runner import Adjudication, run_match
from shashki.apps.match.stats import Results, summary
from shashki.openings import load_openings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Optional


def main(argv: Optional[Sequence[str]] = None, *, prog: str = "python -m shashki.match") -> int:
    """Run the command (``shashki match …`` or ``python -m shashki.match …``); a closed or
    full output ends it quietly or with one line of error (``shashki._streams``)."""
    from shashki._streams import guarded

    return guarded(prog, lambda: _main(argv, prog))


def _main(argv: Optional[Sequence[str]] = None, prog: str = "python -m shashki.match") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    if argv is None:
        argv = sys.argv[1:]
    parser.add_argument("--a", default="shashki", help="player A (default: shashki)")
    parser.add_argument(
        "--b",
        required=True,
        help="player B (shashki[:…], hub[,ponder][,NAME=VALUE…]:COMMAND or dxp:HOST:PORT)",
    )
    limit = parser.add_mutually_exclusive_group(required=True)
    limit.add_argument("--nodes", type=int, help="nodes a move")
    limit.add_argument("--time", type=float, help="seconds a move")
    limit.add_argument("--tc", help="a clock: BASE+INC seconds")
    limit.add_argument("--depth", type=int, help="plies a move")
    parser.add_argument(
        "--openings",
        default=None,
        help="ballots, 150, builtin (Russian draughts), random (any game) or a file; "
        "default: ballots, or random for the other games",
    )
    parser.add_argument(
        "--variant",
        choices=shashki.VARIANTS + tuple(card.name for card in shashki.games(columns=True)),
        default="russian",
        help="the game both players play (default: russian; towers, lasca and towers-western too)",
    )
    parser.add_argument("--pairs", type=int, default=None, help="at most this many pairs")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--sprt", default=None, help="ELO0,ELO1: stop at the bounds (negative: --sprt=-5,5)"
    )
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="a Dask scheduler (tcp://HOST:8786): the pairs are played on its workers "
        "(instead of --workers processes here)",
    )
    parser.add_argument("--seed", type=int, default=1, help="shuffles the openings")
    parser.add_argument("--pdn", default=None, help="write every game here")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="with --pdn: count the pairs already in that file (a run stopped halfway) "
        "and play the rest, appending",
    )
    parser.add_argument(
        "--adjudicate-draw",
        metavar="PLIES,CP",
        help="a draw after PLIES plies in a row scored within ±CP (from move 30 on)",
    )
    parser.add_argument(
        "--adjudicate-win",
        metavar="PLIES,CP",
        help="a win after PLIES plies in a row scored CP or more for one side by both engines",
    )
    args = parser.parse_args(argv)
    tc = (
        TimeControl.parse_clock(args.tc)
        if args.tc
        else TimeControl(nodes=args.nodes, time=args.time, depth=args.depth)
    )
    sprt: Optional[tuple[float, float]] = None
    if args.sprt:
        try:
            elo0, elo1 = (float(x) for x in args.sprt.split(","))
        except ValueError:
            parser.error(f"--sprt takes ELO0,ELO1, not {args.sprt!r}")
        sprt = (elo0, elo1)
    adjudication = _adjudication(parser, args)
    if args.workers < 1:
        parser.error(f"--workers must be positive, not {args.workers}")
    if args.resume and not args.pdn:
        parser.error("--resume needs --pdn: the file of the games played so far")
    try:
        if args.openings is None:
            args.openings = "ballots" if args.variant == "russian" else "random"
        openings = load_openings(args.openings, seed=args.seed, variant=args.variant)
    except (OSError, ValueError) as error:
        parser.error(f"--openings {args.openings}: {error}")
    if args.pairs is not None:
        openings = openings[: args.pairs]
    for flag, spec in (("--a", args.a), ("--b", args.b)):
        try:
            check_spec(spec, args.variant)
        except ValueError as error:
            parser.error(f"{flag}: {error}")
    started = time.monotonic()

    def report(results: Results, opening: str) -> None:
        elo, low, high = results.elo()
        extra = f" LLR {results.llr(*sprt):.2f}" if sprt else ""
        print(
            f"{2 * results.count:5} games {time.monotonic() - started:7.0f} s  "
            f"+{results.wins} ={results.draws} -{results.losses}  "
            f"Elo {elo:+.0f} [{low:+.0f}, {high:+.0f}]{extra}",
            file=sys.stderr,
            flush=True,
        )

    if args.scheduler is not None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            parser.error('--scheduler needs Dask: pip install "shashki[distributed]"')
    with contextlib.ExitStack() as stack:
        pool = None
        if args.scheduler is None:
            pool = stack.enter_context(ProcessPoolExecutor(args.workers))
        results = run_match(
            args.a,
            args.b,
            openings,
            tc,
            executor=pool,
            sprt=sprt,
            pdn_path=args.pdn,
            report=report,
            adjudication=adjudication,
            variant=args.variant,
            scheduler=args.scheduler,
            resume=args.resume,
        )
    print(f"A = {args.a}\nB = {args.b}\n{tc}, {args.variant}, openings {args.openings}")
    print(summary(results, sprt))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def _adjudication(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> Optional[Adjudication]:
    """The ``--adjudicate-draw`` and ``--adjudicate-win`` settings (a usage error when
    malformed), or None."""
    if not (args.adjudicate_draw or args.adjudicate_win):
        return None
    settings: dict[str, int] = {}
    for name, value in (("draw", args.adjudicate_draw), ("win", args.adjudicate_win)):
        if value:
            try:
                plies, cp = (int(x) for x in value.split(","))
            except ValueError:
                parser.error(f"--adjudicate-{name} takes PLIES,CP, not {value!r}")
            settings[f"{name}_plies"], settings[f"{name}_cp"] = plies, cp
    return Adjudication(**settings)
