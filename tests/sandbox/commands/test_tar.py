"""Differential tests of ``tar`` against GNU tar 1.34: archives we create are compared byte for
byte with GNU's made under the same identity (``--owner=user:1000 --group=user:1000``, each
directory in the host's readdir order as both walk by default); GNU's archives are listed and extracted by ours (stdout, stderr, status and
the resulting tree with mtimes); hostile archives; the read-only policy through ``Sandbox``."""

from __future__ import annotations

import io
import os
import random
import shutil
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

import pytest

from sandbox import Policy, Sandbox
from sandbox.commands.testing import run_command
from sandbox.fs.local import LocalDir
from sandbox.fs.vfs import VirtualFS
from tests.sandbox.commands.files_support import ENV, Tree, build, random_content

TAR = shutil.which("tar", path=ENV["PATH"])


def _gnu_tar_reason() -> str | None:
    if TAR is None:
        return "GNU tar is not installed"
    out = subprocess.run([TAR, "--version"], capture_output=True, env=ENV).stdout
    return None if out.startswith(b"tar (GNU tar) 1.34") else "reference tar is not GNU tar 1.34"


pytestmark = pytest.mark.skipif(_gnu_tar_reason() is not None, reason=_gnu_tar_reason() or "")
IDENTITY = ["--owner=user:1000", "--group=user:1000"]


def snapshot(root: Path) -> dict[str, object]:
    """Kind, content and mtime of every entry under ``root``."""
    found: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            st = os.lstat(full)
            body = "<dir>" if os.path.isdir(full) else Path(full).read_bytes()
            recent = st.st_mtime > time.time() - 86400  # made by the run: "now", not compared
            found[rel] = (body, "now" if recent else int(st.st_mtime))
    return found


def check(argv: list[str], tree: Tree, stdin: bytes = b"", create: bool = False,
          archive: str | None = None) -> None:
    """Assert ours equals GNU's; ``create`` adds the virtual identity to GNU's command line;
    ``archive`` names the file written, whose bytes must be equal (compressed ones too)."""
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        ref_root, our_root = Path(a, "w"), Path(b, "w")  # both named w: `../w/d` works in both
        ref_root.mkdir()
        our_root.mkdir()
        build(ref_root, tree)
        build(our_root, tree)
        extra = IDENTITY if create else []
        ref = subprocess.run(["tar", *argv[1:], *extra], executable=TAR, input=stdin, capture_output=True,
                             cwd=ref_root, env=ENV, timeout=60)
        vfs = VirtualFS({"/": LocalDir(b)})
        code, out, err = run_command(argv, stdin=stdin, fs=vfs, cwd="/w", env={"TZ": "UTC"})
        ref_out, our_out = ref.stdout, out
        ref_snap, our_snap = snapshot(ref_root), snapshot(our_root)
        if archive is not None:
            ra, oa = ref_snap.pop(archive, (None,))[0], our_snap.pop(archive, (None,))[0]
            assert oa == ra, f"{argv}: archive bytes differ"  # -z too: gzip's own deflate
        assert (code, our_out, err) == (ref.returncode, ref_out, ref.stderr), argv
        assert our_snap == ref_snap, argv


# -- generated trees -----------------------------------------------------------------------

NAME_PIECES = ["notes", "a b", "ünï", "日本語", "x", "mem.md", "core", "z-9", "tab\tname",
               "d" * 60, "long" * 20, "q'uote", "star*", "with:colon", ".hidden"]


def random_tree(rng: random.Random, root: str = "t") -> Tree:
    """A random tree under ``root``: nested directories, names with spaces and unicode, long
    names past 100 bytes, sizes 0..100 KB, assorted mtimes."""
    tree: Tree = {root: None}
    dirs = [root]
    for _ in range(rng.randint(1, 12)):
        parent = rng.choice(dirs)
        name = rng.choice(NAME_PIECES) + (str(rng.randint(0, 99)) if rng.random() < 0.7 else "")
        path = f"{parent}/{name}"
        if path in tree:
            continue
        mtime = rng.choice([1614834367, 1700000000, 946684800, 1234567890]) + rng.randint(0, 10**6)
        if rng.random() < 0.3 and path.count("/") < 4:
            tree[path] = (None, mtime)
            dirs.append(path)
        else:
            size_kind = rng.random()
            if size_kind < 0.15:
                body = bytes(rng.randrange(256) for _ in range(rng.randint(0, 100_000)))
            elif size_kind < 0.3:
                body = b""
            else:
                body = random_content(rng)
            tree[path] = (body, mtime)
    return tree


