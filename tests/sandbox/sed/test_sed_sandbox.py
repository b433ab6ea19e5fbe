"""sed inside the jail: refusals (e, --debug), writes outside the jail, read-only policy,
write budget, time limit, hostile scripts, and ``writes()`` for the guard."""

from __future__ import annotations

import os
import random

import pytest

from sandbox.commands.testing import run_command
from sandbox.errors import LimitExceeded
from sandbox.fs.local import LocalDir
from sandbox.fs.memory import MemoryFS
from sandbox.fs.vfs import VirtualFS
from sandbox.limits import Limits
from sandbox.policy import Policy
from sandbox.commands.sed import writes


def _memory_fs() -> VirtualFS:
    return VirtualFS({"/.memory": MemoryFS({"core.md": b"- concise\n", "notes.md": b"n1\nn2\n"})})


def test_e_command_is_refused() -> None:
    code, out, err = run_command(["sed", "1e echo pwned"], stdin=b"x\n")
    assert code == 1 and out == b""
    assert err == (b"sed: -e expression #1, char 2: the `e' command executes shell commands, "
                   b"which this sandbox does not allow\n")


def test_e_flag_of_s_is_refused() -> None:
    code, out, err = run_command(["sed", "s/x/id/e"], stdin=b"x\n")
    assert code == 1 and out == b""
    assert b"`e' flag of `s' executes shell commands" in err
    assert err.startswith(b"sed: -e expression #1, char 8: ")


def test_e_refused_before_anything_runs() -> None:
    fs = _memory_fs()
    code, _, _ = run_command(["sed", "-i", "s/concise/X/;e rm -rf /", "/.memory/core.md"], fs=fs)
    assert code == 1
    assert fs.read_bytes("/.memory/core.md") == b"- concise\n"


def test_debug_is_refused_with_a_message() -> None:
    code, out, err = run_command(["sed", "--debug", "p"], stdin=b"x\n")
    assert code == 1 and out == b""
    assert err == b"sed: --debug is not supported in this sandbox; run the script without it\n"


def test_w_outside_the_jail_is_refused(tmp_path) -> None:
    jail = tmp_path / "jail"
    jail.mkdir()
    fs = VirtualFS({"/.memory": LocalDir(jail)})
    code, out, err = run_command(["sed", "w /../../x", "/.memory/../../etc/hostname"], fs=fs,
                                 cwd="/.memory")
    assert code == 4
    assert b"couldn't open file /../../x:" in err
    assert not (tmp_path / "x").exists() and not os.path.exists("/x")
    assert str(tmp_path).encode() not in err


def test_w_dotdot_stays_inside_the_jail(tmp_path) -> None:
    jail = tmp_path / "jail"
    jail.mkdir()
    fs = VirtualFS({"/": LocalDir(jail)})
    code, out, _ = run_command(["sed", "w ../../escaped.txt"], stdin=b"a\n", fs=fs)
    assert code == 0 and out == b"a\n"
    assert (jail / "escaped.txt").read_bytes() == b"a\n"  # ".." stopped at the jail's root
    assert not (tmp_path / "escaped.txt").exists()


def test_r_etc_passwd_reads_nothing_from_the_host(tmp_path) -> None:
    fs = VirtualFS({"/": LocalDir(tmp_path)})
    code, out, err = run_command(["sed", "r /etc/passwd"], stdin=b"a\nb\n", fs=fs)
    assert (code, out, err) == (0, b"a\nb\n", b"")
    code, out, err = run_command(["sed", "R /../../../etc/passwd"], stdin=b"a\n", fs=fs)
    assert (code, out, err) == (0, b"a\n", b"")


def test_read_only_policy_refuses_in_place_edit() -> None:
    fs = _memory_fs()
    code, out, err = run_command(["sed", "-i", "s/concise/detailed/", "/.memory/core.md"], fs=fs,
                                 policy=Policy(read_only=True))
    assert code == 4
    assert err == b"sed: couldn't edit /.memory/core.md: Read-only file system\n"
    assert fs.read_bytes("/.memory/core.md") == b"- concise\n"


