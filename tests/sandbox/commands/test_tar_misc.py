"""Differential tests against GNU tar 1.34 of ``-P``/``--absolute-names``, ``--remove-files``,
``--totals``, ``--skip-old-files``/``--keep-old-files``/``--overwrite``, ``-u`` (only newer
files appended), and the messages for missing or unreadable compressed archives and for
updating compressed ones. ``@W@`` stands for the absolute working directory."""

from __future__ import annotations

import random

import pytest

from tests.sandbox.commands.files_support import BASE_MTIME, Tree
from tests.sandbox.commands.test_tar import random_tree
from tests.sandbox.commands.test_tar import pytestmark  # noqa: F401  (skip without GNU tar)
from tests.sandbox.commands.test_tar_support import check_pair, gnu_archive

TREE: Tree = {"f": b"top\n", "d": None, "d/a": b"a\n", "d/b c": b"sp\n", "d/s": None,
              "d/s/e": b"", "d/ünï": b"u\n", "e": None, "e/x.md": b"md\n"}


def _with(extra: Tree) -> Tree:
    tree = dict(TREE)
    tree.update(extra)
    return tree


# -- -P ------------------------------------------------------------------------------------

ABSOLUTE_CREATE = [
    ["-cvf", "a.tar", "@W@/f"], ["-cvPf", "a.tar", "@W@/f", "../w/d/a"], ["-cPf", "a.tar", "@W@/d"],
    ["--absolute-names", "-cvf", "a.tar", "@W@/d/s/", "./f"], ["-cvf", "a.tar", "../w/d", "@W@/e"],
    ["-cvvPf", "a.tar", "@W@/f", "@W@/f"], ["-cPf", "a.tar", "-C", "d", "@W@/f", "a"],
]


@pytest.mark.parametrize("argv", ABSOLUTE_CREATE, ids=" ".join)
def test_absolute_names_create(argv: list[str]) -> None:
    check_pair(["tar", *argv], TREE, create=True, archives=("a.tar",))


ABSOLUTE_READ = [
    ["-tvf", "p.tar"], ["-tPf", "p.tar"], ["-xvf", "p.tar", "-C", "o"], ["-xvPf", "p.tar"],
    ["-xPf", "p.tar", "-C", "o"], ["-tvPf", "p.tar", "@W@/d/a"], ["-xOPf", "p.tar"],
]


def _gnu_absolute(where: str) -> bytes:
    import subprocess
    import tempfile
    from pathlib import Path

    from tests.sandbox.commands.files_support import ENV, build
    from tests.sandbox.commands.test_tar import IDENTITY, TAR
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), {"f": b"archived f\n", "d": None, "d/a": b"archived a\n"})
        # names as GNU -P stores them: absolute (the test's directory) and with '..'
        argv = [TAR, "-cP", "--hard-dereference", *IDENTITY, "-f", "-", "--transform", f"s,^{a},{where},", f"{a}/f",
                f"{a}/d", "../" + Path(a).name + "/d/a"]
        return subprocess.run(argv, cwd=a, env=ENV, capture_output=True, check=True).stdout


@pytest.mark.parametrize("argv", ABSOLUTE_READ, ids=" ".join)
def test_absolute_names_read(argv: list[str]) -> None:
    tree = _with({"p.tar": _gnu_absolute, "o": None})  # type: ignore[dict-item]
    check_pair(["tar", *argv], tree)


@pytest.mark.parametrize("seed", range(50))
def test_random_absolute_names(seed: int) -> None:
    """Random trees archived by absolute and ``..`` names, with and without -P."""
    rng = random.Random(14000 + seed)
    tree = random_tree(rng)
    names = sorted(tree)
    ops = [rng.choice(["@W@/", "../w/", "./", ""]) + n for n in rng.sample(names, min(3, len(names)))]
    p = ["-P"] if rng.random() < 0.6 else []
    check_pair(["tar", *p, rng.choice(["-cf", "-cvf"]), "a.tar", *ops], tree, create=True,
               archives=("a.tar",))


# -- --remove-files --------------------------------------------------------------------------

REMOVE_CASES = [
    ["-cvf", "a.tar", "--remove-files", "d", "f"], ["-cvf", "a.tar", "--remove-files", "--exclude=e", "d"],
    ["-cf", "a.tar", "--remove-files", "f", "f"], ["-cf", "a.tar", "--remove-files", "d/a", "nope"],
    ["-cf", "d/a.tar", "--remove-files", "d"], ["-czf", "a.tar", "--remove-files", "e"],
    ["-cf", "a.tar", "--remove-files", "--no-recursion", "d"], ["-cf", "a.tar", "--remove-files", "d", "d/a"],
    ["-rf", "old.tar", "--remove-files", "e"], ["-uvf", "old.tar", "--remove-files", "f", "d"],
    ["-cf", "a.tar", "--remove-files", "-C", "d", "s", "a"], ["-cf", "-", "--remove-files", "e"],
]


