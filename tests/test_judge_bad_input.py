"""The judge given bad input: limits, output paths, replays, manifests and hostile text."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from fixture_folders import PROGRAM, SUBMISSIONS, assemble, assembled

import judge.cli
import judge.deciding.referee
import judge.running.launch
from judge.cli import main

CANONICAL = SUBMISSIONS / "accepted" / "canonical"
LEARNING_LOSS = SUBMISSIONS / "wrong-answer" / "learning-loss"
"""Fixture folders as they are kept, their manifests alone: enough where no program is run."""
ESCAPE = "\x1b"


@pytest.fixture
def never_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the judge starts a program."""
    def start(*args: object) -> None:
        raise AssertionError("a program was started")
    monkeypatch.setattr(judge.running.launch, "start_program", start)


@pytest.fixture
def learning_loss(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The learning-loss fixture, ready to run in a folder apart from the test's own."""
    return assembled("wrong-answer/learning-loss", tmp_path_factory.mktemp("fixture"))


def lines(capsys: pytest.CaptureFixture[str]) -> tuple[list[str], list[str]]:
    """The lines printed on stdout and on stderr."""
    captured = capsys.readouterr()
    return captured.out.splitlines(), captured.err.splitlines()


@pytest.mark.usefixtures("never_run")
@pytest.mark.parametrize("option, value, allowed", [
    ("--time-limit", "nan", "above 0 and at most 86,400"),
    ("--time-limit", "inf", "above 0 and at most 86,400"),
    ("--time-limit", "-5", "above 0 and at most 86,400"),
    ("--idle-limit", "-1", "above 0 and at most 3,600"),
    ("--grace", "1e9", "above 0 and at most 3,600"),
    ("--memory-limit", "0", "from 16 to 1,048,576"),
    ("--output-limit", "-1", "from 1 to 4,096"),
    ("--games", "1000000000", "from 1 to 100,000"),
    ("--games", "9" * 5000, "from 1 to 100,000"),
    ("--seed", "1e400", "from 0 to 18,446,744,073,709,551,615"),
])
def test_a_limit_out_of_range_is_bad_usage_naming_the_option_and_range(
        option: str, value: str, allowed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(CANONICAL), option, value]) == 2
    out, err = lines(capsys)
    assert out == [] and len(err) == 1
    assert f"argument {option}:" in err[0] and allowed in err[0]


@pytest.mark.usefixtures("never_run")
@pytest.mark.parametrize("option, target, problem", [
    ("--transcript", "missing/t.txt", "the folder of"),
    ("--json", ".", "is a folder, not a file"),
    ("--save-replay", ".", "is a folder, not a file"),
    ("--markdown", "missing/board.md", "the folder of"),
])
def test_an_output_path_that_cannot_be_written_is_refused_before_the_run(
        option: str, target: str, problem: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(CANONICAL), option, str(tmp_path / target)]) == 2
    out, err = lines(capsys)
    assert len(err) == 1 and err[0].startswith(f"menace-judge: {option}: ") and problem in err[0]


