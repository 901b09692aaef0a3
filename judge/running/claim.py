"""The judge's own control groups: claimed once when it starts, given back when it ends.

Each judge holds a subtree of its own, named by its owner (`menace-judge-PID-START`, the pid
and the start time of the judge's process), and makes its runs' groups in it
(judge/running/cgroups.py). Under cgroup v1 the subtree goes under the judge's group in each
hierarchy. Under cgroup v2 it goes in the judge's delegated group G, which the kernel's rules
shape:

- a group may hand controllers to its children only while it holds no process itself, so every
  other process in G moves into one shared leaf, G/menace-judge-others (again until G is
  empty, since a shell may fork meanwhile), G hands memory, pids and cpu down, and the judge
  itself lives in a leaf of its subtree, G/menace-judge-PID-START/menace-judge-leaf;
- a normal user may move a process between two groups when it may write the `cgroup.procs`
  of their common ancestor, so every move stays within G, which is the user's;
- G is the judge's own group, or the first above it whose name is not one a judge made, so
  that a judge started by pytest, by a shell or by another judge, wherever an earlier judge
  moved it, claims the same G and does not nest deeper each time.

Judges take G's lock (flock on its folder) to claim and to give back, so judges started at once
all reach full. Each claim first removes the subtrees of judges that are gone (their owner's
pid dead, or reused: its start time differs): their runs' members are killed, the processes in
their leaf (started by that judge outside any run) move into the shared leaf, never killed.
When a judge ends (normally, on an exception, Ctrl-C or SIGTERM) it moves into the shared leaf,
removes its subtree, and, when no other judge holds a subtree in G and G holds nothing else,
gives G back as it found it: controllers handed down again and its processes moved back in.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import fcntl
import os
import re
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from judge.running import cgroups
from judge.running.cgroups import PREFIX, V1_CONTROLLERS, V1_OPTIONAL, Layout, words
from judge.running.usage import reading

OTHERS: Final = PREFIX + "others"
"""The shared leaf that the other processes of a delegated group move into."""
LEAF: Final = PREFIX + "leaf"
"""The judge's own leaf in its subtree, where its process lives."""
OWNED: Final = re.compile(re.escape(PREFIX) + r"(\d+)-(\d+)")
"""A judge's subtree: its owner's pid and start time (clock ticks since boot)."""
V2_NEEDED: Final = ("memory", "pids")
"""The cgroup v2 controllers a run's group needs; `cpu` is used where it is offered."""
MOVE_TRIES: Final = 20
"""How often the other processes are moved out before G hands down its controllers."""
LOCK_SECONDS: Final = 10.0
"""How long a judge waits for another's claim; past that it claims without the lock."""
STALE_SECONDS: Final = 60.0
"""Age after which an empty run group with no owner in its name (left by an older judge)
is removed."""
_RUN_GROUP: Final = re.compile(re.escape(PREFIX) + r"[0-9a-f]{12}")


@dataclass(frozen=True)
class Claim:
    """What a judge claimed: its layout, and what it holds in its delegated group (v2)."""

    layout: Layout
    group: Path | None = None
    """The v2 delegated group, None under v1."""
    owner: int = 0
    """The pid of the judge that claimed it."""


_claims: dict[int, tuple[Claim | None, str, bool]] = {}
"""This process's claim, why it failed, and whether it was tried under cgroup v2 (by pid, so
that a forked child never takes its parent's claim for its own)."""
_claiming = threading.Lock()


def _claimed() -> tuple[Claim | None, str, bool]:
    """This process's claim, made on first use (and given back at exit)."""
    pid = os.getpid()
    with _claiming:
        if pid not in _claims:
            _claims.clear()
            _claims[pid] = _claim()
            if _claims[pid][0] is not None:
                atexit.register(release)
        return _claims[pid]


def find_layout() -> tuple[Layout | None, str]:
    """The judge's groups, claimed on first use (and given back at exit), or None and why not."""
    claim, why, _ = _claimed()
    return (claim.layout if claim else None), why


def cgroup_v2_unclaimed() -> bool:
    """True when the judge found cgroup v2 but could not claim groups of its own there."""
    claim, _, v2 = _claimed()
    return claim is None and v2


def release() -> None:
    """Give back what this process claimed (idempotent); its groups are gone after it."""
    with _claiming:
        claim, _, _ = _claims.pop(os.getpid(), (None, "", False))
    if claim is None:
        return
    if claim.group is None:
        for folder in claim.layout.parents.values():
            with _locked(folder.parent):
                _remove_subtree(folder, None)
        return
    group = claim.group
    with _locked(group):
        own = claim.layout.parents[""]
        try:
            _make(group / OTHERS)
            _move_all(own / LEAF, group / OTHERS)
        except OSError:
            return  # the subtree stays; the next judge removes it once this process is gone
        _remove_subtree(own, group / OTHERS)
        _give_back(group)


