"""LocalDir: the protocol, the jail against planted links and special files, atomicity, locking."""

from __future__ import annotations

import errno
import multiprocessing
import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from sandbox.fs.base import FSError
from sandbox.fs.local import LocalDir
from sandbox.fs.vfs import VirtualFS

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    jail = tmp_path / "jail"
    jail.mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_bytes(b"TOP SECRET\n")
    return jail


def fs_error(fn, *args) -> FSError:
    with pytest.raises(FSError) as info:
        fn(*args)
    return info.value


def assert_no_host_path(err: FSError, root: Path) -> None:
    text = f"{err} {err.path} {err!r} {err.args}"
    assert str(root.parent) not in text


# -- protocol ---------------------------------------------------------------------------------


def test_write_read_append_stat(root: Path) -> None:
    fs = LocalDir(root)
    fs.write_bytes("a.txt", b"one\n")
    fs.append_bytes("a.txt", b"two\n")
    assert fs.read_bytes("a.txt") == b"one\ntwo\n"
    st = fs.stat("a.txt")
    assert st.is_file and st.size == 8 and st.nlink == 1
    assert (root / "a.txt").read_bytes() == b"one\ntwo\n"
    assert fs.stat("").is_dir


def test_new_files_and_dirs_are_private(root: Path) -> None:
    fs = LocalDir(root)
    fs.write_bytes("w", b"x")
    fs.append_bytes("ap", b"x")
    fs.mkdir("d")
    assert stat.S_IMODE(os.stat(root / "w").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(root / "ap").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(root / "d").st_mode) == 0o700
    assert fs.stat("d").mode == 0o700


def test_existing_permission_bits_are_kept(root: Path) -> None:
    (root / "f").write_bytes(b"old")
    os.chmod(root / "f", 0o644)
    LocalDir(root).write_bytes("f", b"new")
    assert stat.S_IMODE(os.stat(root / "f").st_mode) == 0o644
    assert (root / "f").read_bytes() == b"new"


def test_version_changes_on_every_write(root: Path) -> None:
    fs = LocalDir(root)
    fs.write_bytes("f", b"a")
    seen = {fs.stat("f").version}
    for i in range(5):
        fs.write_bytes("f", b"a")  # same size, same content: the inode changes
        seen.add(fs.stat("f").version)
        fs.append_bytes("f", b"")
        fs.append_bytes("f", b"b")
        seen.add(fs.stat("f").version)
    assert len(seen) == 11


def test_open_read_is_seekable_buffered(root: Path) -> None:
    (root / "f").write_bytes(b"0123456789")
    with LocalDir(root).open_read("f") as f:
        assert f.seekable()
        f.seek(-3, os.SEEK_END)
        assert f.read() == b"789"
        f.seek(0)
        assert f.readline() == b"0123456789"
        assert str(root) not in repr(f)


def test_listdir_mkdir_remove_rmdir_rename(root: Path) -> None:
    fs = LocalDir(root)
    fs.mkdir("d")
    fs.write_bytes("d/f", b"1")
    assert fs.listdir("d") == ["f"]
    assert fs_error(fs.listdir, "d/f").errno == errno.ENOTDIR
    assert fs_error(fs.mkdir, "d").errno == errno.EEXIST
    assert fs_error(fs.mkdir, "x/y").errno == errno.ENOENT
    assert fs_error(fs.rmdir, "d").errno == errno.ENOTEMPTY
    assert fs_error(fs.remove, "d").errno == errno.EISDIR
    assert fs_error(fs.open_read, "d").errno == errno.EISDIR
    assert fs_error(fs.write_bytes, "d", b"").errno == errno.EISDIR
    fs.rename("d/f", "g")
    assert fs.read_bytes("g") == b"1"
    assert fs_error(fs.rename, "d", "d/sub").errno == errno.EINVAL
    fs.rmdir("d")
    fs.remove("g")
    assert fs.listdir("") == []
    assert fs_error(fs.stat, "g").errno == errno.ENOENT
    assert fs_error(fs.remove, "g").errno == errno.ENOENT
    assert fs_error(fs.write_bytes, "nodir/f", b"").errno == errno.ENOENT
    assert fs_error(fs.open_read, "g/x").errno == errno.ENOENT


