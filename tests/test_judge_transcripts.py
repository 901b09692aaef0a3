"""The judge's checks replayed against stored transcripts (`>` judge to program, `<` back)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from reference.notation import parse_move

from judge.deciding.checker import InProcess, in_worker
from judge.deciding.decision import decide
from judge.deciding.judging import facts_from
from judge.deciding.opponents import Knowledge, Opponent, RandomOpponent, ScriptedOpponent
from judge.deciding.referee import Played, Referee
from judge.running.playback import Afterwards, Playback
from judge.terms.manifest import Dialect
from judge.terms.options import RefillRule, Transport
from judge.terms.settings import Settings

TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"


@dataclass(frozen=True)
class Transcript:
    """A stored session: its lines, the way the program ended, the expected verdict line, and
    the refill reading the program declares."""

    items: tuple[tuple[str, str], ...]
    expect: str
    end: str
    refill: RefillRule = RefillRule.ON_EMPTY


def read_transcript(path: Path) -> Transcript:
    """A transcript file: `# expect:`, `# end:` and optional `# refill:` headers, then `>` and
    `<` lines."""
    items, headers = [], {}
    for line in path.read_text().splitlines():
        if line.startswith("# ") and ":" in line:
            key, _, value = line[2:].partition(":")
            headers[key.strip()] = value.strip()
        elif line[:2] in ("> ", "< "):
            items.append((line[0], line[2:]))
    return Transcript(tuple(items), headers["expect"], headers["end"],
                      RefillRule(headers.get("refill", RefillRule.ON_EMPTY)))


def cell_of(text: str) -> int:
    """The cell typed as two letters, row then column."""
    return parse_move(text)


def opponent_moves(transcript: Transcript) -> list[list[int]]:
    """O's moves in each game, as the transcript shows them."""
    games: list[list[int]] = []
    for direction, text in transcript.items[1:]:
        if direction == "<" and text.strip() == "new game":
            games.append([])
        elif direction == ">":
            if not games:
                games.append([])
            games[-1].append(cell_of(text))
    return games


def playback(transcript: Transcript, kind: type[Playback] = Playback) -> Playback:
    """The transcript's program, played back as the transcript says it ended."""
    afterwards, _, status = transcript.end.partition(" ")
    return kind(transcript.items, afterwards=Afterwards(afterwards), status=int(status or 0),
                    transport=Transport.PTY)


def replay_verdict(transcript: Transcript) -> str:
    """The verdict line the judge reaches on a transcript."""
    games = int(transcript.items[0][1])
    session = playback(transcript)
    opponent = ScriptedOpponent(opponent_moves(transcript), RandomOpponent(random.Random(0)))
    settings = Settings(games=games, idle_seconds=0.01, grace_seconds=0.01)
    played = refereed(session, transcript.refill, settings, opponent)
    return decide(facts_from(played.stop, session.close(), played.place)).line()


def refereed(program: Playback, refill: RefillRule, settings: Settings,
             opponent: Opponent, *, apart: bool = False) -> Played:
    """The referee's run over a transcript's program, which must stop with a reason, the
    judge having sent exactly the lines the transcript shows it sending; `apart`: the checks
    no move depends on made in a process of their own."""
    dialect = Dialect(refill=refill)
    checker = in_worker(settings, dialect) if apart else InProcess(settings, dialect)
    try:
        played = Referee(program, dialect, settings, opponent, Knowledge(),
                         checker=checker).play()
    finally:
        checker.close()
    assert played.stop is not None, played.fault
    said = [text for direction, text in program.lines if direction == ">"]
    assert program.sent == said[:len(program.sent)], "the judge sent what the transcript shows"
    return played


PATHS = sorted(TRANSCRIPTS.glob("*.txt"))


def test_there_are_transcripts_of_every_kind() -> None:
    """The stored transcripts cover acceptance and every check that output alone decides."""
    expected = {read_transcript(p).expect for p in PATHS}
    assert "accepted" in expected
    for check in ("true-board", "new-game", "game-end", "dump", "learning", "exit"):
        assert f"wrong-answer {check}" in expected, check


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_transcript_gets_its_verdict(path: Path) -> None:
    """Replaying a transcript through the referee reaches the verdict written in its header."""
    transcript = read_transcript(path)
    assert replay_verdict(transcript) == transcript.expect