def _claim() -> tuple[Claim | None, str, bool]:
    """Claim the judge's groups under v1, or in its v2 delegated group: the claim, or None and
    why not; and whether it was cgroup v2."""
    own, mounts = cgroups.own_paths(), cgroups.v1_mounts()
    if all(name in mounts and name in own for name in V1_CONTROLLERS):
        parents = {name: _climbed(mounts[name] / own[name].lstrip("/")) for name in
                   V1_CONTROLLERS}
        parents.update({name: _climbed(mounts[name] / own[name].lstrip("/"))
                        for name in V1_OPTIONAL if name in mounts and name in own
                        and mounts[name] != mounts["cpuacct"]})
        return (*_claim_v1(parents), False)
    root = cgroups.CGROUP_ROOT
    unified = root / own.get("", "/").lstrip("/") if "" in own else None
    if unified is not None and (unified / "cgroup.controllers").is_file():
        return (*_claim_v2(_climbed(unified)), True)
    missing = [name for name in V1_CONTROLLERS if name not in mounts]
    return None, f"no cgroup hierarchy for {', '.join(missing) or 'this process'}", False


def _climbed(folder: Path) -> Path:
    """The first group from `folder` up whose name is not one a judge made."""
    while folder.name.startswith(PREFIX):
        folder = folder.parent
    return folder


def start_time(pid: int) -> int | None:
    """When process `pid` started (clock ticks since boot), None when it is gone."""
    found = reading(pid)
    return None if found is None else found.started


def _own_name() -> str:
    """The name of this judge's subtree: its pid and start time."""
    pid = os.getpid()
    return f"{PREFIX}{pid}-{start_time(pid) or 0}"


def _claim_v1(parents: dict[str, Path]) -> tuple[Claim | None, str]:
    """A subtree of the judge's own under its group in each v1 hierarchy."""
    made: dict[str, Path] = {}
    gone = 0
    try:
        for name, parent in parents.items():
            with _locked(parent):
                gone += _remove_gone(parent, None)
                folder = parent / _own_name()
                _make(folder)
                made[name] = folder
    except OSError as error:
        for folder in made.values():
            _remove_subtree(folder, None)
        why = f"cannot make a control group under {parent}: {error.strerror or error}"
        if os.geteuid() != 0:
            why += (": on this machine (cgroup v1) control groups are made by root; run the "
                    "judge as root for full containment")
        return None, why
    how = f"its own under {parents['pids']} and the other cgroup v1 hierarchies"
    return Claim(Layout(made, how + _gone_words(gone)), owner=os.getpid()), ""


def _claim_v2(group: Path) -> tuple[Claim | None, str]:
    """A subtree of the judge's own in its delegated v2 group, the other processes moved out."""
    offered = words(group / "cgroup.controllers")
    if not set(V2_NEEDED) <= offered:
        return None, f"cgroup v2 does not offer the memory and pids controllers to {group}"
    wanted = [*V2_NEEDED, *(["cpu"] if "cpu" in offered else [])]
    own = group / _own_name()
    with _locked(group):
        try:
            gone = _remove_gone(group, group / OTHERS)
            _make(own)
            _make(own / LEAF)
        except OSError as error:
            return None, (f"the judge's control group {group} is not delegated to this user "
                          f"({error.strerror or error})")
        try:
            _write(own / LEAF / "cgroup.procs", str(os.getpid()))
            moved = _hand_down(group, wanted)
            _write(own / "cgroup.subtree_control", " ".join(f"+{name}" for name in wanted))
        except OSError as error:
            _undo(group, own)
            return None, (f"the judge cannot hold its groups in {group}: "
                          f"{error.strerror or error}")
    how = f"its own in the delegated group {group}"
    if moved:
        how += (f", where {moved} other process{'es' if moved > 1 else ''} moved into "
                f"{OTHERS}")
    return Claim(Layout({"": own}, how + _gone_words(gone)), group, os.getpid()), ""


def _gone_words(gone: int) -> str:
    """The report's words for the subtrees of gone judges removed, if any."""
    return f"; {gone} left by judges that are gone removed" if gone else ""


def _hand_down(group: Path, wanted: list[str]) -> int:
    """Make `group` hand `wanted` down to its children, moving its other processes into its
    shared leaf first; how many moved. OSError when that cannot be done."""
    missing = [name for name in wanted if name not in words(group / "cgroup.subtree_control")]
    if not missing:
        return 0
    moved = 0
    is_root = not (group / "cgroup.type").exists()  # the root group may hold processes
    for _ in range(MOVE_TRIES):
        if not is_root and words(group / "cgroup.procs"):
            _make(group / OTHERS)
            moved += _move_all(group, group / OTHERS)
        try:
            _write(group / "cgroup.subtree_control", " ".join(f"+{name}" for name in missing))
            return moved
        except OSError as error:
            if error.errno != errno.EBUSY:
                raise
    raise OSError(errno.EBUSY, "processes keep arriving in it")


