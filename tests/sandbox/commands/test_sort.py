"""sort: unit tests and differential tests against GNU coreutils."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands import sort  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402


def test_numeric_reverse() -> None:
    assert run_command(["sort", "-rn"], stdin=b"2\n10\n1\n") == (0, b"10\n2\n1\n", b"")


def test_key_field_and_char() -> None:
    key = sort.parse_key("2.2,2.3")
    assert sort.key_text(b"ab cdef g", key, None) == b"cd"


def test_version_compare() -> None:
    assert sort.filevercmp(b"a-1.9", b"a-1.10") < 0
    assert sort.filevercmp(b"a.tar.gz", b"a.tar") > 0


def test_output_file() -> None:
    from sandbox.fs.memory import MemoryFS
    from sandbox.fs.vfs import VirtualFS

    vfs = VirtualFS({"/": MemoryFS({"f": b"b\na\n"})})
    assert run_command(["sort", "-o", "f", "f"], fs=vfs) == (0, b"", b"")
    assert vfs.read_bytes("/f") == b"a\nb\n"


TEXT = b"\n".join([
    b"banana 10 x", b"Apple 2 y", b"apple 2 z", b"  cherry 1.5K b", b"date -3 a", b"\xc3\xa9clair 7 c",
    b"Zebra 1e3 d", b"zebra 0x10 e", b"10 file-10.txt JAN", b"9 file-9.txt feb", b"-0 v1.10 Dec",
    b"0 v1.9 mar", b"", b" ", b"\tTab 3M q", b"a\x00b 4 w", b"\xff\xfe bad 5", b"1,000 1G k",
    b"+4 inf m", b"nan -inf n", b"banana 10 x", b"apple 2 z", b"x:y:z", b"x:a:b", b"2K 1k 1M",
    b"~a a~ .b", b"1.10 1.9 1.2", b"abc\r", b"ABC",
]) + b"\n"

ARGS = [
    "", "-r", "-n", "-rn", "-u", "-f", "-fu", "-b", "-d", "-i", "-g", "-h", "-M", "-V", "-s", "-z",
    "-k2", "-k2,2", "-k2n", "-k2,2n", "-k2nr", "-k2,2 -n", "-k2,2 -r", "-k3", "-k3,3V", "-k1.2",
    "-k1.2,1.3", "-k1.2b,1.3", "-b -k1.2,1.3", "-k2.1,2.1", "-k2,2h", "-k2,2g", "-k3,3M", "-k1,1f -k2,2n",
    "-k2,2n -k1,1r", "-k2 -s", "-k2,2n -u", "-k1,1 -u -f", "-t : -k2", "-t : -k2,2 -k3r", "-t: -k3,3",
    "-t ' ' -k2,2n", "-t ' ' -k3", "-k1.1,1.0", "-k2.3,2.0", "-k1,1 -k2,2 -s -r", "-nu", "-Vr", "-hr",
    "-gr", "-Mr", "-dfr", "-k2bn", "-k2,2bn -b", "-k 2.2b,2.4b", "-k1.3,1", "-sk2,2n", "-c", "-C",
    "-cu", "-k1.100", "-k5", "-k2,1", "-t a -k2", "-rk1,1", "--sort=numeric", "--sort=version -r",
    "--sort=foo", "--sort=", "-x", "-k0", "-k1.0", "-kx", "-k1,0", "-k1.1x", "-k 1,x", "-t ab", "-t ''",
    "-n -g", "-nV", "-k1n,1M", "-di -n", "-c -o x", "missing", "-t '\\0'", "-o", "-S 10M", "--parallel=2",
    "-T /tmp", "-m", "-t : -t ,", "-c -C", "--debug-nothing", "-k1,1d", "-k1,1i", "-fi", "-R -n",
    "-n --key=1", "--reverse --unique", "--ignore-case --stable -k1,1",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    gts.compare(["sort", *shlex.split(args)], stdin=TEXT)


def test_matches_gnu_check_mode() -> None:
    gts.compare(["sort", "-c"], stdin=b"a\nb\nb\n")
    gts.compare(["sort", "-cu"], stdin=b"a\nb\nb\n")
    gts.compare(["sort", "-c", "-n", "f"], files={"f": b"1\n10\n9\n"})
    gts.compare(["sort", "-c", "a", "b"], files={"a": b"", "b": b""})


def test_matches_gnu_files() -> None:
    files = {"a": b"z\ny\n", "b": b"x\nw"}
    gts.compare(["sort", "a", "b", "-"], stdin=b"v\n", files=files)
    gts.compare(["sort", "-o", "a", "a", "b"], files=files)
    gts.compare(["sort", "-o", "out", "b"], files=files)


def test_matches_gnu_generated() -> None:
    rng = random.Random(19)
    mods = ["", "", "n", "r", "b", "f", "V", "h", "g", "M", "nr", "bn", "d", "i"]
    globals_ = ["", "", "-r", "-n", "-f", "-b", "-u", "-s", "-V", "-h", "-g", "-d", "-ru", "-su", "-fu"]
    for _ in range(250):
        data = gts.gen_input(rng)
        args: list[str] = []
        g = rng.choice(globals_)
        if g:
            args.append(g)
        if rng.random() < 0.4:
            args += ["-t", rng.choice([":", ",", " ", "\t"])]
        for _ in range(rng.randint(0, 2)):
            f1 = rng.randint(1, 3)
            spec = f"{f1}"
            if rng.random() < 0.3:
                spec += f".{rng.randint(1, 3)}"
            spec += rng.choice(mods)
            if rng.random() < 0.6:
                spec += f",{f1 + rng.randint(0, 2)}"
                if rng.random() < 0.3:
                    spec += f".{rng.randint(0, 3)}"
                spec += rng.choice(["", "", "b", "n", "r"])
            args += ["-k", spec]
        gts.compare(["sort", *args], stdin=data)


def test_random_sort_groups_equal_keys() -> None:
    lines = [b"k%d" % (i % 7) for i in range(70)]
    code, out, _ = run_command(["sort", "-R"], stdin=b"\n".join(lines) + b"\n")
    result = out.split(b"\n")[:-1]
    assert code == 0 and sorted(result) == sorted(lines)
    runs = [k for i, k in enumerate(result) if i == 0 or result[i - 1] != k]
    assert len(runs) == 7  # every key's lines are adjacent


@pytest.mark.parametrize("argv", [["sort", "dd"], ["sort", "-c", "dd"], ["sort", "-o", "dd", "f"], ["sort", "f", "dd"]], ids=repr)
def test_matches_gnu_on_directories(argv: list[str]) -> None:
    gts.compare(argv, files={"f": b"x y\n"}, dirs=["dd"])


def test_numeric_key_orders_like_exact_decimals() -> None:
    from decimal import Decimal

    rng = random.Random(29)
    texts = []
    for _ in range(3000):
        whole = "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 4)))
        frac = "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 4)))
        text = rng.choice(["", "-"]) + whole + (("." + frac) if rng.random() < 0.6 else "")
        texts.append(text)

    def exact(text: str) -> Decimal:
        body = text.lstrip("-").rstrip(".")
        if body in ("", "."):
            return Decimal(0)
        value = Decimal("0" + body if body.startswith(".") else body)
        return -value if text.startswith("-") else value

    by_key = sorted(texts, key=lambda t: sort.numeric_value(t.encode()))
    assert [exact(t) for t in by_key] == sorted(exact(t) for t in texts)


def test_matches_gnu_plain_field_keys() -> None:
    """The one-plain-field fast path (``-t C -kN,N`` / ``-kN``, compared as bytes, with -r, -s,
    -u, -z) gives GNU's order, ties and duplicates included; long inputs cross the output
    slices."""
    rng = random.Random(23)
    seps = [":", ",", " ", "\t", "a"]
    for k in range(160):
        sep = rng.choice(seps)
        lines = []
        for _ in range(rng.randint(0, 40) if k % 20 else 9000):
            fields = [rng.choice([b"", b"x", b"y", b"ab", b"B", b"\xc3\xa9", b"1", b"10", b" ",
                                  b"\xff"]) for _ in range(rng.randint(0, 4))]
            lines.append(sep.encode().join(fields))
        data = b"\n".join(lines) + (b"\n" if rng.random() < 0.8 else b"")
        f = rng.randint(1, 4)
        spec = rng.choice([f"{f}", f"{f},{f}", f"{f}.1,{f}"])
        args = ["-t", sep, "-k", spec] + rng.sample(["-r", "-s", "-u", "-z"], rng.randint(0, 2))
        if rng.random() < 0.2:
            args.insert(0, rng.choice(["-r", "-k1,1r"]))  # mixed directions: general path
        gts.compare(["sort", *args], stdin=data)


@pytest.mark.parametrize("chunk", [1, 7, 64])
def test_matches_gnu_with_small_read_blocks(chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines are split block by block while reading: every line crosses a block edge here."""
    monkeypatch.setattr(sort, "CHUNK", chunk)
    for args in ([], ["-u"], ["-z"], ["-t", ":", "-k2,2"], ["-n", "-r"]):
        gts.compare(["sort", *args], stdin=TEXT)
        gts.compare(["sort", *args], stdin=TEXT.rstrip(b"\n"))
        gts.compare(["sort", *args], stdin=b"\n\n" + TEXT.replace(b"\n", b"\0"))