def _gnu_archive(tree: Tree, args: list[str]) -> bytes:
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), tree)
        return subprocess.run([TAR, *args, "-f", "-", "t"], cwd=a, env=ENV, capture_output=True,
                              check=True).stdout


@pytest.mark.parametrize("seed", range(70))
def test_create_matches_gnu_bytes(seed: int) -> None:
    rng = random.Random(seed)
    tree = random_tree(rng)
    argv = rng.choice([["tar", "-cf", "out.tar", "t"], ["tar", "cf", "out.tar", "t"],
                       ["tar", "-cvf", "out.tar", "t"], ["tar", "-cvvf", "out.tar", "t"],
                       ["tar", "-czf", "out.tar", "t"], ["tar", "-cf", "-", "t"],
                       ["tar", "-cvf", "-", "t"], ["tar", "--numeric-owner", "-cf", "out.tar", "t"]])
    check(argv, tree, create=True, archive="out.tar")


@pytest.mark.parametrize("seed", range(50))
def test_list_gnu_archives(seed: int) -> None:
    rng = random.Random(1000 + seed)
    tree = random_tree(rng)
    gz = rng.random() < 0.3
    data = _gnu_archive(tree, ["-c"] + (["-z"] if gz else []))
    argv = rng.choice([["tar", "-tf", "a.tar"], ["tar", "-tvf", "a.tar"], ["tar", "tvvf", "a.tar"],
                       ["tar", "-tf", "-"], ["tar", "--numeric-owner", "-tvf", "a.tar"]])
    if gz and argv[-1] == "-":
        argv = ["tar", "-tzf", "-"]
    stdin = data if argv[-1] == "-" else b""
    check(argv, {"a.tar": data}, stdin=stdin)


@pytest.mark.parametrize("seed", range(50))
def test_extract_gnu_archives(seed: int) -> None:
    rng = random.Random(2000 + seed)
    tree = random_tree(rng)
    gz = rng.random() < 0.3
    data = _gnu_archive(tree, ["-c"] + (["-z"] if gz else []))
    argv = rng.choice([["tar", "-xf", "a.tar"], ["tar", "-xvf", "a.tar"], ["tar", "xf", "a.tar", "-C", "o"],
                       ["tar", "-xvvf", "a.tar"], ["tar", "--strip-components=1", "-xf", "a.tar"],
                       ["tar", "-xOf", "a.tar"], ["tar", "-xf", "a.tar", "--exclude=*.md*"]])
    files: Tree = {"a.tar": data, "o": None}
    check(argv, files)


@pytest.mark.parametrize("seed", range(40))
def test_round_trip_ours_then_gnu(seed: int) -> None:
    """Our archive, listed and extracted by GNU and by ours: equal results."""
    rng = random.Random(3000 + seed)
    tree = random_tree(rng)
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), tree)
        code, out, err = run_command(["tar", "-cf", "-", "t"], fs=VirtualFS({"/w": LocalDir(a)}), cwd="/w")
    assert code == 0 and err == b""
    check(["tar", "-tvf", "-"], {}, stdin=out)
    check(["tar", "-xf", "-", "-C", "o"], {"o": None}, stdin=out)


# -- hand-written cases --------------------------------------------------------------------

BASE: Tree = {"d": None, "d/a.txt": b"hello\n", "d/sub": None, "d/sub/e": b"", "d/b.md": b"x" * 700,
              "f": b"top\n", "/".join(["n" * 60, "m" * 60]): b"long\n"}

