"""Reading what a program prints: `new game`, boards, and matchbox dumps (SPEC sections 6, 8)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from reference.board import EMPTY, Board, Cell, O, X
from reference.notation import InvalidMoveTextError, move_name, parse_move

from judge.terms.boxes import BOX_COUNT
from judge.terms.options import BeadFormat, MoveFormat

DEFAULT_X: Final = "Xx"
DEFAULT_O: Final = "Oo0"
DEFAULT_EMPTY: Final = ". -_#"
BORDER_CHARS: Final = frozenset("-+=|_")
_QUOTED: Final = re.compile(r"'(.)'|\"(.)\"")
_GROUP: Final = re.compile(r"\[([^\[\]]*)\]")
_BEAD_SEPARATORS: Final = str.maketrans({c: " " for c in "[](){},;:=>'\"|"})
_BEAD_CHARS: Final = frozenset("0123456789LMRlmr")


class UnreadableError(ValueError):
    """Output that is not in any form the judge can read."""


class AmbiguousError(UnreadableError):
    """Output that SPEC 8 lets be read two ways: the message says which, and how to declare."""


@dataclass(frozen=True)
class Symbols:
    """Which characters mean X, O and empty in boards and labels."""

    table: dict[str, str]

    @staticmethod
    def declared(x: str = "", o: str = "", empty: str = "") -> Symbols:
        """The default symbols of SPEC 8, each replaced by the declared one where given."""
        table: dict[str, str] = {}
        for chars, mark in ((x or DEFAULT_X, X), (o or DEFAULT_O, O),
                            (empty or DEFAULT_EMPTY, EMPTY)):
            for char in chars:
                table[char] = mark
        return Symbols(table)

    def board(self, cells: str) -> str | None:
        """The cells in canonical symbols, or None if any is not a symbol."""
        table = self.table
        try:
            return "".join([table[c] for c in cells])
        except KeyError:
            return None


CANONICAL_SYMBOLS: Final = Symbols.declared()


def is_new_game(line: str) -> bool:
    """True for the line `new game` (case and surrounding space ignored)."""
    return line.strip().lower() == "new game"


def is_blank(line: str) -> bool:
    """True for a line of white space only."""
    return not line.strip()


def is_border(line: str, symbols: Symbols) -> bool:
    """True for a border line such as `-------` or `-+-+-`, which carries no cells.

    A line that reads as cells, with or without the spaces around it, is never a border:
    `_________` is the empty board, and in a dump the label of an empty box.
    """
    text = line.strip()
    return bool(text) and set(text) <= BORDER_CHARS and \
        read_cells(line, symbols) is None and read_cells(text, symbols) is None


def _list_cells(text: str) -> str | None:
    """The cells of a list form such as `['X', ' ', 'O']`, unparsed; None if not one."""
    quoted = _QUOTED.findall(text)
    if quoted:
        return "".join(a or b for a, b in quoted)
    inner = text.replace("[", " ").replace("]", " ")
    items = [item.strip() for item in inner.split(",")]
    if len(items) in (3, 9) and all(len(item) <= 1 for item in items):
        return "".join(item or " " for item in items)
    return None


def _raw_cells(line: str, spaces_empty: bool = True) -> str | None:
    """The cell characters of a row or one-line board, before symbols are read.

    Where spaces can stand for empty squares, a line's leading and trailing spaces are cells:
    `   X     ` is one line of nine, `X  ` a row, `X    ` a row of cells spaced out.
    """
    raw = line.rstrip("\r\n")
    text = raw.strip()
    if text.startswith("[") or text.startswith("("):
        return _list_cells(text)
    if "|" in text:
        return "".join(piece.strip() or " " for piece in text.strip("|").split("|"))
    if " " not in raw:
        return text
    if spaces_empty and len(raw) in (5, 17) and all(c == " " for c in raw[1::2]):
        return raw[::2]
    tokens = text.split()
    if all(len(token) == 1 for token in tokens) and len(tokens) in (3, 9) and \
            not (spaces_empty and len(raw) in (3, 9)):
        return "".join(tokens)
    return raw if spaces_empty and len(raw) in (3, 9) else None


def ambiguity(line: str, symbols: Symbols) -> str:
    """Why a line may be read two ways, and how to say which, or "" when it may not.

    The judge settles it by the form of the boards read before (a game's first board, with
    one X, is never ambiguous); this is for a line met before any board.
    """
    raw = line.rstrip("\r\n")
    tokens = raw.split()
    empties = [c for c, mark in symbols.table.items() if mark == EMPTY]
    if " " in empties and len(empties) > 1 and len(raw) == 9 and len(tokens) == 3 and \
            all(len(token) == 1 for token in tokens):
        return (f"{raw!r} is either a row of three cells separated by spaces or one line of "
                "nine cells with spaces for empty squares; declare the empty square in "
                "submission.toml: empty = \" \" for one line of nine, or the symbol used "
                "(empty = \".\", say) for rows")
    return ""


def read_cells(line: str, symbols: Symbols) -> str | None:
    """A row (3 cells) or a whole board (9 cells) in canonical symbols, or None."""
    raw = _raw_cells(line, symbols.table.get(" ") == EMPTY)
    if raw is None or len(raw) not in (3, 9) or ambiguity(line, symbols):
        return None
    return symbols.board(raw)


class BoardForm(StrEnum):
    """How a program prints its boards, as far as an ambiguous line needs to know."""

    LINE = "one line of nine cells"
    ROWS = "three rows of three cells"


def _resolved(line: str, symbols: Symbols, form: BoardForm) -> str | None:
    """An ambiguous line read in the form the program's boards have had so far."""
    raw = line.rstrip("\r\n")
    return symbols.board(raw if form is BoardForm.LINE else "".join(raw.split()))


