"""The judge's report: a human-readable account of a run, and the same as JSON."""

from __future__ import annotations

import json
import shlex
from dataclasses import asdict
from pathlib import Path
from typing import Any

from reference.board import Cell

from judge.deciding.checks import DRAW_LAW, REFILL_LAW
from judge.deciding.judging import Run
from judge.deciding.randomness import Evidence
from judge.reading.formats import Symbols, move_text
from judge.running.ending import Ending
from judge.telling.commands import judge_command
from judge.telling.shrinking.case import describe_game, game_moves, test_body
from judge.telling.shrinking.search import SEED_ADVICE, Shrunk, size
from judge.terms.manifest import Manifest
from judge.terms.options import MoveFormat
from judge.terms.text import plural
from judge.terms.text import printable as escaped
from judge.terms.verdicts import Verdict

WIDTH = 200
"""The most characters of a program's line shown in a report."""


def printable(text: str) -> str:
    """A line of output as it can be shown: control characters escaped, cut to WIDTH."""
    return escaped(text, WIDTH)


GAME_LOG_SHOWN = 60
"""The most lines of the failed game's log a report shows (its last ones)."""


def hint_line(hint: str) -> str:
    """A hint as one report line, whole: it is the fix, so never cut, and never broken in
    the middle of a phrase (a terminal wraps it where it must)."""
    return f"  hint: {escaped(hint)}"


def report_lines(run: Run, replay_path: Path | None = None,
                 shrink_command: str | None = None) -> list[str]:
    """The report of a run, its last line being the verdict."""
    decision = run.decision
    games = run.replay.games
    lines = [f"played {run.games_played:,} of {plural(games, 'game')} to the end, in "
             f"{run.seconds:.2f} s"
             + _used(run.facts.ending)]
    coverage = run.coverage
    outcomes = coverage.outcomes
    lines.append(f"MENACE won {outcomes.wins}, drew {outcomes.draws}, lost {outcomes.losses}; "
                 f"{plural(coverage.boxes_drawn, 'box', 'boxes')} drawn from, "
                 f"{plural(coverage.refills, 'refill')}, "
                 f"{plural(coverage.symmetric_draws, 'draw')} from symmetric boxes checked")
    if run.bead_draws.observations:
        lines.append(f"bead-draws: {run.bead_draws.describe('move', DRAW_LAW)}")
    if run.refill_beads.observations:
        lines.append(f"refills: {run.refill_beads.describe('refill', REFILL_LAW)}")
    for gap in run.not_checked:
        lines.append(f"not checked (unlabelled dump): {gap}")
    if decision.verdict is not Verdict.ACCEPTED:
        lines.append("")
        lines.append(f"REJECTED {decision.place.at}: {decision.reason}")
        if decision.expected or decision.got:
            lines.append(f"  expected: {printable(decision.expected)}")
            lines.append(f"  got:      {printable(decision.got)}")
        ending = run.facts.ending
        if ending is not None and ending.stderr_tail and decision.verdict in (
                Verdict.RUNTIME_ERROR, Verdict.MEMORY_LIMIT, Verdict.DISK_LIMIT,
                Verdict.PROCESS_LIMIT, Verdict.JUDGE_ERROR,
                Verdict.WRONG_ANSWER, Verdict.PRESENTATION_ERROR):
            lines.append("  last lines of stderr:")
            lines.extend("    " + printable(line) for line in ending.stderr_tail[-6:])
        for line in decision.evidence:
            lines.append(f"  {printable(line)}")
        if run.game_log and decision.place.game:
            hidden = len(run.game_log) - GAME_LOG_SHOWN
            lines.append(f"  game {decision.place.game} so far, without its dump "
                         "(> judge to program, < program to judge)"
                         + (f", its last {GAME_LOG_SHOWN} lines of {len(run.game_log):,} "
                            "(--transcript FILE keeps them all)" if hidden > 0 else "") + ":")
            lines.extend("    " + printable(line) for line in run.game_log[-GAME_LOG_SHOWN:])
        tail = run.transcript[-6:]
        if tail and tuple(run.game_log[-len(tail):]) != tail:
            lines.append("  last lines of the transcript:")
            lines.extend("    " + printable(line) for line in tail)
        lines.extend(hint_line(hint) for hint in decision.hints)
        if replay_path is not None:
            lines.append(f"  replay: {replay_command(replay_path)}")
        if shrink_command is not None:
            lines.append(f"  a smaller case that fails the same way: {shrink_command}")
    lines.append(decision.line())
    return lines


