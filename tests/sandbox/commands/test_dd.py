"""dd against GNU coreutils 9.1's dd: bytes on stdout, stderr, exit status and the resulting
files, on hand-written and generated command lines. The time and rate of the statistics' last
line vary from run to run, so both sides have them replaced by ``T s, R`` before comparing."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fs  # noqa: E402

from sandbox import Limits, Policy, Sandbox  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402

def _gnu_dd() -> str | None:
    """Why the installed dd cannot be the reference (its --version says ``dd (coreutils)``)."""
    try:
        version = subprocess.run(["dd", "--version"], capture_output=True, env=fs.ENV, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return "reference tool 'dd' is not installed"
    if not version.startswith(b"dd (coreutils) 9.1"):
        return "reference tool 'dd' is not GNU coreutils 9.1"
    return None


REASON = _gnu_dd()
needs_gnu = pytest.mark.skipif(REASON is not None, reason=REASON or "")

_XFER = re.compile(rb", [0-9.e+-]+ s, (?:[0-9.]+ [kMGTPEZY]?B|Infinity B)/s\n")


def _normalize(err: bytes) -> bytes:
    return _XFER.sub(b", T s, R\n", err)


def compare(argv: list[str], tree: fs.Tree, stdin: bytes = b"") -> str | None:
    """None if our dd matches GNU's on this command line, else a report."""
    with tempfile.TemporaryDirectory(prefix="ref") as ref_dir, \
            tempfile.TemporaryDirectory(prefix="our") as our_dir, \
            tempfile.NamedTemporaryFile() as feed:
        ref_root, our_root = Path(ref_dir), Path(our_dir)
        fs.build(ref_root, tree)
        fs.build(our_root, tree)
        feed.write(stdin)
        feed.flush()
        with open(feed.name, "rb") as f:
            ref = subprocess.run(argv, stdin=f, capture_output=True, cwd=ref_root, env=fs.ENV,
                                 timeout=60)
        vfs = VirtualFS({fs.MOUNT: LocalDir(our_root)})
        code, out, err = run_command(argv, stdin=stdin, fs=vfs, cwd=fs.MOUNT)
        a = (ref.returncode, ref.stdout, _normalize(ref.stderr), fs.snapshot(ref_root))
        b = (code, out, _normalize(err), fs.snapshot(our_root))
    if a == b:
        return None
    parts = [f"command: {argv} stdin={stdin[:80]!r}"]
    for label, x, y in zip(("status", "stdout", "stderr", "tree"), a, b):
        if x != y:
            if label == "tree":
                keys = [k for k in sorted(set(x) | set(y)) if x.get(k) != y.get(k)]
                x, y = ({k: side.get(k, "<missing>") for k in keys} for side in (x, y))
            parts.append(f"{label}: GNU {x!r:.600}\n    ours {y!r:.600}")
    return "\n".join(parts)


def check(cases: list[tuple]) -> None:
    """Compare every (argv, tree[, stdin]); fail listing the first mismatches."""
    failures = [r for r in (compare(*c) for c in cases) if r is not None]
    assert not failures, f"{len(failures)}/{len(cases)} differ:\n\n" + "\n\n".join(failures[:5])


TEXT = b"Hello World\nthe quick brown fox\n\njumps  over   the lazy dog   \nEND"
TREE: fs.Tree = {"a": TEXT, "e": b"", "big": bytes(range(256)) * 40, "sub": None,
                 "out": b"0123456789abcdefghij\n"}


def dd(*ops: str) -> list[str]:
    """argv for dd."""
    return ["dd", *ops]


