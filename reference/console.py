"""The terminal side of the challenge program: transcript on stdout, everything else on stderr."""

from __future__ import annotations

from typing import TextIO


class EndOfInput(Exception):
    """Standard input ended while the program was waiting for a line."""


class Console:
    """Stdout for the transcript, stderr for prompts and messages, stdin for the person's lines."""

    def __init__(self, stdin: TextIO, stdout: TextIO, stderr: TextIO, *, interactive: bool) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.interactive = interactive
        """True when a person types at a terminal: prompts and hints are shown."""

    def show(self, text: str) -> None:
        """Add lines to the transcript on stdout."""
        self.stdout.write(text + "\n")

    def say(self, text: str) -> None:
        """Tell the person something on stderr."""
        self.stdout.flush()
        self.stderr.write(text + "\n")
        self.stderr.flush()

    def narrate(self, text: str) -> None:
        """Explain what happens next, on stderr, to a person at a terminal only."""
        if self.interactive:
            self.say(text)

    def ask(self, prompt: str) -> str:
        """The next line of input, stripped, after flushing all output and showing the prompt."""
        self.stdout.flush()
        if self.interactive:
            self.stderr.write(prompt)
        self.stderr.flush()
        line = self.stdin.readline()
        if not line:
            if self.interactive:
                self.stderr.write("\n")
            raise EndOfInput
        return line.strip()
