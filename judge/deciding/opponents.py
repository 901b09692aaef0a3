"""The judge's opponents, playing O: random, perfect, coverage, scripted and mixed."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Final, Protocol

from reference.board import EMPTY, Board, Cell, is_over, legal_moves, play
from reference.solver import best_moves

from judge.terms.boxes import label_of, needs_box
from judge.terms.options import OpponentKind

MIXED_WEIGHTS: Final = ((OpponentKind.COVERAGE, 4), (OpponentKind.RANDOM, 4),
                        (OpponentKind.PERFECT, 2))
"""How often the mixed opponent picks each kind for a game: out of 10."""
HUNTING_WEIGHTS: Final = ((OpponentKind.COVERAGE, 5), (OpponentKind.RANDOM, 3),
                          (OpponentKind.PERFECT, 2))
"""The same while the run has few refills: more of the coverage opponent, which then hunts them."""
FEW_REFILLS: Final = 0.1
"""Refills a game below which a run has few: then the coverage opponent hunts refills."""
FIRST_HUNT: Final = 11
"""The first game that may hunt refills: the games before show whether a run has few."""


class Opponent(Protocol):
    """Something that chooses O's moves, one game at a time."""

    name: str

    def start_game(self, game: int) -> None:
        """Get ready for game number `game` (from 1)."""

    def move(self, board: Board) -> Cell:
        """The square O takes on `board` (O to move, game not over)."""


class Knowledge:
    """What the judge has seen of MENACE so far, for the coverage opponent."""

    def __init__(self) -> None:
        self.draws: Counter[Board] = Counter()
        """How often MENACE has drawn from each box (by canonical label)."""
        self.beads: dict[Board, int] = {}
        """The number of beads in each box at the last dump."""
        self.refills = 0
        """How many draws so far emptied a box (a refill the dumps show)."""

    def few_refills(self, game: int) -> bool:
        """True when the games before `game` (from FIRST_HUNT) showed fewer refills than
        FEW_REFILLS a game."""
        return game >= FIRST_HUNT and self.refills < FEW_REFILLS * (game - 1)


class RandomOpponent:
    """Uniformly random legal moves, from a seeded generator."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def start_game(self, game: int) -> None:
        """Nothing to prepare."""

    def move(self, board: Board) -> Cell:
        """A random empty square."""
        return self.rng.choice(legal_moves(board))


class PerfectOpponent:
    """Minimax play: never loses; random among the best moves."""

    name = "perfect"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def start_game(self, game: int) -> None:
        """Nothing to prepare."""

    def move(self, board: Board) -> Cell:
        """A random move among those that keep the best result for O."""
        return self.rng.choice(best_moves(board))


class CoverageOpponent:
    """Steers MENACE into nearly empty boxes (refills), then new boxes, else plays to win.

    While the run has few refills it hunts them instead of new boxes: after the nearly empty
    boxes, it plays to win into the box with the fewest beads, so that MENACE's losses drain
    boxes down to one bead, whose next draw refills it.
    """

    name = "coverage"
    NEARLY_EMPTY: Final = 2

    def __init__(self, rng: random.Random, knowledge: Knowledge) -> None:
        self.rng = rng
        self.knowledge = knowledge
        self.hunting = False

    def start_game(self, game: int) -> None:
        """Hunt refills in this game if the run has had few."""
        self.hunting = self.knowledge.few_refills(game)

    def move(self, board: Board) -> Cell:
        """The move that best serves coverage: refills first, new boxes next, then winning play."""
        best = best_moves(board)

        def priority(cell: Cell) -> tuple[int, int, int, float]:
            after = play(board, cell)
            fallback = 2 if cell in best else 3
            if is_over(after) or not needs_box(after):
                return (fallback, 0, 0, self.rng.random())
            label = label_of(after)[0]
            beads = self.knowledge.beads.get(label)
            drawn = self.knowledge.draws[label]
            if beads is not None and beads <= self.NEARLY_EMPTY:
                bucket = 0
            elif self.hunting:
                return (fallback - 1, beads or 0, 0, self.rng.random())
            elif drawn == 0:
                bucket = 1
            else:
                bucket = fallback
            first = (beads or 0) if bucket == 0 else drawn
            return (bucket, first, beads or 0, self.rng.random())
        return min(legal_moves(board), key=priority)


class ScriptedOpponent:
    """Plays a list of moves per game; where one is not legal, falls back to another opponent."""

    name = "scripted"

    def __init__(self, games: Sequence[Sequence[int]], fallback: Opponent) -> None:
        self.games = games
        self.fallback = fallback
        self.queue: list[int] = []

    def start_game(self, game: int) -> None:
        """Load the moves of game number `game`."""
        self.queue = list(self.games[game - 1]) if game <= len(self.games) else []
        self.fallback.start_game(game)

    def move(self, board: Board) -> Cell:
        """The next scripted move, or the fallback's when it is not legal here."""
        if self.queue:
            cell = Cell(self.queue.pop(0))
            if cell in legal_moves(board):
                return cell
            self.queue = []
        return self.fallback.move(board)