HAND = [
    dd("if=a"), dd("if=a", "of=o"), dd("if=a", "of=o", "bs=3"), dd("if=a", "bs=5", "count=2"),
    dd("if=a", "ibs=4", "obs=7"), dd("if=a", "ibs=7", "obs=4", "of=o"),
    dd("if=a", "bs=2x3", "count=1"), dd("if=a", "count=1B"), dd("if=a", "count=7B", "bs=3"),
    dd("if=a", "skip=3", "bs=4"), dd("if=a", "iseek=3", "bs=4"), dd("if=a", "skip=5B"),
    dd("if=a", "skip=100"), dd("if=a", "skip=1", "bs=1k"), dd("if=a", "skip=7", "iflag=skip_bytes"),
    dd("if=a", "count=10", "iflag=count_bytes"), dd("if=a", "count=10", "iflag=count_bytes", "bs=3"),
    dd("if=a", "of=out", "seek=2", "bs=4"), dd("if=a", "of=out", "seek=2", "bs=4", "conv=notrunc"),
    dd("if=a", "of=out", "seek=5", "oflag=seek_bytes", "conv=notrunc"),
    dd("if=a", "of=out", "seek=5", "oflag=seek_bytes"), dd("if=a", "of=out", "oseek=1", "bs=3"),
    dd("if=a", "of=out", "conv=notrunc"), dd("if=e", "of=out", "conv=notrunc"),
    dd("if=a", "of=out", "seek=100", "bs=1", "conv=notrunc"), dd("if=e", "of=out", "seek=100", "bs=1"),
    dd("if=a", "of=out", "seek=1", "bs=8", "count=0", "conv=notrunc"),
    dd("if=a", "of=out", "oflag=append", "conv=notrunc"), dd("if=a", "of=out", "oflag=append"),
    dd("if=a", "of=new", "oflag=append", "conv=notrunc"),
    dd("if=a", "conv=ucase"), dd("if=a", "conv=lcase"), dd("if=a", "conv=ucase,lcase"),
    dd("if=a", "conv=swab"), dd("if=a", "conv=swab", "bs=3"), dd("if=a", "conv=swab", "ibs=5", "obs=2"),
    dd("if=a", "conv=sync", "bs=7"), dd("if=a", "conv=sync,noerror", "ibs=10"),
    dd("if=a", "conv=block", "cbs=8"), dd("if=a", "conv=block", "cbs=3"),
    dd("if=a", "conv=unblock", "cbs=8"), dd("if=a", "conv=unblock", "cbs=5", "bs=3"),
    dd("if=a", "conv=block,sync", "cbs=4", "bs=9"), dd("if=a", "conv=block", "cbs=0"),
    dd("if=a", "conv=block,unblock", "cbs=2"), dd("if=a", "conv=block"),
    dd("if=a", "of=out", "conv=excl"), dd("if=a", "of=n2", "conv=excl"),
    dd("if=a", "of=n3", "conv=nocreat"), dd("if=a", "of=out", "conv=nocreat"),
    dd("if=a", "of=out", "conv=excl,nocreat"), dd("if=a", "of=o", "conv=fsync,fdatasync,sparse"),
    dd("if=a", "iflag=fullblock", "bs=5"), dd("if=a", "oflag=fullblock"),
    dd("if=a", "iflag=nonblock,noatime,nocache,noctty,nofollow,dsync,sync", "status=noxfer"),
    dd("if=a", "iflag=directory"), dd("if=sub"), dd("if=sub", "iflag=directory"),
    dd("if=a", "of=sub"), dd("if=a", "of=sub/"), dd("if=a", "of=nodir/x"), dd("if=nope"),
    dd("if=a", "status=none"), dd("if=a", "status=noxfer"), dd("if=a", "status=none,noxfer"),
    dd("if=a", "status=noxfer,none"), dd("if=a", "status=bogus"), dd("if=a", "status="),
    dd("if=a", "conv="), dd("if=a", "conv=ucase,,lcase"), dd("if=a", "conv=foo"),
    dd("if=a", "iflag=bad"), dd("if=a", "oflag=binary"), dd("foo"), dd("foo=bar"), dd("=x"),
    dd("if=a", "bs=0"), dd("if=a", "bs=x"), dd("if=a", "count=-1"), dd("if=a", "count="),
    dd("if=a", "count=1Y"), dd("if=a", "count=99999999999999999999"), dd("if=a", "bs=1e"),
    dd("if=a", "count=0x5"), dd("if=a", "count=00x5"), dd("if=a", "bs=2x1B"), dd("if=a", "count=3x2x2"),
    dd("if=a", "count=1Kx"), dd("if=a", "bs=1kB", "count=1"), dd("if=a", "bs=1KiB"),
    dd("if=a", "bs=1MD"), dd("if=a", "bs=1w"), dd("if=a", "bs=1b"), dd("if=a", "bs=k"),
    dd("if=a", "cbs=0"), dd("if=a", "count=0"), dd("if=a", "of=o", "count=0"),
    dd("if=big", "of=o"), dd("if=big", "bs=1000", "of=o"), dd("if=big", "bs=1", "count=999"),
    dd("if=big", "bs=1k", "count=1"), dd("if=big", "bs=100", "count=10", "skip=3"),
    dd("if=big", "obs=1000"), dd("-x"), dd("--foo"), dd("--version"), dd("if=a", "-x"),
    dd("if=a", "direct", "x"), dd("--help"), dd("if=a", "if=big", "count=1"),
    dd("if=a", "of=a", "bs=1"), dd("if=a", "of=a", "conv=notrunc"),
    dd("if=a", "seek=1"), dd("if=a", "skip=100", "seek=1"),
    dd("if=sub", "conv=noerror,sync", "bs=4", "count=2"), dd("if=sub", "conv=noerror,sync", "bs=4", "count=2", "status=none"),
    dd("if=sub", "conv=noerror,sync,block", "cbs=3", "bs=4", "count=1"), dd("if=sub", "conv=noerror,sync", "ibs=4", "count=3", "status=noxfer"),
    dd("if=a", "of=out", "conv=sparse,notrunc", "bs=2"), dd("if=big", "of=out", "conv=sparse", "bs=16", "count=3"),
    dd("if=big", "of=out", "conv=sparse,notrunc", "oflag=append", "bs=1", "count=5"),
    dd("if=a", "oflag=nocache", "count=0"), dd("if=a", "of=o", "oflag=nocache", "count=0"),
    dd("if=a", "iflag=nocache", "count=0"), dd("if=a", "conv=fdatasync"), dd("if=a", "of=o", "conv=fsync"),
    dd("if=a", "of=/dev/null", "conv=fsync"), dd("if=a", "oflag=append", "status=none"),
    dd("if=a", "bs=5", "count=3", "status=progress"), dd("if=/dev/null", "skip=1"),
    dd("if=/dev/null", "of=o", "seek=3", "bs=2"), dd("if=a", "of=/dev/null", "seek=3"),
    dd("if=big", "conv=ascii"), dd("if=big", "conv=ebcdic"), dd("if=big", "conv=ibm"),
    dd("if=big", "conv=ascii,ucase"), dd("if=big", "conv=ebcdic,lcase"), dd("if=big", "conv=ibm,ucase,swab"),
    dd("if=a", "conv=ebcdic", "cbs=8"), dd("if=a", "conv=ibm", "cbs=5", "bs=3"), dd("if=big", "conv=ascii", "cbs=16"),
    dd("if=a", "conv=ebcdic,sync", "cbs=4", "bs=7"), dd("if=a", "conv=ascii,ebcdic"), dd("if=a", "conv=ascii,block", "cbs=3"),
    dd("if=a", "of=/dev/stderr"), dd("if=a", "of=/dev/stdout", "bs=5"),
    dd("if=a", "conv=ebcdic,unblock", "cbs=3"), dd("if=a", "conv=ebcdic,unblock"), dd("if=a", "conv=block,unblock"),
]

