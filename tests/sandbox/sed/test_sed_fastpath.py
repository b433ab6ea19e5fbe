"""The block-scan fast path gives exactly the slow path's (and GNU's) output, also across
block boundaries (the block size is shrunk here so that every line crosses one)."""

from __future__ import annotations

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import sandbox.commands.sed.fastpath as fastpath  # noqa: E402
from sed_harness import SKIP_REASON, Case, check_cases, reference_available  # noqa: E402

SCRIPTS = [
    ["s/foo/X/g"], ["s/o*/-/g"], ["-n", "/foo/p"], ["/foo/d"], ["/^b/s/a/A/2"],
    ["-n", "s/\\(f\\)o/\\1[&]/gp"], ["/baz/Is/Q/z/"], ["s/$/!/"], ["s/^/>/"], ["-n", "/o$/p"],
    ["/\xe9/s/t/T/g"], ["-E", "s/(foo|bar)/[\\1]/g"], ["s/x*//g"], ["-n", "/a\\|z/p"],
    ["s/FOO/y/Ig"], ["-n", "/^$/p"], ["/./!d"], ["s/.$/E/"], ["-n", "/\\bba/p"], ["-E", "-n", "/o{2}/p"],
    ["s/a/b/", "in.txt"], ["-n", "/foo/p", "missing.txt"],
    ["-n", "/foo/{p;p}"], ["/ba/{s/a/A/;s/z/Z/g}"], ["/o/{/f/d;s/o/0/}"], ["-n", "/a/{s/a/b/p}"],
    ["/foo/{a after\n}"], ["/bar/{i before\n}"], ["/baz/{c changed\n}"], ["/o/{y/o/0/;P}"],
    ["/f/{s/f/F/;t;s/o/O/}"], ["/o/{/f/,/z/s/o/_/}"], ["-n", "/^$/{p;p}"], ["/foo/{z}"],
    ["/qux/{w out.txt\n}"], ["/t/{r in.txt\n}"], ["/f/I{s/o/0/2}"], ["-n", "/o/{=;p}"],
    ["/a/{3,5d;2~2s/a/A/}"], ["-n", "/o/{l;F}"], ["/o/{0,/f/s/o/Q/}"], ["-n", "/o/{4,+1=}"],
    # whole-block transforms (bytes.replace, bytes.translate, counting newlines)
    ["s/foo/F/g"], ["s/oo/o/g"], ["s/o/oo/g"], ["s/foo/a\\nb/g"], ["s/\xe9/e/g"],
    ["s/baz q/|/g"], ["s/\\./!/g"], ["y/abo/xyz/"], ["y/o/\\n/"], ["-n", "$="], ["$="],
    ["-n", "$=", "in.txt"], ["s/foo/X/g", "in.txt", "missing.txt"], ["-s", "-n", "$="],
    ["s/foo/&&/g"], ["s/foo/\\U&/g"], ["-n", "s/foo/X/g"], ["s/\xe9t/?/g"],
    ["-e", "/^$/d", "-e", "s/  */ /g"], ["s/o\\+/0/g"], ["-E", "s/o+/0/g"], ["s/oo*/0/g"],
    ["/^$/d"], ["/foo/d"], ["-e", "s/foo//g", "-e", "/^$/d"], ["-e", "s/o/\\n/g", "-e", "/^$/d"],
    ["-e", "y/o/\\n/", "-e", "/^$/d"], ["-e", "/baz/d", "-e", "s/a/b/g", "-e", "y/b/c/"],
    ["-n", "3,5p"], ["-n", "2p"], ["-n", "4,2p"], ["3d"], ["2,4d"], ["1~3d"], ["0~2d"],
    ["-n", "2~3p"], ["-n", "0~4p"], ["$d"], ["-n", "$p"], ["-n", "1,1p"], ["5~2d"],
    ["-n", "10,20p"], ["1d"], ["$d", "in.txt"], ["-n", "3p", "in.txt"],
    ["s/ */_/g"], ["s/\\\\*/x/g"], ["s/o*/&/g"], ["-e", "/^$/d", "-e", "/foo/d", "in.txt"],
    # -n 'A,Bp' on a file stops reading once past B
    ["-n", "2,3p", "in.txt"], ["-n", "4,2p", "in.txt"], ["-n", "1p", "in.txt"],
    ["-n", "16p", "in.txt"], ["-n", "1,1p", "in.txt"],
    # s///g with groups (Python re.sub on blocks when the match and its groups are unique)
    ["-E", "s/(o)(o)/\\2\\1/g"], ["-E", "s/(foo|bar)/[\\1]/g"], ["s/\\(a\\)\\(z\\)/\\2-\\1/g"],
    ["-E", "s/(fo|ba)(o|r)/<\\2\\1&>/g"], ["-E", "s/(f|fo)o/X/g"], ["-E", "s/(\xe9)t/\\1\\\\/g"],
    ["-E", "s/o(o)/\\1\\n/g"], ["-E", "-e", "s/(o)/\\1\\n/g", "-e", "/^$/d"],
    ["-E", "s/baz|qux/Q/g"], ["-E", "s/(a|b)(a|z)/\\2\\1/g"], ["-E", "s/(o)/\\U\\1/g"],
    ["-E", "s/(oo|o)/_/g"], ["-E", "s/(F)(O)(O)\r/\\3\\2\\1/g"], ["-E", "s/(b)(a)/&\\0/g"],
    ["-E", "-e", "s/(a)(r)/\\2\\1/g", "-e", "s/foo/f/g"],
]
WORDS = [b"foo", b"bar", b"baz qux", b"", b"\xc3\xa9t\xc3\xa9", b"foofoo", b"FOO\r", b"\xff",
         b"a  b   c", b"  ", b"oo o"]