CREATE_CASES = [
    ["tar", "-cf", "o.tar", "d"], ["tar", "-cf", "o.tar", "d/"], ["tar", "-cf", "o.tar", "./d//sub"],
    ["tar", "-cf", "o.tar", "d", "f"], ["tar", "-cf", "o.tar", "nope"], ["tar", "-cf", "o.tar", "d", "nope", "f"],
    ["tar", "-cf", "o.tar", "--exclude=sub", "d"], ["tar", "-cf", "o.tar", "--exclude=*.txt", "d"],
    ["tar", "-cf", "o.tar", "--exclude=d", "d/sub/e"], ["tar", "-cf", "o.tar", "--exclude=ub/e", "d"],
    ["tar", "-cf", "o.tar", "d", "--exclude=sub"], ["tar", "-cf", "o.tar", "-C", "d", "a.txt", "-C", "sub", "e"],
    ["tar", "-cvf", "o.tar", "-C", "d", "."], ["tar", "-cf", "o.tar", "n" * 60],
    ["tar", "-c", "-f", "o.tar"], ["tar", "-czf", "o.tgz", "d"], ["tar", "-caf", "o.tgz", "d"],
    ["tar", "-caf", "o.tar.gz", "d"], ["tar", "czvf", "o.tgz", "d"], ["tar", "-cf", "o.tar", "../w/d"],
    ["tar", "--mtime=@0", "-cf", "o.tar", "d"], ["tar", "--mtime=2020-01-02 03:04:05", "-cf", "o.tar", "d"],
    ["tar", "--numeric-owner", "-cvvf", "o.tar", "d"], ["tar", "--create", "--file=o.tar", "--verbose", "d"],
    ["tar", "-cf", "o.tar", "-C", "nodir", "x"], ["tar", "--mtime=./d/a.txt", "-cf", "o.tar", "d"],
    ["tar", "--mtime=./nope", "-cf", "o.tar", "d"], ["tar", "--mtime=./nope", "-tf", "o.tar"],
    ["tar", "--mtime=garbage", "-cvvf", "o.tar", "f"], ["tar", "--owner=user:1000", "-cf", "o.tar", "f"],
    ["tar", "-cf", "o.tar", "d", "--exclude=sub", "--exclude=*.md"], ["tar", "-cvf", "o.tar", "--exclude=d", "d", "f"],
    ["tar", "-cvvf", "o.tar", "d/a.txt", "d/a.txt", "d"], ["tar", "-cvf", "o.tar", "f", "./f", "f"],
    ["tar", "-cvvf", "o.tar", "n" * 60 + "/" + "m" * 60, "n" * 60], ["tar", "-vcf", "o.tar", "--mtime=@1.5", "f"],
    ["tar", "-vcf", "o.tar", "--mtime=2020-01-02 03:04:05.250", "f"],
    ["tar", "-cjf", "o.tbz", "d"], ["tar", "-cJf", "o.txz", "d"], ["tar", "-caf", "o.tar.bz2", "d"],
    ["tar", "-caf", "o.tar.xz", "d", "f"], ["tar", "--xz", "-cvf", "o.tar", "d"], ["tar", "-cjf", "-", "f"],
]


@pytest.mark.parametrize("argv", CREATE_CASES, ids=lambda a: " ".join(a[1:]))
def test_create_options(argv: list[str]) -> None:
    archive = next((a for a in argv if a.startswith("o.")), None)
    check(argv, BASE, create=True, archive=archive)


def _base_archive(extra: list[str] | None = None) -> bytes:
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), BASE)
        return subprocess.run([TAR, "-c", *(extra or []), "-f", "-", "d", "f", "n" * 60], cwd=a,
                              env=ENV, capture_output=True, check=True).stdout


READ_CASES = [
    ["tar", "-tf", "a.tar"], ["tar", "-tvf", "a.tar"], ["tar", "-tf", "a.tar", "d/sub"],
    ["tar", "-tf", "a.tar", "d/sub/"], ["tar", "-tf", "a.tar", "nope"], ["tar", "-tf", "a.tar", "nope", "d/a.txt"],
    ["tar", "-tf", "a.tar", "d/*.txt"], ["tar", "-tf", "a.tar", "--wildcards", "*.txt", "x*"],
    ["tar", "-tf", "a.tar", "--exclude=sub"], ["tar", "-tf", "a.tar", "--exclude=d/s*"],
    ["tar", "-xf", "a.tar"], ["tar", "-xvf", "a.tar", "d/a.txt"], ["tar", "-xkf", "a.tar"],
    ["tar", "-xOf", "a.tar", "d/a.txt"], ["tar", "-xvOf", "a.tar"], ["tar", "-xmf", "a.tar"],
    ["tar", "--strip-components=1", "-xvf", "a.tar"], ["tar", "--strip-components=2", "-xf", "a.tar"],
    ["tar", "--strip-components=x", "-xf", "a.tar"], ["tar", "-xf", "a.tar", "-C", "nodir"],
    ["tar", "-tf", "nope.tar"], ["tar", "-tf", "d"], ["tar", "-xf", "a.tar", "--exclude=*.md"],
    ["tar", "xvf", "a.tar"], ["tar", "-x", "-f", "a.tar", "-C", "out"], ["tar", "-tzf", "a.tar"],
    ["tar", "--full-time", "-tvf", "a.tar"], ["tar", "--full-time", "-xvvf", "a.tar"],
]


