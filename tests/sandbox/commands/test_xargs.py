"""Differential tests of ``xargs`` against GNU findutils 4.9 (through the whole sandbox: the
commands xargs runs go through ``ctx.run_command``).

Hand-written cases for every option, then seeded generated cases (``XARGS_CASES`` to raise the
count): random input (blanks, quotes, backslashes, NUL, CRLF, unicode, invalid UTF-8, empty
items) under random option sets.
"""

from __future__ import annotations

import os
import random
import shlex
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from exec_support import check_all, missing  # noqa: E402

pytestmark = pytest.mark.skipif(missing("xargs") is not None, reason=str(missing("xargs")))

P = "printf '<%s>\\n'"

HAND = [
    "printf 'a b\\nc\\n' | xargs -t -n1 echo 'x y'",
    "printf 'a b c d e f\\n' | xargs -s 10 echo",
    "printf 'aaaaaaaaaaaa b\\n' | xargs -s 10 echo",
    "echo one two three | xargs -s 9 echo; echo $?",
    "echo one two three | xargs -n2 -s 9 echo; echo $?",
    "echo one two three | xargs -x -s 9 echo; echo $?",
    "echo one two three | xargs -L1 -s 9 echo; echo $?",
    "printf 'a b\\nc d e\\n' | xargs -L2 -s 12 echo; echo $?",
    "printf 'a b\\nc d e\\n' | xargs -L1 -s 12 echo; echo $?",
    "printf 'a b\\n' | xargs -x -s 7 -n 2 echo",
    "printf 'a b c\\n' | xargs -x -s 9 echo",
    "printf \"a 'b\\n\" | xargs echo",
    "printf 'a \"b\\n' | xargs echo",
    "printf 'a b\\nc\\n' | xargs -L1 -n2 echo",
    "printf 'a b\\nc\\n' | xargs -n1 -L2 echo",
    "printf 'a\\n' | xargs -n1 -I{} echo {}",
    "printf 'a\\n' | xargs -L1 -I{} echo {}",
    "printf 'a\\n' | xargs -I{} -L1 echo {}",
    "printf 'a\\n' | xargs -s 0 echo",
    "printf \"''\\n\" | xargs -n1 echo X",
    "printf 'a \\nb\\nc d\\n\\ne\\n' | xargs -L1 echo",
    "printf 'a \\nb\\nc d\\n\\ne\\n' | xargs -L2 echo",
    "printf 'a \\nb\\nc d\\n\\ne\\n' | xargs -l echo",
    "printf ' a b \\n c\\n\\n' | xargs -I{} echo [{}]",
    "printf ' a b \\n c\\n\\n' | xargs -i echo [{}]",
    "printf 'a\\nb\\n' | xargs --replace=@ echo @-@",
    "printf 'a\\nb\\n' | xargs -I @ echo x",
    "printf '' | xargs -I{} echo x{}",
    "printf 'a\\0b\\0\\0c' | xargs -0 -n1 echo X",
    "printf 'a\\0b\\0\\0c\\0' | xargs -0 -L2 echo X",
    "printf 'a b\\n' | xargs -E b echo",
    "printf 'a b\\nEND\\nc\\n' | xargs -E END echo",
    "printf 'a b\\nEND\\nc\\n' | xargs -eEND echo",
    "printf 'a b\\nEND\\nc\\n' | xargs -e echo",
    "printf 'a b\\n' | xargs -0 -E b echo",
    "printf 'a\\n' | xargs false; echo $?",
    "printf 'a\\n' | xargs true; echo $?",
    "printf 'a\\nb\\n' | xargs -n1 grep -q a; echo $?",
    "printf 'f1\\nf2\\n' | xargs cat",
    "printf 'f1\\nnope\\nf2\\n' | xargs cat; echo $?",
    "printf 'f1\\nf2\\n' | xargs -n1 wc -c",
    "printf 'a,b,,c' | xargs -d, -n2 echo",
    "printf 'a\\tb\\tc' | xargs -d '\\t' echo",
    "printf 'aXb' | xargs -d '\\x58' echo",
    "printf 'a\\nb' | xargs -d '\\n' -n1 echo",
    "printf 'a\\nb' | xargs -d '\\012' -n1 echo",
    "printf 'a\\n' | xargs -d '\\x100' echo",
    "printf 'a\\\\ b \"c d\" e\\n' | xargs -n1 echo",
    "printf 'a\\\\\\nb c\\n' | xargs -n1 echo",
    "xargs -a list echo < /dev/null",
    "xargs -a nope echo; echo $?",
    "xargs --arg-file=list -n1 echo < /dev/null",
    "printf '' | xargs echo hi; printf '' | xargs -r echo hi",
    "printf ' \\n\\n' | xargs --no-run-if-empty echo hi; echo $?",
    "printf 'a\\n' | xargs -n x echo; printf 'a\\n' | xargs -d ab echo",
    "printf 'a\\n' | xargs -n 0 echo; printf 'a\\n' | xargs -L 0 echo",
    "printf 'a\\n' | xargs -P -1 echo; printf 'a\\n' | xargs -P x echo; printf 'a\\n' | xargs -s x echo",
    "printf 'a\\n' | xargs -n 1x echo",
    "printf 'a b c d\\n' | xargs -P 4 -n1 echo | sort",
    "printf 'a b c d\\n' | xargs --max-procs=2 --max-args=2 echo | sort",  # GNU's order races
    "printf 'a b\\n' | xargs --process-slot-var=SLOT -n1 printenv SLOT",
    "printf 'a b\\n' | xargs -z echo",
    "printf 'a b\\n' | xargs --bogus echo",
    "printf 'a b\\n' | xargs -n",
    "printf 'a b\\n' | xargs --verbose --max-chars=12 echo",
    "printf 'a b c d e f g\\n' | xargs --exit -n 3 -s 12 echo; echo $?",
    "printf 'x\\n' | xargs",
    "printf 'x y\\n' | xargs -n1",
    "printf 'é ü\\n日本 語\\n' | xargs -n1 echo",
    "printf 'a\\r\\nb\\r\\n' | xargs -n1 printf '<%s>\\n'",
    "printf 'bad\\377 \\303x\\n' | xargs -n1 printf '<%s>\\n'",
    "printf 'a b\\n' | xargs -- echo",
    "printf 'a b\\n' | xargs -t printf '%s.\\n' 2>&1",
    "printf 'a:b\\n' | xargs -t echo 'q\"r' \\$x 2>&1",
]


