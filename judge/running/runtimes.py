"""The runtimes a contained program runs: where each is installed, what of it the sandbox shows.

A runtime is the program a command starts by name (`python3`, `ruby`, `node`, ...). Under
namespaces the program sees the system (/usr and its links, and the entries of /etc that the
runtimes read as their configuration) and, read-only, the folder each runtime is installed in
when that lies elsewhere (a pyenv, conda or virtualenv Python, a node under the user's home,
anything under /tmp). `python3` is the judge's own Python, a virtualenv's included, with the
packages installed for it, as `python3` is on the golfer's machine where that virtualenv is
active. Only the judge's own code stays out of reach: its project folder, and what its
distribution installed in a site-packages folder (its packages, or an editable install's hooks,
and its dist-info) is covered.
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import shutil
import site
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

SYSTEM_ROOTS: Final = ("usr", "bin", "lib", "lib32", "lib64", "libx32", "sbin")
"""Top-level folders of the system, shown read-only to every contained program."""
SYSTEM_CONFIGURATION: Final = {
    "ld.so.cache": "the dynamic linker's cache: every runtime",
    "alternatives": "Debian's links to commands: php, node, ...",
    "localtime": "the time zone: PHP, Ruby, Python and Lua read it at start",
    "php": "PHP's php.ini and conf.d: Debian's sends warnings to stderr, not stdout",
    "perl": "the first folder of Debian Perl's @INC: modules, Net/libnet.cfg",
    "python3.*": "Debian's Python's sitecustomize.py, linked from /usr/lib/python3.X",
}
"""The entries of /etc (patterns) a runtime reads as its configuration, each with who reads it:
shown read-only, so that a runtime behaves as on the golfer's machine; the rest of /etc stays
invisible. Each entry costs start-up time, so only what changes a contained program's behaviour
is here (by strace of each runtime): Ruby, Lua, gcc and the programs it builds read nothing else;
node reads /etc/ssl/openssl.cnf, which with Debian's offers the same hashes and ciphers as
without it, and TLS needs the network a contained program lacks."""
PYTHON_NAMES: Final = ("python", "python3")
"""Command names that mean the judge's own Python."""
SEARCH_PATH: Final = "/usr/local/bin:/usr/bin:/bin"
"""Where runtimes are looked for first; then on the judge's own PATH."""
DISTRIBUTION: Final = "menace-golf"
"""The judge's own distribution (pyproject.toml's name): nothing it installed is shown."""
NOT_INSTALLED: Final = (b'raise ModuleNotFoundError(f"No module named {__name__!r}", '
                        b'name=__name__)\n')
"""The one module of a judge's package inside the sandbox: importing it fails as if the judge
were not installed, as it does where an editable install's hooks are covered."""


def python() -> Path:
    """The judge's own Python: the interpreter `python3` means in a command, in its real
    folder (the judge may be started as `../venv/bin/python`, or through a link to a folder)
    but under its own name (a virtualenv's is a link to the Python it was made from)."""
    folder, name = os.path.split(sys.executable)
    return Path(os.path.realpath(folder)) / name


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
    """True when showing `root` would show the root folder, a home folder, or the judge's
    project."""
    home = Path.home().resolve()
    if len(root.parts) < 2 or home.is_relative_to(root):
        return True
    project = judge_project()
    return project is not None and project.is_relative_to(root)


@functools.cache
def judge_project() -> Path | None:
    """The project folder the judge runs from (its package and the reference beside it), or
    None for a judge installed in a site-packages folder, covered as its distribution."""
    folder = Path(__file__).resolve().parents[__name__.count(".")]  # above the judge package
    return None if folder in site_folders() else folder


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


@functools.cache
def configuration() -> tuple[Path, ...]:
    """The entries of /etc this machine has of SYSTEM_CONFIGURATION, found once."""
    etc = Path("/etc")
    return tuple(sorted({path for pattern in SYSTEM_CONFIGURATION
                         for path in etc.glob(pattern)}))


@dataclass(frozen=True)
class View:
    """What of the runtimes a contained program sees, besides the system."""

    shown: tuple[Path, ...]
    """Folders (or files) shown read-only at their own place."""
    hidden: tuple[Path, ...]
    """Folders and files within those (or within the system) covered by empty ones."""
    packages: tuple[Path, ...]
    """The judge's packages within those, each covered by a folder that holds only an
    `__init__.py` of NOT_INSTALLED (an empty folder would import as a namespace package)."""


