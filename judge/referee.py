"""Play a submission through a session, game by game, applying the checks as output arrives."""

from __future__ import annotations

import shutil
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

from reference.board import EMPTY, EMPTY_BOARD, Board, Cell, is_over, play
from reference.solver import value
from reference.symmetry import stabiliser

from judge import checks
from judge.boxes import BOX_COUNT, Draw, draw_for_move, needs_box, orientations
from judge.checks import BeadDraws, BoxReader, DrawTest, ReadDump
from judge.formats import (BoardAssembler, BoxLine, Symbols, UnreadableError, guess_numbering,
                           is_blank, is_border, is_new_game, move_text, read_box_line, read_cells,
                           split_one_line_dump)
from judge.launch import Settings, start_program
from judge.manifest import Manifest
from judge.opponents import Knowledge, Opponent, make_opponent, ScriptedOpponent
from judge.replay import Replay
from judge.session import EOF, OUTPUT_LIMIT, TIMEOUT, LeftoverError, Session
from judge.verdict import Check, Decision, Ending, Facts, Failure, Place, Stall, decide

TRANSCRIPT_TAIL: Final = 16
DRAIN_SECONDS: Final = 3.0
DRAIN_QUIET: Final = 0.2
DRAIN_LIMIT: Final = 1 << 20
"""Output a program may still print, given no input, after a failed check before it counts as a flood."""
MEMORY_EXTENSIONS: Final = 2
"""Extra idle periods granted to a busy program whose memory nears its limit."""


