"""Unit tests of the public API and the interpreter's run-time behaviour (MemoryFS/LocalDir)."""

from __future__ import annotations

import io
import threading
from typing import BinaryIO

from sandbox import Limits, Policy, Result, Sandbox
from sandbox.fs.base import FileStat, FileSystem
from sandbox.fs.memory import MemoryFS


def sb_over(files: dict[str, bytes | str] | None = None, **kw) -> Sandbox:
    return Sandbox({"/": MemoryFS(files or {})}, **kw)


def test_result_text() -> None:
    assert Result(0, b"out\n", b"").text() == "out\n"
    assert Result(1, b"out", b"err\n").text() == "out\nerr\n[exit code 1]"
    assert Result(2, b"", b"").text() == "[exit code 2]"


def test_run_basic_and_stdin() -> None:
    sb = sb_over({"a.txt": "hello\n"})
    r = sb.run("cat a.txt; cat", stdin=b"in\n")
    assert (r.exit_code, r.stdout, r.stderr) == (0, b"hello\nin\n", b"")


def test_state_does_not_persist_between_runs() -> None:
    sb = sb_over({"d/x": "1"})
    assert sb.run("x=1; cd d; f() { :; }").exit_code == 0
    r = sb.run('echo "[$x]"; cat x')
    assert r.stdout == b"[]\n" and r.exit_code == 1
    r = sb.run("f")  # the function is gone: as in a new bash, no command has that name
    assert (r.exit_code, r.stderr) == (127, b"bash: line 1: f: command not found\n")


def test_syntax_error_exit_2_and_guard_126() -> None:
    sb = sb_over()
    r = sb.run("coproc cat")  # a construct the sandbox does not support
    assert r.exit_code == 2 and r.stderr.startswith(b"sandbox: `coproc` is not supported")
    r = sb.run("eval x")
    assert r.exit_code == 126 and b"refused" in r.stderr


def test_str_mount_is_local_dir(tmp_path) -> None:
    (tmp_path / "core.md").write_text("core\n")
    sb = Sandbox({"/.memory": str(tmp_path)}, cwd="/.memory")
    r = sb.run('cat core.md; echo "- likes tea" >> core.md; cat /.memory/core.md')
    assert r.stdout == b"core\ncore\n- likes tea\n"
    assert (tmp_path / "core.md").read_text() == "core\n- likes tea\n"


def test_script_length_limit() -> None:
    r = sb_over(limits=Limits(script_bytes=10)).run("echo 12345678901")
    assert r.exit_code == 125 and b"script length limit" in r.stderr


def test_subshell_isolation() -> None:
    r = sb_over({"d/f": "in d\n"}).run("x=1; (x=2; cd d; cat f); echo $x; cat d/f; cat f")
    assert r.stdout == b"in d\n1\nin d\n" and r.exit_code == 1


class _CountingFS(FileSystem):
    """A single huge file generated on the fly; counts the bytes handed out."""

    def __init__(self, size: int):
        self.size = size
        self.served = 0

    def stat(self, path: str) -> FileStat:
        if path == "":
            return FileStat("dir", 0, 0.0, 0o700)
        if path == "big":
            return FileStat("file", self.size, 0.0)
        from sandbox.fs.base import enoent
        raise enoent(path)

    def open_read(self, path: str) -> BinaryIO:
        fs = self

        class Stream(io.RawIOBase):
            pos = 0

            def readable(self) -> bool:
                return True

            def readinto(self, b) -> int:  # type: ignore[override]
                n = min(len(b), fs.size - self.pos)
                b[:n] = b"x" * (n - 1) + b"\n" if n else b""
                self.pos += n
                fs.served += n
                return n

        self.stat(path)
        return io.BufferedReader(Stream())

    def write_bytes(self, path: str, data: bytes) -> None: raise NotImplementedError
    def append_bytes(self, path: str, data: bytes) -> None: raise NotImplementedError
    def listdir(self, path: str) -> list[str]: return ["big"]
    def mkdir(self, path: str) -> None: raise NotImplementedError
    def remove(self, path: str) -> None: raise NotImplementedError
    def rmdir(self, path: str) -> None: raise NotImplementedError
    def rename(self, src: str, dst: str) -> None: raise NotImplementedError


