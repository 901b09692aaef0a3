"""A bare source file judged without a manifest: language from the extension, declarations
from its header or the options, bytes from the file, and every bad input a one-line message."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from live import judge_process

import judge.running.launch
from judge.bare import bare_manifest, command_for, header_words
from judge.cli import main
from judge.terms.manifest import ManifestError
from judge.terms.options import BeadFormat, MoveFormat, RefillRule, Transport

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parent.parent
GOLF = ROOT / "golf"
HEADER = "# menace-judge: moves=digits0 beads=0-8 refill=on-draw transport=pipe\n"
"""The declarations of golf/python, as a header."""


def golfed_python(folder: Path, header: str = HEADER) -> Path:
    """golf/python's answer as a bare file in `folder`, with `header` on its first line."""
    path = folder / "answer.py"
    path.write_bytes(header.encode() + (GOLF / "python" / "menace.py").read_bytes())
    return path


@pytest.fixture
def never_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the judge starts a program."""
    def start(*args: object) -> None:
        raise AssertionError("a program was started")
    monkeypatch.setattr(judge.running.launch, "start_program", start)


# -- the header and the command ---------------------------------------------------------


@pytest.mark.parametrize("text, words", [
    (HEADER, {"moves": "digits0", "beads": "0-8", "refill": "on-draw", "transport": "pipe"}),
    ("#!/usr/bin/env perl\n# menace-judge: moves=digits\n", {"moves": "digits"}),
    ("<?php /* menace-judge: beads=1-9 */ ?>\n", {"beads": "1-9"}),
    ("// menace-judge: seed_args='--seed {seed}' x=A\n", {"seed_args": "--seed {seed}", "x": "A"}),
    ("1\n2\n3\n4\n# menace-judge: moves=digits\n", {"moves": "digits"}),
    ("1\n2\n3\n4\n5\n# menace-judge: moves=digits\n", {}),
    ("print(1)\n", {}),
])
def test_the_header_is_found_in_the_first_five_lines(text: str, words: dict[str, str]) -> None:
    assert header_words(text) == words


@pytest.mark.parametrize("name, language, program", [
    ("a.py", "Python 3", "python3"), ("a.rb", "Ruby", "ruby"), ("a.pl", "Perl 5", "perl"),
    ("a.js", "JavaScript (Node.js)", "node"), ("a.php", "PHP", "php"), ("a.c", "C (gcc)", "sh"),
    ("a.lua", "Lua", "lua"),
])
def test_the_extension_gives_the_language_and_command(name: str, language: str,
                                                       program: str) -> None:
    found, command = command_for(Path("/somewhere") / name)
    assert found == language and command[0] == program and name in command[-1]


def test_a_c_file_is_compiled_as_the_c_answer_is_and_an_odd_name_stays_one_word() -> None:
    _, command = command_for(Path("my answer;rm.c"))
    assert command == ("sh", "-c", "gcc -w -o a.out 'my answer;rm.c' && exec ./a.out")
    assert command_for(Path("-x.py"))[1] == ("python3", "./-x.py")


def test_options_override_the_header(tmp_path: Path) -> None:
    path = golfed_python(tmp_path, "# menace-judge: moves=letters beads=1-9 x=A\n")
    manifest = bare_manifest(path, {"moves": "digits0", "seed_args": "--seed {seed}"})
    assert (manifest.moves, manifest.beads, manifest.x) == (
        MoveFormat.DIGITS0, BeadFormat.ONE_TO_NINE, "A")
    assert manifest.seed_args == ("--seed", "{seed}") and manifest.refill is RefillRule.ON_EMPTY
    assert manifest.source_bytes() == path.stat().st_size and manifest.files == (path,)
    assert manifest.name == "answer.py" and manifest.origin() == path


def test_the_header_declares_the_transport(tmp_path: Path) -> None:
    assert bare_manifest(golfed_python(tmp_path), {}).transport is Transport.PIPE


# -- judged end to end --------------------------------------------------------------------


@pytest.mark.e2e
def test_a_bare_file_is_judged_from_its_own_folder_by_a_relative_name(tmp_path: Path) -> None:
    path = golfed_python(tmp_path)
    done = judge_process("answer.py", "--games", "20", "--seed", "3", "--json", "r.json",
                         cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "accepted", done.stdout
    size = path.stat().st_size
    assert done.stdout.splitlines()[0].startswith(f"judging answer.py (Python 3, {size} bytes): ")
    assert "transport pipe (from the file's header)" in done.stdout.splitlines()[0]
    report = json.loads((tmp_path / "r.json").read_text())
    assert (report["submission"], report["bytes"], report["verdict"]) == (
        "answer.py", size, "accepted")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answer.py", "r.json"]


@pytest.mark.e2e
def test_without_its_header_the_same_file_is_rejected_and_options_can_declare_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = golfed_python(tmp_path, header="")
    assert main([str(path), "--games", "5", "--seed", "3"]) == 1  # moves sent as letters
    assert main([str(path), "--games", "20", "--seed", "3", "--moves", "digits0", "--beads",
                 "0-8", "--refill", "on-draw", "--transport", "pipe"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "accepted"


@pytest.mark.e2e
@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_a_bare_c_file_is_compiled_and_judged(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "menace.c"
    shutil.copy(GOLF / "c" / "menace.c", path)
    assert main([str(path), "--games", "20", "--seed", "3", "--moves", "digits0", "--beads",
                 "0-8", "--refill", "on-draw", "--transport", "pipe"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "accepted" and f"(C (gcc), {path.stat().st_size} bytes)" in out[0]


LUA_HEADER = "-- menace-judge: moves=digits0 beads=1-9 refill=on-draw x=1 o=8 empty=0 " \
             "transport=pipe\n"
"""The declarations of golf/lua, as a header."""


@pytest.mark.e2e
@pytest.mark.skipif(shutil.which("lua") is None, reason="lua is not installed")
def test_a_bare_lua_file_is_judged_by_its_extension_and_header(tmp_path: Path) -> None:
    path = tmp_path / "menace.lua"
    path.write_bytes(LUA_HEADER.encode() + (GOLF / "lua" / "menace.lua").read_bytes())
    done = judge_process("menace.lua", "--games", "20", "--seed", "3", cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[-1] == "accepted", done.stdout
    assert lines[0].startswith(f"judging menace.lua (Lua, {path.stat().st_size} bytes): ")


@pytest.mark.e2e
def test_a_bare_command_takes_its_bytes_from_source(tmp_path: Path) -> None:
    """`--source FILE` names the file a bare command's score is the size of: its bytes and
    its language on the first line and in the JSON."""
    answer = golfed_python(tmp_path, header="")
    done = judge_process("--games", "20", "--seed", "3", "--moves", "digits0", "--beads", "0-8",
                         "--refill", "on-draw", "--transport", "pipe", "--json", "r.json",
                         "--source", "answer.py", "--", "python3", "answer.py", cwd=tmp_path)
    size = answer.stat().st_size
    assert done.stdout.splitlines()[0].startswith(f"judging answer.py (Python 3, {size} bytes)")
    report = json.loads((tmp_path / "r.json").read_text())
    assert (report["bytes"], report["verdict"]) == (size, "accepted")


@pytest.mark.e2e
def test_a_folder_of_bare_files_is_a_leaderboard(tmp_path: Path) -> None:
    """Each file judged by its extension and header, the header's bytes counted; a folder
    with submission folders judges those, naming the bare files it leaves out."""
    board = tmp_path / "board"
    board.mkdir()
    declared = golfed_python(board)
    declared.rename(board / "declared.py")
    (board / "undeclared.py").write_bytes((GOLF / "python" / "menace.py").read_bytes())
    (board / "notes.txt").write_text("not a submission\n")
    done = judge_process("--games", "12", "--seed", "3", "board", cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and lines[-1] == "1 of 2 accepted", done.stdout
    row = next(line.split() for line in lines if line.startswith("declared.py"))
    assert row[1:6] == ["Python", "3", str((board / "declared.py").stat().st_size), "accepted",
                        "12"]
    assert any(line.startswith("undeclared.py") and "wrong-answer" in line for line in lines)
    (board / "sub").mkdir()
    (board / "sub" / "submission.toml").write_text(
        'command = ["python3", "declared.py"]\nmoves = "digits0"\nbeads = "0-8"\n'
        'refill = "on-draw"\n')
    shutil.copy(board / "declared.py", board / "sub")
    done = judge_process("--games", "12", "--seed", "3", "board", cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert "not judged, bare files beside submission folders: declared.py, undeclared.py" \
        in lines, done.stdout
    assert lines[-1] == "1 of 1 accepted"


@pytest.mark.e2e
def test_a_bare_files_replay_judges_the_file_again(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = golfed_python(tmp_path, header="# menace-judge: moves=digits0\n")  # beads misread
    replay = tmp_path / "replay.json"
    assert main([str(path), "--games", "30", "--seed", "3", "--save-replay", str(replay)]) == 1
    first = capsys.readouterr().out.splitlines()[-1]
    assert json.loads(replay.read_text())["submission"] == str(path)
    assert main(["--replay", str(replay), "--yes"]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines()[-1] == first and f"(on the file {path})" in err


# -- bad input ------------------------------------------------------------------------------


@pytest.mark.usefixtures("never_run")
@pytest.mark.parametrize("name, text, problem", [
    ("answer.txt", "print(1)\n", "cannot tell the language of"),
    ("answer.py", "# menace-judge: moves=semaphore\n",
     "the header of '{path}': moves must be one of letters, digits, digits0, not 'semaphore'"),
    ("answer.py", "# menace-judge: colour=blue\n",
     "'colour' is not a declaration: declare moves, beads"),
    ("answer.py", "# menace-judge: seed_args='--seed\n", "the header of '{path}': No closing"),
    ("answer.py", "# menace-judge: digits0\n", "'digits0' is not a key=value declaration"),
    ("answer.py", "# menace-judge: x=XX\n", "x must be a single character, not 'XX'"),
    ("answer.py", "# menace-judge: memory_mb=lots\n", "memory_mb must be a whole number"),
    ("answer.py", "# menace-judge: command=sh\n", "'command' is not a declaration"),
])
def test_a_bad_bare_file_is_one_line_and_status_2(
        name: str, text: str, problem: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name
    path.write_text(text)
    assert main([str(path)]) == 2
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert len(err) == 1 and problem.format(path=path) in err[0], err
    assert "Traceback" not in captured.out + captured.err
    assert path.read_text() == text and sorted(tmp_path.iterdir()) == [path]


@pytest.mark.usefixtures("never_run")
def test_an_unreadable_or_missing_file_is_named(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    unreadable = tmp_path / "answer.py"
    unreadable.symlink_to("/proc/self/mem")  # a file that even root cannot read from its start
    assert main([str(unreadable)]) == 2
    assert f"cannot read '{unreadable}': " in capsys.readouterr().err
    assert main([str(tmp_path / "gone.py")]) == 2
    assert f"no such file or folder: '{tmp_path / 'gone.py'}'" in capsys.readouterr().err


@pytest.mark.usefixtures("never_run")
@pytest.mark.parametrize("option, value, problem", [
    ("--x", "XY", "argument --x: 'XY' is not a single character"),
    ("--empty", "", "argument --empty: '' is not a single character"),
    ("--seed-args", "'--seed {seed}", "argument --seed-args: \"'--seed {seed}\": No closing"),
    ("--moves", "semaphore", "argument --moves:"),
])
def test_a_bad_declaration_option_is_one_line_and_status_2(
        option: str, value: str, problem: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = golfed_python(tmp_path)
    assert main([str(path), option, value]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and problem in err[0], err


@pytest.mark.usefixtures("never_run")
@pytest.mark.parametrize("arguments, problem", [
    (["--source", "gone.py", "--", "python3", "answer.py"], "--source 'gone.py': no such file"),
    (["--source", ".", "--", "python3", "answer.py"], "--source '.': not a regular file"),
    (["--source", "answer.py", "answer.py"],
     "--source names the scored file of a bare COMMAND (after --)"),
    (["--source", "other/answer.py", "--", "python3", "answer.py"],
     "the command names another file of that name"),
    (["--source"], "argument --source: expected one argument"),
])
def test_a_bad_source_is_one_line_and_status_2(arguments: list[str], problem: str,
                                               tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    golfed_python(tmp_path)
    (tmp_path / "other").mkdir()
    golfed_python(tmp_path / "other")
    monkeypatch.chdir(tmp_path)
    assert main(arguments) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and problem in err[0], err


@pytest.mark.usefixtures("never_run")
def test_a_folder_with_nothing_to_judge_says_what_it_looked_for(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("no answer here\n")
    assert main([str(tmp_path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "no submission.toml in" in err[0] and ".lua" in err[0], err


@pytest.mark.usefixtures("never_run")
def test_a_header_error_is_caught_before_the_options_are_applied(tmp_path: Path) -> None:
    path = golfed_python(tmp_path, "# menace-judge: moves=semaphore\n")
    with pytest.raises(ManifestError, match="the header of"):
        bare_manifest(path, {"moves": "digits0"})
