"""Limits on a whole process tree: a control group of its own for each run (cgroup v1 or v2).

A run's group is made in the judge's own subtree (judge/running/claim.py claims it), in each
hierarchy that has the controller:
memory (every page of the tree, its tmpfs files included, against one cap), pids (every
process and thread against one count), cpu accounting (the tree's CPU time, read while it
runs) and, where the machine has it, the cpu controller (a quota of cores, so that runs side
by side each get their share). The first
process of the run joins it before it starts the program, so that everything it starts is a
member, and no unprivileged member can leave. After the run the group says which cap was hit.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Final

CGROUP_ROOT: Final = Path("/sys/fs/cgroup")
V1_CONTROLLERS: Final = ("memory", "pids", "cpuacct")
"""The cgroup v1 hierarchies a run needs: its memory, its processes, its CPU time."""
V1_OPTIONAL: Final = ("cpu",)
"""The cgroup v1 hierarchies a run uses where they are: its CPU quota."""
PERIOD_US: Final = 100_000
"""The CPU quota's period, in microseconds: a quota of N cores is N periods per period."""
PREFIX: Final = "menace-judge-"


class CgroupError(OSError):
    """A control group that cannot be made or used."""


@dataclass(frozen=True)
class TreeUsage:
    """What the tree used and which of its caps it hit, read once it is dead."""

    memory_hit: bool
    processes_hit: bool
    cpu_seconds: float
    peak_memory_kb: int


def v1_mounts() -> dict[str, Path]:
    """Where each cgroup v1 controller is mounted."""
    mounts: dict[str, Path] = {}
    try:
        text = Path("/proc/self/mountinfo").read_text()
    except OSError:
        return mounts
    for line in text.splitlines():
        left, _, right = line.partition(" - ")
        fields, options = left.split(), right.split()
        if len(fields) < 5 or len(options) < 3 or options[0] != "cgroup":
            continue
        for option in options[2].split(","):
            mounts.setdefault(option, Path(fields[4]))
    return mounts


def own_paths() -> dict[str, str]:
    """The judge's own group in each hierarchy: controller name (v1) or "" (v2) to path."""
    paths: dict[str, str] = {}
    try:
        text = Path("/proc/self/cgroup").read_text()
    except OSError:
        return paths
    for line in text.splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            paths[name] = path
    return paths


def _read_int(path: Path, default: int = 0) -> int:
    """An integer from a control file, or `default` when it cannot be read."""
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return default


def _keyed(path: Path, key: str) -> int:
    """The value of `key` in a control file of `key value` lines, 0 when absent."""
    try:
        for line in path.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    except (OSError, ValueError):
        pass
    return 0


@dataclass(frozen=True)
class Layout:
    """Where a run's groups go: the judge's own subtree for each controller, v1 or v2."""

    parents: dict[str, Path]
    """Controller name to the judge's subtree (for v2, one folder under "")."""
    how: str = ""
    """How the judge got its groups, for the report."""

    @property
    def version(self) -> int:
        """1 for separate hierarchies per controller, 2 for the unified one."""
        return 2 if "" in self.parents else 1


def words(path: Path) -> set[str]:
    """The words of a control file, none when it cannot be read."""
    try:
        return set(path.read_text().split())
    except OSError:
        return set()


