"""Text from the program is escaped in every file the judge writes for people (transcript,
Markdown table, shrunk test), as on the terminal, and kept exact in JSON: a clipboard write
(OSC 52), a window title and a clear-screen sequence act on nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from live import judge_process

from judge.cli import main

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parent.parent
FAULTS = ROOT / "tests" / "submissions" / "menace.py"
SEQUENCES = "\x1b]52;c;aGFja2Vk\x07\x1b]0;owned\x07\x1b[2J"
"""A clipboard write, a window title and a clear screen, in one line."""
SHOWN = "\\x1b]52;c;aGFja2Vk\\x07\\x1b]0;owned\\x07\\x1b[2J"
"""The same line as the terminal shows it."""
RAW = ("\x1b", "\x07")


def hostile(folder: Path) -> Path:
    """A submission that prints the sequences where `new game` should come."""
    folder.mkdir(parents=True)
    (folder / "submission.toml").write_text(
        'command = ["python3", "m.py"]\nsource = "m.py"\nlanguage = "Python 3"\n')
    (folder / "m.py").write_text(f"input()\nprint({SEQUENCES!r}, flush=True)\n")
    return folder


@pytest.mark.e2e
def test_the_transcript_file_is_escaped_and_the_json_exact(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    transcript, report = tmp_path / "t.txt", tmp_path / "r.json"
    assert main(["--games", "2", "--seed", "1", "--transcript", str(transcript), "--json",
                 str(report), str(hostile(tmp_path / "bad"))]) == 1
    text = transcript.read_text()
    assert not any(raw in text for raw in RAW)
    assert text.splitlines() == ["> 2", "< " + SHOWN]
    data = json.loads(report.read_text())
    assert data["got"] == SEQUENCES and data["transcript_tail"][-1] == "< " + SEQUENCES
    out = capsys.readouterr().out
    assert not any(raw in out for raw in RAW) and SHOWN in out


@pytest.mark.e2e
def test_the_markdown_table_is_escaped_and_the_json_rows_exact(tmp_path: Path) -> None:
    hostile(tmp_path / "board" / "bad")
    markdown, rows = tmp_path / "board.md", tmp_path / "rows.json"
    assert main(["--games", "2", "--seed", "1", "--markdown", str(markdown), "--json",
                 str(rows), str(tmp_path / "board")]) == 1
    table = markdown.read_text()
    assert not any(raw in table for raw in RAW) and "\\\\x1b\\]52;c;aGFja2Vk" in table
    assert SEQUENCES in json.loads(rows.read_text())["rows"][0]["reason"]


@pytest.mark.e2e
def test_a_shrunk_test_is_escaped_python_that_still_fails(tmp_path: Path) -> None:
    replay = tmp_path / "replay.json"
    done = judge_process("--games", "30", "--seed", "5", "--shrink", "--save-replay", replay,
                         "--", "python3", FAULTS, "--fault", "fourth-move", "--seed", "5",
                         "--note", SEQUENCES)
    assert done.returncode == 1 and "SHRUNK" in done.stdout, done.stdout
    assert not any(raw in done.stdout + done.stderr for raw in RAW)
    test = (tmp_path / "test_replay_shrunk.py").read_text()
    assert not any(raw in test for raw in RAW) and SHOWN in test
    compile(test, "test_replay_shrunk.py", "exec")
    assert json.loads((tmp_path / "replay-shrunk.json").read_text())["command"][-1] == SEQUENCES
