"""Sources scored in a single-byte code page (SPEC sections 9 and 10): the tables as data, the
count, and every way a declaration or a source can be wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixture_folders import SUBMISSIONS, assembled

import judge.running.launch
from judge.cli import main
from judge.leaderboard import Row, bytes_cell, json_text, markdown_lines
from judge.terms.code_pages import (
    SIZE,
    CodePageError,
    Outside,
    code_page,
    known,
    outside,
    scored,
)
from judge.terms.manifest import ManifestError, parse_manifest

VYXAL = code_page("vyxal")


@pytest.fixture
def never_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the judge starts a program."""
    def start(*args: object) -> None:
        raise AssertionError("a program was started")
    monkeypatch.setattr(judge.running.launch, "start_program", start)


def scored_folder(tmp_path: Path, source: bytes, page: str = "vyxal") -> Path:
    """A submission folder whose source is `source`, declared to be scored in `page`."""
    folder = tmp_path / "answer"
    folder.mkdir()
    (folder / "menace.vy").write_bytes(source)
    (folder / "submission.toml").write_text(
        f'command = ["python3", "-m", "vyxal", "menace.vy"]\nsource = "menace.vy"\n'
        f'code_page = "{page}"\n')
    return folder


def test_every_code_page_is_256_distinct_characters_with_a_title() -> None:
    assert "vyxal" in known()
    for name in known():
        page = code_page(name)
        assert len(page.table) == SIZE == len(set(page.table)) and page.title and page.name == name


def test_the_vyxal_code_page_is_the_interpreters_own() -> None:
    encoding = pytest.importorskip("vyxal.encoding")
    assert VYXAL.table == encoding.codepage
    assert VYXAL.title == "Vyxal" and VYXAL.table.index("λ") == 0 and VYXAL.table[10] == "\n"


def test_a_source_scores_one_byte_a_character() -> None:
    text = "λƛ\n`new game`,\n"
    assert len(text.encode("utf-8")) == 17
    assert scored(text.encode("utf-8"), VYXAL, "menace.vy") == 15


def test_the_first_character_outside_is_named_with_its_line_and_column() -> None:
    assert outside("λƛ\nab\tc", VYXAL) == Outside("\t", 2, 3)
    assert outside("é", VYXAL) == Outside("é", 1, 1)
    assert outside("λƛ\n\n", VYXAL) is None
    with pytest.raises(CodePageError, match=r"menace.vy holds '\\t' \(U\+0009\) at line 2, "
                                            r"column 3, which is not in the Vyxal code page"):
        scored("λƛ\nab\tc".encode(), VYXAL, "menace.vy")


def test_a_source_that_is_not_utf8_is_refused_with_its_offset() -> None:
    with pytest.raises(CodePageError, match=r"is not UTF-8 text \(byte 0xff at offset 2\)"):
        scored(b"ab\xff", VYXAL, "menace.vy")


def test_an_unknown_code_page_names_those_known() -> None:
    with pytest.raises(CodePageError, match="unknown code page 'jelly': the judge knows 'vyxal'"):
        code_page("jelly")
    with pytest.raises(ManifestError, match="code_page: unknown code page 'jelly'"):
        parse_manifest('command = ["x"]\ncode_page = "jelly"\n')
    with pytest.raises(ManifestError, match="code_page must be a string"):
        parse_manifest('command = ["x"]\ncode_page = 1\n')


def test_a_declared_code_page_counts_characters_and_says_so(tmp_path: Path) -> None:
    folder = scored_folder(tmp_path, "λƛ\n".encode())
    manifest = parse_manifest((folder / "submission.toml").read_text(), folder)
    assert (folder / "menace.vy").stat().st_size == 5
    assert manifest.source_bytes() == 3 and manifest.code_page == "vyxal"
    assert manifest.bytes_text() == "3 bytes in the Vyxal code page"
    plain = parse_manifest('command = ["x"]\nsource = "menace.vy"\n', folder)
    assert plain.source_bytes() == 5 and plain.bytes_text() == "5 bytes" and plain.page() is None
    misspelt = parse_manifest('command = ["x"]\nsource = "menace.vyx"\n', folder)
    assert misspelt.source_bytes() is None
    assert misspelt.bytes_text() == "no byte count: its source menace.vyx is not there"
    assert parse_manifest('command = ["x"]\n', folder).bytes_text() == ""


@pytest.mark.usefixtures("never_run")
@pytest.mark.parametrize("source, page, problem", [
    ("λƛ\n".encode(), "jelly", "code_page: unknown code page 'jelly': the judge knows 'vyxal'"),
    ("λƛ\nab\tc".encode(), "vyxal",
     "holds '\\t' (U+0009) at line 2, column 3, which is not in the Vyxal code page"),
    (b"ab\xff", "vyxal", "is not UTF-8 text (byte 0xff at offset 2)"),
])
def test_a_bad_code_page_or_source_is_bad_usage_before_anything_runs(
        source: bytes, page: str, problem: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = scored_folder(tmp_path, source, page)
    assert main([str(folder)]) == 2
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert captured.out == "" and len(err) == 1 and problem in err[0], err
    assert (folder / "menace.vy").read_bytes() == source


@pytest.mark.usefixtures("never_run")
@pytest.mark.parametrize("header, problem", [
    ("code_page=jelly", "unknown code page 'jelly'"),
    ("code-page=vyxal", "holds '\\t' (U+0009) at line 2, column 1"),
])
def test_a_bare_files_header_declares_the_code_page_and_is_checked(
        header: str, problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answer.py"
    path.write_text(f"# menace-judge: {header}\n\tprint()\n")
    assert main([str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and problem in err[0], err


@pytest.mark.e2e
def test_the_report_and_its_json_give_the_bytes_in_the_code_page(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = assembled("accepted/canonical", tmp_path)
    toml = folder / "submission.toml"
    toml.write_text(toml.read_text() + 'code_page = "vyxal"\n')
    size = len((folder / "menace.py").read_text(encoding="utf-8"))
    report = tmp_path / "report.json"
    assert main([str(folder), "--games", "1", "--seed", "1", "--json", str(report)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert f"(Python 3, {size} bytes in the Vyxal code page)" in first
    found = json.loads(report.read_text())
    assert found["bytes"] == size and found["code_page"] == "vyxal"


def test_the_leaderboard_says_which_code_page_its_bytes_are_in() -> None:
    rows = [Row("vyxal", "Vyxal", 412, "accepted", 200, 9.0, code_page="vyxal"),
            Row("php", "PHP", 594, "accepted", 200, 0.9)]
    assert bytes_cell(rows[0]) == "412 (Vyxal code page)" and bytes_cell(rows[1]) == "594"
    assert "| vyxal | Vyxal | 412 (Vyxal code page) | accepted |" in markdown_lines(rows)[2]
    found = json.loads(json_text(rows, 2026))["rows"]
    assert [row["code_page"] for row in found] == ["vyxal", ""]


def test_the_fixtures_declare_no_code_page() -> None:
    """Every fixture is scored as stored: the code page is the golfer's choice, never a default."""
    for manifest in SUBMISSIONS.rglob("submission.toml"):
        assert "code_page" not in manifest.read_text(), manifest
