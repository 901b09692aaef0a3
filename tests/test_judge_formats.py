"""Reading boards and dumps in every form of SPEC sections 6 and 8."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.board import Board, Cell
from reference.symmetry import map_cell, transform

from judge.deciding.dumps import BoxReader
from judge.reading.formats import (
    CANONICAL_SYMBOLS,
    AmbiguousError,
    BoardAssembler,
    BoardForm,
    Symbols,
    UnreadableError,
    bead_counts,
    guess_numbering,
    is_border,
    move_text,
    read_box_line,
    read_cells,
    split_one_line_dump,
)
from judge.strategies import boards, symmetries
from judge.terms.boxes import BOX_COUNT, box_labels, orientations
from judge.terms.options import BeadFormat, MoveFormat, RefillRule

X_SYMBOLS = ("X", "x")
O_SYMBOLS = ("O", "o", "0")
EMPTY_SYMBOLS = (".", "-", "_", "#")


def spell(board: Board, x: str, o: str, empty: str) -> str:
    """The board's cells in other symbols."""
    return board.replace("X", "\0").replace("O", "\1").replace(".", empty) \
        .replace("\0", x).replace("\1", o)


def render(board: Board, form: str, x: str, o: str, empty: str) -> list[str]:
    """The board printed in one of the forms SPEC section 8 allows."""
    cells = spell(board, x, o, empty)
    rows = [cells[i:i + 3] for i in (0, 3, 6)]
    if form == "spaced":
        return [" ".join(r) for r in rows]
    if form == "compact":
        return rows
    if form == "one-line":
        return [cells]
    if form == "drawing":
        return ["-------", *("|" + "|".join(r) + "|" for r in rows), "-------"]
    if form == "crossed":
        return [rows[0][0] + "|" + rows[0][1] + "|" + rows[0][2], "-+-+-",
                "|".join(rows[1]), "-+-+-", "|".join(rows[2])]
    if form == "list":
        return [repr(list(cells))]
    assert form == "nested"
    return [repr([list(r) for r in rows])]


def read_all(lines: list[str], symbols: Symbols = CANONICAL_SYMBOLS) -> Board:
    """The board the lines spell, read one line at a time."""
    assembler = BoardAssembler(symbols)
    for line in lines:
        board = assembler.take(line)
        if board is not None:
            return board
    raise AssertionError(f"no whole board in {lines}")


FORMS = ("spaced", "compact", "one-line", "drawing", "crossed", "list", "nested")


@given(boards(), st.sampled_from(FORMS), st.sampled_from(X_SYMBOLS), st.sampled_from(O_SYMBOLS),
       st.sampled_from(EMPTY_SYMBOLS))
def test_every_board_form_reads_back(board: Board, form: str, x: str, o: str, empty: str) -> None:
    """A board printed in any allowed form and symbols reads back as the same board."""
    assert read_all(render(board, form, x, o, empty)) == board


@given(boards())
def test_space_as_empty_reads_in_bar_and_list_forms(board: Board) -> None:
    """Spaces as empty cells are read where bars or quotes delimit the cells."""
    assert read_all(render(board, "drawing", "X", "0", " ")) == board
    assert read_all(render(board, "list", "X", "O", " ")) == board


def test_declared_symbols_replace_the_defaults() -> None:
    """A manifest's symbols are read, and the defaults they replace are not."""
    symbols = Symbols.declared(x="A", o="B", empty="0")
    assert read_all(["A00", "0B0", "000"], symbols) == "X...O...."
    with pytest.raises(UnreadableError):
        BoardAssembler(symbols).take("X . .")


def test_a_line_that_is_no_board_is_unreadable() -> None:
    """Prose where a board belongs is a presentation error, quoted."""
    with pytest.raises(UnreadableError, match="MENACE moves"):
        BoardAssembler(CANONICAL_SYMBOLS).take("MENACE moves")


def test_border_lines_are_told_from_rows() -> None:
    """Border lines carry no cells; a row of three dashes is three empty cells."""
    symbols = CANONICAL_SYMBOLS
    assert is_border("-------", symbols) and is_border("-+-+-", symbols)
    assert is_border("+---+---+", symbols) and is_border("_______", symbols)
    assert not is_border("X . .", symbols)
    assert read_all(["---", "-X-", "---"]) == "....X...."


@pytest.mark.parametrize("line", ["_________", "_________ ", "---------", "___", "  ___"])
def test_a_line_of_border_characters_that_reads_as_cells_is_no_border(line: str) -> None:
    """A line is a border only where no board reading fits: nine `_` are the empty board (an
    empty box's label in a dump), three a row, with or without the spaces around them."""
    assert not is_border(line, CANONICAL_SYMBOLS)


@pytest.mark.parametrize("moves,expected", [("letters", ("LL", "MM", "RL", "RR")),
                                            ("digits", ("1", "5", "7", "9")),
                                            ("digits0", ("0", "4", "6", "8"))])