def test_read_only_policy_refuses_w_files() -> None:
    fs = _memory_fs()
    code, out, err = run_command(["sed", "w /.memory/out.txt"], stdin=b"a\n", fs=fs,
                                 policy=Policy(read_only=True))
    assert code == 4 and out == b""
    assert err == b"sed: couldn't open file /.memory/out.txt: Read-only file system\n"
    assert not fs.exists("/.memory/out.txt")


def test_read_only_policy_still_allows_reading() -> None:
    code, out, _ = run_command(["sed", "-n", "/n2/p", "/.memory/notes.md"], fs=_memory_fs(),
                               policy=Policy(read_only=True))
    assert (code, out) == (0, b"n2\n")


def test_protected_file_cannot_be_edited_in_place() -> None:
    fs = _memory_fs()
    code, _, err = run_command(["sed", "-i", "d", "/.memory/notes.md"], fs=fs,
                               policy=Policy(protected=frozenset({"/.memory/notes.md"})))
    assert code == 4 and b"couldn't edit /.memory/notes.md: Permission denied" in err
    assert fs.read_bytes("/.memory/notes.md") == b"n1\nn2\n"


def test_in_place_write_counts_against_the_write_budget() -> None:
    fs = VirtualFS({"/": MemoryFS({"big.txt": b"x" * 1000 + b"\n"})})
    with pytest.raises(LimitExceeded):
        run_command(["sed", "-i", "s/x/yy/g", "big.txt"], fs=fs, limits=Limits(written_bytes=500))
    assert fs.read_bytes("/big.txt") == b"x" * 1000 + b"\n"  # the old file, not half a new one


def test_infinite_branch_loop_ends_at_the_time_limit() -> None:
    with pytest.raises(LimitExceeded) as info:
        run_command(["sed", ":a;ba"], stdin=b"x\n", limits=Limits(seconds=0.3))
    assert info.value.limit == "seconds"


def test_infinite_D_loop_ends_at_the_time_limit() -> None:
    with pytest.raises(LimitExceeded):
        run_command(["sed", "G;D"], stdin=b"x\n", limits=Limits(seconds=0.3))


def test_growing_hold_space_hits_the_string_limit() -> None:
    with pytest.raises(LimitExceeded) as info:
        run_command(["sed", "G;G;h"], stdin=b"abcdefgh\n" * 40, limits=Limits(string_length=1 << 16))
    assert info.value.limit == "string_length"


def test_hostile_scripts_never_raise() -> None:
    """Random bytes as scripts and inputs: an exit status and one-line errors, no traceback."""
    rng = random.Random(1234)
    alphabet = list(b"s/y\\;{}!,$~+0123aNnDdpPgGhHxlqQ=bt:#/&\n IMegwrR[]*.^()") + [0xC3, 0xA9, 0xFF, 0]
    for _ in range(3000):
        script = bytes(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        arg = script.replace(b"\0", b"").decode("utf-8", "surrogateescape")
        code, out, err = run_command(["sed", "-n", arg], stdin=b"a\nb\n\xc3\xa9\n",
                                     limits=Limits(seconds=5))
        assert isinstance(code, int)
        assert err.count(b"\n") <= 1, (arg, err)
        assert b"Traceback" not in err


def test_writes_reports_in_place_targets_backups_and_w_files() -> None:
    assert writes(["-i", "s/a/b/", "core.md", "notes.md"]) == ["core.md", "notes.md"]
    assert writes(["-i.bak", "s/a/b/", "core.md"]) == ["core.md", "core.md.bak"]
    assert writes(["--in-place=old_*", "p", "dir/core.md"]) == ["dir/core.md", "dir/old_core.md"]
    assert writes(["-n", "-e", "w out.txt", "-e", "s/a/b/w log.txt", "in"]) == ["out.txt", "log.txt"]
    assert writes(["w /dev/stdout"]) == []
    assert writes(["-n", "/x/p", "core.md"]) == []
    assert writes(["1{w a\n}"]) == ["a"]
