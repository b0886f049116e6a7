"""Scores an agent's Mastermind games against the optimal tree: for each secret,
the turns the agent used over what the optimal strategy needs for that secret,
and on average. The "agent" here is a simple one (the first code still possible,
the classic consistent player); put your own in its place.

    python ports/python/examples/score_agent.py trees/optimal-4x6.mmt
"""

import statistics
import sys

import mmtree


def consistent_agent(tree: mmtree.Tree, moves):
    """The first code that fits every answer so far."""
    return tree.candidates(moves)[0]


def play(agent, tree: mmtree.Tree, secret: str, turns_at_most: int = 20) -> int:
    board = tree.board
    moves = []
    for turn in range(1, turns_at_most + 1):
        guess = agent(tree, moves)
        answer = board.score(guess, secret)
        if answer == (board.pegs, 0):
            return turn
        moves.append((guess, answer))
    return turns_at_most + 1


def main(path: str, games: int = 200) -> None:
    tree = mmtree.Tree(path)
    codes = tree.board.codes()
    secrets = codes[:: max(1, len(codes) // games)]
    over = []
    for secret in secrets:
        optimal = len(tree.play(secret))
        used = play(consistent_agent, tree, secret)
        over.append(used - optimal)
    stats = tree.stats
    print(f"{len(secrets)} games on {tree.board}: the agent used {statistics.mean(over):+.3f} turns a game over the optimal tree")
    print(f"worst game: {max(over):+d} turns; the optimal tree averages {stats['average']:.4f} (worst case {stats['worst']})")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "trees/optimal-4x6.mmt")
