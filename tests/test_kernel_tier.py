"""The kernel tier: the judge as a normal user on a real cgroup-v2 kernel (Debian's, under
qemu; tests/kernel/ builds and boots it). Each test is one boot whose steps run in turn.

Without qemu, the kernel package or a static busybox the tier is skipped with the reason; under
CI (CI=true) it fails instead, since CI must run it (`.ci/run` installs what it needs).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from kernel import guest
from kernel.guest import Group, Outcome, Step, User
from normal_user import readable_by_all

pytestmark = [pytest.mark.e2e, pytest.mark.kernel_tier]

JUDGE = f"cd {guest.PROJECT} && {guest.PYTHON} -m judge"
"""The judge as a script in the guest starts it: from the project, by its venv's Python."""
ONE_GAME = "--games 1 --seed 1 --idle-limit 120 --time-limit 600"
"""One game, with time for programs under TCG (tens of times slower than on the machine)."""
ANSWER = "/tier/answer"
"""The answer the scenarios judge: golf/c compiled here first (`answer`), since under TCG gcc
alone takes some 4 s of the guest's CPU a run, and a game of golf/perl 50 s."""
STEP_SECONDS = 900
"""A step that judges once is killed after this long: a judge takes one or two minutes in the
guest, and several times that when the machine is loaded."""


def answer(tier: Path) -> None:
    """golf/c compiled here, as a submission of its own in the boot's folder (the guest's
    /tier/answer): its manifest, with the compiled program as its command."""
    folder = tier / "answer"
    folder.mkdir()
    c = guest.PROJECT / "golf" / "c"
    manifest = (c / "submission.toml").read_text()
    start = next(line for line in manifest.splitlines() if line.startswith("command = "))
    (folder / "submission.toml").write_text(manifest.replace(start, 'command = ["./menace"]'))
    subprocess.run(["gcc", "-w", "-o", str(folder / "menace"), str(c / "menace.c")], check=True)
    shutil.copy(c / "menace.c", folder)  # the source it is scored by
    readable_by_all(folder)


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


def guest_is_a_systemd_login(machine: Outcome, delegated: Outcome, session: Outcome) -> None:
    """The tier itself: cgroup v2 with every controller, a normal user whose shell starts in a
    delegated group of its own (or in the session's, root's), user namespaces that can be
    switched off, and whatever a step leaves behind reported."""
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


def says_what_it_lacks(outcome: Outcome, name: str, level: str) -> None:
    """In the login session's group (root's), where systemd-run cannot reach a user manager,
    the judge tried it, is partial (none without user namespaces), says why and what gives
    full, and leaves nothing behind."""
    assert outcome.status == 0, str(outcome)
    found = report(outcome, name)
    assert found["verdict"] == "accepted", str(outcome)
    assert found["sandbox"]["level"] == level, str(outcome)
    missing = " ".join(found["sandbox"]["missing"])
    assert "whole-tree limits: the judge's control group" in missing, missing
    assert "is not delegated to this user" in missing, missing
    assert "systemd-run could not give it a scope of its own (Failed to connect" in missing
    assert "run the judge as root for full containment" in missing, missing
    assert ("namespaces" in missing) == (level == "none"), missing
    assert found["sandbox"]["groups"] == "", str(outcome)
    assert outcome.processes == () and outcome.groups == (), str(outcome)


def full_and_accepted(outcome: Outcome, name: str) -> dict[str, Any]:
    """The report $OUT/NAME.json, asserted full and accepted, with the printed report beside
    it ($OUT/NAME.txt) saying the same."""
    found = report(outcome, name)
    assert found["sandbox"]["level"] == "full", f"{name}: {found['sandbox']}\n{outcome}"
    assert found["verdict"] == "accepted", f"{name}\n{outcome}"
    printed = (outcome.files / f"{name}.txt").read_text().splitlines()
    assert printed[1] == "sandbox: full" and printed[-1] == "accepted", printed
    assert printed[2] == f"control groups: {found['sandbox']['groups']}", printed
    return found


