"""Redirections, ``exec``, named descriptors, process substitution, pipelines and the reporting
builtins (``type``/``hash``/``wait``/``umask``/``times``): differential tests against bash 5.2
(stdout, status and the files left behind; a few stderr messages too, with bash's
``line N:`` dropped), seeded generated scripts over the descriptor table, and guard tests:
``exec`` with redirections can't reach past read-only mode or protected paths, ``>(cmd)``
bodies are checked, ``exec CMD`` stays refused by default.
"""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402
from sandbox import Policy  # noqa: E402
from sandbox.api import Sandbox  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

CASES = [
    'exec 3>out.txt; echo one >&3; echo two >&3; exec 3>&-; cat out.txt',
    'exec >log.txt 2>&1; echo hi; ls nope; exec >&-; true',
    'exec {fd}>f.txt; echo "fd=$fd"; echo data >&$fd; exec {fd}>&-; cat f.txt',
    'exec {a}>x1 {b}>x2; echo $a $b; echo A >&$a; echo B >&$b; cat x1 x2',
    'exec 3<a.txt; read -r l <&3; echo "$l"; read -r l <&3; echo "$l"; cat <&3',
    'exec <a.txt; read x; echo $x; cat',
    'exec 4>&1; echo via4 >&4; exec 4>&-; echo via4 >&4; echo st=$?',
    'exec 5>f.txt; exec 6>&5-; echo x >&5; echo st=$?; echo y >&6; cat f.txt',
    'echo first > rw.txt; exec 8<>rw.txt; read line <&8; echo line=$line; echo second >&8; cat rw.txt',
    '{ echo a; echo b >&2; } 2>&1 >/dev/null | cat',
    'f() { echo in f; echo err >&2; }; f 2>e.txt >o.txt; cat o.txt e.txt',
    'f() { echo in f; } > fo.txt; f; f; cat fo.txt',
    'while read l; do echo "[$l]"; done <<< "x y"',
    'x=$(<a.txt); echo "$x"',
    'echo $(< nope.txt); echo st=$?',
    'set -C; echo a > a.txt; echo st=$?; echo b >| a.txt; cat a.txt; echo c >> a.txt; cat a.txt',
    'set -C; echo a > /dev/null; echo st=$?',
    'set -o noclobber; echo x > new.txt; cat new.txt; echo y > new.txt; echo $?',
    'cat < nope.txt; echo st=$?',
    'echo hi > dir; echo st=$?',
    'echo hi 2>/dev/null >&3; echo st=$?',
    ": > ''; echo st=$?",
    'echo {myvar}>/dev/stdout; echo "myvar=$myvar"',
    'echo hi 3>&1 >&3',
    '{ exec 3>g.txt; } ; echo to3 >&3; cat g.txt',
    '{ exec >h.txt; } 2>/dev/null; echo gone; cat h.txt >&2',
    '( exec >i.txt; echo inside ); echo outside; cat i.txt',
    'exec 2>/dev/null; ls nope; echo st=$?',
    'echo x | { exec 3<&0; cat <&3; }',
    'for i in 1 2; do echo $i; done > loop.txt; cat loop.txt',
    'if true; then echo y; fi >> a.txt; cat a.txt',
    "diff <(printf 'a\\nb\\n') <(printf 'a\\nc\\n'); echo st=$?",
    'paste <(seq 3) <(seq 4 6)',
    'exec 3>&1; f() { echo hi >&3; }; f >/dev/null',
    'echo 1 2>&1- 2>/dev/null; echo st=$?',
    'exec 7>&-; echo st=$?',
    'echo x >&7; echo st=$?',
    'echo x 1>&2-; echo st=$?; echo after',
    'wait; echo $?; wait -n; echo $?; wait 123; echo $?; wait %1; echo $?; wait abc; echo $?; wait -x; echo $?',
    'umask; umask -S; umask -p; umask -pS; umask 077; umask; umask -S; umask u=rwx,g=rx; umask; umask 999; echo $?; umask g+w; umask; umask a-x; umask; umask -x; echo $?',
    'umask o=; umask -S; umask 0; umask -S; umask ug=r,o+w; umask; umask u+t; echo $?; umask 8; echo $?; umask u; echo $?; umask =r; umask; umask +x; umask; umask -S 077; umask -p 022; umask 07777; echo $?',
    '(umask 077; umask); umask',
    'hash; echo st=$?; hash -t ls; echo st=$?; ls >/dev/null; cat /dev/null; ls >/dev/null; hash; hash -t ls cat; hash -t ls; hash -l',
    'hash -d nope; echo $?; hash -r x; echo $?; hash; hash -y; echo $?; hash -t; echo $?',
    'hash echo; echo $?; hash; f(){ :; }; hash f; echo $?; hash cd; echo $?; hash; hash ./x; echo $?; hash',
    'ls >/dev/null; type ls; command -V ls; type -p ls; type -P ls; command -v ls; type -t f ls nope; echo $?',
    'f(){ :; }; type -t f; type -p f; echo $?; type -P f; echo $?; type -ft f; echo $?',
    'ls | cat >/dev/null; hash',
    'return; echo st=$?',
    'f() { return 300; }; f; echo $?',
    'exit 256',
    'exit 257',
    'exit -1',
    '(exit 300); echo $?',
    'shopt -s lastpipe; echo hi | read line; echo "line=$line"',
    'shopt -s lastpipe; i=0; seq 3 | while read l; do i=$((i+1)); done; echo i=$i',
    'shopt -s lastpipe; echo x | exit 3; echo after',
    'echo ${PIPESTATUS[@]}; { false; }; echo ${PIPESTATUS[@]}; if false; then :; fi; echo ${PIPESTATUS[@]}; true | false | true; echo ${PIPESTATUS[@]}; while false; do :; done; echo ${PIPESTATUS[@]}; (exit 3); echo ${PIPESTATUS[@]}',
    'x=1; echo ${PIPESTATUS[@]}; ! true; echo ${PIPESTATUS[@]}; for i in 1; do true | false; done; echo ${PIPESTATUS[@]}; { true | false; }; echo ${PIPESTATUS[@]};  if true | false; then :; else echo ${PIPESTATUS[@]}; fi; a=$(exit 5); echo ${PIPESTATUS[@]}',
    '[[ x == y ]]; echo ${PIPESTATUS[@]}; (( 0 )); echo ${PIPESTATUS[@]}; case a in b) ;; esac; echo ${PIPESTATUS[@]};  for i in 1 2; do false | true; done | cat; echo ${PIPESTATUS[@]}',
    'f() { true | false; }; f; echo ${PIPESTATUS[@]}; ! true | false; echo ${PIPESTATUS[@]}; case a in a) true|false;; esac; echo ${PIPESTATUS[@]}; false; for i in; do :; done; echo ${PIPESTATUS[@]}',
    'cat <<A; cat <<B\none\nA\ntwo\nB',
    'f() { cat; }; f <<EOF\nin func $((1+2))\nEOF',
    'while read -r a b; do echo "$b-$a"; done <<EOF\n1 2\n3 4\nEOF',
    'if cat <<X; then echo ok; fi\nbody\nX',
    'x=$(cat <<EOF\ninside\nEOF\n); echo "[$x]"',
    'cat <<< "$(echo hi)" | tr h H',
    'tr a-z A-Z <<< hello > up.txt; cat up.txt',
    '{ cat; } <<< group',
    'echo $(< a.txt wc -l)',
    'read -r first < a.txt; echo $first',
    'exec 3< a.txt; while read -r -u 3 l; do echo "got $l"; done',
    'exec 3< a.txt; read -u 3 x; echo $x; read -u 3 y; echo $y; exec 3<&-; read -u 3 z; echo st=$?',
]


