"""`python -m reference`: play MENACE, or run a study command (train, evaluate, boxes)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

STUDY_COMMANDS = ("train", "evaluate", "boxes")
"""Subcommands for watching MENACE learn, handled by `reference.study.cli`."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the challenge program, or the study command named first; the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] in STUDY_COMMANDS:
        from reference.study.cli import main as study_main  # the study tools load only when asked

        return study_main(arguments)
    from reference.cli import main as play

    return play(arguments)


if __name__ == "__main__":
    sys.exit(main())
