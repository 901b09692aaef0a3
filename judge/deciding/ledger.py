"""The checks no move depends on, kept in a ledger of the run: each MENACE move against the beads
of the dump before it, and each game's learning from one dump to the next, with the evidence of
the statistical tests they feed.

The referee reads every dump itself (check 5, and what the coverage opponent needs to know);
the ledger keeps its own copy of the last one, so that it can be kept wherever suits
(judge/deciding/checker.py): it is given the facts, never the referee's state. Each entry is
one check, made in the order the referee queued them: a draw's check reads the dump the ledger
holds then, and a game's learning check takes the game's dump as the ledger's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reference.board import Board, Cell
from reference.outcome import Outcome

from judge.deciding import checks
from judge.deciding.checks import BeadDraws, Refills
from judge.deciding.dumps import BoxReader, DumpReading
from judge.deciding.randomness import Evidence
from judge.terms.boxes import Draw
from judge.terms.options import RefillRule
from judge.terms.settings import Settings
from judge.terms.verdicts import Failure, Place


@dataclass(frozen=True)
class DrawMade:
    """A MENACE move to check against the beads of the last dump: the `index`-th draw of game
    `game`, from box `label`, to a square of `squares`, after the opponent's move `answering`
    (in the label's frame; None for MENACE's first move)."""

    label: Board
    squares: frozenset[Cell]
    game: int
    index: int
    place: Place
    answering: Cell | None = None


@dataclass(frozen=True)
class GameLearnt:
    """A game's end to check from the last dump to this game's: MENACE's draws, how the game
    ended, the board it ended on, and the dump's lines (the ledger reads them when it is not
    given the dump as read)."""

    texts: tuple[str, ...]
    draws: tuple[Draw, ...]
    outcome: Outcome
    board: Board
    place: Place


Entry = DrawMade | GameLearnt
"""One check of the ledger."""


@dataclass(frozen=True)
class Pooled:
    """The pooled statistical tests' evidence so far: the bead draws, the refills."""

    bead_draws: Evidence
    refill_beads: Evidence


class Ledger:
    """The checks no move depends on, made entry by entry, and the evidence they gather."""

    def __init__(self, settings: Settings, refill: RefillRule) -> None:
        threshold = 1 / settings.false_alarm
        self.bead_draws = BeadDraws(threshold, settings.measure_power)
        self.refill_beads = Refills(settings.seed, threshold, settings.measure_power)
        self.refill = refill
        self.last: DumpReading | None = None
        """The dump the next draws are checked against: the last game's."""
        self.last_game: tuple[Sequence[Draw], Outcome] | None = None
        """The draws and result of the game that dump ended."""
        self.reader: BoxReader | None = None
        """How its lines are read: the referee's reader, or the ledger's own."""

    def make(self, entry: Entry, dump: DumpReading | None = None) -> Failure | None:
        """Make one check; for a game's learning, `dump` is the game's dump as the referee read
        it (read again from the entry's lines when not given)."""
        if isinstance(entry, DrawMade):
            return self.draw_made(entry)
        return self.game_learnt(entry, dump if dump is not None else self.read(entry))

    def read(self, game: GameLearnt) -> DumpReading:
        """The game's dump read as the referee read it, with the ledger's own reader."""
        assert self.reader is not None
        previous = self.last
        game_one = (game.draws, game.outcome) if previous is None else None
        return checks.dump(game.texts, self.reader, game.place, previous, game_one=game_one,
                           drawn=game.draws)[1]

    def draw_made(self, draw: DrawMade) -> Failure | None:
        """The move against the beads of its box in the last dump."""
        assert self.last is not None
        beads = self.last.readings[draw.label].beads
        return self.bead_draws.add(draw.label, beads, draw.squares, draw.game, draw.index,
                                   draw.place, draw.answering)

    def game_learnt(self, game: GameLearnt, dump: DumpReading) -> Failure | None:
        """Check 6 from the last dump to this one, its refills, then the pooled bead-draws
        test; this dump becomes the last."""
        previous, self.last = self.last, dump
        last_game, self.last_game = self.last_game, (game.draws, game.outcome)
        if previous is not None:
            assert self.reader is not None
            failure = checks.learning(previous, dump, game.draws, game.outcome, self.refill,
                                      game.place, self.reader, board=game.board,
                                      last_game=last_game)
            if failure is not None:
                return failure
            if dump.boxes is not None and previous.boxes is not None:
                failure = self._refills(previous, dump, game.draws, game.outcome, game.place)
                if failure is not None:
                    return failure
        self.bead_draws.learnt(list(game.draws), game.outcome)
        return checks.bead_draws(self.bead_draws.result(), game.place)

    def _refills(self, previous: DumpReading, dump: DumpReading, draws: Sequence[Draw],
                 outcome: Outcome, place: Place) -> Failure | None:
        """Test the beads of each refill the two dumps show (check 6, statistical)."""
        for draw in draws:
            beads = self.refill_beads.add(previous.readings[draw.label], dump.readings[draw.label],
                                         draw.squares, outcome, self.refill, place.game)
            if beads is not None:
                self.bead_draws.refilled(draw.label, beads)
        return checks.refill_beads_check(self.refill_beads.result(), place)

    def tests(self) -> Pooled:
        """The evidence of both tests so far."""
        return Pooled(self.bead_draws.result(), self.refill_beads.result())
