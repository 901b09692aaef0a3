"""Pack a golfed answer: its source compressed, behind a few bytes that unpack it.

    python3 golf/pack.py LANG       # golf/LANG/<source> -> golf/LANG-packed/<source>
    python3 golf/pack.py --all      # every language that can unpack
    python3 golf/pack.py --check    # exit 1 if a packed answer is stale or would change

The packer tries every zlib setting (level, memory level, strategy) for a deflate stream; its
searches add zopfli when it is installed (`pip install zopfli`, a search tool only) and, for
JavaScript, whose Node.js decodes brotli as well, every setting of Node's brotli encoder. It
keeps the shortest packed file. A packed answer already in place that unpacks to the same plain
source takes part in that contest: packing again never makes an answer longer, and gives the
same bytes without the searches. Ties go to the first candidate in a fixed order, so the result
is deterministic.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tomllib
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

GOLF = Path(__file__).resolve().parent
ZOPFLI_ITERATIONS = (15, 50, 100, 250, 500, 1000)
NODE_TIMEOUT = 120.0
"""Seconds Node may take to search its brotli settings for one source (a few, on a busy machine)."""


def raw_streams(plain: bytes, search: bool = True) -> Iterator[bytes]:
    """Raw deflate streams of `plain`: every zlib setting, then, when `search` is on, zopfli's
    (where it is installed)."""
    for level in range(1, 10):
        for memory in range(1, 10):
            for strategy in range(5):
                packer = zlib.compressobj(level, zlib.DEFLATED, -15, memory, strategy)
                yield packer.compress(plain) + packer.flush()
    if not search:
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


JS_DEFLATE_STUB = "eval(''+(r=require)('zlib').inflateRawSync(r('fs').readFileSync(__filename).slice({})))"
JS_BROTLI_STUB = (b"\fV\v=require,eval(V('zlib').brotliDecompressSync( V\t('fs')"
                  b".readFileSync(__filename))+'')")
"""Both as bytes and as brotli (RFC 7932). To JavaScript, the form feed and the two other
white-space bytes are spaces. To brotli, the form feed is a window of 64 KB and an empty
metadata block; each `V` starts a metadata block whose length is in the next byte, 46 bytes
after the vertical tab and 38 after the tab, so brotli skips the code and the comment's opening
in two blocks and decodes the answer's whole file. (The space before the second `V` puts it
where the first block ends.)"""
JS_BROTLI_SKIPS = ((1, 46), (49, 38))
"""Each metadata block of the stub: where it starts in the file, and the bytes it skips after
its two header bytes."""
JS_LINE_ENDS = (b"\n", b"\r", "\u2028".encode(), "\u2029".encode())
JS_COMMENT = (b"//", b"")
JS_BLOCK_COMMENT = (b"/*", b"*/")


def _javascript_comment(raw: bytes) -> tuple[bytes, bytes] | None:
    """The comment the stream can sit in: a line comment where it holds no line terminator,
    else a block comment where it holds no `*/`, else none."""
    if not any(t in raw for t in JS_LINE_ENDS):
        return JS_COMMENT
    return None if b"*/" in raw else JS_BLOCK_COMMENT


def _javascript(raw: bytes, plain: bytes) -> bytes | None:
    """The deflate stub, then the stream in a comment; the stub reads it from its own file."""
    comment = _javascript_comment(raw)
    if comment is None:
        return None
    offset = 0
    while len(JS_DEFLATE_STUB.format(offset)) + len(comment[0]) != offset:
        offset = len(JS_DEFLATE_STUB.format(offset)) + len(comment[0])
    return JS_DEFLATE_STUB.format(offset).encode() + comment[0] + raw + comment[1]


def _javascript_brotli(body: bytes) -> bytes | None:
    """The brotli stub, then the rest of a brotli stream (see `brotli_bodies`) in a comment."""
    comment = _javascript_comment(body)
    return None if comment is None else JS_BROTLI_STUB + comment[0] + body + comment[1]


def brotli_bodies(stream: bytes) -> list[bytes]:
    """A brotli stream without its window size (the stub gives one): the bits after it moved
    down to start a byte, ending at its last byte that is not zero, or one or two zeros later
    (the decoder may read those)."""
    value = int.from_bytes(stream, "little")
    header = 1 if not value & 1 else 4 if value >> 1 & 7 else 7
    body = (value >> header).to_bytes(len(stream), "little").rstrip(b"\0")
    return [body, body + b"\0", body + b"\0\0"]


def _javascript_unpacked(packed_file: bytes) -> bytes | None:
    """The plain source of a packed JavaScript answer: inflated from behind the deflate stub,
    or the whole file decoded as brotli, as the brotli stub decodes it."""
    if packed_file.startswith(JS_BROTLI_STUB):
        start = len(JS_BROTLI_STUB) + 2
        block = packed_file[start - 2:start] == JS_BLOCK_COMMENT[0]
        body = packed_file[start:-2] if block else packed_file[start:]
        plain = node_brotli_decoded([packed_file])[0]
        return plain if plain is not None and _javascript_brotli(body) == packed_file else None
    stub = JS_DEFLATE_STUB.split("slice(")[0].encode()
    if not packed_file.startswith(stub):
        return None
    start = packed_file.index(b")))", len(stub)) + 5
    block = packed_file[start - 2:start] == JS_BLOCK_COMMENT[0]
    raw = packed_file[start:-2] if block else packed_file[start:]
    plain = _inflated(raw)
    return plain if plain is not None and _javascript(raw, plain) == packed_file else None


def _javascript_brotli_candidates(plain: bytes) -> list[bytes]:
    """Packed files with the brotli stub, from every stream of Node's encoder, that Node
    decodes to `plain`."""
    files = [f for stream in node_brotli_streams(plain) for body in brotli_bodies(stream)
             if (f := _javascript_brotli(body))]
    return [f for f, text in zip(files, node_brotli_decoded(files), strict=True) if text == plain]


def _inflated(raw: bytes) -> bytes | None:
    try:
        return zlib.decompress(raw, -15)
    except zlib.error:
        return None


NODE_BROTLI_SEARCH = """
const z=require('zlib'),P=z.constants,plain=require('fs').readFileSync(0),seen=new Set;
for(const mode of [0,1,2])for(let lgwin=10;lgwin<25;lgwin++)for(const postfix of [0,1,2,3])
for(const direct of [0,1,4,15])for(const flat of [0,1]){
  const stream=z.brotliCompressSync(plain,{params:{[P.BROTLI_PARAM_QUALITY]:11,
    [P.BROTLI_PARAM_MODE]:mode,[P.BROTLI_PARAM_LGWIN]:lgwin,[P.BROTLI_PARAM_NPOSTFIX]:postfix,
    [P.BROTLI_PARAM_NDIRECT]:direct<<postfix,
    [P.BROTLI_PARAM_DISABLE_LITERAL_CONTEXT_MODELING]:flat}}).toString('hex');
  if(!seen.has(stream))seen.add(stream),console.log(stream)}
