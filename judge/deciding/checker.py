"""Where the ledger's checks are made (judge/deciding/ledger.py): in the judge's own process, each
when the referee makes it, or in a process of their own, a game's once it is over.

The program is held to one CPU and the judge has another; between the turns one of them waits
for the other. A process of its own lets the checks no move depends on use whichever CPU is
idle: the referee sends a game's checks once it is over, as the program is given its next
line, the checking process makes them at once and answers, and the referee takes the answers
in order, each when it makes that check (judge/deciding/deferred.py), so the run and its
report are the same either way. Only a
failure or a fault of the checking process's own makes its answers carry the evidence as it
stands after each check, for the report of a run that stopped between two of them.

The checking process is forked before the program starts, while the judge is a single thread
(forking a process with other threads running could leave it a lock no one will release); a
judge running beside others in one process (a leaderboard, a shrink), or held to one CPU, makes
its checks itself.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import socket
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from itertools import compress
from operator import ne
from typing import Protocol

from judge.deciding.dumps import BoxReader, DumpReading, box_reader
from judge.deciding.ledger import Entry, GameLearnt, Ledger, Pooled
from judge.reading.formats import Symbols
from judge.terms.boxes import orientations
from judge.terms.manifest import Dialect
from judge.terms.settings import Settings
from judge.terms.stops import fail
from judge.terms.verdicts import Failure

Check = Callable[[], None]
"""A check as the referee queues it: made when called, raising `Failed` when it fails."""


class Checker(Protocol):
    """Where the checks no move depends on are made."""

    def queue(self, entry: Entry, dump: DumpReading | None = None) -> Check:
        """The check of `entry` (for a game's learning, `dump` is its dump as the referee read
        it)."""
        ...

    def ready(self) -> bool:
        """True when the next check can be made without waiting."""
        ...

    def hand_over(self) -> None:
        """The program works on a line just sent: a good moment to pass on checks queued."""
        ...

    def drop(self, game: int) -> None:
        """Game `game`'s learning, queued last, is never to be made: its dump is wrong."""
        ...

    def tests(self) -> Pooled:
        """The statistical tests' evidence after the checks made so far."""
        ...

    def close(self) -> None:
        """Let go of whatever makes the checks."""
        ...


def ledger_for(settings: Settings, dialect: Dialect) -> Ledger:
    """A fresh ledger for a run under these settings and declarations."""
    return Ledger(settings, dialect.refill)


class InProcess:
    """The checks made in the judge's own process, each when the referee makes it."""

    def __init__(self, settings: Settings, dialect: Dialect) -> None:
        self.ledger = ledger_for(settings, dialect)
        self.dialect = dialect

    def queue(self, entry: Entry, dump: DumpReading | None = None) -> Check:
        """The check of `entry`, made when called."""
        ledger = self.ledger

        def check() -> None:
            """Make the check; raises `Failed` when it fails."""
            if ledger.reader is None and isinstance(entry, GameLearnt):
                ledger.reader = reader_of(entry, self.dialect)
            fail(ledger.make(entry, dump))
        return check

    def ready(self) -> bool:
        """Always: the check is made here."""
        return True

    def hand_over(self) -> None:
        """Nothing to pass on: a check is made when the referee makes it."""

    def drop(self, game: int) -> None:
        """Nothing to do: a check is made only when the referee makes it."""

    def tests(self) -> Pooled:
        """The evidence after the checks made so far."""
        return self.ledger.tests()

    def close(self) -> None:
        """Nothing to let go of."""


def reader_of(game: GameLearnt, dialect: Dialect) -> BoxReader:
    """The ledger's own reader of dump lines, made from the first dump's lines as the referee
    made its own."""
    symbols = Symbols.declared(dialect.x, dialect.o, dialect.empty)
    return box_reader(game.texts, symbols, dialect.numbering, dialect.refill)


Answer = tuple[Failure | None, Pooled | None, tuple[str, str] | None]
"""The checking process's answer to a check: its failure (None: it passed), the evidence after
it (only from the first failure or fault on), and a fault of its own (the error's type's name
and message)."""

