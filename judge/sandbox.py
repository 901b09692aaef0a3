"""Containment of a judged program: what it sees, what it may use, who it runs as, when it ends.

Theory of operation. Under `full`, a run is these processes:

1. the judge: it never runs untrusted code, it loads all of its own code before the program
   starts, and it writes every report once the run's tree is dead;
2. the keeper, `bwrap` (bubblewrap), with a parent-death signal (SIGKILL, `--die-with-parent`):
   a starter shell joins the run's control groups (judge/cgroups.py) and `prlimit` sets the
   per-process limits before they exec it, so that everything after it is counted against
   the run's caps, and no Python code runs between fork and exec; it builds new pid, mount, network, ipc, uts
   and cgroup namespaces, and exits with the warden's status as soon as the warden exits;
3. bwrap's init, pid 1 of the new pid namespace, with a parent-death signal too: it dies with
   the keeper, and when it dies the kernel kills every process left in the namespace;
4. the warden, a few lines of `sh` (pid 2), deaf to the signals it can catch, as an
   unprivileged user in a user namespace of its own: uid 65534 (`setpriv`, then `unshare
   --user`) when the judge is root, the judge's own uid mapped by bwrap otherwise; no
   capabilities, `no_new_privs`. It starts the program, waits for it, counts the processes
   still alive in the namespace, writes that count on a pipe only it holds, and exits with
   the program's status (128 + N for signal N). The program runs as the same user, so it
   can SIGKILL or SIGSTOP its warden: that only ends or stalls its own run;
5. the program and whatever it starts, in a filesystem of read-only runtimes (/usr, selected
   files of /etc, the interpreter's own folder) where only its working folder and /tmp can
   be written, both on size-capped tmpfs, gone with the mount namespace.

What each limit stops: the memory cap (control group) holds the whole tree and its tmpfs
files; the process cap (control group) stops a fork bomb; CPU time is capped per process
(RLIMIT_CPU) and for the whole tree (counted by the control group, checked at the end),
and the run's wall time bounds both; file size
(RLIMIT_FSIZE) and the tmpfs sizes stop a disk fill; RLIMIT_NOFILE caps open files; no
network; the pid namespace hides the judge, so it can neither read nor signal it.

What `full` does not stop: reading world-readable files of the bound runtimes; using its CPU
and wall-time budget as it likes; a kernel bug. `partial` lacks what it lists: without
namespaces the program runs as the judge's user, sees its files, has the network and can
signal it, and leftovers are found by process group and an environment marker; without
control groups the limits are per process (address space times the process cap). `none` is
a process group with per-process limits only, for trusted code.
"""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import IO, Final

from judge.cgroups import CgroupError, Layout, TreeLimits, find_layout, remove_stale
from judge.options import SandboxPolicy
from judge.processes import user_processes

SANDBOX_UID: Final = 65534
"""The user a root judge runs programs as: `nobody`."""
EXTRA_PROCESSES: Final = 3
"""Processes of the sandbox itself within the process cap: keeper, init, warden."""
ETC_FILES: Final = ("ld.so.cache", "alternatives")
"""What of /etc the runtimes need (the dynamic linker's cache, Debian's links to commands);
the rest of /etc stays invisible. Each bind costs start-up time: keep this short."""
SYSTEM_ROOTS: Final = ("usr", "bin", "lib", "lib32", "lib64", "libx32", "sbin")
PROGRAM_INNER_PID: Final = 3
"""The program's first process in its pid namespace: after bwrap's init (1) and the warden (2)."""
JOIN: Final = ('while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; '
                'exec "$@"')
"""The starter's script: join each control group named before `--`, then exec the rest."""
COUNT_LEFT: Final = (
    'left=0; for p in /proc/[0-9]*; do read -r stat < "$p/stat" 2>/dev/null || continue; '
    'case "${stat##*) }" in Z*|X*) ;; *) left=$((left + 1));; esac; done; ')
"""Shell that counts the live processes of the pid namespace."""


