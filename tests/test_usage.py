"""What a run's processes used, counted from /proc without a control group: real processes,
looked at as the judge looks at a program it waits for."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator

import pytest

from judge.running.processes import CLOCK_TICKS, Member, busy, descendants, member
from judge.running.usage import Count, reading

pytestmark = pytest.mark.e2e


def counted(code: str) -> Iterator[tuple[Count, list[int]]]:
    """Run Python `code`, looking at its tree every twentieth of a second until it ends; the
    count after each look, and the processes looked at."""
    process = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)])
    count = Count()
    try:
        while process.poll() is None:
            pids = descendants(process.pid)
            count.look(pids)
            yield count, pids
            time.sleep(0.05)
    finally:
        process.kill()
        process.wait()


BURN = "end = time.process_time() + {0}\nwhile time.process_time() < end:\n    pass\n"
"""Python that uses {0} seconds of CPU time."""


def test_a_reaped_childs_cpu_time_is_its_parents() -> None:
    """A child that burns 0.5 s and is waited for: once it is gone, its time is counted."""
    code = ("import os, time\nif os.fork() == 0:\n" + textwrap.indent(BURN.format(0.5), "    ")
            + "    os._exit(0)\nos.wait()\ntime.sleep(1)\n")
    seen = [(count.cpu_seconds, len(pids)) for count, pids in counted(code)]
    after = [cpu for cpu, processes in seen if processes == 1 and cpu > 0]
    assert after and min(after[-5:]) >= 0.45, seen


def test_an_unwaited_childs_cpu_time_is_kept() -> None:
    """A child that burns 0.6 s while its parent ignores SIGCHLD ends without a trace in its
    parent; the parent then burns 0.6 s of its own: the count holds both, what it saw of the
    child kept beside the parent's."""
    code = ("import os, signal, time\nsignal.signal(signal.SIGCHLD, signal.SIG_IGN)\n"
            "if os.fork() == 0:\n" + textwrap.indent(BURN.format(0.6), "    ")
            + "    os._exit(0)\ntime.sleep(1)\n" + BURN.format(0.6) + "time.sleep(0.3)\n")
    final, child = 0.0, 0.0
    for count, pids in counted(code):
        final = count.cpu_seconds
        for pid in pids[1:]:
            found = reading(pid)
            child = max(child, found.total / CLOCK_TICKS if found else 0.0)
    assert child >= 0.3 and final >= child + 0.45, (child, final)


def test_memory_is_the_trees() -> None:
    """Three processes of 60 MB each hold 180 MB together, and the count says so."""
    code = ("import os, time\nfor _ in range(2):\n    if os.fork() == 0:\n        break\n"
            "block = b'x' * (60 << 20)\ntime.sleep(1.5)\n")
    peak = 0
    for count, _ in counted(code):
        peak = count.peak_memory_bytes
    assert peak >= 170 << 20


def test_a_process_lives_while_a_thread_does() -> None:
    """A process whose first thread ended with the `exit` system call reads as a zombie, but it
    lives, in the state of its live thread; a vfork's parent in state D is not busy."""
    code = ("import ctypes, os, threading, time\n"
            "threading.Thread(target=time.sleep, args=(3,)).start()\n"
            "ctypes.CDLL(None).syscall({'x86_64': 60, 'aarch64': 93}[os.uname().machine], 0)\n")
    process = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 10
        while (found := member(process.pid)) is None or found.thread == process.pid:
            assert time.monotonic() < deadline, found
            time.sleep(0.02)
        assert found.state == "S" and found.pid == process.pid
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    assert member(process.pid) is None
    assert busy([Member(1, "D", 1)]) is False and busy([Member(1, "R", 1)]) is True
