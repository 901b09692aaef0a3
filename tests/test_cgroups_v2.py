"""Control groups under cgroup v2, on a model of the kernel's files: the judge claims a subtree
of its own in its delegated group, moves the group's other processes into a shared leaf, removes
what judges that are gone left, gives everything back when it ends, and says how to get a group
where it has none. tests/test_kernel_tier.py proves the same on a real kernel.

The kernel's rules the model stands for: a group other than the root may hand controllers to
its children only while it holds no process, and may take no process while it hands any down
(EBUSY); a controller may be handed down only where it is offered, and taken back only while no
child hands it on; a group holding a process or a child cannot be removed; a normal user may
make groups and move processes only inside the groups delegated to it (EACCES elsewhere).
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from judge.running import cgroups, claim, scope
from judge.running.cgroups import PREFIX, Layout
from judge.running.claim import LEAF, OTHERS, cgroup_v2_unclaimed, find_layout, release
from judge.running.scope import own_scope

G = "user.slice/user-1000.slice/user@1000.service/app.slice/terminal.scope"
"""The judge's delegated group, as a terminal's scope on a systemd desktop."""
SHELL, EDITOR = 4_000_001, 4_000_002
"""Other processes of the user (above any real pid), in the judge's group."""


class Kernel:
    """The cgroup v2 files under a folder, changed as the kernel changes them."""

    def __init__(self, root: Path, controllers: str, delegated: str) -> None:
        self.root = root
        self.delegated = root / delegated
        self.arrivals: Callable[[Path], None] = lambda group: None
        """Called after each move out of a group: a process may fork meanwhile."""
        self.refuse_moves: set[Path] = set()
        (root / "cgroup.controllers").write_text(controllers)
        (root / "cgroup.subtree_control").write_text(controllers)
        (root / "cgroup.procs").write_text("1\n")
        folder = root
        for part in Path(delegated).parts:
            folder = folder / part
            self._add(folder)
            if folder != self.delegated:
                (folder / "cgroup.subtree_control").write_text(controllers)

    def _add(self, folder: Path) -> None:
        """A new group's files: it is offered what its parent hands down."""
        folder.mkdir()
        (folder / "cgroup.controllers").write_text(
            (folder.parent / "cgroup.subtree_control").read_text())
        for name, text in (("cgroup.subtree_control", ""), ("cgroup.procs", ""),
                           ("cgroup.type", "domain\n"), ("cgroup.kill", "")):
            (folder / name).write_text(text)

    def writable(self, folder: Path) -> bool:
        """True when the user may change `folder`: it is the delegated group or below."""
        return folder == self.delegated or self.delegated in folder.parents

    def group_of(self, pid: int) -> Path | None:
        """The group that holds `pid`."""
        for procs in self.root.rglob("cgroup.procs"):
            if str(pid) in procs.read_text().split():
                return procs.parent
        return None

    def place(self, pid: int, folder: Path) -> None:
        """Put `pid` in `folder`, wherever it was."""
        source = self.group_of(pid)
        if source is not None:
            pids = source.joinpath("cgroup.procs").read_text().split()
            pids.remove(str(pid))
            source.joinpath("cgroup.procs").write_text("".join(f"{p}\n" for p in pids))
        procs = folder / "cgroup.procs"
        procs.write_text(procs.read_text() + f"{pid}\n")

    def members(self, folder: Path) -> list[int]:
        """The processes `folder` holds itself."""
        return [int(pid) for pid in (folder / "cgroup.procs").read_text().split()]

    def enabled(self, folder: Path) -> set[str]:
        """What `folder` hands down."""
        return set((folder / "cgroup.subtree_control").read_text().split())

    def groups(self) -> list[str]:
        """Every group below the delegated one, relative to it."""
        return sorted(str(path.relative_to(self.delegated))
                      for path in self.delegated.rglob("*") if path.is_dir())

    # -- the judge's calls -------------------------------------------------------------

    def make(self, folder: Path) -> None:
        """mkdir in the cgroup file system."""
        if folder.is_dir():
            return
        if not self.writable(folder.parent):
            raise PermissionError(errno.EACCES, "Permission denied")
        self._add(folder)

    def remove(self, folder: Path) -> None:
        """rmdir in the cgroup file system."""
        if not folder.is_dir():
            return
        if self.members(folder) or any(path.is_dir() for path in folder.iterdir()):
            raise OSError(errno.EBUSY, "Device or resource busy")
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()

    def write(self, path: Path, text: str) -> None:
        """A write to a control file."""
        folder = path.parent
        if not self.writable(folder):
            raise PermissionError(errno.EACCES, "Permission denied")
        if path.name == "cgroup.procs":
            pid = int(text)
            source = self.group_of(pid)
            if source is None:
                raise ProcessLookupError(errno.ESRCH, "No such process")
            if folder in self.refuse_moves or not self.writable(source):
                raise PermissionError(errno.EACCES, "Permission denied")
            if self.enabled(folder) and (folder / "cgroup.type").exists():
                raise OSError(errno.EBUSY, "Device or resource busy")
            self.place(pid, folder)
            self.arrivals(source)
        elif path.name == "cgroup.subtree_control":
            enabled = self.enabled(folder)
            for word in text.split():
                name = word[1:]
                if word[0] == "+":
                    if name not in (folder / "cgroup.controllers").read_text().split():
                        raise OSError(errno.ENOENT, "No such file or directory")
                    if self.members(folder) and (folder / "cgroup.type").exists():
                        raise OSError(errno.EBUSY, "Device or resource busy")
                    enabled.add(name)
                else:
                    if any(name in self.enabled(child) for child in folder.iterdir()
                           if child.is_dir()):
                        raise OSError(errno.EBUSY, "Device or resource busy")
                    enabled.discard(name)
            path.write_text(" ".join(sorted(enabled)) + "\n")
            for child in folder.iterdir():
                if child.is_dir():
                    (child / "cgroup.controllers").write_text(" ".join(sorted(enabled)))
        elif path.name == "cgroup.kill":
            for procs in [folder / "cgroup.procs", *folder.rglob("*/cgroup.procs")]:
                procs.write_text("")
        else:
            path.write_text(text)