@needs_bash
@pytest.mark.parametrize("script", CASES, ids=[f"c{i:03d}" for i in range(len(CASES))])
def test_same_as_bash(script: str) -> None:
    problem = dt.compare(script)
    assert problem is None, problem


_LINE_RE = re.compile(rb"^(?:/usr/bin/|/bin/)?bash: line \d+: ", re.M)

#: Scripts whose stderr is compared too (bash's ``bash: line N: `` prefix becomes ``bash: ``).
STDERR_CASES = [
    "cat < nope.txt",
    "echo hi > dir",
    "echo x >&7",
    "exec 3<nope.txt; echo st=$?",
    "echo 1 2>&1-",
    "exec 7>f; : 6>&7-; echo x >&7",
    "set -C; echo a > a.txt",
    "wait 12; wait %2; wait abc; wait -q",
    "umask 8; umask u+t; umask -z",
    "hash -y; hash nope; hash -t ls",
    "type nope; type -z",
    ": > ''",
    "return",
    "x=(1 2); echo hi > $x.out; f='a b'; echo hi > $f",
]


@needs_bash
@pytest.mark.parametrize("script", STDERR_CASES)
def test_messages_same_as_bash(script: str) -> None:
    ref, ours = dt.run_bash(script), dt.run_ours(script)
    assert (ours.stdout, ours.status) == (_LINE_RE.sub(b"bash: ", ref.stdout), ref.status)
    assert ours.stderr == _LINE_RE.sub(b"bash: ", ref.stderr)


