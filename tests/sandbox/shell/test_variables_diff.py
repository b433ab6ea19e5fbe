"""Differential tests of variables against real bash 5.2: namerefs (``declare -n``,
``local -n``, cycles), ``declare``/``readonly`` attributes and ``declare -p`` output,
temporary bindings (``A=1 B=$A cmd``, ``A=1 f``), assignment errors (bash abandons the rest
of the line), arrays through namerefs; hand-written scripts and seeded generated ones.
stdout and status are compared, stderr too where bash's message is deterministic
(byte for byte). Attack tests: nameref cycles, huge sparse
arrays, a million-element array literal, each ending inside the limits with its message.

``VARIABLES_DIFF_SCALE=N`` multiplies the number of generated scripts (CI: 1)."""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

pytestmark = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

SCALE = int(os.environ.get("VARIABLES_DIFF_SCALE", "1"))


def check(script: str, stderr: bool = True) -> None:
    """Assert bash and the sandbox agree on stdout and status (and stderr if asked)."""
    ref = dt.run_bash(script)
    ours = dt.run_ours(script)
    where = f"\nscript:\n{script}\nbash stderr: {ref.stderr!r}\nours stderr: {ours.stderr!r}"
    assert ours.stdout == ref.stdout, f"stdout: bash {ref.stdout!r} ours {ours.stdout!r}{where}"
    assert ours.status == ref.status, f"status: bash {ref.status} ours {ours.status}{where}"
    if stderr:
        assert ours.stderr == ref.stderr, where