@pytest.fixture
def kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Kernel]:
    """The model with the judge (this process) and a shell in the delegated group G, which
    offers cpu, memory and pids; the claim on the model given back at the end."""
    model = Kernel(tmp_path, "cpu io memory pids", G)
    model.place(os.getpid(), model.delegated)
    model.place(SHELL, model.delegated)
    monkeypatch.setattr(cgroups, "CGROUP_ROOT", tmp_path)
    monkeypatch.setattr(cgroups, "v1_mounts", lambda: {})
    monkeypatch.setattr(cgroups, "own_paths", lambda: {
        "": "/" + str((model.group_of(os.getpid()) or tmp_path).relative_to(tmp_path))})
    monkeypatch.setattr(claim, "_make", model.make)
    monkeypatch.setattr(claim, "_remove", model.remove)
    monkeypatch.setattr(claim, "_write", model.write)
    monkeypatch.setattr(claim, "_claims", {})  # this process's real claim stays as it is
    yield model
    release()


def own_subtree() -> str:
    """The name of this process's subtree."""
    return claim._own_name()


def test_a_judge_beside_a_shell_moves_it_into_the_shared_leaf(kernel: Kernel) -> None:
    layout, why = find_layout()
    group, own = kernel.delegated, kernel.delegated / own_subtree()
    assert (layout, why) == (Layout({"": own}, f"its own in the delegated group {group}, "
                                               f"where 1 other process moved into {OTHERS}"), "")
    assert kernel.members(group) == [] and kernel.members(group / OTHERS) == [SHELL]
    assert kernel.group_of(os.getpid()) == own / LEAF
    assert kernel.enabled(group) == kernel.enabled(own) == {"cpu", "memory", "pids"}
    assert kernel.groups() == sorted([OTHERS, own.name, f"{own.name}/{LEAF}"])


def test_the_judge_gives_its_group_back_as_it_found_it(kernel: Kernel) -> None:
    find_layout()
    release()
    assert kernel.groups() == [] and kernel.enabled(kernel.delegated) == set()
    assert sorted(kernel.members(kernel.delegated)) == sorted([os.getpid(), SHELL])


def test_the_shared_leaf_stays_while_another_judge_holds_the_group(kernel: Kernel) -> None:
    """Another live judge (here: this process's parent) holds a subtree: the claim leaves it
    alone, and the release gives nothing back that the other still needs."""
    parent = os.getppid()
    other = kernel.delegated / f"{PREFIX}{parent}-{claim.start_time(parent)}"
    kernel.place(os.getpid(), kernel.delegated / "..")  # out of the way for a moment
    kernel.make(kernel.delegated / OTHERS)
    kernel.place(SHELL, kernel.delegated / OTHERS)
    kernel.write(kernel.delegated / "cgroup.subtree_control", "+memory +pids +cpu")
    kernel.make(other)
    kernel.make(other / LEAF)
    kernel.place(EDITOR, other / LEAF)
    kernel.place(os.getpid(), other / LEAF)  # started by the other judge
    layout, why = find_layout()
    assert why == "" and layout is not None and "moved" not in layout.how
    release()
    assert kernel.groups() == sorted([OTHERS, other.name, f"{other.name}/{LEAF}"])
    assert kernel.members(other / LEAF) == [EDITOR]
    assert kernel.group_of(os.getpid()) == kernel.delegated / OTHERS


@pytest.mark.parametrize("start", [OTHERS, f"{PREFIX}123-456/{LEAF}"])
def test_a_judge_started_where_an_earlier_judge_moved_it_claims_the_same_group(
        kernel: Kernel, start: str) -> None:
    for part in range(len(Path(start).parts)):
        kernel.make(kernel.delegated.joinpath(*Path(start).parts[:part + 1]))
    kernel.place(os.getpid(), kernel.delegated / start)
    layout, _ = find_layout()
    assert layout is not None and layout.parents[""].parent == kernel.delegated


