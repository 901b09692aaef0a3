"""The kernel tier's guest: Debian's kernel under qemu, booted to run steps as a normal user.

The guest shares this machine's root read-only over 9p, with a tmpfs overlay on top, so the
project, its venvs and its Python run inside as they are (at the same paths); a second 9p
share, read-write, is the folder that carries the steps in and their results out. The kernel
boots tests/kernel/initramfs_init.sh, then tests/kernel/boot.sh as pid 1, which runs the steps
in order and powers off. Under TCG (no KVM: a nested guest hangs at boot) a boot to the first
step takes some 10 s on an idle core, and a program inside runs 30 to 50 times slower than
here.

By hand, one script as the normal user in a delegated group of its own:

    python3 tests/kernel/guest.py script.sh [--group session] [--user root] [--systemd]
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Final

if __package__ in (None, ""):  # run as a script: the tests folder holds this package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from kernel.image import Image, Missing, image

HERE: Final = Path(__file__).resolve().parent
PROJECT: Final = HERE.parent.parent
"""The project, at the same path inside the guest."""
PYTHON: Final = sys.executable
"""This Python (the project's venv), at the same path inside the guest."""
QEMU: Final = "qemu-system-x86_64"
BOOT_SECONDS: Final = 120.0
"""Time a boot may take beyond its steps' own: the kernel's start and the power-off, slowly."""
STEP_NAME_CHARACTERS: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


class Group(StrEnum):
    """Where a step's shell starts, among the groups systemd lays out for a login."""

    DELEGATED = "delegated"
    """A scope of its own under the user's `user@UID.service/app.slice`, handed to the user as
    systemd's Delegate=yes leaves it: the group, its cgroup.procs, cgroup.subtree_control and
    cgroup.threads owned by the user."""
    SESSION = "session"
    """The login's `session-1.scope`, root's: the user may not make groups there."""
    ROOT = "root"
    """The root group (for steps run as root)."""


class User(StrEnum):
    """Who runs a step."""

    GOLFER = "golfer"
    """The normal user (the first uid from 2000 that this machine's files leave free)."""
    ROOT = "root"


@dataclass(frozen=True)
class Step:
    """A shell script the guest runs, and how."""

    name: str
    """Lower-case letters, digits and dashes; steps run in the order given."""
    script: str
    user: User = User.GOLFER
    group: Group = Group.DELEGATED
    userns: bool = True
    """False: `sysctl kernel.unprivileged_userns_clone=0` for this step."""
    systemd: bool = False
    """True: the stand-in `systemd-run` (tests/kernel/standin/) first on the PATH, with the
    guest's stand-in user manager behind it."""
    seconds: int = 300
    """The step is killed after this long."""
    env: Mapping[str, str] = field(default_factory=dict)
    """Exported before the script runs, beside HOME, USER, LOGNAME, PATH, LANG and OUT (a
    folder anyone may write, whose files the step's outcome gives as `files`)."""


@dataclass(frozen=True)
class Outcome:
    """What a step did, and what it left behind."""

    status: int
    """The script's exit status (124 when it was killed for its time)."""
    stdout: str
    stderr: str
    processes: tuple[str, ...]
    """The user's processes still alive after the step ("PID NAME"), killed since."""
    place: str
    """The group the step's shell started in, relative to the user's slice `user-UID.slice`:
    `user@UID.service/app.slice/NN-NAME.scope` (delegated) or `session-1.scope`."""
    groups: tuple[str, ...]
    """Every group the step added to the user's slice and left there, relative to it."""
    seconds: float
    """How long the step took, by the guest's clock."""
    files: Path
    """The folder the step's script knew as $OUT, here."""

    def __str__(self) -> str:
        """The outcome as a failed assertion shows it."""
        return (f"status {self.status} after {self.seconds:.1f} s\n--- stdout\n{self.stdout}"
                f"--- stderr\n{self.stderr}--- processes left: {list(self.processes)}\n"
                f"--- groups left beside {self.place}: {list(self.groups)}")


class BootError(RuntimeError):
    """The guest did not run its steps to the end; the message has the console's last lines."""


def missing() -> str:
    """Empty when this machine can run the tier, else what it lacks and how to get it."""
    try:
        _ready()
    except Missing as error:
        return str(error)
    return ""


def _ready() -> Image:
    """The image to boot, once qemu is known to be here; Missing when an input is not."""
    if shutil.which(QEMU) is None:
        raise Missing(f"{QEMU} not found (apt-get install qemu-system-x86)")
    return image()


def run(steps: Sequence[Step], folder: Path, *, cpus: int = 1,
        memory_mb: int = 2048) -> dict[str, Outcome]:
    """Boot the guest, run `steps` in order, power off: each step's outcome by its name.

    `folder` (empty or new) carries the steps in and the results out, with the console's
    output in `console.log` and the CPU time qemu took, and the wall time, in `boot.txt` (TCG
    makes the guest 30 to 50 times slower than this machine for the same work, and the wall
    time depends on the machine's load, so a step's cost is best told by the CPU time).
    Missing when this machine lacks an input; BootError when the guest does not finish. One
    CPU by default: under TCG a second makes the guest's clock unstable and everything
    slower."""
    built = _ready()
    names = [step.name for step in steps]
    if len(set(names)) != len(names) or not all(
            name and set(name) <= STEP_NAME_CHARACTERS for name in names):
        raise ValueError(f"step names must be distinct, of a-z, 0-9 and -: {names}")
    folder.chmod(0o755)  # the steps are read by the normal user inside
    for number, step in enumerate(steps):
        _write_step(folder / "steps" / f"{number:02d}-{step.name}", step)
    (folder / "open").write_text("".join(f"{path}\n" for path in reachable()))
    append = (f"console=ttyS0 panic=-1 quiet tsc=reliable clocksource=tsc "
              f"menace_stage2={HERE / 'boot.sh'} menace_standin={HERE / 'standin'}")
    console = folder / "console.log"
    command = [QEMU, "-accel", "tcg", "-cpu", "max", "-smp", str(cpus), "-m", str(memory_mb),
               "-nodefaults", "-no-user-config", "-display", "none", "-no-reboot",
               "-serial", f"file:{console}", "-kernel", str(built.kernel),
               "-initrd", str(built.initramfs), "-append", append,
               "-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,"
                          "multidevs=remap",
               "-virtfs", f"local,path={folder},mount_tag=results,security_model=none,"
                          "multidevs=remap"]
    limit = BOOT_SECONDS + sum(step.seconds + 10 for step in steps)
    # qemu dies with this process (setpriv --pdeathsig), so no guest outlives a killed test.
    keeper = [tool, "--pdeathsig", "KILL"] if (tool := shutil.which("setpriv")) else []
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
    qemu = subprocess.Popen([*keeper, *command], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        said, _ = qemu.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        raise BootError(f"the guest did not finish in {limit:.0f} s\n" + _tail(console)) from None
    finally:
        if qemu.poll() is None:
            qemu.kill()
            qemu.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    (folder / "boot.txt").write_text(
        f"{after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime:.1f} s of CPU "
        f"in {time.monotonic() - started:.1f} s\n")
    if qemu.returncode != 0:
        raise BootError(f"{QEMU} ended with status {qemu.returncode}: "
                        f"{said.decode(errors='replace')}\n{_tail(console)}")
    outcomes = {step.name: _outcome(folder / "steps" / f"{number:02d}-{step.name}")
                for number, step in enumerate(steps)}
    unfinished = [name for name, outcome in outcomes.items() if outcome is None]
    if unfinished:
        raise BootError(f"the guest did not finish {unfinished}\n{_tail(console)}")
    return {name: outcome for name, outcome in outcomes.items() if outcome is not None}


def reachable() -> list[str]:
    """What the normal user inside must reach: this Python (as named and as resolved), the
    folders it imports from, and the project. boot.sh opens each folder on the way to them
    (o+x) in the guest's overlay only, since they may lie under a home of mode 700 (root's
    pyenv, as in CI); the host's own are never changed."""
    named = {PYTHON, os.path.realpath(PYTHON), sys.prefix, sys.base_prefix, str(PROJECT),
             *(entry for entry in sys.path if os.path.isabs(entry))}
    return sorted(path for path in named if os.path.exists(path))


def _write_step(folder: Path, step: Step) -> None:
    """A step's folder as boot.sh reads it: run.sh and step.env."""
    folder.mkdir(mode=0o755, parents=True)
    folder.parent.chmod(0o755)
    (folder / "out").mkdir()
    (folder / "out").chmod(0o777)
    env = {"OUT": f"/tier/steps/{folder.name}/out", **step.env}
    exports = "".join(f"export {key}={shlex.quote(value)}\n" for key, value in env.items())
    (folder / "run.sh").write_text(exports + step.script)
    (folder / "step.env").write_text(
        f"user={step.user.value} group={step.group.value} userns={int(step.userns)} "
        f"standin={int(step.systemd)} seconds={step.seconds}\n")


def _outcome(folder: Path) -> Outcome | None:
    """A finished step's outcome, None when it did not finish."""
    try:
        status = int((folder / "status").read_text())
        started, ended = map(float, (folder / "uptime").read_text().split())
        after = (folder / "after").read_text().splitlines()
    except (OSError, ValueError):
        return None
    place = after[0].removeprefix("place ") if after else ""
    groups = tuple(line.removeprefix("group ") for line in after
                   if line.startswith("group ") and line != f"group {place}")
    return Outcome(
        status=status,
        stdout=(folder / "stdout").read_text(errors="replace"),
        stderr=(folder / "stderr").read_text(errors="replace"),
        processes=tuple(line.removeprefix("process ") for line in after
                        if line.startswith("process ")),
        place=place, groups=groups, seconds=ended - started, files=folder / "out")


def _tail(console: Path, lines: int = 30) -> str:
    """The last lines the guest's console printed."""
    try:
        text = console.read_text(errors="replace")
    except OSError:
        return "(no console output)"
    return "--- console\n" + "\n".join(text.splitlines()[-lines:])


def main(argv: Sequence[str] | None = None) -> int:
    """Run one script in the guest and print what it printed; its exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("script", type=Path)
    parser.add_argument("--user", type=User, choices=list(User), default=User.GOLFER)
    parser.add_argument("--group", type=Group, choices=list(Group), default=Group.DELEGATED)
    parser.add_argument("--no-userns", action="store_true",
                        help="unprivileged user namespaces switched off")
    parser.add_argument("--systemd", action="store_true",
                        help="the stand-in systemd-run and its user manager")
    parser.add_argument("--seconds", type=int, default=600)
    args = parser.parse_args(argv)
    step = Step("script", args.script.read_text(), user=args.user, group=args.group,
                userns=not args.no_userns, systemd=args.systemd, seconds=args.seconds)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="menace-kernel-tier-") as folder:
        try:
            outcome = run([step], Path(folder))["script"]
        except (Missing, BootError) as error:
            print(f"kernel tier: {error}", file=sys.stderr)
            return 2
    sys.stdout.write(outcome.stdout)
    sys.stderr.write(outcome.stderr)
    print(f"kernel tier: status {outcome.status}, {outcome.seconds:.1f} s in the step, "
          f"{time.monotonic() - started:.1f} s in all; left: processes {list(outcome.processes)}"
          f", groups {list(outcome.groups)}", file=sys.stderr)
    return outcome.status


if __name__ == "__main__":
    sys.exit(main())