def test_moves_are_typed_in_the_declared_form(moves: str, expected: tuple[str, ...]) -> None:
    """Cells 0, 4, 6, 8 as the opponent types them: row letter first, then column."""
    assert tuple(move_text(Cell(c), MoveFormat(moves)) for c in (0, 4, 6, 8)) == expected


def test_there_are_304_boxes_in_2_to_8_orientations() -> None:
    """SPEC 4: 304 boxes; every orientation of a label maps back onto it."""
    assert len(box_labels()) == BOX_COUNT
    assert 304 * 1 < len(orientations()) <= 304 * 8
    for image, orientation in orientations().items():
        assert transform(image, orientation.to_label) == orientation.label


@given(symmetries(), st.sampled_from(box_labels()), st.sampled_from(("spaced", "compact", "list")))
def test_a_box_line_in_any_orientation_maps_beads_to_the_label(g: int, label: Board,
                                                               form: str) -> None:
    """Beads printed on a rotated label land on the same squares of the canonical label."""
    empties = [c for c in range(9) if label[c] == "."]
    image = transform(label, g)  # type: ignore[arg-type]
    printed_beads = [map_cell(g, c) for c in empties]  # type: ignore[arg-type]
    beads = {"spaced": " ".join(map(str, printed_beads)),
             "compact": "".join(map(str, printed_beads)),
             "list": repr(printed_beads)}[form]
    box = read_box_line(f"{image} {beads}", CANONICAL_SYMBOLS)
    assert box.label == image
    reader = BoxReader(CANONICAL_SYMBOLS, BeadFormat.ZERO_TO_EIGHT, RefillRule.ON_EMPTY)
    reading = reader.read(f"{image} {beads}")
    assert (reading.printed, reading.problem) == (image, None)
    assert (reading.label, reading.counts) == (label, tuple(1 if c in empties else 0
                                                            for c in range(9)))


def test_beads_in_every_numbering() -> None:
    """Beads as 0-8, 1-9 and LL..RR give the same counts; a bad bead is quoted."""
    expected = (1, 0, 0, 0, 2, 0, 0, 0, 1)
    assert bead_counts("0 4 4 8", BeadFormat.ZERO_TO_EIGHT) == expected
    assert bead_counts("1 5 5 9", BeadFormat.ONE_TO_NINE) == expected
    assert bead_counts("LL MM MM RR", BeadFormat.LETTERS) == expected
    with pytest.raises(ValueError, match="'9'"):
        bead_counts("0 9", BeadFormat.ZERO_TO_EIGHT)


def test_numbering_is_guessed_from_the_first_dump() -> None:
    """0 means 0-8, 9 means 1-9; otherwise the numbering under which every bead is legal."""
    assert guess_numbering(["0 1"], ["........."]) == "0-8"
    assert guess_numbering(["9 1"], ["........."]) == "1-9"
    assert guess_numbering(["LL MR"], ["........."]) == "letters"
    assert guess_numbering(["1 2"], ["X........"]) == "0-8"
    assert guess_numbering(["1 3"], [".X......."]) == "1-9"


def test_unlabelled_and_one_line_dumps_are_read() -> None:
    """A bare bead list is a box without label; a one-line dump splits into its bead lists."""
    assert read_box_line("[0, 2, 6]", CANONICAL_SYMBOLS).label is None
    groups = split_one_line_dump("[" + ", ".join(["[0, 1]"] * 304) + "]")
    assert groups is not None and len(groups) == 304
    with pytest.raises(UnreadableError):
        read_box_line("\x00\x01garbage", CANONICAL_SYMBOLS)


def test_spaces_for_empty_squares_are_cells_in_every_form() -> None:
    """SPEC 8: a space for an empty square, with or without separators, in rows or one line."""
    assert read_cells("   X     ", CANONICAL_SYMBOLS) == "...X....."
    assert read_cells("X  ", CANONICAL_SYMBOLS) == "X.."
    assert read_cells("X    ", CANONICAL_SYMBOLS) == "X.."
    assert [BoardAssembler(CANONICAL_SYMBOLS).take(line) for line in ("   ",)] == [None]
    assembler = BoardAssembler(CANONICAL_SYMBOLS)
    assert [assembler.take(line) for line in ("X  ", " O ", "   ")][-1] == "X...O...."
    with pytest.raises(AmbiguousError, match='declare the empty square'):
        BoardAssembler(CANONICAL_SYMBOLS).take("X   O   X")
    assert BoardAssembler(CANONICAL_SYMBOLS, form=BoardForm.LINE).take("X   O   X") == "X...O...X"
    rows = BoardAssembler(CANONICAL_SYMBOLS, form=BoardForm.ROWS)
    assert [rows.take(line) for line in ("X   O   X", "   ", "   ")][-1] == "XOX......"
    assert read_cells("X   O   X", Symbols.declared(empty=" ")) == "X...O...X"
    assert read_cells("X   O   X", Symbols.declared(empty=".")) == "XOX"
