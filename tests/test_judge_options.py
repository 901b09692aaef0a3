"""The judge's options: parsed once into closed vocabularies, with every default in one place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixture_folders import assembled

from judge.cli import build_parser, main, settings_from
from judge.running.launch import limits_for
from judge.terms import options
from judge.terms.manifest import Manifest, ManifestError, parse_manifest
from judge.terms.options import (
    BeadFormat,
    OpponentKind,
    OptionError,
    RefillRule,
    Transport,
    TransportSource,
    parse,
)
from judge.terms.replay import Replay, ReplayError, parse_replay, replay_text
from judge.terms.settings import Settings


def settings_for(argv: list[str], manifest: Manifest, replay: Replay | None = None) -> Settings:
    """The settings the command line gives for these arguments and this manifest."""
    return settings_from(build_parser().parse_args(argv), manifest, 7, replay)


def test_a_choice_is_parsed_or_named_with_every_alternative() -> None:
    assert parse(Transport, "pipe", "transport") is Transport.PIPE
    assert parse(BeadFormat, "1-9", "beads") is BeadFormat.ONE_TO_NINE
    with pytest.raises(OptionError, match="refill must be one of on-empty, on-draw, not 'never'"):
        parse(RefillRule, "never", "refill")


def test_the_command_line_defaults_are_the_settings_defaults() -> None:
    """With no options, the command line gives exactly the settings' own defaults."""
    got = settings_for([], Manifest(command=("menace",)))
    assert got == Settings(seed=7)
    assert got.games == options.GAMES and got.opponent is OpponentKind.MIXED
    assert got.cpu_seconds == options.time_limit(options.GAMES)
    assert got.wall_seconds == options.wall_cap(got.cpu_seconds) > 2 * got.cpu_seconds
    limits = limits_for(got)
    assert limits.cpu_seconds == int(got.cpu_seconds) + 1
    assert limits.cpus == options.CPUS
    assert (limits.memory_mb, limits.output_bytes) == (options.MEMORY_MB,
                                                         options.output_limit(options.GAMES))


def test_the_limits_follow_the_number_of_games_and_the_options() -> None:
    got = settings_for(["--games", "10", "--time-limit", "5", "--output-limit", "2",
                        "--memory-limit", "300"], Manifest(command=("menace",)))
    assert (got.cpu_seconds, limits_for(got).cpu_seconds) == (5, 6)
    assert (limits_for(got).output_bytes, limits_for(got).memory_mb) == (2 << 20, 300)
    assert limits_for(settings_for(["--games", "10"], Manifest(command=("m",)))).output_bytes == \
        options.output_limit(10)


def test_a_manifest_may_lower_the_memory_limit_but_never_raise_it() -> None:
    """The command line's (or the default) memory limit is a ceiling for the submission."""
    asks_more = Manifest(command=("menace",), memory_mb=1 << 20)
    assert settings_for(["--memory-limit", "512"], asks_more).memory_mb == 512
    assert settings_for([], asks_more).memory_mb == options.MEMORY_MB
    asks_less = Manifest(command=("menace",), memory_mb=128)
    assert settings_for(["--memory-limit", "512"], asks_less).memory_mb == 128


def test_the_transport_comes_from_the_flag_then_the_replay_then_the_manifest() -> None:
    piped = Manifest(command=("menace",), transport=Transport.PIPE)
    assert (settings_for([], piped).transport, settings_for([], piped).transport_source) == \
        (Transport.PIPE, TransportSource.MANIFEST)
    flagged = settings_for(["--transport", "pty"], piped)
    assert (flagged.transport, flagged.transport_source) == (Transport.PTY,
                                                             TransportSource.COMMAND_LINE)
    replay = Replay(seed=1, games=2, opponent=OpponentKind.RANDOM, transport=Transport.PTY,
                    moves=((), ()))
    replayed = settings_for([], piped, replay)
    assert (replayed.transport, replayed.transport_source) == (Transport.PTY,
                                                               TransportSource.REPLAY)
    plain = settings_for([], Manifest(command=("menace",)))
    assert (plain.transport, plain.transport_source) == (options.TRANSPORT, TransportSource.DEFAULT)


def test_a_manifest_declares_its_transport_or_leaves_it_open() -> None:
    assert parse_manifest('command = ["m"]\ntransport = "pipe"\n').transport is Transport.PIPE
    assert parse_manifest('command = ["m"]\n').transport is None
    with pytest.raises(ManifestError, match="transport must be one of pty, pipe, not 'socket'"):
        parse_manifest('command = ["m"]\ntransport = "socket"\n')


def test_a_replay_keeps_its_choices_and_names_an_unknown_one() -> None:
    text = replay_text(Replay(seed=1, games=1, opponent=OpponentKind.PERFECT,
                              transport=Transport.PIPE, moves=((4,),)))
    replay = parse_replay(text)
    assert (replay.opponent, replay.transport) == (OpponentKind.PERFECT, Transport.PIPE)
    data = json.loads(text)
    with pytest.raises(ReplayError, match="'opponent' must be one of random, perfect"):
        parse_replay(json.dumps({**data, "opponent": "grandmaster"}))


@pytest.mark.e2e
def test_the_report_header_says_which_transport_won(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reference's manifest asks for pipes: honoured, and said so, unless the flag overrides."""
    reference = assembled("accepted/reference", tmp_path)
    assert main(["--games", "2", "--seed", "1", "--idle-limit", "10", str(reference)]) == 0
    assert "transport pipe (from the manifest)" in capsys.readouterr().out.splitlines()[0]
    assert main(["--games", "2", "--seed", "1", "--transport", "pty", str(reference)]) == 0
    assert "transport pty (from the command line)" in capsys.readouterr().out.splitlines()[0]
