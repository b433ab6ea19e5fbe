"""Guard tests of the language constructs added for the Oils suite (case, [[ ]], shopt,
extglob): every command inside them is walked, a refused script runs nothing, and the
attacks on them end inside the limits with their message."""

from __future__ import annotations

import time

import pytest

from sandbox import Limits, Policy
from sandbox.api import Sandbox
from sandbox.guard import check
from sandbox.parse import parse_uncached


def violations(script: str, **policy) -> list[str]:
    return check(script, parse_uncached(script), Policy(**policy), "/")[0]


@pytest.mark.parametrize("script", [
    "case x in x) rm -rf / ;; esac",
    "case $(rm a) in x) : ;; esac",
    "case x in $(rm a)) : ;; esac",
    "case x in a|$(rm a)) : ;; esac",
    "case x in x) : ;& y) rm a ;;& esac",
    "[[ $(rm a) ]]",
    "[[ -n $(rm a) ]]",
    "[[ x == $(rm a) ]]",
    "[[ $(rm a) == x ]]",
    "[[ x =~ $(rm a) ]]",
    "[[ x =~ ^($(rm a))$ ]]",
    "[[ ! ( -z x || `rm a` ) ]]",
    "[[ 1 -eq $(( $(rm a) )) ]]",
    "[[ x ]] && rm a",
    "f() { case x in *) rm a;; esac; }",
    "[[ x ]] > $(rm a)",
])
def test_walks_case_and_dbracket(script: str) -> None:
    v = violations(script)
    assert any("`rm` is not an allowed command" in m for m in v), v


@pytest.mark.parametrize("script", [
    "case x in x) echo hi > out ;; esac",
    "[[ -f a ]] > out",
    "case x in x) : ;; esac > out",
])
def test_read_only_sees_writes_inside(script: str) -> None:
    v = violations(script, read_only=True)
    assert any("read-only" in m for m in v), v


def test_refused_script_runs_nothing(tmp_path) -> None:
    box = Sandbox({"/w": tmp_path}, cwd="/w")
    r = box.run("echo start > f; case x in x) rm f ;; esac")
    assert r.exit_code == 126 and not (tmp_path / "f").exists()
    r = box.run("touch g; [[ $(rm g) ]]")
    assert r.exit_code == 126 and not (tmp_path / "g").exists()


def test_expansion_in_extglob_group_is_refused() -> None:
    r = Sandbox({}).run("case x in @(a|$(rm a))) : ;; esac")
    assert r.exit_code == 2 and b"extglob group" in r.stderr


def test_shopt_is_a_builtin_now() -> None:
    assert violations("shopt -s extglob nullglob; shopt -p") == []


def test_catastrophic_extglob_ends_fast() -> None:
    box = Sandbox({}, limits=Limits(seconds=5))
    script = ("shopt -s extglob\ns=$(printf 'a%.0s' {1..3000})b; "
              "[[ $s == +(a|aa)+(a|aa) ]] && echo y || echo n; "
              "case $s in *(a|aa|aaa)) echo y ;; *) echo n ;; esac")
    t = time.monotonic()
    r = box.run(script)
    assert time.monotonic() - t < 5
    assert r.stdout == b"n\nn\n", r


def test_regex_backtracking_bounded() -> None:
    box = Sandbox({}, limits=Limits(seconds=3))
    t = time.monotonic()
    r = box.run("s=$(printf 'a%.0s' {1..5000}); [[ ${s}b =~ ^(a|aa)*(a|aa)*c$ ]]; echo $?")
    assert time.monotonic() - t < 4
    assert r.stdout == b"1\n" or r.exit_code == 124 or b"limit" in r.stderr, r


# -- arrays, declare, parameter expansions ------------------------------------------------


