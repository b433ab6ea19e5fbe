"""Differential tests from the file-management corpus: directory order and trailing slashes.

GNU ``find``, ``du`` and ``ls -U`` list a directory in the host's readdir order; over a
``LocalDir`` we now do too (``sandbox/commands/_dirorder.py``), so both sides, built alike on
the same filesystem, print the same lines in the same order. ``mv``/``cp`` to a new ``name/``
fail as the kernel makes GNU's fail. Every case runs the real GNU tool (``files_support``).
"""

from __future__ import annotations

import shutil

import pytest

from tests.sandbox.commands.files_support import check_all, gnu_available
from tests.sandbox.commands.test_ls import normalize_owner

MEMORY = {
    "core.md": b"# Core Memory\n- Name: Dana\n",
    "notes.md": b"# Notes\n- 2026-09-01: kick-off\n",
    "conversations.jsonl": b'{"role": "user", "content": "hi"}\n' * 40,
    "archive/2026/old.md": b"old\n",
    "archive/b.md": b"",
    "archive/c.jsonl": b"{}\n",
    "zeta.txt": b"z\n",
    "alpha.txt": b"a\n",
}


def _skip_without(*tools: str) -> None:
    for tool in tools:
        why = gnu_available(tool) if tool not in ("find",) else (
            None if shutil.which("find") else "reference tool 'find' is not installed")
        if why:
            pytest.skip(why)


def test_find_lists_in_readdir_order() -> None:
    _skip_without("find")
    check_all([(argv, MEMORY) for argv in (
        ["find", "."], ["find"], ["find", ".", "-type", "f"], ["find", ".", "-name", "*.md"],
        ["find", ".", "-maxdepth", "1"], ["find", ".", "-depth"], ["find", "archive"],
        ["find", ".", "-type", "f", "-printf", "%s %p\n"], ["find", ".", "-name", "*.md", "-print", "-quit"],
        ["find", ".", "-path", "./archive", "-prune", "-o", "-type", "f", "-print"],
        ["find", ".", "-type", "f", "-print0"], ["find", ".", "-mindepth", "2"],
    )])


def test_du_and_ls_unsorted_in_readdir_order() -> None:
    _skip_without("du", "ls")
    check_all([(argv, MEMORY, b"", normalize_owner) for argv in (
        ["du", "-a"], ["du", "-ab"], ["du", "-ah", "archive"], ["du"], ["du", "-a", "--max-depth=1"],
        ["ls", "-U"], ["ls", "-U1"], ["ls", "-lU"], ["ls", "-U", "archive"], ["ls", "-UR"],
        ["ls", "-1U", "-r"],
    )])


def test_move_or_copy_a_file_to_a_new_name_with_a_slash() -> None:
    _skip_without("mv", "cp")
    tree = {"a": b"x\n", "b": b"y\n", "d/f": b"f\n"}
    check_all([(argv, tree) for argv in (
        ["mv", "a", "nod/"], ["mv", "-v", "a", "nod/"], ["mv", "-T", "a", "nod/"], ["mv", "a", "b/"],
        ["mv", "d", "nod/"], ["mv", "a/", "x"], ["mv", "-f", "a", "nod/"], ["mv", "-n", "a", "b/"], ["mv", "-n", "a", "nod/"],
        ["cp", "a", "nod/"], ["cp", "-v", "a", "nod/"], ["cp", "a", "b/"], ["cp", "-r", "d", "nod/"],
        ["cp", "a/", "x"], ["cp", "a", "d/"],
    )])
