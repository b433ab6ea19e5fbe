"""Property test: scripts generated from a grammar of the supported features behave exactly
as in bash (stdout, exit status, files). Derandomized, so a run is reproducible; a failure
prints the script and the command that reproduces it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

pytestmark = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

WORDS = ["a", "'b c'", '"$x"', "$x", "${x:-dflt}", "${x:+alt}", "${#x}", "${x%.*}", "${x#*.}",
         "${x//a/o}", '"${x}y"', "*.txt", "d*/*", "{1..3}", "{p,q}", "$(echo sub)", "`echo bq`",
         "$?", "$#", '"$@"', "$1", "\\$", "$'t\\tu'", "''", "x.y.z", "-n", "1", "2"]
VALUES = ["a.b.c", "'a b'", "''", "banana", "$x$x", "$(echo v)", "'*'", "1"]

word = st.sampled_from(WORDS)
words = st.lists(word, min_size=0, max_size=4).map(" ".join)


def _simple() -> st.SearchStrategy[str]:
    return st.one_of(
        words.map(lambda w: f"echo {w}"),
        words.map(lambda w: f"printf '<%s>\\n' {w}"),
        st.sampled_from(VALUES).map(lambda v: f"x={v}"),
        st.tuples(word, st.sampled_from(["=", "!="]), word).map(lambda t: f"[ {t[0]} {t[1]} {t[2]} ]"),
        st.sampled_from(["true", "false", "cat a.txt", "cat nums.txt", "set -- 1 '2 3'",
                         "shift", "unset x", "cat nope.txt", "wc -l < a.txt", "echo $x >> out.txt",
                         "echo hi > out.txt", "cat out.txt", "read -r x < b.txt", "cd dir",
                         "local y=1"]),
    )


def _compound(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(inner, inner, inner).map(lambda t: f"if {t[0]}; then {t[1]}; else {t[2]}; fi"),
        st.tuples(words, inner).map(lambda t: f"for v in {t[0]}; do {t[1]}; done"),
        inner.map(lambda s: f"{{ {s}; }}"),
        inner.map(lambda s: f"( {s} )"),
        st.tuples(inner, st.sampled_from(["cat", "wc -l", "head -n 1"])).map(lambda t: f"{t[0]} | {t[1]}"),
        st.tuples(inner, st.sampled_from(["&&", "||", ";"]), inner).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        inner.map(lambda s: f"! {s}"),
        inner.map(lambda s: f"f() {{ {s}; }}; f 1 2"),
        inner.map(lambda s: f"y=$( {s} ); echo \"[$y]\""),
    )


scripts = st.recursive(_simple(), _compound, max_leaves=6)


@settings(max_examples=120, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(scripts, min_size=1, max_size=3).map("; ".join))
def test_generated_scripts_same_as_bash(script: str) -> None:
    problem = dt.compare(script)
    assert problem is None, problem