@pytest.mark.parametrize("script", [
    "a=($(rm a))",
    "a=([$(rm a)]=1)",
    "a=([k]=$(rm a))",
    "a[$(rm a)]=1",
    "a[1]=$(rm a)",
    "echo ${a[$(rm a)]}",
    "echo ${a[$(( $(rm a) ))]}",
    "echo ${v:$(rm a):1}",
    "echo ${v:1:$(rm a)}",
    "echo ${v^^$(rm a)}",
    "echo ${!v:-$(rm a)}",
    "local a=($(rm a))",
    "declare -A m=([k]=$(rm a))",
    "declare x=$(rm a)",
    "export x=$(rm a)",
    "readonly r=$(rm a)",
    "declare a[$(rm a)]=1",
])
def test_walks_arrays_and_declare(script: str) -> None:
    v = violations(script)
    assert any("`rm` is not an allowed command" in m for m in v), v


def _run(script: str, seconds: float = 5.0):
    box = Sandbox({}, limits=Limits(seconds=seconds))
    t = time.monotonic()
    r = box.run(script)
    return r, time.monotonic() - t


def test_huge_brace_array_stops_at_the_brace_limit() -> None:
    r, took = _run("a=({1..99999999}); echo ${#a[@]}")
    assert r.exit_code == 125 and b"brace expansion limit" in r.stderr and took < 5


def test_huge_sparse_index_is_cheap() -> None:
    r, took = _run("x[2**62]=1; x[-1]=2; echo ${#x[@]} ${!x[@]}")
    assert r.stdout == b"1 4611686018427387904\n" and took < 2, r


def test_array_element_limit() -> None:
    r, took = _run("i=0; while :; do a[i++]=x; done", seconds=20)
    assert r.exit_code == 125 and b"limit" in r.stderr, r


def test_declare_nameref_cycle_is_one_warning() -> None:
    r, _ = _run("declare -n a=b b=a; echo $a")
    assert r.exit_code == 0 and r.stderr == b"bash: line 1: warning: a: circular name reference\n", r


def test_indirection_is_one_level() -> None:
    r, took = _run("a=b; b=a; echo ${!a} ${!b}")
    assert r.stdout == b"a b\n" and took < 2


def test_readonly_assignment_is_fatal_like_bash() -> None:
    r, _ = _run("readonly r=1; r=2; echo after")
    assert r.exit_code == 1 and r.stdout == b"" and b"r: readonly variable" in r.stderr


# -- process substitution, mapfile, read -a, printf -v -------------------------------------


@pytest.mark.parametrize("script", [
    "cat <(rm a)",
    "diff <(cat x) <(rm a)",
    "while read l; do :; done < <(rm a)",
    "cat <(cat <(rm a))",
    "mapfile -t a < <(rm a)",
    "printf -v x %s $(rm a)",
    "read -a a <<< $(rm a)",
])
def test_walks_process_substitution(script: str) -> None:
    v = violations(script)
    assert any("`rm` is not an allowed command" in m for m in v), v


def test_process_substitution_is_internal(tmp_path) -> None:
    box = Sandbox({"/w": tmp_path}, cwd="/w", policy=Policy(allow=frozenset({"cat", "sort"})))
    r = box.run("echo <(echo x); cat <(printf 'b\\na\\n' | sort)")
    assert r.stdout == b"/dev/fd/63\na\nb\n" and list(tmp_path.iterdir()) == []


def test_mapfile_from_endless_pipe_ends_at_the_limit() -> None:
    box = Sandbox({}, policy=Policy(allow=frozenset({"yes", "seq"})), limits=Limits(seconds=10))
    t = time.monotonic()
    r = box.run("seq 1 999999999 | mapfile a; echo ${#a[@]}")
    assert time.monotonic() - t < 10
    assert b"limit" in r.stderr, r



# -- type / command -v: reporting only --------------------------------------------------------


@pytest.mark.parametrize("script", ["command rm a", "command cat a", "command -p cat a",
                                    "command -- cat a", "x=-v; command $x cat"])
def test_command_runs_nothing(script: str) -> None:
    v = violations(script)
    assert any("`command` is not allowed" in m for m in v), v


def test_command_v_and_type_only_report() -> None:
    assert violations("command -v jq cat rm; command -V ls; type -t rm") == []
    box = Sandbox({}, policy=Policy(allow=frozenset({"cat"})))
    r = box.run("command -v cat rm nosuch; echo $?; type -t cat rm")
    assert r.stdout == b"/usr/bin/cat\n1\nfile\n", r


