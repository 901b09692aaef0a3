"""Simulated runs through the statistical checks: a MENACE, correct or with a fault of a set size.

No program is started and nothing is printed: a small MENACE of its own, like the canonical
test submission (1 to 4 beads of each empty square at the start, beads kept in lists), plays
the judge's opponents, and after each game the judge's statistics see what a dump would show.
It is what the statistical checks are measured against (`bench/randomness.py`) and tested
with: it never stands in for the reference's engine in a verdict.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from reference.board import EMPTY, EMPTY_BOARD, Board, Cell, X, is_over, play
from reference.outcome import Outcome, outcome_of
from reference.symmetry import PERMUTATIONS, inverse, map_cell

from judge.boxes import box_labels, draw_for_move, label_of
from judge.checks import KEPT
from judge.opponents import Knowledge, make_opponent
from judge.options import OpponentKind, RefillRule
from judge.randomness import (
    FALSE_ALARM,
    Drawn,
    DrawStatistics,
    Refilled,
    RefillStatistics,
    counts_of,
    refill_beads,
)


class Fault(StrEnum):
    """A way of getting SPEC section 5's randomness wrong, by an amount `size` from 0 to 1."""

    NONE = "none"
    SHARPENED = "sharpened"
    """Chance proportional to beads**(1 + size): the likelier squares favoured."""
    FLATTENED = "flattened"
    """Chance proportional to beads**(1 - size): the rarer squares favoured."""
    SKIPS_LAST = "skips-last"
    """With chance `size`, the draw is from all beads of the list but the last (an off-by-one)."""
    RESEEDS = "reseeds"
    """With chance `size`, a game starts by reseeding the generator with the same seed."""
    REFILLS_LOWEST = "refills-lowest"
    """Each refill bead is the label's lowest empty square with chance `size`."""


@dataclass(frozen=True)
class Rejections:
    """Where a simulated run was first rejected by each statistical check (None: never)."""

    draws_rejected: int | None
    """The game after which the bead-draws statistic crossed its bound."""
    refills_rejected: int | None
    """The game after which the refill statistic crossed its bound."""
    draws: int
    refills: int


class Menace:
    """A list-based MENACE whose randomness can be faulty."""

    def __init__(self, seed: int, fault: Fault, size: float, one_bead: bool = False) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.fault = fault
        self.size = size
        self.fault_rng = random.Random(seed ^ 0x5EED)
        self.boxes = {label: self._first_beads(label, one_bead) for label in box_labels()}
        self.drawn: list[tuple[Board, Cell]] = []

    def _first_beads(self, label: Board, one_bead: bool) -> list[Cell]:
        """A box's beads at the start: one at random, or 1 to 4 of each empty square."""
        empties = [Cell(c) for c in range(9) if label[c] == EMPTY]
        if one_bead:
            return [self.rng.choice(empties)]
        return [c for c in empties for _ in range(self.rng.randint(1, 4))]

    def start_game(self) -> None:
        """Forget last game's draws; reseed if the fault says so."""
        self.drawn = []
        if self.fault is Fault.RESEEDS and self.fault_rng.random() < self.size:
            self.rng.seed(self.seed)

    def _index(self, beads: list[Cell]) -> int:
        """The place in the list of the bead drawn."""
        n = len(beads)
        if self.fault is Fault.SKIPS_LAST and n > 1 and self.fault_rng.random() < self.size:
            return self.rng.randrange(n - 1)
        if self.fault in (Fault.SHARPENED, Fault.FLATTENED):
            power = 1 + self.size if self.fault is Fault.SHARPENED else 1 - self.size
            counts = counts_of(beads)
            weights = [counts[square] ** (power - 1) for square in beads]
            return self.rng.choices(range(n), weights)[0]
        return self.rng.randrange(n)

    def _refill(self, label: Board) -> list[Cell]:
        """Three refill beads for an emptied box."""
        empties = [Cell(c) for c in range(9) if label[c] == EMPTY]
        return [empties[0] if self.fault is Fault.REFILLS_LOWEST
                and self.fault_rng.random() < self.size else self.rng.choice(empties)
                for _ in range(3)]

    def move(self, board: Board) -> Cell:
        """MENACE's square on `board`."""
        if board.count(EMPTY) == 1:
            return Cell(board.index(EMPTY))
        label, g = label_of(board)
        beads = self.boxes[label]
        bead = beads.pop(self._index(beads))
        if not beads:
            beads.extend(self._refill(label))
        self.drawn.append((label, bead))
        return map_cell(inverse(g), bead)

    def learn(self, outcome: Outcome) -> None:
        """Put the drawn beads back as the game's result says."""
        for label, bead in self.drawn:
            self.boxes[label].extend([bead] * KEPT[outcome])


def simulate(fault: Fault, size: float, games: int, seed: int, *, one_bead: bool = False,
             opponent: OpponentKind = OpponentKind.MIXED, threshold: float = 1 / FALSE_ALARM) -> Rejections:
    """One run of `games` games against a judge's opponent, through both statistical checks."""
    menace = Menace(seed, fault, size, one_bead)
    knowledge = Knowledge()
    rival = make_opponent(opponent, seed, knowledge)
    judge_rng = random.Random(-seed)
    draw_test = DrawStatistics(threshold)
    refill_test = RefillStatistics(judge_rng, threshold)
    draws_rejected = refills_rejected = None
    dump: dict[Board, tuple[Cell, ...]] | None = None
    identity = PERMUTATIONS[0]
    for game in range(1, games + 1):
        menace.start_game()
        rival.start_game(game)
        board = EMPTY_BOARD
        draws = []
        while True:
            cell = menace.move(board)
            draw = draw_for_move(board, cell)
            if draw is not None:
                draws.append(draw)
                knowledge.draws[draw.label] += 1
                if dump is not None:
                    draw_test.add(Drawn(draw.label, dump[draw.label], draw.squares, game,
                                        len(draws) - 1))
            board = play(board, cell)
            if is_over(board):
                break
            board = play(board, rival.move(board))
            if is_over(board):
                break
        outcome = outcome_of(board, X)
        menace.learn(outcome)
        after = {label: tuple(sorted(beads)) for label, beads in menace.boxes.items()}
        kept = KEPT[outcome]
        if dump is not None:
            for draw in draws:
                beads = refill_beads(counts_of(dump[draw.label]), counts_of(after[draw.label]),
                                     draw.squares, kept, RefillRule.ON_EMPTY)
                if beads is not None:
                    refill_test.add(Refilled(draw.label, beads, identity))
                    draw_test.refilled(draw.label)
        draw_test.learnt([(draw.label, draw.squares) for draw in draws], kept)
        dump = after
        knowledge.beads = {label: len(beads) for label, beads in after.items()}
        if draws_rejected is None and not draw_test.evidence().passed:
            draws_rejected = game
        if refills_rejected is None and not refill_test.evidence().passed:
            refills_rejected = game
    return Rejections(draws_rejected, refills_rejected, draw_test.evidence().observations,
                   refill_test.evidence().observations)
