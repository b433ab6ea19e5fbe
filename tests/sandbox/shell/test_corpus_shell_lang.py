"""Differential tests against bash 5.2 from the shell-language corpus (scripts written the
way models write them over a memory directory): ``set -u`` with ``set -e`` (bash leaves with
1, not 127), ``$1``'s name in the unbound-variable message, ``${#a[@]}`` of an unset array,
``type`` of a function (its definition follows), ``set -o`` / ``set +o`` listings and an
unknown ``-o`` name (status 2), ``@K`` / ``@k`` of arrays, a negative subscript before the
first element (bash's warning), the here-document closed by the end of the script,
``declare -p`` of ``BASH_REMATCH`` / ``PIPESTATUS``, and a ``[[ ]]`` that does not parse
(bash's own messages; the status is ``$?``, not 2), and syntax errors bash names
differently (``if then``, ``f() echo hi``, ``echo >``, ``echo ${``, ``x=(a b``: status 1),
the variables bash sets at startup (``IFS``, ``OPTIND``, ``OSTYPE``), ``getopts``' usage
errors, ``${x?}`` / substring-length messages, and ``break`` in a function (no effect on the
caller's loop).

Each case compares stdout, status, files and stderr (``bash: line N:`` prefixes included) with
``shell_difftools.check``, so no expected output is typed by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")



def check_in_functions(script: str) -> None:
    """``dt.check`` for scripts whose messages come from inside a function."""
    ref, ours = dt.run_bash(script), dt.run_ours(script)
    where = f"\nscript:\n{script}\nbash stderr: {ref.stderr!r}\nours stderr: {ours.stderr!r}"
    assert (ours.stdout, ours.status, ours.files) == (ref.stdout, ref.status, ref.files), where
    assert ours.stderr == ref.stderr, where

UNBOUND = [
    'set -euo pipefail\necho "before"\necho "$undefined_var"\necho "after"',
    "set -e\nset -u; echo $x",
    "set -eu; x=$y",
    "set -eu; echo $((y+1))",
    'set -eu; echo "${a[1]}"',
    "set -e; echo ${x:?msg}",
    "set -eu; if echo $x; then :; fi; echo after",
    "set -eu; echo $x || echo alt",
    "set -eu; y=$(echo $x); echo after $?",
    "set -u; y=$(echo $x); echo after $?",
    "set -o pipefail\nset -u; echo $x",
    'set -u; echo "$1"',
    "set -u; echo $9",
    "set -u; echo ${1}",
    "set -u; echo ${1:0:2}",
    "set -u; echo $!",
    "set -u; echo ${#a[@]}; echo next $?",
    "set -u; declare -a a; echo ${#a[@]}; echo next $?",
    "set -u; a=(); echo ${#a[@]}; echo next $?",
    "set -eu; echo ${#z}",
]

TYPE_AND_SET = [
    "f() { :; }; type f",
    "f() { echo a; echo b; }; type -a f; type -t f",
    "greet() { echo \"hi $1\"; }; type greet echo",
    "set -o | grep -E '^(errexit|nounset|pipefail)'",
    "set -euo pipefail; set -o",
    "set -eu -o pipefail -C; set +o",
    "set -eo | grep errexit",
    "set -o nosuch; echo after $?",
]

TRANSFORMS = [
    'declare -A m; m[x]=1; m[y]=2; echo "[${m[@]@K}]"; echo "[${m[*]@K}]"',
    'declare -A m=([a]=1); printf "<%s>" "${m[@]@K}" "${m[@]@k}"; echo; declare -A e; echo "[${e[@]@K}]"',
    'a=(x "y z"); printf "<%s>" "${a[@]@k}"; echo; x=5; echo "${x@K}"',
    'declare -A m=(["a b"]=1); echo "${m[@]@K}"; echo "${m[a b]@K}"',
    'a=(1 2); echo "${a[1]@K}" "${a@K}" "${a[*]@K}"; echo "${a[7]@K}"',
]

NEGATIVE_INDEX = [
    'a=(x y); echo "${a[-3]}"; echo $?',
    'a=(x y); echo "${a[-2]}"',
    'a=(); echo "[${a[-1]}]"',
    'echo "${nosuch[-1]}"',
    'x=1; echo "${x[-2]}"',
    'set -u; a=(1); echo "${a[-2]}"; echo $?',
]

HEREDOC_EOF = [
    "cat <<EOF\na",
    "cat <<EOF\nunterminated\n",
    "echo 1 >&2\ncat <<EOF",
    "echo x; cat <<-EOF\n\ta",
    "cat <<EOF; echo $?\nx",
    "cat <<'EOF' >> notes.md\n- 2026-09-10: note\n",
]

SHELL_ARRAYS = [
    '[[ "ab" =~ ^(a)(b)?(c)?$ ]]; declare -p BASH_REMATCH',
    "true | false; declare -p PIPESTATUS",
    "x=$'a\"b'; [[ $x =~ .* ]]; declare -p BASH_REMATCH",
    "declare -p BASH_REMATCH; echo $?",
]

#: a ``[[ ]]`` that does not parse, on the script's first line (bash: `$?`, here 0)
BAD_CONDITIONALS = [
    "[[ a b ]]",
    "[[ 1 -eq ]]",
    "[[ -f ]]",
    "[[ -z && 1 ]]",
    "[[ a == ]]",
    "[[ a = b c ]]",
    "[[ a -eq 1 -o b ]]",
    "[[ -f a b ]]",
    "[[ x =~ ]]",
    "[[ a ) ]]",
    '[[ "$x" = "" ]',
    "if [[ $x == y ]; then echo y; fi",
    "[[ $n -gt ]] && echo big; echo after",
    "[[ a ]] ]]",
    "[[ -n $x && -z '' ]] && echo ok",
    "[[ ( a == a ) ]] && echo ok",
]

#: other syntax errors of the first line whose message or status was not bash's
SYNTAX_MESSAGES = [
    "if then", "if true; then fi", "f() echo hi", "f() echo hi; echo", "echo >", "cat <<",
    "cat < ", "echo >\n", "echo 2>", "echo a >&", "echo ${", 'echo "a ${x"', "a=${",
    "x=(a b", "x=(a\nb", "declare -a x=(a b", "local x=(a", "echo ${x:-",
]


@needs_bash
@pytest.mark.parametrize("script", SYNTAX_MESSAGES)
def test_syntax_error_messages(script: str) -> None:
    test_conditional_that_does_not_parse(script)

#: bash's startup variables: ``IFS`` is space, tab, newline (saved and restored by scripts)
DEFAULT_VARIABLES = [
    'echo "$IFS" | od -c | head -1',
    'f() { local IFS=,; echo "$*"; }; f a b c; echo "[$IFS]" | od -c | head -1',
    'OLDIFS=$IFS; IFS=,; x="a,b"; echo $x; IFS=$OLDIFS; y="c d"; for w in $y; do echo "<$w>"; done',
    'unset IFS; x="a b"; for w in $x; do echo $w; done; echo "[${IFS-unset}]"',
    "echo $OPTIND $OSTYPE; env | grep -c IFS",
    'saved="$IFS"; IFS=: read -r a b <<< "x:y"; IFS="$saved"; echo "$a $b"; set -- $a $b; echo $#',
]


@needs_bash
@pytest.mark.parametrize("script", DEFAULT_VARIABLES)
def test_startup_variables(script: str) -> None:
    dt.check(script)

GETOPTS_USAGE = [
    "getopts; echo rc=$?",
    "getopts a; echo $?",
    "getopts -x; echo $?",
    "getopts -- a o -a; echo $o",
    "getopts -ab o; echo $?",
]


@needs_bash
@pytest.mark.parametrize("script", GETOPTS_USAGE)
def test_getopts_usage(script: str) -> None:
    dt.check(script)

#: messages and effects bash gives that the sandbox worded or did otherwise
BUILTIN_ERRORS = [
    "echo ${x?}",
    "echo ${x:?}",
    "x=; echo ${x?}ok; echo ${x:?}",
    "f() { echo ${1?}; }; f",
    "s=abc; echo ${s:1:-5}",
    "a=(1 2 3); echo ${a[@]:1:-1}",
    "s=abcdef; n=-9; echo ${s:2:n}",
    "set -- a b; echo ${@:1:-1}",
    "f() { break; }; for i in 1 2; do f; echo $i; done",
    "f() { continue; }; for i in 1 2; do f; echo $i; done; echo end",
    "f() { for j in 1 2; do break 2; done; echo in-f; }; for i in 1 2; do f; echo $i; done",
    "export -f nosuchfn; echo rc=$?",
    "f() { :; }; export -f f; echo rc=$?; export -f f g; echo rc=$?",
]


@needs_bash
@pytest.mark.parametrize("script", BUILTIN_ERRORS)
def test_builtin_errors(script: str) -> None:
    check_in_functions(script)


@needs_bash
@pytest.mark.parametrize("script", SHELL_ARRAYS)
def test_declare_p_of_the_shells_arrays(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", BAD_CONDITIONALS)
def test_conditional_that_does_not_parse(script: str) -> None:
    """bash -c prints ``bash: -c: line 1: MESSAGE``, and so does the sandbox; the message
    and the status must be bash's."""
    ref, ours = dt.run_bash(script), dt.run_ours(script)
    assert (ours.stdout, ours.status) == (ref.stdout, ref.status), (script, ref, ours)
    assert ours.stderr == ref.stderr, (script, ref.stderr, ours.stderr)


@needs_bash
@pytest.mark.parametrize("script", UNBOUND)
def test_unbound_variables(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", TYPE_AND_SET)
def test_type_and_set_listings(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", TRANSFORMS)
def test_key_value_transforms(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", NEGATIVE_INDEX)
def test_negative_subscript_warning(script: str) -> None:
    dt.check(script)


@needs_bash
@pytest.mark.parametrize("script", HEREDOC_EOF)
def test_heredoc_closed_by_end_of_script(script: str) -> None:
    dt.check(script)
