"""Differential-test support for grep and the regex module: run one grep command line through
our implementation and through GNU grep on identical files, and report any difference with the
exact shell command that reproduces it.

Loaded by the test files of tests/sandbox/grep and tests/sandbox/regex via ``sys.path`` (the test
directories are not packages).
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest

from sandbox.commands.testing import run_command
from sandbox.limits import Limits

REF_ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
GREP = shutil.which("grep")


def need_grep() -> str:
    """The path of GNU grep; skip the calling test (with a reason) when it is missing."""
    if GREP is None:
        pytest.skip("reference tool 'grep' is not installed")
    out = subprocess.run([GREP, "--version"], capture_output=True, env=REF_ENV).stdout
    if b"GNU grep" not in out:
        pytest.skip("reference grep is not GNU grep")
    return GREP


@dataclass
class Case:
    """One grep invocation: argv (without 'grep'), files in the working directory, stdin."""

    args: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    stdin: bytes = b""
    env: dict[str, str] = field(default_factory=dict)  # extra environment (GREP_COLORS...)

    def command(self) -> str:
        """A shell command that reproduces the case."""
        parts = []
        for name, data in sorted(self.files.items()):
            parts.append(f"printf %s {_bash_bytes(data)} > {shlex.quote(name)}")
        argv = " ".join(_bash_str(a) for a in self.args)
        envs = "".join(f"{k}={shlex.quote(v)} " for k, v in sorted(self.env.items()))
        if self.stdin:
            parts.append(f"printf %s {_bash_bytes(self.stdin)} | LC_ALL=C.UTF-8 {envs}grep {argv}")
        else:
            parts.append(f"LC_ALL=C.UTF-8 {envs}grep {argv} < /dev/null")
        return "; ".join(parts)


def _bash_bytes(data: bytes) -> str:
    out = []
    for b in data:
        ch = chr(b)
        if b < 0x80 and (ch.isalnum() or ch in " _-.,:/=+@%^*()[]{}|?!#~"):
            out.append(ch)
        else:
            out.append("\\x%02x" % b)
    return "$'" + "".join(out) + "'"


def _bash_str(arg: str) -> str:
    raw = arg.encode("utf-8", "surrogateescape")
    if raw and all(b < 0x80 and (chr(b).isalnum() or chr(b) in "-_=.,/:") for b in raw):
        return arg
    return _bash_bytes(raw)


def run_gnu(case: Case) -> tuple[int, bytes, bytes]:
    """Run GNU grep on the case in a fresh temporary directory."""
    assert GREP is not None
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in case.files.items():
            path = os.path.join(tmp, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        argv = [b"grep"] + [a.encode("utf-8", "surrogateescape") for a in case.args]
        proc = subprocess.run(argv, executable=GREP, input=case.stdin, capture_output=True, cwd=tmp,
                              env={**REF_ENV, **case.env}, timeout=30)
        return proc.returncode, proc.stdout, proc.stderr


def run_ours(case: Case, seconds: float = 20.0) -> tuple[int, bytes, bytes]:
    """Run our grep on the case (files in a MemoryFS at /, cwd /)."""
    return run_command(["grep"] + case.args, stdin=case.stdin, files=dict(case.files),
                       limits=Limits(seconds=seconds), env=dict(case.env))


def compare(cases: list[Case], check_stderr: bool = True, workers: int = 4) -> list[str]:
    """Run every case both ways; return a description of each difference (empty: all equal)."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        gnu_results = pool.map(run_gnu, cases)
        failures = []
        for case, gnu in zip(cases, gnu_results):
            try:
                ours = run_ours(case)
            except Exception as exc:  # a traceback is itself a failure to report
                failures.append(f"{case.command()}\n  ours raised {type(exc).__name__}: {exc}")
                continue
            same = ours[0] == gnu[0] and ours[1] == gnu[1]
            if check_stderr:
                same = same and ours[2] == gnu[2]
            if not same:
                failures.append(
                    f"{case.command()}\n  gnu:  {gnu!r}\n  ours: {ours!r}")
    return failures


def report(failures: list[str], total: int, limit: int = 15) -> str:
    """A readable failure message: how many failed and the first reproducible commands."""
    head = f"{len(failures)} of {total} cases differ from GNU grep; reproduce with:\n"
    return head + "\n".join(failures[:limit])


# -- generators -------------------------------------------------------------------------------

