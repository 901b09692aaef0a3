"""Play a submission through a session, game by game, applying the checks as output arrives."""

from __future__ import annotations

import shutil
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from reference.board import EMPTY_BOARD, Board, Cell, X, is_over
from reference.outcome import Outcome, Tally, outcome_of
from reference.solver import value
from reference.symmetry import stabiliser

from judge import checks, launch
from judge.boxes import BOX_COUNT, Draw, draw_for_move, orientations
from judge.channel import Channel
from judge.checks import BeadDraws, BoxReader, ReadDump, Refills
from judge.formats import Symbols, is_blank, is_new_game, move_text, read_cells
from judge.invariants import box_reader, check_step, read_dump
from judge.launch import Settings
from judge.manifest import Manifest
from judge.opponents import (
    ChoiceOpponent,
    Choices,
    Knowledge,
    Opponent,
    ScriptedOpponent,
    make_opponent,
)
from judge.options import BeadFormat, RefillRule
from judge.randomness import Evidence
from judge.reader import Position, Reader, fail
from judge.replay import Replay
from judge.session import LeftoverError, Session
from judge.stops import Aftermath, Failed, Finished, HungAfterEnd, Stop
from judge.verdict import Check, Decision, Ending, Facts, Failure, Place, decide

DRAIN_SECONDS: Final = 3.0
DRAIN_QUIET: Final = 0.2
DRAIN_LIMIT: Final = 1 << 20
"""Output a program may still print, given no input, after a failed check before it counts as a flood."""


@dataclass(frozen=True)
class Coverage:
    """What the run exercised: MENACE's results, refills, symmetric boxes, boxes drawn from."""

    outcomes: Tally = Tally()
    refills: int = 0
    symmetric_draws: int = 0
    boxes_drawn: int = 0


@dataclass(frozen=True)
class Run:
    """The judged run: decision, what was observed, and how to play it again."""

    decision: Decision
    facts: Facts
    games_played: int
    seconds: float
    coverage: Coverage
    draw_test: Evidence
    refill_test: Evidence
    not_checked: tuple[str, ...]
    transcript: tuple[str, ...]
    game_log: tuple[str, ...]
    """The lines of the last game played, without its dump."""
    replay: Replay


@dataclass(frozen=True)
class Mark:
    """Where the run stood when checks fell due: a failure found later is reported as here."""

    place: Place
    position: Position
    coverage: Coverage
    moves: tuple[int, int]
    """Moves sent: the games begun, and the moves of the last."""


@dataclass(frozen=True)
class Pending:
    """A check that no move depends on, of game `game`, due where `mark` says."""

    check: Callable[[], None]
    game: int
    mark: Mark


UNLABELLED_GAPS: Final = (
    "dump: which box each bead list belongs to, and whether its beads are legal",
    "learning: the exact square learnt in each box (only counts of changes are checked)",
    "bead-draws: MENACE's draws against its beads (the boxes cannot be identified)",
)


