"""Differential tests of ``--transform``/``--xform`` against GNU tar 1.34: expressions with
every flag (``g i x`` and a match number, ``r R h H s S``, ``flags=``), replacements with
back-references, ``&``, case conversion and escapes, bad expressions, and transforms on
create (archive bytes), list (``--show-transformed-names``) and extract."""

from __future__ import annotations

import random

import pytest

from tests.sandbox.commands.files_support import Tree
from tests.sandbox.commands.test_tar import random_tree
from tests.sandbox.commands.test_tar import pytestmark  # noqa: F401  (skip without GNU tar)
from tests.sandbox.commands.test_tar_support import check_pair, gnu_archive

TREE: Tree = {"d": None, "d/a": b"a\n", "d/abc": b"abc\n", "d/s": None, "d/s/e": b"",
              "d/b c": b"sp\n", "d/ünï.md": b"u\n", "f": b"f\n", "F.TXT": b"up\n"}

EXPRESSIONS = [
    "s/d/D/", "s,^,pre/,", "s,d$,X,", "s/a/X/g", "s/a/X/2", "s/a/X/2g", "s/b/B/;s/c/C/",
    "s/A/z/i", "s/A/z/gi", "s,\\(.\\)\\(.*\\),\\u\\1\\U\\2x\\E.\\2,", "s,a,&\\&\\n\\\\\\,,",
    "s|a|b|gx", "s/a/b/3", "s,.*,,", "s,^,/,", "s,F,x,i", "s/\\(a\\|b\\)/[\\1]/g",
    "s/(a|b)+/<&>/x", "s/[[:upper:]]/\\l&/g", "s/[[:lower:]]\\+/\\U&/", "s,/,_,g",
    "s,^d/,,", "s,^d/s,DS,r", "s,^d,Q,R", "flags=r;s/a/A/", "flags=R;s/a/A/",
    "s/a/A/H", "s/ü/UE/", "s/./-/3g", "s/\\/s/_S/", "s/d/D/;", "s,d,D,S",
    "s/\\(x\\)\\?b/<\\1>/", "s/.*/\\L&/", "s/e$/E&&/", "s,^d/s/e$,moved,",
    "s/a*/<&>/2", "s/x*/-/3", "s/^/x/g", "s/$/!/g", "s/\\(a\\)\\1/X/",
]


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_transform_create(expr: str) -> None:
    check_pair(["tar", "-cvf", "a.tar", f"--transform={expr}", "d", "f", "F.TXT"], TREE,
               create=True, archives=("a.tar",))


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_transform_list_and_extract(expr: str) -> None:
    tree: Tree = {"a.tar": gnu_archive(TREE, ["d", "f", "F.TXT"]), "o": None}
    check_pair(["tar", "-tvf", "a.tar", "--xform", expr], tree)
    check_pair(["tar", "-tf", "a.tar", "--show-transformed-names", "--xform", expr], tree)
    check_pair(["tar", "-xvf", "a.tar", "-C", "o", f"--transform={expr}"], tree)


BAD = ["s/a", "s/a/b", "s/a/b/q", "x", "s/\\(/x/", "s/a/\\1/", "s/a/b/;x", "flags=z;s/a/b/",
       ";", "", "s", "s/[a/b/", "s/a\\{2/b/", "s/a/b/g;s/b", "s/*/x/", "s/a/b/r2"]


@pytest.mark.parametrize("expr", BAD)
def test_transform_bad_expressions(expr: str) -> None:
    check_pair(["tar", "-cvf", "a.tar", f"--transform={expr}", "d"], TREE, create=True,
               archives=("a.tar",))


def test_transform_several_options_and_hard_links() -> None:
    argv = ["tar", "-cvvf", "a.tar", "--transform=s/a/1/", "--transform", "s/1/2/;s/f/g/", "d/a",
            "d/a", "f"]
    check_pair(argv, TREE, create=True, archives=("a.tar",))
    argv = ["tar", "-cvvf", "a.tar", "--transform=s/a/1/H", "d/a", "d/a"]
    check_pair(argv, TREE, create=True, archives=("a.tar",))
    tree: Tree = {"a.tar": gnu_archive(TREE, ["d/a", "d/a", "f"])}
    check_pair(["tar", "-tvf", "a.tar", "--show-transformed-names", "--transform=s/a/Z/"], tree)


def test_transform_with_strip_components_and_operands() -> None:
    tree: Tree = {"a.tar": gnu_archive(TREE, ["d", "f"]), "o": None}
    check_pair(["tar", "-xvf", "a.tar", "-C", "o", "--strip-components=1", "--transform=s/^/x-/"], tree)
    check_pair(["tar", "-tf", "a.tar", "--transform=s/a/Q/", "d/Q", "d/a"], tree)
    check_pair(["tar", "-tf", "a.tar", "--show-transformed-names", "--strip-components=1"], tree)


_PIECES = ["a", "b", "d", "t", "x", "e", ".", "/", "[a-m]", "[[:digit:]]", "\\(o\\)", ".*", "^t", "s$",
           "n*", "ü", " ", "q'", "\\.", "[^/]*"]
_REPL = ["X", "&", "\\1", "", "-\\u&-", "\\U&\\E", "/", "\\L&", "_", "ü"]


def _random_expr(rng: random.Random) -> str:
    regex = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 3)))
    if "\\(" not in regex and rng.random() < 0.5:
        regex = "\\(" + regex + "\\)"
    repl = "".join(rng.choice(_REPL) for _ in range(rng.randint(0, 3)))
    if "\\(" not in regex:
        repl = repl.replace("\\1", "\\0")
    flags = "".join(f for f in ("g", "i", str(rng.randint(1, 3))) if rng.random() < 0.3)
    delim = rng.choice(",|#")
    expr = f"s{delim}{regex}{delim}{repl}{delim}{flags}"
    if rng.random() < 0.2:
        expr += ";s" + delim + rng.choice(_PIECES[:8]) + delim + "Y" + delim
    return expr


@pytest.mark.parametrize("seed", range(60))
def test_random_transforms(seed: int) -> None:
    """Random expressions on random trees: create (bytes), list and extract."""
    rng = random.Random(11000 + seed)
    tree = random_tree(rng)
    expr = _random_expr(rng)
    kind = rng.random()
    if kind < 0.4:
        check_pair(["tar", "-cvf", "a.tar", f"--transform={expr}", "t"], tree, create=True,
                   archives=("a.tar",))
    else:
        files: Tree = {"a.tar": gnu_archive(tree, ["t"]), "o": None}
        if kind < 0.7:
            check_pair(["tar", "-tvf", "a.tar", "--show-transformed-names", f"--transform={expr}"], files)
        else:
            check_pair(["tar", "-xvf", "a.tar", "-C", "o", f"--xform={expr}"], files)
