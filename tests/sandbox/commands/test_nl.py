"""nl: differential tests against GNU coreutils 9.1."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

TEXT = (b"a\n\nb\n\n\n\nc\n\\:\\:\\:\nh\n\n\\:\\:\nbody\n\n\\:\nfoot\nx\r\n\xff\x00\n"
        b"\xc3\xa9t\xc3\xa9\nxx:\nxx:xx:\nlast")

ARGS = [
    "", "-b a", "-b a -l 2", "-b a -l 3", "-b t -l 2", "-b n", "-b pb", "-b 'p^[a-c]'", "-b 'p\\(x\\)\\1'",
    "-b p", "-h a -f t", "-h t -f a -b n", "-p -h a", "-p -b a -f a", "-d x", "-d xx", "-d ''", "-d :",
    "-d abc", "-n ln -w 3 -s ::", "-n rz -v -5 -i 3", "-n rn -w 1", "-i 0", "-i -1", "-v 0",
    "-v 9223372036854775806 -b a", "-v -9223372036854775808", "-w 0", "-w -1", "-w 99999999999999999999",
    "-w 2147483648", "-l 0", "-v 5x", "-v ''", "-v ' +3'", "-i 99999999999999999999", "-b x", "-h y",
    "-f z", "-n x -b y", "-b x -b 'p\\('", "-b 'p\\('", "-b 'p['", "--foo", "-x", "-s ''", "-s %d",
    "-s 'é'", "--body-numbering=a --number-format=rz --number-width=2", "--no-renumber --header=a",
    "--starting-line-number=10 --line-increment=10", "--join-blank-lines=2 -ba", "--section-delimiter=xx",
    "nonexist", "- nonexist", "-n", "-w 20 -n ln",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    tcs.line(f"nl {args}", stdin=TEXT)


def test_files_form_one_stream() -> None:
    files = {"a": b"1\nno newline", "b": b"\n2\n", "e": b""}
    tcs.line("nl -ba a e b - a", stdin=b"s\n", files=files)
    tcs.compare(["nl", "d", "a"], files=files, dirs=["d"])


def test_line_number_overflow() -> None:
    tcs.line("nl -v 9223372036854775806 -b a", stdin=b"1\n2\n3\n4\n")
    tcs.line("nl -v -9223372036854775807 -i -1 -b a", stdin=b"1\n2\n3\n")


def test_generated() -> None:
    def make(rng: random.Random):
        data = tcs.gen_text(rng)
        if rng.random() < 0.3:
            lines = data.split(b"\n")
            for _ in range(rng.randint(1, 3)):
                lines.insert(rng.randint(0, len(lines)), rng.choice([b"\\:", b"\\:\\:", b"\\:\\:\\:"]))
            data = b"\n".join(lines)
        argv = ["nl"]
        for opt in ("-b", "-h", "-f"):
            if rng.random() < 0.4:
                argv += [opt, rng.choice(["a", "t", "n", "pa", "p^$", "p[0-9]"])]
        if rng.random() < 0.3:
            argv += ["-n", rng.choice(["ln", "rn", "rz"])]
        if rng.random() < 0.3:
            argv += ["-w", str(rng.randint(1, 8))]
        if rng.random() < 0.3:
            argv += ["-v", str(rng.randint(-5, 5)), "-i", str(rng.randint(-3, 3))]
        if rng.random() < 0.2:
            argv += ["-l", str(rng.randint(1, 3))]
        if rng.random() < 0.2:
            argv += ["-s", rng.choice(["", ":", " | "])]
        if rng.random() < 0.1:
            argv.append("-p")
        return argv, data, None

    tcs.sweep(make, seed=33)
