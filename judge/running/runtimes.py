"""The runtimes a contained program runs: where each is installed, what of it the sandbox shows.

A runtime is the program a command starts by name (`python3`, `ruby`, `node`, ...). Under
namespaces the program sees the system (/usr and its links) and, read-only, the folder each
runtime is installed in when that lies elsewhere (a pyenv, conda or virtualenv Python, a
node under the user's home, anything under /tmp). The judge's own packages are never shown:
`python3` is the interpreter the judge's Python was made from (a virtualenv's base), and every
site-packages folder of it is covered by an empty one, so the program sees the standard
library only.
"""

from __future__ import annotations

import functools
import os
import shutil
import site
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

SYSTEM_ROOTS: Final = ("usr", "bin", "lib", "lib32", "lib64", "libx32", "sbin")
"""Top-level folders of the system, shown read-only to every contained program."""
PYTHON_NAMES: Final = ("python", "python3")
"""Command names that mean the judge's own Python (its base interpreter)."""
SEARCH_PATH: Final = "/usr/local/bin:/usr/bin:/bin"
"""Where runtimes are looked for first; then on the judge's own PATH."""


def python() -> Path:
    """The interpreter behind the judge's Python: a virtualenv's base, else the judge's own."""
    base = getattr(sys, "_base_executable", "") or sys.executable
    return Path(base)


def search_path() -> str:
    """PATH inside a run: the judge's Python's folder first, then the system's."""
    return f"{python().parent}:{SEARCH_PATH}"


def find(name: str, path: str | None = None) -> str | None:
    """The full path of the runtime `name`: the judge's Python for python3, else found on
    `path` (the run's, by default), else on the judge's own PATH."""
    if name in PYTHON_NAMES:
        return str(python())
    return (shutil.which(name, path=search_path() if path is None else path)
            or shutil.which(name, path=os.environ.get("PATH", "")))


def is_system(path: Path) -> bool:
    """True when `path` lies in the system folders every contained program sees."""
    return len(path.parts) > 1 and path.parts[1] in SYSTEM_ROOTS


def _too_wide(root: Path) -> bool:
    """True when showing `root` would show the root folder, a home folder, or the judge."""
    home = Path.home().resolve()
    if len(root.parts) < 2 or home.is_relative_to(root):
        return True
    return judge_project().is_relative_to(root)


@functools.cache
def judge_project() -> Path:
    """The folder that holds the judge's own package."""
    return Path(__file__).resolve().parent.parent


def install_root(program: str) -> Path | None:
    """The folder a runtime outside the system is installed in (the one above its `bin`), or
    None for a system runtime; never a home folder or a folder that holds the judge."""
    real = Path(os.path.realpath(program))
    if is_system(real):
        return None
    for root in (real.parent.parent if real.parent.name == "bin" else real.parent, real.parent):
        if not _too_wide(root):
            return root
    return real


@dataclass(frozen=True)
class View:
    """What of the runtimes a contained program sees, besides the system."""

    shown: tuple[Path, ...]
    """Folders (or files) shown read-only at their own place."""
    hidden: tuple[Path, ...]
    """Folders within those (or within the system) covered by an empty, read-only folder."""


def _site_folders(prefix: str) -> list[Path]:
    """The site-packages folders of the Python installed at `prefix`."""
    folders = [Path(folder) for folder in site.getsitepackages([prefix])]
    if prefix == "/usr":  # Debian's Python also reads these
        folders += [Path("/usr/lib/python3/dist-packages"),
                    Path("/usr/local/lib/python3/dist-packages")]
    return folders


@functools.cache
def _python_hidden() -> tuple[Path, ...]:
    """The judge's Python's site-packages folders, and the judge's project where it is shown."""
    found = {Path(p).resolve() for p in _site_folders(sys.base_prefix)}
    return tuple(sorted(p for p in found if p.is_dir()))


def view(programs: list[str]) -> View:
    """What the sandbox shows for these runtimes (full paths, as `find` gives them)."""
    shown = {root for program in programs if (root := install_root(program)) is not None}
    hidden = set(_python_hidden())
    project = judge_project()
    if any(project.is_relative_to(root) for root in shown):
        hidden.add(project)
    return View(tuple(sorted(shown)), tuple(sorted(hidden)))
