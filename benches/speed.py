"""Speed of the Python API: perft leaves/s, legal move listing, push+pop, import time.

Run: ``python benches/speed.py [--depth 11]``. Prints figures; asserts only node counts.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import timeit

import shashki

PERFT_START = {9: 4570586, 10: 22444032, 11: 110917189, 12: 544770444}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=11, choices=sorted(PERFT_START))
    args = parser.parse_args()
    board = shashki.Board()

    for label, kwargs in [
        ("1 thread, no hash", {}),
        ("2 threads", {"threads": 2}),
        ("1 thread, 256 MB hash", {"hash_mb": 256}),
    ]:
        start = time.perf_counter()
        leaves = shashki.perft(board, args.depth, **kwargs)
        seconds = time.perf_counter() - start
        assert leaves == PERFT_START[args.depth]
        print(
            f"perft({args.depth}) {label}: {seconds:.3f} s, {leaves / seconds / 1e6:.1f} M leaves/s"
        )

    n = 200_000
    t = timeit.timeit("list(board.legal_moves)", globals={"board": board}, number=n)
    print(f"list(board.legal_moves) at the start: {t / n * 1e6:.2f} µs")
    move = board.legal_moves[0]
    t = timeit.timeit("board.push(move); board.pop()", globals=locals(), number=n)
    print(f"push + pop: {t / n * 1e6:.2f} µs")

    def interpreter(code: str) -> float:
        best = float("inf")
        for _ in range(30):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            best = min(best, time.perf_counter() - start)
        return best

    bare = interpreter("pass")
    with_import = interpreter("import shashki")
    print(f"import shashki adds {(with_import - bare) * 1e3:.1f} ms to interpreter start")
    layers = interpreter("import shashki.game, shashki.engine, shashki.pdn")
    print(
        "import shashki.game, shashki.engine, shashki.pdn adds "
        f"{(layers - with_import) * 1e3:.1f} ms more (bytecode cached, as installed)"
    )


if __name__ == "__main__":
    main()
