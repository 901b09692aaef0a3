"""How MENACE is filled, rewarded and punished: the rules as data, with two presets."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from reference.outcome import Outcome


class EmptyBox(Enum):
    """What MENACE does about a box with no beads left."""

    REFILL = "refill"
    """Put three random legal beads in the moment the last one is taken (the challenge's rule)."""
    RESIGN = "resign"
    """Give up the game when it has to draw from an empty box (Michie's machine)."""
    RANDOM = "random"
    """Play a uniformly random legal move, drawing no bead."""


MAX_BEADS: Final = 1000
"""The most beads a rule may put in per square at the start, or add after one game."""


class InvalidRulesError(ValueError):
    """Rules that cannot be played: a box that would start empty, or a bead count below zero."""


@dataclass(frozen=True)
class Rules:
    """Initial beads, incentives and the empty-box rule; the defaults are the challenge's."""

    initial_beads: tuple[int, int, int, int] = (1, 1, 1, 1)
    """Beads per square in the boxes for MENACE's 1st, 2nd, 3rd and 4th move."""
    distinct_moves_only: bool = False
    """Fill only one square of each set that the label's symmetries make equivalent (Michie)."""
    win: int = 1
    """Beads of the drawn square added after a win (besides the drawn bead going back)."""
    draw: int = 0
    """Beads added after a draw; -1 keeps the drawn bead out."""
    loss: int = -1
    """Beads added after a loss; -1 keeps the drawn bead out."""
    empty_box: EmptyBox = EmptyBox.REFILL
    refill_beads: int = 3

    def __post_init__(self) -> None:
        beads = self.initial_beads
        if len(beads) != 4 or not all(1 <= count <= MAX_BEADS for count in beads):
            raise InvalidRulesError(
                f"initial beads must be four counts from 1 to {MAX_BEADS:,}, got {beads!r}"
            )
        for outcome in Outcome:
            if not -1 <= self.incentive(outcome) <= MAX_BEADS:
                raise InvalidRulesError(f"the {outcome.word} incentive must be from -1 to "
                                        f"{MAX_BEADS:,}, got {self.incentive(outcome)}")
        if self.refill_beads < 1:
            raise InvalidRulesError(f"a refill must add at least one bead, got {self.refill_beads}")

    def incentive(self, outcome: Outcome) -> int:
        """Beads of the drawn square added (or, at -1, kept out) after this outcome."""
        return {Outcome.WIN: self.win, Outcome.DRAW: self.draw, Outcome.LOSS: self.loss}[outcome]

    def beads_returned(self, outcome: Outcome) -> int:
        """How many beads of the drawn square go back into its box after this outcome."""
        return 1 + self.incentive(outcome)


CHALLENGE: Final = Rules()
"""The challenge's rules: one bead per empty square, +1 win, 0 draw, -1 loss, refill with three."""

MICHIE: Final = Rules(
    initial_beads=(4, 3, 2, 1),
    distinct_moves_only=True,
    win=3,
    draw=1,
    loss=-1,
    empty_box=EmptyBox.RESIGN,
)
"""Michie's 1961 rules: 4/3/2/1 beads per distinct move, +3 win, +1 draw, -1 loss, empty: resign."""

PRESETS: Final = {"challenge": CHALLENGE, "michie": MICHIE}