class BoardAssembler:
    """Collects rows, one line at a time, until a whole board has been read."""

    def __init__(self, symbols: Symbols, known: dict[str, str | None] | None = None,
                 form: BoardForm | None = None) -> None:
        self.symbols = symbols
        self.rows: list[str] = []
        self.known = {} if known is None else known
        """Lines already read, with their cells: boards repeat a lot, so a shared dict pays."""
        self.form = form
        """The form of the boards read so far, which settles an ambiguous line."""

    def take(self, line: str) -> Board | None:
        """The board completed by this line, or None if more rows are needed."""
        if line in self.known:
            cells = self.known[line]
        else:
            if is_blank(line) and (self.symbols.table.get(" ") != EMPTY
                                   or len(line.rstrip("\r\n")) not in (3, 5, 9, 17)):
                return None
            cells = read_cells(line, self.symbols)
            if len(self.known) < 100_000:
                self.known[line] = cells
        if cells is None:
            if is_border(line, self.symbols):
                return None
            why = ambiguity(line, self.symbols)
            if not why:
                raise UnreadableError(f"not a board row: {line!r}")
            if self.form is None or (self.form is BoardForm.LINE and self.rows):
                raise AmbiguousError(why)
            cells = _resolved(line, self.symbols, self.form)
            if cells is None:
                raise UnreadableError(f"not a board row: {line!r}")
        if len(cells) == 9:
            if self.rows:
                raise UnreadableError(f"a whole board in the middle of one: {line!r}")
            self.form = BoardForm.LINE
            return cells
        self.rows.append(cells)
        if len(self.rows) < 3:
            return None
        board = "".join(self.rows)
        self.rows = []
        self.form = BoardForm.ROWS
        return board

    @property
    def started(self) -> bool:
        """True when some rows of a board have been read."""
        return bool(self.rows)


def move_text(cell: Cell, moves: MoveFormat) -> str:
    """How the opponent types `cell`: `LL`..`RR`, a digit 1-9, or a digit 0-8."""
    if moves is MoveFormat.DIGITS:
        return str(cell + 1)
    if moves is MoveFormat.DIGITS0:
        return str(cell)
    return move_name(cell)


def move_of(text: str, moves: MoveFormat) -> Cell | None:
    """The square a move typed in the declared format names, or None: `move_text` undone."""
    if moves is MoveFormat.LETTERS:
        try:
            return parse_move(text)
        except InvalidMoveTextError:
            return None
    text = text.strip()
    if text.isdigit():
        cell = int(text) - (1 if moves is MoveFormat.DIGITS else 0)
        return Cell(cell) if 0 <= cell <= 8 else None
    return None


Counts = tuple[int, ...]
"""Beads of a box, as the number of beads of each square 0-8."""


@dataclass(frozen=True)
class BoxLine:
    """One box as printed: its label (None when unlabelled) and its raw beads."""

    label: str | None
    """The label in canonical symbols, in the orientation printed."""
    beads: str
    """The bead text after the label, separators turned into spaces."""
    text: str


def _split_label(line: str, symbols: Symbols) -> tuple[str | None, str]:
    """The label at the start of a box line (canonical symbols) and the rest of the line."""
    head, _, rest = line.strip().partition(" ")
    token = head.strip("[](){}'\":,")
    if len(token) == 9:
        label = symbols.board(token)
        if label is not None:
            return label, rest
    text = line.strip()
    if text[:1] in "[(" and ("'" in text or '"' in text):
        matches = list(_QUOTED.finditer(text))
        if len(matches) >= 9:
            label = symbols.board("".join(m.group(1) or m.group(2) for m in matches[:9]))
            if label is not None:
                return label, text[matches[8].end():]
    found: list[str] = []
    for index, char in enumerate(text):
        if char in " |,[]()'\":":
            continue
        if char not in symbols.table or not (char.isalpha() or char in "._-#0"):
            break
        found.append(char)
        if len(found) == 9:
            label = symbols.board("".join(found))
            rest = text[index + 1:]
            if label is not None and (not rest or not rest[0].isalnum()
                                      or _runs_into(label, rest)):
                return label, rest
            break
    return None, line


