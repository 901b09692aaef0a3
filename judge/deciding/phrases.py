"""Phrases the judge's messages share: why a game is over, the symmetry between two boards,
the boxes a dump holds for each move, and the hints a check gives by itself."""

from __future__ import annotations

from typing import Final

from reference.board import EMPTY, LINES, Board, X, winner
from reference.symmetry import SYMMETRIES, Symmetry, transform

TRANSFORMS: Final = {
    (0, 1): "the identity",
    (2, 5): "a rotation by 90 degrees clockwise",
    (8, 7): "a rotation by 180 degrees",
    (6, 3): "a rotation by 90 degrees anticlockwise",
    (2, 1): "a reflection in the vertical axis (left and right swapped)",
    (6, 7): "a reflection in the horizontal axis (top and bottom swapped)",
    (0, 3): "a reflection in the diagonal from the top left",
    (8, 5): "a reflection in the diagonal from the top right",
}
"""Each symmetry of the square by where it takes the top-left and top-middle squares."""

NO_EMPTY_BOX: Final = (
    "no box is ever empty: when a draw takes a box's last bead, three beads go into it at "
    "once, each an empty square of its label at random (SPEC section 5)")
"""The rule an empty box in a dump breaks, under the default refill reading."""
BEAD_FORMS: Final = (
    "the judge reads beads as cell numbers 0 to 8 or 1 to 9, row by row from the top left, or "
    "as squares LL to RR, spaced, bracketed or run together (SPEC section 8)")
"""The rule for beads written in a form the judge cannot read."""
ROW_FIRST: Final = (
    "a move is typed row first, then column (SPEC section 2): LR is the top right corner, "
    "square 2, and RL the bottom left, square 6")
"""The rule a move read column first breaks."""
GAMES_ASKED: Final = ("the program plays as many games as the first line it reads says, then "
                      "exits (SPEC section 3)")
"""The rule a program that plays too many or too few games breaks."""
EXITS: Final = ("once the matchboxes of the last game are printed, the program exits with "
                "status 0 (SPEC section 3), leaving nothing running")
"""The rule a program that does not end well after its last dump breaks."""
ONE_LINE_A_MOVE: Final = (
    "whatever the program printed is flushed before it waits for a move, and it reads one line "
    "for each move (SPEC section 3)")
"""The rule a program waiting for input before it shows its move breaks."""
NUMBERINGS: Final = (("beads", "0-8"), ("beads", "1-9"), ("beads", "letters"))
"""The bead numberings a rejection at a dump might be read under instead."""
ON_DRAW: Final = ("refill", "on-draw")
"""The other reading of the refill rule (SPEC section 8)."""


def symmetry_between(first: Board, second: Board) -> str:
    """The symmetry of the square that carries the board `first` onto `second`, in words."""
    for g in SYMMETRIES:
        if transform(first, g) == second:
            return name_of(g)
    return "no symmetry of the square"


def name_of(g: Symmetry) -> str:
    """A symmetry of the square in words: a rotation by 90 or 180 degrees, a reflection."""
    def where(cell: int) -> int:
        return transform(X + EMPTY * 8 if cell == 0 else EMPTY + X + EMPTY * 7, g).index(X)
    return TRANSFORMS[(where(0), where(1))]


def why_over(board: Board) -> str:
    """Why a game is over on `board`: the line that won it, or a full board."""
    side = winner(board)
    if side is None:
        return "the board is full" if EMPTY not in board else "it is not over"
    line = next(line for line in LINES if all(board[c] == side for c in line))
    return f"{side} has three in a row on squares {', '.join(str(c) for c in line)}"


EIGHT_LINES: Final = "all 8 lines count: 3 rows, 3 columns and 2 diagonals"


def missed_line(board: Board) -> str:
    """The hint for a program that went on with a game that was over on `board`."""
    if winner(board) is None:
        return ("a game also ends when the board is full: the program should stop asking "
                "for moves and print its matchboxes")
    return ("a game ends at once when a side has three in a row: check the program's test for "
            f"a line, {EIGHT_LINES}")


def counts_by_move(labels: list[Board]) -> str:
    """How many of the 304 boxes a dump holds for each of MENACE's four moves."""
    found = [0, 0, 0, 0]
    for label in labels:
        found[label.count(X)] += 1
    return ", ".join(f"{got} of {whole} for MENACE's {which} move" for got, whole, which in
                     zip(found, (1, 12, 108, 183), ("first", "second", "third", "fourth"),
                         strict=True))
