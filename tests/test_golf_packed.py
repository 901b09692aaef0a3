"""Every packed answer unpacks to exactly its plain answer, and packing again changes nothing.

The packed answers under `golf/*-packed/` are made by `golf/pack.py` from the plain ones beside
them. Here each is unpacked twice: by the packer's own reading of the file, and by the
language's interpreter itself, with the `eval` (or `exec`) that would run the plain source
turned into a print of it. Packing again, without zopfli (which CI need not have), must give
the committed bytes, and packing from nothing must be deterministic.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:invalid escape sequence:DeprecationWarning")

ROOT = Path(__file__).resolve().parent.parent
INTERPRETER_TIMEOUT = 30.0
"""Seconds an interpreter may take to print a few hundred bytes (it takes a fraction of one)."""


def load_packer() -> ModuleType:
    """golf/pack.py, a script, loaded as a module."""
    spec = importlib.util.spec_from_file_location("golf_pack", ROOT / "golf" / "pack.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


pack = load_packer()
LANGUAGES = [name for name in pack.PACKERS if (ROOT / "golf" / name).is_dir()]

PRINTING = {
    "perl": (("perl",), b"eval uncompress", b"print uncompress"),
    "ruby": (("ruby",), b"eval Zlib", b"print Zlib"),
    "php": (("php",), b"<?=eval('?>'.", b"<?=("),
}
"""Per language: its interpreter, and the packed file's run call with its print replacement."""

NODE_PRINT = "globalThis.eval=s=>process.stdout.write(s)"
"""Loaded before a packed JavaScript answer: its `eval` then prints the plain source."""


def test_every_plain_answer_that_can_unpack_has_a_packed_one() -> None:
    assert {"python", "perl", "ruby", "javascript"} <= set(LANGUAGES)
    for language in LANGUAGES:
        assert pack.packed_path(language).is_file(), language


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_packer_reads_back_the_plain_source(language: str) -> None:
    plain = pack.plain_path(language).read_bytes()
    assert pack.unpacked(language, pack.packed_path(language).read_bytes()) == plain


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_interpreter_unpacks_the_plain_source(language: str, tmp_path: Path) -> None:
    plain = pack.plain_path(language).read_bytes()
    packed = pack.packed_path(language).read_bytes()
    if language == "python":
        shown: list[bytes] = []
        exec(compile(packed, "packed", "exec"), {"exec": shown.append})  # noqa: S102
        assert shown == [plain]
        return
    if language == "javascript":
        command: tuple[str, ...] = ("node", "--require", str(tmp_path / "print.js"))
        (tmp_path / "print.js").write_text(NODE_PRINT, encoding="utf-8")
        script = packed
    else:
        command, call, printing = PRINTING[language]
        assert packed.count(call) == 1
        script = packed.replace(call, printing)
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed")
    source = tmp_path / pack.packed_path(language).name
    source.write_bytes(script)
    done = subprocess.run([*command, str(source)], capture_output=True, check=False,
                          timeout=INTERPRETER_TIMEOUT,
                          stdin=subprocess.DEVNULL)
    assert done.stdout == plain, done.stderr


@pytest.mark.parametrize("language", LANGUAGES)
def test_packing_again_gives_the_same_bytes(language: str) -> None:
    plain = pack.plain_path(language).read_bytes()
    packed = pack.packed_path(language).read_bytes()
    assert pack.packed(language, plain, packed, search=False) == packed
    manifest = (pack.packed_path(language).parent / "submission.toml").read_text(encoding="utf-8")
    assert manifest == pack.packed_manifest(language)


@pytest.mark.e2e
@pytest.mark.parametrize("language", LANGUAGES)
def test_packing_from_nothing_is_deterministic_and_never_beats_the_committed_file(
        language: str) -> None:
    plain = pack.plain_path(language).read_bytes()
    first = pack.packed(language, plain, search=False)
    assert pack.packed(language, plain, search=False) == first
    assert pack.unpacked(language, first) == plain
    assert len(pack.packed_path(language).read_bytes()) <= len(first)