def later_games(transcript: Transcript, games: int, *items: tuple[str, str]) -> Transcript:
    """The transcript with `games` games asked for and `items` said after its last line."""
    return Transcript(((">", str(games)), *transcript.items[1:], *items), transcript.expect,
                      transcript.end, transcript.refill)


def test_a_check_made_once_the_next_move_is_sent_reports_its_own_game() -> None:
    """Game 2's learning is checked after game 3's first move is sent; the failure is still
    game 2's, with game 2's log, and game 2 is not counted as played."""
    learning = read_transcript(TRANSCRIPTS / "learning-win.txt")
    transcript = later_games(learning, 3, ("<", "new game"), ("<", "X . ."), ("<", ". . ."),
                             ("<", ". . ."), (">", "RR"))
    session = playback(transcript)
    opponent = ScriptedOpponent(opponent_moves(transcript), RandomOpponent(random.Random(0)))
    played = refereed(session, RefillRule.ON_EMPTY, Settings(games=3), opponent)
    decision = decide(facts_from(played.stop, session.close(), played.place))
    assert decision.line() == "wrong-answer learning"
    assert decision.place.game == 2
    assert session.sent[-1] == "RR", "game 3's first move was sent"
    assert played.games_played == 1
    log = played.game_log
    assert log[0] == "< new game" and "> RL" in log and "> RR" not in log


def test_a_pending_check_that_fails_wins_over_a_later_end_of_output() -> None:
    """Output that ends after game 2's dump, one game early, is reported as game 2's learning
    failure, which came first."""
    transcript = later_games(read_transcript(TRANSCRIPTS / "learning-win.txt"), 3)
    assert replay_verdict(transcript) == "wrong-answer learning"


class SlowSession(Playback):
    """The transcript's program, always still working on its answer when the judge reads."""

    def ready(self) -> bool:
        """Never at hand: the judge makes every check due before each read."""
        return False


def judged(session: Playback, transcript: Transcript, *, apart: bool = False) -> tuple[object, ...]:
    """Everything a report shows of a run on the transcript, and the moves its replay keeps;
    `apart`: with the checks no move depends on made in a process of their own."""
    games = int(transcript.items[0][1])
    opponent = ScriptedOpponent(opponent_moves(transcript), RandomOpponent(random.Random(0)))
    settings = Settings(games=games, idle_seconds=0.01, grace_seconds=0.01)
    played = refereed(session, transcript.refill, settings, opponent, apart=apart)
    decision = decide(facts_from(played.stop, session.close(), played.place))
    return (decision, played.games_played, played.coverage, played.bead_draws,
            played.refill_beads, played.game_log, played.transcript, played.moves)


LATE = [
    later_games(read_transcript(TRANSCRIPTS / "learning-win.txt"), 3, ("<", "new game"),
                ("<", "X . ."), ("<", ". . ."), ("<", ". . ."), (">", "RR"), ("<", "X . ."),
                ("<", ". . ."), ("<", ". . O")),
    *(read_transcript(path) for path in PATHS),
]


@pytest.mark.parametrize("transcript", LATE, ids=["learning-late", *(p.stem for p in PATHS)])
def test_checks_made_early_or_late_report_the_same(transcript: Transcript) -> None:
    """Checks made while the program works, or only once they must be, give the same report:
    a failure found later is shown as where its check fell due."""
    assert judged(playback(transcript, SlowSession), transcript) == judged(
        playback(transcript), transcript)


@pytest.mark.parametrize("transcript", LATE, ids=["learning-late", *(p.stem for p in PATHS)])
def test_checks_made_in_a_process_of_their_own_report_the_same(transcript: Transcript) -> None:
    """The checks no move depends on, made in a process of their own as soon as they are
    queued, give the report they give when made in the judge's own process: a failure, its
    place and evidence, the logs."""
    assert judged(playback(transcript), transcript, apart=True) == judged(
        playback(transcript), transcript)