@dataclass(frozen=True)
class Coverage:
    """What the run exercised: MENACE's results, refills, symmetric boxes, boxes drawn from."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
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
    draw_test: DrawTest
    not_checked: tuple[str, ...]
    transcript: tuple[str, ...]
    game_log: tuple[str, ...]
    """The lines of the last game played, without its dump."""
    replay: Replay


class Stop(Exception):
    """The run cannot go on; carries what was observed."""

    def __init__(self, **facts: object) -> None:
        super().__init__("stop")
        self.facts = facts


UNLABELLED_GAPS: Final = (
    "dump: which box each bead list belongs to, and whether its beads are legal",
    "learning: the exact square learnt in each box (only counts of changes are checked)",
    "bead-draws: MENACE's draws against its beads (the boxes cannot be identified)",
)


class Referee:
    """Drives one session: sends N and O's moves, reads and checks everything that comes back."""

    def __init__(self, session: Session, manifest: Manifest, settings: Settings,
                 opponent: Opponent, knowledge: Knowledge,
                 warm_up: threading.Thread | None = None) -> None:
        self.session = session
        self.warm_up = warm_up
        """Builds shared tables in the background; joined before they are first used."""
        self.manifest = manifest
        self.settings = settings
        self.opponent = opponent
        self.knowledge = knowledge
        self.symbols = Symbols.declared(manifest.x, manifest.o, manifest.empty)
        self.numbering = "" if manifest.beads == "auto" else manifest.beads
        self.place = Place()
        self.deadline = time.monotonic() + settings.time_limit
        self.transcript: deque[str] | list[str] = (
            [] if settings.keep_transcript else deque(maxlen=TRANSCRIPT_TAIL))
        self.pushed_back: str | None = None
        self.game_over = False
        self.last_dump: ReadDump | None = None
        self.bead_draws = BeadDraws()
        self.moves_sent: list[list[int]] = []
        self.games_played = 0
        self.results = {checks.WIN: 0, checks.DRAW: 0, checks.LOSS: 0}
        self.refills = 0
        self.symmetric_draws = 0
        self.labelled = True
        self.extensions = 0
        self.known_rows: dict[str, str | None] = {}
        self.in_dump = False
        self.game_log: list[str] = []
        """This game's lines so far, without its dump."""
        self.box_reader: BoxReader | None = None

    # -- talking -------------------------------------------------------------------------

    def send(self, text: str) -> None:
        """Send a line to the program and note it in the transcript."""
        self.transcript.append("> " + text)
        self.game_log.append("> " + text)
        if not self.session.send_line(text):
            self.transcript.append("  (the program no longer reads its input)")

    def line(self) -> str:
        """The next line of output; stops the run on EOF, silence, or the output limit."""
        if self.pushed_back is not None:
            text, self.pushed_back = self.pushed_back, None
            if not self.in_dump:
                self.game_log.append("< " + text)
            return text
        pending = self.session.take_pending()
        if pending is not None:
            self.transcript.append("< " + pending)
            if not self.in_dump:
                self.game_log.append("< " + pending)
            return pending
        remaining = self.deadline - time.monotonic()
        timeout = min(self.settings.idle_seconds, max(remaining, 0.0))
        got = self.session.read_line(timeout)
        if isinstance(got, str):
            self.transcript.append("< " + got)
            if not self.in_dump:
                self.game_log.append("< " + got)
            return got
        if got is OUTPUT_LIMIT:
            raise Stop(output_over_limit=True)
        if got is EOF:
            raise Stop()
        assert got is TIMEOUT
        if time.monotonic() >= self.deadline:
            raise Stop(wall_time_over=True)
        reading = self.session.look()
        if reading.running and self.extensions < MEMORY_EXTENSIONS and \
                self.session.memory_in_use() * 4 > self.session.memory_limit():
            self.extensions += 1
            return self.line()
        if self.game_over and reading.reading_stdin:
            self.fail(checks.game_end_waits(self.place))
        raise Stop(stall=Stall(self.place, timeout, reading.describe(self.session.transport),
                               checks.interactive(reading.reading_stdin)))

    def content_line(self) -> str:
        """The next line that is neither blank nor a border line."""
        while True:
            text = self.line()
            if not is_blank(text) and not is_border(text):
                return text

    def fail(self, failure: Failure | None) -> None:
        """Stop the run at a failed check."""
        if failure is not None:
            raise Stop(failure=failure)

    # -- reading boards and dumps --------------------------------------------------------

    def board(self, before: Board) -> Board:
        """The next board printed; game-end or presentation failures otherwise."""
        assembler = BoardAssembler(self.symbols, self.known_rows)
        while True:
            text = self.line()
            try:
                board = assembler.take(text)
            except UnreadableError:
                if not assembler.started:
                    self._not_a_board(before, text)
                self.fail(Failure(None, self.place, "a board", text))
                raise
            if board is not None:
                return board

    def _not_a_board(self, before: Board, text: str) -> None:
        """Fail with the right check for a line that came where a board should have."""
        if is_new_game(text):
            self.fail(checks.game_end(before, False, "new game", text, self.place))
        box = self._as_box(text)
        if box is not None:
            self.fail(checks.game_end(before, False, "a matchbox", text, self.place))

    def _as_box(self, text: str) -> BoxLine | None:
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
        return cells is not None and len(cells) == 9 and needs_box(cells) and cells.count(EMPTY) >= 3

    def dump_lines(self, board: Board) -> list[str]:
        """The lines of the dump that follows a finished game."""
        first = self.content_line()
        if is_new_game(first):
            self.fail(checks.game_end(board, True, "new game", first, self.place))
        one_line = split_one_line_dump(first)
        if one_line is not None:
            return [f"[{group}]" for group in one_line]
        box = self._as_box(first)
        if box is None and not self._empty_box_line(first):
            cells = read_cells(first, self.symbols)
            if cells is not None:
                self.fail(checks.game_end(board, True, "a board", first, self.place))
            self.fail(Failure(None, self.place, "a matchbox", first))
        self.game_over = False
        texts = [first]
        known = self.box_reader.cache if self.box_reader else {}
        while len(texts) < BOX_COUNT:
            chunk = self.session.take_pending_many(BOX_COUNT - len(texts))
            noted = not chunk
            if noted:
                try:
                    chunk = [self.line()]
                except Stop as stop:
                    if stop.facts:
                        raise
                    break
            for index, text in enumerate(chunk):
                if text in known:
                    texts.append(text)
                elif is_new_game(text):
                    if not noted:
                        self._note_received(chunk[:index + 1])
                        self.session.put_back(chunk[index + 1:])
                    self.pushed_back = text
                    return texts
                elif not is_blank(text) and not is_border(text):
                    texts.append(text)
            if not noted:
                self._note_received(chunk)
        return texts

    def _note_received(self, lines: list[str]) -> None:
        """Add lines the program printed to the transcript (only its tail is kept by default)."""
        if isinstance(self.transcript, list):
            self.transcript.extend(["< " + line for line in lines])
        else:
            self.transcript.extend(["< " + line for line in lines[-TRANSCRIPT_TAIL:]])

    # -- the session ---------------------------------------------------------------------

    def run(self) -> None:
        """Play every game, checking as output arrives; raises Stop at the first problem."""
        self.send(str(self.settings.games))
        for game in range(1, self.settings.games + 1):
            self.place = Place(game, 0)
            self.play_game(game)
            self.games_played = game
        self.finish()

    def play_game(self, game: int) -> None:
        """One game: `new game`, the moves, the dump, and the checks on all of them."""
        self.game_log = []
        text = self.content_line()
        if not is_new_game(text):
            box = self._as_box(text)
            if game > 1 and box is not None:
                self.fail(Failure(Check.DUMP, self.place, f"{BOX_COUNT} boxes",
                                  f"more than {BOX_COUNT} boxes: {text}"))
            if box is None and read_cells(text, self.symbols) is None:
                self.fail(Failure(None, self.place, "new game", text))
        self.fail(checks.new_game(text, self.place))
        self.opponent.start_game(game)
        sent: list[int] = []
        self.moves_sent.append(sent)
        draws: list[Draw] = []
        board = self.board(EMPTY_BOARD)
        failure, cell = checks.true_board_first(board, self.place)
        self.fail(failure)
        self._note_draw(EMPTY_BOARD, cell, draws)
        if self.warm_up is not None:
            self.warm_up.join()
            self.warm_up = None
        while not is_over(board):
            move = self.opponent.move(board)
            sent.append(move)
            self.place = Place(game, len(sent))
            self.send(move_text(move, self.manifest.moves))
            after = self.board(board)
            self.fail(checks.true_board_after_opponent(board, move, after, self.place))
            board = after
            if is_over(board):
                break
            after = self.board(board)
            failure, cell = checks.true_board_after_menace(board, after, self.place)
            self.fail(failure)
            self._note_draw(board, cell, draws)
            board = after
        self.game_over = True
        self.place = Place(game, 0)
        outcome = checks.outcome_of(board)
        self.results[outcome] += 1
        self.in_dump = True
        entries = self.dump_lines(board)
        self.in_dump = False
        self.game_over = False
        self._check_dump(entries, draws, outcome)
        self.fail(checks.bead_draws(self.bead_draws.result(), self.place))

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
        if sum(counts) == (1 if self.manifest.refill == "on-empty" else 0):
            self.refills += 1
        if len(stabiliser(draw.label)) > 1:
            self.symmetric_draws += 1
        self.fail(self.bead_draws.add(draw.label, counts, draw.squares, self.place))

    def _check_dump(self, texts: list[str], draws: list[Draw], outcome: int) -> None:
        """Checks 5 and 6 on a dump just read."""
        if self.box_reader is None:
            numbering = self.numbering
            if not numbering:
                entries = []
                for text in texts:
                    try:
                        entries.append(read_box_line(text, self.symbols))
                    except UnreadableError:
                        continue
                numbering = guess_numbering([e.beads for e in entries],
                                            [e.label for e in entries])
            self.box_reader = BoxReader(self.symbols, numbering, self.manifest.refill)
        previous = self.last_dump
        if previous is None:
            failure, dump = checks.dump(texts, self.box_reader, self.place)
        else:
            failure, dump = checks.dump_since(previous, texts, self.box_reader, self.place)
        self.fail(failure)
        if previous is not None:
            if dump.boxes is not None and previous.boxes is not None:
                failure = checks.learning(previous.boxes, dump.boxes, draws, outcome,
                                          self.manifest.refill, self.place, dump.changed)
                if failure is not None:
                    failure = replace(failure, evidence=(
                        "previous dump: " + self._printed(previous, failure.subject),
                        "this dump:     " + self._printed(dump, failure.subject)))
                self.fail(failure)
            elif dump.boxes is None and previous.boxes is None:
                self.fail(checks.learning_unlabelled(previous.unlabelled, dump.unlabelled,
                                                     len(draws), outcome, self.place))
            else:
                self.fail(Failure(None, self.place, "dumps all labelled or all unlabelled",
                                  "a change of form between dumps"))
        self.labelled = dump.boxes is not None
        self.last_dump = dump
        if dump.boxes is not None:
            if dump.changed is None:
                self.knowledge.beads = {label: sum(c) for label, c in dump.boxes.items()}
            else:
                for label in dump.changed:
                    self.knowledge.beads[label] = sum(dump.boxes[label])

    def _printed(self, dump: ReadDump, label: str) -> str:
        """The line of a dump that holds the box `label`."""
        assert self.box_reader is not None
        return next((text for text in dump.texts if self.box_reader.read(text).label == label),
                    "(no such line)")

    def finish(self) -> None:
        """After the last dump: the pooled bead-draws test, then a clean exit within the grace."""
        self.place = Place(self.settings.games, 0)
        self.fail(checks.bead_draws(self.bead_draws.result(), self.place))
        grace_end = time.monotonic() + self.settings.grace_seconds
        while True:
            if self.pushed_back is not None:
                self._extra_output(self.pushed_back)
            got = self.session.read_line(max(grace_end - time.monotonic(), 0.0))
            if got is OUTPUT_LIMIT:
                raise Stop(output_over_limit=True)
            if got is EOF:
                break
            if got is TIMEOUT:
                raise Stop(hung_after_end=True)
            self.transcript.append("< " + got)
            if not is_blank(got):
                self._extra_output(got)
        if not self.session.wait_exit(max(grace_end - time.monotonic(), 0.0)):
            raise Stop(hung_after_end=True)
        raise Stop(finished=True)

    def _extra_output(self, text: str) -> None:
        """Fail on output after the last dump."""
        if is_new_game(text):
            self.fail(Failure(Check.NEW_GAME, self.place,
                              f"exactly {self.settings.games} games, then the end of output",
                              "new game"))
        if self._as_box(text) is not None:
            self.fail(Failure(Check.DUMP, self.place, f"{BOX_COUNT} boxes",
                              f"more than {BOX_COUNT} boxes: {text}"))
        self.fail(Failure(None, self.place, "the end of output", text))

    def coverage(self) -> Coverage:
        """What this run exercised."""
        return Coverage(self.results[checks.WIN], self.results[checks.DRAW],
                        self.results[checks.LOSS], self.refills, self.symmetric_draws,
                        len(self.knowledge.draws))