STDIN_CASES = [
    (dd(), TEXT), (dd("bs=4"), TEXT), (dd("skip=2", "bs=5"), TEXT), (dd("count=3", "bs=2"), TEXT),
    (dd("of=o"), TEXT), (dd("conv=ucase", "status=none"), TEXT), (dd("skip=99"), TEXT),
    (dd("ibs=3", "obs=5", "conv=swab"), TEXT), (dd(), b""), (dd("bs=1M"), bytes(3000)),
    (dd("iflag=nocache", "count=0"), TEXT), (dd("of=/dev/stdout", "conv=sparse"), bytes(600)),
    (dd("conv=sparse", "bs=1"), b"a\0\0b"),
]


@needs_gnu
def test_hand_written() -> None:
    """Every option and error message, one line each."""
    check([(argv, TREE) for argv in HAND])


@needs_gnu
def test_stdin() -> None:
    """No if=: standard input (a file on GNU's side, read whole blocks as from a file)."""
    check([(argv, TREE, data) for argv, data in STDIN_CASES])


_NUMS = ["0", "1", "2", "3", "5", "7", "16", "100", "1k", "2x3", "1B", "5B", "1b", "1w", "1c", "x",
         "-1", "1kB", "3B", "9"]


def _random_case(rng: random.Random) -> tuple[list[str], fs.Tree, bytes]:
    ops: list[str] = []
    alphabet = rng.choice([b"abcXYZ \n\n\x00\xff.", b"\x00\x00\x00\x00a", b"ab\n  "])
    content = bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 300)))
    if rng.random() < 0.2:
        content = bytes(rng.randint(0, 40)) + content + bytes(rng.randint(0, 40))
    tree: fs.Tree = {"in": content, "old": bytes(rng.choice(b"0123456789") for _ in range(rng.randint(0, 60)))}
    stdin = b""
    if rng.random() < 0.8:
        ops.append("if=in")
    else:
        stdin = content
    if rng.random() < 0.6:
        ops.append(f"of={rng.choice(['old', 'fresh'])}")
    for name in ("bs", "ibs", "obs", "count", "skip", "seek", "cbs"):
        if rng.random() < (0.35 if name != "seek" or any(o.startswith("of=") for o in ops) else 0.0):
            ops.append(f"{name}={rng.choice(_NUMS)}")
    if rng.random() < 0.6:
        convs = rng.sample(["ucase", "lcase", "swab", "sync", "noerror", "notrunc", "block",
                            "unblock", "sparse", "fsync", "excl", "nocreat", "ascii", "ebcdic",
                            "ibm"], rng.randint(1, 3))
        ops.append("conv=" + ",".join(convs))
    if rng.random() < 0.3:
        ops.append("iflag=" + ",".join(rng.sample(["fullblock", "count_bytes", "skip_bytes", "nocache"], rng.randint(1, 2))))
    if rng.random() < 0.2:
        ops.append("oflag=" + ",".join(rng.sample(["seek_bytes", "append", "nocache"], rng.randint(1, 2))))
    ops.append("status=" + rng.choice(["none", "noxfer", "noxfer", "none"]) if rng.random() < 0.5 else "status=noxfer")
    if rng.random() < 0.2:
        ops.remove(ops[-1])
    rng.shuffle(ops)
    return dd(*ops), tree, stdin