class Referee:
    """Drives one session: sends N and O's moves, and checks every board and dump read back."""

    def __init__(self, session: Channel, manifest: Manifest, settings: Settings,
                 opponent: Opponent, knowledge: Knowledge,
                 warm_up: threading.Thread | None = None) -> None:
        self.warm_up = warm_up
        """Builds shared tables in the background; joined before they are first used."""
        self.manifest = manifest
        self.settings = settings
        self.opponent = opponent
        self.knowledge = knowledge
        self.reader = Reader(session, Symbols.declared(manifest.x, manifest.o, manifest.empty),
                             idle_seconds=settings.idle_seconds, time_limit=settings.wall_seconds,
                             keep_transcript=settings.keep_transcript, idle=self._while_waiting)
        self.numbering: BeadFormat | None = (
            None if manifest.beads is BeadFormat.AUTO else manifest.beads)
        self.place = Place()
        self.last_dump: ReadDump | None = None
        threshold = 1 / settings.false_alarm
        self.bead_draws = BeadDraws(threshold, settings.measure_power)
        self.refill_test = Refills(settings.seed, threshold, settings.measure_power)
        self.moves_sent: list[list[int]] = []
        self.games_played = 0
        self.outcomes = Tally()
        self.refills = 0
        self.symmetric_draws = 0
        self.labelled = True
        self.box_reader: BoxReader | None = None
        self.queued: list[tuple[Callable[[], None], int]] = []
        """Checks that no move depends on, with their games, not yet due: each falls due once
        the next move is sent (or the dump read)."""
        self.pending: deque[Pending] = deque()
        """Checks due, made oldest first while the program works on its reply; a failure is
        reported as where the check fell due. A game's checks are all made before the next
        game's dump is read."""
        self.failed_at: Mark | None = None
        """Where the check that failed after it fell due had fallen due."""
        self.stopped_coverage: Coverage | None = None
        """What the run had exercised where a check that failed late fell due."""

    # -- the session ---------------------------------------------------------------------

    def run(self) -> None:
        """Play every game, checking as output arrives; raises Stop at the first problem."""
        try:
            self.reader.send(str(self.settings.games))
            for game in range(1, self.settings.games + 1):
                self.place = Place(game, 0)
                self.play_game(game)
                self.games_played = game
            self.finish()
        except Stop:
            self.settle()  # a pending check's failure came first: it is the one to report
            raise

    def settle(self) -> None:
        """Once the run stops, the checks it still owes, made as if each had been made where it
        fell due: every one, up to a failure; after a failure, the rest of those due with it."""
        late: Failed | None = None
        if self.failed_at is None:
            here = self.checkpoint()
            try:
                self.catch_up()
                return
            except Failed as failed:
                if self.failed_at is here:
                    raise
                late = failed
        mark = self.failed_at
        while self.pending and self.pending[0].mark is mark:
            self._make(self.pending.popleft())
        if late is not None:
            raise late

    def checkpoint(self) -> Mark | None:
        """The checks queued so far fall due here: where the run stands, noted for them."""
        if not self.queued:
            return None
        sent = self.moves_sent
        mark = Mark(self.place, self.reader.position(), self.coverage(),
                    (len(sent), len(sent[-1]) if sent else 0))
        self.pending.extend(Pending(check, game, mark) for check, game in self.queued)
        self.queued.clear()
        return mark

    def catch_up(self, before_game: int | None = None) -> None:
        """Make every check due (of the games before `before_game`, if given), oldest first."""
        pending = self.pending
        while pending and (before_game is None or pending[0].game < before_game):
            self._make(pending.popleft())

    def _while_waiting(self) -> None:
        """Make checks due while the program has not answered yet."""
        pending = self.pending
        while pending and not self.reader.session.ready():
            self._make(pending.popleft())

    def _make(self, pending: Pending) -> None:
        """Make one check; a failure is reported as where it fell due, in its own game."""
        try:
            pending.check()
        except Failed as failed:
            self._rewind(failed.failure.place.game, pending.mark)
            raise

    def _rewind(self, game: int, mark: Mark) -> None:
        """The run as it stood at `mark`, for a failure of game `game` (not counted as played)."""
        self.failed_at = mark
        self.place = mark.place
        # the next game had begun: show the game that failed
        self.reader.rewind(mark.position, bool(game) and game < mark.place.game)
        self.stopped_coverage = mark.coverage
        games, moves = mark.moves
        del self.moves_sent[games:]
        if games:
            del self.moves_sent[-1][moves:]
        if game:
            self.games_played = min(self.games_played, game - 1)

    def play_game(self, game: int) -> None:
        """One game: `new game`, the moves, the dump, and the checks on all of them."""
        reader = self.reader
        reader.new_game_log()
        text = reader.content_line(self.place)
        if not is_new_game(text):
            box = reader.as_box(text)
            if game > 1 and box is not None:
                fail(Failure(Check.DUMP, self.place, f"{BOX_COUNT} boxes",
                                  f"more than {BOX_COUNT} boxes: {text}"))
            if box is None and read_cells(text, reader.symbols) is None:
                fail(Failure(None, self.place, "new game", text))
        fail(checks.new_game(text, self.place))
        self.opponent.start_game(game)
        sent: list[int] = []
        self.moves_sent.append(sent)
        draws: list[Draw] = []
        board = reader.board(EMPTY_BOARD, self.place)
        failure, cell = checks.true_board_first(board, self.place)
        fail(failure)
        self._note_draw(EMPTY_BOARD, cell, draws)
        if self.warm_up is not None:
            self.warm_up.join()
            self.warm_up = None
        while not is_over(board):
            move = self.opponent.move(board)
            sent.append(move)
            self.place = Place(game, len(sent))
            reader.send(move_text(move, self.manifest.moves))
            self.checkpoint()
            after = reader.board(board, self.place)
            fail(checks.true_board_after_opponent(board, move, after, self.place))
            board = after
            if is_over(board):
                break
            after = reader.board(board, self.place)
            failure, cell = checks.true_board_after_menace(board, after, self.place)
            fail(failure)
            self._note_draw(board, cell, draws)
            board = after
        self.place = Place(game, 0)
        outcome = outcome_of(board, X)
        self.outcomes = self.outcomes.after(outcome)
        known = self.box_reader.cache if self.box_reader else {}
        self.catch_up(before_game=game)
        entries = reader.dump_lines(board, self.place, known)
        self._check_dump(entries, draws, outcome)

    def _note_draw(self, board: Board, cell: Cell, draws: list[Draw]) -> None:
        """Record a MENACE move and test it against the beads of the previous dump."""
        draw = draw_for_move(board, cell)
        if draw is None:
            return
        draws.append(draw)
        self.knowledge.draws[draw.label] += 1
        previous = self.last_dump
        if previous is None or previous.boxes is None:
            return
        counts = previous.boxes[draw.label]
        if sum(counts) == (1 if self.manifest.refill is RefillRule.ON_EMPTY else 0):
            self.refills += 1
            self.knowledge.refills += 1
        if len(stabiliser(draw.label)) > 1:
            self.symmetric_draws += 1
        beads, place, index = previous.readings[draw.label].beads, self.place, len(draws) - 1
        self.queued.append((lambda: fail(self.bead_draws.add(draw.label, beads, draw.squares,
                                                             place.game, index, place)),
                            place.game))

    def _check_dump(self, texts: list[str], draws: list[Draw], outcome: Outcome) -> None:
        """Checks 5 and 6 on a dump just read: the dump itself now, the learning once the next
        move is sent."""
        if self.box_reader is None:
            self.box_reader = box_reader(texts, self.reader.symbols, self.numbering,
                                         self.manifest.refill)
        previous = self.last_dump
        failure, dump = read_dump(texts, self.box_reader, self.place, previous)
        self.checkpoint()
        if failure is not None:
            self.catch_up()  # the checks of this game's moves come first
            fail(failure)
        self.labelled = dump.boxes is not None
        self.last_dump = dump
        if dump.boxes is not None:
            if dump.changed is None:
                self.knowledge.beads = {label: sum(c) for label, c in dump.boxes.items()}
            else:
                for label in dump.changed:
                    self.knowledge.beads[label] = sum(dump.boxes[label])
        place = self.place
        self.queued.append((lambda: self._check_learning(previous, dump, draws, outcome, place),
                            place.game))

    def _check_learning(self, previous: ReadDump | None, dump: ReadDump, draws: list[Draw],
                        outcome: Outcome, place: Place) -> None:
        """Check 6 from the previous dump to this one, then the pooled bead-draws test."""
        if previous is None:
            fail(checks.first_empty_boxes(dump, draws, outcome, place))
        else:
            assert self.box_reader is not None
            fail(check_step(previous, dump, draws, outcome, self.manifest.refill,
                            place=place, reader=self.box_reader))
            if dump.boxes is not None and previous.boxes is not None:
                self._note_refills(previous, dump, draws, outcome, place)
        self.bead_draws.learnt(draws, outcome)
        fail(checks.bead_draws(self.bead_draws.result(), place))

    def _note_refills(self, previous: ReadDump, dump: ReadDump, draws: list[Draw],
                      outcome: Outcome, place: Place) -> None:
        """Test the beads of each refill the two dumps show (check 6, statistical)."""
        for draw in draws:
            beads = self.refill_test.add(previous.readings[draw.label], dump.readings[draw.label],
                                         draw.squares, outcome, self.manifest.refill, place.game)
            if beads is not None:
                self.bead_draws.refilled(draw.label, beads)
        fail(checks.refill_beads_check(self.refill_test.result(), place))

    def finish(self) -> None:
        """After the last dump: the pooled bead-draws test, then a clean exit within the grace."""
        self.checkpoint()
        self.catch_up()
        self.place = Place(self.settings.games, 0)
        fail(checks.bead_draws(self.bead_draws.result(), self.place))
        grace_end = time.monotonic() + self.settings.grace_seconds
        while (text := self.reader.final_line(grace_end)) is not None:
            if not is_blank(text):
                self._extra_output(text)
        if not self.reader.session.wait_exit(max(grace_end - time.monotonic(), 0.0)):
            raise HungAfterEnd()
        raise Finished()

    def _extra_output(self, text: str) -> None:
        """Fail on output after the last dump."""
        if is_new_game(text):
            fail(Failure(Check.NEW_GAME, self.place,
                              f"exactly {self.settings.games} games, then the end of output",
                              "new game"))
        if self.reader.as_box(text) is not None:
            fail(Failure(Check.DUMP, self.place, f"{BOX_COUNT} boxes",
                              f"more than {BOX_COUNT} boxes: {text}"))
        fail(Failure(None, self.place, "the end of output", text))

    def coverage(self) -> Coverage:
        """What this run exercised (up to where a check that failed late fell due)."""
        if self.stopped_coverage is not None:
            return self.stopped_coverage
        return Coverage(self.outcomes, self.refills, self.symmetric_draws,
                        len(self.knowledge.draws))


