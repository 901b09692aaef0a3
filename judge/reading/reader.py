"""The judge's side of the conversation: lines sent and read, with their transcript, and the
lines read as boards and matchbox dumps."""

from __future__ import annotations

from collections import deque
from collections.abc import Container, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

from reference.board import EMPTY, Board

from judge.reading.formats import (
    AmbiguousError,
    BoardAssembler,
    BoardForm,
    BoxLine,
    Symbols,
    UnreadableError,
    is_blank,
    is_border,
    is_new_game,
    read_box_line,
    read_cells,
    split_one_line_dump,
)
from judge.reading.record import Bookmark, Record
from judge.running.patience import Silence
from judge.running.watch import Watch
from judge.terms.boxes import BOX_COUNT, needs_box
from judge.terms.stops import (
    InputClosed,
    OutputEnded,
    Stall,
    Stalled,
    fail,
)
from judge.terms.verdicts import Failure, Place

TRANSCRIPT_TAIL: Final = 16
"""Last lines of a transcript cut past its head, kept for the report, unless the whole
transcript is asked for."""
TRANSCRIPT_BYTES: Final = 16 << 20
"""Memory for the first lines of a transcript (a few thousand games' worth): a rejection's
transcript is read again under other declarations (judge/deciding/rereading.py); past it,
only the last ones are kept, within TAIL_BYTES."""
TAIL_BYTES: Final = 2 << 20
"""Memory for the last lines of the transcript, or of a game's log."""
TAIL_LINES: Final = 10_000
"""The most last lines of a whole transcript kept after a cut."""
GAME_LOG_BYTES: Final = 256 << 10
"""Memory for the first lines of a game's log; past it, only the last GAME_LOG_TAIL are kept."""
GAME_LOG_TAIL: Final = 100
REST_OF_DUMP: Final = 100_000
"""The most box lines past a dump's 304th that are counted (a flood is the output limit's)."""


def transcript_record(whole: bool) -> Record:
    """A record for the transcript: its head, then, past it, as many last lines as a whole
    transcript keeps, or the report's last lines."""
    return Record(head_bytes=TRANSCRIPT_BYTES, tail_lines=TAIL_LINES if whole else TRANSCRIPT_TAIL,
                  tail_bytes=TAIL_BYTES)


def game_log() -> Record:
    """A record for one game's lines, without its dump."""
    return Record(head_bytes=GAME_LOG_BYTES, tail_lines=GAME_LOG_TAIL, tail_bytes=TAIL_BYTES)


@dataclass(frozen=True)
class Position:
    """Where the conversation stood: this game's log and where it stood, the previous game's
    log, and where the transcript stood."""

    log: Record
    logged: Bookmark
    last_log: Record
    transcript: Bookmark


