"""The order in which each box's beads arrived, as far as the dumps and the games tell it.

A program that keeps each box as a list, appending the beads that come back after a game and
taking the drawn one out, holds its beads oldest first: a fault tied to a place in that list
(never the last bead, say) is a fault tied to a bead's age, which the judge can follow even when
the program prints its beads sorted. The judge's account of a box, beads named by their orbit
under the label's symmetries, oldest first:

- a box first seen, or seen to differ from the account: its beads as printed;
- a draw: a bead of the drawn orbit leaves, one that is neither the oldest nor the newest where
  there is one (the alternatives that follow ages say those are never drawn), the oldest such;
- a refill: the refill beads, one group whose order within is unknown;
- learning: the beads put back join at the end, the newest.

Where the oldest or newest bead is one of a group of unknown order, the account says how many
beads that group has, and the alternatives share their bet over it. The account is a guess
made only from what was seen before each draw, so a bet that uses it stays a bet (see
`judge.deciding.evidence`): a wrong guess costs power, never the false-alarm rate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reference.board import Board

Order = tuple[int, ...]
"""A box's beads in some order, each named by its orbit (the least square of it)."""


@dataclass
class _Account:
    """One box's beads oldest first, with the sizes of its oldest and newest groups."""

    beads: list[int]
    oldest: int
    newest: int


class Ages:
    """The judge's account, box by box, of the order in which beads arrived."""

    def __init__(self) -> None:
        self.accounts: dict[Board, _Account] = {}

    def order(self, label: Board, printed: Order) -> tuple[Order, int, int]:
        """The box's beads oldest first, and the sizes of its oldest and newest groups.

        `printed` is the box as the last dump printed it: where the account disagrees with it,
        or has none, the printed order is taken instead.
        """
        account = self.accounts.get(label)
        if account is None or sorted(account.beads) != sorted(printed):
            account = _Account(list(printed), 1, 1)
            self.accounts[label] = account
        return tuple(account.beads), account.oldest, account.newest

    def drawn(self, label: Board, orbit: int) -> None:
        """Take out a bead of the drawn orbit (after `order` for this draw)."""
        account = self.accounts.get(label)
        if account is None or orbit not in account.beads:
            return
        beads, n = account.beads, len(account.beads)
        try:
            place = beads.index(orbit, account.oldest, n - account.newest)
        except ValueError:
            place = beads.index(orbit)
        del beads[place]
        if place < account.oldest:
            account.oldest -= 1
        if place >= n - account.newest:
            account.newest -= 1
        account.oldest = min(max(account.oldest, 1), len(beads))
        account.newest = min(max(account.newest, 1), len(beads))

    def refilled(self, label: Board, orbits: Sequence[int]) -> None:
        """The box was emptied and refilled with beads of these orbits, in an unknown order."""
        self.accounts[label] = _Account(sorted(orbits), len(orbits), len(orbits))

    def learnt(self, label: Board, orbit: int, kept: int) -> None:
        """Learning put `kept` beads of the drawn orbit back: the newest."""
        account = self.accounts.get(label)
        if account is None or not kept:
            return
        if not account.beads:
            account.oldest = kept
        account.beads.extend([orbit] * kept)
        account.newest = kept
