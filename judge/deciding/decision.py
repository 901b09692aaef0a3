"""The facts of a run, and the verdict decided from them in the order written in docs/judge.md."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from judge.deciding import checks
from judge.running.ending import Ending
from judge.terms.stops import (
    CpuTimeOver,
    Failed,
    Finished,
    HungAfterEnd,
    InputClosed,
    OutputEnded,
    OutputOverLimit,
    Stall,
    Stalled,
    Stop,
    WallTimeOver,
)
from judge.terms.verdicts import Check, Failure, Place, Verdict


@dataclass(frozen=True)
class Facts:
    """Everything the judge observed in one run, from which the verdict is decided."""

    failure: Failure | None = None
    exit_failure: Failure | None = None
    """Check 8 on how the program ended on its own: too early, or leaving processes behind."""
    stall: Stall | None = None
    ending: Ending | None = None
    finished: bool = False
    """True when every game was played and the last dump read."""
    place: Place = field(default_factory=Place)
    """Where the session stood when it stopped."""
    output_over_limit: bool = False
    wall_time_over: bool = False
    cpu_time_over: bool = False
    hung_after_end: bool = False
    closed: str = ""
    """The stream the program closed before the end, `its standard input` or `... output`."""
    judge_fault: str = ""


def with_stop(facts: Facts, stop: Stop) -> Facts:
    """The facts with the reason the run stopped added."""
    match stop:
        case Failed():
            return replace(facts, failure=stop.failure)
        case Stalled():
            return replace(facts, stall=stop.stall)
        case OutputEnded():  # what matters only if the program still runs
            return replace(facts, closed="its standard output")
        case InputClosed():
            return replace(facts, closed="its standard input")
        case OutputOverLimit():
            return replace(facts, output_over_limit=True)
        case WallTimeOver():
            return replace(facts, wall_time_over=True)
        case CpuTimeOver():
            return replace(facts, cpu_time_over=True)
        case HungAfterEnd():
            return replace(facts, hung_after_end=True)
        case Finished():
            return replace(facts, finished=True)
    return facts


@dataclass(frozen=True)
class Decision:
    """A verdict, the check it concerns (if any), and why, in one sentence or a few."""

    verdict: Verdict
    check: Check | None
    reason: str
    place: Place = field(default_factory=Place)
    expected: str = ""
    got: str = ""
    evidence: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    """The likely fixes, shown after the facts (judge/deciding/hints.py adds the whole run's)."""
    declarable: tuple[tuple[str, str], ...] = ()
    """Declarations under which the same output might pass, not yet checked."""
    offered: tuple[tuple[str, str], ...] = ()
    """Declarations the run was found to pass under, offered in a hint."""

    def line(self) -> str:
        """The verdict as printed on the report's last line."""
        return self.verdict.value + (f" {self.check.value}" if self.check else "")


MEMORY_WORDS = ("MemoryError", "bad_alloc", "out of memory", "Cannot allocate memory",
                "OutOfMemory", "memory allocation failed", "heap exhausted", "OOM")
DISK_WORDS = ("No space left on device", "ENOSPC", "File too large", "EFBIG",
              "Disk quota exceeded")
SIGXCPU = 24
SIGXFSZ = 25
SIGKILL = 9


def _ended_for_memory(ending: Ending) -> bool:
    """True when the program's end looks like the address-space limit."""
    if ending.killed_by_judge or (ending.status in (0, None) and ending.signal is None):
        return False
    return any(word in line for line in ending.stderr_tail for word in MEMORY_WORDS)


def _filled_the_disk(ending: Ending) -> bool:
    """True when the program passed its file-size limit or filled its folder or /tmp."""
    if ending.killed_by_judge:
        return False
    return ending.signal == SIGXFSZ or (
        (ending.status not in (0, None) or ending.signal is not None)
        and any(word in line for line in ending.stderr_tail for word in DISK_WORDS))


def _ended_on_its_own_badly(ending: Ending) -> bool:
    """True when it ended by itself with a non-zero status or a signal."""
    return not ending.killed_by_judge and (ending.signal is not None or bool(ending.status))


def _ending_text(ending: Ending) -> str:
    """How it ended, in words."""
    if ending.signal is not None:
        return f"it was killed by signal {ending.signal}"
    return f"it exited with status {ending.status}"


def decide(facts: Facts) -> Decision:
    """The verdict for a run, decided in the order written in docs/judge.md."""
    ending = facts.ending
    if facts.judge_fault:
        return Decision(Verdict.JUDGE_ERROR, None, facts.judge_fault, facts.place)
    if facts.output_over_limit:
        return Decision(Verdict.OUTPUT_LIMIT, None, "its output passed the output limit",
                        facts.place)
    contained = ending.containment if ending is not None else None
    if contained is not None and contained.memory_hit:
        return Decision(Verdict.MEMORY_LIMIT, None,
                        "its processes together passed the memory limit", facts.place)
    if contained is not None and contained.processes_hit:
        return Decision(Verdict.PROCESS_LIMIT, None,
                        "it tried to start more processes than the limit allows", facts.place)
    if ending is not None and _filled_the_disk(ending):
        return Decision(Verdict.DISK_LIMIT, None,
                        "it passed the file-size limit or filled its folder or /tmp",
                        facts.place)
    if ending is not None and _ended_for_memory(ending):
        return Decision(Verdict.MEMORY_LIMIT, None,
                        f"it ran out of memory ({_ending_text(ending)})", facts.place)
    if contained is not None and contained.cpu_hit:
        return Decision(Verdict.TIME_LIMIT, None,
                        "its processes together used up the CPU time limit", facts.place)
    if facts.cpu_time_over:
        return Decision(Verdict.TIME_LIMIT, None,
                        "its processes together used up the CPU time limit", facts.place)
    if ending is not None and ending.signal == SIGXCPU and not ending.killed_by_judge:
        return Decision(Verdict.TIME_LIMIT, None, "it used up its CPU time limit", facts.place)
    if facts.wall_time_over:
        return Decision(Verdict.TIME_LIMIT, None, "the run passed its wall-clock cap",
                        facts.place)
    if facts.hung_after_end:
        return Decision(Verdict.TIME_LIMIT, Check.EXIT,
                        "it was still running after the grace period that follows the last dump",
                        facts.place)
    if facts.failure is not None:
        failure = facts.failure
        reason = (f"check {failure.check.value} failed" if failure.check
                  else "its output could not be read")
        return Decision(failure.verdict, failure.check, reason, failure.place,
                        failure.expected, failure.got, failure.evidence, failure.hints,
                        failure.declarable)
    if ending is not None and _ended_on_its_own_badly(ending):
        where = "after the last dump" if facts.finished else facts.place.within
        return Decision(Verdict.RUNTIME_ERROR, None, f"{_ending_text(ending)} {where}",
                        facts.place)
    if facts.exit_failure is not None:
        failure = facts.exit_failure
        return Decision(Verdict.WRONG_ANSWER, Check.EXIT, failure.got, failure.place,
                        failure.expected, failure.got)
    if facts.closed and ending is not None and ending.killed_by_judge and not facts.finished:
        could_not = ("send it the next line" if facts.closed.endswith("input")
                     else "read the rest of the session")
        return Decision(Verdict.RUNTIME_ERROR, None,
                        f"it closed {facts.closed} and went on running, so the judge could "
                        f"not {could_not}", facts.place)
    if facts.stall is not None:
        stall = facts.stall
        return Decision(Verdict.IDLE, checks.interactive(stall.waiting_for_input),
                        f"it printed nothing for {stall.waited:.1f} s, using "
                        f"{stall.cpu_seconds:.1f} s of CPU: {stall.reading}",
                        stall.place)
    if not facts.finished:
        return Decision(Verdict.JUDGE_ERROR, None, "the run stopped without a reason",
                        facts.place)
    return Decision(Verdict.ACCEPTED, None, "every check passed", facts.place)
