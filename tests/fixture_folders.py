"""Test submissions made runnable: each fixture's manifest beside the program it runs.

A fixture folder, tests/submissions/<expected verdict>/<name>/, holds its manifest, and a source
only where it is a program of its own (`accepted/node`, `accepted/perl`). The others run a
program kept once for all: the faulty program `tests/submissions/menace.py` (manifest
`source = "menace.py"`), the project's `reference/` package (`source = "reference/..."`) or a
golfed answer (`source = "golf/LANGUAGE/..."`).
`assemble` copies a fixture folder and that program into a fresh folder, which the judge is
given; nothing in it is a link or leads outside it. By hand:

    python3 tests/fixture_folders.py wrong-answer/303-boxes [PARENT]

assembles one fixture in a folder of its name under PARENT (by default a new temporary folder)
and prints that folder's path.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "submissions"
PROGRAM = SUBMISSIONS / "menace.py"
"""The faulty program: the canonical MENACE, with `--fault NAME` for each fault."""
SHARED = {"menace.py": PROGRAM, "reference": ROOT / "reference", "golf": ROOT / "golf"}
"""What a fixture's manifest may name as its source without holding it, by the first part of
the source's path."""


def assemble(fixture: Path, into: Path) -> Path:
    """A runnable copy of a fixture folder made at `into`: its files and the program it names."""
    shutil.copytree(fixture, into)
    source = Path(tomllib.loads((fixture / "submission.toml").read_text())["source"])
    if not (into / source).exists():
        shared = SHARED.get(source.parts[0])
        if shared is None:
            raise FileNotFoundError(f"{fixture.name}: its source {str(source)!r} is neither in "
                                    f"its folder nor one of the shared programs {sorted(SHARED)}")
        if shared.is_dir():
            shutil.copytree(shared, into / source.parts[0],
                            ignore=shutil.ignore_patterns("__pycache__", "*.md"))
        else:
            shutil.copy2(shared, into / source.parts[0])
    return into


def assembled(name: str, parent: Path) -> Path:
    """The fixture `verdict/name` assembled in a folder of its name under `parent`."""
    return assemble(SUBMISSIONS / name, parent / Path(name).name)


def main(argv: list[str]) -> int:
    """Assemble the fixture named on the command line and print where; the exit status."""
    if len(argv) not in (1, 2) or not (SUBMISSIONS / argv[0] / "submission.toml").is_file():
        print("usage: python3 tests/fixture_folders.py VERDICT/NAME [PARENT]  (a fixture under "
              "tests/submissions/)", file=sys.stderr)
        return 2
    parent = Path(argv[1]) if len(argv) == 2 else Path(tempfile.mkdtemp(prefix="menace-fixture-"))
    print(assembled(argv[0], parent))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
