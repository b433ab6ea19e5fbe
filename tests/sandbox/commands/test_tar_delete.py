"""Differential tests of ``--delete`` against GNU tar 1.34: the rewritten archive's bytes,
messages and status, for files and stdin, long names, directories, wildcards, missing names,
junk blocks, archives of several records, ``--totals``; compressed archives refused."""

from __future__ import annotations

import gzip
import random

import pytest

from tests.sandbox.commands.files_support import Tree
from tests.sandbox.commands.test_tar import random_tree
from tests.sandbox.commands.test_tar import pytestmark  # noqa: F401  (skip without GNU tar)
from tests.sandbox.commands.test_tar_support import check_pair, gnu_archive

LONG = "L" * 120
TREE: Tree = {"f": b"top\n", "d": None, "d/a": b"a\n", "d/b c": b"sp\n", "d/s": None,
              "d/s/e": b"", "d/big": bytes(range(256)) * 120, "g": b"g\n", LONG: b"long\n",
              "d/ünï": b"u\n"}
ARCHIVE = gnu_archive(TREE, ["f", "d", LONG, "g"])

CASES = [
    ["--delete", "-f", "a.tar", "d/a"], ["--delete", "-f", "a.tar", "d"], ["--delete", "-f", "a.tar", "f"],
    ["--delete", "-f", "a.tar", "g"], ["--delete", "-f", "a.tar", LONG], ["--delete", "-f", "a.tar", "d/big"],
    ["--delete", "-f", "a.tar", "nope", "f"], ["--delete", "-f", "a.tar"], ["--delete", "-f", "a.tar", "nope"],
    ["--delete", "-vf", "a.tar", "d/s"], ["--delete", "-f", "a.tar", "d/*"],
    ["--wildcards", "--delete", "-f", "a.tar", "d/*"], ["--delete", "-f", "a.tar", "d/b c", "d/ünï"],
    ["--delete", "-f", "a.tar", "d/", "g"], ["--delete", "-f", "nothere.tar", "f"],
    ["--delete", "-zf", "a.tar", "f"], ["--delete", "-f", "c.tgz", "f"], ["--delete", "-f", "j.tar", "f"],
    ["--delete", "--totals", "-f", "a.tar", "f"], ["--delete", "--totals", "-f", "a.tar", "d/big"],
    ["--delete", "--totals", "-f", "a.tar", "nope"], ["--delete", "--totals", "-f", "a.tar", "g"],
    ["--delete", "-f", "a.tar", "--no-recursion", "d"], ["--delete", "-f", "two.tar", "g"],
    ["--delete", "-f", "junk.tar", LONG], ["--delete", "-f", "a.tar", "-T", "l"],
    ["--delete", "-f", "d", "f"], ["--delete", "-f", "a.tar", "f", "f"],
]


def _files() -> Tree:
    junk = ARCHIVE[:512 * 5] + bytes(512) + b"junk" * 128 + bytes(512 * 3)
    return {"a.tar": ARCHIVE, "c.tgz": gzip.compress(ARCHIVE), "j.tar": b"junk",
            "two.tar": ARCHIVE + ARCHIVE, "junk.tar": junk + bytes(10240 - len(junk) % 10240),
            "l": b"g\nd/a\n", "d": None}


@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(a)[:50])
def test_delete(argv: list[str]) -> None:
    check_pair(["tar", *argv], _files(), archives=("a.tar", "nothere.tar", "c.tgz", "j.tar",
                                                  "two.tar", "junk.tar"))


@pytest.mark.parametrize("names", [["f"], ["nope"], [], ["d"], [LONG, "g"]], ids=str)
def test_delete_on_stdin(names: list[str]) -> None:
    check_pair(["tar", "--delete", "-f", "-", *names], {}, stdin=ARCHIVE)
    check_pair(["tar", "--delete", *names], {}, stdin=ARCHIVE)


@pytest.mark.parametrize("seed", range(60))
def test_random_delete(seed: int) -> None:
    """Random archives of random trees (one or several records), random names to delete
    (present, absent, directories, wildcards)."""
    rng = random.Random(13000 + seed)
    tree = random_tree(rng)
    archive = gnu_archive(tree, ["t"])
    names = sorted(tree)
    picked = rng.sample(names, min(len(names), rng.randint(0, 3)))
    if rng.random() < 0.2:
        picked.append("nope")
    opts = ["--wildcards"] if rng.random() < 0.2 else []
    if opts:
        picked.append(rng.choice(["t/*", "t/n*", "*.md*"]))
    if rng.random() < 0.3:
        opts.append("--totals")
    check_pair(["tar", *opts, "--delete", "-f", "a.tar", *picked], {"a.tar": archive},
               archives=("a.tar",))
