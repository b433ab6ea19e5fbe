"""The shell's own diagnostics carry bash's prefix: ``bash: line N: `` (``environment: line N:
`` while a function runs, as bash 5.2 names functions of a ``-c`` string), with N the line of
the command (a simple command, ``[[ ]]``, ``(( ))``, ``for``, ``case``). A script that captures
its errors (``2>&1``) sees the same bytes as under bash. Each case runs under real bash and
the sandbox; stdout, status, files and stderr must be identical, byte for byte."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from shell_difftools import check  # noqa: E402

CASES = [
    "shopt -z", "shopt -s nosuchopt", "type nosuch", "hash nosuch", "declare -Z",
    "a=(1); echo ${a[-5]}", "readonly r=1; r=2 true", "printf %d x", "cd /nonexist",
    "f(){ cd /nonexist; }; f", "set -u; echo $zz", "echo $((1/0))",
    "declare -n r=r; echo $r", "exit abc", "return 1", "printf -v 1a x", "read -t x v",
    "trap -x", "let '1/0'", "test 1 -eq a", "[ 1 -eq a ]", "echo hi > /nonexist/x",
    "true | cat < /nonexist", "nosuchcmd", "echo a\nnosuchcmd", "f() {\n  nosuchcmd\n}\nf",
    "for i in 1 2; do\n  [ $i -eq x ]\ndone", "x=$(cd /nope); echo", "(cd /nope)",
    "echo ${x:?need x}", "a=(1 2); echo ${a[x/0]}", "cat <<EOF\n$((1/0))\nEOF",
    "f() { return x; }; f", "break 0", "set -o nosuch", "local x=1", ": $((a b))",
    "echo {1..3} > \"$nofile\"", "exec 3<&5", "echo hi >&7", "pushd /nope", "popd",
    "mapfile -u 9 a", "read -u 9 x", "printf '%s\\n' \"$(( 08 ))\"", "export 1a=2",
    "readonly x=1; unset x", "declare -i n; n=abc+; echo $n", "declare -p nosuch",
    "echo a\n[[ 1 -eq \"a b\" ]]", "x=1\nif [[ $x -eq \"a b\" ]]; then :; fi",
    "echo\n(( 1 + ))", "echo\nfor ((i=0; i< a b; i++)); do :; done",
    "echo 1\nfor a-b in x; do :; done", "echo\ncase x in\n x) nosuch;;\nesac",
    "echo\nwhile nosuch\ndo break; done", "cat <<EOF\nunterminated\n", "cat <<EOF\nx\ny",
    "getopts -x; echo $?", "declare -n a=b b=a; echo $a", "echo 1 >&-",
    "declare -A q=([x]=1 y 2); declare -p q", "nosuch 2>&1 | tr a-z A-Z",
    "out=$(cat < missing.txt 2>&1); echo \"got: $out\"",
    "g() { local v; v=$((1/0)); }; g; echo after",
    "for f in a b; do\n  cat < \"$f.none\"\ndone 2>&1",
    "typeset -Z", "readonly -i x", "readonly -- x=1; echo $x", "export -Z", "unset -x",
    "f() { local -Z; }; f", "echo \"${x/\"", "if true; then", "echo a; ;", "echo 1\n  fi  ",
    "for ((i=0)); do :; done", "echo $(( (1 ))", "x=(1 2",
]


@pytest.mark.parametrize("script", CASES)
def test_diagnostic_is_bash_s_to_the_byte(script: str) -> None:
    check(script, stderr=True)
