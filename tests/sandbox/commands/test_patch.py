"""Differential tests of ``patch`` against GNU patch 2.7.6: random files, random edits, ``diff
-u`` between them, then the diff applied by the real patch and by ours to the original, to
slightly changed copies (offsets, fuzz, failures and rejects) and to already-patched files
(the reversed-patch dialogue); stdout, stderr, status and every file left must match.

The other ``test_patch_*.py`` files use this module's harness (``compare``) and generators
(``lines``, ``edit``, ``make_diff``, ``tree_diff``, ``perturb``)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402
import text_cmds_support as tcs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.fs.memory import MemoryFS  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402


def _reference(argv: list[str], stdin: bytes, files: dict[str, bytes | None]):
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in files.items():
            if data is None:
                Path(tmp, name).mkdir(parents=True, exist_ok=True)
                continue
            Path(tmp, name).parent.mkdir(parents=True, exist_ok=True)
            Path(tmp, name).write_bytes(data)
        proc = subprocess.run(argv, input=stdin, cwd=tmp, env=gts.REF_ENV, capture_output=True,
                              timeout=60, start_new_session=True)
        left: dict[str, bytes | None] = {}
        for root, dirs, names in os.walk(tmp):
            for n in names:
                full = Path(root, n)
                left[str(full.relative_to(tmp))] = full.read_bytes()
            for n in dirs:
                left[str(Path(root, n).relative_to(tmp)) + "/"] = None
        return proc.returncode, proc.stdout, proc.stderr, left


def ours(argv: list[str], stdin: bytes, files: dict[str, bytes | None]):
    """Our patch on a memory tree seeded with ``files`` (None: a directory): (status, stdout,
    stderr, every file and directory left)."""
    vfs = VirtualFS({"/": MemoryFS({k: v for k, v in files.items() if v is not None})})
    for name, data in files.items():
        if data is None:
            path = ""
            for part in filter(None, name.split("/")):
                path += "/" + part
                if not vfs.exists(path):
                    vfs.mkdir(path)
    code, out, err = run_command(argv, stdin=stdin, fs=vfs)
    left: dict[str, bytes | None] = {}
    stack = ["/"]
    while stack:
        d = stack.pop()
        for n in vfs.listdir(d):
            p = d.rstrip("/") + "/" + n
            if p == "/dev":
                continue
            if vfs.stat(p).is_dir:
                stack.append(p)
                left[p[1:] + "/"] = None
            else:
                left[p[1:]] = vfs.read_bytes(p)
    return code, out, err, left


def compare(argv: list[str], stdin: bytes, files: dict[str, bytes | None]) -> None:
    """Assert ours equals GNU patch on stdout, stderr, status and the files (and directories)
    left; a ``None`` in ``files`` seeds a directory."""
    gts.need("patch")
    ref = _reference(argv, stdin, files)
    mine = ours(argv, stdin, files)
    where = f"{argv!r}\nstdin={stdin[:3000]!r}\nfiles={ {k: v[:3000] if v else v for k, v in files.items()} }"
    assert mine[1] == ref[1], f"stdout differs\n ours={mine[1]!r}\n  ref={ref[1]!r}\n {where}"
    assert mine[2] == ref[2], f"stderr differs\n ours={mine[2]!r}\n  ref={ref[2]!r}\n {where}"
    assert mine[0] == ref[0], f"status {mine[0]} != {ref[0]}\n {where}"
    assert mine[3] == ref[3], f"files differ\n ours={mine[3]!r}\n  ref={ref[3]!r}\n {where}"


def _lines(rng: random.Random, n: int) -> list[bytes]:
    return [rng.choice([b"alpha", b"beta", b"gamma", b"delta", b"", b"x", b"line %d" % k])
            + b"\n" for k in range(n)]


def _edit(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    out = list(lines)
    for _ in range(rng.randint(1, 4)):
        k = rng.randint(0, len(out))
        r = rng.random()
        if r < 0.4 and k < len(out):
            out[k] = b"changed %d\n" % rng.randint(0, 99)
        elif r < 0.7:
            out.insert(k, b"added %d\n" % rng.randint(0, 99))
        elif k < len(out):
            del out[k]
    return out


def _diff(old: bytes, new: bytes, ctx_lines: int) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "a").write_bytes(old)
        Path(tmp, "b").write_bytes(new)
        proc = subprocess.run(["diff", f"-U{ctx_lines}", "--label", "a/f", "--label", "b/f", "a", "b"],
                              cwd=tmp, capture_output=True)
        return proc.stdout


#: Line texts the generators draw from: empty lines, a lone ".", "#" (a comment to pch.c
#: where it starts a patch line), leading blanks and tabs, text near ed's "s/.//" trick.
WORDS = [b"alpha", b"beta", b"gamma", b"delta", b"", b"x", b".", b"#c", b"  sp", b"\ttab",
         b"..", b"int f()", b"{", b"}", b"- dash", b"+ plus", b"< lt", b"> gt", b"***", b"@@"]


def lines(rng: random.Random, n: int) -> list[bytes]:
    """``n`` random lines (each with its newline)."""
    return [rng.choice(WORDS + [b"line %d" % k]) + b"\n" for k in range(n)]


def edit(rng: random.Random, old: list[bytes]) -> list[bytes]:
    """A copy of ``old`` with 1 to 4 random changes, insertions and deletions."""
    return _edit(rng, old)


def make_diff(old: bytes, new: bytes, fmt: str, context: int = 3,
              labels: tuple[str, str] = ("a/f", "b/f"), extra: list[str] | None = None) -> bytes:
    """``diff`` of two texts: ``fmt`` u (unified), c (context), n (normal) or e (ed script)."""
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "a").write_bytes(old)
        Path(tmp, "b").write_bytes(new)
        args = {"u": [f"-U{context}"], "c": [f"-C{context}"], "n": [], "e": ["-e"]}[fmt]
        if fmt in "uc":
            args += ["--label", labels[0], "--label", labels[1]]
        proc = subprocess.run(["diff"] + args + (extra or []) + ["a", "b"], cwd=tmp,
                              capture_output=True)
        return proc.stdout


def tree_diff(old: dict[str, bytes], new: dict[str, bytes], flags: list[str],
              sides: tuple[str, str] = ("a", "b")) -> bytes:
    """``diff FLAGS A B`` of two trees (names may have directories)."""
    with tempfile.TemporaryDirectory() as tmp:
        for side, tree in zip(sides, (old, new)):
            Path(tmp, side).mkdir()
            for name, data in tree.items():
                Path(tmp, side, name).parent.mkdir(parents=True, exist_ok=True)
                Path(tmp, side, name).write_bytes(data)
        return subprocess.run(["diff"] + flags + list(sides), cwd=tmp, capture_output=True).stdout


def perturb(rng: random.Random, old: list[bytes], new: list[bytes]) -> list[bytes]:
    """The file to patch: the original, shifted (offsets), with lines changed (fuzz, failures)
    or already patched (the reversed-patch dialogue)."""
    target = list(old)
    r = rng.random()
    if r < 0.3:
        for _ in range(rng.randint(1, 5)):
            target.insert(rng.randint(0, len(target)), b"shift\n")
    elif r < 0.5 and target:
        for _ in range(rng.randint(1, 3)):
            target[rng.randrange(len(target))] = b"noise\n"
    elif r < 0.6:
        target = list(new)
    return target


def _case(rng: random.Random) -> tuple[list[str], bytes, dict[str, bytes]]:
    old = _lines(rng, rng.randint(1, 40))
    new = _edit(rng, old)
    if not new:  # (creating or emptying a file: GNU's dialogue about empty files is not done)
        new = [b"kept\n"]
    if rng.random() < 0.1 and new:
        new[-1] = new[-1].rstrip(b"\n")
    patch = _diff(b"".join(old), b"".join(new), rng.choice([3, 3, 3, 1, 2, 0, 5]))
    files = {"f": b"".join(perturb(rng, old, new))}
    argv = ["patch"] + rng.choice([[], ["-p1"], ["-p0"], ["-N"], ["-f"], ["-t"], ["-b"], ["-s"],
                                   ["--dry-run"], ["-F1"], ["-F0"], ["-R"], ["--no-backup-if-mismatch"],
                                   ["-o", "out"]])
    if rng.random() < 0.3:
        files["p.diff"] = patch
        argv += ["-i", "p.diff"]
        stdin = b""
    else:
        stdin = patch
    if "-p0" in argv or "-R" in argv:
        argv = ["patch", "f"] + argv[1:]
    return argv, stdin, files


def test_generated() -> None:
    rng = random.Random(7401)
    done = 0
    while done < tcs.CASES * 2:
        argv, stdin, files = _case(rng)
        if not stdin and "p.diff" in files and not files["p.diff"]:
            continue
        if not stdin and "p.diff" not in files:
            continue
        compare(argv, stdin, files)
        done += 1


@pytest.mark.parametrize("argv", [["patch"], ["patch", "f"], ["patch", "-p1"], ["patch", "--dry-run"]])
def test_simple(argv: list[str]) -> None:
    old = b"".join(b"%d\n" % k for k in range(1, 21))
    new = old.replace(b"\n5\n", b"\nfive\n").replace(b"\n15\n", b"\nfifteen\n")
    patch = _diff(old, new, 3)
    compare(argv, patch, {"f": old})
    compare(argv, patch, {"f": b"0\n00\n000\n" + old})
    compare(argv, patch, {"f": old.replace(b"\n4\n", b"\nfour\n")})
    compare(argv, patch, {"f": new})


@pytest.mark.parametrize("patch", [
    b"--- a/f\n+++ b/f\n@@ -99999999999 +99999999999 @@\n-1\n+one\n",
    b"--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n 2\n-3\n+three\n",
    b"not a patch at all\n",
    b"",
    b"junk before\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-1\n+uno\n",
])
def test_hostile_and_odd(patch: bytes) -> None:
    compare(["patch"], patch, {"f": b"1\n2\n3\n"})


def _tree_diff(old: dict[str, bytes], new: dict[str, bytes]) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        for side, tree in (("a", old), ("b", new)):
            Path(tmp, side).mkdir()
            for name, data in tree.items():
                Path(tmp, side, name).write_bytes(data)
        return subprocess.run(["diff", "-ruN", "a", "b"], cwd=tmp, capture_output=True).stdout


def test_generated_multi_file() -> None:
    """Several files in one patch: edits, files created and deleted (diff -N), files missing
    from the tree being patched, files already patched."""
    rng = random.Random(7402)
    for _ in range(tcs.CASES):
        old = {n: b"".join(_lines(rng, rng.randint(1, 12))) for n in rng.sample("fghxyz", rng.randint(1, 4))}
        new = {}
        for n, data in old.items():
            if rng.random() < 0.15:
                continue
            new[n] = b"".join(_edit(rng, data.splitlines(keepends=True))) or b"kept\n"
        if rng.random() < 0.4:
            new["created"] = b"new\nfile\n"
        patch = _tree_diff(old, new)
        if not patch:
            continue
        target = {}
        for n, data in old.items():
            r = rng.random()
            if r < 0.15:
                continue
            target[n] = new.get(n, data) if r < 0.25 else data
        compare(["patch", "-p1"] + rng.choice([[], [], ["-N"], ["-t"], ["-s"], ["--dry-run"], ["-b"], ["-f"], ["-R"], ["-F0"]]),
                patch, target)


@pytest.mark.parametrize("args", [["--bogus"], ["-z"], ["-px"], ["-i", "nope"], ["--version"],
                                  ["--help"], ["-p", ""], ["-p", "-1"], ["-F", "x"], ["a", "b", "c"],
                                  ["--reject-format=x"], ["-d", "nope"], ["-d", "f"]])
def test_command_line_errors(args: list[str]) -> None:
    compare(["patch"] + args, b"", {"f": b"1\n"})
