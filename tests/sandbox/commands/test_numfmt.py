"""numfmt against GNU coreutils 9.1's numfmt: stdout, stderr and exit status on hand-written
command lines for every option and message, and on hundreds of generated numbers and option
mixes (rounding and long double formatting must agree byte for byte)."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402


def check(cases: list[tuple[list[str], bytes]]) -> None:
    """Compare every (argv, stdin); fail listing the first mismatches."""
    gts.need("numfmt")
    failures = []
    for argv, stdin in cases:
        try:
            gts.compare(argv, stdin=stdin)
        except AssertionError as e:
            failures.append(f"{shlex.join(argv)} <<< {stdin[:200]!r}\n{str(e)[:1500]}")
    assert not failures, f"{len(failures)}/{len(cases)} differ:\n\n" + "\n\n".join(failures[:6])


def line(args: str, stdin: bytes = b"") -> tuple[list[str], bytes]:
    """A hand-written case (shell-split)."""
    return ["numfmt", *shlex.split(args)], stdin


HAND = [
    line("1000"), line("--to=si 1000 999999 1536 0.5 1 9.99 999.5 1000000"), line("--to=iec 2048 1023 1024 1025"),
    line("--to=iec-i 4096 1 0"), line("--from=si 1K 1M 1G 1T 1P 1E 1Z 1Y"), line("--from=iec 1K 1.5M"),
    line("--from=auto 1Ki 1K 1.5Mi 2.5k"), line("--from=iec-i 1Ki 1K 5"), line("--from=iec-i 1Kx"),
    line("1.5 0.1 0.25 -0.25 .5 5. . '' -"), line("x 1K 1x"), line("-- -5 -1.5 -0"),
    line("--to=si -- -1000 -1536 -0.5"), line("--round=up --to=si 1001 -1001"),
    line("--round=down --to=si 1001 -1001 1999"), line("--round=towards-zero --to=iec 1500 -1500"),
    line("--round=nearest --to=iec 1535 1536 1537"), line("--round=from-zero --to=si 1001"),
    line("--round=n 1.5"), line("--round=bad 1"), line("--to=i 1"), line("--to=s 1"), line("--from=x 1"),
    line("--invalid=bad 1"), line("--to=si 999999999999999999999999999"),
    line("--to=si 9999999999999999999999999999"), line("1234567890123456789"),
    line("12345678901234567.5"), line("--to=si 123456789012345678901234"),
    line("--from-unit=1K 5"), line("--from-unit=1Ki 5"), line("--to-unit=1K 5000"),
    line("--to-unit=1Ki --to=si 5000000"), line("--from-unit=x 1"), line("--from-unit=0 1"),
    line("--from-unit=1KiB 1"), line("--from-unit=Ki 3"), line("--to-unit=1B 1"),
    line("--suffix=B 100B 100 100BB"), line("--suffix=B --to=si 123456B"), line("--suffix=é --to=iec 9999é"),
    line("--padding=10 1 123456789012"), line("--padding=-10 1"), line("--padding=0 1"),
    line("--padding=x 1"), line("--padding=' 5' 1"), line("--padding=5x 1"), line("--to=si --padding=6 1500"),
    line("--format=%f 1.5"), line("--format='%10f' 1.5"), line("--format='%-10f|' 1.5"),
    line("--format='%010f' 1.5"), line("--format='%010.2f' -- -3.14159"), line("--format='%.3f' 2"),
    line("--format='%.0f' 2.5 3.5"), line("--to=si --format='%.3f' 123456"), line("--to=si --format='%-8.3f|' 123456"),
    line("--format=\"%'f\" 1234567"), line("--format='%%x%f%%y' 5"), line("--format='abc' 1"),
    line("--format='%' 1"), line("--format='%d' 1"), line("--format='%f%f' 1"), line("--format='%.-1f' 1"),
    line("--format='%. 1f' 1"), line("--format='%.+1f' 1"), line("--format='% 5f' 1"),
    line("--format='%99999999999999999999f' 1"), line("--format='%0200f' 1"),
    line("--format='[%f]' --padding=8 1"), line("--format=%f --grouping 1"), line("--grouping 1234567.5"),
    line("--grouping --to=si 1"), line("--field=2 a 1000 b", b""), line("--field=2 --to=si", b"a 1000 b\nc 2000000 d\n"),
    line("--field=1,3 --to=si", b"1000 2000 3000 4000\n"), line("--field=2- --to=si", b"1000 2000 3000\n"),
    line("--field=-2 --to=si", b"1000 2000 3000\n"), line("--field=- --to=si", b"1000 2000 3000\n"),
    line("--field=1,- --to=si", b"1000 2000\n"), line("--field=0 1"), line("--field=5-3 1"), line("--field=x 1"),
    line("--field= 1"), line("--field=1-2-3 1"), line("--field=99999999999999999999 1"), line("--field=1 --field=2 1"),
    line("--to=si", b"  12345 67890\n\t1000\n1000   \n"), line("-d: --to=si --field=2", b"a:1000:b\n::\n:x\n"),
    line("-d, --to=si", b"1000,2000\n"), line("-d ab 1"), line("-d é 1"), line("-d '' 1"),
    line("-d, '1 '"), line("-d, --from=si", b"1 \n"),
    line("--header --to=si", b"size\n1000\n2000\n"), line("--header=2 --to=si", b"a\nb\n3000\n"),
    line("--header=0"), line("--header=x"), line("--header="), line("--header --to=si 1000"),
    line("--to=si", b"1000\n\n2000"), line("--to=si", b""), line("--to=si", b"1000"),
    line("-z --to=si", b"1000\x002000\x00"), line("-z --to=si --header", b"h\x001000\x00"),
    line("--to=si", b"1000\x00junk\n2000\n"),
    line("--invalid=fail --to=si", b"1000\nx\n2000\n"), line("--invalid=warn --to=si", b"x\n1000\n"),
    line("--invalid=ignore --to=si", b"x\n1000\n"), line("--invalid=abort --to=si", b"1000\nx\n2000\n"),
    line("--invalid=fail 1K 5"), line("--debug 1"), line("--debug --header 1"),
    line("--debug --to=si 1234567890123456789012"), line("--debug --to=si x"),
    line("--debug --grouping 1"), line("--debug --padding=5 --format=%8f 1"),
    line("--to=si 0.001 0.0001 -0.001"), line("0.00000000000000000000000001"),
    line("1.000000000000000000000000001"), line("1.0000000000000000000000000001"),
    line("--to=iec 1.999 9.96 9.94 99.9 999.9 1023.9"), line("--to=si 9.95 9.949 99.95 999.95"),
    line("--from=si --to=iec 1.5G"), line("--from=iec --to=si 1.5G"), line("--version"), line("--help"),
    line("--bogus"), line("-x"), line("--from"), line("--padding=99999999999 1"),
    line("--format=%99999999999f 1"), line("--format=%0999f 1"), line("--to=si --format=%.200f 1"),
    line("--format=%.99999f 1"), (["numfmt", "0." + "0" * 5000 + "1"], b""),
    (["numfmt", "--to=si", "1." + "0" * 30], b""), line("-d, --from=si '1 ' x"), line("-d, --from=si '1 ' ''"),
    line("-d, --from=auto '1 ' i"), line("-d, --from=iec-i '1 ' iy"), line("-d: --from=si", b"1 :x\n1 :\n"),
    line("--from=si", b"123456789\n1 \n"),
]


@pytest.mark.parametrize("chunk", range(0, len(HAND), 40))
def test_hand_written(chunk: int) -> None:
    """Every option and message."""
    check(HAND[chunk:chunk + 40])


def _number(rng: random.Random, allow_suffix: bool) -> str:
    kind = rng.random()
    if kind < 0.05:
        return rng.choice(["", "x", "-", ".", "1..2", "1.-2", "--1", "1e3", "0x10", "1,000", " 7", "+5"])
    digits = rng.randint(1, 30) if rng.random() < 0.15 else rng.randint(1, 12)
    text = str(rng.randrange(10 ** digits)).zfill(rng.choice([1, 1, 1, digits]))
    if rng.random() < 0.5:
        text += "." + "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 8) or 1))
    if rng.random() < 0.2:
        text = "-" + text
    if allow_suffix and rng.random() < 0.4:
        text += rng.choice(["K", "M", "G", "T", "P", "E", "Z", "Y", "Ki", "Mi", "Gi", "k", "Q", " K", "KB"])
    return text


def _random_case(rng: random.Random) -> tuple[list[str], bytes]:
    opts: list[str] = []
    if rng.random() < 0.5:
        opts.append("--from=" + rng.choice(["none", "auto", "si", "iec", "iec-i"]))
    if rng.random() < 0.8:
        opts.append("--to=" + rng.choice(["none", "si", "iec", "iec-i"]))
    if rng.random() < 0.5:
        opts.append("--round=" + rng.choice(["up", "down", "from-zero", "towards-zero", "nearest"]))
    if rng.random() < 0.15:
        opts.append("--from-unit=" + rng.choice(["1", "2", "1K", "1Ki", "512", "3"]))
    if rng.random() < 0.15:
        opts.append("--to-unit=" + rng.choice(["1", "2", "1K", "1Ki", "7"]))
    if rng.random() < 0.2:
        opts.append("--suffix=" + rng.choice(["B", "/s", "x"]))
    if rng.random() < 0.2:
        opts.append("--padding=" + rng.choice(["5", "-7", "12", "1"]))
    if rng.random() < 0.25:
        flag = rng.choice(["", "0", "-", "'"])
        width = rng.choice(["", "6", "12"])
        prec = rng.choice(["", ".0", ".1", ".3", ".9"])
        opts.append(f"--format={rng.choice(['', '<'])}%{flag}{width}{prec}f{rng.choice(['', '>'])}")
    if rng.random() < 0.2:
        opts.append("--invalid=" + rng.choice(["fail", "warn", "ignore"]))
    allow_suffix = True
    if rng.random() < 0.5:
        numbers = [_number(rng, allow_suffix) for _ in range(rng.randint(1, 5))]
        return ["numfmt", *opts, "--", *numbers], b""
    lines = []
    fields = rng.random() < 0.3
    if fields:
        opts.append("--field=" + rng.choice(["2", "1,3", "2-", "-2", "-"]))
    for _ in range(rng.randint(1, 6)):
        count = rng.randint(1, 4) if fields else 1
        sep = rng.choice([" ", "  ", "\t"])
        lines.append(rng.choice(["", " ", "  "]) + sep.join(_number(rng, allow_suffix) for _ in range(count)))
    return ["numfmt", *opts], ("\n".join(lines) + rng.choice(["\n", ""])).encode()


@pytest.mark.parametrize("seed", range(8))
def test_generated(seed: int) -> None:
    """400 random numbers/option mixes (50 a seed)."""
    rng = random.Random(4242 + seed)
    check([_random_case(rng) for _ in range(50)])


def test_long_double_rounding_exact() -> None:
    """Values whose binary long double sits just off a decimal tie round as GNU rounds them."""
    cases = [line(f"--to={to} --round={r} -- {n}") for to in ("none", "si", "iec")
             for r in ("up", "down", "nearest", "from-zero", "towards-zero")
             for n in ("0.1", "2.675", "1.005", "1000.05", "9.95", "-9.95", "1999.5", "0.3", "1e1")]
    check(cases)


def test_hostile_input_is_bounded() -> None:
    """A fraction with thousands of zeros, a huge padding: one answer each, no traceback."""
    from sandbox.commands.testing import run_command
    code, out, err = run_command(["numfmt", "0." + "0" * 6000 + "1"])
    assert b"Traceback" not in err
    code, out, err = run_command(["numfmt", "--padding=99999999999", "1"])
    assert b"Traceback" not in err


_PIECES = ["1000", "1.5K", "x", "", " ", "\t", "  2000", "3M", "-4", "12345678", "é", "5 ", ":",
           ",", "\n", "0.05", "B", "\x00", "7Ki", "9.99", "1e"]


def _field_case(rng: random.Random) -> tuple[list[str], bytes]:
    opts: list[str] = []
    if rng.random() < 0.5:
        opts.append("--from=" + rng.choice(["auto", "si", "iec-i"]))
    if rng.random() < 0.8:
        opts.append("--to=" + rng.choice(["si", "iec", "iec-i"]))
    if rng.random() < 0.4:
        opts.append("-d" + rng.choice([":", ",", " ", "\t"]))
    if rng.random() < 0.5:
        opts.append("--field=" + rng.choice(["1", "2", "1,3", "2-", "-2", "-", "1-3,5"]))
    if rng.random() < 0.3:
        opts.append(rng.choice(["--header", "--header=2"]))
    if rng.random() < 0.2:
        opts.append("-z")
    if rng.random() < 0.3:
        opts.append("--suffix=" + rng.choice(["B", "iB", "é"]))
    if rng.random() < 0.3:
        opts.append("--padding=" + rng.choice(["4", "-6", "10"]))
    opts.append("--invalid=" + rng.choice(["fail", "warn", "ignore", "abort"]))
    data = "".join(rng.choice(_PIECES) + rng.choice([" ", ":", ",", "\t", "\n", "\0", ""])
                   for _ in range(rng.randint(0, 25)))
    if rng.random() < 0.3:  # numbers as operands: a field's blanks make GNU read the next one
        return ["numfmt", *opts, "--", *data.replace("\0", "").split("\n")], b""
    return ["numfmt", *opts], data.encode() + (b"\xff" if rng.random() < 0.1 else b"")


@pytest.mark.parametrize("seed", range(4))
def test_generated_fields(seed: int) -> None:
    """200 random lines of fields, delimiters, headers, NULs and blanks (50 a seed)."""
    rng = random.Random(777 + seed)
    check([_field_case(rng) for _ in range(50)])


def test_hostile_stdin_is_fast_enough() -> None:
    """A megabyte of zeros on one line, a long line without newline: one answer, no hang."""
    from sandbox.commands.testing import run_command
    code, out, err = run_command(["numfmt", "--to=si"], stdin=b"0" * (1 << 20) + b"1\n")
    assert (code, out, err) == (0, b"1\n", b"")
    code, out, err = run_command(["numfmt", "--field=3-", "--invalid=ignore"], stdin="é ".encode() * (1 << 18))
    assert code == 0 and out == "é ".encode() * (1 << 18) and err == b""


SHELL_CASES = [
    "numfmt < d", "numfmt --header < d", "numfmt --to=si 1000 < d", "printf '1000\\n' | numfmt --to=si | numfmt --from=si",
    "printf '1K 2K\\n' | numfmt --from=si --field=2",
]


@pytest.mark.parametrize("script", SHELL_CASES)
def test_in_the_shell_against_bash(script: str, tmp_path: Path) -> None:
    """numfmt in pipelines and reading a directory, against the same line in bash."""
    import subprocess
    from sandbox import Policy, Sandbox
    gts.need("numfmt")
    (tmp_path / "d").mkdir()
    ref = subprocess.run(["bash", "-c", script], capture_output=True, cwd=tmp_path, env=gts.REF_ENV, timeout=30)
    r = Sandbox(mounts={"/w": str(tmp_path)}, cwd="/w", policy=Policy(allow={"numfmt", "printf"})).run(script)
    assert (r.exit_code, r.stdout, r.stderr) == (ref.returncode, ref.stdout, ref.stderr)