class TreeLimits:
    """The control groups of one run: made with its caps, joined before exec, read, removed."""

    def __init__(self, folders: dict[str, Path], version: int) -> None:
        self.folders = folders
        self.version = version

    @classmethod
    def create(cls, layout: Layout, memory_bytes: int | None, processes: int | None,
               cpus: float | None = None) -> TreeLimits:
        """Fresh groups for one run with these caps; CgroupError when they cannot be made."""
        name = PREFIX + uuid.uuid4().hex[:12]
        made: dict[str, Path] = {}
        try:
            for controller, parent in layout.parents.items():
                folder = parent / name
                try:
                    folder.mkdir()
                except FileNotFoundError:  # v1: an older judge removes empty subtrees; again
                    parent.mkdir(exist_ok=True)
                    folder.mkdir()
                made[controller] = folder
            limits = cls(made, layout.version)
            limits._set_caps(memory_bytes, processes)
            limits._set_quota(cpus)
        except OSError as error:
            cls(made, layout.version).remove()
            raise CgroupError(f"cannot set up a control group: {error}") from None
        return limits

    def _set_caps(self, memory_bytes: int | None, processes: int | None) -> None:
        """Write the memory and process caps."""
        if self.version == 2:
            folder = self.folders[""]
            if memory_bytes is not None:
                (folder / "memory.max").write_text(str(memory_bytes))
                swap = folder / "memory.swap.max"
                if swap.exists():
                    swap.write_text("0")
            if processes is not None:
                (folder / "pids.max").write_text(str(processes))
            return
        if memory_bytes is not None:
            memory = self.folders["memory"]
            (memory / "memory.limit_in_bytes").write_text(str(memory_bytes))
            swap = memory / "memory.memsw.limit_in_bytes"
            if swap.exists():
                try:
                    swap.write_text(str(memory_bytes))
                except OSError:
                    pass
        if processes is not None:
            (self.folders["pids"] / "pids.max").write_text(str(processes))

    def _set_quota(self, cpus: float | None) -> None:
        """Write the CPU quota, where the cpu controller is there to hold it."""
        if cpus is None:
            return
        quota = max(int(cpus * PERIOD_US), 1000)
        if self.version == 2 and self.has_quota:
            (self.folders[""] / "cpu.max").write_text(f"{quota} {PERIOD_US}")
        elif self.has_quota:
            folder = self._quota_folder()
            (folder / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (folder / "cpu.cfs_quota_us").write_text(str(quota))

    def _quota_folder(self) -> Path:
        """The group that holds the CPU quota: cpu's own, or cpuacct's where both share one."""
        if self.version == 2:
            return self.folders[""]
        return self.folders.get("cpu", self.folders["cpuacct"])

    @property
    def has_quota(self) -> bool:
        """True when the machine holds runs to a CPU quota (the cpu controller is there)."""
        folder = self._quota_folder()
        return (folder / ("cpu.max" if self.version == 2 else "cpu.cfs_quota_us")).exists()

    def cpu_seconds(self) -> float:
        """CPU time the tree has used so far."""
        if self.version == 2:
            return _keyed(self.folders[""] / "cpu.stat", "usage_usec") / 1e6
        return _read_int(self.folders["cpuacct"] / "cpuacct.usage") / 1e9

    def procs_files(self) -> list[str]:
        """The file of each group that a process writes its pid into to join it."""
        return [str(folder / "cgroup.procs") for folder in self.folders.values()]

    def members(self) -> list[int]:
        """The live processes of the run."""
        folder = self.folders.get("pids") or self.folders.get("")
        if folder is None:
            return []
        try:
            return [int(pid) for pid in (folder / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def kill_all(self, timeout: float = 2.0) -> bool:
        """SIGKILL every member until none is left; False if some survive `timeout` s."""
        deadline = time.monotonic() + timeout
        while members := self.members():
            if time.monotonic() > deadline:
                return False
            for pid in members:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.002)
        return True

    def usage(self) -> TreeUsage:
        """What the run used and which caps it hit."""
        if self.version == 2:
            folder = self.folders[""]
            return TreeUsage(
                memory_hit=_keyed(folder / "memory.events", "oom_kill") > 0,
                processes_hit=_keyed(folder / "pids.events", "max") > 0,
                cpu_seconds=self.cpu_seconds(),
                peak_memory_kb=_read_int(folder / "memory.peak") // 1024)
        memory, pids = self.folders["memory"], self.folders["pids"]
        return TreeUsage(
            memory_hit=_keyed(memory / "memory.oom_control", "oom_kill") > 0,
            processes_hit=_keyed(pids / "pids.events", "max") > 0,
            cpu_seconds=self.cpu_seconds(),
            peak_memory_kb=_read_int(memory / "memory.max_usage_in_bytes") // 1024)

    def remove(self) -> None:
        """Remove the run's groups (each must be empty); a group that stays is left to the OS."""
        for folder in self.folders.values():
            for _ in range(50):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.002)
