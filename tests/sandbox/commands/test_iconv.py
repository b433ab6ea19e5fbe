"""iconv: differential tests against glibc 2.36's iconv (bytes, exit status, stderr, files)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

ENCODINGS = [
    "UTF-8", "utf8", "ASCII", "US-ASCII", "ansi_x3.4-1968", "ISO-8859-1", "latin1", "L1", "ISO_8859-2",
    "iso-8859-3", "ISO8859-4", "ISO-8859-5", "ISO-8859-6", "greek", "ISO-8859-8", "LATIN5",
    "ISO-8859-10", "ISO-8859-11", "ISO-8859-13", "ISO-8859-14", "latin-9", "ISO-8859-16",
    "CP1252", "windows-1252", "UTF-16", "UTF-16LE", "utf-16be", "UTF-32", "UTF-32LE", "UTF32BE",
]
PIECES = ["a", "Z", " ", "\n", "\t", "é", "ü", "Å", "ñ", "ç", "Œ", "ł", "Ş", "ő", "ß", "€", "£",
          "“", "”", "‘", "’", "—", "–", "…", "•", "™", "©", "½", "Ж", "ж", "Ω", "α", "ש", "ع", "ก",
          "中", "文", "😀", "🎉", "\u00a0", "\u200b", "\ufeff", "x\u0301", "ﬁ", "Ǆ", "ǅ", "ẞ",
          "hello", "memory", "café", "naïve", "12", "\x00", "\x7f", "\x85"]
BAD = [b"\xff", b"\xc3", b"\xe2\x80", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\x80",
       b"\xf8\x88\x80\x80\x80", b"\xfe", b"\xe0\x80\x80", b"\xc3x"]
SUFFIXES = ["", "", "//TRANSLIT", "//IGNORE", "//TRANSLIT//IGNORE", "//translit", "//TRANSLIT,IGNORE"]


def gen_source(rng: random.Random, source: str) -> bytes:
    """Random text in ``source`` (characters it lacks are left out), with invalid bytes now and
    then, sometimes cut short."""
    text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 30)))
    name = source.upper().replace("_", "-")
    if name in ("UTF-8", "UTF8"):
        data = bytearray()
        for ch in text:
            data += ch.encode()
            if rng.random() < 0.04:
                data += rng.choice(BAD)
        data = bytes(data)
    else:
        codec = {"ANSI-X3.4-1968": "ascii", "US-ASCII": "ascii", "L1": "latin1", "GREEK": "iso8859_7",
                 "LATIN5": "iso8859_9", "LATIN-9": "iso8859_15", "WINDOWS-1252": "cp1252",
                 "UTF32BE": "utf-32-be", "UTF-16": "utf-16", "UTF-32": "utf-32"}.get(name, name)
        data = text.encode(codec, "ignore")
        if rng.random() < 0.15 and data:
            data = data + bytes([rng.randrange(256)])
        if rng.random() < 0.1 and data:
            pos = rng.randrange(len(data))
            data = data[:pos] + bytes([rng.randrange(256)]) + data[pos:]
    if rng.random() < 0.05 and data:
        data = data[: rng.randrange(len(data))]
    return data


def make_case(rng: random.Random) -> tuple[list[str], bytes, dict[str, bytes] | None]:
    """One generated command line: random pair, suffix, -c, files or stdin, -o."""
    source = rng.choice(ENCODINGS[:12] if rng.random() < 0.5 else ENCODINGS)
    target = rng.choice(ENCODINGS)
    argv = ["iconv"]
    if rng.random() < 0.9:
        argv += ["-f", source] if rng.random() < 0.7 else [f"--from-code={source}"]
    else:
        source = "UTF-8"
    if rng.random() < 0.9:
        argv += ["-t", target + rng.choice(SUFFIXES)]
    if rng.random() < 0.25:
        argv.append("-c")
    data = gen_source(rng, source)
    files = None
    stdin = b""
    mode = rng.random()
    if mode < 0.4:
        stdin = data
    else:
        files = {"in1": data, "in2": gen_source(rng, source)}
        argv += rng.choice([["in1"], ["in1", "in2"], ["in2", "-", "in1"], ["in1", "nope", "in2"]])
        stdin = gen_source(rng, source)
    if rng.random() < 0.2:
        argv += ["-o", "out"]
    return argv, stdin, files


@pytest.mark.parametrize("seed", range(8))
def test_generated(seed: int) -> None:
    """300 generated conversions (40 per seed) over every pair, suffix and option."""
    tcs.sweep(make_case, seed, cases=40)


TEXT = "café “quoted” — dash… 😀 Ærø Łódź ß ½ € ™ ﬁ\n".encode()

LINES = [
    "-f utf-8 -t ascii", "-f utf-8 -t ascii//TRANSLIT", "-c -f utf-8 -t ascii", "-t ascii//IGNORE",
    "-t latin1//TRANSLIT", "-t iso-8859-15//TRANSLIT", "-t cp1252", "-t UTF-16", "-t UTF-32",
    "-f utf8 -t utf8", "-f foo -t bar", "-f foo", "-t bar", "-f ''", "-t 'utf 8'", "-t ascii/",
    "-t ascii//foo", "-f utf8//TRANSLIT -t ascii", "-z", "--frob", "-f", "--fr utf8 -t ascii",
    "--help", "--usage", "-V", "--version", "-?", "-s -t ascii//TRANSLIT", "--verbose -t ascii",
    "-t ISO-10646/UTF8/", "-t ISO_646.IRV:1991//TRANSLIT", "-t windows-1252//translit",
]


@pytest.mark.parametrize("args", LINES, ids=repr)
def test_lines(args: str) -> None:
    tcs.line(f"iconv {args}", stdin=TEXT)


FILES = {"f1": b"caf\xc3\xa9", "f2": b"b", "bad": b"a\xffb", "cut": b"a\xe2\x80", "e": b"",
         "u16": b"\xff\xfea\x00\xe9\x00", "u16be": b"\xfe\xff\x00a", "odd": b"a\x00b",
         "nob": b"b\x00", "u32be": b"\x00\x00\xfe\xff\x00\x00\x00a", "u32": b"b\x00\x00\x00"}

FILE_LINES = [
    "-f utf8 -t ascii f1 f2", "-c -f utf8 -t ascii f1 f2", "-c -f utf8 -t ascii - f2",
    "-t ascii nope", "-t ascii nope f2", "-t ascii bad f2", "-c -t ascii bad f2", "-t latin1 cut",
    "-c -t latin1 cut f2", "-t utf-16 e", "-t utf-16 e f2", "-t utf-16 f2 f2", "-f utf-16 -t utf8 u16 u16be",
    "-f utf-16 -t utf8 odd", "-f utf-16le -t utf8 u16", "-t ascii -o out f1", "-t ascii//TRANSLIT -o out f1 f2",
    "-t ascii -o out e", "-c -t ascii -o out bad", "-o - -t latin1 f1", "--verbose -t ascii f1 - f2",
    "-t ascii//IGNORE f1 f2", "-t ascii -o f2 f2", "-f latin1 -t utf8 bad cut",
    "-t latin1 e -", "-t latin1 - e", "-t latin1 e e f1", "-t latin1 - -", "-c -t latin1 e - f2",
    "-t latin1 f1 e f2 -", "-f utf-16 -t utf8 u16be nob", "-f utf-16 -t utf8 u16be u16 nob",
    "-f utf-16 -t utf8 nob u16be nob", "-f utf-32 -t utf8 u32be u32", "-f utf-32 -t utf8 u32 u32be u32",
]


@pytest.mark.parametrize("args", FILE_LINES, ids=repr)
def test_files(args: str) -> None:
    tcs.line(f"iconv {args}", stdin=b"\xc3\xa9", files=FILES)


def test_translit_into_utf16_repeats_the_bom() -> None:
    data = b"a\xf4\x90\x80\x80b\xf8\x88\x80\x80\x80"
    for target in ("UTF-16//TRANSLIT", "UTF-32//TRANSLIT", "UTF-16LE//TRANSLIT", "UTF-8//TRANSLIT"):
        tcs.compare(["iconv", "-t", target], stdin=data)


@pytest.mark.parametrize("args", ["-c -t utf-16", "-t utf-16", "-c -f utf-16 -t ascii", "-c -t utf-32",
                                  "-t utf-16//IGNORE", "-c -t utf-16 - f"])
@pytest.mark.parametrize("data", [b"\xff", b"\xffa", b"a\xff", b"\xe2\x82", b"", b"\xff\xfe"])
def test_bom_only_with_a_character(args: str, data: bytes) -> None:
    tcs.line(f"iconv {args}", stdin=data, files={"f": b"\xff"})


def test_directory_operand() -> None:
    tcs.compare(["iconv", "-t", "ascii", "d", "f"], files={"f": b"x"}, dirs=["d"])
    tcs.compare(["iconv", "-o", "d", "f"], files={"f": b"x"}, dirs=["d"])


RANGES = [(0xA0, 0x250), (0x2000, 0x2070)]
TARGETS = ["ASCII", "ISO-8859-1", "ISO-8859-2", "ISO-8859-5", "ISO-8859-7", "ISO-8859-15", "CP1252"]


@pytest.mark.parametrize("target", TARGETS)
def test_translit_ranges(target: str) -> None:
    """Every character of U+00A0..U+024F and U+2000..U+206F, one a line, transliterated."""
    text = "".join(chr(c) + "\n" for lo, hi in RANGES for c in range(lo, hi)).encode()
    tcs.compare(["iconv", "-f", "UTF-8", "-t", target + "//TRANSLIT"], stdin=text)
    tcs.compare(["iconv", "-c", "-f", "UTF-8", "-t", target], stdin=text)


def test_translit_wide() -> None:
    """A wider sample: every 7th BMP character and some astral ones."""
    cps = [c for c in range(0x80, 0x30000, 7) if not 0xD800 <= c < 0xE000]
    text = "".join(chr(c) + "\n" for c in cps).encode()
    for target in ("ASCII", "ISO-8859-1", "ISO-8859-9"):
        tcs.compare(["iconv", "-t", target + "//TRANSLIT"], stdin=text)


def test_all_bytes_single_byte_charsets() -> None:
    data = bytes(range(256))
    for source in ("ASCII", "ISO-8859-3", "ISO-8859-6", "ISO-8859-11", "CP1252"):
        tcs.compare(["iconv", "-c", "-f", source, "-t", "UTF-8"], stdin=data)
        tcs.compare(["iconv", "-f", source, "-t", "UTF-16"], stdin=data)


@pytest.mark.parametrize("args", ["-t latin1//IGNORE", "-c -t ascii", "-t ascii//TRANSLIT",
                                  "-t utf-16", "-c -t latin1 -o out", "-t ascii//TRANSLIT//IGNORE"])
def test_large_input(args: str) -> None:
    """Inputs past glibc's 32 KiB output buffer, with invalid bytes and unconvertible text."""
    rng = random.Random(args)
    body = bytearray()
    while len(body) < 120_000:
        body += rng.choice(PIECES).encode()
        if rng.random() < 0.01:
            body += rng.choice(BAD[:2])
    tcs.line(f"iconv {args}", stdin=bytes(body))