Lines = tuple[int, tuple[tuple[int, str], ...]]
"""A dump's lines as sent: how many, and those that differ from the last dump sent (by place)."""

Batch = tuple[tuple[Entry, ...], Lines]
"""A game's checks as sent: its moves' and its learning's (its dump's lines sent apart)."""


def lines_sent(texts: tuple[str, ...], last: tuple[str, ...]) -> Lines:
    """`texts` as sent after `last`: only the lines that differ (compared in C)."""
    padded = last[:len(texts)] + ("",) * (len(texts) - len(last))
    return len(texts), tuple(compress(enumerate(texts), map(ne, texts, padded)))


def lines_received(lines: Lines, last: tuple[str, ...]) -> tuple[str, ...]:
    """The dump's lines from those sent and the last dump's."""
    count, changed = lines
    texts = list(last[:count]) + [""] * max(0, count - len(last))
    for k, text in changed:
        texts[k] = text
    return tuple(texts)


class CheckingProcessFailed(Exception):
    """The checking process stopped answering: the judge's fault."""


class Link:
    """One end of the line between the referee and the checking process: whole messages,
    pickled, each after its length."""

    def __init__(self, end: socket.socket) -> None:
        self.end = end

    def send(self, message: object) -> None:
        """Send one message."""
        data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        self.end.sendall(len(data).to_bytes(4, "little") + data)

    def receive(self) -> object:
        """The next message, waiting for it; EOFError when the other end has closed."""
        size = int.from_bytes(self._exactly(4), "little")
        return pickle.loads(self._exactly(size))

    def _exactly(self, size: int) -> bytes:
        """`size` bytes, waiting for them all."""
        data = bytearray()
        while len(data) < size:
            chunk = self.end.recv(size - len(data))
            if not chunk:
                raise EOFError("the other end closed the line")
            data += chunk
        return bytes(data)

    def waiting(self) -> bool:
        """True when a message has begun to arrive."""
        return bool(select.select([self.end], [], [], 0)[0])

    def close(self) -> None:
        """Close this end."""
        self.end.close()


class InWorker:
    """The checks made in a process of their own, a game's once it is over: each move's check,
    and the game's learning from the dump just read, sent when the program is next given a line
    to work on (the judge would wait then, so waking the checking process costs no turn).

    One message a game each way, and of a dump only the lines that changed, so that talking to
    the checking process costs the referee less than the checks would."""

    def __init__(self, link: Link, pid: int) -> None:
        self.link = link
        self.pid = pid
        self.unsent: list[Entry] = []
        """The checks queued since the last game's were sent."""
        self.game_over = False
        """True once a game's learning is among them."""
        self.last_texts: tuple[str, ...] = ()
        self.sent = 0
        """Games' checks sent and not yet answered."""
        self.answers: deque[Answer] = deque()
        """Answers received and not yet taken, in order."""
        self.after: Pooled | None = None
        """The evidence after the last check made, once the checking process sends it."""
        self.dropped = False
        """True once the last game's learning is not to count (made there all the same)."""

    def queue(self, entry: Entry, dump: DumpReading | None = None) -> Check:
        """The check of `entry`: sent with the game's others once it is over, its answer taken
        in turn."""
        if isinstance(entry, GameLearnt):
            if self.game_over:  # one game's checks a message
                self._send_unsent()
            self.game_over = True
        self.unsent.append(entry)
        return self._answer

    def hand_over(self) -> None:
        """Send the checks of a game over."""
        if self.game_over:
            self._send_unsent()

    def _send_unsent(self) -> None:
        """Send the checks queued so far to be made now."""
        entries: list[Entry] = []
        lines: Lines = (0, ())
        for entry in self.unsent:
            if isinstance(entry, GameLearnt):
                lines = lines_sent(entry.texts, self.last_texts)
                self.last_texts = entry.texts
                entry = replace(entry, texts=())
            entries.append(entry)
        self.unsent.clear()
        self.game_over = False
        self._send((tuple(entries), lines))
        self.sent += 1

    def _send(self, message: object) -> None:
        """Send one message to the checking process."""
        try:
            self.link.send(message)
        except OSError as error:
            raise CheckingProcessFailed(f"the checking process is gone: {error}") from None

    def _receive(self) -> object:
        """The checking process's next message."""
        try:
            return self.link.receive()
        except (EOFError, OSError) as error:
            raise CheckingProcessFailed(f"the checking process is gone: {error!r}") from None

    def _answer(self) -> None:
        """Take the next check's answer: raise its failure, or the fault of the checking process."""
        if not self.answers:
            if not self.sent:
                self._send_unsent()  # a run stopped within a game: its moves' checks now
            self.answers.extend(self._receive())  # type: ignore[arg-type]
            self.sent -= 1
        failure, after, fault = self.answers.popleft()
        if after is not None:
            self.after = after
        if fault is not None:
            name, message = fault
            raise type(name, (Exception,), {})(message)
        fail(failure)

    def ready(self) -> bool:
        """True when the next answer is there (never for checks not sent yet)."""
        return bool(self.answers) or (self.sent > 0 and self.link.waiting())

    def drop(self, game: int) -> None:
        """The evidence is to be as it stood before the last game's learning."""
        self.dropped = True

    def tests(self) -> Pooled:
        """The evidence after the checks made so far: as the last answer taken gave it, or,
        when every check queued was made, as the checking process has it now."""
        if self.after is not None:
            return self.after
        self._send((TESTS, self.dropped))
        while True:
            answer = self._receive()
            if isinstance(answer, Pooled):
                return answer

    def close(self) -> None:
        """Tell the checking process to end, and wait for it."""
        try:
            self.link.send(None)
        except OSError:
            pass
        self.link.close()
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


