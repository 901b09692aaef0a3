"""Numbers typed by a person: whole numbers checked for form and range, named when refused."""

from __future__ import annotations

from typing import Final

SHOWN: Final = 40
"""The most characters of a refused text quoted back in a message."""


class NumberTextError(ValueError):
    """Text that is not a whole number in the allowed range; the message says what is allowed."""


def shown(text: str) -> str:
    """The text quoted for a message: repr, cut to a readable length."""
    if len(text) <= SHOWN:
        return repr(text)
    return repr(text[:SHOWN]) + f"... ({len(text):,} characters)"


def whole_number(text: str, low: int, high: int, what: str = "a whole number") -> int:
    """The whole number written in `text` (ASCII digits, an optional minus), from `low` to `high`.

    `what` names the number in the message: "'x' is not a number of games from 1 to 9".
    """
    digits = text.strip()
    body = digits[1:] if digits.startswith("-") else digits
    widest = len(str(max(abs(low), abs(high))))
    if body.isascii() and body.isdigit() and len(body.lstrip("0")) <= widest \
            and low <= int(digits) <= high:
        return int(digits)
    quoted = shown(text) if text else "an empty line"
    raise NumberTextError(f"{quoted} is not {what} from {low:,} to {high:,}")