def replay_command(replay_path: Path) -> str:
    """The command that plays a saved replay again."""
    return judge_command(f"--replay {shlex.quote(str(replay_path))}")


def _used(ending: Ending | None) -> str:
    """What the program's processes used, for the report's first line."""
    if ending is None:
        return ""
    memory = ending.peak_memory_kb
    if memory is None:
        return f" ({ending.cpu_seconds:.2f} s of CPU)"
    looked = ending.containment is not None and ending.containment.looked
    return (f" ({ending.cpu_seconds:.2f} s of CPU, {'at least' if looked else 'at most'} "
            f"{memory / 1024:.0f} MB of memory{' at once' if looked else ''})")


def _evidence_json(evidence: Evidence) -> dict[str, Any]:
    """A statistical test as a JSON-ready dictionary: the log evidence per alternative, its
    likeliest start game, and its power when measured."""
    found: dict[str, Any] = {
        "observations": evidence.observations, "log_evidence": evidence.log_evidence,
        "passed": evidence.passed, "threshold": evidence.threshold,
        "alternatives": dict(zip(evidence.names, evidence.log_values, strict=True)),
        "starts": dict(zip(evidence.names, evidence.starts, strict=True))}
    if evidence.expected:
        found["power"] = {name: power for name, power in zip(evidence.names, evidence.powers(),
                                                              strict=True) if power is not None}
    return found


def report_json(run: Run, manifest: Manifest | None = None) -> dict[str, Any]:
    """The run as a JSON-ready dictionary; with the manifest, what was judged and its bytes."""
    decision = run.decision
    ending = run.facts.ending
    judged: dict[str, Any] = {} if manifest is None else {
        "submission": manifest.name, "language": manifest.language,
        "bytes": manifest.source_bytes(), "code_page": manifest.code_page or None}
    return judged | {
        "verdict": decision.verdict.value,
        "check": decision.check.value if decision.check else None,
        "reason": decision.reason,
        "game": decision.place.game,
        "move": decision.place.move,
        "expected": decision.expected,
        "got": decision.got,
        "hints": list(decision.hints),
        "declarations_offered": dict(decision.offered),
        "games_played": run.games_played,
        "seconds": round(run.seconds, 3),
        "cpu_seconds": round(ending.cpu_seconds, 3) if ending else None,
        "peak_memory_kb": ending.peak_memory_kb if ending else None,
        "coverage": asdict(run.coverage),
        "bead_draws": _evidence_json(run.bead_draws),
        "refills": _evidence_json(run.refill_beads),
        "not_checked": list(run.not_checked),
        "exit_status": ending.status if ending else None,
        "signal": ending.signal if ending else None,
        "stderr_tail": list(ending.stderr_tail) if ending else [],
        "seed": run.replay.seed,
        "sandbox": _sandbox(run),
        "transcript_tail": list(run.transcript[-20:]),
    }


def json_text(run: Run, manifest: Manifest | None = None) -> str:
    """The run's JSON report as text: every string exact, as the program printed it."""
    return json.dumps(report_json(run, manifest), indent=2) + "\n"


def _sandbox(run: Run) -> dict[str, Any]:
    """How the run was contained: its level, what that level lacked, what it does not hold,
    and how the judge got its control groups (empty without them)."""
    ending = run.facts.ending
    contained = ending.containment if ending is not None else None
    if contained is None:
        return {"level": None, "missing": [], "not_held": [], "groups": ""}
    return {"level": contained.level.value, "missing": list(contained.missing),
            "not_held": list(contained.not_held), "groups": contained.groups}


