"""Differential tests of ``patch``'s choice of the file to patch, against GNU patch 2.7.6: the
old, new and ``Index:`` names of a header (existing files first; then GNU's greedy walk for
fewest components, shortest ``base_len`` (which measures the whole name) and shortest name;
for a created file the fewest new directories), with ``-p``, the dialogues that follow a
choice (reversed or already applied, create an existing file, delete a missing one) under
``-f -t -N -R -s -b --dry-run``, whole-tree diffs (``diff -ru topics t2 | patch -p0``), the
"can't find file" text with its ``-p`` hint, and names GNU quotes."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import test_patch as tp  # noqa: E402
import text_cmds_support as tcs  # noqa: E402

_OPTIONS = [[], [], ["-f"], ["-t"], ["-N"], ["--dry-run"], ["-R"], ["-s"], ["-b"], ["-s", "-f"],
            ["-s", "-t"], ["-N", "-s"], ["--verbose"], ["-F0"]]
_NAMES = ["notes.md", "n.md", "n", "notes", "doc/n.md", "doc/notes.md", "a/b/c.txt", "c.txt",
          "x/n.md", "nm.md"]


def _name_case(rng: random.Random):
    """Two or three names, some existing with the old text, some with the new, some not."""
    old_name, new_name = rng.sample(_NAMES, 2) if rng.random() < 0.85 else [rng.choice(_NAMES)] * 2
    index = rng.choice(_NAMES) if rng.random() < 0.25 else None
    old = tp.lines(rng, rng.randint(1, 8))
    new = old
    while new == old:
        new = tp.edit(rng, old) or [b"kept\n"]
    body = tp.make_diff(b"".join(old), b"".join(new), "u", rng.choice([3, 1, 0]))
    body = body.split(b"\n", 2)[2]  # the hunks, without diff's header
    header = b""
    if index:
        header += b"Index: " + index.encode() + b"\n"
    header += b"--- " + old_name.encode() + b"\n+++ " + new_name.encode() + b"\n"
    files: dict[str, bytes | None] = {}
    for name in {old_name, new_name, index} - {None}:
        r = rng.random()
        if r < 0.35:
            files[name] = b"".join(old)
        elif r < 0.6:
            files[name] = b"".join(new)
        elif r < 0.7:
            files[name] = b"other\n"
        elif r < 0.75:
            files[name] = None  # a directory of that name
    argv = ["patch"] + rng.choice(_OPTIONS) + rng.choice([[], [], ["-p0"], ["-p1"]])
    return argv, header + body, files


def test_generated_name_choice() -> None:
    rng = random.Random(7411)
    for _ in range(tcs.CASES):
        tp.compare(*_name_case(rng))


def test_generated_tree_p0() -> None:
    """``diff -ru topics t2 | patch -p0`` and the like: several files, subdirectories, files
    created and deleted, the tree being patched missing some, or partly patched already."""
    rng = random.Random(7412)
    done = 0
    while done < tcs.CASES:
        names = rng.sample(["f", "notes.md", "n.md", "sub/g", "sub/deep/h", "x.txt"], rng.randint(1, 4))
        old = {n: b"".join(tp.lines(rng, rng.randint(1, 10))) for n in names}
        new = {}
        for n, data in old.items():
            if rng.random() < 0.15:
                continue
            new[n] = b"".join(tp.edit(rng, data.splitlines(keepends=True))) or b"kept\n"
        if rng.random() < 0.4:
            new[rng.choice(["created", "sub/new", "nd/x/y"])] = b"new\nfile\n"
        flags = rng.choice([["-ru"], ["-ruN"], ["-ruN", "-U1"], ["-rcN"], ["-rc"]])
        sides = rng.choice([("topics", "t2"), ("a", "b"), ("old", "new")])
        patch = tp.tree_diff(old, new, flags, sides)
        if not patch:
            continue
        strip = rng.choice([["-p0"], ["-p0"], ["-p1"], []])
        target: dict[str, bytes | None] = {}
        for n, data in old.items():
            r = rng.random()
            if r < 0.1:
                continue
            data = new.get(n, data) if r < 0.2 else data
            if strip == ["-p0"] and rng.random() < 0.8:
                target[sides[0] + "/" + n] = data
            elif strip == ["-p0"] and rng.random() < 0.5:
                target[sides[1] + "/" + n] = data
            else:
                target[n] = data
        tp.compare(["patch"] + strip + rng.choice(_OPTIONS), patch, target)
        done += 1


_NOTES = b"--- notes.md\n+++ n.md\n@@ -1 +1 @@\n-a\n+b\n"


@pytest.mark.parametrize("opts", [[], ["-f"], ["-t"], ["-N"], ["--dry-run"], ["-R"], ["-s"], ["-b"],
                                  ["-s", "-f"], ["--verbose"], ["-o", "out"], ["-o", "-"],
                                  ["-r", "rej"], ["-i", "p"]])
@pytest.mark.parametrize("files", [
    {"notes.md": b"a\n", "n.md": b"b\n"},   # the brief's case: n.md is chosen, and looks patched
    {"notes.md": b"a\n", "n.md": b"a\n"},
    {"notes.md": b"a\n"},
    {"n.md": b"a\n"},
    {},
    {"notes.md": b"b\n", "n.md": b"x\n"},
])
def test_notes_md(opts: list[str], files: dict[str, bytes]) -> None:
    files = dict(files)
    stdin = _NOTES
    if opts == ["-i", "p"]:
        files["p"] = _NOTES
        stdin = b""
    tp.compare(["patch"] + opts, stdin, files)


@pytest.mark.parametrize("patch,files", [
    # Index: is used only when ---/+++ give no name.
    (b"Index: f\n--- g\n+++ g\n@@ -1 +1 @@\n-a\n+b\n", {"f": b"a\n", "g": b"a\n"}),
    (b"Index: f\n--- g\n+++ g\n@@ -1 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (b"Index: f\n@@ -1 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (b"Index: f\n--- /dev/null\n+++ /dev/null\n@@ -1 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    (b"Index: f x\n@@ -1 +1 @@\n-a\n+b\n", {"f": b"a\n"}),
    # Ties: fewest components, then shortest basename, then shortest name, then the first.
    (b"--- a/bb\n+++ ccc\n@@ -1 +1 @@\n-1\n+2\n", {"a/bb": b"1\n", "ccc": b"1\n"}),
    (b"--- ccc\n+++ a/bb\n@@ -1 +1 @@\n-1\n+2\n", {"a/bb": b"1\n", "ccc": b"1\n"}),
    (b"--- abc\n+++ xy\n@@ -1 +1 @@\n-1\n+2\n", {"abc": b"1\n", "xy": b"1\n"}),
    (b"--- d/abc\n+++ dd/ab\n@@ -1 +1 @@\n-1\n+2\n", {"d/abc": b"1\n", "dd/ab": b"1\n"}),
    (b"--- dd/ab\n+++ d/ab\n@@ -1 +1 @@\n-1\n+2\n", {"d/ab": b"1\n", "dd/ab": b"1\n"}),
    (b"--- x\n+++ y\n@@ -1 +1 @@\n-1\n+2\n", {"x": b"1\n", "y": b"1\n"}),
    # (GNU's greedy walk: a later name with fewer components but a longer name wins nothing.)
    (b"--- a/b\n+++ cccc\n@@ -1 +1 @@\n-1\n+2\n", {"a/b": b"1\n", "cccc": b"1\n"}),
    (b"--- cccc\n+++ a/b\n@@ -1 +1 @@\n-1\n+2\n", {"a/b": b"1\n", "cccc": b"1\n"}),
    (b"Index: q\n--- a/bb\n+++ ccc\n@@ -1 +1 @@\n-1\n+2\n", {"a/bb": b"1\n", "ccc": b"1\n"}),
    # A created file: the name needing the fewest new directories.
    (b"--- /dev/null\n+++ b/d1/d2/x\n@@ -0,0 +1 @@\n+a\n", {}),
    (b"--- a/x\t1970-01-01 00:00:00.000000000 +0000\n+++ b/d1/x\t2020-01-01 00:00:00.000000000 +0000\n"
     b"@@ -0,0 +1 @@\n+a\n", {"d1/": None}),
    (b"--- a/x\t1970-01-01 00:00:00.000000000 +0000\n+++ b/d1/x\t2020-01-01 00:00:00.000000000 +0000\n"
     b"@@ -0,0 +1 @@\n+a\n", {}),
    # The dialogues about the chosen name: the last name given is the one named.
    (b"--- x\t2020-01-01 00:00:00.000000000 +0000\n+++ y\t1970-01-01 00:00:00.000000000 +0000\n"
     b"@@ -1 +0,0 @@\n-a\n", {}),
    (b"--- x\t1970-01-01 00:00:00.000000000 +0000\n+++ y\t2020-01-01 00:00:00.000000000 +0000\n"
     b"@@ -0,0 +1 @@\n+a\n", {"x": b"a\n"}),
    (b"--- x\n+++ x\n@@ -0,0 +0,0 @@\n", {"x": b""}),
    # Dangerous names (absolute, ..) are refused, said once.
    (b"--- /abs/x\n+++ /abs/x\n@@ -1 +1 @@\n-a\n+b\n", {}),
    (b"--- a/../b\n+++ a/../b\n@@ -1 +1 @@\n-1\n+2\n", {"a/": None, "b": b"1\n"}),
    (b"--- /dev/null\n+++ ../x\n@@ -0,0 +1 @@\n+b\n", {}),
    # A directory of that name.
    (b"--- d\n+++ d\n@@ -1 +1 @@\n-a\n+b\n", {"d": None}),
    # Names with blanks, quotes, C escapes.
    (b"--- \"a\\tb\"\n+++ \"a\\tb\"\n@@ -1 +1 @@\n-a\n+b\n", {"a\tb": b"a\n"}),
    (b"--- a b\t2020-01-01\n+++ a b\t2020-01-01\n@@ -1 +1 @@\n-a\n+b\n", {"a b": b"a\n"}),
    (b"--- a b\n+++ a b\n@@ -1 +1 @@\n-a\n+b\n", {"a b": b"a\n"}),
    (b"--- \"bad\\q\"\n+++ \"bad\\q\"\n@@ -1 +1 @@\n-a\n+b\n", {}),
])
@pytest.mark.parametrize("opts", [["-p0"], ["-p0", "-f"], ["-p1", "-t"]])
def test_hand_written_names(patch: bytes, files: dict[str, bytes | None], opts: list[str]) -> None:
    tp.compare(["patch"] + opts, patch, files)


@pytest.mark.parametrize("name", [
    b"it's", b"a$b", b"it's $x", b"a\nb", b"\xc3\xa9t\xc3\xa9", b"x\x80y", b"it's\tq", b"#x",
    b"x#", b"~x", b"a:b", b"it's\"q", b"it's\\q", b"{", b"a{b", b"-x", b"a=b", b"\x01",
    b"x#it's", b"it's\xc3\xa9", b"a\rb", b"a@b"])
def test_quoted_names(name: bytes) -> None:
    """GNU prints names in the shell quoting style ('a b', "it's")."""
    quoted = b'"' + b"".join(b"\\%03o" % c if c < 32 or c > 126 or c in b'"\\' else bytes([c])
                             for c in name) + b'"'
    patch = b"--- " + quoted + b"\n+++ " + quoted + b"\n@@ -1 +1 @@\n-a\n+b\n"
    tp.compare(["patch"], patch, {name.decode("utf-8", "surrogateescape"): b"a\n"})


@pytest.mark.parametrize("opts", [[], ["-p0"], ["-p1"], ["-p9"], ["-f"], ["-t"], ["-s"], ["-s", "-f"],
                                  ["--verbose"], ["-p1", "--verbose"]])
@pytest.mark.parametrize("patch", [
    b"--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n",
    b"junk\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n",
    b"--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n--- g\n+++ g\n@@ -1 +1 @@\n-a\n+b\n",
    b"*** a/f\n--- b/f\n***************\n*** 1 ****\n! a\n--- 1 ----\n! b\n",
    b"1c1\n< a\n---\n> b\n",
    b"1c\nb\n.\n",
])
def test_cannot_find_file(patch: bytes, opts: list[str]) -> None:
    """"can't find file to patch", with GNU's hint about -p (none for normal diffs and ed
    scripts), the text before the patch, and the unanswered or skipped question."""
    tp.compare(["patch"] + opts, patch, {"g": b"a\n"})
    tp.compare(["patch", "-n"] + opts, patch, {"g": b"a\n"})
