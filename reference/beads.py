"""Where the beads of a box go: taken out of a place in its list, put back into it, settled after a game.

A box is a list of beads. A bead is drawn from a place chosen uniformly, and the bead taken
out for it is the first of its square in the list (`first_of`): the same square, found again
after the game from the square alone. The plain rules take the bead out as it is drawn and
put it back when the game is over; the game loop puts it back at once, with one more of its
square (as after the challenge's win), and settles it when the game ends otherwise. Both
leave every list in the same order, so the same numbers draw the same beads.
"""

from __future__ import annotations

from reference.board import Cell

AT_ONCE = 2
"""The beads of its square the game loop puts back at once for each drawn bead."""


def first_of(beads: list[Cell], place: int) -> int:
    """The place of the first bead of the square at `place`: the one taken out when `place` is drawn."""
    return beads.index(beads[place])


def take_out(beads: list[Cell], place: int) -> Cell:
    """Take out the bead at `place`; the last bead fills its place."""
    bead = beads[place]
    beads[place] = beads[-1]
    beads.pop()
    return bead


def put_back(beads: list[Cell], place: int, bead: Cell, count: int) -> None:
    """Put back `bead`, taken out of `place`, with count - 1 more of its square (none for 0):
    it returns to its place, and the bead that filled the place goes back to the end."""
    if count:
        beads.append(bead)
        beads[place], beads[-1] = beads[-1], beads[place]
        beads.extend([bead] * (count - 1))


def settle(beads: list[Cell], count: int) -> None:
    """Make the last bead drawn, put back AT_ONCE times (the last in the list), one put back `count` times instead."""
    if count >= AT_ONCE:
        beads.extend([beads[-1]] * (count - AT_ONCE))
        return
    bead = beads.pop()
    if count == 0:
        take_out(beads, beads.index(bead))