def warden(report: int | None) -> str:
    """The warden's script: run the program in the foreground (the signals it catches are only
    handled once the program ends, and the program gets them at their defaults), then write on
    descriptor `report`, which the program does not get, how many processes outlive it (less
    init and itself), and exit with its status. No count when `report` is None."""
    trap = 'trap : HUP INT QUIT TERM USR1 USR2 PIPE ALRM; '
    if report is None:
        return trap + '"$@"; exit $?'
    return (trap + f'"$@" {report}>&-; status=$?; ' + COUNT_LEFT
            + f'echo $((left - 2)) >&{report}; exit "$status"')


class Level(StrEnum):
    """How well a run is contained."""

    FULL = "full"
    PARTIAL = "partial"
    NONE = "none"


class SandboxError(RuntimeError):
    """Containment that was required but is not available."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run; None means no limit (the judge's defaults: judge.options)."""

    cpu_seconds: int | None = None
    memory_mb: int | None = None
    file_mb: int | None = None
    disk_mb: int | None = None
    """Size of the working folder and of /tmp, each (tmpfs, under namespaces)."""
    processes: int | None = None
    open_files: int | None = None
    output_bytes: int | None = None


@dataclass(frozen=True)
class Support:
    """What containment this machine gives: a reason for each part that is missing."""

    namespaces: str = ""
    """Empty when bwrap can build the namespaces, else why not."""
    cgroups: str = ""
    """Empty when a control group can be made for each run, else why not."""
    layout: Layout | None = None
    chosen_off: bool = False

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


@dataclass(frozen=True)
class Containment:
    """The facts of a contained run, once its tree is dead."""

    level: Level
    missing: tuple[str, ...] = ()
    memory_hit: bool = False
    processes_hit: bool = False
    cpu_seconds: float | None = None
    cpu_hit: bool = False
    peak_memory_kb: int | None = None
    leftovers: int | None = None
    """Processes alive when the program's main process ended (None when not counted)."""


def _runs_as_root() -> bool:
    """True when the judge is root and so must drop to an unprivileged user."""
    return os.geteuid() == 0