# -- Policy(dynamic=True): every string and name checked when it runs ---------------------


def _dyn(tmp_path, script: str, **policy):
    box = Sandbox({"/w": tmp_path}, cwd="/w", policy=Policy(dynamic=True, **policy))
    return box.run(script)


def test_dynamic_off_by_default() -> None:
    for script in ["eval 'echo x'", "source f", ". f", "bash -c 'echo x'", "read c; $c x"]:
        assert violations(script), script


def test_dynamic_strings_are_guarded_when_they_run(tmp_path) -> None:
    (tmp_path / "keep").write_text("k")
    r = _dyn(tmp_path, "echo before; eval 'rm keep'; echo after $?")
    assert r.stdout == b"before\nafter 126\n" and (tmp_path / "keep").exists()
    assert b"`rm` is not an allowed command" in r.stderr
    r = _dyn(tmp_path, "c=rm; $c keep; echo $?")
    assert r.stdout == b"126\n" and (tmp_path / "keep").exists()
    r = _dyn(tmp_path, "bash -c 'rm keep'; echo $?")
    assert r.stdout == b"126\n" and (tmp_path / "keep").exists()
    (tmp_path / "s.sh").write_text("rm keep\n")
    r = _dyn(tmp_path, "source s.sh; echo $?")
    assert r.stdout == b"126\n" and (tmp_path / "keep").exists()


def test_dynamic_read_only_holds(tmp_path) -> None:
    r = _dyn(tmp_path, "eval 'echo x > out'; c=touch; $c out2; echo done", read_only=True)
    assert not (tmp_path / "out").exists() and not (tmp_path / "out2").exists()
    assert r.stdout.endswith(b"done\n")


def test_dynamic_runs_what_is_allowed(tmp_path) -> None:
    r = _dyn(tmp_path, "x='echo hi'; eval \"$x\"; c=echo; $c dyn; bash -c 'echo $1' n one; "
             "f() { echo f$1; }; eval f 2")
    assert r.stdout == b"hi\ndyn\none\nf2\n", r


def test_dynamic_bash_only_with_c(tmp_path) -> None:
    assert violations("bash script.sh", dynamic=True)


def test_getopts_set_f_set_C_tilde(tmp_path) -> None:
    box = Sandbox({"/w": tmp_path}, cwd="/w", env={"HOME": "/h"},
                  policy=Policy(allow=frozenset({"cat"})))
    r = box.run("x=a:~/b; echo $x; set -f; echo *; set +f; set -C; echo a > f; echo b > f; "
                "cat f; while getopts 'ab:' o -a -b v; do echo $o ${OPTARG-}; done")
    assert r.stdout == b"a:/h/b\n*\na\na\nb v\n", r
    assert b"f: cannot overwrite existing file" in r.stderr


@pytest.mark.parametrize("script", [
    "set -- a b; echo ${@:1:-1}", "a=(1 2); echo ${a[@]:0:-1}", "echo ${v:1:-9}",
    "[[ a =~ ( ]]; echo $?", "a[-9]=1", "declare -A m; m[]=1", "echo ${v@Z}", "declare -i n='1/0'",
    "echo ${!x}", "x=1bad; echo ${!x}", "cat <()", "mapfile -d", "getopts", "printf -v 'a[' x",
    "(( a[ ))", "declare -a a=([-1]=x)", "${x^^[}", "readonly a=(1); a[0]=2",
])
def test_bad_input_is_one_line_never_internal(script: str) -> None:
    box = Sandbox({}, limits=Limits(seconds=3))
    r = box.run(script)
    assert b"internal error" not in r.stderr and b"Traceback" not in r.stderr, r


def test_xtrace_like_bash() -> None:
    r = Sandbox({}).run("set -x; x='a b'; echo \"$x\" '' f=g; z=1 true; set +x; echo off")
    assert r.stdout == b"a b  f=g\noff\n"
    assert r.stderr == b"+ x='a b'\n+ echo 'a b' '' f=g\n+ z=1\n+ true\n+ set +x\n", r
