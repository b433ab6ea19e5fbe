"""Differential tests of gzip, gunzip and zcat against GNU gzip 1.12.

Every case runs the real tool and ours on identical directories (``files_support``) and
compares stdout, stderr, exit status, the resulting files and their mtimes. Generated cases:
compression at every level of random, repetitive, binary, JSON-lines and edge inputs (bytes
must be GNU's), decompression of GNU's output (single and multi-member, trailing garbage and
zeros), truncated and corrupted inputs. Hand-written cases cover every option and message.
The bomb and read-only cases go through the ``Sandbox`` API.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402


def _why_no_gzip() -> str | None:
    path = shutil.which("gzip", path=fs.ENV["PATH"])
    if path is None:
        return "reference tool 'gzip' is not installed"
    out = subprocess.run([path, "--version"], capture_output=True, env=fs.ENV).stdout
    if not out.startswith(b"gzip 1.12\n"):
        return "reference gzip is not GNU gzip 1.12"
    return None


REASON = _why_no_gzip()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

WORDS = "alpha beta gamma memory note pricing user assistant the of and to in is 42".split()


def _mtimes(root: Path) -> dict[str, int]:
    found = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            full = os.path.join(dirpath, name)
            found[os.path.relpath(full, root)] = os.stat(full).st_mtime_ns
    return found


def run_both(argv: list[str], tree: fs.Tree, stdin: bytes = b"",
             env: dict[str, str] | None = None) -> tuple[tuple, tuple]:
    """(code, stdout, stderr, files, mtimes) of GNU's run and of ours."""
    with tempfile.TemporaryDirectory(prefix="ref") as a, tempfile.TemporaryDirectory(prefix="our") as b:
        ref_root, our_root = Path(a), Path(b)
        fs.build(ref_root, tree)
        fs.build(our_root, tree)
        ref = subprocess.run(argv, input=stdin, capture_output=True, cwd=ref_root,
                             env={**fs.ENV, **(env or {})}, timeout=60)
        vfs = VirtualFS({fs.MOUNT: LocalDir(our_root)})
        code, out, err = run_command(argv, stdin=stdin, fs=vfs, cwd=fs.MOUNT,
                                     env={"TZ": "UTC", **(env or {})})
        return ((ref.returncode, ref.stdout, ref.stderr, fs.snapshot(ref_root), _mtimes(ref_root)),
                (code, out, err, fs.snapshot(our_root), _mtimes(our_root)))


def diff(argv: list[str], tree: fs.Tree, stdin: bytes = b"",
         env: dict[str, str] | None = None) -> str | None:
    """None when ours matches GNU, else a short report."""
    ref, ours = run_both(argv, tree, stdin, env)
    if ref == ours:
        return None
    parts = [f"command: {argv}"]
    for label, x, y in zip(("status", "stdout", "stderr", "files", "mtimes"), ref, ours):
        if x != y:
            parts.append(f"  {label}: GNU {fs._short(x, 400)}\n        ours {fs._short(y, 400)}")
    return "\n".join(parts)


def check(argv: list[str], tree: fs.Tree | None = None, stdin: bytes = b"") -> None:
    """Assert ours matches GNU on one case."""
    report = diff(argv, tree or {}, stdin)
    assert report is None, report


def check_many(cases: list[tuple]) -> None:
    """Assert every (argv, tree[, stdin]) case matches, listing the first mismatches."""
    bad = [r for r in (diff(*c) for c in cases) if r is not None]
    assert not bad, f"{len(bad)}/{len(cases)} differ:\n" + "\n".join(bad[:5])


def gnu_gzip(data: bytes, *args: str) -> bytes:
    """GNU gzip's output for ``data`` on stdin."""
    return subprocess.run(["gzip", "-c", *args], input=data, capture_output=True, env=fs.ENV).stdout


# -- generated inputs ---------------------------------------------------------------------------