@pytest.mark.parametrize("argv", READ_CASES, ids=lambda a: " ".join(a[1:]))
def test_read_options(argv: list[str]) -> None:
    files = dict(BASE)
    files["a.tar"] = _base_archive()
    files["out"] = None
    if "-xkf" in argv:
        files["d/a.txt"] = b"old\n"
    check(argv, files)


@pytest.mark.parametrize("flag", ["-z", "-j", "-J"])
def test_read_compressed_named_and_stdin(flag: str) -> None:
    data = _base_archive([flag])
    check(["tar", "-tvf", "a.tgz"], {"a.tgz": data})  # detected by its magic, any name
    check(["tar", "-tf", "-"], {}, stdin=data)  # compressed on stdin: GNU asks for the option
    check(["tar", f"-x{flag[1]}f", "-"], {}, stdin=data)
    check(["tar", f"-xv{flag[1]}f", "a.tgz", "d/a.txt"], {"a.tgz": data})


USAGE_CASES = [
    ["tar"], ["tar", "cf"], ["tar", "-cx"], ["tar", "-Q"], ["tar", "--foo"], ["tar", "-c"],
    ["tar", "-cf"], ["tar", "--file"], ["tar", "-zjcf", "y", "d"], ["tar", "-x", "-t"],
    ["tar", "--sort=foo", "-cf", "y", "d"], ["tar", "--strip-components=-1", "-tf", "x"],
]


@pytest.mark.parametrize("argv", USAGE_CASES, ids=lambda a: " ".join(a[1:]) or "none")
def test_usage_errors(argv: list[str]) -> None:
    check(argv, BASE)


# -- hostile archives ----------------------------------------------------------------------

