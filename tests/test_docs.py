"""The documents: every `.md` path that they or the code's docstrings and comments cite exists,
every link to a heading finds it, every file, module and function a document names in code is
there, and the README stays short."""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import io
import random
import re
import tokenize
import tomllib
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
    assert anchor in anchors(path), \
        f"{where.relative_to(ROOT)} links to a heading {target} not there"


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
    assert slug(" Reading output (`judge/reading/formats.py`)") == \
        "reading-output-judgereadingformatspy"


CODE_SPAN = re.compile(r"`([^`\n]+)`")
"""Code in a document's prose: a file, a module, a function, a command."""
FILE_NAME = re.compile(r"(?:[\w.-]+/)*[\w.-]+\.(?:py|md|toml|json|txt|png|js|rb|pl|c|sh)")
"""A code span that names a file of the project."""
NOT_OURS = frozenset({"submission.toml", "sitecustomize.py"})
"""Files the pages name that lie outside the project: a golfer's own, the system's Python's."""
PLACES = ("", "judge", "reference", "reference/study", "tests", "bench", "golf")
"""Where a file named without its folder is looked for (docs/layout.md names a package's
modules from the package's folder)."""
DOTTED = re.compile(r"(?:judge|reference)(?:\.\w+)+")
"""A module of the project, or a name in one, written with dots."""
CALL = re.compile(r"(?:\w+\.)*([A-Za-z_]\w*)\(")
"""A function called in a code span: its name."""


def spans(path: Path) -> list[str]:
    """The code spans of a document's prose, outside its code blocks."""
    found, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            found += CODE_SPAN.findall(line)
    return found


def named_files(path: Path) -> set[str]:
    """The project's files a document names in code spans (not placeholders such as
    `replay-NAME-SEED.json`, paths that leave the project, or a golfer's own files)."""
    return {span for span in map(str.strip, spans(path)) if FILE_NAME.fullmatch(span)
            and span not in NOT_OURS and not span.startswith("..")
            and not re.search(r"[A-Z]{3}", span)}


def found(name: str, where: Path) -> bool:
    """True when the file `name`, named in the document `where`, is in the project."""
    return (where.parent / name).exists() or any((ROOT / place / name).exists()
                                                 for place in PLACES)


def resolved(dotted: str) -> bool:
    """True when `judge.x.y.Name` (or `reference...`) imports and has each name after the module."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found_module: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            functools.reduce(getattr, parts[cut:], found_module)
        except AttributeError:
            return False
        return True
    return False


@functools.cache
def defined() -> frozenset[str]:
    """Every name the project's code defines (functions, classes, assigned names), with the
    builtins and the random module's."""
    names = set(dir(builtins)) | set(dir(random))
    for folder in CODE:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
                    names.add(node.name)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.add(node.id)
    return frozenset(names)


PAGES = sorted({ROOT / "README.md", ROOT / "SPEC.md", ROOT / "bench" / "README.md",
                *(ROOT / "docs").glob("*.md"), *(ROOT / "tests").rglob("README.md")})
"""The pages whose code spans name the project's files, modules and functions."""


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_file_module_and_function_a_page_names_exists(page: Path) -> None:
    missing = sorted(name for name in named_files(page) if not found(name, page))
    assert not missing, f"{page.relative_to(ROOT)} names files that are not there: {missing}"
    spans_here = spans(page)
    unresolved = sorted({dotted for span in spans_here if not FILE_NAME.search(span)
                         for dotted in DOTTED.findall(span) if not resolved(dotted)})
    assert not unresolved, f"{page.relative_to(ROOT)} names {unresolved}, which do not import"
    undefined = sorted({call for span in spans_here if (match := CALL.match(span.strip()))
                        for call in [match.group(1)] if call not in defined()})
    assert not undefined, f"{page.relative_to(ROOT)} calls {undefined}, defined nowhere"


def test_a_name_that_is_not_there_is_caught() -> None:
    assert found("terms/options.py", ROOT / "docs" / "layout.md")
    assert not found("tests/test_nothing.py", ROOT / "docs" / "testing.md")
    assert resolved("judge.deciding.checks.learning") and resolved("reference.board")
    assert not resolved("judge.deciding.checks.no_such_check")
    assert not resolved("judge.no_such_floor.module")
    assert "check_step" in defined() and "no_such_function" not in defined()
    assert named_files(ROOT / "docs" / "layout.md") >= {"terms/options.py", "cli.py"}


def test_the_mixed_opponents_weights_are_the_documented_ones() -> None:
    from judge.deciding.opponents import HUNTING_WEIGHTS, MIXED_WEIGHTS

    text = " ".join((ROOT / "docs" / "judge.md").read_text().split())
    for weights in (MIXED_WEIGHTS, HUNTING_WEIGHTS):
        shares = ", ".join(f"{kind} {weight * 10}%" for kind, weight in weights)
        assert shares in text, shares


def test_the_readmes_exit_statuses_are_the_judges() -> None:
    from reference.commandline import BAD_USAGE

    from judge.terms.verdicts import Verdict, exit_status

    text = " ".join((ROOT / "README.md").read_text().split())
    statuses = (f"{exit_status(Verdict.ACCEPTED)} accepted, "
                f"{exit_status(Verdict.WRONG_ANSWER)} rejected, {BAD_USAGE} bad usage "
                f"(nothing was run), {exit_status(Verdict.JUDGE_ERROR)} judge error")
    assert f"The exit status: {statuses}" in text
    assert {exit_status(verdict) for verdict in Verdict} == {0, 1, 3}


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


SUBMISSIONS = ROOT / "tests" / "submissions"
REJECTIONS = ROOT / "docs" / "rejections.md"
"""The page of common rejections: each case quoted from a test submission's report."""


def rejection_cases() -> list[tuple[str, list[str]]]:
    """The page's cases: each `###` section's text, its white space made single, and the test
    submissions (`verdict/name`) it names as its source."""
    cases = []
    for section in REJECTIONS.read_text(encoding="utf-8").split("\n### ")[1:]:
        named = [span for span in CODE_SPAN.findall(section)
                 if re.fullmatch(r"[\w-]+/[\w-]+", span)
                 and (SUBMISSIONS / span / "submission.toml").is_file()]
        cases.append((" ".join(section.split()), named))
    return cases


def expected(fixture: str) -> dict[str, str]:
    """What a test submission's report must say (its manifest's `[expected]` table)."""
    manifest = tomllib.loads((SUBMISSIONS / fixture / "submission.toml").read_text())
    return manifest.get("expected", {})


def test_each_common_rejection_quotes_the_words_its_submission_is_held_to() -> None:
    """Each case names the test submissions it quotes, and quotes the fact and the hint their
    tests assert (tests/test_submissions.py), so the page says what the judge says; together
    the cases show every verdict and every check a test submission is rejected with."""
    cases = rejection_cases()
    assert len(cases) >= 15
    shown = set()
    for text, fixtures in cases:
        assert fixtures, f"a case names no test submission: {text[:60]}"
        for fixture in fixtures:
            words = expected(fixture)
            for key in ("fact", "hint"):
                assert " ".join(words.get(key, "").split()) in text, (fixture, key)
            shown |= {fixture.split("/")[0], words.get("check")}
    rejected = {manifest.parent.parent.name for manifest in SUBMISSIONS.glob("*/*/submission.toml")}
    checks = {expected(f"{m.parent.parent.name}/{m.parent.name}").get("check")
              for m in SUBMISSIONS.glob("*/*/submission.toml")}
    assert rejected - {"accepted", "hostile"} <= shown, rejected - shown
    assert checks - {None} <= shown, checks - shown