def test_groups_of_judges_that_are_gone_are_removed_by_the_next(kernel: Kernel) -> None:
    """A killed judge's subtree: its run's members killed, what it started outside runs kept
    (moved into the shared leaf), its groups gone. Its owner is found gone by a pid no process
    has, or by a pid reused by another process (its start time differs)."""
    finished = subprocess.run(["true"], check=True)
    assert finished.returncode == 0
    gone = [f"{PREFIX}999999999-1", f"{PREFIX}{os.getppid()}-1"]
    for name in gone:
        kernel.make(kernel.delegated / name)
        kernel.make(kernel.delegated / name / LEAF)
        kernel.make(kernel.delegated / name / f"{PREFIX}0123456789ab")
    kernel.place(EDITOR, kernel.delegated / gone[0] / LEAF)
    kernel.place(4_000_003, kernel.delegated / gone[0] / f"{PREFIX}0123456789ab")
    layout, _ = find_layout()
    assert layout is not None and layout.how.endswith("; 2 left by judges that are gone removed")
    assert sorted(kernel.members(kernel.delegated / OTHERS)) == [SHELL, EDITOR]
    assert kernel.group_of(4_000_003) is None
    assert not any(name in kernel.groups() for name in gone)


def test_processes_that_keep_arriving_are_moved_until_none_is_left(kernel: Kernel) -> None:
    forks = iter(range(4_100_000, 4_100_005))

    def fork(group: Path) -> None:  # the shell forks once after each of the first moves
        if group == kernel.delegated and (pid := next(forks, None)) is not None:
            kernel.place(pid, kernel.delegated)
    kernel.arrivals = fork
    layout, _ = find_layout()
    assert layout is not None and "6 other processes moved" in layout.how
    assert kernel.members(kernel.delegated) == []


def test_a_group_that_cannot_be_emptied_is_left_as_it_was(kernel: Kernel) -> None:
    """The shell cannot be moved: the claim fails, says why, and undoes what it did."""
    kernel.refuse_moves.add(kernel.delegated / OTHERS)
    layout, why = find_layout()
    assert layout is None and why.startswith(f"the judge cannot hold its groups in "
                                             f"{kernel.delegated}: Permission denied")
    assert cgroup_v2_unclaimed()
    assert kernel.groups() == [] and kernel.enabled(kernel.delegated) == set()
    assert sorted(kernel.members(kernel.delegated)) == sorted([os.getpid(), SHELL])


def test_a_group_of_root_s_says_it_is_not_delegated(kernel: Kernel) -> None:
    kernel.place(os.getpid(), kernel.delegated.parent)
    layout, why = find_layout()
    assert layout is None and cgroup_v2_unclaimed()
    assert why == (f"the judge's control group {kernel.delegated.parent} is not delegated to "
                   "this user (Permission denied)")
    assert kernel.members(kernel.delegated.parent) == [os.getpid()]


def test_controllers_not_offered_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           kernel: Kernel) -> None:
    (kernel.delegated / "cgroup.controllers").write_text("cpu io\n")
    layout, why = find_layout()
    assert layout is None and "does not offer the memory and pids controllers" in why


def test_in_the_root_group_nothing_is_moved(kernel: Kernel) -> None:
    """The root group may hold processes and hand controllers down at once."""
    kernel.place(os.getpid(), kernel.root)
    kernel.delegated = kernel.root
    (kernel.root / "cgroup.subtree_control").write_text("")
    layout, why = find_layout()
    assert why == "" and layout is not None and "moved" not in layout.how
    assert os.getpid() not in kernel.members(kernel.root) and 1 in kernel.members(kernel.root)


def test_an_old_run_group_is_removed_only_once_it_is_old(kernel: Kernel) -> None:
    old, new = kernel.delegated / f"{PREFIX}0123456789ab", kernel.delegated / f"{PREFIX}ba98"
    kernel.make(old)
    kernel.make(new)
    os.utime(old, (0, 0))
    find_layout()
    assert not old.exists() and new.exists()


@pytest.mark.parametrize(("uid", "command"), [
    (1000, "systemd-run --user --scope -p Delegate=yes python3 -m judge"),
    (0, "systemd-run --scope -p Delegate=yes python3 -m judge")])
def test_the_command_named_fits_the_user(uid: int, command: str,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A normal user asks their own service manager for the group; root asks the system's."""
    monkeypatch.setattr(os, "geteuid", lambda: uid)
    assert command in own_scope()


def test_the_way_to_full_follows_what_was_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not tried (in-process, or turned off): the systemd-run command; tried and failed, or no
    systemd-run: as root."""
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(scope.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setitem(scope._attempt, "failure", "")
    assert scope.advice() == own_scope()
    monkeypatch.setitem(scope._attempt, "failure", "Failed to connect to bus: No medium found")
    assert scope.advice().startswith("systemd-run could not give it a scope of its own "
                                     "(Failed to connect to bus: No medium found); run the "
                                     "judge as root")
    monkeypatch.setitem(scope._attempt, "failure", "")
    monkeypatch.setattr(scope.shutil, "which", lambda name: None)
    assert scope.advice().startswith("run the judge as root for full containment")