@pytest.mark.parametrize("argv", REMOVE_CASES, ids=" ".join)
def test_remove_files(argv: list[str]) -> None:
    tree = _with({"old.tar": gnu_archive(TREE, ["f"])})
    check_pair(["tar", *argv], tree, create=True, archives=("a.tar", "old.tar", "d/a.tar"))


@pytest.mark.parametrize("seed", range(50))
def test_random_remove_files(seed: int) -> None:
    rng = random.Random(15000 + seed)
    tree = random_tree(rng)
    names = sorted(tree)
    # (ancestors first: a directory dumped after GNU removed one of its files gets the time
    # of that removal, which no second-exact comparison of two runs can match)
    ops = sorted(rng.sample(names, min(len(names), rng.randint(1, 3))))
    extra = [f"--exclude={rng.choice(['*.md*', 'x*', '*a*'])}"] if rng.random() < 0.4 else []
    check_pair(["tar", *extra, "--remove-files", rng.choice(["-cf", "-cvf"]), "a.tar", *ops], tree,
               create=True, archives=("a.tar",))


# -- --totals --------------------------------------------------------------------------------

TOTALS_CASES = [
    ["-cf", "a.tar", "--totals", "d"], ["-cf", "a.tar", "--totals", "nope"], ["-czf", "a.tgz", "--totals", "d"],
    ["-cf", "-", "--totals", "d"], ["-tf", "old.tar", "--totals"], ["-xf", "old.tar", "-C", "o", "--totals"],
    ["-rf", "old.tar", "--totals", "e"], ["-uf", "old.tar", "--totals", "f"], ["--totals=USR1", "-cf", "a.tar", "f"],
    ["--totals=SIGINT", "-tf", "old.tar"], ["--totals=FOO", "-cf", "a.tar", "f"], ["-tzf", "old.tgz", "--totals"],
    ["-cf", "a.tar", "--totals", "big"], ["-tf", "big.tar", "--totals"],
]


@pytest.mark.parametrize("argv", TOTALS_CASES, ids=" ".join)
def test_totals(argv: list[str]) -> None:
    big = bytes(range(256)) * 5000
    tree = _with({"old.tar": gnu_archive(TREE, ["f", "d"]), "o": None, "big": big,
                  "old.tgz": gnu_archive(TREE, ["d"], ["-z"]), "big.tar": gnu_archive({"big": big}, ["big"])})
    check_pair(["tar", *argv], tree, create=any(a.startswith(("-c", "-r", "-u")) for a in argv),
               archives=("a.tar", "a.tgz", "old.tar"))


@pytest.mark.parametrize("seed", range(50))
def test_random_totals(seed: int) -> None:
    rng = random.Random(16000 + seed)
    tree = random_tree(rng)
    if rng.random() < 0.5:
        check_pair(["tar", "--totals", rng.choice(["-cf", "-czf", "-cvf"]), "a.tar", "t"], tree,
                   create=True, archives=("a.tar",))
    else:
        files: Tree = {"a.tar": gnu_archive(tree, ["t"]), "o": None}
        check_pair(["tar", "--totals", rng.choice(["-tf", "-xf"]), "a.tar", "-C", "o"], files)


# -- old files on extraction -------------------------------------------------------------------

OLD_FILES = ["--skip-old-files", "--keep-old-files", "-k", "--overwrite", "--overwrite-dir"]
BEFORE: list[Tree] = [
    {}, {"d/a": b"old a\n"}, {"f": None, "f/in": b"1"}, {"f": None}, {"d/s": b"a file\n"},
    {"d": b"a file\n"}, {"d/a": (b"old\n", BASE_MTIME - 10)},
]


@pytest.mark.parametrize("before", range(len(BEFORE)))
@pytest.mark.parametrize("flag", OLD_FILES)
@pytest.mark.parametrize("verbose", ["-xf", "-xvf"])
def test_old_files(before: int, flag: str, verbose: str) -> None:
    files: Tree = {"a.tar": gnu_archive(TREE, ["d", "f"])}
    files.update(BEFORE[before])
    check_pair(["tar", verbose, "a.tar", flag], files)


