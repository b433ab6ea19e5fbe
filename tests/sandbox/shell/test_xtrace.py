"""``set -x`` traces against bash 5.2, byte for byte (``sandbox/interpreter/xtrace.py``):
compound commands (``[[ ]]`` test by test, ``(( ))``, ``for``, ``for (( ))``, ``case``),
array assignments as written, declaration builtins with array values, the quoting of words
and values (single quotes around metacharacters, ``$'...'`` for what doesn't print), ``++``
inside command substitutions, and ``$PS4`` expanded as a prompt. (The order of the lines of
a pipeline's parts, or of a process substitution against its command, is a race in bash: not
compared.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

SCRIPTS = [
    "set -x; [[ a == a ]]; (( 1 )); n=5; (( n + 1 > 2 )); (( $n * 2 )); for i in 1 2; do :; done\n"
    "case a in a) ;; esac; a=(1 2); x=$(echo hi); y=$(echo $(echo in)); (echo sub)",
    "set -x; declare -A m=([k]=v); echo $'a\\tb'; for ((i=0;i<2;i++)); do :; done\n"
    "while false; do :; done; n=5; [[ -n $n && $n -gt 1 ]]; local_x=$((n+1)); b+=(3)\n"
    "declare -a c=(1 2); export E=1; readonly R=2; f() { echo f; }; f\n"
    "if [[ $n == 5 ]]; then :; fi; until true; do :; done; cat <<< hi\n"
    "echo \"a b\" 'c d' \"\" e\\ f; PS4=\"+\\$LINENO: \"; true",
    "set -x; f() { local a=1 b; local -a c=(x y); typeset t=2; local -A m=([k]=\"v w\"); }; f\n"
    "export A=1 B; readonly R=(1 2); declare -r Q=3; declare -i I=4+1; export -n A\n"
    "x=\"a.b\"; [[ $x =~ \"a.b\" ]]; [[ $x =~ a.b ]]; [[ $x != *z* ]]; [[ -n $x && ( $x == a* ) ]]\n"
    "[[ $x < b ]]; [[ 1 -eq 1 ]]; for (( i = 0; i < 1; i++ )); do :; done; for x in; do :; done\n"
    "for x in $(echo 1 2); do :; done; case $x in a) : ;; esac; n=3; (( n++ ))\n"
    "(( m = $n * 2, m > 1 )); arr=(); arr+=( \"a b\" ); arr[n+1]=z; m2=(['k']=1)",
    "set -x; set -- p q; for x; do :; done; x=a; [[ $x ]]; i=2; arr[$i]=z; arr[i]+=y\n"
    "[[ ! $x == b ]]; [[ ! ( $x == b || -z $x ) ]]; y=$(x=$( (echo deep) ); echo $x)\n"
    "PS4=\"+ ${FUNCNAME[0]:-main}:$LINENO: \"; f() { :; }; f; PS4='[$BASH_SUBSHELL] '\n"
    "x=$(echo a); PS4=\"+ \"; declare -a e=(); declare -A h=(); local_z=([0]=a [3]=b)",
    "set -x; : $'\\r' $'\\x1b' $'\\x7f' $'\\v' $'\\f' $'a\\tb c' $'\\xff' \"~x\" \"x~\" \"#a\" \"a#\"\n"
    ": \"!\" \"a=b\" \"=\" \"{a}\" \"a,b\" \"%\" \"^\" \"@\" \"\\\\\" \"a:b\" \"[x]\" \"-\" \"+\" \"a|b\" \"'\" \"it's\" é\n"
    "v=$'a\\rb'; w=\"x y\"; e=; q=\"'\"; echo \"$w\" > /dev/null; let \"q = 1 + 2\"; test -n \"$w\"\n"
    "[ \"$w\" = \"a b\" ]; printf -v out '%s' hi; read -r line <<< \"in put\"; cd .; echo done",
    "set -x\nfor f in *.txt; do\n  n=$(wc -l < \"$f\")\n  if (( n > 1 )); then echo \"$f $n\"; fi\ndone\n"
    "set +x; echo quiet",
    "set -euxo pipefail\ndeclare -A count=()\nwhile read -r w; do count[$w]=$(( ${count[$w]:-0} + 1 )); "
    "done <<< \"$(tr ' ' '\\n' < b.txt)\"\nfor k in \"${!count[@]}\"; do :; done",
]


@needs_bash
@pytest.mark.parametrize("script", SCRIPTS)
def test_xtrace_matches_bash(script: str) -> None:
    dt.check(script, stderr=True)
