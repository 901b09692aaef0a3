"""How a game ended for one side, and a tally of such endings."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum

from reference.board import Board, winner


class Outcome(IntEnum):
    """How a finished game ended, seen from one side (MENACE's, unless said otherwise).

    The values are small codes, so a run of outcomes can be stored as bytes.
    """

    WIN = 0
    DRAW = 1
    LOSS = 2

    @property
    def word(self) -> str:
        """The outcome in lower case: 'win', 'draw' or 'loss'."""
        return self.name.lower()


def outcome_for(player: str, won_by: str | None) -> Outcome:
    """How a game won by `won_by` (None: drawn) ended for `player`."""
    if won_by is None:
        return Outcome.DRAW
    return Outcome.WIN if won_by == player else Outcome.LOSS


def outcome_of(board: Board, player: str) -> Outcome:
    """How the finished game on `board` ended for `player`."""
    return outcome_for(player, winner(board))


@dataclass(frozen=True)
class Tally:
    """Games finished so far and how they ended, from one side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """The number of games."""
        return self.wins + self.draws + self.losses

    def count(self, outcome: Outcome) -> int:
        """The number of games that ended in `outcome`."""
        return (self.wins, self.draws, self.losses)[outcome]

    def after(self, outcome: Outcome, games: int = 1) -> Tally:
        """The tally with `games` more games that ended in `outcome`."""
        field = ("wins", "draws", "losses")[outcome]
        return replace(self, **{field: getattr(self, field) + games})

    @classmethod
    def of(cls, outcomes: bytes | bytearray) -> Tally:
        """The tally of a run of outcomes stored as bytes."""
        return cls(*(outcomes.count(outcome) for outcome in Outcome))