"""
"""Prints, one per line in hexadecimal, the distinct brotli streams of stdin over Node's encoder
settings: mode, window, distance postfix bits and direct distance codes, literal context
modelling on and off, all at the best quality."""

NODE_BROTLI_DECODE = """
for(const line of require('fs').readFileSync(0,'latin1').split('\\n').filter(l=>l))
  try{console.log('='+require('zlib').brotliDecompressSync(Buffer.from(line,'hex')).toString('hex'))}
  catch(e){console.log('-')}
"""
"""Decodes each line of stdin, a brotli file in hexadecimal, as the answer does; prints `=` and
the result in hexadecimal, or `-` where it cannot be decoded."""


def node_brotli_streams(plain: bytes) -> list[bytes]:
    """Brotli streams of `plain` from Node's own encoder (none where Node is missing)."""
    found = _node(NODE_BROTLI_SEARCH, plain)
    return [] if found is None else [bytes.fromhex(line) for line in found.split()]


def node_brotli_decoded(files: list[bytes]) -> list[bytes | None]:
    """Each file decoded by Node's brotli decoder, as the answer decodes itself (None where it
    cannot be, or where Node is missing)."""
    found = _node(NODE_BROTLI_DECODE, b"".join(f.hex().encode() + b"\n" for f in files))
    lines = found.split() if found is not None else []
    if len(lines) != len(files):
        lines = ["-"] * len(files)
    return [None if line == "-" else bytes.fromhex(line[1:]) for line in lines]


def _node(script: str, stdin: bytes) -> str | None:
    """What a Node script prints for `stdin`, or None where Node is missing or fails."""
    try:
        done = subprocess.run(["node", "-e", script], input=stdin, check=True,
                              capture_output=True, timeout=NODE_TIMEOUT)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode()


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


def packed(language: str, plain: bytes, current: bytes | None = None, search: bool = True) -> bytes:
    """The shortest packed file for `plain`; `current`, if it unpacks to `plain`, competes.
    `search` adds the slow searches: zopfli, and for JavaScript Node's brotli encoder."""
    form = PACKERS[language]
    candidates = [f for f in (form(raw, plain) for raw in raw_streams(plain, search)) if f]
    if language == "javascript" and search:
        candidates += _javascript_brotli_candidates(plain)
    if current is not None and unpacked(language, current) == plain:
        candidates.insert(0, current)
    if not candidates:
        raise SystemExit(f"pack: no stream fits {language}'s packed form")
    return min(candidates, key=len)


def unpacked(language: str, packed_file: bytes) -> bytes | None:
    """The plain source a packed file unpacks to, read back the way the packer wrote it."""
    if language == "javascript":
        return _javascript_unpacked(packed_file)
    for raw in _streams_in(language, packed_file):
        plain = _inflated(raw)
        if plain is not None and PACKERS[language](raw, plain) == packed_file:
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
