"""Differential-test support for the file commands (cat head tail ls mkdir touch rm mv cp tee).

``compare(argv, files)`` builds two identical temp directories, runs the real GNU tool in one
(``LC_ALL=C.UTF-8 TZ=UTC``) and our command in the other (through ``run_command`` over a
``LocalDir`` mounted at ``/w``, the working directory), and returns a mismatch report, or ``None`` when stdout, stderr,
exit status and the resulting tree (kinds and contents) are identical. Every report starts with
a shell command that rebuilds the directory and runs the reference, so a failure is
reproducible by pasting it.
"""

from __future__ import annotations

import hashlib
import os
import random
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Callable

from sandbox.commands.testing import run_command
from sandbox.fs.local import LocalDir
from sandbox.fs.vfs import VirtualFS

ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"}
#: Where our side mounts its temp directory (the working directory of the command).
MOUNT = "/w"
#: A fixed, old mtime for generated files (2021-03-04 05:06:07 UTC) unless a test sets others.
BASE_MTIME = 1614834367

#: Tree spec: relative path -> bytes (a file), None (a directory), or (bytes, mtime).
Tree = dict[str, "bytes | None | tuple[bytes, float]"]


def gnu_available(tool: str) -> str | None:
    """Why ``tool`` cannot serve as the reference, or None if GNU's is installed."""
    path = shutil.which(tool, path=ENV["PATH"])
    if path is None:
        return f"reference tool {tool!r} is not installed"
    try:
        version = subprocess.run([path, "--version"], capture_output=True, env=ENV, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return f"reference tool {tool!r} does not run"
    if b"GNU coreutils" not in version:
        return f"reference tool {tool!r} is not GNU coreutils"
    return None


def build(root: Path, tree: Tree) -> None:
    """Create ``tree`` under ``root`` with deterministic mtimes."""
    for rel, spec in sorted(tree.items()):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        mtime: float = BASE_MTIME
        if isinstance(spec, tuple):
            spec, mtime = spec
        if spec is None:
            path.mkdir(exist_ok=True)
        else:
            path.write_bytes(spec)
        os.utime(path, (mtime, mtime))
    # Directories last, deepest first, so creating children does not bump their mtimes.
    for rel, spec in sorted(tree.items(), key=lambda kv: -kv[0].count("/")):
        body, mtime = spec if isinstance(spec, tuple) else (spec, BASE_MTIME)
        if body is None:
            os.utime(root / rel, (mtime, mtime))
    os.utime(root, (BASE_MTIME, BASE_MTIME))


def snapshot(root: Path) -> dict[str, object]:
    """Kinds and contents of every entry under ``root``."""
    found: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames:
            found[os.path.relpath(os.path.join(dirpath, name), root)] = "<dir>"
        for name in filenames:
            full = os.path.join(dirpath, name)
            found[os.path.relpath(full, root)] = Path(full).read_bytes()
    return found


def shell_bytes(data: bytes) -> str:
    """A compact shell command that prints ``data`` exactly (runs of a byte become ``tr``)."""
    pieces: list[str] = []
    literal: list[str] = []

    def flush() -> None:
        if literal:
            pieces.append("printf '" + "".join(literal) + "'")
            literal.clear()

    i = 0
    while i < len(data):
        j = i
        while j < len(data) and data[j] == data[i]:
            j += 1
        if j - i >= 32:
            flush()
            pieces.append(f"printf '%{j - i}s' '' | tr ' ' '\\{data[i]:03o}'")
            i = j
            continue
        c = data[i]
        ch = chr(c)
        literal.append(ch if 32 <= c < 127 and ch not in "'%\\" else f"\\{c:03o}")
        i += 1
    flush()
    return "{ " + "; ".join(pieces) + "; }" if pieces else "printf ''"


def setup_script(tree: Tree) -> str:
    """Shell commands that rebuild ``tree`` in the current directory."""
    lines = []
    for rel, spec in sorted(tree.items()):
        mtime: float = BASE_MTIME
        if isinstance(spec, tuple):
            spec, mtime = spec
        parent = os.path.dirname(rel)
        if parent:
            lines.append(f"mkdir -p {shlex.quote(parent)}")
        if spec is None:
            lines.append(f"mkdir -p {shlex.quote(rel)}")
        else:
            lines.append(f"{shell_bytes(spec)} > {shlex.quote(rel)}")
        lines.append(f"touch -d @{mtime} {shlex.quote(rel)}")
    return " && ".join(lines) or "true"


def reproduce(argv: list[str], tree: Tree, stdin: bytes) -> str:
    """A pasteable command that reproduces the reference run."""
    feed = f" < <({shell_bytes(stdin)})" if stdin else ""
    return (f"d=$(mktemp -d) && cd $d && {setup_script(tree)} && "
            f"LC_ALL=C.UTF-8 TZ=UTC {shlex.join(argv)}{feed}")


def run_pair(argv: list[str], tree: Tree, stdin: bytes = b"",
             normalize: Callable[[bytes], bytes] | None = None, cwd: str = "") -> tuple[tuple, tuple]:
    """Run the reference and ours on identical trees; return both (code, out, err, tree)."""
    with tempfile.TemporaryDirectory(prefix="ref") as ref_dir, tempfile.TemporaryDirectory(prefix="our") as our_dir:
        ref_root, our_root = Path(ref_dir), Path(our_dir)
        build(ref_root, tree)
        build(our_root, tree)
        ref = subprocess.run(argv, input=stdin, capture_output=True, cwd=ref_root / cwd, env=ENV, timeout=60)
        # Mounted below / so that the virtual /dev does not show up in listings of the root.
        vfs = VirtualFS({MOUNT: LocalDir(our_root)})
        code, out, err = run_command(argv, stdin=stdin, fs=vfs, cwd=MOUNT + ("/" + cwd if cwd else ""))
        ref_out = normalize(ref.stdout) if normalize else ref.stdout
        if _walks_in_directory_order(argv):
            ref_out, out = _sorted_lines(ref_out), _sorted_lines(out)
        return ((ref.returncode, ref_out, ref.stderr, snapshot(ref_root)),
                (code, out, err, snapshot(our_root)))


def _walks_in_directory_order(argv: list[str]) -> bool:
    """A recursive, verbose run: GNU lists a directory's entries in the order the host
    filesystem returns them (ext4: hash order, different for every directory created), ours
    in sorted order (a documented deviation), so only the set of lines can be compared."""
    short = [a for a in argv[1:] if a.startswith("-") and not a.startswith("--")]
    recursive = "--recursive" in argv or any(set(a[1:]) & {"r", "R"} for a in short)
    verbose = "--verbose" in argv or any("v" in a[1:] for a in short)
    return recursive and verbose


def _sorted_lines(data: bytes) -> bytes:
    return b"".join(sorted(data.splitlines(keepends=True)))


def compare(argv: list[str], tree: Tree, stdin: bytes = b"",
            normalize: Callable[[bytes], bytes] | None = None, cwd: str = "") -> str | None:
    """None if ours matches the reference, else a report with the command to reproduce it."""
    ref, ours = run_pair(argv, tree, stdin, normalize, cwd)
    if ref == ours:
        return None
    command = reproduce(argv, tree, stdin)
    if cwd:
        command = command.replace(" && LC_ALL=", f" && cd {shlex.quote(cwd)} && LC_ALL=", 1)
    if len(command) > 1500:
        digest = hashlib.sha1(command.encode("utf-8", "surrogateescape")).hexdigest()[:12]
        script = Path(tempfile.gettempdir()) / f"files-diff-{digest}.sh"
        script.write_bytes(command.encode("utf-8", "surrogateescape") + b"\n")
        command = f"bash {script}   # {command[:200]}..."
    parts = [f"command: {shlex.join(argv)}", f"reproduce: {command}"]
    for label, a, b in zip(("exit status", "stdout", "stderr", "tree"), ref, ours):
        if a != b and label == "tree":
            keys = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
            a, b = ({k: side.get(k, "<missing>") for k in keys} for side in (a, b))
        if a != b:
            parts.append(f"{label}: GNU {_short(a)}\n    ours {_short(b)}")
    return "\n".join(parts)


def _short(value: object, limit: int = 1500) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def check_all(cases: list[tuple], limit: int = 5) -> None:
    """Compare every (argv, tree[, stdin]) case; fail listing the first ``limit`` mismatches."""
    failures = []
    for case in cases:
        report = compare(*case)
        if report is not None:
            failures.append(report)
    if failures:
        raise AssertionError(f"{len(failures)}/{len(cases)} cases differ from GNU:\n\n"
                             + "\n\n".join(failures[:limit]))


# -- generated contents ------------------------------------------------------------------------

SPECIAL_CONTENTS = [
    b"",
    b"\n",
    b"\n\n\n",
    b"no final newline",
    b"one\ntwo\nthree\n",
    b"a\r\nb\r\n\r\nc\r\n",
    b"trailing cr\r",
    "ünïcødé ✓ 日本語\n".encode(),
    b"bad \xff\xfe utf8 \xc3\n\x80\n",
    b"nul\x00byte\x00\n\x00",
    b"tabs\there\t\n\x01\x02\x1b[0m\x7f\n",
    b"x" * 70000 + b"\n" + b"y" * 5,
    b"\n\n\nblank runs\n\n\n\nend\n\n",
]


def random_content(rng: random.Random) -> bytes:
    """A random file body mixing lines of every kind the corpus knows."""
    if rng.random() < 0.3:
        return rng.choice(SPECIAL_CONTENTS)
    pieces = []
    for _ in range(rng.randint(0, 40)):
        kind = rng.random()
        if kind < 0.15:
            pieces.append(b"")
        elif kind < 0.25:
            pieces.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 20))).replace(b"\n", b""))
        elif kind < 0.3:
            pieces.append(b"z" * rng.randint(1000, 20000))
        elif kind < 0.4:
            pieces.append(rng.choice(["é", "✓", "日本", "a\tb", "x\ry"]).encode() * rng.randint(1, 5))
        else:
            pieces.append(" ".join(rng.choice(["alpha", "beta", "memory", "note", "42", ""]) for _ in range(rng.randint(1, 8))).encode())
    body = b"\n".join(pieces)
    ending = rng.random()
    if ending < 0.6:
        body += b"\n"
    elif ending < 0.7:
        body += b"\r\n"
    return body


def random_files(rng: random.Random, count: int) -> Tree:
    """``count`` files f0..fN with random contents."""
    return {f"f{i}": random_content(rng) for i in range(count)}
