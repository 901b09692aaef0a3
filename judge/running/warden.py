"""The warden: the few lines of shell that start the program inside the sandbox, count what
outlives it and the CPU time the namespace's processes have used, and report both to the judge
on a pipe only the warden holds.

The warden runs from an execute-only copy of the shell: a process that executes a file it may
not read is not dumpable, so the program, though it runs as the same user, can neither trace
the warden nor take its descriptors (`ptrace`, `pidfd_getfd`, `/proc/PID/fd` all need a
dumpable target or a capability the program lacks). Its report is read strictly: anything but
one report is a judge error, never a verdict.

A process outlives the program while any of its threads is alive: one whose first thread has
ended alone (the `exit` system call) reads as a zombie in /proc/PID/stat while another thread
runs on, so the warden reads every thread's state. The CPU time is each live process's own
and its reaped children's (`utime`, `stime`, `cutime`, `cstime`): the warden's own carries the
program's, and init's the orphans it reaped, which no one outside the namespace could read
once it is gone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from judge.running.processes import CLOCK_TICKS

COUNT_LEFT: Final = (
    'left=0; ticks=0; for p in /proc/[0-9]*; do read -r stat < "$p/stat" 2>/dev/null || continue; '
    'set -- ${stat##*) }; ticks=$((ticks + ${12} + ${13} + ${14} + ${15})); '
    'for t in "$p"/task/[0-9]*; do read -r stat < "$t/stat" 2>/dev/null || continue; '
    'case "${stat##*) }" in Z*|X*) ;; *) left=$((left + 1)); break;; esac; done; done; ')
"""Shell that counts the processes of the pid namespace with a live thread (`left`) and the
clock ticks of CPU time its processes and their reaped children have used (`ticks`)."""
TRAP: Final = "trap : HUP INT QUIT TERM USR1 USR2 PIPE ALRM; "
"""The warden is deaf to the signals it can catch (the program gets them at their defaults)."""
REPORT: Final = re.compile(rb"(0|[1-9][0-9]{0,5}) (0|[1-9][0-9]{0,15})\n")
"""The one report the warden writes: the count of processes that outlived the program, and
the clock ticks of CPU time the namespace's processes had used then."""
LONGEST_REPORT: Final = 64
"""Bytes read from the report pipe: more than any report the warden writes."""
PROGRAM_INNER_PID: Final = 3
"""The program's first process in its pid namespace: after bwrap's init (1) and the warden (2)."""
WARDEN_INNER_PIDS: Final = (1, 2)
"""The sandbox's own processes in the pid namespace: bwrap's init and the warden."""


def script(report: int | None) -> str:
    """The warden's script: run the program in the foreground (the signals the warden catches
    are only handled once the program ends), then write on descriptor `report`, which the
    program does not get, how many processes outlive it (less init and the warden) and the
    CPU time used, and exit with its status. No report when `report` is None."""
    if report is None:
        return TRAP + '"$@"; exit $?'
    return (TRAP + f'"$@" {report}>&-; status=$?; ' + COUNT_LEFT
            + f'echo "$((left - 2)) $ticks" >&{report}; exit "$status"')


@dataclass(frozen=True)
class Report:
    """What the warden's pipe held once the run was over."""

    leftovers: int | None
    """Processes alive when the program's first process ended; None when nothing came."""
    cpu_seconds: float | None = None
    """CPU time the namespace's processes had used by then; None when nothing came."""
    fault: str = ""
    """Why the report cannot be trusted; empty when it can."""


def read_report(data: bytes) -> Report:
    """The warden's report, read strictly from the bytes its pipe held."""
    if not data:
        return Report(None)
    match = REPORT.fullmatch(data)
    if match is None:
        shown = data[:32].decode("ascii", "backslashreplace")
        return Report(None, fault=f"the sandbox's warden sent a malformed report ({shown!r}): "
                                  "the run's facts cannot be trusted, so it gets no verdict")
    return Report(int(match.group(1)), int(match.group(2)) / CLOCK_TICKS)