def test_file_as_directory_component(root: Path) -> None:
    fs = LocalDir(root)
    fs.write_bytes("f", b"x")
    assert fs_error(fs.open_read, "f/x").errno == errno.ENOTDIR
    assert fs_error(fs.stat, "f/x").errno == errno.ENOTDIR


def test_set_mtime(root: Path) -> None:
    fs = LocalDir(root)
    fs.write_bytes("f", b"x")
    fs.set_mtime("f", 1_000_000_000.5)
    assert os.stat(root / "f").st_mtime_ns == 1_000_000_000_500_000_000
    assert fs.stat("f").mtime == pytest.approx(1_000_000_000.5)


def test_read_only(root: Path) -> None:
    (root / "f").write_bytes(b"x")
    fs = LocalDir(root, read_only=True)
    assert fs.read_bytes("f") == b"x"
    for op, args in [
        (fs.write_bytes, ("f", b"y")),
        (fs.append_bytes, ("f", b"y")),
        (fs.mkdir, ("d",)),
        (fs.remove, ("f",)),
        (fs.rmdir, ("f",)),
        (fs.rename, ("f", "g")),
        (fs.set_mtime, ("f", 0.0)),
    ]:
        assert fs_error(op, *args).errno == errno.EROFS
    assert (root / "f").read_bytes() == b"x"
    assert sorted(os.listdir(root)) == ["f"]


def test_fsync_mode(root: Path) -> None:
    fs = LocalDir(root, fsync=True)
    fs.write_bytes("f", b"abc")
    fs.append_bytes("f", b"d")
    assert fs.read_bytes("f") == b"abcd"


def test_root_must_exist(tmp_path: Path) -> None:
    err = fs_error(LocalDir, tmp_path / "missing")
    assert str(tmp_path) not in str(err)


def test_root_through_symlink_is_allowed(tmp_path: Path, root: Path) -> None:
    (tmp_path / "alias").symlink_to(root)
    (root / "f").write_bytes(b"x")
    assert LocalDir(tmp_path / "alias").read_bytes("f") == b"x"


# -- the jail -----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["..", "../outside/secret.txt", "a/../..", ".", "a//b", "/etc/passwd", "a\x00b", "./a"])
def test_refuses_bad_components(root: Path, bad: str) -> None:
    fs = LocalDir(root)
    for op, args in [(fs.stat, (bad,)), (fs.open_read, (bad,)), (fs.write_bytes, (bad, b"x")),
                     (fs.append_bytes, (bad, b"x")), (fs.listdir, (bad,)), (fs.mkdir, (bad,))]:
        err = fs_error(op, *args)
        assert err.errno == errno.EINVAL
        assert_no_host_path(err, root)
    assert not (root.parent / "outside" / "x").exists()


def plant_links(root: Path) -> None:
    outside = root.parent / "outside"
    (root / "to_file").symlink_to(outside / "secret.txt")
    (root / "to_dir").symlink_to(outside)
    (root / "rel").symlink_to("../outside/secret.txt")
    (root / "dangling").symlink_to(outside / "new.txt")
    (root / "sub").mkdir()
    (root / "sub" / "up").symlink_to("..")
    (root / "sub" / "abs").symlink_to("/etc")


LINK_PATHS = ["to_file", "to_dir", "to_dir/secret.txt", "rel", "dangling", "sub/up", "sub/up/to_file",
              "sub/abs", "sub/abs/passwd", "to_dir/x/y"]