def _tarfile(members: list[tuple]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        for name, data, *kind in members:
            ti = tarfile.TarInfo(name)
            ti.mtime = 1614834367
            if kind:
                ti.type = kind[0]
                ti.linkname = kind[1] if len(kind) > 1 else ""
                ti.devmajor, ti.devminor = 1, 3
                t.addfile(ti)
            else:
                ti.size = len(data)
                t.addfile(ti, io.BytesIO(data))
    return buf.getvalue()


def _huge(data: bytes) -> bytes:
    h = bytearray(data[:512])
    h[124:136] = b"77777777777\0"
    h[148:156] = b" " * 8
    h[148:156] = b"%06o\0 " % sum(h)
    return bytes(h) + data[512:1024]


DOTS = _tarfile([("../x", b"1"), ("/abs", b"2"), ("a/../../b", b"3"), ("a/..", b""), ("./c", b"4"),
                 ("e/./f", b"5"), ("..", b"")])
LINKS = _tarfile([("ok", b"1"), ("lnk", b"", tarfile.SYMTYPE, "ok"), ("hl", b"", tarfile.LNKTYPE, "ok"),
                  ("dev", b"", tarfile.CHRTYPE), ("ok2", b"2")])
BIG = _tarfile([("f", b"x" * 2000)])
def _with_field(data: bytes, offset: int, value: bytes, at: int = 0) -> bytes:
    """``data`` with the header at block ``at`` changed and its checksum made right again."""
    h = bytearray(data[at * 512 : at * 512 + 512])
    h[offset : offset + len(value)] = value
    h[148:156] = b" " * 8
    h[148:156] = b"%06o\0 " % sum(h)
    return data[: at * 512] + bytes(h) + data[at * 512 + 512 :]


TWO = _tarfile([("one", b"1" * 600), ("two", b"2"), ("three", b"3")])
HOSTILE = {"lone-zero-end": BIG[:2560] + bytes(512), "lone-zero-then-data": BIG[:2560] + bytes(512) + TWO,
           "bad-second-header": TWO[:1536] + b"garbage!" + TWO[1544:],
           "bad-size-field": _with_field(TWO, 124, b"abcdefghijk\0"),
           "base256-size": _with_field(TWO, 124, b"\x80" + bytes(9) + b"\x02\x58"),
           "negative-mtime": _with_field(TWO, 136, b"\xff" * 8 + b"\xff\xff\xff\x00"),
           "huge-longname": _with_field(_tarfile([("L" * 150, b"x")]), 124, b"77777777777\0"),
           "dots": DOTS, "huge": _huge(BIG), "trunc": BIG[:1100], "junk": b"hello world\n" * 100,
           "empty": b"", "lone-zero": BIG[:1536 + 512], "zeros": bytes(10240)}


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("mode", ["-tvf", "-xf", "-xvf", "-tf"])
def test_hostile_archives(name: str, mode: str) -> None:
    check(["tar", mode, "h.tar"], {"h.tar": HOSTILE[name]})


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_archives_on_stdin(name: str) -> None:
    check(["tar", "-xvf", "-"], {}, stdin=HOSTILE[name])


def test_links_and_devices_are_refused() -> None:
    with tempfile.TemporaryDirectory() as a:
        Path(a, "h.tar").write_bytes(LINKS)
        code, out, err = run_command(["tar", "-xvf", "h.tar"], fs=VirtualFS({"/w": LocalDir(a)}), cwd="/w")
        assert code == 2
        lines = err.decode().splitlines()
        assert lines[0].startswith("tar: lnk: Cannot create symlink to ‘ok’: Operation not permitted")
        assert lines[1].startswith("tar: hl: Cannot hard link to ‘ok’: Operation not permitted")
        assert lines[2].startswith("tar: dev: Cannot mknod: Operation not permitted")
        assert lines[3] == "tar: Exiting with failure status due to previous errors"
        assert sorted(os.listdir(a)) == ["h.tar", "ok", "ok2"]
        assert out == b"ok\nlnk\nhl\ndev\nok2\n"
    check(["tar", "-tvf", "h.tar"], {"h.tar": LINKS})


def _truncated(flag: str, size: int) -> bytes:
    return _base_archive([flag])[:size]


BAD_COMPRESSED = {"junk.tgz": b"hello world\n" * 100, "junk.tar.bz2": b"hello world\n" * 50,
                  "junk.txz": b"not xz at all" * 50, "cut.txz": _truncated("-J", 100),
                  "cut.tgz": _truncated("-z", 60), "cut.tbz": _truncated("-j", 100),
                  "flipped.tgz": _truncated("-z", 10) + b"\xff" * 40 + _truncated("-z", 400)[50:]}


@pytest.mark.parametrize("name", sorted(BAD_COMPRESSED))
def test_bad_compressed_archives(name: str) -> None:
    check(["tar", "-tvf", name], {name: BAD_COMPRESSED[name]})


def test_gzip_corrupt_is_one_error_not_a_traceback() -> None:
    data = _base_archive(["-z"])
    for bad in (data[:100], data[:10] + b"\0" * 50 + data[60:], b"\x1f\x8b" + b"garbage" * 10):
        code, out, err = run_command(["tar", "-tf", "a.tgz"], files={"a.tgz": bad})
        assert code == 2 and b"Traceback" not in err
        assert err.endswith(b"tar: Error is not recoverable: exiting now\n")


def test_decompression_bomb_is_bounded_by_the_write_limit() -> None:
    from sandbox.errors import LimitExceeded
    from sandbox.limits import Limits
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.GNU_FORMAT) as t:
        ti = tarfile.TarInfo("bomb")
        ti.size = 50 << 20
        t.addfile(ti, io.BytesIO(bytes(ti.size)))
    with pytest.raises(LimitExceeded):
        run_command(["tar", "-xf", "b.tgz"], files={"b.tgz": buf.getvalue()},
                    limits=Limits(written_bytes=1 << 20))


def test_read_only_policy_refuses_create_and_extract() -> None:
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), BASE)
        Path(a, "a.tar").write_bytes(_base_archive())
        before = snapshot(Path(a))
        sb = Sandbox(mounts={"/m": a}, cwd="/m", policy=Policy(allow={"tar"}, read_only=True))
        for script in ("tar -cf x.tar d", "tar xf a.tar", "tar -x -f a.tar -C d", "tar czf y.tgz d"):
            r = sb.run(script)
            assert r.exit_code == 126, script
        r = sb.run("tar -tf a.tar")
        assert r.exit_code == 0 and r.stdout.startswith(b"d/\n")
        assert snapshot(Path(a)) == before


