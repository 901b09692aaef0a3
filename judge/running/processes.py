"""What a program's processes are doing, seen through /proc: membership, state, memory.

A process lives while any of its threads does. Its first thread may end alone (the `exit`
system call, not `exit_group`) while another runs on: /proc/PID/stat then reads as a zombie,
so a zombie's threads are looked at one by one, and the process is alive, in the state of
its first live thread, while one of them is.
"""

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
ENDED: Final = ("Z", "X")
"""States of a thread that has ended: a zombie, or dead."""


@dataclass(frozen=True)
class Member:
    """A live process of a run: its id, its state, and the thread that state was read from
    (its first thread, or the first live one when that has ended)."""

    pid: int
    state: str
    thread: int


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




def _state(path: str) -> str | None:
    """The state letter of a stat file, None when it cannot be read."""
    try:
        with open(path, "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0].decode()
    except (OSError, IndexError, UnicodeDecodeError):
        return None


def _live_thread(pid: int) -> tuple[int, str] | None:
    """The first live thread of a process whose first thread has ended, and its state."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for thread in threads:
        state = _state(f"/proc/{pid}/task/{thread}/stat")
        if state is not None and state not in ENDED:
            return int(thread), state
    return None


def _alive(pid: int, state: str) -> Member | None:
    """The process `pid`, whose stat reads `state`, if some thread of it is alive."""
    if state not in ENDED:
        return Member(pid, state, pid)
    live = _live_thread(pid)
    return None if live is None else Member(pid, live[1], live[0])


def member(pid: int) -> Member | None:
    """The process `pid` if it is alive (some thread of it is), else None."""
    state = _state(f"/proc/{pid}/stat")
    return None if state is None else _alive(pid, state)


def states(pids: list[int]) -> list[Member]:
    """The live processes among `pids`."""
    return [found for pid in pids if (found := member(pid)) is not None]


def _carries(found: Member, needle: bytes) -> bool:
    """True when the environment of a process (read from its live thread) holds `needle`."""
    try:
        with open(f"/proc/{found.pid}/task/{found.thread}/environ", "rb") as environ:
            return needle in environ.read()
    except OSError:
        return False


def group_members(pgid: int, marker: str = "") -> list[int]:
    """The live processes of a process group, or carrying `marker` in their environment."""
    members = []
    needle = marker.encode()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            ours = int(fields[2]) == pgid
            state = fields[0].decode()
        except (OSError, ValueError, IndexError, UnicodeDecodeError):
            continue
        found = _alive(int(entry.name), state)
        if found is not None and (ours or needle and _carries(found, needle)):
            members.append(found.pid)
    return members


def descendants(root: int) -> list[int]:
    """The processes descended from `root`, itself included (zombies too)."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    parent = int(stat.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack.extend(children.get(pid, []))
    return found


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


def look(members: list[Member]) -> ProcessReading:
    """What the processes of a run are doing right now."""
    machine = os.uname().machine
    running = reading = sleeping = False
    for found in members:
        if found.state == "R":
            running = True
            continue
        call = _syscall(found.thread)
        if call is not None:
            number, first = call
            reading = reading or (number in READ_SYSCALLS.get(machine, set()) and first == 0
                                  or number in POLL_SYSCALLS.get(machine, set()))
            sleeping = sleeping or number in SLEEP_SYSCALLS.get(machine, set())
            continue
        wchan = _wchan(found.thread)
        reading = reading or any(word in wchan for word in READ_WCHANS)
        sleeping = sleeping or any(word in wchan for word in SLEEP_WCHANS)
    return ProcessReading(running, reading, sleeping, len(members))


def busy(members: list[Member]) -> bool:
    """True when one of these processes is runnable: making progress, or starved of a core.
    An uninterruptible wait (state D) is not progress by itself: a vfork's parent waits so for
    as long as its child likes, using no CPU."""
    return any(found.state == "R" for found in members)


@dataclass(frozen=True)
class Progress:
    """One look at a program the judge is waiting for: what it does, what it has used."""

    reading: ProcessReading
    busy: bool
    """Some process of the run, the sandbox's own included, is runnable: it is making
    progress, or would be with a core."""
    cpu_seconds: float
    """CPU time of the whole run so far (judge/running/usage.py counts it without a control
    group)."""
    memory_bytes: int
    """Address space of its processes together."""


def memory_in_use(members: list[Member]) -> int:
    """The address space, in bytes, of the processes of a run together."""
    total = 0
    for found in members:
        try:
            with open(f"/proc/{found.thread}/statm") as statm:
                total += int(statm.read().split()[0]) * resource.getpagesize()
        except (OSError, ValueError, IndexError):
            continue
    return total
