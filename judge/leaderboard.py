"""The golf leaderboard: judge every submission of a folder and tabulate bytes and verdicts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from judge.manifest import Manifest, ManifestError, is_submission, read_manifest
from judge.launch import Settings
from judge.referee import judge
from judge.outputs import write_atomically
from judge.session import SpawnError
from judge.text import markdown_cell
from judge.verdict import Verdict


@dataclass(frozen=True)
class Row:
    """One submission's line in the leaderboard."""

    name: str
    language: str
    bytes: int | None
    verdict: str
    games: int
    seconds: float


def judge_collection(folder: Path, settings_for: Callable[[Manifest], Settings]) -> list[Row]:
    """Judge each submission under `folder`; rows sorted by verdict, then bytes."""
    rows = []
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and is_submission(p)):
        try:
            manifest = read_manifest(sub)
        except ManifestError as error:
            rows.append(Row(sub.name, "?", None, f"bad manifest: {error}", 0, 0.0))
            continue
        try:
            run = judge(manifest, settings_for(manifest))
        except SpawnError as error:
            rows.append(Row(sub.name, manifest.language, manifest.source_bytes(),
                            f"not run: {error}", 0, 0.0))
            continue
        rows.append(Row(sub.name, manifest.language, manifest.source_bytes(),
                        run.decision.line(), run.games_played, run.seconds))
    accepted = Verdict.ACCEPTED.value
    return sorted(rows, key=lambda r: (r.verdict != accepted, r.bytes or 1 << 40, r.name))


HEADER = ("submission", "language", "bytes", "verdict", "games", "time")


def _cells(row: Row) -> tuple[str, ...]:
    """A row's cells as text."""
    return (row.name, row.language, "?" if row.bytes is None else str(row.bytes), row.verdict,
            str(row.games), f"{row.seconds:.1f} s")


def table_lines(rows: list[Row]) -> list[str]:
    """The leaderboard as a plain-text table."""
    cells = [HEADER, *(_cells(row) for row in rows)]
    widths = [max(len(line[i]) for line in cells) for i in range(len(HEADER))]
    return ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in cells]


def markdown_lines(rows: list[Row]) -> list[str]:
    """The leaderboard as a Markdown table."""
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    for row in rows:
        lines.append("| " + " | ".join(markdown_cell(c) for c in _cells(row)) + " |")
    return lines


def write_markdown(rows: list[Row], path: Path) -> None:
    """Save the leaderboard as Markdown."""
    write_atomically(path, "\n".join(markdown_lines(rows)) + "\n")