def test_archive_inside_the_tree_is_not_dumped() -> None:
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), BASE)
        code, out, err = run_command(["tar", "-cf", "d/x.tar", "d"], fs=VirtualFS({"/w": LocalDir(a)}), cwd="/w")
        ref = subprocess.run([TAR, "-cf", "-", "d"], cwd=a, env=ENV, capture_output=True)
    assert code == 0 and err == b"tar: d/x.tar: file is the archive; not dumped\n"


# -- conflicts on extraction, -r ------------------------------------------------------------

def _archive_of(tree: Tree, names: list[str]) -> bytes:
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), tree)
        return subprocess.run([TAR, "-cf", "-", *names], cwd=a, env=ENV, capture_output=True,
                              check=True).stdout


CONFLICTS = [
    # (archive tree, names archived, tree present before extraction)
    ({"x": b"file\n"}, ["x"], {"x": None}),
    ({"x": b"file\n"}, ["x"], {"x": None, "x/in": b"1"}),
    ({"x": None, "x/y": b"2"}, ["x"], {"x": b"was a file\n"}),
    ({"p": None, "p/q": b"3"}, ["p/q"], {"p": b"parent is a file\n"}),
    ({"x": b"new\n"}, ["x"], {"x": b"old\n"}),
]


@pytest.mark.parametrize("case", range(len(CONFLICTS)))
@pytest.mark.parametrize("flags", ["-xf", "-xkf", "-xvf"])
def test_extract_conflicts(case: int, flags: str) -> None:
    src, names, before = CONFLICTS[case]
    files = dict(before)
    files["a.tar"] = _archive_of(src, names)
    check(["tar", flags, "a.tar"], files)


APPEND_CASES = [
    ["tar", "-rf", "a.tar", "d"], ["tar", "-rvf", "a.tar", "f", "d/sub"], ["tar", "-rf", "new.tar", "d"],
    ["tar", "-rf", "a.tar"], ["tar", "-rf", "-", "d"], ["tar", "rf", "a.tar", "nope"],
    ["tar", "--append", "--file=a.tar", "n" * 60],
]


@pytest.mark.parametrize("argv", APPEND_CASES, ids=lambda a: " ".join(a[1:])[:40])
def test_append(argv: list[str]) -> None:
    files = dict(BASE)
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), BASE)
        files["a.tar"] = subprocess.run([TAR, "-cf", "-", *IDENTITY, "f"], cwd=a, env=ENV,
                                        capture_output=True, check=True).stdout
    archive = next((x.split("=")[-1] for x in argv if x.endswith(".tar")), None)
    check(argv, files, create=True, archive=archive)


def test_append_to_compressed_archive_is_refused() -> None:
    check(["tar", "-rf", "a.tgz", "d"], {"a.tgz": _base_archive(["-z"]), "d": None})


OWNER_CASES = [["--owner=bob"], ["--group=nobody-here"], ["--owner=bob:5", "--group=grp:7"],
               ["--owner=user:1000"], ["--numeric-owner"], ["--owner=x:0", "--numeric-owner"]]


@pytest.mark.parametrize("extra", OWNER_CASES, ids=" ".join)
def test_owner_options_under_the_virtual_identity(extra: list[str]) -> None:
    """GNU's lookups of unknown names keep the file's owner: the virtual user on our side, so
    GNU runs with ``--owner=user:1000`` first and the option under test after it."""
    if os.geteuid() != 0:
        pytest.skip("GNU must see files owned by uid 1000 (chown needs root)")
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), BASE)
        for dirpath, dirnames, filenames in os.walk(a):
            for name in dirnames + filenames:
                os.chown(os.path.join(dirpath, name), 1000, 1000)
        ref = subprocess.run(["tar", "-cf", "-", *IDENTITY, *extra, "d"], executable=TAR, cwd=a,
                             env=ENV, capture_output=True)
        code, out, err = run_command(["tar", *extra, "-cf", "-", "d"], fs=VirtualFS({"/w": LocalDir(a)}), cwd="/w")
    assert (code, out, err) == (ref.returncode, ref.stdout, ref.stderr)