NAMEREFS = [
    "x=1; declare -n r=x; echo $r ${r} ${#r}; r=5; echo $x; declare -p r x",
    "a=(1 2 3); declare -n ra=a; echo ${ra[@]} ${#ra[@]} ${!ra[@]} ${ra[1]} ${ra[-1]}\n"
    "ra+=(4); ra[0]=z; echo ${a[@]}; echo ${!ra}",
    "f() { local -n arr=$1; arr+=(x); echo \"${arr[@]}\"; local -n s=$2; s=hello; }\n"
    "a=(1 2); f a y; echo $y ${a[@]}; declare -p a y",
    "x=1; declare -n r=x; unset r; echo \"x=${x-unset}\"; declare -p r",
    "declare -n e; e=foo; declare -p e; e=bar; echo $foo; declare -p foo",
    "declare -A m=([k]=v); declare -n rm=m; echo ${rm[k]}; rm[j]=w; echo ${#m[@]}",
    "a=A; b=B; declare -n r; for r in a b; do echo $r; done; declare +n r; declare -p r",
    "declare -n s=s; echo $?",
    "declare -n t=1bad; echo $?",
    "declare -n u=x[1]; u=5; declare -p x u; echo $u",
    "declare -n q1=q2 q2=q1; echo \"[$q1]\"",
    "declare -n q1=q2 q2=q1; q1=3; echo same line\necho next line $?",
    "x=1; declare -n r=x; declare -n r2=r; echo $r2; r2=7; echo $x",
    "x=1; declare -n r=x; unset -n r; echo ${r-unset} $x",
    "x=1; declare -n r=x; [[ -v r ]] && echo set; unset x; [[ -v r ]] || echo unset",
    "x=1; declare -n r=x; printf -v r '%s-%s' a b; echo $x; read r <<< line; echo $x",
    "x=5; declare -n r=x; (( r++ )); echo $x $(( r * 2 ))",
    "x=abc; declare -n r=x; echo ${r^^} ${r:1} ${r/b/B} ${#r}",
    "declare -ia n=(1 2); declare -n r=n; r[1]+=5; echo ${n[@]}",
    "x=1; declare -n r=x; declare r=9; echo $x; declare -p r",
    "g() { local v=inner; local -n r=v; echo $r; }; v=outer; g; echo $v",
    "a=(1 2); declare -n r=a; declare -n r2=r; echo ${#r2[@]} ${r2[1]}",
    "declare -n r=x; r=(1 2); declare -p x r",
    "declare -A A=([K]=val); declare -n ref='A[\"K\"]'; echo $ref; ref=v2; key=K\n"
    "declare -n r2='A[$key]'; echo $r2; r2=v3; echo ${A[@]}",
    "declare -A A=([K]=val); ref='A[\"K\"]'; echo ${!ref}; key=K; ref='A[$key]'; echo ${!ref}",
    "declare -A m=([K]=v); printf -v 'm[\"K\"]' '/%s/' 2; k=K; printf -v 'm[$k]' '<%s>' 3; "
    "declare -p m",
    "declare -A m=([e]='' [k]=v); k=e; test -v 'm[$k]'; echo $?; k=z; test -v 'm[$k]'; echo $?",
    "declare -A m=([K]=v [J]=w); unset -v 'm[\"K\"]'; k=J; unset 'm[$k]'; echo ${#m[@]}",
    "foo=bar; a=('1 2' foo '2 3'); echo \"${!a[1]}\"; declare -A m=([k]=foo); echo ${!m[k]}",
    "B=(b   \"c d\"  [k]=v) printenv B; f() { echo \"$B\"; }; B=(1 2) f; B=(x) declare -p B",
    "declare -A m=(k v k2 v2); declare -p m; declare -A n=(k v k2); declare -p n",
    "declare -A q=([x]=1 y 2); declare -p q",
    "f() { local -; set -e; set -u; echo $-; }; f; echo $-",
    "f() { local - ; set -o pipefail; shopt -o pipefail; }; f; shopt -o pipefail",
    "echo $-; set -efuC; echo $-; set +efuC; echo $-",
    "f() { echo a; }; declare -F; declare -F f; declare -F nope; echo $?",
    "f() { local x=1; local -p; }; f; declare -A m; declare -a m; echo $?; declare -p m",
    "declare -ai a=(1+1 3); declare -p a; declare -ax b=(1); declare -p b; declare -ar c=(x)\n"
    "declare -p c; f() { declare -g G=1; local L=2; }; f; declare -p G; declare -p L",
    "x=$'a\\nb\\tc\"d$e`f\\\\g'; declare -p x; declare -a a=([5]=x [2]='y z'); a+=([1]=w)\n"
    "declare -p a; declare -i i=5; i=i+1; declare -p i",
    "declare -l L=HeLLo; L+=ABC; echo $L; declare -u U; U=abc; echo $U; declare -p L U",
]

DECLARES = [
    "declare -a arr1; readonly -a arr2; declare -A d1; readonly -A d2; declare -p arr1 arr2 d1 d2",
    "declare -a a; a=(); declare -p a; declare -A m; m[x]=1; declare -p m",
    "declare -i n=2+3; declare -l l=ABC; declare -u u=abc; declare -p n l u; n+=4; echo $n",
    "declare -x e=1; declare -rx f=2; declare -p e f; declare +x e; declare -p e",
    "declare x; declare -p x; x=; declare -p x",
    "f() { local -i k=3*3; declare -p k; }; f; declare -p k; echo $?",
    "readonly r=1; r=2; echo same line\necho next $?",
    "readonly r=1; declare r=2; echo st=$?; export r=3; echo st=$?",
    "readonly r=1; r=2 echo tmp; echo st=$?",
    "readonly r=1\n(r=2; echo no); echo st=$?\necho \"$(r=3; echo no)\" st=$?",
    "readonly r=1\nf() { r=2; echo in; }\nf; echo after\necho next",
    "readonly r=1; (( r = 2 )); echo st=$?",
    "declare -ar A=(1 2); A[0]=1; echo no\nA+=(3); echo no\necho ${A[@]}",
    "declare -Ar B\nB['x']=1\necho status=$?",
    "y=(1 2); y[-9]=1; echo no\necho next\ny[-1]=z; echo ${y[@]}",
    "a=(1 2)\na[0]=(3 4)\necho \"status=$?\"; declare -p a\na[1]=(5); echo no",
    "FOO=foo BAR=\"[$FOO][$BAZ]\" BAZ=baz printenv FOO BAR BAZ",
    "x=global\nf() { echo x=$x; x=mutated; echo x=$x; unset x; echo x=$x; }\nx=temp f\necho x=$x",
    "g() { printenv F G; }; f() { G=[$F] g; printenv F G; }; F=f f",
    "for 1 in a; do echo no; done; echo st=$?\nfor a-b in x; do :; done\necho $?",
]

