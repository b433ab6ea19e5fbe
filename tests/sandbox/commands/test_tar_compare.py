"""Differential tests of ``-d``/``--diff``/``--compare`` against GNU tar 1.34: an archive of
a tree is compared with a changed copy of it (contents, sizes, times, modes, kinds, missing
files, owners), with ``-v``, operands, ``-C``, ``-P`` and ``--strip-components``. GNU's
files get the sandbox's virtual owner (uid 1000), so owners compare alike."""

from __future__ import annotations

import io
import os
import random
import tarfile

import pytest

from tests.sandbox.commands.files_support import BASE_MTIME, Tree
from tests.sandbox.commands.test_tar import random_tree
from tests.sandbox.commands.test_tar import pytestmark as _gnu  # (skip without GNU tar)
from tests.sandbox.commands.test_tar_support import check_pair, gnu_archive

pytestmark = [_gnu, pytest.mark.skipif(os.geteuid() != 0,
                                       reason="GNU's files must be owned by uid 1000 (chown)")]

TREE: Tree = {"f": b"top\n", "d": None, "d/a": b"hello\n", "d/b c": b"space\n", "d/s": None,
              "d/s/e": b"", "d/ünï": b"unicode\n", "g": b"x" * 3000}

CHANGES: list[tuple[str, Tree]] = [
    ("same", {}),
    ("content same size", {"d/a": b"HELLO\n"}),
    ("size", {"f": b"longer top\n"}),
    ("mtime", {"f": (b"top\n", BASE_MTIME + 5)}),
    ("mtime and content", {"d/a": (b"HELLO\n", BASE_MTIME - 100)}),
    ("big content", {"g": b"x" * 2999 + b"y"}),
    ("file is dir", {"f": None, "f/in": b"1"}),
    ("dir is file", {"d/s": b"s\n"}),
    ("dir mtime", {"d": (None, BASE_MTIME + 99)}),
]


def _tree_with(changes: Tree, removed: tuple[str, ...] = ()) -> Tree:
    tree = {k: v for k, v in TREE.items() if k not in removed and not k.startswith(removed)}
    for k in list(changes):
        if k in tree or changes[k] is not None:
            tree = {n: v for n, v in tree.items() if not n.startswith(k + "/")} if changes[k] is not None else tree
    tree.update(changes)
    tree["a.tar"] = gnu_archive(TREE, ["f", "d", "g"])
    return tree


@pytest.mark.parametrize("case", range(len(CHANGES)))
@pytest.mark.parametrize("flags", [["-df"], ["-dvf"], ["--diff", "-f"], ["--compare", "-vvf"]],
                         ids=lambda f: " ".join(f))
def test_compare_changes(case: int, flags: list[str]) -> None:
    _, changes = CHANGES[case]
    check_pair(["tar", *flags, "a.tar"], _tree_with(changes), chown=True)


@pytest.mark.parametrize("removed", [("f",), ("d/b c",), ("d/s",), ("d",)], ids=str)
def test_compare_missing(removed: tuple[str, ...]) -> None:
    check_pair(["tar", "-dvf", "a.tar"], _tree_with({}, removed), chown=True)


OPERAND_CASES = [
    ["-df", "a.tar", "d/a", "nope"], ["-df", "a.tar", "d"], ["-df", "a.tar", "-C", "d", "a"],
    ["-df", "a.tar", "--strip-components=1"], ["-df", "a.tar", "--exclude=a"],
    ["-df", "a.tar", "--wildcards", "d/*"], ["-d", "-f", "a.tar", "-C", "nodir"],
    ["-df", "nope.tar"], ["-dzf", "a.tar"], ["-df", "a.tar", "--transform=s/a/X/"],
    ["-d", "--totals", "-f", "a.tar"], ["-df", "a.tar", "--no-recursion", "d"],
]


@pytest.mark.parametrize("argv", OPERAND_CASES, ids=" ".join)
def test_compare_operands(argv: list[str]) -> None:
    check_pair(["tar", *argv], _tree_with({"d/a": b"other\n", "f": (b"top\n", 5)}), chown=True)


def _crafted(where: str) -> bytes:
    """Members of every kind, owners other than the sandbox's, an absolute name."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        def add(name: str, kind: bytes = tarfile.REGTYPE, data: bytes = b"", link: str = "",
                uid: int = 1000, mode: int = 0o644) -> None:
            ti = tarfile.TarInfo(name)
            ti.type, ti.linkname, ti.uid, ti.gid, ti.mode = kind, link, uid, 1000, mode
            ti.uname = ti.gname = "user"
            ti.mtime = BASE_MTIME
            ti.size = len(data) if kind == tarfile.REGTYPE else 0
            t.addfile(ti, io.BytesIO(data) if ti.size else None)
        add("f", data=b"top\n")
        add("f", data=b"top\n", uid=0)
        add("f", data=b"top\n", mode=0o600)
        add("hl", tarfile.LNKTYPE, link="f")
        add("f", tarfile.LNKTYPE, link="f")
        add("ln", tarfile.SYMTYPE, link="f")
        add("f", tarfile.SYMTYPE, link="g")
        add("dev", tarfile.CHRTYPE)
        add("f", tarfile.FIFOTYPE)
        add("d/", tarfile.REGTYPE)
        add(where + "/f", data=b"top\n")
    return buf.getvalue()


@pytest.mark.parametrize("flags", [["-dvf"], ["-dPf"], ["-dvvf"]], ids=" ".join)
def test_compare_member_kinds(flags: list[str]) -> None:
    """Links, devices, owners and modes, and an absolute name."""
    tree: Tree = {"f": b"top\n", "d": None, "raw.tar": _crafted}  # type: ignore[dict-item]
    check_pair(["tar", *flags, "raw.tar"], tree, chown=True)


def _mutate(rng: random.Random, tree: Tree) -> Tree:
    out = dict(tree)
    files = [k for k, v in tree.items() if isinstance(v, bytes) or (isinstance(v, tuple) and v[0] is not None)]
    for name in rng.sample(files, min(len(files), rng.randint(0, 3))):
        body = out[name]
        data, mtime = (body if isinstance(body, tuple) else (body, BASE_MTIME))
        what = rng.choice(["content", "size", "mtime", "remove", "dir"])
        if what == "content" and data:
            out[name] = (bytes([data[0] ^ 1]) + data[1:], mtime)  # type: ignore[index]
        elif what == "size":
            out[name] = (data + b"+", mtime)  # type: ignore[operator]
        elif what == "mtime":
            out[name] = (data, mtime + rng.choice([-1, 1, 3600]))  # type: ignore[operator]
        elif what == "remove":
            del out[name]
        else:
            out[name] = None
    return out


@pytest.mark.parametrize("seed", range(60))
def test_random_compare(seed: int) -> None:
    """Random trees, archived, then changed at random and compared."""
    rng = random.Random(12000 + seed)
    tree = random_tree(rng)
    archive = gnu_archive(tree, ["t"])
    files = _mutate(rng, tree)
    files["a.tar"] = archive
    flags = rng.choice([["-df"], ["-dvf"], ["--compare", "-f"]])
    check_pair(["tar", *flags, "a.tar"], files, chown=True)