@pytest.mark.e2e
def test_a_write_that_fails_after_the_run_keeps_the_verdict(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.replace

    def full_disk(source: str, destination: Path) -> None:
        """The disk fills up just as the JSON report is written."""
        if str(destination).endswith("report.json"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(source, destination)

    monkeypatch.setattr("judge.telling.outputs.os.replace", full_disk)
    status = main(["--games", "2", "--seed", "1", "--json", str(tmp_path / "report.json"),
                   "--transcript", str(tmp_path / "t.txt"),
                   str(assembled("accepted/canonical", tmp_path_factory.mktemp("fixture")))])
    out, _ = lines(capsys)
    assert status == 0 and out[-1] == "accepted"
    assert out[-2] == f"could not write the JSON report: '{tmp_path / 'report.json'}': " \
                      "No space left on device"
    assert (tmp_path / "t.txt").read_text().startswith("> 2\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.txt"]


def replay_folder(cache: Path) -> Path:
    """The private folder replays go to when XDG_CACHE_HOME is `cache`."""
    return cache / "menace-judge" / "replays"


@pytest.mark.e2e
def test_replays_go_to_a_private_folder_under_unique_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    long_names = [tmp_path / ("a-submission-with-a-name-much-longer-than-forty-characters-" + end)
                  for end in ("one", "two")]
    for folder in long_names:
        assemble(LEARNING_LOSS, folder)
        assert main(["--games", "3", "--seed", "3", str(folder)]) == 1
    folder = replay_folder(tmp_path / "cache")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    saved = sorted(folder.iterdir())
    assert len(saved) == 2 and {json.loads(p.read_text())["submission"] for p in saved} == \
        {str(f) for f in long_names}
    out, _ = lines(capsys)
    assert all(any(str(p) in line for line in out) for p in saved)


@pytest.mark.e2e
def test_a_replay_folder_that_others_can_use_is_refused_and_the_verdict_kept(
        tmp_path: Path, learning_loss: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = replay_folder(tmp_path / "cache")
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    assert main(["--games", "3", "--seed", "3", str(learning_loss)]) == 1
    out, _ = lines(capsys)
    assert out[-1] == "wrong-answer learning"
    assert out[-2].startswith("could not write the replay: the replay folder") and \
        "is not private to you" in out[-2]
    assert not any(folder.iterdir())


@pytest.mark.e2e
def test_a_replay_that_cannot_be_written_leaves_no_file_and_the_verdict_kept(
        tmp_path: Path, learning_loss: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))

    def full_disk(source: str, destination: Path) -> None:
        """The disk is full."""
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("judge.telling.outputs.os.replace", full_disk)
    assert main(["--games", "3", "--seed", "3", str(learning_loss)]) == 1
    out, _ = lines(capsys)
    assert out[-1] == "wrong-answer learning"
    assert out[-2].startswith("could not write the replay: ") and "No space left" in out[-2]
    assert not any(line.startswith("  replay: ") for line in out)
    assert not any(replay_folder(tmp_path / "cache").iterdir())


@pytest.mark.e2e
def test_a_saved_replay_replaces_a_planted_link_and_never_follows_it(
        tmp_path: Path, learning_loss: Path, capsys: pytest.CaptureFixture[str]) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    planted = tmp_path / "replay.json"
    planted.symlink_to(victim)
    assert main(["--games", "3", "--seed", "3", "--save-replay", str(planted),
                 str(learning_loss)]) == 1
    assert victim.read_text() == "precious\n"
    assert not planted.is_symlink() and json.loads(planted.read_text())["seed"] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["replay.json", "victim.txt"]


GOOD_REPLAY = {"seed": 3, "games": 3, "opponent": "mixed", "transport": "pty",
               "submission": str(LEARNING_LOSS), "command": [], "moves": [[4, 0], [8]]}


@pytest.mark.usefixtures("never_run")
@pytest.mark.parametrize("change, problem", [
    ({"opponent": "grandmaster"},
     "field 'opponent' must be one of random, perfect, coverage, mixed"),
    ({"seed": 1e400}, "field 'seed' must be a whole number from 0"),
    ({"seed": True}, "field 'seed' must be a whole number from 0"),
    ({"games": "3"}, "field 'games' must be a whole number from 1 to 100,000, not '3'"),
    ({"games": 10 ** 9}, "field 'games' must be a whole number from 1 to 100,000"),
    ({"transport": 7}, "field 'transport' must be one of pty, pipe, not 7"),
    ({"moves": [[4], [9]]}, "field 'moves', game 2: not a list of at most 4 squares"),
    ({"moves": "4,0"}, "field 'moves' must be a list"),
    ({"command": "rm -rf ~"}, "field 'command' must be a list of strings"),
    ({"submission": ["x"]},
     "field 'submission' must be a submission folder's or source file's path"),
    ({"mystery": 1}, "unknown field 'mystery'"),
    ({"seed": None}, "field 'seed' must be a whole number"),
])
def test_a_hand_edited_replay_is_refused_naming_the_field(
        change: dict[str, object], problem: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    replay = tmp_path / "replay.json"
    text = json.dumps({**GOOD_REPLAY, **change}).replace("Infinity", "1e400")
    replay.write_text(text)
    assert main(["--replay", str(replay), "--yes"]) == 2
    out, err = lines(capsys)
    assert len(err) == 1 and problem in err[0], err
    assert replay.read_text() == text


@pytest.mark.usefixtures("never_run")
@pytest.mark.parametrize("text, problem", [
    ("[" * 100_000, "nested too deeply"), ("{", "not a replay file"), ("[]", "not a JSON object"),
    ('{"seed": 1}', "field 'games' is missing"), ("\xff", "is not UTF-8 text"),
])
def test_a_replay_that_is_not_one_is_refused(text: str, problem: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    replay = tmp_path / "replay.json"
    replay.write_text(text, encoding="latin-1")
    assert main(["--replay", str(replay)]) == 2
    _, err = lines(capsys)
    assert len(err) == 1 and problem in err[0]


def command_replay(tmp_path: Path) -> Path:
    """A replay file whose run was of a bare command (a program outside any folder)."""
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps({**GOOD_REPLAY, "submission": "", "command": [
        "python3", str(PROGRAM), "--note", "\x1b[2J"]}))
    return replay


@pytest.mark.usefixtures("never_run")
def test_a_replay_command_is_not_run_from_a_script_without_yes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--replay", str(command_replay(tmp_path))]) == 2
    _, err = lines(capsys)
    assert len(err) == 1 and "not run without asking: add --yes" in err[0]
    assert str(PROGRAM) in err[0] and "\\x1b[2J" in err[0] and ESCAPE not in err[0]


@pytest.mark.usefixtures("never_run")
def test_a_replay_command_is_shown_and_refused_at_a_terminal_unless_the_answer_is_yes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    assert main(["--replay", str(command_replay(tmp_path))]) == 2
    _, err = lines(capsys)
    assert "runs this command: python3" in err[0]
    assert err[-1].endswith("the replay's command was not run")


@pytest.mark.e2e
def test_a_replay_command_runs_when_the_answer_is_yes_or_with_yes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    replay = tmp_path / "replay.json"
    shutil.copy(PROGRAM, tmp_path / "menace.py")
    replay.write_text(json.dumps({**GOOD_REPLAY, "submission": "", "command": [
        "python3", "menace.py"], "files": [str(tmp_path / "menace.py")]}))
    monkeypatch.chdir(tmp_path)
    assert main(["--replay", str(replay), "--yes"]) == 0
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    assert main(["--replay", str(replay)]) == 0
    out, err = lines(capsys)
    assert out[-1] == "accepted" and "runs: python3" in err[0]


@pytest.mark.usefixtures("never_run")
def test_a_replay_that_names_a_file_outside_the_current_folder_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay file may come from someone else: its files must lie where the judge runs."""
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps({**GOOD_REPLAY, "submission": "", "command": [
        "python3", "menace.py"], "files": [str(PROGRAM)]}))
    monkeypatch.chdir(tmp_path)
    assert main(["--replay", str(replay), "--yes"]) == 2
    _, err = lines(capsys)
    assert len(err) == 1 and "outside the folder the judge runs in" in err[0]


@pytest.mark.usefixtures("never_run")
@pytest.mark.parametrize("program", ["../../x.sh", "/bin/sh", "sub/../../x.sh", "./link.sh"])
def test_a_manifest_command_outside_its_folder_is_refused(
        program: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "link.sh").symlink_to("/bin/sh")
    (folder / "submission.toml").write_text(f'command = ["{program}"]\n')
    assert main([str(folder)]) == 2
    _, err = lines(capsys)
    assert len(err) == 1 and f"command '{program}' lies outside the submission's folder" in err[0]


def hostile(folder: Path) -> Path:
    """A submission that crashes, its language and its stderr full of terminal escapes."""
    folder.mkdir()
    (folder / "submission.toml").write_text(
        'command = ["python3", "m.py"]\nsource = "m.py"\n'
        'language = "Py\\u001b]0;owned\\u0007 | `x`"\n')
    (folder / "m.py").write_text(
        'import sys\nsys.stderr.write("\\x1b[2J\\x1b[1A\\raccepted\\n")\nsys.exit(3)\n')
    return folder


def test_program_and_manifest_text_is_escaped_on_the_terminal_and_exact_in_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = hostile(tmp_path / "bad")
    report = tmp_path / "r.json"
    assert main(["--games", "2", "--seed", "1", "--json", str(report),
                 "--save-replay", str(tmp_path / "replay.json"), str(folder)]) == 1
    out, _ = lines(capsys)
    assert not any(ESCAPE in line or "\x07" in line or "\r" in line for line in out)
    assert "judging bad (Py\\x1b]0;owned\\x07 | `x`, 70 bytes)" in out[0]
    assert "    \\x1b[2J\\x1b[1A" in out and out.count("accepted") == 0
    assert out[-1] == "runtime-error"
    assert json.loads(report.read_text())["stderr_tail"][0] == "\x1b[2J\x1b[1A"


@pytest.mark.e2e
def test_the_markdown_leaderboard_escapes_manifest_text(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "board"
    board.mkdir()
    hostile(board / "b|a`d")
    markdown = tmp_path / "board.md"
    assert main(["--games", "2", "--seed", "1", "--markdown", str(markdown), str(board)]) == 1
    out, _ = lines(capsys)
    assert not any(ESCAPE in line for line in out)
    row = markdown.read_text().splitlines()[2]
    assert row.startswith("| b\\|a\\`d | Py\\\\x1b\\]0;owned\\\\x07 \\| \\`x\\` | ")
    assert row.replace("\\|", "").count("|") == 8 and ESCAPE not in row


@pytest.mark.parametrize("name, stream, could_not", [
    ("closes-stdin", "input", "send it the next line"),
    ("closes-stdout", "output", "read the rest of the session"),
])
@pytest.mark.e2e
def test_a_program_that_closes_its_stdin_or_stdout_is_rejected_saying_so(
        name: str, stream: str, could_not: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = assembled(f"runtime-error/{name}", tmp_path)
    report = tmp_path / "r.json"
    assert main(["--games", "2", "--seed", "1", "--transport", "pipe", "--grace", "0.5",
                 "--json", str(report), str(folder)]) == 1
    out, _ = lines(capsys)
    assert out[-1] == "runtime-error"
    assert json.loads(report.read_text())["reason"] == (
        f"it closed its standard {stream} and went on running, so the judge could not {could_not}")
