"""Run a program and talk to it, pexpect-style: spawn, send_line, read_line, with EOF and TIMEOUT.

A `Session` is the live `judge.running.channel.Channel`.
"""

from __future__ import annotations

import fcntl
import os
import resource
import select
import subprocess
import time
import tty
from pathlib import Path
from typing import Final

from judge.running.channel import EOF, OUTPUT_LIMIT, TIMEOUT, NoLine
from judge.running.ending import Ending
from judge.running.output import Output
from judge.running.processes import (
    Member,
    ProcessReading,
    Progress,
    busy,
    look,
    memory_in_use,
    states,
)
from judge.running.sandbox import Sandbox
from judge.terms.options import Transport

CHUNK: Final = 1 << 16
STDERR_PIPE_BYTES: Final = 1 << 20
STDERR_WATCH_AFTER: Final = 0.05
"""Seconds a wait lasts before stderr is watched too."""
AFTER_EXIT_QUIET: Final = 0.1
"""Seconds of silence after the program exits before its output counts as ended."""


class SpawnError(OSError):
    """A command that cannot be started."""


class Session:
    """One running program: its process group, its input, and its output read in big chunks."""

    def __init__(self, process: subprocess.Popen[bytes], stdin_fd: int, stdout_fd: int,
                 stderr_fd: int, transport: Transport, sandbox: Sandbox) -> None:
        self.process = process
        self.sandbox = sandbox
        self.limits = sandbox.limits
        self.pid = process.pid
        self.transport = transport
        self._stdin = stdin_fd
        self._stdout = stdout_fd
        self._stderr = stderr_fd
        self.output = Output(sandbox.limits.output_bytes)
        self._stdout_open = True
        self._stderr_open = True
        self._status: int | None = None
        self._rusage: resource.struct_rusage | None = None
        self._exited_at = 0.0
        self.killed_by_judge = False
        try:
            self._pidfd: int | None = os.pidfd_open(self.pid)
        except (AttributeError, OSError):
            self._pidfd = None

    @classmethod
    def spawn(cls, command: list[str], *, cwd: Path, env: dict[str, str], sandbox: Sandbox,
              transport: Transport = Transport.PTY) -> Session:
        """Start `command` contained by `sandbox`, talking over a pty or pipes."""
        if transport is Transport.PTY:
            master, slave = os.openpty()
            tty.setraw(slave)
            stdin: int = slave
            stdout: int = slave
        else:
            stdin = stdout = subprocess.PIPE
        try:
            process = sandbox.popen(command, cwd=cwd, env=env, stdin=stdin, stdout=stdout,
                                    stderr=subprocess.PIPE)
        except OSError as error:
            sandbox.release()
            if transport is Transport.PTY:
                os.close(master)
                os.close(slave)
            raise SpawnError(f"cannot start {command[0]!r}: {error.strerror}") from None
        assert process.stderr is not None
        stderr_fd = process.stderr.fileno()
        try:
            fcntl.fcntl(stderr_fd, fcntl.F_SETPIPE_SZ, STDERR_PIPE_BYTES)
        except (AttributeError, OSError):
            pass
        if transport is Transport.PTY:
            os.close(slave)
            in_fd, out_fd = master, master
        else:
            assert process.stdin is not None and process.stdout is not None
            in_fd, out_fd = process.stdin.fileno(), process.stdout.fileno()
        for fd in (in_fd, out_fd, stderr_fd):
            os.set_blocking(fd, False)
        return cls(process, in_fd, out_fd, stderr_fd, transport, sandbox)

    # -- talking -------------------------------------------------------------------------

    def send_line(self, text: str) -> bool:
        """Send one line to the program; False when it no longer reads its input."""
        if self.sandbox.closed_by_program(0):
            return False
        data = (text + "\n").encode()
        try:
            while data:
                written = os.write(self._stdin, data)
                data = data[written:]
        except OSError:
            return False
        return True

    def read_line(self, timeout: float | None) -> str | NoLine:
        """The next line of output, or EOF, TIMEOUT (no complete line within `timeout` s) or
        OUTPUT_LIMIT. Bytes without a newline do not make the wait longer: how long a silence
        may last is for judge/running/patience.py to say."""
        output = self.output
        if output.lines:
            return output.lines.popleft()
        deadline = None if timeout is None else time.monotonic() + timeout
        while not output.lines:
            if output.over_limit:
                return OUTPUT_LIMIT
            if not self._stdout_open:
                if output.stdout_ended():
                    break
                return EOF
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                if self.sandbox.closed_by_program(1):
                    self._stdout_open = False
                    continue
                return TIMEOUT
            self._pump(remaining)
        return output.lines.popleft()

    def read_ready(self, most: int) -> list[str]:
        """Up to `most` lines already read, without waiting."""
        lines = self.output.lines
        count = min(most, len(lines))
        if count == len(lines):
            taken = list(lines)
            lines.clear()
            return taken
        return [lines.popleft() for _ in range(count)]

    def ready(self) -> bool:
        """True when reading now would not wait: output, its end, or a line already read."""
        if self.output.lines or not self._stdout_open:
            return True
        return bool(select.select([self._stdout], [], [], 0)[0])

    def _pump(self, timeout: float | None) -> None:
        """Wait up to `timeout` s for output or the program's exit, and take what came.

        Stderr is only watched once a wait passes STDERR_WATCH_AFTER: a program's prompts
        then cost no extra wake-ups, and one that fills its (1 MB) stderr pipe is still
        drained, at the cost of that short wait.
        """
        watched = []
        if self._stdout_open:
            watched.append(self._stdout)
        exited = self._status is not None
        if not exited and self._pidfd is not None:
            watched.append(self._pidfd)
        wait = timeout
        if exited or self._pidfd is None:
            wait = AFTER_EXIT_QUIET if wait is None else min(wait, AFTER_EXIT_QUIET)
        if self._stderr_open:
            quick = STDERR_WATCH_AFTER if wait is None else min(wait, STDERR_WATCH_AFTER)
            ready, _, _ = select.select(watched, [], [], quick) if watched else ([], [], [])
            if not ready and (wait is None or wait > quick):
                watched.append(self._stderr)
                ready, _, _ = select.select(watched, [], [],
                                            None if wait is None else wait - quick)
        else:
            ready, _, _ = select.select(watched, [], [], wait)
        if not ready:
            self._poll_exit()
            if exited and time.monotonic() - self._exited_at >= AFTER_EXIT_QUIET:
                self._stdout_open = False
            return
        for fd in ready:
            if fd == self._pidfd:
                self._poll_exit()
                continue
            try:
                data = os.read(fd, CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if fd == self._stdout:
                if data:
                    self.output.take_stdout(data)
                else:
                    self._stdout_open = False
            elif data:
                self.output.take_stderr(data)
            else:
                self._stderr_open = False

    def _poll_exit(self) -> bool:
        """Reap the program if it has exited; True once it has."""
        if self._status is None:
            pid, status, rusage = os.wait4(self.pid, os.WNOHANG)
            if pid == 0:
                return False
            self._status, self._rusage = status, rusage
            self._exited_at = time.monotonic()
            self.process.returncode = os.waitstatus_to_exitcode(status)
        return True

    @property
    def exited(self) -> bool:
        """True once the program's main process has ended."""
        return self._poll_exit()

    def wait_exit(self, timeout: float) -> bool:
        """Wait up to `timeout` s for the main process to end, still reading its output."""
        deadline = time.monotonic() + timeout
        while not self._poll_exit():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            if self._stdout_open or self._stderr_open:
                self._pump(min(remaining, 0.05) if self._pidfd is None else remaining)
            elif self._pidfd is not None:
                select.select([self._pidfd], [], [], remaining)
            else:
                time.sleep(min(remaining, 0.01))
        return True

    def drain(self, timeout: float, quiet: float, limit: int) -> None:
        """Read and discard output until it ends, or pauses `quiet` s while not busy; over
        `limit` bytes, or still printing when `timeout` s have passed, is a flood."""
        deadline = time.monotonic() + timeout
        output = self.output
        output.discarding = True
        cap = output.bytes + limit
        printing = True
        while self._stdout_open and not output.over_limit:
            if output.bytes > cap:
                output.over_limit = True
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                output.over_limit = printing
                return
            before = output.bytes
            self._pump(min(remaining, quiet))
            printing = output.bytes != before
            if not printing and not self.exited and not self.look().running:
                return  # a pause while it waits; a busy program starved of CPU goes on

    def members(self) -> list[Member]:
        """The program's live processes."""
        return states(self.sandbox.members())

    def look(self) -> ProcessReading:
        """What the program's processes are doing right now."""
        return look(self.members())

    def progress(self) -> Progress:
        """What the program is doing now, and the CPU time and memory it has used."""
        everyone = self.sandbox.members(own=True)
        members = states(self.sandbox.programs_among(everyone))
        return Progress(look(members), busy(states(everyone)), self.sandbox.cpu_seconds(everyone),
                        memory_in_use(members))

    # -- ending --------------------------------------------------------------------------

    def close(self) -> Ending:
        """Kill what is left of the program's processes, verify they are gone: how it ended."""
        if not self._poll_exit():
            self.killed_by_judge = True
            self.sandbox.cpu_seconds()  # a last look at what it used
            self.sandbox.kill()
            _, status, rusage = os.wait4(self.pid, 0)
            self._status, self._rusage = status, rusage
            self.process.returncode = os.waitstatus_to_exitcode(status)
        # Inside namespaces the warden counts what outlived the program; outside, the group.
        counted = self.killed_by_judge or self.sandbox.namespaced
        leftovers = 0 if counted else len(self.members())
        if leftovers or self.sandbox.namespaced:
            self.sandbox.kill()
        self._verify_gone()
        contained = self.sandbox.finish()
        if contained.leftovers and not self.killed_by_judge:
            leftovers = contained.leftovers
        self._drain_stderr_now()
        if self.transport is Transport.PTY:
            os.close(self._stdout)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        if self._pidfd is not None:
            os.close(self._pidfd)
        assert self._status is not None and self._rusage is not None
        code, signal_number = self.sandbox.exit_codes(self._status)
        own_exit = not self.killed_by_judge
        return Ending(
            status=code if own_exit else None,
            signal=signal_number if own_exit else None,
            killed_by_judge=self.killed_by_judge,
            peak_memory_kb=contained.peak_memory_kb,
            cpu_seconds=max(contained.cpu_seconds or 0.0,
                            self._rusage.ru_utime + self._rusage.ru_stime),
            stderr_tail=self.output.stderr_tail(),
            leftovers=leftovers,
            output_over_limit=self.output.over_limit,
            containment=contained,
        )

    def _drain_stderr_now(self) -> None:
        """Take whatever stderr holds, without waiting."""
        while self._stderr_open:
            try:
                data = os.read(self._stderr, CHUNK)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._stderr_open = False
                return
            self.output.take_stderr(data)

    def _verify_gone(self, timeout: float = 2.0) -> None:
        """Wait until no process of the group is left; raise if one survives."""
        deadline = time.monotonic() + timeout
        while self.members():
            if time.monotonic() > deadline:
                raise LeftoverError(f"process group {self.pid} survived SIGKILL")
            self.sandbox.kill()
            time.sleep(0.01)


class LeftoverError(RuntimeError):
    """Processes of a program that the judge could not kill."""
