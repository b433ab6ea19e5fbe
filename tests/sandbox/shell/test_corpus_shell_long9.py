"""Differential tests against bash 5.2 from the ninth corpus (longer maintenance scripts over
a memory directory, most of them under ``set -euo pipefail``):

* ``set -u`` and arrays in arithmetic: ``(( count[$w]++ ))`` / ``$(( a[9] ))`` on an unset
  element of a set array is 0, not an error; only an unset array (``declare -A c`` with no
  element yet) is one, named without its subscript (``c: unbound variable``);
* ``set -u`` messages name the parameter as written: ``${m[$k]}`` gives ``m[$k]: unbound
  variable`` (not the subscript's value), a nameref ``${ref}`` its own name, ``${!v}`` the
  ``!v``; ``${#a[k]}`` of an unset element is 0 (an unset array, or a scalar, is an error);
  ``${!a[9]:-x}`` of an unset element of a set array is ``x``;
* a syntax error met after ``set -e`` ran: bash's parser_error leaves at once, so only the
  first line of the message is printed (no `` `LINE' `` echo) and the status is 2;
* the errors bash prints with ``report_error`` (a read-only variable, a bad array subscript,
  a bad substitution, ``${!x}`` naming nothing or no variable, ``${1:=x}``, ``m=([k]=v w)``)
  leave the shell at once under ``set -e``, even in an ``||`` / ``if`` context or a function
  called from one (``$?`` or 1); a builtin's own message (``declare: R: readonly``) does not;
* ``! cmd`` with ``set -e`` on ignores errexit for everything inside it (a function, a group,
  a subshell), even after a ``set -e`` there; with ``set -e`` off a ``set -e`` inside counts;
* ``${#a[@]}`` of an unset array under ``set -u`` abandons the line (status 1, the next line
  runs) unless ``set -e`` is on.

Each case compares stdout, status, files and stderr with bash (``shell_difftools.check``),
so no expected output is typed by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

ARITH_NOUNSET = [
    'set -euo pipefail\ndeclare -A count\nfor w in alpha beta alpha; do\n'
    '  (( count[$w]++ )) || true\ndone\necho "${count[alpha]} ${count[beta]}"\n'
    '(( count[delta]++ ))\necho never',
    'set -u; declare -A c=([y]=1); k=x; (( c[$k]++ )); echo "${c[x]}"\n'
    '[[ c[zz] -eq 0 ]] && echo zero; let "c[q] += 2"; echo "${c[q]}" $(( c[nope] + 1 ))',
    'set -u; a=(); (( a[3]++ )); echo "rc=$? ${a[3]}"; x=5; echo $(( x[3] + 1 ))',
    'set -u; declare -A m=([a]=1); unset "m[a]"; echo $(( m[b] ))\n'
    'declare -n r=arr; arr=(1); echo $(( r[4] ))',
    'set -u; declare -A c; (( c[x]++ )); echo never',
    'set -u; f() { local -a la; echo $(( la[1] )); }; f; echo never',
    'set -u; a=(1 2); unset a; echo $(( a[0] ))',
    'set -u; declare x; echo $(( x[1] ))',
    'set -u; declare -n r=nothing; echo $(( r[4] ))',
    'set -u; declare -n r=nothing; echo $(( r ))',
]

EXPANSION_NOUNSET = [
    'set -euo pipefail\ndeclare -A prio=([high]=3 [low]=1)\nfor t in high:a urgent:b; do\n'
    '  p=${t%%:*}; echo "${prio[$p]}"\ndone\necho never',
    'set -u; declare -A m=([a]=1); k=z; echo "${m["$k"]}"',
    'set -u; declare -A m=([a]=1); k=z; x=${m[${k}x]}',
    'set -u; declare -A m=([a]=1); echo "${m[$(echo q)]^^}"',
    'set -u; a=(1); k=5; echo "${a[$k]:1}"',
    'set -u; a=(1); k=5; echo "${a[$k]@Q}"',
    'set -u; a=(1); k=5; echo "${a[$k]/x/y}"',
    'set -u; declare -A m=([a]=1); k=z; echo "${#m[$k]}" "${m[$k]:-d}"; a=(1); echo ${#a[5]}',
    'set -u; echo ${#zz[1]}',
    'set -u; x=1; echo ${#x[3]}',
    'set -u; declare -A m; echo ${#m[k]}',
    'set -u; declare -n r=arr; arr=(1); k=4; echo "${r[$k]}"',
    'set -u; declare -n r=nothing; echo $r',
    'set -u; declare -n r=nothing; echo ${#r}',
    'set -u; declare -n r=nothing; echo ${r:1}',
    'set -u; f() { local -n a=$1; echo "${#a[@]}"; }; f nope',
    'set -u; zz=nope; echo ${!zz}',
    'set -u; a=(1); k=5; echo "${!a[$k]}"',
    'set -u; a=(1); echo "${!a[3]:-x}"; b=(x); x=5; echo "${!b[0]}"',
    'a=(1); echo "${!a[3]:-x}[${!a[3]}]"; echo "${!zz[2]}"',
]

SYNTAX_AFTER_ERREXIT = [
    'set -euo pipefail\necho "line 2"\ncase x in\n  x) echo x ;;\nesac )\necho never',
    'set -e\necho a )',
    'set -e; echo a\necho b )',
    'echo a\nset -e\necho b )',
    'set -e\n[[ a = ]]\necho x',
    'set -e\n[[ a b ]]',
    'set -e\nx=$(echo )\n echo )',
    'set -e\necho $(echo ))',
    'set -e\necho "abc',
    'set -e\n! true\necho "abc',
    'set -e\nfor i in 1; do\n  echo $i )\ndone',
    'set -e\necho @(a|b)',
    'true\necho @(a|b)',
    'set -e; echo a )',
]


@needs_bash
@pytest.mark.parametrize("script", ARITH_NOUNSET)
def test_nounset_array_element_in_arithmetic(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", EXPANSION_NOUNSET)
def test_nounset_message_names_parameter_as_written(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", SYNTAX_AFTER_ERREXIT)
def test_syntax_error_with_errexit_on(script: str) -> None:
    dt.check(script)


_OR_BRANCH = 'set -e\n{}' + ' || echo "or-branch $?"\necho after $?'
REPORT_ERROR_ERREXIT = [_OR_BRANCH.format(e) for e in (
    'declare -r R=1; R=2', 'readonly R=1; R=2 echo cmd', 'readonly R=1; R+=x',
    'readonly R=1; read R <<< x', 'readonly R=1; for R in 1; do :; done',
    'readonly R=1; printf -v R x', 'readonly R=1; export R=2',
    'readonly R=1; mapfile R < /dev/null',
    'readonly R=1; f() { R=2; echo inf; }; f', 'readonly R=1; (exit 4) || R=2',
    'readonly R=1; x=$(R=2; echo in); echo "x=$x"', 'readonly R=1; echo "$(R=2; echo in)"',
    'a=(1); echo ${a[-5]}', 'a=(1); a[-5]=2', 'echo ${a[@]x}', 'echo ${1:=x}',
    'x="a b"; echo ${!x}',
    'echo ${!nope}', 'declare -A m; m=([a]=1 b)', 'declare -A m=([a]=1 b)',
    # not report_error: the line goes on (or the builtin fails)
    'declare -r R=1; declare R=2', 'declare -r R=1; unset R', 'readonly R=1; local R=3',
    'echo ${s:1:-5}', 'echo $(( 1/0 ))', 'cat < nothere', 'printf %d abc',
)] + [
    'set -euo pipefail\nf() { local -r y=2; y=5; echo "f never"; }\nf || echo "f failed rc=$?"\n'
    'echo never',
    'set -e\ntrap "echo trap \\$?" EXIT\nreadonly R=1\nif R=2; then echo then; fi\necho after',
]

NEGATED_ERREXIT = [
    'set -euo pipefail\nquiet() {\n  set -e\n  false\n  echo "inside"\n}\nquiet || echo failed\n'
    '! quiet\necho "negation rc=$?"\nquiet\necho never',
    'set -e\n! { set -e; false; echo inside; }\necho after',
    '! { set -e; false; echo inside; }\necho after',
    'q() { set -e; false; echo inq; }\n! q\necho after; false; echo never',
    'set -e\n! ( set -e; false; echo insub )\necho after',
    'set -e\n! { set +e; false; echo inside; }\nfalse; echo "off now"',
    'set -e\n! { echo $-; }\ntrap "echo ERR" ERR\n! { false; true; }\necho x',
    'trap "echo ERR" ERR\n! { false; true; }\necho x',
]

UNSET_ARRAY_LENGTH = [
    'set -uo pipefail\na=(1 2 3)\nunset a\necho "${#a[@]}"\necho "rc=$?"\necho "${a[@]}"\n'
    'echo "after empty: rc=$?"\nb=()\necho "${#b[@]} ${b[@]:-empty}"',
    'set -u\nf() { echo "${#a[@]}"; echo inf; }\nf\necho after $?',
    'set -u\nfor i in 1 2; do echo "${#a[@]}"; echo in; done\necho after $?',
    'set -u\n( echo "${#a[@]}"; echo in )\necho after $?\nx=$( echo "${#a[@]}"; echo in )\n'
    'echo after $? $x',
    'set -eu\n(exit 4) || echo ${#zz[@]}\necho after',
    'set -u\nf() { local -n r=$1; echo ${#r[@]}; echo in; }\nf nope\necho after $?',
]


@needs_bash
@pytest.mark.parametrize("script", REPORT_ERROR_ERREXIT)
def test_report_error_leaves_under_errexit(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", NEGATED_ERREXIT)
def test_negated_pipeline_ignores_errexit(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", UNSET_ARRAY_LENGTH)
def test_length_of_unset_array_under_nounset(script: str) -> None:
    dt.check(script)