@pytest.mark.parametrize("run_bytes, run_slice", [(1, 1), (64, 7), (300, 64)])
def test_matches_gnu_with_merged_runs(run_bytes: int, run_slice: int,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond ``RUN_BYTES`` sorted runs are packed and merged: the same order, ties (-s, -u,
    -r) and output as one sort (tiny runs here, so every line is a run or shares one)."""
    monkeypatch.setattr(sort, "RUN_BYTES", run_bytes)
    monkeypatch.setattr(sort, "_RUN_SLICE", run_slice)
    monkeypatch.setattr(sort, "CHUNK", 64)
    for args in ARGS:
        gts.compare(["sort", *shlex.split(args)], stdin=TEXT)
    rng = random.Random(31)
    for args in (["-n"], ["-h"], ["-V"], ["-u"], ["-r"], ["-s", "-k2,2"], ["-t", ":", "-k2,2"],
                 ["-t", ":", "-k2,2", "-s", "-r"], ["-t", ":", "-k1", "-u"], ["-z"], ["-f", "-u"],
                 ["-k2,2n", "-r"], ["-o", "f", "f"]):
        for _ in range(6):
            data = gts.gen_input(rng)
            gts.compare(["sort", *args], stdin=data, files={"f": data})


def test_version_key_matches_gnu() -> None:
    """``-V`` sorts on a key computed once per line (``version_key``): GNU's filevercmp order
    on version-like lines (leading zeros, ``~``, suffixes, hidden names, ``.``/``..``)."""
    rng = random.Random(37)
    parts = [b"0", b"1", b"00", b"9", b"10", b"007", b".", b"~", b"a", b"B", b"-", b"_", b"z",
             b".tar", b".gz", b"~rc", b"\xc3\xa9", b"\xff", b" ", b"..", b".1", b"0.", b"v"]
    for _ in range(12):
        lines = [b"".join(rng.choice(parts) for _ in range(rng.randint(0, 6)))
                 for _ in range(rng.randint(1, 120))]
        data = b"\n".join(lines) + b"\n"
        for args in (["-V"], ["-V", "-u"], ["-Vr", "-s"], ["-t", ".", "-k2,2V"]):
            gts.compare(["sort", *args], stdin=data)
    for k in range(300):
        a = b"".join(rng.choice(parts) for _ in range(rng.randint(0, 6)))
        b = b"".join(rng.choice(parts) for _ in range(rng.randint(0, 6)))
        c = sort.filevercmp(a, b)
        ka, kb = sort.version_key(a), sort.version_key(b)
        assert ((c > 0) - (c < 0)) == ((ka > kb) - (ka < kb)), (a, b)


def test_plain_field_keys_with_and_without_nul_match_gnu() -> None:
    """``-t C -kN,N`` sorts "field NUL line" byte strings when no line holds a NUL (fields
    that are prefixes of others, empty fields, -r), and pairs otherwise."""
    rng = random.Random(47)
    for k in range(40):
        pieces = [b"", b"a", b"ab", b"a\xff", b"b", b"\xc3\xa9", b"1"] + ([b"\0", b"a\0"] if k % 2 else [])
        lines = [b":".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
                 for _ in range(rng.randint(0, 40))]
        data = b"\n".join(lines) + b"\n"
        for args in (["-t:", "-k2,2"], ["-t:", "-k1,1", "-r"], ["-t:", "-k3"], ["-z", "-t:", "-k2,2"]):
            gts.compare(["sort", *args], stdin=data)


SORT_NAMES0 = {"a": b"b\na\nc\n", "b": b"z\ny\n", "list": b"a\0b\0", "one": b"a\0", "odd": b"a\0\0b\0",
               "dash": b"-\0a\0", "bad": b"a\0nosuch\0", "empty0": b"", "last": b"a\0b"}


@pytest.mark.parametrize("args", [
    ["--files0-from=list"], ["-r", "--files0-from", "one"], ["--files0-from=odd"], ["--files0-from=dash"],
    ["--files0-from=bad"], ["--files0-from=empty0"], ["--files0-from=last", "-u"], ["--files0-from=-"],
    ["--files0-from=nosuch"], ["--files0-from=dd"], ["--files0-from=list", "a"], ["-c", "--files0-from=one"],
    ["-c", "--files0-from=list"], ["-m", "--files0-from=list"], ["--files0-from=-", "-k0"],
], ids=repr)
def test_files0_from_matches_gnu(args: list[str]) -> None:
    """``find ... -print0 | sort --files0-from=-``: names read and checked (``-``, empty names,
    no names) before any is sorted; open errors; operands refused alongside."""
    for stdin in (b"a\0b\0", b"-\0", b"", b"a"):
        gts.compare(["sort", *args], stdin=stdin, files=SORT_NAMES0, dirs=["dd"])
