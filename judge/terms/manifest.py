"""The submission manifest, `submission.toml`: command, language, source and SPEC 8 declarations."""

from __future__ import annotations

import shlex
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Final

from judge.terms import options
from judge.terms.code_pages import CodePage, CodePageError, code_page, scored
from judge.terms.options import (
    BeadFormat,
    Choice,
    MoveFormat,
    OptionError,
    RefillRule,
    Transport,
    parse,
)

MANIFEST_NAME: Final = "submission.toml"
HEADER_LINES: Final = 5
"""A bare file's `menace-judge:` header is looked for in this many first lines."""
HEADER_WORDS: Final = "five"
DECLARATIONS: Final = ("moves", "beads", "refill", "seed_args", "x", "o", "empty", "transport",
                       "memory_mb", "code_page")
"""The manifest's keys that a bare command or file declares in words (`key=value`)."""


class ManifestError(ValueError):
    """A manifest that is missing, unreadable, or has a bad value."""


class DeclaredIn(Enum):
    """Where a submission declares its freedoms (SPEC section 10), so where a hint says to."""

    MANIFEST = "submission.toml"
    """A folder: `key = "value"` in its manifest."""
    HEADER = "header"
    """A bare source file: the judge's options, or its `menace-judge:` header."""
    OPTIONS = "options"
    """A bare command: the judge's options."""


def spelled(declarations: Sequence[tuple[str, str]], where: DeclaredIn) -> str:
    """Declarations as they are written where the submission declares: `--refill on-draw`, or
    `refill = "on-draw"` in submission.toml."""
    if where is DeclaredIn.MANIFEST:
        return " and ".join(f'{key} = "{value}"' for key, value in declarations) \
            + f" in {MANIFEST_NAME}"
    options = " ".join(f"--{key.replace('_', '-')} {value}" for key, value in declarations)
    if where is DeclaredIn.HEADER:
        words = " ".join(f"{key}={value}" for key, value in declarations)
        return (f"{options} (or `menace-judge: {words}` in a header among the file's first "
                f"{HEADER_WORDS} lines)")
    return options


@dataclass(frozen=True)
class Dialect:
    """How a program writes its output and reads its input, where it takes SPEC section 8's
    freedoms, and the reading of the refill rule it follows: what the referee needs to read it
    and talk to it."""

    moves: MoveFormat = MoveFormat.LETTERS
    beads: BeadFormat = BeadFormat.AUTO
    refill: RefillRule = RefillRule.ON_EMPTY
    x: str = ""
    o: str = ""
    empty: str = ""

    @property
    def numbering(self) -> BeadFormat | None:
        """The bead numbering declared, None when the judge guesses it from the first dump."""
        return None if self.beads is BeadFormat.AUTO else self.beads

    def declaring(self, declarations: Sequence[tuple[str, str]]) -> Dialect:
        """This dialect with more declarations (`refill`, `on-draw`), their values checked."""
        return _dialect({**{name: getattr(self, name).value if name in CHOICES
                            else getattr(self, name) for name in DIALECT_KEYS},
                         **dict(declarations)})

    def declares(self, key: str, value: str) -> bool:
        """True when this dialect holds the declaration already."""
        current = getattr(self, key, None)
        return str(getattr(current, "value", current)) == value


