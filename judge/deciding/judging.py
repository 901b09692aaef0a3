"""One judged run, start to verdict: the program started (judge/running/launch.py, the one place
that starts it), played by the referee, ended, its facts gathered and the verdict decided."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from reference.board import EMPTY_BOARD
from reference.solver import value

from judge.deciding import checks
from judge.deciding.checker import checker_for
from judge.deciding.decision import Decision, Facts, decide, with_stop
from judge.deciding.hints import Trial, Tried, for_run
from judge.deciding.opponents import (
    ChoiceOpponent,
    Choices,
    Knowledge,
    Opponent,
    ScriptedOpponent,
    make_opponent,
)
from judge.deciding.randomness import Evidence
from judge.deciding.referee import UNLABELLED_GAPS, Coverage, Played, Referee
from judge.deciding.rereading import reread_transcript
from judge.running import launch
from judge.running.ending import Ending
from judge.running.session import LeftoverError, Session
from judge.terms.boxes import orientations
from judge.terms.manifest import Dialect, Manifest
from judge.terms.replay import Replay
from judge.terms.settings import Settings
from judge.terms.stops import Aftermath, Stop
from judge.terms.verdicts import Place, Verdict

DRAIN_SECONDS: Final = 3.0
DRAIN_QUIET: Final = 0.2
DRAIN_LIMIT: Final = 1 << 20
"""Output a program may still print, given no input, after a failed check before it counts as
a flood."""


@dataclass(frozen=True)
class Run:
    """The judged run: decision, what was observed, and how to play it again."""

    decision: Decision
    facts: Facts
    games_played: int
    seconds: float
    coverage: Coverage
    bead_draws: Evidence
    refill_beads: Evidence
    not_checked: tuple[str, ...]
    transcript: tuple[str, ...]
    game_log: tuple[str, ...]
    """The lines of the last game played, without its dump."""
    replay: Replay


def facts_from(stop: Stop | None, ending: Ending | None, place: Place, fault: str = "") -> Facts:
    """The facts of a run from what stopped it (None: the judge's fault) and how the program
    ended; a sandbox whose own report cannot be trusted is the judge's fault too."""
    if not fault and ending is not None and ending.containment is not None:
        fault = ending.containment.fault
    facts = Facts(ending=ending, place=place, judge_fault=fault,
                  output_over_limit=ending is not None and ending.output_over_limit)
    if stop is not None:
        facts = with_stop(facts, stop)
    if ending is None:
        return facts
    return replace(facts, exit_failure=checks.exit_(ending, facts.finished, place))


def _warm_up() -> None:
    """Build the tables the referee needs (boxes, perfect play) while the program starts up."""
    orientations()
    value(EMPTY_BOARD)


def _end(session: Session, stop: Stop | None, settings: Settings) -> tuple[Ending | None, str]:
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


def opponent_for(settings: Settings, knowledge: Knowledge,
                 choices: Choices | None = None) -> Opponent:
    """Who plays O: the settings' opponent, after a replay's moves if any; or `choices`, O's
    moves scripted by index (for shrinking)."""
    if choices is not None:
        return ChoiceOpponent(choices)
    opponent = make_opponent(settings.opponent, settings.seed, knowledge)
    if settings.scripted is not None:
        return ScriptedOpponent(settings.scripted, opponent)
    return opponent


def judge(manifest: Manifest, settings: Settings, *, choices: Choices | None = None,
          offer_declarations: bool = True, on_game: Callable[[int], None] | None = None) -> Run:
    """Judge one submission: play it under the settings and decide the verdict.

    `choices`, when given, script O's moves by index (`ChoiceOpponent`) instead of the
    settings' opponent. A rejection's hints offer a declaration only where the run was found
    to pass under it (`offer_declarations`; judge/deciding/hints.py). `on_game` is told each
    game's number once it is played.
    """
    begun = time.monotonic()
    knowledge = Knowledge()
    opponent = opponent_for(settings, knowledge, choices)
    checker = checker_for(settings, manifest.dialect)  # forked first: no thread runs yet
    try:
        started = launch.start_program(manifest, settings)
        try:  # from here on, an interruption (SIGTERM, Ctrl-C) leaves nothing behind
            session = started.session
            try:
                warm_up = threading.Thread(target=_warm_up, daemon=True)  # while it starts
                warm_up.start()
                played = Referee(session, manifest.dialect, settings, opponent, knowledge,
                                 warm_up, on_game, checker).play()
                ending, end_fault = _end(session, played.stop, settings)
            except BaseException:  # interrupted: leave nothing of the program behind
                session.close()
                raise
        finally:
            started.remove_folder()
    finally:
        checker.close()
    facts = facts_from(played.stop, ending, played.place, played.fault or end_fault)
    decision = decide(facts)
    trial = _trial(manifest, settings, played, choices) if offer_declarations else None
    hints, offered = for_run(decision, facts, manifest.dialect, settings.idle_seconds,
                             declared_in=manifest.declared_in,
                             typed_move_read=played.typed_move_read, trial=trial)
    decision = replace(decision, hints=hints, offered=offered)
    return Run(
        decision=decision, facts=facts, games_played=played.games_played,
        seconds=time.monotonic() - begun, coverage=played.coverage,
        bead_draws=played.bead_draws, refill_beads=played.refill_beads,
        not_checked=() if played.labelled else UNLABELLED_GAPS,
        transcript=played.transcript, game_log=played.game_log,
        replay=replay_of(manifest, settings, played))


def _trial(manifest: Manifest, settings: Settings, played: Played,
           choices: Choices | None) -> Trial:
    """How the run goes under other declarations: its transcript read again under them
    (typed moves in another form cannot be: the program would have read other lines); where
    the transcript passes but ends before the run would have, the program judged again under
    them, with the same seed."""
    def tried(dialect: Dialect) -> Tried:
        if dialect.moves is manifest.moves:
            again = reread_transcript(played.transcript, dialect, settings.games)
            if again is None:
                return Tried(False)
            if again.failed is not None:
                failure = again.failed.failure
                return Tried(False, failure.place, failure.declarable)
            if again.whole or not again.passes:
                return Tried(again.passes)
        declared = replace(manifest, moves=dialect.moves, beads=dialect.beads,
                           refill=dialect.refill)
        decision = judge(declared, settings, choices=choices,
                         offer_declarations=False).decision
        return Tried(decision.verdict is Verdict.ACCEPTED, decision.place, decision.declarable)
    return tried


def replay_of(manifest: Manifest, settings: Settings, played: Played) -> Replay:
    """What it takes to play the run again: its seed, games, opponent and O's moves."""
    origin = manifest.origin()
    return Replay(
        seed=settings.seed, games=settings.games, opponent=settings.opponent,
        transport=settings.transport, moves=played.moves,
        submission=str(origin) if origin else "",
        command=manifest.command if origin is None else (),
        files=tuple(str(path) for path in manifest.files) if origin is None else ())
