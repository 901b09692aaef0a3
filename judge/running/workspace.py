"""The run's working folder: a fresh folder holding a safe copy of what is to be judged.

A submission folder comes from its author, so it is copied as data: each entry is looked at
without following links, regular files are opened so that no link can be swapped in, links
that stay inside the folder are copied as links, and anything else (a link that leads out of
the folder, a device, a fifo, a socket, a file its folder's owner could not read) refuses the
copy with a message naming it. Bytes and files are counted while copying, against caps, so a
huge or endless file never fills the disk. Files a person names in a bare command are theirs
to show: they are copied in by name, under the same caps.

A judge holds a lock on each working folder it makes for as long as the folder is in use; the
kernel drops the lock when the judge dies, however it dies. Before making a folder, a judge
removes the folders of this user whose lock no one holds (a judge killed with SIGKILL could
not remove its own), so nothing of a killed judge stays beyond the next judge's start.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Final

from judge.terms.text import printable

MOST_BYTES: Final = 32 << 20
"""Bytes of one submission, all its files together."""
MOST_FILES: Final = 2000
"""Files and folders of one submission."""
DEEPEST: Final = 32
"""Folders within folders of one submission."""
SKIPPED: Final = frozenset({"__pycache__", ".git"})
"""Folders never copied: caches and version control, of no use to the program."""
CHUNK: Final = 1 << 16
PREFIX: Final = "menace-judge-run-"
"""The start of every working folder's name, by which the folders of gone judges are found."""
SETTLED_SECONDS: Final = 10.0
"""Seconds a working folder must have stood unchanged before another judge may remove it
(its lock unheld): a folder is unlocked for a moment between its making and its locking."""


class CopyError(ValueError):
    """A submission that cannot be copied safely; the message names the entry and why."""


@dataclass
class Budget:
    """What a copy may still take: bytes and entries, counted as it goes."""

    bytes_left: int = MOST_BYTES
    entries_left: int = MOST_FILES
    owner: int = field(default_factory=os.geteuid)
    """The uid whose rights the copy reads with: the submission folder's owner."""

    def entry(self, shown: str) -> None:
        """Count one more file or folder."""
        self.entries_left -= 1
        if self.entries_left < 0:
            raise CopyError(f"more than {MOST_FILES:,} files and folders (at {shown}): "
                            "judge a folder that holds just the answer")

    def take(self, size: int, shown: str) -> None:
        """Count `size` more bytes."""
        self.bytes_left -= size
        if self.bytes_left < 0:
            raise CopyError(f"more than {MOST_BYTES >> 20} MB of files (at {shown}): "
                            "judge a folder that holds just the answer")


def _readable_by_owner(info: os.stat_result, owner: int) -> bool:
    """True when the folder's owner could read a file with this status."""
    if owner == 0 or info.st_mode & stat.S_IROTH:
        return True
    return info.st_uid == owner and bool(info.st_mode & stat.S_IRUSR)


def _copy_file(source_fd: int, target: Path, budget: Budget, shown: str) -> None:
    """Copy an open regular file to `target`, counting its bytes as they come."""
    info = os.fstat(source_fd)
    mode = 0o777 if info.st_mode & 0o111 else 0o666
    with open(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode),
              "wb") as out:
        while chunk := os.read(source_fd, CHUNK):
            budget.take(len(chunk), shown)
            out.write(chunk)


def _link_inside(link: PurePosixPath, target: str) -> bool:
    """True when a link at `link` (relative to the folder) pointing at `target` stays inside."""
    if target.startswith("/"):
        return False
    depth = len(link.parent.parts)
    for part in PurePosixPath(target).parts:
        depth += -1 if part == ".." else 0 if part == "." else 1
        if depth < 0:
            return False
    return True


def _copy_entries(folder_fd: int, target: Path, relative: PurePosixPath, budget: Budget) -> None:
    """Copy the entries of an open folder into `target`, never following a link."""
    if len(relative.parts) > DEEPEST:
        raise CopyError(f"folders nested more than {DEEPEST} deep (at {printable(str(relative))})")
    with os.scandir(folder_fd) as entries:
        names = sorted(entry.name for entry in entries)
    for name in names:
        inner = relative / name
        shown = printable(str(inner))
        info = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
        if stat.S_ISDIR(info.st_mode) and name in SKIPPED:
            continue
        budget.entry(shown)
        if stat.S_ISLNK(info.st_mode):
            pointed = os.readlink(name, dir_fd=folder_fd)
            if not _link_inside(inner, pointed):
                raise CopyError(f"{shown} is a link that leads out of the submission folder "
                                f"(to {printable(pointed)}): copy the file itself into the folder")
            os.symlink(pointed, target / name)
        elif stat.S_ISDIR(info.st_mode):
            child = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=folder_fd)
            try:
                (target / name).mkdir()
                _copy_entries(child, target / name, inner, budget)
            finally:
                os.close(child)
        elif stat.S_ISREG(info.st_mode):
            if not _readable_by_owner(info, budget.owner):
                raise CopyError(f"{shown} cannot be read by the folder's owner")
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder_fd)
            try:
                opened = os.fstat(fd)
                if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino):
                    raise CopyError(f"{shown} changed while it was being copied")
                _copy_file(fd, target / name, budget, shown)
            finally:
                os.close(fd)
        else:
            raise CopyError(f"{shown} is not a regular file, folder or link (a device, fifo or "
                            "socket): a submission folder holds files")


