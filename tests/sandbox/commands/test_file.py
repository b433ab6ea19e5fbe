"""file: differential tests against file 5.44 on generated inputs of every kind it is taught
(text of each encoding and line ending, JSON, CSV, PNG, JPEG, PDF, gzip, zip, data, empty)
and its options."""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import shutil
import struct
import subprocess
import tempfile
import zipfile

import pytest

from sandbox.commands.testing import run_command
from sandbox.fs.local import LocalDir
from sandbox.fs.vfs import VirtualFS

ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"}


def _reference() -> str | None:
    path = shutil.which("file")
    if path is None:
        return "reference tool 'file' is not installed"
    out = subprocess.run([path, "--version"], capture_output=True).stdout
    return None if out.startswith(b"file-5.44") else "reference tool 'file' is not file 5.44"


SKIP = _reference()
needs_file = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")
WORDS = ["alpha", "beta", "memory", "note", "42", "x", "tea", "pricing", "zeta", "q"]


def gen_text(rng: random.Random) -> bytes:
    """Text of a random encoding, line ending and oddity (long lines, ESC, BS, no newline)."""
    extra = rng.choice([b"", b"", "é".encode(), "✓ 日本".encode(), b"\xe9", b"\x80\x91", "\u0085".encode()])
    eol = rng.choice([b"\n", b"\n", b"\r\n", b"\r", b"\x85"])
    lines = []
    for _ in range(rng.randint(1, 8)):
        words = [rng.choice(WORDS).encode() for _ in range(rng.randint(1, 6))]
        if rng.random() < 0.2:
            words.append(extra)
        if rng.random() < 0.05:
            words.append(rng.choice([b"\x1b[0m", b"a\bb"]))
        if rng.random() < 0.05:
            words.append(b"y" * rng.choice([299, 300, 301, 400, 5000]))
        lines.append(b" ".join(words))
    body = eol.join(lines)
    if rng.random() < 0.7:
        body += eol
    if rng.random() < 0.1:
        body = b"\xef\xbb\xbf" + body
    if rng.random() < 0.05:
        body += rng.choice([b"\n", b"\r\n", b"\r"])
    return body


def gen_csv(rng: random.Random) -> bytes:
    cols = rng.randint(1, 4)
    rows = [",".join(rng.choice(WORDS + ['"a,b"', '"q""x"']) for _ in range(cols + (rng.random() < 0.1)))
            for _ in range(rng.randint(1, 12))]
    return ("\n".join(rows) + ("\n" if rng.random() < 0.8 else "")).encode()


