"""Differential tests of tar's name list against GNU tar 1.34: ``-T``/``--files-from`` (files
and stdin, ``--null``/``--no-null``, ``--verbatim-files-from``, unquoting, options inside
lists), ``-X``/``--exclude-from``, ``--exclude-vcs``, ``--exclude-backups`` and
``--no-recursion``/``--recursion``, on hand-written and generated trees."""

from __future__ import annotations

import random

import pytest

from tests.sandbox.commands.files_support import Tree
from tests.sandbox.commands.test_tar import NAME_PIECES, random_tree
from tests.sandbox.commands.test_tar import pytestmark  # noqa: F401  (skip without GNU tar)
from tests.sandbox.commands.test_tar_support import check_pair, gnu_archive

TREE: Tree = {"f": b"top\n", "d": None, "d/a": b"a\n", "d/b c": b"space\n", "d/ünï": b"u\n",
              "d/s": None, "d/s/e": b"", "e": None, "e/a": b"ea\n", "x.md": b"md\n"}


def _files(extra: Tree) -> Tree:
    tree = dict(TREE)
    tree.update(extra)
    return tree


FILES_FROM_CASES: list[tuple[list[str], Tree, bytes]] = [
    (["-cvf", "a.tar", "-T", "l"], {"l": b"f\nd/a\n\nd/b c\n"}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"f\nnope\nd/s\n"}, b""),
    (["-cvf", "a.tar", "-T", "nope"], {}, b""),
    (["-cvf", "a.tar", "f", "-T", "nope"], {}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"f"}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"f\r\n"}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"  f  \n"}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"f\0d/a\0"}, b""),
    (["--null", "-cvf", "a.tar", "-T", "l"], {"l": b"f\0d/a\0\0d/b c\0"}, b""),
    (["--null", "-cvf", "a.tar", "-T", "l"], {"l": b"f\nd/a\0"}, b""),
    (["--null", "--no-null", "-cvf", "a.tar", "-T", "l"], {"l": b"f\nd/a\n"}, b""),
    (["-cvf", "a.tar", "-T", "l", "--null"], {"l": b"f\n"}, b""),
    (["-cvf", "a.tar", "-T", "-"], {}, b"f\nd/s\n"),
    (["--null", "-cvf", "a.tar", "-T", "-"], {}, b"./f\0./d\0"),
    (["-cvf", "-", "-T", "-"], {}, b"f\n"),
    (["-cvf", "a.tar", "-T", "-", "-T", "-"], {}, b"f\n"),
    (["-cvf", "a.tar", "-T", "l", "-T", "l"], {"l": b"f\n"}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"-C d\na\n"}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"--directory=d\na\ns\n"}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"--exclude=a\nd\ne\n"}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"--no-recursion\nd\n--recursion\ne\n"}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"-v\nd\n"}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"-C\nd\n"}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"-T m\nf\n", "m": b"d/a\n"}, b""),
    (["--null", "-cvf", "a.tar", "-T", "l"], {"l": b"-C d\0a\0"}, b""),
    (["--verbatim-files-from", "-cvf", "a.tar", "-T", "l"], {"l": b"-C d\nd/a\n"}, b""),
    (["-cvf", "a.tar", "-T", "l"], {"l": b"d/\\141\nd/b\\040c\n\\\\x\n"}, b""),
    (["--no-unquote", "-cvf", "a.tar", "-T", "l"], {"l": b"d/\\141\nf\n"}, b""),
    (["-cvf", "a.tar", "d/\\141", "f"], {}, b""),
    (["-cvf", "a.tar", "-C", "d", "-T", "l"], {"l": b"a\ns\n"}, b""),
    (["-cvf", "a.tar", "-C", "d", "-T", "l"], {"d/l": b"a\n"}, b""),
    (["-cvf", "a.tar", "-T", "d"], {}, b""),
    (["-cvf", "a.tar", "-T", "l", "--no-recursion"], {"l": b"d\n"}, b""),
    (["-cvf", "a.tar", "-T", "l", "e"], {"l": b"--no-recursion\nd\n"}, b""),
    (["-cvvf", "a.tar", "-T", "l"], {"l": b"d\nd/a\n"}, b""),
    (["-cvf", "a.tar", "--files-from=l"], {"l": b"\xc3\xbc\n\xe6\x97\xa5\n"}, b""),
    (["-cvf", "a.tar", "--files-from", "l"], {"l": b"d/\xc3\xbcn\xc3\xaf\n"}, b""),
    (["-cf", "a.tar", "-T", "l"], {"l": b""}, b""),
]


