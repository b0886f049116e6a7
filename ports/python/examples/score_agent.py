"""Scores an agent's Mastermind games against the optimum, two ways: per game, the
turns the agent used over what the optimal tree needs for that secret; per move,
its regret: what its guess costs played next over the least any guess costs from
that position (`mmtree.Oracle`, the exact search, for positions off the tree's
line), in guesses a secret. The "agent" here is a simple one (the first code still
possible, the classic consistent player); put your own in its place.

    python ports/python/examples/score_agent.py trees/optimal-4x6.mmt [GAMES]
"""

import statistics
import sys

import mmtree


def consistent_agent(tree: mmtree.Tree, moves):
    """The first code that fits every answer so far."""
    return tree.candidates(moves)[0]


def play(agent, tree: mmtree.Tree, oracle: mmtree.Oracle, secret: str, turns_at_most: int = 20):
    """The agent's game against `secret`: its turns, and each move's regret."""
    board = tree.board
    moves, regrets = [], []
    for turn in range(1, turns_at_most + 1):
        guess = agent(tree, moves)
        value = oracle.value(moves, guesses=[guess])
        regrets.append(value["guesses"][0]["over"] / value["secrets"])
        answer = board.score(guess, secret)
        if answer == (board.pegs, 0):
            return turn, regrets
        moves.append((guess, answer))
    return turns_at_most + 1, regrets


def main(path: str, games: int = 200) -> None:
    tree = mmtree.Tree(path)
    oracle = mmtree.Oracle(tree.board.pegs, tree.board.colors, tree.board.repeat)
    codes = tree.board.codes()
    secrets = codes[:: max(1, len(codes) // games)]
    over, regrets = [], []
    for secret in secrets:
        optimal = len(tree.play(secret))
        used, regret = play(consistent_agent, tree, oracle, secret)
        over.append(used - optimal)
        regrets.extend(regret)
    stats = tree.stats
    print(f"{len(secrets)} games on {tree.board}: the agent used {statistics.mean(over):+.3f} turns a game over the optimal tree")
    print(f"worst game: {max(over):+d} turns; the optimal tree averages {stats['average']:.4f} (worst case {stats['worst']})")
    best = sum(1 for r in regrets if r == 0)
    print(f"its {len(regrets)} moves: {best} optimal; regret {statistics.mean(regrets):.4f} guesses a secret on average, at most {max(regrets):.4f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "trees/optimal-4x6.mmt", int(sys.argv[2]) if len(sys.argv) > 2 else 200)