def _json_value(rng: random.Random, depth: int = 0) -> object:
    r = rng.random()
    if depth > 3 or r < 0.4:
        return rng.choice([1, -2.5, 1e10, "s", "é", True, False, None, "a\"b", "\\", 0])
    if r < 0.7:
        return [_json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(WORDS): _json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def gen_json(rng: random.Random) -> bytes:
    r = rng.random()
    if r < 0.6:
        return json.dumps(_json_value(rng), indent=rng.choice([None, 2])).encode() + rng.choice([b"", b"\n", b"  \n"])
    if r < 0.75:
        return b"\n".join(json.dumps(_json_value(rng)).encode() for _ in range(rng.randint(2, 4))) + b"\n"
    return rng.choice([b"[1,]", b'{"a":01}', b'{"a" : [1, 2, ]}', b"[tru]", b'{"a":1', b"[1 2]", b'["\\x"]',
                       b'"just a string"\n', b"123\n", b"[nul]", b'{"a":1}{"b":2}', b'[1]\n[2] x', b"[-]", b"[1e]",
                       b'{"\\u00e9":1}', b'{"\\u00g9":1}', b"[.5]", b"[-.5e+3]"])


def gen_png(rng: random.Random) -> bytes:
    ihdr = struct.pack(">iiBBBBB", rng.choice([1, 16, 640, 2**31 - 1]), rng.choice([1, 32, 480]),
                       rng.choice([1, 8, 16]), rng.choice([0, 2, 3, 4, 6, 5]), 0, 0, rng.choice([0, 1, 2]))
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR" + ihdr + bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))


def gen_jpeg(rng: random.Random) -> bytes:
    thumb = rng.choice([(0, 0), (2, 3)])
    app0 = b"JFIF\x00" + bytes([1, rng.choice([1, 2])]) + bytes([rng.choice([0, 1, 2])]) + \
        struct.pack(">HH", rng.choice([1, 72, 300]), rng.choice([1, 72])) + bytes(thumb) + b"\x00" * (3 * thumb[0] * thumb[1])
    out = b"\xff\xd8\xff\xe0" + struct.pack(">H", len(app0) + 2) + app0
    for _ in range(rng.randint(0, 3)):
        kind = rng.choice(["dqt", "comment", "sof0", "sof2", "dht"])
        if kind == "dqt":
            out += b"\xff\xdb\x00\x04ab"
        elif kind == "dht":
            out += b"\xff\xc4\x00\x03z"
        elif kind == "comment":
            text = rng.choice([b"hello", b"made by x", b"\xe9t\xe9"])
            out += b"\xff\xfe" + struct.pack(">H", len(text) + 2) + text
        else:
            out += (b"\xff\xc0" if kind == "sof0" else b"\xff\xc2") + b"\x00\x0b\x08" + \
                struct.pack(">HH", rng.choice([16, 480]), rng.choice([32, 640])) + bytes([rng.choice([1, 3])]) + b"\x01\x11\x00"
    return out + b"\xff\xda" + bytes(rng.randrange(256) for _ in range(rng.randint(0, 30)))


def gen_binary(rng: random.Random) -> bytes:
    kind = rng.choice(["pdf", "gzip", "gzipname", "zip", "data", "short", "empty", "nul"])
    if kind == "pdf":
        return b"%PDF-" + rng.choice([b"1.4", b"1.7", b"2.0", b"x"]) + rng.choice([b"\n%\xe2\xe3\n", b"\n1 0 obj\n", b""])
    if kind == "gzip":
        return gzip.compress(bytes(rng.randrange(256) for _ in range(rng.randint(0, 300))),
                             compresslevel=rng.choice([1, 6, 9]), mtime=rng.choice([0, 1614834367]))
    if kind == "gzipname":
        buf = io.BytesIO()
        with gzip.GzipFile(filename=rng.choice(["a.txt", "notes.md"]), mode="wb", fileobj=buf, mtime=0) as g:
            g.write(b"hello\n")
        return buf.getvalue()
    if kind == "zip":
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", rng.choice([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])) as z:
            z.writestr(rng.choice(["a.txt", "data/b.bin"]), b"hello" * rng.randint(1, 50))
        return buf.getvalue()
    if kind == "short":
        return bytes([rng.randrange(256)])
    if kind == "empty":
        return b""
    if kind == "nul":
        return b"text\x00with nul\n"
    # random bytes after a prefix no magic entry claims (random data matches zlib and others)
    return b"\x01\x02\x03\x04\x05" + bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))


GENERATORS = [gen_text, gen_text, gen_csv, gen_json, gen_png, gen_jpeg, gen_binary]
OPTIONS = [[], ["-b"], ["-i"], ["--mime-type"], ["--mime-encoding"], ["-N"], ["-bi"]]