# -- generated scripts over the descriptor table ---------------------------------------------

_FILES = ("f1", "f2", "a.txt")
_WORDS = ("alpha", "b c", "x-1", "")


def _stmt(rng: random.Random) -> str:
    fd = rng.choice((3, 4, 5, 9, 12))
    fd2 = rng.choice((3, 4, 6))
    f = rng.choice(_FILES)
    w = repr(rng.choice(_WORDS)).replace('"', "'")
    choices = [
        f"exec {fd}>{f}", f"exec {fd}>>{f}", f"exec {fd}<{f}", f"exec {fd}<>{f}",
        f"exec {fd}>&-", f"exec {fd2}>&{fd}", f"exec {fd2}>&{fd}-", f"exec {fd}>&1",
        f"echo {w} >&{fd}; echo st=$?", f"echo {w} {fd}>&1 >&{fd}",
        f"read -r v <&{fd}; echo \"v=$v st=$?\"", f"cat <&{fd}; echo st=$?",
        f"cat {f} 2>/dev/null; echo st=$?",
        f"{{ echo {w}; echo e{w} >&2; }} 2>/dev/null >>{f}",
        f"echo {w} > {f}", f"echo {w} >> {f}", f"echo {w} >| {f}", f"echo {w} &>> {f}",
        "set -C", "set +C", f"g() {{ echo {w}; }}; g >>{f}; g",
        f"echo {w} | cat >&{fd}; echo st=$?",
        f"exec {{v}}>{f}; echo \"fd=$v\"; echo {w} >&$v",
        f"exec {{v}}>&-; echo st=$?",
        f"while read -r l; do echo \"[$l]\"; done < {f}",
        f"cat <<< {w} >> {f}",
        f"(exec {fd}>{f}; echo sub >&{fd}); echo {w} >&{fd}; echo st=$?",
        f"{{ exec {fd}>&-; }}; echo {w} >&{fd}; echo st=$?",
        f"echo $(< {f})",
    ]
    return rng.choice(choices)


