"""Optimal Mastermind strategies as complete decision trees, read in place."""

import os
from typing import Any, Callable, Optional, Sequence, Tuple, TypedDict, Union

__version__: str

Answer = Union[Tuple[int, int], str]
"""An answer: (black, white), or written "B,W"."""
Moves = Sequence[Tuple[str, Answer]]
"""A history: (guess, answer) pairs, first move first."""

class Stats(TypedDict):
    secrets: int
    nodes: int
    total: int
    worst: int
    average: float
    histogram: list[int]
    proven: Optional[bool]

class Error(Exception):
    """Every error mmtree raises."""

class TreeError(Error):
    """A file that is not a whole, valid tree."""

class MoveError(Error):
    """A code, an answer or a history not of the board."""

class ContradictionError(Error):
    """Answers that no secret gives: one of them was scored wrong."""

    corrections: list[Tuple[list[Tuple[int, Tuple[int, int]]], list[str]]]
    """The fewest answers to change, likeliest first: each a list of
    (move index from 0, (black, white)) and the secrets that then fit."""

    readings: list[Tuple[str, list[Tuple[str, Tuple[int, int]]], int]]
    """The game read with every answer written another way, where they all
    then fit: ("whites first" or "colours in all" (blacks, then every colour
    right, blacks again), the moves as (guess, (black, white)), how many
    secrets fit them)."""

class BuildError(Error):
    """A tree or a value that cannot be worked out as asked (a time limit passed)."""

class Board:
    """A board: pegs, colours, and whether colours may repeat."""

    def __init__(self, pegs: int = 4, colors: int = 6, repeat: bool = True, alphabet: Optional[str] = None) -> None:
        """`alphabet`: the symbols colours are written in, one per colour ("ABCDEFG")."""
    @property
    def alphabet(self) -> Optional[str]: ...
    @property
    def pegs(self) -> int: ...
    @property
    def colors(self) -> int: ...
    @property
    def repeat(self) -> bool: ...
    def __len__(self) -> int:
        """The number of codes (secrets) of the board."""
    def codes(self) -> list[str]:
        """Every code, in the board's order."""
    def score(self, guess: str, secret: str) -> Tuple[int, int]:
        """The answer `secret` gives to `guess`: (black, white)."""

class Tree:
    """A strategy tree, read in place: every answer is a walk, no search."""

    def __init__(self, path: Union[str, os.PathLike[str]], alphabet: Optional[str] = None) -> None:
        """Opens a tree file memory-mapped and verifies it whole first."""
    @staticmethod
    def from_bytes(data: bytes, alphabet: Optional[str] = None) -> "Tree":
        """A tree from a file's contents, verified whole."""
    def to_bytes(self) -> bytes: ...
    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes the tree whole (a temporary file renamed over `path`)."""
    @property
    def board(self) -> Board: ...
    @property
    def strategy(self) -> str:
        """The strategy that chose every guess, by its `mmgen --strategy` name."""
    @property
    def stats(self) -> Stats:
        """What the file records of its tree."""
    def audit(self) -> Stats:
        """Replays every secret and checks the header's claims; the statistics recomputed."""
    def next(self, moves: Moves = ()) -> Optional[str]:
        """The next guess after `moves`; None once the last move won."""
    def explain(self, moves: Moves = ()) -> dict[str, Any]:
        """Why the tree plays its next guess after `moves` (`mmlookup explain --json`)."""
    def candidates(self, moves: Moves = ()) -> list[str]:
        """The codes still possible after `moves`."""
    def play(self, secret: str) -> list[Tuple[str, Tuple[int, int]]]:
        """The tree's game against `secret`: each guess and its answer."""

class GuessValue(TypedDict):
    guess: str
    total: int
    over: int
    """How much more than the least: the guess's regret, in guesses summed over the secrets."""

class Worst(TypedDict):
    guesses: int
    """The fewest guesses that always suffice from here, the winning one counted."""
    least_total: int
    """The least total of a strategy that needs no more."""

class _Value(TypedDict):
    moves: int
    secrets: int
    """The secrets still possible."""
    least_total: int
    """The least total of the guesses they still need, each secret's winning guess counted."""
    average: float
    best: str
    """The optimal next guess: the one an optimal tree of mmgen's plays."""
    guesses: list[GuessValue]

class Value(_Value, total=False):
    worst: Worst
    """With worst=True only."""

class Oracle:
    """The exact value of any position, on a tree's line or off it, by the exact
    search (run here, not read from a tree). One oracle keeps what its search
    proved between questions, and answers them one at a time (from several
    threads too)."""

    def __init__(self, pegs: int = 4, colors: int = 6, repeat: bool = True, alphabet: Optional[str] = None) -> None: ...
    @property
    def board(self) -> Board: ...
    def value(self, moves: Moves = (), guesses: Sequence[str] = (), time_limit: Optional[float] = None, worst: bool = False) -> Value:
        """The value of the position `moves` lead to, and what each of `guesses`
        costs played next (`mmgen value --json`'s object; with `worst`, `--worst`'s
        too). The GIL is released; Ctrl-C raises KeyboardInterrupt, a passed
        `time_limit` BuildError."""

class Longest(TypedDict):
    guesses: int
    game: list[Tuple[str, Tuple[int, int]]]
    sets: int
    proven: bool

def longest(
    pegs: int = 4,
    colors: int = 6,
    repeat: bool = True,
    time_limit: Optional[float] = None,
    cache_mib: int = 1024,
) -> Longest:
    """The longest game a consistent guesser can be forced into (`mmgen longest
    --json`'s object): its `guesses`, the `game` as (guess, (black, white)) moves
    (the last the secret's win), the `sets` looked at, and whether it is `proven`
    the longest (false when `time_limit` seconds passed first). The GIL is
    released; Ctrl-C raises KeyboardInterrupt."""

def build(
    pegs: int = 4,
    colors: int = 6,
    strategy: str = "knuth",
    repeat: bool = True,
    consistent_only: bool = False,
    max_depth: Optional[int] = None,
    progress: Optional[Callable[[int, int], object]] = None,
    exact_below: Optional[int] = None,
    rollout_above: Optional[int] = None,
    rollout_width: Optional[int] = None,
) -> Tree:
    """Builds the complete tree of `strategy` in this process (the GIL released).

    `max_depth` is the exact search's (optimal); `exact_below`, `rollout_above`
    and `rollout_width` the rules' (knuth, expected-size, entropy, most-parts), as
    mmgen's `--exact-below`, `--rollout-above` and `--rollout-width`.

    `progress(placed, secrets)` is called about ten times a second; Ctrl-C stops
    the build and raises KeyboardInterrupt.
    """