@pytest.mark.parametrize("length", [98, 99, 100, 101, 102, 150, 200, 255])
@pytest.mark.parametrize("kind", ["file", "dir"])
def test_names_near_the_100_byte_field(length: int, kind: str) -> None:
    name = ("é" * 200).encode()[:length - (length % 2)].decode() + "x" * (length % 2)
    tree: Tree = {name: None, name + "/in": b"1"} if kind == "dir" else {name: b"body\n"}
    check(["tar", "-cvvf", "o.tar", name], tree, create=True, archive="o.tar")
    data = _archive_of(tree, [name])
    check(["tar", "-tvf", "a.tar"], {"a.tar": data})
    check(["tar", "-xvf", "a.tar", "-C", "o"], {"a.tar": data, "o": None})


UPDATE_CASES = [
    ["tar", "-uvf", "a.tar", "d/sub/e", "d/a.txt"], ["tar", "-uvf", "a.tar", "d/sub"],
    ["tar", "-uvf", "a.tar", "d"], ["tar", "-uf", "a.tar", "nope"], ["tar", "-uf", "a.tar", "f", "d/b.md"],
    ["tar", "--update", "-vf", "a.tar", "d/b.md", "d/sub/e"], ["tar", "-uf", "-", "d"], ["tar", "-uvf", "new.tar", "d"],
]


@pytest.mark.parametrize("argv", UPDATE_CASES, ids=lambda a: " ".join(a[1:])[:40])
def test_update(argv: list[str]) -> None:
    files = dict(BASE)
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), BASE)
        files["a.tar"] = subprocess.run([TAR, "-cf", "-", *IDENTITY, "d"], cwd=a, env=ENV,
                                        capture_output=True, check=True).stdout
    files["d/sub/e"] = (b"newer\n", 1614834999)
    files["d/b.md"] = (b"older\n", 1614830000)
    archive = next((x for x in argv if x.endswith(".tar")), None)
    check(argv, files, create=True, archive=archive)


def _pax_archive() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        for name, data in (("ünïcødé/" + "p" * 120, b"pax long\n"), ("plain", b"x"), ("日本/語.md", b"")):
            ti = tarfile.TarInfo(name)
            ti.mtime = 1614834367
            ti.uname, ti.gname, ti.uid, ti.gid = "someone", "grp", 1234, 99
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
    return buf.getvalue()


@pytest.mark.parametrize("argv", [["tar", "-tvf", "p.tar"], ["tar", "-tf", "p.tar"], ["tar", "-xvf", "p.tar"],
                                  ["tar", "--numeric-owner", "-tvf", "p.tar"]])
def test_pax_archives(argv: list[str]) -> None:
    check(argv, {"p.tar": _pax_archive()})


def test_device_files_are_not_archived() -> None:
    """The jail's /dev entries are never read into an archive (GNU would store devices)."""
    with tempfile.TemporaryDirectory() as a:
        sb = Sandbox(mounts={"/m": a}, cwd="/m", policy=Policy(allow={"tar"}))
        r = sb.run("tar -cf x.tar /dev/zero /dev/null")
        assert r.exit_code == 2
        assert r.stderr.decode().splitlines() == [
            "tar: Removing leading `/' from member names",
            "tar: /dev/zero: Cannot open: Operation not permitted (the sandbox archives no device files)",
            "tar: /dev/null: Cannot open: Operation not permitted (the sandbox archives no device files)",
            "tar: Exiting with failure status due to previous errors"]
        assert Path(a, "x.tar").read_bytes() == bytes(10240)
        r = sb.run("tar -tf /dev/urandom")  # junk forever: ends at the endless-read allowance
        assert r.exit_code != 0 and b"Traceback" not in r.stderr


def test_read_only_policy_allows_streams_to_stdout() -> None:
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), BASE)
        Path(a, "a.tar").write_bytes(_base_archive())
        before = snapshot(Path(a))
        sb = Sandbox(mounts={"/m": a}, cwd="/m", policy=Policy(allow={"tar", "wc"}, read_only=True))
        r = sb.run("tar -cf - d | wc -c; tar -xOf a.tar d/a.txt")
        assert (r.exit_code, r.stdout) == (0, b"10240\nhello\n")
        assert snapshot(Path(a)) == before


def test_protected_paths_are_not_overwritten_by_extraction() -> None:
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), BASE)
        Path(a, "a.tar").write_bytes(_base_archive())
        Path(a, "d", "a.txt").write_bytes(b"keep\n")
        sb = Sandbox(mounts={"/m": a}, cwd="/m", policy=Policy(allow={"tar"}, protected=frozenset({"/m/d/a.txt"})))
        r = sb.run("tar -xf a.tar")
        assert r.exit_code == 2
        assert Path(a, "d", "a.txt").read_bytes() == b"keep\n"
        assert r.stderr.decode().splitlines()[0].startswith("tar: d/a.txt: Cannot open: Permission denied")