def copy_folder(source: Path, target: Path, budget: Budget | None = None) -> None:
    """Copy the submission folder `source` into the existing folder `target`, safely."""
    try:
        folder_fd = os.open(source, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as error:
        raise CopyError(f"cannot open {printable(str(source))}: {error.strerror}") from None
    try:
        budget = budget or Budget(owner=os.fstat(folder_fd).st_uid)
        _copy_entries(folder_fd, target, PurePosixPath("."), budget)
    except OSError as error:
        raise CopyError(f"cannot copy {printable(str(source))}: {error.strerror}") from None
    finally:
        os.close(folder_fd)


def copy_named(path: Path, target: Path, budget: Budget) -> None:
    """Copy a file or folder a person named (links followed: they chose it) to `target`."""
    shown = printable(str(path))
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            target.mkdir()
            copy_folder(path, target, budget)
            return
        if not stat.S_ISREG(info.st_mode):
            raise CopyError(f"{shown} is not a regular file or folder")
        budget.entry(shown)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            _copy_file(fd, target, budget, shown)
        finally:
            os.close(fd)
    except OSError as error:
        raise CopyError(f"cannot copy {shown}: {error.strerror}") from None


NOT_FILES: Final = frozenset({".", "..", "/"})
"""Arguments that name folders but never mean "copy this folder in"."""


def named_files(command: tuple[str, ...], here: Path) -> tuple[tuple[str, ...], tuple[Path, ...]]:
    """A bare command typed by a person, with each file it names (relative to `here`, or
    absolute) replaced by the name of its copy in the working folder; and the files to copy,
    by their full paths.

    The program (the first word) is a runtime when it is a bare name or an absolute path, and
    a file of the submission when it is a relative path (`./menace`)."""
    words, files = [command[0]], []
    program = command[0]
    for index, word in enumerate(command):
        if index == 0 and (program.startswith("/") or "/" not in program):
            continue
        path = here / word
        if word in NOT_FILES or not word or not os.path.lexists(path):
            if index:
                words.append(word)
            continue
        files.append(Path(os.path.abspath(path)))
        copied = f"./{path.name}" if index == 0 else path.name
        if index:
            words.append(copied)
        else:
            words[0] = copied
    return tuple(words), tuple(files)


def with_full_paths(command: tuple[str, ...], files: tuple[Path, ...]) -> tuple[str, ...]:
    """A bare command as `named_files` made it, with each copied file's name replaced by its
    full path again: the command to type elsewhere."""
    full = {path.name: str(path) for path in files}
    full.update({f"./{path.name}": str(path) for path in files})
    return tuple(full.get(word, word) for word in command)


class WorkingFolder:
    """A run's working folder, locked while the judge that made it uses it."""

    def __init__(self, path: Path, lock: int) -> None:
        self.path = path
        self._lock: int | None = lock

    def remove(self) -> None:
        """Remove the folder and drop its lock (idempotent)."""
        shutil.rmtree(self.path, ignore_errors=True)
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


def _locked(path: Path | str) -> int | None:
    """A descriptor of the folder `path` holding its lock, or None when another holds it."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def remove_abandoned(parent: Path) -> int:
    """Remove the working folders in `parent` that judges now gone left behind: this user's,
    settled, and with their lock free; how many went."""
    removed = 0
    now, uid = time.time(), os.geteuid()
    try:
        entries = [entry for entry in os.scandir(parent) if entry.name.startswith(PREFIX)]
    except OSError:
        return 0
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid or \
                    now - info.st_mtime < SETTLED_SECONDS:
                continue
            lock = _locked(entry.path)
        except OSError:
            continue
        if lock is None:
            continue  # its judge is alive
        try:
            shutil.rmtree(entry.path, ignore_errors=True)
            removed += 1
        finally:
            os.close(lock)
    return removed


def fresh_folder() -> WorkingFolder:
    """A new private temporary folder for one run, locked; the folders of gone judges are
    removed first."""
    parent = Path(tempfile.gettempdir())
    remove_abandoned(parent)
    while True:
        path = Path(tempfile.mkdtemp(prefix=PREFIX, dir=parent))
        lock = _locked(path)
        if lock is not None:
            return WorkingFolder(path, lock)
        shutil.rmtree(path, ignore_errors=True)  # taken by a sweep in the moment before the lock


def working_folder(folder: Path | None, files: tuple[Path, ...] = ()) -> WorkingFolder:
    """A fresh folder holding a copy of the submission folder and of the files named."""
    made = fresh_folder()
    try:
        budget = Budget(owner=folder.stat().st_uid) if folder is not None else Budget()
        if folder is not None:
            copy_folder(folder, made.path, budget)
        for path in files:
            target = made.path / path.name
            if target.exists() or target.is_symlink():
                raise CopyError(f"two files to copy are named {printable(path.name)}: "
                                "judge a folder that holds them instead")
            copy_named(path, target, budget)
    except BaseException:
        made.remove()
        raise
    return made