@pytest.mark.parametrize("pair", [("-k", "--overwrite"), ("--overwrite", "-k"), ("--skip-old-files", "-k"),
                                  ("-k", "--skip-old-files"), ("--overwrite", "--skip-old-files"),
                                  ("-k", "--keep-old-files"), ("--overwrite-dir", "--overwrite")], ids=" ".join)
def test_old_files_conflicts(pair: tuple[str, str]) -> None:
    check_pair(["tar", "-xf", "a.tar", *pair], {"a.tar": gnu_archive(TREE, ["f"])})


@pytest.mark.parametrize("seed", range(50))
@pytest.mark.parametrize("flag", ["--skip-old-files", "--keep-old-files", "--overwrite", ""],
                         ids=lambda f: f or "default")
def test_random_old_files(seed: int, flag: str) -> None:
    """Random archives extracted over trees where some files exist or are directories."""
    rng = random.Random(17000 + seed + 100 * len(flag))
    tree = random_tree(rng)
    files: Tree = {"a.tar": gnu_archive(tree, ["t"])}
    plain = sorted(k for k, v in tree.items() if not (v is None or (isinstance(v, tuple) and v[0] is None)))
    for name in rng.sample(plain, min(len(plain), rng.randint(0, 4))):
        if rng.random() < 0.6:
            files[name] = b"existing\n"
        else:  # a directory in the place of the file
            files[name] = None
            files[name + "/inner"] = b"x"
    check_pair(["tar", rng.choice(["-xf", "-xvf"]), "a.tar", *([flag] if flag else [])], files)


# -- -u ----------------------------------------------------------------------------------------

def test_update_appends_nothing_unchanged() -> None:
    """``echo x > f; tar cf t.tar f; tar uf t.tar f; tar tf t.tar`` lists f once (whole
    seconds compare, though the file's time has nanoseconds)."""
    tree: Tree = {"f": (b"x\n", BASE_MTIME + 0.75)}
    files = dict(tree)
    files["t.tar"] = gnu_archive(tree, ["f"])
    check_pair(["tar", "uvf", "t.tar", "f"], files, create=True, archives=("t.tar",))


@pytest.mark.parametrize("seed", range(50))
def test_random_update(seed: int) -> None:
    """Random trees archived, some files then made newer, older or new, updated with -u."""
    rng = random.Random(18000 + seed)
    tree = random_tree(rng)
    archive = gnu_archive(tree, ["t"])
    files: Tree = dict(tree)
    for name in rng.sample(sorted(tree), min(len(tree), rng.randint(0, 3))):
        body = tree[name]
        data, mtime = body if isinstance(body, tuple) else (body, BASE_MTIME)
        if data is None:
            continue
        files[name] = (data + b"!", mtime + rng.choice([-5, 0, 0.5, 1, 100]))  # type: ignore[operator]
    if rng.random() < 0.4:
        files["t/new file"] = b"new\n"
    files["a.tar"] = archive
    ops = ["t"] if rng.random() < 0.6 else rng.sample(sorted(tree), min(2, len(tree)))
    check_pair(["tar", rng.choice(["-uf", "-uvf", "--update", "-f"]), "a.tar", *ops], files,
               create=True, archives=("a.tar",))


# -- compressed archives: messages ---------------------------------------------------------------

COMPRESSED_CASES = [
    ["tzf", "nothere.tgz"], ["tjf", "nothere.tbz"], ["tJf", "nothere.txz"], ["xzf", "nothere.tgz"],
    ["-tf", "nothere.tgz"], ["-tzf", "d"], ["-tjf", "d"], ["-tJf", "d"], ["-xvzf", "d"],
    ["rzf", "t.tgz", "f"], ["rjf", "t.tgz", "f"], ["-rJf", "t.tgz", "f"], ["uzf", "t.tgz", "f"],
    ["-rf", "t.tgz", "f"], ["-uf", "t.tgz", "f"], ["--delete", "-zf", "t.tgz", "f"], ["--delete", "-jf", "x", "f"],
    ["-caf", "nodir/x.tar", "f"], ["-rf", "d", "f"], ["--delete", "-f", "d", "f"],
]


@pytest.mark.parametrize("argv", COMPRESSED_CASES, ids=" ".join)
def test_compressed_archive_messages(argv: list[str]) -> None:
    tree = _with({"t.tgz": gnu_archive(TREE, ["f"], ["-z"])})
    check_pair(["tar", *argv], tree, create=True, archives=("t.tgz",))