def _probe_namespaces() -> str:
    """Empty when a contained `true` runs, else why not."""
    if not _tool("bwrap"):
        return "bwrap not found (apt-get install bubblewrap)"
    if _runs_as_root() and not (_tool("setpriv") and _tool("unshare")):
        return "setpriv and unshare (util-linux) are needed to drop root"
    true = _tool("true") or "/bin/true"
    sandbox = Sandbox(Support(cgroups="probe"), Limits(), probing=True)
    try:
        process = sandbox.popen([true], cwd=None, env={"PATH": "/usr/bin:/bin"},
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        _, err = process.communicate(timeout=10)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap cannot start: {error}"
    finally:
        sandbox.release()
    if process.returncode != 0:
        text = err.decode(errors="replace").strip().splitlines()
        return f"bwrap cannot build a sandbox here: {text[-1] if text else process.returncode}"
    return ""


def _probe_cgroups() -> tuple[Layout | None, str]:
    """The cgroup layout when a run's group can be made and removed, else why not."""
    layout, why = find_layout()
    if layout is None:
        return None, why
    try:
        TreeLimits.create(layout, 1 << 30, 8).remove()
        remove_stale(layout)
    except CgroupError as error:
        return None, f"{error} (not writable by this user?)"
    return layout, ""


@functools.cache
def support(policy: SandboxPolicy = SandboxPolicy.AUTO) -> Support:
    """What containment a run gets under `policy` on this machine (probed once)."""
    if policy is SandboxPolicy.OFF:
        return Support(chosen_off=True)
    layout, cgroups = _probe_cgroups()
    found = Support(namespaces=_probe_namespaces(), cgroups=cgroups, layout=layout)
    if policy is SandboxPolicy.REQUIRE and found.level is not Level.FULL:
        raise SandboxError(f"--sandbox require: full containment is not available here "
                           f"({'; '.join(found.missing)})")
    return found


def _bound_roots(program: str) -> list[Path]:
    """Read-only folders the program needs: the interpreter's own, and its program's prefix."""
    roots = {Path(sys.base_prefix), Path(sys.prefix)}
    real = Path(os.path.realpath(program))
    if real.parts[1:2] and real.parts[1] not in SYSTEM_ROOTS:
        roots.add(real.parent.parent if real.parent.name == "bin" else real.parent)
    return sorted(root for root in roots
                  if root.parts[1:2] and root.parts[1] not in SYSTEM_ROOTS)


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


def _descendants(root: int) -> list[int]:
    """The live processes descended from `root`, itself included."""
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


def _read_only(path: Path) -> list[str]:
    """bwrap arguments that show `path` read-only at its own place, its parents traversable."""
    parents = [f for parent in reversed(path.parents[:-1])
               for f in ("--perms", "0755", "--dir", str(parent))]
    return [*parents, "--ro-bind", str(path), str(path)]


def _named_paths(arguments: list[str], cwd: Path | None) -> list[Path]:
    """Existing absolute paths named on the command line, outside the working folder: a bare
    command's own files (`-- python3 /path/menace.py`), shown read-only."""
    named = []
    for argument in arguments:
        path = Path(argument)
        if path.is_absolute() and path.exists() and not (cwd and path.is_relative_to(cwd)):
            named.append(path)
    return named


@functools.cache
def _tool(name: str) -> str:
    """The full path of a command the sandbox runs, found once."""
    return shutil.which(name) or shutil.which(name, path="/usr/bin:/bin:/usr/sbin:/sbin") or ""


@functools.cache
def _system_view() -> tuple[str, ...]:
    """bwrap arguments for the read-only system: /usr, its links, selected /etc files."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in SYSTEM_ROOTS[1:]:
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    args += ["--perms", "0755", "--dir", "/etc"]
    for name in ETC_FILES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return tuple(args)


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
            self.tree = TreeLimits.create(found.layout, memory, processes)
        self._processes: int | None = None
        """RLIMIT_NPROC where no control group caps the tree: the user's count plus the cap."""
        if self.tree is None and limits.processes is not None:
            uid = SANDBOX_UID if self.namespaced and _runs_as_root() else os.getuid()
            self._processes = user_processes(uid) + limits.processes + EXTRA_PROCESSES
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
        command = self._wrapped(argv, cwd) if self.namespaced else argv
        try:
            process = subprocess.Popen(
                self._starter() + command, stdin=stdin, stdout=stdout, stderr=stderr,
                cwd=None if self.namespaced else cwd, env=env, start_new_session=True,
                close_fds=True, pass_fds=tuple(self._open))
        finally:
            for fd in self._open:
                os.close(fd)
            self._open = []
        self.keeper = process.pid
        return process

    def _starter(self) -> list[str]:
        """The commands before the keeper: join the run's groups, set the limits."""
        start: list[str] = []
        if self.tree is not None:
            start = [_tool("sh"), "-c", JOIN, "starter", *self.tree.procs_files(), "--"]
        limits = self.limits

        def cap(option: str, value: int | None, extra: int = 0) -> list[str]:
            return [] if value is None else [f"--{option}={value}:{value + extra}"]
        files = limits.open_files
        if not _tool("prlimit"):
            return start
        return [*start, _tool("prlimit"), *cap("cpu", limits.cpu_seconds, 1),
                *cap("as", None if limits.memory_mb is None else limits.memory_mb << 20),
                *cap("fsize", None if limits.file_mb is None else limits.file_mb << 20),
                *cap("nofile", None if files is None else max(files, len(self._open) + 16)),
                *cap("nproc", self._processes), "--core=0", "--"]

    def _keep(self, fd: int) -> int:
        """`fd` kept open until the sandbox is started, to be passed to it."""
        self._open.append(fd)
        return fd

    def _wrapped(self, argv: list[str], cwd: Path | None) -> list[str]:
        """The bwrap command that runs `argv` in the sandbox."""
        read_end, write_end = os.pipe()
        self._keep(write_end)
        os.set_blocking(read_end, False)
        self._report = read_end
        bwrap = [_tool("bwrap"), "--unshare-pid", "--unshare-net",
                 "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                 "--die-with-parent", "--new-session", *_system_view()]
        for root in _bound_roots(argv[0]):
            bwrap += _read_only(root)
        disk = [] if self.limits.disk_mb is None else ["--size", str(self.limits.disk_mb << 20)]
        bwrap += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", *disk, "--tmpfs", "/tmp"]
        if cwd is not None:
            bwrap += ["--perms", "0777", *disk, "--tmpfs", str(cwd)]
            bwrap += self._copied_in(cwd)
            bwrap += ["--chdir", str(cwd)]
        for named in _named_paths(argv[1:], cwd):
            bwrap += _read_only(named)
        if _runs_as_root():
            bwrap += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
                      "--", _tool("setpriv"), f"--reuid={SANDBOX_UID}",
                      f"--regid={SANDBOX_UID}", "--clear-groups", "--inh-caps=-all",
                      "--ambient-caps=-all", "--bounding-set=-all", "--no-new-privs", "--",
                      _tool("unshare"), "--user", "--map-current-user"]
        else:
            bwrap += ["--unshare-user", "--cap-drop", "ALL"]
        # A plain sh starts fastest but names descriptors 0 to 9 only; bash names any.
        shell = _tool("sh") if write_end <= 9 or not _tool("bash") else _tool("bash")
        report = write_end if write_end <= 9 or shell.endswith("bash") else None
        return [*bwrap, "--", shell, "-c", warden(report), "warden", *argv]

    def _copied_in(self, folder: Path) -> list[str]:
        """bwrap arguments that copy the working folder's files into its tmpfs."""
        args: list[str] = []
        for here, dirs, files in os.walk(folder):
            dirs.sort()
            for name in dirs:
                args += ["--perms", "0777", "--dir", os.path.join(here, name)]
            for name in sorted(files):
                path = os.path.join(here, name)
                try:
                    fd = self._keep(os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW))
                except OSError:
                    continue
                mode = "0777" if os.stat(fd).st_mode & 0o111 else "0666"
                args += ["--perms", mode, "--file", str(fd), path]
        return args

    # -- watching and ending ------------------------------------------------------------

    def members(self) -> list[int] | None:
        """The program's live processes (not the sandbox's own), or None when the caller must
        find them (no namespaces and no control group: by process group and marker)."""
        if self.tree is not None:
            pids = self.tree.members()
        elif self.namespaced and self.keeper:
            pids = _descendants(self.keeper)
        else:
            return None
        if not self.namespaced:
            return pids
        return [pid for pid in pids if pid != self.keeper and _inner_pid(pid) not in (1, 2)]

    def closed_by_program(self, descriptor: int) -> bool:
        """True when the program's first process has closed `descriptor` (0 or 1) and runs
        on. Inside namespaces the keeper and the warden hold its stdin and stdout too, so
        the judge would see no end of output and no broken pipe: it asks /proc instead."""
        if not self.namespaced:
            return False
        if not self._program:
            self._program = next((pid for pid in self.members() or []
                                  if _inner_pid(pid) == PROGRAM_INNER_PID), 0)
        if not self._program:
            return False
        return os.path.isdir(f"/proc/{self._program}/fd") and \
            not os.path.lexists(f"/proc/{self._program}/fd/{descriptor}")

    def kill(self) -> None:
        """SIGKILL every process of the run that the sandbox can find."""
        if self.tree is not None:
            self.tree.kill_all()

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
        leftovers = self._read_leftovers()
        self.release()
        return Containment(
            level=self.level, missing=self.support.missing,
            memory_hit=usage.memory_hit if usage else False,
            processes_hit=usage.processes_hit if usage else False,
            cpu_seconds=usage.cpu_seconds if usage else None,
            cpu_hit=bool(usage and self.limits.cpu_seconds is not None
                         and usage.cpu_seconds > self.limits.cpu_seconds),
            peak_memory_kb=usage.peak_memory_kb if usage else None,
            leftovers=leftovers)

    def _read_leftovers(self) -> int | None:
        """The warden's count of processes that outlived the program, if it wrote one."""
        if self._report is None:
            return None
        try:
            text = os.read(self._report, 64).decode(errors="replace").split()
        except OSError:
            text = []
        return int(text[0]) if text and text[0].isdigit() else None

    def release(self) -> None:
        """Remove the run's groups and close its pipe (idempotent)."""
        if self.tree is not None:
            self.tree.kill_all()
            self.tree.remove()
            self.tree = None
        if self._report is not None:
            os.close(self._report)
            self._report = None