@needs_gnu
@pytest.mark.parametrize("seed", range(4))
def test_generated(seed: int) -> None:
    """200 random operand mixes (50 a seed) over random small files."""
    rng = random.Random(1000 + seed)
    check([_random_case(rng) for _ in range(50)])


def test_writes_declares_of() -> None:
    """The guard sees the output file."""
    from sandbox.commands import dd as mod
    assert mod.writes(["if=a", "of=x", "bs=1"]) == ["x"]
    assert mod.writes(["if=a"]) == []


def test_read_only_policy_refuses_before_running(tmp_path: Path) -> None:
    """dd of=x under a read-only policy runs nothing at all."""
    (tmp_path / "x").write_bytes(b"keep")
    sb = Sandbox(mounts={"/w": str(tmp_path)}, cwd="/w",
                 policy=Policy(allow={"dd", "echo"}, read_only=True))
    r = sb.run("echo start; dd if=/dev/null of=x")
    assert r.exit_code == 126 and r.stdout == b""
    assert b"read-only" in r.stderr and len(r.stderr.splitlines()) == 1
    assert (tmp_path / "x").read_bytes() == b"keep"


def test_huge_count_is_bounded_by_time(tmp_path: Path) -> None:
    """bs=1 count=huge over a big file ends with the time limit's one-line error."""
    (tmp_path / "big").write_bytes(bytes(8 << 20))
    sb = Sandbox(mounts={"/w": str(tmp_path)}, cwd="/w", policy=Policy(allow={"dd"}),
                 limits=Limits(seconds=0.5))
    r = sb.run("dd if=big of=/dev/null bs=1 count=999999999999")
    assert r.exit_code != 0
    lines = r.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "limit" in lines[0]
    assert b"Traceback" not in r.stderr


