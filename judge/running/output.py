"""A program's output as it arrives: stdout cut into lines, the end of stderr kept, and the
bytes of both counted against the output limit."""

from __future__ import annotations

from collections import deque
from typing import Final

LONGEST_LINE: Final = 1 << 20
"""Bytes of stdout without a newline after which they are taken as a line of their own."""
STDERR_KEPT: Final = 1 << 16
"""Bytes of the end of stderr kept for the report."""
STDERR_LINES: Final = 12
"""Lines of the end of stderr a report shows."""


def decoded(data: bytes) -> str:
    """Bytes of output as text; undecodable bytes become U+FFFD."""
    return data.decode("utf-8", "replace")


class Output:
    """What a program has printed: its stdout lines not yet read, the end of its stderr."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        """The bytes of stdout and stderr together allowed; None: no limit."""
        self.lines: deque[str] = deque()
        """Complete lines of stdout, not yet read."""
        self._partial = b""
        self._stderr_tail = bytearray()
        self.bytes = 0
        """Bytes of stdout and stderr together so far."""
        self.over_limit = False
        self.discarding = False
        """True once stdout is only counted, no longer kept (a flood being drained)."""

    def _count(self, size: int) -> None:
        """Count `size` more bytes of output against the limit."""
        self.bytes += size
        if self.limit is not None and self.bytes > self.limit:
            self.over_limit = True

    def take_stdout(self, data: bytes) -> None:
        """Split a chunk of stdout into lines, keeping an unfinished last line for later."""
        self._count(len(data))
        if self.discarding:
            return
        buffer = self._partial + data
        cut = buffer.rfind(b"\n")
        if cut < 0:
            self._partial = buffer
            if len(buffer) > LONGEST_LINE:
                self.lines.append(decoded(buffer))
                self._partial = b""
            return
        self._partial = buffer[cut + 1:]
        text = decoded(buffer[:cut])
        if "\r" in text:
            text = text.replace("\r", "")
        self.lines.extend(text.split("\n"))

    def stdout_ended(self) -> bool:
        """Take an unfinished last line of stdout as a line, now that no more will come;
        True when there was one."""
        if not self._partial:
            return False
        self.lines.append(decoded(self._partial))
        self._partial = b""
        return True

    def take_stderr(self, data: bytes) -> None:
        """Keep the end of stderr; its bytes count towards the output limit."""
        self._count(len(data))
        self._stderr_tail += data
        if len(self._stderr_tail) > STDERR_KEPT:
            del self._stderr_tail[:-STDERR_KEPT]

    def stderr_tail(self) -> tuple[str, ...]:
        """The last lines the program wrote to stderr."""
        return tuple(decoded(bytes(self._stderr_tail)).splitlines()[-STDERR_LINES:])
