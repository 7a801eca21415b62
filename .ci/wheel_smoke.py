"""The wheel's smoke test, run in a fresh venv where no Rust toolchain is reachable: the
package imports, counts, plays, and reads and writes PDN from the binary wheel alone."""

import io
import shutil
import sys

import shashki
import shashki.pdn
from shashki.engine import Engine, Limit

assert shutil.which("cargo") is None and shutil.which("rustc") is None, "a toolchain is here"
assert shashki._core.__file__.endswith(".abi3.so"), shashki._core.__file__
assert shashki.perft(shashki.Board(), 8) == 929_899
board = shashki.Board()
with Engine(hash_mb=8) as engine:
    move = engine.play(board, Limit(depth=4)).move
assert move is not None and move in board.legal_moves
game = shashki.Game()
for text in ["c3-d4", "f6-g5", "g3-h4"]:
    game.push_move(text)
game.headers["White"] = "Smoke, Test"
game.end().comment = "a comment"
text = shashki.pdn.write_game(game)
again = shashki.pdn.read_game(io.StringIO(text))
assert again is not None and shashki.pdn.write_game(again) == text, text
# The layers' packages and the web board's page are in the wheel; the command runs.
import pathlib  # noqa: E402
import subprocess  # noqa: E402

import shashki.apps  # noqa: E402
import shashki.learn  # noqa: E402
import shashki.protocols.hub_text  # noqa: E402

static = pathlib.Path(shashki.apps.__file__).parent / "web" / "static"
assert (static / "index.html").is_file() and (static / "app.js").is_file(), static
command = shutil.which("shashki")
assert command is not None
usage = subprocess.run([command, "--help"], capture_output=True, text=True, check=True).stdout
assert "Canadian draughts" in " ".join(usage.split()), usage
print(f"shashki {shashki.__version__} on Python {sys.version.split()[0]}: the wheel works")