ROUNDS = {
    "translit-then-skip": "€".encode() + b"a" * 9000 + b"\xff" + b"b" * 10,
    "skip-then-translit": b"\xff" + b"a" * 9000 + "€".encode() + b"b" * 10,
    "skip-first-round": b"\xff" + b"a" * 9000,
    "skip-at-boundary": b"a" * 8160 + b"\xff" + b"b",
    "skip-at-boundary-end": b"a" * 8160 + b"\xff",
    "later-round-drops-all": b"a" * 8000 + b"\xff" + b"a" * 200 + "€".encode() * 8200,
    "drops-then-skip": "€".encode() * 8200 + b"\xff" + "€".encode() * 10,
    "drops-then-incomplete": b"a" * 10 + "€".encode() + b"\xe2\x82",
}


@pytest.mark.parametrize("name", sorted(ROUNDS))
@pytest.mark.parametrize("args", ["-t latin1//TRANSLIT//IGNORE", "-t latin1//IGNORE", "-c -t latin1",
                                  "-c -t ascii//TRANSLIT"])
def test_ignore_rounds(name: str, args: str) -> None:
    """glibc's status after skipping depends on its 8160-character rounds."""
    tcs.line(f"iconv {args}", stdin=ROUNDS[name])


def test_list_is_refused_in_one_line() -> None:
    from sandbox.commands.testing import run_command
    code, out, err = run_command(["iconv", "-l"])
    assert (code, out) == (1, b"") and err.count(b"\n") == 1
