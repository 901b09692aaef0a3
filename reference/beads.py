"""A matchbox's beads as a count per square, and an exact draw from a list of at most 255 entries.

A box holds `counts[s]` beads of each square s of its label (none on a taken square), so its
memory does not grow with its beads. For the draw it also keeps `entries`: the beads of each
square in blocks of 2**shift, one entry s for each block but the last, and one entry LAST + s
for the last block of each square that has beads (it holds 1 to 2**shift beads). Below 256
beads the shift is 0: blocks of one bead, the entries are the beads themselves, none marked
last. `shift` starts (and restarts, when the entries would pass ENTRIES, or when a draw rejects
a last block in a box that could do with blocks half as large) as the least that keeps the
list within ENTRIES.

A draw picks an entry uniformly, a number below 255 at most (cut from a byte in C, see
`reference.draws`). A block but the last gives its square. A last block of r beads gives its
square with chance r / 2**shift (a number below 2**shift is below r); else the draw starts
again. On each try every bead is equally likely, so each square's chance is exactly its share
of the beads. A try is lost only on a last block, at most nine entries among more than 127
once blocks are made; a box that has since lost so many beads that blocks half as large would
do is regrouped at the first loss.

The entries are in the order the changes left them: a new block's entry goes at the end, and
an emptied block's is the square's last. So that the same numbers draw the same squares, every
way of playing a game (`Menace.move` and `learn`, the game loop) makes the same changes in the
same order: `grow` when a bead is drawn (the game loop does the same inline), `add` when the
game ends. `top[s]` is the most beads square s holds before it needs one more entry, and
`top[BLOCK]` the beads of a block.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from reference.board import CELLS, Cell
from reference.draws import SMALL, Draws

ENTRIES: Final = SMALL - 1
"""The most entries a box keeps: a number below it is drawn from a stream of bytes."""

SHRINK: Final = ENTRIES * 3 // 4
"""A box's blocks are halved when that leaves it at most this many entries (checked when a draw
rejects a last block): not as soon as they could be, so that a box near the line does not
regroup at every change."""

LAST: Final = 9
"""Added to a square for the entry of its last block (when blocks hold more than one bead)."""

BLOCK: Final = 9
"""Where `top` keeps the beads of a block, after the nine squares' tops."""

Counts = tuple[int, ...]
"""Beads per square of a label, squares 0 to 8 (none on a taken square)."""


class InvalidCountsError(ValueError):
    """Bead counts that are not nine whole numbers of at least zero."""


def _blocks(count: int, shift: int) -> int:
    """The entries of a square of `count` beads but its last block's: all of them at shift 0."""
    return count if not shift else count - 1 >> shift if count else 0


def _top(count: int, shift: int) -> int:
    """The most beads a square of `count` beads holds before it needs one more entry."""
    return ((count - 1) | ((1 << shift) - 1)) + 1 if count else 0


def remove_last(entries: list[int], entry: int) -> None:
    """Remove the last of these entries: most often the last of all, put there at the draw."""
    if entries[-1] == entry:
        entries.pop()
    else:
        del entries[len(entries) - 1 - entries[::-1].index(entry)]


