"""Differential tests against bash 5.2 of this session's shell-language work: device nodes
(``test -c /dev/zero``; reading them is in ``test_endless_devices.py``), a redirection from a
directory (bash opens it; each reader reports its read error), character ranges whose text
bash reads again (``{Z..a}`` holds a backslash and a backquote), backquoted bodies that do
not parse (bash says so when the substitution runs), and the latency work's fast paths
(redirections, process substitutions, tildes).

stdout and status are compared, and stderr with bash's ``bash: line N:`` prefix normalised to
ours where the message is deterministic.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

from sandbox import Limits, Policy  # noqa: E402
from sandbox.api import Sandbox  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")
check = dt.check


DEVICES = [
    "test -c /dev/zero; echo $?; test -c /dev/null; echo $?; [ -c /dev/urandom ]; echo $?",
    "test -f /dev/zero; echo $?; test -e /dev/random; echo $?; [[ -c /dev/zero ]] && echo c",
    "test -S /dev/zero; echo $?; test -d /dev; echo $?; test -c /dev/nothing; echo $?",
    "[ -r /dev/zero ] && echo r; [ -w /dev/urandom ] && echo w; [ -s /dev/zero ]; echo $?",
    "echo x > /dev/zero; echo $?; echo y >> /dev/urandom; echo $?; printf z > /dev/random; echo $?",
    "for d in /dev/zero /dev/null /dev/urandom /dev/random; do [ -c $d ] && echo $d; done",
]

DIRECTORY_INPUT = [
    "mapfile x < ./dir; echo status=$? ${#x[@]}",
    "read x < dir; echo status=$?",
    "readarray -t a < dir; echo ${#a[@]} $?",
    "x=$(< dir); echo \"[$x]\" $?",
    ": < dir; echo $?",
    "cat < dir; echo status=$?",
    "while read l; do echo $l; done < dir; echo $?",
    "exec 3< dir; echo $?; read -u 3 x; echo $?",
    "exec 3<> dir; echo $?",
    "grep x < dir; echo $?",
    "{ read a; echo $?; } < dir; echo after",
]

CHAR_RANGES = [
    "echo {Z..a}",
    "echo {a..Z}",
    "echo \"a\"{Z..a}",
    "echo x{Z..a}",
    "printf '<%s>' {Z..a}; echo",
    "printf '<%s>' {a..Z..2}; echo",
    "echo -{z..A}-; echo not reached",
    "echo -{z..A..2}-",
    "echo {Z..a}y; echo not reached",
    "echo {A..z} | wc -w",
    "echo {Z..^} {[..]} {_..a}",
    "a=({Z..a}); echo ${#a[@]}",
    "echo {z..a..5} {A..Z..7}",
]

BACKTICKS = [
    "x=`echo \"`; echo \"st=$?\"",
    "echo `echo \"` ; echo \"st=$?\"",
    "x=`if`; echo \"st=$?\"",
    "x=`echo )`; echo \"st=$?\"",
    "x=\"`echo \"`\"; echo \"st=$?\"",
    "echo `echo \\\\\\\\\"`; echo $?",
    "echo a `echo b` c `echo \"` d; echo $?",
    "echo `echo 'a` b; echo $?",
]

FAST_PATHS = [
    "echo a > f; echo b >> f; cat f; echo c > f; cat f",
    "echo a > ./f; echo b >> d/../f; cat f; echo $?",
    "echo x > .hidden; cat .hidden; mkdir -p .d; echo y > .d/z; cat .d/z",
    "echo x > dir; echo $?; echo y >> dir; echo $?",
    "set -C; echo a > f; echo b > f; echo $?; echo c >| f; cat f",
    "echo x > ''; echo $?",
    "f() { echo in f; }; f > out; cat out; f >> out; cat out",
    "cat <(echo a) <(echo b); echo <(:) <(:); cat <(echo c)",
    "f() { cat \"$@\"; echo <(:); }; f <(echo x) <(echo y)",
    "HOME=/hm; x=~; y=a:~; echo ${#x} $y; echo ~ a=~ b=~:c",
    "HOME=/hm; echo '~' \"~\" ~/x x~ ~-; HOME=/h; echo ~ ~/a",
    "echo a*b '[x' \\[y; echo *.txt",
    "exec 3> f3; echo a >&3; echo b > f; cat f3 f; exec 3>&-",
    "echo a 2> e > o; cat o; ls e",
    "{ echo a; echo b >&2; } > o 2>&1; cat o",
    "RANDOM=7; a=$RANDOM; RANDOM=7; b=$RANDOM; [ $a = $b ] && echo same; (echo $RANDOM) >/dev/null",
    "f() { declare x=1; local y; declare -a z=(1 2); declare -p x y z; }; f; declare -p x",
    "f() { local -; set -e; }; f; echo $-; (declare q; declare -p q)",
    "unset RANDOM; RANDOM=abc; echo $RANDOM; ( unset SECONDS; SECONDS=x; echo $SECONDS )",
]

ARITH_BRACKET = [
    "echo $[1+2] $[ 1 + 2 ] $[2*(3+1)] \"$[5/2]\" $[ $[1+1] * 3 ]",
    "a=(5 6); echo $[a[1]+1] $[a[0]*a[1]]; x=$[ 7 ]; echo $x; echo $[ ]",
    "x=3; echo $[x*2] $[ \"$x\" + 1 ] \"${x}$[x]\" $[x<<2] $[x>2?10:20]",
    "echo $[1/0]; echo not reached",
    "echo $[1+]; echo next",
    "echo $[1+2",
    "cat <<E\n$[2+2] \\$[1]\nE",
    "i=0; while [ $i -lt 3 ]; do i=$[i+1]; done; echo $i",
]

PROMPTS = [
    "y=hi; for x in 'a\\\\b' '\\\\$y' '\\q' '\"$y\"' '${y}x' '\\\\\\\\' 'a\\'; do "
    "printf '%s => [%s]\\n' \"$x\" \"${x@P}\"; done",
    "x='\\s \\v \\V \\j \\l \\! \\# [\\[a\\]] \\101 $((1+2)) \\n|'; echo \"${x@P}\"",
    "HOME=$PWD; x='\\w|\\W'; echo \"${x@P}\"; cd dir; echo \"${x@P}\"; cd sub; echo \"${x@P}\"",
    "cd /; x='\\w|\\W'; HOME=/; echo \"${x@P}\"",
    "x=(a '\\s b' '\\v'); echo \"${x[@]@P}\"; printf '<%s>' \"${x[@]@P}\"; echo",
    "x='\\e[1m\\a\\r'; printf %s \"${x@P}\" | od -c",
    "x='${#HOME} $((2*3)) ${y:-d}'; HOME=/abc; echo \"${x@P}\"",
]

EXTGLOB = [
    "x=a; [[ $x == @(a|b) ]] && echo yes; [[ ab == +(a|b) ]] && echo two",
    "p='@(a|b)'; [[ a == $p ]] && echo y; case a in $p) echo c;; *) echo n;; esac",
    "x=ab; echo ${x/@(a|b)/Z} ${x#*(a)} ${x%%+(b)}\nshopt -s extglob\necho ${x/@(a|b)/Z} ${x#*(a)}",
    "x=aaa; echo ${x//+(a)/-} ${x^^@(a)} ${x^+(a)} ${x,,?(A)}",
    "touch 'x(a)' a b; p='*(a)'; echo $p; p='@(a|b)'; echo $p\nshopt -s extglob\necho $p",
    "echo a\necho @(a)\necho not reached",
    "echo a; echo @(a)\necho not reached",
    "shopt -s extglob; case a in @(a|b)) echo y;; esac",
    "shopt -s extglob\ncase a in @(a|b)) echo y;; esac\nshopt -u extglob\necho *(x)",
    "f() { echo hi; }\nif true; then\n  shopt -s extglob\n  case a in +(a)) echo y;; esac\nfi",
    "shopt -s extglob\nf() { case $1 in @(x|y)) echo m;; *) echo n;; esac; }\nshopt -u extglob\nf x; f z",
    "x='a(b)c'; echo ${x#*(b)} ${x%@(b)c}",
    "[[ abc == !(x)c ]] && echo neg; [[ a =~ (a|b) ]] && echo re",
]


@needs_bash
@pytest.mark.parametrize("script", EXTGLOB)
def test_extglob_only_where_bash_reads_it(script: str) -> None:
    check(script, stderr=False)  # (a syntax error is the sandbox's own line)

FUNCTIONS = [
    "f1() { echo hi; }",
    "f2() { local x=1; echo \"$x\" | tr a b && echo ok || echo no; }",
    "f3() { if [ -n \"$1\" ]; then echo a; elif true; then echo b; else echo c; fi; }",
    "f4() { for i in 1 2 3; do echo $i; done; while read l; do echo \"$l\"; done < file; "
    "until false; do break; done; }",
    "f5() { case $1 in a|b) echo ab;; *) echo other; echo two;; esac; }",
    "f6() { x=$(ls); y=`pwd`; echo ${x:-d} > out 2>&1; cat <<< \"$y\" >> log; }",
    "f9() { echo a; echo b\necho c; }",
    "f10() { ! true; echo $? ; }",
    "f13() { echo a >&2; echo b 2>/dev/null; exec 3>&1; cat <&3 0<x; }",
    "function f14 { echo x; }",
    "f17() { :; }",
    "f18() { if true; false; then { echo in; echo two; }; fi; X=1 Y=\"a b\" env | grep -c X; }",
    "f19() { for f in *.txt \"a b\" 'c'; do if [ -f \"$f\" ]; then cat \"$f\"; fi; done | sort; }",
    "f20() { while true; do case $x in *) break;; esac; done; echo 'single' \"dq $x\" \\$; }",
    "f21() { if true; then :; elif false; then :; elif :; then echo 3; fi; }",
    "f22() { { echo a; } > o; while :; do break; done 2> e; }",
    "f23() { echo 1>x 2>y 0<z; cat 1>>a; while true; false; do :; done; }",
]


@needs_bash
@pytest.mark.parametrize("body", FUNCTIONS)
def test_declare_f_prints_as_bash(body: str) -> None:
    name = body.split("(")[0].split()[-1]
    check(f"{body}\ndeclare -f {name}; typeset -f {name} nope; echo $?; declare -f | wc -l")


#: (subshells, ``[[ ]]``, ``(( ))`` and arithmetic ``for`` print now: test_corpus_lang12.py)
REFUSED_BODIES = ["f() { cat <<E\nx\nE\n}", "f() { g() { :; }; }", "f() { a=(1 2); }"]


@pytest.mark.parametrize("body", REFUSED_BODIES)
def test_declare_f_refuses_in_one_line_and_runs_nothing(tmp_path: Path, body: str) -> None:
    sb = _sandbox(tmp_path)
    r = sb.run(f"{body}\ndeclare -f f; echo st=$?; declare -F f")
    assert r.stdout == b"st=1\nf\n"
    assert r.stderr.count(b"\n") == 1 and b"not supported in the sandbox" in r.stderr


def test_declare_f_is_not_a_way_around_the_guard(tmp_path: Path) -> None:
    """Printing a function runs nothing of it; a function calling a refused command is
    refused by the guard before anything runs, declare -f or not."""
    sb = _sandbox(tmp_path, allow=frozenset({"echo"}))
    r = sb.run("f() { echo hi > f.txt; }; declare -f f")
    assert r.stdout == b"f () \n{ \n    echo hi > f.txt\n}\n"
    assert (tmp_path / "f.txt").read_text() == "x\n"
    assert sb.check("f() { rm f.txt; }; declare -f f") != []


@needs_bash
@pytest.mark.parametrize("script", ARITH_BRACKET)
def test_old_arithmetic_brackets(script: str) -> None:
    check(script, stderr=script != "echo $[1+2")  # (a syntax error is the sandbox's line)


@needs_bash
@pytest.mark.parametrize("script", PROMPTS)
def test_prompt_expansion(script: str) -> None:
    check(script)


def test_prompt_identity_is_virtual(tmp_path: Path) -> None:
    """``\\u`` ``\\h`` ``\\$`` are the sandbox's user and host, never the host's."""
    r = _sandbox(tmp_path).run("x='\\u@\\h:\\H \\$'; echo \"${x@P}\"")
    assert r.stdout == b"user@sandbox:sandbox $\n"


def test_prompt_command_substitution_runs_nothing(tmp_path: Path) -> None:
    """A command substitution in a prompt string is refused (no guard saw it)."""
    sb = _sandbox(tmp_path, allow=dt.all_commands())
    for text in ("$(rm f.txt)", "`rm f.txt`", "$((1+$(rm f.txt)))", "${x:-$(rm f.txt)}"):
        r = sb.run(f"x='{text}'; echo \"${{x@P}}\"; echo st=$?")
        assert b"not run by the sandbox" in r.stderr, (text, r.stderr)
        assert r.stdout == b"st=1\n"
        assert (tmp_path / "f.txt").exists()


def test_old_arithmetic_is_guarded(tmp_path: Path) -> None:
    sb = _sandbox(tmp_path, allow=frozenset({"echo"}))
    assert sb.check("echo $[ $(rm f.txt) + 1 ]") != []
    r = sb.run("echo $[ $(rm f.txt) + 1 ]")
    assert r.exit_code == 126 and (tmp_path / "f.txt").exists()


@needs_bash
@pytest.mark.parametrize("script", DEVICES)
def test_devices(script: str) -> None:
    check(script)


@needs_bash
@pytest.mark.parametrize("script", DIRECTORY_INPUT)
def test_redirection_from_a_directory(script: str) -> None:
    check(script)


@needs_bash
@pytest.mark.parametrize("script", CHAR_RANGES)
def test_character_ranges_read_again(script: str) -> None:
    check(script)


@needs_bash
@pytest.mark.parametrize("script", BACKTICKS)
def test_backquoted_body_that_does_not_parse(script: str) -> None:
    check(script, stderr="`echo 'a`" not in script)


@needs_bash
@pytest.mark.parametrize("script", FAST_PATHS)
def test_fast_paths(script: str) -> None:
    check(script, stderr=False)


def _sandbox(tmp_path: Path, **policy: object) -> Sandbox:
    (tmp_path / "f.txt").write_text("x\n")
    return Sandbox({"/": tmp_path}, policy=Policy(**policy), limits=Limits(seconds=5))


# Reads of the endless devices (bounded by the run's allowance): test_endless_devices.py.


def test_ls_dev_lists_the_devices(tmp_path: Path) -> None:
    r = _sandbox(tmp_path).run("ls /dev")
    assert r.stdout == b"full\nnull\nrandom\nstderr\nstdin\nstdout\nurandom\nzero\n"


def test_backquote_body_error_runs_nothing(tmp_path: Path) -> None:
    """A backquoted body that does not parse is an empty substitution; the guard sees an
    empty body, the command around it is still checked (and refused when not allowed)."""
    sb = _sandbox(tmp_path, allow=frozenset({"echo"}))
    r = sb.run("echo `rm f.txt \"`")
    assert r.exit_code == 0 and r.stdout == b"\n"
    assert (tmp_path / "f.txt").exists()
    assert sb.check("rm `echo \"`") != []  # rm is still a command the guard refuses
    assert sb.check("echo `rm -rf /`") != []  # a body that parses is guarded as ever


def test_refused_construct_inside_backquotes_is_still_refused(tmp_path: Path) -> None:
    sb = _sandbox(tmp_path)
    r = sb.run("echo `sleep 1 &`")
    assert r.exit_code in (2, 126) and r.stdout == b""