def scripted_move(board: Board, square: int) -> Cell:
    """The square a script names, or the lowest empty square when that one is taken."""
    if 0 <= square <= 8 and board[square] == EMPTY:
        return Cell(square)
    return legal_moves(board)[0]


Choices = tuple[tuple[int, ...], ...]
"""O's scripts: per game, the squares O takes in turn (the lowest empty one when taken)."""


class ChoiceOpponent:
    """Plays each game's script: the square named, or the lowest empty one when it is taken.

    So a script is legal whatever MENACE plays. A game past its script plays square 0 (the
    lowest empty square): shorter scripts and lower squares are simpler games, the order in
    which a shrinker simplifies them.
    """

    name = "scripted"

    def __init__(self, games: Choices) -> None:
        self.games = games
        self.queue: list[int] = []

    def start_game(self, game: int) -> None:
        """Load the choices of game number `game`."""
        self.queue = list(self.games[game - 1]) if game <= len(self.games) else []

    def move(self, board: Board) -> Cell:
        """The next scripted square, or the lowest empty square."""
        return scripted_move(board, self.queue.pop(0) if self.queue else 0)


class MixedOpponent:
    """A different kind of opponent for each game, chosen at random with fixed weights."""

    name = "mixed"

    def __init__(self, rng: random.Random, knowledge: Knowledge) -> None:
        self.rng = rng
        self.knowledge = knowledge
        self.kinds: dict[OpponentKind, Opponent] = {
            OpponentKind.COVERAGE: CoverageOpponent(rng, knowledge),
            OpponentKind.RANDOM: RandomOpponent(rng),
            OpponentKind.PERFECT: PerfectOpponent(rng),
        }
        self.current: Opponent = self.kinds[OpponentKind.COVERAGE]

    def start_game(self, game: int) -> None:
        """Pick this game's kind of opponent: more losses for MENACE while refills are few."""
        table = HUNTING_WEIGHTS if self.knowledge.few_refills(game) else MIXED_WEIGHTS
        names = [name for name, _ in table]
        weights = [weight for _, weight in table]
        self.current = self.kinds[self.rng.choices(names, weights)[0]]
        self.current.start_game(game)

    def move(self, board: Board) -> Cell:
        """The move of this game's kind of opponent."""
        return self.current.move(board)


def make_opponent(kind: OpponentKind, seed: int, knowledge: Knowledge) -> Opponent:
    """The opponent of this kind, seeded with `seed`."""
    rng = random.Random(seed)
    if kind is OpponentKind.RANDOM:
        return RandomOpponent(rng)
    if kind is OpponentKind.PERFECT:
        return PerfectOpponent(rng)
    if kind is OpponentKind.COVERAGE:
        return CoverageOpponent(rng, knowledge)
    return MixedOpponent(rng, knowledge)
