"""A Hub adaptor for Scan 2.0: speaks the Hub protocol as ``python -m shashki.match`` (its
``hub:`` players, :class:`shashki.protocols.hub_client.HubEngine`) speaks it, and drives
``scan hub``, the first Hub protocol Scan 2.0 has, underneath::

    python benches/scan_hub.py /tmp/scan/2.0-27531/scan   # Scan runs in its directory

Why: DXP counts a game's time in whole minutes, and Scan shares a minute between the moves
it expects to be left (30 at the start, down to 10): given one minute for 75 moves it thinks
0.8 s to several seconds a move, not 0.1 s. Scan 2.0's own Hub mode takes a fixed time a move
(``time MS``), so at ``--time 0.1`` both engines get 0.1 s a move.

What it translates (our own reading of Scan 2.0's ``hub_loop``): ``hub`` → Scan's ``hub``
(its ``name``/``author`` lines answered as ``id``) and ``wait``; ``init`` → ``init`` and
``ready``; ``new-game`` → ``new``; ``pos pos=P moves="M…"`` → ``pos p`` (Scan's side letter
in lower case) and ``move M`` for each move; ``level move-time=S`` → ``time MS`` (after the
position: Scan's ``pos`` resets its limits), ``level depth=D`` → ``depth D``; ``go think`` →
``go``, Scan's ``move M [P]`` answered as ``done move=M ponder=P``; ``ping`` → ``pong``;
``quit``. Other lines (``set-param``: the variant is International, the only game Scan plays)
are ignored. Moves are the same text in both (``32-28``, ``28x19x23``, captured squares in
increasing order).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ARG = re.compile(r'([\w-]+)=("[^"]*"|\S+)')


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: scan_hub.py SCAN_BINARY", file=sys.stderr)
        return 2
    binary = Path(sys.argv[1]).resolve()
    scan = subprocess.Popen(
        [str(binary), "hub"],
        cwd=binary.parent,  # its scan.ini and data/
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )
    assert scan.stdin is not None and scan.stdout is not None

    def send(line: str) -> None:
        assert scan.stdin is not None
        scan.stdin.write(line + "\n")
        scan.stdin.flush()

    def until(word: str) -> list[str]:
        assert scan.stdout is not None
        lines = []
        for raw in scan.stdout:
            line = raw.strip()
            lines.append(line)
            if line.split(" ", 1)[0] == word:
                return lines
        raise SystemExit(f"scan ended before {word!r}")

    def answer(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    level: list[str] = []
    for raw in sys.stdin:
        command, _, rest = raw.strip().partition(" ")
        args = {k: v.strip('"') for k, v in ARG.findall(rest)}
        if command == "hub":
            send("hub")
            for line in until("wait"):
                key, _, value = line.partition(" ")
                if key in ("name", "author", "country") and value:
                    answer(f'id {key}="{value}"')
            answer("wait")
        elif command == "init":
            send("init")
            until("ready")
            answer("ready")
        elif command == "new-game":
            send("new")
        elif command == "pos":
            position = args.get("pos", "")
            if len(position) != 51:
                answer(f"error bad position {position!r}")
                continue
            send("pos " + position[0].lower() + position[1:])
            for move in args.get("moves", "").split():
                send("move " + move)
        elif command == "level":
            level = []
            if "move-time" in args:
                level.append(f"time {round(float(args['move-time']) * 1000)}")
            if "depth" in args:
                level.append(f"depth {int(args['depth'])}")
        elif command == "go":
            for line in level:
                send(line)
            send("go")
            words = until("move")[-1].split()
            move = words[1] if len(words) > 1 else ""
            ponder = f" ponder={words[2]}" if len(words) > 2 else ""
            answer(f"done move={move}{ponder}")
        elif command == "ping":
            answer("pong")
        elif command == "quit":
            break
    send("quit")
    scan.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