class Box:
    """A matchbox: its beads counted per square, and the entries that a draw picks from."""

    __slots__ = ("counts", "entries", "top", "shift")

    def __init__(self, counts: Iterable[int]) -> None:
        self.counts: list[int] = []
        """Beads per square, squares 0 to 8."""
        self.entries: list[int] = []
        """One entry per block of 2**shift beads but each square's last (its square), and one
        per last block (LAST + its square, when shift > 0): at most ENTRIES before a draw."""
        self.top: list[int] = [0] * (len(CELLS) + 1)
        """For each square, the most beads it holds before it needs one more entry; then (at
        BLOCK) the beads of a block, 2**shift."""
        self.shift = 0
        """Blocks hold 2**shift beads."""
        self.load(counts)

    def load(self, counts: Iterable[int]) -> None:
        """Replace the beads by these counts, in place: a match built on this box stays valid."""
        row = list(counts)
        if len(row) != len(CELLS) or not all(type(c) is int and c >= 0 for c in row):
            raise InvalidCountsError(f"bead counts must be nine whole numbers of at least 0, "
                                     f"got {row!r}")
        self.counts[:] = row
        self._rebuild()

    def copy(self) -> Box:
        """A new box holding the same beads, in the same entries."""
        box = Box.__new__(Box)
        box.counts, box.entries, box.top, box.shift = (
            self.counts[:], self.entries[:], self.top[:], self.shift)
        return box

    def assign(self, other: Box) -> None:
        """Hold the same beads as `other`, in the same entries, in place."""
        self.counts[:], self.entries[:], self.top[:], self.shift = (
            other.counts, other.entries, other.top, other.shift)

    @property
    def total(self) -> int:
        """The number of beads in the box."""
        return sum(self.counts)

    def beads(self) -> tuple[Cell, ...]:
        """Every bead, sorted: one cell number per bead (as many items as beads)."""
        return tuple(Cell(square) for square in CELLS for _ in range(self.counts[square]))

    def draw(self, draws: Draws) -> Cell:
        """A square drawn with chance proportional to its beads (the box must not be empty)."""
        entries = self.entries
        if len(entries) > ENTRIES:  # grown past it since the last draw
            self._rebuild()
        return self.resolve(entries[draws.below(len(entries))], draws)

    def resolve(self, entry: int, draws: Draws) -> Cell:
        """The square drawn when `entry` is picked first: a last block of r beads is kept with
        chance r / 2**shift, else entries are picked again until one is kept (in smaller blocks
        if the box has lost so many beads that they would do)."""
        entries, counts, bits = self.entries, self.counts, draws.rng.getrandbits
        mask = (1 << self.shift) - 1
        while entry >= LAST:
            if bits(self.shift) <= (counts[entry - LAST] - 1) & mask:
                return entry - LAST  # type: ignore[return-value]  # a Cell: Cell() costs a call
            if self._may_shrink():
                self._rebuild()
                mask = (1 << self.shift) - 1
            entry = entries[draws.below(len(entries))]
        return entry  # type: ignore[return-value]

    def grow(self, square: int, beads: int) -> None:
        """Add `beads` (at least none) to a square that holds some, as the game loop does at a
        draw: an entry at the end for each block they begin; the next draw regroups a box grown
        past ENTRIES."""
        counts, top = self.counts, self.top
        count = counts[square] + beads
        counts[square] = count
        held = top[square]
        while count > held:
            self.entries.append(square)
            held += top[BLOCK]
        top[square] = held

    def add(self, square: int, beads: int) -> None:
        """Put `beads` beads of `square` in (take them out when below zero): the entries of blocks
        begun go at the end, and those of blocks emptied are the square's last. A box left with
        too many entries is regrouped; one that could do with smaller blocks, when a draw next
        rejects a last block."""
        counts, entries, top, shift = self.counts, self.entries, self.top, self.shift
        count = counts[square] + beads
        if count < 0:
            raise ValueError(f"square {square} holds {count - beads} beads: "
                             f"{-beads} cannot be taken out")
        counts[square] = count
        held = top[square]
        if not shift:  # an entry a bead
            if beads > 0:
                entries += [square] * beads
            else:
                for _ in range(-beads):
                    remove_last(entries, square)
            top[square] = count
        elif not held - top[BLOCK] < count <= held:  # other entries
            old = held - 1 >> shift if held else 0  # blocks but the last, before and now
            new = count - 1 >> shift if count else 0
            if new > old:
                entries += [square] * (new - old)
            for _ in range(old - new):
                remove_last(entries, square)
            if (held > 0) != (count > 0):  # a last block comes or goes
                if count:
                    entries.append(LAST + square)
                else:
                    remove_last(entries, LAST + square)
            top[square] = ((count - 1) | ((1 << shift) - 1)) + 1 if count else 0
        if len(entries) > ENTRIES:
            self._rebuild()

    def _may_shrink(self) -> bool:
        """True when blocks half as large would leave at most SHRINK entries."""
        shift, counts = self.shift, self.counts
        return bool(shift) and sum(counts) <= SHRINK << (shift - 1) and sum(
            -(-count >> (shift - 1)) for count in counts) <= SHRINK

    def _rebuild(self) -> None:
        """Choose the least shift that keeps the entries within ENTRIES, and make them all anew,
        in ascending order."""
        counts = self.counts
        shift = max(0, sum(counts).bit_length() - 8)  # below it, the blocks are too many
        while sum(-(-count >> shift) for count in counts) > ENTRIES:  # blocks, the last ones too
            shift += 1
        entries: list[int] = []
        for square in CELLS:
            entries += [square] * _blocks(counts[square], shift)
        if shift:
            entries += [LAST + square for square in CELLS if counts[square]]
        self.shift = shift
        self.entries[:] = entries
        self.top[:] = [*(_top(count, shift) for count in counts), 1 << shift]


def counts_of(beads: Iterable[int]) -> Counts:
    """The counts per square of a list of beads (each a cell number 0 to 8)."""
    counts = [0] * len(CELLS)
    for bead in beads:
        counts[bead] += 1
    return tuple(counts)
