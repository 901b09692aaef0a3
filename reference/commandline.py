"""What every command line of the project shares: a usage error, and a parser that names a bad
option in one line (status 2) instead of printing its usage block."""

from __future__ import annotations

import argparse
from typing import Final, NoReturn

BAD_USAGE: Final = 2
"""The exit status of a command line that cannot be acted on: nothing was run."""


class UsageError(ValueError):
    """A command line that cannot be acted on; the message names the problem."""


def shown(text: str) -> str:
    """Text for a one-line message: control characters escaped, so none acts on a terminal."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser that names a bad option in one line, without the usage block."""

    def error(self, message: str) -> NoReturn:
        """Exit with status 2 and a one-line message naming the problem."""
        self.exit(BAD_USAGE, f"{self.prog}: {shown(message)} (see --help)\n")