@pytest.mark.parametrize("path", LINK_PATHS)
def test_planted_symlinks_are_never_followed(root: Path, path: str) -> None:
    plant_links(root)
    fs = LocalDir(root)
    before = {p: p.read_bytes() for p in (root.parent / "outside").iterdir()}
    ops = [(fs.stat, (path,)), (fs.open_read, (path,)), (fs.listdir, (path,)),
           (fs.write_bytes, (path, b"PWNED")), (fs.append_bytes, (path, b"PWNED")),
           (fs.set_mtime, (path, 0.0)), (fs.mkdir, (path + "/new",))]
    for op, args in ops:
        err = fs_error(op, *args)
        assert err.errno in (errno.ELOOP, errno.ENOENT), (op, err)
        assert_no_host_path(err, root)
    assert fs_error(fs.stat, path).errno == errno.ELOOP
    after = {p: p.read_bytes() for p in (root.parent / "outside").iterdir()}
    assert after == before
    assert not (root.parent / "outside" / "new.txt").exists()


def test_symlink_message_is_clear(root: Path) -> None:
    plant_links(root)
    err = fs_error(LocalDir(root).open_read, "to_file")
    assert "Symbolic link refused" in str(err)
    assert err.path == "to_file"


def test_symlink_itself_can_be_removed_and_renamed(root: Path) -> None:
    plant_links(root)
    fs = LocalDir(root)
    fs.rename("to_file", "moved")
    fs.remove("moved")
    assert (root.parent / "outside" / "secret.txt").read_bytes() == b"TOP SECRET\n"
    assert "moved" not in fs.listdir("")


def test_rename_into_symlinked_dir_is_refused(root: Path) -> None:
    plant_links(root)
    (root / "f").write_bytes(b"x")
    err = fs_error(LocalDir(root).rename, "f", "to_dir/f")
    assert err.errno == errno.ELOOP
    assert not (root.parent / "outside" / "f").exists()


def test_symlink_swapped_in_mid_path_is_refused(root: Path) -> None:
    """A directory replaced by a link between two calls: the next walk refuses it."""
    fs = LocalDir(root)
    fs.mkdir("d")
    fs.write_bytes("d/f", b"x")
    os.rename(root / "d", root / "d.old")
    (root / "d").symlink_to(root.parent / "outside")
    assert fs_error(fs.read_bytes, "d/secret.txt").errno == errno.ELOOP
    assert fs_error(fs.write_bytes, "d/f", b"y").errno == errno.ELOOP


def test_hard_links_are_refused(root: Path) -> None:
    secret = root.parent / "outside" / "secret.txt"
    os.link(secret, root / "hard")
    fs = LocalDir(root)
    for op, args in [(fs.open_read, ("hard",)), (fs.write_bytes, ("hard", b"PWNED")),
                     (fs.append_bytes, ("hard", b"PWNED"))]:
        err = fs_error(op, *args)
        assert err.errno == errno.EPERM and "hard links" in str(err)
    assert secret.read_bytes() == b"TOP SECRET\n"
    assert fs.stat("hard").nlink == 2  # visible (ls -l), not usable


def test_fifo_is_refused_without_blocking(root: Path) -> None:
    os.mkfifo(root / "fifo")
    fs = LocalDir(root)
    for op, args in [(fs.stat, ("fifo",)), (fs.open_read, ("fifo",)), (fs.append_bytes, ("fifo", b"x")),
                     (fs.write_bytes, ("fifo", b"x"))]:
        err = fs_error(op, *args)
        assert err.errno == errno.EACCES and "Special file" in str(err)
    fs.remove("fifo")


def test_socket_is_refused(tmp_path: Path) -> None:
    import socket

    short = Path("/tmp") / f"sockjail{os.getpid()}"
    short.mkdir()
    try:
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(short / "s"))
        fs = LocalDir(short)
        assert fs_error(fs.open_read, "s").errno == errno.EACCES
        assert fs_error(fs.stat, "s").errno == errno.EACCES
        sock.close()
    finally:
        for p in short.iterdir():
            p.unlink()
        short.rmdir()