IN_TURN_AND_AT_ONCE = f"""
nice -n 19 sh -c 'while :; do :; done' & burner=$!
mkdir /tmp/board && cp -r {ANSWER} /tmp/board/one && cp -r {ANSWER} /tmp/board/two
{JUDGE} /tmp/board -j 2 {ONE_GAME} --json $OUT/board.json > $OUT/board.txt; echo "board $?"
{JUDGE} {ANSWER} {ONE_GAME} --json $OUT/a.json > $OUT/a.txt & a=$!
{JUDGE} {ANSWER} {ONE_GAME} --json $OUT/b.json > $OUT/b.txt & b=$!
wait $a; echo "a $?"
wait $b; echo "b $?"
kill $burner && echo "burner alive"
cut -d: -f3 /proc/self/cgroup
"""


def in_turn_and_at_once(outcome: Outcome) -> None:
    """From one shell that stays in its delegated group: a leaderboard with -j 2 beside a CPU
    burner of the user's, then two judges at once. Every one is full, moves the user's other
    processes aside and back (the burner runs on), and leaves no process and no group."""
    assert outcome.stdout.splitlines()[:4] == ["board 0", "a 0", "b 0", "burner alive"], \
        str(outcome)
    assert outcome.stdout.splitlines()[4].endswith("/" + outcome.place), str(outcome)
    table = json.loads((outcome.files / "board.json").read_text())
    assert (table["accepted"], table["submissions"]) == (2, 2), table
    printed = (outcome.files / "board.txt").read_text().splitlines()
    assert printed[0] == "sandbox: full", printed
    assert printed[1] == ("control groups: its own in the delegated group /sys/fs/cgroup/"
                          f"user.slice/user-{outcome.place.split('@')[1].split('.')[0]}.slice/"
                          f"{outcome.place}, where 2 other processes moved into "
                          "menace-judge-others"), printed
    for name in ("a", "b"):
        found = full_and_accepted(outcome, name)
        assert found["sandbox"]["groups"].startswith("its own in the delegated group "), found
    assert outcome.processes == () and outcome.groups == (), str(outcome)


def test_the_guest_is_a_login_and_the_judge_is_full_or_says_why(tier: Path) -> None:
    """One boot: the tier's own layout (as root, in a delegated group, in the session's
    group); then, from the login session's group of root's, a judge that gets a scope from
    systemd-run (the stand-in) and is full, one where systemd-run fails (partial) and one with
    user namespaces switched off as well (none); last, judges in turn and at once from a shell
    in a delegated group (`in_turn_and_at_once`)."""
    judge = f"{JUDGE} {ANSWER} {ONE_GAME}"
    answer(tier)
    outcomes = guest.run([
        Step("machine", MACHINE, user=User.ROOT, group=Group.ROOT, seconds=60),
        Step("delegated", DELEGATED, seconds=60),
        Step("session", SESSION, group=Group.SESSION, userns=False, seconds=60),
        Step("in-a-scope", f"{judge} --json $OUT/scope.json > $OUT/scope.txt; echo \"scope $?\"",
             group=Group.SESSION, systemd=True, seconds=STEP_SECONDS),
        Step("partial", f"{judge} --json $OUT/partial.json", group=Group.SESSION,
             seconds=STEP_SECONDS),
        Step("none", f"{judge} --json $OUT/none.json", group=Group.SESSION, userns=False,
             seconds=STEP_SECONDS),
        Step("in-turn-and-at-once", IN_TURN_AND_AT_ONCE, seconds=3 * STEP_SECONDS)],
        tier)
    guest_is_a_systemd_login(outcomes["machine"], outcomes["delegated"], outcomes["session"])
    in_a_scope = outcomes["in-a-scope"]
    assert in_a_scope.stdout == "scope 0\n", str(in_a_scope)
    found = full_and_accepted(in_a_scope, "scope")
    assert found["sandbox"]["groups"].startswith("a scope of its own from systemd-run: its own "
                                                 "in the delegated group "), found
    text = (in_a_scope.files / "scope.txt").read_text()
    assert text.count("judging ") == 1 and in_a_scope.stderr == "", str(in_a_scope)
    assert in_a_scope.processes == (), str(in_a_scope)
    # The stand-in's scope is left empty, as systemd collects it: nothing below it.
    assert all(group.endswith(".scope") and "/run-u" in group for group in in_a_scope.groups)
    says_what_it_lacks(outcomes["partial"], "partial", "partial")
    says_what_it_lacks(outcomes["none"], "none", "none")
    in_turn_and_at_once(outcomes["in-turn-and-at-once"])