def generated(count: int, seed: int) -> list[str]:
    """``count`` scripts of 2-7 statements over descriptors and files, then the files."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        body = "; ".join(_stmt(rng) for _ in range(rng.randint(2, 7)))
        out.append(body + "; exec 2>/dev/null; echo ==; cat f1 f2; echo end")
    return out


GENERATED = generated(int(os.environ.get("REDIR_GENERATED", "200")), 1313)


@needs_bash
@pytest.mark.parametrize("script", GENERATED, ids=[f"g{i:03d}" for i in range(len(GENERATED))])
def test_generated_same_as_bash(script: str) -> None:
    problem = dt.compare(script)
    assert problem is None, problem


# -- guard ------------------------------------------------------------------------------------

def _box(tmp_path: Path, **policy) -> Sandbox:
    return Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w",
                   policy=Policy(allow=frozenset({"cat", "echo", "tee", "wc", "rm"}), **policy))


@pytest.mark.parametrize("script", [
    "exec 3>out.txt", "exec >log 2>&1", "exec {fd}>x", "exec 4<>x", "exec 5>>x",
    "exec 3>$name", "{ exec 3>x; }", "f() { exec 3>x; }", "echo hi > >(cat > x)",
    "cat <(tee x </dev/null)",
])
def test_exec_and_procsub_writes_refused_when_read_only(tmp_path: Path, script: str) -> None:
    r = _box(tmp_path, read_only=True).run(script + "; echo ran")
    assert r.exit_code == 126 and b"read-only" in r.stderr and b"ran" not in r.stdout
    assert list(tmp_path.iterdir()) == []


def test_exec_to_protected_path_refused(tmp_path: Path) -> None:
    box = _box(tmp_path, protected=("/w/core.md",))
    r = box.run("exec 3>/w/core.md; echo ran")
    assert r.exit_code == 126 and b"protected" in r.stderr and r.stdout == b""


def test_exec_outside_the_jail_never_reaches_the_host(tmp_path: Path) -> None:
    r = _box(tmp_path).run("exec 3>/outside.txt; echo st=$?; echo hi >&3; echo st=$?")
    assert b"st=1" in r.stdout and not Path("/outside.txt").exists()


def test_exec_cmd_refused_by_default(tmp_path: Path) -> None:
    r = _box(tmp_path).run("exec cat /dev/null; echo ran")
    assert r.exit_code == 126 and b"exec CMD replaces the shell" in r.stderr
    assert r.stdout == b""


def test_exec_cmd_under_dynamic_runs_then_ends_the_shell(tmp_path: Path) -> None:
    box = _box(tmp_path, dynamic=True)
    r = box.run("exec echo hi; echo never")
    assert (r.stdout, r.exit_code) == (b"hi\n", 0)
    r = box.run("f() { echo f; }; exec f; echo never")
    assert r.exit_code == 127 and r.stdout == b"" and b"exec: f: not found" in r.stderr
    r = box.run("exec rm -rf /w; echo never")  # rm is allowed; it runs under the same policy
    assert r.stdout == b""
    r = Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w",
                policy=Policy(allow=frozenset({"echo"}), dynamic=True)).run("exec cat x")
    assert r.exit_code == 126 and b"`cat` is not an allowed command" in r.stderr


def test_procsub_bodies_are_guarded(tmp_path: Path) -> None:
    r = _box(tmp_path).run("echo hi > >(sort); echo ran")
    assert r.exit_code == 126 and b"`sort` is not an allowed command" in r.stderr
    assert r.stdout == b""
    r = _box(tmp_path).run("tee >(grep x) </dev/null; echo ran")
    assert r.exit_code == 126 and b"`grep`" in r.stderr


def test_output_procsub_runs_after_the_command(tmp_path: Path) -> None:
    r = _box(tmp_path).run("echo abc | tee >(wc -c) > out.txt; cat out.txt")
    assert r.stdout == b"4\nabc\n" and r.exit_code == 0


def test_exec_descriptors_stay_inside_a_subshell(tmp_path: Path) -> None:
    r = _box(tmp_path).run("(exec >x.txt; echo in); echo out; cat x.txt")
    assert r.stdout == b"out\nin\n"


def test_reporting_builtins_run_nothing(tmp_path: Path) -> None:
    r = _box(tmp_path).run("hash rm; type rm; command -v rm; hash -t rm; echo ok > k; cat k")
    assert r.stdout == b"rm is hashed (/usr/bin/rm)\n/usr/bin/rm\n/usr/bin/rm\nok\n"
    r = _box(tmp_path).run("hash -p /w/x cat")
    assert r.exit_code == 2 and b"-p: not supported" in r.stderr


def test_many_named_descriptors_end_with_a_message(tmp_path: Path) -> None:
    r = _box(tmp_path).run("for i in $(seq 2000); do exec {v}>/dev/null; done; echo $v")
    assert r.exit_code != 0 or r.stdout.strip().isdigit()
    assert b"Traceback" not in r.stderr and b"internal error" not in r.stderr
