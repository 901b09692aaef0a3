"""Control groups under cgroup v2, on a model of the kernel's files: the judge claims its own
group where it is delegated to it, and says how to get one where it is not.

The kernel's rule the model stands for: a group may enable controllers for its children only
while it holds no process itself (a write to its `cgroup.subtree_control` fails otherwise).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from judge.running import cgroups
from judge.running.cgroups import LEAF, PREFIX, Layout, find_layout, own_scope, remove_stale

OWN = "/user.slice/user-1000.slice/user@1000.service/app.slice/judge.scope"


class Kernel:
    """The writes the judge makes to control files, refused where the model says so."""

    def __init__(self, root: Path, refuse: dict[str, int]) -> None:
        self.root = root
        self.refuse = refuse
        self.writes: list[tuple[str, str]] = []
        """Each write done: the file's path as the judge sees it, and the text."""

    def write(self, path: Path, text: str) -> None:
        """Refuse a write to a file named in `refuse` with its errno; else record and do it."""
        if path.name in self.refuse:
            raise OSError(self.refuse[path.name], os.strerror(self.refuse[path.name]))
        self.writes.append(("/" + str(path.relative_to(self.root)), text))
        path.write_text(text)


def own_group(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, controllers: str,
              enabled: str = "", refuse: dict[str, int] | None = None) -> tuple[Path, Kernel]:
    """A v2 hierarchy under `tmp_path` with the judge in OWN: its folder and the kernel model."""
    folder = tmp_path / OWN.lstrip("/")
    folder.mkdir(parents=True)
    (folder / "cgroup.controllers").write_text(controllers + "\n")
    (folder / "cgroup.subtree_control").write_text(enabled + "\n")
    (folder / "cgroup.procs").write_text(f"{os.getpid()}\n")
    kernel = Kernel(tmp_path, refuse or {})
    monkeypatch.setattr(cgroups, "CGROUP_ROOT", tmp_path)
    monkeypatch.setattr(cgroups, "_own_paths", lambda: {"": OWN})
    monkeypatch.setattr(cgroups, "_v1_mounts", lambda: {})
    monkeypatch.setattr(cgroups, "_write", kernel.write)
    return folder, kernel


def test_a_delegated_group_is_claimed_by_moving_into_a_leaf(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, kernel = own_group(tmp_path, monkeypatch, "cpu memory pids")
    layout, why = find_layout()
    assert (layout, why) == (Layout({"": folder}), "")
    assert kernel.writes == [(f"{OWN}/{LEAF}/cgroup.procs", str(os.getpid())),
                             (f"{OWN}/cgroup.subtree_control", "+memory +pids"),
                             (f"{OWN}/cgroup.subtree_control", "+cpu")]


def test_cpu_is_enabled_only_where_offered(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    folder, kernel = own_group(tmp_path, monkeypatch, "memory pids")
    assert find_layout() == (Layout({"": folder}), "")
    assert [text for _, text in kernel.writes] == [str(os.getpid()), "+memory +pids"]


def test_a_group_already_handing_out_its_controllers_is_used_as_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, kernel = own_group(tmp_path, monkeypatch, "cpu memory pids", enabled="memory pids")
    assert find_layout() == (Layout({"": folder}), "")
    assert kernel.writes == []


def test_a_group_of_root_s_says_how_to_get_one_of_ones_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, kernel = own_group(tmp_path, monkeypatch, "cpu memory pids",
                               refuse={"cgroup.procs": errno.EACCES})
    layout, why = find_layout()
    assert layout is None and kernel.writes == []
    assert f"the judge's control group {folder} is not writable by this user" in why
    assert own_scope() in why


def test_a_group_shared_with_other_processes_is_left_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel refuses the controllers while the shell is still in the group: the judge
    moves back into its own group and says why."""
    folder, kernel = own_group(tmp_path, monkeypatch, "cpu memory pids",
                               refuse={"cgroup.subtree_control": errno.EBUSY})
    layout, why = find_layout()
    assert layout is None and "holds other processes" in why and "systemd-run" in why
    assert kernel.writes == [(f"{OWN}/{LEAF}/cgroup.procs", str(os.getpid())),
                             (f"{OWN}/cgroup.procs", str(os.getpid()))]


def test_controllers_not_offered_are_named(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    _, kernel = own_group(tmp_path, monkeypatch, "cpu io")
    layout, why = find_layout()
    assert layout is None and kernel.writes == []
    assert "does not offer the memory and pids controllers" in why and "systemd-run" in why


def test_the_leaf_is_never_taken_for_a_stale_run_group(tmp_path: Path) -> None:
    stale, leaf = tmp_path / f"{PREFIX}0123456789ab", tmp_path / LEAF
    for folder in (stale, leaf):
        folder.mkdir()
        os.utime(folder, (0, 0))
    assert remove_stale(Layout({"": tmp_path})) == 1
    assert leaf.exists() and not stale.exists()


@pytest.mark.parametrize(("uid", "command"), [
    (1000, "systemd-run --user --scope -p Delegate=yes python3 -m judge"),
    (0, "systemd-run --scope -p Delegate=yes python3 -m judge")])
def test_the_command_named_fits_the_user(uid: int, command: str,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A normal user asks their own service manager for the group; root asks the system's."""
    monkeypatch.setattr(os, "geteuid", lambda: uid)
    assert command in own_scope()