def gen_input(rng: random.Random, max_size: int = 12000) -> bytes:
    """Random text, words, binary, repetitive, JSON lines, empty or one byte."""
    kind = rng.choice(["text", "words", "binary", "rep", "json", "tiny", "mixed", "special"])
    n = rng.randint(0, max_size)
    if kind == "text":
        return bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz \n") for _ in range(n))
    if kind == "words":
        return " ".join(rng.choice(WORDS) for _ in range(n // 6)).encode()
    if kind == "binary":
        return rng.randbytes(n)
    if kind == "rep":
        unit = rng.randbytes(rng.randint(1, 20))
        return (unit * (n // len(unit) + 1))[:n]
    if kind == "json":
        return json_lines(rng, n)
    if kind == "tiny":
        return rng.choice([b"", b"x", b"\n", b"\x00", rng.randbytes(rng.randint(1, 5))])
    if kind == "mixed":
        return fs.random_content(rng)
    return rng.choice(fs.SPECIAL_CONTENTS)


def json_lines(rng: random.Random, size: int) -> bytes:
    """Real-looking JSON lines of about ``size`` bytes."""
    lines, total = [], 0
    while total < size:
        line = json.dumps({"ts": 1700000000 + rng.randrange(10**6),
                           "role": rng.choice(["user", "assistant"]),
                           "text": " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 30))),
                           "id": rng.randrange(10**9)}) + "\n"
        lines.append(line)
        total += len(line)
    return "".join(lines).encode()


# -- compression ----------------------------------------------------------------------------------

def test_compress_generated_levels() -> None:
    """120 generated inputs compressed at a random level, to stdout and to a file."""
    rng = random.Random(1201)
    cases = []
    for i in range(120):
        data = gen_input(rng)
        level = rng.choice(["-1", "-2", "-3", "-4", "-5", "-6", "-7", "-8", "-9", "--fast", "--best", "-6"])
        if i % 2:
            cases.append((["gzip", level, "f"], {"f": data}))
        else:
            cases.append((["gzip", "-c", level, "f"], {"f": data}))
    check_many(cases)


def test_compress_stdin_every_level() -> None:
    """Each level on stdin (no name, MTIME 0) for 5 inputs: 45 cases."""
    rng = random.Random(77)
    cases = []
    for _ in range(5):
        data = gen_input(rng)
        for level in range(1, 10):
            cases.append((["gzip", f"-{level}"], {}, data))
    check_many(cases)


def test_compress_edge_inputs() -> None:
    """Empty, one byte, runs, all byte values, 16 KB of one byte."""
    cases = []
    for data in [b"", b"a", b"\n", b"\x00" * 16000, bytes(range(256)) * 40, b"ab" * 8000]:
        for args in (["-c"], ["-9c"], ["-1c"], ["-cn"]):
            cases.append((["gzip", *args, "f"], {"f": data}))
    check_many(cases)


def test_compress_large_compressible_inputs() -> None:
    """40 compressible inputs of 20 KB to 400 KB (JSON lines, words, text, runs) at random
    levels: gzip's block splitting (32767 symbols, ct_tally's early ends) is followed, so the
    bytes are GNU's."""
    rng = random.Random(2024)
    cases = []
    for i in range(40):
        size = rng.choice([20_000, 50_000, 120_000, 400_000])
        kind = i % 4
        if kind == 0:
            data = json_lines(rng, size)
        elif kind == 1:
            data = " ".join(rng.choice(WORDS) for _ in range(size // 6)).encode()
        elif kind == 2:
            data = bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz \n") for _ in range(size))
        else:
            unit = rng.randbytes(rng.randint(1, 300))
            data = (unit * (size // len(unit) + 1))[:size]
        cases.append((["gzip", "-c", f"-{rng.randint(1, 9)}", "f"], {"f": data}))
    check_many(cases)


def test_compress_incompressible_large_inputs() -> None:
    """Incompressible data past 16 KB (random bytes, and random bytes between text) at every
    level: stored blocks where gzip stores, split where gzip splits."""
    rng = random.Random(5)
    cases = []
    for data in (rng.randbytes(20_000), rng.randbytes(70_000),
                 rng.randbytes(30_000) + b"hello world " * 3000 + rng.randbytes(40_000)):
        for level in range(1, 10):
            cases.append((["gzip", f"-{level}"], {}, data))
    check_many(cases)


def test_compress_several_files_one_run() -> None:
    """Three related files in one run (gzip's window keeps the previous file's bytes): 30
    cases, to stdout and to files."""
    rng = random.Random(7)
    cases = []
    for _ in range(15):
        base = json_lines(rng, rng.choice([3000, 30000, 80000]))
        tree = {"f": base, "g": base[: rng.randrange(1, len(base))],
                "h": rng.randbytes(rng.randint(10, 5000)) + base[-rng.randint(1, 400):]}
        level = f"-{rng.randint(1, 9)}"
        cases.append((["gzip", "-c", level, "f", "g", "h"], tree))
        cases.append((["gzip", level, "f", "g", "h"], tree))
    check_many(cases)


# -- decompression ----------------------------------------------------------------------------

def test_decompress_gnu_output_generated() -> None:
    """100 generated inputs compressed by GNU, decompressed by gzip -d, gunzip, zcat, -t, -l."""
    rng = random.Random(4242)
    cases = []
    for i in range(100):
        data = gen_input(rng, 40000)
        level = f"-{rng.randint(1, 9)}"
        comp = gnu_gzip(data, level)
        if rng.random() < 0.2:
            comp += gnu_gzip(gen_input(rng, 3000), level)  # two members
        form = i % 6
        if form == 0:
            cases.append((["gzip", "-d", "f.gz"], {"f.gz": comp}))
        elif form == 1:
            cases.append((["gunzip", "-v", "f.gz"], {"f.gz": comp}))
        elif form == 2:
            cases.append((["zcat", "f.gz"], {"f.gz": comp}))
        elif form == 3:
            cases.append((["gzip", "-dc"], {}, comp))
        elif form == 4:
            cases.append((["gzip", "-tv", "f.gz"], {"f.gz": comp}))
        else:
            cases.append((["gzip", "-lv", "f.gz"], {"f.gz": comp}))
    check_many(cases)


def test_decompress_trailing_data() -> None:
    """Trailing garbage, zeros, a single byte, another member's start (warnings, status 2)."""
    comp = gnu_gzip(b"hello\n" * 50)
    cases = []
    for tail in [b"garbage", b"\x00", b"\x00\x00\x00", b"X", b"\x1f", b"\x1f\x8b", b"\x00\x00x",
                 b"\x1f\x8b\x09" + b"\x00" * 7]:
        for argv in (["gzip", "-dc", "f.gz"], ["gzip", "-d", "f.gz"], ["gzip", "-dcv", "f.gz"],
                     ["gzip", "-t", "f.gz"], ["gzip", "-l", "f.gz"], ["gzip", "-dq", "f.gz"]):
            cases.append((argv, {"f.gz": comp + tail}))
    check_many(cases)


def test_truncated_inputs_generated() -> None:
    """60 GNU outputs cut at a random byte: unexpected end of file, partial output as GNU."""
    rng = random.Random(99)
    cases = []
    for i in range(60):
        comp = gnu_gzip(gen_input(rng, 90000), f"-{rng.randint(1, 9)}")
        cut = comp[: rng.randrange(len(comp))]
        argv = [["gzip", "-dc", "f.gz"], ["gunzip", "f.gz"], ["gzip", "-t", "f.gz"]][i % 3]
        cases.append((argv, {"f.gz": cut}))
    check_many(cases)


def test_corrupt_trailer_and_header() -> None:
    """A flipped CRC or size byte, bad method, reserved flags, encrypted flag, header CRC."""
    good = gnu_gzip(b"some text\n" * 30)
    cases = []
    for pos in (-8, -5, -4, -1):
        bad = bytearray(good)
        bad[pos] ^= 0x55
        for argv in (["gzip", "-dc", "f.gz"], ["gzip", "-d", "f.gz"], ["gzip", "-t", "f.gz", "g.gz"],
                     ["gzip", "-d", "f.gz", "g.gz"]):
            cases.append((argv, {"f.gz": bytes(bad), "g.gz": good}))
    for byte2, byte3 in [(9, 0), (8, 0x40), (8, 0x20), (8, 0x80)]:
        bad = bytearray(good)
        bad[2], bad[3] = byte2, byte3
        cases.append((["gzip", "-dc", "f.gz"], {"f.gz": bytes(bad)}))
        cases.append((["gzip", "-dcff", "f.gz"], {"f.gz": bytes(bad)}))
    hcrc = bytearray(good[:10])
    hcrc[3] = 0x02
    crc16 = zlib.crc32(bytes(hcrc)) & 0xFFFF
    body = zlib.compress(b"x")[2:-4]
    tail = zlib.crc32(b"x").to_bytes(4, "little") + (1).to_bytes(4, "little")
    for c16 in (crc16, crc16 ^ 1):
        data = bytes(hcrc) + c16.to_bytes(2, "little") + body + tail
        cases.append((["gzip", "-dc", "f.gz"], {"f.gz": data}))
    extra = bytearray(good[:10])
    extra[3] = 0x04 | 0x10
    data = bytes(extra) + b"\x03\x00abc" + b"a comment\x00" + body + tail
    cases.append((["gzip", "-dcv", "f.gz"], {"f.gz": data}))
    check_many(cases)


def test_corrupt_deflate_generated() -> None:
    """40 GNU outputs with one byte of the deflate data changed."""
    rng = random.Random(31337)
    cases = []
    for i in range(40):
        comp = bytearray(gnu_gzip(gen_input(rng, 60000), "-6"))
        if len(comp) <= 20:
            continue
        pos = rng.randrange(12, len(comp) - 8)
        comp[pos] ^= 1 << rng.randrange(8)
        argv = [["gzip", "-dc", "f.gz"], ["gzip", "-t", "f.gz"]][i % 2]
        cases.append((argv, {"f.gz": bytes(comp)}))
    check_many(cases)


def test_not_gzip_and_force_copy() -> None:
    """Plain data: not in gzip format; zcat -f copies it; gzip data then plain with -cdf."""
    comp = gnu_gzip(b"x")
    check_many([
        (["gzip", "-d", "f.gz"], {"f.gz": b"plain text\n"}),
        (["zcat", "f"], {"f": b"plain text\n"}),
        (["zcat", "-f", "f"], {"f": b"plain text\n"}),
        (["zcat", "-f", "f"], {"f": b""}),
        (["zcat", "-f", "f"], {"f": b"y"}),
        (["gzip", "-cdf"], {}, comp + b"y\n"),
        (["gzip", "-cdf", "f", "g"], {"f": comp, "g": b"raw"}),
        (["gzip", "-dc", "-"], {}, b"nope"),
        (["gzip", "-dc", "-", "f.gz"], {"f.gz": comp}, b"nope"),
        (["gzip", "-dc", "e.gz"], {"e.gz": b""}),
        (["gzip", "-dc", "e.gz", "f.gz"], {"e.gz": b"", "f.gz": comp}),
        (["gzip", "-dc", "z.Z"], {"z.Z": b""}),
    ])


# -- files, names, options -------------------------------------------------------------------------

def test_file_mode_messages() -> None:
    """Replacing, keeping, existing output, suffixes, directories, missing files."""
    comp = gnu_gzip(b"hello\n")
    check_many([
        (["gzip", "f"], {"f": b"hello\n"}),
        (["gzip", "-k", "f"], {"f": b"hello\n"}),
        (["gzip", "-v", "f", "g"], {"f": b"hello\n", "g": b""}),
        (["gzip", "-kv", "f"], {"f": b"hello\n"}),
        (["gzip", "f"], {"f": b"hello\n", "f.gz": b"old"}),
        (["gzip", "-f", "f"], {"f": b"hello\n", "f.gz": b"old"}),
        (["gzip", "-q", "f"], {"f": b"hello\n", "f.gz": b"old"}),
        (["gzip", "f", "g"], {"f": b"hello\n", "f.gz": b"old", "g": b"x"}),
        (["gzip", "f.gz"], {"f.gz": b"x"}),
        (["gzip", "F.GZ", "a.tgz", "b-z", "c_z", "d.z", "e.taz"], {n: b"x" for n in ["F.GZ", "a.tgz", "b-z", "c_z", "d.z", "e.taz"]}),
        (["gzip", "-f", "f.gz"], {"f.gz": b"x"}),
        (["gzip", "-q", "f.gz"], {"f.gz": b"x"}),
        (["gzip", "d"], {"d": None}),
        (["gzip", "-q", "d"], {"d": None}),
        (["gzip", "nope"], {}),
        (["gzip", "nope", "f"], {"f": b"y"}),
        (["gzip", "f/"], {"f": b"y"}),
        (["gzip", "f.gz"], {"f.gz": None}),
        (["gzip", "f"], {"f": b"x", "f.gz": None}),
        (["gzip", "-f", "f"], {"f": b"x", "f.gz": None}),
        (["gzip", "-d", "f.gz"], {"f.gz": comp}),
        (["gzip", "-d", "f"], {"f.gz": comp}),
        (["gzip", "-d", "f"], {"f": b"x", "f.gz": comp}),
        (["gzip", "-d", "f.gz"], {"f.gz": comp, "f": b"old"}),
        (["gzip", "-df", "f.gz"], {"f.gz": comp, "f": b"old"}),
        (["gzip", "-dk", "f.gz"], {"f.gz": comp}),
        (["gzip", "-dv", "f.gz"], {"f.gz": comp}),
        (["gzip", "-d", "f"], {"f": b"x"}),
        (["gzip", "-dv", "f"], {"f": b"x"}),
        (["gzip", "-dq", "f"], {"f": b"x"}),
        (["gzip", "-d", "nope"], {}),
        (["gzip", "-d", "nope.gz"], {}),
        (["gzip", "-d", "a.tgz", "b.taz", "C.Z", "d-z", "e.z"], {n: comp for n in ["a.tgz", "b.taz", "C.Z", "d-z", "e.z"]}),
        (["gunzip", "f.gz"], {"f.gz": comp}),
        (["gunzip", "-c", "f.gz"], {"f.gz": comp}),
        (["zcat", "f.gz", "f.gz"], {"f.gz": comp}),
        (["zcat", "f"], {"f.gz": comp}),
    ])


def test_suffix_option() -> None:
    """-S: custom suffixes, suffixes of built-in ones, upper case, empty or too long."""
    comp = gnu_gzip(b"data\n")
    check_many([
        (["gzip", "-S", ".zz", "f"], {"f": b"x"}),
        (["gzip", "--suffix=z", "f"], {"f": b"x"}),
        (["gzip", "-S", "z", "fz"], {"fz": b"x"}),
        (["gzip", "-S", ".zz", "f.gz"], {"f.gz": b"x"}),
        (["gzip", "-d", "-S", ".zz", "f.zz"], {"f.zz": comp}),
        (["gzip", "-d", "-S", ".ZZ", "f.zz"], {"f.zz": comp}),
        (["gzip", "-d", "-S", ".zz", "f"], {"f.zz": comp}),
        (["gzip", "-d", "-S", ".zz", "f"], {"f.gz": comp}),
        (["gzip", "-d", "-S", ".zz", "g"], {}),
        (["gzip", "-S", "", "f"], {"f": b"x"}),
        (["gzip", "-S", "x" * 31, "f"], {"f": b"x"}),
        (["gzip", "-S", "x" * 30, "f"], {"f": b"x"}),
    ])


def test_recursive() -> None:
    """-r compresses and decompresses trees; without -r directories are skipped."""
    comp = gnu_gzip(b"z\n")
    check_many([
        (["gzip", "-r", "d"], {"d/a": b"1\n", "d/b.gz": b"2", "d/e/c": b"3"}),
        (["gzip", "-rk", "d/"], {"d/a": b"1\n", "d/e/c": b"3"}),
        (["gzip", "-rv", "d"], {"d/a": b"1\n"}),
        (["gzip", "-rd", "d"], {"d/a.gz": comp, "d/b": b"plain", "d/e/c.gz": comp}),
        (["gzip", "-rdv", "d"], {"d/b": b"plain"}),
        (["gzip", "-rt", "d"], {"d/a.gz": comp, "d/b": b"plain"}),
        (["gzip", "-t", "d/b"], {"d/b": b"plain"}),
        (["gzip", "-rl", "d"], {"d/a.gz": comp}),
        (["gzip", "-rc", "d"], {"d/a": b"x"}),
        (["zcat", "-r", "d"], {"d/a.gz": comp}),
    ])


def test_list_option() -> None:
    """-l, -lv, -lq, -lN, several files (totals), multi-member (1.12's count), stdin."""
    c1, c2 = gnu_gzip(b"hello\n"), gnu_gzip(b"x" * 5000, "-9")
    check_many([
        (["gzip", "-l", "a.gz"], {"a.gz": c1}),
        (["gzip", "-lv", "a.gz", "b.gz"], {"a.gz": c1, "b.gz": c2}),
        (["gzip", "-lq", "a.gz", "b.gz"], {"a.gz": c1, "b.gz": c2}),
        (["gzip", "-lvq", "a.gz", "b.gz"], {"a.gz": c1, "b.gz": c2}),
        (["gzip", "-l", "m.gz"], {"m.gz": c1 + c2}),
        (["gzip", "-lN", "a.gz"], {"a.gz": c1}),
        (["gzip", "-lvN", "n.gz"], {"n.gz": subprocess.run(["gzip", "-c"], input=b"q", capture_output=True).stdout}),
        (["gzip", "-l", "a.gz", "nope.gz"], {"a.gz": c1}),
        (["gzip", "-l", "a.gz", "t.gz"], {"a.gz": c1, "t.gz": c1 + b"junk"}),
        (["gzip", "-l", "t.gz"], {"t.gz": c1 + b"junk"}),
        (["gzip", "-l", "plain"], {"plain": b"not gzip"}),
        (["gzip", "-l"], {}, c2),
        (["gzip", "-lv"], {}, c2),
        (["gzip", "-l", "e.gz"], {"e.gz": gnu_gzip(b"")}),
        (["zcat", "-l", "a.gz"], {"a.gz": c1}),
    ])


def test_list_dates_follow_tz() -> None:
    """-lv dates in the run's TZ (zone names, POSIX rules), the file's or (-N) the stored time."""
    comp = gnu_gzip(b"abc\n")
    cases = [(["gzip", "-lv", "f.gz"], {"f.gz": (comp, 1_700_000_000)}, b"", {"TZ": tz})
             for tz in ["America/New_York", "Asia/Kolkata", "UTC0", "EST5EDT"]]
    cases.append((["gzip", "-lvN", "f.gz"], {"f.gz": comp}, b"", {"TZ": "Asia/Tokyo"}))
    check_many(cases)


def test_name_and_time_options() -> None:
    """-n, -N on compression (header name and MTIME) and decompression (restored name/time)."""
    named = {"f": (b"content\n", 1_500_000_000)}
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "orig.txt"
        p.write_bytes(b"restored\n")
        os.utime(p, (1_400_000_000, 1_400_000_000))
        comp = subprocess.run(["gzip", "-c", str(p)], capture_output=True).stdout
    check_many([
        (["gzip", "-n", "f"], named),
        (["gzip", "--no-name", "-c", "f"], named),
        (["gzip", "-N", "f"], named),
        (["gzip", "-c", "f"], {"f": (b"x", 0)}),
        (["gzip", "-c", "f"], {"f": (b"x", 5_000_000_000)}),
        (["gzip", "-cq", "f"], {"f": (b"x", 0)}),
        (["gzip", "-cn", "f"], {"f": (b"x", 0)}),
        (["gzip", "-d", "x.gz"], {"x.gz": comp}),
        (["gzip", "-dN", "x.gz"], {"x.gz": comp}),
        (["gzip", "-dNvv", "x.gz"], {"x.gz": comp}),
        (["gzip", "-dN", "sub/x.gz"], {"sub/x.gz": comp}),
        (["gzip", "-dNc", "x.gz"], {"x.gz": comp}),
        (["gzip", "-dn", "x.gz"], {"x.gz": comp}),
        (["gzip", "-dN", "x.gz"], {"x.gz": comp, "orig.txt": b"there"}),
        (["gzip", "-c", "f", "-"], {"f": b"x"}, b"stdin data"),
        (["gzip", "-cv", "-"], {}, b"stdin data"),
        (["gzip", "-dcv"], {}, gnu_gzip(b"q")),
        (["gzip", "-tv"], {}, gnu_gzip(b"q")),
    ])


def test_command_line_errors() -> None:
    """Unknown, ambiguous and refused options; -b; -Z; -a; help, license, version."""
    check_many([
        (["gzip", "-x"], {}),
        (["gzip", "--bogus"], {}),
        (["gzip", "--s"], {}),
        (["gzip", "-S"], {}),
        (["gzip", "-b", "x", "f"], {"f": b"1"}),
        (["gzip", "-b", "12", "-c", "f"], {"f": b"1"}),
        (["gzip", "-Z", "f"], {"f": b"1"}),
        (["gzip", "-?"], {}),
        (["gzip", "-a", "-c", "f"], {"f": b"1"}),
        (["gzip", "-aq", "-c", "f"], {"f": b"1"}),
        (["gzip", "-h"], {}),
        (["gzip", "--help"], {}),
        (["gzip", "-L"], {}),
        (["gzip", "-V"], {}),
        (["gzip", "--version"], {}),
        (["gunzip", "--help"], {}),
        (["gunzip", "--version"], {}),
        (["gunzip", "-h"], {}),
        (["zcat", "--help"], {}),
        (["zcat", "--version"], {}),
        (["zcat", "-V"], {}),
        (["gzip", "--stdout", "--keep", "--quiet", "--verbose", "--best", "f"], {"f": b"abc"}),
        (["gzip", "--decompress", "--to-stdout", "f.gz"], {"f.gz": gnu_gzip(b"abc")}),
        (["gzip", "--uncompress", "--test", "--name", "--recursive", "f.gz"], {"f.gz": gnu_gzip(b"abc")}),
        (["gzip", "--synchronous", "-c", "f"], {"f": b"abc"}),
        (["gzip", "-c", "--", "-f"], {"-f": b"abc"}),
    ])


def test_gzip_environment_variable() -> None:
    """GZIP=...: the deprecation warning, options valid there, refused options, non-options."""
    tree = {"f": b"some text\n" * 20}
    cases = [(["gzip", "-c", "f"], tree, b"", {"GZIP": value})
             for value in ["-9", "--best", "-q -1", "-v", "-n", "-c", "-k", "x", "-- -9", " \t "]]
    check_many(cases)


def test_round_trip_large_ours() -> None:
    """Ours compresses and decompresses 300 KB of JSON lines and binary at -1, -6, -9."""
    rng = random.Random(8)
    for data in (json_lines(rng, 300_000), rng.randbytes(200_000)):
        for level in ("-1", "-6", "-9"):
            code, comp, _ = run_command(["gzip", level], stdin=data)
            assert code == 0
            code, back, err = run_command(["gzip", "-d"], stdin=comp)
            assert (code, back, err) == (0, data, b"")


def test_more_edges() -> None:
    """stdin twice, directories with -c/-d/-l, several files under -t/-v, bad later members
    with and without -k, trailing zeros past a buffer, fractional mtimes, zcat"s options."""
    comp = gnu_gzip(b"abc\n")
    check_many([
        (["gzip", "-c", "-", "-"], {}, b"data"),
        (["gzip", "-dc", "-", "-"], {}, comp),
        (["gzip", "-c", "d"], {"d": None}),
        (["gzip", "-dc", "d"], {"d": None}),
        (["gzip", "-l", "d"], {"d": None}),
        (["gzip", "-t", "f", "g"], {"f": comp, "g": comp + comp}),
        (["gzip", "-tv", "f", "g"], {"f": comp, "g": b"nope"}),
        (["gzip", "-dv", "f.gz", "g.gz"], {"f.gz": comp, "g.gz": comp[:-3]}),
        (["gzip", "-kd", "f.gz"], {"f.gz": comp[:5]}),
        (["gzip", "-d", "f.gz"], {"f.gz": comp + b"\x1f\x8b\x09" + b"\0"*20}),
        (["gzip", "-dk", "f.gz"], {"f.gz": comp + b"\x1f\x8b\x09" + b"\0"*20}),
        (["gzip", "-v", "-9", "-k", "f"], {"f": b"x"*1000}),
        (["gzip", "-1v", "f"], {"f": b""}),
        (["gzip", "-lv", "-"], {}, comp),
        (["gzip", "-l", "f.gz", "-"], {"f.gz": comp}, comp),
        (["gzip", "-cd", "f.gz"], {"f.gz": comp + b"\0"*40000}),
        (["gzip", "-cdv", "f.gz"], {"f.gz": comp + b"\0"*40000 + b"x"}),
        (["gzip", "-c", "f"], {"f": (b"x", 1.5)}),
        (["gzip", "f"], {"f": (b"x", 1614834367.25)}),
        (["gzip", "-d", "f.gz"], {"f.gz": (comp, 1614834367.75)}),
        (["gunzip", "-S", ".x", "f.x"], {"f.x": comp}),
        (["gzip", "-d", "--suffix", ".gz", "f"], {"f.gz": comp}),
        (["gzip", "-dc", "f.gz", "missing.gz", "f.gz"], {"f.gz": comp}),
        (["zcat", "-v", "f"], {"f.gz": comp}),
        (["zcat", "-t", "f"], {"f": comp}),
    ])


# -- sandbox integration -------------------------------------------------------------------------

def test_decompression_bomb_is_bounded() -> None:
    """A small file that inflates to 1 GiB ends with the write limit's error, quickly."""
    from sandbox import Limits, Policy, Sandbox
    from sandbox.policy import DEFAULT_ALLOW

    comp = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = b"".join(comp.compress(b"\0" * (1 << 20)) for _ in range(1024)) + comp.flush()
    assert len(bomb) < 2_000_000
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "b.gz").write_bytes(bomb)
        sb = Sandbox(mounts={"/w": tmp}, cwd="/w", limits=Limits(written_bytes=8 << 20, seconds=30),
                     policy=Policy(allow=DEFAULT_ALLOW | {"gzip", "gunzip", "zcat"}))
        r = sb.run("gunzip b.gz")
        assert r.exit_code == 125, r
        assert b"write limit" in r.stderr and len(r.stderr.splitlines()) == 1
        assert sorted(os.listdir(tmp)) == ["b.gz"]
        r = sb.run("zcat b.gz")
        assert r.exit_code == 125 and b"limit" in r.stderr and len(r.stderr.splitlines()) == 1, r
        assert len(r.stdout) < Limits().output_bytes + 200  # the limit plus the sandbox's note


def test_read_only_policy_refuses_before_running() -> None:
    """With Policy(read_only=True) gzip and gunzip are refused by the guard; zcat, -c, -l, -t run."""
    from sandbox import Policy, Sandbox
    from sandbox.policy import DEFAULT_ALLOW

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "f").write_bytes(b"hello\n")
        (Path(tmp) / "g.gz").write_bytes(gnu_gzip(b"x"))
        allow = DEFAULT_ALLOW | {"gzip", "gunzip", "zcat"}
        sb = Sandbox(mounts={"/w": tmp}, cwd="/w", policy=Policy(allow=allow, read_only=True))
        for script in ("gzip f", "gunzip g.gz", "gzip -d g.gz", "echo hi; gzip -k f"):
            r = sb.run(script)
            assert r.exit_code == 126, (script, r)
            assert b"hi" not in r.stdout
        assert sorted(os.listdir(tmp)) == ["f", "g.gz"]
        r = sb.run("zcat g.gz; gzip -c f | gzip -dc; gzip -l g.gz >/dev/null; gzip -t g.gz")
        assert r.exit_code == 0 and r.stdout == b"xhello\n", r
        protected = Sandbox(mounts={"/w": tmp}, cwd="/w",
                            policy=Policy(allow=allow, protected=frozenset({"/w/f"})))
        r = protected.run("gzip f")
        assert r.exit_code == 126
        assert sorted(os.listdir(tmp)) == ["f", "g.gz"]


def test_broken_pipe_statuses_as_bash() -> None:
    """zcat/gzip into a reader that stops: status 141 as in bash, 2 with -q (gzip's SIGPIPE
    handling), the same bytes through head."""
    from sandbox import Policy, Sandbox
    from sandbox.policy import DEFAULT_ALLOW

    rng = random.Random(3)
    script = ('zcat big.gz | head -c 30; echo " ${PIPESTATUS[*]}"; '
              'zcat -q big.gz | head -c 1 >/dev/null; echo "${PIPESTATUS[*]}"; '
              'gzip -c big | head -c 5 | wc -c; echo "${PIPESTATUS[*]}"; '
              'gzip -cq big | head -c 5 >/dev/null; echo "${PIPESTATUS[*]}"')
    with tempfile.TemporaryDirectory() as tmp:
        data = json_lines(rng, 400_000)
        (Path(tmp) / "big").write_bytes(data)
        (Path(tmp) / "big.gz").write_bytes(gnu_gzip(data))
        ref = subprocess.run(["bash", "-c", script], cwd=tmp, capture_output=True, env=fs.ENV)
        sb = Sandbox(mounts={"/w": tmp}, cwd="/w",
                     policy=Policy(allow=DEFAULT_ALLOW | {"gzip", "gunzip", "zcat"}))
        r = sb.run(script)
        assert (r.exit_code, r.stdout) == (ref.returncode, ref.stdout)


def test_writes_declares_inputs_and_outputs() -> None:
    """``writes`` names what gzip/gunzip may create or remove; zcat writes nothing."""
    from sandbox import commands

    gz = commands.get("gzip")
    assert gz.writes(["f", "-k", "g"]) == ["f", "f.gz", "g", "g.gz"]
    assert gz.writes(["-c", "f"]) == [] and gz.writes(["-l", "f.gz"]) == []
    assert "f" in gz.writes(["-d", "f.gz"])
    assert "a.tar" in commands.get("gunzip").writes(["a.tgz"])
    assert commands.get("zcat").writes is None