@pytest.mark.parametrize("case", range(len(FILES_FROM_CASES)))
def test_files_from_create(case: int) -> None:
    argv, extra, stdin = FILES_FROM_CASES[case]
    check_pair(["tar", *argv], _files(extra), stdin=stdin, create=True, archives=("a.tar",))


READ_LIST_CASES: list[tuple[list[str], bytes]] = [
    (["-tvf", "a.tar", "-T", "l"], b"d/a\ne\n"),
    (["-tf", "a.tar", "-T", "l"], b"nope\nf\n"),
    (["-xvf", "a.tar", "-C", "o", "-T", "l"], b"d/s\nx.md\n"),
    (["--null", "-tf", "a.tar", "-T", "l"], b"d/b c\0f\0"),
    (["-tf", "a.tar", "-T", "l"], b"--no-recursion\nd\n"),
    (["-tf", "a.tar", "-T", "l"], b"--wildcards\nd/*\n"),
    (["-tf", "a.tar", "-T", "nope"], b""),
    (["-tf", "-", "-T", "-"], b""),
    (["-tf", "a.tar", "-X", "l"], b"a\n*.md\n"),
    (["-tf", "a.tar", "-X", "nope"], b""),
    (["-xvf", "a.tar", "-C", "o", "-X", "l"], b"s\n"),
    (["-tf", "a.tar", "--exclude-vcs"], b""),
    (["-tf", "a.tar", "d", "--no-recursion"], b""),
    (["-tf", "a.tar", "--no-recursion", "d", "d/a"], b""),
    (["-tf", "a.tar", "--no-recursion", "--wildcards", "d/*"], b""),
]


@pytest.mark.parametrize("case", range(len(READ_LIST_CASES)))
def test_files_from_read(case: int) -> None:
    argv, listing = READ_LIST_CASES[case]
    tree = _files({"l": listing, "o": None, "a.tar": gnu_archive(TREE, ["d", "e", "f", "x.md"])})
    check_pair(["tar", *argv], tree)


def test_find_print0_piped_to_null_files_from() -> None:
    """``find . -print0 | tar --null -T - -cf a.tar``: the names GNU find prints."""
    names = [".", "./f", "./d", "./d/a", "./d/b c", "./d/s", "./d/s/e", "./e", "./x.md"]
    stdin = b"".join(n.encode() + b"\0" for n in names)
    # (to stdout: an archive made in '.' would give '.' the time of its making)
    check_pair(["tar", "--null", "-T", "-", "-cf", "-"], TREE, stdin=stdin, create=True)
    check_pair(["tar", "--no-recursion", "--null", "-T", "-", "-cvf", "-"], TREE, stdin=stdin,
               create=True)


