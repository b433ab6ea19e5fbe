"""The guard and the interpreter on commands that run commands (find -exec/-execdir/-ok,
xargs, timeout, env): every name they would run must be a literal word on the allowlist, never
a shell, and read-only applies to what they run. A refused script runs nothing (checked on the
files of a real directory); the interpreter re-checks at dispatch (``ctx.run_command``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandbox import Limits, Policy
from sandbox.api import Sandbox
from sandbox.commands.base import CommandContext
from sandbox.fs.local import LocalDir

ALL = frozenset("cat echo printf env printenv timeout grep ls rm xargs find head wc touch "
                "mkdir seq sort sed".split())


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_bytes(b"alpha\n")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "b.txt").write_bytes(b"beta\n")
    return tmp_path


def _files(root: Path) -> dict[str, bytes | None]:
    out: dict[str, bytes | None] = {}
    for dirpath, dirs, files in os.walk(root):
        for d in dirs:
            out[os.path.relpath(os.path.join(dirpath, d), root)] = None
        for f in files:
            p = os.path.join(dirpath, f)
            out[os.path.relpath(p, root)] = Path(p).read_bytes()
    return out


def _run(root: Path, script: str, **policy):  # type: ignore[no-untyped-def]
    sb = Sandbox({"/w": LocalDir(root)}, cwd="/w", policy=Policy(**{"allow": ALL, **policy}),
                 limits=Limits(seconds=10))
    return sb.run(script)


REFUSED = [
    ("find / -exec sh -c 'cat {}' \\;", "never runs"),
    ("find . -exec rm -rf {} +", "read-only"),
    ("xargs python3 < a.txt", "not an allowed command"),
    ("echo a.txt | xargs sh -c 'rm a.txt'", "never runs"),
    ("echo a.txt | xargs bash", "never runs"),
    ("timeout 1 bash -c 'rm a.txt'", "never runs"),
    ("env perl -e 1", "not an allowed command"),
    ("env -i PATH=/bin sh", "never runs"),
    ("x=rm; echo a.txt | xargs $x", "named at run time"),
    ("x=rm; find . -exec $x {} \\;", "named at run time"),
    ("find . -execdir \"$(echo rm)\" {} \\;", "named at run time"),
    ("find . -exec {} \\;", "named at run time"),
    ("echo a.txt | xargs -I{} {}", "named at run time"),
    ("echo rm | xargs -I cat cat -f a.txt", "named at run time"),
    ("echo rm | xargs --replace=ls ls a.txt", "named at run time"),
    ("find . -exec x{}y \\;", "named at run time"),
    ("echo a.txt | xargs r* ", "named at run time"),
    ("timeout 5 xargs -n1 env sh < a.txt", "never runs"),
    ("env timeout 1 python3", "not an allowed command"),
    ("find . -delete", "read-only"),
    ("echo a.txt | xargs rm", "read-only"),
    ("env rm a.txt", "read-only"),
    ("timeout 1 touch new", "read-only"),
    ("find . -exec eval x \\;", "never runs"),
    ("env /bin/sh -c 'rm a.txt'", "never runs"),
    ("echo a.txt | xargs /usr/bin/python3", "not an allowed command"),
    ("echo a.txt | xargs ./evil", "never runs"),
    ("find . -exec /tmp/evil {} \\;", "never runs"),
    ("echo a.txt | xargs /usr/bin/rm", "read-only"),
]


def test_a_standard_path_runs_its_command(tree: Path) -> None:
    """``/usr/bin/X`` and ``/bin/X`` given to a runner are X, as at the top level (bash would run
    the system's X); any other path is never run."""
    r = _run(tree, "env A=foo /usr/bin/printenv A; echo x y | xargs /bin/echo; "
             "timeout 5 /bin/cat a.txt; find . -name a.txt -exec /usr/bin/wc -c {} \\;")
    assert (r.exit_code, r.stdout, r.stderr) == (0, b"foo\nx y\nalpha\n6 ./a.txt\n", b"")


@pytest.mark.parametrize("script,why", REFUSED)
def test_refused_before_anything_runs(tree: Path, script: str, why: str) -> None:
    before = _files(tree)
    r = _run(tree, "touch ran; " + script if "read-only" not in why else script,
             read_only="read-only" in why)
    assert r.exit_code in (126, 1), (script, r.exit_code, r.stderr)
    if why:
        assert why in r.stderr.decode(), (script, r.stderr)
    assert _files(tree) == before, script  # not even the `touch ran` before it


def test_ok_refused_at_run_time_in_one_line(tree: Path) -> None:
    before = _files(tree)
    r = _run(tree, "find . -ok rm {} \\;")
    assert r.exit_code == 1 and r.stderr.count(b"\n") == 1 and b"-ok" in r.stderr, r
    assert _files(tree) == before


def test_find_root_sees_only_the_jail(tree: Path) -> None:
    """From / there is the jail, the run's scratch /tmp and the virtual devices, nothing else;
    cat of every file outside /dev prints the jail's two files."""
    r = _run(tree, "find /")
    listed = set(r.stdout.decode().split())
    devices = {"/dev", "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
               "/dev/stdin", "/dev/stdout", "/dev/stderr"}
    assert listed == {"/", "/tmp", "/w", "/w/a.txt", "/w/d", "/w/d/b.txt"} | devices, r.stdout
    r = _run(tree, "find / -path /dev -prune -o -exec cat {} \\; 2>/dev/null")
    assert r.stdout == b"alpha\nbeta\n" or sorted(r.stdout.splitlines()) == [b"alpha", b"beta"]
    assert _files(tree) == {"a.txt": b"alpha\n", "d": None, "d/b.txt": b"beta\n"}


def test_find_root_exec_cat_of_the_devices_is_bounded(tree: Path) -> None:
    """cat of /dev/zero (as GNU's would, endlessly) stops at a limit in one line."""
    r = _run(tree, "find / -exec cat {} \\; 2>/dev/null")
    assert r.exit_code == 125 and b"limit" in r.stderr, r.stderr
    assert _files(tree) == {"a.txt": b"alpha\n", "d": None, "d/b.txt": b"beta\n"}


def test_allowed_runs_work(tree: Path) -> None:
    r = _run(tree, "echo a.txt | xargs cat; env -i A=1 printenv A; timeout 2 cat d/b.txt")
    assert (r.exit_code, r.stdout) == (0, b"alpha\n1\nbeta\n"), r.stderr


def test_protected_path_through_a_runner(tree: Path) -> None:
    r = _run(tree, "env rm a.txt", protected=frozenset({"/w/a.txt"}))
    assert r.exit_code == 126 and b"protected" in r.stderr
    assert (tree / "a.txt").exists()


def test_dispatch_rechecks_the_allowlist(tree: Path) -> None:
    """Past the guard (a name only known at run time), run_command refuses it again."""
    from sandbox.interpreter.core import Shell  # noqa: F401  (the dispatcher under test)
    sb = Sandbox({"/w": LocalDir(tree)}, cwd="/w", policy=Policy(allow=ALL))
    seen: list[int] = []

    def probe(ctx: CommandContext) -> int:
        import io
        for name in ("tee", "sh", "bash", "rm", "python3"):
            try:
                seen.append(ctx.run_command([name, "a.txt"], io.BytesIO(b""), ctx.stdout,
                                            ctx.stderr))
            except OSError as exc:
                seen.append(-exc.errno)
        return 0

    sb2 = Sandbox({"/w": LocalDir(tree)}, cwd="/w", policy=Policy(allow=ALL | {"probe"}),
                  commands={"probe": probe})
    r = sb2.run("probe")
    assert r.exit_code == 0, r.stderr
    import errno
    # tee: a command, not allowed; sh/bash: never; rm: allowed and ran; python3: not found
    assert seen[:3] == [-errno.EACCES] * 3 and seen[4] == -errno.ENOENT, seen
    assert not (tree / "a.txt").exists()
    del sb


def test_timeout_stops_a_long_command(tree: Path) -> None:
    r = _run(tree, "timeout 0.3 seq inf > /dev/null; echo $?")
    assert r.stdout == b"124\n", r.stderr


def test_timeout_does_not_outlive_the_sandbox_limit(tree: Path) -> None:
    sb = Sandbox({"/w": LocalDir(tree)}, cwd="/w", policy=Policy(allow=ALL), limits=Limits(seconds=0.5))
    r = sb.run("timeout 100 seq inf > /dev/null; echo after")
    assert r.exit_code == 124 and b"after" not in r.stdout
