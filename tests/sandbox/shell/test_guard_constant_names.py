"""Command names that are a plain ``$V`` / ``"$V"`` of a variable whose every value is a
literal written in the script (``sandbox.guard_names``): the guard checks the command once per
value, as if each had been written out, instead of refusing the name.

The scripts that fold run under real bash and under the sandbox (stdout, status, files and
stderr must agree); the refusals call the guard directly, as ``test_unknown_commands.py``
does, and check that the message names the value or that the name is refused as before."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sandbox import Policy
from sandbox.api import Sandbox
from sandbox.fs.memory import MemoryFS
from sandbox.guard import check
from sandbox.guard_names import Analysis
from sandbox.parse import parse
from sandbox.policy import DEFAULT_ALLOW

sys.path.insert(0, str(Path(__file__).parent))
from shell_difftools import check as check_same  # noqa: E402

SCRIPTS = [
    "C=test; $C -1 -eq 1 && echo e",
    'C=test; "$C" -d dir && echo d',
    'C=test\ntype_test() { for i in d f; do "$C" $* $i && echo -n $i; done; }\ntype_test -e; echo',
    'GREP="grep -c"; $GREP alpha a.txt',
    'CAT=cat; "$CAT" a.txt',
    "CAT=cat; ${CAT} a.txt",
    'CAT=cat; "${CAT}" a.txt',
    'f() { echo "f:$*"; }; F=f; $F 1 2',
    'f() { echo "f:$#"; }; F=f; "$F" "a b"',
    "if [ -e a.txt ]; then C=head; else C=tail; fi; $C -n 1 a.txt",
    "if [ -e nope ]; then C=head; else C=tail; fi; $C -n 1 a.txt",
    "C=cat; unset C; $C echo hi",
    'C=cat; unset C; "$C"; echo $?',
    "$C echo empty-first; C=echo; $C now",
    '"$C" 2>/dev/null; echo $?',
    'C=echo; $C a; C=printf; $C "%s\\n" b',
    "W='wc -l'; $W < a.txt",
    "W='  wc   -l  '; $W a.txt",
    'SORT="sort -r"; $SORT nums.txt',
    'C=":"; $C && echo colon',
    "C=true; $C && echo t; C=false; $C || echo f",
    'T="["; "$T" 1 = 1 ] && echo bracket',
    "E=echo; x=$($E sub); echo $x",
    "E=echo; $E one | $E two",
    "E=echo; { $E a; $E b; } | wc -l",
    "E=echo; ( $E sub )",
    'P=printf; $P "%s-" a b; echo',
    "local_test() { local L=echo; $L in-func; }; local_test",
    "declare D=echo; $D declared",
    "export X=echo; $X exported",
    "readonly R=echo; $R ro",
    "declare -g G=echo; $G global",
    "C=nosuch_zq; $C 2>/dev/null; echo $?",
    'C=nosuch_zq; "$C" arg 2>&1; echo $?',
    "C='cat -n'; $C a.txt",
    "C=cat; C=head; $C -n 2 a.txt",
    "for f in a.txt b.txt; do C=wc; $C -l $f; done",
    'C=cat; while read -r line; do echo "<$line>"; done < a.txt; $C a.txt',
    "C=sed; $C -n 2p a.txt",
    'C=awk; $C "{print \\$1}" b.txt',
    "C=; D=echo; $C $D both-empty-then-echo",
    "C=; $C; echo $?",
    "C=; $C >out.txt; echo $?; cat out.txt",
    "C=echo; $C hi >out.txt; cat out.txt",
    "C=tee; echo hi | $C t.txt; cat t.txt",
    "C=mkdir; $C newdir && ls -d newdir",
    "X=xargs; echo a.txt | $X cat",
    'X="xargs -n1"; printf "a\\nb\\n" | $X echo',
    "C=cat; case x in x) $C a.txt;; esac",
    "C=echo; [[ -n x ]] && $C dbr",
    "C=echo; if $C cond; then $C then; fi",
    "C=true; while ! $C; do :; done; echo done",
    'C=echo; f() { C=printf; }; f; $C "%s|" x; echo',
    "C=echo; cat <<EOF\n$C\nEOF\n$C after",
    'C=echo; IFS= read -r line < a.txt; "$C" "$line"',
    "C=echo; echo $(( 1 + 2 )); $C ok",
    'C=cd; $C dir && pwd | sed "s|.*/||"',
    'C=pwd; cd dir; $C | sed "s|.*/||"',
    "A=echo B=echo; $A $B x",
    "C=type; $C cat >/dev/null && echo typed",
    "C=exec; $C; echo still-here",
    "C=echo; set -u; $C set-u",
    "C=grep; $C -c a a.txt b.txt",
    "C=if; $C 2>/dev/null; echo $?",
    'C="echo a{b,c}"; $C',
    'C="echo ~"; $C | grep -c "~"',
    "C=echo D=; $C $D x",
    "C='printf %s-'; $C one two; echo",
    'C=cat; f() { "$C" "$@"; }; f a.txt',
    'IFS=: read -r a b <<< "1:2"; C="echo x:y"; $C; echo "$a $b"',
    "V='X=1'; $V 2>/dev/null; echo $? ${X-unset}",
    "V='echo  two  spaces'; $V; \"$V\" 2>/dev/null; echo $?",
    'C=wc; [ -e a.txt ] && C="wc -w" || C="wc -c"; $C a.txt',
    "C=echo; case $1 in *) C=printf;; esac; $C ok; echo",
    "C=echo; f() { local C=printf; $C '%s.' in; }; f; $C out",
    "C=echo; x=$(C=printf; $C sub); $C got \"[$x]\"",
]

#: (assignment, use) pairs: every way of writing a plain literal assignment, every form of
#: a plain expansion as the command name.
_ASSIGNS = ["C=WORD", "C='WORD'", 'C="WORD"', "declare C=WORD", "export C=WORD",
            "declare -x C=WORD", "typeset C=WORD", "readonly C=WORD", "f() { local C=WORD; $USE; }"]
_USES = ["$C", "${C}", '"$C"', '"${C}"']
GENERATED = [
    (a.replace("WORD", "echo").replace("$USE", u + " in-f") + ("; f" if a.startswith("f()") else
                                                             f"; {u} folded"))
    for a in _ASSIGNS for u in _USES
]


@pytest.mark.parametrize("script", SCRIPTS + GENERATED)
def test_a_known_command_name_runs_as_in_bash(script: str) -> None:
    check_same(script)


def _refusals(script: str, policy: Policy = Policy()) -> list[str]:
    return check(script, parse(script), policy)[0]


NOT_A_LITERAL = "is not a literal word"


@pytest.mark.parametrize("script,needle", [
    ("C=rm; [ x ] && C=cat; $C f",
     "command name `$C` can be `rm`, which is not an allowed command"),
    ("C=rm; \"$C\" f", "command name `\"$C\"` can be `rm`, which is not an allowed command"),
    ("read C; $C", NOT_A_LITERAL),
    ("read -r -a C; $C", NOT_A_LITERAL),
    ("read -p 'x: ' C; $C", NOT_A_LITERAL),
    ("mapfile C < f; $C", NOT_A_LITERAL),
    ("readarray -t C < f; $C", NOT_A_LITERAL),
    ("getopts ab C; $C", NOT_A_LITERAL),
    ("printf -v C rm; $C", NOT_A_LITERAL),
    ("printf -vC rm; $C", NOT_A_LITERAL),
    ("wait -p C; $C", NOT_A_LITERAL),
    ("for C in cat rm; do $C f; done", NOT_A_LITERAL),
    ("C=$(echo rm); $C", NOT_A_LITERAL),
    ("C=`echo rm`; $C", NOT_A_LITERAL),
    ("C=cat; C=$D; $C", NOT_A_LITERAL),
    ("C=ca; C+=t; $C", NOT_A_LITERAL),
    ("C=(rm); $C", NOT_A_LITERAL),
    ("C[0]=rm; $C", NOT_A_LITERAL),
    ("C=cat; declare -a C=rm; $C", NOT_A_LITERAL),
    ("declare -n r=C; r=rm; $C", NOT_A_LITERAL),
    ("C=cat; local -n r=C; $C", NOT_A_LITERAL),
    ("declare -l C=CAT; $C", NOT_A_LITERAL),
    ("declare -u C=cat; $C", NOT_A_LITERAL),
    ("declare -i C=1; $C", NOT_A_LITERAL),
    ("C=cat; declare -l C; $C", NOT_A_LITERAL),
    ("C=cat; export -n C; $C", NOT_A_LITERAL),
    ("((C=1)); $C", NOT_A_LITERAL),
    ("C=cat; echo $((C=1)); $C", NOT_A_LITERAL),
    ("C=cat; let C=1; $C", NOT_A_LITERAL),
    ("C=cat; for ((C=0; C<1; C++)); do :; done; $C", NOT_A_LITERAL),
    ("C=cat; echo ${a[C=1]}; $C", NOT_A_LITERAL),
    ("C=cat; [[ C=2 -eq 2 ]]; $C", NOT_A_LITERAL),
    ("C=cat; : ${C:=rm}; $C", NOT_A_LITERAL),
    ("C=cat; : ${C=rm}; $C", NOT_A_LITERAL),
    ("C=cat; cat <<EOF\n${C:=rm}\nEOF\n$C f", NOT_A_LITERAL),
    ("C=cat; exec {C}>f; $C", NOT_A_LITERAL),
    ("C=cat; f() { read C; }; $C", NOT_A_LITERAL),
    ("C=cat; x=$(read C); $C", NOT_A_LITERAL),
    ("C=~; $C", NOT_A_LITERAL),
    # rule 2: something sets a variable named at run time: nothing is folded
    ("C=cat; read \"$n\"; $C", NOT_A_LITERAL),
    ("C=cat; declare \"$n\"; $C", NOT_A_LITERAL),
    ("C=cat; export \"$n=rm\"; $C", NOT_A_LITERAL),
    ("C=cat; printf -v \"$n\" x; $C", NOT_A_LITERAL),
    ("C=cat; printf \"$f\" x; $C", NOT_A_LITERAL),
    ("C=cat; mapfile \"$n\" < f; $C", NOT_A_LITERAL),
    ("C=cat; getopts ab \"$n\"; $C", NOT_A_LITERAL),
    ("C=cat; unset -n x; $C", NOT_A_LITERAL),
    ("C=cat; : ${!x=rm}; $C", NOT_A_LITERAL),
    ("C=cat; trap 'C=rm' EXIT; $C f", NOT_A_LITERAL),
    ("C=cat; set -k; f() { $C; }; f C=rm", NOT_A_LITERAL),
    ("C=cat; set -o keyword; $C", NOT_A_LITERAL),
    ("R=read; $R C; $C", NOT_A_LITERAL),
    ("D=declare; $D C=rm; $C", NOT_A_LITERAL),
    ("P=printf; $P -v C rm; $C", NOT_A_LITERAL),
    ("E=; $E read C; $C", NOT_A_LITERAL),
    ('C=echo; [ x ] && C=printf; $C "$x"; $C', NOT_A_LITERAL),  # printf -vNAME?
    ("C='printf -v'; $C D rm; $D", NOT_A_LITERAL),
    # rule 3: the shell's own variables
    ("PATH=cat; $PATH", NOT_A_LITERAL),
    ("REPLY=cat; $REPLY", NOT_A_LITERAL),
    ("BASH_X=cat; $BASH_X", NOT_A_LITERAL),
    ("IFS=cat; $IFS", NOT_A_LITERAL),
    ("OPTARG=cat; $OPTARG", NOT_A_LITERAL),
    ("echo rm; $_ f", NOT_A_LITERAL),
    ("_=cat; $_ f", NOT_A_LITERAL),
    # rule 4: unquoted values that would split differently or glob
    ('C="cat *"; $C', NOT_A_LITERAL),
    ('C="ca?"; $C', NOT_A_LITERAL),
    ('C="["; $C 1 = 1 ]', NOT_A_LITERAL),
    ("C='printf %s\\n'; $C one two", NOT_A_LITERAL),
    ("C='echo @(a)'; $C", NOT_A_LITERAL),
    ("IFS=a; C=cat; $C", NOT_A_LITERAL),
    ("C=cat; f() { local IFS=:; }; $C", NOT_A_LITERAL),
    ("C=cat; IFS=: $C", NOT_A_LITERAL),
    # the empty value: the next word names the command
    ("C=cat; $C $(echo rm)", "command name `$C` can be empty: command name `$(echo rm)`"),
    ("read D; C=cat; $C $D", "command name `$C` can be empty: command name `$D`"),
    ('C=echo; f() { $C "$@"; }; f x', "command name `$C` can be empty: command name `\"$@\"`"),
    ("C=echo; $C rm f", "command name `$C` can be empty: `rm` is not an allowed command"),
    ("C=; D=; $C $D rm", "command name `$D` can be empty: `rm` is not an allowed command"),
    # what the value runs is checked as if it were written out
    ("X=xargs; echo f | $X rm", "command name `$X` can be `xargs`: `xargs` would run `rm`"),
    ("F=find; $F . -exec rm {} +", "command name `$F` can be `find`"),
    ("C=sh; $C -c 'rm f'", "command name `$C` can be `sh`, which is not an allowed command"),
    ("C=eval; $C rm f", "command name `$C` can be `eval`: `eval` is not allowed"),
    ("C=command; $C rm f", "command name `$C` can be `command`: `command` is not allowed"),
    ("C=python3; $C -c 1", "command name `$C` can be `python3`, which is not an allowed command"),
    ("C=/bin/rm; $C f", "command name `$C` can be `/bin/rm`"),
    ("C=./x.sh; $C", "command name `$C` can be `./x.sh`, which is not an allowed command"),
    ("C=exec; $C cat f", "command name `$C` can be `exec`: `exec` is not allowed"),
    ("C='xargs rm'; echo f | $C", "command name `$C` can be `xargs rm`: `xargs` would run `rm`"),
    # positional and special parameters are still refused
    ('"$@"', NOT_A_LITERAL),
    ("$1", NOT_A_LITERAL),
    ("$*", NOT_A_LITERAL),
    ("${C:-cat} f", NOT_A_LITERAL),
    ("${C[0]} f", NOT_A_LITERAL),
    ("${!C} f", NOT_A_LITERAL),
    ('"$C"x f', NOT_A_LITERAL),
    ("$C$D f", NOT_A_LITERAL),
])
def test_refused(script: str, needle: str) -> None:
    v = _refusals(script)
    assert any(needle in m for m in v), v


def test_one_line_per_violation_at_the_head() -> None:
    v = _refusals("C=rm; [ x ] && C=cat; [ y ] && C=mv; $C f")
    assert len(v) == 2, v
    assert all(m.startswith("line 1, col 38: command name `$C` can be `") for m in v), v
    assert "`mv`, which" in v[0] and "`rm`, which" in v[1]


def test_read_only_and_protected_apply_to_each_value() -> None:
    ro = Policy(read_only=True, allow=DEFAULT_ALLOW | {"rm"})
    v = _refusals("C=rm; $C f", ro)
    assert v == ["line 1, col 7: command name `$C` can be `rm`: rm would write `f`, but the "
                 "sandbox is read-only"], v
    v = _refusals("C=cat; [ x ] && C=tee; echo hi | $C log", ro)
    assert len(v) == 1 and "can be `tee`: tee would write `log`" in v[0], v
    prot = Policy(protected=frozenset({"/log"}))
    v = _refusals("C=tee; echo x | $C -a /log", prot)
    assert len(v) == 1 and "which is protected" in v[0], v
    assert _refusals("C=cat; echo x | $C > /dev/null", ro) == []


def test_approval_sees_the_writes_of_every_value() -> None:
    seen: list[list[str]] = []

    def approve(script: str, writes: list[str]) -> bool:
        seen.append(writes)
        return True

    s = "C=tee; [ x ] && C=cat; echo hi | $C out.txt"
    assert check(s, parse(s), Policy(approve=approve), cwd="/w")[0] == []
    assert seen == [["/w/out.txt"]]


def test_the_accepted_values_are_the_literal_ones() -> None:
    a = Analysis(parse("C=cat; f() { local C='wc -l'; }; export D=x E=$y; declare -x F"))
    assert a.bail is None
    assert a.possible("C") == ["", "cat", "wc -l"]
    assert a.foldable("C") and a.foldable("C", quoted=False)
    assert a.foldable("D") and not a.foldable("E") and a.foldable("F")
    assert a.possible("NEVER") == [""]
    assert not Analysis(parse("C=cat; read $x")).foldable("C")


def test_a_name_from_the_environment_is_not_folded() -> None:
    assert check("$C f", parse("$C f"), Policy(), env=["C"])[0]
    fs = MemoryFS()
    sb = Sandbox({"/m": fs}, cwd="/m", policy=Policy(read_only=True), env={"C": "rm"})
    r = sb.run("[ -e x ] && C=cat; $C f")
    assert r.exit_code == 126 and NOT_A_LITERAL.encode() in r.stderr, r
    sb = Sandbox({"/m": fs}, cwd="/m", env={"IFS": ":"})
    r = sb.run("C=echo; $C hi")
    assert r.exit_code == 126 and NOT_A_LITERAL.encode() in r.stderr, r
    r = sb.run('C=echo; "$C" hi')
    assert (r.exit_code, r.stdout) == (0, b"hi\n"), r


def test_awk_commands_see_the_exported_names() -> None:
    fs = MemoryFS()
    sb = Sandbox({"/m": fs}, cwd="/m")
    r = sb.run("C=echo; awk 'BEGIN { system(\"C=printf; $C ok\") }'")
    assert (r.exit_code, r.stdout) == (0, b"ok"), r
    r = sb.run("export C=rm; awk 'BEGIN { system(\"$C f\") }'")
    assert r.exit_code != 0 and b"not a literal word" in r.stderr, r


def test_dynamic_policy_is_unchanged() -> None:
    dyn = Policy(dynamic=True)
    for s in ("C=rm; $C f", "read C; $C", 'C=cat; "$C" f'):
        assert check(s, parse(s), dyn)[0] == []
    fs = MemoryFS()
    fs.write_bytes("f", b"x")
    r = Sandbox({"/m": fs}, cwd="/m", policy=dyn).run("C=rm; $C f")
    assert r.exit_code != 0 and fs.listdir("") == ["f"], r  # rm is refused when it runs


def test_a_refused_script_runs_nothing() -> None:
    fs = MemoryFS()
    sb = Sandbox({"/m": fs}, cwd="/m")
    r = sb.run("echo hi > a; C=rm; [ -e a ] || C=cat; $C a")
    assert r.exit_code == 126 and r.stdout == b"" and fs.listdir("") == [], r
    r = sb.run("echo hi > a; C=cat; $C a")
    assert (r.exit_code, r.stdout) == (0, b"hi\n"), r
