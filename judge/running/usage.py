"""What a run's processes have used, counted from /proc where no control group counts it.

CPU time: a process's own, and its children's once it has waited for them (`cutime` and
`cstime`), so the live processes of a run, the sandbox's own included, carry the time of every
process they reaped; the sum is the run's time so far. A process that ended without its
parent waiting for it (a parent that ignores SIGCHLD) takes its time with it: the count keeps
its last reading. Only what lived and ended unwaited-for between two looks goes unseen.
Memory: the proportional resident set (PSS) of the run's processes together, at its largest
when looked at; between two looks it may have been larger.
"""

from __future__ import annotations

import resource
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from judge.running.processes import CLOCK_TICKS, member

PAGE: Final = resource.getpagesize()


@dataclass(frozen=True)
class Reading:
    """One process at one look."""

    parent: int
    started: int
    """Its start time, in clock ticks since boot: with the pid, it names the process."""
    own: int
    """Its own CPU time, user and system, in clock ticks."""
    reaped: int
    """The CPU time of the children it has waited for, in clock ticks."""

    @property
    def total(self) -> int:
        """Its CPU time and its reaped children's, in clock ticks."""
        return self.own + self.reaped


def reading(pid: int) -> Reading | None:
    """The process `pid` now, a zombie included (its time is still its own); None when gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return Reading(parent=int(fields[1]), started=int(fields[19]),
                       own=int(fields[11]) + int(fields[12]),
                       reaped=int(fields[13]) + int(fields[14]))
    except (OSError, ValueError, IndexError):
        return None


def _proportional(pid: int) -> int | None:
    """The proportional resident set of a process, in bytes, or None when it cannot be read."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as rollup:
            for line in rollup:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) << 10
    except (OSError, ValueError, IndexError):
        pass
    return None


def _resident(pid: int) -> int | None:
    """The resident set of a process, in bytes (shared pages counted in full), or None."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * PAGE
    except (OSError, ValueError, IndexError):
        return None


def memory(pid: int) -> int:
    """The memory a process holds, in bytes: its PSS where readable, else its resident set;
    read through a live thread (a process whose first thread has ended reads as empty)."""
    found = member(pid)
    if found is None:
        return 0
    size = _proportional(found.thread)
    return size if size is not None else _resident(found.thread) or 0


class Count:
    """A run's CPU time and memory, counted look by look."""

    def __init__(self) -> None:
        self._last: dict[int, Reading] = {}
        self._unwaited = 0
        """Clock ticks of processes that ended without their parent waiting for them."""
        self._most = 0
        """The largest CPU time counted so far, in clock ticks."""
        self.memory_bytes = 0
        """The memory of the run's processes together at the last look."""
        self.peak_memory_bytes = 0
        """The largest memory of the run's processes together at any look."""
        self.looks = 0

    @property
    def cpu_seconds(self) -> float:
        """The run's CPU time so far."""
        return self._most / CLOCK_TICKS

    def look(self, pids: Iterable[int]) -> None:
        """Count the run's processes `pids` now, and those seen before that are still there
        (they may have left the run's group but not ended)."""
        self.looks += 1
        members = set(pids)
        now: dict[int, Reading] = {}
        for pid in members | self._last.keys():
            found = reading(pid)
            before = self._last.get(pid)
            if found is not None and (pid in members or before is None
                                      or found.started == before.started):
                now[pid] = found
        ended: dict[int, int] = {}
        for pid, before in self._last.items():
            after = now.get(pid)
            if after is None or after.started != before.started:
                ended[before.parent] = ended.get(before.parent, 0) + before.total
        for parent, ticks in ended.items():
            before, after = self._last.get(parent), now.get(parent)
            if before is not None and after is not None and after.started == before.started:
                self._unwaited += max(0, ticks - (after.reaped - before.reaped))
        self._last = now
        self._most = max(self._most, self._unwaited + sum(found.total for found in now.values()))
        self.memory_bytes = sum(memory(pid) for pid in now)
        self.peak_memory_bytes = max(self.peak_memory_bytes, self.memory_bytes)