@dataclass(frozen=True)
class Manifest:
    """What a submission declares about itself (SPEC section 8); defaults for the rest."""

    command: tuple[str, ...]
    language: str = "unknown"
    source: str = ""
    moves: MoveFormat = MoveFormat.LETTERS
    beads: BeadFormat = BeadFormat.AUTO
    refill: RefillRule = RefillRule.ON_EMPTY
    seed_args: tuple[str, ...] = ()
    x: str = ""
    o: str = ""
    empty: str = ""
    transport: Transport | None = None
    """The transport the submission asks for; None when it does not say."""
    memory_mb: int = 0
    code_page: str = ""
    """The single-byte code page the source is scored in; empty: its size as stored."""
    folder: Path | None = None
    """The submission folder, copied to a fresh working folder for each run."""
    files: tuple[Path, ...] = ()
    """Files of the host, each copied by its name into the top of the working folder."""
    declared_in: DeclaredIn = DeclaredIn.OPTIONS
    """Where it declares its freedoms: its manifest (a folder), a header (a bare file), or
    the judge's options (a bare command)."""

    @property
    def dialect(self) -> Dialect:
        """What the referee needs of the manifest: how the program writes and reads."""
        return Dialect(self.moves, self.beads, self.refill, self.x, self.o, self.empty)

    @property
    def name(self) -> str:
        """The submission's name: its folder's name, its source file's, or its command."""
        if self.folder is not None:
            return self.folder.name
        return self.source if self.source_file() else " ".join(self.command)

    def source_file(self) -> Path | None:
        """The source file on the host: in the folder, or among the files copied in."""
        if not self.source:
            return None
        if self.folder is not None:
            return self.folder / self.source
        return next((file for file in self.files if file.name == self.source), None)

    def origin(self) -> Path | None:
        """What a replay names to judge again: the submission folder, or the bare source file."""
        return self.folder or self.source_file()

    def source_bytes(self) -> int | None:
        """The score, if there is a source file: its exact size in bytes, or the bytes of its
        text in the declared code page (SPEC section 9)."""
        path = self.source_file()
        try:
            if path is None or not path.is_file():
                return None
            if not self.code_page:
                return path.stat().st_size
            return scored(path.read_bytes(), code_page(self.code_page), str(path))
        except (OSError, CodePageError):
            return None

    def bytes_text(self) -> str:
        """The score in words, and what it counts: `885 bytes`, `412 bytes in the Vyxal code
        page`; empty where no source is named, and says so where the source named is not
        there (a misspelt `source` would otherwise lose the score without a word)."""
        size = self.source_bytes()
        if size is None:
            return f"no byte count: its source {self.source} is not there" if self.source else ""
        page = self.page()
        return f"{size} bytes" + ("" if page is None else f" in the {page.title} code page")

    def page(self) -> CodePage | None:
        """The code page the source is scored in; None for its size as stored."""
        return code_page(self.code_page) if self.code_page else None

    def check_source(self) -> None:
        """Refuse a source that cannot be scored as declared: not UTF-8 text, or holding a
        character outside its code page (nothing else about the source is checked)."""
        path = self.source_file()
        if not self.code_page or path is None or not path.is_file():
            return
        try:
            scored(path.read_bytes(), code_page(self.code_page), f"the source {str(path)!r}")
        except OSError as error:
            raise ManifestError(f"cannot read {str(path)!r}: {error.strerror}") from None
        except CodePageError as error:
            raise ManifestError(str(error)) from None


def _string(table: dict[str, Any], key: str, default: str) -> str:
    """A string value of the manifest."""
    value = table.get(key, default)
    if not isinstance(value, str):
        raise ManifestError(f"{key} must be a string, not {value!r}")
    return value


def _choice(table: dict[str, Any], key: str, kind: type[Choice], default: Choice) -> Choice:
    """A value of the manifest that must be one of an option's choices."""
    try:
        return parse(kind, table.get(key, default.value), key)
    except OptionError as error:
        raise ManifestError(str(error)) from None


def _strings(table: dict[str, Any], key: str) -> tuple[str, ...]:
    """A list-of-strings value of the manifest."""
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestError(f"{key} must be a list of strings, not {value!r}")
    return tuple(value)


def _symbol(table: dict[str, Any], key: str) -> str:
    """A one-character symbol declaration, or empty when not declared."""
    value = _string(table, key, "")
    if len(value) > 1:
        raise ManifestError(f"{key} must be a single character, not {value!r}")
    return value


def _code_page(table: dict[str, Any]) -> str:
    """The declared code page's name, checked; empty when not declared."""
    name = _string(table, "code_page", "")
    if name:
        try:
            code_page(name)
        except CodePageError as error:
            raise ManifestError(f"code_page: {error}") from None
    return name


def parse_manifest(text: str, folder: Path | None = None) -> Manifest:
    """The manifest written in `text` (TOML)."""
    try:
        table = tomllib.loads(text)
    except RecursionError:
        raise ManifestError(f"{MANIFEST_NAME} is not valid TOML: nested too deeply") from None
    except ValueError as error:  # TOMLDecodeError, or a number of thousands of digits
        raise ManifestError(f"{MANIFEST_NAME} is not valid TOML: {error}") from None
    return manifest_from(table, folder)