SPECIALS = [
    "RANDOM=42; echo $RANDOM $RANDOM $RANDOM; RANDOM=0; echo $RANDOM; RANDOM=12345; echo $RANDOM",
    "echo $LINENO\necho $LINENO\nf() {\n  echo $LINENO\n}\nf\nx=$LINENO; echo $x",
    "f() { echo ${FUNCNAME[@]} ${#FUNCNAME[@]}; g; }\ng() { echo ${FUNCNAME[@]} ${BASH_LINENO[@]}; }\nf",
    "f() { caller; echo st=$?; caller 0; echo st=$?; caller 1; echo st=$?; }\nf\ng() { f; }\ng",
    "caller; echo $?; f() { caller x; echo $?; caller 1 2; echo $?; caller -1; echo $?; }; f",
    "echo ${FUNCNAME-unset} ${#FUNCNAME[@]}; SECONDS=10; echo $SECONDS",
    "echo $BASH_VERSION ${BASH_VERSINFO[0]} ${BASH_VERSINFO[@]:0:2} ${#BASH_VERSINFO[@]}",
    "for i in 1 2; do\n echo $LINENO\ndone\ncat <<EOF\n$LINENO\nEOF\necho $(echo $LINENO)",
    "[[ $BASHPID == $$ ]] && echo same; (( UID == EUID )) && echo ids",
    "unset RANDOM; echo ${RANDOM-unset}; RANDOM=5; echo $RANDOM; unset SECONDS; echo ${SECONDS-u}",
    "x=1\ny=$((LINENO + 1))\necho $y",
]

ERREXIT = [
    "set -e; { false && true; }; echo survived $?",
    "set -e; f() { false && true; }; f; echo no",
    "set -e; for i in 1; do false && true; done; echo survived $?",
    "set -e; case a in a) false && true;; esac; echo survived $?",
    "set -e; f() { false; echo x; }; ! f; echo survived $?",
    "set -e; ! ( false; echo x ); echo survived $?",
    "f() { set -e; false; echo x; }; ! f; echo after; false; echo no",
    "f() { set -e; false; echo x; }; if f; then :; fi; echo survived $?",
    "set -e; if { echo 1; ! set +o errexit; echo 2; }; then echo 3; fi; false; echo 4",
    "set -e; x=$(false; echo inner); echo \"survived $x\"",
    "set -e; shopt -s inherit_errexit; x=$(false; echo inner); echo \"no $x\"",
    "set -e; { echo in; } < /nonexistent; echo no",
    "set -e; while read x; do :; done < /nonexistent; echo no",
    "set -e; (( 0 )); echo no",
    "set -e; g() { false; echo in-g; }; f() { g; echo in-f; }; f || echo caught",
    "set -e; true | false; echo no",
    "set -e; false | true; echo survived",
]


@pytest.mark.parametrize("script", NAMEREFS)
def test_namerefs(script: str) -> None:
    check(script)


@pytest.mark.parametrize("script", DECLARES)
def test_declare_and_bindings(script: str) -> None:
    check(script)


@pytest.mark.parametrize("script", SPECIALS)
def test_special_variables(script: str) -> None:
    check(script)


@pytest.mark.parametrize("script", ERREXIT)
def test_errexit(script: str) -> None:
    check(script)


