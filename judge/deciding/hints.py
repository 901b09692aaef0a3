"""Hints: after the facts of a rejection, the likely fix, in a sentence.

The checks add the hints that follow from what they saw (a missed line, a box kept twice
under a symmetry, a dump far short of 304 boxes, an empty box an undeclared reading would
explain, beads in a form the judge does not know); `for_run` adds those that follow from how
the run ended (a crash at the first move typed, a silence that only a slow start explains, a
limit). A hint never replaces a fact: it comes after them.
"""

from __future__ import annotations

from judge.deciding.decision import Decision, Facts
from judge.deciding.phrases import REFILL_ON_DRAW
from judge.terms.options import MoveFormat, RefillRule
from judge.terms.verdicts import Check, Verdict


def for_run(decision: Decision, facts: Facts, moves: MoveFormat, refill: RefillRule,
            idle_seconds: float) -> tuple[str, ...]:
    """The hints of a whole run: the check's own, then those that follow from how it ended."""
    hints = list(decision.hints)
    ending = facts.ending
    place = decision.place
    stderr = " ".join(ending.stderr_tail) if ending is not None else ""
    stall = facts.stall
    waits = stall is not None and stall.waiting_for_input
    if decision.verdict not in (Verdict.ACCEPTED, Verdict.JUDGE_ERROR) and place.game == 1 \
            and place.move == 1 and moves is MoveFormat.LETTERS:
        digits = "int(" in stderr or "invalid literal" in stderr or "NaN" in stderr
        what = ("waited for another line after" if waits else "ended at"
                if decision.verdict is Verdict.RUNTIME_ERROR else "went wrong at")
        hints.append(("it seems to read moves as numbers: " if digits else
                      f"it {what} the first move the judge typed, two letters such as MM "
                      "(SPEC section 2); if it reads moves in another form, ")
                     + 'declare moves = "digits" (1 to 9) or "digits0" (0 to 8) '
                       "(SPEC section 8)")
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
    if decision.check is Check.EXIT and ending is not None and ending.leftovers:
        hints.append("every process it starts must end before it exits (wait for them)")
    if refill is RefillRule.ON_EMPTY and (
            decision.check is Check.LEARNING and "a refill of 3 beads" in decision.expected
            or decision.check is Check.BEAD_DRAWS and decision.got.endswith("which had none")):
        hints.append(REFILL_ON_DRAW)
    return tuple(dict.fromkeys(hints))