def facts_from(found: dict[str, object], ending: Ending | None, place: Place, fault: str = "",
               output_over_limit: bool = False) -> Facts:
    """The facts of a run from what stopped it and how the program ended."""
    failure = found.get("failure")
    stall = found.get("stall")
    finished = bool(found.get("finished"))
    return Facts(
        failure=failure if isinstance(failure, Failure) else None,
        exit_failure=checks.exit_(ending, finished, place) if ending is not None else None,
        stall=stall if isinstance(stall, Stall) else None,
        ending=ending,
        finished=finished,
        place=place,
        output_over_limit=bool(found.get("output_over_limit")) or output_over_limit,
        wall_time_over=bool(found.get("wall_time_over")),
        hung_after_end=bool(found.get("hung_after_end")),
        judge_fault=fault,
    )


def _warm_up() -> None:
    """Build the tables the referee needs (boxes, perfect play) while the program starts up."""
    orientations()
    value(EMPTY_BOARD)


def _play(referee: Referee) -> tuple[dict[str, object], str]:
    """Run the referee: what stopped it, and the judge's own fault if it failed."""
    try:
        referee.run()
    except Stop as stop:
        return stop.facts, ""
    except Exception:  # the judge's own fault: reported, never blamed on the submission
        return {}, "the judge failed: " + traceback.format_exc(limit=3).strip().splitlines()[-1]
    return {}, "the referee returned without a verdict"


