"""The warden: the few lines of shell that start the program inside the sandbox, count what
outlives it, and report that count to the judge on a pipe only the warden holds.

The warden runs from an execute-only copy of the shell: a process that executes a file it may
not read is not dumpable, so the program, though it runs as the same user, can neither trace
the warden nor take its descriptors (`ptrace`, `pidfd_getfd`, `/proc/PID/fd` all need a
dumpable target or a capability the program lacks). Its report is read strictly: anything but
one count is a judge error, never a verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

COUNT_LEFT: Final = (
    'left=0; for p in /proc/[0-9]*; do read -r stat < "$p/stat" 2>/dev/null || continue; '
    'case "${stat##*) }" in Z*|X*) ;; *) left=$((left + 1));; esac; done; ')
"""Shell that counts the live processes of the pid namespace."""
TRAP: Final = "trap : HUP INT QUIT TERM USR1 USR2 PIPE ALRM; "
"""The warden is deaf to the signals it can catch (the program gets them at their defaults)."""
REPORT: Final = re.compile(rb"(0|[1-9][0-9]{0,5})\n")
"""The one report the warden writes: the count of processes that outlived the program."""
LONGEST_REPORT: Final = 64
"""Bytes read from the report pipe: more than any report the warden writes."""
PROGRAM_INNER_PID: Final = 3
"""The program's first process in its pid namespace: after bwrap's init (1) and the warden (2)."""
WARDEN_INNER_PIDS: Final = (1, 2)
"""The sandbox's own processes in the pid namespace: bwrap's init and the warden."""


def script(report: int | None) -> str:
    """The warden's script: run the program in the foreground (the signals the warden catches
    are only handled once the program ends), then write on descriptor `report`, which the
    program does not get, how many processes outlive it (less init and the warden), and exit
    with its status. No count when `report` is None."""
    if report is None:
        return TRAP + '"$@"; exit $?'
    return (TRAP + f'"$@" {report}>&-; status=$?; ' + COUNT_LEFT
            + f'echo $((left - 2)) >&{report}; exit "$status"')


@dataclass(frozen=True)
class Report:
    """What the warden's pipe held once the run was over."""

    leftovers: int | None
    """Processes alive when the program's first process ended; None when nothing came."""
    fault: str = ""
    """Why the report cannot be trusted; empty when it can."""


def read_report(data: bytes) -> Report:
    """The warden's report, read strictly from the bytes its pipe held."""
    if not data:
        return Report(None)
    match = REPORT.fullmatch(data)
    if match is None:
        shown = data[:32].decode("ascii", "backslashreplace")
        return Report(None, f"the sandbox's warden sent a malformed report ({shown!r}): "
                            "the run's facts cannot be trusted, so it gets no verdict")
    return Report(int(match.group(1)))
