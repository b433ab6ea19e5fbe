"""Differential tests of ``diff`` against GNU diffutils 3.8, through the whole sandbox.

Generated cases (``DIFF_CASES``, default 400): random files over a small vocabulary (repeated
lines exercise GNU's discarding and boundary shifting), randomly edited (runs inserted, deleted,
replaced, duplicated, moved), with CRLF, missing final newlines, NUL bytes, invalid UTF-8 and
whitespace/case variants, under random option sets: the hunks must match byte for byte. File
mtimes are set by the tree builder, so -u/-c headers are compared too (UTC, +0000).
"""

from __future__ import annotations

import os
import random
import shlex
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from exec_support import check_all, compare, missing  # noqa: E402

pytestmark = pytest.mark.skipif(missing("diff") is not None, reason=str(missing("diff")))

A = b"one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"
B = b"one\ntwo\n3\nfour\nfive\nsix\nseven\nEIGHT\nnine\nten\neleven\n"
TREE = {
    "a": A, "b": B, "same": A, "empty": b"", "nonl": b"one\ntwo", "nonl2": b"one\ntwo2",
    "crlf": A.replace(b"\n", b"\r\n"), "case": A.upper(), "ws": b"one  \ntwo\tx\n  three\n",
    "ws2": b"one\ntwo x\nthree\n", "blank": b"one\n\n\ntwo\n", "blank2": b"one\ntwo\n\n",
    "uni": "café 日本 x\n".encode(), "bin": b"a\0b\n", "bin2": b"a\0c\n", "tabs": b"a\tb\n", "spaces": b"a       b\n",
    "da/f": b"1\n", "da/only": b"x\n", "da/s/g": b"g\n", "da/s/h": b"h1\n", "da/same": b"s\n",
    "da/t": b"file\n", "db/f": b"2\n", "db/s/g": b"g\n", "db/s/h": b"h2\n", "db/same": b"s\n",
    "db/t/x": b"dir\n", "db/new": b"n\n", "qa/x y": b"1\n", "qb/x y": b"2\n",
    "qa/é\tt": b"1\n", "qb/é\tt": b"3\n",
}

HAND = [
    "diff a b", "diff -u a b", "diff -c a b", "diff -U0 a b", "diff -U 1 a b", "diff -C 0 a b",
    "diff -C1 a b", "diff --unified=2 a b", "diff --context=5 a b", "diff --unified a b",
    "diff --context a b", "diff -q a b", "diff --brief a b", "diff -s a same", "diff -s a b",
    "diff a same; echo $?", "diff -u a empty", "diff -u empty a", "diff empty a", "diff a empty",
    "diff nonl nonl2", "diff -u nonl nonl2", "diff -c nonl a", "diff nonl a", "diff a nonl",
    "diff a crlf", "diff --strip-trailing-cr a crlf; echo $?", "diff -u --strip-trailing-cr a crlf",
    "diff -i a case; echo $?", "diff a case", "diff -w ws ws2", "diff -b ws ws2", "diff -Z ws ws2",
    "diff -b spaces tabs", "diff -E spaces tabs; echo $?", "diff -B blank blank2; echo $?",
    "diff -B -u blank blank2", "diff bin bin2", "diff -q bin bin2", "diff -a bin bin2",
    "diff bin bin; echo $?", "diff -s bin bin", "diff bin a", "diff da db", "diff -r da db",
    "diff -ru da db", "diff -r -q da db", "diff -rN da db", "diff -r -u -N da db",
    "diff -q -r da db", "diff da/f db/f", "diff da db/f", "diff da/f db", "diff -r da da",
    "diff -s -r da da", "diff --label L1 --label L2 -u a b", "diff --label=X -u a b",
    "diff --label L1 -c a b", "diff --color=never a b", "diff --color=auto -u a b",
    "diff --color=bogus a b", "diff a", "diff", "diff a b c", "diff nope a", "diff a nope",
    "diff -N nope a", "diff -N -u a nope", "diff --foo a b", "diff -c -u a b", "diff -U x a b",
    "diff -C -1 a b", "diff -d a b", "diff --minimal -u a b", "diff --normal a b",
    "diff - b < a", "diff -u a - < b | sed 's/^+++ -\t.*/+++ -/'", "cat a | diff -q - same", "cat a | diff - -; echo $?", "cat a | diff -s - -", "diff --help | head -3",
    "diff -u a b | head -3 | tail -1", "diff --text -u bin bin2", "diff -i -u case b",
    "diff -y a b", "diff -y -W 40 a b", "diff -y --left-column a b",
    "diff -y --suppress-common-lines a b", "diff -y nonl nonl2", "diff -y nonl a",
    "diff -y tabs spaces", "diff -y -W 20 ws ws2", "diff -y -W 7 a b", "diff -y -W x a b",
    "diff -y -u a b", "diff -y a same", "diff -W 50 -y blank blank2", "diff -y crlf a",
    "diff -r -x f da db", "diff -r -x s -x only da db", "diff -r --exclude='*' da db",
    "diff -r -x '[a-f]*' -u da db", "diff -X nope da db", "diff -x f da/f db/f",
    "diff -r qa qb", "diff -ru qa qb", "diff -c 'qa/x y' 'qb/x y'", "diff -q qa/é\\tt qb/é\\tt", "diff -u qa/é* qb/é*", "diff nope1 nope2", "diff -y bin bin2", "diff -y -W 131 a b", "diff -y -W 1 a b", "diff --side-by-side --width=60 uni a",
    "diff --help", "diff -v", "diff --version", "diff --he",
    "cat a | { diff - -; echo $?; wc -c; }", "cat a | { diff -q - -; diff -s - -; wc -l; }",
    "touch -d '2020-01-02 03:04:05.123456789' a b && diff -u a b; diff -c a b | head -2",
]


