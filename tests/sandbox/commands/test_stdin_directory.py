"""``cmd < dir``: stdin is a directory, so every read fails with EISDIR, and each GNU tool says
so its own way (coreutils 9.1, grep 3.8, sed 4.9, gawk 5.2, diffutils 3.8, util-linux); also a
directory read as a ``-`` operand among real files (``wc f - < d``) and as an operand.

Differential: each script runs under real bash and under our sandbox over identical scratch
directories; stdout, stderr and the exit status must be identical. jq is compared with jq 1.8's
wording (``jq: error: Is a directory`` for a failed read, ``No more inputs``) mapped from the
installed jq 1.6, whose reading code is the same (``Input error: ...``, ``break``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from sandbox.api import Sandbox
from sandbox.fs.local import LocalDir
from sandbox.policy import Policy
from sandbox import commands as registry

BASH = shutil.which("bash")
ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"}
MOUNT = "/work"
FILES = {"f": b"hello\nworld\n", "g": b"b a\nc d\n", "j": b"1\n2\n"}

CASES = [
    # wc: the counts line is printed; 'standard input' when there is no operand
    "wc < d", "wc - < d", "wc -c < d", "wc f - < d", "wc -l f - < d", "wc -lc - - < d",
    "wc -w f - < d", "wc -L < d", "wc -m < d",
    # head / tail: error reading 'standard input'
    "head -c5 < d", "head - < d", "head f - < d", "head -n1 < d", "head -n -1 < d", "head -c0 < d",
    "tail < d", "tail -n1 < d", "tail -c3 < d", "tail f - < d", "tail -n +1 < d", "tail -n0 < d",
    # tr / tee / shuf: read error
    "tr -d a < d", "tr a b < d", "tr -s a < d", "tee < d", "tee a b < d; ls", "shuf < d",
    "shuf - < d", "shuf d", "shuf -n1 < d", "shuf -e a < d",
    # uniq: error reading '-', no errno; OUTPUT is created all the same
    "uniq < d", "uniq - < d", "uniq d", "uniq - out < d; ls",
    # tac: 'standard input': read error: Invalid argument
    "tac < d", "tac - < d", "tac f - < d", "tac - f < d", "tac d",
    # od: the message, then the final offset
    "od < d", "od - < d", "od f - < d", "od -c f - < d", "od -An -tx1 f - f < d", "od d",
    # sed: read error on stdin, status 4; a failed read while looking ahead for $ is the end
    "sed p < d", "sed p - < d", "sed p f - < d", "sed -n '$=' f - < d", "sed -n '$=' < d",
    "sed '$d' f - < d", "sed p - f < d", "sed -n '$p' - f < d", "sed N f - < d",
    "sed -s p f - < d", "sed -s '$p' f - < d", "sed -n '$p' f - f < d", "sed = < d", "sed q < d",
    "sed p d",
    # awk: the directory is skipped with a warning, status 0
    "awk 1 - < d", "awk '{print}' < d; echo x", "awk 1 f - < d", "awk 'END{print NR}' f - < d",
    "awk '{getline; print}' < d", "awk 'BEGIN{getline x; print \"r\"}' < d",
    "awk 'BEGIN{while ((getline l < \"-\") > 0) print l; print \"done\"}' < d",
    "awk 'BEGIN{print (getline l < \"-\"), ERRNO}' < d", "awk 1 f d", "awk 1 d f",
    "awk 'END{print FILENAME, FNR, NR}' f d", "awk 'END{print FILENAME, FNR, NR}' f - < d",
    "awk 'END{print FILENAME, FNR, NR}' < d", "awk 'NR==1{exit}' < d",
    "awk 'BEGIN{while ((getline l) > 0) n++; print n+0}' < d", "awk -v RS= 1 < d",
    # paste: each '-' reports, counts as empty; reports come in operand order
    "paste < d", "paste f - < d", "paste - f < d", "paste -s f - < d", "paste -s - f < d",
    "paste - - < d", "paste - d < d", "paste f d", "paste -d, - - f < d",
    # strings / tsort / cksum (CRC): a failed read is the end of the input
    "strings < d", "strings -n 2 < d", "strings -f < d", "strings -e l < d", "strings -a f - < d",
    "tsort < d", "tsort - < d", "tsort d", "cksum < d", "cksum f - < d", "cksum d",
    "cksum -a crc - - < d", "cksum -a sha256 < d", "cksum -a sysv < d",
    # cmp / join open both operands before reading either
    "cmp - x < d", "cmp - f < d", "cmp f - < d", "cmp d f", "cmp f d", "cmp d d", "cmp - - < d",
    "cmp -n 0 - f < d", "cmp x d", "cmp d x", "cmp -s - f < d",
    "join - x < d", "join - f < d", "join f - < d", "join d f", "join f d", "join - - < d",
    "join d x", "join x d", "join -a1 f - < d",
    # fmt: read error
    "fmt < d", "fmt f - < d", "fmt d", "fmt d f", "fmt x f",
    # xargs: the failed read ends the input; closing stdin then fails
    "xargs < d", "xargs echo a < d", "xargs -n1 < d", "xargs -0 < d", "xargs -r < d",
    "xargs -I{} echo {} < d", "xargs -L1 echo < d", "xargs -a d echo",
    # hexdump (util-linux): warns with _argv[-1], status unchanged
    "hexdump -C < d", "hexdump < d", "hexdump -C -v < d", "hexdump -n 4 < d", "hexdump d",
    "hexdump -C d f", "hexdump -C f d", "hexdump -C f - < d", "hexdump x d",
    # split: NAME: strerror
    "split < d", "split - < d", "split d", "split -l 1 f - < d; ls",
    # grep: the -c line and the -L name still follow the error
    "grep -c x < d", "grep x < d", "grep -c x f - < d", "grep -l x - < d", "grep -q x < d",
    "grep -c x f d", "grep -L x - < d", "grep -L x d", "grep -cs x d", "grep -c hello f - < d",
    "grep -L x f - < d", "grep -vc x < d", "grep -c x -m0 < d", "grep -H -c x < d",
    # already right before: kept so they stay so
    "cat < d", "cat f - < d", "paste < d", "fold < d", "rev f - < d", "expand f - < d",
    "sort -u < d", "sort f - < d", "base64 < d", "sha256sum f - < d", "md5sum - < d",
    "comm - x < d", "column < d", "nl f - < d", "unexpand < d", "sum < d", "cut -f1 f - < d",
    "diff - x < d", "xxd < d",
]

JQ_CASES = [
    "jq . < d", "jq -n input < d", "jq -n 'try input catch .' < d",
    "jq -n 'try input catch ., try input catch .' < d", "jq -n '(try input catch .), input' < d",
    "jq -n '[inputs]' < d", "jq -R . < d", "jq -s . < d", "jq -Rs . < d", "jq -n 'input, 1' < d",
    "jq -e . < d", "jq . - < d", "jq . x j", "jq . j x", "jq . - j < d", "jq . j - < d",
    "jq -n '[inputs]' j - < d", "jq -n '[inputs]' - j < d", "jq -c -n '[inputs], [inputs]' - j < d",
    "jq -R . - j < d", "jq -s . - j < d", "jq -s . j - < d", "jq -Rs . - j < d",
    "jq '., input' j - < d", "jq . - < j",
    # a directory operand: opened, its first read fails, reported at the next read
    "jq . d j", "jq . j d j", "jq -s . d j", "jq -R . j d", "jq -c -n '[inputs]' d j",
]


def _build(root: Path) -> None:
    (root / "d").mkdir()
    for name, data in FILES.items():
        (root / name).write_bytes(data)


def _bash(script: str) -> tuple[bytes, bytes, int]:
    with tempfile.TemporaryDirectory(prefix="ref") as tmp:
        _build(Path(tmp))
        p = subprocess.run(["bash", "-c", script], executable=BASH, cwd=tmp, env=ENV,
                           capture_output=True, timeout=30)
        return p.stdout, p.stderr, p.returncode


def _ours(script: str) -> tuple[bytes, bytes, int]:
    with tempfile.TemporaryDirectory(prefix="our") as tmp:
        _build(Path(tmp))
        sb = Sandbox({MOUNT: LocalDir(tmp)}, cwd=MOUNT, policy=Policy(allow=registry.names()))
        r = sb.run(script)
        return r.stdout, r.stderr, r.exit_code


def _version(tool: str) -> str:
    path = shutil.which(tool, path=ENV["PATH"])
    if path is None:
        return ""
    try:
        p = subprocess.run([path, "--version"], capture_output=True, env=ENV, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return (p.stdout + p.stderr).decode("utf-8", "replace")


_REFERENCE = {"awk": "GNU Awk", "grep": "GNU grep", "sed": "GNU sed", "diff": "diffutils",
              "cmp": "diffutils", "hexdump": "util-linux", "column": "util-linux",
              "strings": "GNU strings", "xxd": "xxd", "rev": "util-linux", "jq": "jq-1."}


def _need(script: str) -> None:
    if BASH is None:
        pytest.skip("bash is not installed")
    tool = script.split()[0]
    mark = _REFERENCE.get(tool, "GNU coreutils" if tool != "xargs" else "findutils")
    if mark not in _version(tool):
        pytest.skip(f"reference {tool!r} ({mark}) is not installed")


@pytest.mark.parametrize("script", CASES)
def test_matches_gnu(script: str) -> None:
    _need(script)
    assert _ours(script) == _bash(script)


def _jq18(data: bytes) -> bytes:
    """jq 1.6's wording of the same events as jq 1.8's."""
    return (data.replace(b"Input error: ", b"jq: error: ")
            .replace(b": break\n", b": No more inputs\n").replace(b'"break"', b'"No more inputs"'))


@pytest.mark.parametrize("script", JQ_CASES)
def test_jq_matches_jq_18(script: str) -> None:
    _need(script)
    out, err, code = _bash(script)
    assert _ours(script) == (_jq18(out), _jq18(err), code)


def test_jq_read_failure_is_never_an_internal_error() -> None:
    out, err, code = _ours("jq -n input < d; jq . < d; jq -n '[inputs]' < d")
    assert b"internal error" not in err
    assert (out, err, code) == (b"[]\n", b"jq: error (at <stdin>:0): No more inputs\n", 2)


def test_jq_message_of_a_failed_read_comes_with_the_next_read() -> None:
    """jq 1.8's read_more prints ``jq: error: <strerror>`` when it is next called on the
    stream that failed: on to the next file, or on the next ``input`` after the last one."""
    assert _ours("jq -c . - j < d") == (b"1\n", b"jq: error: Is a directory\n", 2)
    out, err, code = _ours("jq -n '(try input catch .), (try input catch .)' < d")
    assert (out, err, code) == (b'"No more inputs"\n"No more inputs"\n',
                                b"jq: error: Is a directory\n", 2)


if __name__ == "__main__":  # pragma: no cover - python FILE SCRIPT: show both sides
    import sys

    print(_bash(sys.argv[1]), _ours(sys.argv[1]), sep="\n")
    os._exit(0)


#: A file named with a trailing slash (``f/``): the kernel refuses it (ENOTDIR) and every
#: reader reports it as GNU's does; od given no operand it can open dumps nothing.
TRAILING_SLASH = [
    "cat f/; echo $?", "head -1 f/; echo $?", "tail f/; echo $?", "wc -l f/; echo $?",
    "grep a f/; echo $?", "sed p f/; echo $?", "sort f/; echo $?", "md5sum f/; echo $?",
    "cut -c1 f/; echo $?", "awk 1 f/; echo $?", "od f/; echo $?", "od nope; echo $?",
    "od nope nope2; echo $?", "od -c nope f; echo $?", "od -An nope; echo $?", "od d f; echo $?",
    "nl f/; echo $?", "tac f/; echo $?", "cat f/ f; echo $?", "head -c 3 f/ f; echo $?",
]


@pytest.mark.parametrize("script", TRAILING_SLASH)
def test_trailing_slash_on_a_file(script: str) -> None:
    _need(script)
    assert _ours(script) == _bash(script)
