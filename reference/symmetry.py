"""The 8 symmetries of the square, acting on cells and boards."""

from __future__ import annotations

from operator import itemgetter
from typing import Final, NewType

from reference.board import CELLS, Board, Cell

Symmetry = NewType("Symmetry", int)
"""One of the 8 symmetries, an index into `PERMUTATIONS`; 0 is the identity."""

Permutation = tuple[Cell, ...]
"""Where each cell goes: `p[c]` is the image of cell `c`."""


def _rotate(c: int) -> Cell:
    """The image of a cell under a quarter turn clockwise."""
    row, col = divmod(c, 3)
    return Cell(col * 3 + (2 - row))


def _mirror(c: int) -> Cell:
    """The image of a cell under the left-right reflection."""
    row, col = divmod(c, 3)
    return Cell(row * 3 + (2 - col))


def _generate() -> tuple[Permutation, ...]:
    """The 8 permutations: the identity, three turns, then the four reflections."""
    turns: list[Permutation] = [CELLS]
    for _ in range(3):
        turns.append(tuple(_rotate(turns[-1][c]) for c in CELLS))
    reflections = [tuple(_mirror(t[c]) for c in CELLS) for t in turns]
    return tuple(turns + reflections)


PERMUTATIONS: Final[tuple[Permutation, ...]] = _generate()
SYMMETRIES: Final[tuple[Symmetry, ...]] = tuple(Symmetry(g) for g in range(8))
IDENTITY: Final = Symmetry(0)
assert len(set(PERMUTATIONS)) == 8

_INDEX: Final = {p: Symmetry(g) for g, p in enumerate(PERMUTATIONS)}


def map_cell(g: Symmetry, cell: Cell) -> Cell:
    """The image of `cell` under `g`."""
    return PERMUTATIONS[g][cell]


def compose(g: Symmetry, h: Symmetry) -> Symmetry:
    """The symmetry `g` after `h`: first apply `h`, then `g`."""
    pg, ph = PERMUTATIONS[g], PERMUTATIONS[h]
    return _INDEX[tuple(pg[ph[c]] for c in CELLS)]


def inverse(g: Symmetry) -> Symmetry:
    """The symmetry that undoes `g`."""
    p = PERMUTATIONS[g]
    undo = [Cell(0)] * 9
    for c in CELLS:
        undo[p[c]] = c
    return _INDEX[tuple(undo)]


_SOURCES: Final = tuple(itemgetter(*PERMUTATIONS[inverse(g)]) for g in SYMMETRIES)
"""For each symmetry, a getter of the cells of a board in the order they land on the image."""


def transform(board: Board, g: Symmetry) -> Board:
    """A copy of `board` with each mark moved from cell `c` to `map_cell(g, c)`."""
    return "".join(_SOURCES[g](board))


def images(board: Board) -> tuple[Board, ...]:
    """The board under each of the 8 symmetries, in symmetry order."""
    return tuple(["".join(source(board)) for source in _SOURCES])


def canonical(board: Board) -> tuple[Board, Symmetry]:
    """The least image of the board, and the first symmetry carrying the board onto it."""
    all_images = images(board)
    label = min(all_images)
    return label, Symmetry(all_images.index(label))


def stabiliser(board: Board) -> tuple[Symmetry, ...]:
    """The symmetries that leave the board unchanged."""
    return tuple(g for g in SYMMETRIES if transform(board, g) == board)
