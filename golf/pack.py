"""Pack a golfed answer: its source compressed with deflate, behind a few bytes that unpack it.

    python3 golf/pack.py LANG       # golf/LANG/<source> -> golf/LANG-packed/<source>
    python3 golf/pack.py --all      # every language that can unpack
    python3 golf/pack.py --check    # exit 1 if a packed answer is stale or would change

The packer tries every zlib setting (level, memory level, strategy), and zopfli when it is
installed (`pip install zopfli`, a search tool only), and keeps the shortest packed file. A
packed answer already in place that unpacks to the same plain source takes part in that
contest: packing again never makes an answer longer, and gives the same bytes on a machine
without zopfli. Ties go to the first candidate in a fixed order, so the result is
deterministic.
"""

from __future__ import annotations

import importlib
import sys
import tomllib
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

GOLF = Path(__file__).resolve().parent
ZOPFLI_ITERATIONS = (15, 50, 100, 250, 500, 1000)


def raw_streams(plain: bytes, zopfli: bool = True) -> Iterator[bytes]:
    """Raw deflate streams of `plain`: every zlib setting, then zopfli's (when installed)."""
    for level in range(1, 10):
        for memory in range(1, 10):
            for strategy in range(5):
                packer = zlib.compressobj(level, zlib.DEFLATED, -15, memory, strategy)
                yield packer.compress(plain) + packer.flush()
    if not zopfli:
        return
    try:
        zopfli_module = importlib.import_module("zopfli.zopfli")
    except ImportError:
        return
    for iterations in ZOPFLI_ITERATIONS:
        for splitting in (0, 1):
            stream = zopfli_module.compress(plain, numiterations=iterations, blocksplitting=splitting)
            yield bytes(stream[2:-4])


def zlib_stream(raw: bytes, plain: bytes) -> bytes:
    """The raw stream in zlib's container: a 2-byte header (32 KB window) and the Adler-32."""
    return b"\x78\xda" + raw + zlib.adler32(plain).to_bytes(4, "big")


def python_literal(data: bytes) -> bytes:
    """A Python string literal (source in latin-1) holding `data`, with the fewest escapes."""
    def one(quote: bytes) -> bytes:
        out = bytearray(quote)
        for i, byte in enumerate(data):
            after = data[i + 1:i + 2]
            if byte == 0:
                out += b"\\000" if after.isdigit() else b"\\0"
            elif byte == 0x0A:
                out += b"\\n"
            elif byte == 0x0D:
                out += b"\\r"
            elif bytes([byte]) == quote:
                out += b"\\" + quote
            elif byte == 0x5C and (after == b"" or after in b"\\'\"\n\r\0abfnrtvxNuU01234567"):
                out += b"\\\\"
            else:
                out.append(byte)
        return bytes(out + quote)
    return min(one(b"'"), one(b'"'), key=len)


def single_quoted(data: bytes) -> bytes:
    """A single-quoted string in Perl or PHP: only a quote, or a backslash before one, is escaped."""
    out = bytearray(b"'")
    for i, byte in enumerate(data):
        after = data[i + 1:i + 2]
        if byte == 0x27 or (byte == 0x5C and after in (b"", b"'", b"\\")):
            out.append(0x5C)
        out.append(byte)
    return bytes(out + b"'")


PackedForm = Callable[[bytes, bytes], bytes | None]
"""How one language unpacks: the packed file from (raw stream, plain source), or None where
the stream cannot sit in that file."""


def _python(raw: bytes, plain: bytes) -> bytes:
    return (b"#coding:L1\nimport zlib;exec(zlib.decompress(bytes("
            + python_literal(raw) + b",'L1')," + window_bits(raw, plain) + b"))")


def window_bits(raw: bytes, plain: bytes) -> bytes:
    """The shortest `wbits` that inflates `raw` to `plain`: -9 (a 512-byte window), else -15."""
    try:
        if zlib.decompress(raw, -9) == plain:
            return b"-9"
    except zlib.error:
        pass
    return b"-15"


def _perl(raw: bytes, plain: bytes) -> bytes:
    return b"use Compress::Zlib;eval uncompress " + single_quoted(zlib_stream(raw, plain))


def _ruby(raw: bytes, plain: bytes) -> bytes | None:
    """The stream in single quotes, read as binary (`-Kn`) with zlib loaded (`-rzlib`) by the
    switches of the `#!` line; Ruby reads a CR LF in a literal as LF, so none may appear."""
    literal = single_quoted(zlib_stream(raw, plain))
    return None if b"\r\n" in literal else b"#!ruby -Knrzlib\neval Zlib.inflate" + literal


def _php(raw: bytes, plain: bytes) -> bytes:
    return b"<?=eval('?>'.gzinflate(" + single_quoted(raw) + b"));"


