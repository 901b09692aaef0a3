"""The kernel tier: the judge as a normal user on a real cgroup-v2 kernel (Debian's, under
qemu; tests/kernel/ builds and boots it). Each test is one boot whose steps run in turn.

Without qemu, the kernel package or a static busybox the tier is skipped with the reason; under
CI (CI=true) it fails instead, since CI must run it (`.ci/run` installs what it needs).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from kernel import guest
from kernel.guest import Group, Outcome, Step, User

pytestmark = pytest.mark.e2e

JUDGE = f"cd {guest.PROJECT} && {guest.PYTHON} -m judge"
"""The judge as a script in the guest starts it: from the project, by its venv's Python."""
ONE_GAME = "--games 1 --seed 1 --idle-limit 120 --time-limit 600"
"""One game of golf/python, with time for Python under TCG (5 to 10 times slower than on the
machine, and more when the machine is loaded)."""


@pytest.fixture
def tier(tmp_path: Path) -> Path:
    """A folder for one boot; the test is skipped (failed under CI) when the tier cannot run."""
    why = guest.missing()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the kernel tier cannot run, and CI must run it: {why}")
        pytest.skip(f"the kernel tier cannot run here: {why}")
    return tmp_path


def report(outcome: Outcome, name: str) -> dict[str, Any]:
    """The JSON report a step saved as $OUT/NAME.json."""
    path = outcome.files / f"{name}.json"
    assert path.is_file(), f"no report {name}.json\n{outcome}"
    loaded: dict[str, Any] = json.loads(path.read_text())
    return loaded


MACHINE = r"""
cat /sys/fs/cgroup/cgroup.subtree_control
cat /proc/sys/kernel/unprivileged_userns_clone
"""
DELEGATED = r"""
group=/sys/fs/cgroup$(cut -d: -f3 /proc/self/cgroup)
echo "$group"
stat -c %U "$group" "$group/cgroup.procs" "$group/cgroup.subtree_control" "$group/cgroup.threads"
cat "$group/cgroup.controllers"
mkdir "$group/made-by-the-step" && echo made
sleep 1000 &
unshare --user --map-root-user true && echo userns
"""
SESSION = r"""
group=/sys/fs/cgroup$(cut -d: -f3 /proc/self/cgroup)
echo "$group"
mkdir "$group/made-by-the-step" 2>/dev/null || echo refused
unshare --user true 2>/dev/null || echo "no userns"
"""


def test_the_guest_gives_a_normal_user_what_a_systemd_login_gives(tier: Path) -> None:
    """The tier itself: cgroup v2 with every controller, a normal user whose shell starts in a
    delegated group of its own (or in the session's, root's), user namespaces that can be
    switched off, and whatever a step leaves behind reported."""
    outcomes = guest.run([
        Step("machine", MACHINE, user=User.ROOT, group=Group.ROOT, seconds=60),
        Step("delegated", DELEGATED, seconds=60),
        Step("session", SESSION, group=Group.SESSION, userns=False, seconds=60)], tier)
    machine, delegated, session = outcomes["machine"], outcomes["delegated"], outcomes["session"]
    enabled, userns = machine.stdout.split("\n", 1)
    assert machine.status == 0 and {"cpu", "io", "memory", "pids"} <= set(enabled.split()), \
        str(machine)
    assert userns.strip() == "1", str(machine)
    group, *rest = delegated.stdout.splitlines()
    assert group.endswith(f"/app.slice/{delegated.place.rsplit('/', 1)[1]}"), str(delegated)
    assert rest[:4] == ["golfer"] * 4, str(delegated)
    assert {"cpu", "memory", "pids"} <= set(rest[4].split()), str(delegated)
    assert rest[5:] == ["made", "userns"], str(delegated)
    assert delegated.groups == (f"{delegated.place}/made-by-the-step",), str(delegated)
    assert [process.split()[1] for process in delegated.processes] == ["sleep"], str(delegated)
    assert session.place == "session-1.scope", str(session)
    assert session.stdout.splitlines()[1:] == ["refused", "no userns"], str(session)
    assert session.groups == () and session.processes == (), str(session)


def test_without_a_delegated_group_or_user_namespaces_the_judge_says_what_it_lacks(
        tier: Path) -> None:
    """In the login session's group (root's) the judge is partial and says why; with user
    namespaces switched off as well, none; nothing is left behind either way."""
    judge = f"{JUDGE} golf/python {ONE_GAME} --sandbox auto"
    outcomes = guest.run([
        Step("session", f"{judge} --json $OUT/session.json", group=Group.SESSION),
        Step("no-userns", f"{judge} --json $OUT/no-userns.json", group=Group.SESSION,
             userns=False)], tier)
    for name, level in (("session", "partial"), ("no-userns", "none")):
        outcome = outcomes[name]
        assert outcome.status == 0, str(outcome)
        found = report(outcome, name)
        assert found["verdict"] == "accepted", str(outcome)
        assert found["sandbox"]["level"] == level, str(outcome)
        missing = " ".join(found["sandbox"]["missing"])
        assert "whole-tree limits" in missing and "systemd-run" in missing, missing
        assert ("namespaces" in missing) == (level == "none"), missing
        assert outcome.processes == () and outcome.groups == (), str(outcome)
