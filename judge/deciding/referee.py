"""The referee: plays every game with a program through a channel, applying the checks as its
output arrives, and says how the run went, as a value."""

from __future__ import annotations

import threading
from collections.abc import Callable, Container
from dataclasses import dataclass, replace
from typing import Final

from reference.board import EMPTY_BOARD, Board, Cell, X, is_over
from reference.outcome import Outcome, Tally, outcome_of
from reference.symmetry import stabiliser

from judge.deciding import checks
from judge.deciding.checker import Checker, InProcess
from judge.deciding.deferred import Deferred
from judge.deciding.dumps import BoxReader, DumpReading, box_reader
from judge.deciding.ledger import DrawMade, GameLearnt
from judge.deciding.opponents import Knowledge, Opponent
from judge.deciding.phrases import BEAD_FORMS, NUMBERINGS
from judge.deciding.randomness import Evidence
from judge.reading.formats import Symbols, is_blank, is_new_game, move_text, read_cells
from judge.reading.reader import Instead, Position, Reader
from judge.running.channel import Channel
from judge.running.patience import Silence, patience_for
from judge.running.watch import Watch
from judge.terms.boxes import Draw, draw_for_move, in_label_frame
from judge.terms.manifest import Dialect
from judge.terms.options import RefillRule
from judge.terms.settings import Settings
from judge.terms.stops import Failed, Finished, HungAfterEnd, Stalled, Stop, fail
from judge.terms.verdicts import Failure, Place


@dataclass(frozen=True)
class Coverage:
    """What the run exercised: MENACE's results in the games it played (those counted as
    played, every check passed), refills, symmetric boxes, boxes drawn from."""

    outcomes: Tally = Tally()
    refills: int = 0
    symmetric_draws: int = 0
    boxes_drawn: int = 0


@dataclass(frozen=True)
class Mark:
    """Where the run stood when checks fell due: a failure found later is reported as here."""

    place: Place
    position: Position
    coverage: Coverage
    moves: tuple[int, int]
    """Moves sent: the games begun, and the moves of the last."""


@dataclass(frozen=True)
class Played:
    """How a run went, as the referee saw it: what stopped it, where, and what it showed."""

    stop: Stop | None
    """What stopped the run; None when the judge itself failed (`fault` says how)."""
    fault: str
    place: Place
    games_played: int
    moves: tuple[tuple[int, ...], ...]
    """O's moves sent, game by game."""
    coverage: Coverage
    bead_draws: Evidence
    refill_beads: Evidence
    labelled: bool
    """True when the dumps label their boxes (else some checks cannot be made)."""
    transcript: tuple[str, ...]
    game_log: tuple[str, ...]
    """The lines of the last game played, without its dump."""
    typed_move_read: bool = False
    """True once the program printed the true board after the first move the judge typed."""


UNLABELLED_GAPS: Final = (
    "dump: which box each bead list belongs to, and whether its beads are legal",
    "learning: the exact square learnt in each box (only counts of changes are checked)",
    "bead-draws: MENACE's draws against its beads (the boxes cannot be identified)",
)
"""What the judge cannot check of a program whose dumps do not label their boxes."""