@pytest.mark.parametrize("script", HAND)
def test_hand_written(script: str) -> None:
    check_all([(script, {"f1": b"one\n", "f2": b"two", "list": b"x y\nz\n"})])


PIPES = [
    "find . -type f -print0 | sort -z | xargs -0 grep -l o",
    "find . -type f | sort | xargs wc -c",
    "find . -name 'f*' -print0 | sort -z | xargs -0 -n1 -I{} cat {}",
    "find . -type f | sort | xargs -n 1 -t head -c 2 2>&1",
    "printf 'f1\\0f2\\0' | xargs -0 cat | tr a-z A-Z",
    "ls | xargs -n 2 echo",
]


@pytest.mark.parametrize("script", PIPES)
def test_pipelines_with_find_and_friends(script: str) -> None:
    check_all([(script, {"f1": b"one\n", "f2": b"two", "list": b"x y\nz\n"})])


def _item(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.5:
        return rng.choice(["a", "bb", "memory", "42", "é", "日本", "x.y", "q_1", "\\377"])
    if kind < 0.6:
        return "'" + rng.choice(["a b", "", "x\\\"y", "  "]) + "'"
    if kind < 0.7:
        return '"' + rng.choice(["c d", "", "it's"]) + '"'
    if kind < 0.8:
        return rng.choice(["a\\ b", "\\'", "\\\\", "x\\\"y"])
    return rng.choice(["END", "zz", "\\r"])


def _input(rng: random.Random) -> str:
    """printf format text (octal escapes are expanded by printf)."""
    out = []
    for _ in range(rng.randint(0, 12)):
        out.append(_item(rng))
        out.append(rng.choice([" ", " ", "  ", "\\t", "\\n", "\\n", " \\n", "\\n\\n", "\\r\\n"]))
    return "".join(out)


def _delim_input(rng: random.Random, sep: str) -> str:
    items = [rng.choice(["a", "b c", "", "'q'", "é", "\\n", "END", "\\377"]) for _ in range(rng.randint(0, 8))]
    body = sep.join(items)
    return body + (sep if rng.random() < 0.5 else "")


def _case(rng: random.Random) -> str:
    opts: list[str] = []
    mode = rng.random()
    if mode < 0.2:
        opts.append("-0")
        data = _delim_input(rng, "\\0")
    elif mode < 0.3:
        d = rng.choice([",", ":", "\\n"])
        opts += ["-d", d]
        data = _delim_input(rng, {"\\n": "\\n"}.get(d, d))
    else:
        data = _input(rng)
    r = rng.random()
    if r < 0.3:
        opts += ["-n", str(rng.randint(1, 4))]
    elif r < 0.5:
        opts += ["-L", str(rng.randint(1, 3))]
    elif r < 0.6:
        opts += ["-I", "{}"]
    if rng.random() < 0.2:
        opts.append("-r")
    if rng.random() < 0.2 and "\\r" not in data:  # gnulib quotes 'x\r y' oddly (see report)
        opts.append("-t")
    if rng.random() < 0.15:
        opts += ["-s", str(rng.randint(12, 60))]
        if rng.random() < 0.3:
            opts.append("-x")
    if rng.random() < 0.1:
        opts += ["-E", "END"]
    if rng.random() < 0.1:
        opts += ["-P", "1"]  # more slots: GNU's output order is the children's race
    if "-I" in opts:
        cmd = ["printf", "<%s>\\n", "[{}]", "x{}y"]
    else:
        cmd = rng.choice([["printf", "<%s>\\n"], ["printf", "%s|"], ["printf", "<%s>\\n", "init"]])
    # stderr apart: GNU's children run asynchronously, so their output and xargs' own
    # messages interleave at random in one stream.
    return f"printf {shlex.quote(data)} | xargs {shlex.join(opts + cmd)}; echo \"rc=$?\""


def test_generated() -> None:
    rng = random.Random(15)
    cases = [(_case(rng), {}) for _ in range(int(os.environ.get("XARGS_CASES", "320")))]
    check_all(cases)