def _runs_into(label: str, rest: str) -> bool:
    """True when the beads after a label's nine cells ran into it (`X...O....1258`): a label is
    always nine cells, and one with as many Xs as Os followed by beads alone is no run of beads
    (nine beads of square 0 would read as nine Os)."""
    return label.count(X) == label.count(O) and \
        set("".join(rest.translate(_BEAD_SEPARATORS).split())) <= _BEAD_CHARS


def read_box_line(line: str, symbols: Symbols) -> BoxLine:
    """One line of a dump: a label and beads, or beads alone."""
    label, rest = _split_label(line, symbols)
    beads = rest.translate(_BEAD_SEPARATORS)
    compact = "".join(beads.split())
    if (label is None and not compact) or not set(compact) <= _BEAD_CHARS:
        raise UnreadableError(f"not a matchbox: {line!r}")
    return BoxLine(label, beads, line)


def split_one_line_dump(line: str) -> list[str] | None:
    """The bead lists of a dump printed on one line, or None: each list in brackets,
    `[[0, 2], [4, 8, 4], ...]`, or each box's beads run together and the 304 boxes separated
    by spaces, `02 484 ...`."""
    text = line.strip()
    if not text.startswith("[["):
        words = text.split()
        if len(words) == BOX_COUNT and all(set(word) <= _BEAD_CHARS for word in words):
            return words
        return None
    groups = _GROUP.findall(text)
    return groups if len(groups) > 9 else None


class BeadError(ValueError):
    """A bead that is not a square in the declared numbering."""


_DIGITS_0: Final = "012345678"
_DIGITS_1: Final = "123456789"
_LETTER_CELLS: Final = {move_name(Cell(cell)): Cell(cell) for cell in range(9)}


def bead_squares(beads: str, numbering: BeadFormat) -> tuple[Cell, ...]:
    """The square of each bead in the bead text, in the printed frame and the printed order."""
    compact = "".join(beads.split())
    if numbering is BeadFormat.LETTERS:
        upper = compact.upper()
        if len(upper) % 2:
            raise BeadError(f"odd number of letters in beads {beads.strip()!r}")
        squares = []
        for i in range(0, len(upper), 2):
            cell = _LETTER_CELLS.get(upper[i:i + 2])
            if cell is None:
                raise BeadError(f"bead {upper[i:i + 2]!r} is not a square LL..RR")
            squares.append(cell)
        return tuple(squares)
    digits = _DIGITS_1 if numbering is BeadFormat.ONE_TO_NINE else _DIGITS_0
    try:
        return tuple(Cell(digits.index(c)) for c in compact)
    except ValueError:
        bad = next(c for c in compact if c not in digits)
        raise BeadError(f"bead {bad!r} is not a square {digits[0]}-{digits[-1]}") from None


def bead_counts(beads: str, numbering: BeadFormat) -> Counts:
    """The number of beads of each square 0-8 in the bead text, in the printed frame."""
    counts = [0] * 9
    for square in bead_squares(beads, numbering):
        counts[square] += 1
    return tuple(counts)


def guess_numbering(bead_texts: list[str], labels: list[str | None]) -> BeadFormat:
    """The bead numbering of a first dump: letters, 0-8 or 1-9, from what appears in it."""
    joined = "".join("".join(b.split()) for b in bead_texts)
    if joined and all(c in "LMRlmr" for c in joined):
        return BeadFormat.LETTERS
    has_zero, has_nine = "0" in joined, "9" in joined
    if has_zero != has_nine:
        return BeadFormat.ZERO_TO_EIGHT if has_zero else BeadFormat.ONE_TO_NINE
    if has_zero:
        return BeadFormat.ZERO_TO_EIGHT
    for numbering in (BeadFormat.ZERO_TO_EIGHT, BeadFormat.ONE_TO_NINE):
        if all(label is None or _beads_legal(label, bead_counts(beads, numbering))
               for label, beads in zip(labels, bead_texts, strict=True)):
            return numbering
    return BeadFormat.ZERO_TO_EIGHT


def _beads_legal(label: str, counts: Counts) -> bool:
    """True when every bead names an empty square of the label."""
    return all(not n or label[c] == EMPTY for c, n in enumerate(counts))
