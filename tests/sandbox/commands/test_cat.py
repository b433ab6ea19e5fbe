"""cat: unit tests and differential tests against GNU cat."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fsup  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402

SKIP = fsup.gnu_available("cat")


def test_copies_files_and_stdin() -> None:
    code, out, err = run_command(["cat", "a", "-", "b"], stdin=b"IN\n", files={"a": b"A\n", "b": b"B"})
    assert (code, out, err) == (0, b"A\nIN\nB", b"")


def test_missing_file_and_directory() -> None:
    code, out, err = run_command(["cat", "nope", "a", "d/x/.."], files={"a": b"A\n", "d/x/f": b""})
    assert code == 1
    assert out == b"A\n"
    assert err == b"cat: nope: No such file or directory\ncat: d/x/..: Is a directory\n"


def test_bad_option() -> None:
    code, out, err = run_command(["cat", "-z"])
    assert code == 1 and err == b"cat: invalid option -- 'z'\nTry 'cat --help' for more information.\n"


def test_number_and_ends() -> None:
    code, out, _ = run_command(["cat", "-nE"], stdin=b"a\n\nb")
    assert out == b"     1\ta$\n     2\t$\n     3\tb"


@pytest.mark.skipif(SKIP is not None, reason=SKIP or "")
def test_special_contents_every_option() -> None:
    tree = {f"s{i}": body for i, body in enumerate(fsup.SPECIAL_CONTENTS)}
    names = sorted(tree)
    cases = []
    for opt in ["", "-n", "-b", "-s", "-E", "-T", "-A", "-v", "-e", "-t", "-u", "-ns", "-bE", "-sb", "-vT",
                "--number", "--show-all", "--squeeze-blank", "--show-e", "--number-n"]:
        argv = ["cat"] + ([opt] if opt else [])
        cases.append((argv + names, tree))
        for name in names:
            cases.append((argv + [name], tree))
    fsup.check_all(cases)


@pytest.mark.skipif(SKIP is not None, reason=SKIP or "")
@pytest.mark.parametrize("seed", range(6))
def test_random_option_combinations(seed: int) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(25):
        tree = fsup.random_files(rng, rng.randint(1, 4))
        opts = rng.sample(["-n", "-b", "-s", "-E", "-T", "-A", "-v", "-e", "-t", "-u"], rng.randint(0, 4))
        operands = rng.choices(sorted(tree) + ["-", "missing", "."], k=rng.randint(0, 4))
        argv = ["cat"] + opts + operands
        if rng.random() < 0.3:
            argv.insert(rng.randint(1, len(argv)), rng.choice(["--", "-z", "--nope", "--show-tabs"]))
        stdin = fsup.random_content(rng)
        cases.append((argv, tree, stdin))
    fsup.check_all(cases)


@pytest.mark.skipif(SKIP is not None, reason=SKIP or "")
def test_error_quoting_of_odd_names() -> None:
    names = ["a b", "a'b", "a:b", "a\nb", "\udcff", "é", "{", "}", "#a", "a#", "a=b", "a@b", "a'b$", "a\tb",
             "", "a\\b", "~x", "x~", "a{b", "-", "a'b{", "a'#", "q?", "\x7f", "a\x01b", "a\u00a0b", "'"]
    cases = [(["cat", "--", name], {}) for name in names if name != "-"]
    fsup.check_all(cases, limit=30)


def test_planted_symlink_is_refused_without_host_path(tmp_path: Path) -> None:
    from sandbox.fs.local import LocalDir
    from sandbox.fs.vfs import VirtualFS

    (tmp_path / "jail").mkdir()
    (tmp_path / "secret").write_bytes(b"SECRET\n")
    (tmp_path / "jail" / "link").symlink_to(tmp_path / "secret")
    vfs = VirtualFS({"/m": LocalDir(tmp_path / "jail")})
    code, out, err = run_command(["cat", "link", "../m/link"], fs=vfs, cwd="/m")
    assert code == 1 and out == b""
    assert err == (b"cat: link: Symbolic link refused (the sandbox never follows links)\n"
                   b"cat: ../m/link: Symbolic link refused (the sandbox never follows links)\n")
    assert str(tmp_path).encode() not in err


@pytest.mark.parametrize("script", [
    "cat notes.md >> notes.md; echo $?; wc -c notes.md", "cat notes.md > notes.md; echo $?; wc -c notes.md",
    "cat a.txt notes.md > notes.md; echo $?; cat notes.md", "cat -n notes.md >> notes.md; echo $?",
    "cat a.txt notes.md >> a.txt; echo $?; cat a.txt", "cat ./notes.md >> notes.md; echo $?",
    "cat empty.txt >> empty.txt; echo $?",
    "cat dir/x.txt >> dir/../dir/x.txt; echo $?", "cat notes.md >> /dev/null; echo $?",
])
def test_input_file_is_output_file(script: str) -> None:
    """``cat f >> f`` (the file corpus): GNU refuses a non-empty regular input that is its
    output file (``cat: f: input file is output file``, status 1), and copies the rest."""
    from tests.sandbox.shell.shell_difftools import check
    check(script)
