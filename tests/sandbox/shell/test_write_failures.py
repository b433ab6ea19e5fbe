"""A standard output that refuses writes: a closed descriptor (``>&-``, EBADF) and the full
device (``> /dev/full``, ENOSPC). Each program says what the real one says, with its status
(``sandbox/commands/_stdout_errors.py``); builtins say bash's ``NAME: write error``; commands
run by ``xargs``/``find -exec`` too (they used to end in ``internal error``). ``/dev/full``
itself reads as NUL bytes, tests as a character device, and refuses every write (``dd``'s
statistics count nothing written, ``cp`` says ``error writing``).

Differential: each script runs under real bash with the GNU tools and under the sandbox;
stdout, stderr, status and files must agree. jq is checked against jq 1.8's text (the host's
jq is older)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

COMMANDS = [
    "cat a.txt", "cat -n a.txt", "sed p a.txt", "grep a a.txt", "sort -u a.txt", "uniq -c a.txt",
    "wc -l a.txt", "head -1 a.txt", "tail -1 a.txt", "cut -c1 a.txt", "tr a b < a.txt",
    "nl a.txt", "paste a.txt", "rev a.txt", "tac a.txt", "fold a.txt", "column a.txt",
    "tree .", "du a.txt", "base64 a.txt", "sha256sum a.txt", "md5sum a.txt", "cksum a.txt",
    "comm a.txt a.txt", "join a.txt a.txt", "xxd a.txt", "hexdump -C a.txt", "strings a.txt",
    "expand a.txt", "fmt a.txt", "tee < a.txt", "file a.txt", "realpath a.txt", "uname",
    "shuf -n1 a.txt", "tar cf - a.txt", "gzip -c a.txt", "seq 100000", "yes | head -5",
    "expr 1 + 1", "numfmt 1000", "cmp a.txt nums.txt", "diff -u a.txt /dev/null", "factor 12",
    "pr a.txt", "look a a.txt", "iconv -f utf-8 -t ascii a.txt", "envsubst < a.txt",
    "getopt ab -a", "od -c a.txt", "date -d @0", "ls -l a.txt", "ls", "find . -name a.txt",
    "stat -c %s a.txt", "basename x", "awk 1 a.txt",
    "awk 'BEGIN { print 1 }'", "awk 'END { print NR }' a.txt nums.txt",
    "awk 'NR == 2 { exit 3 } { print }' a.txt", "awk '{ print; fflush() }' a.txt",
    "awk '{ print > \"/dev/stdout\" }' a.txt", "awk 'BEGIN { while (i++ < 20000) print i }'",
    "echo x", "printf '%s\\n' x", "pwd", "xargs echo < a.txt", "find . -name a.txt -exec echo {} +",
]


@needs_bash
@pytest.mark.parametrize("redirect", [">&-", ">/dev/full"])
@pytest.mark.parametrize("command", COMMANDS)
def test_a_refused_stdout_as_the_real_program(command: str, redirect: str) -> None:
    dt.check(f'{command} {redirect}; echo "[$?]"', stderr=True)


DEVICE = [
    "head -c 5 /dev/full | od -An -c",
    "[ -c /dev/full ] && echo char; [ -w /dev/full ] && echo writable; [ -f /dev/full ] || echo no-file",
    "ls /dev | grep -x full",
    ": > /dev/full; echo \"[$?]\"; echo x >> /dev/full; echo \"[$?]\"",
    "cp a.txt /dev/full; echo \"[$?]\"; cp empty.txt /dev/full; echo \"[$?]\"",
    "tee /dev/full < a.txt; echo \"[$?]\"; tee -a /dev/full < a.txt > /dev/null; echo \"[$?]\"",
    "dd if=a.txt of=/dev/full status=noxfer; echo \"[$?]\"",
    "dd if=/dev/zero of=/dev/full bs=1k count=2 status=noxfer; echo \"[$?]\"",
    "dd if=a.txt of=/dev/full conv=sync status=noxfer; echo \"[$?]\"",
    "dd if=a.txt of=/dev/full ibs=1 obs=4 status=none; echo \"[$?]\"",
    "dd if=a.txt of=/dev/full ibs=1 obs=400 status=noxfer; echo \"[$?]\"",
    "dd if=/dev/full bs=4 count=2 status=none | od -An -tx1",
    "awk 'BEGIN { print \"x\" > \"/dev/full\"; close(\"/dev/full\"); print \"y\" }'; echo \"[$?]\"",
    "awk 'BEGIN { printf \"x\"; fflush() }' > /dev/full; echo \"[$?]\"",
    "{ echo a; echo b >&2; } 2>/dev/full; echo \"[$?]\"",
]


@needs_bash
@pytest.mark.parametrize("script", DEVICE)
def test_the_full_device(script: str) -> None:
    dt.check(script, stderr=True)


@pytest.mark.parametrize("redirect,reason", [(">&-", "Bad file descriptor"),
                                             (">/dev/full", "No space left on device")])
def test_jq_says_what_jq_1_8_says(redirect: str, reason: str) -> None:
    """jq 1.7+ checks ``fclose(stdout)`` at exit: ``jq: error: writing output failed: R``,
    status 2 (jq 1.6 said ``Error: writing output failed``)."""
    for script in (f"jq -n 1 {redirect}", f"jq . data.jsonl {redirect}"):
        ours = dt.run_ours(script + '; echo "[$?]"')
        assert ours.stdout == b"[2]\n", script
        assert ours.stderr == f"jq: error: writing output failed: {reason}\n".encode(), script


def test_no_command_ends_in_an_internal_error() -> None:
    """Every registered command with its stdout closed or full: never ``internal error``."""
    names = sorted(n for n in dt.all_commands() if re.fullmatch(r"[a-z0-9]+", n))
    for redirect in (">&-", ">/dev/full"):
        script = "\n".join(f"{n} --version {redirect}; {n} a.txt {redirect}" for n in names)
        ours = dt.run_ours(script)
        assert b"internal error" not in ours.stderr, ours.stderr.decode(errors="replace")[-2000:]
