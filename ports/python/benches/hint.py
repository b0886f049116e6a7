"""A hint from Python against the same hint from the command line: the median of
repeated timings of `Tree.next` on a two-move history of the proven 5x7 tree, and of
`mmlookup next` as a process (what a Python tool that shells out pays).

    make python && target/venv/bin/python ports/python/benches/hint.py target/release
"""

import statistics
import subprocess
import sys
import time
from pathlib import Path

import mmtree

ROOT = Path(__file__).resolve().parents[3]
TREE = ROOT / "trees" / "optimal-5x7.mmt"


def per_call(fn, calls):
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def main(bin_dir):
    tree = mmtree.Tree(TREE)
    first = tree.next()
    moves = [(first, (1, 1))]
    moves.append((tree.next(moves), (0, 2)))
    python = [per_call(lambda: tree.next(moves), 100_000) for _ in range(11)]
    opened = [per_call(lambda: mmtree.Tree(TREE), 200) for _ in range(5)]
    texts = [f"{g}:{b},{w}" for g, (b, w) in moves]
    command = [str(Path(bin_dir) / "mmlookup"), "next", "--tree", str(TREE), *texts]
    process = [per_call(lambda: subprocess.run(command, capture_output=True, check=True), 20) for _ in range(5)]
    us = lambda xs: statistics.median(xs) * 1e6
    print(f"| Tree.next, a 2-move history of optimal-5x7 | {us(python):.2f} us | median of 11 runs of 100,000 calls |")
    print(f"| mmtree.Tree(path): map and verify optimal-5x7.mmt ({TREE.stat().st_size:,} bytes) | {us(opened):.0f} us | median of 5 runs of 200 |")
    print(f"| mmlookup next as a process, the same history | {us(process):.0f} us | median of 5 runs of 20 |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ROOT / "target" / "release")
