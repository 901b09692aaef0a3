"""The documents: every `.md` path that they or the code's docstrings and comments cite exists,
every link to a heading finds it, and the README stays short."""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README_LINES = 200
"""The README's length at most: what a golfer reads before judging an answer, and a little more."""
WRITTEN_ELSEWHERE = frozenset({"docs/statistics.md"})
"""Pages that are cited here but written by a change of their own: skipped until they exist."""

MD_PATH = re.compile(r"[\w./-]*\w\.md\b")
"""A path to a Markdown file, as a document or a docstring writes it."""
OUTPUT_FILE = re.compile(r"--markdown\s+[\w./-]+\.md")
"""A file the judge is told to write (`--markdown FILE.md`): named, not cited."""
URL = re.compile(r"https?://\S+")
LINK = re.compile(r"\]\(([^)\s]+)\)")
"""The target of a Markdown link."""


def skipped(path: Path) -> bool:
    """True for a file in a hidden folder or a cache, which no one reads."""
    return any(part.startswith((".", "__pycache__")) for part in path.relative_to(ROOT).parts)


def documents() -> list[Path]:
    """Every Markdown file of the project."""
    return sorted(p for p in ROOT.rglob("*.md") if not skipped(p))


CODE = ("reference", "judge", "tests", "bench")
"""The folders of the project's code; the golfed answers are scored bytes, not prose."""


def sources() -> list[Path]:
    """Every Python file of the project's code, and the golf folder's tools (the packer)."""
    found = [p for folder in CODE for p in (ROOT / folder).rglob("*.py")]
    return sorted(p for p in [*found, *(ROOT / "golf").glob("*.py")] if not skipped(p))


def prose(path: Path) -> str:
    """What a reader reads in a Python file: its comments and its docstrings."""
    text = path.read_text(encoding="utf-8")
    if ".md" not in text:
        return ""  # nothing to cite: no need to read it as Python
    comments = [token.string for token in tokenize.generate_tokens(io.StringIO(text).readline)
                if token.type == tokenize.COMMENT]
    docstrings = [node.value.value for node in ast.walk(ast.parse(text))
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                  and isinstance(node.value.value, str)]
    return "\n".join(comments + docstrings)


def cited(text: str) -> set[str]:
    """The `.md` paths that `text` cites."""
    return set(MD_PATH.findall(OUTPUT_FILE.sub("", URL.sub("", text))))


def resolves(path: str, where: Path) -> bool:
    """True when `path`, cited in the file `where`, names a file, from there or from the root."""
    return (where.parent / path).is_file() or (ROOT / path).is_file()


def pending(path: str, where: Path) -> bool:
    """True when `path` is a page written elsewhere that is not here yet."""
    target = (where.parent / path).resolve()
    names = {(ROOT / name).resolve() for name in WRITTEN_ELSEWHERE}
    return (target in names or (ROOT / path).resolve() in names) and not resolves(path, where)


@functools.cache
def citations() -> list[tuple[Path, str]]:
    """Every (file, cited `.md` path) pair of the documents and of the code (read once)."""
    pairs = [(doc, path) for doc in documents() for path in cited(doc.read_text(encoding="utf-8"))]
    pairs += [(source, path) for source in sources() for path in cited(prose(source))]
    return sorted(set(pairs))


def slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading (GitHub's rule)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of the headings of the Markdown file at `path`, outside code blocks."""
    found: set[str] = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found


@functools.cache
def heading_links() -> list[tuple[Path, str]]:
    """Every (document, link target with a `#heading`) pair within the project (read once)."""
    return sorted({(doc, target) for doc in documents()
                   for target in LINK.findall(doc.read_text(encoding="utf-8"))
                   if "#" in target and not URL.match(target)})


def name(pair: tuple[Path, str]) -> str:
    """A test id: the citing file, relative to the root, and what it cites."""
    return f"{pair[0].relative_to(ROOT)}:{pair[1]}"


@pytest.mark.parametrize("where, path", citations(), ids=map(name, citations()))
def test_every_cited_md_path_exists(where: Path, path: str) -> None:
    if pending(path, where):
        pytest.skip(f"{path} is written by a change of its own")
    assert resolves(path, where), f"{where.relative_to(ROOT)} cites {path}, which does not exist"


@pytest.mark.parametrize("where, target", heading_links(), ids=map(name, heading_links()))
def test_every_link_to_a_heading_finds_it(where: Path, target: str) -> None:
    page, anchor = target.split("#", 1)
    if page and pending(page, where):
        pytest.skip(f"{page} is written by a change of its own")
    path = (where.parent / page) if page else where
    assert anchor in anchors(path), f"{where.relative_to(ROOT)} links to a heading {target} not there"


def test_the_citations_are_found_in_documents_docstrings_and_comments() -> None:
    pairs = {(where.relative_to(ROOT).as_posix(), path) for where, path in citations()}
    assert ("README.md", "SPEC.md") in pairs
    assert ("judge/deciding/decision.py", "docs/judge.md") in pairs
    assert ("tests/test_hostile.py", "tests/submissions/README.md") in pairs
    assert not any(path.endswith("board.md") for _, path in pairs), "a file a test writes"


def test_a_missing_page_is_caught() -> None:
    assert not resolves("judge/README.md", ROOT / "judge" / "verdict.py")
    assert resolves("../SPEC.md", ROOT / "docs" / "judge.md")
    assert cited("see judge/README.md, or `--markdown golf/LEADERBOARD.md`") == {"judge/README.md"}


def test_a_heading_anchor_is_made_as_a_renderer_makes_it() -> None:
    assert slug(" The sandbox's cost") == "the-sandboxs-cost"
    assert slug(" Reading output (`judge/reading/formats.py`)") == "reading-output-judgereadingformatspy"


def test_the_readme_is_at_most_200_lines() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_LINES, f"README.md has {len(lines)} lines"


def test_ci_runs_exactly_the_readmes_test_command() -> None:
    """The README's second command is the command .ci/run runs, so the README stays true."""
    commands = [line.strip() for line in (ROOT / "README.md").read_text().splitlines()[:6]
                if line.startswith("    python3 ")]
    assert len(commands) >= 2 and "pytest" in commands[1] and "--e2e" in commands[1]
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands[1] in (line.strip() for line in ci)
