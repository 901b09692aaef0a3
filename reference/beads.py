"""A matchbox's beads as a count per square, and an exact draw from a list of at most 255 entries.

A box holds `counts[s]` beads of each square s of its label (none on a taken square), so its
memory does not grow with its beads. For the draw it also keeps `entries`, made from the counts
alone: the beads of each square in blocks of 2**shift, one entry s for each block but the last,
then one entry LAST + s for the last block of each square that has beads (it holds 1 to
2**shift beads), in ascending order. `shift` is the least that keeps the list within ENTRIES;
below 256 beads it is 0: blocks of one bead, the entries are the beads themselves, sorted, and
no block is marked last.

A draw picks an entry uniformly, a number below 255 at most (cut from a byte in C, see
`reference.draws`). A block but the last gives its square. A last block of r beads gives its
square with chance r / 2**shift (a number below 2**shift is below r); else the draw starts
again. On each try every bead is equally likely, so each square's chance is exactly its share
of the beads; a try is lost only on a last block, at most nine entries among more than 127.
The entries depend on the counts only, whatever the order of the changes that led to them, so
every way of playing the same games draws the same squares from the same numbers.

`top[s]` is the most beads square s can hold before its entries change, and `top[BLOCK]` the
beads of a block: the game loop adds beads to a count alone, and past its top it sorts in one
more entry of the square and raises its top by a block (calling `regroup` only when that is not
enough); a box it leaves with one entry too many is regrouped before its next draw.
"""

from __future__ import annotations

from bisect import bisect_right, insort
from collections.abc import Iterable
from typing import Final

from reference.board import CELLS, Cell
from reference.draws import SMALL, Draws

ENTRIES: Final = SMALL - 1
"""The most entries a box keeps: a number below it is drawn from a stream of bytes."""

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
    """The most beads a square of `count` beads can hold with the same entries."""
    return ((count - 1) | ((1 << shift) - 1)) + 1 if count else 0


class Box:
    """A matchbox: its beads counted per square, and the entries that a draw picks from."""

    __slots__ = ("counts", "entries", "top", "shift")

    def __init__(self, counts: Iterable[int]) -> None:
        self.counts: list[int] = []
        """Beads per square, squares 0 to 8: the box itself; the rest is made from it."""
        self.entries: list[int] = []
        """One entry per block of 2**shift beads but each square's last (its square), then one
        per last block (LAST + its square, when shift > 0), ascending: at most ENTRIES."""
        self.top: list[int] = [0] * (len(CELLS) + 1)
        """For each square, the most beads it can hold before its entries change; then (at
        BLOCK) the beads of a block, 2**shift."""
        self.shift = 0
        """Blocks hold 2**shift beads: the least shift that keeps the entries within ENTRIES."""
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
        """A new box holding the same beads."""
        box = Box.__new__(Box)
        box.counts, box.entries, box.top, box.shift = (
            self.counts[:], self.entries[:], self.top[:], self.shift)
        return box

    def assign(self, other: Box) -> None:
        """Hold the same beads as `other`, in place: a match built on this box stays valid."""
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
        if len(entries) > ENTRIES:  # one too many, left by the game loop
            self._rebuild()
        return self.resolve(entries[draws.below(len(entries))], draws)

    def resolve(self, entry: int, draws: Draws) -> Cell:
        """The square drawn when `entry` is picked first: a last block of r beads is kept with
        chance r / 2**shift, else entries are picked again until one is kept."""
        entries, counts, shift, bits = self.entries, self.counts, self.shift, draws.rng.getrandbits
        mask = (1 << shift) - 1
        while entry >= LAST:
            if bits(shift) <= (counts[entry - LAST] - 1) & mask:
                return entry - LAST  # type: ignore[return-value]  # a Cell: Cell() costs a call
            entry = entries[draws.below(len(entries))]
        return entry  # type: ignore[return-value]

    def add(self, square: int, beads: int) -> None:
        """Put `beads` beads of `square` in (take them out when below zero)."""
        counts, shift = self.counts, self.shift
        count = counts[square] + beads
        if count < 0:
            raise ValueError(f"square {square} holds {count - beads} beads: "
                             f"{-beads} cannot be taken out")
        counts[square] = count
        top = self.top[square]
        if not top - (1 << shift) < count <= top or (
                beads < 0 and shift and sum(counts) <= ENTRIES << (shift - 1)):
            self.regroup(square)  # other entries, or blocks that may shrink

    def regroup(self, square: int) -> None:
        """Make the entries fit the counts again after the count of `square` changed."""
        count, held = self.counts[square], self.top[square]
        if count > held > 0:  # more blocks of a square that had beads: the common case, kept short
            shift, entries = self.shift, self.entries
            more = (count - 1 >> shift) - (held - 1 >> shift)
            if len(entries) + more <= ENTRIES:
                if more == 1:
                    insort(entries, square)  # after its other blocks, before the last blocks
                else:
                    at = bisect_right(entries, square)
                    entries[at:at] = [square] * more
                self.top[square] = held + (more << shift)
                return
        self._regroup(square)

    def _regroup(self, square: int) -> None:
        """Make the entries fit the counts again, whatever the change of the count of `square`."""
        counts, entries, top, shift = self.counts, self.entries, self.top, self.shift
        count, held = counts[square], top[square]
        old, new = _blocks(held, shift), _blocks(count, shift)
        marked = shift and (held > 0) != (count > 0)  # a last block comes or goes
        if len(entries) + new - old + (marked and (1 if count else -1)) > ENTRIES or (
                shift and count < held and sum(counts) <= ENTRIES << (shift - 1)):
            self._rebuild()  # the blocks must grow, or may shrink
            return
        if new != old:
            at = bisect_right(entries, square)
            if new > old:
                entries[at:at] = [square] * (new - old)
            else:
                del entries[at - old + new:at]
        if marked:
            if count:
                insort(entries, LAST + square)
            else:
                entries.remove(LAST + square)
        top[square] = _top(count, shift)

    def _rebuild(self) -> None:
        """Choose the least shift that keeps the entries within ENTRIES, and make them all."""
        counts = self.counts
        shift = max(0, sum(counts).bit_length() - 8)  # below it, the blocks are too many
        while sum(-(-count >> shift) for count in counts) > ENTRIES:  # blocks, the last ones too
            shift += 1
        self.shift = shift
        self.entries[:] = [square for square in CELLS for _ in range(_blocks(counts[square], shift))]
        if shift:
            self.entries += [LAST + square for square in CELLS if counts[square]]
        self.top[:] = [*(_top(count, shift) for count in counts), 1 << shift]


def counts_of(beads: Iterable[int]) -> Counts:
    """The counts per square of a list of beads (each a cell number 0 to 8)."""
    counts = [0] * len(CELLS)
    for bead in beads:
        counts[bead] += 1
    return tuple(counts)