@pytest.mark.e2e
def test_a_stale_packed_answer_is_not_read_back() -> None:
    plain = pack.plain_path("python").read_bytes()
    other = pack.packed("python", plain + b"#", search=False)
    assert pack.unpacked("python", other) == plain + b"#"
    assert pack.packed("python", plain, other, search=False) != other


def test_python_literals_survive_every_byte() -> None:
    data = bytes(range(256)) + b"\\" + b"\x00" + b"7\\'\\"
    literal = pack.python_literal(data)
    assert eval(literal.decode("latin-1")).encode("latin-1") == data


def test_ruby_literals_survive_every_byte_but_a_cr_lf(tmp_path: Path) -> None:
    if shutil.which("ruby") is None:
        pytest.skip("ruby is not installed")
    data = bytes(range(256)) + b"\\" + b"'\\'\\\\\\"
    literal = pack.single_quoted(data)
    script = tmp_path / "literal.rb"
    script.write_bytes(b"#!ruby -Knrzlib\nprint" + literal)
    done = subprocess.run(["ruby", str(script)], capture_output=True, check=False,
                          timeout=INTERPRETER_TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.stdout == data, done.stderr
    assert pack.PACKERS["ruby"](b"\r\n", b"") is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_overview_gives_the_plain_and_packed_sizes(language: str) -> None:
    name = tomllib.loads((ROOT / "golf" / language / "submission.toml").read_text(encoding="utf-8"))
    plain = pack.plain_path(language).stat().st_size
    packed = pack.packed_path(language).stat().st_size
    overview = (ROOT / "golf" / "README.md").read_text(encoding="utf-8")
    assert f"| {name['language']} | {plain} | {packed} |" in overview


def brotli_metadata(data: bytes) -> tuple[int, list[tuple[int, int]]]:
    """The window size a brotli stream starts with, and each metadata block that follows it up
    to the first block that is not metadata: where the block starts (in bytes) and the bytes it
    skips after its header (RFC 7932, bits read from the lowest of each byte)."""
    bits = int.from_bytes(data, "little")
    window = 16 if not bits & 1 else 17 + (bits >> 1 & 7) if bits >> 1 & 7 else 8 + (bits >> 4 & 7)
    position = 1 if not bits & 1 else 4 if bits >> 1 & 7 else 7
    blocks = []
    while bits >> position + 1 & 3 == 3:  # MNIBBLES 0: a metadata block
        start = position // 8
        assert bits >> position & 1 == 0  # not the last block
        assert bits >> position + 3 & 1 == 0  # the reserved bit
        size_bytes = bits >> position + 4 & 3
        position += 6
        skip = (bits >> position & (1 << 8 * size_bytes) - 1) + 1 if size_bytes else 0
        position += 8 * size_bytes
        padding = -position % 8
        assert bits >> position & (1 << padding) - 1 == 0  # zero bits up to the byte boundary
        position += padding + 8 * skip
        blocks.append((start, skip))
    return window, blocks


def test_the_brotli_stub_is_a_brotli_header_that_skips_its_own_code() -> None:
    """Read as brotli, the stub is a window size and metadata blocks that end exactly after it
    and the comment's opening, so brotli decodes the packed JavaScript file whole."""
    stub = pack.JS_BROTLI_STUB
    for opening in (pack.JS_COMMENT[0], pack.JS_BLOCK_COMMENT[0]):
        window, blocks = brotli_metadata(stub + opening)
        assert window == 16
        assert [(start, skip) for start, skip in blocks if skip] == list(pack.JS_BROTLI_SKIPS)
        start, skip = blocks[-1]
        assert start + 2 + skip == len(stub) + len(opening)


@pytest.mark.e2e
def test_brotli_bodies_keep_the_stream_after_its_window_size() -> None:
    plain = pack.plain_path("javascript").read_bytes()
    streams = pack.node_brotli_streams(plain)
    if not streams:
        pytest.skip("node is not installed")
    files = [pack._javascript_brotli(body) for body in pack.brotli_bodies(streams[0])]
    decoded = pack.node_brotli_decoded([f for f in files if f])
    assert plain in decoded