EXCLUDE_CASES: list[tuple[list[str], Tree, bytes]] = [
    (["-cvf", "a.tar", "-X", "ex", "d", "e"], {"ex": b"*.md  \n\n a\ns\n"}, b""),
    (["-cvf", "-", "-X", "ex", "."], {"ex": b"a\n./x.md\n"}, b""),
    (["-cvf", "a.tar", "-X", "nope", "d"], {}, b""),
    (["-cvf", "a.tar", "--exclude-from=ex", "d"], {"ex": b"b c\n"}, b""),
    (["-cvf", "a.tar", "-X", "-", "d"], {}, b"a\n"),
    (["-cvf", "a.tar", "-X", "ex"], {"ex": b"a\n"}, b""),
    (["-cvf", "a.tar", "d", "-X", "ex"], {"ex": b"a\n"}, b""),
    (["-cvf", "a.tar", "d", "-X", "ex", "e"], {"ex": b"a\n"}, b""),
    (["-cvf", "a.tar", "--no-wildcards", "-X", "ex", "d"], {"ex": b"*\n"}, b""),
    (["-cvf", "a.tar", "-X", "ex", "d"], {"ex": b"d\n"}, b""),
    (["-cvf", "a.tar", "-X", "ex", "d"], {"ex": b"\xc3\xbcn\xc3\xaf\n"}, b""),
    (["-cvf", "a.tar", "-X", "d", "f"], {}, b""),
    (["-cvf", "a.tar", "--exclude=a", "d", "e"], {}, b""),
    (["-cvf", "a.tar", "d", "--exclude=a", "e"], {}, b""),
    (["-cvf", "a.tar", "--exclude=b*", "d", "--exclude=a", "e", "--exclude=x"], {}, b""),
    (["-cvf", "a.tar", "--no-recursion", "--exclude=d", "d/a"], {}, b""),
    (["-cvf", "a.tar", "--exclude=d", "d/a"], {}, b""),
    (["-cvf", "a.tar", "f", "--null"], {}, b""),
    (["-cvf", "a.tar", "f", "-C", "d"], {}, b""),
    (["-cvf", "a.tar", "f", "--directory=d"], {}, b""),
    (["-cvf", "a.tar", "f", "--no-unquote", "--wildcards", "--recursion"], {}, b""),
    (["-cvf", "a.tar", "f", "--exclude-vcs", "--exclude-backups"], {}, b""),
]


@pytest.mark.parametrize("case", range(len(EXCLUDE_CASES)))
def test_exclude_from_and_positional_options(case: int) -> None:
    argv, extra, stdin = EXCLUDE_CASES[case]
    check_pair(["tar", *argv], _files(extra), stdin=stdin, create=True, archives=("a.tar",))


VCS_TREE: Tree = {"p": None, "p/.git": None, "p/.git/HEAD": b"ref\n", "p/src": None,
                  "p/src/CVS": None, "p/src/CVS/Root": b"r\n", "p/src/main.c": b"int x;\n",
                  "p/.gitignore": b"*.o\n", "p/.cvsignore": b"", "p/RCS": b"", "p/SCCS": b"",
                  "p/.svn": None, "p/.hg": b"", "p/.hgignore": b"", "p/.hgtags": b"",
                  "p/.bzr": b"", "p/.bzrignore": b"", "p/.bzrtags": b"", "p/_darcs": b"",
                  "p/{arch}": b"", "p/{arch},v": b"", "p/.arch-ids": b"", "p/=update": b"",
                  "p/=RELEASE-ID": b"", "p/=meta-update": b"", "p/.gitattributes": b"",
                  "p/.gitmodules": b"", "p/.hgrc": b"", "p/a~": b"", "p/~": b"", "p/#": b"",
                  "p/#x#": b"", "p/.#lock": b"", "p/x.orig": b"", "p/notes.md~": b"old\n",
                  "p/src/.#main.c": b""}

VCS_CASES = [
    ["-cvf", "a.tar", "--exclude-vcs", "p"], ["-cvf", "a.tar", "--exclude-backups", "p"],
    ["-cvf", "a.tar", "--exclude-vcs", "--exclude-backups", "p"],
    ["-cvf", "a.tar", "p", "--exclude-vcs", "p/src"], ["-cvf", "a.tar", "--exclude-vcs", "p/.git"],
    ["-cvf", "a.tar", "--exclude-backups", "p/a~", "p/src"],
    ["-cvf", "a.tar", "--exclude-vcs", "--no-recursion", "p", "p/src/CVS"],
]