def _end(session: Session, found: dict[str, object], fault: str,
         settings: Settings) -> tuple[Ending | None, str]:
    """Let the program end (or drain a flood), then kill what is left: its ending, or a fault."""
    if "failure" in found:
        session.drain(DRAIN_SECONDS, quiet=DRAIN_QUIET, limit=DRAIN_LIMIT)
    elif not found and not fault:  # its output ended: give it the grace to exit
        session.wait_exit(settings.grace_seconds)
    try:
        return session.close(), ""
    except LeftoverError as error:
        return None, f"the judge could not end the program: {error}"


def judge(manifest: Manifest, settings: Settings,
          program: tuple[Session, Path] | None = None) -> Run:
    """Judge one submission: play it under the settings and decide the verdict.

    `program` is the session and working folder of `start_program`, when the caller started
    the program early (so that its start-up overlaps the judge's own).
    """
    started = time.monotonic()
    knowledge = Knowledge()
    opponent: Opponent = make_opponent(settings.opponent, settings.seed, knowledge)
    if settings.scripted is not None:
        opponent = ScriptedOpponent(settings.scripted, opponent)
    session, folder = program if program is not None else start_program(manifest, settings)
    warm_up = threading.Thread(target=_warm_up, daemon=True)
    warm_up.start()
    referee = Referee(session, manifest, settings, opponent, knowledge, warm_up)
    try:
        found, fault = _play(referee)
        ending, end_fault = _end(session, found, fault, settings)
    except BaseException:  # interrupted: leave nothing of the program behind
        session.close()
        raise
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    facts = facts_from(found, ending, referee.place, fault or end_fault,
                       output_over_limit=session.over_limit)
    replay_record = Replay(
        seed=settings.seed, games=settings.games, opponent=settings.opponent,
        transport=settings.transport,
        moves=tuple(tuple(game) for game in referee.moves_sent),
        submission=str(manifest.folder) if manifest.folder else "",
        command=manifest.command if manifest.folder is None else (),
    )
    return Run(
        decision=decide(facts), facts=facts, games_played=referee.games_played,
        seconds=time.monotonic() - started, coverage=referee.coverage(),
        draw_test=referee.bead_draws.result(),
        not_checked=() if referee.labelled else UNLABELLED_GAPS,
        transcript=tuple(referee.transcript), game_log=tuple(referee.game_log),
        replay=replay_record,
    )
