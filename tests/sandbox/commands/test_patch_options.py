"""Differential tests of ``patch`` against GNU patch 2.7.6 for: ``-o -`` (the patched text on
stdout, the messages on stderr), CR LF patches (``(Stripping trailing CRs from patch; use
--binary to disable.)``) and CR LF files, hunks shorter than their ``@@`` counts (GNU assumes
the missing lines were blank), and the options ``-d``/``--directory``, ``-E``/``--remove-
empty-files``, ``-r``/``--reject-file`` and ``--verbose``."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import test_patch as tp  # noqa: E402
import text_cmds_support as tcs  # noqa: E402


def _one(rng: random.Random, fmt: str = "u") -> tuple[bytes, dict[str, bytes | None]]:
    """A diff of a random edit (``a/f`` to ``b/f``) and a tree holding a copy of ``f`` to patch."""
    while True:
        old = tp.lines(rng, rng.randint(0, 25))
        new = tp.edit(rng, old)
        if rng.random() < 0.15 and old:
            old[-1] = old[-1].rstrip(b"\n")
        if rng.random() < 0.15 and new:
            new[-1] = new[-1].rstrip(b"\n")
        patch = tp.make_diff(b"".join(old), b"".join(new), fmt, rng.choice([3, 1, 0, 2]))
        if patch:
            return patch, {"f": b"".join(tp.perturb(rng, old, new))}


def _multi(rng: random.Random, flags: list[str] | None = None):
    """A ``diff -ruN`` of two trees and a copy of the old tree (some files missing or patched)."""
    while True:
        old = {n: b"".join(tp.lines(rng, rng.randint(1, 10)))
               for n in rng.sample(["f", "g", "sub/h", "sub/deep/k", "x"], rng.randint(1, 4))}
        new = {}
        for n, d in old.items():
            if rng.random() < 0.2:
                continue
            new[n] = b"".join(tp.edit(rng, d.splitlines(keepends=True)))
            if not new[n] and rng.random() < 0.5:
                new[n] = b"kept\n"
        if rng.random() < 0.3:
            new[rng.choice(["created", "sub/new", "nd/x/y"])] = b"new\n"
        patch = tp.tree_diff(old, new, flags or rng.choice([["-ruN"], ["-rcN"], ["-ru"]]))
        if patch:
            target = {n: (new.get(n, d) if rng.random() < 0.2 else d) for n, d in old.items()
                      if rng.random() > 0.1}
            return patch, target


_SOME = [[], [], ["-f"], ["-t"], ["-N"], ["-R"], ["-s"], ["--dry-run"], ["-b"], ["-F0"]]


def test_generated_output_stdout() -> None:
    """``patch -o - [f]``: text to stdout, 'patching file - (read from f)' and the rest on
    stderr, rejects in ``-.rej``; several files concatenated."""
    rng = random.Random(7431)
    for k in range(tcs.CASES):
        if k % 3 == 2:
            patch, files = _multi(rng)
            argv = ["patch", "-p1", "-o", "-"] + rng.choice(_SOME)
        else:
            patch, files = _one(rng, rng.choice("uucne"))
            argv = ["patch", "-o", "-"] + rng.choice(_SOME) + ["f"]
        tp.compare(argv, patch, files)


def test_generated_crlf() -> None:
    """CR LF patches on LF files (stripped, with GNU's note), on CR LF files (different line
    endings), with --binary; CR LF files with LF patches."""
    rng = random.Random(7432)
    for _ in range(tcs.CASES):
        patch, files = _one(rng, rng.choice("uuucn"))
        r = rng.random()
        if r < 0.6:
            patch = patch.replace(b"\n", b"\r\n")
        if r > 0.4:
            files["f"] = (files["f"] or b"").replace(b"\n", b"\r\n")
        argv = ["patch"] + rng.choice([[], [], ["--binary"], ["-s"], ["--verbose"], ["-f"]])
        tp.compare(argv + ["f"] if rng.random() < 0.5 or b"@@" not in patch[:200] else
                   argv + ["-p1"], patch, files)


def _shorten(rng: random.Random, patch: bytes) -> bytes:
    """Drop lines from the end of a hunk (so it is shorter than its counts), or the trailing
    blank lines, or the last newline."""
    lines = patch.splitlines(keepends=True)
    r = rng.random()
    if r < 0.5:
        hunks = [k for k, line in enumerate(lines) if line.startswith(b"@@")]
        k = rng.choice(hunks)
        end = next((j for j in range(k + 1, len(lines)) if lines[j].startswith(b"@@")), len(lines))
        cut = rng.randint(1, min(3, max(1, end - k - 1)))
        del lines[max(k + 1, end - cut):end]
    elif r < 0.8:
        lines = lines[:-rng.randint(1, min(3, len(lines) - 3))] if len(lines) > 4 else lines
    else:
        return patch[:-1]
    return b"".join(lines)


def test_generated_short_hunks() -> None:
    """Hunks shorter than their ``@@`` counts (hand-edited patches): up to 3 missing lines are
    taken as blank context (and so usually apply with fuzz, backing the file up), more are
    'unexpected end of file', a missing middle line 'malformed'."""
    rng = random.Random(7433)
    for _ in range(tcs.CASES):
        patch, files = _one(rng, "u")
        patch = _shorten(rng, patch)
        tp.compare(["patch"] + rng.choice(_SOME + [["--verbose"]]) + ["f"], patch, files)


def test_generated_directory() -> None:
    """``-d DIR``: the patch, the files it names and ``-i``/``-o``/``-r`` paths relative to DIR."""
    rng = random.Random(7434)
    for _ in range(tcs.CASES):
        patch, files = _multi(rng) if rng.random() < 0.5 else _one(rng)
        sub = rng.choice(["w", "w/in", "w"])
        tree: dict[str, bytes | None] = {f"{sub}/{n}": d for n, d in files.items()}
        tree.setdefault(sub + "/", None)
        argv = ["patch", "-p1"] + rng.choice([["-d", sub], [f"--directory={sub}"],
                                              ["-d", sub.split("/")[0]] + (["-d", "in"] if "/" in sub else [])])
        argv += rng.choice([[], [], ["-o", "out"], ["-r", "r.rej"], ["--dry-run"], ["-s"]])
        if rng.random() < 0.3:
            tree[f"{sub}/p.diff"] = patch
            argv += ["-i", "p.diff"]
            patch = b""
        elif rng.random() < 0.1:
            argv[1:1] = ["-d", "missing"]
        tp.compare(argv, patch, tree)


def test_generated_remove_empty() -> None:
    """``-E``: files the patch leaves empty are removed (with the directories they empty)."""
    rng = random.Random(7435)
    for _ in range(tcs.CASES):
        old = tp.lines(rng, rng.randint(1, 6))
        new = [] if rng.random() < 0.6 else tp.edit(rng, old)
        name = rng.choice(["f", "sub/f", "sub/deep/f"])
        patch = tp.make_diff(b"".join(old), b"".join(new), rng.choice("uucn"),
                             labels=(f"a/{name}", f"b/{name}"))
        if not patch:
            continue
        files: dict[str, bytes | None] = {name: b"".join(tp.perturb(rng, old, new))}
        if rng.random() < 0.3:
            files[name.rsplit("/", 1)[0] + "/other" if "/" in name else "other"] = b"x\n"
        opts = ["-E"] + rng.choice([[], ["-b"], ["--dry-run"], ["--verbose"], ["-R"], ["-f"]])
        if patch.startswith((b"---", b"***")):
            tp.compare(["patch", "-p1"] + opts, patch, files)
        else:
            tp.compare(["patch"] + opts + [name], patch, files)


def test_generated_reject_file() -> None:
    """``-r FILE``: all rejects in one file (truncated first, appended after), ``-r -`` none."""
    rng = random.Random(7436)
    for _ in range(tcs.CASES):
        patch, files = _multi(rng)
        files = {n: (b"noise\n" + d if d and rng.random() < 0.5 else d) for n, d in files.items()}
        if rng.random() < 0.3:
            files["all.rej"] = b"old rejects\n"
        rej = rng.choice(["all.rej", "all.rej", "-", "sub/r.rej", "nodir/r.rej"])
        tp.compare(["patch", "-p1", "-r", rej] + rng.choice(_SOME + [["--reject-format=context"]]),
                   patch, files)


def test_generated_verbose() -> None:
    """``--verbose``: GNU's commentary (Hmm..., Looks like ..., the text leading up, Plan A,
    every hunk's place, Removing file, done)."""
    rng = random.Random(7437)
    for k in range(tcs.CASES):
        if k % 2:
            patch, files = _multi(rng, rng.choice([["-ruN"], ["-rcN"]]))
            if rng.random() < 0.3:
                patch = b"some mail text\n\n" + patch + b"-- \nsignature\n"
            argv = ["patch", "-p1", "--verbose"]
        else:
            patch, files = _one(rng, rng.choice("ucne"))
            argv = ["patch", "--verbose", "f"]
        tp.compare(argv + rng.choice(_SOME), patch, files)