class Instead(Exception):
    """A line that came where a board or a dump should have begun, and begins neither."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class Reader:
    """Sends lines to the program and reads its lines back, as lines, boards and dumps."""

    def __init__(self, watch: Watch, symbols: Symbols, *, keep_transcript: bool) -> None:
        self.watch = watch
        """The program's channel, waited on within the run's limits."""
        self.channel = watch.channel
        self.symbols = symbols
        self.transcript = transcript_record(keep_transcript)
        self.game_log = game_log()
        """This game's lines so far, without its dump."""
        self.last_game_log = game_log()
        """The previous game's lines, without its dump."""
        self.ahead: deque[tuple[str, bool]] = deque()
        """Lines read ahead of their turn, each with whether the transcript has it already."""
        self.in_dump = False
        self.known_rows: dict[str, str | None] = {}
        self.board_form: BoardForm | None = None
        """The form of the boards printed so far: one line, or rows."""
        self.dump_cut = False
        """True when the last dump read stopped at its 304th line, whatever came after it."""

    def new_game_log(self) -> None:
        """Start the log of a new game."""
        self.last_game_log, self.game_log = self.game_log, game_log()

    def back_to_last_game(self) -> None:
        """Show the previous game's log again: a fault of its dump came to light in this one."""
        self.game_log = self.last_game_log

    def position(self) -> Position:
        """Where the conversation stands now."""
        return Position(self.game_log, self.game_log.bookmark(), self.last_game_log,
                        self.transcript.bookmark())

    def rewind(self, position: Position, earlier_game: bool) -> None:
        """Show the game log and the transcript as they stood at `position`: the log of the
        game then played, or, for `earlier_game`, of the game before it."""
        if earlier_game:
            self.game_log = position.last_log
        else:
            position.log.rewind(position.logged)
            self.game_log = position.log
        self.transcript.rewind(position.transcript)

    # -- lines ---------------------------------------------------------------------------

    def send(self, text: str) -> None:
        """Send a line to the program and note it in the transcript."""
        self.transcript.append("> " + text)
        self.game_log.append("> " + text)
        if not self.channel.send_line(text):
            self.transcript.append("  (the program no longer reads its input)")
            raise InputClosed()

    def _received(self, text: str, *, noted: bool = False) -> str:
        """Note a line the program printed (unless already noted in the transcript)."""
        line = "< " + text
        if not noted:
            self.transcript.append(line)
        if not self.in_dump:
            self.game_log.append(line)
        return text

    def line(self, place: Place) -> str:
        """The next line of output; stops the run on its end, on silence, or at the output limit."""
        if self.ahead:
            text, noted = self.ahead.popleft()
            return self._received(text, noted=noted)
        ready = self.channel.read_ready(1)
        if ready:  # read already: no wait to watch over
            self.watch.took_line()
            return self._received(ready[0])
        got = self.watch.line()
        if isinstance(got, str):
            return self._received(got)
        if not isinstance(got, Silence):
            raise OutputEnded()
        reading = got.last.reading if got.last else None
        waiting = reading is not None and reading.reading_stdin
        described = reading.describe(self.channel.transport) if reading else "it printed nothing"
        raise Stalled(Stall(place, got.waited, described, waiting, got.cpu_seconds))

    def content_line(self, place: Place) -> str:
        """The next line that is neither blank nor a border line."""
        while True:
            text = self.line(place)
            if not is_blank(text) and not is_border(text, self.symbols):
                return text

    def final_line(self, grace: float) -> str | Silence | None:
        """A line printed after the last dump; None when the output ends; the silence that
        ended the wait when the program went on for `grace` seconds (of its CPU time, or
        without progress) without printing."""
        if self.ahead:
            text, noted = self.ahead.popleft()
            if not noted:
                self.transcript.append("< " + text)
            return text
        got = self.watch.line(idle_seconds=grace)
        if isinstance(got, str):
            self.transcript.append("< " + got)
            return got
        return got if isinstance(got, Silence) else None

    def _note_received(self, lines: list[str]) -> None:
        """Add lines the program printed to the transcript."""
        self.transcript.extend(["< " + line for line in lines])

    # -- boards and boxes ----------------------------------------------------------------

    def board(self, place: Place) -> Board:
        """The next board printed: `Instead` when its first line is not one, a presentation
        failure when a board begun cannot be read."""
        assembler = BoardAssembler(self.symbols, self.known_rows, self.board_form)
        while True:
            text = self.line(place)
            try:
                board = assembler.take(text)
            except UnreadableError as error:
                if not assembler.started:
                    raise Instead(text) from None
                fail(Failure(None, place, "a board",
                             str(error) if isinstance(error, AmbiguousError) else text))
                raise
            if board is not None:
                self.board_form = assembler.form
                return board

    def as_box(self, text: str) -> BoxLine | None:
        """The line read as a matchbox, if it can be."""
        try:
            box = read_box_line(text, self.symbols)
        except UnreadableError:
            return None
        if (box.label is None or not box.beads.strip()) and \
                read_cells(text, self.symbols) is not None:
            return None  # a board (or a row of one) rather than a box
        return box

    def _empty_box_line(self, text: str) -> bool:
        """True when the line is a box's label with no beads: an empty box, not a board.

        It reads like a board, but the board of a finished game is never the label of a box,
        which has no three in a row and three or more empty squares. The dump check then
        decides whether the empty box is allowed (only under the on-draw reading).
        """
        cells = read_cells(text, self.symbols)
        return (cells is not None and len(cells) == 9 and needs_box(cells)
                and cells.count(EMPTY) >= 3)

    @contextmanager
    def dump(self) -> Iterator[None]:
        """Lines read inside are a dump's: kept in the transcript, not in the game's log."""
        self.in_dump = True
        try:
            yield
        finally:
            self.in_dump = False

    def dump_texts(self, first: str, place: Place, known: Container[str]) -> list[str]:
        """The lines of the dump that begins with the line `first`; `Instead` when a dump
        cannot begin so.

        `known` holds box lines already read in earlier dumps, taken without reading them again.
        """
        self.dump_cut = False
        one_line = split_one_line_dump(first)
        if one_line is not None:
            return [f"[{group}]" for group in one_line]
        if not self.is_box_line(first):
            raise Instead(first)
        texts = [first]
        while len(texts) < BOX_COUNT:
            chunk = self.channel.read_ready(BOX_COUNT - len(texts))
            noted = not chunk
            if noted:
                try:
                    chunk = [self.line(place)]
                except OutputEnded:
                    break
            if all(map(known.__contains__, chunk)):  # the usual dump: lines seen before
                texts.extend(chunk)
                if not noted:
                    self._note_received(chunk)
                continue
            for index, text in enumerate(chunk):
                if text in known:
                    texts.append(text)
                elif is_new_game(text):  # the next game's: read again in its turn
                    if not noted:
                        self._note_received(chunk[:index])
                    self.ahead.extend((line, noted) for line in chunk[index:])
                    return texts
                elif not is_blank(text) and not is_border(text, self.symbols):
                    texts.append(text)
            if not noted:
                self._note_received(chunk)
        self.dump_cut = len(texts) == BOX_COUNT
        return texts

    def is_box_line(self, text: str) -> bool:
        """True when the line reads as a matchbox, an empty one included."""
        return self.as_box(text) is not None or self._empty_box_line(text)

    def rest_of_dump(self, idle: float) -> list[str]:
        """The box lines printed after the 304th line of the dump just read, so that the dump is
        counted as printed: up to the first line that is no box (read again in its turn), the
        end of the output, or a silence of `idle` seconds; at most REST_OF_DUMP of them."""
        rest: list[str] = []
        if not self.dump_cut:
            return rest
        with self.dump():
            while len(rest) < REST_OF_DUMP:
                if self.ahead:
                    text, noted = self.ahead.popleft()
                    self._received(text, noted=noted)
                else:
                    got = self.watch.line(idle_seconds=idle)
                    if not isinstance(got, str):
                        break
                    text = self._received(got)
                if self.is_box_line(text):
                    rest.append(text)
                elif not is_blank(text) and not is_border(text, self.symbols):
                    self.ahead.appendleft((text, True))
                    break
        self.dump_cut = False
        return rest
