"""The judge run again in a systemd scope of its own, where cgroup v2 gives it no delegated group.

On a systemd desktop a judge started from a terminal, a login or a script often sits in a
group it may not divide (a session scope of root's). `systemd-run --user --scope -p
Delegate=yes` asks the user's service manager for a scope handed to the user, moves the
process in and execs the command there: the judge then claims that scope
(judge/running/claim.py) and is fully contained. The command line's judge does this by
itself, as a child whose standard input, output and error are its own and whose exit status
it relays (a child killed by a signal kills it with the same signal). Ctrl-C reaches both, as
one process group: the child acts on it and this judge waits for it.

It cannot loop and it never loses a run: the child knows it is the child (ENV, taken out of
its environment at once), so it never tries again; its arguments travel in ENV too, not on
systemd-run's command line (which newer systemd expands, `$HOME` and all). The child writes
one byte on a pipe as soon as it runs, after putting back the judge's standard error (its
own is a pipe the judge reads meanwhile); a systemd-run that ends without that byte has
failed, its own message says why, and the judge judges in its own process at level partial,
with that reason. A judge run in-process (judge/testing.py under pytest) cannot start again:
it claims what it can where it is, and says how to get full.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from typing import Final

ENV: Final = "MENACE_JUDGE_SCOPE"
"""In the judge that systemd-run started: its arguments and the two descriptors (JSON)."""
SCOPE_OPTIONS: Final = ("--scope", "-p", "Delegate=yes", "--quiet")
_attempt: dict[str, str | bool] = {"entered": False, "failure": ""}
"""This process's story: whether systemd-run started it, and why a try of its own failed."""


def entered() -> bool:
    """True when this judge runs in a scope that systemd-run made for it."""
    return bool(_attempt["entered"])


def failure() -> str:
    """Why this judge's own try of systemd-run failed; empty when it did not try or it worked."""
    return str(_attempt["failure"])


def own_scope() -> str:
    """How to start the judge in a v2 group of its own, for this user."""
    user = "" if os.geteuid() == 0 else " --user"
    return (f"start the judge in a group of its own: systemd-run{user} --scope -p Delegate=yes "
            "python3 -m judge ...")


def advice() -> str:
    """The one way to full containment where the judge found no delegated group."""
    as_root = "run the judge as root for full containment: sudo python3 -m judge ..."
    if entered():
        return "systemd-run's scope gave it none either; " + as_root
    if failure():
        return f"systemd-run could not give it a scope of its own ({failure()}); " + as_root
    if os.geteuid() == 0 or shutil.which("systemd-run"):
        return own_scope()
    return as_root


def enter() -> list[str] | None:
    """In a judge that systemd-run started: its arguments, once its standard error is back and
    its start is told; None in any other judge."""
    text = os.environ.pop(ENV, None)
    if text is None:
        return None
    try:
        data = json.loads(text)
        argv = [str(word) for word in data["argv"]]
        started, stderr = int(data["started"]), int(data["stderr"])
        os.dup2(stderr, 2)
        os.close(stderr)
        os.write(started, b"1")
        os.close(started)
    except (ValueError, TypeError, KeyError, OSError):
        return None  # not from a judge: judged as a judge of its own
    _attempt["entered"] = True
    return argv


def run_in_scope(argv: list[str]) -> int | None:
    """Judge `argv` again in a scope of its own: the child's exit status, or None when
    systemd-run could not start it (failure() says why)."""
    program = shutil.which("systemd-run")
    if program is None:
        _attempt["failure"] = "systemd-run not found"
        return None
    started_read, started_write = os.pipe()
    errors_read, errors_write = os.pipe()
    stderr = os.dup(2)
    env = {**os.environ, ENV: json.dumps({"argv": argv, "started": started_write,
                                          "stderr": stderr})}
    user = [] if os.geteuid() == 0 else ["--user"]
    previous = {number: signal.signal(number, _ignore)
                for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        child = subprocess.Popen([program, *user, *SCOPE_OPTIONS, "--", *_interpreter()],
                                 stderr=errors_write, pass_fds=(started_write, stderr), env=env)
    except OSError as error:
        for descriptor in (started_read, errors_read):
            os.close(descriptor)
        _attempt["failure"] = str(error)
        return None
    finally:
        for descriptor in (started_write, errors_write, stderr):
            os.close(descriptor)
    try:
        for number in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, lambda number, _: child.send_signal(number))
        with os.fdopen(started_read, "rb") as started:
            begun = started.read(1)
        with os.fdopen(errors_read, "rb") as errors:
            said = b"" if begun else errors.read()
        status = child.wait()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if not begun:
        lines = said.decode(errors="replace").strip().splitlines()
        _attempt["failure"] = lines[-1] if lines else f"status {status}"
        return None
    if status < 0:
        if -status not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
        return 128 - status
    return status


def _ignore(number: int, frame: object) -> None:
    """Let a signal pass: the child acts on it (Ctrl-C reaches it too)."""


def _interpreter() -> list[str]:
    """The command that started this judge, without the judge's own arguments: this Python,
    its options, and `-m judge` or the script."""
    options = sys.orig_argv[1:len(sys.orig_argv) - (len(sys.argv) - 1)]
    return [sys.executable, *options]