# -- generated ------------------------------------------------------------------------------

_VALUES = ["1", "two", "'a b'", "''", "x*", "3"]


def _statement(rng: random.Random, names: list[str]) -> str:
    """One random operation on a small set of variables, namerefs and arrays."""
    n, m = rng.choice(names), rng.choice(names)
    v = rng.choice(_VALUES)
    return rng.choice([
        f"{n}={v}",
        f"declare -n {n}={m}",
        f"declare +n {n}",
        f"{n}=({v} {rng.choice(_VALUES)})",
        f"{n}+=({v})",
        f"{n}[{rng.randint(0, 3)}]={v}",
        f"unset {n}",
        f"unset -n {n}",
        f"echo \"[${{{n}}}] [${{{n}[@]}}] ${{#{n}[@]}}\"",
        f"echo \"${{!{n}[@]}}\"",
        f"declare -p {n} 2>/dev/null || echo no {n}",
        f"[[ -v {n} ]]; echo v=$?",
        f"declare -i {n}; {n}+=2",
        f"readonly {n}2={v}",
        f"f() {{ local -n rr={n}; rr={v}; echo \"${{rr}}\"; }}; f",
    ])


def _script(rng: random.Random) -> str:
    names = rng.sample(["a", "b", "c", "r"], 3)
    lines = [_statement(rng, names) for _ in range(rng.randint(3, 8))]
    lines.append("declare -p " + " ".join(names) + " 2>&1")
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(4 * SCALE))
def test_generated(seed: int) -> None:
    rng = random.Random(7000 + seed)
    scripts = [_script(rng) for _ in range(25)]
    for k, script in enumerate(scripts):
        # each script in its own bash -c (assignment errors end lines, cycles warn)
        ref, ours = dt.run_bash(script), dt.run_ours(script)
        assert (ours.stdout, ours.status) == (ref.stdout, ref.status), (
            f"case {k}:\n{script}\nbash: {ref.stdout!r} {ref.status}\n"
            f"ours: {ours.stdout!r} {ours.status}\nbash stderr: {ref.stderr!r}\n"
            f"ours stderr: {ours.stderr!r}")


# -- attacks --------------------------------------------------------------------------------

def _timed(script: str) -> tuple[dt.Outcome, float]:
    start = time.monotonic()
    out = dt.run_ours(script)
    return out, time.monotonic() - start


def test_nameref_cycle_ends_with_bash_message() -> None:
    out, took = _timed("declare -n a=b b=a; echo \"[$a]\"; a=1; echo never")
    assert out.stdout == b"[]\n" and out.status == 1 and took < 5
    assert out.stderr == (b"bash: line 1: warning: a: circular name reference\n" * 2)


def test_long_nameref_chain_is_cut_like_bash() -> None:
    chain = "; ".join(f"declare -n v{k}=v{k + 1}" for k in range(50))
    check(chain + "; v50=end; echo \"[$v0] [$v3]\"", stderr=False)


def test_huge_sparse_array_stays_small() -> None:
    out, took = _timed("x[2**62]=1; x[-1]=z; x[2**62-5]=y; echo ${#x[@]} ${!x[@]} ${x[@]}")
    assert out.stdout == b"2 4611686018427387899 4611686018427387904 y z\n" and took < 5


def test_million_element_literal_stops_at_the_limit() -> None:
    out, took = _timed("a=($(seq 1000000)); echo ${#a[@]}")
    assert out.status != 0 and b"array size limit" in out.stderr and took < 30
    assert b"Traceback" not in out.stderr


# -- Policy(dynamic=True) ---------------------------------------------------------------------

