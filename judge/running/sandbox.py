"""Containment of a judged program: what it sees, what it may use, who it runs as, when it ends.

Theory of operation. Under `full`, a run is these processes:

1. the judge: it never runs untrusted code, it loads all of its own code before the program
   starts, and it writes every report once the run's tree is dead;
2. the keeper, `bwrap` (bubblewrap), with a parent-death signal (SIGKILL, `--die-with-parent`):
   a starter shell joins the run's control groups (judge/running/cgroups.py) and `prlimit` sets the
   per-process limits before they exec it, so that everything after it is counted against
   the run's caps, and no Python code runs between fork and exec; it builds new pid, mount,
   network, ipc, uts and cgroup namespaces (judge/running/bwrap.py builds the world inside), and
   exits with the warden's status as soon as the warden exits;
3. bwrap's init, pid 1 of the new pid namespace, with a parent-death signal too: it dies with
   the keeper, and when it dies the kernel kills every process left in the namespace; when
   the judge is root it stays root, out of the program's reach;
4. the warden (judge/running/warden.py), a few lines of `sh` (pid 2) run from an execute-only copy
   of the shell, so it is not dumpable: the program can neither trace it nor take its
   descriptors (`ptrace`, `pidfd_getfd`, `/proc/PID/fd`). It is deaf to the signals it can
   catch, an unprivileged user in a user namespace of its own: uid 65534 (`setpriv`, then
   `unshare --user`) when the judge is root, the judge's own uid mapped by bwrap otherwise;
   no capabilities, `no_new_privs`. It starts the program, waits for it, counts the processes
   still alive in the namespace, writes that count on a pipe only it holds, and exits with
   the program's status (128 + N for signal N). With the count goes the CPU time the
   namespace's processes have used, their reaped children's included (judge/running/warden.py).
   The judge reads the report strictly: anything else is a judge error. The program runs as
   the same user, so it can SIGKILL or SIGSTOP its warden: that only ends or stalls its own
   run;
5. the program and whatever it starts, in a filesystem of read-only runtimes (/usr, the
   runtimes' configuration in /etc, the folder of each runtime installed elsewhere, the judge's
   Python with its packages, the judge's own code covered) where only its working folder, a
   copy of its files, and /tmp can be written, both on size-capped tmpfs, gone with the mount
   namespace; the sandbox's own root and /dev are read-only. Its arguments are data, never
   mounts.

What each limit stops: the memory cap (control group) holds the whole tree and its tmpfs
files; the process cap (control group) stops a fork bomb; the CPU quota (control group, one
core by default) keeps a run from starving the runs beside it; CPU time is capped per process
(RLIMIT_CPU) and for the whole tree (counted by the control group, checked while the judge
waits and at the end), and a generous wall-clock cap bounds the run; file size (RLIMIT_FSIZE)
and the tmpfs sizes stop a disk fill; RLIMIT_NOFILE caps open files; no network; the pid
namespace hides the judge, so it can neither read nor signal it. The submission folder is
copied in as data (judge/running/workspace.py): no link out of it is followed, no device read.

What `full` does not stop: reading world-readable files of the bound runtimes; using its CPU
and wall-time budget as it likes; a kernel bug. `partial` lacks what it lists: without
namespaces the program runs as the judge's user, sees its files, has the network and can
signal it, and leftovers are found by process group and an environment marker; without
control groups no CPU quota holds, memory is capped for each process alone (address space),
and the tree's CPU time and memory are counted by looking at /proc (judge/running/usage.py):
its CPU time holds, and its memory is held to the limit by killing the run when a look finds
it over, which a peak between two looks escapes. `none` is a process group with per-process
limits only and the same looks, for trusted code.
"""

from __future__ import annotations

import os
import signal
import subprocess
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import IO, Final

from judge.running import bwrap, runtimes, warden
from judge.running.bwrap import tool
from judge.running.cgroups import Layout, TreeLimits
from judge.running.processes import descendants, group_members, user_processes
from judge.running.usage import Count

SANDBOX_UID: Final = 65534
"""The user a root judge runs programs as: `nobody`."""
EXTRA_PROCESSES: Final = 3
"""Processes of the sandbox itself within the process cap: keeper, init, warden."""
RUN_MARKER: Final = "MENACE_JUDGE_RUN"
"""An environment variable, unique to each run, that finds the processes of a run without
namespaces once they have left its process group."""
JOIN: Final = ('while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; '
                'exec "$@"')
"""The starter's script: join each control group named before `--`, then exec the rest."""