def facts_from(stop: Stop | None, ending: Ending | None, place: Place, fault: str = "") -> Facts:
    """The facts of a run from what stopped it (None: the judge's fault) and how the program ended."""
    facts = Facts(ending=ending, place=place, judge_fault=fault,
                  output_over_limit=ending is not None and ending.output_over_limit)
    if stop is not None:
        facts = stop.noted(facts)
    if ending is None:
        return facts
    return replace(facts, exit_failure=checks.exit_(ending, facts.finished, place))


def _warm_up() -> None:
    """Build the tables the referee needs (boxes, perfect play) while the program starts up."""
    orientations()
    value(EMPTY_BOARD)


def _play(referee: Referee) -> tuple[Stop | None, str]:
    """Run the referee: what stopped it, or the judge's own fault if it failed."""
    try:
        referee.run()
    except Stop as stop:
        return stop, ""
    except Exception:  # the judge's own fault: reported, never blamed on the submission
        return None, "the judge failed: " + traceback.format_exc(limit=3).strip().splitlines()[-1]
    return None, "the referee returned without a verdict"


def _end(session: Channel, stop: Stop | None, settings: Settings) -> tuple[Ending | None, str]:
    """Let the program end (or drain a flood), then kill what is left: its ending, or a fault."""
    aftermath = stop.aftermath if stop is not None else Aftermath.END
    if aftermath is Aftermath.DRAIN:
        session.drain(DRAIN_SECONDS, quiet=DRAIN_QUIET, limit=DRAIN_LIMIT)
    elif aftermath is Aftermath.WAIT_EXIT:
        session.wait_exit(settings.grace_seconds)
    try:
        return session.close(), ""
    except LeftoverError as error:
        return None, f"the judge could not end the program: {error}"