class Referee:
    """Drives one session: sends N and O's moves, and checks every board and dump read back."""

    def __init__(self, channel: Channel, dialect: Dialect, settings: Settings,
                 opponent: Opponent, knowledge: Knowledge,
                 warm_up: threading.Thread | None = None,
                 on_game: Callable[[int], None] | None = None,
                 checker: Checker | None = None) -> None:
        self.warm_up = warm_up
        """Builds shared tables in the background; joined before they are first used."""
        self.on_game = on_game
        """Told the number of each game once it is played (for progress)."""
        self.channel = channel
        self.dialect = dialect
        self.settings = settings
        self.opponent = opponent
        self.knowledge = knowledge
        self.watch = Watch(channel, patience_for(settings))
        """The program's channel, waited on within the run's limits."""
        self.reader = Reader(self.watch, Symbols.declared(dialect.x, dialect.o, dialect.empty),
                             keep_transcript=settings.keep_transcript)
        self.place = Place()
        self.last_dump: DumpReading | None = None
        self.checker = checker if checker is not None else InProcess(settings, dialect)
        """Where the checks no move depends on are made (judge/deciding/checker.py)."""
        self.moves_sent: list[list[int]] = []
        self.games_played = 0
        self.results: list[Outcome] = []
        """MENACE's result in each game played to its end, checked or not."""
        self.outcomes = Tally()
        """MENACE's results in the games counted as played."""
        self.refills = 0
        self.symmetric_draws = 0
        self.labelled = True
        self.box_reader: BoxReader | None = None
        self.deferred: Deferred[Mark] = Deferred(self._rewind)
        """The checks no move depends on (judge/deciding/deferred.py)."""
        self.typed_move_read = False
        """True once the board after the first move typed was true."""
        self.stopped_coverage: Coverage | None = None
        """What the run had exercised where a check that failed late fell due."""

    # -- the run ------------------------------------------------------------------------

    def play(self) -> Played:
        """Play every game, checking as output arrives, until the run stops: how it went."""
        stop: Stop | None = None
        fault = ""
        try:
            self._play_all()
        except Stop as stopped:
            stop = stopped
        except Exception as error:  # the judge's own fault: reported, never blamed on the program
            fault = f"the judge failed: {type(error).__name__}: {error}"
        tests = self.checker.tests()
        return Played(stop, fault, self.place, self.games_played,
                      tuple(tuple(game) for game in self.moves_sent), self.coverage(),
                      tests.bead_draws, tests.refill_beads, self.labelled,
                      self.reader.transcript.lines(), self.reader.game_log.lines(),
                      self.typed_move_read)

    def _play_all(self) -> None:
        """Play every game; raises Stop at the first problem."""
        try:
            self.channel_send(str(self.settings.games))
            for game in range(1, self.settings.games + 1):
                self.place = Place(game, 0)
                self.play_game(game)
                self.games_played = game
                self.outcomes = self.outcomes.after(self.results[game - 1])
                if self.on_game is not None:
                    self.on_game(game)
            self.finish()
        except Stop:
            self.deferred.settle(self._mark)  # a check that failed late is the one to report
            raise

    def channel_send(self, text: str) -> None:
        """Send a line to the program; the checks queued so far fall due."""
        self.reader.send(text)
        self.checker.hand_over()
        self.deferred.fall_due(self._mark)

    def _mark(self) -> Mark:
        """Where the run stands now, noted for checks falling due."""
        sent = self.moves_sent
        return Mark(self.place, self.reader.position(), self.coverage(),
                    (len(sent), len(sent[-1]) if sent else 0))

    def _make_while_waiting(self) -> None:
        """Make checks due while the program has not answered yet."""
        self.deferred.make_while(lambda: self.checker.ready() and not self.channel.ready())

    def _rewind(self, mark: Mark, game: int) -> None:
        """The run as it stood at `mark`, for a failure of game `game` (not counted as played)."""
        self.place = mark.place
        # the next game had begun: show the game that failed
        self.reader.rewind(mark.position, bool(game) and game < mark.place.game)
        self.stopped_coverage = mark.coverage
        games, moves = mark.moves
        del self.moves_sent[games:]
        if games:
            del self.moves_sent[-1][moves:]
        if game:
            self._played_only(min(self.games_played, game - 1))

    def _played_only(self, games: int) -> None:
        """Count only the first `games` games as played (a later one failed a check)."""
        self.games_played = games
        self.outcomes = Tally()
        for outcome in self.results[:games]:
            self.outcomes = self.outcomes.after(outcome)

    def play_game(self, game: int) -> None:
        """One game: `new game`, the moves, the dump, and the checks on all of them."""
        reader = self.reader
        reader.new_game_log()
        self._make_while_waiting()
        text = reader.content_line(self.place)
        if not is_new_game(text):
            box = reader.as_box(text)
            if game > 1 and box is not None:
                self._dump_went_on(text, in_next_game=True)
            if box is None and read_cells(text, reader.symbols) is None:
                fail(Failure(None, self.place, "new game", text))
        fail(checks.new_game(text, self.place))
        self.opponent.start_game(game)
        sent: list[int] = []
        self.moves_sent.append(sent)
        draws: list[Draw] = []
        self._make_while_waiting()
        board = self._board(EMPTY_BOARD)
        failure, cell = checks.true_board(EMPTY_BOARD, board, self.place)
        fail(failure)
        self._note_draw(EMPTY_BOARD, cell, draws, None)
        if self.warm_up is not None:
            self.warm_up.join()
            self.warm_up = None
        while not is_over(board):
            move = self.opponent.move(board)
            sent.append(move)
            self.place = Place(game, len(sent))
            self.channel_send(move_text(move, self.dialect.moves))
            self._make_while_waiting()
            after = self._board(board)
            fail(checks.true_board(board, after, self.place, o_move=move)[0])
            self.typed_move_read = True
            board = after
            if is_over(board):
                break
            self._make_while_waiting()
            after = self._board(board)
            failure, cell = checks.true_board(board, after, self.place)
            fail(failure)
            self._note_draw(board, cell, draws, move)
            board = after
        self.place = Place(game, 0)
        outcome = outcome_of(board, X)
        self.results.append(outcome)
        known = self.box_reader.cache if self.box_reader else {}
        self.deferred.make_due(before_game=game)
        entries = self._dump_texts(board, known)
        self._check_dump(entries, draws, outcome, board)

    def _board(self, before: Board) -> Board:
        """The next board printed after `before`; check 3 when the game ended there instead."""
        try:
            return self.reader.board(self.place)
        except Instead as instead:
            text, place = instead.text, self.place
            if is_new_game(text):
                fail(checks.game_end(before, False, f"new game: {text}", place))
            if self.reader.as_box(text) is not None:
                fail(checks.game_end(before, False, f"a matchbox: {text}", place))
            raise Failed(Failure(None, place, "a board", text)) from None

    def _dump_texts(self, board: Board, known: Container[str]) -> list[str]:
        """The lines of the dump after a game that ended on `board`; check 3 when the game
        went on instead (a program waiting for input waits for a move that will never come)."""
        reader, place = self.reader, self.place
        with reader.dump():
            try:
                first = reader.content_line(place)
            except Stalled as stalled:
                if stalled.stall.waiting_for_input:
                    fail(checks.game_end(board, True, "it waits for another move", place))
                raise
            if is_new_game(first):
                fail(checks.game_end(board, True, f"new game: {first}", place))
            try:
                return reader.dump_texts(first, place, known)
            except Instead:
                if read_cells(first, reader.symbols) is not None:
                    fail(checks.game_end(board, True, f"a board: {first}", place))
                raise Failed(Failure(None, place, "a matchbox", first, hints=(
                    "a matchbox line is its label, a board as nine cells, then its beads: "
                    + BEAD_FORMS,), declarable=NUMBERINGS)) from None

    def _note_draw(self, board: Board, cell: Cell, draws: list[Draw],
                   answering: Cell | None) -> None:
        """Record a MENACE move, made after the opponent's move `answering` (None for its first),
        and test it against the beads of the previous dump."""
        draw = draw_for_move(board, cell)
        if draw is None:
            return
        draws.append(draw)
        self.knowledge.draws[draw.label] += 1
        previous = self.last_dump
        if previous is None or previous.boxes is None:
            return
        counts = previous.boxes[draw.label]
        if sum(counts) == (1 if self.dialect.refill is RefillRule.ON_EMPTY else 0):
            self.refills += 1
            self.knowledge.refills += 1
        if len(stabiliser(draw.label)) > 1:
            self.symmetric_draws += 1
        place = self.place
        answered = None if answering is None else in_label_frame(board, answering)
        self.deferred.queue(self.checker.queue(DrawMade(draw.label, draw.squares, place.game,
                                                        len(draws) - 1, place, answered)),
                            place.game)

    def _check_dump(self, texts: list[str], draws: list[Draw], outcome: Outcome,
                    board: Board) -> None:
        """Checks 5 and 6 on a dump just read: the dump itself now, the learning once the next
        move is sent."""
        if self.box_reader is None:
            self.box_reader = box_reader(texts, self.reader.symbols, self.dialect.numbering,
                                         self.dialect.refill)
        previous = self.last_dump
        failure, dump = checks.dump(texts, self.box_reader, self.place, previous,
                                    game_one=(draws, outcome) if previous is None else None,
                                    drawn=draws)
        self.deferred.fall_due(self._mark)
        if failure is not None:
            more = self.reader.rest_of_dump(self.settings.grace_seconds)
            if more:  # the dump as printed, every box line counted
                failure = checks.dump([*texts, *more], self.box_reader, self.place,
                                      drawn=draws)[0] or failure
            self.deferred.make_due()  # the checks of this game's moves come first
            fail(failure)
        self.labelled = dump.boxes is not None
        self.last_dump = dump
        if dump.boxes is not None:
            if dump.changed is None:
                self.knowledge.beads = {label: sum(c) for label, c in dump.boxes.items()}
            else:
                for label in dump.changed:
                    self.knowledge.beads[label] = sum(dump.boxes[label])
        game = GameLearnt(tuple(texts), tuple(draws), outcome, board, self.place)
        self.deferred.queue(self.checker.queue(game, dump), self.place.game)

    def finish(self) -> None:
        """After the last dump: the pooled bead-draws test, then a clean exit within the grace."""
        self.deferred.fall_due(self._mark)
        self.deferred.make_due()
        self.place = Place(self.settings.games, 0)
        fail(checks.bead_draws(self.checker.tests().bead_draws, self.place))
        grace = self.settings.grace_seconds
        while (text := self.reader.final_line(grace)) is not None:
            if isinstance(text, Silence):
                raise HungAfterEnd()
            if not is_blank(text):
                self._extra_output(text)
        if self.watch.exit(grace) is not None:
            raise HungAfterEnd()
        raise Finished()

    def _extra_output(self, text: str) -> None:
        """Fail on output after the last dump."""
        fail(checks.new_game(text, self.place, more=False))
        if self.reader.as_box(text) is not None:
            self._dump_went_on(text, in_next_game=False)
        fail(Failure(None, self.place, "the end of output", text))

    def _dump_went_on(self, text: str, *, in_next_game: bool) -> None:
        """Check 5 on the last dump read, with the box line `text` that came after its 304th
        and every box line after that: a fault of the game that dump ended, reported there
        (that game no longer counts as played), its learning never checked."""
        last = self.last_dump
        assert last is not None and self.box_reader is not None
        game = self.games_played
        self.deferred.drop(game)  # they would read a dump now known to be wrong
        self.checker.drop(game)
        self.deferred.make_due()
        if in_next_game:
            self.reader.back_to_last_game()
        self.place = Place(game, 0)
        self._played_only(game - 1)
        more = self.reader.rest_of_dump(self.settings.grace_seconds)
        fail(checks.dump([*last.texts, text, *more], self.box_reader, self.place)[0])

    def coverage(self) -> Coverage:
        """What this run exercised (up to where a check that failed late fell due)."""
        if self.stopped_coverage is not None:
            return replace(self.stopped_coverage, outcomes=self.outcomes)
        return Coverage(self.outcomes, self.refills, self.symmetric_draws,
                        len(self.knowledge.draws))