_F = {"f": b"1\n2\n3\n"}
_P = b"--- f\n+++ f\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n"


@pytest.mark.parametrize("argv,patch,files", [
    (["patch", "-o", "-", "f"], _P, _F),
    (["patch", "-o", "-"], _P, _F),
    (["patch", "-o", "-", "f"], _P.replace(b"-2", b"-X"), _F),
    (["patch", "-o", "-", "-s", "f"], _P.replace(b"-2", b"-X"), _F),
    (["patch", "-o", "-", "f"], _P, {"f": b"1\ntwo\n3\n"}),
    (["patch", "-o", "-", "-t", "f"], _P, {"f": b"1\ntwo\n3\n"}),
    (["patch", "-o", "-", "f"], b"", _F),
    (["patch", "-o", "out", "f"], b"", {"f": b"1\n2"}),
    (["patch", "-o", "-", "f"], b"junk\n", _F),
    (["patch", "-o", "-", "f"], b"2c\ntwo\n.\n", _F),
    (["patch", "-o", "-", "f"], b"2c\ntwo\n.\n", {"f": b"1\n2\n3"}),
    (["patch", "-o", "-", "f"], b"9c\ntwo\n.\n", _F),
    (["patch", "-o", "-", "-p1"], b"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n 1\n-2\n\\ No newline at end of file\n"
     b"+3\n\\ No newline at end of file\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-a\n+b\n", {"f": b"1\n2", "g": b"a\n"}),
    (["patch", "-o", "out"], b"--- f\n+++ f\n@@ -1,2 +1,2 @@\n 1\n-2\n\\ No newline at end of file\n"
     b"+3\n\\ No newline at end of file\n--- g\n+++ g\n@@ -1 +1 @@\n-a\n+b\n", {"f": b"1\n2", "g": b"a\n"}),
    (["patch", "-o", "d"], _P, {"f": b"1\n2\n3\n", "d": None}),
    (["patch", "-o", "f"], _P, _F),
    (["patch", "-o", "nd/out"], _P, _F),
    # CR LF.
    (["patch"], _P.replace(b"\n", b"\r\n"), _F),
    (["patch"], _P.replace(b"\n", b"\r\n"), {"f": b"1\r\n2\r\n3\r\n"}),
    (["patch", "--binary"], _P.replace(b"\n", b"\r\n"), {"f": b"1\r\n2\r\n3\r\n"}),
    (["patch", "--binary"], _P.replace(b"\n", b"\r\n"), _F),
    (["patch", "-s"], _P.replace(b"\n", b"\r\n"), _F),
    (["patch"], _P.replace(b"+two\n", b"+two\r\n"), _F),
    (["patch"], b"--- f\r\n+++ f\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n", _F),
    (["patch", "f"], b"2c2\r\n< 2\r\n---\r\n> two\r\n", _F),
    # Only LF ends a line (a lone CR or FF is text).
    (["patch"], b"--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\rb\n-c\n+d\n", {"f": b"a\rb\nc\n"}),
    (["patch"], b"junk\rmore\n--- g\n+++ g\n@@ -1,2 +1,2 @@\n a\rb\n-c\n+d\n", {"f": b"a\rb\nc\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\x0cb\n-c\n+d\n", {"f": b"a\x0cb\nc\n"}),
    # Hunks shorter than their counts (the brief's case first).
    (["patch"], b"--- f\n+++ f\n@@ -2,2 +2,2 @@\n-a\n+b\n", {"f": b"x\na\ny\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -2,2 +2,2 @@\n-a\n+b\n", {"f": b"x\na\n\n"}),
    (["patch", "-F0"], b"--- f\n+++ f\n@@ -2,2 +2,2 @@\n-a\n+b\n", {"f": b"x\na\ny\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -1,3 +1,3 @@\n-a\n+b\n", {"f": b"a\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -1,3 +1,3 @@\n-a\n+b\nzzz\n", {"f": b"a\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n+c\n", {"f": b"a\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -1,9 +1,9 @@\n-a\n+b\n", {"f": b"a\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b", {"f": b"a\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -1 +1 @@\n-a", {"f": b"a\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -x +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -1 1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -1 +1 \n-a\n+b\n", {"f": b"a\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -0,0 +0,0 @@\n", {"f": b""}),
    (["patch"], b"--- f\n+++ f\n@@ -99999999999999999999 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    # Counts too big for memory: GNU's retry ("Plan B"), then "out of memory".
    (["patch"], b"--- f\n+++ f\n@@ -1,99999999999 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (["patch", "--verbose"], b"--- f\n+++ f\n@@ -1,99999999999 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (["patch", "-o", "o"], b"--- f\n+++ f\n@@ -1,99999999999 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -1,9999999 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (["patch"], b"*** f\n--- f\n***************\n*** 1,99999999999 ****\n--- 1 ----\n+ b\n", {"f": b"a\n"}),
    (["patch"], b"*** f\n--- f\n***************\n*** 1,2 ****\n--- 1,99999999999 ----\n+ b\n", {"f": b"a\n"}),
    (["patch", "f"], b"1,99999999999d0\n< a\n", {"f": b"a\n"}),
    (["patch"], b"--- g\n+++ g\n@@ -1,99999999999 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (["patch"], b"--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n--- f\n+++ f\n@@ -1,99999999999 +1 @@\n-b\n+c\n",
     {"f": b"a\n"}),
    # Indented and RFC 934 quoted patches, comments.
    (["patch"], b"  --- f\n  +++ f\n  @@ -1 +1 @@\n  -a\n  +b\n", {"f": b"a\n"}),
    (["patch"], b"- --- f\t2020-01-01 00:00:00 +0000\n- +++ f\t2020-01-01 00:00:00 +0000\n@@ -1 +1 @@\n- -a\n+b\n",
     {"f": b"a\n"}),
    (["patch"], b"# c\n--- f\n+++ f\n# c\n@@ -1 +1 @@\n-a\n# c\n+b\n", {"f": b"a\n"}),
    (["patch"], b"Prereq: 1.2\n--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (["patch", "-f"], b"Prereq: 1.2\n--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (["patch", "-t"], b"Prereq: 1.2\n--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (["patch", "--verbose"], b"Prereq: 1.2 x\n--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n", {"f": b"a 1.2\n"}),
    (["patch", "-p1"], b"diff --git a/f b/f\nindex 123..456 100644\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n",
     {"f": b"a\n"}),
    # Missing directories of the file to patch are made first (and stay after a fatal error).
    (["patch", "-p0", "-i", "p.diff"], b"", {"p.diff": b"*** a/f\n--- b/f\n***************\n*** 0 ****\n"
     b"--- 1 ----\n+ x\n***************\n*** 6 ****\n- - y\n--- 6 ----\n*************** f()\n*** 15 ****\n"
     b"--- 16 ----\n+ z\n"}),
    (["patch", "-p1", "-f", "-r", "-", "x/y/f"], b"--- b/x/y/f\n+++ b/x/y/f\n@@ -1 +1 @@\n-a\n+b\n", {}),
    (["patch", "-p1", "-f", "x/y/f"], b"5c\nb\n.\n", {}),
    (["patch", "-p1", "--dry-run"], b"--- /dev/null\n+++ b/x/y/f\n@@ -0,0 +1 @@\n+a\n", {}),
    # -d, -E, -r, --verbose by hand.
    (["patch", "-d", "w", "-i", "p"], b"", {"w/p": _P, "w/f": b"1\n2\n3\n"}),
    (["patch", "-d", "w", "-o", "o", "-r", "r"], _P.replace(b"-2", b"-X"), {"w/f": b"1\n2\n3\n"}),
    (["patch", "-d", "nope"], _P, _F),
    (["patch", "-d", "f"], _P, _F),
    (["patch", "-d", "w", "-d", "x", "f"], _P, {"w/x/f": b"1\n2\n3\n"}),
    (["patch", "-p1", "-E"], b"--- a/x\n+++ b/x\n@@ -1 +0,0 @@\n-a\n", {"x": b"a\n"}),
    (["patch", "-p1"], b"--- a/x\n+++ b/x\n@@ -1 +0,0 @@\n-a\n", {"x": b"a\n"}),
    (["patch", "-p1", "-E", "--verbose"], b"--- a/s/x\n+++ b/s/x\n@@ -1 +0,0 @@\n-a\n", {"s/x": b"a\n"}),
    (["patch", "-p1", "--verbose"], b"--- a/sub/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n", {"sub/x": b"a\n"}),
    (["patch", "-p1", "-b"], b"--- a/sub/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n", {"sub/x": b"a\n"}),
    (["patch", "--dry-run", "-r", "r"], _P.replace(b"-2", b"-X"), _F),
    (["patch", "--dry-run", "-o", "out"], _P, _F),
    (["patch", "--dry-run", "-o", "out"], _P.replace(b"-2", b"-X"), _F),
    (["patch", "--dry-run", "-o", "out", "f"], b"2c\ntwo\n.\n", _F),
    (["patch", "-r", "-", "-s"], _P.replace(b"-2", b"-X"), _F),
    (["patch", "-r", "sub/R"], _P.replace(b"-2", b"-X"), _F),
    (["patch", "--verbose"], b"junk\n" + _P + b"trailing\n", _F),
    (["patch", "--verbose"], b"", _F),
    (["patch", "--verbose"], b"junk\n", _F),
    (["patch", "--verbose", "-R"], _P, _F),
    (["patch", "--verbose", "-s"], _P, _F),
])
def test_hand_written_options(argv: list[str], patch: bytes, files: dict[str, bytes | None]) -> None:
    tp.compare(argv, patch, files)


@pytest.mark.parametrize("args,expected", [
    (["-d", "w"], ["w"]),
    (["-d", "w", "-o", "o"], ["w/o", "w/o.rej"]),
    (["-o", "-"], ["-.rej"]),
    (["-o", "o", "-r", "-"], ["o"]),
    (["-r", "r.rej"], [".", "r.rej"]),
    (["--dry-run", "-r", "r"], []),
    (["--dry-run", "-o", "o"], ["o"]),
    (["-d", "a", "--directory=b"], ["a/b"]),
])
def test_writes(args: list[str], expected: list[str]) -> None:
    """What the guard is told patch may write."""
    from sandbox.commands.patch import writes
    assert writes(args) == expected