JS_STUB = "eval(''+require('zlib').inflateRawSync(require('fs').readFileSync(__filename).slice({})))//"


def _javascript(raw: bytes, plain: bytes) -> bytes | None:
    """The stream after a line comment: it must hold no line terminator."""
    if any(t in raw for t in (b"\n", b"\r", "\u2028".encode(), "\u2029".encode())):
        return None
    offset = len(JS_STUB.format(0))
    while len(JS_STUB.format(offset)) != offset:
        offset = len(JS_STUB.format(offset))
    stub = JS_STUB.format(offset)
    return stub.encode() + raw


PACKERS: dict[str, PackedForm] = {
    "python": _python,
    "perl": _perl,
    "ruby": _ruby,
    "javascript": _javascript,
    "php": _php,
}


def source_name(folder: Path) -> str:
    """The scored source file named by a folder's manifest."""
    manifest = tomllib.loads((folder / "submission.toml").read_text(encoding="utf-8"))
    return str(manifest["source"])


def plain_path(language: str) -> Path:
    """The plain answer's source."""
    folder = GOLF / language
    return folder / source_name(folder)


def packed_path(language: str) -> Path:
    """The packed answer's source: same file name, in `LANG-packed`."""
    return GOLF / f"{language}-packed" / plain_path(language).name


def packed_manifest(language: str) -> str:
    """The packed answer's manifest: the plain one's, its language marked as packed."""
    text = (GOLF / language / "submission.toml").read_text(encoding="utf-8")
    name = tomllib.loads(text)["language"]
    return text.replace(f'language = "{name}"', f'language = "{name}, packed"', 1)


def packed(language: str, plain: bytes, current: bytes | None = None, zopfli: bool = True) -> bytes:
    """The shortest packed file for `plain`; `current`, if it unpacks to `plain`, competes."""
    form = PACKERS[language]
    candidates = [f for f in (form(raw, plain) for raw in raw_streams(plain, zopfli)) if f]
    if current is not None and unpacked(language, current) == plain:
        candidates.insert(0, current)
    if not candidates:
        raise SystemExit(f"pack: no stream fits {language}'s packed form")
    return min(candidates, key=len)


def unpacked(language: str, packed_file: bytes) -> bytes | None:
    """The plain source a packed file unpacks to, read back the way the packer wrote it."""
    for raw in _streams_in(language, packed_file):
        try:
            plain = zlib.decompress(raw, -15)
        except zlib.error:
            continue
        if PACKERS[language](raw, plain) == packed_file:
            return plain
    return None


def _streams_in(language: str, packed_file: bytes) -> Iterator[bytes]:
    """The raw stream inside a packed file, by decoding its string as the language does."""
    if language == "python":
        import ast
        tree = ast.parse(packed_file.decode("latin-1").split("\n", 1)[1])
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) > 2:
                yield node.value.encode("latin-1")
    elif language in ("perl", "php", "ruby"):
        opening = b"gzinflate('" if language == "php" else b"'"
        start = packed_file.index(opening) + len(opening)
        body = packed_file[start:packed_file.rindex(b"'")]
        text = bytearray()
        i = 0
        while i < len(body):
            if body[i] == 0x5C and body[i + 1:i + 2] in (b"'", b"\\"):
                i += 1
            text.append(body[i])
            i += 1
        yield bytes(text) if language == "php" else bytes(text)[2:-4]
    elif language == "javascript":
        yield packed_file[packed_file.index(b"//") + 2:]


def main(argv: list[str]) -> int:
    """Pack the languages named in `argv`; with --check, only report what would change."""
    check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")]
    languages = [n for n in PACKERS if (GOLF / n).is_dir()] if "--all" in argv or check else names
    unknown = [n for n in languages if n not in PACKERS]
    if unknown or not languages:
        problem = f"no packer for {', '.join(map(repr, unknown))}" if unknown else "nothing to pack"
        print(f"pack: {problem}: name one of {', '.join(PACKERS)}, or --all, or --check",
              file=sys.stderr)
        return 2
    stale = 0
    for language in languages:
        target = packed_path(language)
        current = target.read_bytes() if target.is_file() else None
        plain = plain_path(language).read_bytes()
        result = packed(language, plain, current)
        manifest = packed_manifest(language)
        manifest_path = target.parent / "submission.toml"
        old_manifest = manifest_path.read_text(encoding="utf-8") if manifest_path.is_file() else ""
        if result != current or manifest != old_manifest:
            stale += 1
            if not check:
                target.parent.mkdir(exist_ok=True)
                target.write_bytes(result)
                manifest_path.write_text(manifest, encoding="utf-8")
        print(f"{language}: plain {len(plain)} bytes, packed {len(result)} bytes"
              + (" (changed)" if result != current or manifest != old_manifest else ""))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
