"""What a program's processes are doing, seen through /proc: membership, state, memory."""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass
from typing import Final

from judge.terms.options import Transport

READ_SYSCALLS: Final = {"x86_64": {0, 17, 19}, "aarch64": {63, 65, 67}}
"""read, pread64, readv: with fd 0 as first argument, the program is reading its input."""
POLL_SYSCALLS: Final = {"x86_64": {7, 23, 232, 270, 271, 281, 441}, "aarch64": {72, 73, 22, 441}}
"""poll, select, epoll_wait and kin: an event loop waiting, most likely for input."""
SLEEP_SYSCALLS: Final = {"x86_64": {35, 230}, "aarch64": {101, 115}}
READ_WCHANS: Final = ("pipe_read", "tty_read", "wait_woken", "poll", "select")
SLEEP_WCHANS: Final = ("nanosleep",)
CLOCK_TICKS: Final = os.sysconf("SC_CLK_TCK")
"""Clock ticks a second, the unit of CPU times in /proc."""

@dataclass(frozen=True)
class ProcessReading:
    """What the program's processes were doing when looked at."""

    running: bool
    reading_stdin: bool
    sleeping: bool
    count: int

    def describe(self, transport: Transport) -> str:
        """The judge's best reading of a silent program, in words."""
        if self.running:
            return "it is still busy (running, using CPU)"
        if self.reading_stdin:
            if transport is Transport.PIPE:
                return ("it is waiting for input before printing its move: it reads ahead, or "
                        "its output is still in a buffer it never flushed (try --transport pty)")
            return "it is waiting for input before printing its move (it reads ahead)"
        if self.sleeping:
            return "it is sleeping"
        if self.count == 0:
            return "its processes are gone but its output is held open"
        return "it is blocked, neither reading its input nor running"




def group_members(pgid: int, marker: str = "") -> list[tuple[int, str]]:
    """The live processes of a process group, or carrying `marker` in their environment."""
    members = []
    needle = marker.encode()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            if fields[0] in (b"Z", b"X"):
                continue
            ours = int(fields[2]) == pgid
            if not ours and needle:
                with open(f"/proc/{entry.name}/environ", "rb") as environ:
                    ours = needle in environ.read()
        except OSError:
            continue
        if ours:
            members.append((int(entry.name), fields[0].decode()))
    return members


def _wchan(pid: int) -> str:
    """The kernel function a process sleeps in, or empty when unknown."""
    try:
        with open(f"/proc/{pid}/wchan") as file:
            return file.read()
    except OSError:
        return ""


def _syscall(pid: int) -> tuple[int, int] | None:
    """The system call a process is blocked in and its first argument, if readable."""
    try:
        with open(f"/proc/{pid}/syscall") as file:
            fields = file.read().split()
    except OSError:
        return None
    if len(fields) < 2 or not fields[0].lstrip("-").isdigit():
        return None
    return int(fields[0]), int(fields[1], 16)


def user_processes(uid: int) -> int:
    """How many processes (threads included) a user runs: RLIMIT_NPROC counts them all."""
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    with open(f"/proc/{entry.name}/stat", "rb") as stat:
                        count += int(stat.read().rsplit(b")", 1)[1].split()[17])
            except (OSError, ValueError, IndexError):
                continue
    return count


def states(pids: list[int]) -> list[tuple[int, str]]:
    """The live processes among `pids`, with their states (zombies left out)."""
    found = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                state = stat.read().rsplit(b")", 1)[1].split()[0].decode()
        except (OSError, IndexError):
            continue
        if state not in ("Z", "X"):
            found.append((pid, state))
    return found


def look(members: list[tuple[int, str]]) -> ProcessReading:
    """What the processes of a run (pids and states) are doing right now."""
    machine = os.uname().machine
    running = reading = sleeping = False
    for pid, state in members:
        if state == "R":
            running = True
            continue
        call = _syscall(pid)
        if call is not None:
            number, first = call
            reading = reading or (number in READ_SYSCALLS.get(machine, set()) and first == 0
                                  or number in POLL_SYSCALLS.get(machine, set()))
            sleeping = sleeping or number in SLEEP_SYSCALLS.get(machine, set())
            continue
        wchan = _wchan(pid)
        reading = reading or any(word in wchan for word in READ_WCHANS)
        sleeping = sleeping or any(word in wchan for word in SLEEP_WCHANS)
    return ProcessReading(running, reading, sleeping, len(members))


BUSY_STATES: Final = ("R", "D")
"""Process states of a process that is making progress: runnable, or in a disk wait."""


def busy(members: list[tuple[int, str]]) -> bool:
    """True when one of these processes is runnable or in an uninterruptible wait."""
    return any(state in BUSY_STATES for _, state in members)


def cpu_seconds(members: list[tuple[int, str]]) -> float:
    """The CPU time, user and system, that the live processes of a run have used."""
    ticks = 0
    for pid, _ in members:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
        except (OSError, ValueError, IndexError):
            continue
    return ticks / CLOCK_TICKS


@dataclass(frozen=True)
class Progress:
    """One look at a program the judge is waiting for: what it does, what it has used."""

    reading: ProcessReading
    busy: bool
    """Some process of the run, the sandbox's own included, is runnable or in an
    uninterruptible wait (starting up, paging, writing): it is making progress."""
    cpu_seconds: float
    """CPU time of the whole run so far (of its live processes, without a control group)."""
    memory_bytes: int
    """Address space of its processes together."""
    output_bytes: int
    """Bytes it has printed so far, stdout and stderr."""


def memory_in_use(members: list[tuple[int, str]]) -> int:
    """The address space, in bytes, of the processes of a run together."""
    total = 0
    for pid, _ in members:
        try:
            with open(f"/proc/{pid}/statm") as statm:
                total += int(statm.read().split()[0]) * resource.getpagesize()
        except (OSError, ValueError, IndexError):
            continue
    return total
