"""Differential tests against bash 5.2 from the eighth shell-language corpus (scripts written
the way models write them over a memory directory):

* expansion errors after which bash abandons the rest of the line and goes on with the next
  one (``jump_to_top_level (DISCARD)``, status 1) rather than leave the shell:
  ``substring expression < 0``, ``${!x}`` naming nothing or no variable, ``${1:=x}``, the
  bad substitution ``${a[]}`` (named with the whole ``"..."`` string it is in);
* ``bad array subscript``: ``${m[$k]}`` with ``$k`` empty (a warning, the value empty),
  ``${a[i]}`` with ``i`` before the first element, ``m[$k]=1`` (the subscript as written);
* ``(( a[i++] += 5 ))`` and ``(( a[i++]++ ))`` evaluate the subscript once;
* ``$BASH_COMMAND`` (the command an ERR trap fired for, as bash prints it);
* ``break 0`` / ``continue 0`` leave every enclosing loop with status 1 (one message);
* ``m=([a]=1 word)``: the word as written in the message.

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

#: each error on its own line, in a function, in a loop and in a subshell: the rest of that
#: line is skipped, the next line runs with $? = 1
_AROUND = ('s=abc; a=(1 2)\n{0}; echo same-line\necho "next $?"\n'
           'f() {{ {0}; echo in-f; }}; f; echo after-f\n'
           'for i in 1 2; do {0}; echo "loop $i"; done; echo after-loop\n'
           '( {0}; echo in-sub ); echo "after-sub $?"\necho end')
DISCARDED = [_AROUND.format(e) for e in (
    'echo "${s:1:-5}"', 'echo ${a[@]:0:-3}', 'set -- x y; echo "${@:1:-3}"',
    'echo "${!nope}"', 'x="a b"; echo ${!x}', 'echo ${1:=x}', 'echo ${a[]}',
    'declare -A m; echo "${m[]}x"', 'echo "pre ${a[]:-d} post"',
)] + [
    'a=(1 2 3 4 5 6)\necho "${a[@]:2:-1}"\necho "rc=$?"',
    's=abc\necho "[${s:5}]" "[${s:1:0}]"\necho "${s:1:-5}"\necho "rc=$?"',
    'echo "${x!y}\\"q \\$ \\\\ z"; echo same\necho next',
]

SUBSCRIPTS = [
    'declare -A seen; key=""\nif [[ -n ${seen[$key]} ]]; then echo yes; else echo "no $?"; fi\n'
    'x=${seen[$key]}; echo "assign $?"\nseen[$key]=1; echo same-line\necho "after $?"',
    'declare -A seen\ndups=0\nwhile IFS= read -r line; do\n  key=${line,,}\n'
    '  if [[ -n ${seen[$key]} ]]; then ((dups++)); else seen[$key]=1; fi\n'
    'done < notes.md\necho "duplicates: $dups, unique: ${#seen[@]}"',
    'a=(1); i=-5; a[i]=1\na[$i]=2\na[ -5 ]=3\necho "${a[i]}" "${a[i+1]}" "${a[-1]}"',
    'declare -A m; k=""; m[$k]=1\nm[""]=1\nm[${k}]=1\nm[$k]+=x\necho "${m[""]}" ${m["$k"]}',
]

ARITH_ONCE = [
    'arr=(10 20 30); i=0; (( arr[i++] += 5 )); echo "${arr[*]} i=$i"\n'
    '(( arr[i++]++ )); echo "${arr[*]} i=$i"\n(( ++arr[i++] )); echo "${arr[*]} i=$i"',
    'arr=(1 2 3); i=0; (( arr[i++] = i )); echo "${arr[*]} i=$i"\n'
    'i=0; echo $(( arr[i+=1] *= 2 )) "${arr[*]} i=$i"\n(( 0 && arr[i++]++ )); echo "i=$i"',
    'a=(5 5); j=1; let "a[j--] -= 1"; echo "${a[*]} j=$j"\n'
    'declare -A m; k=x; (( m[$k]++ )); (( m[$k] += 2 )); echo "${m[x]}"',
]

BASH_COMMAND = [
    'trap \'echo "ERR at line $LINENO: $BASH_COMMAND"\' ERR\nls nosuch.md 2>/dev/null\n'
    'echo continuing\nfalse',
    'trap \'echo "[$BASH_COMMAND]"\' ERR\nx=$(false)\ny=$(true; false)\n(( x=1-1 ))\n'
    '((x=1-1))\n[[   -n ""  &&  1 -eq 2 ]]\n[[ -n "a  b" && 1 -eq 2 ]]\n'
    'grep -q zz notes.md; echo "$BASH_COMMAND"\na=1 echo "$BASH_COMMAND"',
    'f() { echo "in f: $BASH_COMMAND"; }; f\necho $(echo "$BASH_COMMAND")',
]

LOOP_COUNT = [
    'for i in 1 2; do break 0; done; echo "rc=$?"',
    'for i in 1 2; do for j in a b; do echo $i$j; continue 0; done; echo "outer $i"; done\n'
    'echo "rc=$?"',
    'for i in 1 2; do for j in a b; do echo $i$j; break -1; echo no; done; echo "outer"; done\n'
    'echo "rc=$?"\nwhile true; do break 0; done; echo "rc=$?"',
    'for ((i=0;i<3;i++)); do until false; do break 0; done; done; echo "rc=$?"\n'
    'for i in 1 2; do false; break; done; echo "rc=$?"',
]

ASSOC_WORDS = [
    'x=foo; declare -A m; m=([a]=1 "$x"); m=([a]=1 $x); m=([a]=1 plain)\n'
    'declare -A n=([a]=1 zz); m+=([b]=2 w); declare -p m n',
    'declare -A m\nm=([a]=1 [b])\necho "rc=$?"\ndeclare -p m',
]


@needs_bash
@pytest.mark.parametrize("script", DISCARDED)
def test_expansion_errors_abandon_the_line(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", SUBSCRIPTS)
def test_bad_array_subscripts(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", ARITH_ONCE)
def test_arith_subscript_evaluated_once(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", BASH_COMMAND)
def test_bash_command(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", LOOP_COUNT)
def test_loop_count_out_of_range(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", ASSOC_WORDS)
def test_assoc_literal_word_without_subscript(script: str) -> None:
    dt.check(script)
