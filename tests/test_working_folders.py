"""Working folders: each locked by the judge that uses it; those whose judge is gone are removed
by the next judge, and nothing else is."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from judge.running.workspace import PREFIX, fresh_folder, remove_abandoned


def made(parent: Path, name: str, *, settled: bool = True) -> Path:
    """A folder `name` in `parent` with a file in it, settled (long unchanged) or new."""
    folder = parent / name
    folder.mkdir()
    (folder / "menace.py").write_text("print()\n")
    if settled:
        os.utime(folder, (0, 0))
    return folder


def test_only_settled_unlocked_working_folders_of_this_user_go(tmp_path: Path) -> None:
    """A settled working folder whose lock no one holds goes; one whose lock is held, a new one,
    a file of the same name and a folder of another name stay."""
    abandoned = made(tmp_path, PREFIX + "abandoned")
    held = made(tmp_path, PREFIX + "held")
    new = made(tmp_path, PREFIX + "new", settled=False)
    other = made(tmp_path, "menace-judge-other")
    (tmp_path / (PREFIX + "file")).write_text("x")
    lock = os.open(held, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert remove_abandoned(tmp_path) == 1
    finally:
        os.close(lock)
    assert not abandoned.exists()
    assert held.exists() and new.exists() and other.exists()
    assert (tmp_path / (PREFIX + "file")).exists()
    assert remove_abandoned(tmp_path) == 1 and not held.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can make another user's folder")
def test_another_users_working_folder_stays(tmp_path: Path) -> None:
    """A judge removes only its own user's folders."""
    theirs = made(tmp_path, PREFIX + "theirs")
    os.chown(theirs, 65534, 65534)
    os.utime(theirs, (0, 0))
    assert remove_abandoned(tmp_path) == 0 and theirs.exists()


def test_a_fresh_folder_is_locked_until_removed() -> None:
    """A new working folder cannot be locked by another while its judge uses it; once removed,
    it is gone, and removing it again changes nothing."""
    folder = fresh_folder()
    try:
        assert folder.path.name.startswith(PREFIX)
        other = os.open(folder.path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(other)
    finally:
        folder.remove()
    assert not folder.path.exists()
    folder.remove()
