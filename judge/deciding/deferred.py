"""Checks no move depends on, made while the program works on its reply, each reported as
where it fell due.

The learning check of a game and the bead-draws test of its moves need nothing the next move
depends on, so the referee queues them. Once the next move is sent (or a dump read) they fall
due at a mark, the referee's note of where the run stands; they are made, oldest first, while
the program has not answered yet, and all of a game's before the next game's dump is read. A
check that fails later than it fell due rewinds the run to its mark, through the one function
the referee gives for that, so the failure is reported where it belongs.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from judge.terms.stops import Failed

Mark = TypeVar("Mark")
"""The referee's note of where the run stood when checks fell due."""


@dataclass(frozen=True)
class Due(Generic[Mark]):
    """A check of game `game`, due where `mark` says."""

    check: Callable[[], None]
    game: int
    mark: Mark


class Deferred(Generic[Mark]):
    """The checks of a run that wait: queued, then due at a mark, then made."""

    def __init__(self, rewind: Callable[[Mark, int], None]) -> None:
        self.rewind = rewind
        """Put the run back as it stood at a mark, for a failure of the given game."""
        self.queued: list[tuple[Callable[[], None], int]] = []
        self.due: deque[Due[Mark]] = deque()
        self.failed_at: Mark | None = None
        """The mark of the check that failed after it fell due, if one did."""

    def queue(self, check: Callable[[], None], game: int) -> None:
        """A check of game `game` that falls due at the next mark."""
        self.queued.append((check, game))

    def drop(self, game: int) -> None:
        """Forget the checks of game `game` that have not fallen due: what they would check
        is known to be wrong already."""
        self.queued = [(check, of) for check, of in self.queued if of != game]

    def fall_due(self, mark: Callable[[], Mark]) -> Mark | None:
        """The checks queued so far fall due here, at the mark made now (None: none queued)."""
        if not self.queued:
            return None
        here = mark()
        self.due.extend(Due(check, game, here) for check, game in self.queued)
        self.queued.clear()
        return here

    def make_due(self, before_game: int | None = None) -> None:
        """Make every check due (of the games before `before_game`, if given), oldest first."""
        while self.due and (before_game is None or self.due[0].game < before_game):
            self._make(self.due.popleft())

    def make_while(self, waiting: Callable[[], bool]) -> None:
        """Make checks due, oldest first, for as long as the program keeps the judge `waiting`."""
        while self.due and waiting():
            self._make(self.due.popleft())

    def settle(self, mark: Callable[[], Mark]) -> None:
        """Once the run stops, the checks it still owes, as if each were made where it fell
        due: every one, up to a failure; after a failure, the rest of those due with it."""
        late: Failed | None = None
        if self.failed_at is None:
            here = self.fall_due(mark)
            try:
                self.make_due()
                return
            except Failed as failed:
                if self.failed_at is here:
                    raise
                late = failed
        at = self.failed_at
        while self.due and self.due[0].mark is at:
            self._make(self.due.popleft())
        if late is not None:
            raise late

    def _make(self, due: Due[Mark]) -> None:
        """Make one check; a failure rewinds the run to where the check fell due."""
        try:
            due.check()
        except Failed as failed:
            self.failed_at = due.mark
            self.rewind(due.mark, failed.failure.place.game)
            raise
