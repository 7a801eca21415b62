"""shashki against Scan (Fabien Letouzey's 10×10 engine) in International draughts, over DXP.

Scan is not part of this repository: the script builds it on the machine that runs it, from
a clone of ``rhalbersma/scan`` (which holds the 2.0, 3.0 and 3.1 releases with their data:
opening book, evaluation, 2–4-piece bitbases), into a directory of its own, then starts it as
a Hub engine (``scan hub`` through ``benches/scan_hub.py``, our adaptor) or a DXP follower,
and plays the project's match runner against it::

    python benches/scan.py --repo /path/to/scan --pairs 100 --time 0.1
    python benches/scan.py --pairs 20 --time 0.1      # clones it first

``--via hub`` (the default) gives Scan the same fixed time a move as shashki (Scan 2.0's Hub
mode takes ``time MS``). ``--via dxp`` plays over DXP, whose game request counts whole
minutes: at ``--time 0.1`` Scan is given one minute for 75 moves and shares it over the moves
it expects to be left (30 at the start), thinking from about 0.8 s to several seconds a move
while shashki thinks 0.1 s — a time handicap, not an equal match.

Scan 2.0 is the default (its data is public and complete); ``--release 3.1`` builds the
later one (its data files are those its commit holds). One game at a time (Scan's DXP
follower plays one; over the Hub, ``--workers`` may be raised): run two copies on two ports
(``--port``) with other seeds (``--seed``: other openings) for two cores. The summary is
the match runner's: W/D/L, Elo with its 95 % interval, the pentanomial counts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RELEASES = {"2.0": "Scan 2.0", "3.0": "Scan 3.0", "3.1": "Scan 3.1"}
UPSTREAM = "https://github.com/rhalbersma/scan"


def release_commit(repo: Path, release: str) -> str:
    """The commit of a release, found by its message ("Scan 2.0 by Fabien Letouzey.")."""
    out = subprocess.run(
        ["git", "-C", str(repo), "log", "--all", "--format=%H %s"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for line in out.splitlines():
        commit, _, subject = line.partition(" ")
        if subject.startswith(RELEASES[release] + " "):
            return commit
    raise SystemExit(f"no commit of {RELEASES[release]} in {repo}")


def build(repo: Path, release: str, into: Path) -> Path:
    """Scan of ``release`` built in ``into`` (its source, data and scan.ini beside the
    binary); kept if already there."""
    binary = into / "scan"
    if binary.exists():
        return binary
    into.mkdir(parents=True, exist_ok=True)
    commit = release_commit(repo, release)
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", commit], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    subprocess.run(["make", "-C", str(into / "src"), "-j2"], check=True, capture_output=True)
    shutil.copy(into / "src" / "scan", binary)
    return binary


def configure(home: Path, port: int) -> None:
    """scan.ini for a DXP follower on ``port``: one thread, a 256 MiB table, 4-piece
    bitbases (what the 2.0 data holds), the book on."""
    (home / "scan.ini").write_text(
        "book = true\nbook-margin = 2\nthreads = 1\ntt-size = 24\nbb-size = 4\n\n"
        "dxp-server = true\ndxp-host = 127.0.0.1\n"
        f"dxp-port = {port}\ndxp-initiator = false\n"
        "dxp-time = 5\ndxp-moves = 75\ndxp-board = false\ndxp-search = false\n",
        encoding="ascii",
    )


def listening(port: int) -> bool:
    """Whether a socket listens on ``port`` (Linux's /proc/net/tcp; no connection made:
    Scan's DXP follower serves the first connection and then quits)."""
    try:
        lines = Path("/proc/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return True  # no /proc: the caller's pause is all there is
    return any(
        fields[1].endswith(f":{port:04X}") and fields[3] == "0A"
        for fields in (line.split() for line in lines)
    )


def wait_for_port(port: int, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    time.sleep(0.5)
    while time.monotonic() < deadline:
        if listening(port):
            return
        time.sleep(0.2)
    raise SystemExit(f"Scan did not listen on port {port}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, help="a clone of rhalbersma/scan (else cloned)")
    parser.add_argument("--release", choices=sorted(RELEASES), default="2.0")
    parser.add_argument("--build-dir", type=Path, default=Path(tempfile.gettempdir()) / "scan")
    parser.add_argument("--port", type=int, default=27531, help="Scan's DXP port")
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move")
    parser.add_argument("--a", default="shashki", help="the match runner's player A")
    parser.add_argument(
        "--via",
        choices=("hub", "dxp"),
        default="hub",
        help="hub: Scan's Hub mode, a fixed time a move (default); dxp: whole minutes a game",
    )
    parser.add_argument("--openings", default="random")
    parser.add_argument("--pdn", default=None, help="write the games here")
    parser.add_argument(
        "--seed", type=int, default=None, help="the match runner's seed (other openings)"
    )
    args = parser.parse_args()

    repo = args.repo
    if repo is None:
        repo = args.build_dir / "repo"
        if not repo.exists():
            subprocess.run(["git", "clone", "-q", UPSTREAM, str(repo)], check=True)
    home = args.build_dir / f"{args.release}-{args.port}"
    binary = build(repo, args.release, home)
    configure(home, args.port)
    server = None
    if args.via == "dxp":
        server = subprocess.Popen(
            [str(binary), "dxp"],
            cwd=home,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(args.port)
        player_b = f"dxp:127.0.0.1:{args.port}"
    else:
        adaptor = Path(__file__).resolve().parent / "scan_hub.py"
        player_b = f"hub:{sys.executable} {adaptor} {binary}"
    try:
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
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    raise SystemExit(main())