def compare(files: dict[str, bytes], flags: list[str], extra: list[str] = ()) -> None:
    """Ours and file 5.44 agree on the files (named in order) plus ``extra`` operands."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in files.items():
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(data)
        os.mkdir(os.path.join(tmp, "dir"))
        argv = ["file", *flags, "--", *files, *extra]
        ref = subprocess.run(argv, cwd=tmp, capture_output=True, env=ENV, timeout=60)
        ours = run_command(argv, fs=VirtualFS({"/w": LocalDir(tmp)}), cwd="/w")
        ref_lines, our_lines = ref.stdout.split(b"\n"), ours[1].split(b"\n")
        for i, (a, b) in enumerate(zip(ref_lines, our_lines)):
            name = list(files)[i] if i < len(files) else "?"
            assert a == b, f"{flags} {name}: {files.get(name, b'')[:200]!r}\n GNU {a!r}\n ours {b!r}"
        assert (ours[0], ours[1], ours[2]) == (ref.returncode, ref.stdout, ref.stderr), flags


@needs_file
@pytest.mark.parametrize("seed", range(6))
def test_generated(seed: int) -> None:
    rng = random.Random(seed)
    files = {}
    for i in range(60):
        files[f"f{i:02d}"] = rng.choice(GENERATORS)(rng)
    for flags in OPTIONS:
        compare(files, flags)


@needs_file
def test_special_operands_and_options() -> None:
    files = {"a.txt": b"hello\n", "é": b"x\ty\n", "tab\there": b"{}", "e": b""}
    for flags in ([], ["-b"], ["-i"], ["-E"], ["-N"], ["--mime-type"], ["-E", "-b"], ["-L"], ["-h"]):
        compare(files, flags, ["dir", "nope", "also\nmissing"])


@needs_file
def test_usage_errors() -> None:
    for argv in (["file"], ["file", "--nope"], ["file", "-y", "x"]):
        ref = subprocess.run(argv, capture_output=True, env=ENV)
        assert run_command(argv) == (ref.returncode, ref.stdout, ref.stderr), argv


def test_stdin_operand() -> None:
    assert run_command(["file", "-"], stdin=b"hello\n") == (0, b"/dev/stdin: ASCII text\n", b"")


SHEBANGS = ["#!/bin/sh", "#! /bin/sh", "#!/bin/bash", "#!/usr/bin/env bash", "#!/usr/bin/env sh", "#!/usr/bin/python3",
            "#!/usr/bin/env python3", "#!/usr/bin/env python", "#!/usr/bin/perl", "#!/usr/bin/env node", "#!/bin/zsh",
            "#!/usr/bin/awk -f", "#!/bin/false", "#!/usr/bin/env ruby", "#!x", "#!/usr/bin/env perl"]


@needs_file
def test_scripts() -> None:
    rng = random.Random(8)
    files = {}
    for i, line in enumerate(SHEBANGS * 3):
        body = line.encode() + b"\n" + gen_text(rng)
        files[f"s{i:02d}"] = body.replace(b"\n", b"\r\n") if i % 5 == 0 else body
    for flags in ([], ["-i"]):
        compare(files, flags)


HTML_PIECES = ["<!DOCTYPE html>", "<html>", "<HTML lang=en>", "<head>", "<title>x</title>", "<body>", "<p>hi</p>",
               "<div>", "<script>", "<style>", "<table>", "<a href=\"x\">", "<tr>", "<b>", "text", "<!doctype html>"]


@needs_file
def test_html() -> None:
    rng = random.Random(9)
    files = {}
    for i in range(60):
        lines = [" ".join(rng.choice(HTML_PIECES + WORDS) for _ in range(rng.randint(1, 5)))
                 for _ in range(rng.randint(1, 6))]
        body = "\n".join(lines).encode() + rng.choice([b"\n", b"\r\n", b""])
        files[f"h{i:02d}"] = rng.choice([b"", "é ".encode(), b"  "]) + body
    for flags in ([], ["-i"]):
        compare(files, flags)


@needs_file
def test_json_nesting_limit_and_sizes() -> None:
    files = {f"n{d}": b"[" * d + b"]" * d for d in (1, 250, 251, 252, 2000)}
    files.update({f"o{d}": b'{"a":' * d + b"1" + b"}" * d for d in (249, 260)})
    files["big"] = b"[" + b"1," * 200_000 + b"1]"
    files["lines"] = b"abc def\n" * 50_000
    compare(files, [])
