"""The judge's report: a human-readable account of a run, and the same as JSON."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from reference.board import Cell

from judge.checks import DRAW_LAW, REFILL_LAW
from judge.formats import Symbols, move_text
from judge.manifest import Manifest
from judge.options import MoveFormat
from judge.randomness import Evidence
from judge.referee import Run
from judge.shrink import Shrunk, describe_game, game_moves, size, test_body
from judge.text import printable as escaped
from judge.verdict import Verdict

WIDTH = 200
"""The most characters of a program's line shown in a report."""


def printable(text: str) -> str:
    """A line of output as it can be shown: control characters escaped, cut to WIDTH."""
    return escaped(text, WIDTH)


def report_lines(run: Run, replay_path: Path | None = None,
                 shrink_command: str | None = None) -> list[str]:
    """The report of a run, its last line being the verdict."""
    decision = run.decision
    games = run.replay.games
    lines = [f"played {run.games_played} of {games} game(s) to the end, in {run.seconds:.2f} s"]
    coverage = run.coverage
    outcomes = coverage.outcomes
    lines.append(f"MENACE won {outcomes.wins}, drew {outcomes.draws}, lost {outcomes.losses}; "
                 f"{coverage.boxes_drawn} boxes drawn from, {coverage.refills} refill(s), "
                 f"{coverage.symmetric_draws} draw(s) from symmetric boxes checked")
    if run.draw_test.observations:
        lines.append(f"bead-draws: {run.draw_test.describe('moves', DRAW_LAW)}")
    if run.refill_test.observations:
        lines.append(f"refills: {run.refill_test.describe('refills', REFILL_LAW)}")
    for gap in run.not_checked:
        lines.append(f"not checked (unlabelled dump): {gap}")
    if decision.verdict is not Verdict.ACCEPTED:
        lines.append("")
        lines.append(f"REJECTED at {decision.place}: {decision.reason}")
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
            lines.append(f"  game {decision.place.game} so far, without its dump "
                         "(> judge to program, < program to judge):")
            lines.extend("    " + printable(line) for line in run.game_log[-30:])
        tail = run.transcript[-6:]
        if tail and tuple(run.game_log[-len(tail):]) != tail:
            lines.append("  last lines of the transcript:")
            lines.extend("    " + printable(line) for line in tail)
        if replay_path is not None:
            lines.append(f"  replay: python -m judge --replay {replay_path}")
        if shrink_command is not None:
            lines.append(f"  a smaller case that fails the same way: {shrink_command}")
    lines.append(decision.line())
    return lines


def _evidence_json(evidence: Evidence) -> dict[str, Any]:
    """A statistical test as a JSON-ready dictionary: the log evidence per alternative, its likeliest
    start game, and its power when measured."""
    found: dict[str, Any] = {
        "observations": evidence.observations, "log_evidence": evidence.log_evidence,
        "passed": evidence.passed, "threshold": evidence.threshold,
        "alternatives": dict(zip(evidence.names, evidence.log_values, strict=True)),
        "starts": dict(zip(evidence.names, evidence.starts, strict=True))}
    if evidence.expected:
        found["power"] = {name: power for name, power in zip(evidence.names, evidence.powers(),
                                                              strict=True) if power is not None}
    return found


def report_json(run: Run) -> dict[str, Any]:
    """The run as a JSON-ready dictionary."""
    decision = run.decision
    ending = run.facts.ending
    return {
        "verdict": decision.verdict.value,
        "check": decision.check.value if decision.check else None,
        "reason": decision.reason,
        "game": decision.place.game,
        "move": decision.place.move,
        "expected": decision.expected,
        "got": decision.got,
        "games_played": run.games_played,
        "seconds": round(run.seconds, 3),
        "coverage": asdict(run.coverage),
        "bead_draws": _evidence_json(run.draw_test),
        "refills": _evidence_json(run.refill_test),
        "not_checked": list(run.not_checked),
        "exit_status": ending.status if ending else None,
        "signal": ending.signal if ending else None,
        "stderr_tail": list(ending.stderr_tail) if ending else [],
        "seed": run.replay.seed,
        "sandbox": _sandbox(run),
        "transcript_tail": list(run.transcript[-20:]),
    }


def json_text(run: Run) -> str:
    """The run's JSON report as text: every string exact, as the program printed it."""
    return json.dumps(report_json(run), indent=2) + "\n"


def _sandbox(run: Run) -> dict[str, Any]:
    """How the run was contained: its level and what that level lacked."""
    ending = run.facts.ending
    contained = ending.containment if ending is not None else None
    if contained is None:
        return {"level": None, "missing": []}
    return {"level": contained.level.value, "missing": list(contained.missing)}


def transcript_text(run: Run) -> str:
    """The transcript as text: `>` judge to program, `<` program to judge."""
    return "\n".join(run.transcript) + "\n"


def shrunk_lines(shrunk: Shrunk, manifest: Manifest, replay_path: Path | None = None,
                 test_path: Path | None = None) -> list[str]:
    """The report of a shrink: the smallest case whole, how it repeats, where it is saved."""
    choices, run = shrunk.choices, shrunk.run
    games, scripted, _ = size(choices)
    lines = ["", f"SHRUNK: from {shrunk.original_games} game(s) to {games} game(s) with "
                 f"{scripted} scripted O move(s), in {shrunk.attempts} runs, {shrunk.seconds:.1f} s",
             f"  {shrunk.repeatability.describe()}"]
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
    lines.append(f"  rejected in {decision.place}: {decision.reason}")
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
        lines.append(f"  replay: python -m judge --replay {replay_path}")
    if test_path is not None:
        lines.append(f"  as a pytest test (saved in {test_path}):")
        lines.extend("    " + line if line else "" for line in
                     test_body(shrunk, manifest, run.replay.seed).splitlines())
    return lines
