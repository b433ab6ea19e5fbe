"""The ``trap`` builtin (``sandbox/interpreter/traps.py``) against bash 5.2: EXIT on every kind
of exit, in subshells, command substitutions and functions; ERR under the ``set -e`` rules,
with ``set -E``; RETURN with functions, ``set -T`` and ``source``; ``trap -p`` quoting,
resets, ignored signals, invalid specifications and usage errors; ``trap -l``.

stdout, stderr and status are compared, byte for byte.
Then the guard: a literal action is checked before anything runs like the rest of the
script; an action built at run time is refused under the default policy and guarded when
the trap is set under ``Policy(dynamic=True)``; the DEBUG trap is refused; limits hold
inside trap actions.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

from sandbox import Limits, Policy  # noqa: E402
from sandbox.api import Sandbox  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")
check = dt.check


EXIT_CASES = [
    # the kinds of exit
    "trap 'echo bye' EXIT; echo body",
    "trap 'echo bye $?' EXIT; false",
    "trap 'echo bye $?' EXIT; exit 3",
    "trap 'echo bye $?' EXIT; exit",
    "trap 'echo bye $?' EXIT; false; exit",
    "set -e; trap 'echo bye $?' EXIT; false; echo no",
    "set -e; trap 'echo bye $?' EXIT; f() { false; echo no; }; f",
    "trap 'echo bye $?' EXIT; echo ${nope:?is unset}; echo no",
    "set -u; trap 'echo bye $?' EXIT; echo $nope; echo no",
    "trap 'echo bye $?' 0; exit 300",
    "trap 'echo bye' exit; trap 'echo bye2' EXIT; echo x",
    "trap 'echo bye $?' EXIT; f() { exit 4; }; f; echo no",
    "trap 'echo bye' EXIT; for i in 1 2; do exit 5; done",
    "trap 'echo bye' EXIT; true && exit 6 || echo no",
    "trap 'echo bye' EXIT; if exit 7; then echo no; fi",
    "trap 'echo bye' EXIT; { exit 8; }; echo no",
    # what the action does to the status
    "trap 'echo x; exit 7' EXIT; exit 3",
    "trap 'echo x; exit' EXIT; false",
    "trap 'false; exit' EXIT; exit 3",
    "trap 'echo in $?; false' EXIT; true",
    "trap 'exit 9' EXIT; echo body",
    "set -e; trap 'false; echo x' EXIT; echo a",
    "trap 'echo ${x:?bad}; echo no' EXIT; echo body",
    "trap 'f' EXIT; f() { echo in f; return 3; }; echo body",
    "trap 'f' EXIT; f() { echo in f; exit 4; }; echo body",
    # once, and changes inside the action
    "trap 'echo in; trap - EXIT; echo more' EXIT; echo body",
    "trap 'echo in; trap \"echo in2\" EXIT' EXIT; echo body",
    "trap 'echo in; exit 2' EXIT; exit 1",
    "trap 'echo in; trap -p EXIT' EXIT; echo body",
    "trap 'echo $LINENO' EXIT\necho 1\n\nexit 2",
    "trap 'echo A\necho $LINENO' EXIT\necho 1\n\necho 5",
    "x=1; trap 'echo x=$x' EXIT; x=2",
    "trap 'echo out; echo err >&2' EXIT; echo body",
    "trap 'echo bye' EXIT; trap - EXIT; echo body",
    "trap 'echo bye' EXIT; trap EXIT; echo body",
    "trap 'echo bye' EXIT; trap 0; echo body",
    "trap 'echo bye' EXIT; trap '' EXIT; echo body; trap -p",
    "trap 'echo bye' EXIT; exec >/dev/null; echo hidden",
    # subshells, substitutions, pipelines, functions
    "trap 'echo top' EXIT; (echo sub); echo after",
    "trap 'echo top' EXIT; (trap 'echo sub-exit' EXIT; echo sub); echo after",
    "(trap 'echo sub-exit $?' EXIT; exit 4); echo st=$?",
    "(trap 'echo sub-exit' EXIT; false); echo st=$?",
    "x=$(trap 'echo bye' EXIT; echo hi); echo \"[$x]\"",
    "trap 'echo top' EXIT; x=$(echo hi); echo \"[$x]\"",
    "x=$(trap 'echo bye $?' EXIT; exit 3); echo \"[$x] $?\"",
    "trap 'echo top' EXIT; echo a | (trap 'echo stage' EXIT; cat)",
    "trap 'echo top' EXIT; { trap 'echo p' EXIT; echo x; } | cat; echo after",
    "f() { trap 'echo f-exit' EXIT; echo in f; }; f; echo after",
    "(trap 'echo inner' EXIT; (trap 'echo innermost' EXIT; echo deep); echo mid)",
    "trap 'echo a' EXIT; (trap -p); echo \"[$(trap -p)]\"",
    "trap 'echo a' EXIT; (trap '' INT; trap -p); echo --; (trap - INT; trap -p)",
    "trap 'echo a' EXIT; (trap -p INT; trap -p); echo \"[$(trap 'echo b' INT; trap)]\"",
    "trap 'echo a' EXIT; (exit 3); echo st=$?",
    "trap : INT; trap - INT; (trap 'echo sub' EXIT; trap 'echo i' INT); trap -p; echo end",
    "trap : INT; trap - INT; echo x | { trap 'echo stage' EXIT; cat; }; trap -p; echo end",
    "trap 'echo bye' EXIT | cat; echo after",
    "cat <(trap 'echo p' EXIT; echo x)",
    "trap 'echo bye' EXIT; cat <(echo x)",
    "f() { trap 'echo bye $1' EXIT; }; f a; f b",
    "set -u; trap 'echo $nope; echo y' EXIT; true",
    "trap 'echo in trap; return 3' EXIT; f() { :; }; f",
    "trap 'echo \"$(echo in-sub)\"' EXIT; echo a",
    "trap 'echo one' EXIT; trap 'echo two' EXIT; trap -p; trap -p EXIT EXIT",
    "trap 'echo t' TERM INT; trap - TERM INT; trap; echo $?",
]

ERR_CASES = [
    "trap 'echo e $?' ERR; false; echo st=$?",
    "trap 'echo e $?' ERR; false; true; (exit 4); echo end",
    "trap 'echo e' ERR; ! false; echo --; ! true; echo end",
    "trap 'echo e' ERR; false || true; false && true; true && false; echo end",
    "trap 'echo e' ERR; false || false; echo end",
    "trap 'echo e' ERR; if false; then :; fi; while false; do :; done; until true; do :; done",
    "trap 'echo e' ERR; if true; then false; fi; echo end",
    "trap 'echo e' ERR; for i in 1 2; do false; done",
    "trap 'echo e' ERR; case x in x) false;; esac",
    "trap 'echo e $?' ERR; { false; true; }; { true; false; }",
    "trap 'echo e $?' ERR; false | true; true | false; set -o pipefail; false | true",
    "trap 'echo e' ERR; ! { false; }; echo --; ! (false); echo --; x=$(false); echo st=$?",
    "trap 'echo e' ERR; f() { false; }; ! f; echo --; if { false; }; then :; fi; { false; } || :",
    "trap 'echo e' ERR; (( 0 )); [[ a == b ]]; [ a = b ]; test -n ''",
    "trap 'echo e' ERR; x=$(false); echo --; x=$(true); echo --; declare y=$(false)",
    "trap 'echo e' ERR; cat missing-file 2>/dev/null; echo st=$?",
    "trap 'echo e' ERR; { :; } < missing-file; echo st=$?",
    "trap 'echo e $?' ERR; (exit 127); echo st=$?",
    "trap 'echo \"failed at $LINENO\"' ERR\n\nfalse\necho ok",
    "trap 'echo A\necho $LINENO' ERR\n\n\nfalse",
    "trap 'echo e ${FUNCNAME[0]}' ERR; f() { false; echo in; }; f",
    "trap 'echo $LINENO' ERR\nf() {\n  false\n}\nset -E\nf",
    "trap 'echo e' ERR; f() { false; }; set -E; f; set +E; f; echo st=$?",
    "trap 'echo e' ERR; f() { false; echo inf; }; f; set -E; f",
    "trap 'echo e' ERR; f() { false; }; f; echo st=$?",
    "set -E; trap 'echo e' ERR; f() { false; }; f; echo --; g() { false; return 0; }; g",
    "set -o errtrace; trap 'echo e' ERR; f() { false; }; f",
    "set -E; set +E; trap 'echo e' ERR; f() { false; return 0; }; f",
    "trap 'echo e' ERR; (false; echo in); x=$(false; echo cs); echo $x",
    "set -E; trap 'echo e' ERR; (false); echo --; (false; true); echo --; (true; false)",
    "set -E; trap 'echo e' ERR; y=$(false; echo cs2); echo \"[$y]\"; y=$(false)",
    "set -E; trap 'echo e' ERR; false | true; echo --; { false; true; } | cat; echo --; true | false",
    "set -e; trap 'echo e $?' ERR; trap 'echo x $?' EXIT; false; echo no",
    "set -e; trap 'echo e' ERR; f() { false; echo no; }; f",
    "set -e; trap 'echo e' ERR; if false; then :; fi; false || true; echo survived",
    "set -e; trap 'false; echo x' ERR; false; echo no",
    "trap 'echo e $?' ERR; trap 'echo x; false; echo y' EXIT; echo a",
    "trap 'echo e; return' ERR; f() { false; echo after; }; set -E; f; echo st=$?",
    "trap 'echo e; exit 9' ERR; false; echo no",
    "trap 'echo e; false' ERR; false; echo st=$?",
    "trap 'echo e $?; (exit 5)' ERR; (exit 3); echo st=$?",
    "trap 'echo e' ERR; trap - ERR; false; echo st=$?",
    "trap 'echo e' ERR; trap '' ERR; false; echo st=$?; trap -p",
    "trap 'echo e' ERR; f() { trap 'echo f-err' ERR; false; }; f; false; trap -p ERR",
    "trap 'echo e' ERR; f() { trap - ERR; }; f; false; trap -p ERR",
    "trap 'echo e' ERR; f() { trap -p ERR; echo [$(trap -p ERR)]; }; f",
    "trap 'echo e' ERR; set -e; f() { false; }; f || echo handled",
    "trap 'echo e' ERR; while true; do false; break; done; echo end",
    "trap 'echo e' ERR; false; false; false",
    "trap 'echo e >&2' ERR; false 2>/dev/null",
    "trap 'echo e' ERR; { false; } > /dev/null; echo end",
    # a command runs the ERR trap only if it was set before the command started
    "f() { trap 'echo e $?' ERR; false; }; f; echo --; false",
    "f() { trap 'echo e $?' ERR; return 2; }; f; echo --; false",
    "f() { trap 'echo e $?' ERR; (exit 4); }; f; echo --; false",
    "trap 'echo e' ERR; f() { trap 'echo f-err' ERR; false; }; f; false; trap -p ERR",
    "set -e; trap 'echo e' ERR; true && false; echo no",
    "trap 'echo e' ERR; let 0; echo st=$?",
    "trap 'echo e' ERR; f() { return 3; }; f; echo st=$?",
    "trap 'echo e' ERR; shift 5; echo st=$?",
    "set -o pipefail; trap 'echo e' ERR; false | true | true",
    "trap 'echo e' ERR; until false; do break; done; echo st=$?",
    "trap 'echo e' ERR; declare -r r=1; r=2; echo st=$?",
    "trap 'echo e' ERR; a=(1 2); echo ${a[5]:?x}; echo no",
    "trap 'echo e' ERR; set -e; x=$(false); echo no",
]

RETURN_CASES = [
    "trap 'echo r' RETURN; f() { echo f; }; f; echo end",
    "set -T; trap 'echo r' RETURN; f() { echo f; }; f; echo end",
    "set -o functrace; trap 'echo r $FUNCNAME' RETURN; f() { echo f; }; f",
    "f() { trap 'echo r $FUNCNAME' RETURN; echo f; }; f; echo mid; g() { echo g; }; g; trap -p",
    "f() { trap 'echo r $FUNCNAME' RETURN; g; echo f; }; g() { echo g; }; f; echo mid; g",
    "f() { trap 'echo r $FUNCNAME $?' RETURN; return 3; }; f; echo $?; f; echo st=$?",
    "f() { trap 'echo r $?' RETURN; false; }; f; echo st=$?",
    "f() { local v=loc; trap 'echo r $v' RETURN; }; f",
    "f() { trap 'echo r $1' RETURN; }; f arg",
    "f() { return 4; }\ntrap 'echo r $LINENO' RETURN\nset -T\nf",
    "f() { trap 'f' RETURN; echo f; }; f; echo done",
    "f() { trap 'echo r' RETURN; }; f; f; g() { :; }; g",
    # actions that call the function that set them (no loop, as in bash)
    "set -T; f() { echo f; trap f RETURN; }; f; echo end",
    "f() { echo f; trap f RETURN; }; f; f; echo end",
    "f() { echo f; trap f ERR; false; }; f; echo st=$?",
    "set -E; f() { echo f; trap f ERR; false; }; f; echo st=$?",
    "f() { echo f; trap f EXIT; }; f",
    # `return` with no argument in (a function called by) a trap action
    "g() { false; return; }; f() { trap 'g; echo g=$?' RETURN; true; }; f",
    "g() { false; return; }; trap 'g; echo g=$?' EXIT; true",
    "g() { false; return; }; trap 'g; echo g=$?' ERR; false",
    "f() { trap 'echo r $FUNCNAME' RETURN; g; }; g() { echo g; }; f; set -T; f",
    "f() { trap 'trap - RETURN; echo once' RETURN; }; f; f; echo end",
    "set -T; trap 'echo r $FUNCNAME' RETURN; f() { g; }; g() { :; }; f",
    "trap 'echo r' RETURN; f() { trap -p RETURN; }; f; set -T; f",
    "f() { trap 'echo r; exit 5' RETURN; }; f; echo no",
    "f() { trap 'echo r' RETURN; exit 3; }; f; echo no",
    "f() { trap 'echo r' RETURN; }; (f); echo --; x=$(f); echo \"[$x]\"",
    "set -T; trap 'echo r' RETURN; f() { :; }; (f); x=$(f); echo \"[$x]\"",
    "f() { trap '' RETURN; }; f; trap -p",
    "f() { trap 'echo r' RETURN; }; f; trap - RETURN; g() { :; }; g; trap -p",
]

TRAP_BUILTIN_CASES = [
    # printing and quoting
    "trap; echo st=$?",
    "trap -p; echo st=$?",
    "trap 'echo hi' INT; trap",
    "trap \"echo 'quoted'\" INT; trap -p",
    "trap 'echo \"dq\" $x `pwd`' HUP; trap -p HUP",
    "trap \"echo \\\"it's\\\"\" TERM; trap -p TERM",
    "trap $'echo 1\\necho 2' USR1; trap -p USR1",
    "trap 'echo \\\\ back' USR2; trap -p",
    "trap '' INT TERM; trap -p",
    "trap 'echo x' 1 2 3 15 10 12; trap -p",
    "trap : INT; trap -p TERM; echo st=$?",
    "trap : INT; trap -p INT HUP EXIT",
    "trap : INT; trap -p FOO INT; echo st=$?",
    "trap -p -- INT; trap -- : INT; trap -p -- INT",
    "trap : ERR RETURN EXIT INT; trap -p",
    "trap : 64 34 35 50 49 63 32 33; trap -p",
    "trap : EXIT; trap -p 0 exit EXIT",
    "trap -- 'echo x' EXIT; trap -p",
    "trap -- ':' EXIT; trap -p",
    # signal specs
    "trap : sigint; trap : Sigterm; trap : hup; trap : SIGhup; trap -p",
    "trap : int; trap -p sigINT",
    "trap : RTMIN+3 SIGRTMIN+1 rtmax-2 SIGRTMAX rtmin+16; trap -p",
    "trap : RTMIN+31; echo $?; trap : RTMIN+x; echo $?; trap : RTMAX-15; echo $?",
    "trap : ' 2 ' +3 010; trap -p",
    "trap : 65; echo $?; trap : -1; echo $?; trap : 1x; echo $?",
    "trap : SIGEXIT; echo $?; trap : SIGERR; echo $?; trap : err; trap -p",
    "trap : FOO; echo st=$?",
    "trap : FOO INT BAR; echo st=$?; trap -p",
    "trap : ''; echo st=$?",
    # resets and ignores
    "trap : INT; trap - INT; trap -p",
    "trap : INT TERM; trap INT; trap -p",
    "trap : INT; trap 2; trap -p",
    "trap : INT HUP; trap 1 2; trap -p",
    "trap : INT HUP; trap - 1 INT; trap -p",
    "trap : INT; trap '' INT; trap -p",
    "trap - FOO; echo st=$?",
    "trap 'echo INT' TERM; echo st=$?; trap -p",
    "trap 'echo x' INT TERM; trap - INT; trap -p",
    # usage errors
    "trap -x; echo st=$?",
    "trap -lx; echo st=$?",
    "trap echo; echo st=$?",
    "trap ''; echo st=$?",
    "trap -; echo st=$?",
    "trap -- ; echo st=$?",
    "trap -l",
    "trap -l INT; echo st=$?",
    "trap -lp",
    "trap --help | head -3; echo st=${PIPESTATUS[0]}",
    "type trap",
    "test -o errtrace; echo $?; set -E; test -o errtrace; echo $?; [ -o functrace ]; echo $?",
    "set -o functrace; [[ -o functrace ]]; echo $? $-; set +T; echo $-",
    # signals are never delivered
    "trap 'echo got' INT TERM HUP USR1; echo body; exit 0",
    "trap 'echo got' INT; ( echo sub ); trap -p INT",
]


@needs_bash
@pytest.mark.parametrize("script", EXIT_CASES)
def test_exit_trap(script: str) -> None:
    check(script)


@needs_bash
@pytest.mark.parametrize("script", ERR_CASES)
def test_err_trap(script: str) -> None:
    check(script)


@needs_bash
@pytest.mark.parametrize("script", RETURN_CASES)
def test_return_trap(script: str) -> None:
    check(script)


@needs_bash
@pytest.mark.parametrize("script", TRAP_BUILTIN_CASES)
def test_trap_builtin(script: str) -> None:
    check(script)


# -- RETURN with source (Policy(dynamic=True): source runs) ------------------------------------

SOURCE_CASES = [
    "printf 'echo in\\n' > s.sh; trap 'echo r' RETURN; . ./s.sh; echo end",
    "printf 'echo in; false\\n' > s.sh; trap 'echo r $?' RETURN; . ./s.sh; echo st=$?",
    "printf 'trap \"echo r-src\" RETURN\\n' > s.sh; . ./s.sh; echo end; trap -p RETURN",
    "printf 'echo in\\n' > s.sh; trap 'echo r' RETURN; f() { . ./s.sh; }; f; set -T; f",
    "printf 'false\\n' > s.sh; trap 'echo e' ERR; . ./s.sh; echo st=$?",
    "trap 'echo r' RETURN; eval 'echo ev'; echo end",
    "trap 'echo top' EXIT; bash -c 'trap -p; echo inner'; echo after",
    "bash -c \"trap 'echo inner-exit \\$?' EXIT; exit 3\"; echo st=$?",
    "trap '' INT; bash -c 'trap -p'",
    "trap 'echo e $?' ERR; eval 'false; echo in'; echo st=$?",
    "a='echo bye $?'; trap \"$a\" EXIT; exit 4",
    "t=a.txt; trap \"echo cleaning $t\" EXIT; echo body",
    "f() { trap 'echo r' RETURN; }; eval f; echo end",
]


def _dynamic_sandbox(root: Path, **policy) -> Sandbox:  # type: ignore[no-untyped-def]
    return Sandbox({dt.MOUNT: LocalDir(root)}, cwd=dt.MOUNT,
                   policy=Policy(allow=dt.all_commands(), dynamic=True, **policy))


@needs_bash
@pytest.mark.parametrize("script", SOURCE_CASES)
def test_source_and_dynamic_code(tmp_path: Path, script: str) -> None:
    ref = dt.run_bash(script)
    dt.seed(tmp_path)
    r = _dynamic_sandbox(tmp_path).run(script)
    assert (r.stdout, r.exit_code) == (ref.stdout, ref.status), (script, r.stderr, ref.stderr)
    assert r.stderr == ref.stderr


# -- the guard ---------------------------------------------------------------------------------


def _sandbox(root: Path, allow: frozenset[str] | None = None, **policy) -> Sandbox:  # type: ignore[no-untyped-def]
    dt.seed(root)
    return Sandbox({"/w": LocalDir(root)}, cwd="/w",
                   policy=Policy(allow=allow if allow is not None else dt.all_commands(),
                                 **policy))


def test_literal_action_with_a_disallowed_command_is_refused_before_anything_runs(
        tmp_path: Path) -> None:
    sb = _sandbox(tmp_path, allow=frozenset({"echo"}))
    r = sb.run("echo start > s.txt; trap 'rm -f a.txt' EXIT; echo body")
    assert r.exit_code == 126 and r.stdout == b""
    assert b"in the trap action: `rm` is not an allowed command" in r.stderr
    assert r.stderr.count(b"\n") == 1
    assert not (tmp_path / "s.txt").exists() and (tmp_path / "a.txt").exists()


@pytest.mark.parametrize("script", [
    "trap 'rm -f a.txt' EXIT",
    "trap \"rm -f a.txt\" EXIT",
    "trap -- 'rm a.txt' ERR",
    "trap 'echo x; rm a.txt' INT",  # never delivered, still checked
    "f() { trap 'rm a.txt' RETURN; }",
    "trap 'trap \"rm a.txt\" EXIT' ERR",  # a trap inside a trap action
    "x=$(trap 'rm a.txt' EXIT)",
])
def test_literal_actions_are_guarded_like_the_script(tmp_path: Path, script: str) -> None:
    sb = _sandbox(tmp_path, allow=frozenset({"echo"}))
    msgs = sb.check(script)
    assert len(msgs) == 1 and "in the trap action" in msgs[0], msgs


def test_an_action_naming_no_command_fails_as_in_bash() -> None:
    # no function and no command `cleanup`: bash's "command not found" when the trap runs
    dt.check("trap 'cleanup' EXIT; echo body")


def test_an_action_may_call_a_function_of_the_script(tmp_path: Path) -> None:
    sb = _sandbox(tmp_path, allow=frozenset({"echo", "rm"}))
    r = sb.run("cleanup() { rm -f a.txt; echo cleaned; }\ntrap cleanup EXIT\necho body")
    assert (r.exit_code, r.stdout) == (0, b"body\ncleaned\n")
    assert not (tmp_path / "a.txt").exists()


def test_the_usual_temp_file_cleanup(tmp_path: Path) -> None:
    sb = _sandbox(tmp_path, allow=frozenset({"echo", "cat", "rm", "mktemp", "ls"}))
    r = sb.run("t=$(mktemp); trap 'rm -f \"$t\"' EXIT; echo data > \"$t\"; cat \"$t\"; "
               "echo \"$t\" > where.txt")
    assert (r.exit_code, r.stdout, r.stderr) == (0, b"data\n", b"")
    r2 = sb.run("t=$(cat where.txt); [ -e \"$t\" ]; echo $?")
    assert r2.stdout == b"1\n"
    r3 = sb.run("t=$(mktemp); trap 'rm -f \"$t\"; ls \"$t\"' EXIT; ls \"$t\" >/dev/null && echo made")
    assert r3.stdout == b"made\n" and b"No such file" in r3.stderr and r3.exit_code == 0


def test_read_only_policy_refuses_a_writing_action(tmp_path: Path) -> None:
    sb = _sandbox(tmp_path, read_only=True)
    msgs = sb.check("trap 'rm x' EXIT; echo hi")
    assert len(msgs) == 1 and "read-only" in msgs[0] and "trap action" in msgs[0], msgs
    assert sb.check("trap 'echo bye' EXIT; echo hi") == []
    r = sb.run("trap 'echo bye' EXIT; echo hi")
    assert r.stdout == b"hi\nbye\n"


def test_protected_paths_in_an_action(tmp_path: Path) -> None:
    sb = _sandbox(tmp_path, protected=("/w/a.txt",))
    msgs = sb.check("trap 'echo x > a.txt' EXIT")
    assert len(msgs) == 1 and "protected" in msgs[0], msgs


@pytest.mark.parametrize("script", [
    "t=x; trap \"rm -f $t\" EXIT",
    "trap \"echo `pwd`\" EXIT",
    "a='echo hi'; trap \"$a\" EXIT",
    "trap $a EXIT",
    "trap -- \"echo $HOME\" ERR",
    "trap echo\\ a* EXIT",  # a glob in the action word: its text is made at run time
    "trap {'rm a.txt',b} EXIT",
    "trap ~/x EXIT",
])
def test_run_time_action_refused_under_the_static_policy(tmp_path: Path, script: str) -> None:
    sb = _sandbox(tmp_path)
    msgs = sb.check(script)
    assert len(msgs) == 1 and "single-quote it" in msgs[0], msgs


def test_run_time_action_guarded_when_set_under_the_dynamic_policy(tmp_path: Path) -> None:
    dt.seed(tmp_path)
    sb = Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w",
                 policy=Policy(allow=frozenset({"echo", "rm"}), dynamic=True))
    r = sb.run("t=a.txt; trap \"rm -f $t; echo removed $t\" EXIT; echo body")
    assert (r.exit_code, r.stdout) == (0, b"body\nremoved a.txt\n")
    assert not (tmp_path / "b.txt").exists() is False
    r = sb.run("c=cat; trap \"$c b.txt\" EXIT; echo st=$?; trap -p")
    assert r.stdout == b"st=126\n" and b"sandbox: refused:" in r.stderr and b"cat" in r.stderr
    ro = Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w",
                 policy=Policy(allow=frozenset({"echo", "rm"}), dynamic=True, read_only=True))
    r = ro.run("f=b.txt; trap \"rm $f\" EXIT; echo st=$?")
    assert r.stdout == b"st=126\n" and b"read-only" in r.stderr
    assert (tmp_path / "b.txt").exists()


def test_no_action_check_for_printing_and_resets(tmp_path: Path) -> None:
    sb = _sandbox(tmp_path, allow=frozenset({"echo"}))
    for script in ("trap -p", "trap -l", "trap - EXIT", "trap EXIT", "trap -p \"$x\"",
                   "trap '' INT", "trap", "trap 0 1 2", "trap - $sig"):
        assert sb.check(script) == [], script


@pytest.mark.parametrize("script", [
    "trap 'echo x' DEBUG", "trap 'echo x' debug", "trap -- : INT DEBUG",
])
def test_debug_trap_refused_in_one_line(tmp_path: Path, script: str) -> None:
    msgs = _sandbox(tmp_path).check(script)
    assert len(msgs) == 1 and "DEBUG trap is not supported" in msgs[0] and "set -x" in msgs[0]


def test_debug_trap_named_at_run_time_is_refused_when_set(tmp_path: Path) -> None:
    r = _sandbox(tmp_path).run("s=DEBUG; trap 'echo x' $s; echo st=$?; trap -p; trap - $s")
    assert r.stdout == b"st=1\n" and b"DEBUG trap is not supported" in r.stderr


def test_refused_action_in_eval_under_dynamic_policy(tmp_path: Path) -> None:
    dt.seed(tmp_path)
    sb = Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w",
                 policy=Policy(allow=frozenset({"echo"}), dynamic=True))
    r = sb.run("eval \"trap 'rm a.txt' EXIT\"; echo st=$?")
    assert r.stdout == b"st=126\n" and (tmp_path / "a.txt").exists()


# -- limits ------------------------------------------------------------------------------------


def test_exit_trap_calling_a_recursive_function_hits_the_recursion_limit(tmp_path: Path) -> None:
    sb = Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w", policy=Policy(allow=frozenset({"echo"})),
                 limits=Limits(recursion_depth=50))
    r = sb.run("f() { f; }; trap f EXIT; echo body")
    assert r.stdout == b"body\n" and r.exit_code != 0
    assert b"sandbox: function recursion limit of 50 exceeded in f" in r.stderr


def test_err_trap_that_fails_does_not_loop(tmp_path: Path) -> None:
    sb = _sandbox(tmp_path)
    r = sb.run("set -E; f() { false; }; trap f ERR; false; echo st=$?")
    assert (r.stdout, r.exit_code) == (b"st=1\n", 0)


def test_return_trap_calling_its_function_does_not_loop(tmp_path: Path) -> None:
    sb = _sandbox(tmp_path)
    r = sb.run("set -T; f() { trap f RETURN; echo f; }; f; echo done")
    assert r.exit_code == 0 and r.stdout.endswith(b"done\n") and r.stdout.count(b"f\n") < 10


def test_exit_trap_that_exits_runs_once(tmp_path: Path) -> None:
    sb = _sandbox(tmp_path)
    r = sb.run("trap 'echo bye; exit 3' EXIT; exit 1")
    assert (r.stdout, r.exit_code) == (b"bye\n", 3)


def test_trap_action_counts_against_the_time_limit(tmp_path: Path) -> None:
    sb = Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w", policy=Policy(allow=frozenset({"echo"})),
                 limits=Limits(seconds=0.5))
    r = sb.run("trap 'while :; do :; done' EXIT; echo body")
    assert r.stdout == b"body\n" and r.exit_code != 0 and b"sandbox:" in r.stderr


def test_trap_action_counts_against_the_command_limit(tmp_path: Path) -> None:
    sb = Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w", policy=Policy(allow=frozenset({"echo"})),
                 limits=Limits(commands=20))
    r = sb.run("trap 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22; do "
               "echo $i; done' EXIT; echo body")
    assert r.exit_code != 0 and b"sandbox:" in r.stderr and b"command" in r.stderr


def test_no_exit_trap_after_a_limit(tmp_path: Path) -> None:
    sb = Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w", policy=Policy(allow=frozenset({"echo"})),
                 limits=Limits(recursion_depth=20))
    r = sb.run("trap 'echo bye' EXIT; f() { f; }; f")
    assert b"bye" not in r.stdout and b"recursion limit" in r.stderr