def test_write_limit_stops_an_endless_copy(tmp_path: Path) -> None:
    """Copying more than the run may write ends with the write limit's error."""
    (tmp_path / "big").write_bytes(bytes(1 << 20))
    sb = Sandbox(mounts={"/w": str(tmp_path)}, cwd="/w", policy=Policy(allow={"dd"}),
                 limits=Limits(written_bytes=100_000))
    r = sb.run("dd if=big of=copy bs=64k")
    assert r.exit_code != 0
    assert b"limit" in r.stderr and b"Traceback" not in r.stderr
    assert os.path.getsize(tmp_path / "copy") <= 100_000 + (1 << 16)


def _dev_zero_reads() -> str | None:
    try:
        with tempfile.TemporaryDirectory() as d:
            r = Sandbox(mounts={"/w": d}, cwd="/w", policy=Policy(allow={"dd"})).run(
                "dd if=/dev/zero bs=1k count=1 status=none")
    except Exception as e:  # noqa: BLE001 - any failure means the device is not readable yet
        return f"/dev/zero is not readable through the sandbox ({type(e).__name__})"
    if r.exit_code != 0 or r.stdout != bytes(1024):
        return "/dev/zero is not readable through the sandbox yet"
    return None


@pytest.mark.skipif(_dev_zero_reads() is not None, reason=_dev_zero_reads() or "")
def test_dev_zero_pipe(tmp_path: Path) -> None:
    """dd if=/dev/zero bs=1k count=64 | wc -c counts 65536 bytes."""
    sb = Sandbox(mounts={"/w": str(tmp_path)}, cwd="/w", policy=Policy(allow={"dd", "wc"}))
    r = sb.run("dd if=/dev/zero bs=1k count=64 status=none | wc -c")
    assert r.exit_code == 0 and r.stdout == b"65536\n"


PIPELINES = [
    "printf abcdefghij | dd bs=3 status=noxfer",
    "printf abcdefghij | dd bs=3 iflag=fullblock count=2 status=noxfer",
    "printf abcdefghij | dd ibs=4 obs=3 status=noxfer | cat",
    "printf abcdefghij | dd skip=2 bs=3 status=noxfer",
    "printf abcdefghij | dd skip=5 bs=3 status=noxfer",
    "printf 'hello world\\n' | dd conv=ucase 2>/dev/null | dd conv=swab status=none",
    "printf abc | dd seek=1 status=noxfer",
    "printf abc | dd iflag=nocache count=0 status=noxfer",
    "dd if=/dev/null status=noxfer",
    "mkdir -p d; dd < d status=noxfer", "mkdir -p d; dd if=d status=noxfer", "mkdir -p d; dd if=d of=x conv=noerror,sync bs=2 count=2 status=noxfer; cat x",
]


@needs_gnu
@pytest.mark.parametrize("script", PIPELINES)
def test_pipelines_against_bash(script: str, tmp_path: Path) -> None:
    """dd reading and writing pipes inside the sandbox, against the same line in bash."""
    ref = subprocess.run(["bash", "-c", script], capture_output=True, cwd=tmp_path, env=fs.ENV, timeout=30)
    sb = Sandbox(mounts={"/w": str(tmp_path)}, cwd="/w", policy=Policy(allow={"dd", "printf", "cat", "mkdir"}))
    r = sb.run(script)
    assert (r.exit_code, r.stdout, _normalize(r.stderr)) == (ref.returncode, ref.stdout, _normalize(ref.stderr))