@pytest.mark.parametrize("argv", VCS_CASES, ids=" ".join)
def test_exclude_vcs_and_backups_create(argv: list[str]) -> None:
    check_pair(["tar", *argv], VCS_TREE, create=True, archives=("a.tar",))


@pytest.mark.parametrize("flag", ["--exclude-vcs", "--exclude-backups"])
@pytest.mark.parametrize("mode", ["-tf", "-xvf"])
def test_exclude_vcs_and_backups_read(flag: str, mode: str) -> None:
    tree: Tree = {"a.tar": gnu_archive(VCS_TREE, ["p"]), "o": None}
    check_pair(["tar", flag, mode, "a.tar", "-C", "o"], tree)


RECURSION_CASES = [
    ["-cvf", "a.tar", "--no-recursion", "d", "d/s"], ["-cvf", "a.tar", "--no-recursion", "d", "--recursion", "d/s"],
    ["-cvf", "-", "--no-recursion", "."], ["-cvf", "a.tar", "--no-recursion", "f", "d/a"],
    ["-cvf", "a.tar", "--recursion", "d"], ["-cvvf", "a.tar", "--no-recursion", "-C", "d", ".", "s"],
]


@pytest.mark.parametrize("argv", RECURSION_CASES, ids=" ".join)
def test_no_recursion_create(argv: list[str]) -> None:
    check_pair(["tar", *argv], TREE, create=True, archives=("a.tar",))


@pytest.mark.parametrize("argv", [["-tf", "a.tar", "--no-recursion", "d"], ["-xvf", "a.tar", "--no-recursion", "d", "d/s"],
                                  ["-tf", "a.tar", "--no-recursion", "d/"], ["-tf", "a.tar", "--no-recursion", "d", "--recursion", "e"],
                                  ["-uvf", "a.tar", "--no-recursion", "d"]], ids=" ".join)
def test_no_recursion_read(argv: list[str]) -> None:
    tree = _files({"a.tar": gnu_archive(TREE, ["d", "e"])})
    check_pair(["tar", *argv], tree, create=argv[0].startswith("-u"), archives=("a.tar",))


# -- generated -----------------------------------------------------------------------------

def _list_bytes(rng: random.Random, names: list[str], null: bool) -> bytes:
    term = b"\0" if null else b"\n"
    picked = [rng.choice(names + ["nope", "t/missing file"]) for _ in range(rng.randint(0, 6))]
    pieces: list[bytes] = []
    for name in picked:
        raw = name.encode("utf-8", "surrogateescape")
        if not null and rng.random() < 0.1:
            pieces.append(b"")  # a blank line
        if not null and b"\\" not in raw and rng.random() < 0.1:
            raw = raw.replace(b"a", b"\\141")  # unquoted back to 'a'
        if not null and rng.random() < 0.08:
            pieces.append(rng.choice([b"--no-recursion", b"--recursion", b"--exclude=*.md*",
                                      b"-C t", b"--wildcards"]))
        pieces.append(raw)
    data = term.join(pieces)
    if pieces and rng.random() < 0.7:
        data += term
    return data


@pytest.mark.parametrize("seed", range(50))
@pytest.mark.parametrize("null", [False, True], ids=["newline", "null"])
def test_random_files_from(seed: int, null: bool) -> None:
    """Random lists (newline or NUL, blank lines, escapes, options) of random trees, read
    from a file or stdin, for -c (archive bytes) and for -t/-x."""
    rng = random.Random(7000 + seed + (500 if null else 0))
    tree = random_tree(rng)
    names = sorted(k for k in tree if "\t" not in k or rng.random() < 0.5)
    listing = _list_bytes(rng, names, null)
    opts = (["--null"] if null else []) + (["--no-recursion"] if rng.random() < 0.2 else [])
    from_stdin = rng.random() < 0.3
    src = ["-T", "-"] if from_stdin else [rng.choice(["-T", "--files-from"]), "list"]
    files: Tree = dict(tree)
    if not from_stdin:
        files["list"] = listing
    stdin = listing if from_stdin else b""
    if rng.random() < 0.5:
        check_pair(["tar", *opts, rng.choice(["-cf", "-cvf"]), "a.tar", *src], files, stdin=stdin,
                   create=True, archives=("a.tar",))
    else:
        files["a.tar"] = gnu_archive(tree, ["t"])
        files["o"] = None
        mode = rng.choice([["-tf", "a.tar"], ["-tvf", "a.tar"], ["-xvf", "a.tar", "-C", "o"]])
        check_pair(["tar", *opts, *mode, *src], files, stdin=stdin)