def _run_dynamic(script: str, allow: frozenset[str] | None = None) -> dt.Outcome:
    """``run_ours`` with ``Policy(dynamic=True)`` (and an optional narrower allowlist)."""
    import tempfile
    from sandbox.api import Sandbox
    from sandbox.fs.local import LocalDir
    from sandbox.policy import Policy
    with tempfile.TemporaryDirectory() as d:
        sb = Sandbox({dt.MOUNT: LocalDir(Path(d))}, cwd=dt.MOUNT,
                     policy=Policy(allow=allow or dt.all_commands(), dynamic=True))
        r = sb.run(script)
        return dt.Outcome(r.stdout, r.stderr, r.exit_code, {})


DYNAMIC = [
    "for i in 1 2 3; do echo $i; builtin break; done; command echo after",
    "f() { for i in 1 2; do builtin command return 9; done; }; f; echo $?",
    "command builtin exit 5; echo no",
    "f() { echo func; }; command f; echo $?; builtin f; echo $?",
    "set -e; echo a; setopt FOO; echo no",
    "nonexistent_cmd_zz arg; echo st=$?; 'for' x; echo st=$?",
    "c=echo; $c hi; \"$c\" there; set -- printf '%s\\n' a b; \"$@\"",
    "eval 'x=1; echo $x'; readonly r=1; eval 'r=2; echo no'; echo after $?",
    "bash -c 'echo $0 $1 $#' name one two; sh -c 'exit 7'; echo $?",
    "bash -c 'readonly r=1; r=2; echo no\necho next'; echo $?",
    "eval 'echo $LINENO'\necho $LINENO\neval $'echo $LINENO\\necho $LINENO'",
    "bash -c 'echo $LINENO\necho $LINENO'; echo $LINENO",
    "declare -A m=([K]=v [J]=w); unset -v 'm[$(echo K)]'; echo ${#m[@]} ${!m[@]}",
    "declare -A m=([K]=v); test -v 'm[`echo K`]'; echo $?",
]


@pytest.mark.parametrize("script", DYNAMIC)
def test_dynamic_policy(script: str) -> None:
    ref, ours = dt.run_bash(script), _run_dynamic(script)
    assert (ours.stdout, ours.status) == (ref.stdout, ref.status), (
        f"{script}\nbash: {ref.stdout!r} {ref.status} {ref.stderr!r}\n"
        f"ours: {ours.stdout!r} {ours.status} {ours.stderr!r}")


def test_dynamic_command_still_checks_the_allowlist() -> None:
    out = _run_dynamic("command rm -f x; builtin echo no", allow=frozenset({"echo"}))
    assert out.status == 126 and out.stdout == b"" and b"`rm` is not an allowed" in out.stderr


@pytest.mark.parametrize("script", [
    "/bin/true; echo $?; /bin/false; echo $?; /usr/bin/printf '%s\\n' x",
    "/usr/bin/env printf 'a\\n'; set -e; /bin/false; echo no",
])
def test_command_by_standard_path(script: str) -> None:
    check(script)


def test_standard_path_is_checked_as_its_name(tmp_path: Path) -> None:
    from sandbox.api import Sandbox
    from sandbox.policy import Policy
    sb = Sandbox({"/w": str(tmp_path)}, cwd="/w", policy=Policy(allow=frozenset({"echo"})))
    r = sb.run("/bin/rm -f x; /bin/echo no")
    assert r.exit_code == 126 and r.stdout == b"" and b"`rm` is not an allowed" in r.stderr
    r = sb.run("/home/x/rm -f x")
    assert r.exit_code == 126 and r.stdout == b""


def test_dynamic_subscript_code_is_guarded() -> None:
    out = _run_dynamic("declare -A m=([K]=v); unset 'm[$(rm x)]'; echo ${#m[@]}",
                       allow=frozenset({"echo"}))
    assert out.stdout == b"1\n" and b"`rm` is not an allowed command" in out.stderr


def test_default_policy_never_runs_subscript_code() -> None:
    out = dt.run_ours("declare -A m=([K]=v); unset 'm[$(echo K)]'; echo ${#m[@]}")
    assert out.stdout == b"1\n" and out.status == 0