def test_vfs_mount_normalises_dotdot(root: Path) -> None:
    vfs = VirtualFS({"/.memory": LocalDir(root)})
    from sandbox.fs.paths import normalize

    path = normalize("../../outside/secret.txt", "/.memory")
    assert path == "/outside/secret.txt"
    assert fs_error(vfs.read_bytes, path).errno == errno.ENOENT


# -- atomicity and concurrency ------------------------------------------------------------------

CHILD_WRITER = textwrap.dedent(
    """
    import os, sys
    sys.path.insert(0, {repo!r})
    from sandbox.fs import local
    real_write = os.write
    calls = [0]
    def slow_write(fd, data):
        calls[0] += 1
        n = real_write(fd, data)
        if calls[0] == 2:
            sys.stdout.write("mid\\n"); sys.stdout.flush()
            import time; time.sleep(60)
        return n
    local.os.write = slow_write
    local.LocalDir({root!r}).write_bytes("f", b"N" * (8 << 20))
    """
)


def test_killed_writer_leaves_old_content(root: Path) -> None:
    (root / "f").write_bytes(b"OLD CONTENT\n")
    code = CHILD_WRITER.format(repo=str(REPO), root=str(root))
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    assert child.stdout.readline() == b"mid\n"  # killed in the middle of the data
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert (root / "f").read_bytes() == b"OLD CONTENT\n"
    # A second writer completes: the whole new content, never a mix.
    LocalDir(root).write_bytes("f", b"NEW\n")
    assert (root / "f").read_bytes() == b"NEW\n"


def _append_lines(root: str, worker: int, count: int, size: int) -> None:
    fs = LocalDir(root)
    for i in range(count):
        body = (f"{worker}:{i}:".encode() + bytes([65 + worker]) * size)
        fs.append_bytes("log", body + b"\n")


def test_concurrent_appends_never_interleave(root: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    workers, count, size = 4, 25, 300_000  # lines far beyond PIPE_BUF
    procs = [ctx.Process(target=_append_lines, args=(str(root), w, count, size)) for w in range(workers)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
        assert p.exitcode == 0
    lines = (root / "log").read_bytes().split(b"\n")
    assert lines[-1] == b""
    lines = lines[:-1]
    assert len(lines) == workers * count
    seen = set()
    for line in lines:
        w, i, body = line.split(b":", 2)
        assert body == bytes([65 + int(w)]) * size
        seen.add((int(w), int(i)))
    assert len(seen) == workers * count


def _locked_increment(root: str, times: int) -> None:
    fs = LocalDir(root)
    for _ in range(times):
        with fs.lock("counter"):
            value = int(fs.read_bytes("counter"))
            fs.write_bytes("counter", str(value + 1).encode())  # re-entrant: no deadlock
            fs.append_bytes("trail", b".")


def test_lock_serialises_read_modify_write_across_processes(root: Path) -> None:
    (root / "counter").write_bytes(b"0")
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_locked_increment, args=(str(root), 40)) for _ in range(3)]
    for p in procs:
        p.start()
    threads = [threading.Thread(target=_locked_increment, args=(str(root), 40)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for p in procs:
        p.join()
        assert p.exitcode == 0
    assert (root / "counter").read_bytes() == b"200"
    assert (root / "trail").read_bytes() == b"." * 200


def test_lock_excludes_other_threads(root: Path) -> None:
    fs = LocalDir(root)
    order: list[str] = []
    with fs.lock("f"):
        t = threading.Thread(target=lambda: (fs.append_bytes("f", b"x"), order.append("append")))
        t.start()
        t.join(0.2)
        order.append("release")
    t.join()
    assert order == ["release", "append"]


def test_no_temp_file_left_after_writes(root: Path) -> None:
    fs = LocalDir(root)
    for i in range(20):
        fs.write_bytes("f", str(i).encode())
    assert os.listdir(root) == ["f"]