def _cases(seed: int, n: int) -> list[Case]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        data = b"\n".join(rng.choice(WORDS) for _ in range(rng.randint(0, 15)))
        if data and rng.random() < 0.6:
            data += b"\n"
        out.append(Case(list(rng.choice(SCRIPTS)), data, {"in.txt": data}))
    return out


@pytest.mark.skipif(not reference_available(), reason=SKIP_REASON)
@pytest.mark.parametrize("block", [1, 7, 64, 1 << 20])
def test_fast_path_matches_gnu(monkeypatch, block: int) -> None:
    monkeypatch.setattr(fastpath, "BLOCK", block)
    monkeypatch.setattr(fastpath, "_SLICE", block)  # re.sub's slices of a block, too
    total, failures = check_cases(_cases(block, int(os.environ.get("SED_FAST_CASES", "300"))))
    assert not failures, "\n\n".join(failures)


def test_fast_path_is_taken_for_the_common_scripts(monkeypatch) -> None:
    """The scripts of the benchmark run through the block scan (checked by counting)."""
    from sandbox.commands.testing import run_command

    calls = []
    real_scan = fastpath._scan
    real_blocks = fastpath._scan_blocks
    monkeypatch.setattr(fastpath, "_scan", lambda *a: (calls.append(1), real_scan(*a)))
    monkeypatch.setattr(fastpath, "_scan_blocks",
                        lambda *a: (calls.append(2), real_blocks(*a)))
    real_lines = fastpath._substitute_lines
    monkeypatch.setattr(fastpath, "_substitute_lines",
                        lambda *a: (calls.append(3), real_lines(*a)))
    for argv in (["sed", "-n", "/pricing/p"], ["sed", "s/pricing/X/g"],
                 ["sed", "-E", "s/(budget|deadline)/[\\1]/g"], ["sed", "-n", "/pricing/{p;}"],
                 ["sed", "-n", "$="], ["sed", "y/ab/AB/"], ["sed", "-E", "s/(a)(b)/\\2\\1/g"]):
        code, out, _ = run_command(argv, stdin=b"a pricing budget\nb\n")
        assert code == 0 and out
    assert calls == [1, 2, 3, 1, 2, 2, 2]