def _move_all(source: Path, target: Path) -> int:
    """Move every process in `source` into `target`; how many moved (those gone meanwhile are
    not counted)."""
    moved = 0
    for pid in sorted(words(source / "cgroup.procs")):
        try:
            _write(target / "cgroup.procs", pid)
            moved += 1
        except OSError as error:
            if error.errno not in (errno.ESRCH, errno.EINVAL):
                raise
    return moved


def _undo(group: Path, own: Path) -> None:
    """After a claim that failed: the judge and the processes it moved back in `group`, as they
    were, where the kernel still allows it (else into the shared leaf), and its subtree gone."""
    others = group / OTHERS
    with contextlib.suppress(OSError):
        if others.is_dir():
            _move_all(others, group)
    try:
        _move_all(own / LEAF, group)
    except OSError:
        with contextlib.suppress(OSError):
            _make(others)
            _move_all(own / LEAF, others)
    _remove_subtree(own, others)
    if others.is_dir() and not words(others / "cgroup.procs"):
        _remove(others)


def _give_back(group: Path) -> None:
    """When no judge holds a subtree in `group` and it holds nothing but its shared leaf: hand
    no controllers down any more and move the shared leaf's processes back in."""
    others = group / OTHERS
    children = [entry.name for entry in os.scandir(group) if entry.is_dir()]
    if children != [OTHERS]:
        return
    enabled = words(group / "cgroup.subtree_control")
    with contextlib.suppress(OSError):
        _write(group / "cgroup.subtree_control", " ".join(f"-{name}" for name in enabled))
        _move_all(others, group)
        _remove(others)


def _remove_gone(parent: Path, others: Path | None) -> int:
    """Remove the subtrees in `parent` whose judge is gone, and the empty run groups older
    judges left there; how many subtrees went."""
    gone = 0
    now = time.time()
    for entry in list(os.scandir(parent)):
        if not entry.is_dir():
            continue
        owner = OWNED.fullmatch(entry.name)
        if owner is not None:
            pid, started = int(owner[1]), int(owner[2])
            if start_time(pid) != started:
                _remove_subtree(Path(entry.path), others)
                gone += 1
        elif _RUN_GROUP.fullmatch(entry.name):
            with contextlib.suppress(OSError):
                if now - entry.stat().st_mtime > STALE_SECONDS:
                    _remove(Path(entry.path))
    return gone


def _remove_subtree(folder: Path, others: Path | None) -> None:
    """Remove a judge's subtree: its runs' members killed, its leaf's processes moved into
    `others` (under v1 there is no leaf); what cannot go stays."""
    try:
        children = [Path(entry.path) for entry in os.scandir(folder) if entry.is_dir()]
    except OSError:
        return
    for child in children:
        if child.name != LEAF:
            _kill_members(child)
        elif others is not None:  # never killed: the judge, and what it started outside runs
            with contextlib.suppress(OSError):
                _make(others)
                _move_all(child, others)
        _remove(child)
    _remove(folder)


def _kill_members(folder: Path, timeout: float = 2.0) -> None:
    """Kill every process in the group `folder` (a run's): at once through `cgroup.kill` where
    the kernel has it (Linux 5.14), else SIGKILL to each until none is left or `timeout`."""
    if (folder / "cgroup.kill").exists():
        with contextlib.suppress(OSError):
            _write(folder / "cgroup.kill", "1")
    deadline = time.monotonic() + timeout
    while (members := words(folder / "cgroup.procs")) and time.monotonic() < deadline:
        for pid in members:
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)
        time.sleep(0.002)


def _make(folder: Path) -> None:
    """Make the group `folder`, unless it is there."""
    folder.mkdir(exist_ok=True)


def _remove(folder: Path) -> None:
    """Remove the empty group `folder`, waiting a moment for members that are dying."""
    for _ in range(50):
        try:
            folder.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.002)


def _write(path: Path, text: str) -> None:
    """Write `text` to the control file `path` (one write, as the kernel wants it)."""
    path.write_text(text)


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the lock of the group `folder` (flock on it) while claiming or giving back; after
    LOCK_SECONDS of waiting, or where it cannot be locked, go on without it."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        yield
        return
    try:
        deadline = time.monotonic() + LOCK_SECONDS
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.01)
            except OSError:
                break
        yield
    finally:
        os.close(descriptor)
