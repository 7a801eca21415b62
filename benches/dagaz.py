"""shashki's perft against the Dagaz project's game models (an independent program) in the
folk games: towers (its "Column Checkers"), Lasca, Samoedy and Stavropol draughts.

Dagaz (DagazProject.github.io, by Valentin Chelnokov) plays hundreds of board games in the
browser, each a model in JavaScript. Its code is not part of this repository, and the script
fetches, clones and copies nothing: it takes the user's own copy of the Dagaz site (a
directory holding its scripts as the site serves them), loads one game's scripts from there
and runs them under Node.js with a small harness of ours (no page, no view, no AI: the
model's move generator only), counting the leaves of the game tree::

    python benches/dagaz.py --dagaz /path/to/your/dagaz-site --game towers --depth 7

A Dagaz capture of several pieces is a chain of partial moves of the same player; the harness
follows the chain to its end, so a leaf is a complete move sequence, and two orders of the
same captures count twice (shashki's ``distinct=False``). Each line prints Dagaz's count, its
time, and shashki's count of the same depth (docs/variants.md gives what they agree on).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE = ["underscore/underscore-min.js", "common-scripts/dagaz.js",
        "common-scripts/zrf-model.js", "common-scripts/zobrist-v2.js"]  # fmt: skip

# Each game's model scripts, in its page's order (the view, AI and session scripts left out).
GAMES = {
    "towers": [
        "checkers/scripts/columns-checkers-extension.js",
        "checkers/scripts/russian-captures.js",
        "checkers/scripts/column-checkers-restriction.js",
        "checkers/scripts/column-checkers.js",
    ],
    "lasca": ["checkers/scripts/laska-checkers-extension.js", "checkers/scripts/laska.js"],
    "samoedy": [
        "checkers/scripts/russian-checkers-extension.js",
        "checkers/scripts/russian-captures.js",
        "checkers/scripts/samoedy.js",
    ],
    "stavropol-own-first": [
        "checkers/scripts/deferred-captures.js",
        "checkers/scripts/stavropol-checkers-goal.js",
        "checkers/scripts/stavropol-checkers-invariant.js",
        "checkers/scripts/russian-checkers-extension.js",
        "checkers/scripts/russian-captures.js",
        "checkers/scripts/stavropol-checkers.js",
    ],
}

# Ours: load the scripts into one context with the few browser globals the model reads,
# build the game's design and start board, and count the complete moves depth by depth.
HARNESS = r"""
const fs = require('fs'), vm = require('vm');
const [depth, ...files] = process.argv.slice(2);
const ctx = {console, Math, Date, setTimeout, navigator: {userAgent: ''}, document: {},
             window: {location: {search: ''}}};
ctx.globalThis = ctx;
vm.createContext(ctx);
for (const f of files) vm.runInContext(fs.readFileSync(f, 'utf8'), ctx, {filename: f});
ctx.MAX_DEPTH = +depth;
vm.runInContext(`
  Dagaz.Model.InitGame();
  var design = Dagaz.Model.getDesign();
  Dagaz.Model.getInitBoard().setup({clear: function() {}, addPiece: function() {}}, true);
  function leaves(board, depth) {
    if (depth == 0) return 1;
    board.generate(design);
    var n = 0;
    for (var i = 0; i < board.moves.length; i++) {
      var after = board.apply(board.moves[i]);
      // A partial move (the same player goes on capturing) is not yet a whole move.
      n += leaves(after, after.player == board.player ? depth : depth - 1);
    }
    return n;
  }
  for (var d = 1; d <= MAX_DEPTH; d++) {
    var t = Date.now(), n = leaves(Dagaz.Model.getInitBoard(), d);
    console.log(JSON.stringify([d, n, (Date.now() - t) / 1000]));
  }
`, ctx);
"""


def scripts_in(site: Path, files: list[str]) -> list[Path]:
    """The game's scripts in the user's copy of the site (an error naming any missing)."""
    paths = [site / name for name in files]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise SystemExit(f"not in {site}: {', '.join(missing)}")
    return paths


def ours(game: str, depth: int) -> int:
    import shashki

    if shashki.game_info(game).stacks:
        return shashki.ColumnBoard(variant=game).perft(depth, "orders")
    return shashki.perft(shashki.Board(variant=game), depth, distinct=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--dagaz", type=Path, required=True, help="your copy of the Dagaz site (a directory)"
    )
    parser.add_argument("--game", choices=sorted(GAMES), default="towers")
    parser.add_argument("--depth", type=int, default=6)
    args = parser.parse_args()
    scripts = scripts_in(args.dagaz.resolve(), BASE + GAMES[args.game])
    with tempfile.TemporaryDirectory(prefix="dagaz-") as tmp:
        harness = Path(tmp) / "harness.js"
        harness.write_text(HARNESS)
        proc = subprocess.Popen(
            ["node", str(harness), str(args.depth), *map(str, scripts)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        agree = True
        for line in proc.stdout:
            if not line.startswith("["):
                continue
            depth, theirs, seconds = json.loads(line)
            started = time.perf_counter()
            mine = ours(args.game, depth)
            own = time.perf_counter() - started
            same = "same" if mine == theirs else "DIFFERENT"
            agree = agree and mine == theirs
            print(
                f"{args.game} depth {depth}: Dagaz {theirs} ({seconds:.2f} s), "
                f"shashki {mine} ({own:.3f} s): {same}",
                flush=True,
            )
        proc.wait()
    return 0 if agree and proc.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
