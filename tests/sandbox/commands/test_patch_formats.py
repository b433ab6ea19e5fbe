"""Differential tests of ``patch`` on the other diff formats, against GNU patch 2.7.6: normal
diffs (``diff f g | patch f``), context diffs (``diff -c``, ``-C N``, ``-p``, old-style
hand-written ones with parts omitted) and ed scripts (``diff -e f g | patch f``, which GNU
applies silently through ed): generated files and edits, applied to the original, shifted,
changed and already-patched copies, with the options that change what patch does; plus
hand-written malformed and unusual inputs."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import test_patch as tp  # noqa: E402
import text_cmds_support as tcs  # noqa: E402

_OPTIONS = [[], [], [], ["-N"], ["-f"], ["-t"], ["-b"], ["-s"], ["--dry-run"], ["-F0"], ["-F1"], ["-R"],
            ["--no-backup-if-mismatch"], ["-o", "out"], ["-o", "-"], ["--verbose"], ["-E"],
            ["-r", "rej"], ["--reject-format=unified"], ["--reject-format=context"], ["--binary"]]
_C_LINES = [b"int f(void)", b"{", b"  return 0;", b"}", b"static int x;", b"", b"void g(int a)",
            b"  a++;", b"  if (a) {", b"  }"]


def _texts(rng: random.Random, c_like: bool = False) -> tuple[list[bytes], list[bytes]]:
    if c_like:
        old = [rng.choice(_C_LINES) + b"\n" for _ in range(rng.randint(0, 40))]
    else:
        old = tp.lines(rng, rng.randint(0, 30))
    new = tp.edit(rng, old)
    if rng.random() < 0.15 and old:
        old[-1] = old[-1].rstrip(b"\n")
    if rng.random() < 0.15 and new:
        new[-1] = new[-1].rstrip(b"\n")
    if rng.random() < 0.1:
        old = [line.replace(b"\n", b"\r\n") for line in old]
        new = [line.replace(b"\n", b"\r\n") for line in new]
    return old, new


def _run(rng: random.Random, fmt: str) -> None:
    done = 0
    while done < tcs.CASES:
        old, new = _texts(rng, c_like=fmt == "c" and rng.random() < 0.5)
        extra = ["-p"] if fmt == "c" and rng.random() < 0.5 else []
        patch = tp.make_diff(b"".join(old), b"".join(new), fmt, rng.choice([3, 3, 1, 2, 0, 5]),
                             extra=extra)
        if not patch:
            continue
        if rng.random() < 0.1:
            patch = patch.replace(b"\n", b"\r\n")
        files: dict[str, bytes | None] = {"f": b"".join(tp.perturb(rng, old, new))}
        if rng.random() < 0.05:
            del files["f"]
        opts = rng.choice(_OPTIONS) + (rng.choice(_OPTIONS) if rng.random() < 0.3 else [])
        if fmt in "ne" or rng.random() < 0.5:
            argv = ["patch"] + opts + ["f"]
        else:
            argv = ["patch", rng.choice(["-p1", "-p0"])] + opts
        if rng.random() < 0.2:
            files["p.diff"] = patch
            argv += ["-i", "p.diff"]
            patch = b""
        tp.compare(argv, patch, files)
        done += 1


def test_generated_normal() -> None:
    _run(random.Random(7421), "n")


def test_generated_context() -> None:
    _run(random.Random(7422), "c")


def test_generated_ed() -> None:
    _run(random.Random(7423), "e")


def test_generated_context_trees() -> None:
    """``diff -rc`` / ``-rcN`` of whole trees: several files, created and deleted ones."""
    rng = random.Random(7424)
    done = 0
    while done < tcs.CASES:
        old = {n: b"".join(tp.lines(rng, rng.randint(1, 12)))
               for n in rng.sample(["f", "g", "sub/h", "x"], rng.randint(1, 4))}
        new = {n: b"".join(tp.edit(rng, d.splitlines(keepends=True))) or b"kept\n"
               for n, d in old.items() if rng.random() > 0.15}
        if rng.random() < 0.4:
            new["created"] = b"new\nfile\n"
        patch = tp.tree_diff(old, new, rng.choice([["-rc"], ["-rcN"], ["-rcN", "-C1"]]))
        if not patch:
            continue
        target = {n: (new.get(n, d) if rng.random() < 0.2 else d) for n, d in old.items()
                  if rng.random() > 0.1}
        tp.compare(["patch", "-p1"] + rng.choice(_OPTIONS[:13]), patch, target)
        done += 1


_NUMBERS = b"1\n2\n3\n4\n5\n6\n7\n8\n9\n"


@pytest.mark.parametrize("patch,files", [
    (b"3c3\n< 3\n---\n> three\n7a8\n> new\n", {"f": _NUMBERS}),
    (b"3c3\n< 3\n---\n> three\n7a8\n> new\n", {"f": b"0\n" + _NUMBERS}),
    (b"3c3\n< 3\n---\n> three\n7a8\n> new\n", {"f": b"x\nx\nx\n4\n5\n6\n7\n8\n9\n"}),
    (b"3d2\n< 3\n", {"f": b"x\nx\nx\n4\n"}),
    (b"2c2\n< 2\n--\n> two\n", {"f": b"1\n2\n3\n"}),
    (b"2c2\n< 2\n> two\n", {"f": b"1\n2\n3\n"}),
    (b"2c2\n<2\n---\n> two\n", {"f": b"1\n2\n3\n"}),
    (b"2c2\n< 2\n---\n", {"f": b"1\n2\n3\n"}),
    (b"2,3c2\n< 2\n< 3\n---\n> two\n", {"f": b"1\n2\n3\n"}),
    (b"3,2c2\n< 2\n---\n> two\n", {"f": b"1\n2\n3\n"}),
    (b"2c3,2\n< 2\n---\n> two\n", {"f": b"1\n2\n3\n"}),
    (b"2d1\n< 2\n\\ No newline at end of file\n", {"f": b"1\n2"}),
    (b"1a2\n> 2\n\\ No newline at end of file\n", {"f": b"1\n"}),
    (b"0a1\n> 0\n", {"f": b"1\n"}),
    (b"0a1\n> 0\n", {}),
    (b"5a6\n> 0\n", {"f": b"1\n"}),
    (b"1x\n< a\n", {"f": b"a\nb\n"}),
    (b"1c1\nzz\n< a\n---\n> b\n", {"f": b"a\nb\n"}),
    (b"  1c1\n  < a\n  ---\n  > b\n", {"f": b"a\nb\n"}),
    (b"1c1\r\n< a\r\n---\r\n> b\r\n", {"f": b"a\nb\n"}),
    (b"1c1\n< a\n---\n> b\n2c2\n< x\n---\n> y\n", {"f": b"a\nb\n"}),
])
@pytest.mark.parametrize("opts", [[], ["-R"], ["-s", "-f"], ["-o", "-"]])
def test_hand_written_normal(patch: bytes, files: dict[str, bytes | None], opts: list[str]) -> None:
    tp.compare(["patch"] + opts + ["f"], patch, files)


_A = {"a": b"1\n2\n3\n4\n5\n6\n7\n8\n"}


@pytest.mark.parametrize("patch,files", [
    # Old-style (no "****"/"----" marks), the new part omitted or the old part omitted.
    (b"*** a\n--- b\n***************\n*** 1,7\n  1\n  2\n  3\n- 4\n  5\n  6\n  7\n--- 1,6\n", _A),
    (b"*** a\n--- b\n***************\n*** 2,7\n  2\n  3\n- 4\n  5\n  6\n  7\n--- 2,6\n", _A),
    (b"*** a\n--- b\n***************\n*** 2,4\n--- 2,5\n  2\n  3\n+ x\n  4\n", _A),
    (b"*** a\n--- b\n***************\n*** 2,4\n  2\n! 3\n  4\n--- 2,4\n  2\n! three\n  4\n", _A),
    (b"*** a\n--- b\n***************\n*** 2,4\n  2\n! 3\n  4\n--- 2,4\n  2\n! three\n  4\n",
     {"a": b"1\n2\nX\n4\n5\n"}),
    # Blank lines whose leading blanks were eaten.
    (b"*** a\n--- b\n***************\n*** 2,4 ****\n  2\n! 3\n\n--- 2,4 ----\n  2\n! three\n\n",
     {"a": b"1\n2\n3\n\n5\n"}),
    (b"*** a\n--- b\n***************\n*** 2,4 ****\n\t2\n! 3\n  4\n--- 2,4 ----\n  2\n! three\n  4\n",
     {"a": b"1\n2\n3\n4\n5\n"}),
    # Two hunks, the second only deleting; C functions in the hunk header.
    (b"*** a\n--- b\n***************\n*** 2,4 ****\n  2\n! 3\n  4\n--- 2,4 ----\n  2\n! three\n  4\n"
     b"***************\n*** 8,9 ****\n  8\n- 9\n--- 8 ----\n", {"a": _NUMBERS}),
    (b"*** a\n--- b\n*************** f()\n*** 2,4 ****\n  2\n! 3\n  4\n--- 2,4 ----\n  2\n! three\n  4\n",
     {"a": b"1\n2\nX\n4\n5\n"}),
    # Malformed: short parts, duplicated '---', mangled context, bad numbers, early ends.
    (b"*** a\n--- b\n***************\n*** 2,4 ****\n  2\n! 3\n  4\n--- 2,4 ----\n  2\n! three\n",
     {"a": b"1\n2\n3\n4\n5\n"}),
    (b"*** a\n--- b\n***************\n*** 2,4 ****\n  2\n! 3\n  4\n", {"a": b"1\n2\n3\n4\n5\n"}),
    (b"*** a\n--- b\n***************\n*** 2,4 ****\n  2\n! 3\n--- 2,4 ----\n  2\n! three\n  4\n",
     {"a": b"1\n2\n3\n4\n5\n"}),
    (b"*** a\n--- b\n***************\n*** 2,4 ****\n  2\n! 3\n  4\n  5\n--- 2,4 ----\n  2\n! three\n  4\n",
     {"a": b"1\n2\n3\n4\n5\n"}),
    (b"*** a\n--- b\n***************\n*** 2,4 ****\n  2\n! 3\n  4\n--- 2,4 ----\n  2\n! three\n  4\n"
     b"--- 2,4 ----\n", {"a": b"1\n2\n3\n4\n5\n"}),
    (b"*** a\n--- b\n***************\n*** 2,4 ****\n  2\n! 3\n  4\n--- 2,4 ----\n  2\n! three\n  X\n",
     {"a": b"1\n2\n3\n4\n5\n"}),
    (b"*** a\n--- b\n***************\n*** 2,x ****\n", {"a": b"1\n"}),
    (b"*** a\n--- b\n***************\n*** 5,2 ****\n", {"a": b"1\n"}),
    (b"*** a\n--- b\n***************\n*** 2,3 ****\n  2\n--- 2,3 ----\n", {"a": b"1\n2\n3\n"}),
    (b"*** a\n--- b\n***************\n*** 2,3 ****\n  2\n  3\n  4\n  5\n  6\n  7\n  8\n  9\n",
     {"a": b"1\n2\n3\n"}),
    (b"*** a\n--- b\n***************\n*** 2,3 ****\n  2\n  3\n***************\n", {"a": b"1\n2\n3\n"}),
    (b"*** a\n--- b\n***************\n*** 2,3 ****\n  2\n  3\n*** 4\n", {"a": b"1\n2\n3\n"}),
    (b"*** a\n--- b\n***************\n*** 2,3 ****\n  2\n  3\n?? 4\n", {"a": b"1\n2\n3\n"}),
    # Empty parts, files created and emptied, missing newlines.
    (b"*** a\n--- b\n***************\n*** 0 ****\n--- 1 ----\n+ x\n", {"a": b""}),
    (b"*** a\n--- b\n***************\n*** 1 ****\n- x\n--- 0 ----\n", {"a": b"x\n"}),
    (b"*** /dev/null\n--- b\n***************\n*** 0 ****\n--- 1 ----\n+ x\n", {}),
    (b"*** a\n--- b\n***************\n*** 2,4 ****\n  2\n! 3\n  4\n--- 2,4 ----\n  2\n! three\n  4\n"
     b"\\ No newline at end of file\n", {"a": b"1\n2\n3\n4"}),
    (b"*** a\n--- b\n***************\n*** 2,4 ****\n  2\n! 3\n  4\n\\ No newline at end of file\n"
     b"--- 2,4 ----\n  2\n! three\n  4\n", {"a": b"1\n2\n3\n4"}),
])
@pytest.mark.parametrize("opts", [[], ["--verbose"], ["-R", "-f"], ["--reject-format=unified"]])
def test_hand_written_context(patch: bytes, files: dict[str, bytes | None], opts: list[str]) -> None:
    tp.compare(["patch"] + opts, patch, files)


@pytest.mark.parametrize("patch,files", [
    (b"2c\ntwo\n.\n", {"f": b"1\n2\n3"}),
    (b"3c\nthree\n.\n", {"f": b"1\n2\n3"}),
    (b"5d\n", {"f": b"1\n2\n3\n"}),
    (b"0a\nx\n.\n", {}),
    (b"1,2d\n", {"f": b"1\n2\n"}),
    (b"2a\n.\ns/.//\n", {"f": b"1\n2\n"}),
    (b"2s/.//\n", {"f": b"1\n\n"}),
    (b"0i\nz\n.\n", {"f": b"1\n2\n"}),
    (b"1i\n.\ns/.//\n", {"f": b"1\n2\n"}),
    (b"0c\nz\n.\n", {"f": b"1\n2\n"}),
    (b"2,1d\n", {"f": b"1\n2\n"}),
    (b"1d\ns/.//\n", {"f": b"1\n2\n"}),
    (b"2d\ns/.//\n", {"f": b"1\n2\n"}),
    (b"1,2c\n.\ns/.//\n", {"f": b"1\n2\n"}),
    (b"3c\n..\n.\ns/.//\na\ny\n.\n1c\nx\n.\n", {"f": b"a\n.\nb\n"}),
    (b"1c\nb\n", {"f": b"a\n"}),
    (b"1d\n2d\n", {"f": b"a\nb\n"}),
    (b"garbage\n1d\n", {"f": b"a\nb\n"}),
    (b"1d\ngarbage\n", {"f": b"a\nb\n"}),
    (b"1d\n--- f\n+++ f\n@@ -1 +1 @@\n-b\n+c\n", {"f": b"a\nb\n"}),
    (b"1c\n# not a comment\n.\n", {"f": b"a\nb\n"}),
    (b"1c\nx\n.\n2c\ny\n", {"f": b"a\nb\n"}),
    (b"1c\r\nx\r\n.\r\n", {"f": b"a\nb\n"}),
    (b"  1c\n  x\n  .\n", {"f": b"a\nb\n"}),
    (b"1,2s/.//\n", {"f": b"ab\n\n"}),
    (b"1,2s/.//\n", {"f": b"\n\n"}),
    (b"s/.//\n", {"f": b"ab\ncd\n"}),
    (b"a\nx\n.\n", {"f": b"ab\ncd\n"}),
    (b"i\nx\n.\n", {"f": b"ab\ncd\n"}),
    (b"c\nx\n.\n", {}),
])
@pytest.mark.parametrize("opts", [[], ["-b"], ["-E"], ["--dry-run"], ["-o", "-"], ["-o", "out"],
                                  ["--verbose"], ["-s"]])
def test_hand_written_ed(patch: bytes, files: dict[str, bytes | None], opts: list[str]) -> None:
    tp.compare(["patch"] + opts + ["f"], patch, files)


@pytest.mark.parametrize("args,patch", [
    (["-n", "f"], b"--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n"),
    (["-n"], b"1c1\n< a\n---\n> b\n"),
    (["-n", "-f"], b"1c1\n< a\n---\n> b\n"),
    (["-e", "-f"], b"1c\nb\n.\n"),
    (["-e", "f"], b"1c\nb\n.\n"),
    (["-u", "f"], b"1c1\n< a\n---\n> b\n"),
    (["-c", "f"], b"--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n"),
    (["-c", "f"], b"*** f\n--- f\n***************\n*** 1 ****\n! a\n--- 1 ----\n! b\n"),
    (["-u"], b"--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n--- f\n+++ f\n@@ -1 +1 @@\n-b\n+c\n"),
    (["f"], b"1c1\n< a\n---\n> b\n"),
    ([], b"1c1\n< a\n---\n> b\n"),
    ([], b"1c\nb\n.\n"),
])
def test_forced_format(args: list[str], patch: bytes) -> None:
    """-c -e -n -u say how to read the first file patch; without a file operand, normal diffs
    and ed scripts have no name (and GNU finds no patch without a header)."""
    tp.compare(["patch"] + args, patch, {"f": b"a\n"})