class Level(StrEnum):
    """How well a run is contained."""

    FULL = "full"
    PARTIAL = "partial"
    NONE = "none"


class SandboxError(RuntimeError):
    """Containment that was required but is not available."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run, None for no limit (the judge's defaults: judge.terms.options)."""

    cpu_seconds: int | None = None
    """CPU time of the whole tree (and of each process, as a backstop)."""
    memory_mb: int | None = None
    """Memory of the whole tree under control groups, else address space of each process."""
    file_mb: int | None = None
    disk_mb: int | None = None
    """Size of the working folder and of /tmp, each (tmpfs, under namespaces)."""
    processes: int | None = None
    open_files: int | None = None
    output_bytes: int | None = None
    cpus: float | None = None
    """Cores the tree may use at once (a CPU quota, under control groups)."""


@dataclass(frozen=True)
class Support:
    """What containment this machine gives: a reason for each part that is missing."""

    namespaces: str = ""
    """Empty when bwrap can build the namespaces, else why not."""
    cgroups: str = ""
    """Empty when a control group can be made for each run, else why not."""
    layout: Layout | None = None
    chosen_off: bool = False
    groups: str = ""
    """How the judge got its control groups (judge/running/claim.py), where it has them."""

    @property
    def namespaced(self) -> bool:
        """True when runs get their own namespaces."""
        return not self.namespaces and not self.chosen_off

    @property
    def level(self) -> Level:
        """full, partial or none."""
        if self.chosen_off or (self.namespaces and self.cgroups):
            return Level.NONE
        return Level.PARTIAL if self.namespaces or self.cgroups else Level.FULL

    @property
    def missing(self) -> tuple[str, ...]:
        """What the level lacks, one phrase each."""
        if self.chosen_off:
            return ("turned off with --sandbox off",)
        return tuple(f"{what}: {why}" for what, why in (
            ("namespaces", self.namespaces), ("whole-tree limits", self.cgroups)) if why)

    def describe(self) -> str:
        """The level as the report's header gives it."""
        missing = self.missing
        return self.level.value + (f" (missing {'; '.join(missing)})" if missing else "")

    def not_held(self) -> tuple[str, ...]:
        """What this level does not hold against a program, in plain words, one phrase each."""
        if self.chosen_off:
            return ("nothing is contained: the program runs as you, with limits for each of "
                    "its processes alone",)
        phrases = []
        if self.namespaces:
            phrases.append("the program runs as you: it can read and write your files, use the "
                           "network and signal the judge")
        if self.cgroups:
            phrases.append("no CPU quota: it may use every core")
            phrases.append("memory is capped for each process alone; its processes together "
                           "are only checked when the judge looks, twice a second")
        return tuple(phrases)


@dataclass(frozen=True)
class Containment:
    """The facts of a contained run, once its tree is dead."""

    level: Level
    missing: tuple[str, ...] = ()
    not_held: tuple[str, ...] = ()
    """What the level does not hold against a program, in plain words (`Support.not_held`)."""
    memory_hit: bool = False
    processes_hit: bool = False
    cpu_seconds: float | None = None
    cpu_hit: bool = False
    peak_memory_kb: int | None = None
    """The most memory the tree held at once (None when no one measured it)."""
    leftovers: int | None = None
    """Processes alive when the program's main process ended (None when not counted)."""
    fault: str = ""
    """Why the sandbox's own report cannot be trusted (a judge error); empty when it can."""
    looked: bool = False
    """True when the tree's use was counted by looking at /proc (no control group): its
    memory may have peaked higher between two looks."""
    groups: str = ""
    """How the judge got its control groups (`Support.groups`)."""


def runs_as_root() -> bool:
    """True when the judge is root and so must drop to an unprivileged user."""
    return os.geteuid() == 0