@pytest.mark.parametrize("seed", range(60))
def test_random_exclude_from(seed: int) -> None:
    """Random -X files (patterns with wildcards, trailing blanks, blank lines) on random
    trees, for -c and -t."""
    rng = random.Random(8000 + seed)
    tree = random_tree(rng)
    pats = [rng.choice(NAME_PIECES)[: rng.randint(1, 6)] + rng.choice(["", "*", "?"]) for _ in range(rng.randint(0, 4))]
    pats += [rng.choice(["*.md*", "x*", "*5*", "t/*", "", "   ", "a b*", "ünï*"]) for _ in range(rng.randint(0, 2))]
    data = "\n".join(p + rng.choice(["", " ", "\t"]) for p in pats).encode()
    files: Tree = dict(tree)
    files["ex"] = data
    before = ["--no-wildcards"] if rng.random() < 0.15 else []
    if rng.random() < 0.6:
        check_pair(["tar", *before, "-X", "ex", rng.choice(["-cf", "-cvf"]), "a.tar", "t"], files,
                   create=True, archives=("a.tar",))
    else:
        files["a.tar"] = gnu_archive(tree, ["t"])
        check_pair(["tar", "-tvf", "a.tar", *before, "--exclude-from", "ex"], files)


VCS_PIECES = [".git", "CVS", ".svn", ".gitignore", "RCS", "_darcs", ".hg", "{arch}", "x~", ".#x",
              "#y#", "~", "#", "keep.c", "notes"]


@pytest.mark.parametrize("seed", range(50))
@pytest.mark.parametrize("main", ["--exclude-vcs", "--exclude-backups", "--no-recursion"])
def test_random_exclude_vcs_backups_recursion(seed: int, main: str) -> None:
    """Random trees with version-control and backup names under --exclude-vcs,
    --exclude-backups and --no-recursion (``main`` always, the others at random), in create
    and list modes."""
    rng = random.Random(9000 + seed + {"--exclude-vcs": 0, "--exclude-backups": 300}.get(main, 600))
    tree = random_tree(rng)
    dirs = [k for k, v in tree.items() if v is None or (isinstance(v, tuple) and v[0] is None)]
    for _ in range(rng.randint(1, 6)):
        name = f"{rng.choice(dirs)}/{rng.choice(VCS_PIECES)}"
        if name not in tree:
            tree[name] = None if rng.random() < 0.3 else b"v\n"
            if tree[name] is None:
                tree[name + "/inner"] = b"i\n"
    flags = [f for f in ("--exclude-vcs", "--exclude-backups") if f == main or rng.random() < 0.3]
    operands = ["t"] + rng.sample(sorted(tree), min(2, len(tree))) if rng.random() < 0.4 else ["t"]
    if main == "--no-recursion" or rng.random() < 0.2:
        flags.append("--no-recursion")
    if rng.random() < 0.6:
        check_pair(["tar", *flags, "-cvf", "a.tar", *operands], tree, create=True, archives=("a.tar",))
    else:
        files: Tree = dict(tree)
        files["a.tar"] = gnu_archive(tree, ["t"])
        check_pair(["tar", *flags, "-tf", "a.tar", *operands[1:]], files)
