"""bash's state variables and subshell statuses, against bash 5.2: ``$BASH_SUBSHELL`` (one
more in ``( )``, ``$( )`` and ``<( )``, not in a pipeline part or a function), ``$SHELLOPTS``
(the ``set -o`` options that are on), ``$BASHOPTS`` (the ``shopt`` ones), ``$MACHTYPE``,
``$HOSTTYPE``, ``$OPTERR``, ``${!BASH_VERSINFO[@]}``; and the status of a subshell that a fatal
expansion error (``set -u``, ``${x:?}``) ends: 1 in ``( )`` or a compound pipeline part, 127
for a simple command (as at the top level)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

SCRIPTS = [
    'echo "[$BASH_SUBSHELL] [$(echo $BASH_SUBSHELL)] [$( (echo $BASH_SUBSHELL) )]"\n'
    'echo $BASH_SUBSHELL | cat; (echo $BASH_SUBSHELL); cat <(echo $BASH_SUBSHELL)\n'
    'f() { echo $BASH_SUBSHELL; }; f; x=$(f); echo $x; ( (echo $BASH_SUBSHELL) | cat )',
    'echo "$SHELLOPTS"; set -euo pipefail; echo "$SHELLOPTS"; set +e -x; echo "$SHELLOPTS" 2>/dev/null',
    'echo "$BASHOPTS"; shopt -s nullglob extglob; echo "$BASHOPTS"; shopt -u cmdhist; echo "$BASHOPTS"',
    'echo "[$MACHTYPE] [$HOSTTYPE] [$OSTYPE] [$OPTERR] [${BASH_VERSINFO[*]}]"',
    'echo ${!BASH_VERSINFO[*]}; echo ${#BASH_VERSINFO[@]} ${BASH_VERSINFO[5]}; echo ${!FUNCNAME[@]}\n'
    'f() { echo ${!FUNCNAME[@]}; }; f; echo ${!RANDOM[@]}',
    '[[ $SHELLOPTS == *errexit* ]] || echo "no -e"; case :$BASHOPTS: in *:extglob:*) echo on;; *) echo off;; esac',
    '(set -u; : "$nope"); echo $?; (: ${x:?boom}); echo $?\n'
    '( set -u; echo "$nope" ) | cat; echo ${PIPESTATUS[@]}\n'
    'x=$(set -u; echo $nope); echo $?; (set -u; f() { echo $nope; }; f); echo $?',
    'echo ${x:?boom} | cat; echo ${PIPESTATUS[@]}; { echo ${x:?boom}; } | cat; echo ${PIPESTATUS[@]}\n'
    'f() { echo ${x:?b}; }; f | cat; echo ${PIPESTATUS[@]}\n'
    'for i in 1; do echo ${x:?c}; done | cat; echo ${PIPESTATUS[@]}',
    'set -e; (: ${x:?boom}) || echo "st $?"; ( exit 127 ) || echo "kept $?"',
]


@needs_bash
@pytest.mark.parametrize("script", SCRIPTS)
def test_state_variables_and_subshell_status_match_bash(script: str) -> None:
    dt.check(script, stderr=True)


#: ``${m[$k]OP...}`` with ``$k`` empty in an associative array (or an index before the first
#: element): bash warns ``m: bad array subscript`` under every operator, not only the bare one.
BAD_SUBSCRIPT = [
    'declare -A c; w=; echo "${c[$w]}"; x=${c[$w]:-0}; y=${c[$w]:+1}; z=${c[$w]-d}\n'
    'echo "[$x][$y][$z]"; echo ${c[$w]#a} ${c[$w]^^} ${c[$w],} ${c[$w]@Q} ${c[$w]:1} ${#c[$w]}',
    'a=(1 2); echo ${a[-5]:-neg} ${a[-5]/x/y} ${a[-9]:1} ${a[-9]^}',
    'set -e; declare -A c; w=; x=${c[$w]:-0}; echo after',
    'set -u; declare -A c=([a]=1); w=; echo ${c[$w]:-def}',
    'declare -A count=()\nwhile read -r w; do count[$w]=$(( ${count[$w]:-0} + 1 )); done <<< "a\n\nb"\n'
    'echo "${!count[@]}"',
]


@needs_bash
@pytest.mark.parametrize("script", BAD_SUBSCRIPT)
def test_bad_subscript_warnings_match_bash(script: str) -> None:
    dt.check(script, stderr=True)
