"""What containment this machine gives, probed once (judge/running/sandbox.py gives the levels), and
whether a runtime runs inside it."""

from __future__ import annotations

import functools
import subprocess
from typing import Final

from judge.running import runtimes, scope
from judge.running.bwrap import tool
from judge.running.cgroups import CgroupError, Layout, TreeLimits
from judge.running.claim import cgroup_v2_unclaimed, find_layout
from judge.running.sandbox import Level, Limits, Sandbox, SandboxError, Support, runs_as_root
from judge.terms.options import SandboxPolicy

PROBE_SECONDS: Final = 20.0
"""Time a runtime's `--version` may take inside the sandbox when it is first checked."""


class RuntimeHidden(RuntimeError):
    """A runtime the sandbox cannot show to the program: the judge's fault, never the program's."""


def _probe_namespaces() -> str:
    """Empty when a contained `true` runs, else why not."""
    if not tool("bwrap"):
        return "bwrap not found (apt-get install bubblewrap)"
    if runs_as_root() and not (tool("setpriv") and tool("unshare")):
        return "setpriv and unshare (util-linux) are needed to drop root"
    done, err = _contained_once(Support(cgroups="probe"), [tool("true") or "/bin/true"])
    if done is None:
        return f"bwrap cannot start: {err}"
    if done != 0:
        return f"bwrap cannot build a sandbox here: {err or done}"
    return ""


def _contained_once(found: Support, argv: list[str]) -> tuple[int | None, str]:
    """Run `argv` once, contained, without control groups: its status and last line of stderr
    (None and why, when it could not be run)."""
    sandbox = Sandbox(found, Limits(), probing=True)
    try:
        process = sandbox.popen(argv, cwd=None, env={"PATH": runtimes.search_path()},
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        _, err = process.communicate(timeout=PROBE_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, str(error)
    finally:
        sandbox.release()
    lines = err.decode(errors="replace").strip().splitlines()
    return process.returncode, lines[-1] if lines else ""


def _probe_cgroups() -> tuple[Layout | None, str]:
    """The judge's groups when a run's group can be made and removed in them, else why not and
    the way to full containment."""
    layout, why = find_layout()
    if layout is None:
        return None, (f"{why}: {scope.advice()}" if cgroup_v2_unclaimed() else why)
    try:
        TreeLimits.create(layout, 1 << 30, 8, 1.0).remove()
    except CgroupError as error:
        return None, f"{error} (not writable by this user?)"
    return layout, ""


@functools.cache
def support(policy: SandboxPolicy = SandboxPolicy.AUTO) -> Support:
    """What containment a run gets under `policy` on this machine (probed once)."""
    if policy is SandboxPolicy.OFF:
        return Support(chosen_off=True)
    layout, cgroups = _probe_cgroups()
    groups = "" if layout is None else layout.how
    if groups and scope.entered():
        groups = "a scope of its own from systemd-run: " + groups
    found = Support(namespaces=_probe_namespaces(), cgroups=cgroups, layout=layout,
                    groups=groups)
    if policy is SandboxPolicy.REQUIRE and found.level is not Level.FULL:
        raise SandboxError(f"--sandbox require: full containment is not available here "
                           f"({'; '.join(found.missing)})")
    return found


@functools.cache
def _runtime_shown(program: str) -> str:
    """Empty when `program` runs inside the sandbox (its `--version` succeeds), else why not."""
    status, err = _contained_once(Support(cgroups="probe"), [program, "--version"])
    return "" if status == 0 else (err or f"status {status}")


def check_runtime(program: str, found: Support) -> None:
    """Make sure the runtime `program` (a full path) can run inside the sandbox: a runtime
    the sandbox shows from outside the system is tried once; RuntimeHidden when it fails."""
    if not found.namespaced or runtimes.install_root(program) is None:
        return
    why = _runtime_shown(program)
    if why:
        raise RuntimeHidden(
            f"the runtime {program} does not run inside the sandbox ({why}); install it under "
            "/usr or a folder of its own (a virtualenv, pyenv or conda is fine), or judge "
            "trusted code with --sandbox off")


