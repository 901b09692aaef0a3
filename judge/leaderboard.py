"""The golf leaderboard: judge every submission of a folder and tabulate bytes and verdicts."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Final, TextIO

from judge.bare import LANGUAGES, bare_manifest
from judge.deciding.decision import Decision
from judge.deciding.judging import judge
from judge.running.probes import RuntimeHidden
from judge.running.session import SpawnError
from judge.running.workspace import CopyError
from judge.telling.outputs import write_output
from judge.terms.code_pages import code_page
from judge.terms.manifest import Manifest, ManifestError, is_submission, read_manifest
from judge.terms.settings import Settings
from judge.terms.text import markdown_cell, printable
from judge.terms.verdicts import Verdict

REASON_WIDTH: Final = 60
"""The most characters of a reason shown in the table; the JSON rows keep it whole."""


@dataclass(frozen=True)
class Row:
    """One submission's line in the leaderboard."""

    name: str
    language: str
    bytes: int | None
    verdict: str
    """The verdict and its check, as a report's last line: `wrong-answer learning`."""
    games: int
    seconds: float
    reason: str = ""
    """Why it was not accepted, where, and what was expected and got; empty when accepted."""
    code_page: str = ""
    """The code page its bytes are counted in; empty: the source's size as stored."""


def reason_of(decision: Decision) -> str:
    """Why a run was not accepted, in one line: where, and what was expected and what came
    (the verdict's column names the check), or why it stopped."""
    if decision.verdict is Verdict.ACCEPTED:
        return ""
    place = str(decision.place)
    if decision.expected or decision.got:
        return f"{place}: expected {decision.expected}, got {decision.got}"
    if place in decision.reason or not decision.place.game:
        return decision.reason
    return f"{place}: {decision.reason}"


@dataclass(frozen=True)
class Entries:
    """What a leaderboard folder holds to judge: its submission folders, or else its bare
    source files; and the bare files left out beside submission folders."""

    judged: tuple[Path, ...]
    left_out: tuple[Path, ...] = ()


def entries(folder: Path) -> Entries:
    """The submissions of a leaderboard folder: its subfolders that hold a submission.toml;
    where there are none, its bare source files (judge/bare.py), each judged by its extension
    and header. Bare files beside submission folders are left out (a packer, a test), and
    named as such."""
    listed = sorted(folder.iterdir())
    folders = tuple(p for p in listed if p.is_dir() and is_submission(p))
    files = tuple(p for p in listed if p.is_file() and p.suffix.lower() in LANGUAGES)
    return Entries(folders, files) if folders else Entries(files)


def is_leaderboard(folder: Path) -> bool:
    """True when `folder` is no submission itself but holds some to judge."""
    return folder.is_dir() and not is_submission(folder) and bool(entries(folder).judged)


def judge_collection(folder: Path, settings_for: Callable[[Manifest], Settings],
                     jobs: int = 1, given: Mapping[str, str] | None = None) -> list[Row]:
    """Judge each submission under `folder`, `jobs` at a time; rows sorted by verdict, then bytes.

    Each submission is judged by its own run, with its own limits, working folder and clock,
    whichever other runs go on beside it; the order of the rows never depends on which ends first.
    A bare file takes the declarations `given` (the command line's) over its header's.
    """
    subs = list(entries(folder).judged)
    given = given or {}
    if jobs <= 1 or len(subs) <= 1:
        rows = [judge_row(sub, settings_for, given) for sub in subs]
    else:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(judge_row, sub, settings_for, given) for sub in subs]
            try:
                rows = [future.result() for future in futures]
            except BaseException:  # interrupted: no more runs start; those begun end by limits
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    accepted = Verdict.ACCEPTED.value
    return sorted(rows, key=lambda r: (r.verdict != accepted, r.bytes or 1 << 40, r.name))


def judge_row(sub: Path, settings_for: Callable[[Manifest], Settings],
              given: Mapping[str, str] | None = None) -> Row:
    """Judge one submission folder, or bare source file; its row."""
    try:
        manifest = read_manifest(sub) if sub.is_dir() else bare_manifest(sub, given or {})
    except ManifestError as error:
        return Row(sub.name, "?", None, "bad-manifest" if sub.is_dir() else "bad-header", 0,
                   0.0, str(error))
    try:
        run = judge(manifest, settings_for(manifest), offer_declarations=False)
    except (SpawnError, CopyError) as error:
        return Row(sub.name, manifest.language, manifest.source_bytes(), "not-run", 0, 0.0,
                   str(error), manifest.code_page)
    except RuntimeHidden as error:
        return Row(sub.name, manifest.language, manifest.source_bytes(),
                   Verdict.JUDGE_ERROR.value, 0, 0.0, str(error), manifest.code_page)
    return Row(sub.name, manifest.language, manifest.source_bytes(), run.decision.line(),
               run.games_played, run.seconds, reason_of(run.decision), manifest.code_page)


HEADER = ("submission", "language", "bytes", "verdict", "games", "time", "reason")


def bytes_cell(row: Row) -> str:
    """A row's bytes as its cell shows them, with the code page they are counted in."""
    if row.bytes is None:
        return "?"
    return str(row.bytes) + (f" ({code_page(row.code_page).title} code page)"
                             if row.code_page else "")


def _cells(row: Row) -> tuple[str, ...]:
    """A row's cells as text, its reason cut to REASON_WIDTH."""
    return (row.name, row.language, bytes_cell(row), row.verdict,
            str(row.games), f"{row.seconds:.1f} s", printable(row.reason, REASON_WIDTH))


def _table(rows: list[Row]) -> list[tuple[str, ...]]:
    """The header and each row's cells; the reason column only when some row has a reason."""
    cells = [HEADER, *(_cells(row) for row in rows)]
    if not any(row.reason for row in rows):
        cells = [line[:-1] for line in cells]
    return cells


def table_lines(rows: list[Row]) -> list[str]:
    """The leaderboard as a plain-text table."""
    cells = _table(rows)
    widths = [max(len(line[i]) for line in cells) for i in range(len(cells[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip()
            for line in cells]


def markdown_lines(rows: list[Row]) -> list[str]:
    """The leaderboard as a Markdown table."""
    header, *body = _table(rows)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for cells in body:
        lines.append("| " + " | ".join(markdown_cell(c) for c in cells) + " |")
    return lines


def write_markdown(rows: list[Row], path: Path, stdout: TextIO) -> None:
    """Save the leaderboard as Markdown (`-`: to `stdout`)."""
    write_output(path, "\n".join(markdown_lines(rows)) + "\n", stdout)


def json_text(rows: list[Row], seed: int) -> str:
    """The leaderboard as JSON: the seed, and each row whole, its reason exact."""
    accepted = sum(row.verdict == Verdict.ACCEPTED.value for row in rows)
    return json.dumps({"seed": seed, "accepted": accepted, "submissions": len(rows),
                       "rows": [asdict(row) for row in rows]}, indent=2) + "\n"


def write_json(rows: list[Row], seed: int, path: Path, stdout: TextIO) -> None:
    """Save the leaderboard as JSON (`-`: to `stdout`)."""
    write_output(path, json_text(rows, seed), stdout)