def _inner_pid(pid: int) -> int:
    """A process's pid inside its own pid namespace (0 when unknown)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("NSpid:"):
                    return int(line.split()[-1])
    except (OSError, ValueError):
        pass
    return 0


class Sandbox:
    """The containment of one run: start the program inside, list, kill, and read the facts."""

    def __init__(self, found: Support, limits: Limits, probing: bool = False) -> None:
        self.support = found
        self.limits = limits
        self.level = found.level
        self.namespaced = found.namespaced
        self.tree: TreeLimits | None = None
        if found.layout is not None and not found.chosen_off and not probing:
            processes = None if limits.processes is None else limits.processes + EXTRA_PROCESSES
            memory = None if limits.memory_mb is None else limits.memory_mb << 20
            self.tree = TreeLimits.create(found.layout, memory, processes, limits.cpus)
        self._processes: int | None = None
        """RLIMIT_NPROC where no control group caps the tree: the user's count plus the cap."""
        if self.tree is None and limits.processes is not None:
            uid = SANDBOX_UID if self.namespaced and runs_as_root() else os.getuid()
            self._processes = user_processes(uid) + limits.processes + EXTRA_PROCESSES
        self._count = Count() if self.tree is None else None
        """The tree's CPU time and memory, counted by looking where no control group counts."""
        self._memory_hit = False
        self._marker = ""
        """`NAME=value` of the run's environment marker (without namespaces), else empty."""
        self._report: int | None = None
        self.keeper = 0
        """The first process of the run, started by the judge."""
        self._program = 0
        """The program's first process, once found."""
        self._open: list[int] = []

    # -- starting -----------------------------------------------------------------------

    def popen(self, argv: list[str], *, cwd: Path | None, env: dict[str, str],
              stdin: int | IO[bytes] | None, stdout: int | IO[bytes] | None,
              stderr: int | IO[bytes] | None) -> subprocess.Popen[bytes]:
        """Start `argv` contained, in its own session, with the run's limits.

        No Python runs in the child (the judge may be judging in several threads at once):
        a starter shell joins the control groups and `prlimit` sets the limits."""
        try:
            command = self._wrapped(argv, cwd) if self.namespaced else argv
            process = subprocess.Popen(
                self._starter() + command, stdin=stdin, stdout=stdout, stderr=stderr,
                cwd=None if self.namespaced else cwd, env=env, start_new_session=True,
                close_fds=True, pass_fds=tuple(self._open))
        finally:
            for fd in self._open:
                os.close(fd)
            self._open = []
        self.keeper = process.pid
        if not self.namespaced and RUN_MARKER in env:
            self._marker = f"{RUN_MARKER}={env[RUN_MARKER]}"
        return process

    def _starter(self) -> list[str]:
        """The commands before the keeper: join the run's groups, set the limits."""
        start: list[str] = []
        if self.tree is not None:
            start = [tool("sh"), "-c", JOIN, "starter", *self.tree.procs_files(), "--"]
        limits = self.limits

        def cap(option: str, value: int | None, extra: int = 0) -> list[str]:
            return [] if value is None else [f"--{option}={value}:{value + extra}"]
        files = limits.open_files
        if not tool("prlimit"):
            return start
        return [*start, tool("prlimit"), *cap("cpu", limits.cpu_seconds, 1),
                *cap("as", None if limits.memory_mb is None else limits.memory_mb << 20),
                *cap("fsize", None if limits.file_mb is None else limits.file_mb << 20),
                *cap("nofile", None if files is None else max(files, len(self._open) + 16)),
                *cap("nproc", self._processes), "--core=0", "--"]

    def _wrapped(self, argv: list[str], cwd: Path | None) -> list[str]:
        """The bwrap command that runs `argv` in the sandbox, its warden first."""
        read_end, write_end = os.pipe()
        self._open.append(write_end)
        os.set_blocking(read_end, False)
        self._report = read_end
        # A plain sh starts fastest but names descriptors 0 to 9 only; bash names any.
        shell = tool("sh") if write_end <= 9 or not tool("bash") else tool("bash")
        report = write_end if write_end <= 9 or shell.endswith("bash") else None
        shell_fd = os.open(os.path.realpath(shell), os.O_RDONLY | os.O_CLOEXEC)
        self._open.append(shell_fd)
        args = [tool("bwrap"), *bwrap.NAMESPACES, *bwrap.system_view(),
                *bwrap.scratch(self.limits.disk_mb, cwd),
                *bwrap.runtimes_view(runtimes.view(self._runtimes(argv[0], cwd)), self._open),
                "--perms", "0111", "--file", str(shell_fd), bwrap.WARDEN_PATH]
        if cwd is not None:
            args += [*bwrap.copied_in(cwd, self._open), "--chdir", str(cwd)]
        args += [*bwrap.SEALED, *bwrap.drop_privileges(runs_as_root(), SANDBOX_UID)]
        return [*args, bwrap.WARDEN_PATH, "-c", warden.script(report), "warden", *argv]

    @staticmethod
    def _runtimes(program: str, cwd: Path | None) -> list[str]:
        """The runtimes a run needs shown besides the judge's Python: the program started,
        unless it is one of the submission's own files."""
        return [program] if cwd is None or not Path(program).is_relative_to(cwd) else []

    # -- watching and ending ------------------------------------------------------------

    def members(self, *, own: bool = False) -> list[int]:
        """The program's processes (and the sandbox's own too, if `own`): its control group's,
        or the keeper's descendants inside namespaces, or else its process group's and those
        carrying its marker. Zombies may be among them (processes.states tells)."""
        if self.tree is not None:
            pids = self.tree.members()
        elif self.namespaced:
            pids = descendants(self.keeper) if self.keeper else []
        else:
            pids = group_members(self.keeper, self._marker) if self.keeper else []
        return pids if own else self.programs_among(pids)

    def programs_among(self, pids: list[int]) -> list[int]:
        """Those of the run's processes `pids` that are the program's, not the sandbox's own."""
        if not self.namespaced:
            return pids
        return [pid for pid in pids
                if pid != self.keeper and _inner_pid(pid) not in warden.WARDEN_INNER_PIDS]

    def cpu_seconds(self, everyone: list[int] | None = None) -> float:
        """CPU time the whole tree has used so far: its control group's count, or a look at
        /proc at the run's processes (`everyone`, the sandbox's own included, when the caller
        has them), which also holds the memory limit for the tree: over it, the run is
        killed."""
        if self.tree is not None:
            return self.tree.cpu_seconds()
        assert self._count is not None
        self._count.look(self.members(own=True) if everyone is None else everyone)
        memory = self.limits.memory_mb
        if memory is not None and self._count.memory_bytes > memory << 20:
            self._memory_hit = True
            self.kill()
        return self._count.cpu_seconds

    def closed_by_program(self, descriptor: int) -> bool:
        """True when the program's first process has closed `descriptor` (0 or 1) and runs
        on. Inside namespaces the keeper and the warden hold its stdin and stdout too, so
        the judge would see no end of output and no broken pipe: it asks /proc instead."""
        if not self.namespaced:
            return False
        if not self._program:
            self._program = next((pid for pid in self.members() or []
                                  if _inner_pid(pid) == warden.PROGRAM_INNER_PID), 0)
        if not self._program:
            return False
        try:
            os.lstat(f"/proc/{self._program}/fd/{descriptor}")
        except FileNotFoundError:  # no such descriptor, or no such process
            return os.path.isdir(f"/proc/{self._program}/fd")
        except OSError:  # not to be looked at now (a process between two programs): not closed
            return False
        return False

    def kill(self) -> None:
        """SIGKILL every process of the run that the sandbox can find."""
        if self.keeper:
            try:
                os.killpg(self.keeper, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.tree is not None:
            self.tree.kill_all()
        elif not self.namespaced and self._marker:
            for pid in self.members():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    def exit_codes(self, status: int) -> tuple[int | None, int | None]:
        """The program's exit status and terminating signal, from the first process's status."""
        if os.WIFSIGNALED(status):
            return None, os.WTERMSIG(status)
        code = os.WEXITSTATUS(status)
        if self.namespaced and 128 < code < 128 + signal.NSIG:
            return None, code - 128
        return code, None

    def finish(self) -> Containment:
        """The facts of the run, once its tree is dead; frees what the run held."""
        usage = self.tree.usage() if self.tree is not None else None
        report = self._read_report()
        self.release()
        cpu = usage.cpu_seconds if usage else None
        peak = usage.peak_memory_kb if usage else None
        if self._count is not None:
            cpu = max(self._count.cpu_seconds, report.cpu_seconds or 0.0)
            peak = self._count.peak_memory_bytes >> 10 if self._count.looks else None
        return Containment(
            level=self.level, missing=self.support.missing, not_held=self.support.not_held(),
            memory_hit=usage.memory_hit if usage else self._memory_hit,
            processes_hit=usage.processes_hit if usage else False,
            cpu_seconds=cpu,
            cpu_hit=bool(cpu is not None and self.limits.cpu_seconds is not None
                         and cpu > self.limits.cpu_seconds),
            peak_memory_kb=peak, leftovers=report.leftovers, fault=report.fault,
            looked=self._count is not None, groups=self.support.groups)

    def _read_report(self) -> warden.Report:
        """The warden's report, if it wrote one, read strictly."""
        if self._report is None:
            return warden.Report(None)
        try:
            data = os.read(self._report, warden.LONGEST_REPORT)
        except OSError:
            data = b""
        return warden.read_report(data)

    def release(self) -> None:
        """Remove the run's groups and close its pipe (idempotent)."""
        if self.tree is not None:
            self.tree.kill_all()
            self.tree.remove()
            self.tree = None
        if self._report is not None:
            os.close(self._report)
            self._report = None
