"""The world inside the sandbox, as bubblewrap's arguments: nothing is there unless named.

The program sees the system read-only (/usr and its links, and of /etc what the runtimes read
as their configuration), the runtimes it needs read-only (judge/running/runtimes.py), fresh
/proc and a read-only /dev, and two writable, size-capped tmpfs: its working folder, holding a
copy of its files, and /tmp. Everything else, the sandbox's own root included, is read-only.
Its arguments are data: none of them is ever made a mount.
"""

from __future__ import annotations

import functools
import os
import shutil
from pathlib import Path
from typing import Final

from judge.running.runtimes import NOT_INSTALLED, SYSTEM_ROOTS, View, configuration

WARDEN_PATH: Final = "/.warden"
"""Where the execute-only copy of the warden's shell lies inside (judge/running/warden.py)."""
SEALED: Final = ("--remount-ro", "/dev", "--remount-ro", "/")
"""Arguments that make the sandbox's own tmpfs read-only once everything is in place: its root
(which holds the folders made above each bind) and /dev (which holds /dev/shm). Without them a
program that runs as the judge's user could fill either with files that no limit counts."""
NAMESPACES: Final = ("--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
                     "--unshare-cgroup-try", "--die-with-parent", "--new-session")


@functools.cache
def tool(name: str) -> str:
    """The full path of a command the sandbox runs, found once."""
    return shutil.which(name) or shutil.which(name, path="/usr/bin:/bin:/usr/sbin:/sbin") or ""


def read_only(path: Path) -> list[str]:
    """Arguments that show `path` read-only at its own place, its parents traversable."""
    parents = [f for parent in reversed(path.parents[:-1])
               for f in ("--perms", "0755", "--dir", str(parent))]
    return [*parents, "--ro-bind", str(path), str(path)]


def data(content: bytes, keep: list[int]) -> str:
    """A descriptor that reads `content` (appended to `keep`), for bwrap to copy from."""
    read_end, write_end = os.pipe()
    os.write(write_end, content)
    os.close(write_end)
    keep.append(read_end)
    return str(read_end)


def hidden(path: Path, keep: list[int], module: bytes | None = None) -> list[str]:
    """Arguments that cover the file `path` with an empty, read-only one, or the folder `path`
    with an empty, read-only one, which holds only an `__init__.py` of `module` if given;
    the descriptors they read from are appended to `keep`."""
    if not path.is_dir():
        return ["--perms", "0444", "--ro-bind-data", data(b"", keep), str(path)]
    args = ["--perms", "0555", "--tmpfs", str(path)]
    if module is not None:
        args += ["--perms", "0444", "--file", data(module, keep), str(path / "__init__.py")]
    return [*args, "--remount-ro", str(path)]


def shown(path: Path) -> list[str]:
    """Arguments that show `path` read-only at its own place, a link as the same link."""
    if path.is_symlink():
        return ["--symlink", os.readlink(path), str(path)]
    return ["--ro-bind-try", str(path), str(path)]


@functools.cache
def system_view() -> tuple[str, ...]:
    """Arguments for the read-only system: /usr, its links, the runtimes' configuration."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in SYSTEM_ROOTS[1:]:
        path = Path("/") / name
        if path.is_symlink() or path.is_dir():
            args += shown(path)
    args += ["--perms", "0755", "--dir", "/etc"]
    for path in configuration():
        args += shown(path)
    return tuple(args)


def runtimes_view(view: View, keep: list[int]) -> list[str]:
    """Arguments that show the runtimes' folders and cover the judge's own code within them;
    the descriptors they read from are appended to `keep`.

    They come after the tmpfs of /tmp, so that a runtime installed under /tmp shows."""
    args: list[str] = []
    for root in view.shown:
        args += read_only(root)
    for path in view.hidden:
        if os.path.lexists(path):
            args += hidden(path, keep)
    for package in view.packages:
        if package.is_dir():
            args += hidden(package, keep, NOT_INSTALLED)
    return args


def scratch(disk_mb: int | None, cwd: Path | None) -> list[str]:
    """Arguments for /proc, /dev and the writable tmpfs: /tmp and the working folder."""
    size = [] if disk_mb is None else ["--size", str(disk_mb << 20)]
    args = ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", *size, "--tmpfs", "/tmp"]
    if cwd is not None:
        args += ["--perms", "0777", *size, "--tmpfs", str(cwd)]
    return args


def copied_in(folder: Path, keep: list[int]) -> list[str]:
    """Arguments that copy the working folder's entries into its tmpfs; the descriptors they
    read from are appended to `keep`. The folder is the judge's own copy
    (judge/running/workspace.py): its links stay inside it and are made again as links."""
    args: list[str] = []
    for here, dirs, files in os.walk(folder):
        dirs.sort()
        for name in dirs:
            path = os.path.join(here, name)
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            else:
                args += ["--perms", "0777", "--dir", path]
        for name in sorted(files):
            path = os.path.join(here, name)
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
                continue
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
            keep.append(fd)
            mode = "0777" if os.stat(fd).st_mode & 0o111 else "0666"
            args += ["--perms", mode, "--file", str(fd), path]
    return args


def drop_privileges(as_root: bool, uid: int) -> list[str]:
    """Arguments that end bwrap's options and run what follows with no privileges: as `uid`
    in a user namespace of its own when the judge is root, else bwrap's own user namespace."""
    if not as_root:
        return ["--unshare-user", "--cap-drop", "ALL", "--"]
    return ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
            "--", tool("setpriv"), f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
            "--inh-caps=-all", "--ambient-caps=-all", "--bounding-set=-all", "--no-new-privs",
            "--", tool("unshare"), "--user", "--map-current-user"]
