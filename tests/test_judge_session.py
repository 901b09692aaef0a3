"""The session: talking to a live program over a pty or pipes, and ending it cleanly."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

import pytest

from judge.running.channel import EOF, OUTPUT_LIMIT, TIMEOUT
from judge.running.launch import minimal_environment, resolve_command
from judge.running.probes import support
from judge.running.sandbox import Limits, Sandbox
from judge.running.session import Session, SpawnError
from judge.terms.options import SandboxPolicy, Transport

pytestmark = pytest.mark.e2e


def start(tmp_path: Path, source: str, transport: str = "pty", **limits: int) -> Session:
    """A session with a small Python program written for the test."""
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(source))
    found = support()
    return Session.spawn([sys.executable, str(program)], cwd=tmp_path,
                         env=minimal_environment(tmp_path, marked=not found.namespaced),
                         transport=Transport(transport), sandbox=Sandbox(found, Limits(**limits)))


ECHO = """
    import sys
    line = sys.stdin.readline()
    print("got", line.strip(), flush=True)
"""


@pytest.mark.parametrize("transport", ["pty", "pipe"])
def test_a_line_goes_there_and_back_without_echo(tmp_path: Path, transport: str) -> None:
    """What the judge sends is not echoed back, and lines come without carriage returns."""
    session = start(tmp_path, ECHO, transport)
    assert session.send_line("LL")
    assert session.read_line(5.0) == "got LL"
    assert session.read_line(5.0) is EOF
    assert session.wait_exit(5.0)
    ending = session.close()
    assert (ending.status, ending.signal, ending.killed_by_judge) == (0, None, False)


def test_the_environment_is_explicit(tmp_path: Path) -> None:
    """The child does not inherit PYTHONUNBUFFERED or anything else from the judge."""
    session = start(tmp_path, """
        import os
        print(sorted(os.environ.get(k, "-") for k in ("PYTHONUNBUFFERED", "HOME")))
    """)
    line = session.read_line(5.0)
    session.close()
    assert isinstance(line, str) and "'-'" in line and str(tmp_path) in line


NO_FLUSH = """
    import sys
    print("new game")
    sys.stdin.readline()
"""


def test_a_program_that_never_flushes_stalls_on_a_pipe_only(tmp_path: Path) -> None:
    """On a pipe its output stays in its buffer; on a pty stdout is line-buffered."""
    on_pipe = start(tmp_path, NO_FLUSH, "pipe")
    assert on_pipe.read_line(1.0) is TIMEOUT
    assert on_pipe.look().reading_stdin
    assert on_pipe.close().killed_by_judge
    on_pty = start(tmp_path, NO_FLUSH, "pty")
    assert on_pty.read_line(5.0) == "new game"
    on_pty.close()


def test_a_busy_program_is_seen_running(tmp_path: Path) -> None:
    """A silent program spinning the CPU is read as busy, not waiting."""
    session = start(tmp_path, "while True: pass\n")
    assert session.read_line(0.3) is TIMEOUT
    reading = session.look()
    session.close()
    assert reading.running and not reading.reading_stdin


def test_a_flood_passes_the_output_limit(tmp_path: Path) -> None:
    """Endless output ends in OUTPUT_LIMIT, not in the judge's memory running out."""
    session = start(tmp_path, "while True: print('x' * 1000)\n", output_bytes=1 << 20)
    outcome = None
    for _ in range(10_000):
        outcome = session.read_line(5.0)
        if not isinstance(outcome, str):
            break
    session.close()
    assert outcome is OUTPUT_LIMIT


def test_a_process_left_behind_is_counted_and_killed(tmp_path: Path) -> None:
    """A child that outlives the program is reported, killed, and gone afterwards."""
    session = start(tmp_path, """
        import subprocess, sys
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        print("bye", flush=True)
    """)
    assert session.read_line(5.0) == "bye"
    assert session.wait_exit(5.0)
    ending = session.close()
    assert ending.status == 0 and ending.leftovers == 1
    assert session.members() == []


def test_a_crash_reports_its_status_and_stderr(tmp_path: Path) -> None:
    """A program that dies says so through its exit status and the end of its stderr."""
    session = start(tmp_path, "raise KeyError('XO.......')\n")
    assert session.read_line(5.0) is EOF
    assert session.wait_exit(5.0)
    ending = session.close()
    assert ending.status == 1 and "KeyError" in ending.stderr_tail[-1]


def test_python_is_the_judges_own_and_a_missing_command_is_named(tmp_path: Path) -> None:
    """`python3` runs with the judge's interpreter; an unknown program is a clear error."""
    assert resolve_command(("python3", "x.py"), tmp_path, "/bin")[0] == sys.executable
    with pytest.raises(SpawnError, match="no-such-language"):
        resolve_command(("no-such-language", "x"), tmp_path, "/bin")


def test_bytes_without_a_newline_do_not_stretch_a_read(tmp_path: Path) -> None:
    """A program that prints a byte every tenth of a second for three seconds before its first
    newline: a read of at most half a second still ends in half a second, without a line (how
    long a silence may last is for patience to say, by the program's progress)."""
    session = start(tmp_path, """
        import sys, time
        for _ in range(30):
            sys.stdout.write("."); sys.stdout.flush(); time.sleep(0.1)
        print(flush=True)
    """)
    try:
        began = time.monotonic()
        assert session.read_line(0.5) is TIMEOUT
        assert time.monotonic() - began < 1.5
    finally:
        session.close()


HIDDEN_LEFTOVER = """
    import ctypes, os, threading, time
    if os.fork() == 0:
        threading.Thread(target=time.sleep, args=(60,)).start()
        ctypes.CDLL(None).syscall({"x86_64": 60, "aarch64": 93}[os.uname().machine], 0)
    time.sleep(0.3)
    print("bye", flush=True)
"""
"""A program that leaves a child whose first thread ended with the raw `exit` system call while
another thread sleeps on: /proc/PID/stat of the child reads as a zombie."""


@pytest.mark.parametrize("policy", [SandboxPolicy.AUTO, SandboxPolicy.OFF])
def test_a_process_whose_first_thread_ended_is_a_leftover(policy: SandboxPolicy,
                                                          tmp_path: Path) -> None:
    """At every level a process lives while a thread of it does: left behind, it is counted,
    killed, and gone afterwards."""
    found = support(policy)
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(HIDDEN_LEFTOVER))
    session = Session.spawn([sys.executable, str(program)], cwd=tmp_path,
                            env=minimal_environment(tmp_path, marked=not found.namespaced),
                            transport=Transport.PTY, sandbox=Sandbox(found, Limits()))
    assert session.read_line(5.0) == "bye"
    assert session.wait_exit(5.0)
    ending = session.close()
    assert ending.status == 0 and ending.leftovers == 1
    assert session.members() == []