@pytest.mark.parametrize("seed", range(40))
def test_random_selections(seed: int) -> None:
    """Member operands (present, absent, with wildcards), --exclude patterns and
    --strip-components on random GNU archives, listed and extracted."""
    rng = random.Random(4000 + seed)
    tree = random_tree(rng)
    data = _gnu_archive(tree, ["-c"])
    names = sorted(tree)
    args: list[str] = []
    if rng.random() < 0.5:
        args.append(f"--exclude={rng.choice(['*.md*', 'x*', 'a b*', '*/' + rng.choice(NAME_PIECES) + '*', rng.choice(names)])}")
    if rng.random() < 0.4:
        args.append(f"--strip-components={rng.randint(0, 3)}")
    if rng.random() < 0.3:
        args.append("--wildcards")
    operands = [rng.choice(names) for _ in range(rng.randint(0, 2))]
    if rng.random() < 0.3:
        operands.append(rng.choice(["nope", "t/*", "t/n?tes*"]))
    mode = rng.choice(["-tf", "-tvf", "-xf", "-xvf", "-xOf"])
    check(["tar", *args, mode, "a.tar", *operands], {"a.tar": data})


@pytest.mark.parametrize("seed", range(30))
def test_random_create_options(seed: int) -> None:
    """-C, --exclude, several operands and --mtime on random trees, compared as bytes."""
    rng = random.Random(5000 + seed)
    tree = random_tree(rng)
    tree.update({"u": None, "u/extra.md": b"extra\n"})
    names = sorted(k for k in tree if k.startswith("t/"))
    args: list[str] = []
    if rng.random() < 0.5:
        args.append(f"--exclude={rng.choice(['*.md*', 'x*', '*' + rng.choice(NAME_PIECES)[:3] + '*'])}")
    if rng.random() < 0.3:
        args.append(rng.choice(["--mtime=@1600000000", "--mtime=2001-02-03 04:05"]))
    operands = rng.sample(names, min(len(names), rng.randint(1, 3)))
    if rng.random() < 0.4:
        operands += ["-C", "u", "extra.md"]
    check(["tar", *args, rng.choice(["-cf", "-cvf", "-czf"]), "o.tar", *operands], tree, create=True,
          archive="o.tar")


NON_UTF8: Tree = {"t": None, "t/bad\udcffname": b"latin-1 \xe9\n", "t/ok\udcc3": b"", "t/ctl\x01\x7f": b"c"}


@pytest.mark.parametrize("argv", [["tar", "-cvvf", "o.tar", "t"], ["tar", "-cf", "o.tar", "--exclude=*ok*", "t"]])
def test_non_utf8_names_create(argv: list[str]) -> None:
    check(argv, NON_UTF8, create=True, archive="o.tar")


@pytest.mark.parametrize("argv", [["tar", "-tvf", "a.tar"], ["tar", "-xvf", "a.tar", "-C", "o"],
                                  ["tar", "-tf", "a.tar", "t/nope\udcff"]])
def test_non_utf8_names_read(argv: list[str]) -> None:
    files: Tree = {"a.tar": _archive_of(NON_UTF8, ["t"]), "o": None}
    check(argv, files)


MEMORY_TREE: Tree = {"m/notes.md": b"# Notes\n", "m/conversations.jsonl": b"{}\n", "m/core.md": b"# Core\n",
                     "m/archive/2026.md": b"old\n", "m/archive/a.md": b"a\n", "m/zz": b"", "m/B": b"b\n"}


@pytest.mark.parametrize("extra", [[], ["--sort=name"], ["--sort=none"]], ids=lambda e: " ".join(e) or "default")
def test_directories_walked_in_readdir_order_by_default(extra: list[str]) -> None:
    """GNU's default ``--sort=none`` walks each directory in readdir order (ext4: hash order, not
    sorted); the corpus's ``tar -czf x.tgz .`` then listed ``notes.md conversations.jsonl core.md``."""
    check(["tar", "-cf", "-", *extra, "m"], MEMORY_TREE, create=True)
    check(["tar", "-cvf", "x.tar", *extra, "m"], MEMORY_TREE, create=True, archive="x.tar")