def judge(manifest: Manifest, settings: Settings, *, choices: Choices | None = None,
          started: tuple[Session, Path] | None = None) -> Run:
    """Judge one submission: play it under the settings and decide the verdict.

    `choices`, when given, script O's moves by index (`ChoiceOpponent`) instead of the
    settings' opponent; `started`, the program already started by `launch.start_program`
    for these settings, and its working folder.
    """
    begun = time.monotonic()
    knowledge = Knowledge()
    opponent: Opponent = make_opponent(settings.opponent, settings.seed, knowledge)
    if settings.scripted is not None:
        opponent = ScriptedOpponent(settings.scripted, opponent)
    if choices is not None:
        opponent = ChoiceOpponent(choices)
    session, folder = started or launch.start_program(manifest, settings)
    warm_up = threading.Thread(target=_warm_up, daemon=True)
    warm_up.start()
    referee = Referee(session, manifest, settings, opponent, knowledge, warm_up)
    try:
        stop, fault = _play(referee)
        ending, end_fault = _end(session, stop, settings)
    except BaseException:  # interrupted: leave nothing of the program behind
        session.close()
        raise
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    facts = facts_from(stop, ending, referee.place, fault or end_fault)
    replay_record = Replay(
        seed=settings.seed, games=settings.games, opponent=settings.opponent,
        transport=settings.transport,
        moves=tuple(tuple(game) for game in referee.moves_sent),
        submission=str(manifest.folder) if manifest.folder else "",
        command=manifest.command if manifest.folder is None else (),
    )
    return Run(
        decision=decide(facts), facts=facts, games_played=referee.games_played,
        seconds=time.monotonic() - begun, coverage=referee.coverage(),
        draw_test=referee.bead_draws.result(), refill_test=referee.refill_test.result(),
        not_checked=() if referee.labelled else UNLABELLED_GAPS,
        transcript=tuple(referee.reader.transcript), game_log=tuple(referee.reader.game_log),
        replay=replay_record,
    )
