"""Hints: after the facts of a rejection, the likely fix, in a sentence.

The checks add the hints that follow from what they saw, the rule the program broke first (a
missed line, a box kept twice under a symmetry, a refill of the wrong size, a dump printed
before the game's learning); `for_run` adds those that follow from how the run ended (a crash
at the first move typed, a silence that only a slow start explains, a limit). A hint never
replaces a fact: it comes after them.

A declaration (SPEC section 10) is offered only where the run passes under it: the checks name
the declarations under which the same output might pass, and each is tried (`Trial`): the
same transcript read again under it (judge/deciding/rereading.py) and, where the transcript
ends before the run would have, the program judged again under it. It is written as the
submission declares: an option or the header for a bare file, an option for a bare command,
a key of submission.toml for a folder.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from judge.deciding.decision import Decision, Facts
from judge.deciding.phrases import EXITS, GAMES_ASKED, ONE_LINE_A_MOVE, ROW_FIRST
from judge.terms.manifest import DeclaredIn, Dialect, spelled
from judge.terms.options import MoveFormat
from judge.terms.verdicts import Check, Place, Verdict

Declaration = tuple[str, str]
"""A key of SPEC section 10 and its value: (`refill`, `on-draw`)."""


@dataclass(frozen=True)
class Tried:
    """How a run went under other declarations: passed, or where it failed and under which
    further declarations that failure might pass."""

    passed: bool
    place: Place = field(default_factory=Place)
    declarable: tuple[Declaration, ...] = ()


Trial = Callable[[Dialect], Tried]
"""How the run goes under these declarations."""

MEANINGS: Final = {
    ("refill", "on-draw"): "an emptied box refilled only when MENACE next draws from it (the "
                           "challenge's literal reading)",
    ("beads", "0-8"): "beads numbered 0 to 8",
    ("beads", "1-9"): "beads numbered 1 to 9",
    ("beads", "letters"): "beads as squares LL to RR",
    ("moves", "digits"): "O's moves typed as a digit 1 to 9",
    ("moves", "digits0"): "O's moves typed as a digit 0 to 8",
}
"""What each declaration a hint may offer means, in words."""
DIGIT_MOVES: Final = (("moves", "digits"), ("moves", "digits0"))
MOVE_FAULTS: Final = (Verdict.WRONG_ANSWER, Verdict.PRESENTATION_ERROR, Verdict.IDLE,
                      Verdict.RUNTIME_ERROR)
"""Verdicts a move typed in a form the program does not read may explain, at the first move
typed: not a limit, which has a hint of its own."""
MOST_TRIALS: Final = 8
"""Runs tried under other declarations, at most, for one rejection."""
MOST_DECLARED: Final = 3
"""Declarations offered together, at most."""


def declaration_hint(declarations: Sequence[Declaration], where: DeclaredIn) -> str:
    """The hint that offers declarations the run was found to pass under."""
    meant = " and ".join(MEANINGS[declaration] for declaration in declarations)
    return (f"this run passes with {meant}: declare {spelled(declarations, where)} (SPEC "
            "section 10)")


def _order(place: Place) -> tuple[int, int]:
    """A place as a key in the session's order: a game's dump (move 0) after its moves."""
    return place.game, place.move or 10


def passing_declarations(dialect: Dialect, place: Place, declarable: Sequence[Declaration],
                         trial: Trial) -> tuple[Declaration, ...] | None:
    """The fewest declarations, among those a failure names and those the failures under them
    name in turn (each a step further into the run), under which the run passes; None when
    none found within MOST_TRIALS."""
    frontier: list[tuple[tuple[Declaration, ...], Place, Sequence[Declaration]]] = [
        ((), place, declarable)]
    tried = 0
    while frontier:
        declared, at, offered = frontier.pop(0)
        for key, value in dict.fromkeys(offered):
            if dialect.declares(key, value) or any(k == key for k, _ in declared):
                continue
            if tried == MOST_TRIALS:
                return None
            tried += 1
            more = (*declared, (key, value))
            found = trial(dialect.declaring(more))
            if found.passed:
                return more
            if len(more) < MOST_DECLARED and _order(found.place) > _order(at):
                frontier.append((more, found.place, found.declarable))
    return None


def for_run(decision: Decision, facts: Facts, dialect: Dialect, idle_seconds: float, *,
            declared_in: DeclaredIn, typed_move_read: bool,
            trial: Trial | None = None) -> tuple[tuple[str, ...], tuple[Declaration, ...]]:
    """The hints of a whole run: the check's own, then those that follow from how it ended,
    then the declarations the run passes under (tried by `trial`; none without one); and
    those declarations. Where the run passes under other declarations, those that follow from
    how it ended and the declarations come first: the check's own describe a consequence."""
    hints = list(decision.hints)
    declarable = list(decision.declarable)
    ending = facts.ending
    place = decision.place
    stderr = " ".join(ending.stderr_tail) if ending is not None else ""
    stall = facts.stall
    waits = stall is not None and stall.waiting_for_input
    if decision.verdict in MOVE_FAULTS and ROW_FIRST not in decision.hints and place.game == 1 \
            and place.move == 1 and not typed_move_read and dialect.moves is MoveFormat.LETTERS:
        digits = "int(" in stderr or "invalid literal" in stderr or "NaN" in stderr
        what = ("waited for another line after" if waits else "ended at"
                if decision.verdict is Verdict.RUNTIME_ERROR else "went wrong at")
        hints.append(f"the judge types O's moves as two letters, row then column, such as MM "
                     f"(SPEC section 2): it {what} the first one"
                     + (", and seems to read moves as numbers" if digits else ""))
        declarable.extend(DIGIT_MOVES)
    if decision.verdict is Verdict.IDLE and stall is not None and not stall.waiting_for_input \
            and stall.cpu_seconds >= idle_seconds * 0.5:
        hints.append(f"it was busy for {stall.cpu_seconds:.1f} s of CPU without printing: if "
                     "it is only slow to start or to think, allow it more with --idle-limit "
                     f"SECONDS (now {idle_seconds:g})")
    if decision.verdict is Verdict.TIME_LIMIT and decision.check is None and \
            "CPU" in decision.reason:
        hints.append("if it is only slow, allow it more with --time-limit SECONDS (CPU time of "
                     "the whole run)")
    if decision.verdict is Verdict.MEMORY_LIMIT:
        hints.append("if it needs more, allow it with --memory-limit MB")
    if decision.check is Check.EXIT and ending is not None \
            and ending.leftovers:
        hints.append("every process it starts must end before it exits (wait for them)")
    elif facts.hung_after_end or (facts.finished and (
            decision.check is Check.EXIT or decision.verdict is Verdict.RUNTIME_ERROR)):
        hints.append(EXITS)
    elif decision.check is Check.EXIT:
        hints.append(GAMES_ASKED)
    if decision.check is Check.INTERACTIVE and not hints:
        hints.append(ONE_LINE_A_MOVE)
    if trial is not None and declarable and decision.verdict in (
            Verdict.WRONG_ANSWER, Verdict.PRESENTATION_ERROR, Verdict.IDLE,
            Verdict.RUNTIME_ERROR):
        found = passing_declarations(dialect, place, declarable, trial)
        if found is not None:
            # The run passes under other declarations: that is the cause, so it comes first,
            # and what the check saw under these (a consequence) after it.
            own = len(decision.hints)
            hints = [*hints[own:], declaration_hint(found, declared_in), *hints[:own]]
            return tuple(dict.fromkeys(hints)), found
    return tuple(dict.fromkeys(hints)), ()
