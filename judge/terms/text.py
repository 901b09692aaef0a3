"""Text from programs and manifests, made safe to show: on a terminal, and in Markdown.

A program's output and a manifest's fields are someone else's text. On a terminal, an escape
sequence in them could fake a verdict line, retitle the window or clear the screen, so control
characters are shown escaped (`\\x1b`). In Markdown, `|` or a backtick would break the table.
The JSON report keeps every string exact: JSON escapes it by itself.
"""

from __future__ import annotations

from typing import Final

MARKDOWN_SPECIAL: Final = frozenset("\\`*_[]<>|#~!")
"""Characters that start Markdown or HTML syntax in a table cell; each gets a backslash."""


def printable(text: str, width: int | None = None) -> str:
    """The text as it can be shown on a terminal: control characters escaped, cut to `width`."""
    cut = text if width is None else text[:width]
    shown = "".join(c if c.isprintable() else _escaped(c) for c in cut)
    return shown + (" ..." if width is not None and len(text) > width else "")


def _escaped(character: str) -> str:
    """A character that is not printable, as an escape: \\x1b, \\u200b."""
    code = ord(character)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def plural(count: int, noun: str, nouns: str = "") -> str:
    """A count and its noun, agreeing: `1 game`, `3 games`, `2 boxes` (`nouns` when not noun+s)."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"


def markdown_cell(text: str) -> str:
    """The text as one cell of a Markdown table: control characters and Markdown escaped."""
    return "".join("\\" + c if c in MARKDOWN_SPECIAL else c for c in printable(text))