def _mask(data: bytes) -> bytes:
    return data


@pytest.mark.parametrize("script", HAND)
def test_hand_written(script: str) -> None:
    check_all([(script, TREE)])


WORDS = [b"alpha", b"beta", b"gamma", b"}", b"", b"{", b"return x;", b"x = 1;", b"end",
         b"caf\xc3\xa9", b"bad\xff", b"  indented", b"\tTab", b"A  B", b"a b", b"ALPHA"]


def _file(rng: random.Random, n: int) -> list[bytes]:
    return [rng.choice(WORDS[:rng.randint(3, len(WORDS))]) for _ in range(n)]


def _edit(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    out = list(lines)
    for _ in range(rng.randint(0, 6)):
        op = rng.random()
        pos = rng.randint(0, len(out))
        if op < 0.3:
            out[pos:pos] = _file(rng, rng.randint(1, 4))
        elif op < 0.55:
            del out[pos:pos + rng.randint(1, 4)]
        elif op < 0.75:
            out[pos:pos + rng.randint(1, 3)] = _file(rng, rng.randint(1, 3))
        elif op < 0.85 and out:
            seg = out[pos:pos + rng.randint(1, 3)]
            out[pos:pos] = seg
        elif out:
            i = rng.randrange(len(out))
            out[i] = rng.choice([out[i].upper(), out[i] + b" ", b" " + out[i], out[i].replace(b" ", b"  ")])
    return out


def _join(rng: random.Random, lines: list[bytes]) -> bytes:
    sep = b"\r\n" if rng.random() < 0.1 else b"\n"
    data = sep.join(lines)
    if lines and rng.random() < 0.85:
        data += sep
    if rng.random() < 0.03:
        data += b"\0"
    return data


OPTIONS = [[], ["-u"], ["-c"], ["-U0"], ["-U1"], ["-C2"], ["-U5"], ["-i"], ["-w"], ["-b"],
           ["-B"], ["-E"], ["-Z"], ["--strip-trailing-cr"], ["-q"], ["-s"], ["-a"], ["-d"],
           ["-u", "-b"], ["-c", "-i"], ["-u", "-B"], ["-U2", "-w"], ["-c", "-B", "-b"],
           ["-y"], ["-y", "-W", "50"], ["-y", "--suppress-common-lines"], ["-y", "-W", "33", "-b"]]


def test_generated() -> None:
    rng = random.Random(3800)
    cases = []
    for _ in range(int(os.environ.get("DIFF_CASES", "400"))):
        base = _file(rng, rng.randint(0, 40))
        if rng.random() < 0.1:
            base = _file(rng, rng.randint(100, 400))
        a = _join(rng, base)
        b = _join(rng, _edit(rng, base))
        opts = rng.choice(OPTIONS)
        cases.append((f"diff {shlex.join(opts)} f1 f2; echo \"rc=$?\"", {"f1": a, "f2": b}))
    check_all(cases)


def test_deep_tree_is_bounded() -> None:
    """diff -r over a tree 60 directories deep (and wide at the bottom) stays correct."""
    tree: dict = {}
    path_a, path_b = "A", "B"
    for i in range(60):
        path_a += f"/d{i}"
        path_b += f"/d{i}"
    for k in range(30):
        tree[f"{path_a}/f{k}"] = b"x\n" * k
        tree[f"{path_b}/f{k}"] = b"x\n" * (k + (k % 3 == 0))
    report = compare("diff -r A B; echo $?", tree)
    assert report is None, report


def test_generated_large_files() -> None:
    """Bigger files (600-4000 lines) of mostly distinct lines with repeated blank and brace
    lines, a few percent edited: exercises the discard heuristics (lines matching many, runs
    of lines matching nothing), Myers' too-expensive cut-off and boundary shifting at sizes
    the small-vocabulary cases don't reach."""
    rng = random.Random(3801)
    cases = []
    for _ in range(int(os.environ.get("DIFF_LARGE_CASES", "24"))):
        n = rng.randint(600, 4000)
        vocab = rng.randint(50, 5000)
        base = [rng.choice([b"", b"}", b"{"]) if rng.random() < rng.choice([0.02, 0.2, 0.4])
                else b"line %d" % rng.randrange(vocab) for _ in range(n)]
        other = list(base)
        for _ in range(int(n * rng.choice([0.005, 0.01, 0.05, 0.3]))):
            i = rng.randrange(len(other))
            op = rng.random()
            if op < 0.4:
                other[i] = b"changed %d" % rng.randrange(vocab)
            elif op < 0.7:
                other.insert(i, rng.choice([b"", b"}", b"new %d" % rng.randrange(vocab)]))
            elif len(other) > 1:
                del other[i]
        opts = rng.choice([[], ["-u"], ["-c"], ["-U0"], ["-b"], ["-y", "-W", "80"], ["-d"]])
        cases.append((f"diff {shlex.join(opts)} f1 f2 | md5sum; echo \"rc=${{PIPESTATUS[0]}}\"",
                      {"f1": b"\n".join(base) + b"\n", "f2": b"\n".join(other) + b"\n"}))
    check_all(cases)
