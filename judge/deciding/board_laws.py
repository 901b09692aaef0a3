"""Laws of a draw that look at the board: squares that win or block, corners, the centre, edges,
and the squares beside or opposite the opponent's last move.

A MENACE that looks at the board (it takes a winning square whenever a bead names one, say)
draws by a law the beads alone do not give. Each law here weighs every bead of the box by a
feature of its square on the label (the board up to its symmetries, MENACE to move), and gives
each orbit present the share of the weight of its beads: "always" laws weigh the beads of the
squares with the feature 1 and the others 0 (where a bead has it; else the SPEC's law), "raised"
laws weigh them 1 + (RAISED - 1) times the feature. The features are the same for every square
of an orbit but for those of the opponent's last move, which the label knows only up to its
symmetries: every image of it under them is the same move, so a square's feature is the share
of those images that it stands beside, or opposite.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from reference.board import EMPTY, LINES, Board, Cell, O, X
from reference.symmetry import map_cell, stabiliser

from judge.deciding.draw_laws import CACHED, Law, Order

RAISED: Final = 4.0
"""Under the "raised" laws, how many times as likely a bead on a favoured square is drawn."""
CORNERS: Final = frozenset({0, 2, 6, 8})
CENTRE: Final = frozenset({4})
EDGES: Final = frozenset({1, 3, 5, 7})
BESIDE: Final = {cell: frozenset(c for c in range(9) if abs(c // 3 - cell // 3)
                                  + abs(c % 3 - cell % 3) == 1) for cell in range(9)}
"""The squares that share a side with each square."""
ALWAYS_NAMES: Final = ("a winning square whenever a bead names one",
                       "a blocking square whenever a bead names one",
                       "a winning square, else a blocking one, whenever a bead names one")
RAISED_NAMES: Final = tuple(f"odds raised {RAISED:g} times on {where}" for where in (
    "winning squares", "blocking squares", "corners", "the centre", "edges",
    "squares beside the opponent's last move", "the square opposite the opponent's last move"))
BOARD_NAMES: Final = (*ALWAYS_NAMES, *RAISED_NAMES)
"""The board laws, in the order computed: the "always" laws may give a draw no chance."""


def completing(board: Board, mark: str) -> frozenset[int]:
    """The empty squares that would complete a line of `mark`."""
    found = set()
    for line in LINES:
        marks = [board[c] for c in line]
        if marks.count(mark) == 2 and marks.count(EMPTY) == 1:
            found.add(line[marks.index(EMPTY)])
    return frozenset(found)


Feature = tuple[tuple[int, float], ...]
"""A feature of the squares: the squares that have it, each with its value (from 0 to 1)."""


@lru_cache(maxsize=CACHED)
def features(label: Board, answering: Cell | None) -> tuple[Feature, ...]:
    """The features of the label's squares, after the opponent's move `answering`: it wins, it
    blocks, a corner, the centre, an edge, the share of the images of the opponent's move under
    the label's symmetries it stands beside, and opposite."""
    beside, opposite = [0.0] * 9, [0.0] * 9
    if answering is not None:
        images = [map_cell(g, answering) for g in stabiliser(label)]
        for image in images:
            for cell in BESIDE[image]:
                beside[cell] += 1 / len(images)
            opposite[8 - image] += 1 / len(images)
    empty = [s for s in range(9) if label[s] == EMPTY]
    return (*(tuple((s, 1.0) for s in empty if s in squares) for squares in (
        completing(label, X), completing(label, O), CORNERS, CENTRE, EDGES)),
        *(tuple((s, share[s]) for s in empty if share[s]) for share in (beside, opposite)))


WIN, BLOCK = 0, 1
"""The features of the squares that win and block."""
RAISE: Final = RAISED - 1


def board_ratios(counts: tuple[int, ...], label: Board, squares: frozenset[Cell],
                 answering: Cell | None) -> tuple[float, ...]:
    """Each board law's likelihood ratio (BOARD_NAMES order) for a draw of `squares` (an orbit)
    from a box of these bead counts of each square 0-8, after the opponent's move `answering`
    (label frame; None for MENACE's first move)."""
    total = sum(counts)
    drawn = sum(counts[s] for s in squares)
    whole, part = [], []
    for feature in features(label, answering):
        every = this = 0.0
        for square, value in feature:
            if counts[square]:
                every += counts[square] * value
                if square in squares:
                    this += counts[square] * value
        whole.append(every)
        part.append(this)
    scale = total / drawn
    named = WIN if whole[WIN] else BLOCK
    return (*(part[k] / whole[k] * scale if whole[k] else 1.0 for k in (WIN, BLOCK, named)),
            *((drawn + RAISE * p) / (total + RAISE * w) * scale
              for p, w in zip(part, whole, strict=True)))


def board_laws(counts: tuple[int, ...], label: Board, orbit_of: tuple[int, ...], present: Order,
               answering: Cell | None) -> tuple[Law, ...]:
    """Each board law over the orbits present (BOARD_NAMES order): the SPEC's chance of each
    times the law's likelihood ratio for it."""
    total = sum(counts)
    columns = []
    for orbit in present:
        squares = frozenset(Cell(s) for s in range(9) if orbit_of[s] == orbit)
        chance = sum(counts[s] for s in squares) / total
        columns.append([chance * ratio for ratio in board_ratios(counts, label, squares,
                                                                 answering)])
    return tuple(zip(*columns, strict=True))
