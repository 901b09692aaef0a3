"""Bead bookkeeping as a state machine: every bead is in a box, kept aside, or accounted for."""

from __future__ import annotations

import random

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from reference.board import EMPTY, X, is_over, reachable_positions, to_move
from reference.menace import Menace
from reference.outcome import Outcome
from reference.rules import CHALLENGE
from reference.symmetry import canonical

CHOICES = sorted(
    b for b in reachable_positions() if not is_over(b) and to_move(b) == X and b.count(EMPTY) >= 2
)


class BeadBookkeeping(RuleBasedStateMachine):
    """Draws and lessons in any order, against a model that only counts beads per box."""

    def __init__(self) -> None:
        super().__init__()
        self.menace = Menace(CHALLENGE, rng=random.Random(0))
        self.counts = {label: len(beads) for label, beads in self.menace.contents().items()}
        self.aside: list[str] = []

    @rule(seed=st.integers(0, 2**16), board=st.sampled_from(CHOICES))
    def draw(self, seed: int, board: str) -> None:
        self.menace.rng.seed(seed)
        label, _ = canonical(board)
        cell = self.menace.move(board)
        assert cell is not None and board[cell] == EMPTY
        self.counts[label] -= 1
        if self.counts[label] == 0:
            self.counts[label] = CHALLENGE.refill_beads
        self.aside.append(label)

    @precondition(lambda self: bool(self.aside))
    @rule(outcome=st.sampled_from(Outcome))
    def learn(self, outcome: Outcome) -> None:
        drawn = self.menace.learn(outcome)
        assert [self.menace.labels[box] for box, _ in drawn] == self.aside
        for label in self.aside:
            self.counts[label] += CHALLENGE.beads_returned(outcome)
        self.aside = []

    @invariant()
    def boxes_hold_what_the_model_counts(self) -> None:
        contents = self.menace.contents()
        assert {label: len(beads) for label, beads in contents.items()} == self.counts
        for label, beads in contents.items():
            assert beads and all(label[b] == EMPTY for b in beads)


TestBeadBookkeeping = BeadBookkeeping.TestCase