ATOMS_COMMON = ["a", "b", "c", "A", "é", "É", "_", " ", "-", ".", "x", "ab", "1", "\\.", "\\*",
                "[ab]", "[^a]", "[a-c]", "[[:alpha:]]", "[[:digit:]]", "[[:space:]]",
                "[[:upper:]]", "[]a]", "[^]a]", "[a-]", "[[:punct:]]", "[[.a.]]", "[[=a=]]",
                "\\w", "\\W", "\\s", "\\S", "\\<", "\\>", "\\b", "\\B", "^", "$", "\\`", "\\'",
                "[é-ë]", "[[:alnum:]_]", ".", "\\\\"]


def gen_pattern(rng: random.Random, extended: bool, depth: int = 0, groups: list[int] | None = None
                ) -> str:
    """A random pattern (BRE or ERE) over the constructs GNU supports."""
    if groups is None:
        groups = [0]
    n = rng.randint(1, 4)
    pieces = []
    for _ in range(n):
        r = rng.random()
        if r < 0.12 and depth < 2:
            groups[0] += 1
            inner = gen_pattern(rng, extended, depth + 1, groups)
            atom = f"({inner})" if extended else f"\\({inner}\\)"
        elif r < 0.17 and groups[0] > 0:
            atom = f"\\{rng.randint(1, groups[0])}"
        else:
            atom = rng.choice(ATOMS_COMMON)
        q = rng.random()
        if atom in ("^", "$", "\\<", "\\>", "\\b", "\\B", "\\`", "\\'"):
            q = 1.0  # GNU's handling of repeated assertions is erratic; not generated
        if q < 0.15:
            atom += "*"
        elif q < 0.22:
            atom += "+" if extended else "\\+"
        elif q < 0.28:
            atom += "?" if extended else "\\?"
        elif q < 0.34:
            lo = rng.randint(0, 2)
            hi = rng.choice(["", str(lo), str(lo + rng.randint(0, 2))])
            body = rng.choice([f"{lo}", f"{lo},{hi}", f",{hi or 1}"])
            atom += ("{%s}" if extended else "\\{%s\\}") % body
        pieces.append(atom)
    pat = "".join(pieces)
    if rng.random() < 0.15:
        other = gen_pattern(rng, extended, depth + 1, groups)
        pat = pat + ("|" if extended else "\\|") + other
    return pat


LINE_PIECES = ["a", "b", "c", "ab", "abc", "A", "B", "aa", "ba", "é", "É", "ë", "_", " ", "  ",
               "\t", "-", ".", "x", "1", "22", "*", "word", "Word", "\r", "\xff", "\xc3", "(", ")",
               "{", "}", "[", "]", "\\", "ａ", "ß", "ǅ"]


def gen_input(rng: random.Random, allow_nul: bool = True) -> bytes:
    """Random input lines: empty lines, CRLF, UTF-8, invalid UTF-8, maybe NUL, maybe no final
    newline."""
    lines = []
    for _ in range(rng.randint(0, 8)):
        if rng.random() < 0.15:
            lines.append(b"")
            continue
        text = "".join(rng.choice(LINE_PIECES) for _ in range(rng.randint(1, 6)))
        raw = text.encode("utf-8").replace("\xff".encode(), b"\xff").replace(
            "\xc3".encode(), b"\xc3")
        lines.append(raw)
    data = b"\n".join(lines)
    if lines and rng.random() < 0.8:
        data += b"\n"
    if allow_nul and rng.random() < 0.05 and data:
        k = rng.randrange(len(data))
        data = data[:k] + b"\0" + data[k:]
    return data


def dense_input(rng: random.Random, words: list[str], seps: tuple[str, ...] = (" ",)) -> bytes:
    """Up to 14 lines of the given words (most lines hold a pattern's word): empty lines, CRLF,
    invalid UTF-8, NUL, and no final newline one time in four."""
    lines = []
    for _ in range(rng.randint(0, 14)):
        if rng.random() < 0.08:
            lines.append(b"")
            continue
        sep = rng.choice(seps) if len(seps) > 1 else seps[0]
        line = sep.join([rng.choice(words) for _ in range(rng.randint(1, 7))]).encode()
        r = rng.random()
        if r < 0.08:
            line += b"\r"
        elif r < 0.13:
            k = rng.randrange(len(line) + 1)
            line = line[:k] + rng.choice([b"\xff", b"\xc3", b"\xe6\x97"]) + line[k:]
        elif r < 0.16:
            k = rng.randrange(len(line) + 1)
            line = line[:k] + b"\0" + line[k:]
        lines.append(line)
    data = b"\n".join(lines)
    if lines and rng.random() < 0.75:
        data += b"\n"
    return data
