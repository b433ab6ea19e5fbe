"""nproc, tty, sync, logname, pathchk, unlink and link against GNU coreutils 9.1: generated and
hand-written command lines, bytes and exit status compared with the real tools (the virtual
values — processor count, login name — mapped where GNU prints the host's)."""

from __future__ import annotations

import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fs  # noqa: E402
import gnu_text_support as gts  # noqa: E402

from sandbox import Policy, Sandbox  # noqa: E402
from sandbox.commands import _identity  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402

GENERATED = 60
TREE: fs.Tree = {"f": b"data\n", "g": b"", "d": None, "d/inner": b"x", "-x": b"dash", "caf\u00e9": b"u",
                 "e": None}


def reference(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, bytes, bytes]:
    gts.need(argv[0])
    ref = subprocess.run(argv, capture_output=True, env={**fs.ENV, **(env or {})}, timeout=30,
                         stdin=subprocess.DEVNULL)
    return ref.returncode, ref.stdout, ref.stderr


def ours(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, bytes, bytes]:
    return run_command(argv, env=env)


def help_or_version(argv: list[str]) -> bool:
    """--help/--version: our text is GNU's without the trailer (checked as a prefix)."""
    if not any(len(a) > 2 and ("--help".startswith(a) or "--version".startswith(a)) for a in argv[1:]):
        return False
    code, out, _ = reference(argv)
    mine = ours(argv)
    if code == 0:
        assert mine[0] == 0 and mine[1] and out.startswith(mine[1]), argv
        return True
    return False


def words(rng: random.Random, vocab: list[str], most: int = 3) -> list[str]:
    return [rng.choice(vocab) for _ in range(rng.randint(0, most))]


# -- nproc -----------------------------------------------------------------------------------

@pytest.fixture
def host_nproc(monkeypatch: pytest.MonkeyPatch) -> int:
    """Make our virtual count the host's, so GNU's output is the expected one."""
    gts.need("nproc")
    current = int(reference(["nproc"])[1])
    installed = int(reference(["nproc", "--all"])[1])
    if current != installed:
        pytest.skip("host's nproc and nproc --all differ (CPU affinity): one virtual value can't match both")
    monkeypatch.setattr(_identity, "NPROC", current)
    return current


NPROC_WORDS = ["--all", "--ignore=0", "--ignore=1", "--ignore=999", "--ignore=x", "--ignore=-1", "--ignore= 2",
               "--ignore=1k", "--ignore=99999999999999999999999", "--ign=1", "--ignore", "3", "x", "--", "-a",
               "--al", "--bogus", "--ignore=+1", "--ignore="]
OMP = [None, "", "4", " 3 ", "2,5", "x", "0", "7x", "99999999999999999999999", "3,", "  ", "-2"]


def test_nproc_generated(host_nproc: int) -> None:
    rng = random.Random(11)
    for _ in range(GENERATED):
        argv = ["nproc", *words(rng, NPROC_WORDS)]
        env = {}
        for var in ("OMP_NUM_THREADS", "OMP_THREAD_LIMIT"):
            value = rng.choice(OMP)
            if value is not None:
                env[var] = value
        if help_or_version(argv):
            continue
        assert ours(argv, env) == reference(argv, env), (argv, env)


@pytest.mark.parametrize("args", ["", "--all", "--ignore=1", "--ignore=2 --all", "--ignore 1", "x", "--help",
                                  "--version", "--ignore=", "--ignore=18446744073709551615", "--ignore=18446744073709551616"])
def test_nproc_hand_written(host_nproc: int, args: str) -> None:
    argv = ["nproc", *shlex.split(args)]
    if not help_or_version(argv):
        assert ours(argv) == reference(argv)


def test_nproc_is_virtual() -> None:
    assert run_command(["nproc"]) == (0, b"1\n", b"")
    assert run_command(["nproc", "--all"]) == (0, b"1\n", b"")
    assert run_command(["nproc"], env={"OMP_NUM_THREADS": "8"}) == (0, b"8\n", b"")


# -- tty -------------------------------------------------------------------------------------

TTY_WORDS = ["-s", "--silent", "--quiet", "--qu", "x", "--", "-x", "--bogus", "-ss", "--sil", "-"]


def test_tty_generated() -> None:
    rng = random.Random(12)
    for _ in range(GENERATED):
        argv = ["tty", *words(rng, TTY_WORDS)]
        if not help_or_version(argv):
            assert ours(argv) == reference(argv), argv


@pytest.mark.parametrize("args", ["", "-s", "--silent", "--quiet", "x", "-s x", "--help", "--version", "-z"])
def test_tty_hand_written(args: str) -> None:
    argv = ["tty", *shlex.split(args)]
    if not help_or_version(argv):
        assert ours(argv) == reference(argv)


# -- logname ---------------------------------------------------------------------------------

def logname_expected(argv: list[str]) -> tuple[int, bytes, bytes]:
    code, out, err = reference(argv)
    if err == b"logname: no login name\n":  # GNU asks the host's utmp; ours is the virtual user
        return 0, f"{_identity.USER}\n".encode(), b""
    if code == 0 and not err and out.strip() and b" " not in out.strip():
        return 0, f"{_identity.USER}\n".encode(), b""
    return code, out, err


def test_logname_generated() -> None:
    rng = random.Random(13)
    for _ in range(GENERATED):
        argv = ["logname", *words(rng, ["x", "--", "-x", "--bogus", "-", "--he", "--vers", "a b"], 2)]
        if not help_or_version(argv):
            assert ours(argv) == logname_expected(argv), argv