def transcript_text(run: Run) -> str:
    """The transcript as text for people: `>` judge to program, `<` program to judge, the
    program's control characters escaped as on the terminal (`\\x1b`); the JSON keeps them."""
    return "\n".join(map(escaped, run.transcript)) + "\n"


def shrunk_lines(shrunk: Shrunk, manifest: Manifest, replay_path: Path | None = None,
                 test_path: Path | None = None) -> list[str]:
    """The report of a shrink: the smallest case whole, how it repeats, where it is saved."""
    choices, run = shrunk.choices, shrunk.run
    games, scripted, _ = size(choices)
    repeatability = shrunk.repeatability
    searched = f"in {plural(shrunk.attempts, 'run')}, {shrunk.seconds:.1f} s"
    if games < shrunk.original_games:
        head = (f"SHRUNK: from {plural(shrunk.original_games, 'game')} to "
                f"{plural(games, 'game')} with {plural(scripted, 'scripted O move')}, {searched}")
    else:
        why = (f"the time budget ran out first (--shrink-time {shrunk.budget:g}); allow it "
               "more to search further" if shrunk.out_of_time else
               "every shorter run tried passed, so the fault needs that many games")
        head = (f"SHRUNK: nothing shorter than {plural(games, 'game')} found, {searched}: "
                f"{why}")
    lines = ["", head, f"  {repeatability.describe()}"]
    if not repeatability.seeded and not repeatability.repeatable:
        lines.append(f"  {SEED_ADVICE}")
    if shrunk.seed != shrunk.original_seed:
        lines.append(f"  under the judge's seed {shrunk.seed}, not the rejected run's "
                     f"{shrunk.original_seed}: the program takes the seed (seed_args), and with "
                     "its random numbers from this one the fault comes sooner")
    if shrunk.count_matters:
        lines.append(f"  the count of games is what matters: with O on the lowest empty square, "
                     f"{games - 1} games pass and {games} fail, and {games} games of other "
                     "moves fail too")
    symbols = Symbols.declared(manifest.x, manifest.o, manifest.empty)
    played = game_moves(run.transcript, symbols)
    for number, moves in enumerate(played, 1):
        script = choices[number - 1] if number <= len(choices) else ()
        if shrunk.count_matters and number < len(played):
            if number == 1:
                lines.append(f"  games 1-{len(played) - 1}: O on the lowest empty square "
                             "(no scripted moves)")
            continue
        how = (f"O's script {' '.join(move_text(Cell(c), MoveFormat.LETTERS) for c in script)}"
               if script else "O on the lowest empty square")
        lines.append(f"  game {number} ({how}): {describe_game(moves)}")
    decision = run.decision
    if not shrunk.failed_again:
        lines.append(f"  none of the {repeatability.runs} runs of these games was rejected: "
                     "there is no failing case to save; the rejected run's replay plays it again")
        return lines
    lines.append(f"  rejected {decision.place.within}: {decision.reason}")
    if decision.expected or decision.got:
        lines.append(f"    expected: {printable(decision.expected)}")
        lines.append(f"    got:      {printable(decision.got)}")
    lines.extend(f"    {printable(line)}" for line in decision.evidence)
    ending = run.facts.ending
    if decision.verdict is Verdict.RUNTIME_ERROR and ending is not None:
        lines.append("    last lines of stderr:")
        lines.extend("      " + printable(line) for line in ending.stderr_tail[-6:])
    lines.append(f"  judged as: {decision.line()}")
    if replay_path is not None:
        lines.append(f"  replay: {replay_command(replay_path)}")
    if test_path is not None:
        lines.append(f"  as a pytest test (saved in {test_path}):")
        lines.extend("    " + line if line else "" for line in
                     test_body(shrunk, manifest, run.replay.seed).splitlines())
    return lines
