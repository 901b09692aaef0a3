"""A bare source file, judged without a manifest: its language and command from its extension,
its declarations from a header line in the file, overridden by the command line's.

    # menace-judge: moves=digits0 beads=0-8 refill=on-draw transport=pipe

The header is the first line among the file's first five that holds `menace-judge:`; after
it come `key=value` declarations with a manifest's keys (SPEC section 8, `judge.terms.manifest`),
split into words as a shell splits them, so `seed_args="--seed {seed}"` is one declaration. A
word of punctuation only, such as the `*/` that closes a C comment, is ignored. The file is
copied by its name into the run's working folder, where the command runs it.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Final

from judge.terms.manifest import (
    HEADER_LINES,
    DeclaredIn,
    Manifest,
    ManifestError,
    declarations_table,
    manifest_from,
)

HEADER_MARK: Final = "menace-judge:"
HEADER_BYTES: Final = 1 << 16
"""The most bytes of the file read to find the header."""

LANGUAGES: Final = {
    ".py": ("Python 3", ("python3", "{file}")),
    ".rb": ("Ruby", ("ruby", "{file}")),
    ".pl": ("Perl 5", ("perl", "{file}")),
    ".js": ("JavaScript (Node.js)", ("node", "{file}")),
    ".php": ("PHP", ("php", "{file}")),
    ".lua": ("Lua", ("lua", "{file}")),
    ".c": ("C (gcc)", ("sh", "-c", "gcc -w -o a.out {quoted} && exec ./a.out")),
}
"""Each extension's language and command; `{file}` is the file's name, `{quoted}` the same
quoted for the shell (the C answer's manifest compiles it the same way)."""


def header_words(text: str) -> dict[str, str]:
    """The declarations of the header in the first lines of `text`, as words; {} without one."""
    for line in text.splitlines()[:HEADER_LINES]:
        if HEADER_MARK in line:
            return _declarations(line.split(HEADER_MARK, 1)[1])
    return {}


def _declarations(text: str) -> dict[str, str]:
    """`key=value` words, split as a shell splits them; punctuation-only words are ignored."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise ManifestError(f"{error}") from None
    found: dict[str, str] = {}
    for word in words:
        if not any(c.isalnum() for c in word):
            continue  # the end of a comment: */, -->, ?>
        key, equals, value = word.partition("=")
        if not equals or not key:
            raise ManifestError(f"{word!r} is not a key=value declaration")
        found[key] = value
    return found


def command_for(path: Path) -> tuple[str, tuple[str, ...]]:
    """The language of a source file and the command that runs it, from its extension."""
    known = LANGUAGES.get(path.suffix.lower())
    if known is None:
        raise ManifestError(
            f"cannot tell the language of {str(path)!r} from its extension: a bare file must "
            f"end in {', '.join(LANGUAGES)}; judge another with -- COMMAND, or a submission "
            "folder with submission.toml")
    name = path.name if not path.name.startswith("-") else "./" + path.name
    language, template = known
    return language, tuple(word.format(file=name, quoted=shlex.quote(name)) for word in template)


def read_header(path: Path) -> dict[str, str]:
    """The declarations in the header of the file at `path`, as words."""
    try:
        with path.open("rb") as stream:
            head = stream.read(HEADER_BYTES)
    except OSError as error:
        raise ManifestError(f"cannot read {str(path)!r}: {error.strerror}") from None
    try:
        return header_words(head.decode("utf-8", "replace"))
    except ManifestError as error:
        raise ManifestError(f"the header of {str(path)!r}: {error}") from None


def bare_manifest(path: Path, given: Mapping[str, str]) -> Manifest:
    """The manifest of a bare source file: `given` declarations (the command line's) override
    those of its header."""
    language, command = command_for(path)
    header = read_header(path)
    table = {"command": list(command), "language": language, "source": path.name}
    try:
        table.update(declarations_table(header))
        manifest_from(table)
    except ManifestError as error:
        raise ManifestError(f"the header of {str(path)!r}: {error}") from None
    table.update(declarations_table(given))
    manifest = replace(manifest_from(table, files=(path.absolute(),)),
                       declared_in=DeclaredIn.HEADER)
    manifest.check_source()
    return manifest
