"""The judge run as a normal user: the level a golfer gets where control groups are not theirs.

On a machine like this one (cgroup v1), a normal user gets namespaces but no control groups:
level `partial`. Tests that run as root reach it by running the judge as NORMAL_UID (setpriv),
from a copy of the project's packages that user can read and with a Python that user can run;
tests run by a normal user run the judge as they are. `normal_user()` says how, or why not
(the `normal_user` fixture of tests/conftest.py gives it once a session).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parent.parent
NORMAL_UID: Final = 1000
"""The user root runs the judge as: a normal user's uid, without privileges or groups."""
PACKAGES: Final = ("judge", "reference")
"""What the judge imports of the project (it needs nothing outside the standard library)."""
PYTHONS: Final = ("/usr/bin/python3", "/usr/local/bin/python3", sys.executable)
"""The Pythons tried for the normal user, in order: the system's first, as a normal user has
it (the one running the tests may lie in root's home, which the sandbox cannot show that user)."""


@dataclass(frozen=True)
class NormalUser:
    """How to run the judge as a normal user."""

    python: str
    packages: Path | None
    """A folder the user can read holding the project's packages; None when the user is the
    one running the tests, who reads the project itself."""

    def command(self, *arguments: str) -> list[str]:
        """The command line of `python -m judge ARGUMENTS` as the normal user."""
        if self.packages is None:
            return [self.python, "-m", "judge", *arguments]
        return [shutil.which("setpriv") or "setpriv", f"--reuid={NORMAL_UID}",
                f"--regid={NORMAL_UID}", "--clear-groups", "--inh-caps=-all",
                "--bounding-set=-all", self.python, "-m", "judge", *arguments]

    def environment(self, home: Path) -> dict[str, str]:
        """A small environment for the judge, its home and cache in `home`."""
        return {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"),
                "LANG": "C.UTF-8", "PYTHONPATH": str(self.packages or ROOT),
                "PYTHONDONTWRITEBYTECODE": "1"}

    def judge(self, *arguments: str, home: Path,
              timeout: float = 180) -> subprocess.CompletedProcess[str]:
        """The judge run as the normal user with `arguments`, from `home`."""
        return subprocess.run(self.command(*arguments), cwd=home, env=self.environment(home),
                              capture_output=True, text=True, timeout=timeout, check=False)


def shared_folder(prefix: str) -> Path:
    """A new folder under the shared temporary folder that the normal user may read and write
    (a test's own tmp_path is private to the user running the tests)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o777)
    return folder


def readable_by_all(folder: Path) -> None:
    """Let every user read `folder` and what it holds."""
    for here, dirs, files in os.walk(folder):
        for name in (*dirs, *files):
            path = Path(here) / name
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | 0o755 if path.is_dir() else
                           path.stat().st_mode | 0o644)
    folder.chmod(folder.stat().st_mode | 0o755)


def normal_user(folder: Path) -> NormalUser | str:
    """How to run the judge as a normal user here (root copies the project's packages into
    `folder`, a shared folder), or why it cannot be done."""
    if os.geteuid() != 0:
        return NormalUser(sys.executable, None)
    if not shutil.which("setpriv"):
        return "setpriv (util-linux) is needed to run the judge as a normal user"
    for name in PACKAGES:
        shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    readable_by_all(folder)
    for python in dict.fromkeys(PYTHONS):
        user = NormalUser(python, folder)
        try:
            done = subprocess.run(user.command("--help"), cwd=folder,
                                  env=user.environment(folder), capture_output=True,
                                  timeout=60, check=False)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:
            return user
    return (f"no Python that uid {NORMAL_UID} can run imports the judge "
            f"(tried {', '.join(dict.fromkeys(PYTHONS))})")