@pytest.mark.parametrize("args", ["", "x", "-- x", "--", "--help", "--version", "-q"])
def test_logname_hand_written(args: str) -> None:
    argv = ["logname", *shlex.split(args)]
    if not help_or_version(argv):
        assert ours(argv) == logname_expected(argv)


# -- link ------------------------------------------------------------------------------------

LINK_REFUSAL = (1, b"", b"link: links are not supported in the sandbox: the jail never follows links; "
                        b"copy the file with cp instead\n")


def test_link_generated() -> None:
    rng = random.Random(14)
    for _ in range(GENERATED):
        argv = ["link", *words(rng, ["f", "new", "--", "-x", "--bogus", "d", "nonexist", "--he"], 4)]
        if help_or_version(argv):
            continue
        ref = fs.run_pair(argv, TREE)[0]
        mine = run_command(argv, files={"f": b"data\n"})
        operands = [a for a in argv[1:] if a != "--"]
        parses = not any(a.startswith("-") and a != "-" for a in argv[1:argv.index("--") if "--" in argv else len(argv)])
        if parses and len(operands) == 2 and argv.count("--") <= 1:
            assert mine == LINK_REFUSAL, argv
        else:
            assert mine == ref[:3], argv


def test_link_refuses_in_one_line() -> None:
    assert run_command(["link", "f", "g"], files={"f": b"x"}) == LINK_REFUSAL
    assert run_command(["ln", "f", "g"])[2].split(b": ", 1)[1] == LINK_REFUSAL[2].split(b": ", 1)[1]


# -- pathchk, unlink, sync: against the real file system --------------------------------------

LONG = "a" * 256
NAMES = ["f", "g", "d", "d/", "d/inner", "d/inner/", "f/", "f/x", "nonexist", "nonexist/x", "", "-x", "a/-b", "a-b",
         "caf\u00e9", "a b", "\udcff", "a\udcc3", "\u65e5x", "/", "//a//b/", "abcdefghijklmno", "abcdefghijklmn",
         LONG, "nonexist/" + LONG, "d/" + LONG, "x" * 300, "a/" * 2100, "a" * 255, "d/../f", "nonexist/../f", ".", "..",
         "e", "d/inner/x", "-", "--"]


def check_tree(argv: list[str]) -> None:
    report = fs.compare(argv, TREE)
    assert report is None, report


@pytest.mark.parametrize("flags", [[], ["-p"], ["-P"], ["--portability"], ["-p", "-P"]])
def test_pathchk_each_name(flags: list[str]) -> None:
    for name in NAMES:
        check_tree(["pathchk", *flags, "--", name])


def test_pathchk_generated() -> None:
    rng = random.Random(15)
    for _ in range(GENERATED):
        argv = ["pathchk", *words(rng, ["-p", "-P", "--portability", "--port", "-x"], 2), "--",
                *[rng.choice(NAMES) for _ in range(rng.randint(0, 3))]]
        check_tree(argv)


@pytest.mark.parametrize("args", ["", "-p", "--", "-x", "--bogus", "f g", "-pP -- -x"])
def test_pathchk_command_lines(args: str) -> None:
    check_tree(["pathchk", *shlex.split(args)])


def test_unlink_generated() -> None:
    rng = random.Random(16)
    vocab = ["f", "g", "d", "d/", "f/", "nonexist", "", "d/inner", "--", "-x", "--bogus", "e", "caf\u00e9", LONG]
    for _ in range(GENERATED):
        argv = ["unlink", *words(rng, vocab, 3)]
        if not help_or_version(argv):
            check_tree(argv)


@pytest.mark.parametrize("name", ["f", "d", "d/", "f/", "nonexist", "", "-x", "d/inner", "e", "/", ".", LONG, "f/.."])
def test_unlink_one(name: str) -> None:
    check_tree(["unlink", "--", name])


@pytest.mark.parametrize("args", ["", "f g", "--", "-- -x", "--bogus", "--help", "--version"])
def test_unlink_command_lines(args: str) -> None:
    argv = ["unlink", *shlex.split(args)]
    if not help_or_version(argv):
        check_tree(argv)


def test_unlink_is_a_write(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x")
    box = Sandbox({"/": tmp_path}, policy=Policy(allow=frozenset({"unlink"}), read_only=True))
    result = box.run("unlink f")
    assert result.exit_code == 126 and (tmp_path / "f").exists()
    box = Sandbox({"/": tmp_path}, policy=Policy(allow=frozenset({"unlink"})))
    assert box.run("unlink f").exit_code == 0 and not (tmp_path / "f").exists()


def test_sync_generated() -> None:
    rng = random.Random(17)
    vocab = ["-d", "-f", "--data", "--file-system", "--fi", "f", "d", "nonexist", "", "f/", "--", "-x", "e", LONG]
    for _ in range(GENERATED):
        argv = ["sync", *words(rng, vocab, 4)]
        if not help_or_version(argv):
            check_tree(argv)


@pytest.mark.parametrize("args", ["", "-d", "-f", "-d -f", "-d f", "-f f d", "nonexist", "-d nonexist f", "f/", "''",
                                  "--data", "--file-system", "--help", "--version", "-- -x"])
def test_sync_hand_written(args: str) -> None:
    argv = ["sync", *shlex.split(args)]
    if not help_or_version(argv):
        check_tree(argv)
