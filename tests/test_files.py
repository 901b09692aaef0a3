"""A file replaced in one step: whole or not at all, a link replaced and never followed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reference.files import replace_file


def test_the_new_text_and_mode_take_the_name_and_nothing_else_is_left(tmp_path: Path) -> None:
    path = tmp_path / "report.txt"
    path.write_text("old\n")
    replace_file(path, "new ☺\n", 0o640)
    assert path.read_text(encoding="utf-8") == "new ☺\n"
    assert path.stat().st_mode & 0o7777 == 0o640
    assert sorted(os.listdir(tmp_path)) == ["report.txt"]


def test_a_link_at_the_name_is_replaced_and_what_it_led_to_is_untouched(tmp_path: Path) -> None:
    kept, link = tmp_path / "kept.txt", tmp_path / "link.txt"
    kept.write_text("kept\n")
    link.symlink_to(kept)
    replace_file(link, "new\n")
    assert not link.is_symlink() and link.read_text() == "new\n"
    assert kept.read_text() == "kept\n"


def test_a_failed_write_leaves_the_old_file_whole_and_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "boxes.json"
    path.write_text("old\n")

    def full_disk(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left"):
        replace_file(path, "new\n")
    assert path.read_text() == "old\n" and sorted(os.listdir(tmp_path)) == ["boxes.json"]


def test_a_long_name_still_leaves_room_for_the_temporary(tmp_path: Path) -> None:
    path = tmp_path / ("n" * 250)
    replace_file(path, "text\n")
    assert path.read_text() == "text\n"