def site_folders() -> tuple[Path, ...]:
    """The site-packages folders of the judge's Python, of the Python it was made from, and
    the user's where the judge's Python reads it: every place the judge may be installed in."""
    found = [*site.getsitepackages(), *site.getsitepackages([sys.base_prefix])]
    if site.ENABLE_USER_SITE:
        found.append(site.getusersitepackages())
    real = {Path(os.path.realpath(folder)) for folder in found}
    return tuple(sorted(folder for folder in real if folder.is_dir()))


def user_site() -> Path | None:
    """The user's site-packages folder, where the judge's Python reads one and it exists."""
    folder = Path(site.getusersitepackages())
    return folder if site.ENABLE_USER_SITE and folder.is_dir() else None


def python_environment() -> dict[str, str]:
    """What a run's environment needs for the judge's Python to find its user's packages,
    since a run's HOME is its working folder."""
    return {"PYTHONUSERBASE": site.getuserbase()} if user_site() is not None else {}


def covering(installed: Path, folder: Path) -> Path | None:
    """What covers a file the judge's distribution installed in the site-packages `folder`:
    its folder there (a package, the dist-info), or the file itself (a `.pth`, an editable
    install's finder, their bytecode in `__pycache__`); None for a file outside `folder`."""
    if not installed.is_relative_to(folder):
        return None
    parts = installed.relative_to(folder).parts
    if len(parts) > 1 and parts[0] != "__pycache__":
        return folder / parts[0]
    return installed


def judge_installed(folders: Iterable[Path]) -> tuple[set[Path], set[Path]]:
    """What of the judge's distribution lies in these site-packages folders, to be covered:
    its files and folders, and apart, its packages."""
    covered, packages = set(), set()
    for distribution in importlib.metadata.distributions(
            name=DISTRIBUTION, path=[str(folder) for folder in folders]):
        folder = Path(os.path.realpath(str(distribution.locate_file(""))))
        files = distribution.files
        if files is None:  # no list of its files: its top-level packages
            top_level = (distribution.read_text("top_level.txt") or "").split()
            packages |= {folder / name for name in top_level if (folder / name).is_dir()}
            continue
        for file in files:
            path = covering(Path(os.path.normpath(folder / file)), folder)
            if path is None or not os.path.lexists(path):
                continue
            if Path(file).parts[1:] == ("__init__.py",):
                packages.add(path)
            covered.add(path)
    return covered - packages, packages


def _virtualenv() -> list[Path]:
    """What of the judge's virtualenv a contained program needs, if the judge runs from one:
    its folder, or where that is too wide (a home folder, the project), its parts."""
    prefix = Path(os.path.realpath(sys.prefix))
    if prefix == Path(os.path.realpath(sys.base_prefix)):
        return []
    if not _too_wide(prefix):
        return [prefix]
    return [prefix / "pyvenv.cfg", python().parent,
            *(folder for folder in site_folders() if folder.is_relative_to(prefix))]


def _outermost(paths: Iterable[Path]) -> set[Path]:
    """The paths that lie within none of the others."""
    unique = set(paths)
    return {path for path in unique
            if not any(path != other and path.is_relative_to(other) for other in unique)}


@functools.cache
def python_view() -> View:
    """What of the judge's Python a contained program sees: its installation, its virtualenv
    and its user's packages, with the judge's own code among them covered."""
    interpreters = {str(python()), getattr(sys, "_base_executable", "") or sys.executable}
    roots = [root for program in interpreters if (root := install_root(program)) is not None]
    user = user_site()
    shown = _outermost([*roots, *_virtualenv(), *([user] if user is not None else [])])

    def visible(paths: set[Path]) -> tuple[Path, ...]:
        return tuple(sorted(path for path in paths
                            if is_system(path) or any(path.is_relative_to(r) for r in shown)))
    covered, packages = judge_installed(site_folders())
    return View(tuple(sorted(shown)), visible(covered), visible(packages))


def view(programs: list[str]) -> View:
    """What the sandbox shows for the judge's Python and these runtimes (full paths, as `find`
    gives them)."""
    python_part = python_view()
    roots = {root for program in programs if (root := install_root(program)) is not None}
    shown = _outermost([*python_part.shown, *roots])
    covered = {*python_part.hidden, *python_part.packages}
    project = judge_project()
    if project is not None and any(project.is_relative_to(root) for root in shown):
        covered.add(project)
    outermost = _outermost(covered)  # within a covered folder, nothing is left to cover
    return View(tuple(sorted(shown)), tuple(sorted(outermost - set(python_part.packages))),
                tuple(sorted(outermost & set(python_part.packages))))