TESTS = "tests"
"""The message that asks for the evidence as it stands, with whether to leave out the last
game's learning."""


def serve(link: Link, ledger: Ledger, dialect: Dialect) -> None:
    """The checking process: make each game's checks as they come, and answer them."""
    after: Pooled | None = None
    before_learning: Pooled | None = None
    """The evidence before the last game's learning was made."""
    fault: tuple[str, str] | None = None
    last_texts: tuple[str, ...] = ()
    while True:
        try:
            message = link.receive()
        except EOFError:
            return
        if message is None:
            return
        if isinstance(message, tuple) and message[0] == TESTS:
            dropped = message[1] and before_learning is not None
            link.send(before_learning if dropped else after or ledger.tests())
            continue
        batch: Batch = message  # type: ignore[assignment]
        entries, lines = batch
        answers: list[Answer] = []
        for entry in entries:
            if isinstance(entry, GameLearnt):
                last_texts = lines_received(lines, last_texts)
                entry = replace(entry, texts=last_texts)
                before_learning = after if after is not None else ledger.tests()
            failure: Failure | None = None
            if fault is None:
                try:
                    if ledger.reader is None and isinstance(entry, GameLearnt):
                        ledger.reader = reader_of(entry, dialect)
                    failure = ledger.make(entry)
                except Exception as error:  # the judge's own fault, answered in turn
                    fault = (type(error).__name__, str(error))
                if failure is not None or fault is not None or after is not None:
                    after = ledger.tests()
            answers.append((failure, after, fault))
        link.send(answers)


def in_worker(settings: Settings, dialect: Dialect) -> InWorker:
    """A checking process forked now (the judge must be a single thread)."""
    mine, theirs = socket.socketpair()
    pid = os.fork()
    if pid == 0:  # the checking process
        status = 0
        try:
            mine.close()
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the judge ends it
            orientations()  # the box tables, made while the program starts
            serve(Link(theirs), ledger_for(settings, dialect), dialect)
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    theirs.close()
    return InWorker(Link(mine), pid)


def checker_for(settings: Settings, dialect: Dialect) -> Checker:
    """A checking process of its own when the judge is a single thread that can fork and may
    use more than one CPU; else the judge's own process."""
    if hasattr(os, "fork") and threading.active_count() == 1 and cpus() > 1:
        return in_worker(settings, dialect)
    return InProcess(settings, dialect)


def cpus() -> int:
    """The CPUs the judge may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
