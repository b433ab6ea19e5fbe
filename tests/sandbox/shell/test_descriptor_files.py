"""File tests of the kernel's descriptor links, against bash 5.2: ``/dev/stdin`` (and
``/dev/fd/0``) test as what fd 0 reads: a pipe (a pipeline's, a here-string's, the run's own
input) for ``-p``, the file for ``< file`` (``-f``, ``-s``), a character device for
``< /dev/null``; ``/dev/stdin``, ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd`` and
``/dev/fd/0..2`` are links (``-h``/``-L``). The common use: a function that reads its input
from a pipe when there is one (``[ -p /dev/stdin ] && cat || echo "$1"``).

Each script runs under real bash (its stdin a pipe, as the sandbox's) and under the sandbox;
stdout, status, files and stderr must agree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

_EACH_OP = (
    'for op in -p -c -f -e -s -r -w -x -h -L -b -S; do printf "%s " $op\n'
    '  echo abc | { [ $op /dev/stdin ] && echo y || echo n; }\n'
    '  [ $op /dev/stdin ] < a.txt && echo y || echo n\n'
    '  [ $op /dev/stdin ] < empty.txt && echo y || echo n\n'
    '  [ $op /dev/stdin ] < /dev/null && echo y || echo n\n'
    '  [[ $op /dev/stdin ]] <<< x && echo y || echo n\n'
    '  while read -r l; do [ $op /dev/fd/0 ] && echo y || echo n; done < a.txt | head -1\n'
    'done'
)

SCRIPTS = [
    _EACH_OP,
    '[ -p /dev/stdin ] && echo pipe || echo no',
    'f() { if [ -p /dev/stdin ]; then cat; else echo "arg: $1"; fi; }\n'
    'echo piped | f; f given < /dev/null; f file < a.txt',
    'read_input() { [[ -p /dev/stdin ]] && tr a-z A-Z || echo none; }\n'
    'printf "x\\n" | read_input; read_input <<EOF\nhere\nEOF\nread_input < /dev/null',
    '{ [ -f /dev/stdin ] && wc -l; } < notes.md',
    'for f in /dev/stdin /dev/stdout /dev/stderr /dev/fd /dev/fd/0 /dev/fd/1 /dev/fd/2 /dev/fd/7; do\n'
    '  [ -h "$f" ] && echo "$f link" || echo "$f not"; done',
    'cd /dev && [ -L stdin ] && echo rel-link',
    '[ -t 0 ] || echo "not a terminal"; [ -t 1 ] || echo "stdout not a terminal"',
    # a process substitution's /dev/fd/N is a link to a pipe: -p, -h, -e, -r hold, -f and -s
    # don't; stat -L says fifo, size 0; every reader still reads it whole
    'for op in -p -h -L -e -r -f -s -c; do [ $op <(echo x) ] && echo "$op y" || echo "$op n"; done\n'
    'stat -L -c "%F %s" <(echo abc); f() { [ -p "$1" ] && echo pipe; cat "$1"; }; f <(echo in)',
    '[[ -p <(echo) ]] && echo pp; [[ -s <(echo x) ]] || echo ns; [[ <(:) == /dev/fd/* ]] && echo fd\n'
    '[[ a < b ]] && echo lt; [[ b > a ]] && echo gt; [[ $(cat <(echo a)) == a ]] && echo eq',
    'gzip -c <(echo hi) | gzip -d; wc -c <(echo abc) | cut -d" " -f1; sha256sum <(echo) | cut -c1-8',
    # cmp -l pads offsets to the smallest regular file's size; a pipe has none (19 columns)
    'cmp -l <(printf abcd) <(printf abXY); printf abcd | cmp -l - <(printf abXY)\n'
    'printf abXY > b.txt; cmp -l - b.txt < a.txt; printf "a\\nb\\nc\\nd" | cmp -l - b.txt',
]


@needs_bash
@pytest.mark.parametrize("script", SCRIPTS)
def test_descriptor_file_tests_match_bash(script: str) -> None:
    dt.check(script, stderr=True)
