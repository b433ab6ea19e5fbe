"""``gawk``: the same awk under gawk's own name. Differential against gawk run as ``gawk``
(it names itself by argv[0]): stdout, stderr, status, files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import awk_support as aw  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.fs.memory import MemoryFS  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402

FILES = {"notes.md": b"# Notes\n- alpha 1\n- beta 22\n", "x.txt": b"a b\nc d\n"}

CASES = [
    ["BEGIN{x=}"], ["--bogus"], [], ["--help"], ["--usage"], ["-f", "nope"],
    ['BEGIN{print "awk: x"; print "Usage: awk"}'], ["{print $2}", "x.txt"],
    ["-F", " ", "{n+=$3} END{print n}", "notes.md"], ["{print length()}", "nope.txt"],
    ["BEGIN{printf \"%d\\n\", substr()}"], ["-v", "1x=2", "BEGIN{}"], ["BEGIN{getline < \"nope\"; print \"ok\"}"],
    ["-i", "inplace", "{print toupper($0)}", "x.txt"], ["BEGIN { print gensub(/(a)/, \"<\\\\1>\", \"g\", \"banana\") }"],
    ["function f(a) {return a} BEGIN{f(1,2)}"], ["BEGIN{print 1/0}"], ["--version"],
    ["function f(a){return a} {print f($1, x++)} END{print x}", "x.txt"],
    ["function f(a){return a} BEGIN{print f(1, g())} function g(){print \"g\"; return 5}"],
]


def _ours(args: list[str]) -> tuple[int, bytes, bytes, dict[str, bytes]]:
    vfs = VirtualFS({"/": MemoryFS(dict(FILES))})
    code, out, err = run_command(["gawk", *args], fs=vfs, env={"TZ": "UTC"})
    files = {n: vfs.read_bytes("/" + n) for n in sorted(vfs.listdir("/"))
             if n != "dev" and vfs.stat("/" + n).is_file}
    return code, out, err, files


@pytest.mark.parametrize("args", CASES, ids=repr)
def test_gawk_matches_gawk(args: list[str], tmp_path: Path) -> None:
    aw.need_gawk()
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    ref = subprocess.run(["gawk", *args], cwd=tmp_path, capture_output=True,
                         env={**aw.REF_ENV}, timeout=20)
    files = {p.name: p.read_bytes() for p in sorted(tmp_path.iterdir()) if p.is_file()}
    assert _ours(args) == (ref.returncode, ref.stdout, ref.stderr, files), args
