"""Differential tests against bash 5.2 from the twelfth shell-language corpus (scripts written
the way models write them over a memory directory):

* ``$_``: the last word of the simple command before (``mkdir -p d && cd "$_"``), empty
  after assignments only, untouched by ``(( ))``, ``[[ ]]``, subshells and pipelines;
* ``unset 'a[@]'`` / ``unset 'a[*]'`` empty an indexed array (an associative one loses the
  key ``@``; a scalar is ``not an array variable``);
* ``type`` / ``command -V``: what was printed for the names before a ``not found`` comes
  first under ``2>&1``;
* ``$'\\xc3\\xa9'`` (and ``${v@E}``) is the one character the bytes spell (``${#v}``,
  ``declare -p``);
* subscripts of array literals and assignments: ``["q\\"z"]`` and ``[$'a\\tb']``;
* ``$BASHPID`` differs in a subshell (``$$`` does not);
* ``cd ""`` and ``cd -`` with an empty ``$OLDPWD`` succeed (``$OLDPWD`` becomes the
  directory);
* ``local`` outside a function says so before looking at its options;
* ``${BASH_REMATCH[@]:1}``, ``${PIPESTATUS[@]:1}`` slice those arrays; ``${s[@]:0:1}`` of a
  scalar is its substring;
* ``declare -g`` while a caller's ``local`` hides the global sets the global;
* ``unset x`` of a caller's local shows the value of the scope before it again;
* NUL bytes in a command substitution's output are dropped, with bash's warning;
* ``OPTERR=0`` silences getopts' messages;
* ``for x in a b; { ...; }`` (bash's brace body);
* ``set`` without arguments lists the variables (``name=value`` quoted as bash quotes them)
  and the functions;
* ``read`` from a closed descriptor (``<&-``): bash's ``read error: 0: Bad file descriptor``
  (``-u 0``: ``invalid file descriptor``; ``-n 0``: status 1, no message);
* ``declare -f`` / ``type`` print ``(( ))``, subshells (``f() ( ... )`` too), arithmetic
  ``for``, ``[[ ]]`` (its ``( )`` kept, ``[[ x ]]`` as ``-n x``), ``time``, ``|&`` and the
  redirections ``&>`` ``&>>`` ``>|`` ``<>`` as bash does;
* ``$SRANDOM``: a new 32-bit random number each time (assignments are ignored);
* ``export -f``: ``declare -F`` shows ``-fx``, ``export -f`` lists them, ``export -nf``
  (letters together) and ``unset -f`` take the attribute away;
* a syntax error inside ``name=( ... )`` drops the top-level command it is in (all its
  lines) with status 1, and the script goes on with the next line (``set -e``: leaves, 2).

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

LAST_ARG = [
    'echo a b >/dev/null; echo "$_"',
    'mkdir -p new/sub && cd "$_" && pwd | sed "s|.*/||"',
    'cp a.txt dir/ && cat "$_"a.txt',
    'echo x >/dev/null; y=1; echo "[$_]"; arr=(1 2); echo "[$_]"',
    'echo a "b c" >/dev/null; f() { echo "in:$_"; echo z >/dev/null; }; f farg; echo "$_"',
    'echo q >/dev/null; (( 1 + 1 )); [[ -n x ]]; echo "$_"',
    'echo q >/dev/null; echo p | cat >/dev/null; ( echo s >/dev/null ); echo "$_"',
    'true x; { echo grp >/dev/null; }; echo "$_"; for i in 1 2; do :; done; echo "$_"',
    'echo r >/dev/null; $empty; echo "[$_]"; set -- a1 a2; echo "$_"',
    'echo s >/dev/null; echo "$(echo t >/dev/null; echo "in:$_")"; echo "$_"',
    'echo u >/dev/null; declare -x v=1; echo "$_"; false ww || echo "$_"',
    'echo "$_"; for i in 1; do break; done; echo "$_"; >/dev/null; echo "[$_]"',
    'nosuch 2>/dev/null; echo "$_"; x=1 true; echo "$_"; echo "${_}" "$_x"',
    'shopt -s lastpipe; echo a b | read x; echo "$_"',
    'declare -p | grep "^declare -- _="',
]

UNSET_ALL = [
    'a=(1 2 3); unset "a[@]"; declare -p a; a+=(z); declare -p a',
    'a=(1 2 3); unset a[@]; echo "${#a[@]}"; b=(1 2); unset "b[*]"; declare -p b',
    'declare -A n=([x]=1 ["@"]=2 ["*"]=3); unset "n[@]"; declare -p n; unset "n[*]"; declare -p n',
    's=str; unset "s[@]"; echo "rc=$?"; declare -p s; unset "s[0]"; declare -p s',
    'unset "nope[@]"; echo "rc=$?"; f() { local -a l=(1 2); unset "l[@]"; declare -p l; }; f',
]

TYPE_ORDER = [
    'type echo nope cd 2>&1',
    'type echo cd ls if f 2>&1 | cat; echo "rc=$?"',
    'command -V echo nope cd 2>&1 | cat',
    'f() { :; }; type f nope f 2>&1',
]

ANSI_C_BYTES = [
    r"z=$'caf\xc3\xa9'; echo ${#z}; declare -p z; echo \"${z@Q}\"",
    r"y='caf\xc3\xa9 \xe9'; z=${y@E}; echo ${#z}; declare -p z",
    r"z=$'\xe9\xc3'; declare -p z; echo ${#z}; w=$'\u00e9\xa9'; declare -p w; echo ${#w}",
]

SUBSCRIPT_QUOTES = [
    r'''declare -A m=(["q\"z"]=2 ["a b"]=1); declare -p m''',
    r'''declare -A m; m["q\"z"]=2; declare -p m; echo "${m["q\"z"]}"''',
    r'''declare -A m=([a\ b]=1 ['x]y']=2 ["p]q"]=3); declare -p m''',
    r'''declare -A m=([$'t\tk']=1); declare -p m; m[$'a\nb']=2; declare -p m; echo "${m[$'a\nb']}"''',
]

BASHPID = [
    'x=$BASHPID; y=$$; [[ $x == "$y" ]] && echo same; (z=$BASHPID; [[ $z != "$y" ]] && echo sub)',
    'x=$BASHPID; a=$(echo $BASHPID); [[ $a != "$x" ]] && echo cs; '
    'echo $BASHPID | { read p; [[ $p != "$x" ]] && echo pipe; }; [[ $BASHPID == "$x" ]] && echo back',
]

CD_EMPTY = [
    'cd dir; OLDPWD=; cd -; echo "rc=$?"; pwd | sed "s@.*/@@"; echo "[${OLDPWD##*/}]"',
    'cd dir; cd ""; echo "rc=$?"; pwd | sed "s@.*/@@"; echo "[${OLDPWD##*/}]"',
    'cd -; echo "rc=$?"',
]

LOCAL_OUTSIDE = [
    'local -Q x; echo "rc=$?"; local -p; echo "rc=$?"; local; echo "rc=$?"',
    'f() { local -Q x; }; f; echo "rc=$?"',
]

SPECIAL_SLICES = [
    '[[ abc =~ (b)(c) ]]; echo "${BASH_REMATCH[@]:1}" "${BASH_REMATCH[*]:0:2}" '
    '"${#BASH_REMATCH[@]}" "${BASH_REMATCH[@]/b/X}" "${!BASH_REMATCH[@]}"',
    '[[ "2024-01-15" =~ ^([0-9]{4})-([0-9]{2})-([0-9]{2})$ ]] && echo "${BASH_REMATCH[@]:1}"; '
    'x=("${BASH_REMATCH[@]:2:1}"); declare -p x',
    'false | true; echo "${PIPESTATUS[@]:1}" "${PIPESTATUS[@]: -1}"',
    'a=(1 2 3); declare -n r=a; echo "${r[@]:1}"; s=abc; echo "${s[@]:0:1}" "${s[*]:1}" '
    '"${s[@]: -2:1}" "${s[@]:0:-1}"; declare -n q=s; echo "${q[@]:1}"',
    's=abc; echo "${s[@]:1:-5}"; echo next',
]

DECLARE_GLOBAL = [
    'f() { declare -g GV=inner; }; g() { local GV=loc; f; echo "in g: $GV"; }; g; echo "global: $GV"',
    'GV=0; g() { local GV=loc; declare -g GV=new; echo "$GV"; }; g; echo "$GV"',
    'g() { local -a A=(1); declare -gA A; A[x]=1; declare -p A; }; g; declare -p A',
    'g() { local n=1; declare -gi n=2+3 m=4; echo $n; }; g; echo $n $m; declare -p n',
    'h() { declare -g arr=(a b); }; g() { local arr=x; h; echo "$arr"; }; g; declare -p arr',
    'f() { local v=l; declare -g v; declare -p v; }; v=glob; f; declare -p v',
]

UNSET_CALLERS_LOCAL = [
    'x=global; f() { local x=f; g; }; g() { local x=g; h; }; '
    'h() { echo $x; unset x; echo "${x-unset}"; unset x; echo "${x-unset}"; unset x; '
    'echo "${x-unset}"; }; f; echo "${x-gone}"',
    'x=g; f() { local x=f; g; echo "f sees ${x-unset}"; }; g() { unset x; echo "g sees ${x-unset}"; '
    'x=new; }; f; echo "$x"',
    'f() { local -i n=5; g; n=2+2; echo $n; }; g() { unset n; }; n=0; f; echo $n',
    'f() { local -a a=(1 2); g; declare -p a; }; g() { unset a; }; a=(x); f; declare -p a',
    'f() { local x=1; unset x; echo "${x-unset}"; x=2; g; }; g() { echo $x; unset x; '
    'echo "${x-u}"; }; x=glob; f; echo $x',
]

NUL_IN_SUBSTITUTION = [
    "x=$(printf 'a\\0b'); echo \"${#x}\"",
    "echo \"$(printf 'x\\0y\\0')\" | od -An -c",
    "printf 'a\\0b' > z.bin; x=$(< z.bin); echo ${#x}",
    "f() { x=$(printf '\\0q'); echo $x; }; f 2>&1",
    "x=$(printf '\\0' 2>/dev/null); echo \"[$x]\"; { y=$(printf '\\0'); } 2>/dev/null; echo ok",
]

OPTERR = [
    'OPTERR=0; while getopts "a" o -b; do echo "o=$o"; done; echo "OPTARG=${OPTARG-unset}"',
    'OPTERR=0; while getopts "a:" o -a; do echo "o=$o ${OPTARG-u}"; done',
    'OPTERR=1; getopts a o -b; OPTERR=x; getopts a o -c; echo $o; unset OPTERR; OPTIND=1; '
    'getopts a o -d',
]

FOR_BRACE_BODY = [
    'for i in 1 2; { echo "brace-in $i"; }',
    'for i in a; {\necho $i\n}; f() { for x; { echo $x; }; }; f p q',
]

SET_LISTING = [
    "x=1; y=\"a b\"; z=\"it's\"; n=$'l1\\nl2'; e=; declare u; declare -a ea; a=(1 \"2 3\"); b=(); "
    "declare -A m=([k]=v [\"a b\"]=2); declare -i i=3; q='$x'; t='a~b'; w=\"~x\"; s=\"'\"; "
    "set | grep -E '^(x|y|z|n|e|u|ea|a|b|m|i|q|t|w|s)='; f() { echo hi; }; set | tail -4",
    'set | grep ^IFS=; set | grep ^OPTIND; set | grep -c "^_="',
    'f() { local lv=1; set | grep ^lv=; }; f; x=1; (set | grep ^x=)',
]

READ_CLOSED = [
    'read x <&-; echo "rc=$?"',
    'read -u 0 x <&-; echo $?; read -n1 x <&-; echo $?; read -n0 x <&-; echo $?',
    'exec 0<&-; read x; echo $?; read y; echo $?',
    'while read l; do echo $l; done <&-; echo $?; f() { read x; echo $?; }; f <&-',
    'mapfile -t a <&-; echo "rc=$? ${#a[@]}"; mapfile -u 0 -t a <&-; echo "rc=$?"',
    'read -n 0 y < a.txt; echo $? "[$y]"; read -u 1 x >&-; echo $?',
]

FUNCTION_PRINTING = [
    'f() { for (( i = 0 ; i < 3 ; i++ )); do :; done; for ((;;)); do break; done; '
    'for ((i=0;i<2;i++)) { echo; }; }; declare -f f',
    'f() { ((i++)); (( a = b + 1 )); ((  x  ));  }; declare -f f',
    'f() { ( cd /; pwd ) > /dev/null; (echo a); ( (echo b) ); }; declare -f f; type f',
    'f() ( echo subshell-body ); declare -f f; g() ( cd dir ) > /dev/null; declare -f g',
    'f() { if (( x > 1 )); then (echo y); fi; while ((i<3)); do ((i++)); done; }; declare -f f',
    'f() { [[ ! -f x || ( -n $a && $b != "q r" ) ]]; [[ $x =~ ^a.*$ ]]; [[ a<b ]]; '
    '[[ -n  "$1" ]]; }; declare -f f',
    'f() { [[ x ]]; [[ ! x ]]; [[ ! ( a == b ) ]]; [[ ( ( x ) ) ]]; [[ a && b || c ]]; '
    '[[ a && ( b || c ) ]]; }; declare -f f',
    'f() { while IFS= read -r line || [[ -n $line ]]; do echo "$line"; done < "${1:-/dev/stdin}"; '
    '}; declare -f f',
    'f() { [[ $a == @(x|y) ]] && [[ "$b" =~ ^(a|b)$ ]]; [[ -e a.txt ]] > /dev/null; }; type f',
    'f() { echo a &>> log; cat 2>&1 >/dev/null; echo b >| c; cat <> d; cat 3<>e; '
    'echo &>/dev/null y; }; declare -f f',
    'f() { time true; time -p ls; ! true; time ! true; ! ls | wc; }; declare -f f',
    'f() { ls |& cat; ls 2>/dev/null |& cat | wc; }; declare -f f',
]

SRANDOM = [
    'echo $SRANDOM | grep -cE "^[0-9]+$"; a=$SRANDOM; b=$SRANDOM; [[ $a != "$b" ]] && echo differ; '
    'SRANDOM=5; [[ $SRANDOM != 5 ]] && echo ignored; (( SRANDOM < 4294967296 )) && echo range',
    'unset SRANDOM; SRANDOM=5; echo $SRANDOM',
]

EXPORTED_FUNCTIONS = [
    'f(){ :; }; g(){ :; }; export -f f g; declare -F; export -nf g; declare -F; unset -f f; '
    'f(){ echo; }; declare -F; export -f f; f(){ echo 2; }; declare -F; (declare -F); export -f',
    'f() { export -f f 2>/dev/null; declare -F f; }; f; export -f f; declare -F | grep " f$"',
    'f(){ :; }; export -f f; unset f; declare -F; export -f nope; echo $?',
    'export -q x; echo $?; export -xq y; echo $?; x=1; export -np x; declare -p x',
]

ARRAY_SYNTAX_ERROR = [
    'f() {\n  x=( a ; b )\n  echo in\n}\nf\necho end',
    'x=(a;b) ; echo same\necho next; x=(c|d)\necho third',
    'if true; then x=(a;b); echo in; fi\necho after',
    'echo a; x=(a\n;b)\necho after',
    'x=( 1 2; echo $x',
    'set -e\necho s\nx=(a;b)\necho after',
    'x=(a&b)\necho $?\ny=(1 2)\necho ${y[1]}',
    'x=(a;b)\nx=(c;d)\necho $?\necho 1\nx=(a;b)\nfi\necho no',
]


@needs_bash
@pytest.mark.parametrize("script", LAST_ARG)
def test_last_argument(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", UNSET_ALL)
def test_unset_every_element(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", TYPE_ORDER)
def test_type_output_order(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", ANSI_C_BYTES)
def test_ansi_c_bytes_make_characters(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", SUBSCRIPT_QUOTES)
def test_subscript_quotes(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", BASHPID)
def test_bashpid_in_subshells(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", CD_EMPTY)
def test_cd_empty_target(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", LOCAL_OUTSIDE)
def test_local_outside_function(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", SPECIAL_SLICES)
def test_slices_of_special_arrays_and_scalars(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", DECLARE_GLOBAL)
def test_declare_global_under_a_local(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", UNSET_CALLERS_LOCAL)
def test_unset_callers_local(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", NUL_IN_SUBSTITUTION)
def test_nul_in_command_substitution(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", OPTERR)
def test_opterr_zero(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", FOR_BRACE_BODY)
def test_for_brace_body(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", SET_LISTING)
def test_set_lists_variables(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", READ_CLOSED)
def test_read_from_closed_descriptor(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", FUNCTION_PRINTING)
def test_function_printing(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", SRANDOM)
def test_srandom(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", EXPORTED_FUNCTIONS)
def test_exported_functions(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", ARRAY_SYNTAX_ERROR)
def test_array_assignment_syntax_error_reads_on(script: str) -> None:
    dt.check(script)
