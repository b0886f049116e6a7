"""The exact value of positions off every tree's line, as a reward would ask for
it: a consistent agent (the first code still possible) plays every secret of a
board, and each of its moves is valued with `Oracle.value` (the position before
it, and the agent's guess: its regret). One oracle for all the games, as a
training loop would keep it; the first game's questions find its cache empty.

    make python && target/venv/bin/python ports/python/benches/value.py 4 6
"""

import statistics
import sys
import time

import mmtree


def main(pegs, colors):
    oracle = mmtree.Oracle(pegs, colors)
    codes = oracle.board.codes()
    times, regrets, questions = [], [], 0
    started = time.perf_counter()
    for secret in codes:
        moves = []
        while True:
            candidates = [c for c in codes if all(oracle.board.score(g, c) == a for g, a in moves)]
            guess = candidates[0]
            t = time.perf_counter()
            value = oracle.value(moves, guesses=[guess])
            times.append(time.perf_counter() - t)
            questions += 1
            regrets.append(value["guesses"][0]["over"] / value["secrets"])
            answer = oracle.board.score(guess, secret)
            if answer == (pegs, 0):
                break
            moves.append((guess, answer))
    whole = time.perf_counter() - started
    us = lambda xs: statistics.median(xs) * 1e6
    print(
        f"| {pegs}x{colors}, every secret: {questions:,} questions | {us(times):.0f} us | "
        f"first {times[0] * 1e3:.1f} ms, slowest {max(times) * 1e3:.1f} ms, mean {statistics.mean(times) * 1e6:.0f} us; "
        f"{whole:.1f} s in all with the agent's own work; its moves' regret {statistics.mean(regrets):.4f} guesses a secret on average |"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4, int(sys.argv[2]) if len(sys.argv) > 2 else 6)