def declarations_table(words: Mapping[str, str], where: str = "") -> dict[str, Any]:
    """Declarations given as words (`moves`: `digits0`, `seed_args`: `--seed {seed}`) as a
    manifest's table holds them; `where` names their place in a message."""
    table: dict[str, Any] = {}
    for key, text in words.items():
        name = key.replace("-", "_")
        if name not in DECLARATIONS:
            raise ManifestError(f"{key!r}{where} is not a declaration: declare "
                                f"{', '.join(DECLARATIONS)}")
        if name == "seed_args":
            try:
                table[name] = shlex.split(text)
            except ValueError as error:
                raise ManifestError(f"seed_args{where}: {error} in {text!r}") from None
        elif name == "memory_mb":
            whole = text.isascii() and text.isdigit() and len(text) < 10
            table[name] = int(text) if whole else text
        else:
            table[name] = text
    return table


DIALECT_KEYS: Final = ("moves", "beads", "refill", "x", "o", "empty")
"""The declarations a dialect holds."""
CHOICES: Final = ("moves", "beads", "refill")
"""Those of them whose values are an option's choices."""


def _dialect(table: dict[str, Any]) -> Dialect:
    """How the program writes and reads, from a table (TOML's, or declarations'), checked."""
    return Dialect(
        moves=_choice(table, "moves", MoveFormat, MoveFormat.LETTERS),
        beads=_choice(table, "beads", BeadFormat, BeadFormat.AUTO),
        refill=_choice(table, "refill", RefillRule, RefillRule.ON_EMPTY),
        x=_symbol(table, "x"), o=_symbol(table, "o"), empty=_symbol(table, "empty"))


def dialect_of(words: Mapping[str, str]) -> Dialect:
    """How the program writes and reads, from declarations given as words (`moves=digits0`)."""
    return _dialect(declarations_table(words))


def declared(command: tuple[str, ...], declarations: Mapping[str, str],
             files: tuple[Path, ...] = ()) -> Manifest:
    """A manifest for a bare `command` with declarations given as words, and the host files
    it runs, copied in by name."""
    return manifest_from({"command": list(command), **declarations_table(declarations)},
                         files=files)


def manifest_from(table: dict[str, Any], folder: Path | None = None,
                  files: tuple[Path, ...] = ()) -> Manifest:
    """The manifest a table holds (TOML's, or declarations'), every value checked."""
    command = _strings(table, "command")
    if not command:
        raise ManifestError(f"{MANIFEST_NAME} needs a non-empty command, "
                            f"got {table.get('command')!r}")
    memory = table.get("memory_mb", 0)
    low, high = options.MEMORY_RANGE_MB
    if type(memory) is not int or not (memory == 0 or low <= memory <= high):
        raise ManifestError(f"memory_mb must be a whole number from {low} to {high:,} "
                            f"(or 0 for the judge's limit), not {memory!r}")
    declared = _dialect(table)
    return Manifest(
        command=command,
        language=_string(table, "language", "unknown"),
        source=_string(table, "source", ""),
        moves=declared.moves, beads=declared.beads, refill=declared.refill,
        seed_args=_strings(table, "seed_args"),
        x=declared.x, o=declared.o, empty=declared.empty,
        transport=_choice(table, "transport", Transport, options.TRANSPORT)
        if "transport" in table else None,
        memory_mb=memory,
        code_page=_code_page(table),
        folder=folder,
        files=files,
        declared_in=DeclaredIn.OPTIONS if folder is None else DeclaredIn.MANIFEST,
    )


def check_program(program: str, folder: Path) -> None:
    """Refuse a command whose program lies outside the submission's folder.

    A bare name (`perl`) is looked up on PATH; a path (`./run.sh`, `bin/x`) must stay inside
    the folder, links included.
    """
    if "/" not in program:
        return
    inside = folder.resolve()
    if program.startswith("/") or not (inside / program).resolve().is_relative_to(inside):
        raise ManifestError(
            f"command {program!r} lies outside the submission's folder: a path must stay inside "
            "the folder, and a bare name is looked up on PATH")


def read_manifest(folder: Path) -> Manifest:
    """The manifest of the submission in `folder`."""
    path = folder / MANIFEST_NAME
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ManifestError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ManifestError(f"{path} is not UTF-8 text") from None
    manifest = parse_manifest(text, folder.resolve())
    check_program(manifest.command[0], folder)
    manifest.check_source()
    return manifest


def is_submission(folder: Path) -> bool:
    """True when `folder` holds a single submission (it has a manifest)."""
    return (folder / MANIFEST_NAME).is_file()
