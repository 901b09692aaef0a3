"""Single-byte code pages: how a golfing language's source is scored, one byte a character.

Code Golf answers in golfing languages are scored in the language's own code page: 256
characters, each stored as one byte, whatever its size in UTF-8 (Vyxal's `λ` is one byte, not
two). A submission that declares a code page (`code_page = "vyxal"`, SPEC section 10) keeps its
source as UTF-8 text and scores one byte for each of its characters; every character must be in
the code page. Each code page is data, `code_pages/NAME.json`: its title and its table, the 256
characters in byte order. Adding a language's code page is adding its file.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from judge.terms.text import printable

FOLDER: Final = Path(__file__).resolve().parent / "code_pages"
"""Where the code pages are kept, one JSON file each."""
SIZE: Final = 256
"""The characters of a single-byte code page."""


class CodePageError(ValueError):
    """An unknown code page, or a source that cannot be scored in its code page."""


@dataclass(frozen=True)
class CodePage:
    """A single-byte code page: its name as declared, its title as reports show it, and its 256
    characters, each at its byte's place."""

    name: str
    title: str
    table: str

    def __contains__(self, character: object) -> bool:
        return isinstance(character, str) and len(character) == 1 and character in self.table


@dataclass(frozen=True)
class Outside:
    """The first character of a text that its code page lacks, and where it stands."""

    character: str
    line: int
    """The line of the character, from 1."""
    column: int
    """Its place on the line, in characters from 1."""

    def __str__(self) -> str:
        code = f"U+{ord(self.character):04X}"
        shown = printable(repr(self.character))
        return f"{shown} ({code}) at line {self.line}, column {self.column}"


def known() -> tuple[str, ...]:
    """The names of the code pages the judge knows, in order."""
    return tuple(sorted(path.stem for path in FOLDER.glob("*.json")))


@functools.cache
def code_page(name: str) -> CodePage:
    """The code page called `name` (`vyxal`), read from its data and checked."""
    if name not in known():
        raise CodePageError(f"unknown code page {name!r}: the judge knows "
                            f"{', '.join(repr(n) for n in known())}")
    data = json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8"))
    table, title = data["table"], data["title"]
    if len(table) != SIZE or len(set(table)) != SIZE:
        raise CodePageError(f"the code page {name!r} is not {SIZE} distinct characters")
    return CodePage(name, title, table)


def outside(text: str, page: CodePage) -> Outside | None:
    """The first character of `text` that is not in `page`, or None when all are."""
    line, start = 1, 0
    for index, character in enumerate(text):
        if character not in page:
            return Outside(character, line, index - start + 1)
        if character == "\n":
            line, start = line + 1, index + 1
    return None


def scored(data: bytes, page: CodePage, what: str) -> int:
    """The bytes of a source in `page`: one for each of its characters; `what` names the source
    in a message when it is not UTF-8 text or holds a character outside the code page."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CodePageError(
            f"{what} is not UTF-8 text (byte 0x{data[error.start]:02x} at offset "
            f"{error.start}): a source scored in the {page.title} code page is kept as UTF-8 "
            "and counted one byte a character") from None
    stray = outside(text, page)
    if stray is not None:
        raise CodePageError(f"{what} holds {stray}, which is not in the {page.title} code page")
    return len(text)