def test_pipeline_streams_cat_big_head() -> None:
    fs = _CountingFS(1 << 30)  # 1 GiB
    sb = Sandbox({"/": fs})
    r = sb.run('cat big | head -c 10; echo " ${PIPESTATUS[@]}"')
    assert r.stdout == b"xxxxxxxxxx 141 0\n", r
    assert fs.served < 8 << 20, f"cat read {fs.served} bytes of a 1 GiB file"


def test_pipeline_stage_sees_limit() -> None:
    sb = sb_over(limits=Limits(seconds=0.3, loop_iterations=10**9, commands=10**9))
    r = sb.run("while :; do :; done | cat")
    assert r.exit_code == 124 and b"time limit" in r.stderr


def test_thread_safety_many_threads_one_sandbox() -> None:
    sb = sb_over({"a.txt": "alpha\n"})
    errors: list[str] = []

    def worker(k: int) -> None:
        for i in range(30):
            r = sb.run(f'x={k}-{i}; for j in 1 2; do echo "$x"; done | head -n 1; cat a.txt')
            if r.stdout != f"{k}-{i}\nalpha\n".encode():
                errors.append(repr(r))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_output_to_file_counts_write_budget() -> None:
    r = sb_over(limits=Limits(written_bytes=100)).run("echo {1..100} > f")
    assert r.exit_code == 125 and b"write limit" in r.stderr


def test_dev_files() -> None:
    r = sb_over().run("echo x > /dev/null; cat /dev/null; echo in | cat /dev/stdin; echo e > /dev/stderr")
    assert (r.stdout, r.stderr) == (b"in\n", b"e\n")


def test_not_allowed_at_dispatch() -> None:
    # The guard sees only literal names; the interpreter re-checks at dispatch.
    from sandbox.interpreter.core import IO, Shell
    from sandbox.interpreter.pipes import RunBudget
    from sandbox.fs.vfs import VirtualFS
    err = io.BytesIO()
    sh = Shell(VirtualFS({"/": MemoryFS({})}), "/", Policy(allow=frozenset({"cat"})), Limits(),
               RunBudget(Limits()), {})
    status = sh.dispatch(["head", "x"], [], IO(io.BytesIO(), io.BytesIO(), err))
    assert status == 126 and b"not allowed" in err.getvalue()


def test_read_only_runtime_refusal_for_dynamic_target() -> None:
    sb = sb_over({"log": "a\n"}, policy=Policy(protected=frozenset({"/log"})))
    r = sb.run("f=log; echo x >> $f; echo $?")
    assert r.stdout == b"1\n" and b"protected" in r.stderr


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_FUZZ_SB = Sandbox({"/": MemoryFS({"a.txt": "alpha\nbeta\n", "d/b": "x"})},
                   limits=Limits(seconds=2, loop_iterations=200, commands=300))


@settings(max_examples=500, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(
    list("ab $'\"\\`(){}[]<>|&;#=*?~!-\n\t0123456789:/%+@") +
    ["echo ", "cat ", "a.txt", "${", "$(", "for x in ", "; do ", "; done", "if ", "; then ",
     "; fi", "while ", "read ", "printf ", "%s", "[ ", " ]", "<<EOF\n", "\nEOF\n", "f() { ",
     " }", "2>&1", ">>", "set -e", "shift", "local ", "export ", "cd d"]), max_size=30).map("".join))
def test_fuzz_run_never_crashes(script: str) -> None:
    r = _FUZZ_SB.run(script)
    assert 0 <= r.exit_code <= 255
    assert b"Traceback" not in r.stderr and b"internal error" not in r.stderr, (script, r)
