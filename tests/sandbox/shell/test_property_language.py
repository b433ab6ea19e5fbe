"""Property test of the language added for the Oils suite: generated scripts using case,
[[ ]], arrays (indexed and associative), declare, the new parameter expansions (${v:o:l},
${v^^}, ${!v}, ${a[@]}, ${v@Q}...), mapfile, read -a, printf -v and process substitution
behave exactly as in bash 5.2 (stdout, status, files). Derandomized (reproducible); the
count is ``SANDBOX_PROPERTY_EXAMPLES`` (default 1,500 scripts per test: 3,000 in CI)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

pytestmark = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

EXAMPLES = int(os.environ.get("SANDBOX_PROPERTY_EXAMPLES", "1500"))

VALUES = ["abc", "'a b'", "''", "Hello.World", "x.tar.gz", "'*'", "12", "-3", "ABC-def",
          "$'t\\tu'", "\"$v\""]
PATTERNS = ["a*", "*c", "'a b'", "[a-c]*", "?b?", "*.gz", "*", "H*", "[!x]*", "\"$v\"",
            "@(abc|12)", "+([0-9])", "*(a|b)c", "?(x).tar.gz", "!(abc)"]
REGEXES = ["^a", "b$", "^(a|H)(.*)$", "[0-9]+", "'a b'", "^x\\.(tar)\\.(gz)$", "\"$v\"",
           "([A-Z]+)-([a-z]+)", "^$"]
EXPANSIONS = ["${v:1}", "${v:1:2}", "${v: -2}", "${v:0:-1}", "${v^}", "${v^^}", "${v,,}",
              "${v,}", "${v^^[a-c]}", "${#v}", "${v@Q}", "${v@U}", "${v@L}", "${v@u}",
              "${!n}", "${a[0]}", "${a[1]}", "${a[-1]}", "${#a[@]}", "${!a[@]}", "\"${a[@]}\"",
              "${a[*]}", "\"${a[*]}\"", "\"${a[@]:1}\"", "\"${a[@]:1:1}\"", "${a[@]^^}",
              "\"${m[k]}\"", "${#m[@]}", "${a[@]/a/X}", "${a[@]#?}", "${v/#a/Z}", "${v/%c/Z}",
              "${u-unset}", "${u=set}", "${v+alt}", "${!v*}", "\"${@:2}\"", "${@: -1}", "${@:1:2}"]

value = st.sampled_from(VALUES)


def _simple() -> st.SearchStrategy[str]:
    return st.one_of(
        value.map(lambda v: f"v={v}"),
        st.lists(value, max_size=4).map(lambda vs: f"a=({' '.join(vs)})"),
        st.lists(value, max_size=2).map(lambda vs: f"a+=({' '.join(vs)})"),
        st.tuples(st.sampled_from(["0", "1", "3", "-1", "i+1"]), value).map(
            lambda t: f"a[{t[0]}]={t[1]}"),
        st.tuples(st.sampled_from(["k", "'x y'", "$v", "1"]), value).map(
            lambda t: f"m[{t[0]}]={t[1]}"),
        st.sampled_from(EXPANSIONS).map(lambda e: f"printf '<%s>' {e}; echo"),
        st.tuples(st.sampled_from(["==", "!="]), st.sampled_from(PATTERNS)).map(
            lambda t: f"[[ $v {t[0]} {t[1]} ]]; echo $?"),
        st.sampled_from(REGEXES).map(
            lambda r: f"[[ $v =~ {r} ]]; echo $? \"${{BASH_REMATCH[@]}}\" ${{#BASH_REMATCH[@]}}"),
        st.sampled_from(["[[ -n $v && $v < b ]]", "[[ ! -z $v || -f a.txt ]]",
                         "[[ ${#v} -gt 2 ]]", "[[ ( $v == a* ) && -d dir ]]",
                         "[[ 1 -eq 1 && ( 2 -lt 1 || a > A ) ]]", "[[ -v v ]]",
                         "[[ -v 'a[1]' ]]", "[[ $v ]]", "[[ -e nope ]]"]).map(
            lambda c: f"{c}; echo $?"),
        st.lists(st.sampled_from(PATTERNS), min_size=1, max_size=3).map(
            lambda ps: f"case $v in {'|'.join(ps)}) echo hit;; *) echo miss;; esac"),
        st.sampled_from([
            "case $v in a*) echo A ;& b*) echo B ;; *) echo C ;; esac",
            "case $v in *) echo one ;;& [A-Z]*) echo two ;;& *) echo three ;; esac",
            "case \"$v\" in '') echo empty ;; *' '*) echo space ;; esac",
            "declare -p a", "declare -p m", "declare -p v", "declare -a b=(1 2); declare -p b",
            "declare -i n=2+3; n+=4; echo $n", "declare -l lo=AbC; echo $lo",
            "declare -u up=aBc; echo $up", "unset 'a[0]'; declare -p a", "unset a; echo ${#a[@]}",
            "n=v; echo ${!n}", "printf -v w '%s|' \"${a[@]}\"; echo \"$w\"",
            "mapfile -t L < a.txt; declare -p L", "read -ra R <<< \"$v x  y\"; declare -p R",
            "for e in \"${a[@]}\"; do echo \"[$e]\"; done", "for k in \"${!m[@]}\"; do echo $k; done",
            "comm -12 <(sort a.txt) <(sort b.txt)", "while read -r l; do echo \"<$l>\"; done < <(cat a.txt)",
            "f() { local -a q=(x \"$v\"); echo ${#q[@]} ${q[1]}; }; f; echo ${#q[@]}",
            "(( a[0] += 2 )); echo ${a[0]}", "echo $(( ${#a[@]} * 2 ))",
            "shopt -s nullglob; echo none*; shopt -u nullglob; echo none*",
            "shopt -q extglob; echo $?", "set -- p 'q r' s; echo \"${@:2:1}\" $#",
            "type -t cd f case cat; echo $?", "command -v cd; echo $?",
        ]),
    )


def _compound(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(inner, inner).map(lambda t: f"if [[ $v == *a* ]]; then {t[0]}; else {t[1]}; fi"),
        st.tuples(inner, inner).map(lambda t: f"case $v in *.*) {t[0]} ;; *) {t[1]} ;; esac"),
        inner.map(lambda s: f"f() {{ declare -A m; m[k]=in; {s}; }}; f; echo \"${{m[k]}}\""),
        inner.map(lambda s: f"( {s} )"),
        inner.map(lambda s: f"for v in abc 'a b' x.tar.gz; do {s}; done"),
        inner.map(lambda s: f"y=$( {s} ); echo \"[$y]\""),
    )


scripts = st.recursive(_simple(), _compound, max_leaves=4)
PRELUDE = "shopt -s extglob\ndeclare -A m=([k]=v1 ['x y']=v2); a=(one 'two words' three); v=abc; i=1; set -- p 'q r' s; "


@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(scripts, min_size=1, max_size=3).map("; ".join))
def test_language_scripts_same_as_bash(script: str) -> None:
    problem = dt.compare(PRELUDE + script)
    assert problem is None, problem


@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(_simple(), min_size=2, max_size=5).map("\n".join))
def test_language_sequences_same_as_bash(script: str) -> None:
    problem = dt.compare(PRELUDE + script)
    assert problem is None, problem
